/* mmcmp show: a run's metadata and operations. */
#include "cmd.h"

#include <math.h>

#include "machine.h"
#include "names.h"
#include "render-provenance.h"
#include "run-data.h"
#include "stats.h"
#include "store.h"
#include "strbuf.h"
#include "strvec.h"

static const char show_usage[] =
	"usage: mmcmp show [--run ID] [--config] LABEL\n"
	"\n"
	"Show every run of LABEL (or only run ID): when and where it ran (with\n"
	"kernels, each boot and its accelerator), its status, per operation the unit, direction, sample count, mean, min\n"
	"and max of the measured samples, and the iterations that failed with\n"
	"their exit status or signal and the tail of their stderr.\n";

struct show_args {
	int64_t run_id; /* 0: every run of the label */
	bool with_config;
};

static const struct cmd_option show_option_table[] = {
	OPT_INT("run", 0, struct show_args, run_id, "ID", 1, INT64_MAX,
		"only this run of LABEL"),
	OPT_FLAG("config", 0, struct show_args, with_config, true,
		 "also print the effective setup (iterations and parameters "
		 "after --iterations and --param, how --until stopped each "
		 "job) and the config text the "
		 "run used"),
	OPT_END(),
};

static const char *str_or(const char *s, const char *dflt)
{
	return s && *s ? s : dflt;
}

/*
 * s (NULL: "") escaped for the terminal (names_escape()) in sb, which
 * the result lives in until sb changes.
 */
static const char *esc(struct strbuf *sb, const char *s)
{
	strbuf_reset(sb);
	if (s)
		names_escape(sb, s, strlen(s));
	return sb->buf;
}

/*
 * v with decimals places in sb, where the result lives until sb
 * changes; from 1e15 on (or a mean that overflowed) 6 significant
 * digits with an exponent, not 300 digits.
 */
static const char *value(struct strbuf *sb, int decimals, double v)
{
	strbuf_reset(sb);
	if (isfinite(v) && fabs(v) < 1e15)
		strbuf_addf(sb, "%.*f", decimals, v);
	else
		strbuf_addf(sb, "%g", v);
	return sb->buf;
}

/* What ended a failed iteration: "exit status 3", "signal 9", "timeout". */
static void describe_outcome(const struct iteration_data *it, struct strbuf *sb)
{
	if (!strcmp(it->status, "exit"))
		strbuf_addf(sb, "exit status %" PRId64, it->exit_code);
	else if (!strcmp(it->status, "signal"))
		strbuf_addf(sb, "signal %" PRId64, it->term_signal);
	else
		strbuf_addstr(sb, it->status);
}

/*
 * The iterations of rf that did not succeed, each with what ended it and
 * its stderr tail, indented; nothing when all succeeded.
 */
static void show_failures(const struct run_full *rf)
{
	struct strbuf sb = STRBUF_INIT;
	int64_t warmups = 0;
	bool any = false;

	/* Every job has the config's warm-ups first, numbered from 0. */
	for (size_t i = 0; i < rf->iters_nr; i++)
		if (rf->iters[i].warmup && rf->iters[i].index >= warmups)
			warmups = rf->iters[i].index + 1;
	for (size_t i = 0; i < rf->iters_nr; i++) {
		const struct iteration_data *it = &rf->iters[i];
		const char *tail = it->stderr_tail;

		if (!strcmp(it->status, "ok"))
			continue;
		if (!any)
			printf("  failed iterations:\n");
		any = true;
		strbuf_reset(&sb);
		strbuf_addstr(&sb, "    ");
		names_escape(&sb, it->benchmark, strlen(it->benchmark));
		if (*it->job) {
			strbuf_addch(&sb, ' ');
			names_escape(&sb, it->job, strlen(it->job));
		}
		if (it->build) {
			strbuf_addstr(&sb, " build ");
			names_escape(&sb, it->build, strlen(it->build));
		}
		strbuf_addf(&sb, " %s %" PRId64 ": ",
			    it->warmup ? "warm-up" : "iteration",
			    it->warmup ? it->index + 1
				       : it->index - warmups + 1);
		describe_outcome(it, &sb);
		printf("%s\n", sb.buf);
		while (tail && *tail) {
			size_t len = strcspn(tail, "\n");

			if (len) {
				strbuf_reset(&sb);
				names_escape(&sb, tail, len);
				printf("      %s\n", sb.buf);
			}
			tail += len + (tail[len] == '\n');
		}
	}
	strbuf_release(&sb);
}

/* The rule of --until and how each job stopped under it. */
static void show_until(const struct run_setup *setup)
{
	struct strbuf w = STRBUF_INIT, j = STRBUF_INIT;

	if (!(setup->until_pct > 0))
		return;
	printf("  until:     %g%% (95%% confidence half-width of the mean), "
	       "at most %" PRId64 " iteration%s\n",
	       setup->until_pct, setup->iterations,
	       setup->iterations == 1 ? "" : "s");
	for (size_t i = 0; i < setup->stops_nr; i++) {
		const struct setup_stop *st = &setup->stops[i];
		const char *why = !strcmp(st->stopped, "precision")
					  ? "stopped on precision"
				  : !strcmp(st->stopped, "maximum")
					  ? "ran to the maximum"
					  : "cut short by the run's end";

		printf("  %s %s%s%s: %" PRId64 " iteration%s, %s\n",
		       i ? "          " : "stopped:  ", esc(&w, st->workload),
		       *st->job ? " " : "", esc(&j, st->job), st->iterations,
		       st->iterations == 1 ? "" : "s", why);
	}
	strbuf_release(&w);
	strbuf_release(&j);
}

/*
 * The effective setup beside the config text: the iteration counts and
 * parameter values the run used, after --iterations and --param.
 */
static void show_setup(const struct run_info *ri)
{
	struct run_setup setup = {0};
	struct strbuf err = STRBUF_INIT, e = STRBUF_INIT;

	if (!ri->setup) {
		printf("  setup:     not recorded\n");
	} else if (run_setup_parse(ri->setup, &setup, &err)) {
		printf("  setup:     unreadable (%s)\n", esc(&e, err.buf));
	} else {
		printf("  setup:     %" PRId64 " iteration%s, %" PRId64
		       " warm-up%s per job\n",
		       setup.iterations, setup.iterations == 1 ? "" : "s",
		       setup.warmup, setup.warmup == 1 ? "" : "s");
		for (size_t i = 0; i < setup.params_nr; i++) {
			const struct setup_param *p = &setup.params[i];

			printf("  %s %s ", i ? "          " : "params:   ",
			       esc(&e, p->workload));
			printf("%s=", esc(&e, p->name));
			for (size_t k = 0; k < p->values_nr; k++)
				printf("%s%s", k ? "," : "",
				       esc(&e, p->values[k]));
			putchar('\n');
		}
		show_until(&setup);
	}
	run_setup_release(&setup);
	strbuf_release(&err);
	strbuf_release(&e);
}

static void show_run(const struct run_data *rd, const struct run_full *rf,
		     const struct strvec *settings, bool with_config)
{
	const struct run_info *ri = &rd->info;
	struct strbuf facts = STRBUF_INIT,
		      e[3] = {STRBUF_INIT, STRBUF_INIT, STRBUF_INIT};

	printf("run %" PRId64 " %s\n", ri->id, esc(&e[0], ri->label));
	/* Every stored fact escaped: an imported run may hold anything. */
	printf("  uuid:      %s\n", esc(&e[0], str_or(ri->uuid, "-")));
	printf("  status:    %s\n", esc(&e[0], str_or(ri->status, "-")));
	printf("  started:   %s\n", esc(&e[0], str_or(ri->started_at, "-")));
	printf("  ended:     %s\n", esc(&e[0], str_or(ri->ended_at, "-")));
	printf("  config:    %s (sha256 %s)\n",
	       esc(&e[0], str_or(ri->config_name, "-")),
	       esc(&e[1], str_or(ri->config_hash, "-")));
	machine_info_show(&ri->machine, &facts);
	render_boots_show(rf->boots, rf->boots_nr, &facts);
	fputs(facts.buf, stdout);
	strbuf_release(&facts);
	if (ri->cgroup)
		printf("  cgroup:    %s\n", esc(&e[0], ri->cgroup));
	/* What the run wrote before it measured, and what was there. */
	for (size_t i = 0; i < settings->nr; i++)
		printf("  setting:   %s\n", esc(&e[0], settings->v[i]));
	printf("  mmcmp:     %s\n", esc(&e[0], str_or(ri->mmcmp_version, "-")));
	for (size_t i = 0; i < rd->durations_nr; i++)
		printf("  duration:  %s user %.2fs system %.2fs elapsed %.2fs (%zu iterations)\n",
		       esc(&e[0], rd->durations[i].benchmark),
		       rd->durations[i].user_s, rd->durations[i].sys_s,
		       rd->durations[i].elapsed_s, rd->durations[i].iterations);
	for (size_t i = 0; i < rd->monitors_nr; i++)
		printf("  monitors:  %s %zu iterations, "
		       "%zu vmstat counters changed\n",
		       esc(&e[0], rd->monitors[i].benchmark),
		       rd->monitors[i].iterations, rd->monitors[i].counters_nr);
	printf("  operations:\n");
	for (size_t i = 0; i < rd->ops_nr; i++) {
		const struct op_samples *op = &rd->ops[i];
		double mn = NAN, mx = NAN;

		for (size_t k = 0; k < op->nr; k++) {
			if (k == 0 || op->v[k] < mn)
				mn = op->v[k];
			if (k == 0 || op->v[k] > mx)
				mx = op->v[k];
		}
		printf("    %s %s [%s] %s is better: n=%zu",
		       esc(&e[0], op->benchmark), esc(&e[1], op->name),
		       esc(&e[2], op->unit),
		       op->higher_better ? "higher" : "lower", op->nr);
		if (op->nr)
			printf(" mean=%s min=%s max=%s",
			       value(&e[0], op->decimals,
				     stats_amean(op->v, op->nr)),
			       value(&e[1], op->decimals, mn),
			       value(&e[2], op->decimals, mx));
		putchar('\n');
	}
	show_failures(rf);
	if (with_config)
		show_setup(ri);
	if (with_config && ri->config_text) {
		strbuf_reset(&e[0]);
		names_escape_lines(&e[0], ri->config_text,
				   strlen(ri->config_text));
		printf("  config text:\n%s%s", e[0].buf, e[0].len ? "\n" : "");
	}
	for (size_t i = 0; i < ARRAY_SIZE(e); i++)
		strbuf_release(&e[i]);
}

static int show_main(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT;
	struct store *st = NULL;
	struct show_args a = {0};
	const char *label;
	int64_t *ids = NULL;
	size_t nr = 0;
	bool shown = false;
	int ret = 1;

	argc = parse_cmd_options(&cmd_show, argc, argv, &a);
	if (argc < 0)
		return 2;
	if (argc < 2)
		return usage_error(&cmd_show, "missing LABEL");
	if (argc > 2)
		return usage_error(&cmd_show, "unexpected argument '%s'",
				   argv[2]);
	label = argv[1];
	st = store_open_read(mmcmp_db_path(), &err);
	if (!st || store_find_runs(st, label, &ids, &nr, &err)) {
		error("%s", err.buf);
		goto out;
	}
	for (size_t i = 0; i < nr; i++) {
		struct run_data rd = {0};
		struct run_full rf = {0};
		struct strvec settings = STRVEC_INIT;

		if (a.run_id && ids[i] != a.run_id)
			continue;
		if (store_load_run(st, ids[i], NULL, &rd, &err) ||
		    store_run_load_full(st, ids[i], NULL, &rf, &err) ||
		    store_run_settings(st, ids[i], &settings, &err)) {
			error("%s", err.buf);
			run_data_release(&rd);
			run_full_release(&rf);
			strvec_clear(&settings);
			goto out;
		}
		if (shown)
			putchar('\n');
		show_run(&rd, &rf, &settings, a.with_config);
		shown = true;
		run_data_release(&rd);
		run_full_release(&rf);
		strvec_clear(&settings);
	}
	if (!shown) {
		if (a.run_id)
			ret = usage_error(&cmd_show,
					  "label '%s' has no run %" PRId64,
					  label, a.run_id);
		else {
			label_hint(st, label, &err);
			ret = usage_error(&cmd_show,
					  "no runs with label '%s'%s", label,
					  err.buf);
		}
		goto out;
	}
	ret = 0;
out:
	free(ids);
	store_close(st);
	strbuf_release(&err);
	return ret;
}

const struct cmd cmd_show = {
	.name = "show",
	.summary = "show a label's runs and operations",
	.usage = show_usage,
	.options = show_option_table,
	.run = show_main,
};
