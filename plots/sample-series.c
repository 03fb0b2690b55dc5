// SPDX-License-Identifier: GPL-2.0
/*
 * sample-series.c - counter samples of one run as series in memory, for the
 * counter kinds that take groups of runs (refaults, ratio): a group figure
 * needs every run's values at the same times (the time bins of plot_bins),
 * while the samples of two runs are taken at times of their own. Between two
 * samples a counter is read by linear interpolation: a level (list sizes) at
 * a time, or the change of a cumulative counter across a bin.
 */
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "plot-local.h"

int plot_series_load(struct plot_run *r, sqlite3_stmt *st, int ncols, struct plot_series *S)
{
	int rc;

	memset(S, 0, sizeof(*S));
	if (ncols > PLOT_SERIES_MAX) {
		sqlite3_finalize(st);
		return vms_error("plot: %d counters in one series, at most %d", ncols, PLOT_SERIES_MAX);
	}
	S->ncols = ncols;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct plot_sample *x;

		if (S->n == S->alloc) {
			int n = S->alloc ? 2 * S->alloc : 256;
			struct plot_sample *s2 = realloc(S->s, n * sizeof(*s2));

			if (!s2) {
				sqlite3_finalize(st);
				plot_series_release(S);
				return vms_error("out of memory");
			}
			S->s = s2;
			S->alloc = n;
		}
		x = &S->s[S->n++];
		x->ts = sqlite3_column_int64(st, 0);
		for (int k = 0; k < ncols; k++) {
			x->known[k] = plot_col_known(st, 1 + k);
			x->v[k] = sqlite3_column_int64(st, 1 + k);
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		plot_series_release(S);
		return plot_sql_error(r);
	}
	return 0;
}

void plot_series_release(struct plot_series *S)
{
	free(S->s);
	memset(S, 0, sizeof(*S));
}

/* The sample at or before @t that has a next one, searched from *@i on. Return: 1, or 0. */
static int bracket(const struct plot_series *S, long long t, int *i)
{
	while (*i + 1 < S->n && S->s[*i + 1].ts < t)
		(*i)++;
	return *i + 1 < S->n && S->s[*i].ts <= t && S->s[*i + 1].ts > S->s[*i].ts;
}

int plot_series_at(const struct plot_series *S, int k, long long t, int *i, double *v)
{
	const struct plot_sample *a, *b;

	if (!bracket(S, t, i))
		return 0;
	a = &S->s[*i];
	b = &S->s[*i + 1];
	if (!a->known[k] || !b->known[k])
		return 0;
	*v = a->v[k] + (double)(b->v[k] - a->v[k]) * (t - a->ts) / (b->ts - a->ts);
	return 1;
}

int plot_series_change(const struct plot_series *S, int k, long long t0, long long t1, int *i,
		       double *change)
{
	double c0, c1;
	int j;

	if (!plot_series_at(S, k, t0, i, &c0))
		return 0;
	j = *i;
	if (!plot_series_at(S, k, t1, &j, &c1))
		return 0;
	/* a counter that went down in between was reset: no change can be told */
	for (int n = *i + 1; n <= j + 1 && n < S->n; n++)
		if (!S->s[n].known[k] || !S->s[n - 1].known[k] || S->s[n].v[k] < S->s[n - 1].v[k])
			return 0;
	*change = c1 - c0;
	return 1;
}
