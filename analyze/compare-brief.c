// SPDX-License-Identifier: GPL-2.0
/*
 * compare-brief.c - the brief text table of `vmscope compare ... --vs ...`,
 * the one to paste into a changelog or a mail: about twenty rows chosen in
 * compare-run.c (the workload's result and times, the memcg's counters, the
 * machine's reclaim counters, the reclaim calls), without the rows that are
 * zero in every run or repeat the numbers of a row above, each side's mean
 * and coefficient of variation rounded to at most 8 characters, and the
 * change with a '*' where Welch's test finds it significant; notes wrapped,
 * everything within the width (80, or --width).
 *
 * Layout: metric, scope, A mean, cv%, B mean, cv%, change. The numeric part
 * takes 38 columns and the scope 7; the metric gets the rest.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "compare.h"

#define NUM_W 8
#define CV_W 4
#define SCOPE_W 6
#define FIXED_W (SCOPE_W + 1 + 1 + NUM_W + 1 + CV_W + 2 + NUM_W + 1 + CV_W + 1 + NUM_W)

/* A mean rounded for reading: integers from 100, 3 significant digits below. */
static void fmt_num(char *buf, size_t size, double v)
{
	double a = fabs(v);

	if (v == 0)
		snprintf(buf, size, "0");
	else if (a >= 1e7)
		snprintf(buf, size, "%.2e", v);
	else if (a >= 100)
		snprintf(buf, size, "%.0f", v);
	else if (a >= 10)
		snprintf(buf, size, "%.1f", v);
	else if (a >= 1)
		snprintf(buf, size, "%.2f", v);
	else if (a >= 0.001)
		snprintf(buf, size, "%.3f", v);
	else
		snprintf(buf, size, "%.1e", v);
}

static void fmt_cv(char *buf, size_t size, const struct cmp_stats *s)
{
	if (s->n < 2 || s->mean == 0)
		snprintf(buf, size, "-");
	else if (s->cov * 100 >= 999.5)
		snprintf(buf, size, ">999");
	else
		snprintf(buf, size, "%.0f", s->cov * 100);
}

static void fmt_change(char *buf, size_t size, const struct cmp_row *r)
{
	if (!r->has_change)
		snprintf(buf, size, "-");
	else if (fabs(r->change) >= 99999.5)
		snprintf(buf, size, "%+.0e%%%s", r->change, r->significant ? "*" : "");
	else if (fabs(r->change) >= 99.95)
		snprintf(buf, size, "%+.0f%%%s", r->change, r->significant ? "*" : " ");
	else
		snprintf(buf, size, "%+.1f%%%s", r->change, r->significant ? "*" : " ");
}

/* @text wrapped to @width after @first (e.g. "  note: "), continued under it. */
static void wrap(FILE *f, const char *first, const char *text, int width)
{
	int indent = (int)strlen(first), col = indent;
	const char *p = text;

	fputs(first, f);
	while (*p) {
		const char *sp = strchr(p, ' ');
		int len = sp ? (int)(sp - p) : (int)strlen(p);

		if (col > indent && col + 1 + len > width) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", len, p);
		col += len;
		p += len;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

static int same_stats(const struct cmp_stats *a, const struct cmp_stats *b)
{
	return a->n == b->n && a->mean == b->mean && a->sd == b->sd && a->min == b->min &&
	       a->max == b->max;
}

struct brief_sel {
	int *idx;		/* rows shown, in order */
	int n;
	int zero, dup, none;	/* brief rows hidden: all zero, a repeat, no value anywhere */
};

static int cmp_order(const void *pa, const void *pb, void *arg)
{
	const struct cmp_groups *g = arg;
	int a = *(const int *)pa, b = *(const int *)pb;

	if (g->row[a].order != g->row[b].order)
		return g->row[a].order - g->row[b].order;
	return a - b;
}

static int select_rows(const struct cmp_groups *g, struct brief_sel *s)
{
	memset(s, 0, sizeof(*s));
	if (!(s->idx = malloc(sizeof(*s->idx) * (g->nrow + 1))))
		return vms_error("out of memory");
	for (int i = 0; i < g->nrow; i++)
		if (g->row[i].brief)
			s->idx[s->n++] = i;
	qsort_r(s->idx, s->n, sizeof(*s->idx), cmp_order, (void *)g);
	int keep = 0;

	for (int i = 0; i < s->n; i++) {
		const struct cmp_row *r = &g->row[s->idx[i]];
		int dup = 0;

		for (int j = 0; j < keep && !dup; j++) {
			const struct cmp_row *q = &g->row[s->idx[j]];

			dup = q->unit == r->unit && same_stats(&q->side[0], &r->side[0]) &&
			      same_stats(&q->side[1], &r->side[1]);
		}
		if (!r->side[0].n && !r->side[1].n)
			s->none++;
		else if (r->all_zero)
			s->zero++;
		else if (dup)
			s->dup++;
		else
			s->idx[keep++] = s->idx[i];
	}
	s->n = keep;
	return 0;
}

/* The brief label, with the unit a --rates total now has. */
static void row_label(char *buf, size_t size, const struct cmp_row *r, int maxw)
{
	snprintf(buf, size, "%s%s", r->brief, r->rate ? "/s" : "");
	if ((int)strlen(buf) > maxw)
		buf[maxw] = 0;
}

int cmp_brief_print(FILE *f, const struct cmp_groups *g, int width)
{
	int mw = width - FIXED_W, testable = 0, shown_undef = 0;
	struct vms_buf b = { 0 };
	struct brief_sel s;
	char line[512];

	if (mw < 16)
		mw = 16;
	if (select_rows(g, &s))
		return -1;
	vms_buf_addf(&b, "Compare: A = %s (%d run%s), B = %s (%d run%s)", g->label[0], g->nrun[0],
		     g->nrun[0] == 1 ? "" : "s", g->label[1], g->nrun[1], g->nrun[1] == 1 ? "" : "s");
	if (g->run[0][0].release)
		vms_buf_addf(&b, ", kernel %s", g->run[0][0].release);
	wrap(f, "", b.buf, width);
	vms_buf_release(&b);
	fprintf(f, "%-*s %*s %*s %*s  %*s %*s %*s\n", mw, "metric", SCOPE_W, "scope", NUM_W, "A mean",
		CV_W, "cv%", NUM_W, "B mean", CV_W, "cv%", NUM_W, "change");
	for (int i = 0; i < s.n; i++) {
		const struct cmp_row *r = &g->row[s.idx[i]];
		char a[32], ca[16], bb[32], cb[16], ch[32];

		row_label(line, sizeof(line), r, mw);
		if (r->side[0].n)
			fmt_num(a, sizeof(a), r->side[0].mean);
		else
			snprintf(a, sizeof(a), "-");
		if (r->side[1].n)
			fmt_num(bb, sizeof(bb), r->side[1].mean);
		else
			snprintf(bb, sizeof(bb), "-");
		fmt_cv(ca, sizeof(ca), &r->side[0]);
		fmt_cv(cb, sizeof(cb), &r->side[1]);
		fmt_change(ch, sizeof(ch), r);
		fprintf(f, "%-*s %*s %*s %*s  %*s %*s %*s\n", mw, line, SCOPE_W,
			cmp_scope_name[r->scope], NUM_W, a, CV_W, ca, NUM_W, bb, CV_W, cb, NUM_W, ch);
		testable += r->p >= 0;
		shown_undef += r->undefined != NULL;
	}

	vms_buf_addf(&b, "%s; mean over each side's runs, cv%% = 100 * stddev / mean, change = "
		     "100 * (B - A) / A of the means",
		     g->rates ? "per second of each run (--rates)" : "totals over each run's recording");
	wrap(f, "  note: ", b.buf, width);
	vms_buf_release(&b);
	if (testable)
		vms_buf_addf(&b, "* = significant: Welch's t-test, two-sided p < %g; a change without * "
			     "is within the runs' noise at that level; of %d rows tested about %.1f "
			     "get a * by chance alone", g->alpha, testable, testable * g->alpha);
	else
		vms_buf_addf(&b, "no significance test: it needs at least 2 runs a side");
	wrap(f, "  note: ", b.buf, width);
	vms_buf_release(&b);
	wrap(f, "  note: ", "scope: run = the workload's own times and result; memcg = its memory "
	     "cgroup's memory.stat; system = /proc/vmstat, the whole machine, other tenants "
	     "included; trace = every task the tracepoints saw", width);
	for (int i = 0; i < s.n && shown_undef; i++) {
		const struct cmp_row *r = &g->row[s.idx[i]];

		if (r->undefined) {
			vms_buf_addf(&b, "%s: '-' in some runs: %s", r->brief, r->undefined);
			wrap(f, "  note: ", b.buf, width);
			vms_buf_release(&b);
		}
	}
	if (s.zero || s.dup || s.none) {
		vms_buf_addf(&b, "hidden: %d rows zero in every run, %d repeating a row above, %d no run "
			     "has; --full shows all %d metrics", s.zero, s.dup, s.none, g->nrow);
		wrap(f, "  note: ", b.buf, width);
		vms_buf_release(&b);
	}
	for (int k = 0; k < 2; k++) {
		vms_buf_addf(&b, "%s = %s:", k ? "B" : "A", g->label[k]);
		for (int i = 0; i < g->nrun[k]; i++)
			vms_buf_addf(&b, " %s%s", g->run[k][i].path, i + 1 < g->nrun[k] ? "," : "");
		for (char *p = b.buf; p && *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				*p = '?';
		wrap(f, "  note: ", b.buf, width);
		vms_buf_release(&b);
	}
	free(s.idx);
	return ferror(f) ? vms_error("cannot write the comparison") : 0;
}
