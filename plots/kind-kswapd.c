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
#include "vms-kswapd.h"
#include "plot-local.h"

/* A number macro as a string literal. */
#define VMS_STR(x) VMS_STR_(x)
#define VMS_STR_(x) #x

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

/* The streak a zoom panel shows: the first that made a node hopeless, else the longest. */
struct zoom {
	int set, hopeless, runs;
	double t0, t1;		/* s from the start of its run */
};

/* y of node @nid's row (the first node's when it has none). */
static int node_y(const int *nodes, int nnodes, int node_y0, int nid)
{
	int n;

	for (n = 0; n < nnodes; n++)
		if (nodes[n] == nid)
			return node_y0 - n;
	return node_y0;
}

static void zoom_consider(struct zoom *z, int hopeless, int runs, double t0, double t1)
{
	if (z->set && (z->hopeless > hopeless || (z->hopeless == hopeless && z->runs >= runs)))
		return;
	*z = (struct zoom){ .set = 1, .hopeless = hopeless, .runs = runs, .t0 = t0, .t1 = t1 };
}

/*
 * Block 1, the kswapd runs (kswapd_run) in the window, and block 2, their
 * failure streaks of at least VMS_KSWAPD_PARTIAL_RUNS runs: the ones the
 * report's kswapd-failures section lists as 'partial' or 'episode'.
 */
static int write_runs(struct dat *d, struct plot_run *r, const int *nodes, int nnodes, int node_y0,
		      int judged, struct zoom *zoom)
{
	struct streak { int y, runs; long long a, b, hopeless; } *sv = NULL, cur = { 0 };
	sqlite3_stmt *st;
	int nsv = 0, asv = 0, cur_nid = INT_MIN, rc, k;

	dat_block(d, "kswapd runs (kswapd_run: a kswapd_wake to the node's next wake or sleep),"
		  " clipped to the window", "y t0_s t1_s reclaimed_pages failed streak");
	dat_comment(d, "reclaimed: nr_reclaimed of the kswapd's mm_vmscan_lru_shrink_inactive"
		    " events in the run; failed: 1 when the run reclaimed no page, 0 when it"
		    " reclaimed, -1 when unknown (run unfinished, or no mm_vmscan_lru_shrink_inactive"
		    " event in the whole trace%s); streak: kswapd_failures after the run (its place"
		    " among consecutive failures)", judged ? "" : ", as here");
	st = vms_window_prepare(&r->ctx,
		"SELECT nid, wake_ts, COALESCE(end_ts, " NO_END "), end_ts IS NULL, nr_reclaimed,"
		" failed, streak FROM kswapd_run ORDER BY nid, run");
	if (!st)
		return -1;
	for (;;) {
		int step = sqlite3_step(st), nid = 0, failed = -1, streak = 0, ny;
		long long a = 0, b = 0, reclaimed = 0;

		if (step == SQLITE_ROW) {
			nid = sqlite3_column_int(st, 0);
			a = sqlite3_column_int64(st, 1);
			b = sqlite3_column_int64(st, 2);
			reclaimed = sqlite3_column_int64(st, 4);
			streak = judged ? sqlite3_column_int(st, 6) : 0;
			if (judged && !sqlite3_column_int(st, 3))
				failed = sqlite3_column_int(st, 5);
		} else if (step != SQLITE_DONE) {
			rc = plot_sql_error(r);
			goto out;
		}
		/* a streak ends at a run that reclaimed, a reset (streak 1 again), another node */
		if (cur.runs && (step == SQLITE_DONE || nid != cur_nid || streak <= 1)) {
			if (cur.runs >= VMS_KSWAPD_PARTIAL_RUNS) {
				if (nsv == asv) {
					int na = asv ? 2 * asv : 8;
					void *p = realloc(sv, na * sizeof(*sv));

					if (!p) {
						rc = vms_error("out of memory");
						goto out;
					}
					sv = p;
					asv = na;
				}
				sv[nsv++] = cur;
			}
			cur.runs = 0;
		}
		if (step == SQLITE_DONE)
			break;
		ny = node_y(nodes, nnodes, node_y0, nid);
		cur_nid = nid;
		if (streak >= 1) {
			if (!cur.runs)
				cur = (struct streak){ .y = ny, .a = a, .hopeless = -1 };
			cur.runs = streak;
			cur.b = b;
			if (streak == VMS_KSWAPD_HOPELESS_RUNS)
				cur.hopeless = b;
		}
		if (!plot_clip(r, &a, &b))
			continue;
		dat_num(d, 1, 1, ny);
		dat_num(d, 0, 1, plot_rel(r, a));
		dat_num(d, 0, 1, plot_rel(r, b));
		dat_num(d, 0, failed >= 0, reclaimed);
		fprintf(d->f, " %d %d", failed, streak);
		dat_row_end(d);
	}
	dat_block(d, "kswapd failure streaks: at least " VMS_STR(VMS_KSWAPD_PARTIAL_RUNS)
		  " consecutive runs of a node that reclaimed nothing", "y t0_s t1_s runs hopeless_s");
	dat_comment(d, "t0: the wake of the first run, t1: the end of the last (both clipped to the"
		    " window); hopeless: the end of run " VMS_STR(VMS_KSWAPD_HOPELESS_RUNS) ", when"
		    " the node became hopeless (NaN: not reached); the report's kswapd-failures"
		    " section lists the same streaks");
	for (k = 0; k < nsv; k++) {
		long long a = sv[k].a, b = sv[k].b;
		int hopeless = sv[k].hopeless >= 0;

		if (!plot_clip(r, &a, &b))
			continue;
		dat_num(d, 1, 1, sv[k].y);
		dat_num(d, 0, 1, plot_rel(r, a));
		dat_num(d, 0, 1, plot_rel(r, b));
		dat_num(d, 0, 1, sv[k].runs);
		dat_num(d, 0, hopeless && sv[k].hopeless >= r->ctx.from && sv[k].hopeless <= r->ctx.to,
			plot_rel(r, sv[k].hopeless));
		dat_row_end(d);
		zoom_consider(zoom, hopeless, sv[k].runs, plot_rel(r, a), plot_rel(r, b));
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	free(sv);
	return rc;
}

/*
 * One run's timeline, rows numbered downwards from *y: kswapd per node, then
 * the reclaim calls of the tasks that spent the longest in them.
 */
static int timeline_run(struct plot_job *job, int i, int *y, int max_rows, struct zoom *zoom)
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
	if (nrows)
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

	/* blocks 1 and 2: the kswapd runs and their failure streaks */
	if (write_runs(&d, r, nodes, nnodes, node_y0, judged, zoom))
		goto out;

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
	struct zoom zoom = { 0 };

	if (job->nruns > 1)
		max_rows = job->fmt == PLOT_TXT ? 2 : 6;
	for (i = 0; i < job->nruns; i++)
		if (timeline_run(job, i, &y, max_rows, &zoom))
			return -1;
	plot_set_xrange(job);
	/*
	 * A streak shorter than a fiftieth of the x range is a few pixels wide:
	 * draw it again in a zoom panel under the timeline, with half its length
	 * of context either side.
	 */
	if (zoom.set && zoom.t1 - zoom.t0 < (job->xmax - job->xmin) / 50) {
		double pad = (zoom.t1 - zoom.t0) / 2 > 1e-3 ? (zoom.t1 - zoom.t0) / 2 : 1e-3;

		return vms_buf_addf(&job->vars, "zoom=1; zmin=%.9g; zmax=%.9g; zruns=%d;"
				    " hopeless_runs=%d;", zoom.t0 - pad, zoom.t1 + pad, zoom.runs,
				    VMS_KSWAPD_HOPELESS_RUNS);
	}
	return vms_buf_addf(&job->vars, "zoom=0;");
}

const struct plot_kind plot_kind_kswapd = {
	.name = "kswapd",
	.summary = "kswapd awake per node, failures, node_unreclaimable; reclaim calls beneath",
	.write = write_kswapd,
};
