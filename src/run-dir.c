/* run-dir: the machine-wide records of runs under /run/mmcmp. */
#include "run-dir.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strbuf.h"
#include "util.h"

#define RUN_DIR "/run/mmcmp"

void run_dir_path(struct strbuf *out, const char *root, const char *sub)
{
	strbuf_reset(out);
	strbuf_addf(out, "%s" RUN_DIR "/%s", root, sub);
}

void run_dir_add_name(struct strbuf *out, const char *path)
{
	strbuf_addch(out, '/');
	for (const char *p = path + (*path == '/'); *p; p++) {
		if (*p == '/')
			strbuf_addstr(out, "%2F");
		else if (*p == '%')
			strbuf_addstr(out, "%25");
		else
			strbuf_addch(out, *p);
	}
}

int run_dir_make(const char *root, const char *sub, struct strbuf *err)
{
	struct strbuf dir = STRBUF_INIT, full = STRBUF_INIT;
	const char *p;
	int ret = -1;

	strbuf_addf(&full, RUN_DIR "/%s", sub);
	strbuf_addstr(&dir, root);
	p = full.buf;
	do {
		size_t len = strcspn(p + 1, "/") + 1;

		strbuf_add(&dir, p, len);
		p += len;
		if (mkdir(dir.buf, 0755) && errno != EEXIST) {
			error_addf(err, "cannot create '%s': %s", dir.buf,
				   strerror(errno));
			goto out;
		}
	} while (*p);
	ret = 0;
out:
	strbuf_release(&dir);
	strbuf_release(&full);
	return ret;
}

int run_dir_write(const char *file, const char *text, struct strbuf *err)
{
	struct strbuf tmp = STRBUF_INIT;
	size_t len = strlen(text);
	ssize_t n = -1;
	int fd, e = 0;

	strbuf_addf(&tmp, "%s.tmp", file);
	fd = open(tmp.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0) {
		n = write(fd, text, len);
		e = n < 0 ? errno : (size_t)n != len ? EIO : 0;
		if (close(fd) && !e)
			e = errno;
	} else {
		e = errno;
	}
	if (!e && rename(tmp.buf, file))
		e = errno;
	if (e) {
		unlink(tmp.buf);
		error_addf(err, "cannot write '%s': %s", file, strerror(e));
	}
	strbuf_release(&tmp);
	return e ? -1 : 0;
}
