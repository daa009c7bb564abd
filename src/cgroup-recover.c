/* cgroup-recover: the cgroups runs that died left, found through the store. */
#include "cgroup-recover.h"

#include <inttypes.h>
#include <string.h>

#include "cgroup.h"
#include "config.h"
#include "run-data.h"
#include "store.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"

/* The path among paths[0..nr) (NULL entries skipped) whose leaf `where` names.
 */
static const char *stale_spec_path(const char *const *paths, size_t nr,
				   const char *where)
{
	size_t len = strcspn(where, ",");

	for (size_t b = 0; b < nr; b++) {
		size_t n = paths[b] ? strlen(paths[b]) : 0;

		if (paths[b] && len > n && where[len - n - 1] == '/' &&
		    !strncmp(where + len - n, paths[b], n))
			return paths[b];
	}
	return NULL;
}

int cgroup_recover_stale(struct store *st, const char *const *paths, size_t nr,
			 struct strvec *warnings, struct strbuf *err)
{
	struct run_rows rows = {0};
	struct strvec live = STRVEC_INIT, stale = STRVEC_INIT;
	struct strbuf werr = STRBUF_INIT;
	int ret = -1;

	if (store_list_runs(st, &rows, err))
		goto out;
	for (size_t i = 0; i < rows.nr; i++) {
		const char *status = rows.v[i].status;
		struct run_info ri = {0};

		if (!status ||
		    (strcmp(status, "aborted") && strcmp(status, "running")))
			continue;
		if (store_run_get(st, rows.v[i].id, &ri, err))
			goto out;
		if (ri.cgroup)
			strvec_push(strcmp(status, "running") ? &stale : &live,
				    ri.cgroup);
		run_info_release(&ri);
	}
	for (size_t i = 0; i < stale.nr; i++) {
		bool in_use = false;

		for (size_t k = 0; k < live.nr && !in_use; k++)
			in_use = !strcmp(live.v[k], stale.v[i]);
		if (in_use)
			continue;
		if (cgroup_remove_stale(stale.v[i],
					stale_spec_path(paths, nr, stale.v[i]),
					&werr))
			strvec_push(warnings, werr.buf);
		strbuf_reset(&werr);
	}
	ret = 0;
out:
	run_rows_release(&rows);
	strvec_clear(&live);
	strvec_clear(&stale);
	strbuf_release(&werr);
	return ret;
}

/* Whether one of the ", "-separated leaves of where ends in "/" path. */
static bool where_has_path(const char *where, const char *path)
{
	size_t n = strlen(path);

	while (*where) {
		size_t len = strcspn(where, ",");

		if (len > n && where[len - n - 1] == '/' &&
		    !strncmp(where + len - n, path, n))
			return true;
		where += len;
		where += strspn(where, ", ");
	}
	return false;
}

/*
 * Set *id to a run of this database still running in a cgroup of path,
 * or to 0; *pid to its process.
 */
static int find_cgroup_owner(struct store *st, const char *path, int64_t *id,
			     int64_t *pid, struct strbuf *err)
{
	struct run_rows rows = {0};
	int ret = -1;

	*id = 0;
	if (store_list_runs(st, &rows, err))
		goto out;
	for (size_t i = 0; i < rows.nr && !*id; i++) {
		struct run_info ri = {0};

		if (!rows.v[i].status || strcmp(rows.v[i].status, "running"))
			continue;
		if (store_run_get(st, rows.v[i].id, &ri, err))
			goto out;
		if (ri.cgroup && where_has_path(ri.cgroup, path)) {
			*id = rows.v[i].id;
			*pid = ri.pid;
		}
		run_info_release(&ri);
	}
	ret = 0;
out:
	run_rows_release(&rows);
	return ret;
}

struct cgroup *cgroup_create_owned(struct store *st,
				   const struct cgroup_spec *spec,
				   struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	struct cgroup *cg = cgroup_create(spec, &why);
	int64_t id = 0, pid = 0;

	if (!cg && strstr(why.buf, " exist") &&
	    !find_cgroup_owner(st, spec->path, &id, &pid, NULL) && id) {
		error_addf(
			err,
			"cgroup '%s' is in use by run %" PRId64 " (pid %" PRId64
			"), which is still running; wait for it to end or choose another path",
			spec->path, id, pid);
	} else if (!cg) {
		error_addf(err, "%s", why.buf);
	}
	strbuf_release(&why);
	return cg;
}
