/*
 * Unit tests for monitor-perf: event names (table-driven), and, where
 * perf_event_open works, that the counters opened before a fork count
 * the child from its exec on and nothing of a child that never execs.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "monitor.h"
#include "monitor-perf.h"
#include "run-data.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"

static const struct {
	const char *name;
	bool known;
	const char *unit;
	double scale;
} name_cases[] = {
	{"default", true, "", 1.0},
	{"task-clock", true, "ms", 1e-6},
	{"page-faults", true, "", 1.0},
	{"context-switches", true, "", 1.0},
	{"major-faults", true, "", 1.0},
	{"cycles", true, "", 1.0},
	{"dTLB-load-misses", true, "", 1.0},
	{"page-fualts", false, "", 1.0},
	{"", false, "", 1.0},
	{"Task-clock", false, "", 1.0},
};

static void test_names(void)
{
	for (size_t i = 0; i < sizeof(name_cases) / sizeof(name_cases[0]);
	     i++) {
		ok(monitor_perf_known(name_cases[i].name) ==
			   name_cases[i].known,
		   "known, case %zu '%s'", i, name_cases[i].name);
		is_str(monitor_perf_unit(name_cases[i].name),
		       name_cases[i].unit, "unit, case %zu", i);
		ok_near(monitor_perf_scale(name_cases[i].name),
			name_cases[i].scale, 0, "scale, case %zu", i);
	}
}

static void test_new(void)
{
	struct strbuf err = STRBUF_INIT;
	struct strvec names = STRVEC_INIT;
	struct monitor_perf *mp;

	strvec_push(&names, "page-faults");
	strvec_push(&names, "bogus");
	mp = monitor_perf_new(&names, &err);
	ok(!mp && strstr(err.buf, "unknown perf event 'bogus' (known: "),
	   "an unknown event is refused: %s", err.buf);
	mp = monitor_perf_new(NULL, &err);
	ok(mp != NULL, "no names: the default set");
	monitor_perf_free(mp);
	monitor_perf_free(NULL);
	strvec_clear(&names);
	strbuf_release(&err);
}

/* Two iterations of counters; the derived rows expected of them. */
static const struct {
	double instructions[2], cycles[2], cache_misses[2];
	bool has_cycles;
	double ipc[2], cache_mpki[2]; /* NaN: undefined */
} derive_cases[] = {
	{{200, 300}, {100, 150}, {2, 3}, true, {2, 2}, {10, 10}},
	{{200, 300}, {100, 0}, {0, 6}, true, {2, NAN}, {0, 20}},
	{{200, 300}, {0, 0}, {1, 1}, false, {0, 0}, {5, 1000.0 / 300}},
};

static bool same(double got, double want)
{
	return isnan(want) ? isnan(got) : fabs(got - want) < 1e-12;
}

static void test_derive(void)
{
	for (size_t i = 0; i < sizeof(derive_cases) / sizeof(derive_cases[0]);
	     i++) {
		struct monitor_table mt = {0};
		const struct monitor_counter *ipc, *mpki;

		mt.benchmark = xstrdup("b");
		for (size_t k = 0; k < 2; k++) {
			monitor_table_add_iteration(&mt, 1.0);
			monitor_table_set(&mt, "instructions",
					  derive_cases[i].instructions[k]);
			if (derive_cases[i].has_cycles)
				monitor_table_set(&mt, "cycles",
						  derive_cases[i].cycles[k]);
			monitor_table_set(&mt, "cache-misses",
					  derive_cases[i].cache_misses[k]);
		}
		monitor_perf_derive(&mt);
		ipc = monitor_table_get(&mt, "IPC");
		mpki = monitor_table_get(&mt, "cache-MPKI");
		if (derive_cases[i].has_cycles)
			ok(ipc && ipc->nr == 2 &&
				   same(ipc->v[0], derive_cases[i].ipc[0]) &&
				   same(ipc->v[1], derive_cases[i].ipc[1]),
			   "IPC, case %zu", i);
		else
			ok(!ipc, "no cycles, no IPC, case %zu", i);
		ok(mpki && same(mpki->v[0], derive_cases[i].cache_mpki[0]) &&
			   same(mpki->v[1], derive_cases[i].cache_mpki[1]),
		   "cache-MPKI, case %zu", i);
		ok(!monitor_table_get(&mt, "dTLB-MPKI"),
		   "no dTLB misses, no dTLB-MPKI, case %zu", i);
		monitor_table_release(&mt);
	}
	ok(monitor_perf_higher_better("IPC") &&
		   !monitor_perf_higher_better("page-faults"),
	   "IPC alone is higher-better");
}

/*
 * Fork a child that execs sh (exec true) or, without exec, touches 8 MiB
 * and exits; then read the counters into out. -1: the fork failed.
 */
static int child_counts(struct monitor_perf *mp, bool exec, int64_t *faults,
			struct strbuf *err)
{
	struct monitor_values out = MONITOR_VALUES_INIT;
	int status = 0, ret = -1;
	pid_t pid;

	if (monitor_perf_begin(mp, 0, err))
		return -1;
	/* No TAP line buffered twice: valgrind's child flushes at its exit. */
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		goto out;
	if (!pid) {
		char *p;

		if (exec)
			execl("/bin/sh", "sh", "-c", "exit 0", (char *)NULL);
		p = mmap(NULL, 8 << 20, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		for (size_t i = 0; p != MAP_FAILED && i < (8 << 20); i += 4096)
			p[i] = 1;
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		goto out;
	if (!monitor_perf_end(mp, &out, err) &&
	    monitor_values_get(&out, "page-faults", faults))
		ret = 0;
out:
	monitor_perf_cancel(mp);
	monitor_values_release(&out);
	return ret;
}

static void test_scope(void)
{
	struct strbuf err = STRBUF_INIT;
	struct strvec names = STRVEC_INIT;
	struct monitor_perf *mp;
	int64_t with_exec = -1, without = -1;
	int r1, r2;

	strvec_push(&names, "page-faults");
	strvec_push(&names, "task-clock");
	mp = monitor_perf_new(&names, &err);
	if (monitor_perf_begin(mp, 0, &err)) {
		ok(strstr(err.buf, "perf: no event could be opened: "),
		   "# SKIP perf_event_open fails here: %s", err.buf);
		goto out;
	}
	ok(!monitor_perf_absent(mp), "software events are all there");
	r1 = child_counts(mp, true, &with_exec, &err);
	r2 = child_counts(mp, false, &without, &err);
	ok(!r1 && with_exec > 0,
	   "a child that execs is counted (%lld page faults)",
	   (long long)with_exec);
	ok(!r2 && without == 0,
	   "a child that never execs is not (%lld page faults)",
	   (long long)without);
out:
	if (err.len)
		diag("%s", err.buf);
	monitor_perf_free(mp);
	strvec_clear(&names);
	strbuf_release(&err);
}

int main(void)
{
	test_names();
	test_new();
	test_derive();
	test_scope();
	done_testing();
	return exit_status();
}
