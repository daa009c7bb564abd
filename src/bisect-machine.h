#ifndef MMCMP_BISECT_MACHINE_H
#define MMCMP_BISECT_MACHINE_H

#include "bisect-drive.h"
#include "store-bisect.h"

struct campaign;

/*
 * bisect-machine: mmcmp bisect with machine: in CONFIG, a search across
 * boots of this machine that its process does not survive. The
 * bisection is recorded with a campaign (campaign.h) of no boots; once
 * every boot of it is over, a resume takes the search up again from the
 * database (bisect_machine_next()): each batch measured so far given
 * back from the campaign's boots in order (a done boot's run gives its
 * unit value; a failed or interrupted boot none, which the note of the
 * decision's log line says), each commit built as the search reaches
 * it, in its directory beside the others, and then either the boots of
 * the next batch appended to the campaign or the outcome stored.
 * Functions give 0, or -1 with one line in err.
 */
struct bisect_machine {
	struct bisect_drive d;	       /* d.st is borrowed: never closed */
	struct store_bisect b;	       /* the bisection's row */
	struct store_bisect_machine m; /* and its machine row */
	struct campaign *c;	       /* borrowed */
};

/*
 * Record the bisection of d (open, its commits found, d->st open) with
 * campaign c (planned, no boots) and m (its ids are set here), in one
 * transaction: d->bisect_id, c->id and m's ids are set.
 */
int bisect_machine_record(struct bisect_drive *d, struct campaign *c,
			  struct store_bisect_machine *m, struct strbuf *err);

/*
 * Open bm for campaign c of st, a bisection's (c->bisect_id): its rows,
 * the config text c keeps, its repository's commits; bm->d says its
 * words to out. Close it with bisect_machine_close(), also after a
 * failure.
 */
int bisect_machine_open(struct bisect_machine *bm, struct store *st,
			struct campaign *c, const struct bisect_drive_out *out,
			struct strbuf *err);
void bisect_machine_close(struct bisect_machine *bm);

enum bisect_machine_step {
	BISECT_MACHINE_BATCH,	/* the next batch's boots are appended */
	BISECT_MACHINE_OVER,	/* the search ended: res, the outcome stored */
	BISECT_MACHINE_CHANGED, /* another resume changed the campaign */
};

/*
 * Take the search up again from the campaign's boots, every one of them
 * over, into res (zeroed by the caller, released by it): the log lines
 * the campaign's batches decide that are not stored yet are stored and
 * said; then the boots of the next batch are appended to bm->c and the
 * store (A C B C ..., every other round reversed, or A B B A ... for the
 * ends) or the outcome is stored. Builds run here, one at a time: a lock
 * in the build directory keeps a second resume waiting.
 */
int bisect_machine_next(struct bisect_machine *bm, struct bisect_result *res,
			enum bisect_machine_step *step, struct strbuf *err);

#endif /* MMCMP_BISECT_MACHINE_H */
