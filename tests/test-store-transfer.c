/*
 * Unit tests for store-transfer.c in ":memory:": a run inserted in full
 * loads back identical (with sample counts around the multi-row INSERT
 * size), the benchmark filter, uuid lookups, and the refusals: a stored
 * uuid, an operation given twice, a NaN sample, a sample whose operation
 * is of another benchmark. Also what store_load_run() makes of such a
 * run, so export and compare agree on the samples.
 */
#include <math.h>
#include <stdlib.h>

#include "tap.h"
#include "run-data.h"
#include "store.h"
#include "strbuf.h"
#include "util.h"

static void add_op(struct run_full *rf, const char *bench, const char *name)
{
	struct op_samples *op;

	ALLOC_GROW(rf->ops, rf->ops_nr + 1, rf->ops_alloc);
	op = &rf->ops[rf->ops_nr++];
	memset(op, 0, sizeof(*op));
	op->benchmark = xstrdup(bench);
	op->name = xstrdup(name);
	op->unit = xstrdup("ops/s");
	op->higher_better = rf->ops_nr % 2;
	op->decimals = (int)rf->ops_nr;
}

/* An iteration of bench with n samples cycling over ops[first..last]. */
static void add_iter(struct run_full *rf, const char *bench, bool warmup,
		     size_t n, size_t first, size_t last)
{
	struct iteration_data *it;

	ALLOC_GROW(rf->iters, rf->iters_nr + 1, rf->iters_alloc);
	it = &rf->iters[rf->iters_nr++];
	memset(it, 0, sizeof(*it));
	it->benchmark = xstrdup(bench);
	it->job = xstrdup("");
	it->build = rf->iters_nr % 2 ? xstrdup("b1") : NULL;
	it->index = (int64_t)rf->iters_nr;
	it->warmup = warmup;
	it->status = xstrdup(rf->iters_nr == 3 ? "signal" : "ok");
	it->term_signal = rf->iters_nr == 3 ? 9 : 0;
	it->exit_code = -1;
	it->started_at = xstrdup("2024-01-01T00:00:00Z");
	it->elapsed_s = 1.0 / 7.0;
	it->user_s = 0.5;
	it->sys_s = 0.25;
	it->maxrss_kb = 1 << 20;
	it->stderr_tail = rf->iters_nr == 3 ? xstrdup("killed\n") : NULL;
	it->samples_first = rf->samples_nr;
	it->samples_nr = n;
	for (size_t i = 0; i < n; i++) {
		ALLOC_GROW(rf->samples, rf->samples_nr + 1, rf->samples_alloc);
		rf->samples[rf->samples_nr].op = first + i % (last - first + 1);
		rf->samples[rf->samples_nr++].value = (double)i / 3.0 - 7;
	}
}

/* A monitor record for the last iteration of rf; with_samples adds two. */
static void add_monitor(struct run_full *rf, bool with_samples)
{
	struct iteration_monitor *m = xcalloc(1, sizeof(*m));

	monitor_counts_add(&m->vmstat, "pgfault", 100 + (int64_t)rf->iters_nr);
	monitor_counts_add(&m->vmstat, "nr_free_pages", -3);
	monitor_counts_add(&m->vmstat, "wrapped", INT64_MAX);
	if (with_samples) {
		monitor_counts_add(&m->cpu, "user", 7);
		monitor_counts_add(&m->cpu, "idle", 0);
		monitor_counts_add(&m->meminfo_start, "MemFree", 1000);
		monitor_counts_add(&m->meminfo_end, "MemFree", 900);
		m->interval_s = 0.25;
		m->samples = xcalloc(2, sizeof(*m->samples));
		m->samples_nr = m->samples_alloc = 2;
		m->samples[0].t_s = 0.25;
		monitor_counts_add(&m->samples[0].vmstat, "pgfault", 60);
		monitor_counts_add(&m->samples[0].meminfo, "MemFree", 950);
		m->samples[1].t_s = 0.5;
		monitor_counts_add(&m->samples[1].cpu, "user", 3);
	}
	rf->iters[rf->iters_nr - 1].monitor = m;
}

static void make_run(struct run_full *rf, const char *uuid, const char *label)
{
	memset(rf, 0, sizeof(*rf));
	rf->info.uuid = xstrdup(uuid);
	rf->info.label = xstrdup(label);
	rf->info.status = xstrdup("complete");
	rf->info.started_at = xstrdup("2024-01-01T00:00:00Z");
	rf->info.machine.hostname = xstrdup("h");
	rf->info.machine.nr_cpus = 4;
	add_op(rf, "a", "x");
	add_op(rf, "a", "y");
	add_op(rf, "b", "z");
	add_iter(rf, "a", true, 3, 0, 1);
	/* 0, 1, 63, 64, 65 and 129 samples: around the INSERT batches. */
	add_iter(rf, "a", false, 0, 0, 1);
	add_iter(rf, "a", false, 1, 0, 0);
	add_monitor(rf, false);
	add_iter(rf, "b", false, 63, 2, 2);
	add_monitor(rf, false);
	add_iter(rf, "a", false, 64, 0, 1);
	add_monitor(rf, true);
	add_iter(rf, "a", false, 65, 1, 1);
	add_iter(rf, "b", false, 129, 2, 2);
}

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static bool same_counts(const struct monitor_counts *a,
			const struct monitor_counts *b)
{
	bool same = a->nr == b->nr;

	for (size_t i = 0; same && i < a->nr; i++)
		same = same_str(a->v[i].name, b->v[i].name) &&
		       a->v[i].value == b->v[i].value;
	return same;
}

static bool same_monitor(const struct iteration_monitor *a,
			 const struct iteration_monitor *b)
{
	bool same;

	if (!a || !b)
		return !a && !b;
	same = a->interval_s == b->interval_s &&
	       same_counts(&a->vmstat, &b->vmstat) &&
	       same_counts(&a->cpu, &b->cpu) &&
	       same_counts(&a->meminfo_start, &b->meminfo_start) &&
	       same_counts(&a->meminfo_end, &b->meminfo_end) &&
	       a->samples_nr == b->samples_nr;
	for (size_t i = 0; same && i < a->samples_nr; i++)
		same = a->samples[i].t_s == b->samples[i].t_s &&
		       same_counts(&a->samples[i].vmstat,
				   &b->samples[i].vmstat) &&
		       same_counts(&a->samples[i].cpu, &b->samples[i].cpu) &&
		       same_counts(&a->samples[i].meminfo,
				   &b->samples[i].meminfo);
	return same;
}

/* Whether b holds what a holds, for the benchmark (or all). */
static bool same_run(const struct run_full *a, const struct run_full *b,
		     const char *bench)
{
	size_t bi = 0, bs = 0;
	size_t *map = xcalloc(a->ops_nr + 1, sizeof(*map));
	bool same =
		same_str(a->info.uuid, b->info.uuid) &&
		same_str(a->info.label, b->info.label) &&
		same_str(a->info.machine.hostname, b->info.machine.hostname) &&
		a->info.machine.nr_cpus == b->info.machine.nr_cpus;

	for (size_t i = 0, k = 0; same && i < a->ops_nr; i++) {
		const struct op_samples *x = &a->ops[i];

		if (bench && strcmp(x->benchmark, bench) != 0)
			continue;
		map[i] = k;
		same = k < b->ops_nr && same_str(x->name, b->ops[k].name) &&
		       same_str(x->unit, b->ops[k].unit) &&
		       x->higher_better == b->ops[k].higher_better &&
		       x->decimals == b->ops[k].decimals;
		k++;
	}
	for (size_t i = 0; same && i < a->iters_nr; i++) {
		const struct iteration_data *x = &a->iters[i], *y;

		if (bench && strcmp(x->benchmark, bench) != 0)
			continue;
		if (bi >= b->iters_nr) {
			same = false;
			break;
		}
		y = &b->iters[bi++];
		same = same_str(x->benchmark, y->benchmark) &&
		       same_str(x->job, y->job) &&
		       same_str(x->build, y->build) && x->index == y->index &&
		       x->warmup == y->warmup &&
		       same_str(x->status, y->status) &&
		       x->exit_code == y->exit_code &&
		       x->term_signal == y->term_signal &&
		       x->elapsed_s == y->elapsed_s && x->user_s == y->user_s &&
		       x->sys_s == y->sys_s && x->maxrss_kb == y->maxrss_kb &&
		       same_str(x->stderr_tail, y->stderr_tail) &&
		       same_str(x->started_at, y->started_at) &&
		       x->samples_nr == y->samples_nr &&
		       same_monitor(x->monitor, y->monitor);
		for (size_t k = 0; same && k < x->samples_nr; k++) {
			const struct sample_data *s =
				&a->samples[x->samples_first + k];
			const struct sample_data *t =
				&b->samples[y->samples_first + k];

			same = map[s->op] == t->op && s->value == t->value;
			bs++;
		}
	}
	same = same && bi == b->iters_nr && bs == b->samples_nr;
	free(map);
	return same;
}

static void test_round_trip(struct store *st)
{
	struct strbuf err = STRBUF_INIT;
	struct run_full rf, back = {0}, some = {0};
	struct run_data rd = {0};
	bool exists = true;
	size_t measured = 0;

	make_run(&rf, "00000000-0000-4000-8000-000000000001", "L");
	ok(!store_uuid_exists(st, rf.info.uuid, &exists, &err) && !exists,
	   "a new uuid is not stored");
	ok(!store_run_insert_full(st, &rf, &err) && rf.info.id > 0,
	   "insert a run in full");
	if (err.len)
		diag("%s", err.buf);
	ok(!store_uuid_exists(st, rf.info.uuid, &exists, &err) && exists,
	   "then its uuid is stored");
	ok(!store_run_load_full(st, rf.info.id, NULL, &back, &err),
	   "load it in full");
	ok(same_run(&rf, &back, NULL), "everything loads back as inserted");
	ok(!store_run_load_full(st, rf.info.id, "b", &some, &err),
	   "load one benchmark");
	ok(same_run(&rf, &some, "b") && some.ops_nr == 1 && some.iters_nr == 2,
	   "only that benchmark's operations, iterations and samples");
	ok(!store_load_run(st, rf.info.id, NULL, &rd, &err) && rd.ops_nr == 3,
	   "store_load_run() reads the run too");
	for (size_t i = 0; i < rd.ops_nr; i++)
		measured += rd.ops[i].nr;
	ok(measured == rf.samples_nr - 3,
	   "compare sees the measured samples, warm-up left out");
	ok(rd.monitors_nr == 2 && !strcmp(rd.monitors[0].benchmark, "b") &&
		   rd.monitors[0].iterations == 1 &&
		   rd.monitors[0].counters_nr == 3 &&
		   rd.monitors[0].counters[0].v[0] == 104 &&
		   rd.monitors[1].iterations == 1,
	   "its Ops tables see the monitor records of measured iterations "
	   "that succeeded");
	run_data_release(&rd);
	run_full_release(&back);
	run_full_release(&some);

	strbuf_reset(&err);
	ok(store_run_insert_full(st, &rf, &err) == -1,
	   "a stored uuid cannot be inserted again");
	diag("%s", err.buf);
	run_full_release(&rf);
	strbuf_release(&err);
}

static void test_refusals(struct store *st)
{
	struct strbuf err = STRBUF_INIT;
	struct run_full rf;
	int64_t runs = -1, after = -1;

	store_query_int64(st, "SELECT count(*) FROM run", &runs, &err);
	make_run(&rf, "00000000-0000-4000-8000-000000000002", "M");
	free(rf.ops[1].name);
	rf.ops[1].name = xstrdup("x");
	ok(store_run_insert_full(st, &rf, &err) == -1 &&
		   strstr(err.buf, "cannot create operation 'x' of 'a'"),
	   "an operation given twice is refused");
	diag("%s", err.buf);
	run_full_release(&rf);

	strbuf_reset(&err);
	make_run(&rf, "00000000-0000-4000-8000-000000000003", "M");
	rf.samples[rf.samples_nr - 1].value = NAN;
	ok(store_run_insert_full(st, &rf, &err) == -1 &&
		   strstr(err.buf, "not a number"),
	   "a NaN sample is refused");
	run_full_release(&rf);
	store_query_int64(st, "SELECT count(*) FROM run", &after, &err);
	ok(runs == after, "a refused run leaves nothing behind");

	/* A sample of an operation of another benchmark: not exportable. */
	strbuf_reset(&err);
	make_run(&rf, "00000000-0000-4000-8000-000000000004", "N");
	rf.samples[rf.iters[2].samples_first].op = 2;
	ok(!store_run_insert_full(st, &rf, &err), "the store takes it");
	run_full_release(&rf);
	{
		struct run_full back = {0};

		ok(store_run_load_full(st, after + 1, NULL, &back, &err) ==
				   -1 &&
			   strstr(err.buf, "operation of another benchmark"),
		   "loading it in full says why it cannot be exported");
		diag("%s", err.buf);
		run_full_release(&back);
	}
	strbuf_release(&err);
}

int main(void)
{
	struct strbuf err = STRBUF_INIT;
	struct store *st = store_open(":memory:", &err);

	if (!ok(st != NULL, "open :memory:")) {
		diag("%s", err.buf);
		return exit_status();
	}
	test_round_trip(st);
	test_refusals(st);
	store_close(st);
	strbuf_release(&err);
	done_testing();
	return exit_status();
}
