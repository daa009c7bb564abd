/*
 * Fuzz target: the importers of other tools' files (import.h). Each
 * format either rejects an input with a message naming the file and
 * returns nothing, or returns runs that `mmcmp export benchstat` writes
 * as text the gobench importer reads back (when any iteration has samples
 * to write); from the second export on, import and export change nothing
 * (the first may join labels that differed only in white space the
 * format cannot hold).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "export.h"
#include "fuzz.h"
#include "import.h"
#include "run-data.h"
#include "strbuf.h"

#define NAME "fuzz.in"

static const struct import_options fuzz_opts = {
	.started_at = "2024-01-01T00:00:00Z",
};

/* Read text with fmt and export it to out; -1 when it does not parse. */
static int import_export(const struct import_format *fmt,
			 const struct import_options *o, const char *text,
			 size_t len, struct strbuf *out, struct strbuf *err)
{
	struct run_full *runs = NULL;
	size_t nr = 0;

	if (fmt->parse(NAME, text, len, o, &runs, &nr, err)) {
		fuzz_assert(!runs && !nr, "a failed import returned runs",
			    NULL);
		return -1;
	}
	gobench_export(runs, nr, out);
	run_full_free_array(runs, nr);
	return 0;
}

static void fuzz_format(const struct import_format *fmt, const char *text,
			size_t len)
{
	struct import_options by_label = fuzz_opts;
	struct strbuf err = STRBUF_INIT, once = STRBUF_INIT,
		      twice = STRBUF_INIT, thrice = STRBUF_INIT;

	by_label.label_by = "label";
	fmt->detect(NAME, text, len);
	if (import_export(fmt, &fuzz_opts, text, len, &once, &err)) {
		fuzz_check_error(err.buf, NAME);
		goto out;
	}
	/* Runs whose iterations all failed have no result lines. */
	if (!strstr(once.buf, "\nBenchmark"))
		goto out;
	fuzz_assert(!import_export(&import_gobench, &by_label, once.buf,
				   once.len, &twice, &err),
		    "an export that does not import", err.buf);
	fuzz_assert(!import_export(&import_gobench, &by_label, twice.buf,
				   twice.len, &thrice, &err),
		    "a second export that does not import", err.buf);
	fuzz_assert(twice.len == thrice.len &&
			    !memcmp(twice.buf, thrice.buf, twice.len),
		    "an export that changes when imported and exported",
		    twice.buf);
out:
	strbuf_release(&err);
	strbuf_release(&once);
	strbuf_release(&twice);
	strbuf_release(&thrice);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf in = STRBUF_INIT;

	/* The parsers want a NUL after the text, as a strbuf has. */
	strbuf_add(&in, data, size);
	fuzz_format(&import_hyperfine, in.buf, in.len);
	fuzz_format(&import_gobench, in.buf, in.len);
	fuzz_format(&import_pyperf, in.buf, in.len);
	strbuf_release(&in);
	return 0;
}
