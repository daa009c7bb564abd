/* session-iter: one iteration: its hooks, workload, values and record. */
#include "session-internal.h"

#include <math.h>
#include <string.h>

#include "cgroup.h"
#include "config.h"
#include "executor.h"
#include "extract.h"
#include "machine.h"
#include "monitor.h"
#include "session-check.h"
#include "stats.h"
#include "util.h"

static const char no_monitors[] = "iterations are stored without them";
static const char no_samples[] =
	"iterations are stored without some periodic samples";

static double metric_measure(const struct metric_spec *m,
			     const struct runner_result *res)
{
	switch (m->source) {
	case METRIC_ELAPSED:
		return res->elapsed_s;
	case METRIC_USER:
		return res->user_s;
	case METRIC_SYSTEM:
		return res->sys_s;
	case METRIC_MAXRSS:
		return (double)res->maxrss_kb;
	default:
		break;
	}
	BUG("metric '%s' is not measured by the runner", m->name);
}

/*
 * Warn once that the monitors failed and what becomes of them; the
 * workloads are unaffected.
 */
static void monitor_warn(struct session *s, const struct strbuf *why,
			 const char *consequence)
{
	if (s->monitor_warned)
		return;
	s->monitor_warned = true;
	session_notify(s, "monitors: %s; %s", why->buf, consequence);
}

/* The samples of one iteration, being extracted. */
struct extraction {
	struct sample_rec *samples;
	size_t samples_nr, samples_alloc;
	double *vals;
	size_t vals_nr, vals_alloc;
	struct strbuf note; /* why values are missing, "; "-separated */
};

/* Extract every metric of job j from res into x; false if one failed. */
static bool extract_job(struct session *s, size_t j,
			const struct runner_result *res, struct extraction *x)
{
	const struct job *job = &s->plan->jobs[j];
	const struct workload_spec *wl = job->wl;
	struct live_run *lr = &s->runs[job->build_index];

	for (size_t m = 0; m < wl->metrics_nr; m++) {
		const struct metric_spec *ms = &wl->metrics[m];
		struct strbuf xerr = STRBUF_INIT;

		x->vals_nr = 0;
		if (!s->extractors[j][m]) {
			ALLOC_GROW(x->vals, 1, x->vals_alloc);
			x->vals[x->vals_nr++] = metric_measure(ms, res);
		} else if (extractor_run(s->extractors[j][m], res->out.buf,
					 res->out.len, &x->vals, &x->vals_nr,
					 &x->vals_alloc, &xerr)) {
			/* xerr names the metric: "metric 't': ..." */
			strbuf_addf(&x->note, "%s%s", x->note.len ? "; " : "",
				    xerr.buf);
		} else if (!x->vals_nr) {
			strbuf_addf(
				&x->note,
				"%smetric '%s': no value found in the output",
				x->note.len ? "; " : "", ms->name);
		}
		strbuf_release(&xerr);
		for (size_t k = 0; k < x->vals_nr; k++) {
			ALLOC_GROW(x->samples, x->samples_nr + 1,
				   x->samples_alloc);
			x->samples[x->samples_nr].op_id = lr->op_ids[j][m];
			x->samples[x->samples_nr++].value = x->vals[k];
		}
	}
	return !x->note.len;
}

/* Count an iteration's busy machine for the warning of busy_warn(). */
static void note_busy(struct job_busy *jb, const struct monitor_record *mon)
{
	if (isnan(mon->other_cpu))
		return;
	jb->iterations++;
	if (mon->other_cpu > MONITOR_BUSY_FRACTION)
		jb->busy++;
	if (mon->other_cpu > jb->worst)
		jb->worst = mon->other_cpu;
	if (mon->loadavg_end > jb->load)
		jb->load = mon->loadavg_end;
}

/*
 * Whether iteration `it` of job j is `until`'s pilot: after the warm-ups,
 * before the pilot is complete. It is stored as a warm-up is, so that no
 * test sees it.
 */
static bool iter_pilot(const struct session *s, size_t j, long it)
{
	return s->until_pct && it >= s->cfg->warmup &&
	       until_job_pilot(&s->until[j].rows);
}

/*
 * The 1-based index of iteration `it` of job j among the job's of its
 * kind; the pilot's count over boots.
 */
static long iter_index(const struct session *s, size_t j, long it, bool pilot)
{
	if (it < s->cfg->warmup)
		return it + 1;
	if (pilot)
		return (long)s->until[j].rows.pilot + 1;
	return it - s->cfg->warmup - s->pilot + 1;
}

/* Tell the progress callback that iteration `it` of job j starts. */
static void report_progress(struct session *s, size_t j, long it)
{
	const struct job *job = &s->plan->jobs[j];
	bool warmup = it < s->cfg->warmup, pilot = iter_pilot(s, j, it);
	struct session_progress p = {
		.done = s->done_iters,
		.total = s->total_iters,
		.elapsed_s = s->elapsed_sum,
		.label = s->runs[job->build_index].sum.label,
		.operation = job->ops[0],
		.warmup = warmup || pilot,
		.pilot = pilot,
		.index = iter_index(s, j, it, pilot),
		.count = warmup	 ? s->cfg->warmup
			 : pilot ? UNTIL_PILOT
				 : s->measured,
	};

	if (s->opts.progress)
		s->opts.progress(s->opts.ctx, &p);
}

/*
 * Count an iteration of job j (ok: it succeeded) for `until`, and for a
 * successful pilot iteration keep the iteration value of each metric
 * from its samples in x: their mean for lower-is-better, the mean of 1/x
 * for higher-is-better (compare's unit value, section 1).
 */
static void until_note(struct session *s, size_t j, bool ok,
		       const struct extraction *x)
{
	const struct workload_spec *wl = s->plan->jobs[j].wl;
	const struct live_run *lr = &s->runs[s->plan->jobs[j].build_index];
	double *row = until_job_add(&s->until[j].rows, wl->metrics_nr, ok);
	double *v;
	long long *key;

	if (!row)
		return;
	v = xcalloc(x->samples_nr + 1, sizeof(*v));
	key = xcalloc(x->samples_nr + 1, sizeof(*key));
	for (size_t m = 0; m < wl->metrics_nr; m++) {
		size_t n = 0;
		double u = NAN;

		for (size_t k = 0; k < x->samples_nr; k++)
			if (x->samples[k].op_id == lr->op_ids[j][m])
				v[n++] = x->samples[k].value;
		if (n)
			stats_unit_values(v, key, n,
					  wl->metrics[m].higher_better, &u,
					  NULL);
		row[m] = u;
	}
	free(v);
	free(key);
}

/*
 * Run the prepare hooks of job, its workload (unless a prepare hook
 * failed: then *res holds the hook's failure, and *prepare_failed is
 * set) and the conclude hooks, with the workload's start time in
 * started. *ran is false when the prepare hooks were interrupted: there
 * is nothing to store. Returns -1 only when the executor fails.
 */
static int run_workload(struct session *s, const struct job *job,
			struct executor_result *res, char started[32],
			bool *prepare_failed, bool *ran, struct strbuf *err)
{
	const struct workload_spec *wl = job->wl;
	const struct live_run *lr = &s->runs[job->build_index];
	struct strvec env = STRVEC_INIT;
	struct executor_request req = {
		.argv = job->argv.v,
		.cwd = session_job_cwd(job->build, wl),
		.timeout_s =
			wl->timeout_s > 0 ? wl->timeout_s : s->cfg->timeout_s,
		.stop = s->opts.stop,
		.cgroup_procs = lr->cgroup ? cgroup_procs(lr->cgroup) : NULL,
		.monitor = true,
	};
	struct cmd_outcome hook = {.why = STRBUF_INIT};
	size_t levels = 0;
	int ret = -1;

	*ran = false;
	if (session_run_hooks(s, job, true, &levels, &hook, err))
		goto out;
	if (hook.status == RUNNER_INTERRUPTED) {
		/* The concludes of the prepares that ran still run. */
		ret = session_run_hooks(s, job, false, &levels, &hook, err);
		goto out;
	}
	session_job_env(s->cfg, s->opts.path, job->build, wl, &env);
	req.env = env.v;
	machine_utc_now(started);
	*prepare_failed = hook.status != RUNNER_OK;
	if (*prepare_failed) {
		/* The workload does not run; the hook's failure is stored. */
		res->run.status = hook.status;
		res->run.exit_code = hook.exit_code;
		res->run.term_signal = hook.term_signal;
		strbuf_add(&res->run.err_tail, hook.why.buf, hook.why.len);
	} else if (executor_run(s->ex, &req, res, err)) {
		goto out;
	}
	if (session_run_hooks(s, job, false, &levels, &hook, err))
		goto out;
	*ran = true;
	ret = 0;
out:
	strbuf_release(&hook.why);
	strvec_clear(&env);
	return ret;
}

/*
 * The status of a finished iteration of job j ("ok", the runner's, or
 * "extract"), its samples extracted into x, and in x->note what its
 * record keeps as its stderr tail when not r's.
 */
static const char *iteration_outcome(struct session *s, size_t j,
				     const struct runner_result *r,
				     struct extraction *x)
{
	const char *status = runner_status_name(r->status);

	if (r->status != RUNNER_OK)
		strbuf_add(&x->note, r->err_tail.buf, r->err_tail.len);
	else if (!extract_job(s, j, r, x))
		status = "extract";
	if (r->out_truncated) {
		/* Kept with the iteration, which stays ok when values were
		 * found. */
		struct strbuf tail = STRBUF_INIT;

		strbuf_addf(&tail, "mmcmp: stdout truncated after %zu bytes\n",
			    r->out.len);
		strbuf_add(&tail, x->note.len ? x->note.buf : r->err_tail.buf,
			   x->note.len ? x->note.len : r->err_tail.len);
		strbuf_release(&x->note);
		x->note = tail;
	}
	return status;
}

/*
 * Warn that iteration `it` of job j (status, not "ok") failed, and why;
 * before iteration_count() counts it.
 */
static void iteration_failed(struct session *s, size_t j, long it,
			     const char *status, bool prepare_failed,
			     const struct runner_result *r,
			     const struct strbuf *note)
{
	const struct job *job = &s->plan->jobs[j];
	bool warmup = it < s->cfg->warmup, pilot = iter_pilot(s, j, it);
	struct live_run *lr = &s->runs[job->build_index];
	struct strbuf why = STRBUF_INIT;

	/* A hook's failure says itself what failed and how. */
	if (!prepare_failed)
		strbuf_addstr(&why, status);
	if (!prepare_failed &&
	    (r->status == RUNNER_EXIT || r->status == RUNNER_SIGNAL))
		strbuf_addf(&why, "%s %d",
			    r->status == RUNNER_EXIT ? " status" : "",
			    r->status == RUNNER_EXIT ? r->exit_code
						     : r->term_signal);
	if (why.len && note->len)
		strbuf_addstr(&why, ": ");
	strbuf_addstr(&why, note->buf);
	lr->sum.failed++;
	session_notify(s, "%s: %s%s%s %s %ld failed: %s", lr->sum.label,
		       job->wl->name, *job->key ? " " : "", job->key,
		       warmup  ? "warm-up"
		       : pilot ? "pilot iteration"
			       : "iteration",
		       iter_index(s, j, it, pilot), why.buf);
	strbuf_release(&why);
	if (s->cfg->on_error == CONFIG_ON_ERROR_ABORT)
		s->aborted = true;
}

/* Count a stored iteration `it` of job j in the run's totals. */
static void iteration_count(struct session *s, size_t j, long it, bool ok,
			    const struct executor_result *res,
			    const struct extraction *x)
{
	struct live_run *lr = &s->runs[s->plan->jobs[j].build_index];

	s->done_iters++;
	s->elapsed_sum += res->run.elapsed_s;
	if (it < s->cfg->warmup)
		return;
	if (iter_pilot(s, j, it)) {
		until_note(s, j, ok, x);
		return;
	}
	if (res->monitors)
		note_busy(&s->busy[j], res->monitors);
	lr->sum.iterations++;
	lr->sum.samples += x->samples_nr;
	s->until[j].ran++;
	if (s->until_pct)
		until_note(s, j, ok, x);
	lr->measured_ok += ok;
}

int session_run_iteration(struct session *s, size_t j, long it,
			  struct strbuf *err)
{
	const struct job *job = &s->plan->jobs[j];
	struct executor_result res = EXECUTOR_RESULT_INIT;
	const struct runner_result *r = &res.run;
	struct extraction x = {.note = STRBUF_INIT};
	bool prepare_failed = false, ran, pilot = iter_pilot(s, j, it);
	char started[32];
	const char *status;
	int ret = -1;

	report_progress(s, j, it);
	if (run_workload(s, job, &res, started, &prepare_failed, &ran, err))
		goto out;
	ret = 0;
	if (!ran)
		goto out;
	session_strays_warn(s, r, "workload", job->wl->name);
	if (res.monitor_err.len)
		monitor_warn(s, &res.monitor_err,
			     res.monitors ? no_samples : no_monitors);
	if (res.monitors && res.monitors->perf_absent && !s->perf_warned) {
		s->perf_warned = true;
		session_notify(s, "perf events not counted: %s",
			       res.monitors->perf_absent);
	}
	if (r->status == RUNNER_INTERRUPTED)
		goto out; /* Not finished: nothing to keep. */
	status = iteration_outcome(s, j, r, &x);
	{
		struct finished_iter fi = {
			.rec =
				{
					.run_id = s->runs[job->build_index]
							  .sum.id,
					.benchmark = job->wl->name,
					.job = job->key,
					.build = job->build ? job->build->name
							    : NULL,
					.index =
						it +
						(s->boot && job->build
							 ? s->iter_base
								   [job->build
									    ->kernel]
							 : 0),
					.warmup = it < s->cfg->warmup || pilot,
					.status = status,
					.exit_code = r->exit_code,
					.term_signal = r->term_signal,
					.elapsed_s = r->elapsed_s,
					.user_s = r->user_s,
					.sys_s = r->sys_s,
					.maxrss_kb = r->maxrss_kb,
					.stderr_tail =
						x.note.len ? x.note.buf
							   : r->err_tail.buf,
					.started_at = started,
					.boot = s->boot,
				},
			.samples = x.samples,
			.samples_nr = x.samples_nr,
			.mon = res.monitors,
		};

		ret = session_keep_iteration(s, &fi, err);
	}
	if (ret)
		goto out;
	if (strcmp(status, "ok"))
		iteration_failed(s, j, it, status, prepare_failed, r, &x.note);
	iteration_count(s, j, it, !strcmp(status, "ok"), &res, &x);
out:
	free(x.samples);
	free(x.vals);
	strbuf_release(&x.note);
	executor_result_release(&res);
	return ret;
}
