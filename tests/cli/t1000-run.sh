#!/bin/sh
# mmcmp run: storing samples, labels, --check, --append/--replace, builds
# and interleaving, failing workloads, on_error, timeouts, Ctrl-C.
. ./lib.sh

cat >"$TMP/simple.yaml" <<EOF2
name: simple
iterations: 3
warmup: 1
workloads:
  - name: fake
    command: ["$FAKE_BENCH", "--values", "{v},{v}"]
    params:
      v: [10, 20]
    operation: "op-{v}"
    metrics:
      - name: total
        unit: ops/s
        better: higher
        extract:
          regex: "total:([0-9.]+)"
      - name: time
        extract:
          measure: elapsed
    # two metrics need {metric} in the operation
EOF2
# The config above is invalid on purpose: two metrics, no {metric}.
expect_status 2 "two metrics without {metric} are refused" \
	"$MMCMP" run "$TMP/simple.yaml"
grep_file "$TMP/err" "simple.yaml:[0-9]*:[0-9]*:" "the error names file, line and column"
check "a bad config leaves no database behind" test ! -e "$MMCMP_DB"

sed -i 's/operation: "op-{v}"/operation: "{metric}-{v}"/' "$TMP/simple.yaml"
expect_status 0 "--check on a valid config" "$MMCMP" run --check "$TMP/simple.yaml" --label L
grep_file "$TMP/out" "total-10" "--check lists the operations"
grep_file "$TMP/out" "1+3 iterations" "--check shows warm-up and measured iterations"
check "--check does not create the database" test ! -e "$MMCMP_DB"

expect_status 0 "run a config" "$MMCMP" run "$TMP/simple.yaml" --label base
grep_file "$TMP/out" "base: run 1 complete, 6 iterations (0 failed), 18 samples" \
	"the summary counts measured iterations and samples"
expect_status 0 "list" "$MMCMP" list
grep_file "$TMP/out" " base .* simple .* 6 .* 18  complete" "list shows the run"
expect_status 0 "show" "$MMCMP" show base
grep_file "$TMP/out" "fake total-20 \[ops/s\] higher is better: n=6 mean=20.00" \
	"show gives the samples of an operation, warm-up excluded"
grep_file "$TMP/out" "fake time-10 \[s\] lower is better: n=3" \
	"a measured metric gives one sample per iteration"
expect_status 2 "show of an unknown label" "$MMCMP" show nosuch

# Labels that already have results.
expect_status 2 "a second run of a label is refused" "$MMCMP" run -q "$TMP/simple.yaml" --label base
grep_file "$TMP/err" "label 'base' already has results" "the refusal says why"
expect_status 0 "--append adds a run" "$MMCMP" run -q "$TMP/simple.yaml" --label base --append
check "two runs of base after --append" \
	test "$("$MMCMP" list | grep -c ' base ')" -eq 2
expect_status 0 "--replace replaces them" "$MMCMP" run -q "$TMP/simple.yaml" --label base --replace
check "one run of base after --replace" \
	test "$("$MMCMP" list | grep -c ' base ')" -eq 1
expect_status 2 "--append with --replace" "$MMCMP" run "$TMP/simple.yaml" --append --replace
expect_status 0 "--iterations overrides the config" \
	"$MMCMP" run "$TMP/simple.yaml" --label short --iterations 1
grep_file "$TMP/out" "short: run [0-9]* complete, 2 iterations" "--iterations 1 gives one per job"
expect_status 2 "--iterations 0 is refused" "$MMCMP" run "$TMP/simple.yaml" --iterations 0

# Progress: one updating line on a terminal, nothing when not a terminal.
# progress_re matches a progress line; the terminal check below shows it
# does, so its absence from a real run's stderr means something.
progress_re='\[[0-9]*/[0-9]*\] .*  elapsed .*  ETA'
# A config whose iterations warn; "output without a value" below uses it too.
cat >"$TMP/noparse.yaml" <<EOF2
name: noparse
iterations: 1
workloads:
  - name: quiet
    command: ["$FAKE_BENCH", "--print", "nothing here"]
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
EOF2
expect_status 1 "a run whose iterations warn, stderr not a terminal" \
	"$MMCMP" run "$TMP/noparse.yaml" --label notty
grep_file "$TMP/err" "notty: quiet iteration 1 failed: extract" \
	"the run's stderr holds its warnings"
check "no progress line when stderr is not a terminal" \
	sh -c "! grep -q -- '$progress_re' '$TMP/err'"
check "no carriage return when stderr is not a terminal" \
	sh -c "! grep -q \"\$(printf '\\r')\" '$TMP/err'"
if command -v script >/dev/null; then
	script -qec "'$MMCMP' run '$TMP/simple.yaml' --label tty --iterations 1" \
		/dev/null >"$TMP/tty" 2>&1 || true
	grep_file "$TMP/tty" "\[2/4\] tty total-10 iteration 1/1  elapsed" \
		"on a terminal a progress line shows operation, iteration and elapsed time"
	grep_file "$TMP/tty" "ETA" "the progress line has an ETA"
	grep_file "$TMP/tty" "$progress_re" \
		"the pattern of the check without a terminal finds a progress line"
else
	ok "# SKIP no script(1) to give mmcmp a terminal"
	ok "# SKIP no script(1) to give mmcmp a terminal"
	ok "# SKIP no script(1) to give mmcmp a terminal"
fi

# The program check before the run searches PATH as the run does: a
# directory named like the program is not a program.
mkdir -p "$TMP/bin/mmcmp-no-such-prog"
cat >"$TMP/dironly.yaml" <<EOF2
name: dironly
iterations: 1
workloads:
  - name: d
    command: ["mmcmp-no-such-prog"]
    metrics:
      - { name: t, extract: { measure: elapsed } }
EOF2
expect_status 2 "a program that is only a directory on PATH is refused before the run" \
	env PATH="$TMP/bin:$PATH" "$MMCMP" run -q "$TMP/dironly.yaml" --label dironly
grep_file "$TMP/err" "cannot execute program 'mmcmp-no-such-prog': Permission denied" \
	"the refusal says why"

# The default label is the kernel release.
expect_status 0 "run without --label" "$MMCMP" run -q "$TMP/simple.yaml" --iterations 1
check "the default label is uname -r" \
	sh -c "'$MMCMP' list | grep -q ' $(uname -r) '"

# Builds, interleaved: iterations take turns between the builds, every
# other round reversed, so that b does not always follow a.
cat >"$TMP/builds.yaml" <<EOF2
name: builds
iterations: 3
interleave: true
workloads:
  - name: order
    shell: true
    command: "echo \$BUILD_NAME >> '$TMP/order.log'; echo total:1"
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
builds:
  a: { env: { BUILD_NAME: a } }
  b: { env: { BUILD_NAME: b }, setup: [["sh", "-c", "echo setup-b >> '$TMP/order.log'"]] }
EOF2
expect_status 0 "run with two interleaved builds" "$MMCMP" run -q "$TMP/builds.yaml" --label x
check "each build has its own label" \
	sh -c "'$MMCMP' list | grep -q ' x-a ' && '$MMCMP' list | grep -q ' x-b '"
check "interleaved order with the build setup first" \
	test "$(tr '\n' ' ' <"$TMP/order.log")" = "setup-b a b b a a b "
sed -i 's/interleave: true/interleave: false/' "$TMP/builds.yaml"
rm -f "$TMP/order.log"
expect_status 0 "run with two builds in sequence" "$MMCMP" run -q "$TMP/builds.yaml" --label y
check "sequential order" \
	test "$(tr '\n' ' ' <"$TMP/order.log")" = "a a a setup-b b b b "

# A failing workload does not take down the run. Only the sleeping
# workload has the 1 s limit: under a loaded CI machine an ASan build's
# fake-bench can take more than a second to exit 3, which then read as
# a timeout and not as the exit it is checked for.
cat >"$TMP/fail.yaml" <<EOF2
name: fail
iterations: 2
timeout: 120
workloads:
  - name: mixed
    command: ["$FAKE_BENCH", "--values", "5", "{how}", "{arg}"]
    params:
      how: ["--exit", "--signal"]
      arg: ["3"]
    operation: "op{how}"
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
  - name: slow
    command: ["$FAKE_BENCH", "--values", "5", "--sleep", "30"]
    timeout: 1
    operation: "op--sleep"
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
  - name: good
    command: ["$FAKE_BENCH", "--values", "7"]
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
EOF2
expect_status 1 "failing iterations give exit status 1" "$MMCMP" run "$TMP/fail.yaml" --label f
grep_file "$TMP/err" "iteration 1 failed: exit" "a non-zero exit is reported"
grep_file "$TMP/err" "failed: signal" "a signal is reported"
grep_file "$TMP/err" "failed: timeout" "a timeout is reported"
grep_file "$TMP/out" "f: run [0-9]* complete, 8 iterations (6 failed), 2 samples" \
	"the run goes on after failures"
expect_status 0 "show f" "$MMCMP" show f
grep_file "$TMP/out" "good total \[\] lower is better: n=2 mean=7.00" \
	"the good workload after the failures is stored"

# A failing warm-up iteration is named as such, counted from 1.
sed 's/^iterations: 2/iterations: 1\nwarmup: 1/' "$TMP/fail.yaml" >"$TMP/warm.yaml"
expect_status 1 "failing warm-up iterations" "$MMCMP" run "$TMP/warm.yaml" --label w
grep_file "$TMP/err" "warm-up 1 failed: exit" "a failed warm-up is reported as warm-up 1"

# on_error: abort stops at the first failure.
sed 's/^timeout: 120/timeout: 120\non_error: abort/' "$TMP/fail.yaml" >"$TMP/abort.yaml"
expect_status 1 "on_error: abort" "$MMCMP" run "$TMP/abort.yaml" --label ab
grep_file "$TMP/out" "ab: run [0-9]* failed, 1 iterations (1 failed), 0 samples" \
	"the run stops at the first failure and is marked failed"

# Output without the number marks the iteration failed.
expect_status 1 "output without a value" "$MMCMP" run "$TMP/noparse.yaml" --label np
grep_file "$TMP/err" "no value found" "the missing value is reported"

# Ctrl-C: the workload's process group is stopped, finished iterations stay.
cat >"$TMP/intr.yaml" <<EOF2
name: intr
iterations: 10
workloads:
  - name: slow
    shell: true
    command: "n=\$(cat '$TMP/count' 2>/dev/null || echo 0); echo \$((n+1)) > '$TMP/count'; if [ \$n -ge 2 ]; then touch '$TMP/hanging'; sleep 1000.1013 & sleep 1000.1013; fi; echo total:1"
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
EOF2
"$MMCMP" run "$TMP/intr.yaml" --label intr >"$TMP/out" 2>"$TMP/err" &
pid=$!
wait_file "$TMP/hanging" || true
kill -INT $pid
set +e
wait $pid
st=$?
set -e
check "Ctrl-C exits 130" test "$st" -eq 130
grep_file "$TMP/out" "intr: run [0-9]* interrupted, 2 iterations" \
	"finished iterations are kept, the run is interrupted"
grep_file "$TMP/err" "interrupted" "the interruption is reported"
# The group is killed as mmcmp exits; give a loaded machine time to reap.
check "no workload process is left" wait_for 10 no_process 'slee[p] 1000.1013'
expect_status 0 "list after Ctrl-C" "$MMCMP" list
grep_file "$TMP/out" " intr .* interrupted" "list shows the run as interrupted"

done_testing
