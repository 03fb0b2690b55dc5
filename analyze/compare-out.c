// SPDX-License-Identifier: GPL-2.0
/*
 * compare-out.c - the full table of `vmscope compare ... --vs ...` through
 * lib/table.c, as aligned text (--full), CSV or JSON: one row per metric
 * with its scope and unit, each side's label, number of runs, mean, sample
 * standard deviation, coefficient of variation, min and max, the change of
 * the means, Welch's p value and whether it is below the level. The JSON
 * document's "run" object holds the labels, the level and every database.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "compare.h"

static const char *unit_of(const struct cmp_row *r)
{
	switch (r->unit) {
	case CMP_COUNT:
		return r->rate ? "per s" : "total";
	case CMP_PERCENT:
		return "%";
	case CMP_RATE:
		return "per s";
	case CMP_MS:
		return "ms";
	case CMP_SECONDS:
		return "s";
	default:
		return r->unit_name;
	}
}

static void stats_cells(struct table *t, const char *label, const struct cmp_stats *s)
{
	table_text(t, label);
	table_int(t, s->n);
	if (!s->n) {
		for (int i = 0; i < 5; i++)
			table_null(t);
		return;
	}
	table_real(t, s->mean);
	if (s->n > 1)
		table_real(t, s->sd);
	else
		table_null(t);
	if (s->n > 1 && s->mean != 0)
		table_real(t, 100 * s->cov);
	else
		table_null(t);
	table_real(t, s->min);
	table_real(t, s->max);
}

static void add_meta(struct out *o, const struct cmp_groups *g)
{
	char key[48], buf[32];

	for (int k = 0; k < 2; k++) {
		snprintf(key, sizeof(key), "%s_label", k ? "b" : "a");
		out_meta(o, key, g->label[k]);
		for (int i = 0; i < g->nrun[k]; i++) {
			snprintf(key, sizeof(key), "%s_database_%d", k ? "b" : "a", i + 1);
			out_meta(o, key, g->run[k][i].path);
		}
	}
	snprintf(buf, sizeof(buf), "%g", g->alpha);
	out_meta(o, "alpha", buf);
	out_meta(o, "test", "Welch's t-test, two-sided");
	out_meta(o, "values", g->rates ? "per second" : "totals");
}

int cmp_table_write(FILE *f, enum out_format fmt, const struct cmp_groups *g)
{
	static const char *const stat_cols[] = { "runs", "mean", "stddev", "cov", "min", "max" };
	struct table *t = table_new("compare", "compare-groups", "Compare groups of runs");
	char name[32];
	struct out *o;
	int rc;

	if (!t)
		return vms_error("out of memory");
	table_column(t, "metric", NULL, 0);
	table_column(t, "scope", NULL, 0);
	table_column(t, "unit", NULL, 0);
	for (int k = 0; k < 2; k++) {
		snprintf(name, sizeof(name), "%s_label", k ? "b" : "a");
		table_column(t, name, NULL, 0);
		for (int i = 0; i < 6; i++) {
			snprintf(name, sizeof(name), "%s_%s", k ? "b" : "a", stat_cols[i]);
			table_column(t, name, i == 3 ? "%" : NULL, i ? 3 : 0);
		}
	}
	table_column(t, "change", "%", 2);
	table_column(t, "p", NULL, 4);
	table_column(t, "significant", NULL, 0);
	for (int i = 0; i < g->nrow; i++) {
		const struct cmp_row *r = &g->row[i];

		table_row(t);
		table_text(t, r->key);
		table_text(t, cmp_scope_name[r->scope]);
		table_text(t, unit_of(r));
		stats_cells(t, g->label[0], &r->side[0]);
		stats_cells(t, g->label[1], &r->side[1]);
		if (r->has_change)
			table_real(t, r->change);
		else
			table_null(t);
		if (r->p >= 0)
			table_real(t, r->p);
		else
			table_null(t);
		table_int(t, r->significant);
		if (r->undefined)
			table_note(t, "%s: '-' in some runs: %s", r->key, r->undefined);
	}
	table_note(t, "%s; stddev: sample standard deviation (n - 1); cov = 100 * stddev / mean; "
		   "change = 100 * (b_mean - a_mean) / a_mean; p: Welch's t-test, two-sided, "
		   "significant when p < %g", g->rates ? "values per second of each run"
		   : "values are totals over each run's recording", g->alpha);
	table_note(t, "scope: run = the workload's own times and result (table run_result); memcg = "
		   "the recorded memcg's memory.stat; system = /proc/vmstat, the whole machine; "
		   "trace = every task the tracepoints saw");
	o = out_open(f, fmt);
	if (!o) {
		table_free(t);
		return vms_error("out of memory");
	}
	add_meta(o, g);
	rc = out_table(o, t);
	if (out_close(o) && !rc)
		rc = vms_error("cannot write the comparison to standard output");
	table_free(t);
	return rc;
}
