/* mmcmp explain: where CPU time moved between two labels' profiles. */
#include "cmd.h"

#include <stdlib.h>
#include <string.h>

#include "explain-render.h"
#include "explain.h"
#include "store-profile.h"
#include "store.h"
#include "strbuf.h"

static const char explain_usage[] =
	"usage: mmcmp explain [options] BASE OTHER\n"
	"\n"
	"Compare the profiles that mmcmp run --profile stored for BASE and\n"
	"OTHER, job by job: for each symbol its share of the samples of each\n"
	"profiled iteration, self (it is the leaf) and total (anywhere on the\n"
	"stack), the difference of the mean shares in percentage points with\n"
	"Welch's interval over the iterations, Benjamini-Hochberg over the\n"
	"rows, ranked by the size of the difference; * marks a row whose\n"
	"share changed. Rows of symbols under 1% on both sides are not tested.\n"
	"With --by path, a row is a frame in its call path (main;work;f):\n"
	"total counts the samples whose stack starts with the path.\n"
	"\n"
	"Exit status: 0 compared, 1 a label has no profiles or the database\n"
	"cannot be read, 2 bad arguments or a label without runs.\n";

struct explain_args {
	const char *base, *other, *benchmark, *format, *by;
	double alpha;
	bool fdr;
	int64_t limit;
};

static const struct cmd_option explain_option_table[] = {
	OPT_STRING("benchmark", 0, struct explain_args, benchmark, "NAME",
		   "only the profiles of benchmark NAME"),
	OPT_STRING("format", 0, struct explain_args, format, "FORMAT",
		   "text (default) or json (an mmcmp-explain document)"),
	OPT_STRING("by", 0, struct explain_args, by, "KIND",
		   "rows by symbol (default) or by call path"),
	OPT_NUMBER(
		"alpha", 0, struct explain_args, alpha, "A", 0, 1,
		"significance level, the false discovery rate (default 0.05)"),
	OPT_FLAG("no-fdr", 0, struct explain_args, fdr, false,
		 "test each row at alpha, without Benjamini-Hochberg"),
	OPT_INT("limit", 0, struct explain_args, limit, "N", 0, 1000000,
		"text: at most N rows per job (default 20; 0: every tested row)"),
	OPT_END(),
};

static int parse_args(int argc, char **argv, struct explain_args *a)
{
	argc = parse_cmd_options(&cmd_explain, argc, argv, a);
	if (argc < 0)
		return 2;
	if (argc < 3)
		return usage_error(&cmd_explain, "missing %s",
				   argc == 2 ? "OTHER" : "BASE and OTHER");
	if (argc > 3)
		return usage_error(&cmd_explain, "unexpected argument '%s'",
				   argv[3]);
	a->base = argv[1];
	a->other = argv[2];
	if (a->format && strcmp(a->format, "text") && strcmp(a->format, "json"))
		return usage_error(&cmd_explain,
				   "unknown format '%s' (text, json)",
				   a->format);
	if (a->by && strcmp(a->by, "symbol") && strcmp(a->by, "path"))
		return usage_error(&cmd_explain,
				   "unknown --by '%s' (symbol, path)", a->by);
	return 0;
}

/*
 * The profiles of label into rows: 2 (printed) for a label without
 * runs, 1 for one without profiles or a store error, else 0.
 */
static int load(struct store *st, const char *label, const char *benchmark,
		struct profile_rows *rows)
{
	struct strbuf err = STRBUF_INIT;
	int64_t *ids = NULL;
	size_t nr = 0;
	int ret = 0;

	if (store_find_runs(st, label, &ids, &nr, &err) ||
	    (nr && store_profile_load(st, label, benchmark, rows, &err))) {
		ret = error("%s", err.buf);
	} else if (!nr) {
		label_hint(st, label, &err);
		ret = usage_error(&cmd_explain, "no runs labelled '%s'%s",
				  label, err.buf);
	} else if (!rows->nr) {
		ret = error("'%s' has no profiles%s%s: run it with mmcmp run "
			    "--profile",
			    label, benchmark ? " of " : "",
			    benchmark ? benchmark : "");
	}
	free(ids);
	strbuf_release(&err);
	return ret;
}

/* Whether profile r is of benchmark and job. */
static bool same_job(const struct profile_row *r, const char *benchmark,
		     const char *job)
{
	return !strcmp(r->benchmark, benchmark) && !strcmp(r->job, job);
}

/* Whether an earlier profile of rows than k is of k's job. */
static bool job_seen(const struct profile_rows *rows, size_t k)
{
	for (size_t i = 0; i < k; i++)
		if (same_job(&rows->v[i], rows->v[k].benchmark, rows->v[k].job))
			return true;
	return false;
}

static int render(const struct explain_args *args, const struct profile_rows *a,
		  const struct profile_rows *b)
{
	struct explain_table *t = xcalloc(a->nr + 1, sizeof(*t));
	enum explain_by by = args->by && !strcmp(args->by, "path")
				     ? EXPLAIN_BY_PATH
				     : EXPLAIN_BY_SYMBOL;
	struct explain_opts o = {args->base, args->other,	  args->alpha,
				 args->fdr,  (size_t)args->limit, by};
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	size_t nr = 0;
	int ret = 0;

	for (size_t k = 0; !ret && k < a->nr; k++) {
		bool both = false;

		for (size_t i = 0; i < b->nr; i++)
			both |= same_job(&b->v[i], a->v[k].benchmark,
					 a->v[k].job);
		if (!both || job_seen(a, k))
			continue;
		t[nr] = (struct explain_table){a->v[k].benchmark, a->v[k].job,
					       explain_new(by), NULL, 0};
		if (explain_add_job((struct explain *)t[nr].ex, a, b,
				    a->v[k].benchmark, a->v[k].job, &err))
			ret = error("%s", err.buf);
		t[nr].rows =
			explain_compute((struct explain *)t[nr].ex, args->alpha,
					args->fdr, &t[nr].rows_nr);
		nr++;
	}
	if (!ret && !nr)
		ret = error("'%s' and '%s' have no profiled job in common",
			    args->base, args->other);
	if (!ret && args->format && !strcmp(args->format, "json"))
		explain_render_json(t, nr, &o, &out);
	else if (!ret)
		explain_render_text(t, nr, &o, &out);
	fwrite(out.buf, 1, out.len, stdout);
	for (size_t i = 0; i < nr; i++)
		explain_free((struct explain *)t[i].ex);
	free(t);
	strbuf_release(&out);
	strbuf_release(&err);
	return ret;
}

static int explain_main(int argc, char **argv)
{
	struct explain_args args = {.alpha = 0.05, .fdr = true, .limit = 20};
	struct profile_rows a = {0}, b = {0};
	struct strbuf err = STRBUF_INIT;
	struct store *st = NULL;
	int ret = parse_args(argc, argv, &args);

	if (ret)
		return ret;
	st = store_open_read(mmcmp_db_path(), &err);
	if (!st) {
		ret = error("%s", err.buf);
		goto out;
	}
	ret = load(st, args.base, args.benchmark, &a);
	if (!ret)
		ret = load(st, args.other, args.benchmark, &b);
	if (!ret)
		ret = render(&args, &a, &b);
out:
	profile_rows_release(&a);
	profile_rows_release(&b);
	store_close(st);
	strbuf_release(&err);
	return ret;
}

const struct cmd cmd_explain = {
	.name = "explain",
	.summary = "where CPU time moved: profile shares of two labels",
	.usage = explain_usage,
	.options = explain_option_table,
	.run = explain_main,
};
