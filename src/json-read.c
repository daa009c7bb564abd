/* json-read: parsing and checking other tools' JSON documents. */
#include "json-read.h"

#include <math.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "strbuf.h"
#include "util.h"

struct cJSON *json_read_parse(struct json_read *jr, const char *text,
			      size_t len)
{
	const char *stop = NULL;
	cJSON *root = cJSON_ParseWithLengthOpts(text, len, &stop, 0);
	size_t line = 1;

	if (root) {
		/* Only white space may follow the value. */
		while (stop < text + len && strchr(" \t\r\n", *stop) && *stop)
			stop++;
		if (stop == text + len)
			return root;
		cJSON_Delete(root);
	} else if (!stop || stop > text + len) {
		stop = text + len;
	}
	for (const char *p = text; p < stop; p++)
		line += *p == '\n';
	error_addf(jr->err, "%s:%zu: %s", jr->file, line,
		   root ? "text after the JSON value" : "invalid JSON");
	return NULL;
}

void json_read_free(struct cJSON *root)
{
	cJSON_Delete(root);
}

bool json_read_detect(const char *text, size_t len, const char *array,
		      const char *with, const char *without)
{
	struct json_read jr = {.file = "", .path = STRBUF_INIT};
	struct strbuf quoted = STRBUF_INIT;
	cJSON *root = NULL;
	bool found;

	/* Cheap first: most files do not even hold the word. */
	strbuf_addf(&quoted, "\"%s\"", array);
	if (strstr(text, quoted.buf))
		root = json_read_parse(&jr, text, len);
	found = cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(root, array)) &&
		(!with || cJSON_GetObjectItemCaseSensitive(root, with)) &&
		(!without || !cJSON_GetObjectItemCaseSensitive(root, without));
	cJSON_Delete(root);
	strbuf_release(&quoted);
	strbuf_release(&jr.path);
	return found;
}

size_t json_read_push_key(struct json_read *jr, const char *key)
{
	size_t len = jr->path.len;

	strbuf_addf(&jr->path, "%s%s", len ? "." : "", key);
	return len;
}

size_t json_read_push_index(struct json_read *jr, size_t i)
{
	size_t len = jr->path.len;

	strbuf_addf(&jr->path, "[%zu]", i);
	return len;
}

void json_read_pop(struct json_read *jr, size_t len)
{
	strbuf_setlen(&jr->path, len);
}

int json_read_fail(struct json_read *jr, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT, clean = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_addf(&msg, "%s: %s: ", jr->file,
		    jr->path.len ? jr->path.buf : "top level");
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	/* Member names and values may hold anything: keep it one line. */
	for (size_t i = 0; i < msg.len; i++) {
		unsigned char c = (unsigned char)msg.buf[i];

		if (c < 0x20 || c == 0x7f)
			strbuf_addf(&clean, "\\x%02x", c);
		else
			strbuf_addch(&clean, (char)c);
	}
	error_addf(jr->err, "%s", clean.buf);
	strbuf_release(&msg);
	strbuf_release(&clean);
	return -1;
}

static const char *kind_name(const cJSON *node)
{
	if (cJSON_IsNumber(node))
		return "a number";
	if (cJSON_IsString(node))
		return "a string";
	if (cJSON_IsArray(node))
		return "an array";
	if (cJSON_IsObject(node))
		return "an object";
	if (cJSON_IsBool(node))
		return "a boolean";
	return "null";
}

int json_read_check(struct json_read *jr, const struct cJSON *node,
		    enum json_read_kind kind)
{
	static const char *const want[] = {
		[JSON_READ_NUMBER] = "a number",
		[JSON_READ_STRING] = "a string",
		[JSON_READ_ARRAY] = "an array",
		[JSON_READ_OBJECT] = "an object",
		[JSON_READ_SCALAR] = "a string or a number",
	};
	bool number = cJSON_IsNumber(node), good;

	switch (kind) {
	case JSON_READ_NUMBER:
		good = number;
		break;
	case JSON_READ_STRING:
		good = cJSON_IsString(node);
		break;
	case JSON_READ_ARRAY:
		good = cJSON_IsArray(node);
		break;
	case JSON_READ_OBJECT:
		good = cJSON_IsObject(node);
		break;
	default:
		good = number || cJSON_IsString(node);
		break;
	}
	if (!good)
		return json_read_fail(jr, "expected %s, found %s", want[kind],
				      kind_name(node));
	if (number && !isfinite(node->valuedouble))
		return json_read_fail(jr, "the number is out of range");
	return 0;
}

int json_read_member(struct json_read *jr, const struct cJSON *obj,
		     const char *key, enum json_read_kind kind, bool required,
		     const struct cJSON **out)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(obj, key);
	size_t len;
	int ret;

	*out = NULL;
	if (!m)
		return required ? json_read_fail(jr, "missing member '%s'", key)
				: 0;
	len = json_read_push_key(jr, key);
	ret = json_read_check(jr, m, kind);
	json_read_pop(jr, len);
	if (!ret)
		*out = m;
	return ret;
}

void json_read_add_scalar(struct strbuf *sb, const struct cJSON *node)
{
	if (cJSON_IsString(node))
		strbuf_addstr(sb, node->valuestring);
	else
		strbuf_add_double(sb, node->valuedouble);
}
