/*
 * Unit tests for the export documents of export-json.c, import-json.c
 * and render-json.c: the export of a fixture with every kind of member (golden
 * tests/golden/export.json), that reading it back and writing it again
 * gives the same bytes, every validation rule of json_import() with its
 * message (one broken copy of the golden document each), and the compare
 * document of an mmtests example (golden
 * tests/golden/wis-improve.welch.json).
 */
#include <math.h>
#include <stdlib.h>

#include "tap.h"
#include "test-files.h"
#include "compare.h"
#include "csv.h"
#include "json.h"
#include "render-internal.h"
#include "render.h"
#include "run-data.h"
#include "sha256.h"
#include "strbuf.h"
#include "util.h"

static void add_op(struct run_full *rf, const char *bench, const char *name,
		   const char *unit, bool higher, int decimals)
{
	struct op_samples *op;

	ALLOC_GROW(rf->ops, rf->ops_nr + 1, rf->ops_alloc);
	op = &rf->ops[rf->ops_nr++];
	memset(op, 0, sizeof(*op));
	op->benchmark = xstrdup(bench);
	op->name = xstrdup(name);
	op->unit = xstrdup(unit);
	op->higher_better = higher;
	op->decimals = decimals;
}

/* Add an iteration of bench with samples {op, value} ... ({0, NAN} ends). */
static struct iteration_data *add_iter(struct run_full *rf, const char *bench,
				       int64_t index, bool warmup,
				       const struct sample_data *s)
{
	struct iteration_data *it;

	ALLOC_GROW(rf->iters, rf->iters_nr + 1, rf->iters_alloc);
	it = &rf->iters[rf->iters_nr++];
	memset(it, 0, sizeof(*it));
	it->benchmark = xstrdup(bench);
	it->job = xstrdup("v=10");
	it->index = index;
	it->warmup = warmup;
	it->status = xstrdup("ok");
	it->started_at = xstrdup("2024-05-01T10:00:01Z");
	it->elapsed_s = 0.25 + (double)index;
	it->user_s = 0.125;
	it->sys_s = 1.0 / 3.0;
	it->maxrss_kb = 2048;
	it->samples_first = rf->samples_nr;
	for (; s && !isnan(s->value); s++) {
		ALLOC_GROW(rf->samples, rf->samples_nr + 1, rf->samples_alloc);
		rf->samples[rf->samples_nr++] = *s;
	}
	it->samples_nr = rf->samples_nr - it->samples_first;
	return it;
}

/* Give it a monitor record: counters, CPU times, meminfo, two samples. */
static void add_monitor(struct iteration_data *it)
{
	struct iteration_monitor *m = xcalloc(1, sizeof(*m));

	monitor_counts_add(&m->vmstat, "pgfault", 1234);
	monitor_counts_add(&m->vmstat, "nr_free_pages", -56);
	monitor_counts_add(&m->vmstat, "big", INT64_C(9007199254740992));
	m->has_vmstat_end = true;
	monitor_counts_add(&m->vmstat_end, "nr_free_pages", 1048576);
	monitor_counts_add(&m->vmstat_end, "nr_mlock", 0);
	monitor_counts_add(&m->cpu, "user", 25);
	monitor_counts_add(&m->cpu, "idle", 0);
	monitor_counts_add(&m->meminfo_start, "MemTotal", 16384000);
	monitor_counts_add(&m->meminfo_end, "MemTotal", 16384000);
	monitor_counts_add(&m->meminfo_end, "Odd \"name\"", 1);
	m->interval_s = 0.1;
	m->samples = xcalloc(2, sizeof(*m->samples));
	m->samples_nr = m->samples_alloc = 2;
	m->samples[0].t_s = 0.1;
	monitor_counts_add(&m->samples[0].vmstat, "pgfault", 1000);
	monitor_counts_add(&m->samples[0].cpu, "user", 20);
	monitor_counts_add(&m->samples[0].meminfo, "MemFree", 100);
	m->samples[1].t_s = 0.2000000000000001;
	monitor_counts_add(&m->samples[1].cpu, "user", 5);
	m->has_perf = true;
	monitor_counts_add(&m->perf, "task-clock", 123456789);
	monitor_counts_add(&m->perf, "page-faults", 0);
	m->perf_absent = xstrdup("cycles: no such event on this machine");
	m->perf_scope = xstrdup("cgroup");
	it->monitor = m;
}

/*
 * Two runs: "base" with everything known, strings that need escaping and
 * a stderr tail that is not UTF-8, interleaved samples, a warm-up, a
 * failed iteration, an operation without samples, a monitor record with
 * periodic samples and an empty one; "patched" running,
 * with nothing known about its machine.
 */
static void fixture(struct run_full runs[2])
{
	static const struct sample_data warm[] = {{0, 99}, {1, 1}, {0, NAN}};
	static const struct sample_data it0[] = {{0, 100.5},
						 {0, 101.25},
						 {1, 0.1},
						 {0, 0.30000000000000004},
						 {0, NAN}};
	static const struct sample_data it1[] = {
		{0, 1e-7}, {1, -2}, {1, 123456789012.5}, {0, NAN}};
	static const struct sample_data p0[] = {{0, 110}, {0, 111}, {0, NAN}};
	struct run_full *rf = &runs[0];
	struct machine_info *m = &rf->info.machine;
	struct iteration_data *it;
	char hash[65];

	memset(runs, 0, 2 * sizeof(*runs));
	rf->info.uuid = xstrdup("0f1e2d3c-4b5a-4697-8877-665544332211");
	rf->info.label = xstrdup("base");
	rf->info.status = xstrdup("complete");
	rf->info.config_name = xstrdup("demo");
	rf->info.config_text = xstrdup("name: demo\n# \"quoted\" \\ tab\t\n");
	sha256_hex(rf->info.config_text, strlen(rf->info.config_text), hash);
	rf->info.config_hash = xstrdup(hash);
	rf->info.setup = xstrdup(
		"{\"iterations\":2,\"warmup\":1,\"until\":null,\"params\":"
		"[{\"workload\":\"fake\",\"name\":\"v\",\"values\":[\"10\"]},"
		"{\"workload\":\"fake\",\"name\":\"mode\",\"values\":"
		"[\"a \\\"b\\\"\",\"c\"]}]}");
	rf->info.started_at = xstrdup("2024-05-01T10:00:00Z");
	rf->info.ended_at = xstrdup("2024-05-01T10:05:00Z");
	rf->info.mmcmp_version = xstrdup("0.1.0");
	rf->info.cgroup = xstrdup("/mmcmp.slice");
	m->hostname = xstrdup("host-a");
	m->kernel_release = xstrdup("6.9.0");
	m->kernel_version = xstrdup("#1 SMP PREEMPT_DYNAMIC");
	m->cmdline = xstrdup("BOOT_IMAGE=/vmlinuz ro quiet");
	m->cpu_model = xstrdup("Example CPU @ 2.00GHz \xc2\xae");
	m->nr_cpus = 8;
	m->mem_bytes = INT64_C(17179869184);
	m->numa_nodes = 1;
	m->smt = xstrdup("on");
	m->thp_enabled = xstrdup("madvise");
	m->thp_defrag = xstrdup("madvise");
	m->cpufreq_governor = xstrdup("performance");
	m->cgroup_mode = xstrdup("v2");
	m->kernel_config_sha256 = xstrdup(hash);
	add_op(rf, "fake", "total-10", "ops/s", true, 2);
	add_op(rf, "fake", "time-10", "s", false, 4);
	add_op(rf, "other", "x", "", false, 0);
	add_iter(rf, "fake", 0, true, warm);
	add_monitor(add_iter(rf, "fake", 1, false, it0));
	it = add_iter(rf, "fake", 2, false, it1);
	it->monitor = xcalloc(1, sizeof(*it->monitor));
	free(it->build);
	it->build = xstrdup("thp");
	it = add_iter(rf, "other", 0, false, NULL);
	free(it->status);
	it->status = xstrdup("exit");
	it->exit_code = 3;
	it->stderr_tail = xstrdup("cut \xe2\x82 off\n");

	rf = &runs[1];
	rf->info.uuid = xstrdup("a0a1a2a3-b4b5-4c6c-8d7d-e8e9f0f1f2f3");
	rf->info.label = xstrdup("patched");
	rf->info.status = xstrdup("running");
	rf->info.started_at = xstrdup("2024-05-01T11:00:00Z");
	add_op(rf, "fake", "total-10", "ops/s", true, 2);
	/* It ran in the second boot of a run with kernels. */
	add_iter(rf, "fake", 0, false, p0)->boot = 2;
	rf->boots = xcalloc(2, sizeof(*rf->boots));
	rf->boots_nr = rf->boots_alloc = 2;
	rf->boots[0] = (struct boot_data){
		.number = 1,
		.kernel = xstrdup("thp"),
		.image = xstrdup("/boot/vmlinuz-6.1"),
		.image_sha256 = xstrdup(hash),
		.image_release = xstrdup("6.1.0-cloud"),
		.append = xstrdup(""),
		.accel = xstrdup("tcg"),
		.cpus = 1,
		.memory_mb = 512,
		.qemu_version = xstrdup("QEMU emulator version 7.2"),
		.qemu_cmdline = xstrdup("qemu-system-x86_64 -accel tcg"),
		.boot_s = -1,
		.failed = xstrdup("boot 1: no agent: qemu exited"),
	};
	rf->boots[1] = (struct boot_data){
		.number = 2,
		.kernel = xstrdup("thp"),
		.image = xstrdup("/boot/vmlinuz-6.1"),
		.image_sha256 = xstrdup(hash),
		.append = xstrdup("transparent_hugepage=always"),
		.accel = xstrdup("tcg"),
		.cpus = 1,
		.memory_mb = 512,
		.qemu_version = xstrdup("QEMU emulator version 7.2"),
		.qemu_cmdline = xstrdup("qemu-system-x86_64 -accel tcg"),
		.boot_s = 2.5,
		.pinning = xstrdup("vCPU0=CPU1"),
		.guest_release = xstrdup("6.1.0-cloud"),
		.guest_cmdline = xstrdup("console=ttyS0"),
		.guest_facts = xstrdup("thp_enabled=always\nwatchdog=Software "
				       "Watchdog, 30 s\n"),
	};
}

static void export_runs(const struct run_full *runs, size_t nr,
			struct strbuf *out)
{
	struct json_export *je = json_export_new();

	for (size_t i = 0; i < nr; i++)
		json_export_add_run(je, &runs[i]);
	json_export_finish(je, out);
	json_export_free(je);
}

/* The golden export, and reading it back and writing it again. */
static void test_export(struct strbuf *golden)
{
	struct strbuf err = STRBUF_INIT, again = STRBUF_INIT;
	struct run_full runs[2], *back = NULL;
	size_t nr = 0;

	fixture(runs);
	export_runs(runs, 2, golden);
	check_golden(golden, "export.json");
	ok(!json_import("t.json", golden->buf, golden->len, &back, &nr, &err),
	   "the export reads back");
	if (err.len)
		diag("%s", err.buf);
	ok(nr == 2 && back[0].samples_nr == 9 && back[0].iters_nr == 4 &&
		   back[0].samples[5].value == 0.30000000000000004 &&
		   back[0].samples[6].value == 1e-7 && back[0].iters[2].build &&
		   !back[1].info.ended_at && back[0].info.pid == 0,
	   "what reads back is what was written");
	is_str(nr ? back[0].info.setup : NULL, runs[0].info.setup,
	       "the setup reads back as its canonical text");
	ok(nr == 2 && !back[1].info.setup, "a null setup reads back as NULL");
	ok(nr == 2 && back[1].iters[0].boot == 2 && back[0].iters[1].boot == 0,
	   "an iteration's boot reads back, null as 0 (on the host)");
	ok(nr == 2 && !back[0].boots_nr && back[1].boots_nr == 2 &&
		   back[1].boots[0].boot_s == -1 &&
		   back[1].boots[0].image_release &&
		   !strcmp(back[1].boots[0].image_release, "6.1.0-cloud") &&
		   !back[1].boots[0].guest_facts &&
		   back[1].boots[1].boot_s == 2.5 &&
		   !back[1].boots[1].image_release &&
		   !back[1].boots[1].failed &&
		   !strcmp(back[1].boots[1].guest_facts,
			   runs[1].boots[1].guest_facts),
	   "the boots read back, nulls as nulls");
	ok(nr == 2 && !back[0].iters[0].monitor && back[0].iters[1].monitor &&
		   back[0].iters[1].monitor->vmstat.nr == 3 &&
		   back[0].iters[1].monitor->vmstat.v[1].value == -56 &&
		   back[0].iters[1].monitor->vmstat.v[2].value ==
			   INT64_C(9007199254740992) &&
		   back[0].iters[1].monitor->samples_nr == 2 &&
		   back[0].iters[1].monitor->samples[1].t_s ==
			   0.2000000000000001 &&
		   back[0].iters[2].monitor &&
		   !back[0].iters[2].monitor->vmstat.nr,
	   "monitor records read back, in order, exactly");
	ok(nr == 2 && back[0].iters[1].monitor &&
		   back[0].iters[1].monitor->has_vmstat_end &&
		   back[0].iters[1].monitor->vmstat_end.nr == 2 &&
		   back[0].iters[1].monitor->vmstat_end.v[0].value == 1048576 &&
		   back[0].iters[2].monitor &&
		   !back[0].iters[2].monitor->has_vmstat_end,
	   "the gauges' levels read back, null as none");
	ok(nr == 2 && back[0].iters[1].monitor &&
		   back[0].iters[1].monitor->has_perf &&
		   back[0].iters[1].monitor->perf.nr == 2 &&
		   back[0].iters[1].monitor->perf.v[0].value == 123456789 &&
		   !strcmp(back[0].iters[1].monitor->perf_scope, "cgroup") &&
		   !strcmp(back[0].iters[1].monitor->perf_absent,
			   "cycles: no such event on this machine") &&
		   back[0].iters[2].monitor &&
		   !back[0].iters[2].monitor->has_perf &&
		   !back[0].iters[2].monitor->perf_absent,
	   "perf counters read back, absent events with them, null as none");
	export_runs(back, nr, &again);
	ok(same_bytes(&again, golden), "written again, the same bytes");
	run_full_release(&runs[0]);
	run_full_release(&runs[1]);
	run_full_free_array(back, nr);
	strbuf_release(&err);
	strbuf_release(&again);
}

/*
 * One broken copy of the golden document per validation rule: `from`,
 * which must occur exactly once in it, is replaced by `to`.
 */
static const struct {
	const char *what, *from, *to, *want;
} bad_cases[] = {
	{"not JSON", "\"version\":\t7,", "\"version\":\t7,,",
	 "t.json: invalid JSON near line 3, column 16"},
	{"cut short", "\"version\":\t7,", "\"version\":\t7,\n\"x\": [",
	 "t.json: the JSON ends early (truncated?) at line 351, column 1"},
	{"text after the document", "\t\t}]\n}\n", "\t\t}]\n}\n{}",
	 "t.json: unexpected text after the JSON value at line 350, column 1"},
	{"a NUL character", "\"label\":\t\"base\"",
	 "\"label\":\t\"ba\\u0000se\"",
	 "t.json: line 7, column 16: a string holds \\u0000"},
	{"missing format", "\t\"format\":\t\"mmcmp-export\",\n", "",
	 "t.json: top level: missing member 'format'"},
	{"another format", "\"mmcmp-export\"", "\"mmcmp-compare\"",
	 "t.json: format: 'mmcmp-compare' is not an mmcmp export (want 'mmcmp-export')"},
	{"format not a string", "\"mmcmp-export\"", "1",
	 "t.json: format: expected a string, found a number"},
	{"unknown version", "\"version\":\t7,", "\"version\":\t8,",
	 "t.json: version: unsupported version 8 (this mmcmp reads versions 1 to 7)"},
	{"version 0", "\"version\":\t7,", "\"version\":\t0,",
	 "t.json: version: unsupported version 0 (this mmcmp reads versions 1 to 7)"},
	{"a version 1 document with a setup",
	 "\"version\":\t7,\n\t\"generator\":\t\"mmcmp 0.1.0\",\n\t\"runs\":\t[{\n\t\t\t\"uuid\":\t\"0f1e2d3c-4b5a-4697-8877-665544332211\"",
	 "\"version\":\t1,\n\t\"generator\":\t\"mmcmp 0.1.0\",\n\t\"runs\":\t[{\n\t\t\t\"uuid\":\t\"0f1e2d3c-4b5a-4697-8877-665544332211\"",
	 "t.json: runs[0]: unknown member 'setup'"},
	{"boot 0", "\"boot\":\t2,", "\"boot\":\t0,",
	 "t.json: runs[1].iterations[0].boot: 0 is out of range (1 to 9007199254740992)"},
	{"boot not an integer", "\"boot\":\t2,", "\"boot\":\t\"2\",",
	 "t.json: runs[1].iterations[0].boot: expected an integer, found a string"},
	{"a boot number twice", "\"number\":\t2,", "\"number\":\t1,",
	 "t.json: runs[1].boots[1]: boot 1 twice"},
	{"a boot time that is not a number", "\"boot_s\":\t2.5,",
	 "\"boot_s\":\t\"2.5\",",
	 "t.json: runs[1].boots[1].boot_s: expected a number, found a string"},
	{"setup not an object", "\"setup\":\tnull", "\"setup\":\t2",
	 "t.json: runs[1].setup: expected an object or null, found a number"},
	{"until given", "\"until\":\tnull", "\"until\":\t\"ci<2%\"",
	 "t.json: runs[0].setup.until: expected null or an object, found a string"},
	{"until pct 0", "\"until\":\tnull",
	 "\"until\":\t{\"pct\": 0, \"jobs\": []}",
	 "t.json: runs[0].setup.until.pct: expected a number above 0, at most 100"},
	{"until stopped unknown", "\"until\":\tnull",
	 "\"until\":\t{\"pct\": 5, \"jobs\": [{\"workload\": \"w\", "
	 "\"job\": \"\", \"iterations\": 3, \"stopped\": \"bored\"}]}",
	 "t.json: runs[0].setup.until.jobs[0].stopped: unknown value 'bored' (expected precision, maximum, interrupted)"},
	{"setup iterations negative", "\"iterations\":\t2,",
	 "\"iterations\":\t-2,",
	 "t.json: runs[0].setup.iterations: -2 is out of range (0 to 9007199254740992)"},
	{"a setup member missing", "\"warmup\":\t1,\n", "",
	 "t.json: runs[0].setup: missing member 'warmup'"},
	{"a parameter without values", "\"values\":\t[\"10\"]",
	 "\"values\":\t[]",
	 "t.json: runs[0].setup.params[0].values: no values"},
	{"a parameter value not a string", "\"values\":\t[\"10\"]",
	 "\"values\":\t[10]",
	 "t.json: runs[0].setup.params[0].values[0]: expected a string, found a number"},
	{"a parameter without a name", "\"name\":\t\"v\"", "\"name\":\t\"\"",
	 "t.json: runs[0].setup.params[0].name: empty string"},
	{"monitor not an object",
	 "\"values\":\t[1]\n\t\t\t\t\t\t}],\n\t\t\t\t\t\"monitor\":\tnull",
	 "\"values\":\t[1]\n\t\t\t\t\t\t}],\n\t\t\t\t\t\"monitor\":\t[]",
	 "t.json: runs[0].iterations[0].monitor: expected an object or null, found an array"},
	{"a monitor value that is not an integer", "\"pgfault\":1234",
	 "\"pgfault\":12.5",
	 "t.json: runs[0].iterations[1].monitor.vmstat.pgfault: expected an integer, found 12.5"},
	{"a monitor value beyond 2^53", "\"big\":9007199254740992",
	 "\"big\":9007199254740994",
	 "t.json: runs[0].iterations[1].monitor.vmstat.big: 9007199254740994 is out of range (-9007199254740992 to 9007199254740992)"},
	{"a monitor name twice", "\"user\":25,", "\"user\":25,\"user\":1,",
	 "t.json: runs[0].iterations[1].monitor.cpu: duplicate member 'user'"},
	{"an empty monitor name", "\"idle\":0", "\"\":0",
	 "t.json: runs[0].iterations[1].monitor.cpu: '' is not a name (1 to 4096 bytes of UTF-8)"},
	{"monitor values not an object",
	 "\"meminfo_start\":\t{\"MemTotal\":16384000}",
	 "\"meminfo_start\":\t[]",
	 "t.json: runs[0].iterations[1].monitor.meminfo_start: expected an object, found an array"},
	{"a monitor member missing",
	 "\"meminfo_start\":\t{\"MemTotal\":16384000},", "",
	 "t.json: runs[0].iterations[1].monitor: missing member 'meminfo_start'"},
	{"a negative sample time", "\"t_s\":\t0.1,", "\"t_s\":\t-0.5,",
	 "t.json: runs[0].iterations[1].monitor.samples[0].t_s: -0.5 is out of range (0 to 1e9 seconds)"},
	{"an unknown member of a sample", "\"t_s\":\t0.1,",
	 "\"t_s\":\t0.1, \"x\": 1,",
	 "t.json: runs[0].iterations[1].monitor.samples[0]: unknown member 'x'"},
	{"an interval without samples", "\"interval_s\":\t0,",
	 "\"interval_s\":\t1,",
	 "t.json: runs[0].iterations[2].monitor.interval_s: not 0, but the record has no samples"},
	{"version not an integer", "\"version\":\t7,", "\"version\":\t1.5,",
	 "t.json: version: expected an integer, found 1.5"},
	{"missing version", "\t\"version\":\t7,\n", "",
	 "t.json: top level: missing member 'version'"},
	{"unknown member", "\"generator\":", "\"extra\":\t1,\n\t\"generator\":",
	 "t.json: top level: unknown member 'extra'"},
	{"member twice",
	 "\"generator\":", "\"generator\":\t\"x\",\n\t\"generator\":",
	 "t.json: top level: duplicate member 'generator'"},
	{"comparison not an object",
	 "\"generator\":", "\"comparison\":\t[],\n\t\"generator\":",
	 "t.json: comparison: expected an object, found an array"},
	{"missing member of a run", "\t\t\t\"label\":\t\"base\",\n", "",
	 "t.json: runs[0]: missing member 'label'"},
	{"unknown member of a run", "\"label\":\t\"base\",",
	 "\"label\":\t\"base\", \"lable\\n\": 1,",
	 "t.json: runs[0]: unknown member 'lable\\x0a'"},
	{"unknown member that is not UTF-8", "\"label\":\t\"base\",",
	 "\"label\":\t\"base\", \"l\xff\": 1,",
	 "t.json: runs[0]: unknown member 'l\\xff'"},
	{"wrong type", "\"label\":\t\"base\"", "\"label\":\t5",
	 "t.json: runs[0].label: expected a string, found a number"},
	{"null where not allowed", "\"label\":\t\"base\"", "\"label\":\tnull",
	 "t.json: runs[0].label: expected a string, found null"},
	{"empty name", "\"label\":\t\"base\"", "\"label\":\t\"\"",
	 "t.json: runs[0].label: empty string"},
	{"not UTF-8", "\"label\":\t\"base\"", "\"label\":\t\"ba\xffse\"",
	 "t.json: runs[0].label: invalid UTF-8"},
	{"bad uuid", "0f1e2d3c-4b5a-4697-8877-665544332211",
	 "0F1E2D3C-4b5a-4697-8877-665544332211",
	 "t.json: runs[0].uuid: '0F1E2D3C-4b5a-4697-8877-665544332211' is not a lowercase UUID"},
	{"bad time", "\"2024-05-01T10:00:00Z\"", "\"2024-05-01 10:00:00\"",
	 "t.json: runs[0].started_at: '2024-05-01 10:00:00' is not a UTC time YYYY-MM-DDTHH:MM:SSZ"},
	{"month 13", "\"2024-05-01T10:05:00Z\"", "\"2024-13-01T10:05:00Z\"",
	 "t.json: runs[0].ended_at: '2024-13-01T10:05:00Z' is not a UTC time YYYY-MM-DDTHH:MM:SSZ"},
	{"30 February", "\"2024-05-01T10:05:00Z\"", "\"2026-02-30T10:05:00Z\"",
	 "t.json: runs[0].ended_at: '2026-02-30T10:05:00Z' is not a UTC time YYYY-MM-DDTHH:MM:SSZ"},
	{"29 February of a common year", "\"2024-05-01T10:05:00Z\"",
	 "\"2100-02-29T10:05:00Z\"",
	 "t.json: runs[0].ended_at: '2100-02-29T10:05:00Z' is not a UTC time YYYY-MM-DDTHH:MM:SSZ"},
	{"31 April", "\"2024-05-01T10:05:00Z\"", "\"2024-04-31T10:05:00Z\"",
	 "t.json: runs[0].ended_at: '2024-04-31T10:05:00Z' is not a UTC time YYYY-MM-DDTHH:MM:SSZ"},
	{"unknown status", "\"complete\"", "\"done\"",
	 "t.json: runs[0].status: unknown value 'done' (expected running, complete, interrupted, failed, aborted)"},
	{"bad sha256", "\"sha256\":\t\"c58b", "\"sha256\":\t\"C58b",
	 "t.json: runs[0].config.sha256: 'C58b5f4539f9f8447c2d48ae1f6ea2411925e5a053ef94ea2b5928fc351ff9aa' is not a lowercase hex SHA-256"},
	{"config text changed", "name: demo\\n#", "name: demo2\\n#",
	 "t.json: runs[0].config.sha256: not the SHA-256 of config.text"},
	{"a SHA-256 of no text",
	 "\"text\":\t\"name: demo\\n# \\\"quoted\\\" \\\\ tab\\t\\n\",",
	 "\"text\":\tnull,",
	 "t.json: runs[0].config.sha256: not null, but config.text is"},
	{"a misspelt member", "\"config\":\t{\n\t\t\t\t\"name\":\t\"demo\"",
	 "\"configs\":\t{\n\t\t\t\t\"name\":\t\"demo\"",
	 "t.json: runs[0]: unknown member 'configs'"},
	{"config not an object",
	 "\"config\":\t{\n\t\t\t\t\"name\":\tnull,\n\t\t\t\t\"text\":\tnull,\n"
	 "\t\t\t\t\"sha256\":\tnull\n\t\t\t},",
	 "\"config\":\tnull,",
	 "t.json: runs[1].config: expected an object, found null"},
	{"member of the machine missing", "\t\t\t\t\"smt\":\t\"on\",\n", "",
	 "t.json: runs[0].machine: missing member 'smt'"},
	{"integer with a fraction", "\"nr_cpus\":\t8", "\"nr_cpus\":\t8.5",
	 "t.json: runs[0].machine.nr_cpus: expected an integer, found 8.5"},
	{"absurd integer", "\"nr_cpus\":\t8", "\"nr_cpus\":\t1e300",
	 "t.json: runs[0].machine.nr_cpus: 1e+300 is out of range (0 to 1048576)"},
	{"integer out of range", "\"nr_cpus\":\t8", "\"nr_cpus\":\t-8",
	 "t.json: runs[0].machine.nr_cpus: -8 is out of range (0 to 1048576)"},
	{"integer not a number", "\"mem_bytes\":\t17179869184",
	 "\"mem_bytes\":\t\"16G\"",
	 "t.json: runs[0].machine.mem_bytes: expected an integer, found a string"},
	{"unknown cgroup mode", "\"cgroup_mode\":\t\"v2\"",
	 "\"cgroup_mode\":\t\"v3\"",
	 "t.json: runs[0].machine.cgroup_mode: unknown value 'v3' (expected v1, v2, hybrid)"},
	{"decimals out of range", "\"decimals\":\t4", "\"decimals\":\t13",
	 "t.json: runs[0].operations[1].decimals: 13 is out of range (0 to 12)"},
	{"unknown direction",
	 "\"better\":\t\"lower\",\n\t\t\t\t\t\"decimals\":\t4",
	 "\"better\":\t\"down\",\n\t\t\t\t\t\"decimals\":\t4",
	 "t.json: runs[0].operations[1].better: unknown value 'down' (expected higher, lower)"},
	{"summary not an object", "\"summary\":\t{\n\t\t\t\t\t\t\"n\":\t3,",
	 "\"summary\":\t3, \"s\": {\n\t\t\t\t\t\t\"n\":\t3,",
	 "t.json: runs[0].operations[1]: unknown member 's'"},
	{"operation twice", "\"name\":\t\"time-10\"", "\"name\":\t\"total-10\"",
	 "t.json: runs[0].operations[1]: operation 'total-10' of benchmark 'fake' again"},
	{"warmup not a boolean", "\"warmup\":\ttrue", "\"warmup\":\t1",
	 "t.json: runs[0].iterations[0].warmup: expected a boolean, found a number"},
	{"negative time", "\"elapsed_s\":\t2.25", "\"elapsed_s\":\t-2.25",
	 "t.json: runs[0].iterations[2].elapsed_s: -2.25 is out of range (0 to 1e9 seconds)"},
	{"absurd time", "\"elapsed_s\":\t2.25", "\"elapsed_s\":\t2.25e10",
	 "t.json: runs[0].iterations[2].elapsed_s: 22500000000 is out of range (0 to 1e9 seconds)"},
	{"infinite time", "\"elapsed_s\":\t2.25", "\"elapsed_s\":\t1e999",
	 "t.json: runs[0].iterations[2].elapsed_s: not a finite number"},
	{"an index beyond exact integers", "\"index\":\t2,",
	 "\"index\":\t1e20,",
	 "t.json: runs[0].iterations[2].index: 1e+20 is out of range (0 to 9007199254740992)"},
	{"exit code beyond 32 bits", "\"exit_code\":\t3",
	 "\"exit_code\":\t4294967296",
	 "t.json: runs[0].iterations[3].exit_code: 4294967296 is out of range (-2147483648 to 2147483647)"},
	{"unknown iteration status", "\"status\":\t\"exit\"",
	 "\"status\":\t\"crashed\"",
	 "t.json: runs[0].iterations[3].status: unknown value 'crashed' (expected ok, exit, signal, timeout, interrupted, exec, extract)"},
	{"samples not an array", "\n\t\t\t\t\t\"samples\":\t[],",
	 "\n\t\t\t\t\t\"samples\":\t{},",
	 "t.json: runs[0].iterations[3].samples: expected an array, found an object"},
	{"sample not a number", "[100.5, 101.25]", "[100.5, \"101.25\"]",
	 "t.json: runs[0].iterations[1].samples[0].values[1]: expected a number, found a string"},
	{"sample not finite", "[100.5, 101.25]", "[100.5, -1e999]",
	 "t.json: runs[0].iterations[1].samples[0].values[1]: not a finite number"},
	{"no values", "[100.5, 101.25]", "[]",
	 "t.json: runs[0].iterations[1].samples[0].values: no values"},
	{"no such operation",
	 "\"operation\":\t1,\n\t\t\t\t\t\t\t\"values\":\t[0.1]",
	 "\"operation\":\t3,\n\t\t\t\t\t\t\t\"values\":\t[0.1]",
	 "t.json: runs[0].iterations[1].samples[1].operation: no operation 3 (the run has 3)"},
	{"operation of another benchmark",
	 "\"operation\":\t1,\n\t\t\t\t\t\t\t\"values\":\t[0.1]",
	 "\"operation\":\t2,\n\t\t\t\t\t\t\t\"values\":\t[0.1]",
	 "t.json: runs[0].iterations[1].samples[1].operation: operation 2 is of benchmark 'other', not 'fake'"},
	{"group member missing", "\"values\":\t[0.1]", "\"value\":\t[0.1]",
	 "t.json: runs[0].iterations[1].samples[1]: unknown member 'value'"},
	{"a syntax error after samples", "[100.5, 101.25]", "[100.5, 101.25]]",
	 "t.json: invalid JSON near line 144, column 33"},
	{"uuid twice", "a0a1a2a3-b4b5-4c6c-8d7d-e8e9f0f1f2f3",
	 "0f1e2d3c-4b5a-4697-8877-665544332211",
	 "t.json: runs[1].uuid: the uuid of runs[0] again"},
	{"a version 5 document with gauge levels", "\"version\":\t7,",
	 "\"version\":\t5,",
	 "t.json: runs[0].iterations[1].monitor: unknown member 'vmstat_end'"},
	{"gauge levels not an object", "\"vmstat_end\":\tnull",
	 "\"vmstat_end\":\t[]",
	 "t.json: runs[0].iterations[2].monitor.vmstat_end: expected an object or null, found an array"},
	{"a gauge level not an integer", "\"nr_mlock\":0}",
	 "\"nr_mlock\":\"0\"}",
	 "t.json: runs[0].iterations[1].monitor.vmstat_end.nr_mlock: expected an integer, found a string"},
	{"gauge levels missing in version 6", "\"vmstat_end\":\tnull,", "",
	 "t.json: runs[0].iterations[2].monitor: missing member 'vmstat_end'"},
	{"perf not an object", "\"perf\":\tnull", "\"perf\":\t1",
	 "t.json: runs[0].iterations[2].monitor.perf: expected an object or null, found a number"},
	{"a perf count not an integer", "\"page-faults\":0}",
	 "\"page-faults\":0.5}",
	 "t.json: runs[0].iterations[1].monitor.perf.counters.page-faults: expected an integer, found 0.5"},
	{"perf without counters",
	 "\"counters\":\t{\"task-clock\":123456789,\"page-faults\":0},", "",
	 "t.json: runs[0].iterations[1].monitor.perf: missing member 'counters'"},
	{"perf absent not a string",
	 "\"absent\":\t\"cycles: no such event on this machine\"",
	 "\"absent\":\t5",
	 "t.json: runs[0].iterations[1].monitor.perf.absent: expected a string or null, found a number"},
	{"a version 6 document with a perf scope", "\"version\":\t7,",
	 "\"version\":\t6,",
	 "t.json: runs[0].iterations[1].monitor.perf: unknown member 'scope'"},
	{"perf scope missing in version 7",
	 ",\n\t\t\t\t\t\t\t\"scope\":\t\"cgroup\"", "",
	 "t.json: runs[0].iterations[1].monitor.perf: missing member 'scope'"},
	{"perf scope not one of its kinds", "\"scope\":\t\"cgroup\"",
	 "\"scope\":\t\"thread\"",
	 "t.json: runs[0].iterations[1].monitor.perf.scope: unknown value 'thread' (expected cgroup, process)"},
};

/* Replace the one occurrence of from in doc by to; false if not once. */
static bool replace_once(const struct strbuf *doc, const char *from,
			 const char *to, struct strbuf *out)
{
	const char *at = strstr(doc->buf, from);

	if (!at || strstr(at + 1, from))
		return false;
	strbuf_reset(out);
	strbuf_add(out, doc->buf, (size_t)(at - doc->buf));
	strbuf_addstr(out, to);
	strbuf_addstr(out, at + strlen(from));
	return true;
}

static void expect_failure(const char *what, const struct strbuf *doc,
			   const char *want)
{
	struct strbuf err = STRBUF_INIT;
	struct run_full *runs = (struct run_full *)&err; /* must be reset */
	size_t nr = 7;
	int rc = json_import("t.json", doc->buf, doc->len, &runs, &nr, &err);

	ok(rc == -1 && !runs && !nr, "refused: %s", what);
	is_str(err.buf, want, "message: %s", what);
	strbuf_release(&err);
}

/* Remove every occurrence of from in sb. */
static void remove_all(struct strbuf *sb, const char *from)
{
	char *at;

	while ((at = strstr(sb->buf, from))) {
		size_t pos = (size_t)(at - sb->buf), n = strlen(from);

		memmove(at, at + n, sb->len - pos - n + 1);
		strbuf_setlen(sb, sb->len - n);
	}
}

static void test_bad_documents(const struct strbuf *golden)
{
	struct strbuf doc = STRBUF_INIT, again = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(bad_cases); i++) {
		if (!replace_once(golden, bad_cases[i].from, bad_cases[i].to,
				  &doc)) {
			ok(false, "fixture text of '%s' occurs once",
			   bad_cases[i].what);
			continue;
		}
		expect_failure(bad_cases[i].what, &doc, bad_cases[i].want);
	}
	/* Before version 5, perf counters are as unknown. */
	strbuf_reset(&doc);
	strbuf_add(&doc, golden->buf, golden->len);
	remove_all(&doc, "\t\t\t\t\t\t\"vmstat_end\":\tnull,\n");
	remove_all(&doc, "\t\t\t\t\t\t\"vmstat_end\":\t{\"nr_free_pages\":"
			 "1048576,\"nr_mlock\":0},\n");
	ok(!strstr(doc.buf, "vmstat_end"), "the gauge levels are taken out");
	ok(replace_once(&doc, "\"version\":\t7,", "\"version\":\t4,", &again),
	   "version 4: the fixture has one version");
	expect_failure(
		"a version 4 document with perf counters", &again,
		"t.json: runs[0].iterations[1].monitor: unknown member 'perf'");
	strbuf_reset(&doc);
	expect_failure("an empty file", &doc, "t.json: empty, not JSON");
	strbuf_addstr(&doc, "[]");
	expect_failure("an array", &doc,
		       "t.json: top level: expected an object, found an array");
	strbuf_reset(&doc);
	strbuf_addstr(&doc, "{\"runs\": ");
	strbuf_addchars(&doc, '[', 1000);
	strbuf_addchars(&doc, ']', 1000);
	strbuf_addch(&doc, '}');
	expect_failure("nested deeper than cJSON reads", &doc,
		       "t.json: invalid JSON: nested deeper than 1000 levels at"
		       " line 1, column 1009");
	/* The limits, without building documents that big. */
	strbuf_reset(&doc);
	strbuf_addstr(&doc, "{\"format\": \"mmcmp-export\", \"version\": 1,"
			    " \"generator\": \"\", \"runs\": [{}");
	for (size_t i = 0; i < JSON_MAX_RUNS; i++)
		strbuf_addstr(&doc, ",{}");
	strbuf_addstr(&doc, "]}");
	expect_failure(
		"too many runs", &doc,
		"t.json: runs: too many elements (65537, at most 65536)");
	strbuf_reset(&doc);
	strbuf_addstr(&doc, "{\"format\": \"mmcmp-export\", \"version\": 1,"
			    " \"generator\": \"");
	strbuf_addchars(&doc, 'g', JSON_MAX_NAME + 1);
	strbuf_addstr(&doc, "\", \"runs\": []}");
	expect_failure(
		"a string too long", &doc,
		"t.json: generator: string too long (4097 bytes, at most 4096)");
	{
		/* Only the length is looked at before it is refused. */
		struct strbuf huge = {.buf = doc.buf,
				      .len = JSON_IMPORT_MAX_BYTES + 1};

		expect_failure(
			"a file too large", &huge,
			"t.json: too large (134217729 bytes, at most 134217728); export fewer labels per file");
	}
	strbuf_reset(&doc);
	strbuf_addstr(&doc, "{\"format\": \"mmcmp-export\", \"version\": 1,"
			    " \"generator\": \"\", \"runs\": {}}");
	expect_failure("runs not an array", &doc,
		       "t.json: runs: expected an array, found an object");
	strbuf_reset(&doc);
	strbuf_addstr(&doc, "{\"format\": \"mmcmp-export\", \"version\": 1,"
			    " \"generator\": \"\", \"runs\": []}");
	{
		struct strbuf err = STRBUF_INIT;
		struct run_full *runs = NULL;
		size_t nr = 7;

		ok(!json_import("t.json", doc.buf, doc.len, &runs, &nr, &err) &&
			   nr == 0,
		   "no runs is a valid document");
		run_full_free_array(runs, nr);
		strbuf_release(&err);
	}
	strbuf_release(&doc);
	strbuf_release(&again);
}

/* Remove the "boots" member (the last run's array) from doc. */
static void remove_boots(struct strbuf *doc)
{
	char *at = strstr(doc->buf, "\t\t\t\"boots\":\t[");
	char *end = at ? strstr(at, "\t\t\t\"operations\":") : NULL;

	if (!end) {
		ok(false, "the document has boots");
		return;
	}
	memmove(at, end, strlen(end) + 1);
	strbuf_setlen(doc, strlen(doc->buf));
}

/*
 * Version 1 documents, which have no setup and monitor records, and
 * version 2 ones, which have no boots, still read; in version 3 all of
 * those members must be there.
 */
static void test_version1(void)
{
	struct strbuf doc = STRBUF_INIT, err = STRBUF_INIT, v1 = STRBUF_INIT;
	struct run_full runs[2], *back = NULL;
	size_t nr = 0;

	fixture(runs);
	export_runs(&runs[1], 1, &doc);
	/*
	 * Versions 7 and 5 added the perf counters' scope and the counters,
	 * which runs[1] has none of, version 6 the gauges' levels.
	 */
	ok(replace_once(&doc, "\"version\":\t7,", "\"version\":\t4,", &v1),
	   "version 4: the fixture has one version");
	strbuf_reset(&doc);
	strbuf_addstr(&doc, v1.buf);
	/* Version 4 added the settings: a version 3 document is without. */
	ok(replace_once(&doc, "\"version\":\t4,", "\"version\":\t3,", &v1),
	   "version 3: the fixture has one version");
	expect_failure("a version 3 document with settings", &v1,
		       "t.json: runs[0]: unknown member 'settings'");
	remove_all(&doc, "\t\t\t\"settings\":\t[],\n");
	expect_failure("a version 4 document without settings", &doc,
		       "t.json: runs[0]: missing member 'settings'");
	ok(replace_once(&doc, "\"version\":\t4,", "\"version\":\t3,", &v1),
	   "version 3: without settings");
	strbuf_reset(&doc);
	strbuf_addstr(&doc, v1.buf);
	ok(replace_once(&doc, "\"version\":\t3,", "\"version\":\t2,", &v1),
	   "version 2: the fixture has one version");
	expect_failure("a version 2 document with boots", &v1,
		       "t.json: runs[0]: unknown member 'boots'");
	remove_boots(&v1);
	expect_failure("a version 2 document with a boot member", &v1,
		       "t.json: runs[0].iterations[0]: unknown member 'boot'");
	remove_all(&v1, "\t\t\t\t\t\"boot\":\t2,\n");
	ok(!json_import("t.json", v1.buf, v1.len, &back, &nr, &err) &&
		   nr == 1 && back[0].iters_nr == 1 && !back[0].iters[0].boot &&
		   !back[0].boots_nr,
	   "a version 2 document reads, its iterations on the host");
	if (err.len)
		diag("%s", err.buf);
	run_full_free_array(back, nr);
	back = NULL;
	nr = 0;
	strbuf_reset(&v1);
	remove_all(&doc, "\t\t\t\t\t\"boot\":\t2,\n");
	expect_failure("a version 3 document without boot", &doc,
		       "t.json: runs[0].iterations[0]: missing member 'boot'");
	remove_boots(&doc);
	expect_failure("a version 3 document without boots", &doc,
		       "t.json: runs[0]: missing member 'boots'");
	remove_all(&doc, "\t\t\t\"setup\":\tnull,\n");
	ok(replace_once(&doc, "\"version\":\t3,", "\"version\":\t1,", &v1),
	   "version 1: the fixture has one version");
	expect_failure(
		"a version 1 document with a monitor member", &v1,
		"t.json: runs[0].iterations[0]: unknown member 'monitor'");
	remove_all(&v1, ",\n\t\t\t\t\t\"monitor\":\tnull");
	ok(!json_import("t.json", v1.buf, v1.len, &back, &nr, &err) &&
		   nr == 1 && back[0].iters_nr == 1 &&
		   !back[0].iters[0].monitor && !back[0].info.setup,
	   "a version 1 document reads, without setup and monitor records");
	if (err.len)
		diag("%s", err.buf);
	run_full_free_array(back, nr);
	expect_failure("a version 3 document without setup", &doc,
		       "t.json: runs[0]: missing member 'setup'");
	run_full_release(&runs[0]);
	run_full_release(&runs[1]);
	strbuf_release(&doc);
	strbuf_release(&err);
	strbuf_release(&v1);
}

/* The compare document of an mmtests example; golden. */
static void test_compare(void)
{
	struct compare_options opts = COMPARE_OPTIONS_INIT;
	struct compare_result res = COMPARE_RESULT_INIT;
	struct render_options ropts = RENDER_OPTIONS_INIT;
	struct strbuf buf = STRBUF_INIT, err = STRBUF_INIT, out = STRBUF_INIT;
	struct strbuf direct = STRBUF_INIT;
	struct run_data *runs = NULL;
	size_t nr = 0;
	bool good;

	good = read_file("data/mmtests/wis-improve.csv", &buf) &&
	       !csv_parse("wis-improve.csv", buf.buf, buf.len, &runs, &nr,
			  &err) &&
	       !compare_runs(runs, nr, &opts, &res, &err) &&
	       !render(RENDER_JSON, &res, &ropts, &out, &err);
	if (!ok(good, "compare --format json renders"))
		diag("%s", err.buf);
	check_golden(&out, "wis-improve.welch.json");
	render_json(&res, &ropts, &direct);
	ok(same_bytes(&direct, &out), "render() is render_json()");
	compare_result_release(&res);
	csv_runs_free(runs, nr);
	strbuf_release(&buf);
	strbuf_release(&err);
	strbuf_release(&out);
	strbuf_release(&direct);
}

/* The number format of exports: exact and short. */
static void test_numbers(void)
{
	static const struct {
		double v;
		const char *want;
	} cases[] = {
		{0, "0"},
		{-0.0, "-0"},
		{1012.345, "1012.345"},
		{1132.89, "1132.89"},
		{0.1, "0.1"},
		{0.30000000000000004, "0.30000000000000004"},
		{1e-5, "0.00001"},
		{1e-7, "1e-07"},
		{-2.5, "-2.5"},
		{123456789012345.6, "123456789012345.6"},
		{1e15, "1e+15"},
		{5e-324, "4.94065645841247e-324"},
		{1.0 / 3.0, "0.3333333333333333"},
	};
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		strbuf_reset(&sb);
		strbuf_add_double(&sb, cases[i].v);
		is_str(sb.buf, cases[i].want, "number %s", cases[i].want);
		ok(strtod(sb.buf, NULL) == cases[i].v &&
			   signbit(strtod(sb.buf, NULL)) == signbit(cases[i].v),
		   "number %s reads back exactly", cases[i].want);
	}
	strbuf_release(&sb);
}

/*
 * The samples are read straight from the text unless a member of their
 * path has an escape; the tree then gives them, and the same runs.
 */
static void test_streamed(const struct strbuf *golden)
{
	struct strbuf doc = STRBUF_INIT, err = STRBUF_INIT, a = STRBUF_INIT,
		      b = STRBUF_INIT;
	struct run_full *runs = NULL;
	size_t nr = 0;

	strbuf_add(&doc, golden->buf, golden->len);
	ok(!json_import_in_place("t.json", doc.buf, doc.len, &runs, &nr,
				 &err) &&
		   nr == 2 && runs[0].samples_nr == 9,
	   "an import in place reads the samples");
	export_runs(runs, nr, &a);
	run_full_free_array(runs, nr);
	ok(same_bytes(&a, golden), "and exports them again as they were");
	ok(!strstr(doc.buf, "[100.5, 101.25]") &&
		   strstr(doc.buf, "\"values\":\t[             ]"),
	   "the text's arrays of samples are blanked");
	if (!replace_once(golden, "\"values\":\t[100.5, 101.25]",
			  "\"v\\u0061lues\":\t[100.5, 101.25]", &doc))
		BUG("no values in the golden export");
	ok(!json_import("t.json", doc.buf, doc.len, &runs, &nr, &err),
	   "a document the stream does not follow imports from the tree");
	export_runs(runs, nr, &b);
	run_full_free_array(runs, nr);
	ok(same_bytes(&b, golden), "the same runs and samples");
	if (err.len)
		diag("%s", err.buf);
	strbuf_release(&doc);
	strbuf_release(&err);
	strbuf_release(&a);
	strbuf_release(&b);
}

int main(void)
{
	struct strbuf golden = STRBUF_INIT;

	test_export(&golden);
	test_bad_documents(&golden);
	test_streamed(&golden);
	test_version1();
	test_compare();
	test_numbers();
	strbuf_release(&golden);
	done_testing();
	return exit_status();
}
