/*
 * run-floor: what `mmcmp run` does for each iteration besides starting
 * and waiting for the command, timed alone with mmcmp's own code: the
 * monitors' two snapshots (monitor_begin() and monitor_end() with
 * nothing between: /proc/vmstat, /proc/stat, /proc/meminfo and
 * /proc/loadavg read and parsed twice), then the iteration stored with
 * that record and one sample in a transaction of its own, as a run
 * stores it. Neither can be left out of an iteration with the default
 * monitors: bench/run-overhead sets their sum beside hyperfine's run.
 * Usage: run-floor DB [ITERATIONS]; DB must not exist.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "monitor.h"
#include "parse-num.h"
#include "run-data.h"
#include "store.h"
#include "strbuf.h"
#include "util.h"

static double clock_us(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int floor_run(const char *path, int64_t n, struct strbuf *err)
{
	struct store *st = store_open(path, err);
	struct monitor mon;
	struct run_info ri = {
		.uuid = (char *)"00000000-0000-4000-8000-000000000003",
		.label = (char *)"floor",
		.status = (char *)"running",
		.started_at = (char *)"2024-01-01T00:00:00Z",
	};
	struct iteration_rec it = {
		.benchmark = "floor",
		.job = "",
		.status = "ok",
		.started_at = "2024-01-01T00:00:00Z",
	};
	struct sample_rec s = {0, 1.0};
	double snap = 0, snap_cpu = 0, keep = 0, keep_cpu = 0;
	int ret = -1;

	monitor_init(&mon, 0);
	if (!st || store_run_create(st, &ri, err) ||
	    store_operation(st, ri.id, "floor", "op", "s", false, 2, &s.op_id,
			    err))
		goto out;
	it.run_id = ri.id;
	for (int64_t i = 0; i < n; i++) {
		double w0 = clock_us(CLOCK_MONOTONIC);
		double c0 = clock_us(CLOCK_PROCESS_CPUTIME_ID);
		double w1, c1;
		int64_t id;

		if (monitor_begin(&mon, err) || monitor_end(&mon, err))
			goto out;
		monitor_set_workload(&mon, 0.0, 0.0, 0.001);
		w1 = clock_us(CLOCK_MONOTONIC);
		c1 = clock_us(CLOCK_PROCESS_CPUTIME_ID);
		snap += w1 - w0;
		snap_cpu += c1 - c0;
		it.index = i;
		if (store_begin(st, err) ||
		    store_iteration_add(st, &it, &s, 1, &id, err) ||
		    store_monitor_add(st, id, &mon.rec, err) ||
		    store_commit(st, err))
			goto out;
		keep += clock_us(CLOCK_MONOTONIC) - w1;
		keep_cpu += clock_us(CLOCK_PROCESS_CPUTIME_ID) - c1;
	}
	printf("snapshots: %.1f us per iteration (cpu %.1f)\n",
	       snap / (double)n, snap_cpu / (double)n);
	printf("store:     %.1f us per iteration (cpu %.1f)\n",
	       keep / (double)n, keep_cpu / (double)n);
	printf("both:      %.1f us per iteration\n", (snap + keep) / (double)n);
	ret = 0;
out:
	monitor_release(&mon);
	store_close(st);
	return ret;
}

int main(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT;
	int64_t n = 2000;

	if (argc < 2 || argc > 3 ||
	    (argc == 3 && !parse_int64(argv[2], 1, INT64_MAX, &n))) {
		fprintf(stderr, "usage: run-floor DB [ITERATIONS]\n");
		return 2;
	}
	if (floor_run(argv[1], n, &err)) {
		fprintf(stderr, "run-floor: %s\n", err.buf);
		strbuf_release(&err);
		return 1;
	}
	strbuf_release(&err);
	return 0;
}
