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
		if (!strcmp(op->benchmark, benchmark) && !strcmp(op->name, name))
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
