/* compare: runs against a baseline -> tables of cells with verdicts. */
#include "compare.h"

#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "compare-provenance.h"
#include "cgroup-stat.h"
#include "compare-units.h"
#include "machine.h"
#include "monitor.h"
#include "monitor-perf.h"
#include "run-data.h"
#include "stats.h"
#include "strbuf.h"
#include "strmap.h"
#include "util.h"

/*
 * R's qnorm(0.975): mmtests asks R for qnorm(1 - 0.05/2, sd = SD), which
 * is SD times this constant, whatever the requested alpha.
 */
#define MMTESTS_Z975 1.959963984540054

/* How many untested operations a footer line names before "...". */
#define FOOTER_MAX_NAMES 5

static const char *const test_names[] = {
	[COMPARE_TEST_WELCH] = "welch",
	[COMPARE_TEST_MMTESTS] = "mmtests",
	[COMPARE_TEST_UTEST] = "utest",
};

bool compare_test_parse(const char *name, enum compare_test *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(test_names); i++) {
		if (!strcmp(name, test_names[i])) {
			*out = (enum compare_test)i;
			return true;
		}
	}
	return false;
}

const char *compare_test_name(enum compare_test test)
{
	if ((size_t)test >= ARRAY_SIZE(test_names))
		BUG("unknown test %d", (int)test);
	return test_names[test];
}

const char *compare_test_nth(size_t i)
{
	return i < ARRAY_SIZE(test_names) ? test_names[i] : NULL;
}

const char *compare_stat_label(enum compare_stat stat, bool higher_better)
{
	switch (stat) {
	case COMPARE_STAT_MIN:
		return "Min";
	case COMPARE_STAT_MEAN:
		return higher_better ? "Hmean" : "Amean";
	case COMPARE_STAT_STDDEV:
		return higher_better ? "HStddev" : "Stddev";
	case COMPARE_STAT_CV:
		return higher_better ? "HCoeffVar" : "CoeffVar";
	case COMPARE_STAT_MAX:
		return "Max";
	case COMPARE_STAT_BMEAN95:
		return higher_better ? "BHmean.95" : "BAmean.95";
	}
	BUG("unknown stat %d", (int)stat);
}

/* Round to 7 significant digits, as R prints the quantile mmtests reads. */
static double round_sig7(double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.6e", v);
	return strtod(buf, NULL);
}

/*
 * mmtests' cidiff: the difference a - b over the sum of the two CI
 * half-widths that face each other; the difference itself when that sum
 * is 0.
 */
static double cidiff(double a, double a_lo, double a_hi, double b, double b_lo,
		     double b_hi)
{
	double d = a - b, den;

	if (a < b)
		den = (a_hi - a) + (b - b_lo);
	else
		den = (a - a_lo) + (b_hi - b);
	return den == 0.0 ? d : d / den;
}

/* A side's CI as mmtests keeps it: [0, 0] when it has none. */
static void side_ci(const struct compare_side *s, double *lo, double *hi)
{
	if (s->has_ci) {
		*lo = s->sum.mean - s->ci_half;
		*hi = s->sum.mean + s->ci_half;
	} else {
		*lo = *hi = 0.0;
	}
}

/* mmtests' rdiff. */
static double rdiff(double new_value, double base)
{
	if (base == 0.0 || isnan(base))
		return 0.0;
	if (new_value == 0.0 || isnan(new_value))
		return 1.0;
	return new_value / base;
}

/*
 * The --print-ratio cells of s against the baseline bs. mmtests takes
 * a side whose mean is undefined (a zero sample under Hmean, or the
 * operation missing) on either side as ratio 1, percentage 0 and
 * normalised difference 0 (Compare.pm's "else" branch); ratio_void
 * records that for bench_cidiff(). Under --test=mmtests the baseline
 * column goes through the same formulas, so a baseline mean of 0 prints
 * ratio 0 there, as in mmtests. The default modes keep rdiff() alone.
 */
static void side_ratio(struct compare_side *s, const struct compare_side *bs,
		       bool higher_better, enum compare_test test)
{
	s->ratio_void = test == COMPARE_TEST_MMTESTS &&
			(isnan(s->sum.mean) || isnan(bs->sum.mean));
	if (s->ratio_void) {
		s->ratio = 1.0;
		s->ratio_pct = 0.0;
		return;
	}
	s->ratio = rdiff(s->sum.mean, bs->sum.mean);
	s->ratio_pct = higher_better ? stats_pdiff(s->ratio, 1.0)
				     : stats_pndiff(s->ratio, 1.0);
}

static const char *const unit_names[] = {
	[COMPARE_UNIT_ITERATION] = "iteration",
	[COMPARE_UNIT_SAMPLE] = "sample",
	[COMPARE_UNIT_RUN] = "run",
	[COMPARE_UNIT_BOOT] = "boot",
	[COMPARE_UNIT_AUTO] = "auto",
};

const char *compare_unit_nth(size_t i)
{
	return i < ARRAY_SIZE(unit_names) ? unit_names[i] : NULL;
}

const char *compare_unit_plural(enum compare_unit unit)
{
	switch (unit) {
	case COMPARE_UNIT_ITERATION:
		return "iterations";
	case COMPARE_UNIT_SAMPLE:
		return "samples";
	case COMPARE_UNIT_RUN:
		return "runs";
	case COMPARE_UNIT_BOOT:
		return "boots";
	case COMPARE_UNIT_AUTO:
		return "units";
	}
	BUG("unknown unit %d", (int)unit);
}

/*
 * One side's units of an operation: their values, their order in time
 * (time: the mean recorded start of their samples' iterations, in ms;
 * seq: the mean store iteration id, which rises with the time they were
 * stored, or the sample's position without one; time is seq where the
 * samples know no start, and seq breaks ties of time) and their run
 * (NaN when unknown). The iteration values stay for the notes about
 * runs and boots that differ (reference section 1).
 */
struct side_units {
	double *u, *time, *seq, *run;
	size_t n;
	double *iter_u, *iter_run; /* per iteration, before --unit run */
	/* Per iteration, its boot as a key (boot_keys()); NULL: unknown. */
	long long *iter_boot;
	size_t iter_n;
	/*
	 * Under --unit sample, each unit's iteration as a key; NULL when
	 * the samples know none or the unit is another.
	 */
	long long *sample_iter;
	/*
	 * The units hold different numbers of samples (or of iterations),
	 * so their equal-weight mean is not the mean of all samples.
	 */
	bool unbalanced;
};

static void side_units_release(struct side_units *su)
{
	free(su->u);
	free(su->time);
	free(su->seq);
	free(su->run);
	free(su->iter_u);
	free(su->iter_run);
	free(su->iter_boot);
	free(su->sample_iter);
	memset(su, 0, sizeof(*su));
}

/* Whether unit i of a came before unit j of b: by time, then seq. */
static bool unit_before(const struct side_units *a, size_t i,
			const struct side_units *b, size_t j)
{
	if (a->time[i] != b->time[j])
		return a->time[i] < b->time[j];
	return a->seq[i] < b->seq[j];
}

/* The index of the first (last, when last) of su's n >= 1 units. */
static size_t unit_extreme(const struct side_units *su, bool last)
{
	size_t k = 0;

	for (size_t i = 1; i < su->n; i++)
		if (last ? unit_before(su, k, su, i)
			 : unit_before(su, i, su, k))
			k = i;
	return k;
}

/*
 * Whether every unit of a came before every one of b, in recorded time
 * (the store's order where the times tie, as for an import without
 * them).
 */
static bool side_before(const struct side_units *a, const struct side_units *b)
{
	return unit_before(a, unit_extreme(a, true), b, unit_extreme(b, false));
}

/* struct side_units in order: unit i's position k, 1-based. */
struct unit_rank {
	const struct side_units *su;
	size_t i;
};

static int unit_rank_cmp(const void *x, const void *y)
{
	const struct unit_rank *a = x, *b = y;

	if (unit_before(a->su, a->i, b->su, b->i))
		return -1;
	return unit_before(b->su, b->i, a->su, a->i);
}

/*
 * The rank of each unit of su in time (1-based, tied times and seq
 * sharing the lower rank: they come from one iteration's start), for
 * Spearman's drift test, which needs no more than the order.
 */
static double *unit_time_ranks(const struct side_units *su)
{
	struct unit_rank *r = xmalloc((su->n ? su->n : 1) * sizeof(*r));
	double *out = xmalloc((su->n ? su->n : 1) * sizeof(*out));
	size_t rank = 0;

	for (size_t i = 0; i < su->n; i++)
		r[i] = (struct unit_rank){su, i};
	qsort(r, su->n, sizeof(*r), unit_rank_cmp);
	for (size_t k = 0; k < su->n; k++) {
		if (!k || unit_rank_cmp(&r[k - 1], &r[k]))
			rank = k + 1;
		out[r[k].i] = (double)rank;
	}
	free(r);
	return out;
}

/* The mean of by[] over each of the units gi[] gives: what units share. */
static double *per_unit(const double *by, const size_t *gi, size_t n,
			size_t units)
{
	double *out = xmalloc((n ? n : 1) * sizeof(*out));

	stats_unit_means(by, gi, n, units, false, out, NULL);
	return out;
}

/* Turn a per-unit double (a run id) into keys. */
static long long *as_keys(const double *v, size_t n)
{
	long long *k = xmalloc((n ? n : 1) * sizeof(*k));

	for (size_t i = 0; i < n; i++)
		k[i] = (long long)v[i];
	return k;
}

/* A unit's run and boot number, and its position. */
struct boot_item {
	double run, boot;
	size_t i;
};

static int boot_item_cmp(const void *a, const void *b)
{
	const struct boot_item *x = a, *y = b;

	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	if (x->boot != y->boot)
		return x->boot < y->boot ? -1 : 1;
	return 0;
}

/*
 * One key per distinct pair (run[i], boot[i]) of n units: a boot's
 * number is unique only within its run, and a label pools runs.
 */
static long long *boot_keys(const double *run, const double *boot, size_t n)
{
	struct boot_item *it = xmalloc((n ? n : 1) * sizeof(*it));
	long long *k = xmalloc((n ? n : 1) * sizeof(*k));
	long long next = 0;

	for (size_t i = 0; i < n; i++)
		it[i] = (struct boot_item){run[i], boot[i], i};
	qsort(it, n, sizeof(*it), boot_item_cmp);
	for (size_t i = 0; i < n; i++) {
		if (i && boot_item_cmp(&it[i - 1], &it[i]))
			next++;
		k[it[i].i] = next;
	}
	free(it);
	return k;
}

/* Whether the n counts c[] are all the same. */
static bool all_equal(const size_t *c, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (c[i] != c[0])
			return false;
	return true;
}

/*
 * The mean over each of the units gi[] gives of src's key (its index
 * when key is OP_KEY_NR, NaN for every sample when nan): by the spans,
 * whose samples share their keys, so a run of one unit in a span adds
 * its key once times its length (exact: the keys are integers). Where
 * the units are iterations (by_iteration), a span is in one unit, and
 * its samples need not be looked at.
 */
static double *unit_key_means(const struct op_samples *src, enum op_key key,
			      bool nan, const size_t *gi, size_t n,
			      size_t units, bool by_iteration)
{
	double *out = xcalloc(units ? units : 1, sizeof(*out));
	size_t *cnt = xcalloc(units ? units : 1, sizeof(*cnt));
	bool whole = by_iteration && key != OP_KEY_NR && src->spans_nr;

	for (size_t s = 0, i = 0; i < n; s++) {
		size_t end = key == OP_KEY_NR || !src->spans_nr
				     ? n
				     : op_span_end(src, s);
		double v = nan		      ? NAN
			   : key == OP_KEY_NR ? 0.0
					      : (double)src->spans[s].key[key];

		while (i < end) {
			size_t g = gi[i], j = whole ? end : i + 1;

			while (j < end && gi[j] == g)
				j++;
			if (key == OP_KEY_NR && !nan)
				for (size_t k = i; k < j; k++)
					out[g] += (double)k;
			else
				out[g] += v * (double)(j - i);
			cnt[g] += j - i;
			i = j;
		}
	}
	for (size_t g = 0; g < units; g++)
		out[g] /= (double)cnt[g];
	free(cnt);
	return out;
}

static void side_units_compute(const struct op_samples *src,
			       enum compare_unit unit, bool reciprocal,
			       struct side_units *su)
{
	size_t n = src ? src->nr : 0;
	long long *key = xmalloc((n ? n : 1) * sizeof(*key));
	int64_t *k64 = xmalloc((n ? n : 1) * sizeof(*k64));
	size_t *gi = xmalloc((n ? n : 1) * sizeof(*gi));
	bool has_iter = n && op_samples_has(src, OP_KEY_ITERATION);
	bool has_run = n && op_samples_has(src, OP_KEY_RUN);
	enum op_key seq = has_iter ? OP_KEY_ITERATION : OP_KEY_NR;
	/* The first units are iterations, each in spans of its own. */
	bool by_iter = has_iter && unit != COMPARE_UNIT_SAMPLE;
	size_t *count;

	memset(su, 0, sizeof(*su));
	if (has_iter)
		op_samples_keys(src, OP_KEY_ITERATION, k64);
	for (size_t i = 0; i < n; i++)
		key[i] = unit != COMPARE_UNIT_SAMPLE && has_iter
				 ? (long long)k64[i]
				 : (long long)i;
	su->u = xmalloc((n ? n : 1) * sizeof(*su->u));
	count = xmalloc((n ? n : 1) * sizeof(*count));
	/* The units once, for the values and each key they average. */
	su->n = stats_unit_index(key, n, gi);
	stats_unit_means(n ? src->v : NULL, gi, n, su->n, reciprocal, su->u,
			 count);
	su->unbalanced = !all_equal(count, su->n);
	if (unit == COMPARE_UNIT_SAMPLE && has_iter) {
		su->sample_iter = xmalloc(n * sizeof(*su->sample_iter));
		for (size_t i = 0; i < n; i++)
			su->sample_iter[i] = (long long)k64[i];
	}
	/* A unit's time is its sequence number where no start is known. */
	su->seq = unit_key_means(src, seq, false, gi, n, su->n, by_iter);
	su->time = unit_key_means(
		src,
		n && op_samples_has(src, OP_KEY_STARTED) ? OP_KEY_STARTED : seq,
		false, gi, n, su->n, by_iter);
	su->run = unit_key_means(src, OP_KEY_RUN, !has_run, gi, n, su->n,
				 by_iter);
	su->iter_n = su->n;
	su->iter_u = xmalloc((su->n ? su->n : 1) * sizeof(*su->iter_u));
	su->iter_run = xmalloc((su->n ? su->n : 1) * sizeof(*su->iter_run));
	if (su->n) {
		memcpy(su->iter_u, su->u, su->n * sizeof(*su->u));
		memcpy(su->iter_run, su->run, su->n * sizeof(*su->run));
	}
	if (has_run && op_samples_has(src, OP_KEY_BOOT)) {
		double *b = unit_key_means(src, OP_KEY_BOOT, false, gi, n,
					   su->n, by_iter);

		su->iter_boot = boot_keys(su->iter_run, b, su->iter_n);
		free(b);
	}
	/*
	 * A run's or a boot's value averages its iterations' with equal
	 * weight. Samples that know no run (parsed, not stored) stay at
	 * their iterations; compare_runs() refuses --unit boot without
	 * boots.
	 */
	if (n && ((unit == COMPARE_UNIT_RUN && has_run) ||
		  (unit == COMPARE_UNIT_BOOT && su->iter_boot))) {
		long long *rk = unit == COMPARE_UNIT_RUN
					? as_keys(su->iter_run, su->iter_n)
					: NULL;
		const long long *uk = rk ? rk : su->iter_boot;
		double *t = su->time, *q = su->seq, *r = su->run;

		su->n = stats_unit_index(uk, su->iter_n, gi);
		stats_unit_means(su->iter_u, gi, su->iter_n, su->n, false,
				 su->u, count);
		su->unbalanced |= !all_equal(count, su->n);
		su->time = per_unit(t, gi, su->iter_n, su->n);
		su->seq = per_unit(q, gi, su->iter_n, su->n);
		su->run = per_unit(r, gi, su->iter_n, su->n);
		free(t);
		free(q);
		free(r);
		free(rk);
	}
	free(key);
	free(k64);
	free(gi);
	free(count);
}

static enum compare_untested untested_of(enum stats_untested why)
{
	switch (why) {
	case STATS_TESTED:
		return COMPARE_TESTED;
	case STATS_UNTESTED_NO_SAMPLES:
	case STATS_UNTESTED_FEW_UNITS:
		return COMPARE_UNTESTED_FEW;
	case STATS_UNTESTED_UNDEFINED_MEAN:
		return COMPARE_UNTESTED_UNDEFINED;
	case STATS_UNTESTED_NONFINITE:
	case STATS_UNTESTED_DEGENERATE:
		return COMPARE_UNTESTED_DEGENERATE;
	}
	BUG("unknown reason %d", (int)why);
}

/*
 * Both sides constant: no spread was seen, so nothing is certain. Equal
 * values are the same (the change 0, also for two sides of zeros, whose
 * ratio is 0/0); different values get the exact permutation p
 * (compare_constant_p(): 1/3 for two values a side) and neither an
 * interval nor a minimum detectable effect, which would be 0.
 */
static void constant_sides(struct compare_side *s, const struct side_units *su,
			   const struct side_units *bu)
{
	if (!s->welch.constant)
		return;
	s->mde_pct = NAN;
	if (s->welch.mean_a == s->welch.mean_b) {
		s->p = 1.0;
		s->change.kind = STATS_CI_BOUNDED;
		s->change.change_pct = s->change.low_pct = 0.0;
		s->change.high_pct = 0.0;
		return;
	}
	s->p = compare_constant_p(bu->n, bu->u[0], su->n, su->u[0]);
	s->change.kind = STATS_CI_NONE;
	s->change.low_pct = s->change.high_pct = NAN;
}

/*
 * Run the chosen test of the base's units bu against this side's su:
 * Welch's test for the change, its interval and the power in either
 * mode, the U test's p in utest mode.
 */
static void side_test(struct compare_side *s, const struct compare_side *b,
		      const struct side_units *su, const struct side_units *bu,
		      bool higher_better, const struct compare_options *opts)
{
	struct stats_test t = {.valid = false};

	s->p = s->p_adjusted = s->mde_pct = NAN;
	s->change.kind = STATS_CI_NONE;
	s->change.change_pct = s->change.low_pct = s->change.high_pct = NAN;
	s->verdict = STATS_VERDICT_UNTESTED;
	if (opts->test == COMPARE_TEST_MMTESTS) {
		s->untested = COMPARE_UNTESTED_MMTESTS;
		return;
	}
	if (!s->present) {
		s->untested = COMPARE_UNTESTED_MISSING;
		return;
	}
	if (!s->sum.n || !b->sum.n) {
		s->untested = COMPARE_UNTESTED_EMPTY;
		return;
	}
	if (isnan(s->sum.mean) || isnan(b->sum.mean)) {
		s->untested = COMPARE_UNTESTED_UNDEFINED;
		return;
	}
	stats_welch_pick(bu->u, bu->n, su->u, su->n, !opts->fieller, &s->welch);
	s->untested = untested_of(s->welch.untested);
	if (s->untested != COMPARE_TESTED)
		return;
	stats_change(&s->welch, higher_better, opts->alpha, &s->change);
	if (opts->test == COMPARE_TEST_UTEST) {
		stats_mannwhitney(bu->u, bu->n, su->u, su->n, &t);
		if (!t.valid || isnan(t.p)) {
			s->untested = COMPARE_UNTESTED_FEW;
			return;
		}
		s->p = t.p;
	} else {
		s->p = s->welch.p;
	}
	constant_sides(s, su, bu);
}

/*
 * The level above a side's units that differs more than they do, by a
 * one-way ANOVA at p < 0.01 (stats_anova_p()), as the data nest: runs >
 * boots > iterations. Under --unit iteration the boots when known, else
 * the runs; under --unit boot the runs. COMPARE_UNIT_SAMPLE when none
 * does or it cannot be told; *p is the ANOVA's p, NaN untested.
 * (--unit sample: sample_icc().)
 */
static enum compare_unit level_above(const struct side_units *x,
				     enum compare_unit unit, double *p)
{
	long long *rk = NULL;
	enum compare_unit level = COMPARE_UNIT_SAMPLE;

	*p = NAN;
	if (unit == COMPARE_UNIT_ITERATION && x->iter_n > 2 && x->iter_boot) {
		*p = stats_anova_p(x->iter_u, x->iter_boot, x->iter_n);
		level = COMPARE_UNIT_BOOT;
	} else if (unit == COMPARE_UNIT_ITERATION && x->iter_n > 2 &&
		   !isnan(x->iter_run[0])) {
		rk = as_keys(x->iter_run, x->iter_n);
		*p = stats_anova_p(x->iter_u, rk, x->iter_n);
		level = COMPARE_UNIT_RUN;
	} else if (unit == COMPARE_UNIT_BOOT && x->n > 2 && !isnan(x->run[0])) {
		rk = as_keys(x->run, x->n);
		*p = stats_anova_p(x->u, rk, x->n);
		level = COMPARE_UNIT_RUN;
	}
	free(rk);
	return !isnan(*p) && *p < 0.01 ? level : COMPARE_UNIT_SAMPLE;
}

/*
 * The note of reference section 1 on op's side x of label: when its
 * boots or runs differ more than its units, the --unit to use. Boots
 * nest in runs, so differing runs make boots differ too: with boots
 * known, the boot note covers both, and under --unit boot its own note
 * says whether runs differ more still.
 */
static void level_note(struct compare_op *op, const char *label,
		       const struct side_units *x, enum compare_unit unit,
		       struct strbuf *sb)
{
	double p;
	enum compare_unit level = level_above(x, unit, &p);

	if (level == COMPARE_UNIT_SAMPLE)
		return;
	strbuf_reset(sb);
	strbuf_addf(sb,
		    "%s: %s %s: its %s differ more than their %s (ANOVA "
		    "p=%.4f); consider --unit %s",
		    compare_unit_plural(level), op->name, label,
		    compare_unit_plural(level), compare_unit_plural(unit), p,
		    compare_unit_nth(level));
	if (level == COMPARE_UNIT_BOOT)
		strbuf_addstr(sb, ": more boots, not more iterations, buy "
				  "precision");
	strvec_push(&op->warnings, sb->buf);
}

/*
 * Under --unit sample, the intraclass correlation of side x's samples
 * within their iterations (the one-way random effects share,
 * compare_between_share()) and the ANOVA's p of the iterations, which
 * samples_warning() sums up per table; NaN otherwise.
 */
static void sample_icc(struct compare_side *s, const struct side_units *x)
{
	s->icc = s->icc_p = NAN;
	if (!x->sample_iter || x->n < 3)
		return;
	s->icc = compare_between_share(x->u, x->sample_iter, x->n);
	s->icc_p = stats_anova_p(x->u, x->sample_iter, x->n);
}

/*
 * The warnings of one operation's data (reference sections 1 and 8):
 * outlying units, a drift in time, no interleaving of a compared run
 * with the baseline, runs of a label that differ more than their
 * iterations.
 */
static void op_warnings(struct compare_op *op, const struct side_units *su,
			char *const *labels, size_t runs_nr,
			const struct compare_options *opts)
{
	struct strbuf sb = STRBUF_INIT;
	const char *units = compare_unit_plural(opts->unit);

	for (size_t i = 0; i < runs_nr; i++) {
		const struct side_units *x = &su[i];
		bool *flag = xcalloc(x->n ? x->n : 1, sizeof(*flag));
		double rho, p, *ranks;

		if (stats_outliers_esd(x->u, x->n, STATS_OUTLIER_ALPHA, flag)) {
			size_t flagged = 0;

			strbuf_reset(&sb);
			for (size_t k = 0; k < x->n; k++)
				flagged += flag[k];
			/* "iteration 5 of 5", "iterations 1, 3 of 10" */
			strbuf_addf(&sb, "outlier: %s %s, %s", op->name,
				    labels[i],
				    flagged == 1 ? compare_unit_nth(opts->unit)
						 : units);
			for (size_t k = 0, nr = 0; k < x->n; k++)
				if (flag[k])
					strbuf_addf(&sb, "%s %zu",
						    nr++ ? "," : "", k + 1);
			strbuf_addf(&sb,
				    " of %zu (generalized ESD, 1%% of "
				    "20-row tables)",
				    x->n);
			strvec_push(&op->warnings, sb.buf);
		}
		free(flag);
		/*
		 * From 6 units, where the exact test can reach p < 0.01
		 * (2 / 6! = 0.0028, stats_spearman()); the warning waits
		 * for BH over the table (apply_drift()).
		 */
		ranks = unit_time_ranks(x);
		stats_spearman(x->u, ranks, x->n, &rho, &p);
		free(ranks);
		op->side[i].drift_rho = rho;
		op->side[i].drift_p = x->n >= 6 ? p : NAN;
		if (i && x->n && su[0].n &&
		    (side_before(&su[0], x) || side_before(x, &su[0]))) {
			strbuf_reset(&sb);
			strbuf_addf(
				&sb,
				"order: every %s of %s started before "
				"every one of %s; a drift of the machine is "
				"not cancelled",
				compare_unit_nth(opts->unit),
				labels[side_before(&su[0], x) ? 0 : i],
				labels[side_before(&su[0], x) ? i : 0]);
			strvec_push(&op->warnings, sb.buf);
		}
		level_note(op, labels[i], x, opts->unit, &sb);
		sample_icc(&op->side[i], x);
	}
	strbuf_release(&sb);
}

/*
 * The share of the variance of a side's iteration values that lies
 * between its units, when they are runs or boots (compare_between_share()),
 * and the iterations per unit; NaN otherwise.
 */
static void side_share(struct compare_side *s, const struct side_units *su,
		       enum compare_unit unit)
{
	long long *rk = NULL;

	s->between_share = s->iters_per_unit = NAN;
	if (!su->n || su->iter_n <= su->n)
		return;
	if (unit == COMPARE_UNIT_RUN && !isnan(su->iter_run[0]))
		rk = as_keys(su->iter_run, su->iter_n);
	if (rk || (unit == COMPARE_UNIT_BOOT && su->iter_boot))
		s->between_share = compare_between_share(
			su->iter_u, rk ? rk : su->iter_boot, su->iter_n);
	if (!isnan(s->between_share))
		s->iters_per_unit = (double)su->iter_n / (double)su->n;
	free(rk);
}

/*
 * Append op to b: summaries, CIs, test p-values and ratios. src[i] is
 * run i's samples of the operation, NULL when it has none.
 */
static void bench_add_op(struct compare_bench *b, char *const *labels,
			 size_t runs_nr, const struct op_samples *const *src,
			 const struct compare_options *opts)
{
	const struct op_samples *base = src[0];
	struct side_units *su = xcalloc(runs_nr, sizeof(*su));
	struct compare_op *op;
	struct compare_side *s, *bs;

	ALLOC_GROW(b->ops, b->ops_nr + 1, b->ops_alloc);
	op = &b->ops[b->ops_nr++];
	op->name = xstrdup(base->name);
	op->unit = xstrdup(base->unit ? base->unit : "");
	op->higher_better = base->higher_better;
	op->decimals = base->decimals;
	op->gauge = false;
	op->side = xcalloc(runs_nr, sizeof(*op->side));
	strvec_init(&op->warnings);
	for (size_t i = 0; i < runs_nr; i++) {
		s = &op->side[i];
		s->present = src[i] != NULL;
		s->icc = s->icc_p = NAN;
		/* Every run is summarised the baseline's way. */
		stats_summarize(src[i] ? src[i]->v : NULL,
				src[i] ? src[i]->nr : 0, op->higher_better,
				&s->sum);
		s->has_ci = s->sum.n > 1 && !isnan(s->sum.mean) &&
			    !isnan(s->sum.stddev);
		s->ci_half = s->has_ci
				     ? round_sig7(MMTESTS_Z975 * s->sum.stddev)
				     : NAN;
		side_units_compute(src[i], opts->unit, op->higher_better,
				   &su[i]);
		s->units = su[i].n;
		s->unbalanced = su[i].unbalanced;
		s->cv_pct = stats_cv_pct(su[i].u, su[i].n);
		side_share(s, &su[i], opts->unit);
	}
	bs = &op->side[0];
	bs->untested = COMPARE_UNTESTED_BASELINE;
	bs->p = bs->p_adjusted = bs->mde_pct = NAN;
	bs->change.change_pct = bs->change.low_pct = bs->change.high_pct = NAN;
	bs->ratio = 1.0;
	for (size_t i = 1; i < runs_nr; i++) {
		side_test(&op->side[i], bs, &su[i], &su[0], op->higher_better,
			  opts);
		side_ratio(&op->side[i], bs, op->higher_better, opts->test);
	}
	if (opts->test == COMPARE_TEST_MMTESTS)
		side_ratio(bs, bs, op->higher_better, opts->test);
	if (opts->test != COMPARE_TEST_MMTESTS)
		op_warnings(op, su, labels, runs_nr, opts);
	for (size_t i = 0; i < runs_nr; i++)
		side_units_release(&su[i]);
	free(su);
}

static void op_release(struct compare_op *op)
{
	free(op->name);
	free(op->unit);
	free(op->side);
	strvec_clear(&op->warnings);
}

static void bench_release(struct compare_bench *b)
{
	for (size_t o = 0; o < b->ops_nr; o++)
		op_release(&b->ops[o]);
	free(b->ops);
	free(b->name);
	free(b->title);
	free(b->rows);
	free(b->cells);
	free(b->durations);
	free(b->ratio_footer);
	free(b->vmstat);
	free(b->vmstat_note);
	strvec_clear(&b->warnings);
	strvec_clear(&b->notes);
}

/*
 * The parts that depend on the whole table: mmtests decides by whether a
 * run has a CI for any operation of the benchmark.
 */
static void bench_cidiff(struct compare_bench *b, size_t runs_nr,
			 enum compare_test test)
{
	bool *any_ci = xcalloc(runs_nr, sizeof(*any_ci));

	for (size_t o = 0; o < b->ops_nr; o++)
		for (size_t i = 0; i < runs_nr; i++)
			any_ci[i] |= b->ops[o].side[i].has_ci;
	b->has_ndiff_footer = any_ci[0];
	for (size_t o = 0; o < b->ops_nr; o++) {
		const struct compare_side *bs = &b->ops[o].side[0];
		double blo, bhi;

		side_ci(bs, &blo, &bhi);
		/*
		 * mmtests prints NaN in every column, its own included,
		 * when the baseline has no CI at all.
		 */
		if (test == COMPARE_TEST_MMTESTS)
			b->ops[o].side[0].ndiff = any_ci[0] ? 0.0 : NAN;
		for (size_t i = 1; i < runs_nr; i++) {
			struct compare_side *s = &b->ops[o].side[i];
			double lo, hi;

			side_ci(s, &lo, &hi);
			if (!any_ci[0] || !any_ci[i])
				s->ndiff = NAN;
			else if (s->ratio_void)
				s->ndiff = 0.0;
			else
				s->ndiff = cidiff(s->sum.mean, lo, hi,
						  bs->sum.mean, blo, bhi);
			/*
			 * mmtests takes the mean of a baseline without any CI
			 * as 0 and flags everything; we flag nothing.
			 */
			if (!any_ci[0] || !any_ci[i] || !s->has_ci) {
				s->cidiff = 0.0;
				continue;
			}
			s->cidiff = cidiff(bs->sum.mean, blo, bhi, s->sum.mean,
					   lo, hi);
			if (test == COMPARE_TEST_MMTESTS && !b->ops[o].gauge)
				s->significant = fabs(s->cidiff) > 1.0;
		}
	}
	free(any_ci);
}

/* A compared side of a mean row, and its operation. */
struct family_item {
	struct compare_side *side;
	const struct compare_op *op;
};

/*
 * The verdict of a tested row (stats_verdict()), but for two cases:
 * equal constant sides are the same; and a ratio that is undefined (a
 * base mean of 0, an interval that is not bounded) gives no verdict
 * against a margin, only, at margin 0, the direction of a marked
 * difference (the base's unit mean a against the other's b; units of
 * Hmean rows are reciprocals, so b > a is worse either way).
 */
static enum stats_verdict row_verdict(struct compare_side *s,
				      const struct stats_change *tost,
				      double margin_pct)
{
	const struct stats_welch_units *w = &s->welch;

	s->ratio_undefined = false;
	if (w->constant && w->mean_a == w->mean_b)
		return STATS_VERDICT_SAME;
	if (isfinite(s->change.change_pct) &&
	    (s->change.kind == STATS_CI_BOUNDED || w->constant))
		return stats_verdict(s->significant, s->change.change_pct, tost,
				     margin_pct);
	s->ratio_undefined = true;
	if (!s->significant || margin_pct > 0)
		return STATS_VERDICT_INCONCLUSIVE;
	return w->mean_b > w->mean_a ? STATS_VERDICT_WORSE
				     : STATS_VERDICT_BETTER;
}

/*
 * Benjamini and Yekutieli's false-coverage-rate intervals (JASA 100,
 * 2005): with R of the m tested rows of a family marked under BH, each
 * marked row's interval is at level 1 - R alpha / m, so that the
 * intervals of the rows picked for their p cover at rate 1 - alpha; as
 * BH marks exactly the rows with p <= R alpha / m, each excludes 0. The
 * other rows keep the 1 - alpha interval, which the renderers call
 * unadjusted where it excludes 0. Without fdr every interval is 1 -
 * alpha, as its marks are unadjusted too.
 */
static void fcr_intervals(struct compare_result *res,
			  const struct family_item *item, size_t n,
			  bool monitor)
{
	double m = (double)res->family_size[monitor];
	double r = (double)res->family_marked[monitor];
	double level = res->opts.alpha * r / (m > 0 ? m : 1);

	for (size_t k = 0; k < n; k++) {
		struct compare_side *s = item[k].side;

		s->ci_level = 1 - res->opts.alpha;
		if (!res->opts.fdr || !s->significant || s->welch.constant ||
		    r >= m)
			continue;
		stats_change(&s->welch, item[k].op->higher_better, level,
			     &s->change);
		s->ci_level = 1 - level;
	}
}

/*
 * One family (reference section 3): p <= alpha, or Benjamini-Hochberg
 * adjusted p <= alpha over every compared side of every table of the
 * family, the workload tables or the monitor tables. Then the verdicts,
 * which need the marks.
 */
static void apply_family(struct compare_result *res, bool monitor)
{
	const struct compare_options *opts = &res->opts;
	struct family_item *item = NULL;
	struct stats_mde_memo *memo;
	double *p = NULL, *adj = NULL, level;
	size_t n = 0, alloc = 0, tested = 0, marked = 0;

	for (size_t bi = 0; bi < res->bench_nr; bi++) {
		struct compare_bench *b = &res->bench[bi];

		for (size_t o = 0; b->monitor == monitor && o < b->ops_nr; o++)
			for (size_t i = 1; i < res->runs_nr; i++) {
				ALLOC_GROW(item, n + 1, alloc);
				item[n].side = &b->ops[o].side[i];
				item[n++].op = &b->ops[o];
			}
	}
	p = xmalloc((n ? n : 1) * sizeof(*p));
	adj = xmalloc((n ? n : 1) * sizeof(*adj));
	for (size_t k = 0; k < n; k++)
		p[k] = item[k].side->p;
	if (opts->fdr)
		stats_bh_adjust(p, n, adj);
	else if (n)
		memcpy(adj, p, n * sizeof(*p));
	for (size_t k = 0; k < n; k++) {
		struct compare_side *s = item[k].side;

		s->p_adjusted = adj[k];
		s->significant = !isnan(adj[k]) && adj[k] <= opts->alpha;
		tested += !isnan(p[k]);
		marked += s->significant;
	}
	res->family_size[monitor] = tested;
	res->family_marked[monitor] = marked;
	fcr_intervals(res, item, n, monitor);
	for (size_t k = 0; k < n; k++) {
		struct compare_side *s = item[k].side;
		struct stats_change tost = {.kind = STATS_CI_NONE};

		if (isnan(p[k]))
			continue;
		/*
		 * TOST's two one-sided tests: the 1 - 2 alpha interval, which
		 * only a margin asks for.
		 */
		if (opts->margin_pct > 0 && !s->welch.constant)
			stats_change(&s->welch, item[k].op->higher_better,
				     2 * opts->alpha, &tost);
		s->verdict = row_verdict(s, &tost, opts->margin_pct);
	}
	/*
	 * The power of a lone change: BH marks it at alpha / tested.
	 * Constant sides have none (constant_sides()). The rows of one
	 * design share a memo of the exact MDE.
	 */
	level = opts->fdr ? opts->alpha / (double)tested : opts->alpha;
	memo = stats_mde_memo_new(level, 0.8);
	for (size_t k = 0; k < n; k++)
		if (!isnan(p[k]) && !item[k].side->welch.constant)
			stats_mde_memo_plan(memo, &item[k].side->welch);
	for (size_t k = 0; k < n; k++) {
		if (isnan(p[k]) || item[k].side->welch.constant)
			continue;
		/* The U test's own under --test=utest. */
		item[k].side->mde_pct =
			opts->test == COMPARE_TEST_UTEST
				? stats_utest_mde_pct(&item[k].side->welch,
						      level, 0.8)
				: stats_mde_memo_pct(memo,
						     &item[k].side->welch);
	}
	stats_mde_memo_free(memo);
	free(item);
	free(p);
	free(adj);
}

/*
 * The drift warnings of each table: Spearman's p of every side, adjusted
 * by BH over the table, warned at q <= STATS_DRIFT_Q, so that a table of
 * steady data warns about 1% of the time, not once per 100 sides.
 */
static void apply_drift(struct compare_result *res, bool monitor)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t bi = 0; bi < res->bench_nr; bi++) {
		struct compare_bench *b = &res->bench[bi];
		size_t n = b->ops_nr * res->runs_nr, k = 0;
		double *p = xmalloc((n ? n : 1) * sizeof(*p));
		double *q = xmalloc((n ? n : 1) * sizeof(*q));

		for (size_t o = 0; o < b->ops_nr; o++)
			for (size_t i = 0; i < res->runs_nr; i++)
				p[k++] = b->ops[o].side[i].drift_p;
		stats_bh_adjust(p, n, q);
		for (size_t o = 0, k2 = 0;
		     b->monitor == monitor && o < b->ops_nr; o++)
			for (size_t i = 0; i < res->runs_nr; i++, k2++) {
				if (isnan(q[k2]) || q[k2] > STATS_DRIFT_Q)
					continue;
				strbuf_reset(&sb);
				strbuf_addf(&sb,
					    "drift: %s %s: values drift over "
					    "the run (Spearman rho %.2f with "
					    "time, p=%.4f, q=%.4f over the "
					    "table)",
					    b->ops[o].name, res->labels[i],
					    b->ops[o].side[i].drift_rho, p[k2],
					    q[k2]);
				strvec_push(&b->ops[o].warnings, sb.buf);
			}
		free(p);
		free(q);
	}
	strbuf_release(&sb);
}

static void apply_tests(struct compare_result *res, bool monitor)
{
	if (res->opts.test == COMPARE_TEST_MMTESTS)
		return;
	apply_family(res, monitor);
	apply_drift(res, monitor);
}

static double stat_value(const struct stats_summary *sum,
			 enum compare_stat stat)
{
	switch (stat) {
	case COMPARE_STAT_MIN:
		return sum->min;
	case COMPARE_STAT_MEAN:
		return sum->mean;
	case COMPARE_STAT_STDDEV:
		return sum->stddev;
	case COMPARE_STAT_CV:
		return sum->cv;
	case COMPARE_STAT_MAX:
		return sum->max;
	case COMPARE_STAT_BMEAN95:
		return sum->bmean95;
	}
	BUG("unknown stat %d", (int)stat);
}

/* The summary value mmtests prints; NaN for "print 0.00". */
static double cell_value(const struct compare_side *s, enum compare_stat stat,
			 enum compare_test test)
{
	double v;

	if (!s->present)
		return NAN;
	v = stat_value(&s->sum, stat);
	/*
	 * mmtests' CoeffVar counts an undefined stddev or mean as 0; the
	 * default modes print no number for it (reference section 7).
	 */
	if (test != COMPARE_TEST_MMTESTS && stat == COMPARE_STAT_CV &&
	    (isnan(s->sum.stddev) || isnan(s->sum.mean) || s->sum.mean == 0.0))
		return NAN;
	/* mmtests still treats -1 as the old "no value" sentinel. */
	if (test == COMPARE_TEST_MMTESTS && v == -1.0)
		return NAN;
	/* The spread in percent of |mean|: a negative mean keeps it > 0. */
	if (test != COMPARE_TEST_MMTESTS && stat == COMPARE_STAT_CV)
		return fabs(v);
	return v;
}

static void bench_rows(const struct compare_result *res,
		       struct compare_bench *b)
{
	size_t runs_nr = res->runs_nr, r = 0, len;
	/* --monitors (not =all): the counter tables show the mean rows. */
	bool mean_only =
		b->monitor && res->opts.monitors == COMPARE_MONITORS_MEAN;
	const struct compare_op *op;
	struct compare_cell *c;
	double base;
	bool lower;

	b->rows_nr = (mean_only ? 1 : COMPARE_STAT_NR) * b->ops_nr;
	b->rows = xcalloc(b->rows_nr, sizeof(*b->rows));
	b->cells = xcalloc(b->rows_nr * runs_nr, sizeof(*b->cells));
	for (int stat = 0; stat < COMPARE_STAT_NR; stat++) {
		if (mean_only && stat != COMPARE_STAT_MEAN)
			continue;
		for (size_t o = 0; o < b->ops_nr; o++, r++) {
			op = &b->ops[o];
			b->rows[r].stat = (enum compare_stat)stat;
			b->rows[r].op = o;
			b->rows[r].label = compare_stat_label(
				b->rows[r].stat, op->higher_better);
			len = strlen(b->rows[r].label);
			if (len > b->stat_width)
				b->stat_width = len;
			/* Spread rows are better lower, whatever the op. */
			lower = !op->higher_better ||
				stat == COMPARE_STAT_STDDEV ||
				stat == COMPARE_STAT_CV;
			c = &b->cells[r * runs_nr];
			for (size_t i = 0; i < runs_nr; i++)
				c[i].value = cell_value(&op->side[i], stat,
							res->opts.test);
			base = c[0].value;
			for (size_t i = 0; i < runs_nr; i++)
				c[i].missing = !op->side[i].present ||
					       !op->side[i].sum.n;
			/* No number, no 0.00% beside it (reference 7). */
			if (res->opts.test != COMPARE_TEST_MMTESTS &&
			    isnan(base))
				c[0].pct_state = STATS_PCT_NONE;
			for (size_t i = 1; i < runs_nr; i++) {
				if (res->opts.test != COMPARE_TEST_MMTESTS) {
					c[i].pct_state = stats_pct_change(
						c[i].value,
						op->side[i].sum.n > 0, base,
						op->side[0].sum.n > 0, !lower,
						&c[i].pct);
					/* Equal values: no "-0.00%". */
					if (c[i].pct == 0.0)
						c[i].pct = 0.0;
					c[i].significant =
						stat == COMPARE_STAT_MEAN &&
						op->side[i].significant;
					continue;
				}
				if (isnan(c[i].value))
					continue;
				c[i].pct =
					lower ? stats_pndiff(c[i].value, base)
					      : stats_pdiff(c[i].value, base);
				c[i].significant = stat == COMPARE_STAT_MEAN &&
						   op->side[i].significant;
			}
		}
	}
}

/*
 * --unit sample takes the samples of an iteration as independent; when
 * they are alike, so that the iterations differ more than the samples in
 * them (ANOVA p < 0.01), the intervals are too narrow and the marks too
 * many: one warning per table, with the median intraclass correlation.
 */
static int cmp_double(const void *a, const void *b);

static void samples_warning(const struct compare_result *res,
			    struct compare_bench *b)
{
	struct strbuf sb = STRBUF_INIT;
	double *icc = xmalloc((b->ops_nr * res->runs_nr + 1) * sizeof(*icc));
	size_t n = 0, alike = 0;

	for (size_t o = 0; o < b->ops_nr; o++)
		for (size_t i = 0; i < res->runs_nr; i++) {
			const struct compare_side *s = &b->ops[o].side[i];

			if (isnan(s->icc_p))
				continue;
			alike += s->icc_p < 0.01;
			if (!isnan(s->icc))
				icc[n++] = s->icc;
		}
	if (alike && n) {
		qsort(icc, n, sizeof(*icc), cmp_double);
		strbuf_addf(&sb,
			    "samples: in %zu of %zu sides the samples of one "
			    "iteration are alike (ANOVA p < 0.01; intraclass "
			    "correlation %.2f, median side), which --unit "
			    "sample takes as independent, so its intervals "
			    "are too narrow: use --unit iteration",
			    alike, n,
			    n % 2 ? icc[n / 2]
				  : 0.5 * (icc[n / 2 - 1] + icc[n / 2]));
		strvec_push(&b->warnings, sb.buf);
	}
	free(icc);
	strbuf_release(&sb);
}

static void bench_footers(const struct compare_result *res,
			  struct compare_bench *b)
{
	size_t runs_nr = res->runs_nr;
	const struct compare_side *s;
	double *ratios = xmalloc(b->ops_nr * sizeof(*ratios));

	/* The baseline's column too: mmtests runs it through the same. */
	b->ratio_footer = xcalloc(runs_nr, sizeof(*b->ratio_footer));
	for (size_t i = 0; i < runs_nr; i++) {
		struct compare_ratio_footer *f = &b->ratio_footer[i];
		double sum = 0.0;
		size_t nd = 0;

		f->dmin = f->dmax = NAN;
		for (size_t o = 0; o < b->ops_nr; o++) {
			s = &b->ops[o].side[i];
			ratios[o] = isnan(s->ratio)   ? 1.0
				    : s->ratio == 0.0 ? 0.00001
						      : s->ratio;
			if (isnan(s->ndiff))
				continue;
			sum += s->ndiff;
			if (!nd || s->ndiff < f->dmin)
				f->dmin = s->ndiff;
			if (!nd || s->ndiff > f->dmax)
				f->dmax = s->ndiff;
			nd++;
		}
		f->dmean = nd ? sum / (double)nd : NAN;
		f->gmean = stats_gmean(ratios, b->ops_nr);
	}
	free(ratios);

	for (size_t o = 0; o < b->ops_nr; o++) {
		for (size_t i = 1; i < runs_nr; i++) {
			s = &b->ops[o].side[i];
			b->nr_compared++;
			if (s->significant)
				b->nr_significant++;
			b->nr_untested[s->untested]++;
		}
	}
}

static void bench_durations(const struct compare_result *res,
			    struct compare_bench *b,
			    const struct run_data *runs)
{
	const struct bench_duration *d;

	b->durations = xcalloc(res->runs_nr, sizeof(*b->durations));
	for (size_t i = 0; i < res->runs_nr; i++) {
		for (size_t k = 0; k < runs[i].durations_nr; k++) {
			d = &runs[i].durations[k];
			if (!d->benchmark || strcmp(d->benchmark, b->name) != 0)
				continue;
			b->durations[i].present = true;
			b->durations[i].user_s = d->user_s;
			b->durations[i].sys_s = d->sys_s;
			b->durations[i].elapsed_s = d->elapsed_s;
			b->has_durations = true;
			break;
		}
	}
}

/* The table of benchmark name among v[0..nr), or NULL. */
static const struct monitor_table *find_table(const struct monitor_table *v,
					      size_t nr, const char *name)
{
	for (size_t k = 0; k < nr; k++)
		if (!strcmp(v[k].benchmark, name))
			return &v[k];
	return NULL;
}

/* The monitor table of benchmark name in rd, or NULL. */
static const struct monitor_table *find_monitors(const struct run_data *rd,
						 const char *name)
{
	return find_table(rd->monitors, rd->monitors_nr, name);
}

/* A note per run whose iterations of b shared a busy machine. */
static void bench_busy(const struct compare_result *res,
		       struct compare_bench *b, const struct run_data *runs)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; !b->monitor && i < res->runs_nr; i++) {
		strbuf_reset(&sb);
		if (compare_busy_note(res->labels[i],
				      find_monitors(&runs[i], b->name), &sb))
			strvec_push(&b->notes, sb.buf);
	}
	strbuf_release(&sb);
}

static void bench_vmstat(const struct compare_result *res,
			 struct compare_bench *b, const struct run_data *runs)
{
	size_t runs_nr = res->runs_nr;
	double row[COMPARE_VMSTAT_NR];

	if (b->monitor)
		return;
	b->vmstat = xmalloc(COMPARE_VMSTAT_NR * runs_nr * sizeof(*b->vmstat));
	for (size_t i = 0; i < runs_nr; i++) {
		const struct monitor_table *mt =
			find_monitors(&runs[i], b->name);

		if (mt && mt->iterations) {
			compare_vmstat_summary(mt, row);
			b->has_vmstat = true;
		}
		for (size_t r = 0; r < COMPARE_VMSTAT_NR; r++)
			b->vmstat[r * runs_nr + i] =
				mt && mt->iterations ? row[r] : NAN;
	}
	b->vmstat_note = compare_vmstat_note(res, b, runs);
}

/*
 * The U test's floor (reference section 8): the exact test cannot reach
 * a p below 2 / choose(na + nb, na). Under BH over m rows a row's cut is
 * between alpha / m (alone) and alpha (when every row is marked), so a
 * floor above alpha means the row cannot be marked, whatever its change,
 * and a floor above alpha / m that it may not be, depending on the others.
 */
static void utest_warning(const struct compare_result *res,
			  struct compare_bench *b)
{
	struct strbuf sb = STRBUF_INIT;
	size_t family = res->opts.fdr && res->family_size[b->monitor]
				? res->family_size[b->monitor]
				: 1;
	double alpha = res->opts.alpha, lone = alpha / (double)family;
	const char *units = compare_unit_plural(res->opts.unit);
	bool cannot = false, may_not = false;

	for (size_t o = 0; o < b->ops_nr; o++)
		for (size_t i = 1; i < res->runs_nr; i++) {
			const struct compare_side *s = &b->ops[o].side[i];
			double min_p;

			if (s->untested != COMPARE_TESTED)
				continue;
			min_p = stats_utest_floor(b->ops[o].side[0].units,
						  s->units);
			cannot |= min_p > alpha;
			may_not |= min_p > lone;
		}
	if (cannot)
		strbuf_addf(
			&sb,
			"the U test cannot mark rows with fewer than %zu %s "
			"per side (alpha %g)",
			stats_utest_min_units(alpha, 1), units, alpha);
	else if (may_not)
		strbuf_addf(
			&sb,
			"the U test may not mark rows with fewer than %zu %s "
			"per side: alone in the BH family of %zu rows, a row "
			"needs p <= %g",
			stats_utest_min_units(alpha, family), units, family,
			lone);
	if (sb.len)
		strvec_push(&b->warnings, sb.buf);
	strbuf_release(&sb);
}

static bool strvec_has(const struct strvec *sv, const char *s)
{
	for (size_t i = 0; i < sv->nr; i++)
		if (!strcmp(sv->v[i], s))
			return true;
	return false;
}

/*
 * The percentages of a monitor table's cells: none for a gauge, whose
 * levels are shown but not compared, and n/a against a base of 0 in
 * every mode (--test=mmtests too), rather than mmtests' -99% or a huge
 * figure from a counter that did not count in the base.
 */
static void monitor_cells(const struct compare_result *res,
			  struct compare_bench *b)
{
	size_t runs_nr = res->runs_nr;

	for (size_t r = 0; b->monitor && r < b->rows_nr; r++) {
		const struct compare_op *op = &b->ops[b->rows[r].op];
		struct compare_cell *c = &b->cells[r * runs_nr];

		for (size_t i = 0; i < runs_nr; i++) {
			if (op->gauge) {
				c[i].pct_state = STATS_PCT_NONE;
				c[i].significant = false;
			} else if (i && c[0].value == 0.0 && !c[i].missing &&
				   c[i].pct_state == STATS_PCT_OK &&
				   c[i].value != 0.0) {
				c[i].pct_state = STATS_PCT_NA;
			}
		}
	}
}

static void bench_finish(const struct compare_result *res,
			 struct compare_bench *b, const struct run_data *runs)
{
	if (res->opts.test == COMPARE_TEST_UTEST)
		utest_warning(res, b);
	samples_warning(res, b);
	/* Once per table what several operations share (the order). */
	for (size_t o = 0; o < b->ops_nr; o++)
		for (size_t k = 0; k < b->ops[o].warnings.nr; k++)
			if (!strvec_has(&b->warnings, b->ops[o].warnings.v[k]))
				strvec_push(&b->warnings,
					    b->ops[o].warnings.v[k]);
	b->higher_better = b->ops_nr && b->ops[0].higher_better;
	for (size_t o = 0; o < b->ops_nr; o++) {
		size_t len = strlen(b->ops[o].name);

		if (len > b->op_width)
			b->op_width = len;
		if (b->ops[o].decimals > b->decimals)
			b->decimals = b->ops[o].decimals;
	}
	bench_rows(res, b);
	monitor_cells(res, b);
	bench_footers(res, b);
	bench_durations(res, b, runs);
	bench_vmstat(res, b, runs);
	bench_busy(res, b, runs);
}

/* Whether counter name changed in some iteration of mt. */
static bool counter_changed(const struct monitor_table *mt, const char *name)
{
	const struct monitor_counter *c = monitor_table_get(mt, name);

	for (size_t i = 0; c && i < c->nr; i++)
		if (c->v[i] != 0.0)
			return true;
	return false;
}

/*
 * Make op a gauge (compare_op.gauge): no test, no verdict, no warnings
 * about its data (outliers, drift) and, in bench_rows(), no percentage
 * (monitor_cells()); every compared side untested for that reason.
 */
static void op_gauge(struct compare_op *op, size_t nr,
		     const struct compare_options *opts)
{
	op->gauge = true;
	strvec_clear(&op->warnings);
	strvec_init(&op->warnings);
	for (size_t i = 0; i < nr; i++) {
		struct compare_side *s = &op->side[i];

		s->drift_p = NAN;
		if (!i)
			continue;
		/* A side without the gauge keeps saying so. */
		if (opts->test != COMPARE_TEST_MMTESTS && s->present &&
		    s->sum.n)
			s->untested = COMPARE_UNTESTED_GAUGE;
		s->p = s->p_adjusted = s->mde_pct = NAN;
		s->significant = false;
		s->verdict = STATS_VERDICT_UNTESTED;
		s->change.kind = STATS_CI_NONE;
		s->change.change_pct = s->change.low_pct = s->change.high_pct =
			NAN;
	}
}

/*
 * Whether levels, a table of gauge levels, has one for every iteration
 * of mt, its benchmark's vmstat table (the same iterations, in order).
 */
static bool levels_cover(const struct monitor_table *levels,
			 const struct monitor_table *mt)
{
	return levels && mt && levels->iterations == mt->iterations;
}

/*
 * Add one counter of the "BENCH vmstat" table: each run's changes per
 * iteration (zeros where its table lacks the counter), none for a run
 * without a table; for a gauge, its level at the end of each iteration
 * instead, from the run's table of levels lv[i] where that covers the
 * run (lv NULL: no such tables, as for cgroup and perf tables).
 */
static void monitor_add_op(struct compare_bench *b, char *const *labels,
			   size_t nr, const struct monitor_table *const *mt,
			   const struct monitor_table *const *lv,
			   const char *name, bool perf, bool gauge,
			   const struct compare_options *opts)
{
	struct op_samples *tmp = xcalloc(nr, sizeof(*tmp));
	const struct op_samples **src =
		xcalloc(nr, sizeof(const struct op_samples *));
	double *zeros = NULL;
	size_t zeros_nr = 0;

	for (size_t i = 0; i < nr; i++)
		if (mt[i] && mt[i]->iterations > zeros_nr)
			zeros_nr = mt[i]->iterations;
	zeros = xcalloc(zeros_nr + 1, sizeof(*zeros));
	for (size_t i = 0; i < nr; i++) {
		const struct monitor_counter *c;
		const struct monitor_table *lt;

		/*
		 * A base without the table has the counter with no sample
		 * (bench_add_op() names the row after the base's).
		 */
		if (!mt[i] && !i) {
			tmp[0].name = (char *)name;
			tmp[0].unit =
				(char *)(perf ? monitor_perf_unit(name) : "");
			tmp[0].higher_better =
				perf && monitor_perf_higher_better(name);
			tmp[0].decimals = 2;
			tmp[0].v = zeros;
			src[0] = &tmp[0];
		}
		if (!mt[i])
			continue;
		lt = lv ? lv[i] : NULL;
		c = monitor_table_get(
			gauge && levels_cover(lt, mt[i]) ? lt : mt[i], name);
		tmp[i].name = (char *)name;
		tmp[i].unit = (char *)(perf ? monitor_perf_unit(name) : "");
		tmp[i].higher_better = perf && monitor_perf_higher_better(name);
		tmp[i].decimals = 2;
		tmp[i].v = c ? c->v : zeros;
		tmp[i].nr = c ? c->nr : mt[i]->iterations;
		src[i] = &tmp[i];
	}
	bench_add_op(b, labels, nr, src, opts);
	if (gauge)
		op_gauge(&b->ops[b->ops_nr - 1], nr, opts);
	free(zeros);
	free(src);
	free(tmp);
}

/* The monitor tables of rd of a kind: vmstat, cgroup or perf. */
static void kind_tables(const struct run_data *rd, bool cgroup, bool perf,
			const struct monitor_table **v, size_t *nr)
{
	*v = perf ? rd->perf : cgroup ? rd->cgroups : rd->monitors;
	*nr = perf ? rd->perf_nr : cgroup ? rd->cgroups_nr : rd->monitors_nr;
}

/* The table of a kind of benchmark bench in rd, or NULL. */
static const struct monitor_table *
kind_find(const struct run_data *rd, bool cgroup, bool perf, const char *bench)
{
	const struct monitor_table *v;
	size_t nr;

	kind_tables(rd, cgroup, perf, &v, &nr);
	return find_table(v, nr, bench);
}

/* The job of iteration k of mt, "" where it is not known. */
static const char *job_of(const struct monitor_table *mt, size_t k)
{
	const char *job = monitor_table_job(mt, k);

	return job ? job : "";
}

/*
 * Into dst (released by the caller), the iterations of src whose job is
 * job; false when it has none.
 */
static bool table_select(struct monitor_table *dst,
			 const struct monitor_table *src, const char *job)
{
	memset(dst, 0, sizeof(*dst));
	dst->benchmark = xstrdup(src->benchmark);
	for (size_t k = 0; k < src->iterations; k++) {
		if (strcmp(job_of(src, k), job))
			continue;
		monitor_table_add_iteration(dst, 0.0);
		if (src->other_cpu)
			dst->other_cpu[dst->iterations - 1] = src->other_cpu[k];
		for (size_t c = 0; c < src->counters_nr; c++)
			if (src->counters[c].v[k] != 0.0)
				monitor_table_set(dst, src->counters[c].name,
						  src->counters[c].v[k]);
	}
	return dst->iterations > 0;
}

/*
 * The note of a monitor table on the labels that have none of its
 * records (an empty column of "-"), or nothing when every label has.
 */
static void monitor_missing_note(struct compare_bench *b, char *const *labels,
				 size_t nr,
				 const struct monitor_table *const *mt,
				 bool cgroup, bool perf, const char *job)
{
	struct strbuf sb = STRBUF_INIT, names = STRBUF_INIT;
	size_t named = 0;

	for (size_t i = 0; i < nr; i++)
		if (!mt[i] || !mt[i]->iterations)
			strbuf_addf(&names, "%s'%s'", named++ ? ", " : "",
				    labels[i]);
	if (named) {
		strbuf_addf(&sb, "no %s",
			    perf     ? "perf counters"
			    : cgroup ? "cgroup counters"
				     : "monitor records");
		if (job)
			strbuf_addf(&sb, " of %s", job);
		strbuf_addf(&sb, " for %s%s: %s column%s reads -", names.buf,
			    cgroup && !job ? " (its iterations ran outside a "
					     "cgroup)"
					   : "",
			    named == 1 ? "its" : "their",
			    named == 1 ? "" : "s");
		strvec_push(&b->notes, sb.buf);
	}
	strbuf_release(&sb);
	strbuf_release(&names);
}

/*
 * The note of a vmstat table with gauge rows on the labels whose records
 * have no gauge levels (an older mmcmp's), whose gauge cells are then
 * the changes over each iteration.
 */
static void levels_note(struct compare_bench *b, char *const *labels, size_t nr,
			const struct monitor_table *const *mt,
			const struct monitor_table *const *lv)
{
	struct strbuf sb = STRBUF_INIT, names = STRBUF_INIT;
	size_t named = 0;
	bool gauges = false;

	for (size_t o = 0; o < b->ops_nr; o++)
		gauges |= b->ops[o].gauge;
	for (size_t i = 0; gauges && i < nr; i++)
		if (mt[i] && mt[i]->iterations && !levels_cover(lv[i], mt[i]))
			strbuf_addf(&names, "%s'%s'", named++ ? ", " : "",
				    labels[i]);
	if (named) {
		strbuf_addf(&sb,
			    "gauge rows of %s show how far each gauge moved "
			    "in an iteration, not its level at the end: %s "
			    "records were made before mmcmp kept the levels",
			    names.buf, named == 1 ? "its" : "their");
		strvec_push(&b->notes, sb.buf);
	}
	strbuf_release(&sb);
	strbuf_release(&names);
}

/*
 * One monitor table titled title of the tables mt[0..nr) (NULL: the
 * label has none), of every counter that changed in some label; none
 * when no counter did.
 */
static void add_monitor_bench(struct compare_result *res, size_t nr,
			      const struct monitor_table *const *mt,
			      const struct monitor_table *const *lv,
			      const char *title, bool cgroup, bool perf,
			      const char *job, size_t *bench_alloc)
{
	struct compare_bench *b;
	struct strmap seen = STRMAP_INIT;

	ALLOC_GROW(res->bench, res->bench_nr + 1, *bench_alloc);
	b = &res->bench[res->bench_nr++];
	memset(b, 0, sizeof(*b));
	strvec_init(&b->warnings);
	strvec_init(&b->notes);
	b->name = xstrdup(title);
	b->title = xstrdup(title);
	b->monitor = true;
	for (size_t i = 0; i < nr; i++) {
		for (size_t k = 0; mt[i] && k < mt[i]->counters_nr; k++) {
			const char *name = mt[i]->counters[k].name;
			size_t len = strlen(name);

			if (strmap_get(&seen, name, len, NULL) ||
			    !counter_changed(mt[i], name))
				continue;
			strmap_put(&seen, name, len, 0);
			monitor_add_op(
				b, res->labels, nr, mt, lv, name, perf,
				!perf && (cgroup ? !cgroup_stat_is_counter(name)
						 : monitor_vmstat_is_gauge(
							   name)),
				&res->opts);
		}
	}
	strmap_clear(&seen);
	if (!b->ops_nr) {
		bench_release(b);
		res->bench_nr--;
		return;
	}
	monitor_missing_note(b, res->labels, nr, mt, cgroup, perf, job);
	if (lv)
		levels_note(b, res->labels, nr, mt, lv);
}

/*
 * The monitor tables "TITLE JOB", one per job of jobs (two or more), each
 * of the iterations of that job in mt (and in lv, the gauge levels, when
 * given).
 */
static void add_job_benches(struct compare_result *res, size_t nr,
			    const struct monitor_table *const *mt,
			    const struct monitor_table *const *lv,
			    const struct strvec *jobs, const char *title,
			    bool cgroup, bool perf, size_t *bench_alloc)
{
	const struct monitor_table **sel = xcalloc(2 * nr, sizeof(*sel));
	const struct monitor_table **lsel = lv ? sel + nr : NULL;
	struct monitor_table *tmp = xcalloc(2 * nr, sizeof(*tmp));
	struct strbuf sb = STRBUF_INIT;

	for (size_t j = 0; j < jobs->nr; j++) {
		const char *job = *jobs->v[j] ? jobs->v[j] : "-";

		for (size_t i = 0; i < nr; i++) {
			sel[i] = mt[i] && table_select(&tmp[i], mt[i],
						       jobs->v[j])
					 ? &tmp[i]
					 : NULL;
			if (lsel)
				lsel[i] =
					lv[i] && table_select(&tmp[nr + i],
							      lv[i], jobs->v[j])
						? &tmp[nr + i]
						: NULL;
		}
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s %s", title, job);
		add_monitor_bench(res, nr, sel, lsel, sb.buf, cgroup, perf, job,
				  bench_alloc);
		for (size_t i = 0; i < 2 * nr; i++)
			monitor_table_release(&tmp[i]);
	}
	strbuf_release(&sb);
	free(tmp);
	free(sel);
}

/*
 * The monitors option: after the workload tables, a "BENCH vmstat" table
 * for each benchmark that some label has monitor data of, of every
 * counter that changed in some run; with cgroup, a "BENCH cgroup" table
 * of the cgroup counters instead (perf: "BENCH perf"). A label without
 * the benchmark's records gets a column of "-" and a footer line.
 *
 * The samples of a counter are the iterations of one job: when a
 * benchmark's iterations ran with different parameters (a param sweep,
 * "bs=4k" and "bs=32M"), each job gets its own table, "BENCH vmstat
 * bs=4k", as the workload rows keep the variants apart: pooled, the
 * iterations of variants that fault very differently would make one
 * wide distribution and hide a change of either. The filters come later
 * (prune()), so they do not change the family.
 */
static void add_monitor_benches(struct compare_result *res,
				const struct run_data *runs, size_t nr,
				bool cgroup, bool perf, size_t *bench_alloc)
{
	const struct monitor_table **mt = xcalloc(2 * nr, sizeof(*mt));
	/* The vmstat tables' gauge levels (none for cgroup and perf ones). */
	const struct monitor_table **lv = !cgroup && !perf ? mt + nr : NULL;
	struct strmap benches = STRMAP_INIT, jobmap = STRMAP_INIT;
	struct strvec jobs = STRVEC_INIT;
	struct strbuf title = STRBUF_INIT;
	const char *kind = perf ? "perf" : cgroup ? "cgroup" : "vmstat";

	for (size_t r = 0; r < nr; r++) {
		const struct monitor_table *v;
		size_t v_nr;

		kind_tables(&runs[r], cgroup, perf, &v, &v_nr);
		for (size_t t = 0; t < v_nr; t++) {
			const char *bench = v[t].benchmark;
			bool any = false;

			if (strmap_get(&benches, bench, strlen(bench), NULL))
				continue;
			strmap_put(&benches, bench, strlen(bench), 0);
			strvec_clear(&jobs);
			strmap_clear(&jobmap);
			for (size_t i = 0; i < nr; i++) {
				mt[i] = kind_find(&runs[i], cgroup, perf,
						  bench);
				if (lv)
					lv[i] = find_table(runs[i].levels,
							   runs[i].levels_nr,
							   bench);
				any |= mt[i] && mt[i]->iterations;
				for (size_t k = 0;
				     mt[i] && k < mt[i]->iterations; k++) {
					const char *job = job_of(mt[i], k);

					if (strmap_get(&jobmap, job,
						       strlen(job), NULL))
						continue;
					strmap_put(&jobmap, job, strlen(job),
						   0);
					strvec_push(&jobs, job);
				}
			}
			if (!any)
				continue;
			strbuf_reset(&title);
			strbuf_addf(&title, "%s %s", bench, kind);
			if (jobs.nr <= 1)
				add_monitor_bench(res, nr, mt, lv, title.buf,
						  cgroup, perf, NULL,
						  bench_alloc);
			else
				add_job_benches(res, nr, mt, lv, &jobs,
						title.buf, cgroup, perf,
						bench_alloc);
		}
	}
	strmap_clear(&benches);
	strmap_clear(&jobmap);
	strvec_clear(&jobs);
	strbuf_release(&title);
	free(mt);
}

/* One line per machine property on which two runs disagree. */
static void machine_diffs(struct compare_result *res,
			  const struct run_data *runs)
{
	struct strbuf line = STRBUF_INIT, first = STRBUF_INIT, v = STRBUF_INIT;
	const struct machine_field *f;

	for (unsigned pos = 1; (f = machine_field_compare(pos)); pos++) {
		bool differ = false, seen = false;

		strbuf_reset(&line);
		strbuf_addf(&line, "%s:", f->name);
		for (size_t i = 0; i < res->runs_nr; i++) {
			strbuf_reset(&v);
			if (!machine_field_text(f, &runs[i].info.machine, &v))
				continue;
			if (!seen)
				strbuf_addstr(&first, v.buf);
			else if (strcmp(first.buf, v.buf) != 0)
				differ = true;
			strbuf_addf(&line, "%s '%s' in %s", seen ? "," : "",
				    v.buf, res->labels[i]);
			seen = true;
		}
		strbuf_reset(&first);
		if (differ)
			strvec_push(&res->machine_diffs, line.buf);
	}
	strbuf_release(&line);
	strbuf_release(&first);
	strbuf_release(&v);
}

/*
 * Whether table b belongs to benchmark: its name, or for a monitor table
 * "BENCHMARK vmstat", "BENCHMARK cgroup" or "BENCHMARK perf", with the
 * job after it when a table is one job's (add_monitor_benches()).
 */
static bool bench_of(const struct compare_bench *b, const char *benchmark)
{
	size_t len = strlen(benchmark);

	if (!b->monitor)
		return !strcmp(b->name, benchmark);
	static const char *const kinds[] = {"vmstat", "cgroup", "perf"};
	const char *rest = b->name + len + 1;

	if (strncmp(b->name, benchmark, len) || b->name[len] != ' ')
		return false;
	/* "BENCHMARK KIND" or, one table per job, "BENCHMARK KIND JOB". */
	for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
		size_t n = strlen(kinds[k]);

		if (!strncmp(rest, kinds[k], n) && (!rest[n] || rest[n] == ' '))
			return true;
	}
	return false;
}

/*
 * Keep the operations the filters show among the workload tables, or
 * with monitor the monitor tables (the others stay): those of benchmark
 * (NULL: all) whose name re matches (NULL: all). Tables left empty go.
 */
static void prune(struct compare_result *res, const char *benchmark,
		  const regex_t *re, bool monitor)
{
	size_t kept = 0;

	for (size_t bi = 0; bi < res->bench_nr; bi++) {
		struct compare_bench *b = &res->bench[bi];
		size_t ops = 0;

		if (b->monitor != monitor) {
			res->bench[kept++] = *b;
			continue;
		}
		if (benchmark && !bench_of(b, benchmark)) {
			bench_release(b);
			continue;
		}
		for (size_t o = 0; o < b->ops_nr; o++) {
			struct compare_op *op = &b->ops[o];

			if (re && regexec(re, op->name, 0, NULL, 0)) {
				op_release(op);
				continue;
			}
			b->ops[ops++] = *op;
		}
		b->ops_nr = ops;
		if (!ops) {
			bench_release(b);
			continue;
		}
		res->bench[kept++] = *b;
	}
	res->bench_nr = kept;
}

/* Distinct pairs of pooled sample counts whose mark rate is worked out. */
#define MMTESTS_PAIRS_MAX 16

/*
 * The largest rate at which the mmtests rule marks an unchanged row of
 * the comparison (stats_mmtests_aa_rate()) for the pooled sample counts
 * of its rows, base against each other side; *na, *nb its counts. With
 * more than MMTESTS_PAIRS_MAX distinct pairs, the rate of the fewest
 * samples on either side, which bounds them all.
 */
static double mmtests_rate(const struct compare_result *res, size_t *na,
			   size_t *nb)
{
	size_t pair[MMTESTS_PAIRS_MAX][2], pairs = 0, fa = SIZE_MAX;
	size_t fb = SIZE_MAX;
	bool many = false;
	double worst = 0.0;

	*na = *nb = 0;
	for (size_t bi = 0; bi < res->bench_nr; bi++)
		for (size_t o = 0; o < res->bench[bi].ops_nr; o++)
			for (size_t i = 1; i < res->runs_nr; i++) {
				const struct compare_op *op =
					&res->bench[bi].ops[o];
				size_t a = op->side[0].sum.n;
				size_t b = op->side[i].sum.n, k = 0;

				if (!op->side[i].present || a < 2 || b < 2)
					continue;
				fa = a < fa ? a : fa;
				fb = b < fb ? b : fb;
				while (k < pairs &&
				       (pair[k][0] != a || pair[k][1] != b))
					k++;
				if (k < pairs)
					continue;
				if (pairs == MMTESTS_PAIRS_MAX) {
					many = true;
					continue;
				}
				pair[pairs][0] = a;
				pair[pairs++][1] = b;
			}
	if (many) {
		pairs = 1;
		pair[0][0] = fa;
		pair[0][1] = fb;
	}
	for (size_t k = 0; k < pairs; k++) {
		double r = stats_mmtests_aa_rate(pair[k][0], pair[k][1]);

		if (r > worst || !*na) {
			worst = r;
			*na = pair[k][0];
			*nb = pair[k][1];
		}
	}
	return worst;
}

/*
 * --test=mmtests: its rule is a heuristic without an error rate
 * (reference section 8); say so when some table has fewer than 5 units
 * on a side, with how often the rule marks unchanged rows of independent
 * normal samples as many as it pools here.
 */
static void mmtests_warnings(struct compare_result *res)
{
	struct strbuf sb = STRBUF_INIT;
	size_t fewest = SIZE_MAX, na, nb;
	double rate;

	for (size_t bi = 0; bi < res->bench_nr; bi++)
		for (size_t o = 0; o < res->bench[bi].ops_nr; o++)
			for (size_t i = 0; i < res->runs_nr; i++) {
				const struct compare_side *s =
					&res->bench[bi].ops[o].side[i];

				if (s->present && s->units < fewest)
					fewest = s->units;
			}
	if (fewest >= 5 || res->runs_nr < 2)
		goto out;
	strbuf_addf(&sb,
		    "the mmtests rule is a heuristic without an error rate: "
		    "with %zu %s on a side, its marks are not tests",
		    fewest, compare_unit_plural(res->opts.unit));
	rate = mmtests_rate(res, &na, &nb);
	if (na)
		strbuf_addf(&sb,
			    " (of independent normal samples, %zu against %zu "
			    "as pooled here, it marks %.2g%% of rows that did "
			    "not change; more when the samples of an iteration "
			    "are alike)",
			    na, nb, 100.0 * rate);
	strvec_push(&res->warnings, sb.buf);
out:
	strbuf_release(&sb);
}

/* Index of the benchmark called name in res, adding it when new. */
static struct compare_bench *get_bench(struct compare_result *res,
				       struct strmap *map, const char *name,
				       size_t *alloc)
{
	struct compare_bench *b;
	size_t i;

	if (strmap_get(map, name, strlen(name), &i))
		return &res->bench[i];
	ALLOC_GROW(res->bench, res->bench_nr + 1, *alloc);
	b = &res->bench[res->bench_nr];
	memset(b, 0, sizeof(*b));
	strvec_init(&b->warnings);
	strvec_init(&b->notes);
	b->name = xstrdup(name);
	b->title = xstrdup(name);
	strmap_put(map, name, strlen(name), res->bench_nr);
	return &res->bench[res->bench_nr++];
}

static void op_key(struct strbuf *key, const struct op_samples *op)
{
	strbuf_reset(key);
	strbuf_add(key, op->benchmark, strlen(op->benchmark) + 1);
	strbuf_addstr(key, op->name);
}

/*
 * The note naming the operations of run i that the baseline lacks, under
 * their benchmark's table (or the first table when the baseline lacks
 * the benchmark too), the filters applied.
 */
static void only_ops_notes(struct compare_result *res,
			   const struct run_data *runs, size_t i,
			   const struct strmap *base_ops, const char *benchmark,
			   const regex_t *re)
{
	struct strbuf key = STRBUF_INIT, sb = STRBUF_INIT;
	const struct run_data *rd = &runs[i];
	bool *done = xcalloc(rd->ops_nr + 1, sizeof(*done));

	for (size_t k = 0; k < rd->ops_nr; k++) {
		const char *bench = rd->ops[k].benchmark;
		struct compare_bench *b = NULL;
		bool own = false;

		if (done[k])
			continue;
		strbuf_reset(&sb);
		for (size_t m = k; m < rd->ops_nr; m++) {
			const struct op_samples *op = &rd->ops[m];

			if (done[m] || strcmp(op->benchmark, bench))
				continue;
			done[m] = true;
			op_key(&key, op);
			if (strmap_get(base_ops, key.buf, key.len, NULL) ||
			    (benchmark && strcmp(benchmark, bench)) ||
			    (re && regexec(re, op->name, 0, NULL, 0)))
				continue;
			strbuf_addstr(&sb, sb.len ? ", " : "");
			strbuf_addstr(&sb, op->name);
		}
		if (!sb.len)
			continue;
		for (size_t bi = 0; bi < res->bench_nr && !b; bi++)
			if (!res->bench[bi].monitor &&
			    !strcmp(res->bench[bi].name, bench))
				b = &res->bench[bi];
		own = b != NULL;
		if (!b)
			b = &res->bench[0];
		strbuf_reset(&key);
		strbuf_addf(&key, "operations%s%s only in '%s': %s",
			    own ? "" : " of ", own ? "" : bench, res->labels[i],
			    sb.buf);
		strvec_push(&b->notes, key.buf);
	}
	free(done);
	strbuf_release(&key);
	strbuf_release(&sb);
}

/*
 * Where the labels' perf counters counted different things (a cgroup of
 * the iterations' own, or process trees, run_data.perf_scopes), say so:
 * their rows are not like for like. Into sb; false when they are alike.
 */
static bool scope_note(const struct compare_result *res,
		       const struct run_data *runs, struct strbuf *sb)
{
	const char *first = NULL;
	bool mixed = false;

	for (size_t i = 0; i < res->runs_nr; i++)
		for (size_t k = 0; k < runs[i].perf_scopes.nr; k++) {
			if (!first)
				first = runs[i].perf_scopes.v[k];
			mixed |= strcmp(first, runs[i].perf_scopes.v[k]) != 0;
		}
	if (!mixed)
		return false;
	strbuf_addstr(sb, "perf counters not like for like:");
	for (size_t i = 0, n = 0; i < res->runs_nr; i++) {
		const struct strvec *v = &runs[i].perf_scopes;

		if (!v->nr)
			continue;
		strbuf_addf(sb, "%s '%s' counted %s", n++ ? ";" : "",
			    res->labels[i],
			    v->nr > 1 ? "now its iterations' cgroup, now "
					"their process trees"
			    : !strcmp(v->v[0], "cgroup")
				    ? "its iterations' cgroup"
				    : "their process trees");
	}
	strbuf_addstr(sb, " (docs/perf.md, Scope)");
	return true;
}

/*
 * Under every table of operations, what pooling left out of each label
 * (struct run_data's notes), whether their perf counters counted alike,
 * and the operations the baseline lacks.
 */
static void pool_notes(struct compare_result *res, const struct run_data *runs,
		       const struct strmap *base_ops,
		       const struct compare_options *opts, const regex_t *re)
{
	struct strbuf scope = STRBUF_INIT;
	bool mixed = scope_note(res, runs, &scope);

	for (size_t bi = 0; bi < res->bench_nr; bi++) {
		struct compare_bench *b = &res->bench[bi];

		for (size_t i = 0; !b->monitor && i < res->runs_nr; i++)
			for (size_t n = 0; n < runs[i].notes.nr; n++)
				strvec_push(&b->notes, runs[i].notes.v[n]);
		if (!b->monitor && mixed)
			strvec_push(&b->notes, scope.buf);
	}
	strbuf_release(&scope);
	for (size_t i = 1; i < res->runs_nr; i++)
		only_ops_notes(res, runs, i, base_ops, opts->benchmark, re);
}

/*
 * --unit boot needs the boot of every sample: fail naming the first
 * label that has samples without one (runs on the host, imports).
 */
static int missing_boots(const struct run_data *runs, size_t nr,
			 struct strbuf *err)
{
	for (size_t i = 0; i < nr; i++) {
		for (size_t k = 0; k < runs[i].ops_nr; k++) {
			const struct op_samples *op = &runs[i].ops[k];

			if (!op->nr || (op_samples_has(op, OP_KEY_BOOT) &&
					op_samples_has(op, OP_KEY_RUN)))
				continue;
			error_addf(err,
				   "--unit boot: label '%s' has no boots: its "
				   "iterations did not run in guests of "
				   "'kernels:' (use --unit iteration or run)",
				   runs[i].info.label ? runs[i].info.label
						      : "");
			return -1;
		}
	}
	return 0;
}

/* Compile --sub-heading, which matches at the start of a label. */
static int compile_sub_heading(const char *sub_heading, regex_t *re,
			       struct strbuf *err)
{
	struct strbuf anchored = STRBUF_INIT;
	char msg[256];
	int rc;

	strbuf_addf(&anchored, "^(%s)", sub_heading);
	rc = regcomp(re, anchored.buf, REG_EXTENDED | REG_NOSUB);
	strbuf_release(&anchored);
	if (!rc)
		return 0;
	regerror(rc, re, msg, sizeof(msg));
	error_addf(err, "invalid sub-heading regex '%s': %s", sub_heading, msg);
	return -1;
}

/* Hash every run's operations once, so lookups stay O(1). */
static struct strmap *hash_ops(const struct run_data *runs, size_t nr)
{
	struct strmap *opmaps = xcalloc(nr, sizeof(*opmaps));
	struct strbuf key = STRBUF_INIT;

	for (size_t i = 0; i < nr; i++) {
		for (size_t k = 0; k < runs[i].ops_nr; k++) {
			op_key(&key, &runs[i].ops[k]);
			if (!strmap_get(&opmaps[i], key.buf, key.len, NULL))
				strmap_put(&opmaps[i], key.buf, key.len, k);
		}
	}
	strbuf_release(&key);
	return opmaps;
}

/*
 * One row for every operation of the baseline, with the samples of the
 * same operation in each other run, grouped by benchmark.
 */
static void add_ops(struct compare_result *res, const struct run_data *runs,
		    size_t nr, struct strmap *opmaps,
		    const struct compare_options *opts)
{
	struct strmap benches = STRMAP_INIT;
	struct strbuf key = STRBUF_INIT;
	const struct op_samples **src = xcalloc(nr, sizeof(*src));
	size_t bench_alloc = 0, idx;

	for (size_t k = 0; k < runs[0].ops_nr; k++) {
		const struct op_samples *op = &runs[0].ops[k];
		struct compare_bench *b;

		src[0] = op;
		op_key(&key, op);
		for (size_t i = 1; i < nr; i++) {
			src[i] = NULL;
			if (strmap_get(&opmaps[i], key.buf, key.len, &idx))
				src[i] = &runs[i].ops[idx];
		}
		b = get_bench(res, &benches, op->benchmark, &bench_alloc);
		bench_add_op(b, res->labels, nr, src, opts);
	}
	strmap_clear(&benches);
	strbuf_release(&key);
	free(src);
}

/* Why nothing is left to compare once the filters have pruned. */
static void no_benches_error(const struct compare_result *res,
			     const struct compare_options *opts,
			     struct strbuf *err)
{
	if (opts->benchmark && !opts->sub_heading)
		error_addf(err, "benchmark '%s' not in baseline '%s'",
			   opts->benchmark, res->labels[0]);
	else if (opts->benchmark || opts->sub_heading)
		error_addf(err,
			   "no operation of baseline '%s' matches the filters",
			   res->labels[0]);
	else
		error_addf(err, "baseline '%s' has no samples", res->labels[0]);
}

/*
 * --unit auto: the level the design decides (compare_unit_auto()), kept
 * in res with why; an explicit --unit iteration or sample on labels that
 * pool runs or boots gets a warning that it takes them as alike.
 */
static enum compare_unit resolve_unit(struct compare_result *res,
				      const struct run_data *runs, size_t nr,
				      enum compare_unit asked)
{
	struct strbuf why = STRBUF_INIT;
	enum compare_unit unit = compare_unit_auto(runs, nr, &why);

	res->unit_auto = asked == COMPARE_UNIT_AUTO;
	if (res->unit_auto) {
		res->unit_why = strbuf_detach(&why, NULL);
		return unit;
	}
	if ((asked == COMPARE_UNIT_ITERATION || asked == COMPARE_UNIT_SAMPLE) &&
	    unit != COMPARE_UNIT_ITERATION) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb,
			    "--unit %s takes the %s of a label as alike (%s): "
			    "the default, --unit auto, tests %s",
			    compare_unit_nth(asked), compare_unit_plural(unit),
			    why.buf, compare_unit_plural(unit));
		res->unit_warning = strbuf_detach(&sb, NULL);
	}
	strbuf_release(&why);
	return asked;
}

int compare_runs(const struct run_data *runs, size_t nr,
		 const struct compare_options *asked,
		 struct compare_result *res, struct strbuf *err)
{
	struct compare_options resolved = *asked;
	const struct compare_options *opts = &resolved;
	struct strmap *opmaps = NULL;
	size_t bench_alloc;
	regex_t re;
	bool have_re = false;
	int ret = -1;

	if (!nr) {
		error_addf(err, "no runs to compare");
		goto out;
	}
	if (opts->sub_heading) {
		if (compile_sub_heading(opts->sub_heading, &re, err))
			goto out;
		have_re = true;
	}
	resolved.unit = resolve_unit(res, runs, nr, asked->unit);
	if (opts->unit == COMPARE_UNIT_BOOT && !res->unit_auto &&
	    missing_boots(runs, nr, err))
		goto out;
	res->opts = *opts;
	res->opts.benchmark = NULL;
	res->opts.sub_heading = NULL;
	res->runs_nr = nr;
	res->labels = xcalloc(nr, sizeof(*res->labels));
	for (size_t i = 0; i < nr; i++)
		res->labels[i] =
			xstrdup(runs[i].info.label ? runs[i].info.label : "");
	opmaps = hash_ops(runs, nr);

	/*
	 * Every operation first: the family of the tests is the whole
	 * comparison, whatever the filters show (reference section 3).
	 */
	add_ops(res, runs, nr, opmaps, opts);
	for (size_t bi = 0; bi < res->bench_nr; bi++)
		bench_cidiff(&res->bench[bi], nr, opts->test);
	apply_tests(res, false);
	prune(res, opts->benchmark, have_re ? &re : NULL, false);
	/*
	 * The monitor tables likewise: every counter of every benchmark
	 * first, their own family, then the filters (the sub-heading may
	 * match only counters of the monitor tables).
	 */
	bench_alloc = res->bench_nr;
	if (opts->monitors) {
		add_monitor_benches(res, runs, nr, false, false, &bench_alloc);
		add_monitor_benches(res, runs, nr, true, false, &bench_alloc);
	}
	/* The perf counters a config asked for, but not in mmtests' text. */
	if (opts->test != COMPARE_TEST_MMTESTS)
		add_monitor_benches(res, runs, nr, false, true, &bench_alloc);
	for (size_t bi = 0; bi < res->bench_nr; bi++)
		if (res->bench[bi].monitor)
			bench_cidiff(&res->bench[bi], nr, opts->test);
	apply_tests(res, true);
	prune(res, opts->benchmark, have_re ? &re : NULL, true);
	if (!res->bench_nr) {
		no_benches_error(res, opts, err);
		goto out;
	}
	if (opts->test == COMPARE_TEST_MMTESTS)
		mmtests_warnings(res);
	for (size_t bi = 0; bi < res->bench_nr; bi++)
		bench_finish(res, &res->bench[bi], runs);
	pool_notes(res, runs, &opmaps[0], opts, have_re ? &re : NULL);
	machine_diffs(res, runs);
	res->provenance = compare_provenance_new(runs, res->labels, nr);
	ret = 0;
out:
	if (ret)
		compare_result_release(res);
	if (have_re)
		regfree(&re);
	for (size_t i = 0; opmaps && i < nr; i++)
		strmap_clear(&opmaps[i]);
	free(opmaps);
	return ret;
}

void compare_result_release(struct compare_result *res)
{
	if (!res)
		return;
	for (size_t bi = 0; bi < res->bench_nr; bi++)
		bench_release(&res->bench[bi]);
	free(res->bench);
	for (size_t i = 0; res->labels && i < res->runs_nr; i++)
		free(res->labels[i]);
	free(res->labels);
	strvec_clear(&res->machine_diffs);
	strvec_clear(&res->warnings);
	free(res->unit_why);
	free(res->unit_warning);
	compare_provenance_free(res->provenance);
	memset(res, 0, sizeof(*res));
	strvec_init(&res->machine_diffs);
	strvec_init(&res->warnings);
}

static const char gauge_reason[] =
	"gauges (levels, not counts: each at the end of an iteration), "
	"shown without a test";

static const char *const untested_reason[] = {
	[COMPARE_UNTESTED_MISSING] = "operation missing",
	[COMPARE_UNTESTED_EMPTY] = "no samples",
	[COMPARE_UNTESTED_UNDEFINED] = "mean undefined (a sample <= 0)",
	[COMPARE_UNTESTED_FEW] = "fewer than 2",
	[COMPARE_UNTESTED_DEGENERATE] = "numerically degenerate",
	[COMPARE_UNTESTED_GAUGE] = gauge_reason,
};

void compare_untested_text(const struct compare_result *res,
			   enum compare_untested why, struct strbuf *sb)
{
	if (why == COMPARE_UNTESTED_MMTESTS)
		strbuf_addstr(sb, "--test=mmtests gives no verdicts");
	else if (why < ARRAY_SIZE(untested_reason) && untested_reason[why])
		strbuf_addstr(sb, untested_reason[why]);
	else
		strbuf_addstr(sb, "no test");
	if (why == COMPARE_UNTESTED_FEW)
		strbuf_addf(sb, " %s on a side",
			    compare_unit_plural(res->opts.unit));
	/* The option that would test it, and what it assumes. */
	if (why == COMPARE_UNTESTED_FEW && res->unit_auto &&
	    res->opts.unit != COMPARE_UNIT_ITERATION)
		strbuf_addf(sb,
			    " (--unit auto; --unit iteration tests "
			    "iterations, taking the %s as alike)",
			    compare_unit_plural(res->opts.unit));
}

void compare_bench_side_n(const struct compare_bench *bench, size_t run,
			  struct compare_side_n *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t o = 0; o < bench->ops_nr; o++) {
		const struct compare_side *s = &bench->ops[o].side[run];

		if (!o || s->units < out->units_min)
			out->units_min = s->units;
		if (!o || s->units > out->units_max)
			out->units_max = s->units;
		if (!o || s->sum.n < out->samples_min)
			out->samples_min = s->sum.n;
		if (!o || s->sum.n > out->samples_max)
			out->samples_max = s->sum.n;
	}
}

/* "5" or "3-5". */
static void add_range(struct strbuf *sb, size_t lo, size_t hi)
{
	if (lo == hi)
		strbuf_addf(sb, "%zu", lo);
	else
		strbuf_addf(sb, "%zu-%zu", lo, hi);
}

/* "n = 5 iterations (75 samples) per side", or per label. */
static void footer_units(const struct compare_result *res,
			 const struct compare_bench *bench, struct strbuf *sb)
{
	const char *units = compare_unit_plural(res->opts.unit);
	struct compare_side_n first, n;
	bool same = true;

	compare_bench_side_n(bench, 0, &first);
	for (size_t i = 1; i < res->runs_nr; i++) {
		compare_bench_side_n(bench, i, &n);
		same &= !memcmp(&n, &first, sizeof(n));
	}
	strbuf_addstr(sb, "n = ");
	for (size_t i = 0; i < (same ? 1 : res->runs_nr); i++) {
		compare_bench_side_n(bench, i, &n);
		if (!same)
			strbuf_addf(sb, "%s%s ", i ? ", " : "", res->labels[i]);
		add_range(sb, n.units_min, n.units_max);
		strbuf_addf(sb, " %s",
			    n.units_max == 1 ? compare_unit_nth(res->opts.unit)
					     : units);
		if (res->opts.unit != COMPARE_UNIT_SAMPLE) {
			strbuf_addstr(sb, " (");
			add_range(sb, n.samples_min, n.samples_max);
			strbuf_addstr(sb, n.samples_max == 1 ? " sample)"
							     : " samples)");
		}
	}
	if (same)
		strbuf_addstr(sb, " per side");
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The power line (reference section 6): the median over the tested
 * rows of the minimum detectable effect, and of their harmonic n.
 * False when no row has one.
 */
static bool footer_power(const struct compare_result *res,
			 const struct compare_bench *bench, struct strbuf *sb)
{
	size_t cap = bench->ops_nr * res->runs_nr + 1, k = 0;
	double *mde = xmalloc(cap * sizeof(*mde));
	double *n = xmalloc(cap * sizeof(*n));
	bool have;

	for (size_t o = 0; o < bench->ops_nr; o++)
		for (size_t i = 1; i < res->runs_nr; i++) {
			const struct compare_side *s = &bench->ops[o].side[i];

			if (isnan(s->mde_pct))
				continue;
			mde[k] = s->mde_pct;
			n[k++] = stats_power_n_harmonic(&s->welch);
		}
	have = k > 0;
	if (have) {
		double m, nm;

		qsort(mde, k, sizeof(*mde), cmp_double);
		qsort(n, k, sizeof(*n), cmp_double);
		m = k % 2 ? mde[k / 2] : (mde[k / 2 - 1] + mde[k / 2]) / 2;
		nm = k % 2 ? n[k / 2] : (n[k / 2 - 1] + n[k / 2]) / 2;
		strbuf_addf(
			sb,
			"n = %.3g %s per side: a change in one row is found "
			"80%% of the time from at least %.*f%% (median row)",
			nm, compare_unit_plural(res->opts.unit), m < 10 ? 1 : 0,
			m);
		if (nm <= 3)
			strbuf_addstr(sb, "; with so few units only changes "
					  "of about twice that are found "
					  "reliably");
	}
	free(mde);
	free(n);
	return have;
}

/* Name the first few cells left untested for reason why. */
static void footer_names(const struct compare_result *res,
			 const struct compare_bench *bench,
			 enum compare_untested why, struct strbuf *sb)
{
	size_t named = 0;

	for (size_t o = 0; o < bench->ops_nr; o++) {
		for (size_t i = 1; i < res->runs_nr; i++) {
			if (bench->ops[o].side[i].untested != why)
				continue;
			if (named++ == FOOTER_MAX_NAMES) {
				strbuf_addstr(sb, ", ...");
				return;
			}
			strbuf_addf(sb, "%s %s (%s)", named > 1 ? "," : "",
				    bench->ops[o].name, res->labels[i]);
		}
	}
}

void compare_untested_lines(const struct compare_result *res,
			    const struct compare_bench *bench,
			    struct strvec *lines)
{
	const char *what = res->runs_nr == 2 ? "row" : "comparison";
	struct strbuf sb = STRBUF_INIT;

	/* mmtests mode tests nothing: its counts say nothing either. */
	if (res->opts.test == COMPARE_TEST_MMTESTS)
		return;
	for (size_t why = 0; why < ARRAY_SIZE(untested_reason); why++) {
		size_t n = bench->nr_untested[why];

		if (!n || !untested_reason[why])
			continue;
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%zu mean %s%s not tested, ", n, what,
			    n == 1 ? "" : "s");
		compare_untested_text(res, (enum compare_untested)why, &sb);
		strbuf_addch(&sb, ':');
		footer_names(res, bench, (enum compare_untested)why, &sb);
		strvec_push(lines, sb.buf);
	}
	strbuf_release(&sb);
}

/*
 * The line on the marked rows whose ratio is undefined (row_verdict()):
 * what their verdict says, and their names.
 */
static void footer_undefined(const struct compare_result *res,
			     const struct compare_bench *bench,
			     struct strvec *lines)
{
	const char *what = res->runs_nr == 2 ? "row" : "comparison";
	struct strbuf sb = STRBUF_INIT, names = STRBUF_INIT;
	size_t n = 0;

	for (size_t o = 0; o < bench->ops_nr; o++)
		for (size_t i = 1; i < res->runs_nr; i++) {
			const struct compare_side *s = &bench->ops[o].side[i];

			if (!s->ratio_undefined || !s->significant)
				continue;
			if (n++ < FOOTER_MAX_NAMES)
				strbuf_addf(&names, "%s %s (%s)",
					    n > 1 ? "," : "",
					    bench->ops[o].name, res->labels[i]);
			else if (n == FOOTER_MAX_NAMES + 1)
				strbuf_addstr(&names, ", ...");
		}
	if (n) {
		strbuf_addf(&sb,
			    "%zu marked mean %s%s with an undefined ratio (a "
			    "base mean of 0 or an unbounded interval): %s:%s",
			    n, what, n == 1 ? "" : "s",
			    res->opts.margin_pct > 0
				    ? "no verdict against the margin"
				    : "a verdict gives the direction only",
			    names.buf);
		strvec_push(lines, sb.buf);
	}
	strbuf_release(&sb);
	strbuf_release(&names);
}

/*
 * The level of the marked rows' intervals when fcr_intervals() widened
 * them: "; marked rows' intervals 99.75% (Benjamini-Yekutieli FCR)".
 */
static void footer_fcr(const struct compare_result *res,
		       const struct compare_bench *bench, struct strbuf *sb)
{
	for (size_t o = 0; o < bench->ops_nr; o++)
		for (size_t i = 1; i < res->runs_nr; i++) {
			const struct compare_side *s = &bench->ops[o].side[i];

			if (!s->significant ||
			    s->ci_level <= 1 - res->opts.alpha)
				continue;
			strbuf_addf(sb,
				    "; marked rows' intervals %.4g%% "
				    "(Benjamini-Yekutieli FCR)",
				    100 * s->ci_level);
			return;
		}
}

/*
 * The change is of the unit means, each unit weighted equally, the mean
 * row of all samples: say so, naming the operations, where some side's
 * units hold different numbers of samples, so that the two can differ.
 */
static void footer_unbalanced(const struct compare_result *res,
			      const struct compare_bench *bench,
			      struct strvec *lines)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0;

	for (size_t o = 0; o < bench->ops_nr; o++) {
		const struct compare_op *op = &bench->ops[o];
		bool any = false;

		for (size_t i = 1; i < res->runs_nr; i++)
			any |= op->side[i].untested == COMPARE_TESTED &&
			       (op->side[i].unbalanced ||
				op->side[0].unbalanced);
		if (!any)
			continue;
		if (n++ < FOOTER_MAX_NAMES)
			strbuf_addf(&sb, "%s %s", n > 1 ? "," : "", op->name);
		else if (n == FOOTER_MAX_NAMES + 1)
			strbuf_addstr(&sb, ", ...");
	}
	if (n) {
		struct strbuf line = STRBUF_INIT;

		strbuf_addf(&line,
			    "the change is of the %s means, each %s weighted "
			    "equally, and the mean rows weight every sample: "
			    "they can differ, as %s hold different numbers of "
			    "samples:%s",
			    compare_unit_nth(res->opts.unit),
			    compare_unit_nth(res->opts.unit),
			    compare_unit_plural(res->opts.unit), sb.buf);
		strvec_push(lines, line.buf);
		strbuf_release(&line);
	}
	strbuf_release(&sb);
}

/* The median of v[0..n), which it sorts; NaN when n is 0. */
static double median_of(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * The share of the variance between runs or boots over the sides of
 * bench (median), and what it means for precision: how much twice the
 * iterations per unit would narrow the intervals against twice the
 * units (compare_narrowing_pct()). False when no side has a share.
 */
static bool footer_share(const struct compare_result *res,
			 const struct compare_bench *bench, struct strbuf *sb)
{
	size_t cap = bench->ops_nr * res->runs_nr + 1, k = 0;
	double *share = xmalloc(cap * sizeof(*share));
	double *m = xmalloc(cap * sizeof(*m));
	const char *unit = compare_unit_nth(res->opts.unit);
	const char *units = compare_unit_plural(res->opts.unit);
	double med, narrow;

	for (size_t o = 0; o < bench->ops_nr; o++)
		for (size_t i = 0; i < res->runs_nr; i++) {
			const struct compare_side *s = &bench->ops[o].side[i];

			if (isnan(s->between_share))
				continue;
			share[k] = s->between_share;
			m[k++] = s->iters_per_unit;
		}
	med = median_of(share, k);
	narrow = compare_narrowing_pct(med, median_of(m, k));
	if (k) {
		strbuf_addf(sb,
			    "between-%s share of the variance %.0f%% (one-way "
			    "random effects, median of %zu side%s): twice the "
			    "iterations per %s narrow the intervals by %.0f%%, "
			    "twice the %s by 29%% or more",
			    unit, 100 * med, k, k == 1 ? "" : "s", unit, narrow,
			    units);
		if (narrow < 29.3 / 2)
			strbuf_addf(sb, ": more %s, not more iterations",
				    units);
	}
	free(share);
	free(m);
	return k > 0;
}

/*
 * The lines on the design under the n line: the unit --unit auto chose
 * when it is coarser than the iteration, the share of the variance
 * between those units, and the warning of an explicit finer unit.
 */
static void footer_design(const struct compare_result *res,
			  const struct compare_bench *bench,
			  struct strvec *lines)
{
	struct strbuf sb = STRBUF_INIT;

	if (res->unit_auto && res->opts.unit != COMPARE_UNIT_ITERATION) {
		strbuf_addf(&sb,
			    "unit: %s, as the design decides (--unit auto: "
			    "%s)",
			    compare_unit_nth(res->opts.unit), res->unit_why);
		strvec_push(lines, sb.buf);
	}
	strbuf_reset(&sb);
	if (!bench->monitor && footer_share(res, bench, &sb))
		strvec_push(lines, sb.buf);
	strbuf_reset(&sb);
	if (res->unit_warning && !bench->monitor) {
		strbuf_addf(&sb, "warning: %s", res->unit_warning);
		strvec_push(lines, sb.buf);
	}
	strbuf_release(&sb);
}

void compare_footer(const struct compare_result *res,
		    const struct compare_bench *bench, struct strvec *lines)
{
	const char *what = res->runs_nr == 2 ? "row" : "comparison";
	struct strbuf sb = STRBUF_INIT;

	if (res->opts.test == COMPARE_TEST_MMTESTS || res->runs_nr < 2)
		return;
	strbuf_addf(&sb, "%zu of %zu mean %s%s significant (%s, alpha %g%s)",
		    bench->nr_significant, bench->nr_compared, what,
		    bench->nr_compared == 1 ? "" : "s",
		    compare_test_name(res->opts.test), res->opts.alpha,
		    res->opts.fdr ? ", BH FDR" : "");
	strvec_push(lines, sb.buf);
	compare_untested_lines(res, bench, lines);
	footer_undefined(res, bench, lines);
	footer_unbalanced(res, bench, lines);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s over %zu row%s, %zu marked; ",
		    res->opts.fdr ? "BH" : "no FDR control",
		    res->family_size[bench->monitor],
		    res->family_size[bench->monitor] == 1 ? "" : "s",
		    res->family_marked[bench->monitor]);
	/*
	 * The intervals are always Fieller's on Welch's figures; under the
	 * U test the p, marks and verdicts are the U test's, so an interval
	 * may hold 0 on a marked row or miss it on an unmarked one.
	 */
	if (res->opts.test == COMPARE_TEST_UTEST)
		strbuf_addf(&sb,
			    "p unadjusted, the U test's, as the marks and "
			    "verdicts; the %g%% intervals are Welch's and may "
			    "disagree",
			    100 * (1 - res->opts.alpha));
	else
		strbuf_addf(&sb, "p unadjusted, as the %g%% intervals",
			    100 * (1 - res->opts.alpha));
	footer_fcr(res, bench, &sb);
	if (res->opts.margin_pct > 0)
		strbuf_addf(&sb, "; margin %g%%", res->opts.margin_pct);
	strvec_push(lines, sb.buf);
	strbuf_reset(&sb);
	footer_units(res, bench, &sb);
	strvec_push(lines, sb.buf);
	footer_design(res, bench, lines);
	strbuf_reset(&sb);
	if (footer_power(res, bench, &sb))
		strvec_push(lines, sb.buf);
	for (size_t i = 0; i < bench->warnings.nr; i++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "warning: %s", bench->warnings.v[i]);
		strvec_push(lines, sb.buf);
	}
	for (size_t i = 0; i < bench->notes.nr; i++)
		strvec_push(lines, bench->notes.v[i]);
	if (bench->vmstat_note)
		strvec_push(lines, bench->vmstat_note);
	strbuf_release(&sb);
}
