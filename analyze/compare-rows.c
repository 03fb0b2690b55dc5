// SPDX-License-Identifier: GPL-2.0
/*
 * compare-rows.c - the rows of `vmscope compare ... --vs ...`: for every
 * metric any run has (keyed by its full label, in the order the runs give
 * them), each side's statistics over the runs that can give it (compare-
 * stats.c), the change of the means, 100 * (mean_B - mean_A) / mean_A, and
 * Welch's two-sided p value against the level. With --rates a total is
 * divided by the seconds it covers in its own run before the statistics.
 */
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "compare.h"

static int find_row(const struct cmp_groups *g, const char *key)
{
	for (int i = 0; i < g->nrow; i++)
		if (!strcmp(g->row[i].key, key))
			return i;
	return -1;
}

/* Rows for every key of every run, the first run's value giving the row's kind. */
static int collect_keys(struct cmp_groups *g)
{
	int alloc = 0;

	for (int s = 0; s < 2; s++)
		for (int k = 0; k < g->nrun[s]; k++) {
			const struct cmp_run *r = &g->run[s][k];

			for (int i = 0; i < r->n; i++) {
				const struct cmp_value *v = &r->val[i];
				struct cmp_row *row;

				if (find_row(g, v->key) >= 0)
					continue;
				if (vms_array_reserve(&g->row, &alloc, g->nrow, 64, sizeof(*g->row)))
					return -1;
				row = &g->row[g->nrow++];
				memset(row, 0, sizeof(*row));
				row->key = v->key;
				row->brief = v->brief;
				row->order = v->order;
				row->unit_name = v->unit_name;
				row->unit = v->unit;
				row->scope = v->scope;
				row->lower_is_better = v->lower_is_better;
				row->rate = g->rates && v->unit == CMP_COUNT;
			}
		}
	return 0;
}

static const struct cmp_value *value_of(const struct cmp_run *r, const char *key)
{
	for (int i = 0; i < r->n; i++)
		if (!strcmp(r->val[i].key, key))
			return &r->val[i];
	return NULL;
}

static void fill_row(struct cmp_groups *g, struct cmp_row *row, double *buf)
{
	int zero = 1;

	for (int s = 0; s < 2; s++) {
		int n = 0;

		for (int k = 0; k < g->nrun[s]; k++) {
			const struct cmp_value *v = value_of(&g->run[s][k], row->key);

			if (!v || !v->have) {
				if (v && v->undefined && !row->undefined)
					row->undefined = v->undefined;
				continue;
			}
			if (row->rate && !(v->span > 0))
				continue;
			buf[n] = row->rate ? v->v / v->span : v->v;
			zero = zero && buf[n] == 0;
			n++;
		}
		cmp_stats_of(buf, n, &row->side[s]);
	}
	row->all_zero = zero;
	row->has_change = row->side[0].n && row->side[1].n && row->side[0].mean != 0;
	row->change = row->has_change ?
		      100 * (row->side[1].mean - row->side[0].mean) / row->side[0].mean : 0;
	row->p = row->side[0].n && row->side[1].n ? cmp_welch_p(&row->side[0], &row->side[1]) : -1;
	row->significant = row->p >= 0 && row->p < g->alpha;
}

int cmp_rows_build(struct cmp_groups *g)
{
	double *buf = malloc(sizeof(*buf) * (g->nrun[0] > g->nrun[1] ? g->nrun[0] : g->nrun[1]));

	if (!buf)
		return vms_error("out of memory");
	if (collect_keys(g)) {
		free(buf);
		return -1;
	}
	for (int i = 0; i < g->nrow; i++)
		fill_row(g, &g->row[i], buf);
	free(buf);
	return 0;
}

void cmp_rows_release(struct cmp_groups *g)
{
	free(g->row);
	g->row = NULL;
	g->nrow = 0;
}
