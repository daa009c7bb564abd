#!/bin/sh
# mmcmp compare: the order warning and the drift test read the
# iterations' recorded start times, not the order they were stored in.
# An export whose times are rewritten and imported again stores the
# labels one after the other, whatever the times say.
# shellcheck disable=SC2317 # M is defined anew for each database
. ./lib.sh

# Two labels of 6 iterations, one sample each, A's values rising.
{
	echo "label,benchmark,operation,iteration,value,unit,better,decimals"
	for it in 0 1 2 3 4 5; do
		echo "A,bench,op,$it,$((100 + it)),ops/s,higher,2"
	done
	for it in 0 1 2 3 4 5; do
		echo "B,bench,op,$it,$((110 - it % 2)),ops/s,higher,2"
	done
} >"$TMP/ab.csv"
M() { "$MMCMP" --db "$TMP/a.db" "$@"; }
expect_status 0 "import A and B" M import "$TMP/ab.csv"
expect_status 0 "compare the CSV import" M compare A B
# A CSV import stamps every iteration with one time: the stored order
# decides, as before.
grep_file "$TMP/out" "^warning: order: every iteration of A started before every one of B;" \
	"one time for all: the stored order decides"
expect_status 0 "export A and B" M export json A B
cp "$TMP/out" "$TMP/ab.json"

# retime FILE OUT A_START A_STEP B_START B_STEP [A_ORDER]: the export
# with iteration i of A started at A_START + i A_STEP seconds, and of B
# likewise; A_ORDER "reverse" times A's iterations last to first.
retime() {
	python3 - "$@" <<'EOF'
import datetime, json, sys
src, out, a0, ad, b0, bd = sys.argv[1:7]
rev = len(sys.argv) > 7 and sys.argv[7] == "reverse"
d = json.load(open(src))
t0 = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
for run in d["runs"]:
    start, step = (float(a0), float(ad)) if run["label"] == "A" else (float(b0), float(bd))
    its = run["iterations"]
    for k, it in enumerate(its):
        i = len(its) - 1 - k if rev and run["label"] == "A" else k
        t = t0 + datetime.timedelta(seconds=start + i * step)
        it["started_at"] = t.strftime("%Y-%m-%dT%H:%M:%SZ")
json.dump(d, open(out, "w"))
EOF
}

# Times that interleave (A at 0, 2, 4, ... s, B at 1, 3, 5, ... s),
# stored A first: no order warning.
retime "$TMP/ab.json" "$TMP/mixed.json" 0 2 1 2
M() { "$MMCMP" --db "$TMP/mixed.db" "$@"; }
expect_status 0 "import interleaved times" M import "$TMP/mixed.json"
expect_status 0 "compare interleaved times" M compare A B
check "interleaved times: no order warning" sh -c "! grep -q 'warning: order' '$TMP/out'"

# B's iterations all recorded before A's, though stored after them.
retime "$TMP/ab.json" "$TMP/bfirst.json" 100 1 0 1
M() { "$MMCMP" --db "$TMP/bfirst.db" "$@"; }
expect_status 0 "import B-first times" M import "$TMP/bfirst.json"
expect_status 0 "compare B-first times" M compare A B
grep_file "$TMP/out" "^warning: order: every iteration of B started before every one of A;" \
	"B recorded first: the warning names B first"

# A's drift follows its times: values that rise as they were stored,
# timed last to first, fall in time: Spearman's rho changes sign.
expect_status 0 "compare interleaved times again" \
	"$MMCMP" --db "$TMP/mixed.db" compare A B
grep_file "$TMP/out" "^warning: drift: op A: .*Spearman rho -1\.00 with time" \
	"stored and timed in order: A drifts with rho -1"
retime "$TMP/ab.json" "$TMP/rev.json" 0 2 1 2 reverse
M() { "$MMCMP" --db "$TMP/rev.db" "$@"; }
expect_status 0 "import A timed in reverse" M import "$TMP/rev.json"
expect_status 0 "compare A timed in reverse" M compare A B
grep_file "$TMP/out" "^warning: drift: op A: .*Spearman rho 1\.00 with time" \
	"timed last to first: rho +1"

done_testing
