/* mmcmp bisect and bisect-step: find the commit that moved a metric. */
#include "cmd.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "bisect-cmd.h"
#include "bisect-tree.h"
#include "run-progress.h"
#include "store-bisect.h"
#include "store.h"

static const char bisect_usage[] =
	"usage: mmcmp bisect [options] CONFIG --good REV --bad REV --operation GLOB --build CMD --image PATH\n"
	"\n"
	"Find the first commit between REV good and bad of the git tree\n"
	"--builds-from whose runs of CONFIG's rows GLOB are worse: each commit\n"
	"is built in a directory of its own (git archive, then CMD), where\n"
	"CONFIG's workloads run; PATH is the file whose bytes it hashes. The\n"
	"ends are checked first; each step runs the candidate interleaved with\n"
	"both ends until it is good-like or bad-like; the culprit is verified.\n"
	"With vm: in CONFIG, PATH is a kernel, booted in QEMU guests, a unit\n"
	"a boot; with machine:, booted on this machine by kexec, the search\n"
	"going on after each boot from the database (mmcmp campaign resume).\n"
	"Runs are labelled bisect-COMMIT; the log is stored (docs/bisect.md).\n"
	"\n"
	"Exit status: 0 a culprit found and verified, 1 none (no regression\n"
	"between the ends, an unverified or ambiguous culprit, a failure), 2\n"
	"bad arguments or config, 130 interrupted.\n";

struct bisect_args {
	const char *good, *bad, *operation, *build, *image, *repo, *work;
	const char *append, *initrd, *unit_dir;
	double alpha, margin_pct;
	int rounds, max_batches;
	bool quiet, check, no_unit;
};

const struct cmd_option bisect_option_table[] = {
	OPT_STRING("good", 0, struct bisect_args, good, "REV",
		   "the good end: a commit without the regression"),
	OPT_STRING("bad", 0, struct bisect_args, bad, "REV",
		   "the bad end: a later commit with it"),
	OPT_STRING(
		"operation", 0, struct bisect_args, operation, "GLOB",
		"the rows of CONFIG to judge by (fnmatch); several are judged by their geometric mean"),
	OPT_STRING(
		"build", 0, struct bisect_args, build, "CMD",
		"the build command, run by /bin/sh in each commit's directory"),
	OPT_STRING(
		"image", 0, struct bisect_args, image, "PATH",
		"the file the build makes (relative to its directory), whose SHA-256 finds commits that build the same bytes"),
	OPT_STRING(
		"append", 0, struct bisect_args, append, "ARGS",
		"with vm: in CONFIG, where the images are kernels: added to their command line"),
	OPT_STRING(
		"initrd", 0, struct bisect_args, initrd, "PATH",
		"with machine: in CONFIG: the initrd the build makes, booted with the image"),
	OPT_FLAG(
		"check", 0, struct bisect_args, check, true,
		"with machine: in CONFIG: check, print the plan and the unit; build, boot and store nothing"),
	OPT_FLAG(
		"no-unit", 0, struct bisect_args, no_unit, true,
		"with machine: in CONFIG: install no systemd unit; something else runs mmcmp campaign resume after every boot"),
	OPT_STRING(
		"unit-dir", 0, struct bisect_args, unit_dir, "DIR",
		"with machine: in CONFIG: the systemd unit directory (default /etc/systemd/system)"),
	OPT_STRING("builds-from", 0, struct bisect_args, repo, "DIR",
		   "the git repository (default: .)"),
	OPT_STRING(
		"work", 0, struct bisect_args, work, "DIR",
		"where the build directories go (default: GIT_DIR/mmcmp-bisect); one built before is reused"),
	OPT_NUMBER("alpha", 0, struct bisect_args, alpha, "A", 0, 0.5,
		   "the error budget of the whole search (default 0.05)"),
	OPT_NUMBER(
		"margin", 0, struct bisect_args, margin_pct, "PCT", -1, 1e9,
		"the ends must differ by at least PCT percent (default: any change the test finds)"),
	OPT_INT("rounds", 0, struct bisect_args, rounds, "N", 2, 1000,
		"rounds of the slots per batch (default 3)"),
	OPT_INT("max-batches", 0, struct bisect_args, max_batches, "N", 1, 1000,
		"batches per decision at most (default 8)"),
	OPT_FLAG("quiet", 'q', struct bisect_args, quiet, true,
		 "print only the outcome"),
	OPT_END(),
};

/* The drive's words: the log on stdout, as it is made; the rest on stderr. */
static struct run_progress bisect_progress;

void bisect_cmd_out_log(void *ctx, const char *line)
{
	(void)ctx;
	printf("%s\n", line);
	fflush(stdout);
}

void bisect_cmd_out_note(void *ctx, const char *line)
{
	(void)ctx;
	fprintf(stderr, "%s\n", line);
}

void bisect_cmd_close(struct bisect_drive *d)
{
	size_t left = bisect_drive_warnings_left(d);

	if (left)
		warning("%zu more warnings of the runs like those", left);
	bisect_drive_close(d);
}

/* Parse and check; the exit status of a usage error, or 0. */
static int parse_args(const struct cmd *cmd, int argc, char **argv,
		      struct bisect_args *a, struct bisect_drive *d)
{
	static const char *const need[] = {"good", "bad", "operation", "build",
					   "image"};
	const char *given[] = {NULL, NULL, NULL, NULL, NULL};

	argc = parse_cmd_options(cmd, argc, argv, a);
	if (argc < 0)
		return 2;
	if (argc != 2)
		return usage_error(cmd,
				   argc < 2 ? "missing CONFIG"
					    : "unexpected argument '%s'",
				   argv[2]);
	given[0] = a->good, given[1] = a->bad, given[2] = a->operation;
	given[3] = a->build, given[4] = a->image;
	for (size_t i = 0; i < ARRAY_SIZE(need); i++)
		if (!given[i] || !*given[i])
			return usage_error(cmd, "missing --%s", need[i]);
	if (a->margin_pct < 0)
		return usage_error(cmd, MARGIN_RULE, a->margin_pct);
	d->config_path = argv[1];
	d->repo = a->repo ? a->repo : ".";
	d->build = a->build;
	d->image = a->image;
	d->append = a->append;
	d->initrd = a->initrd;
	d->operation = a->operation;
	d->out = (struct bisect_drive_out){
		.log = a->quiet ? NULL : bisect_cmd_out_log,
		.note = bisect_cmd_out_note,
		.warning = run_progress_warning,
		.ctx = &bisect_progress,
	};
	d->stop = run_signals_stop();
	d->cut = run_signals_cut();
	d->rule.alpha = a->alpha > 0 ? a->alpha : 0.05;
	d->rule.margin_pct = a->margin_pct;
	d->rule.rounds = a->rounds ? (size_t)a->rounds : 3;
	d->rule.max_batches = a->max_batches ? (size_t)a->max_batches : 8;
	return 0;
}

/* Both commands' start: arguments, config, repository and store. */
int bisect_drive_begin(const struct cmd *cmd, int argc, char **argv,
		       struct bisect_drive *d, struct bisect_cmd_machine *mo,
		       struct strbuf *err)
{
	struct bisect_args a = {0};
	int ret = parse_args(cmd, argc, argv, &a, d);

	if (ret)
		return ret;
	d->parsed = true;
	if (bisect_drive_open(d, a.work, err))
		return d->usage ? usage_error(cmd, "%s", err->buf)
				: error("%s", err->buf);
	if (d->machine && !mo)
		return usage_error(cmd,
				   "'%s' has machine:; %s does not boot "
				   "this machine: use mmcmp bisect",
				   d->config_path, cmd->name);
	if (!d->machine && (a.check || a.no_unit || a.unit_dir))
		return usage_error(cmd,
				   "--%s is for a bisection on this "
				   "machine, and '%s' has no machine:",
				   a.check     ? "check"
				   : a.no_unit ? "no-unit"
					       : "unit-dir",
				   d->config_path);
	if (bisect_tree_commits(d->repo, a.good, a.bad, &d->commits, err))
		return usage_error(cmd, "%s", err->buf);
	if (d->machine) {
		*mo = (struct bisect_cmd_machine){a.check, a.no_unit, a.quiet,
						  a.unit_dir};
		ret = bisect_machine_refuse(cmd, d, mo);
		if (ret || mo->check)
			return ret;
	}
	/* Only now: bad input leaves the database alone, even uncreated. */
	d->st = store_open(mmcmp_db_path(), err);
	if (!d->st)
		return error("%s", err->buf);
	if (store_transient(d->st))
		return transient_db_error(cmd);
	return 0;
}

int bisect_cmd_report(const struct bisect_drive *d,
		      const struct bisect_result *r)
{
	char *const *c = d->commits.v;
	struct strbuf sb = STRBUF_INIT;

	switch (r->outcome) {
	case BISECT_FOUND:
		printf("first bad commit: %s\n", c[r->culprit]);
		printf("verified: its parent good-like and itself bad-like with fresh units; %zu units in all\n",
		       r->units);
		printf("compare them: mmcmp compare bisect-%.12s bisect-%.12s\n",
		       c[r->culprit - 1], c[r->culprit]);
		return 0;
	case BISECT_UNVERIFIED:
		printf("first bad commit: %s, but not verified: its parent or itself took the other side with fresh units\n",
		       c[r->culprit]);
		return 1;
	case BISECT_AMBIGUOUS:
		printf("first bad commit: one of %.12s .. %s (those before it were skipped or unsure)\n",
		       c[r->first], c[r->culprit]);
		return 1;
	case BISECT_NO_REGRESSION:
	case BISECT_SAME_ENDS:
		bisect_drive_say_ends(
			d, r->outcome == BISECT_SAME_ENDS ? NULL : &r->ends,
			&sb);
		fputs(sb.buf, stdout);
		strbuf_release(&sb);
		return 1;
	}
	return 1;
}

static int bisect_main(int argc, char **argv)
{
	struct bisect_drive d = {.rule = BISECT_RULE_INIT,
				 .commits = STRVEC_INIT};
	struct bisect_result res = {0};
	struct bisect_ops ops;
	struct bisect_cmd_machine mo = {0};
	struct strbuf err = STRBUF_INIT;
	struct run_signals sigs;
	int ret = bisect_drive_begin(&cmd_bisect, argc, argv, &d, &mo, &err);

	if (ret)
		goto out;
	if (d.machine) {
		ret = bisect_machine_start(&d, &mo);
		goto out;
	}
	fprintf(stderr,
		"bisect: %zu commits, rows '%s' (%s is better), alpha %g\n",
		d.commits.nr, d.operation,
		d.rule.higher_better ? "higher" : "lower", d.rule.alpha);
	if (bisect_drive_start(&d, false, &err)) {
		ret = error("%s", err.buf);
		goto out;
	}
	bisect_drive_ops(&d, &ops);
	bisect_drive_header(&d);
	run_signals_catch(&sigs);
	ret = bisect_run(d.commits.nr, &d.rule, &ops, &res, &err);
	run_signals_restore(&sigs);
	if (ret) {
		ret = *run_signals_stop() ? 130 : error("%s", err.buf);
		goto out;
	}
	ret = store_bisect_finish(
		d.st, d.bisect_id, bisect_outcome_name(res.outcome),
		res.outcome <= BISECT_AMBIGUOUS ? d.commits.v[res.culprit]
						: NULL,
		&err);
	if (ret) {
		ret = error("%s", err.buf);
		goto out;
	}
	ret = bisect_cmd_report(&d, &res);
out:
	bisect_result_release(&res);
	bisect_cmd_close(&d);
	strbuf_release(&err);
	return ret;
}

const struct cmd cmd_bisect = {
	.name = "bisect",
	.summary = "find the commit that made a metric worse",
	.usage = bisect_usage,
	.options = bisect_option_table,
	.run = bisect_main,
};
