/* mmcmp campaign: boot kernels on this machine in turn and run each boot. */
#include "cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bisect-cmd.h"
#include "campaign-drive.h"
#include "campaign-machine.h"
#include "campaign.h"
#include "config.h"
#include "kexec.h"
#include "plan.h"
#include "session-check.h"
#include "session.h"
#include "store-campaign.h"
#include "store.h"
#include "strbuf.h"
#include "strvec.h"

static const char campaign_usage[] =
	"usage: mmcmp campaign start|resume|status|abort [options] [CONFIG]\n"
	"\n"
	"start CONFIG: check everything, record the campaign of CONFIG's kernels\n"
	"and machine: in the database, install its resume unit and boot the\n"
	"first kernel (--check: print the schedule and what would be installed).\n"
	"resume: after a boot, check that the kernel running is the one the\n"
	"schedule expects, run that boot's iterations, boot the next kernel;\n"
	"after the last boot remove the unit and reboot to the default kernel.\n"
	"status: where the campaign is. abort: end it, keeping what is stored.\n"
	"\n"
	"Exit status: 0 done, 1 failure, 2 refused or bad arguments, 130\n"
	"interrupted.\n";

struct campaign_args {
	const char *verb, *config_path, *label, *unit_dir;
	bool check, no_unit, quiet;
};

static const struct cmd_option campaign_option_table[] = {
	OPT_STRING(
		"label", 0, struct campaign_args, label, "NAME",
		"start: label of the results; each kernel is stored as NAME-KERNEL"),
	OPT_FLAG(
		"check", 0, struct campaign_args, check, true,
		"start: check and print the schedule and what would be installed; changes nothing"),
	OPT_FLAG(
		"no-unit", 0, struct campaign_args, no_unit, true,
		"start: install no systemd unit; something else runs mmcmp campaign resume after every boot"),
	OPT_STRING(
		"unit-dir", 0, struct campaign_args, unit_dir, "DIR",
		"start: the systemd unit directory (default /etc/systemd/system)"),
	OPT_FLAG("quiet", 'q', struct campaign_args, quiet, true,
		 "no progress line"),
	OPT_END(),
};

static int parse_args(int argc, char **argv, struct campaign_args *a)
{
	static const char *const verbs[] = {"start", "resume", "status",
					    "abort"};

	argc = parse_cmd_options(&cmd_campaign, argc, argv, a);
	if (argc < 0)
		return 2;
	if (argc < 2)
		return usage_error(&cmd_campaign, "missing start, resume, "
						  "status or abort");
	a->verb = argv[1];
	for (size_t i = 0; i < ARRAY_SIZE(verbs); i++)
		if (!strcmp(a->verb, verbs[i]))
			goto known;
	return usage_error(&cmd_campaign, "unknown campaign command '%s'",
			   a->verb);
known:
	if (!strcmp(a->verb, "start") && argc < 3)
		return usage_error(&cmd_campaign, "missing CONFIG");
	if (argc > (strcmp(a->verb, "start") ? 2 : 3))
		return usage_error(&cmd_campaign, "unexpected argument '%s'",
				   argv[argc - 1]);
	a->config_path = argc > 2 ? argv[2] : NULL;
	if (!strcmp(a->verb, "start") && !a->label)
		return usage_error(&cmd_campaign, "start needs --label");
	return 0;
}

static void print_boots(const struct campaign *c)
{
	printf("boots:");
	for (size_t i = 0; i < c->boots_nr; i++)
		printf(" %ld:%s", c->boots[i].number, c->boots[i].kernel);
	putchar('\n');
}

/* --check: the schedule, each boot's command line, what is installed. */
static void print_check(const struct campaign *c, const char *unit_dir,
			const struct campaign_args *a, const char *db)
{
	struct strbuf unit = STRBUF_INIT, line = STRBUF_INIT;
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	self[n > 0 ? n : 0] = '\0';
	printf("campaign: method %s, settle %gs, boot timeout %gs, home "
	       "kernel %s\n",
	       campaign_method_name(c->method), c->settle_s, c->boot_timeout_s,
	       c->home_release);
	print_boots(c);
	printf("would create the campaign; its number, ID below, is given "
	       "when it is recorded\n");
	for (size_t i = 0; i < c->boots_nr; i++) {
		const struct campaign_boot *b = &c->boots[i];

		campaign_cmdline(c->home_cmdline, b->append, 0, b->number,
				 &line);
		printf("  boot %ld: kernel %s, %s (release %s)%s%s%s%s, "
		       "command line: %s\n",
		       b->number, b->kernel, b->image,
		       b->image_release ? b->image_release : "unknown",
		       b->initrd ? ", initrd " : "", b->initrd ? b->initrd : "",
		       b->entry ? ", entry " : "", b->entry ? b->entry : "",
		       line.buf);
	}
	campaign_unit_text(self, db, &unit);
	printf("would install %s%s/%s:\n",
	       a->no_unit ? "no unit (--no-unit); without it, " : "", unit_dir,
	       CAMPAIGN_UNIT_NAME);
	fputs(unit.buf, stdout);
	strbuf_release(&unit);
	strbuf_release(&line);
}

/* The campaign of config_path for start, into c; 0 or an exit status. */
static int prepare(const struct campaign_args *a, const char *db,
		   struct campaign *c)
{
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
	struct config cfg = CONFIG_INIT;
	struct plan plan = PLAN_INIT;
	struct strvec labels = STRVEC_INIT;
	struct campaign_machine m = {0};
	char *const no_params[] = {NULL};
	char *path = session_workload_path();
	int ret = 2;

	if (strbuf_read_file_max(&text, a->config_path, CONFIG_MAX_BYTES + 1,
				 &err) ||
	    config_load_buffer(&cfg, a->config_path, text.buf, text.len,
			       &err) ||
	    config_expand_kernels(&cfg, &err) ||
	    plan_prepare(&cfg, no_params, &err) ||
	    plan_build(&plan, &cfg, &err) ||
	    campaign_check(&cfg, db, a->no_unit, NULL, &err) ||
	    session_check_programs(&cfg, &plan, path, &err) ||
	    session_check_settings(&cfg, NULL, &err)) {
		error("%s", err.buf);
		goto out;
	}
	session_labels(&cfg, plan.builds_nr, a->label, &labels);
	for (size_t i = 0; i < labels.nr; i++)
		if (check_new_label(&cmd_campaign, labels.v[i]))
			goto out;
	if (campaign_machine_read(&m, &err) ||
	    campaign_plan(c, &cfg, a->config_path, text.buf, a->label, &m,
			  &err)) {
		ret = error("%s", err.buf);
		goto out;
	}
	ret = 0;
out:
	free(path);
	campaign_machine_release(&m);
	strvec_clear(&labels);
	plan_release(&plan);
	config_release(&cfg);
	strbuf_release(&text);
	strbuf_release(&err);
	return ret;
}

static int record(struct store *st, struct campaign *c,
		  const struct campaign_args *a, const char *unit_dir,
		  const char *db)
{
	struct strbuf err = STRBUF_INIT, unit = STRBUF_INIT, path = STRBUF_INIT;
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int ret = 1;

	self[n > 0 ? n : 0] = '\0';
	for (size_t i = 0; i < c->boots_nr; i++) {
		struct strbuf label = STRBUF_INIT;
		bool taken = false;

		strbuf_addf(&label, "%s-%s", c->label, c->boots[i].kernel);
		if (store_label_taken(st, label.buf, &taken, &err) || taken) {
			ret = taken ? usage_error(&cmd_campaign,
						  "label '%s' already has "
						  "results in '%s'",
						  label.buf, db)
				    : error("%s", err.buf);
			strbuf_release(&label);
			goto out;
		}
		strbuf_release(&label);
	}
	if (store_campaign_add(st, c, &err) ||
	    (!a->no_unit &&
	     (campaign_unit_text(self, db, &unit),
	      campaign_unit_install(unit_dir, unit.buf, &path, &err) ||
		      store_campaign_set_unit(st, c->id, path.buf, &err)))) {
		ret = error("%s", err.buf);
		goto out;
	}
	printf("campaign %" PRId64 ": %zu boots of label %s recorded%s%s\n",
	       c->id, c->boots_nr, c->label, path.len ? ", unit " : "",
	       path.buf);
	ret = 0;
out:
	strbuf_release(&err);
	strbuf_release(&unit);
	strbuf_release(&path);
	return ret;
}

static int status(struct store *st)
{
	struct campaign c = CAMPAIGN_INIT;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	int ret = 0;

	if (store_campaign_load(st, 0, &c, &err)) {
		ret = error("%s", err.buf);
		goto out;
	}
	if (c.id)
		campaign_describe(&c, (double)time(NULL), &out);
	fputs(c.id ? out.buf : "no campaign\n", stdout);
	if (c.bisect_id)
		bisect_machine_status(st, &c);
out:
	campaign_release(&c);
	strbuf_release(&err);
	strbuf_release(&out);
	return ret;
}

static int abort_campaign(struct store *st)
{
	struct campaign c = CAMPAIGN_INIT;
	struct strbuf err = STRBUF_INIT;
	bool was = false;
	int ret = 1;

	if (store_campaign_load(st, 0, &c, &err) ||
	    (c.id &&
	     store_campaign_abort(st, c.id, (double)time(NULL), &was, &err))) {
		error("%s", err.buf);
		goto out;
	}
	if (!was) {
		error("no campaign is running");
		goto out;
	}
	/* A kexec kernel loaded by a boot that failed stays no longer. */
	if ((c.unit_path && (campaign_unit_remove(c.unit_path, &err) ||
			     store_campaign_set_unit(st, c.id, NULL, &err))) ||
	    (c.method == CAMPAIGN_KEXEC && !geteuid() && kexec_unload(&err)))
		warning("%s", err.buf);
	printf("campaign %" PRId64 ": aborted; its stored runs stay\n", c.id);
	ret = 0;
out:
	campaign_release(&c);
	strbuf_release(&err);
	return ret;
}

static int start(const struct campaign_args *a, const char *db)
{
	const char *unit_dir =
		a->unit_dir ? a->unit_dir : "/etc/systemd/system";
	struct campaign c = CAMPAIGN_INIT;
	struct strbuf err = STRBUF_INIT;
	struct store *st = NULL;
	int ret = prepare(a, db, &c);

	if (ret)
		goto out;
	if (a->check) {
		print_check(&c, unit_dir, a, db);
		goto out;
	}
	st = store_open(db, &err);
	if (!st) {
		ret = error("%s", err.buf);
		goto out;
	}
	if (store_transient(st)) {
		ret = transient_db_error(&cmd_campaign);
		goto out;
	}
	ret = record(st, &c, a, unit_dir, db);
	if (!ret)
		ret = campaign_drive(&st, a->quiet, db);
out:
	campaign_release(&c);
	store_close(st);
	strbuf_release(&err);
	return ret;
}

static int campaign_main(int argc, char **argv)
{
	struct campaign_args args = {0};
	const char *db = mmcmp_db_path();
	struct strbuf err = STRBUF_INIT;
	struct store *st = NULL;
	int ret = parse_args(argc, argv, &args);

	if (ret)
		return ret;
	if (!strcmp(args.verb, "start"))
		return start(&args, db);
	st = strcmp(args.verb, "status") ? store_open(db, &err)
					 : store_open_read(db, &err);
	if (!st) {
		ret = error("%s", err.buf);
	} else if (!strcmp(args.verb, "status")) {
		ret = status(st);
	} else if (!strcmp(args.verb, "abort")) {
		ret = abort_campaign(st);
	} else {
		ret = campaign_drive(&st, args.quiet, db);
	}
	store_close(st);
	strbuf_release(&err);
	return ret;
}

const struct cmd cmd_campaign = {
	.name = "campaign",
	.summary = "boot kernels on this machine in turn and run each boot",
	.usage = campaign_usage,
	.options = campaign_option_table,
	.run = campaign_main,
};
