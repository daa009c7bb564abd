/* Unit tests for stats-dist against R (data/stats-reference.tsv). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "test-stats-tsv.h"
#include "stats.h"
#include "util.h"

/*
 * Every reference row must agree to this relative error,
 * |got - want| <= REL_TOL * |want|, whatever the size of want: tail
 * probabilities of 1e-100 are held to the same relative standard. The
 * table comes from scripts/gen-stats-reference.R.
 */
#define REL_TOL	   1e-10
#define TABLE_PATH "data/stats-reference.tsv"
#define MAX_FIELDS 8

static double eval_pt_upper(const double *arg)
{
	return stats_t_sf(arg[0], arg[1]);
}

static double eval_pt_lower(const double *arg)
{
	return stats_t_cdf(arg[0], arg[1]);
}

static double eval_pbeta(const double *arg)
{
	/* R's argument order: pbeta(x, a, b). */
	return stats_betainc(arg[1], arg[2], arg[0]);
}

static double eval_lgamma(const double *arg)
{
	return stats_lgamma(arg[0]);
}

static double eval_qnorm(const double *arg)
{
	return stats_norm_quantile(arg[0]);
}

static double eval_pnorm_upper(const double *arg)
{
	return stats_norm_sf(arg[0]);
}

/* Rows "name arg... want" checked against a function of numbers. */
/* clang-format off */
static const struct scalar_fn {
	const char *name;
	size_t nargs;
	double (*fn)(const double *arg);
} scalar_fns[] = {
	{ "pt_upper", 2, eval_pt_upper },
	{ "pt_lower", 2, eval_pt_lower },
	{ "pbeta", 3, eval_pbeta },
	{ "lgamma", 1, eval_lgamma },
	{ "qnorm", 1, eval_qnorm },
	{ "pnorm_upper", 1, eval_pnorm_upper },
};
/* clang-format on */

typedef void test_fn(const double *a, size_t na, const double *b, size_t nb,
		     struct stats_test *out);
typedef double pick_fn(const struct stats_test *res);

static double pick_statistic(const struct stats_test *res)
{
	return res->statistic;
}

static double pick_df(const struct stats_test *res)
{
	return res->df;
}

static double pick_p(const struct stats_test *res)
{
	return res->p;
}

/* Rows "name a-list b-list want" checked against one test result field. */
/* clang-format off */
static const struct sample_fn {
	const char *name;
	test_fn *fn;
	pick_fn *pick;
} sample_fns[] = {
	{ "welch_t", stats_welch, pick_statistic },
	{ "welch_df", stats_welch, pick_df },
	{ "welch_p", stats_welch, pick_p },
	{ "mw_u", stats_mannwhitney, pick_statistic },
	{ "mw_p", stats_mannwhitney, pick_p },
};
/* clang-format on */

static void check_rel(const char *name, const char *args, double got,
		      double want, int line)
{
	check_rel_tol(name, args, got, want, REL_TOL, line);
}

static void check_scalar(const struct scalar_fn *f, char **field, size_t nfield,
			 int line)
{
	double arg[MAX_FIELDS] = {0}, want;
	char args[256];
	size_t len = 0;

	if (nfield != f->nargs + 2 || !parse_double(field[nfield - 1], &want)) {
		ok(false, "%s: malformed row (line %d)", f->name, line);
		return;
	}
	for (size_t i = 0; i < f->nargs; i++) {
		if (!parse_double(field[i + 1], &arg[i])) {
			ok(false, "%s: bad number (line %d)", f->name, line);
			return;
		}
		len += (size_t)snprintf(args + len, sizeof(args) - len,
					"%s%.6g", i ? ", " : "", arg[i]);
		if (len >= sizeof(args))
			len = sizeof(args) - 1;
	}
	check_rel(f->name, args, f->fn(arg), want, line);
}

static void check_samples(const struct sample_fn *f, char **field,
			  size_t nfield, int line)
{
	double *a = NULL, *b = NULL, want;
	size_t na, nb;
	struct stats_test res;
	char args[64];

	if (nfield != 4 || !parse_list(field[1], &a, &na) ||
	    !parse_list(field[2], &b, &nb) || !parse_double(field[3], &want)) {
		ok(false, "%s: malformed row (line %d)", f->name, line);
		goto out;
	}
	f->fn(a, na, b, nb, &res);
	snprintf(args, sizeof(args), "n = %zu, %zu", na, nb);
	if (!res.valid)
		ok(false, "%s(%s): result not valid (line %d)", f->name, args,
		   line);
	else
		check_rel(f->name, args, f->pick(&res), want, line);
out:
	free(a);
	free(b);
}

static void check_bh(char **field, size_t nfield, int line)
{
	double *p = NULL, *want = NULL, alpha;
	size_t n, nwant;
	bool *reject = NULL, same = true;

	if (nfield != 4 || !parse_list(field[1], &p, &n) ||
	    !parse_double(field[2], &alpha) ||
	    !parse_list(field[3], &want, &nwant) || nwant != n) {
		ok(false, "bh: malformed row (line %d)", line);
		goto out;
	}
	reject = xcalloc(n, sizeof(*reject));
	stats_bh(p, n, alpha, reject);
	for (size_t i = 0; i < n; i++)
		same &= reject[i] == (want[i] != 0.0);
	ok(same, "bh(n = %zu, alpha = %g): rejections as p.adjust (line %d)", n,
	   alpha, line);
out:
	free(p);
	free(want);
	free(reject);
}

static void check_row(char *s, int line)
{
	char *field[MAX_FIELDS] = {NULL};
	size_t nfield = split(s, '\t', field, ARRAY_SIZE(field));

	for (size_t i = 0; i < ARRAY_SIZE(scalar_fns); i++)
		if (!strcmp(field[0], scalar_fns[i].name)) {
			check_scalar(&scalar_fns[i], field, nfield, line);
			return;
		}
	for (size_t i = 0; i < ARRAY_SIZE(sample_fns); i++)
		if (!strcmp(field[0], sample_fns[i].name)) {
			check_samples(&sample_fns[i], field, nfield, line);
			return;
		}
	if (!strcmp(field[0], "bh")) {
		check_bh(field, nfield, line);
		return;
	}
	ok(false, "unknown function '%s' (line %d)", field[0], line);
}

static int check_table(void)
{
	int rows = read_table(TABLE_PATH, check_row);

	if (rows < 0) {
		ok(false, "open %s", TABLE_PATH);
		return 0;
	}
	return rows;
}

/*
 * Contract cases that R does not cover: invalid input, the degenerate
 * Welch test and all-tied samples, NaN handling.
 */
static void check_contract(void)
{
	static const double one[] = {1.0};
	static const double two[] = {1.0, 2.0};
	static const double same3[] = {4.0, 4.0, 4.0};
	static const double other3[] = {5.0, 5.0, 5.0};
	static const double with_nan[] = {1.0, NAN, 3.0};
	static const double bh_p[] = {NAN, 0.01, NAN, 0.04};
	bool reject[ARRAY_SIZE(bh_p)];
	struct stats_test res;

	stats_welch(one, 1, two, 2, &res);
	ok(!res.valid && isnan(res.p), "welch: n = 1 is invalid, p NaN");
	stats_welch(with_nan, 3, two, 2, &res);
	ok(!res.valid && isnan(res.p), "welch: a NaN sample is invalid");
	stats_welch(same3, 3, same3, 3, &res);
	ok(res.valid && res.p == 1.0 && isnan(res.df) && isnan(res.statistic),
	   "welch: both variances 0, equal means: p = 1");
	stats_welch(other3, 3, same3, 3, &res);
	ok(res.valid && res.p == 0.0 && isnan(res.df) &&
		   res.statistic == INFINITY,
	   "welch: both variances 0, means differ: p = 0, t = +inf");
	stats_mannwhitney(one, 0, two, 2, &res);
	ok(!res.valid && isnan(res.p), "mannwhitney: empty sample is invalid");
	stats_mannwhitney(same3, 3, same3, 3, &res);
	ok(res.valid && res.p == 1.0 && isnan(res.df),
	   "mannwhitney: all values tied: p = 1");
	stats_mannwhitney(one, 1, other3, 1, &res);
	ok(res.valid && res.p == 1.0, "mannwhitney: 1 + 1 samples: p = 1");
	stats_bh(bh_p, ARRAY_SIZE(bh_p), 0.05, reject);
	ok(!reject[0] && reject[1] && !reject[2] && reject[3],
	   "bh: NaN neither counted nor rejected");
	ok(isnan(stats_t_sf(1.0, 0.0)) && isnan(stats_t_sf(NAN, 3.0)),
	   "t_sf: df <= 0 or NaN t gives NaN");
	ok(stats_t_sf(INFINITY, 3.0) == 0.0 &&
		   stats_t_cdf(INFINITY, 3.0) == 1.0,
	   "t_sf, t_cdf at +inf");
	ok(stats_t_sf(0.0, 7.0) == 0.5, "t_sf(0) = 1/2");
	ok(isnan(stats_betainc(1.0, 1.0, 1.5)) &&
		   stats_betainc(2.0, 3.0, 0.0) == 0.0 &&
		   stats_betainc(2.0, 3.0, 1.0) == 1.0,
	   "betainc: x outside [0, 1] is NaN, ends exact");
	ok(stats_norm_quantile(0.0) == -INFINITY &&
		   stats_norm_quantile(1.0) == INFINITY &&
		   isnan(stats_norm_quantile(1.5)),
	   "norm_quantile at 0, 1 and outside");
	ok(isnan(stats_lgamma(0.0)) && isnan(stats_lgamma(-1.0)),
	   "lgamma: x <= 0 is NaN");
}

int main(void)
{
	int rows = check_table();

	ok(rows > 0, "reference table has %d rows", rows);
	report_worst();
	check_contract();
	done_testing();
	return exit_status();
}
