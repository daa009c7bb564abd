/* render-markdown: GitHub-flavoured Markdown tables. */
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

static void md_num(struct strbuf *out, int prec, double v)
{
	render_fixed(out, 0, prec, false, v);
}

static void md_table_head(const struct compare_result *res, const char *first,
			  const char *second, struct strbuf *out)
{
	strbuf_addf(out, "| %s |", first);
	if (second)
		strbuf_addf(out, " %s |", second);
	for (size_t i = 0; i < res->runs_nr; i++) {
		strbuf_addch(out, ' ');
		render_md_escape(out, res->labels[i]);
		strbuf_addstr(out, " |");
	}
	strbuf_addstr(out, "\n|:---|");
	if (second)
		strbuf_addstr(out, ":---|");
	for (size_t i = 0; i < res->runs_nr; i++)
		strbuf_addstr(out, "---:|");
	strbuf_addch(out, '\n');
}

/* A row's first two cells: the statistic and the (escaped) name. */
static void md_row_start(struct strbuf *out, const char *stat, const char *name)
{
	strbuf_addf(out, "| %s | ", stat);
	render_md_escape(out, name);
	strbuf_addstr(out, " |");
}

static void md_cell(struct strbuf *out, const struct compare_result *res,
		    const struct compare_cell *c, int prec, bool base)
{
	strbuf_addch(out, ' ');
	/* The default modes print no 0.00 for what is not a number. */
	if (res->opts.test == COMPARE_TEST_MMTESTS || !isnan(c->value))
		md_num(out, prec,
		       isnan(c->value)
			       ? 0.0
			       : render_plain_zero(res, prec, c->value));
	else
		strbuf_addstr(out, c->missing ? "-" : "n/a");
	if (c->pct_state != STATS_PCT_OK) {
		strbuf_addstr(out,
			      c->pct_state == STATS_PCT_NA ? " (n/a)" : " (-)");
	} else if (c->significant) {
		strbuf_addstr(out, " **\\*");
		md_num(out, 2, c->pct);
		strbuf_addstr(out, "%\\***");
	} else {
		strbuf_addstr(out, " (");
		md_num(out, 2, base ? 0.0 : c->pct);
		strbuf_addstr(out, "%)");
	}
	strbuf_addstr(out, " |");
}

static void md_verdict(const struct compare_result *res,
		       const struct compare_side *s, struct strbuf *out)
{
	strbuf_addstr(out, s->significant ? " yes" : " no");
	if (res->opts.test == COMPARE_TEST_MMTESTS) {
		strbuf_addstr(out, " (ratio ");
		md_num(out, 2, s->cidiff);
		strbuf_addch(out, ')');
	} else if (s->untested != COMPARE_TESTED) {
		strbuf_addstr(out, " (untested)");
	} else {
		strbuf_addf(out, " (p=%.4g)", s->p);
	}
	strbuf_addstr(out, " |");
}

static void md_table(const struct compare_result *res,
		     const struct compare_bench *b, struct strbuf *out)
{
	const struct compare_op *op;

	md_table_head(res, "Stat", "Operation", out);
	for (size_t r = 0; r < b->rows_nr; r++) {
		const struct compare_row *row = &b->rows[r];

		op = &b->ops[row->op];
		md_row_start(out, row->label, op->name);
		for (size_t i = 0; i < res->runs_nr; i++)
			md_cell(out, res, compare_cell(res, b, r, i),
				op->decimals, !i);
		strbuf_addch(out, '\n');
	}
	if (!res->opts.print_significance)
		return;
	for (size_t o = 0; o < b->ops_nr; o++) {
		op = &b->ops[o];
		md_row_start(out, "Significant", op->name);
		strbuf_addstr(out, " |");
		for (size_t i = 1; i < res->runs_nr; i++)
			md_verdict(res, &op->side[i], out);
		strbuf_addch(out, '\n');
	}
}

/* The change block as a table of its own. */
static void md_changes(const struct compare_result *res,
		       const struct compare_bench *b, struct strbuf *out)
{
	struct strvec cells = STRVEC_INIT;
	struct strbuf head = STRBUF_INIT;

	render_change_rows_shown(res, b, &cells);
	if (!cells.nr)
		goto out;
	strbuf_addstr(out, "\n|");
	for (size_t k = 0; k < RENDER_CHANGE_COLS; k++) {
		strbuf_reset(&head);
		render_change_head(res, k, &head);
		strbuf_addf(out, " %s |", head.buf);
	}
	strbuf_addstr(out, "\n|:---|:---|---:|:---|:---|:---|:---|\n");
	for (size_t k = 0; k < cells.nr; k++) {
		strbuf_addstr(out, k % RENDER_CHANGE_COLS ? " " : "| ");
		render_md_escape(out, cells.v[k]);
		strbuf_addstr(out,
			      k % RENDER_CHANGE_COLS == RENDER_CHANGE_COLS - 1
				      ? " |\n"
				      : " |");
	}
out:
	strvec_clear(&cells);
	strbuf_release(&head);
}

static void md_ratio_table(const struct compare_result *res,
			   const struct compare_bench *b, struct strbuf *out)
{
	static const char *const names[] = {"Dmean", "Dmin", "Dmax", "Gmean"};
	const struct compare_ratio_footer *f;
	const struct compare_side *s;
	const struct compare_op *op;
	double v;

	md_table_head(res, "Stat", "Operation", out);
	for (size_t o = 0; o < b->ops_nr; o++) {
		op = &b->ops[o];
		md_row_start(out, "Ratio", op->name);
		for (size_t i = 0; i < res->runs_nr; i++) {
			s = &op->side[i];
			strbuf_addch(out, ' ');
			md_num(out, op->decimals, s->ratio);
			strbuf_addstr(out, " (");
			md_num(out, 2, s->ratio_pct);
			strbuf_addstr(out, "%) (");
			render_fixed(out, 0, 2, true, s->ndiff);
			strbuf_addstr(out, "s) |");
		}
		strbuf_addch(out, '\n');
	}
	for (size_t k = b->has_ndiff_footer ? 0 : 3; k < ARRAY_SIZE(names);
	     k++) {
		md_row_start(out, names[k],
			     b->higher_better ? "Higher" : "Lower");
		for (size_t i = 0; i < res->runs_nr; i++) {
			f = &b->ratio_footer[i];
			v = k == 0   ? f->dmean
			    : k == 1 ? f->dmin
			    : k == 2 ? f->dmax
				     : f->gmean;
			strbuf_addch(out, ' ');
			md_num(out, b->decimals, v);
			strbuf_addstr(out, " |");
		}
		strbuf_addch(out, '\n');
	}
}

static void md_durations(const struct compare_result *res,
			 const struct compare_bench *b, struct strbuf *out)
{
	static const char *const names[] = {"User", "System", "Elapsed"};
	const struct compare_duration *d;

	strbuf_addch(out, '\n');
	md_table_head(res, "Duration", NULL, out);
	for (size_t k = 0; k < ARRAY_SIZE(names); k++) {
		strbuf_addf(out, "| %s |", names[k]);
		for (size_t i = 0; i < res->runs_nr; i++) {
			d = &b->durations[i];
			strbuf_addch(out, ' ');
			md_num(out, 2,
			       !d->present ? 0.0
			       : k == 0	   ? d->user_s
			       : k == 1	   ? d->sys_s
					   : d->elapsed_s);
			strbuf_addstr(out, " |");
		}
		strbuf_addch(out, '\n');
	}
}

/* The vmstat summary of compare-kernels.sh (the "Ops" table). */
static void md_vmstat(const struct compare_result *res,
		      const struct compare_bench *b, struct strbuf *out)
{
	strbuf_addch(out, '\n');
	md_table_head(res, "Ops", NULL, out);
	for (size_t r = 0; r < COMPARE_VMSTAT_NR; r++) {
		strbuf_addf(out, "| %s |", compare_vmstat_label(r));
		for (size_t i = 0; i < res->runs_nr; i++) {
			double v = b->vmstat[r * res->runs_nr + i];

			strbuf_addch(out, ' ');
			if (res->opts.test != COMPARE_TEST_MMTESTS &&
			    !compare_vmstat_present(res, b, i))
				strbuf_addch(out, '-');
			else
				md_num(out, 2,
				       isnan(v) ? 0.0
						: render_plain_zero(res, 2, v));
			strbuf_addstr(out, " |");
		}
		strbuf_addch(out, '\n');
	}
}

void render_markdown(const struct compare_result *res,
		     const struct render_options *opts, struct strbuf *out)
{
	struct strvec footer = STRVEC_INIT;

	(void)opts;
	if (render_markdown_provenance(res, out)) {
		/* It ends with a blank line, as the warning below. */
	} else if (res->machine_diffs.nr) {
		strbuf_addstr(
			out,
			"> **Warning:** the runs were made on different machines or set-ups:\n");
		for (size_t i = 0; i < res->machine_diffs.nr; i++) {
			strbuf_addstr(out, "> - ");
			render_md_escape(out, res->machine_diffs.v[i]);
			strbuf_addch(out, '\n');
		}
		strbuf_addch(out, '\n');
	}
	for (size_t bi = 0; bi < res->bench_nr; bi++) {
		const struct compare_bench *b = &res->bench[bi];

		if (bi)
			strbuf_addch(out, '\n');
		strbuf_addstr(out, "### ");
		render_md_escape(out, b->title);
		strbuf_addstr(out, "\n\n");
		if (res->opts.print_ratio)
			md_ratio_table(res, b, out);
		else
			md_table(res, b, out);
		md_changes(res, b, out);
		compare_footer(res, b, &footer);
		for (size_t i = 0; i < footer.nr; i++) {
			strbuf_addch(out, '\n');
			render_md_escape(out, footer.v[i]);
			strbuf_addch(out, '\n');
		}
		strvec_clear(&footer);
		if (b->has_durations)
			md_durations(res, b, out);
		if (b->has_vmstat)
			md_vmstat(res, b, out);
	}
}
