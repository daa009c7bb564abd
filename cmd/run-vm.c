/* run-vm: mmcmp run with kernels, booted in QEMU guests. */
#include "run-vm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "executor-qemu.h"
#include "executor.h"
#include "machine.h"
#include "plan.h"
#include "run-data.h"
#include "runner.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"

/*
 * How long --check waits for a KVM guest to print its banner: one that
 * works does within a second or two, even on a loaded machine.
 */
#define KVM_PROBE_S 10

size_t *run_vm_boot_order(const struct config *cfg, size_t *nr)
{
	size_t *order;

	*nr = cfg->kernels_nr * (size_t)cfg->vm.boots;
	order = xcalloc(*nr ? *nr : 1, sizeof(*order));
	config_boot_order(&cfg->vm, cfg->kernels_nr, order);
	return order;
}

/* The agent: next to mmcmp in a build tree, or in libexec installed. */
static int find_agent(struct strbuf *out, struct strbuf *err)
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

/*
 * Every program the plan runs in the guest: workloads, and the setups,
 * teardowns, prepare and conclude hooks of the config, builds and
 * workloads (a hook written as one string is /bin/sh's).
 */
static int plan_programs(const struct config *cfg, const struct plan *plan,
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

struct executor *run_vm_executor(const struct config *cfg,
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
		.boot_timeout_s = cfg->vm.boot_timeout_s,
		.monitors = cfg->monitors,
	};

	for (size_t k = 0; k < cfg->kernels_nr; k++) {
		kernels[k].name = cfg->kernels[k].name;
		kernels[k].image = cfg->kernels[k].image;
		kernels[k].append = cfg->kernels[k].append;
	}
	if (find_agent(&agent, err) ||
	    plan_programs(cfg, plan, path, &progs, err))
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

/*
 * A guest must not make the host swap: its memory and 256 MiB for qemu
 * and mmcmp must fit in what the host has (MemTotal).
 */
static int overcommits(int64_t memory_mb, struct strbuf *err)
{
	struct machine_info mi = {0};
	int ret = 0;

	machine_info_read(&mi);
	if (mi.mem_bytes > 0 && (memory_mb + 256) * 1024 * 1024 > mi.mem_bytes)
		ret = error_addf(err,
				 "vm: memory %" PRId64 " MiB does not fit in "
				 "this machine's %" PRId64 " MiB with 256 MiB "
				 "for qemu; lower it",
				 memory_mb, mi.mem_bytes >> 20);
	machine_info_release(&mi);
	return ret;
}

int run_vm_ready(const struct config *cfg, const struct plan *plan,
		 const char *path, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	struct strvec progs = STRVEC_INIT;
	int ret = -1;

	if (runner_find_program("qemu-system-x86_64", getenv("PATH"), NULL,
				&sb)) {
		error_addf(err,
			   "program 'qemu-system-x86_64' is not installed; "
			   "install the Debian package 'qemu-system-x86' "
			   "(apt-get install qemu-system-x86)");
		goto out;
	}
	if (overcommits(cfg->vm.memory_mb, err))
		goto out;
	for (size_t k = 0; k < cfg->kernels_nr; k++) {
		const struct kernel_spec *ks = &cfg->kernels[k];
		char *release = NULL;

		if (access(ks->image, R_OK)) {
			error_addf(
				err,
				"kernel '%s': image '%s' is not installed: %s",
				ks->name, ks->image, strerror(errno));
			goto out;
		}
		if (qemu_image_release(ks->image, &release, err)) {
			error_addf(err, "kernel '%s'", ks->name);
			goto out;
		}
		free(release);
	}
	/* What the guest will not have is refused now, not per iteration. */
	if (plan_programs(cfg, plan, path, &progs, err))
		goto out;
	ret = find_agent(&sb, err);
out:
	strbuf_release(&sb);
	strvec_clear(&progs);
	return ret;
}

int run_vm_check(const struct config *cfg, char *const *labels,
		 struct strbuf *err)
{
	struct strbuf version = STRBUF_INIT, agent = STRBUF_INIT;
	size_t nr, *order = run_vm_boot_order(cfg, &nr);
	int ret = -1;

	if (qemu_version("qemu-system-x86_64", &version, err))
		goto out;
	printf("vm: %s, accel %s, %d vCPU%s, %" PRId64
	       " MiB, boot timeout %gs\n",
	       version.buf, cfg->vm.accel == CONFIG_ACCEL_KVM ? "kvm" : "tcg",
	       cfg->vm.cpus, cfg->vm.cpus == 1 ? "" : "s", cfg->vm.memory_mb,
	       cfg->vm.boot_timeout_s);
	for (size_t k = 0; k < cfg->kernels_nr; k++) {
		const struct kernel_spec *ks = &cfg->kernels[k];
		char *release = NULL;

		if (qemu_image_release(ks->image, &release, err)) {
			error_addf(err, "kernel '%s'", ks->name);
			goto out;
		}
		printf("kernel %s: %s (release %s)%s%s\n", ks->name, ks->image,
		       release, ks->append && *ks->append ? ", append " : "",
		       ks->append ? ks->append : "");
		free(release);
	}
	printf("boots:");
	for (size_t i = 0; i < nr; i++)
		printf(" %zu:%s", i + 1, cfg->kernels[order[i]].name);
	putchar('\n');
	for (size_t b = 0; b < cfg->builds_nr; b++)
		printf("  label %s boots kernel %s\n", labels[b],
		       cfg->kernels[cfg->builds[b].kernel].name);
	if (find_agent(&agent, err))
		goto out;
	if (cfg->vm.accel == CONFIG_ACCEL_KVM &&
	    qemu_probe_kvm("qemu-system-x86_64", cfg->kernels[0].image,
			   KVM_PROBE_S, err))
		goto out;
	ret = 0;
out:
	free(order);
	strbuf_release(&version);
	strbuf_release(&agent);
	return ret;
}

/* The --kernel options into cfg's kernels. */
int run_vm_add_kernels(struct config *cfg, const struct strvec *kernels,
		       struct strbuf *err)
{
	for (size_t i = 0; i < kernels->nr; i++)
		if (config_add_kernel(cfg, kernels->v[i], err))
			return -1;
	return 0;
}
