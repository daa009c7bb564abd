/* session-boots: a run with kernels, boot by boot through the guests. */
#include "session-internal.h"

#include "config.h"
#include "executor.h"
#include "store.h"
#include "util.h"

/* Boot kernel k as boot n (1-based): record it for k's runs. */
static int start_boot(struct session *s, size_t k, size_t n, struct strbuf *err)
{
	struct executor_boot_info info = {.failed = STRBUF_INIT};
	int ret = -1;

	if (executor_boot(s->ex, k, (long)n, &info, err))
		goto out;
	s->boot = (long)n;
	if (info.failed.len)
		session_notify(
			s,
			"boot %zu of kernel '%s' failed, its iterations with it: %.*s",
			n, info.kernel, (int)strcspn(info.failed.buf, "\n"),
			info.failed.buf);
	for (size_t b = 0; b < s->plan->builds_nr; b++)
		if (s->cfg->builds[b].kernel == k &&
		    store_boot_add(s->st, s->runs[b].sum.id, &info, err))
			goto out;
	ret = 0;
out:
	executor_boot_info_release(&info);
	return ret;
}

/*
 * Whether every job of kernel k (SIZE_MAX: of every kernel) is precise
 * enough to stop; if so, mark them stopped on precision.
 */
static bool until_kernel_precise(struct session *s, size_t k)
{
	for (int mark = 0; mark < 2; mark++)
		for (size_t j = 0; j < s->plan->nr; j++) {
			size_t b = s->plan->jobs[j].build_index;

			if (k != SIZE_MAX && s->cfg->builds[b].kernel != k)
				continue;
			if (mark)
				s->until[j].precise = true;
			else if (!session_until_precise(s, j))
				return false;
		}
	return true;
}

/*
 * After the n-th boot of the schedule, of kernel k, under `until`: which
 * kernels need no more boots (section 9 with boots). Interleaved boots
 * (A B B A) stop together, and only after a whole round, so that every
 * kernel keeps as many boots as the others and the alternation that
 * cancels drift stays whole; boots in sequence (A A B B) stop kernel by
 * kernel. Each job looks at its own iteration values, from all boots.
 */
static void until_boots_check(struct session *s, size_t n, size_t k, bool *done)
{
	size_t kernels_nr = s->cfg->kernels_nr;

	if (!s->until_pct)
		return;
	if (!s->cfg->vm.interleave) {
		done[k] = until_kernel_precise(s, k);
		return;
	}
	if (n % kernels_nr || !until_kernel_precise(s, SIZE_MAX))
		return;
	for (size_t i = 0; i < kernels_nr; i++)
		done[i] = true;
}

int session_run_boots(struct session *s, struct strbuf *err)
{
	long per = s->cfg->warmup + s->measured;
	bool *done = xcalloc(s->cfg->kernels_nr, sizeof(*done));
	size_t booted = 0;
	int ret = -1;

	s->iter_base = xcalloc(s->cfg->kernels_nr, sizeof(*s->iter_base));
	for (size_t n = 1; n <= s->opts.boots_nr; n++) {
		size_t k = s->opts.boot_order[n - 1];
		struct plan_step step;

		if (session_flag_set(s->opts.stop) || s->aborted)
			break;
		/* Boots are numbered as they happen, skipped ones left out. */
		if (done[k])
			continue;
		if (start_boot(s, k, (size_t)s->opts.boot_base + ++booted, err))
			goto out;
		plan_walk_init(&s->walk, s->plan, per, s->cfg->interleave);
		for (;;) {
			bool config_step;

			/* As in session_run(): what ran is torn down. */
			if (session_flag_set(s->opts.stop) || s->aborted)
				plan_walk_finish(&s->walk);
			if (!plan_walk_next(&s->walk, &step))
				break;
			config_step = step.kind == PLAN_STEP_SETUP ||
				      step.kind == PLAN_STEP_TEARDOWN;

			if (!config_step &&
			    s->cfg->builds[step.build].kernel != k)
				continue;
			if (session_do_step(s, &step, err))
				goto out;
		}
		s->iter_base[k] += per;
		until_boots_check(s, n, k, done);
	}
	ret = 0;
out:
	free(done);
	s->boot = 0;
	return ret;
}
