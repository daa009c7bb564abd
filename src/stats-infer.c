/* stats-infer: units, change, interval, verdict, power and warnings. */
#include "stats.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Iglewicz and Hoaglin: 1.4826 MAD estimates sigma; cut at 3.5. */
#define MAD_SIGMA     1.4826
#define OUTLIER_SCORE 3.5
/* power.t.test() looks for n in [2, 1e7]. */
#define POWER_N_MIN 2.0
#define POWER_N_MAX 1e7
/* The root finder's relative tolerance and step limit. */
#define ROOT_TOL  1e-14
#define ROOT_ITER 300

/* A value and its index, for ranking; ties keep the order of i. */
struct rank_item {
	double v;
	size_t i;
};

static int rank_item_cmp(const void *pa, const void *pb)
{
	const struct rank_item *a = pa, *b = pb;

	if (a->v != b->v)
		return (a->v > b->v) - (a->v < b->v);
	return (a->i > b->i) - (a->i < b->i);
}

/* A finalizer of splitmix64, to spread keys over a hash table. */
static size_t key_hash(long long key)
{
	uint64_t z = (uint64_t)key;

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return (size_t)(z ^ (z >> 31));
}

/*
 * Give sample i the group gi[i] of its key, groups numbered in the order
 * of their first sample; returns the number of groups. Samples usually
 * come unit after unit with rising keys, which costs one pass; otherwise
 * each run of equal keys looks its key up in an open-addressing hash
 * table (linear probing, at most half full), still O(n).
 */
static size_t group_index(const long long *key, size_t n, size_t *gi)
{
	size_t runs = 0, groups = 0, size = 2, *slot;
	long long *slot_key;
	bool rising = true;

	for (size_t i = 0; i < n; i++) {
		if (i && key[i] != key[i - 1]) {
			rising &= key[i] > key[i - 1];
			runs++;
		}
		gi[i] = runs;
	}
	if (!n)
		return 0;
	if (rising)
		return runs + 1;
	while (size < 2 * (runs + 1))
		size *= 2;
	slot = xmalloc(size * sizeof(*slot));
	slot_key = xmalloc(size * sizeof(*slot_key));
	for (size_t h = 0; h < size; h++)
		slot[h] = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		size_t h;

		if (i && key[i] == key[i - 1]) {
			gi[i] = gi[i - 1];
			continue;
		}
		h = key_hash(key[i]) & (size - 1);
		while (slot[h] != SIZE_MAX && slot_key[h] != key[i])
			h = (h + 1) & (size - 1);
		if (slot[h] == SIZE_MAX) {
			slot[h] = groups++;
			slot_key[h] = key[i];
		}
		gi[i] = slot[h];
	}
	free(slot);
	free(slot_key);
	return groups;
}

size_t stats_unit_index(const long long *key, size_t n, size_t *gi)
{
	return group_index(key, n, gi);
}

void stats_unit_means(const double *x, const size_t *gi, size_t n, size_t units,
		      bool reciprocal, double *u, size_t *count)
{
	size_t *cnt =
		count ? count : xmalloc((units ? units : 1) * sizeof(*cnt));

	for (size_t g = 0; g < units; g++) {
		u[g] = 0.0;
		cnt[g] = 0;
	}
	for (size_t i = 0; i < n; i++) {
		/* A sample <= 0 has no reciprocal: the unit's Hmean is NaN. */
		if (reciprocal)
			u[gi[i]] += x[i] > 0.0 ? 1.0 / x[i] : NAN;
		else
			u[gi[i]] += x[i];
		cnt[gi[i]]++;
	}
	for (size_t g = 0; g < units; g++)
		u[g] /= (double)cnt[g];
	if (!count)
		free(cnt);
}

size_t stats_unit_values(const double *x, const long long *key, size_t n,
			 bool reciprocal, double *u, size_t *count)
{
	size_t *gi = xmalloc((n ? n : 1) * sizeof(*gi));
	size_t groups = group_index(key, n, gi);

	stats_unit_means(x, gi, n, groups, reciprocal, u, count);
	free(gi);
	return groups;
}

/*
 * Benjamini and Hochberg (1995) adjusted p-values in the form of R's
 * p.adjust: with the m non-NaN p-values in ascending order, the running
 * minimum of m / k * p(k) from the largest k down, capped at 1.
 */
void stats_bh_adjust(const double *p, size_t n, double *adj)
{
	struct rank_item *r = xmalloc((n ? n : 1) * sizeof(*r));
	double run = INFINITY;
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		adj[i] = NAN;
		if (!isnan(p[i]))
			r[m++] = (struct rank_item){p[i], i};
	}
	qsort(r, m, sizeof(*r), rank_item_cmp);
	for (size_t k = m; k >= 1; k--) {
		run = fmin(run, (double)m / (double)k * r[k - 1].v);
		adj[r[k - 1].i] = fmin(run, 1.0);
	}
	free(r);
}

const char *stats_untested_reason(enum stats_untested why)
{
	switch (why) {
	case STATS_TESTED:
		return "tested";
	case STATS_UNTESTED_NO_SAMPLES:
		return "no samples on a side";
	case STATS_UNTESTED_UNDEFINED_MEAN:
		return "undefined mean (a sample <= 0)";
	case STATS_UNTESTED_NONFINITE:
		return "non-finite values";
	case STATS_UNTESTED_FEW_UNITS:
		return "fewer than 2 units on a side";
	case STATS_UNTESTED_DEGENERATE:
		return "numerically degenerate";
	}
	BUG("unknown untested reason %d", (int)why);
}

static void change_none(struct stats_change *out)
{
	out->kind = STATS_CI_NONE;
	out->theta = out->theta_low = out->theta_high = NAN;
	out->change_pct = out->low_pct = out->high_pct = NAN;
}

/*
 * Fieller's confidence set for m1 / m2, {theta : (m1 - theta m2)^2 <=
 * t^2 (v1 + theta^2 v2)}: the roots of a theta^2 - 2 b theta + c with
 * a = m2^2 - t^2 v2, b = m1 m2, c = m1^2 - t^2 v1, by the stable form
 * of the quadratic formula (no cancellation of b and the root).
 */
static enum stats_ci_kind fieller(double m1, double v1, double m2, double v2,
				  double t, double *lo, double *hi)
{
	double a = m2 * m2 - t * t * v2, b = m1 * m2, c = m1 * m1 - t * t * v1;
	double disc = b * b - a * c, q, r1, r2;

	*lo = *hi = NAN;
	if (a == 0.0)
		return STATS_CI_RAY;
	if (a < 0.0 && disc < 0.0)
		return STATS_CI_WHOLE_LINE;
	/* With a > 0, disc >= 0 in exact arithmetic. */
	disc = fmax(disc, 0.0);
	q = b + copysign(sqrt(disc), b);
	if (q == 0.0) {
		r1 = r2 = 0.0;
	} else {
		r1 = q / a;
		r2 = c / q;
	}
	*lo = fmin(r1, r2);
	*hi = fmax(r1, r2);
	return a > 0.0 ? STATS_CI_BOUNDED : STATS_CI_EXCLUSIVE;
}

/*
 * On the log scale: theta the ratio of the geometric means, exp(d) with
 * d the difference of the mean logs (base - other for higher-is-better
 * rows, whose values are reciprocals), and its interval exp(d -+ t se).
 */
static void log_change(const struct stats_welch_units *w, bool higher_better,
		       double alpha, struct stats_change *out)
{
	double d =
		higher_better ? w->mean_a - w->mean_b : w->mean_b - w->mean_a;
	double se = sqrt(w->var_a / (double)w->na + w->var_b / (double)w->nb);
	double t = w->constant ? 0.0 : stats_t_isf(0.5 * alpha, w->df);

	out->kind = STATS_CI_BOUNDED;
	out->theta = exp(d);
	out->theta_low = exp(d - t * se);
	out->theta_high = exp(d + t * se);
	/* + 0.0: no change prints 0.00%, not -0.00%. */
	if (higher_better) {
		out->change_pct = 100.0 * expm1(d) + 0.0;
		out->low_pct = 100.0 * expm1(d - t * se) + 0.0;
		out->high_pct = 100.0 * expm1(d + t * se) + 0.0;
	} else {
		out->change_pct = -100.0 * expm1(d) + 0.0;
		out->low_pct = -100.0 * expm1(d + t * se) + 0.0;
		out->high_pct = -100.0 * expm1(d - t * se) + 0.0;
	}
}

void stats_change(const struct stats_welch_units *w, bool higher_better,
		  double alpha, struct stats_change *out)
{
	double m1, v1, m2, v2, t, sign;

	change_none(out);
	if (w->untested != STATS_TESTED)
		return;
	if (w->log_scale) {
		log_change(w, higher_better, alpha, out);
		return;
	}
	/* higher: theta = base / other on reciprocals; lower: other / base. */
	m1 = higher_better ? w->mean_a : w->mean_b;
	v1 = (higher_better ? w->var_a : w->var_b) /
	     (double)(higher_better ? w->na : w->nb);
	m2 = higher_better ? w->mean_b : w->mean_a;
	v2 = (higher_better ? w->var_b : w->var_a) /
	     (double)(higher_better ? w->nb : w->na);
	t = w->constant ? 0.0 : stats_t_isf(0.5 * alpha, w->df);
	out->theta = m1 / m2;
	out->kind =
		fieller(m1, v1, m2, v2, t, &out->theta_low, &out->theta_high);
	/* No spread: the point theta itself, not the roots' rounding. */
	if (w->constant && out->kind == STATS_CI_BOUNDED)
		out->theta_low = out->theta_high = out->theta;
	/*
	 * Positive is better. A negative lower-is-better base would turn
	 * 1 - theta round, so its sign multiplies in: the change is then
	 * (base - other) / |base| as in the table's percentages.
	 */
	sign = !higher_better && w->mean_a < 0.0 ? -1.0 : 1.0;
	if (higher_better || sign < 0.0) {
		out->change_pct = 100.0 * (out->theta - 1.0);
		out->low_pct = 100.0 * (out->theta_low - 1.0);
		out->high_pct = 100.0 * (out->theta_high - 1.0);
	} else {
		out->change_pct = 100.0 * (1.0 - out->theta);
		out->low_pct = 100.0 * (1.0 - out->theta_high);
		out->high_pct = 100.0 * (1.0 - out->theta_low);
	}
	if (out->kind != STATS_CI_BOUNDED)
		out->low_pct = out->high_pct = NAN;
}

const char *stats_verdict_name(enum stats_verdict v)
{
	switch (v) {
	case STATS_VERDICT_UNTESTED:
		return "untested";
	case STATS_VERDICT_BETTER:
		return "better";
	case STATS_VERDICT_WORSE:
		return "worse";
	case STATS_VERDICT_SAME:
		return "same";
	case STATS_VERDICT_INCONCLUSIVE:
		return "inconclusive";
	}
	BUG("unknown verdict %d", (int)v);
}

enum stats_verdict stats_verdict(bool marked, double change_pct,
				 const struct stats_change *tost,
				 double margin_pct)
{
	if (isnan(change_pct))
		return STATS_VERDICT_UNTESTED;
	if (marked && change_pct >= margin_pct)
		return STATS_VERDICT_BETTER;
	if (marked && change_pct <= -margin_pct)
		return STATS_VERDICT_WORSE;
	if (margin_pct > 0.0 && tost && tost->kind == STATS_CI_BOUNDED &&
	    tost->low_pct > -margin_pct && tost->high_pct < margin_pct)
		return STATS_VERDICT_SAME;
	return STATS_VERDICT_INCONCLUSIVE;
}

typedef double root_fn(double x, const void *ctx);

/*
 * The root of an increasing f in [lo, hi], f(lo) < 0 < f(hi), by the
 * Illinois variant of regula falsi (Dowell and Jarratt 1971): it keeps
 * the bracket and converges superlinearly.
 */
static double solve_increasing(root_fn *f, const void *ctx, double lo,
			       double hi)
{
	double flo = f(lo, ctx), fhi = f(hi, ctx);
	int side = 0;

	for (int it = 0; it < ROOT_ITER; it++) {
		double x = (lo * fhi - hi * flo) / (fhi - flo), fx;

		if (!(x > lo && x < hi))
			x = 0.5 * (lo + hi);
		if (hi - lo <= ROOT_TOL * fabs(x))
			return x;
		fx = f(x, ctx);
		if (fx == 0.0)
			return x;
		if (fx < 0.0) {
			lo = x;
			flo = fx;
			if (side == -1)
				fhi *= 0.5;
			side = -1;
		} else {
			hi = x;
			fhi = fx;
			if (side == 1)
				flo *= 0.5;
			side = 1;
		}
	}
	return 0.5 * (lo + hi);
}

double stats_power(double n, double delta, double alpha)
{
	double nu = 2.0 * (n - 1.0);

	if (!(n > 1.0) || !(alpha > 0.0 && alpha < 1.0) || isnan(delta))
		return NAN;
	/* power.t.test(strict = FALSE): the rejections in the upper tail. */
	return stats_nct_sf(stats_t_isf(0.5 * alpha, nu), nu,
			    sqrt(0.5 * n) * delta);
}

/* The power for a given ncp, less the power wanted. */
struct mde_ctx {
	double nu, crit, power;
};

static double mde_gap(double ncp, const void *ctx)
{
	const struct mde_ctx *c = ctx;

	return stats_nct_sf(c->crit, c->nu, ncp) - c->power;
}

static bool power_args_ok(double alpha, double power)
{
	return alpha > 0.0 && alpha < 1.0 && power > 0.0 && power < 1.0;
}

double stats_mde(double n, double sd, double alpha, double power)
{
	struct mde_ctx c;
	double hi = 1.0;

	if (!(n > 1.0) || !(sd >= 0.0) || isinf(sd) ||
	    !power_args_ok(alpha, power))
		return NAN;
	if (sd == 0.0)
		return 0.0;
	c.nu = 2.0 * (n - 1.0);
	c.crit = stats_t_isf(0.5 * alpha, c.nu);
	c.power = power;
	/* At delta = 0 the power is alpha / 2; smaller targets need none. */
	if (mde_gap(0.0, &c) >= 0.0)
		return 0.0;
	while (mde_gap(hi, &c) < 0.0) {
		hi *= 2.0;
		if (hi > 1e15)
			return INFINITY;
	}
	return solve_increasing(mde_gap, &c, 0.0, hi) / sqrt(0.5 * n) * sd;
}

/* The power for n units per side, less the power wanted. */
struct n_ctx {
	double delta, alpha, power;
};

static double n_gap(double n, const void *ctx)
{
	const struct n_ctx *c = ctx;

	return stats_power(n, c->delta, c->alpha) - c->power;
}

double stats_power_n(double delta, double sd, double alpha, double power)
{
	struct n_ctx c;

	if (isnan(delta) || !(sd >= 0.0) || !power_args_ok(alpha, power))
		return NAN;
	if (delta == 0.0)
		return INFINITY;
	if (sd == 0.0)
		return POWER_N_MIN;
	c.delta = fabs(delta) / sd;
	c.alpha = alpha;
	c.power = power;
	if (n_gap(POWER_N_MIN, &c) >= 0.0)
		return POWER_N_MIN;
	if (n_gap(POWER_N_MAX, &c) < 0.0)
		return INFINITY;
	return solve_increasing(n_gap, &c, POWER_N_MIN, POWER_N_MAX);
}

double stats_power_n_harmonic(const struct stats_welch_units *w)
{
	if (w->untested != STATS_TESTED)
		return NAN;
	return 2.0 / (1.0 / (double)w->na + 1.0 / (double)w->nb);
}

double stats_power_sd_pct(const struct stats_welch_units *w)
{
	double cva, cvb;

	if (w->untested != STATS_TESTED || w->mean_a == 0.0 || w->mean_b == 0.0)
		return NAN;
	cva = 100.0 * sqrt(w->var_a) / fabs(w->mean_a);
	cvb = 100.0 * sqrt(w->var_b) / fabs(w->mean_b);
	return sqrt(0.5 * (cva * cva + cvb * cvb));
}

enum stats_pct_state stats_pct_change(double value, bool has_value, double base,
				      bool has_base, bool higher_better,
				      double *pct)
{
	double v;

	*pct = NAN;
	if (!has_value || !has_base)
		return STATS_PCT_NONE;
	if (base == 0.0 || isnan(base) || isnan(value))
		return STATS_PCT_NA;
	v = 100.0 * (value - base) / fabs(base);
	if (!higher_better)
		v = -v;
	if (!isfinite(v))
		return STATS_PCT_NA;
	*pct = v;
	return STATS_PCT_OK;
}

/* mmtests' z: qnorm(0.975), the half-width of its CI in sds. */
#define MMTESTS_Z 1.959963984540054
/* Simpson's intervals over each sample sd's range. */
#define MMTESTS_RATE_STEPS 1000

/*
 * Simpson's weights times the density of S = sqrt(X / k), X chi-squared
 * with k df (S is the sample sd of k + 1 values of sd 1), at
 * MMTESTS_RATE_STEPS + 1 nodes s[] over 12 of its sds about 1.
 */
static void sd_nodes(double k, double *s, double *w)
{
	double spread = 12.0 / sqrt(2.0 * k);
	double lo = fmax(0.0, 1.0 - spread), hi = 1.0 + spread;
	double h = (hi - lo) / MMTESTS_RATE_STEPS;

	for (size_t i = 0; i <= MMTESTS_RATE_STEPS; i++) {
		double x = lo + (double)i * h, d;

		if (x > 0.0)
			d = exp(log(2.0 * k * x) +
				(0.5 * k - 1.0) * log(k * x * x) -
				0.5 * k * x * x - 0.5 * k * log(2.0) -
				stats_lgamma(0.5 * k));
		else
			d = k == 1.0 ? sqrt(2.0 / M_PI) : 0.0;
		s[i] = x;
		w[i] = d * h / 3.0 *
		       (i == 0 || i == MMTESTS_RATE_STEPS ? 1.0
			: i % 2				  ? 4.0
							  : 2.0);
	}
}

/*
 * The nodes of weights w[] (of sum mass) up to the last that is not
 * below mass * 2^-60. The integrand falls with s there (erfc of a
 * growing argument, times a weight that falls faster), so what the
 * nodes past it add is below the last bit of the rate; at small s, where
 * the erfc is largest, every node counts, however small its weight.
 */
static size_t weighty(const double *w, double mass)
{
	double tiny = ldexp(mass, -60);
	size_t to = MMTESTS_RATE_STEPS + 1;

	while (to > 1 && w[to - 1] < tiny)
		to--;
	return to;
}

double stats_mmtests_aa_rate(size_t na, size_t nb)
{
	double sa[MMTESTS_RATE_STEPS + 1], wa[MMTESTS_RATE_STEPS + 1];
	double sb[MMTESTS_RATE_STEPS + 1], wb[MMTESTS_RATE_STEPS + 1];
	double sd, rate = 0.0, mass_a = 0.0, mass_b = 0.0;
	size_t a1, b1;

	if (na < 2 || nb < 2)
		return 0.0;
	sd = sqrt(1.0 / (double)na + 1.0 / (double)nb);
	sd_nodes((double)(na - 1), sa, wa);
	sd_nodes((double)(nb - 1), sb, wb);
	for (size_t j = 0; j <= MMTESTS_RATE_STEPS; j++)
		mass_b += wb[j];
	for (size_t i = 0; i <= MMTESTS_RATE_STEPS; i++)
		mass_a += wa[i];
	a1 = weighty(wa, mass_a);
	b1 = weighty(wb, mass_b);
	if (na == nb) {
		/*
		 * The same nodes on both sides: s_i + s_j depends on i + j
		 * alone, so the weights are summed by i + j first, and the
		 * erfc taken once a sum, not once a pair.
		 */
		double conv[2 * MMTESTS_RATE_STEPS + 1] = {0};

		for (size_t i = 0; i < a1; i++)
			for (size_t j = 0; j < a1; j++)
				conv[i + j] += wa[i] * wb[j];
		for (size_t k = 0; k + 1 < 2 * a1; k++)
			rate += conv[k] *
				erfc(MMTESTS_Z * (sa[k / 2] + sb[k - k / 2]) /
				     (sd * M_SQRT2));
		return rate / (mass_a * mass_b);
	}
	for (size_t i = 0; i < a1; i++) {
		double inner = 0.0;

		for (size_t j = 0; j < b1; j++)
			inner += wb[j] * erfc(MMTESTS_Z * (sa[i] + sb[j]) /
					      (sd * M_SQRT2));
		rate += wa[i] * inner;
	}
	/* erfc(x / sqrt 2) is 2 Phi(-x); the masses cancel Simpson's error. */
	return rate / (mass_a * mass_b);
}

double stats_utest_mde_pct(const struct stats_welch_units *w, double alpha,
			   double power)
{
	double fa, fb, need, sd, delta;

	if (w->untested != STATS_TESTED || w->constant ||
	    !(alpha > 0.0 && alpha < 1.0) || !(power > 0.0 && power < 1.0) ||
	    stats_utest_floor(w->na, w->nb) > alpha)
		return NAN;
	fa = (double)w->na;
	fb = (double)w->nb;
	need = 0.5 + (stats_norm_quantile(1.0 - 0.5 * alpha) +
		      stats_norm_quantile(power)) *
			     sqrt((fa + fb + 1.0) / (12.0 * fa * fb));
	if (!(need < 1.0))
		return NAN;
	delta = M_SQRT2 * stats_norm_quantile(need);
	if (w->log_scale)
		return 100.0 * expm1(delta * sqrt(0.5 * (w->var_a + w->var_b)));
	if (w->mean_a == 0.0 || w->mean_b == 0.0)
		return NAN;
	/* The two sides' CVs, in percent, as Welch's plain-scale MDE. */
	sd = sqrt(0.5 * (w->var_a / (w->mean_a * w->mean_a) +
			 w->var_b / (w->mean_b * w->mean_b)));
	return 100.0 * delta * sd;
}

double stats_utest_floor(size_t na, size_t nb)
{
	size_t lo = na < nb ? na : nb, hi = na < nb ? nb : na;
	double c = 1.0;

	/* choose(lo + hi, lo) as a product of ratios; inf is fine. */
	for (size_t i = 1; i <= lo; i++)
		c *= (double)(hi + i) / (double)i;
	return fmin(1.0, 2.0 / c);
}

size_t stats_utest_min_units(double alpha, size_t family)
{
	double cut = alpha / (double)(family ? family : 1);
	size_t n = 1;

	if (!(alpha > 0.0))
		return SIZE_MAX;
	while (stats_utest_floor(n, n) > cut)
		n++;
	return n;
}

/*
 * The k-th smallest of x[0..n) (0-based), n > k, by Wirth's selection
 * (Hoare's partition around x[k]): x is reordered so that
 * x[0..k) <= x[k] <= x[k+1..n), in O(n) on average where a sort costs
 * O(n log n).
 */
static double select_kth(double *x, size_t n, size_t k)
{
	ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;

	while (lo < hi) {
		double pivot = x[kk], t;
		ptrdiff_t i = lo, j = hi;

		do {
			while (x[i] < pivot)
				i++;
			while (pivot < x[j])
				j--;
			if (i <= j) {
				t = x[i];
				x[i++] = x[j];
				x[j--] = t;
			}
		} while (i <= j);
		if (j < kk)
			lo = i;
		if (kk < i)
			hi = j;
	}
	return x[kk];
}

/* The median of x[0..n), n > 0, as stats_median(), reordering x. */
static double median_inplace(double *x, size_t n)
{
	double hi = select_kth(x, n, n / 2), lo;

	if (n % 2)
		return hi;
	/* The lower middle is the largest of the half below. */
	lo = x[0];
	for (size_t i = 1; i < n / 2; i++)
		if (x[i] > lo)
			lo = x[i];
	return stats_midpoint(lo, hi);
}

size_t stats_outliers(const double *u, size_t n, bool *flag)
{
	double *dev, *tmp, med, mad;
	size_t nr = 0;

	for (size_t i = 0; i < n; i++)
		flag[i] = false;
	if (n < 3)
		return 0;
	/* Two medians per call, for every row: a selection, not a sort. */
	tmp = xmalloc(n * sizeof(*tmp));
	memcpy(tmp, u, n * sizeof(*tmp));
	med = median_inplace(tmp, n);
	dev = xmalloc(n * sizeof(*dev));
	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(u[i] - med);
	memcpy(tmp, dev, n * sizeof(*tmp));
	mad = median_inplace(tmp, n);
	free(tmp);
	for (size_t i = 0; mad > 0.0 && i < n; i++) {
		flag[i] = dev[i] / (MAD_SIGMA * mad) > OUTLIER_SCORE;
		nr += flag[i];
	}
	free(dev);
	return nr;
}

/*
 * Sort it[0..n) by rank_item_cmp()'s order (value, then index), NaN-free:
 * a bottom-up merge sort with the comparison inline, several times
 * faster than qsort() calling back for the thousands of rankings a
 * table makes. The order is total, so the result is qsort()'s.
 */
static void rank_sort(struct rank_item *it, size_t n)
{
	struct rank_item *tmp = xmalloc(n * sizeof(*tmp)), *a = it, *b = tmp;

	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n;
			size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, k = lo;

			while (i < mid && j < hi)
				b[k++] = a[j].v < a[i].v || (a[j].v == a[i].v &&
							     a[j].i < a[i].i)
						 ? a[j++]
						 : a[i++];
			while (i < mid)
				b[k++] = a[i++];
			while (j < hi)
				b[k++] = a[j++];
		}
		a = b;
		b = a == it ? tmp : it;
	}
	if (a != it)
		memcpy(it, a, n * sizeof(*it));
	free(tmp);
}

/* The ranks 1 .. n of x, ties given their mean rank. */
static void midranks(const double *x, size_t n, double *rank)
{
	struct rank_item *it = xmalloc(n * sizeof(*it));
	size_t i = 0;
	bool sorted = true, nan = false;

	for (size_t k = 0; k < n; k++) {
		it[k] = (struct rank_item){x[k], k};
		sorted &= !k || x[k - 1] <= x[k];
		nan |= isnan(x[k]);
	}
	/* Already in order (times, mostly): the sort would keep it. */
	if (!sorted && !nan)
		rank_sort(it, n);
	else if (!sorted)
		qsort(it, n, sizeof(*it), rank_item_cmp);
	while (i < n) {
		size_t j = i + 1;

		while (j < n && it[j].v == it[i].v)
			j++;
		for (size_t k = i; k < j; k++)
			rank[it[k].i] = 0.5 * (double)(i + 1 + j);
		i = j;
	}
	free(it);
}

/*
 * The exact null distribution of Spearman's S = sum (rank_x - rank_y)^2
 * of n values without ties, n = 3 .. SPEARMAN_EXACT_MAX:
 * spearman_counts_n[k] permutations of the n! have S = 2k (S is always
 * even), k = 0 .. (n^3 - n) / 6. Counted by enumerating the permutations,
 * as R's prho() (AS 89) does for n <= 9; tests/test-stats-v2.c counts
 * them again.
 */
#define SPEARMAN_EXACT_MAX 9
/* clang-format off */
static const uint32_t spearman_counts_3[] = {
	1, 2, 0, 2, 1
};
static const uint32_t spearman_counts_4[] = {
	1, 3, 1, 4, 2, 2, 2, 4, 1, 3, 1
};
static const uint32_t spearman_counts_5[] = {
	1, 4, 3, 6, 7, 6, 4, 10, 6, 10, 6, 10, 6, 10, 4, 6, 7, 6, 3, 4, 1
};
static const uint32_t spearman_counts_6[] = {
	1, 5, 6, 9, 16, 12, 14, 24, 20, 21, 23, 28, 24, 34, 20, 32, 42, 29, 29,
	42, 32, 20, 34, 24, 28, 23, 21, 20, 24, 14, 12, 16, 9, 6, 5, 1
};
static const uint32_t spearman_counts_7[] = {
	1, 6, 10, 14, 29, 26, 35, 46, 55, 54, 74, 70, 84, 90, 78, 90, 129, 106,
	123, 134, 147, 98, 168, 130, 175, 144, 168, 144, 184, 144, 168, 144,
	175, 130, 168, 98, 147, 134, 123, 106, 129, 90, 78, 90, 84, 70, 74, 54,
	55, 46, 35, 26, 29, 14, 10, 6, 1
};
static const uint32_t spearman_counts_8[] = {
	1, 7, 15, 22, 47, 54, 70, 94, 129, 124, 178, 183, 237, 238, 276, 264,
	379, 349, 380, 400, 517, 394, 542, 492, 640, 557, 666, 595, 776, 684,
	786, 718, 922, 745, 917, 781, 982, 826, 950, 844, 1066, 845, 936, 845,
	1066, 844, 950, 826, 982, 781, 917, 745, 922, 718, 786, 684, 776, 595,
	666, 557, 640, 492, 542, 394, 517, 400, 380, 349, 379, 264, 276, 238,
	237, 183, 178, 124, 129, 94, 70, 54, 47, 22, 15, 7, 1
};
static const uint32_t spearman_counts_9[] = {
	1, 8, 21, 34, 72, 102, 130, 190, 260, 284, 398, 454, 555, 616, 756,
	744, 1022, 1042, 1159, 1282, 1555, 1392, 1719, 1758, 2009, 2032, 2282,
	2214, 2676, 2590, 2878, 2928, 3397, 3138, 3647, 3568, 3921, 3866, 4311,
	4050, 4852, 4492, 4816, 4784, 5505, 4954, 5638, 5304, 5890, 5486, 6188,
	5502, 6436, 5822, 6233, 6024, 6697, 5720, 6672, 6020, 6688, 6020, 6672,
	5720, 6697, 6024, 6233, 5822, 6436, 5502, 6188, 5486, 5890, 5304, 5638,
	4954, 5505, 4784, 4816, 4492, 4852, 4050, 4311, 3866, 3921, 3568, 3647,
	3138, 3397, 2928, 2878, 2590, 2676, 2214, 2282, 2032, 2009, 1758, 1719,
	1392, 1555, 1282, 1159, 1042, 1022, 744, 756, 616, 555, 454, 398, 284,
	260, 190, 130, 102, 72, 34, 21, 8, 1
};
/* clang-format on */
static const uint32_t *const spearman_counts[] = {
	spearman_counts_3, spearman_counts_4, spearman_counts_5,
	spearman_counts_6, spearman_counts_7, spearman_counts_8,
	spearman_counts_9,
};

/*
 * R's two-sided exact p of S (cor.test(method = "spearman", exact =
 * TRUE)): twice the tail of S's null distribution on the side of its
 * mean (n^3 - n) / 6 that S is on, at most 1.
 */
static double spearman_exact_p(size_t n, double s)
{
	const uint32_t *c = spearman_counts[n - 3];
	size_t last = (n * n * n - n) / 6, k = (size_t)(s / 2.0 + 0.5);
	double tail = 0.0, all = 0.0;

	bool upper = 2 * k > last;

	for (size_t i = 0; i <= last; i++) {
		all += c[i];
		if (upper ? i >= k : i <= k)
			tail += c[i];
	}
	return fmin(1.0, 2.0 * tail / all);
}

void stats_spearman(const double *x, const double *y, size_t n, double *rho,
		    double *p)
{
	double *rx, *ry, sxy = 0.0, sxx = 0.0, syy = 0.0, mean, r, t;
	double s = 0.0;

	*rho = *p = NAN;
	if (n < 3)
		return;
	rx = xmalloc(n * sizeof(*rx));
	ry = xmalloc(n * sizeof(*ry));
	midranks(x, n, rx);
	midranks(y, n, ry);
	/* Pearson's r of the ranks, whose mean is (n + 1) / 2. */
	mean = 0.5 * (double)(n + 1);
	for (size_t i = 0; i < n; i++) {
		sxy += (rx[i] - mean) * (ry[i] - mean);
		sxx += (rx[i] - mean) * (rx[i] - mean);
		syy += (ry[i] - mean) * (ry[i] - mean);
		s += (rx[i] - ry[i]) * (rx[i] - ry[i]);
	}
	free(rx);
	free(ry);
	if (sxx == 0.0 || syy == 0.0)
		return;
	r = fmax(-1.0, fmin(1.0, sxy / sqrt(sxx * syy)));
	*rho = r;
	/*
	 * Without ties the ranks are 1 .. n, whose squares about their mean
	 * sum to (n^3 - n) / 12 exactly; ties make the sum smaller.
	 */
	if (n <= SPEARMAN_EXACT_MAX && sxx == (double)(n * n * n - n) / 12.0 &&
	    syy == (double)(n * n * n - n) / 12.0) {
		*p = spearman_exact_p(n, s);
		return;
	}
	t = fabs(r) == 1.0 ? INFINITY
			   : fabs(r) * sqrt((double)(n - 2) / (1.0 - r * r));
	*p = fmin(1.0, 2.0 * stats_t_sf(t, (double)(n - 2)));
}

bool stats_interleaved(const double *time_a, size_t na, const double *time_b,
		       size_t nb)
{
	double amin = INFINITY, amax = -INFINITY;
	double bmin = INFINITY, bmax = -INFINITY;

	if (!na || !nb)
		return true;
	for (size_t i = 0; i < na; i++) {
		amin = fmin(amin, time_a[i]);
		amax = fmax(amax, time_a[i]);
	}
	for (size_t i = 0; i < nb; i++) {
		bmin = fmin(bmin, time_b[i]);
		bmax = fmax(bmax, time_b[i]);
	}
	return !(amax < bmin || bmax < amin);
}

double stats_anova_p(const double *x, const long long *key, size_t n)
{
	size_t *gi = xmalloc((n ? n : 1) * sizeof(*gi));
	size_t g = group_index(key, n, gi), *cnt = NULL;
	double *mean = NULL, grand = 0.0, ssb = 0.0, ssw = 0.0, p = NAN;
	double df1, df2, f;

	if (g < 2 || n <= g)
		goto out;
	mean = xcalloc(g, sizeof(*mean));
	cnt = xcalloc(g, sizeof(*cnt));
	for (size_t i = 0; i < n; i++) {
		mean[gi[i]] += x[i];
		cnt[gi[i]]++;
		grand += x[i];
	}
	grand /= (double)n;
	for (size_t k = 0; k < g; k++) {
		mean[k] /= (double)cnt[k];
		ssb += (double)cnt[k] * (mean[k] - grand) * (mean[k] - grand);
	}
	for (size_t i = 0; i < n; i++)
		ssw += (x[i] - mean[gi[i]]) * (x[i] - mean[gi[i]]);
	df1 = (double)(g - 1);
	df2 = (double)(n - g);
	if (ssw == 0.0) {
		p = ssb > 0.0 ? 0.0 : NAN;
		goto out;
	}
	/* P(F > f) = I_{df2 / (df2 + df1 f)}(df2 / 2, df1 / 2). */
	f = (ssb / df1) / (ssw / df2);
	p = stats_betainc(0.5 * df2, 0.5 * df1, df2 / (df2 + df1 * f));
out:
	free(gi);
	free(mean);
	free(cnt);
	return p;
}

double stats_cv_pct(const double *u, size_t n)
{
	double *s, scale = 0.0, mean, sd;

	if (n < 2)
		return NAN;
	/* Scaled by max |u|, so that the squares cannot overflow. */
	for (size_t i = 0; i < n; i++)
		scale = fmax(scale, fabs(u[i]));
	if (!(scale > 0.0) || isinf(scale))
		return NAN;
	s = xmalloc(n * sizeof(*s));
	for (size_t i = 0; i < n; i++)
		s[i] = u[i] / scale;
	mean = stats_amean(s, n);
	sd = stats_stddev(s, n);
	free(s);
	if (mean == 0.0 || isnan(mean))
		return NAN;
	return 100.0 * sd / fabs(mean);
}

double stats_ci_half_pct(const double *u, size_t n, double alpha)
{
	if (n < 2 || !(alpha > 0.0 && alpha < 1.0))
		return NAN;
	return stats_t_isf(0.5 * alpha, (double)(n - 1)) * stats_cv_pct(u, n) /
	       sqrt((double)n);
}

bool stats_precise(const double *u, size_t n, double alpha, double pct)
{
	return n >= 3 && stats_ci_half_pct(u, n, alpha) <= pct;
}
