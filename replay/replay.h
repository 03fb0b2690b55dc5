/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replay.h - the parts of `vmscope replay` (replay/): decision records
 * rebuilt from a run (decisions.c), the recording kernel's own logic as pure
 * functions (kernel-logic.c), the built-in policies (policy-*.c, listed in
 * policies.c), plugins (plugin.c) and the evaluation (evaluate.c).
 */
#ifndef VMS_REPLAY_H
#define VMS_REPLAY_H

#include "vms-policy.h"

struct vms_db;

/* --- decisions.c --- */

/*
 * Rebuild the decision records of the run into the decision table (emptied
 * first); with @records, also into memory, ordered (decisions_order()), for
 * the evaluation (the caller frees *@records). Return: number of records,
 * or -1 (vms_error set).
 */
struct decision;
long decisions_build(struct vms_db *db, struct decision **records);

/* One decision record as the evaluation reads it back. */
struct decision {
	long long id;
	int is_run;			/* kswapd_run, else pass */
	long long episode_ts;
	int nid;
	long long ts;
	struct vms_pass_input in;
	long long scanned[4];		/* inactive_anon, active_anon, inactive_file, active_file */
	long long reclaimed;
	long long slab_calls;
	int runs_since_success;
	int lowest_priority;		/* kswapd_run */
	int swept_twice;		/* kswapd_run: the priority went back up to 12 inside the run */
	int retried;			/* kswapd_run: restarted after a failed first sweep */
	int first_lowest;		/* kswapd_run: lowest priority of the first sweep */
	long long first_reclaimed, first_slab_freed;
	int cache_trim_mode_failed;	/* kswapd_run: the baseline's, over the first sweep */
	long long reclaimed_type[2], activated[2], rotated[2], pageout[2], restored[2];
	long long ref_keep[2];		/* pass: nr_ref_keep per type, the pages kept inactive by their references */
	int reclaimer_index;		/* decision.reclaimer: reclaimer_names[] (replay-summary.h) */
	long long order_ts;		/* where it comes in the kernel's order: ts, or a run's ts_end */
	int from_trace;			/* no counters: inputs bounded by the events (trace-inference.c) */
};

/* --- kernel-logic.c: 6.18 classic-LRU reclaim logic on decision inputs --- */

long long kl_int_sqrt(long long x);
int kl_inactive_is_low(long long inactive, long long active);
/* 5.5+ may_deactivate bits: refaults since the last cycle, or a small inactive list. */
int kl_deactivate_file(const struct vms_pass_input *in);
int kl_deactivate_anon(const struct vms_pass_input *in);
int kl_cache_trim_mode(const struct vms_pass_input *in);
int kl_file_is_tiny(const struct vms_pass_input *in);
/* sc->may_swap: 0 for boosted kswapd (5.0+ balance_pgdat), or VMS_UNDECIDABLE when unrecorded. */
int kl_may_swap(const struct vms_pass_input *in);
/*
 * get_scan_count() of 6.18 up to the choice of balance; FRACT fractions from
 * the anon/file cost model with @anon_cost, @file_cost (latent state).
 * Return: 0, or VMS_UNDECIDABLE when the answer rests on an unrecorded input.
 */
int kl_scan_balance(const struct vms_pass_input *in, long long anon_cost, long long file_cost,
		    struct vms_scan_decision *out);

/* --- kernel-logic-4.c: 4.12-5.4 (inactive_list_is_low, reclaim_stat) --- */

/*
 * inactive_list_is_low(lruvec, file, sc, @refaults_seen): no swap, no anon
 * aging; file refaults zero the ratio when @refaults_seen (4.12-5.2: only
 * the actual_reclaim calls; 5.3+: every call).
 */
int kl4_inactive_list_is_low(const struct vms_pass_input *in, int file, int refaults_seen);
/*
 * get_scan_count() of 4.12-5.4. @refaults_in_shortcut: 5.3+ semantics;
 * @boost_rules: 5.0+ boosted kswapd (may_swap = 0); @round_up: 4.20+
 * DIV64_U64_ROUND_UP of the FRACT targets. Return: 0 or VMS_UNDECIDABLE.
 */
int kl4_scan_balance(const struct vms_pass_input *in, int refaults_in_shortcut, int boost_rules,
		     int round_up, struct vms_scan_decision *out);
/* The mapped_once hook of 4.12-5.7 (page_check_references()): activate anon (1), keep file (0). */
int kl4_mapped_once(void *priv, const struct vms_pass_input *in, int file);
/* Which types get a non-zero scan target under @d at this priority: bit 0 anon, bit 1 file. */
int kl_scan_types(const struct vms_pass_input *in, const struct vms_scan_decision *d);
/* get_scan_count()'s target of the inactive list of one type (@want_file) under @d: pages. */
long long kl_scan_target(const struct vms_pass_input *in, const struct vms_scan_decision *d,
			 int want_file);
/* get_scan_count()'s target of list @lru (inactive/active anon/file: 0..3) under @d: size >> priority, scaled. */
long long kl_list_target(const struct vms_pass_input *in, const struct vms_scan_decision *d,
			 int lru);

/* --- policies.c, plugin.c --- */

struct policy_instance {
	const struct vms_policy *policy;
	void *priv;
	char *label;			/* name plus parameters, as the user gave it */
	void *dl;			/* dlopen handle of a plugin, or NULL */
};

extern const struct vms_policy *const builtin_policies[];
extern const int builtin_npolicies;
/* Return: the built-in policy called @name, or NULL. */
const struct vms_policy *policy_find(const char *name);
/*
 * Open "NAME[:k=v,...]" (built-in) or "PATH.so[:k=v,...]" (plugin): checks
 * the ABI and the mandatory fields, runs init. Return: 0 or -1 (vms_error set).
 */
int policy_open(const char *spec, struct policy_instance *out);
void policy_close(struct policy_instance *p);
/* Validate a registry: unique names, ABI, name and description present. Return: 0 or -1. */
int policies_check(const struct vms_policy *const *list, int n);
/*
 * Parse "k=v,k=v" for the keys in @keys into @vals (long long). Unknown keys
 * and non-numbers fail. Return: 0 or -1 (vms_error set).
 */
int policy_params(const char *params, const char *const *keys, long long *vals, int nkeys);

/* --- evaluate.c --- */

#define N_TRIVIAL 4	/* trivial predictors per question, at most */
#define N_QUESTIONS 6	/* question_names[] */
struct eval_totals {
	long long asked[N_QUESTIONS], agreed[N_QUESTIONS], undecidable[N_QUESTIONS];	/* see evaluate.c */
	long long pages_changed[N_QUESTIONS];
	/* decidable decisions where the question's deciding input varies */
	long long decisive[N_QUESTIONS], agreed_decisive[N_QUESTIONS];
};
/* --- discriminate.c --- */

/* Does question @q's deciding input vary in @d (is the answer not settled by structure)? */
int question_decisive(int q, const struct decision *d);
/* The answer of trivial predictor @k of question @q for @d (types bits for scan_balance). */
int trivial_answer(int q, int k, const struct decision *d);
/* Name of trivial predictor @k of question @q, or NULL past the last. */
const char *trivial_name(int q, int k);
/*
 * decision-load.c: put records made from rows (dc_decision_of_row()) in the
 * kernel's order and give them the modelled anon/file cost each pass
 * started from, and the exact sizes. Return: 0 or -1.
 */
int decisions_order(struct vms_db *db, struct decision *all, long n);
/*
 * Run every decision record through @p (and through the baseline for the
 * hooks @p leaves out) and store replay_result rows; with @with_trivial
 * also (replacing them) the replay_trivial rows, which do not depend on @p.
 * Return: 0 or -1 (vms_error set).
 */
int evaluate_policy(struct vms_db *db, const struct decision *all, long n,
		    struct policy_instance *p, int with_trivial, struct eval_totals *tot);
/*
 * What the evaluation of every policy over the same decisions reads and
 * does not depend on the policy (the recorded kernel's scan targets of the
 * active lists), made once from @all: read-only, so the evaluations on
 * two threads may share it. Return: it, or NULL out of memory.
 */
struct eval_shared;
struct eval_shared *eval_shared_new(const struct decision *all, long n);
void eval_shared_free(struct eval_shared *s);
struct replay_summary;
/* Where evaluate_policy_into() puts the answers besides the totals. */
struct eval_target {
	int differences_only;		/* replay_result gets only the differing answers, no replay_trivial */
	struct replay_summary *summary;	/* counts every answer too, or NULL */
	int policy_index;		/* the policy's index in @summary: 0 the baseline */
	const struct eval_shared *shared;	/* of these decisions, or NULL: made for the one */
};
/* evaluate_policy(), storing into @to. Return: 0 or -1 (vms_error set). */
int evaluate_policy_into(struct vms_db *db, const struct decision *all, long n,
			 struct policy_instance *p, int with_trivial, const struct eval_target *to,
			 struct eval_totals *tot);
/*
 * The answers of one policy's evaluation, kept to be stored later: a
 * policy can be evaluated on another thread (evaluate-parallel.c) while
 * this one stores another's answers.
 */
struct eval_answers;
struct eval_answers *eval_answers_new(void);
void eval_answers_free(struct eval_answers *b);
/*
 * Evaluate @p over the decisions as evaluate_policy_into() does, keeping
 * the answers in @buf (emptied first) instead of storing and counting
 * them: touches no database and no summary, so it may run on any thread.
 * No trivial predictors (the baseline's evaluation scores them). @shared:
 * eval_shared_new() of @all, or NULL (made here). Return: 0, or -1 out of
 * memory (no message set: the caller reports it).
 */
int evaluate_policy_buffered(const struct decision *all, long n, struct policy_instance *p,
			     int differences_only, const struct eval_shared *shared,
			     struct eval_answers *buf, struct eval_totals *tot);
/*
 * Store and count the answers of @buf as evaluate_policy_into() would
 * have, in the same order. Return: 0 or -1 (vms_error set).
 */
int evaluate_store_buffered(struct vms_db *db, const struct decision *all, struct policy_instance *p,
			    const struct eval_target *to, const struct eval_answers *buf);
/*
 * Evaluate every policy of @pols (the baseline first, with the trivial
 * predictors) into @to's tables and summary, as evaluate_policy_into()
 * one after the other would (the same rows in the same order), with the
 * built-in policies after the baseline evaluated on a second thread too
 * when there is a second CPU. @done(label, arg) is called when a policy's
 * answers are stored. Return: 0 or -1 (vms_error set).
 */
int evaluate_policies(struct vms_db *db, const struct decision *all, long n,
		      struct policy_instance *pols, int npols, struct eval_target *to,
		      void (*done)(const char *label, void *arg), void *arg);
/*
 * Evaluate @rounds times without storing; with @answers_only without the
 * firmness (each answer asked once, not again with inputs moved).
 * Return: seconds taken, or -1.
 */
double evaluate_bench(const struct decision *all, long n, struct policy_instance *p, int rounds,
		      int answers_only);
extern const char *const question_names[N_QUESTIONS];

#endif
