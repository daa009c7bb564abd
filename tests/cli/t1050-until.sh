#!/bin/sh
# mmcmp run --until: a job stops once its mean is precise enough, and the
# run records why each job stopped.
. ./lib.sh

cat >"$TMP/until.yaml" <<EOF2
name: until
iterations: 20
workloads:
  - name: fake
    command: ["$FAKE_BENCH", "--values", "7,7"]
    operation: op
    metrics:
      - name: total
        extract:
          regex: "total:([0-9.]+)"
EOF2

expect_status 2 "--until 0 is refused" \
	"$MMCMP" run --until 0 "$TMP/until.yaml" --label c
expect_status 2 "--until above 100 is refused" \
	"$MMCMP" run --until 101 "$TMP/until.yaml" --label c
expect_status 0 "run --until 5 on a constant workload" \
	"$MMCMP" run --until 5 "$TMP/until.yaml" --label c
grep_file "$TMP/out" "c: run 1 complete, 5 iterations (0 failed), 10 samples" \
	"it stops after its pilot and the 5 iterations it asks for of at most 20"
expect_status 0 "show --config" "$MMCMP" show --config c
grep_file "$TMP/out" "^  until:     5% (95% confidence half-width of the mean), at most 20 iterations$" \
	"show --config prints the rule"
grep_file "$TMP/out" "^  stopped:   fake: 5 iterations, stopped on precision$" \
	"and why the job stopped"
expect_status 0 "export json" "$MMCMP" export json --output "$TMP/c.json"
grep_file "$TMP/c.json" '"stopped":	"precision"' "the export has the stop reason"
# The pilot is stored as warm-ups are: 5 of them, then 5 measured.
check "the export holds the pilot as 5 warm-ups and 5 measured iterations" \
	test "$(grep -c '"warmup":	true' "$TMP/c.json")" = 5 -a \
	"$(grep -c '"warmup":	false' "$TMP/c.json")" = 5

# The config key, with values that spread: the job runs to the maximum.
cat >"$TMP/spread.yaml" <<EOF2
name: spread
iterations: 4
until: 1
setup: [["/bin/sh", "-c", "rm -f $TMP/n"]]
workloads:
  - name: fake
    shell: true
    command: "n=\$(cat $TMP/n 2>/dev/null || echo 0); n=\$((n + 1)); echo \$n > $TMP/n; echo total:\$((n * 10))"
    operation: op
    metrics:
      - name: total
        extract:
          regex: "total:([0-9.]+)"
EOF2
expect_status 0 "run with until: on values that spread" \
	"$MMCMP" run "$TMP/spread.yaml" --label s
grep_file "$TMP/out" "s: run 2 complete, 4 iterations (0 failed), 4 samples" \
	"it runs to the maximum"
expect_status 0 "show --config of it" "$MMCMP" show --config s
grep_file "$TMP/out" "^  stopped:   fake: 4 iterations, ran to the maximum$" \
	"show --config says so"

done_testing
