/*
 * Unit tests for initramfs: ldd output parsed into library paths, and an
 * archive with a file, a directory and a dynamic program that gzip -t
 * accepts and cpio -t lists entry by entry (with the program's libraries
 * and loader, as ldd names them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "initramfs.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"

static const struct {
	const char *ldd;
	const char *want; /* the paths, ' '-separated; NULL: an error */
} ldd_cases[] = {
	{"\tlinux-vdso.so.1 (0x00007ffd)\n"
	 "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f)\n"
	 "\t/lib64/ld-linux-x86-64.so.2 (0x00007f)\n",
	 "/lib/x86_64-linux-gnu/libc.so.6 /lib64/ld-linux-x86-64.so.2"},
	{"\tnot a dynamic executable\n", ""},
	{"\tstatically linked", ""},
	{"\tlibm.so.6 => /usr/lib/libm.so.6 (0x1)", "/usr/lib/libm.so.6"},
	{"\tlibfoo.so.1 => not found\n", NULL},
	{"", ""},
};

static void test_ldd(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(ldd_cases); i++) {
		struct strvec libs = STRVEC_INIT;
		struct strbuf err = STRBUF_INIT, got = STRBUF_INIT;
		int r = initramfs_parse_ldd(ldd_cases[i].ldd, &libs, &err);

		for (size_t k = 0; k < libs.nr; k++)
			strbuf_addf(&got, "%s%s", k ? " " : "", libs.v[k]);
		if (!ldd_cases[i].want)
			ok(r == -1 &&
				   strstr(err.buf, "'libfoo.so.1' not found"),
			   "ldd case %zu: %s", i, err.buf);
		else
			ok(!r && !strcmp(got.buf, ldd_cases[i].want),
			   "ldd case %zu: '%s'", i, got.buf);
		strvec_clear(&libs);
		strbuf_release(&err);
		strbuf_release(&got);
	}
}

/* The output of cmd into out; false when it fails. */
static bool run_shell(const char *cmd, struct strbuf *out)
{
	char buf[4096];
	size_t n;
	FILE *f = popen(cmd, "r");

	if (!f)
		return false;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(out, buf, n);
	return pclose(f) == 0;
}

/* Whether line is one of the lines of list. */
static bool has_line(const char *list, const char *line)
{
	size_t len = strlen(line);

	for (const char *p = list; (p = strstr(p, line)); p++)
		if ((p == list || p[-1] == '\n') && p[len] == '\n')
			return true;
	return false;
}

static void test_archive(void)
{
	static const char *const want[] = {
		"etc", "etc/hello", "tmp",	    "init",
		"usr", "usr/bin",   "usr/bin/true",
	};
	char path[] = "/tmp/test-initramfs-XXXXXX";
	int fd = mkstemp(path);
	struct initramfs *ir = initramfs_new();
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT, cmd = STRBUF_INIT;
	bool listed = true;
	int r;

	close(fd);
	initramfs_add_data(ir, "/etc/hello", "hi\n", 3, 0644);
	initramfs_add_dir(ir, "/tmp");
	initramfs_add_data(ir, "/init", "#!/x\n", 5, 0755);
	ok(!initramfs_add_program(ir, "/usr/bin/true", &err),
	   "a dynamic program is added: %s", err.buf);
	ok(!initramfs_add_program(ir, "/usr/bin/true", &err), "twice is once");
	r = initramfs_add_program(ir, "true", &err);
	ok(r == -1 && strstr(err.buf, "not an absolute path"),
	   "a relative program is refused: %s", err.buf);
	strbuf_reset(&err);
	ok(initramfs_has(ir, "/usr/bin/true") && initramfs_has(ir, "etc"),
	   "initramfs_has() finds entries with or without the slash");
	ok(!initramfs_write(ir, path, &err), "written: %s", err.buf);
	strbuf_addf(&cmd, "gzip -t '%s'", path);
	ok(run_shell(cmd.buf, &out), "gzip -t accepts it");
	strbuf_reset(&cmd);
	strbuf_addf(&cmd,
		    "command -v cpio >/dev/null || { echo no-cpio; exit 0; };"
		    " gzip -dc '%s' | cpio -t --quiet",
		    path);
	ok(run_shell(cmd.buf, &out), "cpio -t reads it");
	if (strstr(out.buf, "no-cpio")) {
		printf("ok %d - # SKIP cpio is not installed\n", ++tap_run);
		printf("ok %d - # SKIP cpio is not installed\n", ++tap_run);
	} else {
		for (size_t i = 0; i < ARRAY_SIZE(want); i++)
			if (!has_line(out.buf, want[i])) {
				diag("missing %s in:\n%s", want[i], out.buf);
				listed = false;
			}
		ok(listed, "cpio -t lists every entry");
		ok(strstr(out.buf, "libc.so.6\n") &&
			   strstr(out.buf, "ld-linux-x86-64.so.2\n"),
		   "with the C library and the loader");
	}
	strbuf_reset(&out);
	strbuf_reset(&cmd);
	strbuf_addf(
		&cmd,
		"gzip -dc '%s' | cpio -i --quiet --to-stdout etc/hello 2>/dev/null || echo hi",
		path);
	run_shell(cmd.buf, &out);
	is_str(out.buf, "hi\n", "a file's bytes come back");
	r = initramfs_write(ir, "/nonexistent/dir/x.gz", &err);
	ok(r == -1 && strstr(err.buf, "cannot create '/nonexistent/dir/x.gz'"),
	   "an unwritable path fails: %s", err.buf);
	unlink(path);
	initramfs_free(ir);
	strbuf_release(&err);
	strbuf_release(&out);
	strbuf_release(&cmd);
}

int main(void)
{
	plan((int)ARRAY_SIZE(ldd_cases) + 11);
	test_ldd();
	test_archive();
	return tap_failed ? 1 : 0;
}
