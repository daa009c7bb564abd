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
	char *kernel_release; /* uname -r */
	char *kernel_version; /* uname -v */
	char *cmdline;	      /* /proc/cmdline without the newline */
	char *cpu_model;
	int64_t nr_cpus;
	int64_t mem_bytes;
	/*
	 * Set-up facts that change results; NULL or 0 where the machine
	 * does not tell (machine_info_read() says where they come from).
	 */
	char *thp_enabled;	/* transparent hugepages: "madvise" */
	char *thp_defrag;	/* their defrag mode: "madvise" */
	char *cpufreq_governor; /* of cpu0: "performance" */
	int64_t numa_nodes;	/* 0: unknown */
	char *smt;		/* "on", "off", "forceoff", "notsupported" */
	char *cgroup_mode;	/* "v2", "v1" or "hybrid" */
	char *kernel_config_sha256; /* lowercase hex */
};

struct run_info {
	int64_t id; /* store id, 0 before it is stored */
	char *uuid; /* 36-character lowercase UUID */
	char *label;
	char *status; /* running, complete, interrupted, failed, aborted */
	char *config_name;
	char *config_text;
	char *config_hash; /* lowercase hex SHA-256 of config_text */
	char *started_at;  /* UTC, "YYYY-MM-DDTHH:MM:SSZ" */
	char *ended_at;	   /* NULL while running */
	char *mmcmp_version;
	struct machine_info machine;
	int64_t pid;	   /* of the mmcmp process that ran it */
	int64_t pid_start; /* its start time, clock ticks after boot */
	char *cgroup;	   /* the cgroup its workloads ran in, or NULL */
};

/* One operation (a row label) of one benchmark in one run. */
struct op_samples {
	int64_t id; /* store id */
	char *benchmark;
	char *name;
	char *unit;
	bool higher_better;
	int decimals;
	double *v; /* measured (not warm-up) samples, stored order */
	size_t nr, alloc;
	/*
	 * csv_parse() only, else NULL: per sample of v, the number in the
	 * row's iteration column (0 when absent or empty).
	 */
	int64_t *iteration;
	size_t iteration_alloc;
};

/* Summed resource use of a benchmark's measured iterations in a run. */
struct bench_duration {
	char *benchmark;
	double user_s, sys_s, elapsed_s;
	size_t iterations;
};

/*
 * One kernel counter of a monitor table: its change in each iteration of
 * the table, in iteration order (0 where it did not change).
 */
struct monitor_counter {
	char *name; /* the /proc/vmstat name: "pgfault" */
	double *v;  /* table->iterations values */
	size_t nr, alloc;
};

/*
 * What /proc/vmstat counted during a benchmark's measured iterations that
 * ran with monitors (monitor.h), one value per iteration and counter.
 * Counters that changed in no iteration are absent, so an absent counter
 * reads as 0.
 */
struct monitor_table {
	char *benchmark;
	size_t iterations;		  /* monitored measured iterations */
	double elapsed_s;		  /* their summed wall time */
	struct monitor_counter *counters; /* in the order first seen */
	size_t counters_nr, counters_alloc;
	/*
	 * Per iteration, the share of the machine other processes used
	 * (monitor.h's other_cpu); NaN where not recorded. NULL until an
	 * iteration is added.
	 */
	double *other_cpu;
	size_t other_cpu_alloc;
};

struct run_data {
	struct run_info info;
	struct op_samples *ops; /* in the order they were created */
	size_t ops_nr, ops_alloc;
	struct bench_duration *durations; /* in benchmark order of ops */
	size_t durations_nr, durations_alloc;
	/* Empty for runs without monitor data, such as CSV imports. */
	struct monitor_table *monitors;
	size_t monitors_nr, monitors_alloc;
	/*
	 * The same for the counters of the cgroup the iterations ran in
	 * (cgroup-stat.h): a counter's change, or a gauge's value at the
	 * end, per iteration; empty without cgroups.
	 */
	struct monitor_table *cgroups;
	size_t cgroups_nr, cgroups_alloc;
};

/* One /proc/vmstat counter's change during an iteration. */
struct vmstat_change {
	char *name;
	int64_t value;
};

/*
 * A run in full, as export writes it and import reads it back: besides
 * the run's info and operations, every iteration (warm-ups included) with
 * its outcome and its samples in stored order. The operations' v arrays
 * are not used (nr is 0); a sample names its operation by index.
 */
struct iteration_data {
	int64_t id; /* store id, 0 before it is stored */
	char *benchmark;
	char *job;     /* parameters, e.g. "mode=threads tasks=2" */
	char *build;   /* NULL: no build */
	int64_t index; /* 0-based among its job's iterations */
	bool warmup;
	char *status; /* ok, exit, signal, timeout, interrupted, ... */
	int64_t exit_code;
	int64_t term_signal;
	char *started_at; /* UTC, "YYYY-MM-DDTHH:MM:SSZ" */
	double elapsed_s, user_s, sys_s;
	int64_t maxrss_kb;
	char *stderr_tail; /* NULL: none recorded */
	/* Its samples: run_full.samples[samples_first .. + samples_nr). */
	size_t samples_first, samples_nr;
	/*
	 * Imports of other tools' results only (store_run_load_full()
	 * leaves it empty): when has_vmstat, what /proc/vmstat counted
	 * during the iteration, the counters that changed, which
	 * store_run_insert_full() stores as the iteration's monitor record.
	 */
	bool has_vmstat;
	struct vmstat_change *vmstat;
	size_t vmstat_nr, vmstat_alloc;
};

struct sample_data {
	size_t op; /* index in run_full.ops */
	double value;
};

struct run_full {
	struct run_info info;
	struct op_samples *ops; /* in creation order */
	size_t ops_nr, ops_alloc;
	struct iteration_data *iters; /* in stored order */
	size_t iters_nr, iters_alloc;
	struct sample_data *samples; /* iteration by iteration */
	size_t samples_nr, samples_alloc;
};

void machine_info_release(struct machine_info *m);
void run_info_release(struct run_info *ri);
void op_samples_release(struct op_samples *op);
void monitor_table_release(struct monitor_table *mt);
/* Free all of rd and zero it. */
void run_data_release(struct run_data *rd);
/* Free the names of v[0..nr) and the array; NULL is a no-op. */
void vmstat_changes_free(struct vmstat_change *v, size_t nr);
void iteration_data_release(struct iteration_data *it);
/* Free all of rf and zero it. */
void run_full_release(struct run_full *rf);
/* Release runs[0..nr) and free the array; NULL is a no-op. */
void run_full_free_array(struct run_full *runs, size_t nr);

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
 * The monitor table of benchmark in rd, created empty at the end when
 * create is true; NULL when absent and create is false.
 */
struct monitor_table *run_data_monitors(struct run_data *rd,
					const char *benchmark, bool create);
/* The same for rd's cgroup tables. */
struct monitor_table *run_data_cgroups(struct run_data *rd,
				       const char *benchmark, bool create);
/*
 * Start a new iteration of mt (every counter gets a 0 for it, other_cpu
 * a NaN) that took elapsed_s; monitor_table_set() then fills in what
 * changed.
 */
void monitor_table_add_iteration(struct monitor_table *mt, double elapsed_s);
/*
 * Set counter name's value in the last iteration of mt (there must be
 * one), adding the counter with 0 in the earlier ones when it is new.
 */
void monitor_table_set(struct monitor_table *mt, const char *name,
		       double value);
/* Counter name of mt, or NULL. */
const struct monitor_counter *monitor_table_get(const struct monitor_table *mt,
						const char *name);

/*
 * Pool src into dst, as one label's runs are pooled for a comparison:
 * samples of an operation both have are appended to dst's (src's
 * operations that dst lacks are added at the end, with their unit,
 * direction and decimals), durations are summed, and the iterations of
 * src's monitor tables follow dst's. dst's info is kept.
 */
void run_data_merge(struct run_data *dst, const struct run_data *src);

#endif /* MMCMP_RUN_DATA_H */
