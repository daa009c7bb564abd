/* config: load a YAML run configuration into struct config. */
#include "config.h"

#include <ctype.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <yaml.h>

#include "config-internal.h"
#include "extract.h"
#include "json.h"
#include "monitor-perf.h"
#include "names.h"
#include "parse-num.h"
#include "plan.h"
#include "settings.h"
#include "strbuf.h"
#include "util.h"

#define MAX_DEPTH	       64  /* nesting of YAML collections */
#define MIN_MONITOR_INTERVAL_S 0.1 /* a sample costs ~100 us */
#define SHELL		       "/bin/sh"

/* The choice stores write enums through an int-sized copy. */
_Static_assert(sizeof(enum metric_source) == sizeof(int), "enum size");
_Static_assert(sizeof(enum config_on_error) == sizeof(int), "enum size");

struct loader {
	const char *name; /* the file, for messages */
	yaml_document_t doc;
	struct strbuf *err;
	size_t builds_nr; /* in the file, at least 1 */
	size_t ops_nr;	  /* of the workloads so far, times builds_nr */
};

/* A name and where it was written, for finding duplicates. */
struct name_ref {
	const char *name;
	const yaml_node_t *node;
	size_t pos;
};

MMCMP_PRINTF(4, 0)
static int vfail(struct loader *l, size_t line, size_t col, const char *fmt,
		 va_list ap)
{
	struct strbuf msg = STRBUF_INIT;

	strbuf_vaddf(&msg, fmt, ap);
	/* Quoted input may hold anything; the message stays one line. */
	for (size_t i = 0; i < msg.len; i++)
		if ((unsigned char)msg.buf[i] < 0x20 || msg.buf[i] == 0x7f)
			msg.buf[i] = '?';
	error_addf(l->err, "%s:%zu:%zu: %s", l->name, line, col, msg.buf);
	strbuf_release(&msg);
	return -1;
}

/* Report an error at a 1-based line and column; returns -1. */
MMCMP_PRINTF(4, 5)
static int fail_at(struct loader *l, size_t line, size_t col, const char *fmt,
		   ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(l, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

/* Report an error at a 0-based libyaml mark; returns -1. */
MMCMP_PRINTF(3, 4)
static int fail_mark(struct loader *l, yaml_mark_t mark, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(l, mark.line + 1, mark.column + 1, fmt, ap);
	va_end(ap);
	return -1;
}

/* Report an error at the start of node; returns -1. */
MMCMP_PRINTF(3, 4)
static int fail(struct loader *l, const yaml_node_t *node, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(l, node->start_mark.line + 1, node->start_mark.column + 1, fmt,
	      ap);
	va_end(ap);
	return -1;
}

static yaml_node_t *node_at(struct loader *l, int index)
{
	yaml_node_t *node = yaml_document_get_node(&l->doc, index);

	if (!node)
		BUG("YAML node %d missing", index);
	return node;
}

static const char *scalar(const yaml_node_t *node)
{
	return (const char *)node->data.scalar.value;
}

static bool is_plain(const yaml_node_t *node)
{
	return node->type == YAML_SCALAR_NODE &&
	       node->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

/* YAML's null: an empty plain scalar, ~ or null. */
static bool is_null(const yaml_node_t *node)
{
	static const char *const nulls[] = {"", "~", "null", "Null", "NULL"};

	if (!is_plain(node))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(nulls); i++)
		if (!strcmp(scalar(node), nulls[i]))
			return true;
	return false;
}

/* Append what node is, for "expected X, got Y" messages. */
static void describe_node(struct strbuf *sb, const yaml_node_t *node)
{
	const char *s;
	size_t n;

	if (node->type == YAML_MAPPING_NODE) {
		strbuf_addstr(sb, "a mapping");
		return;
	}
	if (node->type == YAML_SEQUENCE_NODE) {
		strbuf_addstr(sb, "a list");
		return;
	}
	if (is_null(node)) {
		strbuf_addstr(sb, "null");
		return;
	}
	s = scalar(node);
	n = strlen(s);
	if (n <= 40) {
		strbuf_addf(sb, "'%s'", s);
		return;
	}
	/* Cut at a character boundary. */
	for (n = 40; n && ((unsigned char)s[n] & 0xc0) == 0x80; n--)
		;
	strbuf_addch(sb, '\'');
	strbuf_add(sb, s, n);
	strbuf_addstr(sb, "...'");
}

static int fail_type(struct loader *l, const yaml_node_t *node,
		     const char *expected, const char *key)
{
	struct strbuf got = STRBUF_INIT;

	describe_node(&got, node);
	fail(l, node, "expected %s for '%s', got %s", expected, key, got.buf);
	strbuf_release(&got);
	return -1;
}

/* The text of a non-null scalar without NUL bytes, or NULL after an error. */
static const char *get_scalar(struct loader *l, const yaml_node_t *node,
			      const char *key)
{
	if (node->type != YAML_SCALAR_NODE || is_null(node)) {
		fail_type(l, node, "a string", key);
		return NULL;
	}
	if (strlen(scalar(node)) != node->data.scalar.length) {
		fail(l, node, "NUL character in '%s'", key);
		return NULL;
	}
	return scalar(node);
}

static bool has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

static int cmp_name_ref(const void *a, const void *b)
{
	const struct name_ref *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return (x->pos > y->pos) - (x->pos < y->pos);
}

/*
 * Report the first name, in file order, that repeats an earlier one.
 * Sorting keeps this O(n log n) for large mappings. Reorders refs.
 */
static int check_unique(struct loader *l, struct name_ref *refs, size_t nr,
			const char *noun, const char *suffix)
{
	const struct name_ref *dup = NULL, *first = NULL, *run = refs;

	if (nr < 2)
		return 0;
	qsort(refs, nr, sizeof(*refs), cmp_name_ref);
	for (size_t i = 1; i < nr; i++) {
		if (strcmp(refs[i].name, refs[i - 1].name) != 0) {
			run = &refs[i];
			continue;
		}
		if (!dup || refs[i].pos < dup->pos) {
			dup = &refs[i];
			first = run;
		}
	}
	if (!dup)
		return 0;
	return fail(l, dup->node, "duplicate %s '%s'%s (first at %zu:%zu)",
		    noun, dup->name, suffix, first->node->start_mark.line + 1,
		    first->node->start_mark.column + 1);
}

/*
 * Check that the keys of a mapping node are strings, each given once;
 * noun names them in messages ("duplicate build 'x'").
 */
static int check_mapping(struct loader *l, const yaml_node_t *node,
			 const char *noun)
{
	const yaml_node_pair_t *start, *top;
	struct name_ref *refs;
	size_t nr = 0;
	int ret = -1;

	if (node->type != YAML_MAPPING_NODE)
		BUG("check_mapping() on a non-mapping");
	start = node->data.mapping.pairs.start;
	top = node->data.mapping.pairs.top;
	refs = xcalloc((size_t)(top - start) + 1, sizeof(*refs));
	for (const yaml_node_pair_t *p = start; p < top; p++) {
		const yaml_node_t *k = node_at(l, p->key);

		if (k->type != YAML_SCALAR_NODE) {
			fail(l, k, "mapping keys must be strings");
			goto out;
		}
		if (strlen(scalar(k)) != k->data.scalar.length) {
			fail(l, k, "NUL character in a mapping key");
			goto out;
		}
		refs[nr].name = scalar(k);
		refs[nr].node = k;
		refs[nr].pos = nr;
		nr++;
	}
	ret = check_unique(l, refs, nr, noun, "");
out:
	free(refs);
	return ret;
}

static void *member(void *base, const struct key *k)
{
	return (char *)base + k->offset;
}

static size_t key_index(const struct level *lv, const char *name)
{
	for (size_t i = 0; i < lv->nr; i++)
		if (!strcmp(lv->keys[i].name, name))
			return i;
	BUG("no key '%s' in %s", name, lv->title);
}

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t row[33], prev[33];

	if (la > 32 || lb > 32)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			size_t del = prev[j] + 1, ins = row[j - 1] + 1;

			row[j] = sub < del ? sub : del;
			if (ins < row[j])
				row[j] = ins;
		}
		memcpy(prev, row, sizeof(row));
	}
	return prev[lb];
}

/* Whether typed looks like a shortening of name: "cmd" for "command". */
static bool is_abbreviation(const char *typed, const char *name)
{
	if (strlen(typed) < 2 || *typed != *name)
		return false;
	for (; *name && *typed; name++)
		if (*name == *typed)
			typed++;
	return !*typed;
}

/* The key of lv that the unknown key typed was probably meant to be. */
static const char *suggest_key(const char *typed, const struct level *lv)
{
	const char *best = NULL;
	size_t best_d = SIZE_MAX;

	for (size_t i = 0; i < lv->nr; i++) {
		const char *name = lv->keys[i].name;
		size_t len = strlen(name);

		if (is_abbreviation(typed, name) ||
		    (len >= 3 && !strncmp(typed, name, len)))
			return name;
	}
	for (size_t i = 0; i < lv->nr; i++) {
		const char *name = lv->keys[i].name;
		size_t d = edit_distance(typed, name);
		size_t limit = strlen(name) / 3 > 2 ? strlen(name) / 3 : 2;

		if (d <= limit && d < best_d) {
			best = name;
			best_d = d;
		}
	}
	return best;
}

static int fail_unknown(struct loader *l, const yaml_node_t *k,
			const struct level *lv)
{
	const char *best = suggest_key(scalar(k), lv);

	if (best)
		return fail(l, k, "unknown key '%s' %s (did you mean '%s'?)",
			    scalar(k), lv->where, best);
	return fail(l, k, "unknown key '%s' %s", scalar(k), lv->where);
}

static int check_json_path(struct loader *l, const yaml_node_t *node,
			   const struct key *k, const char *s)
{
	struct strbuf why = STRBUF_INIT;
	int ret = 0;

	if (!json_path_check(s, &why))
		ret = fail(l, node, "'%s': %s", k->name, why.buf);
	strbuf_release(&why);
	return ret;
}

/* The same flags as extract.c, so what loads also runs. */
static int check_regex(struct loader *l, const yaml_node_t *node,
		       const char *key, const char *s)
{
	regex_t re;
	int rc = regcomp(&re, s, REG_EXTENDED | REG_NEWLINE);
	size_t groups;

	if (rc) {
		char msg[256];

		regerror(rc, &re, msg, sizeof(msg));
		return fail(l, node, "bad regex in '%s': %s", key, msg);
	}
	groups = re.re_nsub;
	regfree(&re);
	if (!groups)
		return fail(l, node, "regex in '%s' has no capture group", key);
	return 0;
}

static bool parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = {"true", "True", "TRUE"};
	static const char *const no[] = {"false", "False", "FALSE"};

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!strcmp(s, yes[i])) {
			*out = true;
			return true;
		}
		if (!strcmp(s, no[i])) {
			*out = false;
			return true;
		}
	}
	return false;
}

static void store_int(void *p, size_t size, int value)
{
	if (size == sizeof(bool)) {
		bool b = value != 0;

		memcpy(p, &b, sizeof(b));
	} else if (size == sizeof(int)) {
		memcpy(p, &value, sizeof(value));
	} else {
		BUG("cannot store an int in %zu bytes", size);
	}
}

/* Report that node does not fit the scalar type of k. */
static int fail_key_type(struct loader *l, const struct key *k,
			 const yaml_node_t *node)
{
	struct strbuf want = STRBUF_INIT;

	switch (k->type) {
	case KEY_INT:
		strbuf_addstr(&want, "an integer");
		break;
	case KEY_NUMBER:
		strbuf_addstr(&want, "a number");
		break;
	case KEY_BOOL:
		strbuf_addstr(&want, "true or false");
		break;
	case KEY_CHOICE:
		config_add_choices(&want, k->choices, "'");
		break;
	default:
		strbuf_addstr(&want, "a string");
		break;
	}
	fail_type(l, node, want.buf, k->name);
	strbuf_release(&want);
	return -1;
}

static int fail_range(struct loader *l, const struct key *k,
		      const yaml_node_t *node, const char *s)
{
	if (node)
		return fail(l, node, "'%s' must be between %g and %g, got %s",
			    k->name, k->min, k->max, s);
	BUG("default '%s' for '%s' out of range", s, k->name);
}

/*
 * Store the text s as key k's type at base. node is where s came from, or
 * NULL for a default from the table, which must be valid.
 */
static int set_scalar(struct loader *l, const struct key *k,
		      const yaml_node_t *node, const char *s, void *base)
{
	void *p = member(base, k);
	int64_t i64;
	double d;
	bool b;

	if (!node && (k->type == KEY_REGEX || k->type == KEY_JSON_PATH))
		BUG("no default for '%s'", k->name);
	switch (k->type) {
	case KEY_REGEX:
		if (check_regex(l, node, k->name, s))
			return -1;
		/* fall through */
	case KEY_JSON_PATH:
		if (k->type == KEY_JSON_PATH && check_json_path(l, node, k, s))
			return -1;
		/* fall through */
	case KEY_STRING:
		if (node && !*s && !k->empty_ok)
			return fail(l, node, "'%s' must not be empty", k->name);
		if (node && !k->free_text && k->type == KEY_STRING &&
		    has_control(s))
			return fail(l, node, "control character in '%s'",
				    k->name);
		/* Names are stored with every run, and exported. */
		if (node && !k->free_text && k->type == KEY_STRING &&
		    strlen(s) > NAMES_MAX_BYTES)
			return fail(l, node,
				    "'%s' too long (%zu bytes, at most %zu)",
				    k->name, strlen(s), NAMES_MAX_BYTES);
		*(char **)p = xstrdup(s);
		return 0;
	case KEY_INT:
		if (node && !is_plain(node))
			break;
		if (!parse_int64(s, INT64_MIN, INT64_MAX, &i64))
			break;
		if ((double)i64 < k->min || (double)i64 > k->max)
			return fail_range(l, k, node, s);
		store_int(p, k->size, (int)i64);
		return 0;
	case KEY_NUMBER:
		if (node && !is_plain(node))
			break;
		if (!parse_double(s, &d))
			break;
		if (d < k->min || d > k->max)
			return fail_range(l, k, node, s);
		/* The runner counts whole nanoseconds: less would be none. */
		if (node && !strcmp(k->name, "timeout") && d > 0 && d < 1e-9)
			return fail(
				l, node,
				"'timeout' must be 0 (none) or at least 1e-9 seconds, got %s",
				s);
		*(double *)p = d;
		return 0;
	case KEY_BOOL:
		if (node && !is_plain(node))
			break;
		if (!parse_bool(s, &b))
			break;
		*(bool *)p = b;
		return 0;
	case KEY_CHOICE:
		for (size_t i = 0; k->choices[i].name; i++) {
			if (!strcmp(s, k->choices[i].name)) {
				store_int(p, k->size, k->choices[i].value);
				return 0;
			}
		}
		break;
	default:
		BUG("'%s' is not a scalar key", k->name);
	}
	if (node)
		return fail_key_type(l, k, node);
	BUG("bad default '%s' for '%s'", s, k->name);
}

static bool is_env_name(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return false;
	for (s++; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

static bool is_name_start(int c)
{
	return isalpha(c) || c == '_';
}

static bool is_name_char(int c)
{
	return isalnum(c) || c == '_' || c == '-';
}

/* A param name: a letter or '_', then letters, digits, '_' or '-'. */
static bool is_param_name(const char *s)
{
	if (!is_name_start((unsigned char)*s))
		return false;
	for (s++; *s; s++)
		if (!is_name_char((unsigned char)*s))
			return false;
	return true;
}

/*
 * What parse_map_of() calls on each pair of the mapping under key: kn is
 * the key node, a string given once, vn its value.
 */
typedef int parse_pair_fn(struct loader *l, const char *key,
			  const yaml_node_t *kn, const yaml_node_t *vn,
			  void *data);

/*
 * Walk the mapping that node must be under key, calling each() on every
 * pair in order, once its keys are known to be distinct strings; noun
 * names them in messages ("duplicate build 'x'").
 */
static int parse_map_of(struct loader *l, const char *key,
			const yaml_node_t *node, const char *noun,
			parse_pair_fn *each, void *data)
{
	if (node->type != YAML_MAPPING_NODE)
		return fail_type(l, node, "a mapping", key);
	if (check_mapping(l, node, noun))
		return -1;
	for (const yaml_node_pair_t *p = node->data.mapping.pairs.start;
	     p < node->data.mapping.pairs.top; p++)
		if (each(l, key, node_at(l, p->key), node_at(l, p->value),
			 data))
			return -1;
	return 0;
}

static void kv_list_push(struct kv_list *list, const char *key,
			 const char *value)
{
	ALLOC_GROW(list->v, list->nr + 1, list->alloc);
	list->v[list->nr].key = xstrdup(key);
	list->v[list->nr].value = xstrdup(value);
	list->nr++;
}

static int parse_env_pair(struct loader *l, const char *key,
			  const yaml_node_t *kn, const yaml_node_t *vn,
			  void *data)
{
	struct strbuf what = STRBUF_INIT;
	const char *value;

	if (!is_env_name(scalar(kn)))
		return fail(l, kn,
			    "bad environment variable name '%s'"
			    " in '%s'",
			    scalar(kn), key);
	strbuf_addf(&what, "%s.%s", key, scalar(kn));
	value = get_scalar(l, vn, what.buf);
	strbuf_release(&what);
	if (!value)
		return -1;
	kv_list_push(data, scalar(kn), value);
	return 0;
}

static int parse_env(struct loader *l, const struct key *k,
		     const yaml_node_t *node, struct kv_list *env)
{
	return parse_map_of(l, k->name, node, "variable", parse_env_pair, env);
}

/*
 * What parse_list_of() calls on each item of the list under key. ref->pos
 * is the item's place in the list; in a list of unique names the callback
 * sets ref->name and ref->node to the item's name and where it stands.
 */
typedef int parse_item_fn(struct loader *l, const char *key,
			  const yaml_node_t *item, struct name_ref *ref,
			  void *data);

/*
 * Walk the non-empty list that node must be under key, calling each() on
 * every item in order; what says in the type error what the list holds
 * ("a list of metrics"). With noun set, the names the items are given
 * must be distinct ("duplicate metric 'x'").
 */
static int parse_list_of(struct loader *l, const char *key,
			 const yaml_node_t *node, const char *what,
			 const char *noun, parse_item_fn *each, void *data)
{
	const yaml_node_item_t *start, *top;
	struct name_ref *refs = NULL, one;
	size_t nr;
	int ret = -1;

	if (node->type != YAML_SEQUENCE_NODE)
		return fail_type(l, node, what, key);
	start = node->data.sequence.items.start;
	top = node->data.sequence.items.top;
	if (start == top)
		return fail(l, node, "'%s' must not be empty", key);
	nr = (size_t)(top - start);
	if (noun)
		refs = xcalloc(nr, sizeof(*refs));
	for (size_t i = 0; i < nr; i++) {
		struct name_ref *ref = refs ? &refs[i] : &one;

		memset(ref, 0, sizeof(*ref));
		ref->pos = i;
		if (each(l, key, node_at(l, start[i]), ref, data))
			goto out;
	}
	ret = refs ? check_unique(l, refs, nr, noun, "") : 0;
out:
	free(refs);
	return ret;
}

struct argv_walk {
	struct strvec *argv;
	bool program;
};

static int parse_arg(struct loader *l, const char *key, const yaml_node_t *item,
		     struct name_ref *ref, void *data)
{
	struct argv_walk *walk = data;
	const char *s = get_scalar(l, item, key);

	if (!s)
		return -1;
	if (walk->program && !ref->pos && !*s)
		return fail(l, item, "empty program name in '%s'", key);
	strvec_push(walk->argv, s);
	return 0;
}

/* A non-empty list of strings; an argv when program is set. */
static int parse_argv(struct loader *l, const char *key,
		      const yaml_node_t *node, struct strvec *argv,
		      bool program)
{
	struct argv_walk walk = {argv, program};

	return parse_list_of(l, key, node, "a list", NULL, parse_arg, &walk);
}

/* A name of a cgroup controller: lowercase letters, digits and '_'. */
static bool is_controller_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!islower((unsigned char)*s) &&
		    !isdigit((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

/*
 * A cgroup interface file that a limit may set: "controller.knob" in
 * lowercase letters, digits, '_' and '.', but none of the cgroup.* files
 * by which mmcmp itself manages the cgroup.
 */
static bool is_limit_name(const char *s)
{
	static const char *const managed[] = {
		"cgroup.procs", "cgroup.threads", "cgroup.subtree_control",
		"cgroup.kill",	"tasks",
	};

	for (size_t i = 0; i < ARRAY_SIZE(managed); i++)
		if (!strcmp(s, managed[i]))
			return false;
	if (!strchr(s, '.') || *s == '.')
		return false;
	for (; *s; s++)
		if (!islower((unsigned char)*s) &&
		    !isdigit((unsigned char)*s) && *s != '_' && *s != '.')
			return false;
	return true;
}

static int parse_names(struct loader *l, const struct key *k,
		       const yaml_node_t *node, struct strvec *names)
{
	const yaml_node_item_t *start;

	if (parse_argv(l, k->name, node, names, false))
		return -1;
	start = node->data.sequence.items.start;
	for (size_t i = 0; i < names->nr; i++) {
		const yaml_node_t *item = node_at(l, start[i]);

		if (!is_controller_name(names->v[i]))
			return fail(l, item, "bad controller name '%s' in '%s'",
				    names->v[i], k->name);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(names->v[i], names->v[j]))
				return fail(l, item,
					    "controller '%s' is listed twice",
					    names->v[i]);
	}
	return 0;
}

static int parse_limit(struct loader *l, const char *key, const yaml_node_t *kn,
		       const yaml_node_t *vn, void *data)
{
	struct strbuf what = STRBUF_INIT;
	const char *value;

	if (!is_limit_name(scalar(kn)))
		return fail(l, kn,
			    "'%s' is not a cgroup interface file "
			    "that a limit may set, like 'memory.max'",
			    scalar(kn));
	strbuf_addf(&what, "%s.%s", key, scalar(kn));
	value = get_scalar(l, vn, what.buf);
	if (value && (!*value || has_control(value))) {
		fail(l, vn, "bad value for '%s'", what.buf);
		value = NULL;
	}
	strbuf_release(&what);
	if (!value)
		return -1;
	kv_list_push(data, scalar(kn), value);
	return 0;
}

static int parse_limits(struct loader *l, const struct key *k,
			const yaml_node_t *node, struct kv_list *limits)
{
	return parse_map_of(l, k->name, node, "limit", parse_limit, limits);
}

static int parse_setting(struct loader *l, const char *key,
			 const yaml_node_t *kn, const yaml_node_t *vn,
			 void *data)
{
	const char *path = scalar(kn), *value;

	(void)key;
	if (!settings_path_ok(path))
		return fail(l, kn,
			    "setting '%s' is not a file under "
			    "/proc/sys or /sys; write a sysctl such as "
			    "vm.swappiness as /proc/sys/vm/swappiness",
			    path);
	value = get_scalar(l, vn, path);
	if (!value)
		return -1;
	if (!*value || has_control(value))
		return fail(l, vn, "bad value for setting '%s'", path);
	kv_list_push(data, path, value);
	return 0;
}

static int parse_settings(struct loader *l, const struct key *k,
			  const yaml_node_t *node, struct kv_list *settings)
{
	return parse_map_of(l, k->name, node, "setting", parse_setting,
			    settings);
}

const char *config_command_name(char *const *argv)
{
	if (argv[0] && argv[1] && argv[2] && !argv[3] &&
	    !strcmp(argv[0], SHELL) && !strcmp(argv[1], "-c"))
		return argv[2];
	return argv[0];
}

static void push_shell(struct strvec *argv, const char *script)
{
	strvec_push(argv, SHELL);
	strvec_push(argv, "-c");
	strvec_push(argv, script);
}

static int parse_command(struct loader *l, const char *key,
			 const yaml_node_t *item, struct name_ref *ref,
			 void *data)
{
	struct command_list *list = data;
	struct strvec *argv;
	const char *s;

	(void)ref;
	ALLOC_GROW(list->v, list->nr + 1, list->alloc);
	argv = &list->v[list->nr++];
	strvec_init(argv);
	if (item->type == YAML_SEQUENCE_NODE)
		return parse_argv(l, key, item, argv, true);
	if (item->type != YAML_SCALAR_NODE)
		return fail_type(l, item,
				 "a command (a string or a "
				 "list of strings)",
				 key);
	s = get_scalar(l, item, key);
	if (!s)
		return -1;
	if (!*s)
		return fail(l, item, "empty command in '%s'", key);
	push_shell(argv, s);
	return 0;
}

static int parse_commands(struct loader *l, const struct key *k,
			  const yaml_node_t *node, struct command_list *list)
{
	return parse_list_of(l, k->name, node, "a list of commands", NULL,
			     parse_command, list);
}

static int parse_value(struct loader *l, const struct key *k,
		       const yaml_node_t *node, void *base)
{
	const char *s;

	switch (k->type) {
	case KEY_STRING:
	case KEY_REGEX:
	case KEY_JSON_PATH:
	case KEY_INT:
	case KEY_NUMBER:
	case KEY_BOOL:
	case KEY_CHOICE:
		if (node->type != YAML_SCALAR_NODE || is_null(node))
			return fail_key_type(l, k, node);
		s = get_scalar(l, node, k->name);
		return s ? set_scalar(l, k, node, s, base) : -1;
	case KEY_ENV:
		return parse_env(l, k, node, member(base, k));
	case KEY_ARGV:
		return parse_argv(l, k->name, node, member(base, k), true);
	case KEY_NAMES:
		return parse_names(l, k, node, member(base, k));
	case KEY_LIMITS:
		return parse_limits(l, k, node, member(base, k));
	case KEY_SETTINGS:
		return parse_settings(l, k, node, member(base, k));
	case KEY_COMMANDS:
		return parse_commands(l, k, node, member(base, k));
	case KEY_COMMAND:
	case KEY_PARAMS:
	case KEY_METRICS:
	case KEY_EXTRACT:
	case KEY_WORKLOADS:
	case KEY_BUILDS:
	case KEY_CGROUP:
	case KEY_KERNELS:
	case KEY_VM:
	case KEY_MACHINE:
		/* Parsed by the level's own function, after parse_mapping(). */
		return 0;
	}
	BUG("bad key type %d", (int)k->type);
}

static bool has_one_of(const struct level *lv)
{
	for (size_t i = 0; i < lv->nr; i++)
		if (lv->keys[i].one_of)
			return true;
	return false;
}

/* Report that none of the one_of keys of lv is in node. */
static int fail_one_of(struct loader *l, const yaml_node_t *node,
		       const struct level *lv)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0, total = 0;

	for (size_t i = 0; i < lv->nr; i++)
		total += lv->keys[i].one_of;
	for (size_t i = 0; i < lv->nr; i++) {
		if (!lv->keys[i].one_of)
			continue;
		if (n++)
			strbuf_addstr(&sb, n == total ? " or " : ", ");
		strbuf_addf(&sb, "'%s'", lv->keys[i].name);
	}
	fail(l, node, "missing one of %s %s", sb.buf, lv->where);
	strbuf_release(&sb);
	return -1;
}

/*
 * Parse the mapping node with the keys of lv into base: duplicate, unknown
 * and missing keys first, then the value of each key in table order, or
 * its default. Lists and mappings of structs (workloads, metrics, ...) are
 * left to the caller, which finds their nodes in found (NULL when absent);
 * so the call chain is no deeper than the schema and never recursive.
 */
static int parse_mapping(struct loader *l, const yaml_node_t *node,
			 const struct level *lv, void *base,
			 const yaml_node_t **found)
{
	const yaml_node_t *keys[MAX_LEVEL_KEYS] = {NULL};
	const yaml_node_t *values[MAX_LEVEL_KEYS] = {NULL};
	const yaml_node_t *one = NULL;
	size_t one_i = 0;

	if (lv->nr > MAX_LEVEL_KEYS)
		BUG("raise MAX_LEVEL_KEYS to %zu", lv->nr);
	if (check_mapping(l, node, "key"))
		return -1;
	for (const yaml_node_pair_t *p = node->data.mapping.pairs.start;
	     p < node->data.mapping.pairs.top; p++) {
		const yaml_node_t *kn = node_at(l, p->key);
		size_t i;

		for (i = 0; i < lv->nr; i++)
			if (!strcmp(scalar(kn), lv->keys[i].name))
				break;
		if (i == lv->nr)
			return fail_unknown(l, kn, lv);
		keys[i] = kn;
		values[i] = node_at(l, p->value);
	}
	for (size_t i = 0; i < lv->nr; i++) {
		const struct key *k = &lv->keys[i];

		if (!keys[i]) {
			if (k->required)
				return fail(l, node, "missing key '%s' %s",
					    k->name, lv->where);
			continue;
		}
		if (k->needs && !keys[key_index(lv, k->needs)])
			return fail(l, keys[i], "'%s' needs '%s' %s", k->name,
				    k->needs, lv->where);
		if (!k->one_of)
			continue;
		if (!one) {
			one = keys[i];
			one_i = i;
			continue;
		}
		if (keys[i]->start_mark.index < one->start_mark.index)
			return fail(l, one, "'%s' cannot be used with '%s'",
				    lv->keys[one_i].name, k->name);
		return fail(l, keys[i], "'%s' cannot be used with '%s'",
			    k->name, lv->keys[one_i].name);
	}
	if (!one && has_one_of(lv))
		return fail_one_of(l, node, lv);
	for (size_t i = 0; i < lv->nr; i++) {
		const struct key *k = &lv->keys[i];

		if (values[i]) {
			if (parse_value(l, k, values[i], base))
				return -1;
		} else if (k->def) {
			set_scalar(l, k, NULL, k->def, base);
		}
	}
	if (found)
		memcpy(found, values, sizeof(values));
	return 0;
}

static int parse_workload_command(struct loader *l, const struct key *k,
				  const yaml_node_t *node,
				  struct workload_spec *w)
{
	const char *s;

	if (!w->shell) {
		if (node->type == YAML_SCALAR_NODE && !is_null(node))
			return fail(l, node,
				    "'%s' is a string; make it a list "
				    "of arguments or set 'shell: true'",
				    k->name);
		return parse_argv(l, k->name, node, &w->command, true);
	}
	if (node->type == YAML_SEQUENCE_NODE)
		return fail(l, node,
			    "with 'shell: true', '%s' must be one "
			    "string",
			    k->name);
	s = get_scalar(l, node, k->name);
	if (!s)
		return -1;
	if (!*s)
		return fail(l, node, "'%s' must not be empty", k->name);
	push_shell(&w->command, s);
	return 0;
}

/* Check a param's values are distinct, so each combination differs. */
static int check_param_values(struct loader *l, const yaml_node_t *node,
			      const struct param_spec *param)
{
	struct name_ref *refs;
	struct strbuf suffix = STRBUF_INIT;
	size_t nr = 0;
	int ret;

	if (node->type != YAML_SEQUENCE_NODE)
		return 0;
	refs = xcalloc(param->values.nr, sizeof(*refs));
	for (const yaml_node_item_t *i = node->data.sequence.items.start;
	     i < node->data.sequence.items.top; i++) {
		refs[nr].name = param->values.v[nr];
		refs[nr].node = node_at(l, *i);
		refs[nr].pos = nr;
		nr++;
	}
	strbuf_addf(&suffix, " in param '%s'", param->name);
	ret = check_unique(l, refs, nr, "value", suffix.buf);
	strbuf_release(&suffix);
	free(refs);
	return ret;
}

/*
 * Values go into operation names, which tables and terminals print:
 * refuse control characters, as for --param overrides (plan.c).
 */
static int check_param_text(struct loader *l, const yaml_node_t *node,
			    const struct param_spec *param)
{
	for (size_t i = 0; i < param->values.nr; i++) {
		const yaml_node_t *at = node;

		if (!has_control(param->values.v[i]))
			continue;
		if (node->type == YAML_SEQUENCE_NODE)
			at = node_at(l, node->data.sequence.items.start[i]);
		return fail(l, at, "control character in a value of param '%s'",
			    param->name);
	}
	return 0;
}

static int parse_param(struct loader *l, const char *key, const yaml_node_t *kn,
		       const yaml_node_t *vn, void *data)
{
	struct workload_spec *w = data;
	const char *name = scalar(kn);
	struct param_spec *param;
	struct strbuf what = STRBUF_INIT;
	int bad;

	(void)key;
	if (!is_param_name(name))
		return fail(l, kn,
			    "bad param name '%s'; use a letter or '_' "
			    "then letters, digits, '_' or '-'",
			    name);
	if (!strcmp(name, "metric"))
		return fail(l, kn,
			    "'metric' is reserved for the "
			    "{metric} placeholder; rename the param");
	ALLOC_GROW(w->params, w->params_nr + 1, w->params_alloc);
	param = &w->params[w->params_nr++];
	param->name = xstrdup(name);
	strvec_init(&param->values);
	strbuf_addf(&what, "params.%s", name);
	if (vn->type == YAML_SEQUENCE_NODE) {
		bad = parse_argv(l, what.buf, vn, &param->values, false);
	} else {
		const char *value = get_scalar(l, vn, what.buf);

		bad = !value;
		if (value)
			strvec_push(&param->values, value);
	}
	strbuf_release(&what);
	if (bad || check_param_values(l, vn, param) ||
	    check_param_text(l, vn, param))
		return -1;
	return 0;
}

static int parse_params(struct loader *l, const struct key *k,
			const yaml_node_t *node, struct workload_spec *w)
{
	return parse_map_of(l, k->name, node, "param", parse_param, w);
}

/* The value of a required key, which parse_mapping() has checked. */
static const yaml_node_t *required(const yaml_node_t **found, size_t i)
{
	if (!found[i])
		BUG("required key %zu not found", i);
	return found[i];
}

/*
 * Check the parser and field with extract.c. Some parsers have no default
 * field, so the two are checked together, and the message (which names
 * the culprit) points at the field when there is one.
 */
static int check_parser(struct loader *l, const yaml_node_t *parser,
			const yaml_node_t *field, const struct metric_spec *m)
{
	struct strbuf why = STRBUF_INIT;
	int ret = 0;

	if (!extract_parser_known(m->pattern, m->field, &why))
		ret = fail(l, field ? field : parser, "%s", why.buf);
	strbuf_release(&why);
	return ret;
}

static int parse_extract(struct loader *l, const struct key *k,
			 const yaml_node_t *node, struct metric_spec *m)
{
	const yaml_node_t *found[MAX_LEVEL_KEYS] = {NULL};

	if (node->type != YAML_MAPPING_NODE)
		return fail_type(l, node, "a mapping", k->name);
	if (parse_mapping(l, node, &config_extract_level, m, found))
		return -1;
	if (found[key_index(&config_extract_level, "regex")])
		m->source = METRIC_REGEX;
	else if (found[key_index(&config_extract_level, "json")])
		m->source = METRIC_JSON;
	else if (found[key_index(&config_extract_level, "parser")])
		m->source = METRIC_PARSER;
	/* else `measure` has set it */
	if (m->source != METRIC_PARSER)
		return 0;
	return check_parser(
		l, found[key_index(&config_extract_level, "parser")],
		found[key_index(&config_extract_level, "field")], m);
}

static const char *default_unit(enum metric_source source)
{
	switch (source) {
	case METRIC_ELAPSED:
	case METRIC_USER:
	case METRIC_SYSTEM:
		return "s";
	case METRIC_MAXRSS:
		return "KiB";
	default:
		return "";
	}
}

static int parse_metric(struct loader *l, const char *key,
			const yaml_node_t *item, struct name_ref *ref,
			void *data)
{
	struct workload_spec *w = data;
	size_t name_key = key_index(&config_metric_level, "name");
	size_t extract_key = key_index(&config_metric_level, "extract");
	const yaml_node_t *found[MAX_LEVEL_KEYS] = {NULL};
	struct metric_spec *m;

	if (item->type != YAML_MAPPING_NODE)
		return fail_type(l, item, "a mapping", key);
	ALLOC_GROW(w->metrics, w->metrics_nr + 1, w->metrics_alloc);
	m = &w->metrics[w->metrics_nr++];
	memset(m, 0, sizeof(*m));
	m->line = (int)item->start_mark.line + 1;
	m->col = (int)item->start_mark.column + 1;
	if (parse_mapping(l, item, &config_metric_level, m, found) ||
	    parse_extract(l, &config_metric_level.keys[extract_key],
			  required(found, extract_key), m))
		return -1;
	if (!m->unit)
		m->unit = xstrdup(default_unit(m->source));
	ref->name = m->name;
	ref->node = found[name_key];
	return 0;
}

static int parse_metrics(struct loader *l, const struct key *k,
			 const yaml_node_t *node, struct workload_spec *w)
{
	return parse_list_of(l, k->name, node, "a list of metrics", "metric",
			     parse_metric, w);
}

/*
 * The names and values plan_substitute() gets for workload w: each param
 * with the value picked by pick (NULL: the first values), then "metric"
 * when metric is not NULL.
 */
static void template_args(struct strvec *names, struct strvec *values,
			  const struct workload_spec *w, const size_t *pick,
			  const char *metric)
{
	for (size_t i = 0; i < w->params_nr; i++) {
		strvec_push(names, w->params[i].name);
		strvec_push(values, w->params[i].values.v[pick ? pick[i] : 0]);
	}
	if (metric) {
		strvec_push(names, "metric");
		strvec_push(values, metric);
	}
}

/*
 * Check that the template in node (a string, or a list of them) expands
 * with plan_substitute(), which the run uses, so that a bad placeholder
 * is reported with its position before anything runs.
 */
static int check_template(struct loader *l, const yaml_node_t *node,
			  const struct workload_spec *w, bool with_metric,
			  const char *key)
{
	struct strvec names = STRVEC_INIT, values = STRVEC_INIT;
	struct strbuf why = STRBUF_INIT;
	const yaml_node_item_t *items = NULL;
	size_t nr = 1;
	int ret = 0;

	if (node->type == YAML_SEQUENCE_NODE) {
		items = node->data.sequence.items.start;
		nr = (size_t)(node->data.sequence.items.top - items);
	}
	template_args(&names, &values, w, NULL, with_metric ? "" : NULL);
	for (size_t i = 0; i < nr && !ret; i++) {
		const yaml_node_t *n = items ? node_at(l, items[i]) : node;
		char *expanded =
			plan_substitute(scalar(n), names.v, values.v, &why);

		if (!expanded)
			ret = fail(l, n, "'%s': %s", key, why.buf);
		free(expanded);
	}
	strvec_clear(&names);
	strvec_clear(&values);
	strbuf_release(&why);
	return ret;
}

/*
 * Mark in used[] each param that a valid template refers to, and
 * used[params_nr] for {metric}; follows plan_substitute()'s syntax.
 */
static void template_uses(const char *tmpl, const struct workload_spec *w,
			  bool *used)
{
	const char *p = tmpl;

	while (*p) {
		const char *close;
		size_t len;

		if ((p[0] == '{' && p[1] == '{') ||
		    (p[0] == '}' && p[1] == '}')) {
			p += 2;
			continue;
		}
		if (*p != '{') {
			p++;
			continue;
		}
		close = strchr(p, '}');
		if (!close)
			return;
		len = (size_t)(close - p - 1);
		for (size_t i = 0; i < w->params_nr; i++)
			if (strlen(w->params[i].name) == len &&
			    !strncmp(p + 1, w->params[i].name, len))
				used[i] = true;
		if (len == 6 && !strncmp(p + 1, "metric", len))
			used[w->params_nr] = true;
		p = close + 1;
	}
}

/*
 * Every job is stored with its key, "a=1 b=2": refuse params whose
 * longest key an export could not hold (names.h).
 */
static int check_job_key(struct loader *l, const yaml_node_t *where,
			 const struct workload_spec *w)
{
	size_t len = 0;

	for (size_t i = 0; i < w->params_nr; i++) {
		size_t longest = 0;

		for (size_t k = 0; k < w->params[i].values.nr; k++)
			if (strlen(w->params[i].values.v[k]) > longest)
				longest = strlen(w->params[i].values.v[k]);
		len += (i ? 1 : 0) + strlen(w->params[i].name) + 1 + longest;
	}
	if (len <= NAMES_MAX_BYTES)
		return 0;
	return fail(l, where,
		    "params make a job key 'NAME=VALUE ...' of up to %zu "
		    "bytes, at most %zu: shorten their names or values",
		    len, NAMES_MAX_BYTES);
}

/* Append "metric 'm', a=1, b=2" for operation number `op` of w. */
static void describe_op(struct strbuf *sb, const struct workload_spec *w,
			size_t op)
{
	size_t rest = op / w->metrics_nr;

	strbuf_addf(sb, "metric '%s'", w->metrics[op % w->metrics_nr].name);
	for (size_t i = 0; i < w->params_nr; i++) {
		const struct strvec *values = &w->params[i].values;
		size_t stride = 1;

		for (size_t j = i + 1; j < w->params_nr; j++)
			stride *= w->params[j].values.nr;
		if (!values->nr)
			BUG("param without values");
		strbuf_addf(sb, ", %s=%s", w->params[i].name,
			    values->v[(rest / stride) % values->nr]);
	}
}

struct op_ref {
	char *name;
	size_t op;
};

static int cmp_op_ref(const void *a, const void *b)
{
	const struct op_ref *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return (x->op > y->op) - (x->op < y->op);
}

/*
 * Expand every operation name of w and report the first collision. The
 * caller has bounded their number by CONFIG_MAX_OPERATIONS.
 */
static int check_operation_names(struct loader *l, const yaml_node_t *where,
				 const struct workload_spec *w, size_t combos)
{
	size_t total = combos * w->metrics_nr, nr = 0;
	size_t *pick = xcalloc(w->params_nr + 1, sizeof(*pick));
	struct op_ref *ops = xcalloc(total, sizeof(*ops));
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	for (size_t c = 0; c < combos; c++) {
		for (size_t m = 0; m < w->metrics_nr; m++) {
			struct strvec names = STRVEC_INIT, values = STRVEC_INIT;

			template_args(&names, &values, w, pick,
				      w->metrics[m].name);
			ops[nr].name = plan_substitute(w->operation, names.v,
						       values.v, NULL);
			if (!ops[nr].name)
				BUG("operation '%s' was checked", w->operation);
			ops[nr].op = c * w->metrics_nr + m;
			nr++;
			strvec_clear(&names);
			strvec_clear(&values);
		}
		plan_next_combination(w, pick);
	}
	qsort(ops, nr, sizeof(*ops), cmp_op_ref);
	for (size_t i = 1; i < nr; i++) {
		if (strcmp(ops[i].name, ops[i - 1].name) != 0)
			continue;
		describe_op(&sb, w, ops[i - 1].op);
		strbuf_addstr(&sb, " and ");
		describe_op(&sb, w, ops[i].op);
		ret = fail(l, where, "operation '%s' is produced twice (%s)",
			   ops[i].name, sb.buf);
		break;
	}
	for (size_t i = 0; i < nr; i++)
		free(ops[i].name);
	free(ops);
	free(pick);
	strbuf_release(&sb);
	return ret;
}

/* Cross-key rules of a workload, once all its keys are parsed. */
static int check_workload(struct loader *l, const yaml_node_t *node,
			  const struct workload_spec *w,
			  const yaml_node_t **found)
{
	const yaml_node_t *op_node =
		found[key_index(&config_workload_level, "operation")];
	const yaml_node_t *where = op_node ? op_node : node;
	bool *used = xcalloc(w->params_nr + 1, sizeof(*used));
	size_t combos = 1;
	int ret = -1;

	if (check_template(l,
			   found[key_index(&config_workload_level, "command")],
			   w, false, "command"))
		goto out;
	if (op_node && check_template(l, op_node, w, true, "operation"))
		goto out;
	template_uses(w->operation, w, used);
	if (w->metrics_nr > 1 && !used[w->params_nr]) {
		fail(l, where,
		     "operation '%s' must contain {metric}: the "
		     "workload has %zu metrics",
		     w->operation, w->metrics_nr);
		goto out;
	}
	for (size_t i = 0; i < w->params_nr; i++) {
		if (w->params[i].values.nr > 1 && !used[i]) {
			fail(l, where,
			     "operation '%s' does not use param "
			     "'%s', so its values would give the same "
			     "operation; add {%s} to 'operation'",
			     w->operation, w->params[i].name,
			     w->params[i].name);
			goto out;
		}
		combos *= w->params[i].values.nr;
		if (combos > CONFIG_MAX_OPERATIONS)
			break;
	}
	if (combos > CONFIG_MAX_OPERATIONS ||
	    combos * w->metrics_nr > CONFIG_MAX_OPERATIONS) {
		fail(l, where,
		     "workload '%s' has more than %d operations "
		     "(metrics times parameter combinations)",
		     w->name, CONFIG_MAX_OPERATIONS);
		goto out;
	}
	/* Builds multiply the operations: bound the run before expanding. */
	if (combos * w->metrics_nr >
	    (CONFIG_MAX_OPERATIONS - l->ops_nr) / l->builds_nr) {
		fail(l, node,
		     "the run would have more than %d operations (builds "
		     "times workloads' metrics and parameter combinations) "
		     "with workload '%s'",
		     CONFIG_MAX_OPERATIONS, w->name);
		goto out;
	}
	l->ops_nr += combos * w->metrics_nr * l->builds_nr;
	if (check_job_key(l, where, w))
		goto out;
	ret = check_operation_names(l, where, w, combos);
out:
	free(used);
	return ret;
}

/* The keys of a workload that parse_mapping() leaves to its caller. */
static int parse_workload_parts(struct loader *l, struct workload_spec *w,
				const yaml_node_t **found)
{
	const struct level *lv = &config_workload_level;
	size_t command = key_index(lv, "command");
	size_t params = key_index(lv, "params");
	size_t metrics = key_index(lv, "metrics");

	if (parse_workload_command(l, &lv->keys[command],
				   required(found, command), w))
		return -1;
	if (found[params] &&
	    parse_params(l, &lv->keys[params], found[params], w))
		return -1;
	return parse_metrics(l, &lv->keys[metrics], required(found, metrics),
			     w);
}

static int parse_workload(struct loader *l, const char *key,
			  const yaml_node_t *item, struct name_ref *ref,
			  void *data)
{
	struct config *cfg = data;
	size_t name_key = key_index(&config_workload_level, "name");
	const yaml_node_t *found[MAX_LEVEL_KEYS] = {NULL};
	struct workload_spec *w;

	if (item->type != YAML_MAPPING_NODE)
		return fail_type(l, item, "a mapping", key);
	ALLOC_GROW(cfg->workloads, cfg->workloads_nr + 1, cfg->workloads_alloc);
	w = &cfg->workloads[cfg->workloads_nr++];
	memset(w, 0, sizeof(*w));
	strvec_init(&w->command);
	w->line = (int)item->start_mark.line + 1;
	w->col = (int)item->start_mark.column + 1;
	if (parse_mapping(l, item, &config_workload_level, w, found) ||
	    parse_workload_parts(l, w, found) ||
	    check_workload(l, item, w, found))
		return -1;
	ref->name = w->name;
	ref->node = found[name_key];
	return 0;
}

static int parse_workloads(struct loader *l, const struct key *k,
			   const yaml_node_t *node, struct config *cfg)
{
	return parse_list_of(l, k->name, node, "a list of workloads",
			     "workload", parse_workload, cfg);
}

/*
 * A cgroup path: relative, components separated by single '/', none of
 * them "." or "..".
 */
static bool is_cgroup_path(const char *s)
{
	if (!*s || *s == '/')
		return false;
	while (*s) {
		size_t len = strcspn(s, "/");

		if (!len || (len == 1 && s[0] == '.') ||
		    (len == 2 && s[0] == '.' && s[1] == '.'))
			return false;
		s += len;
		if (*s == '/' && !*++s)
			return false;
	}
	return true;
}

static int parse_cgroup(struct loader *l, const struct key *k,
			const yaml_node_t *node, struct cgroup_spec *cg)
{
	const yaml_node_t *found[MAX_LEVEL_KEYS] = {NULL};

	if (node->type != YAML_MAPPING_NODE)
		return fail_type(l, node, "a mapping", k->name);
	cg->line = (int)node->start_mark.line + 1;
	cg->col = (int)node->start_mark.column + 1;
	if (parse_mapping(l, node, &config_cgroup_level, cg, found))
		return -1;
	if (!is_cgroup_path(cg->path))
		return fail(l, found[key_index(&config_cgroup_level, "path")],
			    "bad cgroup path '%s': it must be relative, like "
			    "'mmcmp/a/b', without '.' or '..'",
			    cg->path);
	if (cg->root && *cg->root != '/')
		return fail(l, found[key_index(&config_cgroup_level, "root")],
			    "cgroup root '%s' must be an absolute path",
			    cg->root);
	return 0;
}

/*
 * The cgroup of the last build must not be that of another build or the
 * top level: each run needs its own while builds interleave.
 */
static int check_cgroup_paths(struct loader *l, const struct config *cfg,
			      const yaml_node_t *where)
{
	const struct build_spec *b = &cfg->builds[cfg->builds_nr - 1];

	if (!b->cgroup.path)
		return 0;
	if (cfg->cgroup.path && !strcmp(cfg->cgroup.path, b->cgroup.path))
		return fail(l, where,
			    "build '%s' has the top-level cgroup path '%s'; "
			    "leave its 'cgroup' out to use that",
			    b->name, b->cgroup.path);
	for (size_t i = 0; i + 1 < cfg->builds_nr; i++)
		if (cfg->builds[i].cgroup.path &&
		    !strcmp(cfg->builds[i].cgroup.path, b->cgroup.path))
			return fail(l, where,
				    "cgroup path '%s' of build '%s' is also "
				    "that of build '%s'",
				    b->cgroup.path, b->name,
				    cfg->builds[i].name);
	return 0;
}

static int parse_build(struct loader *l, const char *key, const yaml_node_t *kn,
		       const yaml_node_t *vn, void *data)
{
	struct config *cfg = data;
	size_t cgroup = key_index(&config_build_level, "cgroup");
	const yaml_node_t *found[MAX_LEVEL_KEYS] = {NULL};
	struct build_spec *b;

	(void)key;
	if (!*scalar(kn) || has_control(scalar(kn)))
		return fail(l, kn, "bad build name '%s'", scalar(kn));
	ALLOC_GROW(cfg->builds, cfg->builds_nr + 1, cfg->builds_alloc);
	b = &cfg->builds[cfg->builds_nr++];
	memset(b, 0, sizeof(*b));
	strvec_init(&b->prefix);
	strvec_init(&b->cgroup.controllers);
	b->name = xstrdup(scalar(kn));
	b->line = (int)kn->start_mark.line + 1;
	b->col = (int)kn->start_mark.column + 1;
	if (is_null(vn))
		return 0;
	if (vn->type != YAML_MAPPING_NODE)
		return fail_type(l, vn, "a mapping", b->name);
	if (parse_mapping(l, vn, &config_build_level, b, found) ||
	    (found[cgroup] && parse_cgroup(l, &config_build_level.keys[cgroup],
					   found[cgroup], &b->cgroup)))
		return -1;
	return check_cgroup_paths(l, cfg, found[cgroup]);
}

static int parse_builds(struct loader *l, const struct key *k,
			const yaml_node_t *node, struct config *cfg)
{
	return parse_map_of(l, k->name, node, "build", parse_build, cfg);
}

static int parse_kernel(struct loader *l, const char *key,
			const yaml_node_t *kn, const yaml_node_t *vn,
			void *data)
{
	struct config *cfg = data;
	struct kernel_spec *ks;

	(void)key;
	if (!config_kernel_name_ok(scalar(kn)))
		return fail(l, kn,
			    "bad kernel name '%s': letters, digits, "
			    "'.', '_' and '-' only",
			    scalar(kn));
	ALLOC_GROW(cfg->kernels, cfg->kernels_nr + 1, cfg->kernels_alloc);
	ks = &cfg->kernels[cfg->kernels_nr++];
	memset(ks, 0, sizeof(*ks));
	ks->name = xstrdup(scalar(kn));
	ks->line = (int)kn->start_mark.line + 1;
	ks->col = (int)kn->start_mark.column + 1;
	if (vn->type != YAML_MAPPING_NODE)
		return fail_type(l, vn, "a mapping", ks->name);
	return parse_mapping(l, vn, &config_kernel_level, ks, NULL);
}

static int parse_kernels(struct loader *l, const struct key *k,
			 const yaml_node_t *node, struct config *cfg)
{
	return parse_map_of(l, k->name, node, "kernel", parse_kernel, cfg);
}

static int parse_vm(struct loader *l, const yaml_node_t *node,
		    struct config *cfg)
{
	const struct level *lv = &config_vm_level;
	const yaml_node_t *found[MAX_LEVEL_KEYS] = {NULL};

	if (!node) {
		for (size_t i = 0; i < lv->nr; i++)
			if (lv->keys[i].def)
				set_scalar(l, &lv->keys[i], NULL,
					   lv->keys[i].def, &cfg->vm);
	} else if (node->type != YAML_MAPPING_NODE) {
		return fail_type(l, node, "a mapping", "vm");
	} else if (parse_mapping(l, node, lv, &cfg->vm, found)) {
		return -1;
	}
	cfg->vm.set = node != NULL;
	if (config_parse_memory(cfg->vm.memory, &cfg->vm.memory_mb))
		return fail(l, found[key_index(lv, "memory")],
			    "bad memory size '%s': a number with K, M or G, "
			    "at least 64M",
			    cfg->vm.memory);
	return 0;
}

/* The events of `perf:` (monitor-perf.h), each known, with monitors. */
static int check_perf(struct loader *l, const yaml_node_t *node,
		      const struct config *cfg)
{
	const yaml_node_item_t *start = node->data.sequence.items.start;

	for (size_t i = 0; i < cfg->perf_events.nr; i++)
		if (!monitor_perf_known(cfg->perf_events.v[i]))
			return fail(l, node_at(l, start[i]),
				    "unknown perf event '%s' (known: default, "
				    "%s)",
				    cfg->perf_events.v[i],
				    monitor_perf_names());
	if (!cfg->monitors)
		return fail(l, node, "'perf' needs 'monitors: true'");
	return 0;
}

static int parse_machine(struct loader *l, const yaml_node_t *node,
			 const yaml_node_t *vm, struct config *cfg)
{
	const struct level *lv = &config_machine_level;

	if (!node)
		return 0;
	if (vm)
		return fail(l, node,
			    "'machine' and 'vm' exclude each other: the "
			    "kernels boot on this machine or in guests");
	if (node->type != YAML_MAPPING_NODE)
		return fail_type(l, node, "a mapping", "machine");
	cfg->machine.set = true;
	return parse_mapping(l, node, lv, &cfg->machine, NULL);
}

static int parse_top(struct loader *l, const yaml_node_t *root,
		     struct config *cfg)
{
	const yaml_node_t *found[MAX_LEVEL_KEYS] = {NULL};
	const struct level *lv = &config_top_level;
	size_t workloads = key_index(lv, "workloads");
	size_t builds = key_index(lv, "builds");
	size_t interval = key_index(lv, "monitor_interval");
	size_t cgroup = key_index(lv, "cgroup");
	size_t until = key_index(lv, "until");

	if (parse_mapping(l, root, lv, cfg, found))
		return -1;
	if (found[until] && !(cfg->until_pct > 0))
		return fail(l, found[until],
			    "'until' must be more than 0 (a percentage of the "
			    "mean)");
	/* Counted before the workloads, which check the run's size. */
	l->builds_nr = 1;
	if (found[builds] && found[builds]->type == YAML_MAPPING_NODE &&
	    found[builds]->data.mapping.pairs.top >
		    found[builds]->data.mapping.pairs.start)
		l->builds_nr =
			(size_t)(found[builds]->data.mapping.pairs.top -
				 found[builds]->data.mapping.pairs.start);
	if (parse_workloads(l, &lv->keys[workloads], required(found, workloads),
			    cfg))
		return -1;
	if (found[interval] && cfg->monitor_interval_s > 0 &&
	    cfg->monitor_interval_s < MIN_MONITOR_INTERVAL_S)
		return fail(l, found[interval],
			    "'monitor_interval' must be 0 or at least %g "
			    "seconds",
			    MIN_MONITOR_INTERVAL_S);
	if (found[interval] && cfg->monitor_interval_s > 0 && !cfg->monitors)
		return fail(l, found[interval],
			    "'monitor_interval' needs 'monitors: true'");
	if (found[key_index(lv, "perf")] &&
	    check_perf(l, found[key_index(lv, "perf")], cfg))
		return -1;
	if (found[cgroup] &&
	    parse_cgroup(l, &lv->keys[cgroup], found[cgroup], &cfg->cgroup))
		return -1;
	if (found[builds] &&
	    parse_builds(l, &lv->keys[builds], found[builds], cfg))
		return -1;
	if (found[key_index(lv, "kernels")] &&
	    parse_kernels(l, &lv->keys[key_index(lv, "kernels")],
			  found[key_index(lv, "kernels")], cfg))
		return -1;
	if (parse_vm(l, found[key_index(lv, "vm")], cfg))
		return -1;
	return parse_machine(l, found[key_index(lv, "machine")],
			     found[key_index(lv, "vm")], cfg);
}

/* Line and column (1-based) of byte offset in text, for reader errors. */
static void offset_mark(const char *text, size_t len, size_t offset,
			size_t *line, size_t *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < offset && i < len; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else if (((unsigned char)text[i] & 0xc0) != 0x80) {
			(*col)++;
		}
	}
}

static int fail_yaml(struct loader *l, const yaml_parser_t *parser,
		     const char *text, size_t len)
{
	const char *problem = parser->problem ? parser->problem : "error";
	size_t line, col;

	switch (parser->error) {
	case YAML_MEMORY_ERROR:
		return fail_mark(l, parser->problem_mark, "out of memory");
	case YAML_READER_ERROR:
		offset_mark(text, len, parser->problem_offset, &line, &col);
		if (parser->problem_value != -1)
			return fail_at(l, line, col, "%s (byte 0x%02X)",
				       problem,
				       (unsigned)parser->problem_value);
		return fail_at(l, line, col, "%s", problem);
	default:
		break;
	}
	if (parser->context)
		return fail_mark(l, parser->problem_mark, "%s %s at %zu:%zu",
				 problem, parser->context,
				 parser->context_mark.line + 1,
				 parser->context_mark.column + 1);
	return fail_mark(l, parser->problem_mark, "%s", problem);
}

/*
 * Walk the event stream once before loading: libyaml's loader would
 * silently share aliased nodes, so one small file could stand for a huge
 * tree (the "billion laughs"). Also rejects several documents and deep
 * nesting, and reports syntax errors with their marks.
 */
/*
 * The length of a UTF-8 byte order mark at the start of text, which YAML
 * allows and libyaml, told the encoding, would take for content.
 */
static size_t bom_len(const char *text, size_t len)
{
	return len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
}

static int prescan(struct loader *l, const char *text, size_t len)
{
	yaml_parser_t parser;
	yaml_event_t event;
	int depth = 0, docs = 0, ret = -1;
	bool done = false;

	if (!yaml_parser_initialize(&parser))
		return fail_at(l, 1, 1, "cannot initialise the YAML parser");
	yaml_parser_set_input_string(
		&parser, (const unsigned char *)text + bom_len(text, len),
		len - bom_len(text, len));
	yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
	while (!done) {
		const yaml_char_t *anchor = NULL;
		int bad = 0;

		if (!yaml_parser_parse(&parser, &event)) {
			fail_yaml(l, &parser, text, len);
			goto out;
		}
		switch (event.type) {
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++docs > 1)
				bad = fail_mark(l, event.start_mark,
						"only one YAML document is "
						"allowed");
			break;
		case YAML_ALIAS_EVENT:
			bad = fail_mark(l, event.start_mark,
					"aliases (*%s) are not supported; "
					"write the value out",
					(const char *)event.data.alias.anchor);
			break;
		case YAML_SCALAR_EVENT:
			anchor = event.data.scalar.anchor;
			break;
		case YAML_SEQUENCE_START_EVENT:
			anchor = event.data.sequence_start.anchor;
			depth++;
			break;
		case YAML_MAPPING_START_EVENT:
			anchor = event.data.mapping_start.anchor;
			depth++;
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			depth--;
			break;
		default:
			break;
		}
		if (!bad && anchor)
			bad = fail_mark(l, event.start_mark,
					"anchors (&%s) and aliases are not "
					"supported; write the value out",
					(const char *)anchor);
		if (!bad && depth > MAX_DEPTH)
			bad = fail_mark(l, event.start_mark,
					"nesting deeper than %d levels",
					MAX_DEPTH);
		yaml_event_delete(&event);
		if (bad)
			goto out;
	}
	ret = 0;
out:
	yaml_parser_delete(&parser);
	return ret;
}

static void kv_list_clear(struct kv_list *list)
{
	for (size_t i = 0; i < list->nr; i++) {
		free(list->v[i].key);
		free(list->v[i].value);
	}
	free(list->v);
	memset(list, 0, sizeof(*list));
}

static void command_list_clear(struct command_list *list)
{
	for (size_t i = 0; i < list->nr; i++)
		strvec_clear(&list->v[i]);
	free(list->v);
	memset(list, 0, sizeof(*list));
}

static void workload_release(struct workload_spec *w)
{
	free(w->name);
	strvec_clear(&w->command);
	for (size_t i = 0; i < w->params_nr; i++) {
		free(w->params[i].name);
		strvec_clear(&w->params[i].values);
	}
	free(w->params);
	free(w->operation);
	for (size_t i = 0; i < w->metrics_nr; i++) {
		free(w->metrics[i].name);
		free(w->metrics[i].unit);
		free(w->metrics[i].pattern);
		free(w->metrics[i].field);
	}
	free(w->metrics);
	kv_list_clear(&w->env);
	command_list_clear(&w->setup);
	command_list_clear(&w->teardown);
	command_list_clear(&w->prepare);
	command_list_clear(&w->conclude);
	free(w->cwd);
}

static void cgroup_spec_release(struct cgroup_spec *cg)
{
	free(cg->path);
	strvec_clear(&cg->controllers);
	kv_list_clear(&cg->limits);
	free(cg->root);
	free(cg->tcp_limit);
}

static void build_release(struct build_spec *b)
{
	cgroup_spec_release(&b->cgroup);
	free(b->name);
	kv_list_clear(&b->env);
	strvec_clear(&b->prefix);
	free(b->cwd);
	command_list_clear(&b->setup);
	command_list_clear(&b->teardown);
	command_list_clear(&b->prepare);
	command_list_clear(&b->conclude);
	kv_list_clear(&b->settings);
}

void config_replace_builds(struct config *cfg, struct build_spec *builds,
			   size_t nr)
{
	for (size_t i = 0; i < cfg->builds_nr; i++)
		build_release(&cfg->builds[i]);
	free(cfg->builds);
	cfg->builds = builds;
	cfg->builds_nr = cfg->builds_alloc = nr;
}

void config_replace_kernels(struct config *cfg, struct kernel_spec *kernels,
			    size_t nr)
{
	for (size_t i = 0; i < cfg->kernels_nr; i++) {
		free(cfg->kernels[i].name);
		free(cfg->kernels[i].image);
		free(cfg->kernels[i].append);
		free(cfg->kernels[i].initrd);
		free(cfg->kernels[i].entry);
	}
	free(cfg->kernels);
	cfg->kernels = kernels;
	cfg->kernels_nr = cfg->kernels_alloc = nr;
}

void config_release(struct config *cfg)
{
	if (!cfg)
		return;
	free(cfg->path);
	free(cfg->text);
	free(cfg->name);
	free(cfg->description);
	kv_list_clear(&cfg->env);
	command_list_clear(&cfg->setup);
	command_list_clear(&cfg->teardown);
	command_list_clear(&cfg->prepare);
	command_list_clear(&cfg->conclude);
	kv_list_clear(&cfg->settings);
	strvec_clear(&cfg->perf_events);
	for (size_t i = 0; i < cfg->workloads_nr; i++)
		workload_release(&cfg->workloads[i]);
	free(cfg->workloads);
	for (size_t i = 0; i < cfg->builds_nr; i++)
		build_release(&cfg->builds[i]);
	free(cfg->builds);
	cgroup_spec_release(&cfg->cgroup);
	config_replace_kernels(cfg, NULL, 0);
	free(cfg->vm.memory);
	memset(cfg, 0, sizeof(*cfg));
}

int config_load_buffer(struct config *cfg, const char *name, const char *buf,
		       size_t len, struct strbuf *err)
{
	struct loader l = {.name = name, .err = err};
	yaml_parser_t parser;
	bool have_parser = false, have_doc = false;
	const yaml_node_t *root;
	int ret = -1;

	memset(cfg, 0, sizeof(*cfg));
	strvec_init(&cfg->cgroup.controllers);
	strvec_init(&cfg->perf_events);
	cfg->path = xstrdup(name);
	cfg->text = xmalloc(len + 1);
	memcpy(cfg->text, buf, len);
	cfg->text[len] = '\0';
	cfg->text_len = len;
	if (len > CONFIG_MAX_BYTES) {
		fail_at(&l, 1, 1, "the file is larger than 1 MiB (%zu bytes)",
			CONFIG_MAX_BYTES);
		goto out;
	}
	if (prescan(&l, cfg->text, len))
		goto out;
	if (!yaml_parser_initialize(&parser)) {
		fail_at(&l, 1, 1, "cannot initialise the YAML parser");
		goto out;
	}
	have_parser = true;
	yaml_parser_set_input_string(&parser,
				     (const unsigned char *)cfg->text +
					     bom_len(cfg->text, len),
				     len - bom_len(cfg->text, len));
	yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
	if (!yaml_parser_load(&parser, &l.doc)) {
		fail_yaml(&l, &parser, cfg->text, len);
		goto out;
	}
	have_doc = true;
	root = yaml_document_get_root_node(&l.doc);
	if (!root) {
		fail_at(&l, 1, 1,
			"the file is empty; expected a mapping with "
			"'name' and 'workloads'");
		goto out;
	}
	if (root->type != YAML_MAPPING_NODE) {
		struct strbuf got = STRBUF_INIT;

		describe_node(&got, root);
		fail(&l, root, "the top level must be a mapping, got %s",
		     got.buf);
		strbuf_release(&got);
		goto out;
	}
	ret = parse_top(&l, root, cfg);
out:
	if (have_doc)
		yaml_document_delete(&l.doc);
	if (have_parser)
		yaml_parser_delete(&parser);
	if (ret)
		config_release(cfg);
	return ret;
}

int config_load_file(struct config *cfg, const char *path, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = -1;

	memset(cfg, 0, sizeof(*cfg));
	/* Read one byte past the limit, so the loader sees it is over. */
	if (strbuf_read_file_max(&sb, path, CONFIG_MAX_BYTES + 1, err))
		goto out;
	ret = config_load_buffer(cfg, path, sb.buf, sb.len, err);
out:
	strbuf_release(&sb);
	return ret;
}

bool config_quick_words(const char *text, struct strvec *words, size_t *line_nr)
{
	const char *line = text, *end;
	size_t nr = 1;

	while (line && strncmp(line, "# quick:", 8)) {
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
		nr++;
	}
	if (!line)
		return false;
	if (line_nr)
		*line_nr = nr;
	line += 8;
	end = line + strcspn(line, "\n");
	while (line < end) {
		size_t n;

		line += strspn(line, " \t\r");
		n = strcspn(line, " \t\r\n");
		if (n)
			strvec_push_nodup(words, xstrndup(line, n));
		line += n;
	}
	return true;
}
