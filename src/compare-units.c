/* compare-units: the unit the design decides, variance shares, exact p. */
#include "compare-units.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "run-data.h"
#include "strbuf.h"
#include "util.h"

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The number of distinct values of v[0..n), which it sorts. */
static size_t distinct(int64_t *v, size_t n)
{
	size_t d = 0;

	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_i64);
	for (size_t i = 0; i < n; i++)
		d += !i || v[i] != v[i - 1];
	return d;
}

/*
 * Append x to v unless it repeats the value appended last: a run's
 * samples come together, so v stays short (a few values per operation).
 */
static void push_new(int64_t **v, size_t *n, size_t *alloc, int64_t x)
{
	if (*n && (*v)[*n - 1] == x)
		return;
	ALLOC_GROW(*v, *n + 1, *alloc);
	(*v)[(*n)++] = x;
}

/*
 * A label's runs and boots over all its workload samples; *boots is 0
 * when some sample does not know its boot. A boot is the pair (run,
 * boot), so the key packs both.
 */
static void label_levels(const struct run_data *rd, size_t *runs, size_t *boots)
{
	size_t total = 0, rn = 0, ralloc = 0, bn = 0, balloc = 0;
	int64_t *rv = NULL, *bv = NULL;
	bool all_boots = true;

	for (size_t o = 0; o < rd->ops_nr; o++) {
		total += rd->ops[o].nr;
		all_boots &= !rd->ops[o].nr ||
			     (op_samples_has(&rd->ops[o], OP_KEY_BOOT) &&
			      op_samples_has(&rd->ops[o], OP_KEY_RUN));
	}
	for (size_t o = 0; o < rd->ops_nr; o++) {
		const struct op_samples *op = &rd->ops[o];

		for (size_t s = 0;
		     op_samples_has(op, OP_KEY_RUN) && s < op->spans_nr; s++) {
			const int64_t *key = op->spans[s].key;

			push_new(&rv, &rn, &ralloc, key[OP_KEY_RUN]);
			if (all_boots)
				push_new(&bv, &bn, &balloc,
					 key[OP_KEY_RUN] * 65536 +
						 key[OP_KEY_BOOT]);
		}
	}
	*runs = distinct(rv, rn);
	*boots = all_boots && total ? distinct(bv, bn) : 0;
	free(rv);
	free(bv);
}

enum compare_unit compare_unit_auto(const struct run_data *runs, size_t nr,
				    struct strbuf *why)
{
	size_t *r = xcalloc(nr ? nr : 1, sizeof(*r));
	size_t *b = xcalloc(nr ? nr : 1, sizeof(*b));
	bool boots_known = true, some_boots = false, some_runs = false;
	enum compare_unit unit = COMPARE_UNIT_ITERATION;
	size_t said = 0;

	for (size_t i = 0; i < nr; i++) {
		size_t samples = 0;

		for (size_t o = 0; o < runs[i].ops_nr; o++)
			samples += runs[i].ops[o].nr;
		label_levels(&runs[i], &r[i], &b[i]);
		boots_known &= !samples || b[i] > 0;
		some_boots |= b[i] >= 2;
		some_runs |= r[i] >= 2;
	}
	if (boots_known && some_boots)
		unit = COMPARE_UNIT_BOOT;
	else if (some_runs)
		unit = COMPARE_UNIT_RUN;
	for (size_t i = 0; unit != COMPARE_UNIT_ITERATION && i < nr; i++) {
		size_t n = unit == COMPARE_UNIT_BOOT ? b[i] : r[i];

		strbuf_addf(why, "%s%s %zu %s", said++ ? ", " : "",
			    runs[i].info.label ? runs[i].info.label : "", n,
			    n == 1 ? compare_unit_nth(unit)
				   : compare_unit_plural(unit));
	}
	if (unit == COMPARE_UNIT_ITERATION)
		strbuf_addstr(why, "no label pools runs or boots");
	free(r);
	free(b);
	return unit;
}

/* An index and its key, to sort values into their groups. */
struct keyed {
	long long key;
	size_t i;
};

static int keyed_cmp(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	return (x->key > y->key) - (x->key < y->key);
}

double compare_between_share(const double *x, const long long *key, size_t n)
{
	struct keyed *k = xmalloc((n ? n : 1) * sizeof(*k));
	double scale = 0.0, grand = 0.0, ssb = 0.0, ssw = 0.0, sum_n2 = 0.0;
	double msb, msw, n0, sb2, share = NAN;
	size_t groups = 0;

	for (size_t i = 0; i < n; i++) {
		k[i] = (struct keyed){key[i], i};
		if (!isfinite(x[i]))
			goto out;
		if (fabs(x[i]) > scale)
			scale = fabs(x[i]);
	}
	if (n < 3 || scale == 0.0)
		goto out;
	qsort(k, n, sizeof(*k), keyed_cmp);
	for (size_t i = 0; i < n; i++)
		grand += x[i] / scale;
	grand /= (double)n;
	for (size_t s = 0, e; s < n; s = e) {
		double m = 0.0, ni;

		for (e = s; e < n && k[e].key == k[s].key; e++)
			m += x[k[e].i] / scale;
		ni = (double)(e - s);
		m /= ni;
		for (size_t j = s; j < e; j++)
			ssw += (x[k[j].i] / scale - m) *
			       (x[k[j].i] / scale - m);
		ssb += ni * (m - grand) * (m - grand);
		sum_n2 += ni * ni;
		groups++;
	}
	if (groups < 2 || n <= groups || ssb + ssw == 0.0)
		goto out;
	msb = ssb / (double)(groups - 1);
	msw = ssw / (double)(n - groups);
	n0 = ((double)n - sum_n2 / (double)n) / (double)(groups - 1);
	sb2 = msb > msw ? (msb - msw) / n0 : 0.0;
	share = sb2 / (sb2 + msw);
out:
	free(k);
	return share;
}

double compare_narrowing_pct(double share, double m)
{
	double now, doubled;

	if (isnan(share) || !(m >= 1.0))
		return NAN;
	now = share + (1.0 - share) / m;
	doubled = share + (1.0 - share) / (2.0 * m);
	return 100.0 * (1.0 - sqrt(doubled / now));
}

/* log(choose(n, k)). */
static double lchoose(double n, double k)
{
	return lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0);
}

double compare_constant_p(size_t na, double ca, size_t nb, double cb)
{
	double fa = (double)na, fb = (double)nb, all, p = 0.0;
	size_t k0 = na > nb ? na - nb : 0;

	if (ca == cb || !na || !nb)
		return 1.0;
	all = lchoose(fa + fb, fa);
	/*
	 * A split giving side a k of its own values and na - k of the
	 * other's has the difference (ca - cb) (k / na - (na - k) / nb);
	 * the observed split is k = na, difference ca - cb.
	 */
	for (size_t k = k0; k <= na; k++) {
		double fk = (double)k;
		double d = fk / fa - (fa - fk) / fb;

		if (fabs(d) >= 1.0 - 1e-12)
			p += exp(lchoose(fa, fk) + lchoose(fb, fa - fk) - all);
	}
	return p < 1.0 ? p : 1.0;
}
