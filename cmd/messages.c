/* The messages of the commands: errors, warnings, help and label hints. */
#include "cmd.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "names.h"
#include "store.h"
#include "strbuf.h"
#include "strvec.h"

int error(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("mmcmp: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("mmcmp: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int transient_db_error(const struct cmd *cmd)
{
	/* SQLite's in-memory and temporary databases go when mmcmp exits. */
	return usage_error(cmd,
			   "--db '%s' would throw the results away at exit;"
			   " give a database file",
			   mmcmp_db_path());
}

int show_help(const struct cmd *cmd)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, cmd->usage);
	if (cmd->options && cmd->options->type != OPTION_END) {
		strbuf_addstr(&sb, "\nOptions:\n");
		options_help(cmd->options, &sb);
	}
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
	return 0;
}

int check_new_label(const struct cmd *cmd, const char *label)
{
	struct strbuf err = STRBUF_INIT;

	if (!*label)
		return usage_error(cmd, "the label is empty");
	if (names_check(NAME_LABEL, label, &err)) {
		usage_error(cmd, "%s", err.buf);
		strbuf_release(&err);
		return 2;
	}
	if (strlen(label) > 200)
		return usage_error(cmd,
				   "label '%.20s...' is longer than 200 bytes",
				   label);
	for (const char *p = label; *p; p++)
		if ((unsigned char)*p < 0x21 || *p == 0x7f)
			return usage_error(
				cmd,
				"label '%s' contains a space or control character",
				label);
	return 0;
}

int check_quick_line(const struct cmd *cmd, const char *label, bool append,
		     bool replace)
{
	const char *opt = label	    ? "--label"
			  : append  ? "--append"
			  : replace ? "--replace"
				    : NULL;

	if (!opt)
		return 0;
	return usage_error(cmd,
			   "%s cannot be given there: a quick line changes "
			   "what runs, never the label or what it keeps",
			   opt);
}

int parse_cmd_options(const struct cmd *cmd, int argc, char **argv, void *dest)
{
	struct strbuf err = STRBUF_INIT;

	argc = parse_options(argc, argv, cmd->options, dest, 0, &err);
	if (argc < 0)
		usage_error(cmd, "%s", err.buf);
	strbuf_release(&err);
	return argc;
}

void label_hint(struct store *st, const char *label, struct strbuf *hint)
{
	struct run_rows rows = {0};
	const char **labels = NULL;
	const char *best;

	if (store_list_runs(st, &rows, NULL))
		goto out;
	labels = xcalloc(rows.nr + 1, sizeof(*labels));
	for (size_t i = 0; i < rows.nr; i++)
		labels[i] = rows.v[i].label;
	best = names_closest(label, labels, rows.nr);
	if (best) {
		strbuf_addstr(hint, "; did you mean '");
		names_escape(hint, best, strlen(best));
		strbuf_addstr(hint, "'?");
	}
out:
	free(labels);
	run_rows_release(&rows);
}

int pooled_label_error(const struct cmd *cmd, struct store *st,
		       const char *label, size_t loaded,
		       const struct strvec *notes)
{
	struct strbuf hint = STRBUF_INIT;
	int ret;

	if (loaded)
		return 0;
	if (notes->nr)
		return error("label '%s' has no complete run (%s); "
			     "--include-incomplete uses it anyway",
			     label, notes->v[0]);
	label_hint(st, label, &hint);
	ret = usage_error(cmd, "no runs with label '%s' in '%s'%s", label,
			  mmcmp_db_path(), hint.buf);
	strbuf_release(&hint);
	return ret;
}
