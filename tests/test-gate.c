/*
 * Unit tests for gate: the --fail-on decision on made-up comparisons.
 * Each row is a made-up change (marked or not, the change and its
 * 1 - 2 alpha interval) whose verdict stats_verdict() gives under the
 * case's margin, or an operation a label lacks (untested); the case
 * says what each --fail-on decides.
 */
#include <math.h>
#include <string.h>

#include "tap.h"
#include "compare.h"
#include "gate.h"
#include "stats.h"
#include "util.h"

struct row {
	bool marked;
	double change, low, high; /* NaN change: untested */
	/*
	 * The sides' samples, for untested rows: 0 none (an operation
	 * neither has), 'm' the base has 4 and the label lacks the
	 * operation, 'e' the label has it without samples, 'f' with 1.
	 */
	char base_has;
};

#define MAX_ROWS 3
#define WORSE                                                                  \
	{                                                                      \
		true, -8.0, -9.0, -7.0, 0                                      \
	}
#define BETTER                                                                 \
	{                                                                      \
		true, 8.0, 7.0, 9.0, 0                                         \
	}
#define SAME                                                                   \
	{                                                                      \
		false, 0.3, -1.0, 1.5, 0                                       \
	}
#define NOISE                                                                  \
	{                                                                      \
		false, -3.0, -20.0, 14.0, 0                                    \
	}
#define UNTESTED                                                               \
	{                                                                      \
		false, NAN, NAN, NAN, 0                                        \
	}
#define MISSING                                                                \
	{                                                                      \
		false, NAN, NAN, NAN, 'm'                                      \
	}
#define EMPTY                                                                  \
	{                                                                      \
		false, NAN, NAN, NAN, 'e'                                      \
	}
#define FEW                                                                    \
	{                                                                      \
		false, NAN, NAN, NAN, 'f'                                      \
	}

static const struct {
	const char *name;
	double margin;
	struct row rows[MAX_ROWS];
	size_t rows_nr;
	/* A monitor table's row, which must not count. */
	bool monitor_worse;
	enum gate_decision want[GATE_OFF]; /* by enum gate_fail_on */
} cases[] = {
	{"worse",
	 0,
	 {WORSE, SAME},
	 2,
	 false,
	 {GATE_FAIL, GATE_FAIL, GATE_FAIL}},
	{"better", 0, {BETTER}, 1, false, {GATE_PASS, GATE_FAIL, GATE_PASS}},
	{"same within margin",
	 5,
	 {SAME, SAME},
	 2,
	 false,
	 {GATE_PASS, GATE_PASS, GATE_PASS}},
	{"tiny change without margin",
	 0,
	 {SAME},
	 1,
	 false,
	 {GATE_PASS, GATE_PASS, GATE_UNSURE}},
	{"a marked change inside the margin",
	 10,
	 {WORSE},
	 1,
	 false,
	 {GATE_PASS, GATE_PASS, GATE_PASS}},
	{"inconclusive",
	 5,
	 {NOISE, SAME},
	 2,
	 false,
	 {GATE_PASS, GATE_PASS, GATE_UNSURE}},
	{"untested among tested",
	 5,
	 {SAME, UNTESTED},
	 2,
	 false,
	 {GATE_PASS, GATE_PASS, GATE_UNSURE}},
	{"nothing tested",
	 5,
	 {UNTESTED, UNTESTED},
	 2,
	 false,
	 {GATE_UNSURE, GATE_UNSURE, GATE_UNSURE}},
	{"worse wins over inconclusive",
	 5,
	 {NOISE, UNTESTED, WORSE},
	 3,
	 false,
	 {GATE_FAIL, GATE_FAIL, GATE_FAIL}},
	{"better and inconclusive",
	 5,
	 {BETTER, NOISE},
	 2,
	 false,
	 {GATE_PASS, GATE_FAIL, GATE_UNSURE}},
	/* N13: what the base measured and the other label lacks fails. */
	{"an operation missing in the other label",
	 5,
	 {SAME, MISSING},
	 2,
	 false,
	 {GATE_FAIL, GATE_FAIL, GATE_FAIL}},
	{"an operation without samples in the other label",
	 5,
	 {SAME, EMPTY},
	 2,
	 false,
	 {GATE_FAIL, GATE_FAIL, GATE_FAIL}},
	{"missing, and nothing tested",
	 5,
	 {MISSING, UNTESTED},
	 2,
	 false,
	 {GATE_FAIL, GATE_FAIL, GATE_FAIL}},
	{"one sample is untested, not missing",
	 5,
	 {SAME, FEW},
	 2,
	 false,
	 {GATE_PASS, GATE_PASS, GATE_UNSURE}},
	{"monitor rows do not count",
	 5,
	 {SAME},
	 1,
	 true,
	 {GATE_PASS, GATE_PASS, GATE_PASS}},
};

static const char *const decision_names[] = {"pass", "fail", "unsure"};

/* Build res from case c: bench 0 the workload rows, 1 the monitor row. */
static void build(size_t c, struct compare_result *res,
		  struct compare_bench *bench, struct compare_op *ops,
		  struct compare_side (*sides)[2])
{
	size_t n = cases[c].rows_nr;

	memset(res, 0, sizeof(*res));
	memset(bench, 0, 2 * sizeof(*bench));
	res->runs_nr = 2;
	res->bench = bench;
	res->bench_nr = cases[c].monitor_worse ? 2 : 1;
	bench[0].ops = ops;
	bench[0].ops_nr = n;
	bench[1].ops = ops + MAX_ROWS;
	bench[1].ops_nr = 1;
	bench[1].monitor = true;
	for (size_t r = 0; r <= MAX_ROWS; r++) {
		const struct row worse = WORSE;
		const struct row *row = r < n ? &cases[c].rows[r] : &worse;
		struct stats_change tost = {
			.kind = STATS_CI_BOUNDED,
			.change_pct = row->change,
			.low_pct = row->low,
			.high_pct = row->high,
		};

		memset(&ops[r], 0, sizeof(ops[r]));
		memset(sides[r], 0, sizeof(sides[r]));
		ops[r].side = sides[r];
		sides[r][1].verdict = stats_verdict(row->marked, row->change,
						    &tost, cases[c].margin);
		if (row->base_has) {
			sides[r][0].present = true;
			sides[r][0].sum.n = 4;
			sides[r][1].present = row->base_has != 'm';
			sides[r][1].sum.n = row->base_has == 'f';
		}
	}
}

int main(void)
{
	struct compare_result res;
	struct compare_bench bench[2];
	struct compare_op ops[MAX_ROWS + 1];
	struct compare_side sides[MAX_ROWS + 1][2];

	for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
		struct gate_summary sum;

		build(c, &res, bench, ops, sides);
		for (size_t f = 0; f < GATE_OFF; f++) {
			enum gate_decision got =
				gate_decide(&res, (enum gate_fail_on)f, &sum);

			ok(got == cases[c].want[f] && sum.decision == got,
			   "%s, --fail-on %s: %s, want %s", cases[c].name,
			   gate_fail_on_nth(f), decision_names[got],
			   decision_names[cases[c].want[f]]);
		}
		ok(sum.rows == cases[c].rows_nr, "%s: %zu rows count, want %zu",
		   cases[c].name, sum.rows, cases[c].rows_nr);
		ok(sum.tested + sum.verdicts[STATS_VERDICT_UNTESTED] ==
			   sum.rows,
		   "%s: tested and untested rows add up", cases[c].name);
		{
			size_t missing = 0;

			for (size_t r = 0; r < cases[c].rows_nr; r++)
				missing += cases[c].rows[r].base_has == 'm' ||
					   cases[c].rows[r].base_has == 'e';
			ok(sum.missing == missing && sum.failed >= missing,
			   "%s: %zu missing rows, want %zu", cases[c].name,
			   sum.missing, missing);
		}
	}
	ok(gate_row(GATE_OFF, STATS_VERDICT_WORSE) == GATE_PASS,
	   "no --fail-on flags no row");
	build(10, &res, bench, ops, sides);
	ok(gate_missing(&ops[1], 1) &&
		   gate_side(GATE_OFF, &ops[1], 1) == GATE_PASS,
	   "no --fail-on flags no missing row either");
	is_str(gate_fail_on_nth(0), "regression", "choice 0");
	is_str(gate_fail_on_nth(2), "inconclusive", "choice 2");
	ok(!gate_fail_on_nth(GATE_OFF), "no choice past the last");
	done_testing();
	return exit_status();
}
