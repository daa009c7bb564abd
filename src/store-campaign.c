/* store-campaign: campaigns and their boots (db/migrations/0009). */
#include "store-campaign.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include <sqlite3.h>

#include "campaign.h"
#include "store-internal.h"
#include "store.h"
#include "strbuf.h"
#include "util.h"

/* Bind a time, 0 (not yet) as NULL. */
static int bind_time(sqlite3_stmt *stmt, int i, double t)
{
	return t > 0 ? sqlite3_bind_double(stmt, i, t)
		     : sqlite3_bind_null(stmt, i);
}

/* sql prepared, or NULL (write_end() then says it failed). */
static sqlite3_stmt *prepare(struct store *st, const char *sql)
{
	sqlite3_stmt *stmt = NULL;

	if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) != SQLITE_OK) {
		sqlite3_finalize(stmt);
		return NULL;
	}
	return stmt;
}

/*
 * Every write here ends so: step stmt, from prepare(), when bound (the
 * binds all returned SQLITE_OK), and finalize it. A claim, an UPDATE
 * "... AND state = ?" of the state the row was read in, learns from
 * *claimed (NULL: not asked) whether the row was still in it, so of two
 * resumes exactly one changes it. 0, or -1 with "cannot WHAT: ..." in
 * err, WHAT from fmt.
 */
MMCMP_PRINTF(6, 7)
static int write_end(struct store *st, sqlite3_stmt *stmt, bool bound,
		     bool *claimed, struct strbuf *err, const char *fmt, ...)
{
	int ret = 0;

	if (!stmt || !bound || sqlite3_step(stmt) != SQLITE_DONE) {
		struct strbuf what = STRBUF_INIT;
		va_list ap;

		va_start(ap, fmt);
		strbuf_vaddf(&what, fmt, ap);
		va_end(ap);
		ret = store_fail(st, err, "%s", what.buf);
		strbuf_release(&what);
	} else if (claimed) {
		*claimed = sqlite3_changes(st->db) > 0;
	}
	sqlite3_finalize(stmt);
	return ret;
}

static int insert_campaign(struct store *st, const struct campaign *c,
			   struct strbuf *err)
{
	static const char sql[] =
		"INSERT INTO campaign (label, config_path, config_text, method,"
		" settle_s, boot_timeout_s, home_release, home_cmdline,"
		" unit_path, state, started_at)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 'running', ?10)";
	sqlite3_stmt *stmt = prepare(st, sql);

	return write_end(
		st, stmt,
		stmt && !(store_bind_text(stmt, 1, c->label) ||
			  store_bind_text(stmt, 2, c->config_path) ||
			  store_bind_text(stmt, 3, c->config_text) ||
			  store_bind_text(stmt, 4,
					  campaign_method_name(c->method)) ||
			  sqlite3_bind_double(stmt, 5, c->settle_s) ||
			  sqlite3_bind_double(stmt, 6, c->boot_timeout_s) ||
			  store_bind_text(stmt, 7, c->home_release) ||
			  store_bind_text(stmt, 8, c->home_cmdline) ||
			  store_bind_text(stmt, 9, c->unit_path) ||
			  sqlite3_bind_double(stmt, 10, c->started_at)),
		NULL, err, "store the campaign");
}

static int insert_boot(struct store *st, int64_t id,
		       const struct campaign_boot *b, struct strbuf *err)
{
	static const char sql[] =
		"INSERT INTO campaign_boot (campaign_id, number, kernel, image,"
		" initrd, entry, image_sha256, image_release, cmdline, state)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 'pending')";
	sqlite3_stmt *stmt = prepare(st, sql);

	return write_end(st, stmt,
			 stmt && !(sqlite3_bind_int64(stmt, 1, id) ||
				   sqlite3_bind_int64(stmt, 2, b->number) ||
				   store_bind_text(stmt, 3, b->kernel) ||
				   store_bind_text(stmt, 4, b->image) ||
				   store_bind_text(stmt, 5, b->initrd) ||
				   store_bind_text(stmt, 6, b->entry) ||
				   store_bind_text(stmt, 7, b->image_sha256) ||
				   store_bind_text(stmt, 8, b->image_release) ||
				   store_bind_text(stmt, 9, b->cmdline)),
			 NULL, err, "store boot %ld of the campaign",
			 b->number);
}

/*
 * Store c's boots from index from on, pending, each with the command line
 * it boots with (campaign_cmdline(), which needs c->id).
 */
static int insert_boots(struct store *st, struct campaign *c, size_t from,
			struct strbuf *err)
{
	struct strbuf cmdline = STRBUF_INIT;
	int ret = 0;

	for (size_t i = from; i < c->boots_nr && !ret; i++) {
		struct campaign_boot *b = &c->boots[i];

		campaign_cmdline(c->home_cmdline, b->append, c->id, b->number,
				 &cmdline);
		free(b->cmdline);
		b->cmdline = strbuf_detach(&cmdline, NULL);
		b->state = CAMPAIGN_BOOT_PENDING;
		ret = insert_boot(st, c->id, b, err);
	}
	strbuf_release(&cmdline);
	return ret;
}

int store_campaign_add(struct store *st, struct campaign *c, struct strbuf *err)
{
	struct store_tx tx;
	int64_t running = 0;
	int ret = -1;

	if (store_tx_open(st, true, &tx, err))
		return -1;
	if (store_query_int64(st,
			      "SELECT count(*) FROM campaign"
			      " WHERE state = 'running'",
			      &running, err))
		goto out;
	if (running) {
		error_addf(err,
			   "a campaign is running in '%s' already; see mmcmp "
			   "campaign status, or end it with mmcmp campaign "
			   "abort",
			   st->path);
		goto out;
	}
	if (insert_campaign(st, c, err))
		goto out;
	c->id = sqlite3_last_insert_rowid(st->db);
	c->state = CAMPAIGN_RUNNING;
	if (insert_boots(st, c, 0, err))
		goto out;
	ret = 0;
out:
	if (ret)
		c->id = 0;
	return store_tx_close(st, &tx, ret, err);
}

/* The boots of campaign id into *nr, -1 when it is not running. */
static int count_boots(struct store *st, int64_t id, int64_t *nr,
		       struct strbuf *err)
{
	static const char sql[] =
		"SELECT CASE WHEN state = 'running' THEN (SELECT count(*)"
		" FROM campaign_boot WHERE campaign_id = ?1) ELSE -1 END"
		" FROM campaign WHERE id = ?1";
	sqlite3_stmt *stmt = prepare(st, sql);
	int ret = 0, r = SQLITE_ERROR;

	*nr = -1;
	if (stmt && !sqlite3_bind_int64(stmt, 1, id))
		r = sqlite3_step(stmt);
	if (r == SQLITE_ROW)
		*nr = sqlite3_column_int64(stmt, 0);
	else if (r != SQLITE_DONE)
		ret = store_fail(st, err,
				 "count the boots of campaign %" PRId64, id);
	sqlite3_finalize(stmt);
	return ret;
}

int store_campaign_add_boots(struct store *st, struct campaign *c, size_t from,
			     bool *conflict, struct strbuf *err)
{
	struct store_tx tx;
	int64_t nr = -1;
	int ret = -1;

	*conflict = false;
	if (store_tx_open(st, true, &tx, err))
		return -1;
	if (count_boots(st, c->id, &nr, err))
		goto out;
	ret = -1;
	if (nr != (int64_t)from) {
		*conflict = true;
		goto out;
	}
	if (insert_boots(st, c, from, err))
		goto out;
	ret = 0;
out:
	if (*conflict)
		return store_tx_close(st, &tx, -1, NULL), 0;
	return store_tx_close(st, &tx, ret, err);
}

static double column_time(sqlite3_stmt *stmt, int i)
{
	return sqlite3_column_type(stmt, i) == SQLITE_NULL
		       ? 0
		       : sqlite3_column_double(stmt, i);
}

static int campaign_row(sqlite3_stmt *stmt, void *data, struct strbuf *err)
{
	struct campaign *c = data;
	const char *method = (const char *)sqlite3_column_text(stmt, 4);

	c->id = sqlite3_column_int64(stmt, 0);
	c->label = store_column_strdup(stmt, 1);
	c->config_path = store_column_strdup(stmt, 2);
	c->config_text = store_column_strdup(stmt, 3);
	c->method = method && !strcmp(method, "reboot") ? CAMPAIGN_REBOOT
							: CAMPAIGN_KEXEC;
	c->settle_s = sqlite3_column_double(stmt, 5);
	c->boot_timeout_s = sqlite3_column_double(stmt, 6);
	c->home_release = store_column_strdup(stmt, 7);
	c->home_cmdline = store_column_strdup(stmt, 8);
	c->unit_path = store_column_strdup(stmt, 9);
	if (!campaign_state_parse((const char *)sqlite3_column_text(stmt, 10),
				  &c->state))
		return error_addf(err, "campaign %" PRId64 ": bad state",
				  c->id);
	c->started_at = column_time(stmt, 11);
	c->ended_at = column_time(stmt, 12);
	c->bisect_id = sqlite3_column_int64(stmt, 13);
	c->open = sqlite3_column_int(stmt, 14) != 0;
	return 1;
}

static int boot_row(sqlite3_stmt *stmt, void *data, struct strbuf *err)
{
	struct campaign *c = data;
	struct campaign_boot *b;

	ALLOC_GROW(c->boots, c->boots_nr + 1, c->boots_alloc);
	b = &c->boots[c->boots_nr++];
	memset(b, 0, sizeof(*b));
	b->number = (long)sqlite3_column_int64(stmt, 0);
	b->kernel = store_column_strdup(stmt, 1);
	b->image = store_column_strdup(stmt, 2);
	b->initrd = store_column_strdup(stmt, 3);
	b->entry = store_column_strdup(stmt, 4);
	b->image_sha256 = store_column_strdup(stmt, 5);
	b->image_release = store_column_strdup(stmt, 6);
	b->cmdline = store_column_strdup(stmt, 7);
	if (!campaign_boot_state_parse(
		    (const char *)sqlite3_column_text(stmt, 8), &b->state))
		return error_addf(err,
				  "boot %ld of campaign %" PRId64 ": bad state",
				  b->number, c->id);
	b->booted_at = column_time(stmt, 9);
	b->resumed_at = column_time(stmt, 10);
	b->ended_at = column_time(stmt, 11);
	b->from_boot_id = store_column_strdup(stmt, 12);
	b->boot_id = store_column_strdup(stmt, 13);
	b->pid = sqlite3_column_int64(stmt, 14);
	b->why = store_column_strdup(stmt, 15);
	return 0;
}

static int load_boots(struct store *st, struct campaign *c, struct strbuf *err)
{
	static const char sql[] =
		"SELECT number, kernel, image, initrd, entry, image_sha256,"
		" image_release, cmdline, state, booted_at, resumed_at,"
		" ended_at, from_boot_id, boot_id, pid, why"
		" FROM campaign_boot WHERE campaign_id = ?1 ORDER BY number";
	sqlite3_stmt *stmt = NULL;
	int ret = -1;

	if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) != SQLITE_OK ||
	    sqlite3_bind_int64(stmt, 1, c->id)) {
		store_fail(st, err, "read the boots of campaign %" PRId64,
			   c->id);
		goto out;
	}
	ret = store_each_row(st, stmt, boot_row, c, err,
			     "read the boots of campaign %" PRId64, c->id);
out:
	sqlite3_finalize(stmt);
	return ret;
}

int store_campaign_load(struct store *st, int64_t id, struct campaign *c,
			struct strbuf *err)
{
	static const char sql[] =
		"SELECT id, label, config_path, config_text, method, settle_s,"
		" boot_timeout_s, home_release, home_cmdline, unit_path, state,"
		" started_at, ended_at, (SELECT m.bisect_id FROM bisect_machine m"
		" WHERE m.campaign_id = campaign.id), EXISTS (SELECT 1"
		" FROM bisect_machine m JOIN bisect b ON b.id = m.bisect_id"
		" WHERE m.campaign_id = campaign.id AND b.outcome IS NULL)"
		" FROM campaign WHERE (?1 = 0 OR id = ?1)"
		" ORDER BY ?1 = 0 AND state = 'running' DESC, id DESC LIMIT 1";
	sqlite3_stmt *stmt = NULL;
	struct store_tx tx;
	int ret = -1;

	campaign_release(c);
	if (store_tx_open(st, false, &tx, err))
		return -1;
	if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) != SQLITE_OK ||
	    sqlite3_bind_int64(stmt, 1, id)) {
		store_fail(st, err, "read the campaigns");
		goto out;
	}
	if (store_each_row(st, stmt, campaign_row, c, err,
			   "read the campaigns"))
		goto out;
	ret = c->id ? load_boots(st, c, err) : 0;
out:
	sqlite3_finalize(stmt);
	if (ret)
		campaign_release(c);
	return store_tx_close(st, &tx, ret, err);
}

static int update_boot(struct store *st, int64_t id,
		       const struct campaign_boot *b, bool *conflict,
		       struct strbuf *err)
{
	static const char sql[] =
		"UPDATE campaign_boot SET state = ?3, booted_at = ?4,"
		" resumed_at = ?5, ended_at = ?6, from_boot_id = ?7,"
		" boot_id = ?8, pid = ?9, why = ?10"
		" WHERE campaign_id = ?1 AND number = ?2 AND state = ?11";
	sqlite3_stmt *stmt = prepare(st, sql);
	bool claimed = true;
	int ret = write_end(
		st, stmt,
		stmt && !(sqlite3_bind_int64(stmt, 1, id) ||
			  sqlite3_bind_int64(stmt, 2, b->number) ||
			  store_bind_text(stmt, 3,
					  campaign_boot_state_name(b->state)) ||
			  bind_time(stmt, 4, b->booted_at) ||
			  bind_time(stmt, 5, b->resumed_at) ||
			  bind_time(stmt, 6, b->ended_at) ||
			  store_bind_text(stmt, 7, b->from_boot_id) ||
			  store_bind_text(stmt, 8, b->boot_id) ||
			  (b->pid ? sqlite3_bind_int64(stmt, 9, b->pid)
				  : sqlite3_bind_null(stmt, 9)) ||
			  store_bind_text(stmt, 10, b->why) ||
			  store_bind_text(stmt, 11,
					  campaign_boot_state_name(b->was))),
		&claimed, err, "update boot %ld of campaign %" PRId64,
		b->number, id);

	*conflict |= !claimed;
	return ret;
}

static int update_state(struct store *st, const struct campaign *c,
			bool *conflict, struct strbuf *err)
{
	static const char sql[] =
		"UPDATE campaign SET state = ?2, ended_at = ?3"
		" WHERE id = ?1 AND state = 'running'";
	sqlite3_stmt *stmt = prepare(st, sql);
	bool claimed = true;
	int ret = write_end(
		st, stmt,
		stmt && !(sqlite3_bind_int64(stmt, 1, c->id) ||
			  store_bind_text(stmt, 2,
					  campaign_state_name(c->state)) ||
			  bind_time(stmt, 3, c->ended_at)),
		&claimed, err, "update campaign %" PRId64, c->id);

	*conflict |= !claimed;
	return ret;
}

int store_campaign_update(struct store *st, struct campaign *c, bool *conflict,
			  struct strbuf *err)
{
	struct store_tx tx;
	int ret = -1;

	*conflict = false;
	if (store_tx_open(st, true, &tx, err))
		return -1;
	for (size_t i = 0; i < c->boots_nr && !*conflict; i++)
		if (c->boots[i].changed &&
		    update_boot(st, c->id, &c->boots[i], conflict, err))
			goto out;
	if (c->state_changed && !*conflict &&
	    update_state(st, c, conflict, err))
		goto out;
	ret = *conflict ? -1 : 0;
out:
	if (ret && *conflict) {
		store_tx_close(st, &tx, -1, NULL);
		return 0;
	}
	ret = store_tx_close(st, &tx, ret, err);
	if (!ret) {
		for (size_t i = 0; i < c->boots_nr; i++)
			c->boots[i].changed = false;
		c->state_changed = false;
	}
	return ret;
}

int store_campaign_boot_run(struct store *st, const struct campaign_boot *b,
			    int64_t *run_id, struct strbuf *err)
{
	static const char sql[] =
		"SELECT run_id FROM boot WHERE number = ?1 AND kernel = ?2"
		" AND append = ?3 ORDER BY run_id LIMIT 1";
	sqlite3_stmt *stmt = prepare(st, sql);
	int r = SQLITE_ERROR;

	*run_id = 0;
	if (stmt && !sqlite3_bind_int64(stmt, 1, b->number) &&
	    !store_bind_text(stmt, 2, b->kernel) &&
	    !store_bind_text(stmt, 3, b->cmdline))
		r = sqlite3_step(stmt);
	if (r == SQLITE_ROW)
		*run_id = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	if (r != SQLITE_ROW && r != SQLITE_DONE)
		return store_fail(st, err, "find the run of boot %ld",
				  b->number);
	return 0;
}

int store_campaign_set_unit(struct store *st, int64_t id, const char *path,
			    struct strbuf *err)
{
	static const char sql[] = "UPDATE campaign SET unit_path = ?2"
				  " WHERE id = ?1";
	sqlite3_stmt *stmt = NULL;
	struct store_tx tx;

	if (store_tx_open(st, true, &tx, err))
		return -1;
	stmt = prepare(st, sql);
	return store_tx_close(
		st, &tx,
		write_end(st, stmt,
			  stmt && !(sqlite3_bind_int64(stmt, 1, id) ||
				    store_bind_text(stmt, 2, path)),
			  NULL, err, "record the unit of campaign %" PRId64,
			  id),
		err);
}

int store_campaign_abort(struct store *st, int64_t id, double now,
			 bool *was_running, struct strbuf *err)
{
	static const char sql[] =
		"UPDATE campaign SET state = 'aborted', ended_at = ?2"
		" WHERE id = ?1 AND state = 'running'";
	sqlite3_stmt *stmt = NULL;
	struct store_tx tx;

	if (store_tx_open(st, true, &tx, err))
		return -1;
	stmt = prepare(st, sql);
	return store_tx_close(
		st, &tx,
		write_end(st, stmt,
			  stmt && !(sqlite3_bind_int64(stmt, 1, id) ||
				    sqlite3_bind_double(stmt, 2, now)),
			  was_running, err, "abort campaign %" PRId64, id),
		err);
}

int store_label_taken(struct store *st, const char *label, bool *taken,
		      struct strbuf *err)
{
	static const char sql[] = "SELECT 1 FROM run WHERE label = ?1 LIMIT 1";
	sqlite3_stmt *stmt = NULL;
	int rc, ret = -1;

	if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) != SQLITE_OK ||
	    store_bind_text(stmt, 1, label)) {
		store_fail(st, err, "read the labels");
		goto out;
	}
	rc = sqlite3_step(stmt);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		store_fail(st, err, "read the labels");
		goto out;
	}
	*taken = rc == SQLITE_ROW;
	ret = 0;
out:
	sqlite3_finalize(stmt);
	return ret;
}
