// SPDX-License-Identifier: GPL-2.0
/*
 * dat-merge.c - one side of `vmscope plot A1.db A2.db ... KIND --compare
 * B1.db B2.db ...`: the .dat files the kind wrote for each run of the side
 * (KIND-a.dat, KIND-b.dat, ... in run order) made into one, KIND-sideA.dat
 * or KIND-sideB.dat, whose rows are the mean over the runs of each value
 * (row i of every run: the same time bin, seconds from each run's start),
 * then the minimum and then the maximum of each: the columns of the kind's
 * block 0 three times, so that its script draws the mean where it draws a
 * run, and the spread from min to max beside it. Only block 0 is merged: the
 * kinds that take groups (plot_kind.groups) have their series there.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "plot-local.h"

struct rows {
	double *v;		/* nrow x ncol values, NaN where a run has none */
	int nrow, ncol, alloc;
	char *columns;		/* the "# columns:" words (caller frees) */
};

/* Block 0 of @path: its `# columns:` line and its numeric rows. Return: 0, -1. */
static int read_block0(const char *path, struct rows *r)
{
	FILE *f = fopen(path, "r");
	char line[16384];
	int state = 0;	/* 0 before block 0, 1 its header, 2 its rows, 3 done */

	memset(r, 0, sizeof(*r));
	if (!f)
		return vms_error("cannot read '%s': %s", path, strerror(errno));
	while (state < 3 && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (state == 0 && !strncmp(line, "# block 0:", 10)) {
			state = 1;
		} else if (state == 1 && !strncmp(line, "# columns: ", 11)) {
			free(r->columns);
			if (!(r->columns = strdup(line + 11)))
				break;
			r->ncol = 1;
			for (const char *p = r->columns; *p; p++)
				r->ncol += *p == ' ';
		} else if (state == 1 && line[0] != '#' && r->columns) {
			state = 2;	/* the header row: the run's label and the column names */
		} else if (state == 2 && !line[0]) {
			state = 3;
		} else if (state == 2 && line[0] != '#') {
			char *p = line, *end;

			if (vms_array_reserve(&r->v, &r->alloc, (r->nrow + 1) * r->ncol, 1024,
					      sizeof(*r->v)))
				break;
			for (int c = 0; c < r->ncol; c++) {
				double x = strtod(p, &end);

				r->v[r->nrow * r->ncol + c] = end == p ? NAN : x;
				p = end;
			}
			r->nrow++;
		}
	}
	fclose(f);
	if (state < 2 || !r->columns)
		return vms_error("'%s' has no block 0 to merge", path);
	return 0;
}

/* Write "name" three times: the mean, lo_name, hi_name. */
static void column_names(FILE *f, const char *columns, int header)
{
	static const char *const pre[] = { "", "lo_", "hi_" };
	const char *first = strchr(columns, ' ');

	if (!header)
		fputs(columns, f);	/* time_s ... */
	for (int k = header ? 0 : 1; k < 3; k++) {
		const char *p = first;

		while (p && *p) {
			const char *w = p + 1, *sp = strchr(w, ' ');
			int len = sp ? (int)(sp - w) : (int)strlen(w);

			fprintf(f, " %s%.*s", pre[k], len, w);
			p = sp;
		}
	}
}

int dat_merge_group(struct plot_job *job, const char *kind, int first, int n, char side,
		    const char *label)
{
	struct rows *r = calloc(n, sizeof(*r));
	char path[4096];
	int rc = -1, nrow = 0, ncol = 0;
	FILE *f = NULL;

	if (!r)
		return vms_error("out of memory");
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s-%c.dat", job->dir, kind, 'a' + first + i);
		if (read_block0(path, &r[i]))
			goto out;
		if (i && r[i].ncol != r[0].ncol) {
			vms_error("'%s': %d columns, not %d", path, r[i].ncol, r[0].ncol);
			goto out;
		}
		if (r[i].nrow > nrow)
			nrow = r[i].nrow;
	}
	ncol = r[0].ncol;
	snprintf(path, sizeof(path), "%s/%s-side%c.dat", job->dir, kind, side);
	if (!(f = fopen(path, "w"))) {
		vms_error("cannot write '%s': %s", path, strerror(errno));
		goto out;
	}
	fprintf(f, "# vmscope plot %s: side %c = %s, %d runs: the mean of each value, then its"
		" minimum (lo_) and maximum (hi_) over the runs that have the row\n", kind, side,
		label, n);
	fprintf(f, "# block 0: block 0 of %s-%c.dat .. %s-%c.dat, merged\n# columns: ", kind,
		'a' + first, kind, 'a' + first + n - 1);
	column_names(f, r[0].columns, 0);
	fprintf(f, "\n%s", label);
	column_names(f, r[0].columns, 1);
	fputc('\n', f);
	for (int row = 0; row < nrow; row++) {
		double t = NAN;

		for (int i = 0; i < n && isnan(t); i++)
			if (row < r[i].nrow)
				t = r[i].v[row * ncol];
		fprintf(f, "%.9g", t);
		for (int k = 0; k < 3; k++)
			for (int c = 1; c < ncol; c++) {
				double sum = 0, lo = INFINITY, hi = -INFINITY;
				int have = 0;

				for (int i = 0; i < n; i++) {
					double x;

					if (row >= r[i].nrow || isnan(x = r[i].v[row * ncol + c]))
						continue;
					sum += x;
					lo = x < lo ? x : lo;
					hi = x > hi ? x : hi;
					have++;
				}
				if (!have)
					fprintf(f, " NaN");
				else
					fprintf(f, " %.9g", k == 0 ? sum / have : k == 1 ? lo : hi);
			}
		fputc('\n', f);
	}
	rc = ferror(f) ? vms_error("cannot write '%s'", path) : 0;
out:
	if (f && fclose(f) && !rc)
		rc = vms_error("cannot write '%s': %s", path, strerror(errno));
	for (int i = 0; i < n; i++) {
		free(r[i].v);
		free(r[i].columns);
	}
	free(r);
	return rc;
}
