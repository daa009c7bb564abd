/* store-profile: the profiles of `run --profile`, in SQLite. */
#include "store-profile.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>

#include "store-internal.h"
#include "store.h"
#include "strbuf.h"
#include "util.h"

int store_profile_add(struct store *st, const struct profile_rec *rec,
		      struct strbuf *err)
{
	static const char sql[] =
		"INSERT INTO profile (run_id, benchmark, job, build, seq,"
		" started_at, frequency_hz, status, samples, lost, stacks,"
		" missing) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
		" ?11, ?12)";
	sqlite3_stmt *stmt = NULL;
	struct store_tx tx;
	int ret = -1;

	if (store_tx_open(st, true, &tx, err))
		return -1;
	if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) != SQLITE_OK) {
		store_fail(st, err, "prepare profile insert");
		goto out;
	}
	if (sqlite3_bind_int64(stmt, 1, rec->run_id) ||
	    store_bind_text(stmt, 2, rec->benchmark) ||
	    store_bind_text(stmt, 3, rec->job) ||
	    store_bind_text(stmt, 4, rec->build) ||
	    sqlite3_bind_int64(stmt, 5, rec->seq) ||
	    store_bind_text(stmt, 6, rec->started_at) ||
	    sqlite3_bind_int64(stmt, 7, rec->frequency_hz) ||
	    store_bind_text(stmt, 8, rec->status) ||
	    sqlite3_bind_int64(stmt, 9, (sqlite3_int64)rec->samples) ||
	    sqlite3_bind_int64(stmt, 10, (sqlite3_int64)rec->lost) ||
	    store_bind_text(stmt, 11, rec->stacks) ||
	    store_bind_text(stmt, 12, rec->missing) ||
	    sqlite3_step(stmt) != SQLITE_DONE) {
		store_fail(st, err, "store profile %" PRId64 " of run %" PRId64,
			   rec->seq, rec->run_id);
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(stmt);
	return store_tx_close(st, &tx, ret, err);
}

/* A row of the load query, appended to data (profile_rows). */
static int profile_row(sqlite3_stmt *stmt, void *data, struct strbuf *err)
{
	struct profile_rows *rows = data;
	struct profile_row *r;

	(void)err;
	ALLOC_GROW(rows->v, rows->nr + 1, rows->alloc);
	r = &rows->v[rows->nr++];
	r->run_id = sqlite3_column_int64(stmt, 0);
	r->seq = sqlite3_column_int64(stmt, 1);
	r->benchmark = store_column_strdup(stmt, 2);
	r->job = store_column_strdup(stmt, 3);
	r->build = store_column_strdup(stmt, 4);
	r->status = store_column_strdup(stmt, 5);
	r->samples = (uint64_t)sqlite3_column_int64(stmt, 6);
	r->lost = (uint64_t)sqlite3_column_int64(stmt, 7);
	r->stacks = store_column_strdup(stmt, 8);
	r->missing = store_column_strdup(stmt, 9);
	if (!r->stacks)
		r->stacks = xstrdup("");
	return 0;
}

int store_profile_load(struct store *st, const char *label,
		       const char *benchmark, struct profile_rows *rows,
		       struct strbuf *err)
{
	static const char sql[] =
		"SELECT p.run_id, p.seq, p.benchmark, p.job, p.build,"
		" p.status, p.samples, p.lost, p.stacks, p.missing"
		" FROM profile p JOIN run r ON r.id = p.run_id"
		" WHERE r.label = ?1 AND (?2 IS NULL OR p.benchmark = ?2)"
		" ORDER BY r.started_at, r.id, p.id";
	sqlite3_stmt *stmt = NULL;
	int ret = -1;

	if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) != SQLITE_OK ||
	    store_bind_text(stmt, 1, label) ||
	    store_bind_text(stmt, 2, benchmark)) {
		store_fail(st, err, "read the profiles of '%s'", label);
		goto out;
	}
	ret = store_each_row(st, stmt, profile_row, rows, err,
			     "read the profiles of '%s'", label);
out:
	sqlite3_finalize(stmt);
	return ret;
}

void profile_rows_release(struct profile_rows *rows)
{
	for (size_t i = 0; i < rows->nr; i++) {
		struct profile_row *r = &rows->v[i];

		free(r->benchmark);
		free(r->job);
		free(r->build);
		free(r->status);
		free(r->stacks);
		free(r->missing);
	}
	free(rows->v);
	memset(rows, 0, sizeof(*rows));
}
