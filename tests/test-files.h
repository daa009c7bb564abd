#ifndef MMCMP_TEST_FILES_H
#define MMCMP_TEST_FILES_H

/*
 * test-files: fixtures and golden files for the unit tests, which run in
 * tests/ (meson's workdir). read_file() loads a fixture; check_golden()
 * compares a rendering with tests/golden/NAME and, when the environment
 * has MMCMP_UPDATE_GOLDEN=1, rewrites the file instead (and still reports
 * the test, as passed). Without the variable a missing or different file
 * fails, with the first differing line in a diagnostic. put_tree_file()
 * and remove_tree() make and remove files in a temporary tree that
 * mimics /sys or /proc, for the settings.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "strbuf.h"
#include "tap.h"
#include "util.h"

/* Append the whole of path to sb; false (with a diagnostic) on error. */
static inline bool read_file(const char *path, struct strbuf *sb)
{
	struct strbuf err = STRBUF_INIT;
	bool read = !strbuf_read_file(sb, path, &err);

	if (!read)
		diag("%s", err.buf);
	strbuf_release(&err);
	return read;
}

/* Report where got and want part, one line of each. */
static inline void diag_first_diff(const char *got, size_t got_len,
				   const char *want, size_t want_len)
{
	size_t i = 0, line = 1, start = 0, gend, wend;

	while (i < got_len && i < want_len && got[i] == want[i]) {
		if (got[i] == '\n') {
			line++;
			start = i + 1;
		}
		i++;
	}
	for (gend = start; gend < got_len && got[gend] != '\n'; gend++)
		;
	for (wend = start; wend < want_len && want[wend] != '\n'; wend++)
		;
	diag("first difference at line %zu, column %zu", line, i - start + 1);
	diag("got:  '%.*s'", (int)(gend - start), got + start);
	diag("want: '%.*s'", (int)(wend - start), want + start);
}

/* Whether got equals want, with the first difference as a diagnostic. */
static inline bool same_bytes(const struct strbuf *got,
			      const struct strbuf *want)
{
	bool same =
		got->len == want->len && !memcmp(got->buf, want->buf, got->len);

	if (!same)
		diag_first_diff(got->buf, got->len, want->buf, want->len);
	return same;
}

/* ok() when out equals the bytes of the file at path. */
static inline bool check_file(const struct strbuf *out, const char *path,
			      const char *what)
{
	struct strbuf want = STRBUF_INIT;
	bool same;

	same = read_file(path, &want) && same_bytes(out, &want);
	strbuf_release(&want);
	return ok(same, "%s matches %s byte for byte", what, path);
}

/* Compare with, or with MMCMP_UPDATE_GOLDEN=1 rewrite, golden/name. */
static inline bool check_golden(const struct strbuf *out, const char *name)
{
	const char *update = getenv("MMCMP_UPDATE_GOLDEN");
	struct strbuf path = STRBUF_INIT;
	bool same;

	strbuf_addf(&path, "golden/%s", name);
	if (update && !strcmp(update, "1")) {
		FILE *f = fopen(path.buf, "wb");
		bool written =
			f && fwrite(out->buf, 1, out->len, f) == out->len;
		if (f && fclose(f))
			written = false;
		ok(written, "golden %s rewritten", name);
		strbuf_release(&path);
		return written;
	}
	same = check_file(out, path.buf, name);
	strbuf_release(&path);
	return same;
}

/* Write text to root + path, making the directories on the way. */
static inline void put_tree_file(const char *root, const char *path,
				 const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	FILE *f;

	strbuf_addf(&sb, "%s%s", root, path);
	for (char *p = sb.buf + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(sb.buf, 0700);
		*p = '/';
	}
	f = fopen(sb.buf, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		BUG("cannot write %s", sb.buf);
	strbuf_release(&sb);
}

/*
 * Remove root + paths[i] for each of the nr paths, files and empty
 * directories, in order (so the deepest first).
 */
static inline void remove_tree(const char *root, const char *const *paths,
			       size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "%s%s", root, paths[i]);
		if (remove(sb.buf))
			diag("cannot remove %s", sb.buf);
		strbuf_release(&sb);
	}
}

#endif /* MMCMP_TEST_FILES_H */
