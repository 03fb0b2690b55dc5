/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plot-local.h - what the plot kinds share: the .dat writer and the time
 * bins of plots/dat.c, and the descriptor each plots/kind-NAME.c exports
 * (listed once in plots/kinds.c). Not used outside plots/.
 *
 * A kind's write() writes job->dir/NAME-a.dat (and NAME-b.dat with two
 * runs) through dat_open()/dat_block()/dat_num()/dat_row_end()/dat_close(),
 * sets the x range (plot_set_xrange() for a time axis) and returns 0, or -1
 * with vms_error set; a kind whose runs are independent gives write_run()
 * instead, which writes run i's file (plot_each_run() calls it and sets the
 * x range). Data file layout: see plots/dat.c.
 *
 * Adding a kind: plots/kind-NAME.c with `const struct plot_kind
 * plot_kind_NAME`, one line in plots/kinds.c, plots/NAME.gp, its section of
 * docs/plot.md, its Makefile object line and a test (t0050 checks that the
 * lists in `vmscope plot --list`, README.md and docs/plot.md agree).
 */
#ifndef VMS_PLOTS_PLOT_LOCAL_H
#define VMS_PLOTS_PLOT_LOCAL_H

#include <stdio.h>

#include "plot.h"

/*
 * In SQL, an interval cut by the end of the trace ends at NO_END ns, one cut
 * by its start begins at 0; plot_clip() then cuts both to the window.
 */
#define NO_END "9000000000000000000"

/* One data file being written. */
struct dat {
	FILE *f;
	struct plot_run *r;
	int blocks;		/* blocks begun */
	int rows;		/* data rows in the current block */
	int ncols;		/* columns of the current block */
	char path[4096];
};

/* Open job->dir/KIND-a.dat (b for run 1) and write its heading comments. */
int dat_open(struct dat *d, struct plot_job *job, const char *kind, int i);
/*
 * Begin a block. @columns: space-separated "name_unit" words, written as the
 * `# columns:` comment; the header row repeats them with the run's label in
 * place of the first.
 */
void dat_block(struct dat *d, const char *what, const char *columns);
void dat_comment(struct dat *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* One value: a number, or NaN where it is unknown (@known 0, or not finite). */
void dat_num(struct dat *d, int first, int known, double v);
void dat_row_end(struct dat *d);
/* Close the file; Return: @rc, or -1 with vms_error set when writing failed. */
int dat_close(struct dat *d, int rc);

/* Seconds from the start of @r's run; MiB of @pages pages of its page size. */
double plot_rel(const struct plot_run *r, long long ts);
double plot_mib(const struct plot_run *r, long long pages);
/* x range: the union of the runs' windows, each in seconds from its own start. */
void plot_set_xrange(struct plot_job *job);
/* Call @one for each run of @job, then plot_set_xrange(). Return: 0, or -1. */
int plot_each_run(struct plot_job *job, int (*one)(struct plot_job *job, int i));
/* Clip [a, b] (ns, open ends as 0 / NO_END) to the window. Return: 0 if nothing is left. */
int plot_clip(const struct plot_run *r, long long *a, long long *b);
/* vms_error with the database's SQLite message; Return: -1. */
int plot_sql_error(struct plot_run *r);
int plot_col_known(sqlite3_stmt *st, int col);

/*
 * The values of @names in each sample of @source (scope '') in the window,
 * in time order: column 0 is ts, column i + 1 the value of names[i] (NULL
 * when that sample lacks it). Return: statement (caller finalizes) or NULL.
 */
sqlite3_stmt *plot_samples_query(struct plot_run *r, const char *source,
				 const char *const *names, int n);
/* Return: 0 when @r has counter samples, else -1 with a message naming @what. */
int plot_need_counters(struct plot_run *r, const char *kind, const char *what);
/* vms_error: @what (e.g. "no /proc/vmstat sample") in the window; Return: -1. */
int plot_no_samples(struct plot_run *r, const char *kind, const char *what);

/* "comm/pid" of @pid, sanitized (see plots/dat.c). */
void plot_task_label(struct plot_run *r, int pid, char *dst, size_t size);

/* Time bins of one width; the last runs to the end of the window (1 to 2 widths). */
struct plot_bins {
	long long width;	/* ns */
};

/* A width of 1, 2 or 5 times a power of ten giving about 100 bins over the longest window. */
int plot_bins_choose(struct plot_job *job, struct plot_bins *b);
int plot_bins_count(const struct plot_bins *b, const struct plot_run *r);
/* The bin of bin index @idx ((ts - from) / width), clamped to the bins. */
int plot_bin_of(const struct plot_bins *b, const struct plot_run *r, long long idx);
/* Start (s from the run's start) and width (s) of bin @i. */
void plot_bin_span(const struct plot_bins *b, const struct plot_run *r, int i, double *t0,
		   double *w);

/* --- counter samples as series (sample-series.c), for group figures --- */

#define PLOT_SERIES_MAX 8

struct plot_sample {
	long long ts;
	long long v[PLOT_SERIES_MAX];
	int known[PLOT_SERIES_MAX];
};

struct plot_series {
	struct plot_sample *s;
	int n, alloc, ncols;
};

/*
 * plot_series_load() - the rows of @st (ts, then @ncols counters, as
 * plot_samples_query() gives them) into @S; @st is finalized.
 * Return: 0, or -1 with vms_error set (@S is then empty).
 */
int plot_series_load(struct plot_run *r, sqlite3_stmt *st, int ncols, struct plot_series *S);
void plot_series_release(struct plot_series *S);
/*
 * plot_series_at() - counter @k at time @t (ns), read between the samples
 * around it by linear interpolation. @i: the sample index to search from,
 * advanced (ask for times in order; start at 0).
 * Return: 1 with *@v set; 0 when no two samples with the counter bracket @t.
 */
int plot_series_at(const struct plot_series *S, int k, long long t, int *i, double *v);
/*
 * plot_series_change() - how much cumulative counter @k grew from @t0 to
 * @t1, both read as plot_series_at() does. Return: 1 with *@change set; 0
 * when either end is not bracketed or the counter went down (a reset) or is
 * missing in a sample in between.
 */
int plot_series_change(const struct plot_series *S, int k, long long t0, long long t1, int *i,
		       double *change);

#endif
