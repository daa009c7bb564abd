#ifndef MMCMP_GATE_H
#define MMCMP_GATE_H

#include <stdbool.h>
#include <stddef.h>

#include "stats.h"

struct compare_result;

/*
 * gate: whether a comparison passes in CI (mmcmp compare --fail-on).
 *
 * Only the mean rows of workload tables count: every operation of every
 * benchmark table that is not a monitor table (vmstat, cgroup), once per
 * compared label (the baseline column is not a row). A row qualifies by
 * its verdict (compare_side.verdict):
 *   GATE_REGRESSION    worse
 *   GATE_CHANGE        worse or better
 *   GATE_INCONCLUSIVE  worse, or inconclusive or untested (unsure)
 * or missing: the baseline has samples of its operation and the label
 * none (a benchmark that crashed or stopped printing), under any choice.
 * GATE_FAIL when some row qualifies as a change (worse, better under
 * GATE_CHANGE) or is missing, else GATE_UNSURE when some row is unsure
 * or none was tested at all (a comparison not made never passes), else
 * GATE_PASS. Pure functions: nothing here fails or allocates.
 */

/* The --fail-on choices; GATE_OFF (no --fail-on) after the last. */
enum gate_fail_on {
	GATE_REGRESSION,
	GATE_CHANGE,
	GATE_INCONCLUSIVE,
	GATE_OFF,
};

/*
 * The name of choice i ("regression", "change", "inconclusive"), or NULL
 * when i is past the last: the choices of --fail-on.
 */
const char *gate_fail_on_nth(size_t i);

enum gate_decision {
	GATE_PASS,   /* nothing qualifies */
	GATE_FAIL,   /* a row qualifies as a change: exit 3 */
	GATE_UNSURE, /* an unsure row, or nothing tested: exit 4 */
};

/* How a single row with verdict v counts under fail_on. */
enum gate_decision gate_row(enum gate_fail_on fail_on, enum stats_verdict v);

struct compare_op;

/* Whether the row of op in compared label i (i >= 1) is missing. */
bool gate_missing(const struct compare_op *op, size_t i);

/*
 * How the row of op in compared label i counts under fail_on: GATE_FAIL
 * when it is missing (gate_missing()) and fail_on is not GATE_OFF, else
 * gate_row() of its verdict.
 */
enum gate_decision gate_side(enum gate_fail_on fail_on,
			     const struct compare_op *op, size_t i);

/* The counts behind a decision, over the rows that count. */
struct gate_summary {
	size_t rows;   /* rows that count */
	size_t tested; /* rows with a verdict */
	size_t verdicts[STATS_VERDICT_INCONCLUSIVE + 1]; /* by verdict */
	size_t failed, unsure; /* rows gate_side() flags */
	size_t missing;	       /* of the failed: missing rows */
	enum gate_decision decision;
};

/*
 * Decide res under fail_on (not GATE_OFF) and fill *out; returns
 * out->decision.
 */
enum gate_decision gate_decide(const struct compare_result *res,
			       enum gate_fail_on fail_on,
			       struct gate_summary *out);

#endif /* MMCMP_GATE_H */
