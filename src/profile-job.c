/* profile-job: the profiled iterations after a job's measured ones. */
#include "profile-job.h"

#include "cgroup.h"
#include "config.h"
#include "executor.h"
#include "machine.h"
#include "profile.h"
#include "session-check.h"
#include "session-internal.h"
#include "store-profile.h"

/* Say once that profiles are not being taken, and why. */
static void profile_warn(struct session *s, const char *why)
{
	static const char what[] = "profiles not taken: ";

	if (s->profile_warned)
		return;
	s->profile_warned = true;
	session_notify(s, "%s%s", what, why);
}

/* Profile iteration seq (from 1) of job j and store it. */
static int profile_one(struct session *s, const struct job *job, long seq,
		       const char *const *env)
{
	const struct live_run *lr = &s->runs[job->build_index];
	const struct workload_spec *wl = job->wl;
	struct profile_request req = {
		.argv = job->argv.v,
		.env = (char *const *)env,
		.cwd = session_job_cwd(job->build, wl),
		.cgroup_procs = lr->cgroup ? cgroup_procs(lr->cgroup) : NULL,
		.timeout_s =
			wl->timeout_s > 0 ? wl->timeout_s : s->cfg->timeout_s,
		.frequency_hz = PROFILE_DEFAULT_HZ,
		.stop = s->opts.stop,
	};
	struct profile_result res = PROFILE_RESULT_INIT;
	struct strbuf why = STRBUF_INIT;
	char started[32];
	int ret = -1;

	machine_utc_now(started);
	if (!executor_profile(s->ex, &req, &res, &why)) {
		struct profile_rec rec = {
			.run_id = lr->sum.id,
			.benchmark = wl->name,
			.job = job->key,
			.build = job->build ? job->build->name : NULL,
			.seq = seq,
			.started_at = started,
			.frequency_hz = req.frequency_hz,
			.status = res.status,
			.samples = res.samples,
			.lost = res.lost,
			.stacks = res.folded->buf,
			.missing = res.missing,
		};

		if (!store_profile_add(s->st, &rec, &why))
			ret = 0;
	}
	if (ret)
		profile_warn(s, why.buf);
	else if (res.missing && !s->profile_missing_warned) {
		s->profile_missing_warned = true;
		session_notify(s, "profile of %s: %s", wl->name, res.missing);
	}
	profile_result_release(&res);
	strbuf_release(&why);
	return ret;
}

/*
 * The profiles job took in its kernel's earlier boots, so that each boot's
 * are numbered after them, as its iterations are (session-boots.c).
 */
static long profile_base(const struct session *s, const struct job *job)
{
	long per = s->cfg->warmup + s->measured;

	if (!s->boot || !job->build || !s->iter_base || per <= 0)
		return 0;
	return s->iter_base[job->build->kernel] / per * s->measured;
}

int profile_job(struct session *s, size_t j, struct strbuf *err)
{
	const struct job *job = &s->plan->jobs[j];
	struct strvec env = STRVEC_INIT;

	(void)err;
	if (s->aborted)
		return 0; /* on_error: abort: the run is over */
	session_job_env(s->cfg, s->opts.path, job->build, job->wl, &env);
	for (long k = 1; k <= s->measured; k++) {
		if (session_flag_set(s->opts.stop) ||
		    profile_one(s, job, profile_base(s, job) + k,
				(const char *const *)env.v))
			break;
	}
	strvec_clear(&env);
	return 0;
}
