/* Unit tests of svg.c: nice ticks, log-2 axes, labels, escaping, markup. */
#include <math.h>
#include <stdlib.h>

#include "svg.h"
#include "strbuf.h"
#include "util.h"
#include "tap.h"
#include "test-svg.h"

/* Heckbert's labelling, worked out by hand for each range. */
static const struct {
	double lo, hi;
	size_t want;
	double first, step, last;
} linear_cases[] = {
	{0, 1, 6, 0, 0.2, 1},
	{0, 100, 5, 0, 20, 100},
	{3, 97, 5, 0, 20, 100},
	{-63.7, 21.4, 9, -70, 10, 30},
	{151552, 170560, 6, 150000, 5000, 175000},
	{0.0012, 0.0019, 6, 0.0012, 0.0002, 0.002},
	{5, 5, 6, 4.4, 0.2, 5.6}, /* an empty range is widened by 10% */
	{0, 0, 6, -1, 0.5, 1},	  /* around 0 by 1 */
	{NAN, NAN, 6, 0, 0.2, 1}, /* nothing known: [0, 1] */
	{NAN, 40, 6, 36, 2, 44},  /* one bound: as an empty range */
	{10, -10, 5, -10, 5, 10}, /* reversed bounds are swapped */
	{1e-3, 2.5e6, 6, 0, 1000000, 3000000},
};

static void test_linear(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(linear_cases); i++) {
		struct svg_axis ax;
		bool rising = true, covers;

		svg_axis_linear(&ax, linear_cases[i].lo, linear_cases[i].hi,
				linear_cases[i].want);
		ok_near(ax.tick[0], linear_cases[i].first, 1e-9,
			"linear case %zu: first tick", i);
		ok_near(ax.step, linear_cases[i].step, 1e-9,
			"linear case %zu: step", i);
		ok_near(ax.tick[ax.ticks_nr - 1], linear_cases[i].last, 1e-9,
			"linear case %zu: last tick", i);
		for (size_t k = 1; k < ax.ticks_nr; k++)
			rising &= ax.tick[k] > ax.tick[k - 1];
		ok(rising && ax.ticks_nr >= 2,
		   "linear case %zu: %zu ticks rise", i, ax.ticks_nr);
		covers = ax.lo == ax.tick[0] &&
			 ax.hi == ax.tick[ax.ticks_nr - 1];
		if (isfinite(linear_cases[i].lo) &&
		    isfinite(linear_cases[i].hi))
			covers &= ax.lo <= fmin(linear_cases[i].lo,
						linear_cases[i].hi) +
						   1e-9 * ax.step &&
				  ax.hi >= fmax(linear_cases[i].lo,
						linear_cases[i].hi) -
						   1e-9 * ax.step;
		ok(covers, "linear case %zu: the axis spans the data", i);
	}
}

static const struct {
	double lo, hi;
	double first, last;
	size_t nr;
} log2_cases[] = {
	{1, 2, 1, 2, 2},	 {1, 64, 1, 64, 7}, {3, 40, 2, 64, 6},
	{1, 65536, 1, 65536, 9}, /* 16 doublings: every second one */
	{0, 8, 1, 8, 4},	 /* lo <= 0 falls back to 1 */
	{4, 4, 4, 8, 2},	 /* one value: one doubling */
};

static void test_log2(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(log2_cases); i++) {
		struct svg_axis ax;
		bool doubling = true;

		svg_axis_log2(&ax, log2_cases[i].lo, log2_cases[i].hi);
		ok(ax.log2 && ax.ticks_nr == log2_cases[i].nr,
		   "log2 case %zu: %zu ticks", i, ax.ticks_nr);
		ok_near(ax.tick[0], log2_cases[i].first, 0,
			"log2 case %zu: first", i);
		ok_near(ax.tick[ax.ticks_nr - 1], log2_cases[i].last, 0,
			"log2 case %zu: last", i);
		for (size_t k = 1; k < ax.ticks_nr; k++)
			doubling &= ax.tick[k] > ax.tick[k - 1] &&
				    frexp(ax.tick[k], &(int){0}) == 0.5;
		ok(doubling, "log2 case %zu: ticks are rising powers of two",
		   i);
	}
}

static void test_map(void)
{
	struct svg_axis ax;

	svg_axis_log2(&ax, 1, 16);
	ax.px_lo = 100;
	ax.px_hi = 500;
	ok_near(svg_axis_map(&ax, 4), 300, 1e-12, "log2: 4 is half-way");
	svg_axis_linear(&ax, 0, 10, 6);
	ax.px_lo = 300;
	ax.px_hi = 100; /* y axes run upwards */
	ok_near(svg_axis_map(&ax, 2.5), 250, 1e-12, "linear: 2.5 maps");
}

static const struct {
	double v[4];
	size_t n;
	bool want;
} pow2_cases[] = {
	{{1, 2, 4, 8}, 4, true},  {{2, 4}, 2, true},
	{{1, 2, 3}, 3, false},	  {{4}, 1, false},
	{{0.5, 1, NAN}, 3, true}, {{-2, 4}, 2, false},
	{{0, 2, 4}, 3, false},
};

static void test_powers_of_two(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(pow2_cases); i++)
		ok(svg_powers_of_two(pow2_cases[i].v, pow2_cases[i].n) ==
			   pow2_cases[i].want,
		   "powers of two, case %zu", i);
}

static const struct {
	double lo, hi, v;
	const char *want;
} label_cases[] = {
	{0, 1, 0.4, "0.4"},
	{0, 100, 40, "40"},
	{150000, 175000, 155000, "155k"},
	{0, 2500000, 2000000, "2M"},
	{0, 0.5e6, 1.5e5, "150k"},
	{0, 1e6, 4e5, "400k"},
	{0, 5000, 3000, "3000"},
	{-70, 30, -20, "-20"},
	{0.0012, 0.002, 0.0014, "0.0014"},
	{0, 1, 0, "0"},
};

static void test_labels(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(label_cases); i++) {
		struct svg_axis ax;
		struct strbuf sb = STRBUF_INIT;

		svg_axis_linear(&ax, label_cases[i].lo, label_cases[i].hi, 6);
		svg_tick_label(&ax, label_cases[i].v, &sb);
		is_str(sb.buf, label_cases[i].want, "tick label case %zu", i);
		strbuf_release(&sb);
	}
}

static const struct {
	const char *in, *want;
} escape_cases[] = {
	{"plain", "plain"},
	{"<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"},
	{"a&b \"q\" 'r'", "a&amp;b &quot;q&quot; &#39;r&#39;"},
	{"bell\a", "bell?"},
};

static void test_escape(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(escape_cases); i++) {
		struct strbuf sb = STRBUF_INIT;

		svg_escape(&sb, escape_cases[i].in);
		is_str(sb.buf, escape_cases[i].want, "escape case %zu", i);
		strbuf_release(&sb);
	}
}

/* A chart with every element kind and hostile names is well-formed. */
static void test_chart(void)
{
	static const char *const names[] = {"<b>base</b>", "a&b", "\"q\""};
	double x[] = {1, 2, 4, 8}, y[] = {10, 12, NAN, 15};
	double lo[] = {9, 11, 12, 14}, hi[] = {11, 13, 14, 16};
	struct strbuf sb = STRBUF_INIT;
	struct svg_chart c;
	size_t elements = 0, marks = 0;

	svg_chart_begin(&c, &sb, "test", 600, 300, "<title> & \"x\"", 70, 10);
	svg_axis_log2(&c.x, 1, 8);
	svg_axis_linear(&c.y, 9, 16, 6);
	svg_chart_axes(&c, "tasks", "ops (<pages>/s)");
	svg_band(&c, x, lo, hi, 4, 0);
	svg_polyline(&c, x, y, 4, 0);
	for (size_t s = 0; s < SVG_SERIES_NR; s++)
		svg_marker(&c, x[s % 4], hi[s % 4], s, s % 2, "tip <&>");
	svg_segment(&c, 1, 9, 8, 16, 1, 2);
	svg_legend(&c, names, NULL, ARRAY_SIZE(names));
	svg_chart_end(&c);
	ok(xml_balanced(sb.buf, sb.len, &elements),
	   "the chart is well-formed (%zu elements)", elements);
	ok(!strstr(sb.buf, "<b>") && !strstr(sb.buf, "<title> &"),
	   "names are escaped");
	ok(!strstr(sb.buf, "http") && !strstr(sb.buf, "href") &&
		   !strstr(sb.buf, "url("),
	   "the chart references nothing outside itself");
	ok(!strstr(sb.buf, "nan") && !strstr(sb.buf, "inf"),
	   "no NaN or infinite coordinates");
	/* The NaN point breaks the line into 1, 2 and 8: one polyline. */
	for (const char *p = sb.buf; (p = strstr(p, "<polyline")); p++)
		marks++;
	ok(marks == 1, "a NaN breaks the line, single points are not drawn");
	marks = 0;
	for (const char *p = sb.buf; (p = strstr(p, "class=\"mark\"")); p++)
		marks++;
	ok(marks == SVG_SERIES_NR + ARRAY_SIZE(names),
	   "one marker per call and legend entry (%zu)", marks);
	strbuf_release(&sb);
}

/* The balance check itself rejects broken markup. */
static const struct {
	const char *xml;
	bool want;
} balance_cases[] = {
	{"<svg><g></g></svg>", true}, {"<svg><line x=\"1\"/></svg>", true},
	{"<svg><g></svg>", false},    {"<svg>a < b</svg>", false},
	{"<svg>a & b</svg>", false},  {"<svg x=\"<\"></svg>", false},
	{"<svg></g>", false},	      {"", false},
};

static void test_balance(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(balance_cases); i++) {
		size_t elements;

		ok(xml_balanced(balance_cases[i].xml,
				strlen(balance_cases[i].xml),
				&elements) == balance_cases[i].want,
		   "balance check, case %zu", i);
	}
}

/*
 * N12: values near DBL_MAX, whose range overflows: finite ticks and
 * pixels, the data inside the box, labels without nan, and the scale
 * in the axis title.
 */
static const struct {
	double lo, hi;
} huge_cases[] = {
	{-1e308, 1.7e308},
	{1e308, 1.7e308},
	{-1.7e308, -1e307},
	{5e-324, 1.7976931348623157e308},
};

static void test_near_max(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(huge_cases); i++) {
		double lo = huge_cases[i].lo, hi = huge_cases[i].hi;
		double plo, phi;
		struct svg_chart c;
		struct strbuf out = STRBUF_INIT;
		bool finite = true;

		svg_chart_begin(&c, &out, "strip", 400, 300, "t", 60, 10);
		svg_axis_linear(&c.y, lo, hi, 6);
		svg_axis_plain(&c.x, 0, 1);
		svg_chart_axes(&c, NULL, "v");
		for (size_t k = 0; k < c.y.ticks_nr; k++)
			finite &= isfinite(c.y.tick[k]);
		plo = svg_axis_map(&c.y, lo);
		phi = svg_axis_map(&c.y, hi);
		ok(finite && c.y.ticks_nr >= 2 && c.y.ticks_nr <= 12,
		   "huge case %zu: %zu finite ticks", i, c.y.ticks_nr);
		ok(isfinite(plo) && isfinite(phi) && plo <= c.bottom + 1e-9 &&
			   phi >= c.top - 1e-9 && phi < plo,
		   "huge case %zu: the data map into the box (%g, %g)", i, plo,
		   phi);
		ok(!strstr(out.buf, "nan") && !strstr(out.buf, "inf") &&
			   strstr(out.buf, "v (x 1e+30"),
		   "huge case %zu: no nan, and the axis names its scale", i);
		strbuf_release(&out);
	}
}

int main(void)
{
	test_near_max();
	test_linear();
	test_log2();
	test_map();
	test_powers_of_two();
	test_labels();
	test_escape();
	test_chart();
	test_balance();
	done_testing();
	return exit_status();
}
