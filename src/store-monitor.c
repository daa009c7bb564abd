/* store-monitor: iterations' monitor records in SQLite. */
#include "store.h"

#include <math.h>
#include <string.h>

#include <sqlite3.h>

#include "store-internal.h"
#include "monitor.h"
#include "monitor-perf.h"
#include "run-data.h"
#include "strbuf.h"
#include "strmap.h"
#include "strvec.h"
#include "util.h"

static int prepare(struct store *st, const char *sql, sqlite3_stmt **stmt,
		   const char *what, struct strbuf *err)
{
	if (sqlite3_prepare_v2(st->db, sql, -1, stmt, NULL) != SQLITE_OK)
		return store_fail(st, err, "prepare %s", what);
	return 0;
}

/*
 * The statement of sql in the store's cache slot, prepared at its first
 * use: the inserts of every iteration are parsed once per store.
 */
static sqlite3_stmt *cached(struct store *st, int slot, const char *sql,
			    const char *what, struct strbuf *err)
{
	if (!st->stmt[slot] &&
	    sqlite3_prepare_v3(st->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
			       &st->stmt[slot], NULL) != SQLITE_OK) {
		store_fail(st, err, "prepare %s", what);
		return NULL;
	}
	return st->stmt[slot];
}

/* Make a cached statement ready for its next use; NULL is a no-op. */
static void cached_done(sqlite3_stmt *stmt)
{
	if (!stmt)
		return;
	(void)sqlite3_reset(stmt);
	sqlite3_clear_bindings(stmt);
}

/*
 * Append mv to sb as a JSON object of name -> integer. The names come
 * from /proc files, but are escaped all the same. Built by hand rather
 * than with printf: it runs for every iteration.
 */
static void json_object(struct strbuf *sb, const struct monitor_values *mv)
{
	char num[24];

	strbuf_addch(sb, '{');
	for (size_t i = 0; i < mv->nr; i++) {
		uint64_t v = (uint64_t)mv->v[i].value;
		size_t n = sizeof(num);

		strbuf_addstr(sb, i ? ",\"" : "\"");
		for (const char *p = mv->v[i].name; *p; p++) {
			unsigned char c = (unsigned char)*p;

			if (c == '"' || c == '\\')
				strbuf_addf(sb, "\\%c", c);
			else if (c < 0x20 || c == 0x7f)
				strbuf_addf(sb, "\\u%04x", c);
			else
				strbuf_addch(sb, (char)c);
		}
		strbuf_add(sb, "\":", 2);
		if (mv->v[i].value < 0) {
			strbuf_addch(sb, '-');
			v = -v; /* modulo 2^64: INT64_MIN too */
		}
		do {
			num[--n] = (char)('0' + v % 10);
			v /= 10;
		} while (v);
		strbuf_add(sb, num + n, sizeof(num) - n);
	}
	strbuf_addch(sb, '}');
}

/* Bind the JSON object of mv, built in sb, to parameter i. */
static int bind_json(sqlite3_stmt *stmt, int i, struct strbuf *sb,
		     const struct monitor_values *mv)
{
	strbuf_reset(sb);
	json_object(sb, mv);
	return sqlite3_bind_text(stmt, i, sb->buf, (int)sb->len,
				 SQLITE_TRANSIENT);
}

/* Bind v, or NULL when it is NaN (not known). */
/* Column i as a number, NaN for NULL. */
static double column_real(sqlite3_stmt *stmt, int i)
{
	return sqlite3_column_type(stmt, i) == SQLITE_NULL
		       ? NAN
		       : sqlite3_column_double(stmt, i);
}

static int bind_real(sqlite3_stmt *stmt, int i, double v)
{
	return isnan(v) ? sqlite3_bind_null(stmt, i)
			: sqlite3_bind_double(stmt, i, v);
}

/* Bind the JSON object of mv when has, else NULL. */
static int bind_json_or_null(sqlite3_stmt *stmt, int i, struct strbuf *sb,
			     bool has, const struct monitor_values *mv)
{
	return has ? bind_json(stmt, i, sb, mv) : sqlite3_bind_null(stmt, i);
}

static int add_samples(struct store *st, int64_t iter_id,
		       const struct monitor_record *rec, struct strbuf *err)
{
	static const char sql[] =
		"INSERT INTO monitor_sample"
		" (iteration_id, seq, t_s, vmstat, cpu, meminfo)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
	struct strbuf json = STRBUF_INIT;
	sqlite3_stmt *stmt = NULL;
	int ret = -1;

	if (prepare(st, sql, &stmt, "monitor sample insert", err))
		goto out;
	for (size_t i = 0; i < rec->samples_nr; i++) {
		const struct monitor_sample *s = &rec->samples[i];

		if (sqlite3_bind_int64(stmt, 1, iter_id) ||
		    sqlite3_bind_int64(stmt, 2, (sqlite3_int64)i + 1) ||
		    sqlite3_bind_double(stmt, 3, s->t_s) ||
		    bind_json(stmt, 4, &json, &s->vmstat) ||
		    bind_json(stmt, 5, &json, &s->cpu) ||
		    bind_json(stmt, 6, &json, &s->meminfo) ||
		    sqlite3_step(stmt) != SQLITE_DONE) {
			store_fail(st, err, "store monitor sample %zu", i + 1);
			goto out;
		}
		if (sqlite3_reset(stmt) != SQLITE_OK) {
			store_fail(st, err, "store monitor sample %zu", i + 1);
			goto out;
		}
	}
	ret = 0;
out:
	sqlite3_finalize(stmt);
	strbuf_release(&json);
	return ret;
}

/* The perf counters of rec, or why there are none (iteration_perf). */
static int add_perf(struct store *st, int64_t iter_id,
		    const struct monitor_record *rec, struct strbuf *err)
{
	static const char sql[] =
		"INSERT INTO iteration_perf (iteration_id, counters, absent,"
		" scope) VALUES (?1, ?2, ?3, ?4)";
	struct strbuf json = STRBUF_INIT;
	sqlite3_stmt *stmt =
		cached(st, STORE_STMT_MONITOR_PERF, sql, "perf insert", err);
	int ret = -1;

	if (!stmt)
		goto out;
	if (sqlite3_bind_int64(stmt, 1, iter_id) ||
	    bind_json(stmt, 2, &json, &rec->perf) ||
	    store_bind_text(stmt, 3, rec->perf_absent) ||
	    store_bind_text(stmt, 4, rec->perf_scope) ||
	    sqlite3_step(stmt) != SQLITE_DONE) {
		store_fail(st, err, "store perf counters of iteration %" PRId64,
			   iter_id);
		goto out;
	}
	ret = 0;
out:
	cached_done(stmt);
	strbuf_release(&json);
	return ret;
}

static int add_record(struct store *st, int64_t iter_id,
		      const struct monitor_record *rec, struct strbuf *err)
{
	static const char sql[] =
		"INSERT INTO iteration_monitor (iteration_id, interval_s,"
		" vmstat, cpu, meminfo_start, meminfo_end, other_cpu,"
		" loadavg_start, loadavg_end, cgroup, cgroup_start, cgroup_end,"
		" vmstat_end)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)";
	struct strbuf json = STRBUF_INIT;
	sqlite3_stmt *stmt =
		cached(st, STORE_STMT_MONITOR, sql, "monitor insert", err);
	int ret = -1;

	if (!stmt)
		goto out;
	if (sqlite3_bind_int64(stmt, 1, iter_id) ||
	    sqlite3_bind_double(stmt, 2,
				rec->samples_nr ? rec->interval_s : 0.0) ||
	    bind_json(stmt, 3, &json, &rec->vmstat) ||
	    bind_json(stmt, 4, &json, &rec->cpu) ||
	    bind_json(stmt, 5, &json, &rec->meminfo_start) ||
	    bind_json(stmt, 6, &json, &rec->meminfo_end) ||
	    bind_real(stmt, 7, rec->other_cpu) ||
	    bind_real(stmt, 8, rec->loadavg_start) ||
	    bind_real(stmt, 9, rec->loadavg_end) ||
	    bind_json_or_null(stmt, 10, &json, rec->has_cgroup, &rec->cgroup) ||
	    bind_json_or_null(stmt, 11, &json, rec->has_cgroup,
			      &rec->cgroup_start) ||
	    bind_json_or_null(stmt, 12, &json, rec->has_cgroup,
			      &rec->cgroup_end) ||
	    bind_json_or_null(stmt, 13, &json, rec->has_vmstat_end,
			      &rec->vmstat_end) ||
	    sqlite3_step(stmt) != SQLITE_DONE) {
		store_fail(st, err, "store monitors of iteration %" PRId64,
			   iter_id);
		goto out;
	}
	if (rec->samples_nr && add_samples(st, iter_id, rec, err))
		goto out;
	if ((rec->has_perf || rec->perf_absent) &&
	    add_perf(st, iter_id, rec, err))
		goto out;
	ret = 0;
out:
	cached_done(stmt);
	strbuf_release(&json);
	return ret;
}

int store_monitor_add(struct store *st, int64_t iter_id,
		      const struct monitor_record *rec, struct strbuf *err)
{
	struct store_tx tx;

	if (store_tx_open(st, true, &tx, err))
		return -1;
	return store_tx_close(st, &tx, add_record(st, iter_id, rec, err), err);
}

/* A view of mc as monitor values (names borrowed); release with free(). */
static void counts_view(const struct monitor_counts *mc,
			struct monitor_values *out)
{
	out->v = xcalloc(mc->nr + 1, sizeof(*out->v));
	out->nr = mc->nr;
	out->alloc = mc->nr + 1;
	for (size_t i = 0; i < mc->nr; i++) {
		out->v[i].name = mc->v[i].name;
		out->v[i].value = mc->v[i].value;
	}
}

int store_monitor_add_full(struct store *st, int64_t iter_id,
			   const struct iteration_monitor *m,
			   struct strbuf *err)
{
	struct monitor_record rec = {
		.interval_s = m->interval_s,
		.other_cpu = m->other_cpu,
		.loadavg_start = m->loadavg_start,
		.loadavg_end = m->loadavg_end,
		.has_cgroup = m->has_cgroup,
		.has_vmstat_end = m->has_vmstat_end,
	};
	int ret;

	counts_view(&m->cgroup, &rec.cgroup);
	counts_view(&m->cgroup_start, &rec.cgroup_start);
	counts_view(&m->cgroup_end, &rec.cgroup_end);
	counts_view(&m->vmstat, &rec.vmstat);
	counts_view(&m->vmstat_end, &rec.vmstat_end);
	counts_view(&m->cpu, &rec.cpu);
	counts_view(&m->meminfo_start, &rec.meminfo_start);
	counts_view(&m->meminfo_end, &rec.meminfo_end);
	counts_view(&m->perf, &rec.perf);
	rec.has_perf = m->has_perf;
	rec.perf_absent = m->perf_absent;
	rec.perf_scope = m->perf_scope;
	rec.samples = xcalloc(m->samples_nr + 1, sizeof(*rec.samples));
	rec.samples_nr = m->samples_nr;
	for (size_t i = 0; i < m->samples_nr; i++) {
		rec.samples[i].t_s = m->samples[i].t_s;
		counts_view(&m->samples[i].vmstat, &rec.samples[i].vmstat);
		counts_view(&m->samples[i].cpu, &rec.samples[i].cpu);
		counts_view(&m->samples[i].meminfo, &rec.samples[i].meminfo);
	}
	ret = add_record(st, iter_id, &rec, err);
	monitor_values_release(&rec.cgroup);
	monitor_values_release(&rec.cgroup_start);
	monitor_values_release(&rec.cgroup_end);
	monitor_values_release(&rec.vmstat);
	monitor_values_release(&rec.vmstat_end);
	monitor_values_release(&rec.cpu);
	monitor_values_release(&rec.meminfo_start);
	monitor_values_release(&rec.meminfo_end);
	monitor_values_release(&rec.perf);
	for (size_t i = 0; i < m->samples_nr; i++) {
		monitor_values_release(&rec.samples[i].vmstat);
		monitor_values_release(&rec.samples[i].cpu);
		monitor_values_release(&rec.samples[i].meminfo);
	}
	free(rec.samples);
	return ret;
}

/*
 * Append the members of the JSON object in column col of row to mc, in
 * their order, through each (SELECT over json_each(?1)).
 */
/* What count_row() adds to. */
struct counts_sink {
	struct monitor_counts *mc;
	int64_t iter_id;
};

/* A row of json_each(): one counter, added to data's counts. */
static int count_row(sqlite3_stmt *each, void *data, struct strbuf *err)
{
	struct counts_sink *sink = data;
	const char *name = (const char *)sqlite3_column_text(each, 0);

	if (!name || sqlite3_column_type(each, 1) != SQLITE_INTEGER)
		return error_addf(err,
				  "iteration %" PRId64
				  ": a monitor value that is not an integer",
				  sink->iter_id);
	monitor_counts_add(sink->mc, name, sqlite3_column_int64(each, 1));
	return 0;
}

static int load_counts(struct store *st, sqlite3_stmt *each, sqlite3_stmt *row,
		       int col, struct monitor_counts *mc, int64_t iter_id,
		       struct strbuf *err)
{
	struct counts_sink sink = {mc, iter_id};

	if (sqlite3_bind_value(each, 1, sqlite3_column_value(row, col)))
		return store_fail(st, err,
				  "read monitors of iteration %" PRId64,
				  iter_id);
	if (store_each_row(st, each, count_row, &sink, err,
			   "read monitors of iteration %" PRId64, iter_id)) {
		sqlite3_reset(each);
		return -1;
	}
	if (sqlite3_reset(each) != SQLITE_OK)
		return store_fail(st, err,
				  "read monitors of iteration %" PRId64,
				  iter_id);
	return 0;
}

/* The iteration of rf with store id id, at or after *k (ids ascend). */
static struct iteration_data *iter_by_id(struct run_full *rf, size_t *k,
					 int64_t id)
{
	while (*k < rf->iters_nr && rf->iters[*k].id < id)
		(*k)++;
	return *k < rf->iters_nr && rf->iters[*k].id == id ? &rf->iters[*k]
							   : NULL;
}

static const char full_sql[] =
	"SELECT m.iteration_id, m.interval_s, m.vmstat, m.cpu,"
	" m.meminfo_start, m.meminfo_end, m.other_cpu, m.loadavg_start,"
	" m.loadavg_end, m.cgroup, m.cgroup_start, m.cgroup_end,"
	" p.iteration_id, p.counters, p.absent, m.vmstat_end, p.scope"
	" FROM iteration_monitor m JOIN iteration i ON i.id = m.iteration_id"
	" LEFT JOIN iteration_perf p ON p.iteration_id = m.iteration_id"
	" WHERE i.run_id = ?1 AND (?2 IS NULL OR i.benchmark = ?2)"
	" ORDER BY m.iteration_id";
static const char full_samples_sql[] =
	"SELECT s.iteration_id, s.t_s, s.vmstat, s.cpu, s.meminfo"
	" FROM monitor_sample s JOIN iteration i ON i.id = s.iteration_id"
	" WHERE i.run_id = ?1 AND (?2 IS NULL OR i.benchmark = ?2)"
	" ORDER BY s.iteration_id, s.seq";

/* Where full_row() reads its rows. */
struct full_sink {
	struct store *st;
	sqlite3_stmt *each;
	struct run_full *rf;
	bool samples;
	size_t k;
};

/* A row of full_sql: the monitor record of an iteration of data's rf. */
static int full_record(struct full_sink *sink, sqlite3_stmt *stmt,
		       struct iteration_data *it, int64_t id,
		       struct strbuf *err)
{
	struct store *st = sink->st;
	sqlite3_stmt *each = sink->each;
	struct iteration_monitor *m;

	m = it->monitor = iteration_monitor_new();
	m->interval_s = sqlite3_column_double(stmt, 1);
	if (load_counts(st, each, stmt, 2, &m->vmstat, id, err) ||
	    load_counts(st, each, stmt, 3, &m->cpu, id, err) ||
	    load_counts(st, each, stmt, 4, &m->meminfo_start, id, err) ||
	    load_counts(st, each, stmt, 5, &m->meminfo_end, id, err))
		return -1;
	m->other_cpu = column_real(stmt, 6);
	m->loadavg_start = column_real(stmt, 7);
	m->loadavg_end = column_real(stmt, 8);
	m->has_cgroup = sqlite3_column_type(stmt, 9) != SQLITE_NULL;
	if (m->has_cgroup &&
	    (load_counts(st, each, stmt, 9, &m->cgroup, id, err) ||
	     load_counts(st, each, stmt, 10, &m->cgroup_start, id, err) ||
	     load_counts(st, each, stmt, 11, &m->cgroup_end, id, err)))
		return -1;
	m->has_perf = sqlite3_column_type(stmt, 12) != SQLITE_NULL;
	m->perf_absent = store_column_strdup(stmt, 14);
	m->perf_scope = store_column_strdup(stmt, 16);
	if (m->has_perf && load_counts(st, each, stmt, 13, &m->perf, id, err))
		return -1;
	m->has_vmstat_end = sqlite3_column_type(stmt, 15) != SQLITE_NULL;
	if (m->has_vmstat_end &&
	    load_counts(st, each, stmt, 15, &m->vmstat_end, id, err))
		return -1;
	return 0;
}

/*
 * A row of full_sql (sink->samples false) or full_samples_sql, into the
 * iteration of rf it belongs to.
 */
static int full_row(sqlite3_stmt *stmt, void *data, struct strbuf *err)
{
	struct full_sink *sink = data;
	int64_t id = sqlite3_column_int64(stmt, 0);
	struct iteration_data *it = iter_by_id(sink->rf, &sink->k, id);
	struct iteration_monitor_sample *s;
	struct iteration_monitor *m;

	if (!it || (sink->samples && !it->monitor))
		return 0;
	if (!sink->samples)
		return full_record(sink, stmt, it, id, err);
	m = it->monitor;
	ALLOC_GROW(m->samples, m->samples_nr + 1, m->samples_alloc);
	s = &m->samples[m->samples_nr++];
	memset(s, 0, sizeof(*s));
	s->t_s = sqlite3_column_double(stmt, 1);
	if (load_counts(sink->st, sink->each, stmt, 2, &s->vmstat, id, err) ||
	    load_counts(sink->st, sink->each, stmt, 3, &s->cpu, id, err) ||
	    load_counts(sink->st, sink->each, stmt, 4, &s->meminfo, id, err))
		return -1;
	return 0;
}

/*
 * Read the rows of full_sql (samples false) or full_samples_sql into the
 * iterations of rf they belong to.
 */
static int load_full_rows(struct store *st, sqlite3_stmt *stmt,
			  sqlite3_stmt *each, struct run_full *rf, bool samples,
			  struct strbuf *err)
{
	struct full_sink sink = {st, each, rf, samples, 0};

	return store_each_row(st, stmt, full_row, &sink, err, "read monitors");
}

int store_monitor_load_full(struct store *st, int64_t run_id,
			    const char *benchmark, struct run_full *rf,
			    struct strbuf *err)
{
	sqlite3_stmt *stmt = NULL, *samples = NULL, *each = NULL;
	int ret = -1;

	if (prepare(st, full_sql, &stmt, "monitor query", err) ||
	    prepare(st, full_samples_sql, &samples, "monitor query", err) ||
	    prepare(st, "SELECT key, value FROM json_each(?1) ORDER BY id",
		    &each, "monitor query", err))
		goto out;
	if (sqlite3_bind_int64(stmt, 1, run_id) ||
	    store_bind_text(stmt, 2, benchmark) ||
	    sqlite3_bind_int64(samples, 1, run_id) ||
	    store_bind_text(samples, 2, benchmark)) {
		store_fail(st, err, "load monitors of run %" PRId64, run_id);
		goto out;
	}
	ret = load_full_rows(st, stmt, each, rf, false, err) ||
			      load_full_rows(st, samples, each, rf, true, err)
		      ? -1
		      : 0;
out:
	sqlite3_finalize(stmt);
	sqlite3_finalize(samples);
	sqlite3_finalize(each);
	return ret;
}

/*
 * The vmstat changes of the measured iterations of a run that succeeded
 * with monitors, one row per counter, in iteration order; an iteration in
 * which nothing changed gives one row with a NULL name, and each row its
 * iteration's job, so that compare keeps variants apart. The second
 * query gives the cgroup counters' changes and gauges' end values of
 * those that ran in a cgroup, the same way.
 */
static const char load_sql[] =
	"SELECT i.id, i.benchmark, i.elapsed_s, j.key, j.value, m.other_cpu,"
	" i.job"
	" FROM iteration i JOIN iteration_monitor m ON m.iteration_id = i.id"
	" LEFT JOIN json_each(m.vmstat) j"
	" WHERE i.run_id = ?1 AND i.warmup = 0 AND i.status = 'ok'"
	" AND (?2 IS NULL OR i.benchmark = ?2)"
	" ORDER BY i.id";
static const char load_cgroup_sql[] =
	"SELECT i.id, i.benchmark, i.elapsed_s, j.key, j.value, m.other_cpu,"
	" i.job"
	" FROM iteration i JOIN iteration_monitor m ON m.iteration_id = i.id"
	" LEFT JOIN json_each(json_patch(m.cgroup, m.cgroup_end)) j"
	" WHERE i.run_id = ?1 AND i.warmup = 0 AND i.status = 'ok'"
	" AND (?2 IS NULL OR i.benchmark = ?2) AND m.cgroup IS NOT NULL"
	" ORDER BY i.id";
/* The vmstat gauges' levels, of the iterations that recorded them. */
static const char load_levels_sql[] =
	"SELECT i.id, i.benchmark, i.elapsed_s, j.key, j.value, m.other_cpu,"
	" i.job"
	" FROM iteration i JOIN iteration_monitor m ON m.iteration_id = i.id"
	" LEFT JOIN json_each(m.vmstat_end) j"
	" WHERE i.run_id = ?1 AND i.warmup = 0 AND i.status = 'ok'"
	" AND (?2 IS NULL OR i.benchmark = ?2) AND m.vmstat_end IS NOT NULL"
	" ORDER BY i.id";
/* The perf counters, of iterations that counted some (every one). */
static const char load_perf_sql[] =
	"SELECT i.id, i.benchmark, i.elapsed_s, j.key, j.value, m.other_cpu,"
	" i.job"
	" FROM iteration i JOIN iteration_monitor m ON m.iteration_id = i.id"
	" JOIN iteration_perf p ON p.iteration_id = i.id"
	" LEFT JOIN json_each(p.counters) j"
	" WHERE i.run_id = ?1 AND i.warmup = 0 AND i.status = 'ok'"
	" AND (?2 IS NULL OR i.benchmark = ?2) AND p.counters <> '{}'"
	" ORDER BY i.id";
/* Why events were absent, each reason once. */
static const char load_absent_sql[] =
	"SELECT DISTINCT p.absent FROM iteration i"
	" JOIN iteration_perf p ON p.iteration_id = i.id"
	" WHERE i.run_id = ?1 AND i.warmup = 0 AND p.absent IS NOT NULL"
	" AND (?2 IS NULL OR i.benchmark = ?2)"
	" ORDER BY 1";

/* What the perf counters counted, each scope once. */
static const char load_scope_sql[] =
	"SELECT DISTINCT coalesce(p.scope, 'process') FROM iteration i"
	" JOIN iteration_perf p ON p.iteration_id = i.id"
	" WHERE i.run_id = ?1 AND i.warmup = 0 AND p.counters <> '{}'"
	" AND (?2 IS NULL OR i.benchmark = ?2)"
	" ORDER BY 1";

/* The kinds of table load_rows() fills. */
enum table_kind {
	TABLE_VMSTAT,
	TABLE_CGROUP,
	TABLE_PERF,
	TABLE_LEVELS,
};

/* The tables of kind in rd, with their count and allocation. */
static struct monitor_table **kind_tables(struct run_data *rd,
					  enum table_kind kind, size_t **nr,
					  size_t **alloc)
{
	switch (kind) {
	case TABLE_CGROUP:
		*nr = &rd->cgroups_nr;
		*alloc = &rd->cgroups_alloc;
		return &rd->cgroups;
	case TABLE_PERF:
		*nr = &rd->perf_nr;
		*alloc = &rd->perf_alloc;
		return &rd->perf;
	case TABLE_LEVELS:
		*nr = &rd->levels_nr;
		*alloc = &rd->levels_alloc;
		return &rd->levels;
	case TABLE_VMSTAT:
		break;
	}
	*nr = &rd->monitors_nr;
	*alloc = &rd->monitors_alloc;
	return &rd->monitors;
}

/*
 * Where table_row() reads the rows of load_sql: tmp's tables (its cgroup
 * tables when cgroup). index[t] maps counter names of table t to their
 * index, so a long run loads in linear time.
 */
struct tables_sink {
	struct run_data *tmp;
	enum table_kind kind;
	struct strmap *index;
	size_t index_nr;
	struct monitor_table *mt;
	int64_t last;
};

/* The table of the iteration of row stmt, a new column when it is new. */
static struct monitor_table *row_table(struct tables_sink *sink,
				       sqlite3_stmt *stmt, int64_t id)
{
	const char *bench = (const char *)sqlite3_column_text(stmt, 1);
	struct monitor_table *mt;

	if (sink->mt && id == sink->last)
		return sink->mt;
	bench = bench ? bench : "";
	switch (sink->kind) {
	case TABLE_CGROUP:
		mt = run_data_cgroups(sink->tmp, bench, true);
		break;
	case TABLE_PERF:
		mt = run_data_perf(sink->tmp, bench, true);
		break;
	case TABLE_LEVELS:
		mt = run_data_levels(sink->tmp, bench, true);
		break;
	case TABLE_VMSTAT:
	default:
		mt = run_data_monitors(sink->tmp, bench, true);
		break;
	}
	monitor_table_add_iteration(mt, sqlite3_column_double(stmt, 2));
	if (sqlite3_column_type(stmt, 5) != SQLITE_NULL)
		mt->other_cpu[mt->iterations - 1] =
			sqlite3_column_double(stmt, 5);
	monitor_table_set_job(mt, (const char *)sqlite3_column_text(stmt, 6));
	sink->last = id;
	return sink->mt = mt;
}

static int table_row(sqlite3_stmt *stmt, void *data, struct strbuf *err)
{
	struct tables_sink *sink = data;
	const char *name = (const char *)sqlite3_column_text(stmt, 3);
	struct monitor_table *mt =
		row_table(sink, stmt, sqlite3_column_int64(stmt, 0));
	struct monitor_counter *c;
	size_t t, ci, len, *nr, *alloc;
	double scale = 1.0;

	(void)err;
	if (!name)
		return 0;
	t = (size_t)(mt - *kind_tables(sink->tmp, sink->kind, &nr, &alloc));
	if (sink->kind == TABLE_PERF)
		scale = monitor_perf_scale(name);
	if (t >= sink->index_nr) {
		sink->index =
			xrealloc(sink->index, (t + 1) * sizeof(*sink->index));
		while (sink->index_nr <= t)
			sink->index[sink->index_nr++] =
				(struct strmap)STRMAP_INIT;
	}
	len = strlen(name);
	if (!strmap_get(&sink->index[t], name, len, &ci)) {
		monitor_table_set(mt, name, 0.0);
		ci = mt->counters_nr - 1;
		strmap_put(&sink->index[t], name, len, ci);
	}
	c = &mt->counters[ci];
	c->v[mt->iterations - 1] = sqlite3_column_double(stmt, 4) * scale;
	return 0;
}

/* Fill tmp's tables of kind from the rows of stmt. */
static int load_rows(struct store *st, int64_t run_id, sqlite3_stmt *stmt,
		     enum table_kind kind, struct run_data *tmp,
		     struct strbuf *err)
{
	struct tables_sink sink = {tmp, kind, NULL, 0, NULL, 0};
	int ret;

	ret = store_each_row(st, stmt, table_row, &sink, err,
			     "load monitors of run %" PRId64, run_id);
	for (size_t i = 0; !ret && kind == TABLE_PERF && i < tmp->perf_nr; i++)
		monitor_perf_derive(&tmp->perf[i]);
	for (size_t i = 0; i < sink.index_nr; i++)
		strmap_clear(&sink.index[i]);
	free(sink.index);
	return ret;
}

/* A row of load_scope_sql: a scope of rd's perf counters. */
static int scope_row(sqlite3_stmt *stmt, void *data, struct strbuf *err)
{
	struct run_data *rd = data;
	const char *scope = (const char *)sqlite3_column_text(stmt, 0);

	(void)err;
	strvec_push_once(&rd->perf_scopes, scope);
	return 0;
}

/* A row of load_absent_sql: a note on the events rd's run did not count. */
static int absent_row(sqlite3_stmt *stmt, void *data, struct strbuf *err)
{
	struct run_data *rd = data;
	const char *why = (const char *)sqlite3_column_text(stmt, 0);
	struct strbuf sb = STRBUF_INIT;

	(void)err;
	strbuf_addstr(&sb, "perf events not counted");
	if (rd->info.label)
		strbuf_addf(&sb, " in '%s'", rd->info.label);
	strbuf_addf(&sb, ": %s", why ? why : "");
	strvec_push_once(&rd->notes, sb.buf);
	strbuf_release(&sb);
	return 0;
}

int store_load_monitors(struct store *st, int64_t run_id, const char *benchmark,
			struct run_data *rd, struct strbuf *err)
{
	struct run_data tmp = {0};
	sqlite3_stmt *stmt = NULL;
	struct store_tx tx;
	int ret = -1;

	if (store_tx_open(st, false, &tx, err))
		return -1;
	for (int k = 0; k < 6; k++) {
		/*
		 * In the order of enum table_kind, then the absent events and
		 * the perf counters' scopes.
		 */
		static const char *const sql[] = {
			load_sql,	 load_cgroup_sql, load_perf_sql,
			load_levels_sql, load_absent_sql, load_scope_sql};

		sqlite3_finalize(stmt);
		stmt = NULL;
		if (prepare(st, sql[k], &stmt, "monitor query", err))
			goto out;
		if (sqlite3_bind_int64(stmt, 1, run_id) ||
		    store_bind_text(stmt, 2, benchmark)) {
			store_fail(st, err, "load monitors of run %" PRId64,
				   run_id);
			goto out;
		}
		if (k >= 4 ? store_each_row(st, stmt,
					    k == 4 ? absent_row : scope_row, rd,
					    err, "load perf of run %" PRId64,
					    run_id)
			   : load_rows(st, run_id, stmt, (enum table_kind)k,
				       &tmp, err))
			goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(stmt);
	ret = store_tx_close(st, &tx, ret, err);
	if (!ret) {
		/* Hand the tables over, after rd's own. */
		for (int k = TABLE_VMSTAT; k <= TABLE_LEVELS; k++) {
			size_t *from_nr, *from_alloc, *to_nr, *to_alloc;
			struct monitor_table **from =
				kind_tables(&tmp, (enum table_kind)k, &from_nr,
					    &from_alloc);
			struct monitor_table **to = kind_tables(
				rd, (enum table_kind)k, &to_nr, &to_alloc);

			for (size_t i = 0; i < *from_nr; i++) {
				ALLOC_GROW(*to, *to_nr + 1, *to_alloc);
				(*to)[(*to_nr)++] = (*from)[i];
			}
			*from_nr = 0;
		}
	}
	run_data_release(&tmp);
	return ret;
}
