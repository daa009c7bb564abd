#ifndef MMCMP_UNTIL_H
#define MMCMP_UNTIL_H

#include <stdbool.h>
#include <stddef.h>

/*
 * until: the rule of the config's `until` (docs/statistics.md, "stopping
 * on precision"), a two-stage rule (Stein 1945): a pilot of UNTIL_PILOT
 * iterations, stored as warm-ups are and never tested, then as many
 * tested iterations as the pilot's spread says the 95% confidence
 * half-width of the mean needs to be at most `until` percent of it, for
 * every metric; then the job stops. The tested iterations are never
 * looked at, so their number is independent of their values and the
 * test on them keeps its level. struct until_job keeps a job's state;
 * until_target() is the rule as a pure function. Nothing here fails.
 * Use: until_job_pilot() before an iteration (whether it is the
 * pilot's), until_job_add() after it, until_job_precise() to decide,
 * until_job_release() at the end.
 */

/* The significance of the precision rule. */
#define UNTIL_ALPHA 0.05
/* The pilot: iterations per job before the rule decides. */
#define UNTIL_PILOT 5

/* A job under the rule. Zeroed is a job that has run nothing. */
struct until_job {
	/* The pilot's successful iterations: nr rows of metrics_nr
	 * iteration values, row-major. */
	double *vals;
	size_t nr, alloc;
	size_t pilot;  /* pilot iterations run, failed ones too */
	size_t tested; /* successful iterations after the pilot */
};

/*
 * The tested iterations a job needs from a pilot of `rows` rows of vals
 * (metrics_nr iteration values each, row-major): the largest over the
 * metrics of ceil(rows (h / pct)^2), h the pilot's 1 - UNTIL_ALPHA
 * half-width in percent of its mean (stats_ci_half_pct()), and at least
 * UNTIL_PILOT. SIZE_MAX when there are fewer than 2 rows, when a
 * metric's half-width is undefined (a mean of 0, a NaN) or the target is
 * above SIZE_MAX / 2: the job runs to its maximum. No metrics: the pilot
 * size.
 */
size_t until_target(const double *vals, size_t rows, size_t metrics_nr,
		    double pct);

/* Whether the next iteration of the job belongs to its pilot. */
bool until_job_pilot(const struct until_job *u);

/*
 * Count a finished iteration of the job, ok when it succeeded. Returns
 * the row of metrics_nr values for the caller to fill when it is a
 * successful pilot iteration (NULL without metrics), else NULL.
 */
double *until_job_add(struct until_job *u, size_t metrics_nr, bool ok);

/*
 * Whether the job stops: its pilot is complete and it has until_target()
 * successful tested iterations.
 */
bool until_job_precise(const struct until_job *u, size_t metrics_nr,
		       double pct);

/* Free the rows of u and zero it; NULL is a no-op. */
void until_job_release(struct until_job *u);

#endif /* MMCMP_UNTIL_H */
