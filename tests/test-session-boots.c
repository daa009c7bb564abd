/*
 * Unit tests for session runs with kernels, without qemu: a fake
 * executor that "boots" by logging the kernel and boot number and runs
 * the commands locally (fake-bench), and that can fail one boot. The
 * boots come in the order given (A B B A), each runs every iteration of
 * its kernel's labels, and a failed boot's iterations fail while the
 * next boot runs.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "config.h"
#include "executor.h"
#include "plan.h"
#include "runner.h"
#include "session.h"
#include "store.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"

struct fake {
	struct executor base;
	struct executor *local;
	struct strbuf log;
	long fail_boot; /* this boot fails; 0: none */
	bool dead;
};

static int fake_run(struct executor *ex, const struct executor_request *req,
		    struct executor_result *res, struct strbuf *err)
{
	struct fake *f = (struct fake *)ex;

	if (!f->dead)
		return executor_run(f->local, req, res, err);
	res->monitors = NULL;
	res->run.status = RUNNER_EXEC;
	strbuf_reset(&res->run.err_tail);
	strbuf_addstr(&res->run.err_tail, "boot failed");
	return 0;
}

static void fake_machine(struct executor *ex, struct machine_info *mi)
{
	executor_machine_info(((struct fake *)ex)->local, mi);
}

static void fake_free(struct executor *ex)
{
	(void)ex;
}

static int fake_boot(struct executor *ex, size_t kernel, long number,
		     struct executor_boot_info *info, struct strbuf *err)
{
	struct fake *f = (struct fake *)ex;

	(void)err;
	strbuf_addf(&f->log, "%s%zu:%ld", f->log.len ? " " : "", kernel,
		    number);
	info->number = number;
	info->kernel = xstrdup(kernel ? "b" : "a");
	info->image = xstrdup("/fake");
	info->image_sha256 = xstrdup(
		"0000000000000000000000000000000000000000000000000000000000000000");
	info->append = xstrdup("");
	info->qemu_version = xstrdup("fake");
	info->qemu_cmdline = xstrdup("fake");
	info->accel = xstrdup("tcg");
	info->boot_s = -1;
	f->dead = number == f->fail_boot;
	if (f->dead)
		strbuf_addf(&info->failed, "boot %ld: no agent\nconsole",
			    number);
	return 0;
}

static const struct executor_ops fake_ops = {
	.name = "fake",
	.run = fake_run,
	.machine = fake_machine,
	.free = fake_free,
	.boot = fake_boot,
};

struct seen {
	struct strbuf progress, warnings;
};

static void on_progress(void *ctx, const struct session_progress *p)
{
	struct seen *s = ctx;

	strbuf_addf(&s->progress, "%s%s:i%ld", s->progress.len ? " " : "",
		    p->label, p->index);
}

static void on_warning(void *ctx, const char *msg)
{
	struct seen *s = ctx;

	strbuf_addf(&s->warnings, "%s\n", msg);
}

/*
 * The cases run 2 kernels x `boots` boots (2 when 0) x 2 iterations,
 * of a constant workload, or with `first_high` one that prints 150 the
 * first time and 100 after (the first boot, of kernel a, has the spread);
 * `until` is the config's.
 */
static const struct {
	const char *name;
	bool interleave;
	long fail_boot;
	const char *boots, *progress, *summary;
	int vm_boots;
	double until;
	bool first_high;
} cases[] = {
	{"A B B A", true, 0, "0:1 1:2 1:3 0:4",
	 "t-a:i1 t-a:i2 t-b:i1 t-b:i2 t-b:i1 t-b:i2 t-a:i1 t-a:i2",
	 "t-a 4/0 t-b 4/0", 0, 0, false},
	{"A A B B", false, 0, "0:1 0:2 1:3 1:4",
	 "t-a:i1 t-a:i2 t-a:i1 t-a:i2 t-b:i1 t-b:i2 t-b:i1 t-b:i2",
	 "t-a 4/0 t-b 4/0", 0, 0, false},
	{"a failed boot fails its iterations only", true, 2, "0:1 1:2 1:3 0:4",
	 "t-a:i1 t-a:i2 t-b:i1 t-b:i2 t-b:i1 t-b:i2 t-a:i1 t-a:i2",
	 "t-a 4/0 t-b 4/2", 0, 0, false},
	/*
	 * until 40: the pilot, the first 5 iterations of each kernel (a's
	 * 150, 4 x 100: 25.2%), asks for 5 tested ones; a has them after
	 * boot 9, b after boot 10, the end of a round, before the 6 boots
	 * of the maximum. The pilot counts over boots.
	 */
	{"until: A B B A stops after a whole round", true, 0,
	 "0:1 1:2 1:3 0:4 0:5 1:6 1:7 0:8 0:9 1:10",
	 "t-a:i1 t-a:i2 t-b:i1 t-b:i2 t-b:i3 t-b:i4 t-a:i3 t-a:i4 "
	 "t-a:i5 t-a:i2 t-b:i5 t-b:i2 t-b:i1 t-b:i2 t-a:i1 t-a:i2 "
	 "t-a:i1 t-a:i2 t-b:i1 t-b:i2",
	 "t-a 5/0 t-b 5/0", 6, 40, true},
	/*
	 * until 5: a never is (its pilot asks for 128), so b keeps booting
	 * although it has been precise since boot 10: the rounds stay whole.
	 */
	{"until: A B B A boots to the maximum, b with a", true, 0,
	 "0:1 1:2 1:3 0:4 0:5 1:6 1:7 0:8 0:9 1:10 1:11 0:12",
	 "t-a:i1 t-a:i2 t-b:i1 t-b:i2 t-b:i3 t-b:i4 t-a:i3 t-a:i4 "
	 "t-a:i5 t-a:i2 t-b:i5 t-b:i2 t-b:i1 t-b:i2 t-a:i1 t-a:i2 "
	 "t-a:i1 t-a:i2 t-b:i1 t-b:i2 t-b:i1 t-b:i2 t-a:i1 t-a:i2",
	 "t-a 7/0 t-b 7/0", 6, 5, true},
	/*
	 * In sequence: each kernel stops after its fifth boot, the pilot's
	 * 5 iterations and 5 tested ones.
	 */
	{"until: A A B B stops kernel by kernel", false, 0,
	 "0:1 0:2 0:3 0:4 0:5 1:6 1:7 1:8 1:9 1:10",
	 "t-a:i1 t-a:i2 t-a:i3 t-a:i4 t-a:i5 t-a:i2 t-a:i1 t-a:i2 t-a:i1 "
	 "t-a:i2 t-b:i1 t-b:i2 t-b:i3 t-b:i4 t-b:i5 t-b:i2 t-b:i1 t-b:i2 "
	 "t-b:i1 t-b:i2",
	 "t-a 5/0 t-b 5/0", 6, 5, false},
};

static void run_case(size_t i, const char *fake_bench, const char *db,
		     const char *dir)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT, sum = STRBUF_INIT;
	struct config cfg = CONFIG_INIT;
	struct plan plan = PLAN_INIT;
	struct strvec labels = STRVEC_INIT;
	struct seen seen = {STRBUF_INIT, STRBUF_INIT};
	struct executor_local_opts lo = {.monitors = false};
	struct fake f = {.base = {&fake_ops}, .log = STRBUF_INIT};
	int vm_boots = cases[i].vm_boots ? cases[i].vm_boots : 2;
	size_t order[12]; /* 2 kernels x at most 6 boots */
	struct store *st = NULL;
	struct session *s = NULL;
	int r;

	strbuf_addf(&text, "name: t\niterations: 2\n");
	if (cases[i].until > 0)
		strbuf_addf(&text, "until: %g\n", cases[i].until);
	strbuf_addstr(&text, "workloads:\n  - name: w\n");
	if (cases[i].first_high)
		strbuf_addf(
			&text,
			"    shell: true\n"
			"    command: \"if [ -e %s/n ]; then echo total:100; "
			"else : > %s/n; echo total:150; fi\"\n",
			dir, dir);
	else
		strbuf_addf(&text,
			    "    command: [\"%s\", \"--values\", \"1\"]\n",
			    fake_bench);
	strbuf_addf(&text,
		    "    metrics:\n"
		    "      - { name: total, extract: { regex: "
		    "\"total:([0-9]+)\" } }\n"
		    "kernels:\n  a: { image: /x }\n  b: { image: /y }\n"
		    "vm: { boots: %d, interleave: %s }\n",
		    vm_boots, cases[i].interleave ? "true" : "false");
	unlink(db);
	strbuf_addf(&sum, "%s/n", dir);
	unlink(sum.buf);
	strbuf_reset(&sum);
	f.fail_boot = cases[i].fail_boot;
	r = config_load_buffer(&cfg, "t.yaml", text.buf, text.len, &err) ||
	    config_expand_kernels(&cfg, &err) || plan_build(&plan, &cfg, &err);
	st = r ? NULL : store_open(db, &err);
	f.local = st ? executor_local_new(&lo, &err) : NULL;
	if (!ok(f.local != NULL, "case %zu (%s): set up: %s", i, cases[i].name,
		err.buf))
		goto out;
	for (size_t b = 0; b < cfg.builds_nr; b++) {
		struct strbuf l = STRBUF_INIT;

		strbuf_addf(&l, "t-%s", cfg.builds[b].name);
		strvec_push_nodup(&labels, strbuf_detach(&l, NULL));
	}
	config_boot_order(&cfg.vm, cfg.kernels_nr, order);
	{
		struct session_opts so = {
			.labels = labels.v,
			.progress = on_progress,
			.warning = on_warning,
			.ctx = &seen,
			.boot_order = order,
			.boots_nr = 2 * (size_t)vm_boots,
		};

		s = session_new(&cfg, &plan, st, &so);
	}
	r = session_run(s, &f.base, &err) || session_finish(s, &err);
	ok(!r, "case %zu (%s): runs: %s", i, cases[i].name, err.buf);
	is_str(f.log.buf, cases[i].boots, "case %zu (%s): boot order", i,
	       cases[i].name);
	is_str(seen.progress.buf, cases[i].progress,
	       "case %zu (%s): iterations boot by boot", i, cases[i].name);
	for (size_t b = 0; b < session_runs_nr(s); b++) {
		const struct session_summary *ss = session_summary(s, b);

		strbuf_addf(&sum, "%s%s %zu/%zu", b ? " " : "", ss->label,
			    ss->iterations, ss->failed);
	}
	is_str(sum.buf, cases[i].summary, "case %zu (%s): summary", i,
	       cases[i].name);
	if (cases[i].fail_boot) {
		bool reported = strstr(seen.warnings.buf,
				       "boot 2 of kernel 'b' failed, its "
				       "iterations with it: boot 2: no "
				       "agent\n") != NULL;

		ok(reported,
		   "case %zu: the failed boot is reported on one line", i);
		for (char *c = seen.warnings.buf; !reported && *c; c++)
			if (*c == '\n')
				*c = '|';
		if (!reported)
			diag("warnings: %s", seen.warnings.buf);
	}
out:
	session_free(s);
	executor_free(f.local);
	store_close(st);
	plan_release(&plan);
	config_release(&cfg);
	strvec_clear(&labels);
	strbuf_release(&text);
	strbuf_release(&err);
	strbuf_release(&sum);
	strbuf_release(&f.log);
	strbuf_release(&seen.progress);
	strbuf_release(&seen.warnings);
}

int main(void)
{
	const char *fake_bench = getenv("FAKE_BENCH");
	const char *tmp = getenv("TMPDIR");
	struct strbuf dir = STRBUF_INIT, db = STRBUF_INIT;

	if (!fake_bench || !strchr(fake_bench, '/')) {
		printf("1..0 # SKIP FAKE_BENCH is not set to a path\n");
		return 0;
	}
	strbuf_addf(&dir, "%s/mmcmp-test-boots-XXXXXX",
		    tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir.buf)) {
		printf("Bail out! cannot create a temporary directory\n");
		return 1;
	}
	strbuf_addf(&db, "%s/test.db", dir.buf);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		run_case(i, fake_bench, db.buf, dir.buf);
	unlink(db.buf);
	strbuf_setlen(&db, db.len - strlen("test.db"));
	strbuf_addstr(&db, "n");
	unlink(db.buf);
	strbuf_setlen(&db, db.len - 1);
	strbuf_addstr(&db, "test.db");
	strbuf_addstr(&db, "-wal");
	unlink(db.buf);
	strbuf_setlen(&db, db.len - 4);
	strbuf_addstr(&db, "-shm");
	unlink(db.buf);
	rmdir(dir.buf);
	strbuf_release(&dir);
	strbuf_release(&db);
	done_testing();
	return exit_status();
}
