#ifndef MMCMP_RUNNER_H
#define MMCMP_RUNNER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "strbuf.h"

/*
 * runner: run one command to completion and measure it.
 *
 * The child gets its own process group, stdin from /dev/null, stdout and
 * stderr through pipes. Stdout is kept up to `stdout_max` bytes and the
 * rest is read and dropped (out_truncated); stderr keeps only its last
 * `stderr_tail` bytes. On timeout, or when *stop becomes non-zero, the
 * whole group gets SIGTERM and, after `grace_s`, SIGKILL. When the child
 * exits, whatever is left of its process group is killed, so no process
 * outlives an iteration. Elapsed time is CLOCK_MONOTONIC (or the clock of
 * `ops`); user, system and max RSS come from wait4().
 *
 * runner_run() returns 0 when the command was started and waited for, even
 * if it failed: the outcome is in result->status. It returns -1, with one
 * line in err, only when it could not start anything (empty argv, pipe or
 * fork failure) or could not wait for the child (the caller set SIGCHLD to
 * SIG_IGN, so the kernel reaped it). A command that cannot be
 * executed (not found, no permission, bad cwd) gives RUNNER_EXEC with the
 * reason in result->err_tail, such as "cannot execute 'x': No such file
 * or directory".
 *
 * With `env`, argv[0] is searched in the PATH of `env`, or in ours when
 * `env` has none. *stop is looked at whenever a signal interrupts the
 * wait and at least every 100 ms. After the child is reaped, the pipes are
 * read for at most 100 ms more, so a process that escaped the group and
 * holds them open cannot hang the caller.
 */

struct runner_ops {
	/*
	 * Monotonic time in nanoseconds; tests substitute their own. It is
	 * read exactly twice per run, just before fork() and just after
	 * the reap, and only gives elapsed_s: timeouts and the grace
	 * period always use the real CLOCK_MONOTONIC.
	 */
	uint64_t (*now_ns)(void *ctx);
	void *ctx;
};

struct runner_opts {
	char *const *argv;	 /* argv[0] is looked up in PATH */
	char *const *env;	 /* whole child environment; NULL inherits */
	const char *cwd;	 /* NULL: inherit */
	double timeout_s;	 /* 0: no timeout */
	double grace_s;		 /* SIGTERM to SIGKILL; 0 means 5 s */
	size_t stdout_max;	 /* 0 means 64 MiB */
	size_t stderr_tail;	 /* 0 means 4 KiB */
	volatile sig_atomic_t *stop; /* may be NULL */
	const struct runner_ops *ops; /* NULL: the real clock */
};

enum runner_status {
	RUNNER_OK,	    /* exited with status 0 */
	RUNNER_EXIT,	    /* exited with a non-zero status */
	RUNNER_SIGNAL,	    /* killed by a signal it did not get from us */
	RUNNER_TIMEOUT,	    /* we killed it after timeout_s */
	RUNNER_INTERRUPTED, /* we killed it because *stop was set */
	RUNNER_EXEC,	    /* could not be executed */
};

struct runner_result {
	enum runner_status status;
	int exit_code;	 /* valid for RUNNER_OK and RUNNER_EXIT */
	int term_signal; /* valid for RUNNER_SIGNAL */
	double elapsed_s, user_s, sys_s;
	int64_t maxrss_kb;
	struct strbuf out;     /* captured stdout */
	bool out_truncated;
	struct strbuf err_tail; /* last bytes of stderr */
};

#define RUNNER_RESULT_INIT { .out = STRBUF_INIT, .err_tail = STRBUF_INIT }

int runner_run(const struct runner_opts *opts, struct runner_result *result,
	       struct strbuf *err);
/* Free the buffers; the result can be reused. NULL is a no-op. */
void runner_result_release(struct runner_result *result);
/* "ok", "exit", "signal", "timeout", "interrupted", "exec". */
const char *runner_status_name(enum runner_status status);

#endif /* MMCMP_RUNNER_H */
