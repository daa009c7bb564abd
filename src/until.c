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
	double *u, need = UNTIL_PILOT;

	if (!metrics_nr)
		return UNTIL_PILOT;
	if (rows < 2)
		return SIZE_MAX;
	u = xcalloc(rows, sizeof(*u));
	for (size_t m = 0; m < metrics_nr; m++) {
		double h;

		for (size_t r = 0; r < rows; r++)
			u[r] = vals[r * metrics_nr + m];
		h = stats_ci_half_pct(u, rows, UNTIL_ALPHA);
		if (isnan(h)) {
			need = INFINITY;
			break;
		}
		/* The half-width shrinks as 1 / sqrt(n). */
		need = fmax(need, ceil((double)rows * (h / pct) * (h / pct)));
	}
	free(u);
	return need > (double)(SIZE_MAX / 2) ? SIZE_MAX : (size_t)need;
}

bool until_job_pilot(const struct until_job *u)
{
	return u->pilot < UNTIL_PILOT;
}

double *until_job_add(struct until_job *u, size_t metrics_nr, bool ok)
{
	double *row;

	if (!until_job_pilot(u)) {
		u->tested += ok;
		return NULL;
	}
	u->pilot++;
	if (!ok)
		return NULL;
	ALLOC_GROW(u->vals, (u->nr + 1) * metrics_nr, u->alloc);
	/* Without metrics the row is empty and vals may stay NULL. */
	row = u->vals ? u->vals + u->nr * metrics_nr : NULL;
	u->nr++;
	return row;
}

bool until_job_precise(const struct until_job *u, size_t metrics_nr, double pct)
{
	return !until_job_pilot(u) &&
	       u->tested >= until_target(u->vals, u->nr, metrics_nr, pct);
}

void until_job_release(struct until_job *u)
{
	if (!u)
		return;
	free(u->vals);
	memset(u, 0, sizeof(*u));
}
