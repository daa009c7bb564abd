#ifndef MMCMP_PROFILE_JOB_H
#define MMCMP_PROFILE_JOB_H

#include <stddef.h>

struct session;
struct strbuf;

/*
 * profile-job: the profiled iterations of `mmcmp run --profile`
 * (session_opts.profile), run after a job's measured iterations and
 * before its teardown, as many as it had measured ones, and stored in
 * the profile table (store-profile.h). They are not iterations of the
 * run: nothing compares their times, so profiling never perturbs the
 * rows that are tested. The workload runs as in an iteration (its
 * argv, environment, cwd and cgroup) without its prepare and conclude
 * hooks. A profile that cannot be taken or stored is a warning, once;
 * the run goes on. In a guest (kernels:) the executor has its agent take
 * them (executor_profile()), symbolised there, numbered after those of
 * the kernel's earlier boots.
 */

/*
 * Profile job j of session s, where its iterations ran. Returns -1 only
 * when the run cannot go on.
 */
int profile_job(struct session *s, size_t j, struct strbuf *err);

#endif /* MMCMP_PROFILE_JOB_H */
