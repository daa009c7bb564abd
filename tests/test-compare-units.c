/*
 * Unit tests for compare-units: the unit --unit auto picks, the share of
 * the variance between runs (against R's one-way ANOVA, to 1e-12), the
 * exact permutation p of constant sides (against R's enumeration of
 * combn(), to 1e-12), and a short seeded simulation of A/A tables of
 * pooled runs through compare_runs(): the unit auto picks keeps the
 * false marks near alpha, the iterations as units do not.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "compare-units.h"
#include "compare.h"
#include "run-data.h"
#include "strbuf.h"
#include "util.h"

/*
 * R: ms <- anova(lm(x ~ factor(g)))$`Mean Sq`; n0 = (N - sum(n_i^2) / N)
 * / (k - 1); sb <- max(0, (ms[1] - ms[2]) / n0); sb / (sb + ms[2]).
 */
static void test_between_share(void)
{
	static const double x1[] = {10, 12, 11, 20, 21, 23, 19};
	static const long long g1[] = {1, 1, 1, 2, 2, 2, 2};
	static const double x2[] = {5, 6, 5.5, 5.2, 6.1, 5.9, 7, 4};
	static const long long g2[] = {3, 1, 2, 3, 1, 2, 1, 3};
	static const double x3[] = {1, 2, 3, 1, 2, 3};
	static const long long g3[] = {1, 1, 1, 2, 2, 2};
	static const double x4[] = {1e300, 2e300, 3e300, 4e300};
	static const long long g4[] = {1, 2, 1, 2};
	static const long long one[] = {1, 1, 1};
	static const struct {
		const char *what;
		const double *x;
		const long long *g;
		size_t n;
		double want;
	} cases[] = {
		{"two unbalanced groups", x1, g1, 7, 0.956170899515841},
		{"three groups, keys in any order", x2, g2, 8,
		 0.683408324893324},
		{"groups alike: 0, not negative", x3, g3, 6, 0.0},
		{"values near 1e300", x4, g4, 4, 0.0},
		{"one group: NaN", x3, one, 3, NAN},
		{"no df within: NaN", x1, g1 + 3, 2, NAN},
	};

	for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
		double got = compare_between_share(cases[k].x, cases[k].g,
						   cases[k].n);

		if (isnan(cases[k].want))
			ok(isnan(got), "between share, %s", cases[k].what);
		else
			ok_near(got, cases[k].want, 1e-12, "between share, %s",
				cases[k].what);
	}
	ok_near(compare_narrowing_pct(0.0, 1.0), 100 * (1 - sqrt(0.5)), 1e-12,
		"narrowing: no share, twice the iterations as twice the units");
	ok_near(compare_narrowing_pct(1.0, 5.0), 0.0, 1e-12,
		"narrowing: all between, more iterations do nothing");
	ok(isnan(compare_narrowing_pct(NAN, 5.0)), "narrowing: NaN share");
}

/* R: mean(d >= obs - 1e-12) over every split combn(na + nb, na). */
static void test_constant_p(void)
{
	static const struct {
		size_t na;
		double ca;
		size_t nb;
		double cb, want;
	} cases[] = {
		{2, 5, 2, 6, 1.0 / 3},
		{2, 5, 3, 6, 0.1},
		{4, 5, 2, 6, 0.0666666666666667},
		{5, 1, 5, 2, 0.00793650793650794},
		{3, 7, 3, 7, 1.0},
	};

	for (size_t k = 0; k < ARRAY_SIZE(cases); k++)
		ok_near(compare_constant_p(cases[k].na, cases[k].ca,
					   cases[k].nb, cases[k].cb),
			cases[k].want, 1e-12,
			"constant p, %zu x %g against %zu x %g", cases[k].na,
			cases[k].ca, cases[k].nb, cases[k].cb);
}

/* A label of one operation in the given runs and boots (0: no boots). */
static void label(struct run_data *rd, const char *name, const int64_t *run,
		  const int64_t *boot, size_t n)
{
	struct op_samples *op;

	memset(rd, 0, sizeof(*rd));
	rd->info.label = xstrdup(name);
	op = run_data_op(rd, "b", "t", true);
	for (size_t i = 0; i < n; i++) {
		op_samples_add_keyed(op, 10.0 + (double)i, (int64_t)i + 1,
				     run[i]);
		if (boot)
			op_samples_set_boot(op, boot[i]);
	}
}

static void test_unit_auto(void)
{
	static const int64_t one_run[] = {1, 1, 1, 1},
			     two_runs[] = {2, 2, 3, 3};
	static const int64_t boots[] = {1, 1, 2, 2}, one_boot[] = {1, 1, 1, 1};
	static const struct {
		const char *what;
		const int64_t *run_a, *boot_a, *run_b, *boot_b;
		enum compare_unit want;
		const char *why;
	} cases[] = {
		{"single runs: iterations", one_run, NULL, one_run, NULL,
		 COMPARE_UNIT_ITERATION, "no label pools runs or boots"},
		{"one label pools runs: runs", one_run, NULL, two_runs, NULL,
		 COMPARE_UNIT_RUN, "A 1 run, B 2 runs"},
		{"two boots: boots", one_run, boots, one_run, one_boot,
		 COMPARE_UNIT_BOOT, "A 2 boots, B 1 boot"},
		{"boots on one side only: runs", two_runs, boots, one_run, NULL,
		 COMPARE_UNIT_RUN, "A 2 runs, B 1 run"},
	};

	for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
		struct run_data runs[2];
		struct strbuf why = STRBUF_INIT;
		enum compare_unit got;

		label(&runs[0], "A", cases[k].run_a, cases[k].boot_a, 4);
		label(&runs[1], "B", cases[k].run_b, cases[k].boot_b, 4);
		got = compare_unit_auto(runs, 2, &why);
		ok(got == cases[k].want, "unit auto, %s: %s", cases[k].what,
		   compare_unit_nth(got));
		is_str(why.buf, cases[k].why, "unit auto, %s: why",
		       cases[k].what);
		strbuf_release(&why);
		run_data_release(&runs[0]);
		run_data_release(&runs[1]);
	}
}

/* splitmix64 (Steele, Lea and Flood 2014): enough for a seeded draw. */
static uint64_t next_u64(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* A standard normal by Box-Muller (one of the pair). */
static double normal(uint64_t *x)
{
	double u = ((double)(next_u64(x) >> 11) + 0.5) * 0x1.0p-53;
	double v = ((double)(next_u64(x) >> 11) + 0.5) * 0x1.0p-53;

	return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}

#define SIM_TABLES 25
#define SIM_ROWS   20
#define SIM_RUNS   3 /* per label */
#define SIM_ITERS  4 /* per run */

/*
 * One label of SIM_ROWS operations pooling SIM_RUNS runs of SIM_ITERS
 * iterations of one sample: a time of 1000 e^(run + iteration), a run
 * effect and an iteration noise of sd 2% each, as issue 20's pooled
 * runs; the first run's id is run0, iteration ids from *iter.
 */
static void sim_label(struct run_data *rd, const char *name, int64_t run0,
		      int64_t *iter, uint64_t *rng)
{
	memset(rd, 0, sizeof(*rd));
	rd->info.label = xstrdup(name);
	for (size_t o = 0; o < SIM_ROWS; o++) {
		char op_name[16];
		struct op_samples *op;

		snprintf(op_name, sizeof(op_name), "op%02zu", o);
		op = run_data_op(rd, "b", op_name, true);
		for (int64_t r = 0; r < SIM_RUNS; r++) {
			double run_eff = 0.02 * normal(rng);

			for (size_t i = 0; i < SIM_ITERS; i++)
				op_samples_add_keyed(
					op,
					1000.0 * exp(run_eff +
						     0.02 * normal(rng)),
					(*iter)++, run0 + r);
		}
	}
}

/* Marked rows (p <= alpha) and whether BH marked any, of one table. */
static size_t sim_table(const struct run_data *runs, enum compare_unit unit,
			bool *table_marked, enum compare_unit *picked)
{
	struct compare_options opts = COMPARE_OPTIONS_INIT;
	struct compare_result res = COMPARE_RESULT_INIT;
	size_t marked = 0;

	opts.unit = unit;
	*table_marked = false;
	if (compare_runs(runs, 2, &opts, &res, NULL)) {
		*table_marked = true;
		return SIM_ROWS;
	}
	*picked = res.opts.unit;
	for (size_t o = 0; o < res.bench[0].ops_nr; o++) {
		const struct compare_side *s = &res.bench[0].ops[o].side[1];

		marked += !isnan(s->p) && s->p <= opts.alpha;
		*table_marked |= s->significant;
	}
	compare_result_release(&res);
	return marked;
}

static void test_auto_calibration(void)
{
	size_t rows[2] = {0, 0}, tables[2] = {0, 0}, all = 0;
	enum compare_unit picked = COMPARE_UNIT_AUTO;
	uint64_t rng = 20261202;
	bool runs_picked = true;

	for (size_t t = 0; t < SIM_TABLES; t++) {
		struct run_data runs[2];
		int64_t iter = 1;
		bool m;

		sim_label(&runs[0], "A", 1, &iter, &rng);
		sim_label(&runs[1], "B", 1 + SIM_RUNS, &iter, &rng);
		rows[0] += sim_table(runs, COMPARE_UNIT_AUTO, &m, &picked);
		tables[0] += m;
		runs_picked &= picked == COMPARE_UNIT_RUN;
		rows[1] += sim_table(runs, COMPARE_UNIT_ITERATION, &m, &picked);
		tables[1] += m;
		all += SIM_ROWS;
		run_data_release(&runs[0]);
		run_data_release(&runs[1]);
	}
	ok(runs_picked,
	   "simulation: --unit auto picks the run for labels "
	   "pooling %d runs",
	   SIM_RUNS);
	diag("A/A, %d runs x %d iterations a label, run effect and noise 2%%: "
	     "auto %zu of %zu rows and %zu of %d tables marked, iterations "
	     "%zu rows and %zu tables",
	     SIM_RUNS, SIM_ITERS, rows[0], all, tables[0], SIM_TABLES, rows[1],
	     tables[1]);
	/* Binomial: 5% of 500 rows is 25, sd 4.9; of 25 tables 1.25, sd 1.1. */
	ok((double)rows[0] <= 0.075 * (double)all,
	   "simulation: --unit auto marks %zu of %zu A/A rows (<= 7.5%%)",
	   rows[0], all);
	ok(tables[0] <= 4,
	   "simulation: and %zu of %d A/A tables under BH "
	   "(<= 4)",
	   tables[0], SIM_TABLES);
	ok(rows[1] > 2 * rows[0] && (double)rows[1] > 0.1 * (double)all,
	   "simulation: the iterations as units mark %zu rows, far more",
	   rows[1]);
}

/* "sim": the seeded simulation alone (the suite sim, not under valgrind). */
int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "sim")) {
		test_auto_calibration();
		done_testing();
		return exit_status();
	}
	test_between_share();
	test_constant_p();
	test_unit_auto();
	done_testing();
	return exit_status();
}
