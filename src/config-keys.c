/* config-keys: the keys of a config file, one table per level. */
#include "config-internal.h"

#include <stddef.h>
#include <string.h>

#include "config.h"
#include "strbuf.h"
#include "util.h"

#define MAX_TIMEOUT_S 604800.0 /* one week */

#define AT(type, member)                                                       \
	.offset = offsetof(type, member), .size = sizeof(((type *)NULL)->member)
/* An array member: the key's parser knows the struct, so no size. */
#define AT_ARRAY(type, member) .offset = offsetof(type, member)

static const struct choice on_error_choices[] = {
	{"continue", CONFIG_ON_ERROR_CONTINUE},
	{"abort", CONFIG_ON_ERROR_ABORT},
	{NULL, 0},
};

static const struct choice better_choices[] = {
	{"lower", 0},
	{"higher", 1},
	{NULL, 0},
};

static const struct choice measure_choices[] = {
	{"elapsed", METRIC_ELAPSED},
	{"user", METRIC_USER},
	{"system", METRIC_SYSTEM},
	{"maxrss", METRIC_MAXRSS},
	{NULL, 0},
};

static const struct key top_keys[] = {
	{.name = "name",
	 .type = KEY_STRING,
	 AT(struct config, name),
	 .required = true,
	 .help = "Name of the configuration, stored with every run."},
	{.name = "description",
	 .type = KEY_STRING,
	 AT(struct config, description),
	 .empty_ok = true,
	 .free_text = true,
	 .help = "Free text about what the configuration measures."},
	{.name = "iterations",
	 .type = KEY_INT,
	 AT(struct config, iterations),
	 .min = 1,
	 .max = 100000,
	 .def = "5",
	 .help = "Measured iterations of every operation, per build."},
	{.name = "warmup",
	 .type = KEY_INT,
	 AT(struct config, warmup),
	 .min = 0,
	 .max = 100000,
	 .def = "0",
	 .help = "Iterations run before the measured ones and discarded."},
	{.name = "until",
	 .type = KEY_NUMBER,
	 AT(struct config, until_pct),
	 .min = 0,
	 .max = 100,
	 .def_doc = "none: every job runs `iterations`",
	 .help = "Stop a job early once it is precise enough: a pilot of 5 "
		 "iterations, kept out of the results as warm-ups are, then "
		 "as many measured ones (at least 5) as its spread says the "
		 "95% confidence half-width of the mean of the iteration "
		 "values needs to be at most this many percent of that mean, "
		 "for every metric (more than 0, at most 100). `iterations` "
		 "is then the maximum; interleaved builds stop together. "
		 "`mmcmp run --until` overrides it."},
	{.name = "timeout",
	 .type = KEY_NUMBER,
	 AT(struct config, timeout_s),
	 .min = 0,
	 .max = MAX_TIMEOUT_S,
	 .def = "600",
	 .help = "Time limit of one iteration in seconds; 0 means none."},
	{.name = "on_error",
	 .type = KEY_CHOICE,
	 AT(struct config, on_error),
	 .choices = on_error_choices,
	 .def = "continue",
	 .help = "When an iteration fails: record the failure and go on, "
		 "or stop the run."},
	{.name = "interleave",
	 .type = KEY_BOOL,
	 AT(struct config, interleave),
	 .def = "false",
	 .help = "Alternate the builds at every iteration, every other "
		 "round reversed (A B B A A B ...), instead of running all "
		 "iterations of one build, then the next."},
	{.name = "monitors",
	 .type = KEY_BOOL,
	 AT(struct config, monitors),
	 .def = "true",
	 .help = "Record per iteration what /proc/vmstat counted, the CPU "
		 "time of /proc/stat and /proc/meminfo at start and end; "
		 "`mmcmp compare` shows them in the Ops table and with "
		 "`--monitors`. Costs some 100 microseconds per iteration."},
	{.name = "monitor_interval",
	 .type = KEY_NUMBER,
	 AT(struct config, monitor_interval_s),
	 .min = 0,
	 .max = 3600,
	 .def = "0",
	 .help = "Also sample the monitors every this many seconds while an "
		 "iteration runs and store the samples as a time series; 0 "
		 "means never, else at least 0.1. Needs `monitors: true`."},
	{.name = "perf",
	 .type = KEY_ARGV,
	 AT(struct config, perf_events),
	 .def_doc = "none",
	 .help = "Also count these kernel events in every measured "
		 "iteration with `perf_event_open`, scoped to the "
		 "iteration's processes (no perf tool needed): `[default]` "
		 "for all of task-clock, context-switches, cpu-migrations, "
		 "page-faults, minor-faults, major-faults, cycles, "
		 "instructions, cache-misses, dTLB-load-misses and the mm "
		 "tracepoints vmscan:mm_vmscan_direct_reclaim_begin and "
		 "_end, vmscan:mm_vmscan_memcg_reclaim_begin and _end, "
		 "compaction:mm_compaction_begin and _end and "
		 "huge_memory:mm_collapse_huge_page (counts; docs/perf.md), "
		 "or a list of them. An event the machine lacks is stored as absent, "
		 "with the reason, and said once. `mmcmp compare` tests them "
		 "in a \"BENCH perf\" table. Needs `monitors: true`."},
	{.name = "env",
	 .type = KEY_ENV,
	 AT(struct config, env),
	 .help = "Environment variables set for every command."},
	{.name = "setup",
	 .type = KEY_COMMANDS,
	 AT(struct config, setup),
	 .help = "Commands run once before the workloads."},
	{.name = "teardown",
	 .type = KEY_COMMANDS,
	 AT(struct config, teardown),
	 .help = "Commands run once after the workloads."},
	{.name = "prepare",
	 .type = KEY_COMMANDS,
	 AT(struct config, prepare),
	 .help = "Commands run before every iteration, warm-ups too, and not "
		 "timed, like hyperfine's `--prepare`, such as `echo 3 > "
		 "/proc/sys/vm/drop_caches`: all of them, the top-level "
		 "ones first, then the build's, then the workload's. One "
		 "that fails fails the iteration, which is stored with the "
		 "reason, and the workload does not run; the run goes on."},
	{.name = "conclude",
	 .type = KEY_COMMANDS,
	 AT(struct config, conclude),
	 .help = "Commands run after every iteration, also one that failed, "
		 "and not timed: the workload's first, then the build's, "
		 "then the top-level ones. One that fails is a warning."},
	{.name = "settings",
	 .type = KEY_SETTINGS,
	 AT(struct config, settings),
	 .help = "Kernel settings for the run: absolute paths under "
		 "`/proc/sys` or `/sys` to the value written to each, like "
		 "`/sys/kernel/mm/transparent_hugepage/enabled: never` or "
		 "`/proc/sys/vm/swappiness: 10`. Each is read (the bracketed "
		 "word of a `always [madvise] never` file), written and "
		 "read back before the run; the old values are put back in "
		 "reverse order after it, also after a failure or Ctrl-C. "
		 "The run records the file, old and new value. A file that "
		 "does not exist stops `--check` and the run. Runs at once "
		 "may share a file at one value (another is refused, naming "
		 "the run that holds it); the last to end puts the old value "
		 "back, and the next run puts back what a run killed with "
		 "SIGKILL left. With `kernels` they are refused, as the host "
		 "would write them and not the guests: put them on a kernel's "
		 "`append`, as `sysctl.vm.swappiness=10` or "
		 "`transparent_hugepage=never`."},
	{.name = "workloads",
	 .type = KEY_WORKLOADS,
	 AT_ARRAY(struct config, workloads),
	 .required = true,
	 .help = "The benchmarks to run; see Workload."},
	{.name = "builds",
	 .type = KEY_BUILDS,
	 AT_ARRAY(struct config, builds),
	 .help = "Variants to compare, by name; see Build."},
	{.name = "cgroup",
	 .type = KEY_CGROUP,
	 AT_ARRAY(struct config, cgroup),
	 .help = "A cgroup that mmcmp creates for the workload processes of "
		 "every build without one of its own; see Cgroup."},
	{.name = "kernels",
	 .type = KEY_KERNELS,
	 AT_ARRAY(struct config, kernels),
	 .help = "Kernels to boot in guests and run every workload under, by "
		 "name; each is stored under its own label, like a build "
		 "(with builds, every kernel with every build). See Kernel "
		 "and VM."},
	{.name = "vm",
	 .type = KEY_VM,
	 AT_ARRAY(struct config, vm),
	 .help = "How the guests of `kernels` are booted; see VM."},
	{.name = "machine",
	 .type = KEY_MACHINE,
	 AT_ARRAY(struct config, machine),
	 .help = "Instead of `vm`: the kernels boot on this machine, one "
		 "after the other, with `mmcmp campaign start`; see Machine."},
};

static const struct key workload_keys[] = {
	{.name = "name",
	 .type = KEY_STRING,
	 AT(struct workload_spec, name),
	 .required = true,
	 .help = "Benchmark name, unique in the file; one table in a "
		 "comparison."},
	{.name = "shell",
	 .type = KEY_BOOL,
	 AT(struct workload_spec, shell),
	 .def = "false",
	 .help = "`command` is one string, run with `/bin/sh -c`."},
	{.name = "command",
	 .type = KEY_COMMAND,
	 AT(struct workload_spec, command),
	 .required = true,
	 .help = "Program and arguments (a list), or one string with "
		 "`shell: true`; may use `{param}` placeholders. With "
		 "`shell: true` each value goes in single-quoted for sh "
		 "(`'` as `'\\''`), so it is one word whatever it holds: "
		 "do not quote placeholders yourself."},
	{.name = "params",
	 .type = KEY_PARAMS,
	 AT_ARRAY(struct workload_spec, params),
	 .help = "Parameters swept as a cartesian product in file order: "
		 "name to a list of values, or to one value."},
	{.name = "operation",
	 .type = KEY_STRING,
	 AT(struct workload_spec, operation),
	 .def = "{metric}",
	 .help = "Row label template, unique per metric and parameter "
		 "combination; may use `{metric}` and `{param}`."},
	{.name = "metrics",
	 .type = KEY_METRICS,
	 AT_ARRAY(struct workload_spec, metrics),
	 .required = true,
	 .help = "What to measure; see Metric."},
	{.name = "env",
	 .type = KEY_ENV,
	 AT(struct workload_spec, env),
	 .help = "Environment variables of this workload's commands."},
	{.name = "setup",
	 .type = KEY_COMMANDS,
	 AT(struct workload_spec, setup),
	 .help = "Commands run before this workload's iterations."},
	{.name = "teardown",
	 .type = KEY_COMMANDS,
	 AT(struct workload_spec, teardown),
	 .help = "Commands run after this workload's iterations."},
	{.name = "prepare",
	 .type = KEY_COMMANDS,
	 AT(struct workload_spec, prepare),
	 .help = "Commands run before each of this workload's iterations, "
		 "after the top-level and build `prepare`."},
	{.name = "conclude",
	 .type = KEY_COMMANDS,
	 AT(struct workload_spec, conclude),
	 .help = "Commands run after each of this workload's iterations, "
		 "before the build and top-level `conclude`."},
	{.name = "timeout",
	 .type = KEY_NUMBER,
	 AT(struct workload_spec, timeout_s),
	 .min = 0,
	 .max = MAX_TIMEOUT_S,
	 .def = "0",
	 .def_doc = "top-level `timeout`",
	 .help = "Time limit of one iteration in seconds."},
	{.name = "cwd",
	 .type = KEY_STRING,
	 AT(struct workload_spec, cwd),
	 .help = "Working directory of the command; default: inherited."},
	{.name = "network",
	 .type = KEY_BOOL,
	 AT(struct workload_spec, network),
	 .def = "false",
	 .help = "The workload sends over sockets, so a cgroup v1 memory "
		 "cgroup should charge its socket buffers: `mmcmp run` warns "
		 "when its cgroup has no `tcp_limit`. A workload whose name "
		 "or command mentions `netperf` or `netstream` counts as one "
		 "without it."},
};

static const struct key metric_keys[] = {
	{.name = "name",
	 .type = KEY_STRING,
	 AT(struct metric_spec, name),
	 .required = true,
	 .help = "Metric name, unique in the workload."},
	{.name = "unit",
	 .type = KEY_STRING,
	 AT(struct metric_spec, unit),
	 .empty_ok = true,
	 .def_doc = "`s`, `KiB` or empty, by source",
	 .help = "Unit shown in reports."},
	{.name = "better",
	 .type = KEY_CHOICE,
	 AT(struct metric_spec, higher_better),
	 .choices = better_choices,
	 .def = "lower",
	 .help = "Whether higher or lower values are better."},
	{.name = "decimals",
	 .type = KEY_INT,
	 AT(struct metric_spec, decimals),
	 .min = 0,
	 .max = 12,
	 .def = "2",
	 .help = "Digits after the decimal point in reports."},
	{.name = "extract",
	 .type = KEY_EXTRACT,
	 AT(struct metric_spec, source),
	 .required = true,
	 .help = "Where the samples come from; see Extract."},
};

static const struct key extract_keys[] = {
	{.name = "regex",
	 .type = KEY_REGEX,
	 AT(struct metric_spec, pattern),
	 .one_of = true,
	 .help = "POSIX extended regular expression; the first capture "
		 "group of each match in stdout is a sample."},
	{.name = "json",
	 .type = KEY_JSON_PATH,
	 AT(struct metric_spec, pattern),
	 .one_of = true,
	 .empty_ok = true,
	 .help = "Path of the numbers to read in the JSON document on "
		 "stdout, like `jobs[0].read.iops`; syntax in src/json.h."},
	{.name = "parser",
	 .type = KEY_STRING,
	 AT(struct metric_spec, pattern),
	 .one_of = true,
	 .help = "Built-in parser of a benchmark's output, like `fio` or "
		 "`hackbench`; list in src/extract.h."},
	{.name = "field",
	 .type = KEY_STRING,
	 AT(struct metric_spec, field),
	 .needs = "parser",
	 .help = "Value of the parser's output to use; default: the "
		 "parser's main one."},
	{.name = "measure",
	 .type = KEY_CHOICE,
	 AT(struct metric_spec, source),
	 .choices = measure_choices,
	 .one_of = true,
	 .help = "Measured by the runner: wall time, user or system CPU "
		 "time in seconds, or peak RSS in KiB."},
};

static const struct key build_keys[] = {
	{.name = "env",
	 .type = KEY_ENV,
	 AT(struct build_spec, env),
	 .help = "Environment variables of this build's commands."},
	{.name = "prefix",
	 .type = KEY_ARGV,
	 AT(struct build_spec, prefix),
	 .help = "Arguments put before every workload command, like "
		 "`[taskset, -c, \"2\"]`."},
	{.name = "cwd",
	 .type = KEY_STRING,
	 AT(struct build_spec, cwd),
	 .help = "Working directory of this build's commands."},
	{.name = "setup",
	 .type = KEY_COMMANDS,
	 AT(struct build_spec, setup),
	 .help = "Commands run before this build's iterations."},
	{.name = "teardown",
	 .type = KEY_COMMANDS,
	 AT(struct build_spec, teardown),
	 .help = "Commands run after this build's iterations."},
	{.name = "prepare",
	 .type = KEY_COMMANDS,
	 AT(struct build_spec, prepare),
	 .help = "Commands run before each iteration of this build, after "
		 "the top-level `prepare`."},
	{.name = "conclude",
	 .type = KEY_COMMANDS,
	 AT(struct build_spec, conclude),
	 .help = "Commands run after each iteration of this build, before "
		 "the top-level `conclude`."},
	{.name = "settings",
	 .type = KEY_SETTINGS,
	 AT(struct build_spec, settings),
	 .help = "Kernel settings of this build, as the top-level "
		 "`settings`: written after those before the build's first "
		 "command and restored after its last; with `interleave`, "
		 "switched between the builds' iterations."},
	{.name = "cgroup",
	 .type = KEY_CGROUP,
	 AT_ARRAY(struct build_spec, cgroup),
	 .help = "A cgroup for this build's workload processes, instead of "
		 "the top-level one; see Cgroup."},
};

static const struct key cgroup_keys[] = {
	{.name = "path",
	 .type = KEY_STRING,
	 AT(struct cgroup_spec, path),
	 .required = true,
	 .help = "Where the cgroup goes under the hierarchy's root, like "
		 "`mmcmp/a/b`. The levels that do not exist are created "
		 "before the run and removed after it; the last may not "
		 "exist already."},
	{.name = "controllers",
	 .type = KEY_NAMES,
	 AT(struct cgroup_spec, controllers),
	 .help = "Controllers to enable on the way down, like `[memory, "
		 "cpu]`: in `cgroup.subtree_control` of each level above "
		 "the last (cgroup v2), or the hierarchies to use (v1)."},
	{.name = "limits",
	 .type = KEY_LIMITS,
	 AT(struct cgroup_spec, limits),
	 .help = "Interface files of the last level and the values written "
		 "to them before the run, like `memory.max: 1G`."},
	{.name = "root",
	 .type = KEY_STRING,
	 AT(struct cgroup_spec, root),
	 .def_doc = "found under `/sys/fs/cgroup`",
	 .help = "The cgroup hierarchy to use: a cgroup2 or cgroup v1 mount "
		 "point. By default cgroup v2 at `/sys/fs/cgroup`; on a v1 "
		 "or hybrid layout, the v1 hierarchy of each controller "
		 "(`/sys/fs/cgroup/memory`), or `/sys/fs/cgroup/unified` "
		 "without controllers."},
	{.name = "tcp_limit",
	 .type = KEY_STRING,
	 AT(struct cgroup_spec, tcp_limit),
	 .help = "Cgroup v1 memory controller: the value written to "
		 "`memory.kmem.tcp.limit_in_bytes` of the last level, like "
		 "`1G`, or `max` for no limit. v1 charges socket buffers to "
		 "a memory cgroup only once this file is written; cgroup v2 "
		 "always does, and ignores the key."},
};

static const struct key kernel_keys[] = {
	{.name = "image",
	 .type = KEY_STRING,
	 AT(struct kernel_spec, image),
	 .required = true,
	 .help = "The kernel's bzImage, such as `/boot/vmlinuz-6.1.0-28-cloud-"
		 "amd64` or `arch/x86/boot/bzImage` of a build tree. It needs "
		 "initramfs support and the 8250 serial console built in."},
	{.name = "append",
	 .type = KEY_STRING,
	 AT(struct kernel_spec, append),
	 .empty_ok = true,
	 .help = "Added to the kernel command line, after mmcmp's own "
		 "`console=ttyS0 panic=-1 oops=panic softlockup_panic=1 "
		 "quiet no_timer_check cryptomgr.notests`, and `norandmaps` as "
		 "`vm`'s `aslr` says (with `machine`: after the command line of the kernel "
		 "the campaign started from)."},
	{.name = "initrd",
	 .type = KEY_STRING,
	 AT(struct kernel_spec, initrd),
	 .help = "With `machine`: the initrd booted with the image, such as "
		 "`/boot/initrd.img-6.9.0`."},
	{.name = "entry",
	 .type = KEY_STRING,
	 AT(struct kernel_spec, entry),
	 .help = "With `machine` and `method: reboot`: the boot loader entry "
		 "that boots the image, as `grub-reboot` takes it (a title or "
		 "an id of `/boot/grub/grub.cfg`)."},
};

static const struct choice accel_choices[] = {
	{"tcg", CONFIG_ACCEL_TCG},
	{"kvm", CONFIG_ACCEL_KVM},
	{NULL, 0},
};

static const struct choice aslr_choices[] = {
	{"auto", CONFIG_ASLR_AUTO},
	{"true", CONFIG_ASLR_ON},
	{"false", CONFIG_ASLR_OFF},
	{NULL, 0},
};

static const struct key vm_keys[] = {
	{.name = "cpus",
	 .type = KEY_INT,
	 AT(struct vm_spec, cpus),
	 .min = 1,
	 .max = 1024,
	 .def = "2",
	 .help = "Virtual CPUs of each guest."},
	{.name = "memory",
	 .type = KEY_STRING,
	 AT(struct vm_spec, memory),
	 .def = "1G",
	 .help = "Memory of each guest: a number of bytes with a suffix K, M "
		 "or G, at least 64M."},
	{.name = "accel",
	 .type = KEY_CHOICE,
	 AT(struct vm_spec, accel),
	 .choices = accel_choices,
	 .def = "kvm",
	 .help = "`kvm` runs the guest on the CPU (the only choice for "
		 "timings that mean something); `tcg` emulates it, slowly, "
		 "anywhere (`mmcmp run --check` says whether KVM works)."},
	{.name = "aslr",
	 .type = KEY_CHOICE,
	 AT(struct vm_spec, aslr),
	 .choices = aslr_choices,
	 .def = "auto",
	 .help = "Address-space randomisation of the guests' processes: "
		 "`auto` turns it off under `tcg` (the kernel gets "
		 "`norandmaps`) and leaves it to the kernel under `kvm`; "
		 "`true` leaves it to the kernel, `false` turns it off. TCG "
		 "translates code per virtual address, so with randomised "
		 "mappings every exec translates its shared libraries again "
		 "(docs/kernels.md)."},
	{.name = "boots",
	 .type = KEY_INT,
	 AT(struct vm_spec, boots),
	 .min = 1,
	 .max = 10000,
	 .def = "1",
	 .help = "Boots per kernel; every boot runs the warm-ups and the "
		 "measured iterations of every workload."},
	{.name = "interleave",
	 .type = KEY_BOOL,
	 AT(struct vm_spec, interleave),
	 .def = "true",
	 .help = "Alternate the kernels boot by boot, A B B A A B ..., "
		 "instead of all boots of one kernel, then the next."},
	{.name = "boot_timeout",
	 .type = KEY_NUMBER,
	 AT(struct vm_spec, boot_timeout_s),
	 .min = 1,
	 .max = 3600,
	 .def = "60",
	 .help = "Seconds from qemu's start to the guest agent's hello; a "
		 "boot that takes longer fails (its iterations are stored as "
		 "failed with the console's tail) and the next one starts. "
		 "Also the grace the host gives an iteration past its "
		 "timeout."},
};

static const struct choice machine_method_choices[] = {
	{"kexec", CONFIG_MACHINE_KEXEC},
	{"reboot", CONFIG_MACHINE_REBOOT},
	{NULL, 0},
};

static const struct key machine_keys[] = {
	{.name = "method",
	 .type = KEY_CHOICE,
	 AT(struct machine_spec, method),
	 .choices = machine_method_choices,
	 .def = "kexec",
	 .help = "How the next kernel boots: `kexec` loads it with "
		 "`kexec_file_load` and jumps to it without firmware or boot "
		 "loader; `reboot` sets the boot loader's one-shot entry "
		 "(`grub-reboot`) and reboots, so that a kernel that hangs or "
		 "panics comes back to the default one."},
	{.name = "boots",
	 .type = KEY_INT,
	 AT(struct machine_spec, boots),
	 .min = 1,
	 .max = 1000,
	 .def = "2",
	 .help = "Boots per kernel, alternating A B B A A B ...; every boot "
		 "runs the warm-ups and measured iterations of every "
		 "workload."},
	{.name = "settle",
	 .type = KEY_NUMBER,
	 AT(struct machine_spec, settle_s),
	 .min = 0,
	 .max = 3600,
	 .def = "30",
	 .help = "Seconds to wait after a boot is resumed before its first "
		 "iteration, for the boot's own work to end."},
	{.name = "boot_timeout",
	 .type = KEY_NUMBER,
	 AT(struct machine_spec, boot_timeout_s),
	 .min = 1,
	 .max = 86400,
	 .def = "600",
	 .help = "Seconds from the start of a boot to its resume; a boot "
		 "resumed later, or not at all, is marked failed and the "
		 "campaign goes on with the next."},
};

/* The loader's arrays of found keys hold a level's keys. */
_Static_assert(ARRAY_SIZE(top_keys) <= MAX_LEVEL_KEYS &&
		       ARRAY_SIZE(workload_keys) <= MAX_LEVEL_KEYS &&
		       ARRAY_SIZE(metric_keys) <= MAX_LEVEL_KEYS &&
		       ARRAY_SIZE(extract_keys) <= MAX_LEVEL_KEYS &&
		       ARRAY_SIZE(build_keys) <= MAX_LEVEL_KEYS &&
		       ARRAY_SIZE(cgroup_keys) <= MAX_LEVEL_KEYS &&
		       ARRAY_SIZE(kernel_keys) <= MAX_LEVEL_KEYS &&
		       ARRAY_SIZE(vm_keys) <= MAX_LEVEL_KEYS &&
		       ARRAY_SIZE(machine_keys) <= MAX_LEVEL_KEYS,
	       "raise MAX_LEVEL_KEYS");

const struct level config_top_level = {
	.title = "Top level",
	.intro = "The file is one mapping with these keys.",
	.where = "at the top level",
	.keys = top_keys,
	.nr = ARRAY_SIZE(top_keys),
};

const struct level config_workload_level = {
	.title = "Workload",
	.intro = "Each item of `workloads` is a mapping with these keys.",
	.where = "in a workload",
	.keys = workload_keys,
	.nr = ARRAY_SIZE(workload_keys),
};

const struct level config_metric_level = {
	.title = "Metric",
	.intro = "Each item of a workload's `metrics` is a mapping with these "
		 "keys.",
	.where = "in a metric",
	.keys = metric_keys,
	.nr = ARRAY_SIZE(metric_keys),
};

const struct level config_extract_level = {
	.title = "Extract",
	.intro = "A metric's `extract` is a mapping with exactly one of "
		 "`regex`, `json`, `parser` and `measure`.",
	.where = "in 'extract'",
	.keys = extract_keys,
	.nr = ARRAY_SIZE(extract_keys),
};

const struct level config_build_level = {
	.title = "Build",
	.intro = "`builds` maps each build name to a mapping with these keys; "
		 "an empty value is a build with no settings.",
	.where = "in a build",
	.keys = build_keys,
	.nr = ARRAY_SIZE(build_keys),
};

const struct level config_cgroup_level = {
	.title = "Cgroup",
	.intro = "`cgroup`, at the top level or in a build (which then "
		 "overrides the top-level one), is a mapping with these keys; "
		 "see Cgroups above.",
	.where = "in 'cgroup'",
	.keys = cgroup_keys,
	.nr = ARRAY_SIZE(cgroup_keys),
};

const struct level config_kernel_level = {
	.title = "Kernel",
	.intro = "`kernels` maps each kernel name to a mapping with these "
		 "keys; `mmcmp run --kernel NAME=IMAGE[,append=...]` adds or "
		 "replaces one.",
	.where = "in a kernel",
	.keys = kernel_keys,
	.nr = ARRAY_SIZE(kernel_keys),
};

const struct level config_vm_level = {
	.title = "VM",
	.intro = "`vm` is a mapping with these keys; it takes effect with "
		 "`kernels`.",
	.where = "in 'vm'",
	.keys = vm_keys,
	.nr = ARRAY_SIZE(vm_keys),
};

const struct level config_machine_level = {
	.title = "Machine",
	.intro = "`machine` is a mapping with these keys; with it the "
		 "`kernels` boot on this machine (`mmcmp campaign`, see "
		 "docs/campaign.md) instead of in guests.",
	.where = "in 'machine'",
	.keys = machine_keys,
	.nr = ARRAY_SIZE(machine_keys),
};

const struct level *const config_levels[] = {
	&config_top_level,     &config_workload_level, &config_metric_level,
	&config_extract_level, &config_build_level,    &config_cgroup_level,
	&config_kernel_level,  &config_vm_level,       &config_machine_level,
};

const size_t config_levels_nr = ARRAY_SIZE(config_levels);

bool config_is_network(const struct workload_spec *wl)
{
	static const char *const words[] = {"netperf", "netstream"};

	if (wl->network)
		return true;
	for (size_t k = 0; k < ARRAY_SIZE(words); k++) {
		if (wl->name && strstr(wl->name, words[k]))
			return true;
		for (size_t i = 0; i < wl->command.nr; i++)
			if (strstr(wl->command.v[i], words[k]))
				return true;
	}
	return false;
}

void config_add_choices(struct strbuf *sb, const struct choice *c,
			const char *quote)
{
	for (size_t i = 0; c[i].name; i++) {
		if (i)
			strbuf_addstr(sb, c[i + 1].name ? ", " : " or ");
		strbuf_addf(sb, "%s%s%s", quote, c[i].name, quote);
	}
}
