/* json: JSON through cJSON: numbers by path, export documents out and in. */
#include "json.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "compare.h"
#include "mmcmp-version.h"
#include "parse-num.h"
#include "run-data.h"
#include "sha256.h"
#include "stats.h"
#include "strbuf.h"
#include "strmap.h"
#include "util.h"

/* Reading documents */

/* Append "line L, column C" for byte offset pos of text. */
static void add_position(struct strbuf *sb, const char *text, size_t pos)
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

static size_t skip_space(const char *s, size_t pos, size_t len)
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

/*
 * Parse the len bytes at text, followed by a NUL, as one JSON document.
 * Returns the tree, for the caller to free with cJSON_Delete(), or NULL
 * after a message.
 */
static cJSON *json_parse_terminated(const char *text, size_t len,
				    struct strbuf *err)
{
	struct strbuf msg = STRBUF_INIT;
	const char *end = NULL;
	cJSON *root = NULL;
	size_t pos;

	if (skip_space(text, 0, len) == len) {
		error_addf(err, "the output is empty, not JSON");
		goto out;
	}
	/* cJSON takes NUL bytes for blanks and ends strings at them. */
	pos = strlen(text);
	if (pos < len) {
		strbuf_addstr(&msg, "invalid JSON: a NUL byte at ");
		add_position(&msg, text, pos);
		error_addf(err, "%s", msg.buf);
		goto out;
	}
	root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	pos = end ? (size_t)(end - text) : 0;
	if (!root) {
		/* cJSON's position can be a byte late: "near". */
		if (json_unclosed(text, len)) {
			strbuf_addstr(&msg,
				      "the JSON ends early (truncated?) at ");
			pos = len;
		} else {
			strbuf_addstr(&msg, "invalid JSON near ");
		}
		add_position(&msg, text, pos);
		error_addf(err, "%s", msg.buf);
		goto out;
	}
	pos = skip_space(text, pos, len);
	if (pos < len) {
		cJSON_Delete(root);
		root = NULL;
		strbuf_addstr(&msg, "unexpected text after the JSON value at ");
		add_position(&msg, text, pos);
		error_addf(err, "%s", msg.buf);
	}
out:
	strbuf_release(&msg);
	return root;
}

/* json_parse_terminated() of a terminated copy of text. */
static cJSON *json_parse(const char *text, size_t len, struct strbuf *err)
{
	struct strbuf copy = STRBUF_INIT;
	cJSON *root;

	/* A terminated copy: no cJSON version can then read past the end. */
	strbuf_add(&copy, text, len);
	root = json_parse_terminated(copy.buf, copy.len, err);
	strbuf_release(&copy);
	return root;
}

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

static const char *type_name(const cJSON *node)
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
		strbuf_addf(&msg, " is %s, not a number", type_name(node));
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
		walk_miss(w, "is %s, not an object", type_name(node));
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
		walk_miss(w, "is %s, not an array", type_name(node));
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
		walk_miss(w, "is %s, not an array or object", type_name(node));
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
		walk_miss(w, "is %s, not an array", type_name(node));
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

/* Writing export documents */

/* cJSON returns NULL only when malloc() fails: abort as xmalloc() does. */
static cJSON *jcheck(cJSON *node)
{
	if (!node)
		die_oom(0);
	return node;
}

/* Add item to obj under key, a string literal that outlives the tree. */
static cJSON *jadd(cJSON *obj, const char *key, cJSON *item)
{
	if (!cJSON_AddItemToObjectCS(obj, key, jcheck(item)))
		die_oom(0);
	return item;
}

static cJSON *jpush(cJSON *arr, cJSON *item)
{
	if (!cJSON_AddItemToArray(arr, jcheck(item)))
		die_oom(0);
	return item;
}

/* A string node of s (NULL: null), bad UTF-8 bytes replaced by U+FFFD. */
static cJSON *jstr(const char *s)
{
	struct strbuf fixed = STRBUF_INIT;
	const char *p = s;
	cJSON *node;

	if (!s)
		return jcheck(cJSON_CreateNull());
	if (utf8_valid(s))
		return jcheck(cJSON_CreateString(s));
	while (*p) {
		size_t n = utf8_seq(p);

		if (n) {
			strbuf_add(&fixed, p, n);
			p += n;
		} else {
			strbuf_addstr(&fixed, "\xef\xbf\xbd");
			p++;
		}
	}
	node = jcheck(cJSON_CreateString(fixed.buf));
	strbuf_release(&fixed);
	return node;
}

static cJSON *jint(int64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	return jcheck(cJSON_CreateRaw(buf));
}

/* v exactly (strbuf_add_double()), or null when it is NaN or infinite. */
static cJSON *jnum(double v)
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

static cJSON *jbool(bool v)
{
	return jcheck(cJSON_CreateBool(v));
}

/* Print root formatted, then a newline, to out. */
static void jprint(const cJSON *root, struct strbuf *out)
{
	char *text = cJSON_Print(root);

	if (!text)
		die_oom(0);
	strbuf_addstr(out, text);
	strbuf_addch(out, '\n');
	cJSON_free(text);
}

struct json_export {
	cJSON *root;
	cJSON *runs;
};

struct json_export *json_export_new(void)
{
	struct json_export *je = xcalloc(1, sizeof(*je));

	je->root = jcheck(cJSON_CreateObject());
	jadd(je->root, "format", cJSON_CreateString(JSON_EXPORT_FORMAT));
	jadd(je->root, "version", jint(JSON_EXPORT_VERSION));
	jadd(je->root, "generator", cJSON_CreateString("mmcmp " MMCMP_VERSION));
	je->runs = jadd(je->root, "runs", cJSON_CreateArray());
	return je;
}

void json_export_free(struct json_export *je)
{
	if (!je)
		return;
	cJSON_Delete(je->root);
	free(je);
}

static cJSON *machine_object(const struct machine_info *m)
{
	cJSON *o = jcheck(cJSON_CreateObject());

	jadd(o, "hostname", jstr(m->hostname));
	jadd(o, "kernel_release", jstr(m->kernel_release));
	jadd(o, "kernel_version", jstr(m->kernel_version));
	jadd(o, "cmdline", jstr(m->cmdline));
	jadd(o, "cpu_model", jstr(m->cpu_model));
	jadd(o, "nr_cpus", jint(m->nr_cpus));
	jadd(o, "mem_bytes", jint(m->mem_bytes));
	jadd(o, "numa_nodes", jint(m->numa_nodes));
	jadd(o, "smt", jstr(m->smt));
	jadd(o, "thp_enabled", jstr(m->thp_enabled));
	jadd(o, "thp_defrag", jstr(m->thp_defrag));
	jadd(o, "cpufreq_governor", jstr(m->cpufreq_governor));
	jadd(o, "cgroup_mode", jstr(m->cgroup_mode));
	jadd(o, "kernel_config_sha256", jstr(m->kernel_config_sha256));
	return o;
}

/* The summary of n measured samples x (hyperfine's names where it has them). */
static cJSON *summary_object(const double *x, size_t n)
{
	cJSON *o = jcheck(cJSON_CreateObject());
	double mean = stats_amean(x, n), sd = stats_stddev(x, n);
	double min = NAN, max = NAN;

	for (size_t i = 0; i < n; i++) {
		if (!i || x[i] < min)
			min = x[i];
		if (!i || x[i] > max)
			max = x[i];
	}
	jadd(o, "n", jint((int64_t)n));
	jadd(o, "mean", jnum(mean));
	jadd(o, "stddev", jnum(sd));
	jadd(o, "median", jnum(stats_median(x, n)));
	jadd(o, "min", jnum(min));
	jadd(o, "max", jnum(max));
	jadd(o, "hmean", jnum(stats_hmean(x, n)));
	jadd(o, "gmean", jnum(stats_gmean(x, n)));
	jadd(o, "cv", jnum(mean != 0.0 ? sd * 100.0 / mean : NAN));
	return o;
}

/* The operations of rf with the summaries of their measured samples. */
static cJSON *operations_array(const struct run_full *rf)
{
	cJSON *arr = jcheck(cJSON_CreateArray());
	size_t *first = xcalloc(rf->ops_nr + 1, sizeof(*first));
	size_t *nr = xcalloc(rf->ops_nr + 1, sizeof(*nr));
	double *v = xcalloc(rf->samples_nr + 1, sizeof(*v));

	/* Gather each operation's measured samples, in stored order. */
	for (size_t i = 0; i < rf->iters_nr; i++) {
		const struct iteration_data *it = &rf->iters[i];

		for (size_t k = 0; !it->warmup && k < it->samples_nr; k++)
			nr[rf->samples[it->samples_first + k].op]++;
	}
	for (size_t o = 0, at = 0; o < rf->ops_nr; o++) {
		first[o] = at;
		at += nr[o];
		nr[o] = 0;
	}
	for (size_t i = 0; i < rf->iters_nr; i++) {
		const struct iteration_data *it = &rf->iters[i];

		for (size_t k = 0; !it->warmup && k < it->samples_nr; k++) {
			const struct sample_data *s =
				&rf->samples[it->samples_first + k];

			v[first[s->op] + nr[s->op]++] = s->value;
		}
	}
	for (size_t o = 0; o < rf->ops_nr; o++) {
		const struct op_samples *op = &rf->ops[o];
		cJSON *obj = jpush(arr, cJSON_CreateObject());

		jadd(obj, "benchmark", jstr(op->benchmark));
		jadd(obj, "name", jstr(op->name));
		jadd(obj, "unit", jstr(op->unit));
		jadd(obj, "better",
		     cJSON_CreateString(op->higher_better ? "higher"
							  : "lower"));
		jadd(obj, "decimals", jint(op->decimals));
		jadd(obj, "summary", summary_object(v + first[o], nr[o]));
	}
	free(first);
	free(nr);
	free(v);
	return arr;
}

/*
 * The samples of it: one {"operation", "values"} group per run of
 * consecutive samples of one operation, so the order is kept exactly
 * and a million values cost a million numbers, not objects.
 */
static cJSON *samples_array(const struct run_full *rf,
			    const struct iteration_data *it)
{
	/* No samples at all: rf->samples is NULL, and NULL + 0 is undefined. */
	const struct sample_data *s =
		it->samples_nr ? rf->samples + it->samples_first : NULL;
	cJSON *arr = jcheck(cJSON_CreateArray());
	struct strbuf values = STRBUF_INIT;

	for (size_t k = 0; k < it->samples_nr;) {
		cJSON *group = jpush(arr, cJSON_CreateObject());
		size_t op = s[k].op;

		strbuf_reset(&values);
		strbuf_addch(&values, '[');
		for (size_t j = k; k < it->samples_nr && s[k].op == op; k++) {
			if (k != j)
				strbuf_addstr(&values, ", ");
			strbuf_add_double(&values, s[k].value);
		}
		strbuf_addch(&values, ']');
		jadd(group, "operation", jint((int64_t)op));
		jadd(group, "values", cJSON_CreateRaw(values.buf));
	}
	strbuf_release(&values);
	return arr;
}

static cJSON *iterations_array(const struct run_full *rf)
{
	cJSON *arr = jcheck(cJSON_CreateArray());

	for (size_t i = 0; i < rf->iters_nr; i++) {
		const struct iteration_data *it = &rf->iters[i];
		cJSON *o = jpush(arr, cJSON_CreateObject());

		jadd(o, "benchmark", jstr(it->benchmark));
		jadd(o, "job", jstr(it->job));
		jadd(o, "build", jstr(it->build));
		jadd(o, "index", jint(it->index));
		jadd(o, "warmup", jbool(it->warmup));
		jadd(o, "status", jstr(it->status));
		jadd(o, "exit_code", jint(it->exit_code));
		jadd(o, "signal", jint(it->term_signal));
		jadd(o, "started_at", jstr(it->started_at));
		jadd(o, "elapsed_s", jnum(it->elapsed_s));
		jadd(o, "user_s", jnum(it->user_s));
		jadd(o, "sys_s", jnum(it->sys_s));
		jadd(o, "maxrss_kb", jint(it->maxrss_kb));
		jadd(o, "stderr_tail", jstr(it->stderr_tail));
		jadd(o, "samples", samples_array(rf, it));
	}
	return arr;
}

void json_export_add_run(struct json_export *je, const struct run_full *rf)
{
	const struct run_info *ri = &rf->info;
	cJSON *run = jpush(je->runs, cJSON_CreateObject());
	cJSON *config;

	jadd(run, "uuid", jstr(ri->uuid));
	jadd(run, "label", jstr(ri->label));
	jadd(run, "status", jstr(ri->status));
	jadd(run, "started_at", jstr(ri->started_at));
	jadd(run, "ended_at", jstr(ri->ended_at));
	jadd(run, "mmcmp_version", jstr(ri->mmcmp_version));
	jadd(run, "cgroup", jstr(ri->cgroup));
	config = jadd(run, "config", cJSON_CreateObject());
	jadd(config, "name", jstr(ri->config_name));
	jadd(config, "text", jstr(ri->config_text));
	jadd(config, "sha256", jstr(ri->config_hash));
	jadd(run, "machine", machine_object(&ri->machine));
	jadd(run, "operations", operations_array(rf));
	jadd(run, "iterations", iterations_array(rf));
}

/* One cell of a comparison: the shape export and compare share. */
static cJSON *cell_object(const struct compare_result *res,
			  const struct compare_bench *b, size_t row, size_t run)
{
	const struct compare_row *r = &b->rows[row];
	const struct compare_op *op = &b->ops[r->op];
	const struct compare_cell *c = compare_cell(res, b, row, run);
	const struct compare_side *side = &op->side[run];
	bool mean = r->stat == COMPARE_STAT_MEAN;
	cJSON *o = jcheck(cJSON_CreateObject());
	double pct = NAN;

	/* compare.h keeps 0 where there is no value; here that is null. */
	if (!isnan(c->value))
		pct = run ? c->pct : 0.0;
	jadd(o, "stat", jstr(r->label));
	jadd(o, "label", jstr(res->labels[run]));
	jadd(o, "value", jnum(c->value));
	jadd(o, "percentage", jnum(pct));
	jadd(o, "p_value", jnum(mean && run ? side->p : NAN));
	jadd(o, "significant", jbool(c->significant));
	jadd(o, "n_base", jint((int64_t)op->side[0].sum.n));
	jadd(o, "n_other", jint((int64_t)side->sum.n));
	return o;
}

static cJSON *bench_object(const struct compare_result *res,
			   const struct compare_bench *b)
{
	cJSON *o = jcheck(cJSON_CreateObject()), *ops, *durations;

	jadd(o, "name", jstr(b->name));
	ops = jadd(o, "operations", cJSON_CreateArray());
	for (size_t i = 0; i < b->ops_nr; i++) {
		const struct compare_op *op = &b->ops[i];
		cJSON *oo = jpush(ops, cJSON_CreateObject()), *cells;

		jadd(oo, "name", jstr(op->name));
		jadd(oo, "unit", jstr(op->unit));
		jadd(oo, "better",
		     cJSON_CreateString(op->higher_better ? "higher"
							  : "lower"));
		jadd(oo, "decimals", jint(op->decimals));
		cells = jadd(oo, "cells", cJSON_CreateArray());
		/* Rows are stat-major: this op's are every ops_nr-th. */
		for (size_t r = 0; r < b->rows_nr; r++) {
			if (b->rows[r].op != i)
				continue;
			for (size_t run = 0; run < res->runs_nr; run++)
				jpush(cells, cell_object(res, b, r, run));
		}
	}
	durations = jadd(o, "durations", cJSON_CreateArray());
	for (size_t run = 0; b->has_durations && run < res->runs_nr; run++) {
		const struct compare_duration *d = &b->durations[run];
		cJSON *dd = jpush(durations, cJSON_CreateObject());

		jadd(dd, "label", jstr(res->labels[run]));
		jadd(dd, "user_s", jnum(d->present ? d->user_s : NAN));
		jadd(dd, "sys_s", jnum(d->present ? d->sys_s : NAN));
		jadd(dd, "elapsed_s", jnum(d->present ? d->elapsed_s : NAN));
	}
	return o;
}

static cJSON *compare_object(const struct compare_result *res)
{
	cJSON *o = jcheck(cJSON_CreateObject()), *labels, *diffs, *benches;

	jadd(o, "format", cJSON_CreateString(JSON_COMPARE_FORMAT));
	jadd(o, "version", jint(JSON_COMPARE_VERSION));
	jadd(o, "test", jstr(compare_test_name(res->opts.test)));
	jadd(o, "alpha", jnum(res->opts.alpha));
	jadd(o, "fdr", jbool(res->opts.fdr));
	labels = jadd(o, "labels", cJSON_CreateArray());
	for (size_t i = 0; i < res->runs_nr; i++)
		jpush(labels, jstr(res->labels[i]));
	diffs = jadd(o, "machine_diffs", cJSON_CreateArray());
	for (size_t i = 0; i < res->machine_diffs.nr; i++)
		jpush(diffs, jstr(res->machine_diffs.v[i]));
	benches = jadd(o, "benchmarks", cJSON_CreateArray());
	for (size_t i = 0; i < res->bench_nr; i++)
		jpush(benches, bench_object(res, &res->bench[i]));
	return o;
}

void json_export_add_compare(struct json_export *je,
			     const struct compare_result *res)
{
	jadd(je->root, "comparison", compare_object(res));
}

void json_export_finish(struct json_export *je, struct strbuf *out)
{
	jprint(je->root, out);
}

void json_render_compare(const struct compare_result *res, struct strbuf *out)
{
	cJSON *root = compare_object(res);

	jprint(root, out);
	cJSON_Delete(root);
}

/* Reading export documents */

/* What a member of an object must hold, and where it is kept. */
enum jf_kind {
	JF_STRING, /* a string of at most max bytes, may be empty */
	JF_NAME,   /* the same, not empty */
	JF_TIME,   /* "YYYY-MM-DDTHH:MM:SSZ" */
	JF_UUID,   /* 36 lowercase characters, 8-4-4-4-12 hex */
	JF_SHA256, /* 64 lowercase hex digits */
	JF_CHOICE, /* one of choices, kept as a string */
	JF_BETTER, /* "higher" or "lower", kept as a bool */
	JF_BOOL,
	JF_INT,	    /* an integer in [min, max], kept in size bytes */
	JF_SECONDS, /* a finite number from 0 to 1e9 */
	JF_OTHER,   /* required, read by the caller */
	JF_IGNORED, /* optional object, derived, not read */
};

struct jfield {
	const char *name;
	enum jf_kind kind;
	bool nullable;
	size_t offset; /* in the struct being filled */
	size_t size;   /* JF_INT: of the member, int or int64_t */
	size_t max;    /* string kinds: bytes */
	int64_t min_int, max_int;
	const char *const *choices; /* JF_CHOICE, NULL-terminated */
};

/* The most members an object of the format has. */
#define JR_MAX_FIELDS 16
/* Integers in JSON are exact up to 2^53. */
#define JR_INT_MAX (INT64_C(1) << 53)

#define F_STR(st, m, lim, null)                                                \
	.kind = JF_STRING, .offset = offsetof(st, m), .max = (lim),            \
	.nullable = (null)
#define F_KIND(k, st, m, null)                                                 \
	.kind = (k), .offset = offsetof(st, m), .max = JSON_MAX_NAME,          \
	.nullable = (null)
#define F_INT(st, m, lo, hi)                                                   \
	.kind = JF_INT, .offset = offsetof(st, m),                             \
	.size = sizeof(((st *)NULL)->m), .min_int = (lo), .max_int = (hi)

static const char *const run_statuses[] = {
	"running", "complete", "interrupted", "failed", "aborted", NULL,
};
static const char *const iteration_statuses[] = {
	"ok",	       "exit", "signal",  "timeout",
	"interrupted", "exec", "extract", NULL,
};
static const char *const cgroup_modes[] = {"v1", "v2", "hybrid", NULL};

/* The members of the top-level object; generator is checked, not kept. */
struct jr_top {
	char *generator;
};

static const struct jfield top_fields[] = {
	{.name = "format", .kind = JF_OTHER},
	{.name = "version", .kind = JF_OTHER},
	{.name = "generator",
	 F_STR(struct jr_top, generator, JSON_MAX_NAME, false)},
	{.name = "runs", .kind = JF_OTHER},
	{.name = "comparison", .kind = JF_IGNORED},
};

static const struct jfield run_fields[] = {
	{.name = "uuid", F_KIND(JF_UUID, struct run_info, uuid, false)},
	{.name = "label", F_KIND(JF_NAME, struct run_info, label, false)},
	{.name = "status",
	 F_KIND(JF_CHOICE, struct run_info, status, false),
	 .choices = run_statuses},
	{.name = "started_at",
	 F_KIND(JF_TIME, struct run_info, started_at, false)},
	{.name = "ended_at", F_KIND(JF_TIME, struct run_info, ended_at, true)},
	{.name = "mmcmp_version",
	 F_STR(struct run_info, mmcmp_version, JSON_MAX_NAME, true)},
	{.name = "cgroup", F_STR(struct run_info, cgroup, JSON_MAX_NAME, true)},
	{.name = "config", .kind = JF_OTHER},
	{.name = "machine", .kind = JF_OTHER},
	{.name = "operations", .kind = JF_OTHER},
	{.name = "iterations", .kind = JF_OTHER},
};

static const struct jfield config_fields[] = {
	{.name = "name",
	 F_STR(struct run_info, config_name, JSON_MAX_NAME, true)},
	{.name = "text",
	 F_STR(struct run_info, config_text, JSON_MAX_TEXT, true)},
	{.name = "sha256",
	 F_KIND(JF_SHA256, struct run_info, config_hash, true)},
};

static const struct jfield machine_fields[] = {
	{.name = "hostname",
	 F_STR(struct machine_info, hostname, JSON_MAX_NAME, true)},
	{.name = "kernel_release",
	 F_STR(struct machine_info, kernel_release, JSON_MAX_NAME, true)},
	{.name = "kernel_version",
	 F_STR(struct machine_info, kernel_version, JSON_MAX_NAME, true)},
	{.name = "cmdline",
	 F_STR(struct machine_info, cmdline, JSON_MAX_TEXT, true)},
	{.name = "cpu_model",
	 F_STR(struct machine_info, cpu_model, JSON_MAX_NAME, true)},
	{.name = "nr_cpus", F_INT(struct machine_info, nr_cpus, 0, 1 << 20)},
	{.name = "mem_bytes",
	 F_INT(struct machine_info, mem_bytes, 0, JR_INT_MAX)},
	{.name = "numa_nodes",
	 F_INT(struct machine_info, numa_nodes, 0, 1 << 20)},
	{.name = "smt", F_STR(struct machine_info, smt, JSON_MAX_NAME, true)},
	{.name = "thp_enabled",
	 F_STR(struct machine_info, thp_enabled, JSON_MAX_NAME, true)},
	{.name = "thp_defrag",
	 F_STR(struct machine_info, thp_defrag, JSON_MAX_NAME, true)},
	{.name = "cpufreq_governor",
	 F_STR(struct machine_info, cpufreq_governor, JSON_MAX_NAME, true)},
	{.name = "cgroup_mode",
	 F_KIND(JF_CHOICE, struct machine_info, cgroup_mode, true),
	 .choices = cgroup_modes},
	{.name = "kernel_config_sha256",
	 F_KIND(JF_SHA256, struct machine_info, kernel_config_sha256, true)},
};

/* Decimals as a config allows them. */
static const struct jfield operation_fields[] = {
	{.name = "benchmark",
	 F_KIND(JF_NAME, struct op_samples, benchmark, false)},
	{.name = "name", F_KIND(JF_NAME, struct op_samples, name, false)},
	{.name = "unit", F_STR(struct op_samples, unit, JSON_MAX_NAME, false)},
	{.name = "better",
	 F_KIND(JF_BETTER, struct op_samples, higher_better, false)},
	{.name = "decimals", F_INT(struct op_samples, decimals, 0, 12)},
	{.name = "summary", .kind = JF_IGNORED},
};

static const struct jfield iteration_fields[] = {
	{.name = "benchmark",
	 F_KIND(JF_NAME, struct iteration_data, benchmark, false)},
	{.name = "job",
	 F_STR(struct iteration_data, job, JSON_MAX_NAME, false)},
	{.name = "build",
	 F_STR(struct iteration_data, build, JSON_MAX_NAME, true)},
	{.name = "index", F_INT(struct iteration_data, index, 0, JR_INT_MAX)},
	{.name = "warmup",
	 F_KIND(JF_BOOL, struct iteration_data, warmup, false)},
	{.name = "status",
	 F_KIND(JF_CHOICE, struct iteration_data, status, false),
	 .choices = iteration_statuses},
	{.name = "exit_code",
	 F_INT(struct iteration_data, exit_code, INT32_MIN, INT32_MAX)},
	{.name = "signal",
	 F_INT(struct iteration_data, term_signal, 0, INT32_MAX)},
	{.name = "started_at",
	 F_KIND(JF_TIME, struct iteration_data, started_at, false)},
	{.name = "elapsed_s",
	 F_KIND(JF_SECONDS, struct iteration_data, elapsed_s, false)},
	{.name = "user_s",
	 F_KIND(JF_SECONDS, struct iteration_data, user_s, false)},
	{.name = "sys_s",
	 F_KIND(JF_SECONDS, struct iteration_data, sys_s, false)},
	{.name = "maxrss_kb",
	 F_INT(struct iteration_data, maxrss_kb, 0, JR_INT_MAX)},
	{.name = "stderr_tail",
	 F_STR(struct iteration_data, stderr_tail, JSON_MAX_TEXT, true)},
	{.name = "samples", .kind = JF_OTHER},
};

/* A group of samples; values are read by the caller. */
struct jr_group {
	int64_t operation;
};

static const struct jfield group_fields[] = {
	{.name = "operation",
	 F_INT(struct jr_group, operation, 0, INT64_C(1) << 40)},
	{.name = "values", .kind = JF_OTHER},
};

/* The reader's state: where in which document, for messages. */
struct jr {
	const char *file;
	struct strbuf path;	  /* "runs[3].iterations[0]" */
	struct strbuf scratch[2]; /* jr_q() */
	struct strbuf *err;
};

/* Append "FILE: PATH: message" to err; returns -1. */
MMCMP_PRINTF(2, 3) static int jr_fail(struct jr *jr, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	error_addf(jr->err, "%s: %s: %s", jr->file,
		   jr->path.len ? jr->path.buf : "top level", msg.buf);
	strbuf_release(&msg);
	return -1;
}

/*
 * s fit for one line of a message: at most about 64 bytes, cut at a
 * character boundary, control characters (and every byte of a string
 * that is not UTF-8) as \xNN. Valid until the next call with the same
 * slot, 0 or 1, so one message can hold two.
 */
static const char *jr_q(struct jr *jr, int slot, const char *s)
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

static size_t jr_key(struct jr *jr, const char *key)
{
	size_t mark = jr->path.len;

	if (mark)
		strbuf_addch(&jr->path, '.');
	strbuf_addstr(&jr->path, key);
	return mark;
}

static size_t jr_index(struct jr *jr, size_t i)
{
	size_t mark = jr->path.len;

	strbuf_addf(&jr->path, "[%zu]", i);
	return mark;
}

static void jr_pop(struct jr *jr, size_t mark)
{
	strbuf_setlen(&jr->path, mark);
}

static int jr_type(struct jr *jr, const cJSON *node, const char *want)
{
	return jr_fail(jr, "expected %s, found %s", want, type_name(node));
}

static bool all_of(const char *s, size_t n, const char *set)
{
	return strlen(s) == n && strspn(s, set) == n;
}

static bool is_time(const char *s)
{
	/* Digits where the pattern has 'd'; ranges checked loosely. */
	static const char pat[] = "dddd-dd-ddTdd:dd:ddZ";

	if (strlen(s) != sizeof(pat) - 1)
		return false;
	for (size_t i = 0; pat[i]; i++) {
		if (pat[i] == 'd' ? !isdigit((unsigned char)s[i])
				  : s[i] != pat[i])
			return false;
	}
	return memcmp(s + 5, "01", 2) >= 0 && memcmp(s + 5, "12", 2) <= 0 &&
	       memcmp(s + 8, "01", 2) >= 0 && memcmp(s + 8, "31", 2) <= 0 &&
	       memcmp(s + 11, "23", 2) <= 0 && memcmp(s + 14, "59", 2) <= 0 &&
	       memcmp(s + 17, "60", 2) <= 0;
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
static int jr_string(struct jr *jr, const cJSON *node, const struct jfield *f,
		     char **out)
{
	const char *s;
	size_t len;

	if (f->nullable && cJSON_IsNull(node))
		return 0;
	if (!cJSON_IsString(node))
		return jr_type(jr, node,
			       f->nullable ? "a string or null" : "a string");
	s = node->valuestring;
	len = strlen(s);
	if (len > f->max)
		return jr_fail(jr, "string too long (%zu bytes, at most %zu)",
			       len, f->max);
	if (!utf8_valid(s))
		return jr_fail(jr, "invalid UTF-8");
	switch (f->kind) {
	case JF_NAME:
		if (!len)
			return jr_fail(jr, "empty string");
		break;
	case JF_TIME:
		if (!is_time(s))
			return jr_fail(
				jr,
				"'%s' is not a UTC time YYYY-MM-DDTHH:MM:SSZ",
				jr_q(jr, 0, s));
		break;
	case JF_UUID:
		if (!is_uuid(s))
			return jr_fail(jr, "'%s' is not a lowercase UUID",
				       jr_q(jr, 0, s));
		break;
	case JF_SHA256:
		if (!all_of(s, 64, "0123456789abcdef"))
			return jr_fail(jr,
				       "'%s' is not a lowercase hex SHA-256",
				       jr_q(jr, 0, s));
		break;
	case JF_CHOICE: {
		struct strbuf list = STRBUF_INIT;
		size_t i;

		for (i = 0; f->choices[i] && strcmp(s, f->choices[i]) != 0; i++)
			;
		if (f->choices[i])
			break;
		for (i = 0; f->choices[i]; i++)
			strbuf_addf(&list, "%s%s", i ? ", " : "",
				    f->choices[i]);
		jr_fail(jr, "unknown value '%s' (expected %s)", jr_q(jr, 0, s),
			list.buf);
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
static bool jr_number(struct jr *jr, const cJSON *node, const char *want,
		      double *out)
{
	if (!cJSON_IsNumber(node)) {
		jr_type(jr, node, want);
		return false;
	}
	if (!isfinite(node->valuedouble)) {
		jr_fail(jr, "not a finite number");
		return false;
	}
	*out = node->valuedouble;
	return true;
}

static int jr_int(struct jr *jr, const cJSON *node, const struct jfield *f,
		  void *out)
{
	double d;
	int64_t v;

	if (!jr_number(jr, node, "an integer", &d))
		return -1;
	if (d != floor(d) || fabs(d) > (double)JR_INT_MAX)
		return jr_fail(jr, "expected an integer, found %g", d);
	v = (int64_t)d;
	if (v < f->min_int || v > f->max_int)
		return jr_fail(jr,
			       "%" PRId64 " is out of range (%" PRId64
			       " to %" PRId64 ")",
			       v, f->min_int, f->max_int);
	if (f->size == sizeof(int))
		*(int *)out = (int)v;
	else if (f->size == sizeof(int64_t))
		*(int64_t *)out = v;
	else
		BUG("integer member '%s' of %zu bytes", f->name, f->size);
	return 0;
}

/* Read member node as f says into base + f->offset. */
static int jr_member(struct jr *jr, const cJSON *node, const struct jfield *f,
		     void *base)
{
	void *at = (char *)base + f->offset;
	double d;

	switch (f->kind) {
	case JF_STRING:
	case JF_NAME:
	case JF_TIME:
	case JF_UUID:
	case JF_SHA256:
	case JF_CHOICE:
		return jr_string(jr, node, f, (char **)at);
	case JF_BETTER:
		if (!cJSON_IsString(node))
			return jr_type(jr, node, "a string");
		if (strcmp(node->valuestring, "higher") != 0 &&
		    strcmp(node->valuestring, "lower") != 0)
			return jr_fail(
				jr,
				"unknown value '%s' (expected higher, lower)",
				jr_q(jr, 0, node->valuestring));
		*(bool *)at = !strcmp(node->valuestring, "higher");
		return 0;
	case JF_BOOL:
		if (!cJSON_IsBool(node))
			return jr_type(jr, node, "a boolean");
		*(bool *)at = cJSON_IsTrue(node);
		return 0;
	case JF_INT:
		return jr_int(jr, node, f, at);
	case JF_SECONDS:
		if (!jr_number(jr, node, "a number", &d))
			return -1;
		if (d < 0 || d > 1e9)
			return jr_fail(
				jr, "%.17g is out of range (0 to 1e9 seconds)",
				d);
		*(double *)at = d;
		return 0;
	case JF_IGNORED:
		return cJSON_IsObject(node) ? 0
					    : jr_type(jr, node, "an object");
	case JF_OTHER:
		return 0;
	}
	BUG("unknown member kind %d", (int)f->kind);
}

/*
 * Check that obj is an object with exactly the members of fields (the
 * optional ones may be absent), each once, and read them into base.
 */
static int jr_object(struct jr *jr, const cJSON *obj,
		     const struct jfield *fields, size_t nr, void *base)
{
	bool seen[JR_MAX_FIELDS] = {false};
	const cJSON *child;

	if (nr > JR_MAX_FIELDS)
		BUG("object of %zu members", nr);
	if (!cJSON_IsObject(obj))
		return jr_type(jr, obj, "an object");
	cJSON_ArrayForEach(child, obj)
	{
		size_t k;

		for (k = 0;
		     k < nr && strcmp(fields[k].name, child->string) != 0; k++)
			;
		if (k == nr)
			return jr_fail(jr, "unknown member '%s'",
				       jr_q(jr, 0, child->string));
		if (seen[k])
			return jr_fail(jr, "duplicate member '%s'",
				       fields[k].name);
		seen[k] = true;
	}
	for (size_t k = 0; k < nr; k++) {
		if (!seen[k] && fields[k].kind != JF_IGNORED)
			return jr_fail(jr, "missing member '%s'",
				       fields[k].name);
	}
	for (size_t k = 0; k < nr; k++) {
		size_t mark;

		if (!seen[k] || fields[k].kind == JF_OTHER)
			continue;
		mark = jr_key(jr, fields[k].name);
		if (jr_member(jr,
			      cJSON_GetObjectItemCaseSensitive(obj,
							       fields[k].name),
			      &fields[k], base))
			return -1;
		jr_pop(jr, mark);
	}
	return 0;
}

/* The array member key of obj (which jr_object() checked is there). */
static const cJSON *jr_array(struct jr *jr, const cJSON *obj, const char *key,
			     size_t max, size_t *mark)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(obj, key);
	int size;

	*mark = jr_key(jr, key);
	if (!cJSON_IsArray(arr)) {
		jr_type(jr, arr, "an array");
		return NULL;
	}
	size = cJSON_GetArraySize(arr);
	if (size < 0 || (size_t)size > max) {
		jr_fail(jr, "too many elements (%d, at most %zu)", size, max);
		return NULL;
	}
	return arr;
}

static int jr_operations(struct jr *jr, const cJSON *run, struct run_full *rf)
{
	struct strmap names = STRMAP_INIT;
	struct strbuf key = STRBUF_INIT;
	const cJSON *arr, *el;
	size_t mark, i = 0;
	int ret = -1;

	arr = jr_array(jr, run, "operations", JSON_MAX_OPERATIONS, &mark);
	if (!arr)
		goto out;
	cJSON_ArrayForEach(el, arr)
	{
		size_t m = jr_index(jr, i), other;
		struct op_samples *op;

		ALLOC_GROW(rf->ops, rf->ops_nr + 1, rf->ops_alloc);
		op = &rf->ops[rf->ops_nr++];
		memset(op, 0, sizeof(*op));
		if (jr_object(jr, el, operation_fields,
			      ARRAY_SIZE(operation_fields), op))
			goto out;
		strbuf_reset(&key);
		strbuf_add(&key, op->benchmark, strlen(op->benchmark) + 1);
		strbuf_addstr(&key, op->name);
		if (strmap_get(&names, key.buf, key.len, &other)) {
			jr_fail(jr, "operation '%s' of benchmark '%s' again",
				jr_q(jr, 0, op->name),
				jr_q(jr, 1, op->benchmark));
			goto out;
		}
		strmap_put(&names, key.buf, key.len, i);
		jr_pop(jr, m);
		i++;
	}
	jr_pop(jr, mark);
	ret = 0;
out:
	strmap_clear(&names);
	strbuf_release(&key);
	return ret;
}

/* The values of one group of samples, appended to rf->samples. */
static int jr_values(struct jr *jr, const cJSON *group, size_t op,
		     struct run_full *rf)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(group, "values");
	const cJSON *el;
	size_t mark = jr_key(jr, "values"), k = 0;

	if (!cJSON_IsArray(arr))
		return jr_type(jr, arr, "an array");
	if (!arr->child)
		return jr_fail(jr, "no values");
	cJSON_ArrayForEach(el, arr)
	{
		struct sample_data *s;

		if (!cJSON_IsNumber(el) || !isfinite(el->valuedouble)) {
			double d;

			jr_index(jr, k);
			jr_number(jr, el, "a number", &d);
			return -1;
		}
		if (rf->samples_nr >= JSON_MAX_SAMPLES) {
			jr_pop(jr, mark);
			return jr_fail(jr, "more than %zu samples in the run",
				       JSON_MAX_SAMPLES);
		}
		ALLOC_GROW(rf->samples, rf->samples_nr + 1, rf->samples_alloc);
		s = &rf->samples[rf->samples_nr++];
		s->op = op;
		s->value = el->valuedouble;
		k++;
	}
	jr_pop(jr, mark);
	return 0;
}

static int jr_samples(struct jr *jr, const cJSON *iter, struct run_full *rf,
		      struct iteration_data *it)
{
	const cJSON *arr, *el;
	size_t mark, i = 0;

	arr = jr_array(jr, iter, "samples", JSON_MAX_SAMPLES, &mark);
	if (!arr)
		return -1;
	it->samples_first = rf->samples_nr;
	cJSON_ArrayForEach(el, arr)
	{
		struct jr_group g = {0};
		size_t m = jr_index(jr, i++), om;
		const struct op_samples *op;

		if (jr_object(jr, el, group_fields, ARRAY_SIZE(group_fields),
			      &g))
			return -1;
		om = jr_key(jr, "operation");
		if ((uint64_t)g.operation >= rf->ops_nr)
			return jr_fail(jr,
				       "no operation %" PRId64
				       " (the run has %zu)",
				       g.operation, rf->ops_nr);
		op = &rf->ops[g.operation];
		if (strcmp(op->benchmark, it->benchmark) != 0)
			return jr_fail(jr,
				       "operation %" PRId64
				       " is of benchmark '%s', not '%s'",
				       g.operation, jr_q(jr, 0, op->benchmark),
				       jr_q(jr, 1, it->benchmark));
		jr_pop(jr, om);
		if (jr_values(jr, el, (size_t)g.operation, rf))
			return -1;
		jr_pop(jr, m);
	}
	it->samples_nr = rf->samples_nr - it->samples_first;
	jr_pop(jr, mark);
	return 0;
}

static int jr_iterations(struct jr *jr, const cJSON *run, struct run_full *rf)
{
	const cJSON *arr, *el;
	size_t mark, i = 0;

	arr = jr_array(jr, run, "iterations", JSON_MAX_ITERATIONS, &mark);
	if (!arr)
		return -1;
	cJSON_ArrayForEach(el, arr)
	{
		size_t m = jr_index(jr, i++);
		struct iteration_data *it;

		ALLOC_GROW(rf->iters, rf->iters_nr + 1, rf->iters_alloc);
		it = &rf->iters[rf->iters_nr++];
		memset(it, 0, sizeof(*it));
		if (jr_object(jr, el, iteration_fields,
			      ARRAY_SIZE(iteration_fields), it) ||
		    jr_samples(jr, el, rf, it))
			return -1;
		jr_pop(jr, m);
	}
	jr_pop(jr, mark);
	return 0;
}

static int jr_run(struct jr *jr, const cJSON *run, struct run_full *rf)
{
	const cJSON *node;
	size_t mark;

	if (jr_object(jr, run, run_fields, ARRAY_SIZE(run_fields), &rf->info))
		return -1;
	node = cJSON_GetObjectItemCaseSensitive(run, "config");
	mark = jr_key(jr, "config");
	if (jr_object(jr, node, config_fields, ARRAY_SIZE(config_fields),
		      &rf->info))
		return -1;
	if (rf->info.config_text && rf->info.config_hash) {
		char hash[65];

		sha256_hex(rf->info.config_text, strlen(rf->info.config_text),
			   hash);
		if (strcmp(hash, rf->info.config_hash) != 0) {
			jr_key(jr, "sha256");
			return jr_fail(jr, "not the SHA-256 of config.text");
		}
	}
	jr_pop(jr, mark);
	node = cJSON_GetObjectItemCaseSensitive(run, "machine");
	mark = jr_key(jr, "machine");
	if (jr_object(jr, node, machine_fields, ARRAY_SIZE(machine_fields),
		      &rf->info.machine))
		return -1;
	jr_pop(jr, mark);
	return jr_operations(jr, run, rf) || jr_iterations(jr, run, rf) ? -1
									: 0;
}

/* The format and version, checked before anything else. */
static int jr_header(struct jr *jr, const cJSON *root)
{
	const cJSON *format, *version;
	struct jfield vf = {.name = "version",
			    .kind = JF_INT,
			    .size = sizeof(int64_t),
			    .min_int = INT64_MIN,
			    .max_int = INT64_MAX};
	int64_t v = 0;

	if (!cJSON_IsObject(root))
		return jr_type(jr, root, "an object");
	format = cJSON_GetObjectItemCaseSensitive(root, "format");
	version = cJSON_GetObjectItemCaseSensitive(root, "version");
	if (!format)
		return jr_fail(jr, "missing member 'format'");
	jr_key(jr, "format");
	if (!cJSON_IsString(format))
		return jr_type(jr, format, "a string");
	if (strcmp(format->valuestring, JSON_EXPORT_FORMAT) != 0)
		return jr_fail(
			jr,
			"'%s' is not an mmcmp export (want '" JSON_EXPORT_FORMAT
			"')",
			jr_q(jr, 0, format->valuestring));
	jr_pop(jr, 0);
	if (!version)
		return jr_fail(jr, "missing member 'version'");
	jr_key(jr, "version");
	if (jr_int(jr, version, &vf, &v))
		return -1;
	if (v != JSON_EXPORT_VERSION)
		return jr_fail(jr,
			       "unsupported version %" PRId64
			       " (this mmcmp reads version %d)",
			       v, JSON_EXPORT_VERSION);
	jr_pop(jr, 0);
	return 0;
}

static int jr_document(struct jr *jr, const cJSON *root, struct run_full **runs,
		       size_t *nr)
{
	struct jr_top top = {NULL};
	struct strmap uuids = STRMAP_INIT;
	size_t alloc = 0, mark, i = 0;
	const cJSON *arr, *el;
	int ret = -1;

	if (jr_header(jr, root) ||
	    jr_object(jr, root, top_fields, ARRAY_SIZE(top_fields), &top))
		goto out;
	arr = jr_array(jr, root, "runs", JSON_MAX_RUNS, &mark);
	if (!arr)
		goto out;
	cJSON_ArrayForEach(el, arr)
	{
		size_t m = jr_index(jr, i), other;
		struct run_full *rf;

		ALLOC_GROW(*runs, *nr + 1, alloc);
		rf = &(*runs)[(*nr)++];
		memset(rf, 0, sizeof(*rf));
		if (jr_run(jr, el, rf))
			goto out;
		if (strmap_get(&uuids, rf->info.uuid, strlen(rf->info.uuid),
			       &other)) {
			jr_key(jr, "uuid");
			jr_fail(jr, "the uuid of runs[%zu] again", other);
			goto out;
		}
		strmap_put(&uuids, rf->info.uuid, strlen(rf->info.uuid), i);
		jr_pop(jr, m);
		i++;
	}
	jr_pop(jr, mark);
	ret = 0;
out:
	free(top.generator);
	strmap_clear(&uuids);
	return ret;
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
			add_position(&msg, text, i);
			error_addf(err, "%s: %s: a string holds \\u0000", name,
				   msg.buf);
			strbuf_release(&msg);
			return -1;
		}
		i++;
	}
	return 0;
}

int json_import(const char *name, const char *text, size_t len,
		struct run_full **runs, size_t *nr, struct strbuf *err)
{
	struct jr jr = {
		.file = name,
		.path = STRBUF_INIT,
		.scratch = {STRBUF_INIT, STRBUF_INIT},
		.err = err,
	};
	struct strbuf msg = STRBUF_INIT;
	cJSON *root = NULL;
	int ret = -1;

	*runs = NULL;
	*nr = 0;
	if (len > JSON_IMPORT_MAX_BYTES) {
		error_addf(err, "%s: too large (%zu bytes, at most %zu)", name,
			   len, JSON_IMPORT_MAX_BYTES);
		goto out;
	}
	if (skip_space(text, 0, len) == len) {
		error_addf(err, "%s: empty, not JSON", name);
		goto out;
	}
	if (check_nul_escapes(name, text, len, err))
		goto out;
	root = json_parse_terminated(text, len, &msg);
	if (!root) {
		error_addf(err, "%s: %s", name, msg.buf);
		goto out;
	}
	ret = jr_document(&jr, root, runs, nr);
out:
	if (ret) {
		run_full_free_array(*runs, *nr);
		*runs = NULL;
		*nr = 0;
	}
	cJSON_Delete(root);
	strbuf_release(&jr.path);
	strbuf_release(&jr.scratch[0]);
	strbuf_release(&jr.scratch[1]);
	strbuf_release(&msg);
	return ret;
}
