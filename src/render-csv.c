/* render-csv: one RFC 4180 record per table cell. */
#include "render-internal.h"

#include <math.h>
#include <string.h>

#include "compare.h"
#include "csv.h"
#include "strbuf.h"
#include "util.h"

/* A number with 15 significant digits; empty when undefined. */
static void csv_num(struct strbuf *out, double v)
{
	if (!isnan(v) && !isinf(v))
		strbuf_addf(out, "%.15g", v);
}

void render_csv(const struct compare_result *res,
		const struct render_options *opts, struct strbuf *out)
{
	const struct compare_bench *b;
	const struct compare_row *row;
	const struct compare_cell *c;
	const struct compare_side *s;
	const struct compare_op *op;
	bool mean;

	(void)opts;
	strbuf_addstr(out, "benchmark,stat,operation,label,value,pct,p,"
			   "significant,n_base,n_other\n");
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
				strbuf_addf(out, ",%d,%zu,%zu\n",
					    c->significant ? 1 : 0,
					    op->side[0].sum.n, s->sum.n);
			}
		}
	}
}
