/*
 * The calibration grid of compare v3 (docs/statistics.md), longer than
 * the seeded checks of tests/test-stats-sim.c: A/A false marks per row
 * and per 20-row BH table on the log scale for single runs and for runs
 * pooled by their means (run effect 2%), the power at the printed MDE
 * for n = 2, 3, 5, 10, and A/A marks after `--until`'s two-stage rule
 * with separately run labels (normal and lognormal), the pilot left out
 * of the tested data as the rule does and kept as its first form did. Prints,
 * tests nothing. Usage: stats-calibration [TABLES]
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "stats.h"
#include "until.h"

#define ALPHA 0.05
#define ROWS  20
#define MAX_N 64

static uint64_t state = 20261202;

/* splitmix64 and Box-Muller: fixed seed, the same figures every run. */
static double uniform(void)
{
	uint64_t z = (state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) * 0x1.0p-53;
}

static double normal(void)
{
	return sqrt(-2.0 * log(uniform())) * cos(2.0 * M_PI * uniform());
}

/* One side's unit values: runs x iters, CV 2% each level. */
static size_t draw(double *u, size_t runs, size_t iters, double run_sd,
		   double shift)
{
	size_t n = 0;

	for (size_t r = 0; r < runs; r++) {
		double level = exp(shift + run_sd * normal()), s = 0.0;

		for (size_t i = 0; i < iters; i++)
			s += level * exp(0.02 * normal());
		/* --unit run: one value per run. */
		u[n++] = runs > 1 ? s / (double)iters
				  : level * exp(0.02 * normal());
	}
	return n;
}

static double row_p(size_t runs, size_t iters, double run_sd, double shift)
{
	double a[MAX_N], b[MAX_N];
	size_t na = draw(a, runs, iters, run_sd, 0.0);
	size_t nb = draw(b, runs, iters, run_sd, shift);
	struct stats_welch_units w;

	stats_welch_pick(a, na, b, nb, true, &w);
	return w.p;
}

static void aa_grid(size_t tables)
{
	static const size_t ns[] = {2, 3, 5, 10};

	printf("A/A, log scale: marked rows and 20-row BH tables with a mark\n");
	for (int pooled = 0; pooled < 2; pooled++)
		for (size_t k = 0; k < 4; k++) {
			size_t rows = 0, tabs = 0;

			for (size_t t = 0; t < tables; t++) {
				double p[ROWS], q[ROWS];
				bool any = false;

				for (size_t o = 0; o < ROWS; o++) {
					p[o] = pooled ? row_p(ns[k], 5, 0.02, 0)
						      : row_p(ns[k], 1, 0, 0);
					rows += p[o] <= ALPHA;
				}
				stats_bh_adjust(p, ROWS, q);
				for (size_t o = 0; o < ROWS; o++)
					any |= q[o] <= ALPHA;
				tabs += any;
			}
			printf("  %-28s n = %2zu: rows %5.2f%%  tables %5.2f%%\n",
			       pooled ? "pooled runs (effect 2%), run"
				      : "single run, iterations",
			       ns[k], 100.0 * rows / (double)(tables * ROWS),
			       100.0 * tabs / (double)tables);
		}
}

static void power_grid(size_t reps)
{
	static const size_t ns[] = {2, 3, 5, 10};

	printf("power at the printed MDE (alpha 0.05, sd of logs 0.02)\n");
	for (size_t k = 0; k < 4; k++) {
		double d =
			stats_welch_mde(0.02, ns[k], 0.02, ns[k], ALPHA, 0.8);
		double st = stats_mde((double)ns[k], 0.02, ALPHA, 0.8);
		size_t hit = 0, hit_st = 0;

		for (size_t i = 0; i < reps; i++) {
			hit += row_p(ns[k], 1, 0, d) <= ALPHA;
			hit_st += row_p(ns[k], 1, 0, st) <= ALPHA;
		}
		printf("  n = %2zu: MDE %6.2f%% found %5.1f%%; v2's %6.2f%% "
		       "found %5.1f%%\n",
		       ns[k], 100.0 * expm1(d), 100.0 * hit / (double)reps,
		       100.0 * expm1(st), 100.0 * hit_st / (double)reps);
	}
}

/*
 * One label run under --until pct, its tested values in u, at most
 * MAX_N - 14 = 50 (a config's iterations). keep: the first rule of
 * compare v3, the pilot kept in the data and counted in the target;
 * else the pilot is left out, as warm-ups are, and the target counts
 * tested iterations.
 */
static size_t until_label(double *u, bool lognormal, bool keep, double pct)
{
	struct until_job job = {0};
	size_t n = 0, target;

	while (until_job_pilot(&job)) {
		double v = lognormal ? exp(0.02 * normal())
				     : 1.0 + 0.02 * normal();

		until_job_add(&job, 1, true)[0] = v;
		if (keep)
			u[n++] = v;
	}
	target = until_target(job.vals, job.nr, 1, pct);
	while (n < MAX_N - 14 &&
	       (keep ? n < target : !until_job_precise(&job, 1, pct))) {
		until_job_add(&job, 1, true);
		u[n++] = lognormal ? exp(0.02 * normal())
				   : 1.0 + 0.02 * normal();
	}
	until_job_release(&job);
	return n;
}

static void until_grid(size_t reps)
{
	printf("A/A after --until, labels in separate runs (CV 2%%): "
	       "marked rows, mean tested n\n");
	for (int lognormal = 0; lognormal < 2; lognormal++)
		for (double pct = 0.5; pct <= 4.0; pct *= 2.0) {
			size_t marks[2] = {0, 0}, total[2] = {0, 0};

			for (int keep = 0; keep < 2; keep++)
				for (size_t i = 0; i < reps; i++) {
					double a[MAX_N], b[MAX_N];
					size_t na = until_label(a, lognormal,
								keep, pct);
					size_t nb = until_label(b, lognormal,
								keep, pct);
					struct stats_welch_units w;

					stats_welch_pick(a, na, b, nb, true,
							 &w);
					marks[keep] += w.p <= ALPHA;
					total[keep] += na + nb;
				}
			printf("  %-9s until %.1f%%: pilot left out %5.2f%% "
			       "(n %4.1f); kept %5.2f%% (n %4.1f)\n",
			       lognormal ? "lognormal" : "normal", pct,
			       100.0 * marks[0] / (double)reps,
			       0.5 * total[0] / (double)reps,
			       100.0 * marks[1] / (double)reps,
			       0.5 * total[1] / (double)reps);
		}
}

int main(int argc, char **argv)
{
	size_t tables = argc > 1 ? strtoul(argv[1], NULL, 10) : 2000;

	aa_grid(tables);
	power_grid(tables * 5);
	until_grid(tables * 5);
	return 0;
}
