/* mmcmp list: the stored runs, one line each. */
#include "cmd.h"

#include "store.h"
#include "strbuf.h"

static const char list_usage[] =
	"usage: mmcmp list [--db PATH]\n"
	"\n"
	"List the stored runs, oldest first: id, label, start time (UTC),\n"
	"config, measured iterations (failed ones in brackets), samples and\n"
	"status (running, complete, interrupted, failed, aborted).\n";

static int list_main(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT;
	struct run_rows rows = {0};
	struct store *st = NULL;
	int ret = 1;
	int lw = 5, cw = 6;

	argc = parse_cmd_options(&cmd_list, argc, argv, NULL);
	if (argc < 0)
		return 2;
	if (argc > 1)
		return usage_error(&cmd_list, "unexpected argument '%s'",
				   argv[1]);
	st = store_open_read(mmcmp_db_path(), &err);
	if (!st || store_list_runs(st, &rows, &err)) {
		error("%s", err.buf);
		goto out;
	}
	for (size_t i = 0; i < rows.nr; i++) {
		int l = (int)strlen(rows.v[i].label);
		int c = (int)strlen(rows.v[i].config_name);

		lw = l > lw ? l : lw;
		cw = c > cw ? c : cw;
	}
	printf("%4s  %-*s  %-20s  %-*s  %10s  %9s  %s\n", "id", lw, "label",
	       "started", cw, "config", "iterations", "samples", "status");
	for (size_t i = 0; i < rows.nr; i++) {
		const struct run_row *r = &rows.v[i];
		char iters[48];

		if (r->failed_iterations)
			snprintf(iters, sizeof(iters),
				 "%" PRId64 " (%" PRId64 ")", r->iterations,
				 r->failed_iterations);
		else
			snprintf(iters, sizeof(iters), "%" PRId64,
				 r->iterations);
		printf("%4" PRId64 "  %-*s  %-20s  %-*s  %10s  %9" PRId64
		       "  %s\n",
		       r->id, lw, r->label, r->started_at, cw, r->config_name,
		       iters, r->samples, r->status);
	}
	ret = 0;
out:
	run_rows_release(&rows);
	store_close(st);
	strbuf_release(&err);
	return ret;
}

const struct cmd cmd_list = {
	.name = "list",
	.summary = "list the stored runs",
	.usage = list_usage,
	.run = list_main,
};
