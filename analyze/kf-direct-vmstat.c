// SPDX-License-Identifier: GPL-2.0
/*
 * kf-direct-vmstat.c - the machine-wide half of the 'direct without kswapd'
 * detector of the kswapd-failures report section: /proc/vmstat steps in
 * which allocstall_* and pgscan_direct rose while pgscan_kswapd did not.
 * Rules: docs/report-kswapd-failures.md, section 3.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "kf-local.h"

struct vgroup {
	int active, steps, has_p;
	long long start, end, da, dd, dk, dp;
};

static int close_vgroup(struct vms_window *ctx, struct kf_episodes *eps, struct vgroup *g, int open)
{
	struct vms_buf ev = { 0 };

	if (!g->active)
		return 0;
	g->active = 0;
	vms_buf_addf(&ev, "%d vmstat step%s (machine-wide /proc/vmstat): allocstall +%lld, "
		     "pgscan_direct +%lld, pgscan_kswapd +%lld", g->steps, g->steps == 1 ? "" : "s",
		     g->da, g->dd, g->dk);
	if (g->has_p)
		vms_buf_addf(&ev, ", pageoutrun +%lld", g->dp);
	if (open)
		vms_buf_addf(&ev, "; still so at the last vmstat sample (%.6f s): open",
			     vms_window_rel_s(ctx, g->end));
	return kf_add(eps, 0, 0, KF_DIRECT, "signal", g->start, !open, g->end, &ev);
}

static int detect_direct_vmstat(struct vms_window *ctx, struct kf_episodes *eps, struct table *t)
{
	static const char *const names[] = { "allocstall_*", "pgscan_direct", "pgscan_kswapd" };
	sqlite3_stmt *st;
	struct vgroup g = { 0 };
	long long prev[4] = { 0 }, prev_ts = 0, samples;
	int prev_ok = 0, prev_p = 0, have_prev = 0, missing[3] = { 0 }, rc, i;

	samples = kf_count(ctx, "SELECT COUNT(*) FROM counter_sample WHERE source = 'vmstat'"
			   " AND scope = ''");
	if (samples < 0)
		return -1;
	if (samples < 2) {
		table_note(t, "direct without kswapd (vmstat): not run: this run has %s /proc/vmstat "
			   "samples (`vmscope record` samples them; an imported trace gets them with "
			   "import --counters or counters add)",
			   samples ? "only one of the" : "no");
		return 0;
	}
	st = vms_window_prepare(ctx,
		"SELECT s.ts,"
		" (SELECT SUM(value) FROM counter_value WHERE sample = s.id AND name GLOB 'allocstall*'),"
		" (SELECT value FROM counter_value WHERE sample = s.id AND name = 'pgscan_direct'),"
		" (SELECT value FROM counter_value WHERE sample = s.id AND name = 'pgscan_kswapd'),"
		" (SELECT value FROM counter_value WHERE sample = s.id AND name = 'pageoutrun')"
		" FROM counter_sample s WHERE s.source = 'vmstat' AND s.scope = '' ORDER BY s.ts, s.id");
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long ts = sqlite3_column_int64(st, 0), cur[4];
		int ok = 1, has_p = sqlite3_column_type(st, 4) != SQLITE_NULL;

		for (i = 0; i < 3; i++)
			if (sqlite3_column_type(st, i + 1) == SQLITE_NULL) {
				missing[i] = 1;
				ok = 0;
			}
		for (i = 0; i < 4; i++)
			cur[i] = sqlite3_column_int64(st, i + 1);
		if (have_prev && ok && prev_ok) {
			long long da = cur[0] - prev[0], dd = cur[1] - prev[1], dk = cur[2] - prev[2];

			if (da > 0 && dd > 0 && dk == 0) {
				if (!g.active) {
					memset(&g, 0, sizeof(g));
					g.active = 1;
					g.start = prev_ts;
				}
				g.steps++;
				g.da += da;
				g.dd += dd;
				g.dk += dk;
				if (has_p && prev_p) {
					g.dp += cur[3] - prev[3];
					g.has_p = 1;
				}
				g.end = ts;
			} else if (g.active && close_vgroup(ctx, eps, &g, 0)) {
				goto fail;
			}
		} else if (g.active && close_vgroup(ctx, eps, &g, 0)) {
			goto fail;
		}
		memcpy(prev, cur, sizeof(prev));
		prev_ts = ts;
		prev_ok = ok;
		prev_p = has_p;
		have_prev = 1;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_DONE) {
		kf_sql_fail(ctx);
		goto fail;
	}
	if (close_vgroup(ctx, eps, &g, 1))
		goto fail;
	for (i = 0; i < 3; i++)
		if (missing[i])
			table_note(t, "direct without kswapd (vmstat): some vmstat samples lack %s: "
				   "the steps next to them are not judged", names[i]);
	return 0;
fail:
	sqlite3_finalize(st);
	return -1;
}

const struct kf_detector kf_detector_direct_vmstat = {
	.name = "direct without kswapd (vmstat)",
	.detect = detect_direct_vmstat,
};
