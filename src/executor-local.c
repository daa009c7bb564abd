/* executor-local: run commands on this machine with runner and monitor. */
#include "executor.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "cgroup.h"
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
	/*
	 * The iterations' own cgroup, whose tasks the perf counters count
	 * (NULL: they count process trees), its directory open for them,
	 * and the cgroup.procs files of an iteration: the request's, then
	 * its own.
	 */
	struct cgroup *perf_cg;
	int perf_cg_fd;
	const char **procs;
	size_t procs_alloc;
};

/*
 * The cgroup.procs files of a monitored command: the request's and, when
 * the perf counters count the iterations' own cgroup, that one's.
 */
static const char *const *iteration_procs(struct executor_local *el,
					  const char *const *req)
{
	size_t n = 0;

	if (!el->perf_cg || !monitor_perf_cgroup(&el->mon))
		return req;
	while (req && req[n])
		n++;
	ALLOC_GROW(el->procs, n + 2, el->procs_alloc);
	if (n)
		memcpy(el->procs, req, n * sizeof(*req));
	el->procs[n] = cgroup_procs(el->perf_cg)[0];
	el->procs[n + 1] = NULL;
	return el->procs;
}

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
	if (monitored)
		o.cgroup_procs = iteration_procs(el, req->cgroup_procs);
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
	if (el->perf_cg_fd >= 0)
		close(el->perf_cg_fd);
	cgroup_remove(el->perf_cg, NULL);
	free(el->procs);
	free(el);
}

/*
 * Have the perf counters count a cgroup of the iterations' own, where
 * one can be made (root, cgroup v2); else they count process trees.
 */
static void count_own_cgroup(struct executor_local *el)
{
	struct strbuf ignored = STRBUF_INIT;

	el->perf_cg = cgroup_create_own("mmcmp-perf", &ignored);
	strbuf_release(&ignored);
	if (!el->perf_cg)
		return;
	/* One directory: a cgroup without controllers is in the v2 tree. */
	el->perf_cg_fd = open(cgroup_where(el->perf_cg),
			      O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (el->perf_cg_fd < 0) {
		cgroup_remove(el->perf_cg, NULL);
		el->perf_cg = NULL;
		return;
	}
	monitor_set_perf_cgroup(&el->mon, el->perf_cg_fd);
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
	el->perf_cg_fd = -1;
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
	if (opts->perf_events && opts->perf_cgroup)
		count_own_cgroup(el);
	return &el->base;
}
