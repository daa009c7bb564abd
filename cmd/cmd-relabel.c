/* mmcmp relabel: give a label's runs, or one run, another label. */
#include "cmd.h"

#include "store.h"
#include "strbuf.h"

static const char relabel_usage[] =
	"usage: mmcmp relabel [--run ID] [--append] OLD NEW\n"
	"\n"
	"Give every run of label OLD, or only run ID of it, the label NEW, in\n"
	"one transaction. A run that is still running is refused and nothing\n"
	"changes, and so is NEW while a run --replace of it runs. NEW must not\n"
	"have runs already, unless --append: compare and export then pool them\n"
	"with the moved ones.\n";

struct relabel_args {
	const char *old_label, *new_label;
	int64_t run_id;
	bool append;
};

static const struct cmd_option relabel_option_table[] = {
	OPT_INT("run", 0, struct relabel_args, run_id, "ID", 1, INT64_MAX,
		"move only run ID (see mmcmp list)"),
	OPT_FLAG("append", 0, struct relabel_args, append, true,
		 "add the runs to a label that already has results"),
	OPT_END(),
};

static int parse_args(int argc, char **argv, struct relabel_args *a)
{
	argc = parse_cmd_options(&cmd_relabel, argc, argv, a);
	if (argc < 0)
		return 2;
	if (argc < 3)
		return usage_error(&cmd_relabel, "missing %s",
				   argc == 2 ? "NEW" : "OLD and NEW");
	if (argc > 3)
		return usage_error(&cmd_relabel, "unexpected argument '%s'",
				   argv[3]);
	a->old_label = argv[1];
	a->new_label = argv[2];
	return check_new_label(&cmd_relabel, a->new_label);
}

/* Whether label has runs; true when that cannot be read. */
static bool has_runs(struct store *st, const char *label)
{
	int64_t *ids = NULL;
	size_t nr = 1;

	if (store_find_runs(st, label, &ids, &nr, NULL))
		nr = 1;
	free(ids);
	return nr > 0;
}

static int relabel_main(int argc, char **argv)
{
	struct relabel_args args = {0};
	struct strbuf err = STRBUF_INIT;
	struct store *st = NULL;
	size_t moved = 0;
	int ret;

	ret = parse_args(argc, argv, &args);
	if (ret)
		return ret;
	ret = 1;
	st = store_open_read(mmcmp_db_path(), &err);
	if (!st || store_relabel(st, args.old_label, args.new_label,
				 args.run_id, args.append, &moved, &err)) {
		if (st && !args.run_id && !has_runs(st, args.old_label))
			label_hint(st, args.old_label, &err);
		error("%s", err.buf);
		goto out;
	}
	printf("moved %zu run%s from '%s' to '%s'\n", moved,
	       moved == 1 ? "" : "s", args.old_label, args.new_label);
	ret = 0;
out:
	store_close(st);
	strbuf_release(&err);
	return ret;
}

const struct cmd cmd_relabel = {
	.name = "relabel",
	.summary = "give a label's runs, or one run, another label",
	.usage = relabel_usage,
	.options = relabel_option_table,
	.run = relabel_main,
};
