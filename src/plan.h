#ifndef MMCMP_PLAN_H
#define MMCMP_PLAN_H

#include <stddef.h>

#include "strvec.h"

struct strbuf;
struct config;
struct workload_spec;
struct build_spec;

/*
 * plan: the expansion of a config into jobs. A job is one command line to
 * run for every iteration: one workload with one combination of its
 * parameters (the cartesian product in file order, the first parameter
 * varying slowest), under one build. Jobs are ordered build by build,
 * then workload by workload, then by parameters.
 *
 * A plan points into the config it was built from (wl, build), so the
 * config must outlive it; everything else belongs to the plan and is
 * freed by plan_release().
 */

struct job {
	const struct workload_spec *wl;
	const struct build_spec *build; /* NULL when the config has no builds */
	size_t build_index;		/* 0 without builds */
	struct strvec argv;		/* build prefix + substituted command */
	char *key; /* "mode=threads tasks=2", "" without params */
	struct strvec names, values; /* the parameters, for plan_substitute() */
	char **ops;		     /* operation name per metric of wl */
};

struct plan {
	struct job *jobs;
	size_t nr, alloc;
	size_t builds_nr; /* 1 without builds */
};

#define PLAN_INIT                                                              \
	{                                                                      \
		0                                                              \
	}

/*
 * Expand cfg into p. Fails (with one line in err) only for a placeholder
 * that names no parameter or two jobs that produce the same operation.
 */
int plan_build(struct plan *p, const struct config *cfg, struct strbuf *err);
void plan_release(struct plan *p);

/*
 * The special parameter value that expands to task counts from 1 up to
 * twice the number of CPUs, in a topology-aware stride (see
 * plan_cpu_range()).
 */
#define PLAN_CPU_RANGE "@cpu-range"

/*
 * The task counts PLAN_CPU_RANGE stands for on a machine with nr_cpus
 * online CPUs of which nr_cores are physical cores: 1, the powers of two,
 * the number of cores, of CPUs and twice that, each at most 2 * nr_cpus,
 * ascending and without repeats (like mmtests' topology walk, which puts
 * points on the SMT and socket boundaries). Appended to out as strings.
 */
void plan_cpu_range(long nr_cpus, long nr_cores, struct strvec *out);

/*
 * Prepare cfg's parameters for plan_build(): replace every value
 * PLAN_CPU_RANGE by plan_cpu_range() of this machine, and apply the
 * overrides, each "NAME=V1,V2,...", to every workload that has parameter
 * NAME. An override that names no parameter of any workload fails.
 */
int plan_prepare(struct config *cfg, char *const *overrides,
		 struct strbuf *err);

/*
 * Substitute every {name} in tmpl from the NULL-terminated names/values
 * arrays; "{{" and "}}" stand for literal braces. Returns a new string, or
 * NULL after a line in err when a name is unknown or a brace unbalanced.
 */
char *plan_substitute(const char *tmpl, char *const *names, char *const *values,
		      struct strbuf *err);

#endif /* MMCMP_PLAN_H */
