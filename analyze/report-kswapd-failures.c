// SPDX-License-Identifier: GPL-2.0
/*
 * report-kswapd-failures.c - the 'kswapd-failures' section of `vmscope
 * report`: per node, the episodes in which kswapd gave up on a node
 * (pgdat->kswapd_failures reached MAX_RECLAIM_RETRIES, the node is
 * "hopeless") and the signs that lead to or accompany one. Each detector
 * (analyze/kf-*.c, listed below) reads the whole run and adds rows of one
 * kind (rules and caveats: docs/report-kswapd-failures.md):
 *
 *  node_unreclaimable     /proc/zoneinfo samples: start = first sample with
 *                         node_unreclaimable 1 in any zone of the node, end =
 *                         the first later sample with 0 (NULL: still 1 at the
 *                         last sample). The kernel's own flag: strongest.
 *  zero-reclaim runs      the trace: streaks of consecutive kswapd runs that
 *                         reclaimed 0 pages (kswapd_run, derived once);
 *                         >= 16 runs: 'episode', 4-15: 'partial'.
 *  direct without kswapd  /proc/vmstat steps where allocstall_* and
 *                         pgscan_direct rose and pgscan_kswapd did not
 *                         (machine-wide), and direct reclaim calls while the
 *                         node's kswapd was not awake (trace): 'signal'.
 *  cache_trim retry       the trace: kswapd runs whose priority loop went to
 *                         1 reclaiming nothing and started again (the 6.9+
 *                         retry with cache_trim_mode off): 'retry'.
 *
 * This file keeps the episodes, sorts them, lists those that overlap the
 * window, with their own start and end (not clipped to the window), and
 * adds the kernel version's caveats. Times are seconds from the start of the
 * run.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "vms-kswapd.h"
#include "kf-local.h"

/* The detectors, run in this order; one line each. */
extern const struct kf_detector kf_detector_unreclaimable, kf_detector_zero_runs,
	kf_detector_direct_vmstat, kf_detector_direct_trace, kf_detector_trim_retry;
static const struct kf_detector *const detectors[] = {
	&kf_detector_unreclaimable,
	&kf_detector_zero_runs,
	&kf_detector_direct_vmstat,
	&kf_detector_direct_trace,
	&kf_detector_trim_retry,
};

static const char *const kind_name[] = { "node_unreclaimable", "zero-reclaim runs",
					 "direct without kswapd", "cache_trim retry" };

int kf_sql_fail(struct vms_window *ctx)
{
	return vms_error("%s: %s", vms_db_path(ctx->db), sqlite3_errmsg(ctx->sql));
}

static double sec(long long ns)
{
	return ns / 1e9;
}

int kf_add(struct kf_episodes *e, int has_node, long long node, enum kf_kind kind,
	   const char *status, long long start, int has_end, long long end, struct vms_buf *ev)
{
	struct kf_episode *p;

	if (!ev->buf)
		return vms_error("out of memory");
	if (e->n == e->alloc) {
		int n = e->alloc ? 2 * e->alloc : 16;

		p = realloc(e->v, n * sizeof(*p));
		if (!p) {
			vms_buf_release(ev);
			return vms_error("out of memory");
		}
		e->v = p;
		e->alloc = n;
	}
	p = &e->v[e->n++];
	p->has_node = has_node;
	p->node = node;
	p->kind = kind;
	p->status = status;
	p->start = start;
	p->has_end = has_end;
	p->end = end;
	p->evidence = ev->buf;
	ev->buf = NULL;
	ev->len = ev->alloc = 0;
	return 0;
}

static void episodes_release(struct kf_episodes *e)
{
	int i;

	for (i = 0; i < e->n; i++)
		free(e->v[i].evidence);
	free(e->v);
}

static int cmp_episode(const void *a, const void *b)
{
	const struct kf_episode *x = a, *y = b;

	if (x->has_node != y->has_node)
		return x->has_node ? -1 : 1;	/* machine-wide rows last */
	if (x->has_node && x->node != y->node)
		return x->node < y->node ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (int)x->kind - (int)y->kind;
}

long long kf_count(struct vms_window *ctx, const char *sql)
{
	long long v = 0;
	int rc = vms_window_int(ctx, sql, &v);

	return rc < 0 ? -1 : rc ? 0 : v;
}

/* What the kernel version changes (docs/report-kswapd-failures.md, "Kernel versions"). */
static void kernel_notes(struct vms_window *ctx, struct table *t)
{
	sqlite3_stmt *st = vms_window_prepare(ctx, "SELECT (SELECT kernel_release FROM run),"
					  " (SELECT value FROM sysctl WHERE name = 'lru_gen.enabled')");
	char rel[64] = "", lru[32] = "";
	int major = 0, minor = 0, mglru = -1;	/* -1: not known */

	if (st && sqlite3_step(st) == SQLITE_ROW) {
		if (sqlite3_column_type(st, 0) != SQLITE_NULL)
			snprintf(rel, sizeof(rel), "%s", (const char *)sqlite3_column_text(st, 0));
		if (sqlite3_column_type(st, 1) != SQLITE_NULL)
			snprintf(lru, sizeof(lru), "%s", (const char *)sqlite3_column_text(st, 1));
	}
	sqlite3_finalize(st);
	if (*lru)
		mglru = strtol(lru, NULL, 0) != 0;
	if (!*rel || sscanf(rel, "%d.%d", &major, &minor) != 2) {
		table_note(t, "kernel release unknown (a text trace imported without --kernel): on "
			   "MGLRU kernels 6.3-6.11 nodes never become hopeless, and 6.18 resets "
			   "kswapd_failures from the page free path without an event (see "
			   "docs/report-kswapd-failures.md)");
		return;
	}
	if (mglru != 0 && (major == 6 && minor >= 1 && minor <= 7))
		table_note(t, "kernel %s: MGLRU%s emits no lru_shrink_inactive before 6.8, so "
			   "zero-reclaim runs cannot be seen", rel, mglru == 1 ? " (enabled)" :
			   ", if enabled,");
	if (mglru != 0 && major == 6 && minor >= 3 && minor <= 11)
		table_note(t, "kernel %s: with MGLRU%s, kswapd_failures is reset on every kswapd pass "
			   "(fixed in 6.12, backported to some stables): nodes never become hopeless "
			   "and kswapd spins instead; long zero-reclaim streaks without silence are the "
			   "symptom", rel, mglru == 1 ? " enabled" : " (if enabled)");
	if (major > 6 || (major == 6 && minor >= 18))
		table_note(t, "kernel %s: freeing pages above a zone's high watermark on a node with a "
			   "fallback memory node resets kswapd_failures with no event: an episode can "
			   "end without a trace sign; only node_unreclaimable shows it", rel);
}

static void emit(struct vms_window *ctx, struct table *t, struct kf_episodes *e)
{
	int i, shown = 0, machine_wide = 0;

	if (e->n)
		qsort(e->v, e->n, sizeof(*e->v), cmp_episode);
	for (i = 0; i < e->n; i++) {
		const struct kf_episode *p = &e->v[i];

		if (p->start > ctx->to || (p->has_end && p->end < ctx->from))
			continue;
		table_row(t);
		if (p->has_node)
			table_int(t, p->node);
		else
			table_null(t);
		table_text(t, kind_name[p->kind]);
		table_text(t, p->status);
		table_real(t, vms_window_rel_s(ctx, p->start));
		if (p->has_end) {
			table_real(t, vms_window_rel_s(ctx, p->end));
			table_real(t, sec(p->end - p->start));
		} else {
			table_null(t);
			table_null(t);
		}
		table_text(t, p->evidence);
		shown++;
		machine_wide += !p->has_node;
	}
	if (!shown)
		table_note(t, "no failure episode or signal in the window from the detectors that ran");
	if (machine_wide)
		table_note(t, "node empty: machine-wide (/proc/vmstat has no per-node allocstall or "
			   "pgscan), or direct reclaim that scanned no LRU page (no event names the node)");
}

int report_kswapd_failures(struct vms_window *ctx, struct out *o)
{
	struct table *t = table_new("kswapd-failures", "episodes",
				    "kswapd failure episodes per node");
	struct kf_episodes e = { 0 };
	int rc, i;

	if (!t)
		return vms_error("out of memory");
	table_column(t, "node", NULL, 0);
	table_column(t, "detector", NULL, 0);
	table_column(t, "status", NULL, 0);
	table_column(t, "start", "s", 6);
	table_column(t, "end", "s", 6);
	table_column(t, "duration", "s", 6);
	table_column(t, "evidence", NULL, 0);
	table_note(t, "status: 'episode' = the node was hopeless (node_unreclaimable, or >= %d "
		   "consecutive zero-reclaim kswapd runs); 'partial' = %d-%d such runs; 'signal' = "
		   "direct reclaim without kswapd; 'retry' = kswapd restarted its priority loop after a "
		   "sweep to priority 1 that reclaimed nothing; no end (-) = still so at the end of "
		   "the data",
		   VMS_KSWAPD_HOPELESS_RUNS, VMS_KSWAPD_PARTIAL_RUNS, VMS_KSWAPD_HOPELESS_RUNS - 1);
	table_note(t, "episodes are found over the whole run and listed when they overlap the "
		   "window; times are seconds from the start of the run; rules in "
		   "docs/report-kswapd-failures.md");
	for (i = 0, rc = 0; i < (int)(sizeof(detectors) / sizeof(detectors[0])) && !rc; i++)
		rc = detectors[i]->detect(ctx, &e, t);
	if (!rc) {
		kernel_notes(ctx, t);
		emit(ctx, t, &e);
		out_table(o, t);
	}
	episodes_release(&e);
	table_free(t);
	return rc;
}

