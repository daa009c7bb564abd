/* store-transfer: whole runs out of and into the store, for export/import. */
#include "store.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "store-internal.h"
#include "monitor.h"
#include "run-data.h"
#include "strbuf.h"
#include "util.h"

/* Rows per multi-row sample INSERT: 4 parameters each. */
#define SAMPLE_ROWS 64

int store_uuid_exists(struct store *st, const char *uuid, bool *exists,
		      struct strbuf *err)
{
	sqlite3_stmt *stmt = NULL;
	int rc, ret = -1;

	if (sqlite3_prepare_v2(st->db, "SELECT 1 FROM run WHERE uuid = ?1", -1,
			       &stmt, NULL) != SQLITE_OK ||
	    store_bind_text(stmt, 1, uuid)) {
		store_fail(st, err, "look up run '%s'", uuid);
		goto out;
	}
	rc = sqlite3_step(stmt);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		store_fail(st, err, "look up run '%s'", uuid);
		goto out;
	}
	*exists = rc == SQLITE_ROW;
	ret = 0;
out:
	sqlite3_finalize(stmt);
	return ret;
}

/* Prepare sql and bind the run id (?1) and benchmark filter (?2). */
static int prepare_run_query(struct store *st, const char *sql, int64_t run_id,
			     const char *benchmark, sqlite3_stmt **stmt,
			     struct strbuf *err)
{
	if (sqlite3_prepare_v2(st->db, sql, -1, stmt, NULL) != SQLITE_OK ||
	    sqlite3_bind_int64(*stmt, 1, run_id) ||
	    store_bind_text(*stmt, 2, benchmark))
		return store_fail(st, err, "read run %" PRId64, run_id);
	return 0;
}

/* A row of load_iters()'s query: one iteration, appended to data. */
static int iter_row(sqlite3_stmt *stmt, void *data, struct strbuf *err)
{
	struct run_full *rf = data;
	struct iteration_data *it;

	(void)err;
	ALLOC_GROW(rf->iters, rf->iters_nr + 1, rf->iters_alloc);
	it = &rf->iters[rf->iters_nr++];
	memset(it, 0, sizeof(*it));
	it->id = sqlite3_column_int64(stmt, 0);
	it->benchmark = store_column_strdup(stmt, 1);
	it->job = store_column_strdup(stmt, 2);
	it->build = store_column_strdup(stmt, 3);
	it->index = sqlite3_column_int64(stmt, 4);
	it->warmup = sqlite3_column_int(stmt, 5);
	it->status = store_column_strdup(stmt, 6);
	it->exit_code = sqlite3_column_int64(stmt, 7);
	it->term_signal = sqlite3_column_int64(stmt, 8);
	it->started_at = store_column_strdup(stmt, 9);
	it->elapsed_s = sqlite3_column_double(stmt, 10);
	it->user_s = sqlite3_column_double(stmt, 11);
	it->sys_s = sqlite3_column_double(stmt, 12);
	it->maxrss_kb = sqlite3_column_int64(stmt, 13);
	it->stderr_tail = store_column_strdup(stmt, 14);
	it->boot = sqlite3_column_int64(stmt, 15);
	return 0;
}

/* Load the iterations, in the order they were stored. */
static int load_iters(struct store *st, int64_t run_id, const char *benchmark,
		      struct run_full *rf, struct strbuf *err)
{
	static const char sql[] =
		"SELECT id, benchmark, job, build, idx, warmup, status,"
		" exit_code, term_signal, started_at, elapsed_s, user_s,"
		" sys_s, maxrss_kb, stderr_tail, coalesce(boot, 0)"
		" FROM iteration"
		" WHERE run_id = ?1 AND (?2 IS NULL OR benchmark = ?2)"
		" ORDER BY id";
	sqlite3_stmt *stmt = NULL;
	int ret = -1;

	if (prepare_run_query(st, sql, run_id, benchmark, &stmt, err))
		goto out;
	ret = store_each_row(st, stmt, iter_row, rf, err,
			     "read iterations of run %" PRId64, run_id);
out:
	sqlite3_finalize(stmt);
	return ret;
}

/* Maps an operation's store id to its index in rf->ops. */
struct op_slot {
	int64_t id;
	size_t index;
};

static int op_slot_cmp(const void *a, const void *b)
{
	const struct op_slot *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* The index in rf->ops of operation id, or SIZE_MAX. */
static size_t op_index(const struct op_slot *slots, size_t nr, int64_t id)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (slots[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nr && slots[lo].id == id ? slots[lo].index : SIZE_MAX;
}

/* Where sample_row() appends: the samples of iteration k (it) of rf. */
struct samples_sink {
	struct run_full *rf;
	const struct op_slot *slots;
	const struct iteration_data *it;
	size_t k;
	size_t op; /* of the last sample, SIZE_MAX before the first */
	int64_t last_op;
};

static int sample_row(sqlite3_stmt *stmt, void *data, struct strbuf *err)
{
	struct samples_sink *sink = data;
	struct run_full *rf = sink->rf;
	int64_t op_id = sqlite3_column_int64(stmt, 0);
	double value = sqlite3_column_double(stmt, 1);
	struct sample_data *s;

	/* Samples of one operation mostly come in a row. */
	if (sink->op == SIZE_MAX || op_id != sink->last_op) {
		sink->op = op_index(sink->slots, rf->ops_nr, op_id);
		sink->last_op = op_id;
		if (sink->op == SIZE_MAX || strcmp(rf->ops[sink->op].benchmark,
						   sink->it->benchmark) != 0)
			return error_addf(
				err,
				"run '%s': iteration %zu of '%s' has a sample of an operation of another benchmark",
				rf->info.uuid, sink->k, sink->it->benchmark);
	}
	if (!isfinite(value))
		return error_addf(
			err,
			"run '%s': iteration %zu of '%s' has a sample that is not a finite number",
			rf->info.uuid, sink->k, sink->it->benchmark);
	ALLOC_GROW(rf->samples, rf->samples_nr + 1, rf->samples_alloc);
	s = &rf->samples[rf->samples_nr++];
	s->op = sink->op;
	s->value = value;
	return 0;
}

/*
 * Load the samples of the loaded iterations, one query per iteration: a
 * join over the run would come in (warmup, id) order from the index and
 * need a sort.
 */
static int load_samples(struct store *st, int64_t run_id, struct run_full *rf,
			struct strbuf *err)
{
	static const char sql[] = "SELECT operation_id, value FROM sample"
				  " WHERE iteration_id = ?1 ORDER BY seq";
	struct op_slot *slots = xcalloc(rf->ops_nr + 1, sizeof(*slots));
	struct samples_sink sink = {rf, NULL, NULL, 0, SIZE_MAX, 0};
	sqlite3_stmt *stmt = NULL;
	int ret = -1;

	for (size_t i = 0; i < rf->ops_nr; i++) {
		slots[i].id = rf->ops[i].id;
		slots[i].index = i;
	}
	qsort(slots, rf->ops_nr, sizeof(*slots), op_slot_cmp);
	if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) != SQLITE_OK) {
		store_fail(st, err, "read samples of run %" PRId64, run_id);
		goto out;
	}
	sink.slots = slots;
	for (size_t k = 0; k < rf->iters_nr; k++) {
		struct iteration_data *it = &rf->iters[k];

		it->samples_first = rf->samples_nr;
		if (sqlite3_bind_int64(stmt, 1, it->id)) {
			store_fail(st, err, "read samples of run %" PRId64,
				   run_id);
			goto out;
		}
		sink.it = it;
		sink.k = k;
		sink.op = SIZE_MAX;
		if (store_each_row(st, stmt, sample_row, &sink, err,
				   "read samples of run %" PRId64, run_id))
			goto out;
		it->samples_nr = rf->samples_nr - it->samples_first;
		if (sqlite3_reset(stmt) != SQLITE_OK) {
			store_fail(st, err, "read samples of run %" PRId64,
				   run_id);
			goto out;
		}
	}
	ret = 0;
out:
	sqlite3_finalize(stmt);
	free(slots);
	return ret;
}

int store_run_load_full(struct store *st, int64_t run_id, const char *benchmark,
			struct run_full *rf, struct strbuf *err)
{
	struct store_tx tx;
	int ret = -1;

	if (rf->ops_nr || rf->iters_nr || rf->samples_nr)
		BUG("loading run %" PRId64 " into a run that has data", run_id);
	/* One read transaction, so a concurrent writer is not half seen. */
	if (store_tx_open(st, false, &tx, err))
		return -1;
	if (store_run_get(st, run_id, &rf->info, err) ||
	    store_load_ops(st, run_id, benchmark, &rf->ops, &rf->ops_nr,
			   &rf->ops_alloc, err) ||
	    load_iters(st, run_id, benchmark, rf, err) ||
	    load_samples(st, run_id, rf, err) ||
	    store_monitor_load_full(st, run_id, benchmark, rf, err) ||
	    store_boot_load_full(st, run_id, rf, err) ||
	    store_run_settings_load(st, run_id, rf, err))
		goto out;
	for (size_t i = 0; i < rf->iters_nr; i++) {
		const struct iteration_data *it = &rf->iters[i];

		if (!isfinite(it->elapsed_s) || !isfinite(it->user_s) ||
		    !isfinite(it->sys_s)) {
			error_addf(
				err,
				"run '%s': iteration %zu of '%s' has a time that is not a finite number",
				rf->info.uuid, i, it->benchmark);
			goto out;
		}
	}
	ret = 0;
out:
	return store_tx_close(st, &tx, ret, err);
}

/*
 * The statements of one store_run_insert_full() call; iterations and the
 * last samples of each go through store.c's cached single-row inserts.
 */
struct insert_stmts {
	sqlite3_stmt *op, *samples;
};

static int prepare_inserts(struct store *st, struct insert_stmts *s,
			   struct strbuf *err)
{
	static const char op_sql[] =
		"INSERT INTO operation (run_id, benchmark, name, unit, better,"
		" decimals, seq) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";
	static const char sample_sql[] =
		"INSERT INTO sample (iteration_id, operation_id, seq, value)"
		" VALUES ";
	struct strbuf many = STRBUF_INIT;
	int ret = -1;

	strbuf_addstr(&many, sample_sql);
	for (int i = 0; i < SAMPLE_ROWS; i++)
		strbuf_addstr(&many, i ? ", (?, ?, ?, ?)" : "(?, ?, ?, ?)");
	if (sqlite3_prepare_v2(st->db, op_sql, -1, &s->op, NULL) ||
	    sqlite3_prepare_v2(st->db, many.buf, -1, &s->samples, NULL)) {
		store_fail(st, err, "prepare run import");
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&many);
	return ret;
}

static void finalize_inserts(struct insert_stmts *s)
{
	sqlite3_finalize(s->op);
	sqlite3_finalize(s->samples);
}

static int insert_ops(struct store *st, const struct insert_stmts *s,
		      const struct run_full *rf, int64_t *op_ids,
		      struct strbuf *err)
{
	for (size_t i = 0; i < rf->ops_nr; i++) {
		const struct op_samples *op = &rf->ops[i];

		if (sqlite3_bind_int64(s->op, 1, rf->info.id) ||
		    store_bind_text(s->op, 2, op->benchmark) ||
		    store_bind_text(s->op, 3, op->name) ||
		    store_bind_text(s->op, 4, op->unit) ||
		    store_bind_text(s->op, 5,
				    op->higher_better ? "higher" : "lower") ||
		    sqlite3_bind_int(s->op, 6, op->decimals) ||
		    sqlite3_bind_int64(s->op, 7, (sqlite3_int64)i) ||
		    sqlite3_step(s->op) != SQLITE_DONE) {
			return store_fail(st, err,
					  "create operation '%s' of '%s'",
					  op->name, op->benchmark);
		}
		op_ids[i] = sqlite3_last_insert_rowid(st->db);
		if (sqlite3_reset(s->op) != SQLITE_OK)
			return store_fail(st, err, "create operations");
	}
	return 0;
}

static int insert_iter(struct store *st, int64_t run_id,
		       const struct iteration_data *it, int64_t *iter_id,
		       struct strbuf *err)
{
	const struct iteration_rec rec = {
		.run_id = run_id,
		.benchmark = it->benchmark,
		.job = it->job,
		.build = it->build,
		.index = it->index,
		.warmup = it->warmup,
		.status = it->status,
		.exit_code = it->exit_code,
		.term_signal = it->term_signal,
		.elapsed_s = it->elapsed_s,
		.user_s = it->user_s,
		.sys_s = it->sys_s,
		.maxrss_kb = it->maxrss_kb,
		.stderr_tail = it->stderr_tail,
		.started_at = it->started_at,
		.boot = it->boot,
	};

	return store_insert_iteration(st, &rec, iter_id, err);
}

/*
 * Insert the samples of it: SAMPLE_ROWS at a time, the rest one by one.
 * A statement per row would spend most of its time on statement set-up.
 */
static int insert_samples(struct store *st, const struct insert_stmts *s,
			  const struct run_full *rf,
			  const struct iteration_data *it, int64_t iter_id,
			  const int64_t *op_ids, struct strbuf *err)
{
	const struct sample_data *v = rf->samples + it->samples_first;
	size_t i = 0, nr = it->samples_nr;

	for (size_t k = 0; k < nr; k++) {
		if (v[k].op >= rf->ops_nr)
			BUG("sample of operation %zu of %zu", v[k].op,
			    rf->ops_nr);
		if (isnan(v[k].value))
			return error_addf(
				err,
				"cannot store sample %zu of iteration %" PRId64
				" of '%s': not a number",
				k, it->index, it->benchmark);
	}
	for (; nr - i >= SAMPLE_ROWS; i += SAMPLE_ROWS) {
		for (int r = 0; r < SAMPLE_ROWS; r++) {
			const struct sample_data *x = &v[i + (size_t)r];

			if (store_bind_sample(s->samples, 4 * r + 1, iter_id,
					      op_ids[x->op], i + (size_t)r,
					      x->value))
				return store_fail(st, err, "store samples");
		}
		if (sqlite3_step(s->samples) != SQLITE_DONE ||
		    sqlite3_reset(s->samples) != SQLITE_OK)
			return store_fail(st, err, "store samples");
	}
	for (; i < nr; i++) {
		if (store_insert_sample(st, iter_id, op_ids[v[i].op], i,
					v[i].value, err))
			return -1;
	}
	return 0;
}

int store_run_insert_full(struct store *st, struct run_full *rf,
			  struct strbuf *err)
{
	struct insert_stmts s = {0};
	int64_t *op_ids = xcalloc(rf->ops_nr + 1, sizeof(*op_ids));
	struct store_tx tx;
	int ret = -1;

	for (size_t i = 0; i < rf->iters_nr; i++) {
		const struct iteration_data *it = &rf->iters[i];

		if (it->samples_first > rf->samples_nr ||
		    it->samples_nr > rf->samples_nr - it->samples_first)
			BUG("iteration %zu: samples beyond the run's", i);
	}
	if (store_tx_open(st, true, &tx, err)) {
		free(op_ids);
		return -1;
	}
	if (store_run_create(st, &rf->info, err) ||
	    prepare_inserts(st, &s, err) || insert_ops(st, &s, rf, op_ids, err))
		goto out;
	for (size_t i = 0; i < rf->iters_nr; i++) {
		const struct iteration_data *it = &rf->iters[i];
		int64_t iter_id = 0;

		if (insert_iter(st, rf->info.id, it, &iter_id, err) ||
		    insert_samples(st, &s, rf, it, iter_id, op_ids, err) ||
		    (it->monitor &&
		     store_monitor_add_full(st, iter_id, it->monitor, err)))
			goto out;
	}
	for (size_t i = 0; i < rf->boots_nr; i++)
		if (store_boot_add_full(st, rf->info.id, &rf->boots[i], err))
			goto out;
	for (size_t i = 0; i < rf->settings_nr; i++)
		if (store_run_setting_add(st, rf->info.id, rf->settings[i].path,
					  rf->settings[i].old_value,
					  rf->settings[i].new_value, err))
			goto out;
	ret = 0;
out:
	finalize_inserts(&s);
	free(op_ids);
	return store_tx_close(st, &tx, ret, err);
}
