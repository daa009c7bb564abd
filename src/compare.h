#ifndef MMCMP_COMPARE_H
#define MMCMP_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "stats.h"
#include "strvec.h"

struct compare_provenance;
struct monitor_table;
struct run_data;
struct strbuf;

/*
 * compare: runs x operations -> the table model that the renderers print
 * (mmtests' Compare.pm; shared reference, sections 2.3-2.8).
 *
 * Order of calls: compare_runs() on runs the store loaded (run-data.h),
 * the baseline first; the renderers (render.h) print the result, with the
 * footer lines of compare_footer(); compare_result_release() frees it.
 * compare_runs() returns 0, or -1 after appending one line to err. It only
 * reads its runs; the result owns all its memory and does not point into
 * them. What the tables hold, how their cells are tested and which tables
 * monitors add: at compare_runs().
 */

/* The monitors option: which "BENCH vmstat" tables and rows to add. */
enum compare_monitors {
	COMPARE_MONITORS_OFF,  /* none */
	COMPARE_MONITORS_MEAN, /* the mean rows only */
	COMPARE_MONITORS_ALL,  /* every statistic, as the workload tables */
};

/* "off", "mean", "all" for monitors value i; NULL past the last. */
const char *compare_monitors_nth(size_t i);

enum compare_test {
	COMPARE_TEST_WELCH,
	COMPARE_TEST_MMTESTS,
	COMPARE_TEST_UTEST,
};

/* The unit of replication the test compares (reference section 1). */
enum compare_unit {
	COMPARE_UNIT_ITERATION, /* one value per iteration */
	COMPARE_UNIT_SAMPLE,	/* every sample on its own (version 1) */
	COMPARE_UNIT_RUN,	/* one value per run of a label */
	COMPARE_UNIT_BOOT,	/* one value per guest boot (kernels:) */
	/*
	 * The default: the coarsest level that replicates, as the design
	 * of the data decides (compare_unit_auto()); compare_runs()
	 * resolves it, so a result never holds it.
	 */
	COMPARE_UNIT_AUTO,
};

struct compare_options {
	enum compare_test test; /* default COMPARE_TEST_WELCH */
	double alpha;		/* significance level, default 0.05 */
	bool fdr;		/* Benjamini-Hochberg, default on */
	bool fieller;		/* plain means and Fieller, not the log scale */
	bool print_ratio;	/* renderers: ratio table (2.8) */
	bool print_significance; /* renderers: "Significant" rows */
	const char *benchmark;	 /* only this benchmark; NULL: all */
	/*
	 * POSIX ERE: keep the operations whose name matches it anchored at
	 * the start, as mmtests' --sub-heading (matched as "^(RE)").
	 * NULL: all.
	 */
	const char *sub_heading;
	/* A "BENCH vmstat" table per monitored benchmark, of these rows. */
	enum compare_monitors monitors;
	enum compare_unit unit; /* default COMPARE_UNIT_AUTO */
	/* Verdicts: the change, percent >= 0, that counts (default 0). */
	double margin_pct;
	/*
	 * Pool runs that are not complete and failed iterations too
	 * (pool_load()); compare_runs() does not read it.
	 */
	bool include_incomplete;
};

#define COMPARE_OPTIONS_INIT                                                   \
	{                                                                      \
		.test = COMPARE_TEST_WELCH, .alpha = 0.05, .fdr = true,        \
		.unit = COMPARE_UNIT_AUTO, .margin_pct = 0.0,                  \
	}

/*
 * The name of unit i ("iteration", "sample", "run", "boot"), or NULL
 * when i is past the last: the choices of --unit.
 */
const char *compare_unit_nth(size_t i);
/* The plural of unit for footers: "iterations", "samples", "runs"... */
const char *compare_unit_plural(enum compare_unit unit);

/* Map "welch", "mmtests", "utest" to the test; false when unknown. */
bool compare_test_parse(const char *name, enum compare_test *out);
/* The name compare_test_parse() accepts for test. */
const char *compare_test_name(enum compare_test test);
/*
 * The name of the test whose enum compare_test value is i, or NULL when i
 * is past the last: lists the choices (option tables, messages).
 */
const char *compare_test_nth(size_t i);

/* The summary rows, in mmtests' order. */
enum compare_stat {
	COMPARE_STAT_MIN,
	COMPARE_STAT_MEAN,
	COMPARE_STAT_STDDEV,
	COMPARE_STAT_CV,
	COMPARE_STAT_MAX,
	COMPARE_STAT_BMEAN95,
};
#define COMPARE_STAT_NR 6

/* The mmtests row label of stat: "Min", "Hmean"/"Amean", ... */
const char *compare_stat_label(enum compare_stat stat, bool higher_better);

/* Why a mean cell carries no test result. */
enum compare_untested {
	COMPARE_TESTED,
	COMPARE_UNTESTED_BASELINE,   /* the baseline column itself */
	COMPARE_UNTESTED_MISSING,    /* the run lacks the operation */
	COMPARE_UNTESTED_EMPTY,	     /* a side has no sample of it */
	COMPARE_UNTESTED_UNDEFINED,  /* a mean is NaN (Hmean, x <= 0) */
	COMPARE_UNTESTED_FEW,	     /* fewer than 2 units on a side */
	COMPARE_UNTESTED_DEGENERATE, /* non-finite values, df or error */
	COMPARE_UNTESTED_GAUGE,	     /* a monitor table's level: shown */
	COMPARE_UNTESTED_MMTESTS,    /* mmtests mode: no p-values */
};

/* One operation as seen in one run. */
struct compare_side {
	bool present;		  /* the run has the operation */
	struct stats_summary sum; /* n = 0 and NaN when absent */
	bool has_ci;		  /* n > 1, mean and SD defined */
	double ci_half;		  /* q of reference 2.3, else NaN */
	/*
	 * mmtests' significance ratio of the baseline against this run
	 * (reference 2.6; sign of base - this); 0 in the baseline column
	 * and where mmtests finds no CI.
	 */
	double cidiff;
	enum compare_untested untested;
	double p;	  /* two-sided p-value, NaN if untested */
	bool significant; /* the verdict of the chosen test */
	/*
	 * Welch and utest modes. units: the side's units of replication
	 * (sum.n counts its samples), in every mode. The rest only for compared
	 * runs: Welch's test on the unit values, the change with Fieller's 1 -
	 * alpha interval, the BH-adjusted p (p itself without fdr; NaN when
	 * untested), the verdict and the minimum detectable effect in percent
	 * at power 0.8 (NaN when untested).
	 */
	size_t units;
	double cv_pct; /* of the unit values (stats_cv_pct()), any mode */
	struct stats_welch_units welch;
	struct stats_change change;
	double p_adjusted;
	enum stats_verdict verdict;
	double mde_pct;
	double drift_rho, drift_p; /* Spearman with time; p NaN below 6 */
	/*
	 * Under --unit sample, the intraclass correlation of the samples
	 * within their iterations and the p of the iterations' one-way
	 * ANOVA; NaN otherwise (samples without iterations too).
	 */
	double icc, icc_p;
	/*
	 * Under --unit run or boot, the share of the variance of this
	 * side's iteration values that lies between its units
	 * (compare_between_share()) and its iterations per unit; NaN when
	 * not computed (other units, a unit of one iteration each).
	 */
	double between_share, iters_per_unit;
	/*
	 * A tested row whose ratio is undefined (a base mean of 0, an
	 * interval that is not bounded): its verdict gives no more than
	 * the direction of a marked difference at margin 0, and is
	 * inconclusive against a margin.
	 */
	bool ratio_undefined;
	/*
	 * This side's units hold different numbers of samples (or
	 * iterations), so the mean of its unit values, which the change
	 * compares, is not the mean row over all samples.
	 */
	bool unbalanced;
	/*
	 * The level of change's interval: 1 - alpha, or for a row marked
	 * under BH the false-coverage-rate level 1 - R alpha / m of
	 * Benjamini and Yekutieli (R marked of m tested in its family).
	 */
	double ci_level;
	/*
	 * --print-ratio (reference 2.8); 1, 0 and 0 in the baseline, where
	 * under --test=mmtests ndiff is NaN when the baseline has no CI at
	 * all and ratio 0 when its mean is 0, as mmtests prints them.
	 * ratio_void: under --test=mmtests, this side's or the baseline's
	 * mean is undefined or missing, so ratio is 1 and both differences
	 * 0, as mmtests takes such a cell.
	 */
	double ratio;	  /* rdiff(mean, base mean) */
	double ratio_pct; /* pdiff/pndiff(ratio, 1) */
	double ndiff;	  /* cidiff(mean, base mean); NaN: no CI */
	bool ratio_void;
};

struct compare_op {
	char *name;
	char *unit;
	bool higher_better;
	int decimals; /* the precision of its cells */
	/*
	 * A monitor table's gauge, a level rather than a count (vmstat's
	 * nr_free_pages, a cgroup's memory.current): its values are shown
	 * without a percentage, a test or a verdict.
	 */
	bool gauge;
	struct compare_side *side; /* one per run, baseline first */
	/* Welch and utest modes: warnings about its data (reference 8). */
	struct strvec warnings;
};

/* A table row: one statistic of one operation. */
struct compare_row {
	enum compare_stat stat;
	const char *label; /* compare_stat_label(), static */
	size_t op;	   /* index in compare_bench.ops */
};

/* One run's value in a row. */
struct compare_cell {
	double value; /* NaN: undefined or missing */
	/*
	 * Against the baseline's value of the row, positive = better; 0 in
	 * the baseline column and where value is NaN; NaN when only the
	 * baseline's value is NaN under pndiff (mmtests prints "NaN").
	 */
	double pct;
	bool significant; /* only on mean rows */
	/*
	 * Welch and utest modes (reference section 7): whether pct has a
	 * number; else the renderers print "n/a" (base 0 or undefined)
	 * or "-" (no value), and value NaN prints "n/a", or "-" when the
	 * run lacks the operation. Always STATS_PCT_OK in mmtests mode,
	 * which keeps mmtests' 0.00, and in the baseline column but where
	 * its value is NaN (STATS_PCT_NONE). The default modes' CoeffVar
	 * is NaN where its stddev or mean is undefined or the mean is 0.
	 */
	enum stats_pct_state pct_state;
	/* The run lacks the operation or has no sample of it: "-". */
	bool missing;
};

/* Summed resource use of the benchmark in one run (Duration table). */
struct compare_duration {
	bool present;
	double user_s, sys_s, elapsed_s;
};

/* The rows of mmtests' vmstat summary, the "Ops" table. */
#define COMPARE_VMSTAT_NR 62

/* The name of vmstat summary row i, without "Ops ": "Minor Faults". */
const char *compare_vmstat_label(size_t row);

/*
 * Compute the vmstat summary of mt into out[COMPARE_VMSTAT_NR]; NaN
 * where mmtests leaves a value undefined (printed 0.00).
 */
void compare_vmstat_summary(const struct monitor_table *mt, double *out);

/*
 * When other processes used more than MONITOR_BUSY_FRACTION of the
 * machine during some of mt's iterations, append to out
 *   "label X: other processes used up to 37% of the machine during 4 of
 *   10 iterations"
 * and return true; else append nothing and return false.
 */
bool compare_busy_note(const char *label, const struct monitor_table *mt,
		       struct strbuf *out);

/* The --print-ratio footer of one run (Dmean, Dmin, Dmax, Gmean). */
struct compare_ratio_footer {
	double dmean, dmin, dmax; /* over the ops' ndiff, NaN skipped */
	double gmean;		  /* of the ratios, NaN -> 1, 0 -> 1e-5 */
};

struct compare_bench {
	char *name;
	char *title; /* the table's title; the name for now */
	struct compare_op *ops;
	size_t ops_nr, ops_alloc;
	/* Rows stat-major: every op for Min, then every op for the mean... */
	struct compare_row *rows;
	size_t rows_nr;
	/* rows_nr * runs_nr cells, row-major: see compare_cell(). */
	struct compare_cell *cells;
	size_t stat_width;  /* longest row label (mmtests SL) */
	size_t op_width;    /* longest op name (mmtests OL) */
	bool higher_better; /* of its first op: the footer's "Higher" */
	int decimals;	    /* largest of its ops' decimals */
	struct compare_duration *durations;	   /* one per run */
	bool has_durations;			   /* some run has one */
	struct compare_ratio_footer *ratio_footer; /* one per run */
	bool has_ndiff_footer; /* false: baseline without any CI */
	/* Mean cells of the non-baseline runs, for the footer. */
	size_t nr_compared, nr_significant;
	size_t nr_untested[COMPARE_UNTESTED_MMTESTS + 1];
	/*
	 * The vmstat summary: COMPARE_VMSTAT_NR rows times runs_nr values,
	 * row-major; NaN for a run without monitor data. has_vmstat: some
	 * run has it.
	 */
	double *vmstat;
	bool has_vmstat;
	bool monitor; /* a "BENCH vmstat" table of the monitors option */
	/* A footer line on runs without monitor data, or NULL. */
	char *vmstat_note;
	/*
	 * Welch and utest modes: warnings of reference section 8 and the
	 * note of section 1 about this table's data (outliers, drift, no
	 * interleaving, runs that differ, the U test's floor), one line
	 * each, printed by compare_footer().
	 */
	struct strvec warnings;
	/* Lines for under the table (compare_footer()): a busy machine. */
	struct strvec notes;
};

struct compare_result {
	/*
	 * A copy of the options; benchmark and sub_heading are NULL, and
	 * unit is the one tested, never COMPARE_UNIT_AUTO.
	 */
	struct compare_options opts;
	/*
	 * unit_auto: --unit auto chose opts.unit, for the reason unit_why
	 * ("A 2 runs, B 2 runs", compare_unit_auto()); NULL otherwise.
	 * unit_warning: an explicit --unit iteration or sample on labels
	 * that pool runs or boots, which it takes as alike; else NULL.
	 */
	bool unit_auto;
	char *unit_why, *unit_warning;
	char **labels; /* run labels, baseline first */
	size_t runs_nr;
	struct compare_bench *bench;
	size_t bench_nr;
	/*
	 * One line per machine property (hostname, cpu_model, cmdline,
	 * nr_cpus) that differs between runs where both are known, e.g.
	 * "hostname: 'a' in base, 'b' in patched". Empty when all agree.
	 */
	struct strvec machine_diffs;
	/*
	 * What went into the comparison and what makes it unlike for like
	 * (compare-provenance.h), for the block before the tables; NULL
	 * when no run comes from the store.
	 */
	struct compare_provenance *provenance;
	/*
	 * The Benjamini-Hochberg families, [0] of the workload rows (the
	 * tested mean cells of the whole comparison, before filters), [1]
	 * of the monitor rows: their sizes and how many of them are marked
	 * (also without fdr).
	 */
	size_t family_size[2], family_marked[2];
	/*
	 * mmtests mode: warnings about the heuristic (fewer than 5 units
	 * per side), which the text output must not show; cmd/ prints
	 * them apart from the table.
	 */
	struct strvec warnings;
};

#define COMPARE_RESULT_INIT                                                    \
	{                                                                      \
		.machine_diffs = STRVEC_INIT, .warnings = STRVEC_INIT          \
	}

/*
 * Compare runs[0..nr) (runs[0] is the baseline) into *res, which must be
 * COMPARE_RESULT_INIT or released. Fails, with a line in err, when nr is
 * 0, the sub-heading regex does not compile, or the filters leave
 * nothing to show.
 *
 * The first run is the baseline. Per benchmark of the baseline run (in
 * the order of its first operation) there is one table; its operations
 * are the baseline's, in the baseline's order. An operation missing in
 * another run gives NaN cells there (printed 0.00 / 0.00%); operations
 * that only other runs have are not shown.
 *
 * Every operation gets the Multiops rows Min, mean, stddev, CoeffVar,
 * Max, BXmean.95 (stats_summarize()); the mean and spread are harmonic
 * ("Hmean", "HStddev", ...) when higher is better, else arithmetic.
 * Percentages are mmtests' pdiff/pndiff, positive meaning better.
 *
 * Significance is judged on mean rows only, for every run against the
 * baseline (the statistics reference, version 2), on one value per unit
 * of replication (compare_options.unit): the unit value is mean(1/x)
 * over the unit's samples under Hmean, mean(x) under Amean; a run's or
 * a boot's value averages its iterations' with equal weight; samples
 * without an iteration are each their own. Under COMPARE_UNIT_BOOT every
 * run must know the boot of every sample (op_samples.boot): otherwise
 * compare_runs() fails naming the label, as a label of host runs has no
 * boots to count. The summary rows stay computed over all samples. The
 * test is one of three:
 *   COMPARE_TEST_MMTESTS  mmtests HEAD's rule (reference 2.6): CI half-width
 *       q = 1.959964 * SD rounded to 7 significant digits, significant when
 *       |cidiff| > 1. Unlike mmtests, a baseline without any CI (n = 1 for
 *       every operation) marks nothing.
 *   COMPARE_TEST_WELCH    Welch's t-test on the unit values, scaled by
 *       their largest magnitude first (stats_welch_units()).
 *   COMPARE_TEST_UTEST    the Mann-Whitney U test (stats_mannwhitney())
 *       on the unit values.
 * For the last two a cell is marked when its p <= alpha, or, with fdr,
 * when its Benjamini-Hochberg adjusted p is: one family of every tested
 * mean cell of the whole comparison (every benchmark, operation and
 * compared run), formed before the benchmark and sub-heading filters
 * pick what is shown, so a filter never changes a verdict. Each such
 * cell also gets the change of its mean with Fieller's 1 - alpha
 * interval (stats_change()), a verdict under margin_pct
 * (stats_verdict()) and the minimum detectable effect (stats_mde(),
 * power 0.8). Fewer than 2 units on a side, an undefined mean, a
 * numerically degenerate test or a missing operation leave a cell
 * untested, unmarked, and counted in the footer (compare_footer()).
 * The mmtests cidiff ratio and the --print-ratio figures are computed in
 * every mode.
 *
 * Monitors: a benchmark whose runs have monitor tables (run-data.h) gets
 * mmtests' vmstat summary, the "Ops" rows of compare-kernels.sh
 * (MonitorMmtestsvmstat), per run from the counters summed over its
 * monitored iterations: Minor Faults = pgfault - pgmajfault, scan and
 * reclaim totals, efficiencies, velocities (pages per second of the
 * iterations' wall time), THP, compaction and NUMA counters, and
 * mmtests' cost models, all as mmtests computes them (compare-ops.c
 * notes its quirks). With the monitors option, every benchmark of the baseline
 * with a monitor table is followed by one more table, "BENCH vmstat":
 * one lower-is-better operation per vmstat counter that changed in some
 * compared run (and matches the sub-heading), one sample per monitored
 * iteration (its change), tested as workload rows; its rows are the mean
 * rows only with COMPARE_MONITORS_MEAN, every statistic with
 * COMPARE_MONITORS_ALL. A benchmark of which some compared run has no
 * monitor data gets a footer line naming those runs (compare_footer()),
 * so that an Ops table never goes missing without a word; runs without a
 * config text (CSV imports, which never have monitors) are named only
 * when another run has monitor data or the monitors option asks for it. Their
 * p-values form a family of their own for Benjamini-Hochberg, so asking for
 * them does not change the verdicts of the workload rows.
 * Runs whose workloads ran in a cgroup get a "BENCH cgroup" table after
 * it, the same way, of the cgroup's counters (cgroup-stat.h): a
 * counter's change per iteration, a gauge's value at the end of each.
 *
 * Busy machine: under each workload table, in every mode but mmtests',
 * a note per label whose iterations of the benchmark shared the machine
 * with other processes using more than MONITOR_BUSY_FRACTION of it
 * (compare_busy_note()).
 */
int compare_runs(const struct run_data *runs, size_t nr,
		 const struct compare_options *asked,
		 struct compare_result *res, struct strbuf *err);

/* Free everything res owns and reset it to COMPARE_RESULT_INIT. */
void compare_result_release(struct compare_result *res);

/* The cell of row `row`, run `run` of bench. */
static inline const struct compare_cell *
compare_cell(const struct compare_result *res, const struct compare_bench *b,
	     size_t row, size_t run)
{
	return &b->cells[row * res->runs_nr + run];
}

/*
 * Whether run `run` has monitor data in workload table b, that is values
 * in b->vmstat: else the default modes print its Ops column as "-",
 * mmtests mode as 0.00.
 */
bool compare_vmstat_present(const struct compare_result *res,
			    const struct compare_bench *b, size_t run);

/*
 * The footer line of workload table b on the runs that have no monitor
 * data for it (b->vmstat and the runs' configs say which), e.g.
 *   "No monitor records for patched: its Ops column reads -"
 * or NULL when there is nothing to say. The caller frees it.
 */
char *compare_vmstat_note(const struct compare_result *res,
			  const struct compare_bench *b,
			  const struct run_data *runs);

/*
 * Append the footer lines of bench (without '\n') to lines: in welch and
 * utest mode with at least two runs, first the summary, e.g.
 *   "2 of 4 mean rows significant (welch, alpha 0.05, BH FDR)"
 * ("mean comparisons" with more than two runs; no ", BH FDR" without
 * fdr), then one line per reason some mean cells were not tested, e.g.
 *   "1 mean row not tested, fewer than 2 iterations on a side: op-a
 *   (patched)"
 * then the family, the units and the power of the table:
 *   "BH over 40 rows, 3 marked; p unadjusted, as the 95% intervals"
 * (under the U test, whose p the intervals are not: "...; p unadjusted,
 * the U test's, as the marks and verdicts; the 95% intervals are
 * Welch's and may disagree")
 *   "n = 5 iterations (75 samples) per side"
 *   "n = 5 iterations per side: changes under 4.1% (median row) are
 *   found less than 80% of the time"
 * then the table's warnings, the bench's notes (a busy machine), and
 * last the line on runs without monitor data (compare_vmstat_note()). Nothing
 * in mmtests mode, whose text output must stay mmtests' own.
 */
void compare_footer(const struct compare_result *res,
		    const struct compare_bench *bench, struct strvec *lines);

/*
 * Append why a mean cell was not tested, as compare_footer() words it:
 * "operation missing", "mean undefined (a sample <= 0)", "fewer than 2
 * iterations on a side", "numerically degenerate", "--test=mmtests
 * gives no verdicts"; "no test" for COMPARE_TESTED and the baseline.
 */
void compare_untested_text(const struct compare_result *res,
			   enum compare_untested why, struct strbuf *sb);

/*
 * Append the footer's lines on the mean cells of bench left untested,
 * one per reason (compare_footer()), e.g. "1 mean row not tested,
 * operation missing: gone (new)"; nothing when every cell was tested
 * and in mmtests mode, which tests none.
 */
void compare_untested_lines(const struct compare_result *res,
			    const struct compare_bench *bench,
			    struct strvec *lines);

/*
 * The units and samples of one side of a table, over its operations:
 * the fewest and most units, the fewest and most samples.
 */
struct compare_side_n {
	size_t units_min, units_max, samples_min, samples_max;
};
void compare_bench_side_n(const struct compare_bench *bench, size_t run,
			  struct compare_side_n *out);

#endif /* MMCMP_COMPARE_H */
