#ifndef MMCMP_EXTRACT_H
#define MMCMP_EXTRACT_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf;
struct metric_spec;

/*
 * extract: turn the stdout of one run of a workload into samples of a
 * metric (struct metric_spec, config.h).
 *
 * Order of calls: extractor_new() once per metric, extractor_run() on the
 * output of each iteration, extractor_free(); extract_values() does all
 * three for a single use. The sources that read the output and what each
 * parser reads: at extractor_run().
 *
 * Errors: functions returning int give 0 or -1; on -1 they have appended
 * one line (no '\n') to err, which may be NULL, starting "metric 'NAME': ",
 * and the caller's array holds what it held on entry (its capacity may
 * have grown).
 */

/*
 * An extractor holds what one metric needs prepared (the compiled regex,
 * the checked path or parser field), so that running it over the output
 * of many iterations compiles nothing again. It keeps copies of what it
 * needs: the metric_spec may be freed once extractor_new() returns. One
 * extractor must not be run from two threads at once (it reuses a
 * scratch buffer).
 */
struct extractor;

/*
 * Prepare the extraction of metric m. Returns NULL after a message for
 * an invalid regex, path, parser or field, or a source that does not
 * read the output. The caller frees the result with extractor_free().
 *
 * The other sources (METRIC_ELAPSED, ...) come from the runner, not from
 * the output; asking an extractor for one is an error.
 */
struct extractor *extractor_new(const struct metric_spec *m,
				struct strbuf *err);

/*
 * Append the samples found in the len bytes at text (not necessarily
 * NUL-terminated, may hold NUL bytes) to the array (*v, *nr, *alloc),
 * which grows with ALLOC_GROW; *v may start NULL with *nr and *alloc 0.
 *
 * Three sources read the output:
 *
 * METRIC_REGEX   pattern is a POSIX extended regular expression with at
 *                least one group. It is matched repeatedly over the whole
 *                output with REG_NEWLINE semantics ('.' and '[^x]' stop at
 *                line ends, '^' and '$' match at them; NUL bytes count as
 *                line breaks). The first group of each match is one
 *                sample and must hold a finite number: a group that is
 *                empty, did not take part or holds anything else is an
 *                error naming the line.
 * METRIC_JSON    pattern is a path into the JSON document that is the
 *                whole output (syntax in json.h).
 * METRIC_PARSER  pattern names a parser for a known benchmark's output,
 *                field picks the value (NULL or "" for the default):
 *
 *   will-it-scale  total (default), min, max, per_task. One sample per
 *       "min:N max:N total:N" line in a measured section: the lines after
 *       a "measurement" line, up to the next "testcase:" or "warmup"
 *       line. Lines after "warmup" and before "measurement" are warm-up
 *       and never count, so a run cut short during warm-up gives none.
 *       Output with neither marker counts every line. per_task is total
 *       divided by N of the run's "tasks:N" line (mmcmp's wis prints one
 *       after "testcase:"; will-it-scale does not, so per_task is an error
 *       on its output), the per-task ops the robot and mmtests report.
 *   netperf  throughput (default), elapsed. One sample per data row of
 *       the TCP_STREAM, TCP_SENDFILE or TCP_MAERTS table: a row of five
 *       or more numbers, with or without the banner ("-P 0"). Throughput
 *       is the fifth column, in the units netperf printed (10^6bits/sec
 *       by default); it is the last column unless -c/-C add the CPU
 *       columns after it. A banner naming another test is an error.
 *   gnu-time  elapsed (default), user, system (seconds), maxrss (KiB).
 *       Reads the default format, -v and -p; one sample per report.
 *   stress-ng  STRESSOR or STRESSOR.METRIC, METRIC one of bogo-ops,
 *       wall-clock-time, user-time, system-time,
 *       bogo-ops-per-second-real-time (default),
 *       bogo-ops-per-second-usr-sys-time, cpu-usage-per-instance, max-rss.
 *       Reads the --metrics-brief or --metrics table (with "metrc:" or
 *       "info:" lines, or --log-brief) and, when the output holds a
 *       "metrics:" section, only the --yaml report. One sample per row.
 *   fio  [JOBNAME:]SECTION.KEY..., e.g. read.iops, write.bw,
 *       read.clat_ns.percentile.99.000000, or the shorthand read.clat_p99
 *       (also lat_pN and slat_pN; N may have a fraction, as in p99.9).
 *       Reads --output-format=json from the first line that starts with
 *       '{' (fio may print notes before it). One sample per job in jobs
 *       order, or for the jobs named JOBNAME; jobs without the value (no
 *       percentiles for a direction without I/O) are skipped, but a
 *       value that no job has, or no JSON at all, is an error.
 *   sysbench  events_per_sec (default), total_time (seconds), events,
 *       lat_min, lat_avg, lat_max, lat_sum, lat_pN (milliseconds; N is
 *       the --percentile, 95 by default).
 *   hackbench  time (default): each "Time: S" line, seconds.
 *   perf-bench  total_time (default; "Total time: S [sec]", seconds),
 *       throughput (each "N GB/sec" line of perf bench mem, converted to
 *       MB/sec using perf's binary units, 1 GB = 1024 MB), usecs_per_op
 *       and ops_per_sec (perf bench sched pipe). A throughput perf
 *       printed as inf or nan is an error.
 *   kv  NAME: every line of exactly two words "NAME VALUE"; a VALUE
 *       that is not a number is an error.
 *   netstream  throughput (default): each "instance N: V Mbit/s" line
 *       (Kbit/s and Gbit/s are converted), Mbit/s.
 *
 *   dbench  throughput (default; the "Throughput N MB/sec" line, MB/s),
 *       max_latency (its max_latency=, ms), OP.count, OP.avglat and
 *       OP.maxlat (ms) of operation OP of the table after "Operation
 *       Count AvgLat MaxLat", such as WriteX.avglat. One sample per run.
 *   fsmark  files_per_sec (default), app_overhead (microseconds): one
 *       sample per row of fs_mark's table after its "FSUse%" header.
 *   iperf3  throughput (default; the receiver's, Mbit/s), sender (the
 *       sender's, Mbit/s), retransmits (the sender's). One sample per
 *       client run (up to "iperf Done."): its [SUM] line with parallel
 *       streams, else each stream's. Output that starts with '{' is read
 *       as --json: end.sum_received, end.sum_sent.
 *   pgbench  tps (default; "tps = N (without initial connection time)"),
 *       latency_avg, latency_stddev, connection_time (ms), transactions,
 *       failed: one sample per report.
 *
 *   The text parsers take NUL bytes as line breaks and ignore a last line
 *   that does not end in a newline: it was cut off.
 *
 * Finding nothing in text output is not an error; output that is broken
 * in a way that can be named (JSON that does not parse, a JSON path that
 * selects nothing, a match that is not a number) is. No output, however
 * garbled or cut short, makes extractor_run() read outside the len bytes
 * it is given.
 */
int extractor_run(struct extractor *ex, const char *text, size_t len,
		  double **v, size_t *nr, size_t *alloc, struct strbuf *err);

/* Free ex; NULL is a no-op. */
void extractor_free(struct extractor *ex);

/*
 * extractor_new(), extractor_run() and extractor_free() in one call: for
 * a single use. Loops over iterations should keep an extractor instead.
 */
int extract_values(const struct metric_spec *m, const char *text, size_t len,
		   double **v, size_t *nr, size_t *alloc, struct strbuf *err);

/* Whether metric m is read from the output (regex, JSON or parser). */
bool extract_reads_output(const struct metric_spec *m);

/*
 * Whether name is a known parser and field (NULL or "" for the default)
 * one of its fields; false after a message naming the parser or field and
 * what is accepted. For the config loader, at load time.
 */
bool extract_parser_known(const char *name, const char *field,
			  struct strbuf *err);

#endif /* MMCMP_EXTRACT_H */
