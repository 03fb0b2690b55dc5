// SPDX-License-Identifier: GPL-2.0
/*
 * u-compare-stats.c - the statistics behind `vmscope compare`'s significance
 * marker (analyze/compare-tdist.c, compare-stats.c) against values that do
 * not come from the code: closed forms of I_x(a, b) and of the t
 * distribution for 1 and 2 degrees of freedom, and the two-sided 5% and 1%
 * critical values of published t tables; a Welch test worked out by hand.
 */
#include <math.h>

#include "../../analyze/compare.h"
#include "tap.h"

static int near(double got, double want, double tol, const char *what)
{
	return ok(fabs(got - want) <= tol, "%s: got %.12g, want %.12g", what, got, want);
}

int main(void)
{
	struct cmp_stats a, b;

	/* I_x(a, b) of whole a, b: a binomial tail. I_0.5(2, 3) = (6 + 4 + 1) / 16 */
	near(cmp_incbeta(0.5, 2, 3), 11.0 / 16, 1e-12, "I_0.5(2,3) = 11/16");
	/* I_x(1, b) = 1 - (1 - x)^b */
	near(cmp_incbeta(0.3, 1, 4), 1 - pow(0.7, 4), 1e-12, "I_0.3(1,4)");
	/* I_x(a, 1) = x^a, on the other side of the symmetry switch */
	near(cmp_incbeta(0.9, 3, 1), pow(0.9, 3), 1e-12, "I_0.9(3,1)");
	ok(isnan(cmp_incbeta(1.5, 1, 1)), "I_x outside [0, 1] is NaN");
	/* ln Γ: Γ(5) = 24, Γ(0.5) = sqrt(pi) */
	near(cmp_lgamma(5), log(24), 1e-12, "lgamma(5)");
	near(cmp_lgamma(0.5), 0.5 * log(M_PI), 1e-12, "lgamma(0.5)");
	/* df 1 is Cauchy: F(1) = 1/2 + atan(1)/pi = 0.75 */
	near(cmp_t_cdf(1, 1), 0.75, 1e-12, "t cdf df 1 at 1");
	/* df 2: F(t) = 1/2 + t / (2 sqrt(2 + t^2)) */
	near(cmp_t_cdf(1, 2), 0.5 + 1 / (2 * sqrt(3)), 1e-12, "t cdf df 2 at 1");
	near(cmp_t_cdf(-3, 2), 0.5 - 3 / (2 * sqrt(11)), 1e-12, "t cdf df 2 at -3");
	/* t tables, two-sided 5%: t(4) = 2.776445, t(10) = 2.228139, t(30) = 2.042272 */
	near(cmp_t_cdf(2.776445, 4), 0.975, 1e-6, "t 0.975 quantile df 4");
	near(cmp_t_cdf(2.228139, 10), 0.975, 1e-6, "t 0.975 quantile df 10");
	near(cmp_t_cdf(2.042272, 30), 0.975, 1e-6, "t 0.975 quantile df 30");
	/* two-sided 1%: t(2) = 9.924843, t(5) = 4.032143 */
	near(cmp_t_cdf(9.924843, 2), 0.995, 1e-6, "t 0.995 quantile df 2");
	near(cmp_t_cdf(4.032143, 5), 0.995, 1e-6, "t 0.995 quantile df 5");
	/* a non-whole df (Welch): between its neighbours */
	ok(cmp_t_cdf(2.5, 3.5) > cmp_t_cdf(2.5, 3) && cmp_t_cdf(2.5, 3.5) < cmp_t_cdf(2.5, 4),
	   "t cdf of df 3.5 between df 3 and df 4");

	/* 1 2 3: mean 2, sd 1, cov 0.5; 4 5 9: mean 6, sd sqrt(7) */
	cmp_stats_of((const double[]){ 1, 2, 3 }, 3, &a);
	cmp_stats_of((const double[]){ 4, 5, 9 }, 3, &b);
	near(a.mean, 2, 1e-12, "mean");
	near(a.sd, 1, 1e-12, "sample sd");
	near(a.cov, 0.5, 1e-12, "cov");
	near(b.min, 4, 0, "min");
	near(b.max, 9, 0, "max");
	/*
	 * Welch by hand: va = 1/3, vb = 7/3, se2 = 8/3, t = 4 / sqrt(8/3) = 2.449490,
	 * df = (8/3)^2 / ((1/9)/2 + (49/9)/2) = (64/9) / (50/18) = 2.56;
	 * p = I_{df/(df+t^2)}(df/2, 1/2) = I_{2.56/8.56}(1.28, 0.5)
	 */
	near(cmp_welch_p(&a, &b), cmp_incbeta(2.56 / 8.56, 1.28, 0.5), 1e-9, "welch p");
	ok(cmp_welch_p(&a, &b) > 0.05 && cmp_welch_p(&a, &b) < 0.2, "welch p of 1 2 3 vs 4 5 9 is about 0.1");
	/* equal sides: p 1; one run a side: not testable */
	near(cmp_welch_p(&a, &a), 1, 1e-12, "same sides: p = 1");
	cmp_stats_of((const double[]){ 5 }, 1, &b);
	ok(cmp_welch_p(&a, &b) == -1, "one run: no test");
	cmp_stats_of((const double[]){ 7, 7 }, 2, &a);
	cmp_stats_of((const double[]){ 8, 8 }, 2, &b);
	near(cmp_welch_p(&a, &b), 0, 0, "no spread, different means: p = 0");
	return done_testing();
}
