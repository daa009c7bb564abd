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
 * doubles (most significant first up to 4096 elements, least above),
 * insertion below 33. Much faster than qsort() for the many arrays a
 * comparison sorts. -0.0 sorts before 0.0; NaNs with the sign bit clear
 * after +inf, the others before -inf.
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
/* (a + b) / 2, also where a + b would overflow (a, b near DBL_MAX). */
double stats_midpoint(double a, double b);
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
 * docs/statistics.md).
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

/*
 * Benjamini-Hochberg adjusted p-values, as R's p.adjust(p, "BH"):
 * adj(i) = min over p(k) >= p(i) of min(1, m / k * p(k)), with the m
 * non-NaN p-values ranked k = 1 .. m. A NaN p gives a NaN adjusted p and
 * is not counted in m. adj[] has room for n values.
 */
void stats_bh_adjust(const double *p, size_t n, double *adj);

/*
 * The upper quantile of Student's t with df > 0: the t with
 * P(T > t) = q, for 0 < q < 1 (R's qt(q, df, lower.tail = FALSE)).
 * NaN outside that domain.
 */
double stats_t_isf(double q, double df);

/*
 * The noncentral t distribution with df > 0 degrees of freedom and
 * noncentrality ncp: P(T <= t) and P(T > t), as R's pt(t, df, ncp),
 * by Lenth's algorithm AS 243. Absolute accuracy about 1e-12.
 */
double stats_nct_cdf(double t, double df, double ncp);
double stats_nct_sf(double t, double df, double ncp);

/*
 * The part of AS 243 for one |t| and df that does not depend on the
 * noncentrality (the incomplete betas that start its series), computed
 * once for a t evaluated at many ncp, as the nodes of Welch's power
 * integral are while its root is sought. stats_nct_tail_prep() gives
 * stats_nct_sf(t, df, ncp) (upper) or stats_nct_cdf(t, df, ncp) for t =
 * -t_abs when neg, else t_abs, bit for bit as they do.
 */
struct stats_nct_prep {
	double t, df;			    /* |t| and df as given */
	double x, xodd, godd, xeven, geven; /* NaN x: not prepared */
};

void stats_nct_prepare(double t_abs, double df, struct stats_nct_prep *pp);
double stats_nct_tail_prep(const struct stats_nct_prep *pp, bool neg,
			   double ncp, bool upper);

/*
 * Version 2 of compare's statistics (docs: the statistics reference,
 * sections 1 to 9): pure functions on unit values, one value per unit
 * of replication (an iteration, a run), without any printing or state.
 * Functions that fill a struct never fail; what cannot be computed is
 * NaN or a documented state in the struct. A row of a comparison goes:
 * stats_unit_values() per side, stats_welch_units(), then over the whole
 * family of rows stats_bh_adjust() on their p, then stats_change() at
 * alpha (the interval shown) and at 2 alpha (TOST), stats_verdict() with
 * marked = adjusted p <= alpha, and stats_mde() of
 * stats_power_n_harmonic() and stats_power_sd_pct().
 */

/*
 * Section 1: the unit values of one operation on one side. Consecutive
 * samples x[i] with the same key[i] form one unit; a key that comes back
 * after another one joins its earlier unit, so the order of the samples
 * does not matter, only that of the units' first samples, which is the
 * order of u[]. With reciprocal (higher-is-better rows, whose mean is
 * harmonic) the unit value is mean(1/x), NaN when a sample of the unit is
 * <= 0 or NaN; otherwise it is mean(x). Pass the unit values of a finer
 * level with reciprocal false and the coarser keys to average them with
 * equal weight (iterations into runs). u[] and, when not NULL, count[]
 * (samples per unit) have room for n values. Returns the number of units.
 * Cost O(n): one pass when the keys rise unit after unit (the store's
 * order), else a hash lookup per run of equal keys. Samples without an
 * iteration (imported CSV) are each given a key of their own.
 */
size_t stats_unit_values(const double *x, const long long *key, size_t n,
			 bool reciprocal, double *u, size_t *count);
/*
 * stats_unit_values() in two steps, for several columns of the same
 * samples: stats_unit_index() gives sample i its unit gi[i] (numbered in
 * the order of the units' first samples) and returns the number of
 * units; stats_unit_means() then averages x (its reciprocals when
 * reciprocal) per unit into u[0..units) and, when not NULL, counts the
 * samples into count[0..units).
 */
size_t stats_unit_index(const long long *key, size_t n, size_t *gi);
void stats_unit_means(const double *x, const size_t *gi, size_t n, size_t units,
		      bool reciprocal, double *u, size_t *count);

/* Why a row was not tested; STATS_TESTED when it was. */
enum stats_untested {
	STATS_TESTED = 0,
	STATS_UNTESTED_NO_SAMPLES,     /* a side has no unit at all */
	STATS_UNTESTED_UNDEFINED_MEAN, /* a unit value is NaN (x <= 0) */
	STATS_UNTESTED_NONFINITE,      /* a unit value is infinite */
	STATS_UNTESTED_FEW_UNITS,      /* fewer than 2 units on a side */
	STATS_UNTESTED_DEGENERATE,     /* non-finite df or standard error */
};

/* A short English reason ("fewer than 2 units on a side"); static. */
const char *stats_untested_reason(enum stats_untested why);

/*
 * Section 2: Welch's test of the base's unit values a against the other
 * side's b, on values divided by scale = max |u| over both sides, so
 * that neither the squares nor the variances overflow or underflow (the
 * test, the ratio of the means and Fieller's interval are all
 * scale-free). The means and variances are those of the scaled values.
 * Both sides constant is tested (constant = true, df NaN): p = 0 when the
 * means differ, 1 when they are equal. When untested, every number but
 * na and nb is NaN.
 */
struct stats_welch_units {
	enum stats_untested untested;
	size_t na, nb;	       /* units per side */
	double scale;	       /* the divisor, max |u| (1 when all are 0) */
	double mean_a, mean_b; /* means of the scaled values */
	double var_a, var_b;   /* their sample variances (n - 1) */
	double t, df, p;       /* t = (mean_a - mean_b) / se, two-sided p */
	bool constant;	       /* both variances 0 */
	bool log_scale;	       /* stats_welch_log(): values were log u */
};
void stats_welch_units(const double *a, size_t na, const double *b, size_t nb,
		       struct stats_welch_units *out);

/*
 * The part stats_welch_units() and stats_welch_log() share, on values
 * already scaled or logged (na, nb >= 2, all finite): the means and
 * variances of a and b, computed once, shifted by a[0] for the test so
 * that close means keep their difference exact, then Welch's t, df and
 * p into out, and the untested reason when they are not finite. out's
 * scale and log_scale are the caller's.
 */
void stats_welch_fill(const double *a, size_t na, const double *b, size_t nb,
		      struct stats_welch_units *out);

/* Mark out untested for why: its numbers NaN; log_scale is the caller's. */
void stats_welch_untested(struct stats_welch_units *out,
			  enum stats_untested why);

/* The shape of a Fieller confidence set for a ratio of means. */
enum stats_ci_kind {
	STATS_CI_NONE = 0,   /* untested: nothing computed */
	STATS_CI_BOUNDED,    /* [low, high] */
	STATS_CI_EXCLUSIVE,  /* two rays: everything outside (low, high) */
	STATS_CI_RAY,	     /* a = 0 exactly: one ray (bounds NaN) */
	STATS_CI_WHOLE_LINE, /* the denominator may be 0: every ratio */
};

/*
 * Section 4: the change of the other side against the base, in percent
 * with positive = better, and Fieller's interval for it at level
 * 1 - alpha (t = qt(1 - alpha / 2, df) with Welch's df; for TOST pass
 * 2 alpha). For higher-is-better rows the unit values are reciprocals
 * and theta = mean_a / mean_b, change = 100 (theta - 1); for
 * lower-is-better rows theta = mean_b / mean_a, change = 100 (1 - theta),
 * so the bounds of theta are swapped. low_pct and high_pct are NaN unless
 * kind is STATS_CI_BOUNDED; for STATS_CI_EXCLUSIVE theta_low and
 * theta_high give the excluded gap of theta. Both sides constant gives
 * the point interval [change, change]. A lower-is-better row whose base
 * mean is negative takes change = 100 (theta - 1), which is
 * 100 (other - base) / |base| negated as in section 7: 1 - theta would
 * call -11 to -6 better.
 */
struct stats_change {
	enum stats_ci_kind kind;
	double theta;		      /* the ratio of means, num / den */
	double theta_low, theta_high; /* Fieller's roots, low <= high */
	double change_pct;	      /* NaN when untested */
	double low_pct, high_pct;     /* the change's interval */
};
void stats_change(const struct stats_welch_units *w, bool higher_better,
		  double alpha, struct stats_change *out);

/* Section 5: a row's verdict. */
enum stats_verdict {
	STATS_VERDICT_UNTESTED = 0,
	STATS_VERDICT_BETTER,
	STATS_VERDICT_WORSE,
	STATS_VERDICT_SAME,
	STATS_VERDICT_INCONCLUSIVE,
};

/* "better", "worse", "same", "inconclusive", "untested"; static. */
const char *stats_verdict_name(enum stats_verdict v);

/*
 * The verdict of a tested row: marked (its adjusted p <= alpha) with
 * change_pct >= margin_pct is better, with change_pct <= -margin_pct
 * worse; else with margin_pct > 0 and the 1 - 2 alpha interval tost
 * (stats_change() with 2 alpha) bounded inside (-margin, +margin) it is
 * the same (Schuirmann's two one-sided tests); else inconclusive. A
 * row whose change is NaN is untested.
 */
enum stats_verdict stats_verdict(bool marked, double change_pct,
				 const struct stats_change *tost,
				 double margin_pct);

/*
 * Section 6: the power of a two-sided two-sample t-test at level alpha
 * with n units per side (n > 1, not necessarily whole) for a change of
 * delta in units of sd (R's power.t.test(n, delta, sd = 1, sig.level =
 * alpha)$power: the noncentral t with 2 (n - 1) df and ncp sqrt(n / 2)
 * delta).
 */
double stats_power(double n, double delta, double alpha);

/*
 * The minimum detectable effect: the delta, in the units of sd, that
 * the test finds with probability power (R's power.t.test(n = n, sd = sd,
 * sig.level = alpha, power = power)$delta, solved to 1e-12 relative).
 * sd = 0 gives 0; NaN when n <= 1 or an argument is out of range.
 */
double stats_mde(double n, double sd, double alpha, double power);

/*
 * The units per side that find a change of delta with probability
 * power (power.t.test(delta = delta, sd = sd, ...)$n, not rounded: the
 * units needed are its ceiling). At least 2 (the smallest n the test
 * can use, returned when even 2 suffice); INFINITY when delta is 0 or
 * more than 1e7 would be needed; NaN when an argument is out of range.
 */
double stats_power_n(double delta, double sd, double alpha, double power);

/*
 * The harmonic n = 2 / (1 / na + 1 / nb) and the relative spread
 * sqrt((cv_a^2 + cv_b^2) / 2) in percent of section 6, from a Welch
 * result (cv is the standard deviation of the unit values over their
 * mean). NaN when untested or a mean is 0.
 */
double stats_power_n_harmonic(const struct stats_welch_units *w);
double stats_power_sd_pct(const struct stats_welch_units *w);

/* Section 7: whether a percentage has a number. */
enum stats_pct_state {
	STATS_PCT_OK = 0, /* *pct holds it */
	STATS_PCT_NA,	  /* "n/a": base 0 or undefined, value undefined */
	STATS_PCT_NONE,	  /* "-": a value does not exist */
};

/*
 * The table's percentage 100 (value - base) / |base|, negated for
 * lower-is-better rows so that positive is better. *pct is NaN unless
 * the result is STATS_PCT_OK. A missing side (has_value or has_base
 * false: no samples, no such operation) is STATS_PCT_NONE; a base of 0,
 * a NaN (say an Hmean with a zero sample) or a non-finite result is
 * STATS_PCT_NA.
 */
enum stats_pct_state stats_pct_change(double value, bool has_value, double base,
				      bool has_base, bool higher_better,
				      double *pct);

/*
 * Section 8. The smallest two-sided p the exact U test can reach with
 * na and nb tie-free samples, 2 / choose(na + nb, na) (at most 1).
 */
double stats_utest_floor(size_t na, size_t nb);

/*
 * The minimum detectable effect of a row under the U test, in percent as
 * stats_welch_mde_pct(): Noether's (JASA 1987) normal approximation of
 * the rank-sum test's power under a shift of normal values of a common
 * sd s (the root mean square of the two sides'), found with probability
 * power at two-sided level alpha when P(Y > X) = Phi(delta / (s sqrt 2))
 * exceeds 1/2 by (z(1 - alpha/2) + z(power)) sqrt((na + nb + 1) / (12 na
 * nb)). NaN where stats_welch_mde_pct() is, and where the exact test
 * cannot reach alpha at all (stats_utest_floor() above it) or the shift
 * would need P(Y > X) >= 1.
 */
double stats_utest_mde_pct(const struct stats_welch_units *w, double alpha,
			   double power);

/*
 * Section 8. How often mmtests' rule (|mean_a - mean_b| > 1.96 (sd_a +
 * sd_b), over the samples it pools) marks a row of na and nb
 * independent normal samples that did not change: E[2 Phi(-1.96 (S_a +
 * S_b) / sqrt(1/na + 1/nb))] over the two sample sds (sigma 1),
 * integrated by Simpson's rule on each; 0 when a side has fewer than 2.
 */
double stats_mmtests_aa_rate(size_t na, size_t nb);

/*
 * The fewest units per side (n = na = nb) with which the U test can
 * mark a lone change in a family of `family` rows under BH at rate
 * alpha: the smallest n with stats_utest_floor(n, n) <= alpha / family.
 */
size_t stats_utest_min_units(double alpha, size_t family);

/*
 * Iglewicz and Hoaglin's outliers: flag[i] when
 * |u[i] - median| / (1.4826 MAD) > 3.5. Nothing is flagged when the MAD
 * is 0 or n < 3 (the score is undefined). Returns the number flagged.
 */
size_t stats_outliers(const double *u, size_t n, bool *flag);

/*
 * Spearman's rank correlation of x and y (midranks for ties) and its
 * two-sided p: exact for n <= 9 without ties, from the distribution of
 * S = sum (rank_x - rank_y)^2 over all n! orders (R's cor.test(x, y,
 * method = "spearman", exact = TRUE)); otherwise by the t approximation
 * with n - 2 df (exact = FALSE). NaN for n < 3 or a constant side. For
 * drift: x the unit values, y their start times.
 */
void stats_spearman(const double *x, const double *y, size_t n, double *rho,
		    double *p);

/*
 * Whether the start times of two labels' units interleave: false when
 * every unit of one ran before every unit of the other (so a drift of
 * the machine is not cancelled). True when a side is empty.
 */
bool stats_interleaved(const double *time_a, size_t na, const double *time_b,
		       size_t nb);

/*
 * One-way ANOVA of the values x[] grouped by key[] (equal keys, in any
 * order, form a group): the p of F = (between / (g - 1)) / (within /
 * (n - g)) with g - 1 and n - g df (R's oneway.test(var.equal = TRUE)).
 * NaN with fewer than 2 groups, no df within or no spread at all. For
 * section 1's note: iteration values grouped by run, p < 0.01.
 */
double stats_anova_p(const double *x, const long long *key, size_t n);

/*
 * The coefficient of variation of u[] in percent, 100 s / |mean| with
 * the sample standard deviation (n - 1), computed on u / max |u| so that
 * values near 1e300 or 1e-300 keep it; NaN for n < 2 or a mean of 0. For
 * `mmcmp power` with one label, the sd of stats_mde()/stats_power_n().
 */
double stats_cv_pct(const double *u, size_t n);

/*
 * Section 9: the 1 - alpha confidence half-width of the mean of u[] in
 * percent of |mean|, qt(1 - alpha / 2, n - 1) s / sqrt(n) * 100 / |mean|;
 * NaN for n < 2 or a mean of 0.
 */
double stats_ci_half_pct(const double *u, size_t n, double alpha);

/*
 * Whether u[] is precise enough to stop: at least 3 values and
 * stats_ci_half_pct(u, n, alpha) <= pct.
 */
bool stats_precise(const double *u, size_t n, double alpha, double pct);

/*
 * Version 3 of compare's statistics (docs/statistics.md, "compare v3"):
 * positive metrics on the log scale, the power of the Welch test that is
 * run, outliers and drift at a rate per table. Pure functions like those
 * above; a row goes stats_welch_pick(), stats_change() (which reads
 * log_scale), then stats_welch_mde_pct() at the level a lone change
 * needs under BH, alpha / (rows in the family).
 */

/*
 * Welch's test on log a and log b (every value > 0 and finite, else
 * untested as STATS_UNTESTED_UNDEFINED_MEAN): the means and variances in
 * out are those of the logs, scale is 1 and log_scale is set, so
 * stats_change() gives the ratio of the geometric means with the
 * interval exp(d -+ t se), d the difference of the mean logs, which
 * never leaves (0, inf).
 */
void stats_welch_log(const double *a, size_t na, const double *b, size_t nb,
		     struct stats_welch_units *out);

/*
 * stats_welch_log() when use_log and every value of both sides is > 0
 * and finite, else stats_welch_units() (Fieller's interval on the plain
 * means): a zero or negative unit value keeps a row on the plain scale.
 */
void stats_welch_pick(const double *a, size_t na, const double *b, size_t nb,
		      bool use_log, struct stats_welch_units *out);

/*
 * The power of Welch's two-sided test at level alpha for a difference
 * delta of the means when the values have standard deviations sd_a and
 * sd_b and there are na, nb >= 2 of them: exact for normal values, by
 * integrating the noncentral t over the distribution of the ratio of
 * the two sample variances, which sets the Satterthwaite df the test
 * uses (docs/statistics.md gives the integral). One sd 0 leaves the
 * other side's one-sample t with its n - 1 df. NaN when both sd are 0
 * or an argument is out of range.
 */
double stats_welch_power(double delta, double sd_a, size_t na, double sd_b,
			 size_t nb, double alpha);

/*
 * The smallest delta >= 0 that stats_welch_power() finds with
 * probability power (solved to 1e-10 relative); INFINITY when none up to
 * 1e12 sd does, NaN as stats_welch_power().
 */
double stats_welch_mde(double sd_a, size_t na, double sd_b, size_t nb,
		       double alpha, double power);

/*
 * The minimum detectable effect of a tested row in percent, at level
 * alpha (pass alpha / m for a lone change in a BH family of m rows): on
 * the log scale 100 (exp(mde) - 1) of stats_welch_mde() of the sds of
 * the logs; on the plain scale stats_welch_mde() of the two
 * coefficients of variation (each side's sd over |its mean|, percent).
 * NaN when untested, constant or a mean is 0.
 */
double stats_welch_mde_pct(const struct stats_welch_units *w, double alpha,
			   double power);

/*
 * A memo of stats_welch_mde_pct() at one alpha and power for the many
 * rows of a family. The rows of a design (na, nb) differ only in the
 * share of the variance of the difference that comes from side a, on which
 * the ncp of their MDE depends smoothly: for a design of at least
 * STATS_MDE_MEMO_ROWS planned rows the memo computes the ncp exactly at 49
 * Chebyshev points of the shares 0.01 to 0.99, checks the interpolation at
 * 8 more points against the exact value (relative error 1e-7; where that
 * fails, as where the noncentral t switches to its approximation past ncp
 * 37.6, every row of the design is computed exactly) and interpolates.
 * Other designs, and rows whose share is outside, are computed exactly. Plan
 * every row (stats_mde_memo_plan()), then ask for each (stats_mde_memo_pct():
 * NaN where stats_welch_mde_pct() is). The memo owns its tables.
 */
#define STATS_MDE_MEMO_ROWS 100
struct stats_mde_memo;
struct stats_mde_memo *stats_mde_memo_new(double alpha, double power);
void stats_mde_memo_plan(struct stats_mde_memo *m,
			 const struct stats_welch_units *w);
double stats_mde_memo_pct(struct stats_mde_memo *m,
			  const struct stats_welch_units *w);
/* Whether the rows of design (na, nb) asked so far were interpolated. */
bool stats_mde_memo_interpolates(const struct stats_mde_memo *m, size_t na,
				 size_t nb);
void stats_mde_memo_free(struct stats_mde_memo *m);

/*
 * The units per side, n = na = nb, that stats_welch_power() needs to
 * find delta with probability power: the smallest whole n >= 2, as a
 * double; INFINITY above 1e6, NaN as stats_welch_power().
 */
double stats_welch_power_n(double delta, double sd_a, double sd_b, double alpha,
			   double power);

/*
 * Outliers by Rosner's generalized ESD test at level alpha (for a
 * table of m rows pass alpha / m, so that all its rows together warn
 * about normal data at most alpha of the time): up to max(1, n / 5)
 * values, flag[i] for the ones found; on log u when every value is > 0
 * (the scale of the log test). Nothing below 3 values or with no
 * spread. Returns the number flagged.
 */
size_t stats_outliers_esd(const double *u, size_t n, double alpha, bool *flag);
/*
 * Rosner's critical value for the i-th (1-based) of n > i + 1 values at
 * level alpha, from Student's t quantile; and a lower bound of it from
 * the normal quantile (below t's at the same upper tail, and the value
 * grows with the quantile), which is cheap: a score under the bound
 * needs no t quantile.
 */
double stats_esd_lambda(size_t n, size_t i, double alpha);
double stats_esd_lambda_floor(size_t n, size_t i, double alpha);

/*
 * compare's levels for its warnings: outliers by the ESD test at 1% per
 * table of 20 rows of 2 labels (per side of a row: 0.01 / 40), and drift
 * (stats_spearman() from 6 units) when its BH-adjusted p over the sides
 * of one table is at most 0.01.
 */
#define STATS_OUTLIER_ALPHA (0.01 / 40.0)
#define STATS_DRIFT_Q	    0.01

#endif /* MMCMP_STATS_H */
