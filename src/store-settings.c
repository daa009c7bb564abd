/* store-settings: the kernel settings a run wrote, in SQLite. */
#include "store.h"

#include <sqlite3.h>

#include "run-data.h"
#include "store-internal.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"

int store_run_setting_add(struct store *st, int64_t run_id, const char *path,
			  const char *old_value, const char *new_value,
			  struct strbuf *err)
{
	static const char sql[] = "INSERT INTO run_setting"
				  " (run_id, path, old_value, new_value)"
				  " VALUES (?1, ?2, ?3, ?4)";
	sqlite3_stmt *stmt = NULL;
	struct store_tx tx;
	int ret = -1;

	if (store_tx_open(st, true, &tx, err))
		return -1;
	if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) != SQLITE_OK) {
		store_fail(st, err, "prepare setting insert");
		goto out;
	}
	if (sqlite3_bind_int64(stmt, 1, run_id) ||
	    store_bind_text(stmt, 2, path) ||
	    store_bind_text(stmt, 3, old_value) ||
	    store_bind_text(stmt, 4, new_value) ||
	    sqlite3_step(stmt) != SQLITE_DONE) {
		store_fail(st, err, "record setting '%s' of run %" PRId64, path,
			   run_id);
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(stmt);
	return store_tx_close(st, &tx, ret, err);
}

int store_run_settings(struct store *st, int64_t run_id, struct strvec *out,
		       struct strbuf *err)
{
	struct run_full rf = {0};
	int ret = store_run_settings_load(st, run_id, &rf, err);

	for (size_t i = 0; !ret && i < rf.settings_nr; i++) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "%s %s -> %s", rf.settings[i].path,
			    rf.settings[i].old_value, rf.settings[i].new_value);
		strvec_push_nodup(out, strbuf_detach(&sb, NULL));
	}
	run_full_release(&rf);
	return ret;
}

int store_run_set_tunables(struct store *st, int64_t run_id,
			   const struct machine_info *m, struct strbuf *err)
{
	static const char sql[] = "UPDATE run SET thp_enabled = ?2,"
				  " thp_defrag = ?3, cpufreq_governor = ?4,"
				  " smt = ?5 WHERE id = ?1";
	sqlite3_stmt *stmt = NULL;
	struct store_tx tx;
	int ret = -1;

	if (store_tx_open(st, true, &tx, err))
		return -1;
	if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) != SQLITE_OK) {
		store_fail(st, err, "prepare machine update");
		goto out;
	}
	if (sqlite3_bind_int64(stmt, 1, run_id) ||
	    store_bind_text(stmt, 2, m->thp_enabled) ||
	    store_bind_text(stmt, 3, m->thp_defrag) ||
	    store_bind_text(stmt, 4, m->cpufreq_governor) ||
	    store_bind_text(stmt, 5, m->smt) ||
	    sqlite3_step(stmt) != SQLITE_DONE) {
		store_fail(st, err, "record the machine of run %" PRId64,
			   run_id);
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(stmt);
	return store_tx_close(st, &tx, ret, err);
}

/* A row of run_setting: one setting, appended to data (a run_full). */
static int setting_row(sqlite3_stmt *stmt, void *data, struct strbuf *err)
{
	struct run_full *rf = data;
	struct setting_data *sd;

	(void)err;
	ALLOC_GROW(rf->settings, rf->settings_nr + 1, rf->settings_alloc);
	sd = &rf->settings[rf->settings_nr++];
	sd->path = store_column_strdup(stmt, 0);
	sd->old_value = store_column_strdup(stmt, 1);
	sd->new_value = store_column_strdup(stmt, 2);
	return 0;
}

int store_run_settings_load(struct store *st, int64_t run_id,
			    struct run_full *rf, struct strbuf *err)
{
	static const char sql[] = "SELECT path, old_value, new_value"
				  " FROM run_setting WHERE run_id = ?1"
				  " ORDER BY id";
	sqlite3_stmt *stmt = NULL;
	int ret = -1;

	if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) != SQLITE_OK ||
	    sqlite3_bind_int64(stmt, 1, run_id)) {
		store_fail(st, err, "read the settings of run %" PRId64,
			   run_id);
		goto out;
	}
	ret = store_each_row(st, stmt, setting_row, rf, err,
			     "read the settings of run %" PRId64, run_id);
out:
	sqlite3_finalize(stmt);
	return ret;
}
