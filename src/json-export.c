/* json-export: export and compare documents written through cJSON. */
#include "json.h"

#include <math.h>

#include <cjson/cJSON.h>

#include "compare-provenance.h"
#include "compare.h"
#include "machine.h"
#include "mmcmp-version.h"
#include "run-data.h"
#include "stats.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"

/* cJSON returns NULL only when malloc() fails: abort as xmalloc() does. */
static cJSON *jcheck(cJSON *node)
{
	if (!node)
		die_oom(0);
	return node;
}

/* Add item to obj under key, a string literal that outlives the tree. */
static cJSON *jadd(cJSON *obj, const char *key, cJSON *item)
{
	if (!cJSON_AddItemToObjectCS(obj, key, jcheck(item)))
		die_oom(0);
	return item;
}

static cJSON *jpush(cJSON *arr, cJSON *item)
{
	if (!cJSON_AddItemToArray(arr, jcheck(item)))
		die_oom(0);
	return item;
}

/* Append s to sb with each byte that is not UTF-8 replaced by U+FFFD. */
static void add_utf8(struct strbuf *sb, const char *s)
{
	while (*s) {
		size_t n = utf8_seq(s);

		if (n) {
			strbuf_add(sb, s, n);
			s += n;
		} else {
			strbuf_addstr(sb, "\xef\xbf\xbd");
			s++;
		}
	}
}

/* A string node of s (NULL: null), bad UTF-8 bytes replaced by U+FFFD. */
static cJSON *jstr(const char *s)
{
	struct strbuf fixed = STRBUF_INIT;
	cJSON *node;

	if (!s)
		return jcheck(cJSON_CreateNull());
	if (utf8_valid(s))
		return jcheck(cJSON_CreateString(s));
	add_utf8(&fixed, s);
	node = jcheck(cJSON_CreateString(fixed.buf));
	strbuf_release(&fixed);
	return node;
}

static cJSON *jint(int64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	return jcheck(cJSON_CreateRaw(buf));
}

/* v exactly (strbuf_add_double()), or null when it is NaN or infinite. */
static cJSON *jnum(double v)
{
	struct strbuf sb = STRBUF_INIT;
	cJSON *node;

	if (!isfinite(v))
		return jcheck(cJSON_CreateNull());
	strbuf_add_double(&sb, v);
	node = jcheck(cJSON_CreateRaw(sb.buf));
	strbuf_release(&sb);
	return node;
}

static cJSON *jbool(bool v)
{
	return jcheck(cJSON_CreateBool(v));
}

/* Print root formatted, then a newline, to out. */
static void jprint(const cJSON *root, struct strbuf *out)
{
	char *text = cJSON_Print(root);

	if (!text)
		die_oom(0);
	strbuf_addstr(out, text);
	strbuf_addch(out, '\n');
	cJSON_free(text);
}

struct json_export {
	cJSON *root;
	cJSON *runs;
};

struct json_export *json_export_new(void)
{
	struct json_export *je = xcalloc(1, sizeof(*je));

	je->root = jcheck(cJSON_CreateObject());
	jadd(je->root, "format", cJSON_CreateString(JSON_EXPORT_FORMAT));
	jadd(je->root, "version", jint(JSON_EXPORT_VERSION));
	jadd(je->root, "generator", cJSON_CreateString("mmcmp " MMCMP_VERSION));
	je->runs = jadd(je->root, "runs", cJSON_CreateArray());
	return je;
}

void json_export_free(struct json_export *je)
{
	if (!je)
		return;
	cJSON_Delete(je->root);
	free(je);
}

static cJSON *machine_object(const struct machine_info *m)
{
	cJSON *o = jcheck(cJSON_CreateObject());

	for (size_t i = 0; i < machine_fields_nr; i++) {
		const struct machine_field *f = &machine_fields[i];

		jadd(o, f->name,
		     f->kind == MACHINE_INT ? jint(machine_field_int(f, m))
					    : jstr(machine_field_str(f, m)));
	}
	return o;
}

/* The summary of n measured samples x (hyperfine's names where it has them). */
static cJSON *summary_object(const double *x, size_t n)
{
	cJSON *o = jcheck(cJSON_CreateObject());
	double mean = stats_amean(x, n), sd = stats_stddev(x, n);
	double min = NAN, max = NAN;

	for (size_t i = 0; i < n; i++) {
		if (!i || x[i] < min)
			min = x[i];
		if (!i || x[i] > max)
			max = x[i];
	}
	jadd(o, "n", jint((int64_t)n));
	jadd(o, "mean", jnum(mean));
	jadd(o, "stddev", jnum(sd));
	jadd(o, "median", jnum(stats_median(x, n)));
	jadd(o, "min", jnum(min));
	jadd(o, "max", jnum(max));
	jadd(o, "hmean", jnum(stats_hmean(x, n)));
	jadd(o, "gmean", jnum(stats_gmean(x, n)));
	jadd(o, "cv", jnum(mean != 0.0 ? sd * 100.0 / mean : NAN));
	return o;
}

/* The operations of rf with the summaries of their measured samples. */
static cJSON *operations_array(const struct run_full *rf)
{
	cJSON *arr = jcheck(cJSON_CreateArray());
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
		cJSON *obj = jpush(arr, cJSON_CreateObject());

		jadd(obj, "benchmark", jstr(op->benchmark));
		jadd(obj, "name", jstr(op->name));
		jadd(obj, "unit", jstr(op->unit));
		jadd(obj, "better",
		     cJSON_CreateString(op->higher_better ? "higher"
							  : "lower"));
		jadd(obj, "decimals", jint(op->decimals));
		jadd(obj, "summary", summary_object(v + first[o], nr[o]));
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
static cJSON *samples_array(const struct run_full *rf,
			    const struct iteration_data *it)
{
	/* No samples at all: rf->samples is NULL, and NULL + 0 is undefined. */
	const struct sample_data *s =
		it->samples_nr ? rf->samples + it->samples_first : NULL;
	cJSON *arr = jcheck(cJSON_CreateArray());
	struct strbuf values = STRBUF_INIT;

	for (size_t k = 0; k < it->samples_nr;) {
		cJSON *group = jpush(arr, cJSON_CreateObject());
		size_t op = s[k].op;

		strbuf_reset(&values);
		strbuf_addch(&values, '[');
		for (size_t j = k; k < it->samples_nr && s[k].op == op; k++) {
			if (k != j)
				strbuf_addstr(&values, ", ");
			strbuf_add_double(&values, s[k].value);
		}
		strbuf_addch(&values, ']');
		jadd(group, "operation", jint((int64_t)op));
		jadd(group, "values", cJSON_CreateRaw(values.buf));
	}
	strbuf_release(&values);
	return arr;
}

/*
 * The named values of mc as one object on one line, {"pgfault":12, ...}:
 * a monitor record holds hundreds of them, which would otherwise take a
 * line each.
 */
static cJSON *counts_object(const struct monitor_counts *mc)
{
	cJSON *o = jcheck(cJSON_CreateObject()), *raw;
	struct strbuf key = STRBUF_INIT;
	char *text;

	for (size_t i = 0; i < mc->nr; i++) {
		const char *name = mc->v[i].name;

		if (!utf8_valid(name)) {
			strbuf_reset(&key);
			add_utf8(&key, name);
			name = key.buf;
		}
		if (!cJSON_AddItemToObject(o, name, jint(mc->v[i].value)))
			die_oom(0);
	}
	text = cJSON_PrintUnformatted(o);
	if (!text)
		die_oom(0);
	raw = jcheck(cJSON_CreateRaw(text));
	cJSON_free(text);
	cJSON_Delete(o);
	strbuf_release(&key);
	return raw;
}

/* A figure of a monitor record: the number, or null for NaN. */
static cJSON *figure(double v)
{
	return isnan(v) ? jcheck(cJSON_CreateNull()) : jnum(v);
}

/* The monitor record m, or null. */
static cJSON *monitor_object(const struct iteration_monitor *m)
{
	cJSON *o, *samples;

	if (!m)
		return jcheck(cJSON_CreateNull());
	o = jcheck(cJSON_CreateObject());
	jadd(o, "interval_s", jnum(m->interval_s));
	jadd(o, "vmstat", counts_object(&m->vmstat));
	jadd(o, "cpu", counts_object(&m->cpu));
	jadd(o, "meminfo_start", counts_object(&m->meminfo_start));
	jadd(o, "meminfo_end", counts_object(&m->meminfo_end));
	jadd(o, "other_cpu", figure(m->other_cpu));
	jadd(o, "loadavg_start", figure(m->loadavg_start));
	jadd(o, "loadavg_end", figure(m->loadavg_end));
	jadd(o, "cgroup",
	     m->has_cgroup ? counts_object(&m->cgroup)
			   : jcheck(cJSON_CreateNull()));
	jadd(o, "cgroup_start",
	     m->has_cgroup ? counts_object(&m->cgroup_start)
			   : jcheck(cJSON_CreateNull()));
	jadd(o, "cgroup_end",
	     m->has_cgroup ? counts_object(&m->cgroup_end)
			   : jcheck(cJSON_CreateNull()));
	samples = jadd(o, "samples", cJSON_CreateArray());
	for (size_t i = 0; i < m->samples_nr; i++) {
		const struct iteration_monitor_sample *ms = &m->samples[i];
		cJSON *so = jpush(samples, cJSON_CreateObject());

		jadd(so, "t_s", jnum(ms->t_s));
		jadd(so, "vmstat", counts_object(&ms->vmstat));
		jadd(so, "cpu", counts_object(&ms->cpu));
		jadd(so, "meminfo", counts_object(&ms->meminfo));
	}
	return o;
}

static cJSON *iterations_array(const struct run_full *rf)
{
	cJSON *arr = jcheck(cJSON_CreateArray());

	for (size_t i = 0; i < rf->iters_nr; i++) {
		const struct iteration_data *it = &rf->iters[i];
		cJSON *o = jpush(arr, cJSON_CreateObject());

		jadd(o, "benchmark", jstr(it->benchmark));
		jadd(o, "job", jstr(it->job));
		jadd(o, "build", jstr(it->build));
		jadd(o, "index", jint(it->index));
		jadd(o, "warmup", jbool(it->warmup));
		jadd(o, "status", jstr(it->status));
		jadd(o, "exit_code", jint(it->exit_code));
		jadd(o, "signal", jint(it->term_signal));
		jadd(o, "started_at", jstr(it->started_at));
		jadd(o, "elapsed_s", jnum(it->elapsed_s));
		jadd(o, "user_s", jnum(it->user_s));
		jadd(o, "sys_s", jnum(it->sys_s));
		jadd(o, "maxrss_kb", jint(it->maxrss_kb));
		jadd(o, "stderr_tail", jstr(it->stderr_tail));
		jadd(o, "boot",
		     it->boot ? jint(it->boot) : jcheck(cJSON_CreateNull()));
		jadd(o, "samples", samples_array(rf, it));
		jadd(o, "monitor", monitor_object(it->monitor));
	}
	return arr;
}

/* The "until" member of a setup: null without the rule. */
static cJSON *until_tree(const struct run_setup *setup)
{
	cJSON *o, *jobs;

	if (!(setup->until_pct > 0))
		return jcheck(cJSON_CreateNull());
	o = jcheck(cJSON_CreateObject());
	jadd(o, "pct", jnum(setup->until_pct));
	jobs = jadd(o, "jobs", cJSON_CreateArray());
	for (size_t i = 0; i < setup->stops_nr; i++) {
		const struct setup_stop *st = &setup->stops[i];
		cJSON *jo = jpush(jobs, cJSON_CreateObject());

		jadd(jo, "workload", jstr(st->workload));
		jadd(jo, "job", jstr(st->job));
		jadd(jo, "iterations", jint(st->iterations));
		jadd(jo, "stopped", jstr(st->stopped));
	}
	return o;
}

static cJSON *setup_tree(const struct run_setup *setup)
{
	cJSON *o = jcheck(cJSON_CreateObject()), *params;

	jadd(o, "iterations", jint(setup->iterations));
	jadd(o, "warmup", jint(setup->warmup));
	jadd(o, "until", until_tree(setup));
	params = jadd(o, "params", cJSON_CreateArray());
	for (size_t i = 0; i < setup->params_nr; i++) {
		const struct setup_param *p = &setup->params[i];
		cJSON *po = jpush(params, cJSON_CreateObject()), *values;

		jadd(po, "workload", jstr(p->workload));
		jadd(po, "name", jstr(p->name));
		values = jadd(po, "values", cJSON_CreateArray());
		for (size_t k = 0; k < p->values_nr; k++)
			jpush(values, jstr(p->values[k]));
	}
	return o;
}

char *json_setup_text(const struct run_setup *setup)
{
	cJSON *o = setup_tree(setup);
	char *text = cJSON_PrintUnformatted(o), *copy;

	if (!text)
		die_oom(0);
	copy = xstrdup(text);
	cJSON_free(text);
	cJSON_Delete(o);
	return copy;
}

/*
 * The stored setup text as a member: what the database holds (which
 * json_setup_text() wrote, and SQLite checked is JSON); null when none
 * was recorded.
 */
static cJSON *setup_object(const char *text)
{
	cJSON *o = text ? cJSON_Parse(text) : NULL;

	return o ? o : jcheck(cJSON_CreateNull());
}

/* The boots of a run with kernels (version 3); empty on the host. */
static cJSON *boots_array(const struct run_full *rf)
{
	cJSON *arr = jcheck(cJSON_CreateArray());

	for (size_t i = 0; i < rf->boots_nr; i++) {
		const struct boot_data *b = &rf->boots[i];
		cJSON *o = jpush(arr, cJSON_CreateObject());

		jadd(o, "number", jint(b->number));
		jadd(o, "kernel", jstr(b->kernel));
		jadd(o, "image", jstr(b->image));
		jadd(o, "image_sha256", jstr(b->image_sha256));
		jadd(o, "image_release", jstr(b->image_release));
		jadd(o, "append", jstr(b->append));
		jadd(o, "accel", jstr(b->accel));
		jadd(o, "cpus", jint(b->cpus));
		jadd(o, "memory_mb", jint(b->memory_mb));
		jadd(o, "qemu_version", jstr(b->qemu_version));
		jadd(o, "qemu_cmdline", jstr(b->qemu_cmdline));
		jadd(o, "boot_s",
		     b->boot_s >= 0 ? jnum(b->boot_s)
				    : jcheck(cJSON_CreateNull()));
		jadd(o, "pinning", jstr(b->pinning));
		jadd(o, "guest_release", jstr(b->guest_release));
		jadd(o, "guest_cmdline", jstr(b->guest_cmdline));
		jadd(o, "guest_facts", jstr(b->guest_facts));
		jadd(o, "failed", jstr(b->failed));
	}
	return arr;
}

/* The kernel settings the run wrote (version 4), in writing order. */
static cJSON *settings_array(const struct run_full *rf)
{
	cJSON *arr = jcheck(cJSON_CreateArray());

	for (size_t i = 0; i < rf->settings_nr; i++) {
		const struct setting_data *sd = &rf->settings[i];
		cJSON *o = jpush(arr, cJSON_CreateObject());

		jadd(o, "path", jstr(sd->path));
		jadd(o, "old_value", jstr(sd->old_value));
		jadd(o, "new_value", jstr(sd->new_value));
	}
	return arr;
}

void json_export_add_run(struct json_export *je, const struct run_full *rf)
{
	const struct run_info *ri = &rf->info;
	cJSON *run = jpush(je->runs, cJSON_CreateObject());
	cJSON *config;

	jadd(run, "uuid", jstr(ri->uuid));
	jadd(run, "label", jstr(ri->label));
	jadd(run, "status", jstr(ri->status));
	jadd(run, "started_at", jstr(ri->started_at));
	jadd(run, "ended_at", jstr(ri->ended_at));
	jadd(run, "mmcmp_version", jstr(ri->mmcmp_version));
	jadd(run, "cgroup", jstr(ri->cgroup));
	config = jadd(run, "config", cJSON_CreateObject());
	jadd(config, "name", jstr(ri->config_name));
	jadd(config, "text", jstr(ri->config_text));
	jadd(config, "sha256", jstr(ri->config_hash));
	jadd(run, "setup", setup_object(ri->setup));
	jadd(run, "machine", machine_object(&ri->machine));
	jadd(run, "boots", boots_array(rf));
	jadd(run, "settings", settings_array(rf));
	jadd(run, "operations", operations_array(rf));
	jadd(run, "iterations", iterations_array(rf));
}

/*
 * The change of a compared label's mean cell (version 2): Fieller's
 * interval (null bounds when unbounded or untested), the verdict, the
 * power and the units per side.
 */
static void change_members(const struct compare_result *res, cJSON *o,
			   const struct compare_op *op,
			   const struct compare_side *side)
{
	bool bounded = side->change.kind == STATS_CI_BOUNDED;

	jadd(o, "change_pct", jnum(side->change.change_pct));
	jadd(o, "ci_low_pct", jnum(bounded ? side->change.low_pct : NAN));
	jadd(o, "ci_high_pct", jnum(bounded ? side->change.high_pct : NAN));
	jadd(o, "ci_level", jnum(1 - res->opts.alpha));
	jadd(o, "verdict", jstr(stats_verdict_name(side->verdict)));
	jadd(o, "mde_pct", jnum(side->mde_pct));
	jadd(o, "p_adjusted", jnum(side->p_adjusted));
	jadd(o, "n_base_units", jint((int64_t)op->side[0].units));
	jadd(o, "n_other_units", jint((int64_t)side->units));
	if (side->untested == COMPARE_TESTED) {
		jadd(o, "untested_reason", cJSON_CreateNull());
	} else {
		struct strbuf why = STRBUF_INIT;

		compare_untested_text(res, side->untested, &why);
		jadd(o, "untested_reason", jstr(why.buf));
		strbuf_release(&why);
	}
}

/* One cell of a comparison: the shape export and compare share. */
static cJSON *cell_object(const struct compare_result *res,
			  const struct compare_bench *b, size_t row, size_t run)
{
	const struct compare_row *r = &b->rows[row];
	const struct compare_op *op = &b->ops[r->op];
	const struct compare_cell *c = compare_cell(res, b, row, run);
	const struct compare_side *side = &op->side[run];
	bool mean = r->stat == COMPARE_STAT_MEAN;
	cJSON *o = jcheck(cJSON_CreateObject());
	double pct = NAN;

	/* compare.h keeps 0 where there is no value; here that is null. */
	if (!isnan(c->value) && c->pct_state == STATS_PCT_OK)
		pct = run ? c->pct : 0.0;
	jadd(o, "stat", jstr(r->label));
	jadd(o, "label", jstr(res->labels[run]));
	jadd(o, "value", jnum(c->value));
	jadd(o, "percentage", jnum(pct));
	jadd(o, "p_value", jnum(mean && run ? side->p : NAN));
	jadd(o, "significant", jbool(c->significant));
	jadd(o, "n_base", jint((int64_t)op->side[0].sum.n));
	jadd(o, "n_other", jint((int64_t)side->sum.n));
	if (mean && run && res->opts.test != COMPARE_TEST_MMTESTS)
		change_members(res, o, op, side);
	return o;
}

/* Every string of sv as a JSON array. */
static cJSON *strings_array(const struct strvec *sv)
{
	cJSON *a = jcheck(cJSON_CreateArray());

	for (size_t i = 0; i < sv->nr; i++)
		jpush(a, jstr(sv->v[i]));
	return a;
}

static cJSON *bench_object(const struct compare_result *res,
			   const struct compare_bench *b)
{
	cJSON *o = jcheck(cJSON_CreateObject()), *ops, *durations, *notes;
	struct strvec untested = STRVEC_INIT;

	jadd(o, "name", jstr(b->name));
	ops = jadd(o, "operations", cJSON_CreateArray());
	for (size_t i = 0; i < b->ops_nr; i++) {
		const struct compare_op *op = &b->ops[i];
		cJSON *oo = jpush(ops, cJSON_CreateObject()), *cells;

		jadd(oo, "name", jstr(op->name));
		jadd(oo, "unit", jstr(op->unit));
		jadd(oo, "better",
		     cJSON_CreateString(op->higher_better ? "higher"
							  : "lower"));
		jadd(oo, "decimals", jint(op->decimals));
		cells = jadd(oo, "cells", cJSON_CreateArray());
		/* Rows are stat-major: this op's are every ops_nr-th. */
		for (size_t r = 0; r < b->rows_nr; r++) {
			if (b->rows[r].op != i)
				continue;
			for (size_t run = 0; run < res->runs_nr; run++)
				jpush(cells, cell_object(res, b, r, run));
		}
	}
	durations = jadd(o, "durations", cJSON_CreateArray());
	for (size_t run = 0; b->has_durations && run < res->runs_nr; run++) {
		const struct compare_duration *d = &b->durations[run];
		cJSON *dd = jpush(durations, cJSON_CreateObject());

		jadd(dd, "label", jstr(res->labels[run]));
		jadd(dd, "user_s", jnum(d->present ? d->user_s : NAN));
		jadd(dd, "sys_s", jnum(d->present ? d->sys_s : NAN));
		jadd(dd, "elapsed_s", jnum(d->present ? d->elapsed_s : NAN));
	}
	/* The footer's lines that are not in the cells (compare.h). */
	notes = jadd(o, "notes", strings_array(&b->notes));
	if (b->vmstat_note)
		jpush(notes, jstr(b->vmstat_note));
	jadd(o, "warnings", strings_array(&b->warnings));
	compare_untested_lines(res, b, &untested);
	jadd(o, "untested", strings_array(&untested));
	strvec_clear(&untested);
	return o;
}

/* The provenance block (compare-provenance.h); null where it has none. */
static cJSON *provenance_object(const struct compare_result *res)
{
	const struct compare_provenance *p = res->provenance;
	cJSON *o, *labels;

	if (!p || res->opts.test == COMPARE_TEST_MMTESTS)
		return jcheck(cJSON_CreateNull());
	o = jcheck(cJSON_CreateObject());
	labels = jadd(o, "labels", cJSON_CreateArray());
	for (size_t i = 0; i < p->labels_nr; i++) {
		const struct compare_prov_label *l = &p->labels[i];
		cJSON *lo = jpush(labels, cJSON_CreateObject()), *g;

		jadd(lo, "label", jstr(res->labels[i]));
		jadd(lo, "runs", jint((int64_t)l->runs));
		jadd(lo, "iterations", jint(l->iterations));
		jadd(lo, "samples", jint((int64_t)l->samples));
		jadd(lo, "kernel_release", jstr(l->kernel_release));
		jadd(lo, "hostname", jstr(l->host));
		jadd(lo, "config_name", jstr(l->config_name));
		if (!l->vm) {
			jadd(lo, "guest", cJSON_CreateNull());
			continue;
		}
		g = jadd(lo, "guest", cJSON_CreateObject());
		jadd(g, "kernel_release", jstr(l->guest_release));
		jadd(g, "cmdline", jstr(l->guest_cmdline));
		jadd(g, "image", jstr(l->image));
		jadd(g, "image_sha256", jstr(l->image_sha256));
		jadd(g, "boots", jint((int64_t)l->boots));
	}
	jadd(o, "warnings", strings_array(&p->warnings));
	jadd(o, "notes", strings_array(&p->notes));
	return o;
}

static cJSON *compare_object(const struct compare_result *res)
{
	cJSON *o = jcheck(cJSON_CreateObject()), *labels, *benches;

	jadd(o, "format", cJSON_CreateString(JSON_COMPARE_FORMAT));
	jadd(o, "version", jint(JSON_COMPARE_VERSION));
	jadd(o, "test", jstr(compare_test_name(res->opts.test)));
	jadd(o, "alpha", jnum(res->opts.alpha));
	jadd(o, "fdr", jbool(res->opts.fdr));
	jadd(o, "unit", jstr(compare_unit_nth(res->opts.unit)));
	jadd(o, "margin", jnum(res->opts.margin_pct));
	jadd(o, "fdr_family_size", jint((int64_t)res->family_size[0]));
	labels = jadd(o, "labels", cJSON_CreateArray());
	for (size_t i = 0; i < res->runs_nr; i++)
		jpush(labels, jstr(res->labels[i]));
	/*
	 * The warning block the text prints: the provenance block's when
	 * there is one, as it covers every machine fact, else compare's.
	 */
	if (res->provenance && res->opts.test != COMPARE_TEST_MMTESTS)
		jadd(o, "machine_diffs",
		     strings_array(&res->provenance->warnings));
	else
		jadd(o, "machine_diffs", strings_array(&res->machine_diffs));
	jadd(o, "provenance", provenance_object(res));
	jadd(o, "warnings", strings_array(&res->warnings));
	benches = jadd(o, "benchmarks", cJSON_CreateArray());
	for (size_t i = 0; i < res->bench_nr; i++)
		jpush(benches, bench_object(res, &res->bench[i]));
	return o;
}

void json_export_add_compare(struct json_export *je,
			     const struct compare_result *res)
{
	jadd(je->root, "comparison", compare_object(res));
}

void json_export_finish(struct json_export *je, struct strbuf *out)
{
	jprint(je->root, out);
}

void json_render_compare(const struct compare_result *res, struct strbuf *out)
{
	cJSON *root = compare_object(res);

	jprint(root, out);
	cJSON_Delete(root);
}
