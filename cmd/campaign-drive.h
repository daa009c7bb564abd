#ifndef MMCMP_CAMPAIGN_DRIVE_H
#define MMCMP_CAMPAIGN_DRIVE_H

#include <stdbool.h>

struct store;

/*
 * campaign-drive: the loop of `mmcmp campaign resume` (and of `start`
 * once the campaign is recorded) over the database db open in *st:
 * decide (campaign_next()), run this boot's iterations, boot the next
 * kernel, take a bisection's search up again once its batch is over
 * (bisect_machine_resume()), or finish (remove the unit, reboot to the
 * default kernel). It
 * prints what it does; a boot that succeeds does not return. *st may be
 * closed and reopened (NULL when it could not be). Returns the exit
 * status: 0, 1 after an error, 130 when the iterations were interrupted.
 */
int campaign_drive(struct store **st, bool quiet, const char *db);

#endif /* MMCMP_CAMPAIGN_DRIVE_H */
