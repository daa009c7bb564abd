/* report: the HTML page of a comparison, its tables and SVG charts. */
#include "report.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse-num.h"
#include "pool.h"
#include "render.h"
#include "stats.h"
#include "store.h"
#include "strbuf.h"
#include "strmap.h"
#include "svg.h"
#include "util.h"

/* The page is laid out for 1280 pixels: three strip plots to a row. */
#define PAGE_PX	 1240
#define HALF_PX	 612
#define THIRD_PX 406
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

static int cmp_int64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/*
 * The sorted distinct values of field run (run ids) or iteration of
 * every sample of rd; NULL arrays are skipped.
 */
static int64_t *pooled_ids(const struct run_data *rd, bool runs, size_t *nr)
{
	int64_t *ids = NULL;
	size_t n = 0, alloc = 0, out = 0;

	for (size_t k = 0; k < rd->ops_nr; k++) {
		const int64_t *v = runs ? rd->ops[k].run : rd->ops[k].iteration;

		for (size_t i = 0; v && i < rd->ops[k].nr; i++) {
			ALLOC_GROW(ids, n + 1, alloc);
			ids[n++] = v[i];
		}
	}
	if (n)
		qsort(ids, n, sizeof(*ids), cmp_int64);
	for (size_t i = 0; i < n; i++)
		if (!out || ids[out - 1] != ids[i])
			ids[out++] = ids[i];
	*nr = out;
	return ids;
}

int report_label_load(struct store *st, const char *label,
		      bool include_incomplete, struct report_label *rl,
		      size_t *loaded, struct strbuf *err)
{
	int64_t *ids = NULL;
	size_t ids_nr = 0;
	int ret = -1;

	*loaded = 0;
	rl->label = xstrdup(label);
	/* compare's loader and rules, so that both pool the same samples. */
	if (pool_load(st, label, NULL, 0, NULL, include_incomplete, &rl->pooled,
		      loaded, err))
		goto out;
	ids = pooled_ids(&rl->pooled, true, &ids_nr);
	rl->runs = xcalloc(ids_nr + 1, sizeof(*rl->runs));
	for (size_t i = 0; i < ids_nr; i++) {
		rl->runs_nr++;
		if (store_run_load_full(st, ids[i], NULL, &rl->runs[i], err))
			goto out;
		for (size_t k = 0; k < REPORT_COUNTERS_NR; k++)
			if (store_load_monitor_series(st, ids[i],
						      monitor_counters[k],
						      &rl->series[k], err))
				goto out;
	}
	ret = 0;
out:
	free(ids);
	return ret;
}

void report_label_release(struct report_label *rl)
{
	if (!rl)
		return;
	free(rl->label);
	run_data_release(&rl->pooled);
	run_full_free_array(rl->runs, rl->runs_nr);
	for (size_t k = 0; k < REPORT_COUNTERS_NR; k++)
		monitor_series_list_release(&rl->series[k]);
	memset(rl, 0, sizeof(*rl));
}

/* One operation's unit values in one label. */
struct label_op {
	double *u;     /* as stats_unit_values() gives them (1/x when hb) */
	double *value; /* in the operation's unit: 1/u when hb */
	double *t_s;   /* start of the unit's iteration, Unix seconds */
	size_t *group; /* colour group: build, else run */
	size_t nr, alloc;
	double mean, lo, hi; /* in the operation's unit; NaN: none */
};

/* One operation of the base label, with what every label has of it. */
struct rop {
	const char *bench, *name, *unit;
	bool higher_better;
	const char *job; /* the base's job for it; NULL: none or several */
	size_t metric;	 /* its index among the ops of the same job */
	struct label_op *l;
};

struct model {
	const struct report_label *labels;
	size_t nr;
	const struct report_options *opts;
	/* The comparison: every verdict, change and interval shown. */
	const struct compare_result *res;
	struct rop *ops;
	size_t ops_nr;
	struct strvec groups; /* colour group names: builds or runs */
};

static size_t group_index(struct strvec *groups, const char *name)
{
	for (size_t i = 0; i < groups->nr; i++)
		if (!strcmp(groups->v[i], name))
			return i;
	strvec_push(groups, name);
	return groups->nr - 1;
}

/* Seconds since the epoch of "YYYY-MM-DDTHH:MM:SSZ"; NaN when not one. */
static double parse_utc(const char *s)
{
	int f[6] = {0};
	static const int len[6] = {4, 2, 2, 2, 2, 2};
	long long y, m, d, era, yoe, doy, doe, days;

	if (!s || strlen(s) < 19)
		return NAN;
	for (size_t i = 0, pos = 0; i < 6; i++) {
		for (int k = 0; k < len[i]; k++, pos++) {
			if (s[pos] < '0' || s[pos] > '9')
				return NAN;
			f[i] = f[i] * 10 + (s[pos] - '0');
		}
		pos++; /* the separator */
	}
	/* Howard Hinnant's days_from_civil. */
	y = f[0] - (f[1] <= 2);
	m = f[1];
	d = f[2];
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	days = era * 146097 + doe - 719468;
	return (double)days * 86400 + f[3] * 3600.0 + f[4] * 60.0 + f[5];
}

static size_t find_op(const struct strmap *index, const char *bench,
		      const char *name)
{
	struct strbuf key = STRBUF_INIT;
	size_t at = SIZE_MAX;

	strbuf_addstr(&key, bench);
	strbuf_addch(&key, '\0');
	strbuf_addstr(&key, name);
	if (!strmap_get(index, key.buf, key.len, &at))
		at = SIZE_MAX;
	strbuf_release(&key);
	return at;
}

/* The mean of u[0..n) and its 1 - alpha t interval, in the op's unit. */
static void mean_interval(struct label_op *lo, bool hb, double alpha)
{
	double sum = 0, ss = 0, m, se, t;
	size_t n = 0;

	lo->mean = lo->lo = lo->hi = NAN;
	for (size_t i = 0; i < lo->nr; i++)
		if (isfinite(lo->u[i])) {
			sum += lo->u[i];
			n++;
		}
	if (!n)
		return;
	m = sum / (double)n;
	lo->mean = hb ? 1 / m : m;
	if (n < 2)
		return;
	for (size_t i = 0; i < lo->nr; i++)
		if (isfinite(lo->u[i]))
			ss += (lo->u[i] - m) * (lo->u[i] - m);
	se = sqrt(ss / (double)(n - 1) / (double)n);
	t = stats_t_isf(alpha / 2, (double)(n - 1));
	if (!hb) {
		lo->lo = m - t * se;
		lo->hi = m + t * se;
	} else if (m - t * se > 0) {
		lo->lo = 1 / (m + t * se);
		lo->hi = 1 / (m - t * se);
	}
}

/* Gather label li's samples per operation and turn them into units. */
static void gather_label(struct model *md, size_t li,
			 const struct strmap *index)
{
	const struct report_label *rl = &md->labels[li];
	size_t ops_nr = md->ops_nr;
	double **x = xcalloc(ops_nr, sizeof(*x));
	long long **key = xcalloc(ops_nr, sizeof(*key));
	size_t *n = xcalloc(ops_nr, sizeof(*n)), *alloc, pooled_nr = 0;
	int64_t *pooled;

	long long seq = 0; /* one key per iteration, whatever its id */

	alloc = xcalloc(ops_nr, sizeof(*alloc));
	/* Only the iterations compare pools (pool_load()). */
	pooled = pooled_ids(&rl->pooled, false, &pooled_nr);
	for (size_t r = 0; r < rl->runs_nr; r++) {
		const struct run_full *rf = &rl->runs[r];
		size_t *map = xcalloc(rf->ops_nr + 1, sizeof(*map));
		struct strbuf run_name = STRBUF_INIT;

		for (size_t k = 0; k < rf->ops_nr; k++)
			map[k] = find_op(index, rf->ops[k].benchmark,
					 rf->ops[k].name);
		strbuf_addf(&run_name, "run %lld", (long long)rf->info.id);
		for (size_t it = 0; it < rf->iters_nr; it++) {
			const struct iteration_data *id = &rf->iters[it];
			double t_s = parse_utc(id->started_at);
			size_t g = group_index(&md->groups,
					       id->build ? id->build
							 : run_name.buf);

			if (id->warmup || !bsearch(&id->id, pooled, pooled_nr,
						   sizeof(*pooled), cmp_int64))
				continue;
			seq++;
			for (size_t s = id->samples_first;
			     s < id->samples_first + id->samples_nr; s++) {
				size_t o = map[rf->samples[s].op];
				struct label_op *lo;

				if (o == SIZE_MAX)
					continue;
				lo = &md->ops[o].l[li];
				ALLOC_GROW(x[o], n[o] + 1, alloc[o]);
				key[o] = xrealloc(key[o],
						  alloc[o] * sizeof(*key[o]));
				x[o][n[o]] = rf->samples[s].value;
				key[o][n[o]++] = seq;
				/* One unit per iteration (the keys differ). */
				if (n[o] == 1 || key[o][n[o] - 2] != seq) {
					ALLOC_GROW(lo->t_s, lo->nr + 1,
						   lo->alloc);
					lo->group = xrealloc(
						lo->group,
						lo->alloc * sizeof(*lo->group));
					lo->t_s[lo->nr] = t_s;
					lo->group[lo->nr++] = g;
				}
			}
		}
		strbuf_release(&run_name);
		free(map);
	}
	for (size_t o = 0; o < ops_nr; o++) {
		struct label_op *lo = &md->ops[o].l[li];
		bool hb = md->ops[o].higher_better;
		size_t units;

		lo->u = xcalloc(n[o] + 1, sizeof(*lo->u));
		lo->value = xcalloc(n[o] + 1, sizeof(*lo->value));
		units = stats_unit_values(x[o], key[o], n[o], hb, lo->u, NULL);
		if (units != lo->nr)
			BUG("units %zu of %zu iterations", units, lo->nr);
		for (size_t k = 0; k < units; k++)
			lo->value[k] = hb ? 1 / lo->u[k] : lo->u[k];
		mean_interval(lo, hb, md->opts->compare.alpha);
		free(x[o]);
		free(key[o]);
	}
	free(x);
	free(key);
	free(n);
	free(alloc);
	free(pooled);
}

/* The job of the base's iterations with samples of each operation. */
static void find_jobs(struct model *md, const struct strmap *index)
{
	const struct report_label *base = &md->labels[0];
	bool *mixed = xcalloc(md->ops_nr + 1, sizeof(*mixed));

	for (size_t r = 0; r < base->runs_nr; r++) {
		const struct run_full *rf = &base->runs[r];

		for (size_t it = 0; it < rf->iters_nr; it++) {
			const struct iteration_data *id = &rf->iters[it];

			for (size_t s = id->samples_first;
			     id->job && s < id->samples_first + id->samples_nr;
			     s++) {
				const struct op_samples *op =
					&rf->ops[rf->samples[s].op];
				size_t o =
					find_op(index, op->benchmark, op->name);

				if (o == SIZE_MAX)
					continue;
				if (!md->ops[o].job)
					md->ops[o].job = id->job;
				else if (strcmp(md->ops[o].job, id->job))
					mixed[o] = true;
			}
		}
	}
	for (size_t o = 0; o < md->ops_nr; o++) {
		if (mixed[o])
			md->ops[o].job = NULL;
		for (size_t k = 0; k < o && md->ops[o].job; k++)
			md->ops[o].metric +=
				md->ops[k].job &&
				!strcmp(md->ops[k].bench, md->ops[o].bench) &&
				!strcmp(md->ops[k].job, md->ops[o].job);
	}
	free(mixed);
}

static void model_build(struct model *md)
{
	const struct run_data *base = &md->labels[0].pooled;
	struct strmap index = STRMAP_INIT;
	struct strbuf key = STRBUF_INIT;

	md->ops = xcalloc(base->ops_nr + 1, sizeof(*md->ops));
	for (size_t i = 0; i < base->ops_nr; i++) {
		const struct op_samples *op = &base->ops[i];
		struct rop *r = &md->ops[md->ops_nr];

		strbuf_setlen(&key, 0);
		strbuf_addstr(&key, op->benchmark);
		strbuf_addch(&key, '\0');
		strbuf_addstr(&key, op->name);
		if (find_op(&index, op->benchmark, op->name) != SIZE_MAX)
			continue;
		strmap_put(&index, key.buf, key.len, md->ops_nr++);
		r->bench = op->benchmark;
		r->name = op->name;
		r->unit = op->unit;
		r->higher_better = op->higher_better;
		r->l = xcalloc(md->nr, sizeof(*r->l));
	}
	for (size_t li = 0; li < md->nr; li++)
		gather_label(md, li, &index);
	find_jobs(md, &index);
	strbuf_release(&key);
	strmap_clear(&index);
}

static void model_release(struct model *md)
{
	for (size_t o = 0; o < md->ops_nr; o++) {
		for (size_t li = 0; li < md->nr; li++) {
			free(md->ops[o].l[li].u);
			free(md->ops[o].l[li].value);
			free(md->ops[o].l[li].t_s);
			free(md->ops[o].l[li].group);
		}
		free(md->ops[o].l);
	}
	free(md->ops);
	strvec_clear(&md->groups);
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
static void forest_plot(const struct model *md, struct strbuf *out)
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
	for (size_t bi = 0; bi < res->bench_nr; bi++)
		for (size_t o = 0;
		     !res->bench[bi].monitor && o < res->bench[bi].ops_nr; o++)
			for (size_t i = 1; i < res->runs_nr; i++) {
				const struct stats_change *ch =
					&res->bench[bi].ops[o].side[i].change;

				if (isfinite(ch->low_pct))
					lo = fmin(lo, ch->low_pct);
				if (isfinite(ch->high_pct))
					hi = fmax(hi, ch->high_pct);
				if (isfinite(ch->change_pct)) {
					lo = fmin(lo, ch->change_pct);
					hi = fmax(hi, ch->change_pct);
				}
			}
	chart_figure_begin(out, "wide");
	/* At least the height of the legend of five verdicts. */
	svg_chart_begin(&c, out, "forest", PAGE_PX,
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

/* Per operation: every label's unit values, mean and interval. */
static void strip_plots(const struct model *md, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT, yt = STRBUF_INIT;

	strbuf_addstr(out, "<div class=\"grid\">\n");
	for (size_t o = 0; o < md->ops_nr; o++) {
		const struct rop *r = &md->ops[o];
		double lo = INFINITY, hi = -INFINITY;
		struct svg_chart c;

		for (size_t li = 0; li < md->nr; li++) {
			const struct label_op *l = &r->l[li];

			for (size_t k = 0; k < l->nr; k++)
				if (isfinite(l->value[k])) {
					lo = fmin(lo, l->value[k]);
					hi = fmax(hi, l->value[k]);
				}
			if (isfinite(l->lo))
				lo = fmin(lo, l->lo);
			if (isfinite(l->hi))
				hi = fmax(hi, l->hi);
		}
		strbuf_setlen(&sb, 0);
		strbuf_addf(&sb, "%s %s", r->bench, r->name);
		chart_figure_begin(out, "third");
		svg_chart_begin(&c, out, "strip", THIRD_PX, 280, sb.buf, 70,
				12);
		svg_axis_linear(&c.y, lo, hi, 6);
		svg_axis_plain(&c.x, -0.5, (double)md->nr - 0.5);
		axis_title(&yt,
			   r->higher_better ? "iteration Hmean"
					    : "iteration mean",
			   r->unit);
		svg_chart_axes(&c, NULL, yt.buf);
		for (size_t li = 0; li < md->nr; li++) {
			const struct label_op *l = &r->l[li];
			double x = (double)li;

			svg_text(&c, svg_axis_map(&c.x, x), c.bottom + 18,
				 "middle", "tick", md->labels[li].label);
			for (size_t k = 0; k < l->nr; k++) {
				strbuf_setlen(&sb, 0);
				strbuf_addf(&sb, "%s: %g", md->labels[li].label,
					    l->value[k]);
				svg_marker(&c, x - 0.25 + 0.3 * jitter(k),
					   l->value[k], li, false, sb.buf);
			}
			svg_segment(&c, x + 0.15, l->lo, x + 0.15, l->hi, li,
				    2);
			svg_segment(&c, x + 0.05, l->mean, x + 0.25, l->mean,
				    li, 3);
			strbuf_setlen(&sb, 0);
			strbuf_addf(&sb, "%s: mean %g [%g, %g], %zu units",
				    md->labels[li].label, l->mean, l->lo, l->hi,
				    l->nr);
			svg_marker(&c, x + 0.15, l->mean, li, true, sb.buf);
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
static void other_key(const struct model *md, const struct bench_jobs *bj,
		      size_t i, const char *p, struct strbuf *key,
		      struct strbuf *caption)
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

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* One scaling chart: ops member[0..n) against parameter p at values x. */
static void scaling_chart(const struct model *md, const size_t *member,
			  const double *x, size_t n, const char *p,
			  const char *caption, struct strbuf *out)
{
	const struct rop *r0 = &md->ops[member[0]];
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
			const struct label_op *l = &md->ops[member[i]].l[li];

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
	svg_chart_begin(&c, out, "scaling", HALF_PX, 360, sb.buf, 78, 16);
	if (svg_powers_of_two(xs, n))
		svg_axis_log2(&c.x, xs[0], xs[n - 1]);
	else
		svg_axis_linear(&c.x, xs[0], xs[n - 1], 8);
	svg_axis_linear(&c.y, lo, hi, 6);
	axis_title(&yt, r0->higher_better ? "Hmean" : "mean", r0->unit);
	svg_chart_axes(&c, p, yt.buf);
	for (size_t li = 0; li < md->nr; li++) {
		for (size_t i = 0; i < n; i++) {
			const struct label_op *l =
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
static size_t scaling_bench(const struct model *md, const struct bench_jobs *bj,
			    struct strbuf *out)
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

static size_t scaling_curves(const struct model *md, struct strbuf *out)
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

/* Per label: unit values as % of their op's mean, against time. */
static void run_order_plots(const struct model *md, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t li = 0; li < md->nr; li++) {
		double t0 = INFINITY, t1 = -INFINITY, lo = INFINITY,
		       hi = -INFINITY;
		bool *used = xcalloc(md->groups.nr + 1, sizeof(*used));
		const char **names = xcalloc(md->groups.nr + 1, sizeof(*names));
		size_t *style = xcalloc(md->groups.nr + 1, sizeof(*style));
		size_t legend_nr = 0;
		struct svg_chart c;
		double scale;

		for (size_t o = 0; o < md->ops_nr; o++) {
			const struct label_op *l = &md->ops[o].l[li];

			for (size_t k = 0; k < l->nr; k++) {
				double pct = 100 * (l->value[k] / l->mean - 1);

				if (!isfinite(l->t_s[k]) || !isfinite(pct))
					continue;
				t0 = fmin(t0, l->t_s[k]);
				t1 = fmax(t1, l->t_s[k]);
				lo = fmin(lo, pct);
				hi = fmax(hi, pct);
			}
		}
		strbuf_setlen(&sb, 0);
		strbuf_addf(&sb, "%s: unit values in run order",
			    md->labels[li].label);
		chart_figure_begin(out, "wide");
		svg_chart_begin(&c, out, "runorder", PAGE_PX, 300, sb.buf, 78,
				24);
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
		for (size_t o = 0; o < md->ops_nr; o++) {
			const struct rop *r = &md->ops[o];
			const struct label_op *l = &r->l[li];

			for (size_t k = 0; k < l->nr; k++) {
				double pct = 100 * (l->value[k] / l->mean - 1);

				if (!isfinite(l->t_s[k]) || !isfinite(pct))
					continue;
				used[l->group[k]] = true;
				strbuf_setlen(&sb, 0);
				strbuf_addf(&sb, "%s %s, %s: %g (%+.2f%%)",
					    r->bench, r->name,
					    md->groups.v[l->group[k]],
					    l->value[k], pct);
				svg_marker(&c, (l->t_s[k] - t0) / scale, pct,
					   l->group[k], true, sb.buf);
			}
		}
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
static const struct monitor_counter *label_counter(const struct model *md,
						   size_t li, const char *bench,
						   const char *name)
{
	const struct run_data *rd = &md->labels[li].pooled;

	for (size_t b = 0; b < rd->monitors_nr; b++)
		if (!strcmp(rd->monitors[b].benchmark, bench))
			return monitor_table_get(&rd->monitors[b], name);
	return NULL;
}

/* Per monitored benchmark and counter: its change per iteration. */
static size_t monitor_plots(const struct model *md, struct strbuf *out)
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
			svg_chart_begin(&c, out, "monitor", HALF_PX, 300,
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
static void timeseries_chart(const struct model *md, const char *bench,
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
	svg_chart_begin(&c, out, "timeseries", HALF_PX, 300, sb.buf, 78, 16);
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
static size_t timeseries_plots(const struct model *md, struct strbuf *out)
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

/* One row per pooled run: its id, uuid, start, status, config, host. */
static void runs_table(const struct model *md, struct strbuf *out)
{
	strbuf_addstr(out, "<table class=\"prov\">\n<tr><th>label</th>"
			   "<th>run</th><th>uuid</th><th>started</th>"
			   "<th>status</th><th>config</th><th>config sha256"
			   "</th><th>host</th><th>kernel</th><th>mmcmp</th>"
			   "</tr>\n");
	for (size_t li = 0; li < md->nr; li++) {
		const struct report_label *rl = &md->labels[li];

		for (size_t r = 0; r < rl->runs_nr; r++) {
			const struct run_info *ri = &rl->runs[r].info;
			const char *cells[] = {
				ri->uuid,
				ri->started_at,
				ri->status,
				ri->config_name,
				ri->config_hash,
				ri->machine.hostname,
				ri->machine.kernel_release,
				ri->mmcmp_version,
			};

			strbuf_addstr(out, "<tr><td>");
			svg_escape(out, rl->label);
			strbuf_addf(out, "</td><td>%lld</td>",
				    (long long)ri->id);
			for (size_t k = 0; k < ARRAY_SIZE(cells); k++) {
				strbuf_addstr(out, "<td>");
				svg_escape(out, cells[k] ? cells[k] : "-");
				strbuf_addstr(out, "</td>");
			}
			strbuf_addstr(out, "</tr>\n");
		}
	}
	strbuf_addstr(out, "</table>\n");
}

static void section(struct strbuf *out, const char *id, const char *title)
{
	strbuf_addf(out, "<h2 id=\"%s\">%s</h2>\n", id, title);
}

/*
 * The comparison as `compare --format html` prints it: the body of
 * render()'s page, its tables, change rows, footers, notes and warnings,
 * so that whatever compare's page gains appears here too.
 */
static int comparison(const struct model *md, struct strbuf *out,
		      struct strbuf *err)
{
	struct render_options ropts = RENDER_OPTIONS_INIT;
	struct strbuf page = STRBUF_INIT;
	const char *start, *end;
	int ret = -1;

	if (render(RENDER_HTML, md->res, &ropts, &page, err))
		goto out;
	start = strstr(page.buf, "<body>\n");
	end = start ? strstr(start, "</body>") : NULL;
	if (!start || !end)
		BUG("render() gave an html page without a body");
	start += strlen("<body>\n");
	/*
	 * compare's page opens with its provenance block (per label, the
	 * warning block, the notes), so the comparison comes first; the
	 * table of the pooled runs, one row each, follows as the detail.
	 */
	section(out, "comparison", "Comparison");
	strbuf_add(out, start, (size_t)(end - start));
	section(out, "runs", "Runs pooled");
	runs_table(md, out);
	ret = 0;
out:
	strbuf_release(&page);
	return ret;
}

static const char report_css[] =
	"body { font-family: sans-serif; margin: 1em auto; max-width: 1240px;"
	" color: #111; }\n"
	"h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.5em;"
	" border-bottom: 1px solid #888; }\n"
	"table.resultsTable { border-collapse: collapse; }\n"
	"table.resultsTable td, table.resultsTable th { font-family: monospace;"
	" white-space: pre; padding: 0; }\n"
	"p.footer { font-family: monospace; }\n"
	"div.warning { border: 1px solid #FFA0A0; padding: 0 1em; }\n"
	"table.prov { border-collapse: collapse; font-size: 0.85em; }\n"
	"table.prov td, table.prov th { border: 1px solid #bbb;"
	" padding: 2px 6px; text-align: left; }\n"
	"div.grid { display: flex; flex-wrap: wrap; gap: 8px; }\n"
	"figure { margin: 0; }\n"
	"svg.chart { background: #fff; font-size: 12px; }\n"
	"svg.chart .ctitle { font-size: 13px; font-weight: bold; }\n"
	"svg.chart .frame { fill: none; stroke: #444; }\n"
	"svg.chart .grid { stroke: #ddd; }\n"
	"svg.chart .tick, svg.chart .rowlabel { fill: #222; font-size: 11px; }\n"
	"svg.chart .axis { fill: #111; }\n"
	"svg.chart .series { stroke-width: 2; }\n"
	"svg.chart .mark { stroke-width: 1.4; }\n"
	"svg.chart .zero { stroke: #000; stroke-width: 1; }\n"
	"svg.chart .na { fill: #666; font-size: 11px; font-style: italic; }\n"
	"svg.chart .margin { fill: #bbb; fill-opacity: 0.35; }\n"
	"svg.chart .legendbox { fill: #fff; fill-opacity: 0.9; stroke: #999; }\n";

int report_render(const struct report_label *labels, size_t nr,
		  const struct report_options *opts, struct strbuf *out,
		  struct strbuf *err)
{
	struct model md = {
		.labels = labels,
		.nr = nr,
		.opts = opts,
		.groups = STRVEC_INIT,
	};
	struct compare_result res = COMPARE_RESULT_INIT;
	struct run_data *runs = NULL;
	struct strbuf body = STRBUF_INIT;
	size_t monitors;
	int ret = -1;

	if (nr < 2) {
		strbuf_addstr(err, "a report needs a base and another label");
		goto out;
	}
	/* compare_runs() only reads its runs: a shallow copy will do. */
	runs = xcalloc(nr, sizeof(*runs));
	for (size_t i = 0; i < nr; i++)
		runs[i] = labels[i].pooled;
	if (compare_runs(runs, nr, &opts->compare, &res, err))
		goto out;
	md.res = &res;
	model_build(&md);
	if (comparison(&md, &body, err))
		goto out;
	section(&body, "forest", "Changes");
	strbuf_addf(&body,
		    "<p>Change of each label against the base, positive ="
		    " better, with its %g%% interval and verdict as compare"
		    " gives them (%s, on one value per %s",
		    100 * (1 - res.opts.alpha),
		    compare_test_name(res.opts.test),
		    compare_unit_nth(res.opts.unit));
	if (res.opts.fdr)
		strbuf_addstr(&body, ", BH-adjusted p");
	if (res.opts.margin_pct > 0)
		strbuf_addf(&body, ", margin &#177;%g%%", res.opts.margin_pct);
	strbuf_addstr(&body, ").</p>\n");
	forest_plot(&md, &body);
	section(&body, "scaling", "Scaling");
	scaling_curves(&md, &body);
	section(&body, "units", "Unit values");
	strip_plots(&md, &body);
	section(&body, "runorder", "Run order");
	run_order_plots(&md, &body);
	section(&body, "monitors", "Monitors");
	monitors = monitor_plots(&md, &body);
	monitors += timeseries_plots(&md, &body);
	if (!monitors)
		strbuf_addstr(&body, "<p>No monitor data.</p>\n");

	strbuf_addstr(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
			   "<meta charset=\"utf-8\">\n"
			   "<meta name=\"viewport\" content=\"width=1280\">\n"
			   "<title>mmcmp report: ");
	for (size_t i = 0; i < nr; i++) {
		if (i)
			strbuf_addstr(out, " vs ");
		svg_escape(out, labels[i].label);
	}
	strbuf_addf(out,
		    "</title>\n<style>\n%s</style>\n</head>\n<body>\n"
		    "<h1>mmcmp report: ",
		    report_css);
	for (size_t i = 0; i < nr; i++) {
		if (i)
			strbuf_addstr(out, " vs ");
		svg_escape(out, labels[i].label);
	}
	strbuf_addstr(out, "</h1>\n");
	strbuf_add(out, body.buf, body.len);
	strbuf_addstr(out, "</body>\n</html>\n");
	ret = 0;
out:
	model_release(&md);
	compare_result_release(&res);
	free(runs);
	strbuf_release(&body);
	return ret;
}
