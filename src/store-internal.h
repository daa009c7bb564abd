#ifndef MMCMP_STORE_INTERNAL_H
#define MMCMP_STORE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <sqlite3.h>

#include "util.h"

struct strbuf;

/*
 * store-internal: what the store*.c files share, and nothing else may
 * include (it brings <sqlite3.h>). Every function follows store.h's
 * contract: 0 or -1 with one line appended to err.
 */

/* The number of statements store.c prepares once and caches. */
#define STORE_STMT_CACHE 32
/* The slots store-monitor.c caches its inserts in, from the top. */
#define STORE_STMT_MONITOR	    (STORE_STMT_CACHE - 1)
#define STORE_STMT_MONITOR_RUN	    (STORE_STMT_CACHE - 2)
#define STORE_STMT_MONITOR_BASE_GET (STORE_STMT_CACHE - 3)
#define STORE_STMT_MONITOR_BASE_PUT (STORE_STMT_CACHE - 4)
#define STORE_STMT_ABSENT_GET	    (STORE_STMT_CACHE - 5)
#define STORE_STMT_ABSENT_PUT	    (STORE_STMT_CACHE - 6)
/* The lowest of those: store.c's own statements stay below it. */
#define STORE_STMT_MONITOR_FIRST STORE_STMT_ABSENT_PUT

struct store_monitor_base;
/* Free what store-monitor.c keeps of a store (NULL is a no-op). */
void store_monitor_base_free(struct store_monitor_base *b);

struct samples_sink;

struct store {
	sqlite3 *db;
	char *path;
	sqlite3_stmt *stmt[STORE_STMT_CACHE];
	/* The file's device and inode at open, checked before each commit. */
	bool have_ident;
	dev_t dev;
	ino_t ino;
	/* The same of its -wal and -shm files, [0] and [1], when they exist. */
	bool have_side[2];
	dev_t side_dev[2];
	ino_t side_ino[2];
	/* The path was found to name another file, or none (check_identity). */
	bool moved;
	/* Runs of dead processes a reader could not mark aborted. */
	int64_t *stale;
	size_t stale_nr, stale_alloc;
	/* The last failure was a lock held by another connection. */
	bool busy;
	int busy_timeout_ms;
	/* store-monitor.c's levels base of the last run it stored in. */
	struct store_monitor_base *mon_base;
	/* Where mmcmp_samples() adds the samples it is given, while set. */
	struct samples_sink *load_sink;
};

/*
 * One atomic call: a transaction of its own when no group is open, else
 * a savepoint inside the group, so a failure undoes only this call.
 */
struct store_tx {
	bool top;
	bool write;
};

/* Append "cannot WHAT: <sqlite message>" to err; returns -1. */
MMCMP_PRINTF(3, 4)
int store_fail(struct store *st, struct strbuf *err, const char *fmt, ...);
/*
 * One row of a query for store_each_row(): read what it needs of stmt
 * into data. 0 goes on to the next row, 1 stops after this one, -1 is a
 * failure that has appended its line to err.
 */
typedef int store_row_fn(sqlite3_stmt *stmt, void *data, struct strbuf *err);
/*
 * Step stmt, bound and ready, through its rows, giving each to fn. 0 at
 * the end (or when fn stops), -1 when fn fails or a step fails; then
 * "cannot WHAT: <sqlite message>" with WHAT formatted from fmt. The
 * caller still resets or finalizes stmt.
 */
MMCMP_PRINTF(6, 7)
int store_each_row(struct store *st, sqlite3_stmt *stmt, store_row_fn *fn,
		   void *data, struct strbuf *err, const char *fmt, ...);
/* Execute sql (no rows); on failure "cannot WHAT: ...". */
int store_exec_sql(struct store *st, const char *sql, const char *what,
		   struct strbuf *err);
/* Execute sql on the way out of a failure, ignoring its result. */
void store_exec_quietly(struct store *st, const char *sql);
/* Bind s, or NULL, as a static text parameter. */
int store_bind_text(sqlite3_stmt *stmt, int i, const char *s);
/* A copy of text column i (caller frees), NULL when it is NULL. */
char *store_column_strdup(sqlite3_stmt *stmt, int i);
/* Begin one atomic call (write: take the write lock at once). */
int store_tx_open(struct store *st, bool write, struct store_tx *tx,
		  struct strbuf *err);
/* End it: keep its changes when ret is 0, else undo them; returns ret or -1. */
int store_tx_close(struct store *st, const struct store_tx *tx, int ret,
		   struct strbuf *err);

/*
 * The status to show for run id whose stored status is status: "aborted"
 * for a run of a dead process that a read-only store could not mark.
 */
const char *store_run_status(const struct store *st, int64_t id,
			     const char *status);

/* What is known of the process that wrote a running run. */
enum store_owner {
	STORE_OWNER_DEAD,    /* gone: the run is aborted */
	STORE_OWNER_UNKNOWN, /* another host, or no pid recorded */
	STORE_OWNER_ALIVE,   /* a process of this host, started with the run */
};

/* What is known of the process pid (started at pid_start) of hostname. */
enum store_owner store_run_owner(const char *hostname, int64_t pid,
				 int64_t pid_start);

struct boot_data;
struct iteration_rec;
struct run_full;
struct op_samples;

/*
 * The one insert of an iteration row, for store_iteration_add() and the
 * import of whole runs: it (run_id included) becomes a row of iteration,
 * whose id goes to *iter_id. Runs inside the caller's transaction.
 */
int store_insert_iteration(struct store *st, const struct iteration_rec *it,
			   int64_t *iter_id, struct strbuf *err);
/*
 * Bind the four columns of one sample row (iteration, operation, seq,
 * value) to parameters first .. first + 3 of stmt; SQLite's result.
 */
int store_bind_sample(sqlite3_stmt *stmt, int first, int64_t iter_id,
		      int64_t op_id, size_t seq, double value);
/* Insert one sample row (value not NaN), inside the caller's transaction. */
int store_insert_sample(struct store *st, int64_t iter_id, int64_t op_id,
			size_t seq, double value, struct strbuf *err);

/*
 * Append the operations of run run_id (of one benchmark when benchmark is
 * not NULL), in creation order and without samples, to the growable array
 * (*ops, *nr, *alloc).
 */
int store_load_ops(struct store *st, int64_t run_id, const char *benchmark,
		   struct op_samples **ops, size_t *nr, size_t *alloc,
		   struct strbuf *err);

struct iteration_monitor;
struct run_full;

/*
 * Store b as boot b->number of run run_id, inside the caller's
 * transaction (store-boot.c).
 */
int store_boot_add_full(struct store *st, int64_t run_id,
			const struct boot_data *b, struct strbuf *err);
/* Append the boots of run run_id to rf->boots, in number order. */
int store_boot_load_full(struct store *st, int64_t run_id, struct run_full *rf,
			 struct strbuf *err);

/*
 * Store m as the monitor record of iteration iter_id, periodic samples
 * included, inside the caller's transaction (store-monitor.c).
 */
int store_monitor_add_full(struct store *st, int64_t iter_id,
			   const struct iteration_monitor *m,
			   struct strbuf *err);
/*
 * Give the iterations of rf that ran with monitors (rf->iters loaded from
 * run run_id, of benchmark when not NULL, in id order) their monitor
 * records in full, as store_monitor_add() stored them. A value that is
 * not an integer (a hand-edited database) is an error.
 */
int store_monitor_load_full(struct store *st, int64_t run_id,
			    const char *benchmark, struct run_full *rf,
			    struct strbuf *err);

#endif /* MMCMP_STORE_INTERNAL_H */
