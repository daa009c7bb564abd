/* session: one run of a plan into a store, through an executor. */
#include "session.h"

#include <unistd.h>

#include "cgroup-recover.h"
#include "cgroup.h"
#include "config.h"
#include "executor.h"
#include "extract.h"
#include "machine.h"
#include "mmcmp-version.h"
#include "plan.h"
#include "profile-job.h"
#include "run-data.h"
#include "session-internal.h"
#include "settings.h"
#include "store.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"
#include "uuid.h"

void session_notify(struct session *s, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (s->opts.warning)
		s->opts.warning(s->opts.ctx, sb.buf);
	strbuf_release(&sb);
}

bool session_flag_set(volatile sig_atomic_t *flag)
{
	return flag && *flag;
}

struct session *session_new(const struct config *cfg, const struct plan *plan,
			    struct store *st, const struct session_opts *opts)
{
	struct session *s = xcalloc(1, sizeof(*s));

	s->cfg = cfg;
	s->plan = plan;
	s->st = st;
	s->opts = *opts;
	s->measured = opts->iterations ? opts->iterations : cfg->iterations;
	/* With kernels the pilot takes the first iterations of the boots. */
	s->pilot = cfg->until_pct > 0 && !opts->boots_nr ? UNTIL_PILOT : 0;
	s->total_iters =
		plan->nr * (size_t)(cfg->warmup + s->pilot + s->measured);
	if (opts->boots_nr && cfg->kernels_nr)
		s->total_iters =
			s->total_iters * opts->boots_nr / cfg->kernels_nr;
	s->runs = xcalloc(plan->builds_nr, sizeof(*s->runs));
	s->busy = xcalloc(plan->nr + 1, sizeof(*s->busy));
	s->until_pct = cfg->until_pct;
	s->until = xcalloc(plan->nr + 1, sizeof(*s->until));
	for (size_t b = 0; b < plan->builds_nr; b++)
		s->runs[b].sum.label = opts->labels[b];
	plan_walk_init(&s->walk, plan, cfg->warmup + s->pilot + s->measured,
		       cfg->interleave);
	s->settings = settings_new(opts->settings_root);
	s->settings_build = SIZE_MAX;
	strvec_init(&s->held_names);
	return s;
}

void session_labels(const struct config *cfg, size_t builds_nr,
		    const char *base, struct strvec *labels)
{
	for (size_t b = 0; b < builds_nr; b++) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addstr(&sb, base);
		if (cfg->builds_nr)
			strbuf_addf(&sb, "-%s", cfg->builds[b].name);
		strvec_push_nodup(labels, strbuf_detach(&sb, NULL));
	}
}

char *session_default_label(void)
{
	struct machine_info mi = {0};
	char *label;

	machine_info_read(&mi);
	label = xstrdup(mi.kernel_release ? mi.kernel_release : "unknown");
	machine_info_release(&mi);
	return label;
}

const struct cgroup_spec *session_build_cgroup(const struct config *cfg,
					       size_t b)
{
	if (cfg->builds_nr && cfg->builds[b].cgroup.path)
		return &cfg->builds[b].cgroup;
	return cfg->cgroup.path ? &cfg->cgroup : NULL;
}

int session_check_labels(struct session *s, const char **taken,
			 struct strbuf *err)
{
	*taken = NULL;
	for (size_t b = 0; b < s->plan->builds_nr; b++) {
		int64_t *ids = NULL;
		size_t nr = 0;

		if (store_find_runs(s->st, s->runs[b].sum.label, &ids, &nr,
				    err))
			return -1;
		free(ids);
		if (nr && !s->opts.append && !s->opts.replace) {
			*taken = s->runs[b].sum.label;
			break;
		}
		if ((s->opts.append || s->opts.replace) &&
		    store_run_check_start(s->st, s->runs[b].sum.label,
					  s->opts.replace, err))
			return -1;
	}
	return 0;
}

/*
 * Once per job whose iterations shared the machine with other processes
 * using more than MONITOR_BUSY_FRACTION of it, a warning with the worst.
 */
static void busy_warn(struct session *s)
{
	for (size_t j = 0; j < s->plan->nr; j++) {
		const struct job *job = &s->plan->jobs[j];
		const struct job_busy *jb = &s->busy[j];

		if (!jb->busy)
			continue;
		session_notify(
			s,
			"%s: %s%s%s: other processes used up to %.0f%% of the "
			"machine during %zu of %zu iterations (load average up "
			"to %.2f); the results may not be comparable",
			s->runs[job->build_index].sum.label, job->wl->name,
			*job->key ? " " : "", job->key, jb->worst * 100.0,
			jb->busy, jb->iterations, jb->load);
	}
}

/*
 * On the cgroup v1 memory controller, socket buffers are charged only
 * when tcp_limit is set: warn for each build with a network workload
 * whose cgroup lacks it.
 */
static void tcp_warn(struct session *s)
{
	for (size_t b = 0; b < s->plan->builds_nr; b++) {
		const struct cgroup *cg = s->runs[b].cgroup;

		if (!cg || !cgroup_sockets_uncharged(cg))
			continue;
		for (size_t j = 0; j < s->plan->nr; j++) {
			const struct job *job = &s->plan->jobs[j];

			if (job->build_index != b ||
			    !config_is_network(job->wl))
				continue;
			session_notify(
				s,
				"%s: cgroup '%s' is on the cgroup v1 memory "
				"controller without tcp_limit, so the socket "
				"buffers of network workload '%s' are not "
				"charged to it; set tcp_limit in its cgroup "
				"(configs/README.md)",
				s->runs[b].sum.label, cgroup_where(cg),
				job->wl->name);
			break;
		}
	}
}

bool session_until_precise(const struct session *s, size_t j)
{
	return until_job_precise(&s->until[j].rows,
				 s->plan->jobs[j].wl->metrics_nr, s->until_pct);
}

/*
 * After a measured iteration of job j: stop the job once it is precise
 * enough. Interleaved builds stop together, after a whole round, when
 * the job of every build is; each looks at its own values only.
 */
static void until_check(struct session *s, const struct plan_step *ps)
{
	size_t j = ps->job;
	long it = ps->iteration;
	size_t per = s->plan->nr / s->plan->builds_nr;
	size_t first = j, step = 1, nr = 1;

	/* With kernels, session_run_boots() decides between boots. */
	if (!s->until_pct || it < s->cfg->warmup || s->opts.boots_nr ||
	    !ps->round_end)
		return;
	if (s->walk.interleave) {
		first = j % per;
		step = per;
		nr = s->plan->builds_nr;
	}
	for (size_t k = 0; k < nr; k++)
		if (!session_until_precise(s, first + k * step))
			return;
	for (size_t k = 0; k < nr; k++)
		s->until[first + k * step].precise = true;
	plan_walk_skip_job(&s->walk, j);
}

/* The extractor of metric ms of job, or NULL for a measured metric. */
static int new_extractor(const struct job *job, const struct metric_spec *ms,
			 struct extractor **out, struct strbuf *err)
{
	struct metric_spec spec = *ms;
	char *field = NULL;

	if (!extract_reads_output(ms))
		return 0;
	/* A parser field may name parameters: "{stressor}". */
	if (ms->source == METRIC_PARSER && ms->field) {
		field = plan_substitute(ms->field, job->names.v, job->values.v,
					err);
		if (!field)
			return -1;
		spec.field = field;
	}
	*out = extractor_new(&spec, err);
	free(field);
	return *out ? 0 : -1;
}

/* Prepare extractors and store operations for every job and metric. */
static int prepare(struct session *s, struct strbuf *err)
{
	const struct plan *p = s->plan;

	s->extractors = xcalloc(p->nr, sizeof(*s->extractors));
	for (size_t b = 0; b < p->builds_nr; b++)
		s->runs[b].op_ids = xcalloc(p->nr, sizeof(*s->runs[b].op_ids));
	for (size_t j = 0; j < p->nr; j++) {
		const struct job *job = &p->jobs[j];
		const struct workload_spec *wl = job->wl;
		struct live_run *lr = &s->runs[job->build_index];

		s->extractors[j] =
			xcalloc(wl->metrics_nr, sizeof(*s->extractors[j]));
		lr->op_ids[j] = xcalloc(wl->metrics_nr, sizeof(int64_t));
		for (size_t m = 0; m < wl->metrics_nr; m++) {
			const struct metric_spec *ms = &wl->metrics[m];

			if (new_extractor(job, ms, &s->extractors[j][m], err) ||
			    store_operation(s->st, lr->sum.id, wl->name,
					    job->ops[m], ms->unit,
					    ms->higher_better, ms->decimals,
					    &lr->op_ids[j][m], err))
				return -1;
		}
	}
	return 0;
}

/*
 * Remove what killed runs left of their cgroups in the way of this run's
 * (cgroup_recover_stale()), each failure a warning.
 */
static int recover_cgroups(struct session *s, struct strbuf *err)
{
	const char **paths = xcalloc(s->plan->builds_nr + 1, sizeof(*paths));
	struct strvec warnings = STRVEC_INIT;
	int ret;

	for (size_t b = 0; b < s->plan->builds_nr; b++) {
		const struct cgroup_spec *spec =
			session_build_cgroup(s->cfg, b);

		paths[b] = spec ? spec->path : NULL;
	}
	ret = cgroup_recover_stale(s->st, paths, s->plan->builds_nr, &warnings,
				   err);
	for (size_t i = 0; i < warnings.nr; i++)
		session_notify(s, "%s", warnings.v[i]);
	strvec_clear(&warnings);
	free(paths);
	return ret;
}

/*
 * Create the cgroups of the builds: the top-level one once, for all the
 * builds without their own; first, what killed runs left in the way.
 */
static int create_cgroups(struct session *s, struct strbuf *err)
{
	bool any = false;

	for (size_t b = 0; b < s->plan->builds_nr && !any; b++)
		any = session_build_cgroup(s->cfg, b) != NULL;
	if (any && recover_cgroups(s, err))
		return -1;
	for (size_t b = 0; b < s->plan->builds_nr; b++) {
		const struct cgroup_spec *spec =
			session_build_cgroup(s->cfg, b);
		struct cgroup *cg;

		if (!spec)
			continue;
		if (spec == &s->cfg->cgroup && s->top_cgroup) {
			s->runs[b].cgroup = s->top_cgroup;
			continue;
		}
		cg = cgroup_create_owned(s->st, spec, err);
		if (!cg)
			return -1;
		ALLOC_GROW(s->cgroups, s->cgroups_nr + 1, s->cgroups_alloc);
		s->cgroups[s->cgroups_nr++] = cg;
		s->runs[b].cgroup = cg;
		if (spec == &s->cfg->cgroup)
			s->top_cgroup = cg;
	}
	return 0;
}

/*
 * Remove the cgroups, the last made first: a later one may sit in levels
 * an earlier one made. What cannot be removed is a warning.
 */
static void remove_cgroups(struct session *s)
{
	struct strbuf err = STRBUF_INIT;

	while (s->cgroups_nr) {
		if (cgroup_remove(s->cgroups[--s->cgroups_nr], &err))
			session_notify(s, "%s", err.buf);
		strbuf_reset(&err);
	}
	for (size_t b = 0; b < s->plan->builds_nr; b++)
		s->runs[b].cgroup = NULL;
	s->top_cgroup = NULL;
	free(s->cgroups);
	s->cgroups = NULL;
	s->cgroups_alloc = 0;
	strbuf_release(&err);
}

/*
 * The effective setup of the run: the iteration counts it uses and every
 * workload parameter's values after plan_prepare() applied --param.
 */
static char *effective_setup(const struct session *s, size_t b)
{
	struct run_setup setup = {
		.iterations = s->measured,
		.warmup = s->cfg->warmup,
		.until_pct = s->until_pct,
	};
	/* With kernels, each of a kernel's boots runs every iteration, the
	 * pilot's first. */
	long most = s->opts.boots_nr
			    ? s->measured * s->cfg->vm.boots - UNTIL_PILOT
			    : s->measured;
	char *text;

	for (size_t j = 0; s->until_pct && j < s->plan->nr; j++) {
		const struct job *job = &s->plan->jobs[j];
		const struct job_until *ju = &s->until[j];

		if (job->build_index != b)
			continue;
		run_setup_add_stop(&setup, job->wl->name, job->key, ju->ran,
				   ju->precise	     ? "precision"
				   : ju->ran >= most ? "maximum"
						     : "interrupted");
	}

	for (size_t w = 0; w < s->cfg->workloads_nr; w++) {
		const struct workload_spec *wl = &s->cfg->workloads[w];

		for (size_t i = 0; i < wl->params_nr; i++) {
			struct setup_param *p = run_setup_add_param(
				&setup, wl->name, wl->params[i].name);

			for (size_t k = 0; k < wl->params[i].values.nr; k++)
				setup_param_add_value(
					p, wl->params[i].values.v[k]);
		}
	}
	text = run_setup_text(&setup);
	run_setup_release(&setup);
	return text;
}

/* A run record per build, each with its own copies of the strings. */
/*
 * Remember the runs that build b's run replaces: those of its label once
 * it is created. From then on no run joins the label while it runs
 * (store_run_create(), store_relabel()), and one that joins later, after
 * it is marked complete, is not among them, so its end deletes only what
 * it was started to replace.
 */
static int find_replaced(struct session *s, size_t b, struct strbuf *err)
{
	struct live_run *lr = &s->runs[b];
	size_t nr = 0;

	if (store_find_runs(s->st, lr->sum.label, &lr->replaced, &nr, err))
		return -1;
	for (size_t i = 0; i < nr; i++)
		if (lr->replaced[i] != lr->sum.id)
			lr->replaced[lr->replaced_nr++] = lr->replaced[i];
	return 0;
}

static int create_runs(struct session *s, struct strbuf *err)
{
	char now[32];

	machine_utc_now(now);
	for (size_t b = 0; b < s->plan->builds_nr; b++) {
		struct run_info ri = {0};
		char uuid[37];
		int r;

		if (uuid_v4(uuid, err))
			return -1;
		ri.uuid = xstrdup(uuid);
		ri.label = xstrdup(s->runs[b].sum.label);
		ri.status = xstrdup("running");
		run_info_set_config(&ri, s->cfg->name, s->cfg->text,
				    s->cfg->text_len);
		ri.setup = effective_setup(s, b);
		ri.started_at = xstrdup(now);
		ri.mmcmp_version = xstrdup(MMCMP_VERSION);
		executor_machine_info(s->ex, &ri.machine);
		ri.pid = getpid();
		ri.pid_start = machine_proc_start(getpid());
		ri.replacing = s->opts.replace;
		if (s->runs[b].cgroup)
			ri.cgroup = xstrdup(cgroup_where(s->runs[b].cgroup));
		/*
		 * Without append or replace, check that the label is free and
		 * claim it in one transaction: of two runs starting with one
		 * new label, one gets it (session_check_labels() only says
		 * early what this decides).
		 */
		r = s->opts.append || s->opts.replace
			    ? store_run_create(s->st, &ri, err)
			    : store_run_create_exclusive(s->st, &ri, err);
		s->runs[b].sum.id = ri.id;
		run_info_release(&ri);
		if (r || (s->opts.replace && find_replaced(s, b, err)))
			return -1;
	}
	return 0;
}

/* Do one step of the walk; -1 when the run cannot go on. */
int session_do_step(struct session *s, const struct plan_step *step,
		    struct strbuf *err)
{
	/* The config's own steps come also for a plan without jobs. */
	const struct job *job = s->plan->nr ? &s->plan->jobs[step->job] : NULL;

	if (!job && step->kind != PLAN_STEP_SETUP &&
	    step->kind != PLAN_STEP_TEARDOWN)
		BUG("step %d of a plan without jobs", (int)step->kind);
	/* Each build's commands and iterations run under its settings. */
	if (job && job->build && step->kind != PLAN_STEP_SETUP &&
	    step->kind != PLAN_STEP_TEARDOWN) {
		if (step->kind == PLAN_STEP_JOB_TEARDOWN ||
		    step->kind == PLAN_STEP_BUILD_TEARDOWN)
			session_switch_settings(s, step->build, true, NULL);
		else if (session_switch_settings(s, step->build, false, err))
			return -1;
	}
	switch (step->kind) {
	case PLAN_STEP_SETUP:
		return session_run_commands(s, &s->cfg->setup, NULL, NULL,
					    "setup", err);
	case PLAN_STEP_BUILD_SETUP:
		return session_run_commands(s, &job->build->setup, job->build,
					    NULL, "build setup", err);
	case PLAN_STEP_JOB_SETUP:
		return session_run_commands(s, &job->wl->setup, job->build,
					    job->wl, "workload setup", err);
	case PLAN_STEP_ITERATION:
		if (session_run_iteration(s, step->job, step->iteration, err))
			return -1;
		until_check(s, step);
		return 0;
	case PLAN_STEP_JOB_TEARDOWN:
		if (s->opts.profile && profile_job(s, step->job, err))
			return -1;
		session_run_teardown(s, &job->wl->teardown, job->build, job->wl,
				     "workload teardown");
		return 0;
	case PLAN_STEP_BUILD_TEARDOWN:
		session_run_teardown(s, &job->build->teardown, job->build, NULL,
				     "build teardown");
		return 0;
	case PLAN_STEP_TEARDOWN:
		session_switch_settings(s, SIZE_MAX, true, NULL);
		session_run_teardown(s, &s->cfg->teardown, NULL, NULL,
				     "teardown");
		return 0;
	}
	BUG("unknown plan step %d", (int)step->kind);
}

int session_run(struct session *s, struct executor *ex, struct strbuf *err)
{
	struct plan_step step;

	s->ex = ex;
	session_recover_settings(s);
	if (create_cgroups(s, err) || create_runs(s, err) || prepare(s, err) ||
	    session_apply_settings(s, &s->cfg->settings, 0, s->plan->builds_nr,
				   err))
		goto fail;
	s->config_settings_nr = settings_nr(s->settings);
	tcp_warn(s);
	if (s->opts.boots_nr) {
		if (session_run_boots(s, err))
			goto fail;
		return 0;
	}
	for (;;) {
		/* Before the next step, so that what ran is torn down. */
		if (session_flag_set(s->opts.stop) || s->aborted)
			plan_walk_finish(&s->walk);
		if (!plan_walk_next(&s->walk, &step))
			break;
		/* The teardowns at the end are session_finish()'s. */
		if (step.kind == PLAN_STEP_BUILD_TEARDOWN ||
		    step.kind == PLAN_STEP_TEARDOWN) {
			s->pending = step;
			s->has_pending = true;
			break;
		}
		if (session_do_step(s, &step, err))
			goto fail;
	}
	return 0;
fail:
	s->failed = true;
	return -1;
}

static int finish_runs(struct session *s, struct strbuf *err)
{
	const char *status = session_status_name(s->status);
	char now[32];
	int ret = 0;

	machine_utc_now(now);
	for (size_t b = 0; b < s->plan->builds_nr; b++) {
		const struct session_summary *sum = &s->runs[b].sum;
		/* A run whose every measured iteration failed measured nothing.
		 */
		bool none_ok = s->status == SESSION_COMPLETE &&
			       sum->iterations && !s->runs[b].measured_ok;
		char *setup;

		if (!sum->id)
			continue;
		/* How each job stopped is known only now. */
		setup = s->until_pct ? effective_setup(s, b) : NULL;
		if (setup && store_run_set_setup(s->st, sum->id, setup, err))
			ret = -1;
		free(setup);
		if (store_run_set_status(s->st, sum->id,
					 none_ok ? "failed" : status, now, err))
			ret = -1;
	}
	/* Only once every build's run is marked does --replace delete. */
	for (size_t b = 0; !ret && b < s->plan->builds_nr; b++) {
		const struct session_summary *sum = &s->runs[b].sum;

		if (sum->id && s->opts.replace &&
		    s->status == SESSION_COMPLETE &&
		    store_delete_older_runs(s->st, sum->label, sum->id,
					    s->runs[b].replaced,
					    s->runs[b].replaced_nr, err))
			ret = -1;
	}
	return ret;
}

int session_finish(struct session *s, struct strbuf *err)
{
	struct plan_step step;

	plan_walk_finish(&s->walk);
	if (s->has_pending) {
		s->has_pending = false;
		session_do_step(s, &s->pending, err);
	}
	/* Each boot ran its own teardowns. */
	while (!s->opts.boots_nr && plan_walk_next(&s->walk, &step))
		session_do_step(s, &step,
				err); /* only teardowns: they only warn */
	session_restore_settings(s);
	busy_warn(s);
	remove_cgroups(s);
	if (session_store_held_wait(s, err))
		s->failed = true;
	if (session_flag_set(s->opts.stop))
		s->status = SESSION_INTERRUPTED;
	else if (s->failed || s->aborted)
		s->status = SESSION_FAILED;
	else
		s->status = SESSION_COMPLETE;
	return finish_runs(s, err);
}

enum session_status session_status(const struct session *s)
{
	return s->status;
}

const char *session_status_name(enum session_status status)
{
	switch (status) {
	case SESSION_COMPLETE:
		return "complete";
	case SESSION_FAILED:
		return "failed";
	case SESSION_INTERRUPTED:
		return "interrupted";
	}
	BUG("unknown session status %d", (int)status);
}

size_t session_runs_nr(const struct session *s)
{
	return s->plan->builds_nr;
}

const struct session_summary *session_summary(const struct session *s, size_t b)
{
	return &s->runs[b].sum;
}

void session_free(struct session *s)
{
	const struct plan *p;

	if (!s)
		return;
	p = s->plan;
	session_restore_settings(s);
	settings_free(s->settings);
	remove_cgroups(s);
	for (size_t j = 0; s->extractors && j < p->nr; j++) {
		for (size_t m = 0; m < p->jobs[j].wl->metrics_nr; m++)
			extractor_free(s->extractors[j][m]);
		free(s->extractors[j]);
	}
	free(s->extractors);
	for (size_t b = 0; b < p->builds_nr; b++) {
		for (size_t j = 0; s->runs[b].op_ids && j < p->nr; j++)
			free(s->runs[b].op_ids[j]);
		free(s->runs[b].op_ids);
		free(s->runs[b].replaced);
	}
	free(s->runs);
	free(s->busy);
	for (size_t j = 0; j < p->nr; j++)
		until_job_release(&s->until[j].rows);
	free(s->until);
	free(s->iter_base);
	session_held_clear(s);
	free(s);
}
