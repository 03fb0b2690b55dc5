// SPDX-License-Identifier: GPL-2.0
/*
 * window.c - the run's bounds and the [from, to] window every reader
 * (report, compare, plot, replay) binds into its SQL, and the two small
 * order statistics they share. See vms-window.h.
 */
#include <math.h>

#include "vms.h"
#include "vms-window.h"

sqlite3_stmt *vms_window_prepare(struct vms_window *w, const char *sql)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(w->sql, sql, -1, &st, NULL) != SQLITE_OK) {
		vms_error("%s: %s", vms_db_path(w->db), sqlite3_errmsg(w->sql));
		return NULL;
	}
	if (sqlite3_bind_parameter_count(st) >= 1)
		sqlite3_bind_int64(st, 1, w->from);
	if (sqlite3_bind_parameter_count(st) >= 2)
		sqlite3_bind_int64(st, 2, w->to);
	return st;
}

int vms_window_step_int(struct vms_window *w, sqlite3_stmt *st, long long *out)
{
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
		*out = sqlite3_column_int64(st, 0);
		rc = 0;
	} else if (rc == SQLITE_ROW || rc == SQLITE_DONE) {
		rc = 1;
	} else {
		rc = vms_error("%s: %s", vms_db_path(w->db), sqlite3_errmsg(w->sql));
	}
	sqlite3_finalize(st);
	return rc;
}

int vms_window_int(struct vms_window *w, const char *sql, long long *out)
{
	sqlite3_stmt *st = vms_window_prepare(w, sql);

	if (!st)
		return -1;
	return vms_window_step_int(w, st, out);
}

double vms_window_rel_s(const struct vms_window *w, long long ts)
{
	return (ts - w->run_start) / 1e9;
}

/* Widen [*lo, *hi] to take in the value of @sql. Return: 0 or -1. */
static int widen(struct vms_window *w, const char *sql, long long *lo, long long *hi)
{
	long long v;
	int rc = vms_window_int(w, sql, &v);

	if (rc < 0)
		return -1;
	if (rc == 0 && lo && v < *lo)
		*lo = v;
	if (rc == 0 && hi && v > *hi)
		*hi = v;
	return 0;
}

static int check_bound(const char *what, double s)
{
	if (!isfinite(s) || fabs(s) > VMS_WINDOW_MAX_S)
		return vms_error("%s %g is not a number of seconds between %g and %g", what, s,
				 -VMS_WINDOW_MAX_S, VMS_WINDOW_MAX_S);
	return 0;
}

int vms_window_open(struct vms_window *w, double from_s, double to_s, int has_from, int has_to)
{
	long long v;
	int rc;

	if ((has_from && check_bound("--from", from_s)) || (has_to && check_bound("--to", to_s)))
		return -1;
	w->sql = vms_db_sql(w->db);
	/* the run's own bounds first, then the counters when the run has none */
	if ((rc = vms_window_int(w, "SELECT start_ts FROM run", &v)) < 0)
		return -1;
	if (rc == 0)
		w->run_start = v;
	else if ((rc = vms_window_int(w, "SELECT MIN(ts) FROM counter_sample", &v)) < 0)
		return -1;
	else if (rc == 0)
		w->run_start = v;
	if ((rc = vms_window_int(w, "SELECT end_ts FROM run", &v)) < 0)
		return -1;
	if (rc == 0)
		w->run_end = v;
	else if ((rc = vms_window_int(w, "SELECT MAX(ts) FROM counter_sample", &v)) < 0)
		return -1;
	else if (rc == 0)
		w->run_end = v;
	/* counters may extend past the events: the window covers both */
	if (widen(w, "SELECT MIN(ts) FROM counter_sample", &w->run_start, NULL) ||
	    widen(w, "SELECT MAX(ts) FROM counter_sample", NULL, &w->run_end))
		return -1;
	if ((rc = vms_window_int(w, "SELECT 1 FROM counter_sample WHERE source = 'vmstat' LIMIT 1",
				 &v)) < 0)
		return -1;
	w->has_counters = rc == 0;
	w->from = has_from ? w->run_start + (long long)llround(from_s * 1e9) : w->run_start;
	w->to = has_to ? w->run_start + (long long)llround(to_s * 1e9) : w->run_end;
	return 0;
}

int vms_cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

long long vms_percentile(const long long *v, int n, int p)
{
	long long rank = ((long long)p * n + 99) / 100;

	return v[rank < 1 ? 0 : rank - 1];
}
