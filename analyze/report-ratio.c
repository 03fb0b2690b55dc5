// SPDX-License-Identifier: GPL-2.0
/*
 * report-ratio.c - the 'ratio' section of `vmscope report`: slab against
 * page cache over time, from the counter samples in the window (docs/report-ratio.md).
 *
 * Formulas (each sample on its own: these counters are levels, not events):
 *   file_lru          = nr_active_file + nr_inactive_file            (pages, /proc/vmstat)
 *   ratio_reclaimable = nr_slab_reclaimable / file_lru
 *   ratio_all         = (nr_slab_reclaimable + nr_slab_unreclaimable) / file_lru
 * and, from /proc/meminfo samples when the run has them (kB),
 *   SReclaimable / Cached  and  Slab / Cached.
 * A ratio is empty (NULL) where a counter is missing or file_lru (Cached) is 0.
 * Median: the middle value of the sorted ratios, the mean of the two middle
 * ones for an even count. min/max "at": the first sample reaching it.
 */
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "report.h"

/* One ratio over the samples of the window. */
struct series {
	const char *name, *formula;
	double *v;
	long long *ts;
	int n, alloc;
	int nulls;		/* samples where the ratio could not be computed */
};

static int series_add(struct series *s, long long ts, double v)
{
	if (s->n == s->alloc) {
		int n = s->alloc ? 2 * s->alloc : 256;
		double *v2 = realloc(s->v, n * sizeof(*v2));
		long long *t2;

		if (!v2)
			return vms_error("out of memory");
		s->v = v2;
		t2 = realloc(s->ts, n * sizeof(*t2));
		if (!t2)
			return vms_error("out of memory");
		s->ts = t2;
		s->alloc = n;
	}
	s->v[s->n] = v;
	s->ts[s->n] = ts;
	s->n++;
	return 0;
}

static void series_free(struct series *s)
{
	free(s->v);
	free(s->ts);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* One row of the summary: samples, min, min at, median, max, max at. */
static int summary_row(struct vms_window *ctx, struct table *t, const struct series *s)
{
	double *sorted;
	int i, imin = 0, imax = 0;

	table_row(t);
	table_text(t, s->name);
	table_text(t, s->formula);
	table_int(t, s->n);
	if (!s->n) {
		for (i = 0; i < 5; i++)
			table_null(t);
		return 0;
	}
	for (i = 1; i < s->n; i++) {
		if (s->v[i] < s->v[imin])
			imin = i;
		if (s->v[i] > s->v[imax])
			imax = i;
	}
	sorted = malloc(s->n * sizeof(*sorted));
	if (!sorted)
		return vms_error("out of memory");
	memcpy(sorted, s->v, s->n * sizeof(*sorted));
	qsort(sorted, s->n, sizeof(*sorted), cmp_double);
	table_real(t, s->v[imin]);
	table_real(t, vms_window_rel_s(ctx, s->ts[imin]));
	table_real(t, s->n % 2 ? sorted[s->n / 2] : (sorted[s->n / 2 - 1] + sorted[s->n / 2]) / 2);
	table_real(t, s->v[imax]);
	table_real(t, vms_window_rel_s(ctx, s->ts[imax]));
	free(sorted);
	return 0;
}

/*
 * The vmstat time series: one row per sample in the window, and the two
 * reclaim-form ratios collected into @r and @a.
 */
static int vmstat_table(struct vms_window *ctx, struct out *o, struct series *r, struct series *a)
{
	sqlite3_stmt *st = vms_window_prepare(ctx,
		"SELECT s.ts,"
		" (SELECT value FROM counter_value WHERE sample = s.id AND name = 'nr_slab_reclaimable'),"
		" (SELECT value FROM counter_value WHERE sample = s.id AND name = 'nr_slab_unreclaimable'),"
		" (SELECT value FROM counter_value WHERE sample = s.id AND name = 'nr_active_file'),"
		" (SELECT value FROM counter_value WHERE sample = s.id AND name = 'nr_inactive_file')"
		" FROM counter_sample s WHERE s.source = 'vmstat' AND s.scope = ''"
		" AND s.ts BETWEEN ?1 AND ?2 ORDER BY s.ts, s.id");
	static const char *const names[] = { "nr_slab_reclaimable", "nr_slab_unreclaimable",
					     "nr_active_file", "nr_inactive_file" };
	int missing[4] = { 0 }, zero_lru = 0, rc, i;
	struct table *t;

	if (!st)
		return -1;
	t = table_new("ratio", "series", "Slab against file LRU pages, per /proc/vmstat sample");
	if (!t) {
		sqlite3_finalize(st);
		return vms_error("out of memory");
	}
	table_column(t, "time", "s", 3);
	table_column(t, "nr_slab_reclaimable", "pages", 0);
	table_column(t, "nr_slab_unreclaimable", "pages", 0);
	table_column(t, "file_lru", "pages", 0);
	table_column(t, "ratio_reclaimable", NULL, 4);
	table_column(t, "ratio_all", NULL, 4);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long ts = sqlite3_column_int64(st, 0), v[4];
		int have[4];

		for (i = 0; i < 4; i++) {
			have[i] = sqlite3_column_type(st, i + 1) != SQLITE_NULL;
			v[i] = sqlite3_column_int64(st, i + 1);
			missing[i] += !have[i];
		}
		table_row(t);
		table_real(t, vms_window_rel_s(ctx, ts));
		for (i = 0; i < 2; i++)
			if (have[i])
				table_int(t, v[i]);
			else
				table_null(t);
		if (have[2] && have[3])
			table_int(t, v[2] + v[3]);
		else
			table_null(t);
		if (have[2] && have[3] && v[2] + v[3] == 0)
			zero_lru++;
		if (have[0] && have[2] && have[3] && v[2] + v[3]) {
			double x = (double)v[0] / (v[2] + v[3]);

			table_real(t, x);
			if (series_add(r, ts, x))
				goto fail;
		} else {
			table_null(t);
			r->nulls++;
		}
		if (have[0] && have[1] && have[2] && have[3] && v[2] + v[3]) {
			double x = (double)(v[0] + v[1]) / (v[2] + v[3]);

			table_real(t, x);
			if (series_add(a, ts, x))
				goto fail;
		} else {
			table_null(t);
			a->nulls++;
		}
	}
	if (rc != SQLITE_DONE) {
		vms_error("%s", sqlite3_errmsg(ctx->sql));
		goto fail;
	}
	sqlite3_finalize(st);
	table_note(t, "counters: nr_slab_reclaimable, nr_slab_unreclaimable, nr_active_file, "
		   "nr_inactive_file from /proc/vmstat (pages), each sample on its own");
	table_note(t, "file_lru = nr_active_file + nr_inactive_file (the file LRU lists; shmem "
		   "is on the anon LRU and not counted)");
	table_note(t, "ratio_reclaimable = nr_slab_reclaimable / file_lru; ratio_all = "
		   "(nr_slab_reclaimable + nr_slab_unreclaimable) / file_lru");
	for (i = 0; i < 4; i++)
		if (missing[i])
			table_note(t, "'%s' is missing from %d sample(s): the ratios using it are empty "
				   "there", names[i], missing[i]);
	if (zero_lru)
		table_note(t, "file_lru is 0 in %d sample(s): no ratio there", zero_lru);
	if (!table_rows(t))
		table_note(t, "no /proc/vmstat sample between %.3f s and %.3f s",
			   vms_window_rel_s(ctx, ctx->from), vms_window_rel_s(ctx, ctx->to));
	out_table(o, t);
	table_free(t);
	return 0;
fail:
	sqlite3_finalize(st);
	table_free(t);
	return -1;
}

/* SReclaimable / Cached and Slab / Cached from the /proc/meminfo samples in the window. */
static int meminfo_series(struct vms_window *ctx, struct series *r, struct series *a, int *samples)
{
	sqlite3_stmt *st = vms_window_prepare(ctx,
		"SELECT s.ts,"
		" (SELECT value FROM counter_value WHERE sample = s.id AND name = 'SReclaimable'),"
		" (SELECT value FROM counter_value WHERE sample = s.id AND name = 'Slab'),"
		" (SELECT value FROM counter_value WHERE sample = s.id AND name = 'Cached')"
		" FROM counter_sample s WHERE s.source = 'meminfo' AND s.scope = ''"
		" AND s.ts BETWEEN ?1 AND ?2 ORDER BY s.ts, s.id");
	int rc;

	*samples = 0;
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long ts = sqlite3_column_int64(st, 0);
		long long cached = sqlite3_column_int64(st, 3);
		int have_c = sqlite3_column_type(st, 3) != SQLITE_NULL && cached;

		(*samples)++;
		if (have_c && sqlite3_column_type(st, 1) != SQLITE_NULL) {
			if (series_add(r, ts, (double)sqlite3_column_int64(st, 1) / cached))
				goto fail;
		} else {
			r->nulls++;
		}
		if (have_c && sqlite3_column_type(st, 2) != SQLITE_NULL) {
			if (series_add(a, ts, (double)sqlite3_column_int64(st, 2) / cached))
				goto fail;
		} else {
			a->nulls++;
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : vms_error("%s", sqlite3_errmsg(ctx->sql));
fail:
	sqlite3_finalize(st);
	return -1;
}

static int summary_table(struct vms_window *ctx, struct out *o, struct series *s, int ns,
			 int meminfo_samples)
{
	struct table *t = table_new("ratio", "summary", "Slab/page-cache ratio over the window");
	int i;

	if (!t)
		return vms_error("out of memory");
	table_column(t, "ratio", NULL, 0);
	table_column(t, "formula", NULL, 0);
	table_column(t, "samples", NULL, 0);
	table_column(t, "min", NULL, 4);
	table_column(t, "min_at", "s", 3);
	table_column(t, "median", NULL, 4);
	table_column(t, "max", NULL, 4);
	table_column(t, "max_at", "s", 3);
	for (i = 0; i < ns; i++)
		if (summary_row(ctx, t, &s[i])) {
			table_free(t);
			return -1;
		}
	table_note(t, "samples: the samples where the ratio could be computed; median of an even "
		   "count is the mean of the two middle values; min_at/max_at: the first sample "
		   "reaching it, seconds from the start of the run");
	table_note(t, "ratio_reclaimable is the reclaim-relevant form (the slab pressure of "
		   "4.14-4.15 was proportional to it); meminfo Cached includes shmem and excludes "
		   "SwapCached and Buffers, so the meminfo forms differ from the vmstat ones");
	if (!meminfo_samples)
		table_note(t, "no /proc/meminfo sample in the window: the meminfo rows are empty");
	table_note(t, "scope: the whole machine (/proc/vmstat, /proc/meminfo): slab is shared by "
		   "every memcg; a cgroup v1 memory.stat has no slab counters, so there is no "
		   "memcg form of the ratio");
	for (i = 0; i < ns; i++)
		if (s[i].nulls)
			table_note(t, "%s: %d sample(s) without a value (missing counter or a zero "
				   "denominator)", s[i].name, s[i].nulls);
	out_table(o, t);
	table_free(t);
	return 0;
}

/* Without counters: say what is missing and what the trace can and cannot give. */
static int unavailable_table(struct vms_window *ctx, struct out *o)
{
	struct table *t = table_new("ratio", "ratio", "Slab/page-cache ratio: unavailable");
	long long n = 0;

	if (!t)
		return vms_error("out of memory");
	if (vms_window_int(ctx, "SELECT COUNT(*) FROM mm_shrink_slab_start WHERE ts BETWEEN ?1 AND ?2"
		       " AND cache_items IS NOT NULL", &n) < 0) {
		table_free(t);
		return -1;
	}
	table_column(t, "status", NULL, 0);
	table_row(t);
	table_text(t, "unavailable: this run has no /proc/vmstat samples");
	table_note(t, "the ratio needs counter samples (nr_slab_reclaimable, nr_slab_unreclaimable, "
		   "nr_active_file, nr_inactive_file from /proc/vmstat; SReclaimable, Slab, Cached "
		   "from /proc/meminfo): `vmscope record` samples them; for an imported trace, "
		   "give the counter logs kept beside it with import --counters or counters add");
	table_note(t, "the trace cannot stand in: no vmscan event carries the slab or page-cache "
		   "size. mm_shrink_slab_start cache_items is one shrinker's freeable objects "
		   "(dentries, inodes, ...; not pages, and scaled by vfs_cache_pressure), and its "
		   "lru_pgs (LRU pages of the reclaim pass) exists on 4.14-4.15 only");
	table_note(t, "this window has %lld mm_shrink_slab_start event(s) with cache_items: "
		   "see the shrinkers section for them per shrinker", n);
	out_table(o, t);
	table_free(t);
	return 0;
}

int report_ratio(struct vms_window *ctx, struct out *o)
{
	struct series s[4] = {
		{ .name = "ratio_reclaimable", .formula = "nr_slab_reclaimable/(nr_active_file+nr_inactive_file)" },
		{ .name = "ratio_all", .formula = "(nr_slab_reclaimable+nr_slab_unreclaimable)/(nr_active_file+nr_inactive_file)" },
		{ .name = "meminfo_reclaimable", .formula = "SReclaimable/Cached" },
		{ .name = "meminfo_all", .formula = "Slab/Cached" },
	};
	int rc, meminfo_samples = 0, i;

	if (!ctx->has_counters)
		return unavailable_table(ctx, o);
	rc = vmstat_table(ctx, o, &s[0], &s[1]);
	if (!rc)
		rc = meminfo_series(ctx, &s[2], &s[3], &meminfo_samples);
	if (!rc)
		rc = summary_table(ctx, o, s, 4, meminfo_samples);
	for (i = 0; i < 4; i++)
		series_free(&s[i]);
	return rc;
}
