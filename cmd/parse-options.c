/* parse-options: argv and --help from one option table per command. */
#include "parse-options.h"

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "parse-num.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"

/* Help lines are at most this wide; the help column at most LEFT_MAX + 2. */
#define HELP_WIDTH 79
#define LEFT_MAX   24

/*
 * The option of opts (or of a table it includes) named `name` (len bytes,
 * a long name) or, when name is NULL, `short_name`. *base becomes the
 * struct its offset is relative to.
 */
static const struct cmd_option *find_option(const struct cmd_option *opts,
					    const char *name, size_t len,
					    char short_name, char **base)
{
	for (const struct cmd_option *o = opts; o && o->type != OPTION_END;
	     o++) {
		if (o->type == OPTION_INCLUDE) {
			char *inner = *base + o->offset;
			const struct cmd_option *found = find_option(
				o->include, name, len, short_name, &inner);

			if (found) {
				*base = inner;
				return found;
			}
		} else if (name ? o->long_name && strlen(o->long_name) == len &&
					   !memcmp(o->long_name, name, len)
				: o->short_name &&
					   o->short_name == short_name) {
			return o;
		}
	}
	return NULL;
}

/* "a, b or c": the names of a choice, for a message. */
static void add_choices(struct strbuf *sb, const struct cmd_option *o,
			const char *comma, const char *last)
{
	size_t nr = 0;

	while (o->choice(nr))
		nr++;
	for (size_t i = 0; i < nr; i++) {
		if (i)
			strbuf_addstr(sb, i + 1 == nr ? last : comma);
		strbuf_addstr(sb, o->choice(i));
	}
}

/* "a whole number from 1 to 9" and the like, for a message. */
static void add_int_range(struct strbuf *sb, const struct cmd_option *o)
{
	strbuf_addstr(sb, "a whole number");
	if (o->min > INT64_MIN && o->max < INT64_MAX)
		strbuf_addf(sb, " from %" PRId64 " to %" PRId64, o->min,
			    o->max);
	else if (o->min > INT64_MIN)
		strbuf_addf(sb, " of at least %" PRId64, o->min);
	else if (o->max < INT64_MAX)
		strbuf_addf(sb, " of at most %" PRId64, o->max);
}

/* "a number between 0 and 1" and the like, for a message. */
static void add_number_range(struct strbuf *sb, const struct cmd_option *o)
{
	strbuf_addstr(sb, "a number");
	if (isfinite(o->lo) && isfinite(o->hi))
		strbuf_addf(sb, " between %g and %g", o->lo, o->hi);
	else if (isfinite(o->lo))
		strbuf_addf(sb, " above %g", o->lo);
	else if (isfinite(o->hi))
		strbuf_addf(sb, " below %g", o->hi);
}

/*
 * Store value v of option o (spelt as the first spelt_len bytes of
 * spelt) into the struct at base.
 */
static int set_value(const struct cmd_option *o, char *base, const char *v,
		     const char *spelt, int spelt_len, struct strbuf *err)
{
	void *at = base + o->offset;
	struct strbuf want = STRBUF_INIT;
	int64_t n;
	double x;
	int ret = 0;

	switch (o->type) {
	case OPTION_FLAG:
		*(bool *)at = o->flag_value;
		break;
	case OPTION_STRING:
		*(const char **)at = v;
		break;
	case OPTION_STRING_LIST:
		strvec_push(at, v);
		break;
	case OPTION_INT:
	case OPTION_INT_LIST:
		if (o->type == OPTION_INT && o->size == sizeof(int) &&
		    (o->min < INT_MIN || o->max > INT_MAX))
			BUG("option '%s': range beyond int",
			    o->long_name ? o->long_name : "");
		if (!parse_int64(v, o->min, o->max, &n)) {
			add_int_range(&want, o);
			break;
		}
		if (o->type == OPTION_INT_LIST) {
			struct int64_list *list = at;

			ALLOC_GROW(list->v, list->nr + 1, list->alloc);
			list->v[list->nr++] = n;
		} else if (o->size == sizeof(int)) {
			*(int *)at = (int)n;
		} else {
			*(int64_t *)at = n;
		}
		break;
	case OPTION_NUMBER:
		if (!parse_double(v, &x) || !(x > o->lo && x < o->hi)) {
			add_number_range(&want, o);
			break;
		}
		*(double *)at = x;
		break;
	case OPTION_CHOICE:
		for (int i = 0; o->choice((size_t)i); i++) {
			if (!strcmp(o->choice((size_t)i), v)) {
				memcpy(at, &i, sizeof(i));
				goto out;
			}
		}
		strbuf_addstr(&want, "one of ");
		add_choices(&want, o, ", ", " or ");
		break;
	case OPTION_END:
	case OPTION_INCLUDE:
		BUG("option type %d has no value", (int)o->type);
	}
	if (want.len)
		ret = error_addf(err, "option '%.*s' needs %s, not '%s'",
				 spelt_len, spelt, want.buf, v);
out:
	strbuf_release(&want);
	return ret;
}

int parse_options(int argc, char **argv, const struct cmd_option *opts,
		  void *dest, unsigned flags, struct strbuf *err)
{
	int out = 1;

	for (int i = 1; i < argc; i++) {
		char *arg = argv[i], *base = dest;
		const struct cmd_option *o = NULL;
		const char *eq = NULL, *v;
		int spelt_len = 0;

		if (!strcmp(arg, "--")) {
			if (!(flags & PARSE_OPT_KEEP_DASHDASH))
				i++;
			while (i < argc)
				argv[out++] = argv[i++];
			break;
		}
		if (arg[0] != '-' || !arg[1]) {
			argv[out++] = arg;
			continue;
		}
		if (arg[1] == '-') {
			eq = strchr(arg + 2, '=');
			spelt_len = eq ? (int)(eq - arg) : (int)strlen(arg);
			o = find_option(opts, arg + 2, (size_t)spelt_len - 2, 0,
					&base);
		} else if (!arg[2]) {
			spelt_len = 2;
			o = find_option(opts, NULL, 0, arg[1], &base);
		}
		if (!o) {
			if (flags & PARSE_OPT_KEEP_UNKNOWN) {
				argv[out++] = arg;
				continue;
			}
			return error_addf(err, "unknown option '%s'", arg);
		}
		if (o->type == OPTION_FLAG) {
			if (eq)
				return error_addf(
					err, "option '%.*s' takes no value",
					spelt_len, arg);
			v = NULL;
		} else if (eq) {
			v = eq + 1;
		} else if (o->optional_value) {
			memcpy(base + o->offset, &o->choice_default,
			       sizeof(o->choice_default));
			continue;
		} else if (i + 1 < argc) {
			v = argv[++i];
		} else {
			return error_addf(err, "option '%s' needs a value",
					  arg);
		}
		if (set_value(o, base, v, arg, spelt_len, err))
			return -1;
	}
	argv[out] = NULL;
	return out;
}

/* "  -o, --output=FILE": the left column of option o. */
static void add_left(struct strbuf *sb, const struct cmd_option *o)
{
	strbuf_addstr(sb, "  ");
	if (o->short_name)
		strbuf_addf(sb, "-%c%s", o->short_name,
			    o->long_name ? ", " : "");
	if (o->long_name)
		strbuf_addf(sb, "--%s", o->long_name);
	if (o->type == OPTION_FLAG)
		return;
	if (o->optional_value)
		strbuf_addch(sb, '[');
	strbuf_addch(sb, o->long_name ? '=' : ' ');
	if (o->type == OPTION_CHOICE)
		add_choices(sb, o, "|", "|");
	else
		strbuf_addstr(sb, o->argname ? o->argname : "VALUE");
	if (o->optional_value)
		strbuf_addch(sb, ']');
}

/* The widest left column of opts that is at most LEFT_MAX wide. */
static size_t left_width(const struct cmd_option *opts)
{
	struct strbuf left = STRBUF_INIT;
	size_t width = 0;

	for (const struct cmd_option *o = opts; o->type != OPTION_END; o++) {
		size_t w;

		if (o->type == OPTION_INCLUDE) {
			w = left_width(o->include);
		} else {
			strbuf_reset(&left);
			add_left(&left, o);
			w = left.len;
		}
		if (w <= LEFT_MAX && w > width)
			width = w;
	}
	strbuf_release(&left);
	return width;
}

/* Append text from column col, wrapped, its next lines from column indent. */
static void add_wrapped(struct strbuf *sb, const char *text, size_t col,
			size_t indent)
{
	bool line_empty = true;

	while (*text) {
		size_t len = strcspn(text, " ");

		if (!line_empty && col + 1 + len > HELP_WIDTH) {
			strbuf_addch(sb, '\n');
			strbuf_addchars(sb, ' ', indent);
			col = indent;
			line_empty = true;
		}
		if (!line_empty) {
			strbuf_addch(sb, ' ');
			col++;
		}
		strbuf_add(sb, text, len);
		col += len;
		line_empty = false;
		text += len;
		text += strspn(text, " ");
	}
	strbuf_addch(sb, '\n');
}

static void add_help(struct strbuf *sb, const struct cmd_option *opts,
		     size_t col)
{
	struct strbuf help = STRBUF_INIT;

	for (const struct cmd_option *o = opts; o->type != OPTION_END; o++) {
		size_t start = sb->len;

		if (o->type == OPTION_INCLUDE) {
			add_help(sb, o->include, col);
			continue;
		}
		add_left(sb, o);
		if (sb->len - start + 2 > col) {
			strbuf_addch(sb, '\n');
			strbuf_addchars(sb, ' ', col);
		} else {
			strbuf_addchars(sb, ' ', col - (sb->len - start));
		}
		strbuf_reset(&help);
		strbuf_addstr(&help, o->help ? o->help : "");
		if (o->type == OPTION_STRING_LIST || o->type == OPTION_INT_LIST)
			strbuf_addstr(&help, " (repeatable)");
		add_wrapped(sb, help.buf, col, col);
	}
	strbuf_release(&help);
}

void options_help(const struct cmd_option *opts, struct strbuf *sb)
{
	if (!opts)
		return;
	add_help(sb, opts, left_width(opts) + 2);
}
