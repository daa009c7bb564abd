#ifndef MMCMP_EXECUTOR_H
#define MMCMP_EXECUTOR_H

#include <signal.h>
#include <stdbool.h>

#include "runner.h"
#include "strbuf.h"

struct config;
struct machine_info;
struct monitor_record;
struct plan;
struct profile_request;
struct profile_result;
struct strvec;

/*
 * executor: where the session (session.h) runs its commands, one at a
 * time to completion: the local one (executor_local_new()) on this
 * machine with runner.c and monitor.c, the QEMU one (executor-qemu.h) in
 * a guest; executor_new() picks the one a config asks for. The session
 * decides what runs and what the results mean; the executor reports what
 * happened where it ran (struct executor_result) and the machine facts
 * stored with each run, so the session never reads /proc or forks. run()
 * returns 0 when it ran the command, whatever its outcome, or -1 with one
 * line in err when it could not try (the run cannot go on).
 */

/* One command to run. Everything is borrowed for the duration of run(). */
struct executor_request {
	char *const *argv;
	char *const *env; /* the whole environment; NULL: the executor's */
	const char *cwd;  /* NULL: the executor's */
	double timeout_s; /* 0: none */
	/* cgroup.procs files to enter before the exec (runner_opts). */
	const char *const *cgroup_procs;
	volatile sig_atomic_t *stop; /* set: stop the command (may be NULL) */
	bool monitor;		     /* take the monitors (an iteration) */
	bool keep_daemons;	     /* as runner_opts (a setup command) */
};

/*
 * What a command did: exit status, captured stdout, the tail of stderr,
 * elapsed time and resource usage, and, for an iteration, the monitor
 * snapshots (monitor.h) taken around it, with the counters of the cgroup
 * it ran in and how much of the machine others used. The result belongs
 * to the executor's caller, what `monitors` points to to the executor.
 * `run` is as runner_run() fills it. `monitors` is
 * NULL unless the request asked for monitors and they worked; it points
 * into the executor and stays valid until its next run() or free.
 * monitor_err says why the monitors failed (then monitors is NULL) or why
 * a periodic sample failed (then monitors holds the rest); empty when all
 * went well.
 */
struct executor_result {
	struct runner_result run;
	const struct monitor_record *monitors;
	struct strbuf monitor_err;
};

#define EXECUTOR_RESULT_INIT                                                   \
	{                                                                      \
		.run = RUNNER_RESULT_INIT, .monitor_err = STRBUF_INIT          \
	}

/* Free the buffers; the result can be reused. NULL is a no-op. */
void executor_result_release(struct executor_result *res);

struct executor;

/* What a boot was: provenance for the store, all owned here. */
struct executor_boot_info {
	long number;
	char *kernel;	     /* its name */
	char *image;	     /* path of the bzImage */
	char *image_sha256;  /* lowercase hex */
	char *image_release; /* from the image's setup header; may be NULL */
	char *append;	     /* the kernel command line mmcmp gave */
	char *qemu_version;  /* first line of qemu --version */
	char *qemu_cmdline;  /* the whole qemu command, shell-quoted */
	char *accel;	     /* "tcg" or "kvm" */
	int64_t cpus, memory_mb;
	double boot_s; /* from qemu's start to the agent's hello; <0: none */
	/* "vCPU0=CPU1 ..." as pinned, or "none: why"; NULL: not booted. */
	char *pinning;
	/* The guest's facts (uname -r, /proc/cmdline, ...), from its hello. */
	struct machine_info *guest; /* NULL when the agent never answered */
	/*
	 * The guest's watchdog as its hello names it: "Software Watchdog,
	 * 30 s", "none (...)", "off (...)"; NULL without a hello.
	 */
	char *watchdog;
	struct strbuf failed; /* why the boot failed; empty: it did not */
};

/* Free what info holds and zero it. NULL is a no-op. */
void executor_boot_info_release(struct executor_boot_info *info);

struct executor_ops {
	const char *name; /* "local" */
	/*
	 * Run req to completion into res (reset first). Called for setup
	 * and teardown commands as well as iterations; only iterations
	 * ask for monitors.
	 */
	int (*run)(struct executor *ex, const struct executor_request *req,
		   struct executor_result *res, struct strbuf *err);
	/*
	 * Fill mi (zeroed by the caller, released with
	 * machine_info_release()) with the facts of the machine the
	 * commands run on, for the run records.
	 */
	void (*machine)(struct executor *ex, struct machine_info *mi);
	/* Free ex and what it holds; stop whatever it started. */
	void (*free)(struct executor *ex);
	/*
	 * With kernels (NULL for the local executor): end the guest that
	 * runs, if any, and boot kernel `kernel` as boot `number` (1 for
	 * the run's first), filling *info (released by the caller with
	 * executor_boot_info_release()). A boot that fails (no agent in
	 * time, a panic, qemu dying) is not an error: info->failed says
	 * why and every command until the next boot fails with that
	 * reason. -1 only when nothing could be tried.
	 */
	int (*boot)(struct executor *ex, size_t kernel, long number,
		    struct executor_boot_info *info, struct strbuf *err);
	/*
	 * Run req's command sampled, as profile_run() (profile.h) does,
	 * where the executor runs its commands: NULL for the local one,
	 * whose are profile_run()'s own. req->cgroup_procs is the local
	 * executor's only. -1, with a line in err, when no profile could be
	 * taken; a failed boot is one.
	 */
	int (*profile)(struct executor *ex, const struct profile_request *req,
		       struct profile_result *out, struct strbuf *err);
};

/*
 * The common head of every executor; an implementation embeds it first
 * and casts back in its operations.
 */
struct executor {
	const struct executor_ops *ops;
};

/* Run req through ex's operations (see struct executor_ops). */
int executor_run(struct executor *ex, const struct executor_request *req,
		 struct executor_result *res, struct strbuf *err);
/* The machine facts of ex (see struct executor_ops). */
void executor_machine_info(struct executor *ex, struct machine_info *mi);
/* Free ex; NULL is a no-op. */
void executor_free(struct executor *ex);
/* Whether ex boots kernels (it has a boot operation). */
bool executor_boots(const struct executor *ex);
/* Boot through ex's operations (see struct executor_ops). */
int executor_boot(struct executor *ex, size_t kernel, long number,
		  struct executor_boot_info *info, struct strbuf *err);

/* Profile through ex's operations (see struct executor_ops). */
int executor_profile(struct executor *ex, const struct profile_request *req,
		     struct profile_result *out, struct strbuf *err);

/* How the local executor monitors the iterations it runs. */
struct executor_local_opts {
	bool monitors;	   /* take monitor snapshots of iterations */
	double interval_s; /* periodic samples this often; 0: none */
	size_t stdout_max; /* of each command, as runner_opts; 0: default */
	/* perf events of iterations (monitor_set_perf()); NULL: none */
	const struct strvec *perf_events;
	/*
	 * Count them in a cgroup of the iterations' own where one can be
	 * made (cgroup_create_own()), rather than per process tree; for
	 * commands that enter no cgroup v2 of the config's (`cgroup:`).
	 */
	bool perf_cgroup;
};

/*
 * The local executor: each command through runner_run(), under a guard
 * process (runner_guard_start()) that kills the running command if mmcmp
 * dies, and for iterations with the monitors begun before the command
 * starts, ticked from the runner's wait loop and ended after the reap.
 * Returns NULL, with a line in err, when the guard cannot be started;
 * the caller frees the result with executor_free().
 */
struct executor *executor_local_new(const struct executor_local_opts *opts,
				    struct strbuf *err);

/*
 * The executor cfg asks for, the one place that picks it (executor-new.c):
 * with kernels, the QEMU one (executor-qemu.h) booting them, every
 * program that plan runs (found in path, the PATH of its commands) packed
 * into its initramfs with the guest agent; else the local one, taking
 * the monitors as cfg says. NULL, with a line in err, when it cannot be
 * made; the caller frees the result with executor_free().
 */
struct executor *executor_new(const struct config *cfg, const struct plan *plan,
			      const char *path, struct strbuf *err);

#endif /* MMCMP_EXECUTOR_H */
