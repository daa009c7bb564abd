#ifndef MMCMP_CGROUP_RECOVER_H
#define MMCMP_CGROUP_RECOVER_H

#include <stddef.h>

struct cgroup;
struct cgroup_spec;
struct store;
struct strbuf;
struct strvec;

/*
 * cgroup-recover: the cgroups (cgroup.h) that runs which died left in the
 * way of a new run's, told apart through the runs the store records: a
 * run marked aborted left its cgroups, one still running holds its own.
 * Functions returning int give 0, or -1 after appending one line to err;
 * what cannot be removed is a warning, not an error. Call
 * cgroup_recover_stale() before cgroup_create_owned().
 */

/*
 * Remove what runs of st marked aborted recorded of their cgroups
 * (cgroup_remove_stale()): the leaves and, for a leaf of one of
 * paths[0..nr) (the specs' paths of this run; NULL entries skipped), the
 * empty levels of that path above it. A cgroup that a running run
 * records as well stays. Each one that cannot be removed appends a line
 * to warnings; -1 only when the store cannot be read.
 */
int cgroup_recover_stale(struct store *st, const char *const *paths, size_t nr,
			 struct strvec *warnings, struct strbuf *err);

/*
 * cgroup_create(spec), but when the cgroup is in the way because a run of
 * st still running holds it, err says which run (and its pid) rather than
 * only that it exists. NULL on failure.
 */
struct cgroup *cgroup_create_owned(struct store *st,
				   const struct cgroup_spec *spec,
				   struct strbuf *err);

#endif /* MMCMP_CGROUP_RECOVER_H */
