/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plot.h - what cmd-plot.c and the plot kinds share. `vmscope plot` is split
 * in two: the kinds (plots/kind-NAME.c, listed in plots/kinds.c, writing
 * through plots/dat.c; in libvms.a) compute each figure's numbers from the
 * database and write them to .dat files; the gnuplot scripts plots/KIND.gp
 * only draw them. cmd-plot.c finds the scripts, runs gnuplot and puts the
 * figure where the user asked.
 *
 * Invariants (why a trace cannot inject gnuplot commands):
 *  - gnuplot code is never generated from data. The only code vmscope passes
 *    is one `gnuplot -e` string of variable assignments whose values are
 *    numbers, format names and file names vmscope chose itself (KIND-a.dat,
 *    KIND.png), all in the private working directory gnuplot runs in.
 *  - Text from the trace or the command line (comms, shrinker names, run
 *    names) reaches gnuplot only as a token of a .dat file, after
 *    plot_sanitize(): nothing outside [A-Za-z0-9_.:/+-] and [ ] survives, so it
 *    cannot quote, comment, open a pipe or break a line; the scripts print
 *    it with enhanced text off.
 *
 * Protocol:
 *  1. plot_kind_find() the kind; plot_run_open() each database (one, or two
 *     with --compare) with the window.
 *  2. Fill a struct plot_job (format, size, the runs, the working directory)
 *     and call plot_write_data(): it writes KIND-a.dat (and KIND-b.dat) into
 *     the directory and sets the x range and extra variables.
 *  3. Run gnuplot in that directory on KIND.gp; plot_run_close() each run.
 */
#ifndef VMS_PLOTS_PLOT_H
#define VMS_PLOTS_PLOT_H

#include "vms.h"
#include "vms-window.h"

enum plot_format { PLOT_PNG, PLOT_SVG, PLOT_TXT };

/* Longest label written to a .dat file (run names, comms, shrinkers), bytes. */
#define PLOT_LABEL_MAX 40

/* Most runs of one figure: both groups of `plot A1.db ... KIND --compare B1.db ...`. */
#define PLOT_RUNS_MAX 16

struct plot_run {
	struct vms_window ctx;		/* database and window (ns on the trace clock) */
	const char *path;		/* database as given; borrowed */
	char label[PLOT_LABEL_MAX + 1];	/* sanitized run name for legends */
	char tag;			/* 'A' or 'B': prefix of row labels when comparing */
	long long page_size;		/* bytes (4096 when the run does not say) */
};

struct plot_job {
	const char *dir;		/* working directory the .dat files go to */
	struct plot_run *run[PLOT_RUNS_MAX];
	int nruns;			/* 1, 2 with --compare, or the runs of both groups */
	int grouped;			/* the runs are groups: rows must be the same bins in every run */
	enum plot_format fmt;
	double xmin, xmax;		/* x range, s from each run's start; set by the writer */
	struct vms_buf vars;		/* extra `name=number;` assignments for gnuplot -e */
};

/* A kind (plots/kind-NAME.c): one of the two hooks writes its data files. */
struct plot_kind {
	const char *name;
	const char *summary;
	int (*write)(struct plot_job *job);		/* all runs at once, x range too */
	int (*write_run)(struct plot_job *job, int i);	/* or run i alone; x: the windows */
	int groups;	/* block 0 holds its series, aligned by row across runs: groups of runs merge */
};

extern const struct plot_kind *const plot_kinds[];	/* plots/kinds.c */
extern const int plot_nkinds;

/* Return: the kind called @name, or NULL; must *not* be freed. */
const struct plot_kind *plot_kind_find(const char *name);

/**
 * plot_run_open() - open a database read-only and set its window
 * @r: zeroed by the caller; @path is borrowed and must outlive @r
 * @from_s, @to_s: window in seconds from the start of the run, used when
 * @has_from / @has_to are set (else the whole run)
 *
 * The start of the run is run.start_ts or the first counter sample if it is
 * earlier, as in `vmscope report`.
 * Return: 0, or -1 with vms_error set (the run is then closed).
 */
int plot_run_open(struct plot_run *r, const char *path, double from_s, double to_s,
		  int has_from, int has_to);
/* Close the database; accepts a run that was never opened. */
void plot_run_close(struct plot_run *r);

/**
 * plot_write_data() - write the data files of @kind for @job
 *
 * Writes job->dir/KIND-a.dat (and KIND-b.dat with two runs), sets job->xmin
 * and job->xmax and appends any kind-specific numbers to job->vars.
 * Return: 0, or -1 with vms_error set (e.g. the run lacks the counters the
 * kind needs: the message names them).
 */
int plot_write_data(const struct plot_kind *kind, struct plot_job *job);

/**
 * dat_merge_group() - one side of a group figure
 * @first, @n: the side's runs, job->run[first .. first + n)
 * @side: 'A' or 'B'; @label: its legend name (sanitized)
 *
 * After plot_write_data() wrote each run's KIND-x.dat, writes KIND-sideA.dat
 * (B): block 0's columns as the mean over the runs, then lo_ (minimum) and
 * hi_ (maximum) of each. Return: 0, or -1 with vms_error set.
 */
int dat_merge_group(struct plot_job *job, const char *kind, int first, int n, char side,
		    const char *label);

/**
 * plot_sanitize() - make untrusted text safe as a gnuplot data token
 * @dst: at least @size bytes; always NUL-terminated
 *
 * Every byte outside [A-Za-z0-9_.:/+-] and [ ] (module names) becomes '_' and the result is cut to
 * @size - 1 bytes; empty text becomes "_".
 */
void plot_sanitize(char *dst, size_t size, const char *src);

#endif
