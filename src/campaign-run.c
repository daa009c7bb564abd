/* campaign-run: one boot's iterations, as a local run on this machine. */
#include "campaign-run.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "campaign-machine.h"
#include "campaign.h"
#include "config.h"
#include "executor.h"
#include "machine.h"
#include "plan.h"
#include "run-data.h"
#include "store-campaign.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"

/* Whether pid is alive: signal 0 reaches it. */
static bool pid_alive(int64_t pid, void *ctx)
{
	(void)ctx;
	return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

/* Unix time in seconds, with its fraction. */
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int campaign_next(struct store *st, struct campaign *c,
		  const struct campaign_machine *m, enum campaign_action *act,
		  size_t *bi, struct strbuf *err)
{
	for (int tries = 0; tries < 10; tries++) {
		const struct campaign_boot *b;
		struct strbuf ignored = STRBUF_INIT;
		char *sha = NULL, *pstore = NULL;
		bool conflict = false;
		struct campaign_now now = {
			.now = now_s(),
			.boot_id = m->boot_id,
			.release = m->release,
			.cmdline = m->cmdline,
			.pid = (int64_t)getpid(),
			.alive = pid_alive,
		};
		int ret;

		if (store_campaign_load(st, 0, c, err))
			return -1;
		b = campaign_booting(c);
		/* An image that cannot be read fails its boot, as changed. */
		if (b) {
			sha = campaign_file_sha256(b->image, &ignored);
			pstore = campaign_pstore_panic(NULL, b->booted_at);
		}
		strbuf_release(&ignored);
		now.image_sha256 = sha;
		now.pstore = pstore;
		*act = c->id ? campaign_decide(c, &now, bi) : CAMPAIGN_NONE;
		ret = store_campaign_update(st, c, &conflict, err);
		free(sha);
		free(pstore);
		if (ret || !conflict)
			return ret;
	}
	return error_addf(err,
			  "campaign %" PRId64 " keeps changing under "
			  "this resume; is another one running?",
			  c->id);
}

/* The local executor, with a boot that records this machine's kernel. */
struct machine_executor {
	struct executor base;
	struct executor *local;
	const struct campaign *c;
	const struct campaign_boot *b;
};

static int mx_run(struct executor *ex, const struct executor_request *req,
		  struct executor_result *res, struct strbuf *err)
{
	return executor_run(((struct machine_executor *)ex)->local, req, res,
			    err);
}

static void mx_machine(struct executor *ex, struct machine_info *mi)
{
	executor_machine_info(((struct machine_executor *)ex)->local, mi);
}

static void mx_free(struct executor *ex)
{
	executor_free(((struct machine_executor *)ex)->local);
	free(ex);
}

static int mx_boot(struct executor *ex, size_t kernel, long number,
		   struct executor_boot_info *info, struct strbuf *err)
{
	struct machine_executor *mx = (struct machine_executor *)ex;
	const struct campaign_boot *b = mx->b;

	(void)kernel;
	(void)err;
	info->number = number;
	info->kernel = xstrdup(b->kernel);
	info->image = xstrdup(b->image);
	info->image_sha256 = xstrdup(b->image_sha256);
	info->image_release =
		b->image_release ? xstrdup(b->image_release) : NULL;
	info->append = xstrdup(b->cmdline);
	info->qemu_version = xstrdup("none: this machine");
	info->qemu_cmdline = xstrdup(campaign_method_name(mx->c->method));
	info->accel = xstrdup("none");
	info->boot_s = b->resumed_at > 0 && b->booted_at > 0
			       ? b->resumed_at - b->booted_at
			       : -1;
	info->pinning = xstrdup("none: this machine");
	info->guest = xcalloc(1, sizeof(*info->guest));
	machine_info_read(info->guest);
	info->cpus = info->guest->nr_cpus;
	info->memory_mb = info->guest->mem_bytes >> 20;
	return 0;
}

static const struct executor_ops machine_ops = {
	.name = "machine",
	.run = mx_run,
	.machine = mx_machine,
	.free = mx_free,
	.boot = mx_boot,
};

/* Wait settle_s seconds, or until *stop. */
static void settle(double settle_s, const volatile sig_atomic_t *stop)
{
	struct timespec tick = {.tv_sec = 0, .tv_nsec = 100000000};

	for (double left = settle_s; left > 0 && !(stop && *stop); left -= 0.1)
		nanosleep(&tick, NULL);
}

/*
 * Put the builds of kernel k first: config_expand_kernels() made them
 * kernel by kernel, one block each; the caller then counts only those.
 */
static size_t kernel_builds_first(struct config *cfg, size_t k)
{
	size_t per = cfg->builds_nr / cfg->kernels_nr;

	for (size_t i = 0; i < per && k; i++) {
		struct build_spec t = cfg->builds[i];

		cfg->builds[i] = cfg->builds[k * per + i];
		cfg->builds[k * per + i] = t;
	}
	return per;
}

/* The index of the kernel named name in cfg, or -1 with a line in err. */
static int find_kernel(const struct config *cfg, const char *name, size_t *k,
		       struct strbuf *err)
{
	for (*k = 0; *k < cfg->kernels_nr; (*k)++)
		if (!strcmp(cfg->kernels[*k].name, name))
			return 0;
	return error_addf(err, "the campaign's config has no kernel '%s'",
			  name);
}

/*
 * A bisection's config has no kernels: each boot boots its commit's
 * image, the boot's kernel, whose runs are labelled "bisect-KERNEL". Its
 * iterations run as the config says: the search, not `until`, says how
 * many boots a commit gets.
 */
static void bisect_kernel(struct config *cfg, const struct campaign_boot *b)
{
	struct kernel_spec *ks = xcalloc(1, sizeof(*ks));

	ks->name = xstrdup(b->kernel);
	ks->image = xstrdup(b->image);
	ks->initrd = xstrdup(b->initrd);
	config_replace_kernels(cfg, ks, 1);
	cfg->until_pct = 0;
}

static int run_session(struct store *st, const struct campaign *c,
		       const struct campaign_boot *b, const struct config *cfg,
		       const struct plan *plan, const struct session_opts *so,
		       enum session_status *status, struct strbuf *err)
{
	struct strbuf finish_err = STRBUF_INIT;
	struct executor_local_opts eo = {
		.monitors = cfg->monitors,
		.interval_s = cfg->monitor_interval_s,
	};
	struct machine_executor *mx = xcalloc(1, sizeof(*mx));
	struct session *s = NULL;
	int ret = -1;

	mx->base.ops = &machine_ops;
	mx->c = c;
	mx->b = b;
	mx->local = executor_local_new(&eo, err);
	if (!mx->local)
		goto out;
	s = session_new(cfg, plan, st, so);
	ret = session_run(s, &mx->base, err);
	if (session_finish(s, &finish_err) && !ret)
		ret = error_addf(err, "%s", finish_err.buf);
	*status = session_status(s);
out:
	strbuf_release(&finish_err);
	session_free(s);
	executor_free(&mx->base);
	return ret;
}

int campaign_run_boot(struct store *st, const struct campaign *c, size_t bi,
		      const struct campaign_run_opts *o,
		      enum session_status *status, struct strbuf *err)
{
	const struct campaign_boot *b = &c->boots[bi];
	struct config cfg = CONFIG_INIT;
	struct plan plan = PLAN_INIT;
	struct strvec labels = STRVEC_INIT;
	char *const no_params[] = {NULL};
	size_t k = 0, all_builds = 0, order[1];
	int ret = -1;

	*status = SESSION_FAILED;
	if (config_load_buffer(&cfg, c->config_path, c->config_text,
			       strlen(c->config_text), err))
		goto out;
	if (c->bisect_id)
		bisect_kernel(&cfg, b);
	if (config_expand_kernels(&cfg, err) ||
	    find_kernel(&cfg, b->kernel, &k, err))
		goto out;
	all_builds = cfg.builds_nr;
	cfg.builds_nr = kernel_builds_first(&cfg, k);
	if (plan_prepare(&cfg, no_params, err) || plan_build(&plan, &cfg, err))
		goto out;
	session_labels(&cfg, plan.builds_nr, c->label, &labels);
	settle(o->settle_s, o->stop);
	order[0] = k;
	{
		struct session_opts so = {
			.labels = labels.v,
			.append = true,
			.stop = o->stop,
			.cut = o->cut,
			.path = o->path,
			.progress = o->progress,
			.warning = o->warning,
			.ctx = o->ctx,
			.boot_order = order,
			.boots_nr = 1,
			.boot_base = b->number - 1,
		};

		ret = run_session(st, c, b, &cfg, &plan, &so, status, err);
	}
out:
	if (all_builds)
		cfg.builds_nr = all_builds;
	strvec_clear(&labels);
	plan_release(&plan);
	config_release(&cfg);
	return ret;
}
