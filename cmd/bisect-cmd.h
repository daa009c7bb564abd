#ifndef MMCMP_BISECT_CMD_H
#define MMCMP_BISECT_CMD_H

#include "bisect-drive.h"
#include "parse-options.h"
#include "strbuf.h"

struct cmd;

/*
 * What mmcmp bisect and bisect-step share on top of src/bisect-drive.h:
 * their options (into a struct of cmd-bisect.c) and their start, which
 * parses them into d, points d's words at stdout and stderr (the log
 * only without --quiet), opens d and finds its commits, the ends first
 * and last; 0 or the exit status, after the message. bisect_cmd_close()
 * says how many of the runs' warnings were not shown, then closes d.
 */
extern const struct cmd_option bisect_option_table[];

/* The options of a bisection on this machine (machine: in CONFIG). */
struct bisect_cmd_machine {
	bool check, no_unit, quiet;
	const char *unit_dir;
};

/*
 * mo, when not NULL, gets the options of a bisection on this machine,
 * whose refusals (bisect_machine_refuse()) come before the store opens,
 * which --check leaves unopened; NULL refuses machine: (bisect-step).
 */
int bisect_drive_begin(const struct cmd *cmd, int argc, char **argv,
		       struct bisect_drive *d, struct bisect_cmd_machine *mo,
		       struct strbuf *err);
void bisect_cmd_close(struct bisect_drive *d);
/* The drive's words (ctx unused): a log line on stdout, flushed; a note on
 * stderr. */
void bisect_cmd_out_log(void *ctx, const char *line);
void bisect_cmd_out_note(void *ctx, const char *line);
/* Print what the search found (r of d's commits); the exit status. */
int bisect_cmd_report(const struct bisect_drive *d,
		      const struct bisect_result *r);

/*
 * cmd/bisect-machine.c: what a bisection on this machine refuses before
 * anything is stored (exit 2 after the message, else 0); its start,
 * which ends in the first boot; the resume's step when every boot of
 * its campaign is over (the exit status: 0 to go on); and the
 * bisection's part of `campaign status`.
 */
struct campaign;
struct store;
int bisect_machine_refuse(const struct cmd *cmd, const struct bisect_drive *d,
			  const struct bisect_cmd_machine *mo);
int bisect_machine_start(struct bisect_drive *d,
			 const struct bisect_cmd_machine *mo);
int bisect_machine_resume(struct store *st, struct campaign *c);
void bisect_machine_status(struct store *st, const struct campaign *c);

#endif /* MMCMP_BISECT_CMD_H */
