/* mmcmp report: one self-contained HTML page with tables and charts. */
#include "cmd.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report.h"
#include "sha256.h"
#include "store.h"
#include "strbuf.h"

static const char report_usage[] =
	"usage: mmcmp report [options] BASE OTHER...\n"
	"\n"
	"Write one HTML file about labels BASE and OTHER...: the provenance of\n"
	"their runs, the tables of 'mmcmp compare --format html', a forest plot\n"
	"of the changes with their intervals, scaling curves where operations\n"
	"differ in one numeric job parameter, the unit values of each\n"
	"operation, run-order plots, monitor charts, and differential flame\n"
	"graphs of the profiles of mmcmp run --profile. The charts are inline\n"
	"SVG; the file fetches nothing. The default output is\n"
	"reports/BASE-vs-OTHER.html. Labels are pooled as compare pools them\n"
	"(complete runs, the iterations that succeeded), and every verdict,\n"
	"change and interval is compare's.\n";

struct report_args {
	struct report_options opts;
	const char *output;
};

static const struct cmd_option report_option_table[] = {
	OPT_INCLUDE(struct report_args, opts.compare, compare_test_options),
	OPT_FLAG("include-incomplete", 0, struct report_args,
		 opts.compare.include_incomplete, true,
		 "pool runs that are not complete and failed iterations "
		 "too (the footers say so)"),
	OPT_STRING("output", 'o', struct report_args, output, "FILE",
		   "write to FILE (- for stdout) instead of "
		   "reports/BASE-vs-OTHER.html"),
	OPT_END(),
};

/*
 * reports/BASE-vs-OTHER...html, with '/' and other odd bytes as '_', cut
 * to fit a file name.
 */
static void default_path(char **labels, size_t nr, struct strbuf *path)
{
	strbuf_addstr(path, "reports/");
	for (size_t i = 0; i < nr; i++) {
		if (i)
			strbuf_addstr(path, "-vs-");
		for (const char *p = labels[i]; *p; p++) {
			bool ok = (*p >= 'a' && *p <= 'z') ||
				  (*p >= 'A' && *p <= 'Z') ||
				  (*p >= '0' && *p <= '9') ||
				  strchr("-_.+", *p);

			strbuf_addch(path, ok ? *p : '_');
		}
	}
	/*
	 * The file and its temporary ".NAME.XXXXXX" must fit NAME_MAX (255):
	 * a long name is cut, with a hash of all of it to keep it apart.
	 */
	if (path->len - 8 + 5 + 8 > 255) {
		char hex[65];

		sha256_hex(path->buf, path->len, hex);
		strbuf_setlen(path, 8 + 255 - 8 - 5 - 17);
		strbuf_addf(path, "-%.16s", hex);
	}
	strbuf_addstr(path, ".html");
}

static int report_main(int argc, char **argv)
{
	struct report_args a = {.opts = REPORT_OPTIONS_INIT};
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT, path = STRBUF_INIT;
	struct report_label *labels = NULL;
	struct store *st = NULL;
	size_t nr = 0;
	int ret;

	argc = parse_cmd_options(&cmd_report, argc, argv, &a);
	if (argc < 0)
		return 2;
	if (argc < 3)
		return usage_error(
			&cmd_report,
			"need a baseline label and at least one more");
	if (a.opts.compare.margin_pct < 0)
		return usage_error(&cmd_report, MARGIN_RULE,
				   a.opts.compare.margin_pct);
	st = store_open_read(mmcmp_db_path(), &err);
	if (!st) {
		ret = error("%s", err.buf);
		goto out;
	}
	labels = xcalloc((size_t)argc - 1, sizeof(*labels));
	for (nr = 0; nr < (size_t)argc - 1; nr++) {
		size_t loaded = 0;

		if (report_label_load(st, argv[nr + 1],
				      a.opts.compare.include_incomplete,
				      &labels[nr], &loaded, &err)) {
			nr++;
			ret = error("%s", err.buf);
			goto out;
		}
		ret = pooled_label_error(&cmd_report, st, argv[nr + 1], loaded,
					 &labels[nr].pooled.notes);
		if (ret) {
			nr++;
			goto out;
		}
	}
	if (report_render(labels, nr, &a.opts, &out, &err)) {
		ret = usage_error(&cmd_report, "%s", err.buf);
		goto out;
	}
	if (!a.output) {
		default_path(argv + 1, nr, &path);
		if (mkdir("reports", 0777) && errno != EEXIST) {
			ret = error("cannot create 'reports': %s",
				    strerror(errno));
			goto out;
		}
		a.output = path.buf;
	}
	if (!strcmp(a.output, "-"))
		a.output = NULL; /* stdout */
	ret = write_output(a.output, &out);
	if (!ret && a.output)
		fprintf(stderr, "mmcmp: wrote '%s'\n", a.output);
out:
	for (size_t i = 0; labels && i < nr; i++)
		report_label_release(&labels[i]);
	free(labels);
	store_close(st);
	strbuf_release(&out);
	strbuf_release(&err);
	strbuf_release(&path);
	return ret;
}

const struct cmd cmd_report = {
	.name = "report",
	.summary = "write an HTML report with charts of stored labels",
	.usage = report_usage,
	.options = report_option_table,
	.run = report_main,
};
