// SPDX-License-Identifier: GPL-2.0
/*
 * summary.c - count a replay's answers while they are evaluated and store
 * the counts (schema/015-replay-summary.sql): per policy, question and
 * reclaimer (replay_count), the trivial predictors on the baseline's
 * decisive decisions (replay_trivial_count) and the answers that differ
 * from the baseline's (replay_vs_baseline), and per kernel answer the
 * baseline's and the trivial predictors' agreement on the decisive decisions
 * (replay_class_count: the balanced agreement, which a predictor cannot
 * reach by always giving the kernel's most frequent answer). Each group keeps the position
 * of its first answer among all answers, the order replay_result rows are
 * stored in, so that the report lists the groups in the order its per-row
 * queries did (ORDER BY MIN(rowid)).
 */
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vms.h"
#include "replay.h"
#include "replay-summary.h"

const char *const reclaimer_names[N_RECLAIMERS] = {
	"kswapd", "direct", "memcg", "memcg_softlimit", "node", "other",
};

int reclaimer_index(const char *name)
{
	for (int i = 0; i < N_RECLAIMERS - 1; i++)
		if (name && !strcmp(name, reclaimer_names[i]))
			return i;
	return N_RECLAIMERS - 1;
}

struct group {
	long long first_answer, first_decidable;	/* positions; -1 none yet */
	long long asked, decidable, agreed, undecidable;
	long long pages, pages_seen;			/* sum over differing answers with pages */
	long long firm, soft, decisive, agreed_decisive;
};

struct vs_group {
	int policy, question;
	const char *baseline, *answer;
	long long first_answer, decisions, pages, pages_seen;
};

/* Kernel answers a question can have: scan_balance's none, anon, file, anon+file. */
#define N_CLASSES 4

/* The kernel's answers of a question seen so far, and the counts per answer. */
struct answer_classes {
	const char *name[N_CLASSES];
	int n;
	long long decisions[N_CLASSES], agreed[N_CLASSES];		/* the baseline's */
	long long trivial_rows[N_TRIVIAL][N_CLASSES], trivial_agreed[N_TRIVIAL][N_CLASSES];
};

struct replay_summary {
	int npolicies;
	long ndecisions;
	long long answers;			/* answers counted so far: the next position */
	long long rows;				/* of them, rows of replay_result */
	int last_policy;			/* the policy of the last row, -1 none */
	struct group *groups;			/* [policy][question][reclaimer] */
	long long trivial_rows[N_QUESTIONS][N_TRIVIAL], trivial_agreed[N_QUESTIONS][N_TRIVIAL];
	struct answer_classes classes[N_QUESTIONS];
	const char **baseline;			/* [decision][question]: the baseline's answer */
	struct vs_group *vs;
	long nvs, vs_alloc;
};

struct replay_summary *summary_new(int npolicies, long ndecisions)
{
	struct replay_summary *s = calloc(1, sizeof(*s));
	size_t ngroups = (size_t)npolicies * N_QUESTIONS * N_RECLAIMERS;

	if (!s)
		goto oom;
	s->npolicies = npolicies;
	s->ndecisions = ndecisions;
	s->last_policy = -1;
	s->groups = calloc(ngroups ? ngroups : 1, sizeof(*s->groups));
	s->baseline = calloc(ndecisions > 0 ? (size_t)ndecisions * N_QUESTIONS : 1, sizeof(*s->baseline));
	if (!s->groups || !s->baseline)
		goto oom;
	for (size_t i = 0; i < ngroups; i++)
		s->groups[i].first_answer = s->groups[i].first_decidable = -1;
	return s;
oom:
	summary_free(s);
	vms_error("out of memory");
	return NULL;
}

void summary_free(struct replay_summary *s)
{
	if (!s)
		return;
	free(s->groups);
	free(s->baseline);
	free(s->vs);
	free(s);
}

/* The answers are string constants: mostly the same pointer when the same text. */
static int same_text(const char *x, const char *y)
{
	return x == y || !strcmp(x, y);
}

/* The group of answers that differ from the baseline's as @a does, made when new. */
static struct vs_group *vs_group_of(struct replay_summary *s, const struct summary_answer *a,
				    const char *baseline)
{
	struct vs_group *g;

	for (long i = 0; i < s->nvs; i++) {
		g = &s->vs[i];
		if (g->policy == a->policy && g->question == a->question &&
		    same_text(g->baseline, baseline) && same_text(g->answer, a->answer))
			return g;
	}
	if (s->nvs == s->vs_alloc) {
		long na = s->vs_alloc ? 2 * s->vs_alloc : 32;
		struct vs_group *nv = realloc(s->vs, na * sizeof(*nv));

		if (!nv)
			return NULL;
		s->vs = nv;
		s->vs_alloc = na;
	}
	g = &s->vs[s->nvs++];
	memset(g, 0, sizeof(*g));
	g->policy = a->policy;
	g->question = a->question;
	g->baseline = baseline;
	g->answer = a->answer;
	g->first_answer = s->answers;
	return g;
}

/* The index of the kernel's answer @kernel among question @q's, or -1 (more than N_CLASSES). */
static int class_of(struct replay_summary *s, int q, const char *kernel)
{
	struct answer_classes *c = &s->classes[q];

	for (int i = 0; i < c->n; i++)
		if (same_text(c->name[i], kernel))
			return i;
	if (c->n == N_CLASSES)
		return -1;
	c->name[c->n] = kernel;
	return c->n++;
}

int summary_add(struct replay_summary *s, const struct summary_answer *a)
{
	struct group *g = &s->groups[(a->policy * N_QUESTIONS + a->question) * N_RECLAIMERS + a->reclaimer];
	const char **base = &s->baseline[a->decision * N_QUESTIONS + a->question];

	if (g->first_answer < 0)
		g->first_answer = s->answers;
	g->asked++;
	if (a->agrees < 0) {
		g->undecidable++;
	} else {
		if (g->first_decidable < 0)
			g->first_decidable = s->answers;
		g->decidable++;
		g->agreed += a->agrees;
		if (!a->agrees) {
			g->firm += a->firm;
			g->soft += !a->firm;
			if (a->has_pages) {
				g->pages += a->pages;
				g->pages_seen++;
			}
		}
	}
	if (a->decisive) {
		g->decisive++;
		g->agreed_decisive += a->agrees > 0;
		if (a->policy == 0 && a->kernel) {
			int c = class_of(s, a->question, a->kernel);

			if (c >= 0) {
				s->classes[a->question].decisions[c]++;
				s->classes[a->question].agreed[c] += a->agrees > 0;
			}
		}
	}
	if (a->policy == 0) {
		*base = a->answer;
	} else if (*base && !same_text(*base, a->answer)) {
		struct vs_group *v = vs_group_of(s, a, *base);

		if (!v)
			return vms_error("out of memory");
		v->decisions++;
		if (a->has_pages) {
			v->pages += a->pages;
			v->pages_seen++;
		}
	}
	if (a->stored) {
		s->rows++;
		s->last_policy = a->policy;
	}
	s->answers++;
	return 0;
}

void summary_trivial(struct replay_summary *s, int q, int k, int agrees, const char *kernel)
{
	int c = class_of(s, q, kernel);

	s->trivial_rows[q][k]++;
	s->trivial_agreed[q][k] += agrees != 0;
	if (c >= 0) {
		s->classes[q].trivial_rows[k][c]++;
		s->classes[q].trivial_agreed[k][c] += agrees != 0;
	}
}

static void bind_sum(sqlite3_stmt *st, int col, long long sum, long long seen)
{
	if (seen)
		sqlite3_bind_int64(st, col, sum);
	else
		sqlite3_bind_null(st, col);
}

static int step(sqlite3 *sql, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : vms_error("cannot store the replay summary: %s",
						 sqlite3_errmsg(sql));
}

static int store_counts(struct replay_summary *s, sqlite3 *sql, const char *const *labels,
			sqlite3_stmt *st)
{
	for (int p = 0; p < s->npolicies; p++)
		for (int q = 0; q < N_QUESTIONS; q++)
			for (int r = 0; r < N_RECLAIMERS; r++) {
				const struct group *g = &s->groups[(p * N_QUESTIONS + q) * N_RECLAIMERS + r];

				if (!g->asked)
					continue;
				sqlite3_bind_text(st, 1, labels[p], -1, SQLITE_STATIC);
				sqlite3_bind_text(st, 2, question_names[q], -1, SQLITE_STATIC);
				sqlite3_bind_text(st, 3, reclaimer_names[r], -1, SQLITE_STATIC);
				sqlite3_bind_int64(st, 4, g->first_answer);
				bind_sum(st, 5, g->first_decidable, g->first_decidable >= 0);
				sqlite3_bind_int64(st, 6, g->asked);
				sqlite3_bind_int64(st, 7, g->decidable);
				sqlite3_bind_int64(st, 8, g->agreed);
				sqlite3_bind_int64(st, 9, g->undecidable);
				bind_sum(st, 10, g->pages, g->pages_seen);
				sqlite3_bind_int64(st, 11, g->firm);
				sqlite3_bind_int64(st, 12, g->soft);
				sqlite3_bind_int64(st, 13, g->decisive);
				sqlite3_bind_int64(st, 14, g->agreed_decisive);
				if (step(sql, st))
					return -1;
			}
	return 0;
}

static int store_trivial(struct replay_summary *s, sqlite3 *sql, sqlite3_stmt *st)
{
	for (int q = 0; q < N_QUESTIONS; q++)
		for (int k = 0; k < N_TRIVIAL && trivial_name(q, k); k++) {
			if (!s->trivial_rows[q][k])
				continue;
			sqlite3_bind_text(st, 1, question_names[q], -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 2, trivial_name(q, k), -1, SQLITE_STATIC);
			sqlite3_bind_int(st, 3, k);
			sqlite3_bind_int64(st, 4, s->trivial_rows[q][k]);
			sqlite3_bind_int64(st, 5, s->trivial_agreed[q][k]);
			if (step(sql, st))
				return -1;
		}
	return 0;
}

/* One row of replay_class_count (@rank -1: the baseline). */
static int class_row(sqlite3 *sql, sqlite3_stmt *st, int q, const char *predictor, int rank,
		     const char *kernel, long long decisions, long long agreed)
{
	if (!decisions)
		return 0;
	sqlite3_bind_text(st, 1, question_names[q], -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, predictor, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, rank);
	sqlite3_bind_text(st, 4, kernel, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, decisions);
	sqlite3_bind_int64(st, 6, agreed);
	return step(sql, st);
}

static int store_classes(struct replay_summary *s, sqlite3 *sql, const char *baseline,
			 sqlite3_stmt *st)
{
	for (int q = 0; q < N_QUESTIONS; q++) {
		const struct answer_classes *c = &s->classes[q];

		for (int i = 0; i < c->n; i++) {
			if (class_row(sql, st, q, baseline, -1, c->name[i], c->decisions[i], c->agreed[i]))
				return -1;
			for (int k = 0; k < N_TRIVIAL && trivial_name(q, k); k++)
				if (class_row(sql, st, q, trivial_name(q, k), k, c->name[i],
					      c->trivial_rows[k][i], c->trivial_agreed[k][i]))
					return -1;
		}
	}
	return 0;
}

static int store_vs(struct replay_summary *s, sqlite3 *sql, const char *const *labels,
		    sqlite3_stmt *st)
{
	for (long i = 0; i < s->nvs; i++) {
		const struct vs_group *v = &s->vs[i];

		sqlite3_bind_text(st, 1, labels[v->policy], -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, question_names[v->question], -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, v->baseline, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, v->answer, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 5, v->first_answer);
		sqlite3_bind_int64(st, 6, v->decisions);
		bind_sum(st, 7, v->pages, v->pages_seen);
		if (step(sql, st))
			return -1;
	}
	return 0;
}

int summary_store(struct replay_summary *s, sqlite3 *sql, const char *const *labels,
		  const char *results, long long first_ts)
{
	static const char *const inserts[] = {
		"INSERT INTO replay_summary VALUES (?, ?, ?, ?, ?, ?, ?)",
		"INSERT INTO replay_count VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		"INSERT INTO replay_trivial_count VALUES (?, ?, ?, ?, ?)",
		"INSERT INTO replay_vs_baseline VALUES (?, ?, ?, ?, ?, ?, ?)",
		"INSERT INTO replay_class_count VALUES (?, ?, ?, ?, ?, ?)",
	};
	sqlite3_stmt *st[5] = { NULL };
	int rc = -1, i;

	for (i = 0; i < 5; i++)
		if (sqlite3_prepare_v2(sql, inserts[i], -1, &st[i], NULL)) {
			vms_error("cannot store the replay summary: %s", sqlite3_errmsg(sql));
			goto out;
		}
	sqlite3_bind_text(st[0], 1, results, -1, SQLITE_STATIC);
	sqlite3_bind_int(st[0], 2, s->npolicies);
	sqlite3_bind_int64(st[0], 3, s->ndecisions);
	sqlite3_bind_int64(st[0], 4, s->answers);
	bind_sum(st[0], 5, first_ts, s->ndecisions > 0);
	sqlite3_bind_int64(st[0], 6, s->rows);
	if (s->last_policy >= 0)
		sqlite3_bind_text(st[0], 7, labels[s->last_policy], -1, SQLITE_STATIC);
	if (!step(sql, st[0]) && !store_counts(s, sql, labels, st[1]) &&
	    !store_trivial(s, sql, st[2]) && !store_vs(s, sql, labels, st[3]) &&
	    (!s->npolicies || !store_classes(s, sql, labels[0], st[4])))
		rc = 0;
out:
	for (i = 0; i < 5; i++)
		sqlite3_finalize(st[i]);
	return rc;
}
