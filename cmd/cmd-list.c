/* mmcmp list: the stored runs, one line each. */
#include "cmd.h"

#include "run-data.h"
#include "store.h"
#include "strbuf.h"

static const char list_usage[] =
	"usage: mmcmp list [--db PATH]\n"
	"\n"
	"List the stored runs, oldest first: id, label, start time (UTC),\n"
	"kernel release and host it ran on, config, measured iterations\n"
	"(failed ones in brackets), samples and status (running, complete,\n"
	"interrupted, failed, aborted).\n";

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

/* Widen *w to the length of s. */
static void widen(int *w, const char *s)
{
	int len = (int)strlen(s);

	if (len > *w)
		*w = len;
}

static int list_main(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT;
	struct run_rows rows = {0};
	struct run_info *info = NULL;
	struct store *st = NULL;
	int ret = 1;
	int lw = 5, kw = 6, hw = 4, cw = 6;

	argc = parse_cmd_options(&cmd_list, argc, argv, NULL);
	if (argc < 0)
		return 2;
	if (argc > 1)
		return usage_error(&cmd_list, "unexpected argument '%s'",
				   argv[1]);
	st = store_open(mmcmp_db_path(), &err);
	if (!st || store_list_runs(st, &rows, &err)) {
		error("%s", err.buf);
		goto out;
	}
	info = xcalloc(rows.nr + 1, sizeof(*info));
	for (size_t i = 0; i < rows.nr; i++) {
		if (store_run_get(st, rows.v[i].id, &info[i], &err)) {
			error("%s", err.buf);
			goto out;
		}
		widen(&lw, rows.v[i].label);
		widen(&kw, or_dash(info[i].machine.kernel_release));
		widen(&hw, or_dash(info[i].machine.hostname));
		widen(&cw, rows.v[i].config_name);
	}
	printf("%4s  %-*s  %-20s  %-*s  %-*s  %-*s  %10s  %9s  %s\n", "id", lw,
	       "label", "started", kw, "kernel", hw, "host", cw, "config",
	       "iterations", "samples", "status");
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
		printf("%4" PRId64
		       "  %-*s  %-20s  %-*s  %-*s  %-*s  %10s  %9" PRId64
		       "  %s\n",
		       r->id, lw, r->label, r->started_at, kw,
		       or_dash(info[i].machine.kernel_release), hw,
		       or_dash(info[i].machine.hostname), cw, r->config_name,
		       iters, r->samples, r->status);
	}
	ret = 0;
out:
	for (size_t i = 0; info && i < rows.nr; i++)
		run_info_release(&info[i]);
	free(info);
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
