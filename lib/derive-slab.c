// SPDX-License-Identifier: GPL-2.0
/*
 * derive-slab.c - the shrink_slab_call pass of the derive step (lib/derive.c):
 * mm_shrink_slab_start/_end paired per task in one merged pass in seq order
 * (a (pid, ts, seq) sort when some task is out of time order), with their
 * sums per bucket (shrink_bucket) and their share of the episodes.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vms.h"
#include "derive-local.h"

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
	e->shr = dv_intern(d, st, 4);
	e->shrink = dv_intern(d, st, 5);
	if (e->is_start) {
		e->objs = dv_col(st, 6), e->items = dv_col(st, 7), e->total = dv_col(st, 8);
		e->prio = dv_col(st, 9);
		e->new_scan = e->retval = e->left = NUL;
	} else {
		e->objs = e->items = e->total = e->prio = NUL;
		e->new_scan = dv_col(st, 10), e->retval = dv_col(st, 11), e->left = dv_col(st, 12);
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
				return dv_sql_fail(p->d, "shrink_slab_call");
			sqlite3_reset(st);
		}
		dv_bind(st, st == p->ins1 ? 1 : 2 * i + 1, p->batch[2 * i]);
		dv_bind(st, st == p->ins1 ? 2 : 2 * i + 2, p->batch[2 * i + 1]);
	}
	if (p->nbatch && (rc = sqlite3_step(st)) != SQLITE_DONE)
		return dv_sql_fail(p->d, "shrink_slab_call");
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
	if (dv_agg_add(p->d, p->rows, ts, p->rowid))
		return -1;
#define Z(v) ((v) == NUL ? 0 : (v))
	dv_episodes_slab(p->d->eps, x->pid, !!s, s ? s->ts : 0, s ? s->seq : 0, s ? Z(s->total) : 0,
			 s && s->prio != NUL ? s->prio : -1, !!e, e ? e->ts : 0, e ? e->seq : 0,
			 e ? Z(e->retval) : 0, e ? Z(e->left) : 0);
#undef Z

	key[0] = dv_bucket_of(p->d, ts);
	key[1] = !s;
	key[2] = (intptr_t)x->shr;
	key[3] = (intptr_t)x->shrink;
	key[4] = s ? s->prio : NUL;
	if (!(sum = dv_sums_get(&p->sums, key)))
		return vms_error("out of memory");
	sum->v[0]++;			/* calls */
	if (!s)
		return 0;
	dv_sum_add(sum, 1, s->total);	/* to_scan */
	if (e && s->total != NUL && e->left != NUL)
		dv_sum_add(sum, 2, s->total - e->left);	/* scanned */
	if (e)
		dv_sum_add(sum, 3, e->retval);	/* freed */
	dv_sum_add(sum, 4, s->objs);		/* deferred taken */
	if (e)
		dv_sum_add(sum, 5, e->new_scan);	/* deferred left */
	dv_sum_add(sum, 6, s->items);
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
	struct agg *as = dv_agg_get(d, "mm_shrink_slab_start", "mm_shrink_slab_start");
	struct agg *ae = dv_agg_get(d, "mm_shrink_slab_end", "mm_shrink_slab_end");
	char q[400];
	sqlite3_stmt *s, *e;
	struct slab_ev es, ee;
	int rs, re, rc = -1;

	if (!as || !ae)
		return vms_error("out of memory");
	snprintf(q, sizeof(q), "%s ORDER BY seq", slab_start_sql);
	s = dv_prep(d, q);
	snprintf(q, sizeof(q), "%s ORDER BY seq", slab_end_sql);
	e = dv_prep(d, q);
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
			if (dv_agg_add(d, as, es.ts, es.seq) || slab_event(p, &es))
				goto out;
			if ((rs = sqlite3_step(s)) == SQLITE_ROW)
				slab_read(d, s, &es);
		} else {
			if (dv_agg_add(d, ae, ee.ts, ee.seq) || slab_event(p, &ee))
				goto out;
			if ((re = sqlite3_step(e)) == SQLITE_ROW)
				slab_read(d, e, &ee);
		}
	}
	if (rs != SQLITE_DONE || re != SQLITE_DONE) {
		dv_sql_fail(d, "shrink_slab");
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
	if (!(st = dv_prep(p->d, q)))
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
		return dv_sql_fail(p->d, "shrink_slab");
	return slab_flush(p);
}

/*
 * The name of shrinker @shrink (an interned value of d->strings), as
 * schema/910-derived.sql defines it; kept as the value of its strings entry.
 * Return: the name (must *not* be freed), or NULL when out of memory.
 */
static const char *shrinker_name(struct derive *d, const char *shrink)
{
	struct strmap_entry *e;
	const char *plus, *mod;
	char *name;

	if (!shrink)
		return "?";
	e = strmap_find(&d->strings, shrink, strlen(shrink));
	if (!e)
		return NULL;
	if (e->value)
		return e->value;
	plus = strchr(shrink, '+');
	mod = strstr(shrink, " [");
	if (plus && plus > shrink) {
		if (asprintf(&name, "%.*s%s", (int)(plus - shrink), shrink, mod ? mod : "") < 0)
			return NULL;
	} else if (!(name = strdup(shrink))) {
		return NULL;
	}
	return e->value = name;
}

/* One row of shrinker_name per shrink value the sums hold. */
static int slab_names_write(struct slab_pass *p)
{
	sqlite3_stmt *st = dv_prep(p->d, "INSERT INTO shrinker_name VALUES (?1, ?2)");
	const struct strmap *m = &p->d->strings;
	size_t i;
	int has_null = 0;

	if (!st)
		return -1;
	for (i = 0; i < p->sums.size; i++)
		has_null |= p->sums.e[i].used && !p->sums.e[i].key[3];
	for (i = 0; i < m->size + has_null; i++) {
		const struct strmap_entry *e = i < m->size ? &m->slots[i] : NULL;

		if (e && (!e->key || !e->value))
			continue;
		if (e)
			sqlite3_bind_text(st, 1, e->key, -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(st, 1);
		sqlite3_bind_text(st, 2, e ? e->value : "?", -1, SQLITE_STATIC);
		if (dv_step_reset(p->d, st, "shrinker_name")) {
			sqlite3_finalize(st);
			return -1;
		}
	}
	sqlite3_finalize(st);
	return 0;
}

static int slab_sums_write(struct slab_pass *p)
{
	sqlite3_stmt *st = dv_prep(p->d, "INSERT INTO shrink_bucket (bucket, orphan, shr, shrink,"
				" name, priority, calls, to_scan, scanned, freed, def_taken, def_left,"
				" items_sum, items_n, open) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,"
				" ?10, ?11, ?12, ?13, ?14, ?15)");
	size_t i;

	if (!st)
		return -1;
	for (i = 0; i < p->sums.size; i++) {
		const struct sum_entry *e = &p->sums.e[i];
		const char *name;

		if (!e->used)
			continue;
		if (!(name = shrinker_name(p->d, (const char *)(intptr_t)e->key[3]))) {
			sqlite3_finalize(st);
			return vms_error("out of memory");
		}
		sqlite3_bind_int64(st, 1, e->key[0]);
		sqlite3_bind_int64(st, 2, e->key[1]);
		dv_bind_text_key(st, 3, e->key[2]);
		dv_bind_text_key(st, 4, e->key[3]);
		sqlite3_bind_text(st, 5, name, -1, SQLITE_STATIC);
		dv_bind(st, 6, e->key[4]);
		sqlite3_bind_int64(st, 7, e->v[0]);
		for (int k = 1; k <= 6; k++)
			dv_bind_sum(st, 7 + k, e, k);
		sqlite3_bind_int64(st, 14, e->v[7]);
		sqlite3_bind_int64(st, 15, e->v[8]);
		if (dv_step_reset(p->d, st, "shrink_bucket")) {
			sqlite3_finalize(st);
			return -1;
		}
	}
	sqlite3_finalize(st);
	return slab_names_write(p);
}

int derive_slab(struct derive *d, int *resorted)
{
	struct slab_pass p = { .d = d };
	int rc = -1;

	p.rows = dv_agg_get(d, "shrink_slab_call", "shrink_slab_call");
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
		p.ins = dv_prep(d, q.buf);
		vms_buf_release(&q);
		p.ins1 = dv_prep(d, "INSERT INTO shrink_slab_call VALUES (?1, ?2)");
	}
	if (!p.ins || !p.ins1 || slab_merged(&p))
		goto out;
	*resorted = p.unordered;
	if (p.unordered) {
		/* start again from a sort; the counts of the two event tables stand */
		sqlite3_stmt *del = dv_prep(d, "DELETE FROM shrink_slab_call");

		if (!del)
			goto out;
		rc = sqlite3_step(del);
		sqlite3_finalize(del);
		if (rc != SQLITE_DONE) {
			rc = dv_sql_fail(d, "shrink_slab_call");
			goto out;
		}
		rc = -1;
		free(p.tasks);
		free(p.sums.e);
		p.tasks = NULL, p.sums.e = NULL;
		p.ntasks = p.size = p.sums.size = p.sums.used = 0;
		p.rowid = 0;
		p.nbatch = 0;
		dv_agg_reset(p.rows);
		dv_episodes_free(d->eps);
		if (!(d->eps = dv_episodes_new(d)) || slab_sorted(&p))
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
