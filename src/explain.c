/* explain: per-symbol profile share differences with intervals. */
#include "explain.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parse-num.h"
#include "stats.h"
#include "store-profile.h"
#include "strbuf.h"
#include "strmap.h"
#include "strvec.h"
#include "util.h"

/* A symbol's samples in one iteration. */
struct entry {
	size_t sym;
	uint64_t self, total;
};

/* One profiled iteration. */
struct iter {
	bool other;
	uint64_t samples;
	struct entry *v; /* in symbol order */
	size_t nr;
};

struct explain {
	enum explain_by by;
	struct strvec syms;
	struct strmap index;
	struct iter *iters;
	size_t iters_nr, iters_alloc;
	/* explain_add()'s scratch, one slot per symbol. */
	uint64_t *self, *total;
	size_t *seen; /* the line that last counted a symbol's total */
	size_t scratch_alloc;
	struct explain_row *rows;
	size_t rows_nr, tested, marked;
};

struct explain *explain_new(enum explain_by by)
{
	struct explain *ex = xcalloc(1, sizeof(*ex));

	ex->by = by;
	strvec_init(&ex->syms);
	return ex;
}

enum explain_by explain_by(const struct explain *ex)
{
	return ex->by;
}

const char *explain_by_name(enum explain_by by)
{
	return by == EXPLAIN_BY_PATH ? "path" : "symbol";
}

void explain_free(struct explain *ex)
{
	if (!ex)
		return;
	for (size_t i = 0; i < ex->iters_nr; i++)
		free(ex->iters[i].v);
	free(ex->iters);
	free(ex->self);
	free(ex->total);
	free(ex->seen);
	free(ex->rows);
	strmap_clear(&ex->index);
	strvec_clear(&ex->syms);
	free(ex);
}

/* The index of symbol name (len bytes), its scratch slots zeroed. */
static size_t symbol(struct explain *ex, const char *name, size_t len)
{
	size_t i;

	if (strmap_get(&ex->index, name, len, &i))
		return i;
	i = ex->syms.nr;
	strvec_push_nodup(&ex->syms, xstrndup(name, len));
	strmap_put(&ex->index, name, len, i);
	if (i >= ex->scratch_alloc) {
		size_t n = 2 * i + 16;

		ex->self = xrealloc(ex->self, n * sizeof(*ex->self));
		ex->total = xrealloc(ex->total, n * sizeof(*ex->total));
		ex->seen = xrealloc(ex->seen, n * sizeof(*ex->seen));
		ex->scratch_alloc = n;
	}
	ex->self[i] = ex->total[i] = 0;
	ex->seen[i] = 0;
	return i;
}

/*
 * Count one folded line, stack and count, as line number nr: by symbol
 * each frame, by path each root-first prefix ending at a frame.
 */
static void add_stack(struct explain *ex, const char *stack, size_t len,
		      uint64_t count, size_t nr)
{
	size_t leaf = SIZE_MAX;

	for (size_t at = 0; at <= len;) {
		const char *end = memchr(stack + at, ';', len - at);
		size_t n = end ? (size_t)(end - stack) - at : len - at;
		size_t s = ex->by == EXPLAIN_BY_PATH
				   ? symbol(ex, stack, at + n)
				   : symbol(ex, stack + at, n);

		if (ex->seen[s] != nr) {
			ex->seen[s] = nr; /* recursion counts once */
			ex->total[s] += count;
		}
		leaf = s;
		at += n + 1;
	}
	ex->self[leaf] += count;
}

int explain_add(struct explain *ex, bool other, const char *folded,
		const char *what, struct strbuf *err)
{
	struct strbuf num = STRBUF_INIT;
	struct iter it = {.other = other};
	size_t line_nr = 0, first = ex->syms.nr;
	int ret = -1;

	/* Symbols seen before start this iteration at zero too. */
	for (size_t i = 0; i < first; i++)
		ex->self[i] = ex->total[i] = ex->seen[i] = 0;
	for (const char *p = folded; *p;) {
		const char *eol = strchr(p, '\n');
		const char *sp;
		uint64_t count;

		if (!eol)
			eol = p + strlen(p);
		sp = eol;
		line_nr++;
		while (sp > p && sp[-1] != ' ')
			sp--;
		strbuf_reset(&num);
		strbuf_add(&num, sp, (size_t)(eol - sp));
		if (sp == p || sp - 1 == p || !parse_uint64(num.buf, &count)) {
			error_addf(err, "%s: line %zu: expected 'STACK COUNT'",
				   what, line_nr);
			goto out;
		}
		add_stack(ex, p, (size_t)(sp - 1 - p), count, line_nr);
		it.samples += count;
		p = *eol ? eol + 1 : eol;
	}
	it.v = xcalloc(ex->syms.nr + 1, sizeof(*it.v));
	for (size_t s = 0; s < ex->syms.nr; s++)
		if (ex->total[s])
			it.v[it.nr++] =
				(struct entry){s, ex->self[s], ex->total[s]};
	ALLOC_GROW(ex->iters, ex->iters_nr + 1, ex->iters_alloc);
	ex->iters[ex->iters_nr++] = it;
	ret = 0;
out:
	strbuf_release(&num);
	return ret;
}

/* Whether profile r is of benchmark and job. */
static bool same_job(const struct profile_row *r, const char *benchmark,
		     const char *job)
{
	return !strcmp(r->benchmark, benchmark) && !strcmp(r->job, job);
}

int explain_add_job(struct explain *ex, const struct profile_rows *base,
		    const struct profile_rows *other, const char *benchmark,
		    const char *job, struct strbuf *err)
{
	const struct profile_rows *side[] = {base, other};

	for (int s = 0; s < 2; s++) {
		for (size_t i = 0; i < side[s]->nr; i++) {
			const struct profile_row *r = &side[s]->v[i];
			struct strbuf what = STRBUF_INIT;
			int ret;

			if (!same_job(r, benchmark, job) ||
			    strcmp(r->status, "ok"))
				continue;
			strbuf_addf(&what, "profile %lld of run %lld",
				    (long long)r->seq, (long long)r->run_id);
			ret = explain_add(ex, s, r->stacks, what.buf, err);
			strbuf_release(&what);
			if (ret)
				return -1;
		}
	}
	return 0;
}

size_t explain_iterations(const struct explain *ex, bool other)
{
	size_t n = 0;

	for (size_t i = 0; i < ex->iters_nr; i++)
		n += ex->iters[i].other == other;
	return n;
}

uint64_t explain_samples(const struct explain *ex, bool other)
{
	uint64_t n = 0;

	for (size_t i = 0; i < ex->iters_nr; i++)
		if (ex->iters[i].other == other)
			n += ex->iters[i].samples;
	return n;
}

size_t explain_tested(const struct explain *ex)
{
	return ex->tested;
}

size_t explain_marked(const struct explain *ex)
{
	return ex->marked;
}

/* Mean and sample variance of x[0..n). */
static void moments(const double *x, size_t n, double *mean, double *var)
{
	double m = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		m += x[i];
	m /= (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	*mean = m;
	*var = n > 1 ? ss / (double)(n - 1) : NAN;
}

/*
 * Row r from the shares of its symbol on each side, in percent: Welch's
 * t-test of the difference and its standard error and degrees of
 * freedom for the interval (se, df; NaN when untested).
 */
static void test_row(struct explain_row *r, const double *a, size_t na,
		     const double *b, size_t nb, double *se, double *df)
{
	double ma, va, mb, vb, ea, eb;

	moments(a, na, &ma, &va);
	moments(b, nb, &mb, &vb);
	r->base_pct = ma;
	r->other_pct = mb;
	r->diff_pp = mb - ma;
	r->p = r->q = r->ci_low = r->ci_high = *se = *df = NAN;
	r->tested = na >= 2 && nb >= 2 && fmax(ma, mb) >= EXPLAIN_MIN_PCT &&
		    va + vb > 0;
	if (!r->tested)
		return;
	ea = va / (double)na;
	eb = vb / (double)nb;
	*se = sqrt(ea + eb);
	/* Welch-Satterthwaite; a side of zero variance adds nothing. */
	*df = (ea + eb) * (ea + eb) /
	      (ea * ea / (double)(na - 1) + eb * eb / (double)(nb - 1));
	r->p = 2 * stats_t_sf(fabs(r->diff_pp) / *se, *df);
}

/* The shares of symbol s, kind self, in the iterations of one side. */
static size_t shares(const struct explain *ex, size_t s, bool self, bool other,
		     double *out)
{
	size_t n = 0;

	for (size_t i = 0; i < ex->iters_nr; i++) {
		const struct iter *it = &ex->iters[i];
		uint64_t c = 0;

		size_t lo = 0, hi;

		if (it->other != other)
			continue;
		/* it->v is in symbol order (explain_add()): bisect it. */
		for (hi = it->nr; lo < hi;) {
			size_t mid = lo + (hi - lo) / 2;

			if (it->v[mid].sym < s)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < it->nr && it->v[lo].sym == s)
			c = self ? it->v[lo].self : it->v[lo].total;
		out[n++] = it->samples ? 100.0 * (double)c / (double)it->samples
				       : 0;
	}
	return n;
}

static int row_cmp(const void *pa, const void *pb)
{
	const struct explain_row *a = pa, *b = pb;
	double da = fabs(a->diff_pp), db = fabs(b->diff_pp);
	int c;

	if (a->tested != b->tested)
		return a->tested ? -1 : 1;
	if (da != db)
		return da > db ? -1 : 1;
	c = strcmp(a->symbol, b->symbol);
	return c ? c : (int)b->self - (int)a->self;
}

/* Each row's interval at its level, from its se and df. */
static void intervals(struct explain *ex, const double *se, const double *df,
		      double alpha, bool fdr)
{
	for (size_t i = 0; i < ex->rows_nr; i++) {
		struct explain_row *r = &ex->rows[i];
		double level = 1 - alpha, half;

		if (!r->tested)
			continue;
		if (r->marked && fdr)
			level = 1 -
				(double)ex->marked * alpha / (double)ex->tested;
		half = stats_t_isf((1 - level) / 2, df[i]) * se[i];
		r->ci_level = level;
		r->ci_low = r->diff_pp - half;
		r->ci_high = r->diff_pp + half;
	}
}

const struct explain_row *explain_compute(struct explain *ex, double alpha,
					  bool fdr, size_t *nr)
{
	size_t rows = 2 * ex->syms.nr;
	double *a = xcalloc(ex->iters_nr + 1, sizeof(*a));
	double *b = xcalloc(ex->iters_nr + 1, sizeof(*b));
	double *p = xcalloc(rows + 1, sizeof(*p));
	double *q = xcalloc(rows + 1, sizeof(*q));
	double *se = xcalloc(rows + 1, sizeof(*se));
	double *df = xcalloc(rows + 1, sizeof(*df));

	free(ex->rows);
	ex->rows = xcalloc(rows + 1, sizeof(*ex->rows));
	ex->rows_nr = rows;
	ex->tested = ex->marked = 0;
	for (size_t i = 0; i < rows; i++) {
		struct explain_row *r = &ex->rows[i];
		size_t na, nb;

		r->symbol = ex->syms.v[i / 2];
		r->self = !(i % 2);
		na = shares(ex, i / 2, r->self, false, a);
		nb = shares(ex, i / 2, r->self, true, b);
		test_row(r, a, na, b, nb, &se[i], &df[i]);
		p[i] = r->p;
		ex->tested += r->tested;
	}
	if (fdr)
		stats_bh_adjust(p, rows, q);
	for (size_t i = 0; i < rows; i++) {
		struct explain_row *r = &ex->rows[i];

		r->q = fdr ? q[i] : p[i];
		r->marked = r->tested && r->q <= alpha;
		ex->marked += r->marked;
	}
	intervals(ex, se, df, alpha, fdr);
	if (rows)
		qsort(ex->rows, rows, sizeof(*ex->rows), row_cmp);
	free(a);
	free(b);
	free(p);
	free(q);
	free(se);
	free(df);
	*nr = rows;
	return ex->rows;
}
