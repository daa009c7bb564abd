#ifndef MMCMP_IMPORT_MMTESTS_H
#define MMCMP_IMPORT_MMTESTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct run_full;
struct strbuf;
struct strvec;
struct monitor_count;

/*
 * import-mmtests: the results of mmtests (run-mmtests.sh) as mmcmp runs.
 *
 * import_mmtests() reads a whole tree into runs the caller owns, for
 * store_run_insert_full(); the mmtests_parse_*() functions below read one
 * file each, for it and its tests. What a tree holds and which benchmarks
 * are read: at import_mmtests(). Files may be gzip-compressed (NAME.gz).
 * Functions returning int give 0, or -1 after appending one line to err:
 * "FILE:LINE: message" for a file that does not parse, "PATH: message"
 * for a tree that is not an mmtests one.
 */

/*
 * Read path, a work/log directory (every RUN below it that has iter-N
 * directories) or one RUN directory. On success *runs is a new array of
 * *nr runs, ordered by RUN name, each complete for store_run_insert_full():
 * label RUN, config_name the RUN directory as reached from path, a uuid
 * derived from the run's contents (so importing the same tree again
 * finds it stored), status "complete", start and end times from
 * tests-timestamp and the machine facts the run recorded. The caller
 * frees it with run_full_free_array(). On failure *runs is NULL and *nr 0.
 *
 * mmtests writes work/log/RUN/iter-N/ per iteration of a run: the files
 * tests-timestamp ("test begin :: BENCH T", "time :: BENCH U user S
 * system E elapsed", ...), tests-sysstate[.gz] (the same lines and
 * /proc/vmstat before and after each benchmark), kernel.version (uname
 * -a), lscpu.txt[.gz], dmesg[.gz], and one directory per benchmark whose
 * logs/ the benchmark's parse-results reads. Each RUN becomes one run
 * labelled RUN; each iter-N and benchmark one iteration (index N) with
 * the samples parse-results would print, its user/system/elapsed time
 * from the "time ::" line (the Duration table) and the vmstat changes
 * of tests-sysstate (the Ops table). Operations are named as mmtests
 * names them; their order is that of mmtests' report.
 *
 * Benchmarks read (others are skipped):
 *   wis-*      logs/benchlog-WORKLOAD_MODEL-N[-...]: each "total:" line
 *              of will-it-scale is a sample of ops-WORKLOAD_MODEL-N,
 *              operations per second, higher is better; thread counts
 *              in numeric order, then the names.
 *   pft        logs/[base/]pft-CLIENTS.log: faults/cpu-C and faults/sec-C
 *              (columns 7 and 8 of pft's rows), higher is better.
 *   netperf-*  logs/protocols names the protocol P; each P-SIZE.K file is
 *              one sample of tcpstream-send-SIZE, tcprr-send-SIZE, ...
 *              (udpstream-send- and -recv-SIZE, both the sender's rate as
 *              mmtests reports it), higher is better.
 *   trunc and any other benchmark with logs/time-PHASE-1: GNU time's
 *              output per PHASE and iteration as Elapsed-PHASE,
 *              System-PHASE and User-PHASE in seconds (elapsed rounded to
 *              6 significant digits, as mmtests' awk does), lower is
 *              better; trunc with 4 decimals, others with 2.
 */
int import_mmtests(const char *path, struct strvec *warnings,
		   struct run_full **runs, size_t *nr, struct strbuf *err);

/*
 * The parsers of single files, for the importer and its tests. Each reads
 * len bytes of text (no NUL needed) from the file called name, which
 * messages quote with the line; they change nothing on failure.
 */

/* One line of parse-results' output: operation and value. */
struct mmtests_sample {
	char *op;
	double value;
};

struct mmtests_samples {
	struct mmtests_sample *v;
	size_t nr, alloc;
};

/* Append a sample of op (copied) to s. */
void mmtests_samples_add(struct mmtests_samples *s, const char *op,
			 double value);
/* Free every sample and zero s; NULL is a no-op. */
void mmtests_samples_release(struct mmtests_samples *s);

/*
 * A will-it-scale log: every line with "total:" gives op the number its
 * third field holds after "total:" (lines with fewer fields are skipped,
 * as mmtests' awk prints nothing for them). A value that is not a number
 * is an error. Lines skipped that will-it-scale does not print (random
 * bytes, a cut line) get one warning "NAME: N lines that are not
 * will-it-scale's skipped (the first at line L)" in warnings (NULL: none).
 */
int mmtests_parse_wis(const char *name, const char *text, size_t len,
		      const char *op, struct mmtests_samples *out,
		      struct strvec *warnings, struct strbuf *err);

/*
 * GNU time's default output ("0.14user 2.22system 0:02.35elapsed ..."):
 * the first line with user, system and elapsed fields; elapsed may be
 * [[H:]M:]S. Missing or malformed fields are an error.
 */
int mmtests_parse_gnu_time(const char *name, const char *text, size_t len,
			   double *user_s, double *sys_s, double *elapsed_s,
			   struct strbuf *err);

/*
 * One netperf output file: the last number of a row of numbers is the
 * rate. Rows of more than four numbers give *send; for UDP_STREAM (udp)
 * rows of six numbers give *send and rows of four *recv. Both stay 0
 * when there is no such row, as in mmtests. A row of digits that is not
 * a number is an error.
 */
int mmtests_parse_netperf(const char *name, const char *text, size_t len,
			  bool udp, double *send, double *recv,
			  struct strbuf *err);

/*
 * A pft log of client count `clients`: each row without letters (once
 * the 's' of the times is dropped) gives faults/cpu-CLIENTS (column 7)
 * to cpu and faults/sec-CLIENTS (column 8) to sec. Blank lines are
 * skipped; a row of fewer columns or no numbers is an error.
 */
int mmtests_parse_pft(const char *name, const char *text, size_t len,
		      const char *clients, struct mmtests_samples *cpu,
		      struct mmtests_samples *sec, struct strbuf *err);

/* What an iteration's tests-timestamp says of one benchmark. */
struct mmtests_timestamp {
	int64_t start, finish; /* epoch seconds of the iteration, or 0 */
	int64_t begin;	       /* "test begin" of the benchmark, or 0 */
	bool has_time;	       /* a "time ::" line was found */
	double user_s, sys_s, elapsed_s;
};

/*
 * Parse tests-timestamp (or tests-sysstate, which repeats its lines) for
 * benchmark bench. A "start ::", "finish ::", "test begin ::" or "time
 * ::" line that does not have its numbers is an error.
 */
int mmtests_parse_timestamp(const char *name, const char *text, size_t len,
			    const char *bench, struct mmtests_timestamp *ts,
			    struct strbuf *err);

/* The vmstat changes found for a benchmark, and its gauges' levels. */
struct mmtests_vmstat {
	bool found;		 /* both snapshots were there */
	struct monitor_count *v; /* the counters that changed, file order */
	size_t nr, alloc;
	/* Each gauge (monitor_vmstat_is_gauge()) not at 0 at the end. */
	struct monitor_count *end;
	size_t end_nr, end_alloc;
};

/* Free v's array and names and zero it; NULL is a no-op. */
void mmtests_vmstat_release(struct mmtests_vmstat *v);

/*
 * tests-sysstate: between "test begin :: bench" and "test end :: bench",
 * the "file start :: /proc/vmstat" and "file end :: /proc/vmstat"
 * snapshots; out gets end - start of every counter in both that
 * changed. A vmstat line that is not "name number" is an error; a
 * benchmark without both snapshots leaves out->found false.
 */
int mmtests_parse_sysstate(const char *name, const char *text, size_t len,
			   const char *bench, struct mmtests_vmstat *out,
			   struct strbuf *err);

#endif /* MMCMP_IMPORT_MMTESTS_H */
