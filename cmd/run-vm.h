#ifndef MMCMP_RUN_VM_H
#define MMCMP_RUN_VM_H

#include <stddef.h>

struct config;
struct plan;
struct executor;
struct strbuf;
struct strvec;

/*
 * run-vm: what `mmcmp run` does for a config with kernels (the executor
 * that boots them is executor_new()'s): the boot order, and the checks
 * of images, qemu and KVM. Functions returning int give 0, or -1 with
 * one line in err.
 */

/* Add the --kernel NAME=IMAGE[,append=...] options to cfg's kernels. */
int run_vm_add_kernels(struct config *cfg, const struct strvec *kernels,
		       struct strbuf *err);

/* The kernel of each boot, config_boot_order(); *nr of them (caller frees). */
size_t *run_vm_boot_order(const struct config *cfg, size_t *nr);

/*
 * Whether cfg's kernels can boot here: qemu is installed, each image is
 * there and a bzImage, every program plan runs in the guest (workloads
 * and hooks, found in path as executor_new() finds them) is there to
 * pack, the guest agent is built. Run before anything else, as the
 * programs are checked; its errors are usage errors.
 */
int run_vm_ready(const struct config *cfg, const struct plan *plan,
		 const char *path, struct strbuf *err);

/*
 * --check: print the boot schedule, check the images (bzImages, with
 * their releases), qemu and, with accel: kvm, that KVM works.
 */
int run_vm_check(const struct config *cfg, char *const *labels,
		 struct strbuf *err);

#endif /* MMCMP_RUN_VM_H */
