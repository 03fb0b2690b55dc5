// SPDX-License-Identifier: GPL-2.0
/*
 * kind-ratio.c - `vmscope plot DB ratio`: slab and file LRU sizes and the slab/page-cache ratio,
 * one row per /proc/vmstat sample; for groups of runs (`plot A1.db A2.db ratio --compare
 * B1.db ...`), one row per time bin, the same bins in every run, each size read at the bin's
 * middle between the samples around it (sample-series.c) and the ratios made from those.
 * Writes ratio-a.dat (-b.dat) for plots/ratio.gp; docs/plot.md shows the figure.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "plot-local.h"

#define RATIO_NEEDS "nr_slab_reclaimable, nr_slab_unreclaimable, nr_active_file, nr_inactive_file"

static const char *const ratio_names[] = { "nr_slab_reclaimable", "nr_slab_unreclaimable",
					  "nr_active_file", "nr_inactive_file" };

/* @pages pages (read between two samples: not always whole) in MiB. */
static double mib(const struct plot_run *r, double pages)
{
	return pages * (double)r->page_size / (1024.0 * 1024.0);
}

/* One row of sizes (pages) and what they make; @known[k]: value k is there. */
static void ratio_row(struct dat *d, struct plot_run *r, double t, const double v[4],
		      const int known[4])
{
	double lru = v[2] + v[3];
	int klru = known[2] && known[3];

	dat_num(d, 1, 1, t);
	dat_num(d, 0, known[0], mib(r, v[0]));
	dat_num(d, 0, known[1], mib(r, v[1]));
	dat_num(d, 0, klru, mib(r, lru));
	dat_num(d, 0, known[0] && klru && lru, v[0] / lru);
	dat_num(d, 0, known[0] && known[1] && klru && lru, (v[0] + v[1]) / lru);
	dat_row_end(d);
}

/* Group figures: the sizes at the middle of every bin of @b. Return: 0, or -1. */
static int ratio_bins(struct dat *d, const struct plot_bins *b, struct plot_run *r,
		      sqlite3_stmt *st)
{
	struct plot_series S;
	int from[4] = { 0 };

	if (plot_series_load(r, st, 4, &S))
		return -1;
	if (!S.n) {
		plot_series_release(&S);
		return plot_no_samples(r, "ratio", "no /proc/vmstat sample");
	}
	for (int i = 0; i < plot_bins_count(b, r); i++) {
		double t0, w, v[4] = { 0 };
		int known[4];

		plot_bin_span(b, r, i, &t0, &w);
		for (int k = 0; k < 4; k++)
			known[k] = plot_series_at(&S, k, r->ctx.from + i * b->width +
						  (long long)(w * 5e8), &from[k], &v[k]);
		ratio_row(d, r, t0 + w / 2, v, known);
	}
	plot_series_release(&S);
	return 0;
}

static int ratio_run(struct plot_job *job, int i, const struct plot_bins *b)
{
	struct plot_run *r = job->run[i];
	sqlite3_stmt *st;
	struct dat d;
	int rc;

	if (plot_need_counters(r, "ratio", RATIO_NEEDS))
		return -1;
	st = plot_samples_query(r, "vmstat", ratio_names, 4);
	if (!st)
		return -1;
	if (dat_open(&d, job, "ratio", i)) {
		sqlite3_finalize(st);
		return -1;
	}
	dat_block(&d, b ? "slab and file LRU sizes and their ratio at the middle of each time bin" :
		  "slab and file LRU sizes and their ratio, one row per /proc/vmstat sample",
		  "time_s slab_reclaimable_MiB slab_unreclaimable_MiB file_lru_MiB"
		  " ratio_reclaimable ratio_all");
	dat_comment(&d, "file_lru = nr_active_file + nr_inactive_file; ratio_reclaimable ="
		    " nr_slab_reclaimable / file_lru; ratio_all = (nr_slab_reclaimable +"
		    " nr_slab_unreclaimable) / file_lru; MiB with a page size of %lld bytes",
		    r->page_size);
	if (b) {
		dat_comment(&d, "each size read at the bin's middle between the two /proc/vmstat"
			    " samples around it (linear interpolation), NaN where no two samples"
			    " bracket it; %g ms bins, the same in every run of the figure",
			    b->width / 1e6);
		return dat_close(&d, ratio_bins(&d, b, r, st));
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		double v[4];
		int known[4];

		for (int k = 0; k < 4; k++) {
			v[k] = (double)sqlite3_column_int64(st, 1 + k);
			known[k] = plot_col_known(st, 1 + k);
		}
		ratio_row(&d, r, plot_rel(r, sqlite3_column_int64(st, 0)), v, known);
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

static int write_ratio(struct plot_job *job)
{
	struct plot_bins b;

	if (job->grouped && plot_bins_choose(job, &b))
		return -1;
	for (int i = 0; i < job->nruns; i++)
		if (ratio_run(job, i, job->grouped ? &b : NULL))
			return -1;
	plot_set_xrange(job);
	return 0;
}

const struct plot_kind plot_kind_ratio = {
	.name = "ratio",
	.summary = "slab and file LRU sizes and slab/page-cache ratio over time (counters)",
	.write = write_ratio,
	.groups = 1,
};
