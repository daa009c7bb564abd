/*
 * profile (src/profile.h, src/profile-sym.h): names for addresses, from
 * this test's own ELF symbol table through /proc/self/maps as a profile
 * maps them and from /proc/kallsyms; a command that cannot be found is
 * refused; a profile of a short command folds its samples, counts that
 * add up to the total.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "profile-sym.h"
#include "profile.h"
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

int main(void)
{
	test_user_symbols();
	test_kernel_symbols();
	test_run();
	done_testing();
	return exit_status();
}
