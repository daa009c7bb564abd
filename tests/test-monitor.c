/*
 * Unit tests for monitor: parsing /proc/vmstat, /proc/meminfo and
 * /proc/stat from fixtures (tests/data/proc, taken from a 6.18 kernel,
 * and hand-made bad ones), deltas, and a begin/tick/end cycle on this
 * machine's /proc when it can be read.
 */
#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "test-files.h"
#include "monitor.h"
#include "strbuf.h"

#define PROC "data/proc/"

static const struct {
	const char *file;
	enum monitor_source source;
	size_t nr;	  /* values parsed; 0: must fail */
	const char *name; /* a value to look up, or the error text */
	int64_t value;
} parse_cases[] = {
	{PROC "vmstat", MONITOR_VMSTAT, 192, "pgfault", 157923759},
	{PROC "vmstat", MONITOR_VMSTAT, 192, "nr_free_pages", 1194266},
	{PROC "vmstat-after", MONITOR_VMSTAT, 192, "pgmajfault", 4037},
	{PROC "meminfo", MONITOR_MEMINFO, 54, "MemTotal", 24684092},
	{PROC "meminfo", MONITOR_MEMINFO, 54, "HugePages_Total", 0},
	{PROC "meminfo", MONITOR_MEMINFO, 54, "Active(anon)", 1680},
	{PROC "stat", MONITOR_CPU, 10, "user", 361718},
	{PROC "stat", MONITOR_CPU, 10, "steal", 7852},
	{PROC "stat", MONITOR_CPU, 10, "guest_nice", 0},
	{PROC "stat-old", MONITOR_CPU, 8, "steal", 8},
	{PROC "vmstat-bad", MONITOR_VMSTAT, 0,
	 PROC "vmstat-bad:2: expected 'name value'", 0},
	{PROC "meminfo-bad", MONITOR_MEMINFO, 0,
	 PROC "meminfo-bad:1: unknown unit 'MB' of 'MemTotal'", 0},
	{PROC "stat-nocpu", MONITOR_CPU, 0, PROC "stat-nocpu: no 'cpu' line",
	 0},
	{PROC "no-such-file", MONITOR_VMSTAT, 0,
	 "cannot open '" PROC "no-such-file': No such file or directory", 0},
};

static void test_parse_files(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(parse_cases); i++) {
		struct monitor_snapshot snap = MONITOR_SNAPSHOT_INIT;
		struct strbuf err = STRBUF_INIT;
		int64_t v = -1;
		int r = monitor_read(&snap, parse_cases[i].source,
				     parse_cases[i].file, &err);

		if (!parse_cases[i].nr) {
			ok(r == -1 && !snap.values.nr, "case %zu: %s fails", i,
			   parse_cases[i].file);
			is_str(err.buf, parse_cases[i].name,
			       "case %zu: message", i);
		} else {
			if (r)
				diag("%s", err.buf);
			ok(!r && snap.values.nr == parse_cases[i].nr,
			   "case %zu: %s gives %zu values (%zu)", i,
			   parse_cases[i].file, parse_cases[i].nr,
			   snap.values.nr);
			ok(monitor_values_get(&snap.values, parse_cases[i].name,
					      &v) &&
				   v == parse_cases[i].value,
			   "case %zu: %s = %" PRId64 " (%" PRId64 ")", i,
			   parse_cases[i].name, parse_cases[i].value, v);
		}
		monitor_snapshot_release(&snap);
		strbuf_release(&err);
	}
}

static const struct {
	const char *text;
	enum monitor_source source;
	size_t nr;
	const char *err; /* NULL: parses */
} text_cases[] = {
	{"", MONITOR_VMSTAT, 0, NULL},
	{"a 1\n\nb 2", MONITOR_VMSTAT, 2, NULL},
	{"a 18446744073709551615\n", MONITOR_VMSTAT, 1, NULL},
	{"a 18446744073709551616\n", MONITOR_VMSTAT, 0,
	 "t:1: bad value '18446744073709551616' of 'a'"},
	{"a -1\n", MONITOR_VMSTAT, 0, "t:1: bad value '-1' of 'a'"},
	{"a 1 2\n", MONITOR_VMSTAT, 0, "t:1: bad value '1 2' of 'a'"},
	{" 1\n", MONITOR_VMSTAT, 0, "t:1: expected 'name value'"},
	{"a\0 1\n", MONITOR_VMSTAT, 0, "t: NUL byte in the file"},
	{"X: 5\nY:\t7 kB\n", MONITOR_MEMINFO, 2, NULL},
	{"X 5\n", MONITOR_MEMINFO, 0, "t:1: expected 'Name: value'"},
	{"X: five kB\n", MONITOR_MEMINFO, 0, "t:1: bad value 'five' of 'X'"},
	{"cpu  1 2 3 4 5 6 7 8 9 10 11 12\n", MONITOR_CPU, 10, NULL},
	{"cpu  1 2 x\n", MONITOR_CPU, 0, "t:1: bad value 'x' of 'system'"},
	{"cpu \n", MONITOR_CPU, 0, "t:1: 'cpu' line without times"},
	{"cpu 1\ncpu 2\n", MONITOR_CPU, 0, "t:2: a second 'cpu' line"},
};

static void test_parse_texts(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(text_cases); i++) {
		struct monitor_snapshot snap = MONITOR_SNAPSHOT_INIT;
		struct strbuf err = STRBUF_INIT;
		/* Sizes include a NUL in the middle of one case. */
		size_t len = strlen(text_cases[i].text);
		int r;

		if (strstr(text_cases[i].err ? text_cases[i].err : "", "NUL"))
			len += 1 + strlen(text_cases[i].text + len + 1);
		r = monitor_parse(&snap, text_cases[i].source, "t",
				  text_cases[i].text, len, &err);
		if (text_cases[i].err) {
			ok(r == -1 && !snap.values.nr, "text %zu fails", i);
			is_str(err.buf, text_cases[i].err, "text %zu: message",
			       i);
		} else {
			ok(!r && snap.values.nr == text_cases[i].nr,
			   "text %zu gives %zu values (%zu) %s", i,
			   text_cases[i].nr, snap.values.nr, err.buf);
		}
		monitor_snapshot_release(&snap);
		strbuf_release(&err);
	}
}

static void test_delta(void)
{
	struct monitor_snapshot a = MONITOR_SNAPSHOT_INIT;
	struct monitor_snapshot b = MONITOR_SNAPSHOT_INIT;
	struct monitor_values d = MONITOR_VALUES_INIT;
	struct strbuf err = STRBUF_INIT;
	static const struct {
		const char *name;
		int64_t value;
	} want[] = {
		{"nr_free_pages", -200}, {"pgalloc_normal", 1500},
		{"pgfault", 1000},	 {"pgmajfault", 3},
		{"thp_fault_alloc", 2},
	};
	int64_t v;

	if (monitor_read(&a, MONITOR_VMSTAT, PROC "vmstat", &err) ||
	    monitor_read(&b, MONITOR_VMSTAT, PROC "vmstat-after", &err))
		diag("%s", err.buf);
	monitor_delta(&a, &b, true, &d);
	ok(d.nr == ARRAY_SIZE(want), "non-zero deltas: %zu (%zu)",
	   ARRAY_SIZE(want), d.nr);
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		ok(monitor_values_get(&d, want[i].name, &v) &&
			   v == want[i].value,
		   "delta %s = %" PRId64, want[i].name, want[i].value);
	monitor_delta(&a, &b, false, &d);
	ok(d.nr == 192 && monitor_values_get(&d, "pgpgin", &v) && !v,
	   "all deltas, zeros included");

	/* Wrapped counters, other orders, names only one side has. */
	monitor_parse(&a, MONITOR_VMSTAT, "a", "x 18446744073709551615\ny 5\n",
		      27, &err);
	monitor_parse(&b, MONITOR_VMSTAT, "b", "z 1\ny 9\nx 1\n", 12, &err);
	monitor_delta(&a, &b, true, &d);
	ok(d.nr == 2 && !strcmp(d.v[0].name, "y") && d.v[0].value == 4 &&
		   !strcmp(d.v[1].name, "x") && d.v[1].value == 2,
	   "delta across a wrap and a reordering, new names skipped");
	monitor_snapshot_release(&a);
	monitor_snapshot_release(&b);
	monitor_values_release(&d);
	strbuf_release(&err);
}

/*
 * The busy machine: a /proc/stat "cpu" change (user nice system idle
 * iowait irq softirq steal guest guest_nice, ticks), the workload's
 * user and system seconds, its elapsed seconds, CPUs and USER_HZ, and
 * the share of the machine others used, worked out by hand: busy ticks
 * (user, nice, system, steal) less one per CPU, over USER_HZ, less the
 * workload's time, over CPUs x elapsed.
 */
static const struct {
	int64_t t[10];
	size_t nr; /* fields given */
	double user_s, sys_s, elapsed_s;
	long cpus, hz;
	double want; /* NaN: undefined */
} busy_cases[] = {
	/* Idle machine, the workload alone: 1 s of 2 CPUs x 1 s. */
	{{80, 0, 20, 100, 0, 0, 0, 0, 0, 0}, 10, 0.8, 0.2, 1, 2, 100, 0.0},
	/* A busy loop on one of two CPUs besides it: (202-2)/100-1 = 1. */
	{{180, 0, 22, 0, 0, 0, 0, 0, 0, 0}, 10, 0.8, 0.2, 1, 2, 100, 0.5},
	/* Four CPUs, 2 s, others (504-4)/100-2 = 3 CPU-seconds of 8. */
	{{400, 50, 54, 300, 0, 0, 0, 0, 0, 0}, 10, 1.5, 0.5, 2, 4, 100, 0.375},
	/* iowait is idle; guest time is inside user already: (202-2)/100-1. */
	{{150, 0, 52, 50, 100, 0, 0, 0, 150, 0}, 10, 0.0, 1.0, 1, 2, 100, 0.5},
	/* steal counts as busy: others had the CPU. */
	{{0, 0, 2, 100, 0, 0, 0, 100, 0, 0}, 10, 0.0, 0.0, 1, 2, 100, 0.5},
	/* USER_HZ 250, one CPU, 0.5 s; irq and softirq are no process's. */
	{{50, 0, 26, 0, 0, 25, 25, 0, 0, 0}, 10, 0.1, 0.1, 0.5, 1, 250, 0.2},
	/* A workload that used more than the ticks show reads 0. */
	{{10, 0, 0, 190, 0, 0, 0, 0, 0, 0}, 10, 2.0, 0.0, 1, 2, 100, 0.0},
	/* Capped at the whole machine. */
	{{1000, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 10, 0.0, 0.0, 1, 2, 100, 1.0},
	/* An old kernel's 4 fields. */
	{{52, 0, 50, 100}, 4, 0.0, 0.0, 1, 2, 100, 0.5},
	/* Undefined: no time, no CPUs, no idle field. */
	{{1, 0, 0, 1}, 4, 0.0, 0.0, 0, 2, 100, NAN},
	{{1, 0, 0, 1}, 4, 0.0, 0.0, 1, 0, 100, NAN},
	{{1, 0, 0}, 3, 0.0, 0.0, 1, 2, 100, NAN},
};

static void test_other_cpu(void)
{
	static const char *const fields[] = {
		"user", "nice",	   "system", "idle",  "iowait",
		"irq",	"softirq", "steal",  "guest", "guest_nice",
	};

	for (size_t i = 0; i < ARRAY_SIZE(busy_cases); i++) {
		struct monitor_value v[10];
		struct monitor_values mv = {.v = v, .nr = busy_cases[i].nr};
		double got;

		for (size_t k = 0; k < busy_cases[i].nr; k++) {
			v[k].name = fields[k];
			v[k].value = busy_cases[i].t[k];
		}
		got = monitor_other_cpu(&mv, busy_cases[i].user_s,
					busy_cases[i].sys_s,
					busy_cases[i].elapsed_s,
					busy_cases[i].cpus, busy_cases[i].hz);
		if (isnan(busy_cases[i].want))
			ok(isnan(got), "busy case %zu: undefined (%g)", i, got);
		else
			ok_near(got, busy_cases[i].want, 1e-12,
				"busy case %zu: %g of the machine", i,
				busy_cases[i].want);
	}
}

static const struct {
	const char *text;
	bool good;
	double want;
} loadavg_cases[] = {
	{"0.52 0.58 0.59 1/467 12345\n", true, 0.52},
	{"18.19 16.91 17.90 13/190 23834\n", true, 18.19},
	{"0.00 0.00 0.00 1/1 1\n", true, 0.0},
	{"", false, 0},
	{"x 1 2\n", false, 0},
	{"-1 0 0 1/1 1\n", false, 0},
	{"1.5x 0 0\n", false, 0},
};

static void test_loadavg(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(loadavg_cases); i++) {
		double v = -1;
		bool good = monitor_parse_loadavg(loadavg_cases[i].text, &v);

		ok(good == loadavg_cases[i].good &&
			   (!good || v == loadavg_cases[i].want),
		   "loadavg case %zu: %s %g", i, good ? "parses" : "refused",
		   v);
	}
}

/* A begin, two samples and an end on this machine's /proc. */
static void test_cycle(void)
{
	struct monitor mon;
	struct strbuf err = STRBUF_INIT;
	const struct timespec ms = {0, 2000000};
	volatile char *p;
	int64_t v = -1;
	int r;

	monitor_init(&mon, 0.5);
	if (monitor_begin(&mon, &err)) {
		/* Only where /proc is missing, as in some containers. */
		printf("ok %d - # SKIP /proc cannot be read: %s\n", ++tap_run,
		       err.buf);
		monitor_release(&mon);
		strbuf_release(&err);
		return;
	}
	ok(true, "monitor_begin");
	/* Fault some pages in, so pgfault changes. */
	p = malloc(1 << 22);
	for (size_t i = 0; p && i < (1 << 22); i += 4096)
		p[i] = 1;
	free((void *)p);
	monitor_tick(&mon);
	nanosleep(&ms, NULL);
	monitor_tick(&mon);
	r = monitor_end(&mon, &err);
	ok(!r, "monitor_end %s", err.buf);
	ok(monitor_values_get(&mon.rec.vmstat, "pgfault", &v) && v > 0,
	   "pgfault changed (%" PRId64 ")", v);
	ok(mon.rec.cpu.nr >= 4, "cpu times (%zu)", mon.rec.cpu.nr);
	ok(monitor_values_get(&mon.rec.meminfo_start, "MemTotal", &v) &&
		   v > 0 && mon.rec.meminfo_end.nr,
	   "meminfo at start and end");
	ok(!mon.rec.has_cgroup && !mon.rec.cgroup.nr,
	   "no cgroup: no cgroup counters");
	ok(mon.rec.loadavg_start >= 0 && mon.rec.loadavg_end >= 0,
	   "load averages at start and end (%g, %g)", mon.rec.loadavg_start,
	   mon.rec.loadavg_end);
	ok(isnan(mon.rec.other_cpu), "other_cpu unknown before the workload");
	monitor_set_workload(&mon, 0.001, 0.001, 0.01);
	ok(mon.rec.other_cpu >= 0 && mon.rec.other_cpu <= 1,
	   "other_cpu within 0..1 (%g)", mon.rec.other_cpu);
	ok(mon.rec.samples_nr == 2 && mon.rec.interval_s == 0.5 &&
		   mon.rec.samples[0].t_s <= mon.rec.samples[1].t_s &&
		   mon.rec.samples[1].meminfo.nr && mon.rec.samples[1].cpu.nr,
	   "two periodic samples in time order");
	/* A second iteration starts afresh. */
	ok(!monitor_begin(&mon, &err) && !mon.rec.samples_nr &&
		   !mon.rec.vmstat.nr,
	   "monitor_begin forgets the last record");
	ok(!monitor_end(&mon, &err) && mon.rec.cpu.nr, "second end");
	monitor_release(&mon);
	monitor_init(&mon, 0);
	monitor_tick(&mon);
	ok(!mon.rec.samples_nr, "no interval: monitor_tick does nothing");
	monitor_release(&mon);
	strbuf_release(&err);
}

/*
 * One descriptor read again from its start: a file that shrank, then one
 * that grew past a read chunk (8 KiB), each read whole.
 */
static void test_pread(void)
{
	char path[] = "monitor-pread-XXXXXX";
	struct monitor_snapshot snap = MONITOR_SNAPSHOT_INIT;
	struct strbuf err = STRBUF_INIT, big = STRBUF_INIT;
	int fd = mkstemp(path), rd = open(path, O_RDONLY | O_CLOEXEC);
	int64_t v = -1;

	if (fd < 0 || rd < 0)
		BUG("cannot create %s", path);
	if (write(fd, "a 1\nbb 2\nccc 3\n", 15) != 15)
		BUG("cannot write %s", path);
	ok(!monitor_pread(&snap, MONITOR_VMSTAT, rd, path, &err) &&
		   snap.values.nr == 3,
	   "pread: three values %s", err.buf);
	if (ftruncate(fd, 0) || pwrite(fd, "z 9\n", 4, 0) != 4)
		BUG("cannot rewrite %s", path);
	ok(!monitor_pread(&snap, MONITOR_VMSTAT, rd, path, &err) &&
		   snap.values.nr == 1 &&
		   monitor_values_get(&snap.values, "z", &v) && v == 9,
	   "pread again from the start: the shorter file only");
	for (int i = 0; i < 2000; i++)
		strbuf_addf(&big, "name_%d %d\n", i, i);
	if (pwrite(fd, big.buf, big.len, 0) != (ssize_t)big.len)
		BUG("cannot rewrite %s", path);
	ok(!monitor_pread(&snap, MONITOR_VMSTAT, rd, path, &err) &&
		   snap.values.nr == 2000 &&
		   monitor_values_get(&snap.values, "name_1999", &v) &&
		   v == 1999,
	   "pread of %zu bytes, several chunks: every value", big.len);
	close(fd);
	close(rd);
	unlink(path);
	monitor_snapshot_release(&snap);
	strbuf_release(&big);
	strbuf_release(&err);
}

/* Whether a and b hold the same names and values in the same order. */
static bool same_values(const struct monitor_values *a,
			const struct monitor_values *b)
{
	if (a->nr != b->nr)
		return false;
	for (size_t i = 0; i < a->nr; i++)
		if (strcmp(a->v[i].name, b->v[i].name) ||
		    a->v[i].value != b->v[i].value)
			return false;
	return true;
}

/* snap as "name value" lines, with value + 7 for every third one. */
static void shifted(const struct monitor_snapshot *snap, struct strbuf *sb)
{
	for (size_t i = 0; i < snap->values.nr; i++)
		strbuf_addf(sb, "%s %" PRId64 "\n", snap->values.v[i].name,
			    snap->values.v[i].value + (i % 3 ? 0 : 7));
}

/*
 * A guest's snapshots as monitor_encode() sends them and monitor_merge()
 * makes them again give the record the snapshots themselves give, in a
 * fraction of the bytes.
 */
static void test_encode(void)
{
	static const char *const files[MONITOR_SOURCE_NR] = {
		[MONITOR_VMSTAT] = PROC "vmstat",
		[MONITOR_MEMINFO] = PROC "meminfo",
		[MONITOR_CPU] = PROC "stat",
	};
	struct monitor a, b;
	struct strbuf err = STRBUF_INIT, bt = STRBUF_INIT, at = STRBUF_INIT,
		      sb = STRBUF_INIT;
	size_t whole = 0, sent = 0;
	bool good = true;

	monitor_init(&a, 0);
	monitor_init(&b, 0);
	for (int s = 0; s < MONITOR_SOURCE_NR; s++) {
		enum monitor_source src = (enum monitor_source)s;

		strbuf_reset(&sb);
		good &= !monitor_read(&a.snap[0][s], src, files[s], &err);
		if (src == MONITOR_VMSTAT)
			good &= !monitor_read(&a.snap[1][s], src,
					      PROC "vmstat-after", &err);
		else
			shifted(&a.snap[0][s], &sb);
		if (src != MONITOR_VMSTAT)
			good &= !monitor_parse(&a.snap[1][s], MONITOR_VMSTAT,
					       "after", sb.buf, sb.len, &err);
		strbuf_reset(&bt);
		strbuf_reset(&at);
		monitor_encode(src, &a.snap[0][s], &a.snap[1][s], &bt, &at);
		whole += 2 * a.snap[1][s].text.len;
		sent += bt.len + at.len;
		good &= !monitor_parse(&b.snap[0][s], MONITOR_VMSTAT, "before",
				       bt.buf, bt.len, &err) &&
			!monitor_merge(&b.snap[1][s], &b.snap[0][s], "after",
				       at.buf, at.len, &err);
	}
	ok(good, "encoded and merged %s", err.buf);
	monitor_record_fill(&a);
	monitor_record_fill(&b);
	ok(a.rec.vmstat.nr && same_values(&a.rec.vmstat, &b.rec.vmstat),
	   "the same vmstat changes (%zu)", a.rec.vmstat.nr);
	ok(a.rec.vmstat_end.nr &&
		   same_values(&a.rec.vmstat_end, &b.rec.vmstat_end),
	   "the same gauge levels at the end (%zu)", a.rec.vmstat_end.nr);
	ok(a.rec.cpu.nr == 10 && same_values(&a.rec.cpu, &b.rec.cpu),
	   "the same cpu changes");
	ok(a.rec.meminfo_start.nr == 54 &&
		   same_values(&a.rec.meminfo_start, &b.rec.meminfo_start) &&
		   same_values(&a.rec.meminfo_end, &b.rec.meminfo_end),
	   "the same meminfo at start and end");
	ok(sent * 3 < whole, "%zu bytes sent for %zu", sent, whole);
	strbuf_reset(&err);
	ok(monitor_merge(&b.snap[1][0], &b.snap[0][0], "after", "x\n", 2,
			 &err) == -1 &&
		   !strcmp(err.buf, "after:1: expected 'name value'"),
	   "a bad change is refused with its line");
	monitor_release(&a);
	monitor_release(&b);
	strbuf_release(&err);
	strbuf_release(&bt);
	strbuf_release(&at);
	strbuf_release(&sb);
}

/* The number of this process's open descriptors. */
static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d)))
		n += de->d_name[0] != '.';
	if (d)
		closedir(d);
	return n - 1; /* the directory's own */
}

/*
 * The /proc files stay open from one iteration to the next (read again
 * with pread), and monitor_release() closes them, twice without harm.
 */
static void test_kept_fds(void)
{
	struct monitor mon;
	struct strbuf err = STRBUF_INIT;
	int before = open_fds(), first;

	monitor_init(&mon, 0);
	if (monitor_begin(&mon, &err) || monitor_end(&mon, &err)) {
		printf("ok %d - # SKIP /proc cannot be read: %s\n", ++tap_run,
		       err.buf);
		monitor_release(&mon);
		strbuf_release(&err);
		return;
	}
	first = open_fds();
	ok(first == before + MONITOR_SOURCE_NR + 1,
	   "one iteration: %d descriptors kept (%d before, %d after)",
	   MONITOR_SOURCE_NR + 1, before, first);
	for (int i = 0; i < 3; i++)
		if (monitor_begin(&mon, &err) || monitor_end(&mon, &err))
			break;
	ok(!err.len && open_fds() == first && mon.rec.meminfo_end.nr,
	   "three more iterations: the same descriptors %s", err.buf);
	monitor_release(&mon);
	ok(open_fds() == before, "monitor_release closes them");
	monitor_release(&mon);
	ok(open_fds() == before && fcntl(0, F_GETFD) != -1,
	   "a second release closes nothing");
	strbuf_release(&err);
}

/* Which /proc/vmstat items are levels rather than counts of events. */
static void test_vmstat_gauges(void)
{
	static const struct {
		const char *name;
		bool gauge;
	} cases[] = {
		{"nr_free_pages", true},
		{"nr_mlock", true},
		{"nr_dirty_threshold", true},
		{"workingset_nodes", true},
		{"nr_dirtied", false},
		{"nr_written", false},
		{"nr_vmscan_write", false},
		{"nr_vmscan_immediate_reclaim", false},
		{"nr_throttled_written", false},
		{"nr_foll_pin_acquired", false},
		{"nr_tlb_remote_flush", false},
		{"pgfault", false},
		{"workingset_refault_anon", false},
		{"numa_hit", false},
		{"nr", false},
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		ok(monitor_vmstat_is_gauge(cases[i].name) == cases[i].gauge,
		   "vmstat %s is %s", cases[i].name,
		   cases[i].gauge ? "a gauge" : "a counter");
}

int main(void)
{
	test_vmstat_gauges();
	test_parse_files();
	test_parse_texts();
	test_delta();
	test_other_cpu();
	test_loadavg();
	test_cycle();
	test_pread();
	test_kept_fds();
	test_encode();
	done_testing();
	return exit_status();
}
