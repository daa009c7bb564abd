#ifndef MMCMP_JSON_READ_H
#define MMCMP_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "strbuf.h"

struct cJSON;

/*
 * json-read: what the importers of other tools' JSON documents
 * (json-hyperfine.c, json-pyperf.c) share: parsing, type checks, and
 * messages that say where in the document they apply. Only json-*.c files
 * include this header, as only they use cJSON; callers walk the tree with
 * cJSON themselves.
 *
 * A struct json_read carries the file name, the path of the value being
 * read ("results[2].times", "" for the top level) and the error buffer.
 * Functions returning int give 0 or -1 after appending one line
 * "FILE: PATH: message" to err.
 */
struct json_read {
	const char *file;
	struct strbuf path;
	struct strbuf *err;
};

enum json_read_kind {
	JSON_READ_NUMBER, /* finite */
	JSON_READ_STRING,
	JSON_READ_ARRAY,
	JSON_READ_OBJECT,
	JSON_READ_SCALAR, /* a string or a finite number */
};

/*
 * Parse the len bytes at text (followed by a NUL); NULL after the error
 * "FILE:LINE: invalid JSON" (the line where cJSON stopped). Free the tree
 * with json_read_free().
 */
struct cJSON *json_read_parse(struct json_read *jr, const char *text,
			      size_t len);
void json_read_free(struct cJSON *root);
/*
 * For detection: whether the NUL-terminated text is a JSON object with
 * an array member `array`, a member `with` unless it is NULL, and no
 * member `without` unless that is NULL. Never fails, says nothing.
 */
bool json_read_detect(const char *text, size_t len, const char *array,
		      const char *with, const char *without);

/* Append ".key" or "[i]" to the path; return the length to pop back to. */
size_t json_read_push_key(struct json_read *jr, const char *key);
size_t json_read_push_index(struct json_read *jr, size_t i);
void json_read_pop(struct json_read *jr, size_t len);

/* Append "FILE: PATH: message" (PATH "top level" when empty); -1. */
MMCMP_PRINTF(2, 3)
int json_read_fail(struct json_read *jr, const char *fmt, ...);

/* Check that node, found at the current path, is of kind. */
int json_read_check(struct json_read *jr, const struct cJSON *node,
		    enum json_read_kind kind);

/*
 * Member key of obj (an object at the current path) into *out: checked
 * for kind, NULL when it is absent and not required ("missing member
 * 'key'" when it is).
 */
int json_read_member(struct json_read *jr, const struct cJSON *obj,
		     const char *key, enum json_read_kind kind, bool required,
		     const struct cJSON **out);

/*
 * Append the text of a scalar: a string as it is, a number as
 * strbuf_add_double() writes it.
 */
void json_read_add_scalar(struct strbuf *sb, const struct cJSON *node);

#endif /* MMCMP_JSON_READ_H */
