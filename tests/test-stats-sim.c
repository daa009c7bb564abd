/*
 * Simulation test of the unit of replication (statistics reference,
 * sections 1 and 2): will-it-scale-like tables of per-second samples
 * that share their iteration's state. With one value per iteration the
 * A/A false marks stay near alpha; testing the samples as independent
 * marks many times more; a real +5% change is found. A fixed seed makes
 * every run draw the same numbers, so the counts are deterministic.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tap.h"
#include "stats.h"
#include "until.h"
#include "util.h"

#define ALPHA	     0.05
#define ROWS	     20	 /* operations per table */
#define AA_TABLES    200 /* A/A tables of ROWS rows */
#define POWER_TABLES 200
#define SAMPLES	     15	 /* per-second samples per iteration */
#define PHI	     0.8 /* AR(1) correlation of successive seconds */
#define MAX_ITER     10

/* xoshiro256** (Blackman and Vigna 2018), seeded by splitmix64. */
struct rng {
	uint64_t s[4];
	bool have_spare;
	double spare;
};

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static void rng_init(struct rng *r, uint64_t seed)
{
	for (size_t i = 0; i < ARRAY_SIZE(r->s); i++)
		r->s[i] = splitmix64(&seed);
	r->have_spare = false;
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s, out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return out;
}

/* Uniform in (0, 1): the top 53 bits, never 0. */
static double rng_uniform(struct rng *r)
{
	return ((double)(rng_next(r) >> 11) + 0.5) * 0x1.0p-53;
}

/* Standard normal by the Box-Muller transform, both values used. */
static double rng_normal(struct rng *r)
{
	double rad, ang;

	if (r->have_spare) {
		r->have_spare = false;
		return r->spare;
	}
	rad = sqrt(-2.0 * log(rng_uniform(r)));
	ang = 2.0 * M_PI * rng_uniform(r);
	r->spare = rad * sin(ang);
	r->have_spare = true;
	return rad * cos(ang);
}

/* How one label's samples of one operation are drawn. */
struct model {
	double mean;	/* the throughput of the label */
	double iter_sd; /* relative sd of the iteration means */
	double noise;	/* relative sd of a second around its iteration */
	size_t iters;
};

/*
 * One label: per iteration a mean drawn around m->mean, then SAMPLES
 * seconds of AR(1) noise around it (stationary, sd m->noise). x[] gets
 * iters * SAMPLES samples, key[] their iteration.
 */
static size_t draw_label(struct rng *r, const struct model *m, double *x,
			 long long *key)
{
	size_t n = 0;

	for (size_t it = 0; it < m->iters; it++) {
		double level = m->mean * (1.0 + m->iter_sd * rng_normal(r));
		double e = m->noise * rng_normal(r);

		for (size_t s = 0; s < SAMPLES; s++) {
			if (s)
				e = PHI * e + sqrt(1.0 - PHI * PHI) * m->noise *
						      rng_normal(r);
			x[n] = level * (1.0 + e);
			key[n++] = (long long)it;
		}
	}
	return n;
}

/* The two p-values of one row: on iteration values and on samples. */
struct row_p {
	double units, samples;
};

static struct row_p test_row(struct rng *r, const struct model *base,
			     const struct model *other)
{
	double xa[MAX_ITER * SAMPLES], xb[MAX_ITER * SAMPLES];
	double ua[MAX_ITER * SAMPLES], ub[MAX_ITER * SAMPLES];
	long long ka[MAX_ITER * SAMPLES], kb[MAX_ITER * SAMPLES];
	size_t na = draw_label(r, base, xa, ka),
	       nb = draw_label(r, other, xb, kb);
	size_t ia, ib;
	struct stats_welch_units w;
	struct stats_test t;
	struct row_p p;

	/* Throughput: higher is better, the unit value is mean(1 / x). */
	ia = stats_unit_values(xa, ka, na, true, ua, NULL);
	ib = stats_unit_values(xb, kb, nb, true, ub, NULL);
	stats_welch_units(ua, ia, ub, ib, &w);
	p.units = w.p;
	/* Version 1: every sample a unit (reciprocals, as compare did). */
	for (size_t i = 0; i < na; i++)
		xa[i] = 1.0 / xa[i];
	for (size_t i = 0; i < nb; i++)
		xb[i] = 1.0 / xb[i];
	stats_welch(xa, na, xb, nb, &t);
	p.samples = t.p;
	return p;
}

/* Whether any p of a table is marked under BH. */
static bool table_marked(const double *p, size_t n)
{
	bool reject[ROWS], any = false;

	stats_bh(p, n, ALPHA, reject);
	for (size_t i = 0; i < n; i++)
		any |= reject[i];
	return any;
}

static void check_aa(void)
{
	const struct model m = {1000.0, 0.02, 0.01, 5};
	size_t marks_units = 0, marks_samples = 0, tables_units = 0,
	       tables_samples = 0, rows = (size_t)AA_TABLES * ROWS;
	double rate_units, rate_samples;
	struct rng r;

	rng_init(&r, 20261201);
	for (size_t tb = 0; tb < AA_TABLES; tb++) {
		double pu[ROWS], ps[ROWS];

		for (size_t i = 0; i < ROWS; i++) {
			struct row_p p = test_row(&r, &m, &m);

			pu[i] = p.units;
			ps[i] = p.samples;
			marks_units += p.units <= ALPHA;
			marks_samples += p.samples <= ALPHA;
		}
		tables_units += table_marked(pu, ROWS);
		tables_samples += table_marked(ps, ROWS);
	}
	rate_units = (double)marks_units / (double)rows;
	rate_samples = (double)marks_samples / (double)rows;
	diag("A/A, 5 iterations x %d samples, iteration sd 2%%, seconds 1%% "
	     "AR(1) %.1f, %zu rows:",
	     SAMPLES, PHI, rows);
	diag("  one value per iteration: %.1f%% of rows marked (p <= %.2f), "
	     "%.1f%% of %d-row tables marked under BH",
	     100.0 * rate_units, ALPHA,
	     100.0 * (double)tables_units / AA_TABLES, ROWS);
	diag("  75 samples as independent: %.1f%% of rows marked, %.1f%% of "
	     "tables marked under BH",
	     100.0 * rate_samples, 100.0 * (double)tables_samples / AA_TABLES);
	ok(rate_units <= 0.06 && rate_units >= 0.02,
	   "A/A on iteration values: %.2f%% false marks per row, in [2%%, 6%%]",
	   100.0 * rate_units);
	ok((double)tables_units <= 0.08 * AA_TABLES &&
		   (double)tables_samples >= 0.9 * AA_TABLES,
	   "A/A tables marked under BH: %zu of %d on iteration values "
	   "(<= 8%%), %zu on samples (>= 90%%)",
	   tables_units, AA_TABLES, tables_samples);
	ok(rate_samples > 3.0 * rate_units && rate_samples > 0.2,
	   "A/A on samples as independent: %.1f%% false marks, far more",
	   100.0 * rate_samples);
}

/*
 * The reference's point about power: the share of tables in which a
 * lone 3% regression at 5 iterations and CoV 2% is marked under BH.
 */
static double lone_regression_found(struct rng *r)
{
	const struct model base = {1000.0, 0.02, 0.01, 5};
	struct model worse = base;
	size_t found = 0;

	worse.mean *= 0.97;
	for (size_t tb = 0; tb < POWER_TABLES; tb++) {
		double pu[ROWS], adj[ROWS];

		for (size_t i = 0; i < ROWS; i++)
			pu[i] = test_row(r, &base, i ? &base : &worse).units;
		stats_bh_adjust(pu, ROWS, adj);
		found += adj[0] <= ALPHA;
	}
	return (double)found / POWER_TABLES;
}

static void check_power(void)
{
	const struct model base = {1000.0, 0.01, 0.005, 10};
	struct model better = base;
	size_t found = 0, verdicts = 0;
	struct rng r;

	better.mean *= 1.05;
	rng_init(&r, 424242);
	for (size_t tb = 0; tb < POWER_TABLES; tb++) {
		double pu[ROWS], adj[ROWS];

		/* Row 0 changed by +5%, the other rows A/A. */
		for (size_t i = 0; i < ROWS; i++)
			pu[i] = test_row(&r, &base, i ? &base : &better).units;
		stats_bh_adjust(pu, ROWS, adj);
		found += adj[0] <= ALPHA;
	}
	ok((double)found >= 0.9 * POWER_TABLES,
	   "+5%% at CoV 1%%, 10 iterations a side: marked under BH in %zu of "
	   "%d tables (>= 90%%)",
	   found, POWER_TABLES);

	/* The verdict of such a row is "better", its interval near +5%. */
	for (size_t k = 0; k < 20; k++) {
		double xa[MAX_ITER * SAMPLES], xb[MAX_ITER * SAMPLES];
		double ua[MAX_ITER * SAMPLES], ub[MAX_ITER * SAMPLES];
		long long ka[MAX_ITER * SAMPLES], kb[MAX_ITER * SAMPLES];
		size_t na = draw_label(&r, &base, xa, ka);
		size_t nb = draw_label(&r, &better, xb, kb);
		struct stats_welch_units w;
		struct stats_change c;

		na = stats_unit_values(xa, ka, na, true, ua, NULL);
		nb = stats_unit_values(xb, kb, nb, true, ub, NULL);
		stats_welch_units(ua, na, ub, nb, &w);
		stats_change(&w, true, ALPHA, &c);
		verdicts += stats_verdict(w.p <= ALPHA, c.change_pct, NULL,
					  0.0) == STATS_VERDICT_BETTER &&
			    c.low_pct > 2.0 && c.high_pct < 8.0;
	}
	ok(verdicts >= 18,
	   "+5%%: %zu of 20 rows better with an interval inside (2%%, 8%%)",
	   verdicts);
	diag("a lone -3%% at 5 iterations, CoV 2%%: marked under BH in %.0f%% "
	     "of %d-row tables",
	     100.0 * lone_regression_found(&r), ROWS);
	diag("MDE at 5 iterations a side, CoV 2%%: %.2f%%; at 10, CoV 1%%: "
	     "%.2f%%",
	     stats_mde(5.0, 2.0, ALPHA, 0.8), stats_mde(10.0, 1.0, ALPHA, 0.8));
}

/*
 * Compare v3, section "power": draw lognormal unit values (sd 0.05 of
 * the logs, a CV near 5%) with a change of the printed MDE, as
 * stats_welch_mde_pct() gives it for the true spread, and test them on
 * the log scale: Welch's exact power makes 80% of them marked at n = 2,
 * 3, 5 and 10 (Student's MDE finds 48% at n = 2). Alone in a 20-row BH
 * table at the MDE for alpha / 20, the change is found at least as
 * often. And A/A rows on the log scale are marked at most alpha of the
 * time.
 */
#define MDE_REPS   2000
#define MDE_TABLES 400
#define LOG_SD	   0.05

static void draw_logs(struct rng *r, double mu, size_t n, double *u)
{
	for (size_t i = 0; i < n; i++)
		u[i] = exp(mu + LOG_SD * rng_normal(r));
}

static double log_row_p(struct rng *r, size_t n, double shift)
{
	double a[MAX_ITER], b[MAX_ITER];
	struct stats_welch_units w;

	draw_logs(r, 0.0, n, a);
	draw_logs(r, shift, n, b);
	stats_welch_pick(a, n, b, n, true, &w);
	return w.p;
}

static void check_mde_power(void)
{
	static const size_t ns[] = {2, 3, 5, 10};
	struct rng r;

	rng_init(&r, 20261202);
	for (size_t k = 0; k < ARRAY_SIZE(ns); k++) {
		size_t n = ns[k], found = 0, lone = 0, aa = 0;
		double d = stats_welch_mde(LOG_SD, n, LOG_SD, n, ALPHA, 0.8);
		double d20 = stats_welch_mde(LOG_SD, n, LOG_SD, n, ALPHA / ROWS,
					     0.8);

		for (size_t i = 0; i < MDE_REPS; i++) {
			found += log_row_p(&r, n, d) <= ALPHA;
			aa += log_row_p(&r, n, 0.0) <= ALPHA;
		}
		for (size_t t = 0; t < MDE_TABLES; t++) {
			double p[ROWS], adj[ROWS];

			for (size_t o = 0; o < ROWS; o++)
				p[o] = log_row_p(&r, n, o ? 0.0 : d20);
			stats_bh_adjust(p, ROWS, adj);
			lone += adj[0] <= ALPHA;
		}
		ok(fabs((double)found / MDE_REPS - 0.8) <= 0.05,
		   "n = %zu: a change of the MDE (%.2f%%) is marked %.1f%% "
		   "of the time, within 5 points of 80%%",
		   n, 100.0 * expm1(d), 100.0 * (double)found / MDE_REPS);
		ok((double)lone / MDE_TABLES >= 0.75 &&
			   (double)lone / MDE_TABLES <= 0.9,
		   "n = %zu: alone in a 20-row BH table, a change of the "
		   "MDE at alpha / 20 (%.1f%%) is found %.1f%% of the time",
		   n, 100.0 * expm1(d20), 100.0 * (double)lone / MDE_TABLES);
		ok((double)aa / MDE_REPS <= ALPHA + 0.01,
		   "n = %zu: A/A rows on the log scale marked %.2f%% <= 5%%", n,
		   100.0 * (double)aa / MDE_REPS);
	}
}

/*
 * Compare v3, warnings: A/A tables of 20 rows x 2 labels, normal and
 * lognormal unit values (CV 5%), at n = 3, 5, 10 and 20. An outlier
 * warning (ESD at STATS_OUTLIER_ALPHA per side) or a drift warning
 * (Spearman with time, BH over the table's sides at STATS_DRIFT_Q) in at
 * most about 1% of the tables; version 2's MAD rule warned in most.
 */
#define WARN_TABLES 500
#define SIDES	    (2 * ROWS)

static void draw_units(struct rng *r, bool lognormal, size_t n, double *u)
{
	for (size_t i = 0; i < n; i++)
		u[i] = lognormal ? exp(0.05 * rng_normal(r))
				 : 1.0 + 0.05 * rng_normal(r);
}

/* Whether one A/A table warns: [0] outliers, [1] drift, [2] v2's MAD. */
static void aa_table_warns(struct rng *r, bool lognormal, size_t n,
			   bool warns[3])
{
	double u[20], t[20], p[SIDES], q[SIDES];
	bool flag[20];

	warns[0] = warns[1] = warns[2] = false;
	for (size_t i = 0; i < n; i++)
		t[i] = (double)i;
	for (size_t s = 0; s < SIDES; s++) {
		double rho;

		draw_units(r, lognormal, n, u);
		warns[0] |=
			stats_outliers_esd(u, n, STATS_OUTLIER_ALPHA, flag) > 0;
		warns[2] |= stats_outliers(u, n, flag) > 0;
		stats_spearman(u, t, n, &rho, &p[s]);
		if (n < 6)
			p[s] = NAN;
	}
	stats_bh_adjust(p, SIDES, q);
	for (size_t s = 0; s < SIDES; s++)
		warns[1] |= !isnan(q[s]) && q[s] <= STATS_DRIFT_Q;
}

static void check_warnings(void)
{
	static const size_t ns[] = {3, 5, 10, 20};
	size_t all[2] = {0, 0}, tables = 0;
	struct rng r;

	rng_init(&r, 20261203);
	for (int lognormal = 0; lognormal < 2; lognormal++)
		for (size_t k = 0; k < ARRAY_SIZE(ns); k++) {
			size_t cnt[3] = {0, 0, 0};

			for (size_t t = 0; t < WARN_TABLES; t++) {
				bool w[3];

				aa_table_warns(&r, lognormal, ns[k], w);
				for (size_t j = 0; j < 3; j++)
					cnt[j] += w[j];
			}
			all[0] += cnt[0];
			all[1] += cnt[1];
			tables += WARN_TABLES;
			/* 1% of 500 is 5; allow for the binomial spread. */
			ok(cnt[0] <= 12 && cnt[1] <= 12,
			   "%s n = %zu: outlier warnings in %zu, drift in %zu "
			   "of %d A/A tables (MAD rule of v2: %zu)",
			   lognormal ? "lognormal" : "normal", ns[k], cnt[0],
			   cnt[1], WARN_TABLES, cnt[2]);
		}
	/* 1% of 4000 is 40, its binomial sd 6.3. */
	ok(all[0] <= 56 && all[1] <= 56,
	   "over all %zu A/A tables: outlier warnings in %.2f%%, drift in "
	   "%.2f%%, about 1%%",
	   tables, 100.0 * (double)all[0] / (double)tables,
	   100.0 * (double)all[1] / (double)tables);
}

/*
 * `run --until` with labels in separate runs (docs/statistics.md,
 * stopping on precision): each label runs the two-stage rule on its own,
 * a pilot of UNTIL_PILOT iterations and then the tested iterations the
 * pilot asks for. The test sees only the tested ones, whose number is
 * independent of their values, so A/A rows are marked at about alpha,
 * for normal and lognormal iteration values (CV 2%, until 1%, where a
 * pilot kept in the data was most liberal). Kept in the data, the pilot
 * and counted in the target (version 3's first rule) marks far more:
 * the check can tell the two apart.
 */
#define UNTIL_REPS 2000
#define UNTIL_MAX  64

static double until_value(struct rng *r, bool lognormal)
{
	double z = rng_normal(r);

	return lognormal ? exp(0.02 * z) : 1.0 + 0.02 * z;
}

/*
 * One label: its tested values in u, at most UNTIL_MAX as a config's
 * iterations would cap them. keep: version 3's first rule, the pilot
 * kept and counted in the target.
 */
static size_t until_label(struct rng *r, bool lognormal, bool keep, double *u)
{
	struct until_job job = {0};
	size_t n = 0, target;

	while (until_job_pilot(&job)) {
		double v = until_value(r, lognormal);

		until_job_add(&job, 1, true)[0] = v;
		if (keep)
			u[n++] = v;
	}
	target = until_target(job.vals, job.nr, 1, 1.0);
	while (n < UNTIL_MAX &&
	       (keep ? n < target : !until_job_precise(&job, 1, 1.0))) {
		until_job_add(&job, 1, true);
		u[n++] = until_value(r, lognormal);
	}
	until_job_release(&job);
	return n;
}

static void check_until(void)
{
	struct rng r;

	rng_init(&r, 20261203);
	for (int lognormal = 0; lognormal < 2; lognormal++) {
		size_t marks[2] = {0, 0};

		for (int keep = 0; keep < 2; keep++)
			for (size_t i = 0; i < UNTIL_REPS; i++) {
				double a[UNTIL_MAX], b[UNTIL_MAX];
				size_t na = until_label(&r, lognormal, keep, a);
				size_t nb = until_label(&r, lognormal, keep, b);
				struct stats_welch_units w;

				stats_welch_pick(a, na, b, nb, true, &w);
				marks[keep] += w.p <= ALPHA;
			}
		/* 2000 rows: alpha's binomial sd is 0.5 points. */
		ok((double)marks[0] / UNTIL_REPS <= ALPHA + 0.015,
		   "until, %s: %zu of %d A/A rows marked without the pilot",
		   lognormal ? "lognormal" : "normal", marks[0], UNTIL_REPS);
		ok((double)marks[1] / UNTIL_REPS >= ALPHA + 0.02,
		   "and %zu with it kept", marks[1]);
	}
}

int main(void)
{
	check_aa();
	check_power();
	check_mde_power();
	check_warnings();
	check_until();
	done_testing();
	return exit_status();
}
