/* plan: expand workloads x parameters x builds into jobs. */
#include "plan.h"

#include <ctype.h>
#include <unistd.h>

#include "config.h"
#include "names.h"
#include "strbuf.h"

/* Append v to sb as one sh word: single-quoted, each ' as '\''. */
static void add_sh_quoted(struct strbuf *sb, const char *v)
{
	strbuf_addch(sb, '\'');
	for (; *v; v++) {
		if (*v == '\'')
			strbuf_addstr(sb, "'\\''");
		else
			strbuf_addch(sb, *v);
	}
	strbuf_addch(sb, '\'');
}

/* plan_substitute(), with each value quoted for sh when `quote` is set. */
static char *substitute(const char *tmpl, char *const *names,
			char *const *values, bool quote, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = tmpl;

	while (*p) {
		const char *close;
		size_t len, i;

		if ((p[0] == '{' && p[1] == '{') ||
		    (p[0] == '}' && p[1] == '}')) {
			strbuf_addch(&sb, *p);
			p += 2;
			continue;
		}
		if (*p == '}') {
			error_addf(err, "unbalanced '}' in '%s'", tmpl);
			goto fail;
		}
		if (*p != '{') {
			strbuf_addch(&sb, *p++);
			continue;
		}
		close = strchr(p, '}');
		if (!close) {
			error_addf(err, "unbalanced '{' in '%s'", tmpl);
			goto fail;
		}
		len = (size_t)(close - p - 1);
		for (i = 0; names[i]; i++)
			if (strlen(names[i]) == len &&
			    !strncmp(names[i], p + 1, len))
				break;
		if (!names[i]) {
			error_addf(err, "unknown placeholder '{%.*s}' in '%s'",
				   (int)len, p + 1, tmpl);
			goto fail;
		}
		if (quote)
			add_sh_quoted(&sb, values[i]);
		else
			strbuf_addstr(&sb, values[i]);
		p = close + 1;
	}
	return strbuf_detach(&sb, NULL);
fail:
	strbuf_release(&sb);
	return NULL;
}

char *plan_substitute(const char *tmpl, char *const *names, char *const *values,
		      struct strbuf *err)
{
	return substitute(tmpl, names, values, false, err);
}

static void job_release(struct job *job, size_t nr_ops)
{
	strvec_clear(&job->argv);
	strvec_clear(&job->names);
	strvec_clear(&job->values);
	free(job->key);
	if (job->ops)
		for (size_t i = 0; i < nr_ops; i++)
			free(job->ops[i]);
	free(job->ops);
}

void plan_release(struct plan *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nr; i++)
		job_release(&p->jobs[i], p->jobs[i].wl->metrics_nr);
	free(p->jobs);
	memset(p, 0, sizeof(*p));
}

/*
 * Check name, of kind, against the limits of names.h: every name of a
 * run must be one its export can hold. The message names workload wl
 * and the job's parameters (key, "" for none).
 */
static int check_name(const struct workload_spec *wl, const char *key,
		      enum name_kind kind, const char *name, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT, q = STRBUF_INIT, w = STRBUF_INIT;
	int ret = names_check(kind, name, &why);

	if (ret) {
		names_quote(&q, key);
		names_quote(&w, wl->name);
		error_addf(err, "workload '%s'%s%s%s: %s", w.buf,
			   *key ? " (" : "", q.buf, *key ? ")" : "", why.buf);
	}
	strbuf_release(&why);
	strbuf_release(&q);
	strbuf_release(&w);
	return ret;
}

/* Add the job of wl for parameter combination idx[] under build b. */
static int add_job(struct plan *p, const struct workload_spec *wl,
		   const struct build_spec *b, size_t build_index,
		   const size_t *idx, struct strbuf *err)
{
	size_t np = wl->params_nr;
	struct strbuf key = STRBUF_INIT;
	struct strvec names = STRVEC_INIT, values = STRVEC_INIT;
	struct job *job;
	int ret = -1;

	ALLOC_GROW(p->jobs, p->nr + 1, p->alloc);
	job = &p->jobs[p->nr];
	memset(job, 0, sizeof(*job));
	job->wl = wl;
	job->build = b;
	job->build_index = build_index;
	strvec_init(&job->argv);
	job->ops = xcalloc(wl->metrics_nr, sizeof(*job->ops));

	for (size_t i = 0; i < np; i++) {
		strvec_push(&names, wl->params[i].name);
		strvec_push(&values, wl->params[i].values.v[idx[i]]);
		strbuf_addf(&key, "%s%s=%s", i ? " " : "", wl->params[i].name,
			    wl->params[i].values.v[idx[i]]);
	}
	job->key = strbuf_detach(&key, NULL);
	strvec_init(&job->names);
	strvec_init(&job->values);
	/* Every job is stored with its key, which an export must hold. */
	if (strlen(job->key) > NAMES_MAX_BYTES) {
		struct strbuf w = STRBUF_INIT, q = STRBUF_INIT;

		names_quote(&w, wl->name);
		names_quote(&q, job->key);
		error_addf(err,
			   "workload '%s': job '%s' too long (%zu bytes, at "
			   "most %zu): shorten its parameters' names or values",
			   w.buf, q.buf, strlen(job->key), NAMES_MAX_BYTES);
		strbuf_release(&w);
		strbuf_release(&q);
		goto out;
	}
	strvec_pushv(&job->names, names.v);
	strvec_pushv(&job->values, values.v);
	if (b)
		strvec_pushv(&job->argv, b->prefix.v);
	for (size_t i = 0; i < wl->command.nr; i++) {
		/* With shell: true the last argument is the script. */
		bool script = wl->shell && i + 1 == wl->command.nr;
		char *arg = substitute(wl->command.v[i], names.v, values.v,
				       script, err);

		if (!arg)
			goto out;
		strvec_push_nodup(&job->argv, arg);
	}
	strvec_push(&names, "metric");
	for (size_t m = 0; m < wl->metrics_nr; m++) {
		strvec_push(&values, wl->metrics[m].name);
		job->ops[m] =
			plan_substitute(wl->operation, names.v, values.v, err);
		free(values.v[--values.nr]);
		values.v[values.nr] = NULL;
		if (!job->ops[m])
			goto out;
		if (check_name(wl, job->key, NAME_OPERATION, job->ops[m], err))
			goto out;
	}
	ret = 0;
out:
	p->nr++; /* counted either way, so plan_release() frees it */
	strvec_clear(&names);
	strvec_clear(&values);
	return ret;
}

/* One operation name of one job, for finding duplicates. */
struct op_ref {
	const struct job *job;
	const char *op;
};

static int cmp_op_ref(const void *pa, const void *pb)
{
	const struct op_ref *a = pa, *b = pb;
	int c;

	if (a->job->build_index != b->job->build_index)
		return a->job->build_index < b->job->build_index ? -1 : 1;
	c = strcmp(a->job->wl->name, b->job->wl->name);
	return c ? c : strcmp(a->op, b->op);
}

/*
 * Fail when two jobs of the same build and workload give one operation
 * name: sort every (build, workload, operation) and compare neighbours,
 * O(n log n) in the number of operations.
 */
static int check_unique_ops(const struct plan *p, struct strbuf *err)
{
	struct op_ref *refs = NULL;
	size_t nr = 0, alloc = 0;
	int ret = 0;

	for (size_t i = 0; i < p->nr; i++) {
		for (size_t m = 0; m < p->jobs[i].wl->metrics_nr; m++) {
			ALLOC_GROW(refs, nr + 1, alloc);
			refs[nr].job = &p->jobs[i];
			refs[nr++].op = p->jobs[i].ops[m];
		}
	}
	if (nr > 1)
		qsort(refs, nr, sizeof(*refs), cmp_op_ref);
	for (size_t i = 1; i < nr; i++) {
		if (cmp_op_ref(&refs[i - 1], &refs[i]))
			continue;
		ret = error_addf(
			err,
			"workload '%s': jobs '%s' and '%s' both produce operation '%s'",
			refs[i].job->wl->name, refs[i - 1].job->key,
			refs[i].job->key, refs[i].op);
		break;
	}
	free(refs);
	return ret;
}

/*
 * Whether the run cfg expands to has at most CONFIG_MAX_OPERATIONS
 * operations: builds times, per workload, metrics times the product of
 * its params' value counts. Counted with overflow checks, before anything
 * is expanded.
 */
static bool run_size_ok(const struct config *cfg)
{
	size_t max = CONFIG_MAX_OPERATIONS;
	size_t builds = cfg->builds_nr ? cfg->builds_nr : 1, total = 0;

	for (size_t w = 0; w < cfg->workloads_nr; w++) {
		const struct workload_spec *wl = &cfg->workloads[w];
		size_t ops = wl->metrics_nr;

		for (size_t i = 0; i < wl->params_nr; i++) {
			size_t nr = wl->params[i].values.nr;

			if (nr && ops > max / nr)
				return false;
			ops *= nr;
		}
		if (ops > (max - total) / builds)
			return false;
		total += ops * builds;
	}
	return true;
}

static int fail_run_size(struct strbuf *err, const char *who)
{
	return error_addf(err,
			  "%s: the run would have more than %d operations "
			  "(builds times workloads' metrics and parameter "
			  "combinations)",
			  who, CONFIG_MAX_OPERATIONS);
}

bool plan_next_combination(const struct workload_spec *wl, size_t *pick)
{
	for (size_t i = wl->params_nr; i-- > 0;) {
		if (++pick[i] < wl->params[i].values.nr)
			return true;
		pick[i] = 0;
	}
	return false;
}

int plan_build(struct plan *p, const struct config *cfg, struct strbuf *err)
{
	size_t nb = cfg->builds_nr ? cfg->builds_nr : 1;

	if (!run_size_ok(cfg))
		return fail_run_size(err, cfg->path);
	p->builds_nr = nb;
	for (size_t b = 0; b < nb; b++) {
		const struct build_spec *build =
			cfg->builds_nr ? &cfg->builds[b] : NULL;

		for (size_t w = 0; w < cfg->workloads_nr; w++) {
			const struct workload_spec *wl = &cfg->workloads[w];
			size_t *idx;

			if (check_name(wl, "", NAME_BENCHMARK, wl->name, err))
				return -1;
			for (size_t m = 0; m < wl->metrics_nr; m++)
				if (check_name(wl, "", NAME_UNIT,
					       wl->metrics[m].unit
						       ? wl->metrics[m].unit
						       : "",
					       err))
					return -1;
			idx = xcalloc(wl->params_nr + 1, sizeof(*idx));

			do {
				if (add_job(p, wl, build, b, idx, err)) {
					free(idx);
					return -1;
				}
			} while (plan_next_combination(wl, idx));
			free(idx);
		}
	}
	return check_unique_ops(p, err);
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

void plan_cpu_range(long nr_cpus, long nr_cores, struct strvec *out)
{
	long v[72];
	size_t nr = 0;
	long max;

	if (nr_cpus < 1)
		nr_cpus = 1;
	if (nr_cores < 1 || nr_cores > nr_cpus)
		nr_cores = nr_cpus;
	max = 2 * nr_cpus;
	for (long p = 1; p <= max && nr < 64; p *= 2)
		v[nr++] = p;
	v[nr++] = nr_cores;
	v[nr++] = nr_cpus;
	v[nr++] = max;
	qsort(v, nr, sizeof(*v), cmp_long);
	for (size_t i = 0; i < nr; i++) {
		char buf[32];

		if (i && v[i] == v[i - 1])
			continue;
		snprintf(buf, sizeof(buf), "%ld", v[i]);
		strvec_push(out, buf);
	}
}

/* Whether the len bytes at s hold a control character. */
static bool has_control(const char *s, ptrdiff_t len)
{
	for (ptrdiff_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return true;
	return false;
}

/* A param name, as the config allows (config.c). */
static bool is_param_name(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return false;
	for (s++; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-')
			return false;
	return true;
}

/* Replace param's values by `values` (a copy). */
static void set_values(struct param_spec *param, const struct strvec *values)
{
	strvec_clear(&param->values);
	strvec_pushv(&param->values, values->v);
}

static int apply_override(struct config *cfg, const char *spec,
			  struct strbuf *err)
{
	const char *eq = strchr(spec, '=');
	struct strvec values = STRVEC_INIT;
	size_t hits = 0;
	char *name;

	if (!eq || eq == spec || !eq[1] || has_control(spec, eq - spec))
		return error_addf(err,
				  "--param: expected NAME=VALUE[,VALUE...], "
				  "NAME a parameter name");
	name = xstrndup(spec, (size_t)(eq - spec));
	if (!is_param_name(name)) {
		error_addf(err,
			   "--param '%s=...': bad parameter name; use a "
			   "letter or '_' then letters, digits, '_' or '-'",
			   name);
		goto fail;
	}
	for (const char *p = eq + 1;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (!len) {
			error_addf(err, "--param '%s=...': empty value", name);
			goto fail;
		}
		if (has_control(p, (ptrdiff_t)len)) {
			struct strbuf shown = STRBUF_INIT;

			names_escape(&shown, p, len);
			error_addf(err,
				   "--param '%s=...': value %zu '%s' contains "
				   "a control character",
				   name, values.nr + 1, shown.buf);
			strbuf_release(&shown);
			goto fail;
		}
		strvec_push_nodup(&values, xstrndup(p, len));
		if (!comma)
			break;
		p = comma + 1;
	}
	for (size_t w = 0; w < cfg->workloads_nr; w++) {
		struct workload_spec *wl = &cfg->workloads[w];

		for (size_t i = 0; i < wl->params_nr; i++) {
			if (strcmp(wl->params[i].name, name))
				continue;
			set_values(&wl->params[i], &values);
			hits++;
		}
	}
	if (!hits) {
		error_addf(
			err,
			"--param '%s=...': no workload of '%s' has a parameter '%s'",
			name, cfg->name, name);
		goto fail;
	}
	if (!run_size_ok(cfg)) {
		struct strbuf who = STRBUF_INIT;

		strbuf_addf(&who, "--param '%s=...'", name);
		fail_run_size(err, who.buf);
		strbuf_release(&who);
		goto fail;
	}
	strvec_clear(&values);
	free(name);
	return 0;
fail:
	strvec_clear(&values);
	free(name);
	return -1;
}

/* The number of physical cores: CPUs over the SMT siblings of cpu0. */
static long nr_cores(long nr_cpus)
{
	FILE *f = fopen(
		"/sys/devices/system/cpu/cpu0/topology/thread_siblings_list",
		"r");
	char buf[256];
	long siblings = 1;

	if (!f)
		return nr_cpus;
	if (fgets(buf, sizeof(buf), f)) {
		/* "0,4" or "0-1": count the CPUs named. */
		long a, b;
		char *p = buf;

		siblings = 0;
		while (*p && *p != '\n') {
			a = strtol(p, &p, 10);
			b = a;
			if (*p == '-')
				b = strtol(p + 1, &p, 10);
			siblings += b >= a ? b - a + 1 : 1;
			if (*p == ',')
				p++;
			else
				break;
		}
	}
	fclose(f);
	return siblings > 0 ? nr_cpus / siblings : nr_cpus;
}

int plan_prepare(struct config *cfg, char *const *overrides, struct strbuf *err)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct strvec range = STRVEC_INIT;

	plan_cpu_range(cpus, nr_cores(cpus), &range);
	for (size_t w = 0; w < cfg->workloads_nr; w++) {
		struct workload_spec *wl = &cfg->workloads[w];

		for (size_t i = 0; i < wl->params_nr; i++) {
			struct param_spec *param = &wl->params[i];
			struct strvec values = STRVEC_INIT;
			bool special = false;

			for (size_t k = 0; k < param->values.nr; k++) {
				if (strcmp(param->values.v[k],
					   PLAN_CPU_RANGE)) {
					strvec_push(&values,
						    param->values.v[k]);
					continue;
				}
				special = true;
				strvec_pushv(&values, range.v);
			}
			if (special)
				set_values(param, &values);
			strvec_clear(&values);
		}
	}
	strvec_clear(&range);
	if (!run_size_ok(cfg))
		return fail_run_size(err, cfg->path);
	for (size_t i = 0; overrides && overrides[i]; i++)
		if (apply_override(cfg, overrides[i], err))
			return -1;
	return 0;
}

/* The phases of a walk, in order. */
enum {
	WALK_SETUP,
	WALK_GROUP,
	WALK_JOB_SETUP,
	WALK_ITERATION,
	WALK_JOB_TEARDOWN,
	WALK_BUILD_TEARDOWN,
	WALK_TEARDOWN,
	WALK_DONE,
};

void plan_walk_init(struct plan_walk *w, const struct plan *p, long iterations,
		    bool interleave)
{
	memset(w, 0, sizeof(*w));
	w->plan = p;
	w->iterations = iterations;
	w->interleave = interleave && p->builds_nr > 1;
	w->phase = WALK_SETUP;
}

/* Jobs per build; the plan holds builds_nr equal blocks of them. */
static size_t per_build(const struct plan_walk *w)
{
	return w->plan->builds_nr ? w->plan->nr / w->plan->builds_nr : 0;
}

static size_t groups_nr(const struct plan_walk *w)
{
	return w->interleave ? per_build(w) : w->plan->nr;
}

static size_t group_size(const struct plan_walk *w)
{
	return w->interleave ? w->plan->builds_nr : 1;
}

/* The job of member m of group g. */
static size_t walk_job(const struct plan_walk *w, size_t g, size_t m)
{
	return w->interleave ? m * per_build(w) + g : g;
}

static bool emit(struct plan_walk *w, struct plan_step *step,
		 enum plan_step_kind kind, size_t job, long it)
{
	step->kind = kind;
	step->job = job;
	step->build = w->plan->nr ? w->plan->jobs[job].build_index : 0;
	step->iteration = it;
	step->round_end = false;
	return true;
}

bool plan_walk_next(struct plan_walk *w, struct plan_step *step)
{
	for (;;) {
		size_t j = 0;

		switch (w->phase) {
		case WALK_SETUP:
			w->phase = WALK_GROUP;
			emit(w, step, PLAN_STEP_SETUP, 0, 0);
			step->build = 0;
			return true;
		case WALK_GROUP:
			w->member = 0;
			w->jobs_set_up = 0;
			w->phase = w->group < groups_nr(w) && !w->finishing
					   ? WALK_JOB_SETUP
					   : WALK_BUILD_TEARDOWN;
			continue;
		case WALK_JOB_SETUP:
			if (w->member == group_size(w)) {
				w->member = 0;
				w->it = 0;
				w->phase = WALK_ITERATION;
				continue;
			}
			j = walk_job(w, w->group, w->member);
			/* A build's jobs are visited in order in both modes. */
			if (!w->build_done && w->plan->jobs[j].build &&
			    per_build(w) && j % per_build(w) == 0) {
				w->build_done = true;
				w->builds_set_up++;
				return emit(w, step, PLAN_STEP_BUILD_SETUP, j,
					    0);
			}
			w->build_done = false;
			w->jobs_set_up = ++w->member;
			return emit(w, step, PLAN_STEP_JOB_SETUP, j, 0);
		case WALK_ITERATION:
			if (w->it >= w->iterations) {
				w->member = 0;
				w->phase = WALK_JOB_TEARDOWN;
				continue;
			}
			/* Every other round reversed: A B B A A B ... */
			j = walk_job(w, w->group,
				     w->it % 2 ? group_size(w) - 1 - w->member
					       : w->member);
			emit(w, step, PLAN_STEP_ITERATION, j, w->it);
			step->round_end = w->member + 1 == group_size(w);
			if (++w->member == group_size(w)) {
				w->member = 0;
				w->it++;
			}
			return true;
		case WALK_JOB_TEARDOWN:
			if (w->member >= w->jobs_set_up) {
				w->group++;
				w->phase = WALK_GROUP;
				continue;
			}
			j = walk_job(w, w->group, w->member++);
			return emit(w, step, PLAN_STEP_JOB_TEARDOWN, j, 0);
		case WALK_BUILD_TEARDOWN:
			/* Builds are set up in build order, so these are the
			 * first builds_set_up builds. */
			if (w->member >= w->builds_set_up) {
				w->phase = WALK_TEARDOWN;
				continue;
			}
			j = w->member++ * per_build(w);
			return emit(w, step, PLAN_STEP_BUILD_TEARDOWN, j, 0);
		case WALK_TEARDOWN:
			w->phase = WALK_DONE;
			emit(w, step, PLAN_STEP_TEARDOWN, 0, 0);
			step->build = 0;
			return true;
		default:
			return false;
		}
	}
}

void plan_walk_finish(struct plan_walk *w)
{
	if (w->phase >= WALK_BUILD_TEARDOWN || w->finishing)
		return;
	w->finishing = true;
	if (w->phase == WALK_JOB_SETUP || w->phase == WALK_ITERATION) {
		/* The jobs set up so far are torn down, in order. */
		w->phase = WALK_JOB_TEARDOWN;
		w->member = 0;
	} else if (w->phase != WALK_JOB_TEARDOWN) {
		w->phase = WALK_BUILD_TEARDOWN;
		w->member = 0;
	}
}

void plan_walk_skip_job(struct plan_walk *w, size_t job)
{
	bool in_group = false;

	if (w->phase != WALK_ITERATION)
		return;
	for (size_t m = 0; m < group_size(w) && !in_group; m++)
		in_group = walk_job(w, w->group, m) == job;
	if (!in_group)
		return;
	w->it = w->iterations;
	w->member = 0;
}
