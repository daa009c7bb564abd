/* mmcmp: global options, command lookup and the final stdout check. */
#include "cmd.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mmcmp-version.h"
#include "names.h"
#include "store.h"
#include "strbuf.h"

#define DEFAULT_DB "mmcmp.db"

static const struct cmd *const commands[] = {
	&cmd_run,	  &cmd_list,	&cmd_show,     &cmd_compare,
	&cmd_import,	  &cmd_export,	&cmd_power,    &cmd_report,
	&cmd_delete,	  &cmd_relabel, &cmd_campaign, &cmd_bisect,
	&cmd_bisect_step, &cmd_explain,
};

static const char *db_path;
/* What usage_error() puts before its message (usage_error_context()). */
static const char *usage_context;

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

void usage_error_context(const char *ctx)
{
	usage_context = ctx;
}

int usage_error(const struct cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "mmcmp%s%s: error: %s", cmd ? " " : "",
		cmd ? cmd->name : "", usage_context ? usage_context : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fprintf(stderr, "usage: see 'mmcmp%s%s --help'\n", cmd ? " " : "",
		cmd ? cmd->name : "");
	return 2;
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
	strbuf_addstr(&sb,
		      "\n'mmcmp help COMMAND' prints the help of COMMAND.\n"
		      "\nGlobal options (before or after COMMAND):\n");
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

/* "unknown command 'NAME'", with the closest command as a hint. */
static int unknown_command(const char *name)
{
	const char *names[ARRAY_SIZE(commands) + 1];
	const char *best;

	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		names[i] = commands[i]->name;
	names[ARRAY_SIZE(commands)] = "help";
	best = names_closest(name, names, ARRAY_SIZE(names));
	if (best)
		return usage_error(NULL,
				   "unknown command '%s'; did you mean '%s'?",
				   name, best);
	return usage_error(NULL, "unknown command '%s'", name);
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

/*
 * Whether stdout is a pipe whose reader has gone (Linux reports POLLERR
 * on its write end), so that an EPIPE seen by an earlier write is known
 * after errno has moved on.
 */
static bool stdout_closed(void)
{
	struct pollfd p = {.fd = STDOUT_FILENO, .events = POLLOUT};

	return poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
}

/*
 * Flush stdout and report a write error (a full disk). A closed pipe
 * (mmcmp list | head) is not an error: the reader wanted no more, and
 * what mmcmp stored is stored, so the command's own status stands.
 */
static int finish_stdout(int status)
{
	if (fflush(stdout) || ferror(stdout)) {
		if (errno == EPIPE || stdout_closed())
			return status;
		fprintf(stderr, "mmcmp: error: cannot write output: %s\n",
			strerror(errno));
		return status ? status : 1;
	}
	return status;
}

int main(int argc, char **argv)
{
	struct global_args g = {0};
	const struct cmd *cmd = NULL;

	/*
	 * A closed stdout or stderr must not kill mmcmp halfway, after a
	 * run has been stored but before it says so or closes the database:
	 * writes fail with EPIPE instead (finish_stdout()). Children get
	 * SIGPIPE back (runner, executor-qemu).
	 */
	signal(SIGPIPE, SIG_IGN);
	argc = strip_global_options(argc, argv, &g);
	if (argc < 0)
		return 2;
	db_path = g.db;
	if (argc >= 2 && !strcmp(argv[1], "help")) {
		/* "mmcmp help [COMMAND]": the help of COMMAND, or mmcmp's. */
		if (argc > 3)
			return usage_error(NULL, "unexpected argument '%s'",
					   argv[3]);
		g.help = true;
		if (argc == 3) {
			cmd = find_command(argv[2]);
			if (!cmd)
				return unknown_command(argv[2]);
		}
	} else if (argc >= 2) {
		cmd = find_command(argv[1]);
		if (!cmd)
			return unknown_command(argv[1]);
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
	if (store_is_uri(mmcmp_db_path()))
		return usage_error(NULL,
				   "--db '%s' is a URI, not a file path; for a"
				   " file of that name give './%s'",
				   mmcmp_db_path(), mmcmp_db_path());
	return finish_stdout(cmd->run(argc - 1, argv + 1));
}
