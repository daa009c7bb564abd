#ifndef MMCMP_EXPORT_H
#define MMCMP_EXPORT_H

#include <stdbool.h>
#include <stddef.h>

struct compare_result;
struct run_full;
struct strbuf;

/*
 * export: the formats of `mmcmp export`, one `struct export_format` per
 * file (export-json.c, export-csv.c, export-benchstat.c) in one table,
 * export_formats[] in export.c, beside import.c's import_formats[].
 * An export is written as export_new(), export_add_run() for each run
 * in order, export_add_compare() when the format takes one, then
 * export_finish() to append it to a strbuf and export_free(). Nothing
 * fails: allocation failure aborts. The bytes of every format are
 * documented in docs/ and locked by the tests.
 */

/* The runs of an export kept whole, for the formats that pool them. */
struct export_runs {
	struct run_full *v;
	size_t nr, alloc;
};

struct export_format {
	const char *name; /* as `mmcmp export NAME` takes it */
	bool compare;	  /* takes a comparison (--compare) */
	/* A new document, for the other functions. */
	void *(*start)(void);
	/* Add rf to doc, which takes it over (and may release it at once). */
	void (*add_run)(void *doc, struct run_full *rf);
	/* Add the comparison res; only where `compare` is set. */
	void (*add_compare)(void *doc, const struct compare_result *res);
	/* Append the document to out. */
	void (*finish)(void *doc, struct strbuf *out);
	/* Free doc; NULL is a no-op. */
	void (*free)(void *doc);
};

extern const struct export_format export_json, export_csv, export_benchstat;

/* The format called name, or NULL. */
const struct export_format *export_format_find(const char *name);
/* Append the format names as "json, csv or benchstat". */
void export_format_names(struct strbuf *out);

/* An export being written in one format. */
struct export;

struct export *export_new(const struct export_format *fmt);
/* Add rf, taken over: rf is left zeroed. */
void export_add_run(struct export *ex, struct run_full *rf);
void export_add_compare(struct export *ex, const struct compare_result *res);
void export_finish(struct export *ex, struct strbuf *out);
/* Free ex; NULL is a no-op. */
void export_free(struct export *ex);

/* For formats that pool: a struct export_runs as the document. */
void *export_runs_start(void);
void export_runs_add(void *doc, struct run_full *rf);
void export_runs_free(void *doc);

/*
 * `mmcmp export benchstat`: append runs in the Go benchmark format
 * (docs/benchstat-format.md), a "label: LABEL" configuration line before
 * each label's results, "pkg: BENCHMARK" before each benchmark's, and one
 * "Unit UNIT better=higher|lower" line per unit at the top. The runs of a
 * label are pooled, labels in the order of their first run; each measured
 * iteration gives one result line per operation name (an operation
 * "NAME UNIT", as the gobench import names them, joins the others of its
 * NAME on one line), with iteration count 1 and values that read back
 * exactly. Names and units have white space replaced by '_', an empty
 * unit is written as "-". `mmcmp import --from gobench --label-by label`
 * reads it back.
 */
void gobench_export(const struct run_full *runs, size_t nr, struct strbuf *out);

#endif /* MMCMP_EXPORT_H */
