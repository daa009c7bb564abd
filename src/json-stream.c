/* json-stream: arrays of numbers at a path, read from the text, no tree. */
#include "json-stream.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* A scan: the text, the path, and where the scan is. */
struct scan {
	struct json_stream *js;
	const char *s;
	size_t len, pos;
	const char *const *path;
	size_t depth;
	size_t index[JSON_STREAM_DEPTH];
	json_stream_fn *fn;
	void *ctx;
};

/* cJSON's blanks are the bytes 1 to 32; a NUL is left to its check. */
static bool blank(char c)
{
	return (unsigned char)c >= 1 && (unsigned char)c <= 32;
}

/* The bytes cJSON copies as part of a number. */
static bool number_char(char c)
{
	return (c >= '0' && c <= '9') || c == '+' || c == '-' || c == 'e' ||
	       c == 'E' || c == '.';
}

static void skip_blanks(struct scan *sc)
{
	while (sc->pos < sc->len && blank(sc->s[sc->pos]))
		sc->pos++;
}

/* Whether the next byte, after blanks, is c; it is consumed if so. */
static bool expect(struct scan *sc, char c)
{
	skip_blanks(sc);
	if (sc->pos >= sc->len || sc->s[sc->pos] != c)
		return false;
	sc->pos++;
	return true;
}

/* Past the string at pos ('"'); *escaped says whether it had a '\\'. */
static bool skip_string(struct scan *sc, bool *escaped)
{
	*escaped = false;
	for (sc->pos++; sc->pos < sc->len; sc->pos++) {
		char c = sc->s[sc->pos];

		if (c == '"') {
			sc->pos++;
			return true;
		}
		if (c == '\\') {
			*escaped = true;
			sc->pos++;
		}
	}
	return false;
}

/*
 * Past the value at pos: a string, a bracketed value with the strings in
 * it, or a scalar up to a blank, ',' or a closing bracket. Checks only
 * that strings and brackets close; the parse checks the rest.
 */
static bool skip_value(struct scan *sc)
{
	size_t depth = 0;
	bool escaped;

	skip_blanks(sc);
	while (sc->pos < sc->len) {
		char c = sc->s[sc->pos];

		if (c == '"') {
			if (!skip_string(sc, &escaped))
				return false;
			if (!depth)
				return true;
			continue;
		}
		if (c == '{' || c == '[') {
			depth++;
		} else if (c == '}' || c == ']') {
			if (!depth)
				return true;
			if (!--depth) {
				sc->pos++;
				return true;
			}
		} else if (!depth && (c == ',' || blank(c))) {
			return true;
		}
		sc->pos++;
	}
	return false;
}

/*
 * A number as cJSON reads it: '-' or a digit, then the longest run of
 * number bytes, all of which strtod() takes; finite.
 */
static bool read_number(struct scan *sc, double *out)
{
	const char *p = sc->s + sc->pos;
	size_t n = 0;
	char small[64], *buf = small, *end;
	bool ok;

	if (sc->pos >= sc->len || !(*p == '-' || (*p >= '0' && *p <= '9')))
		return false;
	while (sc->pos + n < sc->len && number_char(p[n]))
		n++;
	if (n >= sizeof(small))
		buf = xmalloc(n + 1);
	memcpy(buf, p, n);
	buf[n] = '\0';
	*out = strtod(buf, &end);
	ok = end == buf + n && isfinite(*out);
	if (buf != small)
		free(buf);
	if (ok)
		sc->pos += n;
	return ok;
}

/*
 * The array of numbers at pos, taken when every element is a number;
 * else pos is left past the value for the tree to read it.
 */
static bool scan_numbers(struct scan *sc)
{
	struct json_stream *js = sc->js;
	struct json_stream_array *a;
	size_t open = sc->pos;

	js->numbers_nr = 0;
	sc->pos++;
	do {
		double v;

		skip_blanks(sc);
		if (!read_number(sc, &v)) {
			sc->pos = open;
			return skip_value(sc);
		}
		ALLOC_GROW(js->numbers, js->numbers_nr + 1, js->numbers_alloc);
		js->numbers[js->numbers_nr++] = v;
	} while (expect(sc, ','));
	if (!expect(sc, ']')) {
		sc->pos = open;
		return skip_value(sc);
	}
	ALLOC_GROW(js->v, js->nr + 1, js->alloc);
	a = &js->v[js->nr++];
	memset(a, 0, sizeof(*a));
	memcpy(a->index, sc->index, sizeof(a->index));
	a->open = open;
	a->close = sc->pos - 1;
	a->nr = js->numbers_nr;
	sc->fn(sc->ctx, a->index, js->numbers, js->numbers_nr);
	return true;
}

static bool scan_object(struct scan *sc, size_t level);

/* The value of member path[level]: an array of objects or of numbers. */
static bool scan_member(struct scan *sc, size_t level)
{
	size_t i = 0;

	skip_blanks(sc);
	if (sc->pos >= sc->len || sc->s[sc->pos] != '[')
		return skip_value(sc);
	if (level + 1 == sc->depth)
		return scan_numbers(sc);
	sc->pos++;
	if (expect(sc, ']'))
		return true;
	do {
		skip_blanks(sc);
		sc->index[level] = i++;
		if (sc->pos < sc->len && sc->s[sc->pos] == '{') {
			if (!scan_object(sc, level + 1))
				return false;
		} else if (!skip_value(sc)) {
			return false;
		}
	} while (expect(sc, ','));
	return expect(sc, ']');
}

/* The object at pos, whose member path[level] is scanned, others skipped. */
static bool scan_object(struct scan *sc, size_t level)
{
	sc->pos++;
	if (expect(sc, '}'))
		return true;
	do {
		size_t key, key_len;
		bool escaped;

		skip_blanks(sc);
		key = sc->pos + 1;
		if (sc->pos >= sc->len || sc->s[sc->pos] != '"' ||
		    !skip_string(sc, &escaped))
			return false;
		key_len = sc->pos - 1 - key;
		/* cJSON unescapes names: one of the path's is not followed. */
		if (escaped || !expect(sc, ':'))
			return false;
		if (key_len == strlen(sc->path[level]) &&
		    !memcmp(sc->s + key, sc->path[level], key_len)) {
			if (!scan_member(sc, level))
				return false;
		} else if (!skip_value(sc)) {
			return false;
		}
	} while (expect(sc, ','));
	return expect(sc, '}');
}

bool json_stream_scan(struct json_stream *js, const char *text, size_t len,
		      const char *const *path, size_t depth, json_stream_fn *fn,
		      void *ctx)
{
	struct scan sc = {
		.js = js,
		.s = text,
		.len = len,
		.path = path,
		.depth = depth,
		.fn = fn,
		.ctx = ctx,
	};

	if (!depth || depth > JSON_STREAM_DEPTH)
		BUG("a path of %zu members", depth);
	/* cJSON skips a UTF-8 byte order mark. */
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		sc.pos = 3;
	skip_blanks(&sc);
	if (sc.pos >= len || text[sc.pos] != '{')
		return false;
	return scan_object(&sc, 0);
}

void json_stream_blank(const struct json_stream *js, char *text)
{
	for (size_t i = 0; i < js->nr; i++)
		for (size_t p = js->v[i].open + 1; p < js->v[i].close; p++)
			if (text[p] != '\n')
				text[p] = ' ';
}

void json_stream_release(struct json_stream *js)
{
	free(js->v);
	free(js->numbers);
	*js = (struct json_stream)JSON_STREAM_INIT;
}
