/* mmcmp relabel: give a label's runs, or one run, another label. */
#include "cmd.h"

#include "parse-num.h"
#include "store.h"
#include "strbuf.h"

static const char relabel_usage[] =
	"usage: mmcmp relabel [--run ID] [--append] OLD NEW\n"
	"\n"
	"Give every run of label OLD, or only run ID of it, the label NEW, in\n"
	"one transaction. A run that is still running is refused and nothing\n"
	"changes. NEW must not have runs already, unless --append: compare and\n"
	"export then pool them with the moved ones.\n"
	"\n"
	"Options:\n"
	"  --run ID    move only run ID (see mmcmp list)\n"
	"  --append    add the runs to a label that already has results\n";

struct relabel_args {
	const char *old_label, *new_label;
	int64_t run_id;
	bool append;
};

/*
 * The rule of `mmcmp run --label`: 1 to 200 bytes, none a space or a
 * control character.
 */
static int check_label(const char *label)
{
	size_t len = strlen(label);

	if (!len || len > 200)
		return usage_error(&cmd_relabel,
				   "label '%.40s' is empty or longer than 200"
				   " bytes",
				   label);
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)label[i] <= ' ' || label[i] == 0x7f)
			return usage_error(&cmd_relabel,
					   "label '%s' contains a space or a"
					   " control character",
					   label);
	return 0;
}

static int parse_args(int argc, char **argv, struct relabel_args *a)
{
	for (int i = 1; i < argc; i++) {
		const char *v;
		bool missing = false;

		if ((v = opt_value(argv, argc, &i, "--run", &missing))) {
			if (!parse_int64(v, 1, INT64_MAX, &a->run_id))
				return usage_error(
					&cmd_relabel,
					"--run needs a run id, not '%s'", v);
		} else if (missing) {
			return usage_error(&cmd_relabel,
					   "option '%s' needs a value",
					   argv[i]);
		} else if (!strcmp(argv[i], "--append")) {
			a->append = true;
		} else if (argv[i][0] == '-') {
			return usage_error(&cmd_relabel, "unknown option '%s'",
					   argv[i]);
		} else if (!a->old_label) {
			a->old_label = argv[i];
		} else if (!a->new_label) {
			a->new_label = argv[i];
		} else {
			return usage_error(&cmd_relabel,
					   "unexpected argument '%s'", argv[i]);
		}
	}
	if (!a->new_label)
		return usage_error(&cmd_relabel, "missing %s",
				   a->old_label ? "NEW" : "OLD and NEW");
	return check_label(a->new_label);
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
	.run = relabel_main,
};
