// SPDX-License-Identifier: GPL-2.0
/*
 * derive.c - derive, once, what the report sections need from a finished
 * run (schema/910-derived.sql): the begin/end pairings that the views of
 * 006-views.sql computed with window functions (now tables, or for the slab
 * calls a view over stored pairs, with the same names and columns), per time
 * bucket rollups of the high-volume tables, and the reclaim episodes. It
 * sits at the end of record/import (vms_db_finish()), inside the
 * transaction that finishes the run, and in `vmscope upgrade`
 * (lib/upgrade.c), which derives the tables again.
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
 *  - episode: the reclaim episodes of the whole run (derive-episodes.c),
 *    fed by the slab and inactive passes as they read.
 *
 * Adding a derived table: its DDL in schema/910-derived.sql (or a new
 * schema/9NN-*.sql file, applied at finish too), a pass in a new
 * lib/derive-NAME.c declared in derive-local.h, one call in vms_derive()
 * below, its section in docs/schema.md. `vmscope upgrade` drops and derives
 * every table of the 9NN files again, so nothing else changes.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vms.h"
#include "vms-window.h"
#include "derive-local.h"

int dv_sql_fail(struct derive *d, const char *what)
{
	return vms_error("%s: derive %s: %s", vms_db_path(d->db), what, sqlite3_errmsg(d->sql));
}

sqlite3_stmt *dv_prep(struct derive *d, const char *sql)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(d->sql, sql, -1, &st, NULL) != SQLITE_OK) {
		dv_sql_fail(d, "prepare");
		return NULL;
	}
	return st;
}

/* Run an INSERT and reset it for the next row. Return: 0, or -1. */
int dv_step_reset(struct derive *d, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : dv_sql_fail(d, what);
}

long long dv_col(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NUL : sqlite3_column_int64(st, i);
}

void dv_bind(sqlite3_stmt *st, int i, long long v)
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
const char *dv_intern(struct derive *d, sqlite3_stmt *st, int i)
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

long long dv_bucket_of(const struct derive *d, long long ts)
{
	return (ts - d->origin) / d->bucket_ns;
}

struct agg *dv_agg_get(struct derive *d, const char *tbl, const char *event)
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
	memset(a, 0, sizeof(*a));
	a->tbl = strdup(tbl);
	a->event = strdup(event);
	if (!a->tbl || !a->event) {
		free(a->tbl), free(a->event);
		return NULL;
	}
	d->nagg++;
	return a;
}

static size_t bucket_hash(long long b, size_t size)
{
	return (size_t)(((unsigned long long)b * 0x9e3779b97f4a7c15ULL) >> 20) & (size - 1);
}

/* The slot of bucket @b, made when new. Return: NULL when out of memory. */
static struct agg_bucket *agg_slot(struct agg *a, long long b)
{
	size_t i;

	if (2 * (a->used + 1) > a->size) {
		size_t n = a->size ? 2 * a->size : 256, j;
		struct agg_bucket *slot = calloc(n, sizeof(*slot));

		if (!slot)
			return NULL;
		for (j = 0; j < a->size; j++) {
			if (!a->slot[j].n)
				continue;
			for (i = bucket_hash(a->slot[j].b, n); slot[i].n; i = (i + 1) & (n - 1))
				;
			slot[i] = a->slot[j];
		}
		free(a->slot);
		a->slot = slot;
		a->size = n;
	}
	for (i = bucket_hash(b, a->size); a->slot[i].n; i = (i + 1) & (a->size - 1))
		if (a->slot[i].b == b)
			return &a->slot[i];
	a->used++;
	a->slot[i].b = b;
	a->slot[i].lo = LLONG_MAX;
	a->slot[i].hi = 0;
	return &a->slot[i];
}

/* Count one row. Return: 0, or -1 when @ts is outside the run. */
int dv_agg_add(struct derive *d, struct agg *a, long long ts, long long seq)
{
	long long b = ts < d->origin ? -1 : dv_bucket_of(d, ts);
	struct agg_bucket *k;

	if (b < 0 || b >= d->nbuckets)
		return vms_error("%s: derive: %s at ts %lld lies outside the run's span",
				 vms_db_path(d->db), a->tbl, ts);
	if (!(k = agg_slot(a, b)))
		return vms_error("out of memory");
	k->n++;
	if (seq < k->lo)
		k->lo = seq;
	if (seq > k->hi)
		k->hi = seq;
	return 0;
}

static int cmp_bucket(const void *x, const void *y)
{
	const struct agg_bucket *p = x, *q = y;

	return p->b < q->b ? -1 : p->b > q->b;
}

int dv_agg_write(struct derive *d)
{
	sqlite3_stmt *st = dv_prep(d, "INSERT INTO event_bucket VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
	size_t j, n;
	int i;

	if (!st)
		return -1;
	for (i = 0; i < d->nagg; i++) {
		struct agg *a = &d->buckets[i];

		/* the used slots to the front, in bucket order */
		for (j = n = 0; j < a->size; j++)
			if (a->slot[j].n)
				a->slot[n++] = a->slot[j];
		a->used = n;
		if (n)
			qsort(a->slot, n, sizeof(*a->slot), cmp_bucket);
		for (j = 0; j < n; j++) {
			struct agg_bucket *k = &a->slot[j];

			sqlite3_bind_text(st, 1, a->tbl, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 2, a->event, -1, SQLITE_STATIC);
			sqlite3_bind_int64(st, 3, k->b);
			sqlite3_bind_int64(st, 4, k->n);
			sqlite3_bind_int64(st, 5, k->lo);
			sqlite3_bind_int64(st, 6, k->hi);
			if (dv_step_reset(d, st, "event_bucket")) {
				sqlite3_finalize(st);
				return -1;
			}
		}
		/* compacted, the hash is gone: start again empty */
		dv_agg_reset(a);
	}
	sqlite3_finalize(st);
	return 0;
}

void dv_agg_reset(struct agg *a)
{
	if (a->slot)
		memset(a->slot, 0, a->size * sizeof(*a->slot));
	a->used = 0;
}

/* ---------------------------------------------------------------- sums per key */

static unsigned long key_hash(const long long *k)
{
	unsigned long h = 1469598103934665603UL;
	int i;

	for (i = 0; i < SUM_KEYS; i++)
		h = (h ^ (unsigned long)k[i]) * 1099511628211UL;
	return h ^ (h >> 29);
}

struct sum_entry *dv_sums_get(struct sums *s, const long long *key)
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

void dv_sum_add(struct sum_entry *e, int i, long long v)
{
	if (v == NUL)
		return;
	e->v[i] += v;
	e->known |= 1u << i;
}

void dv_bind_sum(sqlite3_stmt *st, int col, const struct sum_entry *e, int i)
{
	if (e->known & (1u << i))
		sqlite3_bind_int64(st, col, e->v[i]);
	else
		sqlite3_bind_null(st, col);
}

void dv_bind_text_key(sqlite3_stmt *st, int col, long long k)
{
	const char *s = (const char *)(intptr_t)k;

	if (s)
		sqlite3_bind_text(st, col, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, col);
}

void *dv_evs_push(struct evs *e)
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

/* ---------------------------------------------------------------- the other tables */

static int count_table(struct derive *d, const char *tbl, int has_event)
{
	char *q = sqlite3_mprintf("SELECT ts, seq%s FROM \"%w\"", has_event ? ", event" : "", tbl);
	struct agg *a = NULL;
	sqlite3_stmt *st;
	int rc;

	if (!q)
		return vms_error("out of memory");
	st = dv_prep(d, q);
	sqlite3_free(q);
	if (!st)
		return -1;
	if (!has_event && !(a = dv_agg_get(d, tbl, tbl))) {
		sqlite3_finalize(st);
		return vms_error("out of memory");
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (has_event) {
			const char *ev = (const char *)sqlite3_column_text(st, 2);

			if (!a || strcmp(a->event, ev ? ev : "")) {
				if (!(a = dv_agg_get(d, tbl, ev ? ev : ""))) {
					sqlite3_finalize(st);
					return vms_error("out of memory");
				}
			}
		}
		if (dv_agg_add(d, a, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1))) {
			sqlite3_finalize(st);
			return -1;
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : dv_sql_fail(d, tbl);
}

/*
 * The sink's bins of the import that just stored the run (lib/sink-bins.c):
 * their base and resolution (0: none, or of no use for these buckets).
 */
static void bins_open(struct derive *d, long long *base, long long *res)
{
	sqlite3_stmt *st;

	*base = *res = 0;
	/* no temporary table: the run was not just imported on this connection */
	if (sqlite3_prepare_v2(d->sql, "SELECT base, res FROM temp.vms_sink_bins LIMIT 1", -1, &st,
			       NULL) != SQLITE_OK)
		return;
	if (sqlite3_step(st) == SQLITE_ROW) {
		long long b = sqlite3_column_int64(st, 0), r = sqlite3_column_int64(st, 1);

		/* each bin must fall into one bucket */
		if (r > 0 && b >= d->origin && (b - d->origin) % r == 0 && d->bucket_ns % r == 0)
			*base = b, *res = r;
	}
	sqlite3_finalize(st);
}

/* Run @sql with @tbl bound to ?1 (if given); its first row's @n columns in @v. Return: 0 or -1. */
static int query_row(struct derive *d, const char *sql, const char *tbl, long long *v, int n)
{
	sqlite3_stmt *st = dv_prep(d, sql);
	int rc;

	if (!st)
		return -1;
	if (tbl)
		sqlite3_bind_text(st, 1, tbl, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	for (int i = 0; i < n; i++)
		v[i] = rc == SQLITE_ROW ? dv_col(st, i) : NUL;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : dv_sql_fail(d, "bins");
}

/*
 * Count @tbl from the sink's bins instead of its rows, when they agree with
 * the table: as many rows, the same smallest and largest seq, an event per
 * bin exactly when the table has an event column. The accumulators are made
 * in the order count_table() makes them (events by their first row).
 * Return: 0 counted, 1 not (count_table() then), -1 error.
 */
static int count_from_bins(struct derive *d, const char *tbl, int has_event, long long base,
			   long long res)
{
	long long rows[3], bins[5];
	struct agg *a = NULL;
	sqlite3_stmt *st;
	char *q;
	int rc;

	q = sqlite3_mprintf("SELECT (SELECT count(*) FROM \"%w\"), (SELECT min(seq) FROM \"%w\"),"
			    " (SELECT max(seq) FROM \"%w\")", tbl, tbl, tbl);
	if (!q)
		return vms_error("out of memory");
	rc = query_row(d, q, NULL, rows, 3);
	sqlite3_free(q);
	if (rc || query_row(d, "SELECT CAST(total(n) AS INTEGER), min(lo), max(hi),"
			    " CAST(total(event IS NULL) AS INTEGER), CAST(total(event IS NOT NULL) AS INTEGER)"
			    " FROM temp.vms_sink_bins WHERE tbl = ?1", tbl, bins, 5))
		return -1;
	if (bins[0] != rows[0] || (rows[0] && (bins[1] != rows[1] || bins[2] != rows[2])))
		return 1;
	/* the bins of a table with an event column name the event; the others do not */
	if (has_event ? bins[3] != 0 : bins[4] != 0)
		return 1;
	if (!has_event && !(a = dv_agg_get(d, tbl, tbl)))
		return vms_error("out of memory");
	if (!rows[0])
		return 0;
	/* written in this order: events by their first row, bins in time order */
	st = dv_prep(d, "SELECT event, bin, n, lo, hi FROM temp.vms_sink_bins WHERE tbl = ?1"
		     " ORDER BY rowid");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, tbl, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long bin = sqlite3_column_int64(st, 1);
		long long b = (bin * res + (base - d->origin)) / d->bucket_ns;
		long long lo = sqlite3_column_int64(st, 3), hi = sqlite3_column_int64(st, 4);
		struct agg_bucket *k;

		if (has_event) {
			const char *ev = (const char *)sqlite3_column_text(st, 0);

			if (!a || strcmp(a->event, ev ? ev : "")) {
				if (!(a = dv_agg_get(d, tbl, ev ? ev : ""))) {
					sqlite3_finalize(st);
					return vms_error("out of memory");
				}
			}
		}
		if (bin * res + base < d->origin || b >= d->nbuckets) {
			sqlite3_finalize(st);
			return vms_error("%s: derive: %s at ts %lld lies outside the run's span",
					 vms_db_path(d->db), a->tbl, base + bin * res);
		}
		if (!(k = agg_slot(a, b))) {
			sqlite3_finalize(st);
			return vms_error("out of memory");
		}
		k->n += sqlite3_column_int64(st, 2);
		if (lo < k->lo)
			k->lo = lo;
		if (hi > k->hi)
			k->hi = hi;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : dv_sql_fail(d, "bins");
}

/* Every event table the pairing passes have not counted yet. */
static int count_tables(struct derive *d)
{
	long long base, res;
	sqlite3_stmt *st = dv_prep(d, "SELECT DISTINCT tbl, (SELECT COUNT(*) FROM pragma_table_info(tbl)"
				" WHERE name = 'event') FROM event_table UNION SELECT 'event_generic', 1"
				" ORDER BY 1");
	int rc;

	if (!st)
		return -1;
	bins_open(d, &base, &res);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *tbl = (const char *)sqlite3_column_text(st, 0);
		int i, done = 0;

		for (i = 0; i < d->nagg; i++)
			done |= !strcmp(d->buckets[i].tbl, tbl);
		if (!done && res) {
			int r = count_from_bins(d, tbl, sqlite3_column_int(st, 1), base, res);

			if (r < 0) {
				sqlite3_finalize(st);
				return -1;
			}
			done = !r;
		}
		if (!done && count_table(d, tbl, sqlite3_column_int(st, 1))) {
			sqlite3_finalize(st);
			return -1;
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : dv_sql_fail(d, "event_table");
}

/* ---------------------------------------------------------------- driver */

int vms_derive(struct vms_db *db)
{
	struct derive d = { .sql = vms_db_sql(db), .db = db };
	long long end, span;
	int resorted = 0, rc = -1, i;

	strmap_init(&d.strings);
	/* bucket 0 starts at the start of the run, the one every reader counts from */
	if (vms_run_bounds(db, &d.origin, &end))
		goto out;
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
	if (derive_reclaim(&d) || derive_kswapd(&d) || !(d.eps = dv_episodes_new(&d)) ||
	    derive_kswapd_runs(&d) ||
	    derive_slab(&d, &resorted) || derive_inactive(&d) || count_tables(&d) ||
	    dv_agg_write(&d) || dv_episodes_finish(d.eps))
		goto out;
	{
		sqlite3_stmt *st = dv_prep(&d, "INSERT INTO derive_info VALUES (1, ?1, ?2, ?3, ?4)");

		if (!st)
			goto out;
		sqlite3_bind_int64(st, 1, d.origin);
		sqlite3_bind_int64(st, 2, d.bucket_ns);
		sqlite3_bind_int(st, 3, resorted);
		sqlite3_bind_text(st, 4, VMS_VERSION, -1, SQLITE_STATIC);
		rc = sqlite3_step(st) == SQLITE_DONE ? 0 : dv_sql_fail(&d, "derive_info");
		sqlite3_finalize(st);
	}
out:
	for (i = 0; i < d.nagg; i++) {
		free(d.buckets[i].tbl), free(d.buckets[i].event);
		free(d.buckets[i].slot);
	}
	free(d.buckets);
	dv_episodes_free(d.eps);
	strmap_release(&d.strings, free);	/* values: shrinker names */
	return rc;
}
