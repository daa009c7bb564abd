/*
 * Unit tests for run-data's per-sample keys: an operation keeps them per
 * span of samples, not per sample. Seeded random samples go through the
 * API and, beside it, into plain per-sample arrays with the documented
 * rules (a key is known only if every sample has it); every sample's
 * keys, the spans and the merge of two operations must agree with them.
 */
#include <stdlib.h>
#include <string.h>

#include "run-data.h"
#include "tap.h"
#include "util.h"

/* The per-sample reference of one operation. */
struct ref {
	size_t nr;
	int64_t key[OP_KEY_NR][400];
	bool known[OP_KEY_NR];
	/* Changes of the key tuple as given, plus one: at most the spans. */
	size_t tuples;
};

static unsigned long long rng_state;

static unsigned rnd(unsigned n)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)((rng_state >> 33) % n);
}

/*
 * n keyed samples into op and ref: iterations of a few samples, runs
 * of several iterations, boots of one or two iterations (and now and
 * then a new boot within an iteration, as a split span); with drop,
 * one sample in the middle has no boot or no start time, which drops
 * that key for all.
 */
static void fill_keyed(struct op_samples *op, struct ref *ref, size_t n,
		       bool boots, bool drop)
{
	int64_t it = 100 + rnd(50), run = 1 + rnd(3), boot = 1, ms = 5000;
	int64_t last[OP_KEY_NR] = {-1, -1, -1, -1};
	size_t dropped = drop && n > 1 ? 1 + rnd((unsigned)n - 1) : n;
	bool drop_boot = rnd(2);

	memset(ref, 0, sizeof(*ref));
	ref->known[OP_KEY_ITERATION] = ref->known[OP_KEY_RUN] = true;
	ref->known[OP_KEY_BOOT] = ref->known[OP_KEY_STARTED] = true;
	for (size_t i = 0; i < n; i++) {
		int64_t given[OP_KEY_NR];
		bool boot_ok = !(i == dropped && drop_boot);
		bool ms_ok = !(i == dropped && !drop_boot);

		if (i && !rnd(4)) {
			it += 1 + rnd(3);
			ms += 1000 + rnd(500);
			if (!rnd(3))
				boot++;
			if (!rnd(6))
				run++;
		} else if (i && !rnd(20)) {
			/* Not so in a store, but the API allows it. */
			boot++;
		}
		op_samples_add_keyed(op, (double)rnd(1000), it, run);
		if (boots)
			op_samples_set_boot(op, boot_ok ? boot : 0);
		op_samples_set_started(op, ms_ok, ms);
		given[OP_KEY_ITERATION] = ref->key[OP_KEY_ITERATION][i] = it;
		given[OP_KEY_RUN] = ref->key[OP_KEY_RUN][i] = run;
		given[OP_KEY_BOOT] = ref->key[OP_KEY_BOOT][i] = boot;
		given[OP_KEY_STARTED] = ref->key[OP_KEY_STARTED][i] = ms;
		ref->known[OP_KEY_BOOT] &= boots && boot_ok;
		ref->known[OP_KEY_STARTED] &= ms_ok;
		if (!boot_ok)
			given[OP_KEY_BOOT] = 0;
		if (memcmp(given, last, sizeof(last)))
			ref->tuples++;
		memcpy(last, given, sizeof(last));
	}
	ref->nr = n;
}

/* Whether op's keys are ref's: every sample's, by both readers. */
static bool same_keys(const struct op_samples *op, const struct ref *ref,
		      const char *what)
{
	int64_t got[400];
	bool same = op->nr == ref->nr;

	for (int k = 0; same && k < OP_KEY_NR; k++) {
		enum op_key key = (enum op_key)k;
		bool known = ref->nr && ref->known[k];

		if (op_samples_has(op, key) != known) {
			diag("%s: key %d known %d, want %d", what, k,
			     op_samples_has(op, key), known);
			same = false;
			break;
		}
		op_samples_keys(op, key, got);
		for (size_t i = 0; same && i < ref->nr; i++) {
			int64_t want = known ? ref->key[k][i] : 0;

			if (op_samples_key(op, key, i) != want ||
			    got[i] != want) {
				diag("%s: key %d of sample %zu: %lld and %lld, "
				     "want %lld",
				     what, k, i,
				     (long long)op_samples_key(op, key, i),
				     (long long)got[i], (long long)want);
				same = false;
			}
		}
	}
	return same;
}

/*
 * Whether op_samples_iteration_end() ends each run of samples where
 * ref's iteration changes (after each sample when it knows none).
 */
static bool same_runs(const struct op_samples *op, const struct ref *ref)
{
	bool known = ref->nr && ref->known[OP_KEY_ITERATION];

	for (size_t i = 0; i < ref->nr; i++) {
		size_t want = i + 1;

		while (known && want < ref->nr &&
		       ref->key[OP_KEY_ITERATION][want] ==
			       ref->key[OP_KEY_ITERATION][i])
			want++;
		if (op_samples_iteration_end(op, i) != want) {
			diag("run of sample %zu ends at %zu, want %zu", i,
			     op_samples_iteration_end(op, i), want);
			return false;
		}
	}
	return true;
}

/* Whether op's spans start at 0, rise, and each holds equal keys. */
static bool spans_sound(const struct op_samples *op, size_t most)
{
	if (!op->nr)
		return !op->spans_nr;
	if (!op->spans_nr || op->spans[0].start || op->spans_nr > most)
		return false;
	for (size_t s = 0; s < op->spans_nr; s++) {
		size_t end = op_span_end(op, s);

		if (end <= op->spans[s].start || end > op->nr)
			return false;
	}
	return true;
}

static void test_keyed(void)
{
	bool keys = true, spans = true, runs = true;
	size_t samples = 0, kept = 0;

	for (int round = 0; round < 400; round++) {
		struct run_data rd = {0};
		struct op_samples *op = run_data_op(&rd, "b", "o", true);
		struct ref ref;
		size_t n = 1 + rnd(399);

		fill_keyed(op, &ref, n, round % 4 != 3, round % 3 == 0);
		keys &= same_keys(op, &ref, "keyed");
		runs &= same_runs(op, &ref);
		spans &= spans_sound(op, ref.tuples);
		samples += n;
		kept += op->spans_nr;
		run_data_release(&rd);
	}
	ok(keys, "every key of every sample as given, unknown ones 0");
	ok(spans, "the spans start at 0, rise, and are no more than the "
		  "changes of the keys");
	ok(runs, "a run of one iteration's samples ends where its iteration "
		 "does, over spans a new boot split");
	ok(kept * 3 < samples, "a few spans per iteration: %zu for %zu samples",
	   kept, samples);
}

/* ref of a followed by b, as run_data_merge() pools two runs. */
static void ref_concat(struct ref *out, const struct ref *a,
		       const struct ref *b)
{
	memset(out, 0, sizeof(*out));
	for (int k = 0; k < OP_KEY_NR; k++) {
		out->known[k] =
			(!a->nr || a->known[k]) && (!b->nr || b->known[k]);
		memcpy(out->key[k], a->key[k], a->nr * sizeof(int64_t));
		memcpy(out->key[k] + a->nr, b->key[k], b->nr * sizeof(int64_t));
	}
	out->nr = a->nr + b->nr;
	out->tuples = a->tuples + b->tuples;
}

static void test_merge(void)
{
	bool keys = true, spans = true;

	for (int round = 0; round < 300; round++) {
		struct run_data a = {0}, b = {0};
		struct ref ra, rb, want;
		size_t na = rnd(5) ? 1 + rnd(199) : 0, nb = 1 + rnd(199);

		/* An empty side has no op: the merge creates it. */
		if (na)
			fill_keyed(run_data_op(&a, "b", "o", true), &ra, na,
				   rnd(4), !rnd(3));
		else
			memset(&ra, 0, sizeof(ra));
		fill_keyed(run_data_op(&b, "b", "o", true), &rb, nb, rnd(4),
			   !rnd(3));
		ref_concat(&want, &ra, &rb);
		run_data_merge(&a, &b);
		keys &= same_keys(run_data_op(&a, "b", "o", false), &want,
				  "merged");
		spans &= spans_sound(run_data_op(&a, "b", "o", false),
				     want.tuples);
		run_data_release(&a);
		run_data_release(&b);
	}
	ok(keys, "a merge keeps both sides' keys, and a key that one side "
		 "lacks is known to neither");
	ok(spans, "a merge's spans are sound");
}

/* A CSV's operations: iterations only, or no key at all. */
static void test_unkeyed(void)
{
	static const int64_t iters[7] = {1, 1, 0, 0, 0, 1, 2};
	struct run_data rd = {0}, other = {0};
	struct op_samples *csv = run_data_op(&rd, "b", "csv", true);
	struct op_samples *bare = run_data_op(&rd, "b", "bare", true);
	struct op_samples *op;
	struct ref ref = {0}, keyed;
	bool got = true;

	ref.known[OP_KEY_ITERATION] = true;
	for (size_t i = 0; i < ARRAY_SIZE(iters); i++) {
		op_samples_add_iteration(csv, (double)i, iters[i]);
		ref.key[OP_KEY_ITERATION][i] = iters[i];
	}
	ref.nr = ARRAY_SIZE(iters);
	ok(same_keys(csv, &ref, "csv") && csv->spans_nr == 4,
	   "a CSV's iteration numbers are kept per sample, in 4 spans");
	ok(same_runs(csv, &ref), "and its runs of one iteration end at 2, 5, "
				 "6 and 7");
	for (size_t i = 0; i < 5; i++)
		op_samples_add(bare, 1.0);
	for (int k = 0; k < OP_KEY_NR; k++)
		got &= !op_samples_has(bare, (enum op_key)k) &&
		       !op_samples_key(bare, (enum op_key)k, 4);
	ok(got && !bare->spans_nr,
	   "samples without keys know none and keep no span");
	ok(op_samples_iteration_end(bare, 0) == 1 &&
		   op_samples_iteration_end(bare, 4) == 5,
	   "and each is a run of its own");
	fill_keyed(run_data_op(&other, "b", "csv", true), &keyed, 9, true,
		   false);
	run_data_merge(&rd, &other);
	op = run_data_op(&rd, "b", "csv", false);
	ok(op->nr == 16 && op_samples_has(op, OP_KEY_ITERATION) &&
		   !op_samples_has(op, OP_KEY_RUN) &&
		   !op_samples_has(op, OP_KEY_BOOT) &&
		   op_samples_key(op, OP_KEY_ITERATION, 6) == 2 &&
		   op_samples_key(op, OP_KEY_ITERATION, 7) ==
			   keyed.key[OP_KEY_ITERATION][0] &&
		   !op_samples_key(op, OP_KEY_RUN, 8),
	   "a CSV's op merged with a stored run's keeps the iterations, "
	   "not the runs");
	run_data_release(&rd);
	run_data_release(&other);
}

/* Append ref's samples from..to to op, with ref's keys. */
static void add_from_ref(struct op_samples *op, const struct ref *ref,
			 const double *v, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++) {
		op_samples_add_keyed(op, v[i], ref->key[OP_KEY_ITERATION][i],
				     ref->key[OP_KEY_RUN][i]);
		op_samples_set_boot(op, ref->key[OP_KEY_BOOT][i]);
		op_samples_set_started(op, true, ref->key[OP_KEY_STARTED][i]);
	}
}

/*
 * run_data_reserve(): operations that had samples before it keep them,
 * those given room enough stay in the one block, those given too
 * little move out when they grow (by adding and by a merge), and
 * every value and key comes out as added (ASan sees any free or
 * realloc of a pointer into the block).
 */
static void test_reserve(void)
{
	bool values = true, keys = true, spans = true;
	size_t shared = 0, moved = 0;

	for (int round = 0; round < 200; round++) {
		struct run_data plain = {0}, rd = {0}, more = {0};
		size_t nops = 1 + rnd(4), pre[4], room[4], sroom[4];
		bool placed[4];
		struct ref ref[4];
		const char *names[4] = {"o0", "o1", "o2", "o3"};

		for (size_t i = 0; i < nops; i++) {
			struct op_samples *p =
				run_data_op(&plain, "b", names[i], true);

			fill_keyed(p, &ref[i], 1 + rnd(300), true, false);
			pre[i] = rnd(3) ? 0 : rnd((unsigned)ref[i].nr);
			/* Exact, too little or more than enough room. */
			room[i] = ref[i].nr * (1 + rnd(3)) / 2;
			sroom[i] = ref[i].tuples * (1 + rnd(3)) / 2;
			add_from_ref(run_data_op(&rd, "b", names[i], true),
				     &ref[i], p->v, 0, pre[i]);
		}
		run_data_reserve(&rd, room, sroom);
		for (size_t i = 0; i < nops; i++)
			placed[i] = rd.ops[i].v_shared;
		for (size_t i = 0; i < nops; i++)
			add_from_ref(&rd.ops[i], &ref[i], plain.ops[i].v,
				     pre[i], ref[i].nr);
		for (size_t i = 0; i < nops; i++) {
			const struct op_samples *op = &rd.ops[i];

			values &= !memcmp(op->v, plain.ops[i].v,
					  op->nr * sizeof(*op->v)) &&
				  op->nr == plain.ops[i].nr;
			keys &= same_keys(op, &ref[i], "reserved");
			spans &= spans_sound(op, ref[i].tuples);
			shared += op->v_shared;
			moved += placed[i] && !op->v_shared;
		}
		/* Both ways: a reserved run pooled into and from. */
		run_data_merge(&rd, &plain);
		run_data_merge(&more, &rd);
		for (size_t i = 0; i < nops; i++) {
			const struct op_samples *op = &more.ops[i];
			size_t n = plain.ops[i].nr;

			values &= op->nr == 2 * n &&
				  !memcmp(op->v, plain.ops[i].v,
					  n * sizeof(*op->v)) &&
				  !memcmp(op->v + n, plain.ops[i].v,
					  n * sizeof(*op->v));
		}
		run_data_release(&more);
		run_data_release(&rd);
		run_data_release(&plain);
	}
	ok(values, "reserved room keeps earlier samples, and every value "
		   "added or merged after it");
	ok(keys && spans, "and every key, in sound spans");
	ok(shared && moved,
	   "%zu operations stayed in the block, %zu grew "
	   "out of it",
	   shared, moved);
}

int main(void)
{
	rng_state = 20261203;
	test_keyed();
	test_merge();
	test_unkeyed();
	test_reserve();
	done_testing();
	return exit_status();
}
