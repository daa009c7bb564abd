#ifndef MMCMP_MACHINE_H
#define MMCMP_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct strbuf;
struct machine_info;
struct run_info;

/*
 * machine: facts about the machine and process that a run records.
 * Reading is best effort: a fact that cannot be read is left NULL or 0,
 * never an error, since a benchmark must run on any kernel.
 *
 * machine_fields[] lists every member of struct machine_info (run-data.h)
 * once, as data: the JSON export writes and the import reads the members
 * it names, in its order; `mmcmp show` and compare's list of machine
 * differences take theirs from it too, so a new fact is added in one row
 * (and its column in the store). Nothing here fails; the table is
 * constant.
 */

/* What a member holds; every string is char *, every number int64_t. */
enum machine_kind {
	MACHINE_STRING, /* a short one-line value */
	MACHINE_TEXT,	/* a string that may be long: the kernel cmdline */
	MACHINE_SHA256, /* 64 lowercase hex digits */
	MACHINE_CHOICE, /* one of choices */
	MACHINE_INT,	/* from 0 to max; 0 is unknown */
};

/*
 * How `mmcmp show` prints a fact. A fact with a label starts a line
 * "  LABEL:" padded to 13 columns; one without continues the line before,
 * after join. An unknown string (NULL or empty) prints as unknown; a
 * number prints shifted right by shift, then unit and, when plural is
 * set and it is not 1, an 's'; when unknown is set, a number of 0 or
 * less prints as unknown instead.
 */
struct machine_show {
	unsigned pos; /* its place in show's order, 1 first */
	const char *label;
	const char *join;
	const char *unknown;
	const char *unit;
	unsigned shift;
	bool plural;
};

struct machine_field {
	const char *name; /* the JSON member, and compare's name for it */
	size_t offset;	  /* of the member in struct machine_info */
	enum machine_kind kind;
	int64_t max;		    /* MACHINE_INT: the largest valid value */
	const char *const *choices; /* MACHINE_CHOICE: NULL-terminated */
	struct machine_show show;
	/* Its place in compare's list of differences (1 first), 0: none. */
	unsigned compare_pos;
};

/* Every member of struct machine_info, in the export format's order. */
extern const struct machine_field machine_fields[];
extern const size_t machine_fields_nr;

/* The string member f of m (f->kind is not MACHINE_INT), maybe NULL. */
const char *machine_field_str(const struct machine_field *f,
			      const struct machine_info *m);
/* The number member f of m (f->kind is MACHINE_INT). */
int64_t machine_field_int(const struct machine_field *f,
			  const struct machine_info *m);
/* The string member f of m, for filling it (the caller owns the string). */
char **machine_field_str_at(const struct machine_field *f,
			    struct machine_info *m);
/* The number member f of m, for filling it. */
int64_t *machine_field_int_at(const struct machine_field *f,
			      struct machine_info *m);

/*
 * Append the value of f in m to out as text (a string as it is, a number
 * in decimal) and return true; false, appending nothing, when it is
 * unknown: a NULL or empty string, a number of 0 or less.
 */
bool machine_field_text(const struct machine_field *f,
			const struct machine_info *m, struct strbuf *out);

/*
 * The field at place pos (1 first) of show's order, or of compare's;
 * NULL past the last.
 */
const struct machine_field *machine_field_show(unsigned pos);
const struct machine_field *machine_field_compare(unsigned pos);

/*
 * Append the facts of m to out, one line each, as `mmcmp show` lists
 * them, each escaped for a terminal (names_escape()).
 */
void machine_info_show(const struct machine_info *m, struct strbuf *out);

/*
 * Check the machine facts of ri and its mmcmp version, as an import
 * takes them from a file: 0 when every one is valid UTF-8 without a
 * control character, else -1 with "machine fact 'NAME' 'VALUE' contains
 * a control character" (or "is not UTF-8"), VALUE quoted for one line,
 * appended to err.
 */
int machine_facts_check(const struct run_info *ri, struct strbuf *err);

/*
 * Fill m (zeroed by the caller; release with machine_info_release()):
 * hostname and uname, /proc/cmdline, the CPU model of /proc/cpuinfo,
 * online CPUs, MemTotal; the transparent hugepage modes of
 * /sys/kernel/mm/transparent_hugepage/{enabled,defrag}, cpu0's cpufreq
 * governor, the nodeN entries of /sys/devices/system/node, SMT from
 * /sys/devices/system/cpu/smt/control (or active), the cgroup layout from
 * the filesystem types under /sys/fs/cgroup (statfs), and the SHA-256 of
 * /proc/config.gz, else of /boot/config-RELEASE.
 */
void machine_info_read(struct machine_info *m);

/*
 * The selected word of a sysfs choice file ("always [madvise] never\n"
 * gives "madvise"), or the whole text without surrounding blanks when it
 * has no brackets; NULL when that is empty. The caller frees it.
 */
char *machine_sysfs_choice(const char *text);

/*
 * The start time of process pid in clock ticks after boot (field 22 of
 * /proc/PID/stat), or -1 when the process does not exist.
 */
int64_t machine_proc_start(pid_t pid);
/*
 * Now in the same clock ticks after boot (CLOCK_BOOTTIME, rounded down as
 * the kernel rounds a start time): a process started after this call has
 * a machine_proc_start() no less than it; -1 when the clock fails.
 */
int64_t machine_boot_ticks(void);

/* The current UTC time as "YYYY-MM-DDTHH:MM:SSZ" into out. */
void machine_utc_now(char out[32]);

#endif /* MMCMP_MACHINE_H */
