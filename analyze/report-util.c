// SPDX-License-Identifier: GPL-2.0
/*
 * report-util.c - counter deltas over the window and the recorded memcg,
 * shared by the report sections and compare (the window itself is
 * lib/window.c).
 */
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "report.h"

int report_counter_delta(struct vms_window *ctx, const char *source, const char *scope,
			 const char *name, long long *delta)
{
	sqlite3_stmt *st = vms_window_prepare(ctx,
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
	return vms_window_step_int(ctx, st, delta);
}

double report_counter_span(struct vms_window *ctx, const char *source)
{
	sqlite3_stmt *st = vms_window_prepare(ctx,
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

int report_memcg_scope(struct vms_window *ctx, char **scope)
{
	sqlite3_stmt *st = vms_window_prepare(ctx, "SELECT scope FROM counter_sample"
					  " WHERE source = 'memcg' GROUP BY scope ORDER BY COUNT(*) DESC,"
					  " scope LIMIT 1");
	int rc;

	*scope = NULL;
	if (!st)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_text(st, 0) &&
	    !(*scope = strdup((const char *)sqlite3_column_text(st, 0)))) {
		sqlite3_finalize(st);
		return vms_error("out of memory");
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW || rc == SQLITE_DONE)
		return 0;
	return vms_error("%s: %s", vms_db_path(ctx->db), sqlite3_errmsg(ctx->sql));
}
