/* session-check: pre-flight checks of a run, and its commands' environment. */
#include "session-check.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "plan.h"
#include "runner.h"
#include "settings.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"

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

void session_job_env(const struct config *cfg, const char *path,
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

const char *session_job_cwd(const struct build_spec *b,
			    const struct workload_spec *wl)
{
	if (wl && wl->cwd)
		return wl->cwd;
	return b ? b->cwd : NULL;
}

/*
 * Debian packages of the benchmark programs that configs/ uses; `note`,
 * when set, replaces the advice to install the package.
 */
static const struct {
	const char *program, *package, *note;
} known_packages[] = {
	{"dbench", "dbench", NULL},
	{"fio", "fio", NULL},
	{"fs_mark", "fsmark", NULL},
	{"hackbench", "rt-tests", NULL},
	{"iperf3", "iperf3", NULL},
	{"netperf", "netperf",
	 "netperf is in Debian's non-free section only (enable non-free in "
	 "the APT sources, then apt-get install netperf); mmcmp's own "
	 "netstream measures the same loopback TCP_STREAM and TCP_SENDFILE "
	 "(configs/netstream.yaml)"},
	{"pgbench", "postgresql", NULL},
	{"perf", "linux-perf", NULL},
	{"stress-ng", "stress-ng", NULL},
	{"sysbench", "sysbench", NULL},
	{"time", "time", NULL},
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
	session_job_env(cfg, path, job->build, job->wl, &env);
	for (size_t i = 0; i < env.nr && !child_path; i++)
		if (!strncmp(env.v[i], "PATH=", 5))
			child_path = env.v[i] + 5;
	e = runner_find_program(prog, child_path,
				session_job_cwd(job->build, job->wl), &file);
	strvec_clear(&env);
	strbuf_release(&file);
	if (!e)
		return 0;
	if (e != ENOENT)
		return error_addf(
			err, "workload '%s': cannot execute program '%s': %s",
			job->wl->name, prog, strerror(e));
	for (size_t k = 0; k < ARRAY_SIZE(known_packages); k++)
		if (!strcmp(prog, known_packages[k].program) &&
		    known_packages[k].note)
			return error_addf(
				err,
				"workload '%s': program '%s' is not installed; %s",
				job->wl->name, prog, known_packages[k].note);
		else if (!strcmp(prog, known_packages[k].program))
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

char *session_workload_path(void)
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
