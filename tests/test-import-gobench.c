/* Unit tests for import-gobench: the Go benchmark format, both ways. */
#include <stdlib.h>

#include "export.h"
#include "test-import.h"
#include "util.h"

static const struct {
	const char *what, *in, *label_by, *want;
} good_cases[] = {
	{"minimal, the file is the label", "BenchmarkX 10 5 ns/op\n", NULL,
	 "t{gobench/X ns/op[ns/op,L,2]=5;}"},
	{"several pairs, rates higher by default",
	 "BenchmarkX-8 10 5 ns/op 3.5 MB/s\nBenchmarkX-8 10 6 ns/op 3 MB/s\n",
	 NULL,
	 "t{gobench/X-8 ns/op[ns/op,L,2]=5,6;gobench/X-8 MB/s[MB/s,H,2]=3.5,3;}"},
	{"Unit metadata holds for the whole file",
	 "BenchmarkX 1 5 ns/op 3 MB/s\nUnit ns/op better=higher assume=exact\n"
	 "Unit MB/s better=lower\nUnit MB/s better=lower\n",
	 NULL, "t{gobench/X ns/op[ns/op,H,2]=5;gobench/X MB/s[MB/s,L,2]=3;}"},
	{"pkg is the benchmark; other text, CRLF and comments ignored",
	 "goos: linux\r\npkg: a/b\r\n# note\r\n\r\nPASS\r\n"
	 "BenchmarkX 1 5 ns/op\r\nok  \ta/b\t1.2s\r\n",
	 NULL, "t{a/b/X ns/op[ns/op,L,2]=5;}"},
	{"an empty value unsets a key",
	 "pkg: a\nBenchmarkX 1 1 u\npkg:\nBenchmarkY 1 2 u\n", NULL,
	 "t{a/X u[u,L,2]=1;gobench/Y u[u,L,2]=2;}"},
	{"not configuration: upper case, no space after the colon",
	 "Pkg: a\npkg:b\nBenchmarkX 1 1 u\n", NULL, "t{gobench/X u[u,L,2]=1;}"},
	{"lines of go test -v are text",
	 "BenchmarkX\nBenchmarkX-8 some text\n"
	 "BenchmarkX-8 3 1 u\n",
	 NULL, "t{gobench/X-8 u[u,L,2]=1;}"},
	{"a configuration key as the label",
	 "sort: old\nBenchmarkS 1 1 ns/op\nsort: new\nBenchmarkS 1 2 ns/op\n"
	 "sort: old\nBenchmarkS 1 3 ns/op\n",
	 "sort",
	 "old{gobench/S ns/op[ns/op,L,2]=1,3;}new{gobench/S ns/op[ns/op,L,2]=2;}"},
	{"decimals show three significant digits",
	 "BenchmarkX 1 0.0123 s/op 0.5 x\nBenchmarkX 1 0.02 s/op 0 x\n", NULL,
	 "t{gobench/X s/op[s/op,L,4]=0.0123,0.02;gobench/X x[x,L,3]=0.5,0;}"},
};

static const struct {
	const char *what, *in, *label_by, *want;
} bad_cases[] = {
	{"empty", "", NULL,
	 "t.txt: no benchmark results (lines 'BenchmarkNAME N VALUE UNIT...')"},
	{"no unit", "BenchmarkX 10 5\n", NULL,
	 "t.txt:1: expected VALUE UNIT pairs after the iteration count"},
	{"odd fields", "a: b\nBenchmarkX 10 5 ns/op 3\n", NULL,
	 "t.txt:2: expected VALUE UNIT pairs after the iteration count"},
	{"value not a number", "\nBenchmarkX 10 abc ns/op\n", NULL,
	 "t.txt:2: 'abc' is not a finite number"},
	{"NaN", "BenchmarkX 10 NaN ns/op\n", NULL,
	 "t.txt:1: 'NaN' is not a finite number"},
	{"no name", "Benchmark 10 5 ns/op\n", NULL,
	 "t.txt:1: no benchmark name after 'Benchmark'"},
	{"bad better", "BenchmarkX 1 1 u\nUnit ns/op better=faster\n", NULL,
	 "t.txt:2: better is 'higher' or 'lower', not 'faster'"},
	{"conflicting Unit lines",
	 "Unit ns/op better=higher\nUnit ns/op better=lower\n", NULL,
	 "t.txt:2: unit 'ns/op' is better=higher at line 1"},
	{"Unit without a unit", "Unit\n", NULL,
	 "t.txt:1: a Unit line needs a unit"},
	{"Unit metadata not KEY=VALUE", "Unit ns/op exact\n", NULL,
	 "t.txt:1: 'exact' is not KEY=VALUE"},
	{"no label key", "sort: a\nBenchmarkX 1 1 u\nsort:\nBenchmarkX 1 1 u\n",
	 "sort", "t.txt:4: no configuration 'sort' for this result"},
	{"unit not UTF-8", "BenchmarkX 1 1 \xff\n", NULL,
	 "t.txt:1: the operation name is not UTF-8"},
};

static void test_cases(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(good_cases); i++)
		test_good(&import_gobench, "dir/t.txt", good_cases[i].what,
			  good_cases[i].in, good_cases[i].label_by,
			  good_cases[i].want);
	for (size_t i = 0; i < ARRAY_SIZE(bad_cases); i++)
		test_bad(&import_gobench, "t.txt", bad_cases[i].what,
			 bad_cases[i].in, bad_cases[i].label_by,
			 bad_cases[i].want);
}

/* Each result line is an iteration, numbered per benchmark name. */
static void test_iterations_and_facts(void)
{
	static const char in[] = "cpu: Some CPU @ 3GHz\n"
				 "BenchmarkA 1 1 u 2 v\nBenchmarkB 1 3 u\n"
				 "BenchmarkA 1 4 u 5 v\n";
	struct strbuf err = STRBUF_INIT, got = STRBUF_INIT;
	struct run_full *runs = NULL;
	size_t nr = 0;

	ok(!test_parse(&import_gobench, "t.txt", in, NULL, &runs, &nr, &err),
	   "iterations: parses");
	test_iterations(runs, nr, &got);
	is_str(got.buf, "t:A#0=ok/0(2) t:B#0=ok/0(1) t:A#1=ok/0(2)",
	       "a result line is one iteration of its benchmark name");
	is_str(nr ? runs[0].info.machine.cpu_model : NULL, "Some CPU @ 3GHz",
	       "cpu: is the CPU model");
	is_str(nr ? runs[0].info.config_name : NULL, "t.txt",
	       "the config name is the file name");
	run_full_free_array(runs, nr);
	strbuf_release(&got);
	strbuf_release(&err);
}

static const struct {
	const char *what, *in;
	bool want;
} detect_cases[] = {
	{"a result line", "goos: linux\nBenchmarkX-8 10 5 ns/op\n", true},
	{"CSV", "label,benchmark,operation,value\na,b,o,1\n", false},
	{"JSON", "{\"results\": []}\n", false},
	{"a result with a bad value", "BenchmarkX 10 five ns/op\n", false},
	{"go test -v text only", "BenchmarkX\n", false},
};

static void test_detect(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(detect_cases); i++)
		test_detect_one(&import_gobench, detect_cases[i].what,
				detect_cases[i].in, detect_cases[i].want);
}

/*
 * export: a label line per label, pkg per benchmark, units on top; an
 * operation not named "NAME UNIT" has a line of its own; warm-ups and
 * failed iterations (no samples) are left out.
 */
static void test_export(void)
{
	struct import_builder b;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf d1 = STRBUF_INIT, d2 = STRBUF_INIT;
	struct run_full *runs = NULL, *back = NULL;
	struct iteration_data *it;
	size_t nr = 0, back_nr = 0, r, o1, o2, o3;

	import_builder_init(&b, "test", TEST_NOW);
	r = import_builder_run(&b, "base run", NULL);
	o1 = import_builder_op(&b, r, "pft", "X ns/op", "ns/op", false);
	o2 = import_builder_op(&b, r, "pft", "X MB/s", "MB/s", true);
	o3 = import_builder_op(&b, r, "pft", "faults cpu", "", true);
	it = import_builder_iteration(&b, r, "pft", "");
	it->warmup = true;
	import_builder_sample(&b, r, o1, 99);
	import_builder_iteration(&b, r, "pft", "");
	import_builder_sample(&b, r, o1, 1.25);
	import_builder_sample(&b, r, o2, 3);
	/* Two samples of one iteration: one value, their harmonic mean. */
	import_builder_sample(&b, r, o3, 2);
	import_builder_sample(&b, r, o3, 6);
	it = import_builder_iteration(&b, r, "pft", "");
	free(it->status);
	it->status = xstrdup("exit");
	r = import_builder_run(&b, "new", NULL);
	o1 = import_builder_op(&b, r, "other", "Y s", "s", false);
	import_builder_iteration(&b, r, "other", "");
	import_builder_sample(&b, r, o1, 0.1);
	import_builder_finish(&b, "t", "", 0, &runs, &nr);
	import_builder_release(&b);
	gobench_export(runs, nr, &out);
	is_str(out.buf,
	       "Unit ns/op better=lower\nUnit MB/s better=higher\n"
	       "Unit - better=higher\nUnit s better=lower\n\n"
	       "label: base run\npkg: pft\n"
	       "BenchmarkX 1 1.25 ns/op 3 MB/s\n"
	       "Benchmarkfaults_cpu 1 3 -\n\n"
	       "label: new\npkg: other\nBenchmarkY 1 0.1 s\n",
	       "export writes the Go benchmark format");
	ok(!test_parse(&import_gobench, "t", out.buf, "label", &back, &back_nr,
		       &err),
	   "the export imports with --label-by label");
	test_digest(back, back_nr, &d1);
	is_str(d1.buf,
	       "base run{pft/X ns/op[ns/op,L,2]=1.25;pft/X MB/s[MB/s,H,2]=3;"
	       "pft/faults_cpu -[-,H,2]=3;}new{other/Y s[s,L,3]=0.1;}",
	       "and reads back its labels, benchmarks, values and directions");
	strbuf_reset(&out);
	gobench_export(back, back_nr, &out);
	run_full_free_array(back, back_nr);
	ok(!test_parse(&import_gobench, "t", out.buf, "label", &back, &back_nr,
		       &err),
	   "a second round trip parses");
	test_digest(back, back_nr, &d2);
	is_str(d2.buf, d1.buf, "a second round trip changes nothing");
	run_full_free_array(back, back_nr);
	run_full_free_array(runs, nr);
	strbuf_release(&out);
	strbuf_release(&err);
	strbuf_release(&d1);
	strbuf_release(&d2);
}

int main(void)
{
	test_cases();
	test_iterations_and_facts();
	test_detect();
	test_export();
	done_testing();
	return exit_status();
}
