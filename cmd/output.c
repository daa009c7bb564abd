/* write_output(): a command's output to stdout or a file replaced whole. */
#include "cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "strbuf.h"

/*
 * Whether path names the same file as other: by device and inode when
 * both exist, else by the path as written.
 */
static bool same_file(const char *path, const char *other)
{
	struct stat a, b;

	if (!stat(path, &a) && !stat(other, &b))
		return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
	return !strcmp(path, other);
}

bool is_database_file(const char *path)
{
	const char *db = mmcmp_db_path();
	struct strbuf side = STRBUF_INIT;
	bool same = same_file(path, db);

	for (int i = 0; i < 2 && !same; i++) {
		strbuf_reset(&side);
		strbuf_addf(&side, "%s%s", db, i ? "-shm" : "-wal");
		same = same_file(path, side.buf);
	}
	strbuf_release(&side);
	return same;
}

/* Write all of sb to fd; false after a short write. */
static bool write_all(int fd, const struct strbuf *sb)
{
	size_t done = 0;

	while (done < sb->len) {
		ssize_t n = write(fd, sb->buf + done, sb->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		done += (size_t)n;
	}
	return true;
}

/*
 * Write sb to a new file next to path and rename it over path, so that
 * path holds the old contents or the new, never a part. The new file
 * gets the mode of the file it replaces, else 0666 less the umask.
 */
static int replace_file(const char *path, const struct stat *old,
			const struct strbuf *sb)
{
	struct strbuf tmp = STRBUF_INIT;
	const char *slash = strrchr(path, '/');
	mode_t mode;
	int fd, ret = 1;

	if (old) {
		mode = old->st_mode & 07777;
	} else {
		mode = umask(022);
		umask(mode);
		mode = 0666 & ~mode;
	}
	if (slash)
		strbuf_add(&tmp, path, (size_t)(slash - path) + 1);
	strbuf_addf(&tmp, ".%s.XXXXXX", slash ? slash + 1 : path);
	fd = mkstemp(tmp.buf);
	if (fd < 0) {
		error("cannot create a file next to '%s': %s", path,
		      strerror(errno));
		goto out;
	}
	if (fchmod(fd, mode) || !write_all(fd, sb) || fsync(fd)) {
		error("cannot write '%s': %s", tmp.buf, strerror(errno));
		close(fd);
		unlink(tmp.buf);
		goto out;
	}
	if (close(fd)) {
		error("cannot write '%s': %s", tmp.buf, strerror(errno));
		unlink(tmp.buf);
		goto out;
	}
	if (rename(tmp.buf, path)) {
		error("cannot rename '%s' to '%s': %s", tmp.buf, path,
		      strerror(errno));
		unlink(tmp.buf);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&tmp);
	return ret;
}

int write_output(const char *path, const struct strbuf *sb)
{
	struct stat st;
	FILE *f;
	bool bad;

	if (!path) {
		fwrite(sb->buf, 1, sb->len, stdout);
		return 0;
	}
	if (!*path) {
		fflush(stdout);
		fputs("mmcmp: error: -o '': the output path is empty\n",
		      stderr);
		return 2;
	}
	if (is_database_file(path)) {
		fflush(stdout);
		fprintf(stderr,
			"mmcmp: error: refusing to write to '%s': it is the database '%s' or one of its files\n",
			path, mmcmp_db_path());
		return 2;
	}
	if (stat(path, &st))
		return replace_file(path, NULL, sb);
	if (S_ISREG(st.st_mode)) {
		/* Through a symbolic link: replace the file it points to. */
		char *real = realpath(path, NULL);
		int ret = replace_file(real ? real : path, &st, sb);

		free(real);
		return ret;
	}
	/* A device or a pipe (/dev/stdout): written to in place. */
	f = fopen(path, "w");
	if (!f)
		return error("cannot open '%s': %s", path, strerror(errno));
	bad = fwrite(sb->buf, 1, sb->len, f) != sb->len;
	if (fclose(f))
		bad = true;
	if (bad)
		return error("cannot write '%s': %s", path, strerror(errno));
	return 0;
}
