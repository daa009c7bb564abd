#ifndef MMCMP_RUN_DATA_H
#define MMCMP_RUN_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run-setup.h"
#include "strvec.h"

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
	/*
	 * What the run actually ran, after --iterations and --param: the
	 * canonical JSON text of a struct run_setup (run-setup.h), NULL where
	 * it was not recorded.
	 */
	char *setup;
	/*
	 * Made by `mmcmp run --replace`: store_run_create() refuses it
	 * while another run of its label is alive, and refuses other runs
	 * of its label while it is alive. Written only on creation.
	 */
	bool replacing;
};

/*
 * What a sample may know besides its value: the iteration it was taken
 * in, the store's iteration id (store_load_run()) or the number in a
 * CSV's iteration column (csv_parse(): 0 when a row leaves it empty);
 * the store id of its run; the number of the guest boot its iteration
 * ran in (iteration.boot, unique within its run, so a boot is the pair
 * run, boot); when its iteration started as recorded
 * (iteration.started_at), in milliseconds since the Unix epoch (imports
 * keep the times they carry, so this, not the store id, is the order of
 * the iterations). Samples without an iteration are each their own
 * (compare's units of replication).
 */
enum op_key {
	OP_KEY_ITERATION,
	OP_KEY_RUN,
	OP_KEY_BOOT,
	OP_KEY_STARTED,
	OP_KEY_NR
};

/*
 * Samples [start, the next span's start or the op's nr) of an operation
 * share these keys: an iteration's samples come in a row, so an op keeps
 * a few keys per iteration, not four per sample. key[k] is 0 where the
 * op does not know k.
 */
struct op_span {
	size_t start;
	int64_t key[OP_KEY_NR];
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
	 * v, spans lie in a block of their run_data's
	 * (run_data_reserve()), not in their own.
	 */
	bool v_shared, spans_shared;
	/*
	 * The keys of v's samples (enum op_key), spans[0].start 0, the
	 * starts rising; none while no sample knows a key.
	 */
	struct op_span *spans;
	size_t spans_nr, spans_alloc;
	/*
	 * Which keys every sample of v knows: a key that some sample lacks
	 * is known to none (op_samples_has()).
	 */
	bool known[OP_KEY_NR];
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
	/*
	 * Per iteration, its job: the parameters it ran with ("bs=4k"), so
	 * that the iterations of different variants of a workload are not
	 * one distribution; NULL where not known. NULL until a job is set.
	 */
	char **job;
	size_t job_alloc;
};

/*
 * A guest boot of a run with kernels (the boot table, store-boot.c):
 * what was booted and what the guest said it ran. Strings may be NULL.
 */
struct run_boot {
	int64_t number;	    /* 1 for the run's first */
	char *kernel;	    /* its name under kernels: */
	char *image;	    /* path of the bzImage */
	char *image_sha256; /* lowercase hex */
	char *append;	    /* the command line mmcmp gave */
	char *guest_release, *guest_cmdline;
	bool has_guest;		   /* the agent answered: guest holds facts */
	struct machine_info guest; /* its facts, zeroed when !has_guest */
	/* QEMU's accelerator, "kvm" or "tcg"; NULL: unknown. */
	char *accel;
};

/*
 * One run pooled into a struct run_data (pool_load()), for the
 * provenance of a comparison: its info, the measured iterations whose
 * samples were taken and those samples, the measured iterations it
 * planned (its effective setup; 0: unknown) and its boots.
 */
struct run_source {
	struct run_info info;
	int64_t iterations, planned;
	size_t samples;
	struct run_boot *boots; /* in boot order; empty without kernels */
	size_t boots_nr, boots_alloc;
	/* Its settings, "PATH OLD -> NEW" (store_run_settings()). */
	struct strvec settings;
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
	/*
	 * The same for the perf counters (monitor-perf.h): each event's
	 * count per iteration, in monitor_perf_unit()s; empty without them.
	 */
	struct monitor_table *perf;
	size_t perf_nr, perf_alloc;
	/*
	 * The same for the levels of the vmstat gauges at the end of each
	 * iteration (monitor.h's vmstat_end), of the iterations that
	 * recorded them: a table with fewer iterations than its benchmark's
	 * monitors one holds records of an older mmcmp.
	 */
	struct monitor_table *levels;
	size_t levels_nr, levels_alloc;
	/*
	 * What pooling left out of the label or took in although incomplete
	 * (pool_load()), and the events a run's perf counters lacked
	 * (store_load_monitors()), one line each; a zeroed strvec is empty.
	 * run_data_merge() adds src's that dst lacks.
	 */
	struct strvec notes;
	/*
	 * What the perf counters of the measured iterations counted, each
	 * scope once ("cgroup", "process"; store_load_monitors());
	 * run_data_merge() adds src's that dst lacks.
	 */
	struct strvec perf_scopes;
	/*
	 * The runs pooled, oldest first (pool_load()); empty for
	 * data that does not come from the store (CSV imports, tests).
	 * run_data_merge() does not touch them.
	 */
	struct run_source *sources;
	size_t sources_nr, sources_alloc;
	/* The blocks of run_data_reserve(), where ops' v, spans lie. */
	void **blocks;
	size_t blocks_nr, blocks_alloc;
};

/*
 * One named value of a monitor record, owning its name: a counter's
 * change during an iteration ("pgfault"), a CPU time ("idle") or a
 * /proc/meminfo line ("MemFree").
 */
struct monitor_count {
	char *name;
	int64_t value;
};

/* Named values in the order their /proc file lists them. */
struct monitor_counts {
	struct monitor_count *v;
	size_t nr, alloc;
};

/* One periodic sample of an iteration's monitors (monitor.h). */
struct iteration_monitor_sample {
	double t_s;		       /* seconds after the iteration started */
	struct monitor_counts vmstat;  /* changed since the last, != 0 */
	struct monitor_counts cpu;     /* changed since the last */
	struct monitor_counts meminfo; /* as it was */
};

/*
 * What an iteration's monitors recorded, as the store keeps it (the
 * tables iteration_monitor and monitor_sample of db/schema.sql): the
 * owned counterpart of monitor.h's struct monitor_record. Imports of
 * other tools' results may fill only vmstat.
 */
struct iteration_monitor {
	double interval_s;	      /* of the periodic samples; 0 when none */
	struct monitor_counts vmstat; /* end - start, non-zero ones only */
	/* The gauges' levels at the end, when has_vmstat_end (monitor.h). */
	bool has_vmstat_end;
	struct monitor_counts vmstat_end;
	struct monitor_counts cpu; /* end - start */
	struct monitor_counts meminfo_start, meminfo_end;
	/*
	 * The share of the machine other processes used and the 1-minute
	 * load averages at start and end (monitor.h); NaN where unknown
	 * (records of older mmcmp, other tools' results).
	 */
	double other_cpu, loadavg_start, loadavg_end;
	/* The cgroup's counters (cgroup-stat.h), when has_cgroup. */
	bool has_cgroup;
	struct monitor_counts cgroup, cgroup_start, cgroup_end;
	struct iteration_monitor_sample *samples; /* in time order */
	size_t samples_nr, samples_alloc;
	/*
	 * The perf counters (monitor-perf.h), when has_perf (a row of
	 * iteration_perf): each event's count, none when no event could be
	 * opened, and the events absent and why (NULL: none).
	 */
	bool has_perf;
	struct monitor_counts perf;
	char *perf_absent;
	char *perf_scope; /* "cgroup", "process"; NULL: unknown (process) */
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
	int64_t boot;	   /* the guest boot it ran in; 0: on the host */
	/* Its samples: run_full.samples[samples_first .. + samples_nr). */
	size_t samples_first, samples_nr;
	/* What its monitors recorded, or NULL when it ran without them. */
	struct iteration_monitor *monitor;
};

struct sample_data {
	size_t op; /* index in run_full.ops */
	double value;
};

/*
 * One guest boot of a run with kernels, as the store's boot table keeps
 * it (db/schema.sql, store_boot_add()); NULL strings where the table has
 * NULL.
 */
struct boot_data {
	int64_t number; /* from 1, in the run's boot order */
	char *kernel, *image, *image_sha256, *image_release, *append;
	char *accel;
	int64_t cpus, memory_mb;
	char *qemu_version, *qemu_cmdline;
	double boot_s; /* to the agent's hello; < 0: it never answered */
	char *pinning;
	char *guest_release, *guest_cmdline, *guest_facts;
	char *failed; /* why the boot failed; NULL: it did not */
};

/* A kernel setting a run wrote (settings.h): a row of run_setting. */
struct setting_data {
	char *path, *old_value, *new_value;
};

struct run_full {
	struct run_info info;
	struct op_samples *ops; /* in creation order */
	size_t ops_nr, ops_alloc;
	struct iteration_data *iters; /* in stored order */
	size_t iters_nr, iters_alloc;
	struct sample_data *samples; /* iteration by iteration */
	size_t samples_nr, samples_alloc;
	struct boot_data *boots; /* in number order; none on the host */
	size_t boots_nr, boots_alloc;
	struct setting_data *settings; /* in writing order */
	size_t settings_nr, settings_alloc;
};

void machine_info_release(struct machine_info *m);
void run_info_release(struct run_info *ri);
/*
 * Give ri (whose config fields are NULL) config name and text, and as
 * config_hash the SHA-256 of text[0..len): the one place that pairs a
 * config text with its hash.
 */
void run_info_set_config(struct run_info *ri, const char *name,
			 const char *text, size_t len);
/* Free what b holds and zero it; NULL is a no-op. */
void run_boot_release(struct run_boot *b);
/* Free what src holds (its info and boots) and zero it; NULL is a no-op. */
void run_source_release(struct run_source *src);
void op_samples_release(struct op_samples *op);
void monitor_table_release(struct monitor_table *mt);
/* Free all of rd and zero it. */
void run_data_release(struct run_data *rd);
/* Free the names of v[0..nr) and the array; NULL is a no-op. */
void monitor_count_free(struct monitor_count *v, size_t nr);
/* Append a copy of name with value to mc. */
void monitor_counts_add(struct monitor_counts *mc, const char *name,
			int64_t value);
/* Free everything m holds and m itself; NULL is a no-op. */
void iteration_monitor_free(struct iteration_monitor *m);
/* A new empty monitor record: no counts, the figures unknown (NaN). */
struct iteration_monitor *iteration_monitor_new(void);
void iteration_data_release(struct iteration_data *it);
/* Free the strings of b and zero it; NULL is a no-op. */
void boot_data_release(struct boot_data *b);
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
/*
 * Give to from's unit (a copy, replacing to's), direction and decimals:
 * what an operation copied between runs keeps besides its names.
 */
void op_samples_copy_props(struct op_samples *to,
			   const struct op_samples *from);
/*
 * Append one sample to op that knows no key; op's earlier samples must
 * know none either.
 */
void op_samples_add(struct op_samples *op, double value);
/*
 * Room in each operation i of rd for values[i] samples and spans[i]
 * spans in all, those that need more than they have in one block that
 * rd owns (of transparent huge pages where the kernel gives them on
 * request): a loader that knows how many are coming makes one
 * allocation, not two per operation, and takes a few page faults rather
 * than one per 4 KiB. Appending past the room moves an operation's
 * values or spans out of the block.
 */
void run_data_reserve(struct run_data *rd, const size_t *values,
		      const size_t *spans);
/*
 * Append one sample to op taken in iteration (a CSV's number), knowing
 * no other key; op's earlier samples must know just their iterations
 * too (or op be empty).
 */
void op_samples_add_iteration(struct op_samples *op, double value,
			      int64_t iteration);
/*
 * Append one sample to op with the iteration and run it was taken in;
 * op's earlier samples must all have them too (or op be empty). Its
 * boot and start are the last sample's until op_samples_set_boot() and
 * op_samples_set_started() say otherwise.
 */
void op_samples_add_keyed(struct op_samples *op, double value,
			  int64_t iteration, int64_t run);
/*
 * Append n samples to op with the keys of its last one (there must be
 * one), the next samples of the same iteration for a loader that knows,
 * and return where their n values go, for the caller to fill before op
 * changes again.
 */
double *op_samples_extend_like_last(struct op_samples *op, size_t n);
/*
 * Set the boot of op's last sample (there must be one) to boot, > 0;
 * 0 says it ran in none, which drops op's boots for good: op knows boots
 * only if every sample has one. Call it for every keyed sample, or for
 * none.
 */
void op_samples_set_boot(struct op_samples *op, int64_t boot);
/*
 * Set the start time of op's last sample's iteration (there must be a
 * sample) to started_ms; known false drops op's times for good, as
 * op_samples_set_boot() does. Call it for every keyed sample, or for
 * none.
 */
void op_samples_set_started(struct op_samples *op, bool known,
			    int64_t started_ms);
/* Whether every sample of op knows key (and op has samples). */
bool op_samples_has(const struct op_samples *op, enum op_key key);
/*
 * Key of op's sample i < op->nr (0 when op does not know it): a search
 * of the spans, at once for the last sample.
 */
int64_t op_samples_key(const struct op_samples *op, enum op_key key, size_t i);
/* Write key of each of op's samples to out[0..op->nr). */
void op_samples_keys(const struct op_samples *op, enum op_key key,
		     int64_t *out);
/*
 * The end (one past the last sample) of the samples from i < op->nr on
 * that share sample i's iteration and come in a row: i + 1 when op knows
 * no iterations, as each sample is then its own.
 */
size_t op_samples_iteration_end(const struct op_samples *op, size_t i);
/* The end (one past the last sample) of op's span s < op->spans_nr. */
size_t op_span_end(const struct op_samples *op, size_t s);

/*
 * The monitor table of benchmark in rd, created empty at the end when
 * create is true; NULL when absent and create is false.
 */
struct monitor_table *run_data_monitors(struct run_data *rd,
					const char *benchmark, bool create);
/* The same for rd's cgroup tables. */
struct monitor_table *run_data_cgroups(struct run_data *rd,
				       const char *benchmark, bool create);
/* The same for rd's perf tables. */
struct monitor_table *run_data_perf(struct run_data *rd, const char *benchmark,
				    bool create);
/* The same for rd's tables of gauge levels. */
struct monitor_table *run_data_levels(struct run_data *rd,
				      const char *benchmark, bool create);
/*
 * Start a new iteration of mt (every counter gets a 0 for it, other_cpu
 * a NaN) that took elapsed_s; monitor_table_set() then fills in what
 * changed.
 */
void monitor_table_add_iteration(struct monitor_table *mt, double elapsed_s);
/* Set the job of the last iteration of mt (there must be one); copied. */
void monitor_table_set_job(struct monitor_table *mt, const char *job);
/* The job of iteration k of mt, or NULL when not known. */
const char *monitor_table_job(const struct monitor_table *mt, size_t k);
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
 * direction and decimals; their iterations and runs are kept when both
 * sides know them), durations are summed, and the iterations of
 * src's monitor tables follow dst's. dst's info is kept.
 */
void run_data_merge(struct run_data *dst, const struct run_data *src);

#endif /* MMCMP_RUN_DATA_H */
