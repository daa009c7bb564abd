/* campaign-drive: what mmcmp campaign resume does, and start at its end. */
#include "campaign-drive.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "bisect-cmd.h"
#include "campaign-machine.h"
#include "campaign-run.h"
#include "campaign.h"
#include "cmd.h"
#include "kexec.h"
#include "run-progress.h"
#include "session-check.h"
#include "store-campaign.h"
#include "store.h"
#include "strbuf.h"

/*
 * Run boot bi and record how it ended: true when its run failed; *stop
 * becomes 130 when it was interrupted, 1 when its end cannot be stored.
 */
static bool run_boot(struct store *st, struct campaign *c, size_t bi,
		     bool quiet, int *stop)
{
	struct run_progress rp = {.on = !quiet && isatty(STDERR_FILENO)};
	char *path = session_workload_path();
	struct campaign_run_opts o = {
		.path = path,
		.stop = run_signals_stop(),
		.cut = run_signals_cut(),
		.progress = run_progress_show,
		.warning = run_progress_warning,
		.ctx = &rp,
		.settle_s = c->settle_s,
	};
	enum session_status status = SESSION_FAILED;
	struct strbuf err = STRBUF_INIT;
	struct run_signals sigs;
	bool conflict = false, failed = false;

	printf("campaign %" PRId64 ": boot %ld, kernel %s: its iterations\n",
	       c->id, c->boots[bi].number, c->boots[bi].kernel);
	fflush(stdout);
	run_signals_catch(&sigs);
	if (campaign_run_boot(st, c, bi, &o, &status, &err))
		failed = error("%s", err.buf);
	run_progress_clear(&rp);
	run_signals_restore(&sigs);
	strbuf_reset(&err);
	campaign_boot_end(
		c, bi,
		status == SESSION_INTERRUPTED ? CAMPAIGN_BOOT_INTERRUPTED
					      : CAMPAIGN_BOOT_DONE,
		(double)time(NULL),
		status == SESSION_INTERRUPTED ? "interrupted by a signal"
					      : NULL);
	if (store_campaign_update(st, c, &conflict, &err) || conflict)
		*stop = error("cannot record the end of boot %ld: %s",
			      c->boots[bi].number,
			      conflict ? "it was changed meanwhile" : err.buf);
	if (status == SESSION_INTERRUPTED)
		*stop = 130;
	free(path);
	strbuf_release(&err);
	return failed || status == SESSION_FAILED;
}

/* The campaign is over: remove its unit, go back to the home kernel. */
static int finish(struct store **st, const struct campaign *c,
		  const struct campaign_machine *m)
{
	struct strbuf err = STRBUF_INIT;
	struct campaign_progress p;
	int64_t id = 0;
	long number = 0;

	campaign_progress(c, &p);
	printf("campaign %" PRId64 ": done, %zu boots done, %zu failed, %zu "
	       "interrupted\n",
	       c->id, p.done, p.failed, p.interrupted);
	if (c->unit_path && (campaign_unit_remove(c->unit_path, &err) ||
			     store_campaign_set_unit(*st, c->id, NULL, &err)))
		warning("%s", err.buf);
	strbuf_release(&err);
	if (!campaign_cmdline_tokens(m->cmdline, &id, &number) || id != c->id)
		return 0;
	printf("campaign %" PRId64 ": rebooting to the default kernel\n",
	       c->id);
	fflush(stdout);
	store_close(*st);
	*st = NULL;
	return machine_reboot(&err) ? error("%s", err.buf) : 0;
}

/* Boot c->boots[bi]: returns only when that failed, then recorded. */
static int boot(struct store **st, struct campaign *c, size_t bi,
		const char *db)
{
	struct strbuf err = STRBUF_INIT, why = STRBUF_INIT;
	bool conflict = false;
	int ret = 0;

	printf("campaign %" PRId64 ": boot %ld, kernel %s, by %s: %s\n", c->id,
	       c->boots[bi].number, c->boots[bi].kernel,
	       campaign_method_name(c->method), c->boots[bi].cmdline);
	fflush(stdout);
	store_close(*st);
	*st = NULL;
	campaign_boot_now(c, &c->boots[bi], &why);
	*st = store_open(db, &err);
	if (!*st)
		return error("%s", err.buf);
	error("boot %ld failed: %s", c->boots[bi].number, why.buf);
	campaign_boot_end(c, bi, CAMPAIGN_BOOT_FAILED, (double)time(NULL),
			  why.buf);
	if (store_campaign_update(*st, c, &conflict, &err))
		ret = error("%s", err.buf);
	strbuf_release(&err);
	strbuf_release(&why);
	return ret;
}

/* What resume does, also at the end of start: until a boot or the end. */
int campaign_drive(struct store **st, bool quiet, const char *db)
{
	struct campaign c = CAMPAIGN_INIT;
	struct campaign_machine m = {0};
	struct strbuf err = STRBUF_INIT;
	enum campaign_action act = CAMPAIGN_NONE;
	size_t bi = 0;
	bool failed = false;
	int ret = 0;

	if (campaign_machine_read(&m, &err)) {
		ret = error("%s", err.buf);
		goto out;
	}
	while (!ret) {
		if (campaign_next(*st, &c, &m, &act, &bi, &err)) {
			ret = error("%s", err.buf);
			break;
		}
		if (act == CAMPAIGN_NONE) {
			printf(c.id ? "campaign %" PRId64 ": %s\n"
				    : "no campaign%.0" PRId64 "%s\n",
			       c.id, c.id ? campaign_state_name(c.state) : "");
			break;
		}
		if (act == CAMPAIGN_BUSY) {
			printf("campaign %" PRId64 ": boot %ld is run by pid "
			       "%" PRId64 "\n",
			       c.id, c.boots[bi].number, c.boots[bi].pid);
			break;
		}
		if (act == CAMPAIGN_FINISH) {
			ret = finish(st, &c, &m);
			break;
		}
		if (act == CAMPAIGN_BOOT) {
			ret = boot(st, &c, bi, db);
			continue;
		}
		if (act == CAMPAIGN_EXTEND) {
			ret = bisect_machine_resume(*st, &c);
			continue;
		}
		/*
		 * A boot whose run failed is over all the same: the next
		 * kernel boots, as nobody may be there to resume by hand.
		 */
		failed |= run_boot(*st, &c, bi, quiet, &ret);
	}
	if (!ret && failed)
		ret = 1;
out:
	campaign_release(&c);
	campaign_machine_release(&m);
	strbuf_release(&err);
	return ret;
}
