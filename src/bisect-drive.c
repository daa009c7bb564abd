/* bisect-drive: the builds and batches of mmcmp bisect and bisect-step. */
#include "bisect-drive.h"

#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bisect-tree.h"
#include "executor-qemu.h"
#include "executor.h"
#include "plan.h"
#include "run-data.h"
#include "runner.h"
#include "session-check.h"
#include "session.h"
#include "sha256.h"
#include "store-bisect.h"
#include "store.h"
#include "util.h"

/* The runs' warnings given to out.warning; of the rest, only their number. */
#define DRIVE_WARNINGS 3

char *bisect_drive_label(const char *commit)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "bisect-%.12s", commit);
	return strbuf_detach(&sb, NULL);
}

/* The rows the glob names: at least one, all of one direction. */
static int check_rows(struct bisect_drive *d, struct strbuf *err)
{
	struct plan plan = PLAN_INIT;
	size_t nr = 0, higher = 0;
	int ret = -1;

	if (plan_prepare(&d->cfg, NULL, err) || plan_build(&plan, &d->cfg, err))
		goto out;
	for (size_t j = 0; j < plan.nr; j++)
		for (size_t m = 0; m < plan.jobs[j].wl->metrics_nr; m++) {
			if (fnmatch(d->operation, plan.jobs[j].ops[m], 0))
				continue;
			nr++;
			higher += plan.jobs[j].wl->metrics[m].higher_better;
		}
	if (!nr) {
		error_addf(err, "--operation '%s' names no row of '%s'",
			   d->operation, d->config_path);
		goto out;
	}
	if (higher && higher != nr) {
		error_addf(
			err,
			"--operation '%s' names rows where higher is better and rows where lower is",
			d->operation);
		goto out;
	}
	d->rule.higher_better = higher;
	ret = 0;
out:
	plan_release(&plan);
	return ret;
}

/* GIT_DIR/mmcmp-bisect of the repository, or workdir; made, absolute. */
static int make_workdir(struct bisect_drive *d, const char *workdir,
			struct strbuf *err)
{
	char *const argv[] = {(char *)"git",
			      (char *)"-C",
			      (char *)d->repo,
			      (char *)"rev-parse",
			      (char *)"--absolute-git-dir",
			      NULL};
	struct runner_opts opts = {.argv = argv};
	struct runner_result res = RUNNER_RESULT_INIT;
	struct strbuf path = STRBUF_INIT;
	char real[PATH_MAX];
	int ret = -1;

	if (workdir) {
		strbuf_addstr(&path, workdir);
	} else {
		if (runner_run(&opts, &res, err))
			goto out;
		if (res.status != RUNNER_OK) {
			d->usage = true;
			error_addf(err, "'%s' is not a git repository",
				   d->repo);
			goto out;
		}
		strbuf_rtrim(&res.out);
		strbuf_addf(&path, "%s/mmcmp-bisect", res.out.buf);
	}
	if (mkdir(path.buf, 0777) && errno != EEXIST) {
		error_addf(err, "cannot make '%s': %s", path.buf,
			   strerror(errno));
		goto out;
	}
	if (!realpath(path.buf, real)) {
		error_addf(err, "cannot find '%s': %s", path.buf,
			   strerror(errno));
		goto out;
	}
	d->workdir = xstrdup(real);
	ret = 0;
out:
	runner_result_release(&res);
	strbuf_release(&path);
	return ret;
}

/*
 * A config with vm: bisects kernels: what config_expand_kernels() refuses
 * (settings, cgroups) is refused now, one kernel standing for the commits'.
 */
static int check_kernels(struct bisect_drive *d, struct strbuf *err)
{
	struct kernel_spec *ks = xcalloc(1, sizeof(*ks));
	int ret;

	ks->name = xstrdup("commit");
	ks->image = xstrdup(d->image);
	config_replace_kernels(&d->cfg, ks, 1);
	ret = config_expand_kernels(&d->cfg, err);
	config_replace_builds(&d->cfg, NULL, 0);
	config_replace_kernels(&d->cfg, NULL, 0);
	return ret;
}

int bisect_drive_open(struct bisect_drive *d, const char *workdir,
		      struct strbuf *err)
{
	struct strbuf qemu = STRBUF_INIT;
	int r;

	d->usage = true;
	if (d->config_text ? config_load_buffer(&d->cfg, d->config_path,
						d->config_text,
						strlen(d->config_text), err)
			   : config_load_file(&d->cfg, d->config_path, err))
		return -1;
	if (d->cfg.builds_nr || d->cfg.kernels_nr)
		return error_addf(
			err,
			"'%s' has %s of its own; bisect makes a build per commit",
			d->config_path,
			d->cfg.builds_nr ? "builds:" : "kernels:");
	d->machine = d->cfg.machine.set;
	d->kernels = d->cfg.vm.set || d->machine;
	if (d->append && !d->kernels)
		return error_addf(
			err,
			"--append is for kernels, and '%s' has no vm: or machine: to boot them in",
			d->config_path);
	if (d->initrd && !d->machine)
		return error_addf(
			err,
			"--initrd is for kernels booted on this machine, and '%s' has no machine:",
			d->config_path);
	if (d->machine && d->cfg.machine.method != CONFIG_MACHINE_KEXEC)
		return error_addf(
			err,
			"'%s': bisect boots the commits' kernels by kexec (machine: method kexec): method reboot needs a boot loader entry per kernel, which a commit's build does not make",
			d->config_path);
	if ((d->kernels && check_kernels(d, err)) || check_rows(d, err) ||
	    make_workdir(d, workdir, err))
		return -1;
	d->usage = false;
	d->workload_path = session_workload_path();
	if (!d->cfg.vm.set)
		return 0;
	r = runner_find_program("qemu-system-x86_64", getenv("PATH"), NULL,
				&qemu);
	strbuf_release(&qemu);
	if (r)
		return error_addf(
			err,
			"program 'qemu-system-x86_64' is not installed; install the Debian package 'qemu-system-x86' (apt-get install qemu-system-x86)");
	return 0;
}

size_t bisect_drive_warnings_left(const struct bisect_drive *d)
{
	return d->warnings > DRIVE_WARNINGS ? d->warnings - DRIVE_WARNINGS : 0;
}

void bisect_drive_close(struct bisect_drive *d)
{
	store_close(d->st);
	config_release(&d->cfg);
	strvec_clear(&d->commits);
	free(d->workload_path);
	free(d->workdir);
}

/*
 * With an initrd, what boots is the image and the initrd together: hash
 * becomes the SHA-256 of the image's hash and the initrd's, so that
 * commits are the same only when both are the same bytes. 1 when the
 * build made no initrd.
 */
static int initrd_hash(const char *dir, const char *initrd, char hash[65],
		       struct strbuf *why)
{
	struct strbuf path = STRBUF_INIT, bytes = STRBUF_INIT,
		      ignored = STRBUF_INIT;
	char both[2 * 64 + 1];
	int r = 0;

	strbuf_addf(&path, "%s/%s", dir, initrd);
	if (strbuf_read_file(&bytes, path.buf, &ignored)) {
		strbuf_addf(why, "the build made no '%s'", initrd);
		r = 1;
	} else {
		memcpy(both, hash, 64);
		sha256_hex(bytes.buf, bytes.len, both + 64);
		sha256_hex(both, 128, hash);
	}
	strbuf_release(&path);
	strbuf_release(&bytes);
	strbuf_release(&ignored);
	return r;
}

static int drive_build(void *ctx, size_t i, char hash[65], struct strbuf *err)
{
	struct bisect_drive *d = ctx;
	struct strbuf why = STRBUF_INIT;
	int r = bisect_tree_build(d->repo, d->commits.v[i], d->workdir,
				  d->build, d->image, hash, &why, err);

	/* A kernel that is no bzImage would fail every boot: not built. */
	if (!r && d->kernels) {
		char *dir = bisect_tree_dir(d->workdir, d->commits.v[i]);
		struct strbuf path = STRBUF_INIT;
		char *release = NULL;

		strbuf_addf(&path, "%s/%s", dir, d->image);
		if (qemu_image_release(path.buf, &release, &why)) {
			strbuf_rtrim(&why);
			r = 1;
		}
		if (!r && d->initrd)
			r = initrd_hash(dir, d->initrd, hash, &why);
		free(release);
		free(dir);
		strbuf_release(&path);
	}
	if (r > 0 && d->out.note) {
		struct strbuf line = STRBUF_INIT;

		strbuf_addf(&line, "bisect: %.12s does not build: %s",
			    d->commits.v[i], why.buf);
		d->out.note(d->out.ctx, line.buf);
		strbuf_release(&line);
	}
	strbuf_release(&why);
	return r;
}

/*
 * The unit value of op from sample i on: the mean of the samples of i's
 * iteration, or with kernels the mean of those means over the iterations
 * of i's boot that come in a row; *end the sample after them.
 */
static double unit_mean(const struct bisect_drive *d,
			const struct op_samples *op, size_t i, size_t *end)
{
	int64_t boot = d->kernels ? op_samples_key(op, OP_KEY_BOOT, i) : 0;
	double sum = 0;
	size_t its = 0, j = i;

	do {
		size_t e = op_samples_iteration_end(op, j);
		double s = 0;

		for (size_t m = j; m < e; m++)
			s += op->v[m];
		sum += s / (double)(e - j);
		its++;
		j = e;
	} while (d->kernels && j < op->nr &&
		 op_samples_key(op, OP_KEY_BOOT, j) == boot);
	*end = j;
	return sum / (double)its;
}

/*
 * The unit values of run id: per chosen row the mean of each iteration's
 * samples (with kernels: each boot's mean of those), in order; the k-th unit
 * the geometric mean over the rows of their k-th (the arithmetic one when a
 * value is <= 0).
 */
int bisect_drive_collect(struct bisect_drive *d, int64_t id,
			 struct bisect_values *out, struct strbuf *err)
{
	struct run_data rd = {0};
	double *logs = NULL, *sum = NULL;
	size_t units = SIZE_MAX, rows = 0;
	bool plain = false;
	int ret = -1;

	if (store_load_run_ok(d->st, id, NULL, &rd, err))
		return -1;
	for (size_t o = 0; o < rd.ops_nr; o++) {
		const struct op_samples *op = &rd.ops[o];
		size_t k = 0;

		if (fnmatch(d->operation, op->name, 0))
			continue;
		if (!sum) {
			logs = xcalloc(op->nr + 1, sizeof(*logs));
			sum = xcalloc(op->nr + 1, sizeof(*sum));
		}
		if (d->kernels && !op_samples_has(op, OP_KEY_BOOT)) {
			error_addf(
				err,
				"run %" PRId64
				" has iterations of no boot; bisect's units are boots",
				id);
			goto out;
		}
		for (size_t i = 0, j; i < op->nr; k++) {
			double s = unit_mean(d, op, i, &j);

			i = j;
			if (k >= units)
				continue;
			plain |= !(s > 0);
			logs[k] += log(s);
			sum[k] += s;
		}
		units = k < units ? k : units;
		rows++;
	}
	for (size_t k = 0; rows && k < units; k++)
		bisect_values_add(out, plain ? sum[k] / (double)rows
					     : exp(logs[k] / (double)rows));
	ret = 0;
out:
	free(logs);
	free(sum);
	run_data_release(&rd);
	return ret;
}

/* The name of slot s's build or kernel: cCOMMIT, -2 on for a repeat. */
static char *slot_name(const struct bisect_drive *d, const size_t *slots,
		       size_t s)
{
	struct strbuf name = STRBUF_INIT;
	size_t before = 0;

	for (size_t t = 0; t < s; t++)
		before += slots[t] == slots[s];
	strbuf_addf(&name, "c%.12s", d->commits.v[slots[s]]);
	if (before)
		strbuf_addf(&name, "-%zu", before + 1);
	return strbuf_detach(&name, NULL);
}

/*
 * The builds of one batch: one per slot, in its commit's directory, or
 * with kernels one kernel per slot, its commit's image, rounds boots
 * each.
 */
static int batch_builds(struct bisect_drive *d, const size_t *slots, size_t nr,
			size_t rounds, struct strvec *labels,
			struct strbuf *err)
{
	struct build_spec *builds = NULL;
	struct kernel_spec *kernels = NULL;

	if (d->kernels)
		kernels = xcalloc(nr, sizeof(*kernels));
	else
		builds = xcalloc(nr, sizeof(*builds));
	for (size_t s = 0; s < nr; s++) {
		const char *commit = d->commits.v[slots[s]];
		char *dir = bisect_tree_dir(d->workdir, commit);
		struct strbuf image = STRBUF_INIT;

		strvec_push_nodup(labels, bisect_drive_label(commit));
		if (!d->kernels) {
			builds[s].name = slot_name(d, slots, s);
			builds[s].cwd = dir;
			strvec_init(&builds[s].prefix);
			continue;
		}
		strbuf_addf(&image, "%s/%s", dir, d->image);
		kernels[s].name = slot_name(d, slots, s);
		kernels[s].image = strbuf_detach(&image, NULL);
		kernels[s].append = d->append ? xstrdup(d->append) : NULL;
		free(dir);
	}
	/* A batch is its rounds: the rule, not `until`, says when to stop. */
	d->cfg.until_pct = 0;
	d->cfg.interleave = true;
	if (!d->kernels) {
		config_replace_builds(&d->cfg, builds, nr);
		return 0;
	}
	d->cfg.vm.boots = (int)rounds;
	d->cfg.vm.interleave = true;
	config_replace_builds(&d->cfg, NULL, 0);
	config_replace_kernels(&d->cfg, kernels, nr);
	return config_expand_kernels(&d->cfg, err);
}

/* The runs' warnings: the first few, then only how many (at the end). */

static void drive_warning(void *ctx, const char *msg)
{
	struct bisect_drive *d = ctx;

	if (d->warnings++ < DRIVE_WARNINGS && d->out.warning)
		d->out.warning(d->out.ctx, msg);
}

static int drive_measure(void *ctx, const size_t *slots, size_t slots_nr,
			 size_t rounds, struct bisect_values *vals,
			 struct strbuf *err)
{
	struct bisect_drive *d = ctx;
	struct strvec labels = STRVEC_INIT;
	struct plan plan = PLAN_INIT;
	struct session *s = NULL;
	struct executor *ex = NULL;
	struct session_opts so = {
		.iterations = d->kernels ? 0 : (int)rounds,
		.append = true,
		.stop = d->stop,
		.cut = d->cut,
		.path = d->workload_path,
		.warning = drive_warning,
		.ctx = d,
	};
	size_t *order = NULL;
	int ret = -1;

	if (batch_builds(d, slots, slots_nr, rounds, &labels, err))
		goto out;
	so.labels = labels.v;
	if (d->kernels) {
		so.boots_nr = slots_nr * rounds;
		order = xcalloc(so.boots_nr, sizeof(*order));
		config_boot_order(&d->cfg.vm, slots_nr, order);
		so.boot_order = order;
	}
	if (plan_build(&plan, &d->cfg, err) ||
	    session_check_programs(&d->cfg, &plan, d->workload_path, err))
		goto out;
	s = session_new(&d->cfg, &plan, d->st, &so);
	ex = executor_new(&d->cfg, &plan, d->workload_path, err);
	if (!ex)
		goto out;
	ret = session_run(s, ex, err);
	if (session_finish(s, ret ? NULL : err))
		ret = -1;
	if (!ret && session_status(s) == SESSION_INTERRUPTED)
		ret = error_addf(err, "interrupted");
	for (size_t b = 0; !ret && b < slots_nr; b++)
		ret = bisect_drive_collect(d, session_summary(s, b)->id,
					   &vals[b], err);
out:
	session_free(s);
	executor_free(ex);
	plan_release(&plan);
	strvec_clear(&labels);
	free(order);
	return ret;
}

static const char *commit_of(const struct bisect_drive *d, long i)
{
	return i >= 0 ? d->commits.v[i] : NULL;
}

void bisect_drive_format_header(struct strbuf *out)
{
	strbuf_addf(out, "%-4s %-14s %-12s %-7s %6s %9s %5s %9s", "step",
		    "kind", "commit", "verdict", "units", "p", "pos", "alpha");
}

void bisect_drive_header(const struct bisect_drive *d)
{
	struct strbuf line = STRBUF_INIT;

	if (!d->out.log)
		return;
	bisect_drive_format_header(&line);
	d->out.log(d->out.ctx, line.buf);
	strbuf_release(&line);
}

void bisect_drive_format_step(const struct store_bisect_step *row,
			      struct strbuf *out)
{
	strbuf_addf(out, "%-4" PRId64 " %-14s %-12.12s %-7s %6" PRId64 " ",
		    row->step, row->kind, row->commit, row->verdict,
		    row->units);
	if (row->units)
		strbuf_addf(out, "%9.2g %5.2f %9.2g", row->p, row->pos,
			    row->alpha);
	else if (row->same_as)
		strbuf_addf(out, "same binary as %.12s", row->same_as);
	if (row->note)
		strbuf_addf(out, "\n     %s", row->note);
}

static int drive_logged(void *ctx, const struct bisect_entry *e,
			struct strbuf *err)
{
	struct bisect_drive *d = ctx;
	struct store_bisect_step row = {
		.kind = (char *)bisect_kind_name(e->kind),
		.commit = d->commits.v[e->commit],
		.verdict = (char *)bisect_verdict_name(e->verdict),
		.units = (int64_t)e->units,
		.p = e->units ? e->p : NAN,
		.pos = e->units ? e->pos : NAN,
		.alpha = e->alpha,
		.image_sha256 = e->hash[0] ? (char *)e->hash : NULL,
		.same_as = (char *)commit_of(d, e->same_as),
		.note = (char *)d->note,
	};

	if (d->out.log) {
		struct strbuf line = STRBUF_INIT;

		row.step = (int64_t)d->steps;
		bisect_drive_format_step(&row, &line);
		for (char *p = line.buf, *nl; p; p = nl ? nl + 1 : NULL) {
			nl = strchr(p, '\n');
			if (nl)
				*nl = '\0';
			d->out.log(d->out.ctx, p);
		}
		strbuf_release(&line);
	}
	d->steps++;
	return d->bisect_id
		       ? store_bisect_add_step(d->st, d->bisect_id, &row, err)
		       : 0;
}

void bisect_drive_ops(struct bisect_drive *d, struct bisect_ops *ops)
{
	*ops = (struct bisect_ops){
		.build = drive_build,
		.measure = drive_measure,
		.logged = drive_logged,
		.ctx = d,
	};
}

int bisect_drive_start(struct bisect_drive *d, bool resume, struct strbuf *err)
{
	char hash[65];
	char *repo = realpath(d->repo, NULL);
	struct store_bisect b = {
		.repo = repo ? repo : (char *)d->repo,
		.good = d->commits.v[0],
		.bad = d->commits.v[d->commits.nr - 1],
		.operation = (char *)d->operation,
		.config_hash = hash,
		.alpha = d->rule.alpha,
	};
	int ret = 0;

	sha256_hex(d->cfg.text, d->cfg.text_len, hash);
	d->bisect_id = 0;
	if (resume)
		ret = store_bisect_find_open(d->st, &b, &d->bisect_id, err);
	if (!ret && !d->bisect_id)
		ret = store_bisect_create(d->st, &b, &d->bisect_id, err);
	free(repo);
	return ret;
}

void bisect_drive_say_ends(const struct bisect_drive *d,
			   const struct bisect_look *ends, struct strbuf *say)
{
	if (!ends) {
		strbuf_addf(
			say,
			"no regression between the ends: both build the same '%s'\n",
			d->image);
		return;
	}
	strbuf_addf(
		say,
		"no regression between the ends: the bad end is %+.2f%% against the good (one-sided p %.2g); the ends show a change of %.2f%% at most%s\n",
		ends->change_pct, ends->p, ends->mde_pct,
		d->rule.margin_pct > 0 ? ", or it is under the margin" : "");
}
