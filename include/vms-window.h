/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vms-window.h - the window of a run that report, compare, plot and replay
 * read: the run's bounds, the [from, to] slice asked for on the command line,
 * and the SQL helpers that bind it (?1 = from, ?2 = to, ns on the trace
 * clock). One definition of "the start of the run" for every reader.
 */
#ifndef VMS_WINDOW_H
#define VMS_WINDOW_H

#include <sqlite3.h>

struct vms_db;

struct vms_window {
	struct vms_db *db;
	sqlite3 *sql;
	long long run_start, run_end;	/* first and last event, ns (0 when no events) */
	long long from, to;		/* the window analysed, ns on the trace clock */
	int has_counters;		/* the run has vmstat counter samples */
	long long origin, bucket_ns;	/* derive_info: start of bucket 0, bucket width (ns) */
};

/* Largest offset, in seconds, a window may start or end at (about 31 years). */
#define VMS_WINDOW_MAX_S 1e9

/*
 * Set w->sql, the run's bounds (first and last event or counter sample,
 * whichever is earlier/later), has_counters, and the window [from, to] from
 * seconds after the start (the whole run when not given). w->db must be
 * open. Callers check the window against the run themselves.
 * Return: 0, or -1 with vms_error set (a failed query, or a bound that is
 * not a finite number of seconds within +-VMS_WINDOW_MAX_S).
 */
int vms_window_open(struct vms_window *w, double from_s, double to_s, int has_from, int has_to);

/* Prepare @sql and bind ?1 = w->from, ?2 = w->to. Return: statement or NULL (vms_error set). */
sqlite3_stmt *vms_window_prepare(struct vms_window *w, const char *sql);
/* First column of the first row as an integer; Return: 0, 1 when no row/NULL, -1 on error. */
int vms_window_int(struct vms_window *w, const char *sql, long long *out);
/* Run @st, read its first column into *@out and finalize it. Return: 0; 1 NULL or no row; -1 error. */
int vms_window_step_int(struct vms_window *w, sqlite3_stmt *st, long long *out);
/* Seconds from the start of the run for an absolute ns timestamp. */
double vms_window_rel_s(const struct vms_window *w, long long ts);

/* qsort() comparison of long longs, ascending. */
int vms_cmp_ll(const void *a, const void *b);
/* Nearest rank: the value of rank ceil(p * n / 100) of @v (n > 0) sorted ascending. */
long long vms_percentile(const long long *v, int n, int p);

#endif
