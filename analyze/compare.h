/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare.h - `vmscope compare A1.db [A2.db ...] --vs B1.db [B2.db ...]`:
 * the statistics of two groups of runs, in the files analyze/compare-*.c,
 * one job each:
 *   compare-pair.c   the two-run table of `compare A.db B.db` (rates, every row)
 *   compare-tdist.c  Student's t distribution (regularized incomplete beta)
 *   compare-episodes.c  reclaim episodes of a kind in the window (also the pair table's)
 *   compare-stats.c  mean, stddev, CoV, min, max of a side; Welch's t-test
 *   compare-run.c    one run's values: workload times, vmstat, memcg, trace
 *   compare-rows.c   the rows: both sides' statistics per metric
 *   compare-labels.c the sides' default names (the sysctl that differs)
 *   compare-brief.c  the brief text table (changelog width)
 *   compare-out.c    the full table (text, CSV, JSON) through lib/table.c
 *
 * Protocol (cmd-compare.c):
 *  1. cmp_run_load() each database into a struct cmp_run (values in totals;
 *     each COUNT value keeps the seconds it covers, for --rates).
 *  2. cmp_rows_build() the rows of the two sides.
 *  3. cmp_brief_print() or cmp_table_write(); cmp_rows_release(), cmp_run_release().
 * Everything returns 0 or -1 with vms_error() set, and never prints except
 * to the FILE or struct out it is given.
 */
#ifndef VMS_ANALYZE_COMPARE_H
#define VMS_ANALYZE_COMPARE_H

#include <stdio.h>

#include "report.h"

/* --- compare-tdist.c --- */

/* ln Γ(x) of x > 0 (lgamma without its global sign). */
double cmp_lgamma(double x);
/* The regularized incomplete beta function I_x(a, b), 0 <= x <= 1, a, b > 0; NaN outside. */
double cmp_incbeta(double x, double a, double b);
/* P(T <= t) for Student's t with @df > 0 degrees of freedom (df need not be whole). */
double cmp_t_cdf(double t, double df);

/* --- compare-stats.c --- */

struct cmp_stats {
	int n;				/* runs with a value */
	double mean, sd, cov, min, max;	/* sd: sample standard deviation (n - 1); cov = sd / |mean| */
};

/* Summary of @n values (n may be 0: everything 0). */
void cmp_stats_of(const double *v, int n, struct cmp_stats *s);
/*
 * Welch's unequal-variances t-test of two sides. Return: the two-sided p
 * value, or -1 when it cannot be computed (fewer than two runs on a side).
 * Two sides without spread: p = 1 when their means are equal, else 0.
 */
double cmp_welch_p(const struct cmp_stats *a, const struct cmp_stats *b);

/* --- compare-pair.c --- */

/*
 * The two-run table (no --vs): metric, A, B, change, rates per second, every
 * row, as text, CSV or JSON on @f. An error names the run: "A: ...".
 */
int cmp_pair_write(FILE *f, enum out_format fmt, const char *const paths[2], double from_s,
		   double to_s, int has_from, int has_to);

/* --- compare-episodes.c --- */

struct cmp_episodes {
	long long n;		/* episodes overlapping the window, cut ones included */
	double total_ms;	/* sum of the complete ones' durations */
	double pages;		/* sum of the end events' nr_reclaimed */
	long long complete;
	double p50, p99, max;	/* ms, of the complete episodes */
};

/*
 * vms_window_open() of a run for compare: a --from past its end gives an
 * empty window. Return: its length in seconds, the part of [from, to] between
 * the run's first and last timestamp; -1 on error.
 */
double cmp_window_open(struct vms_window *ctx, double from_s, double to_s, int has_from,
		       int has_to);
/*
 * The episodes of @kind (episode.kind) overlapping the window, as the
 * report's episodes section takes them: count, total duration and pages,
 * nearest-rank percentiles (vms_percentile()) of the complete ones.
 */
int cmp_episodes_load(struct vms_window *ctx, const char *kind, struct cmp_episodes *e);

/* --- compare-run.c --- */

enum cmp_unit {
	CMP_COUNT,	/* a total over the window (pages, events); --rates divides it by span */
	CMP_PERCENT,	/* % */
	CMP_RATE,	/* already per second */
	CMP_MS,		/* milliseconds (latencies) */
	CMP_SECONDS,	/* seconds (times) */
	CMP_OTHER,	/* a workload result in its own unit */
};

enum cmp_scope {
	CMP_SCOPE_WORKLOAD,	/* what the workload or its runner measured (run_result) */
	CMP_SCOPE_MEMCG,	/* the recorded memcg's memory.stat */
	CMP_SCOPE_MACHINE,	/* /proc/vmstat: the whole machine, every tenant */
	CMP_SCOPE_TRACE,	/* the trace: every task the tracepoints saw */
};

extern const char *const cmp_scope_name[];	/* "workload", "memcg", "machine", "trace" */

struct cmp_value {
	char *key;		/* metric name, unique within a run (the full label) */
	const char *brief;	/* short label for the brief table, NULL: not a brief row */
	int order;		/* brief rows: place in the brief table */
	char unit_name[16];	/* CMP_OTHER: its unit ("s", "files/s") */
	enum cmp_unit unit;
	enum cmp_scope scope;
	int have;		/* the run can give it */
	int lower_is_better;	/* workload results: 1 for times */
	double v;		/* the value (totals for CMP_COUNT) */
	double span;		/* CMP_COUNT: seconds it covers (T for counters, the window for the trace) */
	const char *undefined;	/* !have with every input there: why */
};

struct cmp_run {
	const char *path;
	char *release;		/* run.kernel_release, NULL when unknown */
	char *memcg;		/* scope of the memcg's memory.stat samples, NULL: none */
	struct vms_window ctx;
	double window;		/* s: [from, to] clamped to the run's first and last ts */
	struct cmp_value *val;
	int n, alloc;
};

/* Open @path read-only and compute its values over the window (vms_window_open()'s arguments). */
int cmp_run_load(struct cmp_run *r, const char *path, double from_s, double to_s, int has_from,
		 int has_to);
void cmp_run_release(struct cmp_run *r);

/* --- compare-rows.c --- */

struct cmp_row {
	const char *key;	/* borrowed from the first run that has it */
	const char *brief;
	int order;
	const char *unit_name;
	enum cmp_unit unit;
	enum cmp_scope scope;
	int lower_is_better;
	int rate;		/* the values are per second (--rates on a CMP_COUNT) */
	struct cmp_stats side[2];
	double change;		/* % of side A's mean; valid when has_change */
	int has_change;
	double p;		/* Welch's p; -1: not testable */
	int significant;	/* p < alpha */
	int all_zero;		/* every value of both sides is 0 or missing */
	const char *undefined;	/* why some run has no value though its inputs are there */
};

struct cmp_groups {
	struct cmp_run *run[2];	/* side A, side B */
	int nrun[2];
	const char *label[2];
	int rates;		/* --rates */
	double alpha;		/* significance level */
	struct cmp_row *row;
	int nrow;
};

/* The rows of every metric any run has, in the order of the first run. */
int cmp_rows_build(struct cmp_groups *g);
void cmp_rows_release(struct cmp_groups *g);

/* --- compare-labels.c --- */

#define CMP_LABEL_MAX 80

/* Set the labels of both sides to the sysctl that tells them apart ("vm.swappiness=0"), if one does. */
void cmp_default_labels(struct cmp_groups *g, char buf[2][CMP_LABEL_MAX]);

/* --- compare-brief.c --- */

/* The brief table in @width columns (>= 60) on @f. Return: 0, -1 on a write error. */
int cmp_brief_print(FILE *f, const struct cmp_groups *g, int width);

/* --- compare-out.c --- */

/* Every row with every statistic, as text, CSV or JSON. Return: 0, -1. */
int cmp_table_write(FILE *f, enum out_format fmt, const struct cmp_groups *g);

#endif
