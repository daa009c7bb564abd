#ifndef MMCMP_WL_COMMON_H
#define MMCMP_WL_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

/*
 * wl-common: what the built-in workload programs share.
 *
 * Each program in workloads/ is a standalone executable that prints its
 * results on stdout and its errors on stderr, in the voice
 * "PROG: error: what went wrong", and exits with WL_EXIT_OK (0) on success,
 * WL_EXIT_FAILURE (1) when the workload itself failed and WL_EXIT_USAGE (2)
 * for a bad command line.
 *
 * The command line is scanned strictly: only "--name VALUE",
 * "--name=VALUE", flags "--name" and "-h"/"--help" are accepted; unknown
 * options, abbreviations and positional arguments are usage errors that
 * name the offending argument.
 */

enum {
	WL_EXIT_OK = 0,
	WL_EXIT_FAILURE = 1,
	WL_EXIT_USAGE = 2,
};

/* One long option of a program. */
struct wl_option {
	const char *name; /* without the leading "--" */
	bool takes_value;
};

/* Results of wl_args_next() other than an option index. */
enum {
	WL_ARGS_END = -1,   /* the command line is used up */
	WL_ARGS_HELP = -2,  /* -h or --help was given */
	WL_ARGS_ERROR = -3, /* a usage error was already printed */
};

/* The state of one scan of argv; set up with WL_ARGS_INIT. */
struct wl_args {
	const char *prog;  /* program name used in messages */
	const char *usage; /* one-line synopsis printed after errors */
	int argc;
	char **argv;
	int next; /* index of the next element of argv to look at */
};

#define WL_ARGS_INIT(prog, usage, argc, argv)                                  \
	{                                                                      \
		(prog), (usage), (argc), (argv), 1                             \
	}

/*
 * Return the index in `opts` (of `nr` entries) of the next option on the
 * command line and, for an option taking a value, point *value at it
 * (borrowed from argv). Returns one of the WL_ARGS_* values otherwise;
 * WL_ARGS_ERROR means the message and synopsis are already on stderr.
 */
int wl_args_next(struct wl_args *args, const struct wl_option *opts, size_t nr,
		 const char **value);

/*
 * How main() ends when the option scan stopped on opt, WL_ARGS_HELP or
 * WL_ARGS_ERROR: prints the synopsis and help_text on stdout and returns
 * WL_EXIT_OK for the first, returns WL_EXIT_USAGE (the error is already
 * on stderr) for the second.
 */
int wl_main_tail(const struct wl_args *args, int opt, const char *help_text);

/*
 * Print "PROG: error: MESSAGE" and the synopsis on stderr; returns
 * WL_EXIT_USAGE so callers can `return wl_usage_error(...)`.
 */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
int wl_usage_error(const struct wl_args *args, const char *fmt, ...);

/*
 * Report an unusable option value: "invalid value 'V' for --OPT (EXPECT)".
 * Returns WL_EXIT_USAGE.
 */
int wl_bad_value(const struct wl_args *args, const char *opt, const char *value,
		 const char *expect);

/* Print "PROG: error: MESSAGE" on stderr. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void wl_error(const char *prog, const char *fmt, ...);

/*
 * Parse a byte count: a decimal integer optionally followed by one of the
 * binary suffixes K, M, G, T (any case, optionally with "iB", or "B"
 * alone for bytes), e.g. "4096", "16M", "1GiB". The result must lie in
 * [min, max]. Returns false, leaving *out untouched, otherwise.
 */
bool wl_parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/* The CLOCK_MONOTONIC time in nanoseconds. */
int64_t wl_now_ns(void);

/* The difference b - a in seconds. */
double wl_timespec_diff(const struct timespec *a, const struct timespec *b);

/* The directory for temporary files: $TMPDIR if set and not empty, else /tmp.
 */
const char *wl_tmpdir(void);

/*
 * Catch SIGINT, SIGTERM and SIGHUP so that a program can clean up before
 * dying: the handler only records the signal, and blocking calls fail
 * with EINTR. Ignores SIGPIPE, so writes to a closed socket fail with
 * EPIPE instead. Returns 0, or -1 with errno set.
 */
int wl_catch_signals(void);

/* The number of the first caught signal, or 0 if none arrived. */
int wl_interrupted(void);
/*
 * Sleep until the absolute CLOCK_MONOTONIC time `when`, going on after
 * signals unless wl_interrupted(); 0, or -1 when interrupted or failed.
 */
struct timespec;
int wl_sleep_until(const struct timespec *when);

/*
 * If a signal was caught, restore its default action and raise it again,
 * so that the parent sees how the program ended. Returns if none was.
 */
void wl_reraise(void);

/*
 * The status a program's run ends with: status, or WL_EXIT_FAILURE after
 * "interrupted by signal N" when a signal was caught, which is raised
 * again first (see wl_reraise()).
 */
int wl_check_interrupted(const char *prog, int status);

/*
 * Flush stdout and check it for errors (a full disk, a closed pipe), so
 * that a lost result is a failure. Returns `status`, or WL_EXIT_FAILURE
 * after a message if stdout failed.
 */
int wl_finish_stdout(const char *prog, int status);

/*
 * Print the latency rows of a workload that times single operations:
 * "PREFIX-p50 V", "PREFIX-p90 V", "PREFIX-p99 V" and "PREFIX-max V", each
 * on its own line, in microseconds with three decimals, from the nr
 * latencies in nanoseconds at ns (sorted in place). Quantiles are the
 * nearest-rank ones (the smallest value with at least q of all at or
 * below it). Prints nothing for nr 0.
 */
void wl_print_latencies(const char *prefix, int64_t *ns, size_t nr);

/*
 * Wait for the n child processes at pids, called `what` and their index
 * in messages ("task 3"). Returns 0, or -1 when one could not be waited
 * for or was killed by a signal (a SIGKILL is said to be perhaps the OOM
 * killer's), or, with exit_fails, exited with a status other than 0;
 * each said on stderr as prog's.
 */
int wl_reap(const char *prog, const pid_t *pids, int n, const char *what,
	    bool exit_fails);

/*
 * The value of counter `name` in /proc/vmstat, or -1 if it cannot be read
 * or is not there.
 */
long long wl_vmstat(const char *name);

#endif /* MMCMP_WL_COMMON_H */
