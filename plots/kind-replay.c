// SPDX-License-Identifier: GPL-2.0
/*
 * kind-replay.c - `vmscope plot DB replay`: how often each replayed policy decided differently from
 * the recorded kernel, over time.
 * Writes replay-a.dat (-b.dat) for plots/replay.gp; docs/plot.md shows the figure.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "plot-local.h"

/*
 * replay: how often each policy decided differently from the recorded kernel,
 * over time (replay_result joined with decision), in about 60 time bins.
 */
#define REPLAY_MAX_POLICIES 8

static int replay_run(struct plot_job *job, int i)
{
	struct plot_run *r = job->run[i];
	char names[REPLAY_MAX_POLICIES][PLOT_LABEL_MAX + 1];
	long long (*diff)[REPLAY_MAX_POLICIES] = NULL, *asked = NULL, n = 0, span;
	struct vms_buf cols = { 0 };
	sqlite3_stmt *st = NULL;
	int npol = 0, nbins, b, k, rc = -1;
	double binw;

	if (vms_window_int(&r->ctx, "SELECT COUNT(*) FROM replay_result", &n) || n == 0)
		return vms_error("'%s' has no replay results: run 'vmscope replay %s' first",
				 r->path, r->path);
	/* the decisions per bin are those of the baseline's rows: every answer must be a row */
	if (vms_window_int(&r->ctx, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'replay_summary'",
			   &n) == 0 && n &&
	    vms_window_int(&r->ctx, "SELECT COUNT(*) FROM replay_summary WHERE results = 'differences'"
			   " AND result_rows = (SELECT MAX(rowid) FROM replay_result)", &n) == 0 && n)
		return vms_error("'%s' keeps only the differing answers of its replay: run 'vmscope "
				 "replay %s --results all' for this plot", r->path, r->path);
	if (sqlite3_prepare_v2(r->ctx.sql, "SELECT policy FROM replay_result GROUP BY policy"
			       " ORDER BY MIN(rowid)", -1, &st, NULL))
		return plot_sql_error(r);
	while (sqlite3_step(st) == SQLITE_ROW && npol < REPLAY_MAX_POLICIES)
		plot_sanitize(names[npol++], PLOT_LABEL_MAX + 1,
			      (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	span = r->ctx.to - r->ctx.from;
	nbins = 60;
	binw = span > 0 ? (double)span / nbins : 1e6;
	if (binw < 1e6) {		/* bins of at least 1 ms */
		binw = 1e6;
		nbins = (int)(span / binw) + 1;
	}
	diff = calloc(nbins + 1, sizeof(*diff));
	asked = calloc(nbins + 1, sizeof(*asked));
	if (!diff || !asked) {
		vms_error("out of memory");
		goto out;
	}
	st = vms_window_prepare(&r->ctx, "SELECT CAST((d.ts - ?1) / ?3 AS INT), r.policy,"
			    " SUM(r.agrees = 0), COUNT(DISTINCT r.decision)"
			    " FROM replay_result r JOIN decision d ON d.id = r.decision"
			    " WHERE d.ts BETWEEN ?1 AND ?2 GROUP BY 1, 2");
	if (!st)
		goto out;
	sqlite3_bind_double(st, 3, binw);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char name[PLOT_LABEL_MAX + 1];

		b = sqlite3_column_int(st, 0);
		if (b < 0 || b > nbins)
			continue;
		plot_sanitize(name, sizeof(name), (const char *)sqlite3_column_text(st, 1));
		for (k = 0; k < npol; k++)
			if (!strcmp(name, names[k])) {
				diff[b][k] = sqlite3_column_int64(st, 2);
				if (k == 0)
					asked[b] = sqlite3_column_int64(st, 3);
			}
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_DONE) {
		rc = plot_sql_error(r);
		goto out;
	}
	{
		struct dat d;

		vms_buf_addf(&cols, "time_s decisions");
		for (k = 0; k < npol; k++)
			vms_buf_addf(&cols, " %s", names[k]);
		if (dat_open(&d, job, "replay", i))
			goto out;
		dat_block(&d, "decisions per bin, and per policy the decisions it would have taken"
			  " differently from the recorded kernel", cols.buf);
		dat_comment(&d, "bins of %.6f s; policies as stored in replay_result (sanitized)",
			    binw / 1e9);
		for (b = 0; b < nbins; b++) {
			dat_num(&d, 1, 1, plot_rel(r, r->ctx.from + (long long)((b + 0.5) * binw)));
			dat_num(&d, 0, 1, (double)asked[b]);
			for (k = 0; k < npol; k++)
				dat_num(&d, 0, 1, (double)diff[b][k]);
			dat_row_end(&d);
		}
		rc = dat_close(&d, 0);
	}
	if (!i)
		vms_buf_addf(&job->vars, "npolicies=%d;", npol);
out:
	sqlite3_finalize(st);
	vms_buf_release(&cols);
	free(diff);
	free(asked);
	return rc;
}

const struct plot_kind plot_kind_replay = {
	.name = "replay",
	.summary = "decisions each replayed policy would have taken differently, over time",
	.write_run = replay_run,
};
