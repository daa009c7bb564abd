#ifndef MMCMP_CONFIG_INTERNAL_H
#define MMCMP_CONFIG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf;

/*
 * config-internal: the key tables that the loader (config.c), the
 * reference generator (config-doc.c) and the tables themselves
 * (config-keys.c) share; nothing outside config*.c includes it, and it
 * does not bring <yaml.h>. The tables are constant and live as long as
 * the program; nothing here fails.
 */

/* Keys in the largest level of config-keys.c, for the loader's arrays. */
#define MAX_LEVEL_KEYS 24

enum key_type {
	KEY_STRING,    /* char * */
	KEY_REGEX,     /* char *, checked with regcomp() */
	KEY_JSON_PATH, /* char *, checked for a.b[0].c syntax */
	KEY_INT,       /* int in [min, max] */
	KEY_NUMBER,    /* double in [min, max] */
	KEY_BOOL,      /* bool */
	KEY_CHOICE,    /* one of `choices`, stored in a bool or an enum */
	KEY_ENV,       /* struct kv_list */
	KEY_ARGV,      /* struct strvec, non-empty */
	KEY_COMMANDS,  /* struct command_list, non-empty */
	KEY_COMMAND,   /* workload_spec.command, which depends on .shell */
	KEY_PARAMS,    /* workload_spec.params */
	KEY_METRICS,   /* workload_spec.metrics */
	KEY_EXTRACT,   /* the extract level, inside a metric_spec */
	KEY_WORKLOADS, /* config.workloads */
	KEY_BUILDS,    /* config.builds */
	KEY_CGROUP,    /* struct cgroup_spec, a level of its own */
	KEY_NAMES,     /* struct strvec of names, non-empty */
	KEY_LIMITS,    /* struct kv_list of cgroup interface files */
	KEY_SETTINGS,  /* struct kv_list of /proc/sys and /sys files */
	KEY_KERNELS,   /* config.kernels */
	KEY_VM,	       /* config.vm, a level of its own */
	KEY_MACHINE,   /* config.machine, a level of its own */
};

struct choice {
	const char *name;
	int value;
};

/*
 * One configuration key, as fio's struct fio_option: the parser, the
 * defaults and config_describe() all read these tables.
 */
struct key {
	const char *name;
	const char *help;
	const char *def;     /* applied when absent (scalar types only) */
	const char *def_doc; /* shown instead of def in the reference */
	const char *needs;   /* another key this one requires */
	const struct choice *choices; /* KEY_CHOICE, ends with { NULL } */
	size_t offset;		      /* of the member in the level's struct */
	size_t size;		      /* of that member; 0 for arrays */
	double min, max;	      /* KEY_INT, KEY_NUMBER */
	enum key_type type;
	bool required;
	bool one_of;	/* exactly one of the level's one_of keys */
	bool empty_ok;	/* KEY_STRING may be "" */
	bool free_text; /* KEY_STRING may hold control characters */
};

struct level {
	const char *title; /* section heading in the reference */
	const char *intro; /* paragraph under it */
	const char *where; /* "in a workload", for messages */
	const struct key *keys;
	size_t nr;
};

/* The levels of a config file, each with its key table. */
extern const struct level config_top_level, config_workload_level,
	config_metric_level, config_extract_level, config_build_level,
	config_cgroup_level, config_kernel_level, config_vm_level,
	config_machine_level;

/* Every level, in the order of the reference (configs/README.md). */
extern const struct level *const config_levels[];
extern const size_t config_levels_nr;

/*
 * Append the names of the choices c (ended by { NULL }), each between
 * quote, joined as "a, b or c".
 */
void config_add_choices(struct strbuf *sb, const struct choice *c,
			const char *quote);

#endif /* MMCMP_CONFIG_INTERNAL_H */
