#ifndef MMCMP_MONITOR_PERF_H
#define MMCMP_MONITOR_PERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct monitor_table;
struct monitor_values;
struct strbuf;
struct strvec;

/*
 * monitor-perf: kernel event counters of one iteration, opened with
 * perf_event_open() on the process that starts its command (mmcmp, or
 * the runner's guard that forks for it) with inherit and enable_on_exec,
 * so that they count the iteration's process tree from its exec to its
 * exit and nothing of the starter's own. Software events, hardware
 * events where the machine has a PMU, and mm tracepoints (reclaim,
 * compaction, THP collapse; ids from tracefs), counted. Where both
 * events of a stall's begin/end pair are asked for, they are sampled
 * too (each event's tid and CLOCK_MONOTONIC time), one event per online
 * CPU since the kernel maps no ring buffer of an inherited event on all
 * CPUs, into a bounded ring per CPU drained at the iteration's end (and
 * each monitor tick): begin to end per task, summed, is a stall row
 * (monitor_perf_stalls_sum()). An event that cannot be opened is
 * absent, with the reason, and not tried again.
 *
 * Functions returning int give 0, or -1 after appending one line to err.
 * The names handed out point into a static table and live for ever.
 */
struct monitor_perf;

/*
 * Whether name is an event this module knows, or "default" (every one).
 * Used by the config loader to refuse a misspelt event.
 */
bool monitor_perf_known(const char *name);
/*
 * The event names known, comma-separated, for messages and docs.
 * Static.
 */
const char *monitor_perf_names(void);
/*
 * The unit of event name's stored value ("ms" for task-clock, whose
 * nanoseconds are divided by monitor_perf_scale()), "" for counts.
 */
const char *monitor_perf_unit(const char *name);
/* What the stored value of name is multiplied by for its unit. */
double monitor_perf_scale(const char *name);
/*
 * Whether more of name is better: only for the derived IPC; every event
 * counts a cost.
 */
bool monitor_perf_higher_better(const char *name);
/*
 * The stall rows: time in ns from each begin tracepoint to its end, in
 * the same task, summed over the iteration; unit "ms".
 */
enum monitor_perf_stall {
	MONITOR_PERF_DIRECT_RECLAIM, /* "direct-reclaim-stall" */
	MONITOR_PERF_MEMCG_RECLAIM,  /* "memcg-reclaim-stall" */
	MONITOR_PERF_COMPACTION,     /* "compaction-stall" */
	MONITOR_PERF_STALLS_NR
};

/* A begin or end of a stall, from one sample. */
struct monitor_perf_mark {
	uint64_t time_ns; /* CLOCK_MONOTONIC */
	uint32_t tid;
	enum monitor_perf_stall stall;
	bool begin;
	size_t seq; /* arrival order, which breaks ties of time_ns */
};

/*
 * What the rings of one iteration gave: the marks, the sample ids of
 * the sampled events (one per event and CPU), how many samples of each
 * begin [0] and end [1] event arrived and the records the kernel said
 * it lost (PERF_RECORD_LOST). Embedded in struct monitor_perf; a value
 * struct so that tests can feed it synthetic records.
 */
struct monitor_perf_stalls {
	struct monitor_perf_mark *v;
	size_t nr, alloc;
	struct monitor_perf_stall_id {
		uint64_t id;
		enum monitor_perf_stall stall;
		bool begin;
	} * ids;
	size_t ids_nr, ids_alloc;
	bool active[MONITOR_PERF_STALLS_NR]; /* both events sampled */
	uint64_t seen[MONITOR_PERF_STALLS_NR][2];
	uint64_t lost;	    /* records, from PERF_RECORD_LOST */
	uint64_t throttled; /* PERF_RECORD_THROTTLEs */
};

/*
 * Decode one perf record of size bytes (its header first) sampled with
 * PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME: a sample
 * of a known id becomes a mark, a PERF_RECORD_LOST adds to lost, other
 * records and malformed ones are skipped.
 */
void monitor_perf_stalls_record(struct monitor_perf_stalls *s,
				const unsigned char *rec, size_t size);
/*
 * Append to out the stall rows of each active stall: the marks sorted
 * by time, paired per task and stall (a nested begin waits for its own
 * end: the outermost pair counts), a begin still open at end_ns closed
 * there, an end without a begin ignored. counted[k][0|1]: how many
 * times the begin and end events fired (their counters' values). Where
 * fewer samples arrived than the events fired, the records were lost
 * and the sum would be wrong: the stall's row is left out, its
 * "NAME-lost" row (the samples missing) added instead and a clause
 * appended to note. Empties the marks and counts for the next iteration.
 */
void monitor_perf_stalls_sum(struct monitor_perf_stalls *s,
			     const uint64_t counted[][2], uint64_t end_ns,
			     struct monitor_values *out, struct strbuf *note);
/* Free what s holds. */
void monitor_perf_stalls_release(struct monitor_perf_stalls *s);

/*
 * Add to perf table mt the rows derived per iteration from two counters
 * it has: "IPC" = instructions / cycles, "cache-MPKI" = cache-misses and
 * "dTLB-MPKI" = dTLB-load-misses per 1000 instructions; NaN where the
 * divisor is 0. Rows whose counters are missing are not added. A stall
 * row of an iteration that has a "NAME-lost" row becomes NaN there (the
 * loader padded it with 0).
 */
void monitor_perf_derive(struct monitor_table *mt);
/*
 * Drain the stall rings while the iteration runs, so that they do not
 * fill; a no-op without them. Quick: called by monitor_tick().
 */
void monitor_perf_drain(struct monitor_perf *mp);

/*
 * The counters of the events in names (as monitor_perf_known(); NULL or
 * empty: "default"), or NULL with a line in err naming an unknown event.
 * Free with monitor_perf_free().
 */
struct monitor_perf *monitor_perf_new(const struct strvec *names,
				      struct strbuf *err);
/*
 * Count the tasks of a cgroup v2 directory (open fd cgroup_fd, the
 * caller's, open as long as mp) rather than a process tree: at the first
 * monitor_perf_begin() each event is opened on every CPU
 * (PERF_FLAG_PID_CGROUP) and stays open for every iteration, which gets
 * what they counted between its begin and its end, so that no counter is
 * copied into every forked process and back at its exit. The caller puts
 * the iteration's command, and nothing else, in the cgroup. Where the
 * kernel refuses (not permitted, no perf_event controller on that
 * hierarchy), process trees are counted after all, from pid as below.
 */
void monitor_perf_set_cgroup(struct monitor_perf *mp, int cgroup_fd);
/* Whether the iterations count the cgroup (after the first begin). */
bool monitor_perf_counts_cgroup(const struct monitor_perf *mp);
/*
 * Open the counters on process pid (0: the calling thread), which must
 * be single-threaded and never exec itself; they stay off until the
 * exec of a child it forks after this call, so call it right before
 * starting the iteration's command, and monitor_perf_end() right after
 * reaping it. Events that fail to open are absent from then on. Fails
 * only when none of them could be opened.
 */
int monitor_perf_begin(struct monitor_perf *mp, pid_t pid, struct strbuf *err);
/*
 * Read the counters into out (emptied first), and close them unless they
 * count a cgroup: one value per event opened, in table order, zeros
 * included, then the stall rows. A stall not summed for lost records is
 * said in monitor_perf_absent().
 */
int monitor_perf_end(struct monitor_perf *mp, struct monitor_values *out,
		     struct strbuf *err);
/*
 * Close the counters without reading them (an interrupted iteration);
 * a no-op when none is open. A cgroup's stay open: its next begin starts
 * from what they hold then.
 */
void monitor_perf_cancel(struct monitor_perf *mp);
/*
 * The absent events and why, one clause per reason, e.g.
 * "cycles, instructions: no such event here (No such file or
 * directory)"; NULL when every event was opened and no stall lost
 * records. Valid until the next monitor_perf_begin(), monitor_perf_end()
 * or monitor_perf_free().
 */
const char *monitor_perf_absent(const struct monitor_perf *mp);
/* Close what is open and free mp; NULL is a no-op. */
void monitor_perf_free(struct monitor_perf *mp);

#endif /* MMCMP_MONITOR_PERF_H */
