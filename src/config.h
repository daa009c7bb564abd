#ifndef MMCMP_CONFIG_H
#define MMCMP_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "strvec.h"

struct strbuf;

/*
 * config: a run configuration loaded from YAML (libyaml is used only in
 * config.c, the loader). All keys live in one table per level in
 * config-keys.c (name, type, default, help), which drives the parser,
 * config_describe() (config-doc.c) and so configs/README.md.
 *
 * config_load_*() return 0, or -1 after appending one line
 * "FILE:LINE:COL: message" (1-based line and column from libyaml's marks)
 * to err; only a file that cannot be read gives "cannot open 'FILE': ..."
 * instead. A struct config owns every string and array reachable from it;
 * config_release() frees them all. What the loader refuses: at
 * config_load_file(); the placeholders of commands: at struct
 * workload_spec.
 */

/* Larger files are refused, before any parsing. */
#define CONFIG_MAX_BYTES ((size_t)1024 * 1024)
/*
 * Limit of the operations of a run: per workload, metrics times parameter
 * combinations, summed over the workloads, times the builds (a workload
 * alone is held to it too). The loader checks it before expanding any
 * name, and plan.c again after --param overrides.
 */
#define CONFIG_MAX_OPERATIONS 10000

/* KEY=VALUE pairs in file order. */
struct kv {
	char *key;
	char *value;
};
struct kv_list {
	struct kv *v;
	size_t nr;
	size_t alloc;
};

/* A list of commands, each an argv. */
struct command_list {
	struct strvec *v;
	size_t nr;
	size_t alloc;
};

enum metric_source {
	METRIC_REGEX,  /* each match's first capture group in stdout is a sample
			*/
	METRIC_JSON,   /* the number(s) at a JSON path in stdout */
	METRIC_PARSER, /* a named benchmark-output parser (extract.h) */
	METRIC_ELAPSED, /* wall time of the iteration, seconds */
	METRIC_USER,	/* user CPU time, seconds */
	METRIC_SYSTEM,	/* system CPU time, seconds */
	METRIC_MAXRSS,	/* peak resident set size, KiB */
};

struct metric_spec {
	char *name;
	char *unit;	    /* display unit; default by source or "" */
	bool higher_better; /* from `better: higher|lower` (default lower) */
	int decimals;	    /* digits after the point, 0..12, default 2 */
	enum metric_source source;
	char *pattern; /* regex, JSON path or parser name */
	char *field;   /* parser field, or NULL */
	int line, col; /* where the metric was defined, 1-based */
};

struct param_spec {
	char *name;
	struct strvec values; /* at least one value, as strings */
};

/*
 * Placeholders: a workload's command arguments and operation are checked
 * with plan_substitute() (plan.h), which expands them at run time: "{NAME}"
 * stands for the value of param NAME, the operation may also use
 * "{metric}", and "{{" and "}}" are literal braces.
 */
struct workload_spec {
	char *name;	       /* the benchmark: one table in a comparison */
	struct strvec command; /* argv with {param} placeholders left in */
	bool shell;	       /* command was one string, now stored as
				  { "/bin/sh", "-c", STRING } */
	struct param_spec
		*params; /* swept as a cartesian product, file order */
	size_t params_nr, params_alloc;
	char *operation; /* row label template; default "{metric}" */
	struct metric_spec *metrics;
	size_t metrics_nr, metrics_alloc;
	struct kv_list env;
	struct command_list setup, teardown;
	/* Run around each iteration, after the config's and build's. */
	struct command_list prepare, conclude;
	double timeout_s; /* 0: use the config's */
	char *cwd;	  /* NULL: inherit */
	bool network;	  /* it uses sockets: see config_is_network() */
	int line, col;	  /* of the workload's mapping, 1-based */
};

/*
 * A cgroup that mmcmp creates for the workload processes and removes
 * after the run (cgroup.h); none when path is NULL.
 */
struct cgroup_spec {
	char *path;		   /* under the hierarchy's root: "mmcmp/a/b" */
	struct strvec controllers; /* enabled on the way down; may be empty */
	struct kv_list limits;	   /* interface file -> value, on the leaf */
	char *root;		   /* NULL: found under /sys/fs/cgroup */
	char *tcp_limit; /* v1 memory.kmem.tcp.limit_in_bytes, or NULL */
	int line, col;	 /* of the mapping, 1-based */
};

struct build_spec {
	char *name;
	struct kv_list env;
	struct strvec prefix; /* prepended to every workload argv */
	char *cwd;
	struct command_list setup, teardown;
	/* Run around each iteration, after the config's; settings too. */
	struct command_list prepare, conclude;
	struct kv_list settings;   /* file -> value, as the config's */
	struct cgroup_spec cgroup; /* overrides the config's when set */
	int line, col;		   /* of the build's name, 1-based */
	size_t kernel; /* after config_expand_kernels(): its kernel */
};

/* A kernel to boot in a guest (executor-qemu.h); `kernels:` in a config. */
struct kernel_spec {
	char *name;
	char *image;  /* a bzImage */
	char *append; /* kernel command line additions; may be NULL */
	char *initrd; /* machine: the initrd booted with it; may be NULL */
	char *entry;  /* machine, method reboot: its boot loader entry */
	int line, col;
};

enum config_accel {
	CONFIG_ACCEL_TCG,
	CONFIG_ACCEL_KVM,
};

/* A guest's address-space randomisation; `vm: { aslr: ... }`. */
enum config_aslr {
	CONFIG_ASLR_AUTO, /* off under tcg, the kernel's own under kvm */
	CONFIG_ASLR_ON,	  /* the kernel's own */
	CONFIG_ASLR_OFF,  /* norandmaps */
};

/* How the guests of `kernels:` are booted; `vm:` in a config. */
struct vm_spec {
	int cpus;
	char *memory;	   /* as written: "2G", "512M" */
	int64_t memory_mb; /* parsed */
	enum config_accel accel;
	enum config_aslr aslr;
	int boots;	 /* per kernel */
	bool interleave; /* A B B A, else all boots of A, then of B */
	double boot_timeout_s;
	bool set; /* `vm:` is in the config */
};

enum config_machine_method {
	CONFIG_MACHINE_KEXEC,
	CONFIG_MACHINE_REBOOT,
};

/*
 * `machine:` in a config, instead of `vm:`: the kernels boot on this
 * machine, one after the other (mmcmp campaign, campaign.h).
 */
struct machine_spec {
	bool set; /* the config has `machine:` */
	enum config_machine_method method;
	int boots;	       /* per kernel, alternating A B B A ... */
	double settle_s;       /* after a boot, before the first iteration */
	double boot_timeout_s; /* a boot not resumed by then failed */
};

enum config_on_error {
	CONFIG_ON_ERROR_CONTINUE,
	CONFIG_ON_ERROR_ABORT,
};

struct config {
	char *path; /* as given to config_load_file() */
	char *text; /* the file's bytes, NUL-terminated */
	size_t text_len;
	char *name;	   /* required */
	char *description; /* may be NULL */
	int iterations;	   /* measured iterations, default 5, 1..100000 */
	int warmup;	   /* unmeasured first iterations, default 0 */
	double timeout_s;  /* per iteration, default 600, 0 = none */
	double until_pct;  /* stop on precision (0, 100]; 0: never */
	enum config_on_error on_error;
	bool interleave;	   /* alternate builds per iteration */
	bool monitors;		   /* vmstat, meminfo, cpu per iteration */
	double monitor_interval_s; /* periodic monitor samples; 0: none */
	struct strvec perf_events; /* monitor-perf.h events; empty: none */
	struct kv_list env;
	struct command_list setup, teardown;
	/* Run before and after every iteration; see config-keys.c. */
	struct command_list prepare, conclude;
	/* Absolute paths under /proc/sys or /sys -> value (settings.h). */
	struct kv_list settings;
	struct workload_spec *workloads; /* at least one */
	size_t workloads_nr, workloads_alloc;
	struct build_spec *builds; /* may be empty */
	size_t builds_nr, builds_alloc;
	struct cgroup_spec cgroup;   /* of the builds without their own */
	struct kernel_spec *kernels; /* may be empty */
	size_t kernels_nr, kernels_alloc;
	struct vm_spec vm;	     /* defaults when absent */
	struct machine_spec machine; /* .set false when absent */
};

#define CONFIG_INIT                                                            \
	{                                                                      \
		0                                                              \
	}

/*
 * The words of the first "# quick:" line of a config's text (what
 * `mmcmp run --quick` adds to the command line), appended to words, and
 * its line number, from 1, in *line_nr (when not NULL). Returns false,
 * appending nothing, when the text has no such line.
 */
bool config_quick_words(const char *text, struct strvec *words,
			size_t *line_nr);

/*
 * Read and parse the file at path. cfg is overwritten, so it must not hold
 * a loaded config; on failure it is left as CONFIG_INIT.
 *
 * Unknown keys, wrong types, missing required keys, empty lists,
 * duplicate names and keys, out-of-range values, placeholders naming no
 * param, operation names that would repeat, runs of more than
 * CONFIG_MAX_OPERATIONS operations, control characters in param values,
 * settings outside /proc/sys and /sys, YAML anchors and aliases, several
 * documents, invalid UTF-8 and files over CONFIG_MAX_BYTES are all
 * errors.
 */
int config_load_file(struct config *cfg, const char *path, struct strbuf *err);
/* Parse len bytes of buf as config_load_file(); `name` stands for the file. */
int config_load_buffer(struct config *cfg, const char *name, const char *buf,
		       size_t len, struct strbuf *err);
/* Free cfg's builds and give it these nr (heap, now cfg's) instead. */
void config_replace_builds(struct config *cfg, struct build_spec *builds,
			   size_t nr);
/* Free cfg's kernels and give it these nr (heap, now cfg's) instead. */
void config_replace_kernels(struct config *cfg, struct kernel_spec *kernels,
			    size_t nr);
/* Free everything; cfg becomes CONFIG_INIT. NULL is a no-op. */
void config_release(struct config *cfg);

/*
 * Whether wl is a network workload, whose socket buffers a memory cgroup
 * should charge: `network: true`, or a name or command word that
 * mentions netperf or netstream.
 */
bool config_is_network(const struct workload_spec *wl);
/*
 * How messages name the command argv: the script of a shell command (one
 * the config gives as a string, run as `/bin/sh -c SCRIPT`), else
 * argv[0]. Borrowed from argv.
 */
const char *config_command_name(char *const *argv);
/*
 * Kernels (config-kernels.c). A kernel name is letters, digits, '.', '_'
 * and '-'. A memory size is a number with a suffix K, M or G, at least
 * 64M, given in MiB.
 */
bool config_kernel_name_ok(const char *name);
int config_parse_memory(const char *s, int64_t *mb);
/*
 * Add or replace a kernel from "NAME=IMAGE[,append=ARGS]" (what follows
 * "append=" is taken whole, commas and all), for `mmcmp run --kernel`.
 */
int config_add_kernel(struct config *cfg, const char *spec, struct strbuf *err);
/*
 * With kernels, make the builds every kernel with every build (or each
 * kernel alone, without builds), kernel by kernel: named BUILD-KERNEL
 * (or KERNEL), each with .kernel set, so each gets its own label. A
 * cgroup is refused: the guests have their own; so are `settings:` (the
 * host would write them, not the guests), with the kernel command line
 * parameter that sets one in the guest. Without kernels a no-op.
 */
int config_expand_kernels(struct config *cfg, struct strbuf *err);
/*
 * The boot order of n kernels with vm->boots boots each, n * boots
 * kernel indexes into order: with vm->interleave rounds of all kernels
 * alternating in direction (0 1 1 0 0 1 ...), else all boots of kernel 0,
 * then of 1, ...
 */
void config_boot_order(const struct vm_spec *vm, size_t n, size_t *order);
/* Whether vm's guests boot without randomised mappings (norandmaps). */
bool config_vm_norandmaps(const struct vm_spec *vm);

/* Append the key reference (a Markdown section per level) to out. */
void config_describe(struct strbuf *out);

#endif /* MMCMP_CONFIG_H */
