/*
 * Unit tests for until: the precision rule that stops a job. Each row is
 * a job's iteration values (rows of metrics), a percentage and whether
 * the rule stops there. The half-widths in the comments are
 * t(0.975, n - 1) * sd / sqrt(n) as a percentage of the mean, with
 * t(0.975, 2) = 4.302653 and t(0.975, 4) = 2.776445 (R's qt()).
 */
#include "tap.h"
#include "until.h"
#include "util.h"

#define MAX_VALS 12

static const struct {
	const char *name;
	size_t rows, metrics;
	double vals[MAX_VALS]; /* row-major */
	double pct;
	bool want;
} cases[] = {
	{"no spread", 3, 1, {100, 100, 100}, 1, true},
	{"two iterations only", 2, 1, {100, 100}, 50, false},
	{"no iterations", 0, 1, {0}, 50, false},
	/* half-width 2.484% */
	{"2.484% within 2.5%", 3, 1, {99, 100, 101}, 2.5, true},
	{"2.484% beyond 2.4%", 3, 1, {99, 100, 101}, 2.4, false},
	/* half-width 16.36% */
	{"five, 16.36% within 16.5%", 5, 1, {10, 11, 12, 13, 14}, 16.5, true},
	{"five, 16.36% beyond 16.2%", 5, 1, {10, 11, 12, 13, 14}, 16.2, false},
	/* second metric {10, 20, 30}: half-width 124.2% */
	{"one metric imprecise", 3, 2, {99, 10, 100, 20, 101, 30}, 5, false},
	{"both metrics precise", 3, 2, {99, 10, 100, 20, 101, 30}, 125, true},
	{"first metric imprecise", 3, 2, {10, 99, 20, 100, 30, 101}, 5, false},
	{"mean of zero", 3, 1, {-1, 0, 1}, 100, false},
	{"no metrics, three rows", 3, 0, {0}, 1, true},
	{"no metrics, two rows", 2, 0, {0}, 1, false},
};

int main(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		ok(until_precise(cases[i].vals, cases[i].rows, cases[i].metrics,
				 cases[i].pct) == cases[i].want,
		   "%s: %s", cases[i].name,
		   cases[i].want ? "precise" : "not precise");
	/* The same rows through struct until_rows, one at a time. */
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct until_rows r = {0};
		size_t nm = cases[i].metrics;

		for (size_t k = 0; k < cases[i].rows; k++) {
			double *row = until_rows_add(&r, nm);

			for (size_t m = 0; m < nm; m++)
				row[m] = cases[i].vals[k * nm + m];
		}
		ok(r.nr == cases[i].rows &&
			   until_rows_precise(&r, nm, cases[i].pct) ==
				   cases[i].want,
		   "%s, added row by row", cases[i].name);
		until_rows_release(&r);
	}
	done_testing();
	return exit_status();
}
