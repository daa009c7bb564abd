/* session: one run of a plan into a store, through an executor. */
#include "session.h"

#include <unistd.h>

#include "cgroup.h"
#include "config.h"
#include "executor.h"
#include "extract.h"
#include "machine.h"
#include "mmcmp-version.h"
#include "plan.h"
#include "run-data.h"
#include "runner.h"
#include "sha256.h"
#include "store.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"
#include "uuid.h"

/* A run being recorded: one per build. */
struct live_run {
	struct session_summary sum;
	int64_t **op_ids;      /* per job (indexed by job), per metric */
	struct cgroup *cgroup; /* its workloads' cgroup (borrowed), or NULL */
};

struct session {
	const struct config *cfg;
	const struct plan *plan;
	struct store *st;
	struct session_opts opts;
	struct executor *ex;
	struct live_run *runs; /* plan->builds_nr of them */
	struct extractor **
		*extractors; /* per job, per metric (NULL: measured) */
	long measured;	     /* iterations per job after warm-ups */
	size_t total_iters, done_iters;
	double elapsed_sum;
	bool failed;	     /* session_run() failed */
	bool aborted;	     /* on_error: abort met a failure */
	bool monitor_warned; /* a monitor failure was reported */
	struct plan_walk walk;
	struct plan_step pending; /* a teardown step for session_finish() */
	bool has_pending;
	enum session_status status;
	/* The cgroups made, in order; builds may share the top-level one. */
	struct cgroup **cgroups;
	size_t cgroups_nr, cgroups_alloc;
	struct cgroup *top_cgroup; /* one of them, or NULL */
	long boot;		   /* the guest boot running, 0: none */
	long *iter_base; /* per kernel: iteration indexes used by its boots */
};

static const char no_monitors[] = "iterations are stored without them";
static const char no_samples[] =
	"iterations are stored without some periodic samples";

MMCMP_PRINTF(2, 3) static void notify(struct session *s, const char *fmt, ...)
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

struct session *session_new(const struct config *cfg, const struct plan *plan,
			    struct store *st, const struct session_opts *opts)
{
	struct session *s = xcalloc(1, sizeof(*s));

	s->cfg = cfg;
	s->plan = plan;
	s->st = st;
	s->opts = *opts;
	s->measured = opts->iterations ? opts->iterations : cfg->iterations;
	s->total_iters = plan->nr * (size_t)(cfg->warmup + s->measured);
	if (opts->boots_nr && cfg->kernels_nr)
		s->total_iters =
			s->total_iters * opts->boots_nr / cfg->kernels_nr;
	s->runs = xcalloc(plan->builds_nr, sizeof(*s->runs));
	for (size_t b = 0; b < plan->builds_nr; b++)
		s->runs[b].sum.label = opts->labels[b];
	plan_walk_init(&s->walk, plan, cfg->warmup + s->measured,
		       cfg->interleave);
	return s;
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
	}
	return 0;
}

/* Set NAME=VALUE in env, replacing an earlier NAME. */
static void env_set(struct strvec *env, const char *name, const char *value)
{
	size_t len = strlen(name);
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s=%s", name, value);
	for (size_t i = 0; i < env->nr; i++) {
		if (!strncmp(env->v[i], name, len) && env->v[i][len] == '=') {
			free(env->v[i]);
			env->v[i] = strbuf_detach(&sb, NULL);
			return;
		}
	}
	strvec_push_nodup(env, strbuf_detach(&sb, NULL));
}

static void env_apply(struct strvec *env, const struct kv_list *kv)
{
	for (size_t i = 0; i < kv->nr; i++)
		env_set(env, kv->v[i].key, kv->v[i].value);
}

/* The child environment: ours, then config, build, workload settings. */
static void job_env(const struct config *cfg, const char *path,
		    const struct build_spec *b, const struct workload_spec *wl,
		    struct strvec *env)
{
	extern char **environ;

	strvec_pushv(env, environ);
	if (path)
		env_set(env, "PATH", path);
	env_apply(env, &cfg->env);
	if (b)
		env_apply(env, &b->env);
	if (wl)
		env_apply(env, &wl->env);
}

/* Where the commands of a workload (NULL: of a build) run. */
static const char *job_cwd(const struct build_spec *b,
			   const struct workload_spec *wl)
{
	if (wl && wl->cwd)
		return wl->cwd;
	return b ? b->cwd : NULL;
}

/* Debian packages of the benchmark programs that configs/ uses. */
static const struct {
	const char *program, *package;
} known_packages[] = {
	{"fio", "fio"},
	{"hackbench", "rt-tests"},
	{"netperf", "netperf"},
	{"perf", "linux-perf"},
	{"stress-ng", "stress-ng"},
	{"sysbench", "sysbench"},
	{"time", "time"},
};

/* Whether job's program is there, as the runner will look it up. */
static int check_program(const struct config *cfg, const char *path,
			 const struct job *job, struct strbuf *err)
{
	const char *prog = job->argv.v[0];
	const char *child_path = NULL;
	struct strvec env = STRVEC_INIT;
	struct strbuf file = STRBUF_INIT;
	int e;

	if (!prog)
		return 0;
	job_env(cfg, path, job->build, job->wl, &env);
	for (size_t i = 0; i < env.nr && !child_path; i++)
		if (!strncmp(env.v[i], "PATH=", 5))
			child_path = env.v[i] + 5;
	e = runner_find_program(prog, child_path, job_cwd(job->build, job->wl),
				&file);
	strvec_clear(&env);
	strbuf_release(&file);
	if (!e)
		return 0;
	if (e != ENOENT)
		return error_addf(
			err, "workload '%s': cannot execute program '%s': %s",
			job->wl->name, prog, strerror(e));
	for (size_t k = 0; k < ARRAY_SIZE(known_packages); k++)
		if (!strcmp(prog, known_packages[k].program))
			return error_addf(
				err,
				"workload '%s': program '%s' is not installed; install the Debian package '%s' (apt-get install %s)",
				job->wl->name, prog, known_packages[k].package,
				known_packages[k].package);
	return error_addf(err, "workload '%s': program '%s' not found in PATH",
			  job->wl->name, prog);
}

int session_check_programs(const struct config *cfg, const struct plan *plan,
			   const char *path, struct strbuf *err)
{
	for (size_t j = 0; j < plan->nr; j++)
		if (check_program(cfg, path, &plan->jobs[j], err))
			return -1;
	return 0;
}

/* Run one setup or teardown command; -1 with a line in err on failure. */
static int run_aux(struct session *s, char *const *argv,
		   const struct build_spec *b, const struct workload_spec *wl,
		   const char *what, struct strbuf *err)
{
	struct strvec env = STRVEC_INIT;
	struct executor_result res = EXECUTOR_RESULT_INIT;
	struct executor_request req = {
		.argv = argv,
		.cwd = job_cwd(b, wl),
		.timeout_s = s->cfg->timeout_s,
		.stop = s->opts.stop,
	};
	const struct runner_result *r = &res.run;
	int ret = -1;

	job_env(s->cfg, s->opts.path, b, wl, &env);
	req.env = env.v;
	if (executor_run(s->ex, &req, &res, err))
		goto out;
	if (r->status != RUNNER_OK) {
		strbuf_rtrim(&res.run.err_tail);
		error_addf(err, "%s command '%s' failed (%s %d)%s%s", what,
			   argv[0], runner_status_name(r->status),
			   r->status == RUNNER_SIGNAL ? r->term_signal
						      : r->exit_code,
			   r->err_tail.len ? ": " : "", r->err_tail.buf);
		goto out;
	}
	ret = 0;
out:
	executor_result_release(&res);
	strvec_clear(&env);
	return ret;
}

static int run_commands(struct session *s, const struct command_list *cl,
			const struct build_spec *b,
			const struct workload_spec *wl, const char *what,
			struct strbuf *err)
{
	for (size_t i = 0; i < cl->nr; i++)
		if (run_aux(s, cl->v[i].v, b, wl, what, err))
			return -1;
	return 0;
}

/* As run_commands(), but a failure is a warning. */
static void run_teardown(struct session *s, const struct command_list *cl,
			 const struct build_spec *b,
			 const struct workload_spec *wl, const char *what)
{
	struct strbuf err = STRBUF_INIT;

	if (run_commands(s, cl, b, wl, what, &err))
		notify(s, "%s", err.buf);
	strbuf_release(&err);
}

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
	notify(s, "monitors: %s; %s", why->buf, consequence);
}

/*
 * Store an iteration with its samples and, when mon is not NULL, its
 * monitor record, all in one transaction.
 */
static int store_iteration(struct session *s, const struct iteration_rec *rec,
			   const struct sample_rec *samples, size_t nr,
			   const struct monitor_record *mon, struct strbuf *err)
{
	int64_t id;

	if (!mon)
		return store_iteration_add(s->st, rec, samples, nr, NULL, err);
	if (store_begin(s->st, err))
		return -1;
	if (store_iteration_add(s->st, rec, samples, nr, &id, err) ||
	    store_monitor_add(s->st, id, mon, err)) {
		store_rollback(s->st);
		return -1;
	}
	return store_commit(s->st, err);
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
			strbuf_addf(&x->note, "%smetric '%s': %s",
				    x->note.len ? "; " : "", ms->name,
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

/* Tell the progress callback that iteration `it` of job j starts. */
static void report_progress(struct session *s, const struct job *job, long it)
{
	bool warmup = it < s->cfg->warmup;
	struct session_progress p = {
		.done = s->done_iters,
		.total = s->total_iters,
		.elapsed_s = s->elapsed_sum,
		.label = s->runs[job->build_index].sum.label,
		.operation = job->ops[0],
		.warmup = warmup,
		.index = warmup ? it + 1 : it - s->cfg->warmup + 1,
		.count = warmup ? s->cfg->warmup : s->measured,
	};

	if (s->opts.progress)
		s->opts.progress(s->opts.ctx, &p);
}

/*
 * Run iteration `it` of job j and store it. Returns -1 only when the
 * executor or the store fails (the run cannot go on); a failing workload
 * returns 0.
 */
static int run_iteration(struct session *s, size_t j, long it,
			 struct strbuf *err)
{
	const struct job *job = &s->plan->jobs[j];
	const struct workload_spec *wl = job->wl;
	struct live_run *lr = &s->runs[job->build_index];
	bool warmup = it < s->cfg->warmup;
	struct strvec env = STRVEC_INIT;
	struct executor_result res = EXECUTOR_RESULT_INIT;
	const struct runner_result *r = &res.run;
	struct executor_request req = {
		.argv = job->argv.v,
		.cwd = job_cwd(job->build, wl),
		.timeout_s =
			wl->timeout_s > 0 ? wl->timeout_s : s->cfg->timeout_s,
		.stop = s->opts.stop,
		.cgroup_procs = lr->cgroup ? cgroup_procs(lr->cgroup) : NULL,
		.monitor = true,
	};
	struct extraction x = {.note = STRBUF_INIT};
	char started[32];
	const char *status;
	int ret = -1;

	report_progress(s, job, it);
	job_env(s->cfg, s->opts.path, job->build, wl, &env);
	req.env = env.v;
	machine_utc_now(started);
	if (executor_run(s->ex, &req, &res, err))
		goto out;
	if (res.monitor_err.len)
		monitor_warn(s, &res.monitor_err,
			     res.monitors ? no_samples : no_monitors);
	if (r->status == RUNNER_INTERRUPTED) {
		/* Not finished: nothing to keep. */
		ret = 0;
		goto out;
	}
	status = runner_status_name(r->status);
	if (r->status != RUNNER_OK)
		strbuf_add(&x.note, r->err_tail.buf, r->err_tail.len);
	else if (!extract_job(s, j, r, &x))
		status = "extract";
	if (r->out_truncated) {
		/* Kept with the iteration, which stays ok when values were
		 * found. */
		struct strbuf tail = STRBUF_INIT;

		strbuf_addf(&tail, "mmcmp: stdout truncated after %zu bytes\n",
			    r->out.len);
		strbuf_add(&tail, x.note.len ? x.note.buf : r->err_tail.buf,
			   x.note.len ? x.note.len : r->err_tail.len);
		strbuf_release(&x.note);
		x.note = tail;
	}
	{
		struct iteration_rec rec = {
			.run_id = lr->sum.id,
			.benchmark = wl->name,
			.job = job->key,
			.build = job->build ? job->build->name : NULL,
			.index =
				it + (s->boot ? s->iter_base[job->build->kernel]
					      : 0),
			.warmup = warmup,
			.status = status,
			.exit_code = r->exit_code,
			.term_signal = r->term_signal,
			.elapsed_s = r->elapsed_s,
			.user_s = r->user_s,
			.sys_s = r->sys_s,
			.maxrss_kb = r->maxrss_kb,
			.stderr_tail =
				x.note.len ? x.note.buf : r->err_tail.buf,
			.started_at = started,
			.boot = s->boot,
		};

		if (store_iteration(s, &rec, x.samples, x.samples_nr,
				    res.monitors, err))
			goto out;
	}
	s->done_iters++;
	s->elapsed_sum += r->elapsed_s;
	if (!warmup) {
		lr->sum.iterations++;
		lr->sum.samples += x.samples_nr;
	}
	if (strcmp(status, "ok")) {
		lr->sum.failed++;
		notify(s, "%s: %s %s %s %ld failed: %s%s%s", lr->sum.label,
		       wl->name, *job->key ? job->key : "",
		       warmup ? "warm-up" : "iteration",
		       warmup ? it + 1 : it - s->cfg->warmup + 1, status,
		       x.note.len ? ": " : "", x.note.buf);
		if (s->cfg->on_error == CONFIG_ON_ERROR_ABORT)
			s->aborted = true;
	}
	ret = 0;
out:
	free(x.samples);
	free(x.vals);
	strbuf_release(&x.note);
	executor_result_release(&res);
	strvec_clear(&env);
	return ret;
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
 * Create the cgroups of the builds: the top-level one once, for all the
 * builds without their own.
 */
static int create_cgroups(struct session *s, struct strbuf *err)
{
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
		cg = cgroup_create(spec, err);
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
			notify(s, "%s", err.buf);
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

/* A run record per build, each with its own copies of the strings. */
static int create_runs(struct session *s, struct strbuf *err)
{
	char hash[65], now[32];

	sha256_hex(s->cfg->text, s->cfg->text_len, hash);
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
		ri.config_name = xstrdup(s->cfg->name);
		ri.config_text = xstrdup(s->cfg->text);
		ri.config_hash = xstrdup(hash);
		ri.started_at = xstrdup(now);
		ri.mmcmp_version = xstrdup(MMCMP_VERSION);
		executor_machine_info(s->ex, &ri.machine);
		ri.pid = getpid();
		ri.pid_start = machine_proc_start(getpid());
		if (s->runs[b].cgroup)
			ri.cgroup = xstrdup(cgroup_where(s->runs[b].cgroup));
		r = store_run_create(s->st, &ri, err);
		s->runs[b].sum.id = ri.id;
		run_info_release(&ri);
		if (r)
			return -1;
	}
	return 0;
}

/* Do one step of the walk; -1 when the run cannot go on. */
static int do_step(struct session *s, const struct plan_step *step,
		   struct strbuf *err)
{
	/* The config's own steps come also for a plan without jobs. */
	const struct job *job = s->plan->nr ? &s->plan->jobs[step->job] : NULL;

	switch (step->kind) {
	case PLAN_STEP_SETUP:
		return run_commands(s, &s->cfg->setup, NULL, NULL, "setup",
				    err);
	case PLAN_STEP_BUILD_SETUP:
		return run_commands(s, &job->build->setup, job->build, NULL,
				    "build setup", err);
	case PLAN_STEP_JOB_SETUP:
		return run_commands(s, &job->wl->setup, job->build, job->wl,
				    "workload setup", err);
	case PLAN_STEP_ITERATION:
		if ((s->opts.stop && *s->opts.stop) || s->aborted) {
			plan_walk_finish(&s->walk);
			return 0;
		}
		return run_iteration(s, step->job, step->iteration, err);
	case PLAN_STEP_JOB_TEARDOWN:
		run_teardown(s, &job->wl->teardown, job->build, job->wl,
			     "workload teardown");
		return 0;
	case PLAN_STEP_BUILD_TEARDOWN:
		run_teardown(s, &job->build->teardown, job->build, NULL,
			     "build teardown");
		return 0;
	case PLAN_STEP_TEARDOWN:
		run_teardown(s, &s->cfg->teardown, NULL, NULL, "teardown");
		return 0;
	}
	BUG("unknown plan step %d", (int)step->kind);
}

static int session_run_boots(struct session *s, struct strbuf *err);

int session_run(struct session *s, struct executor *ex, struct strbuf *err)
{
	struct plan_step step;

	s->ex = ex;
	if (create_cgroups(s, err) || create_runs(s, err) || prepare(s, err))
		goto fail;
	if (s->opts.boots_nr) {
		if (session_run_boots(s, err))
			goto fail;
		return 0;
	}
	while (plan_walk_next(&s->walk, &step)) {
		/* The teardowns at the end are session_finish()'s. */
		if (step.kind == PLAN_STEP_BUILD_TEARDOWN ||
		    step.kind == PLAN_STEP_TEARDOWN) {
			s->pending = step;
			s->has_pending = true;
			break;
		}
		if (do_step(s, &step, err))
			goto fail;
	}
	return 0;
fail:
	s->failed = true;
	return -1;
}

/* Boot n (1-based) of s->opts.boot_order: record it for k's runs. */
static int start_boot(struct session *s, size_t n, struct strbuf *err)
{
	size_t k = s->opts.boot_order[n - 1];
	struct executor_boot_info info = {.failed = STRBUF_INIT};
	int ret = -1;

	if (executor_boot(s->ex, k, (long)n, &info, err))
		goto out;
	s->boot = (long)n;
	if (info.failed.len)
		notify(s,
		       "boot %zu of kernel '%s' failed, its iterations with it: %.*s",
		       n, info.kernel, (int)strcspn(info.failed.buf, "\n"),
		       info.failed.buf);
	for (size_t b = 0; b < s->plan->builds_nr; b++)
		if (s->cfg->builds[b].kernel == k &&
		    store_boot_add(s->st, s->runs[b].sum.id, &info, err))
			goto out;
	ret = 0;
out:
	executor_boot_info_release(&info);
	return ret;
}

static int session_run_boots(struct session *s, struct strbuf *err)
{
	long per = s->cfg->warmup + s->measured;
	int ret = -1;

	s->iter_base = xcalloc(s->cfg->kernels_nr, sizeof(*s->iter_base));
	for (size_t n = 1; n <= s->opts.boots_nr; n++) {
		size_t k = s->opts.boot_order[n - 1];
		struct plan_step step;

		if ((s->opts.stop && *s->opts.stop) || s->aborted)
			break;
		if (start_boot(s, n, err))
			goto out;
		plan_walk_init(&s->walk, s->plan, per, s->cfg->interleave);
		while (plan_walk_next(&s->walk, &step)) {
			bool config_step = step.kind == PLAN_STEP_SETUP ||
					   step.kind == PLAN_STEP_TEARDOWN;

			if (!config_step &&
			    s->cfg->builds[step.build].kernel != k)
				continue;
			if (do_step(s, &step, err))
				goto out;
		}
		s->iter_base[k] += per;
	}
	ret = 0;
out:
	s->boot = 0;
	return ret;
}

static int finish_runs(struct session *s, struct strbuf *err)
{
	const char *status = session_status_name(s->status);
	char now[32];

	machine_utc_now(now);
	for (size_t b = 0; b < s->plan->builds_nr; b++) {
		const struct session_summary *sum = &s->runs[b].sum;

		if (!sum->id)
			continue;
		if (store_run_set_status(s->st, sum->id, status, now, err))
			return -1;
		if (s->opts.replace && s->status == SESSION_COMPLETE &&
		    store_delete_older_runs(s->st, sum->label, sum->id, err))
			return -1;
	}
	return 0;
}

int session_finish(struct session *s, struct strbuf *err)
{
	struct plan_step step;

	plan_walk_finish(&s->walk);
	if (s->has_pending) {
		s->has_pending = false;
		do_step(s, &s->pending, err);
	}
	/* Each boot ran its own teardowns. */
	while (!s->opts.boots_nr && plan_walk_next(&s->walk, &step))
		do_step(s, &step, err); /* only teardowns: they only warn */
	remove_cgroups(s);
	if (s->opts.stop && *s->opts.stop)
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
	}
	free(s->runs);
	free(s->iter_base);
	free(s);
}
