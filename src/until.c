/* until: the two-stage rule, a pilot and then the iterations it asks. */
#include "until.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "stats.h"
#include "util.h"

size_t until_target(const double *vals, size_t rows, size_t metrics_nr,
		    double pct)
{
	double u[UNTIL_PILOT], need = UNTIL_PILOT;

	if (rows < UNTIL_PILOT)
		return 0;
	for (size_t m = 0; m < metrics_nr; m++) {
		double h;

		for (size_t r = 0; r < UNTIL_PILOT; r++)
			u[r] = vals[r * metrics_nr + m];
		h = stats_ci_half_pct(u, UNTIL_PILOT, UNTIL_ALPHA);
		if (isnan(h))
			return SIZE_MAX;
		/* The half-width shrinks as 1 / sqrt(n). */
		need = fmax(need, ceil(UNTIL_PILOT * (h / pct) * (h / pct)));
	}
	return need > (double)(SIZE_MAX / 2) ? SIZE_MAX : (size_t)need;
}

bool until_precise(const double *vals, size_t rows, size_t metrics_nr,
		   double pct)
{
	size_t target = until_target(vals, rows, metrics_nr, pct);

	return target && rows >= target;
}

double *until_rows_add(struct until_rows *r, size_t metrics_nr)
{
	double *row;

	ALLOC_GROW(r->vals, (r->nr + 1) * metrics_nr, r->alloc);
	/* Without metrics the row is empty and vals may stay NULL. */
	row = r->vals ? r->vals + r->nr * metrics_nr : NULL;
	r->nr++;
	return row;
}

bool until_rows_precise(const struct until_rows *r, size_t metrics_nr,
			double pct)
{
	return until_precise(r->vals, r->nr, metrics_nr, pct);
}

void until_rows_release(struct until_rows *r)
{
	if (!r)
		return;
	free(r->vals);
	memset(r, 0, sizeof(*r));
}
