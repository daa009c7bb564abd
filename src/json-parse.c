/* json-parse: one JSON document into a cJSON tree, errors with positions. */
#include "json-internal.h"

#include <ctype.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "strbuf.h"

/* Append "line L, column C" for byte offset pos of text. */
void json_add_position(struct strbuf *sb, const char *text, size_t pos)
{
	size_t line = 1, col = 1;

	for (size_t i = 0; i < pos; i++) {
		if (text[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	strbuf_addf(sb, "line %zu, column %zu", line, col);
}

size_t json_skip_space(const char *s, size_t pos, size_t len)
{
	while (pos < len && isspace((unsigned char)s[pos]))
		pos++;
	return pos;
}

/*
 * Whether text ends inside a string or with a bracket still open: the
 * mark of a document that was cut short.
 */
static bool json_unclosed(const char *text, size_t len)
{
	bool in_string = false;
	size_t depth = 0;

	for (size_t i = 0; i < len; i++) {
		char c = text[i];

		if (in_string) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_string = false;
		} else if (c == '"') {
			in_string = true;
		} else if (c == '{' || c == '[') {
			depth++;
		} else if (c == '}' || c == ']') {
			if (!depth)
				return false;
			depth--;
		}
	}
	return in_string || depth;
}

size_t json_too_deep(const char *text, size_t len)
{
	bool in_string = false;
	size_t depth = 0;

	for (size_t i = 0; i < len; i++) {
		char c = text[i];

		if (in_string) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_string = false;
		} else if (c == '"') {
			in_string = true;
		} else if (c == '{' || c == '[') {
			if (++depth > CJSON_NESTING_LIMIT)
				return i;
		} else if ((c == '}' || c == ']') && depth) {
			depth--;
		}
	}
	return len;
}

/*
 * Parse the len bytes at text, followed by a NUL, as one JSON document.
 * Returns the tree, for the caller to free with cJSON_Delete(), or NULL
 * after a message.
 */
cJSON *json_parse_terminated(const char *text, size_t len, struct strbuf *err)
{
	struct strbuf msg = STRBUF_INIT;
	const char *end = NULL;
	cJSON *root = NULL;
	size_t pos;

	if (json_skip_space(text, 0, len) == len) {
		error_addf(err, "the output is empty, not JSON");
		goto out;
	}
	/* cJSON takes NUL bytes for blanks and ends strings at them. */
	pos = strlen(text);
	if (pos < len) {
		strbuf_addstr(&msg, "invalid JSON: a NUL byte at ");
		json_add_position(&msg, text, pos);
		error_addf(err, "%s", msg.buf);
		goto out;
	}
	root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	pos = end ? (size_t)(end - text) : 0;
	if (!root) {
		size_t deep = json_too_deep(text, len);

		/* cJSON's position can be a byte late: "near". */
		if (deep <= pos) {
			strbuf_addf(&msg,
				    "invalid JSON: nested deeper than %d levels"
				    " at ",
				    CJSON_NESTING_LIMIT);
			pos = deep;
		} else if (json_unclosed(text, len)) {
			strbuf_addstr(&msg,
				      "the JSON ends early (truncated?) at ");
			pos = len;
		} else {
			strbuf_addstr(&msg, "invalid JSON near ");
		}
		json_add_position(&msg, text, pos);
		error_addf(err, "%s", msg.buf);
		goto out;
	}
	pos = json_skip_space(text, pos, len);
	if (pos < len) {
		cJSON_Delete(root);
		root = NULL;
		strbuf_addstr(&msg, "unexpected text after the JSON value at ");
		json_add_position(&msg, text, pos);
		error_addf(err, "%s", msg.buf);
	}
out:
	strbuf_release(&msg);
	return root;
}

/* json_parse_terminated() of a terminated copy of text. */
cJSON *json_parse(const char *text, size_t len, struct strbuf *err)
{
	struct strbuf copy = STRBUF_INIT;
	cJSON *root;

	/* A terminated copy: no cJSON version can then read past the end. */
	strbuf_add(&copy, text, len);
	root = json_parse_terminated(copy.buf, copy.len, err);
	strbuf_release(&copy);
	return root;
}

const char *json_type_name(const cJSON *node)
{
	if (cJSON_IsObject(node))
		return "an object";
	if (cJSON_IsArray(node))
		return "an array";
	if (cJSON_IsString(node))
		return "a string";
	if (cJSON_IsNumber(node))
		return "a number";
	if (cJSON_IsBool(node))
		return "a boolean";
	return "null";
}
