/* render-text: mmtests' plain-text comparison tables (PrintGeneric). */
#include "render-internal.h"

#include <math.h>
#include <string.h>

#include "compare.h"
#include "render-cells.h"
#include "render-provenance.h"
#include "render.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"

/* mmtests' field length of shellpack benchmarks, and of " (%7.2f%%)". */
#define FIELD_WIDTH 18
#define PCT_WIDTH   11
/* A column of the main and ratio tables: value and percentage. */
#define TABLE_WIDTH (FIELD_WIDTH + PCT_WIDTH)
/* The value columns of the monitor tables ("Ops ..."). */
#define OPS_WIDTH 15
/* The empty ratio and percentage cells of a --print-ratio footer row. */
#define RATIO_FOOTER_PAD 17

/*
 * The spaces column i of width characters takes in front of its cells,
 * so that its header lines fit with a space before them; none under
 * --test=mmtests, whose columns run long labels together.
 */
static size_t text_widen(const struct compare_result *res, size_t i, int width)
{
	const char *label = res->labels[i];
	size_t len1, start2, chars;

	if (res->opts.test == COMPARE_TEST_MMTESTS)
		return 0;
	render_header_label(res, i, &len1, &start2);
	chars = render_text_chars(label, len1);
	if (render_text_chars(label + start2, strlen(label + start2)) > chars)
		chars = render_text_chars(label + start2,
					  strlen(label + start2));
	return chars + 1 > (size_t)width ? chars + 1 - (size_t)width : 0;
}

/* Two header lines: the run labels split by render_header_label(). */
static void text_header(const struct compare_result *res, size_t lead,
			int width, struct strbuf *out)
{
	size_t len1, start2;

	strbuf_addchars(out, ' ', lead);
	for (size_t i = 0; i < res->runs_nr; i++) {
		render_header_label(res, i, &len1, &start2);
		render_text_cell(out, width + (int)text_widen(res, i, width),
				 res->labels[i], len1);
	}
	strbuf_addch(out, '\n');
	strbuf_addchars(out, ' ', lead);
	for (size_t i = 0; i < res->runs_nr; i++) {
		render_header_label(res, i, &len1, &start2);
		render_text_cell(out, width + (int)text_widen(res, i, width),
				 res->labels[i] + start2,
				 strlen(res->labels[i] + start2));
	}
	strbuf_addch(out, '\n');
}

/* A value cell; undefined values print as 0, as in mmtests. */
static void text_value(struct strbuf *out, int prec, double v)
{
	render_fixed(out, FIELD_WIDTH, prec, false, isnan(v) ? 0.0 : v);
}

/*
 * A value cell of the default modes (reference section 7): "-" when the
 * run lacks the operation, "n/a" when the value is undefined.
 */
static void text_cell_value(struct strbuf *out,
			    const struct compare_result *res,
			    const struct compare_cell *c, int prec)
{
	if (res->opts.test == COMPARE_TEST_MMTESTS || !isnan(c->value))
		text_value(out, prec, render_plain_zero(res, prec, c->value));
	else
		strbuf_addf(out, "%*s", FIELD_WIDTH, c->missing ? "-" : "n/a");
}

static void text_pct(struct strbuf *out, double pct, bool significant)
{
	strbuf_addstr(out, significant ? " *" : " (");
	render_fixed(out, 7, 2, false, pct);
	strbuf_addstr(out, significant ? "%*" : "%)");
}

static void text_table(const struct compare_result *res,
		       const struct compare_bench *b, struct strbuf *out)
{
	int sl = (int)b->stat_width, ol = (int)b->op_width;
	const struct compare_cell *c;
	const struct compare_op *op;

	text_header(res, b->stat_width + b->op_width + 1, TABLE_WIDTH, out);
	for (size_t r = 0; r < b->rows_nr; r++) {
		const struct compare_row *row = &b->rows[r];

		op = &b->ops[row->op];
		strbuf_addf(out, "%-*s ", sl, row->label);
		render_text_cell(out, -ol, op->name, strlen(op->name));
		for (size_t i = 0; i < res->runs_nr; i++) {
			c = compare_cell(res, b, r, i);
			strbuf_addchars(out, ' ',
					text_widen(res, i, TABLE_WIDTH));
			text_cell_value(out, res, c, op->decimals);
			if (c->pct_state != STATS_PCT_OK)
				strbuf_addf(out, " (%7s) ",
					    c->pct_state == STATS_PCT_NA ? "n/a"
									 : "-");
			else
				text_pct(out, i ? c->pct : 0.0, c->significant);
		}
		strbuf_addch(out, '\n');
	}
	if (!res->opts.print_significance)
		return;
	for (size_t o = 0; o < b->ops_nr; o++) {
		op = &b->ops[o];
		strbuf_addstr(out, "Significant ");
		render_text_cell(out, -ol, op->name, strlen(op->name));
		for (size_t i = 0; i < res->runs_nr; i++) {
			strbuf_addchars(out, ' ',
					text_widen(res, i, TABLE_WIDTH));
			text_value(out, op->decimals,
				   op->side[i].significant ? 1.0 : 0.0);
			render_verdict(out, res, i, &op->side[i]);
		}
		strbuf_addchars(out, ' ', FIELD_WIDTH);
		strbuf_addch(out, '\n');
	}
}

static void text_ratio_footer_row(const struct compare_result *res,
				  const struct compare_bench *b,
				  const char *name, size_t which,
				  struct strbuf *out)
{
	strbuf_addf(out, "%-5s %-*s", name, (int)b->op_width,
		    b->higher_better ? "Higher" : "Lower");
	for (size_t i = 0; i < res->runs_nr; i++) {
		const struct compare_ratio_footer *f = &b->ratio_footer[i];
		size_t widen = text_widen(res, i, TABLE_WIDTH);
		double v = which == 0	? f->dmean
			   : which == 1 ? f->dmin
			   : which == 2 ? f->dmax
					: f->gmean;
		strbuf_addchars(out, ' ', widen);
		render_fixed(out, FIELD_WIDTH, b->decimals, false, v);
		strbuf_addchars(out, ' ', RATIO_FOOTER_PAD);
	}
	strbuf_addch(out, '\n');
}

/* --print-ratio: mean ratios and normalised differences (reference 2.8). */
static void text_ratio_table(const struct compare_result *res,
			     const struct compare_bench *b, struct strbuf *out)
{
	const struct compare_side *s;
	const struct compare_op *op;

	text_header(res, 5 + b->op_width + 1, TABLE_WIDTH, out);
	for (size_t o = 0; o < b->ops_nr; o++) {
		op = &b->ops[o];
		strbuf_addstr(out, "Ratio ");
		render_text_cell(out, -(int)b->op_width, op->name,
				 strlen(op->name));
		for (size_t i = 0; i < res->runs_nr; i++) {
			s = &op->side[i];
			strbuf_addchars(out, ' ',
					text_widen(res, i, TABLE_WIDTH));
			render_fixed(out, FIELD_WIDTH, op->decimals, false,
				     s->ratio);
			strbuf_addstr(out, " (");
			render_fixed(out, 0, 2, false, s->ratio_pct);
			strbuf_addstr(out, "%) (");
			render_fixed(out, 0, 2, true, s->ndiff);
			strbuf_addstr(out, "s)");
		}
		strbuf_addch(out, '\n');
	}
	if (b->has_ndiff_footer) {
		text_ratio_footer_row(res, b, "Dmean", 0, out);
		text_ratio_footer_row(res, b, "Dmin", 1, out);
		text_ratio_footer_row(res, b, "Dmax", 2, out);
	}
	text_ratio_footer_row(res, b, "Gmean", 3, out);
}

/*
 * The change block under a table, one aligned line per operation and
 * compared run, two spaces between columns, the change right-aligned:
 *   ops-page_fault1_threads-2  patched  -5.23% [-7.10%, -3.36%]  ...
 */
static void text_changes(const struct compare_result *res,
			 const struct compare_bench *b, struct strbuf *out)
{
	struct strvec cells = STRVEC_INIT;
	size_t width[RENDER_CHANGE_COLS] = {0}, rows;

	render_change_rows_shown(res, b, &cells);
	rows = cells.nr / RENDER_CHANGE_COLS;
	/* Widths in characters, of the names as render_text_cell() shows them.
	 */
	for (size_t k = 0; k < cells.nr; k++) {
		size_t chars =
			render_text_chars(cells.v[k], strlen(cells.v[k]));

		if (chars > width[k % RENDER_CHANGE_COLS])
			width[k % RENDER_CHANGE_COLS] = chars;
	}
	if (rows)
		strbuf_addch(out, '\n');
	for (size_t r = 0; r < rows; r++) {
		char *const *row = cells.v + r * RENDER_CHANGE_COLS;

		render_text_cell(out, -(int)width[0], row[0], strlen(row[0]));
		strbuf_addstr(out, "  ");
		render_text_cell(out, -(int)width[1], row[1], strlen(row[1]));
		strbuf_addf(out, "  %*s %-*s  %-*s  %-*s  %s\n", (int)width[2],
			    row[2], (int)width[3], row[3], (int)width[4],
			    row[4], (int)width[5], row[5], row[6]);
	}
	strvec_clear(&cells);
}

/* The value-only Duration table of compare-kernels.sh. */
static void text_durations(const struct compare_result *res,
			   const struct compare_bench *b, struct strbuf *out)
{
	static const char *const names[] = {"User", "System", "Elapsed"};
	const struct compare_duration *d;
	double v;

	text_header(res, strlen("Duration") + strlen("Elapsed") + 1,
		    FIELD_WIDTH, out);
	for (size_t k = 0; k < ARRAY_SIZE(names); k++) {
		strbuf_addf(out, "Duration %-7s", names[k]);
		for (size_t i = 0; i < res->runs_nr; i++) {
			d = &b->durations[i];
			strbuf_addchars(out, ' ',
					text_widen(res, i, FIELD_WIDTH));
			v = k == 0   ? d->user_s
			    : k == 1 ? d->sys_s
				     : d->elapsed_s;
			text_value(out, 2, d->present ? v : NAN);
		}
		strbuf_addch(out, '\n');
	}
}

/*
 * compare-kernels.sh's vmstat table: "Ops NAME" padded to the longest
 * such label, then one value per run.
 */
static void text_vmstat(const struct compare_result *res,
			const struct compare_bench *b, struct strbuf *out)
{
	size_t lead = 0;

	for (size_t r = 0; r < COMPARE_VMSTAT_NR; r++) {
		size_t len = strlen("Ops ") + strlen(compare_vmstat_label(r));

		if (len > lead)
			lead = len;
	}
	text_header(res, lead, OPS_WIDTH, out);
	for (size_t r = 0; r < COMPARE_VMSTAT_NR; r++) {
		strbuf_addf(out, "Ops %-*s", (int)(lead - strlen("Ops ")),
			    compare_vmstat_label(r));
		for (size_t i = 0; i < res->runs_nr; i++) {
			double v = b->vmstat[r * res->runs_nr + i];

			strbuf_addchars(out, ' ',
					text_widen(res, i, OPS_WIDTH));
			if (res->opts.test != COMPARE_TEST_MMTESTS &&
			    !compare_vmstat_present(res, b, i))
				strbuf_addf(out, "%*s", OPS_WIDTH, "-");
			else
				render_fixed(out, OPS_WIDTH, 2, false,
					     isnan(v) ? 0.0
						      : render_plain_zero(
								res, 2, v));
		}
		strbuf_addch(out, '\n');
	}
}

void render_text(const struct compare_result *res,
		 const struct render_options *opts, struct strbuf *out)
{
	struct strvec footer = STRVEC_INIT;
	bool titles = opts->titles || res->bench_nr > 1;

	if (render_text_provenance(res, out)) {
		if (!titles)
			strbuf_addch(out, '\n');
	} else if (res->machine_diffs.nr) {
		strbuf_addstr(
			out,
			"Warning: the runs were made on different machines or set-ups\n");
		for (size_t i = 0; i < res->machine_diffs.nr; i++) {
			strbuf_addstr(out, "  ");
			render_text_cell(out, 0, res->machine_diffs.v[i],
					 strlen(res->machine_diffs.v[i]));
			strbuf_addch(out, '\n');
		}
		if (!titles)
			strbuf_addch(out, '\n');
	}
	for (size_t bi = 0; bi < res->bench_nr; bi++) {
		const struct compare_bench *b = &res->bench[bi];

		if (titles) {
			strbuf_addch(out, '\n');
			render_text_cell(out, 0, b->title, strlen(b->title));
			strbuf_addch(out, '\n');
		}
		if (res->opts.print_ratio)
			text_ratio_table(res, b, out);
		else
			text_table(res, b, out);
		text_changes(res, b, out);
		compare_footer(res, b, &footer);
		for (size_t i = 0; i < footer.nr; i++)
			strbuf_addf(out, "%s\n", footer.v[i]);
		strvec_clear(&footer);
		if (b->has_durations) {
			strbuf_addch(out, '\n');
			text_durations(res, b, out);
		}
		if (b->has_vmstat) {
			strbuf_addch(out, '\n');
			text_vmstat(res, b, out);
		}
	}
}
