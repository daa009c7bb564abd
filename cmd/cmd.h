#ifndef MMCMP_CMD_H
#define MMCMP_CMD_H

#include <stdbool.h>

#include "parse-options.h"
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
 * 130 interrupted. Its options are a table (parse-options.h) that run()
 * hands to parse_cmd_options() and --help lists after the usage text.
 */
struct cmd {
	const char *name;
	const char *summary; /* one line for `mmcmp --help` */
	const char *usage; /* --help up to Options; starts with the synopsis */
	const struct cmd_option *options; /* ends with OPT_END(); or NULL */
	int (*run)(int argc, char **argv);
};

extern const struct cmd cmd_run, cmd_list, cmd_show, cmd_compare, cmd_import,
	cmd_export;
extern const struct cmd cmd_delete, cmd_relabel;
extern const struct cmd cmd_report;

/*
 * --test, --alpha and --no-fdr, into a struct compare_options: compare
 * and export include it in their tables (OPT_INCLUDE).
 */
extern const struct cmd_option compare_test_options[];

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
/*
 * Print the --help of cmd on stdout: cmd->usage, then "Options:" and the
 * lines options_help() makes of cmd->options, if it has any. Returns 0.
 */
int show_help(const struct cmd *cmd);
/*
 * Parse the options of cmd->options out of argv into dest, as
 * parse_options() does. Returns the new argc (argv[0] and the arguments
 * that are not options), or -1 after printing the usage error: the
 * command then exits with status 2.
 */
int parse_cmd_options(const struct cmd *cmd, int argc, char **argv, void *dest);

#endif /* MMCMP_CMD_H */
