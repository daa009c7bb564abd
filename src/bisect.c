/* bisect: the search for the commit that moved a metric, and its rule. */
#include "bisect.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "strbuf.h"
#include "util.h"

const char *bisect_verdict_name(enum bisect_verdict v)
{
	switch (v) {
	case BISECT_GOOD:
		return "good";
	case BISECT_BAD:
		return "bad";
	case BISECT_UNSURE:
		return "unsure";
	case BISECT_SKIP:
		return "skip";
	case BISECT_UNKNOWN:
		break;
	}
	return "unknown";
}

const char *bisect_kind_name(enum bisect_kind k)
{
	switch (k) {
	case BISECT_ENDS:
		return "ends";
	case BISECT_STEP:
		return "step";
	case BISECT_PARENT:
		return "verify-parent";
	case BISECT_CULPRIT:
		return "verify-culprit";
	}
	return "step";
}

const char *bisect_outcome_name(enum bisect_outcome o)
{
	switch (o) {
	case BISECT_FOUND:
		return "found";
	case BISECT_UNVERIFIED:
		return "unverified";
	case BISECT_AMBIGUOUS:
		return "ambiguous";
	case BISECT_NO_REGRESSION:
		return "no-regression";
	case BISECT_SAME_ENDS:
		return "same-ends";
	}
	return "unknown";
}

enum bisect_outcome bisect_verified(enum bisect_verdict parent,
				    enum bisect_verdict culprit)
{
	return parent == BISECT_GOOD && culprit == BISECT_BAD
		       ? BISECT_FOUND
		       : BISECT_UNVERIFIED;
}

void bisect_values_add(struct bisect_values *vals, double x)
{
	ALLOC_GROW(vals->v, vals->nr + 1, vals->alloc);
	vals->v[vals->nr++] = x;
}

/* Mean and sample variance of the badness of x (see struct bisect_look). */
struct side {
	double mean, var;
	size_t n;
};

static bool all_positive(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(x[i] > 0) || !isfinite(x[i]))
			return false;
	return true;
}

static void side_of(const double *x, size_t n, bool use_log, bool higher_better,
		    struct side *s)
{
	double sum = 0, ss = 0;

	s->n = n;
	for (size_t i = 0; i < n; i++) {
		double y = use_log ? log(x[i]) : x[i];

		sum += higher_better ? -y : y;
	}
	s->mean = n ? sum / (double)n : NAN;
	for (size_t i = 0; i < n; i++) {
		double y = use_log ? log(x[i]) : x[i];
		double d = (higher_better ? -y : y) - s->mean;

		ss += d * d;
	}
	s->var = n > 1 ? ss / (double)(n - 1) : NAN;
}

/*
 * Welch-Satterthwaite degrees of freedom of sum w_i mean_i over the
 * sides: (sum w_i^2 v_i / n_i)^2 / sum (w_i^2 v_i / n_i)^2 / (n_i - 1).
 */
static double satterthwaite(const struct side *s, const double *w, size_t nr)
{
	double num = 0, den = 0;

	for (size_t i = 0; i < nr; i++) {
		double term = w[i] * w[i] * s[i].var / (double)s[i].n;

		num += term;
		den += term * term / (double)(s[i].n - 1);
	}
	return den > 0 ? num * num / den : INFINITY;
}

/* The change of the bad end against the good in percent, positive worse. */
static double change_pct(const struct side *a, const struct side *b,
			 bool use_log)
{
	if (use_log)
		return 100 * expm1(b->mean - a->mean);
	return a->mean ? 100 * (b->mean - a->mean) / fabs(a->mean) : NAN;
}

static void look_unsure(struct bisect_look *out)
{
	*out = (struct bisect_look){.verdict = BISECT_UNSURE,
				    .t = NAN,
				    .df = NAN,
				    .p = NAN,
				    .pos = NAN,
				    .change_pct = NAN,
				    .mde_pct = NAN};
}

/* The one-sided critical t at level alpha; the normal's for infinite df. */
static double crit(double alpha, double df)
{
	return isfinite(df) ? stats_t_isf(alpha, df)
			    : -stats_norm_quantile(alpha);
}

void bisect_classify(const double *a, size_t na, const double *c, size_t nc,
		     const double *b, size_t nb, bool higher_better,
		     double alpha_look, struct bisect_look *out)
{
	static const double w[3] = {1, 0.5, 0.5};
	bool use_log = all_positive(a, na) && all_positive(b, nb) &&
		       all_positive(c, nc);
	struct side s[3];
	double se, q;

	look_unsure(out);
	if (na < 2 || nb < 2 || nc < 2)
		return;
	side_of(c, nc, use_log, higher_better, &s[0]);
	side_of(a, na, use_log, higher_better, &s[1]);
	side_of(b, nb, use_log, higher_better, &s[2]);
	out->change_pct = change_pct(&s[1], &s[2], use_log);
	if (s[2].mean != s[1].mean)
		out->pos = (s[0].mean - s[1].mean) / (s[2].mean - s[1].mean);
	se = sqrt(s[0].var / (double)nc +
		  (s[1].var / (double)na + s[2].var / (double)nb) / 4);
	out->t = s[0].mean - (s[1].mean + s[2].mean) / 2;
	if (se > 0) {
		out->t /= se;
		out->df = satterthwaite(s, w, 3);
	} else {
		out->t = out->t > 0 ? INFINITY : out->t < 0 ? -INFINITY : 0;
		out->df = INFINITY;
	}
	out->p = isfinite(out->df) ? stats_t_sf(fabs(out->t), out->df)
				   : stats_norm_sf(fabs(out->t));
	q = crit(alpha_look, out->df);
	if (out->t > q)
		out->verdict = BISECT_BAD;
	else if (out->t < -q)
		out->verdict = BISECT_GOOD;
}

void bisect_ends(const double *a, size_t na, const double *b, size_t nb,
		 bool higher_better, double alpha_look, double margin_pct,
		 struct bisect_look *out)
{
	static const double w[2] = {1, 1};
	bool use_log = all_positive(a, na) && all_positive(b, nb);
	struct side s[2];
	double d, se, q, lim;

	look_unsure(out);
	if (na < 2 || nb < 2)
		return;
	side_of(a, na, use_log, higher_better, &s[0]);
	side_of(b, nb, use_log, higher_better, &s[1]);
	out->change_pct = change_pct(&s[0], &s[1], use_log);
	out->pos = 1;
	d = s[1].mean - s[0].mean;
	se = sqrt(s[0].var / (double)na + s[1].var / (double)nb);
	out->df = se > 0 ? satterthwaite(s, w, 2) : INFINITY;
	q = crit(alpha_look, out->df);
	/* 80% power: the change found as often, (q + z_0.8) se. */
	if (use_log)
		out->mde_pct = 100 * expm1((q + 0.8416212335729143) * se);
	else if (s[0].mean)
		out->mde_pct =
			100 * (q + 0.8416212335729143) * se / fabs(s[0].mean);
	if (se > 0) {
		out->t = d / se;
		out->p = isfinite(out->df) ? stats_t_sf(out->t, out->df)
					   : stats_norm_sf(out->t);
	} else {
		out->t = d > 0 ? INFINITY : d < 0 ? -INFINITY : 0;
		out->p = d > 0 ? 0 : 1;
	}
	if (out->t > q && out->change_pct >= margin_pct) {
		out->verdict = BISECT_BAD;
		return;
	}
	if (margin_pct <= 0 || !(se > 0))
		return;
	/* Schuirmann's one-sided test of the change against the margin. */
	lim = use_log ? log1p(margin_pct / 100)
		      : margin_pct / 100 * fabs(s[0].mean);
	if ((d - lim) / se < -q)
		out->verdict = BISECT_GOOD;
}

double bisect_share(double alpha, size_t planned, size_t k)
{
	double share = alpha / (double)(planned + 1);

	if (k < planned)
		return share;
	return ldexp(share,
		     -(int)(k - planned + 1 > 1000 ? 1000 : k - planned + 1));
}

size_t bisect_planned(size_t n)
{
	size_t steps = 0;

	while (n > 2 && ((size_t)1 << steps) < n - 1)
		steps++;
	return 1 + steps + 2;
}

void bisect_result_release(struct bisect_result *res)
{
	if (!res)
		return;
	free(res->log);
	memset(res, 0, sizeof(*res));
}

static void values_clear(struct bisect_values *vals, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(vals[i].v);
}

/*
 * Batches of the slots until the look decides or max_batches ran; the
 * look of the last batch into *look, the values measured into *units.
 */
static int sequential(const size_t *slots, size_t slots_nr, bool ends,
		      const struct bisect_rule *rule, double alpha,
		      const struct bisect_ops *ops, struct bisect_look *look,
		      size_t *units, struct strbuf *err)
{
	struct bisect_values vals[4] = {{0}};
	struct bisect_values cand = {0};
	double alpha_look = alpha / (double)rule->max_batches;
	int ret = -1;

	if (slots_nr > 4)
		BUG("%zu slots", slots_nr);
	*units = 0;
	for (size_t batch = 0; batch < rule->max_batches; batch++) {
		int r = ops->measure(ops->ctx, slots, slots_nr, rule->rounds,
				     vals, err);

		if (r) {
			ret = r > 0 ? 1 : -1;
			goto out;
		}
		if (ends) {
			bisect_ends(vals[0].v, vals[0].nr, vals[1].v,
				    vals[1].nr, rule->higher_better, alpha_look,
				    rule->margin_pct, look);
		} else {
			/* Slots A C B C: the candidate's two slots pooled. */
			cand.nr = 0;
			for (size_t i = 0; i < vals[1].nr; i++)
				bisect_values_add(&cand, vals[1].v[i]);
			for (size_t i = 0; i < vals[3].nr; i++)
				bisect_values_add(&cand, vals[3].v[i]);
			bisect_classify(vals[0].v, vals[0].nr, cand.v, cand.nr,
					vals[2].v, vals[2].nr,
					rule->higher_better, alpha_look, look);
		}
		if (look->verdict != BISECT_UNSURE && !rule->fixed_n)
			break;
	}
	for (size_t s = 0; s < slots_nr; s++)
		*units += vals[s].nr;
	ret = 0;
out:
	values_clear(vals, 4);
	free(cand.v);
	return ret;
}

int bisect_check_ends(size_t good, size_t bad, const struct bisect_rule *rule,
		      double alpha, const struct bisect_ops *ops,
		      struct bisect_entry *e, struct bisect_look *look,
		      struct strbuf *err)
{
	const size_t slots[2] = {good, bad};
	int r;

	e->kind = BISECT_ENDS;
	e->commit = bad;
	e->alpha = alpha;
	e->same_as = -1;
	r = sequential(slots, 2, true, rule, alpha, ops, look, &e->units, err);
	if (r)
		return r;
	e->verdict = look->verdict;
	e->p = look->p;
	e->pos = look->pos;
	return 0;
}

int bisect_decide(size_t good, size_t c, size_t bad,
		  const struct bisect_rule *rule, double alpha,
		  const struct bisect_ops *ops, struct bisect_entry *e,
		  struct strbuf *err)
{
	const size_t slots[4] = {good, c, bad, c};
	struct bisect_look look;
	int r;

	e->commit = c;
	e->alpha = alpha;
	e->same_as = -1;
	r = sequential(slots, 4, false, rule, alpha, ops, &look, &e->units,
		       err);
	if (r)
		return r;
	e->verdict = look.verdict;
	e->p = look.p;
	e->pos = look.pos;
	return 0;
}
