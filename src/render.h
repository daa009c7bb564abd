#ifndef MMCMP_RENDER_H
#define MMCMP_RENDER_H

#include <stdbool.h>
#include <stddef.h>

#include "gate.h"

struct compare_result;
struct strbuf;

/*
 * render: a compare_result (compare.h) as text for people and programs,
 * in one of the formats of enum render_format; render-internal.h has one
 * renderer per format, picked by render.c's table. Renderers append to a
 * strbuf and cannot fail; cmd/ writes the buffer out once. Everything
 * taken from users (labels, benchmark and operation names, machine
 * properties) is escaped for the target format. The result and the
 * options stay the caller's.
 */

/*
 * In every mode but mmtests', text, markdown, csv, html and json start
 * with the provenance block (compare-provenance.h) when the runs come
 * from the store; it replaces the machine differences, which it covers.
 * compare_options.print_ratio and print_significance select the ratio
 * table (2.8) and the "Significant" rows (2.6) in text, markdown and
 * html; csv always holds every figure.
 */
enum render_format {
	/*
	 * mmtests' PrintGeneric layout (reference 2.5), byte for byte in
	 * --test=mmtests mode; the welch and utest modes add a footer under
	 * each table (compare_footer()).
	 */
	RENDER_TEXT,
	/*
	 * One GitHub table per benchmark; significant percentages are bold
	 * and starred as in the text.
	 */
	RENDER_MARKDOWN,
	/*
	 * One record per cell (RFC 4180), columns
	 * benchmark,stat,operation,label,value,pct,p,significant,
	 * n_base,n_other; values and percentages with 15 significant
	 * digits, p-values with 6, empty when undefined. Outside mmtests
	 * mode the change columns follow (change_pct ... n_other_units) and
	 * a last column, text. The provenance block comes first, as records
	 * of benchmark "provenance": stat names the field (runs, iterations,
	 * samples, kernel, host, config, guest, note, warning), label the
	 * label it is about (empty for notes and warnings), a count is in
	 * value and a text (kernel release, host, the config names, the
	 * guest, the note or warning) in text; operation is empty. Cell
	 * records leave text empty.
	 */
	RENDER_CSV,
	/*
	 * A standalone page around mmtests' <table class="resultsTable">
	 * tables (reference 2.9); significant cells get bgcolor #A0FFA0
	 * (better) or #FFA0A0 (worse).
	 */
	RENDER_HTML,
	/*
	 * An "mmcmp-compare" document (render-json.h;
	 * docs/export-format.md): every cell with its value, percentage,
	 * p-value, verdict and the n of both sides.
	 */
	RENDER_JSON,
	/*
	 * JUnit XML for CI: a testsuite per benchmark, a testcase per
	 * operation and compared label (classname the benchmark, name
	 * "operation (label)"), a <failure> for the rows that qualify under
	 * render_options.fail_on (gate.h) with the change, its interval, p
	 * and the verdict; <skipped> for untested rows that do not qualify.
	 */
	RENDER_JUNIT,
	/*
	 * GitHub Actions workflow commands, "::error" for rows that qualify
	 * as a change, "::warning" for unsure ones, then a Markdown summary
	 * for $GITHUB_STEP_SUMMARY: a table of the qualifying rows, headed
	 * by the --fail-on choice when render_options.fail_on_given, else by
	 * "worse rows" and a line that no --fail-on sets the exit status.
	 */
	RENDER_GITHUB,
};

struct render_options {
	/*
	 * text: before each table a blank line and the benchmark's title,
	 * as compare-kernels.sh prints them; always on with more than one
	 * benchmark. Off, a single table prints as mmtests'
	 * compare-mmtests.pl does (the examples). Markdown and html always
	 * have headings.
	 */
	bool titles;
	/* html: only the tables, exactly as mmtests --format html. */
	bool html_fragment;
	/* junit and github: the rows that fail (default GATE_REGRESSION). */
	enum gate_fail_on fail_on;
	/*
	 * --fail-on was given, so fail_on decides the exit status: github's
	 * summary names it only then, and else says the status stays 0.
	 */
	bool fail_on_given;
};

#define RENDER_OPTIONS_INIT                                                    \
	{                                                                      \
		.titles = false, .html_fragment = false,                       \
		.fail_on = GATE_REGRESSION                                     \
	}

/*
 * Map "text", "markdown", "csv", "html", "json", "junit", "github";
 * false when unknown.
 */
bool render_format_parse(const char *name, enum render_format *out);
/*
 * The name of the format whose enum render_format value is i, or NULL when
 * i is past the last: lists the choices (option tables, messages).
 */
const char *render_format_nth(size_t i);

/*
 * Append res in format to out. Every format is available, so it does not
 * fail; err is kept for formats that may need it.
 */
int render(enum render_format format, const struct compare_result *res,
	   const struct render_options *opts, struct strbuf *out,
	   struct strbuf *err);

/*
 * The inside of the html format's <body>, as render() puts it into its
 * page (the provenance block or machine warnings, every table, change
 * rows, footers and notes) without the page around it: for pages that
 * embed the comparison (report-page.c). opts->html_fragment is ignored.
 */
void render_html_body(const struct compare_result *res,
		      const struct render_options *opts, struct strbuf *out);

#endif /* MMCMP_RENDER_H */
