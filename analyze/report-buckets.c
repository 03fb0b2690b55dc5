// SPDX-License-Identifier: GPL-2.0
/*
 * report-buckets.c - how a section sums a time window exactly from the
 * derived rollups (schema/910-derived.sql): the buckets the window covers
 * whole come from the rollup tables, the rest of the window (at most two
 * pieces, at its edges) from the raw rows, found through the seq ranges that
 * event_bucket keeps per bucket.
 */
#include <limits.h>
#include <stdio.h>

#include "vms.h"
#include "report.h"

int report_derived(struct vms_window *ctx)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(ctx->sql, "SELECT origin_ts, bucket_ns FROM derive_info", -1, &st,
			       NULL) != SQLITE_OK)
		return vms_error("'%s' has no derived tables (%s): a recording that was cut off? "
				 "'vmscope record --recover' finishes it", vms_db_path(ctx->db),
				 sqlite3_errmsg(ctx->sql));
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		ctx->origin = sqlite3_column_int64(st, 0);
		ctx->bucket_ns = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW || ctx->bucket_ns <= 0)
		return vms_error("'%s': derive_info is empty or corrupt: run 'vmscope upgrade "
				 "--rederive %s'", vms_db_path(ctx->db), vms_db_path(ctx->db));
	/* both come from vms_run_bounds(): they differ when the run was changed since */
	if (ctx->origin != ctx->run_start)
		return vms_error("'%s' was changed after it was finished (the start of its run is "
				 "not the one its derived tables were made from): run 'vmscope "
				 "upgrade --rederive %s'", vms_db_path(ctx->db), vms_db_path(ctx->db));
	return 0;
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
