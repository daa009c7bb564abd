/* bisect-search: the walk over the commits, from the ends to the culprit. */
#include "bisect.h"

#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "util.h"

struct search {
	size_t n;
	const struct bisect_rule *rule;
	const struct bisect_ops *ops;
	struct bisect_result *res;
	enum bisect_verdict *verdict; /* per commit */
	char (*hash)[65];	      /* per commit, "" until built */
	size_t planned, decisions;
};

static struct bisect_entry *add_entry(struct search *s, enum bisect_kind kind,
				      size_t commit)
{
	struct bisect_result *res = s->res;
	struct bisect_entry *e;

	ALLOC_GROW(res->log, res->log_nr + 1, res->log_alloc);
	e = &res->log[res->log_nr++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->commit = commit;
	e->same_as = -1;
	memcpy(e->hash, s->hash[commit], sizeof(e->hash));
	return e;
}

/* Hand the final entry e to the caller. */
static int logged(struct search *s, const struct bisect_entry *e,
		  struct strbuf *err)
{
	return s->ops->logged ? s->ops->logged(s->ops->ctx, e, err) : 0;
}

/* The share of the error budget of the next decision. */
static double next_share(struct search *s)
{
	return bisect_share(s->rule->alpha, s->planned, s->decisions++);
}

/* Build commit i once: 0 built, 1 it does not build, -1 failure. */
static int build(struct search *s, size_t i, struct strbuf *err)
{
	int r;

	if (s->hash[i][0])
		return 0;
	r = s->ops->build(s->ops->ctx, i, s->hash[i], err);
	if (r)
		s->hash[i][0] = '\0';
	return r;
}

/* The commit of an earlier verdict with the same binary as i, or -1. */
static long same_binary(const struct search *s, size_t i)
{
	for (size_t j = 0; j < s->n; j++)
		if (j != i && s->hash[j][0] &&
		    (s->verdict[j] == BISECT_GOOD ||
		     s->verdict[j] == BISECT_BAD) &&
		    !strcmp(s->hash[j], s->hash[i]))
			return (long)j;
	return -1;
}

/* The untried commit in (lo, hi) nearest the middle; hi when none is. */
static size_t pick(const struct search *s, size_t lo, size_t hi)
{
	size_t mid = lo + (hi - lo) / 2;

	for (size_t d = 0; d < hi - lo; d++) {
		if (mid >= d && mid - d > lo &&
		    s->verdict[mid - d] == BISECT_UNKNOWN)
			return mid - d;
		if (mid + d < hi && mid + d > lo &&
		    s->verdict[mid + d] == BISECT_UNKNOWN)
			return mid + d;
	}
	return hi;
}

/* Decide commit c as a step or a verification; its verdict to s. */
static int decide(struct search *s, enum bisect_kind kind, size_t c,
		  struct strbuf *err)
{
	struct bisect_entry *e = add_entry(s, kind, c);
	double share = next_share(s);
	int r = bisect_decide(0, c, s->n - 1, s->rule, share, s->ops, e, err);

	e->kind = kind;
	s->res->units += e->units;
	if (r) {
		/* Not measured yet: the entry is not final, so not logged. */
		s->res->log_nr -= r > 0;
		return r;
	}
	if (kind == BISECT_STEP)
		s->verdict[c] = e->verdict;
	return logged(s, e, err);
}

/* One step at candidate c: build it, take a binary's verdict or decide. */
static int step(struct search *s, size_t c, struct strbuf *err)
{
	struct bisect_entry *e;
	long same;
	int r = build(s, c, err);

	if (r < 0)
		return -1;
	if (r > 0) {
		e = add_entry(s, BISECT_STEP, c);
		e->verdict = s->verdict[c] = BISECT_SKIP;
		return logged(s, e, err);
	}
	same = same_binary(s, c);
	if (same < 0)
		return decide(s, BISECT_STEP, c, err);
	e = add_entry(s, BISECT_STEP, c);
	e->same_as = same;
	e->verdict = s->verdict[c] = s->verdict[same];
	return logged(s, e, err);
}

/* Check the ends; *go is false when the search stops there. */
static int ends(struct search *s, bool *go, struct strbuf *err)
{
	struct bisect_result *res = s->res;
	struct bisect_entry *e;
	int r;

	*go = false;
	for (size_t i = 0; i < 2; i++) {
		r = build(s, i ? s->n - 1 : 0, err);
		if (r > 0)
			return error_addf(err, "the %s end does not build",
					  i ? "bad" : "good");
		if (r)
			return -1;
	}
	e = add_entry(s, BISECT_ENDS, s->n - 1);
	if (!strcmp(s->hash[0], s->hash[s->n - 1])) {
		e->verdict = BISECT_GOOD;
		e->same_as = 0;
		res->outcome = BISECT_SAME_ENDS;
		return logged(s, e, err);
	}
	r = bisect_check_ends(0, s->n - 1, s->rule, next_share(s), s->ops, e,
			      &res->ends, err);
	if (r) {
		res->log_nr -= r > 0;
		return r;
	}
	res->units += e->units;
	if (logged(s, e, err))
		return -1;
	if (e->verdict != BISECT_BAD) {
		res->outcome = BISECT_NO_REGRESSION;
		return 0;
	}
	s->verdict[0] = BISECT_GOOD;
	s->verdict[s->n - 1] = BISECT_BAD;
	*go = true;
	return 0;
}

/* Verify the culprit hi and its parent lo with fresh units. */
static int verify(struct search *s, size_t lo, size_t hi, struct strbuf *err)
{
	struct bisect_result *res = s->res;
	int r = decide(s, BISECT_PARENT, lo, err);

	if (!r)
		r = decide(s, BISECT_CULPRIT, hi, err);
	if (r)
		return r;
	res->outcome = bisect_verified(res->log[res->log_nr - 2].verdict,
				       res->log[res->log_nr - 1].verdict);
	return 0;
}

int bisect_run(size_t n, const struct bisect_rule *rule,
	       const struct bisect_ops *ops, struct bisect_result *res,
	       struct strbuf *err)
{
	struct search s = {
		.n = n,
		.rule = rule,
		.ops = ops,
		.res = res,
		.planned = bisect_planned(n),
	};
	size_t lo = 0, hi = n - 1, c;
	bool go;
	int ret;

	if (n < 2)
		return error_addf(err, "a bisection needs two commits");
	s.verdict = xcalloc(n, sizeof(*s.verdict));
	s.hash = xcalloc(n, sizeof(*s.hash));
	ret = ends(&s, &go, err);
	if (ret)
		goto out;
	while (go && (c = pick(&s, lo, hi)) != hi) {
		ret = step(&s, c, err);
		if (ret)
			goto out;
		if (s.verdict[c] == BISECT_GOOD)
			lo = c;
		else if (s.verdict[c] == BISECT_BAD)
			hi = c;
	}
	if (go) {
		res->culprit = hi;
		res->first = lo + 1;
		if (hi - lo > 1)
			res->outcome = BISECT_AMBIGUOUS;
		else
			ret = verify(&s, lo, hi, err);
	}
out:
	free(s.verdict);
	free(s.hash);
	return ret;
}
