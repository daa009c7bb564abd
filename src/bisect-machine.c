/* bisect-machine: a bisection across boots of this machine. */
#include "bisect-machine.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "bisect-tree.h"
#include "campaign-machine.h"
#include "campaign.h"
#include "executor-qemu.h"
#include "sha256.h"
#include "store-campaign.h"
#include "store.h"
#include "util.h"

int bisect_machine_record(struct bisect_drive *d, struct campaign *c,
			  struct store_bisect_machine *m, struct strbuf *err)
{
	if (store_begin(d->st, err))
		return -1;
	if (bisect_drive_start(d, false, err) ||
	    store_campaign_add(d->st, c, err)) {
		store_rollback(d->st);
		return -1;
	}
	m->bisect_id = d->bisect_id;
	m->campaign_id = c->id;
	if (store_bisect_machine_add(d->st, m, err)) {
		store_rollback(d->st);
		return -1;
	}
	return store_commit(d->st, err);
}

int bisect_machine_open(struct bisect_machine *bm, struct store *st,
			struct campaign *c, const struct bisect_drive_out *out,
			struct strbuf *err)
{
	struct bisect_drive *d = &bm->d;
	char hash[65];

	memset(bm, 0, sizeof(*bm));
	d->rule = (struct bisect_rule)BISECT_RULE_INIT;
	strvec_init(&d->commits);
	bm->c = c;
	if (store_bisect_get(st, c->bisect_id, &bm->b, err) ||
	    store_bisect_machine_get(st, c->id, &bm->m, err))
		return -1;
	if (!bm->b.id || !bm->m.bisect_id)
		return error_addf(err,
				  "campaign %" PRId64 "'s bisection %" PRId64
				  " is not in the database",
				  c->id, c->bisect_id);
	d->config_path = c->config_path;
	d->config_text = c->config_text;
	d->repo = bm->b.repo;
	d->build = bm->m.build;
	d->image = bm->m.image;
	d->initrd = bm->m.initrd;
	d->append = bm->m.append;
	d->operation = bm->b.operation;
	d->out = *out;
	d->rule.alpha = bm->b.alpha;
	d->rule.margin_pct = bm->m.margin_pct;
	d->rule.rounds = (size_t)bm->m.rounds;
	d->rule.max_batches = (size_t)bm->m.max_batches;
	if (bisect_drive_open(d, bm->m.workdir, err) ||
	    bisect_tree_commits(d->repo, bm->b.good, bm->b.bad, &d->commits,
				err))
		return -1;
	sha256_hex(d->cfg.text, d->cfg.text_len, hash);
	if (strcmp(hash, bm->b.config_hash))
		return error_addf(err,
				  "campaign %" PRId64 " keeps a config other "
				  "than bisection %" PRId64 "'s",
				  c->id, bm->b.id);
	d->st = st;
	d->bisect_id = bm->b.id;
	return 0;
}

void bisect_machine_close(struct bisect_machine *bm)
{
	bm->d.st = NULL;
	bisect_drive_close(&bm->d);
	store_bisect_release(&bm->b);
	store_bisect_machine_release(&bm->m);
}

/*
 * The search run again: the drive's builds, the batches given back from
 * the campaign's boots, the log lines already stored passed over.
 */
struct replay {
	struct bisect_machine *bm;
	struct bisect_ops drive; /* the drive's own hooks */
	struct store_bisect_step *stored;
	size_t stored_nr, seen;
	size_t next; /* the campaign's boot where the next batch starts */
	struct strbuf note; /* of the boots since the last log line */
	size_t want[4], want_nr, want_rounds; /* the batch asked for */
};

static int r_build(void *ctx, size_t i, char hash[65], struct strbuf *err)
{
	struct replay *r = ctx;

	return r->drive.build(r->drive.ctx, i, hash, err);
}

static int r_logged(void *ctx, const struct bisect_entry *e, struct strbuf *err)
{
	struct replay *r = ctx;
	struct bisect_drive *d = &r->bm->d;
	int ret;

	if (r->seen < r->stored_nr) {
		const struct store_bisect_step *s = &r->stored[r->seen++];

		strbuf_reset(&r->note);
		if (strcmp(s->kind, bisect_kind_name(e->kind)) ||
		    strcmp(s->commit, d->commits.v[e->commit]) ||
		    strcmp(s->verdict, bisect_verdict_name(e->verdict)))
			return error_addf(err,
					  "bisection %" PRId64 " taken up "
					  "again decides otherwise than its "
					  "log at step %" PRId64,
					  d->bisect_id, s->step);
		return 0;
	}
	d->note = r->note.len ? r->note.buf : NULL;
	ret = r->drive.logged(r->drive.ctx, e, err);
	d->note = NULL;
	strbuf_reset(&r->note);
	return ret;
}

/* Boot b gave no unit value: say why in the note. */
static void note_boot(struct replay *r, const struct campaign_boot *b,
		      const char *what)
{
	strbuf_addf(&r->note, "%sboot %ld (%s) %s", r->note.len ? "; " : "",
		    b->number, b->kernel, what);
	if (b->why)
		strbuf_addf(&r->note, ": %s", b->why);
}

/* The unit value of done boot b, of slot s, into vals[s]. */
static int boot_value(struct replay *r, const struct campaign_boot *b,
		      struct bisect_values *vals, struct strbuf *err)
{
	struct bisect_drive *d = &r->bm->d;
	int64_t run = 0;
	size_t before = vals->nr;

	if (store_campaign_boot_run(d->st, b, &run, err) ||
	    (run && bisect_drive_collect(d, run, vals, err)))
		return -1;
	if (vals->nr == before)
		note_boot(r, b, "gave no value of the rows");
	return 0;
}

static int r_measure(void *ctx, const size_t *slots, size_t slots_nr,
		     size_t rounds, struct bisect_values *vals,
		     struct strbuf *err)
{
	struct replay *r = ctx;
	struct bisect_drive *d = &r->bm->d;
	const struct campaign *c = r->bm->c;
	size_t size = slots_nr * rounds, *order;
	int ret = 0;

	if (r->next + size > c->boots_nr) {
		if (r->next != c->boots_nr)
			return error_addf(
				err,
				"campaign %" PRId64 "'s boots end "
				"inside a batch of bisection %" PRId64,
				c->id, d->bisect_id);
		memcpy(r->want, slots, slots_nr * sizeof(*slots));
		r->want_nr = slots_nr;
		r->want_rounds = rounds;
		return 1;
	}
	order = xcalloc(size, sizeof(*order));
	campaign_schedule(slots_nr, (int)rounds, order);
	for (size_t i = 0; !ret && i < size; i++) {
		const struct campaign_boot *b = &c->boots[r->next + i];
		size_t s = order[i];

		if (strncmp(b->kernel, d->commits.v[slots[s]], 12))
			ret = error_addf(err,
					 "boot %ld of campaign %" PRId64
					 " booted %s, not %.12s as bisection "
					 "%" PRId64 " asks taken up again",
					 b->number, c->id, b->kernel,
					 d->commits.v[slots[s]], d->bisect_id);
		else if (b->state == CAMPAIGN_BOOT_DONE)
			ret = boot_value(r, b, &vals[s], err);
		else if (b->state == CAMPAIGN_BOOT_FAILED ||
			 b->state == CAMPAIGN_BOOT_INTERRUPTED)
			note_boot(r, b, campaign_boot_state_name(b->state));
		else
			ret = error_addf(err, "boot %ld is not over yet",
					 b->number);
	}
	r->next += size;
	free(order);
	return ret;
}

/* A boot of commit: its kernel, image and initrd in its build directory. */
static int batch_boot(struct bisect_machine *bm, const char *commit,
		      struct campaign_boot *b, struct strbuf *err)
{
	char *dir = bisect_tree_dir(bm->d.workdir, commit);
	struct strbuf path = STRBUF_INIT;
	int ret = -1;

	b->kernel = xstrndup(commit, 12);
	strbuf_addf(&path, "%s/%s", dir, bm->d.image);
	b->image = strbuf_detach(&path, NULL);
	if (bm->d.initrd) {
		strbuf_addf(&path, "%s/%s", dir, bm->d.initrd);
		b->initrd = strbuf_detach(&path, NULL);
	}
	b->append = xstrdup(bm->d.append);
	b->image_sha256 = campaign_file_sha256(b->image, err);
	if (b->image_sha256 &&
	    !qemu_image_release(b->image, &b->image_release, err))
		ret = 0;
	free(dir);
	return ret;
}

/* Append the boots of the batch r asked for to the campaign. */
static int append_batch(struct replay *r, bool *conflict, struct strbuf *err)
{
	struct bisect_machine *bm = r->bm;
	struct campaign *c = bm->c;
	size_t from = c->boots_nr, size = r->want_nr * r->want_rounds;
	size_t *order = xcalloc(size, sizeof(*order));
	int ret = 0;

	campaign_schedule(r->want_nr, (int)r->want_rounds, order);
	for (size_t i = 0; !ret && i < size; i++) {
		struct campaign_boot *b;

		ALLOC_GROW(c->boots, c->boots_nr + 1, c->boots_alloc);
		b = &c->boots[c->boots_nr++];
		memset(b, 0, sizeof(*b));
		b->number = (long)(from + i + 1);
		ret = batch_boot(bm, bm->d.commits.v[r->want[order[i]]], b,
				 err);
	}
	free(order);
	if (ret)
		return -1;
	return store_campaign_add_boots(bm->d.st, c, from, conflict, err);
}

/* Hold the lock of the build directory (closed when fd is). */
static int lock_builds(const char *workdir, int *fd, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	int ret = 0;

	strbuf_addf(&path, "%s/.lock", workdir);
	*fd = open(path.buf, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (*fd < 0 || flock(*fd, LOCK_EX))
		ret = error_addf(err, "cannot lock '%s': %s", path.buf,
				 strerror(errno));
	strbuf_release(&path);
	return ret;
}

static int run_again(struct replay *r, struct bisect_result *res,
		     enum bisect_machine_step *step, struct strbuf *err)
{
	struct bisect_drive *d = &r->bm->d;
	struct bisect_ops ops = {r_build, r_measure, r_logged, r};
	struct strbuf inner = STRBUF_INIT;
	bool conflict = false;
	int ret;

	bisect_drive_ops(d, &r->drive);
	d->steps = r->stored_nr;
	ret = bisect_run(d->commits.nr, &d->rule, &ops, res, &inner);
	if (ret < 0) {
		error_addf(err, "%s", inner.buf);
	} else if (ret == 0) {
		*step = BISECT_MACHINE_OVER;
		ret = store_bisect_finish(d->st, d->bisect_id,
					  bisect_outcome_name(res->outcome),
					  res->outcome <= BISECT_AMBIGUOUS
						  ? d->commits.v[res->culprit]
						  : NULL,
					  err);
	} else {
		ret = append_batch(r, &conflict, err);
		*step = conflict ? BISECT_MACHINE_CHANGED
				 : BISECT_MACHINE_BATCH;
	}
	strbuf_release(&inner);
	return ret;
}

int bisect_machine_next(struct bisect_machine *bm, struct bisect_result *res,
			enum bisect_machine_step *step, struct strbuf *err)
{
	struct replay r = {.bm = bm, .note = STRBUF_INIT};
	int fd = -1, ret = -1;

	*step = BISECT_MACHINE_CHANGED;
	if (lock_builds(bm->d.workdir, &fd, err) ||
	    store_bisect_steps(bm->d.st, bm->d.bisect_id, &r.stored,
			       &r.stored_nr, err))
		goto out;
	ret = run_again(&r, res, step, err);
out:
	for (size_t i = 0; i < r.stored_nr; i++)
		store_bisect_step_release(&r.stored[i]);
	free(r.stored);
	strbuf_release(&r.note);
	if (fd >= 0)
		close(fd);
	return ret;
}
