#ifndef MMCMP_REPORT_H
#define MMCMP_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compare.h"
#include "run-data.h"
#include "store-profile.h"
#include "store-series.h"

struct store;
struct strbuf;

/*
 * report: one self-contained HTML page about a comparison, for `mmcmp
 * report`, made of the labels' runs that the caller loaded (cmd/ reads
 * the store; report_render() documents what the page holds). The model
 * is report-model.c, the charts report-charts.c and the page
 * report-page.c. Functions returning int give 0 or -1 and append one
 * line to err. struct report_label owns what it holds; release it with
 * report_label_release(). Order: fill each label (report_pooled_ids()
 * names its runs), report_render(), report_label_release().
 */

/* The vmstat counters the monitor charts show, when they changed. */
#define REPORT_COUNTERS_NR 8

/* The name of monitor chart counter i < REPORT_COUNTERS_NR: "pgfault". */
const char *report_counter_name(size_t i);

/*
 * One compared label: its runs pooled as compare pools them
 * (pool_load(): complete runs and the iterations that succeeded,
 * unless compare_options.include_incomplete), each pooled run in full,
 * per counter (report_counter_name()) the periodic samples of those
 * runs (store-series.h), and the label's profiles (store-profile.h) as
 * mmcmp explain takes them: of every run of the label.
 */
struct report_label {
	char *label;
	struct run_data pooled; /* its notes say what was left out */
	struct run_full *runs;	/* the pooled runs, oldest first */
	size_t runs_nr;
	struct monitor_series_list series[REPORT_COUNTERS_NR];
	struct profile_rows profiles;
};

/*
 * The most unit values a strip or run-order chart draws: beyond it a
 * chart shows a summary of them, and says so.
 */
#define REPORT_POINTS_MAX 2000

struct report_options {
	/* test, alpha, fdr, unit, margin_pct, include_incomplete... */
	struct compare_options compare;
	size_t points_max; /* per chart; 0: REPORT_POINTS_MAX */
};

#define REPORT_OPTIONS_INIT                                                    \
	{                                                                      \
		.compare = COMPARE_OPTIONS_INIT                                \
	}

/*
 * The sorted distinct ids of the runs (runs true) or of the iterations
 * of every sample of rd, *nr of them; the caller frees the array. The
 * runs are those a label's pooled run_data holds, to load in full into
 * report_label.runs.
 */
int64_t *report_pooled_ids(const struct run_data *rd, bool runs, size_t *nr);

/*
 * Load label into *rl (zeroed by the caller; report_label_release() it,
 * also on failure) as compare pools it: pool_load() under
 * include_incomplete, each pooled run in full and its monitor series.
 * *loaded counts the runs pooled; 0, with 0 returned, when the label has
 * none (rl->pooled.notes then says whether runs were left out). The only
 * part of the report that reads the store.
 */
int report_label_load(struct store *st, const char *label,
		      bool include_incomplete, struct report_label *rl,
		      size_t *loaded, struct strbuf *err);

/* Free what rl holds and zero it; NULL is a no-op. */
void report_label_release(struct report_label *rl);

/*
 * Append the report page of labels[0..nr) (labels[0] is the base, nr >=
 * 2) to out. Fails when the comparison cannot be made (compare_runs()).
 * One compare_runs() result of the labels' pooled runs gives every
 * verdict, change and interval on the page, so that nothing on it
 * contradicts `compare --format html`. It holds, in this order:
 *   - the comparison as `compare --format html` prints it
 *     (render_html_body(): provenance, tables, footers and notes), then
 *     the provenance of every pooled run (uuid, config hash, machine);
 *   - a forest plot: per operation and compared label the change against
 *     the base with its interval and verdict from the compare result
 *     (compare_side: change, verdict), the +-margin band, and a colour
 *     and marker per verdict; each row is a <g class="row VERDICT">;
 *   - scaling curves: wherever operations of a benchmark differ in one
 *     numeric job parameter (taken from the stored jobs, the iterations'
 *     "name=value ..." strings, never from operation names), the mean of
 *     each label against it with its interval band, a log-2 axis when
 *     the values are powers of two, one chart per value of the other
 *     parameters that vary;
 *   - per operation a strip plot of each label's unit values (one per
 *     pooled iteration, stats_unit_values(); harmonic per iteration for
 *     higher-is-better operations) with the mean and its interval;
 *     beyond points_max units in all, each label shows points_max / nr
 *     evenly spaced quantiles of its units (the lowest and highest
 *     among them), and the chart says how many of how many;
 *   - per label a run-order plot: every unit value, as a percentage of
 *     its operation's mean, against the time its iteration started,
 *     coloured by build (or by run when there are no builds); beyond
 *     points_max units, every k-th in run order, and the title says so;
 *   - per monitored benchmark the per-iteration changes of a few vmstat
 *     counters and, for runs with periodic samples (monitor_interval),
 *     their rates during each iteration; the mmtests Ops table is part
 *     of the comparison above;
 *   - per profiled job and compared label whose profiles the base's
 *     share, a differential flame graph (explain-flame.h) of explain by
 *     call path against the base, at compare's alpha and BH option.
 * Charts are inline SVG (svg.h) of class "chart KIND" with KIND one of
 * forest, scaling, strip, runorder, monitor, timeseries, flame; the page has
 * inline CSS, no script and no reference to anything outside itself.
 * Every name taken from the database is escaped.
 */
int report_render(const struct report_label *labels, size_t nr,
		  const struct report_options *opts, struct strbuf *out,
		  struct strbuf *err);

#endif /* MMCMP_REPORT_H */
