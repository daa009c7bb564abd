/* render-provenance: the provenance block before the tables, per format. */
#include "render-provenance.h"

#include <inttypes.h>
#include <string.h>

#include "compare-provenance.h"
#include "compare.h"
#include "names.h"
#include "render-cells.h"
#include "run-data.h"
#include "strbuf.h"
#include "strvec.h"
#include "svg.h"
#include "util.h"

const struct compare_provenance *
render_provenance(const struct compare_result *res)
{
	if (res->opts.test == COMPARE_TEST_MMTESTS)
		return NULL;
	return res->provenance;
}

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

/* "1 run, 5 iterations, 15 samples" */
static void prov_counts(const struct compare_prov_label *l, struct strbuf *out)
{
	strbuf_addf(out, "%zu run%s, %" PRId64 " iteration%s, %zu sample%s",
		    l->runs, plural(l->runs), l->iterations,
		    plural((size_t)l->iterations), l->samples,
		    plural(l->samples));
}

/*
 * "; kernel 6.1.0-18-amd64, host box, config page-fault", without the
 * parts that are unknown (imports of other tools' results).
 */
static void prov_where(const struct compare_prov_label *l, struct strbuf *out)
{
	const char *names[] = {"kernel", "host", "config"};
	const char *values[] = {l->kernel_release, l->host, l->config_name};
	const char *sep = "; ";

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (!values[i])
			continue;
		strbuf_addf(out, "%s%s %s", sep, names[i], values[i]);
		sep = ", ";
	}
}

/* "guest 6.1.0 'console=ttyS0', image PATH (sha256 1a2b...), 4 boots" */
static void prov_guest(const struct compare_prov_label *l, struct strbuf *out)
{
	strbuf_addf(out, "guest %s", l->guest_release ? l->guest_release : "-");
	if (l->guest_cmdline)
		strbuf_addf(out, " '%s'", l->guest_cmdline);
	strbuf_addf(out, ", image %s", l->image ? l->image : "-");
	if (l->image_sha256) {
		strbuf_addstr(out, " (sha256 ");
		strbuf_add(out, l->image_sha256,
			   strnlen(l->image_sha256, COMPARE_PROV_SHA_SHORT));
		strbuf_addch(out, ')');
	}
	strbuf_addf(out, ", %zu boot%s", l->boots, plural(l->boots));
}

/* Where the text block wraps, for a mail: 78 columns, as git's. */
#define TEXT_WRAP 78

/* The code points of len bytes of UTF-8 at s: the columns they take. */
static size_t utf8_chars(const char *s, size_t len)
{
	size_t chars = 0;

	for (size_t i = 0; i < len; i++)
		chars += ((unsigned char)s[i] & 0xc0) != 0x80;
	return chars;
}

/*
 * The byte offset in sb of its last space after start that has at most
 * `avail` characters before it from start; start when there is none.
 */
static size_t last_space(const struct strbuf *sb, size_t start, size_t avail)
{
	size_t cut = start, n = 0;

	for (size_t i = start; i < sb->len; i++) {
		if (((unsigned char)sb->buf[i] & 0xc0) == 0x80)
			continue;
		if (n > avail)
			break;
		if (sb->buf[i] == ' ' && i > start)
			cut = i;
		n++;
	}
	return cut;
}

/*
 * A line of text for a terminal after lead: escaped, wrapped at spaces
 * before TEXT_WRAP columns (characters, not bytes, counted from the start
 * of the line, at column `col`), continued `indent` columns in, then
 * '\n'.
 */
static void text_line(struct strbuf *out, size_t col, size_t indent,
		      const char *lead, const struct strbuf *s)
{
	struct strbuf esc = STRBUF_INIT;
	size_t start = 0, first = col + strlen(lead);

	render_text_cell(&esc, 0, s->buf, s->len);
	strbuf_addstr(out, lead);
	while (first < TEXT_WRAP &&
	       utf8_chars(esc.buf + start, esc.len - start) + first >
		       TEXT_WRAP) {
		size_t cut = last_space(&esc, start, TEXT_WRAP - first);

		if (cut == start)
			break; /* one long word: leave it whole */
		strbuf_add(out, esc.buf + start, cut - start);
		strbuf_addch(out, '\n');
		strbuf_addchars(out, ' ', indent);
		start = cut + 1;
		first = indent;
	}
	strbuf_add(out, esc.buf + start, esc.len - start);
	strbuf_addch(out, '\n');
	strbuf_release(&esc);
}

bool render_text_provenance(const struct compare_result *res,
			    struct strbuf *out)
{
	const struct compare_provenance *p = render_provenance(res);
	struct strbuf line = STRBUF_INIT, part = STRBUF_INIT;
	const char *where;
	size_t width = 0;

	if (!p)
		return false;
	/* In characters, as render_text_cell() pads. */
	for (size_t i = 0; i < res->runs_nr; i++) {
		size_t chars = render_text_chars(res->labels[i],
						 strlen(res->labels[i]));

		if (chars > width)
			width = chars;
	}
	strbuf_addstr(out, "Provenance\n");
	for (size_t i = 0; i < p->labels_nr; i++) {
		const struct compare_prov_label *l = &p->labels[i];

		strbuf_addstr(out, "  ");
		render_text_cell(out, -(int)width, res->labels[i],
				 strlen(res->labels[i]));
		strbuf_reset(&line);
		prov_counts(l, &line);
		prov_where(l, &line);
		/* Too long: the kernel, host and config on a line of their own.
		 */
		if (4 + width + render_text_chars(line.buf, line.len) >
			    TEXT_WRAP &&
		    (where = strstr(line.buf, "; "))) {
			strbuf_reset(&part);
			strbuf_add(&part, line.buf,
				   (size_t)(where - line.buf) + 1);
			text_line(out, 2 + width, 4 + width, "  ", &part);
			strbuf_reset(&part);
			strbuf_addstr(&part, where + 2);
			strbuf_addchars(out, ' ', 2 + width);
			text_line(out, 2 + width, 4 + width, "  ", &part);
		} else {
			text_line(out, 2 + width, 4 + width, "  ", &line);
		}
		if (!l->vm)
			continue;
		strbuf_reset(&line);
		prov_guest(l, &line);
		strbuf_addchars(out, ' ', 2 + width);
		text_line(out, 2 + width, 4 + width, "  ", &line);
	}
	for (size_t i = 0; i < p->notes.nr; i++) {
		strbuf_reset(&line);
		strbuf_addstr(&line, p->notes.v[i]);
		text_line(out, 0, 4, "Note: ", &line);
	}
	if (p->warnings.nr)
		strbuf_addstr(out, "Warning: not like for like\n");
	for (size_t i = 0; i < p->warnings.nr; i++) {
		strbuf_reset(&line);
		strbuf_addstr(&line, p->warnings.v[i]);
		text_line(out, 0, 4, "  ", &line);
	}
	strbuf_release(&line);
	strbuf_release(&part);
	return true;
}

bool render_markdown_provenance(const struct compare_result *res,
				struct strbuf *out)
{
	const struct compare_provenance *p = render_provenance(res);
	struct strbuf cell = STRBUF_INIT;

	if (!p)
		return false;
	strbuf_addstr(out, "**Provenance**\n\n"
			   "| label | runs | iterations | samples | kernel |"
			   " host | config |");
	if (p->has_vm)
		strbuf_addstr(out, " guest |");
	strbuf_addstr(out, "\n|---|--:|--:|--:|---|---|---|");
	if (p->has_vm)
		strbuf_addstr(out, "---|");
	strbuf_addch(out, '\n');
	for (size_t i = 0; i < p->labels_nr; i++) {
		const struct compare_prov_label *l = &p->labels[i];

		strbuf_addstr(out, "| ");
		render_md_escape(out, res->labels[i]);
		strbuf_addf(out, " | %zu | %" PRId64 " | %zu | ", l->runs,
			    l->iterations, l->samples);
		render_md_escape(out,
				 l->kernel_release ? l->kernel_release : "-");
		strbuf_addstr(out, " | ");
		render_md_escape(out, l->host ? l->host : "-");
		strbuf_addstr(out, " | ");
		render_md_escape(out, l->config_name ? l->config_name : "-");
		strbuf_addstr(out, " |");
		if (p->has_vm) {
			strbuf_reset(&cell);
			if (l->vm)
				prov_guest(l, &cell);
			strbuf_addch(out, ' ');
			render_md_escape(out, cell.len ? cell.buf : "-");
			strbuf_addstr(out, " |");
		}
		strbuf_addch(out, '\n');
	}
	if (p->notes.nr || p->warnings.nr)
		strbuf_addch(out, '\n');
	for (size_t i = 0; i < p->notes.nr; i++) {
		strbuf_addstr(out, "> **Note:** ");
		render_md_escape(out, p->notes.v[i]);
		strbuf_addstr(out, "\n>\n");
	}
	if (p->warnings.nr)
		strbuf_addstr(out, "> **Warning:** not like for like:\n");
	for (size_t i = 0; i < p->warnings.nr; i++) {
		strbuf_addstr(out, "> - ");
		render_md_escape(out, p->warnings.v[i]);
		strbuf_addch(out, '\n');
	}
	if (!p->warnings.nr && p->notes.nr)
		strbuf_setlen(out, out->len - 2); /* the last ">\n" */
	strbuf_addch(out, '\n');
	strbuf_release(&cell);
	return true;
}

/* <td>s</td>, s escaped; "-" for NULL. */
static void html_td(struct strbuf *out, const char *s)
{
	strbuf_addstr(out, "<td>");
	svg_escape(out, s ? s : "-");
	strbuf_addstr(out, "</td>");
}

bool render_html_provenance(const struct compare_result *res,
			    struct strbuf *out)
{
	const struct compare_provenance *p = render_provenance(res);
	struct strbuf cell = STRBUF_INIT;

	if (!p)
		return false;
	strbuf_addstr(out, "<h2>Provenance</h2>\n"
			   "<table class=\"provenance\">\n"
			   "<tr><th>label</th><th>runs</th><th>iterations</th>"
			   "<th>samples</th><th>kernel</th><th>host</th>"
			   "<th>config</th>");
	if (p->has_vm)
		strbuf_addstr(out, "<th>guest</th>");
	strbuf_addstr(out, "</tr>\n");
	for (size_t i = 0; i < p->labels_nr; i++) {
		const struct compare_prov_label *l = &p->labels[i];

		strbuf_addstr(out, "<tr>");
		html_td(out, res->labels[i]);
		strbuf_addf(out, "<td>%zu</td><td>%" PRId64 "</td><td>%zu</td>",
			    l->runs, l->iterations, l->samples);
		html_td(out, l->kernel_release);
		html_td(out, l->host);
		html_td(out, l->config_name);
		if (p->has_vm) {
			strbuf_reset(&cell);
			if (l->vm)
				prov_guest(l, &cell);
			html_td(out, cell.len ? cell.buf : NULL);
		}
		strbuf_addstr(out, "</tr>\n");
	}
	strbuf_addstr(out, "</table>\n");
	for (size_t i = 0; i < p->notes.nr; i++) {
		strbuf_addstr(out, "<p class=\"note\">Note: ");
		svg_escape(out, p->notes.v[i]);
		strbuf_addstr(out, "</p>\n");
	}
	if (p->warnings.nr)
		strbuf_addstr(out,
			      "<div class=\"warning\">\n"
			      "<p>Warning: not like for like:</p>\n<ul>\n");
	for (size_t i = 0; i < p->warnings.nr; i++) {
		strbuf_addstr(out, "<li>");
		svg_escape(out, p->warnings.v[i]);
		strbuf_addstr(out, "</li>\n");
	}
	if (p->warnings.nr)
		strbuf_addstr(out, "</ul>\n</div>\n");
	strbuf_release(&cell);
	return true;
}

/* One provenance record: render_csv_record() of benchmark "provenance". */
static void csv_record(struct strbuf *out, const char *field, const char *text,
		       const char *label, const char *num, size_t empty)
{
	render_csv_record(out, "provenance", field, text, label, num, empty);
}

void render_csv_provenance(const struct compare_result *res, size_t empty,
			   struct strbuf *out)
{
	const struct compare_provenance *p = render_provenance(res);
	struct strbuf num = STRBUF_INIT, cell = STRBUF_INIT;

	if (!p)
		return;
	for (size_t i = 0; i < p->labels_nr; i++) {
		const struct compare_prov_label *l = &p->labels[i];
		const char *label = res->labels[i];

		strbuf_reset(&num);
		strbuf_addf(&num, "%zu", l->runs);
		csv_record(out, "runs", NULL, label, num.buf, empty);
		strbuf_reset(&num);
		strbuf_addf(&num, "%" PRId64, l->iterations);
		csv_record(out, "iterations", NULL, label, num.buf, empty);
		strbuf_reset(&num);
		strbuf_addf(&num, "%zu", l->samples);
		csv_record(out, "samples", NULL, label, num.buf, empty);
		csv_record(out, "kernel", l->kernel_release, label, NULL,
			   empty);
		csv_record(out, "host", l->host, label, NULL, empty);
		csv_record(out, "config", l->config_name, label, NULL, empty);
		if (!l->vm)
			continue;
		strbuf_reset(&cell);
		prov_guest(l, &cell);
		csv_record(out, "guest", cell.buf, label, NULL, empty);
	}
	for (size_t i = 0; i < p->notes.nr; i++)
		csv_record(out, "note", p->notes.v[i], NULL, NULL, empty);
	for (size_t i = 0; i < p->warnings.nr; i++)
		csv_record(out, "warning", p->warnings.v[i], NULL, NULL, empty);
	strbuf_release(&num);
	strbuf_release(&cell);
}

/*
 * Add accel, "?" when NULL or empty, to seen unless it has it; whether
 * it is tcg.
 */
static bool accel_add(const char *accel, struct strvec *seen)
{
	const char *a = accel && *accel ? accel : "?";

	for (size_t i = 0; i < seen->nr; i++)
		if (!strcmp(seen->v[i], a))
			return !strcmp(a, "tcg");
	strvec_push(seen, a);
	return !strcmp(a, "tcg");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

bool render_boots_accel(const char *const *accel, size_t nr, struct strbuf *out)
{
	struct strvec seen = STRVEC_INIT;
	bool tcg = false;

	for (size_t i = 0; i < nr; i++)
		tcg |= accel_add(accel[i], &seen);
	if (seen.nr)
		qsort(seen.v, seen.nr, sizeof(*seen.v), cmp_str);
	for (size_t i = 0; i < seen.nr; i++) {
		strbuf_addstr(out, i ? ", " : "");
		names_escape(out, seen.v[i], strlen(seen.v[i]));
	}
	strvec_clear(&seen);
	return tcg;
}

/* s, "-" when NULL or empty, escaped for the terminal into out. */
static void esc_or_dash(struct strbuf *out, const char *s)
{
	if (s && *s)
		names_escape(out, s, strlen(s));
	else
		strbuf_addch(out, '-');
}

void render_boots_show(const struct boot_data *boots, size_t nr,
		       struct strbuf *out)
{
	size_t tcg = 0;

	for (size_t i = 0; i < nr; i++)
		tcg += boots[i].accel && !strcmp(boots[i].accel, "tcg");
	if (tcg)
		strbuf_addf(
			out,
			"  accel:     tcg in %zu of %zu boot%s: an emulated "
			"CPU, its timings are not the machine's\n",
			tcg, nr, plural(nr));
	for (size_t i = 0; i < nr; i++) {
		const struct boot_data *b = &boots[i];

		strbuf_addf(out, "  %s %" PRId64 " kernel ",
			    i ? "          " : "boots:    ", b->number);
		esc_or_dash(out, b->kernel);
		strbuf_addstr(out, ", accel ");
		esc_or_dash(out, b->accel);
		if (b->failed) {
			strbuf_addstr(out, ", failed: ");
			names_escape(out, b->failed, strcspn(b->failed, "\n"));
			strbuf_addch(out, '\n');
			continue;
		}
		if (b->boot_s >= 0)
			strbuf_addf(out, ", up in %.2f s", b->boot_s);
		else
			strbuf_addstr(out, ", no answer");
		strbuf_addstr(out, ", guest ");
		esc_or_dash(out, b->guest_release);
		strbuf_addch(out, '\n');
	}
}
