/* Unit tests for strbuf, strvec and parse-num. */
#include <stdlib.h>

#include "tap.h"
#include "parse-num.h"
#include "strbuf.h"
#include "strvec.h"

static const struct {
	const char *s;
	bool ok;
	int64_t want;
} int_cases[] = {
	{"0", true, 0},	    {"42", true, 42},
	{"-7", true, -7},   {"", false, 0},
	{" 1", false, 0},   {"1 ", false, 0},
	{"12x", false, 0},  {"99999999999999999999", false, 0},
	{"1001", false, 0}, /* above the range used below */
};

static const struct {
	const char *s;
	bool ok;
	double want;
} double_cases[] = {
	{"1.5", true, 1.5}, {"-2e3", true, -2000.0}, {"1e-300", true, 1e-300},
	{"nan", false, 0},  {"inf", false, 0},	     {"1e999", false, 0},
	{"", false, 0},	    {"3.0.1", false, 0},
};

int main(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT;
	struct strvec sv = STRVEC_INIT;
	char *detached;

	is_str(sb.buf, "", "empty strbuf reads as empty string");
	strbuf_addstr(&sb, "abc");
	strbuf_addch(&sb, '-');
	strbuf_addf(&sb, "%d:%s", 12, "x");
	is_str(sb.buf, "abc-12:x", "add, addch, addf");
	for (int i = 0; i < 1000; i++)
		strbuf_addf(&sb, "%04d", i);
	ok(sb.len == 8 + 4000, "addf grows the buffer (len %zu)", sb.len);
	strbuf_setlen(&sb, 3);
	strbuf_addchars(&sb, ' ', 3);
	strbuf_rtrim(&sb);
	is_str(sb.buf, "abc", "setlen, addchars, rtrim");
	detached = strbuf_detach(&sb, NULL);
	is_str(detached, "abc", "detach returns the string");
	ok(sb.len == 0 && sb.buf[0] == '\0', "detach resets the strbuf");
	free(detached);

	ok(error_addf(&err, "cannot open '%s'", "x.db") == -1,
	   "error_addf returns -1");
	error_addf(&err, "no such file");
	is_str(err.buf, "cannot open 'x.db': no such file",
	       "error_addf joins with a colon");
	ok(error_addf(NULL, "ignored") == -1, "error_addf accepts NULL");

	strvec_push(&sv, "a");
	strvec_push(&sv, "b");
	ok(sv.nr == 2 && sv.v[2] == NULL, "strvec is NULL-terminated");
	strvec_clear(&sv);
	ok(sv.nr == 0 && sv.v[0] == NULL, "strvec_clear resets");

	for (size_t i = 0; i < ARRAY_SIZE(int_cases); i++) {
		int64_t v = -1;
		bool r = parse_int64(int_cases[i].s, -1000, 1000, &v);

		ok(r == int_cases[i].ok && (!r || v == int_cases[i].want),
		   "parse_int64 case %zu '%s'", i, int_cases[i].s);
	}
	for (size_t i = 0; i < ARRAY_SIZE(double_cases); i++) {
		double v = -1;
		bool r = parse_double(double_cases[i].s, &v);

		ok(r == double_cases[i].ok && (!r || v == double_cases[i].want),
		   "parse_double case %zu '%s'", i, double_cases[i].s);
	}
	strbuf_release(&sb);
	strbuf_release(&err);
	done_testing();
	return exit_status();
}
