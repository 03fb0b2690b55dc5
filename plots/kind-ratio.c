// SPDX-License-Identifier: GPL-2.0
/*
 * kind-ratio.c - `vmscope plot DB ratio`: slab and file LRU sizes and the slab/page-cache ratio,
 * one row per /proc/vmstat sample.
 * Writes ratio-a.dat (-b.dat) for plots/ratio.gp; docs/plot.md shows the figure.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "plot-local.h"

#define RATIO_NEEDS "nr_slab_reclaimable, nr_slab_unreclaimable, nr_active_file, nr_inactive_file"

static int ratio_run(struct plot_job *job, int i)
{
	static const char *const names[] = { "nr_slab_reclaimable", "nr_slab_unreclaimable",
					      "nr_active_file", "nr_inactive_file" };
	struct plot_run *r = job->run[i];
	sqlite3_stmt *st;
	struct dat d;
	int rc;

	if (plot_need_counters(r, "ratio", RATIO_NEEDS))
		return -1;
	st = plot_samples_query(r, "vmstat", names, 4);
	if (!st)
		return -1;
	if (dat_open(&d, job, "ratio", i)) {
		sqlite3_finalize(st);
		return -1;
	}
	dat_block(&d, "slab and file LRU sizes and their ratio, one row per /proc/vmstat sample",
		  "time_s slab_reclaimable_MiB slab_unreclaimable_MiB file_lru_MiB"
		  " ratio_reclaimable ratio_all");
	dat_comment(&d, "file_lru = nr_active_file + nr_inactive_file; ratio_reclaimable ="
		    " nr_slab_reclaimable / file_lru; ratio_all = (nr_slab_reclaimable +"
		    " nr_slab_unreclaimable) / file_lru; MiB with a page size of %lld bytes",
		    r->page_size);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long sr = sqlite3_column_int64(st, 1), su = sqlite3_column_int64(st, 2);
		long long lru = sqlite3_column_int64(st, 3) + sqlite3_column_int64(st, 4);
		int ksr = plot_col_known(st, 1), ksu = plot_col_known(st, 2);
		int klru = plot_col_known(st, 3) && plot_col_known(st, 4);

		dat_num(&d, 1, 1, plot_rel(r, sqlite3_column_int64(st, 0)));
		dat_num(&d, 0, ksr, plot_mib(r, sr));
		dat_num(&d, 0, ksu, plot_mib(r, su));
		dat_num(&d, 0, klru, plot_mib(r, lru));
		dat_num(&d, 0, ksr && klru && lru, (double)sr / lru);
		dat_num(&d, 0, ksr && ksu && klru && lru, (double)(sr + su) / lru);
		dat_row_end(&d);
	}
	if (rc != SQLITE_DONE)
		rc = plot_sql_error(r);
	else if (!d.rows)
		rc = plot_no_samples(r, "ratio", "no /proc/vmstat sample");
	else
		rc = 0;
	sqlite3_finalize(st);
	return dat_close(&d, rc);
}

const struct plot_kind plot_kind_ratio = {
	.name = "ratio",
	.summary = "slab and file LRU sizes and slab/page-cache ratio over time (counters)",
	.write_run = ratio_run,
};
