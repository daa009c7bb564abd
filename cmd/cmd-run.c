/* mmcmp run: execute a config's workloads and store every sample. */
#include "cmd.h"

#include <errno.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "config.h"
#include "extract.h"
#include "machine.h"
#include "mmcmp-version.h"
#include "monitor.h"
#include "parse-num.h"
#include "plan.h"
#include "run-data.h"
#include "runner.h"
#include "sha256.h"
#include "store.h"
#include "strbuf.h"
#include "uuid.h"

static const char run_usage[] =
	"usage: mmcmp run [options] CONFIG\n"
	"\n"
	"Run the workloads of CONFIG (YAML, see configs/README.md) and store\n"
	"every sample. Each finished iteration is committed at once.\n"
	"\n"
	"Options:\n"
	"  --label NAME       label of the results (default: the running kernel\n"
	"                     release, as uname -r prints it); with builds, each\n"
	"                     build is stored as NAME-BUILD\n"
	"  --iterations N     measured iterations per job (default: the config's)\n"
	"  --param NAME=V[,V...]\n"
	"                     give parameter NAME of every workload that has it\n"
	"                     these values instead (repeatable)\n"
	"  --check            validate CONFIG and print the expanded plan; runs\n"
	"                     nothing and leaves the database alone\n"
	"  --append           add a run to a label that already has results\n"
	"  --replace          replace a label's results once the new run completes\n"
	"  -q, --quiet        no progress line and no summary\n"
	"  --db PATH          the database (default $MMCMP_DB, else ./mmcmp.db)\n"
	"\n"
	"Exit status: 0 all iterations succeeded, 1 some failed or the run could\n"
	"not be stored, 2 bad config or arguments, 130 interrupted.\n";

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	(void)sig;
	interrupted = 1;
}

struct run_args {
	const char *config_path;
	const char *label;
	int iterations;	      /* 0: the config's */
	struct strvec params; /* --param overrides */
	bool check, append, replace, quiet;
};

/* A run being recorded: one per build. */
struct live_run {
	char *label;
	int64_t id;
	int64_t **
		op_ids; /* per job of this build (indexed by job), per metric */
	size_t iterations, failed, samples;
	bool setup_done;
	struct cgroup *cgroup; /* its workloads' cgroup (borrowed), or NULL */
};

struct run_state {
	const struct run_args *args;
	struct config cfg;
	struct plan plan;
	struct store *st;
	struct live_run *runs; /* plan.builds_nr of them */
	struct extractor **
		*extractors; /* per job, per metric (NULL: measured) */
	char *workload_path; /* PATH for children */
	size_t total_iters, done_iters;
	double elapsed_sum;
	bool progress;
	bool aborted;
	bool failed_setup;
	struct monitor mon;
	bool monitoring;     /* the config's monitors, while they work */
	bool monitor_warned; /* a failure was reported */
	/* The cgroups made, in order; builds may share the top-level one. */
	struct cgroup **cgroups;
	size_t cgroups_nr, cgroups_alloc;
	struct cgroup *top_cgroup; /* one of them, or NULL */
	struct runner_guard guard; /* kills the workload if we die */
};

static int parse_args(int argc, char **argv, struct run_args *a)
{
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *v;
		bool missing = false;

		if ((v = opt_value(argv, argc, &i, "--label", &missing))) {
			a->label = v;
		} else if ((v = opt_value(argv, argc, &i, "--iterations",
					  &missing))) {
			if (!parse_int(v, 1, 1000000, &a->iterations))
				return usage_error(
					&cmd_run,
					"--iterations needs a whole number from 1 to 1000000, not '%s'",
					v);
		} else if ((v = opt_value(argv, argc, &i, "--param",
					  &missing))) {
			strvec_push(&a->params, v);
		} else if (missing) {
			return usage_error(&cmd_run,
					   "option '%s' needs a value", arg);
		} else if (!strcmp(arg, "--check")) {
			a->check = true;
		} else if (!strcmp(arg, "--append")) {
			a->append = true;
		} else if (!strcmp(arg, "--replace")) {
			a->replace = true;
		} else if (!strcmp(arg, "-q") || !strcmp(arg, "--quiet")) {
			a->quiet = true;
		} else if (!strcmp(arg, "--")) {
			if (i + 1 < argc && !a->config_path)
				a->config_path = argv[++i];
			if (i + 1 < argc)
				return usage_error(&cmd_run,
						   "unexpected argument '%s'",
						   argv[i + 1]);
		} else if (arg[0] == '-' && arg[1]) {
			return usage_error(&cmd_run, "unknown option '%s'",
					   arg);
		} else if (!a->config_path) {
			a->config_path = arg;
		} else {
			return usage_error(&cmd_run, "unexpected argument '%s'",
					   arg);
		}
	}
	if (!a->config_path)
		return usage_error(&cmd_run, "missing CONFIG");
	if (a->append && a->replace)
		return usage_error(&cmd_run,
				   "--append and --replace exclude each other");
	return 0;
}

/* Labels are printed in table headers and file names: keep them tame. */
static int check_label(const char *label)
{
	if (!*label)
		return usage_error(&cmd_run, "the label is empty");
	if (strlen(label) > 200)
		return usage_error(&cmd_run,
				   "label '%.20s...' is longer than 200 bytes",
				   label);
	for (const char *p = label; *p; p++)
		if ((unsigned char)*p < 0x21 || *p == 0x7f)
			return usage_error(
				&cmd_run,
				"label '%s' contains a space or control character",
				label);
	return 0;
}

/*
 * PATH for children: mmcmp's own directory, the workloads of a build tree
 * and the installed ones (libexec, so that `truncate` does not shadow
 * coreutils') come first.
 */
static char *workload_path(void)
{
	struct strbuf sb = STRBUF_INIT;
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *path = getenv("PATH");

	if (n > 0) {
		char *slash;

		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			strbuf_addf(&sb,
				    "%s:%s/../workloads:%s/../libexec/mmcmp:",
				    exe, exe, exe);
		}
	}
	strbuf_addstr(&sb,
		      path && *path ? path : "/usr/local/bin:/usr/bin:/bin");
	return strbuf_detach(&sb, NULL);
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
static void job_env(struct run_state *rs, const struct build_spec *b,
		    const struct workload_spec *wl, struct strvec *env)
{
	extern char **environ;

	strvec_pushv(env, environ);
	env_set(env, "PATH", rs->workload_path);
	env_apply(env, &rs->cfg.env);
	if (b)
		env_apply(env, &b->env);
	if (wl)
		env_apply(env, &wl->env);
}

static void print_argv(FILE *f, char *const *argv)
{
	for (size_t i = 0; argv[i]; i++) {
		const char *a = argv[i];
		bool quote = !*a || strpbrk(a, " \t\n'\"\\$`*?[]{}()<>|&;#~");

		fputs(i ? " " : "", f);
		if (!quote) {
			fputs(a, f);
			continue;
		}
		fputc('\'', f);
		for (; *a; a++) {
			if (*a == '\'')
				fputs("'\\''", f);
			else
				fputc(*a, f);
		}
		fputc('\'', f);
	}
}

static const char *source_name(enum metric_source s)
{
	switch (s) {
	case METRIC_REGEX:
		return "regex";
	case METRIC_JSON:
		return "json";
	case METRIC_PARSER:
		return "parser";
	case METRIC_ELAPSED:
		return "elapsed";
	case METRIC_USER:
		return "user";
	case METRIC_SYSTEM:
		return "system";
	case METRIC_MAXRSS:
		return "maxrss";
	}
	return "?";
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

/*
 * Before anything runs: every job's program must exist, else say which
 * Debian package brings it. Returns 0 or 2 after the message.
 */
static int check_programs(const struct run_state *rs)
{
	for (size_t j = 0; j < rs->plan.nr; j++) {
		const struct job *job = &rs->plan.jobs[j];
		const char *prog = job->argv.v[0];
		const char *cwd = job->wl->cwd ? job->wl->cwd
				  : job->build ? job->build->cwd
					       : NULL;
		struct strbuf file = STRBUF_INIT;
		int e = prog ? runner_find_program(prog, rs->workload_path, cwd,
						   &file)
			     : 0;

		strbuf_release(&file);
		if (!e)
			continue;
		if (e != ENOENT)
			return error("workload '%s': cannot execute program '%s': %s",
				     job->wl->name, prog, strerror(e)) +
			       1;
		for (size_t k = 0; k < ARRAY_SIZE(known_packages); k++)
			if (!strcmp(prog, known_packages[k].program))
				return error("workload '%s': program '%s' is not installed; install the Debian package '%s' (apt-get install %s)",
					     job->wl->name, prog,
					     known_packages[k].package,
					     known_packages[k].package) +
				       1;
		return error("workload '%s': program '%s' not found in PATH",
			     job->wl->name, prog) +
		       1;
	}
	return 0;
}

/* The cgroup of build b's workloads, or NULL. */
static const struct cgroup_spec *build_cgroup(const struct run_state *rs,
					      size_t b)
{
	if (rs->cfg.builds_nr && rs->cfg.builds[b].cgroup.path)
		return &rs->cfg.builds[b].cgroup;
	return rs->cfg.cgroup.path ? &rs->cfg.cgroup : NULL;
}

static void print_cgroup(const struct cgroup_spec *cg)
{
	printf("  cgroup %s", cg->path);
	for (size_t i = 0; i < cg->controllers.nr; i++)
		printf("%s%s", i ? "," : " +", cg->controllers.v[i]);
	for (size_t i = 0; i < cg->limits.nr; i++)
		printf(" %s=%s", cg->limits.v[i].key, cg->limits.v[i].value);
	if (cg->root)
		printf(" under %s", cg->root);
	putchar('\n');
}

static int print_plan(const struct run_state *rs)
{
	const struct config *cfg = &rs->cfg;
	int iters =
		rs->args->iterations ? rs->args->iterations : cfg->iterations;

	printf("config %s (%s): %zu job%s, %d iteration%s each after %d warm-up, timeout %gs%s\n",
	       cfg->name, cfg->path, rs->plan.nr, rs->plan.nr == 1 ? "" : "s",
	       iters, iters == 1 ? "" : "s", cfg->warmup, cfg->timeout_s,
	       cfg->interleave && rs->plan.builds_nr > 1
		       ? ", builds interleaved"
		       : "");
	for (size_t j = 0; j < rs->plan.nr; j++) {
		const struct job *job = &rs->plan.jobs[j];
		size_t b = job->build_index;

		if (!j || b != rs->plan.jobs[j - 1].build_index) {
			printf("label %s%s%s\n", rs->runs[b].label,
			       job->build ? " build " : "",
			       job->build ? job->build->name : "");
			if (build_cgroup(rs, b))
				print_cgroup(build_cgroup(rs, b));
		}
		printf("  %s%s%s: ", job->wl->name, *job->key ? " " : "",
		       job->key);
		print_argv(stdout, job->argv.v);
		putchar('\n');
		for (size_t m = 0; m < job->wl->metrics_nr; m++) {
			const struct metric_spec *ms = &job->wl->metrics[m];

			printf("    %s  %s [%s] %s is better, %s, %d+%d iterations\n",
			       job->ops[m], ms->name, ms->unit,
			       ms->higher_better ? "higher" : "lower",
			       source_name(ms->source), cfg->warmup, iters);
		}
	}
	return 0;
}

/* Run one setup or teardown command; -1 with a line in err on failure. */
static int run_aux(struct run_state *rs, char *const *argv,
		   const struct build_spec *b, const struct workload_spec *wl,
		   const char *what, struct strbuf *err)
{
	struct strvec env = STRVEC_INIT;
	struct runner_result res = RUNNER_RESULT_INIT;
	struct runner_opts o = {
		.guard = &rs->guard,
		.argv = argv,
		.cwd = wl && wl->cwd ? wl->cwd
		       : b	     ? b->cwd
				     : NULL,
		.timeout_s = rs->cfg.timeout_s,
		.stop = &interrupted,
	};
	int ret = -1;

	job_env(rs, b, wl, &env);
	o.env = env.v;
	if (runner_run(&o, &res, err))
		goto out;
	if (res.status != RUNNER_OK) {
		strbuf_rtrim(&res.err_tail);
		error_addf(err, "%s command '%s' failed (%s %d)%s%s", what,
			   argv[0], runner_status_name(res.status),
			   res.status == RUNNER_SIGNAL ? res.term_signal
						       : res.exit_code,
			   res.err_tail.len ? ": " : "", res.err_tail.buf);
		goto out;
	}
	ret = 0;
out:
	runner_result_release(&res);
	strvec_clear(&env);
	return ret;
}

static int run_commands(struct run_state *rs, const struct command_list *cl,
			const struct build_spec *b,
			const struct workload_spec *wl, const char *what,
			struct strbuf *err)
{
	for (size_t i = 0; i < cl->nr; i++)
		if (run_aux(rs, cl->v[i].v, b, wl, what, err))
			return -1;
	return 0;
}

static void fmt_duration(char *buf, size_t len, double s)
{
	long t = s < 0 ? 0 : (long)(s + 0.5);

	if (t >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60,
			 t % 60);
	else
		snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

static void show_progress(struct run_state *rs, const struct job *job,
			  size_t m_op, long it, long nr_it, bool warmup)
{
	char el[32], eta[32] = "?";

	if (!rs->progress)
		return;
	fmt_duration(el, sizeof(el), rs->elapsed_sum);
	if (rs->done_iters)
		fmt_duration(
			eta, sizeof(eta),
			rs->elapsed_sum / (double)rs->done_iters *
				(double)(rs->total_iters - rs->done_iters));
	fprintf(stderr,
		"\r\033[K[%zu/%zu] %s %s %s %ld/%ld  elapsed %s  ETA %s",
		rs->done_iters + 1, rs->total_iters,
		rs->runs[job->build_index].label, job->ops[m_op],
		warmup ? "warm-up" : "iteration", it, nr_it, el, eta);
	fflush(stderr);
}

static void clear_progress(struct run_state *rs)
{
	if (rs->progress)
		fputs("\r\033[K", stderr);
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

static void push_value(double **v, size_t *nr, size_t *alloc, double x)
{
	ALLOC_GROW(*v, *nr + 1, *alloc);
	(*v)[(*nr)++] = x;
}

/* runner_opts.tick: a periodic monitor sample. */
static void monitor_on_tick(void *ctx)
{
	monitor_tick(ctx);
}

static const char no_monitors[] = "iterations are stored without them";
static const char no_samples[] =
	"iterations are stored without some periodic samples";

/*
 * Warn once that the monitors failed and what becomes of them; the
 * workloads are unaffected.
 */
static void monitor_warn(struct run_state *rs, const struct strbuf *why,
			 const char *consequence)
{
	if (rs->monitor_warned)
		return;
	rs->monitor_warned = true;
	clear_progress(rs);
	warning("monitors: %s; %s", why->buf, consequence);
}

/*
 * Store an iteration with its samples and, when mon is not NULL, its
 * monitor record, all in one transaction.
 */
static int store_iteration(struct run_state *rs,
			   const struct iteration_rec *rec,
			   const struct sample_rec *samples, size_t nr,
			   const struct monitor_record *mon, struct strbuf *err)
{
	int64_t id;

	if (!mon)
		return store_iteration_add(rs->st, rec, samples, nr, NULL, err);
	if (store_begin(rs->st, err))
		return -1;
	if (store_iteration_add(rs->st, rec, samples, nr, &id, err) ||
	    store_monitor_add(rs->st, id, mon, err)) {
		store_rollback(rs->st);
		return -1;
	}
	return store_commit(rs->st, err);
}

/*
 * Run iteration `it` of job j and store it. Returns -1 only when the
 * store fails (the run cannot go on); a failing workload returns 0.
 */
static int run_iteration(struct run_state *rs, size_t j, long it,
			 struct strbuf *err)
{
	const struct job *job = &rs->plan.jobs[j];
	const struct workload_spec *wl = job->wl;
	struct live_run *lr = &rs->runs[job->build_index];
	bool warmup = it < rs->cfg.warmup;
	long measured = rs->args->iterations ? rs->args->iterations
					     : rs->cfg.iterations;
	struct strvec env = STRVEC_INIT;
	struct runner_result res = RUNNER_RESULT_INIT;
	struct runner_opts o = {
		.guard = &rs->guard,
		.argv = job->argv.v,
		.cwd = wl->cwd	    ? wl->cwd
		       : job->build ? job->build->cwd
				    : NULL,
		.timeout_s =
			wl->timeout_s > 0 ? wl->timeout_s : rs->cfg.timeout_s,
		.stop = &interrupted,
		.cgroup_procs = lr->cgroup ? cgroup_procs(lr->cgroup) : NULL,
	};
	struct sample_rec *samples = NULL;
	size_t samples_nr = 0, samples_alloc = 0;
	double *vals = NULL;
	size_t vals_nr = 0, vals_alloc = 0;
	struct strbuf note = STRBUF_INIT, merr = STRBUF_INIT;
	char started[32];
	const char *status;
	bool monitored = false;
	int ret = -1;

	show_progress(rs, job, 0, warmup ? it + 1 : it - rs->cfg.warmup + 1,
		      warmup ? rs->cfg.warmup : measured, warmup);
	job_env(rs, job->build, wl, &env);
	o.env = env.v;
	machine_utc_now(started);
	if (rs->monitoring) {
		monitored = !monitor_begin(&rs->mon, &merr);
		if (!monitored)
			monitor_warn(rs, &merr, no_monitors);
	}
	if (monitored && rs->mon.interval_s > 0) {
		o.tick = monitor_on_tick;
		o.tick_ctx = &rs->mon;
		o.tick_s = rs->mon.interval_s;
	}
	if (runner_run(&o, &res, err))
		goto out;
	if (res.status == RUNNER_INTERRUPTED) {
		/* Not finished: nothing to keep. */
		ret = 0;
		goto out;
	}
	if (monitored && monitor_end(&rs->mon, &merr)) {
		monitored = false;
		monitor_warn(rs, &merr, no_monitors);
	}
	if (monitored && rs->mon.tick_err.len)
		monitor_warn(rs, &rs->mon.tick_err, no_samples);
	status = runner_status_name(res.status);
	if (res.status == RUNNER_OK) {
		for (size_t m = 0; m < wl->metrics_nr; m++) {
			const struct metric_spec *ms = &wl->metrics[m];
			struct strbuf xerr = STRBUF_INIT;

			vals_nr = 0;
			if (!rs->extractors[j][m])
				push_value(&vals, &vals_nr, &vals_alloc,
					   metric_measure(ms, &res));
			else if (extractor_run(rs->extractors[j][m],
					       res.out.buf, res.out.len, &vals,
					       &vals_nr, &vals_alloc, &xerr))
				strbuf_addf(&note, "%smetric '%s': %s",
					    note.len ? "; " : "", ms->name,
					    xerr.buf);
			else if (!vals_nr)
				strbuf_addf(
					&note,
					"%smetric '%s': no value found in the output",
					note.len ? "; " : "", ms->name);
			strbuf_release(&xerr);
			for (size_t k = 0; k < vals_nr; k++) {
				ALLOC_GROW(samples, samples_nr + 1,
					   samples_alloc);
				samples[samples_nr].op_id = lr->op_ids[j][m];
				samples[samples_nr++].value = vals[k];
			}
		}
		if (note.len)
			status = "extract";
	} else {
		strbuf_add(&note, res.err_tail.buf, res.err_tail.len);
	}
	if (res.out_truncated) {
		/* Kept with the iteration, which stays ok when values were
		 * found. */
		struct strbuf tail = STRBUF_INIT;

		strbuf_addf(&tail, "mmcmp: stdout truncated after %zu bytes\n",
			    res.out.len);
		strbuf_add(&tail, note.len ? note.buf : res.err_tail.buf,
			   note.len ? note.len : res.err_tail.len);
		strbuf_release(&note);
		note = tail;
	}
	{
		struct iteration_rec rec = {
			.run_id = lr->id,
			.benchmark = wl->name,
			.job = job->key,
			.build = job->build ? job->build->name : NULL,
			.index = it,
			.warmup = warmup,
			.status = status,
			.exit_code = res.exit_code,
			.term_signal = res.term_signal,
			.elapsed_s = res.elapsed_s,
			.user_s = res.user_s,
			.sys_s = res.sys_s,
			.maxrss_kb = res.maxrss_kb,
			.stderr_tail = note.len ? note.buf : res.err_tail.buf,
			.started_at = started,
		};

		if (store_iteration(rs, &rec, samples, samples_nr,
				    monitored ? &rs->mon.rec : NULL, err))
			goto out;
	}
	rs->done_iters++;
	rs->elapsed_sum += res.elapsed_s;
	if (!warmup) {
		lr->iterations++;
		lr->samples += samples_nr;
	}
	if (strcmp(status, "ok")) {
		lr->failed++;
		clear_progress(rs);
		warning("%s: %s %s %s %ld failed: %s%s%s", lr->label, wl->name,
			*job->key ? job->key : "",
			warmup ? "warm-up" : "iteration",
			warmup ? it + 1 : it - rs->cfg.warmup + 1, status,
			note.len ? ": " : "", note.buf);
		if (rs->cfg.on_error == CONFIG_ON_ERROR_ABORT)
			rs->aborted = true;
	}
	ret = 0;
out:
	free(samples);
	free(vals);
	strbuf_release(&note);
	strbuf_release(&merr);
	runner_result_release(&res);
	strvec_clear(&env);
	return ret;
}

/* Run the setup of job j's build (once) and of its workload. */
static int job_setup(struct run_state *rs, size_t j, struct strbuf *err)
{
	const struct job *job = &rs->plan.jobs[j];
	struct live_run *lr = &rs->runs[job->build_index];

	if (!lr->setup_done && job->build) {
		lr->setup_done = true;
		if (run_commands(rs, &job->build->setup, job->build, NULL,
				 "build setup", err))
			return -1;
	}
	return run_commands(rs, &job->wl->setup, job->build, job->wl,
			    "workload setup", err);
}

/*
 * The iteration schedule. Without interleaving: build by build, job by
 * job, all iterations of a job in a row. With it, the iterations of the
 * same job under each build alternate (A B A B ...), so slow drift of the
 * machine affects every build alike.
 */
static int run_schedule(struct run_state *rs, struct strbuf *err)
{
	size_t nb = rs->plan.builds_nr, per = rs->plan.nr / nb;
	long measured = rs->args->iterations ? rs->args->iterations
					     : rs->cfg.iterations;
	long total = rs->cfg.warmup + measured;
	bool inter = rs->cfg.interleave && nb > 1;

	for (size_t outer = 0; outer < (inter ? per : nb); outer++) {
		for (size_t inner = 0; inner < (inter ? 1 : per); inner++) {
			size_t k = inter ? outer : inner;

			for (size_t b = 0; b < (inter ? nb : 1); b++) {
				size_t j = (inter ? b : outer) * per + k;

				if (job_setup(rs, j, err)) {
					rs->failed_setup = true;
					return -1;
				}
			}
			for (long it = 0; it < total; it++) {
				for (size_t b = 0; b < (inter ? nb : 1); b++) {
					size_t j =
						(inter ? b : outer) * per + k;

					if (interrupted || rs->aborted)
						return 0;
					if (run_iteration(rs, j, it, err))
						return -1;
				}
			}
			for (size_t b = 0; b < (inter ? nb : 1); b++) {
				size_t j = (inter ? b : outer) * per + k;
				const struct job *job = &rs->plan.jobs[j];
				struct strbuf terr = STRBUF_INIT;

				if (run_commands(rs, &job->wl->teardown,
						 job->build, job->wl,
						 "workload teardown", &terr))
					warning("%s", terr.buf);
				strbuf_release(&terr);
			}
		}
	}
	return 0;
}

/* Prepare extractors and store operations for every job and metric. */
static int prepare(struct run_state *rs, struct strbuf *err)
{
	rs->extractors = xcalloc(rs->plan.nr, sizeof(*rs->extractors));
	for (size_t b = 0; b < rs->plan.builds_nr; b++)
		rs->runs[b].op_ids =
			xcalloc(rs->plan.nr, sizeof(*rs->runs[b].op_ids));
	for (size_t j = 0; j < rs->plan.nr; j++) {
		const struct job *job = &rs->plan.jobs[j];
		const struct workload_spec *wl = job->wl;
		struct live_run *lr = &rs->runs[job->build_index];

		rs->extractors[j] =
			xcalloc(wl->metrics_nr, sizeof(*rs->extractors[j]));
		lr->op_ids[j] = xcalloc(wl->metrics_nr, sizeof(int64_t));
		for (size_t m = 0; m < wl->metrics_nr; m++) {
			const struct metric_spec *ms = &wl->metrics[m];

			if (extract_reads_output(ms)) {
				struct metric_spec spec = *ms;
				char *field = NULL;

				/* A parser field may name parameters:
				 * "{stressor}". */
				if (ms->source == METRIC_PARSER && ms->field) {
					field = plan_substitute(
						ms->field, job->names.v,
						job->values.v, err);
					if (!field)
						return -1;
					spec.field = field;
				}
				rs->extractors[j][m] =
					extractor_new(&spec, err);
				free(field);
				if (!rs->extractors[j][m])
					return -1;
			}
			if (store_operation(rs->st, lr->id, wl->name,
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
static int create_cgroups(struct run_state *rs, struct strbuf *err)
{
	for (size_t b = 0; b < rs->plan.builds_nr; b++) {
		const struct cgroup_spec *spec = build_cgroup(rs, b);
		struct cgroup *cg;

		if (!spec)
			continue;
		if (spec == &rs->cfg.cgroup && rs->top_cgroup) {
			rs->runs[b].cgroup = rs->top_cgroup;
			continue;
		}
		cg = cgroup_create(spec, err);
		if (!cg)
			return -1;
		ALLOC_GROW(rs->cgroups, rs->cgroups_nr + 1, rs->cgroups_alloc);
		rs->cgroups[rs->cgroups_nr++] = cg;
		rs->runs[b].cgroup = cg;
		if (spec == &rs->cfg.cgroup)
			rs->top_cgroup = cg;
	}
	return 0;
}

/*
 * Remove the cgroups, the last made first: a later one may sit in levels
 * an earlier one made. What cannot be removed is reported.
 */
static void remove_cgroups(struct run_state *rs)
{
	struct strbuf err = STRBUF_INIT;

	while (rs->cgroups_nr) {
		if (cgroup_remove(rs->cgroups[--rs->cgroups_nr], &err))
			warning("%s", err.buf);
		strbuf_reset(&err);
	}
	for (size_t b = 0; rs->runs && b < rs->plan.builds_nr; b++)
		rs->runs[b].cgroup = NULL;
	rs->top_cgroup = NULL;
	free(rs->cgroups);
	rs->cgroups = NULL;
	rs->cgroups_alloc = 0;
	strbuf_release(&err);
}

static void release_state(struct run_state *rs)
{
	runner_guard_stop(&rs->guard);
	remove_cgroups(rs);
	for (size_t j = 0; rs->extractors && j < rs->plan.nr; j++) {
		for (size_t m = 0; m < rs->plan.jobs[j].wl->metrics_nr; m++)
			extractor_free(rs->extractors[j][m]);
		free(rs->extractors[j]);
	}
	free(rs->extractors);
	for (size_t b = 0; rs->runs && b < rs->plan.builds_nr; b++) {
		for (size_t j = 0; rs->runs[b].op_ids && j < rs->plan.nr; j++)
			free(rs->runs[b].op_ids[j]);
		free(rs->runs[b].op_ids);
		free(rs->runs[b].label);
	}
	free(rs->runs);
	free(rs->workload_path);
	monitor_release(&rs->mon);
	plan_release(&rs->plan);
	config_release(&rs->cfg);
	store_close(rs->st);
}

/* Refuse labels that have results unless --append or --replace. */
static int check_existing(struct run_state *rs, struct strbuf *err)
{
	for (size_t b = 0; b < rs->plan.builds_nr; b++) {
		int64_t *ids = NULL;
		size_t nr = 0;

		if (store_find_runs(rs->st, rs->runs[b].label, &ids, &nr, err))
			return -1;
		free(ids);
		if (nr && !rs->args->append && !rs->args->replace)
			return usage_error(
				&cmd_run,
				"label '%s' already has results in '%s'; use --append to add a run to it or --replace to replace them",
				rs->runs[b].label, mmcmp_db_path());
	}
	return 0;
}

static int create_runs(struct run_state *rs, struct strbuf *err)
{
	struct machine_info mi = {0};
	char hash[65], now[32];
	int ret = -1;

	machine_info_read(&mi);
	sha256_hex(rs->cfg.text, rs->cfg.text_len, hash);
	machine_utc_now(now);
	for (size_t b = 0; b < rs->plan.builds_nr; b++) {
		struct run_info ri = {0};
		char uuid[37];
		int r;

		if (uuid_v4(uuid, err))
			goto out;
		ri.uuid = uuid;
		ri.label = rs->runs[b].label;
		ri.status = (char *)"running";
		ri.config_name = rs->cfg.name;
		ri.config_text = rs->cfg.text;
		ri.config_hash = hash;
		ri.started_at = now;
		ri.mmcmp_version = (char *)MMCMP_VERSION;
		ri.machine = mi;
		ri.pid = getpid();
		ri.pid_start = machine_proc_start(getpid());
		if (rs->runs[b].cgroup)
			ri.cgroup = (char *)cgroup_where(rs->runs[b].cgroup);
		r = store_run_create(rs->st, &ri, err);
		rs->runs[b].id = ri.id;
		if (r)
			goto out;
	}
	ret = 0;
out:
	machine_info_release(&mi);
	return ret;
}

static int finish_runs(struct run_state *rs, const char *status,
		       struct strbuf *err)
{
	char now[32];

	machine_utc_now(now);
	for (size_t b = 0; b < rs->plan.builds_nr; b++) {
		if (!rs->runs[b].id)
			continue;
		if (store_run_set_status(rs->st, rs->runs[b].id, status, now,
					 err))
			return -1;
		if (rs->args->replace && !strcmp(status, "complete") &&
		    store_delete_older_runs(rs->st, rs->runs[b].label,
					    rs->runs[b].id, err))
			return -1;
	}
	return 0;
}

static int run_main(int argc, char **argv)
{
	struct run_args args = {.params = STRVEC_INIT};
	struct run_state rs = {
		.args = &args,
		.plan = PLAN_INIT,
		.guard = RUNNER_GUARD_INIT,
	};
	struct strbuf err = STRBUF_INIT;
	struct sigaction sa = {.sa_handler = on_interrupt}, old_int, old_term;
	const char *status = "complete";
	char *base_label = NULL;
	size_t failed = 0;
	int ret;

	ret = parse_args(argc, argv, &args);
	if (ret)
		goto out;
	if (config_load_file(&rs.cfg, args.config_path, &err) ||
	    plan_prepare(&rs.cfg, args.params.v, &err) ||
	    plan_build(&rs.plan, &rs.cfg, &err)) {
		error("%s", err.buf);
		ret = 2;
		goto out;
	}
	if (args.label) {
		base_label = xstrdup(args.label);
	} else {
		struct machine_info mi = {0};

		machine_info_read(&mi);
		base_label = xstrdup(mi.kernel_release ? mi.kernel_release
						       : "unknown");
		machine_info_release(&mi);
	}
	rs.runs = xcalloc(rs.plan.builds_nr, sizeof(*rs.runs));
	for (size_t b = 0; b < rs.plan.builds_nr; b++) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addstr(&sb, base_label);
		if (rs.cfg.builds_nr)
			strbuf_addf(&sb, "-%s", rs.cfg.builds[b].name);
		rs.runs[b].label = strbuf_detach(&sb, NULL);
		ret = check_label(rs.runs[b].label);
		if (ret)
			goto out;
	}
	rs.workload_path = workload_path();
	ret = check_programs(&rs);
	if (ret)
		goto out;
	if (args.check) {
		ret = print_plan(&rs);
		goto out;
	}

	rs.st = store_open(mmcmp_db_path(), &err);
	if (!rs.st) {
		ret = error("%s", err.buf);
		goto out;
	}
	ret = check_existing(&rs, &err);
	if (ret) {
		if (ret < 0)
			ret = error("%s", err.buf);
		goto out;
	}
	{
		long measured =
			args.iterations ? args.iterations : rs.cfg.iterations;

		rs.total_iters =
			rs.plan.nr * (size_t)(rs.cfg.warmup + measured);
	}
	if (runner_guard_start(&rs.guard, &err)) {
		ret = error("%s", err.buf);
		goto out;
	}
	rs.progress = !args.quiet && isatty(STDERR_FILENO);
	monitor_init(&rs.mon, rs.cfg.monitor_interval_s);
	rs.monitoring = rs.cfg.monitors;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);

	if (create_cgroups(&rs, &err) || create_runs(&rs, &err) ||
	    prepare(&rs, &err) ||
	    run_commands(&rs, &rs.cfg.setup, NULL, NULL, "setup", &err) ||
	    run_schedule(&rs, &err)) {
		clear_progress(&rs);
		error("%s", err.buf);
		strbuf_reset(&err);
		status = "failed";
		ret = 1;
	}
	clear_progress(&rs);
	for (size_t b = 0; b < rs.plan.builds_nr; b++) {
		const struct job *job = NULL;

		for (size_t j = 0; j < rs.plan.nr && !job; j++)
			if (rs.plan.jobs[j].build_index == b)
				job = &rs.plan.jobs[j];
		if (rs.runs[b].setup_done && job && job->build &&
		    run_commands(&rs, &job->build->teardown, job->build, NULL,
				 "build teardown", &err)) {
			warning("%s", err.buf);
			strbuf_reset(&err);
		}
	}
	if (run_commands(&rs, &rs.cfg.teardown, NULL, NULL, "teardown", &err)) {
		warning("%s", err.buf);
		strbuf_reset(&err);
	}
	remove_cgroups(&rs);
	if (interrupted) {
		status = "interrupted";
		ret = 130;
	} else if (rs.aborted) {
		status = "failed";
		ret = 1;
	}
	if (rs.st && finish_runs(&rs, status, &err)) {
		error("%s", err.buf);
		if (!ret)
			ret = 1;
	}
	for (size_t b = 0; b < rs.plan.builds_nr; b++) {
		failed += rs.runs[b].failed;
		if (!args.quiet && rs.runs[b].id)
			printf("%s: run %" PRId64
			       " %s, %zu iterations (%zu failed), %zu samples\n",
			       rs.runs[b].label, rs.runs[b].id, status,
			       rs.runs[b].iterations, rs.runs[b].failed,
			       rs.runs[b].samples);
	}
	if (!ret && failed)
		ret = 1;
	if (interrupted)
		error("interrupted; finished iterations are kept");
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
out:
	free(base_label);
	strvec_clear(&args.params);
	release_state(&rs);
	strbuf_release(&err);
	return ret;
}

const struct cmd cmd_run = {
	.name = "run",
	.summary = "run a config's workloads and store the samples",
	.usage = run_usage,
	.run = run_main,
};
