#ifndef MMCMP_CMD_H
#define MMCMP_CMD_H

#include <stdbool.h>

#include "util.h"

/*
 * cmd: the subcommands of the mmcmp executable.
 *
 * How to add a command: write cmd/cmd-NAME.c ending in
 * `const struct cmd cmd_NAME = { ... };`, declare it below, add it to
 * commands[] in mmcmp.c and to cmd/meson.build, and document its usage
 * string in README.md (a test compares the two). run() gets argv with the
 * command name in argv[0] and the global options already removed, and
 * returns the exit status: 0 success, 1 failure, 2 usage or bad input,
 * 130 interrupted.
 */
struct cmd {
	const char *name;
	const char *summary; /* one line for `mmcmp --help` */
	const char *usage; /* the full --help text; starts with the synopsis */
	int (*run)(int argc, char **argv);
};

extern const struct cmd cmd_run, cmd_list, cmd_show, cmd_compare, cmd_import,
	cmd_export;
extern const struct cmd cmd_delete, cmd_relabel;

/* The database path: --db, else $MMCMP_DB, else the default. */
const char *mmcmp_db_path(void);

struct strbuf;

/*
 * Write sb to the file at path (created or truncated), or to stdout when
 * path is NULL (stdout errors are caught at exit). Returns 0, or 1 after
 * an error message.
 */
int write_output(const char *path, const struct strbuf *sb);

/* Print "mmcmp: error: ..." on stderr; returns 1. */
MMCMP_PRINTF(1, 2) int error(const char *fmt, ...);
/* Print "mmcmp: warning: ..." on stderr. */
MMCMP_PRINTF(1, 2) void warning(const char *fmt, ...);
/*
 * Print "mmcmp CMD: error: ..." and "usage: see 'mmcmp CMD --help'" on
 * stderr; returns 2.
 */
MMCMP_PRINTF(2, 3) int usage_error(const struct cmd *cmd, const char *fmt, ...);
/* True when argv[i] is -h or --help. */
bool is_help(const char *arg);
/* Print cmd->usage on stdout; returns 0. */
int show_help(const struct cmd *cmd);
/*
 * Return the value of option `name` (e.g. "--label") at argv[*i]: either
 * "--label=X" or "--label X" (then *i advances). NULL when argv[*i] is not
 * that option, or when the value is absent: then *missing is set to true,
 * and left alone otherwise, so a chain of calls needs one check of it.
 */
const char *opt_value(char **argv, int argc, int *i, const char *name,
		      bool *missing);

#endif /* MMCMP_CMD_H */
