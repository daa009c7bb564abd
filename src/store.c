/* store: runs, operations, iterations and samples in SQLite. */
#include "store.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <sqlite3.h>

#include "migrations.h"
#include "store-internal.h"
#include "machine.h"
#include "parse-num.h"
#include "run-data.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"

/* How long a writer waits for another one before giving up. */
#define STORE_BUSY_TIMEOUT_MS 10000
/*
 * How long a reader waits to mark dead runs aborted: it shows them as
 * aborted anyway, and must not wait for a long import.
 */
#define STORE_READER_MARK_MS 100
/* PRAGMA application_id of an mmcmp database (0003), "mmcp". */
#define STORE_APPLICATION_ID 1835885424

/* The statements prepared once per store and reused. */
enum store_stmt {
	ST_RUN_INSERT,
	ST_RUN_SET_STATUS,
	ST_RUN_GET,
	ST_RUN_FIND,
	ST_RUN_ALL,
	ST_RUN_RUNNING,
	ST_RUN_ABORT,
	ST_OP_FIND,
	ST_OP_INSERT,
	ST_OP_RUN,
	ST_ITER_INSERT,
	ST_SAMPLE_INSERT,
	ST_LOAD_OPS,
	ST_LOAD_ITERS,
	ST_LOAD_SAMPLES,
	ST_LOAD_DURATIONS,
	ST_LIST_RUNS,
	ST_COUNT_ITERS,
	/* Around every iteration's insert: prepared once, as the others. */
	ST_TX_BEGIN,
	ST_TX_BEGIN_IMMEDIATE,
	ST_TX_COMMIT,
	ST_TX_SAVEPOINT,
	ST_TX_RELEASE,
	ST_NR
};

_Static_assert(ST_NR <= STORE_STMT_MONITOR_FIRST, "raise STORE_STMT_CACHE");

static const char *const stmt_sql[ST_NR] = {
	[ST_RUN_INSERT] =
		"INSERT INTO run (uuid, label, status, config_name,"
		" config_text, config_hash, started_at, ended_at,"
		" mmcmp_version, hostname, kernel_release, kernel_version,"
		" cmdline, cpu_model, nr_cpus, mem_bytes, pid, pid_start,"
		" thp_enabled, thp_defrag, cpufreq_governor, numa_nodes, smt,"
		" cgroup_mode, kernel_config_sha256, cgroup, setup, replacing)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12,"
		" ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24,"
		" ?25, ?26, ?27, ?28)",
	[ST_RUN_SET_STATUS] =
		"UPDATE run SET status = ?2, ended_at = coalesce(?3, ended_at)"
		" WHERE id = ?1",
	[ST_RUN_GET] =
		"SELECT uuid, label, status, config_name, config_text,"
		" config_hash, started_at, ended_at, mmcmp_version, hostname,"
		" kernel_release, kernel_version, cmdline, cpu_model, nr_cpus,"
		" mem_bytes, pid, pid_start, thp_enabled, thp_defrag,"
		" cpufreq_governor, numa_nodes, smt, cgroup_mode,"
		" kernel_config_sha256, cgroup, setup FROM run WHERE id = ?1",
	[ST_RUN_FIND] =
		"SELECT id FROM run WHERE label = ?1 ORDER BY started_at, id",
	[ST_RUN_ALL] = "SELECT id FROM run ORDER BY started_at, id",
	[ST_RUN_RUNNING] = "SELECT id, hostname, pid, pid_start FROM run"
			   " WHERE status = 'running'",
	[ST_RUN_ABORT] = "UPDATE run SET status = 'aborted'"
			 " WHERE id = ?1 AND status = 'running'",
	[ST_OP_FIND] = "SELECT id FROM operation"
		       " WHERE run_id = ?1 AND benchmark = ?2 AND name = ?3",
	[ST_OP_INSERT] =
		"INSERT INTO operation (run_id, benchmark, name, unit, better,"
		" decimals, seq)"
		" SELECT ?1, ?2, ?3, ?4, ?5, ?6, coalesce(max(seq) + 1, 0)"
		" FROM operation WHERE run_id = ?1",
	[ST_OP_RUN] = "SELECT run_id FROM operation WHERE id = ?1",
	[ST_ITER_INSERT] =
		"INSERT INTO iteration (run_id, benchmark, job, build, idx,"
		" warmup, status, exit_code, term_signal, elapsed_s, user_s,"
		" sys_s, maxrss_kb, stderr_tail, started_at, boot)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12,"
		" ?13, ?14, ?15, ?16)",
	[ST_SAMPLE_INSERT] =
		"INSERT INTO sample (iteration_id, operation_id, seq, value)"
		" VALUES (?1, ?2, ?3, ?4)",
	[ST_LOAD_OPS] =
		"SELECT id, benchmark, name, unit, better = 'higher', decimals"
		" FROM operation"
		" WHERE run_id = ?1 AND (?2 IS NULL OR benchmark = ?2)"
		" ORDER BY seq",
	/*
	 * s.iteration_id rather than i.id: the same value, but read from
	 * the sample row in hand, not from the iteration index per sample.
	 */
	[ST_LOAD_ITERS] = "SELECT id, coalesce(boot, 0), julianday(started_at)"
			  " FROM iteration"
			  " WHERE run_id = ?1 AND warmup = 0"
			  " AND (?2 IS NULL OR benchmark = ?2)"
			  " AND (?3 OR status = 'ok')"
			  " ORDER BY id",
	/* The samples go to load_samples() through samples_step(). */
	[ST_LOAD_SAMPLES] = "SELECT mmcmp_samples(seq, operation_id, value)"
			    " FROM sample WHERE iteration_id = ?1",
	[ST_COUNT_ITERS] = "SELECT count(*), coalesce(sum(status <> 'ok'), 0),"
			   " coalesce(sum(status <> 'ok' AND NOT EXISTS"
			   " (SELECT 1 FROM sample s"
			   " WHERE s.iteration_id = iteration.id)), 0)"
			   " FROM iteration"
			   " WHERE run_id = ?1 AND warmup = 0"
			   " AND (?2 IS NULL OR benchmark = ?2)",
	[ST_TX_BEGIN] = "BEGIN",
	[ST_TX_BEGIN_IMMEDIATE] = "BEGIN IMMEDIATE",
	[ST_TX_COMMIT] = "COMMIT",
	[ST_TX_SAVEPOINT] = "SAVEPOINT store_call",
	[ST_TX_RELEASE] = "RELEASE store_call",
	[ST_LOAD_DURATIONS] =
		"SELECT i.benchmark, sum(i.user_s), sum(i.sys_s),"
		" sum(i.elapsed_s), count(*)"
		" FROM iteration i"
		" WHERE i.run_id = ?1 AND i.warmup = 0"
		" AND (?2 IS NULL OR i.benchmark = ?2)"
		" GROUP BY i.benchmark"
		" ORDER BY (SELECT min(o.seq) FROM operation o"
		" WHERE o.run_id = ?1 AND o.benchmark = i.benchmark)"
		" NULLS LAST, min(i.id)",
	[ST_LIST_RUNS] =
		"SELECT r.id, r.label, r.started_at,"
		" coalesce(r.config_name, ''), r.status,"
		" (SELECT count(*) FROM iteration i"
		" WHERE i.run_id = r.id AND i.warmup = 0),"
		" (SELECT count(*) FROM iteration i"
		" WHERE i.run_id = r.id AND i.warmup = 0 AND i.status <> 'ok'),"
		" (SELECT count(*) FROM iteration i"
		" JOIN sample s ON s.iteration_id = i.id"
		" WHERE i.run_id = r.id AND i.warmup = 0)"
		" FROM run r ORDER BY r.started_at, r.id",
};

/*
 * After SQLite's message for a file that cannot be opened, read or
 * written, the system's reason: "disk I/O error (No space left on
 * device)", "unable to open database file (Read-only file system)".
 */
static void add_system_errno(struct strbuf *sb, sqlite3 *db, int code)
{
	int e = db ? sqlite3_system_errno(db) : 0;

	code &= 0xff;
	if (e > 0 && (code == SQLITE_IOERR || code == SQLITE_CANTOPEN ||
		      code == SQLITE_FULL || code == SQLITE_READONLY))
		strbuf_addf(sb, " (%s)", strerror(e));
}

/* store_fail() with its arguments in ap. */
MMCMP_PRINTF(3, 0)
static int store_vfail(struct store *st, struct strbuf *err, const char *fmt,
		       va_list ap)
{
	struct strbuf what = STRBUF_INIT;
	int code = sqlite3_errcode(st->db);

	if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
		st->busy = true;
	strbuf_vaddf(&what, fmt, ap);
	/* Name the database: a full disk or a read-only file is then clear. */
	if (st->path && !strstr(what.buf, st->path))
		strbuf_addf(&what, " in '%s'", st->path);
	strbuf_addstr(&what, ": ");
	/* Keep the message on one line: SQLite may quote SQL text. */
	for (const char *p = sqlite3_errmsg(st->db); *p; p++) {
		if (!isspace((unsigned char)*p))
			strbuf_addch(&what, *p);
		else if (what.buf[what.len - 1] != ' ')
			strbuf_addch(&what, ' ');
	}
	add_system_errno(&what, st->db, code);
	error_addf(err, "cannot %s", what.buf);
	strbuf_release(&what);
	return -1;
}

/* Append "cannot WHAT: <sqlite message>" to err; returns -1. */
int store_fail(struct store *st, struct strbuf *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	store_vfail(st, err, fmt, ap);
	va_end(ap);
	return -1;
}

int store_each_row(struct store *st, sqlite3_stmt *stmt, store_row_fn *fn,
		   void *data, struct strbuf *err, const char *fmt, ...)
{
	va_list ap;
	int rc;

	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		int ret = fn(stmt, data, err);

		if (ret)
			return ret < 0 ? -1 : 0;
	}
	if (rc == SQLITE_DONE)
		return 0;
	va_start(ap, fmt);
	store_vfail(st, err, fmt, ap);
	va_end(ap);
	return -1;
}

int store_exec_sql(struct store *st, const char *sql, const char *what,
		   struct strbuf *err)
{
	if (sqlite3_exec(st->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return store_fail(st, err, "%s", what);
	return 0;
}

/*
 * Run sql for its side effect on the way out of a failure; err already
 * says why, and the statement cannot make things worse.
 */
void store_exec_quietly(struct store *st, const char *sql)
{
	(void)sqlite3_exec(st->db, sql, NULL, NULL, NULL);
}

static sqlite3_stmt *stmt_get(struct store *st, enum store_stmt id,
			      struct strbuf *err)
{
	if (!st->stmt[id] &&
	    sqlite3_prepare_v3(st->db, stmt_sql[id], -1,
			       SQLITE_PREPARE_PERSISTENT, &st->stmt[id],
			       NULL) != SQLITE_OK) {
		store_fail(st, err, "prepare statement %d", (int)id);
		return NULL;
	}
	return st->stmt[id];
}

/* Make a cached statement ready for its next use; NULL is a no-op. */
static void stmt_done(sqlite3_stmt *stmt)
{
	if (!stmt)
		return;
	/* reset repeats the last step's error, handled by then. */
	(void)sqlite3_reset(stmt);
	sqlite3_clear_bindings(stmt);
}

int store_bind_text(sqlite3_stmt *stmt, int i, const char *s)
{
	if (!s)
		return sqlite3_bind_null(stmt, i);
	return sqlite3_bind_text(stmt, i, s, -1, SQLITE_STATIC);
}

/* A copy of text column i, NULL when it is NULL. */
char *store_column_strdup(sqlite3_stmt *stmt, int i)
{
	return xstrdup((const char *)sqlite3_column_text(stmt, i));
}

/* The files beside a database, as store.side_* holds them. */
static const char *const side_suffix[2] = {"-wal", "-shm"};

/* Whether st->path + side_suffix[i] is still the file recorded at open. */
static bool side_is_ours(const struct store *st, size_t i, const char *name)
{
	struct stat sb;

	return st->have_side[i] && !lstat(name, &sb) &&
	       sb.st_dev == st->side_dev[i] && sb.st_ino == st->side_ino[i];
}

/*
 * The path no longer names the database held open. SQLite, seeing it
 * moved, neither checkpoints nor deletes the -wal at close, and the next
 * open of the path would replay that -wal into whatever file is there
 * now (a database moved over it loses its pages). So the -wal, when it
 * is still this database's, is renamed to PATH-wal.stale.PID (its commits
 * are kept for whoever moved the database away) and the -shm removed;
 * done says so. Renames and removes nothing that is not ours.
 */
static void set_sides_aside(struct store *st, struct strbuf *done)
{
	struct strbuf name = STRBUF_INIT, stale = STRBUF_INIT;
	int persist = 1;

	/* Never delete by name what is at the path now. */
	(void)sqlite3_file_control(st->db, "main", SQLITE_FCNTL_PERSIST_WAL,
				   &persist);
	strbuf_addf(&name, "%s-wal", st->path);
	strbuf_addf(&stale, "%s.stale.%ld", name.buf, (long)getpid());
	if (side_is_ours(st, 0, name.buf) && !rename(name.buf, stale.buf))
		strbuf_addf(done, "; its -wal file is now '%s'", stale.buf);
	strbuf_reset(&name);
	strbuf_addf(&name, "%s-shm", st->path);
	if (side_is_ours(st, 1, name.buf) && !unlink(name.buf))
		strbuf_addf(done, "%s its -shm file is removed",
			    done->len ? " and" : ";");
	if (done->len)
		strbuf_addstr(done, ", so the next open does not replay them");
	strbuf_release(&name);
	strbuf_release(&stale);
}

/*
 * Fail unless path still names the file opened: a run whose database was
 * deleted or replaced would otherwise write into a file nobody sees. The
 * first failure also moves its -wal and -shm files away from the path.
 */
static int check_identity(struct store *st, struct strbuf *err)
{
	struct strbuf done = STRBUF_INIT;
	struct stat sb;
	bool gone;

	if (!st->have_ident)
		return 0;
	gone = stat(st->path, &sb);
	if (!gone && sb.st_dev == st->dev && sb.st_ino == st->ino)
		return 0;
	/*
	 * Only a path that names nothing or another file is known not to be
	 * this database: a stat() that failed otherwise (EACCES, EIO) leaves
	 * the -wal and -shm files where they are.
	 */
	if (!st->moved && (!gone || errno == ENOENT || errno == ENOTDIR)) {
		st->moved = true;
		set_sides_aside(st, &done);
	}
	error_addf(err,
		   "database '%s' was deleted or replaced while mmcmp was"
		   " using it%s",
		   st->path, done.buf);
	strbuf_release(&done);
	return -1;
}

/* Commit the open transaction, after checking the file's identity. */
/*
 * Run transaction statement id (BEGIN, COMMIT, a savepoint's), as
 * store_exec_sql() would the text: each iteration stored runs six, whose
 * parsing sqlite3_exec() repeated.
 */
static int tx_exec(struct store *st, enum store_stmt id, const char *what,
		   struct strbuf *err)
{
	sqlite3_stmt *stmt = stmt_get(st, id, err);
	int ret = 0;

	if (!stmt)
		return -1;
	if (sqlite3_step(stmt) != SQLITE_DONE)
		ret = store_fail(st, err, "%s", what);
	(void)sqlite3_reset(stmt);
	return ret;
}

static int commit(struct store *st, const char *what, struct strbuf *err)
{
	if (check_identity(st, err))
		return -1;
	return tx_exec(st, ST_TX_COMMIT, what, err);
}

int store_tx_open(struct store *st, bool write, struct store_tx *tx,
		  struct strbuf *err)
{
	tx->top = sqlite3_get_autocommit(st->db);
	tx->write = write;
	if (tx->top)
		st->busy = false;
	if (!tx->top)
		return tx_exec(st, ST_TX_SAVEPOINT, "open savepoint", err);
	/*
	 * A writer takes the write lock at once: a deferred transaction
	 * that read first could not wait for another writer.
	 */
	return tx_exec(st, write ? ST_TX_BEGIN_IMMEDIATE : ST_TX_BEGIN,
		       "begin transaction", err);
}

/*
 * End the call: keep its changes when ret is 0, else undo them. Returns
 * ret, or -1 when keeping them failed.
 */
int store_tx_close(struct store *st, const struct store_tx *tx, int ret,
		   struct strbuf *err)
{
	if (!ret) {
		if (tx->top && tx->write)
			ret = commit(st, "commit", err);
		else if (tx->top)
			ret = tx_exec(st, ST_TX_COMMIT, "commit", err);
		else
			ret = tx_exec(st, ST_TX_RELEASE, "release savepoint",
				      err);
		if (!ret)
			return 0;
	}
	/* An I/O error or a full disk may have rolled back already. */
	if (sqlite3_get_autocommit(st->db))
		return ret;
	if (tx->top)
		store_exec_quietly(st, "ROLLBACK");
	else
		store_exec_quietly(
			st, "ROLLBACK TO store_call; RELEASE store_call");
	return ret;
}

/* What a file holds, as far as opening it is concerned. */
enum db_kind {
	DB_EMPTY,   /* no schema at all: a new database */
	DB_MMCMP,   /* an mmcmp database, maybe of an older schema */
	DB_NEWER,   /* an mmcmp database of a newer mmcmp */
	DB_FOREIGN, /* another application's SQLite file */
};

/*
 * Read the schema version and what kind of file this is, inside the
 * caller's transaction. Databases of mmcmp before 0003 have no
 * application_id: they are known by their version and their tables.
 */
static int read_kind(struct store *st, int64_t *version, enum db_kind *kind,
		     struct strbuf *err)
{
	static const char sql[] =
		"SELECT (SELECT user_version FROM pragma_user_version),"
		" (SELECT application_id FROM pragma_application_id),"
		" (SELECT count(*) FROM sqlite_schema),"
		" (SELECT count(*) FROM sqlite_schema WHERE type = 'table'"
		" AND name IN ('run', 'operation', 'iteration', 'sample'))";
	const int64_t known = (int64_t)ARRAY_SIZE(store_migrations);
	sqlite3_stmt *stmt = NULL;
	int64_t app, objects, tables;
	int ret = -1;

	if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) != SQLITE_OK ||
	    sqlite3_step(stmt) != SQLITE_ROW) {
		store_fail(st, err, "read schema version of '%s'", st->path);
		goto out;
	}
	*version = sqlite3_column_int64(stmt, 0);
	app = sqlite3_column_int64(stmt, 1);
	objects = sqlite3_column_int64(stmt, 2);
	tables = sqlite3_column_int64(stmt, 3);
	if (app == STORE_APPLICATION_ID ||
	    (!app && *version > 0 && tables == 4))
		*kind = *version > known ? DB_NEWER : DB_MMCMP;
	else if (!app && !*version && !objects)
		*kind = DB_EMPTY;
	else
		*kind = DB_FOREIGN;
	ret = 0;
out:
	sqlite3_finalize(stmt);
	return ret;
}

/* The error for a file that cannot be used, by kind; -1. */
static int kind_error(struct store *st, enum db_kind kind, int64_t version,
		      struct strbuf *err)
{
	if (kind == DB_NEWER)
		return error_addf(err,
				  "database '%s' was written by a newer mmcmp"
				  " (schema %" PRId64 ")",
				  st->path, version);
	if (kind == DB_FOREIGN)
		return error_addf(err,
				  "'%s' is not an mmcmp database: it holds"
				  " tables of another application",
				  st->path);
	return error_addf(err, "no mmcmp database in '%s': the file is empty",
			  st->path);
}

/*
 * Apply the next pending migration, or set *done when there is none.
 * The version is read under the write lock, so two processes opening a
 * new database at once do not both migrate it.
 */
static int migrate_step(struct store *st, bool *done, struct strbuf *err)
{
	const int64_t known = (int64_t)ARRAY_SIZE(store_migrations);
	enum db_kind kind;
	char sql[64];
	int64_t version;
	int ret = -1;

	if (store_exec_sql(st, "BEGIN IMMEDIATE", "begin migration", err))
		return -1;
	if (read_kind(st, &version, &kind, err))
		goto out;
	if (kind == DB_NEWER || kind == DB_FOREIGN) {
		kind_error(st, kind, version, err);
		goto out;
	}
	*done = version == known;
	if (!*done) {
		snprintf(sql, sizeof(sql), "PRAGMA user_version = %" PRId64,
			 version + 1);
		if (sqlite3_exec(st->db, store_migrations[version], NULL, NULL,
				 NULL) != SQLITE_OK ||
		    sqlite3_exec(st->db, sql, NULL, NULL, NULL) != SQLITE_OK) {
			store_fail(st, err, "migrate '%s' to schema %" PRId64,
				   st->path, version + 1);
			goto out;
		}
	}
	ret = commit(st, "commit migration", err);
out:
	if (ret && !sqlite3_get_autocommit(st->db))
		store_exec_quietly(st, "ROLLBACK");
	return ret;
}

/* Apply every pending migration. */
static int migrate(struct store *st, struct strbuf *err)
{
	for (bool done = false; !done;)
		if (migrate_step(st, &done, err))
			return -1;
	return 0;
}

/* read_kind() in a read transaction of its own. */
static int peek_kind(struct store *st, int64_t *version, enum db_kind *kind,
		     struct strbuf *err)
{
	int ret;

	if (store_exec_sql(st, "BEGIN", "begin transaction", err))
		return -1;
	ret = read_kind(st, version, kind, err);
	store_exec_quietly(st, "COMMIT");
	return ret;
}

/*
 * A writer's first look, before it switches the file to WAL: another
 * application's file and a newer mmcmp's database are left untouched.
 */
static int refuse_unknown(struct store *st, struct strbuf *err)
{
	enum db_kind kind;
	int64_t version;

	if (peek_kind(st, &version, &kind, err))
		return -1;
	if (kind == DB_FOREIGN || kind == DB_NEWER)
		return kind_error(st, kind, version, err);
	return 0;
}

/*
 * A reader's check, in a read transaction: an mmcmp database of the
 * current schema needs no write. An older one is migrated when the file
 * is writable; anything else is refused.
 */
static int check_schema(struct store *st, struct strbuf *err)
{
	const int64_t known = (int64_t)ARRAY_SIZE(store_migrations);
	enum db_kind kind;
	int64_t version;

	if (peek_kind(st, &version, &kind, err))
		return -1;
	if (kind != DB_MMCMP)
		return kind_error(st, kind, version, err);
	if (version == known)
		return 0;
	if (sqlite3_db_readonly(st->db, "main") == 1)
		return error_addf(err,
				  "database '%s' has schema %" PRId64
				  " of an older mmcmp and is read-only: open"
				  " it once with write access to upgrade it",
				  st->path, version);
	return migrate(st, err);
}

/*
 * Only a process on this host that is gone, or whose pid now belongs to a
 * process started at another time, is known to be dead.
 */
enum store_owner store_run_owner(const char *hostname, int64_t pid,
				 int64_t pid_start)
{
	int64_t start;

	if (pid <= 0 || pid > INT_MAX)
		return STORE_OWNER_UNKNOWN;
	if (hostname && *hostname) {
		char here[256];

		if (gethostname(here, sizeof(here)))
			return STORE_OWNER_UNKNOWN;
		here[sizeof(here) - 1] = '\0';
		if (strcmp(here, hostname) != 0)
			return STORE_OWNER_UNKNOWN;
	}
	if (kill((pid_t)pid, 0) && errno == ESRCH)
		return STORE_OWNER_DEAD;
	start = machine_proc_start((pid_t)pid);
	if (pid_start > 0 && start >= 0 && start != pid_start)
		return STORE_OWNER_DEAD;
	return STORE_OWNER_ALIVE;
}

static int abort_runs(struct store *st, const int64_t *ids, size_t nr,
		      struct strbuf *err)
{
	sqlite3_stmt *stmt = stmt_get(st, ST_RUN_ABORT, err);
	int ret = -1;

	if (!stmt)
		return -1;
	for (size_t i = 0; i < nr; i++) {
		if (sqlite3_bind_int64(stmt, 1, ids[i]) ||
		    sqlite3_step(stmt) != SQLITE_DONE) {
			store_fail(st, err, "mark run %" PRId64 " aborted",
				   ids[i]);
			goto out;
		}
		stmt_done(stmt);
	}
	ret = 0;
out:
	stmt_done(stmt);
	return ret;
}

/* Mark runs ids aborted in a write transaction of their own. */
static int write_aborted(struct store *st, const int64_t *ids, size_t nr,
			 struct strbuf *err)
{
	struct store_tx tx;

	if (store_tx_open(st, true, &tx, err))
		return -1;
	return store_tx_close(st, &tx, abort_runs(st, ids, nr, err), err);
}

/*
 * Mark the runs of dead processes aborted. A reader that cannot (a
 * read-only file, or another process holding the lock) keeps them in
 * st->stale and shows them as aborted.
 */
/* A growable array of run ids. */
struct run_ids {
	int64_t *v;
	size_t nr, alloc;
};

static void run_ids_add(struct run_ids *ids, int64_t id)
{
	ALLOC_GROW(ids->v, ids->nr + 1, ids->alloc);
	ids->v[ids->nr++] = id;
}

/* A row of ST_RUN_RUNNING: its id joins data when its process is dead. */
static int dead_row(sqlite3_stmt *stmt, void *data, struct strbuf *err)
{
	const char *host = (const char *)sqlite3_column_text(stmt, 1);

	(void)err;
	if (store_run_owner(host, sqlite3_column_int64(stmt, 2),
			    sqlite3_column_int64(stmt, 3)) == STORE_OWNER_DEAD)
		run_ids_add(data, sqlite3_column_int64(stmt, 0));
	return 0;
}

static int mark_aborted(struct store *st, bool reader, struct strbuf *err)
{
	sqlite3_stmt *stmt;
	struct run_ids dead = {0};
	int ret = -1;

	stmt = stmt_get(st, ST_RUN_RUNNING, err);
	if (!stmt)
		return -1;
	if (store_each_row(st, stmt, dead_row, &dead, err,
			   "find running runs in '%s'", st->path))
		goto out;
	stmt_done(stmt);
	stmt = NULL;
	if (!dead.nr) {
		ret = 0;
	} else if (!reader) {
		ret = write_aborted(st, dead.v, dead.nr, err);
	} else {
		struct strbuf ignored = STRBUF_INIT;

		if (sqlite3_db_readonly(st->db, "main") == 1 ||
		    sqlite3_busy_timeout(st->db, STORE_READER_MARK_MS) ||
		    write_aborted(st, dead.v, dead.nr, &ignored)) {
			st->stale = dead.v;
			st->stale_nr = dead.nr;
			st->stale_alloc = dead.alloc;
			dead.v = NULL;
		}
		strbuf_release(&ignored);
		ret = 0;
		if (sqlite3_busy_timeout(st->db, st->busy_timeout_ms))
			ret = store_fail(st, err, "set the busy timeout");
	}
out:
	stmt_done(stmt);
	free(dead.v);
	return ret;
}

const char *store_run_status(const struct store *st, int64_t id,
			     const char *status)
{
	if (!status || strcmp(status, "running"))
		return status;
	for (size_t i = 0; i < st->stale_nr; i++)
		if (st->stale[i] == id)
			return "aborted";
	return status;
}

/* mmcmp_samples(), load_samples()'s reader (below). */
static void samples_step(sqlite3_context *ctx, int argc, sqlite3_value **argv);
static void samples_final(sqlite3_context *ctx);

/*
 * Switching a new database to WAL needs the write lock, and SQLite does
 * not call the busy handler for it: retry while another connection holds
 * it, up to the busy timeout, so that runs started together on a new file
 * wait for each other instead of failing. A reader leaves the journal
 * mode as it is. Both get mmcmp_samples().
 */
static int setup_connection(struct store *st, bool reader)
{
	static const char sql[] = "PRAGMA journal_mode = WAL;"
				  " PRAGMA synchronous = NORMAL;"
				  " PRAGMA foreign_keys = ON;"
				  " PRAGMA mmap_size = 268435456;";
	int rc;

	rc = sqlite3_create_function_v2(
		st->db, "mmcmp_samples", 3, SQLITE_UTF8 | SQLITE_DIRECTONLY, st,
		NULL, samples_step, samples_final, NULL);
	if (rc != SQLITE_OK)
		return rc;
	for (int waited_ms = 0;; waited_ms += 10) {
		/* The reader's part is the writer's without its first pragma.
		 */
		rc = sqlite3_exec(st->db, reader ? strchr(sql, ';') + 1 : sql,
				  NULL, NULL, NULL);
		if ((rc & 0xff) != SQLITE_BUSY ||
		    waited_ms >= STORE_BUSY_TIMEOUT_MS)
			return rc;
		sqlite3_sleep(10);
	}
}

/* Whether path is a database of its own connection only. */
static bool private_path(const char *path)
{
	return !*path || !strcmp(path, ":memory:");
}

/* 0 when the directory of path can be written, else the errno. */
static int dir_access(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *slash;
	int ret;

	strbuf_addstr(&sb, path);
	slash = strrchr(sb.buf, '/');
	if (slash)
		slash[slash == sb.buf] = '\0';
	ret = access(slash ? sb.buf : ".", W_OK) ? errno : 0;
	strbuf_release(&sb);
	return ret;
}

/* Whether the file path followed by suffix ("-wal") exists. */
static bool sibling_exists(const char *path, const char *suffix)
{
	struct strbuf sb = STRBUF_INIT;
	bool ret;

	strbuf_addf(&sb, "%s%s", path, suffix);
	ret = !access(sb.buf, F_OK);
	strbuf_release(&sb);
	return ret;
}

/*
 * The file name of a reader of path and its open flags: no creation, and
 * read-only when the file or its directory (where the -wal and -shm files
 * go) cannot be written, so that a read-only file system or another
 * user's file can still be read. SQLite can read a WAL database read-only
 * only when it can find or create the -shm file. When it cannot and there
 * is no -wal file (everything is in the database file, as after the last
 * writer closed it), the file is opened as immutable. When there is a
 * -wal file but no -shm file (a copy of a database in use, or of a crashed
 * one), no process has the database open, as each connection keeps the
 * -shm file: it is opened without locks (VFS "unix-none") and *heap_wal
 * is set, for an exclusive locking mode that keeps the WAL index in
 * memory, so that the WAL's commits are read. A path that does not exist
 * is an error. full (a first attempt failed for a full file system)
 * takes the directory as read-only. *name is the caller's to free.
 */
static int reader_open(const char *path, bool full, char **name, int *flags,
		       bool *heap_wal, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	const char *query = "?immutable=1";
	struct stat st;
	bool dir_ok;

	*heap_wal = false;
	if (stat(path, &st)) {
		if (errno == ENOENT)
			return error_addf(err, "no database at '%s'", path);
		return error_addf(err, "cannot open database '%s': %s", path,
				  strerror(errno));
	}
	/* A full file system is as good as a read-only one (open_store()). */
	dir_ok = !full && !dir_access(path);
	*flags = SQLITE_OPEN_READWRITE;
	if (!dir_ok || access(path, W_OK))
		*flags = SQLITE_OPEN_READONLY;
	if (dir_ok || (!full && sibling_exists(path, "-wal") &&
		       sibling_exists(path, "-shm"))) {
		*name = xstrdup(path);
		return 0;
	}
	if (sibling_exists(path, "-wal")) {
		query = "?mode=ro&vfs=unix-none";
		*heap_wal = true;
	}
	/* A URI: "file:" and the path, %-escaped where URIs need it. */
	strbuf_addstr(&sb, path[0] == '/' ? "file://" : "file:");
	for (const char *p = path; *p; p++) {
		if (strchr("?#%", *p) || (unsigned char)*p <= ' ' ||
		    (unsigned char)*p >= 0x7f)
			strbuf_addf(&sb, "%%%02X", (unsigned char)*p);
		else
			strbuf_addch(&sb, *p);
	}
	strbuf_addstr(&sb, query);
	*flags |= SQLITE_OPEN_URI;
	*name = strbuf_detach(&sb, NULL);
	return 0;
}

/* Remember which file path names now, for check_identity(). */
static void record_identity(struct store *st)
{
	struct stat sb;

	if (private_path(st->path) || stat(st->path, &sb))
		return;
	st->have_ident = true;
	st->dev = sb.st_dev;
	st->ino = sb.st_ino;
}

/*
 * Remember the -wal and -shm files, which exist once the first
 * transaction has run, for set_sides_aside(). They stay the same files
 * while this connection is open: SQLite deletes them only at the close
 * of the last connection.
 */
static void record_sides(struct store *st)
{
	struct strbuf name = STRBUF_INIT;
	struct stat sb;

	for (size_t i = 0; st->have_ident && i < ARRAY_SIZE(side_suffix); i++) {
		strbuf_reset(&name);
		strbuf_addf(&name, "%s%s", st->path, side_suffix[i]);
		if (lstat(name.buf, &sb))
			continue;
		st->have_side[i] = true;
		st->side_dev[i] = sb.st_dev;
		st->side_ino[i] = sb.st_ino;
	}
	strbuf_release(&name);
}

/*
 * A writer that SQLite could open only read-only (the file, or the file
 * system, cannot be written) fails here, before it reads or runs
 * anything, with the reason.
 */
static int refuse_read_only(struct store *st, struct strbuf *err)
{
	if (sqlite3_db_readonly(st->db, "main") != 1)
		return 0;
	return error_addf(err, "database '%s' is read-only (%s)", st->path,
			  access(st->path, W_OK) ? strerror(errno)
						 : "opened read-only");
}

/*
 * One attempt of open_store(). full: a reader's second attempt on a full
 * file system. *sys_errno is the system's reason for a failure, 0 when
 * there is none.
 */
static struct store *open_attempt(const char *path, bool reader, bool full,
				  int *sys_errno, struct strbuf *err)
{
	struct store *st = xcalloc(1, sizeof(*st));
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
	char *name = NULL;
	bool heap_wal = false;
	int rc;

	*sys_errno = 0;
	st->path = xstrdup(path);
	st->busy_timeout_ms = STORE_BUSY_TIMEOUT_MS;
	/* A private database has nobody else to protect: open it fully. */
	if (private_path(path))
		reader = false;
	if (reader && reader_open(path, full, &name, &flags, &heap_wal, err))
		goto fail;
	/* One thread at a time uses a store: no locking per call. */
	rc = sqlite3_open_v2(name ? name : path, &st->db,
			     flags | SQLITE_OPEN_NOMUTEX, NULL);
	free(name);
	if (rc != SQLITE_OK) {
		struct strbuf why = STRBUF_INIT;
		int dir_errno = access(path, F_OK) ? dir_access(path) : 0;

		strbuf_addstr(&why, st->db ? sqlite3_errmsg(st->db)
					   : sqlite3_errstr(rc));
		/* A new file: what its directory says is the reason. */
		if (dir_errno)
			strbuf_addf(&why, " (%s)", strerror(dir_errno));
		else
			add_system_errno(&why, st->db, rc);
		error_addf(err, "cannot open database '%s': %s", path, why.buf);
		strbuf_release(&why);
		goto fail;
	}
	if (!reader && refuse_read_only(st, err))
		goto fail;
	/*
	 * WAL lets readers work while a run writes; with it, synchronous
	 * NORMAL still survives a crash of the process (not of the
	 * machine) after every commit.
	 */
	if (sqlite3_busy_timeout(st->db, st->busy_timeout_ms) != SQLITE_OK) {
		store_fail(st, err, "set up database '%s'", path);
		goto fail;
	}
	if (heap_wal && sqlite3_exec(st->db, "PRAGMA locking_mode = EXCLUSIVE",
				     NULL, NULL, NULL) != SQLITE_OK) {
		store_fail(st, err, "set up database '%s'", path);
		goto fail;
	}
	if (!reader && refuse_unknown(st, err))
		goto fail;
	if (setup_connection(st, reader) != SQLITE_OK) {
		store_fail(st, err, "set up database '%s'", path);
		goto fail;
	}
	record_identity(st);
	if (reader ? check_schema(st, err) : migrate(st, err))
		goto fail;
	record_sides(st);
	if (mark_aborted(st, reader, err))
		goto fail;
	return st;
fail:
	if (st->db)
		*sys_errno = sqlite3_system_errno(st->db);
	store_close(st);
	return NULL;
}

/*
 * Remove the -wal or -shm file (suffix) of path that a failed attempt on
 * a full file system made and could not write: one that did not exist
 * before it (had) and holds less than SQLite's first write would (an
 * empty -wal, a -shm shorter than its 136-byte header).
 */
static void remove_unwritten(const char *path, const char *suffix, bool had,
			     off_t below)
{
	struct strbuf name = STRBUF_INIT;
	struct stat sb;

	strbuf_addf(&name, "%s%s", path, suffix);
	if (!had && !lstat(name.buf, &sb) && S_ISREG(sb.st_mode) &&
	    sb.st_size < below)
		unlink(name.buf);
	strbuf_release(&name);
}

bool store_is_uri(const char *path)
{
	/* SQLite's test, case and all: sqlite3ParseUri(). */
	return !strncmp(path, "file:", 5);
}

static struct store *open_store(const char *path, bool reader,
				struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT, again = STRBUF_INIT;
	bool had_wal, had_shm;
	struct store *st;
	int e;

	/*
	 * Writers would give a URI to SQLite and readers stat() it as a
	 * file name; the identity check and the -o guard would be off.
	 */
	if (store_is_uri(path)) {
		error_addf(err,
			   "cannot open database '%s': a URI, not a file path",
			   path);
		return NULL;
	}
	had_wal = sibling_exists(path, "-wal");
	had_shm = sibling_exists(path, "-shm");
	st = open_attempt(path, reader, false, &e, &why);
	/*
	 * A reader on a full file system: SQLite could not make the -shm
	 * file it reads a WAL database with. Read as for a directory that
	 * cannot be written (reader_open()), so that the results can still
	 * be listed or exported to another disk.
	 */
	if (!st && (e == ENOSPC || e == EDQUOT)) {
		remove_unwritten(path, "-wal", had_wal, 1);
		remove_unwritten(path, "-shm", had_shm, 136);
		if (reader)
			st = open_attempt(path, reader, true, &e, &again);
	}
	if (!st)
		error_addf(err, "%s", why.buf);
	strbuf_release(&why);
	strbuf_release(&again);
	return st;
}

struct store *store_open(const char *path, struct strbuf *err)
{
	return open_store(path, false, err);
}

struct store *store_open_read(const char *path, struct strbuf *err)
{
	return open_store(path, true, err);
}

bool store_transient(const struct store *st)
{
	/* NULL or "" for an in-memory or temporary database (sqlite3.h). */
	const char *file = sqlite3_db_filename(st->db, "main");

	return !file || !*file;
}

int store_set_busy_timeout(struct store *st, int timeout_ms, struct strbuf *err)
{
	if (sqlite3_busy_timeout(st->db, timeout_ms) != SQLITE_OK)
		return store_fail(st, err, "set the busy timeout");
	st->busy_timeout_ms = timeout_ms;
	return 0;
}

int store_busy_timeout(const struct store *st)
{
	return st->busy_timeout_ms;
}

bool store_busy(const struct store *st)
{
	return st->busy;
}

void store_close(struct store *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(st->stmt); i++)
		sqlite3_finalize(st->stmt[i]);
	/* Every statement is finalized, so the close cannot be deferred. */
	if (sqlite3_close_v2(st->db) != SQLITE_OK)
		BUG("cannot close database '%s'", st->path);
	store_monitor_base_free(st->mon_base);
	free(st->stale);
	free(st->path);
	free(st);
}

int store_exec(struct store *st, const char *sql, struct strbuf *err)
{
	struct store_tx tx;
	int ret;

	if (store_tx_open(st, true, &tx, err))
		return -1;
	ret = store_exec_sql(st, sql, "execute SQL", err);
	return store_tx_close(st, &tx, ret, err);
}

int store_query_int64(struct store *st, const char *sql, int64_t *out,
		      struct strbuf *err)
{
	sqlite3_stmt *stmt = NULL;
	int rc, ret = -1;

	if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) != SQLITE_OK) {
		store_fail(st, err, "prepare query");
		goto out;
	}
	rc = sqlite3_step(stmt);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		store_fail(st, err, "run query");
		goto out;
	}
	*out = rc == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : 0;
	ret = 0;
out:
	sqlite3_finalize(stmt);
	return ret;
}

/* A row of store_schema()'s query: one statement, appended to data. */
static int schema_row(sqlite3_stmt *stmt, void *data, struct strbuf *err)
{
	(void)err;
	strbuf_addf(data, "%s;\n", sqlite3_column_text(stmt, 0));
	return 0;
}

int store_schema(struct store *st, struct strbuf *out, struct strbuf *err)
{
	static const char sql[] = "SELECT sql FROM sqlite_schema"
				  " WHERE sql IS NOT NULL"
				  " AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
				  " ORDER BY name";
	struct strbuf buf = STRBUF_INIT;
	sqlite3_stmt *stmt = NULL;
	int ret = -1;

	if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) != SQLITE_OK) {
		store_fail(st, err, "read schema");
		goto out;
	}
	if (store_each_row(st, stmt, schema_row, &buf, err, "read schema"))
		goto out;
	strbuf_add(out, buf.buf, buf.len);
	ret = 0;
out:
	sqlite3_finalize(stmt);
	strbuf_release(&buf);
	return ret;
}

int store_begin(struct store *st, struct strbuf *err)
{
	if (!sqlite3_get_autocommit(st->db))
		return error_addf(err, "cannot begin: a transaction is open");
	st->busy = false;
	return tx_exec(st, ST_TX_BEGIN_IMMEDIATE, "begin transaction", err);
}

int store_commit(struct store *st, struct strbuf *err)
{
	if (sqlite3_get_autocommit(st->db))
		return error_addf(err, "cannot commit: no transaction is open");
	if (!commit(st, "commit", err))
		return 0;
	store_rollback(st);
	return -1;
}

void store_rollback(struct store *st)
{
	if (!sqlite3_get_autocommit(st->db))
		store_exec_quietly(st, "ROLLBACK");
}

int store_run_create(struct store *st, struct run_info *ri, struct strbuf *err)
{
	const struct machine_info *m = &ri->machine;
	sqlite3_stmt *stmt = NULL;
	struct store_tx tx;
	int ret = -1;

	if (store_tx_open(st, true, &tx, err))
		return -1;
	/*
	 * Every run waits for a replacing run of its label, an imported or
	 * finished one too: the replacement would delete it.
	 */
	if (store_run_check_start(st, ri->label,
				  ri->status &&
					  !strcmp(ri->status, "running") &&
					  ri->replacing,
				  err))
		goto out;
	stmt = stmt_get(st, ST_RUN_INSERT, err);
	if (!stmt)
		goto out;
	if (store_bind_text(stmt, 1, ri->uuid) ||
	    store_bind_text(stmt, 2, ri->label) ||
	    store_bind_text(stmt, 3, ri->status) ||
	    store_bind_text(stmt, 4, ri->config_name) ||
	    store_bind_text(stmt, 5, ri->config_text) ||
	    store_bind_text(stmt, 6, ri->config_hash) ||
	    store_bind_text(stmt, 7, ri->started_at) ||
	    store_bind_text(stmt, 8, ri->ended_at) ||
	    store_bind_text(stmt, 9, ri->mmcmp_version) ||
	    store_bind_text(stmt, 10, m->hostname) ||
	    store_bind_text(stmt, 11, m->kernel_release) ||
	    store_bind_text(stmt, 12, m->kernel_version) ||
	    store_bind_text(stmt, 13, m->cmdline) ||
	    store_bind_text(stmt, 14, m->cpu_model) ||
	    sqlite3_bind_int64(stmt, 15, m->nr_cpus) ||
	    sqlite3_bind_int64(stmt, 16, m->mem_bytes) ||
	    sqlite3_bind_int64(stmt, 17, ri->pid) ||
	    sqlite3_bind_int64(stmt, 18, ri->pid_start) ||
	    store_bind_text(stmt, 19, m->thp_enabled) ||
	    store_bind_text(stmt, 20, m->thp_defrag) ||
	    store_bind_text(stmt, 21, m->cpufreq_governor) ||
	    (m->numa_nodes > 0 ? sqlite3_bind_int64(stmt, 22, m->numa_nodes)
			       : sqlite3_bind_null(stmt, 22)) ||
	    store_bind_text(stmt, 23, m->smt) ||
	    store_bind_text(stmt, 24, m->cgroup_mode) ||
	    store_bind_text(stmt, 25, m->kernel_config_sha256) ||
	    store_bind_text(stmt, 26, ri->cgroup) ||
	    store_bind_text(stmt, 27, ri->setup) ||
	    sqlite3_bind_int(stmt, 28, ri->replacing) ||
	    sqlite3_step(stmt) != SQLITE_DONE) {
		store_fail(st, err, "create run '%s'",
			   ri->uuid ? ri->uuid : "(null)");
		goto out;
	}
	ri->id = sqlite3_last_insert_rowid(st->db);
	ret = 0;
out:
	stmt_done(stmt);
	return store_tx_close(st, &tx, ret, err);
}

int store_run_set_setup(struct store *st, int64_t run_id, const char *setup,
			struct strbuf *err)
{
	static const char sql[] = "UPDATE run SET setup = ?2 WHERE id = ?1";
	sqlite3_stmt *stmt = NULL;
	struct store_tx tx;
	int ret = -1;

	if (store_tx_open(st, true, &tx, err))
		return -1;
	if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) != SQLITE_OK) {
		store_fail(st, err, "prepare setup update");
		goto out;
	}
	if (sqlite3_bind_int64(stmt, 1, run_id) ||
	    store_bind_text(stmt, 2, setup) ||
	    sqlite3_step(stmt) != SQLITE_DONE) {
		store_fail(st, err, "set setup of run %" PRId64, run_id);
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(stmt);
	return store_tx_close(st, &tx, ret, err);
}

int store_run_set_status(struct store *st, int64_t run_id, const char *status,
			 const char *ended_at, struct strbuf *err)
{
	sqlite3_stmt *stmt = NULL;
	struct store_tx tx;
	int ret = -1;

	if (store_tx_open(st, true, &tx, err))
		return -1;
	stmt = stmt_get(st, ST_RUN_SET_STATUS, err);
	if (!stmt)
		goto out;
	if (sqlite3_bind_int64(stmt, 1, run_id) ||
	    store_bind_text(stmt, 2, status) ||
	    store_bind_text(stmt, 3, ended_at) ||
	    sqlite3_step(stmt) != SQLITE_DONE) {
		store_fail(st, err, "set status of run %" PRId64, run_id);
		goto out;
	}
	if (!sqlite3_changes(st->db)) {
		error_addf(err, "cannot set status: no run %" PRId64, run_id);
		goto out;
	}
	ret = 0;
out:
	stmt_done(stmt);
	return store_tx_close(st, &tx, ret, err);
}

/* A row whose first column is a run id: it joins data. */
static int id_row(sqlite3_stmt *stmt, void *data, struct strbuf *err)
{
	(void)err;
	run_ids_add(data, sqlite3_column_int64(stmt, 0));
	return 0;
}

/* Collect the ids of the first column of stmt, bound and ready to step. */
static int collect_ids(struct store *st, sqlite3_stmt *stmt, int64_t **ids,
		       size_t *nr, struct strbuf *err)
{
	struct run_ids v = {0};

	if (store_each_row(st, stmt, id_row, &v, err, "list runs")) {
		free(v.v);
		return -1;
	}
	*ids = v.v;
	*nr = v.nr;
	return 0;
}

int store_find_runs(struct store *st, const char *label, int64_t **ids,
		    size_t *nr, struct strbuf *err)
{
	sqlite3_stmt *stmt = stmt_get(st, ST_RUN_FIND, err);
	int ret;

	*ids = NULL;
	*nr = 0;
	if (!stmt)
		return -1;
	if (store_bind_text(stmt, 1, label))
		ret = store_fail(st, err, "find runs of '%s'", label);
	else
		ret = collect_ids(st, stmt, ids, nr, err);
	stmt_done(stmt);
	return ret;
}

int store_all_runs(struct store *st, int64_t **ids, size_t *nr,
		   struct strbuf *err)
{
	sqlite3_stmt *stmt = stmt_get(st, ST_RUN_ALL, err);
	int ret;

	*ids = NULL;
	*nr = 0;
	if (!stmt)
		return -1;
	ret = collect_ids(st, stmt, ids, nr, err);
	stmt_done(stmt);
	return ret;
}

int store_run_get(struct store *st, int64_t run_id, struct run_info *ri,
		  struct strbuf *err)
{
	sqlite3_stmt *stmt = stmt_get(st, ST_RUN_GET, err);
	struct machine_info *m = &ri->machine;
	int rc, ret = -1;

	memset(ri, 0, sizeof(*ri));
	if (!stmt)
		return -1;
	if (sqlite3_bind_int64(stmt, 1, run_id)) {
		store_fail(st, err, "read run %" PRId64, run_id);
		goto out;
	}
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_DONE) {
		error_addf(err, "no run %" PRId64, run_id);
		goto out;
	}
	if (rc != SQLITE_ROW) {
		store_fail(st, err, "read run %" PRId64, run_id);
		goto out;
	}
	ri->id = run_id;
	ri->uuid = store_column_strdup(stmt, 0);
	ri->label = store_column_strdup(stmt, 1);
	ri->status = xstrdup(store_run_status(
		st, run_id, (const char *)sqlite3_column_text(stmt, 2)));
	ri->config_name = store_column_strdup(stmt, 3);
	ri->config_text = store_column_strdup(stmt, 4);
	ri->config_hash = store_column_strdup(stmt, 5);
	ri->started_at = store_column_strdup(stmt, 6);
	ri->ended_at = store_column_strdup(stmt, 7);
	ri->mmcmp_version = store_column_strdup(stmt, 8);
	m->hostname = store_column_strdup(stmt, 9);
	m->kernel_release = store_column_strdup(stmt, 10);
	m->kernel_version = store_column_strdup(stmt, 11);
	m->cmdline = store_column_strdup(stmt, 12);
	m->cpu_model = store_column_strdup(stmt, 13);
	m->nr_cpus = sqlite3_column_int64(stmt, 14);
	m->mem_bytes = sqlite3_column_int64(stmt, 15);
	ri->pid = sqlite3_column_int64(stmt, 16);
	ri->pid_start = sqlite3_column_int64(stmt, 17);
	m->thp_enabled = store_column_strdup(stmt, 18);
	m->thp_defrag = store_column_strdup(stmt, 19);
	m->cpufreq_governor = store_column_strdup(stmt, 20);
	m->numa_nodes = sqlite3_column_int64(stmt, 21); /* NULL reads 0 */
	m->smt = store_column_strdup(stmt, 22);
	m->cgroup_mode = store_column_strdup(stmt, 23);
	m->kernel_config_sha256 = store_column_strdup(stmt, 24);
	ri->cgroup = store_column_strdup(stmt, 25);
	ri->setup = store_column_strdup(stmt, 26);
	ret = 0;
out:
	stmt_done(stmt);
	return ret;
}

/* Look operation (run_id, benchmark, name) up; *found says whether. */
static int op_find(struct store *st, int64_t run_id, const char *benchmark,
		   const char *name, int64_t *op_id, bool *found,
		   struct strbuf *err)
{
	sqlite3_stmt *stmt = stmt_get(st, ST_OP_FIND, err);
	int rc, ret = -1;

	if (!stmt)
		return -1;
	if (sqlite3_bind_int64(stmt, 1, run_id) ||
	    store_bind_text(stmt, 2, benchmark) ||
	    store_bind_text(stmt, 3, name)) {
		store_fail(st, err, "find operation '%s'", name);
		goto out;
	}
	rc = sqlite3_step(stmt);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		store_fail(st, err, "find operation '%s'", name);
		goto out;
	}
	*found = rc == SQLITE_ROW;
	if (*found)
		*op_id = sqlite3_column_int64(stmt, 0);
	ret = 0;
out:
	stmt_done(stmt);
	return ret;
}

int store_operation(struct store *st, int64_t run_id, const char *benchmark,
		    const char *name, const char *unit, bool higher_better,
		    int decimals, int64_t *op_id, struct strbuf *err)
{
	sqlite3_stmt *stmt = NULL;
	struct store_tx tx;
	bool found = false;
	int ret = -1;

	/* The common case, an existing operation, needs no write lock. */
	if (op_find(st, run_id, benchmark, name, op_id, &found, err))
		return -1;
	if (found)
		return 0;
	if (store_tx_open(st, true, &tx, err))
		return -1;
	/* Another writer may have created it since. */
	if (op_find(st, run_id, benchmark, name, op_id, &found, err))
		goto out;
	if (found) {
		ret = 0;
		goto out;
	}
	stmt = stmt_get(st, ST_OP_INSERT, err);
	if (!stmt)
		goto out;
	if (sqlite3_bind_int64(stmt, 1, run_id) ||
	    store_bind_text(stmt, 2, benchmark) ||
	    store_bind_text(stmt, 3, name) || store_bind_text(stmt, 4, unit) ||
	    store_bind_text(stmt, 5, higher_better ? "higher" : "lower") ||
	    sqlite3_bind_int(stmt, 6, decimals) ||
	    sqlite3_step(stmt) != SQLITE_DONE) {
		store_fail(st, err, "create operation '%s' of '%s'", name,
			   benchmark ? benchmark : "(null)");
		goto out;
	}
	*op_id = sqlite3_last_insert_rowid(st->db);
	ret = 0;
out:
	stmt_done(stmt);
	return store_tx_close(st, &tx, ret, err);
}

int store_insert_iteration(struct store *st, const struct iteration_rec *it,
			   int64_t *iter_id, struct strbuf *err)
{
	sqlite3_stmt *stmt = stmt_get(st, ST_ITER_INSERT, err);
	int ret = -1;

	if (!stmt)
		return -1;
	if (sqlite3_bind_int64(stmt, 1, it->run_id) ||
	    store_bind_text(stmt, 2, it->benchmark) ||
	    store_bind_text(stmt, 3, it->job) ||
	    store_bind_text(stmt, 4, it->build) ||
	    sqlite3_bind_int64(stmt, 5, it->index) ||
	    sqlite3_bind_int(stmt, 6, it->warmup) ||
	    store_bind_text(stmt, 7, it->status) ||
	    sqlite3_bind_int64(stmt, 8, it->exit_code) ||
	    sqlite3_bind_int64(stmt, 9, it->term_signal) ||
	    sqlite3_bind_double(stmt, 10, it->elapsed_s) ||
	    sqlite3_bind_double(stmt, 11, it->user_s) ||
	    sqlite3_bind_double(stmt, 12, it->sys_s) ||
	    sqlite3_bind_int64(stmt, 13, it->maxrss_kb) ||
	    store_bind_text(stmt, 14, it->stderr_tail) ||
	    store_bind_text(stmt, 15, it->started_at) ||
	    (it->boot ? sqlite3_bind_int64(stmt, 16, it->boot)
		      : sqlite3_bind_null(stmt, 16)) ||
	    sqlite3_step(stmt) != SQLITE_DONE) {
		store_fail(st, err, "store iteration %" PRId64 " of '%s'",
			   it->index, it->benchmark ? it->benchmark : "(null)");
		goto out;
	}
	*iter_id = sqlite3_last_insert_rowid(st->db);
	ret = 0;
out:
	stmt_done(stmt);
	return ret;
}

static int cmp_int64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/*
 * Check that every operation of samples belongs to the iteration's run
 * (the schema does not: see sample in db/schema.sql). Each distinct id is
 * looked up once.
 */
static int check_ops(struct store *st, const struct iteration_rec *it,
		     const struct sample_rec *samples, size_t nr,
		     struct strbuf *err)
{
	sqlite3_stmt *stmt = NULL;
	int64_t *ids;
	int rc, ret = -1;

	if (!nr)
		return 0;
	ids = xmalloc(nr * sizeof(*ids));
	for (size_t i = 0; i < nr; i++)
		ids[i] = samples[i].op_id;
	qsort(ids, nr, sizeof(*ids), cmp_int64);
	stmt = stmt_get(st, ST_OP_RUN, err);
	if (!stmt)
		goto out;
	for (size_t i = 0; i < nr; i++) {
		if (i && ids[i] == ids[i - 1])
			continue;
		if (sqlite3_bind_int64(stmt, 1, ids[i])) {
			store_fail(st, err, "look up operation %" PRId64,
				   ids[i]);
			goto out;
		}
		rc = sqlite3_step(stmt);
		if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
			store_fail(st, err, "look up operation %" PRId64,
				   ids[i]);
			goto out;
		}
		if (rc == SQLITE_DONE ||
		    sqlite3_column_int64(stmt, 0) != it->run_id) {
			error_addf(err,
				   "cannot store iteration %" PRId64
				   " of '%s': operation %" PRId64
				   " is not one of run %" PRId64,
				   it->index,
				   it->benchmark ? it->benchmark : "(null)",
				   ids[i], it->run_id);
			goto out;
		}
		stmt_done(stmt);
	}
	ret = 0;
out:
	stmt_done(stmt);
	free(ids);
	return ret;
}

int store_bind_sample(sqlite3_stmt *stmt, int first, int64_t iter_id,
		      int64_t op_id, size_t seq, double value)
{
	return sqlite3_bind_int64(stmt, first, iter_id) ||
	       sqlite3_bind_int64(stmt, first + 1, op_id) ||
	       sqlite3_bind_int64(stmt, first + 2, (sqlite3_int64)seq) ||
	       sqlite3_bind_double(stmt, first + 3, value);
}

int store_insert_sample(struct store *st, int64_t iter_id, int64_t op_id,
			size_t seq, double value, struct strbuf *err)
{
	sqlite3_stmt *stmt = stmt_get(st, ST_SAMPLE_INSERT, err);
	int ret = -1;

	if (!stmt)
		return -1;
	if (store_bind_sample(stmt, 1, iter_id, op_id, seq, value) ||
	    sqlite3_step(stmt) != SQLITE_DONE) {
		store_fail(st, err, "store sample %zu (operation %" PRId64 ")",
			   seq, op_id);
		goto out;
	}
	ret = 0;
out:
	stmt_done(stmt);
	return ret;
}

static int samples_insert(struct store *st, int64_t iter_id,
			  const struct sample_rec *samples, size_t nr,
			  struct strbuf *err)
{
	for (size_t i = 0; i < nr; i++) {
		/* SQLite would store NaN as NULL. */
		if (isnan(samples[i].value))
			return error_addf(
				err, "cannot store sample %zu: not a number",
				i);
		if (store_insert_sample(st, iter_id, samples[i].op_id, i,
					samples[i].value, err))
			return -1;
	}
	return 0;
}

static int iteration_add_once(struct store *st, const struct iteration_rec *it,
			      const struct sample_rec *samples, size_t nr,
			      int64_t *iter_id, struct strbuf *err)
{
	struct store_tx tx;
	int ret;

	if (store_tx_open(st, true, &tx, err))
		return -1;
	ret = check_ops(st, it, samples, nr, err);
	if (!ret)
		ret = store_insert_iteration(st, it, iter_id, err);
	if (!ret)
		ret = samples_insert(st, *iter_id, samples, nr, err);
	return store_tx_close(st, &tx, ret, err);
}

int store_iteration_add(struct store *st, const struct iteration_rec *it,
			const struct sample_rec *samples, size_t nr,
			int64_t *iter_id, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	bool top = sqlite3_get_autocommit(st->db);
	int64_t id = 0;
	int ret;

	/*
	 * A lock held longer than the busy timeout (a long import) is waited
	 * out a few more times; inside a group the lock is held already.
	 */
	for (int tries = 1;; tries++) {
		strbuf_reset(&why);
		ret = iteration_add_once(st, it, samples, nr, &id, &why);
		if (!ret || !top || !st->busy || tries >= STORE_ITERATION_TRIES)
			break;
	}
	if (ret)
		error_addf(err, "%s", why.buf);
	else if (iter_id)
		*iter_id = id;
	strbuf_release(&why);
	return ret;
}

/* Maps an operation id to its index in run_data.ops. */
struct op_slot {
	int64_t id;
	size_t index;
};

static int op_slot_cmp(const void *a, const void *b)
{
	const struct op_slot *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static struct op_samples *op_lookup(struct run_data *rd,
				    const struct op_slot *slots, size_t nr,
				    int64_t id)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (slots[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < nr && slots[lo].id == id)
		return &rd->ops[slots[lo].index];
	return NULL;
}

static int bind_run_bench(sqlite3_stmt *stmt, int64_t run_id,
			  const char *benchmark)
{
	return sqlite3_bind_int64(stmt, 1, run_id) ||
	       store_bind_text(stmt, 2, benchmark);
}

/* Where store_load_ops() appends. */
struct ops_sink {
	struct op_samples **ops;
	size_t *nr, *alloc;
};

static int op_row(sqlite3_stmt *stmt, void *data, struct strbuf *err)
{
	struct ops_sink *sink = data;
	struct op_samples *op;

	(void)err;
	ALLOC_GROW(*sink->ops, *sink->nr + 1, *sink->alloc);
	op = &(*sink->ops)[(*sink->nr)++];
	memset(op, 0, sizeof(*op));
	op->id = sqlite3_column_int64(stmt, 0);
	op->benchmark = store_column_strdup(stmt, 1);
	op->name = store_column_strdup(stmt, 2);
	op->unit = store_column_strdup(stmt, 3);
	op->higher_better = sqlite3_column_int(stmt, 4);
	op->decimals = sqlite3_column_int(stmt, 5);
	return 0;
}

int store_load_ops(struct store *st, int64_t run_id, const char *benchmark,
		   struct op_samples **ops, size_t *nr, size_t *alloc,
		   struct strbuf *err)
{
	sqlite3_stmt *stmt = stmt_get(st, ST_LOAD_OPS, err);
	struct ops_sink sink = {ops, nr, alloc};
	int ret = -1;

	if (!stmt)
		return -1;
	if (bind_run_bench(stmt, run_id, benchmark)) {
		store_fail(st, err, "load operations of run %" PRId64, run_id);
		goto out;
	}
	ret = store_each_row(st, stmt, op_row, &sink, err,
			     "load operations of run %" PRId64, run_id);
out:
	stmt_done(stmt);
	return ret;
}

/* A measured iteration of a run, as load_samples() reads it. */
struct load_iter {
	int64_t id, boot, started_ms;
	bool started_known;
};

/* Where load_samples() gathers a run's iterations. */
struct load_iters {
	struct load_iter *v;
	size_t nr, alloc;
};

static int iter_row(sqlite3_stmt *stmt, void *data, struct strbuf *err)
{
	struct load_iters *li = data;
	struct load_iter *it;

	(void)err;
	ALLOC_GROW(li->v, li->nr + 1, li->alloc);
	it = &li->v[li->nr++];
	it->id = sqlite3_column_int64(stmt, 0);
	it->boot = sqlite3_column_int64(stmt, 1);
	it->started_known = sqlite3_column_type(stmt, 2) != SQLITE_NULL &&
			    isfinite(sqlite3_column_double(stmt, 2));
	it->started_ms =
		it->started_known
			? llround((sqlite3_column_double(stmt, 2) - 2440587.5) *
				  86400000.0)
			: 0;
	return 0;
}

/* A sample of the first iteration, held until the room is made. */
struct staged_sample {
	struct op_samples *op;
	double value;
};

/* What load_samples() reads an iteration's sample rows into. */
struct samples_sink {
	struct run_data *rd;
	struct op_slot *slots;
	struct op_samples *last;
	int64_t run_id;
	/*
	 * The iteration being read, and the one whose keys last's last
	 * sample has, when last has not changed since (else NULL).
	 */
	const struct load_iter *it, *last_it;
	/* Staging: the first iteration's samples, before any is added. */
	bool staging;
	struct staged_sample *staged;
	size_t staged_nr, staged_alloc;
	/* The iteration's rows as mmcmp_samples() was given them. */
	struct sample_row {
		int64_t seq, op;
		double value;
	} * rows;
	size_t rows_nr, rows_alloc;
	bool disorder; /* not in the order of seq */
};

/* Add value to op, a sample of sink->it. */
static void sink_add(struct samples_sink *sink, struct op_samples *op,
		     double value)
{
	if (op != sink->last) {
		sink->last = op;
		sink->last_it = NULL;
	}
	/* The operation's next sample of this iteration: its keys are set. */
	if (sink->last_it == sink->it) {
		*op_samples_extend_like_last(op, 1) = value;
		return;
	}
	sink->last_it = sink->it;
	op_samples_add_keyed(op, value, sink->it->id, sink->run_id);
	op_samples_set_boot(op, sink->it->boot);
	op_samples_set_started(op, sink->it->started_known,
			       sink->it->started_ms);
}

/* Operation id of sink's run, or NULL. */
static struct op_samples *sink_op(const struct samples_sink *sink, int64_t id)
{
	struct op_samples *op = sink->last;

	/* Samples of one operation mostly come in a row. */
	if (!op || op->id != id)
		op = op_lookup(sink->rd, sink->slots, sink->rd->ops_nr, id);
	return op;
}

/* Rows r[0..n) of op, of the first iteration: staged until unstage(). */
static void sink_stage(struct samples_sink *sink, struct op_samples *op,
		       const struct sample_row *r, size_t n)
{
	sink->last = op;
	ALLOC_GROW(sink->staged, sink->staged_nr + n, sink->staged_alloc);
	for (size_t k = 0; k < n; k++) {
		sink->staged[sink->staged_nr].op = op;
		sink->staged[sink->staged_nr++].value = r[k].value;
	}
}

/*
 * mmcmp_samples(seq, operation_id, value): an aggregate of ours that
 * takes an iteration's samples, so that SQLite steps through them in one
 * loop, as a scan does, rather than return to us for each row (6% of
 * compare's instructions at a million samples). Each row is kept with
 * its seq, as an aggregate's rows come in no promised order.
 */
static void samples_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct store *st = sqlite3_user_data(ctx);
	struct samples_sink *sink = st->load_sink;
	struct sample_row *row;

	(void)argc;
	if (!sink)
		return;
	ALLOC_GROW(sink->rows, sink->rows_nr + 1, sink->rows_alloc);
	row = &sink->rows[sink->rows_nr++];
	row->seq = sqlite3_value_int64(argv[0]);
	row->op = sqlite3_value_int64(argv[1]);
	row->value = sqlite3_value_double(argv[2]);
	if (sink->rows_nr > 1 && row->seq < row[-1].seq)
		sink->disorder = true;
}

static int sample_row_cmp(const void *a, const void *b)
{
	const struct sample_row *x = a, *y = b;

	return (x->seq > y->seq) - (x->seq < y->seq);
}

/*
 * The iteration's rows into sink, in the order of seq: after the first
 * iteration, the rows of one operation in a row at once, the first with
 * its keys and the others as its like.
 */
static void sink_rows(struct samples_sink *sink)
{
	const struct sample_row *r = sink->rows;
	size_t n = sink->rows_nr, j;

	if (sink->disorder)
		qsort(sink->rows, n, sizeof(*sink->rows), sample_row_cmp);
	for (size_t i = 0; i < n; i = j) {
		struct op_samples *op;
		double *v;

		for (j = i + 1; j < n && r[j].op == r[i].op; j++)
			;
		op = sink_op(sink, r[i].op);
		if (!op)
			continue;
		if (sink->staging) {
			sink_stage(sink, op, r + i, j - i);
			continue;
		}
		sink_add(sink, op, r[i].value);
		if (j - i == 1)
			continue;
		v = op_samples_extend_like_last(op, j - i - 1);
		for (size_t k = i + 1; k < j; k++)
			*v++ = r[k].value;
	}
	sink->rows_nr = 0;
	sink->disorder = false;
}

/* mmcmp_samples()'s one row: nothing, the samples went to the sink. */
static void samples_final(sqlite3_context *ctx)
{
	sqlite3_result_null(ctx);
}

/*
 * The first iteration's samples are in: make room in each operation for
 * as many from each of the run's iterations, in one block (one sample
 * array and span array less per operation and run, and their page
 * faults), then add them.
 */
static void unstage(struct samples_sink *sink, size_t iterations)
{
	struct run_data *rd = sink->rd;
	size_t *values = xcalloc(rd->ops_nr + 1, sizeof(*values));
	size_t *spans = xcalloc(rd->ops_nr + 1, sizeof(*spans));

	for (size_t i = 0; i < sink->staged_nr; i++)
		values[sink->staged[i].op - rd->ops]++;
	for (size_t i = 0; i < rd->ops_nr; i++) {
		/* The samples of an iteration share their keys: a span. */
		spans[i] = rd->ops[i].spans_nr + (values[i] ? iterations : 0);
		values[i] = rd->ops[i].nr + values[i] * iterations;
	}
	run_data_reserve(rd, values, spans);
	sink->staging = false;
	sink->last = NULL;
	for (size_t i = 0; i < sink->staged_nr; i++)
		sink_add(sink, sink->staged[i].op, sink->staged[i].value);
	sink->staged_nr = 0;
	free(values);
	free(spans);
}

/*
 * The run's measured iterations in one query, then each one's samples
 * by the sample table's key: no join, and two columns a sample.
 */
static int load_samples(struct store *st, int64_t run_id, const char *benchmark,
			bool include_failed, struct run_data *rd,
			struct strbuf *err)
{
	sqlite3_stmt *stmt = stmt_get(st, ST_LOAD_ITERS, err);
	struct samples_sink sink = {
		.rd = rd, .run_id = run_id, .staging = true};
	struct load_iters li = {0};
	struct op_slot *slots = xcalloc(rd->ops_nr + 1, sizeof(*slots));
	int ret = -1, rc;

	if (!stmt)
		goto out;
	for (size_t i = 0; i < rd->ops_nr; i++) {
		slots[i].id = rd->ops[i].id;
		slots[i].index = i;
	}
	qsort(slots, rd->ops_nr, sizeof(*slots), op_slot_cmp);
	sink.slots = slots;
	if (bind_run_bench(stmt, run_id, benchmark) ||
	    sqlite3_bind_int(stmt, 3, include_failed)) {
		store_fail(st, err, "load iterations of run %" PRId64, run_id);
		goto out;
	}
	if (store_each_row(st, stmt, iter_row, &li, err,
			   "load iterations of run %" PRId64, run_id))
		goto out;
	stmt_done(stmt);
	stmt = stmt_get(st, ST_LOAD_SAMPLES, err);
	if (!stmt)
		goto out;
	for (size_t k = 0; k < li.nr; k++) {
		sink.it = &li.v[k];
		if (sqlite3_bind_int64(stmt, 1, li.v[k].id)) {
			store_fail(st, err, "load samples of run %" PRId64,
				   run_id);
			goto out;
		}
		/* The aggregate's one row: the samples went to the sink. */
		st->load_sink = &sink;
		rc = sqlite3_step(stmt);
		st->load_sink = NULL;
		if (rc != SQLITE_ROW) {
			store_fail(st, err, "load samples of run %" PRId64,
				   run_id);
			goto out;
		}
		sink_rows(&sink);
		(void)sqlite3_reset(stmt);
		if (!k)
			unstage(&sink, li.nr);
	}
	ret = 0;
out:
	stmt_done(stmt);
	free(li.v);
	free(slots);
	free(sink.staged);
	free(sink.rows);
	return ret;
}

static int duration_row(sqlite3_stmt *stmt, void *data, struct strbuf *err)
{
	struct run_data *rd = data;
	struct bench_duration *d;

	(void)err;
	ALLOC_GROW(rd->durations, rd->durations_nr + 1, rd->durations_alloc);
	d = &rd->durations[rd->durations_nr++];
	d->benchmark = store_column_strdup(stmt, 0);
	d->user_s = sqlite3_column_double(stmt, 1);
	d->sys_s = sqlite3_column_double(stmt, 2);
	d->elapsed_s = sqlite3_column_double(stmt, 3);
	d->iterations = (size_t)sqlite3_column_int64(stmt, 4);
	return 0;
}

static int load_durations(struct store *st, int64_t run_id,
			  const char *benchmark, struct run_data *rd,
			  struct strbuf *err)
{
	sqlite3_stmt *stmt = stmt_get(st, ST_LOAD_DURATIONS, err);
	int ret = -1;

	if (!stmt)
		return -1;
	if (bind_run_bench(stmt, run_id, benchmark)) {
		store_fail(st, err, "load durations of run %" PRId64, run_id);
		goto out;
	}
	ret = store_each_row(st, stmt, duration_row, rd, err,
			     "load durations of run %" PRId64, run_id);
out:
	stmt_done(stmt);
	return ret;
}

static int load_run(struct store *st, int64_t run_id, const char *benchmark,
		    bool include_failed, struct run_data *rd,
		    struct strbuf *err)
{
	struct store_tx tx;
	int ret = -1;

	/* One read transaction, so a concurrent writer is not half seen. */
	if (store_tx_open(st, false, &tx, err))
		return -1;
	if (store_run_get(st, run_id, &rd->info, err) ||
	    store_load_ops(st, run_id, benchmark, &rd->ops, &rd->ops_nr,
			   &rd->ops_alloc, err) ||
	    load_samples(st, run_id, benchmark, include_failed, rd, err) ||
	    load_durations(st, run_id, benchmark, rd, err) ||
	    store_load_monitors(st, run_id, benchmark, rd, err))
		goto out;
	ret = 0;
out:
	ret = store_tx_close(st, &tx, ret, err);
	if (ret)
		run_data_release(rd);
	return ret;
}

int store_load_run(struct store *st, int64_t run_id, const char *benchmark,
		   struct run_data *rd, struct strbuf *err)
{
	return load_run(st, run_id, benchmark, true, rd, err);
}

int store_load_run_ok(struct store *st, int64_t run_id, const char *benchmark,
		      struct run_data *rd, struct strbuf *err)
{
	return load_run(st, run_id, benchmark, false, rd, err);
}

int store_count_iterations(struct store *st, int64_t run_id,
			   const char *benchmark, int64_t *all, int64_t *failed,
			   int64_t *empty, struct strbuf *err)
{
	sqlite3_stmt *stmt = stmt_get(st, ST_COUNT_ITERS, err);
	int ret = -1;

	if (!stmt)
		return -1;
	if (bind_run_bench(stmt, run_id, benchmark) ||
	    sqlite3_step(stmt) != SQLITE_ROW) {
		store_fail(st, err, "count iterations of run %" PRId64, run_id);
		goto out;
	}
	*all = sqlite3_column_int64(stmt, 0);
	*failed = sqlite3_column_int64(stmt, 1);
	*empty = sqlite3_column_int64(stmt, 2);
	ret = 0;
out:
	stmt_done(stmt);
	return ret;
}

/* Where store_list_runs() appends. */
struct rows_sink {
	struct store *st;
	struct run_rows *rows;
};

static int list_row(sqlite3_stmt *stmt, void *data, struct strbuf *err)
{
	struct rows_sink *sink = data;
	struct run_rows *rows = sink->rows;
	struct run_row *r;

	(void)err;
	ALLOC_GROW(rows->v, rows->nr + 1, rows->alloc);
	r = &rows->v[rows->nr++];
	r->id = sqlite3_column_int64(stmt, 0);
	r->label = store_column_strdup(stmt, 1);
	r->started_at = store_column_strdup(stmt, 2);
	r->config_name = store_column_strdup(stmt, 3);
	r->status = xstrdup(store_run_status(
		sink->st, r->id, (const char *)sqlite3_column_text(stmt, 4)));
	r->iterations = sqlite3_column_int64(stmt, 5);
	r->failed_iterations = sqlite3_column_int64(stmt, 6);
	r->samples = sqlite3_column_int64(stmt, 7);
	return 0;
}

int store_list_runs(struct store *st, struct run_rows *rows, struct strbuf *err)
{
	sqlite3_stmt *stmt = stmt_get(st, ST_LIST_RUNS, err);
	struct rows_sink sink = {st, rows};
	size_t first = rows->nr;
	int ret = -1;

	if (!stmt)
		return -1;
	if (store_each_row(st, stmt, list_row, &sink, err, "list runs")) {
		while (rows->nr > first) {
			struct run_row *r = &rows->v[--rows->nr];

			free(r->label);
			free(r->started_at);
			free(r->config_name);
			free(r->status);
		}
		goto out;
	}
	ret = 0;
out:
	stmt_done(stmt);
	return ret;
}

void run_rows_release(struct run_rows *rows)
{
	if (!rows)
		return;
	for (size_t i = 0; i < rows->nr; i++) {
		free(rows->v[i].label);
		free(rows->v[i].started_at);
		free(rows->v[i].config_name);
		free(rows->v[i].status);
	}
	free(rows->v);
	memset(rows, 0, sizeof(*rows));
}
