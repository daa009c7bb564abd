#ifndef MMCMP_STORE_H
#define MMCMP_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strbuf;
struct run_info;
struct run_data;

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

int store_begin(struct store *st, struct strbuf *err);
int store_commit(struct store *st, struct strbuf *err);
/* Undo the open transaction; never fails visibly. */
void store_rollback(struct store *st);

/*
 * Insert a run from ri (id ignored, status as given) and set ri->id.
 * uuid must be unique.
 */
int store_run_create(struct store *st, struct run_info *ri, struct strbuf *err);
/* Set a run's status and, when ended_at is not NULL, its end time. */
int store_run_set_status(struct store *st, int64_t run_id, const char *status,
			 const char *ended_at, struct strbuf *err);
/* Delete every run of label with all that belongs to it. */
int store_delete_label(struct store *st, const char *label,
		       struct strbuf *err);

/*
 * The ids of the runs of label, oldest first, into *ids (caller frees);
 * *nr may be 0.
 */
int store_find_runs(struct store *st, const char *label, int64_t **ids,
		    size_t *nr, struct strbuf *err);
/* Every run id in the database, oldest first. */
int store_all_runs(struct store *st, int64_t **ids, size_t *nr,
		   struct strbuf *err);
/* Fill *ri (caller releases) with run run_id. */
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
	const char *job;	  /* parameters, e.g. "mode=threads tasks=2" */
	const char *build;	  /* build name or NULL */
	int64_t index;		  /* 0-based among this job's iterations */
	bool warmup;
	const char *status;	  /* ok, exit, signal, timeout, interrupted, exec */
	int64_t exit_code;
	int64_t term_signal;
	double elapsed_s, user_s, sys_s;
	int64_t maxrss_kb;
	const char *stderr_tail;  /* may be NULL */
	const char *started_at;
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
 * measured (not warm-up) iterations in insertion order, and per benchmark
 * the summed user/system/elapsed time of its measured iterations.
 * benchmark, when not NULL, keeps only that benchmark. rd must be zeroed;
 * the caller releases it with run_data_release().
 */
int store_load_run(struct store *st, int64_t run_id, const char *benchmark,
		   struct run_data *rd, struct strbuf *err);

/* One line of `mmcmp list`. */
struct run_row {
	int64_t id;
	char *label, *started_at, *config_name, *status;
	int64_t iterations, failed_iterations, samples;
};
struct run_rows {
	struct run_row *v;
	size_t nr, alloc;
};
int store_list_runs(struct store *st, struct run_rows *rows,
		    struct strbuf *err);
void run_rows_release(struct run_rows *rows);

#endif /* MMCMP_STORE_H */
