// SPDX-License-Identifier: GPL-2.0
/*
 * report-util.c - small SQL helpers shared by the report sections: window
 * binding, single values, and counter deltas over the window.
 */
#include "vms.h"
#include "report.h"

sqlite3_stmt *report_prepare(struct report_ctx *ctx, const char *sql)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(ctx->sql, sql, -1, &st, NULL) != SQLITE_OK) {
		vms_error("%s: %s", vms_db_path(ctx->db), sqlite3_errmsg(ctx->sql));
		return NULL;
	}
	if (sqlite3_bind_parameter_count(st) >= 1)
		sqlite3_bind_int64(st, 1, ctx->from);
	if (sqlite3_bind_parameter_count(st) >= 2)
		sqlite3_bind_int64(st, 2, ctx->to);
	return st;
}

/* Run @st, read its first column into *@out and finalize it. Return: 0; 1 NULL or no row; -1 error. */
static int step_int(struct report_ctx *ctx, sqlite3_stmt *st, long long *out)
{
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
		*out = sqlite3_column_int64(st, 0);
		rc = 0;
	} else if (rc == SQLITE_ROW || rc == SQLITE_DONE) {
		rc = 1;
	} else {
		rc = vms_error("%s: %s", vms_db_path(ctx->db), sqlite3_errmsg(ctx->sql));
	}
	sqlite3_finalize(st);
	return rc;
}

int report_int(struct report_ctx *ctx, const char *sql, long long *out)
{
	sqlite3_stmt *st = report_prepare(ctx, sql);

	if (!st)
		return -1;
	return step_int(ctx, st, out);
}

double report_rel_s(const struct report_ctx *ctx, long long ts)
{
	return (ts - ctx->run_start) / 1e9;
}

int report_counter_delta(struct report_ctx *ctx, const char *source, const char *scope,
			 const char *name, long long *delta)
{
	sqlite3_stmt *st = report_prepare(ctx,
		"WITH ids AS (SELECT"
		" COALESCE((SELECT id FROM counter_sample WHERE source = ?3 AND scope = ?4 AND ts <= ?1"
		"           ORDER BY ts DESC LIMIT 1),"
		"          (SELECT id FROM counter_sample WHERE source = ?3 AND scope = ?4"
		"           ORDER BY ts LIMIT 1)) AS a,"
		" (SELECT id FROM counter_sample WHERE source = ?3 AND scope = ?4 AND ts <= ?2"
		"  ORDER BY ts DESC LIMIT 1) AS z)"
		" SELECT (SELECT value FROM counter_value WHERE sample = ids.z AND name = ?5)"
		"      - (SELECT value FROM counter_value WHERE sample = ids.a AND name = ?5)"
		" FROM ids");

	if (!st)
		return -1;
	sqlite3_bind_text(st, 3, source, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, scope, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, name, -1, SQLITE_STATIC);
	return step_int(ctx, st, delta);
}

double report_counter_span(struct report_ctx *ctx, const char *source)
{
	sqlite3_stmt *st = report_prepare(ctx,
		"SELECT (SELECT ts FROM counter_sample WHERE source = ?3 AND ts <= ?2"
		"        ORDER BY ts DESC LIMIT 1)"
		"     - COALESCE((SELECT ts FROM counter_sample WHERE source = ?3 AND ts <= ?1"
		"                 ORDER BY ts DESC LIMIT 1),"
		"                (SELECT ts FROM counter_sample WHERE source = ?3 ORDER BY ts LIMIT 1))");
	double span = 0;

	if (!st)
		return 0;
	sqlite3_bind_text(st, 3, source, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		span = sqlite3_column_int64(st, 0) / 1e9;
	sqlite3_finalize(st);
	return span;
}

void report_ctx_window(struct report_ctx *ctx, double from_s, double to_s, int has_from, int has_to)
{
	long long v;

	ctx->sql = vms_db_sql(ctx->db);
	if (report_int(ctx, "SELECT start_ts FROM run", &v) == 0)
		ctx->run_start = v;
	else if (report_int(ctx, "SELECT MIN(ts) FROM counter_sample", &v) == 0)
		ctx->run_start = v;
	if (report_int(ctx, "SELECT end_ts FROM run", &v) == 0)
		ctx->run_end = v;
	else if (report_int(ctx, "SELECT MAX(ts) FROM counter_sample", &v) == 0)
		ctx->run_end = v;
	/* counters may extend past the events: the window covers both */
	if (report_int(ctx, "SELECT MIN(ts) FROM counter_sample", &v) == 0 && v < ctx->run_start)
		ctx->run_start = v;
	if (report_int(ctx, "SELECT MAX(ts) FROM counter_sample", &v) == 0 && v > ctx->run_end)
		ctx->run_end = v;
	ctx->has_counters = report_int(ctx, "SELECT 1 FROM counter_sample WHERE source = 'vmstat'"
				       " LIMIT 1", &v) == 0;
	ctx->from = has_from ? ctx->run_start + (long long)(from_s * 1e9) : ctx->run_start;
	ctx->to = has_to ? ctx->run_start + (long long)(to_s * 1e9) : ctx->run_end;
}

int report_cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

long long report_percentile(const long long *v, int n, int p)
{
	long long rank = ((long long)p * n + 99) / 100;

	return v[rank < 1 ? 0 : rank - 1];
}
