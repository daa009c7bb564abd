/* session-cmd: the setups, teardowns and hooks around the iterations. */
#include "session-internal.h"

#include "config.h"
#include "executor.h"
#include "session-check.h"
#include "util.h"

void session_strays_warn(struct session *s, const struct runner_result *r,
			 const char *what, const char *name)
{
	if (r->strays)
		session_notify(
			s,
			"%s '%s' left %zu process%s outside its process group (setsid?); killed",
			what, name, r->strays, r->strays == 1 ? "" : "es");
}

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
		.cwd = session_job_cwd(b, wl),
		.timeout_s = s->cfg->timeout_s,
		.stop = kind == CMD_SETUP ? s->opts.stop : s->opts.cut,
		/* A setup may start a service that the iterations use. */
		.keep_daemons = kind != CMD_TEARDOWN,
	};
	const struct runner_result *r = &res.run;
	const char *name = config_command_name(argv);
	int ret = -1;

	strbuf_reset(&out->why);
	session_job_env(s->cfg, s->opts.path, b, wl, &env);
	req.env = env.v;
	if (executor_run(s->ex, &req, &res, err))
		goto out;
	session_strays_warn(s, r, what, name);
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

int session_run_commands(struct session *s, const struct command_list *cl,
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
	if (session_flag_set(s->opts.cut)) {
		session_notify(
			s, "%s command '%s' skipped after a second interrupt",
			what, config_command_name(argv));
		return false;
	}
	if (session_flag_set(s->opts.stop) && !s->stop_warned) {
		s->stop_warned = true;
		session_notify(
			s,
			"interrupted: running the teardowns; interrupt again to cut them short");
	}
	return true;
}

void session_run_teardown(struct session *s, const struct command_list *cl,
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
			session_notify(s, "%s", err.buf);
		strbuf_reset(&err);
	}
	strbuf_release(&err);
}

int session_run_hooks(struct session *s, const struct job *job, bool prepare,
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
			session_notify(s, "%s: %s",
				       s->runs[job->build_index].sum.label,
				       out->why.buf);
		}
	}
	out->status = RUNNER_OK;
	return 0;
}
