#ifndef MMCMP_STORE_H
#define MMCMP_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strbuf;
struct run_info;
struct run_data;
struct monitor_record;

/*
 * store: the SQLite database of runs, operations, iterations and samples
 * (schema in db/schema.sql, migrations in db/migrations/). SQLite is used
 * only in store*.c.
 *
 * Functions returning int give 0 on success and -1 on failure; on failure
 * they append one line, without '\n', to err and leave the database as it
 * was (each call is atomic). Calls may be grouped into one transaction
 * with store_begin()/store_commit(); a failed call inside it rolls back
 * only its own part, and store_rollback() undoes the whole group.
 *
 * Several processes may use one database at once: a writer waits up to
 * 10 s for another. A struct store must be used by one thread at a time.
 */
struct store;

/*
 * Open or create the database at path (":memory:" works), set WAL mode
 * and a busy timeout, and apply pending migrations. A database written by
 * a newer mmcmp is refused. Runs left "running" by a process that no
 * longer exists are marked "aborted". NULL on failure; free the result
 * with store_close().
 */
struct store *store_open(const char *path, struct strbuf *err);
/* Close; NULL is a no-op. */
void store_close(struct store *st);

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
 * and commit it. A failed commit rolls the group back.
 */
int store_begin(struct store *st, struct strbuf *err);
int store_commit(struct store *st, struct strbuf *err);
/* Undo the open transaction; never fails visibly. */
void store_rollback(struct store *st);

/*
 * Insert a run from ri (id ignored, status as given) and set ri->id.
 * uuid must be unique; uuid, label, status and started_at must not be
 * NULL, the other strings may be (unknown).
 */
int store_run_create(struct store *st, struct run_info *ri, struct strbuf *err);
/*
 * Set a run's status and, when ended_at is not NULL, its end time. An
 * unknown run_id is an error.
 */
int store_run_set_status(struct store *st, int64_t run_id, const char *status,
			 const char *ended_at, struct strbuf *err);
/*
 * Delete every run of label with all that belongs to it; no run of that
 * label is not an error.
 */
int store_delete_label(struct store *st, const char *label, struct strbuf *err);

/* Delete every run of label except keep_id (for `mmcmp run --replace`). */
int store_delete_older_runs(struct store *st, const char *label,
			    int64_t keep_id, struct strbuf *err);

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

/*
 * Store one iteration and its samples atomically (committed at once when
 * no store_begin() group is open). *iter_id may be NULL.
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
 * Load the runs of label pooled into rd (zeroed by the caller), as
 * `mmcmp compare` and `export --compare` pool a label's runs: each run
 * loaded with store_load_run() and merged with run_data_merge(), or only
 * the runs whose ids are in only[0..only_nr) when only_nr > 0. Durations
 * that are all zero (samples imported without times) are dropped, so no
 * empty Duration table is printed for them. *loaded counts the runs
 * pooled: 0 when the label has none (or none of `only`), which is not an
 * error here.
 */
int store_load_label(struct store *st, const char *label, const int64_t *only,
		     size_t only_nr, const char *benchmark, struct run_data *rd,
		     size_t *loaded, struct strbuf *err);

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
 * iterations that succeeded and ran with monitors; benchmark, when not
 * NULL, keeps only that one. store_load_run() calls it. On failure rd's
 * monitors are left as they were.
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
 * with its samples in insertion order. benchmark, when not NULL, keeps
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
 * then its iterations in order with their samples (and, for those with
 * has_vmstat, their vmstat changes as monitor records). Every sample's op
 * must index rf->ops and every iteration's samples must lie within
 * rf->samples (BUG() otherwise). Samples go in with multi-row INSERTs:
 * a million take about a second.
 */
int store_run_insert_full(struct store *st, struct run_full *rf,
			  struct strbuf *err);

struct executor_boot_info;

/*
 * Record boot info->number of run run_id (store-boot.c): the kernel
 * image, qemu and the guest's facts, as db/schema.sql's boot table says.
 */
int store_boot_add(struct store *st, int64_t run_id,
		   const struct executor_boot_info *info, struct strbuf *err);

#endif /* MMCMP_STORE_H */
