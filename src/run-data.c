/* run-data: owned value structs for runs, operations and samples. */
#include "run-data.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sha256.h"
#include "util.h"

void machine_info_release(struct machine_info *m)
{
	if (!m)
		return;
	free(m->hostname);
	free(m->kernel_release);
	free(m->kernel_version);
	free(m->cmdline);
	free(m->cpu_model);
	free(m->thp_enabled);
	free(m->thp_defrag);
	free(m->cpufreq_governor);
	free(m->smt);
	free(m->cgroup_mode);
	free(m->kernel_config_sha256);
	memset(m, 0, sizeof(*m));
}

void run_info_release(struct run_info *ri)
{
	if (!ri)
		return;
	free(ri->uuid);
	free(ri->label);
	free(ri->status);
	free(ri->config_name);
	free(ri->config_text);
	free(ri->config_hash);
	free(ri->started_at);
	free(ri->ended_at);
	free(ri->mmcmp_version);
	free(ri->cgroup);
	free(ri->setup);
	machine_info_release(&ri->machine);
	memset(ri, 0, sizeof(*ri));
}

void op_samples_release(struct op_samples *op)
{
	if (!op)
		return;
	free(op->benchmark);
	free(op->name);
	free(op->unit);
	if (!op->v_shared)
		free(op->v);
	if (!op->spans_shared)
		free(op->spans);
	memset(op, 0, sizeof(*op));
}

void monitor_table_release(struct monitor_table *mt)
{
	if (!mt)
		return;
	free(mt->benchmark);
	for (size_t i = 0; i < mt->counters_nr; i++) {
		free(mt->counters[i].name);
		free(mt->counters[i].v);
	}
	free(mt->counters);
	free(mt->other_cpu);
	for (size_t i = 0; mt->job && i < mt->iterations; i++)
		free(mt->job[i]);
	free(mt->job);
	memset(mt, 0, sizeof(*mt));
}

void run_data_release(struct run_data *rd)
{
	if (!rd)
		return;
	run_info_release(&rd->info);
	for (size_t i = 0; i < rd->ops_nr; i++)
		op_samples_release(&rd->ops[i]);
	free(rd->ops);
	for (size_t i = 0; i < rd->durations_nr; i++)
		free(rd->durations[i].benchmark);
	free(rd->durations);
	for (size_t i = 0; i < rd->monitors_nr; i++)
		monitor_table_release(&rd->monitors[i]);
	free(rd->monitors);
	for (size_t i = 0; i < rd->cgroups_nr; i++)
		monitor_table_release(&rd->cgroups[i]);
	free(rd->cgroups);
	for (size_t i = 0; i < rd->perf_nr; i++)
		monitor_table_release(&rd->perf[i]);
	free(rd->perf);
	for (size_t i = 0; i < rd->levels_nr; i++)
		monitor_table_release(&rd->levels[i]);
	free(rd->levels);
	strvec_clear(&rd->notes);
	strvec_clear(&rd->perf_scopes);
	for (size_t i = 0; i < rd->sources_nr; i++)
		run_source_release(&rd->sources[i]);
	free(rd->sources);
	for (size_t i = 0; i < rd->blocks_nr; i++)
		free(rd->blocks[i]);
	free(rd->blocks);
	memset(rd, 0, sizeof(*rd));
}

void run_boot_release(struct run_boot *b)
{
	if (!b)
		return;
	free(b->kernel);
	free(b->image);
	free(b->image_sha256);
	free(b->append);
	free(b->guest_release);
	free(b->guest_cmdline);
	free(b->accel);
	machine_info_release(&b->guest);
	memset(b, 0, sizeof(*b));
}

void run_source_release(struct run_source *src)
{
	if (!src)
		return;
	run_info_release(&src->info);
	for (size_t i = 0; i < src->boots_nr; i++)
		run_boot_release(&src->boots[i]);
	free(src->boots);
	strvec_clear(&src->settings);
	memset(src, 0, sizeof(*src));
}

void monitor_count_free(struct monitor_count *v, size_t nr)
{
	for (size_t i = 0; v && i < nr; i++)
		free(v[i].name);
	free(v);
}

void monitor_counts_add(struct monitor_counts *mc, const char *name,
			int64_t value)
{
	ALLOC_GROW(mc->v, mc->nr + 1, mc->alloc);
	mc->v[mc->nr].name = xstrdup(name);
	mc->v[mc->nr++].value = value;
}

static void monitor_counts_release(struct monitor_counts *mc)
{
	monitor_count_free(mc->v, mc->nr);
	memset(mc, 0, sizeof(*mc));
}

struct iteration_monitor *iteration_monitor_new(void)
{
	struct iteration_monitor *m = xcalloc(1, sizeof(*m));

	m->other_cpu = m->loadavg_start = m->loadavg_end = NAN;
	return m;
}

void iteration_monitor_free(struct iteration_monitor *m)
{
	if (!m)
		return;
	monitor_counts_release(&m->cgroup);
	monitor_counts_release(&m->cgroup_start);
	monitor_counts_release(&m->cgroup_end);
	monitor_counts_release(&m->vmstat);
	monitor_counts_release(&m->vmstat_end);
	monitor_counts_release(&m->cpu);
	monitor_counts_release(&m->meminfo_start);
	monitor_counts_release(&m->meminfo_end);
	for (size_t i = 0; i < m->samples_nr; i++) {
		monitor_counts_release(&m->samples[i].vmstat);
		monitor_counts_release(&m->samples[i].cpu);
		monitor_counts_release(&m->samples[i].meminfo);
	}
	free(m->samples);
	monitor_counts_release(&m->perf);
	free(m->perf_absent);
	free(m->perf_scope);
	free(m);
}

void iteration_data_release(struct iteration_data *it)
{
	if (!it)
		return;
	free(it->benchmark);
	free(it->job);
	free(it->build);
	free(it->status);
	free(it->started_at);
	free(it->stderr_tail);
	iteration_monitor_free(it->monitor);
	memset(it, 0, sizeof(*it));
}

void boot_data_release(struct boot_data *b)
{
	if (!b)
		return;
	free(b->kernel);
	free(b->image);
	free(b->image_sha256);
	free(b->image_release);
	free(b->append);
	free(b->accel);
	free(b->qemu_version);
	free(b->qemu_cmdline);
	free(b->pinning);
	free(b->guest_release);
	free(b->guest_cmdline);
	free(b->guest_facts);
	free(b->failed);
	memset(b, 0, sizeof(*b));
}

void run_full_release(struct run_full *rf)
{
	if (!rf)
		return;
	run_info_release(&rf->info);
	for (size_t i = 0; i < rf->ops_nr; i++)
		op_samples_release(&rf->ops[i]);
	free(rf->ops);
	for (size_t i = 0; i < rf->iters_nr; i++)
		iteration_data_release(&rf->iters[i]);
	free(rf->iters);
	free(rf->samples);
	for (size_t i = 0; i < rf->boots_nr; i++)
		boot_data_release(&rf->boots[i]);
	free(rf->boots);
	for (size_t i = 0; i < rf->settings_nr; i++) {
		free(rf->settings[i].path);
		free(rf->settings[i].old_value);
		free(rf->settings[i].new_value);
	}
	free(rf->settings);
	memset(rf, 0, sizeof(*rf));
}

void run_full_free_array(struct run_full *runs, size_t nr)
{
	if (!runs)
		return;
	for (size_t i = 0; i < nr; i++)
		run_full_release(&runs[i]);
	free(runs);
}

struct op_samples *run_data_op(struct run_data *rd, const char *benchmark,
			       const char *name, bool create)
{
	struct op_samples *op;

	for (size_t i = 0; i < rd->ops_nr; i++) {
		op = &rd->ops[i];
		if (!strcmp(op->benchmark, benchmark) &&
		    !strcmp(op->name, name))
			return op;
	}
	if (!create)
		return NULL;
	ALLOC_GROW(rd->ops, rd->ops_nr + 1, rd->ops_alloc);
	op = &rd->ops[rd->ops_nr++];
	memset(op, 0, sizeof(*op));
	op->benchmark = xstrdup(benchmark);
	op->name = xstrdup(name);
	op->unit = xstrdup("");
	op->decimals = 2;
	return op;
}

void run_info_set_config(struct run_info *ri, const char *name,
			 const char *text, size_t len)
{
	char hash[65];

	sha256_hex(text, len, hash);
	ri->config_name = xstrdup(name);
	ri->config_text = xstrdup(text);
	ri->config_hash = xstrdup(hash);
}

void op_samples_copy_props(struct op_samples *to, const struct op_samples *from)
{
	free(to->unit);
	to->unit = xstrdup(from->unit);
	to->higher_better = from->higher_better;
	to->decimals = from->decimals;
}

/*
 * Room for n elements of size bytes in p (nr of them in use, *alloc
 * room), grown as ALLOC_GROW() grows; an array that lies in a block of
 * its run_data's (*shared, run_data_reserve()) moves out into its own.
 */
static void *grow_array(void *p, size_t size, size_t nr, size_t n,
			size_t *alloc, bool *shared)
{
	void *q;

	if (n <= *alloc)
		return p;
	*alloc = alloc_nr(*alloc) < n ? n : alloc_nr(*alloc);
	if (!*shared)
		return xrealloc(p, *alloc * size);
	q = xmalloc(*alloc * size);
	if (nr)
		memcpy(q, p, nr * size);
	*shared = false;
	return q;
}

/* Room for n values in op->v. */
static void values_grow(struct op_samples *op, size_t n)
{
	op->v = grow_array(op->v, sizeof(*op->v), op->nr, n, &op->alloc,
			   &op->v_shared);
}

/* Room for n spans in op->spans. */
static void spans_grow(struct op_samples *op, size_t n)
{
	op->spans = grow_array(op->spans, sizeof(*op->spans), op->spans_nr, n,
			       &op->spans_alloc, &op->spans_shared);
}

static void samples_push(struct op_samples *op, double value)
{
	values_grow(op, op->nr + 1);
	op->v[op->nr++] = value;
}

/* Let op's last sample have keys key[]: a new span unless the last has them. */
static void span_push(struct op_samples *op, const int64_t *key)
{
	struct op_span *sp;

	if (op->spans_nr &&
	    !memcmp(op->spans[op->spans_nr - 1].key, key, sizeof(sp->key)))
		return;
	spans_grow(op, op->spans_nr + 1);
	sp = &op->spans[op->spans_nr++];
	sp->start = op->nr - 1;
	memcpy(sp->key, key, sizeof(sp->key));
}

/* Set key k of op's last sample to value, splitting its span if shared. */
static void span_set_last(struct op_samples *op, enum op_key k, int64_t value)
{
	struct op_span *last = &op->spans[op->spans_nr - 1];
	int64_t key[OP_KEY_NR];

	if (last->key[k] == value)
		return;
	if (last->start == op->nr - 1) {
		last->key[k] = value;
		return;
	}
	memcpy(key, last->key, sizeof(key));
	key[k] = value;
	span_push(op, key);
}

/* Forget key k of every sample of op. */
static void span_drop(struct op_samples *op, enum op_key k)
{
	op->known[k] = false;
	for (size_t s = 0; s < op->spans_nr; s++)
		op->spans[s].key[k] = 0;
}

void op_samples_add(struct op_samples *op, double value)
{
	if (op->spans_nr)
		BUG("unkeyed sample after %zu keyed ones", op->nr);
	samples_push(op, value);
}

/*
 * The size and alignment of a transparent huge page on x86-64, and the
 * least block that is aligned so: the 2 MiB ranges within it get huge
 * pages where the kernel gives them (THP madvise), the rest small ones.
 */
#define VALUES_HUGE	((size_t)2 << 20)
#define VALUES_HUGE_MIN (VALUES_HUGE / 2)

/* A block of bytes, 8-aligned, not zeroed, freed with free(). */
static void *values_block(size_t bytes)
{
	void *p = NULL;

	if (bytes < VALUES_HUGE_MIN)
		return xmalloc(bytes);
	if (posix_memalign(&p, VALUES_HUGE, bytes))
		die_oom(bytes);
	/* A hint: without huge pages the block is as any other. */
	(void)madvise(p, (bytes + 4095) & ~(size_t)4095, MADV_HUGEPAGE);
	return p;
}

/*
 * The nr elements of size bytes at p moved to `to`, room in a block:
 * p freed unless it lay in a block itself; *shared set.
 */
static void *into_block(void *p, size_t size, size_t nr, bool *shared, void *to)
{
	if (nr)
		memcpy(to, p, nr * size);
	if (!*shared)
		free(p);
	*shared = true;
	return to;
}

void run_data_reserve(struct run_data *rd, const size_t *values,
		      const size_t *spans)
{
	size_t nv = 0, ns = 0, at = 0, sat = 0;
	struct op_span *sp;
	double *v;
	char *block;

	for (size_t i = 0; i < rd->ops_nr; i++) {
		if (values[i] > rd->ops[i].alloc)
			nv += values[i];
		if (spans[i] > rd->ops[i].spans_alloc)
			ns += spans[i];
	}
	if (!nv && !ns)
		return;
	/* The spans first: their alignment is the doubles' or more. */
	block = values_block(ns * sizeof(*sp) + nv * sizeof(*v));
	sp = (struct op_span *)(void *)block;
	v = (double *)(void *)(block + ns * sizeof(*sp));
	for (size_t i = 0; i < rd->ops_nr; i++) {
		struct op_samples *op = &rd->ops[i];

		if (values[i] > op->alloc) {
			op->v = into_block(op->v, sizeof(*op->v), op->nr,
					   &op->v_shared, v + at);
			op->alloc = values[i];
			at += values[i];
		}
		if (spans[i] > op->spans_alloc) {
			op->spans = into_block(op->spans, sizeof(*op->spans),
					       op->spans_nr, &op->spans_shared,
					       sp + sat);
			op->spans_alloc = spans[i];
			sat += spans[i];
		}
	}
	ALLOC_GROW(rd->blocks, rd->blocks_nr + 1, rd->blocks_alloc);
	rd->blocks[rd->blocks_nr++] = block;
}

void op_samples_add_iteration(struct op_samples *op, double value,
			      int64_t iteration)
{
	int64_t key[OP_KEY_NR] = {0};

	if (op->nr && (!op->known[OP_KEY_ITERATION] || op->known[OP_KEY_RUN]))
		BUG("sample with an iteration after %zu others", op->nr);
	samples_push(op, value);
	op->known[OP_KEY_ITERATION] = true;
	key[OP_KEY_ITERATION] = iteration;
	span_push(op, key);
}

void op_samples_add_keyed(struct op_samples *op, double value,
			  int64_t iteration, int64_t run)
{
	int64_t key[OP_KEY_NR] = {0};

	if (op->nr && (!op->known[OP_KEY_ITERATION] || !op->known[OP_KEY_RUN]))
		BUG("keyed sample after %zu unkeyed ones", op->nr);
	if (op->spans_nr)
		memcpy(key, op->spans[op->spans_nr - 1].key, sizeof(key));
	samples_push(op, value);
	op->known[OP_KEY_ITERATION] = op->known[OP_KEY_RUN] = true;
	key[OP_KEY_ITERATION] = iteration;
	key[OP_KEY_RUN] = run;
	span_push(op, key);
}

double *op_samples_extend_like_last(struct op_samples *op, size_t n)
{
	double *v;

	if (!op->nr)
		BUG("no last sample to be like");
	values_grow(op, op->nr + n);
	v = op->v + op->nr;
	op->nr += n;
	return v;
}

/*
 * Key k of op's last keyed sample: value when known. The first sample
 * decides whether op knows k; an unknown one after it drops k for every
 * sample.
 */
static void set_last(struct op_samples *op, enum op_key k, bool known,
		     int64_t value, const char *what)
{
	if (!op->spans_nr)
		BUG("%s before any keyed sample", what);
	if (op->nr == 1)
		op->known[k] = known;
	if (!op->known[k])
		return;
	if (!known) {
		span_drop(op, k);
		return;
	}
	span_set_last(op, k, value);
}

void op_samples_set_boot(struct op_samples *op, int64_t boot)
{
	set_last(op, OP_KEY_BOOT, boot > 0, boot, "boot");
}

void op_samples_set_started(struct op_samples *op, bool known,
			    int64_t started_ms)
{
	set_last(op, OP_KEY_STARTED, known, started_ms, "start time");
}

bool op_samples_has(const struct op_samples *op, enum op_key key)
{
	return op->nr && op->known[key];
}

/* The span of op's sample i < op->nr; op has spans. */
static size_t span_of(const struct op_samples *op, size_t i)
{
	size_t lo = 0, hi = op->spans_nr - 1;

	if (op->spans[hi].start <= i)
		return hi;
	/* spans[lo].start <= i < spans[hi].start */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (op->spans[mid].start <= i)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

int64_t op_samples_key(const struct op_samples *op, enum op_key key, size_t i)
{
	if (i >= op->nr)
		BUG("sample %zu of %zu", i, op->nr);
	if (!op->known[key] || !op->spans_nr)
		return 0;
	return op->spans[span_of(op, i)].key[key];
}

void op_samples_keys(const struct op_samples *op, enum op_key key, int64_t *out)
{
	if (!op->known[key] || !op->spans_nr) {
		for (size_t i = 0; i < op->nr; i++)
			out[i] = 0;
		return;
	}
	for (size_t s = 0; s < op->spans_nr; s++) {
		size_t end = op_span_end(op, s);

		for (size_t i = op->spans[s].start; i < end; i++)
			out[i] = op->spans[s].key[key];
	}
}

size_t op_samples_iteration_end(const struct op_samples *op, size_t i)
{
	size_t s;

	if (i >= op->nr)
		BUG("sample %zu of %zu", i, op->nr);
	if (!op_samples_has(op, OP_KEY_ITERATION) || !op->spans_nr)
		return i + 1;
	s = span_of(op, i);
	while (s + 1 < op->spans_nr &&
	       op->spans[s + 1].key[OP_KEY_ITERATION] ==
		       op->spans[s].key[OP_KEY_ITERATION])
		s++;
	return op_span_end(op, s);
}

size_t op_span_end(const struct op_samples *op, size_t s)
{
	return s + 1 < op->spans_nr ? op->spans[s + 1].start : op->nr;
}

/*
 * Append src's spans to dst's, before its samples join dst->nr; a key that
 * either side lacks, dst lacks too.
 */
static void spans_merge(struct op_samples *dst, const struct op_samples *src)
{
	if (!src->nr)
		return;
	for (int k = 0; k < OP_KEY_NR; k++) {
		bool known = src->known[k] && (!dst->nr || dst->known[k]);

		if (!known && dst->known[k])
			span_drop(dst, (enum op_key)k);
		dst->known[k] = known;
	}
	spans_grow(dst, dst->spans_nr + src->spans_nr);
	for (size_t s = 0; s < src->spans_nr; s++) {
		struct op_span *sp = &dst->spans[dst->spans_nr++];

		*sp = src->spans[s];
		sp->start += dst->nr;
		for (int k = 0; k < OP_KEY_NR; k++)
			if (!dst->known[k])
				sp->key[k] = 0;
	}
}

/* The table of benchmark in (*v)[0..*nr), created as documented. */
static struct monitor_table *table_get(struct monitor_table **v, size_t *nr,
				       size_t *alloc, const char *benchmark,
				       bool create)
{
	struct monitor_table *mt;

	for (size_t i = 0; i < *nr; i++)
		if (!strcmp((*v)[i].benchmark, benchmark))
			return &(*v)[i];
	if (!create)
		return NULL;
	ALLOC_GROW(*v, *nr + 1, *alloc);
	mt = &(*v)[(*nr)++];
	memset(mt, 0, sizeof(*mt));
	mt->benchmark = xstrdup(benchmark);
	return mt;
}

struct monitor_table *run_data_monitors(struct run_data *rd,
					const char *benchmark, bool create)
{
	return table_get(&rd->monitors, &rd->monitors_nr, &rd->monitors_alloc,
			 benchmark, create);
}

struct monitor_table *run_data_cgroups(struct run_data *rd,
				       const char *benchmark, bool create)
{
	return table_get(&rd->cgroups, &rd->cgroups_nr, &rd->cgroups_alloc,
			 benchmark, create);
}

struct monitor_table *run_data_perf(struct run_data *rd, const char *benchmark,
				    bool create)
{
	return table_get(&rd->perf, &rd->perf_nr, &rd->perf_alloc, benchmark,
			 create);
}

struct monitor_table *run_data_levels(struct run_data *rd,
				      const char *benchmark, bool create)
{
	return table_get(&rd->levels, &rd->levels_nr, &rd->levels_alloc,
			 benchmark, create);
}

static void counter_pad(struct monitor_counter *c, size_t nr)
{
	ALLOC_GROW(c->v, nr, c->alloc);
	while (c->nr < nr)
		c->v[c->nr++] = 0.0;
}

void monitor_table_add_iteration(struct monitor_table *mt, double elapsed_s)
{
	ALLOC_GROW(mt->other_cpu, mt->iterations + 1, mt->other_cpu_alloc);
	mt->other_cpu[mt->iterations] = NAN;
	if (mt->job) {
		ALLOC_GROW(mt->job, mt->iterations + 1, mt->job_alloc);
		mt->job[mt->iterations] = NULL;
	}
	mt->iterations++;
	mt->elapsed_s += elapsed_s;
	for (size_t i = 0; i < mt->counters_nr; i++)
		counter_pad(&mt->counters[i], mt->iterations);
}

void monitor_table_set_job(struct monitor_table *mt, const char *job)
{
	if (!mt->iterations)
		BUG("monitor job before any iteration");
	if (!mt->job) {
		mt->job = xcalloc(mt->iterations, sizeof(*mt->job));
		mt->job_alloc = mt->iterations;
	}
	free(mt->job[mt->iterations - 1]);
	mt->job[mt->iterations - 1] = job ? xstrdup(job) : NULL;
}

const char *monitor_table_job(const struct monitor_table *mt, size_t k)
{
	return mt->job && k < mt->iterations ? mt->job[k] : NULL;
}

/* The index of counter name in mt, or counters_nr when it has none. */
static size_t counter_index(const struct monitor_table *mt, const char *name)
{
	size_t i;

	for (i = 0; i < mt->counters_nr; i++)
		if (!strcmp(mt->counters[i].name, name))
			break;
	return i;
}

const struct monitor_counter *monitor_table_get(const struct monitor_table *mt,
						const char *name)
{
	size_t i = counter_index(mt, name);

	return i < mt->counters_nr ? &mt->counters[i] : NULL;
}

/* Counter name of mt, added with a 0 for every iteration when new. */
static struct monitor_counter *counter_get(struct monitor_table *mt,
					   const char *name)
{
	size_t i = counter_index(mt, name);
	struct monitor_counter *c;

	if (i < mt->counters_nr)
		return &mt->counters[i];
	ALLOC_GROW(mt->counters, mt->counters_nr + 1, mt->counters_alloc);
	c = &mt->counters[mt->counters_nr++];
	memset(c, 0, sizeof(*c));
	c->name = xstrdup(name);
	counter_pad(c, mt->iterations);
	return c;
}

void monitor_table_set(struct monitor_table *mt, const char *name, double value)
{
	if (!mt->iterations)
		BUG("monitor value '%s' before any iteration", name);
	counter_get(mt, name)->v[mt->iterations - 1] = value;
}

/* Append src's iterations to dst's, counter by counter. */
static void monitor_table_merge(struct monitor_table *dst,
				const struct monitor_table *src)
{
	size_t base = dst->iterations;

	ALLOC_GROW(dst->other_cpu, base + src->iterations + 1,
		   dst->other_cpu_alloc);
	for (size_t k = 0; k < src->iterations; k++)
		dst->other_cpu[base + k] =
			src->other_cpu ? src->other_cpu[k] : NAN;
	if (src->job || dst->job) {
		if (!dst->job) {
			dst->job = xcalloc(base + 1, sizeof(*dst->job));
			dst->job_alloc = base + 1;
		}
		ALLOC_GROW(dst->job, base + src->iterations + 1,
			   dst->job_alloc);
		for (size_t k = 0; k < src->iterations; k++)
			dst->job[base + k] = src->job && src->job[k]
						     ? xstrdup(src->job[k])
						     : NULL;
	}
	dst->iterations += src->iterations;
	dst->elapsed_s += src->elapsed_s;
	for (size_t i = 0; i < dst->counters_nr; i++)
		counter_pad(&dst->counters[i], dst->iterations);
	for (size_t i = 0; i < src->counters_nr; i++) {
		const struct monitor_counter *sc = &src->counters[i];
		struct monitor_counter *c = counter_get(dst, sc->name);

		for (size_t k = 0; k < sc->nr && base + k < c->nr; k++)
			c->v[base + k] = sc->v[k];
	}
}

void run_data_merge(struct run_data *dst, const struct run_data *src)
{
	for (size_t i = 0; i < src->ops_nr; i++) {
		const struct op_samples *so = &src->ops[i];
		struct op_samples *op =
			run_data_op(dst, so->benchmark, so->name, false);

		if (!op) {
			op = run_data_op(dst, so->benchmark, so->name, true);
			op_samples_copy_props(op, so);
		}
		spans_merge(op, so);
		values_grow(op, op->nr + so->nr);
		if (so->nr)
			memcpy(op->v + op->nr, so->v, so->nr * sizeof(*so->v));
		op->nr += so->nr;
	}
	for (size_t i = 0; i < src->durations_nr; i++) {
		const struct bench_duration *sd = &src->durations[i];
		struct bench_duration *d = NULL;

		for (size_t k = 0; k < dst->durations_nr && !d; k++)
			if (!strcmp(dst->durations[k].benchmark, sd->benchmark))
				d = &dst->durations[k];
		if (!d) {
			ALLOC_GROW(dst->durations, dst->durations_nr + 1,
				   dst->durations_alloc);
			d = &dst->durations[dst->durations_nr++];
			memset(d, 0, sizeof(*d));
			d->benchmark = xstrdup(sd->benchmark);
		}
		d->user_s += sd->user_s;
		d->sys_s += sd->sys_s;
		d->elapsed_s += sd->elapsed_s;
		d->iterations += sd->iterations;
	}
	for (size_t i = 0; i < src->monitors_nr; i++)
		monitor_table_merge(
			run_data_monitors(dst, src->monitors[i].benchmark,
					  true),
			&src->monitors[i]);
	for (size_t i = 0; i < src->cgroups_nr; i++)
		monitor_table_merge(
			run_data_cgroups(dst, src->cgroups[i].benchmark, true),
			&src->cgroups[i]);
	for (size_t i = 0; i < src->perf_nr; i++)
		monitor_table_merge(
			run_data_perf(dst, src->perf[i].benchmark, true),
			&src->perf[i]);
	for (size_t i = 0; i < src->levels_nr; i++)
		monitor_table_merge(
			run_data_levels(dst, src->levels[i].benchmark, true),
			&src->levels[i]);
	for (size_t i = 0; i < src->notes.nr; i++)
		strvec_push_once(&dst->notes, src->notes.v[i]);
	for (size_t i = 0; i < src->perf_scopes.nr; i++)
		strvec_push_once(&dst->perf_scopes, src->perf_scopes.v[i]);
}
