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

/* Append name to sb as a JSON string, then ':'. */
static void json_name(struct strbuf *sb, const char *name)
{
	const char *p = name;

	strbuf_addch(sb, '"');
	for (;;) {
		const char *run = p;
		unsigned char c;

		/* The characters that need no escape, added at once. */
		while ((c = (unsigned char)*p) && c != '"' && c != '\\' &&
		       c >= 0x20 && c != 0x7f)
			p++;
		strbuf_add(sb, run, (size_t)(p - run));
		if (!c)
			break;
		if (c == '"' || c == '\\')
			strbuf_addf(sb, "\\%c", c);
		else
			strbuf_addf(sb, "\\u%04x", c);
		p++;
	}
	strbuf_add(sb, "\":", 2);
}

/* Append value to sb in decimal. */
static void json_int(struct strbuf *sb, int64_t value)
{
	uint64_t v = (uint64_t)value;
	char num[24];
	size_t n = sizeof(num);

	if (value < 0) {
		strbuf_addch(sb, '-');
		v = -v; /* modulo 2^64: INT64_MIN too */
	}
	do {
		num[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	strbuf_add(sb, num + n, sizeof(num) - n);
}

/*
 * Append mv to sb as a JSON object of name -> integer. The names come
 * from /proc files, but are escaped all the same. Built by hand rather
 * than with printf: it runs for every iteration.
 */
static void json_object(struct strbuf *sb, const struct monitor_values *mv)
{
	strbuf_addch(sb, '{');
	for (size_t i = 0; i < mv->nr; i++) {
		if (i)
			strbuf_addch(sb, ',');
		json_name(sb, mv->v[i].name);
		json_int(sb, mv->v[i].value);
	}
	strbuf_addch(sb, '}');
}

/*
 * Append to sb the JSON object that json_patch() applies to base to give
 * now: the members of now that base lacks or has at another value, and
 * null for each name of base that now lacks.
 */
static void json_changes(struct strbuf *sb, const struct monitor_values *base,
			 const struct monitor_values *now)
{
	bool first = true;

	strbuf_addch(sb, '{');
	for (size_t i = 0; i < now->nr; i++) {
		const struct monitor_value *old =
			monitor_values_find(base, now->v[i].name, i);

		if (old && old->value == now->v[i].value)
			continue;
		if (!first)
			strbuf_addch(sb, ',');
		first = false;
		json_name(sb, now->v[i].name);
		json_int(sb, now->v[i].value);
	}
	for (size_t k = 0; k < base->nr; k++) {
		if (monitor_values_find(now, base->v[k].name, k))
			continue;
		if (!first)
			strbuf_addch(sb, ',');
		first = false;
		json_name(sb, base->v[k].name);
		strbuf_add(sb, "null", 4);
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

/* Bind the JSON object of json_changes(base, now), built in sb, to i. */
static int bind_changes(sqlite3_stmt *stmt, int i, struct strbuf *sb,
			const struct monitor_values *base,
			const struct monitor_values *now)
{
	strbuf_reset(sb);
	json_changes(sb, base, now);
	return sqlite3_bind_text(stmt, i, sb->buf, (int)sb->len,
				 SQLITE_TRANSIENT);
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

/*
 * The levels an iteration's meminfo_start and vmstat_end are stored
 * against (monitor_base, db/migrations/0016): those of the first
 * iteration stored of its run. Kept parsed for the run of the last
 * iteration stored, with the text of the row they were parsed from:
 * the row read in each iteration's transaction says whether they still
 * are its own (a transaction that inserted it may have rolled back).
 */
struct store_monitor_base {
	int64_t run_id;
	struct strbuf meminfo_text, vmstat_text;
	bool has_vmstat;
	struct monitor_values meminfo, vmstat_end;
	struct strvec names; /* the names of both */
};

void store_monitor_base_free(struct store_monitor_base *b)
{
	if (!b)
		return;
	strbuf_release(&b->meminfo_text);
	strbuf_release(&b->vmstat_text);
	monitor_values_release(&b->meminfo);
	monitor_values_release(&b->vmstat_end);
	strvec_clear(&b->names);
	free(b);
}

static void base_add(struct store_monitor_base *b, struct monitor_values *mv,
		     const char *name, int64_t value)
{
	strvec_push(&b->names, name);
	ALLOC_GROW(mv->v, mv->nr + 1, mv->alloc);
	mv->v[mv->nr].name = b->names.v[b->names.nr - 1];
	mv->v[mv->nr].value = value;
	mv->nr++;
}

/* Empty b, to hold the base of run_id, read as meminfo and vmstat_end. */
static void base_reset(struct store_monitor_base *b, int64_t run_id,
		       const char *meminfo, const char *vmstat_end)
{
	b->run_id = run_id;
	strbuf_reset(&b->meminfo_text);
	strbuf_addstr(&b->meminfo_text, meminfo);
	strbuf_reset(&b->vmstat_text);
	b->has_vmstat = vmstat_end != NULL;
	if (vmstat_end)
		strbuf_addstr(&b->vmstat_text, vmstat_end);
	b->meminfo.nr = 0;
	b->vmstat_end.nr = 0;
	strvec_clear(&b->names);
}

/* Parse the JSON object text into mv of b, through json_each(). */
static int base_parse(struct store *st, struct store_monitor_base *b,
		      struct monitor_values *mv, const char *text,
		      struct strbuf *err)
{
	sqlite3_stmt *each = NULL;
	int ret = -1, rc;

	if (prepare(st, "SELECT key, value FROM json_each(?1) ORDER BY id",
		    &each, "monitor base read", err))
		return -1;
	if (sqlite3_bind_text(each, 1, text, -1, SQLITE_STATIC)) {
		store_fail(st, err, "read the monitor base");
		goto out;
	}
	while ((rc = sqlite3_step(each)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(each, 0);

		if (!name || sqlite3_column_type(each, 1) != SQLITE_INTEGER) {
			error_addf(err,
				   "run %" PRId64 ": a monitor base value"
				   " that is not an integer",
				   b->run_id);
			goto out;
		}
		base_add(b, mv, name, sqlite3_column_int64(each, 1));
	}
	if (rc != SQLITE_DONE) {
		store_fail(st, err, "read the monitor base");
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(each);
	return ret;
}

/*
 * Insert rec's levels as the base of run run_id with put, and make them
 * b's; an SQLite error code, 0 when inserted.
 */
static int base_put(struct store_monitor_base *b, sqlite3_stmt *put,
		    int64_t run_id, const struct monitor_record *rec)
{
	int rc;

	b->run_id = 0;
	strbuf_reset(&b->meminfo_text);
	json_object(&b->meminfo_text, &rec->meminfo_start);
	strbuf_reset(&b->vmstat_text);
	if (rec->has_vmstat_end)
		json_object(&b->vmstat_text, &rec->vmstat_end);
	rc = sqlite3_bind_int64(put, 1, run_id);
	if (!rc)
		rc = sqlite3_bind_text(put, 2, b->meminfo_text.buf,
				       (int)b->meminfo_text.len, SQLITE_STATIC);
	if (!rc)
		rc = rec->has_vmstat_end
			     ? sqlite3_bind_text(put, 3, b->vmstat_text.buf,
						 (int)b->vmstat_text.len,
						 SQLITE_STATIC)
			     : sqlite3_bind_null(put, 3);
	if (!rc && sqlite3_step(put) != SQLITE_DONE)
		rc = SQLITE_ERROR;
	if (rc)
		return rc;
	b->run_id = run_id;
	b->has_vmstat = rec->has_vmstat_end;
	b->meminfo.nr = 0;
	b->vmstat_end.nr = 0;
	strvec_clear(&b->names);
	for (size_t i = 0; i < rec->meminfo_start.nr; i++)
		base_add(b, &b->meminfo, rec->meminfo_start.v[i].name,
			 rec->meminfo_start.v[i].value);
	for (size_t i = 0; rec->has_vmstat_end && i < rec->vmstat_end.nr; i++)
		base_add(b, &b->vmstat_end, rec->vmstat_end.v[i].name,
			 rec->vmstat_end.v[i].value);
	return 0;
}

/*
 * The base of the run of iteration iter_id into st->mon_base: its row,
 * or rec's own levels in a new row when the run has none yet.
 */
static int base_get(struct store *st, int64_t iter_id,
		    const struct monitor_record *rec, struct strbuf *err)
{
	static const char run_sql[] =
		"SELECT run_id FROM iteration WHERE id = ?1";
	static const char get_sql[] =
		"SELECT meminfo, vmstat_end FROM monitor_base WHERE run_id = ?1";
	static const char put_sql[] = "INSERT INTO monitor_base"
				      " (run_id, meminfo, vmstat_end)"
				      " VALUES (?1, ?2, ?3)";
	struct store_monitor_base *b = st->mon_base;
	sqlite3_stmt *run =
		cached(st, STORE_STMT_MONITOR_RUN, run_sql, "monitor run", err);
	sqlite3_stmt *get = cached(st, STORE_STMT_MONITOR_BASE_GET, get_sql,
				   "monitor base query", err);
	sqlite3_stmt *put = cached(st, STORE_STMT_MONITOR_BASE_PUT, put_sql,
				   "monitor base insert", err);
	int64_t run_id;
	int ret = -1, rc;

	if (!run || !get || !put)
		goto out;
	if (!b) {
		b = st->mon_base = xcalloc(1, sizeof(*b));
		strbuf_init(&b->meminfo_text, 0);
		strbuf_init(&b->vmstat_text, 0);
		strvec_init(&b->names);
	}
	rc = sqlite3_bind_int64(run, 1, iter_id);
	if (!rc)
		rc = sqlite3_step(run);
	if (rc == SQLITE_DONE) {
		error_addf(err,
			   "cannot store monitors of iteration %" PRId64
			   ": there is no such iteration",
			   iter_id);
		goto out;
	}
	if (rc != SQLITE_ROW) {
		store_fail(st, err, "find the run of iteration %" PRId64,
			   iter_id);
		goto out;
	}
	run_id = sqlite3_column_int64(run, 0);
	rc = sqlite3_bind_int64(get, 1, run_id);
	if (!rc)
		rc = sqlite3_step(get);
	if (rc == SQLITE_ROW) {
		const char *mem = (const char *)sqlite3_column_text(get, 0);
		const char *vm = (const char *)sqlite3_column_text(get, 1);

		if (b->run_id == run_id && mem &&
		    !strcmp(b->meminfo_text.buf, mem) &&
		    b->has_vmstat == (vm != NULL) &&
		    (!vm || !strcmp(b->vmstat_text.buf, vm))) {
			ret = 0;
			goto out;
		}
		base_reset(b, run_id, mem ? mem : "", vm);
		ret = base_parse(st, b, &b->meminfo, b->meminfo_text.buf, err);
		if (!ret && b->has_vmstat)
			ret = base_parse(st, b, &b->vmstat_end,
					 b->vmstat_text.buf, err);
		if (ret)
			b->run_id = 0; /* half parsed: no one's */
		goto out;
	}
	/* None yet: the run's first record is its base. */
	if (rc == SQLITE_DONE)
		rc = base_put(b, put, run_id, rec);
	if (rc)
		store_fail(st, err, "store the monitor base of run %" PRId64,
			   run_id);
	ret = rc ? -1 : 0;
out:
	cached_done(run);
	cached_done(get);
	cached_done(put);
	return ret;
}

/*
 * Bind the id of the perf_absent row of reason to parameter i of stmt,
 * inserting it when there is none; NULL for no reason.
 */
static int bind_absent(struct store *st, sqlite3_stmt *stmt, int i,
		       const char *reason, struct strbuf *err)
{
	static const char get_sql[] =
		"SELECT id FROM perf_absent WHERE reason = ?1";
	static const char put_sql[] =
		"INSERT INTO perf_absent (reason) VALUES (?1)";
	sqlite3_stmt *get, *put;
	int64_t id = 0;
	int rc;

	if (!reason)
		return sqlite3_bind_null(stmt, i) ? -1 : 0;
	get = cached(st, STORE_STMT_ABSENT_GET, get_sql, "absent query", err);
	put = cached(st, STORE_STMT_ABSENT_PUT, put_sql, "absent insert", err);
	if (!get || !put)
		return -1;
	rc = sqlite3_bind_text(get, 1, reason, -1, SQLITE_STATIC);
	if (!rc)
		rc = sqlite3_step(get);
	if (rc == SQLITE_ROW) {
		id = sqlite3_column_int64(get, 0);
	} else if (rc == SQLITE_DONE &&
		   !sqlite3_bind_text(put, 1, reason, -1, SQLITE_STATIC) &&
		   sqlite3_step(put) == SQLITE_DONE) {
		id = sqlite3_last_insert_rowid(st->db);
	}
	cached_done(get);
	cached_done(put);
	if (!id || sqlite3_bind_int64(stmt, i, id))
		return store_fail(st, err, "store why perf events were absent");
	return 0;
}

static int add_record(struct store *st, int64_t iter_id,
		      const struct monitor_record *rec, struct strbuf *err)
{
	static const char sql[] =
		"INSERT INTO monitor_record (iteration_id, interval_s,"
		" vmstat, cpu, meminfo_start, meminfo_end, other_cpu,"
		" loadavg_start, loadavg_end, cgroup, cgroup_start, cgroup_end,"
		" vmstat_end, base, perf, perf_absent_id, perf_scope)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13,"
		" 1, ?14, ?15, ?16)";
	bool perf = rec->has_perf || rec->perf_absent;
	struct strbuf json = STRBUF_INIT;
	sqlite3_stmt *stmt =
		cached(st, STORE_STMT_MONITOR, sql, "monitor insert", err);
	const struct store_monitor_base *b;
	int ret = -1;

	if (!stmt || base_get(st, iter_id, rec, err) ||
	    (perf && bind_absent(st, stmt, 15, rec->perf_absent, err)))
		goto out;
	b = st->mon_base;
	/*
	 * The levels: what differs from the run's base, and at the end
	 * what differs from the start (db/migrations/0016).
	 */
	if (sqlite3_bind_int64(stmt, 1, iter_id) ||
	    sqlite3_bind_double(stmt, 2,
				rec->samples_nr ? rec->interval_s : 0.0) ||
	    bind_json(stmt, 3, &json, &rec->vmstat) ||
	    bind_json(stmt, 4, &json, &rec->cpu) ||
	    bind_changes(stmt, 5, &json, &b->meminfo, &rec->meminfo_start) ||
	    bind_changes(stmt, 6, &json, &rec->meminfo_start,
			 &rec->meminfo_end) ||
	    bind_real(stmt, 7, rec->other_cpu) ||
	    bind_real(stmt, 8, rec->loadavg_start) ||
	    bind_real(stmt, 9, rec->loadavg_end) ||
	    bind_json_or_null(stmt, 10, &json, rec->has_cgroup, &rec->cgroup) ||
	    bind_json_or_null(stmt, 11, &json, rec->has_cgroup,
			      &rec->cgroup_start) ||
	    bind_json_or_null(stmt, 12, &json, rec->has_cgroup,
			      &rec->cgroup_end) ||
	    (rec->has_vmstat_end ? bind_changes(stmt, 13, &json, &b->vmstat_end,
						&rec->vmstat_end)
				 : sqlite3_bind_null(stmt, 13)) ||
	    bind_json_or_null(stmt, 14, &json, perf, &rec->perf) ||
	    (perf && store_bind_text(stmt, 16, rec->perf_scope)) ||
	    sqlite3_step(stmt) != SQLITE_DONE) {
		store_fail(st, err, "store monitors of iteration %" PRId64,
			   iter_id);
		goto out;
	}
	if (rec->samples_nr && add_samples(st, iter_id, rec, err))
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

/*
 * A monitor record's perf counters: in its own row r (monitor_record)
 * from 0016, in perf_record p before. The view iteration_perf reads the
 * same, but as the right side of a LEFT JOIN it would be read whole.
 */
#define PERF_JOINS                                                             \
	" LEFT JOIN perf_record p ON r.perf IS NULL"                           \
	" AND p.iteration_id = r.iteration_id"                                 \
	" LEFT JOIN perf_absent a ON a.id = r.perf_absent_id"
#define PERF_ABSENT "CASE WHEN r.perf IS NULL THEN p.absent ELSE a.reason END"
#define PERF_SCOPE  "CASE WHEN r.perf IS NULL THEN p.scope ELSE r.perf_scope END"

static const char full_sql[] =
	"SELECT m.iteration_id, m.interval_s, m.vmstat, m.cpu,"
	" m.meminfo_start, m.meminfo_end, m.other_cpu, m.loadavg_start,"
	" m.loadavg_end, m.cgroup, m.cgroup_start, m.cgroup_end,"
	" coalesce(r.perf, p.counters), coalesce(r.perf, p.counters),"
	" " PERF_ABSENT ", m.vmstat_end, " PERF_SCOPE
	" FROM iteration_monitor m"
	" JOIN iteration i ON i.id = m.iteration_id"
	" JOIN monitor_record r ON r.iteration_id = m.iteration_id" PERF_JOINS
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
	" FROM iteration i"
	" JOIN iteration_monitor m ON m.iteration_id = i.id"
	" LEFT JOIN json_each(m.vmstat_end) j"
	" WHERE i.run_id = ?1 AND i.warmup = 0 AND i.status = 'ok'"
	" AND (?2 IS NULL OR i.benchmark = ?2) AND m.vmstat_end IS NOT NULL"
	" ORDER BY i.id";
/* The perf counters, of iterations that counted some (every one). */
static const char load_perf_sql[] =
	"SELECT i.id, i.benchmark, i.elapsed_s, j.key, j.value, r.other_cpu,"
	" i.job"
	" FROM iteration i JOIN monitor_record r ON r.iteration_id = i.id" PERF_JOINS
	" LEFT JOIN json_each(coalesce(r.perf, p.counters)) j"
	" WHERE i.run_id = ?1 AND i.warmup = 0 AND i.status = 'ok'"
	" AND (?2 IS NULL OR i.benchmark = ?2)"
	" AND coalesce(r.perf, p.counters) <> '{}'"
	" ORDER BY i.id";
/* Why events were absent, each reason once. */
static const char load_absent_sql[] =
	"SELECT DISTINCT absent FROM (SELECT " PERF_ABSENT " AS absent"
	" FROM iteration i JOIN monitor_record r ON r.iteration_id = i.id" PERF_JOINS
	" WHERE i.run_id = ?1 AND i.warmup = 0"
	" AND (?2 IS NULL OR i.benchmark = ?2))"
	" WHERE absent IS NOT NULL ORDER BY 1";

/* What the perf counters counted, each scope once. */
static const char load_scope_sql[] =
	"SELECT DISTINCT coalesce(" PERF_SCOPE ", 'process')"
	" FROM iteration i JOIN monitor_record r ON r.iteration_id = i.id" PERF_JOINS
	" WHERE i.run_id = ?1 AND i.warmup = 0"
	" AND coalesce(r.perf, p.counters) <> '{}'"
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
