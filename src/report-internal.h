#ifndef MMCMP_REPORT_INTERNAL_H
#define MMCMP_REPORT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "strvec.h"

struct compare_result;
struct report_label;
struct report_options;
struct strbuf;

/*
 * report-internal: what the three parts of the report share: the model
 * (report-model.c), per operation what every label has of it in the
 * units that compare pools; the charts drawn from it (report-charts.c);
 * and the page around them (report-page.c), which builds the model,
 * calls the charts and releases it. Chart functions append to out and
 * cannot fail.
 */

/* The page is laid out for 1280 pixels: three strip plots to a row. */
#define REPORT_PAGE_PX	1240
#define REPORT_HALF_PX	612
#define REPORT_THIRD_PX 406

/* One operation's unit values in one label. */
struct report_label_op {
	double *u;     /* as stats_unit_values() gives them (1/x when hb) */
	double *value; /* in the operation's unit: 1/u when hb */
	double *t_s;   /* start of the unit's iteration, Unix seconds */
	size_t *group; /* colour group: build, else run */
	size_t nr, alloc;
	double mean, lo, hi; /* in the operation's unit; NaN: none */
};

/* One operation of the base label, with what every label has of it. */
struct report_op {
	const char *bench, *name, *unit;
	bool higher_better;
	const char *job; /* the base's job for it; NULL: none or several */
	size_t metric;	 /* its index among the ops of the same job */
	struct report_label_op *l;
};

struct report_model {
	const struct report_label *labels;
	size_t nr;
	const struct report_options *opts;
	/* The comparison: every verdict, change and interval shown. */
	const struct compare_result *res;
	struct report_op *ops;
	size_t ops_nr;
	struct strvec groups; /* colour group names: builds or runs */
};

/*
 * Fill md->ops from md->labels (md->labels, nr, opts and res set by the
 * caller): one entry per operation of the base, with each label's unit
 * values, their start times and colour groups, mean and interval, and
 * the job of the base's iterations. Release with report_model_release().
 */
void report_model_build(struct report_model *md);
void report_model_release(struct report_model *md);

/* The charts of each section of the page, in its order. */
void report_forest_plot(const struct report_model *md, struct strbuf *out);
/* The number of charts drawn, for the ones that may draw none. */
size_t report_scaling_curves(const struct report_model *md, struct strbuf *out);
void report_strip_plots(const struct report_model *md, struct strbuf *out);
void report_run_order_plots(const struct report_model *md, struct strbuf *out);
size_t report_monitor_plots(const struct report_model *md, struct strbuf *out);
size_t report_timeseries_plots(const struct report_model *md,
			       struct strbuf *out);
/*
 * The differential flame graphs of the labels' profiles (report-flame.c),
 * each compared label's against the base's, job by job.
 */
size_t report_flame_graphs(const struct report_model *md, struct strbuf *out);

#endif /* MMCMP_REPORT_INTERNAL_H */
