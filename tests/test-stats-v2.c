/*
 * Unit tests for compare's statistics version 2 (units, Welch on units,
 * BH, Fieller, verdicts, power, warnings, precision) against R
 * (data/stats-v2-reference.tsv, written by
 * scripts/gen-stats-v2-reference.R): every number to 1e-9 relative, the
 * minimum detectable effect to 1e-6.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "test-stats-tsv.h"
#include "stats.h"
#include "util.h"

#define REL_TOL	   1e-9
#define MDE_TOL	   1e-6
#define TABLE_PATH "data/stats-v2-reference.tsv"
#define MAX_FIELDS 12

/* Up to four parsed list fields of one row, freed by row_release(). */
struct row {
	double *list[4];
	size_t nr[4];
};

#define ROW_INIT                                                               \
	{                                                                      \
		{NULL},                                                        \
		{                                                              \
			0                                                      \
		}                                                              \
	}

static void row_release(struct row *r)
{
	for (size_t i = 0; i < ARRAY_SIZE(r->list); i++)
		free(r->list[i]);
}

/* Parse field[first + k] as numbers for the k-th list of r. */
static bool row_lists(struct row *r, char **field, size_t first, size_t nr)
{
	for (size_t k = 0; k < nr; k++)
		if (!parse_list(field[first + k], &r->list[k], &r->nr[k]))
			return false;
	return true;
}

/* Parse n numbers from field[first ...] into v[]. */
static bool row_nums(char **field, size_t first, size_t n, double *v)
{
	for (size_t i = 0; i < n; i++)
		if (!parse_num_or_nan(field[first + i], &v[i]))
			return false;
	return true;
}

static long long *keys_of(const double *v, size_t n)
{
	long long *k = xmalloc((n ? n : 1) * sizeof(*k));

	for (size_t i = 0; i < n; i++)
		k[i] = (long long)v[i];
	return k;
}

/* Whether got[] matches want[] to tol (NaN matching NaN); worst in *err. */
static bool lists_near(const double *got, const double *want, size_t n,
		       double tol, double *err)
{
	bool same = true;

	*err = 0.0;
	for (size_t i = 0; i < n; i++) {
		double e = isnan(want[i]) && isnan(got[i])
				   ? 0.0
				   : rel_error(got[i], want[i]);

		if (e > tol) {
			diag("[%zu] got %.17g, want %.17g", i, got[i], want[i]);
			same = false;
		}
		*err = fmax(*err, e);
	}
	return same;
}

static void check_units(char **f, size_t nf, int line)
{
	struct row r = ROW_INIT;
	double rec, *u = NULL, err;
	long long *key = NULL;
	size_t n = 0;

	if (nf != 5 || !row_nums(f, 1, 1, &rec) || !row_lists(&r, f, 2, 3) ||
	    r.nr[0] != r.nr[1]) {
		ok(false, "units: malformed row (line %d)", line);
		goto out;
	}
	key = keys_of(r.list[1], r.nr[1]);
	u = xmalloc(r.nr[0] * sizeof(*u));
	n = stats_unit_values(r.list[0], key, r.nr[0], rec != 0.0, u, NULL);
	err = INFINITY;
	ok(n == r.nr[2] && lists_near(u, r.list[2], n, REL_TOL, &err),
	   "units(%zu samples, %s) = %zu units as R (line %d)", r.nr[0],
	   rec != 0.0 ? "reciprocal" : "plain", r.nr[2], line);
	note_error("units", err, line);
out:
	free(u);
	free(key);
	row_release(&r);
}

static void check_welch(char **f, size_t nf, int line)
{
	struct row r = ROW_INIT;
	struct stats_welch_units w;
	double want[3];
	char args[64];

	if (nf != 6 || !row_lists(&r, f, 1, 2) || !row_nums(f, 3, 3, want)) {
		ok(false, "welch: malformed row (line %d)", line);
		goto out;
	}
	stats_welch_units(r.list[0], r.nr[0], r.list[1], r.nr[1], &w);
	snprintf(args, sizeof(args), "n = %zu, %zu, |u| ~ %.0e", r.nr[0],
		 r.nr[1], fabs(r.list[0][0]));
	ok(w.untested == STATS_TESTED, "welch(%s) tested (line %d)", args,
	   line);
	check_rel_tol("welch_t", args, w.t, want[0], REL_TOL, line);
	check_rel_tol("welch_df", args, w.df, want[1], REL_TOL, line);
	check_rel_tol("welch_p", args, w.p, want[2], REL_TOL, line);
out:
	row_release(&r);
}

static void check_bh_adjust(char **f, size_t nf, int line)
{
	struct row r = ROW_INIT;
	double *adj = NULL, err;
	bool same;

	if (nf != 3 || !row_lists(&r, f, 1, 2) || r.nr[0] != r.nr[1]) {
		ok(false, "bh_adjust: malformed row (line %d)", line);
		goto out;
	}
	adj = xmalloc(r.nr[0] * sizeof(*adj));
	stats_bh_adjust(r.list[0], r.nr[0], adj);
	same = lists_near(adj, r.list[1], r.nr[0], REL_TOL, &err);
	ok(same, "bh_adjust(n = %zu) as p.adjust, rel err %.1e (line %d)",
	   r.nr[0], err, line);
	note_error("bh_adjust", err, line);
out:
	free(adj);
	row_release(&r);
}

/* Rows of numbers only: name, nargs, a function and a tolerance. */
struct scalar_fn {
	const char *name;
	size_t nargs;
	double (*fn)(const double *arg);
	double tol;
};

static double eval_qt_upper(const double *a)
{
	return stats_t_isf(a[0], a[1]);
}

static double eval_pnt_lower(const double *a)
{
	return stats_nct_cdf(a[0], a[1], a[2]);
}

static double eval_pnt_upper(const double *a)
{
	return stats_nct_sf(a[0], a[1], a[2]);
}

static double eval_power(const double *a)
{
	return stats_power(a[0], a[1], a[2]);
}

static double eval_mde(const double *a)
{
	return stats_mde(a[0], a[1], a[2], a[3]);
}

static double eval_power_n(const double *a)
{
	return stats_power_n(a[0], a[1], a[2], a[3]);
}

static double eval_utest_floor(const double *a)
{
	return stats_utest_floor((size_t)a[0], (size_t)a[1]);
}

static double eval_pct(const double *a)
{
	double pct;

	if (stats_pct_change(a[0], true, a[1], true, a[2] != 0.0, &pct) !=
	    STATS_PCT_OK)
		return NAN;
	return pct;
}

/* clang-format off */
static const struct scalar_fn scalar_fns[] = {
	{ "qt_upper", 2, eval_qt_upper, REL_TOL },
	{ "pnt_lower", 3, eval_pnt_lower, REL_TOL },
	{ "pnt_upper", 3, eval_pnt_upper, REL_TOL },
	{ "power", 3, eval_power, REL_TOL },
	{ "mde", 4, eval_mde, MDE_TOL },
	{ "power_n", 4, eval_power_n, REL_TOL },
	{ "utest_floor", 2, eval_utest_floor, REL_TOL },
	{ "pct", 3, eval_pct, REL_TOL },
};
/* clang-format on */

static void check_scalar(const struct scalar_fn *fn, char **f, size_t nf,
			 int line)
{
	double arg[MAX_FIELDS] = {0}, want;
	char args[128];
	size_t len = 0;

	if (nf != fn->nargs + 2 || !row_nums(f, 1, fn->nargs, arg) ||
	    !parse_double(f[nf - 1], &want)) {
		ok(false, "%s: malformed row (line %d)", fn->name, line);
		return;
	}
	for (size_t i = 0; i < fn->nargs; i++) {
		len += (size_t)snprintf(args + len, sizeof(args) - len,
					"%s%.6g", i ? ", " : "", arg[i]);
		if (len >= sizeof(args))
			len = sizeof(args) - 1;
	}
	check_rel_tol(fn->name, args, fn->fn(arg), want, fn->tol, line);
}

static enum stats_ci_kind kind_of(const char *s)
{
	if (!strcmp(s, "bounded"))
		return STATS_CI_BOUNDED;
	if (!strcmp(s, "exclusive"))
		return STATS_CI_EXCLUSIVE;
	if (!strcmp(s, "whole"))
		return STATS_CI_WHOLE_LINE;
	return STATS_CI_NONE;
}

static void check_fieller(char **f, size_t nf, int line)
{
	struct row r = ROW_INIT;
	struct stats_welch_units w;
	struct stats_change c;
	double hb_alpha[2], want[3];
	char args[96];

	if (nf != 9 || !row_nums(f, 1, 2, hb_alpha) ||
	    !row_lists(&r, f, 3, 2) || !row_nums(f, 6, 3, want)) {
		ok(false, "fieller: malformed row (line %d)", line);
		goto out;
	}
	stats_welch_units(r.list[0], r.nr[0], r.list[1], r.nr[1], &w);
	stats_change(&w, hb_alpha[0] != 0.0, hb_alpha[1], &c);
	snprintf(args, sizeof(args), "%s, alpha %g, n = %zu, %zu",
		 hb_alpha[0] != 0.0 ? "higher" : "lower", hb_alpha[1], r.nr[0],
		 r.nr[1]);
	ok(c.kind == kind_of(f[5]), "fieller(%s): %s interval (line %d)", args,
	   f[5], line);
	check_rel_tol("change", args, c.change_pct, want[0], REL_TOL, line);
	check_rel_tol("fieller_low", args, c.low_pct, want[1], REL_TOL, line);
	check_rel_tol("fieller_high", args, c.high_pct, want[2], REL_TOL, line);
	/* Section 4: 0% inside the interval exactly when p > alpha. */
	if (c.kind == STATS_CI_BOUNDED)
		ok((c.low_pct <= 0.0 && c.high_pct >= 0.0) ==
			   (w.p > hb_alpha[1]),
		   "fieller(%s): holds 0 iff p = %.3g > alpha (line %d)", args,
		   w.p, line);
out:
	row_release(&r);
}

static void check_verdict(char **f, size_t nf, int line)
{
	struct row r = ROW_INIT;
	struct stats_welch_units w;
	struct stats_change c, tost;
	double v[3];
	const char *got;

	if (nf != 7 || !row_nums(f, 1, 3, v) || !row_lists(&r, f, 4, 2)) {
		ok(false, "verdict: malformed row (line %d)", line);
		goto out;
	}
	stats_welch_units(r.list[0], r.nr[0], r.list[1], r.nr[1], &w);
	stats_change(&w, v[0] != 0.0, v[1], &c);
	stats_change(&w, v[0] != 0.0, 2.0 * v[1], &tost);
	got = stats_verdict_name(
		stats_verdict(w.p <= v[1], c.change_pct, &tost, v[2]));
	is_str(got, f[6],
	       "verdict(%s, change %.3f%%, p %.3g, margin %g) (line %d)",
	       v[0] != 0.0 ? "higher" : "lower", c.change_pct, w.p, v[2], line);
out:
	row_release(&r);
}

static void check_outliers(char **f, size_t nf, int line)
{
	struct row r = ROW_INIT;
	bool *flag = NULL, same = true;
	size_t nr, want_nr = 0;

	if (nf != 3 || !row_lists(&r, f, 1, 2) || r.nr[0] != r.nr[1]) {
		ok(false, "outliers: malformed row (line %d)", line);
		goto out;
	}
	flag = xmalloc(r.nr[0] * sizeof(*flag));
	nr = stats_outliers(r.list[0], r.nr[0], flag);
	for (size_t i = 0; i < r.nr[0]; i++) {
		same &= flag[i] == (r.list[1][i] != 0.0);
		want_nr += r.list[1][i] != 0.0;
	}
	ok(same && nr == want_nr,
	   "outliers(n = %zu): %zu flagged as R (line %d)", r.nr[0], want_nr,
	   line);
out:
	free(flag);
	row_release(&r);
}

static void check_spearman(char **f, size_t nf, int line)
{
	struct row r = ROW_INIT;
	double want[2], rho, p;
	char args[32];

	if (nf != 5 || !row_lists(&r, f, 1, 2) || r.nr[0] != r.nr[1] ||
	    !row_nums(f, 3, 2, want)) {
		ok(false, "spearman: malformed row (line %d)", line);
		goto out;
	}
	stats_spearman(r.list[0], r.list[1], r.nr[0], &rho, &p);
	snprintf(args, sizeof(args), "n = %zu", r.nr[0]);
	check_rel_tol("spearman_rho", args, rho, want[0], REL_TOL, line);
	check_rel_tol("spearman_p", args, p, want[1], REL_TOL, line);
out:
	row_release(&r);
}

static void check_anova(char **f, size_t nf, int line)
{
	struct row r = ROW_INIT;
	long long *key = NULL;
	double want;
	char args[32];

	if (nf != 4 || !row_lists(&r, f, 1, 2) || r.nr[0] != r.nr[1] ||
	    !parse_double(f[3], &want)) {
		ok(false, "anova: malformed row (line %d)", line);
		goto out;
	}
	key = keys_of(r.list[1], r.nr[1]);
	snprintf(args, sizeof(args), "n = %zu", r.nr[0]);
	check_rel_tol("anova_p", args, stats_anova_p(r.list[0], key, r.nr[0]),
		      want, REL_TOL, line);
out:
	free(key);
	row_release(&r);
}

static void check_ci_half(char **f, size_t nf, int line)
{
	struct row r = ROW_INIT;
	double v[2];
	char args[48];

	if (nf != 4 || !row_lists(&r, f, 1, 1) || !row_nums(f, 2, 2, v)) {
		ok(false, "ci_half: malformed row (line %d)", line);
		goto out;
	}
	snprintf(args, sizeof(args), "n = %zu, alpha %g", r.nr[0], v[0]);
	check_rel_tol("ci_half", args,
		      stats_ci_half_pct(r.list[0], r.nr[0], v[0]), v[1],
		      REL_TOL, line);
out:
	row_release(&r);
}

static void check_cv(char **f, size_t nf, int line)
{
	struct row r = ROW_INIT;
	double want;
	char args[32];

	if (nf != 3 || !row_lists(&r, f, 1, 1) || !parse_double(f[2], &want)) {
		ok(false, "cv: malformed row (line %d)", line);
		goto out;
	}
	snprintf(args, sizeof(args), "n = %zu", r.nr[0]);
	check_rel_tol("cv", args, stats_cv_pct(r.list[0], r.nr[0]), want,
		      REL_TOL, line);
out:
	row_release(&r);
}

static void check_mde_row(char **f, size_t nf, int line)
{
	struct row r = ROW_INIT;
	struct stats_welch_units w;
	double v[2], mde;
	char args[48];

	if (nf != 5 || !row_lists(&r, f, 1, 2) || !row_nums(f, 3, 2, v)) {
		ok(false, "mde_row: malformed row (line %d)", line);
		goto out;
	}
	stats_welch_units(r.list[0], r.nr[0], r.list[1], r.nr[1], &w);
	mde = stats_mde(stats_power_n_harmonic(&w), stats_power_sd_pct(&w),
			v[0], 0.8);
	snprintf(args, sizeof(args), "n = %zu, %zu, alpha %g", r.nr[0], r.nr[1],
		 v[0]);
	check_rel_tol("mde_row", args, mde, v[1], MDE_TOL, line);
out:
	row_release(&r);
}

/* Rows whose fields are not all plain numbers. */
/* clang-format off */
static const struct {
	const char *name;
	void (*fn)(char **field, size_t nfield, int line);
} row_fns[] = {
	{ "units", check_units },
	{ "welch", check_welch },
	{ "bh_adjust", check_bh_adjust },
	{ "fieller", check_fieller },
	{ "verdict", check_verdict },
	{ "outliers", check_outliers },
	{ "spearman", check_spearman },
	{ "anova", check_anova },
	{ "ci_half", check_ci_half },
	{ "cv", check_cv },
	{ "mde_row", check_mde_row },
};
/* clang-format on */

static void check_row(char *s, int line)
{
	char *field[MAX_FIELDS] = {NULL};
	size_t nf = split(s, '\t', field, ARRAY_SIZE(field));

	for (size_t i = 0; i < ARRAY_SIZE(scalar_fns); i++)
		if (!strcmp(field[0], scalar_fns[i].name)) {
			check_scalar(&scalar_fns[i], field, nf, line);
			return;
		}
	for (size_t i = 0; i < ARRAY_SIZE(row_fns); i++)
		if (!strcmp(field[0], row_fns[i].name)) {
			row_fns[i].fn(field, nf, line);
			return;
		}
	ok(false, "unknown function '%s' (line %d)", field[0], line);
}

/* The states and edges that R has no row for. */
static void check_welch_contract(void)
{
	static const double two[] = {1.0, 2.0}, one[] = {3.0};
	static const double with_nan[] = {1.0, NAN},
			    with_inf[] = {1.0, INFINITY};
	static const double c4[] = {4.0, 4.0, 4.0}, c5[] = {5.0, 5.0};
	struct stats_welch_units w;
	struct stats_change c;

	stats_welch_units(two, 2, one, 0, &w);
	ok(w.untested == STATS_UNTESTED_NO_SAMPLES && isnan(w.p),
	   "welch_units: an empty side is untested, no samples");
	stats_welch_units(with_nan, 2, two, 2, &w);
	ok(w.untested == STATS_UNTESTED_UNDEFINED_MEAN,
	   "welch_units: a NaN unit value is an undefined mean");
	stats_welch_units(two, 2, with_inf, 2, &w);
	ok(w.untested == STATS_UNTESTED_NONFINITE,
	   "welch_units: an infinite unit value is non-finite");
	stats_welch_units(two, 2, one, 1, &w);
	ok(w.untested == STATS_UNTESTED_FEW_UNITS && w.na == 2 && w.nb == 1,
	   "welch_units: one unit on a side is too few, counts kept");
	is_str(stats_untested_reason(w.untested),
	       "fewer than 2 units on a side", "untested reason text");
	stats_welch_units(c4, 3, c4, 3, &w);
	ok(w.untested == STATS_TESTED && w.constant && w.p == 1.0,
	   "welch_units: both constant and equal: tested, p = 1");
	stats_welch_units(c4, 3, c5, 2, &w);
	ok(w.untested == STATS_TESTED && w.constant && w.p == 0.0,
	   "welch_units: both constant, means differ: p = 0");
	stats_change(&w, false, 0.05, &c);
	ok(c.kind == STATS_CI_BOUNDED && c.low_pct == c.change_pct &&
		   c.high_pct == c.change_pct && c.change_pct < 0.0,
	   "change: both constant gives a point interval (%.2f%%)",
	   c.change_pct);
	stats_welch_units(two, 2, one, 1, &w);
	stats_change(&w, true, 0.05, &c);
	ok(c.kind == STATS_CI_NONE && isnan(c.change_pct) && isnan(c.low_pct),
	   "change: untested gives no change and no interval");
	ok(stats_verdict(false, c.change_pct, &c, 1.0) ==
		   STATS_VERDICT_UNTESTED,
	   "verdict: no change is untested");
}

static void check_units_contract(void)
{
	static const double x[] = {1, 2, 3, 4, 5, 6};
	static const long long key[] = {9, 9, 4, 9, 4, 7};
	double u[ARRAY_SIZE(x)];
	size_t count[ARRAY_SIZE(x)];
	size_t n = stats_unit_values(x, key, ARRAY_SIZE(x), false, u, count);

	/* Units in the order of their first samples: 9, 4, 7. */
	ok(n == 3 && count[0] == 3 && count[1] == 2 && count[2] == 1 &&
		   u[0] == (1.0 + 2.0 + 4.0) / 3.0 && u[2] == x[5],
	   "units: a key that comes back joins its unit, counts given");
	ok(stats_unit_values(x, key, 0, true, u, NULL) == 0,
	   "units: no samples, no units");
}

static void check_pct_contract(void)
{
	double pct;

	ok(stats_pct_change(5.0, true, 0.0, true, true, &pct) == STATS_PCT_NA &&
		   isnan(pct),
	   "pct: a base of 0 is n/a");
	ok(stats_pct_change(5.0, true, NAN, true, true, &pct) == STATS_PCT_NA,
	   "pct: an undefined base (NaN Hmean) is n/a");
	ok(stats_pct_change(NAN, true, 5.0, true, true, &pct) == STATS_PCT_NA,
	   "pct: an undefined value is n/a");
	ok(stats_pct_change(0.0, false, 5.0, true, true, &pct) ==
			   STATS_PCT_NONE &&
		   stats_pct_change(1.0, true, 0.0, false, false, &pct) ==
			   STATS_PCT_NONE,
	   "pct: a missing side is '-'");
	ok(stats_pct_change(-6.0, true, -11.0, true, false, &pct) ==
			   STATS_PCT_OK &&
		   pct < 0.0,
	   "pct: lower-is-better -11 to -6 is worse (%.2f%%)", pct);
}

static void check_power_contract(void)
{
	double n = stats_power_n(2.0, 1.0, 0.05, 0.8);

	ok(stats_mde(5.0, 0.0, 0.05, 0.8) == 0.0, "mde: sd 0 gives 0");
	ok(isnan(stats_mde(1.0, 1.0, 0.05, 0.8)) &&
		   isnan(stats_mde(5.0, 1.0, 0.05, 1.0)),
	   "mde: n <= 1 or power 1 is NaN");
	ok(stats_power_n(0.0, 1.0, 0.05, 0.8) == INFINITY,
	   "power_n: no effect needs infinitely many units");
	ok(stats_power_n(50.0, 1.0, 0.05, 0.8) == 2.0,
	   "power_n: a huge effect needs the minimum of 2");
	/* The root is where the power crosses the target. */
	ok(stats_power(n, 2.0, 0.05) > 0.8 - 1e-9 &&
		   stats_power(n, 2.0, 0.05) < 0.8 + 1e-9 &&
		   stats_power(floor(n), 2.0, 0.05) < 0.8,
	   "power_n: power %.3f at n = %.4f, less at floor(n)",
	   stats_power(n, 2.0, 0.05), n);
	ok(stats_mde(stats_power_n(1.5, 1.0, 0.05, 0.8), 1.0, 0.05, 0.8) >
			   1.5 - 1e-9 &&
		   stats_mde(stats_power_n(1.5, 1.0, 0.05, 0.8), 1.0, 0.05,
			     0.8) < 1.5 + 1e-9,
	   "mde and power_n invert each other");
}

static void check_warnings_contract(void)
{
	static const double ta[] = {1, 2, 3}, tb[] = {4, 5, 6};
	static const double tc[] = {2.5, 7}, x[] = {1, 2};
	static const long long one_group[] = {3, 3};
	static const double u[] = {10, 11, 10.5};
	double rho, p;

	/* The issue: at n <= 5 nothing is marked in a 7-row table. */
	ok(stats_utest_floor(5, 5) > 0.05 / 7 &&
		   stats_utest_floor(6, 6) <= 0.05 / 7 &&
		   stats_utest_min_units(0.05, 7) == 6,
	   "utest: 6 units per side are needed in a family of 7");
	ok(stats_utest_floor(0, 4) == 1.0, "utest floor of an empty side is 1");
	ok(!stats_interleaved(ta, 3, tb, 3) && !stats_interleaved(tb, 3, ta, 3),
	   "interleaved: one label wholly before the other is not");
	ok(stats_interleaved(ta, 3, tc, 2) && stats_interleaved(ta, 0, tb, 3),
	   "interleaved: overlapping times, or an empty side");
	stats_spearman(x, x, 2, &rho, &p);
	ok(isnan(rho) && isnan(p), "spearman: n < 3 is NaN");
	ok(isnan(stats_anova_p(x, one_group, 2)), "anova: one group is NaN");
	ok(!stats_precise(u, 2, 0.05, 100.0) &&
		   stats_precise(u, 3, 0.05, 100.0),
	   "precise: needs 3 values, then the half-width");
	ok(!stats_precise(u, 3, 0.05, stats_ci_half_pct(u, 3, 0.05) * 0.999) &&
		   stats_precise(u, 3, 0.05, stats_ci_half_pct(u, 3, 0.05)),
	   "precise: half-width <= pct");
}

/*
 * stats_outliers() finds its medians by selection and midranks() skips
 * sorting sorted input: both must agree with the sorting definition.
 * Deterministic pseudo-random arrays with ties, n = 3 .. 70.
 */
static void check_selection_contract(void)
{
	double x[70], y[70], rx[70], ry[70], dev[70], med, mad;
	bool flag[70], same = true, spear = true;
	unsigned long long z = 12345;

	for (size_t n = 3; n <= 70; n++) {
		double rho1, p1, rho2, p2;

		for (size_t i = 0; i < n; i++) {
			z = z * 6364136223846793005ULL + 1442695040888963407ULL;
			/* A few far values and many ties. */
			x[i] = (double)((z >> 33) % 17) +
			       ((z >> 20) % 23 == 0 ? 100.0 : 0.0);
			y[i] = (double)i;
		}
		stats_outliers(x, n, flag);
		med = stats_median(x, n);
		for (size_t i = 0; i < n; i++)
			dev[i] = fabs(x[i] - med);
		mad = stats_median(dev, n);
		for (size_t i = 0; i < n; i++)
			same &= flag[i] ==
				(mad > 0 && dev[i] / (1.4826 * mad) > 3.5);
		/* Reversed, y is unsorted: the same rank correlation. */
		for (size_t i = 0; i < n; i++) {
			rx[i] = x[n - 1 - i];
			ry[i] = y[n - 1 - i];
		}
		stats_spearman(x, y, n, &rho1, &p1);
		stats_spearman(rx, ry, n, &rho2, &p2);
		spear &= (isnan(rho1) && isnan(rho2)) ||
			 (fabs(rho1 - rho2) < 1e-12 && fabs(p1 - p2) < 1e-12);
	}
	ok(same, "outliers: the medians by selection are the sorted ones");
	ok(spear, "spearman: sorted and unsorted times rank alike");
}

static void swap_ints(int *a, int *b)
{
	int t = *a;

	*a = *b;
	*b = t;
}

/* Step a[0..n) to its next permutation in lexical order; false at the end. */
static bool next_permutation(int *a, size_t n)
{
	size_t i = n - 1, j = n - 1;

	while (i > 0 && a[i - 1] >= a[i])
		i--;
	if (!i)
		return false;
	while (a[j] <= a[i - 1])
		j--;
	swap_ints(&a[i - 1], &a[j]);
	for (j = n - 1; i < j; i++, j--)
		swap_ints(&a[i], &a[j]);
	return true;
}

/*
 * The exact Spearman p of every permutation of n ranks without ties
 * against the distribution of S counted here over all n! of them, R's
 * two-sided rule: twice the tail on S's side of its mean, at most 1.
 */
static void check_spearman_exact(size_t n)
{
	size_t top = (n * n * n - n) / 6, nfac = 1, bad = 0;
	size_t *count = xcalloc(top + 1, sizeof(*count));
	int a[9];
	double x[9], y[9];

	for (size_t i = 0; i < n; i++) {
		a[i] = (int)i;
		nfac *= i + 1;
	}
	do {
		size_t s = 0;

		for (size_t i = 0; i < n; i++)
			s += (size_t)((a[i] - (int)i) * (a[i] - (int)i));
		count[s / 2]++;
	} while (next_permutation(a, n));
	for (size_t i = 0; i < n; i++)
		a[i] = (int)i;
	do {
		size_t s = 0, k;
		double tail = 0.0, rho, p;

		for (size_t i = 0; i < n; i++) {
			s += (size_t)((a[i] - (int)i) * (a[i] - (int)i));
			x[i] = 10.0 + a[i];
			y[i] = (double)i;
		}
		k = s / 2;
		for (size_t i = 0; i <= top; i++)
			if (2 * k > top ? i >= k : i <= k)
				tail += (double)count[i];
		stats_spearman(x, y, n, &rho, &p);
		bad += !(fabs(p - fmin(1.0, 2.0 * tail / (double)nfac)) <
			 1e-12);
	} while (next_permutation(a, n));
	ok(!bad, "spearman: exact p of all %zu permutations of n=%zu", nfac, n);
	free(count);
}

int main(void)
{
	int rows = read_table(TABLE_PATH, check_row);

	ok(rows > 0, "reference table %s has %d rows", TABLE_PATH, rows);
	report_worst();
	check_welch_contract();
	for (size_t n = 3; n <= 9; n++)
		check_spearman_exact(n);
	check_units_contract();
	check_pct_contract();
	check_power_contract();
	check_warnings_contract();
	check_selection_contract();
	done_testing();
	return exit_status();
}
