/* store-series: the periodic monitor samples as time series. */
#include "store-series.h"

#include <stdlib.h>
#include <string.h>

#include "store-internal.h"
#include "strbuf.h"

/* Where store_load_monitor_series() appends: out, from out->v[first]. */
struct series_sink {
	struct monitor_series_list *out;
	size_t first;
};

static int series_row(sqlite3_stmt *stmt, void *data, struct strbuf *err)
{
	struct series_sink *sink = data;
	struct monitor_series_list *out = sink->out;
	int64_t id = sqlite3_column_int64(stmt, 0);
	struct monitor_series *ms;

	(void)err;
	if (out->nr == sink->first || out->v[out->nr - 1].iteration_id != id) {
		ALLOC_GROW(out->v, out->nr + 1, out->alloc);
		ms = &out->v[out->nr++];
		memset(ms, 0, sizeof(*ms));
		ms->iteration_id = id;
		ms->benchmark = store_column_strdup(stmt, 1);
		ms->build = store_column_strdup(stmt, 2);
	}
	ms = &out->v[out->nr - 1];
	ALLOC_GROW(ms->t_s, ms->nr + 1, ms->alloc);
	ms->value = xrealloc(ms->value, ms->alloc * sizeof(*ms->value));
	ms->t_s[ms->nr] = sqlite3_column_double(stmt, 3);
	ms->value[ms->nr++] = sqlite3_column_double(stmt, 4);
	return 0;
}

int store_load_monitor_series(struct store *st, int64_t run_id,
			      const char *counter,
			      struct monitor_series_list *out,
			      struct strbuf *err)
{
	static const char sql[] =
		"SELECT i.id, i.benchmark, i.build, s.t_s,"
		" coalesce(json_extract(s.vmstat, ?2), 0)"
		" FROM monitor_sample s JOIN iteration i ON i.id = s.iteration_id"
		" WHERE i.run_id = ?1 AND i.warmup = 0"
		" ORDER BY i.id, s.seq";
	struct strbuf path = STRBUF_INIT;
	sqlite3_stmt *stmt = NULL;
	struct series_sink sink = {out, out->nr};
	int ret = -1;

	/* A quoted JSON path key: counter names are plain, but be safe. */
	strbuf_addstr(&path, "$.\"");
	for (const char *p = counter; *p; p++)
		if (*p != '"' && *p != '\\')
			strbuf_addch(&path, *p);
	strbuf_addch(&path, '"');
	if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) != SQLITE_OK ||
	    sqlite3_bind_int64(stmt, 1, run_id) ||
	    sqlite3_bind_text(stmt, 2, path.buf, -1, SQLITE_STATIC)) {
		store_fail(st, err, "read the monitor samples of run %lld",
			   (long long)run_id);
		goto out;
	}
	ret = store_each_row(st, stmt, series_row, &sink, err,
			     "read the monitor samples of run %lld",
			     (long long)run_id);
out:
	sqlite3_finalize(stmt);
	strbuf_release(&path);
	return ret;
}

void monitor_series_list_release(struct monitor_series_list *list)
{
	if (!list)
		return;
	for (size_t i = 0; i < list->nr; i++) {
		free(list->v[i].benchmark);
		free(list->v[i].build);
		free(list->v[i].t_s);
		free(list->v[i].value);
	}
	free(list->v);
	memset(list, 0, sizeof(*list));
}
