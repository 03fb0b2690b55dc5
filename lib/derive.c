// SPDX-License-Identifier: GPL-2.0
/*
 * derive.c - derive, once, what the report sections need from a finished
 * run (schema/910-derived.sql): the begin/end pairings that the views of
 * 006-views.sql computed with window functions (now tables, or for the slab
 * calls a view over stored pairs, with the same names and columns), per time
 * bucket rollups of the high-volume tables, and the reclaim episodes. It sits at the end of record/import (vms_db_finish()), inside the
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
int dv_agg_add(struct derive *d, struct agg *a, long long ts, long long seq)
{
	long long b = ts < d->origin ? -1 : dv_bucket_of(d, ts);

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

int dv_agg_write(struct derive *d)
{
	sqlite3_stmt *st = dv_prep(d, "INSERT INTO event_bucket VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
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
			if (dv_step_reset(d, st, "event_bucket")) {
				sqlite3_finalize(st);
				return -1;
			}
		}
	sqlite3_finalize(st);
	return 0;
}

void dv_agg_reset(struct agg *a, long long nbuckets)
{
	long long b;

	for (b = 0; b < nbuckets; b++) {
		a->n[b] = a->hi[b] = 0;
		a->lo[b] = LLONG_MAX;
	}
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
	sqlite3_stmt *st;
	struct agg *a = NULL;
	char q[200];
	int rc;

	snprintf(q, sizeof(q), "SELECT ts, seq%s FROM \"%s\"", has_event ? ", event" : "", tbl);
	if (!(st = dv_prep(d, q)))
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

/* Every event table the pairing passes have not counted yet. */
static int count_tables(struct derive *d)
{
	sqlite3_stmt *st = dv_prep(d, "SELECT DISTINCT tbl, (SELECT COUNT(*) FROM pragma_table_info(tbl)"
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
	return rc == SQLITE_DONE ? 0 : dv_sql_fail(d, "event_table");
}

/* ---------------------------------------------------------------- driver */

static long long query_ll(struct derive *d, const char *sql)
{
	sqlite3_stmt *st = dv_prep(d, sql);
	long long v = NUL;

	if (st && sqlite3_step(st) == SQLITE_ROW)
		v = dv_col(st, 0);
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
	/* the start of the run as vms_window_open() counts it */
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
	    dv_agg_write(&d) || vms_episodes_finish(d.eps))
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
