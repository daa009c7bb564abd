#ifndef MMCMP_RUN_DATA_H
#define MMCMP_RUN_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * run-data: the plain value structs that describe a stored run and its
 * samples. The store fills them (store_load_run()), CSV and JSON import
 * build them, compare and export read them. Every struct owns the
 * strings and arrays reachable from it; the *_release() functions free
 * them and accept NULL.
 */

struct machine_info {
	char *hostname;
	char *kernel_release;	/* uname -r */
	char *kernel_version;	/* uname -v */
	char *cmdline;		/* /proc/cmdline without the newline */
	char *cpu_model;
	int64_t nr_cpus;
	int64_t mem_bytes;
};

struct run_info {
	int64_t id;		/* store id, 0 before it is stored */
	char *uuid;		/* 36-character lowercase UUID */
	char *label;
	char *status;		/* running, complete, interrupted, failed, aborted */
	char *config_name;
	char *config_text;
	char *config_hash;	/* lowercase hex SHA-256 of config_text */
	char *started_at;	/* UTC, "YYYY-MM-DDTHH:MM:SSZ" */
	char *ended_at;		/* NULL while running */
	char *mmcmp_version;
	struct machine_info machine;
	int64_t pid;		/* of the mmcmp process that ran it */
	int64_t pid_start;	/* its start time, clock ticks after boot */
};

/* One operation (a row label) of one benchmark in one run. */
struct op_samples {
	int64_t id;		/* store id */
	char *benchmark;
	char *name;
	char *unit;
	bool higher_better;
	int decimals;
	double *v;		/* measured (not warm-up) samples, stored order */
	size_t nr, alloc;
};

/* Summed resource use of a benchmark's measured iterations in a run. */
struct bench_duration {
	char *benchmark;
	double user_s, sys_s, elapsed_s;
	size_t iterations;
};

struct run_data {
	struct run_info info;
	struct op_samples *ops;		/* in the order they were created */
	size_t ops_nr, ops_alloc;
	struct bench_duration *durations; /* in benchmark order of ops */
	size_t durations_nr, durations_alloc;
};

void machine_info_release(struct machine_info *m);
void run_info_release(struct run_info *ri);
void op_samples_release(struct op_samples *op);
/* Free all of rd and zero it. */
void run_data_release(struct run_data *rd);

/*
 * Return the op of rd with this benchmark and name, creating an empty one
 * at the end (unit "", lower is better, 2 decimals) when create is true;
 * NULL when absent and create is false.
 */
struct op_samples *run_data_op(struct run_data *rd, const char *benchmark,
			       const char *name, bool create);
/* Append one sample to op. */
void op_samples_add(struct op_samples *op, double value);

/*
 * Pool src into dst, as one label's runs are pooled for a comparison:
 * samples of an operation both have are appended to dst's (src's
 * operations that dst lacks are added at the end, with their unit,
 * direction and decimals), durations are summed. dst's info is kept.
 */
void run_data_merge(struct run_data *dst, const struct run_data *src);

#endif /* MMCMP_RUN_DATA_H */
