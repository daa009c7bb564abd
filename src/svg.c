/* svg: axes with nice ticks, series and legends as inline SVG. */
#include "svg.h"

#include <math.h>
#include <string.h>

#include "strbuf.h"
#include "util.h"

/*
 * Okabe and Ito's colour-blind-safe palette (yellow replaced by grey,
 * which reads on white), each with a marker and a dash pattern of its
 * own so that grey-scale prints keep the series apart.
 */
static const struct {
	const char *colour;
	const char *dash; /* stroke-dasharray, "" for solid */
} styles[SVG_SERIES_NR] = {
	{"#0072B2", ""},	{"#D55E00", "7 3"},	{"#009E73", "2 2"},
	{"#CC79A7", "9 3 2 3"}, {"#E69F00", "4 4"},	{"#56B4E9", "12 4"},
	{"#000000", "2 5"},	{"#7F7F7F", "6 2 2 2"},
};

const char *svg_series_colour(size_t series)
{
	return styles[series % SVG_SERIES_NR].colour;
}

void svg_escape(struct strbuf *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			strbuf_addstr(out, "&amp;");
			break;
		case '<':
			strbuf_addstr(out, "&lt;");
			break;
		case '>':
			strbuf_addstr(out, "&gt;");
			break;
		case '"':
			strbuf_addstr(out, "&quot;");
			break;
		case '\'':
			strbuf_addstr(out, "&#39;");
			break;
		default:
			/* Control characters are not allowed in XML 1.0. */
			if ((unsigned char)*s < 0x20 && *s != '\t' &&
			    *s != '\n')
				strbuf_addch(out, '?');
			else
				strbuf_addch(out, *s);
		}
	}
}

/* Heckbert's nice number: 1, 2, 5 or 10 times a power of ten near x. */
static double nice_number(double x, bool round_it)
{
	double e = floor(log10(x)), f = x / pow(10, e), nf;

	if (round_it)
		nf = f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10;
	else
		nf = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
	return nf * pow(10, e);
}

/*
 * The power of ten to divide lo and hi by, so that hi - lo and the nice
 * tick above hi stay finite: 1 unless one is above 1e300 in size.
 */
static double axis_scale(double lo, double hi)
{
	double m = fmax(fabs(lo), fabs(hi));

	return m > 1e300 ? pow(10, floor(log10(m))) : 1;
}

/* Whether ax's values are in units of its scale. */
static bool axis_scaled(const struct svg_axis *ax)
{
	return ax->scale > 0 && ax->scale != 1;
}

void svg_axis_linear(struct svg_axis *ax, double lo, double hi, size_t want)
{
	double step, first, scale;

	memset(ax, 0, sizeof(*ax));
	if (!isfinite(lo) && !isfinite(hi)) {
		lo = 0;
		hi = 1;
	} else if (!isfinite(lo)) {
		lo = hi;
	} else if (!isfinite(hi)) {
		hi = lo;
	}
	if (hi < lo) {
		double t = lo;

		lo = hi;
		hi = t;
	}
	scale = axis_scale(lo, hi);
	lo /= scale;
	hi /= scale;
	ax->scale = scale;
	if (hi - lo <= 1e-12 * fmax(fabs(lo), fabs(hi))) {
		double pad = lo ? fabs(lo) * 0.1 : 1;

		lo -= pad;
		hi += pad;
	}
	if (want < 2)
		want = 2;
	step = nice_number(nice_number(hi - lo, false) / (double)(want - 1),
			   true);
	/* The slack keeps 0.0012 / 0.0002 = 5.9999... at 6. */
	first = floor(lo / step + 1e-9) * step;
	ax->lo = first;
	ax->hi = ceil(hi / step - 1e-9) * step;
	ax->step = step;
	for (size_t i = 0; i < SVG_TICKS_MAX; i++) {
		double t = first + (double)i * step;

		if (t > ax->hi + step * 1e-9)
			break;
		/* Print 0 rather than -1.2e-17. */
		ax->tick[ax->ticks_nr++] = fabs(t) < step * 1e-9 ? 0 : t;
	}
	ax->hi = ax->tick[ax->ticks_nr - 1];
}

void svg_axis_log2(struct svg_axis *ax, double lo, double hi)
{
	double e_lo, e_hi, every = 1;

	memset(ax, 0, sizeof(*ax));
	if (!(lo > 0) || !isfinite(lo))
		lo = 1;
	if (!(hi > 0) || !isfinite(hi))
		hi = lo;
	e_lo = floor(log2(fmin(lo, hi)));
	e_hi = ceil(log2(fmax(lo, hi)));
	if (e_hi <= e_lo)
		e_hi = e_lo + 1;
	while ((e_hi - e_lo) / every > 12)
		every *= 2;
	ax->log2 = true;
	ax->lo = exp2(e_lo);
	ax->hi = exp2(e_hi);
	for (double e = e_lo; e <= e_hi && ax->ticks_nr < SVG_TICKS_MAX;
	     e += every)
		ax->tick[ax->ticks_nr++] = exp2(e);
}

void svg_axis_plain(struct svg_axis *ax, double lo, double hi)
{
	memset(ax, 0, sizeof(*ax));
	ax->lo = lo;
	ax->hi = hi > lo ? hi : lo + 1;
}

bool svg_powers_of_two(const double *v, size_t n)
{
	size_t seen = 0;

	for (size_t i = 0; i < n; i++) {
		int e;

		if (!isfinite(v[i]))
			continue;
		if (!(v[i] > 0) || frexp(v[i], &e) != 0.5)
			return false;
		seen++;
	}
	return seen >= 2;
}

/* The pixel coordinate of v, in ax's units (svg_axis.scale), on ax. */
static double map_units(const struct svg_axis *ax, double v)
{
	double f;

	if (ax->log2)
		f = (log2(v) - log2(ax->lo)) / (log2(ax->hi) - log2(ax->lo));
	else
		f = (v - ax->lo) / (ax->hi - ax->lo);
	return ax->px_lo + f * (ax->px_hi - ax->px_lo);
}

double svg_axis_map(const struct svg_axis *ax, double v)
{
	return map_units(ax, axis_scaled(ax) ? v / ax->scale : v);
}

void svg_tick_label(const struct svg_axis *ax, double v, struct strbuf *out)
{
	static const char suffix[] = " kMGT";
	double mag = 1, step = ax->log2 ? fabs(v) : ax->step;
	size_t k = 0;
	int decimals;

	if (v == 0) {
		strbuf_addch(out, '0');
		return;
	}
	/* Past the suffixes, or finer than 6 decimals: an exponent. */
	if (fabs(v) >= 1e16 || (!ax->log2 && step > 0 && step < 1e-6)) {
		strbuf_addf(out, "%.4g", v);
		return;
	}
	/*
	 * One suffix for the whole axis, from 10^4 on: the largest that
	 * leaves its step (its lowest tick, on log-2 axes) at least 1.
	 */
	if (fmax(fabs(ax->lo), fabs(ax->hi)) >= 1e4)
		while (k + 1 < sizeof(suffix) - 1 &&
		       (ax->log2 ? ax->lo : ax->step) >= mag * 1000) {
			mag *= 1000;
			k++;
		}
	decimals = step > 0 ? (int)ceil(-log10(step / mag) - 1e-9) : 0;
	if (decimals < 0)
		decimals = 0;
	if (decimals > 6)
		decimals = 6;
	strbuf_addf(out, "%.*f", decimals, v / mag);
	if (k)
		strbuf_addch(out, suffix[k]);
}

static void add_px(struct strbuf *out, double v)
{
	strbuf_addf(out, "%.1f", isfinite(v) ? v : 0);
}

void svg_chart_begin(struct svg_chart *c, struct strbuf *out, const char *kind,
		     int width, int height, const char *title,
		     double margin_left, double margin_right)
{
	memset(c, 0, sizeof(*c));
	c->out = out;
	c->width = width;
	c->height = height;
	c->left = margin_left;
	c->right = width - margin_right;
	c->top = 34;
	c->bottom = height - 46;
	strbuf_addf(
		out,
		"<svg class=\"chart %s\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
		" role=\"img\">\n<title>",
		kind, width, height, width, height);
	svg_escape(out, title);
	strbuf_addstr(out, "</title>\n");
	svg_text(c, c->left, 20, "start", "ctitle", title);
}

/* The title of axis ax: title, and the scale its ticks are in. */
/*
 * The title of axis ax in sb: title (NULL: none), and the scale its
 * ticks are in; false when there is neither.
 */
static bool axis_title(struct strbuf *sb, const struct svg_axis *ax,
		       const char *title)
{
	if (title)
		strbuf_addstr(sb, title);
	if (axis_scaled(ax))
		strbuf_addf(sb, "%s(x %g)", title ? " " : "", ax->scale);
	return title || axis_scaled(ax);
}

void svg_chart_axes(struct svg_chart *c, const char *x_title,
		    const char *y_title)
{
	struct strbuf *out = c->out;
	struct strbuf lab = STRBUF_INIT;

	c->x.px_lo = c->left;
	c->x.px_hi = c->right;
	c->y.px_lo = c->bottom;
	c->y.px_hi = c->top;
	strbuf_addstr(out, "<rect class=\"frame\" x=\"");
	add_px(out, c->left);
	strbuf_addstr(out, "\" y=\"");
	add_px(out, c->top);
	strbuf_addstr(out, "\" width=\"");
	add_px(out, c->right - c->left);
	strbuf_addstr(out, "\" height=\"");
	add_px(out, c->bottom - c->top);
	strbuf_addstr(out, "\"/>\n");
	for (size_t i = 0; i < c->x.ticks_nr; i++) {
		double px = map_units(&c->x, c->x.tick[i]);

		strbuf_addstr(out, "<line class=\"grid\" x1=\"");
		add_px(out, px);
		strbuf_addstr(out, "\" x2=\"");
		add_px(out, px);
		strbuf_addstr(out, "\" y1=\"");
		add_px(out, c->top);
		strbuf_addstr(out, "\" y2=\"");
		add_px(out, c->bottom + 5);
		strbuf_addstr(out, "\"/>\n");
		strbuf_setlen(&lab, 0);
		svg_tick_label(&c->x, c->x.tick[i], &lab);
		svg_text(c, px, c->bottom + 18, "middle", "tick", lab.buf);
	}
	for (size_t i = 0; i < c->y.ticks_nr; i++) {
		double py = map_units(&c->y, c->y.tick[i]);

		strbuf_addstr(out, "<line class=\"grid\" x1=\"");
		add_px(out, c->left - 5);
		strbuf_addstr(out, "\" x2=\"");
		add_px(out, c->right);
		strbuf_addstr(out, "\" y1=\"");
		add_px(out, py);
		strbuf_addstr(out, "\" y2=\"");
		add_px(out, py);
		strbuf_addstr(out, "\"/>\n");
		strbuf_setlen(&lab, 0);
		svg_tick_label(&c->y, c->y.tick[i], &lab);
		svg_text(c, c->left - 8, py + 4, "end", "tick", lab.buf);
	}
	strbuf_setlen(&lab, 0);
	if (axis_title(&lab, &c->x, x_title))
		svg_text(c, (c->left + c->right) / 2, c->height - 10, "middle",
			 "axis", lab.buf);
	strbuf_setlen(&lab, 0);
	if (axis_title(&lab, &c->y, y_title)) {
		strbuf_addstr(out, "<text class=\"axis\" text-anchor=\"middle\""
				   " transform=\"translate(14,");
		add_px(out, (c->top + c->bottom) / 2);
		strbuf_addstr(out, ") rotate(-90)\">");
		svg_escape(out, lab.buf);
		strbuf_addstr(out, "</text>\n");
	}
	strbuf_release(&lab);
}

static void style_attrs(struct strbuf *out, size_t series, bool dashed)
{
	size_t s = series % SVG_SERIES_NR;

	strbuf_addf(out, " stroke=\"%s\"", styles[s].colour);
	if (dashed && *styles[s].dash)
		strbuf_addf(out, " stroke-dasharray=\"%s\"", styles[s].dash);
}

void svg_polyline(struct svg_chart *c, const double *x, const double *y,
		  size_t n, size_t series)
{
	size_t i = 0;

	while (i < n) {
		size_t start;

		while (i < n && !(isfinite(x[i]) && isfinite(y[i])))
			i++;
		start = i;
		while (i < n && isfinite(x[i]) && isfinite(y[i]))
			i++;
		if (i - start < 2)
			continue;
		strbuf_addstr(c->out,
			      "<polyline class=\"series\" fill=\"none\"");
		style_attrs(c->out, series, true);
		strbuf_addstr(c->out, " points=\"");
		for (size_t k = start; k < i; k++) {
			if (k > start)
				strbuf_addch(c->out, ' ');
			add_px(c->out, svg_axis_map(&c->x, x[k]));
			strbuf_addch(c->out, ',');
			add_px(c->out, svg_axis_map(&c->y, y[k]));
		}
		strbuf_addstr(c->out, "\"/>\n");
	}
}

void svg_band(struct svg_chart *c, const double *x, const double *lo,
	      const double *hi, size_t n, size_t series)
{
	size_t ok = 0;

	for (size_t k = 0; k < n; k++)
		ok += isfinite(x[k]) && isfinite(lo[k]) && isfinite(hi[k]);
	if (ok < 2)
		return;
	strbuf_addf(c->out,
		    "<polygon class=\"band\" fill=\"%s\" fill-opacity=\"0.15\""
		    " stroke=\"none\" points=\"",
		    svg_series_colour(series));
	for (size_t k = 0; k < n; k++) {
		if (!(isfinite(x[k]) && isfinite(lo[k]) && isfinite(hi[k])))
			continue;
		add_px(c->out, svg_axis_map(&c->x, x[k]));
		strbuf_addch(c->out, ',');
		add_px(c->out, svg_axis_map(&c->y, hi[k]));
		strbuf_addch(c->out, ' ');
	}
	for (size_t k = n; k-- > 0;) {
		if (!(isfinite(x[k]) && isfinite(lo[k]) && isfinite(hi[k])))
			continue;
		add_px(c->out, svg_axis_map(&c->x, x[k]));
		strbuf_addch(c->out, ',');
		add_px(c->out, svg_axis_map(&c->y, lo[k]));
		strbuf_addch(c->out, ' ');
	}
	strbuf_rtrim(c->out);
	strbuf_addstr(c->out, "\"/>\n");
}

/*
 * The marker shape of a style at pixel (px, py), radius about r, open;
 * returns the element's name.
 */
static const char *marker_shape(struct strbuf *out, size_t s, double px,
				double py, double r)
{
	switch (s % SVG_SERIES_NR) {
	case 0:
	case 7:
		strbuf_addstr(out, "<circle cx=\"");
		add_px(out, px);
		strbuf_addstr(out, "\" cy=\"");
		add_px(out, py);
		strbuf_addf(out, "\" r=\"%.1f\"", r);
		return "circle";
	case 1:
		strbuf_addstr(out, "<rect x=\"");
		add_px(out, px - r);
		strbuf_addstr(out, "\" y=\"");
		add_px(out, py - r);
		strbuf_addf(out, "\" width=\"%.1f\" height=\"%.1f\"", 2 * r,
			    2 * r);
		return "rect";
	default:
		break;
	}
	strbuf_addstr(out, "<path d=\"");
	switch (s % SVG_SERIES_NR) {
	case 2: /* triangle up */
		strbuf_addf(out, "M%.1f,%.1fl%.1f,%.1fh%.1fz", px, py - r * 1.2,
			    r * 1.2, r * 2, -r * 2.4);
		break;
	case 3: /* diamond */
		strbuf_addf(out, "M%.1f,%.1fl%.1f,%.1fl%.1f,%.1fl%.1f,%.1fz",
			    px, py - r * 1.3, r * 1.3, r * 1.3, -r * 1.3,
			    r * 1.3, -r * 1.3, -r * 1.3);
		break;
	case 4: /* triangle down */
		strbuf_addf(out, "M%.1f,%.1fl%.1f,%.1fh%.1fz", px, py + r * 1.2,
			    r * 1.2, -r * 2, -r * 2.4);
		break;
	case 5: /* cross */
		strbuf_addf(out, "M%.1f,%.1fl%.1f,%.1fm0,%.1fl%.1f,%.1f",
			    px - r, py - r, 2 * r, 2 * r, -2 * r, -2 * r,
			    2 * r);
		break;
	default: /* plus */
		strbuf_addf(out, "M%.1f,%.1fh%.1fm%.1f,%.1fv%.1f", px - r * 1.2,
			    py, 2.4 * r, -1.2 * r, -1.2 * r, 2.4 * r);
		break;
	}
	strbuf_addch(out, '"');
	return "path";
}

static void marker_at(struct strbuf *out, size_t series, double px, double py,
		      bool filled, const char *tip)
{
	size_t s = series % SVG_SERIES_NR;
	/* The cross and plus are lines: they cannot be filled. */
	bool fill = filled && s != 5 && s != 6;
	const char *elem = marker_shape(out, s, px, py, 3.5);

	strbuf_addf(out, " class=\"mark\" stroke=\"%s\" fill=\"%s\"",
		    styles[s].colour, fill ? styles[s].colour : "#fff");
	if (!tip) {
		strbuf_addstr(out, "/>\n");
		return;
	}
	strbuf_addstr(out, "><title>");
	svg_escape(out, tip);
	strbuf_addf(out, "</title></%s>\n", elem);
}

void svg_marker(struct svg_chart *c, double x, double y, size_t series,
		bool filled, const char *tip)
{
	double px = svg_axis_map(&c->x, x), py = svg_axis_map(&c->y, y);

	if (!isfinite(px) || !isfinite(py))
		return;
	marker_at(c->out, series, px, py, filled, tip);
}

void svg_segment(struct svg_chart *c, double x0, double y0, double x1,
		 double y1, size_t series, double width)
{
	double px0 = svg_axis_map(&c->x, x0), py0 = svg_axis_map(&c->y, y0);
	double px1 = svg_axis_map(&c->x, x1), py1 = svg_axis_map(&c->y, y1);

	if (!isfinite(px0) || !isfinite(py0) || !isfinite(px1) ||
	    !isfinite(py1))
		return;
	strbuf_addstr(c->out, "<line x1=\"");
	add_px(c->out, px0);
	strbuf_addstr(c->out, "\" y1=\"");
	add_px(c->out, py0);
	strbuf_addstr(c->out, "\" x2=\"");
	add_px(c->out, px1);
	strbuf_addstr(c->out, "\" y2=\"");
	add_px(c->out, py1);
	strbuf_addf(c->out, "\" stroke-width=\"%.1f\"", width);
	style_attrs(c->out, series, false);
	strbuf_addstr(c->out, "/>\n");
}

void svg_text(struct svg_chart *c, double px, double py, const char *anchor,
	      const char *cls, const char *text)
{
	strbuf_addstr(c->out, "<text x=\"");
	add_px(c->out, px);
	strbuf_addstr(c->out, "\" y=\"");
	add_px(c->out, py);
	strbuf_addf(c->out, "\" text-anchor=\"%s\"", anchor);
	if (cls)
		strbuf_addf(c->out, " class=\"%s\"", cls);
	strbuf_addch(c->out, '>');
	svg_escape(c->out, text);
	strbuf_addstr(c->out, "</text>\n");
}

void svg_legend(struct svg_chart *c, const char *const *name,
		const size_t *style, size_t n)
{
	double width = 0, py = c->top + 14, px;

	for (size_t i = 0; i < n; i++)
		width = fmax(width, 7.0 * (double)strlen(name[i]));
	px = c->right - width - 44;
	strbuf_addstr(c->out,
		      "<g class=\"legend\">\n<rect class=\"legendbox\" x=\"");
	add_px(c->out, px - 6);
	strbuf_addstr(c->out, "\" y=\"");
	add_px(c->out, c->top + 2);
	strbuf_addf(c->out, "\" width=\"%.1f\" height=\"%.1f\"/>\n", width + 46,
		    18.0 * (double)n + 6);
	for (size_t i = 0; i < n; i++, py += 18) {
		size_t s = style ? style[i] : i;

		strbuf_addstr(c->out, "<line x1=\"");
		add_px(c->out, px);
		strbuf_addstr(c->out, "\" x2=\"");
		add_px(c->out, px + 28);
		strbuf_addstr(c->out, "\" y1=\"");
		add_px(c->out, py - 4);
		strbuf_addstr(c->out, "\" y2=\"");
		add_px(c->out, py - 4);
		strbuf_addstr(c->out, "\" stroke-width=\"2\"");
		style_attrs(c->out, s, true);
		strbuf_addstr(c->out, "/>\n");
		marker_at(c->out, s, px + 14, py - 4, true, NULL);
		svg_text(c, px + 34, py, "start", "legendtext", name[i]);
	}
	strbuf_addstr(c->out, "</g>\n");
}

void svg_chart_end(struct svg_chart *c)
{
	strbuf_addstr(c->out, "</svg>\n");
}
