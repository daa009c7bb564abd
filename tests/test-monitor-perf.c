/*
 * Unit tests for monitor-perf: event names (table-driven), the stall
 * sums of synthetic perf records (table-driven), and, where
 * perf_event_open works, that the counters opened before a fork count
 * the child from its exec on and nothing of a child that never execs;
 * where a cgroup of our own can be made (root, cgroup v2), that counting
 * it gives each iteration what its processes in the cgroup did, and
 * nothing of a process outside.
 */
#include <fcntl.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "cgroup.h"
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
	{"memcg-reclaim-stall", true, "ms", 1e-6},
	{"compaction-stall", true, "ms", 1e-6},
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

/* A synthetic record: a sample of event id, or a PERF_RECORD_LOST. */
struct rec {
	uint64_t id; /* 0: a PERF_RECORD_LOST of time_ns records */
	uint32_t tid;
	uint64_t time_ns;
};

/* The ids of the sampled events, two CPUs each. */
enum {
	DR_B0 = 11,
	DR_B1,
	DR_E0,
	DR_E1, /* direct reclaim begin/end */
	MC_B0 = 21,
	MC_B1,
	MC_E0,
	MC_E1, /* memcg reclaim */
	CO_B0 = 31,
	CO_B1,
	CO_E0,
	CO_E1,	    /* compaction */
	OTHER = 99, /* an event of no stall */
};

#define RECS_MAX 12
#define END_NS	 1000

static const struct {
	const char *what;
	struct rec recs[RECS_MAX]; /* up to the first {0, 0, 0} */
	uint64_t counted[MONITOR_PERF_STALLS_NR][2];
	/* ns summed; -1: not summed, the "-lost" row has lost[k]. */
	int64_t sum_ns[MONITOR_PERF_STALLS_NR];
	int64_t lost[MONITOR_PERF_STALLS_NR];
	bool note;
} stall_cases[] = {
	{"one stall",
	 {{MC_B0, 7, 100}, {MC_E0, 7, 350}},
	 {{0, 0}, {1, 1}, {0, 0}},
	 {0, 250, 0},
	 {0},
	 false},
	{"begun and ended on different CPUs, records out of order",
	 {{MC_E1, 7, 350}, {MC_B0, 7, 100}},
	 {{0, 0}, {1, 1}, {0, 0}},
	 {0, 250, 0},
	 {0},
	 false},
	{"an end without a begin is left out",
	 {{DR_E0, 5, 50}, {DR_B0, 5, 100}, {DR_E1, 5, 160}},
	 {{1, 2}, {0, 0}, {0, 0}},
	 {60, 0, 0},
	 {0},
	 false},
	{"a begin without an end is closed at the iteration's end",
	 {{CO_B0, 5, 100}, {CO_E0, 5, 200}, {CO_B1, 5, 900}},
	 {{0, 0}, {0, 0}, {2, 1}},
	 {0, 0, 200},
	 {0},
	 false},
	{"interleaved tasks, each its own pair",
	 {{MC_B0, 1, 100},
	  {MC_B1, 2, 150},
	  {MC_E0, 1, 200},
	  {MC_B0, 1, 300},
	  {MC_E1, 2, 400},
	  {MC_E0, 1, 310}},
	 {{0, 0}, {3, 3}, {0, 0}},
	 {0, 100 + 250 + 10, 0},
	 {0},
	 false},
	{"nested begins of one task: the outermost pair",
	 {{DR_B0, 3, 100}, {DR_B0, 3, 150}, {DR_E0, 3, 200}, {DR_E1, 3, 300}},
	 {{2, 2}, {0, 0}, {0, 0}},
	 {200, 0, 0},
	 {0},
	 false},
	{"compaction inside direct reclaim: two stalls",
	 {{DR_B0, 3, 100},
	  {CO_B0, 3, 120},
	  {CO_E0, 3, 170},
	  {DR_E0, 3, 400},
	  {OTHER, 3, 500}},
	 {{1, 1}, {0, 0}, {1, 1}},
	 {300, 0, 50},
	 {0},
	 false},
	{"equal times keep their arrival order",
	 {{MC_B0, 4, 100}, {MC_E0, 4, 100}, {MC_B0, 4, 100}, {MC_E0, 4, 130}},
	 {{0, 0}, {2, 2}, {0, 0}},
	 {0, 30, 0},
	 {0},
	 false},
	{"lost records: not summed, the lost row and a note",
	 {{MC_B0, 4, 100},
	  {0, 0, 3},
	  {MC_E0, 4, 300},
	  {DR_B0, 4, 400},
	  {DR_E0, 4, 410}},
	 {{1, 1}, {2, 2}, {0, 0}},
	 {10, -1, 0},
	 {0, 2, 0},
	 true},
	{"fewer samples than events and no lost record",
	 {{CO_B0, 4, 100}, {CO_E0, 4, 300}},
	 {{0, 0}, {0, 0}, {2, 2}},
	 {0, 0, -1},
	 {0, 0, 2},
	 true},
};

/* Append rec r to buf as the kernel writes it. */
static void put_rec(struct strbuf *buf, const struct rec *r)
{
	struct perf_event_header h = {0, 0, 0};
	uint64_t body[3];
	uint32_t pid_tid[2] = {r->tid, r->tid};

	h.type = r->id ? PERF_RECORD_SAMPLE : PERF_RECORD_LOST;
	h.size = sizeof(h) + sizeof(body);
	strbuf_add(buf, &h, sizeof(h));
	if (!r->id) {
		body[0] = MC_B0;
		body[1] = r->time_ns;
		strbuf_add(buf, body, 2 * sizeof(*body));
		strbuf_addstr(buf, "padpadpa"); /* h.size counts 24 bytes */
		return;
	}
	body[0] = r->id;
	memcpy(&body[1], pid_tid, sizeof(pid_tid));
	body[2] = r->time_ns;
	strbuf_add(buf, body, sizeof(body));
}

static const char *const stall_names[] = {
	"direct-reclaim-stall", "memcg-reclaim-stall", "compaction-stall"};
static const char *const lost_names[] = {"direct-reclaim-stall-lost",
					 "memcg-reclaim-stall-lost",
					 "compaction-stall-lost"};

static void test_stalls(void)
{
	struct monitor_perf_stalls st;
	struct monitor_values out = MONITOR_VALUES_INIT;
	struct strbuf note = STRBUF_INIT, buf = STRBUF_INIT;
	static const uint64_t ids[] = {DR_B0, DR_B1, DR_E0, DR_E1,
				       MC_B0, MC_B1, MC_E0, MC_E1,
				       CO_B0, CO_B1, CO_E0, CO_E1};

	memset(&st, 0, sizeof(st));
	for (size_t k = 0; k < sizeof(ids) / sizeof(ids[0]); k++) {
		ALLOC_GROW(st.ids, st.ids_nr + 1, st.ids_alloc);
		st.ids[st.ids_nr].id = ids[k];
		st.ids[st.ids_nr].stall = (enum monitor_perf_stall)(k / 4);
		st.ids[st.ids_nr++].begin = k % 4 < 2;
	}
	for (int k = 0; k < MONITOR_PERF_STALLS_NR; k++)
		st.active[k] = true;
	for (size_t i = 0; i < sizeof(stall_cases) / sizeof(stall_cases[0]);
	     i++) {
		size_t off = 0;

		strbuf_reset(&buf);
		strbuf_reset(&note);
		out.nr = 0;
		for (size_t r = 0;
		     r < RECS_MAX && (stall_cases[i].recs[r].id ||
				      stall_cases[i].recs[r].time_ns);
		     r++)
			put_rec(&buf, &stall_cases[i].recs[r]);
		/* Fed one record at a time, as a ring gives them. */
		while (off < buf.len) {
			struct perf_event_header h;

			memcpy(&h, buf.buf + off, sizeof(h));
			monitor_perf_stalls_record(
				&st, (const unsigned char *)buf.buf + off,
				h.size);
			off += h.size;
		}
		monitor_perf_stalls_sum(&st, stall_cases[i].counted, END_NS,
					&out, &note);
		for (int k = 0; k < MONITOR_PERF_STALLS_NR; k++) {
			int64_t got = -1, lost = 0;
			bool has =
				monitor_values_get(&out, stall_names[k], &got);

			monitor_values_get(&out, lost_names[k], &lost);
			if (stall_cases[i].sum_ns[k] < 0)
				ok(!has && lost == stall_cases[i].lost[k],
				   "%s: %s not summed, %lld lost",
				   stall_cases[i].what, stall_names[k],
				   (long long)lost);
			else
				ok(has && got == stall_cases[i].sum_ns[k] &&
					   !lost,
				   "%s: %s %lld ns", stall_cases[i].what,
				   stall_names[k], (long long)got);
		}
		ok(stall_cases[i].note
			   ? strstr(note.buf, "not summed where the "
					      "ring buffer lost") != NULL
			   : !note.len,
		   "%s: note '%s'", stall_cases[i].what, note.buf);
		ok(st.nr == 0, "%s: the marks are emptied",
		   stall_cases[i].what);
	}
	/* A short or foreign record is skipped. */
	strbuf_reset(&buf);
	put_rec(&buf, &(struct rec){MC_B0, 1, 5});
	monitor_perf_stalls_record(&st, (const unsigned char *)buf.buf, 20);
	monitor_perf_stalls_record(&st, (const unsigned char *)buf.buf, 4);
	ok(st.nr == 0, "truncated samples are skipped");
	monitor_perf_stalls_release(&st);
	monitor_values_release(&out);
	strbuf_release(&note);
	strbuf_release(&buf);
}

/* A stall row with a "-lost" row is NaN where records were lost. */
static void test_derive_lost(void)
{
	struct monitor_table mt = {0};
	const struct monitor_counter *c;

	mt.benchmark = xstrdup("b");
	monitor_table_add_iteration(&mt, 1.0);
	monitor_table_set(&mt, "memcg-reclaim-stall", 5e6);
	monitor_table_add_iteration(&mt, 1.0);
	monitor_table_set(&mt, "memcg-reclaim-stall-lost", 3);
	monitor_table_add_iteration(&mt, 1.0);
	monitor_table_set(&mt, "memcg-reclaim-stall", 7e6);
	monitor_perf_derive(&mt);
	c = monitor_table_get(&mt, "memcg-reclaim-stall");
	ok(c && c->nr == 3 && c->v[0] == 5e6 && isnan(c->v[1]) &&
		   c->v[2] == 7e6,
	   "the stall of the iteration that lost records is NaN");
	monitor_table_release(&mt);
	memset(&mt, 0, sizeof(mt));
	mt.benchmark = xstrdup("b");
	monitor_table_add_iteration(&mt, 1.0);
	monitor_table_set(&mt, "compaction-stall-lost", 1);
	monitor_perf_derive(&mt);
	c = monitor_table_get(&mt, "compaction-stall");
	ok(c && c->nr == 1 && isnan(c->v[0]),
	   "a stall that lost records in every iteration is NaN");
	monitor_table_release(&mt);
	ok(!strcmp(monitor_perf_unit("memcg-reclaim-stall"), "ms") &&
		   monitor_perf_scale("memcg-reclaim-stall") == 1e-6 &&
		   !strcmp(monitor_perf_unit("memcg-reclaim-stall-lost"), "") &&
		   !monitor_perf_higher_better("compaction-stall"),
	   "stall rows are ms, lower is better; the lost rows counts");
}

/*
 * Between a begin and an end of mp, fork a child that enters the cgroup
 * of procs (NULL: none), then execs sh (exec true) or, without exec,
 * touches mb MiB and exits; its page faults into *faults. -1 on failure.
 */
static int child_counts(struct monitor_perf *mp, const char *procs, bool exec,
			int mb, int64_t *faults, struct strbuf *err)
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
		int fd = procs ? open(procs, O_WRONLY) : -1;
		size_t len = (size_t)mb << 20;
		char *p;

		if (procs && (fd < 0 || write(fd, "0", 1) != 1))
			_exit(1);
		if (exec)
			execl("/bin/sh", "sh", "-c", "exit 0", (char *)NULL);
		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		for (size_t i = 0; p != MAP_FAILED && i < len; i += 4096)
			p[i] = 1;
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || status)
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
	r1 = child_counts(mp, NULL, true, 8, &with_exec, &err);
	r2 = child_counts(mp, NULL, false, 8, &without, &err);
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

static void test_cgroup_scope(void)
{
	struct strbuf err = STRBUF_INIT;
	struct strvec names = STRVEC_INIT;
	struct cgroup *cg = cgroup_create_own("mmcmp-test-perf", &err);
	struct monitor_perf *mp = NULL;
	int64_t in8 = -1, out8 = -1, in4 = -1, again8 = -1;
	int fd = -1, r;

	if (!cg) {
		ok(true, "# SKIP no cgroup of our own here: %s", err.buf);
		goto out;
	}
	fd = open(cgroup_where(cg), O_RDONLY | O_DIRECTORY);
	strvec_push(&names, "page-faults");
	strvec_push(&names, "task-clock");
	mp = monitor_perf_new(&names, &err);
	monitor_perf_set_cgroup(mp, fd);
	if (monitor_perf_begin(mp, 0, &err) ||
	    !monitor_perf_counts_cgroup(mp)) {
		ok(true, "# SKIP the cgroup cannot be counted here: %s",
		   err.buf);
		goto out;
	}
	monitor_perf_cancel(mp);
	/* Each call before its ok(): the message reads what it set. */
	r = child_counts(mp, cgroup_procs(cg)[0], false, 8, &in8, &err);
	ok(!r && in8 >= 2048,
	   "a child in the cgroup: its 8 MiB counted (%lld page faults)",
	   (long long)in8);
	r = child_counts(mp, NULL, false, 8, &out8, &err);
	ok(!r && out8 == 0, "a child outside it: nothing (%lld page faults)",
	   (long long)out8);
	r = child_counts(mp, cgroup_procs(cg)[0], false, 4, &in4, &err);
	ok(!r && in4 >= 1024 && in4 < in8,
	   "an iteration gets what it counted, not a sum (%lld)",
	   (long long)in4);
	r = child_counts(mp, cgroup_procs(cg)[0], false, 8, &again8, &err);
	ok(!r && again8 >= 2048 && again8 < 2 * in8,
	   "the counters stay open from one iteration to the next (%lld)",
	   (long long)again8);
	ok(monitor_perf_counts_cgroup(mp), "still counting the cgroup");
out:
	if (err.len)
		diag("%s", err.buf);
	monitor_perf_free(mp);
	if (fd >= 0)
		close(fd);
	ok(!cgroup_remove(cg, &err), "the cgroup goes");
	strvec_clear(&names);
	strbuf_release(&err);
}

int main(void)
{
	test_names();
	test_new();
	test_derive();
	test_stalls();
	test_derive_lost();
	test_scope();
	test_cgroup_scope();
	done_testing();
	return exit_status();
}
