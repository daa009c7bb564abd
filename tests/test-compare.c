/*
 * Unit tests for compare and the text layout: the mmtests examples byte
 * for byte (tests/data/mmtests, output of mmtests HEAD), the edge cases
 * of mmtests' significance rule (reference 2.6), the Welch and U tests
 * with and without Benjamini-Hochberg, filters, missing operations,
 * machine differences and the Duration table.
 */
#include <math.h>
#include <stdlib.h>

#include "tap.h"
#include "test-files.h"
#include "compare.h"
#include "csv.h"
#include "render.h"
#include "render-cells.h"
#include "run-data.h"
#include "strbuf.h"

#define DATA "data/mmtests/"

static const char *const examples[] = {
	"wis-improve",
	"trunc-regress",
	"wis-nochange",
};

/* Load tests/data/mmtests/NAME.csv; false with a diagnostic. */
static bool load_example(const char *name, struct run_data **runs, size_t *nr)
{
	struct strbuf path = STRBUF_INIT, buf = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT;
	bool good;

	*runs = NULL;
	*nr = 0;
	strbuf_addf(&path, DATA "%s.csv", name);
	good = read_file(path.buf, &buf) &&
	       !csv_parse(path.buf, buf.buf, buf.len, runs, nr, &err);
	if (!good)
		diag("cannot load %s: %s", path.buf, err.buf);
	strbuf_release(&path);
	strbuf_release(&buf);
	strbuf_release(&err);
	return good;
}

/* Compare runs and render them; false with a diagnostic on error. */
static bool compare_render(const struct run_data *runs, size_t nr,
			   const struct compare_options *opts,
			   const struct render_options *ropts,
			   enum render_format fmt, struct compare_result *res,
			   struct strbuf *out)
{
	struct strbuf err = STRBUF_INIT;
	bool good;

	good = !compare_runs(runs, nr, opts, res, &err) &&
	       !render(fmt, res, ropts, out, &err);
	if (!good)
		diag("%s", err.buf);
	strbuf_release(&err);
	return good;
}

static void test_examples(void)
{
	static const struct {
		const char *suffix;
		bool sig, ratio, html;
	} variants[] = {
		{".txt", false, false, false},
		{".sig.txt", true, false, false},
		{".ratio.txt", false, true, false},
		{".html", false, false, true},
	};
	struct render_options ropts = RENDER_OPTIONS_INIT;
	struct strbuf out = STRBUF_INIT, path = STRBUF_INIT;
	struct run_data *runs;
	size_t nr;

	ropts.html_fragment = true;
	for (size_t e = 0; e < ARRAY_SIZE(examples); e++) {
		if (!load_example(examples[e], &runs, &nr))
			continue;
		for (size_t v = 0; v < ARRAY_SIZE(variants); v++) {
			struct compare_options opts = COMPARE_OPTIONS_INIT;
			struct compare_result res = COMPARE_RESULT_INIT;
			FILE *f;

			strbuf_reset(&path);
			strbuf_addf(&path, DATA "%s%s", examples[e],
				    variants[v].suffix);
			f = fopen(path.buf, "rb");
			if (!f)
				continue; /* wis-nochange has no .html */
			fclose(f);
			opts.test = COMPARE_TEST_MMTESTS;
			opts.print_significance = variants[v].sig;
			opts.print_ratio = variants[v].ratio;
			strbuf_reset(&out);
			if (compare_render(runs, nr, &opts, &ropts,
					   variants[v].html ? RENDER_HTML
							    : RENDER_TEXT,
					   &res, &out))
				check_file(&out, path.buf, "mmtests mode");
			else
				ok(false, "%s renders", path.buf);
			compare_result_release(&res);
		}
		csv_runs_free(runs, nr);
	}
	strbuf_release(&out);
	strbuf_release(&path);
}

static void add_duration(struct run_data *rd, const char *bench, double user,
			 double sys, double elapsed)
{
	struct bench_duration *d;

	ALLOC_GROW(rd->durations, rd->durations_nr + 1, rd->durations_alloc);
	d = &rd->durations[rd->durations_nr++];
	memset(d, 0, sizeof(*d));
	d->benchmark = xstrdup(bench);
	d->user_s = user;
	d->sys_s = sys;
	d->elapsed_s = elapsed;
	d->iterations = 1;
}

/*
 * compare-kernels.sh's report: title, table, Duration table, which must
 * equal the start of NAME.full.txt up to the Duration rows (the vmstat
 * tables after them need data the CSV does not have). The trunc report
 * splits its table into sub-tables with special titles; there only the
 * Duration table is compared.
 */
static void test_full_report(const char *name, const double dur[2][3],
			     bool whole_prefix)
{
	struct compare_options opts = COMPARE_OPTIONS_INIT;
	struct compare_result res = COMPARE_RESULT_INIT;
	struct render_options ropts = RENDER_OPTIONS_INIT;
	struct strbuf out = STRBUF_INIT, want = STRBUF_INIT;
	struct strbuf path = STRBUF_INIT;
	struct run_data *runs;
	const char *end, *start;
	size_t nr, len;

	strbuf_addf(&path, DATA "%s.full.txt", name);
	if (!load_example(name, &runs, &nr) || !read_file(path.buf, &want)) {
		ok(false, "%s: fixtures load", name);
		goto out;
	}
	for (size_t i = 0; i < 2; i++)
		add_duration(&runs[i], runs[i].ops[0].benchmark, dur[i][0],
			     dur[i][1], dur[i][2]);
	opts.test = COMPARE_TEST_MMTESTS;
	ropts.titles = true;
	if (!compare_render(runs, nr, &opts, &ropts, RENDER_TEXT, &res, &out)) {
		ok(false, "%s: full report renders", name);
		goto out;
	}
	end = strstr(want.buf, "Duration Elapsed");
	end = end ? strchr(end, '\n') : NULL;
	if (!end) {
		ok(false, "%s: no Duration table in %s", name, path.buf);
		goto out;
	}
	len = (size_t)(end + 1 - want.buf);
	if (whole_prefix) {
		strbuf_setlen(&want, len);
		ok(same_bytes(&out, &want),
		   "%s: report up to the Duration table matches %s", name,
		   path.buf);
		goto out;
	}
	/* The Duration table: its two header lines and three rows. */
	start = end + 1;
	for (int lines = 0; lines < 6 && start > want.buf; lines++)
		for (start--; start > want.buf && start[-1] != '\n'; start--)
			;
	len = (size_t)(end + 1 - start);
	ok(out.len >= len + 1 && !memcmp(out.buf + out.len - len, start, len) &&
		   out.buf[out.len - len - 1] == '\n',
	   "%s: Duration table matches %s", name, path.buf);
out:
	compare_result_release(&res);
	csv_runs_free(runs, nr);
	strbuf_release(&out);
	strbuf_release(&want);
	strbuf_release(&path);
}

/* A run with one label, to which tests add operations. */
static void run_init(struct run_data *rd, const char *label)
{
	memset(rd, 0, sizeof(*rd));
	rd->info.label = xstrdup(label);
}

static void add_op(struct run_data *rd, const char *bench, const char *name,
		   bool higher, const double *v, size_t n)
{
	struct op_samples *op = run_data_op(rd, bench, name, true);

	op->higher_better = higher;
	for (size_t i = 0; i < n; i++)
		op_samples_add(op, v[i]);
}

#define MAX_N 8

/* One operation, baseline against one run: is the mean row marked? */
/* clang-format off */
static const struct {
	const char *what;
	enum compare_test test;
	bool higher;
	size_t nb, nn;
	double base[MAX_N], other[MAX_N];
	bool significant;
} sig_cases[] = {
	{ "mmtests: zero variance, 1000 -> 1002 ops flagged",
	  COMPARE_TEST_MMTESTS, true, 3, 3,
	  { 1000, 1000, 1000 }, { 1002, 1002, 1002 }, true },
	{ "mmtests: zero variance, 1000 -> 1001 ops not flagged",
	  COMPARE_TEST_MMTESTS, true, 3, 3,
	  { 1000, 1000, 1000 }, { 1001, 1001, 1001 }, false },
	{ "mmtests: zero variance, 7 x 1000 -> 7 x 1002 flagged",
	  COMPARE_TEST_MMTESTS, true, 7, 7,
	  { 1000, 1000, 1000, 1000, 1000, 1000, 1000 },
	  { 1002, 1002, 1002, 1002, 1002, 1002, 1002 }, true },
	{ "mmtests: zero variance, time 2.0 -> 2.5 not flagged",
	  COMPARE_TEST_MMTESTS, false, 3, 3,
	  { 2, 2, 2 }, { 2.5, 2.5, 2.5 }, false },
	{ "mmtests: zero variance, time 3.0 -> 5.0 flagged",
	  COMPARE_TEST_MMTESTS, false, 3, 3,
	  { 3, 3, 3 }, { 5, 5, 5 }, true },
	{ "mmtests: n=1 on both sides never flagged",
	  COMPARE_TEST_MMTESTS, true, 1, 1,
	  { 1000 }, { 2000 }, false },
	{ "mmtests: baseline n=1 for every op marks nothing",
	  COMPARE_TEST_MMTESTS, true, 1, 3,
	  { 1000 }, { 1001, 1002, 1000 }, false },
	{ "mmtests: a zero sample (NaN Hmean) is not flagged",
	  COMPARE_TEST_MMTESTS, true, 3, 3,
	  { 0, 1000, 1000 }, { 2000, 2000, 2000 }, false },
	{ "mmtests: 4% apart at CoV 2% is not flagged",
	  COMPARE_TEST_MMTESTS, false, 4, 4,
	  { 98, 100, 102, 100 }, { 102, 104, 106, 104 }, false },
	{ "mmtests: 9 sd apart is flagged",
	  COMPARE_TEST_MMTESTS, false, 4, 4,
	  { 99, 100, 101, 100 }, { 108, 109, 110, 109 }, true },
	{ "welch: 4% apart at CoV 2% is flagged",
	  COMPARE_TEST_WELCH, false, 4, 4,
	  { 98, 100, 102, 100 }, { 102, 104, 106, 104 }, true },
	{ "welch: zero variance, different means: exact p 1/10",
	  COMPARE_TEST_WELCH, false, 3, 3,
	  { 2, 2, 2 }, { 2.5, 2.5, 2.5 }, false },
	{ "welch: zero variance, 6 a side: exact p 1/462",
	  COMPARE_TEST_WELCH, false, 6, 6,
	  { 2, 2, 2, 2, 2, 2 }, { 2.5, 2.5, 2.5, 2.5, 2.5, 2.5 }, true },
	{ "welch: zero variance, equal means",
	  COMPARE_TEST_WELCH, false, 3, 3,
	  { 2, 2, 2 }, { 2, 2, 2 }, false },
	{ "welch: one sample in the other run",
	  COMPARE_TEST_WELCH, false, 3, 1,
	  { 1, 2, 3 }, { 100 }, false },
	{ "welch: a zero sample under Hmean",
	  COMPARE_TEST_WELCH, true, 3, 3,
	  { 0, 1000, 1000 }, { 2000, 2100, 2200 }, false },
	{ "utest: complete separation, 5 a side",
	  COMPARE_TEST_UTEST, true, 5, 5,
	  { 1, 2, 3, 4, 5 }, { 6, 7, 8, 9, 10 }, true },
	{ "utest: interleaved",
	  COMPARE_TEST_UTEST, true, 4, 4,
	  { 1, 3, 5, 7 }, { 2, 4, 6, 8 }, false },
};
/* clang-format on */

static void test_sig_cases(void)
{
	struct strbuf err = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(sig_cases); i++) {
		struct compare_options opts = COMPARE_OPTIONS_INIT;
		struct compare_result res = COMPARE_RESULT_INIT;
		struct run_data runs[2];

		run_init(&runs[0], "base");
		run_init(&runs[1], "new");
		add_op(&runs[0], "b", "op", sig_cases[i].higher,
		       sig_cases[i].base, sig_cases[i].nb);
		add_op(&runs[1], "b", "op", sig_cases[i].higher,
		       sig_cases[i].other, sig_cases[i].nn);
		opts.test = sig_cases[i].test;
		strbuf_reset(&err);
		if (compare_runs(runs, 2, &opts, &res, &err)) {
			ok(false, "%s: %s", sig_cases[i].what, err.buf);
		} else {
			/* Row 1 is the mean row of the only operation. */
			const struct compare_cell *c =
				compare_cell(&res, &res.bench[0], 1, 1);
			ok(c->significant == sig_cases[i].significant &&
				   res.bench[0].rows[1].stat ==
					   COMPARE_STAT_MEAN,
			   "%s", sig_cases[i].what);
		}
		compare_result_release(&res);
		run_data_release(&runs[0]);
		run_data_release(&runs[1]);
	}
	strbuf_release(&err);
}

/*
 * A baseline with n=1 for one op but CIs for others: mmtests treats the
 * missing CI as [0, 0], so the ratio is (base - new) / (q_new - base).
 */
static void test_partial_baseline_ci(void)
{
	static const double one[] = {100}, other[] = {108, 110, 112};
	static const double spread[] = {10, 11, 12};
	struct compare_options opts = COMPARE_OPTIONS_INIT;
	struct compare_result res = COMPARE_RESULT_INIT;
	struct run_data runs[2];
	const struct compare_side *s;
	double q;

	run_init(&runs[0], "base");
	run_init(&runs[1], "new");
	add_op(&runs[0], "b", "single", false, one, 1);
	add_op(&runs[0], "b", "spread", false, spread, 3);
	add_op(&runs[1], "b", "single", false, other, 3);
	add_op(&runs[1], "b", "spread", false, spread, 3);
	opts.test = COMPARE_TEST_MMTESTS;
	if (!ok(!compare_runs(runs, 2, &opts, &res, NULL),
		"partial baseline CI: compares"))
		goto out;
	s = &res.bench[0].ops[0].side[1];
	q = 3.919928; /* 1.959964 * stddev 2, to 7 digits */
	ok_near(s->ci_half, q, 1e-12,
		"partial baseline CI: q rounded to 7 digits");
	ok_near(s->cidiff, (100.0 - 110.0) / ((0.0 - 100.0) + q), 1e-12,
		"partial baseline CI: ratio with the baseline CI at [0, 0]");
	ok(!s->significant, "partial baseline CI: not flagged");
	ok(res.bench[0].has_ndiff_footer, "partial baseline CI: D rows kept");
out:
	compare_result_release(&res);
	run_data_release(&runs[0]);
	run_data_release(&runs[1]);
}

/* The significant mean rows of an example under one test. */
static void test_example_tests(void)
{
	static const struct {
		const char *name;
		enum compare_test test;
		bool fdr;
		const char *flags; /* one char per op: '1' significant */
		const char *footer;
	} cases[] = {
		{"wis-improve", COMPARE_TEST_WELCH, true, "1111",
		 "4 of 4 mean rows significant (welch, alpha 0.05, BH FDR)"},
		{"wis-nochange", COMPARE_TEST_WELCH, true, "0100",
		 "1 of 4 mean rows significant (welch, alpha 0.05, BH FDR)"},
		{"wis-nochange", COMPARE_TEST_WELCH, false, "0100",
		 "1 of 4 mean rows significant (welch, alpha 0.05)"},
		{"trunc-regress", COMPARE_TEST_WELCH, true, "010110",
		 "3 of 6 mean rows significant (welch, alpha 0.05, BH FDR)"},
		{"wis-improve", COMPARE_TEST_UTEST, true, "1111",
		 "4 of 4 mean rows significant (utest, alpha 0.05, BH FDR)"},
		{"wis-nochange", COMPARE_TEST_UTEST, true, "0100",
		 "1 of 4 mean rows significant (utest, alpha 0.05, BH FDR)"},
		{"wis-improve", COMPARE_TEST_MMTESTS, true, "1111", NULL},
		{"trunc-regress", COMPARE_TEST_MMTESTS, true, "010100", NULL},
		{"wis-nochange", COMPARE_TEST_MMTESTS, true, "0000", NULL},
	};
	/*
	 * wis-nochange under Welch on reciprocals: two-sided p-values from
	 * t and Welch-Satterthwaite df computed in Python, the t tail
	 * integrated numerically (Simpson, 2e5 steps).
	 */
	static const double nochange_p[] = {
		0.7319305378269286, 0.0012255434300861635, 0.08316361873226417,
		0.7632887636537217};

	for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
		struct compare_options opts = COMPARE_OPTIONS_INIT;
		struct compare_result res = COMPARE_RESULT_INIT;
		struct strvec footer = STRVEC_INIT;
		struct strbuf flags = STRBUF_INIT;
		struct run_data *runs;
		size_t nr;

		if (!load_example(cases[k].name, &runs, &nr))
			continue;
		opts.test = cases[k].test;
		opts.fdr = cases[k].fdr;
		opts.fieller = true; /* the v2 reference p, plain means */
		if (!compare_runs(runs, nr, &opts, &res, NULL)) {
			const struct compare_bench *b = &res.bench[0];

			for (size_t o = 0; o < b->ops_nr; o++) {
				/* Rows ops_nr .. 2 * ops_nr - 1: the means. */
				const struct compare_cell *c =
					compare_cell(&res, b, b->ops_nr + o, 1);
				strbuf_addch(&flags,
					     c->significant ? '1' : '0');
			}
			is_str(flags.buf, cases[k].flags,
			       "%s, %s%s: significant mean rows", cases[k].name,
			       compare_test_name(cases[k].test),
			       cases[k].fdr ? "" : " without FDR");
			compare_footer(&res, b, &footer);
			is_str(footer.nr ? footer.v[0] : NULL, cases[k].footer,
			       "%s, %s: footer", cases[k].name,
			       compare_test_name(cases[k].test));
			if (!strcmp(cases[k].name, "wis-nochange") &&
			    cases[k].test == COMPARE_TEST_WELCH)
				for (size_t o = 0; o < 4; o++)
					ok_near(b->ops[o].side[1].p,
						nochange_p[o], 1e-6,
						"wis-nochange welch p, op %zu",
						o);
		}
		compare_result_release(&res);
		strvec_clear(&footer);
		strbuf_release(&flags);
		csv_runs_free(runs, nr);
	}
}

/*
 * One op with p just under 0.05 among three unchanged ones: alone it is
 * significant, Benjamini-Hochberg over the four is not.
 */
static void test_fdr(void)
{
	static const double base[] = {10, 11, 12, 13, 14, 15};
	static const double shifted[] = {12.5, 13.5, 14.5, 15.5, 16.5, 17.5};
	static const char *const names[] = {"a", "b", "c", "d"};
	struct run_data runs[2];

	run_init(&runs[0], "base");
	run_init(&runs[1], "new");
	for (size_t o = 0; o < ARRAY_SIZE(names); o++) {
		add_op(&runs[0], "b", names[o], false, base, 6);
		add_op(&runs[1], "b", names[o], false, o ? base : shifted, 6);
	}
	for (int fdr = 0; fdr <= 1; fdr++) {
		struct compare_options opts = COMPARE_OPTIONS_INIT;
		struct compare_result res = COMPARE_RESULT_INIT;
		const struct compare_side *s;

		opts.fdr = fdr;
		if (compare_runs(runs, 2, &opts, &res, NULL)) {
			ok(false, "fdr %d: compares", fdr);
			continue;
		}
		s = &res.bench[0].ops[0].side[1];
		ok(s->p > 0.0125 && s->p < 0.05,
		   "fdr %d: p %g in (0.0125, 0.05)", fdr, s->p);
		ok(s->significant == !fdr, "fdr %d: the op is %s", fdr,
		   fdr ? "not flagged" : "flagged");
		ok(res.bench[0].nr_significant == (size_t)!fdr,
		   "fdr %d: footer count", fdr);
		compare_result_release(&res);
	}
	run_data_release(&runs[0]);
	run_data_release(&runs[1]);
}

/*
 * Ops come from the baseline: one missing in the other run prints 0.00
 * and is untested; one only the other run has is not shown. Three runs
 * count comparisons, not rows.
 */
static void test_missing_ops(void)
{
	static const double v[] = {10, 11, 12}, w[] = {10, 11, 12, 13};
	struct compare_options opts = COMPARE_OPTIONS_INIT;
	struct compare_result res = COMPARE_RESULT_INIT;
	struct render_options ropts = RENDER_OPTIONS_INIT;
	struct strvec footer = STRVEC_INIT;
	struct strbuf out = STRBUF_INIT;
	struct run_data runs[3];
	const struct compare_bench *b;
	const struct compare_cell *c;

	run_init(&runs[0], "base");
	run_init(&runs[1], "new");
	run_init(&runs[2], "newer");
	add_op(&runs[0], "b", "both", false, v, 3);
	add_op(&runs[0], "b", "base-only", false, v, 3);
	add_op(&runs[1], "b", "other-only", false, v, 3);
	add_op(&runs[1], "b", "both", false, w, 4);
	add_op(&runs[2], "b", "both", false, w, 1);
	add_op(&runs[2], "b", "base-only", false, w, 4);
	if (!compare_render(runs, 3, &opts, &ropts, RENDER_TEXT, &res, &out)) {
		ok(false, "missing ops: compares");
		goto out;
	}
	b = &res.bench[0];
	ok(b->ops_nr == 2 && !strcmp(b->ops[0].name, "both") &&
		   !strcmp(b->ops[1].name, "base-only"),
	   "missing ops: the baseline's ops in its order, no others");
	c = compare_cell(&res, b, b->ops_nr + 1, 1);
	ok(isnan(c->value) && isnan(c->pct) && c->pct_state == STATS_PCT_NONE &&
		   c->missing && !c->significant,
	   "missing ops: a missing op's cell is NaN without a percentage");
	ok(strstr(out.buf, "Amean     base-only             11.00 (   0.00%)"
			   "                 - (      -) ") != NULL,
	   "missing ops: printed as - (-), never 0.00 (reference 7)");
	compare_footer(&res, b, &footer);
	ok(footer.nr >= 3, "missing ops: summary and two reasons");
	is_str(footer.nr > 0 ? footer.v[0] : NULL,
	       "0 of 4 mean comparisons significant (welch, alpha 0.05, BH FDR)",
	       "missing ops: three runs count comparisons");
	is_str(footer.nr > 1 ? footer.v[1] : NULL,
	       "1 mean comparison not tested, operation missing: base-only (new)",
	       "missing ops: the missing op is named");
	is_str(footer.nr > 2 ? footer.v[2] : NULL,
	       "1 mean comparison not tested, fewer than 2 iterations on a side: both (newer)",
	       "missing ops: the single sample is named");
out:
	compare_result_release(&res);
	strvec_clear(&footer);
	strbuf_release(&out);
	for (size_t i = 0; i < 3; i++)
		run_data_release(&runs[i]);
}

static void test_filters(void)
{
	static const struct {
		const char *benchmark, *sub_heading;
		size_t ops; /* 0: an error is expected */
		const char *error;
	} cases[] = {
		{NULL, "ops-page_fault1_threads-1", 1, NULL},
		{NULL, "ops-page_fault1_threads-(2|4)", 2, NULL},
		{NULL, "ops", 4, NULL},
		{"wis-pf", NULL, 4, NULL},
		{"wis-pf", "ops-page_fault1_threads-8", 1, NULL},
		{NULL, "threads", 0,
		 "no operation of baseline '6.9-vanilla' matches the filters"},
		{"nope", NULL, 0,
		 "benchmark 'nope' not in baseline '6.9-vanilla'"},
		{NULL, "(", 0, "invalid sub-heading regex '(': "},
	};
	struct run_data *runs;
	size_t nr;

	if (!load_example("wis-improve", &runs, &nr))
		return;
	for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
		struct compare_options opts = COMPARE_OPTIONS_INIT;
		struct compare_result res = COMPARE_RESULT_INIT;
		struct strbuf err = STRBUF_INIT;
		int rc;

		opts.benchmark = cases[k].benchmark;
		opts.sub_heading = cases[k].sub_heading;
		rc = compare_runs(runs, nr, &opts, &res, &err);
		if (cases[k].ops)
			ok(!rc && res.bench_nr == 1 &&
				   res.bench[0].ops_nr == cases[k].ops,
			   "filter %zu keeps %zu ops", k, cases[k].ops);
		else
			ok(rc == -1 && !strncmp(err.buf, cases[k].error,
						strlen(cases[k].error)),
			   "filter %zu fails: %s", k, err.buf);
		compare_result_release(&res);
		strbuf_release(&err);
	}
	csv_runs_free(runs, nr);
}

/* Add samples v[] of one operation, each with its iteration and run. */
static void add_keyed(struct run_data *rd, const char *name, bool higher,
		      const double *v, const int64_t *iter, const int64_t *run,
		      size_t n)
{
	struct op_samples *op = run_data_op(rd, "b", name, true);

	op->higher_better = higher;
	for (size_t i = 0; i < n; i++)
		op_samples_add_keyed(op, v[i], iter[i], run[i]);
}

static double mean_of(const double *x, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += x[i];
	return s / (double)n;
}

/*
 * Units of replication (reference section 1): 9 samples in 3 iterations
 * in 2 runs per side. The test, the change and n use the unit values;
 * the summary rows all 9 samples.
 */
static void test_units(void)
{
	static const double va[9] = {10, 10, 11, 12, 12, 13, 9, 9, 9};
	static const double vb[9] = {20, 21, 20, 22, 22, 22, 19, 19, 20};
	static const int64_t ia[9] = {1, 1, 1, 2, 2, 2, 3, 3, 3};
	static const int64_t ib[9] = {4, 4, 4, 5, 5, 5, 6, 6, 6};
	static const int64_t ra[9] = {1, 1, 1, 1, 1, 1, 2, 2, 2};
	static const int64_t rb[9] = {3, 3, 3, 3, 3, 3, 4, 4, 4};
	/* The iteration means, and the runs' means of those. */
	static const double ua[3] = {31.0 / 3, 37.0 / 3, 9};
	static const double ub[3] = {61.0 / 3, 22, 58.0 / 3};
	static const double runa[2] = {34.0 / 3, 9},
			    runb[2] = {127.0 / 6, 58.0 / 3};
	static const struct {
		enum compare_unit unit;
		size_t units;
		const double *a, *b;
	} cases[] = {
		{COMPARE_UNIT_ITERATION, 3, ua, ub},
		{COMPARE_UNIT_SAMPLE, 9, va, vb},
		{COMPARE_UNIT_RUN, 2, runa, runb},
	};
	struct run_data runs[2];

	run_init(&runs[0], "base");
	run_init(&runs[1], "new");
	add_keyed(&runs[0], "t", false, va, ia, ra, 9);
	add_keyed(&runs[1], "t", false, vb, ib, rb, 9);
	for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
		struct compare_options opts = COMPARE_OPTIONS_INIT;
		struct compare_result res = COMPARE_RESULT_INIT;
		struct strbuf err = STRBUF_INIT;
		struct stats_welch_units w;
		const struct compare_side *s;
		size_t n = cases[k].units;
		double want;

		opts.unit = cases[k].unit;
		opts.fieller = true; /* against stats_welch_units() */
		if (compare_runs(runs, 2, &opts, &res, &err)) {
			ok(false, "units %zu: %s", k, err.buf);
			strbuf_release(&err);
			continue;
		}
		s = &res.bench[0].ops[0].side[1];
		stats_welch_units(cases[k].a, n, cases[k].b, n, &w);
		want = 100 *
		       (1 - mean_of(cases[k].b, n) / mean_of(cases[k].a, n));
		ok(s->units == n && res.bench[0].ops[0].side[0].units == n &&
			   s->sum.n == 9,
		   "units %s: %zu units per side, 9 samples",
		   compare_unit_nth(cases[k].unit), n);
		ok_near(s->p, w.p, 1e-12, "units %s: Welch's p on unit values",
			compare_unit_nth(cases[k].unit));
		ok_near(s->change.change_pct, want, 1e-9,
			"units %s: the change of the unit means",
			compare_unit_nth(cases[k].unit));
		ok_near(s->sum.mean, mean_of(vb, 9), 1e-12,
			"units %s: the Amean row stays over all samples",
			compare_unit_nth(cases[k].unit));
		compare_result_release(&res);
		strbuf_release(&err);
	}
	run_data_release(&runs[0]);
	run_data_release(&runs[1]);
}

/*
 * Add samples v[] of one operation, each with its iteration, run and
 * guest boot (0: on the host).
 */
static void add_booted(struct run_data *rd, const double *v,
		       const int64_t *iter, const int64_t *run,
		       const int64_t *boot, size_t n)
{
	struct op_samples *op = run_data_op(rd, "b", "t", true);

	for (size_t i = 0; i < n; i++) {
		op_samples_add_keyed(op, v[i], iter[i], run[i]);
		op_samples_set_boot(op, boot[i]);
	}
}

/*
 * --unit boot: a boot's value averages its iterations' with equal
 * weight, and a boot is its run and number (a pooled label may have a
 * boot 1 in each run). Base: 3 iterations of 1, 1 and 2 samples in
 * boot 1 of run 1 and boot 1 of run 2; new: 4 iterations, two in boot 2
 * of run 3, one each in boots 1 and 3 of run 3.
 */
static void test_boot_units(void)
{
	static const double va[4] = {10, 12, 11, 13};
	static const int64_t ia[4] = {1, 2, 3, 3}, ra[4] = {1, 1, 2, 2},
			     ba[4] = {1, 1, 1, 1};
	static const double vb[5] = {20, 22, 21, 23, 19};
	static const int64_t ib[5] = {4, 5, 6, 6, 7}, rb[5] = {3, 3, 3, 3, 3},
			     bb[5] = {2, 2, 1, 1, 3};
	/* Iteration means, then boot means of those. */
	static const double ua[3] = {10, 12, 12}, ub[4] = {20, 22, 22, 19};
	static const double boota[2] = {11, 12}, bootb[3] = {21, 22, 19};
	static const double runa[2] = {11, 12}, runb[1] = {83.0 / 4};
	static const struct {
		enum compare_unit unit;
		size_t na, nb;
		const double *a, *b;
	} cases[] = {
		{COMPARE_UNIT_ITERATION, 3, 4, ua, ub},
		{COMPARE_UNIT_BOOT, 2, 3, boota, bootb},
		{COMPARE_UNIT_RUN, 2, 1, runa, runb},
	};
	struct run_data runs[2];

	run_init(&runs[0], "base");
	run_init(&runs[1], "new");
	add_booted(&runs[0], va, ia, ra, ba, 4);
	add_booted(&runs[1], vb, ib, rb, bb, 5);
	for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
		struct compare_options opts = COMPARE_OPTIONS_INIT;
		struct compare_result res = COMPARE_RESULT_INIT;
		struct strbuf err = STRBUF_INIT;
		struct stats_welch_units w;
		const struct compare_side *s;
		const char *name = compare_unit_nth(cases[k].unit);

		opts.unit = cases[k].unit;
		opts.fieller = true; /* against stats_welch_units() */
		if (compare_runs(runs, 2, &opts, &res, &err)) {
			ok(false, "boot units %s: %s", name, err.buf);
			strbuf_release(&err);
			continue;
		}
		s = res.bench[0].ops[0].side;
		ok(s[0].units == cases[k].na && s[1].units == cases[k].nb,
		   "boot units %s: %zu and %zu units", name, cases[k].na,
		   cases[k].nb);
		stats_welch_units(cases[k].a, cases[k].na, cases[k].b,
				  cases[k].nb, &w);
		if (cases[k].nb > 1)
			ok_near(s[1].p, w.p, 1e-12,
				"boot units %s: Welch's p on unit values",
				name);
		else
			ok(s[1].untested == COMPARE_UNTESTED_FEW,
			   "boot units %s: one unit is too few", name);
		compare_result_release(&res);
		strbuf_release(&err);
	}
	run_data_release(&runs[0]);
	run_data_release(&runs[1]);
}

/*
 * --unit boot needs every sample's boot: a label of host runs, or one
 * that pools a host run with a guest run, stops the comparison with an
 * error naming it.
 */
static void test_boot_missing(void)
{
	static const double v[2] = {1, 2};
	static const int64_t it[2] = {1, 2}, it2[2] = {3, 4}, run[2] = {1, 1},
			     run2[2] = {2, 2}, boot[2] = {1, 2},
			     none[2] = {0, 0};
	static const char *const want =
		"--unit boot: label 'host' has no boots: its iterations did "
		"not run in guests of 'kernels:' (use --unit iteration or run)";
	struct run_data runs[2], guest;

	for (size_t k = 0; k < 2; k++) {
		struct compare_options opts = COMPARE_OPTIONS_INIT;
		struct compare_result res = COMPARE_RESULT_INIT;
		struct strbuf err = STRBUF_INIT;
		int rc;

		run_init(&runs[0], "vm");
		run_init(&runs[1], "host");
		add_booted(&runs[0], v, it, run, boot, 2);
		add_booted(&runs[1], v, it2, run2, none, 2);
		if (k) {
			/* The host run pooled with a guest run. */
			run_init(&guest, "host");
			add_booted(&guest, v, it, run, boot, 2);
			run_data_merge(&guest, &runs[1]);
			run_data_release(&runs[1]);
			runs[1] = guest;
		}
		opts.unit = COMPARE_UNIT_BOOT;
		rc = compare_runs(runs, 2, &opts, &res, &err);
		ok(rc == -1 && !strcmp(err.buf, want),
		   "boot missing %zu: refused, naming the label: %s", k,
		   err.buf);
		compare_result_release(&res);
		strbuf_reset(&err);
		opts.unit = COMPARE_UNIT_ITERATION;
		ok(!compare_runs(runs, 2, &opts, &res, &err),
		   "boot missing %zu: --unit iteration compares them", k);
		compare_result_release(&res);
		strbuf_release(&err);
		run_data_release(&runs[0]);
		run_data_release(&runs[1]);
	}
}

/*
 * The note on the level above the units (reference section 1), one
 * sample per iteration of label "new". The p-values are R's
 * oneway.test(var.equal = TRUE) (the anova rows of
 * tests/data/stats-v2-reference.tsv); the cut is p < 0.01.
 */
static void test_boot_notes(void)
{
	/* Boots differ: p = 0.0023989615504585262. */
	static const double differ[9] = {10,   10.3, 9.8, 10.9, 11.2,
					 10.8, 10.1, 9.9, 10.2};
	/* Boots differ a little: p = 0.015742187013545173. */
	static const double little[9] = {10,   10.4, 9.8, 10.9, 11.2,
					 10.6, 10.1, 9.9, 10.3};
	/* Boot values 10.1 10 10.2 | 10.6 10.5 10.8: p = 0.0071823285663. */
	static const double runs_differ[12] = {10,   10.2, 9.9,	 10.1,
					       10.1, 10.3, 10.5, 10.7,
					       10.4, 10.6, 10.7, 10.9};
	/* Boot values 10.1 10 10.2 | 10.1 10.1 10.1: p = 1. */
	static const double runs_same[12] = {10,   10.2, 9.9,  10.1,
					     10.1, 10.3, 10.0, 10.2,
					     10.2, 10.0, 10.1, 10.1};
	static const int64_t b3[9] = {1, 1, 1, 2, 2, 2, 3, 3, 3};
	static const int64_t one_run[9] = {5, 5, 5, 5, 5, 5, 5, 5, 5};
	static const int64_t r3[9] = {5, 5, 5, 6, 6, 6, 7, 7, 7};
	/* Boots (5, 1), (5, 2) and (6, 1): the same three groups as b3. */
	static const int64_t r2[9] = {5, 5, 5, 5, 5, 5, 6, 6, 6};
	static const int64_t b2[9] = {1, 1, 1, 2, 2, 2, 1, 1, 1};
	static const int64_t nob[12] = {0};
	static const int64_t b6[12] = {1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6};
	static const int64_t r6[12] = {5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6};
	static const char boot_note[] =
		"boots: t new: its boots differ more than their iterations "
		"(ANOVA p=0.0024); consider --unit boot: more boots, not more "
		"iterations, buy precision";
	static const struct {
		const char *what;
		enum compare_unit unit;
		const double *v;
		const int64_t *run, *boot;
		size_t n;
		const char *want; /* the note, NULL: none */
	} cases[] = {
		{"boots differ", COMPARE_UNIT_ITERATION, differ, one_run, b3, 9,
		 boot_note},
		{"boots differ a little", COMPARE_UNIT_ITERATION, little,
		 one_run, b3, 9, NULL},
		{"no boots, runs differ", COMPARE_UNIT_ITERATION, differ, r3,
		 nob, 9,
		 "runs: t new: its runs differ more than their iterations "
		 "(ANOVA p=0.0024); consider --unit run"},
		{"boots in runs: the boot note only", COMPARE_UNIT_ITERATION,
		 differ, r2, b2, 9, boot_note},
		{"runs differ more than boots", COMPARE_UNIT_BOOT, runs_differ,
		 r6, b6, 12,
		 "runs: t new: its runs differ more than their boots (ANOVA "
		 "p=0.0072); consider --unit run"},
		{"runs do not", COMPARE_UNIT_BOOT, runs_same, r6, b6, 12, NULL},
		{"boot unit, iterations of boots that differ",
		 COMPARE_UNIT_BOOT, differ, one_run, b3, 9, NULL},
	};
	static const double base[6] = {10, 10.1, 9.9, 10, 10.1, 9.9};
	static const int64_t base_it[6] = {1, 2, 3, 4, 5, 6};
	static const int64_t base_run[6] = {1, 1, 1, 1, 1, 1};

	for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
		struct compare_options opts = COMPARE_OPTIONS_INIT;
		struct compare_result res = COMPARE_RESULT_INIT;
		struct strbuf err = STRBUF_INIT;
		struct run_data runs[2];
		int64_t it[12];
		const char *got = NULL;
		size_t notes = 0;

		for (size_t i = 0; i < cases[k].n; i++)
			it[i] = 101 + (int64_t)i;
		run_init(&runs[0], "base");
		run_init(&runs[1], "new");
		/* One boot per iteration: the base never has a note. */
		/* Without boots the base has none either. */
		add_booted(&runs[0], base, base_it, base_run,
			   cases[k].boot == nob ? nob : base_it, 6);
		add_booted(&runs[1], cases[k].v, it, cases[k].run,
			   cases[k].boot, cases[k].n);
		opts.unit = cases[k].unit;
		if (compare_runs(runs, 2, &opts, &res, &err)) {
			ok(false, "boot notes: %s: %s", cases[k].what, err.buf);
		} else {
			const struct strvec *w = &res.bench[0].ops[0].warnings;

			for (size_t i = 0; i < w->nr; i++) {
				if (!strncmp(w->v[i], "boots: ", 7) ||
				    !strncmp(w->v[i], "runs: ", 6)) {
					got = w->v[i];
					notes++;
				}
			}
			ok(notes == (cases[k].want ? 1U : 0U),
			   "boot notes: %s: %zu notes", cases[k].what, notes);
			is_str(got, cases[k].want, "boot notes: %s",
			       cases[k].what);
		}
		compare_result_release(&res);
		strbuf_release(&err);
		run_data_release(&runs[0]);
		run_data_release(&runs[1]);
	}
}

/*
 * One BH family (reference section 3): a filter shows fewer rows but
 * leaves their adjusted p, their marks and the family's size alone.
 */
static void test_family_before_filters(void)
{
	static const char *const filters[][2] = {
		{NULL, "ops-page_fault1_threads-8"},
		{"wis-pf", "ops-page_fault1_threads-(8|16)"},
	};
	struct compare_options opts = COMPARE_OPTIONS_INIT;
	struct compare_result all = COMPARE_RESULT_INIT;
	struct strbuf err = STRBUF_INIT;
	struct run_data *runs;
	size_t nr;

	if (!load_example("wis-nochange", &runs, &nr))
		return;
	if (compare_runs(runs, nr, &opts, &all, &err)) {
		ok(false, "family: %s", err.buf);
		goto out;
	}
	for (size_t k = 0; k < ARRAY_SIZE(filters); k++) {
		struct compare_options f = COMPARE_OPTIONS_INIT;
		struct compare_result res = COMPARE_RESULT_INIT;
		const struct compare_side *got, *want = NULL;

		f.benchmark = filters[k][0];
		f.sub_heading = filters[k][1];
		if (compare_runs(runs, nr, &f, &res, &err)) {
			ok(false, "family %zu: %s", k, err.buf);
			continue;
		}
		got = &res.bench[0].ops[0].side[1];
		for (size_t o = 0; o < all.bench[0].ops_nr; o++)
			if (!strcmp(all.bench[0].ops[o].name,
				    res.bench[0].ops[0].name))
				want = &all.bench[0].ops[o].side[1];
		ok(want && got->p_adjusted == want->p_adjusted &&
			   got->significant == want->significant &&
			   res.family_size[0] == all.family_size[0] &&
			   res.family_size[0] == 4,
		   "family %zu: the filtered row keeps its adjusted p, mark "
		   "and the family of 4",
		   k);
		compare_result_release(&res);
	}
	compare_result_release(&all);
out:
	strbuf_release(&err);
	csv_runs_free(runs, nr);
}

/*
 * Verdicts (reference section 5) as compare gives them: the same rows
 * under margins, checked against stats_change()/stats_verdict() and
 * against the expected verdict.
 */
static void test_verdicts(void)
{
	static const double base[6] = {100, 101, 99, 100, 100.5, 99.5};
	static const double same[6] = {100.2, 100.8, 99.4, 100.1, 100.6, 99.9};
	static const double slow[6] = {110, 111, 109, 110, 110.5, 109.5};
	static const struct {
		const double *other;
		double margin;
		enum stats_verdict want;
	} cases[] = {
		{same, 0, STATS_VERDICT_INCONCLUSIVE},
		{same, 2, STATS_VERDICT_SAME},
		{same, 0.1, STATS_VERDICT_INCONCLUSIVE},
		{slow, 0, STATS_VERDICT_WORSE},
		{slow, 5, STATS_VERDICT_WORSE},
		{slow, 20, STATS_VERDICT_SAME},
	};

	for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
		struct compare_options opts = COMPARE_OPTIONS_INIT;
		struct compare_result res = COMPARE_RESULT_INIT;
		struct strbuf err = STRBUF_INIT;
		struct stats_welch_units w;
		struct stats_change ch;
		const struct compare_side *s;
		struct run_data runs[2];

		run_init(&runs[0], "base");
		run_init(&runs[1], "new");
		add_op(&runs[0], "b", "t", false, base, 6);
		add_op(&runs[1], "b", "t", false, cases[k].other, 6);
		opts.margin_pct = cases[k].margin;
		opts.fieller = true; /* Fieller's bounds */
		if (compare_runs(runs, 2, &opts, &res, &err)) {
			ok(false, "verdict %zu: %s", k, err.buf);
		} else {
			s = &res.bench[0].ops[0].side[1];
			stats_welch_units(base, 6, cases[k].other, 6, &w);
			stats_change(&w, false, 0.05, &ch);
			ok(s->verdict == cases[k].want &&
				   s->change.low_pct == ch.low_pct &&
				   s->change.high_pct == ch.high_pct,
			   "verdict %zu: %s with margin %g, Fieller's bounds",
			   k, stats_verdict_name(cases[k].want),
			   cases[k].margin);
		}
		compare_result_release(&res);
		strbuf_release(&err);
		run_data_release(&runs[0]);
		run_data_release(&runs[1]);
	}
}

static void test_machine_diffs(void)
{
	static const double v[] = {1, 2, 3};
	struct compare_options opts = COMPARE_OPTIONS_INIT;
	struct compare_result res = COMPARE_RESULT_INIT;
	struct render_options ropts = RENDER_OPTIONS_INIT;
	struct strbuf out = STRBUF_INIT;
	struct run_data runs[2];

	run_init(&runs[0], "base");
	run_init(&runs[1], "new");
	add_op(&runs[0], "b", "op", false, v, 3);
	add_op(&runs[1], "b", "op", false, v, 3);
	runs[0].info.machine.hostname = xstrdup("alpha");
	runs[1].info.machine.hostname = xstrdup("beta");
	runs[0].info.machine.nr_cpus = 8;
	runs[1].info.machine.nr_cpus = 16;
	runs[1].info.machine.cmdline = xstrdup("quiet"); /* unknown in base */
	runs[0].info.machine.cpu_model = xstrdup("Xeon");
	runs[1].info.machine.cpu_model = xstrdup("Xeon");
	opts.test = COMPARE_TEST_MMTESTS;
	if (compare_render(runs, 2, &opts, &ropts, RENDER_TEXT, &res, &out)) {
		ok(res.machine_diffs.nr == 2, "machine diffs: two properties");
		is_str(res.machine_diffs.nr > 0 ? res.machine_diffs.v[0] : NULL,
		       "hostname: 'alpha' in base, 'beta' in new",
		       "machine diffs: hostname");
		is_str(res.machine_diffs.nr > 1 ? res.machine_diffs.v[1] : NULL,
		       "nr_cpus: '8' in base, '16' in new",
		       "machine diffs: nr_cpus");
		ok(!strncmp(
			   out.buf,
			   "Warning: the runs were made on different machines or set-ups\n"
			   "  hostname: 'alpha' in base, 'beta' in new\n"
			   "  nr_cpus: '8' in base, '16' in new\n\n"
			   "      ",
			   strlen("Warning: the runs were made on different machines or set-ups\n"
				  "  hostname: 'alpha' in base, 'beta' in new\n"
				  "  nr_cpus: '8' in base, '16' in new\n\n"
				  "      ")),
		   "machine diffs: warning block above the table");
	} else {
		ok(false, "machine diffs: compares");
	}
	compare_result_release(&res);
	strbuf_release(&out);
	run_data_release(&runs[0]);
	run_data_release(&runs[1]);
}

/*
 * render_fixed() against printf("%*.*f") itself, byte for byte: values
 * of every magnitude and both signs, signed zeros, ties (0.125 at 2
 * decimals, which printf rounds to even), values a hair either side of
 * a tie, and near 2^52 and the largest precisions, where render_fixed()
 * leaves the digits to printf.
 */
static void test_fixed_printf(void)
{
	static const double odd[] = {
		0.0,	-0.0,	0.125,	 0.375,	  2.5,
		0.005,	1.005,	-0.125,	 1e15,	  4503599627370495.5,
		0x1p52, 0x1p53, 1e-320,	 -1e-320, 999.995,
		0.045,	1e22,	123456.5};
	static const int precs[] = {0, 1, 2, 3, 4, 6, 9, 15, 16, 20};
	struct strbuf got = STRBUF_INIT;
	uint64_t seed = 99;
	int bad = 0, n = 0;

	for (int i = 0; i < 20000; i++) {
		double v, u;
		int prec = precs[i % (int)ARRAY_SIZE(precs)];
		int width = (i / 10) % 3 ? 12 : 0;
		bool plus = (i / 30) % 2;
		char want[512];

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		u = (double)(seed >> 11) / 0x1p53;
		if (i < (int)ARRAY_SIZE(odd) * 10)
			v = odd[i / 10];
		else if (i % 7 == 0)
			/* A tie at prec, moved by an ulp or not at all. */
			v = nextafter((floor(u * 1e6) + 0.5) / pow(10.0, prec),
				      (seed >> 5) % 3 == 0   ? 0.0
				      : (seed >> 5) % 3 == 1 ? 1e300
							     : -1e300);
		else
			v = ((seed >> 63) ? -1.0 : 1.0) * u *
			    pow(10.0, (double)((seed >> 40) % 40) - 20.0);
		strbuf_reset(&got);
		render_fixed(&got, width, prec, plus, v);
		snprintf(want, sizeof(want), plus ? "%+*.*f" : "%*.*f", width,
			 prec, v);
		n++;
		if (strcmp(got.buf, want)) {
			if (bad < 5)
				diag("render_fixed(%d, %d, %.17g): '%s', "
				     "printf: '%s'",
				     width, prec, v, got.buf, want);
			bad++;
		}
	}
	ok(!bad,
	   "render_fixed is printf's %%*.*f byte for byte (%d of %d "
	   "values differ)",
	   bad, n);
	strbuf_release(&got);
}

static void test_helpers(void)
{
	static const struct {
		const char *label, *line1, *line2;
	} splits[] = {
		{"6.9-vanilla", "6.9", "vanilla"},
		{"base", "bas", "base"},
		{"6.10-rc1-patched", "6.10-rc1", "patched"},
		{"6.10-rc1", "6.10-rc1", ""},
		{"a-b-c", "a", "b-c"},
		{"x-rcy", "x", "rcy"},
		{"-x", "", "x"},
		{"", "", ""},
		/* The last character goes, not the last byte of it. */
		{"caf\xc3\xa9", "caf", "caf\xc3\xa9"},
		{"\xe2\x82\xac", "", "\xe2\x82\xac"},
	};
	/* render_header_label(): the default mode's split. */
	static const struct {
		const char *label, *line1, *line2;
	} headers[] = {
		{"base", "", "base"},
		{"patched", "", "patched"},
		{"6.8-base", "6.8-", "base"},
		{"6.10-rc1-patched", "6.10-", "rc1-patched"},
		{"-x", "", "-x"},
		{"x-", "", "x-"},
		{"", "", ""},
		{"caf\xc3\xa9", "", "caf\xc3\xa9"},
	};
	/* render_text_cell(): escaped, padded in characters. */
	static const struct {
		int width;
		const char *s, *want;
	} cells[] = {
		{6, "abc", "   abc"},
		{-6, "abc", "abc   "},
		{2, "abc", "abc"},
		{0, "a\x1b[2Jb", "a\\x1b[2Jb"},
		{-8, "a\nb", "a\\nb    "},
		{5, "caf\xc3\xa9", " caf\xc3\xa9"},
		{-5, "\xe2\x82\xac", "\xe2\x82\xac    "},
	};
	static const struct {
		int width, prec;
		bool plus;
		double v;
		const char *want;
	} fixed[] = {
		{7, 2, false, 10.355, "  10.36"},
		{7, 2, false, -0.001, "  -0.00"},
		{7, 2, false, NAN, "    NaN"},
		{0, 2, true, NAN, "NaN"},
		{0, 2, true, 2.78, "+2.78"},
		{7, 2, false, INFINITY, "    Inf"},
		{7, 2, false, -INFINITY, "   -Inf"},
		{7, 2, false, -200, "-200.00"},
	};
	struct strbuf sb = STRBUF_INIT;
	size_t len1, start2;

	for (size_t i = 0; i < ARRAY_SIZE(splits); i++) {
		render_split_label(splits[i].label, &len1, &start2);
		strbuf_reset(&sb);
		strbuf_add(&sb, splits[i].label, len1);
		strbuf_addch(&sb, '|');
		strbuf_addstr(&sb, splits[i].label + start2);
		ok(len1 == strlen(splits[i].line1) &&
			   !strcmp(splits[i].label + start2, splits[i].line2),
		   "split '%s' -> '%s'", splits[i].label, sb.buf);
	}
	for (size_t i = 0; i < ARRAY_SIZE(headers); i++) {
		struct compare_result res = COMPARE_RESULT_INIT;
		char *label = xstrdup(headers[i].label);
		size_t want1, want2;

		res.runs_nr = 1;
		res.labels = &label;
		render_header_label(&res, 0, &len1, &start2);
		ok(len1 == strlen(headers[i].line1) &&
			   !strncmp(label, headers[i].line1, len1) &&
			   !strcmp(label + start2, headers[i].line2),
		   "header '%s' -> '%.*s' / '%s'", label, (int)len1, label,
		   label + start2);
		/* --test=mmtests: mmtests' split, as render_split_label(). */
		res.opts.test = COMPARE_TEST_MMTESTS;
		render_header_label(&res, 0, &len1, &start2);
		render_split_label(label, &want1, &want2);
		ok(len1 == want1 && start2 == want2,
		   "header '%s' under mmtests: mmtests' split", label);
		free(label);
	}
	for (size_t i = 0; i < ARRAY_SIZE(cells); i++) {
		strbuf_reset(&sb);
		render_text_cell(&sb, cells[i].width, cells[i].s,
				 strlen(cells[i].s));
		is_str(sb.buf, cells[i].want, "render_text_cell case %zu", i);
	}
	for (size_t i = 0; i < ARRAY_SIZE(fixed); i++) {
		strbuf_reset(&sb);
		render_fixed(&sb, fixed[i].width, fixed[i].prec, fixed[i].plus,
			     fixed[i].v);
		is_str(sb.buf, fixed[i].want, "render_fixed case %zu", i);
	}
	strbuf_release(&sb);
	test_fixed_printf();
}

static void test_errors(void)
{
	struct compare_options opts = COMPARE_OPTIONS_INIT;
	struct compare_result res = COMPARE_RESULT_INIT;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct render_options ropts = RENDER_OPTIONS_INIT;
	struct run_data empty;
	enum compare_test test;
	enum render_format fmt;

	ok(compare_runs(NULL, 0, &opts, &res, &err) == -1, "no runs: fails");
	is_str(err.buf, "no runs to compare", "no runs: message");
	strbuf_reset(&err);
	run_init(&empty, "lonely");
	ok(compare_runs(&empty, 1, &opts, &res, &err) == -1,
	   "empty baseline: fails");
	is_str(err.buf, "baseline 'lonely' has no samples",
	       "empty baseline: message");
	run_data_release(&empty);
	strbuf_reset(&err);
	ok(render(RENDER_JSON, &res, &ropts, &out, &err) == 0 &&
		   strstr(out.buf, "\"benchmarks\":\t[]"),
	   "json: an empty result is a document without benchmarks");
	ok(compare_test_parse("utest", &test) && test == COMPARE_TEST_UTEST &&
		   !compare_test_parse("ttest", &test),
	   "compare_test_parse");
	ok(render_format_parse("markdown", &fmt) && fmt == RENDER_MARKDOWN &&
		   !render_format_parse("md", &fmt),
	   "render_format_parse");
	strbuf_release(&err);
	strbuf_release(&out);
}

/*
 * A large table, 4 runs x 100 ops x 500 samples: the result checked, and
 * run under the sanitizers. Not timed here (no test depends on machine
 * speed); bench/compare-scale measures 500 ops and more.
 */
static void test_large(void)
{
	enum { RUNS = 4, OPS = 100, SAMPLES = 500 };
	struct run_data runs[RUNS];
	struct strbuf name = STRBUF_INIT, out = STRBUF_INIT;
	double *v = xmalloc(SAMPLES * sizeof(*v));

	for (size_t r = 0; r < RUNS; r++) {
		strbuf_reset(&name);
		strbuf_addf(&name, "run-%zu", r);
		run_init(&runs[r], name.buf);
		for (size_t o = 0; o < OPS; o++) {
			for (size_t i = 0; i < SAMPLES; i++)
				v[i] = 1000.0 + (double)((i * 7919 + o) % 101) +
				       (double)(r * (o % 3));
			strbuf_reset(&name);
			strbuf_addf(&name, "op-%zu", (o * 37) % OPS);
			add_op(&runs[r], "big", name.buf, o % 2, v, SAMPLES);
		}
	}
	for (int t = 0; t < 3; t++) {
		struct compare_options opts = COMPARE_OPTIONS_INIT;
		struct compare_result res = COMPARE_RESULT_INIT;
		struct render_options ropts = RENDER_OPTIONS_INIT;

		opts.test = (enum compare_test)t;
		strbuf_reset(&out);
		ok(compare_render(runs, RUNS, &opts, &ropts, RENDER_TEXT, &res,
				  &out) &&
			   res.bench[0].ops_nr == OPS &&
			   res.bench[0].nr_compared == (size_t)OPS * (RUNS - 1),
		   "4 runs x 100 ops x 500 samples, %s",
		   compare_test_name(opts.test));
		compare_result_release(&res);
	}
	for (size_t r = 0; r < RUNS; r++)
		run_data_release(&runs[r]);
	free(v);
	strbuf_release(&name);
	strbuf_release(&out);
}

/* Give rd a monitor table of bench: counters[k] over iterations. */
static void add_monitors(struct run_data *rd, const char *bench,
			 double elapsed_s, size_t iterations,
			 const char *const *names, const double *values,
			 size_t names_nr)
{
	struct monitor_table *mt = run_data_monitors(rd, bench, true);

	for (size_t i = 0; i < iterations; i++) {
		monitor_table_add_iteration(mt, elapsed_s / (double)iterations);
		for (size_t k = 0; k < names_nr; k++)
			if (values[k * iterations + i] != 0)
				monitor_table_set(mt, names[k],
						  values[k * iterations + i]);
	}
}

/*
 * compare-kernels.sh's report of wis-improve with its vmstat table: the
 * counters below, split over two iterations, give every row of the Ops
 * table of wis-improve.full.txt, so the report must equal that file up
 * to the last Ops row (the schedstat table after it needs other data).
 */
static void test_vmstat_report(void)
{
	static const char *const names[] = {
		"pgfault",  "pgmajfault", "pgalloc_normal",
		"numa_hit", "numa_local",
	};
	/* Per run: each counter's change in iteration 1, then 2. */
	static const double values[2][10] = {
		{1e8, 5e7, 12, 0, 1e8, 5.1e7, 1.51e8, 0, 1.5e8, 1e6},
		{1e8, 6.5e7, 4, 5, 1.661e8, 0, 1.661e8, 0, 1e8, 6.61e7},
	};
	static const double dur[2][3] = {{30.12, 412.50, 160.33},
					 {31.40, 370.10, 160.29}};
	struct compare_options opts = COMPARE_OPTIONS_INIT;
	struct compare_result res = COMPARE_RESULT_INIT;
	struct render_options ropts = RENDER_OPTIONS_INIT;
	struct strbuf out = STRBUF_INIT, want = STRBUF_INIT;
	struct run_data *runs;
	const char *end;
	size_t nr, alloc;

	if (!load_example("wis-improve", &runs, &nr) ||
	    !read_file(DATA "wis-improve.full.txt", &want)) {
		ok(false, "vmstat report: fixtures load");
		goto out;
	}
	for (size_t i = 0; i < 2; i++) {
		add_duration(&runs[i], "wis-pf", dur[i][0], dur[i][1],
			     dur[i][2]);
		add_monitors(&runs[i], "wis-pf", dur[i][2], 2, names, values[i],
			     ARRAY_SIZE(names));
	}
	opts.test = COMPARE_TEST_MMTESTS;
	ropts.titles = true;
	if (!compare_render(runs, nr, &opts, &ropts, RENDER_TEXT, &res, &out)) {
		ok(false, "vmstat report renders");
		goto out;
	}
	end = strstr(want.buf, "Ops AutoNUMA cost");
	end = end ? strchr(end, '\n') : NULL;
	if (!ok(end != NULL, "wis-improve.full.txt has an Ops table"))
		goto out;
	strbuf_setlen(&want, (size_t)(end + 1 - want.buf));
	ok(same_bytes(&out, &want),
	   "report with the Ops table matches wis-improve.full.txt");
	compare_result_release(&res);

	/* A third run without monitor data prints zeros there. */
	alloc = nr;
	ALLOC_GROW(runs, nr + 1, alloc);
	run_init(&runs[2], "6.9-nomon");
	op_samples_add(run_data_op(&runs[2], "wis-pf",
				   "ops-page_fault1_threads-2", true),
		       1.0);
	strbuf_reset(&out);
	if (compare_render(runs, 3, &opts, &ropts, RENDER_TEXT, &res, &out))
		ok(strstr(out.buf, "Ops Minor Faults                   "
				   "149999988.00   164999991.00           "
				   "0.00\n") != NULL,
		   "a run without monitors has zeros in the Ops table");
	else
		ok(false, "three runs render");
	run_data_release(&runs[2]);
out:
	compare_result_release(&res);
	csv_runs_free(runs, nr);
	strbuf_release(&out);
	strbuf_release(&want);
}

/* compare --monitors: a "BENCH vmstat" table of the changed counters. */
static void test_monitor_tables(void)
{
	static const char *const names[] = {
		"pgfault",
		"pgmajfault",
		"thp_fault_alloc",
		"nr_free_pages",
	};
	static const double base[] = {
		100, 101, 99, 100, 100, /* pgfault */
		0,   0,	  0,  0,   0,	/* pgmajfault: never changes */
		0,   0,	  0,  0,   0,	/* thp_fault_alloc */
		-3,  4,	  1,  -2,  0,	/* nr_free_pages */
	};
	static const double patched[] = {
		200, 201, 199, 200, 200, 0, 0, 0, 0,  0,
		1,   0,	  0,   0,   0,	 2, 1, 0, -1, -2,
	};
	struct compare_options opts = COMPARE_OPTIONS_INIT;
	struct compare_result res = COMPARE_RESULT_INIT, plain;
	struct render_options ropts = RENDER_OPTIONS_INIT;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct run_data runs[3];
	const struct compare_bench *b;
	bool same = true;
	int r;

	run_init(&runs[0], "v1-base");
	run_init(&runs[1], "v1-patched");
	run_init(&runs[2], "v1-nomon");
	for (size_t i = 0; i < 3; i++) {
		struct op_samples *op =
			run_data_op(&runs[i], "bench", "time", true);

		for (size_t k = 0; k < 5; k++)
			op_samples_add(op, 10.0 + (double)(k % 3) +
						   (i == 1 ? 0.05 : 0.0));
		add_duration(&runs[i], "bench", 1, 2, 50);
	}
	add_monitors(&runs[0], "bench", 50, 5, names, base, 4);
	add_monitors(&runs[1], "bench", 50, 5, names, patched, 4);
	/*
	 * Where nr_free_pages ended (the gauges' levels): its row shows
	 * these, not the changes above.
	 */
	for (size_t i = 0; i < 2; i++) {
		struct monitor_table *lv =
			run_data_levels(&runs[i], "bench", true);

		for (size_t k = 0; k < 5; k++) {
			monitor_table_add_iteration(lv, 10.0);
			monitor_table_set(lv, "nr_free_pages",
					  (double)(200000 + 1000 * i + k));
			monitor_table_set(lv, "nr_mlock", 7.0);
		}
	}
	/* The same comparison without the option, for the verdicts. */
	plain = res;
	r = compare_runs(runs, 3, &opts, &plain, &err);
	ok(!r && plain.bench_nr == 1, "without --monitors: one table %s",
	   err.buf);
	opts.monitors = COMPARE_MONITORS_ALL;
	r = compare_runs(runs, 3, &opts, &res, &err);
	ok(!r && res.bench_nr == 2, "with --monitors: a second table %s",
	   err.buf);
	b = res.bench_nr == 2 ? &res.bench[1] : NULL;
	ok(b && b->monitor && !strcmp(b->title, "bench vmstat") &&
		   !b->has_durations && !b->has_vmstat && b->ops_nr == 3 &&
		   !strcmp(b->ops[0].name, "pgfault") &&
		   !strcmp(b->ops[1].name, "nr_free_pages") &&
		   !strcmp(b->ops[2].name, "thp_fault_alloc"),
	   "the table has the counters that changed, baseline's first");
	ok(b && b->ops_nr == 3 && b->ops[0].side[1].significant &&
		   b->ops[0].side[1].sum.n == 5 && !b->ops[0].side[2].present &&
		   b->ops[2].side[0].sum.n == 5 &&
		   b->ops[2].side[0].sum.mean == 0.0,
	   "counters are compared per iteration; a run without data lacks "
	   "them");
	ok(b && b->ops_nr == 3 && b->ops[1].gauge &&
		   b->ops[1].side[0].sum.mean == 200002.0 &&
		   b->ops[1].side[1].sum.mean == 201002.0 &&
		   b->ops[1].side[1].verdict == STATS_VERDICT_UNTESTED,
	   "a gauge's row has its levels at the end, untested");
	for (size_t o = 0; res.bench_nr && o < res.bench[0].ops_nr; o++)
		for (size_t i = 1; i < 3; i++)
			same &= res.bench[0].ops[o].side[i].significant ==
					plain.bench[0]
						.ops[o]
						.side[i]
						.significant &&
				res.bench[0].ops[o].side[i].p ==
					plain.bench[0].ops[o].side[i].p;
	ok(same && res.bench[0].has_vmstat,
	   "the workload rows keep their verdicts");
	render(RENDER_TEXT, &res, &ropts, &out, &err);
	check_golden(&out, "monitors.welch.txt");
	compare_result_release(&res);
	compare_result_release(&plain);
	opts.benchmark = "other";
	ok(compare_runs(runs, 3, &opts, &res, &err) == -1,
	   "--benchmark filters the monitor tables too");
	strbuf_reset(&err);
	compare_result_release(&res);
	opts.benchmark = NULL;
	opts.monitors = COMPARE_MONITORS_MEAN;
	r = compare_runs(runs, 3, &opts, &res, &err);
	b = !r && res.bench_nr == 2 ? &res.bench[1] : NULL;
	same = b && b->rows_nr == b->ops_nr && b->ops_nr == 3;
	for (size_t i = 0; b && i < b->rows_nr; i++)
		same &= b->rows[i].stat == COMPARE_STAT_MEAN;
	ok(same, "--monitors alone: the counter table has the mean rows only");
	ok(!r && res.bench[0].rows_nr == COMPARE_STAT_NR,
	   "and the workload table all of its rows");
	compare_result_release(&res);
	opts.sub_heading = "time|pg|nr_";
	r = compare_runs(runs, 3, &opts, &res, &err);
	b = !r && res.bench_nr == 2 ? &res.bench[1] : NULL;
	ok(b && b->ops_nr == 2 && !strcmp(b->ops[0].name, "pgfault") &&
		   !strcmp(b->ops[1].name, "nr_free_pages"),
	   "--sub-heading filters the counters");
	compare_result_release(&res);
	opts.sub_heading = "pgf";
	r = compare_runs(runs, 3, &opts, &res, &err);
	ok(!r && res.bench_nr == 1 && res.bench[0].monitor &&
		   res.bench[0].ops_nr == 1,
	   "a sub-heading only counters match leaves the counter table %s",
	   err.buf);
	compare_result_release(&res);
	opts.sub_heading = NULL;
	opts.monitors = COMPARE_MONITORS_OFF;
	for (size_t i = 0; i < 3; i++)
		run_data_release(&runs[i]);
	strbuf_release(&out);
	strbuf_release(&err);
}

/* The footer line on runs without monitor data. */
static void test_monitor_note(void)
{
	static const char *const names[] = {"pgfault"};
	static const double v[] = {10, 11};
	static const double time_v[] = {1, 2, 3};
	struct compare_options opts = COMPARE_OPTIONS_INIT;
	struct compare_result res = COMPARE_RESULT_INIT;
	struct strbuf err = STRBUF_INIT;
	struct strvec lines = STRVEC_INIT;
	struct run_data runs[2];
	const char *note;

	run_init(&runs[0], "base");
	run_init(&runs[1], "other");
	for (size_t i = 0; i < 2; i++)
		add_op(&runs[i], "bench", "time", false, time_v, 3);
	ok(!compare_runs(runs, 2, &opts, &res, &err) &&
		   !res.bench[0].vmstat_note,
	   "no monitors anywhere, runs not made by mmcmp run: no note");
	compare_result_release(&res);
	opts.monitors = COMPARE_MONITORS_MEAN;
	ok(!compare_runs(runs, 2, &opts, &res, &err), "with --monitors");
	note = res.bench_nr ? res.bench[0].vmstat_note : NULL;
	is_str(note,
	       "no monitor records for 'base', 'other': no Ops table and no counter table",
	       "--monitors without monitor data says so");
	compare_result_release(&res);
	opts.monitors = COMPARE_MONITORS_OFF;
	runs[1].info.config_text = xstrdup("name: x\n");
	ok(!compare_runs(runs, 2, &opts, &res, &err), "a run of a config");
	note = res.bench_nr ? res.bench[0].vmstat_note : NULL;
	is_str(note, "no monitor records for 'other': no Ops table",
	       "a run of mmcmp run without monitors is named");
	compare_result_release(&res);
	add_monitors(&runs[0], "bench", 2, 2, names, v, 1);
	ok(!compare_runs(runs, 2, &opts, &res, &err), "one run with monitors");
	note = res.bench_nr ? res.bench[0].vmstat_note : NULL;
	is_str(note, "no monitor records for 'other': its Ops column reads -",
	       "the run without them is named");
	compare_footer(&res, &res.bench[0], &lines);
	ok(lines.nr && !strcmp(lines.v[lines.nr - 1], note ? note : ""),
	   "the note ends the footer");
	strvec_clear(&lines);
	compare_result_release(&res);
	opts.test = COMPARE_TEST_MMTESTS;
	ok(!compare_runs(runs, 2, &opts, &res, &err), "mmtests mode");
	compare_footer(&res, &res.bench[0], &lines);
	ok(lines.nr == 0,
	   "mmtests mode prints no note: its output is mmtests'");
	strvec_clear(&lines);
	compare_result_release(&res);
	add_monitors(&runs[1], "bench", 2, 2, names, v, 1);
	opts.test = COMPARE_TEST_WELCH;
	ok(!compare_runs(runs, 2, &opts, &res, &err) &&
		   !res.bench[0].vmstat_note,
	   "every run with monitors: no note");
	compare_result_release(&res);
	for (size_t i = 0; i < 2; i++)
		run_data_release(&runs[i]);
	strbuf_release(&err);
}

/*
 * compare_vmstat_summary() row by row: the counters of one iteration of
 * 2 s, and each row's value worked out by hand from mmtests'
 * MonitorMmtestsvmstat formulas.
 */
/* A counter and its change, or a row label and its value. */
struct named_value {
	const char *name;
	double value; /* NAN: undefined */
};

static const struct named_value ops_counters[] = {
	{"pgfault", 1000},
	{"pgmajfault", 10},
	{"pswpin", 3},
	{"pswpout", 4},
	{"allocstall_dma", 1},
	{"allocstall_normal", 2},
	{"fragment_stall", 5},
	{"pgalloc_dma", 6},
	{"pgalloc_dma32", 7},
	{"pgalloc_normal", 8},
	{"pgalloc_movable", 9},
	{"pgscan_kswapd", 100},
	{"pgscan_kswapd_normal", 100},
	{"pgscan_direct_normal", 50},
	{"pgsteal_kswapd_normal", 150},
	{"pgsteal_direct_normal", 25},
	{"nr_vmscan_write", 20},
	{"nr_vmscan_immediate_reclaim", 11},
	{"pgpgin", 12},
	{"pgpgout", 13},
	{"pgrescued", 14},
	{"slabs_scanned", 15},
	{"pginodesteal", 16},
	{"kswapd_inodesteal", 17},
	{"kswapd_skip_congestion_wait", 18},
	{"thp_fault_alloc", 19},
	{"thp_fault_fallback", 21},
	{"thp_collapse_alloc", 22},
	{"thp_collapse_alloc_failed", 23},
	{"thp_split_page", 24},
	{"thp_split", 1},
	{"thp_split_page_failed", 26},
	{"compact_stall", 40},
	{"compact_success", 10},
	{"compact_fail", 30},
	{"pgmigrate_success", 60},
	{"pgmigrate_fail", 6},
	{"compact_isolated", 70},
	{"compact_migrate_scanned", 80},
	{"compact_free_scanned", 160},
	{"compact_daemon_wake", 27},
	{"compact_daemon_migrate_scanned", 28},
	{"compact_daemon_free_scanned", 29},
	{"numa_hit", 31},
	{"numa_miss", 32},
	{"numa_interleave", 33},
	{"numa_local", 34},
	{"numa_pte_updates", 1000},
	{"numa_huge_pte_updates", 2},
	{"numa_hint_faults", 200},
	{"numa_hint_faults_local", 150},
	{"numa_pages_migrated", 35},
};

static const struct named_value ops_rows[] = {
	{"Minor Faults", 990},
	{"Major Faults", 10},
	{"Swap Ins", 3},
	{"Swap Outs", 4},
	{"Allocation stalls", 3},
	{"Fragmentation stalls", 5},
	{"DMA allocs", 6},
	{"DMA32 allocs", 7},
	{"Normal allocs", 8},
	{"Movable allocs", 9},
	{"Direct pages scanned", 50},
	{"Kswapd pages scanned", 200},
	{"Kswapd pages reclaimed", 150},
	{"Direct pages reclaimed", 25},
	{"Kswapd efficiency %", 75},
	{"Kswapd velocity", 100},
	{"Direct efficiency %", 50},
	{"Direct velocity", 25},
	{"Percentage direct scans", 20},
	{"Page writes by reclaim", 20},
	{"Page writes file", 16},
	{"Page writes anon", 4},
	{"Page reclaim immediate", 11},
	{"Sector Reads", 12},
	{"Sector Writes", 13},
	{"Page rescued immediate", 14},
	{"Slabs scanned", 15},
	{"Direct inode steals", 16},
	{"Kswapd inode steals", 17},
	{"Kswapd skipped wait", 18},
	{"THP fault alloc", 19},
	{"THP fault fallback", 21},
	{"THP collapse alloc", 22},
	{"THP collapse fail", 23},
	{"THP split", 25},
	{"THP split failed", 26},
	{"Compaction stalls", 40},
	{"Compaction success", 10},
	{"Compaction failures", 30},
	{"Compaction efficiency", 25},
	{"Page migrate success", 60},
	{"Page migrate failure", 6},
	{"Compaction pages isolated", 70},
	{"Compaction migrate scanned", 80},
	{"Compaction free scanned", 160},
	{"Compact scan efficiency", 50},
	/* (7 * 80 + 19 * 70 + 1038 * 60 + 14 * 6) / 10^6 */
	{"Compaction cost", 0.064254},
	{"Kcompactd wake", 27},
	{"Kcompactd migrate scanned", 28},
	{"Kcompactd free scanned", 29},
	{"NUMA alloc hit", 31},
	{"NUMA alloc miss", 32},
	{"NUMA interleave hit", 33},
	{"NUMA alloc local", 34},
	{"NUMA base-page range updates", 2024},
	{"NUMA PTE updates", 1000},
	{"NUMA PMD updates", 2},
	{"NUMA hint faults", 200},
	{"NUMA hint local faults %", 150},
	{"NUMA hint local percent", 75},
	{"NUMA pages migrated", 35},
	/* (7 * 1000 + 5000 * 200 + 19 * 35) / 10^6 */
	{"AutoNUMA cost", 1.007665},
};

/*
 * The quirks: a pre-3.8 kernel's kswapd_steal (also counted in pgsteal),
 * nothing scanned, no compaction counters, no hint faults, no time.
 */
static const struct named_value quirk_counters[] = {
	{"kswapd_steal", 10},
	{"pgsteal_normal", 30},
	{"pgfault", 5},
};

static const struct named_value quirk_rows[] = {
	{"Kswapd pages reclaimed", 10},
	{"Direct pages reclaimed", 20},
	{"Kswapd efficiency %", 100},
	{"Direct efficiency %", 100},
	{"Percentage direct scans", 0},
	{"Kswapd velocity", 0},
	{"Compaction efficiency", NAN},
	{"Compact scan efficiency", NAN},
	{"Compaction cost", -1e-6},
	{"NUMA hint local percent", 100},
	{"Minor Faults", 5},
};

/* The row of the vmstat summary called label, or COMPARE_VMSTAT_NR. */
static size_t ops_row(const char *label)
{
	for (size_t r = 0; r < COMPARE_VMSTAT_NR; r++)
		if (!strcmp(compare_vmstat_label(r), label))
			return r;
	return COMPARE_VMSTAT_NR;
}

/*
 * The vmstat summary of one iteration of elapsed_s with the counters
 * given has each of the rows given, within 1e-9.
 */
static void check_vmstat(const char *what, double elapsed_s,
			 const struct named_value *counters, size_t counters_nr,
			 const struct named_value *rows, size_t rows_nr)
{
	struct monitor_table mt = {.benchmark = NULL};
	double got[COMPARE_VMSTAT_NR];

	monitor_table_add_iteration(&mt, elapsed_s);
	for (size_t i = 0; i < counters_nr; i++)
		monitor_table_set(&mt, counters[i].name, counters[i].value);
	compare_vmstat_summary(&mt, got);
	for (size_t i = 0; i < rows_nr; i++) {
		size_t r = ops_row(rows[i].name);
		double want = rows[i].value;

		ok(r < COMPARE_VMSTAT_NR &&
			   (isnan(want) ? isnan(got[r])
					: fabs(got[r] - want) < 1e-9),
		   "%s %zu: '%s' = %g", what, i, rows[i].name, want);
	}
	monitor_table_release(&mt);
}

static void test_vmstat_rows(void)
{
	bool unique = true, ordered = true;

	ok(ARRAY_SIZE(ops_rows) == COMPARE_VMSTAT_NR,
	   "every vmstat row has a case");
	for (size_t r = 0; r < COMPARE_VMSTAT_NR; r++) {
		unique = unique && ops_row(compare_vmstat_label(r)) == r;
		ordered = ordered &&
			  !strcmp(compare_vmstat_label(r), ops_rows[r].name);
	}
	ok(unique, "vmstat row labels are unique");
	ok(ordered, "vmstat rows in compare-kernels.sh's order");
	check_vmstat("vmstat row", 2.0, ops_counters, ARRAY_SIZE(ops_counters),
		     ops_rows, ARRAY_SIZE(ops_rows));
	check_vmstat("vmstat quirk", 0.0, quirk_counters,
		     ARRAY_SIZE(quirk_counters), quirk_rows,
		     ARRAY_SIZE(quirk_rows));
}

int main(int argc, char **argv)
{
	static const double wis_dur[2][3] = {{30.12, 412.50, 160.33},
					     {31.40, 370.10, 160.29}};
	static const double trunc_dur[2][3] = {{3.02, 61.50, 75.33},
					       {3.05, 65.80, 79.90}};

	/* "large": only the scale case, a test of its own (meson.build). */
	if (argc > 1 && !strcmp(argv[1], "large")) {
		test_large();
		done_testing();
		return exit_status();
	}
	test_examples();
	test_full_report("wis-improve", wis_dur, true);
	test_full_report("trunc-regress", trunc_dur, false);
	test_vmstat_report();
	test_vmstat_rows();
	test_monitor_note();
	test_monitor_tables();
	test_sig_cases();
	test_partial_baseline_ci();
	test_example_tests();
	test_fdr();
	test_missing_ops();
	test_filters();
	test_units();
	test_boot_units();
	test_boot_missing();
	test_boot_notes();
	test_family_before_filters();
	test_verdicts();
	test_machine_diffs();
	test_helpers();
	test_errors();
	done_testing();
	return exit_status();
}
