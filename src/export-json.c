/* export-json: export and compare documents written through cJSON. */
#include "json.h"

#include <math.h>

#include "compare-provenance.h"
#include "compare.h"
#include "export.h"
#include "json-write.h"
#include "machine.h"
#include "mmcmp-version.h"
#include "render-json.h"
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

/* The perf counters of m (version 5; scope 7), or null without them. */
static struct cJSON *perf_object(const struct iteration_monitor *m)
{
	struct cJSON *o;

	if (!m->has_perf)
		return json_write_null();
	o = json_write_object();
	json_write_add(o, "counters", counts_object(&m->perf));
	json_write_add(o, "absent", json_write_str(m->perf_absent));
	json_write_add(
		o, "scope",
		json_write_str(m->perf_scope ? m->perf_scope : "process"));
	return o;
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
	json_write_add(o, "vmstat_end",
		       m->has_vmstat_end ? counts_object(&m->vmstat_end)
					 : json_write_null());
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
	json_write_add(o, "perf", perf_object(m));
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

void json_export_add_compare(struct json_export *je,
			     const struct compare_result *res)
{
	json_write_add(je->root, "comparison", render_json_object(res));
}

void json_export_finish(struct json_export *je, struct strbuf *out)
{
	json_write_print(je->root, out);
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
