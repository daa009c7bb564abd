/* compare: runs against a baseline -> tables of cells with verdicts. */
#include "compare.h"

#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "machine.h"
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

static double *reciprocals(const double *x, size_t n)
{
	double *r = xmalloc((n ? n : 1) * sizeof(*r));

	for (size_t i = 0; i < n; i++)
		r[i] = 1.0 / x[i];
	return r;
}

/* Run the chosen test of base against other on the mean's scale. */
static void side_test(struct compare_side *s, const struct compare_side *b,
		      const struct op_samples *src,
		      const struct op_samples *bsrc, bool higher_better,
		      enum compare_test test)
{
	struct stats_test t = {.valid = false};
	double *x = NULL, *y = NULL;

	s->p = NAN;
	if (test == COMPARE_TEST_MMTESTS) {
		s->untested = COMPARE_UNTESTED_MMTESTS;
		return;
	}
	if (!s->present) {
		s->untested = COMPARE_UNTESTED_MISSING;
		return;
	}
	if (isnan(s->sum.mean) || isnan(b->sum.mean)) {
		s->untested = COMPARE_UNTESTED_UNDEFINED;
		return;
	}
	if (src->nr < 2 || bsrc->nr < 2) {
		s->untested = COMPARE_UNTESTED_FEW;
		return;
	}
	if (test == COMPARE_TEST_UTEST) {
		stats_mannwhitney(bsrc->v, bsrc->nr, src->v, src->nr, &t);
	} else if (higher_better) {
		/* The harmonic mean is the reciprocal of the reciprocals' mean.
		 */
		x = reciprocals(bsrc->v, bsrc->nr);
		y = reciprocals(src->v, src->nr);
		stats_welch(x, bsrc->nr, y, src->nr, &t);
	} else {
		stats_welch(bsrc->v, bsrc->nr, src->v, src->nr, &t);
	}
	free(x);
	free(y);
	if (!t.valid || isnan(t.p)) {
		s->untested = COMPARE_UNTESTED_FEW;
		return;
	}
	s->untested = COMPARE_TESTED;
	s->p = t.p;
}

/*
 * Append op to b: summaries, CIs, test p-values and ratios. src[i] is
 * run i's samples of the operation, NULL when it has none.
 */
static void bench_add_op(struct compare_bench *b, size_t runs_nr,
			 const struct op_samples *const *src,
			 const struct compare_options *opts)
{
	const struct op_samples *base = src[0];
	struct compare_op *op;
	struct compare_side *s, *bs;

	ALLOC_GROW(b->ops, b->ops_nr + 1, b->ops_alloc);
	op = &b->ops[b->ops_nr++];
	op->name = xstrdup(base->name);
	op->unit = xstrdup(base->unit ? base->unit : "");
	op->higher_better = base->higher_better;
	op->decimals = base->decimals;
	op->side = xcalloc(runs_nr, sizeof(*op->side));
	for (size_t i = 0; i < runs_nr; i++) {
		s = &op->side[i];
		s->present = src[i] != NULL;
		/* Every run is summarised the baseline's way. */
		stats_summarize(src[i] ? src[i]->v : NULL,
				src[i] ? src[i]->nr : 0, op->higher_better,
				&s->sum);
		s->has_ci = s->sum.n > 1 && !isnan(s->sum.mean) &&
			    !isnan(s->sum.stddev);
		s->ci_half = s->has_ci
				     ? round_sig7(MMTESTS_Z975 * s->sum.stddev)
				     : NAN;
	}
	bs = &op->side[0];
	bs->untested = COMPARE_UNTESTED_BASELINE;
	bs->p = NAN;
	bs->ratio = 1.0;
	for (size_t i = 1; i < runs_nr; i++) {
		s = &op->side[i];
		side_test(s, bs, src[i], base, op->higher_better, opts->test);
		s->ratio = rdiff(s->sum.mean, bs->sum.mean);
		s->ratio_pct = op->higher_better ? stats_pdiff(s->ratio, 1.0)
						 : stats_pndiff(s->ratio, 1.0);
	}
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
		for (size_t i = 1; i < runs_nr; i++) {
			struct compare_side *s = &b->ops[o].side[i];
			double lo, hi;

			side_ci(s, &lo, &hi);
			if (!any_ci[0] || !any_ci[i])
				s->ndiff = NAN;
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
			if (test == COMPARE_TEST_MMTESTS)
				s->significant = fabs(s->cidiff) > 1.0;
		}
	}
	free(any_ci);
}

/*
 * p < alpha, or Benjamini-Hochberg per run across every benchmark of a
 * family: the workload tables, or the monitor tables.
 */
static void apply_family(struct compare_result *res, bool monitor)
{
	const struct compare_options *opts = &res->opts;
	double *p = NULL;
	bool *reject = NULL;
	size_t n = 0;

	for (size_t bi = 0; bi < res->bench_nr; bi++)
		if (res->bench[bi].monitor == monitor)
			n += res->bench[bi].ops_nr;
	p = xmalloc((n ? n : 1) * sizeof(*p));
	reject = xcalloc(n ? n : 1, sizeof(*reject));
	for (size_t i = 1; i < res->runs_nr; i++) {
		size_t k = 0;

		for (size_t bi = 0; bi < res->bench_nr; bi++) {
			const struct compare_bench *b = &res->bench[bi];

			for (size_t o = 0;
			     b->monitor == monitor && o < b->ops_nr; o++)
				p[k++] = b->ops[o].side[i].p;
		}
		if (opts->fdr) {
			stats_bh(p, n, opts->alpha, reject);
		} else {
			for (size_t j = 0; j < n; j++)
				reject[j] = !isnan(p[j]) && p[j] < opts->alpha;
		}
		k = 0;
		for (size_t bi = 0; bi < res->bench_nr; bi++) {
			struct compare_bench *b = &res->bench[bi];

			for (size_t o = 0;
			     b->monitor == monitor && o < b->ops_nr; o++)
				b->ops[o].side[i].significant = reject[k++];
		}
	}
	free(p);
	free(reject);
}

static void apply_tests(struct compare_result *res)
{
	if (res->opts.test == COMPARE_TEST_MMTESTS)
		return;
	apply_family(res, false);
	apply_family(res, true);
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
	/* mmtests still treats -1 as the old "no value" sentinel. */
	if (test == COMPARE_TEST_MMTESTS && v == -1.0)
		return NAN;
	return v;
}

static void bench_rows(const struct compare_result *res,
		       struct compare_bench *b)
{
	size_t runs_nr = res->runs_nr, r = 0, len;
	const struct compare_op *op;
	struct compare_cell *c;
	double base;
	bool lower;

	b->rows_nr = COMPARE_STAT_NR * b->ops_nr;
	b->rows = xcalloc(b->rows_nr, sizeof(*b->rows));
	b->cells = xcalloc(b->rows_nr * runs_nr, sizeof(*b->cells));
	for (int stat = 0; stat < COMPARE_STAT_NR; stat++) {
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
			for (size_t i = 1; i < runs_nr; i++) {
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

static void bench_footers(const struct compare_result *res,
			  struct compare_bench *b)
{
	size_t runs_nr = res->runs_nr;
	const struct compare_side *s;
	double *ratios = xmalloc(b->ops_nr * sizeof(*ratios));

	b->ratio_footer = xcalloc(runs_nr, sizeof(*b->ratio_footer));
	b->ratio_footer[0].gmean = 1.0;
	for (size_t i = 1; i < runs_nr; i++) {
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

/* The monitor table of benchmark name in rd, or NULL. */
static const struct monitor_table *find_monitors(const struct run_data *rd,
						 const char *name)
{
	for (size_t k = 0; k < rd->monitors_nr; k++)
		if (!strcmp(rd->monitors[k].benchmark, name))
			return &rd->monitors[k];
	return NULL;
}

/* The cgroup table of benchmark name in rd, or NULL. */
static const struct monitor_table *find_cgroups(const struct run_data *rd,
						const char *name)
{
	for (size_t k = 0; k < rd->cgroups_nr; k++)
		if (!strcmp(rd->cgroups[k].benchmark, name))
			return &rd->cgroups[k];
	return NULL;
}

/* A note per run whose iterations of b shared a busy machine. */
static void bench_busy(const struct compare_result *res,
		       struct compare_bench *b, const struct run_data *runs)
{
	struct strbuf sb = STRBUF_INIT;

	strvec_init(&b->notes);
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
}

static void bench_finish(const struct compare_result *res,
			 struct compare_bench *b, const struct run_data *runs)
{
	b->higher_better = b->ops_nr && b->ops[0].higher_better;
	for (size_t o = 0; o < b->ops_nr; o++) {
		size_t len = strlen(b->ops[o].name);

		if (len > b->op_width)
			b->op_width = len;
		if (b->ops[o].decimals > b->decimals)
			b->decimals = b->ops[o].decimals;
	}
	bench_rows(res, b);
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
 * Add one counter of the "BENCH vmstat" table: each run's changes per
 * iteration (zeros where its table lacks the counter), none for a run
 * without a table.
 */
static void monitor_add_op(struct compare_bench *b, size_t nr,
			   const struct monitor_table *const *mt,
			   const char *name, const struct compare_options *opts)
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

		if (!mt[i])
			continue;
		c = monitor_table_get(mt[i], name);
		tmp[i].name = (char *)name;
		tmp[i].unit = (char *)"";
		tmp[i].decimals = 2;
		tmp[i].v = c ? c->v : zeros;
		tmp[i].nr = c ? c->nr : mt[i]->iterations;
		src[i] = &tmp[i];
	}
	bench_add_op(b, nr, src, opts);
	free(zeros);
	free(src);
	free(tmp);
}

/*
 * The monitors option: after the workload tables, a "BENCH vmstat" table
 * for each benchmark of the baseline that has monitor data and passes
 * the benchmark filter, of every counter that changed in some run; with
 * cgroup, a "BENCH cgroup" table of the cgroup counters instead.
 */
static void add_monitor_benches(struct compare_result *res,
				const struct run_data *runs, size_t nr,
				const struct compare_options *opts, bool cgroup,
				size_t *bench_alloc)
{
	const struct monitor_table **mt =
		xcalloc(nr, sizeof(const struct monitor_table *));
	const struct monitor_table *base =
		cgroup ? runs[0].cgroups : runs[0].monitors;
	size_t base_nr = cgroup ? runs[0].cgroups_nr : runs[0].monitors_nr;
	struct strmap seen = STRMAP_INIT;
	struct strbuf title = STRBUF_INIT;

	for (size_t t = 0; t < base_nr; t++) {
		const char *bench = base[t].benchmark;
		struct compare_bench *b;

		if (opts->benchmark && strcmp(bench, opts->benchmark) != 0)
			continue;
		for (size_t i = 0; i < nr; i++)
			mt[i] = cgroup ? find_cgroups(&runs[i], bench)
				       : find_monitors(&runs[i], bench);
		if (!mt[0]->iterations)
			continue;
		strbuf_reset(&title);
		strbuf_addf(&title, "%s %s", bench,
			    cgroup ? "cgroup" : "vmstat");
		ALLOC_GROW(res->bench, res->bench_nr + 1, *bench_alloc);
		b = &res->bench[res->bench_nr++];
		memset(b, 0, sizeof(*b));
		b->name = xstrdup(title.buf);
		b->title = xstrdup(title.buf);
		b->monitor = true;
		strmap_clear(&seen);
		for (size_t i = 0; i < nr; i++) {
			for (size_t k = 0; mt[i] && k < mt[i]->counters_nr;
			     k++) {
				const char *name = mt[i]->counters[k].name;
				size_t len = strlen(name);

				if (strmap_get(&seen, name, len, NULL) ||
				    !counter_changed(mt[i], name))
					continue;
				strmap_put(&seen, name, len, 0);
				monitor_add_op(b, nr, mt, name, opts);
			}
		}
		if (!b->ops_nr) {
			free(b->name);
			free(b->title);
			res->bench_nr--;
		}
	}
	strmap_clear(&seen);
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

int compare_runs(const struct run_data *runs, size_t nr,
		 const struct compare_options *opts, struct compare_result *res,
		 struct strbuf *err)
{
	struct strmap *opmaps = NULL;
	struct strmap benches = STRMAP_INIT;
	struct strbuf key = STRBUF_INIT;
	const struct op_samples **src = NULL;
	size_t bench_alloc = 0, idx;
	regex_t re;
	bool have_re = false;
	int ret = -1, rc;
	char msg[256];

	if (!nr) {
		error_addf(err, "no runs to compare");
		goto out;
	}
	if (opts->sub_heading) {
		strbuf_addf(&key, "^(%s)", opts->sub_heading);
		rc = regcomp(&re, key.buf, REG_EXTENDED | REG_NOSUB);
		if (rc) {
			regerror(rc, &re, msg, sizeof(msg));
			error_addf(err, "invalid sub-heading regex '%s': %s",
				   opts->sub_heading, msg);
			goto out;
		}
		have_re = true;
	}
	res->opts = *opts;
	res->opts.benchmark = NULL;
	res->opts.sub_heading = NULL;
	res->runs_nr = nr;
	res->labels = xcalloc(nr, sizeof(*res->labels));
	for (size_t i = 0; i < nr; i++)
		res->labels[i] =
			xstrdup(runs[i].info.label ? runs[i].info.label : "");

	/* Hash every other run's operations once: lookups stay O(1). */
	opmaps = xcalloc(nr, sizeof(*opmaps));
	for (size_t i = 1; i < nr; i++) {
		for (size_t k = 0; k < runs[i].ops_nr; k++) {
			op_key(&key, &runs[i].ops[k]);
			if (!strmap_get(&opmaps[i], key.buf, key.len, NULL))
				strmap_put(&opmaps[i], key.buf, key.len, k);
		}
	}

	src = xcalloc(nr, sizeof(const struct op_samples *));
	for (size_t k = 0; k < runs[0].ops_nr; k++) {
		const struct op_samples *op = &runs[0].ops[k];
		struct compare_bench *b;

		if (opts->benchmark &&
		    strcmp(op->benchmark, opts->benchmark) != 0)
			continue;
		if (have_re && regexec(&re, op->name, 0, NULL, 0))
			continue;
		src[0] = op;
		op_key(&key, op);
		for (size_t i = 1; i < nr; i++) {
			src[i] = NULL;
			if (strmap_get(&opmaps[i], key.buf, key.len, &idx))
				src[i] = &runs[i].ops[idx];
		}
		b = get_bench(res, &benches, op->benchmark, &bench_alloc);
		bench_add_op(b, nr, src, opts);
	}
	if (!res->bench_nr) {
		if (opts->benchmark && !opts->sub_heading)
			error_addf(err, "benchmark '%s' not in baseline '%s'",
				   opts->benchmark, res->labels[0]);
		else if (opts->benchmark || opts->sub_heading)
			error_addf(
				err,
				"no operation of baseline '%s' matches the filters",
				res->labels[0]);
		else
			error_addf(err, "baseline '%s' has no samples",
				   res->labels[0]);
		goto out;
	}
	if (opts->monitors) {
		add_monitor_benches(res, runs, nr, opts, false, &bench_alloc);
		add_monitor_benches(res, runs, nr, opts, true, &bench_alloc);
	}
	for (size_t bi = 0; bi < res->bench_nr; bi++)
		bench_cidiff(&res->bench[bi], nr, opts->test);
	apply_tests(res);
	for (size_t bi = 0; bi < res->bench_nr; bi++)
		bench_finish(res, &res->bench[bi], runs);
	machine_diffs(res, runs);
	ret = 0;
out:
	if (ret)
		compare_result_release(res);
	if (have_re)
		regfree(&re);
	for (size_t i = 0; opmaps && i < nr; i++)
		strmap_clear(&opmaps[i]);
	free(opmaps);
	strmap_clear(&benches);
	strbuf_release(&key);
	free(src);
	return ret;
}

void compare_result_release(struct compare_result *res)
{
	if (!res)
		return;
	for (size_t bi = 0; bi < res->bench_nr; bi++) {
		struct compare_bench *b = &res->bench[bi];

		for (size_t o = 0; o < b->ops_nr; o++) {
			free(b->ops[o].name);
			free(b->ops[o].unit);
			free(b->ops[o].side);
		}
		free(b->ops);
		free(b->name);
		free(b->title);
		free(b->rows);
		free(b->cells);
		free(b->durations);
		free(b->ratio_footer);
		free(b->vmstat);
		strvec_clear(&b->notes);
	}
	free(res->bench);
	for (size_t i = 0; res->labels && i < res->runs_nr; i++)
		free(res->labels[i]);
	free(res->labels);
	strvec_clear(&res->machine_diffs);
	memset(res, 0, sizeof(*res));
	strvec_init(&res->machine_diffs);
}

static const char *const untested_reason[] = {
	[COMPARE_UNTESTED_MISSING] = "operation missing",
	[COMPARE_UNTESTED_UNDEFINED] = "mean undefined (a sample <= 0)",
	[COMPARE_UNTESTED_FEW] = "fewer than 2 samples on a side",
};

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
	for (size_t why = 0; why < ARRAY_SIZE(untested_reason); why++) {
		size_t n = bench->nr_untested[why];

		if (!n || !untested_reason[why])
			continue;
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%zu mean %s%s not tested, %s:", n, what,
			    n == 1 ? "" : "s", untested_reason[why]);
		footer_names(res, bench, (enum compare_untested)why, &sb);
		strvec_push(lines, sb.buf);
	}
	for (size_t i = 0; i < bench->notes.nr; i++)
		strvec_push(lines, bench->notes.v[i]);
	strbuf_release(&sb);
}
