/* executor-local: run commands on this machine with runner and monitor. */
#include "executor.h"

#include "machine.h"
#include "monitor.h"
#include "util.h"

struct executor_local {
	struct executor base; /* first: the operations cast back to us */
	struct runner_guard guard;
	struct runner_lookup lookup; /* of the last command run */
	struct monitor mon;
	bool monitors;
	size_t stdout_max;
};

/* runner_opts.tick: a periodic monitor sample. */
static void local_tick(void *ctx)
{
	monitor_tick(ctx);
}

static int local_run(struct executor *ex, const struct executor_request *req,
		     struct executor_result *res, struct strbuf *err)
{
	struct executor_local *el = (struct executor_local *)ex;
	struct runner_opts o = {
		.guard = &el->guard,
		.argv = req->argv,
		.env = req->env,
		.cwd = req->cwd,
		.timeout_s = req->timeout_s,
		.stop = req->stop,
		.cgroup_procs = req->cgroup_procs,
		.stdout_max = el->stdout_max,
		.keep_daemons = req->keep_daemons,
		.lookup = &el->lookup,
	};
	bool monitored = false;

	res->monitors = NULL;
	strbuf_reset(&res->monitor_err);
	if (req->monitor && el->monitors) {
		monitor_set_cgroup(&el->mon, req->cgroup_procs);
		monitored = !monitor_begin(&el->mon, &res->monitor_err);
	}
	if (monitored && el->mon.interval_s > 0) {
		o.tick = local_tick;
		o.tick_ctx = &el->mon;
		o.tick_s = el->mon.interval_s;
	}
	if (runner_run(&o, &res->run, err))
		return -1;
	if (!monitored || res->run.status == RUNNER_INTERRUPTED)
		return 0;
	if (monitor_end(&el->mon, &res->monitor_err))
		return 0;
	monitor_set_workload(&el->mon, res->run.user_s, res->run.sys_s,
			     res->run.elapsed_s);
	if (el->mon.tick_err.len)
		strbuf_add(&res->monitor_err, el->mon.tick_err.buf,
			   el->mon.tick_err.len);
	res->monitors = &el->mon.rec;
	return 0;
}

static void local_machine(struct executor *ex, struct machine_info *mi)
{
	(void)ex;
	machine_info_read(mi);
}

static void local_free(struct executor *ex)
{
	struct executor_local *el = (struct executor_local *)ex;

	runner_guard_stop(&el->guard);
	runner_lookup_release(&el->lookup);
	monitor_release(&el->mon);
	free(el);
}

static const struct executor_ops local_ops = {
	.name = "local",
	.run = local_run,
	.machine = local_machine,
	.free = local_free,
};

struct executor *executor_local_new(const struct executor_local_opts *opts,
				    struct strbuf *err)
{
	struct executor_local *el = xcalloc(1, sizeof(*el));
	struct runner_guard guard = RUNNER_GUARD_INIT;

	el->base.ops = &local_ops;
	el->guard = guard;
	el->monitors = opts->monitors;
	el->stdout_max = opts->stdout_max;
	monitor_init(&el->mon, opts->interval_s);
	/* The guard forks the commands: the perf counters go there. */
	if (runner_guard_start(&el->guard, err) ||
	    (opts->perf_events && monitor_set_perf(&el->mon, opts->perf_events,
						   el->guard.pid, err))) {
		local_free(&el->base);
		return NULL;
	}
	return &el->base;
}
