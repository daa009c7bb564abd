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

bool is_help(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

int show_help(const struct cmd *cmd)
{
	fputs(cmd->usage, stdout);
	return 0;
}

const char *opt_value(char **argv, int argc, int *i, const char *name,
		      bool *missing)
{
	size_t len = strlen(name);
	const char *arg = argv[*i];

	if (strncmp(arg, name, len))
		return NULL;
	if (arg[len] == '=')
		return arg + len + 1;
	if (arg[len])
		return NULL;
	if (*i + 1 >= argc) {
		*missing = true;
		return NULL;
	}
	return argv[++*i];
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

static const char main_usage_tail[] =
	"\n"
	"Global options (before or after COMMAND):\n"
	"  --db PATH      the database; default $MMCMP_DB, else ./" DEFAULT_DB
	"\n"
	"  -h, --help     this text; 'mmcmp COMMAND --help' for a command\n"
	"  --version      print the version\n";

static void print_main_usage(FILE *f)
{
	fputs(main_usage_head, f);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-14s %s\n", commands[i]->name,
			commands[i]->summary);
	fputs(main_usage_tail, f);
}

static const struct cmd *find_command(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

/*
 * Take --db out of argv wherever it stands before a "--", so every command
 * accepts it before or after its name. Returns 0, or 2 after a message.
 */
static int strip_global_options(int *argc, char **argv)
{
	int out = 1;

	for (int i = 1; i < *argc; i++) {
		bool missing = false;
		const char *v;

		if (!strcmp(argv[i], "--")) {
			while (i < *argc)
				argv[out++] = argv[i++];
			break;
		}
		v = opt_value(argv, *argc, &i, "--db", &missing);
		if (missing)
			return usage_error(NULL, "option '--db' needs a path");
		if (v) {
			if (!*v)
				return usage_error(
					NULL, "option '--db' needs a path");
			db_path = v;
			continue;
		}
		argv[out++] = argv[i];
	}
	*argc = out;
	argv[out] = NULL;
	return 0;
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
	const struct cmd *cmd;
	int ret;

	ret = strip_global_options(&argc, argv);
	if (ret)
		return ret;
	if (argc < 2) {
		print_main_usage(stderr);
		return 2;
	}
	if (is_help(argv[1])) {
		print_main_usage(stdout);
		return finish_stdout(0);
	}
	if (!strcmp(argv[1], "--version")) {
		printf("mmcmp %s\n", MMCMP_VERSION);
		return finish_stdout(0);
	}
	if (!strcmp(argv[1], "help") && argc > 2 && find_command(argv[2]))
		return finish_stdout(show_help(find_command(argv[2])));
	cmd = find_command(argv[1]);
	if (!cmd)
		return usage_error(NULL, "unknown command '%s'", argv[1]);
	for (int i = 2; i < argc && strcmp(argv[i], "--"); i++)
		if (is_help(argv[i]))
			return finish_stdout(show_help(cmd));
	return finish_stdout(cmd->run(argc - 1, argv + 1));
}
