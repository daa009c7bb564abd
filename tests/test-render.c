/*
 * Golden tests of the renderers: markdown, csv, html and the text modes
 * that have no mmtests original (welch/utest footers, edge cases), kept
 * in tests/golden/. MMCMP_UPDATE_GOLDEN=1 rewrites the files; review the
 * diff before committing it. Also checks that user strings are escaped.
 */
#include <stdlib.h>

#include "tap.h"
#include "test-files.h"
#include "compare.h"
#include "csv.h"
#include "render.h"
#include "run-data.h"
#include "strbuf.h"

/* Edge cases: n=1, a zero sample under Hmean, a missing op, -0.00. */
static const char edge_csv[] =
	"label,benchmark,operation,value,better,decimals\n"
	"v1-base,edge,single,100,lower,2\n"
	"v1-base,edge,zero,0,higher,2\n"
	"v1-base,edge,zero,10,higher,2\n"
	"v1-base,edge,zero,12,higher,2\n"
	"v1-base,edge,gone,5,lower,2\n"
	"v1-base,edge,gone,6,lower,2\n"
	"v1-base,edge,flat,7,lower,2\n"
	"v1-base,edge,flat,7,lower,2\n"
	"v1-new,edge,single,90,lower,2\n"
	"v1-new,edge,single,91,lower,2\n"
	"v1-new,edge,single,92,lower,2\n"
	"v1-new,edge,zero,11,higher,2\n"
	"v1-new,edge,zero,13,higher,2\n"
	"v1-new,edge,flat,7.00001,lower,2\n"
	"v1-new,edge,flat,7.00001,lower,2\n"
	"v1-new,edge,extra,1,lower,2\n";

/* A baseline with a single sample everywhere: no CI at all. */
static const char single_csv[] = "label,benchmark,operation,value,better\n"
				 "6.10-rc1-base,one,a,100,higher\n"
				 "6.10-rc1-base,one,b,200,higher\n"
				 "6.10-rc2-new,one,a,110,higher\n"
				 "6.10-rc2-new,one,a,111,higher\n"
				 "6.10-rc2-new,one,b,190,higher\n"
				 "6.10-rc2-new,one,b,191,higher\n";

/* User strings that each format must escape. */
static const char hostile_csv[] =
	"label,benchmark,operation,value\n"
	"<script>alert(1)</script>,<b>bench</b>,op|*_`[x](y)&amp;,1\n"
	"<script>alert(1)</script>,<b>bench</b>,op|*_`[x](y)&amp;,2\n"
	"\"a|b,\"\"c\"\"\",<b>bench</b>,op|*_`[x](y)&amp;,3\n"
	"\"a|b,\"\"c\"\"\",<b>bench</b>,op|*_`[x](y)&amp;,4\n";

static bool parse(const char *name, const char *text, size_t len,
		  struct run_data **runs, size_t *nr)
{
	struct strbuf err = STRBUF_INIT;
	bool good = !csv_parse(name, text, len, runs, nr, &err);

	if (!good)
		diag("%s", err.buf);
	strbuf_release(&err);
	return good;
}

static bool load(const char *input, struct run_data **runs, size_t *nr)
{
	struct strbuf path = STRBUF_INIT, buf = STRBUF_INIT;
	bool good;

	*runs = NULL;
	*nr = 0;
	if (!strcmp(input, "edge"))
		return parse(input, edge_csv, sizeof(edge_csv) - 1, runs, nr);
	if (!strcmp(input, "single"))
		return parse(input, single_csv, sizeof(single_csv) - 1, runs,
			     nr);
	if (!strcmp(input, "hostile"))
		return parse(input, hostile_csv, sizeof(hostile_csv) - 1, runs,
			     nr);
	strbuf_addf(&path, "data/mmtests/%s.csv", input);
	good = read_file(path.buf, &buf) &&
	       parse(path.buf, buf.buf, buf.len, runs, nr);
	strbuf_release(&path);
	strbuf_release(&buf);
	return good;
}

static const struct {
	const char *golden, *input;
	enum render_format format;
	enum compare_test test;
	bool sig, ratio, fdr, durations;
} cases[] = {
	{"wis-improve.welch.txt", "wis-improve", RENDER_TEXT,
	 COMPARE_TEST_WELCH, true, false, true, false},
	{"wis-nochange.utest.txt", "wis-nochange", RENDER_TEXT,
	 COMPARE_TEST_UTEST, true, false, false, false},
	{"trunc-regress.welch.md", "trunc-regress", RENDER_MARKDOWN,
	 COMPARE_TEST_WELCH, true, false, true, true},
	{"wis-improve.ratio.md", "wis-improve", RENDER_MARKDOWN,
	 COMPARE_TEST_MMTESTS, false, true, true, false},
	{"wis-improve.welch.csv", "wis-improve", RENDER_CSV, COMPARE_TEST_WELCH,
	 false, false, true, false},
	{"trunc-regress.mmtests.csv", "trunc-regress", RENDER_CSV,
	 COMPARE_TEST_MMTESTS, false, false, true, false},
	{"wis-improve.welch.html", "wis-improve", RENDER_HTML,
	 COMPARE_TEST_WELCH, true, false, true, true},
	{"trunc-regress.ratio.html", "trunc-regress", RENDER_HTML,
	 COMPARE_TEST_MMTESTS, false, true, true, false},
	{"edge.mmtests.txt", "edge", RENDER_TEXT, COMPARE_TEST_MMTESTS, true,
	 false, true, false},
	{"edge.welch.txt", "edge", RENDER_TEXT, COMPARE_TEST_WELCH, true, false,
	 true, false},
	{"edge.ratio.txt", "edge", RENDER_TEXT, COMPARE_TEST_MMTESTS, false,
	 true, true, false},
	{"edge.welch.csv", "edge", RENDER_CSV, COMPARE_TEST_WELCH, false, false,
	 true, false},
	{"edge.welch.md", "edge", RENDER_MARKDOWN, COMPARE_TEST_WELCH, true,
	 false, true, false},
	{"edge.welch.html", "edge", RENDER_HTML, COMPARE_TEST_WELCH, true,
	 false, true, false},
	{"single.mmtests.txt", "single", RENDER_TEXT, COMPARE_TEST_MMTESTS,
	 true, false, true, false},
	{"single.ratio.txt", "single", RENDER_TEXT, COMPARE_TEST_MMTESTS, false,
	 true, true, false},
	{"hostile.txt", "hostile", RENDER_TEXT, COMPARE_TEST_WELCH, false,
	 false, true, true},
	{"hostile.md", "hostile", RENDER_MARKDOWN, COMPARE_TEST_WELCH, true,
	 false, true, true},
	{"hostile.csv", "hostile", RENDER_CSV, COMPARE_TEST_WELCH, false, false,
	 true, false},
	{"hostile.html", "hostile", RENDER_HTML, COMPARE_TEST_WELCH, true,
	 false, true, true},
};

/* Per-run durations and differing hosts, for the cases that want them. */
static void add_extras(struct run_data *runs, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		struct bench_duration *d;

		ALLOC_GROW(runs[i].durations, runs[i].durations_nr + 1,
			   runs[i].durations_alloc);
		d = &runs[i].durations[runs[i].durations_nr++];
		memset(d, 0, sizeof(*d));
		d->benchmark = xstrdup(runs[i].ops[0].benchmark);
		d->user_s = 1.5 + (double)i;
		d->sys_s = 20.25 * (double)(i + 1);
		d->elapsed_s = 60.0 + (double)i / 3.0;
		runs[i].info.machine.hostname =
			xstrdup(i ? "<host-b>" : "host-a");
	}
}

static void render_case(size_t k, struct strbuf *out)
{
	struct compare_options opts = COMPARE_OPTIONS_INIT;
	struct compare_result res = COMPARE_RESULT_INIT;
	struct render_options ropts = RENDER_OPTIONS_INIT;
	struct strbuf err = STRBUF_INIT;
	struct run_data *runs = NULL;
	size_t nr = 0;

	if (!load(cases[k].input, &runs, &nr))
		goto out;
	if (cases[k].durations)
		add_extras(runs, nr);
	opts.test = cases[k].test;
	opts.print_significance = cases[k].sig;
	opts.print_ratio = cases[k].ratio;
	opts.fdr = cases[k].fdr;
	if (compare_runs(runs, nr, &opts, &res, &err) ||
	    render(cases[k].format, &res, &ropts, out, &err))
		diag("%s: %s", cases[k].golden, err.buf);
out:
	compare_result_release(&res);
	csv_runs_free(runs, nr);
	strbuf_release(&err);
}

/* What every format must do with the hostile strings, golden or not. */
static void test_escaping(void)
{
	static const struct {
		enum render_format format;
		const char *must, *must_not;
	} checks[] = {
		{RENDER_HTML, "&lt;script&gt;alert(1)&lt;/script&gt;",
		 "<script>"},
		{RENDER_HTML, "op|*_`[x](y)&amp;amp;", "&amp;,"},
		{RENDER_HTML, "<h2>&lt;b&gt;bench&lt;/b&gt;</h2>", "<b>"},
		{RENDER_HTML, "a|b,&quot;c&quot;", "\"c\""},
		{RENDER_MARKDOWN, "\\<script\\>alert(1)\\</script\\>",
		 "<script>"},
		{RENDER_MARKDOWN, "| a\\|b,\"c\" |", "| a|b"},
		{RENDER_MARKDOWN, "op\\|\\*\\_\\`\\[x\\](y)\\&amp;", "op|"},
		{RENDER_CSV, ",\"a|b,\"\"c\"\"\",", ",a|b,"},
		{RENDER_CSV, "<b>bench</b>,Amean,op|*_`[x](y)&amp;,", "\"<b>"},
	};

	for (size_t i = 0; i < ARRAY_SIZE(checks); i++) {
		struct compare_options opts = COMPARE_OPTIONS_INIT;
		struct compare_result res = COMPARE_RESULT_INIT;
		struct render_options ropts = RENDER_OPTIONS_INIT;
		struct strbuf out = STRBUF_INIT;
		struct run_data *runs;
		size_t nr;

		if (load("hostile", &runs, &nr) &&
		    !compare_runs(runs, nr, &opts, &res, NULL))
			render(checks[i].format, &res, &ropts, &out, NULL);
		ok(strstr(out.buf, checks[i].must) &&
			   !strstr(out.buf, checks[i].must_not),
		   "escaping %zu: has '%s', lacks '%s'", i, checks[i].must,
		   checks[i].must_not);
		compare_result_release(&res);
		csv_runs_free(runs, nr);
		strbuf_release(&out);
	}
}

int main(void)
{
	struct strbuf out = STRBUF_INIT;

	for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
		strbuf_reset(&out);
		render_case(k, &out);
		check_golden(&out, cases[k].golden);
	}
	test_escaping();
	strbuf_release(&out);
	done_testing();
	return exit_status();
}
