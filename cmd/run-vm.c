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

	if (cfg->machine.set) {
		error_addf(err,
			   "%s boots its kernels on this machine "
			   "('machine:'): use mmcmp campaign start",
			   cfg->path ? cfg->path : cfg->name);
		goto out;
	}
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
	if (executor_guest_programs(cfg, plan, path, &progs, err))
		goto out;
	ret = executor_find_agent(&sb, err);
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
	       " MiB, boot timeout %gs, %s\n",
	       version.buf, cfg->vm.accel == CONFIG_ACCEL_KVM ? "kvm" : "tcg",
	       cfg->vm.cpus, cfg->vm.cpus == 1 ? "" : "s", cfg->vm.memory_mb,
	       cfg->vm.boot_timeout_s,
	       config_vm_norandmaps(&cfg->vm)
		       ? "no address-space randomisation (norandmaps)"
		       : "the kernel's address-space randomisation");
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
	if (executor_find_agent(&agent, err))
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
