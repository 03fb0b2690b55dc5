// SPDX-License-Identifier: GPL-2.0
/*
 * kind-kswapd.c - `vmscope plot DB kswapd`: the timeline: kswapd runs per node, failure streaks,
 * node_unreclaimable, and the reclaim calls of the tasks that spent longest in them.
 * Writes kswapd-a.dat (-b.dat) for plots/kswapd.gp; docs/plot.md shows the figure.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "plot-local.h"

/* One timeline row of reclaim calls: a task's calls of one kind, or all the others. */
struct task_row {
	int kind;		/* 1 direct, 2 memcg, 3 memcg_softlimit, 4 node */
	int pid;
	double total;		/* s spent in the window */
	int y;			/* its row */
	int shown;		/* has a row of its own (else it is in the "other" row) */
};

static int task_row_cmp(const void *pa, const void *pb)
{
	const struct task_row *a = pa, *b = pb;

	if (a->total != b->total)
		return a->total < b->total ? 1 : -1;
	return a->pid - b->pid;
}

static const char *const reclaim_kinds[] = { "", "direct", "memcg", "memcg_softlimit", "node" };

static int reclaim_kind_code(const char *kind)
{
	int k;

	for (k = 1; k < 5; k++)
		if (kind && !strcmp(kind, reclaim_kinds[k]))
			return k;
	return 1;
}

static const char reclaim_sql[] =
	"SELECT kind, pid, COALESCE(begin_ts, 0), COALESCE(end_ts, " NO_END ")"
	" FROM reclaim_interval WHERE COALESCE(end_ts, " NO_END ") >= ?1"
	" AND COALESCE(begin_ts, 0) <= ?2 ORDER BY 1, 2, 3";

static int row_label(struct dat *d, struct plot_job *job, int y, const char *text)
{
	char buf[2 * PLOT_LABEL_MAX + 8], label[PLOT_LABEL_MAX + 1];

	snprintf(buf, sizeof(buf), "%s%s", job->nruns > 1 ? (d->r->tag == 'A' ? "A:" : "B:") : "",
		 text);
	plot_sanitize(label, sizeof(label), buf);
	dat_num(d, 1, 1, y);
	fprintf(d->f, " %s", label);
	dat_row_end(d);
	return 0;
}

/*
 * One run's timeline, rows numbered downwards from *y: kswapd per node, then
 * the reclaim calls of the tasks that spent the longest in them.
 */
static int kswapd_run(struct plot_job *job, int i, int *y, int max_rows)
{
	struct plot_run *r = job->run[i];
	struct task_row *rows = NULL;
	int nrows = 0, arows = 0, nnodes = 0, nodes[64], k, rc = -1, other_y = 0, others = 0;
	int judged = 0, node_y0;
	sqlite3_stmt *st = NULL;
	long long v;
	struct dat d = { 0 };

	if (dat_open(&d, job, "kswapd", i))
		return -1;

	/* the nodes: from the kswapd events and the zoneinfo samples */
	st = vms_window_prepare(&r->ctx,
		"SELECT nid FROM (SELECT COALESCE(nid, 0) AS nid FROM mm_vmscan_kswapd_wake"
		" UNION SELECT COALESCE(nid, 0) FROM mm_vmscan_kswapd_sleep"
		" UNION SELECT CAST(substr(scope, 5) AS INTEGER) FROM counter_sample"
		" WHERE source = 'zoneinfo' AND scope LIKE 'node%' AND scope NOT LIKE '%/%')"
		" ORDER BY 1");
	if (!st)
		goto out;
	while (sqlite3_step(st) == SQLITE_ROW && nnodes < 64)
		nodes[nnodes++] = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	st = NULL;
	judged = vms_window_int(&r->ctx, "SELECT 1 FROM mm_vmscan_lru_shrink_inactive LIMIT 1", &v) == 0;

	/* the reclaim calls per (kind, task), longest total first */
	st = vms_window_prepare(&r->ctx, reclaim_sql);
	if (!st)
		goto out;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int kind = reclaim_kind_code((const char *)sqlite3_column_text(st, 0));
		int pid = sqlite3_column_int(st, 1);
		long long a = sqlite3_column_int64(st, 2), b = sqlite3_column_int64(st, 3);

		if (!plot_clip(r, &a, &b))
			continue;
		if (!nrows || rows[nrows - 1].kind != kind || rows[nrows - 1].pid != pid) {
			if (nrows == arows) {
				int n = arows ? 2 * arows : 32;
				struct task_row *r2 = realloc(rows, n * sizeof(*r2));

				if (!r2) {
					rc = vms_error("out of memory");
					goto out;
				}
				rows = r2;
				arows = n;
			}
			rows[nrows++] = (struct task_row){ .kind = kind, .pid = pid };
		}
		rows[nrows - 1].total += (b - a) / 1e9;
	}
	if (rc != SQLITE_DONE) {
		rc = plot_sql_error(r);
		goto out;
	}
	sqlite3_finalize(st);
	st = NULL;
	rc = -1;
	qsort(rows, nrows, sizeof(*rows), task_row_cmp);

	/* block 0: the rows */
	dat_block(&d, "timeline rows: y position and label", "y label");
	node_y0 = *y;
	for (k = 0; k < nnodes; k++) {
		char text[32];

		snprintf(text, sizeof(text), "kswapd:node%d", nodes[k]);
		row_label(&d, job, (*y)--, text);
	}
	if (!nnodes)
		row_label(&d, job, (*y)--, "kswapd:no_events");
	for (k = 0; k < nrows; k++) {
		char task[PLOT_LABEL_MAX + 1], text[2 * PLOT_LABEL_MAX];

		if (k >= max_rows - 1 && nrows > max_rows) {
			others++;
			continue;
		}
		rows[k].y = *y;
		rows[k].shown = 1;
		plot_task_label(r, rows[k].pid, task, sizeof(task));
		snprintf(text, sizeof(text), "%s:%s", reclaim_kinds[rows[k].kind], task);
		row_label(&d, job, (*y)--, text);
	}
	if (others) {
		char text[48];

		other_y = *y;
		snprintf(text, sizeof(text), "other:%d_tasks", others);
		row_label(&d, job, (*y)--, text);
	}

	/* block 1: kswapd awake */
	dat_block(&d, "kswapd awake intervals (kswapd_interval), clipped to the window",
		  "y t0_s t1_s reclaimed_pages failed");
	dat_comment(&d, "reclaimed: sum of mm_vmscan_lru_shrink_inactive nr_reclaimed of the kswapd"
		    " pid inside the interval; failed: 1 when a finished run reclaimed 0 pages, 0"
		    " when it reclaimed, -1 when unknown (run unfinished, or no"
		    " mm_vmscan_lru_shrink_inactive event in the whole run%s)",
		    judged ? "" : ", as here");
	st = vms_window_prepare(&r->ctx,
		"SELECT COALESCE(nid, 0), wake_ts, sleep_ts, COALESCE(wake_ts, 0),"
		" COALESCE(sleep_ts, " NO_END "),"
		" (SELECT COALESCE(SUM(nr_reclaimed), 0) FROM mm_vmscan_lru_shrink_inactive l"
		"  WHERE l.pid = k.pid AND l.ts BETWEEN COALESCE(k.wake_ts, 0)"
		"  AND COALESCE(k.sleep_ts, " NO_END "))"
		" FROM kswapd_interval k WHERE COALESCE(sleep_ts, " NO_END ") >= ?1"
		" AND COALESCE(wake_ts, 0) <= ?2 ORDER BY 1, 4");
	if (!st)
		goto out;
	{
		/* failure episodes: consecutive zero-reclaim runs of a node, written as block 2 */
		struct { int y; double t0, t1; int runs; } *ep = NULL;
		int nep = 0, aep = 0, open = -1, cur_nid = INT_MIN;

		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			int nid = sqlite3_column_int(st, 0), ny = node_y0, failed = -1, n;
			long long a = sqlite3_column_int64(st, 3), b = sqlite3_column_int64(st, 4);
			long long reclaimed = sqlite3_column_int64(st, 5);

			for (n = 0; n < nnodes; n++)
				if (nodes[n] == nid)
					ny = node_y0 - n;
			if (judged && plot_col_known(st, 1) && plot_col_known(st, 2))
				failed = reclaimed == 0;
			if (nid != cur_nid || failed != 1)
				open = -1;	/* a new node, or a run that reclaimed: episode over */
			cur_nid = nid;
			if (!plot_clip(r, &a, &b))
				continue;
			dat_num(&d, 1, 1, ny);
			dat_num(&d, 0, 1, plot_rel(r, a));
			dat_num(&d, 0, 1, plot_rel(r, b));
			dat_num(&d, 0, failed >= 0, reclaimed);
			fprintf(d.f, " %d", failed);
			dat_row_end(&d);
			if (failed != 1)
				continue;
			if (open < 0) {
				if (nep == aep) {
					int na = aep ? 2 * aep : 16;
					void *e2 = realloc(ep, na * sizeof(*ep));

					if (!e2) {
						free(ep);
						rc = vms_error("out of memory");
						goto out;
					}
					ep = e2;
					aep = na;
				}
				open = nep++;
				ep[open].y = ny;
				ep[open].t0 = plot_rel(r, a);
				ep[open].runs = 0;
			}
			ep[open].t1 = plot_rel(r, b);
			ep[open].runs++;
		}
		if (rc != SQLITE_DONE) {
			free(ep);
			rc = plot_sql_error(r);
			goto out;
		}
		sqlite3_finalize(st);
		st = NULL;
		dat_block(&d, "kswapd failure episodes: consecutive runs of a node that reclaimed"
			  " nothing", "y t0_s t1_s runs");
		for (k = 0; k < nep; k++) {
			dat_num(&d, 1, 1, ep[k].y);
			dat_num(&d, 0, 1, ep[k].t0);
			dat_num(&d, 0, 1, ep[k].t1);
			dat_num(&d, 0, 1, ep[k].runs);
			dat_row_end(&d);
		}
		free(ep);
	}

	/* block 3: node_unreclaimable from /proc/zoneinfo */
	dat_block(&d, "node_unreclaimable: from each /proc/zoneinfo read showing it (any zone of"
		  " the node) to the next read", "y t0_s t1_s");
	st = vms_window_prepare(&r->ctx,
		"SELECT CAST(substr(s.scope, 5) AS INTEGER) AS nid, s.ts, MAX(v.value)"
		" FROM counter_sample s JOIN counter_value v ON v.sample = s.id"
		" WHERE s.source = 'zoneinfo' AND s.scope LIKE 'node%/%'"
		" AND v.name = 'node_unreclaimable' GROUP BY nid, s.ts ORDER BY nid, s.ts");
	if (!st)
		goto out;
	{
		int open = 0, open_nid = 0;
		long long open_ts = 0;

		for (;;) {
			int step = sqlite3_step(st), nid = 0, flag = 0, n, ny = node_y0;
			long long ts = 0;

			if (step == SQLITE_ROW) {
				nid = sqlite3_column_int(st, 0);
				ts = sqlite3_column_int64(st, 1);
				flag = sqlite3_column_int(st, 2) != 0;
			} else if (step != SQLITE_DONE) {
				rc = plot_sql_error(r);
				goto out;
			}
			if (open && (step == SQLITE_DONE || nid != open_nid || !flag)) {
				/* the last read showing it: shaded to the end of the window */
				long long a = open_ts, b = step == SQLITE_ROW && nid == open_nid ?
					ts : r->ctx.to;

				for (n = 0; n < nnodes; n++)
					if (nodes[n] == open_nid)
						ny = node_y0 - n;
				if (plot_clip(r, &a, &b)) {
					dat_num(&d, 1, 1, ny);
					dat_num(&d, 0, 1, plot_rel(r, a));
					dat_num(&d, 0, 1, plot_rel(r, b));
					dat_row_end(&d);
				}
				open = 0;
			}
			if (step == SQLITE_DONE)
				break;
			if (flag && !open) {
				open = 1;
				open_nid = nid;
				open_ts = ts;
			}
		}
		sqlite3_finalize(st);
		st = NULL;
	}

	/* block 4: the reclaim calls */
	dat_block(&d, "reclaim calls (reclaim_interval), clipped to the window",
		  "y t0_s t1_s kind");
	dat_comment(&d, "kind: 1 direct, 2 memcg, 3 memcg_softlimit, 4 node; a call cut by the"
		    " start or end of the trace runs from or to it");
	st = vms_window_prepare(&r->ctx, reclaim_sql);
	if (!st)
		goto out;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int kind = reclaim_kind_code((const char *)sqlite3_column_text(st, 0));
		int pid = sqlite3_column_int(st, 1), ry = other_y;
		long long a = sqlite3_column_int64(st, 2), b = sqlite3_column_int64(st, 3);

		if (!plot_clip(r, &a, &b))
			continue;
		for (k = 0; k < nrows; k++)
			if (rows[k].kind == kind && rows[k].pid == pid) {
				if (rows[k].shown)
					ry = rows[k].y;
				break;
			}
		dat_num(&d, 1, 1, ry);
		dat_num(&d, 0, 1, plot_rel(r, a));
		dat_num(&d, 0, 1, plot_rel(r, b));
		fprintf(d.f, " %d", kind);
		dat_row_end(&d);
	}
	if (rc != SQLITE_DONE) {
		rc = plot_sql_error(r);
		goto out;
	}
	rc = 0;

	/* block 5: the window, for the x range of a script run by hand */
	dat_block(&d, "the window", "from_s to_s");
	dat_num(&d, 1, 1, plot_rel(r, r->ctx.from));
	dat_num(&d, 0, 1, plot_rel(r, r->ctx.to));
	dat_row_end(&d);
out:
	sqlite3_finalize(st);
	free(rows);
	return dat_close(&d, rc);
}

static int write_kswapd(struct plot_job *job)
{
	int max_rows = job->fmt == PLOT_TXT ? 4 : 10, y = 0, i;

	if (job->nruns > 1)
		max_rows = job->fmt == PLOT_TXT ? 2 : 6;
	for (i = 0; i < job->nruns; i++)
		if (kswapd_run(job, i, &y, max_rows))
			return -1;
	plot_set_xrange(job);
	return 0;
}

const struct plot_kind plot_kind_kswapd = {
	.name = "kswapd",
	.summary = "kswapd awake per node, failures, node_unreclaimable; reclaim calls beneath",
	.write = write_kswapd,
};
