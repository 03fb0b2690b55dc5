// SPDX-License-Identifier: GPL-2.0
/*
 * kind-refaults.c - `vmscope plot DB refaults`: anon and file refault and
 * activation rates from the /proc/vmstat samples. One run, or two with
 * --compare: a rate per interval between consecutive samples, drawn at its
 * middle. Groups of runs (`plot A1.db A2.db refaults --compare B1.db ...`):
 * the rates per time bin, the same bins in every run, so that row i of every
 * run is the same span and the sides can be averaged (dat-merge.c); a bin's
 * rate is the change of the counter across the bin, the counter read between
 * two samples by linear interpolation.
 * Writes refaults-a.dat (-b.dat, ...) for plots/refaults.gp; docs/plot.md
 * shows the figure.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "plot-local.h"

#define NSERIES 4	/* refault anon, refault file, activate anon, activate file */

/*
 * The run's /proc/vmstat samples in its window, as NSERIES series: a
 * kernel before 5.9 has one workingset_refault/_activate (file only),
 * read as the file series. Return: 0, or -1 with vms_error set.
 */
static int load_samples(struct plot_run *r, struct plot_series *S)
{
	/* anon, file, old single counter, for refault and activate */
	static const char *const names[] = {
		"workingset_refault_anon", "workingset_refault_file", "workingset_refault",
		"workingset_activate_anon", "workingset_activate_file", "workingset_activate",
	};
	sqlite3_stmt *st = plot_samples_query(r, "vmstat", names, 6);
	int any = 0;

	if (!st || plot_series_load(r, st, 6, S))
		return -1;
	for (int i = 0; i < S->n; i++) {
		struct plot_sample *x = &S->s[i];

		for (int k = 0; k < NSERIES; k++) {
			int c = (k / 2) * 3 + (k % 2 ? 1 : 0);

			if (k % 2 && !x->known[c])
				c++;	/* the pre-5.9 counter */
			x->v[k] = x->v[c];
			x->known[k] = x->known[c];
			any |= x->known[k];
		}
	}
	S->ncols = NSERIES;
	if (S->n < 2)
		return plot_no_samples(r, "refaults", "fewer than two /proc/vmstat samples");
	if (!any)
		return vms_error("'refaults': the /proc/vmstat samples of '%s' have no"
				 " workingset_refault or workingset_activate counters", r->path);
	return 0;
}

/* One row per interval between consecutive samples, at its middle. */
static void write_intervals(struct dat *d, struct plot_run *r, const struct plot_series *S)
{
	for (int i = 1; i < S->n; i++) {
		const struct plot_sample *a = &S->s[i - 1], *b = &S->s[i];
		double dt = (b->ts - a->ts) / 1e9;

		if (b->ts <= a->ts)
			continue;
		dat_num(d, 1, 1, plot_rel(r, a->ts + (b->ts - a->ts) / 2));
		for (int k = 0; k < NSERIES; k++)
			dat_num(d, 0, a->known[k] && b->known[k], (b->v[k] - a->v[k]) / dt);
		dat_row_end(d);
	}
}

/* One row per time bin of @b, at its middle; NaN where the samples do not cover the bin. */
static void write_bins(struct dat *d, const struct plot_bins *b, struct plot_run *r,
		       const struct plot_series *S)
{
	int nbins = plot_bins_count(b, r), from[NSERIES] = { 0 };

	for (int i = 0; i < nbins; i++) {
		long long t0 = r->ctx.from + i * b->width;
		double s0, w;

		plot_bin_span(b, r, i, &s0, &w);
		dat_num(d, 1, 1, s0 + w / 2);
		for (int k = 0; k < NSERIES; k++) {
			double change = 0;
			int ok = plot_series_change(S, k, t0, t0 + (long long)(w * 1e9), &from[k],
						    &change);

			dat_num(d, 0, ok, change / w);
		}
		dat_row_end(d);
	}
}

static int refaults_run(struct plot_job *job, int i, const struct plot_bins *b)
{
	struct plot_run *r = job->run[i];
	struct plot_series S = { 0 };
	struct dat d;
	int rc;

	if (plot_need_counters(r, "refaults", "workingset_refault_anon, workingset_refault_file,"
			  " workingset_activate_anon, workingset_activate_file"))
		return -1;
	if (load_samples(r, &S)) {
		plot_series_release(&S);
		return -1;
	}
	if (dat_open(&d, job, "refaults", i)) {
		plot_series_release(&S);
		return -1;
	}
	dat_block(&d, b ? "refault and activation rates per time bin, at the middle of each bin" :
		  "refault and activation rates between consecutive /proc/vmstat samples,"
		  " at the middle of each interval",
		  "time_s refault_anon_pages/s refault_file_pages/s activate_anon_pages/s"
		  " activate_file_pages/s");
	if (b) {
		dat_comment(&d, "rate = (counter at the bin's end - counter at its start) / its"
			    " length; the counter between two /proc/vmstat samples is read by linear"
			    " interpolation; %g ms bins, the same in every run of the figure",
			    b->width / 1e6);
		write_bins(&d, b, r, &S);
	} else {
		dat_comment(&d, "rate = (value in sample i - value in sample i-1) / (ts_i - ts_i-1)");
		write_intervals(&d, r, &S);
	}
	dat_comment(&d, "kernels before 5.9 have one workingset_refault/_activate (file only)");
	rc = 0;
	plot_series_release(&S);
	return dat_close(&d, rc);
}

static int write_refaults(struct plot_job *job)
{
	struct plot_bins b;

	if (job->grouped && plot_bins_choose(job, &b))
		return -1;
	for (int i = 0; i < job->nruns; i++)
		if (refaults_run(job, i, job->grouped ? &b : NULL))
			return -1;
	plot_set_xrange(job);
	return 0;
}

const struct plot_kind plot_kind_refaults = {
	.name = "refaults",
	.summary = "anon and file refault and activation rates (counters)",
	.write = write_refaults,
	.groups = 1,
};
