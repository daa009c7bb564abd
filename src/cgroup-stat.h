#ifndef MMCMP_CGROUP_STAT_H
#define MMCMP_CGROUP_STAT_H

#include <stdbool.h>

struct strbuf;

/*
 * cgroup-stat: the counters a cgroup keeps about itself, read for the
 * monitors (monitor.h) of an iteration that runs in a cgroup:
 * cgroup_stat_reset_peaks() and cgroup_stat_read() at its start,
 * cgroup_stat_read() again at its end, in the text monitor_parse() reads.
 * Which files are read and which values are counters or gauges: at
 * cgroup_stat_is_counter().
 *
 * Functions returning int give 0, or -1 after appending one line to err.
 */

/*
 * Whether value name (as below) is a counter rather than a gauge.
 *
 * Each value is named after its file, with the key for the files of
 * "key value" lines ("memory.stat.pgfault",
 * "memory.kmem.tcp.usage_in_bytes"), and is either a counter, whose change
 * over the iteration is recorded, or a gauge, whose values at start and
 * end are:
 *
 *   file                                  version  kind
 *   memory.stat                           v1, v2   counters: the pg*,
 *                                                  workingset_*, thp_*,
 *                                                  numa_*, zswp*, swpin*
 *                                                  and swpout* keys (also
 *                                                  after v1's "total_");
 *                                                  gauges: the rest (sizes)
 *   memory.events                         v2       counters
 *   cpu.stat                              v2 (v1)  counters
 *   memory.current, memory.peak (since the
 *   cgroup was made), memory.swap.current v2       gauges
 *   memory{,.kmem,.kmem.tcp,.memsw}
 *     .usage_in_bytes                     v1       gauges
 *     .max_usage_in_bytes                 v1       gauges (the peak, reset
 *                                                  per iteration: see
 *                                                  cgroup_stat_reset_peaks())
 *     .failcnt                            v1       counters
 *   cpuacct.stat, cpuacct.usage           v1       counters
 *
 * A file the cgroup does not have (another version, a controller not
 * enabled) is left out, and so are v1 memory.stat's hierarchical_*
 * limits (settings, not usage). Values are unsigned decimal numbers.
 */
bool cgroup_stat_is_counter(const char *name);

/*
 * Append text, the contents of cgroup file `file` (one of the table
 * above), to out as "name value" lines, one per value: /proc/vmstat's
 * form, which monitor_parse() reads. A line that is not "key value" in
 * a keyed file, or a single-value file that holds no number, is an
 * error naming path.
 */
int cgroup_stat_format(const char *file, const char *path, const char *text,
		       struct strbuf *out, struct strbuf *err);

/*
 * Read the files of the table from each cgroup whose cgroup.procs file
 * is in procs (NULL-terminated, as cgroup_procs() gives them) and append
 * them to out as cgroup_stat_format() does.
 */
int cgroup_stat_read(const char *const *procs, struct strbuf *out,
		     struct strbuf *err);

/*
 * Reset the v1 peaks (the max_usage_in_bytes files: writing 0 sets them
 * to the current usage) of each cgroup in procs, so that their values at
 * the end of an iteration are its own peaks. A file the cgroup does not
 * have is skipped.
 */
int cgroup_stat_reset_peaks(const char *const *procs, struct strbuf *err);

#endif /* MMCMP_CGROUP_STAT_H */
