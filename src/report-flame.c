/* report-flame: the report's differential flame graphs of the profiles. */
#include <string.h>

#include "compare.h"
#include "explain-flame.h"
#include "explain.h"
#include "report-internal.h"
#include "report.h"
#include "store-profile.h"
#include "strbuf.h"
#include "svg.h"

/* Whether an earlier profile of rows than k is of k's job. */
static bool job_seen(const struct profile_rows *rows, size_t k)
{
	for (size_t i = 0; i < k; i++)
		if (!strcmp(rows->v[i].benchmark, rows->v[k].benchmark) &&
		    !strcmp(rows->v[i].job, rows->v[k].job))
			return true;
	return false;
}

/* Whether rows hold a profile of benchmark and job. */
static bool has_job(const struct profile_rows *rows, const char *benchmark,
		    const char *job)
{
	for (size_t i = 0; i < rows->nr; i++)
		if (!strcmp(rows->v[i].benchmark, benchmark) &&
		    !strcmp(rows->v[i].job, job))
			return true;
	return false;
}

/*
 * The flame graph of label li against the base for the job of the
 * base's profile k, or a paragraph saying why there is none; whether a
 * chart was drawn.
 */
static bool flame_graph(const struct report_model *md, size_t li, size_t k,
			struct strbuf *out)
{
	const struct report_label *base = &md->labels[0], *rl = &md->labels[li];
	const struct profile_row *p = &base->profiles.v[k];
	const struct compare_options *co = &md->res->opts;
	struct explain *ex = explain_new(EXPLAIN_BY_PATH);
	struct explain_flame_opts o = {NULL, base->label, rl->label, co->fdr,
				       REPORT_PAGE_PX};
	struct strbuf err = STRBUF_INIT, title = STRBUF_INIT;
	const struct explain_row *rows;
	size_t nr;
	bool drawn = false;

	strbuf_addf(&title, "%s%s%s: ", p->benchmark, *p->job ? " " : "",
		    p->job);
	strbuf_addf(&title, "%s against %s", rl->label, base->label);
	if (explain_add_job(ex, &base->profiles, &rl->profiles, p->benchmark,
			    p->job, &err)) {
		strbuf_addstr(out, "<p>");
		svg_escape(out, title.buf);
		strbuf_addstr(out, ": profiles not read: ");
		svg_escape(out, err.buf);
		strbuf_addstr(out, "</p>\n");
		goto out;
	}
	rows = explain_compute(ex, co->alpha, co->fdr, &nr);
	strbuf_addf(&title, ", %zu and %zu profiles, %zu of %zu rows changed",
		    explain_iterations(ex, false), explain_iterations(ex, true),
		    explain_marked(ex), explain_tested(ex));
	o.title = title.buf;
	strbuf_addstr(out, "<figure>\n");
	explain_flame_svg(ex, rows, nr, &o, out);
	strbuf_addstr(out, "</figure>\n");
	drawn = true;
out:
	explain_free(ex);
	strbuf_release(&err);
	strbuf_release(&title);
	return drawn;
}

size_t report_flame_graphs(const struct report_model *md, struct strbuf *out)
{
	const struct profile_rows *base = &md->labels[0].profiles;
	size_t charts = 0;

	for (size_t li = 1; li < md->nr; li++)
		for (size_t k = 0; k < base->nr; k++)
			if (!job_seen(base, k) &&
			    has_job(&md->labels[li].profiles,
				    base->v[k].benchmark, base->v[k].job))
				charts += flame_graph(md, li, k, out);
	return charts;
}
