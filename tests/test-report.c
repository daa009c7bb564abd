/*
 * Unit tests of the report (report-*.c): the charts of a made-up database,
 * well-formed, escaped and self-contained; scaling from jobs; the forest
 * plot's verdicts are those of compare_runs(); the differential flame
 * graphs of profiles whose split of work between two functions moved.
 */
#include <math.h>
#include <stdlib.h>

#include "render.h"
#include "report-internal.h"
#include "report.h"
#include "store-profile.h"
#include "store.h"
#include "strbuf.h"
#include "util.h"
#include "uuid.h"
#include "tap.h"
#include "test-svg.h"

static const char *const labels[] = {
	"base",
	"<script>alert(1)</script>",
	"a&b \"q\" 'r'",
};

/*
 * Operation names say nothing of their jobs on purpose: the scaling
 * charts must come from the stored jobs.
 */
static const struct {
	const char *bench, *name, *job;
	double base;
} ops[] = {
	{"pf", "alpha", "mode=processes tasks=1 seconds=3", 100},
	{"pf", "beta", "mode=processes tasks=2 seconds=3", 190},
	{"pf", "gamma", "mode=processes tasks=4 seconds=3", 350},
	{"pf", "delta", "mode=threads tasks=1 seconds=3", 90},
	{"pf", "epsilon", "mode=threads tasks=2 seconds=3", 160},
	{"pf", "zeta", "mode=threads tasks=4 seconds=3", 260},
	{"trunc", "one", "size=1M", 40},
};

/* Per label the factor on the base's values: worse, about the same. */
static const double factor[] = {1, 0.8, 1.001};

static int64_t add_run(struct store *st, size_t li, struct strbuf *err)
{
	struct run_info ri = {0};
	char uuid[37];
	int64_t id = 0;

	if (uuid_v4(uuid, err))
		return 0;
	ri.uuid = xstrdup(uuid);
	ri.label = xstrdup(labels[li]);
	ri.status = xstrdup("complete");
	ri.config_name = xstrdup("<cfg>");
	ri.config_text = xstrdup("name: x\n");
	ri.config_hash = xstrdup("00ff");
	ri.started_at = xstrdup("2026-01-02T03:04:05Z");
	ri.mmcmp_version = xstrdup("0.1.0");
	ri.machine.hostname = xstrdup("host&");
	if (!store_run_create(st, &ri, err))
		id = ri.id;
	run_info_release(&ri);
	return id;
}

/*
 * Four measured iterations per op and label (the third label lacks the
 * trunc benchmark, so its row is untested), one warm-up, builds named.
 */
static int fill(struct store *st, struct strbuf *err)
{
	for (size_t li = 0; li < ARRAY_SIZE(labels); li++) {
		int64_t run = add_run(st, li, err);

		if (!run)
			return -1;
		for (size_t o = 0; o < ARRAY_SIZE(ops); o++) {
			int64_t op_id;

			if (li == 2 && !strcmp(ops[o].bench, "trunc"))
				continue;
			if (store_operation(st, run, ops[o].bench, ops[o].name,
					    "ops/s", true, 2, &op_id, err))
				return -1;
			for (int k = 0; k < 5; k++) {
				char when[32];
				struct iteration_rec it = {
					.run_id = run,
					.benchmark = ops[o].bench,
					.job = ops[o].job,
					.build = li ? "patched" : "vanilla",
					.index = k,
					.warmup = k == 0,
					.status = "ok",
					.started_at = when,
				};
				struct sample_rec s[2] = {
					{op_id, ops[o].base * factor[li] *
							(1 + 0.01 * (k % 3))},
					{op_id, ops[o].base * factor[li] *
							(1 - 0.01 * (k % 2))},
				};

				snprintf(when, sizeof(when),
					 "2026-01-02T03:%02zu:%02dZ", o, k * 7);
				if (store_iteration_add(st, &it, s, 2, NULL,
							err))
					return -1;
			}
		}
	}
	return 0;
}

static size_t count(const char *s, const char *needle)
{
	size_t n = 0;

	for (const char *p = s; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* Every <svg>...</svg> of page is well-formed XML. */
static bool charts_balanced(const char *page, size_t *charts)
{
	const char *p = page;

	*charts = 0;
	while ((p = strstr(p, "<svg "))) {
		const char *end = strstr(p, "</svg>");
		size_t elements;

		if (!end)
			return false;
		end += strlen("</svg>");
		if (!xml_balanced(p, (size_t)(end - p), &elements))
			return false;
		(*charts)++;
		p = end;
	}
	return *charts > 0;
}

/*
 * The forest plot's rows of page, in order, carry the verdicts of
 * compare_runs() on the same pooled labels: one <g class="row V"> per
 * operation and compared label of the workload tables.
 */
static void forest_matches_compare(const struct report_label *rl, size_t nr,
				   const struct report_options *opts,
				   const char *page)
{
	struct compare_result res = COMPARE_RESULT_INIT;
	struct strbuf err = STRBUF_INIT, want = STRBUF_INIT, html = STRBUF_INIT;
	struct render_options ropts = RENDER_OPTIONS_INIT;
	const char *body, *end;
	struct run_data *runs = xcalloc(nr, sizeof(*runs));
	const char *p = strstr(page, "class=\"chart forest\"");
	size_t rows = 0, agree = 0;

	for (size_t i = 0; i < nr; i++)
		runs[i] = rl[i].pooled;
	if (!ok(!compare_runs(runs, nr, &opts->compare, &res, &err),
		"compare_runs() on the report's labels")) {
		diag("%s", err.buf);
		goto out;
	}
	for (size_t bi = 0; bi < res.bench_nr; bi++)
		for (size_t o = 0;
		     !res.bench[bi].monitor && o < res.bench[bi].ops_nr; o++)
			for (size_t i = 1; i < res.runs_nr; i++, rows++) {
				const char *v = stats_verdict_name(
					res.bench[bi].ops[o].side[i].verdict);

				strbuf_reset(&want);
				strbuf_addf(&want, "<g class=\"row %s\">", v);
				p = p ? strstr(p, "<g class=\"row ") : NULL;
				if (p && !strncmp(p, want.buf, want.len))
					agree++;
				else
					diag("row %zu: want %s", rows, v);
				p = p ? p + 1 : NULL;
			}
	ok(rows == ARRAY_SIZE(ops) * (nr - 1) && agree == rows,
	   "%zu of %zu forest rows carry compare's verdict", agree, rows);
	ok(p && !strstr(p, "<g class=\"row "), "and there are no more rows");
	/* The comparison part is compare's html page body, byte for byte. */
	if (render(RENDER_HTML, &res, &ropts, &html, &err))
		BUG("render() cannot fail");
	body = strstr(html.buf, "<body>\n");
	end = body ? strstr(body, "</body>") : NULL;
	if (end)
		strbuf_setlen(&html, (size_t)(end - html.buf));
	ok(end && strstr(page, body + strlen("<body>\n")),
	   "the page holds the body of compare --format html");
out:
	compare_result_release(&res);
	free(runs);
	strbuf_release(&err);
	strbuf_release(&want);
	strbuf_release(&html);
}

/*
 * The forest plot's one untested row (the missing op) has no point and
 * no interval, only "untested: n/a" with the reason in its tooltip; no
 * row of the plot says nan.
 */
static void forest_untested_row(const char *page)
{
	const char *forest = strstr(page, "class=\"chart forest\"");
	const char *end = forest ? strstr(forest, "</svg>") : NULL;
	const char *row =
		forest ? strstr(forest, "<g class=\"row untested\">") : NULL;
	const char *row_end = row ? strstr(row, "</g>") : NULL;
	char *plot = NULL, *g = NULL;

	if (!ok(end && row_end && row_end < end, "an untested forest row"))
		return;
	plot = xstrndup(forest, (size_t)(end - forest));
	g = xstrndup(row, (size_t)(row_end - row));
	ok(!strstr(g, "class=\"mark\"") && !strstr(g, "<line"),
	   "it has neither a point nor an interval");
	ok(strstr(g, ">untested: n/a</text>") &&
		   strstr(g, ": untested, change n/a (operation missing)"),
	   "it reads untested: n/a, its tooltip says why");
	ok(!strstr(plot, "nan"), "no nan in the forest plot");
	ok(count(plot, "<g class=\"row untested\">") == 1,
	   "the only untested row");
	free(plot);
	free(g);
}

static void test_page(void)
{
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct store *st = store_open(":memory:", &err);
	struct report_label rl[ARRAY_SIZE(labels)], none = {0};
	struct report_options opts = REPORT_OPTIONS_INIT;
	size_t charts = 0, loaded = 0;

	memset(rl, 0, sizeof(rl));
	if (!ok(st && !fill(st, &err), "a made-up database")) {
		diag("%s", err.buf);
		goto out;
	}
	for (size_t i = 0; i < ARRAY_SIZE(labels); i++)
		ok(!report_label_load(st, labels[i], false, &rl[i], &loaded,
				      &err) &&
			   loaded == 1 && rl[i].runs_nr == 1,
		   "label %zu loads", i);
	ok(!report_label_load(st, "nosuch", false, &none, &loaded, &err) &&
		   !loaded && !none.runs_nr && !none.pooled.notes.nr,
	   "an unknown label is not found");
	report_label_release(&none);
	opts.compare.margin_pct = 2;
	if (!ok(!report_render(rl, ARRAY_SIZE(labels), &opts, &out, &err),
		"the report renders")) {
		diag("%s", err.buf);
		goto out;
	}
	ok(charts_balanced(out.buf, &charts), "%zu charts, each well-formed",
	   charts);
	ok(count(out.buf, "class=\"chart forest\"") == 1, "one forest plot");
	/* pf: tasks scales within each mode; trunc has a single job. */
	ok(count(out.buf, "class=\"chart scaling\"") == 2,
	   "two scaling charts, one per mode");
	/* Twice each: the chart's <title> and its visible heading. */
	ok(count(out.buf, "mean against tasks (mode=processes)") == 2 &&
		   count(out.buf, "mean against tasks (mode=threads)") == 2,
	   "the scaling charts name the other parameter that varies");
	ok(count(out.buf, "class=\"chart strip\"") == ARRAY_SIZE(ops),
	   "one strip plot per operation");
	ok(count(out.buf, "class=\"chart runorder\"") == ARRAY_SIZE(labels),
	   "one run-order plot per label");
	ok(count(out.buf, "class=\"chart monitor\"") == 0,
	   "no monitor charts without monitor data");
	ok(!strstr(out.buf, "<script") && !strstr(out.buf, "\"q\"") &&
		   !strstr(out.buf, "host&<") &&
		   strstr(out.buf, "&lt;script&gt;alert(1)&lt;/script&gt;") &&
		   strstr(out.buf, "a&amp;b &quot;q&quot; &#39;r&#39;"),
	   "hostile labels are escaped everywhere");
	ok(!strstr(out.buf, "http") && !strstr(out.buf, "src=") &&
		   !strstr(out.buf, "href=") && !strstr(out.buf, "url(") &&
		   !strstr(out.buf, "@import"),
	   "the page references nothing outside itself");
	ok(strstr(out.buf, "class=\"resultsTable\"") &&
		   strstr(out.buf, "mean comparisons significant"),
	   "the comparison tables and footers of compare --format html");
	/* 7 ops x 2 compared labels: label 1 is 20% worse everywhere. */
	ok(count(out.buf, "(&lt;script&gt;alert(1)&lt;/script&gt;): worse,") ==
		   ARRAY_SIZE(ops),
	   "the worse label's rows are worse");
	ok(count(out.buf, "&#39;r&#39;): same,") == ARRAY_SIZE(ops) - 1 &&
		   count(out.buf, "&#39;r&#39;): untested,") == 1,
	   "a change within the margin is the same, a missing op untested");
	ok(count(out.buf, "<rect class=\"margin\"") == 1, "the margin band");
	ok(!strstr(out.buf, "chart flame") &&
		   strstr(out.buf, "No profiled job in common with the base."),
	   "no flame graph without profiles, and the page says so");
	forest_untested_row(out.buf);
	forest_matches_compare(rl, ARRAY_SIZE(labels), &opts, out.buf);
out:
	for (size_t i = 0; i < ARRAY_SIZE(labels); i++)
		report_label_release(&rl[i]);
	store_close(st);
	strbuf_release(&out);
	strbuf_release(&err);
}

/* The text of the first chart of class KIND in page, or NULL; freed. */
static char *chart_of(const char *page, const char *kind, size_t nth)
{
	struct strbuf cls = STRBUF_INIT;
	const char *p = page, *end;
	char *r = NULL;

	strbuf_addf(&cls, "<svg class=\"chart %s\"", kind);
	for (size_t i = 0; p && i <= nth; i++)
		if ((p = strstr(p, cls.buf)) && i < nth)
			p++;
	if (p && (end = strstr(p, "</svg>")))
		r = xstrndup(p, (size_t)(end - p));
	strbuf_release(&cls);
	return r;
}

/*
 * Two labels of units units each, one sample per iteration: label 1's
 * values are 1000 + k, label 0's 2000 + k, so the lowest and highest
 * unit of each are known.
 */
static int fill_many(struct store *st, size_t units, struct strbuf *err)
{
	for (size_t li = 0; li < 2; li++) {
		int64_t run = add_run(st, li, err), op_id;

		if (!run || store_operation(st, run, "b", "o", "s", false, 2,
					    &op_id, err))
			return -1;
		for (size_t k = 0; k < units; k++) {
			char when[32];
			struct iteration_rec it = {
				.run_id = run,
				.benchmark = "b",
				.job = "",
				.index = (int64_t)k,
				.status = "ok",
				.started_at = when,
			};
			struct sample_rec s = {op_id, (li ? 1000.0 : 2000.0) +
							      (double)k};

			snprintf(when, sizeof(when),
				 "2026-01-02T%02zu:%02zu:%02zuZ", k / 3600,
				 k / 60 % 60, k % 60);
			if (store_iteration_add(st, &it, &s, 1, NULL, err))
				return -1;
		}
	}
	return 0;
}

/*
 * N5: a report of many units draws at most points_max points per strip
 * and run-order chart, keeps each label's extremes in the strip plot,
 * and says what it left out.
 */
static void test_points_capped(void)
{
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct store *st = store_open(":memory:", &err);
	struct report_label rl[2];
	struct report_options opts = REPORT_OPTIONS_INIT;
	size_t loaded = 0, units = 50;
	char *strip = NULL, *order = NULL;

	memset(rl, 0, sizeof(rl));
	opts.points_max = 20;
	if (!ok(st && !fill_many(st, units, &err) &&
			!report_label_load(st, labels[0], false, &rl[0],
					   &loaded, &err) &&
			!report_label_load(st, labels[1], false, &rl[1],
					   &loaded, &err) &&
			!report_render(rl, 2, &opts, &out, &err),
		"a report of 2 x %zu units renders", units)) {
		diag("%s", err.buf);
		goto out;
	}
	strip = chart_of(out.buf, "strip", 0);
	order = chart_of(out.buf, "runorder", 0);
	if (!ok(strip && order, "a strip and a run-order chart"))
		goto out;
	/* The chart's own <title>, each label's mean, then the points. */
	ok(count(strip, "<title>") - 1 - 2 <= opts.points_max,
	   "the strip plot draws %zu points, at most %zu",
	   count(strip, "<title>") - 3, opts.points_max);
	ok(strstr(strip, "<title>base: 2000</title>") &&
		   strstr(strip, "<title>base: 2049</title>") &&
		   strstr(strip, "alert(1)&lt;/script&gt;: 1000</title>") &&
		   strstr(strip, "alert(1)&lt;/script&gt;: 1049</title>"),
	   "each label's lowest and highest unit is drawn");
	ok(strstr(strip, "20 of 100 units shown") != NULL,
	   "the strip plot says how many units it shows");
	ok(count(order, "<title>") - 1 <= opts.points_max,
	   "the run-order plot draws %zu points, at most %zu",
	   count(order, "<title>") - 1, opts.points_max);
	ok(strstr(order, "of 50 units shown: 1 in 3") != NULL,
	   "the run-order plot says how many units it shows");
	opts.points_max = 1000;
	strbuf_setlen(&out, 0);
	free(strip);
	strip = NULL;
	if (!report_render(rl, 2, &opts, &out, &err))
		strip = chart_of(out.buf, "strip", 0);
	ok(strip && count(strip, "<title>") == 2 * units + 3 &&
		   !strstr(out.buf, "units shown"),
	   "under the cap every unit is drawn, without a note");
out:
	free(strip);
	free(order);
	for (size_t i = 0; i < 2; i++)
		report_label_release(&rl[i]);
	store_close(st);
	strbuf_release(&out);
	strbuf_release(&err);
}

#define FLAME_PROFILES 6

/*
 * Profile k of label li: spin_a and spin_b under main;work share 600
 * samples, 50/50 in the base and label 2 (an A/A pair: the same six
 * profiles in another order), 70/30 in label 1; main;setup, a kernel
 * frame and a hostile name take the same few samples everywhere.
 */
static void flame_counts(size_t li, size_t k, unsigned *a, unsigned *b)
{
	size_t j = li == 2 ? k + 1 : k;

	*a = (li == 1 ? 420 : 300) + 10 * (unsigned)(j % 3);
	*b = (li == 1 ? 180 : 300) - 10 * (unsigned)(j % 2);
}

#define FLAME_REST 65 /* samples outside main;work in each profile */

static int fill_profiled(struct store *st, struct strbuf *err)
{
	for (size_t li = 0; li < ARRAY_SIZE(labels); li++) {
		int64_t run = add_run(st, li, err), op_id;

		if (!run || store_operation(st, run, "b", "o", "s", false, 2,
					    &op_id, err))
			return -1;
		for (size_t k = 0; k < FLAME_PROFILES; k++) {
			struct iteration_rec it = {
				.run_id = run,
				.benchmark = "b",
				.job = "",
				.index = (int64_t)k,
				.status = "ok",
				.started_at = "2026-01-02T03:04:05Z",
			};
			struct sample_rec smp = {op_id, 10 + (double)k};
			struct strbuf stacks = STRBUF_INIT;
			struct profile_rec p = {
				.run_id = run,
				.benchmark = "b",
				.job = "",
				.seq = (int64_t)k + 1,
				.started_at = "2026-01-02T03:04:05Z",
				.frequency_hz = 999,
				.status = "ok",
			};
			unsigned a, b;
			int ret;

			flame_counts(li, k, &a, &b);
			strbuf_addf(&stacks,
				    "main;work;spin_a %u\nmain;work;spin_b %u\n"
				    "main;setup 50\n[unknown];irq_[k] 10\n"
				    "main;x<y>&z 5\n",
				    a, b);
			p.samples = a + b + FLAME_REST;
			p.stacks = stacks.buf;
			ret = store_iteration_add(st, &it, &smp, 1, NULL,
						  err) ||
			      store_profile_add(st, &p, err);
			strbuf_release(&stacks);
			if (ret)
				return -1;
		}
	}
	return 0;
}

/* The mean share, percent, of spin_a (a true) or spin_b in label li. */
static double flame_share(size_t li, bool a)
{
	double sum = 0;

	for (size_t k = 0; k < FLAME_PROFILES; k++) {
		unsigned na, nb;

		flame_counts(li, k, &na, &nb);
		sum += 100.0 * (a ? na : nb) / (na + nb + FLAME_REST);
	}
	return sum / FLAME_PROFILES;
}

/*
 * The frame of path in chart: its kind (up, down, same, untested) and
 * its rectangle's x and width; false when it has none.
 */
static bool frame_of(const char *chart, const char *path, char *kind,
		     size_t kind_len, double *x, double *w)
{
	struct strbuf key = STRBUF_INIT;
	const char *t, *g, *r;
	bool found = false;

	strbuf_addf(&key, "><title>%s\n", path);
	t = strstr(chart, key.buf);
	strbuf_release(&key);
	if (!t)
		return false;
	for (g = t; g > chart && strncmp(g, "<g class=\"fg ", 13); g--)
		;
	r = strstr(t, "<rect x=\"");
	if (strncmp(g, "<g class=\"fg ", 13) || !r)
		return false;
	g += 13;
	for (size_t i = 0; i + 1 < kind_len && *g != '"'; i++, g++) {
		kind[i] = *g;
		kind[i + 1] = '\0';
	}
	found = sscanf(r, "<rect x=\"%lf\" y=\"%*f\" width=\"%lf\"", x, w) == 2;
	return found;
}

/*
 * The report's flame graphs: one per compared label; in the 50/50 to
 * 70/30 one spin_a's frame is the one rising and spin_b's the one
 * falling, as wide as their mean shares, side by side under main;work;
 * the A/A pair's has no marked frame.
 */
static void test_flame(void)
{
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct store *st = store_open(":memory:", &err);
	struct report_label rl[ARRAY_SIZE(labels)];
	struct report_options opts = REPORT_OPTIONS_INIT;
	size_t loaded = 0, elements = 0;
	char *moved = NULL, *aa = NULL;
	char ka[16] = "", kb[16] = "", kw[16] = "", km[16] = "", ks[16] = "";
	double xa = NAN, wa = NAN, xb = NAN, wb = NAN, xw = NAN, ww = NAN;
	double xm = NAN, wm = NAN, xs = NAN, ws = NAN;
	double span = REPORT_PAGE_PX - 20;
	bool loads = st && !fill_profiled(st, &err);

	memset(rl, 0, sizeof(rl));
	for (size_t i = 0; loads && i < ARRAY_SIZE(labels); i++)
		loads = !report_label_load(st, labels[i], false, &rl[i],
					   &loaded, &err) &&
			rl[i].profiles.nr == FLAME_PROFILES;
	if (!ok(loads && !report_render(rl, ARRAY_SIZE(labels), &opts, &out,
					&err),
		"a report of profiled labels renders")) {
		diag("%s", err.buf);
		goto out;
	}
	ok(count(out.buf, "<svg class=\"chart flame\"") == 2,
	   "one flame graph per compared label");
	moved = chart_of(out.buf, "flame", 0);
	aa = chart_of(out.buf, "flame", 1);
	if (!ok(moved && aa, "both found"))
		goto out;
	strbuf_addstr(&err, moved);
	strbuf_addstr(&err, "</svg>");
	ok(xml_balanced(err.buf, err.len, &elements) && elements > 20,
	   "the first is well-formed XML (%zu elements)", elements);
	ok(count(moved, "<g class=\"fg up\">") == 1 &&
		   count(moved, "<g class=\"fg down\">") == 1,
	   "one frame rose and one fell");
	ok(frame_of(moved, "main;work;spin_a", ka, sizeof(ka), &xa, &wa) &&
		   !strcmp(ka, "up") &&
		   frame_of(moved, "main;work;spin_b", kb, sizeof(kb), &xb,
			    &wb) &&
		   !strcmp(kb, "down"),
	   "they are spin_a's (%s) and spin_b's (%s)", ka, kb);
	ok(frame_of(moved, "main;work", kw, sizeof(kw), &xw, &ww) &&
		   frame_of(moved, "main", km, sizeof(km), &xm, &wm) &&
		   frame_of(moved, "main;setup", ks, sizeof(ks), &xs, &ws) &&
		   strcmp(kw, "up") && strcmp(kw, "down") && strcmp(km, "up") &&
		   strcmp(km, "down") && strcmp(ks, "up") && strcmp(ks, "down"),
	   "main (%s), main;work (%s), main;setup (%s) are not marked", km, kw,
	   ks);
	ok(fabs(wa - span * (flame_share(0, true) + flame_share(1, true)) /
			     200) < 0.01 &&
		   fabs(wb -
			span * (flame_share(0, false) + flame_share(1, false)) /
				200) < 0.01,
	   "spin_a's and spin_b's frames are as wide as their mean shares "
	   "(%.2f, %.2f px)",
	   wa, wb);
	ok(fabs(xa - xw) < 0.01 && fabs(xb - (xa + wa)) < 0.02 &&
		   fabs(ww - (wa + wb)) < 0.02 && xs + ws <= xw + 0.02 &&
		   xm <= xs,
	   "side by side under main;work, which main;setup precedes");
	ok(strstr(moved, "change +") && strstr(moved, "% interval), q") &&
		   strstr(moved, ", changed") && strstr(moved, "\nself: "),
	   "the tooltips give the change, its interval and q");
	ok(strstr(moved, "main;x&lt;y&gt;&amp;z\n") && !strstr(moved, "x<y"),
	   "frame names are escaped");
	ok(!strstr(aa, "<g class=\"fg up\">") &&
		   !strstr(aa, "<g class=\"fg down\">") &&
		   strstr(aa, "<g class=\"fg same\">"),
	   "the A/A pair's flame graph marks nothing");
out:
	for (size_t i = 0; i < ARRAY_SIZE(labels); i++)
		report_label_release(&rl[i]);
	store_close(st);
	free(moved);
	free(aa);
	strbuf_release(&out);
	strbuf_release(&err);
}

int main(void)
{
	test_page();
	test_points_capped();
	test_flame();
	done_testing();
	return exit_status();
}
