// SPDX-License-Identifier: GPL-2.0
/*
 * derive.c - derive, once, what the report sections need from a finished
 * run (schema/910-derived.sql): the begin/end pairings that the views of
 * 006-views.sql computed with window functions, now real tables with the
 * same names and columns, and per time bucket rollups of the high-volume
 * tables. It sits at the end of record/import (vms_db_finish()), inside the
 * transaction that finishes the run; `vmscope report` on a database made
 * before it existed derives the same tables into TEMP (vms_derive() with
 * @temp set), which is slower but gives the same numbers.
 *
 * How it works:
 *  - reclaim_interval and kswapd_interval: their begin/end events are few
 *    (a few % of a run); they are read into memory, sorted per task (node)
 *    by (ts, seq) as the views order them, and paired in one pass.
 *  - shrink_slab_call (the pairs behind the view shrink_slab_interval): start
 *    and end events are a third of a run, too many to sort in memory. They
 *    are read in seq order (two cursors merged) and paired per task as they
 *    come, which equals the view's (ts, seq) order as long as each task's
 *    events are in time order along seq. A live recording can break that
 *    (drains merge CPUs page by page): when a task's event is older than its
 *    previous one, the table is emptied and paired again from a (pid, ts,
 *    seq) sort in SQL: slower, same result.
 *  - event_bucket: rows per event and bucket with their seq range, from one
 *    pass over each event table (the pairing passes count their own tables).
 *  - inactive_bucket: mm_vmscan_lru_shrink_inactive per bucket, task and
 *    reclaimer class; the class of an event (inside a memcg or a direct
 *    reclaim call of its task) is looked up in the sorted begin/end keys of
 *    its task, the audit section's definition.
 *  - shrink_bucket: the calls summed per bucket, shrinker and priority as
 *    they are written.
 *  - episode: the reclaim episodes of the whole run (analyze/report-episodes.c
 *    defines them), fed by the slab and inactive passes as they read.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vms.h"
#include "strmap.h"

#define NUL LLONG_MIN		/* an SQL NULL in the integer fields below */

#define MRU_COLS 16
#define MRU_N 4

struct derive {
	sqlite3 *sql;
	const char *mru[MRU_COLS][MRU_N];	/* intern(): recent values per column */
	struct vms_db *db;
	long long origin, bucket_ns, nbuckets;
	struct strmap strings;	/* interned text values: shr, shrink, gfp_flags */
	struct agg *buckets;	/* event_bucket accumulators, one per (tbl, event) */
	struct vms_episodes *eps;	/* table episode, fed by the slab and inactive passes */
	int nagg, aagg;
};

/* One (tbl, event): rows per bucket. */
struct agg {
	char *tbl, *event;
	long long *n, *lo, *hi;	/* per bucket: rows, min and max seq */
};

static int sql_fail(struct derive *d, const char *what)
{
	return vms_error("%s: derive %s: %s", vms_db_path(d->db), what, sqlite3_errmsg(d->sql));
}

static sqlite3_stmt *prep(struct derive *d, const char *sql)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(d->sql, sql, -1, &st, NULL) != SQLITE_OK) {
		sql_fail(d, "prepare");
		return NULL;
	}
	return st;
}

/* Run an INSERT and reset it for the next row. Return: 0, or -1. */
static int step_reset(struct derive *d, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : sql_fail(d, what);
}

static long long col(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NUL : sqlite3_column_int64(st, i);
}

static void bind(sqlite3_stmt *st, int i, long long v)
{
	if (v == NUL)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_int64(st, i, v);
}

/*
 * Return: a stable copy of column @i (NULL for SQL NULL), or "" when out of
 * memory. The few values of a column repeat: the last ones seen in column
 * @i (< MRU_COLS) are compared before the hash is.
 */
static const char *intern(struct derive *d, sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);
	const char **mru = i < MRU_COLS ? d->mru[i] : NULL;
	struct strmap_entry *e;
	int k;

	if (!s)
		return NULL;
	for (k = 0; mru && k < MRU_N && mru[k]; k++)
		if (!strcmp(mru[k], s)) {
			const char *hit = mru[k];

			memmove(mru + 1, mru, k * sizeof(*mru));
			return mru[0] = hit;
		}
	e = strmap_get(&d->strings, s, strlen(s));
	if (!e)
		return "";
	if (mru) {
		memmove(mru + 1, mru, (MRU_N - 1) * sizeof(*mru));
		mru[0] = e->key;
	}
	return e->key;
}

static long long bucket_of(const struct derive *d, long long ts)
{
	return (ts - d->origin) / d->bucket_ns;
}

static struct agg *agg_get(struct derive *d, const char *tbl, const char *event)
{
	struct agg *a;
	int i;

	for (i = d->nagg - 1; i >= 0; i--)
		if (!strcmp(d->buckets[i].tbl, tbl) && !strcmp(d->buckets[i].event, event))
			return &d->buckets[i];
	if (d->nagg == d->aagg) {
		int n = d->aagg ? 2 * d->aagg : 64;
		struct agg *p = realloc(d->buckets, n * sizeof(*p));

		if (!p)
			return NULL;
		d->buckets = p;
		d->aagg = n;
	}
	a = &d->buckets[d->nagg];
	a->tbl = strdup(tbl);
	a->event = strdup(event);
	a->n = calloc(d->nbuckets, sizeof(long long));
	a->lo = malloc(d->nbuckets * sizeof(long long));
	a->hi = calloc(d->nbuckets, sizeof(long long));
	if (!a->tbl || !a->event || !a->n || !a->lo || !a->hi) {
		free(a->tbl), free(a->event), free(a->n), free(a->lo), free(a->hi);
		return NULL;
	}
	for (i = 0; i < d->nbuckets; i++)
		a->lo[i] = LLONG_MAX;
	d->nagg++;
	return a;
}

/* Count one row. Return: 0, or -1 when @ts is outside the run. */
static int agg_add(struct derive *d, struct agg *a, long long ts, long long seq)
{
	long long b = ts < d->origin ? -1 : bucket_of(d, ts);

	if (b < 0 || b >= d->nbuckets)
		return vms_error("%s: derive: %s at ts %lld lies outside the run's span",
				 vms_db_path(d->db), a->tbl, ts);
	a->n[b]++;
	if (seq < a->lo[b])
		a->lo[b] = seq;
	if (seq > a->hi[b])
		a->hi[b] = seq;
	return 0;
}

static int agg_write(struct derive *d)
{
	sqlite3_stmt *st = prep(d, "INSERT INTO event_bucket VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
	long long b;
	int i;

	if (!st)
		return -1;
	for (i = 0; i < d->nagg; i++)
		for (b = 0; b < d->nbuckets; b++) {
			struct agg *a = &d->buckets[i];

			if (!a->n[b])
				continue;
			sqlite3_bind_text(st, 1, a->tbl, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 2, a->event, -1, SQLITE_STATIC);
			sqlite3_bind_int64(st, 3, b);
			sqlite3_bind_int64(st, 4, a->n[b]);
			sqlite3_bind_int64(st, 5, a->lo[b]);
			sqlite3_bind_int64(st, 6, a->hi[b]);
			if (step_reset(d, st, "event_bucket")) {
				sqlite3_finalize(st);
				return -1;
			}
		}
	sqlite3_finalize(st);
	return 0;
}

static void agg_reset(struct agg *a, long long nbuckets)
{
	long long b;

	for (b = 0; b < nbuckets; b++) {
		a->n[b] = a->hi[b] = 0;
		a->lo[b] = LLONG_MAX;
	}
}

/* ---------------------------------------------------------------- sums per key */

#define SUM_KEYS 5
#define SUM_VALS 10

/* A hash of sums keyed by up to five integers (text keys: interned pointers). */
struct sums {
	struct sum_entry {
		long long key[SUM_KEYS];
		long long v[SUM_VALS];
		unsigned known;		/* bit i: v[i] had a non-NULL value */
		int used;
	} *e;
	size_t size, used;
};

static unsigned long key_hash(const long long *k)
{
	unsigned long h = 1469598103934665603UL;
	int i;

	for (i = 0; i < SUM_KEYS; i++)
		h = (h ^ (unsigned long)k[i]) * 1099511628211UL;
	return h ^ (h >> 29);
}

static struct sum_entry *sums_get(struct sums *s, const long long *key)
{
	size_t i;

	if (2 * (s->used + 1) > s->size) {
		size_t n = s->size ? 2 * s->size : 1024, j;
		struct sum_entry *e = calloc(n, sizeof(*e));

		if (!e)
			return NULL;
		for (j = 0; j < s->size; j++) {
			if (!s->e[j].used)
				continue;
			for (i = key_hash(s->e[j].key) & (n - 1); e[i].used; i = (i + 1) & (n - 1))
				;
			e[i] = s->e[j];
		}
		free(s->e);
		s->e = e;
		s->size = n;
	}
	for (i = key_hash(key) & (s->size - 1); s->e[i].used; i = (i + 1) & (s->size - 1))
		if (!memcmp(s->e[i].key, key, sizeof(s->e[i].key)))
			return &s->e[i];
	s->e[i].used = 1;
	memcpy(s->e[i].key, key, sizeof(s->e[i].key));
	s->used++;
	return &s->e[i];
}

static void sum_add(struct sum_entry *e, int i, long long v)
{
	if (v == NUL)
		return;
	e->v[i] += v;
	e->known |= 1u << i;
}

static void bind_sum(sqlite3_stmt *st, int col, const struct sum_entry *e, int i)
{
	if (e->known & (1u << i))
		sqlite3_bind_int64(st, col, e->v[i]);
	else
		sqlite3_bind_null(st, col);
}

static void bind_text_key(sqlite3_stmt *st, int col, long long k)
{
	const char *s = (const char *)(intptr_t)k;

	if (s)
		sqlite3_bind_text(st, col, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, col);
}

/* ---------------------------------------------------------------- reclaim_interval */

struct rec_ev {
	long long pid, ts, seq, cpu, nid, order, nr;
	const char *gfp;
	int kind, is_begin;
};

static const char *const rec_kinds[] = { "direct", "memcg", "memcg_softlimit", "node" };
static const char *const rec_tables[][2] = {
	{ "mm_vmscan_direct_reclaim_begin", "mm_vmscan_direct_reclaim_end" },
	{ "mm_vmscan_memcg_reclaim_begin", "mm_vmscan_memcg_reclaim_end" },
	{ "mm_vmscan_memcg_softlimit_reclaim_begin", "mm_vmscan_memcg_softlimit_reclaim_end" },
	{ "mm_vmscan_node_reclaim_begin", "mm_vmscan_node_reclaim_end" },
};

static int cmp_rec(const void *pa, const void *pb)
{
	const struct rec_ev *a = pa, *b = pb;

	if (a->kind != b->kind)
		return a->kind - b->kind;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

struct evs {
	void *v;
	size_t n, alloc, size;
};

static void *evs_push(struct evs *e)
{
	if (e->n == e->alloc) {
		size_t n = e->alloc ? 2 * e->alloc : 4096;
		void *p = realloc(e->v, n * e->size);

		if (!p)
			return NULL;
		e->v = p;
		e->alloc = n;
	}
	return (char *)e->v + e->size * e->n++;
}

static int load_reclaim(struct derive *d, struct evs *out)
{
	char q[256];
	int k, end;

	for (k = 0; k < 4; k++)
		for (end = 0; end < 2; end++) {
			sqlite3_stmt *st;
			struct agg *a;

			if (end)
				snprintf(q, sizeof(q), "SELECT pid, ts, seq, cpu, NULL, NULL, nr_reclaimed,"
					 " NULL FROM %s", rec_tables[k][1]);
			else
				snprintf(q, sizeof(q), "SELECT pid, ts, seq, cpu, %s, \"order\", NULL,"
					 " gfp_flags FROM %s", k == 3 ? "nid" : "NULL", rec_tables[k][0]);
			st = prep(d, q);
			a = agg_get(d, rec_tables[k][end], rec_tables[k][end]);
			if (!st || !a) {
				sqlite3_finalize(st);
				return st ? vms_error("out of memory") : -1;
			}
			while (sqlite3_step(st) == SQLITE_ROW) {
				struct rec_ev *e = evs_push(out);

				if (!e) {
					sqlite3_finalize(st);
					return vms_error("out of memory");
				}
				e->pid = col(st, 0), e->ts = col(st, 1), e->seq = col(st, 2);
				e->cpu = col(st, 3), e->nid = col(st, 4), e->order = col(st, 5);
				e->nr = col(st, 6);
				e->gfp = intern(d, st, 7);
				e->kind = k;
				e->is_begin = !end;
				if (agg_add(d, a, e->ts, e->seq)) {
					sqlite3_finalize(st);
					return -1;
				}
			}
			if (sqlite3_finalize(st) != SQLITE_OK)
				return sql_fail(d, rec_tables[k][end]);
		}
	return 0;
}

static int derive_reclaim(struct derive *d)
{
	struct evs ev = { .size = sizeof(struct rec_ev) };
	sqlite3_stmt *st = NULL;
	struct rec_ev *e;
	size_t i;
	int rc = -1;

	if (load_reclaim(d, &ev))
		goto out;
	e = ev.v;
	qsort(e, ev.n, sizeof(*e), cmp_rec);
	st = prep(d, "INSERT INTO reclaim_interval VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,"
		  " ?10, ?11, ?12)");
	if (!st)
		goto out;
	for (i = 0; i < ev.n; i++) {
		int same_prev = i > 0 && e[i - 1].kind == e[i].kind && e[i - 1].pid == e[i].pid;
		int same_next = i + 1 < ev.n && e[i + 1].kind == e[i].kind && e[i + 1].pid == e[i].pid;
		const struct rec_ev *x = &e[i], *y = same_next && !e[i + 1].is_begin ? &e[i + 1] : NULL;

		if (!x->is_begin && same_prev && e[i - 1].is_begin)
			continue;	/* the end of the call written with its begin */
		sqlite3_bind_text(st, 1, rec_kinds[x->kind], -1, SQLITE_STATIC);
		bind(st, 2, x->pid);
		bind(st, 3, x->cpu);
		if (x->is_begin) {
			bind(st, 4, x->nid);
			bind(st, 5, x->seq);
			bind(st, 6, x->ts);
			bind(st, 7, y ? y->seq : NUL);
			bind(st, 8, y ? y->ts : NUL);
			bind(st, 9, y ? y->ts - x->ts : NUL);
			bind(st, 10, x->order);
			if (x->gfp)
				sqlite3_bind_text(st, 11, x->gfp, -1, SQLITE_STATIC);
			else
				sqlite3_bind_null(st, 11);
			bind(st, 12, y ? y->nr : NUL);
		} else {	/* an end without its begin */
			for (int c = 4; c <= 11; c++)
				sqlite3_bind_null(st, c);
			bind(st, 7, x->seq);
			bind(st, 8, x->ts);
			bind(st, 12, x->nr);
		}
		if (step_reset(d, st, "reclaim_interval"))
			goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	free(ev.v);
	return rc;
}

/* ---------------------------------------------------------------- kswapd_interval */

struct ksw_ev {
	long long nid, ts, seq, pid, order;
	int is_sleep;
};

static int cmp_ksw(const void *pa, const void *pb)
{
	const struct ksw_ev *a = pa, *b = pb;

	if (a->nid != b->nid)
		return a->nid < b->nid ? -1 : 1;
	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static long long min_ll(long long a, long long b)
{
	return a == NUL ? b : b == NUL ? a : a < b ? a : b;
}

static long long max_ll(long long a, long long b)
{
	return a == NUL ? b : b == NUL ? a : a > b ? a : b;
}

static int derive_kswapd(struct derive *d)
{
	static const char *const tables[] = { "mm_vmscan_kswapd_wake", "mm_vmscan_kswapd_sleep" };
	struct evs ev = { .size = sizeof(struct ksw_ev) };
	sqlite3_stmt *st = NULL;
	struct ksw_ev *e;
	size_t i, g;
	int rc = -1, t;

	for (t = 0; t < 2; t++) {
		struct agg *a = agg_get(d, tables[t], tables[t]);
		char q[160];

		snprintf(q, sizeof(q), "SELECT nid, ts, seq, pid, %s FROM %s",
			 t ? "NULL" : "\"order\"", tables[t]);
		if (!a) {
			vms_error("out of memory");
			goto out;
		}
		if (!(st = prep(d, q)))
			goto out;
		while (sqlite3_step(st) == SQLITE_ROW) {
			struct ksw_ev *x = evs_push(&ev);

			if (!x) {
				vms_error("out of memory");
				goto out;
			}
			x->nid = col(st, 0), x->ts = col(st, 1), x->seq = col(st, 2);
			x->pid = col(st, 3), x->order = col(st, 4);
			x->is_sleep = t;
			if (agg_add(d, a, x->ts, x->seq))
				goto out;
		}
		if (sqlite3_finalize(st) != SQLITE_OK) {
			st = NULL;
			sql_fail(d, tables[t]);
			goto out;
		}
		st = NULL;
	}
	e = ev.v;
	qsort(e, ev.n, sizeof(*e), cmp_ksw);
	if (!(st = prep(d, "INSERT INTO kswapd_interval VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")))
		goto out;
	/* a group: the events of a node after a sleep up to and including the next sleep */
	for (g = 0; g < ev.n; g = i) {
		long long pid = NUL, wseq = NUL, wts = NUL, sseq = NUL, sts = NUL, order = NUL, wakes = 0;

		for (i = g; i < ev.n && e[i].nid == e[g].nid; i++) {
			pid = min_ll(pid, e[i].pid);
			if (e[i].is_sleep) {
				sseq = max_ll(sseq, e[i].seq);
				sts = max_ll(sts, e[i].ts);
				i++;
				break;
			}
			wseq = min_ll(wseq, e[i].seq);
			wts = min_ll(wts, e[i].ts);
			order = max_ll(order, e[i].order);
			wakes++;
		}
		bind(st, 1, e[g].nid);
		bind(st, 2, pid);
		bind(st, 3, wseq);
		bind(st, 4, wts);
		bind(st, 5, sseq);
		bind(st, 6, sts);
		bind(st, 7, sts != NUL && wts != NUL ? sts - wts : NUL);
		bind(st, 8, wakes);
		bind(st, 9, order);
		if (step_reset(d, st, "kswapd_interval"))
			goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	free(ev.v);
	return rc;
}

/* ---------------------------------------------------------------- shrink_slab_call */

struct slab_ev {
	long long seq, ts, pid;
	long long objs, items, total, prio;	/* start only */
	long long new_scan, retval, left;	/* end only */
	const char *shr, *shrink;
	int is_start;
};

/* Per task: its previous slab event, and its start when that was a start. */
struct slab_task {
	long long pid, last_ts;
	int pending, used;
	struct slab_ev start;
};

#define SLAB_BATCH 64	/* calls per INSERT: the per-statement cost is most of a row's */

struct slab_pass {
	struct derive *d;
	sqlite3_stmt *ins, *ins1;	/* INSERT of SLAB_BATCH calls, of one */
	long long batch[2 * SLAB_BATCH];	/* start_seq, end_seq of calls not written yet */
	int nbatch;
	struct slab_task *tasks;
	size_t ntasks, size;
	struct sums sums;	/* shrink_bucket */
	struct agg *rows;	/* event_bucket of shrink_slab_call */
	long long rowid;
	int unordered;		/* a task's events went back in time */
};

/* only what the pairs, their sums and the episodes need (the view reads the rest) */
#define SLAB_COLS "seq, ts, pid, shr, shrink"
static const char slab_start_sql[] = "SELECT 1, " SLAB_COLS ", nr_objects_to_shrink, cache_items,"
	" total_scan, priority, NULL, NULL, NULL FROM mm_shrink_slab_start";
static const char slab_end_sql[] = "SELECT 0, " SLAB_COLS ", NULL, NULL, NULL, NULL,"
	" new_scan, retval, total_scan FROM mm_shrink_slab_end";

static void slab_read(struct derive *d, sqlite3_stmt *st, struct slab_ev *e)
{
	e->is_start = sqlite3_column_int(st, 0);
	e->seq = sqlite3_column_int64(st, 1);
	e->ts = sqlite3_column_int64(st, 2);
	e->pid = sqlite3_column_int64(st, 3);
	e->shr = intern(d, st, 4);
	e->shrink = intern(d, st, 5);
	if (e->is_start) {
		e->objs = col(st, 6), e->items = col(st, 7), e->total = col(st, 8);
		e->prio = col(st, 9);
		e->new_scan = e->retval = e->left = NUL;
	} else {
		e->objs = e->items = e->total = e->prio = NUL;
		e->new_scan = col(st, 10), e->retval = col(st, 11), e->left = col(st, 12);
	}
}

static struct slab_task *slab_task(struct slab_pass *p, long long pid)
{
	size_t i;

	if (2 * (p->ntasks + 1) > p->size) {
		size_t n = p->size ? 2 * p->size : 1024, j;
		struct slab_task *t = calloc(n, sizeof(*t));

		if (!t)
			return NULL;
		for (j = 0; j < p->size; j++) {
			if (!p->tasks[j].used)
				continue;
			for (i = (unsigned long long)p->tasks[j].pid * 0x9E3779B97F4A7C15ULL >> 40 & (n - 1);
			     t[i].used; i = (i + 1) & (n - 1))
				;
			t[i] = p->tasks[j];
		}
		free(p->tasks);
		p->tasks = t;
		p->size = n;
	}
	for (i = (unsigned long long)pid * 0x9E3779B97F4A7C15ULL >> 40 & (p->size - 1);
	     p->tasks[i].used; i = (i + 1) & (p->size - 1))
		if (p->tasks[i].pid == pid)
			return &p->tasks[i];
	p->tasks[i].used = 1;
	p->tasks[i].pid = pid;
	p->tasks[i].last_ts = NUL;
	p->ntasks++;
	return &p->tasks[i];
}

/* Write the calls of p->batch, in their order (rowids). */
static int slab_batch(struct slab_pass *p)
{
	sqlite3_stmt *st = p->nbatch == SLAB_BATCH ? p->ins : p->ins1;
	int i, rc;

	for (i = 0; i < p->nbatch; i++) {
		if (st == p->ins1 && i) {
			if ((rc = sqlite3_step(st)) != SQLITE_DONE)
				return sql_fail(p->d, "shrink_slab_call");
			sqlite3_reset(st);
		}
		bind(st, st == p->ins1 ? 1 : 2 * i + 1, p->batch[2 * i]);
		bind(st, st == p->ins1 ? 2 : 2 * i + 2, p->batch[2 * i + 1]);
	}
	if (p->nbatch && (rc = sqlite3_step(st)) != SQLITE_DONE)
		return sql_fail(p->d, "shrink_slab_call");
	sqlite3_reset(st);
	p->nbatch = 0;
	return 0;
}

/* Write one row: a start @s with its end @e (NULL: none), or an end @e alone. */
static int slab_write(struct slab_pass *p, const struct slab_ev *s, const struct slab_ev *e)
{
	const struct slab_ev *x = s ? s : e;
	long long key[SUM_KEYS], ts = s ? s->ts : e->ts;
	struct sum_entry *sum;

	++p->rowid;
	p->batch[2 * p->nbatch] = s ? s->seq : NUL;
	p->batch[2 * p->nbatch + 1] = e ? e->seq : NUL;
	if (++p->nbatch == SLAB_BATCH && slab_batch(p))
		return -1;
	if (agg_add(p->d, p->rows, ts, p->rowid))
		return -1;
#define Z(v) ((v) == NUL ? 0 : (v))
	vms_episodes_slab(p->d->eps, x->pid, !!s, s ? s->ts : 0, s ? s->seq : 0, s ? Z(s->total) : 0,
			  s && s->prio != NUL ? s->prio : -1, !!e, e ? e->ts : 0, e ? e->seq : 0,
			  e ? Z(e->retval) : 0, e ? Z(e->left) : 0);
#undef Z

	key[0] = bucket_of(p->d, ts);
	key[1] = !s;
	key[2] = (intptr_t)x->shr;
	key[3] = (intptr_t)x->shrink;
	key[4] = s ? s->prio : NUL;
	if (!(sum = sums_get(&p->sums, key)))
		return vms_error("out of memory");
	sum->v[0]++;			/* calls */
	if (!s)
		return 0;
	sum_add(sum, 1, s->total);	/* to_scan */
	if (e && s->total != NUL && e->left != NUL)
		sum_add(sum, 2, s->total - e->left);	/* scanned */
	if (e)
		sum_add(sum, 3, e->retval);	/* freed */
	sum_add(sum, 4, s->objs);		/* deferred taken */
	if (e)
		sum_add(sum, 5, e->new_scan);	/* deferred left */
	sum_add(sum, 6, s->items);
	if (s->items != NUL)
		sum->v[7]++;			/* items_n */
	if (!e)
		sum->v[8]++;			/* open */
	return 0;
}

/* One slab event of a task, in that task's (ts, seq) order. */
static int slab_event(struct slab_pass *p, const struct slab_ev *e)
{
	struct slab_task *t = slab_task(p, e->pid);

	if (!t)
		return vms_error("out of memory");
	if (t->last_ts != NUL && e->ts < t->last_ts)
		p->unordered = 1;
	t->last_ts = e->ts;
	if (t->pending) {
		t->pending = 0;
		if (!e->is_start && e->shr == t->start.shr)
			return slab_write(p, &t->start, e);
		if (slab_write(p, &t->start, NULL))
			return -1;
	}
	if (!e->is_start)
		return slab_write(p, NULL, e);
	t->start = *e;
	t->pending = 1;
	return 0;
}

static int slab_flush(struct slab_pass *p)
{
	size_t i;

	for (i = 0; i < p->size; i++)
		if (p->tasks[i].used && p->tasks[i].pending) {
			p->tasks[i].pending = 0;
			if (slab_write(p, &p->tasks[i].start, NULL))
				return -1;
		}
	return slab_batch(p);
}

/* Pair in seq order, both tables merged; Return: 0, or -1. */
static int slab_merged(struct slab_pass *p)
{
	struct derive *d = p->d;
	struct agg *as = agg_get(d, "mm_shrink_slab_start", "mm_shrink_slab_start");
	struct agg *ae = agg_get(d, "mm_shrink_slab_end", "mm_shrink_slab_end");
	char q[400];
	sqlite3_stmt *s, *e;
	struct slab_ev es, ee;
	int rs, re, rc = -1;

	if (!as || !ae)
		return vms_error("out of memory");
	snprintf(q, sizeof(q), "%s ORDER BY seq", slab_start_sql);
	s = prep(d, q);
	snprintf(q, sizeof(q), "%s ORDER BY seq", slab_end_sql);
	e = prep(d, q);
	if (!s || !e)
		goto out;
	rs = sqlite3_step(s);
	re = sqlite3_step(e);
	if (rs == SQLITE_ROW)
		slab_read(d, s, &es);
	if (re == SQLITE_ROW)
		slab_read(d, e, &ee);
	while (rs == SQLITE_ROW || re == SQLITE_ROW) {
		if (rs == SQLITE_ROW && (re != SQLITE_ROW || es.seq < ee.seq)) {
			if (agg_add(d, as, es.ts, es.seq) || slab_event(p, &es))
				goto out;
			if ((rs = sqlite3_step(s)) == SQLITE_ROW)
				slab_read(d, s, &es);
		} else {
			if (agg_add(d, ae, ee.ts, ee.seq) || slab_event(p, &ee))
				goto out;
			if ((re = sqlite3_step(e)) == SQLITE_ROW)
				slab_read(d, e, &ee);
		}
	}
	if (rs != SQLITE_DONE || re != SQLITE_DONE) {
		sql_fail(d, "shrink_slab");
		goto out;
	}
	rc = slab_flush(p);
out:
	sqlite3_finalize(s);
	sqlite3_finalize(e);
	return rc;
}

/* Pair from a (pid, ts, seq) sort: the slow path for out-of-order tasks. */
static int slab_sorted(struct slab_pass *p)
{
	char q[900];
	sqlite3_stmt *st;
	struct slab_ev ev;
	int rc;

	snprintf(q, sizeof(q), "%s UNION ALL %s ORDER BY 4, 3, 2", slab_start_sql, slab_end_sql);
	if (!(st = prep(p->d, q)))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		slab_read(p->d, st, &ev);
		if (slab_event(p, &ev)) {
			sqlite3_finalize(st);
			return -1;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return sql_fail(p->d, "shrink_slab");
	return slab_flush(p);
}

static int slab_sums_write(struct slab_pass *p)
{
	sqlite3_stmt *st = prep(p->d, "INSERT INTO shrink_bucket VALUES (?1, ?2, ?3, ?4, ?5, ?6,"
				" ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)");
	size_t i;

	if (!st)
		return -1;
	for (i = 0; i < p->sums.size; i++) {
		const struct sum_entry *e = &p->sums.e[i];

		if (!e->used)
			continue;
		sqlite3_bind_int64(st, 1, e->key[0]);
		sqlite3_bind_int64(st, 2, e->key[1]);
		bind_text_key(st, 3, e->key[2]);
		bind_text_key(st, 4, e->key[3]);
		bind(st, 5, e->key[4]);
		sqlite3_bind_int64(st, 6, e->v[0]);
		for (int k = 1; k <= 6; k++)
			bind_sum(st, 6 + k, e, k);
		sqlite3_bind_int64(st, 13, e->v[7]);
		sqlite3_bind_int64(st, 14, e->v[8]);
		if (step_reset(p->d, st, "shrink_bucket")) {
			sqlite3_finalize(st);
			return -1;
		}
	}
	sqlite3_finalize(st);
	return 0;
}

static int derive_slab(struct derive *d, int *resorted)
{
	struct slab_pass p = { .d = d };
	int rc = -1;

	p.rows = agg_get(d, "shrink_slab_call", "shrink_slab_call");
	if (!p.rows)
		return vms_error("out of memory");
	/* rowids 1, 2, ... in write order (p.rowid): the table is empty, so they are implicit */
	{
		struct vms_buf q = { 0 };
		int i;

		vms_buf_addf(&q, "INSERT INTO shrink_slab_call VALUES (?, ?)");
		for (i = 1; i < SLAB_BATCH; i++)
			vms_buf_addf(&q, ", (?, ?)");
		if (!q.buf)
			return vms_error("out of memory");
		p.ins = prep(d, q.buf);
		vms_buf_release(&q);
		p.ins1 = prep(d, "INSERT INTO shrink_slab_call VALUES (?1, ?2)");
	}
	if (!p.ins || !p.ins1 || slab_merged(&p))
		goto out;
	*resorted = p.unordered;
	if (p.unordered) {
		/* start again from a sort; the counts of the two event tables stand */
		sqlite3_stmt *del = prep(d, "DELETE FROM shrink_slab_call");

		if (!del)
			goto out;
		rc = sqlite3_step(del);
		sqlite3_finalize(del);
		if (rc != SQLITE_DONE) {
			rc = sql_fail(d, "shrink_slab_call");
			goto out;
		}
		rc = -1;
		free(p.tasks);
		free(p.sums.e);
		p.tasks = NULL, p.sums.e = NULL;
		p.ntasks = p.size = p.sums.size = p.sums.used = 0;
		p.rowid = 0;
		p.nbatch = 0;
		agg_reset(p.rows, d->nbuckets);
		vms_episodes_free(d->eps);
		if (!(d->eps = vms_episodes_new(d->db)) || slab_sorted(&p))
			goto out;
	}
	rc = slab_sums_write(&p);
out:
	sqlite3_finalize(p.ins);
	sqlite3_finalize(p.ins1);
	free(p.tasks);
	free(p.sums.e);
	return rc;
}

/* ---------------------------------------------------------------- inactive_bucket */

/* A begin (o 0) or end (o 2) of a memcg (g 0) or direct/node (g 1) call: key ts * 4 + o. */
struct mark {
	long long pid, key;
	int g;
};

static int cmp_mark(const void *pa, const void *pb)
{
	const struct mark *a = pa, *b = pb;

	if (a->g != b->g)
		return a->g - b->g;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return a->key < b->key ? -1 : a->key > b->key;
}

/* First index in @m[0..n) not below (g, pid, key). */
static size_t mark_lower(const struct mark *m, size_t n, int g, long long pid, long long key)
{
	struct mark x = { .pid = pid, .key = key, .g = g };
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_mark(&m[mid], &x) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Inside a call of group @g: the last begin/end key below ts * 4 + 1 is a
 * begin; with none, the task's first one is an end (a call cut by the start
 * of the trace). report-audit.c states the rule.
 */
static int inside(const struct mark *m, size_t n, int g, long long pid, long long ts)
{
	size_t i = mark_lower(m, n, g, pid, ts * 4 + 1);

	if (i > 0 && m[i - 1].g == g && m[i - 1].pid == pid)
		return m[i - 1].key % 4 == 0;
	return i < n && m[i].g == g && m[i].pid == pid && m[i].key % 4 == 2;
}

static int derive_inactive(struct derive *d)
{
	static const char *const tables[] = {
		"mm_vmscan_memcg_reclaim_begin", "mm_vmscan_memcg_reclaim_end",
		"mm_vmscan_memcg_softlimit_reclaim_begin", "mm_vmscan_memcg_softlimit_reclaim_end",
		"mm_vmscan_direct_reclaim_begin", "mm_vmscan_direct_reclaim_end",
		"mm_vmscan_node_reclaim_begin", "mm_vmscan_node_reclaim_end",
	};
	struct evs marks = { .size = sizeof(struct mark) };
	struct agg *a = agg_get(d, "mm_vmscan_lru_shrink_inactive", "mm_vmscan_lru_shrink_inactive");
	struct sums sums = { 0 };
	sqlite3_stmt *st = NULL;
	struct mark *m;
	char q[160];
	size_t i;
	int rc = -1;

	if (!a)
		return vms_error("out of memory");
	for (i = 0; i < 8; i++) {
		snprintf(q, sizeof(q), "SELECT pid, ts FROM %s", tables[i]);
		if (!(st = prep(d, q)))
			goto out;
		while (sqlite3_step(st) == SQLITE_ROW) {
			struct mark *x = evs_push(&marks);

			if (!x) {
				vms_error("out of memory");
				goto out;
			}
			x->pid = sqlite3_column_int64(st, 0);
			x->key = sqlite3_column_int64(st, 1) * 4 + (i % 2 ? 2 : 0);
			x->g = i >= 4;
		}
		sqlite3_finalize(st);
		st = NULL;
	}
	m = marks.v;
	qsort(m, marks.n, sizeof(*m), cmp_mark);

	/* the columns vms_episodes_inactive() reads */
	st = prep(d, "SELECT pid, ts, seq, nid, nr_scanned, nr_reclaimed, reclaim_flags, priority"
		  " FROM mm_vmscan_lru_shrink_inactive");
	if (!st)
		goto out;
	{
		long long last_pid = NUL, last_ts = 0;
		int last_in[2] = { 0, 0 };

		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			long long seq = sqlite3_column_int64(st, 2), ts = sqlite3_column_int64(st, 1);
			long long pid = sqlite3_column_int64(st, 0), sc = col(st, 4), flags = col(st, 6);
			long long key[SUM_KEYS] = { 0 };
			struct sum_entry *e;

			if (agg_add(d, a, ts, seq) || vms_episodes_inactive(d->eps, st))
				goto out;
			/* consecutive events of one task mostly share their class */
			if (pid != last_pid || ts != last_ts) {
				last_in[0] = inside(m, marks.n, 0, pid, ts);
				last_in[1] = inside(m, marks.n, 1, pid, ts);
				last_pid = pid;
				last_ts = ts;
			}
			key[0] = bucket_of(d, ts);
			key[1] = pid;
			key[2] = last_in[0];
			key[3] = last_in[1];
			if (!(e = sums_get(&sums, key))) {
				vms_error("out of memory");
				goto out;
			}
			e->v[0]++;
			sum_add(e, 1, sc);
			sum_add(e, 2, col(st, 5));
			if (flags != NUL && (flags & 1))
				sum_add(e, 3, sc);
			if (flags != NUL && (flags & 2))
				sum_add(e, 4, sc);
		}
	}
	if (rc != SQLITE_DONE) {
		rc = sql_fail(d, "mm_vmscan_lru_shrink_inactive");
		goto out;
	}
	sqlite3_finalize(st);
	st = prep(d, "INSERT INTO inactive_bucket VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
	rc = -1;
	if (!st)
		goto out;
	for (i = 0; i < sums.size; i++) {
		const struct sum_entry *e = &sums.e[i];

		if (!e->used)
			continue;
		for (int k = 0; k < 4; k++)
			sqlite3_bind_int64(st, k + 1, e->key[k]);
		sqlite3_bind_int64(st, 5, e->v[0]);
		for (int k = 1; k <= 4; k++)
			bind_sum(st, 5 + k, e, k);
		if (step_reset(d, st, "inactive_bucket"))
			goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	free(marks.v);
	free(sums.e);
	return rc;
}

/* ---------------------------------------------------------------- the other tables */

static int count_table(struct derive *d, const char *tbl, int has_event)
{
	sqlite3_stmt *st;
	struct agg *a = NULL;
	char q[200];
	int rc;

	snprintf(q, sizeof(q), "SELECT ts, seq%s FROM \"%s\"", has_event ? ", event" : "", tbl);
	if (!(st = prep(d, q)))
		return -1;
	if (!has_event && !(a = agg_get(d, tbl, tbl))) {
		sqlite3_finalize(st);
		return vms_error("out of memory");
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (has_event) {
			const char *ev = (const char *)sqlite3_column_text(st, 2);

			if (!a || strcmp(a->event, ev ? ev : "")) {
				if (!(a = agg_get(d, tbl, ev ? ev : ""))) {
					sqlite3_finalize(st);
					return vms_error("out of memory");
				}
			}
		}
		if (agg_add(d, a, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1))) {
			sqlite3_finalize(st);
			return -1;
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_fail(d, tbl);
}

/* Every event table the pairing passes have not counted yet. */
static int count_tables(struct derive *d)
{
	sqlite3_stmt *st = prep(d, "SELECT DISTINCT tbl, (SELECT COUNT(*) FROM pragma_table_info(tbl)"
				" WHERE name = 'event') FROM event_table UNION SELECT 'event_generic', 1"
				" ORDER BY 1");
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *tbl = (const char *)sqlite3_column_text(st, 0);
		int i, done = 0;

		for (i = 0; i < d->nagg; i++)
			done |= !strcmp(d->buckets[i].tbl, tbl);
		if (!done && count_table(d, tbl, sqlite3_column_int(st, 1))) {
			sqlite3_finalize(st);
			return -1;
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_fail(d, "event_table");
}

/* ---------------------------------------------------------------- driver */

static long long query_ll(struct derive *d, const char *sql)
{
	sqlite3_stmt *st = prep(d, sql);
	long long v = NUL;

	if (st && sqlite3_step(st) == SQLITE_ROW)
		v = col(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* The DDL of 910-derived.sql, for TEMP: without the DROP VIEWs, tables and views made TEMP. */
static char *temp_ddl(const char *ddl)
{
	struct vms_buf b = { 0 };
	const char *p = ddl, *nl;

	for (; *p; p = nl) {
		nl = strchr(p, '\n');
		nl = nl ? nl + 1 : p + strlen(p);
		if (!strncmp(p, "DROP VIEW", 9))
			continue;
		if (!strncmp(p, "CREATE TABLE ", 13)) {
			vms_buf_addf(&b, "CREATE TEMP TABLE ");
			vms_buf_add(&b, p + 13, nl - p - 13);
		} else if (!strncmp(p, "CREATE VIEW ", 12)) {
			vms_buf_addf(&b, "CREATE TEMP VIEW ");
			vms_buf_add(&b, p + 12, nl - p - 12);
		} else {
			vms_buf_add(&b, p, nl - p);
		}
	}
	return b.buf;
}

int vms_derive(struct vms_db *db, int temp)
{
	struct derive d = { .sql = vms_db_sql(db), .db = db };
	long long end, counters, span;
	int resorted = 0, rc = -1, i;

	strmap_init(&d.strings);
	if (temp) {
		char *ddl = temp_ddl(vms_db_schema_sql("910-derived.sql"));

		if (!ddl)
			return vms_error("out of memory");
		rc = vms_db_exec(db, ddl);
		free(ddl);
		if (rc)
			return -1;
		rc = -1;
	}
	/* the start of the run as report_ctx_window() counts it */
	d.origin = query_ll(&d, "SELECT start_ts FROM run");
	end = query_ll(&d, "SELECT end_ts FROM run");
	counters = query_ll(&d, "SELECT MIN(ts) FROM counter_sample");
	if (d.origin == NUL || (counters != NUL && counters < d.origin))
		d.origin = counters;
	counters = query_ll(&d, "SELECT MAX(ts) FROM counter_sample");
	if (end == NUL || (counters != NUL && counters > end))
		end = counters;
	if (d.origin == NUL)
		d.origin = end = 0;
	/* at most ~2000 buckets, each inside one second of the run */
	span = end - d.origin;
	{
		static const long long widths[] = { 1000000, 2000000, 5000000, 10000000, 20000000,
						    50000000, 100000000, 200000000, 500000000 };

		d.bucket_ns = 1000000000;
		for (i = 0; i < (int)(sizeof(widths) / sizeof(widths[0])); i++)
			if (span / widths[i] < 2000) {
				d.bucket_ns = widths[i];
				break;
			}
	}
	d.nbuckets = span / d.bucket_ns + 1;
	if (derive_reclaim(&d) || derive_kswapd(&d) || !(d.eps = vms_episodes_new(db)) ||
	    derive_slab(&d, &resorted) || derive_inactive(&d) || count_tables(&d) ||
	    agg_write(&d) || vms_episodes_finish(d.eps))
		goto out;
	{
		sqlite3_stmt *st = prep(&d, "INSERT INTO derive_info VALUES (1, ?1, ?2, ?3, ?4)");

		if (!st)
			goto out;
		sqlite3_bind_int64(st, 1, d.origin);
		sqlite3_bind_int64(st, 2, d.bucket_ns);
		sqlite3_bind_int(st, 3, resorted);
		sqlite3_bind_text(st, 4, VMS_VERSION, -1, SQLITE_STATIC);
		rc = sqlite3_step(st) == SQLITE_DONE ? 0 : sql_fail(&d, "derive_info");
		sqlite3_finalize(st);
	}
out:
	for (i = 0; i < d.nagg; i++) {
		free(d.buckets[i].tbl), free(d.buckets[i].event);
		free(d.buckets[i].n), free(d.buckets[i].lo), free(d.buckets[i].hi);
	}
	free(d.buckets);
	vms_episodes_free(d.eps);
	strmap_release(&d.strings, NULL);
	return rc;
}

int vms_derive_present(struct vms_db *db)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(vms_db_sql(db), "SELECT 1 FROM main.sqlite_schema"
			       " WHERE type = 'table' AND name = 'derive_info'", -1, &st, NULL))
		return vms_error("%s: %s", vms_db_path(db), sqlite3_errmsg(vms_db_sql(db)));
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return vms_error("%s: %s", vms_db_path(db), sqlite3_errmsg(vms_db_sql(db)));
	return rc == SQLITE_ROW;
}
