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
int bisect_drive_begin(const struct cmd *cmd, int argc, char **argv,
		       struct bisect_drive *d, struct strbuf *err);
void bisect_cmd_close(struct bisect_drive *d);

#endif /* MMCMP_BISECT_CMD_H */
