/*
 * profile (src/profile.h, src/profile-sym.h): names for addresses, from
 * this test's own ELF symbol table through /proc/self/maps as a profile
 * maps them and from /proc/kallsyms; a command that cannot be found is
 * refused; a profile of a short command folds its samples, counts that
 * add up to the total; perf script text folded (made-up cases and a
 * capture of profile-split under perf record -g) and stored, bad text
 * refused with its line.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "profile-script.h"
#include "profile-sym.h"
#include "profile.h"
#include "store-profile.h"
#include "store.h"
#include "strbuf.h"
#include "util.h"

/* A function of this test whose address a profile would sample. */
__attribute__((noinline)) int test_profile_marker(int x);
__attribute__((noinline)) int test_profile_marker(int x)
{
	return x * 3 + 1;
}

/*
 * The file offset of addr and its file, from /proc/self/maps, as a
 * PERF_RECORD_MMAP gives them: addr - start + pgoff.
 */
static bool self_offset(uintptr_t addr, char *path, size_t size, uint64_t *off)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	bool found = false;

	/* "start-end perms offset dev inode path" */
	while (f && !found && fgets(line, sizeof(line), f)) {
		char *p = line, *file = strchr(line, '/');
		unsigned long long start = strtoull(p, &p, 16), end, pgoff;
		size_t len;

		end = *p == '-' ? strtoull(p + 1, &p, 16) : 0;
		p = strchr(p + 1, ' '); /* past the permissions */
		pgoff = p ? strtoull(p + 1, NULL, 16) : 0;
		if (!file || addr < start || addr >= end)
			continue;
		len = strcspn(file, "\n");
		if (len < size) {
			memcpy(path, file, len);
			path[len] = '\0';
			*off = addr - start + pgoff;
			found = true;
		}
	}
	if (f)
		fclose(f);
	return found;
}

static void test_user_symbols(void)
{
	struct profile_sym *ps = profile_sym_new();
	struct strbuf missing = STRBUF_INIT;
	uintptr_t addr = (uintptr_t)&test_profile_marker;
	char path[4096];
	uint64_t off = 0;

	if (!ok(self_offset(addr + 2, path, sizeof(path), &off),
		"the test's code is in /proc/self/maps"))
		goto out;
	is_str(profile_sym_file(ps, path, off), "test_profile_marker",
	       "an address inside a function is named after it");
	is_str(profile_sym_file(ps, "/nonexistent/libx.so.1", 0x1234),
	       "[libx.so.1]", "an unreadable file names its frames");
	is_str(profile_sym_file(ps, "[vdso]", 0x10), "[vdso]",
	       "a pseudo-file by its name");
	is_str(profile_sym_unknown(ps), "[unknown]",
	       "an address outside every mapping");
	profile_sym_missing(ps, &missing);
	is_str(missing.buf,
	       "3 of 4 frames without a symbol: [unknown] 1, [libx.so.1] 1 "
	       "(not readable), [vdso] 1",
	       "what has no symbol is said, by file");
out:
	strbuf_release(&missing);
	profile_sym_free(ps);
}

/* The first text symbol of /proc/kallsyms with an address, if any. */
static bool first_kernel_text(uint64_t *addr, char *name, size_t size)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512];
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f)) {
		char *end;
		unsigned long long a = strtoull(line, &end, 16);
		size_t len;

		if (end == line || !a || end[0] != ' ' ||
		    (end[1] != 't' && end[1] != 'T') || end[2] != ' ')
			continue;
		len = strcspn(end + 3, " \t\n");
		if (len && len + 5 < size) {
			*addr = a;
			snprintf(name, size, "%.*s_[k]", (int)len, end + 3);
			found = true;
		}
	}
	if (f)
		fclose(f);
	return found;
}

static void test_kernel_symbols(void)
{
	struct profile_sym *ps = profile_sym_new();
	char name[300];
	uint64_t addr;

	if (!first_kernel_text(&addr, name, sizeof(name))) {
		ok(1, "# SKIP /proc/kallsyms hides its addresses here");
		profile_sym_free(ps);
		return;
	}
	is_str(profile_sym_kernel(ps, addr), name,
	       "a kernel address is named from /proc/kallsyms, with _[k]");
	is_str(profile_sym_kernel(ps, 1), "[kernel]",
	       "one below every symbol is [kernel]");
	profile_sym_free(ps);
}

/* The sum of the counts of folded lines. */
static uint64_t folded_total(const char *folded)
{
	uint64_t n = 0;

	for (const char *p = folded; *p;) {
		const char *eol = strchr(p, '\n'), *sp;

		if (!eol)
			break;
		for (sp = eol; sp > p && sp[-1] != ' '; sp--)
			;
		n += strtoull(sp, NULL, 10);
		p = eol + 1;
	}
	return n;
}

static void test_run(void)
{
	static char missing_name[] = "no-such-program-here";
	static char
		sh[] = "sh",
		dash_c[] = "-c",
		loop[] = "i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done";
	char *const missing_argv[] = {missing_name, NULL};
	char *const argv[] = {sh, dash_c, loop, NULL};
	struct profile_request req = {.argv = missing_argv,
				      .frequency_hz = PROFILE_DEFAULT_HZ};
	struct profile_result res = PROFILE_RESULT_INIT;
	struct strbuf err = STRBUF_INIT;
	int ret = profile_run(&req, &res, &err);

	ok(ret == -1 &&
		   strstr(err.buf, "cannot execute 'no-such-program-here'"),
	   "a command that is not found is refused: %s", err.buf);
	strbuf_reset(&err);
	req.argv = argv;
	if (profile_run(&req, &res, &err)) {
		ok(1, "# SKIP no cpu-clock sampling here: %s", err.buf);
		goto out;
	}
	is_str(res.status, "ok", "a short shell loop is profiled");
	ok(res.folded && folded_total(res.folded->buf) == res.samples,
	   "its folded counts add up to its %" PRIu64 " samples", res.samples);
out:
	profile_result_release(&res);
	strbuf_release(&err);
}

/* perf script text and the folded stacks it gives. */
static const struct {
	const char *text, *folded;
	uint64_t samples;
} script_cases[] = {
	/* Leaf first in, root first out; offsets go; a kernel frame. */
	{"p 1 [000] 1.0: 1001 cpu-clock:\n"
	 "\tffffffff81000000 irq+0x1 ([kernel.kallsyms])\n"
	 "\t    1234 f+0x10 (/bin/p)\n\t    2000 main (/bin/p)\n\n"
	 "p 1 [000] 1.1: 1001 cpu-clock: \n\t1234 f+0x10 (/bin/p)\n"
	 "\t2000 main+0x3 (/bin/p)\n\n"
	 "p 1 [001] 1.2: 1001 cpu-clock:\n\t1235 f+0x11 (/bin/p)\n"
	 "\t2000 main+0x3 (/bin/p)\n",
	 "main;f 2\nmain;f;irq_[k] 1\n", 3},
	/*
	 * [unknown] after its file, unless that is unknown too; a name with
	 * a space and one with ';', which folded text cannot hold.
	 */
	{"p 1 2.0: 1 cpu-clock:\n\t7f00 [unknown] (/usr/lib/libc.so.6)\n"
	 "\t0 [unknown] ([unknown])\n\n"
	 "p 1 2.1: 1 cpu-clock:\n"
	 "\t10 operator new(unsigned long)+0x5 (/usr/lib/libstdc++.so.6)\n"
	 "\t20 a;b (/bin/p)\n",
	 "[unknown];[libc.so.6] 1\na:b;operator new(unsigned long) 1\n", 2},
	/* perf script --header's comments, CRLF, no blank line between. */
	{"# ========\n# cmdline : perf record -g\np 1 3.0: 1 cpu-clock:\r\n"
	 "\t10 f (/bin/p)\r\np 1 3.1: 1 cpu-clock:\n\t10 f (/bin/p)",
	 "f 2\n", 2},
};

static const struct {
	const char *text, *msg;
} script_bad[] = {
	{"p 1 1.0: 1 cpu-clock:\n\n",
	 "t.txt:1: a sample without a call chain (record with perf record -g)"},
	{"\t10 f (/bin/p)\n", "t.txt:1: a stack frame outside a sample (no "
			      "header line before it)"},
	{"p 1 1.0: 1 cpu-clock:\n\tnot a frame\n",
	 "t.txt:2: expected a frame 'ADDRESS SYMBOL (DSO)'"},
	{"p 1 1.0: 1 cpu-clock:\n\t10 (/bin/p)\n",
	 "t.txt:2: expected a frame 'ADDRESS SYMBOL (DSO)'"},
	{"p 1 1.0: 1 cpu-clock:\n\t10 f (/bin/p)\n\nhello world\n",
	 "t.txt:4: expected a sample header 'COMM PID TIME: PERIOD EVENT:'"},
	{"", "t.txt: no samples: not perf script output"},
	{"# only a comment\n", "t.txt: no samples: not perf script output"},
};

static void test_script_cases(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(script_cases); i++) {
		struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
		uint64_t n = 0;
		int ret = profile_script_fold("t.txt", script_cases[i].text,
					      strlen(script_cases[i].text),
					      &out, &n, &err);

		ok(!ret && !strcmp(out.buf, script_cases[i].folded) &&
			   n == script_cases[i].samples,
		   "perf script, case %zu: %s", i, ret ? err.buf : out.buf);
		strbuf_release(&out);
		strbuf_release(&err);
	}
	for (size_t i = 0; i < ARRAY_SIZE(script_bad); i++) {
		struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
		uint64_t n = 0;
		int ret = profile_script_fold("t.txt", script_bad[i].text,
					      strlen(script_bad[i].text), &out,
					      &n, &err);

		ok(ret == -1 && !strcmp(err.buf, script_bad[i].msg),
		   "bad perf script %zu refused: %s", i, err.buf);
		strbuf_release(&out);
		strbuf_release(&err);
	}
}

#define SCRIPT_FIXTURE "data/perf-script-split.txt"

/*
 * The capture (perf record -g -e cpu-clock of profile-split --share-a
 * 70, its path made neutral): 68 samples in 6 distinct stacks, 45 and
 * 19 of them in spin_a and spin_b, one in a frame of no known file,
 * counted from the text with a short Python script.
 */
static void test_script_fixture(void)
{
	struct strbuf text = STRBUF_INIT, out = STRBUF_INIT, err = STRBUF_INIT;
	struct store *st = NULL;
	struct profile_rows rows = {0};
	struct profile_script_file f[2];
	uint64_t n = 0;
	size_t lines = 0;
	bool skipped = true, clash = true;

	if (!ok(!strbuf_read_file(&text, SCRIPT_FIXTURE, &err) &&
			!profile_script_fold(SCRIPT_FIXTURE, text.buf, text.len,
					     &out, &n, &err),
		"the capture folds")) {
		diag("%s", err.buf);
		goto out;
	}
	for (const char *p = out.buf; (p = strchr(p, '\n')); p++)
		lines++;
	ok(n == 68 && lines == 6, "68 samples in 6 stacks (%" PRIu64 ", %zu)",
	   n, lines);
	ok(strstr(out.buf, "__libc_start_call_main;main;spin_a 45\n") &&
		   strstr(out.buf, "__libc_start_call_main;main;spin_b 19\n"),
	   "spin_a's and spin_b's stacks, root first, with their counts");
	ok(strstr(out.buf, "\n[unknown];handle_amd 1\n") &&
		   strstr(out.buf, ";vfs_fstat_[k];security_inode_getattr_[k] "
				   "1\n"),
	   "an [unknown] frame and kernel frames");

	/* Stored as two profiles of a new run; again, skipped. */
	st = store_open(":memory:", &err);
	f[0] = (struct profile_script_file){"a.txt", out.buf, n};
	f[1] = (struct profile_script_file){"b.txt", "main;x 3\n", 3};
	ok(st &&
		   !profile_script_import(st, "L", "perf", false, f, 2,
					  "2026-01-02T03:04:05Z", &skipped,
					  &clash, &err) &&
		   !skipped &&
		   !store_profile_load(st, "L", NULL, &rows, &err) &&
		   rows.nr == 2 && rows.v[0].seq == 1 && rows.v[1].seq == 2 &&
		   rows.v[0].samples == 68 &&
		   !strcmp(rows.v[0].stacks, out.buf) &&
		   !strcmp(rows.v[1].benchmark, "perf") &&
		   !strcmp(rows.v[1].status, "ok"),
	   "stored as profiles 1 and 2 of benchmark perf: %s", err.buf);
	ok(st &&
		   !profile_script_import(st, "L", "perf", false, f, 2,
					  "2026-01-02T03:04:06Z", &skipped,
					  &clash, &err) &&
		   skipped,
	   "the same files again are skipped");
	strbuf_reset(&err);
	ok(st &&
		   profile_script_import(st, "L", "perf", false, f, 1,
					 "2026-01-02T03:04:06Z", &skipped,
					 &clash, &err) == -1 &&
		   clash &&
		   strstr(err.buf,
			  "label 'L' has runs already: --append adds to them"),
	   "other files for the label are refused: %s", err.buf);
	profile_rows_release(&rows);
	strbuf_reset(&err);
	ok(st &&
		   !profile_script_import(st, "L", "perf", true, f, 1,
					  "2026-01-02T03:04:06Z", &skipped,
					  &clash, &err) &&
		   !store_profile_load(st, "L", NULL, &rows, &err) &&
		   rows.nr == 3,
	   "unless appended: %s", err.buf);
out:
	profile_rows_release(&rows);
	store_close(st);
	strbuf_release(&text);
	strbuf_release(&out);
	strbuf_release(&err);
}

int main(void)
{
	test_script_cases();
	test_script_fixture();
	test_user_symbols();
	test_kernel_symbols();
	test_run();
	done_testing();
	return exit_status();
}
