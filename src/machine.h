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

/* Fill m (zeroed by the caller; release with machine_info_release()). */
void machine_info_read(struct machine_info *m);

/*
 * The start time of process pid in clock ticks after boot (field 22 of
 * /proc/PID/stat), or -1 when the process does not exist.
 */
int64_t machine_proc_start(pid_t pid);

/* The current UTC time as "YYYY-MM-DDTHH:MM:SSZ" into out. */
void machine_utc_now(char out[32]);

#endif /* MMCMP_MACHINE_H */
