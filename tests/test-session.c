/*
 * Unit tests for session: the run engine with a store in a temporary file
 * and fake-bench as the workload, through the local executor: the order
 * of iterations with and without interleaving, warm-ups, on_error: abort,
 * extraction failures, truncated stdout, labels that have runs, --append
 * and --replace, a failing setup, a write lock held by another connection.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "test-files.h"
#include "config.h"
#include "executor.h"
#include "plan.h"
#include "run-data.h"
#include "session.h"
#include "store.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"

static const char *fake_bench;

/* One metric: every "total:N" that fake-bench prints. */
#define TOTAL                                                                  \
	"    metrics:\n"                                                       \
	"      - { name: total, extract: { regex: \"total:([0-9]+)\" } }\n"

/* A workload that prints one value, and a config of it alone. */
#define ONE_VALUE_WORKLOAD                                                     \
	"workloads:\n  - name: w\n"                                            \
	"    command: [\"@B\", \"--values\", \"1\"]\n"                         \
	"    operation: op\n" TOTAL
#define ONE_VALUE "name: t\niterations: 1\n" ONE_VALUE_WORKLOAD

/* A workload that fails, then one that works. */
#define BAD_THEN_GOOD                                                          \
	"workloads:\n  - name: bad\n"                                          \
	"    command: [\"@B\", \"--exit\", \"3\"]\n"                           \
	"    operation: bad\n" TOTAL "  - name: good\n"                        \
	"    command: [\"@B\", \"--values\", \"1\"]\n"                         \
	"    operation: good\n" TOTAL

#define BUILDS                                                                 \
	"builds:\n"                                                            \
	"  a: { env: { X: a } }\n"                                             \
	"  b: { env: { X: b } }\n"

/* The settings file the settings cases write, under the test's root. */
#define THP	 "/sys/kernel/mm/transparent_hugepage/enabled"
#define THP_TEXT "always [madvise] never\n"

/* Appends NAME to the hook log @F. */
#define LOG(name) "[\"/bin/sh\", \"-c\", \"echo " name " >> @F\"]"

/* A workload that logs "w", or what @R THP holds, then prints a value. */
#define LOGGING_WORKLOAD(what, extra)                                          \
	"workloads:\n  - name: w\n"                                            \
	"    shell: true\n"                                                    \
	"    command: \"" what " >> @F; echo total:1\"\n" extra                \
	"    operation: op\n" TOTAL

/* Counts a workload's runs in file @F.NAME: n is 1, 2, ... */
#define COUNTER(name)                                                          \
	"n=$(cat @F." name " 2>/dev/null || echo 0); n=$((n + 1)); "           \
	"echo $n > @F." name "; "

/*
 * Each case runs its config (with "@B" standing for fake-bench) `runs`
 * times into a new store, under label "t" ("t-a", "t-b" with builds), the
 * last time with `append` or `replace`. The wants are about the last
 * run. progress lists its progress events as LABEL:OPERATION:{w,i}INDEX;
 * iterations its stored iterations, build by build, as
 * {w,i}:STATUS:SAMPLES; summary each build's LABEL
 * iterations/failed/samples and the measured samples the store holds.
 * warning and tail are substrings of the warnings and of a stored
 * stderr tail (NULL: no warning; no tail looked for). taken: the last
 * run is refused, as its label has runs. Before each case the file THP
 * under the settings root @R holds THP_TEXT and the hook log @F is
 * empty; log is what @F holds after the run (lines joined by spaces),
 * thp what THP holds, settings the settings recorded with each run as
 * "LABEL: PATH OLD -> NEW;". stop_at sets the stop flag at that progress
 * event (1-based).
 */
static const struct {
	const char *name;
	const char *config;
	int runs;
	bool append, replace;
	const char *error; /* of session_run(), a substring; NULL: none */
	const char *status;
	const char *progress;
	const char *iterations;
	const char *summary;
	const char *warning;
	const char *tail;
	size_t label_runs; /* runs of the first label in the end */
	bool taken;
	bool stop, cut;	      /* *stop and *cut are set before session_run() */
	const char *log;      /* NULL: "" */
	const char *thp;      /* NULL: THP_TEXT, untouched */
	const char *settings; /* NULL: "" */
	size_t stop_at;
	const char *setup; /* NULL: not looked at; a substring of setups */
} cases[] = {
	{
		.name = "warm-ups run first and are not counted",
		.config = "name: t\niterations: 2\nwarmup: 1\n"
			  "workloads:\n  - name: w\n"
			  "    command: [\"@B\", \"--values\", \"5,6\"]\n"
			  "    operation: op\n" TOTAL,
		.runs = 1,
		.status = "complete",
		.progress = "t:op:w1 t:op:i1 t:op:i2",
		.iterations = "w:ok:2 i:ok:2 i:ok:2",
		.summary = "t 2/0/4 stored 4",
		.label_runs = 1,
	},
	{
		.name = "interleaved builds alternate, every other round reversed",
		.config =
			"name: t\niterations: 2\ninterleave: true\n" ONE_VALUE_WORKLOAD
				BUILDS,
		.runs = 1,
		.status = "complete",
		.progress = "t-a:op:i1 t-b:op:i1 t-b:op:i2 t-a:op:i2",
		.iterations = "i:ok:1 i:ok:1 i:ok:1 i:ok:1",
		.summary = "t-a 2/0/2 stored 2 t-b 2/0/2 stored 2",
		.label_runs = 1,
	},
	{
		.name = "builds in sequence without interleaving",
		.config =
			"name: t\niterations: 2\ninterleave: false\n" ONE_VALUE_WORKLOAD
				BUILDS,
		.runs = 1,
		.status = "complete",
		.progress = "t-a:op:i1 t-a:op:i2 t-b:op:i1 t-b:op:i2",
		.iterations = "i:ok:1 i:ok:1 i:ok:1 i:ok:1",
		.summary = "t-a 2/0/2 stored 2 t-b 2/0/2 stored 2",
		.label_runs = 1,
	},
	{
		.name = "on_error: abort stops at the first failure",
		.config =
			"name: t\niterations: 3\non_error: abort\n" BAD_THEN_GOOD,
		.runs = 1,
		.status = "failed",
		.progress = "t:bad:i1",
		.iterations = "i:exit:0",
		.summary = "t 1/1/0 stored 0",
		.warning = "t: bad iteration 1 failed: exit",
		.label_runs = 1,
	},
	{
		.name = "a failing iteration does not stop the run",
		.config = "name: t\niterations: 1\n" BAD_THEN_GOOD,
		.runs = 1,
		.status = "complete",
		.progress = "t:bad:i1 t:good:i1",
		.iterations = "i:exit:0 i:ok:1",
		.summary = "t 2/1/1 stored 1",
		.warning = "t: bad iteration 1 failed: exit",
		.label_runs = 1,
	},
	{
		.name = "output without a value is an extract failure",
		.config = "name: t\niterations: 1\n"
			  "workloads:\n  - name: w\n"
			  "    command: [\"@B\", \"--print\", \"nothing\"]\n"
			  "    operation: op\n" TOTAL,
		.runs = 1,
		.status = "complete",
		.progress = "t:op:i1",
		.iterations = "i:extract:0",
		.summary = "t 1/1/0 stored 0",
		.warning = "failed: extract: metric 'total': no value found",
		.tail = "metric 'total': no value found in the output",
		.label_runs = 1,
	},
	{
		.name = "truncated stdout keeps the values found before",
		.config = "name: t\niterations: 1\n"
			  "workloads:\n  - name: w\n"
			  "    command: [\"@B\", \"--print\", \"total:7\", "
			  "\"--flood\", \"100000\"]\n"
			  "    operation: op\n" TOTAL,
		.runs = 1,
		.status = "complete",
		.progress = "t:op:i1",
		.iterations = "i:ok:1",
		.summary = "t 1/0/1 stored 1",
		.tail = "mmcmp: stdout truncated after 64 bytes",
		.label_runs = 1,
	},
	{
		.name = "a label with runs is refused",
		.config = ONE_VALUE,
		.runs = 2,
		.label_runs = 1,
		.taken = true,
	},
	{
		.name = "--append adds a run",
		.config = ONE_VALUE,
		.runs = 2,
		.append = true,
		.status = "complete",
		.progress = "t:op:i1",
		.iterations = "i:ok:1",
		.summary = "t 1/0/1 stored 1",
		.label_runs = 2,
	},
	{
		.name = "--replace leaves only the new run",
		.config = ONE_VALUE,
		.runs = 2,
		.replace = true,
		.status = "complete",
		.progress = "t:op:i1",
		.iterations = "i:ok:1",
		.summary = "t 1/0/1 stored 1",
		.label_runs = 1,
	},
	{
		.name = "a failing setup stops the run before any iteration",
		.config =
			"name: t\niterations: 1\n"
			"setup: [[\"@B\", \"--exit\", \"4\"]]\n" ONE_VALUE_WORKLOAD,
		.runs = 1,
		.error = "setup command '",
		.status = "failed",
		.progress = "",
		.iterations = "",
		.summary = "t 0/0/0 stored 0",
		.label_runs = 1,
	},
	{
		/* It exits 3 after its sleep: the warning shows it ran. */
		.name = "after a stop the teardowns run to their end",
		.config = "name: t\niterations: 1\n"
			  "teardown: [[\"@B\", \"--sleep\", \"0.3\", "
			  "\"--exit\", \"3\"]]\n" ONE_VALUE_WORKLOAD,
		.runs = 1,
		.status = "interrupted",
		.progress = "",
		.iterations = "",
		.summary = "t 0/0/0 stored 0",
		.warning = "fake-bench' failed (exit 3)",
		.label_runs = 1,
		.stop = true,
	},
	{
		.name = "after a second interrupt the teardowns are skipped",
		.config =
			"name: t\niterations: 1\n"
			"teardown: [[\"@B\", \"--exit\", \"3\"]]\n" ONE_VALUE_WORKLOAD,
		.runs = 1,
		.status = "interrupted",
		.progress = "",
		.iterations = "",
		.summary = "t 0/0/0 stored 0",
		.warning = "fake-bench' skipped after a second interrupt",
		.label_runs = 1,
		.stop = true,
		.cut = true,
	},
	{
		.name = "hooks run around every iteration, warm-ups too",
		.config =
			"name: t\niterations: 2\nwarmup: 1\n"
			"prepare: [" LOG(
				"P") "]\n"
				     "conclude: [" LOG(
					     "C") "]\n"
						  "builds:\n  a:\n"
						  "    prepare: [" LOG(
							  "BP") "]\n"
								"    conclude: [" LOG(
									"BC") "]\n"
									      "    setup: [" LOG("S") "]\n" LOGGING_WORKLOAD(
										      "echo w",
										      "    prepare: [" LOG(
											      "WP") "]\n"
												    "    conclude: [" LOG(
													    "WC") "]\n"),
		.runs = 1,
		.status = "complete",
		.progress = "t-a:op:w1 t-a:op:i1 t-a:op:i2",
		.iterations = "w:ok:1 i:ok:1 i:ok:1",
		.summary = "t-a 2/0/2 stored 2",
		.label_runs = 1,
		.log = "S P BP WP w WC BC C P BP WP w WC BC C P BP WP w WC BC C",
	},
	{
		.name = "a failing prepare fails the iteration, not the run",
		.config = "name: t\niterations: 2\n"
			  "prepare: [[\"@B\", \"--stderr\", \"no caches\", "
			  "\"--exit\", \"5\"]]\n"
			  "conclude: [" LOG("C") "]\n" LOGGING_WORKLOAD(
				  "echo w", ""),
		.runs = 1,
		.status = "complete",
		.progress = "t:op:i1 t:op:i2",
		.iterations = "i:exit:0 i:exit:0",
		.summary = "t 2/2/0 stored 0",
		.warning = "t: w iteration 1 failed: prepare command '",
		.tail = "failed (exit 5): no caches",
		.label_runs = 1,
		.log = "C C",
	},
	{
		.name = "a failing conclude is a warning",
		.config =
			"name: t\niterations: 1\n"
			"conclude: [[\"@B\", \"--exit\", \"6\"]]\n" LOGGING_WORKLOAD(
				"echo w", ""),
		.runs = 1,
		.status = "complete",
		.progress = "t:op:i1",
		.iterations = "i:ok:1",
		.summary = "t 1/0/1 stored 1",
		.warning = "t: conclude command '",
		.label_runs = 1,
		.log = "w",
	},
	{
		.name = "settings hold during the run, are restored, recorded",
		.config = "name: t\niterations: 2\n"
			  "settings: { " THP
			  ": never }\n" LOGGING_WORKLOAD("cat @R" THP, ""),
		.runs = 1,
		.status = "complete",
		.progress = "t:op:i1 t:op:i2",
		.iterations = "i:ok:1 i:ok:1",
		.summary = "t 2/0/2 stored 2",
		.label_runs = 1,
		.log = "never never",
		.thp = "madvise\n",
		.settings = "t: " THP " madvise -> never;",
	},
	{
		.name = "interleaved builds take turns with their settings",
		.config = "name: t\niterations: 2\ninterleave: true\n"
			  "builds:\n"
			  "  a: { settings: { " THP ": always } }\n"
			  "  b: { settings: { " THP
			  ": never } }\n" LOGGING_WORKLOAD("cat @R" THP, ""),
		.runs = 1,
		.status = "complete",
		.progress = "t-a:op:i1 t-b:op:i1 t-b:op:i2 t-a:op:i2",
		.iterations = "i:ok:1 i:ok:1 i:ok:1 i:ok:1",
		.summary = "t-a 2/0/2 stored 2 t-b 2/0/2 stored 2",
		.label_runs = 1,
		.log = "always never never always",
		.thp = "madvise\n",
		.settings = "t-a: " THP " madvise -> always;"
			    "t-b: " THP " madvise -> never;",
	},
	{
		.name = "settings are restored after a crash and an interrupt",
		.config = "name: t\niterations: 1\n"
			  "settings: { " THP ": never }\n"
			  "workloads:\n  - name: w\n"
			  "    command: [\"@B\", \"--signal\", \"SEGV\"]\n"
			  "    operation: op\n" TOTAL "  - name: hang\n"
			  "    command: [\"@B\", \"--hang\"]\n"
			  "    operation: hang\n" TOTAL,
		.runs = 1,
		.status = "interrupted",
		.progress = "t:op:i1 t:hang:i1",
		.iterations = "i:signal:0",
		.summary = "t 1/1/0 stored 0",
		.warning = "t: w iteration 1 failed: signal",
		.label_runs = 1,
		.thp = "madvise\n",
		.settings = "t: " THP " madvise -> never;",
		.stop_at = 2,
	},
	{
		.name = "a setting that cannot be read stops the run",
		.config = "name: t\niterations: 1\n"
			  "settings: { " THP
			  ": never, /sys/none: 1 }\n" ONE_VALUE_WORKLOAD,
		.runs = 1,
		.error = "cannot read setting '/sys/none'",
		.status = "failed",
		.progress = "",
		.iterations = "",
		.summary = "t 0/0/0 stored 0",
		.label_runs = 1,
		.thp = "madvise\n",
		.settings = "t: " THP " madvise -> never;",
	},
	{
		.name = "until: constant values stop after the pilot of 5",
		.config =
			"name: t\niterations: 20\nuntil: 5\n" ONE_VALUE_WORKLOAD,
		.runs = 1,
		.status = "complete",
		/* The pilot is stored as warm-ups are, then 5 tested. */
		.progress = "t:op:w1 t:op:w2 t:op:w3 t:op:w4 t:op:w5 "
			    "t:op:i1 t:op:i2 t:op:i3 t:op:i4 t:op:i5",
		.iterations = "w:ok:1 w:ok:1 w:ok:1 w:ok:1 w:ok:1 "
			      "i:ok:1 i:ok:1 i:ok:1 i:ok:1 i:ok:1",
		.summary = "t 5/0/5 stored 5",
		.label_runs = 1,
		.setup = "\"until\":{\"pct\":5,\"jobs\":[{\"workload\":\"w\","
			 "\"job\":\"\",\"iterations\":5,\"stopped\":"
			 "\"precision\"}]}",
	},
	{
		.name = "until: values with spread run to the maximum",
		.config =
			"name: t\niterations: 5\nuntil: 5\n"
			"setup: [[\"/bin/sh\", \"-c\", \"rm -f @F.s\"]]\n"
			"workloads:\n  - name: w\n"
			"    shell: true\n"
			"    command: \"" COUNTER(
				"s") "if [ $((n % 2)) = 1 ]; "
				     "then echo total:100; else echo total:10; fi\"\n"
				     "    operation: op\n" TOTAL,
		.runs = 1,
		.status = "complete",
		/* The pilot is stored as warm-ups are, then 5 tested. */
		.progress = "t:op:w1 t:op:w2 t:op:w3 t:op:w4 t:op:w5 "
			    "t:op:i1 t:op:i2 t:op:i3 t:op:i4 t:op:i5",
		.iterations = "w:ok:1 w:ok:1 w:ok:1 w:ok:1 w:ok:1 "
			      "i:ok:1 i:ok:1 i:ok:1 i:ok:1 i:ok:1",
		.summary = "t 5/0/5 stored 5",
		.label_runs = 1,
		.setup = "\"iterations\":5,\"stopped\":\"maximum\"",
	},
	{
		/*
		 * Build a's pilot has no spread: 5 tested iterations; b's
		 * (150, then 100s) a half-width of 25.2%, which at 20% asks
		 * for ceil(5 (25.2 / 20)^2) = 8: both run 8 after the pilot.
		 */
		.name = "until: interleaved builds stop together",
		.config =
			"name: t\niterations: 10\nuntil: 20\n"
			"interleave: true\n" BUILDS
			"setup: [[\"/bin/sh\", \"-c\", \"rm -f @F.a @F.b\"]]\n"
			"workloads:\n  - name: w\n"
			"    shell: true\n"
			"    command: \"" COUNTER(
				"$X") "if [ $X = b ] && [ $n = 1 ]; "
				      "then echo total:150; else echo total:100; fi\"\n"
				      "    operation: op\n" TOTAL,
		.runs = 1,
		.status = "complete",
		.progress = "t-a:op:w1 t-b:op:w1 t-b:op:w2 t-a:op:w2 "
			    "t-a:op:w3 t-b:op:w3 t-b:op:w4 t-a:op:w4 "
			    "t-a:op:w5 t-b:op:w5 t-b:op:i1 t-a:op:i1 "
			    "t-a:op:i2 t-b:op:i2 t-b:op:i3 t-a:op:i3 "
			    "t-a:op:i4 t-b:op:i4 t-b:op:i5 t-a:op:i5 "
			    "t-a:op:i6 t-b:op:i6 t-b:op:i7 t-a:op:i7 "
			    "t-a:op:i8 t-b:op:i8",
		.iterations = "w:ok:1 w:ok:1 w:ok:1 w:ok:1 w:ok:1 "
			      "i:ok:1 i:ok:1 i:ok:1 i:ok:1 i:ok:1 "
			      "i:ok:1 i:ok:1 i:ok:1 "
			      "w:ok:1 w:ok:1 w:ok:1 w:ok:1 w:ok:1 "
			      "i:ok:1 i:ok:1 i:ok:1 i:ok:1 i:ok:1 "
			      "i:ok:1 i:ok:1 i:ok:1",
		.summary = "t-a 8/0/8 stored 8 t-b 8/0/8 stored 8",
		.label_runs = 1,
		.setup = "\"iterations\":8,\"stopped\":\"precision\"}]},"
			 "\"params\":[]}\n{\"iterations\":10,\"warmup\":0,"
			 "\"until\":{\"pct\":20,\"jobs\":[{\"workload\":\"w\","
			 "\"job\":\"\",\"iterations\":8,\"stopped\":"
			 "\"precision\"}]}",
	},
};

static const char *settings_root, *hook_log;

/* What the callbacks saw. */
struct seen {
	struct strbuf progress, warnings;
	size_t events, stop_at;
	volatile sig_atomic_t stop;
};

static void on_progress(void *ctx, const struct session_progress *p)
{
	struct seen *seen = ctx;

	if (++seen->events == seen->stop_at)
		seen->stop = 1;
	strbuf_addf(&seen->progress, "%s%s:%s:%c%ld",
		    seen->progress.len ? " " : "", p->label, p->operation,
		    p->warmup ? 'w' : 'i', p->index);
}

static void on_warning(void *ctx, const char *msg)
{
	struct seen *seen = ctx;

	strbuf_addf(&seen->warnings, "%s\n", msg);
}

/*
 * Append s to sb with every "@B" replaced by fake-bench's path, "@F" by
 * the hook log's and "@R" by the settings root.
 */
static void add_config(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		const char *with = NULL;

		if (s[0] == '@' && s[1] == 'B')
			with = fake_bench;
		else if (s[0] == '@' && s[1] == 'F')
			with = hook_log;
		else if (s[0] == '@' && s[1] == 'R')
			with = settings_root;
		if (with) {
			strbuf_addstr(sb, with);
			s++;
		} else {
			strbuf_addch(sb, *s);
		}
	}
}

/* The text of file, "" when there is none; with join, lines joined. */
static void read_text(struct strbuf *sb, const char *file, bool join)
{
	strbuf_reset(sb);
	if (strbuf_read_file(sb, file, NULL))
		strbuf_reset(sb);
	if (!join)
		return;
	strbuf_rtrim(sb);
	for (size_t i = 0; i < sb->len; i++)
		if (sb->buf[i] == '\n')
			sb->buf[i] = ' ';
}

/* Append the settings recorded with run sum as the wants spell them. */
static void describe_settings(struct store *st,
			      const struct session_summary *sum,
			      struct strbuf *out)
{
	struct strvec v = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;

	if (store_run_settings(st, sum->id, &v, &err))
		diag("cannot read settings: %s", err.buf);
	for (size_t i = 0; i < v.nr; i++)
		strbuf_addf(out, "%s: %s;", sum->label, v.v[i]);
	strvec_clear(&v);
	strbuf_release(&err);
}

/* The stored iterations and samples of run id, as the wants spell them. */
static void describe_run(struct store *st, const struct session_summary *sum,
			 struct strbuf *iters, struct strbuf *summary,
			 struct strbuf *tails, struct strbuf *setups)
{
	struct run_full rf = {0};
	struct run_data rd = {0};
	struct strbuf err = STRBUF_INIT;
	size_t stored = 0;

	if (store_run_load_full(st, sum->id, NULL, &rf, &err) ||
	    store_load_run(st, sum->id, NULL, &rd, &err))
		diag("cannot load run %" PRId64 ": %s", sum->id, err.buf);
	for (size_t i = 0; i < rf.iters_nr; i++) {
		const struct iteration_data *it = &rf.iters[i];

		strbuf_addf(iters, "%s%c:%s:%zu", iters->len ? " " : "",
			    it->warmup ? 'w' : 'i', it->status, it->samples_nr);
		if (it->stderr_tail)
			strbuf_addf(tails, "%s\n", it->stderr_tail);
	}
	strbuf_addf(setups, "%s%s", setups->len ? "\n" : "",
		    rf.info.setup ? rf.info.setup : "");
	for (size_t i = 0; i < rd.ops_nr; i++)
		stored += rd.ops[i].nr;
	strbuf_addf(summary, "%s%s %zu/%zu/%zu stored %zu",
		    summary->len ? " " : "", sum->label, sum->iterations,
		    sum->failed, sum->samples, stored);
	run_full_release(&rf);
	run_data_release(&rd);
	strbuf_release(&err);
}

/* The number of runs of label in st. */
static size_t label_runs(struct store *st, const char *label)
{
	struct strbuf err = STRBUF_INIT;
	int64_t *ids = NULL;
	size_t nr = 0;

	if (store_find_runs(st, label, &ids, &nr, &err))
		diag("cannot find runs: %s", err.buf);
	free(ids);
	strbuf_release(&err);
	return nr;
}

/*
 * Run case i `times` times, the last time with its append/replace
 * options; check the last one.
 */
static void run_case(size_t i, const char *db)
{
	struct config cfg = CONFIG_INIT;
	struct plan plan = PLAN_INIT;
	struct strvec labels = STRVEC_INIT;
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf iters = STRBUF_INIT, summary = STRBUF_INIT;
	struct strbuf tails = STRBUF_INIT, settings = STRBUF_INIT;
	struct strbuf setups = STRBUF_INIT;
	struct strbuf file = STRBUF_INIT, thp = STRBUF_INIT;
	struct seen seen = {STRBUF_INIT, STRBUF_INIT, 0, 0, 0};
	struct store *st = NULL;
	const char *taken = NULL;
	const char *name = cases[i].name;
	int failed = 0;

	put_tree_file(settings_root, THP, THP_TEXT);
	unlink(hook_log);
	strbuf_addf(&thp, "%s%s", settings_root, THP);
	add_config(&text, cases[i].config);
	if (config_load_buffer(&cfg, "t.yaml", text.buf, text.len, &err) ||
	    plan_prepare(&cfg, NULL, &err) || plan_build(&plan, &cfg, &err) ||
	    !(st = store_open(db, &err))) {
		ok(false, "case %zu (%s): set up: %s", i, name, err.buf);
		goto out;
	}
	for (size_t b = 0; b < plan.builds_nr; b++) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addstr(&sb, "t");
		if (cfg.builds_nr)
			strbuf_addf(&sb, "-%s", cfg.builds[b].name);
		strvec_push_nodup(&labels, strbuf_detach(&sb, NULL));
	}
	for (int r = 0; r < cases[i].runs; r++) {
		bool last = r + 1 == cases[i].runs;
		volatile sig_atomic_t cut = last && cases[i].cut;
		struct session_opts so = {
			.labels = labels.v,
			.cut = &cut,
			.append = last && cases[i].append,
			.replace = last && cases[i].replace,
			.progress = on_progress,
			.warning = on_warning,
			.ctx = &seen,
			.stop = &seen.stop,
			.settings_root = settings_root,
		};
		struct executor_local_opts eo = {.stdout_max = 64};
		struct session *s = session_new(&cfg, &plan, st, &so);
		struct executor *ex = executor_local_new(&eo, &err);

		strbuf_reset(&seen.progress);
		strbuf_reset(&seen.warnings);
		strbuf_reset(&err);
		seen.events = 0;
		seen.stop = last && cases[i].stop;
		seen.stop_at = last ? cases[i].stop_at : 0;
		if (!ex || session_check_labels(s, &taken, &err))
			BUG("cannot start a session: %s", err.buf);
		if (!taken) {
			failed = session_run(s, ex, &err);
			if (session_finish(s, &err))
				diag("session_finish: %s", err.buf);
		}
		if (last && !taken) {
			is_str(session_status_name(session_status(s)),
			       cases[i].status, "case %zu (%s): status", i,
			       name);
			for (size_t b = 0; b < session_runs_nr(s); b++) {
				describe_run(st, session_summary(s, b), &iters,
					     &summary, &tails, &setups);
				describe_settings(st, session_summary(s, b),
						  &settings);
			}
		}
		session_free(s);
		executor_free(ex);
	}
	ok(!taken == !cases[i].taken, "case %zu (%s): label %s", i, name,
	   taken ? "refused" : "accepted");
	if (cases[i].error)
		ok(failed && strstr(err.buf, cases[i].error),
		   "case %zu (%s): run fails: %s", i, name, err.buf);
	else
		ok(!failed, "case %zu (%s): run goes on: %s", i, name, err.buf);
	if (!cases[i].taken) {
		is_str(seen.progress.buf, cases[i].progress,
		       "case %zu (%s): progress", i, name);
		is_str(iters.buf, cases[i].iterations,
		       "case %zu (%s): stored iterations", i, name);
		is_str(summary.buf, cases[i].summary, "case %zu (%s): summary",
		       i, name);
	}
	if (cases[i].warning)
		ok(strstr(seen.warnings.buf, cases[i].warning) != NULL,
		   "case %zu (%s): warning: %s", i, name, seen.warnings.buf);
	else
		is_str(seen.warnings.buf, "", "case %zu (%s): no warning", i,
		       name);
	if (cases[i].setup)
		ok(strstr(setups.buf, cases[i].setup) != NULL,
		   "case %zu (%s): stored setup: %s", i, name, setups.buf);
	if (cases[i].tail)
		ok(strstr(tails.buf, cases[i].tail) != NULL,
		   "case %zu (%s): stored stderr tail: %s", i, name, tails.buf);
	ok(label_runs(st, labels.v[0]) == cases[i].label_runs,
	   "case %zu (%s): %zu run(s) of the label", i, name,
	   cases[i].label_runs);
	read_text(&file, hook_log, true);
	is_str(file.buf, cases[i].log ? cases[i].log : "",
	       "case %zu (%s): hook log", i, name);
	read_text(&file, thp.buf, false);
	is_str(file.buf, cases[i].thp ? cases[i].thp : THP_TEXT,
	       "case %zu (%s): the setting after the run", i, name);
	is_str(settings.buf, cases[i].settings ? cases[i].settings : "",
	       "case %zu (%s): settings recorded", i, name);
out:
	store_close(st);
	unlink(db);
	plan_release(&plan);
	config_release(&cfg);
	strvec_clear(&labels);
	strbuf_release(&text);
	strbuf_release(&err);
	strbuf_release(&iters);
	strbuf_release(&summary);
	strbuf_release(&tails);
	strbuf_release(&setups);
	strbuf_release(&settings);
	strbuf_release(&file);
	strbuf_release(&thp);
	strbuf_release(&seen.progress);
	strbuf_release(&seen.warnings);
}

/*
 * A label that another mmcmp claims after session_check_labels() found it
 * free: creating the run checks again in the same transaction, so the
 * second run of a new label fails instead of pooling into it.
 */
static void test_label_claimed_meanwhile(const char *db)
{
	struct config cfg = CONFIG_INIT;
	struct plan plan = PLAN_INIT;
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct store *st = NULL, *other = NULL;
	char claimed[] = "claimed";
	char *labels[] = {claimed, NULL};
	const char *taken = NULL;
	struct run_info ri = {0};
	struct session *s = NULL;
	struct executor *ex = NULL;
	struct executor_local_opts eo = {.stdout_max = 64};
	struct seen seen = {STRBUF_INIT, STRBUF_INIT, 0, 0, 0};
	struct session_opts so = {
		.labels = labels,
		.progress = on_progress,
		.warning = on_warning,
		.ctx = &seen,
	};
	int failed;

	add_config(&text, ONE_VALUE);
	if (config_load_buffer(&cfg, "t.yaml", text.buf, text.len, &err) ||
	    plan_prepare(&cfg, NULL, &err) || plan_build(&plan, &cfg, &err) ||
	    !(st = store_open(db, &err)) || !(other = store_open(db, &err)) ||
	    !(ex = executor_local_new(&eo, &err))) {
		ok(false, "claimed label: set up: %s", err.buf);
		goto out;
	}
	s = session_new(&cfg, &plan, st, &so);
	if (session_check_labels(s, &taken, &err) || taken) {
		ok(false, "claimed label: the label is free at first: %s",
		   err.buf);
		goto out;
	}
	ri.uuid = xstrdup("00000000-0000-4000-8000-000000000001");
	ri.label = xstrdup("claimed");
	ri.status = xstrdup("complete");
	ri.config_name = xstrdup("t");
	ri.config_text = xstrdup("");
	ri.config_hash = xstrdup("");
	ri.started_at = xstrdup("2026-01-01T00:00:00Z");
	ri.mmcmp_version = xstrdup("0");
	if (store_run_create(other, &ri, &err)) {
		ok(false, "claimed label: the other mmcmp's run: %s", err.buf);
		goto out;
	}
	failed = session_run(s, ex, &err);
	ok(failed && strstr(err.buf, "already has results"),
	   "claimed label: the run fails: %s", err.buf);
	ok(label_runs(other, "claimed") == 1,
	   "claimed label: only the other run has the label");
out:
	run_info_release(&ri);
	session_free(s);
	executor_free(ex);
	store_close(other);
	store_close(st);
	unlink(db);
	plan_release(&plan);
	config_release(&cfg);
	strbuf_release(&text);
	strbuf_release(&err);
	strbuf_release(&seen.progress);
	strbuf_release(&seen.warnings);
}

/* A second connection that holds the write lock, as a long import does. */
struct locker {
	struct seen seen;
	struct store *other;
	size_t take_at, free_at; /* progress events; free_at 0: at the end */
	bool held;
};

static void lock_take(struct locker *lk, bool take)
{
	struct strbuf err = STRBUF_INIT;

	if (take ? store_begin(lk->other, &err) : store_commit(lk->other, &err))
		diag("cannot %s the lock: %s", take ? "take" : "free", err.buf);
	else
		lk->held = take;
	strbuf_release(&err);
}

static void locker_progress(void *ctx, const struct session_progress *p)
{
	struct locker *lk = ctx;

	on_progress(&lk->seen, p);
	if (lk->seen.events == lk->take_at)
		lock_take(lk, true);
	else if (lk->held && lk->seen.events == lk->free_at)
		lock_take(lk, false);
}

static void locker_warning(void *ctx, const char *msg)
{
	struct locker *lk = ctx;

	on_warning(&lk->seen, msg);
	if (lk->held && !lk->free_at && strstr(msg, "waiting up to"))
		lock_take(lk, false);
}

static int64_t count_of(struct store *st, const char *sql)
{
	struct strbuf err = STRBUF_INIT;
	int64_t n = -1;

	if (store_query_int64(st, sql, &n, &err))
		diag("%s: %s", sql, err.buf);
	strbuf_release(&err);
	return n;
}

/*
 * Another process holds the write lock from the first iteration on, past
 * every busy timeout, and frees it after the third (free_at 4) or only
 * once the run says, at its end, that it waits for it (free_at 0): no
 * finished iteration is lost, the run goes on and ends complete, and
 * the iterations are stored in order, each with its sample and monitors.
 */
static void test_held_while_locked(const char *db, size_t free_at)
{
	struct config cfg = CONFIG_INIT;
	struct plan plan = PLAN_INIT;
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf counter = STRBUF_INIT;
	struct store *st = NULL;
	char held[] = "held";
	char *labels[] = {held, NULL};
	struct session *s = NULL;
	struct executor *ex = NULL;
	struct strvec events = STRVEC_INIT;
	struct executor_local_opts eo = {.monitors = true,
					 .perf_events = &events};
	struct locker lk = {
		.seen = {STRBUF_INIT, STRBUF_INIT, 0, 0, 0},
		.take_at = 1,
		.free_at = free_at,
	};
	struct session_opts so = {
		.labels = labels,
		.progress = locker_progress,
		.warning = locker_warning,
		.ctx = &lk,
	};
	const char *when = free_at ? "freed meanwhile" : "freed at the end";
	int run_ret, finish_ret;

	add_config(&text, "name: t\niterations: 5\n"
			  "workloads:\n  - name: w\n"
			  "    shell: true\n"
			  "    command: \"" COUNTER(
				  "held") "echo total:$n\"\n"
					  "    operation: op\n" TOTAL);
	strbuf_addf(&counter, "%s.held", hook_log);
	unlink(counter.buf);
	strvec_push(&events, "task-clock");
	if (config_load_buffer(&cfg, "t.yaml", text.buf, text.len, &err) ||
	    plan_prepare(&cfg, NULL, &err) || plan_build(&plan, &cfg, &err) ||
	    !(st = store_open(db, &err)) ||
	    !(lk.other = store_open(db, &err)) ||
	    store_set_busy_timeout(st, 20, &err) ||
	    !(ex = executor_local_new(&eo, &err))) {
		ok(false, "lock %s: set up: %s", when, err.buf);
		goto out;
	}
	s = session_new(&cfg, &plan, st, &so);
	run_ret = session_run(s, ex, &err);
	finish_ret = session_finish(s, &err);
	ok(!run_ret && !finish_ret && session_status(s) == SESSION_COMPLETE,
	   "lock %s: the run ends complete: %s", when, err.buf);
	ok(!lk.held, "lock %s: the lock was freed", when);
	ok(strstr(lk.seen.warnings.buf,
		  "database locked by another process; 1 iteration held in memory") !=
		   NULL,
	   "lock %s: the run says it holds iterations in memory", when);
	if (!free_at)
		ok(strstr(lk.seen.warnings.buf,
			  "5 iterations held in memory, waiting up to") != NULL,
		   "lock %s: and at the end that it waits for the lock", when);
	is_str(lk.seen.progress.buf,
	       "held:op:i1 held:op:i2 held:op:i3 held:op:i4 held:op:i5",
	       "lock %s: every iteration ran", when);
	ok(count_of(st, "SELECT count(*) FROM iteration") == 5 &&
		   count_of(st, "SELECT count(*) FROM iteration i"
				" JOIN sample s ON s.iteration_id = i.id"
				" WHERE s.value = i.idx + 1") == 5,
	   "lock %s: every iteration is stored once, with its sample", when);
	ok(count_of(st, "SELECT count(*) FROM iteration a JOIN iteration b"
			" ON b.id > a.id WHERE b.idx < a.idx") == 0,
	   "lock %s: in the order they ran", when);
	ok(count_of(st, "SELECT count(*) FROM iteration_monitor") == 5,
	   "lock %s: each with its monitor record", when);
	ok(count_of(st, "SELECT count(*) FROM iteration_monitor"
			" WHERE json_extract(vmstat_end, '$.nr_free_pages')"
			" > 0") == 5,
	   "lock %s: and its gauges' levels", when);
	/*
	 * A held record owns its values: a copy that shared the monitor's
	 * buffers stored the last iteration's counts for every held one.
	 * Where perf counts (root), the task-clock of each differs.
	 */
	if (count_of(st, "SELECT count(*) FROM iteration_perf"
			 " WHERE counters <> '{}'") == 5)
		ok(count_of(st, "SELECT count(DISTINCT counters)"
				" FROM iteration_perf") == 5,
		   "lock %s: each with its own perf counts", when);
	else
		printf("ok %d - # SKIP lock %s: perf counts nothing here\n",
		       ++tap_run, when);
	ok(count_of(st, "SELECT count(*) FROM run"
			" WHERE label = 'held' AND status = 'complete'") == 1,
	   "lock %s: the run is marked complete", when);
out:
	if (lk.held)
		lock_take(&lk, false);
	session_free(s);
	executor_free(ex);
	store_close(lk.other);
	store_close(st);
	unlink(db);
	unlink(counter.buf);
	plan_release(&plan);
	config_release(&cfg);
	strbuf_release(&text);
	strbuf_release(&err);
	strbuf_release(&counter);
	strvec_clear(&events);
	strbuf_release(&lk.seen.progress);
	strbuf_release(&lk.seen.warnings);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	struct strbuf dir = STRBUF_INIT, db = STRBUF_INIT;
	struct strbuf root = STRBUF_INIT, log = STRBUF_INIT;

	fake_bench = getenv("FAKE_BENCH");
	if (!fake_bench || !strchr(fake_bench, '/')) {
		printf("1..0 # SKIP FAKE_BENCH is not set to a path\n");
		return 0;
	}
	strbuf_addf(&dir, "%s/mmcmp-test-session-XXXXXX",
		    tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir.buf)) {
		printf("Bail out! cannot create a temporary directory\n");
		return 1;
	}
	strbuf_addf(&db, "%s/test.db", dir.buf);
	strbuf_addf(&root, "%s/root", dir.buf);
	strbuf_addf(&log, "%s/hooks.log", dir.buf);
	settings_root = root.buf;
	hook_log = log.buf;
	if (mkdir(root.buf, 0700))
		BUG("cannot create %s", root.buf);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		run_case(i, db.buf);
	test_label_claimed_meanwhile(db.buf);
	test_held_while_locked(db.buf, 4);
	test_held_while_locked(db.buf, 0);
	unlink(log.buf);
	{
		static const char *const tree[] = {
			THP,
			"/sys/kernel/mm/transparent_hugepage",
			"/sys/kernel/mm",
			"/sys/kernel",
			"/sys",
			"",
		};

		remove_tree(root.buf, tree, ARRAY_SIZE(tree));
	}
	/* SQLite's WAL and shared-memory files go with the database. */
	strbuf_addstr(&db, "-wal");
	unlink(db.buf);
	strbuf_setlen(&db, db.len - 4);
	strbuf_addstr(&db, "-shm");
	unlink(db.buf);
	rmdir(dir.buf);
	strbuf_release(&dir);
	strbuf_release(&db);
	strbuf_release(&root);
	strbuf_release(&log);
	done_testing();
	return exit_status();
}
