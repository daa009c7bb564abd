/* mmcmp list: the stored runs, one line each. */
#include "cmd.h"

#include "names.h"
#include "render-provenance.h"
#include "run-data.h"
#include "store.h"
#include "strbuf.h"

static const char list_usage[] =
	"usage: mmcmp list [--db PATH]\n"
	"\n"
	"List the stored runs, oldest first: id, label, start time (UTC),\n"
	"kernel release (the guest's for runs in VMs, \"(tcg)\" when its CPU\n"
	"was emulated) and host it ran on, config, measured iterations\n"
	"(failed ones in brackets), samples and status (running, complete,\n"
	"interrupted, failed, aborted).\n";

/* The columns that come from the runs, escaped for the terminal. */
enum list_column { COL_LABEL, COL_KERNEL, COL_HOST, COL_CONFIG, COL_NR };

/* s escaped (names_escape()), "-" when NULL or empty; caller frees. */
static char *escaped(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	if (!s || !*s)
		return xstrdup("-");
	names_escape(&sb, s, strlen(s));
	return strbuf_detach(&sb, NULL);
}

/*
 * The kernel column of a run: the guest's release for a run whose
 * iterations ran in boots, marked "(tcg)" when a boot was emulated, else
 * the host's; escaped, caller frees.
 */
static char *kernel_column(const struct run_info *ri,
			   const struct run_source *src)
{
	struct strbuf sb = STRBUF_INIT, accel = STRBUF_INIT;
	const char **accels;
	const char *release = NULL;

	if (!src->boots_nr)
		return escaped(ri->machine.kernel_release);
	accels = xcalloc(src->boots_nr, sizeof(*accels));
	for (size_t i = 0; i < src->boots_nr; i++) {
		accels[i] = src->boots[i].accel;
		if (!release && src->boots[i].guest_release)
			release = src->boots[i].guest_release;
	}
	if (release)
		names_escape(&sb, release, strlen(release));
	else
		strbuf_addstr(&sb, "guest");
	if (render_boots_accel(accels, src->boots_nr, &accel))
		strbuf_addstr(&sb, " (tcg)");
	free(accels);
	strbuf_release(&accel);
	return strbuf_detach(&sb, NULL);
}

static int list_main(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT;
	struct run_rows rows = {0};
	char *(*col)[COL_NR] = NULL;
	struct store *st = NULL;
	int ret = 1;
	int w[COL_NR] = {5, 6, 4, 6};

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
	col = xcalloc(rows.nr + 1, sizeof(*col));
	for (size_t i = 0; i < rows.nr; i++) {
		struct run_info ri = {0};
		struct run_source src = {0};

		if (store_run_get(st, rows.v[i].id, &ri, &err) ||
		    store_load_boots(st, rows.v[i].id, &src, &err)) {
			error("%s", err.buf);
			run_info_release(&ri);
			run_source_release(&src);
			goto out;
		}
		col[i][COL_LABEL] = escaped(rows.v[i].label);
		col[i][COL_KERNEL] = kernel_column(&ri, &src);
		run_source_release(&src);
		col[i][COL_HOST] = escaped(ri.machine.hostname);
		col[i][COL_CONFIG] = escaped(rows.v[i].config_name);
		run_info_release(&ri);
		for (int c = 0; c < COL_NR; c++)
			if ((int)strlen(col[i][c]) > w[c])
				w[c] = (int)strlen(col[i][c]);
	}
	printf("%4s  %-*s  %-20s  %-*s  %-*s  %-*s  %10s  %9s  %s\n", "id",
	       w[COL_LABEL], "label", "started", w[COL_KERNEL], "kernel",
	       w[COL_HOST], "host", w[COL_CONFIG], "config", "iterations",
	       "samples", "status");
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
		       r->id, w[COL_LABEL], col[i][COL_LABEL], r->started_at,
		       w[COL_KERNEL], col[i][COL_KERNEL], w[COL_HOST],
		       col[i][COL_HOST], w[COL_CONFIG], col[i][COL_CONFIG],
		       iters, r->samples, r->status);
	}
	ret = 0;
out:
	for (size_t i = 0; col && i < rows.nr; i++)
		for (int c = 0; c < COL_NR; c++)
			free(col[i][c]);
	free(col);
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
