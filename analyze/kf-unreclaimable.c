// SPDX-License-Identifier: GPL-2.0
/*
 * kf-unreclaimable.c - the 'node_unreclaimable' detector of the kswapd-failures
 * report section: the intervals in which /proc/zoneinfo showed
 * node_unreclaimable 1 in a zone of the node (the kernel's own flag, the
 * strongest sign), with the zones' free pages against their watermarks.
 * Rules: docs/report-kswapd-failures.md, section 3.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "kf-local.h"

/* "Normal: free 1200 below min 1500 (low 1875, high 2250)" for each populated zone. */
static int zone_state(struct vms_window *ctx, long long nid, long long ts, struct vms_buf *ev)
{
	sqlite3_stmt *st = vms_window_prepare(ctx,
		"SELECT substr(s.scope, instr(s.scope, '/') + 1),"
		" MAX(CASE WHEN v.name = 'free' THEN v.value END),"
		" MAX(CASE WHEN v.name = 'min' THEN v.value END),"
		" MAX(CASE WHEN v.name = 'low' THEN v.value END),"
		" MAX(CASE WHEN v.name = 'high' THEN v.value END),"
		" MAX(CASE WHEN v.name = 'managed' THEN v.value END)"
		" FROM counter_sample s JOIN counter_value v ON v.sample = s.id"
		" WHERE s.source = 'zoneinfo' AND s.scope GLOB ('node' || ?3 || '/*') AND s.ts = ?4"
		" GROUP BY s.id ORDER BY s.id");
	int rc, first = 1;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 3, nid);
	sqlite3_bind_int64(st, 4, ts);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *zone = (const char *)sqlite3_column_text(st, 0);
		long long f = sqlite3_column_int64(st, 1), mn = sqlite3_column_int64(st, 2);
		long long lo = sqlite3_column_int64(st, 3), hi = sqlite3_column_int64(st, 4);

		if (sqlite3_column_type(st, 5) != SQLITE_NULL && !sqlite3_column_int64(st, 5))
			continue;	/* empty zone */
		if (sqlite3_column_type(st, 1) == SQLITE_NULL || sqlite3_column_type(st, 2) == SQLITE_NULL ||
		    sqlite3_column_type(st, 3) == SQLITE_NULL || sqlite3_column_type(st, 4) == SQLITE_NULL)
			continue;
		vms_buf_addf(ev, "%s%s: free %lld %s (min %lld, low %lld, high %lld)",
			     first ? "" : ", ", zone ? zone : "?", f,
			     f < mn ? "below min" : f < lo ? "below low" : f < hi ? "below high" :
			     "above high", mn, lo, hi);
		first = 0;
	}
	sqlite3_finalize(st);
	if (first && rc == SQLITE_DONE)
		vms_buf_addf(ev, "no free/min/low/high in that sample");
	return rc == SQLITE_DONE ? 0 : kf_sql_fail(ctx);
}

struct unrecl {
	int active, at_first;
	long long nid, start, last;
	int samples;
};

static int close_unrecl(struct vms_window *ctx, struct kf_episodes *eps, struct unrecl *u,
			int has_end, long long end)
{
	struct vms_buf ev = { 0 };

	if (!u->active)
		return 0;
	u->active = 0;
	vms_buf_addf(&ev, "node_unreclaimable = 1 in %d zoneinfo sample%s", u->samples,
		     u->samples == 1 ? "" : "s");
	if (u->at_first)
		vms_buf_addf(&ev, "; already 1 at the first zoneinfo sample: began earlier");
	vms_buf_addf(&ev, "; at %.6f s: ", vms_window_rel_s(ctx, u->start));
	if (zone_state(ctx, u->nid, u->start, &ev)) {
		vms_buf_release(&ev);
		return -1;
	}
	if (!has_end)
		vms_buf_addf(&ev, "; still 1 at the last sample (%.6f s): open",
			     vms_window_rel_s(ctx, u->last));
	return kf_add(eps, 1, u->nid, KF_UNRECLAIMABLE, "episode", u->start, has_end, end, &ev);
}

static int detect_unreclaimable(struct vms_window *ctx, struct kf_episodes *eps, struct table *t)
{
	struct unrecl u = { 0 };
	long long samples, nid = 0;
	int have_node = 0, rc, node_first = 1;
	sqlite3_stmt *st;

	samples = kf_count(ctx, "SELECT COUNT(*) FROM counter_sample WHERE source = 'zoneinfo'");
	if (samples < 0)
		return -1;
	if (!samples) {
		table_note(t, "node_unreclaimable: not run: this run has no /proc/zoneinfo samples "
			   "(`vmscope record` samples them; an imported trace gets them with "
			   "import --counters or counters add)");
		return 0;
	}
	st = vms_window_prepare(ctx,
		"SELECT CAST(substr(s.scope, 5) AS INTEGER) AS nid, s.ts, MAX(v.value)"
		" FROM counter_sample s JOIN counter_value v ON v.sample = s.id"
		"  AND v.name = 'node_unreclaimable'"
		" WHERE s.source = 'zoneinfo' AND s.scope GLOB 'node[0-9]*'"
		" GROUP BY 1, 2 ORDER BY 1, 2");
	if (!st)
		return -1;
	samples = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long n = sqlite3_column_int64(st, 0), ts = sqlite3_column_int64(st, 1);
		int flag = sqlite3_column_int64(st, 2) != 0;

		samples++;
		if (have_node && n != nid) {
			if (close_unrecl(ctx, eps, &u, 0, 0))
				goto fail;
			node_first = 1;
		}
		have_node = 1;
		nid = n;
		if (flag) {
			if (!u.active) {
				memset(&u, 0, sizeof(u));
				u.active = 1;
				u.nid = n;
				u.start = ts;
				u.at_first = node_first;
			}
			u.samples++;
			u.last = ts;
		} else if (u.active && close_unrecl(ctx, eps, &u, 1, ts)) {
			goto fail;
		}
		node_first = 0;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_DONE) {
		kf_sql_fail(ctx);
		goto fail;
	}
	if (close_unrecl(ctx, eps, &u, 0, 0))
		goto fail;
	if (!samples)
		table_note(t, "node_unreclaimable: not run: the zoneinfo samples have no "
			   "node_unreclaimable line");
	return 0;
fail:
	sqlite3_finalize(st);
	return -1;
}

const struct kf_detector kf_detector_unreclaimable = {
	.name = "node_unreclaimable",
	.detect = detect_unreclaimable,
};
