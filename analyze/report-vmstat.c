// SPDX-License-Identifier: GPL-2.0
/*
 * report-vmstat.c - the 'vmstat' section of `vmscope report`: the table
 * kernel changelogs quote (mmtests' MonitorMmtestsvmstat definitions) from
 * /proc/vmstat deltas over the window. The metrics themselves are computed
 * in vmstat-metrics.c, shared with `vmscope compare`; this file lays them
 * out. A counter this kernel lacks is shown as unavailable, never as 0. A run
 * without counter samples (an imported trace) gets the rows the trace itself
 * can give, named as such. When the run sampled a memcg's memory.stat
 * (`record -m`), a second table gives that memcg's own counters; each table
 * says its scope.
 */
#include <stdlib.h>

#include "vms.h"
#include "report.h"
#include "vmstat-metrics.h"

static int counter_table(struct vms_window *ctx, struct out *o, const struct vmstat_metrics *m)
{
	struct table *t = table_new("vmstat", "vmstat", "Reclaim counters (/proc/vmstat deltas)");
	int i;

	if (!t)
		return vms_error("out of memory");
	table_column(t, "metric", NULL, 0);
	table_column(t, "value", NULL, 2);
	table_column(t, "formula", NULL, 0);
	for (i = 0; i < m->n; i++) {
		const struct vmstat_metric *x = &m->m[i];

		table_row(t);
		table_text(t, x->label);
		if (!x->available)
			table_null(t);
		else if (x->kind == VMSTAT_COUNT)
			table_int(t, (long long)x->value);
		else
			table_real(t, x->value);
		table_text(t, x->formula);
		if (!x->available && x->missing)
			table_note(t, "%s: '%s' is not in this kernel's /proc/vmstat", x->label, x->missing);
		if (x->undefined)
			table_note(t, "%s is '-': %s", x->label, x->undefined);
	}
	table_note(t, "every counter in a formula is its delta between the vmstat samples bracketing "
		   "%.3f s .. %.3f s of the run (T = %.3f s)", vms_window_rel_s(ctx, ctx->from),
		   vms_window_rel_s(ctx, ctx->to), m->span);
	table_note(t, "pgscan/pgsteal_kswapd|direct count global reclaim only; memcg limit reclaim "
		   "shows in pgscan_anon/file (5.8+) and in the memcg's memory.stat");
	table_note(t, "scope: the whole machine (/proc/vmstat): every memcg and every tenant, "
		   "DAMON and proactive reclaim included");
	out_table(o, t);
	table_free(t);
	return 0;
}

/* The recorded memcg's own counters (memory.stat deltas), when the run sampled them. */
static int memcg_table(struct vms_window *ctx, struct out *o)
{
	struct vmstat_metrics m;
	struct vms_buf missing = { 0 };
	struct table *t;
	char *scope;
	int i;

	if (report_memcg_scope(ctx, &scope))
		return -1;
	if (!scope)
		return 0;
	if (vmstat_memcg_metrics(ctx, scope, &m)) {
		free(scope);
		return -1;
	}
	t = table_new("vmstat", "memcg", "Reclaim counters of the recorded memcg (memory.stat deltas)");
	if (!t) {
		free(scope);
		return vms_error("out of memory");
	}
	table_column(t, "metric", NULL, 0);
	table_column(t, "value", NULL, 0);
	table_column(t, "counter", NULL, 0);
	for (i = 0; i < m.n; i++) {
		const struct vmstat_metric *x = &m.m[i];

		table_row(t);
		table_text(t, x->label);
		if (x->available)
			table_int(t, (long long)x->value);
		else
			table_null(t);
		table_text(t, x->formula);
		if (!x->available && x->missing)
			vms_buf_addf(&missing, "%s%s", missing.len ? ", " : "", x->missing);
	}
	table_note(t, "scope: the memcg %s only (its memory.stat: what its own tasks and its limit "
		   "reclaim did), not the machine of the vmstat table", scope);
	table_note(t, "each counter is its delta between the memory.stat samples bracketing the "
		   "window (T = %.3f s); cgroup v1 local names, or total_ ones when absent", m.span);
	if (missing.len)
		table_note(t, "not in this memcg's memory.stat (cgroup v1 has no pgscan, pgsteal or "
			   "pswpout), so '-': %s", missing.buf);
	vms_buf_release(&missing);
	free(scope);
	out_table(o, t);
	table_free(t);
	return 0;
}

/* Without counters: the same quantities as far as the trace can give them. */
static int trace_table(struct vms_window *ctx, struct out *o, const struct vmstat_metrics *m)
{
	struct table *t = table_new("vmstat", "trace",
				    "Reclaim from the trace (no /proc/vmstat samples in this run)");
	int i;

	if (!t)
		return vms_error("out of memory");
	table_column(t, "metric", NULL, 0);
	table_column(t, "value", NULL, 2);
	table_column(t, "formula", NULL, 0);
	for (i = 0; i < m->n; i++) {
		table_row(t);
		table_text(t, m->m[i].label);
		if (!m->m[i].available)
			table_null(t);
		else if (m->m[i].kind == VMSTAT_COUNT)
			table_int(t, (long long)m->m[i].value);
		else
			table_real(t, m->m[i].value);
		table_text(t, m->m[i].formula);
		if (m->m[i].undefined)
			table_note(t, "%s is '-': %s", m->m[i].label, m->m[i].undefined);
	}
	table_note(t, "sums of mm_vmscan_lru_shrink_inactive nr_scanned/nr_reclaimed; 'other tasks' "
		   "holds direct and memcg reclaim");
	table_note(t, "scope: every task the tracepoints saw (all memcgs)");
	table_note(t, "unavailable without counters: swap, refaults, allocation and compaction "
		   "stalls, inode steals, slabs scanned (see the shrinkers section), page reclaim "
		   "immediate");
	out_table(o, t);
	table_free(t);
	return 0;
}

int report_vmstat(struct vms_window *ctx, struct out *o)
{
	struct vmstat_metrics m;

	if (!ctx->has_counters) {
		if (vmstat_trace_metrics(ctx, &m))
			return -1;
		return trace_table(ctx, o, &m);
	}
	if (vmstat_counter_metrics(ctx, &m) || counter_table(ctx, o, &m))
		return -1;
	return memcg_table(ctx, o);
}
