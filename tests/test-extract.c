/* Unit tests for extract (regex, JSON path, benchmark parsers) and json. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tap.h"
#include "config.h"
#include "extract.h"
#include "json.h"
#include "strbuf.h"
#include "util.h"

#define DATA "data/parsers/"
#define ANY  SIZE_MAX /* count not checked: garbage input */

/*
 * Expected values were read off the fixture files by eye; perf's GB/sec
 * figures are multiplied by 1024 (MB/sec).
 */
static const struct parser_case {
	const char *parser;
	const char *field;
	const char *file;
	int rc;
	size_t count;
	double first, last;
	const char *msg; /* part of the error, when rc is -1 */
} parser_cases[] = {
	{"will-it-scale", NULL, "will-it-scale/page_fault1_processes.txt", 0, 5,
	 606741, 606579, NULL},
	{"will-it-scale", "total", "will-it-scale/page_fault1_processes.txt", 0,
	 5, 606741, 606579, NULL},
	{"will-it-scale", "min", "will-it-scale/page_fault1_processes.txt", 0,
	 5, 301008, 301122, NULL},
	{"will-it-scale", "max", "will-it-scale/page_fault1_processes.txt", 0,
	 5, 305733, 305457, NULL},
	{"will-it-scale", NULL, "will-it-scale/two-runs.txt", 0, 6, 412231,
	 799610, NULL},
	{"will-it-scale", NULL, "will-it-scale/no-markers.txt", 0, 3, 20710,
	 20785, NULL},
	{"will-it-scale", NULL, "will-it-scale/warmup-only.txt", 0, 0, 0, 0,
	 NULL},
	{"will-it-scale", NULL, "will-it-scale/mmcmp-page-fault.txt", 0, 3,
	 236773, 186575, NULL},
	{"will-it-scale", NULL, "will-it-scale/mmcmp-wis.txt", 0, 3, 9510,
	 16740, NULL},
	{"will-it-scale", "per_task", "will-it-scale/mmcmp-wis.txt", 0, 3, 4755,
	 8370, NULL},
	{"will-it-scale", "per_task", "will-it-scale/page_fault1_processes.txt",
	 -1, 0, 0, 0, "needs a 'tasks:N' line"},
	{"will-it-scale", "per_task", "will-it-scale/bad-tasks.txt", -1, 0, 0,
	 0, "cannot read the task count in 'tasks:0'"},
	{"will-it-scale", NULL, "will-it-scale/truncated.txt", 0, 3, 606741,
	 606939, NULL},
	{"will-it-scale", NULL, "will-it-scale/garbage.bin", 0, ANY, 0, 0,
	 NULL},

	{"netperf", NULL, "netperf/tcp-stream.txt", 0, 1, 35710.68, 35710.68,
	 NULL},
	{"netperf", "elapsed", "netperf/tcp-stream.txt", 0, 1, 10, 10, NULL},
	{"netperf", "throughput", "netperf/tcp-sendfile.txt", 0, 1, 9387.28,
	 9387.28, NULL},
	{"netperf", NULL, "netperf/tcp-stream-p0.txt", 0, 3, 35710.68, 35890.44,
	 NULL},
	{"netperf", NULL, "netperf/tcp-stream-cpu.txt", 0, 1, 35710.68,
	 35710.68, NULL},
	{"netperf", NULL, "netperf/udp-stream.txt", -1, 0, 0, 0,
	 "'UDP STREAM'"},
	{"netperf", NULL, "netperf/truncated.txt", 0, 0, 0, 0, NULL},
	{"netperf", NULL, "netperf/garbage.bin", 0, ANY, 0, 0, NULL},

	{"gnu-time", NULL, "gnu-time/default-3runs.txt", 0, 3, 0.21, 0.07,
	 NULL},
	{"gnu-time", "user", "gnu-time/default-3runs.txt", 0, 3, 0.07, 0.05,
	 NULL},
	{"gnu-time", "system", "gnu-time/default-3runs.txt", 0, 3, 0, 0, NULL},
	{"gnu-time", "maxrss", "gnu-time/default-3runs.txt", 0, 3, 1568, 1576,
	 NULL},
	{"gnu-time", "elapsed", "gnu-time/default-failed.txt", 0, 1, 0, 0,
	 NULL},
	{"gnu-time", "maxrss", "gnu-time/default-failed.txt", 0, 1, 1488, 1488,
	 NULL},
	{"gnu-time", "elapsed", "gnu-time/verbose.txt", 0, 1, 0.02, 0.02, NULL},
	{"gnu-time", "user", "gnu-time/verbose.txt", 0, 1, 0.02, 0.02, NULL},
	{"gnu-time", "system", "gnu-time/verbose.txt", 0, 1, 0, 0, NULL},
	{"gnu-time", "maxrss", "gnu-time/verbose.txt", 0, 1, 1568, 1568, NULL},
	{"gnu-time", "elapsed", "gnu-time/posix.txt", 0, 1, 0.10, 0.10, NULL},
	{"gnu-time", "maxrss", "gnu-time/posix.txt", 0, 0, 0, 0, NULL},
	{"gnu-time", NULL, "gnu-time/truncated.txt", 0, 2, 0.21, 0.09, NULL},
	{"gnu-time", NULL, "gnu-time/garbage.bin", 0, ANY, 0, 0, NULL},

	{"stress-ng", "cpu", "stress-ng/metrics-brief-cpu.txt", 0, 1, 1211.45,
	 1211.45, NULL},
	{"stress-ng", "cpu.bogo-ops", "stress-ng/metrics-brief-cpu.txt", 0, 1,
	 1212, 1212, NULL},
	{"stress-ng", "cpu.wall-clock-time", "stress-ng/metrics-brief-cpu.txt",
	 0, 1, 1, 1, NULL},
	{"stress-ng", "cpu.bogo-ops-per-second-usr-sys-time",
	 "stress-ng/metrics-brief-cpu.txt", 0, 1, 1222.32, 1222.32, NULL},
	{"stress-ng", "cpu.max-rss", "stress-ng/metrics-brief-cpu.txt", 0, 0, 0,
	 0, NULL},
	{"stress-ng", "vm", "stress-ng/metrics-brief-cpu-vm.txt", 0, 1, 0, 0,
	 NULL},
	{"stress-ng", "vm.system-time", "stress-ng/metrics-brief-cpu-vm.txt", 0,
	 1, 1.10, 1.10, NULL},
	{"stress-ng", "cpu", "stress-ng/metrics-cpu.txt", 0, 1, 1673.01,
	 1673.01, NULL},
	{"stress-ng", "cpu.max-rss", "stress-ng/metrics-cpu.txt", 0, 1, 6516,
	 6516, NULL},
	{"stress-ng", "cpu.cpu-usage-per-instance", "stress-ng/metrics-cpu.txt",
	 0, 1, 65.20, 65.20, NULL},
	{"stress-ng", "cpu", "stress-ng/log-brief-cpu.txt", 0, 1, 1249.60,
	 1249.60, NULL},
	{"stress-ng", "cpu", "stress-ng/info-prefix-cpu.txt", 0, 1, 2468, 2468,
	 NULL},
	{"stress-ng", "cpu", "stress-ng/yaml-cpu-vm.yaml", 0, 1, 1274.023848,
	 1274.023848, NULL},
	{"stress-ng", "vm.max-rss", "stress-ng/yaml-cpu-vm.yaml", 0, 1, 264068,
	 264068, NULL},
	{"stress-ng", "cpu.wall-clock-time", "stress-ng/yaml-cpu-vm.yaml", 0, 1,
	 1.002336, 1.002336, NULL},
	{"stress-ng", "nosuch", "stress-ng/yaml-cpu-vm.yaml", 0, 0, 0, 0, NULL},
	{"stress-ng", "cpu", "stress-ng/truncated.txt", 0, 0, 0, 0, NULL},
	{"stress-ng", "cpu", "stress-ng/truncated.yaml", 0, 1, 1274.023848,
	 1274.023848, NULL},
	{"stress-ng", "vm", "stress-ng/truncated.yaml", 0, 0, 0, 0, NULL},
	{"stress-ng", "cpu", "stress-ng/garbage.bin", 0, ANY, 0, 0, NULL},

	{"fio", "read.iops", "fio/two-jobs.json", 0, 2, 204800, 0, NULL},
	{"fio", "write.iops", "fio/two-jobs.json", 0, 2, 0, 204800, NULL},
	{"fio", "randwrite:write.bw", "fio/two-jobs.json", 0, 1, 819200, 819200,
	 NULL},
	{"fio", "read.clat_p99", "fio/two-jobs.json", 0, 1, 1592, 1592, NULL},
	{"fio", "write.clat_p99", "fio/two-jobs.json", 0, 1, 8512, 8512, NULL},
	{"fio", "write.clat_p99.9", "fio/two-jobs.json", 0, 1, 75264, 75264,
	 NULL},
	{"fio", "read.iops", "fio/randrw.json", 0, 1, 7333.333333, 7333.333333,
	 NULL},
	{"fio", "mixed:write.iops", "fio/randrw.json", 0, 1, 8181.818182,
	 8181.818182, NULL},
	{"fio", "read.clat_ns.percentile.99.000000", "fio/randrw.json", 0, 1,
	 240640, 240640, NULL},
	{"fio", "write.clat_p99", "fio/randrw.json", 0, 1, 13760, 13760, NULL},
	{"fio", "write.clat_p99.9", "fio/randrw.json", 0, 1, 31360, 31360,
	 NULL},
	{"fio", "mixed:write.bw", "fio/randrw.json", 0, 1, 32727, 32727, NULL},
	{"fio", "other:read.iops", "fio/randrw.json", -1, 0, 0, 0,
	 "no element with jobname=other"},
	{"fio", "read.iopz", "fio/randrw.json", -1, 0, 0, 0,
	 "'jobs[0].read' has no member 'iopz'"},
	{"fio", "jobname", "fio/randrw.json", -1, 0, 0, 0,
	 "'jobs[0].jobname' is a string, not a number"},
	{"fio", "read.iops", "fio/truncated.json", -1, 0, 0, 0, "ends early"},
	{"fio", "read.iops", "fio/garbage.bin", -1, ANY, 0, 0, NULL},

	{"sysbench", NULL, "sysbench/cpu.txt", 0, 1, 3260.97, 3260.97, NULL},
	{"sysbench", "total_time", "sysbench/cpu.txt", 0, 1, 1.0003, 1.0003,
	 NULL},
	{"sysbench", "events", "sysbench/cpu.txt", 0, 1, 3265, 3265, NULL},
	{"sysbench", "lat_min", "sysbench/cpu.txt", 0, 1, 0.26, 0.26, NULL},
	{"sysbench", "lat_avg", "sysbench/cpu.txt", 0, 1, 0.31, 0.31, NULL},
	{"sysbench", "lat_max", "sysbench/cpu.txt", 0, 1, 0.97, 0.97, NULL},
	{"sysbench", "lat_p95", "sysbench/cpu.txt", 0, 1, 0.35, 0.35, NULL},
	{"sysbench", "lat_sum", "sysbench/cpu.txt", 0, 1, 996.53, 996.53, NULL},
	{"sysbench", "lat_p99", "sysbench/cpu.txt", 0, 0, 0, 0, NULL},
	{"sysbench", "lat_p99", "sysbench/cpu-p99.txt", 0, 1, 0.41, 0.41, NULL},
	{"sysbench", "events_per_sec", "sysbench/memory.txt", 0, 0, 0, 0, NULL},
	{"sysbench", "lat_max", "sysbench/memory.txt", 0, 1, 0.05, 0.05, NULL},
	{"sysbench", "lat_p95", "sysbench/truncated.txt", 0, 0, 0, 0, NULL},
	{"sysbench", "lat_avg", "sysbench/truncated.txt", 0, 1, 0.31, 0.31,
	 NULL},
	{"sysbench", NULL, "sysbench/garbage.bin", 0, ANY, 0, 0, NULL},

	{"hackbench", NULL, "hackbench/process-3runs.txt", 0, 3, 0.297, 0.145,
	 NULL},
	{"hackbench", "time", "hackbench/threads.txt", 0, 1, 0.017, 0.017,
	 NULL},
	{"hackbench", NULL, "hackbench/truncated.txt", 0, 2, 0.297, 0.169,
	 NULL},
	{"hackbench", NULL, "hackbench/garbage.bin", 0, ANY, 0, 0, NULL},

	{"perf-bench", NULL, "perf-bench/sched-messaging.txt", 0, 1, 0.277,
	 0.277, NULL},
	{"perf-bench", "total_time", "perf-bench/sched-pipe.txt", 0, 1, 1.376,
	 1.376, NULL},
	{"perf-bench", "usecs_per_op", "perf-bench/sched-pipe.txt", 0, 1,
	 137.6411, 137.6411, NULL},
	{"perf-bench", "ops_per_sec", "perf-bench/sched-pipe.txt", 0, 1, 7265,
	 7265, NULL},
	{"perf-bench", "throughput", "perf-bench/mem-memcpy.txt", 0, 4,
	 10.036614 * 1024, 22.398222 * 1024, NULL},
	{"perf-bench", "throughput", "perf-bench/mem-memset-inf.txt", -1, 0, 0,
	 0, "'inf GB/sec'"},
	{"perf-bench", "throughput", "perf-bench/truncated.txt", 0, 3,
	 10.036614 * 1024, 23.086584 * 1024, NULL},
	{"perf-bench", "throughput", "perf-bench/garbage.bin", 0, ANY, 0, 0,
	 NULL},

	{"kv", "Elapsed-fault", "kv/truncate.txt", 0, 1, 0.036841, 0.036841,
	 NULL},
	{"kv", "User-trunc", "kv/truncate.txt", 0, 1, 0, 0, NULL},
	{"kv", "open", "kv/kobj-churn.txt", 0, 1, 3173.9, 3173.9, NULL},
	{"kv", "socket-udp", "kv/kobj-churn.txt", 0, 1, 9240.7, 9240.7, NULL},
	{"kv", "open", "kv/bad-value.txt", -1, 0, 0, 0, "'open failed'"},
	{"kv", "Elapsed-trunc", "kv/truncated.txt", 0, 0, 0, 0, NULL},
	{"kv", "Elapsed-fault", "kv/truncated.txt", 0, 1, 0.036841, 0.036841,
	 NULL},
	{"kv", "open", "kv/garbage.bin", 0, ANY, 0, 0, NULL},

	{"netstream", NULL, "netstream/netstream.txt", 0, 3, 2309.03, 4411.29,
	 NULL},
	{"netstream", "throughput", "netstream/units.txt", 0, 3, 9387.28,
	 941.007, NULL},
	{"netstream", NULL, "netstream/truncated.txt", 0, 2, 2309.03, 2811.68,
	 NULL},
	{"netstream", NULL, "netstream/garbage.bin", 0, ANY, 0, 0, NULL},

	{"kv", "elsp", "kv/usemem.txt", 0, 1, 0.499270, 0.499270, NULL},
	{"kv", "syst", "kv/usemem.txt", 0, 1, 0.039609, 0.039609, NULL},
	{"kv", "triad", "kv/stream.txt", 0, 1, 40575.51, 40575.51, NULL},
	{"kv", "ops", "kv/sembench.txt", 0, 3, 80642, 29505, NULL},
	{"kv", "fault-p99", "kv/thpchallenge.txt", 0, 1, 45653.445, 45653.445,
	 NULL},
	{"kv", "thp-success", "kv/thpchallenge.txt", 0, 1, 100, 100, NULL},
	{"kv", "compact-stall", "kv/thpchallenge.txt", 0, 1, 0, 0, NULL},
	{"kv", "map-p50", "kv/stutterp.txt", 0, 1, 797.628, 797.628, NULL},
	{"kv", "user", "kv/kernbench.txt", 0, 1, 0.077552, 0.077552, NULL},

	{"dbench", NULL, "dbench/clients-2.txt", 0, 1, 96.0397, 96.0397, NULL},
	{"dbench", "max_latency", "dbench/clients-2.txt", 0, 1, 45.313, 45.313,
	 NULL},
	{"dbench", "WriteX.avglat", "dbench/clients-2.txt", 0, 1, 0.045, 0.045,
	 NULL},
	{"dbench", "Flush.maxlat", "dbench/clients-2.txt", 0, 1, 45.301, 45.301,
	 NULL},
	{"dbench", "NTCreateX.count", "dbench/clients-2.txt", 0, 1, 8991, 8991,
	 NULL},
	{"dbench", NULL, "dbench/truncated.txt", 0, 0, 0, 0, NULL},
	{"dbench", "Deltree.count", "dbench/truncated.txt", 0, 1, 2, 2, NULL},
	{"dbench", NULL, "dbench/garbage.bin", 0, ANY, 0, 0, NULL},

	{"fsmark", NULL, "fsmark/loops-3.txt", 0, 3, 183.3, 196.6, NULL},
	{"fsmark", "app_overhead", "fsmark/loops-3.txt", 0, 3, 6578, 9596,
	 NULL},
	{"fsmark", NULL, "fsmark/truncated.txt", 0, 2, 183.3, 149.5, NULL},
	{"fsmark", NULL, "fsmark/garbage.bin", 0, ANY, 0, 0, NULL},

	{"iperf3", NULL, "iperf3/tcp.txt", 0, 1, 3740, 3740, NULL},
	{"iperf3", "sender", "iperf3/tcp.txt", 0, 1, 3770, 3770, NULL},
	{"iperf3", "retransmits", "iperf3/tcp.txt", 0, 1, 18, 18, NULL},
	{"iperf3", NULL, "iperf3/tcp-p2-reverse.txt", 0, 1, 4360, 4360, NULL},
	{"iperf3", "retransmits", "iperf3/tcp-p2-reverse.txt", 0, 1, 54, 54,
	 NULL},
	{"iperf3", NULL, "iperf3/tcp-p2.json", 0, 1, 7446.3455537638845,
	 7446.3455537638845, NULL},
	{"iperf3", "sender", "iperf3/tcp-p2.json", 0, 1, 7448.4079019597483,
	 7448.4079019597483, NULL},
	{"iperf3", "retransmits", "iperf3/tcp-p2.json", 0, 1, 17, 17, NULL},
	{"iperf3", NULL, "iperf3/long-lines.txt", 0, 1, 3740, 3740, NULL},
	{"iperf3", NULL, "iperf3/truncated.txt", 0, 0, 0, 0, NULL},
	{"iperf3", "sender", "iperf3/truncated.txt", 0, 1, 3770, 3770, NULL},
	{"iperf3", NULL, "iperf3/garbage.bin", 0, ANY, 0, 0, NULL},

	{"pgbench", NULL, "pgbench/tpcb.txt", 0, 1, 833.891707, 833.891707,
	 NULL},
	{"pgbench", "latency_avg", "pgbench/tpcb.txt", 0, 1, 2.398, 2.398,
	 NULL},
	{"pgbench", "connection_time", "pgbench/tpcb.txt", 0, 1, 82.357, 82.357,
	 NULL},
	{"pgbench", "transactions", "pgbench/tpcb.txt", 0, 1, 2443, 2443, NULL},
	{"pgbench", "failed", "pgbench/tpcb.txt", 0, 1, 0, 0, NULL},
	{"pgbench", "latency_stddev", "pgbench/tpcb.txt", 0, 0, 0, 0, NULL},
	{"pgbench", NULL, "pgbench/select-only-r.txt", 0, 1, 8520.192518,
	 8520.192518, NULL},
	{"pgbench", NULL, "pgbench/truncated.txt", 0, 0, 0, 0, NULL},
	{"pgbench", "latency_avg", "pgbench/truncated.txt", 0, 1, 2.398, 2.398,
	 NULL},
	{"pgbench", NULL, "pgbench/garbage.bin", 0, ANY, 0, 0, NULL},
};

static const struct regex_case {
	const char *pattern;
	const char *text;
	size_t len; /* 0: strlen(text) */
	int rc;
	size_t count;
	double first, last;
	const char *msg;
} regex_cases[] = {
	{"ops ([0-9.]+)", "ops 1\nops 2.5\nx ops 3\n", 0, 0, 3, 1, 3, NULL},
	{"^ops ([0-9.]+)", "ops 1\nops 2.5\nx ops 3\n", 0, 0, 2, 1, 2.5, NULL},
	{"([0-9]+)$", "a 1\nb 2 x\nc 3", 0, 0, 2, 1, 3, NULL},
	{"([0-9]+)", "1 2 3\n4", 0, 0, 4, 1, 4, NULL},
	{"^([0-9])", "12\n3", 0, 0, 2, 1, 3, NULL},
	{"(^|[^0-9])([0-9])", "12 3\n45", 0, -1, 0, 0, 0, "captured ''"},
	{"lat=([^ ]+)", "lat=1 lat=abc", 0, -1, 0, 0, 0,
	 "line 1 captured 'abc', not a number"},
	{"(x)?y([0-9])", "y5", 0, -1, 0, 0, 0, "captured ''"},
	{"v=(.*)", "a\nv=1e999\n", 0, -1, 0, 0, 0, "line 2 captured '1e999'"},
	{"nothing ([0-9]+)", "ops 1\n", 0, 0, 0, 0, 0, NULL},
	{"v ([0-9]+)", "", 0, 0, 0, 0, 0, NULL},
	{"v ([0-9]+)", "v 1\0v 2\n", 8, 0, 2, 1, 2, NULL},
	{"^v ([0-9]+)", "v 1\0v 2\n", 8, 0, 2, 1, 2, NULL},
	{"v ([0-9]+)", "v 12", 3, 0, 1, 1, 1, NULL}, /* not past len */
	{"(", "x", 0, -1, 0, 0, 0, "bad regex '('"},
	{"ops [0-9]+", "ops 1", 0, -1, 0, 0, 0, "no group"},
};

static const struct json_case {
	const char *path;
	const char *text;
	size_t len; /* 0: strlen(text) */
	int rc;
	size_t count;
	double first, last;
	const char *msg;
} json_cases[] = {
	{"a.b[0].c", "{\"a\":{\"b\":[{\"c\":1.5}]}}", 0, 0, 1, 1.5, 1.5, NULL},
	{"a.b[*].c",
	 "{\"a\":{\"b\":[{\"c\":1},{\"c\":2},{\"d\":3},{\"c\":4}]}}", 0, 0, 3,
	 1, 4, NULL},
	{"a.b[*]", "{\"a\":{\"b\":[1,2,3]}}", 0, 0, 3, 1, 3, NULL},
	{"[*]", " [1, 2]\n", 0, 0, 2, 1, 2, NULL},
	{"[1]", "[1, 2]", 0, 0, 1, 2, 2, NULL},
	{"", "42", 0, 0, 1, 42, 42, NULL},
	{"a[*]", "{\"a\":{\"x\":1,\"y\":2}}", 0, 0, 2, 1, 2, NULL},
	{"a[*][*]", "{\"a\":[[1,2],[3]]}", 0, 0, 3, 1, 3, NULL},
	{"p.99.000000", "{\"p\":{\"99.000000\":7}}", 0, 0, 1, 7, 7, NULL},
	{"p[\"99.000000\"]", "{\"p\":{\"99.000000\":7}}", 0, 0, 1, 7, 7, NULL},
	{"p[\"a\\\"b\"]", "{\"p\":{\"a\\\"b\":8}}", 0, 0, 1, 8, 8, NULL},
	{"jobs[name=b].v",
	 "{\"jobs\":[{\"name\":\"a\",\"v\":1},{\"name\":\"b\",\"v\":2}]}", 0, 0,
	 1, 2, 2, NULL},
	{"jobs[name=\"a\"].v",
	 "{\"jobs\":[{\"name\":\"a\",\"v\":1},{\"name\":\"a\",\"v\":3}]}", 0, 0,
	 2, 1, 3, NULL},
	{"jobs[id=2].v", "{\"jobs\":[{\"id\":1,\"v\":1},{\"id\":2,\"v\":5}]}",
	 0, 0, 1, 5, 5, NULL},
	{"[*]", "[1,2]", 5, 0, 2, 1, 2, NULL},
	{"a.x", "{\"a\":{\"b\":1}}", 0, -1, 0, 0, 0,
	 "JSON path 'a.x' selects nothing: 'a' has no member 'x'"},
	{"x", "[1]", 0, -1, 0, 0, 0,
	 "the top-level value is an array, not an object"},
	{"a[5]", "{\"a\":[1]}", 0, -1, 0, 0, 0, "'a' has 1 elements, no [5]"},
	{"a[*]", "{\"a\":[]}", 0, -1, 0, 0, 0, "'a' is empty"},
	{"a", "{\"a\":\"12\"}", 0, -1, 0, 0, 0,
	 "JSON path 'a': 'a' is a string, not a number"},
	{"a", "{\"a\":[1,2]}", 0, -1, 0, 0, 0, "'a' is an array, not a number"},
	{"a", "{\"a\":null}", 0, -1, 0, 0, 0, "'a' is null, not a number"},
	{"a[*].c", "{\"a\":[{\"c\":1},{\"c\":true}]}", 0, -1, 0, 0, 0,
	 "'a[1].c' is a boolean, not a number"},
	{"a", "{\"a\":1e999}", 0, -1, 0, 0, 0, "'a' is not a finite number"},
	{"a", "{\"a\": 1,}", 0, -1, 0, 0, 0, "invalid JSON near line 1"},
	{"a", "{\n  \"a\": [1,\n  2", 0, -1, 0, 0, 0,
	 "the JSON ends early (truncated?) at line 3"},
	{"a", "{\"a\":1} x", 0, -1, 0, 0, 0,
	 "unexpected text after the JSON value at line 1, column 9"},
	{"a", "{\"a\":1}\n{", 9, -1, 0, 0, 0,
	 "unexpected text after the JSON value at line 2, column 1"},
	{"a", "{\"a\":\"x\0y\"}", 11, -1, 0, 0, 0,
	 "invalid JSON: a NUL byte at line 1, column 8"},
	{"a", "{\"a\":1\0}", 8, -1, 0, 0, 0, "a NUL byte"},
	{"a", "{\"a\":\"abc", 0, -1, 0, 0, 0, "ends early"},
	{"a", "{\"a\":\"a\\\"}", 0, -1, 0, 0, 0, "ends early"},
	{"a", "{\"a\":1}}", 0, -1, 0, 0, 0, "unexpected text"},
	{"a", "{\"a\":tru}", 0, -1, 0, 0, 0, "invalid JSON near line 1"},
	{"a", "[1,", 0, -1, 0, 0, 0,
	 "ends early (truncated?) at line 1, column 4"},
	{"a", "", 0, -1, 0, 0, 0, "the output is empty, not JSON"},
	{"a", " \n", 0, -1, 0, 0, 0, "the output is empty, not JSON"},
	{"a..b", "{}", 0, -1, 0, 0, 0,
	 "invalid JSON path 'a..b': empty member name at column 3"},
	{".a", "{}", 0, -1, 0, 0, 0, "empty member name at column 1"},
	{"a[", "{}", 0, -1, 0, 0, 0, "expected '*', an index"},
	{"a[*", "{}", 0, -1, 0, 0, 0, "expected '*', an index"},
	{"a[1", "{}", 0, -1, 0, 0, 0, "expected ']' at column 4"},
	{"a[99999999999]", "{}", 0, -1, 0, 0, 0, "index too large"},
	{"a[\"x]", "{}", 0, -1, 0, 0, 0, "unterminated quoted name"},
	{"a[k=v", "{}", 0, -1, 0, 0, 0, "unterminated value"},
	{"a]", "{}", 0, -1, 0, 0, 0, "expected '.' or '[' at column 2"},
};

static const struct known_case {
	const char *name;
	const char *field;
	bool ok;
	const char *msg;
} known_cases[] = {
	{"will-it-scale", NULL, true, NULL},
	{"will-it-scale", "", true, NULL},
	{"will-it-scale", "max", true, NULL},
	{"will-it-scale", "avg", false,
	 "parser 'will-it-scale' has no field 'avg' (fields: total, min, max, per_task)"},
	{"dbench", "WriteX.maxlat", true, NULL},
	{"dbench", "WriteX.median", false, "parser 'dbench' has no field"},
	{"dbench", ".count", false, "parser 'dbench' has no field '.count'"},
	{"iperf3", "jitter", false,
	 "parser 'iperf3' has no field 'jitter' (fields: throughput, sender, retransmits)"},
	{"pgbench", "tps", true, NULL},
	{"nosuch", NULL, false,
	 "unknown parser 'nosuch' (parsers: will-it-scale"},
	{NULL, NULL, false, "no parser given"},
	{"netperf", "elapsed", true, NULL},
	{"gnu-time", "maxrss", true, NULL},
	{"gnu-time", "rss", false, "has no field 'rss'"},
	{"stress-ng", NULL, false, "must be STRESSOR or STRESSOR.METRIC"},
	{"stress-ng", "cpu", true, NULL},
	{"stress-ng", "cpu.bogo-ops", true, NULL},
	{"stress-ng", "cpu.bogo-ops-per-second-real-time", true, NULL},
	{"stress-ng", "cpu.ops", false, "unknown metric 'ops'"},
	{"stress-ng", ".bogo-ops", false, "bad stressor name"},
	{"fio", NULL, false, "must name a value"},
	{"fio", "read.iops", true, NULL},
	{"fio", "seq \"x\":read.clat_p99.9", true, NULL},
	{"fio", "read[", false, "fio: bad field 'read['"},
	{"fio", ":read.iops", false, "fio: bad field"},
	{"fio", "job:", false, "fio: bad field"},
	{"sysbench", NULL, true, NULL},
	{"sysbench", "lat_p95", true, NULL},
	{"sysbench", "lat_p100", true, NULL},
	{"sysbench", "lat_p0", false, "has no field 'lat_p0'"},
	{"sysbench", "lat_p101", false, "has no field 'lat_p101'"},
	{"sysbench", "lat_px", false, "lat_pN)"},
	{"hackbench", NULL, true, NULL},
	{"hackbench", "Time", false, "has no field 'Time'"},
	{"perf-bench", "throughput", true, NULL},
	{"perf-bench", "usecs_per_op", true, NULL},
	{"kv", NULL, false, "must be the NAME"},
	{"kv", "a b", false, "holds a space"},
	{"kv", "Elapsed-fault", true, NULL},
	{"netstream", NULL, true, NULL},
	{"netstream", "total", false, "has no field 'total'"},
};

/* One field per parser for the robustness runs. */
static const struct {
	const char *parser, *field;
} any_field[] = {
	{"will-it-scale", NULL},  {"netperf", NULL},
	{"gnu-time", "maxrss"},	  {"stress-ng", "cpu"},
	{"fio", "read.clat_p99"}, {"sysbench", "lat_p95"},
	{"hackbench", NULL},	  {"perf-bench", "throughput"},
	{"kv", "open"},		  {"netstream", NULL},
};

/* Read the fixture file (a path under DATA) into sb. */
static int read_file(const char *file, struct strbuf *sb)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	strbuf_addf(&path, "%s%s", DATA, file);
	ret = strbuf_read_file(sb, path.buf, NULL);
	strbuf_release(&path);
	return ret;
}

/* An exact-size copy, so that ASan catches a read past len. */
static char *exact_copy(const char *text, size_t len)
{
	char *p = xmalloc(len ? len : 1);

	if (len)
		memcpy(p, text, len);
	return p;
}

static bool contains(const char *s, const char *part)
{
	return part && strstr(s, part);
}

static struct metric_spec metric(const char *name, enum metric_source src,
				 const char *pattern, const char *field)
{
	struct metric_spec m = {0};

	m.name = (char *)name;
	m.source = src;
	m.pattern = (char *)pattern;
	m.field = (char *)field;
	return m;
}

/*
 * Check the outcome of one extraction against the expectations; one TAP
 * line.
 */
static void check(const char *what, int rc, const struct strbuf *err,
		  const double *v, size_t nr, int want_rc, size_t want_count,
		  double first, double last, const char *msg)
{
	bool good = rc == want_rc;

	if (!good)
		diag("rc %d, want %d; err: %s", rc, want_rc, err->buf);
	if (want_rc == 0 && want_count != ANY && nr != want_count) {
		diag("%zu samples, want %zu", nr, want_count);
		good = false;
	}
	if (want_rc == 0 && want_count != ANY && nr && nr == want_count &&
	    (!tap_near_check(v[0], first, 1e-9) ||
	     !tap_near_check(v[nr - 1], last, 1e-9))) {
		diag("first %.17g last %.17g, want %.17g and %.17g", v[0],
		     v[nr - 1], first, last);
		good = false;
	}
	if (rc && (nr || !err->len || strchr(err->buf, '\n'))) {
		diag("failure left %zu samples, err '%s'", nr, err->buf);
		good = false;
	}
	if (rc && msg && !contains(err->buf, msg)) {
		diag("err '%s' lacks '%s'", err->buf, msg);
		good = false;
	}
	if (!rc && err->len) {
		diag("success with err '%s'", err->buf);
		good = false;
	}
	ok(good, "%s", what);
}

static void test_parsers(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(parser_cases); i++) {
		const struct parser_case *c = &parser_cases[i];
		struct metric_spec m =
			metric("m", METRIC_PARSER, c->parser, c->field);
		struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
		double *v = NULL;
		size_t nr = 0, alloc = 0;
		char *copy;
		int rc;

		if (read_file(c->file, &text)) {
			ok(false, "cannot read %s", c->file);
			continue;
		}
		copy = exact_copy(text.buf, text.len);
		rc = extract_values(&m, copy, text.len, &v, &nr, &alloc, &err);
		check(c->file, rc, &err, v, nr, c->rc, c->count, c->first,
		      c->last, c->msg);
		diag("%s %s: %s", c->parser, c->field ? c->field : "(default)",
		     rc ? err.buf : "ok");
		free(copy);
		free(v);
		strbuf_release(&text);
		strbuf_release(&err);
	}
}

static void test_regex(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(regex_cases); i++) {
		const struct regex_case *c = &regex_cases[i];
		struct metric_spec m =
			metric("r", METRIC_REGEX, c->pattern, NULL);
		size_t len = c->len ? c->len : strlen(c->text);
		struct strbuf err = STRBUF_INIT;
		char *copy = exact_copy(c->text, len);
		double *v = NULL;
		size_t nr = 0, alloc = 0;
		int rc = extract_values(&m, copy, len, &v, &nr, &alloc, &err);

		check("regex", rc, &err, v, nr, c->rc, c->count, c->first,
		      c->last, c->msg);
		diag("regex case %zu /%s/: %s", i, c->pattern,
		     rc ? err.buf : "ok");
		free(copy);
		free(v);
		strbuf_release(&err);
	}
}

static void test_json(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(json_cases); i++) {
		const struct json_case *c = &json_cases[i];
		size_t len = c->len ? c->len : strlen(c->text);
		struct strbuf err = STRBUF_INIT;
		char *copy = exact_copy(c->text, len);
		double *v = NULL;
		size_t nr = 0, alloc = 0;
		int rc = json_extract_numbers(copy, len, c->path, &v, &nr,
					      &alloc, &err);

		check("json", rc, &err, v, nr, c->rc, c->count, c->first,
		      c->last, c->msg);
		diag("json case %zu '%s': %s", i, c->path, rc ? err.buf : "ok");
		free(copy);
		free(v);
		strbuf_release(&err);
	}
}

static void test_known(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(known_cases); i++) {
		const struct known_case *c = &known_cases[i];
		struct strbuf err = STRBUF_INIT;
		bool got = extract_parser_known(c->name, c->field, &err);

		ok(got == c->ok && (got ? !err.len : contains(err.buf, c->msg)),
		   "parser %s field %s: %s", c->name ? c->name : "(null)",
		   c->field ? c->field : "(null)", got ? "known" : err.buf);
		strbuf_release(&err);
	}
}

/* The extractor API: errors, appending, reuse without recompiling. */
static void test_api(void)
{
	struct metric_spec m = metric("ops", METRIC_REGEX, "ops=([^ ]+)", NULL);
	struct strbuf err = STRBUF_INIT;
	struct extractor *ex;
	double *v = NULL;
	size_t nr = 0, alloc = 0;
	const char out[] = "ops=1 ops=2\nops=3\n";
	bool same = true;
	int rc = 0;

	ex = extractor_new(&m, &err);
	ok(ex && !err.len, "extractor_new for a regex");
	for (int i = 0; i < 1000 && !rc; i++)
		rc = extractor_run(ex, out, sizeof(out) - 1, &v, &nr, &alloc,
				   &err);
	for (size_t i = 0; i < nr; i++)
		same = same && v[i] == (double)(i % 3 + 1);
	ok(!rc && nr == 3000 && same,
	   "one extractor run 1000 times appends 3000 samples (%zu)", nr);
	rc = extractor_run(ex, "ops=1 ops=x", 11, &v, &nr, &alloc, &err);
	ok(rc == -1 && nr == 3000,
	   "a failing run leaves the earlier samples (%zu)", nr);
	is_str(err.buf,
	       "metric 'ops': regex 'ops=([^ ]+)': "
	       "the match on line 1 captured 'x', not a number",
	       "the error names the metric, pattern, line and capture");
	extractor_free(ex);
	extractor_free(NULL);
	strbuf_reset(&err);

	m = metric("wall", METRIC_ELAPSED, NULL, NULL);
	ok(!extract_reads_output(&m), "elapsed is not read from the output");
	ok(!extractor_new(&m, &err), "no extractor for elapsed");
	is_str(err.buf,
	       "metric 'wall': its value comes from the runner, not the output",
	       "the error says why");
	strbuf_reset(&err);

	m = metric("x", METRIC_PARSER, "kv", NULL);
	ok(extract_reads_output(&m), "a parser reads the output");
	ok(extract_values(&m, "x 1\n", 4, &v, &nr, &alloc, &err) == -1,
	   "kv without a NAME fails");
	is_str(err.buf,
	       "metric 'x': kv: the field must be the NAME "
	       "of the \"NAME VALUE\" lines",
	       "extract_values reports the field");
	strbuf_reset(&err);

	m = metric("j", METRIC_JSON, "a[", NULL);
	ex = extractor_new(&m, &err);
	ok(!ex && contains(err.buf, "metric 'j': invalid JSON path 'a['"),
	   "a bad JSON path fails at extractor_new");
	strbuf_reset(&err);

	m = metric("j", METRIC_JSON, "a[*]", NULL);
	nr = 0;
	ok(!extract_values(&m, "{\"a\":[4,5]}", 11, &v, &nr, &alloc, &err) &&
		   nr == 2 && v[1] == 5,
	   "extract_values with a JSON path");
	strbuf_addstr(&err, "context");
	rc = extract_values(&m, "{", 1, &v, &nr, &alloc, &err);
	ok(rc == -1 && nr == 2 &&
		   contains(err.buf, "context: metric 'j': the JSON ends"),
	   "a message follows the caller's context");
	free(v);
	strbuf_release(&err);
}

/*
 * Run every extractor over the first len bytes of text: no crash or
 * out-of-bounds read (under ASan), and the error contract holds.
 */
static bool check_prefix(struct extractor **ex, size_t n, const char *file,
			 const struct strbuf *text, size_t len)
{
	char *copy = exact_copy(text->buf, len);
	bool good = true;

	for (size_t k = 0; k < n && good; k++) {
		struct strbuf err = STRBUF_INIT;
		double *v = NULL;
		size_t nr = 0, alloc = 0;
		int rc = extractor_run(ex[k], copy, len, &v, &nr, &alloc, &err);

		if (rc ? rc != -1 || nr || !err.len || strchr(err.buf, '\n')
		       : err.len != 0) {
			diag("%s, %zu bytes, extractor %zu: rc %d, err '%s'",
			     file, len, k, rc, err.buf);
			good = false;
		}
		free(v);
		strbuf_release(&err);
	}
	free(copy);
	return good;
}

/*
 * Prefixes of every fixture through every parser, a regex and a JSON
 * path: all of them for small files, an odd stride through large ones.
 */
static void test_prefixes(void)
{
	struct extractor *ex[ARRAY_SIZE(any_field) + 2];
	struct metric_spec m;
	size_t n = 0;
	bool all = true;

	for (size_t i = 0; i < ARRAY_SIZE(any_field); i++) {
		m = metric("p", METRIC_PARSER, any_field[i].parser,
			   any_field[i].field);
		ex[n++] = extractor_new(&m, NULL);
	}
	m = metric("r", METRIC_REGEX, "[:=] *([-+0-9.e]+)", NULL);
	ex[n++] = extractor_new(&m, NULL);
	m = metric("j", METRIC_JSON, "jobs[*].read.iops", NULL);
	ex[n++] = extractor_new(&m, NULL);
	for (size_t k = 0; k < n; k++)
		all = all && ex[k];
	ok(all, "an extractor for every parser");

	for (size_t i = 0; all && i < ARRAY_SIZE(parser_cases); i++) {
		const char *file = parser_cases[i].file;
		struct strbuf text = STRBUF_INIT;
		size_t len = 0, step;
		bool good, seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(parser_cases[j].file, file);
		if (seen)
			continue;
		if (read_file(file, &text)) {
			ok(false, "cannot read %s", file);
			continue;
		}
		step = text.len / 50 + 1;
		if (step > 1 && !(step % 2))
			step++;
		while ((good = check_prefix(ex, n, file, &text, len)) &&
		       len < text.len)
			len = len + step < text.len ? len + step : text.len;
		ok(good, "prefixes of %s through every extractor", file);
		strbuf_release(&text);
	}
	for (size_t k = 0; k < n; k++)
		extractor_free(ex[k]);
}

int main(void)
{
	test_parsers();
	test_regex();
	test_json();
	test_known();
	test_api();
	test_prefixes();
	done_testing();
	return exit_status();
}
