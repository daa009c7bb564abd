/* mmcmp bisect-step: one step of `git bisect run`, good, bad or skip. */
#include "cmd.h"

#include <stdio.h>

#include "bisect-cmd.h"
#include "bisect-step.h"
#include "run-progress.h"

static const char step_usage[] =
	"usage: mmcmp bisect-step [options] CONFIG --good REV --bad REV --operation GLOB --build CMD --image PATH\n"
	"\n"
	"One step of `git bisect run`: classify the commit checked out (HEAD\n"
	"of --builds-from) against the ends as mmcmp bisect does. The first\n"
	"call checks the ends; the calls of one search share its log and its\n"
	"error budget in the database.\n"
	"\n"
	"When the verdict makes a commit git's first bad one, that commit and\n"
	"its parent are measured again with fresh units, as mmcmp bisect\n"
	"verifies its culprit.\n"
	"\n"
	"Exit status, as git bisect run expects: 0 good-like, 1 bad-like, 125\n"
	"unsure or it does not build (skip), 128 no regression between the\n"
	"ends, a culprit its verification does not confirm, bad options, a\n"
	"bad config or repository or a failure (git stops), 130 interrupted.\n";

/* What git bisect run stops at. */
#define STEP_ABORT 128

/* Print the error and give the status at which git bisect run stops. */
static int step_abort(const struct strbuf *err)
{
	error("%s", err->buf);
	return STEP_ABORT;
}

static int step_main(int argc, char **argv)
{
	static const int status[] = {
		[BISECT_STEP_GOOD] = 0,
		[BISECT_STEP_BAD] = 1,
		[BISECT_STEP_SKIP] = 125,
		[BISECT_STEP_STOP] = STEP_ABORT,
	};
	struct bisect_drive d = {.rule = BISECT_RULE_INIT,
				 .commits = STRVEC_INIT};
	struct strbuf err = STRBUF_INIT, say = STRBUF_INIT;
	struct run_signals sigs;
	enum bisect_step_outcome o = BISECT_STEP_STOP;
	int ret = bisect_drive_begin(&cmd_bisect_step, argc, argv, &d, NULL,
				     &err);

	/*
	 * Bad options too stop git: the 2 every other command exits with
	 * would read as a bad commit, and git would name a wrong culprit.
	 */
	if (ret) {
		ret = STEP_ABORT;
		goto out;
	}
	d.out.log = NULL;
	run_signals_catch(&sigs);
	ret = bisect_step(&d, &o, &say, &err);
	run_signals_restore(&sigs);
	fputs(say.buf, stdout);
	if (ret < 0)
		ret = *run_signals_stop() ? 130 : step_abort(&err);
	else
		ret = status[o];
out:
	bisect_cmd_close(&d);
	strbuf_release(&say);
	strbuf_release(&err);
	return ret;
}

const struct cmd cmd_bisect_step = {
	.name = "bisect-step",
	.summary = "one step of git bisect run: exit 0 good, 1 bad, 125 skip",
	.usage = step_usage,
	.options = bisect_option_table,
	.run = step_main,
};
