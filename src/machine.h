#ifndef MMCMP_MACHINE_H
#define MMCMP_MACHINE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct strbuf;
struct machine_info;

/*
 * machine: facts about the machine and process that a run records.
 * Reading is best effort: a fact that cannot be read is left NULL or 0,
 * never an error, since a benchmark must run on any kernel.
 */

/*
 * Fill m (zeroed by the caller; release with machine_info_release()):
 * hostname and uname, /proc/cmdline, the CPU model of /proc/cpuinfo,
 * online CPUs, MemTotal; the transparent hugepage modes of
 * /sys/kernel/mm/transparent_hugepage/{enabled,defrag}, cpu0's cpufreq
 * governor, the nodeN entries of /sys/devices/system/node, SMT from
 * /sys/devices/system/cpu/smt/control (or active), the cgroup layout from
 * the filesystem types under /sys/fs/cgroup (statfs), and the SHA-256 of
 * /proc/config.gz, else of /boot/config-RELEASE.
 */
void machine_info_read(struct machine_info *m);

/*
 * The selected word of a sysfs choice file ("always [madvise] never\n"
 * gives "madvise"), or the whole text without surrounding blanks when it
 * has no brackets; NULL when that is empty. The caller frees it.
 */
char *machine_sysfs_choice(const char *text);

/*
 * The start time of process pid in clock ticks after boot (field 22 of
 * /proc/PID/stat), or -1 when the process does not exist.
 */
int64_t machine_proc_start(pid_t pid);

/* The current UTC time as "YYYY-MM-DDTHH:MM:SSZ" into out. */
void machine_utc_now(char out[32]);

#endif /* MMCMP_MACHINE_H */
