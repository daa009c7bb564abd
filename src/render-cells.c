/* render-cells: the cells, labels and rows every renderer formats alike. */
#include "render-cells.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "compare.h"
#include "csv.h"
#include "names.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"

void render_split_label(const char *label, size_t *len1, size_t *start2)
{
	size_t len = strlen(label);
	const char *dash = strchr(label, '-');
	size_t idx;

	if (!dash) {
		/*
		 * mmtests' substr($name, 0, -1) for an index of -1, which
		 * drops the last character, not a byte of it.
		 */
		*len1 = len ? names_cut(label, len, len - 1) : 0;
		*start2 = 0;
		return;
	}
	idx = (size_t)(dash - label);
	if (!strncmp(dash + 1, "rc", 2) && isdigit((unsigned char)dash[3]))
		idx += 4;
	*len1 = idx < len ? idx : len;
	*start2 = idx + 1 < len ? idx + 1 : len;
}

void render_header_label(const struct compare_result *res, size_t i,
			 size_t *len1, size_t *start2)
{
	const char *label = res->labels[i];
	const char *dash = strchr(label, '-');

	if (res->opts.test == COMPARE_TEST_MMTESTS) {
		render_split_label(label, len1, start2);
		return;
	}
	*len1 = 0;
	*start2 = 0;
	/* The dash stays on line 1, so that no character is lost. */
	if (dash && dash > label && dash[1]) {
		*len1 = (size_t)(dash - label) + 1;
		*start2 = *len1;
	}
}

void render_text_cell(struct strbuf *out, int width, const char *s, size_t len)
{
	size_t start = out->len, chars = 0;
	size_t want = (size_t)(width < 0 ? -width : width);

	names_escape(out, s, len);
	for (size_t i = start; i < out->len; i++)
		chars += ((unsigned char)out->buf[i] & 0xc0) != 0x80;
	if (chars >= want)
		return;
	if (width < 0) {
		strbuf_addchars(out, ' ', want - chars);
		return;
	}
	strbuf_addchars(out, ' ', want - chars);
	memmove(out->buf + start + (want - chars), out->buf + start,
		out->len - start - (want - chars));
	memset(out->buf + start, ' ', want - chars);
}

size_t render_text_chars(const char *s, size_t len)
{
	struct strbuf cell = STRBUF_INIT;
	size_t chars = 0;

	render_text_cell(&cell, 0, s, len);
	for (size_t i = 0; i < cell.len; i++)
		chars += ((unsigned char)cell.buf[i] & 0xc0) != 0x80;
	strbuf_release(&cell);
	return chars;
}

/*
 * printf("%*.*f") of finite v where the rounding is plain, without
 * printf; false (nothing added) where it is not. |v| 10^prec is computed
 * with one rounding, so the exact product lies within an ulp of it: a
 * fraction at least two ulps from one half rounds the same way as the
 * exact value, as printf rounds it. Near one half (a tie, which printf
 * breaks by the exact digits), beyond 2^52 or past 15 decimals, printf
 * does it. The tables print tens of thousands of numbers.
 */
static bool fixed_fast(struct strbuf *sb, int width, int prec, bool plus,
		       double v)
{
	static const double p10[] = {1e0,  1e1,	 1e2,  1e3, 1e4,  1e5,
				     1e6,  1e7,	 1e8,  1e9, 1e10, 1e11,
				     1e12, 1e13, 1e14, 1e15};
	char buf[48], *end = buf + sizeof(buf), *p = end;
	double y, whole, frac;
	uint64_t r;
	size_t len;

	if (prec < 0 || prec > 15)
		return false;
	y = fabs(v) * p10[prec];
	if (!(y < 0x1p52))
		return false;
	whole = floor(y);
	frac = y - whole;
	if (fabs(frac - 0.5) <= 2.0 * y * 0x1p-52)
		return false;
	r = (uint64_t)whole + (frac > 0.5);
	for (int d = 0; d < prec; d++) {
		*--p = (char)('0' + r % 10);
		r /= 10;
	}
	if (prec)
		*--p = '.';
	do {
		*--p = (char)('0' + r % 10);
		r /= 10;
	} while (r);
	if (signbit(v))
		*--p = '-';
	else if (plus)
		*--p = '+';
	len = (size_t)(end - p);
	if (width > 0 && (size_t)width > len)
		strbuf_addchars(sb, ' ', (size_t)width - len);
	strbuf_add(sb, p, len);
	return true;
}

void render_fixed(struct strbuf *sb, int width, int prec, bool plus, double v)
{
	const char *word;

	if (!isnan(v) && !isinf(v)) {
		if (!fixed_fast(sb, width, prec, plus, v))
			strbuf_addf(sb, plus ? "%+*.*f" : "%*.*f", width, prec,
				    v);
		return;
	}
	if (isnan(v))
		word = "NaN";
	else if (v > 0)
		word = plus ? "+Inf" : "Inf";
	else
		word = "-Inf";
	strbuf_addf(sb, "%*s", width, word);
}

double render_plain_zero(const struct compare_result *res, int prec, double v)
{
	if (res->opts.test == COMPARE_TEST_MMTESTS || isnan(v))
		return v;
	/* Whatever prints as zero at prec decimals, "-0.00" included. */
	return fabs(v) < 0.5 * pow(10.0, -prec) ? 0.0 : v;
}

void render_verdict(struct strbuf *sb, const struct compare_result *res,
		    size_t run, const struct compare_side *side)
{
	if (!run || res->opts.test == COMPARE_TEST_MMTESTS) {
		strbuf_addstr(sb, " (");
		render_fixed(sb, 7, 2, false, run ? side->cidiff : 0.0);
		strbuf_addstr(sb, "%)");
	} else if (side->untested != COMPARE_TESTED) {
		strbuf_addstr(sb, " (untested)");
	} else if (side->p < 0.0001) {
		strbuf_addstr(sb, " (p<0.0001)");
	} else {
		strbuf_addf(sb, " (p=%6.4f)", side->p);
	}
}

/* A percentage with its sign: "+10.36%"; "n/a" when not finite. */
static void change_pct(struct strbuf *sb, double v)
{
	if (isfinite(v))
		strbuf_addf(sb, "%+.2f%%", v);
	else
		strbuf_addstr(sb, "n/a");
}

/*
 * "[-6.11%, -0.29%]"; on a row left unmarked whose interval excludes 0
 * (unadjusted, where the mark is BH-adjusted) "... unadjusted".
 */
static void interval(struct strbuf *sb, const struct compare_side *s)
{
	strbuf_addch(sb, '[');
	change_pct(sb, s->change.low_pct);
	strbuf_addstr(sb, ", ");
	change_pct(sb, s->change.high_pct);
	strbuf_addch(sb, ']');
	if (!s->significant &&
	    (s->change.low_pct > 0 || s->change.high_pct < 0))
		strbuf_addstr(sb, " unadjusted");
}

/* "p=0.0356 q=0.4269": p, and with fdr its BH-adjusted q; "p=-". */
static void p_cell(struct strbuf *sb, const struct compare_result *res,
		   const struct compare_side *s)
{
	if (isnan(s->p)) {
		strbuf_addstr(sb, "p=-");
		return;
	}
	if (s->p < 0.0001)
		strbuf_addstr(sb, "p<0.0001");
	else
		strbuf_addf(sb, "p=%.4f", s->p);
	if (!res->opts.fdr || isnan(s->p_adjusted))
		return;
	if (s->p_adjusted < 0.0001)
		strbuf_addstr(sb, " q<0.0001");
	else
		strbuf_addf(sb, " q=%.4f", s->p_adjusted);
}

static void change_rows(const struct compare_result *res,
			const struct compare_bench *b, bool gauges,
			struct strvec *cells)
{
	struct strbuf sb = STRBUF_INIT;

	if (res->opts.test == COMPARE_TEST_MMTESTS)
		return;
	for (size_t o = 0; o < b->ops_nr; o++) {
		const struct compare_op *op = &b->ops[o];

		if (!gauges && op->gauge)
			continue;
		for (size_t i = 1; i < res->runs_nr; i++) {
			const struct compare_side *s = &op->side[i];
			bool tested = s->untested == COMPARE_TESTED;

			strvec_push(cells, op->name);
			strvec_push(cells, res->labels[i]);
			strbuf_reset(&sb);
			change_pct(&sb, tested ? s->change.change_pct : NAN);
			strvec_push(cells, sb.buf);
			strbuf_reset(&sb);
			if (!tested) {
				strbuf_addstr(&sb, "-");
			} else if (s->change.kind != STATS_CI_BOUNDED) {
				strbuf_addstr(&sb, "[n/a]");
			} else {
				interval(&sb, s);
			}
			strvec_push(cells, sb.buf);
			strbuf_reset(&sb);
			p_cell(&sb, res, s);
			strvec_push(cells, sb.buf);
			strbuf_reset(&sb);
			strbuf_addf(&sb, "n=%zu/%zu", op->side[0].units,
				    s->units);
			strvec_push(cells, sb.buf);
			strvec_push(cells, stats_verdict_name(s->verdict));
		}
	}
	strbuf_release(&sb);
}

void render_change_rows(const struct compare_result *res,
			const struct compare_bench *b, struct strvec *cells)
{
	change_rows(res, b, true, cells);
}

void render_change_rows_shown(const struct compare_result *res,
			      const struct compare_bench *b,
			      struct strvec *cells)
{
	change_rows(res, b, false, cells);
}

void render_change_head(const struct compare_result *res, size_t i,
			struct strbuf *sb)
{
	static const char *const heads[RENDER_CHANGE_COLS] = {
		"operation", "label", "change", NULL, "p", "n", "verdict",
	};

	if (i >= RENDER_CHANGE_COLS)
		BUG("change column %zu", i);
	if (heads[i])
		strbuf_addstr(sb, heads[i]);
	else
		strbuf_addf(sb, "%g%% CI", 100 * (1 - res->opts.alpha));
}

void render_gate_detail(const struct compare_result *res,
			const struct compare_side *s,
			const struct strvec *cells, size_t k, struct strbuf *sb)
{
	char *const *c = (k + 1) * RENDER_CHANGE_COLS <= cells->nr
				 ? cells->v + k * RENDER_CHANGE_COLS
				 : NULL;

	strbuf_addstr(sb, stats_verdict_name(s->verdict));
	if (s->verdict == STATS_VERDICT_UNTESTED) {
		strbuf_addstr(sb, ": ");
		compare_untested_text(res, s->untested, sb);
		if (c)
			strbuf_addf(sb, ", %s", c[5]);
	} else if (c) {
		strbuf_addf(sb, ": %s %s, %s, %s", c[2], c[3], c[4], c[5]);
	}
}

void render_md_escape(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '\n' || *s == '\r') {
			strbuf_addch(out, ' ');
			continue;
		}
		if (strchr("\\`*_[]<>#|~&", *s))
			strbuf_addch(out, '\\');
		strbuf_addch(out, *s);
	}
}

void render_csv_record(struct strbuf *out, const char *table, const char *field,
		       const char *text, const char *label, const char *num,
		       size_t empty)
{
	csv_quote_field(out, table);
	strbuf_addf(out, ",%s,,", field);
	csv_quote_field(out, label ? label : "");
	strbuf_addf(out, ",%s", num ? num : "");
	strbuf_addchars(out, ',', empty + 1);
	csv_quote_field(out, text ? text : "");
	strbuf_addch(out, '\n');
}
