/* Unit tests for strbuf, strvec and parse-num. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* parse_uint64(): digits only, up to 2^64 - 1. */
static const struct {
	const char *s;
	bool ok;
	uint64_t want;
} uint_cases[] = {
	{"0", true, 0},
	{"007", true, 7},
	{"4294967296", true, 4294967296U},
	{"18446744073709551615", true, UINT64_MAX},
	{"18446744073709551616", false, 0},
	{"18446744073709551620", false, 0},
	{"99999999999999999999", false, 0},
	{"184467440737095516150", false, 0},
	{"000000000000000000000018446744073709551615", true, UINT64_MAX},
	{"", false, 0},
	{"-1", false, 0},
	{"+1", false, 0},
	{" 1", false, 0},
	{"1 ", false, 0},
	{"12x", false, 0},
	{"1\n", false, 0},
	{"0x10", false, 0},
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

/* strbuf_read_file_max(): a file of size bytes, read with a limit. */
static const struct {
	size_t size, max, want;
} read_cases[] = {
	{0, SIZE_MAX, 0},
	{3, SIZE_MAX, 3},
	{8192, SIZE_MAX, 8192},
	{8193, SIZE_MAX, 8193},
	{20000, SIZE_MAX, 20000},
	{20000, 10000, 10000},
	{20000, 20001, 20000},
	{20000, 0, 0},
	{100, 101, 100},
	{100, 100, 100},
	{100, 99, 99},
};

/* The byte at offset i of the test files: every value, NUL included. */
static char file_byte(size_t i)
{
	return (char)(i % 251);
}

static void test_read_file(void)
{
	const char *tmp = getenv("TMPDIR");
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT;
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf want = STRBUF_INIT;

	strbuf_addf(&dir, "%s/mmcmp-test-strbuf-XXXXXX",
		    tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir.buf))
		BUG("mkdtemp failed");
	strbuf_addf(&path, "%s/file", dir.buf);
	for (size_t i = 0; i < ARRAY_SIZE(read_cases); i++) {
		FILE *f = fopen(path.buf, "wb");
		int rc;

		strbuf_reset(&want);
		for (size_t k = 0; k < read_cases[i].size; k++)
			strbuf_addch(&want, file_byte(k));
		if (!f || fwrite(want.buf, 1, want.len, f) != want.len ||
		    fclose(f))
			BUG("cannot write %s", path.buf);
		strbuf_reset(&sb);
		strbuf_reset(&err);
		strbuf_addstr(&sb, "kept:");
		rc = strbuf_read_file_max(&sb, path.buf, read_cases[i].max,
					  &err);
		ok(!rc && !err.len && sb.len == 5 + read_cases[i].want &&
			   !memcmp(sb.buf, "kept:", 5) &&
			   !memcmp(sb.buf + 5, want.buf, read_cases[i].want) &&
			   !sb.buf[sb.len],
		   "strbuf_read_file_max case %zu: %zu of %zu bytes appended",
		   i, read_cases[i].want, read_cases[i].size);
	}
	strbuf_reset(&sb);
	ok(!strbuf_read_file(&sb, path.buf, NULL) && sb.len == 100,
	   "strbuf_read_file reads the whole file, err NULL");

	/* A missing file and a directory fail and leave sb as it was. */
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "kept");
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/missing", dir.buf);
	strbuf_reset(&want);
	strbuf_addf(&want, "cannot open '%s': No such file or directory",
		    path.buf);
	ok(strbuf_read_file(&sb, path.buf, &err) == -1 &&
		   !strcmp(err.buf, want.buf) && !strcmp(sb.buf, "kept"),
	   "strbuf_read_file of a missing file");
	strbuf_reset(&err);
	strbuf_reset(&want);
	strbuf_addf(&want, "cannot read '%s': Is a directory", dir.buf);
	ok(strbuf_read_file(&sb, dir.buf, &err) == -1 &&
		   !strcmp(err.buf, want.buf) && !strcmp(sb.buf, "kept"),
	   "strbuf_read_file of a directory");
	ok(strbuf_read_file(&sb, dir.buf, NULL) == -1,
	   "strbuf_read_file accepts a NULL err");

	strbuf_reset(&path);
	strbuf_addf(&path, "%s/file", dir.buf);
	if (unlink(path.buf) || rmdir(dir.buf))
		BUG("cannot remove %s", dir.buf);
	strbuf_release(&dir);
	strbuf_release(&path);
	strbuf_release(&sb);
	strbuf_release(&err);
	strbuf_release(&want);
}

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
	for (size_t i = 0; i < ARRAY_SIZE(uint_cases); i++) {
		uint64_t v = 7;
		bool r = parse_uint64(uint_cases[i].s, &v);

		ok(r == uint_cases[i].ok && v == (r ? uint_cases[i].want : 7),
		   "parse_uint64 case %zu '%s'", i, uint_cases[i].s);
	}
	ok(!parse_uint64(NULL, &(uint64_t){0}), "parse_uint64 of NULL");
	for (size_t i = 0; i < ARRAY_SIZE(double_cases); i++) {
		double v = -1;
		bool r = parse_double(double_cases[i].s, &v);

		ok(r == double_cases[i].ok && (!r || v == double_cases[i].want),
		   "parse_double case %zu '%s'", i, double_cases[i].s);
	}
	strbuf_release(&sb);
	strbuf_release(&err);
	test_read_file();
	done_testing();
	return exit_status();
}
