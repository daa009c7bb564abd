/* run-setup: the effective setup of a run and its canonical JSON text. */
#include "run-setup.h"

#include <string.h>

#include "json-read.h"
#include "json-write.h"
#include "names.h"
#include "strbuf.h"
#include "util.h"

/* The longest list of a setup: json.h's JSON_MAX_OPERATIONS. */
#define SETUP_MAX_ELEMENTS ((size_t)1 << 20)

#define F_KIND(k, st, m, null)	JSON_FIELD_OF(k, st, m, NAMES_MAX_BYTES, null)
#define F_STR(st, m, lim, null) JSON_FIELD_STR(st, m, lim, null)
#define F_INT(st, m, lo, hi)	JSON_FIELD_INT_IN(st, m, lo, hi)

void run_setup_release(struct run_setup *setup)
{
	if (!setup)
		return;
	for (size_t i = 0; i < setup->params_nr; i++) {
		struct setup_param *p = &setup->params[i];

		free(p->workload);
		free(p->name);
		for (size_t k = 0; k < p->values_nr; k++)
			free(p->values[k]);
		free(p->values);
	}
	free(setup->params);
	for (size_t i = 0; i < setup->stops_nr; i++) {
		free(setup->stops[i].workload);
		free(setup->stops[i].job);
		free(setup->stops[i].stopped);
	}
	free(setup->stops);
	memset(setup, 0, sizeof(*setup));
}

void run_setup_add_stop(struct run_setup *setup, const char *workload,
			const char *job, int64_t iterations,
			const char *stopped)
{
	struct setup_stop *st;

	ALLOC_GROW(setup->stops, setup->stops_nr + 1, setup->stops_alloc);
	st = &setup->stops[setup->stops_nr++];
	st->workload = xstrdup(workload);
	st->job = xstrdup(job);
	st->iterations = iterations;
	st->stopped = xstrdup(stopped);
}

struct setup_param *run_setup_add_param(struct run_setup *setup,
					const char *workload, const char *name)
{
	struct setup_param *p;

	ALLOC_GROW(setup->params, setup->params_nr + 1, setup->params_alloc);
	p = &setup->params[setup->params_nr++];
	memset(p, 0, sizeof(*p));
	p->workload = xstrdup(workload);
	p->name = xstrdup(name);
	return p;
}

void setup_param_add_value(struct setup_param *p, const char *value)
{
	ALLOC_GROW(p->values, p->values_nr + 1, p->values_alloc);
	p->values[p->values_nr++] = xstrdup(value);
}

/* The "until" member of a setup: null without the rule. */
static struct cJSON *until_tree(const struct run_setup *setup)
{
	struct cJSON *o, *jobs;

	if (!(setup->until_pct > 0))
		return json_write_null();
	o = json_write_object();
	json_write_add(o, "pct", json_write_num(setup->until_pct));
	jobs = json_write_add(o, "jobs", json_write_array());
	for (size_t i = 0; i < setup->stops_nr; i++) {
		const struct setup_stop *st = &setup->stops[i];
		struct cJSON *jo = json_write_push(jobs, json_write_object());

		json_write_add(jo, "workload", json_write_str(st->workload));
		json_write_add(jo, "job", json_write_str(st->job));
		json_write_add(jo, "iterations",
			       json_write_int(st->iterations));
		json_write_add(jo, "stopped", json_write_str(st->stopped));
	}
	return o;
}

static struct cJSON *setup_tree(const struct run_setup *setup)
{
	struct cJSON *o = json_write_object(), *params;

	json_write_add(o, "iterations", json_write_int(setup->iterations));
	json_write_add(o, "warmup", json_write_int(setup->warmup));
	json_write_add(o, "until", until_tree(setup));
	params = json_write_add(o, "params", json_write_array());
	for (size_t i = 0; i < setup->params_nr; i++) {
		const struct setup_param *p = &setup->params[i];
		struct cJSON *po = json_write_push(params, json_write_object()),
			     *values;

		json_write_add(po, "workload", json_write_str(p->workload));
		json_write_add(po, "name", json_write_str(p->name));
		values = json_write_add(po, "values", json_write_array());
		for (size_t k = 0; k < p->values_nr; k++)
			json_write_push(values, json_write_str(p->values[k]));
	}
	return o;
}

char *run_setup_text(const struct run_setup *setup)
{
	struct cJSON *o = setup_tree(setup);
	char *text = json_write_compact(o);

	json_write_free(o);
	return text;
}

static const struct json_field setup_fields[] = {
	{.name = "iterations",
	 F_INT(struct run_setup, iterations, 0, JSON_READ_INT_MAX)},
	{.name = "warmup",
	 F_INT(struct run_setup, warmup, 0, JSON_READ_INT_MAX)},
	{.name = "until", .kind = JSON_FIELD_OTHER},
	{.name = "params", .kind = JSON_FIELD_OTHER},
};

static const char *const stop_reasons[] = {
	"precision",
	"maximum",
	"interrupted",
	NULL,
};

/* "until" of a setup; pct is read apart, as it must be above 0. */
static const struct json_field until_fields[] = {
	{.name = "pct", .kind = JSON_FIELD_OTHER},
	{.name = "jobs", .kind = JSON_FIELD_OTHER},
};

static const struct json_field stop_fields[] = {
	{.name = "workload",
	 F_KIND(JSON_FIELD_NAME, struct setup_stop, workload, false)},
	{.name = "job", F_STR(struct setup_stop, job, NAMES_MAX_BYTES, false)},
	{.name = "iterations",
	 F_INT(struct setup_stop, iterations, 0, JSON_READ_INT_MAX)},
	{.name = "stopped",
	 F_KIND(JSON_FIELD_CHOICE, struct setup_stop, stopped, false),
	 .choices = stop_reasons},
};

static const struct json_field setup_param_fields[] = {
	{.name = "workload",
	 F_KIND(JSON_FIELD_NAME, struct setup_param, workload, false)},
	{.name = "name",
	 F_KIND(JSON_FIELD_NAME, struct setup_param, name, false)},
	{.name = "values", .kind = JSON_FIELD_OTHER},
};

/* The values of a setup parameter: strings, at least one. */
static int jr_setup_values(struct json_read *jr, const struct cJSON *obj,
			   struct setup_param *p)
{
	const struct json_field f = {.name = "values",
				     .kind = JSON_FIELD_STRING,
				     .max = NAMES_MAX_BYTES};
	const struct cJSON *arr, *el;
	size_t mark, i = 0;

	arr = json_read_array(jr, obj, "values", SETUP_MAX_ELEMENTS, &mark);
	if (!arr)
		return -1;
	if (!json_node_first(arr))
		return json_read_fail(jr, "no values");
	JSON_FOR_EACH(el, arr)
	{
		size_t m = json_read_push_index(jr, i++);
		char *v = NULL;

		if (json_read_field(jr, el, &f, &v))
			return -1;
		ALLOC_GROW(p->values, p->values_nr + 1, p->values_alloc);
		p->values[p->values_nr++] = v;
		json_read_pop(jr, m);
	}
	json_read_pop(jr, mark);
	return 0;
}

/* The "until" member of a setup, an object, into setup. */
static int jr_until(struct json_read *jr, const struct cJSON *node,
		    struct run_setup *setup)
{
	size_t mark = json_read_push_key(jr, "until"), amark, i = 0;
	const struct cJSON *pct, *arr, *el;

	if (!json_node_is_object(node))
		return json_read_type_fail(jr, node, "null or an object");
	if (json_read_object(jr, node, until_fields, ARRAY_SIZE(until_fields),
			     NULL))
		return -1;
	pct = json_node_get(node, "pct");
	if (!json_node_is_number(pct) || !(json_node_number(pct) > 0) ||
	    json_node_number(pct) > 100) {
		json_read_push_key(jr, "pct");
		return json_read_fail(jr,
				      "expected a number above 0, at most 100");
	}
	setup->until_pct = json_node_number(pct);
	arr = json_read_array(jr, node, "jobs", SETUP_MAX_ELEMENTS, &amark);
	if (!arr)
		return -1;
	JSON_FOR_EACH(el, arr)
	{
		size_t m = json_read_push_index(jr, i++);
		struct setup_stop *st;

		ALLOC_GROW(setup->stops, setup->stops_nr + 1,
			   setup->stops_alloc);
		st = &setup->stops[setup->stops_nr++];
		memset(st, 0, sizeof(*st));
		if (json_read_object(jr, el, stop_fields,
				     ARRAY_SIZE(stop_fields), st))
			return -1;
		json_read_pop(jr, m);
	}
	json_read_pop(jr, amark);
	json_read_pop(jr, mark);
	return 0;
}

int run_setup_read(struct json_read *jr, const struct cJSON *node,
		   struct run_setup *setup)
{
	const struct cJSON *arr, *el, *until;
	size_t mark, i = 0;

	if (json_read_object(jr, node, setup_fields, ARRAY_SIZE(setup_fields),
			     setup))
		return -1;
	until = json_node_get(node, "until");
	if (!json_node_is_null(until) && jr_until(jr, until, setup))
		return -1;
	arr = json_read_array(jr, node, "params", SETUP_MAX_ELEMENTS, &mark);
	if (!arr)
		return -1;
	JSON_FOR_EACH(el, arr)
	{
		size_t m = json_read_push_index(jr, i++);
		struct setup_param *p;

		ALLOC_GROW(setup->params, setup->params_nr + 1,
			   setup->params_alloc);
		p = &setup->params[setup->params_nr++];
		memset(p, 0, sizeof(*p));
		if (json_read_object(jr, el, setup_param_fields,
				     ARRAY_SIZE(setup_param_fields), p) ||
		    jr_setup_values(jr, el, p))
			return -1;
		json_read_pop(jr, m);
	}
	json_read_pop(jr, mark);
	return 0;
}

int run_setup_parse(const char *text, struct run_setup *setup,
		    struct strbuf *err)
{
	struct json_read jr = JSON_READ_INIT("setup", err);
	struct cJSON *root = json_read_tree(&jr, text, strlen(text), false);
	int ret = -1;

	if (root)
		ret = run_setup_read(&jr, root, setup);
	json_read_free(root);
	json_read_release(&jr);
	return ret;
}
