// SPDX-License-Identifier: GPL-2.0
/*
 * kf-direct-trace.c - the per-node half of the 'direct without kswapd' detector
 * of the kswapd-failures report section: direct reclaim calls while the
 * node's kswapd was not awake (kswapd_interval), merged when close.
 * Rules: docs/report-kswapd-failures.md, section 3.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "kf-local.h"

#define DIRECT_MERGE_NS 1000000000LL	/* direct calls closer than this form one signal */
#define NS_MAX LLONG_MAX

struct kiv {
	long long nid, start, end;	/* awake from start to end (ns, inclusive) */
};

struct kivs {
	struct kiv *v;
	int n;
};

/* kswapd awake periods from the kswapd_interval view, per node in time order. */
static int load_kivs(struct vms_window *ctx, struct kivs *k)
{
	sqlite3_stmt *st = vms_window_prepare(ctx,
		"SELECT nid, wake_ts, sleep_ts FROM kswapd_interval WHERE nid IS NOT NULL"
		" ORDER BY nid, COALESCE(wake_seq, sleep_seq)");
	int rc, alloc = 0;

	k->v = NULL;
	k->n = 0;
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct kiv *p;
		long long nid = sqlite3_column_int64(st, 0);
		int first = !k->n || k->v[k->n - 1].nid != nid;

		if (k->n == alloc) {
			alloc = alloc ? 2 * alloc : 64;
			p = realloc(k->v, alloc * sizeof(*p));
			if (!p) {
				sqlite3_finalize(st);
				return vms_error("out of memory");
			}
			k->v = p;
		}
		p = &k->v[k->n++];
		p->nid = nid;
		p->end = sqlite3_column_type(st, 2) == SQLITE_NULL ? NS_MAX : sqlite3_column_int64(st, 2);
		if (sqlite3_column_type(st, 1) != SQLITE_NULL)
			p->start = sqlite3_column_int64(st, 1);
		else	/* awake when the trace began, or a sleep whose wake was lost */
			p->start = first ? LLONG_MIN : p->end;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : kf_sql_fail(ctx);
}

/* [lo, hi) of node @nid's periods. */
static void kiv_range(const struct kivs *k, long long nid, int *lo, int *hi)
{
	int a, b, m, bound;

	for (bound = 0; bound < 2; bound++) {	/* first nid >= @nid, then first nid > @nid */
		a = 0;
		b = k->n;
		while (a < b) {
			m = a + (b - a) / 2;
			if (k->v[m].nid < nid || (bound && k->v[m].nid == nid))
				a = m + 1;
			else
				b = m;
		}
		*(bound ? hi : lo) = a;
	}
}

/* Index of the last period in [lo, hi) starting at or before @t, or lo - 1. */
static int kiv_last_start(const struct kivs *k, int lo, int hi, long long t)
{
	int a = lo, b = hi;	/* first index with start > t is in [a, b] */

	while (a < b) {
		int m = a + (b - a) / 2;

		if (k->v[m].start <= t)
			a = m + 1;
		else
			b = m;
	}
	return a - 1;
}

/* Was kswapd of the node in [lo, hi) awake at some time in [b, e]? */
static int kiv_overlaps(const struct kivs *k, int lo, int hi, long long b, long long e)
{
	int i = kiv_last_start(k, lo, hi, e);

	return i >= lo && k->v[i].end >= b;
}

/* Did an awake period of the node in [lo, hi) start in (a, b)? */
static int kiv_starts_between(const struct kivs *k, int lo, int hi, long long a, long long b)
{
	int i = kiv_last_start(k, lo, hi, a) + 1;

	return i < hi && k->v[i].start < b;
}

/* Any node when @has_node is 0. */
static int kswapd_awake(const struct kivs *k, int has_node, long long nid, long long b, long long e)
{
	int lo, hi, i;

	if (has_node) {
		kiv_range(k, nid, &lo, &hi);
		return kiv_overlaps(k, lo, hi, b, e);
	}
	for (i = 0; i < k->n; i = hi) {
		kiv_range(k, k->v[i].nid, &lo, &hi);
		if (kiv_overlaps(k, lo, hi, b, e))
			return 1;
	}
	return 0;
}

static int kswapd_woke_between(const struct kivs *k, int has_node, long long nid, long long a,
			       long long b)
{
	int lo, hi, i;

	if (has_node) {
		kiv_range(k, nid, &lo, &hi);
		return kiv_starts_between(k, lo, hi, a, b);
	}
	for (i = 0; i < k->n; i = hi) {
		kiv_range(k, k->v[i].nid, &lo, &hi);
		if (kiv_starts_between(k, lo, hi, a, b))
			return 1;
	}
	return 0;
}

struct dgroup {
	int active, has_node, open, calls, has_order;
	long long nid, start, end, pages, stall_ns;
	int min_order, max_order;
	long long *pids;
	int npids, apids;
};

static int close_dgroup(struct vms_window *ctx, struct kf_episodes *eps, struct dgroup *g)
{
	struct vms_buf ev = { 0 };
	int i, tasks = 0;

	if (!g->active)
		return 0;
	g->active = 0;
	if (g->npids)
		qsort(g->pids, g->npids, sizeof(*g->pids), vms_cmp_ll);
	for (i = 0; i < g->npids; i++)
		if (!i || g->pids[i] != g->pids[i - 1])
			tasks++;
	vms_buf_addf(&ev, "%d direct reclaim call%s by %d task%s", g->calls, g->calls == 1 ? "" : "s",
		     tasks, tasks == 1 ? "" : "s");
	if (g->has_node)
		vms_buf_addf(&ev, " while kswapd of node %lld was not awake (trace)", g->nid);
	else
		vms_buf_addf(&ev, " that scanned no LRU page (node unknown) while no kswapd was awake "
			     "(trace)");
	vms_buf_addf(&ev, ": %lld pages reclaimed, %.3f ms stalled", g->pages, g->stall_ns / 1e6);
	if (g->has_order) {
		if (g->min_order == g->max_order)
			vms_buf_addf(&ev, ", order %d", g->min_order);
		else
			vms_buf_addf(&ev, ", orders %d-%d", g->min_order, g->max_order);
	}
	if (g->open)
		vms_buf_addf(&ev, "; the last call has no end: open");
	g->npids = 0;
	return kf_add(eps, g->has_node, g->nid, KF_DIRECT, "signal", g->start, !g->open,
			   g->end, &ev);
}

static int detect_direct_trace(struct vms_window *ctx, struct kf_episodes *eps, struct table *t)
{
	struct kivs k = { 0 };
	struct dgroup g = { 0 };
	long long begins, kevents, thp;
	sqlite3_stmt *st = NULL;
	int rc;

	begins = kf_count(ctx, "SELECT COUNT(*) FROM mm_vmscan_direct_reclaim_begin");
	kevents = kf_count(ctx, "SELECT (SELECT COUNT(*) FROM mm_vmscan_kswapd_wake)"
			   " + (SELECT COUNT(*) FROM mm_vmscan_kswapd_sleep)");
	if (begins < 0 || kevents < 0)
		return -1;
	if (!begins) {
		table_note(t, "direct without kswapd (trace): no mm_vmscan_direct_reclaim_begin events "
			   "in this run (none happened, or the event was not recorded)");
		return 0;
	}
	if (!kevents) {
		table_note(t, "direct without kswapd (trace): not run: no mm_vmscan_kswapd_wake or "
			   "kswapd_sleep events tell when kswapd was awake");
		return 0;
	}
	if (load_kivs(ctx, &k))
		return -1;
	st = vms_window_prepare(ctx,
		"WITH d AS (SELECT pid, begin_seq, begin_ts, end_ts, \"order\" AS ord, gfp_flags,"
		"  nr_reclaimed FROM reclaim_interval WHERE kind = 'direct' AND begin_ts IS NOT NULL)"
		" SELECT s.nid, d.pid, d.begin_ts, d.end_ts, d.ord, d.nr_reclaimed"
		" FROM d LEFT JOIN mm_vmscan_lru_shrink_inactive s ON s.pid = d.pid"
		"  AND s.ts >= d.begin_ts AND s.ts <= COALESCE(d.end_ts, 9223372036854775807)"
		"  AND s.nid IS NOT NULL"
		" WHERE d.gfp_flags IS NULL OR d.gfp_flags NOT GLOB '*GFP_TRANSHUGE*'"
		"  OR d.gfp_flags GLOB '*KSWAPD_RECLAIM*'"
		" GROUP BY d.begin_seq, s.nid"
		" ORDER BY s.nid IS NULL, s.nid, d.begin_ts, d.begin_seq");
	if (!st)
		goto fail;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int has_node = sqlite3_column_type(st, 0) != SQLITE_NULL;
		long long nid = sqlite3_column_int64(st, 0), pid = sqlite3_column_int64(st, 1);
		long long b = sqlite3_column_int64(st, 2);
		int open = sqlite3_column_type(st, 3) == SQLITE_NULL;
		long long e = open ? ctx->run_end : sqlite3_column_int64(st, 3);
		int has_order = sqlite3_column_type(st, 4) != SQLITE_NULL;
		int order = sqlite3_column_int(st, 4);

		if (e < b)
			e = b;
		if (kswapd_awake(&k, has_node, nid, b, e))
			continue;
		if (g.active && (g.has_node != has_node || (has_node && g.nid != nid) ||
				 b - g.end > DIRECT_MERGE_NS ||
				 kswapd_woke_between(&k, has_node, nid, g.end, b)))
			if (close_dgroup(ctx, eps, &g))
				goto fail;
		if (!g.active) {
			g.active = 1;
			g.has_node = has_node;
			g.nid = nid;
			g.start = b;
			g.end = e;
			g.open = 0;
			g.calls = 0;
			g.pages = g.stall_ns = 0;
			g.has_order = 0;
		}
		g.calls++;
		if (e > g.end)
			g.end = e;
		if (open)
			g.open = 1;
		else
			g.stall_ns += e - b;
		g.pages += sqlite3_column_int64(st, 5);
		if (has_order) {
			if (!g.has_order || order < g.min_order)
				g.min_order = order;
			if (!g.has_order || order > g.max_order)
				g.max_order = order;
			g.has_order = 1;
		}
		if (g.npids == g.apids) {
			int n = g.apids ? 2 * g.apids : 16;
			long long *p = realloc(g.pids, n * sizeof(*p));

			if (!p) {
				vms_error("out of memory");
				goto fail;
			}
			g.pids = p;
			g.apids = n;
		}
		g.pids[g.npids++] = pid;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_DONE) {
		kf_sql_fail(ctx);
		goto fail;
	}
	if (close_dgroup(ctx, eps, &g))
		goto fail;
	thp = kf_count(ctx, "SELECT COUNT(*) FROM mm_vmscan_direct_reclaim_begin"
		       " WHERE gfp_flags GLOB '*GFP_TRANSHUGE*' AND gfp_flags NOT GLOB '*KSWAPD_RECLAIM*'"
		       " AND ts BETWEEN ?1 AND ?2");
	if (thp < 0)
		goto fail;
	if (thp)
		table_note(t, "direct without kswapd (trace): %lld direct reclaim call%s in the window "
			   "with GFP_TRANSHUGE and no __GFP_KSWAPD_RECLAIM left out (THP allocations "
			   "never wake kswapd)", thp, thp == 1 ? "" : "s");
	free(g.pids);
	free(k.v);
	return 0;
fail:
	sqlite3_finalize(st);
	free(g.pids);
	free(k.v);
	return -1;
}

const struct kf_detector kf_detector_direct_trace = {
	.name = "direct without kswapd (trace)",
	.detect = detect_direct_trace,
};
