/* render-json: the comparison as an "mmcmp-compare" JSON document. */
#include "render-json.h"

#include <math.h>

#include "compare-provenance.h"
#include "compare.h"
#include "json-write.h"
#include "json.h"
#include "render-internal.h"
#include "stats.h"
#include "strbuf.h"
#include "strvec.h"

/*
 * The change of a compared label's mean cell (version 2): Fieller's
 * interval (null bounds when unbounded or untested), the verdict, the
 * power and the units per side.
 */
static void change_members(const struct compare_result *res, struct cJSON *o,
			   const struct compare_op *op,
			   const struct compare_side *side)
{
	bool bounded = side->change.kind == STATS_CI_BOUNDED;

	json_write_add(o, "change_pct",
		       json_write_num(side->change.change_pct));
	json_write_add(o, "ci_low_pct",
		       json_write_num(bounded ? side->change.low_pct : NAN));
	json_write_add(o, "ci_high_pct",
		       json_write_num(bounded ? side->change.high_pct : NAN));
	json_write_add(o, "ci_level", json_write_num(side->ci_level));
	/* The scale of the test and the change: log or plain means. */
	json_write_add(o, "scale",
		       side->untested != COMPARE_TESTED ? json_write_null()
		       : side->welch.log_scale		? json_write_str("log")
					       : json_write_str("plain"));
	json_write_add(o, "verdict",
		       json_write_str(stats_verdict_name(side->verdict)));
	json_write_add(o, "mde_pct", json_write_num(side->mde_pct));
	json_write_add(o, "p_adjusted", json_write_num(side->p_adjusted));
	json_write_add(o, "n_base_units",
		       json_write_int((int64_t)op->side[0].units));
	json_write_add(o, "n_other_units",
		       json_write_int((int64_t)side->units));
	json_write_add(o, "between_share", json_write_num(side->between_share));
	if (side->untested == COMPARE_TESTED) {
		json_write_add(o, "untested_reason", json_write_null());
	} else {
		struct strbuf why = STRBUF_INIT;

		compare_untested_text(res, side->untested, &why);
		json_write_add(o, "untested_reason", json_write_str(why.buf));
		strbuf_release(&why);
	}
}

/* One cell of a comparison: the shape export and compare share. */
static struct cJSON *cell_object(const struct compare_result *res,
				 const struct compare_bench *b, size_t row,
				 size_t run)
{
	const struct compare_row *r = &b->rows[row];
	const struct compare_op *op = &b->ops[r->op];
	const struct compare_cell *c = compare_cell(res, b, row, run);
	const struct compare_side *side = &op->side[run];
	bool mean = r->stat == COMPARE_STAT_MEAN;
	struct cJSON *o = json_write_object();
	double pct = NAN;

	/* compare.h keeps 0 where there is no value; here that is null. */
	if (!isnan(c->value) && c->pct_state == STATS_PCT_OK)
		pct = run ? c->pct : 0.0;
	json_write_add(o, "stat", json_write_str(r->label));
	json_write_add(o, "label", json_write_str(res->labels[run]));
	json_write_add(o, "value", json_write_num(c->value));
	json_write_add(o, "percentage", json_write_num(pct));
	json_write_add(o, "p_value",
		       json_write_num(mean && run ? side->p : NAN));
	json_write_add(o, "significant", json_write_bool(c->significant));
	json_write_add(o, "n_base", json_write_int((int64_t)op->side[0].sum.n));
	json_write_add(o, "n_other", json_write_int((int64_t)side->sum.n));
	if (mean && run && res->opts.test != COMPARE_TEST_MMTESTS)
		change_members(res, o, op, side);
	return o;
}

/* Every string of sv as a JSON array. */
static struct cJSON *strings_array(const struct strvec *sv)
{
	struct cJSON *a = json_write_array();

	for (size_t i = 0; i < sv->nr; i++)
		json_write_push(a, json_write_str(sv->v[i]));
	return a;
}

static struct cJSON *bench_object(const struct compare_result *res,
				  const struct compare_bench *b)
{
	struct cJSON *o = json_write_object(), *ops, *durations, *notes;
	struct strvec untested = STRVEC_INIT;

	json_write_add(o, "name", json_write_str(b->name));
	ops = json_write_add(o, "operations", json_write_array());
	for (size_t i = 0; i < b->ops_nr; i++) {
		const struct compare_op *op = &b->ops[i];
		struct cJSON *oo = json_write_push(ops, json_write_object()),
			     *cells;

		json_write_add(oo, "name", json_write_str(op->name));
		json_write_add(oo, "unit", json_write_str(op->unit));
		json_write_add(
			oo, "better",
			json_write_str(op->higher_better ? "higher" : "lower"));
		json_write_add(oo, "decimals", json_write_int(op->decimals));
		cells = json_write_add(oo, "cells", json_write_array());
		/* Rows are stat-major: this op's are every ops_nr-th. */
		for (size_t r = 0; r < b->rows_nr; r++) {
			if (b->rows[r].op != i)
				continue;
			for (size_t run = 0; run < res->runs_nr; run++)
				json_write_push(cells,
						cell_object(res, b, r, run));
		}
	}
	durations = json_write_add(o, "durations", json_write_array());
	for (size_t run = 0; b->has_durations && run < res->runs_nr; run++) {
		const struct compare_duration *d = &b->durations[run];
		struct cJSON *dd =
			json_write_push(durations, json_write_object());

		json_write_add(dd, "label", json_write_str(res->labels[run]));
		json_write_add(dd, "user_s",
			       json_write_num(d->present ? d->user_s : NAN));
		json_write_add(dd, "sys_s",
			       json_write_num(d->present ? d->sys_s : NAN));
		json_write_add(dd, "elapsed_s",
			       json_write_num(d->present ? d->elapsed_s : NAN));
	}
	/* The footer's lines that are not in the cells (compare.h). */
	notes = json_write_add(o, "notes", strings_array(&b->notes));
	if (b->vmstat_note)
		json_write_push(notes, json_write_str(b->vmstat_note));
	json_write_add(o, "warnings", strings_array(&b->warnings));
	compare_untested_lines(res, b, &untested);
	json_write_add(o, "untested", strings_array(&untested));
	strvec_clear(&untested);
	return o;
}

/* The provenance block (compare-provenance.h); null where it has none. */
static struct cJSON *provenance_object(const struct compare_result *res)
{
	const struct compare_provenance *p = res->provenance;
	struct cJSON *o, *labels;

	if (!p || res->opts.test == COMPARE_TEST_MMTESTS)
		return json_write_null();
	o = json_write_object();
	labels = json_write_add(o, "labels", json_write_array());
	for (size_t i = 0; i < p->labels_nr; i++) {
		const struct compare_prov_label *l = &p->labels[i];
		struct cJSON *lo = json_write_push(labels, json_write_object()),
			     *g;

		json_write_add(lo, "label", json_write_str(res->labels[i]));
		json_write_add(lo, "runs", json_write_int((int64_t)l->runs));
		json_write_add(lo, "iterations", json_write_int(l->iterations));
		json_write_add(lo, "samples",
			       json_write_int((int64_t)l->samples));
		json_write_add(lo, "kernel_release",
			       json_write_str(l->kernel_release));
		json_write_add(lo, "hostname", json_write_str(l->host));
		json_write_add(lo, "config_name",
			       json_write_str(l->config_name));
		if (!l->vm) {
			json_write_add(lo, "guest", json_write_null());
			continue;
		}
		g = json_write_add(lo, "guest", json_write_object());
		json_write_add(g, "kernel_release",
			       json_write_str(l->guest_release));
		json_write_add(g, "cmdline", json_write_str(l->guest_cmdline));
		json_write_add(g, "image", json_write_str(l->image));
		json_write_add(g, "image_sha256",
			       json_write_str(l->image_sha256));
		json_write_add(g, "boots", json_write_int((int64_t)l->boots));
	}
	json_write_add(o, "warnings", strings_array(&p->warnings));
	json_write_add(o, "notes", strings_array(&p->notes));
	return o;
}

struct cJSON *render_json_object(const struct compare_result *res)
{
	struct cJSON *o = json_write_object(), *labels, *benches;

	json_write_add(o, "format", json_write_str(JSON_COMPARE_FORMAT));
	json_write_add(o, "version", json_write_int(JSON_COMPARE_VERSION));
	json_write_add(o, "test",
		       json_write_str(compare_test_name(res->opts.test)));
	json_write_add(o, "alpha", json_write_num(res->opts.alpha));
	json_write_add(o, "fdr", json_write_bool(res->opts.fdr));
	json_write_add(o, "unit",
		       json_write_str(compare_unit_nth(res->opts.unit)));
	json_write_add(o, "unit_auto", json_write_bool(res->unit_auto));
	json_write_add(o, "unit_reason", json_write_str(res->unit_why));
	json_write_add(o, "unit_warning", json_write_str(res->unit_warning));
	json_write_add(o, "margin", json_write_num(res->opts.margin_pct));
	json_write_add(o, "fdr_family_size",
		       json_write_int((int64_t)res->family_size[0]));
	labels = json_write_add(o, "labels", json_write_array());
	for (size_t i = 0; i < res->runs_nr; i++)
		json_write_push(labels, json_write_str(res->labels[i]));
	/*
	 * The warning block the text prints: the provenance block's when
	 * there is one, as it covers every machine fact, else compare's.
	 */
	if (res->provenance && res->opts.test != COMPARE_TEST_MMTESTS)
		json_write_add(o, "machine_diffs",
			       strings_array(&res->provenance->warnings));
	else
		json_write_add(o, "machine_diffs",
			       strings_array(&res->machine_diffs));
	json_write_add(o, "provenance", provenance_object(res));
	json_write_add(o, "warnings", strings_array(&res->warnings));
	benches = json_write_add(o, "benchmarks", json_write_array());
	for (size_t i = 0; i < res->bench_nr; i++)
		json_write_push(benches, bench_object(res, &res->bench[i]));
	return o;
}

void render_json(const struct compare_result *res,
		 const struct render_options *opts, struct strbuf *out)
{
	struct cJSON *root = render_json_object(res);

	(void)opts;
	json_write_print(root, out);
	json_write_free(root);
}
