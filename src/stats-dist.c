/* stats-dist: distribution functions and two-sample significance tests. */
#include "stats.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "util.h"

/* Euler's constant and log(sqrt(2 pi)). */
#define EULER_GAMMA 0.57721566490153286061
#define LN_SQRT_2PI 0.91893853320467274178
#define SQRT1_2	    0.70710678118654752440
/* Continued fractions stop when a step changes the value by less. */
#define CF_EPS	    1e-16
#define CF_MAX_ITER 1000000
/* Lentz's stand-in for a zero denominator. */
#define LENTZ_TINY 1e-300
/* Below this the log-gamma Stirling series is not used (see corr()). */
#define STIRLING_MIN 10.0
/* beta_asym() serves I_x(a, b) with a >= 50 and a >= 20 b. */
#define ASYM_MIN_LARGE 50.0
#define ASYM_RATIO     20.0
/* Above this df the t distribution is the normal one in doubles. */
#define T_NORMAL_DF 1e30
/* Exact Mann-Whitney distribution up to this many samples per side. */
#define MW_EXACT_MAX 50

/* Bernoulli numbers B_2, B_4, ..., B_20. */
static const double bernoulli[] = {
	1.0 / 6.0,	 -1.0 / 30.0,	    1.0 / 42.0, -1.0 / 30.0,
	5.0 / 66.0,	 -691.0 / 2730.0,   7.0 / 6.0,	-3617.0 / 510.0,
	43867.0 / 798.0, -174611.0 / 330.0,
};

/*
 * The remainder of Stirling's series, lgamma(x) - ((x - 0.5) log x - x +
 * log sqrt(2 pi)) = sum B_2k / (2k (2k - 1) x^(2k - 1)), k = 1 .. 8. For
 * x >= 10 the first omitted term is below 2e-18, so the sum is exact to
 * double precision there.
 */
static double corr(double x)
{
	double z = 1.0 / (x * x);
	double s = 0.0;

	for (int k = 8; k >= 1; k--)
		s = s * z + bernoulli[k - 1] / (2.0 * k * (2.0 * k - 1.0));
	return s / x;
}

/*
 * log Gamma(1 + z) for |z| <= 0.2 by its Taylor series,
 * -gamma z + sum_k>=2 (-1)^k zeta(k) z^k / k (Abramowitz and Stegun
 * 6.1.33); the terms past k = 24 are below 1e-18. It keeps the relative
 * accuracy near the zeros of log Gamma at 1 and 2.
 */
static double lgamma1p_series(double z)
{
	/* zeta(2), zeta(3), ..., zeta(24). */
	static const double zeta[] = {
		1.6449340668482264, 1.2020569031595943, 1.0823232337111382,
		1.0369277551433699, 1.0173430619844491, 1.0083492773819228,
		1.0040773561979443, 1.0020083928260822, 1.0009945751278181,
		1.0004941886041195, 1.0002460865533080, 1.0001227133475785,
		1.0000612481350587, 1.0000305882363070, 1.0000152822594087,
		1.0000076371976379, 1.0000038172932650, 1.0000019082127166,
		1.0000009539620339, 1.0000004769329868, 1.0000002384505027,
		1.0000001192199260, 1.0000000596081891,
	};
	double s = 0.0;

	/* zeta[i] is zeta(i + 2); Horner from the highest power down. */
	for (size_t i = ARRAY_SIZE(zeta); i-- > 0;)
		s = s * -z + zeta[i] / (double)(i + 2);
	return z * (-EULER_GAMMA + z * s);
}

double stats_lgamma(double x)
{
	double prod = 1.0;

	if (isnan(x) || x <= 0.0)
		return NAN;
	if (isinf(x))
		return x;
	if (x <= 0.2)
		return lgamma1p_series(x) - log(x);
	if (fabs(x - 1.0) <= 0.2)
		return lgamma1p_series(x - 1.0);
	if (fabs(x - 2.0) <= 0.2)
		return lgamma1p_series(x - 2.0) + log1p(x - 2.0);
	/* Gamma(x) = Gamma(x + n) / (x (x + 1) ... (x + n - 1)). */
	while (x < STIRLING_MIN) {
		prod *= x;
		x += 1.0;
	}
	return (x - 0.5) * log(x) - x + LN_SQRT_2PI + corr(x) - log(prod);
}

/*
 * log B(a, b). When the larger argument q is at least 10 the Stirling
 * forms of lgamma(q) and lgamma(p + q) are subtracted analytically, so
 * that large, nearly equal terms never cancel in floating point.
 */
static double lbeta(double a, double b)
{
	double p = a < b ? a : b;
	double q = a < b ? b : a;
	double r = p / (p + q);

	if (p >= STIRLING_MIN)
		return -0.5 * log(q) + LN_SQRT_2PI + corr(p) + corr(q) -
		       corr(p + q) + (p - 0.5) * log(r) + q * log1p(-r);
	if (q >= STIRLING_MIN)
		return stats_lgamma(p) + corr(q) - corr(p + q) +
		       (q - 0.5) * log1p(-r) - p * log(p + q) + p;
	return stats_lgamma(p) + stats_lgamma(q) - stats_lgamma(p + q);
}

/* u - log(1 + u) for u > -1, accurate also when u is small. */
static double log1pmx_neg(double u)
{
	double r, r2, term, s = 0.0;

	if (fabs(u) > 0.5)
		return u - log1p(u);
	/* log(1 + u) = 2 atanh(r) with r = u / (2 + u), a series in r^2. */
	r = u / (2.0 + u);
	r2 = r * r;
	term = r * r2;
	for (int k = 3; fabs(term) > 1e-20 * fabs(r * u); k += 2) {
		s += term / k;
		term *= r2;
	}
	return r * u - 2.0 * s;
}

/*
 * log(x^a y^b / B(a, b)) with y = 1 - x, given log x and log y. For a
 * and b both large this is computed as a deviation from the mode,
 * x0 = a / (a + b), in the style of Didonato and Morris (TOMS 708): the
 * terms a log(x / x0) and b log(y / y0) are large and nearly opposite,
 * so each is written as -a * (u - log(1 + u)), which never cancels.
 */
static double lbeta_front(double a, double b, double x, double y, double lx,
			  double ly)
{
	double x0, y0, u, v, dev;

	if (a < STIRLING_MIN || b < STIRLING_MIN)
		return a * lx + b * ly - lbeta(a, b);
	x0 = a / (a + b);
	y0 = b / (a + b);
	u = x < 0.5 ? (x - x0) / x0 : (y0 - y) / x0;
	v = x < 0.5 ? (x0 - x) / y0 : (y - y0) / y0;
	dev = 0.0;
	dev -= u < -0.5 ? a * (u - (lx - log(x0))) : a * log1pmx_neg(u);
	dev -= v < -0.5 ? b * (v - (ly - log(y0))) : b * log1pmx_neg(v);
	return dev + 0.5 * log(a * y0) - LN_SQRT_2PI - corr(a) - corr(b) +
	       corr(a + b);
}

/*
 * One step of the modified Lentz method for the continued fraction
 * b0 + a1 / (b1 + a2 / (b2 + ...)) (Lentz 1976, with Thompson and
 * Barnett's guard against zero denominators): updates the ratios c and
 * d for the next an, bn and returns the factor for the value.
 */
static double lentz_step(double an, double bn, double *c, double *d)
{
	*d = bn + an * *d;
	*c = bn + an / *c;
	*d = 1.0 / (fabs(*d) < LENTZ_TINY ? LENTZ_TINY : *d);
	if (fabs(*c) < LENTZ_TINY)
		*c = LENTZ_TINY;
	return *c * *d;
}

/*
 * The continued fraction for I_x(a, b) (Abramowitz and Stegun 26.5.8):
 * I_x(a, b) = x^a y^b / (a B(a, b)) * 1 / (1 + d1 / (1 + d2 / (1 + ...)))
 * with d(2m+1) = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)) and
 * d(2m) = m (b - m) x / ((a + 2m - 1)(a + 2m)). It converges fast for
 * x < (a + 1) / (a + b + 2). Returns NaN if it does not converge.
 */
static double beta_cf(double a, double b, double x, double y)
{
	/* 1 + d1 = (1 + a - (a + b) x) / (a + 1), without cancellation. */
	double den = x < 0.5 ? 1.0 - (a + b) * x / (a + 1.0)
			     : (1.0 + (a + b) * y - b) / (a + 1.0);
	/* The state after the first two steps, 0 + 1 / (1 + d1 / ...). */
	double c = 1.0, d = 1.0 / (fabs(den) < LENTZ_TINY ? LENTZ_TINY : den);
	double f = d;

	for (int m = 1; m <= CF_MAX_ITER; m++) {
		double even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		double odd = -(a + m) * (a + b + m) * x /
			     ((a + 2 * m) * (a + 2 * m + 1));
		double delta;

		f *= lentz_step(even, 1.0, &c, &d);
		delta = lentz_step(odd, 1.0, &c, &d);
		f *= delta;
		if (fabs(delta - 1.0) < CF_EPS)
			return f;
	}
	return NAN;
}

/*
 * z^s e^-z / Gamma(s). For s >= 10 the exponent is written as
 * -s (u - log(1 + u)) with u = z / s - 1, plus Stirling's series for
 * Gamma(s), so that s log z, z and lgamma(s) never cancel.
 */
static double gamma_front(double s, double z)
{
	double u;

	if (s < STIRLING_MIN)
		return exp(s * log(z) - z - stats_lgamma(s));
	u = (z - s) / s;
	u = u < -0.5 ? u - log(z / s) : log1pmx_neg(u);
	return exp(-s * u + 0.5 * log(s) - LN_SQRT_2PI - corr(s));
}

/*
 * P(s, z) by its series z^s e^-z / Gamma(s + 1) sum z^n / ((s + 1) ...
 * (s + n)) (Abramowitz and Stegun 6.5.29), all terms positive.
 */
static double gamma_p_series(double s, double z)
{
	double sum = 1.0, term = 1.0;

	for (int n = 1; n <= CF_MAX_ITER; n++) {
		term *= z / (s + n);
		sum += term;
		if (term <= CF_EPS * sum && z < s + n)
			break;
	}
	return gamma_front(s, z) / s * sum;
}

/*
 * Q(s, z) by Legendre's continued fraction (Abramowitz and Stegun
 * 6.5.31), z^s e^-z / Gamma(s) / (z + 1 - s - 1 (1 - s) / (z + 3 - s -
 * 2 (2 - s) / (z + 5 - s - ...))), with the modified Lentz method.
 */
static double gamma_q_cf(double s, double z)
{
	double b0 = z + 1.0 - s;
	double c = fabs(b0) < LENTZ_TINY ? LENTZ_TINY : b0, d = 0.0, f = c;

	for (int n = 1; n <= CF_MAX_ITER; n++) {
		double delta =
			lentz_step(-n * (n - s), z + 2 * n + 1 - s, &c, &d);

		f *= delta;
		if (fabs(delta - 1.0) < CF_EPS)
			return gamma_front(s, z) / f;
	}
	return NAN;
}

/*
 * Q(s, z) for s <= 0.2 and z < 0.25, where Q is 1 - P with P near 1:
 * from gamma(s, z) = sum (-1)^n z^(s + n) / (n! (s + n)),
 * Q = (1 - z^s / Gamma(s + 1)) + s z^s / Gamma(s + 1) sum_n>=1
 * (-1)^(n + 1) z^n / (n! (s + n)), two positive parts; the first is
 * -expm1(s log z - log Gamma(1 + s)), exact even for tiny s.
 */
static double gamma_q_small(double s, double z)
{
	double lead = s * log(z) - lgamma1p_series(s);
	double term = 1.0, sum = 0.0;

	for (int n = 1; n < 60; n++) {
		term *= -z / n;
		sum -= term / (s + n);
		if (fabs(term) < CF_EPS * fabs(sum))
			break;
	}
	return -expm1(lead) + s * exp(lead) * sum;
}

/*
 * The regularized incomplete gamma functions P(s, z) and Q(s, z) = 1 -
 * P(s, z), each to nearly full relative accuracy: the smaller of the
 * two is computed directly, by the series, the continued fraction or
 * gamma_q_small(), not as 1 minus the other (Q = 1 - P remains only for
 * s > 0.2 and z < 0.25, where Q > 0.5).
 */
static void gamma_pq(double s, double z, double *p, double *q)
{
	if (z <= 0.0) {
		*p = 0.0;
		*q = 1.0;
		return;
	}
	if (z < s + 1.0) {
		*p = gamma_p_series(s, z);
		/* The fraction loses accuracy itself for z below ~0.2. */
		if (*p > 0.5 && z >= 0.25)
			*q = gamma_q_cf(s, z);
		else if (*p > 0.5 && s <= 0.2)
			*q = gamma_q_small(s, z);
		else
			*q = 1.0 - *p;
	} else {
		*q = gamma_q_cf(s, z);
		*p = *q > 0.5 ? gamma_p_series(s, z) : 1.0 - *q;
	}
}

/*
 * I_x(a, b) and 1 - I_x(a, b) for large a and small b, x = e^-w with
 * 0 < w <= 1, by the expansion of Temme (1987) used in Didonato and
 * Morris's BGRAT (TOMS 708). Substituting x = e^-s in the beta integral
 * and factoring 1 - e^-s = e^(-s/2) s psi(s), with
 * psi(s) = sinh(s / 2) / (s / 2), gives
 *   I_x(a, b) = 1 / B(a, b) int_w^inf e^(-T s) s^(b - 1) psi(s)^(b - 1) ds
 * with T = a + (b - 1) / 2. Expanding psi(s)^(b - 1) = sum c_j s^(2j)
 * (log psi(s) = sum B_2j s^2j / (2j (2j)!)) integrates termwise to
 *   I_x(a, b) = Gamma(a + b) / (Gamma(a) T^b) sum c_j (b)_2j Q(b + 2j, Tw)
 * / T^2j, and the complement is the same sum with P for Q. The terms
 * fall like ((b + 2j) / (2 pi T))^2j and (w / 2 pi)^2j, so ten terms
 * reach double precision for T >= 40, b <= 5, w <= 1; for larger b it
 * returns false when the last term is not negligible. Both results are
 * sums of well-conditioned parts, which the continued fraction is not
 * when a / b is large and x is near the mean.
 */
static bool beta_asym(double a, double b, double w, double *lower,
		      double *upper)
{
	enum { NTERMS = ARRAY_SIZE(bernoulli) + 1 };
	double g[NTERMS], cj[NTERMS];
	double t = a + 0.5 * (b - 1.0), z = t * w, fact = 1.0;
	double p, q, r, lpref, sum_q = 0.0, sum_p = 0.0, scale = 1.0;
	double last_q = 0.0, last_p = 0.0;

	/* g: the series of (b - 1) log psi(s) in u = s^2; cj = exp(g). */
	g[0] = 0.0;
	for (int j = 1; j < NTERMS; j++) {
		fact *= (2.0 * j - 1.0) * (2.0 * j);
		g[j] = (b - 1.0) * bernoulli[j - 1] / (2.0 * j * fact);
	}
	cj[0] = 1.0;
	for (int k = 1; k < NTERMS; k++) {
		double s = 0.0;

		for (int i = 1; i <= k; i++)
			s += i * g[i] * cj[k - i];
		cj[k] = s / k;
	}

	/*
	 * Q(b + 2j, z) and P(b + 2j, z) from Q(b, z) and P(b, z) by
	 * Q(s + 1, z) = Q(s, z) + r(s), r(s) = z^s e^-z / Gamma(s + 1).
	 */
	gamma_pq(b, z, &p, &q);
	r = gamma_front(b, z) / b;
	for (int j = 0; j < NTERMS; j++) {
		double s = b + 2.0 * j;

		last_q = cj[j] * scale * q;
		last_p = cj[j] * scale * p;
		sum_q += last_q;
		sum_p += last_p;
		/* scale: (b)_2j / T^2j, then advance s by 2. */
		scale *= s * (s + 1.0) / (t * t);
		q += r;
		p -= r;
		r *= z / (s + 1.0);
		q += r;
		p -= r;
		r *= z / (s + 2.0);
	}

	/*
	 * log(Gamma(a + b) / (Gamma(a) T^b)) by Stirling's series, with
	 * the large terms of lgamma(a + b) - lgamma(a) cancelled by hand.
	 */
	lpref = b * log1p(0.5 * (b + 1.0) / t) + (a - 0.5) * log1p(b / a) - b +
		corr(a + b) - corr(a);
	*lower = exp(lpref) * sum_q;
	*upper = exp(lpref) * sum_p;
	return fabs(last_q) <= CF_EPS * fabs(sum_q) &&
	       fabs(last_p) <= CF_EPS * fabs(sum_p);
}

/* I_x(a, b) by the continued fraction, with its prefactor. */
static double betainc_cf(double a, double b, double x, double y, double lx,
			 double ly)
{
	return exp(lbeta_front(a, b, x, y, lx, ly)) * beta_cf(a, b, x, y) / a;
}

/*
 * I_x(a, b) for b < 1 by the power series
 * x^a / B(a, b) sum (1 - b)_n x^n / (n! (a + n)) (Abramowitz and Stegun
 * 26.5.4 with Euler's transformation), whose terms are all positive when
 * b < 1. Returns false when it would need too many terms.
 */
static bool beta_series(double a, double b, double x, double y, double lx,
			double *out)
{
	double c = 1.0, sum = 1.0 / a;

	for (int n = 1; n <= CF_MAX_ITER; n++) {
		double term;

		c *= (n - b) / n * x;
		term = c / (a + n);
		sum += term;
		/* The terms fall at least by x, so the rest is below this. */
		if (term * x < CF_EPS * sum * y) {
			*out = exp(a * lx - lbeta(a, b)) * sum;
			return true;
		}
	}
	return false;
}

/*
 * I_x(a, b) given x, y = 1 - x and their logarithms, each accurate to
 * full relative precision. beta_asym() serves a / b or b / a large near
 * the mean, where the continued fraction is ill-conditioned. Elsewhere
 * the continued fraction is used on the side of the mean where it
 * converges, with I_x(a, b) = 1 - I_y(b, a) above it (Numerical Recipes'
 * choice of side); if that difference loses more than a decimal digit
 * and b < 1, the positive power series gives the small value directly.
 */
static double betainc_xy(double a, double b, double x, double y, double lx,
			 double ly)
{
	double lower, upper, v;

	if (a >= ASYM_MIN_LARGE && a >= ASYM_RATIO * b && -lx <= 1.0 &&
	    beta_asym(a, b, -lx, &lower, &upper))
		return lower;
	if (b >= ASYM_MIN_LARGE && b >= ASYM_RATIO * a && -ly <= 1.0 &&
	    beta_asym(b, a, -ly, &lower, &upper))
		return upper;
	if (x <= (a + 1.0) / (a + b + 2.0))
		return betainc_cf(a, b, x, y, lx, ly);
	v = 1.0 - betainc_cf(b, a, y, x, ly, lx);
	if (v < 0.1 && b < 1.0 && beta_series(a, b, x, y, lx, &lower))
		return lower;
	return v;
}

double stats_betainc(double a, double b, double x)
{
	if (isnan(a) || isnan(b) || isnan(x) || a <= 0.0 || b <= 0.0 ||
	    x < 0.0 || x > 1.0)
		return NAN;
	if (x == 0.0 || x == 1.0)
		return x;
	return betainc_xy(a, b, x, 1.0 - x, log(x), log1p(-x));
}

/*
 * P(T > t) for t > 0: half of I_x(df / 2, 1 / 2) with x = df / (df + t^2).
 * x and y = t^2 / (df + t^2) are formed separately, and log x from y
 * when x is near 1, so that large df keeps full accuracy (log x times
 * df / 2 is the leading term of the tail). Above df = 1e30 the t and
 * normal tails differ by a relative O(t^4 / df), below 1e-24 wherever
 * the tail is a normal double.
 */
static double t_tail(double t, double df)
{
	double t2 = t * t, x, y, lx, ly;

	if (df > T_NORMAL_DF)
		return stats_norm_sf(t);
	if (t2 > 1e300) {
		/*
		 * x = df / t^2 < 1e-270 (or underflows), y = 1: only the
		 * first term of I_x(a, b) = x^a y^b / (a B(a, b)) (1 + O(x))
		 * is left.
		 */
		lx = log(df) - 2.0 * log(t);
		return 0.5 * exp(0.5 * df * lx - lbeta(0.5 * df, 0.5)) /
		       (0.5 * df);
	}
	x = df / (df + t2);
	y = t2 / (df + t2);
	lx = x < 0.5 ? log(x) : log1p(-y);
	ly = y < 0.5 ? log(y) : log1p(-x);
	return 0.5 * betainc_xy(0.5 * df, 0.5, x, y, lx, ly);
}

double stats_t_sf(double t, double df)
{
	if (isnan(t) || isnan(df) || df <= 0.0)
		return NAN;
	if (t == 0.0)
		return 0.5;
	if (isinf(t))
		return t > 0 ? 0.0 : 1.0;
	return t > 0 ? t_tail(t, df) : 1.0 - t_tail(-t, df);
}

double stats_t_cdf(double t, double df)
{
	return stats_t_sf(-t, df);
}

double stats_norm_sf(double z)
{
	return 0.5 * erfc(z * SQRT1_2);
}

/* Evaluate the polynomial c[0] + c[1] x + ... + c[n - 1] x^(n - 1). */
static double poly(const double *c, size_t n, double x)
{
	double s = 0.0;

	while (n-- > 0)
		s = s * x + c[n];
	return s;
}

/*
 * Wichura's algorithm AS 241 (PPND16, Applied Statistics 37(3), 1988):
 * rational approximations in three regions, relative accuracy about
 * 1e-16. q = p - 0.5; the tails use r = sqrt(-log(min(p, 1 - p))).
 */
double stats_norm_quantile(double p)
{
	static const double a[] = {
		3.3871328727963666080e0,  1.3314166789178437745e+2,
		1.9715909503065514427e+3, 1.3731693765509461125e+4,
		4.5921953931549871457e+4, 6.7265770927008700853e+4,
		3.3430575583588128105e+4, 2.5090809287301226727e+3,
	};
	static const double b[] = {
		1.0,
		4.2313330701600911252e+1,
		6.8718700749205790830e+2,
		5.3941960214247511077e+3,
		2.1213794301586595867e+4,
		3.9307895800092710610e+4,
		2.8729085735721942674e+4,
		5.2264952788528545610e+3,
	};
	static const double c[] = {
		1.42343711074968357734e0,  4.63033784615654529590e0,
		5.76949722146069140550e0,  3.64784832476320460504e0,
		1.27045825245236838258e0,  2.41780725177450611770e-1,
		2.27238449892691845833e-2, 7.74545014278341407640e-4,
	};
	static const double d[] = {
		1.0,
		2.05319162663775882187e0,
		1.67638483018380384940e0,
		6.89767334985100004550e-1,
		1.48103976427480074590e-1,
		1.51986665636164571966e-2,
		5.47593808499534494600e-4,
		1.05075007164441684324e-9,
	};
	static const double e[] = {
		6.65790464350110377720e0,  5.46378491116411436990e0,
		1.78482653991729133580e0,  2.96560571828504891230e-1,
		2.65321895265761230930e-2, 1.24266094738807843860e-3,
		2.71155556874348757815e-5, 2.01033439929228813265e-7,
	};
	static const double f[] = {
		1.0,
		5.99832206555887937690e-1,
		1.36929880922735805310e-1,
		1.48753612908506148525e-2,
		7.86869131145613259100e-4,
		1.84631831751005468180e-5,
		1.42151175831644588870e-7,
		2.04426310338993978564e-15,
	};
	double q, r, z;

	if (isnan(p) || p < 0.0 || p > 1.0)
		return NAN;
	if (p == 0.0 || p == 1.0)
		return p == 0.0 ? -INFINITY : INFINITY;
	q = p - 0.5;
	if (fabs(q) <= 0.425) {
		r = 0.180625 - q * q;
		return q * poly(a, ARRAY_SIZE(a), r) /
		       poly(b, ARRAY_SIZE(b), r);
	}
	r = sqrt(-log(q < 0.0 ? p : 1.0 - p));
	if (r <= 5.0) {
		r -= 1.6;
		z = poly(c, ARRAY_SIZE(c), r) / poly(d, ARRAY_SIZE(d), r);
	} else {
		r -= 5.0;
		z = poly(e, ARRAY_SIZE(e), r) / poly(f, ARRAY_SIZE(f), r);
	}
	return q < 0.0 ? -z : z;
}

/*
 * The density of Student's t: (1 + t^2 / df)^-((df + 1) / 2) / (sqrt(df)
 * B), lb = log B(df / 2, 1 / 2), which t_isf_upper() computes once.
 */
static double t_pdf(double t, double df, double lb)
{
	return exp(-0.5 * (df + 1.0) * log1p(t * t / df) - 0.5 * log(df) - lb);
}

/*
 * A start for t_isf_upper(): the Cornish-Fisher expansion of the t
 * quantile in the normal one z, to 1/df^4 (Abramowitz and Stegun
 * 26.7.5), within about 1e-4 of it for df >= 3 at the usual levels; z
 * itself where the series does not hold (df < 1) or gives no positive t.
 */
static double t_isf_start(double z, double df)
{
	double z2 = z * z, g1, g2, g3, g4, t;

	if (df < 1.0)
		return fmax(1.0, z);
	g1 = z * (z2 + 1.0) / 4.0;
	g2 = z * ((5.0 * z2 + 16.0) * z2 + 3.0) / 96.0;
	g3 = z * (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) / 384.0;
	g4 = z *
	     ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 -
	      945.0) /
	     92160.0;
	t = z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df;
	return t > 0.0 && isfinite(t) ? t : fmax(1.0, z);
}

/*
 * The t with P(T > t) = q for q <= 1/2: Newton's method on
 * stats_t_sf(t) - q from t_isf_start(), kept inside a bracket [lo, hi]
 * that every step narrows; a step that would leave it bisects instead
 * (geometrically when the bracket spans decades, as far in the tails of
 * small df), and doubles t while no t above the root is known. It
 * ends at a step within the sf's rounding: from a close start, three
 * or four evaluations of the sf.
 */
static double t_isf_upper(double q, double df)
{
	double lo = 0.0, hi = INFINITY, t, lb;

	if (q == 0.5)
		return 0.0;
	lb = lbeta(0.5 * df, 0.5);
	t = t_isf_start(-stats_norm_quantile(q), df);
	for (int it = 0; it < 400; it++) {
		double f = stats_t_sf(t, df) - q, next;

		if (f == 0.0)
			return t;
		if (f > 0.0)
			lo = t;
		else
			hi = t;
		next = t + f / t_pdf(t, df, lb);
		/* A step within the sf's rounding: t is the root. */
		if (fabs(next - t) <= 4e-16 * t)
			return next;
		if (!(next > lo && next < hi)) {
			if (isinf(hi))
				next = 2.0 * t;
			else
				next = lo > 0.0 && hi > 4.0 * lo
					       ? sqrt(lo * hi)
					       : 0.5 * (lo + hi);
		}
		if (isinf(next))
			return INFINITY;
		if (next == lo || next == hi)
			return next;
		t = next;
	}
	return t;
}

double stats_t_isf(double q, double df)
{
	if (isnan(q) || isnan(df) || df <= 0.0 || q <= 0.0 || q >= 1.0)
		return NAN;
	if (df > T_NORMAL_DF)
		return -stats_norm_quantile(q);
	return q <= 0.5 ? t_isf_upper(q, df) : -t_isf_upper(1.0 - q, df);
}

/* Lenth's AS 243 stops when its error bound falls below this. */
#define NCT_ERRMAX 1e-12
#define NCT_ITRMAX 1000
#define SQRT_2_PI  0.79788456080286535588 /* sqrt(2 / pi) */
/*
 * Above this df, or where e^(-ncp^2 / 2) would underflow (ncp^2 >
 * 2 log(2) 1021, as in R), AS 243 gives way to a normal approximation.
 */
#define NCT_NORMAL_DF  4e5
#define NCT_NORMAL_DEL (2.0 * 0.69314718055994530942 * 1021.0)

void stats_nct_prepare(double t, double df, struct stats_nct_prep *pp)
{
	double x, rxb, a, b, albeta, tnc;

	pp->t = t;
	pp->df = df;
	pp->x = NAN;
	if (!(t >= 0.0) || !(df > 0.0) || df > NCT_NORMAL_DF || isinf(t))
		return;
	x = t * t;
	rxb = df / (x + df); /* 1 - x below, without cancellation */
	x = x / (x + df);
	pp->x = x;
	if (x <= 0.0)
		return;
	a = 0.5;
	b = 0.5 * df;
	rxb = pow(rxb, b);
	albeta = lbeta(a, b); /* log(sqrt(pi) Gamma(b) / Gamma(b + 1/2)) */
	pp->xodd = stats_betainc(a, b, x);
	pp->godd = 2.0 * rxb * exp(a * log(x) - albeta);
	tnc = b * x;
	pp->xeven = tnc < DBL_EPSILON ? tnc : 1.0 - rxb;
	pp->geven = tnc * rxb;
}

/* nct_lower_pos() of a prepared t, pp->x not NaN. */
static double nct_lower_prep(const struct stats_nct_prep *pp, double del)
{
	double x = pp->x, lambda, p, q, s, a, b, xodd, xeven, godd, geven;
	double tnc;

	if (del * del > NCT_NORMAL_DEL) {
		/* Abramowitz and Stegun 26.7.10. */
		double k = 1.0 / (4.0 * pp->df);

		return stats_norm_sf(-(pp->t * (1.0 - k) - del) /
				     sqrt(1.0 + pp->t * pp->t * 2.0 * k));
	}
	if (x <= 0.0)
		return stats_norm_sf(del);
	lambda = del * del;
	p = 0.5 * exp(-0.5 * lambda);
	if (p == 0.0)
		return 0.0;
	q = SQRT_2_PI * p * del;
	s = 0.5 - p;
	if (s < 1e-7)
		s = -0.5 * expm1(-0.5 * lambda);
	a = 0.5;
	b = 0.5 * pp->df;
	xodd = pp->xodd;
	godd = pp->godd;
	xeven = pp->xeven;
	geven = pp->geven;
	tnc = p * xodd + q * xeven;
	for (int it = 1; it <= NCT_ITRMAX; it++) {
		a += 1.0;
		xodd -= godd;
		xeven -= geven;
		godd *= x * (a + b - 1.0) / a;
		geven *= x * (a + b - 0.5) / (a + 0.5);
		p *= lambda / (2.0 * it);
		q *= lambda / (2.0 * it + 1.0);
		tnc += p * xodd + q * xeven;
		s -= p;
		/* s below 0 is rounding: the Poisson mass is used up. */
		if (s < -1e-10 || (s <= 0.0 && it > 1))
			break;
		if (fabs(2.0 * s * (xodd - godd)) < NCT_ERRMAX)
			break;
	}
	tnc += stats_norm_sf(del);
	return fmin(tnc, 1.0);
}

/*
 * P(T <= t) for t >= 0 with noncentrality del: Lenth's algorithm AS 243
 * (R. V. Lenth, "Cumulative distribution function of the non-central t
 * distribution", Applied Statistics 38(1), 1989), the series of
 * Guenther (1978) that R's pnt() also uses:
 * P = Phi(-del) + sum_j (p_j I_x(j + 1/2, df/2) + q_j I_x(j + 1, df/2)) / 2
 * with x = t^2 / (t^2 + df), Poisson weights p_j = e^(-del^2/2)
 * (del^2/2)^j / j! and q_j = del / sqrt(2) e^(-del^2/2) (del^2/2)^j /
 * Gamma(j + 3/2), the incomplete betas advanced by recurrence. It stops
 * when the bound 2 s (I_x - g) on the rest, s the Poisson mass left, is
 * below 1e-12.
 */
static double nct_lower_pos(double t, double df, double del)
{
	struct stats_nct_prep pp;

	if (df > NCT_NORMAL_DF || del * del > NCT_NORMAL_DEL) {
		/* Abramowitz and Stegun 26.7.10. */
		double k = 1.0 / (4.0 * df);

		return stats_norm_sf(-(t * (1.0 - k) - del) /
				     sqrt(1.0 + t * t * 2.0 * k));
	}
	stats_nct_prepare(t, df, &pp);
	return nct_lower_prep(&pp, del);
}

/* P(T <= t) for either sign of t, or its complement when upper. */
static double nct_tail(double t, double df, double ncp, bool upper)
{
	bool neg = t < 0.0;
	double v;

	if (isnan(t) || isnan(df) || isnan(ncp) || df <= 0.0)
		return NAN;
	if (ncp == 0.0)
		return upper ? stats_t_sf(t, df) : stats_t_cdf(t, df);
	if (isinf(t))
		return (t < 0.0) != upper ? 0.0 : 1.0;
	/* P(T <= t | ncp) = 1 - P(T <= -t | -ncp) for t < 0. */
	v = neg ? nct_lower_pos(-t, df, -ncp) : nct_lower_pos(t, df, ncp);
	return upper != neg ? 1.0 - v : v;
}

double stats_nct_tail_prep(const struct stats_nct_prep *pp, bool neg,
			   double ncp, bool upper)
{
	double v;

	if (isnan(pp->x) || isnan(ncp))
		return nct_tail(neg ? -pp->t : pp->t, pp->df, ncp, upper);
	if (ncp == 0.0)
		return upper ? stats_t_sf(neg ? -pp->t : pp->t, pp->df)
			     : stats_t_cdf(neg ? -pp->t : pp->t, pp->df);
	/* As nct_tail(): P(T <= -t | ncp) = 1 - P(T <= t | -ncp). */
	v = nct_lower_prep(pp, neg ? -ncp : ncp);
	return upper != neg ? 1.0 - v : v;
}

double stats_nct_cdf(double t, double df, double ncp)
{
	return nct_tail(t, df, ncp, false);
}

double stats_nct_sf(double t, double df, double ncp)
{
	return nct_tail(t, df, ncp, true);
}

/* Whether all n values are finite; tests reject NaN and infinities. */
static bool all_finite(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return false;
	return true;
}

/*
 * The mean of x - shift and the sample variance (n - 1) of n >= 2 values
 * by the corrected two-pass algorithm (Chan, Golub and LeVeque): the sum
 * of deviations from the first-pass mean, comp, corrects both the mean
 * and the sum of squares for the rounding of that mean. A common shift
 * keeps the difference of two means exact when both are large.
 */
static void mean_var(const double *x, size_t n, double shift, double *mean,
		     double *var)
{
	double s = 0.0, ss = 0.0, comp = 0.0, m;

	for (size_t i = 0; i < n; i++)
		s += x[i] - shift;
	m = s / (double)n;
	for (size_t i = 0; i < n; i++) {
		double dx = (x[i] - shift) - m;

		ss += dx * dx;
		comp += dx;
	}
	*mean = m + comp / (double)n;
	*var = (ss - comp * comp / (double)n) / (double)(n - 1);
}

static void test_invalid(struct stats_test *out)
{
	out->valid = false;
	out->statistic = NAN;
	out->df = NAN;
	out->p = NAN;
}

/*
 * Welch's t-test from the means and sample variances: t = (ma - mb) /
 * sqrt(va / na + vb / nb) with the Welch-Satterthwaite degrees of freedom
 * (va / na + vb / nb)^2 / ((va / na)^2 / (na - 1) + (vb / nb)^2 / (nb - 1)).
 * With both variances 0 the statistic is +-inf (or NaN for equal means)
 * and df is NaN.
 */
static void welch_from_moments(double ma, double va, size_t na, double mb,
			       double vb, size_t nb, struct stats_test *out)
{
	double sa = va / (double)na, sb = vb / (double)nb, se2 = sa + sb;

	out->valid = true;
	if (se2 == 0.0) {
		if (ma == mb)
			out->statistic = NAN;
		else
			out->statistic = ma > mb ? INFINITY : -INFINITY;
		out->df = NAN;
		out->p = ma == mb ? 1.0 : 0.0;
		return;
	}
	out->statistic = (ma - mb) / sqrt(se2);
	out->df = se2 * se2 /
		  (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
	out->p = 2.0 * stats_t_sf(fabs(out->statistic), out->df);
	if (out->p > 1.0)
		out->p = 1.0;
}

void stats_welch(const double *a, size_t na, const double *b, size_t nb,
		 struct stats_test *out)
{
	double ma, va, mb, vb;

	if (na < 2 || nb < 2 || !all_finite(a, na) || !all_finite(b, nb)) {
		test_invalid(out);
		return;
	}
	mean_var(a, na, a[0], &ma, &va);
	mean_var(b, nb, a[0], &mb, &vb);
	welch_from_moments(ma, va, na, mb, vb, nb, out);
}

/* Whether any value is NaN, and whether any is infinite. */
static void scan_values(const double *x, size_t n, bool *nan, bool *inf)
{
	for (size_t i = 0; i < n; i++) {
		*nan |= isnan(x[i]);
		*inf |= isinf(x[i]);
	}
}

/* max |x| over both arrays, all finite. */
static double max_abs(const double *a, size_t na, const double *b, size_t nb)
{
	double m = 0.0;

	for (size_t i = 0; i < na; i++)
		m = fmax(m, fabs(a[i]));
	for (size_t i = 0; i < nb; i++)
		m = fmax(m, fabs(b[i]));
	return m;
}

/* The scaled copy x / scale, which the caller frees. */
static double *scaled_copy(const double *x, size_t n, double scale)
{
	double *y = xmalloc((n ? n : 1) * sizeof(*y));

	for (size_t i = 0; i < n; i++)
		y[i] = x[i] / scale;
	return y;
}

void stats_welch_untested(struct stats_welch_units *out,
			  enum stats_untested why)
{
	out->untested = why;
	out->scale = out->mean_a = out->mean_b = NAN;
	out->var_a = out->var_b = out->t = out->df = out->p = NAN;
	out->constant = false;
}

void stats_welch_fill(const double *a, size_t na, const double *b, size_t nb,
		      struct stats_welch_units *out)
{
	struct stats_test t;
	double shift = a[0];

	out->na = na;
	out->nb = nb;
	mean_var(a, na, shift, &out->mean_a, &out->var_a);
	mean_var(b, nb, shift, &out->mean_b, &out->var_b);
	welch_from_moments(out->mean_a, out->var_a, na, out->mean_b, out->var_b,
			   nb, &t);
	/* The ratio and the change need the means whole. */
	out->mean_a += shift;
	out->mean_b += shift;
	out->untested = STATS_TESTED;
	out->constant = out->var_a == 0.0 && out->var_b == 0.0;
	out->t = t.statistic;
	out->df = t.df;
	out->p = t.p;
	if (!out->constant &&
	    (!isfinite(t.statistic) || !isfinite(t.df) || isnan(t.p)))
		stats_welch_untested(out, STATS_UNTESTED_DEGENERATE);
}

void stats_welch_units(const double *a, size_t na, const double *b, size_t nb,
		       struct stats_welch_units *out)
{
	bool nan = false, inf = false;
	double *sa, *sb, scale;

	out->na = na;
	out->nb = nb;
	out->log_scale = false;
	scan_values(a, na, &nan, &inf);
	scan_values(b, nb, &nan, &inf);
	if (!na || !nb) {
		stats_welch_untested(out, STATS_UNTESTED_NO_SAMPLES);
		return;
	}
	if (nan || inf) {
		stats_welch_untested(out, nan ? STATS_UNTESTED_UNDEFINED_MEAN
					      : STATS_UNTESTED_NONFINITE);
		return;
	}
	if (na < 2 || nb < 2) {
		stats_welch_untested(out, STATS_UNTESTED_FEW_UNITS);
		return;
	}
	/* A t-test is scale-free; dividing by max |u| keeps u^2 normal. */
	scale = max_abs(a, na, b, nb);
	if (scale == 0.0)
		scale = 1.0;
	sa = scaled_copy(a, na, scale);
	sb = scaled_copy(b, nb, scale);
	stats_welch_fill(sa, na, sb, nb, out);
	if (out->untested == STATS_TESTED)
		out->scale = scale;
	free(sa);
	free(sb);
}

/* One pooled observation: its value and which sample it came from. */
struct mw_obs {
	double value;
	bool first;
};

static int mw_obs_cmp(const void *pa, const void *pb)
{
	const struct mw_obs *a = pa, *b = pb;

	return (a->value > b->value) - (a->value < b->value);
}

/*
 * P(U <= u) for the Mann-Whitney U of samples of sizes m and n without
 * ties. The number of ways to reach U = v is the number of partitions
 * of v into at most m parts each at most n (the Gaussian binomial
 * coefficient); it is counted by adding the pooled ranks one at a time,
 * using only additions, so the counts stay accurate in doubles.
 */
static double mw_exact_cdf(size_t m, size_t n, size_t u)
{
	size_t umax = m * n, cols = umax + 1;
	double *ways, below = 0.0, total = 0.0;

	if (m > n) {
		size_t t = m;

		m = n;
		n = t;
	}
	/*
	 * ways[k * cols + v]: choices of k of the ranks seen so far whose
	 * U contribution (rank sum minus k (k + 1) / 2) is v. Choosing rank
	 * r as the k-th smallest adds r - k; v never exceeds k (r - k).
	 */
	ways = xcalloc((m + 1) * cols, sizeof(*ways));
	ways[0] = 1.0;
	for (size_t r = 1; r <= m + n; r++) {
		size_t kmax = r < m ? r : m;

		for (size_t k = kmax; k >= 1; k--) {
			size_t shift = r - k, vmax = k * shift;
			double *dst = ways + k * cols;
			const double *src = ways + (k - 1) * cols;

			if (vmax > umax)
				vmax = umax;
			for (size_t v = vmax + 1; v-- > shift;)
				dst[v] += src[v - shift];
		}
	}
	for (size_t v = 0; v <= umax; v++) {
		total += ways[m * cols + v];
		if (v <= u)
			below += ways[m * cols + v];
	}
	free(ways);
	return below / total;
}

/*
 * The Mann-Whitney U test (Wilcoxon rank-sum), U = R1 - na (na + 1) / 2
 * with midranks R1 of the first sample. Without ties and with at most 50
 * samples a side, p = min(1, 2 min(P(U <= u), P(U >= u))) from the exact
 * distribution. Otherwise the normal approximation with the tie
 * correction of the variance, mn / 12 ((N + 1) - sum(t^3 - t) /
 * (N (N - 1))), and a continuity correction of 0.5, as R's
 * wilcox.test(correct = TRUE).
 */
void stats_mannwhitney(const double *a, size_t na, const double *b, size_t nb,
		       struct stats_test *out)
{
	size_t n = na + nb, i = 0;
	struct mw_obs *obs;
	double r1 = 0.0, ties = 0.0, u, mn;
	bool tied = false;

	if (na < 1 || nb < 1 || !all_finite(a, na) || !all_finite(b, nb)) {
		test_invalid(out);
		return;
	}
	obs = xmalloc(n * sizeof(*obs));
	for (size_t j = 0; j < na; j++)
		obs[j] = (struct mw_obs){a[j], true};
	for (size_t j = 0; j < nb; j++)
		obs[na + j] = (struct mw_obs){b[j], false};
	qsort(obs, n, sizeof(*obs), mw_obs_cmp);
	while (i < n) {
		size_t j = i + 1;
		double t, midrank;

		while (j < n && obs[j].value == obs[i].value)
			j++;
		/* Ranks i + 1 .. j share their mean. */
		midrank = 0.5 * (double)(i + 1 + j);
		for (size_t k = i; k < j; k++)
			if (obs[k].first)
				r1 += midrank;
		t = (double)(j - i);
		ties += t * t * t - t;
		tied |= j - i > 1;
		i = j;
	}
	free(obs);

	mn = (double)na * (double)nb;
	u = r1 - 0.5 * (double)na * (double)(na + 1);
	out->valid = true;
	out->statistic = u;
	out->df = NAN;
	if (!tied && na <= MW_EXACT_MAX && nb <= MW_EXACT_MAX) {
		/* P(U >= u) = P(U <= mn - u): the distribution is symmetric. */
		double lo = u <= mn - u ? u : mn - u;

		out->p = 2.0 * mw_exact_cdf(na, nb, (size_t)lo);
	} else {
		double sigma = sqrt(mn / 12.0 *
				    ((double)(n + 1) -
				     ties / ((double)n * (double)(n - 1))));
		double z = u - 0.5 * mn;

		if (sigma == 0.0) {
			out->p = 1.0;
			return;
		}
		z = (fabs(z) - (z == 0.0 ? 0.0 : 0.5)) / sigma;
		out->p = 2.0 * stats_norm_sf(fabs(z));
	}
	if (out->p > 1.0)
		out->p = 1.0;
}

/*
 * Benjamini and Hochberg (1995) step-up: with the m non-NaN p-values in
 * ascending order p(1) <= ... <= p(m), find the largest k with
 * m / k * p(k) <= alpha (the form of R's p.adjust) and reject the
 * hypotheses with p <= p(k).
 */
void stats_bh(const double *p, size_t n, double alpha, bool *reject)
{
	double *adj = xmalloc((n ? n : 1) * sizeof(*adj));

	/* adj <= alpha exactly when p <= p(k) for the largest such k. */
	stats_bh_adjust(p, n, adj);
	for (size_t i = 0; i < n; i++)
		reject[i] = !isnan(adj[i]) && adj[i] <= alpha;
	free(adj);
}
