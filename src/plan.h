#ifndef MMCMP_PLAN_H
#define MMCMP_PLAN_H

#include <stdbool.h>
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
 * Expand cfg into p. Fails (with one line in err) for a run of more than
 * CONFIG_MAX_OPERATIONS operations (counted before anything is
 * allocated), a placeholder that names no parameter, two jobs that
 * produce the same operation, or a benchmark, unit or expanded operation
 * name outside the limits of names.h (too long, not UTF-8, a control
 * character).
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
 * NAME. An override that names no parameter of any workload fails, as
 * does one whose NAME is not a param name as the config allows, whose
 * value holds a control character, or after which the run would have
 * more than CONFIG_MAX_OPERATIONS operations (the message names the
 * override; the config file when @cpu-range alone goes over).
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

/*
 * The walk over a workload's parameter combinations, shared by plan_build()
 * and the config checks: pick[i] indexes wl->params[i].values, and starts
 * all zero (the first combination). Step pick to the next combination in
 * odometer order, the last parameter varying fastest; returns false, with
 * pick back at all zero, after the last one. A workload without
 * parameters has one combination.
 */
bool plan_next_combination(const struct workload_spec *wl, size_t *pick);

/*
 * The order of work of a run, as a pure iterator over a plan: nothing is
 * run, and the same plan and settings give the same steps.
 *
 *   PLAN_STEP_SETUP           the config's setup, first
 *   PLAN_STEP_BUILD_SETUP     a build's setup, just before its first job's
 *   PLAN_STEP_JOB_SETUP       a job's workload setup, before its iterations
 *   PLAN_STEP_ITERATION       iteration `iteration` (0-based, warm-ups
 *                             first) of job `job`
 *   PLAN_STEP_JOB_TEARDOWN    a job's workload teardown, after them
 *   PLAN_STEP_BUILD_TEARDOWN  after the last job, the teardown of each
 *                             build whose setup step was handed out, in
 *                             build order
 *   PLAN_STEP_TEARDOWN        the config's teardown, last
 *
 * Without interleaving, jobs run one after the other, build by build, all
 * iterations of a job in a row. With it, the k-th jobs of all builds form
 * a group: their setups, then their iterations in rounds of one per build,
 * every other round in reverse (A B B A A B ...), so that slow drift of the
 * machine affects every build alike and no build always runs right after
 * another (whose leftovers, freed memory or a warm cache, it would inherit),
 * then their teardowns. Build steps come only for jobs that have a build.
 *
 * plan_walk_finish() skips what is left before the teardowns, for a run
 * that stops early: the walk goes on with the workload teardowns of the
 * current group's jobs whose setup was handed out, then ends with the
 * teardowns of the builds set up so far and the config's. A walk holds no
 * resources: the plan must outlive it, and there is nothing to release.
 */
enum plan_step_kind {
	PLAN_STEP_SETUP,
	PLAN_STEP_BUILD_SETUP,
	PLAN_STEP_JOB_SETUP,
	PLAN_STEP_ITERATION,
	PLAN_STEP_JOB_TEARDOWN,
	PLAN_STEP_BUILD_TEARDOWN,
	PLAN_STEP_TEARDOWN,
};

struct plan_step {
	enum plan_step_kind kind;
	/*
	 * The job (index into plan.jobs) of a job or iteration step; for a
	 * build step the build's first job, through which its build_spec
	 * is found; 0 for the config's setup and teardown.
	 */
	size_t job;
	size_t build;	/* build index of job; 0 for the config's steps */
	long iteration; /* PLAN_STEP_ITERATION only, else 0 */
	/* An iteration that ends its round: under interleaving the last
	 * build's, in a reversed round the first's; without it, every one. */
	bool round_end;
};

struct plan_walk {
	const struct plan *plan;
	long iterations; /* per job, warm-ups included */
	bool interleave;
	/* The position; private to plan.c. */
	int phase;
	size_t group, member, builds_set_up;
	size_t jobs_set_up; /* of the current group, setups handed out */
	long it;
	bool build_done; /* the build setup of `member` was handed out */
	bool finishing;	 /* plan_walk_finish(): no group after this one */
};

/*
 * Start a walk over p with `iterations` iterations per job (warm-ups
 * included); interleave takes effect only with more than one build.
 */
void plan_walk_init(struct plan_walk *w, const struct plan *p, long iterations,
		    bool interleave);
/* Set *step to the next step; false when the walk is over. */
bool plan_walk_next(struct plan_walk *w, struct plan_step *step);
/*
 * Go on with the teardowns (see above); a no-op once at or past the build
 * teardowns, and when called again.
 */
void plan_walk_finish(struct plan_walk *w);
/*
 * Skip the iterations of job `job` not yet handed out, for a job that
 * stopped early (mmcmp run --until): the walk goes on with the workload
 * teardowns of its group, then with the next group. Under interleaving
 * the group holds the job of every build, which all stop together, so
 * call it after the iteration that ends a round (plan_step.round_end). A
 * no-op when job is not in the group whose iterations are being handed out.
 */
void plan_walk_skip_job(struct plan_walk *w, size_t job);

#endif /* MMCMP_PLAN_H */
