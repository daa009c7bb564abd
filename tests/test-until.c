/*
 * Unit tests for until: the two-stage rule that stops a job (Stein). The
 * targets themselves are checked against R in test-stats-v3.c (the
 * stein rows); here the rule's shape: the first UNTIL_PILOT iterations
 * are the pilot, whose values alone set the target; the job stops once
 * that many tested iterations succeeded, whatever their values; the
 * largest target of the metrics wins; a failed pilot iteration shortens
 * the pilot, and an undefined spread runs the job to its maximum. The
 * half-widths in the comments are t(0.975, 4) * sd / sqrt(5) in percent
 * of the mean, t(0.975, 4) = 2.776445 (R's qt()).
 */
#include <stdint.h>

#include "tap.h"
#include "until.h"
#include "util.h"

/*
 * Run a job through the rule: pilot[] gives the pilot's values of
 * metrics_nr metrics (row-major), failed[] which pilot iterations
 * failed; then tested iterations succeed until the job stops, at most
 * 100. Returns the tested iterations it took, 0 when it never stopped.
 */
static size_t job_run(const double *pilot, const bool *failed,
		      size_t metrics_nr, double pct)
{
	struct until_job u = {0};
	size_t k = 0, tested = 0;

	for (size_t i = 0; i < UNTIL_PILOT; i++) {
		double *row;

		if (!until_job_pilot(&u) ||
		    until_job_precise(&u, metrics_nr, pct))
			goto out;
		row = until_job_add(&u, metrics_nr, !failed[i]);
		if (!failed[i] != (row != NULL || !metrics_nr))
			goto out;
		for (size_t m = 0; row && m < metrics_nr; m++)
			row[m] = pilot[k++];
	}
	while (tested < 100 && !until_job_precise(&u, metrics_nr, pct)) {
		if (until_job_pilot(&u) || until_job_add(&u, metrics_nr, true))
			goto out;
		tested++;
	}
	if (tested == 100)
		tested = 0;
out:
	until_job_release(&u);
	return tested;
}

int main(void)
{
	/* Half-width 0.878%: 1% needs the minimum of 5, 0.5% needs 16. */
	static const double tight[UNTIL_PILOT] = {99, 100, 101, 100, 100};
	static const double flat[UNTIL_PILOT] = {7, 7, 7, 7, 7};
	static const double zero[UNTIL_PILOT] = {-1, 0, 1, 0, 0};
	static const bool none[UNTIL_PILOT] = {false};
	static const bool one[UNTIL_PILOT] = {false, false, false, false, true};
	static const bool four[UNTIL_PILOT] = {true, true, false, true, true};
	double two[2 * UNTIL_PILOT];
	struct until_job u = {0};

	ok(until_target(tight, UNTIL_PILOT, 1, 1) == UNTIL_PILOT,
	   "a pilot precise enough asks for the minimum of %d", UNTIL_PILOT);
	ok(until_target(tight, UNTIL_PILOT, 1, 0.5) == 16,
	   "0.5%% of a 0.878%% pilot half-width needs 16 iterations");
	ok(until_target(tight, 1, 1, 50) == SIZE_MAX,
	   "one pilot value has no spread to go by");
	ok(until_target(NULL, 0, 0, 1) == UNTIL_PILOT,
	   "no metrics: the minimum");
	ok(until_target(zero, UNTIL_PILOT, 1, 100) == SIZE_MAX,
	   "a mean of 0: no target");
	ok(job_run(tight, none, 1, 0.5) == 16,
	   "the job runs 16 tested iterations after its pilot");
	ok(job_run(tight, none, 1, 1) == UNTIL_PILOT,
	   "a precise pilot is followed by %d tested iterations", UNTIL_PILOT);
	ok(job_run(flat, none, 1, 0.01) == UNTIL_PILOT,
	   "no spread: the minimum after the pilot");
	ok(job_run(zero, none, 1, 100) == 0,
	   "a mean of 0: the job runs to its maximum");
	ok(job_run(NULL, none, 0, 1) == UNTIL_PILOT,
	   "no metrics: the minimum after the pilot");
	/* Four failures: the pilot has one value, so no spread. */
	ok(job_run(tight, four, 1, 50) == 0,
	   "a pilot of one success runs the job to its maximum");
	/* One failure: the pilot's values are the first four of tight. */
	ok(job_run(tight, one, 1, 0.5) ==
		   until_target(tight, UNTIL_PILOT - 1, 1, 0.5),
	   "a failed pilot iteration leaves a shorter pilot");
	/* Two metrics: a flat one and the tight one, row-major. */
	for (size_t k = 0; k < UNTIL_PILOT; k++) {
		two[2 * k] = flat[k];
		two[2 * k + 1] = tight[k];
	}
	ok(until_target(two, UNTIL_PILOT, 2, 0.5) == 16 &&
		   job_run(two, none, 2, 0.5) == 16,
	   "the metric needing most iterations sets the target");
	for (size_t k = 0; k < UNTIL_PILOT; k++)
		until_job_add(&u, 1, true)[0] = tight[k];
	ok(!until_job_pilot(&u) && !until_job_add(&u, 1, true) &&
		   !until_job_add(&u, 1, false) && u.tested == 1 && u.nr == 5,
	   "after the pilot nothing is kept, and failures do not count");
	until_job_release(&u);
	ok(u.nr == 0 && !u.vals && until_job_pilot(&u),
	   "release empties the job");
	done_testing();
	return exit_status();
}
