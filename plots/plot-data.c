// SPDX-License-Identifier: GPL-2.0
/*
 * plot-data.c - the numbers behind each `vmscope plot` figure. For each kind
 * it reads the database (one run, or two with --compare) over the window and
 * writes KIND-a.dat (KIND-b.dat) for the matching plots/KIND.gp, which only
 * draws. Part of libvms: it never prints, it writes files and returns 0 or
 * -1 with vms_error() set. docs/plot.md says what each kind shows.
 *
 * Data file layout (the same for every kind):
 *
 *   # vmscope plot KIND: run A = <database>, window F..T s     comments
 *   # block 0: what it holds
 *   # columns: time_s name_unit ...                            the units
 *   RUNLABEL name ...                                          header row
 *   0.000000 123 ...                                           data rows
 *   <two blank lines>                                          next block
 *
 * The header row is what the scripts read with columnhead(N): column 1 is
 * the run's name (for legends), the others the column names. Every block
 * has at least one data row: a block with nothing to show gets one row of
 * NaN, which gnuplot skips without a warning. Times are seconds from the
 * start of the run; labels from the trace go through plot_sanitize().
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "plot.h"

/*
 * In SQL, an interval cut by the end of the trace ends at NO_END ns, one cut
 * by its start begins at 0; clip() then cuts both to the window.
 */
#define NO_END "9000000000000000000"

/* The pids of kswapd threads: those of the kswapd wake/sleep events, or named so. */
#define KSWAPD_PIDS "(SELECT pid FROM mm_vmscan_kswapd_wake UNION SELECT pid FROM" \
	" mm_vmscan_kswapd_sleep UNION SELECT pid FROM task WHERE comm LIKE 'kswapd%')"

void plot_sanitize(char *dst, size_t size, const char *src)
{
	size_t i = 0;

	if (!size)
		return;
	for (; src && *src && i + 1 < size; src++) {
		unsigned char c = *src;

		dst[i++] = ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
			    strchr("_.:/+-", c)) && c ? c : '_';
	}
	if (!i && size > 1)
		dst[i++] = '_';
	dst[i] = '\0';
}

/* --- runs --- */

int plot_run_open(struct plot_run *r, const char *path, double from_s, double to_s,
		  int has_from, int has_to)
{
	struct vms_window *ctx = &r->ctx;
	const char *base = strrchr(path, '/');
	long long v;

	r->path = path;
	plot_sanitize(r->label, sizeof(r->label), base && base[1] ? base + 1 : path);
	r->page_size = 4096;
	ctx->db = vms_db_open(path, VMS_OPEN_READONLY);
	if (!ctx->db)
		return -1;
	if (vms_window_open(ctx, from_s, to_s, has_from, has_to)) {	/* as `vmscope report` */
		plot_run_close(r);
		return -1;
	}
	if (vms_window_int(ctx, "SELECT page_size FROM run", &v) == 0 && v > 0)
		r->page_size = v;
	if (ctx->to < ctx->from) {
		vms_error("--to %.3f is before --from %.3f", to_s, from_s);
		plot_run_close(r);
		return -1;
	}
	return 0;
}

void plot_run_close(struct plot_run *r)
{
	if (!r)
		return;
	vms_db_close(r->ctx.db);
	r->ctx.db = NULL;
}

static double rel(const struct plot_run *r, long long ts)
{
	return vms_window_rel_s(&r->ctx, ts);
}

static double mib(const struct plot_run *r, long long pages)
{
	return (double)pages * r->page_size / (1024.0 * 1024.0);
}

/* x range: the union of the runs' windows, each in seconds from its own start. */
static void set_xrange(struct plot_job *job)
{
	int i;

	for (i = 0; i < job->nruns; i++) {
		const struct plot_run *r = job->run[i];
		double a = rel(r, r->ctx.from), b = rel(r, r->ctx.to);

		if (!i || a < job->xmin)
			job->xmin = a;
		if (!i || b > job->xmax)
			job->xmax = b;
	}
	if (job->xmax <= job->xmin)
		job->xmax = job->xmin + 1e-3;
}

/* --- data files --- */

struct dat {
	FILE *f;
	struct plot_run *r;
	int blocks;		/* blocks begun */
	int rows;		/* data rows in the current block */
	int ncols;		/* columns of the current block */
	char path[4096];
};

static int dat_open(struct dat *d, struct plot_job *job, const char *kind, int i)
{
	struct plot_run *r = job->run[i];
	char name[PLOT_LABEL_MAX + 1];

	memset(d, 0, sizeof(*d));
	d->r = r;
	if ((size_t)snprintf(d->path, sizeof(d->path), "%s/%s-%c.dat", job->dir, kind,
			     'a' + i) >= sizeof(d->path))
		return vms_error("'%s': directory name too long", job->dir);
	d->f = fopen(d->path, "w");
	if (!d->f)
		return vms_error("cannot write '%s': %s", d->path, strerror(errno));
	plot_sanitize(name, sizeof(name), r->path);
	fprintf(d->f, "# vmscope plot %s: run %c = %s (%s), window %.6f..%.6f s from the start"
		" of the run\n", kind, r->tag, r->label, name, rel(r, r->ctx.from), rel(r, r->ctx.to));
	fprintf(d->f, "# written by vmscope %s; read by plots/%s.gp (see docs/plot.md)\n",
		VMS_VERSION, kind);
	return 0;
}

static void dat_end_block(struct dat *d)
{
	int i;

	if (d->blocks && !d->rows) {
		/* gnuplot skips an all-NaN row silently, but warns about an empty block */
		for (i = 0; i < d->ncols; i++)
			fprintf(d->f, "%sNaN", i ? " " : "");
		fprintf(d->f, "\n");
	}
}

/*
 * Begin a block. @columns: space-separated "name_unit" words, written as the
 * `# columns:` comment; the header row repeats them with the run's label in
 * place of the first.
 */
static void dat_block(struct dat *d, const char *what, const char *columns)
{
	const char *sp = strchr(columns, ' ');
	const char *p;

	dat_end_block(d);
	if (d->blocks)
		fprintf(d->f, "\n\n");
	fprintf(d->f, "# block %d: %s\n# columns: %s\n%s%s\n", d->blocks, what, columns,
		d->r->label, sp ? sp : "");
	d->blocks++;
	d->rows = 0;
	d->ncols = 1;
	for (p = columns; *p; p++)
		d->ncols += *p == ' ';
}

static void dat_comment(struct dat *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void dat_comment(struct dat *d, const char *fmt, ...)
{
	va_list ap;

	fprintf(d->f, "# ");
	va_start(ap, fmt);
	vfprintf(d->f, fmt, ap);
	va_end(ap);
	fprintf(d->f, "\n");
}

/* One value: a number, or NaN where it is unknown. */
static void dat_num(struct dat *d, int first, int known, double v)
{
	if (!first)
		fputc(' ', d->f);
	if (known && isfinite(v))
		fprintf(d->f, "%.9g", v);
	else
		fprintf(d->f, "NaN");
}

static void dat_row_end(struct dat *d)
{
	fputc('\n', d->f);
	d->rows++;
}

static int dat_close(struct dat *d, int rc)
{
	if (!d->f)
		return rc;
	dat_end_block(d);
	if (ferror(d->f) && !rc)
		rc = vms_error("cannot write '%s'", d->path);
	if (fclose(d->f) && !rc)
		rc = vms_error("cannot write '%s': %s", d->path, strerror(errno));
	d->f = NULL;
	return rc;
}

static int sql_error(struct plot_run *r)
{
	return vms_error("%s: %s", r->path, sqlite3_errmsg(r->ctx.sql));
}

/* --- counter samples --- */

/*
 * The values of @names in each sample of @source (scope '') in the window,
 * in time order: column 0 is ts, column i + 1 the value of names[i] (NULL
 * when that sample lacks it). Return: statement (caller finalizes) or NULL.
 */
static sqlite3_stmt *samples_query(struct plot_run *r, const char *source,
				   const char *const *names, int n)
{
	struct vms_buf sql = { 0 };
	sqlite3_stmt *st = NULL;
	int i;

	vms_buf_addf(&sql, "SELECT s.ts");
	for (i = 0; i < n; i++)
		vms_buf_addf(&sql, ", (SELECT value FROM counter_value WHERE sample = s.id AND"
			     " name = ?%d)", i + 4);
	if (vms_buf_addf(&sql, " FROM counter_sample s WHERE s.source = ?3 AND s.scope = ''"
			 " AND s.ts BETWEEN ?1 AND ?2 ORDER BY s.ts, s.id"))
		return NULL;
	st = vms_window_prepare(&r->ctx, sql.buf);
	vms_buf_release(&sql);
	if (!st)
		return NULL;
	sqlite3_bind_text(st, 3, source, -1, SQLITE_STATIC);
	for (i = 0; i < n; i++)
		sqlite3_bind_text(st, i + 4, names[i], -1, SQLITE_STATIC);
	return st;
}

static int need_counters(struct plot_run *r, const char *kind, const char *what)
{
	if (r->ctx.has_counters)
		return 0;
	return vms_error("'%s' needs /proc/vmstat counter samples (%s) and '%s' has none: an"
			 " imported trace has no counters; record the run with 'vmscope record'",
			 kind, what, r->path);
}

static int no_samples(struct plot_run *r, const char *kind, const char *what)
{
	return vms_error("'%s': %s in '%s' between %.3f s and %.3f s", kind, what, r->path,
			 rel(r, r->ctx.from), rel(r, r->ctx.to));
}

static int col_known(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) != SQLITE_NULL;
}

/* --- ratio --- */

#define RATIO_NEEDS "nr_slab_reclaimable, nr_slab_unreclaimable, nr_active_file, nr_inactive_file"

static int ratio_run(struct plot_job *job, int i)
{
	static const char *const names[] = { "nr_slab_reclaimable", "nr_slab_unreclaimable",
					      "nr_active_file", "nr_inactive_file" };
	struct plot_run *r = job->run[i];
	sqlite3_stmt *st;
	struct dat d;
	int rc;

	if (need_counters(r, "ratio", RATIO_NEEDS))
		return -1;
	st = samples_query(r, "vmstat", names, 4);
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
		int ksr = col_known(st, 1), ksu = col_known(st, 2);
		int klru = col_known(st, 3) && col_known(st, 4);

		dat_num(&d, 1, 1, rel(r, sqlite3_column_int64(st, 0)));
		dat_num(&d, 0, ksr, mib(r, sr));
		dat_num(&d, 0, ksu, mib(r, su));
		dat_num(&d, 0, klru, mib(r, lru));
		dat_num(&d, 0, ksr && klru && lru, (double)sr / lru);
		dat_num(&d, 0, ksr && ksu && klru && lru, (double)(sr + su) / lru);
		dat_row_end(&d);
	}
	if (rc != SQLITE_DONE)
		rc = sql_error(r);
	else if (!d.rows)
		rc = no_samples(r, "ratio", "no /proc/vmstat sample");
	else
		rc = 0;
	sqlite3_finalize(st);
	return dat_close(&d, rc);
}

static int write_ratio(struct plot_job *job)
{
	int i;

	for (i = 0; i < job->nruns; i++)
		if (ratio_run(job, i))
			return -1;
	set_xrange(job);
	return 0;
}

/* --- refaults --- */

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

	if (need_counters(r, "refaults", "workingset_refault_anon, workingset_refault_file,"
			  " workingset_activate_anon, workingset_activate_file"))
		return -1;
	st = samples_query(r, "vmstat", names, 6);
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

			if (!anon && !col_known(st, c))
				c++;	/* the pre-5.9 counter */
			known[k] = col_known(st, c);
			v[k] = sqlite3_column_int64(st, c);
			any |= known[k];
		}
		if (have_prev && ts > prev_ts) {
			double dt = (ts - prev_ts) / 1e9;

			dat_num(&d, 1, 1, rel(r, prev_ts + (ts - prev_ts) / 2));
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
		rc = sql_error(r);
	else if (samples < 2)
		rc = no_samples(r, "refaults", "fewer than two /proc/vmstat samples");
	else if (!any)
		rc = vms_error("'refaults': the /proc/vmstat samples of '%s' have no workingset_refault"
			       " or workingset_activate counters", r->path);
	else
		rc = 0;
	sqlite3_finalize(st);
	return dat_close(&d, rc);
}

static int write_refaults(struct plot_job *job)
{
	int i;

	for (i = 0; i < job->nruns; i++)
		if (refaults_run(job, i))
			return -1;
	set_xrange(job);
	return 0;
}

/* --- lru --- */

static int lru_run(struct plot_job *job, int i)
{
	static const char *const names[] = { "nr_active_anon", "nr_inactive_anon", "nr_active_file",
					     "nr_inactive_file", "nr_free_pages" };
	struct plot_run *r = job->run[i];
	sqlite3_stmt *st;
	struct dat d;
	int rc, k, zones = 0;

	if (need_counters(r, "lru", "nr_active_anon, nr_inactive_anon, nr_active_file,"
			  " nr_inactive_file; free, min, low, high from /proc/zoneinfo"))
		return -1;
	st = samples_query(r, "vmstat", names, 5);
	if (!st)
		return -1;
	if (dat_open(&d, job, "lru", i)) {
		sqlite3_finalize(st);
		return -1;
	}
	dat_block(&d, "LRU list sizes, one row per /proc/vmstat sample",
		  "time_s active_anon_MiB inactive_anon_MiB active_file_MiB inactive_file_MiB");
	dat_comment(&d, "nr_active_anon, nr_inactive_anon, nr_active_file, nr_inactive_file from"
		    " /proc/vmstat, MiB with a page size of %lld bytes", r->page_size);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		dat_num(&d, 1, 1, rel(r, sqlite3_column_int64(st, 0)));
		for (k = 1; k <= 4; k++)
			dat_num(&d, 0, col_known(st, k), mib(r, sqlite3_column_int64(st, k)));
		dat_row_end(&d);
	}
	if (rc != SQLITE_DONE) {
		rc = sql_error(r);
		goto out;
	}
	if (!d.rows) {
		rc = no_samples(r, "lru", "no /proc/vmstat sample");
		goto out;
	}
	sqlite3_finalize(st);

	/* free pages against the watermarks, every zone of every node added up */
	st = vms_window_prepare(&r->ctx,
		"SELECT s.ts,"
		" SUM(CASE WHEN v.name = 'free' THEN v.value END),"
		" SUM(CASE WHEN v.name = 'min' THEN v.value END),"
		" SUM(CASE WHEN v.name = 'low' THEN v.value END),"
		" SUM(CASE WHEN v.name = 'high' THEN v.value END),"
		" SUM(CASE WHEN v.name = 'boost' THEN v.value END)"
		" FROM counter_sample s JOIN counter_value v ON v.sample = s.id"
		" WHERE s.source = 'zoneinfo' AND s.scope LIKE 'node%/%' AND s.ts BETWEEN ?1 AND ?2"
		" AND v.name IN ('free', 'min', 'low', 'high', 'boost')"
		" GROUP BY s.ts ORDER BY s.ts");
	if (!st) {
		rc = -1;
		goto out;
	}
	dat_block(&d, "free pages and the watermarks, all zones of all nodes added up, one row"
		  " per /proc/zoneinfo read", "time_s free_MiB min_MiB low_MiB high_MiB boost_MiB");
	dat_comment(&d, "zoneinfo 'pages free', min, low, high, boost summed over the zones (scopes"
		    " nodeN/ZONE); MiB with a page size of %lld bytes", r->page_size);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		zones++;
		dat_num(&d, 1, 1, rel(r, sqlite3_column_int64(st, 0)));
		for (k = 1; k <= 5; k++)
			dat_num(&d, 0, col_known(st, k), mib(r, sqlite3_column_int64(st, k)));
		dat_row_end(&d);
	}
	if (rc != SQLITE_DONE) {
		rc = sql_error(r);
		goto out;
	}
	sqlite3_finalize(st);
	st = NULL;
	rc = 0;
	if (!zones) {
		/* no /proc/zoneinfo: free pages from /proc/vmstat, no watermarks */
		dat_comment(&d, "no /proc/zoneinfo sample in the window: free is nr_free_pages from"
			    " /proc/vmstat, the watermarks are unknown");
		st = samples_query(r, "vmstat", names, 5);
		if (!st) {
			rc = -1;
			goto out;
		}
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			dat_num(&d, 1, 1, rel(r, sqlite3_column_int64(st, 0)));
			dat_num(&d, 0, col_known(st, 5), mib(r, sqlite3_column_int64(st, 5)));
			for (k = 0; k < 4; k++)
				dat_num(&d, 0, 0, 0);
			dat_row_end(&d);
		}
		rc = rc == SQLITE_DONE ? 0 : sql_error(r);
	}
out:
	sqlite3_finalize(st);
	return dat_close(&d, rc);
}

static int write_lru(struct plot_job *job)
{
	int i;

	for (i = 0; i < job->nruns; i++)
		if (lru_run(job, i))
			return -1;
	set_xrange(job);
	return 0;
}

/* --- time bins (scan, shrinkers) --- */

/* Time bins of one width; the last runs to the end of the window (1 to 2 widths). */
struct bins {
	long long width;	/* ns */
};

/* A width of 1, 2 or 5 times a power of ten giving about 100 bins over the longest window. */
static int bins_choose(struct plot_job *job, struct bins *b)
{
	static const long long steps[] = { 1, 2, 5 };
	long long span = 0, w = 1000000, p;	/* at least 1 ms */
	int i, k;

	for (i = 0; i < job->nruns; i++)
		if (job->run[i]->ctx.to - job->run[i]->ctx.from > span)
			span = job->run[i]->ctx.to - job->run[i]->ctx.from;
	for (p = 1000000; p < LLONG_MAX / 10; p *= 10) {
		for (k = 0; k < 3; k++)
			if (steps[k] * p * 100 >= span) {
				w = steps[k] * p;
				goto done;
			}
	}
done:
	b->width = w;
	return vms_buf_addf(&job->vars, "binw_ms=%g;", w / 1e6);
}

static int bins_count(const struct bins *b, const struct plot_run *r)
{
	long long n = (r->ctx.to - r->ctx.from) / b->width;

	return n < 1 ? 1 : (int)n;
}

static int bin_of(const struct bins *b, const struct plot_run *r, long long idx)
{
	int n = bins_count(b, r);

	return idx < 0 ? 0 : idx >= n ? n - 1 : (int)idx;
}

/* Start (s from the run's start) and width (s) of bin @i. */
static void bin_span(const struct bins *b, const struct plot_run *r, int i, double *t0, double *w)
{
	int n = bins_count(b, r);
	long long start = r->ctx.from + i * b->width;
	long long end = i == n - 1 ? r->ctx.to : start + b->width;

	if (end <= start)
		end = start + b->width;
	*t0 = rel(r, start);
	*w = (end - start) / 1e9;
}

/* --- scan --- */

static int scan_run(struct plot_job *job, const struct bins *b, int i)
{
	struct plot_run *r = job->run[i];
	int n = bins_count(b, r), rc, k;
	double (*v)[8] = calloc(n, sizeof(*v));
	sqlite3_stmt *st = NULL;
	long long events = 0;
	struct dat d = { 0 };

	if (!v)
		return vms_error("out of memory");
	st = vms_window_prepare(&r->ctx,
		"SELECT (ts - ?1) / ?3, pid IN " KSWAPD_PIDS ", COALESCE(reclaim_flags, 2) & 1,"
		" SUM(nr_scanned), SUM(nr_reclaimed), COUNT(*)"
		" FROM mm_vmscan_lru_shrink_inactive WHERE ts BETWEEN ?1 AND ?2 GROUP BY 1, 2, 3");
	if (!st) {
		rc = -1;
		goto out;
	}
	sqlite3_bind_int64(st, 3, b->width);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int bin = bin_of(b, r, sqlite3_column_int64(st, 0));
		int kswapd = sqlite3_column_int(st, 1), anon = sqlite3_column_int(st, 2);
		int col = (kswapd ? 0 : 2) + (anon ? 1 : 0);

		v[bin][col] += sqlite3_column_int64(st, 3);
		v[bin][col + 4] += sqlite3_column_int64(st, 4);
		events += sqlite3_column_int64(st, 5);
	}
	if (rc != SQLITE_DONE) {
		rc = sql_error(r);
		goto out;
	}
	if (dat_open(&d, job, "scan", i)) {
		rc = -1;
		goto out;
	}
	dat_block(&d, "pages scanned and reclaimed per second from the inactive LRU lists",
		  "time_s kswapd_file_scanned/s kswapd_anon_scanned/s direct_file_scanned/s"
		  " direct_anon_scanned/s kswapd_file_reclaimed/s kswapd_anon_reclaimed/s"
		  " direct_file_reclaimed/s direct_anon_reclaimed/s");
	dat_comment(&d, "sums of mm_vmscan_lru_shrink_inactive nr_scanned and nr_reclaimed (pages)"
		    " per %g ms bin (the last bin runs to the end of the window) divided by the"
		    " bin's length; time is the middle of the bin", b->width / 1e6);
	dat_comment(&d, "kswapd: the event's pid is a kswapd thread; direct: any other task"
		    " (direct, memcg limit and node reclaim); file/anon from reclaim_flags");
	dat_comment(&d, "%lld mm_vmscan_lru_shrink_inactive events in the window", events);
	for (k = 0; k < n; k++) {
		double t0, w;
		int c;

		bin_span(b, r, k, &t0, &w);
		dat_num(&d, 1, 1, t0 + w / 2);
		for (c = 0; c < 8; c++)
			dat_num(&d, 0, 1, v[k][c] / w);
		dat_row_end(&d);
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	free(v);
	return dat_close(&d, rc);
}

static int write_scan(struct plot_job *job)
{
	struct bins b;
	int i;

	if (bins_choose(job, &b))
		return -1;
	for (i = 0; i < job->nruns; i++)
		if (scan_run(job, &b, i))
			return -1;
	set_xrange(job);
	return 0;
}

/* --- shrinkers --- */

/* One shrinker function, added up over its instances (one per superblock, ...). */
struct shrinker {
	char name[PLOT_LABEL_MAX + 1];
	double total[2];	/* objects scanned over both runs, then freed */
	double *bins[2];	/* per run: bins_count() pairs (scanned, freed) */
};

struct shrinkers {
	struct shrinker *s;
	int n, alloc;
};

/*
 * "super_cache_scan+0x0/0x1a0" -> "super_cache_scan"; "xfs_buftarg_shrink_scan+0x0/0x30
 * [xfs]" -> "xfs_buftarg_shrink_scan:xfs"; then sanitized.
 */
static void shrinker_name(char *dst, size_t size, const char *raw)
{
	char buf[256];
	const char *mod;
	size_t n;

	if (!raw || !*raw)
		raw = "unknown";
	n = strcspn(raw, "+ ");
	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, raw, n);
	buf[n] = '\0';
	mod = strchr(raw, '[');
	if (mod) {
		size_t m = strcspn(mod + 1, "]");

		if (n + 1 + m < sizeof(buf))
			snprintf(buf + n, sizeof(buf) - n, ":%.*s", (int)m, mod + 1);
	}
	plot_sanitize(dst, size, buf);
}

static struct shrinker *shrinker_get(struct shrinkers *set, const char *name,
				     struct plot_job *job, const struct bins *b)
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
		s->bins[i] = calloc(2 * bins_count(b, job->run[i]), sizeof(double));
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

static int shrinkers_read(struct plot_job *job, const struct bins *b, struct shrinkers *set, int i)
{
	struct plot_run *r = job->run[i];
	sqlite3_stmt *st = vms_window_prepare(&r->ctx,
		"SELECT shrink, (start_ts - ?1) / ?3,"
		" SUM(CASE WHEN end_ts IS NOT NULL THEN MAX(total_scan - COALESCE(left_unscanned, 0), 0)"
		" END), SUM(freed)"
		" FROM shrink_slab_interval WHERE start_ts BETWEEN ?1 AND ?2 GROUP BY 1, 2");
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 3, b->width);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char name[PLOT_LABEL_MAX + 1];
		struct shrinker *s;
		int bin = bin_of(b, r, sqlite3_column_int64(st, 1));
		double scanned = sqlite3_column_double(st, 2), freed = sqlite3_column_double(st, 3);

		shrinker_name(name, sizeof(name), (const char *)sqlite3_column_text(st, 0));
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
	return rc == SQLITE_DONE ? 0 : sql_error(r);
}

static int shrinkers_write(struct plot_job *job, const struct bins *b, struct shrinkers *set,
			   int top, int i)
{
	struct plot_run *r = job->run[i];
	int n = bins_count(b, r), k, j;
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
	dat_comment(&d, "from shrink_slab_interval (mm_shrink_slab_start/_end pairs): scanned ="
		    " total_scan - left_unscanned of each finished call, freed = its retval;"
		    " summed per %g ms bin (the last bin runs to the end of the window) and"
		    " divided by the bin's length", b->width / 1e6);
	dat_comment(&d, "shrinkers are named by their scan function (all instances added up);"
		    " the top %d by objects scanned over %s of %d", top,
		    job->nruns > 1 ? "both runs" : "the window", set->n);
	for (k = 0; k < n; k++) {
		double t0, w;

		bin_span(b, r, k, &t0, &w);
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
	struct bins b;

	rc = bins_choose(job, &b);
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
		set_xrange(job);
	return rc;
}

/* --- comms --- */

/*
 * The task's name, sanitized and cut to 16 bytes, as "comm/pid": the name with the
 * most events, but a real one before "<...>" (a pid the kernel had no name for yet).
 */
static void task_label(struct plot_run *r, int pid, char *dst, size_t size)
{
	sqlite3_stmt *st = vms_window_prepare(&r->ctx, "SELECT comm FROM task WHERE pid = ?3"
					  " ORDER BY comm = '<...>', events DESC, last_ts DESC LIMIT 1");
	char comm[PLOT_LABEL_MAX + 1], buf[PLOT_LABEL_MAX + 24];

	snprintf(comm, sizeof(comm), "unknown");
	if (st) {
		const char *text;

		sqlite3_bind_int(st, 3, pid);
		if (sqlite3_step(st) == SQLITE_ROW) {
			text = (const char *)sqlite3_column_text(st, 0);
			/* "<...>": the kernel had no name for the pid */
			if (text && *text && strcmp(text, "<...>"))
				plot_sanitize(comm, 17, text);
		}
		sqlite3_finalize(st);
	}
	snprintf(buf, sizeof(buf), "%s/%d", comm, pid);
	plot_sanitize(dst, size, buf);
}

/* --- stalls --- */

#define STALL_BINS_PER_DECADE 5
#define STALL_MAX_BIN (STALL_BINS_PER_DECADE * 9)	/* 1 µs .. 1000 s */
#define STALL_SERIES 4

static const char *const stall_names[STALL_SERIES] = { "direct", "memcg", "node", "throttled" };

static int stall_bin(double us)
{
	int b = us <= 1 ? 0 : (int)floor(log10(us) * STALL_BINS_PER_DECADE);

	return b < 0 ? 0 : b > STALL_MAX_BIN ? STALL_MAX_BIN : b;
}

struct stalls {
	long long count[STALL_MAX_BIN + 1][STALL_SERIES];
	double worst_us[STALL_SERIES];
	int worst_pid[STALL_SERIES];
	long long n[STALL_SERIES];
};

static int stalls_read(struct plot_run *r, struct stalls *s)
{
	/* reclaim calls that began in the window and ended; throttling in the window */
	sqlite3_stmt *st = vms_window_prepare(&r->ctx,
		"SELECT CASE kind WHEN 'direct' THEN 0 WHEN 'node' THEN 2 ELSE 1 END, pid,"
		" duration_ns / 1e3 FROM reclaim_interval"
		" WHERE begin_ts BETWEEN ?1 AND ?2 AND duration_ns IS NOT NULL"
		" UNION ALL SELECT 3, pid, usec_delayed FROM mm_vmscan_throttled"
		" WHERE ts BETWEEN ?1 AND ?2 AND usec_delayed IS NOT NULL"
		" UNION ALL SELECT 3, pid, usec_delayed FROM writeback_congest_wait"
		" WHERE ts BETWEEN ?1 AND ?2 AND usec_delayed IS NOT NULL");
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int k = sqlite3_column_int(st, 0);
		double us = sqlite3_column_double(st, 2);

		s->count[stall_bin(us)][k]++;
		s->n[k]++;
		if (us > s->worst_us[k] || s->n[k] == 1) {
			s->worst_us[k] = us;
			s->worst_pid[k] = sqlite3_column_int(st, 1);
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_error(r);
}

static void fmt_duration(char *buf, size_t size, double us)
{
	if (us >= 1e6)
		snprintf(buf, size, "%.2fs", us / 1e6);
	else if (us >= 1e3)
		snprintf(buf, size, "%.1fms", us / 1e3);
	else
		snprintf(buf, size, "%.0fus", us);
}

static int stalls_run(struct plot_job *job, int i, int lo, int hi, struct stalls *s,
		      long long ymax, int *rank)
{
	struct plot_run *r = job->run[i];
	struct dat d;
	int b, k;

	if (dat_open(&d, job, "stalls", i))
		return -1;
	dat_block(&d, "latency distribution: episodes per logarithmic bin (5 per decade)",
		  "center_us bin_lo_us bin_hi_us direct memcg node throttled");
	dat_comment(&d, "direct, memcg (memcg limit and soft limit), node: reclaim_interval"
		    " duration_ns of the calls that began in the window and ended (%lld, %lld, %lld);"
		    " throttled: mm_vmscan_throttled and writeback_congest_wait usec_delayed (%lld);"
		    " durations under 1 us count in the first bin", s->n[0], s->n[1], s->n[2],
		    s->n[3]);
	for (b = lo; b <= hi; b++) {
		double blo = pow(10, (double)b / STALL_BINS_PER_DECADE);
		double bhi = pow(10, (double)(b + 1) / STALL_BINS_PER_DECADE);

		dat_num(&d, 1, 1, sqrt(blo * bhi));
		dat_num(&d, 0, 1, blo);
		dat_num(&d, 0, 1, bhi);
		for (k = 0; k < STALL_SERIES; k++)
			dat_num(&d, 0, 1, s->count[b][k]);
		dat_row_end(&d);
	}
	dat_block(&d, "the longest episode of each series, labelled with its task",
		  "duration_us label_y label series");
	dat_comment(&d, "label_y: the count of the episode's bin, raised by 7%% of the highest"
		    " count per label drawn before it so that labels do not overlap; series:"
		    " 1 direct, 2 memcg, 3 node, 4 throttled");
	for (k = 0; k < STALL_SERIES; k++) {
		char task[PLOT_LABEL_MAX + 1], dur[32], label[3 * PLOT_LABEL_MAX];
		double us = s->worst_us[k];

		if (!s->n[k])
			continue;
		task_label(r, s->worst_pid[k], task, sizeof(task));
		fmt_duration(dur, sizeof(dur), us);
		snprintf(label, sizeof(label), "%s%s:%s:%s", job->nruns > 1 ? (r->tag == 'A' ?
			 "A:" : "B:") : "", stall_names[k], task, dur);
		plot_sanitize(task, sizeof(task), label);
		dat_num(&d, 1, 1, us < 1 ? 1 : us);
		dat_num(&d, 0, 1, s->count[stall_bin(us)][k] + 0.07 * ymax * (*rank)++);
		fprintf(d.f, " %s %d", task, k + 1);
		dat_row_end(&d);
	}
	return dat_close(&d, 0);
}

static int write_stalls(struct plot_job *job)
{
	struct stalls *s = calloc(job->nruns, sizeof(*s));
	int lo = STALL_MAX_BIN, hi = 0, rc = 0, rank = 1, i, b, k;
	long long ymax = 1;

	if (!s)
		return vms_error("out of memory");
	for (i = 0; i < job->nruns && !rc; i++)
		rc = stalls_read(job->run[i], &s[i]);
	for (i = 0; i < job->nruns && !rc; i++)
		for (b = 0; b <= STALL_MAX_BIN; b++)
			for (k = 0; k < STALL_SERIES; k++)
				if (s[i].count[b][k]) {
					lo = b < lo ? b : lo;
					hi = b > hi ? b : hi;
					ymax = s[i].count[b][k] > ymax ? s[i].count[b][k] : ymax;
				}
	if (lo > hi) {
		/* nothing stalled: zero lines over 1 us .. 1 s */
		lo = 0;
		hi = STALL_BINS_PER_DECADE * 6 - 1;
	} else {
		/* a zero bin either side */
		lo = lo > 0 ? lo - 1 : 0;
		hi = hi < STALL_MAX_BIN ? hi + 1 : hi;
	}
	for (i = 0; i < job->nruns && !rc; i++)
		rc = stalls_run(job, i, lo, hi, &s[i], ymax, &rank);
	if (!rc) {
		job->xmin = pow(10, (double)lo / STALL_BINS_PER_DECADE);
		job->xmax = pow(10, (double)(hi + 1) / STALL_BINS_PER_DECADE);
	}
	free(s);
	return rc;
}

/* --- kswapd timeline --- */

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

/* Clip [a, b] (ns, open ends as 0 / NO_END) to the window. Return: 0 if nothing is left. */
static int clip(const struct plot_run *r, long long *a, long long *b)
{
	if (*a < r->ctx.from)
		*a = r->ctx.from;
	if (*b > r->ctx.to)
		*b = r->ctx.to;
	return *b >= *a;
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

		if (!clip(r, &a, &b))
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
		rc = sql_error(r);
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
		task_label(r, rows[k].pid, task, sizeof(task));
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
			if (judged && col_known(st, 1) && col_known(st, 2))
				failed = reclaimed == 0;
			if (nid != cur_nid || failed != 1)
				open = -1;	/* a new node, or a run that reclaimed: episode over */
			cur_nid = nid;
			if (!clip(r, &a, &b))
				continue;
			dat_num(&d, 1, 1, ny);
			dat_num(&d, 0, 1, rel(r, a));
			dat_num(&d, 0, 1, rel(r, b));
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
				ep[open].t0 = rel(r, a);
				ep[open].runs = 0;
			}
			ep[open].t1 = rel(r, b);
			ep[open].runs++;
		}
		if (rc != SQLITE_DONE) {
			free(ep);
			rc = sql_error(r);
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
				rc = sql_error(r);
				goto out;
			}
			if (open && (step == SQLITE_DONE || nid != open_nid || !flag)) {
				/* the last read showing it: shaded to the end of the window */
				long long a = open_ts, b = step == SQLITE_ROW && nid == open_nid ?
					ts : r->ctx.to;

				for (n = 0; n < nnodes; n++)
					if (nodes[n] == open_nid)
						ny = node_y0 - n;
				if (clip(r, &a, &b)) {
					dat_num(&d, 1, 1, ny);
					dat_num(&d, 0, 1, rel(r, a));
					dat_num(&d, 0, 1, rel(r, b));
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

		if (!clip(r, &a, &b))
			continue;
		for (k = 0; k < nrows; k++)
			if (rows[k].kind == kind && rows[k].pid == pid) {
				if (rows[k].shown)
					ry = rows[k].y;
				break;
			}
		dat_num(&d, 1, 1, ry);
		dat_num(&d, 0, 1, rel(r, a));
		dat_num(&d, 0, 1, rel(r, b));
		fprintf(d.f, " %d", kind);
		dat_row_end(&d);
	}
	if (rc != SQLITE_DONE) {
		rc = sql_error(r);
		goto out;
	}
	rc = 0;

	/* block 5: the window, for the x range of a script run by hand */
	dat_block(&d, "the window", "from_s to_s");
	dat_num(&d, 1, 1, rel(r, r->ctx.from));
	dat_num(&d, 0, 1, rel(r, r->ctx.to));
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
	set_xrange(job);
	return 0;
}

/* --- the kinds --- */

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
	if (sqlite3_prepare_v2(r->ctx.sql, "SELECT policy FROM replay_result GROUP BY policy"
			       " ORDER BY MIN(rowid)", -1, &st, NULL))
		return sql_error(r);
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
		rc = sql_error(r);
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
			dat_num(&d, 1, 1, rel(r, r->ctx.from + (long long)((b + 0.5) * binw)));
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

static int write_replay(struct plot_job *job)
{
	int i;

	for (i = 0; i < job->nruns; i++)
		if (replay_run(job, i))
			return -1;
	set_xrange(job);
	return 0;
}

const struct plot_kind plot_kinds[] = {
	{ "ratio", "slab and file LRU sizes and slab/page-cache ratio over time (counters)", write_ratio },
	{ "refaults", "anon and file refault and activation rates (counters)", write_refaults },
	{ "kswapd", "kswapd awake per node, failures, node_unreclaimable; reclaim calls beneath", write_kswapd },
	{ "scan", "pages scanned and reclaimed per second: kswapd/direct, file/anon (trace)", write_scan },
	{ "stalls", "latency distribution of reclaim calls and throttling (trace)", write_stalls },
	{ "lru", "LRU list sizes; free pages against the watermarks (counters)", write_lru },
	{ "shrinkers", "objects scanned and freed per second by the top shrinkers (trace)", write_shrinkers },
	{ "replay", "decisions each replayed policy would have taken differently, over time", write_replay },
};
const int plot_nkinds = sizeof(plot_kinds) / sizeof(plot_kinds[0]);

const struct plot_kind *plot_kind_find(const char *name)
{
	int i;

	for (i = 0; i < plot_nkinds; i++)
		if (!strcmp(plot_kinds[i].name, name))
			return &plot_kinds[i];
	return NULL;
}

int plot_write_data(const struct plot_kind *kind, struct plot_job *job)
{
	int i;

	for (i = 0; i < job->nruns; i++) {
		struct plot_run *r = job->run[i];
		char buf[PLOT_LABEL_MAX + 8];

		r->tag = 'A' + i;
		if (job->nruns > 1) {
			/* legends and row labels say A: and B: */
			snprintf(buf, sizeof(buf), "%c:%s", r->tag, r->label);
			plot_sanitize(r->label, sizeof(r->label), buf);
		}
	}
	return kind->write(job);
}
