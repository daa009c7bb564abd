#ifndef MMCMP_BISECT_STEP_H
#define MMCMP_BISECT_STEP_H

#include "bisect-drive.h"
#include "strbuf.h"

/*
 * bisect-step: one step of `git bisect run` (mmcmp bisect-step) on an
 * open, started drive: HEAD of d->repo classified against the ends as
 * mmcmp bisect classifies a candidate, the ends checked on the first call,
 * and the culprit git is about to name verified with fresh units. The calls
 * of one search share its log and error budget through the store. Returns
 * 0 with *out set and what to tell the user appended to say (lines), or -1
 * with one line in err.
 */
enum bisect_step_outcome {
	BISECT_STEP_GOOD, /* good-like: git marks it good */
	BISECT_STEP_BAD,  /* bad-like */
	BISECT_STEP_SKIP, /* unsure, or it does not build */
	/* No regression between the ends, or a culprit its verification
	 * does not confirm: git must stop. */
	BISECT_STEP_STOP,
};

int bisect_step(struct bisect_drive *d, enum bisect_step_outcome *out,
		struct strbuf *say, struct strbuf *err);

#endif /* MMCMP_BISECT_STEP_H */
