/* session: one run of a plan into a store, through an executor. */
#include "session.h"

#include <math.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "config.h"
#include "executor.h"
#include "extract.h"
#include "json.h"
#include "machine.h"
#include "mmcmp-version.h"
#include "monitor.h"
#include "plan.h"
#include "run-data.h"
#include "runner.h"
#include "settings.h"
#include "sha256.h"
#include "stats.h"
#include "store.h"
#include "strbuf.h"
#include "strmap.h"
#include "strvec.h"
#include "util.h"
#include "uuid.h"

/* How busy the machine was during a job's measured iterations. */
struct job_busy {
	size_t iterations, busy; /* monitored ones; above the threshold */
	double worst, load;	 /* highest other_cpu and load average */
};

/* The significance of the precision rule of `until` (section 9). */
#define UNTIL_ALPHA 0.05

/*
 * A job under `until`: per successful measured iteration, the iteration
 * value of each metric (rows of metrics_nr values), and how it went.
 */
struct job_until {
	double *vals;
	size_t rows, alloc;
	long ran;     /* measured iterations run, failed ones included */
	bool precise; /* stopped on precision */
};

/*
 * A finished iteration kept in memory while another process holds the
 * database's write lock (a long import), stored once the lock frees. Its
 * record's benchmark, job, build and status strings are the plan's or
 * static; the rest is its own.
 */
struct held_iter {
	struct iteration_rec rec;
	char *stderr_tail, *started_at;
	struct sample_rec *samples;
	size_t samples_nr;
	struct monitor_record *mon; /* NULL: none; names are s->held_names */
};

/*
 * At most this many finished iterations, or this many bytes of them, are
 * held in memory; past either the run fails rather than grow unbounded.
 */
#define SESSION_HELD_MAX_NR    100000
#define SESSION_HELD_MAX_BYTES ((size_t)256 << 20)
/* Busy timeout of the retries between iterations: the run goes on. */
#define SESSION_HELD_RETRY_MS 50
/* How long the benchmark waits on a lock before an iteration is held. */
#define SESSION_FIRST_WAIT_MS 12000
/* How long the end of the run waits for the lock to free. */
#define SESSION_HELD_WAIT_S 600

/* A run being recorded: one per build. */
struct live_run {
	struct session_summary sum;
	int64_t **op_ids;      /* per job (indexed by job), per metric */
	struct cgroup *cgroup; /* its workloads' cgroup (borrowed), or NULL */
	bool settings_stored;  /* its build's settings are recorded */
	size_t measured_ok;    /* measured iterations that succeeded */
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
	bool stop_warned;    /* the teardowns after a stop were announced */
	struct plan_walk walk;
	struct plan_step pending; /* a teardown step for session_finish() */
	bool has_pending;
	enum session_status status;
	/* The cgroups made, in order; builds may share the top-level one. */
	struct cgroup **cgroups;
	size_t cgroups_nr, cgroups_alloc;
	struct cgroup *top_cgroup; /* one of them, or NULL */
	/* The settings written: the config's, then those of one build. */
	struct settings *settings;
	size_t config_settings_nr;
	size_t settings_build; /* whose are applied; SIZE_MAX: none */
	struct job_busy *busy; /* per job */
	long boot;	       /* the guest boot running, 0: none */
	long *iter_base;  /* per kernel: iteration indexes used by its boots */
	double until_pct; /* 0: no stopping on precision */
	struct job_until *until; /* per job */
	/* Finished iterations not stored yet, oldest first (struct held_iter).
	 */
	struct held_iter *held;
	size_t held_first, held_nr, held_alloc, held_bytes;
	/* The monitor names of held records, each once. */
	struct strvec held_names;
	struct strmap held_name_index;
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
	s->busy = xcalloc(plan->nr + 1, sizeof(*s->busy));
	s->until_pct = cfg->until_pct;
	s->until = xcalloc(plan->nr + 1, sizeof(*s->until));
	for (size_t b = 0; b < plan->builds_nr; b++)
		s->runs[b].sum.label = opts->labels[b];
	plan_walk_init(&s->walk, plan, cfg->warmup + s->measured,
		       cfg->interleave);
	s->settings = settings_new(opts->settings_root);
	s->settings_build = SIZE_MAX;
	strvec_init(&s->held_names);
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
		if ((s->opts.append || s->opts.replace) &&
		    store_run_check_start(s->st, s->runs[b].sum.label,
					  s->opts.replace, err))
			return -1;
	}
	return 0;
}

/* Read each setting of kv under st; -1 at the first that cannot be. */
static int check_settings(struct settings *st, const struct kv_list *kv,
			  struct strbuf *err)
{
	for (size_t i = 0; i < kv->nr; i++) {
		char *value = NULL;

		if (settings_read(st, kv->v[i].key, &value, err))
			return -1;
		free(value);
	}
	return 0;
}

int session_check_settings(const struct config *cfg, const char *root,
			   struct strbuf *err)
{
	struct settings *st = settings_new(root);
	int ret;

	ret = check_settings(st, &cfg->settings, err);
	for (size_t b = 0; !ret && b < cfg->builds_nr; b++)
		ret = check_settings(st, &cfg->builds[b].settings, err);
	settings_free(st);
	return ret;
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

static bool flag_set(volatile sig_atomic_t *flag)
{
	return flag && *flag;
}

/* Warn that the command of `what` left processes outside its group. */
static void strays_warn(struct session *s, const struct runner_result *r,
			const char *what, const char *name)
{
	if (r->strays)
		notify(s,
		       "%s '%s' left %zu process%s outside its process group (setsid?); killed",
		       what, name, r->strays, r->strays == 1 ? "" : "es");
}

/* How a command other than an iteration's workload ended. */
struct cmd_outcome {
	enum runner_status status;
	int exit_code, term_signal;
	struct strbuf why; /* "WHAT command 'X' failed (...)", or empty */
};

/*
 * The kinds of commands besides the workload: setups and prepare hooks
 * stop at the first interrupt; conclude hooks and teardowns run to their
 * end after it, and only a second one cuts them short.
 */
enum cmd_kind {
	CMD_SETUP,
	CMD_CONCLUDE,
	CMD_TEARDOWN,
};

/*
 * Run one setup, teardown, prepare or conclude command through the
 * executor, in the environment and directory of build b and workload wl.
 * Returns -1 with a line in err only when the executor cannot run it;
 * how the command ended is in *out (why reset first).
 */
static int run_cmd(struct session *s, char *const *argv,
		   const struct build_spec *b, const struct workload_spec *wl,
		   const char *what, enum cmd_kind kind,
		   struct cmd_outcome *out, struct strbuf *err)
{
	struct strvec env = STRVEC_INIT;
	struct executor_result res = EXECUTOR_RESULT_INIT;
	struct executor_request req = {
		.argv = argv,
		.cwd = job_cwd(b, wl),
		.timeout_s = s->cfg->timeout_s,
		.stop = kind == CMD_SETUP ? s->opts.stop : s->opts.cut,
		/* A setup may start a service that the iterations use. */
		.keep_daemons = kind != CMD_TEARDOWN,
	};
	const struct runner_result *r = &res.run;
	const char *name = config_command_name(argv);
	int ret = -1;

	strbuf_reset(&out->why);
	job_env(s->cfg, s->opts.path, b, wl, &env);
	req.env = env.v;
	if (executor_run(s->ex, &req, &res, err))
		goto out;
	strays_warn(s, r, what, name);
	out->status = r->status;
	out->exit_code = r->exit_code;
	out->term_signal = r->term_signal;
	if (r->status == RUNNER_INTERRUPTED) {
		strbuf_addf(&out->why, "%s command '%s' %s", what, name,
			    kind != CMD_SETUP
				    ? "cut short by a second interrupt"
				    : "stopped by the interrupt");
	} else if (r->status == RUNNER_TIMEOUT) {
		strbuf_rtrim(&res.run.err_tail);
		strbuf_addf(&out->why,
			    "%s command '%s' timed out after %g s%s%s", what,
			    name, req.timeout_s, r->err_tail.len ? ": " : "",
			    r->err_tail.buf);
	} else if (r->status != RUNNER_OK) {
		strbuf_rtrim(&res.run.err_tail);
		strbuf_addf(&out->why, "%s command '%s' failed (%s %d)%s%s",
			    what, name, runner_status_name(r->status),
			    r->status == RUNNER_SIGNAL ? r->term_signal
						       : r->exit_code,
			    r->err_tail.len ? ": " : "", r->err_tail.buf);
	}
	ret = 0;
out:
	executor_result_release(&res);
	strvec_clear(&env);
	return ret;
}

/*
 * Run one setup or teardown command; -1 with a line in err on failure.
 */
static int run_aux(struct session *s, char *const *argv,
		   const struct build_spec *b, const struct workload_spec *wl,
		   const char *what, enum cmd_kind kind, struct strbuf *err)
{
	struct cmd_outcome co = {.why = STRBUF_INIT};
	int ret = run_cmd(s, argv, b, wl, what, kind, &co, err);

	if (!ret && co.why.len)
		ret = error_addf(err, "%s", co.why.buf);
	strbuf_release(&co.why);
	return ret;
}

static int run_commands(struct session *s, const struct command_list *cl,
			const struct build_spec *b,
			const struct workload_spec *wl, const char *what,
			struct strbuf *err)
{
	if (!cl)
		BUG("no command list for %s", what);
	for (size_t i = 0; i < cl->nr; i++)
		if (run_aux(s, cl->v[i].v, b, wl, what, CMD_SETUP, err))
			return -1;
	return 0;
}

/*
 * Before a command that runs to its end after a stop (a teardown or a
 * conclude hook): false, with a warning, when a second interrupt came
 * and it is skipped; after the first, say once what happens now.
 */
static bool run_after_stop(struct session *s, const char *what,
			   char *const *argv)
{
	if (flag_set(s->opts.cut)) {
		notify(s, "%s command '%s' skipped after a second interrupt",
		       what, config_command_name(argv));
		return false;
	}
	if (flag_set(s->opts.stop) && !s->stop_warned) {
		s->stop_warned = true;
		notify(s,
		       "interrupted: running the teardowns; interrupt again to cut them short");
	}
	return true;
}

/*
 * The teardown commands of cl, each to its end even after a stop; a
 * failure is a warning, and the commands after it still run. After *cut,
 * each command left is skipped with a warning.
 */
static void run_teardown(struct session *s, const struct command_list *cl,
			 const struct build_spec *b,
			 const struct workload_spec *wl, const char *what)
{
	struct strbuf err = STRBUF_INIT;

	if (!cl)
		BUG("no command list for %s", what);
	for (size_t i = 0; i < cl->nr; i++) {
		char *const *argv = cl->v[i].v;

		if (!run_after_stop(s, what, argv))
			continue;
		if (run_aux(s, argv, b, wl, what, CMD_TEARDOWN, &err))
			notify(s, "%s", err.buf);
		strbuf_reset(&err);
	}
	strbuf_release(&err);
}

/*
 * Run the prepare hooks of job, the config's, the build's, then the
 * workload's, up to the first that fails or is interrupted (its outcome
 * left in *out), *levels set to how many of the three lists were begun.
 * Or run the conclude hooks of the first *levels lists, the other way
 * round, each failure a warning: as teardowns, each to its end after an
 * interrupt, skipped after a second one. Returns -1 only when the
 * executor fails.
 */
static int run_hooks(struct session *s, const struct job *job, bool prepare,
		     size_t *levels, struct cmd_outcome *out,
		     struct strbuf *err)
{
	const struct build_spec *b = job->build;
	const struct command_list *lists[3] = {
		&s->cfg->prepare,
		b ? &b->prepare : NULL,
		&job->wl->prepare,
	};
	const char *what = prepare ? "prepare" : "conclude";

	if (!prepare) {
		lists[0] = &s->cfg->conclude;
		lists[1] = b ? &b->conclude : NULL;
		lists[2] = &job->wl->conclude;
	}
	out->status = RUNNER_OK;
	if (prepare)
		*levels = 0;
	for (size_t k = 0; k < ARRAY_SIZE(lists); k++) {
		/* Concludes go from the workload's back to the config's. */
		size_t l = prepare ? k : ARRAY_SIZE(lists) - 1 - k;

		if (prepare)
			*levels = l + 1;
		else if (l >= *levels)
			continue;
		for (size_t i = 0; lists[l] && i < lists[l]->nr; i++) {
			char *const *argv = lists[l]->v[i].v;

			if (!prepare && !run_after_stop(s, what, argv))
				continue;
			if (run_cmd(s, argv, b, job->wl, what,
				    prepare ? CMD_SETUP : CMD_CONCLUDE, out,
				    err))
				return -1;
			if (out->status == RUNNER_OK)
				continue;
			if (prepare)
				return 0;
			notify(s, "%s: %s", s->runs[job->build_index].sum.label,
			       out->why.buf);
		}
	}
	out->status = RUNNER_OK;
	return 0;
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

/* name, interned in s->held_names so that it outlives the monitor's. */
static const char *held_name(struct session *s, const char *name)
{
	size_t len = strlen(name), i;

	if (!strmap_get(&s->held_name_index, name, len, &i)) {
		i = s->held_names.nr;
		strvec_push(&s->held_names, name);
		strmap_put(&s->held_name_index, name, len, i);
		s->held_bytes += len + 1;
	}
	return s->held_names.v[i];
}

static void held_values(struct session *s, struct monitor_values *dst,
			const struct monitor_values *src)
{
	*dst = (struct monitor_values)MONITOR_VALUES_INIT;
	if (!src->nr)
		return;
	dst->v = xcalloc(src->nr, sizeof(*dst->v));
	dst->nr = dst->alloc = src->nr;
	for (size_t i = 0; i < src->nr; i++) {
		dst->v[i].name = held_name(s, src->v[i].name);
		dst->v[i].value = src->v[i].value;
	}
	s->held_bytes += src->nr * sizeof(*dst->v);
}

/* A copy of mon whose names stay valid as long as the session. */
static struct monitor_record *held_monitor(struct session *s,
					   const struct monitor_record *mon)
{
	struct monitor_record *c = xmalloc(sizeof(*c));

	*c = *mon;
	held_values(s, &c->vmstat, &mon->vmstat);
	held_values(s, &c->cpu, &mon->cpu);
	held_values(s, &c->meminfo_start, &mon->meminfo_start);
	held_values(s, &c->meminfo_end, &mon->meminfo_end);
	held_values(s, &c->cgroup, &mon->cgroup);
	held_values(s, &c->cgroup_start, &mon->cgroup_start);
	held_values(s, &c->cgroup_end, &mon->cgroup_end);
	c->samples = NULL;
	c->samples_nr = c->samples_alloc = 0;
	if (mon->samples_nr) {
		c->samples = xcalloc(mon->samples_nr, sizeof(*c->samples));
		c->samples_nr = c->samples_alloc = mon->samples_nr;
	}
	for (size_t i = 0; i < mon->samples_nr; i++) {
		c->samples[i].t_s = mon->samples[i].t_s;
		held_values(s, &c->samples[i].vmstat, &mon->samples[i].vmstat);
		held_values(s, &c->samples[i].cpu, &mon->samples[i].cpu);
		held_values(s, &c->samples[i].meminfo,
			    &mon->samples[i].meminfo);
	}
	s->held_bytes += sizeof(*c) + mon->samples_nr * sizeof(*c->samples);
	return c;
}

static void held_iter_release(struct held_iter *h)
{
	struct monitor_record *m = h->mon;

	free(h->stderr_tail);
	free(h->started_at);
	free(h->samples);
	if (m) {
		monitor_values_release(&m->vmstat);
		monitor_values_release(&m->cpu);
		monitor_values_release(&m->meminfo_start);
		monitor_values_release(&m->meminfo_end);
		monitor_values_release(&m->cgroup);
		monitor_values_release(&m->cgroup_start);
		monitor_values_release(&m->cgroup_end);
		for (size_t i = 0; i < m->samples_nr; i++) {
			monitor_values_release(&m->samples[i].vmstat);
			monitor_values_release(&m->samples[i].cpu);
			monitor_values_release(&m->samples[i].meminfo);
		}
		free(m->samples);
		free(m);
	}
	memset(h, 0, sizeof(*h));
}

/* Keep a finished iteration that could not be stored; -1 past the bounds. */
static int hold_iteration(struct session *s, const struct iteration_rec *rec,
			  const struct sample_rec *samples, size_t nr,
			  const struct monitor_record *mon, struct strbuf *err)
{
	struct held_iter *h;

	if (s->held_nr >= SESSION_HELD_MAX_NR ||
	    s->held_bytes >= SESSION_HELD_MAX_BYTES)
		return error_addf(
			err,
			"cannot keep more finished iterations in memory: the database is locked by another process, and %zu iterations (%zu MiB) are held already",
			s->held_nr, s->held_bytes >> 20);
	if (s->held_first && s->held_first + s->held_nr == s->held_alloc) {
		/* Move the queue to the front rather than grow it. */
		memmove(s->held, s->held + s->held_first,
			s->held_nr * sizeof(*s->held));
		s->held_first = 0;
	}
	ALLOC_GROW(s->held, s->held_first + s->held_nr + 1, s->held_alloc);
	h = &s->held[s->held_first + s->held_nr++];
	memset(h, 0, sizeof(*h));
	h->rec = *rec;
	h->stderr_tail = rec->stderr_tail ? xstrdup(rec->stderr_tail) : NULL;
	h->started_at = xstrdup(rec->started_at);
	h->rec.stderr_tail = h->stderr_tail;
	h->rec.started_at = h->started_at;
	if (nr) {
		h->samples = xcalloc(nr, sizeof(*h->samples));
		memcpy(h->samples, samples, nr * sizeof(*samples));
	}
	h->samples_nr = nr;
	h->mon = mon ? held_monitor(s, mon) : NULL;
	s->held_bytes += sizeof(*h) + nr * sizeof(*samples) +
			 strlen(h->started_at) +
			 (h->stderr_tail ? strlen(h->stderr_tail) : 0);
	return 0;
}

/*
 * Store the held iterations, oldest first, while the lock is free. With
 * `quick`, a lock is waited for only SESSION_HELD_RETRY_MS (between
 * iterations, the run goes on). Returns 0 when the lock stopped it too
 * (what is left stays held), -1 on any other failure.
 */
static int store_held(struct session *s, bool quick, struct strbuf *err)
{
	int timeout_ms = store_busy_timeout(s->st);
	int ret = 0;

	if (quick && store_set_busy_timeout(s->st, SESSION_HELD_RETRY_MS, err))
		return -1;
	while (s->held_nr) {
		struct held_iter *h = &s->held[s->held_first];
		struct strbuf why = STRBUF_INIT;

		if (store_iteration(s, &h->rec, h->samples, h->samples_nr,
				    h->mon, &why)) {
			if (!store_busy(s->st)) {
				error_addf(err, "%s", why.buf);
				ret = -1;
			}
			strbuf_release(&why);
			break;
		}
		strbuf_release(&why);
		held_iter_release(h);
		s->held_first++;
		s->held_nr--;
	}
	if (!s->held_nr)
		s->held_first = s->held_bytes = 0;
	if (quick && store_set_busy_timeout(s->st, timeout_ms, err))
		ret = -1;
	return ret;
}

/*
 * Store a finished iteration, or, while another process holds the lock
 * past the busy timeouts, keep it in memory behind those held already,
 * so that none is lost and the run goes on; the held ones are retried
 * after each iteration and at the end (store_held_wait()).
 */
static int keep_iteration(struct session *s, const struct iteration_rec *rec,
			  const struct sample_rec *samples, size_t nr,
			  const struct monitor_record *mon, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	int ret = -1;

	if (!s->held_nr) {
		int timeout_ms = store_busy_timeout(s->st);
		int failed;

		/*
		 * The benchmark waits while this one tries: no longer than
		 * SESSION_FIRST_WAIT_MS in all, then the iteration is held.
		 */
		if (store_set_busy_timeout(
			    s->st,
			    SESSION_FIRST_WAIT_MS / STORE_ITERATION_TRIES, err))
			goto out;
		failed = store_iteration(s, rec, samples, nr, mon, &why);
		if (store_set_busy_timeout(s->st, timeout_ms, err))
			goto out;
		if (!failed) {
			ret = 0;
			goto out;
		}
		if (!store_busy(s->st)) {
			error_addf(err, "%s", why.buf);
			goto out;
		}
		if (hold_iteration(s, rec, samples, nr, mon, err))
			goto out;
		notify(s,
		       "database locked by another process; 1 iteration held in memory, stored once the lock frees");
		ret = 0;
		goto out;
	}
	if (hold_iteration(s, rec, samples, nr, mon, err))
		goto out;
	ret = store_held(s, true, err);
out:
	strbuf_release(&why);
	return ret;
}

/*
 * At the end: wait, bounded by SESSION_HELD_WAIT_S (or until *cut), for
 * the lock to free and store what is held; -1 when it did not.
 */
static int store_held_wait(struct session *s, struct strbuf *err)
{
	time_t end = time(NULL) + SESSION_HELD_WAIT_S;

	if (!s->held_nr)
		return 0;
	notify(s,
	       "database locked by another process; %zu iterations held in memory, waiting up to %d s for the lock",
	       s->held_nr, SESSION_HELD_WAIT_S);
	for (;;) {
		struct timespec pause = {0, 100000000L};

		if (store_held(s, false, err))
			return -1;
		if (!s->held_nr)
			return 0;
		if (time(NULL) >= end || flag_set(s->opts.cut))
			break;
		nanosleep(&pause, NULL);
	}
	return error_addf(
		err,
		"cannot store %zu finished iterations: the database stayed locked by another process",
		s->held_nr);
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
		notify(s,
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
			notify(s,
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
 * Keep the iteration value of each metric of job j from its samples in
 * x: their mean for lower-is-better, the mean of 1/x for higher-is-better
 * (compare's unit value, section 1).
 */
static void until_note(struct session *s, size_t j, const struct extraction *x)
{
	const struct workload_spec *wl = s->plan->jobs[j].wl;
	const struct live_run *lr = &s->runs[s->plan->jobs[j].build_index];
	struct job_until *ju = &s->until[j];
	double *v = xcalloc(x->samples_nr + 1, sizeof(*v));
	long long *key = xcalloc(x->samples_nr + 1, sizeof(*key));
	double *row;

	ALLOC_GROW(ju->vals, (ju->rows + 1) * wl->metrics_nr, ju->alloc);
	row = ju->vals + ju->rows++ * wl->metrics_nr;
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

/* Whether every metric of job j is precise enough to stop (section 9). */
static bool until_precise(const struct session *s, size_t j)
{
	const struct job_until *ju = &s->until[j];
	size_t nm = s->plan->jobs[j].wl->metrics_nr;
	double *u = xcalloc(ju->rows + 1, sizeof(*u));
	bool precise = ju->rows >= 3;

	for (size_t m = 0; m < nm && precise; m++) {
		for (size_t r = 0; r < ju->rows; r++)
			u[r] = ju->vals[r * nm + m];
		precise = stats_precise(u, ju->rows, UNTIL_ALPHA, s->until_pct);
	}
	free(u);
	return precise;
}

/*
 * After a measured iteration of job j: stop the job once it is precise
 * enough. Interleaved builds stop together, after a whole round, when
 * the job of every build is; each looks at its own values only.
 */
static void until_check(struct session *s, size_t j, long it)
{
	size_t per = s->plan->nr / s->plan->builds_nr;
	size_t first = j, step = 1, nr = 1;

	/* With kernels, session_run_boots() decides between boots. */
	if (!s->until_pct || it < s->cfg->warmup || s->opts.boots_nr)
		return;
	if (s->walk.interleave) {
		if (s->plan->jobs[j].build_index + 1 != s->plan->builds_nr)
			return;
		first = j % per;
		step = per;
		nr = s->plan->builds_nr;
	}
	for (size_t k = 0; k < nr; k++)
		if (!until_precise(s, first + k * step))
			return;
	for (size_t k = 0; k < nr; k++)
		s->until[first + k * step].precise = true;
	plan_walk_skip_job(&s->walk, j);
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
	struct cmd_outcome hook = {.why = STRBUF_INIT};
	size_t levels = 0;
	bool prepare_failed;
	char started[32];
	const char *status;
	int ret = -1;

	report_progress(s, job, it);
	if (run_hooks(s, job, true, &levels, &hook, err))
		goto out;
	if (hook.status == RUNNER_INTERRUPTED) {
		/* The concludes of the prepares that ran still run. */
		ret = run_hooks(s, job, false, &levels, &hook, err);
		goto out;
	}
	job_env(s->cfg, s->opts.path, job->build, wl, &env);
	req.env = env.v;
	machine_utc_now(started);
	prepare_failed = hook.status != RUNNER_OK;
	if (prepare_failed) {
		/* The workload does not run; the hook's failure is stored. */
		res.run.status = hook.status;
		res.run.exit_code = hook.exit_code;
		res.run.term_signal = hook.term_signal;
		strbuf_add(&res.run.err_tail, hook.why.buf, hook.why.len);
	} else if (executor_run(s->ex, &req, &res, err)) {
		goto out;
	}
	if (run_hooks(s, job, false, &levels, &hook, err))
		goto out;
	strays_warn(s, r, "workload", wl->name);
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
				it + (s->boot && job->build
					      ? s->iter_base[job->build->kernel]
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

		if (keep_iteration(s, &rec, x.samples, x.samples_nr,
				   res.monitors, err))
			goto out;
	}
	s->done_iters++;
	s->elapsed_sum += r->elapsed_s;
	if (!warmup && res.monitors)
		note_busy(&s->busy[j], res.monitors);
	if (!warmup) {
		lr->sum.iterations++;
		lr->sum.samples += x.samples_nr;
		s->until[j].ran++;
		if (s->until_pct && !strcmp(status, "ok"))
			until_note(s, j, &x);
		lr->measured_ok += !strcmp(status, "ok");
	}
	if (strcmp(status, "ok")) {
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
		if (why.len && x.note.len)
			strbuf_addstr(&why, ": ");
		strbuf_addstr(&why, x.note.buf);
		lr->sum.failed++;
		notify(s, "%s: %s%s%s %s %ld failed: %s", lr->sum.label,
		       wl->name, *job->key ? " " : "", job->key,
		       warmup ? "warm-up" : "iteration",
		       warmup ? it + 1 : it - s->cfg->warmup + 1, why.buf);
		strbuf_release(&why);
		if (s->cfg->on_error == CONFIG_ON_ERROR_ABORT)
			s->aborted = true;
	}
	ret = 0;
out:
	free(x.samples);
	free(x.vals);
	strbuf_release(&x.note);
	strbuf_release(&hook.why);
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

/* The path of the config's cgroup spec whose leaf `where` names, or NULL. */
static const char *stale_spec_path(const struct session *s, const char *where)
{
	size_t len = strcspn(where, ",");

	for (size_t b = 0; b < s->plan->builds_nr; b++) {
		const struct cgroup_spec *spec =
			session_build_cgroup(s->cfg, b);
		size_t n = spec ? strlen(spec->path) : 0;

		if (spec && len > n && where[len - n - 1] == '/' &&
		    !strncmp(where + len - n, spec->path, n))
			return spec->path;
	}
	return NULL;
}

/*
 * Remove what runs marked aborted (their mmcmp died) left of their
 * cgroups, which would be in the way of this run's: the leaves they
 * recorded and, for a leaf of one of this config's paths, the empty
 * levels of the path above it. A cgroup that a running run records as
 * well stays. What cannot be removed is a warning; cgroup_create() then
 * names every directory in the way.
 */
static int remove_stale_cgroups(struct session *s, struct strbuf *err)
{
	struct run_rows rows = {0};
	struct strvec live = STRVEC_INIT, stale = STRVEC_INIT;
	struct strbuf werr = STRBUF_INIT;
	int ret = -1;

	if (store_list_runs(s->st, &rows, err))
		goto out;
	for (size_t i = 0; i < rows.nr; i++) {
		const char *status = rows.v[i].status;
		struct run_info ri = {0};

		if (!status ||
		    (strcmp(status, "aborted") && strcmp(status, "running")))
			continue;
		if (store_run_get(s->st, rows.v[i].id, &ri, err))
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
					stale_spec_path(s, stale.v[i]), &werr))
			notify(s, "%s", werr.buf);
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
static int find_cgroup_owner(struct session *s, const char *path, int64_t *id,
			     int64_t *pid, struct strbuf *err)
{
	struct run_rows rows = {0};
	int ret = -1;

	*id = 0;
	if (store_list_runs(s->st, &rows, err))
		goto out;
	for (size_t i = 0; i < rows.nr && !*id; i++) {
		struct run_info ri = {0};

		if (!rows.v[i].status || strcmp(rows.v[i].status, "running"))
			continue;
		if (store_run_get(s->st, rows.v[i].id, &ri, err))
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

/*
 * Create spec's cgroup. When it is in the way, and a live run of this
 * database holds it, say so rather than to remove it.
 */
static struct cgroup *create_cgroup(struct session *s,
				    const struct cgroup_spec *spec,
				    struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	struct cgroup *cg = cgroup_create(spec, &why);
	int64_t id = 0, pid = 0;

	if (!cg && strstr(why.buf, " exist") &&
	    !find_cgroup_owner(s, spec->path, &id, &pid, NULL) && id) {
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

/*
 * Create the cgroups of the builds: the top-level one once, for all the
 * builds without their own; first, what killed runs left in the way.
 */
static int create_cgroups(struct session *s, struct strbuf *err)
{
	bool any = false;

	for (size_t b = 0; b < s->plan->builds_nr && !any; b++)
		any = session_build_cgroup(s->cfg, b) != NULL;
	if (any && remove_stale_cgroups(s, err))
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
		cg = create_cgroup(s, spec, err);
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
	/* With kernels, each of a kernel's boots runs every iteration. */
	long most =
		s->opts.boots_nr ? s->measured * s->cfg->vm.boots : s->measured;
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
		if (r)
			return -1;
	}
	return 0;
}

/*
 * Write the settings of kv, each recorded with the runs of builds b0 up
 * to b1 (exclusive), whose machine facts are then read again; -1 at the
 * first that fails.
 */
static int apply_settings(struct session *s, const struct kv_list *kv,
			  size_t b0, size_t b1, struct strbuf *err)
{
	for (size_t i = 0; i < kv->nr; i++) {
		const struct setting_change *c;

		if (settings_apply(s->settings, kv->v[i].key, kv->v[i].value,
				   err))
			return -1;
		c = settings_change(s->settings, settings_nr(s->settings) - 1);
		for (size_t b = b0; b < b1; b++)
			if (store_run_setting_add(s->st, s->runs[b].sum.id,
						  c->path, c->old_value,
						  c->new_value, err))
				return -1;
	}
	/* The machine facts create_runs() read may have changed: again. */
	for (size_t b = b0; kv->nr && b < b1; b++) {
		struct machine_info m = {0};
		int r;

		executor_machine_info(s->ex, &m);
		r = store_run_set_tunables(s->st, s->runs[b].sum.id, &m, err);
		machine_info_release(&m);
		if (r)
			return -1;
	}
	return 0;
}

/*
 * Make the settings of build b (SIZE_MAX: of none) the ones written over
 * the config's, putting back another build's first: with interleaving,
 * the builds take turns.
 */
static int switch_settings(struct session *s, size_t b, struct strbuf *err)
{
	struct live_run *lr;

	if (!s->cfg->builds_nr || b == s->settings_build)
		return 0;
	s->settings_build = SIZE_MAX;
	if (settings_restore(s->settings, s->config_settings_nr, err))
		return -1;
	s->settings_build = b;
	if (b == SIZE_MAX)
		return 0;
	lr = &s->runs[b];
	if (apply_settings(s, &s->cfg->builds[b].settings, b,
			   lr->settings_stored ? b : b + 1, err))
		return -1;
	lr->settings_stored = true;
	return 0;
}

/* As switch_settings(), on the way out: a failure is a warning. */
static void switch_settings_late(struct session *s, size_t b)
{
	struct strbuf err = STRBUF_INIT;

	if (switch_settings(s, b, &err))
		notify(s, "%s", err.buf);
	strbuf_release(&err);
}

/* Put back every setting written, the newest first. */
static void restore_settings(struct session *s)
{
	struct strbuf err = STRBUF_INIT;

	s->settings_build = SIZE_MAX;
	if (settings_restore(s->settings, 0, &err))
		notify(s, "%s", err.buf);
	s->config_settings_nr = 0;
	strbuf_release(&err);
}

/*
 * Put back the settings of runs killed while they held them, each a
 * warning; that they cannot be read is a warning too.
 */
static void recover_settings(struct session *s)
{
	struct strvec done = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;

	if (settings_recover(s->settings, &done, &err))
		notify(s, "%s", err.buf);
	for (size_t i = 0; i < done.nr; i++)
		notify(s, "%s", done.v[i]);
	strvec_clear(&done);
	strbuf_release(&err);
}

/* Do one step of the walk; -1 when the run cannot go on. */
static int do_step(struct session *s, const struct plan_step *step,
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
			switch_settings_late(s, step->build);
		else if (switch_settings(s, step->build, err))
			return -1;
	}
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
		if (run_iteration(s, step->job, step->iteration, err))
			return -1;
		until_check(s, step->job, step->iteration);
		return 0;
	case PLAN_STEP_JOB_TEARDOWN:
		run_teardown(s, &job->wl->teardown, job->build, job->wl,
			     "workload teardown");
		return 0;
	case PLAN_STEP_BUILD_TEARDOWN:
		run_teardown(s, &job->build->teardown, job->build, NULL,
			     "build teardown");
		return 0;
	case PLAN_STEP_TEARDOWN:
		switch_settings_late(s, SIZE_MAX);
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
	recover_settings(s);
	if (create_cgroups(s, err) || create_runs(s, err) || prepare(s, err) ||
	    apply_settings(s, &s->cfg->settings, 0, s->plan->builds_nr, err))
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
		if (flag_set(s->opts.stop) || s->aborted)
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
		if (do_step(s, &step, err))
			goto fail;
	}
	return 0;
fail:
	s->failed = true;
	return -1;
}

/* Boot kernel k as boot n (1-based): record it for k's runs. */
static int start_boot(struct session *s, size_t k, size_t n, struct strbuf *err)
{
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

/*
 * Whether every job of kernel k (SIZE_MAX: of every kernel) is precise
 * enough to stop; if so, mark them stopped on precision.
 */
static bool until_kernel_precise(struct session *s, size_t k)
{
	for (int mark = 0; mark < 2; mark++)
		for (size_t j = 0; j < s->plan->nr; j++) {
			size_t b = s->plan->jobs[j].build_index;

			if (k != SIZE_MAX && s->cfg->builds[b].kernel != k)
				continue;
			if (mark)
				s->until[j].precise = true;
			else if (!until_precise(s, j))
				return false;
		}
	return true;
}

/*
 * After the n-th boot of the schedule, of kernel k, under `until`: which
 * kernels need no more boots (section 9 with boots). Interleaved boots
 * (A B B A) stop together, and only after a whole round, so that every
 * kernel keeps as many boots as the others and the alternation that
 * cancels drift stays whole; boots in sequence (A A B B) stop kernel by
 * kernel. Each job looks at its own iteration values, from all boots.
 */
static void until_boots_check(struct session *s, size_t n, size_t k, bool *done)
{
	size_t kernels_nr = s->cfg->kernels_nr;

	if (!s->until_pct)
		return;
	if (!s->cfg->vm.interleave) {
		done[k] = until_kernel_precise(s, k);
		return;
	}
	if (n % kernels_nr || !until_kernel_precise(s, SIZE_MAX))
		return;
	for (size_t i = 0; i < kernels_nr; i++)
		done[i] = true;
}

static int session_run_boots(struct session *s, struct strbuf *err)
{
	long per = s->cfg->warmup + s->measured;
	bool *done = xcalloc(s->cfg->kernels_nr, sizeof(*done));
	size_t booted = 0;
	int ret = -1;

	s->iter_base = xcalloc(s->cfg->kernels_nr, sizeof(*s->iter_base));
	for (size_t n = 1; n <= s->opts.boots_nr; n++) {
		size_t k = s->opts.boot_order[n - 1];
		struct plan_step step;

		if (flag_set(s->opts.stop) || s->aborted)
			break;
		/* Boots are numbered as they happen, skipped ones left out. */
		if (done[k])
			continue;
		if (start_boot(s, k, ++booted, err))
			goto out;
		plan_walk_init(&s->walk, s->plan, per, s->cfg->interleave);
		for (;;) {
			bool config_step;

			/* As in session_run(): what ran is torn down. */
			if (flag_set(s->opts.stop) || s->aborted)
				plan_walk_finish(&s->walk);
			if (!plan_walk_next(&s->walk, &step))
				break;
			config_step = step.kind == PLAN_STEP_SETUP ||
				      step.kind == PLAN_STEP_TEARDOWN;

			if (!config_step &&
			    s->cfg->builds[step.build].kernel != k)
				continue;
			if (do_step(s, &step, err))
				goto out;
		}
		s->iter_base[k] += per;
		until_boots_check(s, n, k, done);
	}
	ret = 0;
out:
	free(done);
	s->boot = 0;
	return ret;
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
		    store_delete_older_runs(s->st, sum->label, sum->id, err))
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
		do_step(s, &s->pending, err);
	}
	/* Each boot ran its own teardowns. */
	while (!s->opts.boots_nr && plan_walk_next(&s->walk, &step))
		do_step(s, &step, err); /* only teardowns: they only warn */
	restore_settings(s);
	busy_warn(s);
	remove_cgroups(s);
	if (store_held_wait(s, err))
		s->failed = true;
	if (flag_set(s->opts.stop))
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
	restore_settings(s);
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
	}
	free(s->runs);
	free(s->busy);
	for (size_t j = 0; j < p->nr; j++)
		free(s->until[j].vals);
	free(s->until);
	free(s->iter_base);
	for (size_t i = 0; i < s->held_nr; i++)
		held_iter_release(&s->held[s->held_first + i]);
	free(s->held);
	strvec_clear(&s->held_names);
	strmap_clear(&s->held_name_index);
	free(s);
}
