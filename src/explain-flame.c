/* explain-flame: a differential flame graph of call-path shares, as SVG. */
#include "explain-flame.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "strbuf.h"
#include "strmap.h"
#include "svg.h"
#include "util.h"

#define LEVEL_PX  17  /* the height of a frame */
#define TOP_PX	  34  /* the title above the frames */
#define LEGEND_PX 36  /* the legend below them */
#define CHAR_PX	  6.6 /* a character of the frames' 11px text, about */

/* A drawn frame: its total row, its self row (or NULL), where it goes. */
struct frame {
	const struct explain_row *total, *self;
	size_t depth;
	double x, w;
};

/* One byte of a path for path order: its end, then ';', then the rest. */
static unsigned rank(char c)
{
	if (!c)
		return 0;
	return c == ';' ? 1 : (unsigned)(unsigned char)c + 2;
}

/*
 * Call paths frame by frame: a path before its children, siblings by
 * name, so that sorted paths are the tree in preorder.
 */
static int path_cmp(const void *pa, const void *pb)
{
	const char *a = (*(const struct frame *const *)pa)->total->symbol;
	const char *b = (*(const struct frame *const *)pb)->total->symbol;

	for (; *a && *a == *b; a++, b++)
		;
	return rank(*a) < rank(*b) ? -1 : rank(*a) > rank(*b);
}

static size_t depth_of(const char *path)
{
	size_t d = 0;

	for (; *path; path++)
		d += *path == ';';
	return d;
}

static const char *leaf_of(const char *path)
{
	const char *semi = strrchr(path, ';');

	return semi ? semi + 1 : path;
}

/* A row's kind of frame: up, down, same or untested. */
static const char *kind_of(const struct explain_row *r)
{
	if (!r->tested)
		return "untested";
	if (!r->marked)
		return "same";
	return r->diff_pp > 0 ? "up" : "down";
}

/*
 * The fill of a frame: a marked one's between pale and full red (rose)
 * or blue (fell) by its share of the largest marked difference, others
 * grey; *dark says its text should be white.
 */
static void fill_of(const struct explain_row *r, double max_abs,
		    struct strbuf *sb, bool *dark)
{
	static const int red[3] = {202, 0, 32}, blue[3] = {5, 113, 176};
	const int *c = r->diff_pp > 0 ? red : blue;
	double t;

	*dark = false;
	if (!r->tested || !r->marked) {
		strbuf_addstr(sb, r->tested ? "#d4d4d4" : "#ededed");
		return;
	}
	t = 0.3 + 0.7 * fmin(1, fabs(r->diff_pp) / max_abs);
	*dark = t > 0.6;
	strbuf_addf(sb, "#%02x%02x%02x", (int)lround(255 + (c[0] - 255) * t),
		    (int)lround(255 + (c[1] - 255) * t),
		    (int)lround(255 + (c[2] - 255) * t));
}

/* One line of a tooltip: kind, both shares, the change and its test. */
static void tip_line(struct strbuf *sb, const char *kind,
		     const struct explain_row *r,
		     const struct explain_flame_opts *o)
{
	strbuf_addf(sb, "\n%s: ", kind);
	svg_escape(sb, o->base);
	strbuf_addf(sb, " %.2f%%, ", r->base_pct);
	svg_escape(sb, o->other);
	strbuf_addf(sb, " %.2f%%, change %+.2fpp", r->other_pct, r->diff_pp);
	if (!r->tested) {
		strbuf_addstr(sb, ", untested");
		return;
	}
	strbuf_addf(sb, " [%+.2f, %+.2f] (%.4g%% interval), %c", r->ci_low,
		    r->ci_high, 100 * r->ci_level, o->fdr ? 'q' : 'p');
	if (r->q < 0.0001)
		strbuf_addstr(sb, "&lt;0.0001");
	else
		strbuf_addf(sb, "=%.4f", r->q);
	strbuf_addstr(sb, r->marked ? ", changed" : ", not marked");
}

/* The frame's visible name: its leaf, cut to what fits w pixels. */
static void frame_text(struct strbuf *out, const struct frame *f, double y,
		       bool dark)
{
	const char *leaf = leaf_of(f->total->symbol);
	size_t fit = f->w > 4 ? (size_t)((f->w - 4) / CHAR_PX) : 0;
	size_t n = strlen(leaf);
	char *cut;

	if (fit < 3)
		return;
	if (n > fit) {
		n = fit - 2;
		while (n && ((unsigned char)leaf[n] & 0xC0) == 0x80)
			n--; /* not inside a UTF-8 character */
	}
	cut = xstrndup(leaf, n);
	strbuf_addf(out,
		    "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" "
		    "fill=\"%s\">",
		    f->x + 3, y + LEVEL_PX - 5, dark ? "#fff" : "#111");
	svg_escape(out, cut);
	if (n < strlen(leaf))
		strbuf_addstr(out, "..");
	strbuf_addstr(out, "</text>\n");
	free(cut);
}

static void draw_frame(struct svg_chart *c, const struct frame *f,
		       double max_abs, const struct explain_flame_opts *o)
{
	struct strbuf fill = STRBUF_INIT;
	double y = c->bottom - (double)(f->depth + 1) * LEVEL_PX;
	bool dark;

	fill_of(f->total, max_abs, &fill, &dark);
	strbuf_addf(c->out, "<g class=\"fg %s\"><title>", kind_of(f->total));
	svg_escape(c->out, f->total->symbol);
	tip_line(c->out, "total", f->total, o);
	if (f->self)
		tip_line(c->out, "self", f->self, o);
	strbuf_addf(c->out,
		    "</title>\n<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" "
		    "height=\"%d\" fill=\"%s\" stroke=\"#fff\" "
		    "stroke-width=\"0.5\"/>\n",
		    f->x, y, f->w, LEVEL_PX - 1, fill.buf);
	frame_text(c->out, f, y, dark);
	strbuf_addstr(c->out, "</g>\n");
	strbuf_release(&fill);
}

/* The key to the colours, under the frames, and what was left out. */
static void legend(struct svg_chart *c, size_t left_out)
{
	struct strbuf sb = STRBUF_INIT;

	static const struct {
		const char *fill, *text;
	} keys[] = {
		{"#ca0020", "share rose (marked)"},
		{"#0571b0", "share fell (marked)"},
		{"#d4d4d4", "not marked"},
		{"#ededed", "untested"},
	};
	double x = c->left, y = c->height - 16;

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		strbuf_addf(c->out,
			    "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" "
			    "height=\"12\" fill=\"%s\" stroke=\"#999\"/>\n",
			    x, y - 10, keys[i].fill);
		svg_text(c, x + 16, y, "start", "tick", keys[i].text);
		x += 150;
	}
	strbuf_addstr(&sb, "width: mean total share of the two sides");
	if (left_out)
		strbuf_addf(&sb, "; %zu frame%s under %g px left out", left_out,
			    left_out == 1 ? "" : "s", EXPLAIN_FLAME_MIN_PX);
	svg_text(c, x, y, "start", "tick", sb.buf);
	strbuf_release(&sb);
}

/*
 * Place frames[0..nr) (sorted in path order) left to right within their
 * parents, root level at x0; the widths are their mean total shares of
 * span pixels. Returns the deepest drawn level + 1.
 */
static size_t place(struct frame **frames, size_t nr, double x0, double span)
{
	size_t max_depth = 0, levels = 0;
	double *cursor;

	for (size_t i = 0; i < nr; i++)
		max_depth = frames[i]->depth > max_depth ? frames[i]->depth
							 : max_depth;
	cursor = xcalloc(max_depth + 2, sizeof(*cursor));
	cursor[0] = x0;
	for (size_t i = 0; i < nr; i++) {
		struct frame *f = frames[i];

		f->w = span * (f->total->base_pct + f->total->other_pct) / 200;
		f->x = cursor[f->depth];
		cursor[f->depth] += f->w;
		cursor[f->depth + 1] = f->x;
		if (f->w >= EXPLAIN_FLAME_MIN_PX && f->depth + 1 > levels)
			levels = f->depth + 1;
	}
	free(cursor);
	return levels;
}

size_t explain_flame_svg(const struct explain *ex,
			 const struct explain_row *rows, size_t nr,
			 const struct explain_flame_opts *o, struct strbuf *out)
{
	struct frame *v = xcalloc(nr + 1, sizeof(*v));
	struct frame **order = xcalloc(nr + 1, sizeof(*order));
	struct strmap selfs = STRMAP_INIT;
	struct svg_chart c;
	size_t n = 0, levels, drawn = 0;
	double max_abs = 0;

	if (explain_by(ex) != EXPLAIN_BY_PATH)
		BUG("a flame graph needs rows by call path");
	for (size_t i = 0; i < nr; i++)
		if (rows[i].self)
			strmap_put(&selfs, rows[i].symbol,
				   strlen(rows[i].symbol), i);
	for (size_t i = 0; i < nr; i++) {
		size_t s;

		if (rows[i].self)
			continue;
		v[n].total = &rows[i];
		if (strmap_get(&selfs, rows[i].symbol, strlen(rows[i].symbol),
			       &s))
			v[n].self = &rows[s];
		v[n].depth = depth_of(rows[i].symbol);
		if (rows[i].marked)
			max_abs = fmax(max_abs, fabs(rows[i].diff_pp));
		order[n] = &v[n];
		n++;
	}
	if (n)
		qsort(order, n, sizeof(*order), path_cmp);
	levels = place(order, n, 10, o->width_px - 20);
	svg_chart_begin(&c, out, "flame", o->width_px,
			TOP_PX + (int)(levels ? levels : 1) * LEVEL_PX +
				LEGEND_PX,
			o->title, 10, 10);
	c.bottom = TOP_PX + (double)(levels ? levels : 1) * LEVEL_PX;
	for (size_t i = 0; i < n; i++) {
		if (order[i]->w < EXPLAIN_FLAME_MIN_PX)
			continue;
		draw_frame(&c, order[i], max_abs, o);
		drawn++;
	}
	if (!drawn)
		svg_text(&c, c.left, c.bottom - 4, "start", "na",
			 "no samples to draw");
	legend(&c, n - drawn);
	svg_chart_end(&c);
	strmap_clear(&selfs);
	free(order);
	free(v);
	return drawn;
}
