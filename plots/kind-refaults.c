// SPDX-License-Identifier: GPL-2.0
/*
 * kind-refaults.c - `vmscope plot DB refaults`: anon and file refault and activation rates between
 * consecutive /proc/vmstat samples.
 * Writes refaults-a.dat (-b.dat) for plots/refaults.gp; docs/plot.md shows the figure.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "plot-local.h"

static int refaults_run(struct plot_job *job, int i)
{
	/* anon, file, old single counter (file only before 5.9), for refault and activate */
	static const char *const names[] = {
		"workingset_refault_anon", "workingset_refault_file", "workingset_refault",
		"workingset_activate_anon", "workingset_activate_file", "workingset_activate",
	};
	struct plot_run *r = job->run[i];
	long long prev_ts = 0, prev[4] = { 0 };
	int have_prev = 0, known_prev[4] = { 0 }, any = 0, samples = 0, rc, k;
	sqlite3_stmt *st;
	struct dat d;

	if (plot_need_counters(r, "refaults", "workingset_refault_anon, workingset_refault_file,"
			  " workingset_activate_anon, workingset_activate_file"))
		return -1;
	st = plot_samples_query(r, "vmstat", names, 6);
	if (!st)
		return -1;
	if (dat_open(&d, job, "refaults", i)) {
		sqlite3_finalize(st);
		return -1;
	}
	dat_block(&d, "refault and activation rates between consecutive /proc/vmstat samples,"
		  " at the middle of each interval",
		  "time_s refault_anon_pages/s refault_file_pages/s activate_anon_pages/s"
		  " activate_file_pages/s");
	dat_comment(&d, "rate = (value in sample i - value in sample i-1) / (ts_i - ts_i-1);"
		    " kernels before 5.9 have one workingset_refault/_activate (file only)");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long ts = sqlite3_column_int64(st, 0), v[4];
		int known[4];

		samples++;
		for (k = 0; k < 4; k++) {
			int anon = k % 2 == 0, c = 1 + (k / 2) * 3 + (anon ? 0 : 1);

			if (!anon && !plot_col_known(st, c))
				c++;	/* the pre-5.9 counter */
			known[k] = plot_col_known(st, c);
			v[k] = sqlite3_column_int64(st, c);
			any |= known[k];
		}
		if (have_prev && ts > prev_ts) {
			double dt = (ts - prev_ts) / 1e9;

			dat_num(&d, 1, 1, plot_rel(r, prev_ts + (ts - prev_ts) / 2));
			for (k = 0; k < 4; k++)
				dat_num(&d, 0, known[k] && known_prev[k], (v[k] - prev[k]) / dt);
			dat_row_end(&d);
		}
		prev_ts = ts;
		memcpy(prev, v, sizeof(prev));
		memcpy(known_prev, known, sizeof(known_prev));
		have_prev = 1;
	}
	if (rc != SQLITE_DONE)
		rc = plot_sql_error(r);
	else if (samples < 2)
		rc = plot_no_samples(r, "refaults", "fewer than two /proc/vmstat samples");
	else if (!any)
		rc = vms_error("'refaults': the /proc/vmstat samples of '%s' have no workingset_refault"
			       " or workingset_activate counters", r->path);
	else
		rc = 0;
	sqlite3_finalize(st);
	return dat_close(&d, rc);
}

const struct plot_kind plot_kind_refaults = {
	.name = "refaults",
	.summary = "anon and file refault and activation rates (counters)",
	.write_run = refaults_run,
};
