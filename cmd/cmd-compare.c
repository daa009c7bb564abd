/* mmcmp compare: the comparison table of stored labels. */
#include "cmd.h"

#include "compare.h"
#include "parse-num.h"
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
	"the mean rows whose difference is significant. All runs of a label\n"
	"are pooled unless --run picks some.\n"
	"\n"
	"Options:\n"
	"  --test=welch|utest|mmtests\n"
	"                      significance test (default welch): Welch's t-test on\n"
	"                      the scale of the mean shown (1/x under Hmean),\n"
	"                      Mann-Whitney U, or mmtests' own CI rule\n"
	"  --alpha=A           significance level, 0 < A < 1 (default 0.05)\n"
	"  --no-fdr            no Benjamini-Hochberg false-discovery control\n"
	"  --print-ratio       ratio rows and the Dmean/Dmin/Dmax/Gmean footer\n"
	"  --print-significance  the Significant rows of mmtests\n"
	"  --benchmark=NAME    only this benchmark\n"
	"  --sub-heading=REGEX only operations whose name matches REGEX at its start\n"
	"  --run=ID            use run ID for its label (repeatable)\n"
	"  --monitors          then per benchmark a table of every vmstat\n"
	"                      counter that changed, one sample per iteration\n"
	"  --format=FORMAT     text (default), markdown, csv, json or html\n"
	"  --no-titles         text: no blank line and title before each table, as\n"
	"                      compare-mmtests.pl prints a single benchmark\n"
	"  -o, --output=FILE   write to FILE instead of stdout\n";

struct compare_args {
	struct compare_options opts;
	enum render_format format;
	struct render_options ropts;
	const char *output;
	const char **labels;
	size_t labels_nr;
	int64_t *runs;
	size_t runs_nr;
};

static int parse_args(int argc, char **argv, struct compare_args *a)
{
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *v;
		bool missing = false;

		if ((v = opt_value(argv, argc, &i, "--test", &missing))) {
			if (!compare_test_parse(v, &a->opts.test))
				return usage_error(
					&cmd_compare,
					"unknown test '%s' (welch, utest or mmtests)",
					v);
		} else if ((v = opt_value(argv, argc, &i, "--alpha",
					  &missing))) {
			if (!parse_double(v, &a->opts.alpha) ||
			    !(a->opts.alpha > 0 && a->opts.alpha < 1))
				return usage_error(
					&cmd_compare,
					"--alpha needs a number between 0 and 1, not '%s'",
					v);
		} else if ((v = opt_value(argv, argc, &i, "--benchmark",
					  &missing))) {
			a->opts.benchmark = v;
		} else if ((v = opt_value(argv, argc, &i, "--sub-heading",
					  &missing))) {
			a->opts.sub_heading = v;
		} else if ((v = opt_value(argv, argc, &i, "--run", &missing))) {
			int64_t id;

			if (!parse_int64(v, 1, INT64_MAX, &id))
				return usage_error(
					&cmd_compare,
					"--run needs a run id, not '%s'", v);
			a->runs = xrealloc(a->runs,
					   (a->runs_nr + 1) * sizeof(id));
			a->runs[a->runs_nr++] = id;
		} else if ((v = opt_value(argv, argc, &i, "--format",
					  &missing))) {
			if (!render_format_parse(v, &a->format))
				return usage_error(
					&cmd_compare,
					"unknown format '%s' (text, markdown, csv, json or html)",
					v);
		} else if ((v = opt_value(argv, argc, &i, "--output",
					  &missing)) ||
			   (v = opt_value(argv, argc, &i, "-o", &missing))) {
			a->output = v;
		} else if (missing) {
			return usage_error(&cmd_compare,
					   "option '%s' needs a value", arg);
		} else if (!strcmp(arg, "--no-fdr")) {
			a->opts.fdr = false;
		} else if (!strcmp(arg, "--print-ratio")) {
			a->opts.print_ratio = true;
		} else if (!strcmp(arg, "--print-significance")) {
			a->opts.print_significance = true;
		} else if (!strcmp(arg, "--monitors")) {
			a->opts.monitors = true;
		} else if (!strcmp(arg, "--no-titles")) {
			a->ropts.titles = false;
		} else if (arg[0] == '-' && arg[1]) {
			return usage_error(&cmd_compare, "unknown option '%s'",
					   arg);
		} else {
			a->labels =
				xrealloc(a->labels, (a->labels_nr + 1) *
							    sizeof(*a->labels));
			a->labels[a->labels_nr++] = arg;
		}
	}
	if (a->labels_nr < 2)
		return usage_error(
			&cmd_compare,
			"need a baseline label and at least one more");
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
	only = xcalloc(a->runs_nr + 1, sizeof(*only));
	for (size_t k = 0; k < a->runs_nr; k++) {
		struct run_info ri = {0};

		if (!store_run_get(st, a->runs[k], &ri, NULL) &&
		    !strcmp(ri.label, label))
			only[only_nr++] = a->runs[k];
		run_info_release(&ri);
	}
	if (store_load_label(st, label, only, only_nr, a->opts.benchmark, rd,
			     &loaded, &err)) {
		error("%s", err.buf);
		goto out;
	}
	if (!loaded) {
		ret = usage_error(&cmd_compare,
				  "no runs with label '%s' in '%s'", label,
				  mmcmp_db_path());
		goto out;
	}
	ret = 0;
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

	for (size_t k = 0; k < a->runs_nr && !ret; k++) {
		struct run_info ri = {0};
		bool found = false;

		if (store_run_get(st, a->runs[k], &ri, &err)) {
			ret = usage_error(&cmd_compare, "--run %" PRId64 ": %s",
					  a->runs[k], err.buf);
			break;
		}
		for (size_t i = 0; i < a->labels_nr; i++)
			found |= !strcmp(ri.label, a->labels[i]);
		if (!found)
			ret = usage_error(
				&cmd_compare,
				"run %" PRId64
				" has label '%s', which is not compared",
				a->runs[k], ri.label);
		run_info_release(&ri);
	}
	strbuf_release(&err);
	return ret;
}

static int compare_main(int argc, char **argv)
{
	struct compare_args a = {
		.opts = COMPARE_OPTIONS_INIT,
		.format = RENDER_TEXT,
		.ropts = RENDER_OPTIONS_INIT,
	};
	struct compare_result res = COMPARE_RESULT_INIT;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct run_data *runs = NULL;
	struct store *st = NULL;
	int ret;

	a.ropts.titles = true;
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
	if (render(a.format, &res, &a.ropts, &out, &err)) {
		ret = error("%s", err.buf);
		goto out;
	}
	ret = write_output(a.output, &out);
out:
	compare_result_release(&res);
	for (size_t i = 0; runs && i < a.labels_nr; i++)
		run_data_release(&runs[i]);
	free(runs);
	free(a.labels);
	free(a.runs);
	store_close(st);
	strbuf_release(&out);
	strbuf_release(&err);
	return ret;
}

const struct cmd cmd_compare = {
	.name = "compare",
	.summary = "print the comparison table of stored labels",
	.usage = compare_usage,
	.run = compare_main,
};
