/* json-path: the numbers a path selects in a JSON document, for extract. */
#include "json.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "json-internal.h"
#include "parse-num.h"
#include "strbuf.h"
#include "util.h"

/* Paths */

enum path_kind {
	PATH_MEMBER, /* name */
	PATH_INDEX,  /* [3] */
	PATH_ALL,    /* [*] */
	PATH_MATCH,  /* [name=value] */
};

struct path_step {
	enum path_kind kind;
	bool bare;   /* an unquoted member name: may join the next one */
	char *name;  /* PATH_MEMBER, PATH_MATCH */
	char *value; /* PATH_MATCH */
	int index;   /* PATH_INDEX */
};

struct path {
	struct path_step *v;
	size_t nr, alloc;
};

#define PATH_INIT                                                              \
	{                                                                      \
		NULL, 0, 0                                                     \
	}

static void path_release(struct path *p)
{
	for (size_t i = 0; i < p->nr; i++) {
		free(p->v[i].name);
		free(p->v[i].value);
	}
	free(p->v);
	p->v = NULL;
	p->nr = p->alloc = 0;
}

/*
 * Read a quoted string at *pp (which points at the opening quote) into
 * out, leaving *pp after the closing quote. False when unterminated.
 */
static bool read_quoted(const char **pp, struct strbuf *out)
{
	const char *p = *pp + 1;

	for (;;) {
		if (!*p)
			return false;
		if (*p == '"')
			break;
		if (*p == '\\' && p[1])
			p++;
		strbuf_addch(out, *p++);
	}
	*pp = p + 1;
	return true;
}

/* Read up to the next unescaped ']' (not consumed); false at the end. */
static bool read_bare_value(const char **pp, struct strbuf *out)
{
	const char *p = *pp;

	while (*p != ']') {
		if (!*p)
			return false;
		if (*p == '\\' && p[1])
			p++;
		strbuf_addch(out, *p++);
	}
	*pp = p;
	return true;
}

static int path_error(struct strbuf *err, const char *path, const char *at,
		      const char *what)
{
	return error_addf(err, "invalid JSON path '%s': %s at column %zu", path,
			  what, (size_t)(at - path) + 1);
}

/* Parse the bracket at *pp into step and move *pp past it. */
static int parse_bracket(const char *path, const char **pp,
			 struct path_step *step, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = *pp + 1;
	int ret = -1;

	if (p[0] == '*' && p[1] == ']') {
		step->kind = PATH_ALL;
		p += 2;
	} else if (isdigit((unsigned char)*p)) {
		size_t n = strspn(p, "0123456789");

		strbuf_add(&sb, p, n);
		if (p[n] != ']') {
			path_error(err, path, p + n, "expected ']'");
			goto out;
		}
		if (!parse_int(sb.buf, 0, INT_MAX, &step->index)) {
			path_error(err, path, p, "index too large");
			goto out;
		}
		step->kind = PATH_INDEX;
		p += n + 1;
	} else if (*p == '"') {
		if (!read_quoted(&p, &sb)) {
			path_error(err, path, p, "unterminated quoted name");
			goto out;
		}
		if (*p != ']') {
			path_error(err, path, p, "expected ']'");
			goto out;
		}
		step->kind = PATH_MEMBER;
		step->name = strbuf_detach(&sb, NULL);
		p++;
	} else {
		size_t n = strcspn(p, "=]");

		if (!n || p[n] != '=') {
			path_error(err, path, p,
				   "expected '*', an index, "
				   "a quoted name or NAME=VALUE");
			goto out;
		}
		step->kind = PATH_MATCH;
		step->name = xstrndup(p, n);
		p += n + 1;
		if (*p == '"' ? !read_quoted(&p, &sb)
			      : !read_bare_value(&p, &sb)) {
			path_error(err, path, p, "unterminated value");
			goto out;
		}
		if (*p != ']') {
			path_error(err, path, p, "expected ']'");
			goto out;
		}
		step->value = strbuf_detach(&sb, NULL);
		p++;
	}
	*pp = p;
	ret = 0;
out:
	strbuf_release(&sb);
	return ret;
}

static int path_parse(const char *path, struct path *out, struct strbuf *err)
{
	const char *p = path;

	while (*p) {
		struct path_step step = {.kind = PATH_MEMBER};

		if (*p == '[') {
			if (parse_bracket(path, &p, &step, err)) {
				free(step.name);
				return -1;
			}
		} else {
			size_t n;

			if (p != path) {
				if (*p != '.')
					return path_error(
						err, path, p,
						"expected '.' or '['");
				p++;
			}
			n = strcspn(p, ".[]");
			if (!n)
				return path_error(err, path, p,
						  "empty member name");
			step.name = xstrndup(p, n);
			step.bare = true;
			p += n;
		}
		ALLOC_GROW(out->v, out->nr + 1, out->alloc);
		out->v[out->nr++] = step;
	}
	return 0;
}

bool json_path_check(const char *path, struct strbuf *err)
{
	struct path p = PATH_INIT;
	int ret = path_parse(path, &p, err);

	path_release(&p);
	return !ret;
}

/* Walking a document along a path */

struct walk {
	const struct path *path;
	const char *text;    /* the path as written, for messages */
	struct strbuf where; /* the concrete location visited, "jobs[0].read" */
	struct strbuf miss;  /* why the first dead end selected nothing */
	double **v;
	size_t *nr, *alloc;
	size_t found;
	struct strbuf *err;
};

static void add_where(struct strbuf *sb, const struct walk *w)
{
	if (w->where.len)
		strbuf_addf(sb, "'%s'", w->where.buf);
	else
		strbuf_addstr(sb, "the top-level value");
}

/* Remember why a branch selected nothing, unless a reason is known. */
MMCMP_PRINTF(2, 3) static void walk_miss(struct walk *w, const char *fmt, ...)
{
	va_list ap;

	if (w->miss.len)
		return;
	add_where(&w->miss, w);
	strbuf_addch(&w->miss, ' ');
	va_start(ap, fmt);
	strbuf_vaddf(&w->miss, fmt, ap);
	va_end(ap);
}

static int walk(struct walk *w, const cJSON *node, size_t i);

static int take_number(struct walk *w, const cJSON *node)
{
	struct strbuf msg = STRBUF_INIT;

	if (cJSON_IsNumber(node) && isfinite(node->valuedouble)) {
		ALLOC_GROW(*w->v, *w->nr + 1, *w->alloc);
		(*w->v)[(*w->nr)++] = node->valuedouble;
		w->found++;
		return 0;
	}
	add_where(&msg, w);
	if (cJSON_IsNumber(node))
		strbuf_addstr(&msg, " is not a finite number");
	else
		strbuf_addf(&msg, " is %s, not a number", json_type_name(node));
	error_addf(w->err, "JSON path '%s': %s", w->text, msg.buf);
	strbuf_release(&msg);
	return -1;
}

static void where_add_member(struct walk *w, const char *name)
{
	if (w->where.len)
		strbuf_addch(&w->where, '.');
	strbuf_addstr(&w->where, name);
}

static int walk_member(struct walk *w, const cJSON *node, size_t i)
{
	const struct path_step *steps = w->path->v;
	struct strbuf name = STRBUF_INIT;
	const cJSON *child;
	size_t j = i;
	int ret = 0;

	if (!cJSON_IsObject(node)) {
		walk_miss(w, "is %s, not an object", json_type_name(node));
		return 0;
	}
	strbuf_addstr(&name, steps[i].name);
	child = cJSON_GetObjectItemCaseSensitive(node, name.buf);
	/* "percentile.99.000000": the member may hold the dots itself. */
	while (!child && steps[j].bare && j + 1 < w->path->nr &&
	       steps[j + 1].kind == PATH_MEMBER && steps[j + 1].bare) {
		j++;
		strbuf_addch(&name, '.');
		strbuf_addstr(&name, steps[j].name);
		child = cJSON_GetObjectItemCaseSensitive(node, name.buf);
	}
	if (child) {
		where_add_member(w, name.buf);
		ret = walk(w, child, j + 1);
	} else {
		walk_miss(w, "has no member '%s'", steps[i].name);
	}
	strbuf_release(&name);
	return ret;
}

static int walk_index(struct walk *w, const cJSON *node, size_t i)
{
	int index = w->path->v[i].index;
	int size;

	if (!cJSON_IsArray(node)) {
		walk_miss(w, "is %s, not an array", json_type_name(node));
		return 0;
	}
	size = cJSON_GetArraySize(node);
	if (index >= size) {
		walk_miss(w, "has %d elements, no [%d]", size, index);
		return 0;
	}
	strbuf_addf(&w->where, "[%d]", index);
	return walk(w, cJSON_GetArrayItem(node, index), i + 1);
}

static int walk_all(struct walk *w, const cJSON *node, size_t i)
{
	size_t mark = w->where.len;
	const cJSON *child;
	size_t k = 0;

	if (!cJSON_IsArray(node) && !cJSON_IsObject(node)) {
		walk_miss(w, "is %s, not an array or object",
			  json_type_name(node));
		return 0;
	}
	if (!node->child) {
		walk_miss(w, "is empty");
		return 0;
	}
	cJSON_ArrayForEach(child, node)
	{
		if (cJSON_IsArray(node))
			strbuf_addf(&w->where, "[%zu]", k++);
		else
			where_add_member(w, child->string ? child->string : "");
		if (walk(w, child, i + 1))
			return -1;
		strbuf_setlen(&w->where, mark);
	}
	return 0;
}

static bool member_matches(const cJSON *el, const struct path_step *step)
{
	const cJSON *m;
	double d;

	if (!cJSON_IsObject(el))
		return false;
	m = cJSON_GetObjectItemCaseSensitive(el, step->name);
	if (cJSON_IsString(m))
		return !strcmp(m->valuestring, step->value);
	if (cJSON_IsNumber(m) && parse_double(step->value, &d))
		return m->valuedouble == d;
	return false;
}

static int walk_match(struct walk *w, const cJSON *node, size_t i)
{
	const struct path_step *step = &w->path->v[i];
	size_t mark = w->where.len;
	size_t k = 0, matched = 0;
	const cJSON *el;

	if (!cJSON_IsArray(node)) {
		walk_miss(w, "is %s, not an array", json_type_name(node));
		return 0;
	}
	cJSON_ArrayForEach(el, node)
	{
		if (member_matches(el, step)) {
			matched++;
			strbuf_addf(&w->where, "[%zu]", k);
			if (walk(w, el, i + 1))
				return -1;
			strbuf_setlen(&w->where, mark);
		}
		k++;
	}
	if (!matched)
		walk_miss(w, "has no element with %s=%s", step->name,
			  step->value);
	return 0;
}

/*
 * Visit node for step i of the path. Returns -1 only for a selected value
 * that is not a number; dead ends are noted in w->miss.
 */
static int walk(struct walk *w, const cJSON *node, size_t i)
{
	size_t mark = w->where.len;
	int ret = 0;

	if (i == w->path->nr)
		return take_number(w, node);
	switch (w->path->v[i].kind) {
	case PATH_MEMBER:
		ret = walk_member(w, node, i);
		break;
	case PATH_INDEX:
		ret = walk_index(w, node, i);
		break;
	case PATH_ALL:
		ret = walk_all(w, node, i);
		break;
	case PATH_MATCH:
		ret = walk_match(w, node, i);
		break;
	}
	strbuf_setlen(&w->where, mark);
	return ret;
}

int json_extract_numbers(const char *text, size_t len, const char *path,
			 double **v, size_t *nr, size_t *alloc,
			 struct strbuf *err)
{
	struct path steps = PATH_INIT;
	struct walk w = {
		.path = &steps,
		.text = path,
		.where = STRBUF_INIT,
		.miss = STRBUF_INIT,
		.v = v,
		.nr = nr,
		.alloc = alloc,
		.err = err,
	};
	size_t start = *nr;
	cJSON *root = NULL;
	int ret = -1;

	if (path_parse(path, &steps, err))
		goto out;
	root = json_parse(text, len, err);
	if (!root)
		goto out;
	if (walk(&w, root, 0))
		goto out;
	if (!w.found) {
		error_addf(err, "JSON path '%s' selects nothing: %s", path,
			   w.miss.buf);
		goto out;
	}
	ret = 0;
out:
	if (ret)
		*nr = start;
	cJSON_Delete(root);
	path_release(&steps);
	strbuf_release(&w.where);
	strbuf_release(&w.miss);
	return ret;
}
