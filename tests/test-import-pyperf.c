/* Unit tests for import-pyperf: pyperf's JSON files. */
#include <stdlib.h>

#include "test-files.h"
#include "test-import.h"
#include "util.h"

#define DIR "data/import/"

/*
 * tests/data/import/pyperf-py311.json as the pyperf documentation
 * describes the format; values written by Python's json module.
 */
static void test_fixture(void)
{
	struct strbuf in = STRBUF_INIT, err = STRBUF_INIT, got = STRBUF_INIT;
	struct run_full *runs = NULL;
	size_t nr = 0;

	ok(read_file(DIR "pyperf-py311.json", &in), "fixture read");
	if (!ok(!test_parse(&import_pyperf, DIR "pyperf-py311.json", in.buf,
			    NULL, &runs, &nr, &err),
		"fixture parses"))
		diag("%s", err.buf);
	test_digest(runs, nr, &got);
	is_str(got.buf,
	       /* The values as Python's repr() prints them. */
	       "pyperf-py311{"
	       "pyperf/telco[s,L,4]=0.0225,0.022725,0.022949999999999998,"
	       "0.023175,0.0234,0.0225,0.022725,0.022949999999999998,0.023175,"
	       "0.0234,0.0225,0.022725;"
	       "pyperf/json_dumps[s,L,8]=7.71e-06,7.7871e-06,"
	       "7.864200000000002e-06,7.941300000000001e-06,"
	       "8.018400000000001e-06,7.71e-06,7.7871e-06,"
	       "7.864200000000002e-06,7.941300000000001e-06,"
	       "8.018400000000001e-06,7.71e-06,7.7871e-06;"
	       "pyperf/memory[B,L,2]=1048576,1050624,1049600;}",
	       "the file is the label, each benchmark an operation");
	strbuf_reset(&got);
	test_iterations(runs, nr, &got);
	is_str(got.buf,
	       "pyperf-py311:telco#0=ok/0(3) pyperf-py311:telco#1=ok/0(3) "
	       "pyperf-py311:telco#2=ok/0(3) pyperf-py311:telco#3=ok/0(3) "
	       "pyperf-py311:json_dumps#0=ok/0(3) "
	       "pyperf-py311:json_dumps#1=ok/0(3) "
	       "pyperf-py311:json_dumps#2=ok/0(3) "
	       "pyperf-py311:json_dumps#3=ok/0(3) "
	       "pyperf-py311:memory#0=ok/0(3)",
	       "runs with values are iterations, calibration runs are not");
	if (nr == 1 && runs[0].iters_nr == 9) {
		const struct machine_info *m = &runs[0].info.machine;

		is_str(m->hostname, "selma", "hostname");
		is_str(m->cpu_model, "Intel(R) Core(TM) i7-3520M CPU @ 2.90GHz",
		       "cpu_model_name");
		ok(m->nr_cpus == 4, "cpu_count");
		is_str(m->kernel_release, "6.1.0-13-amd64",
		       "the kernel release from platform");
		ok_near(runs[0].iters[1].elapsed_s, 0.26, 0,
			"a run's duration is the elapsed time");
		ok(runs[0].iters[1].maxrss_kb == (14663680 + 4096) / 1024,
		   "mem_max_rss is the maximum RSS");
		is_str(runs[0].ops[2].unit, "B", "unit byte is B");
	}
	run_full_free_array(runs, nr);
	strbuf_release(&in);
	strbuf_release(&err);
	strbuf_release(&got);
}

/* The .json.gz fixture, decompressed as mmcmp import does. */
static void test_gzip_fixture(void)
{
	struct strbuf raw = STRBUF_INIT, in = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT;
	struct run_full *runs = NULL;
	size_t nr = 0;

	read_file(DIR "pyperf-py312.json.gz", &raw);
	ok(import_is_gzip(raw.buf, raw.len), "the .json.gz is gzip");
	ok(!import_gunzip("p.json.gz", raw.buf, raw.len, 1 << 20, &in, NULL,
			  &err),
	   "and decompresses");
	ok(!test_parse(&import_pyperf, DIR "pyperf-py312.json.gz", in.buf,
		       "python_version", &runs, &nr, &err),
	   "and parses");
	is_str(nr ? runs[0].info.label : NULL, "3.12.1 (64-bit)",
	       "--label-by takes a metadata value");
	is_str(nr ? runs[0].info.config_name : NULL, DIR "pyperf-py312.json.gz",
	       "the config name is the file");
	run_full_free_array(runs, nr);
	strbuf_release(&raw);
	strbuf_release(&in);
	strbuf_release(&err);
}

#define RUN(v) "{\"values\":[" v "]}"
#define DOC(benchmarks)                                                        \
	"{\"version\":\"1.0\",\"metadata\":{\"name\":\"b\"},"                  \
	"\"benchmarks\":[" benchmarks "]}"

static const struct {
	const char *what, *in, *label_by, *want;
} good_cases[] = {
	{"the name in the suite metadata, runs of one benchmark",
	 DOC("{\"runs\":[" RUN("1,2") "," RUN("3") "]}"), NULL,
	 "t{pyperf/b[s,L,2]=1,2,3;}"},
	{"benchmark metadata wins over the suite's; units",
	 DOC("{\"metadata\":{\"name\":\"x\",\"unit\":\"integer\"},"
	     "\"runs\":[" RUN("5") "]}"),
	 NULL, "t{pyperf/x[,L,2]=5;}"},
	{"a run's metadata labels it",
	 DOC("{\"runs\":[{\"metadata\":{\"v\":\"a\"},\"values\":[1]},"
	     "{\"metadata\":{\"v\":2},\"values\":[2]}]}"),
	 "v", "a{pyperf/b[s,L,2]=1;}2{pyperf/b[s,L,2]=2;}"},
	{"warm-ups are left out",
	 DOC("{\"runs\":[{\"warmups\":[[1,9]],\"values\":[1]}]}"), NULL,
	 "t{pyperf/b[s,L,2]=1;}"},
};

static const struct {
	const char *what, *in, *label_by, *want;
} bad_cases[] = {
	{"not JSON", "{\"version\":", NULL, "t.json:1: invalid JSON"},
	{"no benchmarks", "{\"version\":\"1.0\"}", NULL,
	 "t.json: top level: missing member 'benchmarks'"},
	{"an old version", "{\"version\":5,\"benchmarks\":[]}", NULL,
	 "t.json: version: unsupported pyperf format version '5' (1.0 expected)"},
	{"no runs", DOC("{}"), NULL,
	 "t.json: benchmarks[0]: missing member 'runs'"},
	{"no name",
	 "{\"version\":\"1.0\",\"benchmarks\":[{\"runs\":[" RUN("1") "]}]}",
	 NULL, "t.json: benchmarks[0].metadata: no benchmark name ('name')"},
	{"a value not a number",
	 DOC("{\"runs\":[" RUN("1") "]},{\"runs\":[" RUN("1,\"2\"") "]}"), NULL,
	 "t.json: benchmarks[1].runs[0].values[1]: expected a number, found a string"},
	{"values not an array", DOC("{\"runs\":[{\"values\":1}]}"), NULL,
	 "t.json: benchmarks[0].runs[0].values: expected an array, found a number"},
	{"an unknown unit",
	 DOC("{\"metadata\":{\"unit\":\"meter\"},\"runs\":[" RUN("1") "]}"),
	 NULL,
	 "t.json: benchmarks[0].metadata: unknown unit (second, byte or integer expected)"},
	{"calibration runs only", DOC("{\"runs\":[{\"warmups\":[[1,2]]}]}"),
	 NULL, "t.json: benchmarks: no run has values"},
	{"no label metadata", DOC("{\"runs\":[" RUN("1") "]}"), "v",
	 "t.json: benchmarks[0].runs[0]: no metadata 'v'"},
};

static void test_cases(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(good_cases); i++)
		test_good(&import_pyperf, "t.json", good_cases[i].what,
			  good_cases[i].in, good_cases[i].label_by,
			  good_cases[i].want);
	for (size_t i = 0; i < ARRAY_SIZE(bad_cases); i++)
		test_bad(&import_pyperf, "t.json", bad_cases[i].what,
			 bad_cases[i].in, bad_cases[i].label_by,
			 bad_cases[i].want);
}

static const struct {
	const char *platform, *want;
} platform_cases[] = {
	{"Linux-4.9.12-200.fc25.x86_64-x86_64-with-fedora-25-Twenty_Five",
	 "4.9.12-200.fc25.x86_64"},
	{"Linux-6.1.0-13-amd64-x86_64-with-glibc2.36", "6.1.0-13-amd64"},
	{"Linux-5.15.0-aarch64", "5.15.0"},
	{"macOS-14.1-arm64-arm-64bit", NULL},
	{"Linux-x86_64", NULL},
};

static void test_platform(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(platform_cases); i++) {
		struct strbuf doc = STRBUF_INIT, err = STRBUF_INIT;
		struct run_full *runs = NULL;
		size_t nr = 0;

		strbuf_addf(&doc,
			    "{\"version\":\"1.0\",\"metadata\":{\"name\":\"b\","
			    "\"platform\":\"%s\"},\"benchmarks\":[{\"runs\":"
			    "[{\"values\":[1]}]}]}",
			    platform_cases[i].platform);
		test_parse(&import_pyperf, "t.json", doc.buf, NULL, &runs, &nr,
			   &err);
		is_str(nr ? runs[0].info.machine.kernel_release : "(failed)",
		       platform_cases[i].want, "kernel release of %s",
		       platform_cases[i].platform);
		run_full_free_array(runs, nr);
		strbuf_release(&doc);
		strbuf_release(&err);
	}
}

static void test_detect(void)
{
	static const char pyperf[] = DOC("{\"runs\":[]}");
	static const char other[] = "{\"benchmarks\":[]}";

	test_detect_one(&import_pyperf, "version and benchmarks", pyperf, true);
	test_detect_one(&import_pyperf, "not without a version", other, false);
}

int main(void)
{
	test_fixture();
	test_gzip_fixture();
	test_cases();
	test_platform();
	test_detect();
	done_testing();
	return exit_status();
}
