// SPDX-License-Identifier: GPL-2.0
/*
 * compare-tdist.c - Student's t distribution for the significance marker of
 * `vmscope compare` (Welch's t-test, compare-stats.c).
 *
 * How it works: for t distributed with df degrees of freedom,
 *   P(|T| > |t|) = I_x(df/2, 1/2)  with x = df / (df + t^2),
 * where I_x(a, b) is the regularized incomplete beta function. I_x is
 * evaluated with its continued fraction (Abramowitz & Stegun 26.5.8)
 * by the modified Lentz method, on the side of the symmetry
 * I_x(a, b) = 1 - I_{1-x}(b, a) where the fraction converges quickly
 * (x < (a + 1) / (a + b + 2)). ln Γ is the Lanczos approximation (g = 7,
 * 9 terms), good to about 1e-15 relative for x > 0.
 * tests/unit/u-compare-stats.c checks values from published tables.
 */
#include <math.h>

#include "compare.h"

double cmp_lgamma(double x)
{
	static const double c[9] = {
		0.99999999999980993, 676.5203681218851, -1259.1392167224028,
		771.32342877765313, -176.61502916214059, 12.507343278686905,
		-0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
	};
	double sum, t;
	int i;

	if (x < 0.5)	/* reflection: Γ(x) Γ(1 - x) = π / sin(πx) */
		return log(M_PI / fabs(sin(M_PI * x))) - cmp_lgamma(1 - x);
	x -= 1;
	sum = c[0];
	for (i = 1; i < 9; i++)
		sum += c[i] / (x + i);
	t = x + 7.5;
	return 0.5 * log(2 * M_PI) + (x + 0.5) * log(t) - t + log(sum);
}

/* One term of the modified Lentz method: update c and d by @num, return the factor of f. */
static double lentz_step(double *c, double *d, double num)
{
	const double tiny = 1e-300;

	*d = 1 + num * *d;
	*c = 1 + num / *c;
	if (fabs(*d) < tiny)
		*d = tiny;
	if (fabs(*c) < tiny)
		*c = tiny;
	*d = 1 / *d;
	return *c * *d;
}

/* The continued fraction of I_x(a, b) (without its prefactor), modified Lentz. */
static double beta_fraction(double x, double a, double b)
{
	double c = 1, d = 1 - (a + b) * x / (a + 1), f;
	int m;

	if (fabs(d) < 1e-300)
		d = 1e-300;
	d = 1 / d;
	f = d;
	for (m = 1; m <= 500; m++) {
		double delta;

		/* the even term d_2m, then the odd term d_2m+1 */
		f *= lentz_step(&c, &d, m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)));
		delta = lentz_step(&c, &d, -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)));
		f *= delta;
		if (fabs(delta - 1) < 1e-15)
			break;
	}
	return f;
}

double cmp_incbeta(double x, double a, double b)
{
	double front;

	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	front = exp(cmp_lgamma(a + b) - cmp_lgamma(a) - cmp_lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(x, a, b) / a;
	return 1 - front * beta_fraction(1 - x, b, a) / b;
}

double cmp_t_cdf(double t, double df)
{
	double tail;

	if (!(df > 0) || isnan(t))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	tail = 0.5 * cmp_incbeta(df / (df + t * t), df / 2, 0.5);	/* P(T > |t|) */
	return t > 0 ? 1 - tail : tail;
}
