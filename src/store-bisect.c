/* store-bisect: the bisection log (db/migrations/0011). */
#include "store-bisect.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "machine.h"
#include "store-internal.h"
#include "store.h"
#include "strbuf.h"
#include "util.h"

void store_bisect_release(struct store_bisect *b)
{
	if (!b)
		return;
	free(b->started_at);
	free(b->repo);
	free(b->good);
	free(b->bad);
	free(b->operation);
	free(b->config_hash);
	free(b->outcome);
	free(b->culprit);
	memset(b, 0, sizeof(*b));
}

void store_bisect_step_release(struct store_bisect_step *s)
{
	if (!s)
		return;
	free(s->kind);
	free(s->commit);
	free(s->verdict);
	free(s->image_sha256);
	free(s->same_as);
	free(s->note);
	memset(s, 0, sizeof(*s));
}

void store_bisect_machine_release(struct store_bisect_machine *m)
{
	if (!m)
		return;
	free(m->build);
	free(m->image);
	free(m->initrd);
	free(m->append);
	free(m->workdir);
	memset(m, 0, sizeof(*m));
}

static int prepare(struct store *st, const char *sql, sqlite3_stmt **stmt,
		   struct strbuf *err)
{
	if (sqlite3_prepare_v2(st->db, sql, -1, stmt, NULL) == SQLITE_OK)
		return 0;
	return store_fail(st, err, "prepare a bisection query");
}

static int bind_real(sqlite3_stmt *stmt, int i, double v)
{
	return isnan(v) ? sqlite3_bind_null(stmt, i)
			: sqlite3_bind_double(stmt, i, v);
}

int store_bisect_create(struct store *st, const struct store_bisect *b,
			int64_t *id, struct strbuf *err)
{
	static const char sql[] =
		"INSERT INTO bisect (started_at, repo, good, bad, operation,"
		" config_hash, alpha) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";
	sqlite3_stmt *stmt = NULL;
	char now[32];
	int ret = -1;

	machine_utc_now(now);
	if (prepare(st, sql, &stmt, err))
		goto out;
	if (store_bind_text(stmt, 1, now) ||
	    store_bind_text(stmt, 2, b->repo) ||
	    store_bind_text(stmt, 3, b->good) ||
	    store_bind_text(stmt, 4, b->bad) ||
	    store_bind_text(stmt, 5, b->operation) ||
	    store_bind_text(stmt, 6, b->config_hash) ||
	    sqlite3_bind_double(stmt, 7, b->alpha) ||
	    sqlite3_step(stmt) != SQLITE_DONE) {
		store_fail(st, err, "store the bisection");
		goto out;
	}
	*id = sqlite3_last_insert_rowid(st->db);
	ret = 0;
out:
	sqlite3_finalize(stmt);
	return ret;
}

int store_bisect_find_open(struct store *st, const struct store_bisect *b,
			   int64_t *id, struct strbuf *err)
{
	static const char sql[] =
		"SELECT id FROM bisect WHERE outcome IS NULL AND repo = ?1"
		" AND good = ?2 AND bad = ?3 AND operation = ?4"
		" AND config_hash = ?5 ORDER BY id DESC LIMIT 1";
	sqlite3_stmt *stmt = NULL;
	int ret = -1, r;

	*id = 0;
	if (prepare(st, sql, &stmt, err))
		goto out;
	if (store_bind_text(stmt, 1, b->repo) ||
	    store_bind_text(stmt, 2, b->good) ||
	    store_bind_text(stmt, 3, b->bad) ||
	    store_bind_text(stmt, 4, b->operation) ||
	    store_bind_text(stmt, 5, b->config_hash)) {
		store_fail(st, err, "find the bisection");
		goto out;
	}
	r = sqlite3_step(stmt);
	if (r == SQLITE_ROW)
		*id = sqlite3_column_int64(stmt, 0);
	else if (r != SQLITE_DONE) {
		store_fail(st, err, "find the bisection");
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(stmt);
	return ret;
}

int store_bisect_add_step(struct store *st, int64_t id,
			  const struct store_bisect_step *s, struct strbuf *err)
{
	static const char sql[] =
		"INSERT INTO bisect_step (bisect_id, step, kind, commit_hash,"
		" verdict, units, p, pos, alpha, image_sha256, same_as, note)"
		" VALUES (?1, (SELECT count(*) FROM bisect_step"
		" WHERE bisect_id = ?1), ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
		" ?11)";
	sqlite3_stmt *stmt = NULL;
	int ret = -1;

	if (prepare(st, sql, &stmt, err))
		goto out;
	if (sqlite3_bind_int64(stmt, 1, id) ||
	    store_bind_text(stmt, 2, s->kind) ||
	    store_bind_text(stmt, 3, s->commit) ||
	    store_bind_text(stmt, 4, s->verdict) ||
	    sqlite3_bind_int64(stmt, 5, s->units) || bind_real(stmt, 6, s->p) ||
	    bind_real(stmt, 7, s->pos) ||
	    sqlite3_bind_double(stmt, 8, s->alpha) ||
	    store_bind_text(stmt, 9, s->image_sha256) ||
	    store_bind_text(stmt, 10, s->same_as) ||
	    store_bind_text(stmt, 11, s->note) ||
	    sqlite3_step(stmt) != SQLITE_DONE) {
		store_fail(st, err, "store a step of bisection %" PRId64, id);
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(stmt);
	return ret;
}

static double column_real(sqlite3_stmt *stmt, int i)
{
	return sqlite3_column_type(stmt, i) == SQLITE_NULL
		       ? NAN
		       : sqlite3_column_double(stmt, i);
}

int store_bisect_steps(struct store *st, int64_t id,
		       struct store_bisect_step **steps, size_t *nr,
		       struct strbuf *err)
{
	static const char sql[] =
		"SELECT step, kind, commit_hash, verdict, units, p, pos, alpha,"
		" image_sha256, same_as, note FROM bisect_step"
		" WHERE bisect_id = ?1"
		" ORDER BY step";
	sqlite3_stmt *stmt = NULL;
	size_t alloc = 0;
	int ret = -1, r;

	*steps = NULL;
	*nr = 0;
	if (prepare(st, sql, &stmt, err))
		goto out;
	if (sqlite3_bind_int64(stmt, 1, id)) {
		store_fail(st, err, "read bisection %" PRId64, id);
		goto out;
	}
	while ((r = sqlite3_step(stmt)) == SQLITE_ROW) {
		struct store_bisect_step *s;

		ALLOC_GROW(*steps, *nr + 1, alloc);
		s = &(*steps)[(*nr)++];
		s->step = sqlite3_column_int64(stmt, 0);
		s->kind = store_column_strdup(stmt, 1);
		s->commit = store_column_strdup(stmt, 2);
		s->verdict = store_column_strdup(stmt, 3);
		s->units = sqlite3_column_int64(stmt, 4);
		s->p = column_real(stmt, 5);
		s->pos = column_real(stmt, 6);
		s->alpha = column_real(stmt, 7);
		s->image_sha256 = store_column_strdup(stmt, 8);
		s->same_as = store_column_strdup(stmt, 9);
		s->note = store_column_strdup(stmt, 10);
	}
	if (r != SQLITE_DONE) {
		store_fail(st, err, "read bisection %" PRId64, id);
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(stmt);
	return ret;
}

int store_bisect_finish(struct store *st, int64_t id, const char *outcome,
			const char *culprit, struct strbuf *err)
{
	static const char sql[] =
		"UPDATE bisect SET outcome = ?2, culprit = ?3 WHERE id = ?1";
	sqlite3_stmt *stmt = NULL;
	int ret = -1;

	if (prepare(st, sql, &stmt, err))
		goto out;
	if (sqlite3_bind_int64(stmt, 1, id) ||
	    store_bind_text(stmt, 2, outcome) ||
	    store_bind_text(stmt, 3, culprit) ||
	    sqlite3_step(stmt) != SQLITE_DONE) {
		store_fail(st, err, "finish bisection %" PRId64, id);
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(stmt);
	return ret;
}

static int bisect_row(sqlite3_stmt *stmt, void *data, struct strbuf *err)
{
	struct store_bisect *b = data;

	(void)err;
	b->id = sqlite3_column_int64(stmt, 0);
	b->started_at = store_column_strdup(stmt, 1);
	b->repo = store_column_strdup(stmt, 2);
	b->good = store_column_strdup(stmt, 3);
	b->bad = store_column_strdup(stmt, 4);
	b->operation = store_column_strdup(stmt, 5);
	b->config_hash = store_column_strdup(stmt, 6);
	b->alpha = sqlite3_column_double(stmt, 7);
	b->outcome = store_column_strdup(stmt, 8);
	b->culprit = store_column_strdup(stmt, 9);
	return 1;
}

int store_bisect_get(struct store *st, int64_t id, struct store_bisect *b,
		     struct strbuf *err)
{
	static const char sql[] =
		"SELECT id, started_at, repo, good, bad, operation, config_hash,"
		" alpha, outcome, culprit FROM bisect WHERE id = ?1";
	sqlite3_stmt *stmt = NULL;
	int ret = -1;

	store_bisect_release(b);
	if (prepare(st, sql, &stmt, err))
		goto out;
	if (sqlite3_bind_int64(stmt, 1, id)) {
		store_fail(st, err, "read bisection %" PRId64, id);
		goto out;
	}
	ret = store_each_row(st, stmt, bisect_row, b, err,
			     "read bisection %" PRId64, id);
out:
	sqlite3_finalize(stmt);
	return ret;
}

int store_bisect_machine_add(struct store *st,
			     const struct store_bisect_machine *m,
			     struct strbuf *err)
{
	static const char sql[] =
		"INSERT INTO bisect_machine (bisect_id, campaign_id, build,"
		" image, initrd, append, workdir, margin_pct, rounds,"
		" max_batches) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";
	sqlite3_stmt *stmt = NULL;
	int ret = -1;

	if (prepare(st, sql, &stmt, err))
		goto out;
	if (sqlite3_bind_int64(stmt, 1, m->bisect_id) ||
	    sqlite3_bind_int64(stmt, 2, m->campaign_id) ||
	    store_bind_text(stmt, 3, m->build) ||
	    store_bind_text(stmt, 4, m->image) ||
	    store_bind_text(stmt, 5, m->initrd) ||
	    store_bind_text(stmt, 6, m->append) ||
	    store_bind_text(stmt, 7, m->workdir) ||
	    sqlite3_bind_double(stmt, 8, m->margin_pct) ||
	    sqlite3_bind_int64(stmt, 9, m->rounds) ||
	    sqlite3_bind_int64(stmt, 10, m->max_batches) ||
	    sqlite3_step(stmt) != SQLITE_DONE) {
		store_fail(st, err, "store bisection %" PRId64 "'s campaign",
			   m->bisect_id);
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(stmt);
	return ret;
}

static int machine_row(sqlite3_stmt *stmt, void *data, struct strbuf *err)
{
	struct store_bisect_machine *m = data;

	(void)err;
	m->bisect_id = sqlite3_column_int64(stmt, 0);
	m->campaign_id = sqlite3_column_int64(stmt, 1);
	m->build = store_column_strdup(stmt, 2);
	m->image = store_column_strdup(stmt, 3);
	m->initrd = store_column_strdup(stmt, 4);
	m->append = store_column_strdup(stmt, 5);
	m->workdir = store_column_strdup(stmt, 6);
	m->margin_pct = sqlite3_column_double(stmt, 7);
	m->rounds = sqlite3_column_int64(stmt, 8);
	m->max_batches = sqlite3_column_int64(stmt, 9);
	return 1;
}

int store_bisect_machine_get(struct store *st, int64_t campaign_id,
			     struct store_bisect_machine *m, struct strbuf *err)
{
	static const char sql[] =
		"SELECT bisect_id, campaign_id, build, image, initrd, append,"
		" workdir, margin_pct, rounds, max_batches FROM bisect_machine"
		" WHERE campaign_id = ?1";
	sqlite3_stmt *stmt = NULL;
	int ret = -1;

	store_bisect_machine_release(m);
	if (prepare(st, sql, &stmt, err))
		goto out;
	if (sqlite3_bind_int64(stmt, 1, campaign_id)) {
		store_fail(st, err, "read the bisection of campaign %" PRId64,
			   campaign_id);
		goto out;
	}
	ret = store_each_row(st, stmt, machine_row, m, err,
			     "read the bisection of campaign %" PRId64,
			     campaign_id);
out:
	sqlite3_finalize(stmt);
	return ret;
}
