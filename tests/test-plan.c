/* Unit tests for plan: placeholders, @cpu-range, expansion and overrides. */
#include "tap.h"
#include "config.h"
#include "plan.h"
#include "strbuf.h"
#include "strvec.h"

static const struct {
	const char *tmpl;
	const char *want; /* NULL: an error */
} subst_cases[] = {
	{"ops-{mode}-{tasks}", "ops-threads-4"},
	{"{{literal}} {mode}", "{literal} threads"},
	{"no placeholders", "no placeholders"},
	{"{nosuch}", NULL},
	{"open {mode", NULL},
	{"close }", NULL},
};

static const struct {
	long cpus, cores;
	const char *want;
} range_cases[] = {
	{1, 1, "1 2"},
	{2, 1, "1 2 4"},
	{2, 2, "1 2 4"},
	{6, 3, "1 2 3 4 6 8 12"},
	{16, 8, "1 2 4 8 16 32"},
	{0, 0, "1 2"},
};

static const char config_text[] =
	"name: t\n"
	"workloads:\n"
	"  - name: w\n"
	"    command: [\"echo\", \"{a}\"]\n"
	"    params:\n"
	"      a: [1, 2]\n"
	"      b: [x]\n"
	"    operation: \"op-{a}\"\n"
	"    metrics:\n"
	"      - { name: t, extract: { measure: elapsed } }\n";

int main(void)
{
	char mode[] = "mode", tasks[] = "tasks", threads[] = "threads";
	char four[] = "4";
	char *names[] = {mode, tasks, NULL};
	char *values[] = {threads, four, NULL};

	for (size_t i = 0; i < ARRAY_SIZE(subst_cases); i++) {
		struct strbuf err = STRBUF_INIT;
		char *got = plan_substitute(subst_cases[i].tmpl, names, values,
					    &err);

		if (subst_cases[i].want)
			is_str(got, subst_cases[i].want, "substitute case %zu",
			       i);
		else
			ok(!got && err.len, "substitute case %zu fails: %s", i,
			   err.buf);
		free(got);
		strbuf_release(&err);
	}
	for (size_t i = 0; i < ARRAY_SIZE(range_cases); i++) {
		struct strvec sv = STRVEC_INIT;
		struct strbuf sb = STRBUF_INIT;

		plan_cpu_range(range_cases[i].cpus, range_cases[i].cores, &sv);
		for (size_t k = 0; k < sv.nr; k++)
			strbuf_addf(&sb, "%s%s", k ? " " : "", sv.v[k]);
		is_str(sb.buf, range_cases[i].want,
		       "cpu range, %ld CPUs %ld cores", range_cases[i].cpus,
		       range_cases[i].cores);
		strvec_clear(&sv);
		strbuf_release(&sb);
	}

	/* Overrides, and the collision check that guards them. */
	{
		struct config cfg = CONFIG_INIT;
		struct plan p = PLAN_INIT;
		struct strbuf err = STRBUF_INIT;
		bool failed;
		char g[] = "a=1,2,3", d[] = "a=1,1", n[] = "nosuch=1";
		char *good[] = {g, NULL};
		char *dup[] = {d, NULL};
		char *none[] = {n, NULL};

		ok(!config_load_buffer(&cfg, "t.yaml", config_text,
				       sizeof(config_text) - 1, &err),
		   "the test config loads: %s", err.buf);
		/* Compute first: the message argument must see the final err.
		 */
		failed = plan_prepare(&cfg, none, &err) == -1 &&
			 strstr(err.buf, "no workload");
		ok(failed, "an override of an unknown parameter fails: %s",
		   err.buf);
		strbuf_reset(&err);
		ok(!plan_prepare(&cfg, good, &err) &&
			   !plan_build(&p, &cfg, &err) && p.nr == 3,
		   "an override gives 3 jobs (%zu)", p.nr);
		is_str(p.nr == 3 ? p.jobs[2].ops[0] : NULL, "op-3",
		       "the third job's operation");
		is_str(p.nr == 3 ? p.jobs[2].argv.v[1] : NULL, "3",
		       "the third job's argument");
		plan_release(&p);
		failed = !plan_prepare(&cfg, dup, &err) &&
			 plan_build(&p, &cfg, &err) == -1 &&
			 strstr(err.buf, "both produce operation 'op-1'");
		ok(failed, "two jobs with one operation name fail: %s",
		   err.buf);
		plan_release(&p);
		config_release(&cfg);
		strbuf_release(&err);
	}
	done_testing();
	return exit_status();
}
