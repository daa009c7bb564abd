#ifndef MMCMP_EXECUTOR_QEMU_H
#define MMCMP_EXECUTOR_QEMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct config;
struct executor;
struct plan;
struct strbuf;
struct strvec;

/*
 * executor-qemu: the executor (executor.h) that runs commands in a QEMU
 * guest, one boot at a time (executor_boot()), through the guest agent
 * over a serial line (vmproto.h). A guest that panics, dies, stops
 * answering or cannot read a request ends its boot: that command and the
 * rest of the boot's fail with the reason and the console's tail, until
 * the next boot. Bytes from the guest that are no frame, and results of
 * earlier requests, are skipped: a result is paired with its request by
 * number. Monitors
 * are read in the guest, around the command; periodic samples are not
 * taken there. Functions returning int give 0, or -1 with one line in
 * err. Use: executor_qemu_new(), then the executor's operations.
 */

struct executor_qemu_kernel {
	const char *name;
	const char *image;  /* a bzImage */
	const char *append; /* added to the kernel command line; may be NULL */
};

struct executor_qemu_opts {
	const char *qemu;  /* NULL: qemu-system-x86_64 in PATH */
	const char *agent; /* the static mmcmp-agent */
	/* Host paths of the programs to put in the guest, NULL-terminated. */
	char *const *programs;
	const struct executor_qemu_kernel *kernels;
	size_t kernels_nr;
	long cpus;
	int64_t memory_mb;
	const char *accel; /* "tcg" or "kvm" */
	/* Add norandmaps: no address-space randomisation in the guests. */
	bool norandmaps;
	double boot_timeout_s;
	bool monitors;
	size_t stdout_max; /* 0: the runner's default */
	/* perf events the agent counts per iteration; NULL: none */
	const struct strvec *perf_events;
};

/*
 * A new executor: checks the images, writes the initramfs into a new
 * directory under $TMPDIR (removed by executor_free()) and starts the
 * guard. No guest runs until executor_boot(). Per boot it starts qemu
 * with
 *
 *   -accel A -m MEM -smp CPUS -kernel IMAGE -initrd ROOT
 *   -append "console=ttyS0 panic=-1 oops=panic ... [norandmaps] APPEND"
 *   -nodefaults -display none -no-reboot
 *   -serial file:CONSOLE -serial unix:SOCKET
 *
 * the same for every kernel but for -kernel and -append; ROOT is an
 * initramfs (initramfs.h) written once per executor with the guest
 * agent as /init and every program the run needs (with its libraries),
 * each at its host path. ttyS0 is the console, kept in a file whose tail
 * explains a boot that failed; ttyS1 carries the protocol (vmproto.h).
 * The boot waits at most boot_timeout_s for the agent's hello; each
 * command is run by the agent under the request's timeout, and the host
 * waits that long plus boot_timeout_s before it gives the guest up, so a
 * hung guest costs one bounded wait. The guest keeps a command's stdout
 * up to what the serial line carries in boot_timeout_s (at most
 * stdout_max), so its result arrives in that wait. When *stop is set qemu is
 * stopped and the command is RUNNER_INTERRUPTED. qemu runs in its own process
 * group under the runner guard (runner_guard_start()), so it dies with
 * mmcmp even on SIGKILL.
 */
struct executor *executor_qemu_new(const struct executor_qemu_opts *opts,
				   struct strbuf *err);

/*
 * The kernel release of the bzImage at path, from its setup header (the
 * version string the header points to, up to the first blank), into
 * *release (the caller frees it). Fails for a file that is not a
 * bzImage, and without reading it for one that is not a regular file (a
 * FIFO, a device).
 */
int qemu_image_release(const char *path, char **release, struct strbuf *err);

/*
 * Whether `accel: kvm` works with qemu here: the bzImage at image is
 * booted under KVM without a root and must print its banner on the
 * console within timeout_s (a KVM that fails shows as an error of qemu,
 * or as a guest that hangs before the kernel runs). On failure err says
 * which (qemu exited with its last line, or the probe did not answer
 * within timeout_s, with qemu's last line as detail) and names
 * `accel: tcg`.
 */
int qemu_probe_kvm(const char *qemu, const char *image, double timeout_s,
		   struct strbuf *err);

/* The first line of `qemu --version` into out; -1 when qemu is missing. */
int qemu_version(const char *qemu, struct strbuf *out, struct strbuf *err);

/*
 * Append to progs, each once, the host path of every program that plan
 * runs in the guest, found in path: the workloads, and the setups,
 * teardowns, prepare and conclude hooks of the config, builds and
 * workloads (a hook written as one string is /bin/sh's). -1 naming the
 * first that cannot be found. (executor-new.c)
 */
int executor_guest_programs(const struct config *cfg, const struct plan *plan,
			    const char *path, struct strvec *progs,
			    struct strbuf *err);

/*
 * The path of the guest agent, mmcmp-agent, into out: next to mmcmp in a
 * build tree, or in libexec installed. -1 when it is not there, saying
 * how it is built. (executor-new.c)
 */
int executor_find_agent(struct strbuf *out, struct strbuf *err);

#endif /* MMCMP_EXECUTOR_QEMU_H */
