#ifndef MMCMP_RUNNER_H
#define MMCMP_RUNNER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "strbuf.h"

/*
 * runner: run one command to completion and measure it.
 *
 * Order of calls: runner_guard_start() once, optionally (struct
 * runner_guard), then runner_run() per command and runner_result_release()
 * on its result; runner_guard_stop() at the end. runner_run() returns 0
 * when it started and waited for the command, even if that failed (the
 * outcome is in result->status), and -1 with one line in err only when it
 * could not try; how the child is set up, timed, cut off and killed: at
 * runner_run().
 */

struct runner_ops {
	/*
	 * Monotonic time in nanoseconds; tests substitute their own. It is
	 * read exactly twice per spawn, just before the vfork() and just
	 * after the reap (or after the child said it could not start), and
	 * not at all when the cwd or argv[0] is found unusable first. It
	 * only gives elapsed_s: timeouts and the grace period always use
	 * the real CLOCK_MONOTONIC.
	 */
	uint64_t (*now_ns)(void *ctx);
	void *ctx;
};

struct runner_opts {
	char *const *argv;  /* argv[0] is looked up in the child's PATH */
	char *const *env;   /* whole child environment; NULL inherits */
	const char *cwd;    /* NULL: inherit */
	double timeout_s;   /* 0: no timeout */
	double grace_s;	    /* SIGTERM to SIGKILL; 0 means 5 s */
	size_t stdout_max;  /* 0 means 64 MiB */
	size_t stderr_tail; /* 0 means 4 KiB */
	volatile sig_atomic_t *stop;  /* may be NULL */
	const struct runner_ops *ops; /* NULL: the real clock */
	/*
	 * When tick is not NULL and tick_s > 0, tick(tick_ctx) is called
	 * every tick_s seconds of the real monotonic clock while the child
	 * runs, first tick_s after the start, but not once it is being
	 * killed. It runs in the wait loop, so the pipes are not read
	 * meanwhile: it must be quick (monitor_tick() takes ~0.1 ms).
	 */
	void (*tick)(void *tick_ctx);
	void *tick_ctx;
	double tick_s;
	/*
	 * cgroup.procs files (NULL-terminated; NULL or empty: none) of the
	 * cgroups to run the command in (cgroup.h). The child writes "0",
	 * itself, into each file before it executes the command, which so
	 * runs there from its first instruction. A write that fails
	 * gives RUNNER_EXEC with "cannot enter cgroup 'DIR': ..." in
	 * err_tail.
	 */
	const char *const *cgroup_procs;
	/* When not NULL and started, the guard runs the command (see there). */
	const struct runner_guard *guard;
	/*
	 * When not NULL, where argv[0] was last found (runner_lookup):
	 * taken while the same name, PATH and cwd still name an executable
	 * file there, so that the iterations of a run look the program up
	 * once, and run the same file.
	 */
	struct runner_lookup *lookup;
	/*
	 * Leave running, and do not count in strays, the processes that
	 * left the command's process group: a setup command that starts a
	 * service (a daemon in its own session) for the iterations.
	 */
	bool keep_daemons;
};

/*
 * A program runner_run() found (runner_opts.lookup), owned by the caller:
 * the name, the PATH and cwd it was looked up in (NULL: none), the file.
 */
struct runner_lookup {
	char *name, *path, *cwd, *file;
};

#define RUNNER_LOOKUP_INIT                                                     \
	{                                                                      \
		.name = NULL                                                   \
	}

void runner_lookup_release(struct runner_lookup *l);

/*
 * The guard: a process forked by runner_guard_start() that starts the
 * commands of runner_run() (opts.guard) in the caller's stead and is
 * their parent and child subreaper (PR_SET_CHILD_SUBREAPER), so that
 * every process a command leaves behind becomes the guard's child,
 * whatever process group or session it moved to (setsid, a daemon whose
 * parent exited). It runs in a session of its own, so that a signal to
 * the caller's whole process group (SIGKILL or SIGQUIT to -PGID, Ctrl-\)
 * leaves it alive, and ignores SIGINT, SIGTERM, SIGHUP, SIGQUIT and
 * SIGPIPE. It talks with the caller over a socket that only the caller
 * holds: the caller sends each command (argv, environment, cwd, cgroups,
 * and its stdout and stderr pipes, SCM_RIGHTS) and the signals for its
 * process group; the guard spawns it as runner_run() would, waits for
 * it, kills what is left of its group, reaps it with wait4(), sweeps its
 * other children as below, and sends back the wait status, the rusage
 * and its CLOCK_MONOTONIC just before the spawn and just after the reap,
 * so timing, rusage and output capture are those of a command the caller
 * runs itself. On end of file (the caller died, or runner_guard_stop())
 * it kills the group of the running command and the group it was told
 * of (runner_guard_tell()), then every descendant left, pass by pass
 * (a killed process's children become its own), reaps them and exits.
 * So nothing of a workload outlives a killed mmcmp.
 *
 * After each command, the guard kills and reaps every child of its that
 * started after the command, and counts in result->strays those that
 * had left the command's process group, such as a `setsid` daemon
 * (keep_daemons leaves those running, for a later teardown; they are
 * killed when the guard ends). The commands run in the guard's session,
 * without a controlling terminal (their stdin is /dev/null). Without a
 * guard, runner_run() starts the command itself and sweeps the caller's
 * children the same way, which finds what the command left only when the
 * caller is a child subreaper.
 */
struct runner_guard {
	int fd;	   /* our end of the socket, close-on-exec; -1: none */
	pid_t pid; /* the guard process */
};

#define RUNNER_GUARD_INIT                                                      \
	{                                                                      \
		.fd = -1, .pid = -1                                            \
	}

/* Start the guard; -1 with a line in err when socketpair or fork fails. */
int runner_guard_start(struct runner_guard *g, struct strbuf *err);
/*
 * Tell the guard the process group to kill should we die (0: none), for
 * processes started other than by runner_run(), such as a guest's qemu.
 */
void runner_guard_tell(const struct runner_guard *g, pid_t pgid);
/* Close the pipe and reap the guard; a stopped guard is a no-op. */
void runner_guard_stop(struct runner_guard *g);

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
	struct strbuf out; /* captured stdout */
	bool out_truncated;
	struct strbuf err_tail; /* last bytes of stderr */
	/*
	 * Processes of the command that had left its process group (setsid)
	 * and were killed after it; found only with a guard (see there).
	 */
	size_t strays;
};

#define RUNNER_RESULT_INIT                                                     \
	{                                                                      \
		.out = STRBUF_INIT, .err_tail = STRBUF_INIT                    \
	}

/*
 * Run opts->argv to completion into *result (RUNNER_RESULT_INIT, or a
 * result of an earlier call, whose buffers are reused).
 *
 * The child is started with vfork() (no page tables are copied; the
 * spawner waits until the child has executed the command or said why it
 * could not, through a close-on-exec pipe). It gets its own process
 * group, stdin from /dev/null, stdout and stderr through pipes (the
 * runner's other fds are close-on-exec), an empty signal mask, and the
 * default action for SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGALRM, SIGTERM,
 * SIGCHLD, SIGUSR1 and SIGUSR2. Stdout is kept up to `stdout_max` bytes
 * and the rest is read and dropped (out_truncated); stderr keeps only its
 * last `stderr_tail` bytes. On timeout, or when *stop becomes non-zero,
 * the whole group gets SIGTERM and, after `grace_s`, SIGKILL. When the
 * child exits, whatever is left of its process group is killed, and so
 * is what the guard (or the caller, as a child subreaper) adopted from
 * it meanwhile (see struct runner_guard), so no process outlives an
 * iteration. Elapsed time
 * is CLOCK_MONOTONIC (or the clock of `ops`); user, system and max RSS come
 * from wait4() (the guard's, with a guard). As the child starts in its
 * spawner's address space (ours, or the guard's), the kernel counts the
 * spawner's peak RSS into its max RSS: a few MiB for mmcmp, about 2 MiB
 * for the guard, which only shows for commands smaller than that.
 *
 * runner_run() returns 0 when the command was started and waited for, even
 * if it failed: the outcome is in result->status. It returns -1, with one
 * line in err, only when it could not try to start anything (empty argv,
 * no pipes, the spawn attributes could not be set up) or could not wait
 * for the child (the caller set SIGCHLD to SIG_IGN, so the kernel reaped
 * it). A command that cannot be executed gives RUNNER_EXEC with the reason
 * in result->err_tail: "cannot change directory to 'd': ..." for a bad
 * cwd, else "cannot execute 'x': ...", such as "No such file or
 * directory" or "Permission denied", also for an exec that fails past
 * the checks made before the spawn (ENOEXEC, ETXTBSY, E2BIG), which the
 * child reports through its pipe, and for a vfork() that fails (EAGAIN
 * at a process limit).
 *
 * argv[0] is resolved here, before the spawn, as execvp() would in the
 * child: a name with a slash is used as it is (relative to cwd, when set);
 * otherwise the directories of the PATH of `env` (of ours when `env` is
 * NULL or has none; "/bin:/usr/bin" when there is none at all) are tried
 * in order, skipping what is missing, not a regular file or not
 * executable. Unlike execvp(), a file the kernel cannot execute (ENOEXEC,
 * such as a script without "#!") is not handed to /bin/sh; it gives
 * RUNNER_EXEC. Nothing is cached between calls.
 *
 * *stop is looked at whenever a signal interrupts the wait and at least
 * every 100 ms. After the child is reaped, the pipes are read for at most
 * 100 ms more, so a process that escaped the group and holds them open
 * cannot hang the caller.
 */
int runner_run(const struct runner_opts *opts, struct runner_result *result,
	       struct strbuf *err);

/*
 * Find the file runner_run() executes for `name`, as described there: a
 * name with a slash is taken as it is, relative to cwd when cwd is not
 * NULL; otherwise each directory of `path` (NULL: "/bin:/usr/bin"; an
 * empty entry is the current directory, taken relative to cwd) is tried in
 * turn, skipping what is missing, not a regular file or not executable.
 * Returns 0 with the file in *file (replacing its contents), or an errno
 * value: EACCES when only unusable files were found (a directory, a file
 * without execute permission), ENOENT when none, or the error a name with
 * a slash gives. runner_run() uses it with the PATH of the child's
 * environment, so a check before the run agrees with the run itself.
 */
int runner_find_program(const char *name, const char *path, const char *cwd,
			struct strbuf *file);
/* Free the buffers; the result can be reused. NULL is a no-op. */
void runner_result_release(struct runner_result *result);
/* "ok", "exit", "signal", "timeout", "interrupted", "exec". */
const char *runner_status_name(enum runner_status status);

#endif /* MMCMP_RUNNER_H */
