/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vmstat-metrics.h - the mmtests-style reclaim metrics of a run's window as a
 * list of (label, value, available), computed once for `vmscope report`'s
 * vmstat section and for `vmscope compare`.
 *
 * Two lists:
 *  - vmstat_counter_metrics(): from /proc/vmstat deltas over the window
 *    (mmtests' MonitorMmtestsvmstat definitions; the formulas are in
 *    vmstat-metrics.c and docs/compare.md). A counter this kernel lacks makes
 *    its metric unavailable, never 0; @missing names it.
 *  - vmstat_trace_metrics(): what the trace itself gives without counters
 *    (sums of mm_vmscan_lru_shrink_inactive per reclaimer: kswapd, other tasks).
 *  - vmstat_memcg_metrics(): the recorded memcg's own memory.stat deltas.
 *
 * Both read only, respect [ctx->from, ctx->to], and return 0 or -1 with
 * vms_error() set.
 */
#ifndef VMS_ANALYZE_VMSTAT_METRICS_H
#define VMS_ANALYZE_VMSTAT_METRICS_H

#include "report.h"

enum vmstat_metric_kind {
	VMSTAT_COUNT,		/* a total over the window (pages or events): divide by span for a rate */
	VMSTAT_PERCENT,		/* a ratio, in % */
	VMSTAT_RATE,		/* already per second */
	VMSTAT_SECONDS,		/* the span itself */
};

struct vmstat_metric {
	const char *label;	/* "Direct pages scanned" (the labels of report's vmstat table) */
	const char *formula;	/* "pgscan_direct", "100*pgsteal_kswapd/pgscan_kswapd" */
	const char *missing;	/* !available: the counter this kernel lacks (NULL: another reason) */
	const char *undefined;	/* !available with every counter there: why ("nothing scanned") */
	enum vmstat_metric_kind kind;
	int available;
	double value;
};

#define VMSTAT_METRICS_MAX 48

struct vmstat_metrics {
	struct vmstat_metric m[VMSTAT_METRICS_MAX];
	int n;
	/*
	 * Seconds the VMSTAT_COUNT values cover: for the counter list T, the time
	 * between the two vmstat samples the deltas use; for the trace list the
	 * window clamped to the run's first and last event or sample. 0: unknown.
	 */
	double span;
	int has_samples;	/* counter list: the run has vmstat samples in reach of the window */
};

/*
 * Always the full list, in the order of report's vmstat table. Without vmstat
 * samples (an imported trace) every metric is unavailable with @missing NULL
 * and has_samples is 0. Return: 0, -1 on error.
 */
int vmstat_counter_metrics(struct vms_window *ctx, struct vmstat_metrics *out);
/* Return: 0, -1 on error. */
int vmstat_trace_metrics(struct vms_window *ctx, struct vmstat_metrics *out);
/*
 * The memcg's own counters: memory.stat deltas (source 'memcg', @scope the
 * memcg's path) over the window, by their cgroup v2 names (v1 local names
 * are the same; v1 'total_' names are taken when the local one is absent).
 * A counter the memcg's memory.stat lacks (v1 has no pgscan) is unavailable.
 * Return: 0, -1 on error.
 */
int vmstat_memcg_metrics(struct vms_window *ctx, const char *scope, struct vmstat_metrics *out);

#endif
