/* mmcmp compare: the comparison table of stored labels. */
#include "cmd.h"

#include <math.h>

#include "compare.h"
#include "gate.h"
#include "pool.h"
#include "render.h"
#include "run-data.h"
#include "store.h"
#include "strbuf.h"

static const char compare_usage[] =
	"usage: mmcmp compare [options] BASE OTHER...\n"
	"\n"
	"Compare the samples stored under label BASE with those of each OTHER\n"
	"label: one table per benchmark in mmtests' layout, a Duration table,\n"
	"the vmstat Ops table of runs recorded with monitors, and markers on\n"
	"the mean rows whose difference is significant. Under each table, one\n"
	"line per operation and label: the change of the mean with Fieller's\n"
	"confidence interval, p, units per side and a verdict (better, worse,\n"
	"same within --margin, inconclusive, untested), then the footer. The\n"
	"tests use one value per --unit. All runs of a label are pooled\n"
	"unless --run picks some.\n"
	"\n"
	"Exit status: 0, or with --fail-on 3 when a mean row of a workload\n"
	"table is worse (regression; change: worse or better) or missing (an\n"
	"operation of the base without samples in OTHER), and 4 when\n"
	"--fail-on inconclusive finds a row inconclusive or untested, or\n"
	"when no row could be tested at all; 3 wins over 4. 1 on failure, 2\n"
	"on bad usage or input. --test=mmtests marks rows but gives no\n"
	"verdicts, so it refuses --fail-on and the junit and github formats\n"
	"(2). Without --fail-on, junit and github show the rows --fail-on\n"
	"regression would fail and the exit status stays 0.\n";

struct compare_args {
	struct compare_options opts;
	enum render_format format;
	struct render_options ropts;
	const char *output;
	char **labels; /* in argv */
	size_t labels_nr;
	struct int64_list runs;
	enum gate_fail_on fail_on; /* GATE_OFF: no --fail-on */
};

const struct cmd_option compare_test_options[] = {
	OPT_CHOICE("test", 0, struct compare_options, test, compare_test_nth,
		   "significance test (default welch): Welch's t-test on one "
		   "value per unit (mean 1/x under Hmean), mmtests' own CI "
		   "rule (a heuristic; refuses --alpha), or Mann-Whitney U on "
		   "the unit values"),
	OPT_NUMBER("alpha", 0, struct compare_options, alpha, "A", 0, 1,
		   "significance level, 0 < A < 1 (default 0.05)"),
	OPT_FLAG("no-fdr", 0, struct compare_options, fdr, false,
		 "no Benjamini-Hochberg false-discovery control"),
	OPT_FLAG("fieller", 0, struct compare_options, fieller, true,
		 "the change as a ratio of the plain means with Fieller's "
		 "interval, not of the geometric means on the log scale"),
	OPT_CHOICE("unit", 0, struct compare_options, unit, compare_unit_nth,
		   "the unit of replication the test compares (default "
		   "iteration): one value per iteration, every sample, one "
		   "value per run, or one per guest boot (runs of kernels:)"),
	OPT_NUMBER("margin", 0, struct compare_options, margin_pct, "PCT",
		   -INFINITY, INFINITY,
		   "verdicts: better or worse only beyond PCT percent, same "
		   "when the 1 - 2 alpha interval lies within it (default 0)"),
	OPT_END(),
};

static const struct cmd_option compare_option_table[] = {
	OPT_INCLUDE(struct compare_args, opts, compare_test_options),
	OPT_FLAG("print-ratio", 0, struct compare_args, opts.print_ratio, true,
		 "ratio rows and the Dmean/Dmin/Dmax/Gmean footer"),
	OPT_FLAG("print-significance", 0, struct compare_args,
		 opts.print_significance, true,
		 "the Significant rows of mmtests"),
	OPT_STRING("benchmark", 0, struct compare_args, opts.benchmark, "NAME",
		   "only this benchmark"),
	OPT_STRING("sub-heading", 0, struct compare_args, opts.sub_heading,
		   "REGEX",
		   "only operations whose name matches REGEX at its start"),
	OPT_FLAG("include-incomplete", 0, struct compare_args,
		 opts.include_incomplete, true,
		 "pool runs that are not complete and failed iterations "
		 "too (the footer says so)"),
	OPT_INT_LIST("run", 0, struct compare_args, runs, "ID", 1, INT64_MAX,
		     "use run ID for its label"),
	OPT_CHOICE_OPTARG(
		"monitors", 0, struct compare_args, opts.monitors,
		compare_monitors_nth, COMPARE_MONITORS_MEAN,
		"then per benchmark a table of every vmstat counter "
		"that changed, one sample per iteration, and one of the "
		"cgroup's counters where the workloads ran in a cgroup: "
		"the mean rows (--monitors alone), every statistic "
		"(=all) or none (=off); --sub-heading filters the "
		"counters"),
	OPT_CHOICE("format", 0, struct compare_args, format, render_format_nth,
		   "the output format (default text); junit and github "
		   "report the rows that qualify under --fail-on (without "
		   "it those of regression, exit status 0)"),
	OPT_CHOICE("fail-on", 0, struct compare_args, fail_on, gate_fail_on_nth,
		   "exit 3 when a mean row is worse (regression), worse or "
		   "better (change), and with inconclusive also 4 when one is "
		   "inconclusive or untested (3 wins); 4 whenever no row "
		   "could be tested"),
	OPT_FLAG("no-titles", 0, struct compare_args, ropts.titles, false,
		 "text: no blank line and title before each table, as "
		 "compare-mmtests.pl prints a single benchmark"),
	OPT_STRING("output", 'o', struct compare_args, output, "FILE",
		   "write to FILE instead of stdout"),
	OPT_END(),
};

static int parse_args(int argc, char **argv, struct compare_args *a)
{
	argc = parse_cmd_options(&cmd_compare, argc, argv, a);
	if (argc < 0)
		return 2;
	a->labels = argv + 1;
	a->labels_nr = (size_t)argc - 1;
	if (a->labels_nr < 2)
		return usage_error(
			&cmd_compare,
			"need a baseline label and at least one more");
	/* mmtests' rule has no error rate that an alpha could set. */
	if (a->opts.test == COMPARE_TEST_MMTESTS && !isnan(a->opts.alpha))
		return usage_error(
			&cmd_compare,
			"--alpha has no meaning with --test=mmtests");
	/*
	 * mmtests' marks are no verdicts: every row would be untested, so a
	 * gate, JUnit or GitHub output would fail or skip everything.
	 */
	if (a->opts.test == COMPARE_TEST_MMTESTS && a->fail_on != GATE_OFF)
		return usage_error(&cmd_compare,
				   "--fail-on needs verdicts, which "
				   "--test=mmtests does not give; use "
				   "--test=welch or --test=utest");
	if (a->opts.test == COMPARE_TEST_MMTESTS &&
	    (a->format == RENDER_JUNIT || a->format == RENDER_GITHUB))
		return usage_error(&cmd_compare,
				   "--format=%s needs verdicts, which "
				   "--test=mmtests does not give; use "
				   "--test=welch or --test=utest",
				   render_format_nth(a->format));
	if (isnan(a->opts.alpha))
		a->opts.alpha = 0.05;
	if (a->opts.margin_pct < 0)
		return usage_error(&cmd_compare, MARGIN_RULE,
				   a->opts.margin_pct);
	return 0;
}

/*
 * Load label into rd: its runs pooled, or only those of them named by
 * --run. Returns 0, 2 after a usage message (unknown label), or 1.
 */
static int load_label(struct store *st, const struct compare_args *a,
		      const char *label, struct run_data *rd)
{
	struct strbuf err = STRBUF_INIT;
	int64_t *only = NULL;
	size_t only_nr = 0, loaded = 0;
	int ret = 1;

	/* Keep the --run ids of this label; none means all its runs. */
	only = xcalloc(a->runs.nr + 1, sizeof(*only));
	for (size_t k = 0; k < a->runs.nr; k++) {
		struct run_info ri = {0};

		if (!store_run_get(st, a->runs.v[k], &ri, NULL) &&
		    !strcmp(ri.label, label))
			only[only_nr++] = a->runs.v[k];
		run_info_release(&ri);
	}
	/*
	 * Every benchmark, even with --benchmark: the family of the tests
	 * is the whole comparison (compare.h).
	 */
	if (pool_load(st, label, only, only_nr, NULL,
		      a->opts.include_incomplete, rd, &loaded, &err)) {
		error("%s", err.buf);
		goto out;
	}
	ret = pooled_label_error(&cmd_compare, st, label, loaded, &rd->notes);
out:
	free(only);
	strbuf_release(&err);
	return ret;
}

/* Every --run must belong to one of the compared labels. */
static int check_runs(struct store *st, const struct compare_args *a)
{
	struct strbuf err = STRBUF_INIT;
	int ret = 0;

	for (size_t k = 0; k < a->runs.nr && !ret; k++) {
		struct run_info ri = {0};
		bool found = false;

		if (store_run_get(st, a->runs.v[k], &ri, &err)) {
			ret = usage_error(&cmd_compare, "--run %" PRId64 ": %s",
					  a->runs.v[k], err.buf);
			break;
		}
		for (size_t i = 0; i < a->labels_nr; i++)
			found |= !strcmp(ri.label, a->labels[i]);
		if (!found)
			ret = usage_error(
				&cmd_compare,
				"run %" PRId64
				" has label '%s', which is not compared",
				a->runs.v[k], ri.label);
		run_info_release(&ri);
	}
	strbuf_release(&err);
	return ret;
}

/* Print why the gate failed on stderr; return the exit status. */
static int gate_status(const struct compare_result *res,
		       enum gate_fail_on fail_on)
{
	struct gate_summary sum;
	const char *name = gate_fail_on_nth(fail_on);

	switch (gate_decide(res, fail_on, &sum)) {
	case GATE_PASS:
		return 0;
	case GATE_FAIL:
		if (sum.missing)
			fprintf(stderr,
				"mmcmp: --fail-on %s: %zu of %zu rows missing:"
				" operations of the base with no samples in"
				" the other label\n",
				name, sum.missing, sum.rows);
		if (sum.failed > sum.missing)
			fprintf(stderr,
				"mmcmp: --fail-on %s: %zu of %zu rows %s (%zu "
				"worse, %zu better)\n",
				name, sum.failed - sum.missing, sum.rows,
				fail_on == GATE_CHANGE ? "changed" : "worse",
				sum.verdicts[STATS_VERDICT_WORSE],
				sum.verdicts[STATS_VERDICT_BETTER]);
		return 3;
	case GATE_UNSURE:
		break;
	}
	if (!sum.tested)
		fprintf(stderr,
			"mmcmp: --fail-on %s: none of the %zu rows could be "
			"tested; the comparison was not made\n",
			name, sum.rows);
	else
		fprintf(stderr,
			"mmcmp: --fail-on %s: %zu of %zu rows inconclusive or "
			"untested\n",
			name, sum.unsure, sum.rows);
	return 4;
}

static int compare_main(int argc, char **argv)
{
	struct compare_args a = {
		.opts = COMPARE_OPTIONS_INIT,
		.format = RENDER_TEXT,
		.ropts = RENDER_OPTIONS_INIT,
		.fail_on = GATE_OFF,
	};
	struct compare_result res = COMPARE_RESULT_INIT;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct run_data *runs = NULL;
	struct store *st = NULL;
	int ret;

	a.ropts.titles = true;
	a.opts.alpha = NAN; /* unset: parse_args() tells it from 0.05 */
	ret = parse_args(argc, argv, &a);
	if (ret)
		goto out;
	st = store_open_read(mmcmp_db_path(), &err);
	if (!st) {
		ret = error("%s", err.buf);
		goto out;
	}
	ret = check_runs(st, &a);
	if (ret)
		goto out;
	runs = xcalloc(a.labels_nr, sizeof(*runs));
	for (size_t i = 0; i < a.labels_nr; i++) {
		ret = load_label(st, &a, a.labels[i], &runs[i]);
		if (ret)
			goto out;
	}
	if (compare_runs(runs, a.labels_nr, &a.opts, &res, &err)) {
		ret = usage_error(&cmd_compare, "%s", err.buf);
		goto out;
	}
	for (size_t i = 0; i < res.warnings.nr; i++)
		warning("%s", res.warnings.v[i]);
	if (a.fail_on != GATE_OFF) {
		a.ropts.fail_on = a.fail_on;
		a.ropts.fail_on_given = true;
	}
	if (render(a.format, &res, &a.ropts, &out, &err)) {
		ret = error("%s", err.buf);
		goto out;
	}
	ret = write_output(a.output, &out);
	if (!ret && a.fail_on != GATE_OFF)
		ret = gate_status(&res, a.fail_on);
out:
	compare_result_release(&res);
	for (size_t i = 0; runs && i < a.labels_nr; i++)
		run_data_release(&runs[i]);
	free(runs);
	free(a.runs.v);
	store_close(st);
	strbuf_release(&out);
	strbuf_release(&err);
	return ret;
}

const struct cmd cmd_compare = {
	.name = "compare",
	.summary = "print the comparison table of stored labels",
	.usage = compare_usage,
	.options = compare_option_table,
	.run = compare_main,
};
