/* plan: expand workloads x parameters x builds into jobs. */
#include "plan.h"

#include "config.h"
#include "strbuf.h"

char *plan_substitute(const char *tmpl, char *const *names, char *const *values,
		      struct strbuf *err)
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
		strbuf_addstr(&sb, values[i]);
		p = close + 1;
	}
	return strbuf_detach(&sb, NULL);
fail:
	strbuf_release(&sb);
	return NULL;
}

static void job_release(struct job *job, size_t nr_ops)
{
	strvec_clear(&job->argv);
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

/* Add the job of wl for parameter combination idx[] under build b. */
static int add_job(struct plan *p, const struct workload_spec *wl,
		   const struct build_spec *b, size_t build_index,
		   const size_t *idx, struct strbuf *err)
{
	size_t np = wl->params_nr;
	struct strvec names = STRVEC_INIT, values = STRVEC_INIT;
	struct strbuf key = STRBUF_INIT;
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
	if (b)
		strvec_pushv(&job->argv, b->prefix.v);
	for (size_t i = 0; i < wl->command.nr; i++) {
		char *arg = plan_substitute(wl->command.v[i], names.v, values.v,
					    err);

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
	}
	ret = 0;
out:
	p->nr++; /* counted either way, so plan_release() frees it */
	strvec_clear(&names);
	strvec_clear(&values);
	return ret;
}

/* Fail when two jobs of the same build give one operation name. */
static int check_unique_ops(const struct plan *p, struct strbuf *err)
{
	for (size_t i = 0; i < p->nr; i++) {
		const struct job *a = &p->jobs[i];

		for (size_t j = i + 1; j < p->nr; j++) {
			const struct job *b = &p->jobs[j];

			if (a->build_index != b->build_index ||
			    strcmp(a->wl->name, b->wl->name))
				continue;
			for (size_t m = 0; m < a->wl->metrics_nr; m++)
				for (size_t n = 0; n < b->wl->metrics_nr; n++)
					if (!strcmp(a->ops[m], b->ops[n]))
						return error_addf(
							err,
							"workload '%s': jobs '%s' and '%s' both produce operation '%s'",
							a->wl->name, a->key,
							b->key, a->ops[m]);
		}
	}
	return 0;
}

int plan_build(struct plan *p, const struct config *cfg, struct strbuf *err)
{
	size_t nb = cfg->builds_nr ? cfg->builds_nr : 1;

	p->builds_nr = nb;
	for (size_t b = 0; b < nb; b++) {
		const struct build_spec *build =
			cfg->builds_nr ? &cfg->builds[b] : NULL;

		for (size_t w = 0; w < cfg->workloads_nr; w++) {
			const struct workload_spec *wl = &cfg->workloads[w];
			size_t *idx = xcalloc(wl->params_nr + 1, sizeof(*idx));
			bool done = false;

			while (!done) {
				size_t k;

				if (add_job(p, wl, build, b, idx, err)) {
					free(idx);
					return -1;
				}
				/* Odometer: the last parameter varies fastest.
				 */
				for (k = wl->params_nr; k > 0; k--) {
					if (++idx[k - 1] <
					    wl->params[k - 1].values.nr)
						break;
					idx[k - 1] = 0;
				}
				done = k == 0;
			}
			free(idx);
		}
	}
	return check_unique_ops(p, err);
}
