#ifndef MMCMP_JSON_H
#define MMCMP_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "names.h"

struct compare_result;
struct run_full;
struct strbuf;

/*
 * json: the JSON layer's public side. Path extraction for extract
 * (json-path.c), mmcmp's export and compare documents (export-json.c)
 * and their strict import (import-json.c), sharing only the parse of a
 * document (json-parse.c, json-internal.h), so that extracting a metric
 * does not link the comparison code. cJSON is included only by json-*.c
 * (json-read.h and json-write.h give the other readers and writers its
 * tree); no cJSON type appears in this header.
 *
 * Functions returning int give 0 on success and -1 on failure; on failure
 * they append one line (no '\n') to err, which may be NULL, and leave the
 * caller's arrays as they were on entry (their capacity may have grown).
 */

/*
 * Paths select numbers inside a document, in a small dialect of the
 * usual dotted notation:
 *
 *   jobs[0].read.iops        member names joined by '.', array indices
 *   jobs[*].read.iops        '*' takes every element of an array, or
 *                            every member value of an object, in order
 *   jobs[jobname=seq].bw     the elements of an array that are objects
 *                            whose member `jobname` is the string "seq"
 *                            (or a number equal to it)
 *   percentile["99.000000"]  a quoted member name, for names holding
 *                            '.', '[' or ']'; inside quotes and in the
 *                            value after '=', a backslash escapes the
 *                            next character
 *
 * The empty path selects the top-level value. An unquoted name that is
 * not a member is retried joined with the names after it, so
 * `clat_ns.percentile.99.000000` finds the member "99.000000".
 *
 * The path must select at least one value and every value it selects
 * must be a finite number. Below a wildcard or a `[NAME=VALUE]` selector,
 * elements that lack the rest of the path are skipped; only when nothing
 * at all is selected is the missing step reported.
 */

/*
 * Check the syntax of path; false with a message naming the column of
 * the first error otherwise. Does not look at any document.
 */
bool json_path_check(const char *path, struct strbuf *err);

/*
 * Parse the JSON document in the len bytes at text (no terminating NUL
 * needed; only whitespace may surround the one top-level value) and
 * append every number path selects, in document order, to the array
 * (*v, *nr, *alloc), grown with ALLOC_GROW. Errors: a document that does
 * not parse (with its line and column), a bad path, a path selecting
 * nothing, a selected value that is not a finite number.
 */
int json_extract_numbers(const char *text, size_t len, const char *path,
			 double **v, size_t *nr, size_t *alloc,
			 struct strbuf *err);

/*
 * Export documents: `mmcmp export json`, `mmcmp import` and `mmcmp
 * compare --format json`. Every member, its type and unit is documented
 * in docs/export-format.md, and docs/export.schema.json is the JSON
 * Schema the tests validate exports against; change the three together
 * and raise the version when a reader of the old one would misread.
 *
 * The writers build a cJSON tree and print it formatted, with two
 * exceptions for exactness and speed: numbers are written by
 * strbuf_add_double() (cJSON's own printing may drop the last bit of a
 * double and takes seconds for a million samples) and put in the tree as
 * raw text, and strings that are not valid UTF-8 (a stderr tail cut in
 * the middle of a character) have each bad byte replaced by U+FFFD. A
 * number that is undefined (NaN) or infinite is written as null. The
 * output is deterministic: exporting the same runs twice gives the same
 * bytes.
 */
#define JSON_EXPORT_FORMAT   "mmcmp-export"
#define JSON_EXPORT_VERSION  7
#define JSON_COMPARE_FORMAT  "mmcmp-compare"
#define JSON_COMPARE_VERSION 2

/*
 * Import limits: a bigger file, or a document beyond one of the counts
 * or lengths, is refused as absurd. Nesting is limited by cJSON (1000
 * levels; the format needs 8). The file limit bounds memory: the import
 * holds the text, a cJSON tree of everything but the samples (64 bytes
 * per node), which are read from the text (json-stream.h), and the runs
 * made of it (16 bytes per sample), measured (bench/import-memory) at
 * about 3 times the file's size for mmcmp's own export of typical
 * samples, 9 for a compact document of one-digit samples (a tree of the
 * samples took 11 and 48).
 */
#define JSON_IMPORT_MAX_BYTES	 ((size_t)1 << 27)  /* the file: 128 MiB */
#define JSON_MAX_RUNS		 ((size_t)1 << 16)  /* per document */
#define JSON_MAX_OPERATIONS	 ((size_t)1 << 20)  /* per run */
#define JSON_MAX_ITERATIONS	 ((size_t)1 << 24)  /* per run */
#define JSON_MAX_SAMPLES	 ((size_t)1 << 28)  /* per run */
#define JSON_MAX_NAME		 NAMES_MAX_BYTES    /* bytes: names, ... */
#define JSON_MAX_TEXT		 ((size_t)16 << 20) /* config text, ... */
#define JSON_MAX_MONITOR_NAMES	 ((size_t)1 << 16)  /* per object */
#define JSON_MAX_MONITOR_SAMPLES ((size_t)1 << 20)  /* per iteration */

/*
 * An export document being written: json_export_new(), then
 * json_export_add_run() for each run in the order they are to appear
 * (the tree keeps only their text, so the caller may release each run
 * once added), optionally json_export_add_compare(), and
 * json_export_finish() to append the document to out. Nothing fails:
 * allocation failure aborts.
 */
struct json_export;

struct json_export *json_export_new(void);
/* Add rf (only read) to the document's runs. */
void json_export_add_run(struct json_export *je, const struct run_full *rf);
/*
 * Add res as the document's "comparison": the same object that
 * `compare --format json` prints (render-json.h), so a comparison has one
 * shape.
 */
void json_export_add_compare(struct json_export *je,
			     const struct compare_result *res);
/* Append the document and a newline to out. */
void json_export_finish(struct json_export *je, struct strbuf *out);
/* Free je; NULL is a no-op. */
void json_export_free(struct json_export *je);

/*
 * Read an "mmcmp-export" document: the len bytes at text, which must be
 * followed by a NUL (as a strbuf's are), read from the file called name.
 * On success *runs is a new array of *nr runs (caller frees with
 * run_full_free_array()) in document order, each with its info,
 * operations, iterations and samples exactly as exported; the pid fields
 * are 0 and the derived members (operation summaries, the comparison) are
 * ignored. Validation is strict: a member that is missing, unknown, given
 * twice or of the wrong type, a number that is not finite or out of
 * range, a string that is not UTF-8, too long or not of its form (UUID,
 * time, SHA-256, a known status), a sample naming an operation the run
 * does not have or one of another benchmark, an operation or run uuid
 * given twice, a config text whose SHA-256 is not config.sha256, an
 * unknown format or version, or one of the limits above, each fail with
 * one line "NAME: PATH: message", PATH being where in the document, e.g.
 * "runs[3].iterations[0].samples[1].values[12]". Then *runs is NULL and
 * *nr 0.
 */
int json_import(const char *name, const char *text, size_t len,
		struct run_full **runs, size_t *nr, struct strbuf *err);
/*
 * json_import() of text, which it overwrites: the arrays of sample values
 * are read straight from the text (json-stream.h) and blanked, so that
 * the tree holds none of them and the import's peak memory is about the
 * text and 16 bytes a sample. text is no longer the document afterwards.
 */
int json_import_in_place(const char *name, char *text, size_t len,
			 struct run_full **runs, size_t *nr,
			 struct strbuf *err);

#endif /* MMCMP_JSON_H */
