/*
 * store-lifecycle: which runs may be created, replaced, deleted or
 * relabelled. A run that is alive (store.h) is never deleted or moved;
 * each call is one transaction. These calls are rare, so their
 * statements are prepared per call rather than cached.
 */
#include "store.h"

#include <string.h>

#include <sqlite3.h>

#include "store-internal.h"
#include "run-data.h"
#include "strbuf.h"
#include "util.h"

static const char sql_running[] =
	"SELECT id, hostname, pid, pid_start FROM run"
	" WHERE status = 'running' AND (?1 IS NULL OR label = ?1)"
	" AND (?2 = 0 OR id = ?2) AND id <> ?3 AND (?4 = 0 OR replacing)"
	" ORDER BY id";
static const char sql_count[] =
	"SELECT count(*) FROM run WHERE label = ?1 AND (?2 = 0 OR id = ?2)";
static const char sql_replaceable[] =
	"SELECT label, status, (SELECT count(*) FROM iteration i"
	" WHERE i.run_id = r.id AND i.warmup = 0 AND i.status = 'ok')"
	" FROM run r WHERE id = ?1";
static const char sql_delete_label[] = "DELETE FROM run WHERE label = ?1";
static const char sql_delete_older[] =
	"DELETE FROM run WHERE label = ?1 AND id = ?2 AND id <> ?3";
static const char sql_delete_run[] = "DELETE FROM run WHERE id = ?1";
static const char sql_relabel[] = "UPDATE run SET label = ?2"
				  " WHERE label = ?1 AND (?3 = 0 OR id = ?3)";

/* Prepare sql; NULL after "cannot prepare ..." on failure. */
static sqlite3_stmt *prepare(struct store *st, const char *sql,
			     struct strbuf *err)
{
	sqlite3_stmt *stmt = NULL;

	if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) != SQLITE_OK) {
		sqlite3_finalize(stmt);
		store_fail(st, err, "prepare a statement");
		return NULL;
	}
	return stmt;
}

/*
 * Set *run_id to the first run matching label (any when NULL) and id (any
 * when 0), other than except_id, replacing (when asked), whose process is
 * alive on this host; 0 when there is none. *pid is that process.
 */
/* What find_alive() learns of the first live run. */
struct alive_sink {
	int64_t *run_id, *pid;
};

/* A row of sql_running: stops at a run whose process is alive. */
static int alive_row(sqlite3_stmt *stmt, void *data, struct strbuf *err)
{
	struct alive_sink *sink = data;
	const char *host = (const char *)sqlite3_column_text(stmt, 1);

	(void)err;
	*sink->pid = sqlite3_column_int64(stmt, 2);
	if (store_run_owner(host, *sink->pid, sqlite3_column_int64(stmt, 3)) !=
	    STORE_OWNER_ALIVE)
		return 0;
	*sink->run_id = sqlite3_column_int64(stmt, 0);
	return 1;
}

static int find_alive(struct store *st, const char *label, int64_t id,
		      int64_t except_id, bool replacing, int64_t *run_id,
		      int64_t *pid, struct strbuf *err)
{
	sqlite3_stmt *stmt = prepare(st, sql_running, err);
	struct alive_sink sink = {run_id, pid};
	int ret = -1;

	*run_id = 0;
	if (!stmt)
		return -1;
	if (store_bind_text(stmt, 1, label) ||
	    sqlite3_bind_int64(stmt, 2, id) ||
	    sqlite3_bind_int64(stmt, 3, except_id) ||
	    sqlite3_bind_int(stmt, 4, replacing)) {
		store_fail(st, err, "find running runs");
		goto out;
	}
	ret = store_each_row(st, stmt, alive_row, &sink, err,
			     "find running runs");
out:
	sqlite3_finalize(stmt);
	return ret;
}

int store_find_running(struct store *st, const char *label, int64_t except_id,
		       int64_t *run_id, struct strbuf *err)
{
	int64_t pid;

	return find_alive(st, label, 0, except_id, false, run_id, &pid, err);
}

/*
 * Fail with "cannot WHAT: run N is still running" when a run matching
 * label, id and replacing (as in find_alive()) is alive; for replacing,
 * "... is replacing its runs".
 */
static int refuse_alive(struct store *st, const char *label, int64_t id,
			int64_t except_id, bool replacing, const char *what,
			struct strbuf *err)
{
	int64_t alive, pid = 0;

	if (find_alive(st, label, id, except_id, replacing, &alive, &pid, err))
		return -1;
	if (alive)
		return error_addf(
			err,
			"cannot %s: run %" PRId64 " is %s (pid %" PRId64 ")",
			what, alive,
			replacing ? "replacing its runs" : "still running",
			pid);
	return 0;
}

/* Set *nr to the number of runs of label (only run id, when not 0). */
static int count_runs(struct store *st, const char *label, int64_t id,
		      int64_t *nr, struct strbuf *err)
{
	sqlite3_stmt *stmt = prepare(st, sql_count, err);
	int ret = -1;

	if (!stmt)
		return -1;
	if (store_bind_text(stmt, 1, label) ||
	    sqlite3_bind_int64(stmt, 2, id) ||
	    sqlite3_step(stmt) != SQLITE_ROW) {
		store_fail(st, err, "count the runs of '%s'", label);
		goto out;
	}
	*nr = sqlite3_column_int64(stmt, 0);
	ret = 0;
out:
	sqlite3_finalize(stmt);
	return ret;
}

/* Fail when label has runs: "label 'L' already has results in 'DB'". */
static int refuse_taken(struct store *st, const char *label, struct strbuf *err)
{
	int64_t nr = 0;

	if (count_runs(st, label, 0, &nr, err))
		return -1;
	if (nr)
		return error_addf(err, "label '%s' already has results in '%s'",
				  label, st->path);
	return 0;
}

int store_run_check_start(struct store *st, const char *label, bool replacing,
			  struct strbuf *err)
{
	struct strbuf what = STRBUF_INIT;
	int ret;

	/* A replacing run waits for no run; any other for a replacing one. */
	strbuf_addf(&what,
		    replacing ? "replace the runs of '%s'"
			      : "add a run to '%s'",
		    label);
	ret = refuse_alive(st, label, 0, 0, !replacing, what.buf, err);
	strbuf_release(&what);
	return ret;
}

int store_run_create_exclusive(struct store *st, struct run_info *ri,
			       struct strbuf *err)
{
	struct store_tx tx;
	int ret;

	if (store_tx_open(st, true, &tx, err))
		return -1;
	ret = refuse_taken(st, ri->label, err);
	if (!ret)
		ret = store_run_create(st, ri, err);
	return store_tx_close(st, &tx, ret, err);
}

/* Run sql with label as ?1 and run_id, unless 0, as ?2. */
static int exec_label(struct store *st, const char *sql, const char *label,
		      int64_t run_id, struct strbuf *err)
{
	sqlite3_stmt *stmt = prepare(st, sql, err);
	int ret = -1;

	if (!stmt)
		return -1;
	if (store_bind_text(stmt, 1, label) ||
	    (run_id && sqlite3_bind_int64(stmt, 2, run_id)) ||
	    sqlite3_step(stmt) != SQLITE_DONE) {
		store_fail(st, err, "delete runs of '%s'", label);
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(stmt);
	return ret;
}

int store_delete_label(struct store *st, const char *label, struct strbuf *err)
{
	struct store_tx tx;
	int ret;

	if (store_tx_open(st, true, &tx, err))
		return -1;
	ret = refuse_alive(st, label, 0, 0, false, "delete the runs", err);
	if (!ret)
		ret = exec_label(st, sql_delete_label, label, 0, err);
	return store_tx_close(st, &tx, ret, err);
}

int store_delete_run(struct store *st, int64_t run_id, struct strbuf *err)
{
	sqlite3_stmt *stmt = NULL;
	struct store_tx tx;
	int ret = -1;

	if (store_tx_open(st, true, &tx, err))
		return -1;
	if (refuse_alive(st, NULL, run_id, 0, false, "delete it", err))
		goto out;
	stmt = prepare(st, sql_delete_run, err);
	if (!stmt)
		goto out;
	if (sqlite3_bind_int64(stmt, 1, run_id) ||
	    sqlite3_step(stmt) != SQLITE_DONE) {
		store_fail(st, err, "delete run %" PRId64, run_id);
		goto out;
	}
	if (!sqlite3_changes(st->db)) {
		error_addf(err, "no run %" PRId64, run_id);
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(stmt);
	return store_tx_close(st, &tx, ret, err);
}

/*
 * Check that run keep_id of label is complete with at least one
 * successful measured iteration: only then may it replace older runs.
 */
static int check_replacement(struct store *st, const char *label,
			     int64_t keep_id, struct strbuf *err)
{
	sqlite3_stmt *stmt = prepare(st, sql_replaceable, err);
	const char *status;
	int rc, ret = -1;

	if (!stmt)
		return -1;
	if (sqlite3_bind_int64(stmt, 1, keep_id)) {
		store_fail(st, err, "read run %" PRId64, keep_id);
		goto out;
	}
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_DONE) {
		error_addf(err, "no run %" PRId64, keep_id);
		goto out;
	}
	if (rc != SQLITE_ROW) {
		store_fail(st, err, "read run %" PRId64, keep_id);
		goto out;
	}
	status = (const char *)sqlite3_column_text(stmt, 1);
	if (strcmp((const char *)sqlite3_column_text(stmt, 0), label)) {
		error_addf(err, "run %" PRId64 " is not a run of '%s'", keep_id,
			   label);
		goto out;
	}
	if (strcmp(status, "complete")) {
		error_addf(err,
			   "cannot replace the runs of '%s': run %" PRId64
			   " is %s, not complete; the older runs are kept",
			   label, keep_id, status);
		goto out;
	}
	if (!sqlite3_column_int64(stmt, 2)) {
		error_addf(err,
			   "cannot replace the runs of '%s': run %" PRId64
			   " has no successful measured iteration; the older"
			   " runs are kept",
			   label, keep_id);
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(stmt);
	return ret;
}

/*
 * Delete the runs of ids that are still runs of label, but never keep_id.
 */
static int delete_listed(struct store *st, const char *label, int64_t keep_id,
			 const int64_t *ids, size_t nr, struct strbuf *err)
{
	sqlite3_stmt *stmt = prepare(st, sql_delete_older, err);
	int ret = -1;

	if (!stmt)
		return -1;
	for (size_t i = 0; i < nr; i++) {
		if (store_bind_text(stmt, 1, label) ||
		    sqlite3_bind_int64(stmt, 2, ids[i]) ||
		    sqlite3_bind_int64(stmt, 3, keep_id) ||
		    sqlite3_step(stmt) != SQLITE_DONE) {
			store_fail(st, err, "delete runs of '%s'", label);
			goto out;
		}
		sqlite3_reset(stmt);
	}
	ret = 0;
out:
	sqlite3_finalize(stmt);
	return ret;
}

int store_delete_older_runs(struct store *st, const char *label,
			    int64_t keep_id, const int64_t *old_ids,
			    size_t old_nr, struct strbuf *err)
{
	struct strbuf what = STRBUF_INIT;
	struct store_tx tx;
	int ret = -1;

	if (store_tx_open(st, true, &tx, err))
		return -1;
	strbuf_addf(&what, "replace the runs of '%s'", label);
	if (check_replacement(st, label, keep_id, err) ||
	    refuse_alive(st, label, 0, keep_id, false, what.buf, err) ||
	    delete_listed(st, label, keep_id, old_ids, old_nr, err))
		goto out;
	ret = 0;
out:
	strbuf_release(&what);
	return store_tx_close(st, &tx, ret, err);
}

int store_relabel(struct store *st, const char *old_label,
		  const char *new_label, int64_t run_id, bool append,
		  size_t *moved, struct strbuf *err)
{
	struct strbuf what = STRBUF_INIT;
	sqlite3_stmt *stmt = NULL;
	struct store_tx tx;
	int64_t nr = 0;
	int ret = -1;

	if (!strcmp(old_label, new_label))
		return error_addf(err, "the new label is the old one, '%s'",
				  old_label);
	if (store_tx_open(st, true, &tx, err))
		return -1;
	if (count_runs(st, old_label, run_id, &nr, err))
		goto out;
	if (!nr) {
		if (run_id)
			error_addf(err, "label '%s' has no run %" PRId64,
				   old_label, run_id);
		else
			error_addf(err, "no runs with label '%s'", old_label);
		goto out;
	}
	strbuf_addf(&what, "move runs to '%s'", new_label);
	if (refuse_alive(st, old_label, run_id, 0, false, "relabel", err) ||
	    refuse_alive(st, new_label, 0, 0, true, what.buf, err) ||
	    (!append && refuse_taken(st, new_label, err)))
		goto out;
	stmt = prepare(st, sql_relabel, err);
	if (!stmt)
		goto out;
	if (store_bind_text(stmt, 1, old_label) ||
	    store_bind_text(stmt, 2, new_label) ||
	    sqlite3_bind_int64(stmt, 3, run_id) ||
	    sqlite3_step(stmt) != SQLITE_DONE) {
		store_fail(st, err, "relabel '%s'", old_label);
		goto out;
	}
	if (moved)
		*moved = (size_t)sqlite3_changes(st->db);
	ret = 0;
out:
	strbuf_release(&what);
	sqlite3_finalize(stmt);
	return store_tx_close(st, &tx, ret, err);
}
