#ifndef MMCMP_SESSION_INTERNAL_H
#define MMCMP_SESSION_INTERNAL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan.h"
#include "runner.h"
#include "session.h"
#include "store.h"
#include "strbuf.h"
#include "strmap.h"
#include "strvec.h"
#include "until.h"

struct cgroup;
struct command_list;
struct extractor;
struct kv_list;
struct monitor_record;
struct settings;

/*
 * session-internal: the state of a session (session.h) and the parts of
 * the engine kept in their own files: session-iter.c runs and stores one
 * iteration, session-cmd.c the commands around the iterations,
 * session-held.c keeps what the locked database cannot take yet,
 * session-settings.c writes and puts back the kernel settings, and
 * session-boots.c goes boot by boot through guests.
 * Only session*.c include it. Functions returning int give 0, or -1 after
 * appending one line to err; warnings go through session_notify().
 */

/* How busy the machine was during a job's measured iterations. */
struct job_busy {
	size_t iterations, busy; /* monitored ones; above the threshold */
	double worst, load;	 /* highest other_cpu and load average */
};

/*
 * A job under `until`: the pilot's values the rule reads, and how the
 * job went.
 */
struct job_until {
	struct until_job rows;
	long ran;     /* measured iterations run, failed ones included */
	bool precise; /* stopped on precision */
};

/*
 * A finished iteration as the store takes it (store_iteration_add(),
 * store_monitor_add()): its record, its samples and its monitor record
 * (NULL: none). Everything is borrowed.
 */
struct finished_iter {
	struct iteration_rec rec;
	const struct sample_rec *samples;
	size_t samples_nr;
	const struct monitor_record *mon;
};

/*
 * A finished iteration kept in memory while another process holds the
 * database's write lock (a long import), stored once the lock frees. Its
 * record's benchmark, job, build and status strings are the plan's or
 * static; what `it` points to otherwise is owned here: the two strings,
 * the samples and the monitor record (whose names are s->held_names).
 */
struct held_iter {
	struct finished_iter it;
	char *stderr_tail, *started_at;
	struct sample_rec *samples;
	struct monitor_record *mon;
};

/* A run being recorded: one per build. */
struct live_run {
	struct session_summary sum;
	int64_t **op_ids;      /* per job (indexed by job), per metric */
	struct cgroup *cgroup; /* its workloads' cgroup (borrowed), or NULL */
	bool settings_stored;  /* its build's settings are recorded */
	size_t measured_ok;    /* measured iterations that succeeded */
	/* With --replace: the runs of its label when it was created. */
	int64_t *replaced;
	size_t replaced_nr;
};

struct session {
	const struct config *cfg;
	const struct plan *plan;
	struct store *st;
	struct session_opts opts;
	struct executor *ex;
	struct live_run *runs; /* plan->builds_nr of them */
	struct extractor **
		*extractors; /* per job, per metric (NULL: measured) */
	long measured;	     /* iterations per job after warm-ups */
	long pilot;	     /* `until`'s pilot, walked after the warm-ups */
	size_t total_iters, done_iters;
	double elapsed_sum;
	bool failed;	     /* session_run() failed */
	bool aborted;	     /* on_error: abort met a failure */
	bool monitor_warned; /* a monitor failure was reported */
	bool perf_warned;    /* absent perf events were reported */
	bool stop_warned;    /* the teardowns after a stop were announced */
	struct plan_walk walk;
	struct plan_step pending; /* a teardown step for session_finish() */
	bool has_pending;
	enum session_status status;
	/* The cgroups made, in order; builds may share the top-level one. */
	struct cgroup **cgroups;
	size_t cgroups_nr, cgroups_alloc;
	struct cgroup *top_cgroup; /* one of them, or NULL */
	/* The settings written: the config's, then those of one build. */
	struct settings *settings;
	size_t config_settings_nr;
	size_t settings_build; /* whose are applied; SIZE_MAX: none */
	struct job_busy *busy; /* per job */
	long boot;	       /* the guest boot running, 0: none */
	long *iter_base;  /* per kernel: iteration indexes used by its boots */
	double until_pct; /* 0: no stopping on precision */
	struct job_until *until; /* per job */
	/* Finished iterations not stored yet, oldest first. */
	struct held_iter *held;
	size_t held_first, held_nr, held_alloc, held_bytes;
	/* The monitor names of held records, each once. */
	struct strvec held_names;
	struct strmap held_name_index;
	/* What profile-job.c has said once. */
	bool profile_warned, profile_missing_warned;
};

/* Give the warning callback one line made from fmt. */
MMCMP_PRINTF(2, 3) void session_notify(struct session *s, const char *fmt, ...);

/* Whether flag (one of the opts' stop and cut, may be NULL) is set. */
bool session_flag_set(volatile sig_atomic_t *flag);

/* session.c: one step of the walk; -1 when the run cannot go on. */
int session_do_step(struct session *s, const struct plan_step *step,
		    struct strbuf *err);

/*
 * session-iter.c: run iteration `it` of job j and store it. Returns -1
 * only when the executor or the store fails (the run cannot go on); a
 * failing workload returns 0.
 */
int session_run_iteration(struct session *s, size_t j, long it,
			  struct strbuf *err);

/* session-cmd.c: how a command other than an iteration's workload ended. */
struct cmd_outcome {
	enum runner_status status;
	int exit_code, term_signal;
	struct strbuf why; /* "WHAT command 'X' failed (...)", or empty */
};

/* Warn that the command of `what` `name` left processes outside its group. */
void session_strays_warn(struct session *s, const struct runner_result *r,
			 const char *what, const char *name);

/* Run the setup commands of cl (what names them); -1 at the first failure. */
int session_run_commands(struct session *s, const struct command_list *cl,
			 const struct build_spec *b,
			 const struct workload_spec *wl, const char *what,
			 struct strbuf *err);

/*
 * Run the teardown commands of cl, each to its end even after a stop; a
 * failure is a warning, and the commands after it still run. After *cut,
 * each command left is skipped with a warning.
 */
void session_run_teardown(struct session *s, const struct command_list *cl,
			  const struct build_spec *b,
			  const struct workload_spec *wl, const char *what);

/*
 * Run the prepare hooks of job, the config's, the build's, then the
 * workload's, up to the first that fails or is interrupted (its outcome
 * left in *out), *levels set to how many of the three lists were begun.
 * Or run the conclude hooks of the first *levels lists, the other way
 * round, each failure a warning: as teardowns, each to its end after an
 * interrupt, skipped after a second one. Returns -1 only when the
 * executor fails.
 */
int session_run_hooks(struct session *s, const struct job *job, bool prepare,
		      size_t *levels, struct cmd_outcome *out,
		      struct strbuf *err);

/*
 * session-held.c: store a finished iteration, or, while another process
 * holds the lock past the busy timeouts, keep it in memory behind those
 * held already, so that none is lost and the run goes on; the held ones
 * are retried after each iteration and by session_store_held_wait().
 * -1 when the store fails otherwise, or past the bounds of what is held.
 */
int session_keep_iteration(struct session *s, const struct finished_iter *fi,
			   struct strbuf *err);

/*
 * At the end: wait, bounded by 10 minutes (or until *cut), for the lock
 * to free and store what is held; -1 when it did not.
 */
int session_store_held_wait(struct session *s, struct strbuf *err);

/* Free what is held, stored or not. */
void session_held_clear(struct session *s);

/*
 * session-settings.c: write the settings of kv, each recorded with the
 * runs of builds b0 up to b1 (exclusive), whose machine facts are then
 * read again; -1 at the first that fails.
 */
int session_apply_settings(struct session *s, const struct kv_list *kv,
			   size_t b0, size_t b1, struct strbuf *err);

/*
 * Make the settings of build b (SIZE_MAX: of none) the ones written over
 * the config's, putting back another build's first: with interleaving,
 * the builds take turns. With `late` (on the way out) a failure is a
 * warning and 0 is returned.
 */
int session_switch_settings(struct session *s, size_t b, bool late,
			    struct strbuf *err);

/* Put back every setting written, the newest first; failures warn. */
void session_restore_settings(struct session *s);

/* Put back, each with a warning, the settings of runs killed holding them. */
void session_recover_settings(struct session *s);

/* session.c: whether every metric of job j is precise enough to stop. */
bool session_until_precise(const struct session *s, size_t j);

/*
 * session-boots.c: the run boot by boot (opts.boot_order), each boot the
 * whole walk of its kernel's builds; -1 when the run cannot go on.
 */
int session_run_boots(struct session *s, struct strbuf *err);

#endif /* MMCMP_SESSION_INTERNAL_H */
