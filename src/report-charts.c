/* report-charts: the SVG charts of the report page. */
#include "report-internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "parse-num.h"
#include "report.h"
#include "stats.h"
#include "strbuf.h"
#include "svg.h"
#include "util.h"

/* Room right of the forest plot for its legend of the verdicts. */
#define FOREST_LEGEND_PX 150

/* The verdicts in the forest plot's legend, and the rows' series styles. */
static const enum stats_verdict legend_verdicts[] = {
	STATS_VERDICT_BETTER,	    STATS_VERDICT_WORSE,    STATS_VERDICT_SAME,
	STATS_VERDICT_INCONCLUSIVE, STATS_VERDICT_UNTESTED,
};

/* The series style (svg.h) of verdict v: green, vermillion, blue... */
static size_t verdict_style(enum stats_verdict v)
{
	switch (v) {
	case STATS_VERDICT_BETTER:
		return 2;
	case STATS_VERDICT_WORSE:
		return 1;
	case STATS_VERDICT_SAME:
		return 0;
	case STATS_VERDICT_INCONCLUSIVE:
		return 4;
	case STATS_VERDICT_UNTESTED:
		break;
	}
	return 7;
}

/* Counters worth a look in a monitor chart, when they changed. */
static const char *const monitor_counters[REPORT_COUNTERS_NR] = {
	"pgfault",	 "pgmajfault",	  "thp_fault_alloc",  "pgscan_kswapd",
	"pgscan_direct", "compact_stall", "numa_hint_faults", "pswpout",
};

const char *report_counter_name(size_t i)
{
	return i < REPORT_COUNTERS_NR ? monitor_counters[i] : NULL;
}

/* "NAME (UNIT)", or NAME without a unit. */
static void axis_title(struct strbuf *sb, const char *name, const char *unit)
{
	strbuf_setlen(sb, 0);
	strbuf_addstr(sb, name);
	if (unit && *unit)
		strbuf_addf(sb, " (%s)", unit);
}

static void chart_figure_begin(struct strbuf *out, const char *cls)
{
	strbuf_addf(out, "<figure class=\"%s\">\n", cls);
}

static void chart_figure_end(struct strbuf *out)
{
	strbuf_addstr(out, "</figure>\n");
}

/* The compared sides of the workload tables: the forest plot's rows. */
static size_t forest_rows(const struct compare_result *res)
{
	size_t rows = 0;

	for (size_t bi = 0; bi < res->bench_nr; bi++)
		if (!res->bench[bi].monitor)
			rows += res->bench[bi].ops_nr * (res->runs_nr - 1);
	return rows;
}

/* Widen [*lo, *hi] to every finite change and bound of the forest's rows. */
static void forest_range(const struct compare_result *res, double *lo,
			 double *hi)
{
	for (size_t bi = 0; bi < res->bench_nr; bi++)
		for (size_t o = 0;
		     !res->bench[bi].monitor && o < res->bench[bi].ops_nr; o++)
			for (size_t i = 1; i < res->runs_nr; i++) {
				const struct stats_change *ch =
					&res->bench[bi].ops[o].side[i].change;

				if (isfinite(ch->low_pct))
					*lo = fmin(*lo, ch->low_pct);
				if (isfinite(ch->high_pct))
					*hi = fmax(*hi, ch->high_pct);
				if (isfinite(ch->change_pct)) {
					*lo = fmin(*lo, ch->change_pct);
					*hi = fmax(*hi, ch->change_pct);
				}
			}
}

/*
 * A forest row without a change (untested): no point on the 0% line,
 * which would read as "no change", but "untested: n/a" there, its tooltip
 * the row's name (in sb) with the reason.
 */
static void forest_untested(struct svg_chart *c,
			    const struct compare_result *res, double y,
			    const struct compare_side *sd, struct strbuf *sb)
{
	strbuf_addstr(sb, ": untested, change n/a (");
	if (sd->untested == COMPARE_TESTED)
		strbuf_addstr(sb, "no change computed");
	else
		compare_untested_text(res, sd->untested, sb);
	strbuf_addch(sb, ')');
	strbuf_addf(c->out,
		    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\""
		    " class=\"na\"><title>",
		    svg_axis_map(&c->x, 0), svg_axis_map(&c->y, y) + 4);
	svg_escape(c->out, sb->buf);
	strbuf_addstr(c->out, "</title>untested: n/a</text>\n");
}

/*
 * The forest plot: one line per operation and compared label, with the
 * change, interval and verdict of the compare result, never its own.
 */
void report_forest_plot(const struct report_model *md, struct strbuf *out)
{
	const struct compare_result *res = md->res;
	double margin = res->opts.margin_pct;
	size_t rows = forest_rows(res), row = 0;
	double lo = -margin, hi = margin;
	struct svg_chart c;
	struct strbuf sb = STRBUF_INIT;
	const char *names[ARRAY_SIZE(legend_verdicts)];
	size_t styles[ARRAY_SIZE(legend_verdicts)];

	if (!rows)
		return;
	forest_range(res, &lo, &hi);
	chart_figure_begin(out, "wide");
	/* At least the height of the legend of five verdicts. */
	svg_chart_begin(&c, out, "forest", REPORT_PAGE_PX,
			(int)(rows < 5 ? 210 : rows * 20 + 110),
			"Change against the base, with its interval", 420,
			FOREST_LEGEND_PX);
	svg_axis_linear(&c.x, lo, hi, 9);
	svg_axis_plain(&c.y, 0, (double)rows);
	svg_chart_axes(&c, "change (%, positive = better)", NULL);
	if (margin > 0) {
		double x0 = svg_axis_map(&c.x, -margin);
		double x1 = svg_axis_map(&c.x, margin);

		strbuf_addf(out,
			    "<rect class=\"margin\" x=\"%.1f\" y=\"%.1f\""
			    " width=\"%.1f\" height=\"%.1f\"><title>margin"
			    " &#177;%g%%</title></rect>\n",
			    x0, c.top, x1 - x0, c.bottom - c.top, margin);
	}
	strbuf_addf(out,
		    "<line class=\"zero\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\""
		    " y2=\"%.1f\"/>\n",
		    svg_axis_map(&c.x, 0), svg_axis_map(&c.x, 0), c.top,
		    c.bottom);
	for (size_t bi = 0; bi < res->bench_nr; bi++) {
		const struct compare_bench *b = &res->bench[bi];

		for (size_t o = 0; !b->monitor && o < b->ops_nr; o++) {
			for (size_t i = 1; i < res->runs_nr; i++, row++) {
				const struct compare_side *sd =
					&b->ops[o].side[i];
				const struct stats_change *ch = &sd->change;
				size_t s = verdict_style(sd->verdict);
				double y = (double)rows - (double)row - 0.5;
				bool tested = sd->untested == COMPARE_TESTED &&
					      isfinite(ch->change_pct);

				strbuf_addf(out, "<g class=\"row %s\">\n",
					    stats_verdict_name(sd->verdict));
				strbuf_setlen(&sb, 0);
				strbuf_addf(&sb, "%s %s (%s)", b->name,
					    b->ops[o].name, res->labels[i]);
				svg_text(&c, c.left - 8,
					 svg_axis_map(&c.y, y) + 4, "end",
					 "rowlabel", sb.buf);
				if (!tested) {
					forest_untested(&c, res, y, sd, &sb);
					strbuf_addstr(out, "</g>\n");
					continue;
				}
				svg_segment(&c, ch->low_pct, y, ch->high_pct, y,
					    s, 2);
				strbuf_addf(&sb,
					    ": %s, change %.2f%% [%.2f, %.2f]",
					    stats_verdict_name(sd->verdict),
					    ch->change_pct, ch->low_pct,
					    ch->high_pct);
				svg_marker(&c, ch->change_pct, y, s, true,
					   sb.buf);
				strbuf_addstr(out, "</g>\n");
			}
		}
	}
	for (size_t v = 0; v < ARRAY_SIZE(legend_verdicts); v++) {
		names[v] = stats_verdict_name(legend_verdicts[v]);
		styles[v] = verdict_style(legend_verdicts[v]);
	}
	/* The legend goes right of the plot box, clear of the rows. */
	c.right = c.width - 4;
	svg_legend(&c, names, styles, ARRAY_SIZE(legend_verdicts));
	svg_chart_end(&c);
	chart_figure_end(out);
	strbuf_release(&sb);
}

/* A deterministic jitter in [-0.5, 0.5) for point k (a golden ratio walk). */
static double jitter(size_t k)
{
	double f = (double)k * 0.6180339887498949;

	return f - floor(f) - 0.5;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The most points a strip or run-order chart draws (report.h). */
static size_t points_max(const struct report_model *md)
{
	return md->opts->points_max ? md->opts->points_max : REPORT_POINTS_MAX;
}

/*
 * The finite unit values of l that a strip plot draws, *nr of them: all
 * when there are at most max, else max evenly spaced quantiles of them
 * (the sorted values at ranks round(k (n - 1) / (max - 1))), so that the
 * lowest, the highest and the shape stay. The caller frees the result.
 */
static double *strip_points(const struct report_label_op *l, size_t max,
			    size_t *nr)
{
	double *v = xcalloc(l->nr + 1, sizeof(*v));
	size_t n = 0;

	for (size_t k = 0; k < l->nr; k++)
		if (isfinite(l->value[k]))
			v[n++] = l->value[k];
	if (n > max) {
		qsort(v, n, sizeof(*v), cmp_double);
		for (size_t k = 0; k < max; k++)
			v[k] = v[(size_t)llround((double)k * (double)(n - 1) /
						 (double)(max - 1))];
		n = max;
	}
	*nr = n;
	return v;
}

/*
 * Label li's column of a strip plot at x: its points (pts[0..n)), its
 * interval and mean.
 */
static void strip_label(struct svg_chart *c, const struct report_model *md,
			size_t li, const struct report_label_op *l,
			const double *pts, size_t n, struct strbuf *sb)
{
	double x = (double)li;

	svg_text(c, svg_axis_map(&c->x, x), c->bottom + 18, "middle", "tick",
		 md->labels[li].label);
	for (size_t k = 0; k < n; k++) {
		strbuf_setlen(sb, 0);
		strbuf_addf(sb, "%s: %g", md->labels[li].label, pts[k]);
		svg_marker(c, x - 0.25 + 0.3 * jitter(k), pts[k], li, false,
			   sb->buf);
	}
	svg_segment(c, x + 0.15, l->lo, x + 0.15, l->hi, li, 2);
	svg_segment(c, x + 0.05, l->mean, x + 0.25, l->mean, li, 3);
	strbuf_setlen(sb, 0);
	strbuf_addf(sb, "%s: mean %g [%g, %g], %zu units", md->labels[li].label,
		    l->mean, l->lo, l->hi, l->nr);
	svg_marker(c, x + 0.15, l->mean, li, true, sb->buf);
}

/* The range [*lo, *hi] of op r's strip plot: its values and intervals. */
static void strip_range(const struct report_model *md,
			const struct report_op *r, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t li = 0; li < md->nr; li++) {
		const struct report_label_op *l = &r->l[li];

		for (size_t k = 0; k < l->nr; k++)
			if (isfinite(l->value[k])) {
				*lo = fmin(*lo, l->value[k]);
				*hi = fmax(*hi, l->value[k]);
			}
		if (isfinite(l->lo))
			*lo = fmin(*lo, l->lo);
		if (isfinite(l->hi))
			*hi = fmax(*hi, l->hi);
	}
}

/*
 * Per operation: every label's unit values, mean and interval; beyond
 * points_max() units in all, quantiles of each label's (strip_points()).
 */
void report_strip_plots(const struct report_model *md, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT, yt = STRBUF_INIT;
	size_t max = points_max(md);

	strbuf_addstr(out, "<div class=\"grid\">\n");
	for (size_t o = 0; o < md->ops_nr; o++) {
		const struct report_op *r = &md->ops[o];
		size_t units = 0, per = max / md->nr, shown = 0;
		double lo, hi;
		struct svg_chart c;

		for (size_t li = 0; li < md->nr; li++)
			units += r->l[li].nr;
		if (units <= max)
			per = SIZE_MAX;
		else if (per < 2)
			per = 2;
		strip_range(md, r, &lo, &hi);
		strbuf_setlen(&sb, 0);
		strbuf_addf(&sb, "%s %s", r->bench, r->name);
		chart_figure_begin(out, "third");
		svg_chart_begin(&c, out, "strip", REPORT_THIRD_PX, 280, sb.buf,
				70, 12);
		svg_axis_linear(&c.y, lo, hi, 6);
		svg_axis_plain(&c.x, -0.5, (double)md->nr - 0.5);
		axis_title(&yt,
			   r->higher_better ? "iteration Hmean"
					    : "iteration mean",
			   r->unit);
		svg_chart_axes(&c, NULL, yt.buf);
		for (size_t li = 0; li < md->nr; li++) {
			size_t n;
			double *pts = strip_points(&r->l[li], per, &n);

			strip_label(&c, md, li, &r->l[li], pts, n, &sb);
			shown += n;
			free(pts);
		}
		if (per != SIZE_MAX) {
			strbuf_setlen(&sb, 0);
			strbuf_addf(&sb,
				    "%zu of %zu units shown: at most %zu"
				    " quantiles per label",
				    shown, units, per);
			svg_text(&c, (c.left + c.right) / 2, c.height - 10,
				 "middle", "note", sb.buf);
		}
		svg_chart_end(&c);
		chart_figure_end(out);
	}
	strbuf_addstr(out, "</div>\n");
	strbuf_release(&sb);
	strbuf_release(&yt);
}

/* A job string "a=1 b=x" as parallel name and value vectors. */
static void parse_job(const char *job, struct strvec *names,
		      struct strvec *values)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, job);
	for (char *p = sb.buf; *p;) {
		char *end = strchr(p, ' '), *eq;

		if (end)
			*end = '\0';
		eq = strchr(p, '=');
		if (eq) {
			*eq = '\0';
			strvec_push(names, p);
			strvec_push(values, eq + 1);
		} else if (values->nr) {
			/* A value with a space: join it to the last one. */
			struct strbuf v = STRBUF_INIT;

			strbuf_addf(&v, "%s %s", values->v[values->nr - 1], p);
			free(values->v[values->nr - 1]);
			values->v[values->nr - 1] = strbuf_detach(&v, NULL);
		}
		if (!end)
			break;
		p = end + 1;
	}
	strbuf_release(&sb);
}

static const char *job_value(const struct strvec *names,
			     const struct strvec *values, const char *name)
{
	for (size_t i = 0; i < names->nr; i++)
		if (!strcmp(names->v[i], name))
			return values->v[i];
	return NULL;
}

/* The parsed job of each op of one benchmark. */
struct bench_jobs {
	size_t *op; /* indices into model.ops */
	struct strvec *names, *values;
	size_t nr;
};

static void bench_jobs_release(struct bench_jobs *bj)
{
	for (size_t i = 0; i < bj->nr; i++) {
		strvec_clear(&bj->names[i]);
		strvec_clear(&bj->values[i]);
	}
	free(bj->op);
	free(bj->names);
	free(bj->values);
}

/* Whether parameter p takes more than one value among the jobs. */
static bool param_varies(const struct bench_jobs *bj, const char *p)
{
	const char *first = NULL;

	for (size_t i = 0; i < bj->nr; i++) {
		const char *v = job_value(&bj->names[i], &bj->values[i], p);

		if (!v)
			return true;
		if (!first)
			first = v;
		else if (strcmp(first, v))
			return true;
	}
	return false;
}

/*
 * The key of job i without parameter p: its metric index and the values
 * of the other parameters.
 */
static void other_key(const struct report_model *md,
		      const struct bench_jobs *bj, size_t i, const char *p,
		      struct strbuf *key, struct strbuf *caption)
{
	strbuf_setlen(key, 0);
	strbuf_setlen(caption, 0);
	strbuf_addf(key, "%zu", md->ops[bj->op[i]].metric);
	for (size_t k = 0; k < bj->names[i].nr; k++) {
		if (!strcmp(bj->names[i].v[k], p))
			continue;
		strbuf_addf(key, "\n%s=%s", bj->names[i].v[k],
			    bj->values[i].v[k]);
		if (!param_varies(bj, bj->names[i].v[k]))
			continue;
		strbuf_addf(caption, "%s%s=%s", caption->len ? ", " : "",
			    bj->names[i].v[k], bj->values[i].v[k]);
	}
}

/* One scaling chart: ops member[0..n) against parameter p at values x. */
static void scaling_chart(const struct report_model *md, const size_t *member,
			  const double *x, size_t n, const char *p,
			  const char *caption, struct strbuf *out)
{
	const struct report_op *r0 = &md->ops[member[0]];
	struct strbuf sb = STRBUF_INIT, yt = STRBUF_INIT;
	double *xs = xcalloc(n, sizeof(*xs)), *ym = xcalloc(n, sizeof(*ym));
	double *yl = xcalloc(n, sizeof(*yl)), *yh = xcalloc(n, sizeof(*yh));
	size_t *ord = xcalloc(n, sizeof(*ord));
	const char **names = xcalloc(md->nr, sizeof(*names));
	double lo = INFINITY, hi = -INFINITY;
	struct svg_chart c;

	/* Sort the members by their value of p (n is small). */
	for (size_t i = 0; i < n; i++)
		xs[i] = x[i];
	qsort(xs, n, sizeof(*xs), cmp_double);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < n; k++)
			if (x[k] == xs[i])
				ord[i] = k;
	for (size_t li = 0; li < md->nr; li++)
		for (size_t i = 0; i < n; i++) {
			const struct report_label_op *l =
				&md->ops[member[i]].l[li];

			if (isfinite(l->mean)) {
				lo = fmin(lo,
					  isfinite(l->lo) ? l->lo : l->mean);
				hi = fmax(hi,
					  isfinite(l->hi) ? l->hi : l->mean);
			}
		}
	/* Name an op only where a job has several (one chart per metric). */
	if (r0->metric)
		strbuf_addf(&sb, "%s %s: mean against %s", r0->bench, r0->name,
			    p);
	else
		strbuf_addf(&sb, "%s: mean against %s", r0->bench, p);
	if (*caption)
		strbuf_addf(&sb, " (%s)", caption);
	chart_figure_begin(out, "half");
	svg_chart_begin(&c, out, "scaling", REPORT_HALF_PX, 360, sb.buf, 78,
			16);
	if (svg_powers_of_two(xs, n))
		svg_axis_log2(&c.x, xs[0], xs[n - 1]);
	else
		svg_axis_linear(&c.x, xs[0], xs[n - 1], 8);
	svg_axis_linear(&c.y, lo, hi, 6);
	axis_title(&yt, r0->higher_better ? "Hmean" : "mean", r0->unit);
	svg_chart_axes(&c, p, yt.buf);
	for (size_t li = 0; li < md->nr; li++) {
		for (size_t i = 0; i < n; i++) {
			const struct report_label_op *l =
				&md->ops[member[ord[i]]].l[li];

			ym[i] = l->mean;
			yl[i] = l->lo;
			yh[i] = l->hi;
		}
		svg_band(&c, xs, yl, yh, n, li);
		svg_polyline(&c, xs, ym, n, li);
		for (size_t i = 0; i < n; i++) {
			strbuf_setlen(&sb, 0);
			strbuf_addf(&sb, "%s, %s=%g: %g [%g, %g]",
				    md->labels[li].label, p, xs[i], ym[i],
				    yl[i], yh[i]);
			/* Error bars too: a band needs two bounded points. */
			svg_segment(&c, xs[i], yl[i], xs[i], yh[i], li, 1);
			svg_marker(&c, xs[i], ym[i], li, true, sb.buf);
		}
		names[li] = md->labels[li].label;
	}
	svg_legend(&c, names, NULL, md->nr);
	svg_chart_end(&c);
	chart_figure_end(out);
	free(xs);
	free(ym);
	free(yl);
	free(yh);
	free(ord);
	free(names);
	strbuf_release(&sb);
	strbuf_release(&yt);
}

/* The scaling charts of the benchmark whose ops (with a job) are bj. */
static size_t scaling_bench(const struct report_model *md,
			    const struct bench_jobs *bj, struct strbuf *out)
{
	struct strvec params = STRVEC_INIT;
	struct strbuf key = STRBUF_INIT, cap = STRBUF_INIT, k2 = STRBUF_INIT,
		      cap2 = STRBUF_INIT;
	size_t *member = xcalloc(bj->nr + 1, sizeof(*member));
	double *x = xcalloc(bj->nr + 1, sizeof(*x));
	bool *done = xcalloc(bj->nr + 1, sizeof(*done));
	size_t charts = 0;

	for (size_t i = 0; i < bj->nr; i++)
		for (size_t k = 0; k < bj->names[i].nr; k++) {
			bool seen = false;

			for (size_t q = 0; q < params.nr; q++)
				seen |= !strcmp(params.v[q], bj->names[i].v[k]);
			if (!seen)
				strvec_push(&params, bj->names[i].v[k]);
		}
	for (size_t q = 0; q < params.nr; q++) {
		const char *p = params.v[q];
		bool numeric = param_varies(bj, p);

		for (size_t i = 0; i < bj->nr && numeric; i++) {
			const char *v =
				job_value(&bj->names[i], &bj->values[i], p);

			numeric = v && parse_double(v, &x[i]) && isfinite(x[i]);
		}
		if (!numeric)
			continue;
		memset(done, 0, bj->nr * sizeof(*done));
		for (size_t i = 0; i < bj->nr; i++) {
			size_t n = 0;
			bool clash = false;

			if (done[i])
				continue;
			other_key(md, bj, i, p, &key, &cap);
			for (size_t j = i; j < bj->nr; j++) {
				if (done[j])
					continue;
				other_key(md, bj, j, p, &k2, &cap2);
				if (strcmp(key.buf, k2.buf))
					continue;
				done[j] = true;
				for (size_t m = 0; m < n; m++)
					clash |= x[member[m]] == x[j];
				member[n++] = j;
			}
			if (n < 2 || clash)
				continue;
			{
				size_t *ops = xcalloc(n, sizeof(*ops));
				double *xv = xcalloc(n, sizeof(*xv));

				for (size_t m = 0; m < n; m++) {
					ops[m] = bj->op[member[m]];
					xv[m] = x[member[m]];
				}
				scaling_chart(md, ops, xv, n, p, cap.buf, out);
				charts++;
				free(ops);
				free(xv);
			}
		}
	}
	free(member);
	free(x);
	free(done);
	strvec_clear(&params);
	strbuf_release(&key);
	strbuf_release(&cap);
	strbuf_release(&k2);
	strbuf_release(&cap2);
	return charts;
}

size_t report_scaling_curves(const struct report_model *md, struct strbuf *out)
{
	bool *seen = xcalloc(md->ops_nr + 1, sizeof(*seen));
	size_t charts = 0;

	strbuf_addstr(out, "<div class=\"grid\">\n");
	for (size_t o = 0; o < md->ops_nr; o++) {
		struct bench_jobs bj = {0};

		if (seen[o])
			continue;
		bj.op = xcalloc(md->ops_nr, sizeof(*bj.op));
		bj.names = xcalloc(md->ops_nr, sizeof(*bj.names));
		bj.values = xcalloc(md->ops_nr, sizeof(*bj.values));
		for (size_t k = o; k < md->ops_nr; k++) {
			if (strcmp(md->ops[k].bench, md->ops[o].bench))
				continue;
			seen[k] = true;
			if (!md->ops[k].job)
				continue;
			bj.op[bj.nr] = k;
			strvec_init(&bj.names[bj.nr]);
			strvec_init(&bj.values[bj.nr]);
			parse_job(md->ops[k].job, &bj.names[bj.nr],
				  &bj.values[bj.nr]);
			bj.nr++;
		}
		charts += scaling_bench(md, &bj, out);
		bench_jobs_release(&bj);
	}
	strbuf_addstr(out, "</div>\n");
	if (!charts)
		strbuf_addstr(out, "<p>No operations differ in exactly one"
				   " numeric job parameter.</p>\n");
	free(seen);
	return charts;
}

/* Unit k of l as a percentage of its op's mean; NaN: not drawn. */
static double runorder_pct(const struct report_label_op *l, size_t k)
{
	double pct = 100 * (l->value[k] / l->mean - 1);

	return isfinite(l->t_s[k]) ? pct : NAN;
}

/*
 * The time span [*t0, *t1] and percentage range [*lo, *hi] of label li's
 * run-order plot; returns the number of units it could draw.
 */
static size_t runorder_range(const struct report_model *md, size_t li,
			     double *t0, double *t1, double *lo, double *hi)
{
	size_t units = 0;

	*t0 = *lo = INFINITY;
	*t1 = *hi = -INFINITY;
	for (size_t o = 0; o < md->ops_nr; o++) {
		const struct report_label_op *l = &md->ops[o].l[li];

		for (size_t k = 0; k < l->nr; k++) {
			double pct = runorder_pct(l, k);

			if (!isfinite(pct))
				continue;
			*t0 = fmin(*t0, l->t_s[k]);
			*t1 = fmax(*t1, l->t_s[k]);
			*lo = fmin(*lo, pct);
			*hi = fmax(*hi, pct);
			units++;
		}
	}
	return units;
}

/*
 * The points of label li's run-order plot: every stride-th unit it can
 * draw, in the order of its operations and their iterations; used[g]
 * set for each colour group drawn.
 */
static void runorder_points(struct svg_chart *c, const struct report_model *md,
			    size_t li, double t0, double scale, size_t stride,
			    bool *used, struct strbuf *sb)
{
	size_t seen = 0;

	for (size_t o = 0; o < md->ops_nr; o++) {
		const struct report_op *r = &md->ops[o];
		const struct report_label_op *l = &r->l[li];

		for (size_t k = 0; k < l->nr; k++) {
			double pct = runorder_pct(l, k);

			if (!isfinite(pct) || seen++ % stride)
				continue;
			used[l->group[k]] = true;
			strbuf_setlen(sb, 0);
			strbuf_addf(sb, "%s %s, %s: %g (%+.2f%%)", r->bench,
				    r->name, md->groups.v[l->group[k]],
				    l->value[k], pct);
			svg_marker(c, (l->t_s[k] - t0) / scale, pct,
				   l->group[k], true, sb->buf);
		}
	}
}

/*
 * Per label: unit values as % of their op's mean, against time; beyond
 * points_max() units, every stride-th of them.
 */
void report_run_order_plots(const struct report_model *md, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;
	size_t max = points_max(md);

	for (size_t li = 0; li < md->nr; li++) {
		double t0, t1, lo, hi;
		bool *used = xcalloc(md->groups.nr + 1, sizeof(*used));
		const char **names = xcalloc(md->groups.nr + 1, sizeof(*names));
		size_t *style = xcalloc(md->groups.nr + 1, sizeof(*style));
		size_t legend_nr = 0, stride = 1;
		size_t units = runorder_range(md, li, &t0, &t1, &lo, &hi);
		struct svg_chart c;
		double scale;

		strbuf_setlen(&sb, 0);
		strbuf_addf(&sb, "%s: unit values in run order",
			    md->labels[li].label);
		if (units > max) {
			stride = (units + max - 1) / max;
			strbuf_addf(&sb, " (%zu of %zu units shown: 1 in %zu)",
				    (units + stride - 1) / stride, units,
				    stride);
		}
		chart_figure_begin(out, "wide");
		svg_chart_begin(&c, out, "runorder", REPORT_PAGE_PX, 300,
				sb.buf, 78, 24);
		/* Minutes, or seconds for a label run in under two minutes. */
		scale = isfinite(t0) && t1 - t0 >= 120 ? 60 : 1;
		svg_axis_linear(&c.x, 0, isfinite(t0) ? (t1 - t0) / scale : 1,
				10);
		svg_axis_linear(&c.y, lo, hi, 6);
		svg_chart_axes(
			&c,
			scale == 60
				? "minutes since the label's first iteration"
				: "seconds since the label's first iteration",
			"% of the operation's mean");
		runorder_points(&c, md, li, t0, scale, stride, used, &sb);
		for (size_t g = 0; g < md->groups.nr; g++)
			if (used[g]) {
				names[legend_nr] = md->groups.v[g];
				style[legend_nr++] = g;
			}
		svg_legend(&c, names, style, legend_nr);
		svg_chart_end(&c);
		chart_figure_end(out);
		free(used);
		free(names);
		free(style);
	}
	strbuf_release(&sb);
}

/* Counter name of benchmark bench in label li's monitors, or NULL. */
static const struct monitor_counter *
label_counter(const struct report_model *md, size_t li, const char *bench,
	      const char *name)
{
	const struct run_data *rd = &md->labels[li].pooled;

	for (size_t b = 0; b < rd->monitors_nr; b++)
		if (!strcmp(rd->monitors[b].benchmark, bench))
			return monitor_table_get(&rd->monitors[b], name);
	return NULL;
}

/* Per monitored benchmark and counter: its change per iteration. */
size_t report_monitor_plots(const struct report_model *md, struct strbuf *out)
{
	const struct run_data *base = &md->labels[0].pooled;
	struct strbuf sb = STRBUF_INIT;
	const char **names = xcalloc(md->nr, sizeof(*names));
	size_t charts = 0;

	strbuf_addstr(out, "<div class=\"grid\">\n");
	for (size_t b = 0; b < base->monitors_nr; b++) {
		const char *bench = base->monitors[b].benchmark;

		for (size_t k = 0; k < ARRAY_SIZE(monitor_counters); k++) {
			const char *name = monitor_counters[k];
			double lo = INFINITY, hi = -INFINITY, n_max = 1;
			struct svg_chart c;

			for (size_t li = 0; li < md->nr; li++) {
				const struct monitor_counter *mc =
					label_counter(md, li, bench, name);

				for (size_t i = 0; mc && i < mc->nr; i++) {
					lo = fmin(lo, mc->v[i]);
					hi = fmax(hi, mc->v[i]);
				}
				if (mc)
					n_max = fmax(n_max, (double)mc->nr);
			}
			if (!isfinite(lo) || hi <= 0)
				continue;
			strbuf_setlen(&sb, 0);
			strbuf_addf(&sb, "%s: %s per iteration", bench, name);
			chart_figure_begin(out, "half");
			svg_chart_begin(&c, out, "monitor", REPORT_HALF_PX, 300,
					sb.buf, 78, 16);
			/* Whole iterations: no more ticks than there are. */
			svg_axis_linear(&c.x, 1, n_max,
					n_max < 8 ? (size_t)n_max : 8);
			svg_axis_linear(&c.y, fmin(lo, 0), hi, 6);
			svg_chart_axes(&c, "monitored iteration",
				       "change (count)");
			for (size_t li = 0; li < md->nr; li++) {
				const struct monitor_counter *mc =
					label_counter(md, li, bench, name);
				double *xi;

				names[li] = md->labels[li].label;
				if (!mc)
					continue;
				xi = xcalloc(mc->nr + 1, sizeof(*xi));
				for (size_t i = 0; i < mc->nr; i++) {
					xi[i] = (double)(i + 1);
					svg_marker(&c, xi[i], mc->v[i], li,
						   true, NULL);
				}
				svg_polyline(&c, xi, mc->v, mc->nr, li);
				free(xi);
			}
			svg_legend(&c, names, NULL, md->nr);
			svg_chart_end(&c);
			chart_figure_end(out);
			charts++;
		}
	}
	strbuf_addstr(out, "</div>\n");
	free(names);
	strbuf_release(&sb);
	return charts;
}

/* The rate of series ms at sample i: its change over the time since the last.
 */
static double series_rate(const struct monitor_series *ms, size_t i)
{
	double dt = ms->t_s[i] - (i ? ms->t_s[i - 1] : 0);

	return dt > 0 ? ms->value[i] / dt : NAN;
}

/* One chart of counter k in benchmark bench, one line per iteration. */
static void timeseries_chart(const struct report_model *md, const char *bench,
			     size_t k, struct strbuf *out)
{
	double t_max = 0, lo = INFINITY, hi = -INFINITY;
	const char **names = xcalloc(md->nr, sizeof(*names));
	struct strbuf sb = STRBUF_INIT;
	struct svg_chart c;

	for (size_t li = 0; li < md->nr; li++) {
		const struct monitor_series_list *l = &md->labels[li].series[k];

		names[li] = md->labels[li].label;
		for (size_t s = 0; s < l->nr; s++)
			for (size_t i = 0; !strcmp(l->v[s].benchmark, bench) &&
					   i < l->v[s].nr;
			     i++) {
				double r = series_rate(&l->v[s], i);

				t_max = fmax(t_max, l->v[s].t_s[i]);
				if (isfinite(r)) {
					lo = fmin(lo, r);
					hi = fmax(hi, r);
				}
			}
	}
	strbuf_addf(&sb, "%s: %s per second during each iteration", bench,
		    monitor_counters[k]);
	chart_figure_begin(out, "half");
	svg_chart_begin(&c, out, "timeseries", REPORT_HALF_PX, 300, sb.buf, 78,
			16);
	svg_axis_linear(&c.x, 0, t_max, 8);
	svg_axis_linear(&c.y, fmin(lo, 0), hi, 6);
	svg_chart_axes(&c, "seconds after the iteration started",
		       "change per second");
	for (size_t li = 0; li < md->nr; li++) {
		const struct monitor_series_list *l = &md->labels[li].series[k];

		for (size_t s = 0; s < l->nr; s++) {
			const struct monitor_series *ms = &l->v[s];
			double *y;

			if (strcmp(ms->benchmark, bench))
				continue;
			y = xcalloc(ms->nr + 1, sizeof(*y));
			for (size_t i = 0; i < ms->nr; i++)
				y[i] = series_rate(ms, i);
			svg_polyline(&c, ms->t_s, y, ms->nr, li);
			free(y);
		}
	}
	svg_legend(&c, names, NULL, md->nr);
	svg_chart_end(&c);
	chart_figure_end(out);
	free(names);
	strbuf_release(&sb);
}

/* The periodic samples' charts: per benchmark and counter that changed. */
size_t report_timeseries_plots(const struct report_model *md,
			       struct strbuf *out)
{
	struct strvec benches = STRVEC_INIT;
	size_t charts = 0;

	for (size_t li = 0; li < md->nr; li++)
		for (size_t k = 0; k < REPORT_COUNTERS_NR; k++)
			for (size_t s = 0; s < md->labels[li].series[k].nr;
			     s++) {
				const char *b =
					md->labels[li].series[k].v[s].benchmark;
				bool seen = false;

				for (size_t i = 0; i < benches.nr; i++)
					seen |= !strcmp(benches.v[i], b);
				if (!seen)
					strvec_push(&benches, b);
			}
	strbuf_addstr(out, "<div class=\"grid\">\n");
	for (size_t b = 0; b < benches.nr; b++)
		for (size_t k = 0; k < REPORT_COUNTERS_NR; k++) {
			bool changed = false;

			for (size_t li = 0; li < md->nr; li++) {
				const struct monitor_series_list *l =
					&md->labels[li].series[k];

				for (size_t s = 0; s < l->nr; s++)
					for (size_t i = 0;
					     !strcmp(l->v[s].benchmark,
						     benches.v[b]) &&
					     i < l->v[s].nr;
					     i++)
						changed |=
							l->v[s].value[i] != 0;
			}
			if (!changed)
				continue;
			timeseries_chart(md, benches.v[b], k, out);
			charts++;
		}
	strbuf_addstr(out, "</div>\n");
	strvec_clear(&benches);
	return charts;
}
