/* Unit tests for names: limits, escaping, cutting and did-you-mean. */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "names.h"
#include "strbuf.h"

static const struct {
	enum name_kind kind;
	const char *s;
	const char *err; /* NULL: accepted */
} check_cases[] = {
	{NAME_LABEL, "6.10-rc1-patched", NULL},
	{NAME_LABEL, "caf\xc3\xa9 \xe2\x82\xac", NULL},
	{NAME_LABEL, "", "label is empty"},
	{NAME_UNIT, "", NULL},
	{NAME_LABEL,
	 "a\xff"
	 "b",
	 "label 'a\\xffb' is not UTF-8"},
	{NAME_BENCHMARK, "\xc3", "benchmark '\\xc3' is not UTF-8"},
	{NAME_OPERATION, "op\nname",
	 "operation 'op\\nname' contains a control character"},
	{NAME_LABEL, "x\x1b[31m",
	 "label 'x\\x1b[31m' contains a control character"},
	{NAME_UNIT, "ms\x7f", "unit 'ms\\x7f' contains a control character"},
	{NAME_LABEL,
	 "c1\xc2\x9b"
	 "31m",
	 "label 'c1\\xc2\\x9b31m' contains a control character"},
	{NAME_LABEL, "nbsp\xc2\xa0ok", NULL},
};

static const struct {
	const char *s;
	size_t len; /* 0: strlen */
	const char *want;
} escape_cases[] = {
	{"plain", 0, "plain"},
	{"a\nb\tc\rd", 0, "a\\nb\\tc\\rd"},
	{"\x1b[2J", 0, "\\x1b[2J"},
	{"\x01\x7f", 0, "\\x01\\x7f"},
	{"caf\xc3\xa9", 0, "caf\xc3\xa9"},
	{"caf\xc3\xa9", 4, "caf\\xc3"},
	{"\xc2\x85next", 0, "\\xc2\\x85next"},
	{"\xe2\x82", 0, "\\xe2\\x82"},
	{"back\\slash", 0, "back\\slash"},
};

static const struct {
	const char *s;
	size_t max, want;
} cut_cases[] = {
	{"abc", 2, 2},
	{"abc", 9, 3},
	{"caf\xc3\xa9", 4, 3},
	{"caf\xc3\xa9", 5, 5},
	{"\xe2\x82\xac\xe2\x82\xac", 4, 3},
	{"\xe2\x82\xac\xe2\x82\xac", 5, 3},
	{"\xe2\x82\xac\xe2\x82\xac", 6, 6},
	{"\xf0\x9f\x98\x80", 3, 0},
	{"\x80\x80\x80\x80\x80", 4, 1},
	{"", 3, 0},
};

static const char *const commands[] = {
	"run", "list", "show", "compare", "import", "export", "help",
};

static const struct {
	const char *word;
	const char *want; /* NULL: no suggestion */
} closest_cases[] = {
	{"compre", "compare"}, {"comprae", "compare"},
	{"lst", "list"},       {"shwo", "show"},
	{"exprot", "export"},  {"imports", "import"},
	{"rn", "run"},	       {"x", NULL},
	{"frobnicate", NULL},  {"commit", NULL},
	{"run", NULL},
};

static void test_max_bytes(void)
{
	static const enum name_kind all[] = {NAME_LABEL, NAME_BENCHMARK,
					     NAME_OPERATION, NAME_UNIT};
	struct strbuf s = STRBUF_INIT, err = STRBUF_INIT;

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		size_t max = names_max_bytes(all[i]);
		char want[128];

		strbuf_reset(&s);
		strbuf_addchars(&s, 'n', max);
		strbuf_reset(&err);
		ok(!names_check(all[i], s.buf, &err), "%s of %zu bytes",
		   names_kind(all[i]), max);
		strbuf_addch(&s, 'n');
		strbuf_reset(&err);
		ok(names_check(all[i], s.buf, &err), "%s of %zu bytes refused",
		   names_kind(all[i]), max + 1);
		snprintf(want, sizeof(want),
			 "%s too long (%zu bytes, at most %zu)",
			 names_kind(all[i]), max + 1, max);
		is_str(err.buf, want, "%s: the message says why",
		       names_kind(all[i]));
	}
	ok(names_max_bytes(NAME_OPERATION) == NAMES_MAX_BYTES,
	   "operations may be as long as a JSON export holds");
	strbuf_release(&s);
	strbuf_release(&err);
}

/* Text of several lines, as run's warnings and a console's tail hold. */
static const struct {
	const char *s, *want;
} escape_lines_cases[] = {
	{"", ""},
	{"plain", "plain"},
	{"bad \033[31mred\033[0m\n", "bad \\x1b[31mred\\x1b[0m"},
	{"one\ntwo\n\n", "one\ntwo"},
	{"crlf\r\nline\r\n", "crlf\nline"},
	{"tab\there\n\abell", "tab\\there\n\\x07bell"},
	{"\n\nlead", "\n\nlead"},
	{"cut \xc3", "cut \\xc3"},
};

int main(void)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < sizeof(check_cases) / sizeof(check_cases[0]);
	     i++) {
		int ret;

		strbuf_reset(&sb);
		ret = names_check(check_cases[i].kind, check_cases[i].s, &sb);
		ok(ret == (check_cases[i].err ? -1 : 0), "check, case %zu", i);
		is_str(sb.buf, check_cases[i].err ? check_cases[i].err : "",
		       "check message, case %zu", i);
	}
	test_max_bytes();
	for (size_t i = 0; i < sizeof(escape_cases) / sizeof(escape_cases[0]);
	     i++) {
		const char *s = escape_cases[i].s;

		strbuf_reset(&sb);
		names_escape(&sb, s,
			     escape_cases[i].len ? escape_cases[i].len
						 : strlen(s));
		is_str(sb.buf, escape_cases[i].want, "escape, case %zu", i);
	}
	for (size_t i = 0;
	     i < sizeof(escape_lines_cases) / sizeof(escape_lines_cases[0]);
	     i++) {
		const char *s = escape_lines_cases[i].s;

		strbuf_reset(&sb);
		names_escape_lines(&sb, s, strlen(s));
		is_str(sb.buf, escape_lines_cases[i].want,
		       "escape lines, case %zu", i);
	}
	strbuf_reset(&sb);
	strbuf_addchars(&sb, 'q', 100);
	{
		struct strbuf q = STRBUF_INIT;

		names_quote(&q, sb.buf);
		ok(q.len == 67 && !strcmp(q.buf + 64, "..."),
		   "a long name is quoted as 64 bytes and '...'");
		strbuf_release(&q);
	}
	for (size_t i = 0; i < sizeof(cut_cases) / sizeof(cut_cases[0]); i++) {
		size_t got = names_cut(cut_cases[i].s, strlen(cut_cases[i].s),
				       cut_cases[i].max);

		ok(got == cut_cases[i].want, "cut, case %zu: %zu, want %zu", i,
		   got, cut_cases[i].want);
	}
	for (size_t i = 0; i < sizeof(closest_cases) / sizeof(closest_cases[0]);
	     i++)
		is_str(names_closest(closest_cases[i].word, commands,
				     sizeof(commands) / sizeof(commands[0])),
		       closest_cases[i].want, "closest to '%s'",
		       closest_cases[i].word);
	strbuf_release(&sb);
	done_testing();
	return exit_status();
}
