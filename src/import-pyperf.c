/* import-pyperf: pyperf's JSON files (format version "1.0"). */
#include "import.h"

#include <string.h>

#include "json-read.h"
#include "json.h"
#include "run-data.h"
#include "strbuf.h"
#include "util.h"

#define PP_BENCHMARK "pyperf"
#define PP_VERSION   "1.0"

/* pyperf's units and mmcmp's names for them. */
static const struct {
	const char *pyperf, *unit;
} pp_units[] = {
	{"second", "s"},
	{"byte", "B"},
	{"integer", ""},
};

struct pp_parser {
	struct json_read jr;
	const struct import_options *opts;
	char *file_label;
	struct import_builder b;
	struct strbuf label;
	/* Metadata, most specific first: run, benchmark, suite. */
	const struct cJSON *md[3];
	size_t values;
};

/* The metadata value key as the run sees it, or NULL. */
static const struct cJSON *pp_meta(const struct pp_parser *p, const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(p->md); i++) {
		const struct cJSON *v = json_node_get(p->md[i], key);

		if (v && (json_node_is_string(v) || json_node_is_number(v)))
			return v;
	}
	return NULL;
}

/*
 * The kernel release in platform.platform()'s "Linux-RELEASE-MACHINE"
 * with an optional "-with-..." tail, or NULL.
 */
static char *pp_kernel_release(const char *platform)
{
	const char *rel = platform + strlen("Linux-"), *with, *machine;

	if (strncmp(platform, "Linux-", strlen("Linux-")) != 0)
		return NULL;
	with = strstr(rel, "-with-");
	if (!with)
		with = rel + strlen(rel);
	for (machine = with; machine > rel && machine[-1] != '-'; machine--)
		;
	if (machine <= rel + 1)
		return NULL;
	return xstrndup(rel, (size_t)(machine - 1 - rel));
}

/* Machine facts of a new run, from its first run's metadata. */
static void pp_machine(const struct pp_parser *p, struct machine_info *m)
{
	const struct cJSON *host = pp_meta(p, "hostname");
	const struct cJSON *cpu = pp_meta(p, "cpu_model_name");
	const struct cJSON *count = pp_meta(p, "cpu_count");
	const struct cJSON *platform = pp_meta(p, "platform");

	if (json_node_is_string(host))
		m->hostname = xstrdup(json_node_string(host));
	if (json_node_is_string(cpu))
		m->cpu_model = xstrdup(json_node_string(cpu));
	if (json_node_is_number(count) && json_node_number(count) >= 1 &&
	    json_node_number(count) < 1e9)
		m->nr_cpus = (int64_t)json_node_number(count);
	if (json_node_is_string(platform))
		m->kernel_release =
			pp_kernel_release(json_node_string(platform));
}

/* One element of a benchmark's "runs": an iteration with its values. */
static int pp_run(struct pp_parser *p, const struct cJSON *run,
		  const char *name, const char *unit)
{
	const struct cJSON *values, *warmups, *md, *v, *duration, *rss;
	struct iteration_data *it;
	const char *why;
	bool created;
	size_t r, op, i = 0, len;

	if (json_read_check(&p->jr, run, JSON_READ_OBJECT) ||
	    json_read_member(&p->jr, run, "values", JSON_READ_ARRAY, false,
			     &values) ||
	    json_read_member(&p->jr, run, "warmups", JSON_READ_ARRAY, false,
			     &warmups) ||
	    json_read_member(&p->jr, run, "metadata", JSON_READ_OBJECT, false,
			     &md))
		return -1;
	/* A calibration run has warm-ups only: nothing to compare. */
	if (!values)
		return 0;
	p->md[0] = md;
	strbuf_reset(&p->label);
	if (p->opts->label_by) {
		const struct cJSON *l = pp_meta(p, p->opts->label_by);

		if (!l)
			return json_read_fail(&p->jr, "no metadata '%s'",
					      p->opts->label_by);
		json_read_add_scalar(&p->label, l);
	} else {
		strbuf_addstr(&p->label, p->file_label);
	}
	if (!import_name_ok(p->label.buf, &why))
		return json_read_fail(&p->jr, "the label is %s", why);
	r = import_builder_run(&p->b, p->label.buf, &created);
	if (created)
		pp_machine(p, &p->b.runs[r].info.machine);
	op = import_builder_op(&p->b, r, PP_BENCHMARK, name, unit, false);
	it = import_builder_iteration(&p->b, r, PP_BENCHMARK, name);
	duration = pp_meta(p, "duration");
	rss = pp_meta(p, "mem_max_rss");
	if (json_node_is_number(duration) && json_node_number(duration) >= 0)
		it->elapsed_s = json_node_number(duration);
	if (json_node_is_number(rss) && json_node_number(rss) >= 0 &&
	    json_node_number(rss) < 1e18)
		it->maxrss_kb = (int64_t)(json_node_number(rss) / 1024);
	len = json_read_push_key(&p->jr, "values");
	JSON_FOR_EACH(v, values)
	{
		size_t at = json_read_push_index(&p->jr, i++);

		if (json_read_check(&p->jr, v, JSON_READ_NUMBER))
			return -1;
		json_read_pop(&p->jr, at);
		import_builder_sample(&p->b, r, op, json_node_number(v));
		p->values++;
	}
	json_read_pop(&p->jr, len);
	return 0;
}

/* The unit of a benchmark's values, in mmcmp's words. */
static int pp_unit(struct pp_parser *p, const char **unit)
{
	const struct cJSON *u = pp_meta(p, "unit");

	*unit = "s";
	if (!u)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(pp_units); i++) {
		if (json_node_is_string(u) &&
		    !strcmp(json_node_string(u), pp_units[i].pyperf)) {
			*unit = pp_units[i].unit;
			return 0;
		}
	}
	return json_read_fail(
		&p->jr, "unknown unit (second, byte or integer expected)");
}

static int pp_benchmark(struct pp_parser *p, const struct cJSON *bench)
{
	const struct cJSON *md, *runs, *name, *run;
	const char *unit, *why;
	size_t i = 0, len;

	if (json_read_check(&p->jr, bench, JSON_READ_OBJECT) ||
	    json_read_member(&p->jr, bench, "metadata", JSON_READ_OBJECT, false,
			     &md) ||
	    json_read_member(&p->jr, bench, "runs", JSON_READ_ARRAY, true,
			     &runs))
		return -1;
	p->md[0] = NULL;
	p->md[1] = md;
	name = pp_meta(p, "name");
	len = json_read_push_key(&p->jr, "metadata");
	if (!json_node_is_string(name))
		return json_read_fail(&p->jr, "no benchmark name ('name')");
	if (!import_name_ok(json_node_string(name), &why))
		return json_read_fail(&p->jr, "the benchmark name is %s", why);
	if (pp_unit(p, &unit))
		return -1;
	json_read_pop(&p->jr, len);
	len = json_read_push_key(&p->jr, "runs");
	JSON_FOR_EACH(run, runs)
	{
		size_t at = json_read_push_index(&p->jr, i++);

		if (pp_run(p, run, json_node_string(name), unit))
			return -1;
		json_read_pop(&p->jr, at);
	}
	json_read_pop(&p->jr, len);
	return 0;
}

static int pp_document(struct pp_parser *p, const struct cJSON *root)
{
	const struct cJSON *version, *md, *benchmarks, *bench;
	size_t i = 0, len;

	if (json_read_check(&p->jr, root, JSON_READ_OBJECT) ||
	    json_read_member(&p->jr, root, "version", JSON_READ_SCALAR, true,
			     &version) ||
	    json_read_member(&p->jr, root, "metadata", JSON_READ_OBJECT, false,
			     &md) ||
	    json_read_member(&p->jr, root, "benchmarks", JSON_READ_ARRAY, true,
			     &benchmarks))
		return -1;
	if (!json_node_is_string(version) ||
	    strcmp(json_node_string(version), PP_VERSION)) {
		struct strbuf v = STRBUF_INIT;

		json_read_add_scalar(&v, version);
		json_read_push_key(&p->jr, "version");
		json_read_fail(
			&p->jr,
			"unsupported pyperf format version '%s' (%s expected)",
			v.buf, PP_VERSION);
		strbuf_release(&v);
		return -1;
	}
	p->md[2] = md;
	len = json_read_push_key(&p->jr, "benchmarks");
	JSON_FOR_EACH(bench, benchmarks)
	{
		size_t at = json_read_push_index(&p->jr, i++);

		if (pp_benchmark(p, bench))
			return -1;
		json_read_pop(&p->jr, at);
	}
	if (!p->values)
		return json_read_fail(&p->jr, "no run has values");
	json_read_pop(&p->jr, len);
	return 0;
}

static int pyperf_parse(const char *path, const char *buf, size_t len,
			const struct import_options *opts,
			struct run_full **runs, size_t *nr, struct strbuf *err)
{
	struct pp_parser p = {
		.jr = JSON_READ_INIT(path, err),
		.opts = opts,
		.label = STRBUF_INIT,
	};
	struct cJSON *root = NULL;
	int ret = -1;

	*runs = NULL;
	*nr = 0;
	p.file_label = import_file_label(path);
	import_builder_init(&p.b, "pyperf", opts->started_at);
	root = json_read_parse(&p.jr, buf, len);
	if (!root || pp_document(&p, root))
		goto out;
	import_builder_finish(&p.b, path, buf, len, runs, nr);
	ret = 0;
out:
	json_read_free(root);
	import_builder_release(&p.b);
	json_read_release(&p.jr);
	strbuf_release(&p.label);
	free(p.file_label);
	return ret;
}

/* An object with "benchmarks" (an array) and "version". */
static bool pyperf_detect(const char *path, const char *buf, size_t len)
{
	(void)path;
	return json_read_detect(buf, len, "benchmarks", "version", NULL);
}

const struct import_format import_pyperf = {
	.name = "pyperf",
	.detect = pyperf_detect,
	.parse = pyperf_parse,
	.max_bytes = JSON_IMPORT_MAX_BYTES,
};
