#ifndef MMCMP_BISECT_DRIVE_H
#define MMCMP_BISECT_DRIVE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "bisect.h"
#include "config.h"
#include "strbuf.h"
#include "strvec.h"

struct store;
struct store_bisect_step;

/*
 * bisect-drive: what `mmcmp bisect` and `mmcmp bisect-step` share: the
 * config, whose rows --operation picks, the commits, and the hooks of
 * struct bisect_ops: a build is bisect_tree_build() of a commit, a batch
 * is one session of the config with a build per slot (cwd its build
 * directory, label bisect-COMMIT, interleaved) or a kernel per slot,
 * each unit value an iteration's (a boot's) mean of the chosen rows
 * (their geometric mean when there are several). The log goes to
 * out.log and into the store as it is made. Functions returning int
 * give 0, or -1 with one line in err.
 */
/* Where the drive's words go; a NULL hook says nothing. */
struct bisect_drive_out {
	void (*log)(void *ctx, const char *line);    /* a line of the log */
	void (*note)(void *ctx, const char *line);   /* a commit not built */
	void (*warning)(void *ctx, const char *msg); /* a run's warning */
	void *ctx;
};

struct bisect_drive {
	const char *config_path, *repo, *build, *image, *operation;
	const char *append; /* kernels: their command line additions, or NULL */
	const char *initrd; /* machine: the initrd the build makes, or NULL */
	/* The config's text, read instead of config_path; NULL: read it. */
	const char *config_text;
	/* What the next line of the log says besides (its note); NULL: no. */
	const char *note;
	char *workdir; /* absolute */
	struct bisect_drive_out out;
	/* session_opts' stop and cut of every batch; may be NULL. */
	volatile sig_atomic_t *stop, *cut;
	struct bisect_rule rule;
	struct config cfg;
	char *workload_path;
	struct store *st;
	struct strvec commits; /* full hashes, the index of struct bisect_ops */
	int64_t bisect_id;     /* 0: the log is not stored */
	size_t steps;	       /* lines of the log so far */
	size_t warnings;       /* of the runs so far */
	bool kernels; /* CONFIG has vm: or machine:: each image boots */
	bool machine; /* CONFIG has machine:: on this machine (bisect-machine.h)
		       */
	bool usage;   /* the failure was the user's input (exit 2) */
	bool parsed;  /* the options were read */
};

/*
 * Load the config (no builds: or kernels: of its own), check that the
 * operation glob names rows of one direction, find the repository and
 * make the work directory (given, or GIT_DIR/mmcmp-bisect when NULL). A
 * config with vm: bisects kernels: each commit's image is then a kernel
 * booted in QEMU guests (with append on its command line), a batch's
 * rounds are boots, A C B C alternating, each running the config's
 * iterations, and a unit value is a boot's mean of its iterations'
 * means. With machine: instead the kernels boot on this machine
 * (bisect-machine.h), with initrd when given, which is then hashed with
 * the image. The store is the caller's to open, once the input is
 * checked.
 */
int bisect_drive_open(struct bisect_drive *d, const char *workdir,
		      struct strbuf *err);
void bisect_drive_close(struct bisect_drive *d);

/* The runs' warnings out.warning was not given (past the first few). */
size_t bisect_drive_warnings_left(const struct bisect_drive *d);

/*
 * Append the unit values of stored run id to out: per chosen row each
 * iteration's mean (with kernels, each boot's mean of those), the k-th
 * unit the geometric mean of the rows' k-th.
 */
int bisect_drive_collect(struct bisect_drive *d, int64_t id,
			 struct bisect_values *out, struct strbuf *err);

/* The hooks, with d as their ctx. */
void bisect_drive_ops(struct bisect_drive *d, struct bisect_ops *ops);

/* "bisect-" and the commit's first 12 digits (caller frees). */
char *bisect_drive_label(const char *commit);

/*
 * Store a new bisection of the ends first and last of d->commits into
 * d->bisect_id; with resume, take the one of the same ends, rows and
 * config still going on, when there is one.
 */
int bisect_drive_start(struct bisect_drive *d, bool resume, struct strbuf *err);

/*
 * Why there is nothing to search, appended to say as a line: the change
 * and the MDE the ends showed (ends), or, ends NULL, their one image.
 */
void bisect_drive_say_ends(const struct bisect_drive *d,
			   const struct bisect_look *ends, struct strbuf *say);

/*
 * A line of the log as bisect prints it, appended to out: step, kind,
 * commit, verdict, units, then p, pos and alpha, or the commit of the
 * same binary; its note, when it has one, on a second line.
 */
void bisect_drive_format_step(const struct store_bisect_step *row,
			      struct strbuf *out);

/* The header of the log, appended to out, and said to out.log. */
void bisect_drive_format_header(struct strbuf *out);
void bisect_drive_header(const struct bisect_drive *d);

#endif /* MMCMP_BISECT_DRIVE_H */
