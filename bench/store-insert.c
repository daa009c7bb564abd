/*
 * store-insert: time the store with many samples: insert them in one
 * transaction (as CSV import does), load them (as compare does), list
 * the runs, store iterations one commit each (as a run does) and delete.
 * Usage: store-insert DB [SAMPLES]; DB must not exist.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "parse-num.h"
#include "run-data.h"
#include "store.h"
#include "strbuf.h"
#include "util.h"

#define OPS	      20
#define PER_ITERATION 1000

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Wall and CPU time at the start of the step being timed. */
static double wall0, cpu0;

static void start(void)
{
	wall0 = clock_s(CLOCK_MONOTONIC);
	cpu0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

/* Print "what: wall s (cpu s)"; the CPU time is steadier on a busy box. */
static void stop(const char *what)
{
	printf("%-44s %7.3f s (cpu %.3f s)\n", what,
	       clock_s(CLOCK_MONOTONIC) - wall0,
	       clock_s(CLOCK_PROCESS_CPUTIME_ID) - cpu0);
}

static int64_t make_run(struct store *st, const char *label, const char *uuid,
			int64_t *ops, struct strbuf *err)
{
	struct run_info ri = {
		.uuid = (char *)uuid,
		.label = (char *)label,
		.status = (char *)"complete",
		.started_at = (char *)"2024-01-01T00:00:00Z",
	};

	if (store_run_create(st, &ri, err))
		return 0;
	for (int i = 0; i < OPS; i++) {
		char name[32];

		snprintf(name, sizeof(name), "op%02d", i);
		if (store_operation(st, ri.id,
				    i < OPS / 2 ? "bench-a" : "bench-b", name,
				    "ops/s", true, 2, &ops[i], err))
			return 0;
	}
	return ri.id;
}

/* Store n samples of run in iterations of PER_ITERATION samples. */
static int add_samples(struct store *st, int64_t run, const int64_t *ops,
		       int64_t n, struct strbuf *err)
{
	struct sample_rec *s = xcalloc(PER_ITERATION, sizeof(*s));
	struct iteration_rec it = {
		.run_id = run,
		.job = "",
		.status = "ok",
		.started_at = "2024-01-01T00:00:00Z",
	};
	int ret = 0;

	for (int64_t done = 0, idx = 0; !ret && done < n; idx++) {
		size_t nr = 0;

		/* One benchmark per iteration, all of its ops each time. */
		int first = idx % 2 ? OPS / 2 : 0;

		it.benchmark = first ? "bench-b" : "bench-a";
		it.index = idx / 2;
		it.user_s = 1;
		for (; nr < PER_ITERATION && done < n; nr++, done++) {
			s[nr].op_id = ops[first + (int)(nr % (OPS / 2))];
			s[nr].value = (double)(done % 9973);
		}
		ret = store_iteration_add(st, &it, s, nr, NULL, err);
	}
	free(s);
	return ret;
}

static int bench(const char *path, int64_t n, struct strbuf *err)
{
	struct store *st = store_open(path, err);
	struct run_data rd = {0};
	struct run_rows rows = {0};
	int64_t ops[OPS], run, loaded = 0;
	char what[128];

	if (!st)
		return -1;
	run = make_run(st, "import", "00000000-0000-4000-8000-000000000001",
		       ops, err);
	if (!run)
		goto fail;

	start();
	if (store_begin(st, err) || add_samples(st, run, ops, n, err) ||
	    store_commit(st, err))
		goto fail;
	snprintf(what, sizeof(what),
		 "insert %" PRId64 " samples, one transaction:", n);
	stop(what);

	start();
	if (store_load_run(st, run, NULL, &rd, err))
		goto fail;
	for (size_t i = 0; i < rd.ops_nr; i++)
		loaded += (int64_t)rd.ops[i].nr;
	snprintf(what, sizeof(what), "load %" PRId64 " samples:", loaded);
	stop(what);
	run_data_release(&rd);

	start();
	if (store_load_run(st, run, "bench-b", &rd, err))
		goto fail;
	stop("load one benchmark of two:");
	run_data_release(&rd);

	start();
	if (store_list_runs(st, &rows, err))
		goto fail;
	stop("list runs:");
	run_rows_release(&rows);

	run = make_run(st, "run", "00000000-0000-4000-8000-000000000002", ops,
		       err);
	if (!run)
		goto fail;
	start();
	if (add_samples(st, run, ops, n / 10, err))
		goto fail;
	snprintf(what, sizeof(what),
		 "insert %" PRId64 " samples, %d per commit:", n / 10,
		 PER_ITERATION);
	stop(what);

	start();
	if (store_delete_label(st, "import", err))
		goto fail;
	snprintf(what, sizeof(what), "delete the %" PRId64 "-sample run:", n);
	stop(what);
	store_close(st);
	return 0;
fail:
	store_close(st);
	return -1;
}

int main(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT;
	int64_t n = 1000000;
	int ret;

	if (argc < 2 || argc > 3 ||
	    (argc == 3 && !parse_int64(argv[2], 1, INT64_MAX, &n))) {
		fprintf(stderr, "usage: store-insert DB [SAMPLES]\n");
		return 2;
	}
	ret = bench(argv[1], n, &err);
	if (ret)
		fprintf(stderr, "store-insert: error: %s\n", err.buf);
	strbuf_release(&err);
	return ret ? 1 : 0;
}
