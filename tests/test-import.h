#ifndef MMCMP_TEST_IMPORT_H
#define MMCMP_TEST_IMPORT_H

/*
 * test-import: what the importer tests share: parsing text with a format
 * at a fixed time, and digests of the runs it gives.
 *
 * digest: per run "label{bench/op[unit,H|L,decimals]=v,v;...}" with each
 * operation's samples in stored order; iterations: per run
 * "label:job#index=status/exit_code(samples) ..." for the iterations.
 */

#include "import.h"
#include "run-data.h"
#include "strbuf.h"
#include "tap.h"

#define TEST_NOW "2026-01-01T00:00:00Z"

/* Parse text (NUL-terminated) as fmt from the file called path. */
static inline int test_parse(const struct import_format *fmt, const char *path,
			     const char *text, const char *label_by,
			     struct run_full **runs, size_t *nr,
			     struct strbuf *err)
{
	struct import_options o = {.label_by = label_by,
				   .started_at = TEST_NOW};

	return fmt->parse(path, text, strlen(text), &o, runs, nr, err);
}

static inline void test_digest(const struct run_full *runs, size_t nr,
			       struct strbuf *out)
{
	for (size_t r = 0; r < nr; r++) {
		const struct run_full *rf = &runs[r];

		strbuf_addf(out, "%s{", rf->info.label);
		for (size_t o = 0; o < rf->ops_nr; o++) {
			const struct op_samples *op = &rf->ops[o];
			const char *sep = "";

			strbuf_addf(out, "%s/%s[%s,%c,%d]=", op->benchmark,
				    op->name, op->unit,
				    op->higher_better ? 'H' : 'L',
				    op->decimals);
			for (size_t s = 0; s < rf->samples_nr; s++) {
				if (rf->samples[s].op != o)
					continue;
				strbuf_addstr(out, sep);
				strbuf_add_double(out, rf->samples[s].value);
				sep = ",";
			}
			strbuf_addch(out, ';');
		}
		strbuf_addch(out, '}');
	}
}

static inline void test_iterations(const struct run_full *runs, size_t nr,
				   struct strbuf *out)
{
	for (size_t r = 0; r < nr; r++) {
		for (size_t i = 0; i < runs[r].iters_nr; i++) {
			const struct iteration_data *it = &runs[r].iters[i];

			strbuf_addf(out,
				    "%s%s:%s#%" PRId64 "=%s/%" PRId64 "(%zu)",
				    out->len ? " " : "", runs[r].info.label,
				    it->job, it->index, it->status,
				    it->exit_code, it->samples_nr);
		}
	}
}

#endif /* MMCMP_TEST_IMPORT_H */
