/* bisect-machine: mmcmp bisect with machine: in CONFIG, and its resumes. */
#include "bisect-cmd.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bisect-machine.h"
#include "campaign-drive.h"
#include "campaign-machine.h"
#include "campaign.h"
#include "cmd.h"
#include "kexec.h"
#include "run-progress.h"
#include "store-bisect.h"
#include "store-campaign.h"
#include "store.h"

int bisect_machine_refuse(const struct cmd *cmd, const struct bisect_drive *d,
			  const struct bisect_cmd_machine *mo)
{
	struct strbuf err = STRBUF_INIT, work = STRBUF_INIT;
	int ret = 0;

	/* The builds' directory itself, not the one it is in. */
	strbuf_addf(&work, "%s/.", d->workdir);
	if (campaign_check_host(mmcmp_db_path(), mo->no_unit, &err) ||
	    campaign_check_disk(work.buf, "the build directory", "--work",
				&err) ||
	    kexec_check(&err))
		ret = usage_error(cmd, "%s", err.buf);
	strbuf_release(&err);
	strbuf_release(&work);
	return ret;
}

static void out_warning(void *ctx, const char *msg)
{
	(void)ctx;
	warning("%s", msg);
}

/* The running binary, for the unit's ExecStart. */
static void self_path(char *self, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", self, size - 1);

	self[n > 0 ? n : 0] = '\0';
}

/* The boots' letters of a batch of nr slots (A B, or A C B C), rounds. */
static void say_schedule(const char *letters, size_t nr, size_t rounds)
{
	size_t *order = xcalloc(nr * rounds, sizeof(*order));

	campaign_schedule(nr, (int)rounds, order);
	for (size_t i = 0; i < nr * rounds; i++)
		printf(" %c", letters[order[i]]);
	putchar('\n');
	free(order);
}

/* --check: the plan, each boot's command line and the unit. */
static void print_check(const struct bisect_drive *d, const struct campaign *c,
			const struct bisect_cmd_machine *mo,
			const char *unit_dir)
{
	struct strbuf line = STRBUF_INIT;
	char self[4096];

	printf("bisect on this machine: %zu commits, rows '%s' (%s is "
	       "better), alpha %g, method kexec, home kernel %s\n",
	       d->commits.nr, d->operation,
	       d->rule.higher_better ? "higher" : "lower", d->rule.alpha,
	       c->home_release);
	printf("a batch of the ends, %zu rounds:", d->rule.rounds);
	say_schedule("AB", 2, d->rule.rounds);
	printf("a batch of a step (C the candidate):");
	say_schedule("ACBC", 4, d->rule.rounds);
	campaign_cmdline(c->home_cmdline, d->append, 0, 1, &line);
	printf("boot 1's command line: %s\n", line.buf);
	printf("builds in %s: %s%s%s; nothing is built, booted or stored "
	       "now\n",
	       d->workdir, d->image, d->initrd ? " and " : "",
	       d->initrd ? d->initrd : "");
	self_path(self, sizeof(self));
	strbuf_reset(&line);
	campaign_unit_text(self, mmcmp_db_path(), &line);
	printf("would install %s%s/%s:\n",
	       mo->no_unit ? "no unit (--no-unit); without it, " : "", unit_dir,
	       CAMPAIGN_UNIT_NAME);
	fputs(line.buf, stdout);
	strbuf_release(&line);
}

/* The campaign of d's bisection: no boots yet, the home kernel's. */
static int plan(const struct bisect_drive *d, struct campaign *c,
		struct strbuf *err)
{
	struct campaign_machine m = {0};

	if (campaign_machine_read(&m, err))
		return -1;
	c->label = xstrdup("bisect");
	c->config_path = xstrdup(d->config_path);
	c->config_text = xstrdup(d->cfg.text);
	c->method = CAMPAIGN_KEXEC;
	c->settle_s = d->cfg.machine.settle_s;
	c->boot_timeout_s = d->cfg.machine.boot_timeout_s;
	c->home_release = xstrdup(m.release);
	c->home_cmdline = xstrdup(m.cmdline);
	c->started_at = (double)time(NULL);
	campaign_machine_release(&m);
	return 0;
}

/* Build the ends now, while the user is here to see them fail. */
static int build_ends(struct bisect_drive *d, struct strbuf *err)
{
	struct bisect_ops ops;
	char hash[65];

	bisect_drive_ops(d, &ops);
	for (int i = 0; i < 2; i++) {
		int r = ops.build(ops.ctx, i ? d->commits.nr - 1 : 0, hash,
				  err);

		if (r > 0)
			return error_addf(err, "the %s end does not build",
					  i ? "bad" : "good");
		if (r)
			return -1;
	}
	return 0;
}

/* Record the bisection and its campaign, install the unit. */
static int record(struct bisect_drive *d, struct campaign *c,
		  const struct bisect_cmd_machine *mo, const char *unit_dir,
		  struct strbuf *err)
{
	struct store_bisect_machine m = {
		.build = (char *)d->build,
		.image = (char *)d->image,
		.initrd = (char *)d->initrd,
		.append = (char *)d->append,
		.workdir = d->workdir,
		.margin_pct = d->rule.margin_pct,
		.rounds = (int64_t)d->rule.rounds,
		.max_batches = (int64_t)d->rule.max_batches,
	};
	struct strbuf unit = STRBUF_INIT, path = STRBUF_INIT;
	char self[4096];
	int ret = -1;

	if (bisect_machine_record(d, c, &m, err))
		goto out;
	self_path(self, sizeof(self));
	campaign_unit_text(self, mmcmp_db_path(), &unit);
	if (!mo->no_unit &&
	    (campaign_unit_install(unit_dir, unit.buf, &path, err) ||
	     store_campaign_set_unit(d->st, c->id, path.buf, err)))
		goto out;
	printf("bisection %" PRId64 ": %zu commits on this machine, campaign "
	       "%" PRId64 "%s%s\n",
	       d->bisect_id, d->commits.nr, c->id, path.len ? ", unit " : "",
	       path.buf);
	ret = 0;
out:
	strbuf_release(&unit);
	strbuf_release(&path);
	return ret;
}

int bisect_machine_start(struct bisect_drive *d,
			 const struct bisect_cmd_machine *mo)
{
	const char *unit_dir =
		mo->unit_dir ? mo->unit_dir : "/etc/systemd/system";
	struct campaign c = CAMPAIGN_INIT;
	struct strbuf err = STRBUF_INIT;
	int ret = 1;

	if (plan(d, &c, &err)) {
		error("%s", err.buf);
		goto out;
	}
	if (mo->check) {
		print_check(d, &c, mo, unit_dir);
		ret = 0;
		goto out;
	}
	if (build_ends(d, &err) || record(d, &c, mo, unit_dir, &err)) {
		error("%s", err.buf);
		goto out;
	}
	bisect_drive_header(d);
	ret = campaign_drive(&d->st, mo->quiet, mmcmp_db_path());
out:
	campaign_release(&c);
	strbuf_release(&err);
	return ret;
}

int bisect_machine_resume(struct store *st, struct campaign *c)
{
	const struct bisect_drive_out out = {
		bisect_cmd_out_log, bisect_cmd_out_note, out_warning, NULL};
	struct bisect_machine bm;
	struct bisect_result res = {0};
	enum bisect_machine_step step = BISECT_MACHINE_CHANGED;
	struct strbuf err = STRBUF_INIT;
	size_t from = c->boots_nr;
	int ret = 0;

	if (bisect_machine_open(&bm, st, c, &out, &err) ||
	    bisect_machine_next(&bm, &res, &step, &err)) {
		ret = error("bisection %" PRId64 ": %s", c->bisect_id, err.buf);
		goto out;
	}
	if (step == BISECT_MACHINE_BATCH)
		printf("bisection %" PRId64 ": the next batch is boots %zu to "
		       "%zu\n",
		       c->bisect_id, from + 1, c->boots_nr);
	else if (step == BISECT_MACHINE_OVER)
		bisect_cmd_report(&bm.d, &res);
	fflush(stdout);
out:
	bisect_result_release(&res);
	bisect_machine_close(&bm);
	strbuf_release(&err);
	return ret;
}

void bisect_machine_status(struct store *st, const struct campaign *c)
{
	struct store_bisect b = {0};
	struct store_bisect_step *steps = NULL;
	struct strbuf err = STRBUF_INIT, line = STRBUF_INIT;
	size_t nr = 0;

	if (store_bisect_get(st, c->bisect_id, &b, &err) ||
	    store_bisect_steps(st, c->bisect_id, &steps, &nr, &err)) {
		warning("%s", err.buf);
		goto out;
	}
	printf("bisection %" PRId64 ": %.12s..%.12s of %s, rows '%s': %s\n",
	       b.id, b.good, b.bad, b.repo, b.operation,
	       b.outcome		      ? b.outcome
	       : c->state == CAMPAIGN_ABORTED ? "aborted"
					      : "going on");
	bisect_drive_format_header(&line);
	for (size_t i = 0; i < nr; i++) {
		strbuf_addch(&line, '\n');
		bisect_drive_format_step(&steps[i], &line);
	}
	puts(line.buf);
	if (b.culprit)
		printf("%s: %s\n",
		       b.outcome && !strcmp(b.outcome, "found")
			       ? "first bad commit"
			       : "culprit, not verified",
		       b.culprit);
out:
	for (size_t i = 0; i < nr; i++)
		store_bisect_step_release(&steps[i]);
	free(steps);
	store_bisect_release(&b);
	strbuf_release(&err);
	strbuf_release(&line);
}
