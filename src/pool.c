/* pool: which stored runs and samples a label pools, and why. */
#include "pool.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "run-setup.h"
#include "run-data.h"
#include "store.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"

static void drop_unmeasured_durations(struct run_data *rd)
{
	size_t out = 0;

	for (size_t i = 0; i < rd->durations_nr; i++) {
		struct bench_duration *d = &rd->durations[i];

		if (d->user_s == 0 && d->sys_s == 0 && d->elapsed_s == 0) {
			free(d->benchmark);
			continue;
		}
		rd->durations[out++] = *d;
	}
	rd->durations_nr = out;
}

/*
 * The measured iterations ri planned: its effective setup's count per
 * job times its jobs (the product of each workload's parameter values,
 * as the setup gives them after --param) times the boots of a run with
 * kernels; 0 when the setup or the config text is missing or unreadable.
 */
static int64_t planned_iterations(const struct run_info *ri)
{
	struct run_setup setup = {0};
	struct config cfg = CONFIG_INIT;
	struct strbuf err = STRBUF_INIT;
	int64_t jobs = 0, planned = 0;

	if (!ri->setup || !ri->config_text ||
	    run_setup_parse(ri->setup, &setup, &err) ||
	    config_load_buffer(&cfg, "config", ri->config_text,
			       strlen(ri->config_text), &err))
		goto out;
	for (size_t w = 0; w < cfg.workloads_nr; w++) {
		const struct workload_spec *wl = &cfg.workloads[w];
		int64_t combos = 1;

		for (size_t i = 0; i < wl->params_nr; i++) {
			size_t nr = wl->params[i].values.nr;

			for (size_t k = 0; k < setup.params_nr; k++)
				if (!strcmp(setup.params[k].workload,
					    wl->name) &&
				    !strcmp(setup.params[k].name,
					    wl->params[i].name))
					nr = setup.params[k].values_nr;
			combos *= (int64_t)nr;
		}
		jobs += combos;
	}
	planned = setup.iterations * jobs;
	if (cfg.kernels_nr)
		planned *= cfg.vm.boots;
out:
	run_setup_release(&setup);
	config_release(&cfg);
	strbuf_release(&err);
	return planned > 0 ? planned : 0;
}

/*
 * Whether run id of label joins the pool, noting in notes why not or
 * that it joins although incomplete. src gets the run's info and the
 * measured iterations it planned; *failed counts the failed measured
 * iterations of a run that joins, *empty those of them without samples.
 */
static int pool_run(struct store *st, const char *label, int64_t id,
		    const char *benchmark, bool include_incomplete,
		    struct strvec *notes, bool *join, int64_t *failed,
		    int64_t *empty, struct run_source *src, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	const char *status;
	int64_t all = 0;
	int ret = -1;

	if (store_run_get(st, id, &src->info, err) ||
	    store_count_iterations(st, id, benchmark, &all, failed, empty, err))
		goto out;
	status = src->info.status;
	*join = include_incomplete || !strcmp(status, "complete");
	src->planned = planned_iterations(&src->info);
	if (strcmp(status, "complete")) {
		strbuf_addf(
			&sb, "run %" PRId64 " of '%s' %s: %s after %" PRId64,
			id, label,
			*join ? "included (--include-incomplete)" : "left out",
			status, all);
		if (src->planned)
			strbuf_addf(&sb, " of %" PRId64, src->planned);
		strbuf_addf(&sb, " iteration%s",
			    (src->planned ? src->planned : all) == 1 ? ""
								     : "s");
		strvec_push(notes, sb.buf);
	}
	ret = 0;
out:
	strbuf_release(&sb);
	return ret;
}

/* The samples of rd's operations. */
static size_t samples_nr(const struct run_data *rd)
{
	size_t nr = 0;

	for (size_t i = 0; i < rd->ops_nr; i++)
		nr += rd->ops[i].nr;
	return nr;
}

/*
 * Add key to the rising distinct keys set[0..*nr) unless it is there:
 * appended when it is above them all, as each operation's iterations
 * come rising, else found or inserted by bisection.
 */
static void distinct_add(int64_t *set, size_t *nr, int64_t key)
{
	size_t lo = 0, hi = *nr;

	if (!*nr || set[*nr - 1] < key) {
		set[(*nr)++] = key;
		return;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (set[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (set[lo] == key)
		return;
	memmove(set + lo + 1, set + lo, (*nr - lo) * sizeof(*set));
	set[lo] = key;
	(*nr)++;
}

/* The iterations that gave rd's samples (one run, as loaded). */
static int64_t iterations_used(const struct run_data *rd)
{
	size_t total = 0, n = 0;
	int64_t *ids;

	for (size_t i = 0; i < rd->ops_nr; i++)
		total += rd->ops[i].spans_nr;
	ids = xcalloc(total + 1, sizeof(*ids));
	for (size_t i = 0; i < rd->ops_nr; i++) {
		const struct op_samples *op = &rd->ops[i];

		for (size_t s = 0;
		     op_samples_has(op, OP_KEY_ITERATION) && s < op->spans_nr;
		     s++)
			distinct_add(ids, &n,
				     op->spans[s].key[OP_KEY_ITERATION]);
	}
	free(ids);
	return (int64_t)n;
}

int pool_load(struct store *st, const char *label, const int64_t *only,
	      size_t only_nr, const char *benchmark, bool include_incomplete,
	      struct run_data *rd, size_t *loaded, struct strbuf *err)
{
	struct strvec notes = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	struct run_source *sources = NULL;
	size_t sources_nr = 0, sources_alloc = 0;
	int64_t *ids = NULL, failed_nr = 0, empty_nr = 0;
	size_t nr = 0;
	int ret = -1;

	*loaded = 0;
	if (store_find_runs(st, label, &ids, &nr, err))
		goto out;
	for (size_t i = 0; i < nr; i++) {
		struct run_data one = {0};
		struct run_source src = {0};
		bool want = !only_nr, join = true;
		int64_t failed = 0, empty = 0;

		for (size_t k = 0; k < only_nr && !want; k++)
			want = ids[i] == only[k];
		if (!want)
			continue;
		if (pool_run(st, label, ids[i], benchmark, include_incomplete,
			     &notes, &join, &failed, &empty, &src, err) ||
		    (join &&
		     (store_load_boots(st, ids[i], &src, err) ||
		      store_run_settings(st, ids[i], &src.settings, err)))) {
			run_source_release(&src);
			goto out;
		}
		if (!join) {
			run_source_release(&src);
			continue;
		}
		failed_nr += failed;
		empty_nr += empty;
		if ((include_incomplete ? store_load_run : store_load_run_ok)(
			    st, ids[i], benchmark, *loaded ? &one : rd, err)) {
			run_data_release(&one);
			run_source_release(&src);
			goto out;
		}
		src.samples = samples_nr(*loaded ? &one : rd);
		src.iterations = iterations_used(*loaded ? &one : rd);
		ALLOC_GROW(sources, sources_nr + 1, sources_alloc);
		sources[sources_nr++] = src;
		if ((*loaded)++) {
			run_data_merge(rd, &one);
			run_data_release(&one);
		}
	}
	drop_unmeasured_durations(rd);
	/*
	 * A failed iteration keeps only the samples it stored before it
	 * failed: --include-incomplete includes those that have some, and
	 * the note counts the others apart, as they change nothing.
	 */
	if (include_incomplete && empty_nr)
		failed_nr -= empty_nr;
	if (failed_nr) {
		strbuf_addf(&sb, "%" PRId64 " failed iteration%s of '%s' %s",
			    failed_nr, failed_nr == 1 ? "" : "s", label,
			    include_incomplete
				    ? "included (--include-incomplete)"
				    : "left out");
		strvec_push(&notes, sb.buf);
	}
	if (include_incomplete && empty_nr) {
		strbuf_reset(&sb);
		strbuf_addf(&sb,
			    "%" PRId64 " failed iteration%s of '%s' stored no "
			    "samples: nothing to include",
			    empty_nr, empty_nr == 1 ? "" : "s", label);
		strvec_push(&notes, sb.buf);
	}
	ret = 0;
out:
	/* The loaded runs' own notes (absent perf events) come last. */
	for (size_t i = 0; i < rd->notes.nr; i++)
		strvec_push(&notes, rd->notes.v[i]);
	strvec_clear(&rd->notes);
	rd->notes = notes;
	if (ret) {
		run_data_release(rd);
		for (size_t i = 0; i < sources_nr; i++)
			run_source_release(&sources[i]);
		free(sources);
	} else {
		rd->sources = sources;
		rd->sources_nr = sources_nr;
		rd->sources_alloc = sources_alloc;
	}
	strbuf_release(&sb);
	free(ids);
	return ret;
}

int pool_load_all(struct store *st, const char *label, const int64_t *only,
		  size_t only_nr, const char *benchmark, struct run_data *rd,
		  size_t *loaded, struct strbuf *err)
{
	return pool_load(st, label, only, only_nr, benchmark, true, rd, loaded,
			 err);
}
