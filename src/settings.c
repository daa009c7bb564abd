/* settings: write /proc/sys and /sys files for a run, and put them back. */
#include "settings.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "strbuf.h"
#include "util.h"

/* Sysfs and procfs files are one page at most. */
#define MAX_VALUE_BYTES 4096

struct settings {
	char *root; /* "" for "/" */
	struct setting_change *v;
	size_t nr, alloc;
};

static bool has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

bool settings_path_ok(const char *path)
{
	const char *p;

	if (has_prefix(path, "/proc/sys/"))
		p = path + strlen("/proc/sys/");
	else if (has_prefix(path, "/sys/"))
		p = path + strlen("/sys/");
	else
		return false;
	for (;;) {
		size_t len = strcspn(p, "/");

		if (!len || (len == 1 && p[0] == '.') ||
		    (len == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		p += len;
		if (!*p)
			return true;
		p++;
	}
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

char *settings_value(const char *text)
{
	const char *open = strchr(text, '['), *close;
	struct strbuf sb = STRBUF_INIT;

	close = open ? strchr(open, ']') : NULL;
	if (close && close > open + 1) {
		strbuf_add(&sb, open + 1, (size_t)(close - open - 1));
		return strbuf_detach(&sb, NULL);
	}
	for (const char *p = text; *p; p++) {
		if (!is_blank(*p)) {
			strbuf_addch(&sb, *p);
			continue;
		}
		while (is_blank(p[1]))
			p++;
		if (sb.len && p[1])
			strbuf_addch(&sb, ' ');
	}
	return strbuf_detach(&sb, NULL);
}

struct settings *settings_new(const char *root)
{
	struct settings *st = xcalloc(1, sizeof(*st));
	size_t len = root ? strlen(root) : 0;

	/* Without trailing slashes, so that root + "/sys/..." is a path. */
	while (len && root[len - 1] == '/')
		len--;
	st->root = xstrndup(root ? root : "", len);
	return st;
}

static void change_release(struct setting_change *c)
{
	free(c->path);
	free(c->old_value);
	free(c->new_value);
}

void settings_free(struct settings *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->nr; i++)
		change_release(&st->v[i]);
	free(st->v);
	free(st->root);
	free(st);
}

static void full_path(const struct settings *st, const char *path,
		      struct strbuf *out)
{
	strbuf_reset(out);
	strbuf_addf(out, "%s%s", st->root, path);
}

int settings_read(const struct settings *st, const char *path, char **value,
		  struct strbuf *err)
{
	struct strbuf file = STRBUF_INIT;
	char buf[MAX_VALUE_BYTES + 1];
	ssize_t n = -1;
	int fd, e;

	full_path(st, path, &file);
	fd = open(file.buf, O_RDONLY | O_CLOEXEC);
	e = errno;
	if (fd >= 0) {
		do
			n = read(fd, buf, MAX_VALUE_BYTES);
		while (n < 0 && errno == EINTR);
		e = errno;
		close(fd);
	}
	strbuf_release(&file);
	if (n < 0) {
		error_addf(err, "cannot read setting '%s': %s", path,
			   strerror(e));
		return -1;
	}
	buf[n] = '\0';
	if (strlen(buf) != (size_t)n) {
		error_addf(err, "setting '%s' holds a NUL byte", path);
		return -1;
	}
	*value = settings_value(buf);
	return 0;
}

/* Write value and a newline to path, as `echo value > path` does. */
static int write_value(const struct settings *st, const char *path,
		       const char *value, struct strbuf *err)
{
	struct strbuf file = STRBUF_INIT, text = STRBUF_INIT;
	ssize_t n = -1;
	int fd, e = 0;

	full_path(st, path, &file);
	strbuf_addf(&text, "%s\n", value);
	fd = open(file.buf, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd >= 0) {
		do
			n = write(fd, text.buf, text.len);
		while (n < 0 && errno == EINTR);
		e = errno;
		if (close(fd) && n >= 0) {
			e = errno;
			n = -1;
		}
	} else {
		e = errno;
	}
	if (n >= 0 && (size_t)n != text.len) {
		n = -1;
		e = EIO;
	}
	strbuf_release(&file);
	strbuf_release(&text);
	if (n < 0)
		return error_addf(err, "cannot write '%s' to setting '%s': %s",
				  value, path, strerror(e));
	return 0;
}

int settings_apply(struct settings *st, const char *path, const char *value,
		   struct strbuf *err)
{
	char *old = NULL, *now = NULL, *want = settings_value(value);
	struct setting_change *c;
	int ret = -1;

	if (settings_read(st, path, &old, err) ||
	    write_value(st, path, value, err))
		goto out;
	ALLOC_GROW(st->v, st->nr + 1, st->alloc);
	c = &st->v[st->nr++];
	c->path = xstrdup(path);
	c->old_value = old;
	c->new_value = xstrdup(value);
	old = NULL;
	if (settings_read(st, path, &now, err))
		goto out;
	if (strcmp(now, want)) {
		error_addf(err, "setting '%s' reads '%s' after writing '%s'",
			   path, now, value);
		goto out;
	}
	ret = 0;
out:
	free(old);
	free(now);
	free(want);
	return ret;
}

size_t settings_nr(const struct settings *st)
{
	return st->nr;
}

const struct setting_change *settings_change(const struct settings *st,
					     size_t i)
{
	if (i >= st->nr)
		BUG("setting %zu of %zu", i, st->nr);
	return &st->v[i];
}

int settings_restore(struct settings *st, size_t keep, struct strbuf *err)
{
	struct strbuf first = STRBUF_INIT;
	size_t failed = 0;

	while (st->nr > keep) {
		struct setting_change *c = &st->v[--st->nr];

		if (write_value(st, c->path, c->old_value,
				failed ? NULL : &first))
			failed++;
		change_release(c);
	}
	if (failed > 1)
		error_addf(err, "%s (and %zu more settings not restored)",
			   first.buf, failed - 1);
	else if (failed)
		error_addf(err, "%s", first.buf);
	strbuf_release(&first);
	return failed ? -1 : 0;
}
