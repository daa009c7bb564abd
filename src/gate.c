/* gate: the pass/fail decision of mmcmp compare --fail-on. */
#include "gate.h"

#include <string.h>

#include "compare.h"
#include "util.h"

static const char *const fail_on_names[] = {
	[GATE_REGRESSION] = "regression",
	[GATE_CHANGE] = "change",
	[GATE_INCONCLUSIVE] = "inconclusive",
};

const char *gate_fail_on_nth(size_t i)
{
	return i < ARRAY_SIZE(fail_on_names) ? fail_on_names[i] : NULL;
}

enum gate_decision gate_row(enum gate_fail_on fail_on, enum stats_verdict v)
{
	if (fail_on == GATE_OFF)
		return GATE_PASS;
	if (v == STATS_VERDICT_WORSE)
		return GATE_FAIL;
	if (v == STATS_VERDICT_BETTER && fail_on == GATE_CHANGE)
		return GATE_FAIL;
	if ((v == STATS_VERDICT_INCONCLUSIVE || v == STATS_VERDICT_UNTESTED) &&
	    fail_on == GATE_INCONCLUSIVE)
		return GATE_UNSURE;
	return GATE_PASS;
}

bool gate_missing(const struct compare_op *op, size_t i)
{
	const struct compare_side *base = &op->side[0], *sd = &op->side[i];

	return base->present && base->sum.n > 0 &&
	       (!sd->present || sd->sum.n == 0);
}

enum gate_decision gate_side(enum gate_fail_on fail_on,
			     const struct compare_op *op, size_t i)
{
	if (fail_on != GATE_OFF && gate_missing(op, i))
		return GATE_FAIL;
	return gate_row(fail_on, op->side[i].verdict);
}

enum gate_decision gate_decide(const struct compare_result *res,
			       enum gate_fail_on fail_on,
			       struct gate_summary *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t bi = 0; bi < res->bench_nr; bi++) {
		const struct compare_bench *b = &res->bench[bi];

		for (size_t o = 0; !b->monitor && o < b->ops_nr; o++) {
			for (size_t i = 1; i < res->runs_nr; i++) {
				enum stats_verdict v =
					b->ops[o].side[i].verdict;

				if (v > STATS_VERDICT_INCONCLUSIVE)
					BUG("verdict %d", (int)v);
				out->rows++;
				out->tested += v != STATS_VERDICT_UNTESTED;
				out->verdicts[v]++;
				switch (gate_side(fail_on, &b->ops[o], i)) {
				case GATE_FAIL:
					out->failed++;
					out->missing +=
						gate_missing(&b->ops[o], i);
					break;
				case GATE_UNSURE:
					out->unsure++;
					break;
				case GATE_PASS:
					break;
				}
			}
		}
	}
	if (out->failed)
		out->decision = GATE_FAIL;
	else if (out->unsure || !out->tested)
		out->decision = GATE_UNSURE;
	else
		out->decision = GATE_PASS;
	return out->decision;
}
