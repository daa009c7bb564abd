#ifndef MMCMP_CSV_H
#define MMCMP_CSV_H

#include <stddef.h>

struct run_data;
struct strbuf;

/*
 * csv: import of a sample table, one sample per row (RFC 4180: fields
 * separated by ',', quoted with '"' where "" is a quote, CRLF or LF line
 * ends, quoted fields may span lines; a UTF-8 byte order mark and blank
 * lines are ignored).
 *
 * The first record names the columns, in any order:
 *   label,benchmark,operation,value     required
 *   unit,better,decimals,iteration      optional
 * Other columns are ignored. `better` is "higher" or "lower" (default,
 * also for an empty field); `decimals` is 0-10 (default 2); `unit`
 * defaults to ""; `iteration` is a non-negative integer that is checked
 * but not kept (mmtests pools the samples of all iterations). Every row
 * of one benchmark and operation must agree on unit, better and decimals,
 * whichever label it belongs to.
 *
 * Errors append one line "NAME:LINE: message" to `err` (LINE is where the
 * offending record starts) and leave *runs NULL and *nr 0.
 */

/*
 * Parse len bytes of buf (no NUL needed) read from the file called name.
 * On success *runs is a new array of *nr run_data, one per label in the
 * order of first appearance, each with its ops in the order of their
 * first row and the samples in row order; run_info holds only the label.
 * The caller frees it with csv_runs_free(). Rows are looked up through a
 * hash, so the time is linear in the size of the input.
 */
int csv_parse(const char *name, const char *buf, size_t len,
	      struct run_data **runs, size_t *nr, struct strbuf *err);

/* Release every run of runs[0..nr) and free the array; NULL is a no-op. */
void csv_runs_free(struct run_data *runs, size_t nr);

#endif /* MMCMP_CSV_H */
