#ifndef MMCMP_RENDER_CELLS_H
#define MMCMP_RENDER_CELLS_H

#include <stdbool.h>
#include <stddef.h>

struct compare_bench;
struct compare_result;
struct compare_side;
struct strbuf;
struct strvec;

/*
 * render-cells: the labels, cells and rows that the renderers
 * (render-*.c) format alike, below them all: it calls no renderer. Like
 * render(), these functions append to out and cannot fail; the result
 * stays the caller's.
 */

/*
 * mmtests' split of a run label over its two header lines: the first
 * *len1 bytes form line 1, line 2 starts at byte *start2. The split is at
 * the first '-', moved 4 bytes right when the rest starts with
 * "rc<digit>" ("6.10-rc1-patched" -> "6.10-rc1" / "patched"); a label
 * without '-' keeps mmtests' quirk ("base" -> "bas" / "base").
 */
void render_split_label(const char *label, size_t *len1, size_t *start2);

/*
 * The two header lines of run i's label, as render_split_label() gives
 * them: mmtests' split under --test=mmtests; otherwise the label whole,
 * on line 2 (*len1 is 0, *start2 0), or split at its first '-' when
 * both parts are non-empty, the dash kept on line 1 ("6.8-base" -> "6.8-" /
 * "base").
 */
void render_header_label(const struct compare_result *res, size_t i,
			 size_t *len1, size_t *start2);

/*
 * Append len bytes of s for a terminal, control characters escaped
 * (names_escape()), padded with spaces to |width| characters (not
 * bytes): on the left for width > 0, as "%*s" pads, on the right for
 * width < 0, as "%-*s"; 0 pads nothing.
 */
void render_text_cell(struct strbuf *out, int width, const char *s, size_t len);

/*
 * The characters (code points; no wide ones are told apart) that len
 * bytes of s take as render_text_cell() shows them, what its width
 * counts.
 */
size_t render_text_chars(const char *s, size_t len);

/*
 * Append v as printf "%*.*f" (with '+' when plus) would, except that NaN
 * and infinities print "NaN", "Inf", "-Inf" as Perl's sprintf does.
 */
void render_fixed(struct strbuf *sb, int width, int prec, bool plus, double v);

/*
 * v as the default modes print it at prec decimals: 0.0 for what would
 * print as "-0.00" (a negative zero, a tiny negative value); v itself in
 * mmtests mode, which prints "-0.00" as Perl does.
 */
double render_plain_zero(const struct compare_result *res, int prec, double v);

/*
 * Append the verdict cell of a "Significant" row, 11 columns like the
 * percentage cells: mmtests' cidiff ratio through " (%7.2f%%)" in mmtests
 * mode and in the baseline column (run 0), otherwise " (p=0.0123)",
 * " (p<0.0001)" or " (untested)".
 */
void render_verdict(struct strbuf *sb, const struct compare_result *res,
		    size_t run, const struct compare_side *side);

/*
 * The change block of a table (welch and utest modes, two runs or more):
 * one row per operation and compared run, RENDER_CHANGE_COLS cells each,
 * pushed row-major onto cells: operation, label, the change
 * ("+10.36%", "n/a"), Fieller's interval ("[+9.01%, +11.72%]", "[n/a]"
 * when unbounded, "-" when untested), the unadjusted p ("p=0.0004",
 * "p<0.0001", "p=-"), units per side ("n=5/5") and the verdict. Nothing
 * in mmtests mode.
 */
#define RENDER_CHANGE_COLS 7
void render_change_rows(const struct compare_result *res,
			const struct compare_bench *b, struct strvec *cells);
/*
 * The same without the rows of gauges (compare_op.gauge), which have no
 * change, test or verdict: the change block the tables print.
 */
void render_change_rows_shown(const struct compare_result *res,
			      const struct compare_bench *b,
			      struct strvec *cells);

/* The change block's column i heading: "operation", ..., "95% CI", ... */
void render_change_head(const struct compare_result *res, size_t i,
			struct strbuf *sb);

/*
 * The gate's line on row k of cells (render_change_rows() of its table)
 * for side s of that row: "worse: -5.00% [-6.10%, -3.90%], p=0.0004,
 * n=4/4"; for an untested row its reason (compare_untested_text()),
 * "untested: operation missing, n=4/0"; only the verdict and reason when
 * cells has no row k. For junit and github.
 */
void render_gate_detail(const struct compare_result *res,
			const struct compare_side *s,
			const struct strvec *cells, size_t k,
			struct strbuf *sb);

/*
 * Append s with every character that Markdown or a table could take as
 * syntax backslash-escaped; line breaks, which would end the table row,
 * become spaces.
 */
void render_md_escape(struct strbuf *out, const char *s);

/*
 * One CSV record that is not a cell: table in the benchmark column, field
 * as stat, operation empty, the label (NULL: empty), a number (NULL:
 * empty) in value, then `empty` empty columns and text (NULL: empty) in
 * the last column, text (the columns are in render.h).
 */
void render_csv_record(struct strbuf *out, const char *table, const char *field,
		       const char *text, const char *label, const char *num,
		       size_t empty);

#endif /* MMCMP_RENDER_CELLS_H */
