#ifndef MMCMP_JSON_INTERNAL_H
#define MMCMP_JSON_INTERNAL_H

#include <stddef.h>

struct cJSON;
struct strbuf;

/*
 * json-internal: what the json*.c modules share, the parse of a document
 * with messages that say where it went wrong (json-parse.c). Only the
 * json*.c files include this header; it names cJSON's struct but does not
 * include cJSON's header, so json.h stays free of it.
 *
 * The parsers return a tree the caller frees with cJSON_Delete(), or
 * NULL after appending one line (no '\n') to err.
 */

/* Append "line L, column C" for byte offset pos of text to sb. */
void json_add_position(struct strbuf *sb, const char *text, size_t pos);

/*
 * The offset of the first bracket of the len bytes at text that opens a
 * level deeper than cJSON reads (CJSON_NESTING_LIMIT, 1000), or len.
 */
size_t json_too_deep(const char *text, size_t len);

/* The first offset from pos on in the len bytes at s that is not blank. */
size_t json_skip_space(const char *s, size_t pos, size_t len);

/*
 * Parse the len bytes at text, which must be followed by a NUL, as one
 * JSON document: only whitespace may surround the value. The messages
 * tell an empty document, a NUL byte, a document cut short, a syntax
 * error and trailing text apart, each with its line and column.
 */
struct cJSON *json_parse_terminated(const char *text, size_t len,
				    struct strbuf *err);

/* json_parse_terminated() of a terminated copy of the len bytes at text. */
struct cJSON *json_parse(const char *text, size_t len, struct strbuf *err);

/* "an object", "an array", "a string", "a number", "a boolean" or "null". */
const char *json_type_name(const struct cJSON *node);

#endif /* MMCMP_JSON_INTERNAL_H */
