/* mmcmp run --check: the plan of a config, printed without running it. */
#include "run-check.h"

#include <stdio.h>
#include <string.h>

#include "config.h"
#include "plan.h"
#include "session.h"

static void print_argv(FILE *f, char *const *argv)
{
	for (size_t i = 0; argv[i]; i++) {
		const char *a = argv[i];
		bool quote = !*a || strpbrk(a, " \t\n'\"\\$`*?[]{}()<>|&;#~");

		fputs(i ? " " : "", f);
		if (!quote) {
			fputs(a, f);
			continue;
		}
		fputc('\'', f);
		for (; *a; a++) {
			if (*a == '\'')
				fputs("'\\''", f);
			else
				fputc(*a, f);
		}
		fputc('\'', f);
	}
}

/* How --check names where a metric's values come from. */
static const char *const source_names[] = {
	[METRIC_REGEX] = "regex",   [METRIC_JSON] = "json",
	[METRIC_PARSER] = "parser", [METRIC_ELAPSED] = "elapsed",
	[METRIC_USER] = "user",	    [METRIC_SYSTEM] = "system",
	[METRIC_MAXRSS] = "maxrss",
};

static void print_cgroup(const struct cgroup_spec *cg)
{
	printf("  cgroup %s", cg->path);
	for (size_t i = 0; i < cg->controllers.nr; i++)
		printf("%s%s", i ? "," : " +", cg->controllers.v[i]);
	for (size_t i = 0; i < cg->limits.nr; i++)
		printf(" %s=%s", cg->limits.v[i].key, cg->limits.v[i].value);
	if (cg->root)
		printf(" under %s", cg->root);
	putchar('\n');
}

int run_check_print(const struct config *cfg, const struct plan *plan,
		    char *const *labels, int iterations)
{
	int iters = iterations ? iterations : cfg->iterations;

	printf("config %s (%s): %zu job%s, %d iteration%s each after %d warm-up, timeout %gs%s\n",
	       cfg->name, cfg->path, plan->nr, plan->nr == 1 ? "" : "s", iters,
	       iters == 1 ? "" : "s", cfg->warmup, cfg->timeout_s,
	       cfg->interleave && plan->builds_nr > 1 ? ", builds interleaved"
						      : "");
	for (size_t j = 0; j < plan->nr; j++) {
		const struct job *job = &plan->jobs[j];
		size_t b = job->build_index;

		if (!j || b != plan->jobs[j - 1].build_index) {
			printf("label %s%s%s\n", labels[b],
			       !job->build	 ? ""
			       : cfg->kernels_nr ? " kernel "
						 : " build ",
			       job->build ? job->build->name : "");
			if (session_build_cgroup(cfg, b))
				print_cgroup(session_build_cgroup(cfg, b));
		}
		printf("  %s%s%s: ", job->wl->name, *job->key ? " " : "",
		       job->key);
		print_argv(stdout, job->argv.v);
		putchar('\n');
		for (size_t m = 0; m < job->wl->metrics_nr; m++) {
			const struct metric_spec *ms = &job->wl->metrics[m];

			printf("    %s  %s [%s] %s is better, %s, %d+%d iterations\n",
			       job->ops[m], ms->name, ms->unit,
			       ms->higher_better ? "higher" : "lower",
			       source_names[ms->source], cfg->warmup, iters);
		}
	}
	return 0;
}
