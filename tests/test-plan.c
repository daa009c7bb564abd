/*
 * Unit tests for plan: placeholders, @cpu-range, expansion, overrides, the
 * parameter walk and the order of work.
 */
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

/*
 * Overrides that plan_prepare() refuses with `want` in its message. A
 * spec ending in '=' gets `values` values 0,1,2,... appended.
 */
static const struct {
	const char *spec[3];
	size_t values;
	const char *want;
} bad_override_cases[] = {
	{{"a=1\n2"},
	 0,
	 "--param 'a=...': value 1 '1\\n2' contains a control character"},
	{{"a=1,\033[31mred"},
	 0,
	 "value 2 '\\x1b[31mred' contains a control character"},
	{{"a\nb=1"}, 0, "--param: expected NAME=VALUE"},
	{{"a b=1"}, 0, "--param 'a b=...': bad parameter name"},
	{{"a="}, 20000, "--param 'a=...': the run would have more than 10000 "},
	{{"a=", "b="}, 1000, "--param 'b=...': the run would have more than "},
};

/* Check every bad_override_cases row against config_text. */
static void test_bad_overrides(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(bad_override_cases); i++) {
		struct config cfg = CONFIG_INIT;
		struct strbuf err = STRBUF_INIT;
		struct strvec specs = STRVEC_INIT;
		bool refused;

		for (size_t k = 0; bad_override_cases[i].spec[k]; k++) {
			const char *spec = bad_override_cases[i].spec[k];
			struct strbuf sb = STRBUF_INIT;

			strbuf_addstr(&sb, spec);
			if (spec[strlen(spec) - 1] == '=')
				for (size_t v = 0;
				     v < bad_override_cases[i].values; v++)
					strbuf_addf(&sb, "%s%zu", v ? "," : "",
						    v);
			strvec_push_nodup(&specs, strbuf_detach(&sb, NULL));
		}
		if (config_load_buffer(&cfg, "t.yaml", config_text,
				       sizeof(config_text) - 1, &err))
			BUG("the test config does not load: %s", err.buf);
		refused = plan_prepare(&cfg, specs.v, &err) == -1 &&
			  strstr(err.buf, bad_override_cases[i].want) &&
			  !strchr(err.buf, '\n') && !strchr(err.buf, '\033');
		ok(refused, "bad override %zu refused: %s", i, err.buf);
		config_release(&cfg);
		strvec_clear(&specs);
		strbuf_release(&err);
	}
}

/*
 * The order of work for a plan of `builds` builds (0: none) of `jobs` jobs
 * each, with `iterations` per job; stop_after > 0 calls plan_walk_finish()
 * after that many steps. In want, "S"/"T" are the config's setup and
 * teardown, "B1"/"b1" build 1's setup and teardown, "J3"/"j3" job 3's, and
 * "3.0" iteration 0 of job 3.
 */
/* When iteration at_job.at_it is handed out, skip job `skip`. */
struct walk_skip {
	size_t at_job;
	long at_it;
	size_t skip;
};

static const struct {
	size_t builds, jobs;
	long iterations;
	bool interleave;
	size_t stop_after;
	const char *want;
} walk_cases[] = {
	{0, 2, 2, false, 0, "S J0 0.0 0.1 j0 J1 1.0 1.1 j1 T"},
	{0, 2, 2, true, 0, "S J0 0.0 0.1 j0 J1 1.0 1.1 j1 T"},
	/* Every other round reversed: A B B A A B. */
	{2, 1, 3, true, 0,
	 "S B0 J0 B1 J1 0.0 1.0 1.1 0.1 0.2 1.2 j0 j1 b0 b1 T"},
	{3, 1, 2, true, 0,
	 "S B0 J0 B1 J1 B2 J2 0.0 1.0 2.0 2.1 1.1 0.1 j0 j1 j2 b0 b1 b2 T"},
	{2, 1, 3, false, 0,
	 "S B0 J0 0.0 0.1 0.2 j0 B1 J1 1.0 1.1 1.2 j1 b0 b1 T"},
	{2, 2, 1, true, 0,
	 "S B0 J0 B1 J2 0.0 2.0 j0 j2 J1 J3 1.0 3.0 j1 j3 b0 b1 T"},
	{2, 2, 1, false, 0,
	 "S B0 J0 0.0 j0 J1 1.0 j1 B1 J2 2.0 j2 J3 3.0 j3 b0 b1 T"},
	/* A stop tears down the jobs set up so far (issue 11, item 8). */
	{3, 1, 2, false, 5, "S B0 J0 0.0 0.1 j0 b0 T"},
	{3, 1, 2, true, 4, "S B0 J0 B1 j0 b0 b1 T"},
	{0, 2, 3, false, 4, "S J0 0.0 0.1 j0 T"},
	{2, 2, 1, true, 7, "S B0 J0 B1 J2 0.0 2.0 j0 j2 b0 b1 T"},
	{2, 2, 1, true, 8, "S B0 J0 B1 J2 0.0 2.0 j0 j2 b0 b1 T"},
	{2, 2, 1, true, 9, "S B0 J0 B1 J2 0.0 2.0 j0 j2 b0 b1 T"},
	{2, 2, 1, false, 3, "S B0 J0 j0 b0 T"},
	{1, 1, 2, false, 1, "S T"},
	{0, 1, 0, false, 0, "S J0 j0 T"},
	{0, 0, 3, false, 0, "S T"},
};

static void walk_string_skip(const struct plan *p, long iterations,
			     bool interleave, size_t stop_after,
			     const struct walk_skip *skip, struct strbuf *sb)
{
	static const char *const kinds[] = {
		[PLAN_STEP_SETUP] = "S",
		[PLAN_STEP_BUILD_SETUP] = "B",
		[PLAN_STEP_JOB_SETUP] = "J",
		[PLAN_STEP_JOB_TEARDOWN] = "j",
		[PLAN_STEP_BUILD_TEARDOWN] = "b",
		[PLAN_STEP_TEARDOWN] = "T",
	};
	struct plan_walk w;
	struct plan_step step;
	size_t n = 0;

	plan_walk_init(&w, p, iterations, interleave);
	while (plan_walk_next(&w, &step)) {
		strbuf_addstr(sb, n ? " " : "");
		if (step.kind == PLAN_STEP_ITERATION)
			strbuf_addf(sb, "%zu.%ld", step.job, step.iteration);
		else if (step.kind == PLAN_STEP_BUILD_SETUP ||
			 step.kind == PLAN_STEP_BUILD_TEARDOWN)
			strbuf_addf(sb, "%s%zu", kinds[step.kind], step.build);
		else if (step.kind == PLAN_STEP_SETUP ||
			 step.kind == PLAN_STEP_TEARDOWN)
			strbuf_addstr(sb, kinds[step.kind]);
		else
			strbuf_addf(sb, "%s%zu", kinds[step.kind], step.job);
		if (skip && step.kind == PLAN_STEP_ITERATION &&
		    step.job == skip->at_job && step.iteration == skip->at_it)
			plan_walk_skip_job(&w, skip->skip);
		if (++n == stop_after)
			plan_walk_finish(&w);
		if (n > 1000)
			break; /* a walk that does not end */
	}
}

/*
 * plan_walk_skip_job() (mmcmp run --until): after iteration step
 * "at_job.at_it" is handed out, skip job `skip`'s remaining iterations.
 */
static const struct {
	size_t builds, jobs;
	long iterations;
	bool interleave;
	size_t at_job;
	long at_it;
	size_t skip;
	const char *want;
} skip_cases[] = {
	{0, 2, 4, false, 0, 2, 0,
	 "S J0 0.0 0.1 0.2 j0 J1 1.0 1.1 1.2 1.3 j1 T"},
	{0, 2, 4, false, 1, 2, 1,
	 "S J0 0.0 0.1 0.2 0.3 j0 J1 1.0 1.1 1.2 j1 T"},
	/* Not the job being iterated: nothing changes. */
	{0, 2, 2, false, 0, 0, 1, "S J0 0.0 0.1 j0 J1 1.0 1.1 j1 T"},
	/* Interleaved builds stop together, after a whole round. */
	{2, 1, 5, true, 1, 2, 1,
	 "S B0 J0 B1 J1 0.0 1.0 1.1 0.1 0.2 1.2 j0 j1 b0 b1 T"},
	{2, 2, 4, true, 2, 0, 0,
	 "S B0 J0 B1 J2 0.0 2.0 j0 j2 J1 J3 1.0 3.0 3.1 1.1 1.2 3.2 3.3 1.3 "
	 "j1 j3 b0 b1 T"},
	{2, 1, 3, false, 1, 0, 1,
	 "S B0 J0 0.0 0.1 0.2 j0 B1 J1 1.0 j1 b0 b1 T"},
	/* Skipped at the last iteration: the walk is as without it. */
	{0, 1, 2, false, 0, 1, 0, "S J0 0.0 0.1 j0 T"},
};

static void walk_string(const struct plan *p, long iterations, bool interleave,
			size_t stop_after, struct strbuf *sb)
{
	walk_string_skip(p, iterations, interleave, stop_after, NULL, sb);
}

/* A plan of `builds` builds (0: none) of `jobs` jobs each, for walks. */
static void walk_plan(struct plan *p, struct build_spec **builds,
		      size_t nbuilds, size_t jobs)
{
	size_t nb = nbuilds ? nbuilds : 1;

	*builds = xcalloc(nb, sizeof(**builds));
	p->builds_nr = nb;
	p->nr = nb * jobs;
	p->jobs = xcalloc(p->nr + 1, sizeof(*p->jobs));
	for (size_t j = 0; j < p->nr; j++) {
		p->jobs[j].build_index = j / jobs;
		if (nbuilds)
			p->jobs[j].build = &(*builds)[j / jobs];
	}
}

static void test_walk_skip(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(skip_cases); i++) {
		struct walk_skip skip = {skip_cases[i].at_job,
					 skip_cases[i].at_it,
					 skip_cases[i].skip};
		struct build_spec *builds;
		struct plan p = PLAN_INIT;
		struct strbuf sb = STRBUF_INIT;

		walk_plan(&p, &builds, skip_cases[i].builds,
			  skip_cases[i].jobs);
		walk_string_skip(&p, skip_cases[i].iterations,
				 skip_cases[i].interleave, 0, &skip, &sb);
		is_str(sb.buf, skip_cases[i].want, "skip case %zu", i);
		free(p.jobs);
		free(builds);
		strbuf_release(&sb);
	}
}

static void test_walk(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(walk_cases); i++) {
		struct build_spec *builds;
		struct plan p = PLAN_INIT;
		struct strbuf sb = STRBUF_INIT;

		walk_plan(&p, &builds, walk_cases[i].builds,
			  walk_cases[i].jobs);
		walk_string(&p, walk_cases[i].iterations,
			    walk_cases[i].interleave, walk_cases[i].stop_after,
			    &sb);
		is_str(sb.buf, walk_cases[i].want, "walk case %zu", i);
		free(p.jobs);
		free(builds);
		strbuf_release(&sb);
	}
}

/*
 * plan_step.round_end, which mmcmp run --until waits for: the iteration
 * that ends a round of the group (build 2's, then build 0's in the reversed
 * round), and every iteration without interleaving.
 */
static void test_walk_round_end(void)
{
	static const struct {
		size_t builds;
		bool interleave;
		const char *want;
	} cases[] = {
		{3, true, "0.0 1.0 2.0| 2.1 1.1 0.1| 0.2 1.2 2.2|"},
		{2, false, "0.0| 0.1| 0.2| 1.0| 1.1| 1.2|"},
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct build_spec *builds;
		struct plan p = PLAN_INIT;
		struct plan_walk w;
		struct plan_step step;
		struct strbuf sb = STRBUF_INIT;

		walk_plan(&p, &builds, cases[i].builds, 1);
		plan_walk_init(&w, &p, 3, cases[i].interleave);
		while (plan_walk_next(&w, &step))
			if (step.kind == PLAN_STEP_ITERATION)
				strbuf_addf(&sb, "%s%zu.%ld%s",
					    sb.len ? " " : "", step.job,
					    step.iteration,
					    step.round_end ? "|" : "");
		is_str(sb.buf, cases[i].want, "round ends, case %zu", i);
		free(p.jobs);
		free(builds);
		strbuf_release(&sb);
	}
}

/* Parameter value counts, and the combinations in the order walked. */
static const struct {
	size_t counts[3];
	size_t nr;
	const char *want;
} combination_cases[] = {
	{{0}, 0, "()"},
	{{3}, 1, "(0) (1) (2)"},
	{{2, 3}, 2, "(0,0) (0,1) (0,2) (1,0) (1,1) (1,2)"},
	{{1, 2, 1}, 3, "(0,0,0) (0,1,0)"},
};

/*
 * With shell: true, values go into the script single-quoted (issue 11,
 * item 16): `value` is a parameter's value in a YAML flow sequence, want
 * the script of its job.
 */
static const struct {
	const char *value, *want;
} shell_cases[] = {
	{"plain", "echo 'plain' >/dev/null"},
	{"'a b'", "echo 'a b' >/dev/null"},
	{"'$(touch x); `id`'", "echo '$(touch x); `id`' >/dev/null"},
	{"\"it's\"", "echo 'it'\\''s' >/dev/null"},
	{"\"''\"", "echo ''\\'''\\''' >/dev/null"},
	{"\"\"", "echo '' >/dev/null"},
};

static void test_shell_quoting(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(shell_cases); i++) {
		struct config cfg = CONFIG_INIT;
		struct plan p = PLAN_INIT;
		struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;

		strbuf_addf(
			&text,
			"name: t\n"
			"workloads:\n"
			"  - name: w\n"
			"    shell: true\n"
			"    command: \"echo {v} >/dev/null\"\n"
			"    params: { v: [%s] }\n"
			"    operation: op\n"
			"    metrics:\n"
			"      - { name: t, extract: { measure: elapsed } }\n",
			shell_cases[i].value);
		if (config_load_buffer(&cfg, "t.yaml", text.buf, text.len,
				       &err) ||
		    plan_prepare(&cfg, NULL, &err) ||
		    plan_build(&p, &cfg, &err) || p.nr != 1)
			ok(false, "shell case %zu builds: %s", i, err.buf);
		else
			is_str(p.jobs[0].argv.v[2], shell_cases[i].want,
			       "shell case %zu: the value is one sh word", i);
		plan_release(&p);
		config_release(&cfg);
		strbuf_release(&err);
		strbuf_release(&text);
	}
}

static void test_combinations(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(combination_cases); i++) {
		struct param_spec params[3];
		struct workload_spec wl = {.params = params};
		size_t pick[4] = {0};
		struct strbuf sb = STRBUF_INIT;
		size_t n = 0;

		memset(params, 0, sizeof(params));
		wl.params_nr = combination_cases[i].nr;
		for (size_t k = 0; k < wl.params_nr; k++)
			params[k].values.nr = combination_cases[i].counts[k];
		do {
			strbuf_addstr(&sb, n++ ? " (" : "(");
			for (size_t k = 0; k < wl.params_nr; k++)
				strbuf_addf(&sb, "%s%zu", k ? "," : "",
					    pick[k]);
			strbuf_addch(&sb, ')');
		} while (plan_next_combination(&wl, pick) && n < 100);
		is_str(sb.buf, combination_cases[i].want,
		       "combinations case %zu", i);
		ok(!pick[0] && !pick[1] && !pick[2],
		   "combinations case %zu ends at the first again", i);
		strbuf_release(&sb);
	}
}

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
	test_walk();
	test_walk_skip();
	test_walk_round_end();
	test_combinations();
	test_shell_quoting();
	test_bad_overrides();
	done_testing();
	return exit_status();
}
