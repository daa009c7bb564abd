/* stats: descriptive statistics and mmtests' summary rows. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static int cmp_ascending(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

static int cmp_descending(const void *pa, const void *pb)
{
	return cmp_ascending(pb, pa);
}

/*
 * The mean of mmtests' kind over x[0..n): harmonic when higher is better
 * (NaN as soon as one x <= 0), arithmetic otherwise. The sum runs in the
 * order of x, as mmtests sums its sorted list.
 */
static double summary_mean(const double *x, size_t n, bool higher_better)
{
	double sum = 0.0;

	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (higher_better) {
			if (!(x[i] > 0.0))
				return NAN;
			sum += 1.0 / x[i];
		} else {
			sum += x[i];
		}
	}
	return higher_better ? (double)n / sum : sum / (double)n;
}

/*
 * mmtests HEAD's spread around `mean`: the sample standard deviation for
 * the arithmetic mean, and for the harmonic mean the standard deviation of
 * the reciprocals scaled back by H^2 (delta method), divided by n.
 */
static double summary_stddev(const double *x, size_t n, bool higher_better,
			     double mean)
{
	double sum = 0.0;

	if (n <= 1 || isnan(mean))
		return NAN;
	for (size_t i = 0; i < n; i++) {
		double d =
			higher_better ? 1.0 / x[i] - 1.0 / mean : x[i] - mean;
		sum += d * d;
	}
	if (higher_better)
		return sqrt(sum * pow(mean, 4) / (double)n);
	return sqrt(sum / (double)(n - 1));
}

void stats_summarize(const double *x, size_t n, bool higher_better,
		     struct stats_summary *out)
{
	double *sorted;
	double sd, mean;
	size_t best;

	out->n = n;
	if (!n) {
		out->min = out->max = out->mean = NAN;
		out->stddev = out->cv = out->bmean95 = NAN;
		return;
	}
	sorted = xmalloc(n * sizeof(*sorted));
	memcpy(sorted, x, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted),
	      higher_better ? cmp_descending : cmp_ascending);

	out->min = higher_better ? sorted[n - 1] : sorted[0];
	out->max = higher_better ? sorted[0] : sorted[n - 1];
	out->mean = summary_mean(sorted, n, higher_better);
	out->stddev = summary_stddev(sorted, n, higher_better, out->mean);
	/* BXmean.95: the best max(1, floor(n * 95 / 100)) samples. */
	best = n * 95 / 100;
	if (!best)
		best = 1;
	out->bmean95 = summary_mean(sorted, best, higher_better);
	if (out->min == out->max && !isnan(out->mean)) {
		/*
		 * Identical samples: the sums can miss the value in the last
		 * bit (7 x 1002 has an Hmean of 1001.9999999999999 and an
		 * HStddev of 2e-13), and mmtests' significance rule would
		 * then divide by that tiny spread. The exact answer keeps the
		 * rule mmtests documents: flagged iff the means differ by
		 * more than 1.
		 */
		out->mean = out->bmean95 = out->min;
		out->stddev = n > 1 ? 0.0 : NAN;
	}

	/* CoeffVar: an undefined stddev counts as 0, an undefined mean too. */
	sd = isnan(out->stddev) ? 0.0 : out->stddev;
	mean = out->mean;
	out->cv = (isnan(mean) || mean == 0.0) ? 0.0 : sd * 100.0 / mean;
	free(sorted);
}

double stats_amean(const double *x, size_t n)
{
	return summary_mean(x, n, false);
}

double stats_stddev(const double *x, size_t n)
{
	return summary_stddev(x, n, false, stats_amean(x, n));
}

double stats_median(const double *x, size_t n)
{
	double *sorted, m;

	if (!n)
		return NAN;
	sorted = xmalloc(n * sizeof(*sorted));
	memcpy(sorted, x, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_ascending);
	if (n % 2)
		m = sorted[n / 2];
	else
		m = (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
	free(sorted);
	return m;
}

double stats_hmean(const double *x, size_t n)
{
	return summary_mean(x, n, true);
}

double stats_gmean(const double *x, size_t n)
{
	double sum = 0.0;

	if (!n)
		return NAN;
	/* Sum logarithms rather than multiply: the product soon overflows. */
	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0.0))
			return NAN;
		sum += log(x[i]);
	}
	return exp(sum / (double)n);
}

/*
 * mmtests compares a NaN base with `eq "NaN"`, so a NaN base gives 100
 * in pdiff; pndiff has no such test and the division makes NaN.
 */
double stats_pdiff(double new_value, double base)
{
	if (new_value == base || new_value == 0.0)
		return 0.0;
	if (base == 0.0 || isnan(base))
		return 100.0;
	return new_value * 100.0 / base - 100.0;
}

double stats_pndiff(double new_value, double base)
{
	if (new_value == base)
		return 0.0;
	if (new_value == 0.0)
		return 100.0;
	if (base == 0.0)
		return -99.0;
	return 100.0 - new_value * 100.0 / base;
}
