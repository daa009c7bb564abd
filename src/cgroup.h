#ifndef MMCMP_CGROUP_H
#define MMCMP_CGROUP_H

#include <stdbool.h>
#include <stddef.h>

struct cgroup_spec;
struct strbuf;

/*
 * cgroup: the cgroup that mmcmp creates for a run's workload processes
 * (config.h's struct cgroup_spec) and removes after it.
 *
 * Order of calls: cgroup_create() before the run (where the cgroup goes
 * is cgroup_plan()'s to decide, which tests call alone); the runner puts
 * each workload process in the cgroup.procs files of cgroup_procs() before it
 * executes (runner_opts.cgroup_procs); cgroup_remove() after the run, and
 * cgroup_remove_stale() for what a run that died left. Functions returning
 * int give 0, or -1 with one line in err; errors name what is missing:
 * "cannot create cgroup '/sys/fs/cgroup/mmcmp/a': Permission denied",
 * "controller 'memory' is not available in
 * '/sys/fs/cgroup/cgroup.controllers'", ...
 */

/* statfs(2) f_type values (<linux/magic.h>). */
#define CGROUP_V1_MAGIC 0x27e0ebUL
#define CGROUP_V2_MAGIC 0x63677270UL

/* How the filesystem looks to cgroup_plan(); tests substitute their own. */
struct cgroup_ops {
	/* The f_type of path as statfs(2) gives it, or 0 when it fails. */
	unsigned long (*fs_type)(const char *path, void *ctx);
	void *ctx;
};

/* A hierarchy that holds the cgroup: its mount point and version. */
struct cgroup_place {
	char *root;
	bool v2;
};

/*
 * Decide where spec's cgroup goes (see below) into *places (caller frees
 * with cgroup_places_free()), asking ops (NULL: statfs) about the
 * filesystems. Reads nothing else, so it also checks specs in tests.
 *
 * Where it goes: with cgroup v2 at /sys/fs/cgroup (or at the spec's
 * root), under that root. On a cgroup v1 or hybrid layout, in the v1
 * hierarchy of each controller the spec names (/sys/fs/cgroup/memory,
 * ...), or, when it names none, in the v2 tree at /sys/fs/cgroup/unified.
 */
int cgroup_plan(const struct cgroup_spec *spec, const struct cgroup_ops *ops,
		struct cgroup_place **places, size_t *nr, struct strbuf *err);
void cgroup_places_free(struct cgroup_place *places, size_t nr);

/* A created cgroup; opaque, it owns directories in the cgroup tree. */
struct cgroup;

/*
 * Create spec's cgroup; NULL (and nothing left behind) on failure.
 *
 * cgroup_create() makes every level of the path that does not exist yet
 * (the last one must not exist: a leftover of another run would mix the
 * results), enabling the controllers in cgroup.subtree_control of each
 * level above the last in v2, then writes the limits into the last level
 * (and, on the cgroup v1 memory controller, the spec's tcp_limit into
 * memory.kmem.tcp.limit_in_bytes).
 */
struct cgroup *cgroup_create(const struct cgroup_spec *spec,
			     struct strbuf *err);

/*
 * The cgroup.procs files of its last level, one per hierarchy, NULL-
 * terminated; valid until cgroup_remove().
 */
const char *const *cgroup_procs(const struct cgroup *cg);

/* Its last level's directories, ", "-separated; valid as above. */
const char *cgroup_where(const struct cgroup *cg);

/*
 * Whether cg is in a cgroup v1 memory hierarchy whose
 * memory.kmem.tcp.limit_in_bytes cgroup_create() did not write (neither
 * tcp_limit nor a limit set it): v1 then charges no socket buffers to it.
 */
bool cgroup_sockets_uncharged(const struct cgroup *cg);

/*
 * Kill what is left in cg, remove what cgroup_create() made and free cg
 * (NULL is a no-op). Returns -1 with the first problem in err when
 * something could not be removed; it goes on with the rest regardless.
 *
 * cgroup_remove() kills what is left in it (cgroup.kill where the kernel
 * has it, else SIGKILL to each process of cgroup.procs), removes the
 * levels cgroup_create() made, deepest first, and turns off the
 * controllers it turned on above them.
 */
int cgroup_remove(struct cgroup *cg, struct strbuf *err);

/*
 * Remove the cgroup that a run which died (a run marked aborted) left
 * behind: `where` is what cgroup_where() gave for it, its leaves,
 * ", "-separated. Each leaf that still exists is emptied (its processes
 * killed) and removed; then the levels above it that cgroup_create()
 * recorded it made (in run-dir.h's directory) go too, deepest first, as
 * long as they are empty. Without that record, when the leaf ends in
 * `path` (a spec's path, may be NULL), the levels of path above it go. Returns
 * -1 naming in err every leaf that could not be removed; a leaf that is gone
 * already is no error.
 */
int cgroup_remove_stale(const char *where, const char *path,
			struct strbuf *err);

/*
 * A cgroup of this process's own, without controllers, for its commands
 * alone (monitor-perf.h counts it): PREFIX-PID in the cgroup v2 tree (as
 * cgroup_plan() places a spec that names no controller), once the
 * PREFIX-N that processes which are gone left there (a killed mmcmp) are
 * removed. NULL, with a line in err, where it cannot be made (not root,
 * no cgroup v2). Remove it with cgroup_remove().
 */
struct cgroup *cgroup_create_own(const char *prefix, struct strbuf *err);

#endif /* MMCMP_CGROUP_H */
