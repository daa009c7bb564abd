#ifndef MMCMP_BISECT_TREE_H
#define MMCMP_BISECT_TREE_H

#include <stddef.h>

struct strbuf;
struct strvec;

/*
 * bisect-tree: the git side of `mmcmp bisect`: the commits between two
 * ends, and a build of one commit in a directory of its own, by git
 * archive (the repository and its work tree are left alone) and the
 * user's build command. Each build directory records its outcome
 * (.mmcmp-bisect: the image's SHA-256, or why it failed), so a later
 * run reuses it. Functions returning int give 0, or -1 after one line
 * in err.
 */

/*
 * The commits of repo from good to bad, both included, oldest first:
 * good, then `git rev-list --first-parent --ancestry-path good..bad`
 * reversed, as full hashes appended to commits. good must be an
 * ancestor of bad.
 */
int bisect_tree_commits(const char *repo, const char *good, const char *bad,
			struct strvec *commits, struct strbuf *err);

/* The full hash of rev in repo into hash (41 bytes). */
int bisect_tree_resolve(const char *repo, const char *rev, char hash[41],
			struct strbuf *err);

/*
 * Build commit of repo in WORKDIR/COMMIT: its tree by git archive, then
 * `/bin/sh -c build` there; then the SHA-256 of the file image (relative
 * to the build directory) into hash. 0 built, 1 it does not build (the
 * command failed or made no image; why goes to why), -1 failure. A
 * directory built before is reused as it is.
 */
int bisect_tree_build(const char *repo, const char *commit, const char *workdir,
		      const char *build, const char *image, char hash[65],
		      struct strbuf *why, struct strbuf *err);

/* The build directory of commit: WORKDIR/COMMIT (caller frees). */
char *bisect_tree_dir(const char *workdir, const char *commit);

#endif /* MMCMP_BISECT_TREE_H */
