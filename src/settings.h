#ifndef MMCMP_SETTINGS_H
#define MMCMP_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf;
struct strvec;

/*
 * settings: kernel tunables, files under /proc/sys and /sys, written for
 * a run and put back after it (the `settings:` of a config, config.h).
 * A struct settings is the stack of changes made so far:
 * settings_apply() reads a file's current value, writes the new one,
 * reads it back to check that it took, and pushes the change;
 * settings_restore() pops changes, newest first, writing each old value
 * back, so a file set twice ends as it was before the first.
 *
 * Settings are machine-wide and runs may overlap: how they share a file, at
 * settings_apply(). Functions returning int give 0, or -1 after appending
 * one line to err. A struct settings owns its strings; settings_free()
 * restores nothing.
 */
struct settings;

/* One change: what path held before, and what was written. */
struct setting_change {
	char *path; /* as the config names it */
	char *old_value, *new_value;
};

/*
 * Whether path may be a setting: absolute, under /proc/sys/ or /sys/,
 * without empty, "." or ".." components and without a trailing '/'.
 */
bool settings_path_ok(const char *path);

/*
 * The value that text (a file's contents) stands for; the caller frees
 * it.
 *
 * The value of a file is its text without surrounding whitespace, runs
 * of blanks taken as one space; in a file that lists choices with the
 * current one in brackets ("always [madvise] never", transparent huge
 * pages), it is the bracketed word.
 */
char *settings_value(const char *text);

/*
 * A new, empty stack for files under root (NULL or "": "/").
 *
 * Files are looked up under a root directory: "/" for a real run, a
 * temporary tree that mimics /sys in tests; paths are always given as
 * the config names them, absolute.
 */
struct settings *settings_new(const char *root);
/* Free st without restoring anything; NULL is a no-op. */
void settings_free(struct settings *st);

/* Set *value (caller frees) to the current value of path. */
int settings_read(const struct settings *st, const char *path, char **value,
		  struct strbuf *err);
/*
 * Write value to path and push the change. Fails, changing nothing, when
 * path cannot be read or written, or when another live process holds it
 * at another value (the message names its pid); the change's old value
 * is the file's value before any live holder wrote it. When the file
 * reads back otherwise, the change is pushed (so a restore puts the old
 * value back) and -1 returned.
 *
 * Settings are machine-wide and runs may overlap, so each file a run holds
 * has a record under ROOT/run/mmcmp/settings, kept under a lock: the value
 * from before the first run wrote it, and the processes holding it. A
 * second run may hold a file only at the value it holds already; the last
 * to restore writes the first value back, and settings_recover() puts
 * back the files of processes that died holding them.
 */
int settings_apply(struct settings *st, const char *path, const char *value,
		   struct strbuf *err);
/* The number of changes on the stack, and change i (0: the oldest). */
size_t settings_nr(const struct settings *st);
const struct setting_change *settings_change(const struct settings *st,
					     size_t i);
/*
 * Restore and pop the changes above the first `keep`, newest first. A
 * file that cannot be written back does not stop the others; err then
 * names the first such file and how many others failed.
 */
int settings_restore(struct settings *st, size_t keep, struct strbuf *err);

/*
 * Put back the files whose holders all died (a run killed before it could
 * restore them), each with the value from before they wrote it, pushing a
 * line to done for each ("setting 'P' put back to 'V' ...", or why not).
 * Fails only when the records cannot be read at all.
 */
int settings_recover(struct settings *st, struct strvec *done,
		     struct strbuf *err);

#endif /* MMCMP_SETTINGS_H */
