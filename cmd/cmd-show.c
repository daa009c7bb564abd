/* mmcmp show: a run's metadata and operations. */
#include "cmd.h"

#include <math.h>

#include "json.h"
#include "machine.h"
#include "run-data.h"
#include "stats.h"
#include "store.h"
#include "strbuf.h"

static const char show_usage[] =
	"usage: mmcmp show [--run ID] [--config] LABEL\n"
	"\n"
	"Show every run of LABEL (or only run ID): when and where it ran, its\n"
	"status, and per operation the unit, direction, sample count, mean,\n"
	"min and max of the measured samples.\n";

struct show_args {
	int64_t run_id; /* 0: every run of the label */
	bool with_config;
};

static const struct cmd_option show_option_table[] = {
	OPT_INT("run", 0, struct show_args, run_id, "ID", 1, INT64_MAX,
		"only this run of LABEL"),
	OPT_FLAG("config", 0, struct show_args, with_config, true,
		 "also print the effective setup (iterations and parameters "
		 "after --iterations and --param) and the config text the "
		 "run used"),
	OPT_END(),
};

static const char *str_or(const char *s, const char *dflt)
{
	return s && *s ? s : dflt;
}

/*
 * The effective setup beside the config text: the iteration counts and
 * parameter values the run used, after --iterations and --param.
 */
static void show_setup(const struct run_info *ri)
{
	struct run_setup setup = {0};
	struct strbuf err = STRBUF_INIT;

	if (!ri->setup) {
		printf("  setup:     not recorded\n");
	} else if (json_setup_parse(ri->setup, &setup, &err)) {
		printf("  setup:     unreadable (%s)\n", err.buf);
	} else {
		printf("  setup:     %" PRId64 " iteration%s, %" PRId64
		       " warm-up%s per job\n",
		       setup.iterations, setup.iterations == 1 ? "" : "s",
		       setup.warmup, setup.warmup == 1 ? "" : "s");
		for (size_t i = 0; i < setup.params_nr; i++) {
			const struct setup_param *p = &setup.params[i];

			printf("  %s %s %s=", i ? "          " : "params:   ",
			       p->workload, p->name);
			for (size_t k = 0; k < p->values_nr; k++)
				printf("%s%s", k ? "," : "", p->values[k]);
			putchar('\n');
		}
	}
	run_setup_release(&setup);
	strbuf_release(&err);
}

static void show_run(const struct run_data *rd, bool with_config)
{
	const struct run_info *ri = &rd->info;
	struct strbuf facts = STRBUF_INIT;

	printf("run %" PRId64 " %s\n", ri->id, ri->label);
	printf("  uuid:      %s\n", str_or(ri->uuid, "-"));
	printf("  status:    %s\n", str_or(ri->status, "-"));
	printf("  started:   %s\n", str_or(ri->started_at, "-"));
	printf("  ended:     %s\n", str_or(ri->ended_at, "-"));
	printf("  config:    %s (sha256 %s)\n", str_or(ri->config_name, "-"),
	       str_or(ri->config_hash, "-"));
	machine_info_show(&ri->machine, &facts);
	fputs(facts.buf, stdout);
	strbuf_release(&facts);
	if (ri->cgroup)
		printf("  cgroup:    %s\n", ri->cgroup);
	printf("  mmcmp:     %s\n", str_or(ri->mmcmp_version, "-"));
	for (size_t i = 0; i < rd->durations_nr; i++)
		printf("  duration:  %s user %.2fs system %.2fs elapsed %.2fs (%zu iterations)\n",
		       rd->durations[i].benchmark, rd->durations[i].user_s,
		       rd->durations[i].sys_s, rd->durations[i].elapsed_s,
		       rd->durations[i].iterations);
	for (size_t i = 0; i < rd->monitors_nr; i++)
		printf("  monitors:  %s %zu iterations, "
		       "%zu vmstat counters changed\n",
		       rd->monitors[i].benchmark, rd->monitors[i].iterations,
		       rd->monitors[i].counters_nr);
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
		printf("    %s %s [%s] %s is better: n=%zu mean=%.*f min=%.*f max=%.*f\n",
		       op->benchmark, op->name, op->unit,
		       op->higher_better ? "higher" : "lower", op->nr,
		       op->decimals, stats_amean(op->v, op->nr), op->decimals,
		       mn, op->decimals, mx);
	}
	if (with_config)
		show_setup(ri);
	if (with_config && ri->config_text)
		printf("  config text:\n%s%s", ri->config_text,
		       ri->config_text[0] &&
				       ri->config_text[strlen(ri->config_text) -
						       1] != '\n'
			       ? "\n"
			       : "");
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
	st = store_open(mmcmp_db_path(), &err);
	if (!st || store_find_runs(st, label, &ids, &nr, &err)) {
		error("%s", err.buf);
		goto out;
	}
	for (size_t i = 0; i < nr; i++) {
		struct run_data rd = {0};

		if (a.run_id && ids[i] != a.run_id)
			continue;
		if (store_load_run(st, ids[i], NULL, &rd, &err)) {
			error("%s", err.buf);
			run_data_release(&rd);
			goto out;
		}
		if (shown)
			putchar('\n');
		show_run(&rd, a.with_config);
		shown = true;
		run_data_release(&rd);
	}
	if (!shown) {
		if (a.run_id)
			ret = usage_error(&cmd_show,
					  "label '%s' has no run %" PRId64,
					  label, a.run_id);
		else
			ret = usage_error(&cmd_show, "no runs with label '%s'",
					  label);
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
