/*
 * Unit tests for the store (and the uuid generator it is used with):
 * runs, operations, iterations and samples in ":memory:" and in a
 * temporary file, transactions, aborted-run detection, schema versions
 * and the migrations against db/schema.sql.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "run-data.h"
#include "machine.h"
#include "monitor.h"
#include "sha256.h"
#include "store.h"
#include "strbuf.h"
#include "util.h"
#include "uuid.h"

/* The schema the migrations reach: one per file in db/migrations. */
#define SCHEMA_VERSION 16

extern char **environ;

/* Fill ri with a run of label started at started_at; release it after. */
static void run_init(struct run_info *ri, const char *label,
		     const char *started_at, const char *status)
{
	char uuid[37];

	memset(ri, 0, sizeof(*ri));
	if (uuid_v4(uuid, NULL))
		BUG("no uuid");
	ri->uuid = xstrdup(uuid);
	ri->label = xstrdup(label);
	ri->status = xstrdup(status);
	ri->config_name = xstrdup("cfg");
	ri->config_text = xstrdup("benchmarks: []\n");
	ri->config_hash = xstrdup("00ff");
	ri->started_at = xstrdup(started_at);
	ri->mmcmp_version = xstrdup("0.1.0");
	ri->machine.hostname = xstrdup("testhost");
	ri->machine.nr_cpus = 8;
	ri->machine.mem_bytes = INT64_C(17179869184);
}

/* Create a run and return its id, 0 on failure. */
static int64_t run_add(struct store *st, const char *label,
		       const char *started_at, const char *status)
{
	struct strbuf err = STRBUF_INIT;
	struct run_info ri;
	int64_t id = 0;

	run_init(&ri, label, started_at, status);
	if (store_run_create(st, &ri, &err))
		diag("run_add: %s", err.buf);
	else
		id = ri.id;
	run_info_release(&ri);
	strbuf_release(&err);
	return id;
}

static struct iteration_rec iter(int64_t run_id, const char *benchmark,
				 int64_t index, bool warmup, const char *status,
				 double user_s)
{
	struct iteration_rec it = {
		.run_id = run_id,
		.benchmark = benchmark,
		.job = "tasks=1",
		.index = index,
		.warmup = warmup,
		.status = status,
		.exit_code = strcmp(status, "ok") ? 1 : 0,
		.elapsed_s = 2 * user_s,
		.user_s = user_s,
		.sys_s = user_s / 4,
		.maxrss_kb = 1024,
		.started_at = "2024-01-01T00:00:00Z",
	};
	return it;
}

/*
 * Check that a call failed (ret -1) with a message in err that contains
 * want (any message when want is NULL), then empty err.
 */
static void fails(int ret, struct strbuf *err, const char *want,
		  const char *what)
{
	ok(ret == -1 && err->len && (!want || strstr(err->buf, want)) &&
		   !strchr(err->buf, '\n'),
	   "%s: %s", what, err->buf);
	strbuf_reset(err);
}

static int64_t query(struct store *st, const char *sql)
{
	struct strbuf err = STRBUF_INIT;
	int64_t v = -1;

	if (store_query_int64(st, sql, &v, &err))
		diag("query '%s': %s", sql, err.buf);
	strbuf_release(&err);
	return v;
}

static void test_uuid(void)
{
	struct strbuf err = STRBUF_INIT;
	char a[37], b[37], hex[65];
	bool shape = true;

	ok(!uuid_v4(a, &err) && !uuid_v4(b, &err), "uuid_v4 succeeds");
	for (size_t i = 0; i < 36; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23)
			shape &= a[i] == '-';
		else
			shape &= isxdigit((unsigned char)a[i]) &&
				 !isupper((unsigned char)a[i]);
	}
	ok(shape && strlen(a) == 36, "uuid has the 8-4-4-4-12 shape: %s", a);
	ok(a[14] == '4' && strchr("89ab", a[19]),
	   "uuid is version 4, RFC variant");
	ok(strcmp(a, b), "two uuids differ");
	strbuf_release(&err);

	/* SHA-256 of "abc" (FIPS 180-2, B.1), its version and variant set. */
	sha256_hex("abc", 3, hex);
	uuid_from_sha256(hex, a);
	is_str(a, "ba7816bf-8f01-8fea-8141-40de5dae2223",
	       "uuid_from_sha256: version 8, variant 10 from digit 4");
	memcpy(hex, "0000000000000000f", 17);
	uuid_from_sha256(hex, a);
	is_str(a, "00000000-0000-8000-b141-40de5dae2223",
	       "uuid_from_sha256: variant digit f becomes b");
}

/* One run with two benchmarks, warm-ups and a failed iteration. */
static void test_runs(void)
{
	struct strbuf err = STRBUF_INIT;
	struct store *st = store_open(":memory:", &err);
	struct run_data rd = {0};
	struct run_info ri = {0};
	struct run_rows rows = {0};
	int64_t run, other, again = 0, iter_id = 0, id_m1 = 0, id_m2 = 0;
	/* Zero, as a failed store_operation() leaves them unset. */
	int64_t op_a = 0, op_b = 0, op_c = 0;
	int64_t *ids = NULL;
	size_t nr = 0;

	if (!ok(st != NULL, "open :memory:"))
		diag("%s", err.buf);
	if (!st)
		return;
	ok(query(st, "PRAGMA user_version") == SCHEMA_VERSION,
	   "schema version is %d", SCHEMA_VERSION);
	ok(query(st, "PRAGMA application_id") == 0x6d6d6370,
	   "application_id is \"mmcp\"");
	ok(query(st, "PRAGMA foreign_keys") == 1, "foreign keys are on");

	run = run_add(st, "base", "2024-01-02T00:00:00Z", "running");
	ok(run > 0, "run created, id %" PRId64, run);
	ok(!store_run_get(st, run, &ri, &err), "run read back");
	is_str(ri.label, "base", "label read back");
	is_str(ri.config_hash, "00ff", "config hash read back");
	is_str(ri.machine.hostname, "testhost", "hostname read back");
	ok(ri.machine.nr_cpus == 8 &&
		   ri.machine.mem_bytes == INT64_C(17179869184),
	   "machine numbers read back");
	ok(ri.ended_at == NULL && ri.machine.cmdline == NULL,
	   "unknown strings read back as NULL");
	run_info_release(&ri);
	fails(store_run_get(st, 999, &ri, &err), &err, "no run 999",
	      "unknown run is an error");

	ok(!store_operation(st, run, "pft", "faults/cpu", "faults/s", true, 2,
			    &op_a, &err) &&
		   !store_operation(st, run, "pft", "faults/sec", "faults/s",
				    true, 2, &op_b, &err) &&
		   !store_operation(st, run, "aim9", "page_test", "ops/s", true,
				    1, &op_c, &err),
	   "three operations created");
	ok(!store_operation(st, run, "pft", "faults/cpu", "x", false, 0, &again,
			    &err) &&
		   again == op_a,
	   "an existing operation keeps its id");
	fails(store_operation(st, 999, "pft", "x", "", true, 0, &again, &err),
	      &err, "FOREIGN KEY", "operation of an unknown run fails");

	{
		/* Warm-up first, then two measured, one of them failed. */
		struct sample_rec warm[] = {{op_a, 1000}, {op_b, 1000}};
		struct sample_rec m1[] = {
			{op_a, 1},
			{op_b, 10},
			{op_a, 2},
			{op_b, 20},
		};
		struct sample_rec m2[] = {{op_b, 30}, {op_a, 3}};
		struct sample_rec m3[] = {{op_c, 7.5}};
		struct iteration_rec it;

		it = iter(run, "pft", 0, true, "ok", 100);
		ok(!store_iteration_add(st, &it, warm, ARRAY_SIZE(warm),
					&iter_id, &err) &&
			   iter_id > 0,
		   "warm-up iteration stored");
		it = iter(run, "pft", 0, false, "ok", 1);
		ok(!store_iteration_add(st, &it, m1, ARRAY_SIZE(m1), &id_m1,
					&err),
		   "measured iteration stored");
		it = iter(run, "pft", 1, false, "exit", 2);
		it.stderr_tail = "oops";
		ok(!store_iteration_add(st, &it, m2, ARRAY_SIZE(m2), &id_m2,
					&err),
		   "failed iteration stored");
		it = iter(run, "aim9", 0, false, "ok", 4);
		it.build = "patched";
		ok(!store_iteration_add(st, &it, m3, ARRAY_SIZE(m3), NULL,
					&err),
		   "iteration of a second benchmark stored");
		it = iter(run, "aim9", 1, false, "signal", 8);
		ok(!store_iteration_add(st, &it, NULL, 0, NULL, &err),
		   "iteration without samples stored");
		it = iter(run, "bogus", 0, false, "bogus", 8);
		fails(store_iteration_add(st, &it, NULL, 0, NULL, &err), &err,
		      "CHECK", "unknown iteration status rejected");
	}

	ok(!store_load_run(st, run, NULL, &rd, &err), "run loaded");
	is_str(rd.info.label, "base", "loaded info");
	ok(rd.ops_nr == 3, "three operations loaded");
	if (rd.ops_nr == 3) {
		struct op_samples *a = &rd.ops[0], *b = &rd.ops[1];
		struct op_samples *c = &rd.ops[2];

		is_str(a->name, "faults/cpu", "first op in creation order");
		is_str(c->benchmark, "aim9", "third op in creation order");
		ok(a->id == op_a && a->higher_better && a->decimals == 2,
		   "op id, direction and decimals");
		is_str(a->unit, "faults/s", "op unit");
		ok(c->decimals == 1, "op decimals");
		ok(a->nr == 3 && a->v[0] == 1 && a->v[1] == 2 && a->v[2] == 3,
		   "op a: measured samples in insertion order");
		ok(b->nr == 3 && b->v[0] == 10 && b->v[1] == 20 &&
			   b->v[2] == 30,
		   "op b: warm-up samples excluded");
		ok(c->nr == 1 && c->v[0] == 7.5, "op c: one sample");
		/*
		 * The operations take turns within an iteration, and the
		 * second iteration starts with the one the first ended on.
		 */
		ok(a->nr == 3 && b->nr == 3 &&
			   op_samples_key(a, OP_KEY_ITERATION, 1) == id_m1 &&
			   op_samples_key(a, OP_KEY_ITERATION, 2) == id_m2 &&
			   op_samples_key(b, OP_KEY_ITERATION, 1) == id_m1 &&
			   op_samples_key(b, OP_KEY_ITERATION, 2) == id_m2 &&
			   op_samples_key(a, OP_KEY_RUN, 2) == run &&
			   a->spans_nr == 2 && b->spans_nr == 2,
		   "each sample keeps its own iteration and run");
	}
	ok(rd.durations_nr == 2, "durations of two benchmarks");
	if (rd.durations_nr == 2) {
		struct bench_duration *d = &rd.durations[0];

		is_str(d->benchmark, "pft", "durations in op order");
		ok_near(d->user_s, 3, 1e-12, "user time summed, warm-up not");
		ok_near(d->sys_s, 0.75, 1e-12, "system time summed");
		ok_near(d->elapsed_s, 6, 1e-12, "elapsed time summed");
		ok(d->iterations == 2, "measured iterations counted");
		ok_near(rd.durations[1].user_s, 12, 1e-12,
			"a failed iteration's time counts");
	}
	run_data_release(&rd);

	ok(!store_load_run(st, run, "aim9", &rd, &err) && rd.ops_nr == 1 &&
		   rd.durations_nr == 1,
	   "load of one benchmark");
	if (rd.ops_nr == 1)
		ok(rd.ops[0].nr == 1 && rd.ops[0].v[0] == 7.5,
		   "its samples only");
	run_data_release(&rd);
	fails(store_load_run(st, 999, NULL, &rd, &err), &err, "no run 999",
	      "load of an unknown run fails");
	ok(rd.ops_nr == 0 && !rd.info.label, "and leaves rd empty");

	/*
	 * The samples are read by an aggregate, whose rows come in no
	 * promised order: with SQLite told to scan backwards, they still
	 * load in the order they were stored.
	 */
	{
		char first[128], last[128];

		snprintf(first, sizeof(first),
			 "SELECT seq FROM sample WHERE iteration_id = %" PRId64,
			 id_m1);
		snprintf(last, sizeof(last),
			 "SELECT max(seq) FROM sample WHERE iteration_id = "
			 "%" PRId64,
			 id_m1);
		ok(!store_exec(st, "PRAGMA reverse_unordered_selects = ON",
			       &err) &&
			   query(st, first) == query(st, last),
		   "a scan of an iteration's samples runs backwards");
		ok(!store_load_run(st, run, "pft", &rd, &err) &&
			   rd.ops_nr == 2 && rd.ops[0].nr == 3 &&
			   rd.ops[0].v[0] == 1 && rd.ops[0].v[1] == 2 &&
			   rd.ops[0].v[2] == 3 && rd.ops[1].v[0] == 10 &&
			   rd.ops[1].v[1] == 20 && rd.ops[1].v[2] == 30,
		   "and the samples load in their order all the same");
		run_data_release(&rd);
		ok(!store_exec(st, "PRAGMA reverse_unordered_selects = OFF",
			       &err),
		   "scans forwards again");
	}

	/* An older run of another label, created after the first. */
	other = run_add(st, "patched", "2024-01-01T00:00:00Z", "complete");
	ok(other > 0, "second run created");
	ok(!store_list_runs(st, &rows, &err) && rows.nr == 2,
	   "two runs listed");
	if (rows.nr == 2) {
		struct run_row *r = &rows.v[1];

		ok(rows.v[0].id == other, "list is oldest first");
		ok(r->id == run && r->iterations == 4 &&
			   r->failed_iterations == 2 && r->samples == 7,
		   "counts: %" PRId64 " iterations, %" PRId64
		   " failed, %" PRId64 " samples",
		   r->iterations, r->failed_iterations, r->samples);
		is_str(r->config_name, "cfg", "config name listed");
		is_str(r->status, "running", "status listed");
	}
	run_rows_release(&rows);

	ok(!store_run_set_status(st, run, "complete", "2024-01-02T01:00:00Z",
				 &err),
	   "status set");
	ok(!store_run_set_status(st, run, "failed", NULL, &err),
	   "status set again");
	ok(!store_run_get(st, run, &ri, &err), "run read");
	is_str(ri.status, "failed", "new status");
	is_str(ri.ended_at, "2024-01-02T01:00:00Z", "end time kept");
	run_info_release(&ri);
	fails(store_run_set_status(st, run, "bogus", NULL, &err), &err, "CHECK",
	      "bad status rejected");
	fails(store_run_set_status(st, 999, "failed", NULL, &err), &err,
	      "no run 999", "status of an unknown run");

	ok(!store_all_runs(st, &ids, &nr, &err) && nr == 2 && ids[0] == other &&
		   ids[1] == run,
	   "all runs, oldest first");
	free(ids);
	ids = NULL;

	ok(!store_delete_label(st, "base", &err), "label deleted");
	ok(!store_find_runs(st, "base", &ids, &nr, &err) && nr == 0,
	   "no run left of the label");
	free(ids);
	ids = NULL;
	ok(query(st, "SELECT count(*) FROM operation") == 0 &&
		   query(st, "SELECT count(*) FROM iteration") == 0 &&
		   query(st, "SELECT count(*) FROM sample") == 0,
	   "operations, iterations and samples deleted with it");
	ok(!store_delete_label(st, "nothing", &err), "deleting no run is fine");
	ok(!store_find_runs(st, "patched", &ids, &nr, &err) && nr == 1,
	   "other label kept");
	free(ids);
	ids = NULL;

	store_close(st);
	strbuf_release(&err);
}

/* Same label several times: find_runs orders by start time, then id. */
static void test_find_order(void)
{
	struct strbuf err = STRBUF_INIT;
	struct store *st = store_open(":memory:", &err);
	struct iteration_rec it;
	int64_t a, b, c, d, *ids = NULL;
	size_t nr = 0;

	if (!st)
		BUG("open: %s", err.buf);
	a = run_add(st, "x", "2024-03-01T00:00:00Z", "complete");
	b = run_add(st, "x", "2024-01-01T00:00:00Z", "complete");
	c = run_add(st, "y", "2023-01-01T00:00:00Z", "complete");
	d = run_add(st, "x", "2024-01-01T00:00:00Z", "complete");
	ok(!store_find_runs(st, "x", &ids, &nr, &err) && nr == 3 &&
		   ids[0] == b && ids[1] == d && ids[2] == a,
	   "find_runs: oldest first, ties by id");
	free(ids);
	ids = NULL;
	ok(c > 0, "other label present");
	/* Only a run with a successful measured iteration replaces. */
	it = iter(d, "b", 0, false, "ok", 1.0);
	ok(!store_iteration_add(st, &it, NULL, 0, NULL, &err),
	   "the kept run has a measured iteration");
	{
		const int64_t older[] = {a, b};

		ok(!store_delete_older_runs(st, "x", d, older,
					    ARRAY_SIZE(older), &err),
		   "older runs deleted");
	}
	ok(!store_find_runs(st, "x", &ids, &nr, &err) && nr == 1 && ids[0] == d,
	   "only the kept run is left");
	free(ids);
	ids = NULL;
	ok(!store_find_runs(st, "y", &ids, &nr, &err) && nr == 1,
	   "other labels untouched");
	free(ids);
	ids = NULL;
	store_close(st);
	strbuf_release(&err);
}

/* Failures leave nothing behind; groups commit or roll back as one. */
static void test_atomic(void)
{
	struct strbuf err = STRBUF_INIT;
	struct store *st = store_open(":memory:", &err);
	struct run_info ri;
	int64_t run, run2, op = 0;
	struct sample_rec good[] = {{0, 1}, {0, 2}};
	struct sample_rec bad[] = {{0, 1}, {0, 2}, {424242, 3}};
	struct sample_rec nan_sample[] = {{0, 1}, {0, NAN}};
	struct iteration_rec it;

	if (!st)
		BUG("open: %s", err.buf);
	run = run_add(st, "a", "2024-01-01T00:00:00Z", "running");
	if (store_operation(st, run, "b", "op", "s", false, 3, &op, &err))
		BUG("operation: %s", err.buf);
	good[0].op_id = good[1].op_id = op;
	bad[0].op_id = bad[1].op_id = op;
	run2 = run_add(st, "other", "2024-01-01T00:00:00Z", "running");
	nan_sample[0].op_id = nan_sample[1].op_id = op;

	/* Duplicate uuid. */
	run_init(&ri, "dup", "2024-01-01T00:00:00Z", "running");
	ok(!store_run_create(st, &ri, &err), "run with a uuid created");
	free(ri.label);
	ri.label = xstrdup("dup2");
	fails(store_run_create(st, &ri, &err), &err, "UNIQUE",
	      "duplicate uuid refused");
	ok(query(st, "SELECT count(*) FROM run WHERE label = 'dup2'") == 0,
	   "and leaves no run");
	run_info_release(&ri);

	/* A bad operation id fails the whole iteration. */
	it = iter(run, "b", 0, false, "ok", 1);
	fails(store_iteration_add(st, &it, bad, ARRAY_SIZE(bad), NULL, &err),
	      &err, "operation 424242 is not one of run",
	      "sample of an unknown operation refused");
	ok(query(st, "SELECT count(*) FROM iteration") == 0 &&
		   query(st, "SELECT count(*) FROM sample") == 0,
	   "no partial iteration left");
	fails(store_iteration_add(st, &it, nan_sample, ARRAY_SIZE(nan_sample),
				  NULL, &err),
	      &err, "not a number", "NaN sample refused");
	ok(query(st, "SELECT count(*) FROM sample") == 0, "nothing left");
	it.run_id = 31337;
	fails(store_iteration_add(st, &it, NULL, 0, NULL, &err), &err,
	      "FOREIGN KEY", "iteration of an unknown run refused");
	it.run_id = run2;
	fails(store_iteration_add(st, &it, good, ARRAY_SIZE(good), NULL, &err),
	      &err, "is not one of run",
	      "sample of another run's operation refused");
	ok(query(st, "SELECT count(*) FROM iteration") == 0,
	   "no iteration left");
	it.run_id = run;

	/* A group that is rolled back. */
	ok(!store_begin(st, &err), "begin");
	fails(store_begin(st, &err), &err, "open", "nested begin refused");
	ok(run_add(st, "group", "2024-01-01T00:00:00Z", "running") > 0,
	   "run created in the group");
	ok(!store_iteration_add(st, &it, good, ARRAY_SIZE(good), NULL, &err),
	   "iteration added in the group");
	store_rollback(st);
	ok(query(st, "SELECT count(*) FROM run WHERE label = 'group'") == 0 &&
		   query(st, "SELECT count(*) FROM sample") == 0,
	   "rollback undoes the group");
	fails(store_commit(st, &err), &err, "no transaction",
	      "commit without a group fails");

	/* A group where one call fails: the rest still commits. */
	ok(!store_begin(st, &err), "begin again");
	ok(!store_iteration_add(st, &it, good, ARRAY_SIZE(good), NULL, &err),
	   "good iteration in the group");
	ok(store_iteration_add(st, &it, bad, ARRAY_SIZE(bad), NULL, &err),
	   "bad iteration in the group fails");
	strbuf_reset(&err);
	ok(!store_iteration_add(st, &it, good, ARRAY_SIZE(good), NULL, &err),
	   "group goes on after a failed call");
	ok(!store_commit(st, &err), "commit");
	ok(query(st, "SELECT count(*) FROM iteration") == 2 &&
		   query(st, "SELECT count(*) FROM sample") == 4,
	   "the failed call alone was undone");
	ok(!store_exec(st, "UPDATE run SET label = 'z' WHERE id = 0", &err),
	   "store_exec runs SQL");
	fails(store_exec(st, "SELECT * FROM nonexistent", &err), &err,
	      "no such table", "store_exec reports errors");

	store_close(st);
	strbuf_release(&err);
}

/*
 * A pid that surely does not exist: a child we have reaped. It execs at
 * once, so valgrind does not follow it.
 */
static pid_t dead_pid(void)
{
	char *argv[] = {(char *)"true", NULL};
	pid_t pid;

	if (posix_spawnp(&pid, "true", NULL, NULL, argv, environ))
		BUG("cannot run true");
	if (waitpid(pid, NULL, 0) != pid)
		BUG("waitpid failed");
	return pid;
}

static int64_t run_with_pid(struct store *st, const char *label,
			    const char *hostname, int64_t pid,
			    int64_t pid_start)
{
	struct strbuf err = STRBUF_INIT;
	struct run_info ri;
	int64_t id = 0;

	run_init(&ri, label, "2024-01-01T00:00:00Z", "running");
	free(ri.machine.hostname);
	ri.machine.hostname = xstrdup(hostname);
	ri.pid = pid;
	ri.pid_start = pid_start;
	if (store_run_create(st, &ri, &err))
		diag("%s", err.buf);
	else
		id = ri.id;
	run_info_release(&ri);
	strbuf_release(&err);
	return id;
}

static char *run_status(struct store *st, int64_t id)
{
	struct run_info ri;
	char *status = NULL;

	if (!store_run_get(st, id, &ri, NULL)) {
		status = ri.status;
		ri.status = NULL;
	}
	run_info_release(&ri);
	return status;
}

static void test_file(void)
{
	struct strbuf err = STRBUF_INIT, path = STRBUF_INIT;
	struct strbuf side = STRBUF_INIT;
	const char *tmp = getenv("TMPDIR");
	char *dir, host[256] = "";
	struct store *st;
	int64_t start = 0, dead, alive, reused, remote, unknown, done;
	char *status;
	FILE *fp;

	strbuf_addf(&path, "%s/mmcmp-test-store-XXXXXX",
		    tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(path.buf))
		BUG("mkdtemp failed");
	dir = xstrdup(path.buf);
	strbuf_addstr(&path, "/store.db");
	gethostname(host, sizeof(host) - 1);

	st = store_open(path.buf, &err);
	if (!ok(st != NULL, "open a new file"))
		diag("%s", err.buf);
	if (!st)
		goto out;
	ok(query(st, "SELECT count(*) FROM pragma_journal_mode"
		     " WHERE journal_mode = 'wal'") == 1,
	   "file is in WAL mode");
	start = machine_proc_start(getpid());
	ok(start > 0, "own start time: %" PRId64, start);
	dead = run_with_pid(st, "dead", host, dead_pid(), start);
	alive = run_with_pid(st, "alive", host, getpid(), start);
	reused = run_with_pid(st, "reused", host, getpid(), start + 1);
	remote = run_with_pid(st, "remote", "elsewhere.invalid", dead_pid(),
			      start);
	unknown = run_with_pid(st, "unknown", host, 0, 0);
	done = run_add(st, "done", "2024-01-01T00:00:00Z", "complete");
	ok(dead && alive && reused && remote && unknown && done,
	   "runs created");
	store_close(st);

	st = store_open(path.buf, &err);
	if (!ok(st != NULL, "reopen"))
		diag("%s", err.buf);
	if (!st)
		goto out;
	status = run_status(st, dead);
	is_str(status, "aborted", "run of a dead process is aborted");
	free(status);
	status = run_status(st, alive);
	is_str(status, "running", "run of a live process stays running");
	free(status);
	status = run_status(st, reused);
	is_str(status, "aborted", "run of a reused pid is aborted");
	free(status);
	status = run_status(st, remote);
	is_str(status, "running", "run of another host is left alone");
	free(status);
	status = run_status(st, unknown);
	is_str(status, "running", "run without a pid is left alone");
	free(status);
	status = run_status(st, done);
	is_str(status, "complete", "complete run untouched");
	free(status);

	ok(!store_exec(st, "PRAGMA user_version = 99", &err),
	   "schema version raised");
	store_close(st);
	st = store_open(path.buf, &err);
	ok(st == NULL, "reopen fails");
	fails(-1, &err, "was written by a newer mmcmp (schema 99)",
	      "newer schema refused");
	store_close(st);

	/* Not a database at all. */
	unlink(path.buf);
	strbuf_addf(&side, "%s-wal", path.buf);
	unlink(side.buf);
	strbuf_reset(&side);
	fp = fopen(path.buf, "w");
	if (!fp ||
	    fputs("this is not a database, but it is long enough to"
		  " look like one might be inside it somewhere\n",
		  fp) < 0 ||
	    fclose(fp))
		BUG("cannot write '%s'", path.buf);
	st = store_open(path.buf, &err);
	ok(st == NULL, "opening a non-database fails");
	fails(-1, &err, "not a database", "and says why");
	store_close(st);
	strbuf_addf(&side, "%s/no/such/dir.db", dir);
	st = store_open(side.buf, &err);
	ok(st == NULL, "opening in a missing directory fails");
	fails(-1, &err, "cannot open database", "and says why");
	store_close(st);
	strbuf_reset(&side);

out:
	strbuf_addf(&side, "%s-wal", path.buf);
	unlink(side.buf);
	strbuf_reset(&side);
	strbuf_addf(&side, "%s-shm", path.buf);
	unlink(side.buf);
	unlink(path.buf);
	rmdir(dir);
	free(dir);
	strbuf_release(&side);
	strbuf_release(&path);
	strbuf_release(&err);
}

/* A monitor record of fixed values; the arrays are the caller's. */
static struct monitor_record mon_rec(struct monitor_value *vm, size_t vm_nr,
				     struct monitor_value *cpu, size_t cpu_nr,
				     struct monitor_value *mem, size_t mem_nr)
{
	struct monitor_record rec = {
		.vmstat = {.v = vm, .nr = vm_nr},
		.cpu = {.v = cpu, .nr = cpu_nr},
		.meminfo_start = {.v = mem, .nr = mem_nr},
		.meminfo_end = {.v = mem, .nr = mem_nr},
	};
	return rec;
}

/* Store an iteration and its monitor record as one unit; 0 on failure. */
static int64_t iter_mon(struct store *st, const struct iteration_rec *it,
			const struct monitor_record *rec)
{
	struct strbuf err = STRBUF_INIT;
	int64_t id = 0;

	if (store_begin(st, &err) ||
	    store_iteration_add(st, it, NULL, 0, &id, &err) ||
	    (rec && store_monitor_add(st, id, rec, &err)) ||
	    store_commit(st, &err)) {
		diag("iter_mon: %s", err.buf);
		store_rollback(st);
		id = 0;
	}
	strbuf_release(&err);
	return id;
}

static double counter_at(const struct monitor_table *mt, const char *name,
			 size_t i)
{
	const struct monitor_counter *c = monitor_table_get(mt, name);

	return c && i < c->nr ? c->v[i] : -1.0;
}

/*
 * Monitor records: stored with their iterations, loaded per benchmark
 * from successful measured iterations only, queryable as JSON, deleted
 * with their run; and the machine facts of 0002.
 */
static void test_monitors(void)
{
	struct strbuf err = STRBUF_INIT;
	struct store *st = store_open(":memory:", &err);
	struct monitor_value vm1[] = {
		{"pgfault", 10}, {"pgmajfault", 1}, {"nr_free_pages", -5}};
	struct monitor_value vm2[] = {{"pgfault", 20}, {"we\"ird\\\001x", 3}};
	struct monitor_value cpu[] = {{"user", 7}, {"system", 2}};
	struct monitor_value mem[] = {{"MemTotal", 1000}, {"MemFree", 400}};
	struct monitor_record rec1 = mon_rec(vm1, 3, cpu, 2, mem, 2);
	struct monitor_record rec2 = mon_rec(vm2, 2, cpu, 2, mem, 2);
	struct monitor_record empty = mon_rec(NULL, 0, cpu, 2, mem, 2);
	struct monitor_sample samples[2] = {
		{.t_s = 0.5,
		 .vmstat = {.v = vm1, .nr = 1},
		 .cpu = {.v = cpu, .nr = 2},
		 .meminfo = {.v = mem, .nr = 2}},
		{.t_s = 1.0,
		 .cpu = {.v = cpu, .nr = 2},
		 .meminfo = {.v = mem, .nr = 2}},
	};
	struct iteration_rec it;
	struct run_info ri;
	struct run_data rd = {0}, copy = {0};
	const struct monitor_table *a, *b;
	int64_t run, id, ids[6];
	int r;

	if (!st)
		BUG("open: %s", err.buf);
	run_init(&ri, "mon", "2024-01-01T00:00:00Z", "running");
	ri.machine.thp_enabled = xstrdup("madvise");
	ri.machine.thp_defrag = xstrdup("defer+madvise");
	ri.machine.cpufreq_governor = xstrdup("performance");
	ri.machine.numa_nodes = 2;
	ri.machine.smt = xstrdup("on");
	ri.machine.cgroup_mode = xstrdup("v2");
	ri.machine.kernel_config_sha256 = xstrdup("ab12");
	ri.cgroup = xstrdup("mmcmp/a/b");
	r = store_run_create(st, &ri, &err);
	ok(!r, "run with machine facts %s", err.buf);
	run = ri.id;
	run_info_release(&ri);
	ok(!store_run_get(st, run, &ri, &err) &&
		   !strcmp(ri.machine.thp_enabled, "madvise") &&
		   !strcmp(ri.machine.thp_defrag, "defer+madvise") &&
		   !strcmp(ri.machine.cpufreq_governor, "performance") &&
		   ri.machine.numa_nodes == 2 &&
		   !strcmp(ri.machine.smt, "on") &&
		   !strcmp(ri.machine.cgroup_mode, "v2") &&
		   !strcmp(ri.machine.kernel_config_sha256, "ab12") &&
		   !strcmp(ri.cgroup, "mmcmp/a/b"),
	   "machine facts and cgroup read back");
	run_info_release(&ri);
	id = run_add(st, "plain", "2024-01-01T00:00:00Z", "running");
	ok(!store_run_get(st, id, &ri, &err) && !ri.machine.thp_enabled &&
		   !ri.machine.numa_nodes && !ri.machine.cgroup_mode &&
		   !ri.cgroup,
	   "unknown facts read back as NULL and 0");
	ok(query(st, "SELECT count(*) FROM run WHERE numa_nodes IS NULL"
		     " AND smt IS NULL AND kernel_config_sha256 IS NULL") == 1,
	   "and are NULL in the database");
	run_info_release(&ri);

	it = iter(run, "a", 0, true, "ok", 1.0);
	ids[0] = iter_mon(st, &it, &rec1);
	it = iter(run, "a", 1, false, "ok", 1.0);
	ids[1] = iter_mon(st, &it, &rec1);
	it = iter(run, "a", 2, false, "ok", 1.0);
	ids[2] = iter_mon(st, &it, NULL);
	it = iter(run, "a", 3, false, "exit", 1.0);
	ids[3] = iter_mon(st, &it, &rec1);
	rec2.interval_s = 0.5;
	rec2.samples = samples;
	rec2.samples_nr = 2;
	it = iter(run, "a", 4, false, "ok", 2.0);
	ids[4] = iter_mon(st, &it, &rec2);
	it = iter(run, "b", 0, false, "ok", 3.0);
	ids[5] = iter_mon(st, &it, &empty);
	ok(ids[0] && ids[1] && ids[2] && ids[3] && ids[4] && ids[5],
	   "iterations stored with their monitors");
	ok(query(st, "SELECT count(*) FROM iteration_monitor") == 5,
	   "one monitor row per monitored iteration");
	ok(query(st, "SELECT json_extract(vmstat, '$.pgfault')"
		     " FROM iteration_monitor ORDER BY iteration_id"
		     " LIMIT 1") == 10 &&
		   query(st, "SELECT json_extract(vmstat, '$.nr_free_pages')"
			     " FROM iteration_monitor ORDER BY iteration_id"
			     " LIMIT 1") == -5 &&
		   query(st, "SELECT sum(json_extract(cpu, '$.user'))"
			     " FROM iteration_monitor") == 35,
	   "the values are JSON that SQLite reads");
	ok(query(st, "SELECT count(*) FROM monitor_sample") == 2 &&
		   query(st, "SELECT max(seq) FROM monitor_sample") == 2 &&
		   query(st, "SELECT json_extract(meminfo, '$.MemFree')"
			     " FROM monitor_sample WHERE seq = 1") == 400 &&
		   query(st, "SELECT interval_s * 10 FROM iteration_monitor"
			     " WHERE interval_s > 0") == 5,
	   "periodic samples are stored in time order");
	ok(store_monitor_add(st, 999, &rec1, &err) == -1 &&
		   strstr(err.buf,
			  "iteration 999: there is no such iteration") &&
		   query(st, "SELECT count(*) FROM iteration_monitor") == 5,
	   "monitors of an unknown iteration are refused, atomically");
	strbuf_reset(&err);

	r = store_load_run(st, run, NULL, &rd, &err);
	ok(!r && rd.monitors_nr == 2, "load: two monitor tables %s", err.buf);
	a = run_data_monitors(&rd, "a", false);
	b = run_data_monitors(&rd, "b", false);
	ok(a && a->iterations == 2 && a->elapsed_s == 6.0,
	   "a: the two successful measured monitored iterations");
	ok(a && counter_at(a, "pgfault", 0) == 10 &&
		   counter_at(a, "pgfault", 1) == 20 &&
		   counter_at(a, "pgmajfault", 1) == 0 &&
		   counter_at(a, "nr_free_pages", 0) == -5 &&
		   counter_at(a, "we\"ird\\\001x", 0) == 0 &&
		   counter_at(a, "we\"ird\\\001x", 1) == 3 &&
		   a->counters_nr == 4,
	   "a: per-iteration changes, 0 where a counter did not change");
	ok(b && b->iterations == 1 && !b->counters_nr,
	   "b: an iteration in which nothing changed still counts");
	ok(a && b && !strcmp(monitor_table_job(a, 0), "tasks=1") &&
		   !strcmp(monitor_table_job(a, 1), "tasks=1") &&
		   !strcmp(monitor_table_job(b, 0), "tasks=1") &&
		   !monitor_table_job(b, 1),
	   "each iteration's job comes with it, so compare can keep "
	   "variants apart");
	run_data_release(&rd);
	ok(!store_load_run(st, run, "b", &rd, &err) && rd.monitors_nr == 1 &&
		   !strcmp(rd.monitors[0].benchmark, "b"),
	   "load one benchmark's monitors");
	run_data_release(&rd);

	/* Pooling a label's runs appends their iterations. */
	store_load_run(st, run, NULL, &rd, &err);
	store_load_run(st, run, "a", &copy, &err);
	monitor_table_set(&copy.monitors[0], "pgsteal_kswapd", 8);
	run_data_merge(&rd, &copy);
	a = run_data_monitors(&rd, "a", false);
	ok(a && a->iterations == 4 && a->elapsed_s == 12.0 &&
		   counter_at(a, "pgfault", 2) == 10 &&
		   counter_at(a, "pgsteal_kswapd", 1) == 0 &&
		   counter_at(a, "pgsteal_kswapd", 3) == 8 &&
		   !strcmp(monitor_table_job(a, 3), "tasks=1"),
	   "run_data_merge appends monitor iterations, with their jobs");
	run_data_release(&rd);
	run_data_release(&copy);

	ok(!store_delete_label(st, "mon", &err) &&
		   !query(st, "SELECT count(*) FROM iteration_monitor") &&
		   !query(st, "SELECT count(*) FROM monitor_sample"),
	   "deleting the run deletes its monitors");
	store_close(st);
	strbuf_release(&err);
}

/* Whether the SQL condition cond holds of iteration id's monitor row. */
static bool mon_row(struct store *st, int64_t id, const char *cond)
{
	struct strbuf sql = STRBUF_INIT;
	bool yes;

	strbuf_addf(&sql,
		    "SELECT count(*) FROM monitor_record m"
		    " LEFT JOIN perf_record p USING (iteration_id)"
		    " JOIN iteration_monitor w USING (iteration_id)"
		    " LEFT JOIN iteration_perf pw USING (iteration_id)"
		    " WHERE iteration_id = %" PRId64 " AND %s",
		    id, cond);
	yes = query(st, sql.buf) == 1;
	if (!yes)
		diag("iteration %" PRId64 ": not %s", id, cond);
	strbuf_release(&sql);
	return yes;
}

/* Whether mc holds v[0..nr), in that order. */
static bool same_values(const struct monitor_counts *mc,
			const struct monitor_value *v, size_t nr)
{
	if (mc->nr != nr)
		return false;
	for (size_t i = 0; i < nr; i++)
		if (strcmp(mc->v[i].name, v[i].name) ||
		    mc->v[i].value != v[i].value)
			return false;
	return true;
}

/*
 * The levels are stored as what changed (0016): meminfo_start and
 * vmstat_end against the first record stored of the run, meminfo_end
 * against meminfo_start, a name gone as null; they load whole. A base
 * stored in a transaction that rolled back is no later iteration's.
 * Why perf events were absent is stored once.
 */
static void test_monitor_base(void)
{
	struct strbuf err = STRBUF_INIT;
	struct store *st = store_open(":memory:", &err);
	struct monitor_value mem1[] = {
		{"MemTotal", 1000}, {"MemFree", 400}, {"Cached", 50}};
	struct monitor_value mem1e[] = {
		{"MemTotal", 1000}, {"MemFree", 390}, {"Cached", 50}};
	struct monitor_value mem2[] = {
		{"MemTotal", 1000}, {"MemFree", 300}, {"Extra", 7}};
	struct monitor_value mem2e[] = {{"MemTotal", 1000}, {"MemFree", 300}};
	struct monitor_value g1[] = {{"nr_free_pages", 100}, {"nr_mlock", 3}};
	struct monitor_value g2[] = {{"nr_free_pages", 90}};
	struct monitor_value cpu[] = {{"user", 7}};
	struct monitor_value pc[] = {{"task-clock", 5}};
	struct monitor_record a = mon_rec(NULL, 0, cpu, 1, mem1, 3);
	struct monitor_record b = mon_rec(NULL, 0, cpu, 1, mem2, 3);
	struct monitor_record c = mon_rec(NULL, 0, cpu, 1, mem1, 3);
	struct run_full rf = {0};
	struct iteration_rec it;
	int64_t run, run2, ids[3], id = 0;

	if (!st)
		BUG("open: %s", err.buf);
	a.meminfo_end = (struct monitor_values){.v = mem1e, .nr = 3};
	a.has_vmstat_end = true;
	a.vmstat_end = (struct monitor_values){.v = g1, .nr = 2};
	a.has_perf = true;
	a.perf = (struct monitor_values){.v = pc, .nr = 1};
	a.perf_absent = "cycles: no such event";
	b.meminfo_end = (struct monitor_values){.v = mem2e, .nr = 2};
	b.has_vmstat_end = true;
	b.vmstat_end = (struct monitor_values){.v = g2, .nr = 1};
	b.has_perf = true;
	b.perf = a.perf;
	b.perf_absent = "cycles: no such event";
	run = run_add(st, "base", "2024-01-01T00:00:00Z", "running");
	it = iter(run, "a", 0, false, "ok", 1.0);
	ids[0] = iter_mon(st, &it, &a);
	it.index = 1;
	ids[1] = iter_mon(st, &it, &b);
	it.index = 2;
	ids[2] = iter_mon(st, &it, &c);
	ok(ids[0] && ids[1] && ids[2] &&
		   query(st, "SELECT count(*) FROM monitor_base") == 1 &&
		   query(st, "SELECT count(*) FROM monitor_base WHERE"
			     " meminfo = '{\"MemTotal\":1000,\"MemFree\":400,"
			     "\"Cached\":50}' AND vmstat_end ="
			     " '{\"nr_free_pages\":100,\"nr_mlock\":3}'") == 1,
	   "the run's first record is its base");
	ok(mon_row(st, ids[0],
		   "m.base = 1 AND m.meminfo_start = '{}'"
		   " AND m.meminfo_end = '{\"MemFree\":390}'"
		   " AND m.vmstat_end = '{}'"),
	   "the first stores what its end changed, nothing else");
	ok(mon_row(st, ids[1],
		   "m.meminfo_start ="
		   " '{\"MemFree\":300,\"Extra\":7,\"Cached\":null}'"
		   " AND m.meminfo_end = '{\"Extra\":null}'"
		   " AND m.vmstat_end ="
		   " '{\"nr_free_pages\":90,\"nr_mlock\":null}'"),
	   "the second what differs from the base, a name gone as null");
	ok(mon_row(st, ids[2],
		   "m.meminfo_start = '{}' AND m.meminfo_end = '{}'"
		   " AND m.vmstat_end IS NULL AND w.vmstat_end IS NULL"),
	   "a record without gauges' levels stores none");
	ok(mon_row(st, ids[1],
		   "w.meminfo_start ="
		   " '{\"MemTotal\":1000,\"MemFree\":300,\"Extra\":7}'"
		   " AND w.meminfo_end = '{\"MemTotal\":1000,\"MemFree\":300}'"
		   " AND w.vmstat_end = '{\"nr_free_pages\":90}'"),
	   "the view iteration_monitor gives them whole");
	ok(query(st, "SELECT count(*) FROM perf_absent") == 1 &&
		   !query(st, "SELECT count(*) FROM perf_record") &&
		   mon_row(st, ids[0],
			   "m.perf = '{\"task-clock\":5}'"
			   " AND pw.counters = m.perf"
			   " AND pw.absent = 'cycles: no such event'") &&
		   mon_row(st, ids[1],
			   "m.perf_absent_id = (SELECT id FROM perf_absent)") &&
		   mon_row(st, ids[2],
			   "m.perf IS NULL AND pw.iteration_id IS NULL"),
	   "the perf counters are in the record's row, why events were"
	   " absent once");
	ok(!store_run_load_full(st, run, NULL, &rf, &err) && rf.iters_nr == 3 &&
		   rf.iters[0].monitor && rf.iters[1].monitor &&
		   rf.iters[2].monitor &&
		   same_values(&rf.iters[0].monitor->meminfo_start, mem1, 3) &&
		   same_values(&rf.iters[0].monitor->meminfo_end, mem1e, 3) &&
		   same_values(&rf.iters[0].monitor->vmstat_end, g1, 2) &&
		   same_values(&rf.iters[1].monitor->meminfo_start, mem2, 3) &&
		   same_values(&rf.iters[1].monitor->meminfo_end, mem2e, 2) &&
		   same_values(&rf.iters[1].monitor->vmstat_end, g2, 1) &&
		   !strcmp(rf.iters[1].monitor->perf_absent,
			   "cycles: no such event") &&
		   same_values(&rf.iters[2].monitor->meminfo_end, mem1, 3) &&
		   !rf.iters[2].monitor->has_vmstat_end,
	   "a run loads its records whole %s", err.buf);
	run_full_release(&rf);

	/* A base whose transaction rolled back is no one's. */
	run2 = run_add(st, "base2", "2024-01-01T00:00:00Z", "running");
	it = iter(run2, "a", 0, false, "ok", 1.0);
	if (store_begin(st, &err) ||
	    store_iteration_add(st, &it, NULL, 0, &id, &err) ||
	    store_monitor_add(st, id, &b, &err))
		diag("%s", err.buf);
	store_rollback(st);
	it.index = 1;
	id = iter_mon(st, &it, &a);
	ok(id &&
		   query(st,
			 "SELECT count(*) FROM iteration i JOIN run r"
			 " ON r.id = i.run_id WHERE r.label = 'base2'") == 1 &&
		   mon_row(st, id, "m.meminfo_start = '{}'") &&
		   !store_run_load_full(st, run2, NULL, &rf, &err) &&
		   rf.iters_nr == 1 &&
		   same_values(&rf.iters[0].monitor->meminfo_start, mem1, 3) &&
		   same_values(&rf.iters[0].monitor->vmstat_end, g1, 2),
	   "after a rollback, the next record is the run's base %s", err.buf);
	run_full_release(&rf);
	/* A row of before 0016, whole, beside the run's base: as it is. */
	it.index = 2;
	id = iter_mon(st, &it, NULL);
	ok(id &&
		   !store_exec(
			   st,
			   "INSERT INTO monitor_record (iteration_id,"
			   " interval_s, vmstat, cpu, meminfo_start,"
			   " meminfo_end, vmstat_end) SELECT max(id), 0, '{}',"
			   " '{}', '{\"MemTotal\":9}', '{\"MemFree\":8}',"
			   " '{\"nr_mlock\":7}' FROM iteration;"
			   " INSERT INTO perf_record (iteration_id, counters,"
			   " absent) SELECT max(id), '{}', 'old reason'"
			   " FROM iteration",
			   &err) &&
		   mon_row(st, id,
			   "w.meminfo_start = '{\"MemTotal\":9}'"
			   " AND w.meminfo_end = '{\"MemFree\":8}'"
			   " AND w.vmstat_end = '{\"nr_mlock\":7}'"
			   " AND pw.absent = 'old reason'"),
	   "an older row, whole, is read as it is %s", err.buf);
	strbuf_reset(&err);
	ok(!store_delete_label(st, "base", &err) &&
		   query(st, "SELECT count(*) FROM monitor_base") == 1,
	   "a run's base goes with it");
	store_close(st);
	strbuf_release(&err);
}

/*
 * Split SQL text into statements with comments dropped and blanks
 * normalised, then sort them, so layout and order do not matter.
 */
static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static size_t sql_statements(const char *sql, char ***out)
{
	struct strbuf cur = STRBUF_INIT;
	char **v = NULL;
	size_t nr = 0, alloc = 0;

	for (const char *p = sql;; p++) {
		if (p[0] == '-' && p[1] == '-') {
			p += strcspn(p, "\n");
			if (!*p)
				p--;
			continue;
		}
		if (*p == ';' || !*p) {
			strbuf_rtrim(&cur);
			if (cur.len) {
				ALLOC_GROW(v, nr + 1, alloc);
				v[nr++] = strbuf_detach(&cur, NULL);
			}
			strbuf_reset(&cur);
			if (!*p)
				break;
			continue;
		}
		if (isspace((unsigned char)*p)) {
			int prev = cur.len ? cur.buf[cur.len - 1] : ' ';

			if (prev != ' ' && prev != '(')
				strbuf_addch(&cur, ' ');
			continue;
		}
		/* ALTER TABLE ADD COLUMN leaves "x ,y" after a comment. */
		if ((*p == ')' || *p == ',') && cur.len &&
		    cur.buf[cur.len - 1] == ' ')
			strbuf_setlen(&cur, cur.len - 1);
		strbuf_addch(&cur, *p);
	}
	strbuf_release(&cur);
	if (nr)
		qsort(v, nr, sizeof(*v), cmp_str);
	*out = v;
	return nr;
}

static void test_schema(void)
{
	struct strbuf err = STRBUF_INIT, got = STRBUF_INIT;
	struct strbuf want = STRBUF_INIT;
	struct store *st = store_open(":memory:", &err);
	char **g = NULL, **w = NULL;
	size_t gn = 0, wn = 0;
	bool same;

	if (!st)
		BUG("open: %s", err.buf);
	ok(!store_schema(st, &got, &err) && got.len, "schema read");
	ok(!strbuf_read_file(&want, "../db/schema.sql", NULL),
	   "db/schema.sql read");
	gn = sql_statements(got.buf, &g);
	wn = sql_statements(want.buf, &w);
	same = gn == wn;
	for (size_t i = 0; i < gn && i < wn; i++) {
		if (!strcmp(g[i], w[i]))
			continue;
		diag("migrations: %s", g[i]);
		diag("schema.sql: %s", w[i]);
		same = false;
	}
	ok(same && gn > 0,
	   "migrations yield db/schema.sql (%zu and %zu statements)", gn, wn);
	for (size_t i = 0; i < gn; i++)
		free(g[i]);
	for (size_t i = 0; i < wn; i++)
		free(w[i]);
	free(g);
	free(w);
	store_close(st);
	strbuf_release(&got);
	strbuf_release(&want);
	strbuf_release(&err);
}

/* A temporary directory with a database path in it; see tmp_db_free(). */
struct tmp_db {
	char *dir;
	struct strbuf path;
};

static void tmp_db_init(struct tmp_db *t)
{
	const char *tmp = getenv("TMPDIR");

	strbuf_init(&t->path, 0);
	strbuf_addf(&t->path, "%s/mmcmp-test-store-XXXXXX",
		    tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(t->path.buf))
		BUG("mkdtemp failed");
	t->dir = xstrdup(t->path.buf);
	strbuf_addstr(&t->path, "/store.db");
}

/* Remove the database, its -wal and -shm and other, then the directory. */
static void tmp_db_free(struct tmp_db *t, const char *other)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < 3; i++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s%s", t->path.buf,
			    (const char *[]){"", "-wal", "-shm"}[i]);
		unlink(sb.buf);
	}
	if (other) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/%s", t->dir, other);
		unlink(sb.buf);
	}
	rmdir(t->dir);
	free(t->dir);
	strbuf_release(&sb);
	strbuf_release(&t->path);
}

/* The bytes of the file at path, for "left untouched" checks. */
static void file_bytes(const char *path, struct strbuf *sb)
{
	FILE *fp = fopen(path, "rb");
	char buf[4096];
	size_t n;

	strbuf_reset(sb);
	if (!fp)
		return;
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		strbuf_add(sb, buf, n);
	fclose(fp);
}

static bool same_bytes(const struct strbuf *a, const struct strbuf *b)
{
	return a->len == b->len && !memcmp(a->buf, b->buf, a->len);
}

/*
 * Issue 18: readers never create a database, and nobody adds mmcmp's
 * tables to another application's SQLite file; an mmcmp database of an
 * older schema (no application_id) still opens and is upgraded.
 */
static void test_open_kinds(void)
{
	struct strbuf err = STRBUF_INIT, before = STRBUF_INIT;
	struct strbuf after = STRBUF_INIT;
	struct tmp_db t;
	struct store *st;

	tmp_db_init(&t);
	st = store_open_read(t.path.buf, &err);
	ok(!st, "a reader of a missing file fails");
	fails(-1, &err, "no database at '", "and says there is none");
	ok(access(t.path.buf, F_OK) && errno == ENOENT, "and creates no file");

	/* Another application's file: mmcmp's tables dropped, one other. */
	st = store_open(t.path.buf, &err);
	if (!st ||
	    store_exec(st,
		       "PRAGMA foreign_keys = OFF;"
		       " DROP TABLE monitor_sample;"
		       " DROP VIEW iteration_monitor; DROP VIEW iteration_perf;"
		       " DROP TABLE monitor_record; DROP TABLE sample;"
		       " DROP TABLE iteration; DROP TABLE operation;"
		       " DROP TABLE run; CREATE TABLE notes (x);"
		       " PRAGMA user_version = 0;"
		       " PRAGMA application_id = 0",
		       &err))
		BUG("cannot make a foreign file: %s", err.buf);
	store_close(st);
	file_bytes(t.path.buf, &before);
	st = store_open_read(t.path.buf, &err);
	ok(!st, "a reader refuses another application's file");
	fails(-1, &err, "is not an mmcmp database", "and names it");
	st = store_open(t.path.buf, &err);
	ok(!st, "a writer refuses it too");
	fails(-1, &err, "is not an mmcmp database", "and names it");
	file_bytes(t.path.buf, &after);
	ok(before.len && same_bytes(&before, &after),
	   "the file is left as it was");
	tmp_db_free(&t, NULL);

	/* An mmcmp database from before 0003. */
	tmp_db_init(&t);
	st = store_open(t.path.buf, &err);
	if (!st ||
	    run_add(st, "old", "2024-01-01T00:00:00Z", "complete") <= 0 ||
	    store_exec(
		    st,
		    "DROP VIEW iteration_monitor; DROP VIEW iteration_perf;"
		    " DROP TABLE perf_record; DROP TABLE perf_absent;"
		    " DROP TABLE monitor_base;"
		    " ALTER TABLE monitor_record DROP COLUMN base;"
		    " ALTER TABLE monitor_record DROP COLUMN perf;"
		    " ALTER TABLE monitor_record DROP COLUMN perf_absent_id;"
		    " ALTER TABLE monitor_record DROP COLUMN perf_scope;"
		    " ALTER TABLE monitor_record RENAME TO iteration_monitor;"
		    " ALTER TABLE run DROP COLUMN setup; DROP TABLE run_setting;"
		    " ALTER TABLE run DROP COLUMN replacing;"
		    " ALTER TABLE iteration_monitor DROP COLUMN other_cpu;"
		    " ALTER TABLE iteration_monitor DROP COLUMN loadavg_start;"
		    " ALTER TABLE iteration_monitor DROP COLUMN loadavg_end;"
		    " ALTER TABLE iteration_monitor DROP COLUMN cgroup;"
		    " ALTER TABLE iteration_monitor DROP COLUMN cgroup_start;"
		    " ALTER TABLE iteration_monitor DROP COLUMN cgroup_end;"
		    " ALTER TABLE iteration_monitor DROP COLUMN vmstat_end;"
		    " ALTER TABLE iteration DROP COLUMN boot; DROP TABLE boot;"
		    " DROP TABLE bisect_machine;"
		    " DROP TABLE bisect_step; DROP TABLE bisect;"
		    " DROP TABLE campaign_boot; DROP TABLE campaign;"
		    " DROP TABLE profile;"
		    " PRAGMA application_id = 0; PRAGMA user_version = 2",
		    &err))
		BUG("cannot make an old database: %s", err.buf);
	store_close(st);
	st = store_open_read(t.path.buf, &err);
	if (!ok(st != NULL, "a reader opens a database of schema 2"))
		diag("%s", err.buf);
	if (st) {
		ok(query(st, "PRAGMA user_version") == SCHEMA_VERSION &&
			   query(st, "PRAGMA application_id") == 0x6d6d6370,
		   "and upgrades it, as it can write");
		ok(query(st, "SELECT count(*) FROM run") == 1,
		   "its run is kept");
	}
	store_close(st);
	tmp_db_free(&t, NULL);

	/* An empty file: a writer makes it a database, a reader refuses. */
	tmp_db_init(&t);
	fclose(fopen(t.path.buf, "w"));
	st = store_open_read(t.path.buf, &err);
	ok(!st, "a reader refuses an empty file");
	fails(-1, &err, "the file is empty", "and says so");
	st = store_open(t.path.buf, &err);
	ok(st && query(st, "PRAGMA user_version") == SCHEMA_VERSION,
	   "a writer makes an empty file a database");
	store_close(st);
	tmp_db_free(&t, NULL);
	strbuf_release(&before);
	strbuf_release(&after);
	strbuf_release(&err);
}

/*
 * Issue 5: a database deleted or replaced while in use fails the next
 * commit, loudly, instead of writing into a file nobody will see.
 */
/*
 * Defect N4: once a store found its database deleted or replaced, its
 * -wal and -shm files are gone from the path, so that a database opened
 * there (want_mine: the one moved in, with its run "mine") is read as it
 * is; the -wal is kept beside it under a name of its own.
 */
static void check_sides_moved(struct tmp_db *t, const char *how,
			      int64_t want_mine)
{
	struct strbuf err = STRBUF_INIT, name = STRBUF_INIT;
	struct store *st;

	strbuf_addf(&name, "%s-wal", t->path.buf);
	ok(access(name.buf, F_OK) && errno == ENOENT, "%s: no -wal at the path",
	   how);
	strbuf_addf(&name, ".stale.%ld", (long)getpid());
	ok(!access(name.buf, F_OK), "%s: it is kept as %s", how, name.buf);
	unlink(name.buf);
	strbuf_reset(&name);
	strbuf_addf(&name, "%s-shm", t->path.buf);
	ok(access(name.buf, F_OK) && errno == ENOENT, "%s: no -shm at the path",
	   how);
	st = store_open(t->path.buf, &err);
	ok(st &&
		   query(st, "SELECT count(*) FROM run WHERE label = 'mine'") ==
			   want_mine &&
		   query(st, "SELECT count(*) FROM run WHERE label = 'x'") == 0,
	   "%s: a database opened at the path has only its own runs", how);
	store_close(st);
	strbuf_release(&name);
	strbuf_release(&err);
}

static void test_identity(void)
{
	static const char *const how[] = {"deleted", "replaced"};
	struct strbuf err = STRBUF_INIT, other = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(how); i++) {
		struct iteration_rec it;
		struct tmp_db t;
		struct store *st;
		int64_t run;

		tmp_db_init(&t);
		st = store_open(t.path.buf, &err);
		run = st ? run_add(st, "x", "2024-01-01T00:00:00Z", "running")
			 : 0;
		if (!run)
			BUG("cannot create a run: %s", err.buf);
		strbuf_reset(&other);
		strbuf_addf(&other, "%s/other", t.dir);
		if (i == 0) {
			unlink(t.path.buf);
		} else {
			/* A database of its own, with one run, moved over it.
			 */
			struct store *o = store_open(other.buf, &err);

			if (!o || !run_add(o, "mine", "2024-01-01T00:00:00Z",
					   "complete"))
				BUG("cannot make another database: %s",
				    err.buf);
			store_close(o);
			if (rename(other.buf, t.path.buf))
				BUG("rename failed");
		}
		it = iter(run, "b", 0, false, "ok", 1.0);
		fails(store_iteration_add(st, &it, NULL, 0, NULL, &err), &err,
		      "was deleted or replaced while mmcmp was using it; its"
		      " -wal file is now '",
		      how[i]);
		fails(store_run_set_status(st, run, "complete", NULL, &err),
		      &err, "was deleted or replaced", "every commit fails");
		ok(!store_begin(st, &err), "a group begins");
		fails(store_commit(st, &err), &err, "was deleted or replaced",
		      "but does not commit");
		store_close(st);
		check_sides_moved(&t, how[i], i == 0 ? 0 : 1);
		tmp_db_free(&t, NULL);
	}
	strbuf_release(&other);
	strbuf_release(&err);
}

/*
 * A child process holding the write lock of path for hold_ms: returns
 * once the lock is taken. Wait for it with waitpid().
 */
static pid_t hold_lock(const char *path, int hold_ms)
{
	int fd[2];
	char c;
	pid_t pid;

	if (pipe(fd))
		BUG("pipe failed");
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		BUG("fork failed");
	if (!pid) {
		struct strbuf err = STRBUF_INIT;
		struct store *st = store_open(path, &err);

		if (!st || store_begin(st, &err))
			_exit(1);
		if (write(fd[1], "x", 1) != 1)
			_exit(1);
		usleep((useconds_t)hold_ms * 1000);
		store_rollback(st);
		store_close(st);
		_exit(0);
	}
	close(fd[1]);
	if (read(fd[0], &c, 1) != 1)
		BUG("the lock holder failed");
	close(fd[0]);
	return pid;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Issue 4: readers do not wait for a writer (they took the write lock at
 * open), and a writer that cannot get the lock retries an iteration and
 * keeps it when it cannot.
 */
static void test_busy(void)
{
	struct strbuf err = STRBUF_INIT;
	struct run_rows rows = {0};
	struct iteration_rec it;
	struct tmp_db t;
	struct store *st, *rd;
	int64_t run, dead, op = 0;
	struct sample_rec s;
	double t0;
	pid_t holder;
	char host[256] = "";

	tmp_db_init(&t);
	gethostname(host, sizeof(host) - 1);
	st = store_open(t.path.buf, &err);
	run = st ? run_add(st, "x", "2024-01-01T00:00:00Z", "running") : 0;
	if (!run ||
	    store_operation(st, run, "b", "op", "s", false, 2, &op, &err))
		BUG("cannot create a run: %s", err.buf);
	dead = run_with_pid(st, "dead", host, dead_pid(), 1);

	/* A writer holds the lock: a reader opens and reads at once. */
	holder = hold_lock(t.path.buf, 2000);
	t0 = now_s();
	rd = store_open_read(t.path.buf, &err);
	if (!ok(rd != NULL, "a reader opens while a writer holds the lock"))
		diag("%s", err.buf);
	ok(rd && !store_list_runs(rd, &rows, &err) && rows.nr == 2,
	   "and lists the runs");
	ok(now_s() - t0 < 1.5, "without waiting for the writer (%.2f s)",
	   now_s() - t0);
	is_str(rows.nr == 2 && rows.v[1].id == dead ? rows.v[1].status : NULL,
	       "aborted",
	       "a run of a dead process it cannot mark shows as aborted");
	run_rows_release(&rows);
	store_close(rd);
	waitpid(holder, NULL, 0);
	rd = store_open_read(t.path.buf, &err);
	ok(rd && query(rd,
		       "SELECT count(*) FROM run WHERE status = 'aborted'") ==
			   1,
	   "once the lock is free, a reader marks it");
	store_close(rd);

	/* A lock held longer than one busy timeout, shorter than six. */
	if (store_set_busy_timeout(st, 100, &err))
		BUG("%s", err.buf);
	s.op_id = op;
	s.value = 1.5;
	it = iter(run, "b", 0, false, "ok", 1.0);
	holder = hold_lock(t.path.buf, 300);
	ok(!store_iteration_add(st, &it, &s, 1, NULL, &err),
	   "an iteration waits out a lock held for 3 busy timeouts");
	if (err.len)
		diag("%s", err.buf);
	strbuf_reset(&err);
	waitpid(holder, NULL, 0);

	/* Held for longer: the call fails, says so, and can be repeated. */
	it.index = 1;
	holder = hold_lock(t.path.buf, 1500);
	fails(store_iteration_add(st, &it, &s, 1, NULL, &err), &err, "locked",
	      "a lock held past 6 busy timeouts fails the iteration");
	ok(store_busy(st), "store_busy() says why");
	waitpid(holder, NULL, 0);
	ok(!store_iteration_add(st, &it, &s, 1, NULL, &err) && !store_busy(st),
	   "the same iteration is stored once the lock is free");
	ok(query(st, "SELECT count(*) FROM iteration") == 2 &&
		   query(st, "SELECT count(*) FROM sample") == 2,
	   "each iteration once, with its sample");
	store_close(st);
	tmp_db_free(&t, NULL);
	strbuf_release(&err);
}

/*
 * Issue 3: the label check and the run's creation are one transaction,
 * so two processes (two handles here) creating a new label cannot both
 * succeed.
 */
static void test_exclusive(void)
{
	struct strbuf err = STRBUF_INIT;
	struct run_info ri;
	struct tmp_db t;
	struct store *a, *b;
	int64_t *ids = NULL;
	size_t nr = 1;

	tmp_db_init(&t);
	a = store_open(t.path.buf, &err);
	b = store_open(t.path.buf, &err);
	if (!a || !b)
		BUG("open: %s", err.buf);
	/* Both check first, as `mmcmp run` does; the label is new. */
	ok(!store_find_runs(a, "new", &ids, &nr, &err) && !nr,
	   "a finds no run of the label");
	free(ids);
	run_init(&ri, "new", "2024-01-01T00:00:00Z", "running");
	ok(!store_run_create_exclusive(b, &ri, &err), "b creates the label");
	run_info_release(&ri);
	run_init(&ri, "new", "2024-01-01T00:00:00Z", "running");
	fails(store_run_create_exclusive(a, &ri, &err), &err,
	      "label 'new' already has results in '", "a cannot");
	ok(!store_begin(a, &err), "in a group");
	fails(store_run_create_exclusive(a, &ri, &err), &err,
	      "already has results", "a cannot either");
	store_rollback(a);
	ok(!store_run_create(a, &ri, &err), "appending is still possible");
	run_info_release(&ri);
	ok(query(a, "SELECT count(*) FROM run WHERE label = 'new'") == 2,
	   "two runs, no more");
	store_close(a);
	store_close(b);
	tmp_db_free(&t, NULL);
	strbuf_release(&err);
}

/* One case of store_delete_older_runs(): the kept run and the others. */
struct replace_case {
	const char *what;
	const char *kept_status;
	const char *kept_iter; /* status of its measured iteration, or NULL */
	bool warmup_only;      /* the iteration is a warm-up */
	bool other_alive;      /* another run of the label is running */
	const char *want;      /* error, or NULL for success */
};

/* Issues 1 and 2: --replace deletes only finished runs, for a good run. */
static void test_replace(void)
{
	static const struct replace_case cases[] = {
		{"complete with a measured iteration", "complete", "ok", false,
		 false, NULL},
		{"every iteration failed", "complete", "exit", false, false,
		 "has no successful measured iteration; the older runs are "
		 "kept"},
		{"no iteration at all", "complete", NULL, false, false,
		 "has no successful measured iteration"},
		{"only a warm-up succeeded", "complete", "ok", true, false,
		 "has no successful measured iteration"},
		{"the new run failed", "failed", "ok", false, false,
		 "is failed, not complete"},
		{"another run of the label is alive", "complete", "ok", false,
		 true, "is still running (pid "},
	};
	struct strbuf err = STRBUF_INIT;
	char host[256] = "";

	gethostname(host, sizeof(host) - 1);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct replace_case *c = &cases[i];
		struct store *st = store_open(":memory:", &err);
		int64_t old, dead, alive = 0, keep, left;
		struct iteration_rec it;
		int ret;

		old = run_add(st, "x", "2024-01-01T00:00:00Z", "complete");
		dead = run_with_pid(st, "x", host, dead_pid(), 1);
		if (c->other_alive)
			alive = run_with_pid(st, "x", host, getpid(),
					     machine_proc_start(getpid()));
		keep = run_add(st, "x", "2024-02-01T00:00:00Z", c->kept_status);
		run_add(st, "y", "2024-01-01T00:00:00Z", "complete");
		it = iter(keep, "b", 0, c->warmup_only,
			  c->kept_iter ? c->kept_iter : "ok", 1);
		if (c->kept_iter &&
		    store_iteration_add(st, &it, NULL, 0, NULL, &err))
			BUG("%s", err.buf);
		{
			const int64_t older[] = {old, dead, alive};

			ret = store_delete_older_runs(st, "x", keep, older,
						      alive ? 3 : 2, &err);
		}
		left = query(st, "SELECT count(*) FROM run WHERE label = 'x'");
		if (!c->want) {
			ok(!ret && left == 1 && old && dead,
			   "replace, %s: older runs deleted, a dead running one"
			   " too",
			   c->what);
		} else {
			fails(ret, &err, c->want, c->what);
			ok(left == (alive ? 4 : 3), "%s: nothing deleted",
			   c->what);
		}
		ok(query(st, "SELECT count(*) FROM run WHERE label = 'y'") == 1,
		   "%s: other labels untouched", c->what);
		store_close(st);
	}
	strbuf_release(&err);
}

/*
 * Defect N3: while a --replace run of x is alive, neither an imported run
 * nor a relabelled one joins x; one that joins once it is complete is not
 * deleted by it, as it was not there when the replacement started.
 */
static void test_replace_joined(void)
{
	struct strbuf err = STRBUF_INIT;
	struct store *st = store_open(":memory:", &err);
	struct run_info ri;
	struct iteration_rec it;
	int64_t old, keep, moved_id;
	char host[256] = "";
	char *status;

	if (!st)
		BUG("open: %s", err.buf);
	gethostname(host, sizeof(host) - 1);
	old = run_add(st, "x", "2024-01-01T00:00:00Z", "complete");
	moved_id = run_add(st, "y", "2024-01-02T00:00:00Z", "complete");
	run_init(&ri, "x", "2024-02-01T00:00:00Z", "running");
	free(ri.machine.hostname);
	ri.machine.hostname = xstrdup(host);
	ri.pid = getpid();
	ri.pid_start = machine_proc_start(getpid());
	ri.replacing = true;
	if (store_run_create(st, &ri, &err))
		BUG("%s", err.buf);
	keep = ri.id;
	run_info_release(&ri);
	run_init(&ri, "x", "2024-01-03T00:00:00Z", "complete");
	fails(store_run_create(st, &ri, &err), &err,
	      "cannot add a run to 'x': run ",
	      "an imported run does not join a label being replaced");
	run_info_release(&ri);
	fails(store_relabel(st, "y", "x", 0, true, NULL, &err), &err,
	      "is replacing its runs (pid ",
	      "relabel --append does not move runs into a label being"
	      " replaced");
	ok(query(st, "SELECT count(*) FROM run WHERE label = 'x'") == 2,
	   "nothing joined x");
	it = iter(keep, "b", 0, false, "ok", 1);
	if (store_iteration_add(st, &it, NULL, 0, NULL, &err) ||
	    store_run_set_status(st, keep, "complete", NULL, &err))
		BUG("%s", err.buf);
	/* Complete now, before it deletes: a relabel may come in between. */
	ok(!store_relabel(st, "y", "x", 0, true, NULL, &err),
	   "once the replacing run is complete, relabel --append works");
	ok(!store_delete_older_runs(st, "x", keep, &old, 1, &err),
	   "the replacement deletes");
	status = run_status(st, moved_id);
	ok(status && !strcmp(status, "complete") &&
		   query(st, "SELECT count(*) FROM run WHERE label = 'x'") ==
			   2 &&
		   query(st, "SELECT count(*) FROM run WHERE label = 'y'") == 0,
	   "only the run that was there when it started is deleted");
	free(status);
	store_close(st);
	strbuf_release(&err);
}

/* One call of store_delete_run/label() or store_relabel() on fixture(). */
struct house_case {
	const char *what;
	int (*call)(struct store *st, const int64_t *ids, struct strbuf *err);
	const char *want;   /* error, or NULL */
	const char *labels; /* the labels of runs 1..4 afterwards, or "-" */
};

/* Runs 1, 2: "a"; 3: "b"; 4: "c", alive (this process). */
static void fixture(struct store *st, int64_t *ids)
{
	char host[256] = "";

	gethostname(host, sizeof(host) - 1);
	ids[0] = run_add(st, "a", "2024-01-01T00:00:00Z", "complete");
	ids[1] = run_add(st, "a", "2024-01-02T00:00:00Z", "complete");
	ids[2] = run_add(st, "b", "2024-01-01T00:00:00Z", "aborted");
	ids[3] = run_with_pid(st, "c", host, getpid(),
			      machine_proc_start(getpid()));
}

static int del_label_a(struct store *st, const int64_t *ids, struct strbuf *err)
{
	(void)ids;
	return store_delete_label(st, "a", err);
}

static int del_label_c(struct store *st, const int64_t *ids, struct strbuf *err)
{
	(void)ids;
	return store_delete_label(st, "c", err);
}

static int del_run_2(struct store *st, const int64_t *ids, struct strbuf *err)
{
	return store_delete_run(st, ids[1], err);
}

static int del_run_4(struct store *st, const int64_t *ids, struct strbuf *err)
{
	return store_delete_run(st, ids[3], err);
}

static int del_run_99(struct store *st, const int64_t *ids, struct strbuf *err)
{
	(void)ids;
	return store_delete_run(st, 99, err);
}

static int relabel_a_d(struct store *st, const int64_t *ids, struct strbuf *err)
{
	size_t moved = 0;

	(void)ids;
	if (store_relabel(st, "a", "d", 0, false, &moved, err))
		return -1;
	return moved == 2 ? 0 : error_addf(err, "moved %zu", moved);
}

static int relabel_run_2(struct store *st, const int64_t *ids,
			 struct strbuf *err)
{
	size_t moved = 0;

	if (store_relabel(st, "a", "d", ids[1], false, &moved, err))
		return -1;
	return moved == 1 ? 0 : error_addf(err, "moved %zu", moved);
}

static int relabel_a_b(struct store *st, const int64_t *ids, struct strbuf *err)
{
	(void)ids;
	return store_relabel(st, "a", "b", 0, false, NULL, err);
}

static int relabel_a_b_append(struct store *st, const int64_t *ids,
			      struct strbuf *err)
{
	(void)ids;
	return store_relabel(st, "a", "b", 0, true, NULL, err);
}

static int relabel_c(struct store *st, const int64_t *ids, struct strbuf *err)
{
	(void)ids;
	return store_relabel(st, "c", "d", 0, false, NULL, err);
}

static int relabel_wrong_run(struct store *st, const int64_t *ids,
			     struct strbuf *err)
{
	return store_relabel(st, "a", "d", ids[2], false, NULL, err);
}

static int relabel_none(struct store *st, const int64_t *ids,
			struct strbuf *err)
{
	(void)ids;
	return store_relabel(st, "zz", "d", 0, false, NULL, err);
}

static int relabel_same(struct store *st, const int64_t *ids,
			struct strbuf *err)
{
	(void)ids;
	return store_relabel(st, "a", "a", 0, false, NULL, err);
}

/* Start a live run of label, replacing or not, as `mmcmp run` does. */
static int start_run(struct store *st, const char *label, bool replacing,
		     struct strbuf *err)
{
	char host[256] = "";
	struct run_info ri;
	int ret;

	gethostname(host, sizeof(host) - 1);
	run_init(&ri, label, "2024-01-03T00:00:00Z", "running");
	free(ri.machine.hostname);
	ri.machine.hostname = xstrdup(host);
	ri.pid = getpid();
	ri.pid_start = machine_proc_start(getpid());
	ri.replacing = replacing;
	ret = store_run_create(st, &ri, err);
	run_info_release(&ri);
	return ret;
}

static int replace_a(struct store *st, const int64_t *ids, struct strbuf *err)
{
	(void)ids;
	return start_run(st, "a", true, err);
}

static int replace_c(struct store *st, const int64_t *ids, struct strbuf *err)
{
	(void)ids;
	return start_run(st, "c", true, err);
}

static int append_c(struct store *st, const int64_t *ids, struct strbuf *err)
{
	(void)ids;
	return start_run(st, "c", false, err);
}

/* Run 4 (label c) becomes a replacing run, then another run of c starts. */
static int append_replaced_c(struct store *st, const int64_t *ids,
			     struct strbuf *err)
{
	(void)ids;
	if (store_exec(st, "UPDATE run SET replacing = 1 WHERE id = 4", err))
		return -1;
	return start_run(st, "c", false, err);
}

/*
 * Issue 19: delete and relabel, transactional, refusing a live run; a
 * replacing run and another run of its label never live together.
 */
static void test_housekeeping(void)
{
	static const struct house_case cases[] = {
		{"delete label a", del_label_a, NULL, "- - b c"},
		{"delete label c, alive", del_label_c, "is still running",
		 "a a b c"},
		{"delete run 2", del_run_2, NULL, "a - b c"},
		{"delete run 4, alive", del_run_4,
		 "cannot delete it: run 4 is"
		 " still running",
		 "a a b c"},
		{"delete run 99", del_run_99, "no run 99", "a a b c"},
		{"relabel a d", relabel_a_d, NULL, "d d b c"},
		{"relabel --run 2 a d", relabel_run_2, NULL, "a d b c"},
		{"relabel a b", relabel_a_b, "label 'b' already has results",
		 "a a b c"},
		{"relabel --append a b", relabel_a_b_append, NULL, "b b b c"},
		{"relabel c d, alive", relabel_c, "is still running",
		 "a a b c"},
		{"relabel --run 3 a d", relabel_wrong_run,
		 "label 'a' has no run 3", "a a b c"},
		{"relabel zz d", relabel_none, "no runs with label 'zz'",
		 "a a b c"},
		{"relabel a a", relabel_same, "the new label is the old one",
		 "a a b c"},
		{"replace a", replace_a, NULL, "a a b c"},
		{"replace c, alive", replace_c,
		 "cannot replace the runs of 'c': run 4 is still running",
		 "a a b c"},
		{"append to c, alive", append_c, NULL, "a a b c"},
		{"append to c, alive and replacing", append_replaced_c,
		 "cannot add a run to 'c': run 4 is replacing its runs",
		 "a a b c"},
	};
	struct strbuf err = STRBUF_INIT, got = STRBUF_INIT;
	struct store *st = store_open(":memory:", &err);
	int64_t ids[4], found = -1, none = -1, except = -1;

	fixture(st, ids);
	ok(!store_find_running(st, "c", 0, &found, &err) &&
		   !store_find_running(st, "a", 0, &none, &err) &&
		   !store_find_running(st, "c", ids[3], &except, &err) &&
		   found == ids[3] && !none && !except,
	   "store_find_running() finds the live run, unless excepted");
	store_close(st);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct house_case *c = &cases[i];
		int ret;

		st = store_open(":memory:", &err);
		fixture(st, ids);
		ret = c->call(st, ids, &err);
		if (c->want)
			fails(ret, &err, c->want, c->what);
		else if (!ok(!ret, "%s", c->what))
			diag("%s", err.buf);
		strbuf_reset(&err);
		strbuf_reset(&got);
		for (int64_t id = 1; id <= 4; id++) {
			struct run_info ri;

			strbuf_addstr(&got, id > 1 ? " " : "");
			if (store_run_get(st, id, &ri, NULL))
				strbuf_addch(&got, '-');
			else
				strbuf_addstr(&got, ri.label);
			run_info_release(&ri);
		}
		is_str(got.buf, c->labels, "%s: the runs afterwards", c->what);
		store_close(st);
	}
	strbuf_release(&got);
	strbuf_release(&err);
}

/* Defect N18: a URI has no meaning as a database path, for either side. */
static void test_uri(void)
{
	static const char *const uris[] = {"file::memory:", "file:x.db",
					   "file:x.db?vfs=unix-none"};
	struct strbuf err = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(uris); i++) {
		ok(!store_open(uris[i], &err), "writer: %s refused", uris[i]);
		fails(-1, &err, "a URI, not a file path", uris[i]);
		ok(!store_open_read(uris[i], &err), "reader: %s refused",
		   uris[i]);
		fails(-1, &err, "a URI, not a file path", uris[i]);
	}
	ok(!store_is_uri("./file:x.db") && !store_is_uri(":memory:") &&
		   !store_is_uri("FILE:x.db"),
	   "./file:, :memory: and FILE: are not URIs to SQLite");
	strbuf_release(&err);
}

int main(void)
{
	test_uuid();
	test_runs();
	test_find_order();
	test_atomic();
	test_file();
	test_monitors();
	test_monitor_base();
	test_schema();
	test_open_kinds();
	test_identity();
	test_busy();
	test_exclusive();
	test_replace();
	test_replace_joined();
	test_uri();
	test_housekeeping();
	done_testing();
	return exit_status();
}
