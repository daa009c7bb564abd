/*
 * bench/bisect: the units the bisect rule (src/bisect.h) spends per step,
 * by simulation: searches of 64 commits with a step of SHIFT at a random
 * commit in lognormal noise of SD, and A/A searches without one, by the
 * sequential rule and by the fixed-n one (every decision its maximum).
 * Prints, per noise level, the culprits found, the A/A searches that
 * said "no regression", and the unit values per search and per step
 * (each decision of the log: the ends, the steps, the verification);
 * seq-16 is the sequential rule with 16 batches at most, not 8.
 * Seeded: the same figures on every machine; it times nothing.
 * Usage: bisect [SEARCHES]
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bisect.h"
#include "strbuf.h"

struct fake {
	uint64_t s;
	size_t culprit;
	double shift, sd;
};

static double unit(struct fake *f)
{
	f->s ^= f->s >> 12;
	f->s ^= f->s << 25;
	f->s ^= f->s >> 27;
	return (double)((f->s * 2685821657736338717ULL) >> 11) /
	       9007199254740992.0;
}

static double normal(struct fake *f)
{
	double u = unit(f), v = unit(f);

	return sqrt(-2 * log(u > 0 ? u : 1e-300)) * cos(6.283185307179586 * v);
}

static int build(void *ctx, size_t i, char hash[65], struct strbuf *err)
{
	(void)ctx;
	(void)err;
	snprintf(hash, 65, "%zu", i);
	return 0;
}

static int measure(void *ctx, const size_t *slots, size_t nr, size_t rounds,
		   struct bisect_values *vals, struct strbuf *err)
{
	struct fake *f = ctx;

	(void)err;
	for (size_t r = 0; r < rounds; r++)
		for (size_t s = 0; s < nr; s++)
			bisect_values_add(&vals[s],
					  (f->culprit && slots[s] >= f->culprit
						   ? 1 + f->shift
						   : 1) *
						  exp(f->sd * normal(f)));
	return 0;
}

struct tally {
	size_t right, searches, steps;
	double units;
};

static void run(struct bisect_rule *rule, double sd, bool change,
		size_t searches, struct tally *t)
{
	for (size_t i = 0; i < searches; i++) {
		struct fake f = {.s = 7919 * (i + 1) + (change ? 1 : 2),
				 .shift = change ? 0.05 : 0,
				 .sd = sd};
		struct bisect_ops ops = {build, measure, NULL, &f};
		struct bisect_result res = {0};
		struct strbuf err = STRBUF_INIT;

		f.culprit = change ? 1 + (size_t)(unit(&f) * 63) : 0;
		if (!bisect_run(64, rule, &ops, &res, &err)) {
			t->right +=
				change ? res.outcome == BISECT_FOUND &&
						 res.culprit == f.culprit
				       : res.outcome == BISECT_NO_REGRESSION;
			t->units += (double)res.units;
			t->steps += res.log_nr;
		}
		t->searches++;
		bisect_result_release(&res);
		strbuf_release(&err);
	}
}

int main(int argc, char **argv)
{
	static const double sds[] = {0.01, 0.02, 0.03};
	size_t searches = argc > 1 ? strtoul(argv[1], NULL, 10) : 200;

	printf("searches of 64 commits, a 5%% step at a random commit, alpha 0.05, 3 rounds per batch, at most 8 batches\n");
	printf("%-10s %5s %10s %10s %12s %12s %10s\n", "rule", "sd", "culprit",
	       "A/A clean", "units/search", "units/step", "A/A units");
	/* Sequential, fixed-n, and sequential with twice the maximum. */
	for (int kind = 0; kind < 3; kind++)
		for (size_t k = 0; k < sizeof(sds) / sizeof(sds[0]); k++) {
			struct bisect_rule rule = BISECT_RULE_INIT;
			struct tally c = {0}, a = {0};
			bool fixed = kind == 1;

			rule.fixed_n = fixed;
			rule.max_batches = kind == 2 ? 16 : 8;
			run(&rule, sds[k], true, searches, &c);
			run(&rule, sds[k], false, searches, &a);
			printf("%-10s %4.0f%% %5zu/%-4zu %5zu/%-4zu %12.0f %12.1f %10.0f\n",
			       kind == 1   ? "fixed-n"
			       : kind == 2 ? "seq-16"
					   : "sequential",
			       100 * sds[k], c.right, c.searches, a.right,
			       a.searches, c.units / (double)c.searches,
			       c.units / (double)(c.steps ? c.steps : 1),
			       a.units / (double)a.searches);
		}
	return 0;
}
