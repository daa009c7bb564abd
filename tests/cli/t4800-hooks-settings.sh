#!/bin/sh
# Bounds of the expansion (--param and builds x workloads refused before
# anything is allocated, in bounded memory), per-iteration prepare and
# conclude hooks, and settings written before a run and restored after
# it, also after an interrupt.
. ./lib.sh

# skip REASON: a TAP line that counts as passed.
skip() {
	ok "# SKIP $1"
}

# stop_run PID SIG: send SIG to the run PID, and set st to how it exited.
stop_run() {
	kill -"$2" "$1"
	set +e
	wait "$1"
	st=$?
	set -e
}

# seq_list FROM TO: "FROM,FROM+1,...,TO".
seq_list() {
	seq -s, "$1" "$2"
}

cat >"$TMP/params.yaml" <<'EOF'
name: params
workloads:
  - name: w
    command: [true, "{a}", "{b}"]
    params:
      a: [1]
      b: [1]
    operation: "{metric}-{a}-{b}"
    metrics:
      - name: t
        extract: {measure: elapsed}
EOF

# A small file that expands to millions of operations: 20 workloads of
# 100 x 100 parameter combinations, under 10 builds.
{
	echo "name: wide"
	echo "workloads:"
	for w in $(seq 1 20); do
		cat <<EOF
  - name: w$w
    command: [true, "{a}", "{b}"]
    params:
      a: [$(seq_list 1 100)]
      b: [$(seq_list 1 100)]
    operation: "{metric}-{a}-{b}"
    metrics:
      - name: t
        extract: {measure: elapsed}
EOF
	done
	echo "builds:"
	for b in $(seq 1 10); do
		echo "  b$b:"
	done
} >"$TMP/wide.yaml"

# bounded CMD...: run CMD with 1 GiB of address space (lib.sh's
# memory_limited) and 60 s at most.
bounded() {
	memory_limited 1048576 timeout 60 "$@"
}

expect_status 2 "two --param of 1000 values are refused" \
	bounded "$MMCMP" run --check --param "a=$(seq_list 1 1000)" \
	--param "b=$(seq_list 1 1000)" "$TMP/params.yaml"
grep_file "$TMP/err" "error: --param 'b=...': the run would have more than 10000 operations" \
	"the message names the --param"
expect_status 2 "a --param of 20000 values is refused" \
	bounded "$MMCMP" run --check --param "a=$(seq_list 1 20000)" \
	"$TMP/params.yaml"
grep_file "$TMP/err" "--param 'a=...': the run would have more than 10000" \
	"the message names the --param of 20000 values"
expect_status 2 "a newline in a --param value is refused" \
	"$MMCMP" run --check --param "a=x
y" "$TMP/params.yaml"
grep_file "$TMP/err" "value 1 'x\\\\ny' contains a control character" "the message says why"
expect_status 2 "an escape in a --param value is refused" \
	"$MMCMP" run --check --param "$(printf 'a=1,\033[2J')" "$TMP/params.yaml"
grep_file "$TMP/err" "value 2 '\\\\x1b\\[2J' contains a control character" "the escape is named"
expect_status 2 "builds x workloads over the limit are refused" \
	bounded "$MMCMP" run --check "$TMP/wide.yaml"
grep_file "$TMP/err" "wide.yaml:[0-9]*:[0-9]*: the run would have more than 10000 operations" \
	"the message names the config file and where"

# Hooks: prepare and conclude around every iteration, warm-ups too, in
# the order config, build, workload (conclude the other way round).
cat >"$TMP/hooks.yaml" <<EOF
name: hooks
iterations: 2
warmup: 1
prepare: ["echo P >> '$TMP/hooks.log'"]
conclude: ["echo C >> '$TMP/hooks.log'"]
workloads:
  - name: w
    shell: true
    command: "echo w >> '$TMP/hooks.log'; echo total:1"
    prepare: ["echo WP >> '$TMP/hooks.log'"]
    conclude: ["echo WC >> '$TMP/hooks.log'"]
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
builds:
  a:
    prepare: ["echo BP >> '$TMP/hooks.log'"]
    conclude: ["echo BC >> '$TMP/hooks.log'"]
EOF
expect_status 0 "a run with hooks" "$MMCMP" run -q --label hooks "$TMP/hooks.yaml"
check "prepare ran before each of 3 iterations (1 warm-up + 2)" \
	test "$(grep -c '^P$' "$TMP/hooks.log")" -eq 3
check "the order: config, build, workload prepare; workload; conclude back" \
	test "$(tr '\n' ' ' <"$TMP/hooks.log")" = \
	"$(printf 'P BP WP w WC BC C %.0s' 1 2 3)"
sed -e "s|^prepare: .*|prepare: [\"echo no caches >\&2; exit 5\"]|" \
	"$TMP/hooks.yaml" >"$TMP/bad-prepare.yaml"
: >"$TMP/hooks.log"
expect_status 1 "a failing prepare fails the iterations" \
	"$MMCMP" run --label bad-prepare "$TMP/bad-prepare.yaml"
grep_file "$TMP/err" "bad-prepare-a: w iteration 1 failed: prepare command 'echo no caches >&2; exit 5' failed (exit 5): no caches" \
	"the warning names the prepare command and why"
grep_file "$TMP/out" "bad-prepare-a: run [0-9]* failed, 2 iterations (3 failed)" \
	"the run goes on to the end"
check "the workload did not run" sh -c "! grep -q '^w$' '$TMP/hooks.log'"
sed -e "s|^prepare: .*|prepare: [\"sleep 30.4800\"]|" -e "s|^warmup: .*|warmup: 0\ntimeout: 0.2|" \
	-e "s|^iterations: .*|iterations: 1|" "$TMP/hooks.yaml" >"$TMP/slow-prepare.yaml"
expect_status 1 "a prepare that times out fails the iteration" \
	"$MMCMP" run --label slow-prepare "$TMP/slow-prepare.yaml"
grep_file "$TMP/err" "w iteration 1 failed: prepare command 'sleep 30.4800' timed out after 0.2 s$" \
	"the warning names the command and its timeout"

# Ctrl-C during an iteration: the conclude hooks of the prepares that
# ran still run, to their end.
sed -e "s|command: .*|command: \"touch '$TMP/hooks-hang'; sleep 1000.4800\"|" \
	-e "s|^conclude: .*|conclude: [\"sleep 0.3; echo C >> '$TMP/hooks.log'\"]|" \
	"$TMP/hooks.yaml" >"$TMP/hooks-hang.yaml"
: >"$TMP/hooks.log"
"$MMCMP" run -q --label hooks-intr "$TMP/hooks-hang.yaml" >"$TMP/out" 2>"$TMP/err" &
pid=$!
wait_file "$TMP/hooks-hang" || true
stop_run $pid INT
check "Ctrl-C in an iteration exits 130" test "$st" -eq 130
check "the concludes ran after Ctrl-C, the config's last" \
	test "$(tr '\n' ' ' <"$TMP/hooks.log")" = "P BP WP WC BC C "

# Settings: a path outside /proc/sys and /sys is a config error.
cat >"$TMP/outside.yaml" <<EOF
name: outside
workloads:
  - name: w
    command: [true]
    metrics:
      - {name: t, extract: {measure: elapsed}}
settings:
  /etc/hostname: x
EOF
expect_status 2 "a setting outside /proc/sys and /sys is refused" \
	"$MMCMP" run --check "$TMP/outside.yaml"
grep_file "$TMP/err" "outside.yaml:8:3: setting '/etc/hostname' is not a file under /proc/sys or /sys" \
	"the message says where"

# A setting whose file does not exist stops --check and the run before
# anything is stored.
sed -e "s|/etc/hostname|/proc/sys/vm/no_such_setting|" "$TMP/outside.yaml" >"$TMP/missing.yaml"
expect_status 2 "--check: a setting that does not exist is refused" \
	"$MMCMP" run --check "$TMP/missing.yaml"
grep_file "$TMP/err" "cannot read setting '/proc/sys/vm/no_such_setting': No such file or directory" \
	"the message names the setting"
expect_status 2 "the run stops too" "$MMCMP" run --label missing "$TMP/missing.yaml"
if command -v sqlite3 >/dev/null; then
	check "nothing is stored" \
		test "$(sqlite3 "$MMCMP_DB" "SELECT count(*) FROM run WHERE label = 'missing'")" -eq 0
fi

# A real sysctl, written for the run and put back after it and after
# Ctrl-C: vm.stat_interval (seconds between vmstat updates) is harmless.
sysctl=/proc/sys/vm/stat_interval
if ! old=$(cat $sysctl 2>/dev/null) || ! [ -w $sysctl ] ||
	! (echo "$old" >$sysctl) 2>/dev/null; then
	skip "$sysctl is not writable here (not root, or /proc/sys read-only)"
	done_testing
	exit
fi
new=$((old + 1))
trap 'echo "$old" >$sysctl; rm -rf "$TMP"' EXIT
cat >"$TMP/sysctl.yaml" <<EOF
name: sysctl
iterations: 2
settings:
  $sysctl: $new
workloads:
  - name: w
    shell: true
    command: "echo total:\$(cat $sysctl)"
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
EOF
expect_status 0 "a run with a setting" "$MMCMP" run --label sysctl "$TMP/sysctl.yaml"
check "the old value is back after the run" test "$(cat $sysctl)" = "$old"
if command -v sqlite3 >/dev/null; then
	check "the workload saw the new value" \
		test "$(sqlite3 "$MMCMP_DB" "SELECT DISTINCT s.value FROM sample s JOIN iteration i ON i.id = s.iteration_id JOIN run r ON r.id = i.run_id WHERE r.label = 'sysctl'")" = "$new.0"
	check "the run records the file, old and new value" \
		test "$(sqlite3 "$MMCMP_DB" "SELECT path || ' ' || old_value || ' ' || new_value FROM run_setting JOIN run ON run.id = run_id WHERE label = 'sysctl'")" = "$sysctl $old $new"
else
	skip "no sqlite3 to read the stored values with"
fi
expect_status 0 "show the run with a setting" "$MMCMP" show sysctl
grep_file "$TMP/out" "^  setting:   $sysctl $old -> $new$" \
	"show lists the settings a run wrote, with the value before"
"$MMCMP" export json sysctl -o "$TMP/sysctl.json"
expect_status 0 "import the run with a setting elsewhere" \
	"$MMCMP" --db "$TMP/copy.db" import "$TMP/sysctl.json"
expect_status 0 "show the imported run" "$MMCMP" --db "$TMP/copy.db" show sysctl
grep_file "$TMP/out" "^  setting:   $sysctl $old -> $new$" \
	"export json and import carry the run's settings"
sed '/^settings:$/,/stat_interval/d' "$TMP/sysctl.yaml" >"$TMP/plain.yaml"
expect_status 0 "a run without the setting" "$MMCMP" run -q --label plain "$TMP/plain.yaml"
expect_status 0 "compare the two" "$MMCMP" compare plain sysctl
grep_file "$TMP/out" "^  settings: 'none' in plain, '$sysctl=$new' in sysctl$" \
	"provenance: the settings differ"

# The machine facts are read after the settings are written: a run that
# sets the THP defrag mode is shown with that mode, not the one before.
defrag=/sys/kernel/mm/transparent_hugepage/defrag
if mode=$(sed 's/.*\[\(.*\)\].*/\1/' $defrag 2>/dev/null) && [ -w $defrag ]; then
	other=never
	[ "$mode" = never ] && other=madvise
	trap 'echo "$old" >$sysctl; echo "$mode" >$defrag; rm -rf "$TMP"' EXIT
	cat >"$TMP/defrag.yaml" <<EOF
name: defrag
settings:
  $defrag: $other
workloads:
  - name: w
    command: [true]
    metrics:
      - {name: t, extract: {measure: elapsed}}
EOF
	expect_status 0 "a run that sets the THP defrag mode" \
		"$MMCMP" run -q --label defrag "$TMP/defrag.yaml"
	check "the mode is back after the run" \
		test "$(sed 's/.*\[\(.*\)\].*/\1/' $defrag)" = "$mode"
	expect_status 0 "show it" "$MMCMP" show defrag
	grep_file "$TMP/out" "^  thp: .*, defrag $other$" \
		"show gives the defrag mode the run measured under"
else
	skip "$defrag is not writable here"
fi

sed -e "s|command: .*|command: \"touch '$TMP/hanging'; sleep 1000.4800\"|" \
	"$TMP/sysctl.yaml" >"$TMP/sysctl-hang.yaml"
"$MMCMP" run --label sysctl-intr "$TMP/sysctl-hang.yaml" >"$TMP/out" 2>"$TMP/err" &
pid=$!
wait_file "$TMP/hanging" || true
check "the setting holds while the workload runs" test "$(cat $sysctl)" = "$new"
kill -INT $pid
set +e
wait $pid
st=$?
set -e
check "Ctrl-C exits 130" test "$st" -eq 130
check "the old value is back after Ctrl-C" test "$(cat $sysctl)" = "$old"

# Two runs at once with one setting: a second one that would write
# another value is refused, naming the run that holds it; one with the
# same value shares it, and the old value comes back when the last of
# them ends, though the first ends first.
rm -f "$TMP/hanging"
sed -e "s|hanging|hanging-b|" "$TMP/sysctl-hang.yaml" >"$TMP/sysctl-hang-b.yaml"
sed -e "s|: $new\$|: $((new + 1))|" "$TMP/sysctl.yaml" >"$TMP/sysctl-other.yaml"
"$MMCMP" run --label shared-a "$TMP/sysctl-hang.yaml" >"$TMP/out-a" 2>"$TMP/err-a" &
pid_a=$!
wait_file "$TMP/hanging" || true
expect_status 1 "a second run writing another value is refused" \
	"$MMCMP" run --label other "$TMP/sysctl-other.yaml"
grep_file "$TMP/err" "setting '$sysctl' is held at '$new' by another run (pid $pid_a)" \
	"the message names the run that holds it"
check "the first run's value holds" test "$(cat $sysctl)" = "$new"
"$MMCMP" run --label shared-b "$TMP/sysctl-hang-b.yaml" >"$TMP/out-b" 2>"$TMP/err-b" &
pid_b=$!
wait_file "$TMP/hanging-b" || true
stop_run $pid_a INT
check "the value holds while the second run does" test "$(cat $sysctl)" = "$new"
stop_run $pid_b INT
check "the old value is back after both runs" test "$(cat $sysctl)" = "$old"

# A run killed with SIGKILL cannot restore its settings: the next run
# puts them back, with a warning.
rm -f "$TMP/hanging"
"$MMCMP" run --label killed "$TMP/sysctl-hang.yaml" >"$TMP/out" 2>"$TMP/err" &
pid=$!
wait_file "$TMP/hanging" || true
stop_run $pid KILL
check "the killed run left its value" test "$(cat $sysctl)" = "$new"
expect_status 0 "the next run, without settings" \
	"$MMCMP" run --label after-kill "$TMP/params.yaml"
grep_file "$TMP/err" "setting '$sysctl' put back to '$old' (a run that was killed left '$new')" \
	"the next run says it put the value back"
check "the old value is back after the next run" test "$(cat $sysctl)" = "$old"

done_testing
