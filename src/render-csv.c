/*
 * render-csv: one RFC 4180 record per table cell, then per table its
 * footer lines (notes, warnings, untested cells) as records.
 */
#include "render-internal.h"

#include <math.h>
#include <string.h>

#include "compare.h"
#include "csv.h"
#include "render-cells.h"
#include "render-provenance.h"
#include "render.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"

/* A number with 15 significant digits; empty when undefined. */
static void csv_num(struct strbuf *out, double v)
{
	if (!isnan(v) && !isinf(v))
		strbuf_addf(out, "%.15g", v);
}

/*
 * The change columns of a compared mean cell (s), empty elsewhere
 * (s NULL); none in mmtests mode.
 */
static void csv_change(struct strbuf *out, const struct compare_result *res,
		       const struct compare_side *s, size_t base_units)
{
	if (res->opts.test == COMPARE_TEST_MMTESTS)
		return;
	if (!s) {
		strbuf_addstr(out, ",,,,,,,,,");
		return;
	}
	strbuf_addch(out, ',');
	csv_num(out, s->change.change_pct);
	strbuf_addch(out, ',');
	csv_num(out, s->change.low_pct);
	strbuf_addch(out, ',');
	csv_num(out, s->change.high_pct);
	strbuf_addf(out, ",%s,", stats_verdict_name(s->verdict));
	if (!isnan(s->p_adjusted))
		strbuf_addf(out, "%.6g", s->p_adjusted);
	strbuf_addch(out, ',');
	csv_num(out, s->mde_pct);
	/* And the empty text column, for provenance records only. */
	strbuf_addf(out, ",%zu,%zu,", base_units, s->units);
}

/*
 * One footer record of table: the line in the text column, or, in
 * mmtests mode, whose columns end with n_other, in operation.
 */
static void footer_record(struct strbuf *out, bool mmtests, const char *table,
			  const char *field, const char *text)
{
	if (!mmtests) {
		render_csv_record(out, table, field, text, NULL, NULL, 13);
		return;
	}
	csv_quote_field(out, table);
	strbuf_addf(out, ",%s,", field);
	csv_quote_field(out, text);
	strbuf_addstr(out, ",,,,,,,\n");
}

/*
 * The footer lines of b that are not in its cells (compare.h): records
 * "note", "warning" and "untested" of the benchmark.
 */
static void csv_footer(const struct compare_result *res,
		       const struct compare_bench *b, bool mmtests,
		       struct strbuf *out)
{
	struct strvec untested = STRVEC_INIT;

	for (size_t i = 0; i < b->notes.nr; i++)
		footer_record(out, mmtests, b->name, "note", b->notes.v[i]);
	if (b->vmstat_note)
		footer_record(out, mmtests, b->name, "note", b->vmstat_note);
	for (size_t i = 0; i < b->warnings.nr; i++)
		footer_record(out, mmtests, b->name, "warning",
			      b->warnings.v[i]);
	compare_untested_lines(res, b, &untested);
	for (size_t i = 0; i < untested.nr; i++)
		footer_record(out, mmtests, b->name, "untested", untested.v[i]);
	strvec_clear(&untested);
}

void render_csv(const struct compare_result *res,
		const struct render_options *opts, struct strbuf *out)
{
	const struct compare_bench *b;
	const struct compare_row *row;
	const struct compare_cell *c;
	const struct compare_side *s;
	const struct compare_op *op;
	bool mean, mmtests = res->opts.test == COMPARE_TEST_MMTESTS;

	(void)opts;
	strbuf_addstr(out, "benchmark,stat,operation,label,value,pct,p,"
			   "significant,n_base,n_other");
	/* mmtests mode keeps version 1's columns: it has none of these. */
	if (res->opts.test != COMPARE_TEST_MMTESTS)
		strbuf_addstr(out, ",change_pct,ci_low_pct,ci_high_pct,"
				   "verdict,p_adjusted,mde_pct,n_base_units,"
				   "n_other_units,text");
	strbuf_addch(out, '\n');
	/* 13: the columns between value and text in that mode. */
	render_csv_provenance(res, 13, out);
	for (size_t bi = 0; bi < res->bench_nr; bi++) {
		b = &res->bench[bi];
		for (size_t r = 0; r < b->rows_nr; r++) {
			row = &b->rows[r];
			op = &b->ops[row->op];
			mean = row->stat == COMPARE_STAT_MEAN;
			for (size_t i = 0; i < res->runs_nr; i++) {
				c = compare_cell(res, b, r, i);
				s = &op->side[i];
				csv_quote_field(out, b->name);
				strbuf_addf(out, ",%s,", row->label);
				csv_quote_field(out, op->name);
				strbuf_addch(out, ',');
				csv_quote_field(out, res->labels[i]);
				strbuf_addch(out, ',');
				csv_num(out, c->value);
				strbuf_addch(out, ',');
				if (!isnan(c->value))
					csv_num(out, i ? c->pct : 0.0);
				strbuf_addch(out, ',');
				/* 6 digits: more would only show noise. */
				if (mean && !isnan(s->p))
					strbuf_addf(out, "%.6g", s->p);
				strbuf_addf(out, ",%d,%zu,%zu",
					    c->significant ? 1 : 0,
					    op->side[0].sum.n, s->sum.n);
				csv_change(out, res, mean && i ? s : NULL,
					   op->side[0].units);
				strbuf_addch(out, '\n');
			}
		}
		csv_footer(res, b, mmtests, out);
	}
}
