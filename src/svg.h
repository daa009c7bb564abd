#ifndef MMCMP_SVG_H
#define MMCMP_SVG_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf;

/*
 * svg: a small writer of inline SVG charts for the HTML report
 * (report.h). A chart is a plot box with two axes, each linear or
 * log-2, with "nice" ticks (Heckbert's labelling: steps of 1, 2 or 5
 * times a power of ten) or powers of two; series are drawn in one of
 * SVG_SERIES_NR styles that differ in colour (the Okabe-Ito palette,
 * safe for colour-blind readers), marker shape and dash pattern, so
 * that they stay apart when printed in grey. Everything appends to a
 * strbuf and cannot fail; every text taken from the caller is escaped
 * (svg_escape(), which the html and junit renderers use too). The output is
 * XML: each chart is one well-formed <svg class="chart"> element that
 * references nothing outside itself.
 */

/* The number of distinct series styles; series i uses i % SVG_SERIES_NR. */
#define SVG_SERIES_NR 8

/* At most this many ticks on an axis. */
#define SVG_TICKS_MAX 24

/* One axis: its data range, how it maps and the pixels it spans. */
struct svg_axis {
	double lo, hi;	     /* data range, lo < hi (log2: lo > 0) */
	bool log2;	     /* map log2(v) instead of v */
	double px_lo, px_hi; /* pixel coordinates of lo and hi */
	double tick[SVG_TICKS_MAX];
	size_t ticks_nr; /* 0: no ticks drawn (categorical axes) */
	double step;	 /* linear tick step, for the labels' precision */
	/*
	 * Linear axes over values near DBL_MAX, whose range or top tick
	 * would overflow: a power of ten that lo, hi, tick and step are
	 * in units of (the axis title says "x 1e308"); 0 or 1: none.
	 */
	double scale;
};

/*
 * Set ax to a linear axis covering [lo, hi] widened to nice ticks, about
 * `want` of them. NaN or infinite bounds are ignored (both: [0, 1]); an
 * empty range is widened around its value. Bounds above 1e300 in size
 * are scaled (svg_axis.scale), so that neither hi - lo nor a tick
 * overflows.
 */
void svg_axis_linear(struct svg_axis *ax, double lo, double hi, size_t want);

/*
 * Set ax to a log-2 axis over the powers of two from at most lo to at
 * least hi (lo > 0; a bound <= 0 or NaN falls back to 1), a tick at each
 * (every second, fourth... when there would be more than 12).
 */
void svg_axis_log2(struct svg_axis *ax, double lo, double hi);

/* Set ax to a categorical axis over [lo, hi] without ticks. */
void svg_axis_plain(struct svg_axis *ax, double lo, double hi);

/* True when every finite v[i] > 0 is a power of two and there are two. */
bool svg_powers_of_two(const double *v, size_t n);

/* The pixel coordinate of v on ax (NaN stays NaN). */
double svg_axis_map(const struct svg_axis *ax, double v);

/*
 * Append the tick label of v (in ax's units, svg_axis.scale): at most 4
 * significant digits, with an SI suffix (k, M, G, T) from 10^4 on, and
 * the precision of ax's step; beyond 10^16 or steps under 10^-6, 4
 * significant digits with an exponent.
 */
void svg_tick_label(const struct svg_axis *ax, double v, struct strbuf *out);

/*
 * Append s with & < > " ' as entities and control characters other than
 * tab and newline as '?' (XML 1.0 cannot carry them): XML and HTML text
 * or attribute values. The one escape of the html, junit and svg output.
 */
void svg_escape(struct strbuf *out, const char *s);

/* A chart being written into out. */
struct svg_chart {
	struct strbuf *out;
	int width, height;		 /* pixels */
	double left, right, top, bottom; /* the plot box, pixels */
	struct svg_axis x, y;
};

/*
 * Start a chart of width x height pixels titled `title` with class
 * "chart KIND" (kind: "strip", "scaling", ...), and a plot box with the
 * given margins. The caller then sets c->x and c->y (svg_chart_axes()
 * maps them onto the box) and draws.
 */
void svg_chart_begin(struct svg_chart *c, struct strbuf *out, const char *kind,
		     int width, int height, const char *title,
		     double margin_left, double margin_right);

/*
 * Fit c->x and c->y to the plot box and draw the frame, grid lines, the
 * ticks with their labels, and the axis titles (units in the caption,
 * e.g. "ops (pages/s)"); an axis without ticks gets only its title.
 */
void svg_chart_axes(struct svg_chart *c, const char *x_title,
		    const char *y_title);

/* A line through (x[i], y[i]) in series style; NaN points break it. */
void svg_polyline(struct svg_chart *c, const double *x, const double *y,
		  size_t n, size_t series);

/*
 * A translucent band between lo[i] and hi[i] over x[i] (an interval
 * band); points with a NaN are left out.
 */
void svg_band(struct svg_chart *c, const double *x, const double *lo,
	      const double *hi, size_t n, size_t series);

/*
 * The marker of series at data point (x, y), with a <title> tooltip when
 * tip is not NULL. filled false draws it hollow.
 */
void svg_marker(struct svg_chart *c, double x, double y, size_t series,
		bool filled, const char *tip);

/* A line segment between two data points, in series colour. */
void svg_segment(struct svg_chart *c, double x0, double y0, double x1,
		 double y1, size_t series, double width);

/*
 * Text at pixel (px, py); anchor "start", "middle" or "end"; cls a CSS
 * class or NULL.
 */
void svg_text(struct svg_chart *c, double px, double py, const char *anchor,
	      const char *cls, const char *text);

/*
 * A legend in the top right of the plot box: for each name[i] the
 * line and marker of series style style[i] (i when style is NULL).
 */
void svg_legend(struct svg_chart *c, const char *const *name,
		const size_t *style, size_t n);

/* Close the chart. */
void svg_chart_end(struct svg_chart *c);

/* The colour (#rrggbb) of series style i. */
const char *svg_series_colour(size_t series);

#endif /* MMCMP_SVG_H */
