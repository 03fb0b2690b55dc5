// SPDX-License-Identifier: GPL-2.0
/*
 * kind-shrinkers.c - `vmscope plot DB shrinkers`: objects scanned and freed per second by the top
 * shrinkers, in time bins.
 * Writes shrinkers-a.dat (-b.dat) for plots/shrinkers.gp; docs/plot.md shows the figure.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "plot-local.h"

/* One shrinker function, added up over its instances (one per superblock, ...). */
struct shrinker {
	char name[PLOT_LABEL_MAX + 1];
	double total[2];	/* objects scanned over both runs, then freed */
	double *bins[2];	/* per run: plot_bins_count() pairs (scanned, freed) */
};

struct shrinkers {
	struct shrinker *s;
	int n, alloc;
};

static struct shrinker *shrinker_get(struct shrinkers *set, const char *name,
				     struct plot_job *job, const struct plot_bins *b)
{
	struct shrinker *s;
	int i;

	for (i = 0; i < set->n; i++)
		if (!strcmp(set->s[i].name, name))
			return &set->s[i];
	if (set->n == set->alloc) {
		int n = set->alloc ? 2 * set->alloc : 16;
		struct shrinker *s2 = realloc(set->s, n * sizeof(*s2));

		if (!s2)
			return NULL;
		set->s = s2;
		set->alloc = n;
	}
	s = &set->s[set->n];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	for (i = 0; i < job->nruns; i++) {
		s->bins[i] = calloc(2 * plot_bins_count(b, job->run[i]), sizeof(double));
		if (!s->bins[i]) {
			free(s->bins[0]);
			return NULL;
		}
	}
	set->n++;
	return s;
}

static int shrinker_cmp(const void *pa, const void *pb)
{
	const struct shrinker *a = pa, *b = pb;

	if (a->total[0] != b->total[0])
		return a->total[0] < b->total[0] ? 1 : -1;
	if (a->total[1] != b->total[1])
		return a->total[1] < b->total[1] ? 1 : -1;
	return strcmp(a->name, b->name);
}

static int shrinkers_read(struct plot_job *job, const struct plot_bins *b, struct shrinkers *set, int i)
{
	struct plot_run *r = job->run[i];
	/* the derive step's sums per time bucket (bucket_ns divides the plot's bins' ms) */
	sqlite3_stmt *st = vms_window_prepare(&r->ctx,
		"SELECT name, (i.origin_ts + bucket * i.bucket_ns - ?1) / ?3, SUM(scanned), SUM(freed)"
		" FROM shrink_bucket, derive_info i WHERE orphan = 0"
		" AND i.origin_ts + bucket * i.bucket_ns BETWEEN ?1 AND ?2 GROUP BY 1, 2");
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 3, b->width);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char name[PLOT_LABEL_MAX + 1];
		struct shrinker *s;
		int bin = plot_bin_of(b, r, sqlite3_column_int64(st, 1));
		double scanned = sqlite3_column_double(st, 2), freed = sqlite3_column_double(st, 3);

		plot_sanitize(name, sizeof(name), (const char *)sqlite3_column_text(st, 0));
		s = shrinker_get(set, name, job, b);
		if (!s) {
			sqlite3_finalize(st);
			return vms_error("out of memory");
		}
		s->bins[i][2 * bin] += scanned;
		s->bins[i][2 * bin + 1] += freed;
		s->total[0] += scanned;
		s->total[1] += freed;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : plot_sql_error(r);
}

static int shrinkers_write(struct plot_job *job, const struct plot_bins *b, struct shrinkers *set,
			   int top, int i)
{
	struct plot_run *r = job->run[i];
	int n = plot_bins_count(b, r), k, j;
	struct vms_buf cols = { 0 };
	struct dat d;
	int rc;

	if (dat_open(&d, job, "shrinkers", i))
		return -1;
	vms_buf_addf(&cols, "time_s");
	for (j = 0; j < top; j++)
		vms_buf_addf(&cols, " %s:scanned/s %s:freed/s", set->s[j].name, set->s[j].name);
	if (!cols.buf) {
		dat_close(&d, 0);
		return vms_error("out of memory");
	}
	dat_block(&d, "objects scanned and freed per second by the top shrinkers (two columns"
		  " per shrinker)", cols.buf);
	vms_buf_release(&cols);
	dat_comment(&d, "from shrink_bucket (mm_shrink_slab_start/_end pairs summed per time bucket"
		    " by the derive step): scanned = total_scan - left_unscanned of each finished"
		    " call, freed = its retval; a call counts in the bucket of its start, a bucket"
		    " in the %g ms bin of its start (the last bin runs to the end of the window),"
		    " divided by the bin's length", b->width / 1e6);
	dat_comment(&d, "shrinkers are named as in the report (shrinker_name: the scan function,"
		    " ' [module]' kept; sanitized), all instances added up;"
		    " the top %d by objects scanned over %s of %d", top,
		    job->nruns > 1 ? "both runs" : "the window", set->n);
	for (k = 0; k < n; k++) {
		double t0, w;

		plot_bin_span(b, r, k, &t0, &w);
		dat_num(&d, 1, 1, t0 + w / 2);
		for (j = 0; j < top; j++) {
			dat_num(&d, 0, 1, set->s[j].bins[i][2 * k] / w);
			dat_num(&d, 0, 1, set->s[j].bins[i][2 * k + 1] / w);
		}
		dat_row_end(&d);
	}
	rc = 0;
	return dat_close(&d, rc);
}

static int write_shrinkers(struct plot_job *job)
{
	struct shrinkers set = { 0 };
	int top = job->fmt == PLOT_TXT ? 3 : 5, rc = 0, i;
	struct plot_bins b;

	rc = plot_bins_choose(job, &b);
	for (i = 0; i < job->nruns && !rc; i++)
		rc = shrinkers_read(job, &b, &set, i);
	if (!rc && !set.n && !shrinker_get(&set, "no_shrinker_calls", job, &b))
		rc = vms_error("out of memory");	/* nothing ran: one series of zeros says so */
	if (!rc) {
		qsort(set.s, set.n, sizeof(*set.s), shrinker_cmp);
		if (top > set.n)
			top = set.n;
		for (i = 0; i < job->nruns && !rc; i++)
			rc = shrinkers_write(job, &b, &set, top, i);
	}
	for (i = 0; i < set.n; i++) {
		free(set.s[i].bins[0]);
		free(set.s[i].bins[1]);
	}
	free(set.s);
	if (!rc)
		plot_set_xrange(job);
	return rc;
}

const struct plot_kind plot_kind_shrinkers = {
	.name = "shrinkers",
	.summary = "objects scanned and freed per second by the top shrinkers (trace)",
	.write = write_shrinkers,
};
