#ifndef MMCMP_RUN_SETUP_H
#define MMCMP_RUN_SETUP_H

#include <stddef.h>
#include <stdint.h>

struct cJSON;
struct json_read;
struct strbuf;

/*
 * run-setup: the effective setup of a run (what it actually ran, after
 * --iterations, --param and `until`) and its canonical JSON text, the
 * one the store keeps in run_info.setup and an export holds as `setup`.
 * The structs own their strings; run_setup_release() frees them. The
 * text is written and read here and nowhere else (through json-write.h
 * and json-read.h, so no cJSON header is needed); int functions give 0
 * or -1 after one line in err.
 */

/* One workload parameter of an effective setup, with its values. */
struct setup_param {
	char *workload; /* the benchmark */
	char *name;
	char **values; /* in the order they ran, at least one */
	size_t values_nr, values_alloc;
};

/*
 * How one job of a run with `until` ended: the measured iterations it
 * ran and why it stopped, "precision" (precise enough), "maximum" (it
 * ran `iterations`) or "interrupted" (the run stopped before either).
 */
struct setup_stop {
	char *workload; /* the benchmark */
	char *job; /* its parameters, "mode=threads tasks=2"; "" for none */
	int64_t iterations;
	char *stopped;
};

/*
 * The effective setup of a run: the iteration counts and parameter values
 * after the command line's overrides, and the precision rule of `until`
 * with how each job ended under it. In JSON "until" is null without the
 * rule, else {"pct": P, "jobs": [{workload, job, iterations, stopped}]}.
 */
struct run_setup {
	int64_t iterations;	    /* measured, per job; with until the most */
	int64_t warmup;		    /* warm-ups, per job */
	struct setup_param *params; /* workload by workload, in file order */
	size_t params_nr, params_alloc;
	double until_pct;	  /* 0: no until */
	struct setup_stop *stops; /* with until: job by job, in plan order */
	size_t stops_nr, stops_alloc;
};

/* Free everything setup holds and zero it; NULL is a no-op. */
void run_setup_release(struct run_setup *setup);
/* Append parameter name of workload, without values yet, to setup. */
struct setup_param *run_setup_add_param(struct run_setup *setup,
					const char *workload, const char *name);
/* Append a copy of value to p's values. */
void setup_param_add_value(struct setup_param *p, const char *value);
/* Append how job `job` of workload ended (struct setup_stop), copied. */
void run_setup_add_stop(struct run_setup *setup, const char *workload,
			const char *job, int64_t iterations,
			const char *stopped);

/*
 * The canonical text of setup: compact JSON, {"iterations":5,"warmup":1,
 * "until":null,"params":[{"workload":"w","name":"p","values":["1","2"]}]},
 * the same text for the same setup. The caller frees it.
 */
char *run_setup_text(const struct run_setup *setup);

/*
 * Read text, as run_setup_text() writes it, into setup (zeroed by the
 * caller; run_setup_release() it, also on failure). Every member must be
 * there, of its type, and no other: the rules of an export's `setup`.
 * Errors read "setup: PATH: message".
 */
int run_setup_parse(const char *text, struct run_setup *setup,
		    struct strbuf *err);

/* The same for node, an object at jr's path in a larger document. */
int run_setup_read(struct json_read *jr, const struct cJSON *node,
		   struct run_setup *setup);

#endif /* MMCMP_RUN_SETUP_H */
