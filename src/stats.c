/* stats: descriptive statistics and mmtests' summary rows. */
#include "stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static void swap_doubles(double *a, double *b)
{
	double t = *a;

	*a = *b;
	*b = t;
}

/* Map a double to an unsigned key with the same order (NaNs at the ends). */
static uint64_t sort_key(double v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof(u));
	return u >> 63 ? ~u : u ^ (UINT64_C(1) << 63);
}

static double key_double(uint64_t k)
{
	double v;

	k = k >> 63 ? k ^ (UINT64_C(1) << 63) : ~k;
	memcpy(&v, &k, sizeof(v));
	return v;
}

/* Insertion sort of n keys: for the few keys of a bucket. */
static void key_insertion_sort(uint64_t *k, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		uint64_t v = k[i];
		size_t j = i;

		for (; j && k[j - 1] > v; j--)
			k[j] = k[j - 1];
		k[j] = v;
	}
}

/* Buckets this size or less are insertion-sorted. */
#define MSD_SMALL 32
/* Up to this many keys are sorted most significant bits first. */
#define MSD_MAX 4096
/* At most 2^MSD_BITS buckets a pass. */
#define MSD_BITS 11

/*
 * MSD radix sort of n keys (tmp has room for n): one counting pass on
 * their offsets from the smallest, shifted so that the range of the keys
 * spans about n buckets (at most 2^MSD_BITS), then each bucket the same
 * way, or by insertion when it is small. A row's few hundred samples
 * then fall a few to a bucket in one pass, spread as their values are,
 * even where they straddle a power of two (where the bits below the
 * highest that differs would put most of them in two buckets).
 */
static void msd_sort(uint64_t *k, uint64_t *tmp, size_t n)
{
	uint32_t count[1 << MSD_BITS], pos[1 << MSD_BITS], sum = 0;
	uint64_t lo = k[0], hi = k[0];
	unsigned bits = 0, width = 0, shift;
	size_t start = 0, buckets;

	for (size_t i = 1; i < n; i++) {
		lo = k[i] < lo ? k[i] : lo;
		hi = k[i] > hi ? k[i] : hi;
	}
	if (lo == hi)
		return;
	while (bits < 64 && (hi - lo) >> bits)
		bits++;
	while (width < MSD_BITS && ((size_t)1 << width) < n)
		width++;
	shift = bits > width ? bits - width : 0;
	buckets = (size_t)((hi - lo) >> shift) + 1;
	memset(count, 0, buckets * sizeof(*count));
	for (size_t i = 0; i < n; i++)
		count[(k[i] - lo) >> shift]++;
	for (size_t b = 0; b < buckets; b++) {
		pos[b] = sum;
		sum += count[b];
	}
	for (size_t i = 0; i < n; i++)
		tmp[pos[(k[i] - lo) >> shift]++] = k[i];
	memcpy(k, tmp, n * sizeof(*k));
	/* With no shift a bucket's keys are equal. */
	for (size_t b = 0; b < buckets && shift; b++) {
		if (count[b] > MSD_SMALL)
			msd_sort(k + start, tmp, count[b]);
		else if (count[b] > 1)
			key_insertion_sort(k + start, count[b]);
		start += count[b];
	}
}

/*
 * LSD radix sort of n keys into k (tmp has room for n), a byte at a
 * time, skipping the bytes that all keys share (usually the sign and
 * exponent bytes): for many keys, where MSD's buckets would recurse.
 */
static void lsd_sort(uint64_t *k, uint64_t *tmp, size_t n)
{
	size_t count[8][256] = {{0}};
	uint64_t *a = k, *b = tmp;

	for (size_t i = 0; i < n; i++)
		for (unsigned d = 0; d < 8; d++)
			count[d][(a[i] >> (8 * d)) & 0xff]++;
	for (unsigned d = 0; d < 8; d++) {
		size_t pos[256], sum = 0;
		uint64_t *t;

		if (count[d][(a[0] >> (8 * d)) & 0xff] == n)
			continue;
		for (unsigned v = 0; v < 256; v++) {
			pos[v] = sum;
			sum += count[d][v];
		}
		for (size_t i = 0; i < n; i++)
			b[pos[(a[i] >> (8 * d)) & 0xff]++] = a[i];
		t = a;
		a = b;
		b = t;
	}
	if (a != k)
		memcpy(k, a, n * sizeof(*k));
}

/* stats_sort() of at most MSD_SMALL samples: their keys by insertion. */
static void sort_few(double *x, size_t n)
{
	uint64_t k[MSD_SMALL];

	for (size_t i = 0; i < n; i++)
		k[i] = sort_key(x[i]);
	key_insertion_sort(k, n);
	for (size_t i = 0; i < n; i++)
		x[i] = key_double(k[i]);
}

/*
 * Sort by key (sort_key()): numeric order, -0 before +0, NaNs at the
 * ends. Radix sorts are branch-free, so several times faster than a
 * comparison sort on noisy samples; a few keys go by insertion.
 */
void stats_sort(double *x, size_t n)
{
	uint64_t *k, *tmp;

	if (n <= MSD_SMALL) {
		sort_few(x, n);
		return;
	}
	k = xmalloc(n * sizeof(*k));
	tmp = xmalloc(n * sizeof(*tmp));
	for (size_t i = 0; i < n; i++)
		k[i] = sort_key(x[i]);
	if (n <= MSD_MAX)
		msd_sort(k, tmp, n);
	else
		lsd_sort(k, tmp, n);
	for (size_t i = 0; i < n; i++)
		x[i] = key_double(k[i]);
	free(k);
	free(tmp);
}

static void reverse(double *x, size_t n)
{
	for (size_t i = 0; i < n / 2; i++)
		swap_doubles(&x[i], &x[n - 1 - i]);
}

/*
 * The binary exponent e of the largest finite |x[i]| (frexp()), 0 when
 * there is none: the summary works on x * 2^-e, which holds the values
 * near 1, so that sums, squares and H^4 neither overflow nor underflow
 * for values such as 1e300 or 1e-200. A power of two scales exactly:
 * for values that did not overflow the results are the same bits.
 */
static int summary_exponent(const double *x, size_t n)
{
	double top = 0.0;
	int e = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i]) && fabs(x[i]) > top)
			top = fabs(x[i]);
	if (top > 0.0)
		frexp(top, &e);
	return e;
}

/*
 * summary_exponent() of x[0..n) sorted either way (stats_sort(), perhaps
 * reversed), where the infinities and NaNs are at the ends: the largest
 * finite |x| is the first or the last finite one.
 */
static int sorted_exponent(const double *x, size_t n)
{
	size_t lo = 0, hi = n;
	double top;
	int e = 0;

	while (lo < hi && !isfinite(x[lo]))
		lo++;
	while (hi > lo && !isfinite(x[hi - 1]))
		hi--;
	if (lo == hi)
		return 0;
	top = fmax(fabs(x[lo]), fabs(x[hi - 1]));
	if (top > 0.0)
		frexp(top, &e);
	return e;
}

/*
 * 2^-e where it is a double (the multiplier that scales by
 * summary_exponent() e, the same bits as ldexp() and a multiplication
 * instead of a call per sample), 0 where it is not.
 */
static double summary_scale(int e)
{
	return e > -1000 ? ldexp(1.0, -e) : 0.0;
}

/* x * 2^-e, by s = summary_scale(e) where there is one. */
static double scaled(double x, int e, double s)
{
	return s != 0.0 ? x * s : ldexp(x, -e);
}

/* The mean of n values whose scaled sum (or reciprocals') is sum. */
static double mean_of_sum(double sum, size_t n, bool higher_better, int e)
{
	return ldexp(higher_better ? (double)n / sum : sum / (double)n, e);
}

/*
 * The mean of mmtests' kind over x[0..n): harmonic when higher is better
 * (NaN as soon as one x <= 0), arithmetic otherwise. The sum runs in the
 * order of x, as mmtests sums its sorted list, of x scaled by exponent e
 * (summary_exponent()). When best < n, *best_mean is that of x[0..best)
 * at the same exponent: the same sum, stopped there.
 */
static double summary_mean_at(const double *x, size_t n, bool higher_better,
			      int e, size_t best, double *best_mean)
{
	double sum = 0.0, s = summary_scale(e);

	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		double y = scaled(x[i], e, s);

		if (i == best)
			*best_mean = mean_of_sum(sum, best, higher_better, e);
		if (higher_better) {
			if (!(x[i] > 0.0))
				return NAN;
			sum += 1.0 / y;
		} else {
			sum += y;
		}
	}
	return mean_of_sum(sum, n, higher_better, e);
}

static double summary_mean(const double *x, size_t n, bool higher_better)
{
	return summary_mean_at(x, n, higher_better, summary_exponent(x, n), n,
			       NULL);
}

/*
 * mmtests HEAD's spread around `mean`: the sample standard deviation for
 * the arithmetic mean, and for the harmonic mean the standard deviation of
 * the reciprocals scaled back by H^2 (delta method), divided by n.
 */
static double summary_stddev_at(const double *x, size_t n, bool higher_better,
				double mean, int e)
{
	double sum = 0.0, m, s = summary_scale(e);

	if (n <= 1 || isnan(mean))
		return NAN;
	/* In units of 2^e (summary_exponent()), scaled back at the end. */
	m = ldexp(mean, -e);
	for (size_t i = 0; i < n; i++) {
		double y = scaled(x[i], e, s);
		double d = higher_better ? 1.0 / y - 1.0 / m : y - m;

		sum += d * d;
	}
	if (higher_better)
		return ldexp(sqrt(sum * pow(m, 4) / (double)n), e);
	return ldexp(sqrt(sum / (double)(n - 1)), e);
}

static double summary_stddev(const double *x, size_t n, bool higher_better,
			     double mean)
{
	return summary_stddev_at(x, n, higher_better, mean,
				 summary_exponent(x, n));
}

void stats_summarize(const double *x, size_t n, bool higher_better,
		     struct stats_summary *out)
{
	double *sorted;
	double sd, mean;
	size_t best;
	int e, e_best;

	out->n = n;
	if (!n) {
		out->min = out->max = out->mean = NAN;
		out->stddev = out->cv = out->bmean95 = NAN;
		return;
	}
	sorted = xmalloc(n * sizeof(*sorted));
	memcpy(sorted, x, n * sizeof(*sorted));
	stats_sort(sorted, n);
	if (higher_better)
		reverse(sorted, n);

	out->min = higher_better ? sorted[n - 1] : sorted[0];
	out->max = higher_better ? sorted[0] : sorted[n - 1];
	/* BXmean.95: the best max(1, floor(n * 95 / 100)) samples. */
	best = n * 95 / 100;
	if (!best)
		best = 1;
	/*
	 * Sorted, the exponents come from the ends; where the best have
	 * the same, their mean is the sum of the mean's pass stopped early.
	 */
	e = sorted_exponent(sorted, n);
	e_best = sorted_exponent(sorted, best);
	out->bmean95 = NAN;
	out->mean = summary_mean_at(sorted, n, higher_better, e,
				    e_best == e ? best : n, &out->bmean95);
	out->stddev = summary_stddev_at(sorted, n, higher_better, out->mean, e);
	if (best == n)
		out->bmean95 = out->mean;
	else if (e_best != e)
		out->bmean95 = summary_mean_at(sorted, best, higher_better,
					       e_best, best, NULL);
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
	/*
	 * sd * 100 first, as mmtests computes it, unless that overflows
	 * (a stddev near DBL_MAX): then the quotient first.
	 */
	if (isnan(mean) || mean == 0.0)
		out->cv = 0.0;
	else if (isinf(sd * 100.0))
		out->cv = sd / mean * 100.0;
	else
		out->cv = sd * 100.0 / mean;
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

double stats_midpoint(double a, double b)
{
	double m = (a + b) / 2.0;

	/* Near DBL_MAX the sum overflows where the halves do not. */
	return isinf(m) && isfinite(a) && isfinite(b) ? a / 2.0 + b / 2.0 : m;
}

double stats_median(const double *x, size_t n)
{
	double *sorted, m;

	if (!n)
		return NAN;
	sorted = xmalloc(n * sizeof(*sorted));
	memcpy(sorted, x, n * sizeof(*sorted));
	stats_sort(sorted, n);
	if (n % 2)
		m = sorted[n / 2];
	else
		m = stats_midpoint(sorted[n / 2 - 1], sorted[n / 2]);
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
