// SPDX-License-Identifier: GPL-2.0
/*
 * report-buckets.c - how a section sums a time window exactly from the
 * derived rollups (schema/910-derived.sql): the buckets the window covers
 * whole come from the rollup tables, the rest of the window (at most two
 * pieces, at its edges) from the raw rows, found through the seq ranges that
 * event_bucket keeps per bucket. Also makes sure the derived tables exist:
 * a database made before them gets them as TEMP tables, derived here.
 */
#include <limits.h>
#include <stdio.h>

#include "vms.h"
#include "report.h"

/*
 * Whether the derived tables still describe the run: the same start, and no
 * event table with rows past the seq its buckets end at (rows added by hand
 * after the run was finished, as the tests add counter samples).
 * Return: 1 current, 0 stale, -1 on error.
 */
static int derived_current(struct vms_window *ctx)
{
	sqlite3_stmt *st = vms_window_prepare(ctx,
		"SELECT tbl, (SELECT MAX(max_seq) FROM event_bucket b WHERE b.tbl = t.tbl)"
		" FROM (SELECT DISTINCT tbl FROM event_table UNION SELECT 'event_generic') t");
	int rc, current = ctx->origin == ctx->run_start;

	if (!st)
		return -1;
	while (current && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		char q[160];
		long long max = 0;

		snprintf(q, sizeof(q), "SELECT MAX(seq) FROM \"%s\"",
			 (const char *)sqlite3_column_text(st, 0));
		if (vms_window_int(ctx, q, &max) < 0) {
			sqlite3_finalize(st);
			return -1;
		}
		current = max == sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	return current;
}

static int read_info(struct vms_window *ctx)
{
	sqlite3_stmt *st = vms_window_prepare(ctx, "SELECT origin_ts, bucket_ns FROM derive_info");
	int rc;

	if (!st)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		ctx->origin = sqlite3_column_int64(st, 0);
		ctx->bucket_ns = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW || ctx->bucket_ns <= 0)
		return vms_error("'%s': derive_info is empty or corrupt", vms_db_path(ctx->db));
	return 0;
}

int report_derived(struct vms_window *ctx)
{
	int rc = vms_derive_present(ctx->db);

	if (rc < 0)
		return -1;
	if (!rc) {
		vms_warning("'%s' was made before vmscope kept derived tables: deriving them for "
			    "this report (slower; import or record the run again to keep them)",
			    vms_db_path(ctx->db));
	} else {
		if (read_info(ctx) || (rc = derived_current(ctx)) < 0)
			return -1;
		if (rc)
			return 0;
		vms_warning("'%s' was changed after it was finished (its derived tables do not "
			    "match its events or counters): deriving them again for this report",
			    vms_db_path(ctx->db));
	}
	return vms_derive(ctx->db, 1) || read_info(ctx) ? -1 : 0;
}

static long long bucket_floor(const struct vms_window *ctx, long long ts)
{
	long long d = ts - ctx->origin;

	return d >= 0 ? d / ctx->bucket_ns : -((-d + ctx->bucket_ns - 1) / ctx->bucket_ns);
}

void report_split(const struct vms_window *ctx, long long from, long long to, struct report_split *s)
{
	/* no event lies before the start or after the end of the run */
	int open_lo = from <= ctx->run_start, open_hi = to >= ctx->run_end;
	long long w = ctx->bucket_ns;

	s->nedge = 0;
	s->b_lo = open_lo ? LLONG_MIN / 2 : bucket_floor(ctx, from - 1) + 1;
	s->b_hi = open_hi ? LLONG_MAX / 2 : bucket_floor(ctx, to + 1) - 1;
	if (to < from) {
		s->b_lo = 1, s->b_hi = 0;
		return;
	}
	if (s->b_lo > s->b_hi) {
		s->edge[s->nedge].from = from;
		s->edge[s->nedge++].to = to;
	} else {
		if (!open_lo && from < ctx->origin + s->b_lo * w) {
			s->edge[s->nedge].from = from;
			s->edge[s->nedge++].to = ctx->origin + s->b_lo * w - 1;
		}
		if (!open_hi && to >= ctx->origin + (s->b_hi + 1) * w) {
			s->edge[s->nedge].from = ctx->origin + (s->b_hi + 1) * w;
			s->edge[s->nedge++].to = to;
		}
	}
	for (int i = 0; i < s->nedge; i++) {
		s->edge[i].b_lo = bucket_floor(ctx, s->edge[i].from);
		s->edge[i].b_hi = bucket_floor(ctx, s->edge[i].to);
	}
}

int report_ts_seq_range(struct vms_window *ctx, const char *tbl, long long from, long long to,
			long long *lo, long long *hi)
{
	if (to < from)
		return 1;
	return report_seq_range(ctx, tbl, bucket_floor(ctx, from), bucket_floor(ctx, to), lo, hi);
}

int report_seq_range(struct vms_window *ctx, const char *tbl, long long b_lo, long long b_hi,
		     long long *lo, long long *hi)
{
	sqlite3_stmt *st = vms_window_prepare(ctx, "SELECT MIN(min_seq), MAX(max_seq) FROM event_bucket"
					  " WHERE tbl = ?3 AND bucket BETWEEN ?4 AND ?5");
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 3, tbl, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, b_lo);
	sqlite3_bind_int64(st, 5, b_hi);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
		*lo = sqlite3_column_int64(st, 0);
		*hi = sqlite3_column_int64(st, 1);
		rc = 0;
	} else {
		rc = rc == SQLITE_ROW ? 1 : vms_error("%s", sqlite3_errmsg(ctx->sql));
	}
	sqlite3_finalize(st);
	return rc;
}

sqlite3_stmt *report_prepare_edge(struct vms_window *ctx, const char *sql, const char *tbl,
				  const struct report_edge *e, int *empty)
{
	long long lo, hi;
	sqlite3_stmt *st;
	int rc = report_seq_range(ctx, tbl, e->b_lo, e->b_hi, &lo, &hi);

	*empty = rc == 1;
	if (rc)
		return NULL;
	st = vms_window_prepare(ctx, sql);
	if (!st)
		return NULL;
	sqlite3_bind_int64(st, 1, e->from);
	sqlite3_bind_int64(st, 2, e->to);
	sqlite3_bind_int64(st, 3, lo);
	sqlite3_bind_int64(st, 4, hi);
	return st;
}
