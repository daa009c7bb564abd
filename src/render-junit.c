/*
 * render-junit: the comparison as JUnit XML (the common schema CI
 * systems read: testsuites > testsuite > testcase, failure, skipped).
 */
#include "render-internal.h"

#include <math.h>
#include <string.h>

#include "compare.h"
#include "gate.h"
#include "names.h"
#include "render-cells.h"
#include "render.h"
#include "strbuf.h"
#include "strvec.h"
#include "svg.h"

/*
 * Append s for XML text or a quoted attribute: control characters as
 * names_escape() writes them (XML 1.0 has no way to carry most of them),
 * then the five predefined entities (svg_escape()).
 */
static void xml_escape(struct strbuf *out, const char *s)
{
	struct strbuf safe = STRBUF_INIT;

	names_escape(&safe, s, strlen(s));
	svg_escape(out, safe.buf);
	strbuf_release(&safe);
}

/* The counts of one suite, or of all of them. */
struct junit_counts {
	size_t tests, failures, skipped;
};

static void count_bench(const struct compare_result *res,
			const struct compare_bench *b,
			enum gate_fail_on fail_on, struct junit_counts *n)
{
	for (size_t o = 0; o < b->ops_nr; o++) {
		for (size_t i = 1; i < res->runs_nr; i++) {
			enum stats_verdict v = b->ops[o].side[i].verdict;

			n->tests++;
			if (gate_side(fail_on, &b->ops[o], i) != GATE_PASS)
				n->failures++;
			else if (v == STATS_VERDICT_UNTESTED)
				n->skipped++;
		}
	}
}

static void counts_attrs(struct strbuf *out, const struct junit_counts *n)
{
	strbuf_addf(out,
		    " tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
		    "skipped=\"%zu\" time=\"0\"",
		    n->tests, n->failures, n->skipped);
}

static void junit_bench(const struct compare_result *res,
			const struct compare_bench *b,
			enum gate_fail_on fail_on, struct strbuf *out)
{
	struct junit_counts n = {0};
	struct strvec cells = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;

	count_bench(res, b, fail_on, &n);
	render_change_rows(res, b, &cells);
	strbuf_addstr(out, "  <testsuite name=\"");
	xml_escape(out, b->name);
	strbuf_addch(out, '"');
	counts_attrs(out, &n);
	strbuf_addstr(out, ">\n");
	for (size_t o = 0; o < b->ops_nr; o++) {
		const struct compare_op *op = &b->ops[o];

		for (size_t i = 1; i < res->runs_nr; i++) {
			enum stats_verdict v = op->side[i].verdict;
			size_t k = o * (res->runs_nr - 1) + (i - 1);
			bool fails = gate_side(fail_on, op, i) != GATE_PASS;

			strbuf_addstr(out, "    <testcase classname=\"");
			xml_escape(out, b->name);
			strbuf_addstr(out, "\" name=\"");
			xml_escape(out, op->name);
			strbuf_addstr(out, " (");
			xml_escape(out, res->labels[i]);
			strbuf_addstr(out, ")\" time=\"0\"");
			if (!fails && v != STATS_VERDICT_UNTESTED) {
				strbuf_addstr(out, "/>\n");
				continue;
			}
			strbuf_reset(&sb);
			render_gate_detail(res, &op->side[i], &cells, k, &sb);
			strbuf_addf(out, ">\n      <%s message=\"",
				    fails ? "failure" : "skipped");
			xml_escape(out, sb.buf);
			strbuf_addch(out, '"');
			if (!fails) {
				strbuf_addstr(out, "/>\n    </testcase>\n");
				continue;
			}
			strbuf_addf(out, " type=\"%s\">",
				    stats_verdict_name(v));
			xml_escape(out, sb.buf);
			if (!isnan(op->side[i].p_adjusted))
				strbuf_addf(out, "; p adjusted %.4g",
					    op->side[i].p_adjusted);
			strbuf_addstr(out, "</failure>\n    </testcase>\n");
		}
	}
	strbuf_addstr(out, "  </testsuite>\n");
	strvec_clear(&cells);
	strbuf_release(&sb);
}

void render_junit(const struct compare_result *res,
		  const struct render_options *opts, struct strbuf *out)
{
	struct junit_counts all = {0};

	for (size_t bi = 0; bi < res->bench_nr; bi++)
		if (!res->bench[bi].monitor)
			count_bench(res, &res->bench[bi], opts->fail_on, &all);
	strbuf_addstr(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			   "<testsuites name=\"mmcmp compare\"");
	counts_attrs(out, &all);
	strbuf_addstr(out, ">\n");
	for (size_t bi = 0; bi < res->bench_nr; bi++)
		if (!res->bench[bi].monitor)
			junit_bench(res, &res->bench[bi], opts->fail_on, out);
	strbuf_addstr(out, "</testsuites>\n");
}
