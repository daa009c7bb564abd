/* report-page: the report's HTML page around the comparison and charts. */
#include "report.h"

#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "render-provenance.h"
#include "render.h"
#include "report-internal.h"
#include "strbuf.h"
#include "svg.h"
#include "util.h"

/*
 * Of rf's boots: the accelerators in sb, "(emulated CPU)" after tcg,
 * whose timings are not the machine's (NULL without boots), and in
 * *release the first guest release known (NULL: none).
 */
static const char *boots_cells(const struct run_full *rf, struct strbuf *sb,
			       const char **release)
{
	const char **accel = xcalloc(rf->boots_nr + 1, sizeof(*accel));

	*release = NULL;
	for (size_t i = 0; i < rf->boots_nr; i++) {
		accel[i] = rf->boots[i].accel;
		if (!*release && rf->boots[i].guest_release)
			*release = rf->boots[i].guest_release;
	}
	if (render_boots_accel(accel, rf->boots_nr, sb))
		strbuf_addstr(sb, " (emulated CPU)");
	free(accel);
	return sb->len ? sb->buf : NULL;
}

/*
 * One row per pooled run: its id, uuid, start, status, config, host,
 * kernel, and with boots the guest's and the accelerator.
 */
static void runs_table(const struct report_model *md, struct strbuf *out)
{
	strbuf_addstr(out, "<table class=\"prov\">\n<tr><th>label</th>"
			   "<th>run</th><th>uuid</th><th>started</th>"
			   "<th>status</th><th>config</th><th>config sha256"
			   "</th><th>host</th><th>kernel</th><th>guest</th>"
			   "<th>accel</th><th>mmcmp</th></tr>\n");
	for (size_t li = 0; li < md->nr; li++) {
		const struct report_label *rl = &md->labels[li];

		for (size_t r = 0; r < rl->runs_nr; r++) {
			const struct run_info *ri = &rl->runs[r].info;
			struct strbuf accel = STRBUF_INIT;
			const char *release;
			const char *accel_cell =
				boots_cells(&rl->runs[r], &accel, &release);
			const char *cells[] = {
				ri->uuid,
				ri->started_at,
				ri->status,
				ri->config_name,
				ri->config_hash,
				ri->machine.hostname,
				ri->machine.kernel_release,
				release,
				accel_cell,
				ri->mmcmp_version,
			};

			strbuf_addstr(out, "<tr><td>");
			svg_escape(out, rl->label);
			strbuf_addf(out, "</td><td>%lld</td>",
				    (long long)ri->id);
			for (size_t k = 0; k < ARRAY_SIZE(cells); k++) {
				strbuf_addstr(out, "<td>");
				svg_escape(out, cells[k] ? cells[k] : "-");
				strbuf_addstr(out, "</td>");
			}
			strbuf_addstr(out, "</tr>\n");
			strbuf_release(&accel);
		}
	}
	strbuf_addstr(out, "</table>\n");
}

static void section(struct strbuf *out, const char *id, const char *title)
{
	strbuf_addf(out, "<h2 id=\"%s\">%s</h2>\n", id, title);
}

/*
 * The comparison as `compare --format html` prints it: the body of
 * render()'s page, its tables, change rows, footers, notes and warnings,
 * so that whatever compare's page gains appears here too.
 */
static void comparison(const struct report_model *md, struct strbuf *out)
{
	struct render_options ropts = RENDER_OPTIONS_INIT;

	/*
	 * compare's page opens with its provenance block (per label, the
	 * warning block, the notes), so the comparison comes first; the
	 * table of the pooled runs, one row each, follows as the detail.
	 */
	section(out, "comparison", "Comparison");
	render_html_body(md->res, &ropts, out);
	section(out, "runs", "Runs pooled");
	runs_table(md, out);
}

static const char report_css[] =
	"body { font-family: sans-serif; margin: 1em auto; max-width: 1240px;"
	" color: #111; }\n"
	"h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.5em;"
	" border-bottom: 1px solid #888; }\n"
	"table.resultsTable { border-collapse: collapse; }\n"
	"table.resultsTable td, table.resultsTable th { font-family: monospace;"
	" white-space: pre; padding: 0; }\n"
	"p.footer { font-family: monospace; }\n"
	"div.warning { border: 1px solid #FFA0A0; padding: 0 1em; }\n"
	"table.prov { border-collapse: collapse; font-size: 0.85em; }\n"
	"table.prov td, table.prov th { border: 1px solid #bbb;"
	" padding: 2px 6px; text-align: left; }\n"
	"div.grid { display: flex; flex-wrap: wrap; gap: 8px; }\n"
	"figure { margin: 0; }\n"
	"svg.chart { background: #fff; font-size: 12px; }\n"
	"svg.chart .ctitle { font-size: 13px; font-weight: bold; }\n"
	"svg.chart .frame { fill: none; stroke: #444; }\n"
	"svg.chart .grid { stroke: #ddd; }\n"
	"svg.chart .tick, svg.chart .rowlabel { fill: #222; font-size: 11px; }\n"
	"svg.chart .axis { fill: #111; }\n"
	"svg.chart .series { stroke-width: 2; }\n"
	"svg.chart .mark { stroke-width: 1.4; }\n"
	"svg.chart .zero { stroke: #000; stroke-width: 1; }\n"
	"svg.chart .na { fill: #666; font-size: 11px; font-style: italic; }\n"
	"svg.chart .margin { fill: #bbb; fill-opacity: 0.35; }\n"
	"svg.chart .legendbox { fill: #fff; fill-opacity: 0.9; stroke: #999; }\n";

int report_render(const struct report_label *labels, size_t nr,
		  const struct report_options *opts, struct strbuf *out,
		  struct strbuf *err)
{
	struct report_model md = {
		.labels = labels,
		.nr = nr,
		.opts = opts,
		.groups = STRVEC_INIT,
	};
	struct compare_result res = COMPARE_RESULT_INIT;
	struct run_data *runs = NULL;
	struct strbuf body = STRBUF_INIT;
	size_t monitors;
	int ret = -1;

	if (nr < 2) {
		strbuf_addstr(err, "a report needs a base and another label");
		goto out;
	}
	/* compare_runs() only reads its runs: a shallow copy will do. */
	runs = xcalloc(nr, sizeof(*runs));
	for (size_t i = 0; i < nr; i++)
		runs[i] = labels[i].pooled;
	if (compare_runs(runs, nr, &opts->compare, &res, err))
		goto out;
	md.res = &res;
	report_model_build(&md);
	comparison(&md, &body);
	section(&body, "forest", "Changes");
	strbuf_addf(&body,
		    "<p>Change of each label against the base, positive ="
		    " better, with its %g%% interval and verdict as compare"
		    " gives them (%s, on one value per %s",
		    100 * (1 - res.opts.alpha),
		    compare_test_name(res.opts.test),
		    compare_unit_nth(res.opts.unit));
	if (res.opts.fdr)
		strbuf_addstr(&body, ", BH-adjusted p");
	if (res.opts.margin_pct > 0)
		strbuf_addf(&body, ", margin &#177;%g%%", res.opts.margin_pct);
	strbuf_addstr(&body, ").</p>\n");
	report_forest_plot(&md, &body);
	section(&body, "scaling", "Scaling");
	report_scaling_curves(&md, &body);
	section(&body, "units", "Unit values");
	report_strip_plots(&md, &body);
	section(&body, "runorder", "Run order");
	report_run_order_plots(&md, &body);
	section(&body, "monitors", "Monitors");
	monitors = report_monitor_plots(&md, &body);
	monitors += report_timeseries_plots(&md, &body);
	if (!monitors)
		strbuf_addstr(&body, "<p>No monitor data.</p>\n");
	section(&body, "profiles", "Profiles");
	strbuf_addf(&body,
		    "<p>Where CPU time moved: per profiled job, a differential"
		    " flame graph of each label's profiles (mmcmp run"
		    " --profile) against the base's, by call path as mmcmp"
		    " explain --by path gives them. A frame is as wide as the"
		    " mean of its share of the samples on the two sides; red"
		    " where its share rose, blue where it fell, when the"
		    " change is significant (Welch's interval over the"
		    " profiles%s at %g), grey otherwise. Each frame's tooltip"
		    " gives the shares, the change and its interval.</p>\n",
		    res.opts.fdr ? ", Benjamini-Hochberg over the paths" : "",
		    res.opts.alpha);
	if (!report_flame_graphs(&md, &body))
		strbuf_addstr(&body, "<p>No profiled job in common with the"
				     " base.</p>\n");

	strbuf_addstr(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
			   "<meta charset=\"utf-8\">\n"
			   "<meta name=\"viewport\" content=\"width=1280\">\n"
			   "<title>mmcmp report: ");
	for (size_t i = 0; i < nr; i++) {
		if (i)
			strbuf_addstr(out, " vs ");
		svg_escape(out, labels[i].label);
	}
	strbuf_addf(out,
		    "</title>\n<style>\n%s</style>\n</head>\n<body>\n"
		    "<h1>mmcmp report: ",
		    report_css);
	for (size_t i = 0; i < nr; i++) {
		if (i)
			strbuf_addstr(out, " vs ");
		svg_escape(out, labels[i].label);
	}
	strbuf_addstr(out, "</h1>\n");
	strbuf_add(out, body.buf, body.len);
	strbuf_addstr(out, "</body>\n</html>\n");
	ret = 0;
out:
	report_model_release(&md);
	compare_result_release(&res);
	free(runs);
	strbuf_release(&body);
	return ret;
}
