#ifndef MMCMP_MONITOR_PERF_H
#define MMCMP_MONITOR_PERF_H

#include <stdbool.h>
#include <stddef.h>
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
 * exit and nothing of the starter's own. Software events
 * (task-clock, page faults, ...), hardware events where the machine has
 * a PMU, and mm tracepoints (direct and memcg reclaim, compaction, THP
 * collapse; their ids read from tracefs at /sys/kernel/tracing or
 * /sys/kernel/debug/tracing), counted; a tracepoint's count needs no
 * ring buffer, the time between begin and end would (a sample per event,
 * with its timestamp), so none is summed. An event that
 * cannot be opened is absent, with the reason, and not tried again.
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
 * Add to perf table mt the rows derived per iteration from two counters
 * it has: "IPC" = instructions / cycles, "cache-MPKI" = cache-misses and
 * "dTLB-MPKI" = dTLB-load-misses per 1000 instructions; NaN where the
 * divisor is 0. Rows whose counters are missing are not added.
 */
void monitor_perf_derive(struct monitor_table *mt);

/*
 * The counters of the events in names (as monitor_perf_known(); NULL or
 * empty: "default"), or NULL with a line in err naming an unknown event.
 * Free with monitor_perf_free().
 */
struct monitor_perf *monitor_perf_new(const struct strvec *names,
				      struct strbuf *err);
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
 * Read and close the counters into out (emptied first): one value per
 * event opened, in table order, zeros included.
 */
int monitor_perf_end(struct monitor_perf *mp, struct monitor_values *out,
		     struct strbuf *err);
/*
 * Close the counters without reading them (an interrupted iteration);
 * a no-op when none is open.
 */
void monitor_perf_cancel(struct monitor_perf *mp);
/*
 * The absent events and why, one clause per reason, e.g.
 * "cycles, instructions: no such event here (No such file or
 * directory)"; NULL when every event was opened. Valid until the next
 * monitor_perf_begin() or monitor_perf_free().
 */
const char *monitor_perf_absent(const struct monitor_perf *mp);
/* Close what is open and free mp; NULL is a no-op. */
void monitor_perf_free(struct monitor_perf *mp);

#endif /* MMCMP_MONITOR_PERF_H */
