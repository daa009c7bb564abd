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

/* Two TAP lines: in parses as fmt, to runs whose digest is want. */
static inline void test_good(const struct import_format *fmt, const char *path,
			     const char *what, const char *in,
			     const char *label_by, const char *want)
{
	struct strbuf err = STRBUF_INIT, got = STRBUF_INIT;
	struct run_full *runs = NULL;
	size_t nr = 0;

	if (!ok(!test_parse(fmt, path, in, label_by, &runs, &nr, &err),
		"%s: parses", what))
		diag("%s", err.buf);
	test_digest(runs, nr, &got);
	is_str(got.buf, want, "%s: runs", what);
	run_full_free_array(runs, nr);
	strbuf_release(&got);
	strbuf_release(&err);
}

/* Two TAP lines: in fails as fmt, returns nothing, with message want. */
static inline void test_bad(const struct import_format *fmt, const char *path,
			    const char *what, const char *in,
			    const char *label_by, const char *want)
{
	struct strbuf err = STRBUF_INIT;
	struct run_full *runs = NULL;
	size_t nr = 1;
	int rc = test_parse(fmt, path, in, label_by, &runs, &nr, &err);

	ok(rc == -1 && !runs && !nr, "%s: fails, nothing returned", what);
	is_str(err.buf, want, "%s: message", what);
	strbuf_release(&err);
}

/* One TAP line: whether fmt detects the NUL-terminated in. */
static inline void test_detect_one(const struct import_format *fmt,
				   const char *what, const char *in, bool want)
{
	ok(fmt->detect("t", in, strlen(in)) == want, "detect: %s", what);
}

#endif /* MMCMP_TEST_IMPORT_H */
