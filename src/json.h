#ifndef MMCMP_JSON_H
#define MMCMP_JSON_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf;

/*
 * json: everything mmcmp reads from or writes as JSON. cJSON is used only
 * in json.c; no cJSON type appears in this header.
 *
 * Functions returning int give 0 on success and -1 on failure; on failure
 * they append one line (no '\n') to err, which may be NULL, and leave the
 * caller's arrays as they were on entry (their capacity may have grown).
 *
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

#endif /* MMCMP_JSON_H */
