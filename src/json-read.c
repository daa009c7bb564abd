/* json-read: the framework under every JSON reader. */
#include "json-read.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "json-internal.h"
#include "names.h"
#include "strbuf.h"
#include "strmap.h"
#include "util.h"

void json_read_release(struct json_read *jr)
{
	strbuf_release(&jr->path);
	strbuf_release(&jr->scratch[0]);
	strbuf_release(&jr->scratch[1]);
}

const cJSON *json_node_get(const cJSON *obj, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(obj, key);
}

const cJSON *json_node_first(const cJSON *node)
{
	return node ? node->child : NULL;
}

const cJSON *json_node_next(const cJSON *node)
{
	return node ? node->next : NULL;
}

int json_node_size(const cJSON *arr)
{
	return cJSON_GetArraySize(arr);
}

const char *json_node_key(const cJSON *node)
{
	return node->string;
}

const char *json_node_string(const cJSON *node)
{
	return cJSON_GetStringValue(node);
}

double json_node_number(const cJSON *node)
{
	return node->valuedouble;
}

bool json_node_is_null(const cJSON *node)
{
	return cJSON_IsNull(node);
}

bool json_node_is_string(const cJSON *node)
{
	return cJSON_IsString(node);
}

bool json_node_is_number(const cJSON *node)
{
	return cJSON_IsNumber(node);
}

bool json_node_is_array(const cJSON *node)
{
	return cJSON_IsArray(node);
}

bool json_node_is_object(const cJSON *node)
{
	return cJSON_IsObject(node);
}

bool json_node_is_bool(const cJSON *node)
{
	return cJSON_IsBool(node);
}

bool json_node_is_true(const cJSON *node)
{
	return cJSON_IsTrue(node);
}

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

/*
 * cJSON turns the escape \u0000 into a NUL that ends the string: refuse
 * it rather than cut a string short. Backslashes only occur in strings.
 */
static int check_nul_escapes(const char *name, const char *text, size_t len,
			     struct strbuf *err)
{
	struct strbuf msg = STRBUF_INIT;

	for (size_t i = 0; i + 1 < len; i++) {
		if (text[i] != '\\')
			continue;
		if (text[i + 1] == 'u' && i + 6 <= len &&
		    !memcmp(text + i + 2, "0000", 4)) {
			json_add_position(&msg, text, i);
			error_addf(err, "%s: %s: a string holds \\u0000", name,
				   msg.buf);
			strbuf_release(&msg);
			return -1;
		}
		i++;
	}
	return 0;
}

struct cJSON *json_read_tree(struct json_read *jr, const char *text, size_t len,
			     bool strict)
{
	struct strbuf msg = STRBUF_INIT;
	cJSON *root = NULL;

	if (strict && json_skip_space(text, 0, len) == len) {
		error_addf(jr->err, "%s: empty, not JSON", jr->file);
		goto out;
	}
	if (strict && check_nul_escapes(jr->file, text, len, jr->err))
		goto out;
	root = json_parse_terminated(text, len, &msg);
	if (!root)
		error_addf(jr->err, "%s: %s", jr->file, msg.buf);
out:
	strbuf_release(&msg);
	return root;
}

void json_read_free(struct cJSON *root)
{
	cJSON_Delete(root);
}

/* The end of the string that opens at text[i] ('"'), or len. */
static size_t scan_string(const char *text, size_t i, size_t len)
{
	for (i++; i < len && text[i] != '"'; i++)
		if (text[i] == '\\')
			i++;
	return i < len ? i + 1 : len;
}

/*
 * The end of the value at text[i]: a string, a bracketed value (strings
 * in it skipped whole) or a scalar, up to ',' or a closing bracket.
 */
static size_t scan_value(const char *text, size_t i, size_t len)
{
	size_t depth = 0;

	if (i < len && text[i] == '"')
		return scan_string(text, i, len);
	for (; i < len; i++) {
		char c = text[i];

		if (c == '"') {
			i = scan_string(text, i, len) - 1;
		} else if (c == '{' || c == '[') {
			depth++;
		} else if (c == '}' || c == ']' || c == ',') {
			if (!depth)
				return i;
			if (c != ',' && !--depth)
				return i + 1;
		}
	}
	return len;
}

/* Whether the key of len bytes at k is name. */
static bool key_is(const char *k, size_t len, const char *name)
{
	return name && strlen(name) == len && !memcmp(k, name, len);
}

bool json_read_detect(const char *text, size_t len, const char *array,
		      const char *with, const char *without)
{
	bool has_array = false, has_with = !with, has_without = false;
	size_t i = json_skip_space(text, 0, len);

	/*
	 * A scan of the top-level members, no tree: a document of any size
	 * costs no memory to detect, and is parsed once, by its importer.
	 */
	if (i >= len || text[i] != '{')
		return false;
	for (i = json_skip_space(text, i + 1, len);
	     i < len && text[i] == '"';) {
		size_t k = i + 1, end = scan_string(text, i, len);
		size_t klen = end > k ? end - 1 - k : 0;

		i = json_skip_space(text, end, len);
		if (i >= len || text[i] != ':')
			break;
		i = json_skip_space(text, i + 1, len);
		if (key_is(text + k, klen, array))
			has_array = i < len && text[i] == '[';
		has_with = has_with || key_is(text + k, klen, with);
		has_without = has_without || key_is(text + k, klen, without);
		i = json_skip_space(text, scan_value(text, i, len), len);
		if (i >= len || text[i] != ',')
			break;
		i = json_skip_space(text, i + 1, len);
	}
	return has_array && has_with && !has_without;
}

int json_read_unique(struct json_read *jr, const cJSON *obj)
{
	struct strmap seen = STRMAP_INIT;
	const cJSON *child;
	int ret = 0;

	cJSON_ArrayForEach(child, obj)
	{
		size_t len = strlen(child->string);

		if (strmap_get(&seen, child->string, len, NULL)) {
			ret = json_read_fail(
				jr, "duplicate member '%s'",
				json_read_quote(jr, 0, child->string));
			break;
		}
		strmap_put(&seen, child->string, len, 0);
	}
	strmap_clear(&seen);
	return ret;
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

int json_read_type_fail(struct json_read *jr, const cJSON *node,
			const char *want)
{
	return json_read_fail(jr, "expected %s, found %s", want,
			      json_type_name(node));
}

const char *json_read_quote(struct json_read *jr, int slot, const char *s)
{
	struct strbuf *sb = &jr->scratch[slot];
	const unsigned char *p = (const unsigned char *)s;
	bool utf8 = utf8_valid(s);
	size_t n = 0;

	strbuf_reset(sb);
	for (; *p && (n < 64 || (utf8 && (*p & 0xc0) == 0x80)); p++, n++) {
		if (*p < 0x20 || *p == 0x7f || (*p >= 0x80 && !utf8))
			strbuf_addf(sb, "\\x%02x", *p);
		else
			strbuf_addch(sb, *p);
	}
	if (*p)
		strbuf_addstr(sb, "...");
	return sb->buf;
}

static bool all_of(const char *s, size_t n, const char *set)
{
	return strlen(s) == n && strspn(s, set) == n;
}

static int two_digits(const char *s)
{
	return (s[0] - '0') * 10 + (s[1] - '0');
}

static bool is_time(const char *s)
{
	/* Digits where the pattern has 'd', then a real calendar date. */
	static const char pat[] = "dddd-dd-ddTdd:dd:ddZ";
	static const int mdays[] = {31, 29, 31, 30, 31, 30,
				    31, 31, 30, 31, 30, 31};
	int year, month, day;
	bool leap;

	if (strlen(s) != sizeof(pat) - 1)
		return false;
	for (size_t i = 0; pat[i]; i++) {
		if (pat[i] == 'd' ? !isdigit((unsigned char)s[i])
				  : s[i] != pat[i])
			return false;
	}
	year = two_digits(s) * 100 + two_digits(s + 2);
	month = two_digits(s + 5);
	day = two_digits(s + 8);
	leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
	if (month < 1 || month > 12 || day < 1 || day > mdays[month - 1] ||
	    (month == 2 && day == 29 && !leap))
		return false;
	return two_digits(s + 11) <= 23 && two_digits(s + 14) <= 59 &&
	       two_digits(s + 17) <= 60;
}

static bool is_uuid(const char *s)
{
	static const char hex[] = "0123456789abcdef";

	if (strlen(s) != 36)
		return false;
	for (size_t i = 0; i < 36; i++) {
		bool dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? s[i] != '-' : !strchr(hex, s[i]) || !s[i])
			return false;
	}
	return true;
}

/* A string member, checked for its kind; *out gets a copy. */
static int read_string(struct json_read *jr, const cJSON *node,
		       const struct json_field *f, char **out)
{
	const char *s;
	size_t len;

	if (f->nullable && cJSON_IsNull(node))
		return 0;
	if (!cJSON_IsString(node))
		return json_read_type_fail(jr, node,
					   f->nullable ? "a string or null"
						       : "a string");
	s = node->valuestring;
	len = strlen(s);
	if (len > f->max)
		return json_read_fail(
			jr, "string too long (%zu bytes, at most %zu)", len,
			f->max);
	if (!utf8_valid(s))
		return json_read_fail(jr, "invalid UTF-8");
	switch (f->kind) {
	case JSON_FIELD_NAME:
		if (!len)
			return json_read_fail(jr, "empty string");
		if (names_has_control(s))
			return json_read_fail(
				jr, "'%s' contains a control character",
				json_read_quote(jr, 0, s));
		break;
	case JSON_FIELD_TIME:
		if (!is_time(s))
			return json_read_fail(
				jr,
				"'%s' is not a UTC time YYYY-MM-DDTHH:MM:SSZ",
				json_read_quote(jr, 0, s));
		break;
	case JSON_FIELD_UUID:
		if (!is_uuid(s))
			return json_read_fail(jr,
					      "'%s' is not a lowercase UUID",
					      json_read_quote(jr, 0, s));
		break;
	case JSON_FIELD_SHA256:
		if (!all_of(s, 64, "0123456789abcdef"))
			return json_read_fail(
				jr, "'%s' is not a lowercase hex SHA-256",
				json_read_quote(jr, 0, s));
		break;
	case JSON_FIELD_CHOICE: {
		struct strbuf list = STRBUF_INIT;
		size_t i;

		for (i = 0; f->choices[i] && strcmp(s, f->choices[i]) != 0; i++)
			;
		if (f->choices[i])
			break;
		for (i = 0; f->choices[i]; i++)
			strbuf_addf(&list, "%s%s", i ? ", " : "",
				    f->choices[i]);
		json_read_fail(jr, "unknown value '%s' (expected %s)",
			       json_read_quote(jr, 0, s), list.buf);
		strbuf_release(&list);
		return -1;
	}
	default:
		break;
	}
	*out = xstrdup(s);
	return 0;
}

/* A finite number; false after a message. */
bool json_read_number(struct json_read *jr, const cJSON *node, const char *want,
		      double *out)
{
	if (!cJSON_IsNumber(node)) {
		json_read_type_fail(jr, node, want);
		return false;
	}
	if (!isfinite(node->valuedouble)) {
		json_read_fail(jr, "not a finite number");
		return false;
	}
	*out = node->valuedouble;
	return true;
}

static int read_int(struct json_read *jr, const cJSON *node,
		    const struct json_field *f, void *out)
{
	/* What a double holds exactly, within the member's range. */
	int64_t lo = f->min_int > -JSON_READ_INT_MAX ? f->min_int
						     : -JSON_READ_INT_MAX;
	int64_t hi =
		f->max_int < JSON_READ_INT_MAX ? f->max_int : JSON_READ_INT_MAX;
	double d;
	int64_t v;

	if (!json_read_number(jr, node, "an integer", &d))
		return -1;
	if (d != floor(d))
		return json_read_fail(jr, "expected an integer, found %g", d);
	if (d < (double)lo || d > (double)hi) {
		strbuf_reset(&jr->scratch[0]);
		strbuf_add_double(&jr->scratch[0], d);
		return json_read_fail(
			jr, "%s is out of range (%" PRId64 " to %" PRId64 ")",
			jr->scratch[0].buf, lo, hi);
	}
	v = (int64_t)d;
	if (f->size == sizeof(int))
		*(int *)out = (int)v;
	else if (f->size == sizeof(int64_t))
		*(int64_t *)out = v;
	else
		BUG("integer member '%s' of %zu bytes", f->name, f->size);
	return 0;
}

/* Read member node as f says into base + f->offset. */
int json_read_field(struct json_read *jr, const cJSON *node,
		    const struct json_field *f, void *base)
{
	void *at = (char *)base + f->offset;
	double d;

	switch (f->kind) {
	case JSON_FIELD_STRING:
	case JSON_FIELD_NAME:
	case JSON_FIELD_TIME:
	case JSON_FIELD_UUID:
	case JSON_FIELD_SHA256:
	case JSON_FIELD_CHOICE:
		return read_string(jr, node, f, (char **)at);
	case JSON_FIELD_BETTER:
		if (!cJSON_IsString(node))
			return json_read_type_fail(jr, node, "a string");
		if (strcmp(node->valuestring, "higher") != 0 &&
		    strcmp(node->valuestring, "lower") != 0)
			return json_read_fail(
				jr,
				"unknown value '%s' (expected higher, lower)",
				json_read_quote(jr, 0, node->valuestring));
		*(bool *)at = !strcmp(node->valuestring, "higher");
		return 0;
	case JSON_FIELD_BOOL:
		if (!cJSON_IsBool(node))
			return json_read_type_fail(jr, node, "a boolean");
		*(bool *)at = cJSON_IsTrue(node);
		return 0;
	case JSON_FIELD_INT:
		/* A null integer keeps the zero of a fresh struct. */
		if (f->nullable && cJSON_IsNull(node))
			return 0;
		return read_int(jr, node, f, at);
	case JSON_FIELD_SECONDS:
		/* A null number keeps the caller's default. */
		if (f->nullable && cJSON_IsNull(node))
			return 0;
		if (!json_read_number(jr, node, "a number", &d))
			return -1;
		if (d < 0 || d > 1e9)
			return json_read_fail(
				jr, "%.17g is out of range (0 to 1e9 seconds)",
				d);
		*(double *)at = d;
		return 0;
	case JSON_FIELD_IGNORED:
		return cJSON_IsObject(node)
			       ? 0
			       : json_read_type_fail(jr, node, "an object");
	case JSON_FIELD_OTHER:
		return 0;
	}
	BUG("unknown member kind %d", (int)f->kind);
}

/*
 * Check that obj is an object with exactly the members of fields (the
 * optional ones may be absent), each once, and read them into base.
 */
int json_read_object(struct json_read *jr, const cJSON *obj,
		     const struct json_field *fields, size_t nr, void *base)
{
	bool seen[JSON_FIELDS_MAX] = {false};
	const cJSON *child;

	if (nr > JSON_FIELDS_MAX)
		BUG("object of %zu members", nr);
	if (!cJSON_IsObject(obj))
		return json_read_type_fail(jr, obj, "an object");
	cJSON_ArrayForEach(child, obj)
	{
		size_t k;

		/* A member of a later version is unknown to this one. */
		for (k = 0;
		     k < nr && (fields[k].since > jr->version ||
				strcmp(fields[k].name, child->string) != 0);
		     k++)
			;
		if (k == nr)
			return json_read_fail(
				jr, "unknown member '%s'",
				json_read_quote(jr, 0, child->string));
		if (seen[k])
			return json_read_fail(jr, "duplicate member '%s'",
					      fields[k].name);
		seen[k] = true;
	}
	for (size_t k = 0; k < nr; k++) {
		if (!seen[k] && fields[k].kind != JSON_FIELD_IGNORED &&
		    fields[k].since <= jr->version)
			return json_read_fail(jr, "missing member '%s'",
					      fields[k].name);
	}
	for (size_t k = 0; k < nr; k++) {
		size_t mark;

		if (!seen[k] || fields[k].kind == JSON_FIELD_OTHER)
			continue;
		mark = json_read_push_key(jr, fields[k].name);
		if (json_read_field(jr,
				    cJSON_GetObjectItemCaseSensitive(
					    obj, fields[k].name),
				    &fields[k], base))
			return -1;
		json_read_pop(jr, mark);
	}
	return 0;
}

/* The array member key of obj (which json_read_object() checked is there). */
const cJSON *json_read_array(struct json_read *jr, const cJSON *obj,
			     const char *key, size_t max, size_t *mark)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(obj, key);
	int size;

	*mark = json_read_push_key(jr, key);
	if (!cJSON_IsArray(arr)) {
		json_read_type_fail(jr, arr, "an array");
		return NULL;
	}
	size = cJSON_GetArraySize(arr);
	if (size < 0 || (size_t)size > max) {
		json_read_fail(jr, "too many elements (%d, at most %zu)", size,
			       max);
		return NULL;
	}
	return arr;
}
