#ifndef MMCMP_SESSION_H
#define MMCMP_SESSION_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strbuf;
struct strvec;
struct config;
struct plan;
struct store;
struct executor;
struct cgroup_spec;

/*
 * session: one `mmcmp run` of a plan (plan.h) into a store: a run record
 * per build, the builds' cgroups, kernel settings (settings.h) and
 * setup, teardown, prepare and conclude commands, and every iteration in
 * the order plan_walk_next() gives, run through an executor (executor.h),
 * its metrics extracted (extract.h) and stored at once. A session prints
 * nothing: the user hears of it through the progress and warning
 * callbacks of struct session_opts; what stops the run is the error of
 * session_run() or session_finish(). Functions returning int give 0, or
 * -1 after appending one line to err. The session borrows the config,
 * plan, store, executor and everything in its options; they must
 * outlive it. Use: session_new(); optionally session_check_labels();
 * session_run(); session_finish(), always, also after session_run()
 * failed; then the summaries; session_free().
 */
struct session;

/* Before an iteration starts. Pointers are valid during the call only. */
struct session_progress {
	size_t done, total; /* iterations finished, and of the whole run */
	double elapsed_s;   /* summed elapsed time of the finished ones */
	const char *label;
	const char *operation; /* the job's first */
	bool warmup;
	bool pilot;	   /* `until`'s pilot, which is not measured either */
	long index, count; /* 1-based, among the job's warm-ups or measured */
};

struct session_opts {
	char *const *labels; /* the label of each build of the plan */
	int iterations;	     /* measured per job; 0: the config's */
	bool append;	     /* a label may already have runs */
	bool replace;	     /* and they are deleted once this one completes */
	volatile sig_atomic_t *stop; /* stop the measurement; may be NULL */
	volatile sig_atomic_t *cut;  /* cut the teardowns short; may be NULL */
	const char *path; /* PATH of the commands; NULL: as inherited */
	/* Where the files of `settings:` are; NULL: "/" (tests: a tree). */
	const char *settings_root;
	void (*progress)(void *ctx, const struct session_progress *p);
	void (*warning)(void *ctx, const char *msg); /* one line, no '\n' */
	void *ctx;				     /* of both callbacks */
	/*
	 * With kernels (config_expand_kernels()): the kernel of each boot
	 * in order (config_boot_order()), boots_nr of them. Then the run
	 * goes boot by boot through an executor that boots
	 * (executor_boot()): each boot runs the whole walk of the builds
	 * of its kernel, setups, warm-ups, iterations and teardowns in the
	 * guest; each boot is stored (store_boot_add()) for every run of
	 * its kernel, and its iterations carry its number. NULL: one walk
	 * on the executor as it is.
	 */
	const size_t *boot_order;
	size_t boots_nr;
	long boot_base; /* boots are numbered from boot_base + 1 */
	bool profile;	/* run --profile: profiled iterations (profile-job.h) */
};

/* How a run ended, as its record says. */
enum session_status {
	SESSION_COMPLETE,
	SESSION_FAILED,
	SESSION_INTERRUPTED,
};

/* The outcome of one build's run. */
struct session_summary {
	const char *label;
	int64_t id;	   /* the stored run; 0 when none was created */
	size_t iterations; /* measured iterations stored */
	size_t failed;	   /* iterations (warm-ups too) that failed */
	size_t samples;	   /* of the measured iterations */
};

/* A new session; it copies opts (not what opts points to). */
struct session *session_new(const struct config *cfg, const struct plan *plan,
			    struct store *st, const struct session_opts *opts);
/* Free s; NULL is a no-op. */
void session_free(struct session *s);

/*
 * Set *taken to the first label that already has runs in the store when
 * neither append nor replace is set, else to NULL; with append or
 * replace, fail when a run of a label may not start now
 * (store_run_check_start()).
 */
int session_check_labels(struct session *s, const char **taken,
			 struct strbuf *err);

/*
 * Create the cgroups and run records, then run the setups and iterations
 * through ex (borrowed until session_free()). Returns -1 when the run
 * cannot go on: a cgroup, a setup command or the store failed.
 *
 * Before it makes its cgroups, it removes those that runs marked aborted
 * recorded and left (cgroup_recover_stale()), unless a run still running
 * records the same; what it cannot remove is a warning. The config's and
 * the builds' settings are written before the commands that run under
 * them and recorded with the runs; a setting that cannot be written
 * stops the run like a failing setup.
 *
 * A failing iteration does not stop the run (unless the config says
 * `on_error: abort`); it is stored with its status and counted, with a
 * warning. A failing prepare hook fails the iteration the same way (the
 * workload does not run; the iteration is stored with the hook's status
 * and message as its stderr tail); a failing conclude hook is a warning.
 * The run stops early when *stop becomes non-zero (the running iteration
 * or setup command is stopped and not stored), on the first failed
 * iteration with `on_error: abort`, and when a setup command or the
 * store fails. Other warnings: monitors that do not work; once per job,
 * other processes using more than MONITOR_BUSY_FRACTION of the machine
 * during its iterations; a network workload in a cgroup v1 memory cgroup
 * without tcp_limit.
 *
 * With the config's `until` (until.h), a job stops once its values are
 * precise enough; interleaved builds stop together; with kernels, boots
 * stop after a whole round of the kernels once every job of every kernel
 * is precise. Each run's setup records, at its end, how every job of its
 * build stopped.
 *
 * A finished iteration that cannot be stored because another process
 * holds the database's write lock past the busy timeouts
 * (store_iteration_add()) is kept in memory, with a warning, and the run
 * goes on; what is held is stored, oldest first, after each later
 * iteration (waiting only briefly for the lock) and in session_finish().
 * Past 100,000 held iterations or 256 MiB the run fails with an error
 * saying so.
 */
int session_run(struct session *s, struct executor *ex, struct strbuf *err);
/*
 * Run the teardowns still due, put back the settings, remove the cgroups
 * (what fails is a warning), store what is held and record the status of
 * each run: complete, failed or interrupted (and, with `replace`, delete
 * the label's older runs once the new one is complete). Returns -1 when
 * the records could not be updated.
 *
 * However the run stopped, the teardowns of what was set up run to
 * completion, each command under the config's timeout, and not under
 * *stop: only *cut cuts them short (the running teardown command is
 * stopped, the rest skipped, each with a warning). So a caller sets
 * *stop on the first interrupt and *cut on the second. Settings are put
 * back after the teardowns, also after an interrupt (or by
 * session_free(), when this was not called). Held iterations are waited
 * for up to 10 minutes for the lock (or until *cut), with a warning that
 * says how many are held; when the lock is still held after that, the
 * run fails with an error saying so.
 */
int session_finish(struct session *s, struct strbuf *err);

/* How the run ended; valid after session_finish(). */
enum session_status session_status(const struct session *s);
/* "complete", "failed" or "interrupted". */
const char *session_status_name(enum session_status status);
/* The number of builds' runs, and the summary of run b (borrowed). */
size_t session_runs_nr(const struct session *s);
const struct session_summary *session_summary(const struct session *s,
					      size_t b);

/*
 * Append to labels the label of each of the builds_nr builds of cfg's
 * plan: base, or base-BUILD when cfg has builds.
 */
void session_labels(const struct config *cfg, size_t builds_nr,
		    const char *base, struct strvec *labels);

/* The label of a run without --label: the running kernel's release. */
char *session_default_label(void);

/* The cgroup spec that build b's workloads run in, or NULL. */
const struct cgroup_spec *session_build_cgroup(const struct config *cfg,
					       size_t b);

#endif /* MMCMP_SESSION_H */
