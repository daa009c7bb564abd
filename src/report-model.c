/* report-model: per operation what every label has of it, in units. */
#include "report-internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "stats.h"
#include "strbuf.h"
#include "strmap.h"
#include "util.h"

static int cmp_int64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/*
 * The sorted distinct values of key run (run ids) or iteration of
 * every sample of rd; operations that do not know it are skipped.
 */
int64_t *report_pooled_ids(const struct run_data *rd, bool runs, size_t *nr)
{
	int64_t *ids = NULL;
	size_t n = 0, alloc = 0, out = 0;

	for (size_t k = 0; k < rd->ops_nr; k++) {
		const struct op_samples *op = &rd->ops[k];
		enum op_key key = runs ? OP_KEY_RUN : OP_KEY_ITERATION;

		for (size_t s = 0; op_samples_has(op, key) && s < op->spans_nr;
		     s++) {
			ALLOC_GROW(ids, n + 1, alloc);
			ids[n++] = op->spans[s].key[key];
		}
	}
	if (n)
		qsort(ids, n, sizeof(*ids), cmp_int64);
	for (size_t i = 0; i < n; i++)
		if (!out || ids[out - 1] != ids[i])
			ids[out++] = ids[i];
	*nr = out;
	return ids;
}

void report_label_release(struct report_label *rl)
{
	if (!rl)
		return;
	free(rl->label);
	run_data_release(&rl->pooled);
	run_full_free_array(rl->runs, rl->runs_nr);
	for (size_t k = 0; k < REPORT_COUNTERS_NR; k++)
		monitor_series_list_release(&rl->series[k]);
	profile_rows_release(&rl->profiles);
	memset(rl, 0, sizeof(*rl));
}

static size_t group_index(struct strvec *groups, const char *name)
{
	for (size_t i = 0; i < groups->nr; i++)
		if (!strcmp(groups->v[i], name))
			return i;
	strvec_push(groups, name);
	return groups->nr - 1;
}

/* Seconds since the epoch of "YYYY-MM-DDTHH:MM:SSZ"; NaN when not one. */
static double parse_utc(const char *s)
{
	int f[6] = {0};
	static const int len[6] = {4, 2, 2, 2, 2, 2};
	long long y, m, d, era, yoe, doy, doe, days;

	if (!s || strlen(s) < 19)
		return NAN;
	for (size_t i = 0, pos = 0; i < 6; i++) {
		for (int k = 0; k < len[i]; k++, pos++) {
			if (s[pos] < '0' || s[pos] > '9')
				return NAN;
			f[i] = f[i] * 10 + (s[pos] - '0');
		}
		pos++; /* the separator */
	}
	/* Howard Hinnant's days_from_civil. */
	y = f[0] - (f[1] <= 2);
	m = f[1];
	d = f[2];
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	days = era * 146097 + doe - 719468;
	return (double)days * 86400 + f[3] * 3600.0 + f[4] * 60.0 + f[5];
}

static size_t find_op(const struct strmap *index, const char *bench,
		      const char *name)
{
	struct strbuf key = STRBUF_INIT;
	size_t at = SIZE_MAX;

	strbuf_addstr(&key, bench);
	strbuf_addch(&key, '\0');
	strbuf_addstr(&key, name);
	if (!strmap_get(index, key.buf, key.len, &at))
		at = SIZE_MAX;
	strbuf_release(&key);
	return at;
}

/*
 * The mean of u[0..n) and its 1 - alpha t interval, in the op's unit.
 * The sums are of u / s, s the largest |u|, so that values near DBL_MAX
 * neither overflow the sum nor the squares.
 */
static void mean_interval(struct report_label_op *lo, bool hb, double alpha)
{
	double sum = 0, ss = 0, s = 0, m, se, t;
	size_t n = 0;

	lo->mean = lo->lo = lo->hi = NAN;
	for (size_t i = 0; i < lo->nr; i++)
		if (isfinite(lo->u[i])) {
			s = fmax(s, fabs(lo->u[i]));
			n++;
		}
	if (!n)
		return;
	if (!(s > 0))
		s = 1;
	for (size_t i = 0; i < lo->nr; i++)
		if (isfinite(lo->u[i]))
			sum += lo->u[i] / s;
	m = sum / (double)n;
	lo->mean = hb ? 1 / (m * s) : m * s;
	if (n < 2)
		return;
	for (size_t i = 0; i < lo->nr; i++)
		if (isfinite(lo->u[i]))
			ss += (lo->u[i] / s - m) * (lo->u[i] / s - m);
	se = sqrt(ss / (double)(n - 1) / (double)n);
	t = stats_t_isf(alpha / 2, (double)(n - 1));
	/* Scaled back only now: m - t se may reach past DBL_MAX. */
	if (!hb) {
		lo->lo = (m - t * se) * s;
		lo->hi = (m + t * se) * s;
	} else if (m - t * se > 0) {
		lo->lo = 1 / ((m + t * se) * s);
		lo->hi = 1 / ((m - t * se) * s);
	}
}

/* Gather label li's samples per operation and turn them into units. */
static void gather_label(struct report_model *md, size_t li,
			 const struct strmap *index)
{
	const struct report_label *rl = &md->labels[li];
	size_t ops_nr = md->ops_nr;
	double **x = xcalloc(ops_nr, sizeof(*x));
	long long **key = xcalloc(ops_nr, sizeof(*key));
	size_t *n = xcalloc(ops_nr, sizeof(*n)), *alloc, pooled_nr = 0;
	int64_t *pooled;

	long long seq = 0; /* one key per iteration, whatever its id */

	alloc = xcalloc(ops_nr, sizeof(*alloc));
	/* Only the iterations compare pools (pool_load()). */
	pooled = report_pooled_ids(&rl->pooled, false, &pooled_nr);
	for (size_t r = 0; r < rl->runs_nr; r++) {
		const struct run_full *rf = &rl->runs[r];
		size_t *map = xcalloc(rf->ops_nr + 1, sizeof(*map));
		struct strbuf run_name = STRBUF_INIT;

		for (size_t k = 0; k < rf->ops_nr; k++)
			map[k] = find_op(index, rf->ops[k].benchmark,
					 rf->ops[k].name);
		strbuf_addf(&run_name, "run %lld", (long long)rf->info.id);
		for (size_t it = 0; it < rf->iters_nr; it++) {
			const struct iteration_data *id = &rf->iters[it];
			double t_s = parse_utc(id->started_at);
			size_t g = group_index(&md->groups,
					       id->build ? id->build
							 : run_name.buf);

			if (id->warmup || !bsearch(&id->id, pooled, pooled_nr,
						   sizeof(*pooled), cmp_int64))
				continue;
			seq++;
			for (size_t s = id->samples_first;
			     s < id->samples_first + id->samples_nr; s++) {
				size_t o = map[rf->samples[s].op];
				struct report_label_op *lo;

				if (o == SIZE_MAX)
					continue;
				lo = &md->ops[o].l[li];
				ALLOC_GROW(x[o], n[o] + 1, alloc[o]);
				key[o] = xrealloc(key[o],
						  alloc[o] * sizeof(*key[o]));
				x[o][n[o]] = rf->samples[s].value;
				key[o][n[o]++] = seq;
				/* One unit per iteration (the keys differ). */
				if (n[o] == 1 || key[o][n[o] - 2] != seq) {
					ALLOC_GROW(lo->t_s, lo->nr + 1,
						   lo->alloc);
					lo->group = xrealloc(
						lo->group,
						lo->alloc * sizeof(*lo->group));
					lo->t_s[lo->nr] = t_s;
					lo->group[lo->nr++] = g;
				}
			}
		}
		strbuf_release(&run_name);
		free(map);
	}
	for (size_t o = 0; o < ops_nr; o++) {
		struct report_label_op *lo = &md->ops[o].l[li];
		bool hb = md->ops[o].higher_better;
		size_t units;

		lo->u = xcalloc(n[o] + 1, sizeof(*lo->u));
		lo->value = xcalloc(n[o] + 1, sizeof(*lo->value));
		units = stats_unit_values(x[o], key[o], n[o], hb, lo->u, NULL);
		if (units != lo->nr)
			BUG("units %zu of %zu iterations", units, lo->nr);
		for (size_t k = 0; k < units; k++)
			lo->value[k] = hb ? 1 / lo->u[k] : lo->u[k];
		mean_interval(lo, hb, md->opts->compare.alpha);
		free(x[o]);
		free(key[o]);
	}
	free(x);
	free(key);
	free(n);
	free(alloc);
	free(pooled);
}

/* The job of the base's iterations with samples of each operation. */
static void find_jobs(struct report_model *md, const struct strmap *index)
{
	const struct report_label *base = &md->labels[0];
	bool *mixed = xcalloc(md->ops_nr + 1, sizeof(*mixed));

	for (size_t r = 0; r < base->runs_nr; r++) {
		const struct run_full *rf = &base->runs[r];

		for (size_t it = 0; it < rf->iters_nr; it++) {
			const struct iteration_data *id = &rf->iters[it];

			for (size_t s = id->samples_first;
			     id->job && s < id->samples_first + id->samples_nr;
			     s++) {
				const struct op_samples *op =
					&rf->ops[rf->samples[s].op];
				size_t o =
					find_op(index, op->benchmark, op->name);

				if (o == SIZE_MAX)
					continue;
				if (!md->ops[o].job)
					md->ops[o].job = id->job;
				else if (strcmp(md->ops[o].job, id->job))
					mixed[o] = true;
			}
		}
	}
	for (size_t o = 0; o < md->ops_nr; o++) {
		if (mixed[o])
			md->ops[o].job = NULL;
		for (size_t k = 0; k < o && md->ops[o].job; k++)
			md->ops[o].metric +=
				md->ops[k].job &&
				!strcmp(md->ops[k].bench, md->ops[o].bench) &&
				!strcmp(md->ops[k].job, md->ops[o].job);
	}
	free(mixed);
}

void report_model_build(struct report_model *md)
{
	const struct run_data *base = &md->labels[0].pooled;
	struct strmap index = STRMAP_INIT;
	struct strbuf key = STRBUF_INIT;

	md->ops = xcalloc(base->ops_nr + 1, sizeof(*md->ops));
	for (size_t i = 0; i < base->ops_nr; i++) {
		const struct op_samples *op = &base->ops[i];
		struct report_op *r = &md->ops[md->ops_nr];

		strbuf_setlen(&key, 0);
		strbuf_addstr(&key, op->benchmark);
		strbuf_addch(&key, '\0');
		strbuf_addstr(&key, op->name);
		if (find_op(&index, op->benchmark, op->name) != SIZE_MAX)
			continue;
		strmap_put(&index, key.buf, key.len, md->ops_nr++);
		r->bench = op->benchmark;
		r->name = op->name;
		r->unit = op->unit;
		r->higher_better = op->higher_better;
		r->l = xcalloc(md->nr, sizeof(*r->l));
	}
	for (size_t li = 0; li < md->nr; li++)
		gather_label(md, li, &index);
	find_jobs(md, &index);
	strbuf_release(&key);
	strmap_clear(&index);
}

void report_model_release(struct report_model *md)
{
	for (size_t o = 0; o < md->ops_nr; o++) {
		for (size_t li = 0; li < md->nr; li++) {
			free(md->ops[o].l[li].u);
			free(md->ops[o].l[li].value);
			free(md->ops[o].l[li].t_s);
			free(md->ops[o].l[li].group);
		}
		free(md->ops[o].l);
	}
	free(md->ops);
	strvec_clear(&md->groups);
}
