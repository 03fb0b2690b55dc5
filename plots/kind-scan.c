// SPDX-License-Identifier: GPL-2.0
/*
 * kind-scan.c - `vmscope plot DB scan`: pages scanned and reclaimed per second from the inactive
 * lists, per reclaimer as the kernel names them (kswapd, direct, memcg, node, khugepaged) and
 * file against anon, in time bins.
 * Writes scan-a.dat (-b.dat) for plots/scan.gp; docs/plot.md shows the figure.
 *
 * How an event gets its reclaimer: a kswapd pid (view kswapd_pid) is kswapd;
 * any other task is the kind of the reclaim call (reclaim_interval) it is
 * inside: direct (khugepaged when the task is khugepaged, as the kernel's
 * pgscan_khugepaged counts it), memcg (limit and soft-limit reclaim, and
 * proactive reclaim through memory.reclaim, which fires the same
 * tracepoints), node (zone_reclaim_mode); 'other' when it is inside none
 * (MADV_PAGEOUT and DAMON's reclaim_pages(), or a call whose begin was not
 * traced). The calls are read once, sorted by task and start; the events in
 * (pid, ts) order walk them.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "plot-local.h"

enum { SCAN_KSWAPD, SCAN_DIRECT, SCAN_MEMCG, SCAN_NODE, SCAN_KHUGEPAGED, SCAN_OTHER, SCAN_KINDS };

static const char *const scan_kind_name[SCAN_KINDS] = {
	"kswapd", "direct", "memcg", "node", "khugepaged", "other",
};

#define SCAN_COLS (4 * SCAN_KINDS)	/* scanned then reclaimed, each kind file then anon */

struct call {
	long long pid, begin, end;	/* end LLONG_MAX: still running at the end of the trace */
	int kind;
};

struct calls {
	struct call *c;
	int n, alloc;
};

static int kind_of_interval(const char *kind, int khugepaged)
{
	if (!strcmp(kind, "direct"))
		return khugepaged ? SCAN_KHUGEPAGED : SCAN_DIRECT;
	if (!strcmp(kind, "node"))
		return SCAN_NODE;
	return SCAN_MEMCG;	/* memcg, memcg_softlimit */
}

/* The reclaim calls of tasks that are not kswapd, by (pid, begin). */
static int load_calls(struct plot_run *r, struct calls *cs)
{
	sqlite3_stmt *st = vms_window_prepare(&r->ctx,
		"SELECT pid, COALESCE(begin_ts, 0), COALESCE(end_ts, 9223372036854775807), kind,"
		" EXISTS (SELECT 1 FROM task t WHERE t.pid = i.pid AND t.comm = 'khugepaged')"
		" FROM reclaim_interval i WHERE pid NOT IN (SELECT pid FROM kswapd_pid)"
		" AND (end_ts IS NULL OR end_ts >= ?1) AND (begin_ts IS NULL OR begin_ts <= ?2)"
		" ORDER BY pid, 2");
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct call *c;

		if (vms_array_reserve(&cs->c, &cs->alloc, cs->n, 256, sizeof(*cs->c))) {
			sqlite3_finalize(st);
			return -1;
		}
		c = &cs->c[cs->n++];
		c->pid = sqlite3_column_int64(st, 0);
		c->begin = sqlite3_column_int64(st, 1);
		c->end = sqlite3_column_int64(st, 2);
		c->kind = kind_of_interval((const char *)sqlite3_column_text(st, 3),
					   sqlite3_column_int(st, 4));
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : plot_sql_error(r);
}

/*
 * The kind of an event of @pid at @ts; *at is where the walk through the
 * calls stands (events come in (pid, ts) order). The innermost call wins:
 * the one that began last before ts.
 */
static int kind_at(const struct calls *cs, int *at, long long pid, long long ts)
{
	int i, kind = SCAN_OTHER;

	/* calls of earlier tasks, and this task's calls that ended before ts, are done with */
	while (*at < cs->n && (cs->c[*at].pid < pid || (cs->c[*at].pid == pid && cs->c[*at].end < ts)))
		(*at)++;
	for (i = *at; i < cs->n && cs->c[i].pid == pid && cs->c[i].begin <= ts; i++)
		if (cs->c[i].end >= ts)
			kind = cs->c[i].kind;
	return kind;
}

static int scan_run(struct plot_job *job, const struct plot_bins *b, int i, int seen[SCAN_KINDS])
{
	struct plot_run *r = job->run[i];
	int n = plot_bins_count(b, r), rc, k, at = 0;
	double (*v)[SCAN_COLS] = calloc(n, sizeof(*v));
	struct calls cs = { 0 };
	sqlite3_stmt *st = NULL;
	long long events = 0;
	struct dat d = { 0 };

	if (!v)
		return vms_error("out of memory");
	if (load_calls(r, &cs)) {
		rc = -1;
		goto out;
	}
	st = vms_window_prepare(&r->ctx,
		"SELECT (ts - ?1) / ?3, pid IN (SELECT pid FROM kswapd_pid), COALESCE(reclaim_flags, 2) & 1,"
		" nr_scanned, nr_reclaimed, pid, ts"
		" FROM mm_vmscan_lru_shrink_inactive WHERE ts BETWEEN ?1 AND ?2 ORDER BY pid, ts");
	if (!st) {
		rc = -1;
		goto out;
	}
	sqlite3_bind_int64(st, 3, b->width);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int bin = plot_bin_of(b, r, sqlite3_column_int64(st, 0));
		int anon = sqlite3_column_int(st, 2);
		int kind = sqlite3_column_int(st, 1) ? SCAN_KSWAPD
			   : kind_at(&cs, &at, sqlite3_column_int64(st, 5), sqlite3_column_int64(st, 6));
		int col = 2 * kind + (anon ? 1 : 0);

		v[bin][col] += sqlite3_column_int64(st, 3);
		v[bin][col + 2 * SCAN_KINDS] += sqlite3_column_int64(st, 4);
		seen[kind] = 1;
		events++;
	}
	if (rc != SQLITE_DONE) {
		rc = plot_sql_error(r);
		goto out;
	}
	if (dat_open(&d, job, "scan", i)) {
		rc = -1;
		goto out;
	}
	{
		struct vms_buf cols = { 0 };

		vms_buf_addf(&cols, "time_s");
		for (k = 0; k < 2 * SCAN_KINDS; k++)
			vms_buf_addf(&cols, " %s_%s_%s/s", scan_kind_name[k / 2 % SCAN_KINDS],
				     k % 2 ? "anon" : "file", "scanned");
		for (k = 0; k < 2 * SCAN_KINDS; k++)
			vms_buf_addf(&cols, " %s_%s_%s/s", scan_kind_name[k / 2 % SCAN_KINDS],
				     k % 2 ? "anon" : "file", "reclaimed");
		dat_block(&d, "pages scanned and reclaimed per second from the inactive LRU lists",
			  cols.buf ? cols.buf : "time_s");
		vms_buf_release(&cols);
	}
	dat_comment(&d, "sums of mm_vmscan_lru_shrink_inactive nr_scanned and nr_reclaimed (pages)"
		    " per %g ms bin (the last bin runs to the end of the window) divided by the"
		    " bin's length; time is the middle of the bin", b->width / 1e6);
	dat_comment(&d, "reclaimer: kswapd (a kswapd pid), else the reclaim call the event is inside:"
		    " direct, memcg (limit, soft limit, and proactive through memory.reclaim: the"
		    " same tracepoints), node (zone_reclaim_mode), khugepaged (direct reclaim by"
		    " khugepaged); other: inside no traced call; file/anon from reclaim_flags");
	dat_comment(&d, "%lld mm_vmscan_lru_shrink_inactive events in the window", events);
	for (k = 0; k < n; k++) {
		double t0, w;
		int c;

		plot_bin_span(b, r, k, &t0, &w);
		dat_num(&d, 1, 1, t0 + w / 2);
		for (c = 0; c < SCAN_COLS; c++)
			dat_num(&d, 0, 1, v[k][c] / w);
		dat_row_end(&d);
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	free(cs.c);
	free(v);
	return dat_close(&d, rc);
}

static int write_scan(struct plot_job *job)
{
	int seen[SCAN_KINDS] = { 0 }, i, k, any = 0;
	struct plot_bins b;

	if (plot_bins_choose(job, &b))
		return -1;
	for (i = 0; i < job->nruns; i++)
		if (scan_run(job, &b, i, seen))
			return -1;
	plot_set_xrange(job);
	/* the reclaimers that scanned in some run: 1-based, for scan.gp's word() */
	if (vms_buf_addf(&job->vars, "scan_kinds='"))
		return -1;
	for (k = 0; k < SCAN_KINDS; k++)
		if (seen[k] && vms_buf_addf(&job->vars, "%s%d", any++ ? " " : "", k + 1))
			return -1;
	return vms_buf_addf(&job->vars, "%s';", any ? "" : "1");
}

const struct plot_kind plot_kind_scan = {
	.name = "scan",
	.summary = "pages scanned and reclaimed per second: kswapd/direct/memcg/node, file/anon (trace)",
	.write = write_scan,
	.groups = 1,
};
