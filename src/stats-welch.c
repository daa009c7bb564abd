/*
 * stats-welch: compare v3's Welch test on the log scale, the exact power
 * of Welch's test and its minimum detectable effect, and outliers by the
 * generalized ESD test.
 */
#include "stats.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The root finder's relative tolerance and step limit. */
#define WELCH_ROOT_TOL	1e-10
#define WELCH_ROOT_ITER 200
/*
 * Nodes of the power integral whose log weight is this far below the
 * largest are left out (e^-24 is 4e-11 of it), at most this many.
 */
#define WELCH_LOG_CUT	24.0
#define WELCH_NODES_MAX 8192
/* grid_init() halves the step until the power moves less than this. */
#define WELCH_GRID_TOL	    5e-9
#define WELCH_GRID_HALVINGS 6
/* From this df on grid_crit() interpolates qt(). */
#define WELCH_INTERP_DF 40.0
/* stats_welch_power_n() looks for n in [2, 1e6]. */
#define WELCH_N_MAX 1e6

static void log_untested(struct stats_welch_units *out, enum stats_untested why)
{
	stats_welch_untested(out, why);
	out->log_scale = true;
}

/* Why x[0..n) cannot go on the log scale; STATS_TESTED when it can. */
static enum stats_untested log_ok(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (isnan(x[i]) || x[i] <= 0.0)
			return STATS_UNTESTED_UNDEFINED_MEAN;
		if (isinf(x[i]))
			return STATS_UNTESTED_NONFINITE;
	}
	return STATS_TESTED;
}

/* The logs of x[0..n), which the caller frees. */
static double *logs_of(const double *x, size_t n)
{
	double *y = xmalloc((n ? n : 1) * sizeof(*y));

	for (size_t i = 0; i < n; i++)
		y[i] = log(x[i]);
	return y;
}

void stats_welch_log(const double *a, size_t na, const double *b, size_t nb,
		     struct stats_welch_units *out)
{
	enum stats_untested why = log_ok(a, na);
	double *la, *lb;

	out->na = na;
	out->nb = nb;
	if (why == STATS_TESTED)
		why = log_ok(b, nb);
	if (!na || !nb)
		why = STATS_UNTESTED_NO_SAMPLES;
	else if (why == STATS_TESTED && (na < 2 || nb < 2))
		why = STATS_UNTESTED_FEW_UNITS;
	if (why != STATS_TESTED) {
		log_untested(out, why);
		return;
	}
	la = logs_of(a, na);
	lb = logs_of(b, nb);
	stats_welch_fill(la, na, lb, nb, out);
	free(la);
	free(lb);
	out->log_scale = true;
	if (out->untested == STATS_TESTED)
		out->scale = 1.0;
}

void stats_welch_pick(const double *a, size_t na, const double *b, size_t nb,
		      bool use_log, struct stats_welch_units *out)
{
	if (use_log && na && nb && log_ok(a, na) == STATS_TESTED &&
	    log_ok(b, nb) == STATS_TESTED) {
		stats_welch_log(a, na, b, nb, out);
		return;
	}
	stats_welch_units(a, na, b, nb, out);
	out->log_scale = false;
}

/*
 * The power integral of one design (docs/statistics.md, "the power of
 * Welch's test"). With a = sd_a^2 / na and b = sd_b^2 / nb scaled to
 * a + b = 1, ka = na - 1, kb = nb - 1, k = ka + kb: the share r of the
 * estimated variance of the difference that comes from side a sets the
 * test's df, 1 / (r^2 / ka + (1 - r)^2 / kb), and given r the test
 * rejects when a noncentral t with k df and ncp delta exceeds h(r) =
 * qt(1 - alpha / 2, df(r)) sqrt(k / lambda(r)), lambda(r) = r ka / a +
 * (1 - r) kb / b. r has the density r^(ka/2-1) (1-r)^(kb/2-1) (ka/a)^(ka/2)
 * (kb/b)^(kb/2) / (B(ka/2, kb/2) lambda^(k/2)); on s = log(r / (1 - r))
 * the integrand is smooth and decays exponentially, so the trapezoid
 * rule on a grid of step h converges geometrically. One side without
 * spread leaves one node: the other side's t with its own df.
 */
struct welch_grid {
	double k;     /* df of the noncentral t */
	double df;    /* the test's df at the population variances */
	double *w;    /* the weights, summing to 1 */
	double *crit; /* h(r) at each node */
	double *fac;  /* sqrt(k / lambda(r)) at each node */
	double *lw;   /* the log weight at each node, before normalizing */
	double *dfn;  /* the test's df at each node */
	/* What the noncentral t at crit[] needs whatever the ncp. */
	struct stats_nct_prep *prep;
	bool *known; /* crit[] and prep[] taken from a coarser grid */
	size_t nr, alloc;
	size_t npos; /* nodes s0 + j h, j >= 0, first; then j = -1, -2, ... */
};

static void grid_release(struct welch_grid *g)
{
	/*
	 * The shallow analyzer does not follow grid_build(), which gives a
	 * grid new arrays, and takes grid_init()'s moved grid for one freed.
	 */
	free(g->w); /* NOLINT(clang-analyzer-unix.Malloc) */
	free(g->crit);
	free(g->fac);
	free(g->lw);
	free(g->dfn);
	free(g->prep);
	free(g->known);
	memset(g, 0, sizeof(*g));
}

/*
 * log of the density of s = log(r / (1 - r)) times ds, without B(); the
 * test's df at s and the factor sqrt(k / lambda) of h(r).
 */
static double node_logw(double s, double a, double b, double ka, double kb,
			double *df, double *fac)
{
	double lr = -log1p(exp(-s)), l1r = -log1p(exp(s));
	double r = exp(lr), q = exp(l1r), k = ka + kb;
	double lambda = r * ka / a + q * kb / b;

	*df = 1.0 / (r * r / ka + q * q / kb);
	*fac = sqrt(k / lambda);
	return 0.5 * ka * (lr + log(ka / a)) + 0.5 * kb * (l1r + log(kb / b)) -
	       0.5 * k * log(lambda);
}

/* Room for one more node. */
static size_t grid_grow(struct welch_grid *g)
{
	if (g->nr == g->alloc) {
		g->alloc = g->alloc ? 2 * g->alloc : 64;
		g->w = xrealloc(g->w, g->alloc * sizeof(*g->w));
		g->crit = xrealloc(g->crit, g->alloc * sizeof(*g->crit));
		g->fac = xrealloc(g->fac, g->alloc * sizeof(*g->fac));
		g->lw = xrealloc(g->lw, g->alloc * sizeof(*g->lw));
		g->dfn = xrealloc(g->dfn, g->alloc * sizeof(*g->dfn));
		g->prep = xrealloc(g->prep, g->alloc * sizeof(*g->prep));
		g->known = xrealloc(g->known, g->alloc * sizeof(*g->known));
	}
	g->known[g->nr] = false;
	return g->nr++;
}

static void grid_push(struct welch_grid *g, double lw, double df, double fac)
{
	size_t i = grid_grow(g);

	g->lw[i] = lw;
	g->dfn[i] = df;
	g->fac[i] = fac;
}

/*
 * Node m (signed, in steps of h) of the grid of step 2 h, as its index
 * in c, or SIZE_MAX: the nodes of a halved grid at even m are those of
 * the coarser one, s0 + m (h / 2) being s0 + (m / 2) h exactly.
 */
static size_t grid_coarse(const struct welch_grid *c, long m)
{
	long j;

	if (!c || m % 2)
		return SIZE_MAX;
	j = m / 2;
	if (j >= 0)
		return (size_t)j < c->npos ? (size_t)j : SIZE_MAX;
	return (size_t)-j <= c->nr - c->npos ? c->npos + (size_t)(-j) - 1
					     : SIZE_MAX;
}

/*
 * Walk the nodes s0 + j h from j = 0 out in direction dir; those a
 * coarser grid c (step 2 h, or NULL) has are copied from it.
 */
static void grid_walk(struct welch_grid *g, const struct welch_grid *c,
		      double s0, double h, int dir, double a, double b,
		      double ka, double kb, double *top)
{
	for (size_t j = dir > 0 ? 0 : 1; g->nr < WELCH_NODES_MAX; j++) {
		size_t ci = grid_coarse(c, dir * (long)j);
		double df = NAN, fac = NAN, lw;

		if (ci != SIZE_MAX) {
			lw = c->lw[ci];
		} else {
			lw = node_logw(s0 + dir * (double)j * h, a, b, ka, kb,
				       &df, &fac);
		}
		if (lw > *top)
			*top = lw;
		if (lw < *top - WELCH_LOG_CUT)
			break;
		if (ci == SIZE_MAX) {
			grid_push(g, lw, df, fac);
			continue;
		}
		grid_push(g, lw, c->dfn[ci], c->fac[ci]);
		g->crit[g->nr - 1] = c->crit[ci];
		g->prep[g->nr - 1] = c->prep[ci];
		g->known[g->nr - 1] = true;
	}
}

/*
 * h(r) at each node from its df. qt() is the costly part; from
 * WELCH_INTERP_DF df on it is smooth enough in 1 / df to interpolate
 * (degree 4 at Chebyshev points, relative error below 1e-9), else it is
 * computed at each node (where a coarser grid gave it, taken from there).
 * Then the noncentral t's part at each node that every ncp shares: the
 * root finder evaluates the grid at many ncp.
 */
static void grid_crit(struct welch_grid *g, double alpha, double df_min)
{
	double x[5], y[5], lo = INFINITY, hi = 0.0;

	if (df_min < WELCH_INTERP_DF || g->nr < 8) {
		for (size_t i = 0; i < g->nr; i++) {
			if (g->known[i])
				continue;
			g->crit[i] =
				stats_t_isf(0.5 * alpha, g->dfn[i]) * g->fac[i];
			stats_nct_prepare(g->crit[i], g->k, &g->prep[i]);
		}
		return;
	}
	for (size_t i = 0; i < g->nr; i++) {
		lo = fmin(lo, 1.0 / g->dfn[i]);
		hi = fmax(hi, 1.0 / g->dfn[i]);
	}
	for (size_t j = 0; j < 5; j++) {
		x[j] = 0.5 * (lo + hi) +
		       0.5 * (hi - lo) *
			       cos(M_PI * (2.0 * (double)j + 1.0) / 10.0);
		y[j] = stats_t_isf(0.5 * alpha, 1.0 / x[j]);
	}
	for (size_t i = 0; i < g->nr; i++) {
		double xi = 1.0 / g->dfn[i], v = 0.0;

		for (size_t j = 0; j < 5; j++) {
			double l = y[j];

			for (size_t m = 0; m < 5; m++)
				if (m != j)
					l *= (xi - x[m]) / (x[j] - x[m]);
			v += l;
		}
		g->crit[i] = v * g->fac[i];
		stats_nct_prepare(g->crit[i], g->k, &g->prep[i]);
	}
}

/* The grid of step h; c, when not NULL, the same design's of step 2 h. */
static void grid_build(struct welch_grid *g, const struct welch_grid *c,
		       double sd_a, size_t na, double sd_b, size_t nb,
		       double alpha, double h)
{
	double a = sd_a * sd_a / (double)na, b = sd_b * sd_b / (double)nb;
	double ka = (double)(na - 1), kb = (double)(nb - 1), sum = 0.0;
	double top = -INFINITY, s0;

	memset(g, 0, sizeof(*g));
	if (a == 0.0 || b == 0.0) {
		g->k = g->df = a == 0.0 ? kb : ka;
		grid_push(g, 0.0, g->k, 1.0);
		g->npos = 1;
		grid_crit(g, alpha, 0.0);
		g->w[0] = 1.0;
		return;
	}
	g->k = ka + kb;
	s0 = log(a / b);
	a /= a + b;
	b = 1.0 - a;
	g->df = 1.0 / (a * a / ka + b * b / kb);
	grid_walk(g, c, s0, h, 1, a, b, ka, kb, &top);
	g->npos = g->nr;
	grid_walk(g, c, s0, h, -1, a, b, ka, kb, &top);
	grid_crit(g, alpha, fmin(ka, kb));
	/* The weights, normalized: that cancels B() and the step. */
	for (size_t i = 0; i < g->nr; i++)
		sum += g->w[i] = exp(g->lw[i] - top);
	for (size_t i = 0; i < g->nr; i++)
		g->w[i] /= sum;
}

static double grid_power(const struct welch_grid *g, double ncp);

/*
 * The grid for a design, its step halved until the power at ncp moves by
 * less than WELCH_GRID_TOL (the trapezoid rule converges geometrically,
 * so that change bounds the coarser grid's error, which is kept): from 0.8
 * times the spread of s (about sqrt(2 / ka + 2 / kb)), at most 0.5; small df
 * and a small alpha, where qt() rises steeply as the df falls towards 1, need
 * finer steps. Each finer grid takes half its nodes from the coarser.
 */
static void grid_init(struct welch_grid *g, double sd_a, size_t na, double sd_b,
		      size_t nb, double alpha, double ncp)
{
	double h = fmin(0.5, 0.8 * sqrt(2.0 / (double)(na - 1) +
					2.0 / (double)(nb - 1)));
	double p;

	grid_build(g, NULL, sd_a, na, sd_b, nb, alpha, h);
	/* From 40 df a side s is nearly normal: 0.8 of its spread is fine. */
	if ((double)na > WELCH_INTERP_DF && (double)nb > WELCH_INTERP_DF)
		return;
	p = grid_power(g, ncp);
	for (int i = 0; i < WELCH_GRID_HALVINGS && g->nr > 1; i++) {
		struct welch_grid finer;
		double q;

		h *= 0.5;
		grid_build(&finer, g, sd_a, na, sd_b, nb, alpha, h);
		q = grid_power(&finer, ncp);
		/* The change bounds the coarser grid's error: keep it. */
		if (fabs(q - p) < WELCH_GRID_TOL) {
			grid_release(&finer);
			break;
		}
		grid_release(g);
		*g = finer;
		p = q;
	}
}

/*
 * The power for a difference of ncp >= 0 standard errors. The rejections
 * in the lower tail, P(T < -crit), are at most P(Z < -ncp): below 1e-17
 * they are left out.
 */
static double grid_power(const struct welch_grid *g, double ncp)
{
	bool lower = stats_norm_sf(ncp) > 1e-17;
	double p = 0.0;

	for (size_t i = 0; i < g->nr; i++)
		p += g->w[i] *
		     (stats_nct_tail_prep(&g->prep[i], false, ncp, true) +
		      (lower ? stats_nct_tail_prep(&g->prep[i], true, ncp,
						   false)
			     : 0.0));
	return fmin(p, 1.0);
}

static bool welch_args_ok(double sd_a, size_t na, double sd_b, size_t nb,
			  double alpha)
{
	return na >= 2 && nb >= 2 && sd_a >= 0.0 && sd_b >= 0.0 &&
	       isfinite(sd_a) && isfinite(sd_b) && (sd_a > 0.0 || sd_b > 0.0) &&
	       alpha > 0.0 && alpha < 1.0;
}

/* The standard error of the difference of the means. */
static double welch_se(double sd_a, size_t na, double sd_b, size_t nb)
{
	return sqrt(sd_a * sd_a / (double)na + sd_b * sd_b / (double)nb);
}

double stats_welch_power(double delta, double sd_a, size_t na, double sd_b,
			 size_t nb, double alpha)
{
	struct welch_grid g;
	double p;

	if (!welch_args_ok(sd_a, na, sd_b, nb, alpha) || isnan(delta))
		return NAN;
	grid_init(&g, sd_a, na, sd_b, nb, alpha,
		  fabs(delta) / welch_se(sd_a, na, sd_b, nb));
	p = grid_power(&g, fabs(delta) / welch_se(sd_a, na, sd_b, nb));
	grid_release(&g);
	return p;
}

/*
 * The ncp in [lo, hi] where grid_power() reaches power, by the Illinois
 * variant of regula falsi (it keeps the bracket).
 */
static double grid_solve(const struct welch_grid *g, double power, double lo,
			 double flo, double hi, double fhi)
{
	int side = 0;

	for (int it = 0; it < WELCH_ROOT_ITER; it++) {
		double x = (lo * fhi - hi * flo) / (fhi - flo), fx;

		if (!(x > lo && x < hi))
			x = 0.5 * (lo + hi);
		if (hi - lo <= WELCH_ROOT_TOL * fabs(x))
			return x;
		fx = grid_power(g, x) - power;
		if (fx == 0.0)
			return x;
		if (fx < 0.0) {
			lo = x;
			flo = fx;
			fhi *= side == -1 ? 0.5 : 1.0;
			side = -1;
		} else {
			hi = x;
			fhi = fx;
			flo *= side == 1 ? 0.5 : 1.0;
			side = 1;
		}
	}
	return 0.5 * (lo + hi);
}

double stats_welch_mde(double sd_a, size_t na, double sd_b, size_t nb,
		       double alpha, double power)
{
	struct welch_grid g;
	double lo, hi, z, guess, p, plo, phi, ncp = NAN;

	if (!welch_args_ok(sd_a, na, sd_b, nb, alpha) ||
	    !(power > 0.0 && power < 1.0))
		return NAN;
	z = -stats_norm_quantile(1.0 - power);
	guess = stats_t_isf(0.5 * alpha, (double)(na < nb ? na : nb) - 1.0) + z;
	grid_init(&g, sd_a, na, sd_b, nb, alpha, guess);
	/* At delta 0 the power is the test's size, about alpha. */
	if (power <= 2.0 * alpha && grid_power(&g, 0.0) >= power) {
		ncp = 0.0;
		goto out;
	}
	/*
	 * A guess near the root, the normal approximation of Student's ncp
	 * at the df of the population variances, then a bracket about it.
	 */
	guess = stats_t_isf(0.5 * alpha, g.df) + z;
	p = grid_power(&g, guess);
	lo = hi = guess;
	plo = phi = p;
	while (phi < power) {
		lo = hi;
		plo = phi;
		hi *= 1.25;
		if (hi > 1e12) {
			ncp = INFINITY;
			goto out;
		}
		phi = grid_power(&g, hi);
	}
	while (plo >= power) {
		hi = lo;
		phi = plo;
		lo /= 1.25;
		plo = grid_power(&g, lo);
	}
	ncp = grid_solve(&g, power, lo, plo - power, hi, phi - power);
out:
	grid_release(&g);
	return ncp * welch_se(sd_a, na, sd_b, nb);
}

/* The two sds stats_welch_mde_pct() takes from w; false where it is NaN. */
static bool mde_sds(const struct stats_welch_units *w, double *sa, double *sb)
{
	if (w->untested != STATS_TESTED || w->constant)
		return false;
	if (w->log_scale) {
		*sa = sqrt(w->var_a);
		*sb = sqrt(w->var_b);
		return true;
	}
	if (w->mean_a == 0.0 || w->mean_b == 0.0)
		return false;
	*sa = 100.0 * sqrt(w->var_a) / fabs(w->mean_a);
	*sb = 100.0 * sqrt(w->var_b) / fabs(w->mean_b);
	return true;
}

/* The MDE of mde_sds()' scale in percent. */
static double mde_pct_of(const struct stats_welch_units *w, double mde)
{
	return w->log_scale ? 100.0 * expm1(mde) : mde;
}

double stats_welch_mde_pct(const struct stats_welch_units *w, double alpha,
			   double power)
{
	double sa, sb;

	if (!mde_sds(w, &sa, &sb))
		return NAN;
	return mde_pct_of(w,
			  stats_welch_mde(sa, w->na, sb, w->nb, alpha, power));
}

/*
 * The memo's interpolation: MDE_NODES Chebyshev points of the first kind
 * on the shares [MDE_LO, 1 - MDE_LO], checked at MDE_CHECKS points between
 * them (the second kind's, every fourth); a design is interpolated from
 * STATS_MDE_MEMO_ROWS planned rows on, which repays the evaluations.
 * Towards share 0 and 1 the ncp has a singularity (the df of the other
 * side alone) that slows the convergence, so rows out there are exact.
 * With 5 units a side at a family's level the ncp needs 49 nodes for
 * 1e-7 (33 gave 6e-7); the exact ncp itself is only that close to
 * 1e-8, so a check at 1e-8 failed on its rounding, and 1e-7 is still a
 * tenth of the 1e-6 it is held to against R.
 */
#define MDE_NODES  49
#define MDE_CHECKS 8
#define MDE_TOL	   1e-7
#define MDE_LO	   0.01

enum mde_state {
	MDE_EXACT,   /* too few rows, or the check failed: exact per row */
	MDE_UNBUILT, /* interpolated once the first row asks */
	MDE_READY,
};

struct mde_design {
	size_t na, nb, rows;
	enum mde_state state;
	double f[MDE_NODES]; /* the ncp at each node */
};

struct stats_mde_memo {
	double alpha, power;
	/* The shares at the nodes, and their barycentric weights. */
	double x[MDE_NODES], w[MDE_NODES];
	struct mde_design *d;
	size_t nr, alloc;
};

/* The ncp of the MDE of a design whose side a has this share (0, 1). */
static double mde_ncp(const struct stats_mde_memo *m, size_t na, size_t nb,
		      double share)
{
	return stats_welch_mde(sqrt(share * (double)na), na,
			       sqrt((1.0 - share) * (double)nb), nb, m->alpha,
			       m->power);
}

/* The interpolated ncp at share (barycentric formula). */
static double mde_interp(const struct stats_mde_memo *m,
			 const struct mde_design *d, double share)
{
	double num = 0.0, den = 0.0;

	for (size_t j = 0; j < MDE_NODES; j++) {
		if (share == m->x[j])
			return d->f[j];
		num += m->w[j] / (share - m->x[j]) * d->f[j];
		den += m->w[j] / (share - m->x[j]);
	}
	return num / den;
}

/*
 * The exact ncp at each node, then at each check. Welch's test does not
 * tell its sides apart, so with as many units on each the ncp at share x
 * is the one at 1 - x: the nodes and the checks lie in mirrored pairs,
 * and a balanced design computes half of them.
 */
static void mde_build(const struct stats_mde_memo *m, struct mde_design *d)
{
	bool mirror = d->na == d->nb;
	double want_at[MDE_CHECKS] = {0};

	d->state = MDE_EXACT;
	for (size_t j = 0; j < MDE_NODES; j++) {
		d->f[j] = mirror && j > MDE_NODES - 1 - j
				  ? d->f[MDE_NODES - 1 - j]
				  : mde_ncp(m, d->na, d->nb, m->x[j]);
		if (!isfinite(d->f[j]))
			return;
	}
	for (size_t c = 0; c < MDE_CHECKS; c++) {
		double x = MDE_LO +
			   (1.0 - 2.0 * MDE_LO) * 0.5 *
				   (1.0 + cos(M_PI * (4.0 * (double)c + 2.0) /
					      (4.0 * MDE_CHECKS)));
		double want = mirror && c > MDE_CHECKS - 1 - c
				      ? want_at[MDE_CHECKS - 1 - c]
				      : mde_ncp(m, d->na, d->nb, x);

		want_at[c] = want;

		if (!(fabs(mde_interp(m, d, x) - want) <= MDE_TOL * want))
			return;
	}
	d->state = MDE_READY;
}

/* The index of design (na, nb) in m->d, or m->nr. */
static size_t mde_find(const struct stats_mde_memo *m, size_t na, size_t nb)
{
	size_t i = 0;

	while (i < m->nr && (m->d[i].na != na || m->d[i].nb != nb))
		i++;
	return i;
}

struct stats_mde_memo *stats_mde_memo_new(double alpha, double power)
{
	struct stats_mde_memo *m = xcalloc(1, sizeof(*m));

	m->alpha = alpha;
	m->power = power;
	for (size_t j = 0; j < MDE_NODES; j++) {
		double t = M_PI * (2.0 * (double)j + 1.0) / (2.0 * MDE_NODES);

		m->w[j] = (j % 2 ? -1.0 : 1.0) * sin(t);
		m->x[j] = MDE_LO + (1.0 - 2.0 * MDE_LO) * 0.5 * (1.0 + cos(t));
	}
	return m;
}

void stats_mde_memo_plan(struct stats_mde_memo *m,
			 const struct stats_welch_units *w)
{
	struct mde_design *d;
	double sa, sb;
	size_t i;

	if (!mde_sds(w, &sa, &sb))
		return;
	i = mde_find(m, w->na, w->nb);
	if (i == m->nr) {
		ALLOC_GROW(m->d, m->nr + 1, m->alloc);
		memset(&m->d[i], 0, sizeof(m->d[i]));
		m->d[i].na = w->na;
		m->d[i].nb = w->nb;
		m->nr++;
	}
	d = &m->d[i];
	if (++d->rows == STATS_MDE_MEMO_ROWS)
		d->state = MDE_UNBUILT;
}

double stats_mde_memo_pct(struct stats_mde_memo *m,
			  const struct stats_welch_units *w)
{
	struct mde_design *d;
	double sa, sb, va, se, share;
	size_t i;
	bool inside;

	if (!mde_sds(w, &sa, &sb))
		return NAN;
	i = mde_find(m, w->na, w->nb);
	d = i < m->nr ? &m->d[i] : NULL;
	va = sa * sa / (double)w->na;
	se = sqrt(va + sb * sb / (double)w->nb);
	share = va / (se * se);
	/* Near a side without spread, and without, exact. */
	inside = share >= MDE_LO && share <= 1.0 - MDE_LO;
	if (d && d->state == MDE_UNBUILT && inside)
		mde_build(m, d);
	if (!d || d->state != MDE_READY || !inside)
		return stats_welch_mde_pct(w, m->alpha, m->power);
	return mde_pct_of(w, mde_interp(m, d, share) * se);
}

bool stats_mde_memo_interpolates(const struct stats_mde_memo *m, size_t na,
				 size_t nb)
{
	size_t i = mde_find(m, na, nb);

	return i < m->nr && m->d[i].state == MDE_READY;
}

void stats_mde_memo_free(struct stats_mde_memo *m)
{
	if (!m)
		return;
	free(m->d);
	free(m);
}

double stats_welch_power_n(double delta, double sd_a, double sd_b, double alpha,
			   double power)
{
	double lo = 2.0, hi = 2.0;

	if (!welch_args_ok(sd_a, 2, sd_b, 2, alpha) || isnan(delta) ||
	    !(power > 0.0 && power < 1.0))
		return NAN;
	if (delta == 0.0)
		return INFINITY;
	/* Doubling, then bisection on whole n (the power rises with n). */
	while (stats_welch_power(delta, sd_a, (size_t)hi, sd_b, (size_t)hi,
				 alpha) < power) {
		lo = hi;
		hi *= 2.0;
		if (hi > WELCH_N_MAX)
			return INFINITY;
	}
	if (hi == 2.0)
		return 2.0;
	while (hi - lo > 1.0) {
		double mid = floor(0.5 * (lo + hi));

		if (stats_welch_power(delta, sd_a, (size_t)mid, sd_b,
				      (size_t)mid, alpha) < power)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

/* The largest |x - mean| / sd over the values left (!out[i]). */
static size_t esd_step(const double *x, size_t n, const bool *out, size_t left,
		       double *score)
{
	double s = 0.0, ss = 0.0, m, sd;
	size_t worst = SIZE_MAX;

	for (size_t i = 0; i < n; i++)
		s += out[i] ? 0.0 : x[i];
	m = s / (double)left;
	for (size_t i = 0; i < n; i++)
		ss += out[i] ? 0.0 : (x[i] - m) * (x[i] - m);
	sd = sqrt(ss / (double)(left - 1));
	*score = 0.0;
	for (size_t i = 0; sd > 0.0 && i < n; i++) {
		if (out[i] || fabs(x[i] - m) / sd <= *score)
			continue;
		*score = fabs(x[i] - m) / sd;
		worst = i;
	}
	return worst;
}

/* Rosner's critical value of the score for quantile t. */
static double esd_lambda_at(size_t n, size_t i, double t)
{
	double df = (double)(n - i - 1), nl = (double)(n - i + 1);

	return (double)(n - i) * t / sqrt((df + t * t) * nl);
}

double stats_esd_lambda(size_t n, size_t i, double alpha)
{
	double nl = (double)(n - i + 1);

	return esd_lambda_at(
		n, i, stats_t_isf(alpha / (2.0 * nl), (double)(n - i - 1)));
}

double stats_esd_lambda_floor(size_t n, size_t i, double alpha)
{
	double nl = (double)(n - i + 1);

	/* Rounding must not lift the bound over the exact value. */
	return esd_lambda_at(n, i, -stats_norm_quantile(alpha / (2.0 * nl))) *
	       (1.0 - 1e-9);
}

size_t stats_outliers_esd(const double *u, size_t n, double alpha, bool *flag)
{
	size_t most = n / 5 > 1 ? n / 5 : 1, found = 0, *order;
	bool positive = true;
	double *x;

	for (size_t i = 0; i < n; i++) {
		flag[i] = false;
		positive &= u[i] > 0.0 && isfinite(u[i]);
	}
	if (n < 3)
		return 0;
	x = xmalloc(n * sizeof(*x));
	order = xmalloc(most * sizeof(*order));
	for (size_t i = 0; i < n; i++)
		x[i] = positive ? log(u[i]) : u[i];
	for (size_t i = 1; i <= most && n - i >= 2; i++) {
		double score;
		size_t worst = esd_step(x, n, flag, n - i + 1, &score);

		if (worst == SIZE_MAX || !isfinite(score))
			break;
		flag[worst] = true;
		order[i - 1] = worst;
		/* Most scores are under the bound: no t quantile for them. */
		if (score > stats_esd_lambda_floor(n, i, alpha) &&
		    score > stats_esd_lambda(n, i, alpha))
			found = i;
	}
	/* The removed values after the last significant one stay in. */
	for (size_t i = 0; i < n; i++)
		flag[i] = false;
	for (size_t i = 0; i < found; i++)
		flag[order[i]] = true;
	free(x);
	free(order);
	return found;
}
