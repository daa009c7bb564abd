#ifndef MMCMP_CSV_H
#define MMCMP_CSV_H

#include <stddef.h>

struct run_data;
struct run_full;
struct strbuf;
struct strvec;

/*
 * csv: mmcmp's sample table, one sample per row (RFC 4180), read by
 * csv_parse() into run_data, turned into whole runs by csv_run_full()
 * and written back by csv_export(), so that an import exported again
 * gives the same bytes. Errors append one line "NAME:LINE: message" to
 * err (LINE is where the offending record starts; a field quoted in it
 * is cut to 64 bytes, its control characters written as \xNN).
 * Returned arrays are the caller's (csv_runs_free(), run_full_release()).
 */

/*
 * The format: fields separated by ',', quoted with '"' where "" is a
 * quote, CRLF or LF line ends, quoted fields may span lines; a UTF-8
 * byte order mark and blank lines are ignored. The first record names
 * the columns, in any order:
 *   label,benchmark,operation,value     required
 *   unit,better,decimals,iteration      optional
 * Other columns are ignored (csv_parse_warn() warns about each: a note,
 * or a misspelt name that would change how the rows read). `better` is "higher"
 * or "lower" (default, also for an empty field); `decimals` is 0-12 (default
 * 2), the range a config allows; `unit` defaults to ""; `iteration` is an
 * integer from 0 to 2^53 (default 0, also for an empty field) that groups the
 * samples of a label and benchmark into iterations (csv_run_full()); a file
 * without the column makes each sample its own iteration, the k-th sample of an
 * operation going to iteration k. Every row of one benchmark and
 * operation must agree on unit, better and decimals, whichever label it
 * belongs to. Labels, benchmark and operation names and units must obey
 * the limits of names.h (UTF-8 of at most 4096 bytes, what a JSON export
 * may hold, without control characters), so every import can be
 * exported and imported again.
 *
 * Parse len bytes of buf (no NUL needed) read from the file called name.
 * On success *runs is a new array of *nr run_data, one per label in the
 * order of first appearance, each with its ops in the order of their
 * first row and the samples in row order, their iteration numbers in
 * op_samples.iteration (NULL without the column); run_info holds only
 * the label.
 * The caller frees it with csv_runs_free(). Rows are looked up through a
 * hash, so the time is linear in the size of the input. On failure *runs
 * is NULL and *nr 0.
 */
int csv_parse(const char *name, const char *buf, size_t len,
	      struct run_data **runs, size_t *nr, struct strbuf *err);
/*
 * csv_parse() with a warning "NAME:LINE: column 'X' ignored; mmcmp reads
 * label, ..." in warnings (NULL: none) for each column it does not read.
 */
int csv_parse_warn(const char *name, const char *buf, size_t len,
		   struct run_data **runs, size_t *nr, struct strvec *warnings,
		   struct strbuf *err);

/* Release every run of runs[0..nr) and free the array; NULL is a no-op. */
void csv_runs_free(struct run_data *runs, size_t nr);

/*
 * Build the operations, iterations and samples of rf (zeroed by the
 * caller, who fills in rf->info) from one run of csv_parse(): rd's
 * operations in order, and one iteration per benchmark and iteration
 * number, ordered by benchmark (in the order of its first operation) and
 * then number, holding the samples of that number operation by operation
 * in row order. An iteration has job "import", status "ok", index = its
 * number, started_at as given, and no times. rd is only read.
 */
void csv_run_full(const struct run_data *rd, const char *started_at,
		  struct run_full *rf);

/*
 * Append runs as a sample table that csv_parse() reads back, for `mmcmp
 * export csv`: the header
 *   label,benchmark,operation,value,unit,better,decimals,iteration
 * then one row per sample of a measured (not warm-up) iteration that
 * compare pools by default: of a complete run, with status "ok" (a NULL
 * status counts as both). The runs of one label are pooled, as compare
 * pools them: labels in the order of their first run, then operations in
 * the order of their first appearance, then each operation's samples
 * ordered by the index of their iteration (ties in run, iteration and
 * stored order). The iteration column holds that index while no two of
 * the label's iterations of one benchmark share it, else the iteration's
 * position in that order (0, 1, ...), so the iterations of different runs
 * stay apart on import. Values are written with
 * strbuf_add_double(), so they read back exactly. Importing the table and
 * exporting it again gives the same bytes (csv_run_full() rebuilds the
 * iterations that order depends on). Operations without measured samples
 * and run metadata are not written: CSV has no place for them.
 */
void csv_export(const struct run_full *runs, size_t nr, struct strbuf *out);

/*
 * Append s to out as one RFC 4180 field: as it is, or between double
 * quotes with each quote doubled when it holds a ',', a '"', a CR or a
 * LF. Shared by csv_export() and the csv renderer (render.h).
 */
void csv_quote_field(struct strbuf *out, const char *s);

#endif /* MMCMP_CSV_H */
