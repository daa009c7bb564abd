/*
 * test-bisect: the classification rule of bisect against R's values, the
 * error budget, the search's skips and binaries, and a seeded simulation
 * of whole searches with a fake executor drawing values.
 */
#include "bisect.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "store-bisect.h"
#include "store.h"
#include "strbuf.h"
#include "tap.h"
#include "test-stats-tsv.h"

/* xorshift64* and Box-Muller: the same values on every machine. */
struct rng {
	uint64_t s;
};

static double rng_unit(struct rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return (double)((r->s * 2685821657736338717ULL) >> 11) /
	       9007199254740992.0;
}

static double rng_normal(struct rng *r)
{
	double u = rng_unit(r), v = rng_unit(r);

	return sqrt(-2 * log(u > 0 ? u : 1e-300)) * cos(6.283185307179586 * v);
}

/*
 * The fake tree: commit i's binary is i / pair (pair commits in a row
 * build the same bytes), its time 1 before the culprit and 1 + shift
 * from it on, each unit drawn with a relative noise sd; commits in
 * broken[] do not build.
 */
struct fake {
	struct rng rng;
	size_t culprit; /* 0: no change anywhere */
	double shift, sd;
	size_t pair;
	const size_t *broken;
	size_t broken_nr;
	size_t builds, rounds;
};

static int fake_build(void *ctx, size_t i, char hash[65], struct strbuf *err)
{
	struct fake *f = ctx;

	(void)err;
	f->builds++;
	for (size_t k = 0; k < f->broken_nr; k++)
		if (f->broken[k] == i)
			return 1;
	snprintf(hash, 65, "binary-%zu", i / (f->pair ? f->pair : 1));
	return 0;
}

static int fake_measure(void *ctx, const size_t *slots, size_t slots_nr,
			size_t rounds, struct bisect_values *vals,
			struct strbuf *err)
{
	struct fake *f = ctx;

	(void)err;
	f->rounds += rounds;
	for (size_t r = 0; r < rounds; r++)
		for (size_t s = 0; s < slots_nr; s++) {
			double mu = f->culprit && slots[s] >= f->culprit
					    ? 1 + f->shift
					    : 1;

			bisect_values_add(
				&vals[s],
				mu * exp(f->sd * rng_normal(&f->rng)));
		}
	return 0;
}

static void test_reference(void)
{
	FILE *f = fopen("data/stats-bisect-reference.tsv", "r");
	char line[8192];
	int line_nr = 0;

	ok(f != NULL, "reference table opens");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *field[8];
		size_t nr;
		double *a = NULL, *b = NULL, *c = NULL, t = NAN, df = NAN,
		       p = NAN;
		size_t na = 0, nb = 0, nc = 0;
		struct bisect_look look;
		bool cls;

		line_nr++;
		line[strcspn(line, "\n")] = '\0';
		nr = split(line, '\t', field, 8);
		cls = !strcmp(field[0], "classify");
		if ((cls && nr != 8) || (!cls && nr != 7)) {
			ok(false, "line %d has %zu fields", line_nr, nr);
			continue;
		}
		if (cls) {
			parse_list(field[2], &a, &na);
			parse_list(field[3], &c, &nc);
			parse_list(field[4], &b, &nb);
			bisect_classify(a, na, c, nc, b, nb, field[1][0] == '1',
					0.05, &look);
		} else {
			parse_list(field[2], &a, &na);
			parse_list(field[3], &b, &nb);
			bisect_ends(a, na, b, nb, field[1][0] == '1', 0.05, 0,
				    &look);
		}
		parse_num_or_nan(field[nr - 3], &t);
		parse_num_or_nan(field[nr - 2], &df);
		parse_num_or_nan(field[nr - 1], &p);
		check_rel_tol(cls ? "classify_t" : "ends_t", field[1], look.t,
			      t, 1e-10, line_nr);
		check_rel_tol(cls ? "classify_df" : "ends_df", field[1],
			      look.df, df, 1e-10, line_nr);
		check_rel_tol(cls ? "classify_p" : "ends_p", field[1], look.p,
			      p, 1e-8, line_nr);
		free(a);
		free(b);
		free(c);
	}
	fclose(f);
	report_worst();
}

/* The verdicts of fixed cases, one per row. */
static void test_verdicts(void)
{
	static const double a[] = {100, 101, 99, 100.5, 99.5, 100};
	static const double b[] = {110, 111, 109, 110.5, 109.5, 110};
	static const double good[] = {100.2, 99.8, 100.1, 99.9};
	static const double bad[] = {110.2, 109.8, 110.1, 109.9};
	static const double mid[] = {104.9, 105.1, 105, 105.05};
	static const struct {
		const double *c;
		bool higher;
		enum bisect_verdict want;
	} rows[] = {
		{good, false, BISECT_GOOD},  {bad, false, BISECT_BAD},
		{mid, false, BISECT_UNSURE}, {good, true, BISECT_GOOD},
		{bad, true, BISECT_BAD},
	};
	struct bisect_look look;

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		/* Higher-better: the bad end is the lower one. */
		const double *lo = rows[i].higher ? b : a;
		const double *hi = rows[i].higher ? a : b;
		const double *c = rows[i].c;

		if (rows[i].higher)
			c = c == good ? bad : good;
		bisect_classify(lo, 6, c, 4, hi, 6, rows[i].higher, 0.001,
				&look);
		is_str(bisect_verdict_name(look.verdict),
		       bisect_verdict_name(rows[i].want), "case %zu", i);
	}
	bisect_classify(a, 1, good, 4, b, 6, false, 0.05, &look);
	ok(look.verdict == BISECT_UNSURE, "one value of an end is unsure");
	bisect_ends(a, 6, b, 6, false, 0.001, 0, &look);
	ok(look.verdict == BISECT_BAD && look.change_pct > 9.9 &&
		   look.change_pct < 10.1,
	   "ends 10%% apart: worse (%.2f%%)", look.change_pct);
	bisect_ends(a, 6, b, 6, false, 0.001, 20, &look);
	ok(look.verdict != BISECT_BAD, "but not at a margin of 20%%");
	bisect_ends(a, 6, good, 4, false, 0.001, 5, &look);
	ok(look.verdict == BISECT_GOOD, "the same within 5%%");
	bisect_ends(b, 6, a, 6, false, 0.001, 0, &look);
	ok(look.verdict == BISECT_UNSURE && isfinite(look.mde_pct),
	   "a better bad end is not a regression (MDE %.2f%%)", look.mde_pct);
}

static void test_budget(void)
{
	double sum = 0;
	size_t planned = bisect_planned(64);

	ok(planned == 1 + 6 + 2, "64 commits: %zu decisions planned", planned);
	ok(bisect_planned(2) == 3 && bisect_planned(3) == 4,
	   "2 commits: ends and verification; 3: one step");
	for (size_t k = 0; k < 200; k++)
		sum += bisect_share(0.05, planned, k);
	ok(sum <= 0.05 && sum > 0.0499, "200 decisions spend %.6f of 0.05",
	   sum);
}

static int search(struct fake *f, const struct bisect_rule *rule,
		  struct bisect_result *res)
{
	struct bisect_ops ops = {fake_build, fake_measure, NULL, f};
	struct strbuf err = STRBUF_INIT;
	int r;

	memset(res, 0, sizeof(*res));
	r = bisect_run(64, rule, &ops, res, &err);
	if (r)
		diag("%s", err.buf);
	strbuf_release(&err);
	return r;
}

static void test_skips(void)
{
	static const size_t broken[] = {31, 32, 33};
	struct bisect_rule rule = BISECT_RULE_INIT;
	struct fake f = {.rng = {26},
			 .culprit = 32,
			 .shift = 0.05,
			 .sd = 0.01,
			 .broken = broken,
			 .broken_nr = 3};
	struct bisect_result res = {0};
	bool said_skip = false;
	int r = search(&f, &rule, &res);

	ok(!r && res.outcome == BISECT_AMBIGUOUS && res.first == 31 &&
		   res.culprit == 34,
	   "culprit among unbuilt commits: 31 .. 34 (%zu .. %zu)", res.first,
	   res.culprit);
	for (size_t i = 0; i < res.log_nr; i++)
		said_skip |= res.log[i].verdict == BISECT_SKIP;
	ok(said_skip, "the log names the skips");
	bisect_result_release(&res);

	f = (struct fake){.rng = {27},
			  .culprit = 40,
			  .shift = 0.05,
			  .sd = 0.01,
			  .pair = 4};
	r = search(&f, &rule, &res);
	ok(!r && res.outcome == BISECT_FOUND && res.culprit == 40,
	   "binaries in fours: culprit 40 (%zu)", res.culprit);
	said_skip = false;
	for (size_t i = 0; i < res.log_nr; i++)
		said_skip |= res.log[i].same_as >= 0;
	ok(said_skip, "a commit of a binary measured takes its verdict");
	bisect_result_release(&res);

	f = (struct fake){.rng = {28}, .culprit = 40, .pair = 64};
	r = search(&f, &rule, &res);
	ok(!r && res.outcome == BISECT_SAME_ENDS && res.units == 0,
	   "ends of the same binary: nothing measured");
	bisect_result_release(&res);
}

/*
 * Many searches of a 5% step in 2% noise and of no step at all, by the
 * sequential rule and by the fixed-n one (every decision its maximum).
 */
static void test_simulation(void)
{
	enum { REPEATS = 200 };
	struct bisect_rule rule = BISECT_RULE_INIT;
	double units[2][2] = {{0}};
	size_t found[2] = {0}, clean[2] = {0};

	for (int fixed = 0; fixed < 2; fixed++) {
		rule.fixed_n = fixed;
		for (size_t r = 0; r < REPEATS; r++) {
			struct fake f = {
				.rng = {1000 + r}, .shift = 0.05, .sd = 0.02};
			struct bisect_result res;

			f.culprit = 1 + (size_t)(rng_unit(&f.rng) * 63);
			if (!search(&f, &rule, &res) &&
			    res.outcome == BISECT_FOUND &&
			    res.culprit == f.culprit)
				found[fixed]++;
			units[fixed][0] += (double)res.units;
			bisect_result_release(&res);
			f = (struct fake){.rng = {5000 + r}, .sd = 0.02};
			if (!search(&f, &rule, &res) &&
			    res.outcome == BISECT_NO_REGRESSION)
				clean[fixed]++;
			units[fixed][1] += (double)res.units;
			bisect_result_release(&res);
		}
		diag("%s rule: culprit found in %zu of %d, A/A clean in %zu of %d; units per search %.0f (culprit), %.0f (A/A)",
		     fixed ? "fixed-n" : "sequential", found[fixed], REPEATS,
		     clean[fixed], REPEATS, units[fixed][0] / REPEATS,
		     units[fixed][1] / REPEATS);
	}
	ok(found[0] >= REPEATS * 95 / 100, "culprit found in %zu of %d",
	   found[0], REPEATS);
	ok(clean[0] >= REPEATS * 95 / 100,
	   "A/A: no regression between the ends in %zu of %d", clean[0],
	   REPEATS);
	ok(units[0][0] < units[1][0],
	   "the sequential rule spends fewer units than the fixed-n one (%.0f < %.0f)",
	   units[0][0] / REPEATS, units[1][0] / REPEATS);
}

/*
 * The batches of a search as they were measured, served back in order
 * by replay_measure() to a search run again, which stops at the first
 * batch not served (the next a search across boots has to measure).
 */
struct recorded {
	struct fake *f; /* draws the values when recording */
	size_t slots[64][4], slots_nr[64], rounds[64];
	struct bisect_values vals[64][4];
	size_t nr, serve, limit;   /* recorded; served; served at most */
	size_t asked[4], asked_nr; /* the batch the replay asked for */
};

static int recorded_build(void *ctx, size_t i, char hash[65],
			  struct strbuf *err)
{
	return fake_build(((struct recorded *)ctx)->f, i, hash, err);
}

static int record_measure(void *ctx, const size_t *slots, size_t slots_nr,
			  size_t rounds, struct bisect_values *vals,
			  struct strbuf *err)
{
	struct recorded *r = ctx;
	struct bisect_values got[4] = {{0}};
	size_t k = r->nr++;

	if (k >= 64 || fake_measure(r->f, slots, slots_nr, rounds, got, err))
		return -1;
	memcpy(r->slots[k], slots, slots_nr * sizeof(*slots));
	r->slots_nr[k] = slots_nr;
	r->rounds[k] = rounds;
	for (size_t s = 0; s < slots_nr; s++) {
		for (size_t i = 0; i < got[s].nr; i++) {
			bisect_values_add(&vals[s], got[s].v[i]);
			bisect_values_add(&r->vals[k][s], got[s].v[i]);
		}
		free(got[s].v);
	}
	return 0;
}

static int replay_measure(void *ctx, const size_t *slots, size_t slots_nr,
			  size_t rounds, struct bisect_values *vals,
			  struct strbuf *err)
{
	struct recorded *r = ctx;
	size_t k = r->serve++;

	if (k >= r->nr || k >= r->limit) {
		memcpy(r->asked, slots, slots_nr * sizeof(*slots));
		r->asked_nr = slots_nr;
		return 1;
	}
	if (slots_nr != r->slots_nr[k] || rounds != r->rounds[k] ||
	    memcmp(slots, r->slots[k], slots_nr * sizeof(*slots)))
		return error_addf(err, "batch %zu asked for other slots", k);
	for (size_t s = 0; s < slots_nr; s++)
		for (size_t i = 0; i < r->vals[k][s].nr; i++)
			bisect_values_add(&vals[s], r->vals[k][s].v[i]);
	return 0;
}

static bool same_log(const struct bisect_result *a,
		     const struct bisect_result *b, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (a->log[i].kind != b->log[i].kind ||
		    a->log[i].commit != b->log[i].commit ||
		    a->log[i].verdict != b->log[i].verdict ||
		    a->log[i].units != b->log[i].units ||
		    !(a->log[i].p == b->log[i].p || isnan(a->log[i].p)))
			return false;
	return true;
}

/*
 * A search taken up again from the batches measured so far, as one
 * across the machine's boots is at every resume: with the first k
 * batches given back it takes the same steps and asks for batch k, its
 * log a prefix of the whole search's; with all of them it ends as the
 * search did. Seeded searches with a culprit, with skips, and A/A.
 */
static void test_resume(void)
{
	static const size_t broken[] = {20, 21};
	struct bisect_rule rule = BISECT_RULE_INIT;
	struct {
		struct fake f;
		const char *what;
	} cases[] = {
		{{.rng = {91}, .culprit = 23, .shift = 0.05, .sd = 0.02},
		 "culprit 23"},
		{{.rng = {92},
		  .culprit = 22,
		  .shift = 0.05,
		  .sd = 0.01,
		  .broken = broken,
		  .broken_nr = 2,
		  .pair = 3},
		 "skips and shared binaries"},
		{{.rng = {93}, .sd = 0.02}, "A/A"},
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		static struct recorded r;
		struct bisect_ops rec = {recorded_build, record_measure, NULL,
					 &r};
		struct bisect_ops rep = {recorded_build, replay_measure, NULL,
					 &r};
		struct bisect_result full = {0};
		struct strbuf err = STRBUF_INIT;
		bool prefix = true, asked = true;
		int ret;

		memset(&r, 0, sizeof(r));
		r.f = &cases[i].f;
		ret = bisect_run(64, &rule, &rec, &full, &err);
		for (size_t k = 0; !ret && k < r.nr; k++) {
			struct bisect_result part = {0};

			r.serve = 0;
			r.limit = k;
			r.asked_nr = 0;
			if (bisect_run(64, &rule, &rep, &part, &err) != 1 ||
			    part.log_nr > full.log_nr ||
			    !same_log(&part, &full, part.log_nr))
				prefix = false;
			if (r.asked_nr != r.slots_nr[k] ||
			    memcmp(r.asked, r.slots[k],
				   r.slots_nr[k] * sizeof(size_t)))
				asked = false;
			bisect_result_release(&part);
		}
		ok(!ret && r.nr > 1 && prefix,
		   "%s: taken up after each of its %zu batches, the same steps",
		   cases[i].what, r.nr);
		ok(asked, "%s: and each time it asks for the next batch",
		   cases[i].what);
		{
			struct bisect_result again = {0};

			r.serve = 0;
			r.limit = SIZE_MAX;
			ret = bisect_run(64, &rule, &rep, &again, &err);
			ok(!ret && again.outcome == full.outcome &&
				   again.culprit == full.culprit &&
				   again.log_nr == full.log_nr &&
				   same_log(&again, &full, full.log_nr),
			   "%s: with every batch given back it ends as it did (%s)",
			   cases[i].what, bisect_outcome_name(again.outcome));
			bisect_result_release(&again);
		}
		for (size_t k = 0; k < r.nr; k++)
			for (size_t s = 0; s < 4; s++)
				free(r.vals[k][s].v);
		bisect_result_release(&full);
		strbuf_release(&err);
	}
}

/* The log in the store: a bisection, its steps in order, its outcome. */
static void test_store(void)
{
	struct strbuf err = STRBUF_INIT;
	struct store *st = store_open(":memory:", &err);
	char repo[] = "r", good[] = "g", bad[] = "b", op[] = "op-*",
	     other[] = "other", hash[] = "h", ends[] = "ends", step[] = "step",
	     c[] = "c", skip[] = "skip", maybe[] = "maybe", worse[] = "bad";
	struct store_bisect b = {.repo = repo,
				 .good = good,
				 .bad = bad,
				 .operation = op,
				 .config_hash = hash,
				 .alpha = 0.05};
	struct store_bisect_step s = {.kind = ends,
				      .commit = bad,
				      .verdict = worse,
				      .units = 12,
				      .p = 1e-4,
				      .pos = NAN,
				      .alpha = 0.005,
				      .image_sha256 = hash};
	struct store_bisect_step *steps = NULL;
	size_t nr = 0;
	int64_t id = 0, found = 0;

	if (!ok(st != NULL, "store opens"))
		return;
	ok(!store_bisect_create(st, &b, &id, &err) && id > 0,
	   "a bisection is stored");
	ok(!store_bisect_add_step(st, id, &s, &err), "its first step");
	s.kind = step;
	s.commit = c;
	s.verdict = skip;
	s.image_sha256 = NULL;
	s.p = NAN;
	ok(!store_bisect_add_step(st, id, &s, &err), "its second step");
	ok(!store_bisect_steps(st, id, &steps, &nr, &err) && nr == 2 &&
		   steps[0].step == 0 && steps[1].step == 1 &&
		   !strcmp(steps[0].verdict, "bad") && steps[0].units == 12 &&
		   isnan(steps[0].pos) && !steps[1].image_sha256 &&
		   isnan(steps[1].p) && !strcmp(steps[1].kind, "step"),
	   "the log reads back in order, NULLs as NaN and NULL");
	for (size_t i = 0; i < nr; i++)
		store_bisect_step_release(&steps[i]);
	free(steps);
	ok(!store_bisect_find_open(st, &b, &found, &err) && found == id,
	   "it is found while it goes on");
	b.operation = other;
	ok(!store_bisect_find_open(st, &b, &found, &err) && !found,
	   "not for other rows");
	b.operation = op;
	ok(!store_bisect_finish(st, id, "found", "c", &err) &&
		   !store_bisect_find_open(st, &b, &found, &err) && !found,
	   "nor once finished");
	s.verdict = maybe;
	ok(store_bisect_add_step(st, id, &s, &err) != 0,
	   "a verdict bisect does not know is refused");
	store_close(st);
	strbuf_release(&err);
}

int main(void)
{
	test_store();
	test_reference();
	test_verdicts();
	test_budget();
	test_skips();
	test_resume();
	test_simulation();
	done_testing();
	return exit_status();
}
