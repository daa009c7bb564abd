/* export-benchstat: `mmcmp export benchstat`, the Go benchmark format. */
#include "export.h"

#include <string.h>

#include "run-data.h"
#include "strbuf.h"
#include "strmap.h"
#include "strvec.h"
#include "util.h"

#define GB_PREFIX "Benchmark"

/* White space inside a line, as the gobench import splits fields. */
static bool gb_space(char c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

/* s with white space as '_' (a field must not split), "-" for "". */
static void gb_add_field(struct strbuf *out, const char *s)
{
	if (!*s)
		strbuf_addch(out, '-');
	for (; *s; s++)
		strbuf_addch(out, gb_space(*s) || *s == '\n' ? '_' : *s);
}

/* A configuration value: one line. */
static void gb_add_value(struct strbuf *out, const char *key, const char *s)
{
	strbuf_addf(out, "%s: ", key);
	for (; *s; s++)
		strbuf_addch(out, *s == '\n' ? ' ' : *s);
	strbuf_addch(out, '\n');
}

/* The name of op on a result line: without " UNIT" at its end. */
static size_t gb_base_len(const struct op_samples *op)
{
	size_t n = strlen(op->name), u = strlen(op->unit);

	if (u && n > u + 1 && op->name[n - u - 1] == ' ' &&
	    !strcmp(op->name + n - u, op->unit))
		return n - u - 1;
	return n;
}

static void gb_export_units(const struct run_full *runs, size_t nr,
			    struct strbuf *out)
{
	struct strmap seen = STRMAP_INIT;

	for (size_t r = 0; r < nr; r++) {
		for (size_t o = 0; o < runs[r].ops_nr; o++) {
			const struct op_samples *op = &runs[r].ops[o];

			if (strmap_get(&seen, op->unit, strlen(op->unit), NULL))
				continue;
			strmap_put(&seen, op->unit, strlen(op->unit), 0);
			strbuf_addstr(out, "Unit ");
			gb_add_field(out, op->unit);
			strbuf_addf(out, " better=%s\n",
				    op->higher_better ? "higher" : "lower");
		}
	}
	strmap_clear(&seen);
}

/*
 * An operation's value in one iteration, compare's unit value: the
 * harmonic mean of its samples for a higher-is-better operation (all
 * positive), else their mean; a lone sample as it is.
 */
struct gb_unit {
	double sum, inv_sum;
	size_t n;
	bool positive;
};

static double gb_unit_value(const struct gb_unit *u, bool higher_better)
{
	if (u->n == 1)
		return u->sum;
	if (higher_better && u->positive)
		return (double)u->n / u->inv_sum;
	return u->sum / (double)u->n;
}

/*
 * The result lines of one measured iteration: one value per operation,
 * so that the gobench import reads the iteration back as one iteration
 * and compare tests the same unit values; operations that share a name
 * before their unit share a line, in the order they first appear.
 */
static void gb_export_iteration(const struct run_full *rf,
				const struct iteration_data *it,
				struct strbuf *out)
{
	const struct op_samples *last = NULL;
	struct gb_unit *u = xcalloc(rf->ops_nr + 1, sizeof(*u));
	size_t *order = xcalloc(rf->ops_nr + 1, sizeof(*order)), nr = 0;

	for (size_t s = 0; s < it->samples_nr; s++) {
		const struct sample_data *sd =
			&rf->samples[it->samples_first + s];
		struct gb_unit *g = &u[sd->op];

		if (!g->n++) {
			order[nr++] = sd->op;
			g->positive = true;
		}
		g->sum += sd->value;
		g->positive &= sd->value > 0;
		g->inv_sum += sd->value > 0 ? 1.0 / sd->value : 0.0;
	}
	for (size_t k = 0; k < nr; k++) {
		const struct op_samples *op = &rf->ops[order[k]];
		size_t base = gb_base_len(op);

		if (!last || gb_base_len(last) != base ||
		    memcmp(last->name, op->name, base) != 0) {
			char *name = xstrndup(op->name, base);

			if (last)
				strbuf_addch(out, '\n');
			strbuf_addstr(out, GB_PREFIX);
			gb_add_field(out, name);
			strbuf_addstr(out, " 1");
			free(name);
		}
		last = op;
		strbuf_addch(out, ' ');
		strbuf_add_double(
			out, gb_unit_value(&u[order[k]], op->higher_better));
		strbuf_addch(out, ' ');
		gb_add_field(out, op->unit);
	}
	if (last)
		strbuf_addch(out, '\n');
	free(u);
	free(order);
}

void gobench_export(const struct run_full *runs, size_t nr, struct strbuf *out)
{
	struct strvec labels = STRVEC_INIT;
	struct strmap seen = STRMAP_INIT;
	size_t start = out->len;

	gb_export_units(runs, nr, out);
	for (size_t r = 0; r < nr; r++) {
		const char *label = runs[r].info.label;

		if (!strmap_get(&seen, label, strlen(label), NULL)) {
			strmap_put(&seen, label, strlen(label), 0);
			strvec_push(&labels, label);
		}
	}
	for (size_t l = 0; l < labels.nr; l++) {
		const char *pkg = NULL;

		if (out->len > start)
			strbuf_addch(out, '\n');
		gb_add_value(out, "label", labels.v[l]);
		for (size_t r = 0; r < nr; r++) {
			const struct run_full *rf = &runs[r];

			if (strcmp(rf->info.label, labels.v[l]) != 0)
				continue;
			for (size_t i = 0; i < rf->iters_nr; i++) {
				const struct iteration_data *it = &rf->iters[i];

				if (it->warmup || !it->samples_nr)
					continue;
				if (!pkg || strcmp(pkg, it->benchmark) != 0) {
					pkg = it->benchmark;
					gb_add_value(out, "pkg", pkg);
				}
				gb_export_iteration(rf, it, out);
			}
		}
	}
	strvec_clear(&labels);
	strmap_clear(&seen);
}

static void benchstat_finish(void *doc, struct strbuf *out)
{
	const struct export_runs *r = doc;

	gobench_export(r->v, r->nr, out);
}

const struct export_format export_benchstat = {
	.name = "benchstat",
	.start = export_runs_start,
	.add_run = export_runs_add,
	.finish = benchstat_finish,
	.free = export_runs_free,
};
