/* json-write: checked cJSON builders for mmcmp's JSON writers. */
#include "json-write.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "strbuf.h"
#include "util.h"

/* cJSON returns NULL only when malloc() fails: abort as xmalloc() does. */
static cJSON *jcheck(cJSON *node)
{
	if (!node)
		die_oom(0);
	return node;
}

/* Append s to sb with each byte that is not UTF-8 replaced by U+FFFD. */
static void add_utf8(struct strbuf *sb, const char *s)
{
	while (*s) {
		size_t n = utf8_seq(s);

		if (n) {
			strbuf_add(sb, s, n);
			s += n;
		} else {
			strbuf_addstr(sb, "\xef\xbf\xbd");
			s++;
		}
	}
}

cJSON *json_write_object(void)
{
	return jcheck(cJSON_CreateObject());
}

cJSON *json_write_array(void)
{
	return jcheck(cJSON_CreateArray());
}

cJSON *json_write_add(cJSON *obj, const char *key, cJSON *item)
{
	if (!cJSON_AddItemToObjectCS(obj, key, jcheck(item)))
		die_oom(0);
	return item;
}

cJSON *json_write_add_named(cJSON *obj, const char *key, cJSON *item)
{
	struct strbuf fixed = STRBUF_INIT;

	if (!utf8_valid(key)) {
		add_utf8(&fixed, key);
		key = fixed.buf;
	}
	if (!cJSON_AddItemToObject(obj, key, jcheck(item)))
		die_oom(0);
	strbuf_release(&fixed);
	return item;
}

cJSON *json_write_push(cJSON *arr, cJSON *item)
{
	if (!cJSON_AddItemToArray(arr, jcheck(item)))
		die_oom(0);
	return item;
}

cJSON *json_write_str(const char *s)
{
	struct strbuf fixed = STRBUF_INIT;
	cJSON *node;

	if (!s)
		return jcheck(cJSON_CreateNull());
	if (utf8_valid(s))
		return jcheck(cJSON_CreateString(s));
	add_utf8(&fixed, s);
	node = jcheck(cJSON_CreateString(fixed.buf));
	strbuf_release(&fixed);
	return node;
}

cJSON *json_write_int(int64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	return jcheck(cJSON_CreateRaw(buf));
}

cJSON *json_write_num(double v)
{
	struct strbuf sb = STRBUF_INIT;
	cJSON *node;

	if (!isfinite(v))
		return jcheck(cJSON_CreateNull());
	strbuf_add_double(&sb, v);
	node = jcheck(cJSON_CreateRaw(sb.buf));
	strbuf_release(&sb);
	return node;
}

cJSON *json_write_bool(bool v)
{
	return jcheck(cJSON_CreateBool(v));
}

cJSON *json_write_null(void)
{
	return jcheck(cJSON_CreateNull());
}

cJSON *json_write_raw(const char *text)
{
	return jcheck(cJSON_CreateRaw(text));
}

cJSON *json_write_parsed(const char *text)
{
	cJSON *o = text ? cJSON_Parse(text) : NULL;

	return o ? o : jcheck(cJSON_CreateNull());
}

void json_write_print(const cJSON *root, struct strbuf *out)
{
	char *text = cJSON_Print(root);

	if (!text)
		die_oom(0);
	strbuf_addstr(out, text);
	strbuf_addch(out, '\n');
	cJSON_free(text);
}

char *json_write_compact(const cJSON *root)
{
	char *text = cJSON_PrintUnformatted(root), *copy;

	if (!text)
		die_oom(0);
	copy = xstrdup(text);
	cJSON_free(text);
	return copy;
}

void json_write_free(cJSON *root)
{
	cJSON_Delete(root);
}
