/*
 * Unit tests for settings: which paths may be settings, the value of a
 * file's text, and apply/restore against a temporary tree that mimics
 * /sys/kernel/mm/transparent_hugepage and /proc/sys/vm.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "test-files.h"
#include "machine.h"
#include "settings.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"

#define THP	  "/sys/kernel/mm/transparent_hugepage/enabled"
#define DEFRAG	  "/sys/kernel/mm/transparent_hugepage/defrag"
#define STAT	  "/proc/sys/vm/stat_interval"
#define NULL_FILE "/sys/devnull"
#define RECORD	  "/run/mmcmp/settings/proc%2Fsys%2Fvm%2Fstat_interval"

static const struct {
	const char *path;
	bool ok;
} path_cases[] = {
	{THP, true},
	{"/proc/sys/vm/swappiness", true},
	{"/sys/a", true},
	{"/proc/sys/", false},
	{"/sys/", false},
	{"/sys", false},
	{"/proc/meminfo", false},
	{"/etc/passwd", false},
	{"vm.swappiness", false},
	{"sys/kernel/x", false},
	{"/sys/../etc/passwd", false},
	{"/proc/sys/vm/../../self/mem", false},
	{"/sys/./a", false},
	{"/sys//a", false},
	{"/sys/a/", false},
	{"/sysfs/a", false},
};

static const struct {
	const char *text, *want;
} value_cases[] = {
	{"always [madvise] never\n", "madvise"},
	{"[always] madvise never\n", "always"},
	{"always defer defer+madvise [madvise] never\n", "madvise"},
	{"1\n", "1"},
	{"  4\t4\t1\t7\n", "4 4 1 7"},
	{"", ""},
	{"never", "never"},
	{"a [] b", "a [] b"},
};

static char *root;

/* The text of root + path, "(none)" when it cannot be read. */
static const char *get(struct strbuf *sb, const char *path)
{
	struct strbuf file = STRBUF_INIT;

	strbuf_reset(sb);
	strbuf_addf(&file, "%s%s", root, path);
	if (strbuf_read_file(sb, file.buf, NULL))
		strbuf_addstr(sb, "(none)");
	strbuf_release(&file);
	return sb->buf;
}

static void test_apply_restore(void)
{
	struct settings *st = settings_new(root);
	struct strbuf err = STRBUF_INIT, sb = STRBUF_INIT, link = STRBUF_INIT;
	const struct setting_change *c;
	char *value = NULL;
	bool good; /* computed first: a message may print err.buf */

	put_tree_file(root, THP, "always [madvise] never\n");
	put_tree_file(root, DEFRAG,
		      "always defer defer+madvise [madvise] never\n");
	put_tree_file(root, STAT, "1\n");
	good = !settings_read(st, THP, &value, &err) &&
	       !strcmp(value, "madvise");
	ok(good, "read: the bracketed word (%s)", value ? value : err.buf);
	free(value);

	good = !settings_apply(st, THP, "never", &err);
	ok(good, "apply THP: %s", err.buf);
	is_str(get(&sb, THP), "never\n", "the file holds the new value");
	c = settings_nr(st) == 1 ? settings_change(st, 0) : NULL;
	ok(c && !strcmp(c->path, THP) && !strcmp(c->old_value, "madvise") &&
		   !strcmp(c->new_value, "never"),
	   "the change: path, old and new value");
	good = !settings_apply(st, STAT, "3", &err) &&
	       !settings_apply(st, THP, "always", &err);
	ok(good, "apply two more, THP twice: %s", err.buf);
	ok(settings_nr(st) == 3 &&
		   !strcmp(settings_change(st, 2)->old_value, "never"),
	   "the second THP change's old value is the first's new one");

	good = settings_apply(st, "/sys/kernel/none", "1", &err) == -1 &&
	       strstr(err.buf, "cannot read setting '/sys/kernel/none'") &&
	       settings_nr(st) == 3;
	ok(good, "a missing file fails, nothing pushed: %s", err.buf);
	strbuf_reset(&err);
	/* A file that does not keep what is written: read back differs. */
	strbuf_addf(&link, "%s%s", root, NULL_FILE);
	if (symlink("/dev/null", link.buf))
		BUG("cannot link %s", link.buf);
	good = settings_apply(st, NULL_FILE, "1", &err) == -1 &&
	       strstr(err.buf, "reads '' after writing '1'") &&
	       settings_nr(st) == 4;
	ok(good, "a value that does not take fails, pushed: %s", err.buf);
	strbuf_reset(&err);

	good = !settings_restore(st, 1, &err) && settings_nr(st) == 1;
	ok(good, "restore down to one: %s", err.buf);
	is_str(get(&sb, THP), "never\n", "THP back to the first new value");
	is_str(get(&sb, STAT), "1\n", "stat_interval restored");
	good = !settings_restore(st, 0, &err) && !settings_nr(st);
	ok(good, "restore all: %s", err.buf);
	is_str(get(&sb, THP), "madvise\n", "THP restored");

	/* A file that cannot be written back does not stop the others. */
	good = !settings_apply(st, THP, "never", &err) &&
	       !settings_apply(st, DEFRAG, "never", &err) &&
	       !settings_apply(st, STAT, "2", &err);
	ok(good, "apply three: %s", err.buf);
	strbuf_reset(&link);
	strbuf_addf(&link, "%s%s", root, DEFRAG);
	if (unlink(link.buf) || mkdir(link.buf, 0700))
		BUG("cannot replace %s", link.buf);
	good = settings_restore(st, 0, &err) == -1 &&
	       strstr(err.buf,
		      "cannot write 'madvise' to setting '" DEFRAG "'") &&
	       !settings_nr(st);
	ok(good, "a failed restore is reported: %s", err.buf);
	is_str(get(&sb, STAT), "1\n", "the newer one was restored");
	is_str(get(&sb, THP), "madvise\n", "and the older one too");
	strbuf_reset(&link);
	strbuf_addf(&link, "%s%s", root, NULL_FILE);
	unlink(link.buf);
	settings_free(st);
	settings_free(NULL);
	strbuf_release(&err);
	strbuf_release(&sb);
	strbuf_release(&link);
}

/* Write the record of STAT as a run of process pid (start) would. */
static void put_record(const char *original, const char *current, long pid,
		       long long start)
{
	struct strbuf text = STRBUF_INIT;

	strbuf_addf(&text, "%s\n%s\n%s\n%ld %lld\n", STAT, original, current,
		    pid, start);
	put_tree_file(root, RECORD, text.buf);
	strbuf_release(&text);
}

/*
 * Two runs at once: a file held by another live process (init, pid 1)
 * may be held at its value only, and its first value comes back when
 * the last holder lets go; a dead holder's files are recovered.
 */
static void test_shared(void)
{
	struct settings *st = settings_new(root);
	struct strbuf err = STRBUF_INIT, sb = STRBUF_INIT;
	struct strvec done = STRVEC_INIT;
	bool good;

	put_tree_file(root, STAT, "3\n");
	put_record("1", "3", 1, (long long)machine_proc_start(1));
	good = settings_apply(st, STAT, "4", &err) == -1 &&
	       strstr(err.buf, "setting '" STAT
			       "' is held at '3' by another run (pid 1)") &&
	       !settings_nr(st);
	ok(good, "another value than a live run's is refused: %s", err.buf);
	strbuf_reset(&err);
	is_str(get(&sb, STAT), "3\n", "the file keeps the other run's value");
	good = !settings_apply(st, STAT, "3", &err) && settings_nr(st) == 1 &&
	       !strcmp(settings_change(st, 0)->old_value, "1");
	ok(good, "the same value is shared; the old value is the first: %s",
	   err.buf);
	good = !settings_restore(st, 0, &err);
	ok(good, "restore while the other run holds it: %s", err.buf);
	is_str(get(&sb, STAT), "3\n", "the other run's value stays");
	strbuf_reset(&err);
	strbuf_addf(&err, STAT "\n1\n3\n1 %lld\n",
		    (long long)machine_proc_start(1));
	is_str(get(&sb, RECORD), err.buf, "the record keeps the other holder");
	strbuf_reset(&err);

	/* Held by a process that is gone: the next run puts it back. */
	put_record("1", "3", 1, 0);
	good = !settings_recover(st, &done, &err) && done.nr == 1 &&
	       !strcmp(done.v[0],
		       "setting '" STAT
		       "' put back to '1' (a run that was killed left '3')");
	ok(good, "recover a dead run's setting: %s",
	   done.nr ? done.v[0] : err.buf);
	is_str(get(&sb, STAT), "1\n", "the first value is back");
	is_str(get(&sb, RECORD), "(none)", "the record is gone");
	strvec_clear(&done);
	good = !settings_recover(st, &done, &err) && !done.nr;
	ok(good, "nothing left to recover: %s", err.buf);

	/* A dead holder's record is also what a new apply starts from. */
	put_tree_file(root, STAT, "3\n");
	put_record("1", "3", 1, 0);
	good = !settings_apply(st, STAT, "5", &err) &&
	       !strcmp(settings_change(st, 0)->old_value, "1") &&
	       !settings_restore(st, 0, &err);
	ok(good, "apply over a dead run's value: %s", err.buf);
	is_str(get(&sb, STAT), "1\n", "restore writes the first value");
	strvec_clear(&done);
	settings_free(st);
	strbuf_release(&err);
	strbuf_release(&sb);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	struct strbuf dir = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(path_cases); i++)
		ok(settings_path_ok(path_cases[i].path) == path_cases[i].ok,
		   "path %s: %s", path_cases[i].path,
		   path_cases[i].ok ? "a setting" : "refused");
	for (size_t i = 0; i < ARRAY_SIZE(value_cases); i++) {
		char *v = settings_value(value_cases[i].text);

		is_str(v, value_cases[i].want, "value, case %zu", i);
		free(v);
	}
	strbuf_addf(&dir, "%s/mmcmp-test-settings-XXXXXX",
		    tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir.buf)) {
		printf("Bail out! cannot create a temporary directory\n");
		return 1;
	}
	root = dir.buf;
	test_apply_restore();
	test_shared();
	/* Leave no tree behind: the files (defrag is a directory now),
	 * then the directories. */
	{
		static const char *const paths[] = {
			THP,
			DEFRAG,
			STAT,
			"/sys/kernel/mm/transparent_hugepage",
			"/sys/kernel/mm",
			"/sys/kernel",
			"/sys",
			"/proc/sys/vm",
			"/proc/sys",
			"/proc",
			"/run/mmcmp/settings/lock",
			"/run/mmcmp/settings",
			"/run/mmcmp",
			"/run",
		};

		remove_tree(root, paths, ARRAY_SIZE(paths));
	}
	rmdir(dir.buf);
	strbuf_release(&dir);
	done_testing();
	return exit_status();
}
