#ifndef MMCMP_MONITOR_H
#define MMCMP_MONITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "strbuf.h"
#include "strmap.h"
#include "strvec.h"

/*
 * monitor: what the kernel counted while a workload ran. A snapshot is
 * one /proc file (enum monitor_source) parsed into name -> value pairs in
 * file order; the difference of two snapshots gives what happened in
 * between.
 *
 * Functions returning int give 0, or -1 after appending one line to err
 * ("PATH:LINE: message" for a file that does not parse).
 *
 * struct monitor runs the monitors of one iteration at a time for `mmcmp
 * run`: monitor_init() once, then monitor_begin() before the workload starts,
 * monitor_tick() every interval_s seconds while it runs (periodic samples,
 * optional) and monitor_end() after it was reaped; then `rec` holds what
 * store_monitor_add() stores.
 */

/*
 * The files a snapshot reads:
 *
 *   MONITOR_VMSTAT   /proc/vmstat, "name value" lines: every counter,
 *                    events (pgfault) and gauges (nr_free_pages) alike.
 *   MONITOR_MEMINFO  /proc/meminfo, "Name:   value kB" lines; values as
 *                    printed, so in KiB except for the few counts
 *                    (HugePages_Total, ...).
 *   MONITOR_CPU      the "cpu" line of /proc/stat: user, nice, system,
 *                    idle, iowait, irq, softirq, steal, guest and
 *                    guest_nice time in USER_HZ ticks (as many as the
 *                    kernel prints).
 */
enum monitor_source {
	MONITOR_VMSTAT,
	MONITOR_MEMINFO,
	MONITOR_CPU,
};
#define MONITOR_SOURCE_NR 3

/* "vmstat", "meminfo" or "cpu". */
const char *monitor_source_name(enum monitor_source source);
/* The /proc file that source reads. */
const char *monitor_source_path(enum monitor_source source);

/* One named value; where name points is said by whoever hands it out. */
struct monitor_value {
	const char *name;
	int64_t value;
};

struct monitor_values {
	struct monitor_value *v;
	size_t nr, alloc;
};

#define MONITOR_VALUES_INIT                                                    \
	{                                                                      \
		.v = NULL, .nr = 0, .alloc = 0                                 \
	}

/* Free the array (not the names) and zero it; NULL is a no-op. */
void monitor_values_release(struct monitor_values *mv);

/*
 * A parsed file. The names point into `text` (the file's bytes, cut up
 * in place) and stay valid until the snapshot is parsed again or
 * released. A snapshot is reused from iteration to iteration without new
 * allocations once it is large enough.
 */
struct monitor_snapshot {
	struct strbuf text;
	struct monitor_values values;
};

#define MONITOR_SNAPSHOT_INIT                                                  \
	{                                                                      \
		.text = STRBUF_INIT, .values = MONITOR_VALUES_INIT             \
	}

void monitor_snapshot_release(struct monitor_snapshot *snap);

/*
 * Parse len bytes of text as source's file into snap (replacing what it
 * held); name says where the text came from, for messages. A line that
 * does not have the file's form, an empty name or a value that is not an
 * unsigned 64-bit decimal number is an error; so is a MONITOR_CPU text
 * without a "cpu" line.
 */
int monitor_parse(struct monitor_snapshot *snap, enum monitor_source source,
		  const char *name, const char *text, size_t len,
		  struct strbuf *err);

/* Read and parse path (NULL: monitor_source_path()) into snap. */
int monitor_read(struct monitor_snapshot *snap, enum monitor_source source,
		 const char *path, struct strbuf *err);
/*
 * Read and parse the file open on fd from its start into snap, with
 * pread(), so that a descriptor kept open serves every snapshot (no open
 * and close each time); path names it in messages.
 */
int monitor_pread(struct monitor_snapshot *snap, enum monitor_source source,
		  int fd, const char *path, struct strbuf *err);

/*
 * Set out (emptied first) to after - before for every value of after
 * whose name before has too, in after's order; with nonzero_only the
 * zero differences are left out. The names are after's.
 *
 * Parsing is pure (monitor_parse()) and tested on fixture files; the
 * readers only add the I/O. Values are unsigned 64-bit in the files and
 * differences are taken modulo 2^64, so a counter that wrapped still gives
 * its small positive change and a gauge that fell gives a negative one.
 */
void monitor_delta(const struct monitor_snapshot *before,
		   const struct monitor_snapshot *after, bool nonzero_only,
		   struct monitor_values *out);

/*
 * What a guest sends of the snapshots before and after an iteration of
 * source (mmcmp-agent.c), as "name value" lines, so that the serial link
 * carries a few hundred bytes rather than every value twice: into
 * before_out, before's values that a record keeps (all of them, but for
 * MONITOR_VMSTAT, whose record keeps the changes and the gauges' levels
 * at the end, just those that changed and the gauges not at 0), and into
 * after_out those of after that differ from before's or that before
 * lacks. monitor_merge() makes after again from them;
 * monitor_record_fill() of the two gives the record the snapshots give.
 */
void monitor_encode(enum monitor_source source,
		    const struct monitor_snapshot *before,
		    const struct monitor_snapshot *after,
		    struct strbuf *before_out, struct strbuf *after_out);

/*
 * Make after from before and changes, the "name value" lines that
 * monitor_encode() wrote to after_out: before's values in its order,
 * each replaced by its change, then the changes of names before lacks.
 * Fails as monitor_parse() does on a bad line of changes (name says
 * where it came from).
 */
int monitor_merge(struct monitor_snapshot *after,
		  const struct monitor_snapshot *before, const char *name,
		  const char *changes, size_t len, struct strbuf *err);

/*
 * Whether /proc/vmstat item name is a gauge, a level such as
 * nr_free_pages or nr_mlock, rather than a count of events such as
 * pgfault: the node and zone items (nr_*, workingset_nodes) but for the
 * nr_* ones that count events (nr_dirtied, nr_written, nr_vmscan_write,
 * nr_vmscan_immediate_reclaim, nr_throttled_written, nr_foll_pin_*,
 * nr_tlb_*). A record's vmstat holds a gauge's change over the
 * iteration, which may be negative, not its level.
 */
bool monitor_vmstat_is_gauge(const char *name);

/*
 * The value of mv named name, looked for at index hint first (two reads
 * of one file list their names in the same order); NULL when none is.
 */
const struct monitor_value *monitor_values_find(const struct monitor_values *mv,
						const char *name, size_t hint);
/* The value called name in mv; false when there is none. */
bool monitor_values_get(const struct monitor_values *mv, const char *name,
			int64_t *value);

/*
 * Above this share of the machine used by other processes during an
 * iteration, `mmcmp run` warns and `mmcmp compare` notes it.
 */
#define MONITOR_BUSY_FRACTION 0.10

/*
 * The share of the machine, 0..1, that processes other than the workload
 * used while it ran: the busy time of the /proc/stat "cpu" line change
 * cpu (user, nice, system and steal: guest time is inside user and nice
 * already, steal is others' too; irq and softirq time is left out, as
 * it is no process's and a network workload causes much of it), in user_hz
 * ticks, less the workload's own user_s + sys_s (its rusage, children
 * included) and less one tick per CPU for the sampling of /proc/stat (so
 * a short iteration on a quiet machine reads 0 rather than noise), over
 * the capacity nr_cpus x elapsed_s; clamped to 0..1. NaN when elapsed_s,
 * nr_cpus or user_hz is not positive or cpu has no idle field.
 */
double monitor_other_cpu(const struct monitor_values *cpu, double user_s,
			 double sys_s, double elapsed_s, long nr_cpus,
			 long user_hz);

/*
 * The 1-minute load average, the first field of /proc/loadavg text, into
 * *out; false when text does not start with a number.
 */
bool monitor_parse_loadavg(const char *text, double *out);

/* One periodic sample, taken t_s seconds after monitor_begin(). */
struct monitor_sample {
	double t_s;
	struct monitor_values vmstat;  /* change since the last sample, != 0 */
	struct monitor_values cpu;     /* change since the last sample */
	struct monitor_values meminfo; /* values at the time */
};

/*
 * What one iteration's monitors recorded. Every name points into the
 * struct monitor that made it, and stays valid until its next
 * monitor_begin() or monitor_release().
 *
 * Besides the kernel's counters, a record says how busy the machine was:
 * the 1-minute load average of /proc/loadavg at start and end, and the
 * share of the machine that other processes used while the workload ran
 * (monitor_other_cpu(), set by monitor_set_workload() once the runner
 * has the workload's own CPU time). When the workload runs in a cgroup
 * (monitor_set_cgroup()), the cgroup's own counters (cgroup-stat.h) are
 * read at start and end too.
 */
struct monitor_record {
	struct monitor_values vmstat; /* end - start, non-zero ones only */
	/*
	 * The level at the end of every gauge (monitor_vmstat_is_gauge())
	 * that is not 0, when has_vmstat_end: always in a record the monitor
	 * made. A gauge left out stood at 0.
	 */
	bool has_vmstat_end;
	struct monitor_values vmstat_end;
	struct monitor_values cpu; /* end - start, every field */
	struct monitor_values meminfo_start, meminfo_end;
	double interval_s; /* of the periodic samples; 0: none taken */
	struct monitor_sample *samples;
	size_t samples_nr, samples_alloc;
	/* Busy machine; NaN where not known. */
	double other_cpu; /* share used by others: monitor_other_cpu() */
	double loadavg_start, loadavg_end; /* 1-minute load averages */
	/*
	 * The cgroup's counters (cgroup-stat.h), when the iteration ran in
	 * one (has_cgroup): the counters' changes (end - start, every one)
	 * and the gauges at start and end.
	 */
	bool has_cgroup;
	struct monitor_values cgroup;
	struct monitor_values cgroup_start, cgroup_end;
	/*
	 * The perf counters (monitor-perf.h), when asked for
	 * (monitor_set_perf()) and some could be opened (has_perf): each
	 * event's count over the iteration. perf_absent says which events
	 * were not counted and why (NULL: none); it points into the
	 * monitor, as the names do.
	 */
	bool has_perf;
	struct monitor_values perf;
	const char *perf_absent;
	/*
	 * What they counted, with has_perf: "cgroup", the tasks of the
	 * iterations' own cgroup, or "process", the command's process tree
	 * from its exec (monitor-perf.h); a static string.
	 */
	const char *perf_scope;
};

/*
 * The monitors of one iteration at a time, in the order of calls above.
 * The /proc files are opened once, at the first snapshot, and read again
 * from the start with pread() for each one (close-on-exec, closed by
 * monitor_release()). Reading the three files twice takes some 0.1-0.2
 * ms, most of it in the kernel formatting them (measured with
 * bench/run-overhead); `monitors: false` in a config saves it.
 */
struct monitor {
	double interval_s; /* 0: no periodic samples */
	/* [0] at the start, [1] at the end, [2] at the last sample. */
	struct monitor_snapshot snap[3][MONITOR_SOURCE_NR];
	struct monitor_snapshot now[MONITOR_SOURCE_NR];
	/* The cgroup's counters at start and end, when cgroup_procs. */
	struct monitor_snapshot cgroup[2];
	const char *const *cgroup_procs;
	int fds[MONITOR_SOURCE_NR]; /* kept open; -1: not opened yet */
	int loadavg_fd;		    /* /proc/loadavg, kept the same way */
	long nr_cpus, user_hz;	    /* for monitor_other_cpu() */
	uint64_t start_ns;
	/* The names of the periodic samples, each stored once. */
	struct strvec names;
	struct strmap name_index;
	/* The first error of a periodic sample; sampling stops after it. */
	struct strbuf tick_err;
	struct monitor_perf *perf; /* NULL: no perf counters */
	pid_t perf_pid;		   /* where they are opened (0: here) */
	struct strbuf perf_err;	   /* why none could be opened */
	struct monitor_record rec;
};

/* Set mon up; interval_s > 0 asks for periodic samples that often. */
void monitor_init(struct monitor *mon, double interval_s);

/*
 * Start an iteration: forget the last record and take the start
 * snapshots. On failure the iteration cannot be monitored.
 */
int monitor_begin(struct monitor *mon, struct strbuf *err);
/*
 * Take a periodic sample (a no-op without interval_s, or after a sample
 * failed: see tick_err). Meant to be called from the runner's poll loop,
 * so it reports nothing.
 */
void monitor_tick(struct monitor *mon);
/* Take the end snapshots and fill rec. */
int monitor_end(struct monitor *mon, struct strbuf *err);
/*
 * Before monitor_begin(): the workload of the next iterations runs in the
 * cgroups of these cgroup.procs files (runner_opts.cgroup_procs; borrowed
 * until the next call), whose counters the record then holds; NULL: none.
 */
void monitor_set_cgroup(struct monitor *mon, const char *const *cgroup_procs);
/*
 * Before monitor_begin(): count the perf events named in events
 * (monitor-perf.h; empty: the default set) in every iteration from now
 * on, opened last in monitor_begin() and read first in monitor_end(),
 * on process pid: the one that forks the iterations' commands (the
 * runner's guard; 0: this one). Fails, changing nothing, on an unknown
 * event name.
 */
int monitor_set_perf(struct monitor *mon, const struct strvec *events,
		     pid_t pid, struct strbuf *err);
/*
 * After monitor_set_perf(): count the tasks of the cgroup v2 directory
 * open as cgroup_fd instead (monitor_perf_set_cgroup()), where the kernel
 * allows, which monitor_perf_cgroup() tells after the first
 * monitor_begin(): then the iteration's command, and nothing else, must
 * run in that cgroup.
 */
void monitor_set_perf_cgroup(struct monitor *mon, int cgroup_fd);
bool monitor_perf_cgroup(const struct monitor *mon);
/*
 * After monitor_end(): the workload's own CPU time and wall time (its
 * runner result), from which rec.other_cpu is computed.
 */
void monitor_set_workload(struct monitor *mon, double user_s, double sys_s,
			  double elapsed_s);
/*
 * Fill rec from the start and end snapshots, snap[0] and snap[1], as
 * monitor_end() does after reading them; for snapshots taken elsewhere
 * (in a guest, executor-qemu.c) and parsed into them.
 */
void monitor_record_fill(struct monitor *mon);
/* Free everything; monitor_init() may set mon up again. NULL is a no-op. */
void monitor_release(struct monitor *mon);

#endif /* MMCMP_MONITOR_H */
