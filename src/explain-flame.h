#ifndef MMCMP_EXPLAIN_FLAME_H
#define MMCMP_EXPLAIN_FLAME_H

#include <stdbool.h>
#include <stddef.h>

struct explain;
struct explain_row;
struct strbuf;

/*
 * explain-flame: a differential flame graph of an explain by call path
 * (explain.h, EXPLAIN_BY_PATH) as one inline SVG for the report: a
 * frame per path, root at the bottom, as wide as the mean of its total
 * share on the two sides, children left to right by name; coloured by
 * the difference of the total shares where that row is marked (red:
 * rose, blue: fell, stronger the larger), grey where it is not, paler
 * where it was not tested. Each frame is a <g class="fg KIND"> with
 * KIND up, down, same (tested, not marked) or untested, holding a
 * <title> tooltip (the path, each side's share, the difference with its
 * interval, q) and its <rect>. Nothing fails; every name is escaped.
 */

/*
 * Frames narrower than this, pixels, are left out with their children
 * (the legend says how many): a deep stack of one sample in a thousand
 * would make the chart tall and show nothing one could point at.
 */
#define EXPLAIN_FLAME_MIN_PX 1.0

struct explain_flame_opts {
	const char *title;	  /* the chart's */
	const char *base, *other; /* the labels, for the tooltips */
	bool fdr;		  /* rows' q is BH-adjusted, else p */
	int width_px;
};

/*
 * Append the flame graph of ex's rows (explain_compute()'s, nr of
 * them) to out; ex must be by path. Returns the frames drawn.
 */
size_t explain_flame_svg(const struct explain *ex,
			 const struct explain_row *rows, size_t nr,
			 const struct explain_flame_opts *o,
			 struct strbuf *out);

#endif /* MMCMP_EXPLAIN_FLAME_H */
