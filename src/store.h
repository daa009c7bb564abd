#ifndef MMCMP_STORE_H
#define MMCMP_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strbuf;
struct run_info;
struct run_data;
struct monitor_record;
struct strvec;
struct machine_info;

/*
 * store: the SQLite database of runs, operations, iterations and samples
 * (schema in db/schema.sql, migrations in db/migrations/); SQLite is used
 * only in store*.c. It returns rows and text: what they mean for pooling
 * is pool.h's. Functions returning int give 0 on success and -1 on
 * failure, appending one line without '\n' to err and leaving the
 * database as it was (each call is atomic; store_begin() groups calls).
 * Several processes may share a database (store_open()); a struct store
 * is used by one thread at a time. Open with store_open() or
 * store_open_read(), close with store_close().
 */
struct store;

/*
 * Open the database at path for writing (`run`, `import`, ...), creating
 * it when it does not exist or is an empty file (":memory:" works): set
 * WAL mode and a busy timeout, and apply pending migrations. A database
 * written by a newer mmcmp, or a file of another application, is refused.
 * Runs left "running" by a process that no longer exists are marked
 * "aborted". NULL on failure; free the result with store_close().
 *
 * A writer waits up to 10 s for another (store_iteration_add() longer);
 * readers never wait for writers. An mmcmp database carries PRAGMA
 * application_id "mmcp" (0x6d6d6370, from migration 0003; older ones are
 * known by their schema version and tables). Any other SQLite file that
 * holds tables is refused, by name, and left untouched. Every commit
 * first checks that the path still names the file opened (device and
 * inode): a database deleted or replaced while in use fails the commit
 * with "database 'X' was deleted or replaced while mmcmp was using it"
 * rather than writing where nobody will read. The first such failure
 * renames the -wal file, when it is still this database's, to
 * X-wal.stale.PID and removes its -shm file, and the message says so:
 * the next open of X would replay them into the file now there.
 * A file SQLite can open only read-only is refused ("database 'X' is
 * read-only (REASON)"), as is a "file:" URI (store_is_uri()).
 */
struct store *store_open(const char *path, struct strbuf *err);
/*
 * Open the database at path for reading (`list`, `show`, `compare`,
 * `export`, `power`, `report`): it never creates a file ("no database at
 * 'X'" when path does not exist) and checks the schema in a read transaction,
 * so it does not wait for a writer. It writes only to upgrade an older mmcmp
 * database and to mark the runs of dead processes aborted, and only when it
 * can: a file or directory it cannot write (a read-only file system, another
 * user's file, a full file system where SQLite cannot make the -shm
 * file) is opened read-only (a -wal file without its -shm file
 * is read too, with the WAL index in memory), and runs it cannot mark
 * (read-only, or the lock held by a writer for more than 0.1 s) are shown as
 * "aborted" by store_run_get() and store_list_runs() without being
 * written. An older schema in a read-only file is an error. ":memory:"
 * opens as store_open() does. Commands that change only what exists
 * (`delete`, `relabel`) use it too: for them a missing file is an error,
 * not a new database. NULL on failure; free with store_close().
 */
struct store *store_open_read(const char *path, struct strbuf *err);
/* Close; NULL is a no-op. */
void store_close(struct store *st);
/*
 * Whether path would be taken by SQLite as a URI ("file:..."): such a
 * path is refused by store_open() and store_open_read(), so that it has
 * one meaning for writers and readers, a file name ("./file:x" is one).
 */
bool store_is_uri(const char *path);
/*
 * Whether st keeps nothing once closed: an in-memory or temporary
 * database, as SQLite opens for ":memory:" and "". Writers that must
 * keep their results refuse it.
 */
bool store_transient(const struct store *st);

/*
 * Set how long a call waits for a lock held by another connection before
 * it fails: 10000 ms after opening (tests shorten it).
 */
int store_set_busy_timeout(struct store *st, int timeout_ms,
			   struct strbuf *err);
/* The busy timeout in force, in milliseconds (store_set_busy_timeout()). */
int store_busy_timeout(const struct store *st);
/*
 * Whether the last failed call failed because another connection held
 * the lock (SQLITE_BUSY or SQLITE_LOCKED) past the busy timeout. Nothing
 * of that call was stored: the caller may keep its data and try again.
 */
bool store_busy(const struct store *st);

/*
 * Run one or more SQL statements that return no rows (test fixtures,
 * maintenance). Atomic like every other call.
 */
int store_exec(struct store *st, const char *sql, struct strbuf *err);

/*
 * Set *out to the integer in the first column of the first row that the
 * single statement sql returns, or to 0 when it returns none (checks and
 * tests: counts, PRAGMA user_version).
 */
int store_query_int64(struct store *st, const char *sql, int64_t *out,
		      struct strbuf *err);

/*
 * Append the schema of the database to out: the CREATE statement of every
 * table and index, in name order, each followed by ";\n". The migration
 * test compares it with db/schema.sql.
 */
int store_schema(struct store *st, struct strbuf *out, struct strbuf *err);

/*
 * Open a group (a write transaction; it fails when one is open already)
 * and commit it. A failed commit rolls the group back. A failed call
 * inside the group rolls back only its own part; store_rollback() undoes
 * the whole group.
 */
int store_begin(struct store *st, struct strbuf *err);
int store_commit(struct store *st, struct strbuf *err);
/* Undo the open transaction; never fails visibly. */
void store_rollback(struct store *st);

/*
 * Insert a run from ri (id ignored, status as given) and set ri->id.
 * uuid must be unique; uuid, label, status and started_at must not be
 * NULL, the other strings may be (unknown). A "running" run with
 * ri->replacing is refused while any run of its label is alive ("cannot
 * replace the runs of 'L': run N is still running (pid P)"); any other
 * run, an imported one too, while a replacing run of its label is
 * ("cannot add a run to 'L': run N is replacing its runs (pid P)"): the
 * check and the insert are one write transaction.
 */
int store_run_create(struct store *st, struct run_info *ri, struct strbuf *err);
/*
 * As store_run_create(), but fail with "label 'L' already has results in
 * 'DB'" when ri->label has runs: the check and the insert are one write
 * transaction, so of two processes creating a new label at once exactly
 * one succeeds (`mmcmp run` without --append or --replace).
 */
int store_run_create_exclusive(struct store *st, struct run_info *ri,
			       struct strbuf *err);
/*
 * Set a run's status and, when ended_at is not NULL, its end time. An
 * unknown run_id is an error.
 */
int store_run_set_status(struct store *st, int64_t run_id, const char *status,
			 const char *ended_at, struct strbuf *err);
/*
 * Replace a run's effective setup (run_info.setup) by setup, for what is
 * known only at its end (how each job stopped under `until`).
 */
int store_run_set_setup(struct store *st, int64_t run_id, const char *setup,
			struct strbuf *err);
/*
 * Lifecycle (store-lifecycle.c). A run is alive while its status is
 * "running" and the process that created it (pid and start time, on this host)
 * still exists. The calls below that delete or move runs refuse, changing
 * nothing, when one of the runs they would touch is alive ("cannot ...: run N
 * is still running (pid P)"); a "running" run of a dead process is not alive.
 */

/*
 * Set *run_id to a live run of label other than except_id (0: none
 * excepted), or to 0 when there is none: `mmcmp run --replace` refuses to
 * start while another run of its label is alive.
 */
int store_find_running(struct store *st, const char *label, int64_t except_id,
		       int64_t *run_id, struct strbuf *err);
/*
 * Whether a run of label may start now (store_run_create() checks it in
 * its transaction; `mmcmp run` also before it prepares anything): when
 * replacing (`--replace`), fail with "cannot replace the runs of 'L': run
 * N is still running (pid P)" while any run of label is alive; else fail
 * with "cannot add a run to 'L': run N is replacing its runs (pid P)"
 * while a replacing run of label (run_info.replacing) is alive, as its end
 * would leave the new run pooled with nothing it was meant to join.
 */
int store_run_check_start(struct store *st, const char *label, bool replacing,
			  struct strbuf *err);

/*
 * Delete every run of label with all that belongs to it; no run of that
 * label is not an error. A live run refuses it.
 */
int store_delete_label(struct store *st, const char *label, struct strbuf *err);
/* Delete run run_id with all that belongs to it; unknown or alive fails. */
int store_delete_run(struct store *st, int64_t run_id, struct strbuf *err);

/*
 * Replace the runs of label by run keep_id (`mmcmp run --replace`, called
 * once the new run is finished): delete the runs old_ids[0 .. old_nr - 1]
 * that are still runs of label (those it had when keep_id was created,
 * store_find_runs()), in one transaction, only when keep_id is a run of
 * label with status "complete" and at least one measured (not warm-up)
 * iteration with status "ok", and no other run of label is alive. A run
 * that joined label since (relabelled or imported once keep_id was no
 * longer running) is kept. Otherwise nothing is deleted and the error
 * says why ("...; the older runs are kept").
 */
int store_delete_older_runs(struct store *st, const char *label,
			    int64_t keep_id, const int64_t *old_ids,
			    size_t old_nr, struct strbuf *err);

/*
 * Give the runs of old_label (only run run_id, when not 0, which must be
 * one of them) the label new_label, in one transaction; *moved (when not
 * NULL) counts them. Fails when old_label has no such run, when one of
 * them is alive, when the labels are equal, when a run replacing the runs
 * of new_label is alive ("cannot move runs to 'L': run N is replacing its
 * runs (pid P)", as its end would delete them), and, unless append, when
 * new_label has runs already (its runs and the moved ones would be
 * pooled).
 */
int store_relabel(struct store *st, const char *old_label,
		  const char *new_label, int64_t run_id, bool append,
		  size_t *moved, struct strbuf *err);

/*
 * The ids of the runs of label, oldest first (by started_at, then id),
 * into *ids (caller frees); *nr may be 0.
 */
int store_find_runs(struct store *st, const char *label, int64_t **ids,
		    size_t *nr, struct strbuf *err);
/* Every run id in the database, oldest first. */
int store_all_runs(struct store *st, int64_t **ids, size_t *nr,
		   struct strbuf *err);
/*
 * Fill *ri (caller releases) with run run_id; strings unknown to the
 * database are NULL. An unknown run_id is an error.
 */
int store_run_get(struct store *st, int64_t run_id, struct run_info *ri,
		  struct strbuf *err);

/*
 * The id of operation (benchmark, name) of run run_id, created with the
 * given unit, direction and decimals when it does not exist yet. Creation
 * order is remembered and is the order store_load_run() returns.
 */
int store_operation(struct store *st, int64_t run_id, const char *benchmark,
		    const char *name, const char *unit, bool higher_better,
		    int decimals, int64_t *op_id, struct strbuf *err);

/* One execution of a workload command, with its outcome. */
struct iteration_rec {
	int64_t run_id;
	const char *benchmark;
	const char *job;   /* parameters, e.g. "mode=threads tasks=2" */
	const char *build; /* build name or NULL */
	int64_t index;	   /* 0-based among this job's iterations */
	bool warmup;
	const char *status; /* ok, exit, signal, timeout, interrupted, exec */
	int64_t exit_code;
	int64_t term_signal;
	double elapsed_s, user_s, sys_s;
	int64_t maxrss_kb;
	const char *stderr_tail; /* may be NULL */
	const char *started_at;
	int64_t boot; /* the guest boot it ran in (store_boot_add()); 0: none */
};

struct sample_rec {
	int64_t op_id;
	double value;
};

/* How many busy timeouts store_iteration_add() waits out, at most. */
#define STORE_ITERATION_TRIES 6

/*
 * Store one iteration and its samples atomically (committed at once when
 * no store_begin() group is open). *iter_id may be NULL. Outside a group,
 * a lock held by another process (a long import) is waited for up to
 * STORE_ITERATION_TRIES busy timeouts (a minute); when it still fails,
 * store_busy() is true, nothing was stored, and the caller, which still
 * has it and the samples, should keep them and call again later rather
 * than drop a finished iteration (the session engine holds them in
 * memory, session.h).
 */
int store_iteration_add(struct store *st, const struct iteration_rec *it,
			const struct sample_rec *samples, size_t nr,
			int64_t *iter_id, struct strbuf *err);

/*
 * Load run run_id: info, operations in creation order with the samples of
 * measured (not warm-up) iterations in insertion order, per benchmark
 * the summed user/system/elapsed time of its measured iterations, and
 * its monitor tables (store_load_monitors()).
 * benchmark, when not NULL, keeps only that benchmark's operations and
 * the samples of that benchmark's iterations. rd must be zeroed; the
 * caller releases it with run_data_release() (on failure it is zeroed).
 */
int store_load_run(struct store *st, int64_t run_id, const char *benchmark,
		   struct run_data *rd, struct strbuf *err);

/*
 * store_load_run() keeping only the samples of iterations whose status
 * is "ok" (the operations, durations and monitors are the same).
 */
int store_load_run_ok(struct store *st, int64_t run_id, const char *benchmark,
		      struct run_data *rd, struct strbuf *err);

/*
 * Count the measured iterations of run run_id (of benchmark when not
 * NULL): all of them into *all, those whose status is not "ok" into
 * *failed, and those of the failed that stored no sample into *empty.
 */
int store_count_iterations(struct store *st, int64_t run_id,
			   const char *benchmark, int64_t *all, int64_t *failed,
			   int64_t *empty, struct strbuf *err);

/*
 * One line of `mmcmp list`. The strings are never NULL (an unknown config
 * name is ""). The counts cover measured (not warm-up) iterations only:
 * all of them, those whose status is not "ok", and their samples.
 */
struct run_row {
	int64_t id;
	char *label, *started_at, *config_name, *status;
	int64_t iterations, failed_iterations, samples;
};
struct run_rows {
	struct run_row *v;
	size_t nr, alloc;
};
/*
 * Append every run, oldest first, to rows (which may hold rows already;
 * on failure nothing is appended).
 */
int store_list_runs(struct store *st, struct run_rows *rows,
		    struct strbuf *err);
/* Free every row and zero rows; NULL is a no-op. */
void run_rows_release(struct run_rows *rows);

/*
 * Monitors (store-monitor.c): what the kernel counted while an iteration
 * ran (monitor.h), in the tables of db/migrations/0002-monitors.sql.
 */

/*
 * Store rec as the monitor record of iteration iter_id (from
 * store_iteration_add()), atomically. To commit an iteration with its
 * monitors as one unit, call both inside a store_begin() group. A name
 * given twice in one part of rec keeps its last value.
 */
int store_monitor_add(struct store *st, int64_t iter_id,
		      const struct monitor_record *rec, struct strbuf *err);

/*
 * Append to rd->monitors, per benchmark (in the order of their first
 * monitored iteration), the vmstat changes of run run_id's measured
 * iterations that succeeded and ran with monitors, with the share of the
 * machine others used in each; and to rd->cgroups those of the cgroup
 * counters of the iterations that ran in a cgroup (a counter's change or
 * a gauge's value at the end). benchmark, when not NULL, keeps only that
 * one. store_load_run() calls it. On failure rd's monitors are left as
 * they were.
 */
int store_load_monitors(struct store *st, int64_t run_id, const char *benchmark,
			struct run_data *rd, struct strbuf *err);

/*
 * Whole runs (store-transfer.c), for `mmcmp export` and `mmcmp import`:
 * struct run_full of run-data.h, every iteration and sample as stored.
 */
struct run_full;

/* Set *exists to whether a run with this uuid is stored. */
int store_uuid_exists(struct store *st, const char *uuid, bool *exists,
		      struct strbuf *err);

/*
 * Load run run_id in full into rf (zeroed by the caller; release it with
 * run_full_release(), also on failure): its info, its operations in
 * creation order, its iterations (warm-ups too) in insertion order, each
 * with its samples in insertion order and its monitor record (periodic
 * samples included) when it has one. benchmark, when not NULL, keeps
 * that benchmark's operations and iterations only. A sample that is not
 * a finite number, or whose operation belongs to another benchmark than
 * its iteration, is an error: an export could not hold it.
 */
int store_run_load_full(struct store *st, int64_t run_id, const char *benchmark,
			struct run_full *rf, struct strbuf *err);

/*
 * Insert rf as a new run, atomically, and set rf->info.id: the run with
 * rf->info.uuid (which must not be stored yet) and its pid fields, its
 * operations in order (a benchmark and name given twice is an error),
 * then its iterations in order with their samples and monitor records.
 * Every sample's op
 * must index rf->ops and every iteration's samples must lie within
 * rf->samples (BUG() otherwise). Samples go in with multi-row INSERTs:
 * a million take about a second.
 */
int store_run_insert_full(struct store *st, struct run_full *rf,
			  struct strbuf *err);

/*
 * Settings (store-settings.c): the kernel settings a run wrote
 * (settings.h), in the table of db/migrations/0005-settings.sql.
 */

/* Record that run run_id wrote new_value to path, which held old_value. */
int store_run_setting_add(struct store *st, int64_t run_id, const char *path,
			  const char *old_value, const char *new_value,
			  struct strbuf *err);
/*
 * Append the settings of run run_id to out in writing order, each as
 * "PATH OLD -> NEW".
 */
int store_run_settings(struct store *st, int64_t run_id, struct strvec *out,
		       struct strbuf *err);

/* Append the settings of run run_id to rf->settings, in writing order. */
int store_run_settings_load(struct store *st, int64_t run_id,
			    struct run_full *rf, struct strbuf *err);

/*
 * Replace the machine facts of run run_id that settings can change (the
 * transparent hugepage modes, the cpufreq governor, SMT) by m's, read
 * after the run wrote its settings: what it measured under.
 */
int store_run_set_tunables(struct store *st, int64_t run_id,
			   const struct machine_info *m, struct strbuf *err);

struct executor_boot_info;

/*
 * Record boot b->number of run run_id (store-boot.c): the kernel
 * image, qemu and the guest's facts, as db/schema.sql's boot table says;
 * the guest's watchdog (b->watchdog) is the last line of guest_facts,
 * "watchdog=...".
 */
int store_boot_add(struct store *st, int64_t run_id,
		   const struct executor_boot_info *b, struct strbuf *err);

struct run_source;

/*
 * Append the boots of run run_id to src->boots, in boot order, with the
 * guest's facts parsed back into struct machine_info (store-boot.c). A
 * run without kernels has none.
 */
int store_load_boots(struct store *st, int64_t run_id, struct run_source *src,
		     struct strbuf *err);

#endif /* MMCMP_STORE_H */
