/* mmcmp delete: remove a label's runs, or one run, from the database. */
#include "cmd.h"

#include "run-data.h"
#include "store.h"
#include "strbuf.h"

static const char delete_usage[] =
	"usage: mmcmp delete LABEL|--run ID\n"
	"\n"
	"Delete every run of LABEL, or run ID (which must be a run of LABEL\n"
	"when both are given), with all its iterations, samples and monitors,\n"
	"in one transaction. A run that is still running (its mmcmp process is\n"
	"alive) is refused and nothing is deleted; a run left \"running\" by a\n"
	"process that died can be deleted.\n";

struct delete_args {
	const char *label;
	int64_t run_id;
};

static const struct cmd_option delete_option_table[] = {
	OPT_INT("run", 0, struct delete_args, run_id, "ID", 1, INT64_MAX,
		"delete only run ID (see mmcmp list)"),
	OPT_END(),
};

static int parse_args(int argc, char **argv, struct delete_args *a)
{
	argc = parse_cmd_options(&cmd_delete, argc, argv, a);
	if (argc < 0)
		return 2;
	if (argc > 2)
		return usage_error(&cmd_delete, "unexpected argument '%s'",
				   argv[2]);
	if (argc == 2)
		a->label = argv[1];
	if (!a->label && !a->run_id)
		return usage_error(&cmd_delete, "missing LABEL or --run ID");
	return 0;
}

/* Delete run a->run_id, checking its label when one is given. */
static int delete_run(struct store *st, const struct delete_args *a,
		      struct strbuf *err)
{
	struct run_info ri;
	int ret = -1;

	if (store_run_get(st, a->run_id, &ri, err))
		goto out;
	if (a->label && strcmp(ri.label, a->label)) {
		error_addf(err, "label '%s' has no run %" PRId64, a->label,
			   a->run_id);
		goto out;
	}
	if (store_delete_run(st, a->run_id, err))
		goto out;
	printf("deleted run %" PRId64 " of '%s'\n", a->run_id, ri.label);
	ret = 0;
out:
	run_info_release(&ri);
	return ret;
}

/* Delete every run of a->label; a label without runs is an error. */
static int delete_label(struct store *st, const struct delete_args *a,
			struct strbuf *err)
{
	int64_t *ids = NULL;
	size_t nr = 0;
	int ret = -1;

	if (store_find_runs(st, a->label, &ids, &nr, err))
		goto out;
	if (!nr) {
		error_addf(err, "no runs with label '%s'", a->label);
		label_hint(st, a->label, err);
		goto out;
	}
	if (store_delete_label(st, a->label, err))
		goto out;
	printf("deleted %zu run%s of '%s'\n", nr, nr == 1 ? "" : "s", a->label);
	ret = 0;
out:
	free(ids);
	return ret;
}

static int delete_main(int argc, char **argv)
{
	struct delete_args args = {0};
	struct strbuf err = STRBUF_INIT;
	struct store *st = NULL;
	int ret;

	ret = parse_args(argc, argv, &args);
	if (ret)
		return ret;
	ret = 1;
	/* One group: the runs counted are the runs deleted. */
	st = store_open_read(mmcmp_db_path(), &err);
	if (!st || store_begin(st, &err) ||
	    (args.run_id ? delete_run(st, &args, &err)
			 : delete_label(st, &args, &err)) ||
	    store_commit(st, &err)) {
		error("%s", err.buf);
		goto out;
	}
	ret = 0;
out:
	if (st)
		store_rollback(st);
	store_close(st);
	strbuf_release(&err);
	return ret;
}

const struct cmd cmd_delete = {
	.name = "delete",
	.summary = "delete a label's runs or one run",
	.usage = delete_usage,
	.options = delete_option_table,
	.run = delete_main,
};
