/*
 * render-github: the comparison for GitHub Actions: one workflow command
 * per row that qualifies under --fail-on (regression when none is given:
 * the summary says so; "::error" for a change,
 * "::warning" for an unsure row), then a Markdown summary for
 * $GITHUB_STEP_SUMMARY with a table of those rows.
 */
#include "render-internal.h"

#include <string.h>

#include "compare.h"
#include "gate.h"
#include "names.h"
#include "render-cells.h"
#include "render.h"
#include "strbuf.h"
#include "strvec.h"

/*
 * Append s as a workflow command's message (property false) or property
 * value: '%', '\r' and '\n' percent-encoded, and in a property also ':'
 * and ','; other control characters as names_escape() writes them.
 */
static void gh_escape(struct strbuf *out, const char *s, bool property)
{
	for (; *s; s++) {
		if (*s == '%')
			strbuf_addstr(out, "%25");
		else if (*s == '\r')
			strbuf_addstr(out, "%0D");
		else if (*s == '\n')
			strbuf_addstr(out, "%0A");
		else if (property && *s == ':')
			strbuf_addstr(out, "%3A");
		else if (property && *s == ',')
			strbuf_addstr(out, "%2C");
		else
			names_escape(out, s, 1);
	}
}

static void summary_row(struct strbuf *md, const struct compare_bench *b,
			const char *op, const char *label,
			const struct strvec *cells, size_t k,
			enum stats_verdict v)
{
	char *const *c = (k + 1) * RENDER_CHANGE_COLS <= cells->nr
				 ? cells->v + k * RENDER_CHANGE_COLS
				 : NULL;

	strbuf_addstr(md, "| ");
	render_md_escape(md, b->name);
	strbuf_addstr(md, " | ");
	render_md_escape(md, op);
	strbuf_addstr(md, " | ");
	render_md_escape(md, label);
	for (size_t j = 2; j < RENDER_CHANGE_COLS - 1; j++) {
		strbuf_addstr(md, " | ");
		render_md_escape(md, c ? c[j] : "-");
	}
	strbuf_addf(md, " | %s |\n", stats_verdict_name(v));
}

void render_github(const struct compare_result *res,
		   const struct render_options *opts, struct strbuf *out)
{
	struct strbuf md = STRBUF_INIT, sb = STRBUF_INIT;
	struct strvec cells = STRVEC_INIT;
	struct gate_summary sum;

	gate_decide(res, opts->fail_on, &sum);
	for (size_t bi = 0; bi < res->bench_nr; bi++) {
		const struct compare_bench *b = &res->bench[bi];

		if (b->monitor)
			continue;
		strvec_clear(&cells);
		render_change_rows(res, b, &cells);
		for (size_t o = 0; o < b->ops_nr; o++) {
			const struct compare_op *op = &b->ops[o];

			for (size_t i = 1; i < res->runs_nr; i++) {
				enum stats_verdict v = op->side[i].verdict;
				enum gate_decision d =
					gate_side(opts->fail_on, op, i);
				size_t k = o * (res->runs_nr - 1) + (i - 1);

				if (d == GATE_PASS)
					continue;
				strbuf_addstr(out, d == GATE_FAIL
							   ? "::error"
							   : "::warning");
				strbuf_addstr(out, " title=");
				gh_escape(out, "mmcmp compare: ", true);
				gh_escape(out, b->name, true);
				strbuf_addstr(out, "::");
				strbuf_reset(&sb);
				strbuf_addf(&sb, "%s: %s (%s) ", b->name,
					    op->name, res->labels[i]);
				render_gate_detail(res, &op->side[i], &cells, k,
						   &sb);
				gh_escape(out, sb.buf, false);
				strbuf_addch(out, '\n');
				summary_row(&md, b, op->name, res->labels[i],
					    &cells, k, v);
			}
		}
	}
	if (opts->fail_on_given)
		strbuf_addf(out, "\n### mmcmp compare: --fail-on %s\n\n",
			    gate_fail_on_nth(opts->fail_on));
	else
		strbuf_addf(out,
			    "\n### mmcmp compare: the rows --fail-on %s "
			    "would fail\n\nNo --fail-on was given: the exit "
			    "status is 0 whatever the rows.\n\n",
			    gate_fail_on_nth(opts->fail_on));
	if (!sum.tested)
		strbuf_addf(out,
			    "None of the %zu rows could be tested: the "
			    "comparison was not made.\n",
			    sum.rows);
	else
		strbuf_addf(out,
			    "%zu of %zu rows qualify (%zu tested): %zu worse, "
			    "%zu better, %zu same, %zu inconclusive, %zu "
			    "untested.\n",
			    sum.failed + sum.unsure, sum.rows, sum.tested,
			    sum.verdicts[STATS_VERDICT_WORSE],
			    sum.verdicts[STATS_VERDICT_BETTER],
			    sum.verdicts[STATS_VERDICT_SAME],
			    sum.verdicts[STATS_VERDICT_INCONCLUSIVE],
			    sum.verdicts[STATS_VERDICT_UNTESTED]);
	if (md.len) {
		strbuf_addstr(out, "\n| benchmark | operation | label | "
				   "change | ");
		render_change_head(res, 3, out);
		strbuf_addstr(out, " | p | n | verdict |\n"
				   "|---|---|---|---:|---|---|---|---|\n");
		strbuf_add(out, md.buf, md.len);
	}
	strvec_clear(&cells);
	strbuf_release(&md);
	strbuf_release(&sb);
}
