#ifndef MMCMP_EXPLAIN_RENDER_H
#define MMCMP_EXPLAIN_RENDER_H

#include <stdbool.h>
#include <stddef.h>

#include "explain.h"

struct explain;
struct explain_row;
struct strbuf;

/*
 * explain-render: the tables of `mmcmp explain` as text or as an
 * mmcmp-explain JSON document (docs/perf.md), written into a strbuf.
 * Nothing fails; names are escaped for the terminal in text.
 */

/* The explained profiles of one job, and their ranked rows. */
struct explain_table {
	const char *benchmark, *job;
	const struct explain *ex;
	const struct explain_row *rows;
	size_t rows_nr;
};

/* What the tables compared and how. */
struct explain_opts {
	const char *base, *other; /* the labels */
	double alpha;
	bool fdr;
	size_t limit; /* text: rows shown per table; 0: every tested one */
	enum explain_by by; /* what the tables' rows are of */
};

void explain_render_text(const struct explain_table *t, size_t nr,
			 const struct explain_opts *o, struct strbuf *out);
void explain_render_json(const struct explain_table *t, size_t nr,
			 const struct explain_opts *o, struct strbuf *out);

#endif /* MMCMP_EXPLAIN_RENDER_H */
