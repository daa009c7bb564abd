/* Unit tests for import-hyperfine: hyperfine --export-json documents. */
#include <stdlib.h>

#include "test-files.h"
#include "strvec.h"
#include "test-import.h"
#include "util.h"

#define DIR "data/import/"

/* Real outputs of Debian's hyperfine 1.15 (tests/data/import/). */
static const struct {
	const char *file, *label_by, *want, *iters;
} fixture_cases[] = {
	{"hyperfine-commands.json", NULL,
	 "sleep 0.01{hyperfine/time[s,L,4]=0.017506426000000002,0.0121089,"
	 "0.016419390000000002,0.012115505,0.011625784;}"
	 "sleep 0.02{hyperfine/time[s,L,4]=0.023506810000000003,0.021543982,"
	 "0.022392659000000002,0.021594754,0.027947589000000002;}",
	 NULL},
	{"hyperfine-scan.json", "n",
	 "1{hyperfine/time[s,L,5]=0.025897544560000003,0.008716543560000001,"
	 "0.008295018559999999;}2{hyperfine/time[s,L,4]=0.01736208356,"
	 "0.01635749856,0.01617234156;}3{hyperfine/time[s,L,4]=0.02607491356,"
	 "0.02623279356,0.027676405560000002;}",
	 NULL},
	{"hyperfine-failing.json", NULL, NULL,
	 "ok/0(1) exit/1(0) ok/0(1) exit/1(0) ok/0(1) ok/0(1) ok/0(1) ok/0(1)"},
};

static void test_fixtures(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(fixture_cases); i++) {
		struct strbuf in = STRBUF_INIT, path = STRBUF_INIT;
		struct strbuf err = STRBUF_INIT, got = STRBUF_INIT;
		struct run_full *runs = NULL;
		size_t nr = 0;

		strbuf_addf(&path, DIR "%s", fixture_cases[i].file);
		ok(read_file(path.buf, &in), "%s: read", path.buf);
		if (!ok(!test_parse(&import_hyperfine, path.buf, in.buf,
				    fixture_cases[i].label_by, &runs, &nr,
				    &err),
			"%s: parses", path.buf))
			diag("%s", err.buf);
		if (fixture_cases[i].want) {
			test_digest(runs, nr, &got);
			is_str(got.buf, fixture_cases[i].want, "%s: runs",
			       path.buf);
		}
		if (fixture_cases[i].iters) {
			strbuf_reset(&got);
			/* Only outcomes: the failing command is long. */
			for (size_t r = 0; r < nr; r++)
				for (size_t k = 0; k < runs[r].iters_nr; k++)
					strbuf_addf(
						&got, "%s%s/%" PRId64 "(%zu)",
						got.len ? " " : "",
						runs[r].iters[k].status,
						runs[r].iters[k].exit_code,
						runs[r].iters[k].samples_nr);
			is_str(got.buf, fixture_cases[i].iters,
			       "%s: iterations", path.buf);
		}
		run_full_free_array(runs, nr);
		strbuf_release(&in);
		strbuf_release(&path);
		strbuf_release(&got);
		strbuf_release(&err);
	}
}

/* Times, user and system means go to the iterations (Duration table). */
static void test_times(void)
{
	struct strbuf in = STRBUF_INIT, err = STRBUF_INIT;
	struct run_full *runs = NULL;
	size_t nr = 0;

	read_file(DIR "hyperfine-commands.json", &in);
	ok(!test_parse(&import_hyperfine, "h.json", in.buf, NULL, &runs, &nr,
		       &err),
	   "times: parses");
	ok(nr == 2 && runs[0].iters_nr == 5, "one iteration per time");
	if (nr == 2 && runs[0].iters_nr == 5) {
		ok_near(runs[0].iters[0].elapsed_s, 0.017506426000000002, 0,
			"elapsed is the time");
		ok_near(runs[0].iters[4].user_s, 0.0011791999999999998, 0,
			"user is the mean user time");
		ok_near(runs[1].iters[0].user_s, 0.0012676, 0,
			"of the run's own command");
		ok_near(runs[0].iters[0].sys_s, 0, 0, "system likewise");
		is_str(runs[0].info.config_name, "h.json",
		       "config name: the file");
	}
	run_full_free_array(runs, nr);
	strbuf_release(&in);
	strbuf_release(&err);
}

static const struct {
	const char *what, *in, *label_by, *want;
} good_cases[] = {
	{"label by a parameter, the others name the operations",
	 "{\"results\":[{\"command\":\"c 1 a\",\"times\":[1],"
	 "\"parameters\":{\"n\":\"1\",\"mode\":\"a\"}},"
	 "{\"command\":\"c 1 b\",\"times\":[2],"
	 "\"parameters\":{\"n\":\"1\",\"mode\":\"b\"}},"
	 "{\"command\":\"c 2 a\",\"times\":[3],"
	 "\"parameters\":{\"n\":2,\"mode\":\"a\"}}]}",
	 "mode",
	 "a{hyperfine/n=1[s,L,2]=1;hyperfine/n=2[s,L,2]=3;}"
	 "b{hyperfine/n=1[s,L,2]=2;}"},
	{"without --label-by, parameters do not name the operation",
	 "{\"results\":[{\"command\":\"c\",\"times\":[0.5],"
	 "\"parameters\":{\"n\":\"1\"}}]}",
	 NULL, "c{hyperfine/time[s,L,3]=0.5;}"},
	{"null exit codes (signals) and failures have no sample",
	 "{\"results\":[{\"command\":\"c\",\"times\":[1,2,3],"
	 "\"exit_codes\":[0,null,2]}]}",
	 NULL, "c{hyperfine/time[s,L,2]=1;}"},
	{"unknown members are left alone",
	 "{\"results\":[{\"command\":\"c\",\"times\":[1],"
	 "\"memory_usage_byte\":[5],\"mean\":1}],\"other\":true}",
	 NULL, "c{hyperfine/time[s,L,2]=1;}"},
};

static const struct {
	const char *what, *in, *label_by, *want;
} bad_cases[] = {
	{"not JSON", "{\n\"results\": [1,,2]}\n", NULL,
	 "t.json: invalid JSON near line 2, column 15"},
	{"text after it", "{\"results\":[]}\nx", NULL,
	 "t.json: unexpected text after the JSON value at line 2, column 1"},
	{"not an object", "[]", NULL,
	 "t.json: top level: expected an object, found an array"},
	{"no results", "{}", NULL,
	 "t.json: top level: missing member 'results'"},
	{"empty results", "{\"results\":[]}", NULL,
	 "t.json: results: no results"},
	{"no command", "{\"results\":[{\"times\":[1]}]}", NULL,
	 "t.json: results[0]: missing member 'command'"},
	{"a time not a number",
	 "{\"results\":[{\"command\":\"c\",\"times\":[1]},"
	 "{\"command\":\"c\",\"times\":[1,\"x\"]}]}",
	 NULL,
	 "t.json: results[1].times[1]: expected a number, found a string"},
	{"a negative time",
	 "{\"results\":[{\"command\":\"c\",\"times\":[-1]}]}", NULL,
	 "t.json: results[0].times[0]: a time cannot be negative"},
	{"a time out of range",
	 "{\"results\":[{\"command\":\"c\",\"times\":[1e999]}]}", NULL,
	 "t.json: results[0].times[0]: the number is out of range"},
	{"exit codes and times differ in number",
	 "{\"results\":[{\"command\":\"c\",\"times\":[1,2],\"exit_codes\":[0]}]}",
	 NULL, "t.json: results[0]: 1 exit codes for 2 times"},
	{"an exit code not an integer",
	 "{\"results\":[{\"command\":\"c\",\"times\":[1],\"exit_codes\":[1.5]}]}",
	 NULL, "t.json: results[0].exit_codes[0]: not an integer exit code"},
	{"user not a number",
	 "{\"results\":[{\"command\":\"c\",\"times\":[1],\"user\":\"1\"}]}",
	 NULL, "t.json: results[0].user: expected a number, found a string"},
	{"no such parameter",
	 "{\"results\":[{\"command\":\"c\",\"times\":[1],"
	 "\"parameters\":{\"m\":\"1\"}}]}",
	 "n", "t.json: results[0].parameters: no parameter 'n'"},
	{"a parameter not a scalar",
	 "{\"results\":[{\"command\":\"c\",\"times\":[1],"
	 "\"parameters\":{\"n\":{}}}]}",
	 "n",
	 "t.json: results[0].parameters.n: expected a string or a number, found an object"},
	{"an empty command", "{\"results\":[{\"command\":\"\",\"times\":[1]}]}",
	 NULL, "t.json: results[0]: the label is empty"},
	{"a message stays on one line",
	 "{\"results\":[{\"command\":\"c\",\"times\":[1],"
	 "\"parameters\":{\"a\\nb\":[]}}]}",
	 "n",
	 "t.json: results[0].parameters.a\\x0ab: expected a string or a number, found an array"},
	{"an exit code out of range",
	 "{\"results\":[{\"command\":\"c\",\"times\":[1,2],"
	 "\"exit_codes\":[0,1e30]}]}",
	 NULL, "t.json: results[0].exit_codes[1]: not an integer exit code"},
	/* As strict as mmcmp's own import (N16, N6). */
	{"a command holds \\u0000, which would cut it short",
	 "{\"results\":[{\"command\":\"a\\u0000b\",\"times\":[1]}]}", NULL,
	 "t.json: line 1, column 26: a string holds \\u0000"},
	{"a command twice in a result",
	 "{\"results\":[{\"command\":\"a\",\"command\":\"b\",\"times\":[1]}]}",
	 NULL, "t.json: results[0]: duplicate member 'command'"},
	{"results twice",
	 "{\"results\":[{\"command\":\"a\",\"times\":[1]}],\"results\":[]}",
	 NULL, "t.json: top level: duplicate member 'results'"},
	{"a parameter twice",
	 "{\"results\":[{\"command\":\"a\",\"times\":[1],"
	 "\"parameters\":{\"n\":1,\"n\":2}}]}",
	 "n", "t.json: results[0].parameters: duplicate member 'n'"},
	{"a negative user time",
	 "{\"results\":[{\"command\":\"c\",\"times\":[1],\"user\":-1}]}", NULL,
	 "t.json: results[0].user: -1 is out of range (0 to 1e9 seconds)"},
	{"a system time that cannot be exported",
	 "{\"results\":[{\"command\":\"c\",\"times\":[1],\"system\":1e308}]}",
	 NULL,
	 "t.json: results[0].system: 1e+308 is out of range (0 to 1e9 seconds)"},
	{"a command not UTF-8 (a label by parameter)",
	 "{\"results\":[{\"command\":\"\xff\",\"times\":[1],"
	 "\"parameters\":{\"n\":1}}]}",
	 "n", "t.json: results[0]: the command is not UTF-8"},
};

static void test_cases(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(good_cases); i++)
		test_good(&import_hyperfine, "t.json", good_cases[i].what,
			  good_cases[i].in, good_cases[i].label_by,
			  good_cases[i].want);
	for (size_t i = 0; i < ARRAY_SIZE(bad_cases); i++)
		test_bad(&import_hyperfine, "t.json", bad_cases[i].what,
			 bad_cases[i].in, bad_cases[i].label_by,
			 bad_cases[i].want);
}

/* Two results of one command merge under its label, with a warning. */
static void test_merge_warning(void)
{
	static const char in[] =
		"{\"results\":[{\"command\":\"c\",\"times\":[1]},"
		"{\"command\":\"d\",\"times\":[2]},"
		"{\"command\":\"c\",\"times\":[3]}]}";
	struct strvec warnings = STRVEC_INIT;
	struct import_options o = {.started_at = TEST_NOW,
				   .warnings = &warnings};
	struct strbuf err = STRBUF_INIT, got = STRBUF_INIT;
	struct run_full *runs = NULL;
	size_t nr = 0;

	ok(!import_hyperfine.parse("t.json", in, strlen(in), &o, &runs, &nr,
				   &err),
	   "a command twice: parses");
	test_digest(runs, nr, &got);
	is_str(got.buf,
	       "c{hyperfine/time[s,L,2]=1,3;}d{hyperfine/time[s,L,2]=2;}",
	       "its times merge");
	ok(warnings.nr == 1, "one warning");
	is_str(warnings.nr ? warnings.v[0] : NULL,
	       "t.json: results[2]: the command of an earlier result again; "
	       "their times merge under label 'c'",
	       "that says where and which label");
	run_full_free_array(runs, nr);
	strvec_clear(&warnings);
	strbuf_release(&got);
	strbuf_release(&err);
}

static const struct {
	const char *what, *in;
	bool want;
} detect_cases[] = {
	{"results array", "{\"results\": [1]}", true},
	{"mmcmp export", "{\"format\": \"mmcmp-export\", \"results\": []}",
	 false},
	{"results not an array", "{\"results\": 1}", false},
	{"not JSON", "\"results\" here", false},
	{"pyperf", "{\"version\": \"1.0\", \"benchmarks\": []}", false},
	/* A scan of the top-level members, no tree (N2). */
	{"results after nested members",
	 "{\"x\": {\"format\": [\"}\"], \"results\": 1}, \"results\": [1]}",
	 true},
	{"format after results",
	 "{\"results\": [{\"a\": \"]\"}], \"y\": \"\\\"\", \"format\": 4}",
	 false},
	{"a document cut short, after results", "{\"results\": [1, 2", true},
	{"results only nested", "{\"x\": {\"results\": []}}", false},
};

static void test_detect(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(detect_cases); i++)
		test_detect_one(&import_hyperfine, detect_cases[i].what,
				detect_cases[i].in, detect_cases[i].want);
}

int main(void)
{
	test_fixtures();
	test_times();
	test_cases();
	test_merge_warning();
	test_detect();
	done_testing();
	return exit_status();
}
