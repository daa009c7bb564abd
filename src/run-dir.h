#ifndef MMCMP_RUN_DIR_H
#define MMCMP_RUN_DIR_H

struct strbuf;

/*
 * run-dir: ROOT/run/mmcmp, where runs keep what the machine must know of
 * them beyond their own life: the settings they hold (settings.h) and
 * the cgroup levels they made (cgroup.h), so that what a killed mmcmp
 * left can be put back or removed by the next one. ROOT is "" for the
 * machine itself, a temporary tree in tests. /run is a tmpfs, emptied at
 * boot, when the settings and cgroups go back by themselves too.
 *
 * Functions returning int give 0, or -1 with one line appended to err.
 */

/* Set out to ROOT/run/mmcmp/SUB. */
void run_dir_path(struct strbuf *out, const char *root, const char *sub);

/*
 * Append "/" and the file name that stands for path (an absolute path
 * with its first '/' dropped, each '/' as "%2F" and '%' as "%25"), so
 * that different paths get different names.
 */
void run_dir_add_name(struct strbuf *out, const char *path);

/* Create ROOT/run/mmcmp/SUB and the levels above it that are missing. */
int run_dir_make(const char *root, const char *sub, struct strbuf *err);

/*
 * Write text to file through FILE.tmp and rename(), so that a reader, or
 * a kill in between, sees the old file or the new one whole.
 */
int run_dir_write(const char *file, const char *text, struct strbuf *err);

#endif /* MMCMP_RUN_DIR_H */
