/*
 * Unit tests for the descriptive half of stats: stats_summarize() against
 * mmtests' printed tables and hand-checked small cases, the plain means,
 * and mmtests' pdiff/pndiff. Reference values of the small cases come
 * from Python 3 (float arithmetic, as in the comments), tolerance 1e-12
 * relative; the mmtests tables are matched to their printed precision.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "test-files.h"
#include "csv.h"
#include "run-data.h"
#include "stats.h"
#include "strbuf.h"

#define MAX_X 12

/* clang-format off */
static const struct {
	const char *what;
	bool higher;
	size_t n;
	double x[MAX_X];
	double min, mean, stddev, cv, max, bmean95;
} summary_cases[] = {
	{ "n=1 lower", false, 1, { 5 }, 5, 5, NAN, 0, 5, 5 },
	{ "n=1 higher", true, 1, { 4 }, 4, 4, NAN, 0, 4, 4 },
	/* sqrt(2); 100 * sqrt(2) / 2; BAmean.95 of n=2 keeps 1 sample */
	{ "n=2 lower", false, 2, { 3, 1 },
	  1, 2, 1.4142135623730951, 70.71067811865476, 3, 1 },
	/* H = 8/3, HStddev = 8/9, HCoeffVar = 100/3; BHmean.95 = best = 4 */
	{ "n=2 higher", true, 2, { 2, 4 },
	  2, 2.6666666666666665, 0.8888888888888888, 33.333333333333336, 4, 4 },
	/* 1..10: BAmean.95 is the mean of the 9 smallest */
	{ "n=10 lower", false, 10, { 7, 2, 9, 1, 10, 4, 3, 8, 6, 5 },
	  1, 5.5, 3.0276503540974917, 55.04818825631803, 10, 5 },
	/* BHmean.95 of n=5 takes the 4 largest */
	{ "n=5 higher", true, 5, { 3, 1, 5, 2, 4 },
	  1, 2.18978102189781, 1.3912337458781359, 63.533007728434875, 5,
	  3.116883116883117 },
	/* A zero sample: Hmean NaN, CoeffVar 0, best 2 of 3 still defined */
	{ "zero sample higher", true, 3, { 10, 0, 20 },
	  0, NAN, NAN, 0, 20, 13.333333333333334 },
	{ "negative sample higher", true, 2, { -1, 3 },
	  -1, NAN, NAN, 0, 3, 3 },
	{ "zero variance lower", false, 3, { 2, 2, 2 }, 2, 2, 0, 0, 2, 2 },
	/* Identical samples give exact figures, not 1ulp off (see stats.c) */
	{ "7 identical higher", true, 7,
	  { 1002, 1002, 1002, 1002, 1002, 1002, 1002 },
	  1002, 1002, 0, 0, 1002, 1002 },
	{ "zero mean lower", false, 2, { -1, 1 },
	  -1, 0, 1.4142135623730951, 0, 1, -1 },
	{ "empty", false, 0, { 0 }, NAN, NAN, NAN, NAN, NAN, NAN },
	/*
	 * Extreme magnitudes: H^4 and the squared reciprocals overflow or
	 * underflow unless scaled first; Python on the values divided by
	 * their magnitude, times it again.
	 */
	{ "1e100 higher", true, 3, { 1e100, 1.01e100, 0.99e100 },
	  9.9e+99, 9.999333311110372e+99, 8.164829693625136e+97,
	  0.8165374070042353, 1.01e+100, 1.0049751243781095e+100 },
	{ "1e300 higher", true, 3, { 1e300, 1.01e300, 0.99e300 },
	  9.9e+299, 9.999333311110371e+299, 8.164829693625225e+297,
	  0.8165374070042443, 1.01e+300, 1.0049751243781097e+300 },
	{ "1e-200 higher", true, 3, { 1e-200, 1.01e-200, 0.99e-200 },
	  9.9e-201, 9.99933331111037e-201, 8.164829693625224e-203,
	  0.8165374070042443, 1.01e-200, 1.0049751243781095e-200 },
	{ "1e300 lower", false, 3, { 1e300, 1.01e300, 0.99e300 },
	  9.9e+299, 1e+300, 1.0000000000000009e+298,
	  1.0000000000000009, 1.01e+300, 9.950000000000001e+299 },
};
/* clang-format on */

/* Rows of the mmtests example tables: the baseline's first op. */
static const struct {
	const char *file, *label, *op;
	int decimals;
	double min, mean, stddev, cv, max, bmean95;
} table_cases[] = {
	{"data/mmtests/wis-improve.csv", "6.9-vanilla",
	 "ops-page_fault1_threads-2", 2, 1067519.00, 1083168.74, 7689.27, 0.71,
	 1092530.00, 1084935.97},
	{"data/mmtests/wis-improve.csv", "6.9-patched",
	 "ops-page_fault1_threads-16", 2, 6841581.00, 6935054.85, 51848.78,
	 0.75, 7007012.00, 6945598.74},
	{"data/mmtests/wis-nochange.csv", "base", "ops-page_fault1_threads-8",
	 2, 3369404.00, 3574992.61, 119306.11, 3.34, 3786237.00, 3599395.03},
	{"data/mmtests/trunc-regress.csv", "6.9-vanilla", "Elapsed-fault", 4,
	 2.3061, 2.3974, 0.0519, 2.1647, 2.4893, 2.3872},
	{"data/mmtests/trunc-regress.csv", "6.9-patched", "User-trunc", 4,
	 0.0008, 0.0019, 0.0006, 31.2852, 0.0028, 0.0018},
};

/* clang-format off */
static const struct {
	const char *what;
	size_t n;
	double x[MAX_X];
	double amean, stddev, median, hmean, gmean;
} plain_cases[] = {
	{ "odd", 3, { 3, 1, 2 },
	  2, 1, 2, 1.6363636363636365, 1.8171205928321397 },
	{ "even", 4, { 4, 1, 2, 8 },
	  3.75, 3.0956959368344519, 3, 2.1333333333333333, 2.8284271247461903 },
	{ "one", 1, { 7 }, 7, NAN, 7, 7, 7 },
	{ "with zero", 3, { 0, 1, 2 }, 1, 1, 1, NAN, NAN },
	{ "empty", 0, { 0 }, NAN, NAN, NAN, NAN, NAN },
};
/* clang-format on */

static const struct {
	double new_value, base;
	double pdiff, pndiff;
} diff_cases[] = {
	{110, 100, 10, -10},
	{90, 100, -10, 10},
	{100, 100, 0, 0},
	{0, 100, 0, 100},   /* new == 0 */
	{5, 0, 100, -99},   /* base == 0 */
	{0, 0, 0, 0},	    /* equal wins */
	{5, NAN, 100, NAN}, /* NaN base: "NaN" string in mmtests */
	{1.1606, 1, 16.06, -16.06},
	{-2, 4, -150, 150},
};

static bool same_order(const double *a, const double *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

static bool near_printed(double got, double want, int decimals)
{
	return fabs(got - want) <= 0.5 * pow(10, -decimals) + 1e-9;
}

static void test_table_case(size_t i)
{
	struct strbuf buf = STRBUF_INIT, err = STRBUF_INIT;
	struct run_data *runs = NULL;
	struct stats_summary s;
	const struct op_samples *op = NULL;
	size_t nr = 0;
	int d = table_cases[i].decimals;

	if (!read_file(table_cases[i].file, &buf) ||
	    csv_parse(table_cases[i].file, buf.buf, buf.len, &runs, &nr, &err))
		diag("%s", err.buf);
	for (size_t r = 0; r < nr && !op; r++)
		if (!strcmp(runs[r].info.label, table_cases[i].label))
			op = run_data_op(&runs[r], runs[r].ops[0].benchmark,
					 table_cases[i].op, false);
	ok(op != NULL, "table %zu: found %s %s", i, table_cases[i].label,
	   table_cases[i].op);
	if (!op)
		goto out;
	stats_summarize(op->v, op->nr, op->higher_better, &s);
	ok(near_printed(s.min, table_cases[i].min, d) &&
		   near_printed(s.mean, table_cases[i].mean, d) &&
		   near_printed(s.stddev, table_cases[i].stddev, d) &&
		   near_printed(s.cv, table_cases[i].cv, d) &&
		   near_printed(s.max, table_cases[i].max, d) &&
		   near_printed(s.bmean95, table_cases[i].bmean95, d),
	   "table %zu: %s %s as mmtests printed it", i, table_cases[i].label,
	   table_cases[i].op);
out:
	csv_runs_free(runs, nr);
	strbuf_release(&buf);
	strbuf_release(&err);
}

/*
 * Values near DBL_MAX: the median of two middle values and CoeffVar's
 * sd * 100 would overflow; both are finite, computed from the values
 * scaled by 1e308.
 */
static void test_huge(void)
{
	double x[] = {1e308, 1.7e308, 1e308, 1.5e308};
	double scaled[] = {1.0, 1.7, 1.0, 1.5};
	struct stats_summary s;
	double cv = 100.0 * stats_stddev(scaled, 4) / stats_amean(scaled, 4);

	ok_near(stats_median(x, 4) / 1e308, 1.25, 1e-12,
		"huge: the median of two middle values near DBL_MAX");
	stats_summarize(x, 4, false, &s);
	ok_near(s.cv, cv, 1e-9, "huge: CoeffVar, %g", s.cv);
	ok_near(stats_midpoint(-1.7e308, -1.5e308) / 1e308, -1.6, 1e-12,
		"huge: the midpoint of two values near -DBL_MAX");
	ok(stats_midpoint(1.0, 2.0) == 1.5, "midpoint of small values");
}

/* The order stats_sort() promises: numeric, -0 before +0, NaNs at the ends. */
static uint64_t order_key(double v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof(u));
	return u >> 63 ? ~u : u ^ (UINT64_C(1) << 63);
}

static int cmp_order(const void *pa, const void *pb)
{
	uint64_t a = order_key(*(const double *)pa);
	uint64_t b = order_key(*(const double *)pb);

	return (a > b) - (a < b);
}

/* Sample kind of test_sort(): value i of n from the generator's state. */
static double sort_input(int kind, size_t i, size_t n, uint64_t seed)
{
	static const double odd[] = {-0.0,     0.0,	  -1.5,	  2.25,
				     INFINITY, -INFINITY, 1e-310, -1e-310};

	switch (kind) {
	case 0:
		return (double)(seed >> 11) / 9007199254740992.0;
	case 1:
		return (double)((seed >> 33) % 5);
	case 2:
		return (double)i;
	case 3:
		return (double)(n - i);
	case 4:
		return 7.0;
	case 5:
		return (double)(i < n / 2 ? i : n - i);
	case 6:
		/* A row's samples: near 1000, three decimals, some equal. */
		return 1000.0 + (double)((seed >> 33) % 40000) / 1000.0 - 20.0;
	case 7:
		/* Both signs over many magnitudes. */
		return ((seed >> 63) ? -1.0 : 1.0) *
		       ldexp((double)((seed >> 20) & 0xfffff),
			     (int)((seed >> 40) % 200) - 100);
	default:
		/* Signed zeros, infinities, subnormals and NaNs among them. */
		if ((seed >> 60) == 0)
			return NAN;
		return odd[(seed >> 33) % ARRAY_SIZE(odd)];
	}
}

/*
 * stats_sort() against qsort() in the same order, bit for bit, on inputs
 * built to hit every path: random, few distinct values, sorted, reversed,
 * all equal, organ pipe, a row's clustered samples, both signs over many
 * magnitudes, and signed zeros, infinities, subnormals and NaNs; with
 * sizes around the cut-offs of insertion sort (32 keys, and the MSD
 * sort's buckets) and of the MSD sort (4096 keys, the LSD sort above).
 */
static void test_sort(void)
{
	static const size_t sizes[] = {0,   1,	  2,	3,    15,
				       31,  32,	  33,	100,  128,
				       500, 1000, 4096, 4097, 20000};
	uint64_t seed = 42;

	for (size_t s = 0; s < ARRAY_SIZE(sizes); s++) {
		for (int kind = 0; kind < 9; kind++) {
			size_t n = sizes[s];
			double *a = xmalloc((n + 1) * sizeof(*a));
			double *b = xmalloc((n + 1) * sizeof(*b));
			size_t bad = n;

			for (size_t i = 0; i < n; i++) {
				seed = seed * 6364136223846793005ULL +
				       1442695040888963407ULL;
				a[i] = sort_input(kind, i, n, seed);
			}
			memcpy(b, a, n * sizeof(*a));
			stats_sort(a, n);
			qsort(b, n, sizeof(*b), cmp_order);
			/* The same bits: -0 and +0, and NaNs, in place. */
			for (size_t i = n; i > 0; i--)
				if (order_key(a[i - 1]) != order_key(b[i - 1]))
					bad = i - 1;
			ok(bad == n,
			   "stats_sort equals a sort by value, n=%zu kind %d "
			   "(first difference at %zu)",
			   n, kind, bad);
			free(a);
			free(b);
		}
	}
}

/* Whether a and b are the same double, or both NaN. */
static bool same_bits(double a, double b)
{
	return (isnan(a) && isnan(b)) || !memcmp(&a, &b, sizeof(a));
}

/*
 * stats_summarize() takes the exponent of its scaled sums from the ends
 * of its sorted copy, and BXmean.95 from the mean's sum stopped early
 * where the best samples have the same exponent. Its mean, stddev and
 * BXmean.95 must be the bits of the plain means of the sorted samples
 * (stats_amean(), stats_hmean(), stats_stddev() take the exponent by a
 * pass over every value): on values that straddle a power of two (the
 * best samples of a lower-better row then have a smaller exponent), that
 * hold zeros or negatives (a harmonic mean of NaN), infinities or NaNs,
 * or are near the ends of the doubles.
 */
static void test_summary_bits(void)
{
	static const size_t sizes[] = {1, 2, 3, 19, 20, 21, 40, 100, 500};
	uint64_t seed = 7;
	int bad = 0, checked = 0;

	for (size_t si = 0; si < ARRAY_SIZE(sizes); si++) {
		for (int kind = 0; kind < 6; kind++) {
			for (int hb = 0; hb < 2; hb++) {
				size_t n = sizes[si], best = n * 95 / 100;
				double *x = xmalloc(n * sizeof(*x));
				double *y = xmalloc(n * sizeof(*y));
				double mean, bmean, sd = NAN;
				struct stats_summary sum;

				for (size_t i = 0; i < n; i++) {
					double u;

					seed = seed * 6364136223846793005ULL +
					       1442695040888963407ULL;
					u = (double)(seed >> 11) / 0x1p53;
					x[i] = kind == 0   ? 1000.0 + 48.0 * u
					       : kind == 1 ? 900.0 + 200.0 * u
					       : kind == 2 ? (u < 0.1 ? -1.0
								      : 0.0) +
								     3.0 * u
					       : kind == 3
						       ? (i == n / 2 ? INFINITY
							  : i == n / 3 ? NAN
								       : u)
					       : kind == 4 ? 1e300 * (1.0 + u)
							   : 1e-300 * (1.0 + u);
				}
				if (!best)
					best = 1;
				memcpy(y, x, n * sizeof(*y));
				qsort(y, n, sizeof(*y), cmp_order);
				if (hb)
					for (size_t i = 0; i < n / 2; i++) {
						double t = y[i];

						y[i] = y[n - 1 - i];
						y[n - 1 - i] = t;
					}
				mean = hb ? stats_hmean(y, n)
					  : stats_amean(y, n);
				bmean = hb ? stats_hmean(y, best)
					   : stats_amean(y, best);
				if (!hb)
					sd = stats_stddev(y, n);
				stats_summarize(x, n, hb, &sum);
				checked++;
				/* Identical samples are set apart, exactly. */
				if (sum.min != sum.max &&
				    (!same_bits(sum.mean, mean) ||
				     !same_bits(sum.bmean95, bmean) ||
				     (!hb && !same_bits(sum.stddev, sd)))) {
					diag("summary bits: n=%zu kind %d %s: "
					     "mean %.17g/%.17g bmean95 "
					     "%.17g/%.17g",
					     n, kind, hb ? "higher" : "lower",
					     sum.mean, mean, sum.bmean95,
					     bmean);
					bad++;
				}
				free(x);
				free(y);
			}
		}
	}
	ok(!bad,
	   "stats_summarize: mean, stddev and BXmean.95 are the bits of "
	   "the plain means of the sorted samples (%d of %d cases differ)",
	   bad, checked);
}

int main(void)
{
	struct stats_summary s;
	double before[MAX_X];

	for (size_t i = 0; i < ARRAY_SIZE(summary_cases); i++) {
		const char *w = summary_cases[i].what;

		memcpy(before, summary_cases[i].x, sizeof(before));
		stats_summarize(summary_cases[i].x, summary_cases[i].n,
				summary_cases[i].higher, &s);
		ok(s.n == summary_cases[i].n, "%s: n", w);
		ok_near(s.min, summary_cases[i].min, 1e-12, "%s: min", w);
		ok_near(s.mean, summary_cases[i].mean, 1e-12, "%s: mean", w);
		ok_near(s.stddev, summary_cases[i].stddev, 1e-12, "%s: stddev",
			w);
		ok_near(s.cv, summary_cases[i].cv, 1e-12, "%s: cv", w);
		ok_near(s.max, summary_cases[i].max, 1e-12, "%s: max", w);
		ok_near(s.bmean95, summary_cases[i].bmean95, 1e-12,
			"%s: bmean95", w);
		ok(same_order(before, summary_cases[i].x, summary_cases[i].n),
		   "%s: input left unsorted", w);
	}
	for (size_t i = 0; i < ARRAY_SIZE(table_cases); i++)
		test_table_case(i);
	test_summary_bits();
	for (size_t i = 0; i < ARRAY_SIZE(plain_cases); i++) {
		const double *x = plain_cases[i].x;
		size_t n = plain_cases[i].n;
		const char *w = plain_cases[i].what;

		ok_near(stats_amean(x, n), plain_cases[i].amean, 1e-12,
			"amean, %s", w);
		ok_near(stats_stddev(x, n), plain_cases[i].stddev, 1e-12,
			"stddev, %s", w);
		ok_near(stats_median(x, n), plain_cases[i].median, 1e-12,
			"median, %s", w);
		ok_near(stats_hmean(x, n), plain_cases[i].hmean, 1e-12,
			"hmean, %s", w);
		ok_near(stats_gmean(x, n), plain_cases[i].gmean, 1e-12,
			"gmean, %s", w);
	}
	for (size_t i = 0; i < ARRAY_SIZE(diff_cases); i++) {
		ok_near(stats_pdiff(diff_cases[i].new_value,
				    diff_cases[i].base),
			diff_cases[i].pdiff, 1e-12, "pdiff, case %zu", i);
		ok_near(stats_pndiff(diff_cases[i].new_value,
				     diff_cases[i].base),
			diff_cases[i].pndiff, 1e-12, "pndiff, case %zu", i);
	}
	test_sort();
	test_huge();
	done_testing();
	return exit_status();
}
