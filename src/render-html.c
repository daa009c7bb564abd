/* render-html: mmtests' resultsTable tables on a standalone page. */
#include "render-internal.h"

#include <math.h>
#include <string.h>

#include "compare.h"
#include "render-cells.h"
#include "render-provenance.h"
#include "render.h"
#include "strbuf.h"
#include "strvec.h"
#include "svg.h"
#include "util.h"

#define FIELD_WIDTH  18
#define PCT_WIDTH    11
#define OPS_WIDTH    15 /* the value columns of the "Ops" table */
#define COLOR_BETTER "#A0FFA0"
#define COLOR_WORSE  "#FFA0A0"

/* Append <TAG ATTR>text</TAG> with the text escaped; attr may be "". */
static void html_cell(struct strbuf *out, const char *tag, const char *attr,
		      const struct strbuf *text)
{
	strbuf_addf(out, "<%s %s>", tag, attr);
	svg_escape(out, text->buf);
	strbuf_addf(out, "</%s>", tag);
}

/* The two header rows: the run labels split as in the text output. */
static void html_header(const struct compare_result *res, size_t lead,
			int width, const char *colspan, struct strbuf *out)
{
	struct strbuf t = STRBUF_INIT;
	size_t len1, start2;

	for (int line = 0; line < 2; line++) {
		strbuf_addstr(out, "<tr>");
		strbuf_reset(&t);
		strbuf_addchars(&t, ' ', lead);
		html_cell(out, "th", "colspan=\"2\" ", &t);
		for (size_t i = 0; i < res->runs_nr; i++) {
			render_header_label(res, i, &len1, &start2);
			strbuf_reset(&t);
			if (!line)
				strbuf_addf(&t, "%*.*s", width, (int)len1,
					    res->labels[i]);
			else
				strbuf_addf(&t, "%*s", width,
					    res->labels[i] + start2);
			html_cell(out, "th", colspan, &t);
		}
		strbuf_addstr(out, "</tr>\n");
	}
	strbuf_release(&t);
}

/* The stat label and operation cells that open a data row. */
static void html_row_start(struct strbuf *out, struct strbuf *t, int sl,
			   const char *stat, int ol, const char *name)
{
	strbuf_addstr(out, "<tr>");
	strbuf_reset(t);
	strbuf_addf(t, "%-*s", sl, stat);
	html_cell(out, "td", "", t);
	strbuf_reset(t);
	strbuf_addf(t, " %-*s", ol, name);
	html_cell(out, "td", "", t);
}

static void html_value(struct strbuf *out, struct strbuf *t, int prec, double v)
{
	strbuf_reset(t);
	render_fixed(t, FIELD_WIDTH, prec, false, isnan(v) ? 0.0 : v);
	html_cell(out, "td", "", t);
}

static void html_pct(struct strbuf *out, struct strbuf *t, double pct,
		     bool significant)
{
	strbuf_reset(t);
	strbuf_addstr(t, " (");
	render_fixed(t, 7, 2, false, pct);
	strbuf_addstr(t, "%)");
	if (significant)
		html_cell(out, "td",
			  pct > 0 ? "bgcolor=\"" COLOR_BETTER "\""
				  : "bgcolor=\"" COLOR_WORSE "\"",
			  t);
	else
		html_cell(out, "td", "", t);
}

static void html_table(const struct compare_result *res,
		       const struct compare_bench *b, struct strbuf *out)
{
	int sl = (int)b->stat_width, ol = (int)b->op_width;
	struct strbuf t = STRBUF_INIT;
	const struct compare_cell *c;
	const struct compare_side *s;
	const struct compare_op *op;

	strbuf_addstr(out, "<table class=\"resultsTable\">\n");
	html_header(res, b->stat_width + b->op_width + 1,
		    FIELD_WIDTH + PCT_WIDTH, "colspan=\"2\" ", out);
	for (size_t r = 0; r < b->rows_nr; r++) {
		const struct compare_row *row = &b->rows[r];

		op = &b->ops[row->op];
		html_row_start(out, &t, sl, row->label, ol, op->name);
		for (size_t i = 0; i < res->runs_nr; i++) {
			c = compare_cell(res, b, r, i);
			if (res->opts.test == COMPARE_TEST_MMTESTS ||
			    !isnan(c->value)) {
				html_value(out, &t, op->decimals,
					   render_plain_zero(res, op->decimals,
							     c->value));
			} else {
				/* Never 0.00 for what is not a number. */
				strbuf_reset(&t);
				strbuf_addf(&t, "%*s", FIELD_WIDTH,
					    c->missing ? "-" : "n/a");
				html_cell(out, "td", "", &t);
			}
			if (c->pct_state != STATS_PCT_OK) {
				strbuf_reset(&t);
				strbuf_addf(&t, " (%7s) ",
					    c->pct_state == STATS_PCT_NA ? "n/a"
									 : "-");
				html_cell(out, "td", "", &t);
			} else {
				html_pct(out, &t, i ? c->pct : 0.0,
					 c->significant);
			}
		}
		strbuf_addstr(out, "</tr>\n");
	}
	for (size_t o = 0; res->opts.print_significance && o < b->ops_nr; o++) {
		op = &b->ops[o];
		html_row_start(out, &t, sl, "Significant", ol, op->name);
		for (size_t i = 0; i < res->runs_nr; i++) {
			s = &op->side[i];
			html_value(out, &t, op->decimals,
				   s->significant ? 1.0 : 0.0);
			strbuf_reset(&t);
			render_verdict(&t, res, i, s);
			html_cell(out, "td", "", &t);
		}
		strbuf_addstr(out, "</tr>\n");
	}
	strbuf_addstr(out, "</table>\n");
	strbuf_release(&t);
}

/* The change block: a table of its own, one row per op and run. */
static void html_changes(const struct compare_result *res,
			 const struct compare_bench *b, struct strbuf *out)
{
	struct strvec cells = STRVEC_INIT;
	struct strbuf t = STRBUF_INIT;

	render_change_rows_shown(res, b, &cells);
	if (!cells.nr)
		goto out;
	strbuf_addstr(out, "<table class=\"changeTable\">\n<tr>");
	for (size_t k = 0; k < RENDER_CHANGE_COLS; k++) {
		strbuf_reset(&t);
		render_change_head(res, k, &t);
		html_cell(out, "th", "", &t);
	}
	strbuf_addstr(out, "</tr>\n");
	for (size_t k = 0; k < cells.nr; k++) {
		if (!(k % RENDER_CHANGE_COLS))
			strbuf_addstr(out, "<tr>");
		strbuf_reset(&t);
		strbuf_addstr(&t, cells.v[k]);
		html_cell(out, "td", "", &t);
		if (k % RENDER_CHANGE_COLS == RENDER_CHANGE_COLS - 1)
			strbuf_addstr(out, "</tr>\n");
	}
	strbuf_addstr(out, "</table>\n");
out:
	strvec_clear(&cells);
	strbuf_release(&t);
}

static void html_ratio_table(const struct compare_result *res,
			     const struct compare_bench *b, struct strbuf *out)
{
	static const char *const names[] = {"Dmean", "Dmin", "Dmax", "Gmean"};
	int ol = (int)b->op_width;
	struct strbuf t = STRBUF_INIT;
	const struct compare_ratio_footer *f;
	const struct compare_side *s;
	const struct compare_op *op;
	double v;

	strbuf_addstr(out, "<table class=\"resultsTable\">\n");
	html_header(res, 5 + b->op_width + 1, FIELD_WIDTH + PCT_WIDTH,
		    "colspan=\"2\" ", out);
	for (size_t o = 0; o < b->ops_nr; o++) {
		op = &b->ops[o];
		html_row_start(out, &t, 5, "Ratio", ol, op->name);
		for (size_t i = 0; i < res->runs_nr; i++) {
			s = &op->side[i];
			strbuf_reset(&t);
			render_fixed(&t, FIELD_WIDTH, op->decimals, false,
				     s->ratio);
			html_cell(out, "td", "", &t);
			strbuf_reset(&t);
			strbuf_addstr(&t, " (");
			render_fixed(&t, 0, 2, false, s->ratio_pct);
			strbuf_addstr(&t, "%) (");
			render_fixed(&t, 0, 2, true, s->ndiff);
			strbuf_addstr(&t, "s)");
			html_cell(out, "td", "", &t);
		}
		strbuf_addstr(out, "</tr>\n");
	}
	for (size_t k = b->has_ndiff_footer ? 0 : 3; k < ARRAY_SIZE(names);
	     k++) {
		html_row_start(out, &t, 5, names[k], ol,
			       b->higher_better ? "Higher" : "Lower");
		for (size_t i = 0; i < res->runs_nr; i++) {
			f = &b->ratio_footer[i];
			v = k == 0   ? f->dmean
			    : k == 1 ? f->dmin
			    : k == 2 ? f->dmax
				     : f->gmean;
			strbuf_reset(&t);
			render_fixed(&t, FIELD_WIDTH, b->decimals, false, v);
			html_cell(out, "td", "", &t);
			strbuf_reset(&t);
			html_cell(out, "td", "", &t);
		}
		strbuf_addstr(out, "</tr>\n");
	}
	strbuf_addstr(out, "</table>\n");
	strbuf_release(&t);
}

static void html_durations(const struct compare_result *res,
			   const struct compare_bench *b, struct strbuf *out)
{
	static const char *const names[] = {"User", "System", "Elapsed"};
	struct strbuf t = STRBUF_INIT;
	const struct compare_duration *d;

	strbuf_addstr(out, "<table class=\"resultsTable\">\n");
	html_header(res, strlen("Duration") + strlen("Elapsed") + 1,
		    FIELD_WIDTH, "", out);
	for (size_t k = 0; k < ARRAY_SIZE(names); k++) {
		html_row_start(out, &t, 8, "Duration", 7, names[k]);
		for (size_t i = 0; i < res->runs_nr; i++) {
			d = &b->durations[i];
			html_value(out, &t, 2,
				   !d->present ? NAN
				   : k == 0    ? d->user_s
				   : k == 1    ? d->sys_s
					       : d->elapsed_s);
		}
		strbuf_addstr(out, "</tr>\n");
	}
	strbuf_addstr(out, "</table>\n");
	strbuf_release(&t);
}

/* The vmstat summary of compare-kernels.sh, as the text has it. */
static void html_vmstat(const struct compare_result *res,
			const struct compare_bench *b, struct strbuf *out)
{
	struct strbuf t = STRBUF_INIT;
	int width = 0;

	for (size_t r = 0; r < COMPARE_VMSTAT_NR; r++) {
		int len = (int)strlen(compare_vmstat_label(r));

		if (len > width)
			width = len;
	}
	strbuf_addstr(out, "<table class=\"resultsTable\">\n");
	html_header(res, strlen("Ops ") + (size_t)width, OPS_WIDTH, "", out);
	for (size_t r = 0; r < COMPARE_VMSTAT_NR; r++) {
		html_row_start(out, &t, 3, "Ops", width,
			       compare_vmstat_label(r));
		for (size_t i = 0; i < res->runs_nr; i++) {
			double v = b->vmstat[r * res->runs_nr + i];

			strbuf_reset(&t);
			if (res->opts.test != COMPARE_TEST_MMTESTS &&
			    !compare_vmstat_present(res, b, i))
				strbuf_addf(&t, "%*s", OPS_WIDTH, "-");
			else
				render_fixed(&t, OPS_WIDTH, 2, false,
					     isnan(v) ? 0.0
						      : render_plain_zero(
								res, 2, v));
			html_cell(out, "td", "", &t);
		}
		strbuf_addstr(out, "</tr>\n");
	}
	strbuf_addstr(out, "</table>\n");
	strbuf_release(&t);
}

/* The page up to and with its <body> tag: the title and the style. */
static void html_page_head(const struct compare_result *res, struct strbuf *out)
{
	strbuf_addstr(out, "<!DOCTYPE html>\n"
			   "<html lang=\"en\">\n"
			   "<head>\n"
			   "<meta charset=\"utf-8\">\n"
			   "<title>mmcmp: ");
	for (size_t i = 0; i < res->runs_nr; i++) {
		if (i)
			strbuf_addstr(out, " vs ");
		svg_escape(out, res->labels[i]);
	}
	strbuf_addstr(out, "</title>\n"
			   "<style>\n"
			   "body { font-family: sans-serif; }\n"
			   "table.resultsTable { border-collapse: collapse; }\n"
			   "table.resultsTable td, table.resultsTable th {"
			   " font-family: monospace; white-space: pre;"
			   " padding: 0; }\n"
			   "table.provenance, table.changeTable {"
			   " border-collapse: collapse; margin: 0.5em 0; }\n"
			   "table.provenance td, table.provenance th,"
			   " table.changeTable td, table.changeTable th {"
			   " padding: 0 0.75em 0 0; text-align: left; }\n"
			   "p.footer { font-family: monospace; }\n"
			   "div.warning { border: 1px solid #FFA0A0;"
			   " padding: 0 1em; }\n"
			   "</style>\n"
			   "</head>\n"
			   "<body>\n");
}

/* The provenance block, or else the machine differences, if any. */
static void html_warnings(const struct compare_result *res, struct strbuf *out)
{
	if (render_html_provenance(res, out) || !res->machine_diffs.nr)
		return;
	strbuf_addstr(out, "<div class=\"warning\">\n"
			   "<p>Warning: the runs were made on different"
			   " machines or set-ups:</p>\n<ul>\n");
	for (size_t i = 0; i < res->machine_diffs.nr; i++) {
		strbuf_addstr(out, "<li>");
		svg_escape(out, res->machine_diffs.v[i]);
		strbuf_addstr(out, "</li>\n");
	}
	strbuf_addstr(out, "</ul>\n</div>\n");
}

/*
 * Every benchmark's table; on a page (page) also its heading, change
 * rows, footers and monitor tables, which the fragment has not.
 */
static void html_benches(const struct compare_result *res, bool page,
			 struct strbuf *out)
{
	struct strvec footer = STRVEC_INIT;

	for (size_t bi = 0; bi < res->bench_nr; bi++) {
		const struct compare_bench *b = &res->bench[bi];

		if (page) {
			strbuf_addstr(out, "<h2>");
			svg_escape(out, b->title);
			strbuf_addstr(out, "</h2>\n");
		}
		if (res->opts.print_ratio)
			html_ratio_table(res, b, out);
		else
			html_table(res, b, out);
		if (!page)
			continue;
		html_changes(res, b, out);
		compare_footer(res, b, &footer);
		for (size_t i = 0; i < footer.nr; i++) {
			strbuf_addstr(out, "<p class=\"footer\">");
			svg_escape(out, footer.v[i]);
			strbuf_addstr(out, "</p>\n");
		}
		strvec_clear(&footer);
		if (b->has_durations)
			html_durations(res, b, out);
		if (b->has_vmstat)
			html_vmstat(res, b, out);
	}
}

void render_html_body(const struct compare_result *res,
		      const struct render_options *opts, struct strbuf *out)
{
	(void)opts;
	html_warnings(res, out);
	html_benches(res, true, out);
}

void render_html(const struct compare_result *res,
		 const struct render_options *opts, struct strbuf *out)
{
	if (opts->html_fragment) {
		html_benches(res, false, out);
		return;
	}
	html_page_head(res, out);
	render_html_body(res, opts, out);
	strbuf_addstr(out, "</body>\n</html>\n");
}
