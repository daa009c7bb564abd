/*
 * Fuzz target: the JSON importer. A document it accepts must survive the
 * round trip json.h promises: exported again it reads back, and
 * exporting what was read back gives the same bytes.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz.h"
#include "json.h"
#include "run-data.h"
#include "strbuf.h"

#define NAME "fuzz.json"

/* Import the len bytes of text (NUL after them) and export them to out. */
static int import_export(const char *text, size_t len, struct strbuf *out,
			 struct strbuf *err)
{
	struct run_full *runs = NULL;
	struct json_export *je;
	size_t nr = 0;

	if (json_import(NAME, text, len, &runs, &nr, err)) {
		fuzz_assert(!runs && !nr, "a failed import returned runs",
			    NULL);
		return -1;
	}
	je = json_export_new();
	for (size_t i = 0; i < nr; i++)
		json_export_add_run(je, &runs[i]);
	json_export_finish(je, out);
	json_export_free(je);
	run_full_free_array(runs, nr);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf in = STRBUF_INIT, err = STRBUF_INIT, once = STRBUF_INIT,
		      twice = STRBUF_INIT;

	/* json_import() wants a NUL after the text, as a strbuf has. */
	strbuf_add(&in, data, size);
	if (import_export(in.buf, in.len, &once, &err)) {
		fuzz_check_error(err.buf, NAME ": ");
		goto out;
	}
	fuzz_assert(!import_export(once.buf, once.len, &twice, &err),
		    "an export that does not import", err.buf);
	fuzz_assert(
		once.len == twice.len && !memcmp(once.buf, twice.buf, once.len),
		"an export that changes when imported and exported", once.buf);
out:
	strbuf_release(&in);
	strbuf_release(&err);
	strbuf_release(&once);
	strbuf_release(&twice);
	return 0;
}
