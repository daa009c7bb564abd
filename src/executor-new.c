/* executor-new: the executor a config asks for, local or in QEMU guests. */
#include "executor.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroup.h"
#include "config.h"
#include "executor-qemu.h"
#include "plan.h"
#include "runner.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"

int executor_find_agent(struct strbuf *out, struct strbuf *err)
{
	static const char *const where[] = {
		"../guest/mmcmp-agent",
		"../libexec/mmcmp/mmcmp-agent",
	};
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return error_addf(err, "cannot find mmcmp's own directory");
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(where); i++) {
		strbuf_reset(out);
		strbuf_addf(out, "%s/%s", exe, where[i]);
		if (!access(out->buf, X_OK))
			return 0;
	}
	return error_addf(
		err, "the guest agent 'mmcmp-agent' is not installed: it is "
		     "built where static linking works (the Debian package "
		     "libc6-dev) and without sanitizers");
}

/* Add the program of argv (found in path) to progs, once. */
static int add_program(const char *name, const char *path, struct strvec *progs,
		       struct strbuf *err)
{
	struct strbuf file = STRBUF_INIT;
	int e;

	if (!name)
		return 0;
	e = runner_find_program(name, path, NULL, &file);
	if (e) {
		strbuf_release(&file);
		return error_addf(err, "program '%s' for the guest: %s", name,
				  strerror(e));
	}
	for (size_t i = 0; i < progs->nr; i++)
		if (!strcmp(progs->v[i], file.buf)) {
			strbuf_release(&file);
			return 0;
		}
	strvec_push_nodup(progs, strbuf_detach(&file, NULL));
	return 0;
}

static int add_commands(const struct command_list *cl, const char *path,
			struct strvec *progs, struct strbuf *err)
{
	for (size_t i = 0; i < cl->nr; i++)
		if (add_program(cl->v[i].v[0], path, progs, err))
			return -1;
	return 0;
}

/* The setup, teardown, prepare and conclude commands of one level. */
static int add_hooks(const struct command_list *const lists[4],
		     const char *path, struct strvec *progs, struct strbuf *err)
{
	for (size_t i = 0; i < 4; i++)
		if (add_commands(lists[i], path, progs, err))
			return -1;
	return 0;
}

int executor_guest_programs(const struct config *cfg, const struct plan *plan,
			    const char *path, struct strvec *progs,
			    struct strbuf *err)
{
	const struct command_list *const top[4] = {
		&cfg->setup, &cfg->teardown, &cfg->prepare, &cfg->conclude};

	if (add_hooks(top, path, progs, err))
		return -1;
	for (size_t j = 0; j < plan->nr; j++) {
		const struct job *job = &plan->jobs[j];
		const struct workload_spec *wl = job->wl;
		const struct build_spec *b = job->build;
		const struct command_list *const of_wl[4] = {
			&wl->setup, &wl->teardown, &wl->prepare, &wl->conclude};

		if (add_program(job->argv.v[0], path, progs, err) ||
		    add_hooks(of_wl, path, progs, err))
			return -1;
		if (b) {
			const struct command_list *const of_b[4] = {
				&b->setup, &b->teardown, &b->prepare,
				&b->conclude};

			if (add_hooks(of_b, path, progs, err))
				return -1;
		}
	}
	return 0;
}

/* The QEMU executor of executor_new(). */
static struct executor *qemu_executor(const struct config *cfg,
				      const struct plan *plan, const char *path,
				      struct strbuf *err)
{
	struct executor_qemu_kernel *kernels =
		xcalloc(cfg->kernels_nr, sizeof(*kernels));
	struct strvec progs = STRVEC_INIT;
	struct strbuf agent = STRBUF_INIT;
	struct executor *ex = NULL;
	struct executor_qemu_opts o = {
		.kernels = kernels,
		.kernels_nr = cfg->kernels_nr,
		.cpus = cfg->vm.cpus,
		.memory_mb = cfg->vm.memory_mb,
		.accel = cfg->vm.accel == CONFIG_ACCEL_KVM ? "kvm" : "tcg",
		.norandmaps = config_vm_norandmaps(&cfg->vm),
		.boot_timeout_s = cfg->vm.boot_timeout_s,
		.monitors = cfg->monitors,
		.perf_events = cfg->perf_events.nr ? &cfg->perf_events : NULL,
	};

	for (size_t k = 0; k < cfg->kernels_nr; k++) {
		kernels[k].name = cfg->kernels[k].name;
		kernels[k].image = cfg->kernels[k].image;
		kernels[k].append = cfg->kernels[k].append;
	}
	if (executor_find_agent(&agent, err) ||
	    executor_guest_programs(cfg, plan, path, &progs, err))
		goto out;
	o.agent = agent.buf;
	o.programs = progs.v;
	ex = executor_qemu_new(&o, err);
out:
	free(kernels);
	strvec_clear(&progs);
	strbuf_release(&agent);
	return ex;
}

/* Whether spec (a path of NULL: none) puts the workloads in a cgroup v2. */
static bool in_v2(const struct cgroup_spec *spec)
{
	struct cgroup_place *places = NULL;
	size_t nr = 0;
	bool v2 = false;

	if (!spec->path)
		return false;
	/* One it cannot place fails the run later, and says why. */
	if (cgroup_plan(spec, NULL, &places, &nr, NULL))
		return true;
	for (size_t i = 0; i < nr; i++)
		v2 |= places[i].v2;
	cgroup_places_free(places, nr);
	return v2;
}

/*
 * Whether the config or a build of it puts the workloads in a cgroup v2,
 * where a process is in one cgroup only: then the perf counters cannot
 * count a cgroup of their own. A cgroup v1 one (a hybrid layout's memory
 * controller) leaves them the v2 tree.
 */
static bool any_v2_cgroup(const struct config *cfg)
{
	bool any = in_v2(&cfg->cgroup);

	for (size_t b = 0; b < cfg->builds_nr; b++)
		any |= in_v2(&cfg->builds[b].cgroup);
	return any;
}

struct executor *executor_new(const struct config *cfg, const struct plan *plan,
			      const char *path, struct strbuf *err)
{
	struct executor_local_opts eo = {
		.monitors = cfg->monitors,
		.interval_s = cfg->monitor_interval_s,
		.perf_events = cfg->perf_events.nr ? &cfg->perf_events : NULL,
		.perf_cgroup = !any_v2_cgroup(cfg),
	};

	if (cfg->kernels_nr)
		return qemu_executor(cfg, plan, path, err);
	return executor_local_new(&eo, err);
}
