#ifndef MMCMP_CAMPAIGN_RUN_H
#define MMCMP_CAMPAIGN_RUN_H

#include <signal.h>
#include <stddef.h>

#include "campaign.h"
#include "session.h"

struct campaign;
struct store;
struct strbuf;

/*
 * campaign-run: the iterations of one boot of a campaign (campaign.h),
 * run by `mmcmp campaign resume` in the kernel of that boot exactly as
 * `mmcmp run` runs them on this machine (the local executor, monitors,
 * settings, cgroups, hooks), from the config text the campaign keeps.
 * Each boot adds one run to each label of its kernel (`--append`), with
 * the boot in its boot table under the campaign's boot number, so that
 * the boot table, `--unit boot` and compare see a VM run's shape. A
 * bisection's boot (campaign.bisect_id) boots its commit's kernel, the
 * boot's, labelled "bisect-KERNEL". The store, campaign and options are
 * borrowed.
 */

struct campaign_run_opts {
	const char *path;		   /* PATH of the commands */
	volatile sig_atomic_t *stop, *cut; /* as session_opts */
	void (*progress)(void *ctx, const struct session_progress *p);
	void (*warning)(void *ctx, const char *msg);
	void *ctx;
	double settle_s; /* wait this long first (interrupted by *stop) */
};

/*
 * Run boot c->boots[bi]; *status says how its runs ended. -1 (with one
 * line in err) when the config no longer loads or the run could not go
 * on; its finished iterations are stored all the same.
 */
int campaign_run_boot(struct store *st, const struct campaign *c, size_t bi,
		      const struct campaign_run_opts *o,
		      enum session_status *status, struct strbuf *err);

struct campaign_machine;

/*
 * Read the running campaign (or the newest) of st into c, decide what
 * this resume does with the facts of m (campaign_decide()) and write the
 * decision, reading again and deciding anew when another resume changed
 * the campaign meanwhile. *act and *bi as campaign_decide() gives them;
 * c->id is 0 when st has no campaign.
 */
int campaign_next(struct store *st, struct campaign *c,
		  const struct campaign_machine *m, enum campaign_action *act,
		  size_t *bi, struct strbuf *err);

#endif /* MMCMP_CAMPAIGN_RUN_H */
