#!/bin/sh
# compare --monitors on made-up monitor records (an export edited and
# imported again, so nothing depends on the machine): one table per job
# when a benchmark's iterations ran with different parameters, gauges
# shown as their levels without a test, n/a on a base of 0, and the cgroup table when
# only one label ran in a cgroup.
. ./lib.sh

# Two variants of benchmark w: bs=4k (iterations 1-3) faults about 100
# times, bs=32M (4-6) about 10000. B faults 20% more in bs=4k only:
# pooled over both, that change is lost in the spread of the variants.
printf 'label,benchmark,operation,value,unit,better,decimals,iteration\n' >"$TMP/m.csv"
for l in A B; do
	for i in 1 2 3; do
		printf '%s,w,op-4k,10%s,ops/s,higher,2,%s\n' "$l" "$i" "$i"
		printf '%s,w,op-32M,20%s,ops/s,higher,2,%s\n' "$l" "$i" "$((i + 3))"
	done >>"$TMP/m.csv"
done
expect_status 0 "import runs to give monitors" "$MMCMP" import "$TMP/m.csv"
expect_status 0 "export them" "$MMCMP" export json
python3 - "$TMP/out" "$TMP/m.json" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["runs"]:
    new = r["label"] == "B"
    for it in r["iterations"]:
        k = it["index"]
        small = k <= 3
        it["job"] = "bs=4k" if small else "bs=32M"
        faults = (120 if new else 100) + k if small else 10000 + 10 * k
        # nr_mlock is a level: vmstat has how far it moved, vmstat_end
        # where it ended. A's bs=4k records have no levels, as those of
        # an mmcmp before they were kept: its gauge cells are changes.
        # pgmajfault counts only in B, against a base of 0.
        vm = {"pgfault": faults, "nr_mlock": 1 if new else -1 + (k % 2)}
        end = None
        if new:
            end = {"nr_mlock": 4096 + k, "nr_free_pages": 1000}
        elif not small:
            end = {"nr_mlock": 50 + k, "nr_free_pages": 1000}
        if new:
            vm["pgmajfault"] = 2 + k % 2
        cg, cg_start, cg_end = None, None, None
        if new:
            cg = {"memory.stat.pgfault": faults}
            cg_start = {"memory.current": 4096 * k}
            cg_end = {"memory.current": 8192 * k}
        it["monitor"] = {"interval_s": 0, "vmstat": vm, "vmstat_end": end,
                         "cpu": {},
                         "meminfo_start": {}, "meminfo_end": {},
                         "other_cpu": None, "loadavg_start": None,
                         "loadavg_end": None, "cgroup": cg,
                         "cgroup_start": cg_start, "cgroup_end": cg_end,
                         "samples": [], "perf": None}
json.dump(d, open(sys.argv[2], "w"))
EOF2
rm -f "$MMCMP_DB"
expect_status 0 "import them with made-up monitor records" "$MMCMP" import "$TMP/m.json"

expect_status 0 "compare --monitors" "$MMCMP" compare --monitors A B
cp "$TMP/out" "$TMP/mon.out"
grep_file "$TMP/mon.out" "^w vmstat bs=4k$" "a vmstat table for the bs=4k job"
grep_file "$TMP/mon.out" "^w vmstat bs=32M$" "and one for the bs=32M job"
check "no table pooling both jobs" sh -c "! grep -q '^w vmstat$' '$TMP/mon.out'"
sed -n '/^w vmstat bs=4k$/,/^$/p;/^w vmstat bs=4k$/,/^w vmstat bs=32M$/p' "$TMP/mon.out" >"$TMP/small.out"
grep_file "$TMP/small.out" "^pgfault  *B  .*  n=3/3  worse$" \
	"the 20% more faults of bs=4k are found, 3 iterations a side"
grep_file "$TMP/mon.out" "^pgfault  *B  .*  n=3/3  inconclusive$" \
	"bs=32M's unchanged faults are not"

# Gauges: their levels at the end, no percentage, no test, no verdict;
# changes where the records have no levels, and a footer says so.
grep_file "$TMP/small.out" "^Amean nr_mlock  *-0\.33 (      -)  *4098\.00 (      -) *$" \
	"nr_mlock (a gauge) shows its levels without a percentage"
sed -n '/^w vmstat bs=32M$/,/^w cgroup/p' "$TMP/mon.out" >"$TMP/large.out"
grep_file "$TMP/large.out" "^Amean nr_mlock  *55\.00 (      -)  *4101\.00 (      -) *$" \
	"the levels of both sides where both have them"
grep_file "$TMP/small.out" "^gauge rows of 'A' show how far each gauge moved in an iteration, not its level at the end: its records were made before mmcmp kept the levels$" \
	"the footer names the label whose gauges are changes"
check "only in the table whose records lack the levels" \
	test "$(grep -c '^gauge rows of' "$TMP/mon.out")" -eq 1
check "an unmoved gauge has no row, though its level is not 0" \
	sh -c "! grep -q 'nr_free_pages' '$TMP/mon.out'"
check "and has no change line" sh -c "! grep -q '^nr_mlock ' '$TMP/mon.out'"
grep_file "$TMP/mon.out" "not tested, gauges (levels, not counts.*shown without a test: nr_mlock (B)$" \
	"the footer says why"

# A base of 0: n/a, in the default mode and under --test=mmtests.
grep_file "$TMP/mon.out" "^Amean pgmajfault  *0\.00 (   0\.00%)  *2\.[0-9]* (    n/a) *$" \
	"a counter with a base of 0 reads n/a"
expect_status 0 "compare --monitors --test=mmtests" "$MMCMP" compare --monitors --test=mmtests A B
grep_file "$TMP/out" "^Amean pgmajfault  *0\.00 (   0\.00%)  *2\.[0-9]* (    n/a) *$" \
	"under --test=mmtests too, not mmtests' -99%"
grep_file "$TMP/out" "^Amean nr_mlock  *-0\.33 (      -)  *4098\.00 (      -) *$" \
	"nor a percentage on a gauge"

# Only B ran in a cgroup: its table is there all the same.
grep_file "$TMP/mon.out" "^w cgroup bs=4k$" "a cgroup table though the base has none"
grep_file "$TMP/mon.out" "^Amean memory.current  *- (      -)  *[0-9.]* (      -) *$" \
	"with - for the base, and the cgroup gauge untested"
grep_file "$TMP/mon.out" "^Amean memory.stat.pgfault  *- (      -)  *[0-9.]* (      -) *$" \
	"its counters - too"
grep_file "$TMP/mon.out" "^no cgroup counters of bs=4k for 'A': its column reads -$" \
	"and a footer line says why"
expect_status 0 "compare --monitors B A" "$MMCMP" compare --monitors B A
grep_file "$TMP/out" "^w cgroup bs=32M$" "the cgroup table with the base in a cgroup"
expect_status 0 "compare --monitors --benchmark w" "$MMCMP" compare --monitors --benchmark w A B
check "--benchmark keeps the per-job tables" \
	test "$(grep -c '^w \(vmstat\|cgroup\) bs=' "$TMP/out")" -eq 4

done_testing
