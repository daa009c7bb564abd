#ifndef MMCMP_STATS_H
#define MMCMP_STATS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * stats: pure numerical functions, no allocation visible to callers, no
 * state. Undefined results are NaN, never 0, unless a function documents
 * an mmtests convention that says otherwise.
 */

/*
 * The summary rows of an mmtests "Multiops" table, computed exactly as
 * mmtests HEAD does (shared reference, section 2.3): samples are sorted
 * best first (descending when higher_better), sums run in that order.
 * For higher_better the mean is the harmonic mean (NaN when any x <= 0)
 * and the spread is HStddev = sqrt(sum((1/x - 1/H)^2) * H^4 / n); for
 * lower the arithmetic mean and the sample stddev (n - 1). cv is
 * stddev * 100 / mean, 0 when either is NaN or the mean is 0. bmean95 is
 * the same kind of mean of the best max(1, floor(n * 95 / 100)) samples.
 * n == 0 gives NaN everywhere.
 */
struct stats_summary {
	size_t n;
	double min, max;
	double mean;	/* Hmean or Amean */
	double stddev;	/* HStddev or Stddev; NaN when n <= 1 or mean NaN */
	double cv;	/* HCoeffVar or CoeffVar, percent */
	double bmean95; /* BHmean.95 or BAmean.95 */
};
void stats_summarize(const double *x, size_t n, bool higher_better,
		     struct stats_summary *out);

/*
 * Sort x[0..n) ascending in place: a radix sort on the bits of the
 * doubles from 128 elements on, an introsort below. Much faster than
 * qsort() for the many arrays a comparison sorts. -0.0 sorts before 0.0;
 * NaNs end up in unspecified places.
 */
void stats_sort(double *x, size_t n);

/*
 * Plain descriptive statistics, each NaN when undefined: arithmetic mean,
 * sample standard deviation (n - 1), median, harmonic mean (NaN with any
 * x <= 0), geometric mean (NaN with any x <= 0).
 */
double stats_amean(const double *x, size_t n);
double stats_stddev(const double *x, size_t n);
double stats_median(const double *x, size_t n);
double stats_hmean(const double *x, size_t n);
double stats_gmean(const double *x, size_t n);

/*
 * mmtests' percentage functions (reference 2.4); positive means better.
 * pdiff for higher-is-better rows, pndiff for lower-is-better rows.
 */
double stats_pdiff(double new_value, double base);
double stats_pndiff(double new_value, double base);

/* log Gamma(x) for x > 0. */
double stats_lgamma(double x);
/* Regularized incomplete beta I_x(a, b), a, b > 0, 0 <= x <= 1. */
double stats_betainc(double a, double b, double x);
/* Student t with df > 0 degrees of freedom: P(T <= t) and P(T > t). */
double stats_t_cdf(double t, double df);
double stats_t_sf(double t, double df);
/* Standard normal: P(Z > z) and the quantile for probability p. */
double stats_norm_sf(double z);
double stats_norm_quantile(double p);

/* The outcome of a two-sample test. */
struct stats_test {
	bool valid;	  /* false: not enough data; p is NaN */
	double statistic; /* t, or U of the first sample */
	double df;	  /* Welch-Satterthwaite df; NaN for the U test */
	double p;	  /* two-sided p-value */
};

/*
 * Welch's unequal-variance t-test of a against b, two-sided. Needs at
 * least 2 samples on each side. When both variances are 0 the test is
 * degenerate: p = 1 if the means are equal, else p = 0 (documented in
 * README "Significance").
 */
void stats_welch(const double *a, size_t na, const double *b, size_t nb,
		 struct stats_test *out);

/*
 * Mann-Whitney U test, two-sided: the exact distribution of U when there
 * are no ties and na, nb <= 50 (and na * nb small enough), else the normal
 * approximation with tie correction and continuity correction. Needs at
 * least 1 sample on each side and 2 in all; all values tied gives p = 1.
 */
void stats_mannwhitney(const double *a, size_t na, const double *b, size_t nb,
		       struct stats_test *out);

/*
 * Benjamini-Hochberg: set reject[i] for the p-values that stay significant
 * at false-discovery rate alpha. NaN p-values are neither counted nor
 * rejected.
 */
void stats_bh(const double *p, size_t n, double alpha, bool *reject);

#endif /* MMCMP_STATS_H */
