#ifndef MMCMP_JSON_WRITE_H
#define MMCMP_JSON_WRITE_H

#include <stdbool.h>
#include <stdint.h>

struct cJSON;
struct strbuf;

/*
 * json-write: the checked cJSON builders every JSON writer uses (the
 * export and compare documents, the setup text), so that only json-*.c
 * files include cJSON's header. Nothing fails: cJSON returns NULL only
 * when malloc() does, and these abort then, as xmalloc() does. Numbers
 * are written exactly (strbuf_add_double()), NaN and infinities as null;
 * strings that are not UTF-8 have each bad byte replaced by U+FFFD.
 * A node added to an object or array belongs to it; free the root with
 * json_write_free().
 */

struct cJSON *json_write_object(void);
struct cJSON *json_write_array(void);
/* Add item to obj under key, a string literal that outlives the tree. */
struct cJSON *json_write_add(struct cJSON *obj, const char *key,
			     struct cJSON *item);
/* The same for a key of any lifetime (copied, bad UTF-8 replaced). */
struct cJSON *json_write_add_named(struct cJSON *obj, const char *key,
				   struct cJSON *item);
/* Append item to the array arr. */
struct cJSON *json_write_push(struct cJSON *arr, struct cJSON *item);

/* A string node of s; NULL gives null. */
struct cJSON *json_write_str(const char *s);
struct cJSON *json_write_int(int64_t v);
/* v exactly, or null when it is NaN or infinite. */
struct cJSON *json_write_num(double v);
struct cJSON *json_write_bool(bool v);
struct cJSON *json_write_null(void);
/* text, which must be JSON, printed as it is. */
struct cJSON *json_write_raw(const char *text);
/* The tree of the JSON text, or null when it does not parse. */
struct cJSON *json_write_parsed(const char *text);

/* Append root printed formatted, then a newline, to out. */
void json_write_print(const struct cJSON *root, struct strbuf *out);
/* root printed compact, on one line; the caller frees it. */
char *json_write_compact(const struct cJSON *root);
/* Free root and everything in it; NULL is a no-op. */
void json_write_free(struct cJSON *root);

#endif /* MMCMP_JSON_WRITE_H */
