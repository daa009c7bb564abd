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
 * string in its docs/ page (a test compares the two). run() gets argv with the
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
	cmd_export, cmd_power;
extern const struct cmd cmd_campaign;
extern const struct cmd cmd_delete, cmd_relabel;
extern const struct cmd cmd_report;
extern const struct cmd cmd_bisect, cmd_bisect_step;
extern const struct cmd cmd_explain;

/*
 * --test, --alpha, --no-fdr, --unit and --margin, into a struct
 * compare_options: compare and export include it in their tables
 * (OPT_INCLUDE).
 */
extern const struct cmd_option compare_test_options[];
/*
 * The one message of --margin below 0 (compare and report), whose
 * argument is the value given; the option itself takes any number.
 */
#define MARGIN_RULE "option '--margin' needs a number of at least 0, not '%g'"

/* The database path: --db, else $MMCMP_DB, else the default. */
const char *mmcmp_db_path(void);

struct strbuf;

/*
 * Write sb to the file at path, or to stdout when path is NULL (stdout
 * errors are caught at exit). A regular file is replaced whole: sb goes
 * to a temporary file in the same directory, which is then renamed over
 * path, so a failure leaves the old file as it was. A path that is the
 * database or its -wal or -shm file (is_database_file()) is refused, and
 * so is an empty path. Returns 0, 1 after an error message, or 2 after
 * refusing the path.
 */
int write_output(const char *path, const struct strbuf *sb);
/*
 * Whether path is the database of mmcmp_db_path() or its -wal or -shm
 * file: the same device and inode when both exist, else the same path.
 */
bool is_database_file(const char *path);

struct store;

/*
 * When a label of st is close to label (names_closest()), append
 * "; did you mean 'CLOSE'?" to hint, for the error about an unknown
 * label; otherwise, or when the labels cannot be read, nothing.
 */
void label_hint(struct store *st, const char *label, struct strbuf *hint);

struct strvec;

/*
 * After pool_load() pooled `loaded` runs of label with notes:
 * 0 when loaded > 0; else print the error compare and report share and
 * return its status: 1 for a label whose runs were all left out ("label
 * 'L' has no complete run (NOTE); --include-incomplete uses it anyway"),
 * 2 for a label without runs (a usage error of cmd, with label_hint()).
 */
int pooled_label_error(const struct cmd *cmd, struct store *st,
		       const char *label, size_t loaded,
		       const struct strvec *notes);

/*
 * The usage error of cmd for a database that keeps nothing after mmcmp
 * exits (store_transient()): ":memory:", "" or an in-memory URI given
 * as --db. Returns 2.
 */
int transient_db_error(const struct cmd *cmd);

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
 * Put ctx ("in the quick line of FILE:LINE: ") before the message of
 * every usage_error() until it is called again with NULL; ctx must stay
 * valid until then.
 */
void usage_error_context(const char *ctx);
/*
 * The rule for a label that run or relabel gives: what names_check()
 * allows, and 1 to 200 bytes without a space, as labels head table
 * columns and name files. Returns 0, or 2 after a usage error of cmd.
 */
int check_new_label(const struct cmd *cmd, const char *label);
/*
 * The rule for a config's "# quick:" line, parsed into label, append and
 * replace: it changes what runs, never the label or what is kept, so
 * --label, --append and --replace are refused there. Returns 0, or 2
 * after a usage error of cmd.
 */
int check_quick_line(const struct cmd *cmd, const char *label, bool append,
		     bool replace);
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
