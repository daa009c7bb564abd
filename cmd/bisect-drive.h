#ifndef MMCMP_BISECT_DRIVE_H
#define MMCMP_BISECT_DRIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "bisect.h"
#include "config.h"
#include "parse-options.h"
#include "run-progress.h"
#include "strbuf.h"
#include "strvec.h"

struct cmd;
struct store;

/*
 * bisect-drive: what `mmcmp bisect` and `mmcmp bisect-step` share: the
 * config, whose rows --operation picks, the commits, and the hooks of
 * struct bisect_ops: a build is bisect_tree_build() of a commit, a batch
 * is one session of the config with a build per slot (cwd its build
 * directory, label bisect-COMMIT, interleaved), each unit value an
 * iteration's mean of the chosen rows (their geometric mean when there
 * are several). The log goes to stdout and into the store as it is
 * made. Functions returning int give 0, or -1 with one line in err.
 */
struct bisect_drive {
	const char *config_path, *repo, *build, *image, *operation;
	char *workdir; /* absolute */
	bool quiet;
	struct bisect_rule rule;
	struct config cfg;
	char *workload_path;
	struct store *st;
	struct strvec commits; /* full hashes, the index of struct bisect_ops */
	int64_t bisect_id;     /* 0: the log is not stored */
	size_t steps;	       /* lines of the log so far */
	struct run_progress progress;
	size_t warnings; /* of the runs so far */
	bool usage;	 /* the failure was the user's input (exit 2) */
	bool parsed;	 /* the options were read */
};

/*
 * Load the config (no builds: or kernels: of its own), check that the
 * operation glob names rows of one direction, find the repository and
 * make the work directory (given, or GIT_DIR/mmcmp-bisect when NULL).
 * The store is the caller's to open, once the input is checked.
 */
int bisect_drive_open(struct bisect_drive *d, const char *workdir,
		      struct strbuf *err);
void bisect_drive_close(struct bisect_drive *d);

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
 * The options of both commands (into a struct of bisect-drive.c), and
 * their start: parse them into d, open d and find its commits, the ends
 * first and last. Returns 0 or the exit status, after the message.
 */
extern const struct cmd_option bisect_option_table[];
int bisect_drive_begin(const struct cmd *cmd, int argc, char **argv,
		       struct bisect_drive *d, struct strbuf *err);

/* Print the header of the log. */
void bisect_drive_header(const struct bisect_drive *d);

#endif /* MMCMP_BISECT_DRIVE_H */
