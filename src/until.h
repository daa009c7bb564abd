#ifndef MMCMP_UNTIL_H
#define MMCMP_UNTIL_H

#include <stdbool.h>
#include <stddef.h>

/*
 * until: the rule of the config's `until` (docs/statistics.md, "stopping
 * on precision"), a two-stage rule (Stein 1945): a pilot of UNTIL_PILOT
 * successful measured iterations, then as many iterations in all as the
 * pilot's spread says the 95% confidence half-width of the mean needs to
 * be at most `until` percent of it, for every metric; then the job stops.
 * The data after the pilot are never looked at, so the stop cannot wait
 * for a spread that happens to be small. until_precise() is the rule as
 * a pure function; struct until_rows keeps a job's values for it.
 * Nothing here fails. Use: until_rows_add() once per successful measured
 * iteration, the row filled by the caller; then until_rows_precise();
 * until_rows_release() at the end.
 */

/* The significance of the precision rule. */
#define UNTIL_ALPHA 0.05
/* The pilot: iterations per job before the rule decides. */
#define UNTIL_PILOT 5

/*
 * Per successful measured iteration of a job, a row of the iteration
 * value of each of its metrics. Zeroed is empty.
 */
struct until_rows {
	double *vals; /* nr rows of metrics_nr values, row-major */
	size_t nr, alloc;
};

/*
 * The iterations a job needs, from the first UNTIL_PILOT rows of vals
 * (rows of metrics_nr iteration values, row-major): the largest over the
 * metrics of ceil(n0 (h / pct)^2), h the pilot's 1 - UNTIL_ALPHA
 * half-width in percent of its mean (stats_ci_half_pct()), and at least
 * the pilot. SIZE_MAX when a metric's is undefined (a mean of 0, a NaN)
 * or above SIZE_MAX / 2: the job runs to its maximum. 0 before the pilot
 * is complete.
 */
size_t until_target(const double *vals, size_t rows, size_t metrics_nr,
		    double pct);

/*
 * Whether a job with vals, `rows` rows, stops: the pilot is complete and
 * rows >= until_target(). No metrics: it stops after the pilot.
 */
bool until_precise(const double *vals, size_t rows, size_t metrics_nr,
		   double pct);

/* A new row of metrics_nr values at the end of r, for the caller to fill. */
double *until_rows_add(struct until_rows *r, size_t metrics_nr);

/* until_precise() over the rows of r. */
bool until_rows_precise(const struct until_rows *r, size_t metrics_nr,
			double pct);

/* Free the rows of r and zero it; NULL is a no-op. */
void until_rows_release(struct until_rows *r);

#endif /* MMCMP_UNTIL_H */
