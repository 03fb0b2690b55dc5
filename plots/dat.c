// SPDX-License-Identifier: GPL-2.0
/*
 * dat.c - what every `vmscope plot` kind shares: opening a run with its
 * window, the .dat writer, the time bins, task labels. Each kind
 * (plots/kind-NAME.c, listed in plots/kinds.c) reads the database (one run,
 * or two with --compare) over the window and writes KIND-a.dat (KIND-b.dat)
 * for the matching plots/KIND.gp, which only draws. Part of libvms: it never
 * prints, it writes files and returns 0 or -1 with vms_error() set.
 * docs/plot.md says what each kind shows.
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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "plot-local.h"

void plot_sanitize(char *dst, size_t size, const char *src)
{
	size_t i = 0;

	if (!size)
		return;
	for (; src && *src && i + 1 < size; src++) {
		unsigned char c = *src;

		dst[i++] = ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
			    strchr("_.:/+-[]", c)) && c ? c : '_';
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

double plot_rel(const struct plot_run *r, long long ts)
{
	return vms_window_rel_s(&r->ctx, ts);
}

double plot_mib(const struct plot_run *r, long long pages)
{
	return (double)pages * r->page_size / (1024.0 * 1024.0);
}

/* x range: the union of the runs' windows, each in seconds from its own start. */
void plot_set_xrange(struct plot_job *job)
{
	int i;

	for (i = 0; i < job->nruns; i++) {
		const struct plot_run *r = job->run[i];
		double a = plot_rel(r, r->ctx.from), b = plot_rel(r, r->ctx.to);

		if (!i || a < job->xmin)
			job->xmin = a;
		if (!i || b > job->xmax)
			job->xmax = b;
	}
	if (job->xmax <= job->xmin)
		job->xmax = job->xmin + 1e-3;
}

/* --- data files --- */


int dat_open(struct dat *d, struct plot_job *job, const char *kind, int i)
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
		" of the run\n", kind, r->tag, r->label, name, plot_rel(r, r->ctx.from), plot_rel(r, r->ctx.to));
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
void dat_block(struct dat *d, const char *what, const char *columns)
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

void dat_comment(struct dat *d, const char *fmt, ...)
{
	va_list ap;

	fprintf(d->f, "# ");
	va_start(ap, fmt);
	vfprintf(d->f, fmt, ap);
	va_end(ap);
	fprintf(d->f, "\n");
}

/* One value: a number, or NaN where it is unknown. */
void dat_num(struct dat *d, int first, int known, double v)
{
	if (!first)
		fputc(' ', d->f);
	if (known && isfinite(v))
		fprintf(d->f, "%.9g", v);
	else
		fprintf(d->f, "NaN");
}

void dat_row_end(struct dat *d)
{
	fputc('\n', d->f);
	d->rows++;
}

int dat_close(struct dat *d, int rc)
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

int plot_sql_error(struct plot_run *r)
{
	return vms_error("%s: %s", r->path, sqlite3_errmsg(r->ctx.sql));
}

/* --- counter samples --- */

/*
 * The values of @names in each sample of @source (scope '') in the window,
 * in time order: column 0 is ts, column i + 1 the value of names[i] (NULL
 * when that sample lacks it). Return: statement (caller finalizes) or NULL.
 */
sqlite3_stmt *plot_samples_query(struct plot_run *r, const char *source,
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

int plot_need_counters(struct plot_run *r, const char *kind, const char *what)
{
	if (r->ctx.has_counters)
		return 0;
	return vms_error("'%s' needs /proc/vmstat counter samples (%s) and '%s' has none: add"
			 " the counter logs kept beside the trace with 'vmscope counters add', or"
			 " record the run with 'vmscope record'", kind, what, r->path);
}

int plot_no_samples(struct plot_run *r, const char *kind, const char *what)
{
	return vms_error("'%s': %s in '%s' between %.3f s and %.3f s", kind, what, r->path,
			 plot_rel(r, r->ctx.from), plot_rel(r, r->ctx.to));
}

int plot_col_known(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) != SQLITE_NULL;
}

/* --- time bins (scan, shrinkers) --- */


/* A width of 1, 2 or 5 times a power of ten giving about 100 bins over the longest window. */
int plot_bins_choose(struct plot_job *job, struct plot_bins *b)
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

int plot_bins_count(const struct plot_bins *b, const struct plot_run *r)
{
	long long n = (r->ctx.to - r->ctx.from) / b->width;

	return n < 1 ? 1 : (int)n;
}

int plot_bin_of(const struct plot_bins *b, const struct plot_run *r, long long idx)
{
	int n = plot_bins_count(b, r);

	return idx < 0 ? 0 : idx >= n ? n - 1 : (int)idx;
}

/* Start (s from the run's start) and width (s) of bin @i. */
void plot_bin_span(const struct plot_bins *b, const struct plot_run *r, int i, double *t0,
		   double *w)
{
	int n = plot_bins_count(b, r);
	long long start = r->ctx.from + i * b->width;
	long long end = i == n - 1 ? r->ctx.to : start + b->width;

	if (end <= start)
		end = start + b->width;
	*t0 = plot_rel(r, start);
	*w = (end - start) / 1e9;
}

/* --- comms --- */

/*
 * The task's name, sanitized and cut to 16 bytes, as "comm/pid": the name with the
 * most events, but a real one before "<...>" (a pid the kernel had no name for yet).
 */
void plot_task_label(struct plot_run *r, int pid, char *dst, size_t size)
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

int plot_each_run(struct plot_job *job, int (*one)(struct plot_job *job, int i))
{
	int i;

	for (i = 0; i < job->nruns; i++)
		if (one(job, i))
			return -1;
	plot_set_xrange(job);
	return 0;
}

/* Clip [a, b] (ns, open ends as 0 / NO_END) to the window. Return: 0 if nothing is left. */
int plot_clip(const struct plot_run *r, long long *a, long long *b)
{
	if (*a < r->ctx.from)
		*a = r->ctx.from;
	if (*b > r->ctx.to)
		*b = r->ctx.to;
	return *b >= *a;
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
	return kind->write ? kind->write(job) : plot_each_run(job, kind->write_run);
}

