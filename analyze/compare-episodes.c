// SPDX-License-Identifier: GPL-2.0
/*
 * compare-episodes.c - a run's window and the reclaim episodes of one kind in it,
 * for `vmscope compare` (both the pair table and the group statistics):
 * count, total duration and pages from the episode table (derived once by
 * lib/derive-episodes.c), and the nearest-rank percentiles of the complete
 * episodes' durations, computed by vms_percentile() as the report's episodes
 * section does (docs/report-episodes.md). The window is the report's, cut to
 * the run's first and last timestamp for its length.
 */
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "compare.h"

double cmp_window_open(struct vms_window *ctx, double from_s, double to_s, int has_from,
		       int has_to)
{
	long long lo, hi;

	if (vms_window_open(ctx, from_s, to_s, has_from, has_to))
		return -1;
	if (ctx->to < ctx->from)	/* --from past the end of this run: an empty window */
		ctx->to = ctx->from;
	lo = ctx->from > ctx->run_start ? ctx->from : ctx->run_start;
	hi = ctx->to < ctx->run_end ? ctx->to : ctx->run_end;
	return hi > lo ? (hi - lo) / 1e9 : 0;
}

int cmp_episodes_load(struct vms_window *ctx, const char *kind, struct cmp_episodes *e)
{
	static const char count_sql[] =
		"SELECT COUNT(*), TOTAL(duration_ns), TOTAL(end_reclaimed) FROM episode"
		" WHERE kind = ?3 AND (begin_ts IS NULL OR begin_ts <= ?2)"
		" AND (end_ts IS NULL OR end_ts >= ?1)";
	static const char dur_sql[] =
		"SELECT duration_ns FROM episode WHERE kind = ?3 AND duration_ns IS NOT NULL"
		" AND (begin_ts IS NULL OR begin_ts <= ?2) AND (end_ts IS NULL OR end_ts >= ?1)"
		" ORDER BY duration_ns";
	sqlite3_stmt *st = vms_window_prepare(ctx, count_sql);
	long long *d = NULL;
	int n = 0, alloc = 0;
	int rc;

	memset(e, 0, sizeof(*e));
	if (!st)
		return -1;
	sqlite3_bind_text(st, 3, kind, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		e->n = sqlite3_column_int64(st, 0);
		e->total_ms = sqlite3_column_double(st, 1) / 1e6;
		e->pages = sqlite3_column_double(st, 2);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return vms_error("%s: %s", vms_db_path(ctx->db), sqlite3_errmsg(ctx->sql));
	st = vms_window_prepare(ctx, dur_sql);
	if (!st)
		return -1;
	sqlite3_bind_text(st, 3, kind, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (vms_array_reserve(&d, &alloc, n, 64, sizeof(*d))) {
			free(d);
			sqlite3_finalize(st);
			return -1;
		}
		d[n++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(d);
		return vms_error("%s: %s", vms_db_path(ctx->db), sqlite3_errmsg(ctx->sql));
	}
	e->complete = n;	/* d is sorted: ORDER BY duration_ns */
	if (n) {
		e->p50 = vms_percentile(d, n, 50) / 1e6;
		e->p99 = vms_percentile(d, n, 99) / 1e6;
		e->max = d[n - 1] / 1e6;
	}
	free(d);
	return 0;
}
