/* until: whether a job's iteration values are precise enough to stop. */
#include "until.h"

#include <string.h>

#include "stats.h"
#include "util.h"

bool until_precise(const double *vals, size_t rows, size_t metrics_nr,
		   double pct)
{
	double *u = xcalloc(rows + 1, sizeof(*u));
	bool precise = rows >= 3;

	for (size_t m = 0; m < metrics_nr && precise; m++) {
		for (size_t r = 0; r < rows; r++)
			u[r] = vals[r * metrics_nr + m];
		precise = stats_precise(u, rows, UNTIL_ALPHA, pct);
	}
	free(u);
	return precise;
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
