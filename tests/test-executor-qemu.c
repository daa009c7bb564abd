/*
 * Unit tests for executor-qemu's KVM probe, with fake qemus (shell
 * scripts): one whose guest prints the kernel's banner, one that fails
 * at once with its error, and one that warns and then hangs, as a KVM
 * guest does on machines where KVM does not work; the probe says which,
 * with qemu's last line, within its bound. And kernel images that are
 * not regular files (a FIFO, a directory, a device), refused unread.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "executor-qemu.h"
#include "strbuf.h"
#include "util.h"

#define CPUID_WARNING                                                          \
	"qemu-system-x86_64: warning: host doesn't support requested "         \
	"feature: CPUID.80000001H:ECX.svm [bit 2]"

static const struct {
	const char *script; /* the fake qemu's body, after #!/bin/sh */
	double timeout_s;   /* long where the fake answers, so load is fine */
	int want_ret;
	const char *want_err; /* the whole error line */
} probe_cases[] = {
	{"echo 'Linux version 6.1.0 (fake)'\nexec sleep 30\n", 10, 0, ""},
	{"echo 'qemu-system-x86_64: warning: one'\n"
	 "echo 'qemu-system-x86_64: failed to initialize kvm: No such file "
	 "or directory'\nexit 1\n",
	 10, -1,
	 "accel: kvm does not work here (qemu-system-x86_64: failed to "
	 "initialize kvm: No such file or directory); use accel: tcg "
	 "(emulated, slow, but it runs anywhere)"},
	{"echo \"" CPUID_WARNING "\"\nexec sleep 30\n", 2, -1,
	 "accel: kvm probe did not answer within 2 s (KVM guests hang on "
	 "this machine?); use accel: tcg; qemu's last line: " CPUID_WARNING},
	{"exec sleep 30\n", 0.5, -1,
	 "accel: kvm probe did not answer within 0.5 s (KVM guests hang on "
	 "this machine?); use accel: tcg"},
	{"exit 1\n", 10, -1,
	 "accel: kvm does not work here (qemu failed without a message); use "
	 "accel: tcg (emulated, slow, but it runs anywhere)"},
};

static void test_probe(const char *dir)
{
	for (size_t i = 0; i < ARRAY_SIZE(probe_cases); i++) {
		struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
		FILE *f;
		int r = -2;

		strbuf_addf(&path, "%s/qemu-%zu", dir, i);
		f = fopen(path.buf, "w");
		if (f) {
			fprintf(f, "#!/bin/sh\n%s", probe_cases[i].script);
			if (fclose(f) || chmod(path.buf, 0755))
				f = NULL;
		}
		if (f)
			r = qemu_probe_kvm(path.buf, "/nonexistent",
					   probe_cases[i].timeout_s, &err);
		ok(r == probe_cases[i].want_ret, "probe case %zu returns %d", i,
		   r);
		is_str(err.buf, probe_cases[i].want_err, "probe case %zu says",
		       i);
		unlink(path.buf);
		strbuf_release(&path);
		strbuf_release(&err);
	}
}

/* What the image at a path is made into (NULL: the path as it is). */
static const struct {
	const char *name; /* under the test's directory, or absolute */
	int make;	  /* 'f' FIFO, 'd' directory, 't' text file, 0 none */
	const char *want_err;
} image_cases[] = {
	{"fifo.img", 'f', "is a FIFO, not a regular file"},
	{"dir.img", 'd', "is a directory, not a regular file"},
	{"/dev/null", 0, "is a character device, not a regular file"},
	{"text.img", 't', "is not a bzImage"},
};

static void test_images(const char *dir)
{
	for (size_t i = 0; i < ARRAY_SIZE(image_cases); i++) {
		struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
		char *release = NULL;
		int r = 0, made = 0;

		if (image_cases[i].name[0] == '/')
			strbuf_addstr(&path, image_cases[i].name);
		else
			strbuf_addf(&path, "%s/%s", dir, image_cases[i].name);
		if (image_cases[i].make == 'f')
			made = mkfifo(path.buf, 0600);
		else if (image_cases[i].make == 'd')
			made = mkdir(path.buf, 0700);
		else if (image_cases[i].make == 't') {
			FILE *f = fopen(path.buf, "w");

			made = -1;
			if (f) {
				made = fputs("not a kernel\n", f) < 0;
				made |= fclose(f) != 0;
			}
		}
		if (!made)
			r = qemu_image_release(path.buf, &release, &err);
		ok(r == -1 && strstr(err.buf, image_cases[i].want_err),
		   "image case %zu (%s) refused: %s", i, image_cases[i].name,
		   err.buf);
		if (image_cases[i].make == 'd')
			rmdir(path.buf);
		else if (image_cases[i].make)
			unlink(path.buf);
		free(release);
		strbuf_release(&path);
		strbuf_release(&err);
	}
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	struct strbuf dir = STRBUF_INIT;

	plan((int)(2 * ARRAY_SIZE(probe_cases) + ARRAY_SIZE(image_cases)));
	strbuf_addf(&dir, "%s/test-executor-qemu-XXXXXX",
		    tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir.buf)) {
		perror("mkdtemp");
		return 1;
	}
	test_probe(dir.buf);
	test_images(dir.buf);
	rmdir(dir.buf);
	strbuf_release(&dir);
	return tap_failed ? 1 : 0;
}
