// SPDX-License-Identifier: GPL-2.0
/*
 * compare-stats.c - the statistics of one side of `vmscope compare` (mean,
 * sample standard deviation, coefficient of variation, min, max over its
 * runs) and Welch's unequal-variances t-test between the two sides, whose
 * two-sided p value makes the significance marker:
 *   t  = (mean_B - mean_A) / sqrt(sd_A^2 / n_A + sd_B^2 / n_B)
 *   df = (sd_A^2/n_A + sd_B^2/n_B)^2 /
 *        ((sd_A^2/n_A)^2 / (n_A - 1) + (sd_B^2/n_B)^2 / (n_B - 1))   (Welch-Satterthwaite)
 *   p  = 2 * P(T_df > |t|)
 */
#include <math.h>

#include "compare.h"

void cmp_stats_of(const double *v, int n, struct cmp_stats *s)
{
	double sum = 0, ss = 0;
	int i;

	s->n = n;
	s->mean = s->sd = s->cov = s->min = s->max = 0;
	if (!n)
		return;
	s->min = s->max = v[0];
	for (i = 0; i < n; i++) {
		sum += v[i];
		if (v[i] < s->min)
			s->min = v[i];
		if (v[i] > s->max)
			s->max = v[i];
	}
	s->mean = sum / n;
	for (i = 0; i < n; i++)
		ss += (v[i] - s->mean) * (v[i] - s->mean);
	s->sd = n > 1 ? sqrt(ss / (n - 1)) : 0;
	s->cov = s->mean != 0 ? s->sd / fabs(s->mean) : 0;
}

double cmp_welch_p(const struct cmp_stats *a, const struct cmp_stats *b)
{
	double va, vb, se2, t, df;

	if (a->n < 2 || b->n < 2)
		return -1;
	va = a->sd * a->sd / a->n;
	vb = b->sd * b->sd / b->n;
	se2 = va + vb;
	if (se2 == 0)
		return a->mean == b->mean ? 1 : 0;
	t = (b->mean - a->mean) / sqrt(se2);
	df = se2 * se2 / (va * va / (a->n - 1) + vb * vb / (b->n - 1));
	return 2 * (1 - cmp_t_cdf(fabs(t), df));
}
