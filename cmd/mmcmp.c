/* mmcmp: global options, command lookup and the final stdout check. */
#include "cmd.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mmcmp-version.h"
#include "strbuf.h"

#define DEFAULT_DB "mmcmp.db"

static const struct cmd *const commands[] = {
	&cmd_run,    &cmd_list,	  &cmd_show,   &cmd_compare,
	&cmd_import, &cmd_export, &cmd_delete, &cmd_relabel,
	&cmd_report,
};

static const char *db_path;

const char *mmcmp_db_path(void)
{
	const char *env;

	if (db_path)
		return db_path;
	env = getenv("MMCMP_DB");
	if (env && *env)
		return env;
	return DEFAULT_DB;
}

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

int usage_error(const struct cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "mmcmp%s%s: error: ", cmd ? " " : "",
		cmd ? cmd->name : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fprintf(stderr, "usage: see 'mmcmp%s%s --help'\n", cmd ? " " : "",
		cmd ? cmd->name : "");
	return 2;
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

int parse_cmd_options(const struct cmd *cmd, int argc, char **argv, void *dest)
{
	struct strbuf err = STRBUF_INIT;

	argc = parse_options(argc, argv, cmd->options, dest, 0, &err);
	if (argc < 0)
		usage_error(cmd, "%s", err.buf);
	strbuf_release(&err);
	return argc;
}

int write_output(const char *path, const struct strbuf *sb)
{
	FILE *f;
	bool bad;

	if (!path) {
		fwrite(sb->buf, 1, sb->len, stdout);
		return 0;
	}
	f = fopen(path, "w");
	if (!f)
		return error("cannot open '%s': %s", path, strerror(errno));
	bad = fwrite(sb->buf, 1, sb->len, f) != sb->len;
	if (fclose(f))
		bad = true;
	if (bad)
		return error("cannot write '%s': %s", path, strerror(errno));
	return 0;
}

static const char main_usage_head[] =
	"usage: mmcmp [--db PATH] COMMAND [ARGS...]\n"
	"\n"
	"Run kernel benchmark workloads, keep every sample in SQLite and print\n"
	"mmtests-style comparison tables.\n"
	"\n"
	"Commands:\n";

/* The global options: before or after the command, not after "--". */
struct global_args {
	const char *db;
	bool help, version;
};

static const struct cmd_option global_options[] = {
	OPT_STRING("db", 0, struct global_args, db, "PATH",
		   "the database; default $MMCMP_DB, else ./" DEFAULT_DB),
	OPT_FLAG("help", 'h', struct global_args, help, true,
		 "this text; 'mmcmp COMMAND --help' for a command"),
	OPT_FLAG("version", 0, struct global_args, version, true,
		 "print the version"),
	OPT_END(),
};

static void print_main_usage(FILE *f)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, main_usage_head);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		strbuf_addf(&sb, "  %-14s %s\n", commands[i]->name,
			    commands[i]->summary);
	strbuf_addstr(&sb, "\nGlobal options (before or after COMMAND):\n");
	options_help(global_options, &sb);
	fputs(sb.buf, f);
	strbuf_release(&sb);
}

static const struct cmd *find_command(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

/*
 * Take the global options out of argv wherever they stand before a "--",
 * so that every command accepts them before or after its name. Returns
 * the new argc, or -1 after a message.
 */
static int strip_global_options(int argc, char **argv, struct global_args *g)
{
	struct strbuf err = STRBUF_INIT;

	argc = parse_options(argc, argv, global_options, g,
			     PARSE_OPT_KEEP_UNKNOWN | PARSE_OPT_KEEP_DASHDASH,
			     &err);
	if (argc >= 0 && g->db && !*g->db) {
		error_addf(&err, "option '--db' needs a path");
		argc = -1;
	}
	if (argc < 0)
		usage_error(NULL, "%s", err.buf);
	strbuf_release(&err);
	return argc;
}

/* Flush stdout and report a write error (a full disk, a closed pipe). */
static int finish_stdout(int status)
{
	if (fflush(stdout) || ferror(stdout)) {
		if (errno != EPIPE)
			fprintf(stderr,
				"mmcmp: error: cannot write output: %s\n",
				strerror(errno));
		return status ? status : 1;
	}
	return status;
}

int main(int argc, char **argv)
{
	struct global_args g = {0};
	const struct cmd *cmd = NULL;

	argc = strip_global_options(argc, argv, &g);
	if (argc < 0)
		return 2;
	db_path = g.db;
	if (argc >= 2) {
		cmd = find_command(argv[1]);
		if (!strcmp(argv[1], "help") && argc > 2) {
			cmd = find_command(argv[2]);
			g.help = true;
		}
		if (!cmd)
			return usage_error(NULL, "unknown command '%s'",
					   argv[1]);
	}
	if (g.help) {
		if (cmd)
			return finish_stdout(show_help(cmd));
		print_main_usage(stdout);
		return finish_stdout(0);
	}
	if (g.version) {
		printf("mmcmp %s\n", MMCMP_VERSION);
		return finish_stdout(0);
	}
	if (!cmd) {
		print_main_usage(stderr);
		return 2;
	}
	return finish_stdout(cmd->run(argc - 1, argv + 1));
}
