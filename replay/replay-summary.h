/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replay-summary.h - the counts of a replay's answers, kept in memory while
 * the policies are evaluated (evaluate.c) and stored once at the end in the
 * tables of schema/015-replay-summary.sql (summary.c), so that the report
 * reads a few hundred rows instead of grouping every answer again.
 */
#ifndef VMS_REPLAY_SUMMARY_H
#define VMS_REPLAY_SUMMARY_H

#include <sqlite3.h>

struct replay_summary;

/* The reclaimer names of table decision, in the order summary.c keeps them. */
#define N_RECLAIMERS 6
extern const char *const reclaimer_names[N_RECLAIMERS];
/* Index of reclaimer @name in reclaimer_names ('other' for an unknown one). */
int reclaimer_index(const char *name);

/* One answer, as replay_result would hold it. */
struct summary_answer {
	int policy;			/* index of the policy, 0 the baseline */
	long decision;			/* index of the decision in the evaluated array */
	int question;			/* 0..N_QUESTIONS - 1, question_names[] */
	int reclaimer;			/* reclaimer_names[] */
	const char *answer;		/* the policy's answer: a string that outlives the summary */
	const char *kernel;		/* the kernel's answer (its class for the balanced agreement), too */
	int agrees;			/* 1, 0, or -1 undecidable */
	long long pages;
	int has_pages;
	int firm;			/* the firmness is exact or sampled */
	int decisive;			/* replay_result.decisive */
	int stored;			/* it is a row of replay_result */
};

/*
 * A summary of @npolicies policies over @ndecisions decisions.
 * Return: the summary, or NULL (vms_error set).
 */
struct replay_summary *summary_new(int npolicies, long ndecisions);
void summary_free(struct replay_summary *s);
/* Count @a, the next answer in the order replay_result rows are stored. Return: 0 or -1. */
int summary_add(struct replay_summary *s, const struct summary_answer *a);
/*
 * Count trivial predictor @k of question @q on a decision the baseline
 * marked decisive, where the kernel answered @kernel (a string constant).
 */
void summary_trivial(struct replay_summary *s, int q, int k, int agrees, const char *kernel);
/*
 * Store the counts in the tables of 015-replay-summary.sql (which must
 * exist and be empty), with @labels the policies' names, @results how
 * replay_result was kept ("all" or "differences") and @first_ts the time of
 * the first decision (ignored without decisions). Return: 0 or -1.
 */
int summary_store(struct replay_summary *s, sqlite3 *sql, const char *const *labels,
		  const char *results, long long first_ts);

#endif
