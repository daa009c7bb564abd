/*
 * Fuzz target: the CSV importer. An input it accepts must survive the
 * round trip that csv.h promises: exported with csv_export() it reads
 * back, and exporting what was read back gives the same bytes.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "fuzz.h"
#include "run-data.h"
#include "strbuf.h"
#include "util.h"

#define NAME "fuzz.csv"

/* Parse buf and export what it holds to out; -1 when it does not parse. */
static int parse_export(const char *buf, size_t len, struct strbuf *out,
			struct strbuf *err)
{
	struct run_data *runs = NULL;
	struct run_full *full;
	size_t nr = 0;

	if (csv_parse(NAME, buf, len, &runs, &nr, err)) {
		fuzz_assert(!runs && !nr, "a failed parse returned runs", NULL);
		return -1;
	}
	full = xcalloc(nr + 1, sizeof(*full));
	for (size_t i = 0; i < nr; i++) {
		full[i].info.label = xstrdup(runs[i].info.label);
		csv_run_full(&runs[i], "2024-01-01T00:00:00Z", &full[i]);
	}
	csv_export(full, nr, out);
	run_full_free_array(full, nr);
	csv_runs_free(runs, nr);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT, once = STRBUF_INIT,
		      twice = STRBUF_INIT;

	if (parse_export((const char *)data, size, &once, &err)) {
		fuzz_check_error(err.buf, NAME ":");
		goto out;
	}
	fuzz_assert(!parse_export(once.buf, once.len, &twice, &err),
		    "an export that does not read back", err.buf);
	fuzz_assert(
		once.len == twice.len && !memcmp(once.buf, twice.buf, once.len),
		"an export that changes when read back and exported", once.buf);
out:
	strbuf_release(&err);
	strbuf_release(&once);
	strbuf_release(&twice);
	return 0;
}
