#ifndef MMCMP_STORE_CAMPAIGN_H
#define MMCMP_STORE_CAMPAIGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct campaign;
struct campaign_boot;
struct store;
struct strbuf;

/*
 * store-campaign: campaigns (campaign.h) in the store, the tables of
 * db/migrations/0009. A campaign read is the caller's (campaign_release());
 * what is written is copied. Functions give 0, or -1 with one line in err
 * and nothing changed.
 */

/*
 * Insert c and its boots as a running campaign; c->id is set, and each
 * boot's cmdline made (campaign_cmdline()) from c->home_cmdline, its
 * append and the new id. Fails when another campaign is running.
 */
int store_campaign_add(struct store *st, struct campaign *c,
		       struct strbuf *err);
/*
 * Insert the boots c->boots[from..] of running campaign c (pending, each
 * cmdline made as store_campaign_add() makes it): a bisection's next
 * batch. When the campaign no longer runs or has other than `from` boots
 * (another resume added them meanwhile), nothing is written and
 * *conflict is set (no error).
 */
int store_campaign_add_boots(struct store *st, struct campaign *c, size_t from,
			     bool *conflict, struct strbuf *err);
/*
 * Read campaign id into c (overwritten); id 0: the running one, else the
 * newest. c->id stays 0 when there is none. A bisection's campaign
 * (0014) has its bisect_id, and is open while the bisection has no
 * outcome.
 */
int store_campaign_load(struct store *st, int64_t id, struct campaign *c,
			struct strbuf *err);
/*
 * Write what campaign_decide() changed (the boots with `changed` set,
 * the campaign's state when state_changed), in one transaction, each
 * only if it is still in its old state: when another resume changed it
 * meanwhile, nothing is written and *conflict is set (no error). The
 * changed flags are cleared after a write.
 */
int store_campaign_update(struct store *st, struct campaign *c, bool *conflict,
			  struct strbuf *err);
/*
 * The run that boot b of a campaign made: the run whose boot table has
 * b's number, kernel and command line (which carries the campaign's and
 * the boot's tokens), into *run_id; 0 when there is none (a boot that
 * never ran).
 */
int store_campaign_boot_run(struct store *st, const struct campaign_boot *b,
			    int64_t *run_id, struct strbuf *err);
/* Record the resume unit installed for campaign id (NULL: none). */
int store_campaign_set_unit(struct store *st, int64_t id, const char *path,
			    struct strbuf *err);
/* Mark running campaign id aborted; *was_running false when it was not. */
int store_campaign_abort(struct store *st, int64_t id, double now,
			 bool *was_running, struct strbuf *err);
/* Set *taken when some run already has label. */
int store_label_taken(struct store *st, const char *label, bool *taken,
		      struct strbuf *err);

#endif /* MMCMP_STORE_CAMPAIGN_H */
