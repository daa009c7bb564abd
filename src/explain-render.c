/* explain-render: mmcmp explain's tables, text and JSON. */
#include "explain-render.h"

#include <math.h>
#include <string.h>

#include "explain.h"
#include "json-write.h"
#include "names.h"
#include "strbuf.h"

/* " q=0.0123", " q<0.0001", or " q=-" untested ("p" without BH). */
static void add_q(struct strbuf *out, const struct explain_row *r, bool fdr)
{
	char c = fdr ? 'q' : 'p';

	if (!r->tested)
		strbuf_addf(out, " %c=-     ", c);
	else if (r->q < 0.0001)
		strbuf_addf(out, " %c<0.0001", c);
	else
		strbuf_addf(out, " %c=%.4f", c, r->q);
}

static void text_row(struct strbuf *out, const struct explain_row *r, bool fdr)
{
	strbuf_addf(out, "  %-5s %7.2f%% %7.2f%% %+8.2fpp",
		    r->self ? "self" : "total", r->base_pct, r->other_pct,
		    r->diff_pp);
	if (r->tested)
		strbuf_addf(out, " [%+7.2f, %+7.2f]", r->ci_low, r->ci_high);
	else
		strbuf_addf(out, " %18s", "");
	add_q(out, r, fdr);
	strbuf_addf(out, " %s ", r->marked ? "*" : " ");
	names_escape(out, r->symbol, strlen(r->symbol));
	strbuf_addch(out, '\n');
}

static void text_table(const struct explain_table *t,
		       const struct explain_opts *o, struct strbuf *out)
{
	size_t shown = 0, tested = explain_tested(t->ex);

	names_escape(out, t->benchmark, strlen(t->benchmark));
	if (*t->job) {
		strbuf_addch(out, ' ');
		names_escape(out, t->job, strlen(t->job));
	}
	strbuf_addf(out, ": %zu iterations, %llu samples against %zu, %llu\n",
		    explain_iterations(t->ex, false),
		    (unsigned long long)explain_samples(t->ex, false),
		    explain_iterations(t->ex, true),
		    (unsigned long long)explain_samples(t->ex, true));
	strbuf_addf(out, "  %-5s %8s %8s %10s %18s %8s   %s\n", "kind", "base",
		    "other", "change", "interval", o->fdr ? "q" : "p",
		    explain_by_name(o->by));
	for (size_t i = 0; i < t->rows_nr; i++) {
		if (!t->rows[i].tested || (o->limit && shown == o->limit))
			break;
		text_row(out, &t->rows[i], o->fdr);
		shown++;
	}
	if (shown < tested)
		strbuf_addf(out,
			    "  (%zu more tested rows; --limit 0 shows them)\n",
			    tested - shown);
	if (!tested)
		strbuf_addf(out,
			    "  no row tested: a symbol needs %.0f%% of the "
			    "samples on a side and 2 profiles on each\n",
			    EXPLAIN_MIN_PCT);
	else if (!explain_marked(t->ex))
		strbuf_addf(out,
			    "  no %s's share changed: none of %zu rows "
			    "marked at %s %g\n",
			    explain_by_name(o->by), tested,
			    o->fdr ? "false discovery rate" : "alpha",
			    o->alpha);
	else
		strbuf_addf(out, "  %zu of %zu rows marked (*) at %s %g\n",
			    explain_marked(t->ex), tested,
			    o->fdr ? "false discovery rate" : "alpha",
			    o->alpha);
}

void explain_render_text(const struct explain_table *t, size_t nr,
			 const struct explain_opts *o, struct strbuf *out)
{
	strbuf_addstr(out, "profile shares of '");
	names_escape(out, o->base, strlen(o->base));
	strbuf_addstr(out, "' (base) and '");
	names_escape(out, o->other, strlen(o->other));
	if (o->by == EXPLAIN_BY_PATH)
		strbuf_addstr(out,
			      "' (other), percent of samples by call path; "
			      "self: the stack is the path, total: it "
			      "starts with it\n");
	else
		strbuf_addstr(out, "' (other), percent of samples; self: the "
				   "symbol is the leaf, total: anywhere on the "
				   "stack\n");
	for (size_t i = 0; i < nr; i++) {
		strbuf_addch(out, '\n');
		text_table(&t[i], o, out);
	}
}

/* The leaf frame of call path path. */
static const char *leaf(const char *path)
{
	const char *semi = strrchr(path, ';');

	return semi ? semi + 1 : path;
}

static struct cJSON *json_row(const struct explain_row *r, enum explain_by by)
{
	struct cJSON *o = json_write_object();

	if (by == EXPLAIN_BY_PATH) {
		json_write_add(o, "path", json_write_str(r->symbol));
		json_write_add(o, "symbol", json_write_str(leaf(r->symbol)));
	} else {
		json_write_add(o, "symbol", json_write_str(r->symbol));
	}
	json_write_add(o, "kind", json_write_str(r->self ? "self" : "total"));
	json_write_add(o, "base_pct", json_write_num(r->base_pct));
	json_write_add(o, "other_pct", json_write_num(r->other_pct));
	json_write_add(o, "change_pp", json_write_num(r->diff_pp));
	json_write_add(o, "ci_low_pp", json_write_num(r->ci_low));
	json_write_add(o, "ci_high_pp", json_write_num(r->ci_high));
	json_write_add(o, "ci_level",
		       r->tested ? json_write_num(r->ci_level)
				 : json_write_null());
	json_write_add(o, "p_value", json_write_num(r->p));
	json_write_add(o, "p_adjusted", json_write_num(r->q));
	json_write_add(o, "tested", json_write_bool(r->tested));
	json_write_add(o, "significant", json_write_bool(r->marked));
	return o;
}

void explain_render_json(const struct explain_table *t, size_t nr,
			 const struct explain_opts *o, struct strbuf *out)
{
	struct cJSON *root = json_write_object(), *tables;

	json_write_add(root, "format", json_write_str("mmcmp-explain"));
	json_write_add(root, "version", json_write_int(1));
	json_write_add(root, "base", json_write_str(o->base));
	json_write_add(root, "other", json_write_str(o->other));
	json_write_add(root, "alpha", json_write_num(o->alpha));
	json_write_add(root, "fdr", json_write_bool(o->fdr));
	json_write_add(root, "by", json_write_str(explain_by_name(o->by)));
	json_write_add(root, "min_share_pct", json_write_num(EXPLAIN_MIN_PCT));
	tables = json_write_add(root, "profiles", json_write_array());
	for (size_t i = 0; i < nr; i++) {
		struct cJSON *to = json_write_push(tables, json_write_object());
		struct cJSON *rows;

		json_write_add(to, "benchmark", json_write_str(t[i].benchmark));
		json_write_add(to, "job", json_write_str(t[i].job));
		json_write_add(to, "base_profiles",
			       json_write_int((int64_t)explain_iterations(
				       t[i].ex, false)));
		json_write_add(to, "other_profiles",
			       json_write_int((int64_t)explain_iterations(
				       t[i].ex, true)));
		json_write_add(to, "base_samples",
			       json_write_int((int64_t)explain_samples(t[i].ex,
								       false)));
		json_write_add(to, "other_samples",
			       json_write_int((int64_t)explain_samples(t[i].ex,
								       true)));
		json_write_add(
			to, "tested",
			json_write_int((int64_t)explain_tested(t[i].ex)));
		json_write_add(
			to, "marked",
			json_write_int((int64_t)explain_marked(t[i].ex)));
		rows = json_write_add(to, "rows", json_write_array());
		for (size_t k = 0; k < t[i].rows_nr; k++)
			json_write_push(rows, json_row(&t[i].rows[k], o->by));
	}
	json_write_print(root, out);
	json_write_free(root);
}
