/*
 * Unit tests for until: the two-stage rule that stops a job (Stein). The
 * targets themselves are checked against R in test-stats-v3.c (the
 * stein rows); here the rule's shape: nothing is decided before the
 * pilot of UNTIL_PILOT iterations, the job stops at the pilot's target
 * whatever the values after the pilot are, the largest target of the
 * metrics wins, and an undefined spread runs the job to its maximum.
 * The half-widths in the comments are t(0.975, 4) * sd / sqrt(5) in
 * percent of the mean, t(0.975, 4) = 2.776445 (R's qt()).
 */
#include <stdint.h>

#include "tap.h"
#include "until.h"
#include "util.h"

#define ROWS_MAX 40

/* rows rows of one metric: the pilot p[], then after[] repeated. */
static void fill(double *v, size_t rows, const double *p, double after)
{
	for (size_t r = 0; r < rows; r++)
		v[r] = r < UNTIL_PILOT ? p[r] : after * (double)(r % 3 + 1);
}

int main(void)
{
	/* Half-width 0.878%: 1% needs the pilot, 0.5% needs 16. */
	static const double tight[UNTIL_PILOT] = {99, 100, 101, 100, 100};
	static const double flat[UNTIL_PILOT] = {7, 7, 7, 7, 7};
	static const double zero[UNTIL_PILOT] = {-1, 0, 1, 0, 0};
	double v[ROWS_MAX], two[2 * ROWS_MAX];
	struct until_rows r = {0};

	fill(v, ROWS_MAX, tight, 100);
	ok(!until_precise(v, UNTIL_PILOT - 1, 1, 50),
	   "nothing stops before the pilot is complete");
	ok(until_target(v, UNTIL_PILOT - 1, 1, 1) == 0,
	   "and there is no target yet");
	ok(until_precise(v, UNTIL_PILOT, 1, 1),
	   "a pilot precise enough stops at the pilot");
	ok(until_target(v, UNTIL_PILOT, 1, 0.5) == 16,
	   "0.5%% of a 0.878%% pilot half-width needs 16 iterations");
	ok(!until_precise(v, 15, 1, 0.5) && until_precise(v, 16, 1, 0.5),
	   "the job stops at 16, not before");
	fill(v, ROWS_MAX, tight, 1e6);
	ok(until_target(v, 30, 1, 0.5) == 16 && until_precise(v, 16, 1, 0.5),
	   "values after the pilot never change the target");
	fill(v, ROWS_MAX, flat, 7);
	ok(until_precise(v, UNTIL_PILOT, 1, 0.01),
	   "no spread: the pilot suffices");
	fill(v, ROWS_MAX, zero, 1);
	ok(until_target(v, UNTIL_PILOT, 1, 100) == SIZE_MAX &&
		   !until_precise(v, ROWS_MAX, 1, 100),
	   "a mean of 0: the job runs to its maximum");
	ok(until_precise(NULL, UNTIL_PILOT, 0, 1) &&
		   !until_precise(NULL, UNTIL_PILOT - 1, 0, 1),
	   "no metrics: the job stops after the pilot");
	/* Two metrics: the tight one and a flat one, row-major. */
	for (size_t k = 0; k < ROWS_MAX; k++) {
		two[2 * k] = k < UNTIL_PILOT ? flat[k] : 7;
		two[2 * k + 1] = k < UNTIL_PILOT ? tight[k] : 100;
	}
	ok(until_target(two, UNTIL_PILOT, 2, 0.5) == 16,
	   "the metric needing most iterations sets the target");
	for (size_t k = 0; k < 16; k++) {
		double *row = until_rows_add(&r, 2);

		row[0] = two[2 * k];
		row[1] = two[2 * k + 1];
		ok(until_rows_precise(&r, 2, 0.5) == (k + 1 >= 16),
		   "row by row: %zu rows %s", k + 1,
		   k + 1 >= 16 ? "stop" : "go on");
	}
	until_rows_release(&r);
	done_testing();
	return exit_status();
}
