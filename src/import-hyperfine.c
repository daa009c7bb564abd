/* import-hyperfine: the documents of `hyperfine --export-json`. */
#include "import.h"

#include <string.h>

#include "json-read.h"
#include "json.h"
#include "run-data.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"

#define HF_BENCHMARK "hyperfine"
#define HF_OPERATION "time" /* when no parameter names it */
/* user and system seconds: what mmcmp's export takes (json-read.h). */
#define HF_MAX_SECONDS 1e9

/* A time of a result, and how its run ended. */
struct hf_time {
	double s;
	int32_t code; /* hf_exit_code() checks the range */
	bool signalled;
};

/*
 * A result as read from the tree, which is freed before the runs are
 * built: a tree costs 80 bytes a number, the times here 16.
 */
struct hf_result {
	char *label, *op, *command;
	double user_s, sys_s;
	struct hf_time *v;
	size_t nr;
};

struct hf_parser {
	struct json_read jr;
	const struct import_options *opts;
	struct import_builder b;
	struct strbuf label, op;
	struct hf_result *res;
	size_t res_nr, res_alloc;
};

/*
 * The label and operation of a result: the command and "time", or with
 * label_by the value of that parameter and the other parameters as
 * "k=v k=v" ("time" when there are none), so that the commands of one
 * label are told apart and each label has the same operations.
 */
static int hf_names(struct hf_parser *p, const struct cJSON *res,
		    const char *command)
{
	const char *by = p->opts->label_by, *why;
	const struct cJSON *params, *v;
	bool found = false;
	size_t len;

	strbuf_reset(&p->label);
	strbuf_reset(&p->op);
	if (json_read_member(&p->jr, res, "parameters", JSON_READ_OBJECT, false,
			     &params))
		return -1;
	len = json_read_push_key(&p->jr, "parameters");
	if (params && json_read_unique(&p->jr, params))
		return -1;
	json_read_pop(&p->jr, len);
	len = json_read_push_key(&p->jr, "parameters");
	JSON_FOR_EACH(v, params)
	{
		size_t at = json_read_push_key(&p->jr, json_node_key(v));

		if (json_read_check(&p->jr, v, JSON_READ_SCALAR))
			return -1;
		json_read_pop(&p->jr, at);
		if (!by)
			continue;
		if (!strcmp(json_node_key(v), by) && !found) {
			json_read_add_scalar(&p->label, v);
			found = true;
			continue;
		}
		strbuf_addf(&p->op, "%s%s=", p->op.len ? " " : "",
			    json_node_key(v));
		json_read_add_scalar(&p->op, v);
	}
	if (by && !found)
		return json_read_fail(&p->jr, "no parameter '%s'", by);
	json_read_pop(&p->jr, len);
	if (!by)
		strbuf_addstr(&p->label, command);
	if (!p->op.len)
		strbuf_addstr(&p->op, HF_OPERATION);
	if (!import_name_ok(p->label.buf, &why))
		return json_read_fail(&p->jr, "the label is %s", why);
	if (!import_name_ok(p->op.buf, &why))
		return json_read_fail(&p->jr, "the operation name is %s", why);
	return 0;
}

/*
 * The exit code c of run i (NULL: none recorded): *code, or *signalled
 * for hyperfine's null.
 */
static int hf_exit_code(struct hf_parser *p, const struct cJSON *c, size_t i,
			int64_t *code, bool *signalled)
{
	size_t len;
	int ret = 0;

	*code = 0;
	*signalled = false;
	if (!c)
		return 0;
	len = json_read_push_key(&p->jr, "exit_codes");
	json_read_push_index(&p->jr, i);
	if (json_node_is_null(c))
		*signalled = true;
	else if (json_read_check(&p->jr, c, JSON_READ_NUMBER))
		ret = -1;
	else if (!(json_node_number(c) >= INT32_MIN &&
		   json_node_number(c) <= INT32_MAX) ||
		 json_node_number(c) != (double)(int64_t)json_node_number(c))
		ret = json_read_fail(&p->jr, "not an integer exit code");
	else
		*code = (int64_t)json_node_number(c);
	json_read_pop(&p->jr, len);
	return ret;
}

/*
 * The user or system time of a result, key, into *out (0 when absent):
 * from 0 to HF_MAX_SECONDS, so that the runs export again.
 */
static int hf_seconds(struct hf_parser *p, const struct cJSON *node,
		      const char *key, double *out)
{
	size_t len;
	int ret = 0;

	*out = node ? json_node_number(node) : 0;
	if (*out >= 0 && *out <= HF_MAX_SECONDS)
		return 0;
	len = json_read_push_key(&p->jr, key);
	ret = json_read_fail(&p->jr, "%.17g is out of range (0 to 1e9 seconds)",
			     *out);
	json_read_pop(&p->jr, len);
	return ret;
}

/* A warning when a command's label had a result already: they merge. */
static void hf_merged(struct hf_parser *p, size_t k, const char *label)
{
	struct strbuf note = STRBUF_INIT;

	if (!p->opts->warnings)
		return;
	strbuf_addf(&note,
		    "%s: results[%zu]: the command of an earlier result again; "
		    "their times merge under label '%s'",
		    p->jr.file, k, json_read_quote(&p->jr, 0, label));
	strvec_push(p->opts->warnings, note.buf);
	strbuf_release(&note);
}

/* One element of "results": one iteration per time. */
static int hf_result(struct hf_parser *p, const struct cJSON *res)
{
	const struct cJSON *command, *times, *codes, *user, *sys, *t, *code_at;
	const char *why;
	double user_s, sys_s;
	struct hf_result *r;

	if (json_read_check(&p->jr, res, JSON_READ_OBJECT) ||
	    json_read_unique(&p->jr, res) ||
	    json_read_member(&p->jr, res, "command", JSON_READ_STRING, true,
			     &command) ||
	    json_read_member(&p->jr, res, "times", JSON_READ_ARRAY, true,
			     &times) ||
	    json_read_member(&p->jr, res, "exit_codes", JSON_READ_ARRAY, false,
			     &codes) ||
	    json_read_member(&p->jr, res, "user", JSON_READ_NUMBER, false,
			     &user) ||
	    json_read_member(&p->jr, res, "system", JSON_READ_NUMBER, false,
			     &sys) ||
	    hf_seconds(p, user, "user", &user_s) ||
	    hf_seconds(p, sys, "system", &sys_s) ||
	    hf_names(p, res, json_node_string(command)))
		return -1;
	if (codes && json_node_size(codes) != json_node_size(times))
		return json_read_fail(&p->jr, "%d exit codes for %d times",
				      json_node_size(codes),
				      json_node_size(times));
	if (!import_name_ok(json_node_string(command), &why))
		return json_read_fail(&p->jr, "the command is %s", why);
	ALLOC_GROW(p->res, p->res_nr + 1, p->res_alloc);
	r = &p->res[p->res_nr++];
	memset(r, 0, sizeof(*r));
	r->label = xstrdup(p->label.buf);
	r->op = xstrdup(p->op.buf);
	r->command = xstrdup(json_node_string(command));
	r->user_s = user_s;
	r->sys_s = sys_s;
	r->v = xcalloc((size_t)json_node_size(times) + 1, sizeof(*r->v));
	code_at = codes ? json_node_first(codes) : NULL;
	JSON_FOR_EACH(t, times)
	{
		struct hf_time *ht = &r->v[r->nr];
		size_t len = json_read_push_key(&p->jr, "times");
		int64_t code;

		json_read_push_index(&p->jr, r->nr);
		if (json_read_check(&p->jr, t, JSON_READ_NUMBER))
			return -1;
		if (json_node_number(t) < 0)
			return json_read_fail(&p->jr,
					      "a time cannot be negative");
		json_read_pop(&p->jr, len);
		if (hf_exit_code(p, code_at, r->nr, &code, &ht->signalled))
			return -1;
		ht->code = (int32_t)code;
		code_at = code_at ? json_node_next(code_at) : NULL;
		ht->s = json_node_number(t);
		r->nr++;
	}
	return 0;
}

/* The runs of the results read: one iteration per time. */
static void hf_build(struct hf_parser *p)
{
	for (size_t k = 0; k < p->res_nr; k++) {
		struct hf_result *r = &p->res[k];
		bool created;
		size_t run = import_builder_run(&p->b, r->label, &created);
		size_t op = import_builder_op(&p->b, run, HF_BENCHMARK, r->op,
					      "s", false);

		if (!created && !p->opts->label_by)
			hf_merged(p, k, r->label);
		for (size_t i = 0; i < r->nr; i++) {
			struct iteration_data *it = import_builder_iteration(
				&p->b, run, HF_BENCHMARK, r->command);

			it->elapsed_s = r->v[i].s;
			it->user_s = r->user_s;
			it->sys_s = r->sys_s;
			if (r->v[i].signalled || r->v[i].code) {
				free(it->status);
				it->status = xstrdup(
					r->v[i].signalled ? "signal" : "exit");
				it->exit_code = r->v[i].code;
				continue;
			}
			import_builder_sample(&p->b, run, op, r->v[i].s);
		}
		/* Its times are in the run now: give their memory back. */
		free(r->v);
		r->v = NULL;
		r->nr = 0;
	}
}

static void hf_results_free(struct hf_parser *p)
{
	for (size_t k = 0; k < p->res_nr; k++) {
		free(p->res[k].label);
		free(p->res[k].op);
		free(p->res[k].command);
		free(p->res[k].v);
	}
	free(p->res);
}

static int hyperfine_parse(const char *path, const char *buf, size_t len,
			   const struct import_options *opts,
			   struct run_full **runs, size_t *nr,
			   struct strbuf *err)
{
	struct hf_parser p = {
		.jr = JSON_READ_INIT(path, err),
		.opts = opts,
		.label = STRBUF_INIT,
		.op = STRBUF_INIT,
	};
	struct cJSON *root = NULL;
	const struct cJSON *results, *res;
	size_t i = 0;
	int ret = -1;

	*runs = NULL;
	*nr = 0;
	import_builder_init(&p.b, "hyperfine", opts->started_at);
	/*
	 * Strict, as mmcmp's own import: a \u0000 would cut a command short
	 * (cJSON ends the string there) and merge it with another.
	 */
	root = json_read_tree(&p.jr, buf, len, true);
	if (!root || json_read_check(&p.jr, root, JSON_READ_OBJECT) ||
	    json_read_unique(&p.jr, root) ||
	    json_read_member(&p.jr, root, "results", JSON_READ_ARRAY, true,
			     &results))
		goto out;
	json_read_push_key(&p.jr, "results");
	if (!json_node_size(results)) {
		json_read_fail(&p.jr, "no results");
		goto out;
	}
	JSON_FOR_EACH(res, results)
	{
		size_t at = json_read_push_index(&p.jr, i++);

		if (hf_result(&p, res))
			goto out;
		json_read_pop(&p.jr, at);
	}
	json_read_free(root);
	root = NULL;
	hf_build(&p);
	import_builder_finish(&p.b, path, buf, len, runs, nr);
	ret = 0;
out:
	json_read_free(root);
	hf_results_free(&p);
	import_builder_release(&p.b);
	json_read_release(&p.jr);
	strbuf_release(&p.label);
	strbuf_release(&p.op);
	return ret;
}

/* An object whose "results" is an array (mmcmp's own have "format"). */
static bool hyperfine_detect(const char *path, const char *buf, size_t len)
{
	(void)path;
	return json_read_detect(buf, len, "results", NULL, "format");
}

const struct import_format import_hyperfine = {
	.name = "hyperfine",
	.detect = hyperfine_detect,
	.parse = hyperfine_parse,
	.max_bytes = JSON_IMPORT_MAX_BYTES,
};
