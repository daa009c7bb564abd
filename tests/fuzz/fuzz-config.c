/* Fuzz target: the config loader and the plan built from what it accepts. */
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "fuzz.h"
#include "plan.h"
#include "strbuf.h"

#define NAME "fuzz.yaml"

/* A load error is "fuzz.yaml:LINE:COL: message", LINE and COL from 1. */
static void check_position(const char *err)
{
	const char *p = err + sizeof(NAME);

	fuzz_check_error(err, NAME ":");
	for (int i = 0; i < 2; i++) {
		fuzz_assert(isdigit((unsigned char)*p) && *p != '0',
			    "an error without LINE:COL", err);
		while (isdigit((unsigned char)*p))
			p++;
		fuzz_assert(*p++ == ':', "an error without LINE:COL", err);
	}
	fuzz_assert(*p == ' ', "an error without LINE:COL", err);
}

/*
 * The jobs plan_build() would make. It compares the operation names of
 * every pair of jobs, so a few thousand take seconds under the
 * sanitizers and would starve the fuzzer: larger plans are not built.
 */
static size_t nr_jobs(const struct config *cfg)
{
	size_t nr = 0;

	for (size_t w = 0; w < cfg->workloads_nr; w++) {
		const struct workload_spec *wl = &cfg->workloads[w];
		size_t jobs = 1;

		for (size_t p = 0; p < wl->params_nr && jobs <= 100000; p++)
			jobs *= wl->params[p].values.nr;
		nr += jobs;
	}
	return nr * (cfg->builds_nr ? cfg->builds_nr : 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config cfg = CONFIG_INIT;
	struct plan plan = PLAN_INIT;
	struct strbuf err = STRBUF_INIT;

	if (config_load_buffer(&cfg, NAME, (const char *)data, size, &err)) {
		check_position(err.buf);
		fuzz_assert(!cfg.workloads_nr && !cfg.name,
			    "a failed load left a config behind", NULL);
		goto out;
	}
	fuzz_assert(cfg.workloads_nr > 0, "a config without workloads", NULL);
	/* What mmcmp run --check does next, short of running anything. */
	if (nr_jobs(&cfg) > 2000)
		goto out;
	if (plan_prepare(&cfg, NULL, &err) || plan_build(&plan, &cfg, &err)) {
		fuzz_check_error(err.buf, NULL);
		goto out;
	}
	fuzz_assert(plan.nr > 0, "a plan without jobs", NULL);
out:
	plan_release(&plan);
	config_release(&cfg);
	strbuf_release(&err);
	return 0;
}
