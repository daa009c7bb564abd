/*
 * Compare v3's statistics against R (data/stats-v3-reference.tsv, written
 * by scripts/gen-stats-v3-reference.R): Welch on the log scale with the
 * ratio of geometric means and its interval, the exact power of Welch's
 * test and its minimum detectable effect, the units per side it needs,
 * Rosner's generalized ESD; then the contracts R has no row for.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "test-stats-tsv.h"
#include "until.h"

#define TABLE_PATH "data/stats-v3-reference.tsv"
#define MAX_FIELDS 16
/* R's integrate() and uniroot() against mmcmp's grid and root finder. */
#define TOL_POWER 1e-7
#define TOL_MDE	  1e-6
#define TOL_EXACT 1e-10

static bool nums(char **f, size_t first, size_t n, double *v)
{
	for (size_t i = 0; i < n; i++)
		if (!parse_num_or_nan(f[first + i], &v[i]))
			return false;
	return true;
}

static void check_welch_log(char **f, size_t nf, int line)
{
	struct stats_welch_units w;
	struct stats_change ch;
	double hdr[2], want[6], *a = NULL, *b = NULL;
	size_t na = 0, nb = 0;

	if (nf != 11 || !nums(f, 1, 2, hdr) || !parse_list(f[3], &a, &na) ||
	    !parse_list(f[4], &b, &nb) || !nums(f, 5, 6, want)) {
		ok(false, "welch_log row (line %d) parses", line);
		goto out;
	}
	stats_welch_pick(a, na, b, nb, true, &w);
	stats_change(&w, hdr[0] != 0.0, hdr[1], &ch);
	ok(w.log_scale && w.untested == STATS_TESTED,
	   "welch_log: tested on the log scale (line %d)", line);
	check_rel_tol("welch_log t", "", w.t, want[0], TOL_EXACT, line);
	check_rel_tol("welch_log df", "", w.df, want[1], TOL_EXACT, line);
	check_rel_tol("welch_log p", "", w.p, want[2], TOL_EXACT, line);
	check_rel_tol("welch_log change", "", ch.change_pct, want[3], 1e-9,
		      line);
	check_rel_tol("welch_log low", "", ch.low_pct, want[4], 1e-9, line);
	check_rel_tol("welch_log high", "", ch.high_pct, want[5], 1e-9, line);
out:
	free(a);
	free(b);
}

static void check_welch_power(char **f, size_t nf, int line)
{
	double v[7];

	if (nf != 8 || !nums(f, 1, 7, v)) {
		ok(false, "welch_power row (line %d) parses", line);
		return;
	}
	/* An absolute check: powers near 0 have no relative precision. */
	note_error("welch_power", 0.0, line);
	{
		double got = stats_welch_power(v[0], v[1], (size_t)v[2], v[3],
					       (size_t)v[4], v[5]);

		ok(fabs(got - v[6]) <= TOL_POWER,
		   "welch_power(%g, %g, %g, %g, %g, %g) = %.9f, want %.9f "
		   "(line %d)",
		   v[0], v[1], v[2], v[3], v[4], v[5], got, v[6], line);
	}
}

/* A tested row on the plain scale whose CVs are sa and sb percent. */
static struct stats_welch_units cv_units(double sa, size_t na, double sb,
					 size_t nb)
{
	struct stats_welch_units w = {.untested = STATS_TESTED,
				      .na = na,
				      .nb = nb,
				      .scale = 1.0,
				      .mean_a = 100.0,
				      .mean_b = 100.0,
				      .var_a = sa * sa,
				      .var_b = sb * sb};

	w.constant = sa == 0.0 && sb == 0.0;
	return w;
}

/*
 * `test-stats-v3 memo` (suite sim, which the valgrind run leaves out):
 * the memo's checks only, the R rows of welch_mde through it and
 * check_memo().
 */
static bool memo_mode;
/* Reference rows the memo interpolated (not exact). */
static int memo_interpolated;

/*
 * The MDE of that row through a memo planned with `rows` rows of its
 * design; *interp whether the memo interpolated it.
 */
static double memo_mde(double sa, size_t na, double sb, size_t nb, double alpha,
		       double power, size_t rows, bool *interp)
{
	struct stats_welch_units w = cv_units(sa, na, sb, nb);
	struct stats_mde_memo *m = stats_mde_memo_new(alpha, power);
	double got;

	for (size_t i = 0; i < rows; i++)
		stats_mde_memo_plan(m, &w);
	got = stats_mde_memo_pct(m, &w);
	*interp = stats_mde_memo_interpolates(m, na, nb);
	stats_mde_memo_free(m);
	return got;
}

static void check_welch_mde(char **f, size_t nf, int line)
{
	double v[7];
	bool interp;

	if (nf != 8 || !nums(f, 1, 7, v)) {
		ok(false, "welch_mde row (line %d) parses", line);
		return;
	}
	if (!memo_mode) {
		check_rel_tol("welch_mde", f[2],
			      stats_welch_mde(v[0], (size_t)v[1], v[2],
					      (size_t)v[3], v[4], v[5]),
			      v[6], TOL_MDE, line);
		return;
	}
	/* The memo of many rows of the design at compare's power. */
	if (v[5] != 0.8)
		return;
	check_rel_tol("welch_mde memo", f[2],
		      memo_mde(v[0], (size_t)v[1], v[2], (size_t)v[3], v[4],
			       v[5], STATS_MDE_MEMO_ROWS, &interp),
		      v[6], TOL_MDE, line);
	memo_interpolated += interp;
}

/*
 * The memo against the exact MDE over the whole range of the share, at
 * the level of one row and of a lone change among 1500: within 5e-7
 * wherever it interpolates (half of TOL_MDE, within which the exact one
 * agrees with R), and it does for designs of 5 units a side and more at
 * 0.05, and for balanced ones at both levels. Below STATS_MDE_MEMO_ROWS
 * rows it is the exact value itself.
 */
static void check_memo(void)
{
	static const size_t designs[][2] = {{3, 3},   {5, 5},  {10, 10},
					    {20, 20}, {5, 20}, {4, 9},
					    {40, 45}, {100, 3}};
	static const double alphas[] = {0.05, 0.05 / 1500};
	double worst = 0.0;
	int interpolated = 0, checked = 0;

	for (size_t d = 0; d < sizeof(designs) / sizeof(designs[0]); d++) {
		for (size_t ai = 0; ai < 2; ai++) {
			size_t na = designs[d][0], nb = designs[d][1];
			double alpha = alphas[ai];
			struct stats_mde_memo *m =
				stats_mde_memo_new(alpha, 0.8);
			struct stats_welch_units w = cv_units(1, na, 1, nb);
			bool interp;

			for (size_t i = 0; i < STATS_MDE_MEMO_ROWS; i++)
				stats_mde_memo_plan(m, &w);
			(void)stats_mde_memo_pct(m, &w);
			interp = stats_mde_memo_interpolates(m, na, nb);
			for (int i = 0; interp && i <= 24; i++) {
				double share = i == 0	 ? 1e-6
					       : i == 24 ? 1.0 - 1e-6
							 : (i - 0.5) / 23.0;
				double sa = sqrt(share * (double)na);
				double sb = sqrt((1.0 - share) * (double)nb);
				double want = stats_welch_mde(sa, na, sb, nb,
							      alpha, 0.8);
				double got;

				w = cv_units(sa, na, sb, nb);
				got = stats_mde_memo_pct(m, &w);
				checked++;
				if (fabs(got / want - 1.0) > worst)
					worst = fabs(got / want - 1.0);
			}
			interpolated += interp;
			/* At the family's level too: 5 units a side once
			 * failed the check, and each row took 2.5 ms. */
			if (na >= 5 && nb >= 5 && (alpha == 0.05 || na == nb))
				ok(interp,
				   "memo: design %zu/%zu at %g is "
				   "interpolated",
				   na, nb, alpha);
			diag("memo: design %zu/%zu at %g: %s", na, nb, alpha,
			     interp ? "interpolated" : "exact");
			stats_mde_memo_free(m);
		}
	}
	ok(worst <= 5e-7,
	   "memo: %d MDEs of %d interpolated designs within 5e-7 of the "
	   "exact (worst %.3g)",
	   checked, interpolated, worst);
	{
		bool interp;
		double got = memo_mde(1.0, 20, 1.3, 20, 0.05, 0.8,
				      STATS_MDE_MEMO_ROWS - 1, &interp);
		struct stats_welch_units w = cv_units(1.0, 20, 1.3, 20);

		ok(!interp && got == stats_welch_mde_pct(&w, 0.05, 0.8),
		   "memo: fewer rows than STATS_MDE_MEMO_ROWS are exact");
	}
	ok(memo_interpolated > 0,
	   "memo: %d reference rows of R were interpolated", memo_interpolated);
}

static void check_mde_pct(char **f, size_t nf, int line)
{
	struct stats_welch_units w;
	double hdr[2], want, *a = NULL, *b = NULL;
	size_t na = 0, nb = 0;

	if (nf != 6 || !nums(f, 1, 2, hdr) || !parse_list(f[3], &a, &na) ||
	    !parse_list(f[4], &b, &nb) || !nums(f, 5, 1, &want)) {
		ok(false, "mde_pct row (line %d) parses", line);
		goto out;
	}
	stats_welch_pick(a, na, b, nb, hdr[0] != 0.0, &w);
	check_rel_tol("mde_pct", hdr[0] != 0.0 ? "log" : "plain",
		      stats_welch_mde_pct(&w, hdr[1], 0.8), want, TOL_MDE,
		      line);
out:
	free(a);
	free(b);
}

static void check_power_n(char **f, size_t nf, int line)
{
	double v[6];

	if (nf != 7 || !nums(f, 1, 6, v)) {
		ok(false, "power_n row (line %d) parses", line);
		return;
	}
	check_rel_tol("power_n", f[1],
		      stats_welch_power_n(v[0], v[1], v[2], v[3], v[4]), v[5],
		      0.0, line);
}

static void check_esd(char **f, size_t nf, int line)
{
	double alpha, *u = NULL, *want = NULL;
	size_t n = 0, nw = 0, bad = 0, nr = 0, want_nr = 0;
	bool *flag;

	if (nf != 4 || !nums(f, 1, 1, &alpha) || !parse_list(f[2], &u, &n) ||
	    !parse_list(f[3], &want, &nw) || n != nw) {
		ok(false, "esd row (line %d) parses", line);
		goto out;
	}
	flag = xcalloc(n, sizeof(*flag));
	nr = stats_outliers_esd(u, n, alpha, flag);
	for (size_t i = 0; i < n; i++) {
		bad += flag[i] != (want[i] != 0.0);
		want_nr += want[i] != 0.0;
	}
	ok(!bad && nr == want_nr,
	   "esd: %zu of %zu flagged at alpha %g, as R (line %d)", nr, n, alpha,
	   line);
	free(flag);
out:
	free(u);
	free(want);
}

static void check_stein(char **f, size_t nf, int line)
{
	double pct, want, *x = NULL;
	size_t n = 0;

	if (nf != 4 || !nums(f, 1, 1, &pct) || !parse_list(f[2], &x, &n) ||
	    !nums(f, 3, 1, &want) || n < 2 || n > UNTIL_PILOT) {
		ok(false, "stein row (line %d) parses", line);
		goto out;
	}
	check_rel_tol("stein", f[1], (double)until_target(x, n, 1, pct), want,
		      0.0, line);
out:
	free(x);
}

static void check_mmtests_rate(char **f, size_t nf, int line)
{
	double v[3];

	if (nf != 4 || !nums(f, 1, 3, v)) {
		ok(false, "mmtests_rate row (line %d) parses", line);
		return;
	}
	check_rel_tol("mmtests_rate", f[1],
		      stats_mmtests_aa_rate((size_t)v[0], (size_t)v[1]), v[2],
		      1e-6, line);
}

static void check_utest_mde(char **f, size_t nf, int line)
{
	struct stats_welch_units w;
	double hdr[2], want, *a = NULL, *b = NULL;
	size_t na = 0, nb = 0;

	if (nf != 6 || !nums(f, 1, 2, hdr) || !parse_list(f[3], &a, &na) ||
	    !parse_list(f[4], &b, &nb) || !nums(f, 5, 1, &want)) {
		ok(false, "utest_mde row (line %d) parses", line);
		goto out;
	}
	stats_welch_pick(a, na, b, nb, hdr[0] != 0.0, &w);
	check_rel_tol("utest_mde", hdr[0] != 0.0 ? "log" : "plain",
		      stats_utest_mde_pct(&w, hdr[1], 0.8), want, 1e-9, line);
out:
	free(a);
	free(b);
}

/* clang-format off */
static const struct {
	const char *name;
	void (*fn)(char **field, size_t nfield, int line);
} row_fns[] = {
	{ "welch_log", check_welch_log },
	{ "welch_power", check_welch_power },
	{ "welch_mde", check_welch_mde },
	{ "mde_pct", check_mde_pct },
	{ "power_n", check_power_n },
	{ "esd", check_esd },
	{ "stein", check_stein },
	{ "mmtests_rate", check_mmtests_rate },
	{ "utest_mde", check_utest_mde },
};
/* clang-format on */

static void check_row(char *s, int line)
{
	char *field[MAX_FIELDS] = {NULL};
	size_t nf = split(s, '\t', field, ARRAY_SIZE(field));

	for (size_t i = 0; i < ARRAY_SIZE(row_fns); i++)
		if (!strcmp(field[0], row_fns[i].name)) {
			if (!memo_mode || row_fns[i].fn == check_welch_mde)
				row_fns[i].fn(field, nf, line);
			return;
		}
	ok(false, "unknown function '%s' (line %d)", field[0], line);
}

/* What R has no row for: the scale picked, bounds, undefined cases. */
/*
 * stats_outliers_esd() asks for the t quantile only when a score passes
 * the normal quantile's bound: the bound must be under the exact value
 * everywhere, or an outlier would go unflagged, and close enough to
 * spare most scores the quantile.
 */
static void check_esd_floor(void)
{
	static const double alphas[] = {0.05, 0.01, 5e-4, 1e-6, 1e-10};
	size_t cases = 0, under = 0, close = 0;

	for (size_t a = 0; a < ARRAY_SIZE(alphas); a++)
		for (size_t n = 3; n <= 500; n += n < 40 ? 1 : 23)
			for (size_t i = 1;
			     i <= (n / 5 > 1 ? n / 5 : 1) && n - i >= 2; i++) {
				double lo =
					stats_esd_lambda_floor(n, i, alphas[a]);
				double hi = stats_esd_lambda(n, i, alphas[a]);

				cases++;
				under += lo <= hi;
				close += lo >= 0.5 * hi;
			}
	ok(cases && under == cases,
	   "ESD: the normal bound is under Rosner's value in %zu of %zu "
	   "cases",
	   under, cases);
	ok(close == cases, "ESD: and over half of it in %zu of %zu", close,
	   cases);
}

static void check_contracts(void)
{
	static const double pos[] = {10.0, 11.0, 12.0},
			    zero[] = {0.0, 1.0, 2.0};
	static const double wide_a[] = {1.0, 100.0}, wide_b[] = {50.0, 5000.0};
	struct stats_welch_units w;
	struct stats_change ch;

	stats_welch_pick(pos, 3, pos, 3, true, &w);
	ok(w.log_scale, "positive values go on the log scale");
	stats_welch_pick(pos, 3, zero, 3, true, &w);
	ok(!w.log_scale && w.untested == STATS_TESTED,
	   "a zero unit value keeps the plain scale, tested");
	stats_welch_pick(pos, 3, pos, 3, false, &w);
	ok(!w.log_scale, "--fieller keeps the plain scale");
	stats_welch_log(pos, 3, zero, 3, &w);
	ok(w.untested == STATS_UNTESTED_UNDEFINED_MEAN,
	   "the log test refuses a zero value");
	stats_welch_log(pos, 1, pos, 3, &w);
	ok(w.untested == STATS_UNTESTED_FEW_UNITS,
	   "the log test needs 2 units a side");
	/* Defect 8: a wide interval of a higher-is-better row stays > -100%. */
	stats_welch_pick(wide_a, 2, wide_b, 2, true, &w);
	stats_change(&w, true, 0.05, &ch);
	ok(ch.kind == STATS_CI_BOUNDED && ch.low_pct > -100.0 &&
		   ch.high_pct > ch.low_pct,
	   "a wide log interval stays inside (-100%%, inf): [%.2f%%, %.2f%%]",
	   ch.low_pct, ch.high_pct);
	stats_welch_pick(wide_a, 2, wide_b, 2, false, &w);
	stats_change(&w, true, 0.05, &ch);
	ok(ch.kind != STATS_CI_BOUNDED || ch.low_pct < -100.0,
	   "while Fieller's interval on the same data leaves it");
	stats_welch_pick(pos, 3, pos, 3, true, &w);
	ok(isnan(stats_welch_mde_pct(&w, 0.05, 0.8)) || w.var_a > 0.0,
	   "no MDE from constant sides");
	ok(isnan(stats_welch_mde(0.0, 3, 0.0, 3, 0.05, 0.8)),
	   "no MDE without spread (never 0)");
	ok(isnan(stats_welch_power(1.0, 1.0, 1, 1.0, 3, 0.05)),
	   "the power needs 2 values a side");
	ok(stats_welch_mde(1.0, 2, 1.0, 2, 0.05, 0.8) >
		   1.8 * stats_mde(2.0, 1.0, 0.05, 0.8),
	   "at n = 2 Welch needs over 1.8 times Student's MDE (defect 3)");
	ok(fabs(stats_welch_mde(1.0, 200, 1.0, 200, 0.05, 0.8) /
			stats_mde(200.0, 1.0, 0.05, 0.8) -
		1.0) < 1e-3,
	   "at n = 200 Welch's MDE is Student's");
}

int main(int argc, char **argv)
{
	int rows;

	memo_mode = argc > 1 && !strcmp(argv[1], "memo");
	rows = read_table(TABLE_PATH, check_row);
	ok(rows > 0, "reference table %s has %d rows", TABLE_PATH, rows);
	report_worst();
	if (memo_mode)
		check_memo();
	else {
		check_contracts();
		check_esd_floor();
	}
	done_testing();
	return exit_status();
}
