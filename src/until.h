#ifndef MMCMP_UNTIL_H
#define MMCMP_UNTIL_H

#include <stdbool.h>
#include <stddef.h>

/*
 * until: the rule of the config's `until` (statistics section 9). A job
 * stops once it has at least 3 successful measured iterations and, for
 * every metric, the 95% confidence half-width of the mean of its
 * iteration values is at most `until` percent of that mean.
 * until_precise() is the rule as a pure function; struct until_rows keeps
 * a job's values for it. Nothing here fails. Use: until_rows_add() once
 * per successful measured iteration, the row filled by the caller; then
 * until_rows_precise(); until_rows_release() at the end.
 */

/* The significance of the precision rule. */
#define UNTIL_ALPHA 0.05

/*
 * Per successful measured iteration of a job, a row of the iteration
 * value of each of its metrics. Zeroed is empty.
 */
struct until_rows {
	double *vals; /* nr rows of metrics_nr values, row-major */
	size_t nr, alloc;
};

/*
 * Whether vals, `rows` rows of metrics_nr iteration values (row-major),
 * are precise to pct percent: at least 3 rows, and every metric's column
 * passes stats_precise() at UNTIL_ALPHA. No metrics: precise with 3 rows.
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
