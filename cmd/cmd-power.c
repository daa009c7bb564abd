/* mmcmp power: how many units per side a comparison needs. */
#include "cmd.h"

#include <math.h>
#include <string.h>

#include "compare.h"
#include "pool.h"
#include "run-data.h"
#include "stats.h"
#include "store.h"
#include "strbuf.h"

static const char power_usage[] =
	"usage: mmcmp power [options] LABEL [OTHER]\n"
	"\n"
	"Print, per operation of LABEL, the units of replication per side that\n"
	"a two-sided t-test at --alpha needs to find a change of --effect\n"
	"percent with probability --power (R's power.t.test), beside the\n"
	"units it has now. The spread is LABEL's coefficient of variation of\n"
	"its unit values, or with OTHER sqrt((cv^2 + cv_other^2) / 2) and\n"
	"the current n the harmonic mean of both sides' units.\n";

struct power_args {
	struct compare_options opts;
	double effect_pct, power;
	char **labels;
	size_t labels_nr;
};

static const struct cmd_option power_option_table[] = {
	OPT_NUMBER("effect", 0, struct power_args, effect_pct, "PCT", 0,
		   INFINITY, "the change to find, in percent (default 5)"),
	OPT_NUMBER("power", 0, struct power_args, power, "P", 0, 1,
		   "the chance to find it, 0 < P < 1 (default 0.8)"),
	OPT_NUMBER("alpha", 0, struct power_args, opts.alpha, "A", 0, 1,
		   "significance level, 0 < A < 1 (default 0.05)"),
	OPT_CHOICE("unit", 0, struct power_args, opts.unit, compare_unit_nth,
		   "the unit of replication (default iteration)"),
	OPT_STRING("benchmark", 0, struct power_args, opts.benchmark, "NAME",
		   "only this benchmark"),
	OPT_END(),
};

/* Load every run of label into rd; 0, 2 (no such label) or 1. */
static int load(struct store *st, const char *label, struct run_data *rd)
{
	struct strbuf err = STRBUF_INIT;
	size_t loaded = 0;
	int ret = 0;

	if (pool_load_all(st, label, NULL, 0, NULL, rd, &loaded, &err)) {
		ret = error("%s", err.buf);
	} else if (!loaded) {
		label_hint(st, label, &err);
		ret = usage_error(&cmd_power,
				  "no runs with label '%s' in '%s'%s", label,
				  mmcmp_db_path(), err.buf);
	}
	strbuf_release(&err);
	return ret;
}

/* "12", "-" when no finite n would do, "n/a" when undefined. */
static void add_needed(struct strbuf *sb, double n)
{
	if (isnan(n))
		strbuf_addstr(sb, "n/a");
	else if (isinf(n))
		strbuf_addstr(sb, "-");
	else
		strbuf_addf(sb, "%.0f", ceil(n));
}

/* The three cells of operation o of b: cv, current n, units needed. */
static void row_cells(const struct power_args *a,
		      const struct compare_result *res,
		      const struct compare_bench *b, size_t o,
		      struct strbuf cells[3])
{
	const struct compare_side *s = b->ops[o].side;
	double sd = s[0].cv_pct, n = (double)s[0].units;

	if (res->runs_nr > 1) {
		sd = sqrt((s[0].cv_pct * s[0].cv_pct +
			   s[1].cv_pct * s[1].cv_pct) /
			  2);
		n = s[1].units ? 2.0 / (1.0 / (double)s[0].units +
					1.0 / (double)s[1].units)
			       : 0.0;
	}
	for (size_t k = 0; k < 3; k++)
		strbuf_reset(&cells[k]);
	if (isnan(sd))
		strbuf_addstr(&cells[0], "n/a");
	else
		strbuf_addf(&cells[0], "%.2f%%", sd);
	strbuf_addf(&cells[1], "%.3g", n);
	/* Welch's test, the one compare runs, with each side's spread. */
	add_needed(&cells[2],
		   stats_welch_power_n(a->effect_pct, s[0].cv_pct,
				       res->runs_nr > 1 ? s[1].cv_pct
							: s[0].cv_pct,
				       res->opts.alpha, a->power));
}

/*
 * One table per benchmark; each column as wide as its header or widest
 * cell, the operations left-aligned and the figures right-aligned.
 */
static void print_table(const struct power_args *a,
			const struct compare_result *res, struct strbuf *out)
{
	static const char *const head[] = {"operation", "cv", "n", "needed"};
	const char *units = compare_unit_plural(res->opts.unit);
	struct strbuf cells[3] = {STRBUF_INIT, STRBUF_INIT, STRBUF_INIT};

	strbuf_addf(out,
		    "%s per side to find a %g%% change with power %g at "
		    "alpha %g\n",
		    units, a->effect_pct, a->power, res->opts.alpha);
	for (size_t bi = 0; bi < res->bench_nr; bi++) {
		const struct compare_bench *b = &res->bench[bi];
		size_t width[4];

		for (size_t k = 0; k < 4; k++)
			width[k] = strlen(head[k]);
		for (size_t o = 0; o < b->ops_nr; o++) {
			size_t len = strlen(b->ops[o].name);

			if (len > width[0])
				width[0] = len;
			row_cells(a, res, b, o, cells);
			for (size_t k = 0; k < 3; k++)
				if (cells[k].len > width[k + 1])
					width[k + 1] = cells[k].len;
		}
		strbuf_addf(out, "\n%s\n%-*s %*s %*s %*s\n", b->title,
			    (int)width[0], head[0], (int)width[1], head[1],
			    (int)width[2], head[2], (int)width[3], head[3]);
		for (size_t o = 0; o < b->ops_nr; o++) {
			row_cells(a, res, b, o, cells);
			strbuf_addf(out, "%-*s %*s %*s %*s\n", (int)width[0],
				    b->ops[o].name, (int)width[1], cells[0].buf,
				    (int)width[2], cells[1].buf, (int)width[3],
				    cells[2].buf);
		}
	}
	for (size_t k = 0; k < 3; k++)
		strbuf_release(&cells[k]);
}

static int power_main(int argc, char **argv)
{
	struct power_args a = {
		.opts = COMPARE_OPTIONS_INIT,
		.effect_pct = 5,
		.power = 0.8,
	};
	struct compare_result res = COMPARE_RESULT_INIT;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct run_data runs[2];
	struct store *st = NULL;
	int ret = 0;

	memset(runs, 0, sizeof(runs));
	argc = parse_cmd_options(&cmd_power, argc, argv, &a);
	if (argc < 0)
		return 2;
	a.labels = argv + 1;
	a.labels_nr = (size_t)argc - 1;
	if (a.labels_nr < 1 || a.labels_nr > 2) {
		ret = usage_error(&cmd_power, "need LABEL and at most OTHER");
		goto out;
	}
	st = store_open_read(mmcmp_db_path(), &err);
	if (!st) {
		ret = error("%s", err.buf);
		goto out;
	}
	for (size_t i = 0; i < a.labels_nr && !ret; i++)
		ret = load(st, a.labels[i], &runs[i]);
	if (ret)
		goto out;
	if (compare_runs(runs, a.labels_nr, &a.opts, &res, &err)) {
		ret = usage_error(&cmd_power, "%s", err.buf);
		goto out;
	}
	print_table(&a, &res, &out);
	ret = write_output(NULL, &out);
out:
	compare_result_release(&res);
	for (size_t i = 0; i < 2; i++)
		run_data_release(&runs[i]);
	store_close(st);
	strbuf_release(&out);
	strbuf_release(&err);
	return ret;
}

const struct cmd cmd_power = {
	.name = "power",
	.summary = "print the units per side a comparison needs",
	.usage = power_usage,
	.options = power_option_table,
	.run = power_main,
};
