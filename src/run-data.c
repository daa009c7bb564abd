/* run-data: owned value structs for runs, operations and samples. */
#include "run-data.h"

#include <stdlib.h>
#include <string.h>

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
	free(op->v);
	memset(op, 0, sizeof(*op));
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
	memset(rd, 0, sizeof(*rd));
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

void op_samples_add(struct op_samples *op, double value)
{
	ALLOC_GROW(op->v, op->nr + 1, op->alloc);
	op->v[op->nr++] = value;
}

void run_data_merge(struct run_data *dst, const struct run_data *src)
{
	for (size_t i = 0; i < src->ops_nr; i++) {
		const struct op_samples *so = &src->ops[i];
		struct op_samples *op =
			run_data_op(dst, so->benchmark, so->name, false);

		if (!op) {
			op = run_data_op(dst, so->benchmark, so->name, true);
			free(op->unit);
			op->unit = xstrdup(so->unit);
			op->higher_better = so->higher_better;
			op->decimals = so->decimals;
		}
		ALLOC_GROW(op->v, op->nr + so->nr, op->alloc);
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
}
