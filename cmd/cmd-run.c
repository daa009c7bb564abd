/* mmcmp run: execute a config's workloads and store every sample. */
#include "cmd.h"

#include <unistd.h>

#include "config.h"
#include "executor.h"
#include "plan.h"
#include "run-check.h"
#include "run-progress.h"
#include "run-vm.h"
#include "session-check.h"
#include "session.h"
#include "store.h"
#include "strbuf.h"

static const char run_usage[] =
	"usage: mmcmp run [options] CONFIG\n"
	"\n"
	"Run the workloads of CONFIG (YAML, see configs/README.md; - reads it\n"
	"from stdin) and store every sample. Each finished iteration is\n"
	"committed at once.\n"
	"\n"
	"Exit status: 0 all iterations succeeded, 1 some failed or the run could\n"
	"not be stored, 2 bad config or arguments, 130 interrupted.\n";

struct run_args {
	const char *config_path;
	const char *label;
	int iterations;	       /* 0: the config's */
	double until_pct;      /* 0: the config's */
	struct strvec params;  /* --param overrides */
	struct strvec kernels; /* --kernel NAME=IMAGE[,append=...] */
	bool check, append, replace, quiet, quick, profile;
};

/* What run_main() holds, and the callbacks' context. */
struct run_state {
	const struct run_args *args;
	struct config cfg;
	struct plan plan;
	struct strvec labels; /* one per build */
	char *workload_path;  /* PATH for children */
	struct run_progress progress;
};

static const struct cmd_option run_option_table[] = {
	OPT_STRING(
		"label", 0, struct run_args, label, "NAME",
		"label of the results (default: the running kernel release, as uname -r prints it); with builds, each build is stored as NAME-BUILD"),
	OPT_INT("iterations", 0, struct run_args, iterations, "N", 1, 100000,
		"measured iterations per job (default: the config's)"),
	OPT_NUMBER(
		"until", 0, struct run_args, until_pct, "PCT", 0, 1e9,
		"stop a job once precise enough: after a pilot of 5 iterations kept out of the results, as many as the pilot says the 95% confidence half-width of each metric's mean needs to be at most PCT percent of it; the iterations are then the most (default: the config's until)"),
	OPT_STRING_LIST(
		"param", 0, struct run_args, params, "NAME=V[,V...]",
		"give parameter NAME of every workload that has it these values instead"),
	OPT_STRING_LIST(
		"kernel", 0, struct run_args, kernels,
		"NAME=IMAGE[,append=ARGS]",
		"boot this kernel (a bzImage) in guests and run the workloads there, as the config's kernels: do; replaces the config's kernel NAME"),
	OPT_FLAG(
		"check", 0, struct run_args, check, true,
		"validate CONFIG and print the expanded plan; runs nothing and leaves the database alone"),
	OPT_FLAG("append", 0, struct run_args, append, true,
		 "add a run to a label that already has results"),
	OPT_FLAG("replace", 0, struct run_args, replace, true,
		 "replace a label's results once the new run completes"),
	OPT_FLAG("profile", 0, struct run_args, profile, true,
		 "sample call graphs in unmeasured iterations (explain)"),
	OPT_FLAG("quiet", 'q', struct run_args, quiet, true,
		 "no progress line and no summary"),
	OPT_FLAG(
		"quick", 0, struct run_args, quick, true,
		"first apply the options of CONFIG's '# quick:' line, a short run to try it out; the other options given override them"),
	OPT_END(),
};

static int parse_args(int argc, char **argv, struct run_args *a)
{
	argc = parse_cmd_options(&cmd_run, argc, argv, a);
	if (argc < 0)
		return 2;
	if (argc < 2)
		return usage_error(&cmd_run, "missing CONFIG");
	if (argc > 2)
		return usage_error(&cmd_run, "unexpected argument '%s'",
				   argv[2]);
	a->config_path = argv[1];
	if (a->append && a->replace)
		return usage_error(&cmd_run,
				   "--append and --replace exclude each other");
	if (a->until_pct > 100)
		return usage_error(&cmd_run,
				   "--until: expected a percentage up to 100");
	return 0;
}

/* Give each build its label (session_labels()), each checked. */
static int make_labels(struct run_state *rs, const char *base)
{
	int ret = 0;

	session_labels(&rs->cfg, rs->plan.builds_nr, base, &rs->labels);
	for (size_t b = 0; !ret && b < rs->labels.nr; b++)
		ret = check_new_label(&cmd_run, rs->labels.v[b]);
	return ret;
}

/* What a config read from stdin ("-") is called in messages. */
#define STDIN_NAME "<stdin>"

/* Read the text of config path, or of stdin for "-", into text. */
static int read_config(const char *path, struct strbuf *text,
		       struct strbuf *err)
{
	/* One byte past the limit, so that the loader sees it is over. */
	return strbuf_read_file_max(text,
				    strcmp(path, "-") ? path : "/dev/stdin",
				    CONFIG_MAX_BYTES + 1, err);
}

/*
 * --quick: parse the command line again with the words of the config's
 * "# quick:" line put first, so that the options given override them.
 * argv is the command line as run_main() got it; words receives the new
 * one, which a then points into (the caller clears words after a).
 * Returns 0 or the exit status.
 */
static int apply_quick(char *const *argv, const struct strbuf *text,
		       struct run_args *a, struct strvec *words)
{
	struct strbuf where = STRBUF_INIT;
	struct strvec alone = STRVEC_INIT;
	struct run_args quick = {.params = STRVEC_INIT, .kernels = STRVEC_INIT};
	size_t line_nr = 0;
	char **av;
	int ret;

	strvec_push(words, argv[0]);
	if (!config_quick_words(text->buf, words, &line_nr))
		return usage_error(&cmd_run,
				   "--quick: '%s' has no '# quick:' line",
				   a->config_path);
	/* The quick line alone first: an error in it says where it is. */
	strvec_pushv(&alone, words->v);
	strvec_push(&alone, a->config_path);
	strbuf_addf(&where, "in the quick line of %s:%zu: ",
		    strcmp(a->config_path, "-") ? a->config_path : STDIN_NAME,
		    line_nr);
	/* parse_options() rearranges its argv: give it a copy. */
	av = xcalloc(alone.nr + 1, sizeof(*av));
	memcpy(av, alone.v, alone.nr * sizeof(*av));
	usage_error_context(where.buf);
	ret = parse_args((int)alone.nr, av, &quick);
	if (!ret)
		ret = check_quick_line(&cmd_run, quick.label, quick.append,
				       quick.replace);
	usage_error_context(NULL);
	free(av);
	strvec_clear(&quick.params);
	strvec_clear(&quick.kernels);
	strvec_clear(&alone);
	strbuf_release(&where);
	if (ret)
		return ret;
	strvec_pushv(words, argv + 1);
	av = xcalloc(words->nr + 1, sizeof(*av));
	memcpy(av, words->v, words->nr * sizeof(*av));
	strvec_clear(&a->params);
	strvec_clear(&a->kernels);
	*a = (struct run_args){.params = STRVEC_INIT, .kernels = STRVEC_INIT};
	ret = parse_args((int)words->nr, av, a);
	free(av);
	return ret;
}

/* Run the session to its end and print the summary; the exit status. */
static int run_session(struct run_state *rs, struct store *st)
{
	const struct run_args *args = rs->args;
	size_t boots_nr; /* 0 without kernels: one walk, on this machine */
	size_t *boot_order = run_vm_boot_order(&rs->cfg, &boots_nr);
	struct session_opts so = {
		.labels = rs->labels.v,
		.iterations = args->iterations,
		.append = args->append,
		.replace = args->replace,
		.stop = run_signals_stop(),
		.cut = run_signals_cut(),
		.path = rs->workload_path,
		.progress = run_progress_show,
		.warning = run_progress_warning,
		.ctx = &rs->progress,
		.boot_order = boot_order,
		.boots_nr = boots_nr,
		.profile = args->profile,
	};
	struct session *s = session_new(&rs->cfg, &rs->plan, st, &so);
	struct executor *ex = NULL;
	struct strbuf err = STRBUF_INIT;
	struct run_signals sigs;
	const char *taken;
	int ret = 0;

	if (session_check_labels(s, &taken, &err)) {
		ret = error("%s", err.buf);
		goto out;
	}
	if (taken) {
		ret = usage_error(
			&cmd_run,
			"label '%s' already has results in '%s'; use --append to add a run to it or --replace to replace them",
			taken, mmcmp_db_path());
		goto out;
	}
	ex = executor_new(&rs->cfg, &rs->plan, rs->workload_path, &err);
	if (!ex) {
		ret = error("%s", err.buf);
		goto out;
	}
	rs->progress.on = !args->quiet && isatty(STDERR_FILENO);
	run_signals_catch(&sigs);
	if (session_run(s, ex, &err)) {
		run_progress_clear(&rs->progress);
		error("%s", err.buf);
		strbuf_reset(&err);
		ret = 1;
	}
	run_progress_clear(&rs->progress);
	if (session_finish(s, &err)) {
		error("%s", err.buf);
		if (!ret)
			ret = 1;
	}
	if (session_status(s) == SESSION_INTERRUPTED)
		ret = 130;
	else if (session_status(s) == SESSION_FAILED)
		ret = 1;
	if (run_progress_summary(s, st, args->quiet) && !ret)
		ret = 1;
	run_signals_report();
	run_signals_restore(&sigs);
out:
	session_free(s);
	executor_free(ex);
	free(boot_order);
	strbuf_release(&err);
	return ret;
}

static int run_main(int argc, char **argv)
{
	struct run_args args = {.params = STRVEC_INIT, .kernels = STRVEC_INIT};
	struct run_state rs = {
		.args = &args,
		.plan = PLAN_INIT,
		.labels = STRVEC_INIT,
	};
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
	struct strvec orig = STRVEC_INIT, quick_argv = STRVEC_INIT;
	struct store *st = NULL;
	char *base_label = NULL;
	int ret;

	for (int i = 0; i < argc; i++)
		strvec_push(&orig, argv[i]);
	ret = parse_args(argc, argv, &args);
	if (ret)
		goto out;
	if (read_config(args.config_path, &text, &err)) {
		ret = error("%s", err.buf) + 1;
		goto out;
	}
	if (args.quick) {
		ret = apply_quick(orig.v, &text, &args, &quick_argv);
		if (ret)
			goto out;
	}
	if (config_load_buffer(&rs.cfg,
			       strcmp(args.config_path, "-") ? args.config_path
							     : STDIN_NAME,
			       text.buf, text.len, &err) ||
	    run_vm_add_kernels(&rs.cfg, &args.kernels, &err) ||
	    config_expand_kernels(&rs.cfg, &err) ||
	    plan_prepare(&rs.cfg, args.params.v, &err) ||
	    plan_build(&rs.plan, &rs.cfg, &err)) {
		error("%s", err.buf);
		ret = 2;
		goto out;
	}
	if (args.until_pct > 0)
		rs.cfg.until_pct = args.until_pct;
	base_label = args.label ? xstrdup(args.label) : session_default_label();
	ret = make_labels(&rs, base_label);
	if (ret)
		goto out;
	rs.workload_path = session_workload_path();
	if (session_check_programs(&rs.cfg, &rs.plan, rs.workload_path, &err) ||
	    session_check_settings(&rs.cfg, NULL, &err)) {
		ret = error("%s", err.buf) + 1;
		goto out;
	}
	if (rs.cfg.kernels_nr &&
	    run_vm_ready(&rs.cfg, &rs.plan, rs.workload_path, &err)) {
		ret = error("%s", err.buf) + 1;
		goto out;
	}
	if (args.check) {
		ret = run_check_print(&rs.cfg, &rs.plan, rs.labels.v,
				      args.iterations);
		if (!ret && rs.cfg.kernels_nr &&
		    run_vm_check(&rs.cfg, rs.labels.v, &err))
			ret = error("%s", err.buf);
		goto out;
	}
	st = store_open(mmcmp_db_path(), &err);
	if (!st) {
		ret = error("%s", err.buf);
		goto out;
	}
	if (store_transient(st)) {
		ret = transient_db_error(&cmd_run);
		goto out;
	}
	ret = run_session(&rs, st);
out:
	free(base_label);
	strvec_clear(&args.params);
	strvec_clear(&orig);
	strvec_clear(&quick_argv);
	strbuf_release(&text);
	strvec_clear(&args.kernels);
	strvec_clear(&rs.labels);
	free(rs.workload_path);
	plan_release(&rs.plan);
	config_release(&rs.cfg);
	store_close(st);
	strbuf_release(&err);
	return ret;
}
const struct cmd cmd_run = {
	.name = "run",
	.summary = "run a config's workloads and store the samples",
	.usage = run_usage,
	.options = run_option_table,
	.run = run_main,
};
