/* wl-common: argument scanning, sizes, clocks and signals for workloads/. */
#include "wl-common.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>

#include "parse-num.h"
#include "util.h"

/*
 * The first signal caught by wl_catch_signals(). A signal handler can only
 * talk to the program through a static flag; it is the one piece of
 * mutable global state here.
 */
static volatile sig_atomic_t caught_signal;

MMCMP_PRINTF(2, 0)
static void usage_vmsg(const struct wl_args *args, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: error: ", args->prog);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\nusage: %s\n", args->usage);
}

int wl_main_tail(const struct wl_args *args, int opt, const char *help_text)
{
	if (opt == WL_ARGS_HELP) {
		printf("usage: %s\n\n%s", args->usage, help_text);
		return WL_EXIT_OK;
	}
	if (opt != WL_ARGS_ERROR)
		BUG("option scan ended on %d", opt);
	return WL_EXIT_USAGE;
}

int wl_usage_error(const struct wl_args *args, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	usage_vmsg(args, fmt, ap);
	va_end(ap);
	return WL_EXIT_USAGE;
}

int wl_bad_value(const struct wl_args *args, const char *opt, const char *value,
		 const char *expect)
{
	return wl_usage_error(args, "invalid value '%s' for --%s (%s)", value,
			      opt, expect);
}

void wl_error(const char *prog, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: error: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int wl_args_next(struct wl_args *args, const struct wl_option *opts, size_t nr,
		 const char **value)
{
	const char *arg, *name, *eq;
	size_t len;

	*value = NULL;
	if (args->next >= args->argc)
		return WL_ARGS_END;
	arg = args->argv[args->next++];
	if (!strcmp(arg, "-h") || !strcmp(arg, "--help"))
		return WL_ARGS_HELP;
	if (arg[0] != '-') {
		wl_usage_error(args, "unexpected argument '%s'", arg);
		return WL_ARGS_ERROR;
	}
	if (arg[1] != '-' || !arg[2]) {
		wl_usage_error(args, "unknown option '%s'", arg);
		return WL_ARGS_ERROR;
	}
	name = arg + 2;
	eq = strchr(name, '=');
	len = eq ? (size_t)(eq - name) : strlen(name);
	for (size_t i = 0; i < nr; i++) {
		if (strlen(opts[i].name) != len ||
		    strncmp(opts[i].name, name, len) != 0)
			continue;
		if (!opts[i].takes_value) {
			if (eq) {
				wl_usage_error(args,
					       "option '--%s' takes no value",
					       opts[i].name);
				return WL_ARGS_ERROR;
			}
			return (int)i;
		}
		if (eq) {
			*value = eq + 1;
			return (int)i;
		}
		if (args->next >= args->argc) {
			wl_usage_error(args, "option '--%s' needs a value",
				       opts[i].name);
			return WL_ARGS_ERROR;
		}
		*value = args->argv[args->next++];
		return (int)i;
	}
	wl_usage_error(args, "unknown option '--%.*s'", (int)len, name);
	return WL_ARGS_ERROR;
}

bool wl_parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	static const struct {
		const char *suffix;
		uint64_t mult;
	} units[] = {
		{"", 1},
		{"b", 1},
		{"k", UINT64_C(1) << 10},
		{"kib", UINT64_C(1) << 10},
		{"m", UINT64_C(1) << 20},
		{"mib", UINT64_C(1) << 20},
		{"g", UINT64_C(1) << 30},
		{"gib", UINT64_C(1) << 30},
		{"t", UINT64_C(1) << 40},
		{"tib", UINT64_C(1) << 40},
	};
	char digits[32];
	size_t len = 0;
	int64_t num;

	if (!s)
		return false;
	while (s[len] >= '0' && s[len] <= '9')
		len++;
	if (!len || len >= sizeof(digits))
		return false;
	memcpy(digits, s, len);
	digits[len] = '\0';
	if (!parse_int64(digits, 0, INT64_MAX, &num))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		uint64_t v;

		if (strcasecmp(s + len, units[i].suffix) != 0)
			continue;
		if ((uint64_t)num > UINT64_MAX / units[i].mult)
			return false;
		v = (uint64_t)num * units[i].mult;
		if (v < min || v > max)
			return false;
		*out = v;
		return true;
	}
	return false;
}

int64_t wl_now_ns(void)
{
	struct timespec ts;

	/* CLOCK_MONOTONIC cannot fail with a valid pointer. */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

double wl_timespec_diff(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) +
	       (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

const char *wl_tmpdir(void)
{
	const char *dir = getenv("TMPDIR");

	return dir && *dir ? dir : "/tmp";
}

static void record_signal(int sig)
{
	if (!caught_signal)
		caught_signal = sig;
}

int wl_catch_signals(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a blocked sleep or read must return EINTR. */
	sa.sa_handler = record_signal;
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		if (sigaction(sigs[i], &sa, NULL))
			return -1;
	sa.sa_handler = SIG_IGN;
	return sigaction(SIGPIPE, &sa, NULL);
}

int wl_interrupted(void)
{
	return caught_signal;
}

void wl_reraise(void)
{
	int sig = caught_signal;

	if (!sig)
		return;
	fflush(stdout);
	signal(sig, SIG_DFL);
	raise(sig);
}

int wl_check_interrupted(const char *prog, int status)
{
	if (!wl_interrupted())
		return status;
	wl_error(prog, "interrupted by signal %d", wl_interrupted());
	wl_reraise();
	return WL_EXIT_FAILURE;
}

int wl_finish_stdout(const char *prog, int status)
{
	if (fflush(stdout) || ferror(stdout)) {
		wl_error(prog, "cannot write the results: %s", strerror(errno));
		return WL_EXIT_FAILURE;
	}
	return status;
}

static int cmp_int64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

void wl_print_latencies(const char *prefix, int64_t *ns, size_t nr)
{
	static const struct {
		const char *name;
		size_t permille;
	} rows[] = {{"p50", 500}, {"p90", 900}, {"p99", 990}, {"max", 1000}};

	if (!nr)
		return;
	qsort(ns, nr, sizeof(*ns), cmp_int64);
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		/* Nearest rank: ceil(q * nr), counted from 1. */
		size_t rank = (rows[i].permille * nr + 999) / 1000;

		printf("%s-%s %.3f\n", prefix, rows[i].name,
		       (double)ns[rank - 1] / 1e3);
	}
}

long long wl_vmstat(const char *name)
{
	FILE *f = fopen("/proc/vmstat", "r");
	size_t len = strlen(name);
	long long value = -1;
	char line[256];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, len) && line[len] == ' ') {
			char *end;

			errno = 0;
			value = strtoll(line + len + 1, &end, 10);
			if (errno || end == line + len + 1)
				value = -1;
			break;
		}
	fclose(f);
	return value;
}

int wl_sleep_until(const struct timespec *when)
{
	int ret;

	do {
		ret = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, when,
				      NULL);
	} while (ret == EINTR && !wl_interrupted());
	return ret ? -1 : 0;
}

int wl_reap(const char *prog, const pid_t *pids, int n, const char *what,
	    bool exit_fails)
{
	int ret = 0;

	for (int i = 0; i < n; i++) {
		int status;
		pid_t got;

		do {
			got = waitpid(pids[i], &status, 0);
		} while (got < 0 && errno == EINTR);
		if (got < 0) {
			wl_error(prog, "cannot wait for %s %d: %s", what, i,
				 strerror(errno));
			ret = -1;
		} else if (WIFSIGNALED(status)) {
			wl_error(prog, "%s %d killed by signal %d%s", what, i,
				 WTERMSIG(status),
				 WTERMSIG(status) == SIGKILL
					 ? " (the OOM killer?)"
					 : "");
			ret = -1;
		} else if (exit_fails && WEXITSTATUS(status)) {
			wl_error(prog, "%s %d exited with status %d", what, i,
				 WEXITSTATUS(status));
			ret = -1;
		}
	}
	return ret;
}
