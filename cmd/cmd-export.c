/* mmcmp export: runs as JSON or CSV, for other tools and other machines. */
#include "cmd.h"

#include "compare.h"
#include "export.h"
#include "pool.h"
#include "run-data.h"
#include "store.h"
#include "strbuf.h"
#include "strvec.h"

static const char export_usage[] =
	"usage: mmcmp export json|csv|benchstat [options] [LABEL...]\n"
	"\n"
	"Write the runs of each LABEL (default: every run in the database).\n"
	"\n"
	"json  one mmcmp-export document (docs/export-format.md): per run its\n"
	"      uuid, label, status, times, config and machine, its operations\n"
	"      with unit, direction, decimals and a summary of their samples,\n"
	"      and every iteration with its outcome and samples in order.\n"
	"      mmcmp import reads it back, on this machine or another.\n"
	"csv   one row per sample of a measured iteration, in the columns\n"
	"      mmcmp import reads: label,benchmark,operation,value,unit,better,\n"
	"      decimals,iteration, of complete runs and their ok iterations\n"
	"      (what compare pools). The runs of a label are pooled, their\n"
	"      iterations numbered apart.\n"
	"benchstat  the Go benchmark format that benchstat reads: a\n"
	"      'label: LABEL' configuration line before each label's results,\n"
	"      one result line per measured iteration and operation name;\n"
	"      mmcmp import --from gobench --label-by label reads it back.\n";

struct export_args {
	const struct export_format *fmt;
	const char *benchmark;
	const char *base;
	const char *output;
	struct compare_options opts;
	char **labels; /* in argv */
	size_t labels_nr;
};

static const struct cmd_option export_option_table[] = {
	OPT_STRING("benchmark", 0, struct export_args, benchmark, "NAME",
		   "only this benchmark's operations and iterations"),
	OPT_STRING("compare", 0, struct export_args, base, "BASE",
		   "json: add the comparison of each other exported label with "
		   "BASE, as mmcmp compare --format json prints it, with the "
		   "test of the next three options"),
	OPT_INCLUDE(struct export_args, opts, compare_test_options),
	OPT_STRING("output", 'o', struct export_args, output, "FILE",
		   "write to FILE instead of stdout"),
	OPT_END(),
};

static int parse_args(int argc, char **argv, struct export_args *a)
{
	struct strbuf names = STRBUF_INIT;
	int ret = 0;

	argc = parse_cmd_options(&cmd_export, argc, argv, a);
	if (argc < 0)
		return 2;
	export_format_names(&names);
	if (argc < 2) {
		ret = usage_error(&cmd_export, "missing format: %s", names.buf);
		goto out;
	}
	a->labels = argv + 2;
	a->labels_nr = (size_t)argc - 2;
	a->fmt = export_format_find(argv[1]);
	if (!a->fmt)
		ret = usage_error(&cmd_export, "unknown format '%s' (%s)",
				  argv[1], names.buf);
	else if (a->opts.margin_pct < 0)
		ret = usage_error(&cmd_export, MARGIN_RULE, a->opts.margin_pct);
	else if (a->base && !a->fmt->compare)
		ret = usage_error(&cmd_export, "--compare needs json");
out:
	strbuf_release(&names);
	return ret;
}

static int cmp_id(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;

	return (a > b) - (a < b);
}

/*
 * The ids of the runs to export, oldest first: all, or those of the
 * labels. Returns 0, 2 after a usage message (unknown label) or 1.
 */
static int select_runs(struct store *st, const struct export_args *a,
		       int64_t **ids, size_t *nr)
{
	struct strbuf err = STRBUF_INIT;
	int64_t *want = NULL;
	size_t want_nr = 0, out = 0;
	int ret = 1;

	if (store_all_runs(st, ids, nr, &err)) {
		error("%s", err.buf);
		goto out;
	}
	for (size_t i = 0; i < a->labels_nr; i++) {
		int64_t *some = NULL;
		size_t n = 0;

		if (store_find_runs(st, a->labels[i], &some, &n, &err)) {
			error("%s", err.buf);
			goto out;
		}
		if (!n) {
			label_hint(st, a->labels[i], &err);
			ret = usage_error(&cmd_export,
					  "no runs with label '%s' in '%s'%s",
					  a->labels[i], mmcmp_db_path(),
					  err.buf);
			goto out;
		}
		want = xrealloc(want, (want_nr + n) * sizeof(*want));
		memcpy(want + want_nr, some, n * sizeof(*some));
		want_nr += n;
		free(some);
	}
	if (a->labels_nr) {
		qsort(want, want_nr, sizeof(*want), cmp_id);
		for (size_t i = 0; i < *nr; i++)
			if (bsearch(&(*ids)[i], want, want_nr, sizeof(*want),
				    cmp_id))
				(*ids)[out++] = (*ids)[i];
		*nr = out;
	}
	ret = 0;
out:
	free(want);
	strbuf_release(&err);
	return ret;
}

/*
 * Load the runs of label as mmcmp compare pools them (pool_load():
 * complete runs, iterations that succeeded). Returns 0, or the status
 * after printing why: 1, or 2 for a label without runs.
 */
static int load_label(struct store *st, const char *label, struct run_data *rd)
{
	struct strbuf err = STRBUF_INIT;
	size_t loaded = 0;
	int ret;

	if (pool_load(st, label, NULL, 0, NULL, false, rd, &loaded, &err))
		ret = error("%s", err.buf);
	else
		ret = pooled_label_error(&cmd_export, st, label, loaded,
					 &rd->notes);
	strbuf_release(&err);
	return ret;
}

/*
 * Add the comparison of BASE with every other label of runs[] (in the
 * order of their first run). Returns 0, 2 after a usage message or 1.
 */
static int add_compare(struct store *st, struct export_args *a,
		       const char *const *labels, size_t labels_nr,
		       struct export *ex)
{
	struct compare_result res = COMPARE_RESULT_INIT;
	struct strbuf err = STRBUF_INIT;
	struct run_data *rds = xcalloc(labels_nr + 1, sizeof(*rds));
	size_t nr = 0;
	int64_t *ids = NULL;
	size_t ids_nr = 0;
	int ret = 1;

	if (store_find_runs(st, a->base, &ids, &ids_nr, &err)) {
		error("%s", err.buf);
		goto out;
	}
	if (!ids_nr) {
		label_hint(st, a->base, &err);
		ret = usage_error(&cmd_export,
				  "--compare: no runs with label '%s'%s",
				  a->base, err.buf);
		goto out;
	}
	/*
	 * Every benchmark: the family of the tests is the whole comparison,
	 * --benchmark only picks what is shown (compare.h).
	 */
	ret = load_label(st, a->base, &rds[nr++]);
	for (size_t i = 0; !ret && i < labels_nr; i++)
		if (strcmp(labels[i], a->base))
			ret = load_label(st, labels[i], &rds[nr++]);
	if (ret)
		goto out;
	if (nr < 2) {
		ret = usage_error(&cmd_export,
				  "--compare: no exported label besides '%s'",
				  a->base);
		goto out;
	}
	a->opts.benchmark = a->benchmark;
	if (compare_runs(rds, nr, &a->opts, &res, &err)) {
		ret = usage_error(&cmd_export, "--compare: %s", err.buf);
		goto out;
	}
	export_add_compare(ex, &res);
	ret = 0;
out:
	compare_result_release(&res);
	for (size_t i = 0; i < nr; i++)
		run_data_release(&rds[i]);
	free(rds);
	free(ids);
	strbuf_release(&err);
	return ret;
}

/* Add label to labels unless it is there (few labels: a linear scan). */
static void note_label(struct strvec *labels, const char *label)
{
	for (size_t i = 0; i < labels->nr; i++)
		if (!strcmp(labels->v[i], label))
			return;
	strvec_push(labels, label);
}

static int export_main(int argc, char **argv)
{
	struct export_args a = {.opts = COMPARE_OPTIONS_INIT};
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct export *ex = NULL;
	struct strvec labels = STRVEC_INIT;
	struct run_full rf = {0};
	struct store *st = NULL;
	size_t nr = 0, exported = 0;
	int64_t *ids = NULL;
	int ret;

	ret = parse_args(argc, argv, &a);
	if (ret)
		goto out;
	st = store_open_read(mmcmp_db_path(), &err);
	if (!st) {
		ret = error("%s", err.buf);
		goto out;
	}
	ret = select_runs(st, &a, &ids, &nr);
	if (ret)
		goto out;
	ex = export_new(a.fmt);
	for (size_t i = 0; i < nr; i++) {
		ret = 1;
		if (store_run_load_full(st, ids[i], a.benchmark, &rf, &err)) {
			error("%s", err.buf);
			goto out;
		}
		if (!a.benchmark || rf.ops_nr || rf.iters_nr) {
			exported++;
			note_label(&labels, rf.info.label);
			export_add_run(ex, &rf);
		}
		run_full_release(&rf);
	}
	if (a.benchmark && !exported) {
		ret = usage_error(&cmd_export, "no runs with benchmark '%s'",
				  a.benchmark);
		goto out;
	}
	if (a.base) {
		ret = add_compare(st, &a, (const char *const *)labels.v,
				  labels.nr, ex);
		if (ret)
			goto out;
	}
	export_finish(ex, &out);
	ret = write_output(a.output, &out);
out:
	export_free(ex);
	run_full_release(&rf);
	strvec_clear(&labels);
	free(ids);
	store_close(st);
	strbuf_release(&out);
	strbuf_release(&err);
	return ret;
}

const struct cmd cmd_export = {
	.name = "export",
	.summary = "write runs as JSON or CSV for other tools and machines",
	.usage = export_usage,
	.options = export_option_table,
	.run = export_main,
};
