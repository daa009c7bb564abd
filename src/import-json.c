/* import-json: mmcmp's own export document read back, strictly validated. */
#include "json.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "import.h"
#include "json-read.h"
#include "json-stream.h"
#include "machine.h"
#include "run-data.h"
#include "run-setup.h"
#include "sha256.h"
#include "strbuf.h"
#include "strmap.h"
#include "util.h"

#define F_STR(st, m, lim, null) JSON_FIELD_STR(st, m, lim, null)
#define F_KIND(k, st, m, null)	JSON_FIELD_OF(k, st, m, JSON_MAX_NAME, null)
#define F_INT(st, m, lo, hi)	JSON_FIELD_INT_IN(st, m, lo, hi)

static const char *const run_statuses[] = {
	"running", "complete", "interrupted", "failed", "aborted", NULL,
};
static const char *const iteration_statuses[] = {
	"ok",	       "exit", "signal",  "timeout",
	"interrupted", "exec", "extract", NULL,
};

/* The members of the top-level object; generator is checked, not kept. */
struct jr_top {
	char *generator;
};

static const struct json_field top_fields[] = {
	{.name = "format", .kind = JSON_FIELD_OTHER},
	{.name = "version", .kind = JSON_FIELD_OTHER},
	{.name = "generator",
	 F_STR(struct jr_top, generator, JSON_MAX_NAME, false)},
	{.name = "runs", .kind = JSON_FIELD_OTHER},
	{.name = "comparison", .kind = JSON_FIELD_IGNORED},
};

static const struct json_field run_fields[] = {
	{.name = "uuid", F_KIND(JSON_FIELD_UUID, struct run_info, uuid, false)},
	{.name = "label",
	 F_KIND(JSON_FIELD_NAME, struct run_info, label, false)},
	{.name = "status",
	 F_KIND(JSON_FIELD_CHOICE, struct run_info, status, false),
	 .choices = run_statuses},
	{.name = "started_at",
	 F_KIND(JSON_FIELD_TIME, struct run_info, started_at, false)},
	{.name = "ended_at",
	 F_KIND(JSON_FIELD_TIME, struct run_info, ended_at, true)},
	{.name = "mmcmp_version",
	 F_STR(struct run_info, mmcmp_version, JSON_MAX_NAME, true)},
	{.name = "cgroup", F_STR(struct run_info, cgroup, JSON_MAX_NAME, true)},
	{.name = "config", .kind = JSON_FIELD_OTHER},
	{.name = "setup", .kind = JSON_FIELD_OTHER, .since = 2},
	{.name = "machine", .kind = JSON_FIELD_OTHER},
	{.name = "boots", .kind = JSON_FIELD_OTHER, .since = 3},
	{.name = "settings", .kind = JSON_FIELD_OTHER, .since = 4},
	{.name = "operations", .kind = JSON_FIELD_OTHER},
	{.name = "iterations", .kind = JSON_FIELD_OTHER},
};

static const struct json_field config_fields[] = {
	{.name = "name",
	 F_STR(struct run_info, config_name, JSON_MAX_NAME, true)},
	{.name = "text",
	 F_STR(struct run_info, config_text, JSON_MAX_TEXT, true)},
	{.name = "sha256",
	 F_KIND(JSON_FIELD_SHA256, struct run_info, config_hash, true)},
};

/*
 * The members of "machine", from machine.h's table into fields (of
 * JSON_FIELDS_MAX); returns fields.
 */
static const struct json_field *machine_jfields(struct json_field *fields)
{
	if (machine_fields_nr > JSON_FIELDS_MAX)
		BUG("%zu machine facts", machine_fields_nr);
	for (size_t i = 0; i < machine_fields_nr; i++) {
		const struct machine_field *m = &machine_fields[i];
		struct json_field *f = &fields[i];

		*f = (struct json_field){
			.name = m->name,
			.offset = m->offset,
			.nullable = true,
			.max = JSON_MAX_NAME,
		};
		switch (m->kind) {
		case MACHINE_STRING:
			f->kind = JSON_FIELD_STRING;
			break;
		case MACHINE_TEXT:
			f->kind = JSON_FIELD_STRING;
			f->max = JSON_MAX_TEXT;
			break;
		case MACHINE_SHA256:
			f->kind = JSON_FIELD_SHA256;
			break;
		case MACHINE_CHOICE:
			f->kind = JSON_FIELD_CHOICE;
			f->choices = m->choices;
			break;
		case MACHINE_INT:
			f->kind = JSON_FIELD_INT;
			f->nullable = false;
			f->size = sizeof(int64_t);
			f->max_int = m->max;
			break;
		}
	}
	return fields;
}

/* Decimals as a config allows them. */
static const struct json_field operation_fields[] = {
	{.name = "benchmark",
	 F_KIND(JSON_FIELD_NAME, struct op_samples, benchmark, false)},
	{.name = "name",
	 F_KIND(JSON_FIELD_NAME, struct op_samples, name, false)},
	{.name = "unit", F_STR(struct op_samples, unit, JSON_MAX_NAME, false)},
	{.name = "better",
	 F_KIND(JSON_FIELD_BETTER, struct op_samples, higher_better, false)},
	{.name = "decimals", F_INT(struct op_samples, decimals, 0, 12)},
	{.name = "summary", .kind = JSON_FIELD_IGNORED},
};

static const struct json_field iteration_fields[] = {
	{.name = "benchmark",
	 F_KIND(JSON_FIELD_NAME, struct iteration_data, benchmark, false)},
	{.name = "job",
	 F_STR(struct iteration_data, job, JSON_MAX_NAME, false)},
	{.name = "build",
	 F_STR(struct iteration_data, build, JSON_MAX_NAME, true)},
	{.name = "index",
	 F_INT(struct iteration_data, index, 0, JSON_READ_INT_MAX)},
	{.name = "warmup",
	 F_KIND(JSON_FIELD_BOOL, struct iteration_data, warmup, false)},
	{.name = "status",
	 F_KIND(JSON_FIELD_CHOICE, struct iteration_data, status, false),
	 .choices = iteration_statuses},
	{.name = "exit_code",
	 F_INT(struct iteration_data, exit_code, INT32_MIN, INT32_MAX)},
	{.name = "signal",
	 F_INT(struct iteration_data, term_signal, 0, INT32_MAX)},
	{.name = "started_at",
	 F_KIND(JSON_FIELD_TIME, struct iteration_data, started_at, false)},
	{.name = "elapsed_s",
	 F_KIND(JSON_FIELD_SECONDS, struct iteration_data, elapsed_s, false)},
	{.name = "user_s",
	 F_KIND(JSON_FIELD_SECONDS, struct iteration_data, user_s, false)},
	{.name = "sys_s",
	 F_KIND(JSON_FIELD_SECONDS, struct iteration_data, sys_s, false)},
	{.name = "maxrss_kb",
	 F_INT(struct iteration_data, maxrss_kb, 0, JSON_READ_INT_MAX)},
	{.name = "stderr_tail",
	 F_STR(struct iteration_data, stderr_tail, JSON_MAX_TEXT, true)},
	{.name = "boot",
	 F_INT(struct iteration_data, boot, 1, JSON_READ_INT_MAX),
	 .nullable = true,
	 .since = 3},
	{.name = "samples", .kind = JSON_FIELD_OTHER},
	{.name = "monitor", .kind = JSON_FIELD_OTHER, .since = 2},
};

/* A boot of a run with kernels (version 3). */
static const struct json_field setting_fields[] = {
	{.name = "path",
	 F_STR(struct setting_data, path, JSON_MAX_NAME, false)},
	{.name = "old_value",
	 F_STR(struct setting_data, old_value, JSON_MAX_NAME, false)},
	{.name = "new_value",
	 F_STR(struct setting_data, new_value, JSON_MAX_NAME, false)},
};

static const struct json_field boot_fields[] = {
	{.name = "number",
	 F_INT(struct boot_data, number, 1, JSON_READ_INT_MAX)},
	{.name = "kernel",
	 F_KIND(JSON_FIELD_NAME, struct boot_data, kernel, false)},
	{.name = "image",
	 F_KIND(JSON_FIELD_NAME, struct boot_data, image, false)},
	{.name = "image_sha256",
	 F_KIND(JSON_FIELD_SHA256, struct boot_data, image_sha256, false)},
	{.name = "image_release",
	 F_STR(struct boot_data, image_release, JSON_MAX_NAME, true)},
	{.name = "append",
	 F_STR(struct boot_data, append, JSON_MAX_NAME, false)},
	{.name = "accel",
	 F_KIND(JSON_FIELD_NAME, struct boot_data, accel, false)},
	{.name = "cpus", F_INT(struct boot_data, cpus, 1, 1 << 20)},
	{.name = "memory_mb",
	 F_INT(struct boot_data, memory_mb, 1, JSON_READ_INT_MAX)},
	{.name = "qemu_version",
	 F_STR(struct boot_data, qemu_version, JSON_MAX_NAME, false)},
	{.name = "qemu_cmdline",
	 F_STR(struct boot_data, qemu_cmdline, JSON_MAX_TEXT, false)},
	{.name = "boot_s",
	 F_KIND(JSON_FIELD_SECONDS, struct boot_data, boot_s, true)},
	{.name = "pinning",
	 F_STR(struct boot_data, pinning, JSON_MAX_NAME, true)},
	{.name = "guest_release",
	 F_STR(struct boot_data, guest_release, JSON_MAX_NAME, true)},
	{.name = "guest_cmdline",
	 F_STR(struct boot_data, guest_cmdline, JSON_MAX_TEXT, true)},
	{.name = "guest_facts",
	 F_STR(struct boot_data, guest_facts, JSON_MAX_TEXT, true)},
	{.name = "failed",
	 F_STR(struct boot_data, failed, JSON_MAX_TEXT, true)},
};

/* The members of a monitor record; the named values are read apart. */
static const struct json_field monitor_fields[] = {
	{.name = "interval_s",
	 F_KIND(JSON_FIELD_SECONDS, struct iteration_monitor, interval_s,
		false)},
	{.name = "vmstat", .kind = JSON_FIELD_OTHER},
	{.name = "vmstat_end", .kind = JSON_FIELD_OTHER, .since = 6},
	{.name = "cpu", .kind = JSON_FIELD_OTHER},
	{.name = "meminfo_start", .kind = JSON_FIELD_OTHER},
	{.name = "meminfo_end", .kind = JSON_FIELD_OTHER},
	{.name = "other_cpu", .kind = JSON_FIELD_OTHER},
	{.name = "loadavg_start", .kind = JSON_FIELD_OTHER},
	{.name = "loadavg_end", .kind = JSON_FIELD_OTHER},
	{.name = "cgroup", .kind = JSON_FIELD_OTHER},
	{.name = "cgroup_start", .kind = JSON_FIELD_OTHER},
	{.name = "cgroup_end", .kind = JSON_FIELD_OTHER},
	{.name = "samples", .kind = JSON_FIELD_OTHER},
	{.name = "perf", .kind = JSON_FIELD_OTHER, .since = 5},
};

/* What perf counters counted (monitor.h's perf_scope). */
static const char *const perf_scopes[] = {"cgroup", "process", NULL};

/* The perf counters of a monitor record (version 5); counters apart. */
static const struct json_field perf_fields[] = {
	{.name = "counters", .kind = JSON_FIELD_OTHER},
	{.name = "absent",
	 F_STR(struct iteration_monitor, perf_absent, JSON_MAX_TEXT, true)},
	{.name = "scope",
	 F_KIND(JSON_FIELD_CHOICE, struct iteration_monitor, perf_scope, false),
	 .choices = perf_scopes,
	 .since = 7},
};

static const struct json_field monitor_sample_fields[] = {
	{.name = "t_s",
	 F_KIND(JSON_FIELD_SECONDS, struct iteration_monitor_sample, t_s,
		false)},
	{.name = "vmstat", .kind = JSON_FIELD_OTHER},
	{.name = "cpu", .kind = JSON_FIELD_OTHER},
	{.name = "meminfo", .kind = JSON_FIELD_OTHER},
};

/* A group of samples; values are read by the caller. */
struct jr_group {
	int64_t operation;
};

static const struct json_field group_fields[] = {
	{.name = "operation",
	 F_INT(struct jr_group, operation, 0, INT64_C(1) << 40)},
	{.name = "values", .kind = JSON_FIELD_OTHER},
};

/* Where the samples are: the arrays json-stream reads. */
static const char *const values_path[] = {"runs", "iterations", "samples",
					  "values"};

/*
 * The samples json-stream read before the tree was built (its arrays are
 * blanked in the text): each run with any has them in document order,
 * their operations unset, and takes them over when it is read; each
 * group of samples then claims the next array of js if its indices are
 * the group's, at[], as the tree is walked in the same order.
 */
struct jr_streamed {
	size_t run;
	struct sample_data *v;
	size_t nr, alloc;
};

struct jr_stream {
	struct json_stream js;
	struct jr_streamed *runs;
	size_t runs_nr, runs_alloc;
	size_t next_run, next_array;
	size_t at[JSON_STREAM_DEPTH - 1]; /* run, iteration, group */
	size_t pending; /* samples of the run read, not yet claimed */
};

/* json_stream_fn: the n values of an array, appended to their run's. */
static void stream_add(void *ctx, const size_t *index, const double *v,
		       size_t n)
{
	struct jr_stream *st = ctx;
	struct jr_streamed *r;

	if (!st->runs_nr || st->runs[st->runs_nr - 1].run != index[0]) {
		ALLOC_GROW(st->runs, st->runs_nr + 1, st->runs_alloc);
		r = &st->runs[st->runs_nr++];
		memset(r, 0, sizeof(*r));
		r->run = index[0];
	}
	r = &st->runs[st->runs_nr - 1];
	ALLOC_GROW(r->v, r->nr + n, r->alloc);
	for (size_t i = 0; i < n; i++)
		r->v[r->nr++] = (struct sample_data){.value = v[i]};
}

static void stream_release(struct jr_stream *st)
{
	for (size_t i = 0; i < st->runs_nr; i++)
		free(st->runs[i].v);
	free(st->runs);
	json_stream_release(&st->js);
	*st = (struct jr_stream){.js = JSON_STREAM_INIT};
}

/* Run st->at[0], rf, takes over its streamed samples, if any. */
static void stream_take(struct jr_stream *st, struct run_full *rf)
{
	struct jr_streamed *r;

	st->pending = 0;
	if (st->next_run >= st->runs_nr ||
	    st->runs[st->next_run].run != st->at[0])
		return;
	r = &st->runs[st->next_run++];
	rf->samples = r->v;
	rf->samples_alloc = r->alloc;
	st->pending = r->nr;
	r->v = NULL;
}

/* The number of values streamed for the group at st->at, if it was. */
static bool stream_claim(struct jr_stream *st, size_t *n)
{
	const struct json_stream_array *a;

	if (st->next_array >= st->js.nr)
		return false;
	a = &st->js.v[st->next_array];
	if (memcmp(a->index, st->at, sizeof(st->at)) != 0)
		return false;
	if (a->nr > st->pending)
		BUG("%zu values streamed, %zu claimed", st->pending, a->nr);
	st->next_array++;
	*n = a->nr;
	return true;
}

static int jr_operations(struct json_read *jr, const struct cJSON *run,
			 struct run_full *rf)
{
	struct strmap names = STRMAP_INIT;
	struct strbuf key = STRBUF_INIT;
	const struct cJSON *arr, *el;
	size_t mark, i = 0;
	int ret = -1;

	arr = json_read_array(jr, run, "operations", JSON_MAX_OPERATIONS,
			      &mark);
	if (!arr)
		goto out;
	JSON_FOR_EACH(el, arr)
	{
		size_t m = json_read_push_index(jr, i), other;
		struct op_samples *op;

		ALLOC_GROW(rf->ops, rf->ops_nr + 1, rf->ops_alloc);
		op = &rf->ops[rf->ops_nr++];
		memset(op, 0, sizeof(*op));
		if (json_read_object(jr, el, operation_fields,
				     ARRAY_SIZE(operation_fields), op))
			goto out;
		strbuf_reset(&key);
		strbuf_add(&key, op->benchmark, strlen(op->benchmark) + 1);
		strbuf_addstr(&key, op->name);
		if (strmap_get(&names, key.buf, key.len, &other)) {
			json_read_fail(jr,
				       "operation '%s' of benchmark '%s' again",
				       json_read_quote(jr, 0, op->name),
				       json_read_quote(jr, 1, op->benchmark));
			goto out;
		}
		strmap_put(&names, key.buf, key.len, i);
		json_read_pop(jr, m);
		i++;
	}
	json_read_pop(jr, mark);
	ret = 0;
out:
	strmap_clear(&names);
	strbuf_release(&key);
	return ret;
}

/* The n streamed values of a group, claimed for operation op. */
static int jr_streamed_values(struct json_read *jr, struct jr_stream *st,
			      size_t n, size_t op, struct run_full *rf)
{
	if (n > JSON_MAX_SAMPLES - rf->samples_nr)
		return json_read_fail(jr, "more than %zu samples in the run",
				      JSON_MAX_SAMPLES);
	for (size_t k = 0; k < n; k++)
		rf->samples[rf->samples_nr++].op = op;
	st->pending -= n;
	return 0;
}

/* The values of one group of samples, appended to rf->samples. */
static int jr_values(struct json_read *jr, const struct cJSON *group, size_t op,
		     struct run_full *rf, struct jr_stream *st)
{
	const struct cJSON *arr = json_node_get(group, "values");
	const struct cJSON *el;
	size_t mark = json_read_push_key(jr, "values"), k = 0;

	if (!json_node_is_array(arr))
		return json_read_type_fail(jr, arr, "an array");
	if (stream_claim(st, &k)) {
		if (json_node_first(arr))
			BUG("streamed values left in the tree");
		json_read_pop(jr, mark);
		return jr_streamed_values(jr, st, k, op, rf);
	}
	if (!json_node_first(arr))
		return json_read_fail(jr, "no values");
	JSON_FOR_EACH(el, arr)
	{
		if (!json_node_is_number(el) ||
		    !isfinite(json_node_number(el))) {
			double d;

			json_read_push_index(jr, k);
			json_read_number(jr, el, "a number", &d);
			return -1;
		}
		k++;
	}
	json_read_pop(jr, mark);
	if (k > JSON_MAX_SAMPLES - rf->samples_nr)
		return json_read_fail(jr, "more than %zu samples in the run",
				      JSON_MAX_SAMPLES);
	/*
	 * An array of finite numbers is streamed unless the whole document
	 * is not, so the tree's never go before samples streamed.
	 */
	if (st->pending)
		BUG("values in the tree before %zu streamed", st->pending);
	ALLOC_GROW(rf->samples, rf->samples_nr + k, rf->samples_alloc);
	JSON_FOR_EACH(el, arr)
	{
		rf->samples[rf->samples_nr].op = op;
		rf->samples[rf->samples_nr++].value = json_node_number(el);
	}
	return 0;
}

static int jr_samples(struct json_read *jr, const struct cJSON *iter,
		      struct run_full *rf, struct iteration_data *it,
		      struct jr_stream *st)
{
	const struct cJSON *arr, *el;
	size_t mark, i = 0;

	arr = json_read_array(jr, iter, "samples", JSON_MAX_SAMPLES, &mark);
	if (!arr)
		return -1;
	it->samples_first = rf->samples_nr;
	JSON_FOR_EACH(el, arr)
	{
		struct jr_group g = {0};
		size_t m = json_read_push_index(jr, i), om;
		const struct op_samples *op;

		st->at[2] = i++;
		if (json_read_object(jr, el, group_fields,
				     ARRAY_SIZE(group_fields), &g))
			return -1;
		om = json_read_push_key(jr, "operation");
		if ((uint64_t)g.operation >= rf->ops_nr)
			return json_read_fail(jr,
					      "no operation %" PRId64
					      " (the run has %zu)",
					      g.operation, rf->ops_nr);
		op = &rf->ops[g.operation];
		if (strcmp(op->benchmark, it->benchmark) != 0)
			return json_read_fail(
				jr,
				"operation %" PRId64
				" is of benchmark '%s', not '%s'",
				g.operation,
				json_read_quote(jr, 0, op->benchmark),
				json_read_quote(jr, 1, it->benchmark));
		json_read_pop(jr, om);
		if (jr_values(jr, el, (size_t)g.operation, rf, st))
			return -1;
		json_read_pop(jr, m);
	}
	it->samples_nr = rf->samples_nr - it->samples_first;
	json_read_pop(jr, mark);
	return 0;
}

/* Member key of obj: a number from 0 to 1e6, or null for NaN. */
static int jr_figure(struct json_read *jr, const struct cJSON *obj,
		     const char *key, double *out)
{
	const struct cJSON *node = json_node_get(obj, key);
	size_t mark = json_read_push_key(jr, key);

	if (json_node_is_null(node)) {
		*out = NAN;
	} else if (!json_read_number(jr, node, "a number or null", out)) {
		return -1;
	} else if (*out < 0 || *out > 1e6) {
		return json_read_fail(jr, "%.17g is out of range (0 to 1e6)",
				      *out);
	}
	json_read_pop(jr, mark);
	return 0;
}

/*
 * The object member key of obj, of name -> integer, appended to mc: names
 * not empty, UTF-8 and each once, integers exact (up to 2^53).
 */
static int jr_counts(struct json_read *jr, const struct cJSON *obj,
		     const char *key, struct monitor_counts *mc)
{
	const struct cJSON *node = json_node_get(obj, key);
	const struct json_field f = {.name = key,
				     .kind = JSON_FIELD_INT,
				     .size = sizeof(int64_t),
				     .min_int = -JSON_READ_INT_MAX,
				     .max_int = JSON_READ_INT_MAX};
	struct strmap names = STRMAP_INIT;
	size_t mark = json_read_push_key(jr, key);
	const struct cJSON *el;
	int ret = -1;

	if (!json_node_is_object(node)) {
		json_read_type_fail(jr, node, "an object");
		goto out;
	}
	JSON_FOR_EACH(el, node)
	{
		const char *name = json_node_key(el);
		size_t len = strlen(name), m;
		int64_t v = 0;

		if (mc->nr >= JSON_MAX_MONITOR_NAMES) {
			json_read_fail(jr, "more than %zu values",
				       JSON_MAX_MONITOR_NAMES);
			goto out;
		}
		if (!len || len > JSON_MAX_NAME || !utf8_valid(name)) {
			json_read_fail(
				jr,
				"'%s' is not a name (1 to %zu bytes of UTF-8)",
				json_read_quote(jr, 0, name), JSON_MAX_NAME);
			goto out;
		}
		if (strmap_get(&names, name, len, NULL)) {
			json_read_fail(jr, "duplicate member '%s'",
				       json_read_quote(jr, 0, name));
			goto out;
		}
		strmap_put(&names, name, len, 0);
		m = json_read_push_key(jr, name);
		if (json_read_field(jr, el, &f, &v))
			goto out;
		json_read_pop(jr, m);
		monitor_counts_add(mc, name, v);
	}
	json_read_pop(jr, mark);
	ret = 0;
out:
	strmap_clear(&names);
	return ret;
}

static int jr_monitor_samples(struct json_read *jr, const struct cJSON *obj,
			      struct iteration_monitor *m)
{
	const struct cJSON *arr, *el;
	size_t mark, i = 0;

	arr = json_read_array(jr, obj, "samples", JSON_MAX_MONITOR_SAMPLES,
			      &mark);
	if (!arr)
		return -1;
	JSON_FOR_EACH(el, arr)
	{
		size_t k = json_read_push_index(jr, i++);
		struct iteration_monitor_sample *s;

		ALLOC_GROW(m->samples, m->samples_nr + 1, m->samples_alloc);
		s = &m->samples[m->samples_nr++];
		memset(s, 0, sizeof(*s));
		if (json_read_object(jr, el, monitor_sample_fields,
				     ARRAY_SIZE(monitor_sample_fields), s) ||
		    jr_counts(jr, el, "vmstat", &s->vmstat) ||
		    jr_counts(jr, el, "cpu", &s->cpu) ||
		    jr_counts(jr, el, "meminfo", &s->meminfo))
			return -1;
		json_read_pop(jr, k);
	}
	json_read_pop(jr, mark);
	return 0;
}

/* The perf member of monitor record node (version 5 on): null or counts. */
static int jr_perf(struct json_read *jr, const struct cJSON *node,
		   struct iteration_monitor *m)
{
	const struct cJSON *perf = json_node_get(node, "perf");
	size_t mark;

	if (jr->version < 5 || json_node_is_null(perf))
		return 0;
	mark = json_read_push_key(jr, "perf");
	if (!json_node_is_object(perf))
		return json_read_type_fail(jr, perf, "an object or null");
	m->has_perf = true;
	if (json_read_object(jr, perf, perf_fields, ARRAY_SIZE(perf_fields),
			     m) ||
	    jr_counts(jr, perf, "counters", &m->perf))
		return -1;
	json_read_pop(jr, mark);
	return 0;
}

/* The monitor record of an iteration (version 2 on), or null. */
static int jr_monitor(struct json_read *jr, const struct cJSON *iter,
		      struct iteration_data *it)
{
	const struct cJSON *node = json_node_get(iter, "monitor");
	size_t mark;
	struct iteration_monitor *m;

	if (!node || json_node_is_null(node))
		return 0;
	mark = json_read_push_key(jr, "monitor");
	m = it->monitor = iteration_monitor_new();
	if (!json_node_is_object(node))
		return json_read_type_fail(jr, node, "an object or null");
	if (json_read_object(jr, node, monitor_fields,
			     ARRAY_SIZE(monitor_fields), m) ||
	    jr_counts(jr, node, "vmstat", &m->vmstat) ||
	    jr_counts(jr, node, "cpu", &m->cpu) ||
	    jr_counts(jr, node, "meminfo_start", &m->meminfo_start) ||
	    jr_counts(jr, node, "meminfo_end", &m->meminfo_end) ||
	    jr_figure(jr, node, "other_cpu", &m->other_cpu) ||
	    jr_figure(jr, node, "loadavg_start", &m->loadavg_start) ||
	    jr_figure(jr, node, "loadavg_end", &m->loadavg_end) ||
	    jr_monitor_samples(jr, node, m) || jr_perf(jr, node, m))
		return -1;
	/* The gauges' levels (version 6 on): null where not recorded. */
	if (jr->version >= 6) {
		const struct cJSON *end = json_node_get(node, "vmstat_end");

		m->has_vmstat_end = !json_node_is_null(end);
		if (m->has_vmstat_end && !json_node_is_object(end)) {
			json_read_push_key(jr, "vmstat_end");
			return json_read_type_fail(jr, end,
						   "an object or null");
		}
		if (m->has_vmstat_end &&
		    jr_counts(jr, node, "vmstat_end", &m->vmstat_end))
			return -1;
	}
	/* The cgroup's counters: all three objects, or all three null. */
	m->has_cgroup = !json_node_is_null(json_node_get(node, "cgroup"));
	for (size_t i = 0; i < 3; i++) {
		static const char *const keys[] = {"cgroup", "cgroup_start",
						   "cgroup_end"};
		struct monitor_counts *mc[] = {&m->cgroup, &m->cgroup_start,
					       &m->cgroup_end};
		const struct cJSON *c = json_node_get(node, keys[i]);

		if (!m->has_cgroup) {
			if (!json_node_is_null(c)) {
				json_read_push_key(jr, keys[i]);
				return json_read_fail(
					jr, "not null, but 'cgroup' is");
			}
			continue;
		}
		if (jr_counts(jr, node, keys[i], mc[i]))
			return -1;
	}
	/* The store keeps no interval for a record without samples. */
	if (!m->samples_nr && m->interval_s != 0) {
		json_read_push_key(jr, "interval_s");
		return json_read_fail(jr,
				      "not 0, but the record has no samples");
	}
	json_read_pop(jr, mark);
	return 0;
}

static int jr_iterations(struct json_read *jr, const struct cJSON *run,
			 struct run_full *rf, struct jr_stream *st)
{
	const struct cJSON *arr, *el;
	size_t mark, i = 0;

	arr = json_read_array(jr, run, "iterations", JSON_MAX_ITERATIONS,
			      &mark);
	if (!arr)
		return -1;
	JSON_FOR_EACH(el, arr)
	{
		size_t m = json_read_push_index(jr, i);
		struct iteration_data *it;

		st->at[1] = i++;
		ALLOC_GROW(rf->iters, rf->iters_nr + 1, rf->iters_alloc);
		it = &rf->iters[rf->iters_nr++];
		memset(it, 0, sizeof(*it));
		if (json_read_object(jr, el, iteration_fields,
				     ARRAY_SIZE(iteration_fields), it) ||
		    jr_samples(jr, el, rf, it, st) || jr_monitor(jr, el, it))
			return -1;
		json_read_pop(jr, m);
	}
	json_read_pop(jr, mark);
	return 0;
}

/* A run's setup member, when the version has it, as canonical text. */
static int jr_run_setup(struct json_read *jr, const struct cJSON *run,
			struct run_info *ri)
{
	const struct cJSON *node = json_node_get(run, "setup");
	struct run_setup setup = {0};
	size_t mark;
	int ret = -1;

	if (!node || json_node_is_null(node))
		return 0;
	mark = json_read_push_key(jr, "setup");
	if (!json_node_is_object(node)) {
		json_read_type_fail(jr, node, "an object or null");
		goto out;
	}
	if (run_setup_read(jr, node, &setup))
		goto out;
	ri->setup = run_setup_text(&setup);
	json_read_pop(jr, mark);
	ret = 0;
out:
	run_setup_release(&setup);
	return ret;
}

/* The boots of a run (version 3 on): at most one per number. */
static int jr_boots(struct json_read *jr, const struct cJSON *run,
		    struct run_full *rf)
{
	const struct cJSON *arr, *el;
	size_t mark, i = 0;

	if (jr->version < 3)
		return 0;
	arr = json_read_array(jr, run, "boots", JSON_MAX_ITERATIONS, &mark);
	if (!arr)
		return -1;
	JSON_FOR_EACH(el, arr)
	{
		size_t m = json_read_push_index(jr, i++);
		struct boot_data *b;

		ALLOC_GROW(rf->boots, rf->boots_nr + 1, rf->boots_alloc);
		b = &rf->boots[rf->boots_nr++];
		memset(b, 0, sizeof(*b));
		b->boot_s = -1.0;
		if (json_read_object(jr, el, boot_fields,
				     ARRAY_SIZE(boot_fields), b))
			return -1;
		for (size_t k = 0; k + 1 < rf->boots_nr; k++)
			if (rf->boots[k].number == b->number)
				return json_read_fail(jr,
						      "boot %" PRId64 " twice",
						      b->number);
		json_read_pop(jr, m);
	}
	json_read_pop(jr, mark);
	return 0;
}

/* The settings a run wrote (version 4 on), in writing order. */
static int jr_settings(struct json_read *jr, const struct cJSON *run,
		       struct run_full *rf)
{
	const struct cJSON *arr, *el;
	size_t mark, i = 0;

	if (jr->version < 4)
		return 0;
	arr = json_read_array(jr, run, "settings", JSON_MAX_ITERATIONS, &mark);
	if (!arr)
		return -1;
	JSON_FOR_EACH(el, arr)
	{
		size_t m = json_read_push_index(jr, i++);
		struct setting_data *sd;

		ALLOC_GROW(rf->settings, rf->settings_nr + 1,
			   rf->settings_alloc);
		sd = &rf->settings[rf->settings_nr++];
		memset(sd, 0, sizeof(*sd));
		if (json_read_object(jr, el, setting_fields,
				     ARRAY_SIZE(setting_fields), sd))
			return -1;
		json_read_pop(jr, m);
	}
	json_read_pop(jr, mark);
	return 0;
}

static int jr_run(struct json_read *jr, const struct cJSON *run,
		  struct run_full *rf, struct jr_stream *st)
{
	struct json_field mf[JSON_FIELDS_MAX];
	const struct cJSON *node;
	size_t mark;

	stream_take(st, rf);
	if (json_read_object(jr, run, run_fields, ARRAY_SIZE(run_fields),
			     &rf->info))
		return -1;
	node = json_node_get(run, "config");
	mark = json_read_push_key(jr, "config");
	if (json_read_object(jr, node, config_fields, ARRAY_SIZE(config_fields),
			     &rf->info))
		return -1;
	/* A SHA-256 of no text would vouch for nothing. */
	if (!rf->info.config_text && rf->info.config_hash) {
		json_read_push_key(jr, "sha256");
		return json_read_fail(jr, "not null, but config.text is");
	}
	if (rf->info.config_text && rf->info.config_hash) {
		char hash[65];

		sha256_hex(rf->info.config_text, strlen(rf->info.config_text),
			   hash);
		if (strcmp(hash, rf->info.config_hash) != 0) {
			json_read_push_key(jr, "sha256");
			return json_read_fail(jr,
					      "not the SHA-256 of config.text");
		}
	}
	json_read_pop(jr, mark);
	if (jr_run_setup(jr, run, &rf->info))
		return -1;
	node = json_node_get(run, "machine");
	mark = json_read_push_key(jr, "machine");
	if (json_read_object(jr, node, machine_jfields(mf), machine_fields_nr,
			     &rf->info.machine))
		return -1;
	json_read_pop(jr, mark);
	if (jr_boots(jr, run, rf) || jr_settings(jr, run, rf) ||
	    jr_operations(jr, run, rf) || jr_iterations(jr, run, rf, st))
		return -1;
	if (st->pending)
		BUG("%zu streamed samples of runs[%zu] unread", st->pending,
		    st->at[0]);
	return 0;
}

/* The format and version, checked before anything else. */
static int jr_header(struct json_read *jr, const struct cJSON *root)
{
	const struct cJSON *format, *version;
	struct json_field vf = {.name = "version",
				.kind = JSON_FIELD_INT,
				.size = sizeof(int64_t),
				.min_int = INT64_MIN,
				.max_int = INT64_MAX};
	int64_t v = 0;

	if (!json_node_is_object(root))
		return json_read_type_fail(jr, root, "an object");
	format = json_node_get(root, "format");
	version = json_node_get(root, "version");
	if (!format)
		return json_read_fail(jr, "missing member 'format'");
	json_read_push_key(jr, "format");
	if (!json_node_is_string(format))
		return json_read_type_fail(jr, format, "a string");
	if (strcmp(json_node_string(format), JSON_EXPORT_FORMAT) != 0)
		return json_read_fail(
			jr,
			"'%s' is not an mmcmp export (want '" JSON_EXPORT_FORMAT
			"')",
			json_read_quote(jr, 0, json_node_string(format)));
	json_read_pop(jr, 0);
	if (!version)
		return json_read_fail(jr, "missing member 'version'");
	json_read_push_key(jr, "version");
	if (json_read_field(jr, version, &vf, &v))
		return -1;
	if (v < 1 || v > JSON_EXPORT_VERSION)
		return json_read_fail(jr,
				      "unsupported version %" PRId64
				      " (this mmcmp reads versions 1 to %d)",
				      v, JSON_EXPORT_VERSION);
	jr->version = v;
	json_read_pop(jr, 0);
	return 0;
}

static int jr_document(struct json_read *jr, const struct cJSON *root,
		       struct jr_stream *st, struct run_full **runs, size_t *nr)
{
	struct jr_top top = {NULL};
	struct strmap uuids = STRMAP_INIT;
	size_t alloc = 0, mark, i = 0;
	const struct cJSON *arr, *el;
	int ret = -1;

	if (jr_header(jr, root) ||
	    json_read_object(jr, root, top_fields, ARRAY_SIZE(top_fields),
			     &top))
		goto out;
	arr = json_read_array(jr, root, "runs", JSON_MAX_RUNS, &mark);
	if (!arr)
		goto out;
	JSON_FOR_EACH(el, arr)
	{
		size_t m = json_read_push_index(jr, i), other;
		struct run_full *rf;

		ALLOC_GROW(*runs, *nr + 1, alloc);
		rf = &(*runs)[(*nr)++];
		memset(rf, 0, sizeof(*rf));
		st->at[0] = i;
		if (jr_run(jr, el, rf, st))
			goto out;
		if (strmap_get(&uuids, rf->info.uuid, strlen(rf->info.uuid),
			       &other)) {
			json_read_push_key(jr, "uuid");
			json_read_fail(jr, "the uuid of runs[%zu] again",
				       other);
			goto out;
		}
		strmap_put(&uuids, rf->info.uuid, strlen(rf->info.uuid), i);
		json_read_pop(jr, m);
		i++;
	}
	json_read_pop(jr, mark);
	ret = 0;
out:
	free(top.generator);
	strmap_clear(&uuids);
	return ret;
}

static int too_large(const char *name, size_t len, struct strbuf *err)
{
	return error_addf(err,
			  "%s: too large (%zu bytes, at most %zu); export"
			  " fewer labels per file",
			  name, len, JSON_IMPORT_MAX_BYTES);
}

int json_import_in_place(const char *name, char *text, size_t len,
			 struct run_full **runs, size_t *nr, struct strbuf *err)
{
	struct json_read jr = JSON_READ_INIT(name, err);
	struct jr_stream st = {.js = JSON_STREAM_INIT};
	struct cJSON *root = NULL;
	int ret = -1;

	*runs = NULL;
	*nr = 0;
	if (len > JSON_IMPORT_MAX_BYTES) {
		too_large(name, len, err);
		goto out;
	}
	if (json_stream_scan(&st.js, text, len, values_path,
			     ARRAY_SIZE(values_path), stream_add, &st))
		json_stream_blank(&st.js, text);
	else
		stream_release(&st);
	root = json_read_tree(&jr, text, len, true);
	if (!root)
		goto out;
	ret = jr_document(&jr, root, &st, runs, nr);
out:
	if (ret) {
		run_full_free_array(*runs, *nr);
		*runs = NULL;
		*nr = 0;
	}
	stream_release(&st);
	json_read_free(root);
	json_read_release(&jr);
	return ret;
}

int json_import(const char *name, const char *text, size_t len,
		struct run_full **runs, size_t *nr, struct strbuf *err)
{
	struct strbuf copy = STRBUF_INIT;
	int ret;

	if (len > JSON_IMPORT_MAX_BYTES) {
		*runs = NULL;
		*nr = 0;
		return too_large(name, len, err);
	}
	strbuf_add(&copy, text, len);
	ret = json_import_in_place(name, copy.buf, copy.len, runs, nr, err);
	strbuf_release(&copy);
	return ret;
}

/* JSON by extension, else by a first character of '{' (after a BOM). */
static bool mmcmp_json_detect(const char *path, const char *buf, size_t len)
{
	size_t plen = strlen(path), i = 0;

	if (plen >= 5 && !strcmp(path + plen - 5, ".json"))
		return true;
	if (plen >= 4 && !strcmp(path + plen - 4, ".csv"))
		return false;
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < len && isspace((unsigned char)buf[i]))
		i++;
	return i < len && buf[i] == '{';
}

static int mmcmp_json_parse(const char *path, const char *buf, size_t len,
			    const struct import_options *opts,
			    struct run_full **runs, size_t *nr,
			    struct strbuf *err)
{
	(void)opts;
	return json_import(path, buf, len, runs, nr, err);
}

static int mmcmp_json_parse_in_place(const char *path, char *buf, size_t len,
				     const struct import_options *opts,
				     struct run_full **runs, size_t *nr,
				     struct strbuf *err)
{
	(void)opts;
	return json_import_in_place(path, buf, len, runs, nr, err);
}

const struct import_format import_json = {
	.name = "json",
	.detect = mmcmp_json_detect,
	.parse = mmcmp_json_parse,
	.parse_in_place = mmcmp_json_parse_in_place,
	.max_bytes = JSON_IMPORT_MAX_BYTES,
	.own = true,
};
