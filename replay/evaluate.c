// SPDX-License-Identifier: GPL-2.0
/*
 * evaluate.c - run the decision records through a policy and compare each
 * answer with what the kernel did. Writes replay_result rows.
 *
 * Questions and what the recording shows for each:
 *  scan_balance     which LRU types got a scan target: inactive anon and/or
 *                   file scanned in the pass (exact). Asked for passes that
 *                   scanned any LRU and whose list sizes are known.
 *  deactivate_file  the active file list aged (lru_shrink_active of file
 *  deactivate_anon  pages) in a pass that scanned that type, where the active
 *                   list had a target at this priority.
 *  shrink_slab      shrinkers called in the pass. "Not called" cannot be
 *                   told from "called with nothing to free" (no event then):
 *                   a policy that shrinks, in a pass without slab events, is
 *                   counted undecidable, not as agreeing or differing.
 *  kswapd_retry     a kswapd run whose first sweep reclaimed nothing: did
 *                   its priority loop restart (6.9+ cache-trim retry) or not.
 *  mapped_once      a pass whose inactive batches kept pages by their
 *                   references (nr_ref_keep > 0, per type): the kernel kept
 *                   them (that is what the count means); would the policy
 *                   have activated the mapped pages used once (<= 2.6.33,
 *                   anon <= 5.7)? Agreement by construction: the page's
 *                   PTEs, flag and VM_EXEC are in no event, so no answer
 *                   is decisive; the pages say how much a policy changes.
 * Each answer is also marked decisive or not (discriminate.c); on decisive
 * decisions the question's trivial predictors are scored against the kernel
 * too (table replay_trivial, written with one policy: they do not depend on
 * it). Each answer gets its
 * firmness by moving each input to the ends of its range, and the inputs
 * of one provenance to their other ends together: the weakest provenance
 * among the inputs that change the answer ('exact' when none does). The latent kernel state the records carry is modelled when they
 * are loaded (decision-load.c). Each answer is counted in a summary
 * (summary.c) and stored, or with --results differences only when it
 * differs from the kernel's.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vms.h"
#include "replay.h"
#include "trace-inference.h"
#include "replay-summary.h"

const char *const question_names[N_QUESTIONS] = {
	"scan_balance", "deactivate_file", "deactivate_anon", "shrink_slab", "kswapd_retry",
	"mapped_once",
};
enum { Q_SCAN, Q_DEACT_FILE, Q_DEACT_ANON, Q_SLAB, Q_RETRY, Q_MAPPED };

extern const struct vms_policy policy_v6_18;

static const char *prov_name(enum vms_prov p)
{
	static const char *const names[] = { "exact", "sampled", "inferred", "unknown" };

	return names[p];
}

static enum vms_prov weakest(enum vms_prov a, enum vms_prov b)
{
	return a > b ? a : b;
}

static const char *types_name(int bits)
{
	static const char *const names[] = { "none", "anon", "file", "anon+file" };

	return names[bits & 3];
}

/*
 * replay_result rows per INSERT: a statement with as many value lists is
 * stepped once for them (a million rows at 10M events: one INSERT each
 * took a second more).
 */
#define ROWS_PER_INSERT 16
#define RESULT_COLUMNS 9

/*
 * One answer, as store() was given it: what its replay_result row and its
 * count in the summary are made from. Kept for every answer of a buffered
 * evaluation (millions at 10M events: compact), and for a row waiting for
 * its INSERT.
 */
struct eval_answer {
	const char *kernel, *answer;	/* string constants */
	long long pages;
	long decision;			/* index into the decisions evaluated */
	unsigned char question, agrees, has_pages, firm, undecidable, decisive;
};
_Static_assert(sizeof(struct eval_answer) <= 40, "a buffered answer grew");

struct eval_ctx {
	sqlite3 *sql;
	sqlite3_stmt *insert;
	sqlite3_stmt *trivial;		/* replay_trivial rows, or NULL: not this time */
	struct policy_instance *p;
	struct eval_totals *tot;
	const char *label;
	int answers_only;		/* benchmark: no firmness (no answer asked again) */
	int differences_only;		/* replay_result gets the differing answers only */
	struct replay_summary *sum;	/* counts every answer, or NULL */
	int policy_index;		/* of p in the summary: 0 the baseline */
	const struct decision *first;	/* the decisions evaluated: indexes for the summary */
	int from_trace;			/* the decision being evaluated has inputs from the events alone */
	int kept_types;			/* mapped_once: the types whose pages the kernel kept (bits) */
	struct eval_answers *buf;	/* the answers go here, to be stored later, or NULL */
	const struct eval_shared *shared;	/* what every policy's evaluation reads */
	sqlite3_stmt *insert_many;	/* ROWS_PER_INSERT rows of replay_result, or NULL */
	struct eval_answer pending[ROWS_PER_INSERT];	/* rows not yet inserted */
	int npending;
};

/*
 * What the evaluation of every policy over the same decisions reads, made
 * once before them, then read-only (read by the helper thread too).
 */
struct eval_shared {
	const struct decision *all;	/* the decisions it was made from */
	long n;
	long long (*active_target)[2];	/* per decision: the kernel's of the active anon, file list */
};

/* The answers of a buffered evaluation, for evaluate_store_buffered() */
struct eval_answers {
	struct eval_answer *a;
	size_t n, alloc;
	int failed;			/* out of memory while buffering */
};

/* Whether @a is a row of replay_result: not with differences_only when it does not differ. */
static int is_row(const struct eval_ctx *e, const struct eval_answer *a)
{
	return e->insert && !(e->differences_only && (a->undecidable || a->agrees));
}

/* Count one answer in the summary, as replay_result's row of it would count. */
static int summarize(struct eval_ctx *e, const struct eval_answer *a)
{
	struct summary_answer s = {
		.policy = e->policy_index, .decision = a->decision, .question = a->question,
		.reclaimer = e->first[a->decision].reclaimer_index, .answer = a->answer,
		.kernel = a->kernel, .agrees = a->undecidable ? -1 : a->agrees,
		.pages = a->pages, .has_pages = a->has_pages, .firm = a->firm <= VMS_PROV_SAMPLED,
		.decisive = a->decisive && !a->undecidable, .stored = is_row(e, a),
	};

	return summary_add(e->sum, &s);
}

/* Keep @a in @b for evaluate_store_buffered(). Return: 0, or -1 (out of memory). */
static int buffer_answer(struct eval_answers *b, const struct eval_answer *a)
{
	if (b->n == b->alloc) {
		size_t na = b->alloc ? 2 * b->alloc : 65536;
		struct eval_answer *nb = realloc(b->a, na * sizeof(*nb));

		if (!nb) {
			b->failed = 1;
			return -1;
		}
		b->a = nb;
		b->alloc = na;
	}
	b->a[b->n++] = *a;
	return 0;
}

/* Bind the row of @a to the columns of @st from parameter @at + 1 on. */
static void bind_row(sqlite3_stmt *st, int at, const struct eval_ctx *e,
		     const struct eval_answer *a)
{
	sqlite3_bind_text(st, at + 1, e->label, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, at + 2, e->first[a->decision].id);
	sqlite3_bind_text(st, at + 3, question_names[a->question], -1, SQLITE_STATIC);
	sqlite3_bind_text(st, at + 4, a->kernel, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, at + 5, a->answer, -1, SQLITE_STATIC);
	if (a->undecidable)
		sqlite3_bind_null(st, at + 6);
	else
		sqlite3_bind_int(st, at + 6, a->agrees);
	if (a->has_pages)
		sqlite3_bind_int64(st, at + 7, a->pages);
	else
		sqlite3_bind_null(st, at + 7);
	sqlite3_bind_text(st, at + 8, a->undecidable ? "undecidable" : prov_name(a->firm), -1,
			  SQLITE_STATIC);
	sqlite3_bind_int(st, at + 9, a->decisive && !a->undecidable);
}

/* Insert the pending rows, in order: ROWS_PER_INSERT at once, or one by one. Return: 0 or -1. */
static int flush_rows(struct eval_ctx *e)
{
	int i = 0, rc = SQLITE_DONE;

	if (e->npending == ROWS_PER_INSERT && e->insert_many) {
		sqlite3_reset(e->insert_many);
		for (; i < ROWS_PER_INSERT; i++)
			bind_row(e->insert_many, i * RESULT_COLUMNS, e, &e->pending[i]);
		rc = sqlite3_step(e->insert_many);
	}
	for (; i < e->npending && rc == SQLITE_DONE; i++) {
		sqlite3_reset(e->insert);
		bind_row(e->insert, 0, e, &e->pending[i]);
		rc = sqlite3_step(e->insert);
	}
	e->npending = 0;
	return rc == SQLITE_DONE ? 0 : vms_error("cannot store a replay result: %s",
						 sqlite3_errmsg(e->sql));
}

/* Count one answer in the summary and store it in replay_result, as store() says. */
static int put_answer(struct eval_ctx *e, const struct eval_answer *a)
{
	if (e->sum && summarize(e, a))
		return -1;
	if (!is_row(e, a))
		return 0;	/* benchmark, or an answer that does not differ: count only */
	e->pending[e->npending++] = *a;
	return e->npending == ROWS_PER_INSERT || !e->insert_many ? flush_rows(e) : 0;
}

/*
 * One answer: counted in the totals and the summary, and stored in
 * replay_result (only when it differs, with differences_only); in a
 * buffered evaluation kept for evaluate_store_buffered() instead, which
 * counts and stores it then. @kernel and @answer must outlive the
 * evaluation (string constants).
 */
static int store(struct eval_ctx *e, const struct decision *d, int q, const char *kernel,
		 const char *answer, int agrees, long long pages, int has_pages, enum vms_prov firm,
		 int undecidable, int decisive)
{
	struct eval_answer a = {
		.kernel = kernel, .answer = answer, .pages = pages, .decision = d - e->first,
		.question = q, .agrees = !!agrees, .has_pages = !!has_pages, .firm = firm,
		.undecidable = !!undecidable, .decisive = !!decisive,
	};

	e->tot->asked[q]++;
	if (undecidable)
		e->tot->undecidable[q]++;
	else if (agrees)
		e->tot->agreed[q]++;
	else
		e->tot->pages_changed[q] += has_pages ? pages : 0;
	if (decisive && !undecidable) {
		e->tot->decisive[q]++;
		e->tot->agreed_decisive[q] += agrees != 0;
	}
	return e->buf ? buffer_answer(e->buf, &a) : put_answer(e, &a);
}

/* The policy's hook, or the baseline's when it has none or defers. */
static int ask_deactivate(struct eval_ctx *e, const struct vms_pass_input *in, int file)
{
	const struct vms_policy *p = e->p->policy;
	int r = p->deactivate ? p->deactivate(e->p->priv, in, file) : VMS_DEFER;

	return r == VMS_DEFER ? policy_v6_18.deactivate(NULL, in, file) : r;
}

static int ask_scan(struct eval_ctx *e, const struct vms_pass_input *in,
		    struct vms_scan_decision *d)
{
	const struct vms_policy *p = e->p->policy;
	int r;

	memset(d, 0, sizeof(*d));
	r = p->scan_balance ? p->scan_balance(e->p->priv, in, d) : VMS_DEFER;
	if (r == VMS_DEFER) {
		memset(d, 0, sizeof(*d));
		r = policy_v6_18.scan_balance(NULL, in, d);
	}
	return r;
}

static int ask_slab(struct eval_ctx *e, const struct vms_pass_input *in)
{
	const struct vms_policy *p = e->p->policy;
	int r = p->shrink_slab ? p->shrink_slab(e->p->priv, in) : VMS_DEFER;

	return r == VMS_DEFER ? policy_v6_18.shrink_slab(NULL, in) : r;
}

static int ask_retry(struct eval_ctx *e, const struct vms_kswapd_run *run)
{
	const struct vms_policy *p = e->p->policy;
	int r = p->kswapd_retry ? p->kswapd_retry(e->p->priv, run) : VMS_DEFER;

	return r == VMS_DEFER ? policy_v6_18.kswapd_retry(NULL, run) : r;
}

/*
 * mapped_once for the types in @kept (bits): the types whose pages used once
 * the policy activates (bits), or VMS_UNDECIDABLE when it cannot tell for one.
 */
static int ask_mapped(struct eval_ctx *e, const struct vms_pass_input *in, int kept)
{
	const struct vms_policy *p = e->p->policy;
	int bits = 0;

	for (int file = 0; file <= 1; file++) {
		int r;

		if (!(kept & (1 << file)))
			continue;
		r = p->mapped_once ? p->mapped_once(e->p->priv, in, file) : VMS_DEFER;
		if (r == VMS_DEFER)
			r = policy_v6_18.mapped_once(NULL, in, file);
		if (r == VMS_UNDECIDABLE)
			return r;
		bits |= r ? 1 << file : 0;
	}
	return bits;
}

/* The policy's answer to question @q for a pass: types bits, 0/1, or VMS_UNDECIDABLE. */
static int pass_answer(struct eval_ctx *e, const struct vms_pass_input *in, int q)
{
	struct vms_scan_decision sd;
	int r;

	switch (q) {
	case Q_SCAN:
		r = ask_scan(e, in, &sd);
		return r == VMS_UNDECIDABLE ? r : kl_scan_types(in, &sd);
	case Q_DEACT_FILE:
	case Q_DEACT_ANON:
		return ask_deactivate(e, in, q == Q_DEACT_FILE);
	case Q_MAPPED:
		return ask_mapped(e, in, e->kept_types);
	default:
		return ask_slab(e, in);
	}
}

/* The inputs firmness moves, as offsets into struct vms_pass_input. */
static const size_t movable[] = {
	offsetof(struct vms_pass_input, inactive_anon), offsetof(struct vms_pass_input, active_anon),
	offsetof(struct vms_pass_input, inactive_file), offsetof(struct vms_pass_input, active_file),
	offsetof(struct vms_pass_input, free_pages), offsetof(struct vms_pass_input, high_wmark),
	offsetof(struct vms_pass_input, swap_free), offsetof(struct vms_pass_input, refault_file),
	offsetof(struct vms_pass_input, refault_anon), offsetof(struct vms_pass_input, anon_cost),
	offsetof(struct vms_pass_input, file_cost), offsetof(struct vms_pass_input, recent_scanned[0]),
	offsetof(struct vms_pass_input, recent_scanned[1]),
	offsetof(struct vms_pass_input, recent_rotated[0]),
	offsetof(struct vms_pass_input, recent_rotated[1]),
};
#define N_MOVABLE (sizeof(movable) / sizeof(movable[0]))

static struct vms_value *input_at(struct vms_pass_input *in, size_t i)
{
	return (struct vms_value *)((char *)in + movable[i]);
}

/* A question put to the policy by trace_box_holds() */
struct box_question {
	struct eval_ctx *e;
	int q;
};

static int box_ask(void *ctx, const struct vms_pass_input *x)
{
	const struct box_question *b = ctx;

	return pass_answer(b->e, x, b->q);
}

/*
 * Move every input of provenance @p that sits at one end of its range to
 * the other end at once, and ask again: does the answer change? A pass that
 * raced a flush has each list at one flush's view and the range over both
 * (exact_view_fill()): the kernel read one view as a whole, so moving one
 * list at a time would miss an answer only the other whole view changes.
 */
static int other_ends_flip(struct eval_ctx *e, const struct vms_pass_input *x, int q, int answer,
			   enum vms_prov p)
{
	struct vms_pass_input y = *x;
	int moved = 0;
	size_t i;

	for (i = 0; i < N_MOVABLE; i++) {
		struct vms_value *v = input_at(&y, i);

		if (v->prov != p || v->lo == v->hi || (v->v != v->lo && v->v != v->hi))
			continue;
		v->v = v->v == v->lo ? v->hi : v->lo;
		moved++;
	}
	/* with one input moved, the one-at-a-time pass asked this already */
	return moved > 1 && pass_answer(e, &y, q) != answer;
}

/*
 * Firmness of @answer: move each non-exact input to the ends of its range,
 * and then those of one provenance to their other ends together; the
 * weakest provenance among those that change the answer, or 'exact'.
 * Inputs from the events alone are moved together (every corner of their
 * box): 'exact' only when no combination of them changes the answer.
 */
static enum vms_prov firmness(struct eval_ctx *e, const struct vms_pass_input *in, int q, int answer)
{
	struct vms_pass_input x;
	enum vms_prov weakest_movable = VMS_PROV_EXACT;
	struct box_question box = { e, q };
	int box_holds = 1;
	size_t i;

	if (e->answers_only)
		return VMS_PROV_EXACT;
	for (i = 0; i < N_MOVABLE; i++) {
		const struct vms_value *v = input_at((struct vms_pass_input *)in, i);

		if (v->prov > weakest_movable && (v->lo != v->v || v->hi != v->v))
			weakest_movable = v->prov;
	}
	if (weakest_movable == VMS_PROV_EXACT)
		return VMS_PROV_EXACT;	/* no input can move */
	if (e->from_trace) {
		box_holds = trace_box_holds(in, box_ask, &box, answer);
		if (box_holds)
			return VMS_PROV_EXACT;
	}
	x = *in;
	/*
	 * Weakest provenance first: the first that flips the answer is the
	 * firmness, as no firmer input can lower it (a pass over the inputs per
	 * provenance, not a sort: sorting the pointers cost more than the asks).
	 */
	for (enum vms_prov p = weakest_movable; p > VMS_PROV_EXACT; p--) {
		for (i = 0; i < N_MOVABLE; i++) {
			struct vms_value *v = input_at(&x, i), saved = *v;
			long long ends[2] = { saved.lo, saved.hi };
			int flips = 0;

			if (saved.prov != p)
				continue;
			for (int k = 0; k < 2 && !flips; k++) {
				if (ends[k] == saved.v)
					continue;
				v->v = ends[k];
				flips = pass_answer(e, &x, q) != answer;
			}
			*v = saved;
			if (flips)
				return p;
		}
		if (other_ends_flip(e, &x, q, answer, p))
			return p;
	}
	/* only a combination of the trace's open inputs changes it */
	return box_holds ? VMS_PROV_EXACT : weakest_movable;
}

/*
 * The firmness of @answer where it is used: stored in its row, or counted
 * as firm or soft when it differs from the kernel's. An agreeing answer is
 * no row of a differences-only replay, so its inputs are not moved.
 */
static enum vms_prov firmness_of(struct eval_ctx *e, const struct vms_pass_input *in, int q,
				 int answer, int agrees)
{
	return e->differences_only && agrees ? VMS_PROV_EXACT : firmness(e, in, q, answer);
}

/*
 * Store whether each trivial predictor of @q agrees on a decisive decision
 * the kernel answered @seen; @counted: the baseline's answer there is
 * decisive too (replay_result.decisive), so the summary counts them.
 */
static int score_trivial(struct eval_ctx *e, int q, const struct decision *d, int seen,
			 const char *kernel, int counted)
{
	sqlite3_stmt *st = e->trivial;

	for (int k = 0; st && k < N_TRIVIAL && trivial_name(q, k); k++) {
		int agrees = trivial_answer(q, k, d) == seen;

		if (e->sum && counted)
			summary_trivial(e->sum, q, k, agrees, kernel);
		if (e->differences_only)
			continue;
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, d->id);
		sqlite3_bind_text(st, 2, question_names[q], -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, trivial_name(q, k), -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 4, agrees);
		if (sqlite3_step(st) != SQLITE_DONE)
			return vms_error("cannot store a trivial predictor's answer: %s",
					 sqlite3_errmsg(e->sql));
	}
	return 0;
}

/* The size of the active anon or @file list. */
static long long active_size(const struct vms_pass_input *in, int file)
{
	if (in->have_lru_size)
		return in->lru_size[file ? 3 : 1];	/* exact inputs */
	return file ? in->active_file.v : in->active_anon.v;
}

/*
 * The recorded kernel's scan targets of the active lists of pass @d (the
 * 6.18 model; 0 where the list sizes are unknown), the same for every
 * policy: an active list is aged only when get_scan_count() gave it a
 * target, which the scan fraction can round to nothing even where its size
 * >> priority is not. Where the model gives the type's inactive list no
 * target although the kernel scanned it, the model's fraction is not the
 * kernel's: the size >> priority decides, as before.
 */
static void kernel_active_targets(const struct decision *d, long long target[2])
{
	const struct vms_pass_input *in = &d->in;
	struct vms_scan_decision kernel_sd;
	int have_kernel_sd;

	target[0] = target[1] = 0;
	if (d->is_run || in->inactive_file.prov == VMS_PROV_UNKNOWN)
		return;
	have_kernel_sd = policy_v6_18.scan_balance(NULL, in, &kernel_sd) != VMS_UNDECIDABLE;
	for (int file = 0; file <= 1; file++)
		target[file] = have_kernel_sd && kl_list_target(in, &kernel_sd, file ? 2 : 0) > 0 ?
			       kl_list_target(in, &kernel_sd, file ? 3 : 1) :
			       active_size(in, file) >> in->priority;
}

struct eval_shared *eval_shared_new(const struct decision *all, long n)
{
	struct eval_shared *s = calloc(1, sizeof(*s));

	if (s)
		s->active_target = malloc((n > 0 ? n : 1) * sizeof(*s->active_target));
	if (!s || !s->active_target) {
		eval_shared_free(s);
		return NULL;
	}
	s->all = all;
	s->n = n;
	for (long i = 0; i < n; i++)
		kernel_active_targets(&all[i], s->active_target[i]);
	return s;
}

void eval_shared_free(struct eval_shared *s)
{
	if (s)
		free(s->active_target);
	free(s);
}

/*
 * @given when it was made from @all and @n, else one made here into *@own
 * (the caller frees it). Return: the one to read, or NULL out of memory.
 */
static const struct eval_shared *shared_for(const struct eval_shared *given,
					    const struct decision *all, long n,
					    struct eval_shared **own)
{
	*own = NULL;
	if (given && given->all == all && given->n == n)
		return given;
	return *own = eval_shared_new(all, n);
}

static int eval_pass(struct eval_ctx *e, const struct decision *d)
{
	const struct vms_pass_input *in = &d->in;
	int lru_known = in->inactive_file.prov != VMS_PROV_UNKNOWN;
	int seen, bits, decisive, undecidable;

	e->from_trace = d->from_trace;

	if (d->scanned[0] + d->scanned[2] > 0 && lru_known) {
		long long pages = 0;

		struct vms_scan_decision sd;

		undecidable = ask_scan(e, in, &sd) == VMS_UNDECIDABLE;
		bits = undecidable ? VMS_UNDECIDABLE : kl_scan_types(in, &sd);
		seen = (d->scanned[0] > 0 ? 1 : 0) | (d->scanned[2] > 0 ? 2 : 0);
		if (undecidable)
			;
		else if ((bits & 1) && !(seen & 1))	/* anon it would have scanned instead of file */
			pages = kl_scan_target(in, &sd, 0);
		else if (!(bits & 1) && (seen & 1))
			pages = d->scanned[0];
		decisive = question_decisive(Q_SCAN, d);
		if (decisive && score_trivial(e, Q_SCAN, d, seen, types_name(seen), !undecidable))
			return -1;
		if (store(e, d, Q_SCAN, types_name(seen), undecidable ? "undecidable" : types_name(bits),
			  bits == seen, pages, !undecidable,
			  undecidable ? VMS_PROV_UNKNOWN : firmness_of(e, in, Q_SCAN, bits, bits == seen),
			  undecidable,
			  decisive))
			return -1;
	}
	for (int file = 0; file <= 1 && lru_known; file++) {
		long long active = active_size(in, file);
		long long target = e->shared->active_target[d - e->first][file];
		long long scanned_inactive = d->scanned[file ? 2 : 0];
		int q = file ? Q_DEACT_FILE : Q_DEACT_ANON, want, did;

		if (!scanned_inactive || target == 0)
			continue;	/* the active list had no target in this pass */
		/*
		 * From the events alone an active list has a size only where the
		 * kernel aged it: asking there would pick the passes by the answer.
		 */
		if (d->from_trace)
			continue;
		want = pass_answer(e, in, q);
		undecidable = want == VMS_UNDECIDABLE;
		did = d->scanned[file ? 3 : 1] > 0;
		decisive = question_decisive(q, d);
		if (decisive && score_trivial(e, q, d, did, did ? "aged" : "kept", !undecidable))
			return -1;
		if (store(e, d, q, did ? "aged" : "kept",
			  undecidable ? "undecidable" : want ? "aged" : "kept", want == did,
			  active >> in->priority, 1,
			  undecidable ? VMS_PROV_UNKNOWN : firmness_of(e, in, q, want, want == did),
			  undecidable, decisive))
			return -1;
	}
	{
		int want = pass_answer(e, in, Q_SLAB), did = d->slab_calls > 0;

		/* no shrinker event: not called, or called with nothing to free */
		undecidable = want == VMS_UNDECIDABLE || (want && !did);
		decisive = question_decisive(Q_SLAB, d);
		if (decisive && did && score_trivial(e, Q_SLAB, d, did, "shrink", !undecidable))
			return -1;
		if (store(e, d, Q_SLAB, did ? "shrink" : "no shrinker call seen",
			  want == VMS_UNDECIDABLE ? "undecidable" : want ? "shrink" : "skip",
			  want == did || (!want && !did), 0, 0, VMS_PROV_EXACT, undecidable,
			  decisive && did))
			return -1;
	}
	if (d->ref_keep[0] > 0 || d->ref_keep[1] > 0) {
		static const char *const activated[] = {
			"keep", "activate anon", "activate file", "activate anon+file",
		};
		int want;
		long long pages = 0;

		e->kept_types = (d->ref_keep[0] > 0 ? 1 : 0) | (d->ref_keep[1] > 0 ? 2 : 0);
		want = ask_mapped(e, in, e->kept_types);
		undecidable = want == VMS_UNDECIDABLE;
		for (int file = 0; file <= 1 && !undecidable; file++)
			if (want & (1 << file))
				pages += d->ref_keep[file];	/* those pages to the active list instead */
		/* the kernel kept them: nr_ref_keep is the answer, no input decides it */
		decisive = question_decisive(Q_MAPPED, d);
		if (store(e, d, Q_MAPPED, "keep", undecidable ? "undecidable" : activated[want & 3],
			  want == 0, pages, !undecidable,
			  undecidable ? VMS_PROV_UNKNOWN : firmness_of(e, in, Q_MAPPED, want, want == 0),
			  undecidable, decisive))
			return -1;
	}
	return 0;
}

static int eval_run(struct eval_ctx *e, const struct decision *d)
{
	struct vms_kswapd_run run = {
		.nid = d->nid,
		.lowest_priority = d->first_lowest,
		.runs_since_success = d->runs_since_success,
		.cache_trim_mode_failed = d->cache_trim_mode_failed,
		.slab_freed = d->first_slab_freed > 0,
		.last_pass = d->in,
	};
	int want, undecidable, decisive, flipped;
	enum vms_prov firm = VMS_PROV_EXACT;

	e->from_trace = d->from_trace;
	if (d->first_reclaimed > 0 || d->first_lowest < 0)
		return 0;	/* only a first sweep that reclaimed nothing raises the question */
	want = ask_retry(e, &run);
	undecidable = want == VMS_UNDECIDABLE;
	decisive = question_decisive(Q_RETRY, d);
	if (decisive && score_trivial(e, Q_RETRY, d, d->retried,
				       d->retried ? "retried" : "failure counted", !undecidable))
		return -1;
	/* cache_trim_mode_failed rests on the passes' sampled sizes and inferred refaults */
	run.cache_trim_mode_failed = !run.cache_trim_mode_failed;
	flipped = e->answers_only ? want : ask_retry(e, &run);
	if (!undecidable && flipped != want)
		firm = weakest(d->in.inactive_file.prov, d->in.refault_file.prov);
	return store(e, d, Q_RETRY, d->retried ? "retried" : "failure counted",
		     undecidable ? "undecidable" : want ? "retry" : "failure counted",
		     want == d->retried, 0, 0, firm, undecidable, decisive);
}

static int run_all(struct eval_ctx *e, const struct decision *all, long n)
{
	long i;

	for (i = 0; i < n; i++)
		if (all[i].is_run ? eval_run(e, &all[i]) : eval_pass(e, &all[i]))
			return -1;
	return 0;
}

int evaluate_policy(struct vms_db *db, const struct decision *all, long n,
		    struct policy_instance *p, int with_trivial, struct eval_totals *tot)
{
	struct eval_target every_row = { 0 };

	return evaluate_policy_into(db, all, n, p, with_trivial, &every_row, tot);
}

/* The INSERT of ROWS_PER_INSERT replay_result rows, or NULL (then they go one at a time). */
static sqlite3_stmt *insert_many(sqlite3 *sql)
{
	static const char head[] = "INSERT INTO replay_result VALUES ",
			  one[] = "(?, ?, ?, ?, ?, ?, ?, ?, ?)";
	char text[sizeof(head) + ROWS_PER_INSERT * (sizeof(one) + 2)], *p = text;
	sqlite3_stmt *st = NULL;

	p += sprintf(p, "%s", head);
	for (int k = 0; k < ROWS_PER_INSERT; k++)
		p += sprintf(p, "%s%s", k ? ", " : "", one);
	if (sqlite3_prepare_v2(sql, text, -1, &st, NULL)) {
		sqlite3_finalize(st);
		return NULL;
	}
	return st;
}

/* Insert what is pending and finalize @e's statements. Return: @rc, or -1 when the rows failed. */
static int close_target(struct eval_ctx *e, int rc)
{
	if (!rc && e->npending)
		rc = flush_rows(e);
	sqlite3_finalize(e->insert);
	sqlite3_finalize(e->insert_many);
	sqlite3_finalize(e->trivial);
	e->insert = e->insert_many = e->trivial = NULL;
	return rc;
}

/* Prepare @e's statements: replay_result's rows of @p emptied, and with @with_trivial replay_trivial's. */
static int open_target(struct vms_db *db, struct eval_ctx *e, int with_trivial)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(e->sql, "DELETE FROM replay_result WHERE policy = ?1", -1, &st, NULL))
		goto sql_err;
	sqlite3_bind_text(st, 1, e->label, -1, SQLITE_STATIC);
	sqlite3_step(st);
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(e->sql, "INSERT INTO replay_result VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
			       -1, &e->insert, NULL))
		goto sql_err;
	e->insert_many = insert_many(e->sql);
	if (with_trivial &&
	    (sqlite3_exec(e->sql, "DELETE FROM replay_trivial", NULL, NULL, NULL) ||
	     sqlite3_prepare_v2(e->sql, "INSERT INTO replay_trivial VALUES (?, ?, ?, ?)", -1,
				&e->trivial, NULL))) {
		close_target(e, -1);
		goto sql_err;
	}
	return 0;
sql_err:
	return vms_error("%s: %s", vms_db_path(db), sqlite3_errmsg(e->sql));
}

int evaluate_policy_into(struct vms_db *db, const struct decision *all, long n,
			 struct policy_instance *p, int with_trivial, const struct eval_target *to,
			 struct eval_totals *tot)
{
	struct eval_ctx e = {
		.sql = vms_db_sql(db), .p = p, .tot = tot, .label = p->label,
		.differences_only = to->differences_only, .sum = to->summary,
		.policy_index = to->policy_index, .first = all,
	};
	struct eval_shared *own;
	int rc;

	memset(tot, 0, sizeof(*tot));
	if (!(e.shared = shared_for(to->shared, all, n, &own)))
		return vms_error("out of memory");
	rc = open_target(db, &e, with_trivial) ? -1 : close_target(&e, run_all(&e, all, n));
	eval_shared_free(own);
	return rc;
}

struct eval_answers *eval_answers_new(void)
{
	return calloc(1, sizeof(struct eval_answers));
}

void eval_answers_free(struct eval_answers *b)
{
	if (b)
		free(b->a);
	free(b);
}

int evaluate_policy_buffered(const struct decision *all, long n, struct policy_instance *p,
			     int differences_only, const struct eval_shared *shared,
			     struct eval_answers *buf, struct eval_totals *tot)
{
	struct eval_ctx e = {
		.p = p, .tot = tot, .label = p->label, .differences_only = differences_only,
		.first = all, .buf = buf,
	};
	struct eval_shared *own;
	int rc;

	memset(tot, 0, sizeof(*tot));
	buf->n = 0;
	buf->failed = 0;
	if (!(e.shared = shared_for(shared, all, n, &own)))
		return -1;
	rc = run_all(&e, all, n) || buf->failed ? -1 : 0;
	eval_shared_free(own);
	return rc;
}

int evaluate_store_buffered(struct vms_db *db, const struct decision *all, struct policy_instance *p,
			    const struct eval_target *to, const struct eval_answers *buf)
{
	struct eval_ctx e = {
		.sql = vms_db_sql(db), .p = p, .label = p->label,
		.differences_only = to->differences_only, .sum = to->summary,
		.policy_index = to->policy_index, .first = all,
	};
	int rc = 0;

	if (open_target(db, &e, 0))
		return -1;
	for (size_t i = 0; i < buf->n && !rc; i++)
		rc = put_answer(&e, &buf->a[i]);
	return close_target(&e, rc);
}

double evaluate_bench(const struct decision *all, long n, struct policy_instance *p, int rounds,
		      int answers_only)
{
	struct eval_totals tot;
	struct eval_ctx e = {
		.p = p, .tot = &tot, .label = p->label, .answers_only = answers_only, .first = all,
	};
	double t0 = vms_now(), t;
	struct eval_shared *own;
	int r, rc = 0;

	/* timed too, as a policy's evaluation alone makes it */
	if (!(e.shared = shared_for(NULL, all, n, &own)))
		return -1;
	for (r = 0; r < rounds && !rc; r++) {
		memset(&tot, 0, sizeof(tot));
		rc = run_all(&e, all, n);
	}
	t = vms_now() - t0;
	eval_shared_free(own);
	return rc ? -1 : t;
}
