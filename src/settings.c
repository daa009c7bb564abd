/* settings: write /proc/sys and /sys files for a run, and put them back. */
#include "settings.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "machine.h"
#include "parse-num.h"
#include "run-dir.h"
#include "strbuf.h"
#include "strvec.h"
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

/*
 * Settings are machine-wide, and runs may overlap: each file a run holds
 * has a record in run-dir.h's STATE_SUB, kept under a lock, with the value
 * it had before the first run wrote it, the value written now, and the
 * processes (pid and start time) holding it, one line per change on their
 * stacks. The last holder to let go writes the first value back; a record
 * whose holders all died is what settings_recover() puts back.
 */
#define STATE_SUB "settings" /* under run-dir.h's directory */

struct holder {
	pid_t pid;
	int64_t start; /* machine_proc_start(), to tell a reused pid */
};

struct record {
	char *path, *original, *current;
	struct holder *v;
	size_t nr, alloc;
};

static void record_release(struct record *r)
{
	free(r->path);
	free(r->original);
	free(r->current);
	free(r->v);
	memset(r, 0, sizeof(*r));
}

static struct holder holder_self(void)
{
	struct holder h = {getpid(), machine_proc_start(getpid())};

	return h;
}

static bool holder_alive(const struct holder *h)
{
	return h->start >= 0 && machine_proc_start(h->pid) == h->start;
}

/* Whether a process other than self holds r. */
static bool record_held_by_others(const struct record *r,
				  const struct holder *self)
{
	for (size_t i = 0; i < r->nr; i++)
		if (r->v[i].pid != self->pid || r->v[i].start != self->start)
			return true;
	return false;
}

/* Remove the last entry of h; false when h holds none. */
static bool record_let_go(struct record *r, const struct holder *h)
{
	for (size_t i = r->nr; i-- > 0;) {
		if (r->v[i].pid == h->pid && r->v[i].start == h->start) {
			memmove(r->v + i, r->v + i + 1,
				(r->nr - i - 1) * sizeof(*r->v));
			r->nr--;
			return true;
		}
	}
	return false;
}

static bool record_holds(const struct record *r, const struct holder *h)
{
	for (size_t i = 0; i < r->nr; i++)
		if (r->v[i].pid == h->pid && r->v[i].start == h->start)
			return true;
	return false;
}

/* Drop the holders that are no longer alive. */
static void record_prune(struct record *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nr; i++)
		if (holder_alive(&r->v[i]))
			r->v[n++] = r->v[i];
	r->nr = n;
}

/* The state directory, or with name (a readdir() entry) a file in it. */
static void state_file(const struct settings *st, const char *name,
		       struct strbuf *out)
{
	run_dir_path(out, st->root, STATE_SUB);
	if (name)
		strbuf_addf(out, "/%s", name);
}

/* The record file of path. */
static void record_file(const struct settings *st, const char *path,
			struct strbuf *out)
{
	run_dir_path(out, st->root, STATE_SUB);
	run_dir_add_name(out, path);
}

/* Create the state directory and take its lock; the fd, or -1. */
static int state_lock(const struct settings *st, struct strbuf *err)
{
	struct strbuf file = STRBUF_INIT;
	struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
	int fd = -1;

	if (run_dir_make(st->root, STATE_SUB, err))
		goto out;
	state_file(st, "lock", &file);
	fd = open(file.buf, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0) {
		error_addf(err, "cannot open '%s': %s", file.buf,
			   strerror(errno));
		goto out;
	}
	while (fcntl(fd, F_SETLKW, &fl)) {
		if (errno == EINTR)
			continue;
		error_addf(err, "cannot lock '%s': %s", file.buf,
			   strerror(errno));
		close(fd);
		fd = -1;
		break;
	}
out:
	strbuf_release(&file);
	return fd;
}

/* Take the next line of *p into a new string, or NULL at the end. */
static char *next_line(const char **p)
{
	const char *nl = strchr(*p, '\n');
	char *line;

	if (!nl)
		return NULL;
	line = xstrndup(*p, (size_t)(nl - *p));
	*p = nl + 1;
	return line;
}

/* Read the record in file: 1, 0 when there is none, -1 on error. */
static int record_load(const char *file, struct record *r, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	const char *p;
	char *line;
	int ret = -1;

	if (access(file, F_OK) && errno == ENOENT)
		return 0;
	if (strbuf_read_file(&text, file, err))
		goto out;
	p = text.buf;
	r->path = next_line(&p);
	r->original = next_line(&p);
	r->current = next_line(&p);
	if (!r->current) {
		error_addf(err, "'%s' is not a setting record", file);
		goto out;
	}
	while ((line = next_line(&p))) {
		char *sp = strchr(line, ' ');
		int64_t pid, start;
		bool good = sp != NULL;

		if (good) {
			*sp = '\0';
			good = parse_int64(line, 1, INT32_MAX, &pid) &&
			       parse_int64(sp + 1, 0, INT64_MAX, &start);
		}
		free(line);
		if (!good) {
			error_addf(err, "'%s' is not a setting record", file);
			goto out;
		}
		ALLOC_GROW(r->v, r->nr + 1, r->alloc);
		r->v[r->nr].pid = (pid_t)pid;
		r->v[r->nr++].start = start;
	}
	ret = 1;
out:
	strbuf_release(&text);
	return ret;
}

/* Write r to file, whole or not at all. */
static int record_save(const char *file, const struct record *r,
		       struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	int ret;

	strbuf_addf(&text, "%s\n%s\n%s\n", r->path, r->original, r->current);
	for (size_t i = 0; i < r->nr; i++)
		strbuf_addf(&text, "%ld %lld\n", (long)r->v[i].pid,
			    (long long)r->v[i].start);
	ret = run_dir_write(file, text.buf, err);
	strbuf_release(&text);
	return ret;
}

/* Save r, or remove its file when no one holds it any more. */
static int record_update(const char *file, const struct record *r,
			 struct strbuf *err)
{
	if (r->nr)
		return record_save(file, r, err);
	if (unlink(file) && errno != ENOENT)
		return error_addf(err, "cannot remove '%s': %s", file,
				  strerror(errno));
	return 0;
}

int settings_apply(struct settings *st, const char *path, const char *value,
		   struct strbuf *err)
{
	char *old = NULL, *now = NULL, *want = settings_value(value);
	struct strbuf file = STRBUF_INIT;
	struct record rec = {0};
	struct holder self = holder_self();
	struct setting_change *c;
	int lock, found, ret = -1;

	lock = state_lock(st, err);
	if (lock < 0)
		goto out;
	record_file(st, path, &file);
	found = record_load(file.buf, &rec, err);
	if (found < 0 || settings_read(st, path, &old, err))
		goto out;
	record_prune(&rec);
	if (found && record_held_by_others(&rec, &self) &&
	    strcmp(rec.current, want)) {
		error_addf(
			err,
			"setting '%s' is held at '%s' by another run (pid %ld): this one would write '%s'",
			path, rec.current, (long)rec.v[0].pid, want);
		goto out;
	}
	if (!found) {
		rec.path = xstrdup(path);
		rec.original = xstrdup(old);
	}
	if (!record_holds(&rec, &self)) {
		/* Another run's value or a dead run's: not what came first. */
		free(old);
		old = xstrdup(rec.original);
	}
	free(rec.current);
	rec.current = xstrdup(want);
	ALLOC_GROW(rec.v, rec.nr + 1, rec.alloc);
	rec.v[rec.nr++] = self;
	/* Recorded before it is written: a kill in between loses nothing. */
	if (record_save(file.buf, &rec, err))
		goto out;
	if (write_value(st, path, value, err)) {
		record_let_go(&rec, &self);
		record_update(file.buf, &rec, NULL);
		goto out;
	}
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
	if (lock >= 0)
		close(lock);
	record_release(&rec);
	strbuf_release(&file);
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

/*
 * Undo change c: with the file held by this process still, write its old
 * value; held by others only, leave it; held by no one, write the value
 * from before the first holder and drop the record.
 */
static int restore_one(struct settings *st, const struct setting_change *c,
		       struct strbuf *err)
{
	struct strbuf file = STRBUF_INIT;
	struct record rec = {0};
	struct holder self = holder_self();
	const char *value = c->old_value;
	int lock, found = 0, ret = -1;

	lock = state_lock(st, err);
	if (lock >= 0) {
		record_file(st, c->path, &file);
		found = record_load(file.buf, &rec, err);
	}
	if (found < 0 || lock < 0) {
		/* Without the record, this run's own old value is the best. */
		write_value(st, c->path, value, NULL);
		goto out;
	}
	if (found) {
		record_let_go(&rec, &self);
		record_prune(&rec);
		if (!record_holds(&rec, &self))
			value = rec.nr ? NULL : rec.original;
		if (value) {
			free(rec.current);
			rec.current = xstrdup(value);
		}
		if (record_update(file.buf, &rec, err))
			goto out;
	}
	ret = value ? write_value(st, c->path, value, err) : 0;
out:
	if (lock >= 0)
		close(lock);
	record_release(&rec);
	strbuf_release(&file);
	return ret;
}

int settings_restore(struct settings *st, size_t keep, struct strbuf *err)
{
	struct strbuf first = STRBUF_INIT;
	size_t failed = 0;

	while (st->nr > keep) {
		struct setting_change *c = &st->v[--st->nr];

		if (restore_one(st, c, failed ? NULL : &first))
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

int settings_recover(struct settings *st, struct strvec *done,
		     struct strbuf *err)
{
	struct strbuf dir = STRBUF_INIT, file = STRBUF_INIT, why = STRBUF_INIT;
	struct dirent *de;
	DIR *d = NULL;
	int lock = -1, ret = -1;

	state_file(st, NULL, &dir);
	if (access(dir.buf, F_OK) && errno == ENOENT) {
		ret = 0; /* no setting was ever held here */
		goto out;
	}
	lock = state_lock(st, err);
	if (lock < 0)
		goto out;
	d = opendir(dir.buf);
	if (!d) {
		error_addf(err, "cannot open '%s': %s", dir.buf,
			   strerror(errno));
		goto out;
	}
	while ((de = readdir(d))) {
		struct record rec = {0};
		size_t len = strlen(de->d_name);

		if (de->d_name[0] == '.' || !strcmp(de->d_name, "lock") ||
		    (len > 4 && !strcmp(de->d_name + len - 4, ".tmp")))
			continue;
		state_file(st, de->d_name, &file);
		strbuf_reset(&why);
		if (record_load(file.buf, &rec, &why) < 0) {
			strvec_push(done, why.buf);
		} else {
			record_prune(&rec);
			if (!rec.nr && rec.path) {
				if (!write_value(st, rec.path, rec.original,
						 &why))
					strbuf_addf(
						&why,
						"setting '%s' put back to '%s' (a run that was killed left '%s')",
						rec.path, rec.original,
						rec.current);
				strvec_push(done, why.buf);
				unlink(file.buf);
			}
		}
		record_release(&rec);
	}
	ret = 0;
out:
	if (d)
		closedir(d);
	if (lock >= 0)
		close(lock);
	strbuf_release(&dir);
	strbuf_release(&file);
	strbuf_release(&why);
	return ret;
}
