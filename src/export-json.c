/* export-json: export and compare documents written through cJSON. */
#include "json.h"

#include <math.h>

#include "compare-provenance.h"
#include "compare.h"
#include "export.h"
#include "json-write.h"
#include "machine.h"
#include "mmcmp-version.h"
#include "run-data.h"
#include "stats.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"

struct json_export {
	struct cJSON *root;
	struct cJSON *runs;
};

struct json_export *json_export_new(void)
{
	struct json_export *je = xcalloc(1, sizeof(*je));

	je->root = json_write_object();
	json_write_add(je->root, "format", json_write_str(JSON_EXPORT_FORMAT));
	json_write_add(je->root, "version",
		       json_write_int(JSON_EXPORT_VERSION));
	json_write_add(je->root, "generator",
		       json_write_str("mmcmp " MMCMP_VERSION));
	je->runs = json_write_add(je->root, "runs", json_write_array());
	return je;
}

void json_export_free(struct json_export *je)
{
	if (!je)
		return;
	json_write_free(je->root);
	free(je);
}

static struct cJSON *machine_object(const struct machine_info *m)
{
	struct cJSON *o = json_write_object();

	for (size_t i = 0; i < machine_fields_nr; i++) {
		const struct machine_field *f = &machine_fields[i];

		json_write_add(
			o, f->name,
			f->kind == MACHINE_INT
				? json_write_int(machine_field_int(f, m))
				: json_write_str(machine_field_str(f, m)));
	}
	return o;
}

/* The summary of n measured samples x (hyperfine's names where it has them). */
static struct cJSON *summary_object(const double *x, size_t n)
{
	struct cJSON *o = json_write_object();
	double mean = stats_amean(x, n), sd = stats_stddev(x, n);
	double min = NAN, max = NAN;

	for (size_t i = 0; i < n; i++) {
		if (!i || x[i] < min)
			min = x[i];
		if (!i || x[i] > max)
			max = x[i];
	}
	json_write_add(o, "n", json_write_int((int64_t)n));
	json_write_add(o, "mean", json_write_num(mean));
	json_write_add(o, "stddev", json_write_num(sd));
	json_write_add(o, "median", json_write_num(stats_median(x, n)));
	json_write_add(o, "min", json_write_num(min));
	json_write_add(o, "max", json_write_num(max));
	json_write_add(o, "hmean", json_write_num(stats_hmean(x, n)));
	json_write_add(o, "gmean", json_write_num(stats_gmean(x, n)));
	json_write_add(o, "cv",
		       json_write_num(mean != 0.0 ? sd * 100.0 / mean : NAN));
	return o;
}

/* The operations of rf with the summaries of their measured samples. */
static struct cJSON *operations_array(const struct run_full *rf)
{
	struct cJSON *arr = json_write_array();
	size_t *first = xcalloc(rf->ops_nr + 1, sizeof(*first));
	size_t *nr = xcalloc(rf->ops_nr + 1, sizeof(*nr));
	double *v = xcalloc(rf->samples_nr + 1, sizeof(*v));

	/* Gather each operation's measured samples, in stored order. */
	for (size_t i = 0; i < rf->iters_nr; i++) {
		const struct iteration_data *it = &rf->iters[i];

		for (size_t k = 0; !it->warmup && k < it->samples_nr; k++)
			nr[rf->samples[it->samples_first + k].op]++;
	}
	for (size_t o = 0, at = 0; o < rf->ops_nr; o++) {
		first[o] = at;
		at += nr[o];
		nr[o] = 0;
	}
	for (size_t i = 0; i < rf->iters_nr; i++) {
		const struct iteration_data *it = &rf->iters[i];

		for (size_t k = 0; !it->warmup && k < it->samples_nr; k++) {
			const struct sample_data *s =
				&rf->samples[it->samples_first + k];

			v[first[s->op] + nr[s->op]++] = s->value;
		}
	}
	for (size_t o = 0; o < rf->ops_nr; o++) {
		const struct op_samples *op = &rf->ops[o];
		struct cJSON *obj = json_write_push(arr, json_write_object());

		json_write_add(obj, "benchmark", json_write_str(op->benchmark));
		json_write_add(obj, "name", json_write_str(op->name));
		json_write_add(obj, "unit", json_write_str(op->unit));
		json_write_add(
			obj, "better",
			json_write_str(op->higher_better ? "higher" : "lower"));
		json_write_add(obj, "decimals", json_write_int(op->decimals));
		json_write_add(obj, "summary",
			       summary_object(v + first[o], nr[o]));
	}
	free(first);
	free(nr);
	free(v);
	return arr;
}

/*
 * The samples of it: one {"operation", "values"} group per run of
 * consecutive samples of one operation, so the order is kept exactly
 * and a million values cost a million numbers, not objects.
 */
static struct cJSON *samples_array(const struct run_full *rf,
				   const struct iteration_data *it)
{
	/* No samples at all: rf->samples is NULL, and NULL + 0 is undefined. */
	const struct sample_data *s =
		it->samples_nr ? rf->samples + it->samples_first : NULL;
	struct cJSON *arr = json_write_array();
	struct strbuf values = STRBUF_INIT;

	for (size_t k = 0; k < it->samples_nr;) {
		struct cJSON *group = json_write_push(arr, json_write_object());
		size_t op = s[k].op;

		strbuf_reset(&values);
		strbuf_addch(&values, '[');
		for (size_t j = k; k < it->samples_nr && s[k].op == op; k++) {
			if (k != j)
				strbuf_addstr(&values, ", ");
			strbuf_add_double(&values, s[k].value);
		}
		strbuf_addch(&values, ']');
		json_write_add(group, "operation", json_write_int((int64_t)op));
		json_write_add(group, "values", json_write_raw(values.buf));
	}
	strbuf_release(&values);
	return arr;
}

/*
 * The named values of mc as one object on one line, {"pgfault":12, ...}:
 * a monitor record holds hundreds of them, which would otherwise take a
 * line each.
 */
static struct cJSON *counts_object(const struct monitor_counts *mc)
{
	struct cJSON *o = json_write_object(), *raw;
	char *text;

	for (size_t i = 0; i < mc->nr; i++)
		json_write_add_named(o, mc->v[i].name,
				     json_write_int(mc->v[i].value));
	text = json_write_compact(o);
	raw = json_write_raw(text);
	free(text);
	json_write_free(o);
	return raw;
}

/* A figure of a monitor record: the number, or null for NaN. */
static struct cJSON *figure(double v)
{
	return isnan(v) ? json_write_null() : json_write_num(v);
}

/* The monitor record m, or null. */
static struct cJSON *monitor_object(const struct iteration_monitor *m)
{
	struct cJSON *o, *samples;

	if (!m)
		return json_write_null();
	o = json_write_object();
	json_write_add(o, "interval_s", json_write_num(m->interval_s));
	json_write_add(o, "vmstat", counts_object(&m->vmstat));
	json_write_add(o, "cpu", counts_object(&m->cpu));
	json_write_add(o, "meminfo_start", counts_object(&m->meminfo_start));
	json_write_add(o, "meminfo_end", counts_object(&m->meminfo_end));
	json_write_add(o, "other_cpu", figure(m->other_cpu));
	json_write_add(o, "loadavg_start", figure(m->loadavg_start));
	json_write_add(o, "loadavg_end", figure(m->loadavg_end));
	json_write_add(o, "cgroup",
		       m->has_cgroup ? counts_object(&m->cgroup)
				     : json_write_null());
	json_write_add(o, "cgroup_start",
		       m->has_cgroup ? counts_object(&m->cgroup_start)
				     : json_write_null());
	json_write_add(o, "cgroup_end",
		       m->has_cgroup ? counts_object(&m->cgroup_end)
				     : json_write_null());
	samples = json_write_add(o, "samples", json_write_array());
	for (size_t i = 0; i < m->samples_nr; i++) {
		const struct iteration_monitor_sample *ms = &m->samples[i];
		struct cJSON *so =
			json_write_push(samples, json_write_object());

		json_write_add(so, "t_s", json_write_num(ms->t_s));
		json_write_add(so, "vmstat", counts_object(&ms->vmstat));
		json_write_add(so, "cpu", counts_object(&ms->cpu));
		json_write_add(so, "meminfo", counts_object(&ms->meminfo));
	}
	return o;
}

static struct cJSON *iterations_array(const struct run_full *rf)
{
	struct cJSON *arr = json_write_array();

	for (size_t i = 0; i < rf->iters_nr; i++) {
		const struct iteration_data *it = &rf->iters[i];
		struct cJSON *o = json_write_push(arr, json_write_object());

		json_write_add(o, "benchmark", json_write_str(it->benchmark));
		json_write_add(o, "job", json_write_str(it->job));
		json_write_add(o, "build", json_write_str(it->build));
		json_write_add(o, "index", json_write_int(it->index));
		json_write_add(o, "warmup", json_write_bool(it->warmup));
		json_write_add(o, "status", json_write_str(it->status));
		json_write_add(o, "exit_code", json_write_int(it->exit_code));
		json_write_add(o, "signal", json_write_int(it->term_signal));
		json_write_add(o, "started_at", json_write_str(it->started_at));
		json_write_add(o, "elapsed_s", json_write_num(it->elapsed_s));
		json_write_add(o, "user_s", json_write_num(it->user_s));
		json_write_add(o, "sys_s", json_write_num(it->sys_s));
		json_write_add(o, "maxrss_kb", json_write_int(it->maxrss_kb));
		json_write_add(o, "stderr_tail",
			       json_write_str(it->stderr_tail));
		json_write_add(o, "boot",
			       it->boot ? json_write_int(it->boot)
					: json_write_null());
		json_write_add(o, "samples", samples_array(rf, it));
		json_write_add(o, "monitor", monitor_object(it->monitor));
	}
	return arr;
}

/* The boots of a run with kernels (version 3); empty on the host. */
static struct cJSON *boots_array(const struct run_full *rf)
{
	struct cJSON *arr = json_write_array();

	for (size_t i = 0; i < rf->boots_nr; i++) {
		const struct boot_data *b = &rf->boots[i];
		struct cJSON *o = json_write_push(arr, json_write_object());

		json_write_add(o, "number", json_write_int(b->number));
		json_write_add(o, "kernel", json_write_str(b->kernel));
		json_write_add(o, "image", json_write_str(b->image));
		json_write_add(o, "image_sha256",
			       json_write_str(b->image_sha256));
		json_write_add(o, "image_release",
			       json_write_str(b->image_release));
		json_write_add(o, "append", json_write_str(b->append));
		json_write_add(o, "accel", json_write_str(b->accel));
		json_write_add(o, "cpus", json_write_int(b->cpus));
		json_write_add(o, "memory_mb", json_write_int(b->memory_mb));
		json_write_add(o, "qemu_version",
			       json_write_str(b->qemu_version));
		json_write_add(o, "qemu_cmdline",
			       json_write_str(b->qemu_cmdline));
		json_write_add(o, "boot_s",
			       b->boot_s >= 0 ? json_write_num(b->boot_s)
					      : json_write_null());
		json_write_add(o, "pinning", json_write_str(b->pinning));
		json_write_add(o, "guest_release",
			       json_write_str(b->guest_release));
		json_write_add(o, "guest_cmdline",
			       json_write_str(b->guest_cmdline));
		json_write_add(o, "guest_facts",
			       json_write_str(b->guest_facts));
		json_write_add(o, "failed", json_write_str(b->failed));
	}
	return arr;
}

/* The kernel settings the run wrote (version 4), in writing order. */
static struct cJSON *settings_array(const struct run_full *rf)
{
	struct cJSON *arr = json_write_array();

	for (size_t i = 0; i < rf->settings_nr; i++) {
		const struct setting_data *sd = &rf->settings[i];
		struct cJSON *o = json_write_push(arr, json_write_object());

		json_write_add(o, "path", json_write_str(sd->path));
		json_write_add(o, "old_value", json_write_str(sd->old_value));
		json_write_add(o, "new_value", json_write_str(sd->new_value));
	}
	return arr;
}

void json_export_add_run(struct json_export *je, const struct run_full *rf)
{
	const struct run_info *ri = &rf->info;
	struct cJSON *run = json_write_push(je->runs, json_write_object());
	struct cJSON *config;

	json_write_add(run, "uuid", json_write_str(ri->uuid));
	json_write_add(run, "label", json_write_str(ri->label));
	json_write_add(run, "status", json_write_str(ri->status));
	json_write_add(run, "started_at", json_write_str(ri->started_at));
	json_write_add(run, "ended_at", json_write_str(ri->ended_at));
	json_write_add(run, "mmcmp_version", json_write_str(ri->mmcmp_version));
	json_write_add(run, "cgroup", json_write_str(ri->cgroup));
	config = json_write_add(run, "config", json_write_object());
	json_write_add(config, "name", json_write_str(ri->config_name));
	json_write_add(config, "text", json_write_str(ri->config_text));
	json_write_add(config, "sha256", json_write_str(ri->config_hash));
	json_write_add(run, "setup", json_write_parsed(ri->setup));
	json_write_add(run, "machine", machine_object(&ri->machine));
	json_write_add(run, "boots", boots_array(rf));
	json_write_add(run, "settings", settings_array(rf));
	json_write_add(run, "operations", operations_array(rf));
	json_write_add(run, "iterations", iterations_array(rf));
}

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
	json_write_add(o, "ci_level", json_write_num(1 - res->opts.alpha));
	json_write_add(o, "verdict",
		       json_write_str(stats_verdict_name(side->verdict)));
	json_write_add(o, "mde_pct", json_write_num(side->mde_pct));
	json_write_add(o, "p_adjusted", json_write_num(side->p_adjusted));
	json_write_add(o, "n_base_units",
		       json_write_int((int64_t)op->side[0].units));
	json_write_add(o, "n_other_units",
		       json_write_int((int64_t)side->units));
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

static struct cJSON *compare_object(const struct compare_result *res)
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

void json_export_add_compare(struct json_export *je,
			     const struct compare_result *res)
{
	json_write_add(je->root, "comparison", compare_object(res));
}

void json_export_finish(struct json_export *je, struct strbuf *out)
{
	json_write_print(je->root, out);
}

void json_render_compare(const struct compare_result *res, struct strbuf *out)
{
	struct cJSON *root = compare_object(res);

	json_write_print(root, out);
	json_write_free(root);
}

static void *json_start(void)
{
	return json_export_new();
}

/* The document keeps only the text of rf, which is released at once. */
static void json_add_run(void *doc, struct run_full *rf)
{
	json_export_add_run(doc, rf);
	run_full_release(rf);
}

static void json_add_compare(void *doc, const struct compare_result *res)
{
	json_export_add_compare(doc, res);
}

static void json_finish(void *doc, struct strbuf *out)
{
	json_export_finish(doc, out);
}

static void json_free(void *doc)
{
	json_export_free(doc);
}

const struct export_format export_json = {
	.name = "json",
	.compare = true,
	.start = json_start,
	.add_run = json_add_run,
	.add_compare = json_add_compare,
	.finish = json_finish,
	.free = json_free,
};
