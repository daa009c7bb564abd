/*
 * Unit tests for cmd/parse-options: every option type, "--opt=V", "--opt V"
 * and "-o V", a missing value, unknown options, "--" and a lone "-", the
 * flags of parse_options(), and the --help lines options_help() makes.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "tap.h"
#include "parse-options.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"

enum color { RED, GREEN, BLUE };

static const char *color_nth(size_t i)
{
	static const char *const names[] = {
		[RED] = "red",
		[GREEN] = "green",
		[BLUE] = "blue",
	};

	return i < ARRAY_SIZE(names) ? names[i] : NULL;
}

struct inner {
	bool deep;
	const char *name;
};

struct dest {
	bool verbose, plain;
	const char *out, *x;
	int small;
	int64_t big;
	double ratio;
	enum color color;
	enum color shade;
	struct strvec tags;
	struct int64_list ids;
	struct inner in;
};

static const struct cmd_option inner_options[] = {
	OPT_FLAG("deep", 0, struct inner, deep, true, "go deep"),
	OPT_STRING("name", 'n', struct inner, name, "NAME", "a name"),
	OPT_END(),
};

static const struct cmd_option options[] = {
	OPT_FLAG("verbose", 'v', struct dest, verbose, true, "say more"),
	OPT_FLAG("no-plain", 0, struct dest, plain, false, "not plain"),
	OPT_STRING("output", 'o', struct dest, out, "FILE",
		   "write to FILE instead of stdout"),
	OPT_STRING(NULL, 'x', struct dest, x, "X", "short only"),
	OPT_INT("small", 0, struct dest, small, "N", 1, 10, "an int"),
	OPT_INT("big", 'b', struct dest, big, "N", INT64_MIN, INT64_MAX,
		"an int64_t"),
	OPT_NUMBER("ratio", 0, struct dest, ratio, "R", 0, 1, "a double"),
	OPT_CHOICE("color", 'c', struct dest, color, color_nth, "a color"),
	OPT_CHOICE_OPTARG("shade", 0, struct dest, shade, color_nth, GREEN,
			  "a shade"),
	OPT_STRING_LIST("tag", 't', struct dest, tags, "TAG", "a tag"),
	OPT_INT_LIST("id", 0, struct dest, ids, "ID", 1, 99, "an id"),
	OPT_INCLUDE(struct dest, in, inner_options),
	OPT_END(),
};

#define MAX_ARGS 8

static const struct parse_case {
	const char *argv[MAX_ARGS]; /* after argv[0]; NULL-terminated */
	unsigned flags;
	const char *want; /* what describe() says, or the error */
} parse_cases[] = {
	{{NULL}, 0, ""},
	{{"a", "--verbose", "b"}, 0, "verbose args=a,b"},
	{{"-v"}, 0, "verbose"},
	/* The three ways of giving a value, and an empty one. */
	{{"--output=f"}, 0, "out=f"},
	{{"--output", "f"}, 0, "out=f"},
	{{"-o", "f"}, 0, "out=f"},
	{{"--output="}, 0, "out="},
	{{"--output=a=b"}, 0, "out=a=b"},
	{{"-x", "v", "w"}, 0, "x=v args=w"},
	/* The next argument is the value, whatever it looks like. */
	{{"--output", "--verbose"}, 0, "out=--verbose"},
	{{"-o", "-"}, 0, "out=-"},
	{{"--output=a", "--output=b"}, 0, "out=b"},
	/* A missing value names the option as it was spelt. */
	{{"--output"}, 0, "option '--output' needs a value"},
	{{"a", "-o"}, 0, "option '-o' needs a value"},
	{{"--tag"}, 0, "option '--tag' needs a value"},
	/* Unknown options. */
	{{"--nope"}, 0, "unknown option '--nope'"},
	{{"--nope=1"}, 0, "unknown option '--nope=1'"},
	{{"--verb"}, 0, "unknown option '--verb'"},
	{{"-vo", "f"}, 0, "unknown option '-vo'"},
	{{"-q"}, 0, "unknown option '-q'"},
	{{"---verbose"}, 0, "unknown option '---verbose'"},
	{{"--=x"}, 0, "unknown option '--=x'"},
	{{"-5"}, 0, "unknown option '-5'"},
	/* Flags. */
	{{"--verbose=1"}, 0, "option '--verbose' takes no value"},
	{{"--no-plain"}, 0, "plain=0"},
	/* "--" ends the options and goes; a lone "-" is an argument. */
	{{"--", "-v", "--output"}, 0, "args=-v,--output"},
	{{"a", "--", "b"}, 0, "args=a,b"},
	{{"--", "--"}, 0, "args=--"},
	{{"-", "-v"}, 0, "verbose args=-"},
	{{"-v", "--"}, 0, "verbose"},
	/* Integers, in range. */
	{{"--small=10"}, 0, "small=10"},
	{{"--small", "1"}, 0, "small=1"},
	{{"--small=11"},
	 0,
	 "option '--small' needs a whole number from 1 to 10, not '11'"},
	{{"--small=0x3"},
	 0,
	 "option '--small' needs a whole number from 1 to 10, not '0x3'"},
	{{"-b", "-5"}, 0, "big=-5"},
	{{"--big=9223372036854775807"}, 0, "big=9223372036854775807"},
	{{"--big=9223372036854775808"},
	 0,
	 "option '--big' needs a whole number, not '9223372036854775808'"},
	{{"--big= 1"}, 0, "option '--big' needs a whole number, not ' 1'"},
	/* Numbers: the range is open. */
	{{"--ratio=0.25"}, 0, "ratio=0.25"},
	{{"--ratio=1"},
	 0,
	 "option '--ratio' needs a number between 0 and 1, not '1'"},
	{{"--ratio", "0"},
	 0,
	 "option '--ratio' needs a number between 0 and 1, not '0'"},
	{{"--ratio=nan"},
	 0,
	 "option '--ratio' needs a number between 0 and 1, not 'nan'"},
	/* Choices. */
	{{"--color=blue"}, 0, "color=blue"},
	{{"-c", "red", "--color", "green"}, 0, "color=green"},
	{{"--color=pink"},
	 0,
	 "option '--color' needs one of red, green or blue, not 'pink'"},
	{{"-c", "Red"},
	 0,
	 "option '-c' needs one of red, green or blue, not 'Red'"},
	/* A choice whose value may be left out: only "=V" gives one. */
	{{"--shade"}, 0, "shade=green"},
	{{"--shade=blue"}, 0, "shade=blue"},
	{{"--shade", "blue"}, 0, "shade=green args=blue"},
	{{"--shade=blue", "--shade"}, 0, "shade=green"},
	{{"--shade="},
	 0,
	 "option '--shade' needs one of red, green or blue, not ''"},
	/* Repeatable options keep every value, in order. */
	{{"-t", "a", "--tag=b", "--tag", "c"}, 0, "tags=a,b,c"},
	{{"--id", "3", "--id=5", "--id=3"}, 0, "ids=3,5,3"},
	{{"--id=3", "--id=100"},
	 0,
	 "option '--id' needs a whole number from 1 to 99, not '100'"},
	/* An included table writes into its member struct. */
	{{"--deep", "-n", "x", "--verbose"}, 0, "verbose deep name=x"},
	{{"--name"}, 0, "option '--name' needs a value"},
	/* Unknown options kept, as the global options of main() do. */
	{{"--nope", "a", "-v", "--", "-v"},
	 PARSE_OPT_KEEP_UNKNOWN,
	 "verbose args=--nope,a,-v"},
	{{"--nope=1", "-q", "--", "x"},
	 PARSE_OPT_KEEP_UNKNOWN | PARSE_OPT_KEEP_DASHDASH,
	 "args=--nope=1,-q,--,x"},
	{{"x", "-o", "f", "--", "-o", "g"},
	 PARSE_OPT_KEEP_DASHDASH,
	 "out=f args=x,--,-o,g"},
	{{"--nope", "--output"},
	 PARSE_OPT_KEEP_UNKNOWN,
	 "option '--output' needs a value"},
	{{"--verbose=1"},
	 PARSE_OPT_KEEP_UNKNOWN,
	 "option '--verbose' takes no value"},
};

/* A command without options still takes "--" and "-". */
static const struct no_options_case {
	const char *argv[MAX_ARGS];
	const char *want;
} no_options_cases[] = {
	{{"a", "-", "b"}, "args=a,-,b"},
	{{"--", "-v"}, "args=-v"},
	{{"-v"}, "unknown option '-v'"},
};

/* The fields of d that differ from their defaults, then the arguments. */
static void describe(const struct dest *d, int argc, char **argv,
		     struct strbuf *sb)
{
	if (d->verbose)
		strbuf_addstr(sb, " verbose");
	if (!d->plain)
		strbuf_addstr(sb, " plain=0");
	if (d->out)
		strbuf_addf(sb, " out=%s", d->out);
	if (d->x)
		strbuf_addf(sb, " x=%s", d->x);
	if (d->small)
		strbuf_addf(sb, " small=%d", d->small);
	if (d->big)
		strbuf_addf(sb, " big=%" PRId64, d->big);
	if (d->ratio != 0)
		strbuf_addf(sb, " ratio=%g", d->ratio);
	if (d->color != RED)
		strbuf_addf(sb, " color=%s", color_nth(d->color));
	if (d->shade != RED)
		strbuf_addf(sb, " shade=%s", color_nth(d->shade));
	for (size_t i = 0; i < d->tags.nr; i++)
		strbuf_addf(sb, "%s%s", i ? "," : " tags=", d->tags.v[i]);
	for (size_t i = 0; i < d->ids.nr; i++)
		strbuf_addf(sb, "%s%" PRId64, i ? "," : " ids=", d->ids.v[i]);
	if (d->in.deep)
		strbuf_addstr(sb, " deep");
	if (d->in.name)
		strbuf_addf(sb, " name=%s", d->in.name);
	for (int i = 1; i < argc; i++)
		strbuf_addf(sb, "%s%s", i > 1 ? "," : " args=", argv[i]);
	if (argv[argc])
		strbuf_addstr(sb, " (argv[argc] is not NULL)");
	if (sb->len && sb->buf[0] == ' ')
		memmove(sb->buf, sb->buf + 1, sb->len--);
}

/*
 * Parse "cmd" and args (NULL-terminated) with opts and flags; got says
 * what describe() says, or the error.
 */
static void parse(const char *const *args, const struct cmd_option *opts,
		  unsigned flags, struct strbuf *got)
{
	struct dest d = {.plain = true, .tags = STRVEC_INIT};
	struct strbuf err = STRBUF_INIT;
	char *argv[MAX_ARGS + 2] = {NULL}, *copies[MAX_ARGS + 1];
	int argc = 0, n;

	/* Copies, as parse_options() reorders argv. */
	copies[argc++] = xstrdup("cmd");
	for (size_t k = 0; args[k]; k++)
		copies[argc++] = xstrdup(args[k]);
	memcpy(argv, copies, (size_t)argc * sizeof(*argv));
	n = parse_options(argc, argv, opts, &d, flags, &err);
	if (n < 0)
		strbuf_addstr(got, err.buf);
	else
		describe(&d, n, argv, got);
	if (n >= 0 && err.len)
		strbuf_addf(got, " (err: %s)", err.buf);
	for (int k = 0; k < argc; k++)
		free(copies[k]);
	strvec_clear(&d.tags);
	free(d.ids.v);
	strbuf_release(&err);
}

static void test_parse(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(parse_cases); i++) {
		const struct parse_case *c = &parse_cases[i];
		struct strbuf got = STRBUF_INIT;

		parse(c->argv, options, c->flags, &got);
		is_str(got.buf, c->want, "parse case %zu: %s%s", i,
		       c->argv[0] ? c->argv[0] : "(nothing)",
		       c->argv[0] && c->argv[1] ? " ..." : "");
		strbuf_release(&got);
	}
	for (size_t i = 0; i < ARRAY_SIZE(no_options_cases); i++) {
		const struct no_options_case *c = &no_options_cases[i];
		struct strbuf got = STRBUF_INIT;

		parse(c->argv, NULL, 0, &got);
		is_str(got.buf, c->want, "no options, case %zu: %s ...", i,
		       c->argv[0]);
		strbuf_release(&got);
	}
}

struct small {
	bool quiet;
	const char *label;
	int iterations;
	enum color color;
	struct strvec params;
};

static const struct cmd_option no_options[] = {
	OPT_END(),
};

static const struct cmd_option run_like_options[] = {
	OPT_STRING("label", 0, struct small, label, "NAME",
		   "label of the results (default: the running kernel release, "
		   "as uname -r prints it); with builds, each build is stored "
		   "as NAME-BUILD"),
	OPT_INT("iterations", 0, struct small, iterations, "N", 1, 1000000,
		"measured iterations per job"),
	OPT_STRING_LIST("param", 0, struct small, params, "NAME=VALUE[,...]",
			"give parameter NAME these values instead"),
	OPT_FLAG("quiet", 'q', struct small, quiet, true,
		 "no progress line and no summary"),
	OPT_END(),
};

static const struct cmd_option choice_options[] = {
	OPT_CHOICE("a-rather-long-color", 'c', struct small, color, color_nth,
		   "the color"),
	OPT_STRING(NULL, 'l', struct small, label, "LABEL", "short only"),
	OPT_INCLUDE(struct dest, in, inner_options),
	OPT_END(),
};

static const struct help_case {
	const char *name;
	const struct cmd_option *opts;
	const char *want;
} help_cases[] = {
	{"no options", no_options, ""},
	{"no table", NULL, ""},
	{"wrapped help, a list, a short name", run_like_options,
	 "  --label=NAME    label of the results (default: the running kernel "
	 "release, as\n"
	 "                  uname -r prints it); with builds, each build is "
	 "stored as\n"
	 "                  NAME-BUILD\n"
	 "  --iterations=N  measured iterations per job\n"
	 "  --param=NAME=VALUE[,...]\n"
	 "                  give parameter NAME these values instead "
	 "(repeatable)\n"
	 "  -q, --quiet     no progress line and no summary\n"},
	{"choices, a short-only option, an included table", choice_options,
	 "  -c, --a-rather-long-color=red|green|blue\n"
	 "                   the color\n"
	 "  -l LABEL         short only\n"
	 "  --deep           go deep\n"
	 "  -n, --name=NAME  a name\n"},
};

static void test_help(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(help_cases); i++) {
		struct strbuf sb = STRBUF_INIT;

		options_help(help_cases[i].opts, &sb);
		is_str(sb.buf, help_cases[i].want, "help: %s",
		       help_cases[i].name);
		strbuf_release(&sb);
	}
}

int main(void)
{
	test_parse();
	test_help();
	done_testing();
	return exit_status();
}
