/* bisect-step: one step of git bisect run, good, bad or skip. */
#include "bisect-step.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bisect-tree.h"
#include "bisect.h"
#include "store-bisect.h"

/* The log so far: decisions made, and a verdict of the same image. */
struct step_state {
	struct store_bisect_step *steps;
	size_t nr;
	size_t decisions;
	size_t planned; /* bisect_planned() of the commits between the ends */
	bool ends_done;
};

static void state_release(struct step_state *s)
{
	for (size_t i = 0; i < s->nr; i++)
		store_bisect_step_release(&s->steps[i]);
	free(s->steps);
}

/* The line of the log of a good or bad verdict for image hash, or NULL. */
static const struct store_bisect_step *same_image(const struct step_state *s,
						  const char *hash)
{
	for (size_t i = 0; i < s->nr; i++)
		if (s->steps[i].image_sha256 &&
		    !strcmp(s->steps[i].image_sha256, hash) &&
		    strcmp(s->steps[i].kind, "ends") &&
		    (!strcmp(s->steps[i].verdict, "good") ||
		     !strcmp(s->steps[i].verdict, "bad")))
			return &s->steps[i];
	return NULL;
}

/*
 * The ends check, on the first call: 0 when the bad end is worse, 1 when
 * there is no regression (said in say), -1 on a failure.
 */
static int check_ends(struct bisect_drive *d, const struct bisect_ops *ops,
		      double share, struct strbuf *say, struct strbuf *err)
{
	struct bisect_entry e = {
		.kind = BISECT_ENDS, .commit = 2, .same_as = -1};
	struct bisect_look look;
	char good[65];

	if (ops->build(d, 0, good, err) || ops->build(d, 2, e.hash, err))
		return error_addf(err, "the ends must build");
	if (!strcmp(good, e.hash)) {
		e.verdict = BISECT_GOOD;
		e.same_as = 0;
		if (ops->logged(d, &e, err) ||
		    store_bisect_finish(d->st, d->bisect_id,
					bisect_outcome_name(BISECT_SAME_ENDS),
					NULL, err))
			return -1;
		bisect_drive_say_ends(d, NULL, say);
		return 1;
	}
	if (bisect_check_ends(0, 2, &d->rule, share, ops, &e, &look, err) ||
	    ops->logged(d, &e, err))
		return -1;
	if (e.verdict == BISECT_BAD)
		return 0;
	if (store_bisect_finish(d->st, d->bisect_id,
				bisect_outcome_name(BISECT_NO_REGRESSION), NULL,
				err))
		return -1;
	bisect_drive_say_ends(d, &look, say);
	return 1;
}

/* Whether the log says commit is good-like (a step's or a check's). */
static bool logged_good(const struct step_state *s, const char *commit)
{
	for (size_t i = 0; i < s->nr; i++)
		if (!strcmp(s->steps[i].commit, commit) &&
		    strcmp(s->steps[i].kind, "ends") &&
		    !strcmp(s->steps[i].verdict, "good"))
			return true;
	return false;
}

/*
 * The culprit git names once HEAD (commit 1) has verdict v: HEAD when it
 * is bad-like and its parent the good end or good-like in the log; a
 * bad-like commit of the log (or the bad end) whose parent is HEAD when
 * HEAD is good-like. Its parent's and its hashes into lo and hi; false
 * when the search goes on.
 */
static bool git_culprit(const struct bisect_drive *d,
			const struct step_state *s, enum bisect_verdict v,
			char lo[41], char hi[41])
{
	struct strbuf rev = STRBUF_INIT, err = STRBUF_INIT;
	bool found = false;

	if (v == BISECT_BAD) {
		found = !bisect_tree_resolve(d->repo, "HEAD^", lo, &err) &&
			(!strcmp(lo, d->commits.v[0]) || logged_good(s, lo));
		memcpy(hi, d->commits.v[1], 41);
	}
	for (size_t i = 0; v == BISECT_GOOD && i <= s->nr && !found; i++) {
		const char *c =
			i < s->nr ? s->steps[i].commit : d->commits.v[2];
		char parent[41];

		if (i < s->nr && (strcmp(s->steps[i].kind, "step") ||
				  strcmp(s->steps[i].verdict, "bad")))
			continue;
		strbuf_reset(&rev);
		strbuf_addf(&rev, "%s^", c);
		if (bisect_tree_resolve(d->repo, rev.buf, parent, &err) ||
		    strcmp(parent, d->commits.v[1]))
			continue;
		memcpy(lo, parent, 41);
		memcpy(hi, c, 41);
		found = true;
	}
	strbuf_release(&rev);
	strbuf_release(&err);
	return found;
}

/*
 * Verify the culprit hi git is about to name, as mmcmp bisect does: its
 * parent lo good-like and itself bad-like once more, with fresh units.
 * 0 when both hold, 1 when not (git must stop), -1 on a failure.
 */
static int verify(struct bisect_drive *d, const struct bisect_ops *ops,
		  struct step_state *s, const char *lo, const char *hi,
		  struct strbuf *say, struct strbuf *err)
{
	enum bisect_verdict got[2];
	enum bisect_outcome o;

	for (int k = 0; k < 2; k++) {
		struct bisect_entry e = {.kind = k ? BISECT_CULPRIT
						   : BISECT_PARENT,
					 .commit = d->commits.nr,
					 .same_as = -1};

		strvec_push(&d->commits, k ? hi : lo);
		if (bisect_decide(0, e.commit, 2, &d->rule,
				  bisect_share(d->rule.alpha, s->planned,
					       s->decisions),
				  ops, &e, err) ||
		    ops->logged(d, &e, err))
			return -1;
		s->decisions++;
		got[k] = e.verdict;
	}
	o = bisect_verified(got[0], got[1]);
	if (o == BISECT_FOUND)
		strbuf_addf(
			say,
			"culprit %.12s verified: its parent good-like and itself bad-like with fresh units\n",
			hi);
	else
		strbuf_addf(
			say,
			"culprit %.12s not verified: with fresh units its parent is %s and itself %s; git would name it, so the search stops\n",
			hi, bisect_verdict_name(got[0]),
			bisect_verdict_name(got[1]));
	if (store_bisect_finish(d->st, d->bisect_id, bisect_outcome_name(o), hi,
				err))
		return -1;
	return o == BISECT_FOUND ? 0 : 1;
}

/* Classify commit 1 (HEAD) into *out; -1 on a failure. */
static int classify(struct bisect_drive *d, const struct bisect_ops *ops,
		    struct step_state *s, enum bisect_step_outcome *out,
		    struct strbuf *say, struct strbuf *err)
{
	struct bisect_entry e = {
		.kind = BISECT_STEP, .commit = 1, .same_as = -1};
	char good[65], bad[65];
	const struct store_bisect_step *same;
	int r = ops->build(d, 1, e.hash, err);

	if (r < 0 ||
	    (!r && (ops->build(d, 0, good, err) || ops->build(d, 2, bad, err))))
		return -1;
	if (r > 0) {
		e.verdict = BISECT_SKIP;
		e.hash[0] = '\0';
	} else if (!strcmp(e.hash, good) || !strcmp(e.hash, bad)) {
		e.verdict = strcmp(e.hash, good) ? BISECT_BAD : BISECT_GOOD;
		e.same_as = strcmp(e.hash, good) ? 2 : 0;
	} else if ((same = same_image(s, e.hash))) {
		strvec_push(&d->commits, same->commit);
		e.same_as = (long)d->commits.nr - 1;
		e.verdict = strcmp(same->verdict, "good") ? BISECT_BAD
							  : BISECT_GOOD;
	} else if (bisect_decide(0, 1, 2, &d->rule,
				 bisect_share(d->rule.alpha, s->planned,
					      s->decisions),
				 ops, &e, err)) {
		return -1;
	}
	if (ops->logged(d, &e, err))
		return -1;
	if (e.verdict == BISECT_GOOD || e.verdict == BISECT_BAD) {
		char lo[41], hi[41];
		int v;

		s->decisions += e.units > 0;
		if (git_culprit(d, s, e.verdict, lo, hi) &&
		    (v = verify(d, ops, s, lo, hi, say, err))) {
			if (v < 0)
				return -1;
			*out = BISECT_STEP_STOP;
			return 0;
		}
	}
	*out = e.verdict == BISECT_GOOD	 ? BISECT_STEP_GOOD
	       : e.verdict == BISECT_BAD ? BISECT_STEP_BAD
					 : BISECT_STEP_SKIP;
	return 0;
}

int bisect_step(struct bisect_drive *d, enum bisect_step_outcome *out,
		struct strbuf *say, struct strbuf *err)
{
	struct step_state s = {0};
	struct strvec ends = STRVEC_INIT;
	struct bisect_ops ops;
	char head[41];
	size_t n = d->commits.nr;
	int ret = -1;

	/* Commits 0, 1, 2: the good end, HEAD, the bad end. */
	s.planned = bisect_planned(n);
	if (bisect_tree_resolve(d->repo, "HEAD", head, err))
		goto out;
	strvec_push(&ends, d->commits.v[0]);
	strvec_push(&ends, head);
	strvec_push(&ends, d->commits.v[n - 1]);
	strvec_clear(&d->commits);
	d->commits = ends;
	if (bisect_drive_start(d, true, err) ||
	    store_bisect_steps(d->st, d->bisect_id, &s.steps, &s.nr, err))
		goto out;
	for (size_t i = 0; i < s.nr; i++) {
		s.decisions += s.steps[i].units > 0;
		s.ends_done |= !strcmp(s.steps[i].kind, "ends");
	}
	d->steps = s.nr;
	bisect_drive_ops(d, &ops);
	ret = s.ends_done
		      ? 0
		      : check_ends(d, &ops,
				   bisect_share(d->rule.alpha, s.planned, 0),
				   say, err);
	if (ret) {
		*out = BISECT_STEP_STOP;
		ret = ret < 0 ? -1 : 0;
		goto out;
	}
	s.decisions += !s.ends_done;
	ret = classify(d, &ops, &s, out, say, err);
	if (!ret && *out != BISECT_STEP_STOP)
		strbuf_addf(say, "%.12s: %s\n", head,
			    *out == BISECT_STEP_GOOD  ? "good-like"
			    : *out == BISECT_STEP_BAD ? "bad-like"
						      : "skip");
out:
	state_release(&s);
	return ret;
}
