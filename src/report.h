#ifndef MMCMP_REPORT_H
#define MMCMP_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "compare.h"
#include "run-data.h"
#include "store-series.h"

struct store;
struct strbuf;

/*
 * report: one self-contained HTML page about a comparison, for
 * `mmcmp report`. It holds, in this order:
 *   - the provenance of every compared run (uuid, config hash, machine);
 *   - the comparison as `compare --format html` prints it (the body of
 *     render()'s page, so text and plots cannot disagree);
 *   - a forest plot: per operation and compared label the change against
 *     the base with Fieller's interval (stats_change()), the +-margin
 *     band, and a colour and marker per verdict;
 *   - scaling curves: wherever operations of a benchmark differ in one
 *     numeric job parameter (taken from the stored jobs, the iterations'
 *     "name=value ..." strings, never from operation names), the mean of
 *     each label against it with its interval band, a log-2 axis when
 *     the values are powers of two, one chart per value of the other
 *     parameters that vary;
 *   - per operation a strip plot of each label's unit values (one per
 *     iteration, stats_unit_values(); harmonic per iteration for
 *     higher-is-better operations) with the mean and its interval;
 *   - per label a run-order plot: every unit value, as a percentage of
 *     its operation's mean, against the time its iteration started,
 *     coloured by build (or by run when there are no builds);
 *   - per monitored benchmark the per-iteration changes of a few vmstat
 *     counters and, for runs with periodic samples (monitor_interval),
 *     their rates during each iteration; the mmtests Ops table is part
 *     of the comparison above.
 * Charts are inline SVG (svg.h) of class "chart KIND" with KIND one of
 * forest, scaling, strip, runorder, monitor, timeseries; the page has inline
 * CSS, no script and no reference to anything outside itself. Every name taken
 * from the database is escaped.
 *
 * Verdicts: until compare v2 reports them, a provisional verdict is made
 * from the interval alone: better when it lies above 0, worse when it
 * lies below, same when --margin is set and it lies within +-margin,
 * untested when the change could not be computed, else inconclusive.
 *
 * Errors: the functions returning int give 0 or -1 and append one line
 * to err. Ownership: struct report_label owns what it holds; release it
 * with report_label_release().
 */

/* The vmstat counters the monitor charts show, when they changed. */
#define REPORT_COUNTERS_NR 8

/* The name of monitor chart counter i < REPORT_COUNTERS_NR: "pgfault". */
const char *report_counter_name(size_t i);

/*
 * One compared label: its runs pooled (for compare), each in full, and
 * per counter the periodic samples of all its runs (store-series.h).
 */
struct report_label {
	char *label;
	struct run_data pooled;
	struct run_full *runs; /* oldest first */
	size_t runs_nr;
	struct monitor_series_list series[REPORT_COUNTERS_NR];
};

struct report_options {
	struct compare_options compare; /* test, alpha, fdr... */
	double margin_pct;		/* the band around 0; 0: none */
};

#define REPORT_OPTIONS_INIT                                                    \
	{                                                                      \
		.compare = COMPARE_OPTIONS_INIT, .margin_pct = 0               \
	}

/*
 * Load every run of label from st into *rl (zeroed by the caller;
 * released with report_label_release() also on failure). *found is set
 * false, and 0 returned, when the label has no runs.
 */
int report_label_load(struct store *st, const char *label,
		      struct report_label *rl, bool *found, struct strbuf *err);

/* Free what rl holds and zero it; NULL is a no-op. */
void report_label_release(struct report_label *rl);

/*
 * Append the report page of labels[0..nr) (labels[0] is the base, nr >=
 * 2) to out. Fails when the comparison cannot be made (compare_runs()).
 */
int report_render(const struct report_label *labels, size_t nr,
		  const struct report_options *opts, struct strbuf *out,
		  struct strbuf *err);

/* The verdict names by which the forest plot colours its rows. */
enum report_verdict {
	REPORT_BETTER,
	REPORT_WORSE,
	REPORT_SAME,
	REPORT_INCONCLUSIVE,
	REPORT_UNTESTED,
};
#define REPORT_VERDICT_NR 5

/* "better", "worse", "same", "inconclusive", "untested". */
const char *report_verdict_name(enum report_verdict v);

/*
 * The provisional verdict of a change whose interval is [low_pct,
 * high_pct] (positive = better; NaN: no bounded interval) and whose
 * point estimate is change_pct (NaN: untested), against margin_pct.
 */
enum report_verdict report_verdict_of(double change_pct, double low_pct,
				      double high_pct, double margin_pct);

#endif /* MMCMP_REPORT_H */
