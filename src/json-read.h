#ifndef MMCMP_JSON_READ_H
#define MMCMP_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "strbuf.h"

struct cJSON;

/*
 * json-read: the one framework under every JSON reader (mmcmp's import,
 * the setup text, hyperfine and pyperf): parsing, a walk of the tree
 * that needs no cJSON header (json_node_*()), type checks, members read
 * by a table of fields, and messages "FILE: PATH: message" that say
 * where, PATH being "runs[3].iterations[0]" or "top level".
 * Functions returning int give 0 or -1 after appending one such line to
 * err. A struct json_read starts as JSON_READ_INIT(), ends with
 * json_read_release(); trees are freed with json_read_free().
 */
struct json_read {
	const char *file;
	struct strbuf path;
	struct strbuf *err;
	struct strbuf scratch[2]; /* json_read_quote() */
	int64_t version;	  /* of the document: json_field.since */
};

#define JSON_READ_INIT(file_, err_)                                            \
	{                                                                      \
		.file = (file_), .path = STRBUF_INIT, .err = (err_),           \
		.scratch = {STRBUF_INIT, STRBUF_INIT},                         \
	}

void json_read_release(struct json_read *jr);

/* The tree, read only: NULL-safe accessors in place of cJSON's. */
const struct cJSON *json_node_get(const struct cJSON *obj, const char *key);
const struct cJSON *json_node_first(const struct cJSON *node);
const struct cJSON *json_node_next(const struct cJSON *node);
#define JSON_FOR_EACH(el, node)                                                \
	for ((el) = json_node_first(node); (el); (el) = json_node_next(el))
int json_node_size(const struct cJSON *arr);
const char *json_node_key(const struct cJSON *node);	/* member name */
const char *json_node_string(const struct cJSON *node); /* a string's */
double json_node_number(const struct cJSON *node);	/* a number's */
bool json_node_is_null(const struct cJSON *node);
bool json_node_is_string(const struct cJSON *node);
bool json_node_is_number(const struct cJSON *node);
bool json_node_is_array(const struct cJSON *node);
bool json_node_is_object(const struct cJSON *node);
bool json_node_is_bool(const struct cJSON *node);
bool json_node_is_true(const struct cJSON *node);

/*
 * Parse the len bytes at text (followed by a NUL); NULL after the error
 * "FILE:LINE: invalid JSON" (the line where cJSON stopped). Free the tree
 * with json_read_free().
 */
struct cJSON *json_read_parse(struct json_read *jr, const char *text,
			      size_t len);
/*
 * mmcmp's own documents: the same, with "FILE: message" errors that give
 * line and column (json-internal.h); strict also refuses an empty text
 * and the escape \u0000, which cJSON would cut a string short at.
 */
struct cJSON *json_read_tree(struct json_read *jr, const char *text, size_t len,
			     bool strict);
void json_read_free(struct cJSON *root);
/*
 * For detection: whether the text starts as a JSON object with an array
 * member `array`, a member `with` unless it is NULL, and no member
 * `without` unless that is NULL. A scan of the top-level members that
 * builds no tree and checks no syntax (the parse does): a document cut
 * short counts by the members seen. Never fails, says nothing.
 */
bool json_read_detect(const char *text, size_t len, const char *array,
		      const char *with, const char *without);

/*
 * Check that no member of obj, an object at the current path, is there
 * twice ("duplicate member 'key'"), as json_read_object() checks its own:
 * cJSON's lookup would take the first and drop the others unseen.
 */
int json_read_unique(struct json_read *jr, const struct cJSON *obj);

/* Append ".key" or "[i]" to the path; return the length to pop back to. */
size_t json_read_push_key(struct json_read *jr, const char *key);
size_t json_read_push_index(struct json_read *jr, size_t i);
void json_read_pop(struct json_read *jr, size_t len);

/*
 * Append "FILE: PATH: message" (PATH "top level" when empty), control
 * characters as \xNN so that it stays one line; -1.
 */
MMCMP_PRINTF(2, 3)
int json_read_fail(struct json_read *jr, const char *fmt, ...);
/* "expected WANT, found a string" (json_type_name()); -1. */
int json_read_type_fail(struct json_read *jr, const struct cJSON *node,
			const char *want);
/*
 * s fit for one line of a message: at most about 64 bytes, cut at a
 * character boundary, control characters (and every byte of a string
 * that is not UTF-8) as \xNN. Valid until the next call with the same
 * slot, 0 or 1, so one message can hold two.
 */
const char *json_read_quote(struct json_read *jr, int slot, const char *s);

enum json_read_kind {
	JSON_READ_NUMBER, /* finite */
	JSON_READ_STRING,
	JSON_READ_ARRAY,
	JSON_READ_OBJECT,
	JSON_READ_SCALAR, /* a string or a finite number */
};

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

/* What a member of an object must hold, and where it is kept. */
enum json_field_kind {
	JSON_FIELD_STRING, /* a string of at most max bytes, may be empty */
	JSON_FIELD_NAME,   /* the same, not empty, no control character */
	JSON_FIELD_TIME,   /* "YYYY-MM-DDTHH:MM:SSZ" */
	JSON_FIELD_UUID,   /* 36 lowercase characters, 8-4-4-4-12 hex */
	JSON_FIELD_SHA256, /* 64 lowercase hex digits */
	JSON_FIELD_CHOICE, /* one of choices, kept as a string */
	JSON_FIELD_BETTER, /* "higher" or "lower", kept as a bool */
	JSON_FIELD_BOOL,
	JSON_FIELD_INT,	    /* an integer in [min, max], kept in size bytes */
	JSON_FIELD_SECONDS, /* a finite number from 0 to 1e9 */
	JSON_FIELD_OTHER,   /* required, read by the caller */
	JSON_FIELD_IGNORED, /* optional object, derived, not read */
};

struct json_field {
	const char *name;
	enum json_field_kind kind;
	bool nullable;
	size_t offset; /* in the struct being filled */
	size_t size;   /* JSON_FIELD_INT: of the member, int or int64_t */
	size_t max;    /* string kinds: bytes */
	int64_t min_int, max_int;
	const char *const *choices; /* JSON_FIELD_CHOICE, NULL-terminated */
	/* The first version of the format with the member; 0: every one. */
	int64_t since;
};

/* The most members an object read by json_read_object() has. */
#define JSON_FIELDS_MAX 20
/* Integers in JSON are exact up to 2^53. */
#define JSON_READ_INT_MAX (INT64_C(1) << 53)

/* Initialisers of a struct json_field for member m of struct st. */
#define JSON_FIELD_STR(st, m, lim, null)                                       \
	.kind = JSON_FIELD_STRING, .offset = offsetof(st, m), .max = (lim),    \
	.nullable = (null)
#define JSON_FIELD_OF(k, st, m, lim, null)                                     \
	.kind = (k), .offset = offsetof(st, m), .max = (lim), .nullable = (null)
#define JSON_FIELD_INT_IN(st, m, lo, hi)                                       \
	.kind = JSON_FIELD_INT, .offset = offsetof(st, m),                     \
	.size = sizeof(((st *)NULL)->m), .min_int = (lo), .max_int = (hi)

/*
 * Check that obj is an object with exactly the members of fields (those
 * of a later version than jr->version are unknown; JSON_FIELD_IGNORED
 * ones may be absent), each once, and read them into base.
 */
int json_read_object(struct json_read *jr, const struct cJSON *obj,
		     const struct json_field *fields, size_t nr, void *base);
/* Read node as f says into base + f->offset (no push of the path). */
int json_read_field(struct json_read *jr, const struct cJSON *node,
		    const struct json_field *f, void *base);
/* A finite number into *out; false after "expected WANT, found ...". */
bool json_read_number(struct json_read *jr, const struct cJSON *node,
		      const char *want, double *out);
/*
 * The array member key of obj (which json_read_object() checked is
 * there), pushed on the path (*mark pops it), of at most max elements;
 * NULL after a message.
 */
const struct cJSON *json_read_array(struct json_read *jr,
				    const struct cJSON *obj, const char *key,
				    size_t max, size_t *mark);

#endif /* MMCMP_JSON_READ_H */
