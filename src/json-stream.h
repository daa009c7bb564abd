#ifndef MMCMP_JSON_STREAM_H
#define MMCMP_JSON_STREAM_H

#include <stdbool.h>
#include <stddef.h>

/*
 * json-stream: the arrays of numbers at one path of a JSON document read
 * straight from its text, so that no tree holds them: a cJSON node costs
 * 64 bytes, a sample of an export 2 to 12 bytes of text. The path names
 * members, each but the last an array of objects and the last an array
 * of numbers ("runs", "iterations", "samples", "values"). An array is
 * taken only when cJSON would read it as the same finite numbers; one
 * with anything else (nothing, a string, 1e999) is left to the tree and
 * the messages of its reader. json_stream_blank() then overwrites the
 * inside of every array taken with blanks, keeping the newlines, so that
 * a parse of the text sees empty arrays and fails where it would have
 * failed, at the same line and column. Nothing fails or says anything;
 * allocation failure aborts. A struct json_stream starts as
 * JSON_STREAM_INIT and ends with json_stream_release().
 */

/* The most members on a path. */
#define JSON_STREAM_DEPTH 4

/* An array taken: where it is and which element of each array above. */
struct json_stream_array {
	size_t index[JSON_STREAM_DEPTH - 1];
	size_t open, close; /* offsets of its '[' and ']' */
	size_t nr;	    /* numbers, at least 1 */
};

struct json_stream {
	struct json_stream_array *v; /* in document order */
	size_t nr, alloc;
	double *numbers; /* of the array being read */
	size_t numbers_nr, numbers_alloc;
};

#define JSON_STREAM_INIT                                                       \
	{                                                                      \
		0                                                              \
	}

/*
 * Called once for each array taken, in document order, with its indices
 * (index[k] the element of the array named path[k]) and its n numbers,
 * valid during the call.
 */
typedef void json_stream_fn(void *ctx, const size_t *index, const double *v,
			    size_t n);

/*
 * Find the arrays at path (depth members, at most JSON_STREAM_DEPTH) in
 * the len bytes at text, which must be a JSON object, give each to fn and
 * record it in js. False when the text is not what the scan follows (a
 * syntax error, a member of the path written with an escape): then the
 * caller drops what fn was given and parses the text as it is.
 */
bool json_stream_scan(struct json_stream *js, const char *text, size_t len,
		      const char *const *path, size_t depth, json_stream_fn *fn,
		      void *ctx);

/* Blank the inside of every array that js took from text. */
void json_stream_blank(const struct json_stream *js, char *text);

void json_stream_release(struct json_stream *js);

#endif /* MMCMP_JSON_STREAM_H */
