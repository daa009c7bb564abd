#!/bin/sh
# Bounds of the expansion (--param and builds x workloads refused before
# anything is allocated, in bounded memory), per-iteration prepare and
# conclude hooks, and settings written before a run and restored after
# it, also after an interrupt.
set -e
. ./lib.sh

# skip REASON: a TAP line that counts as passed.
skip() {
	ok "# SKIP $1"
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

# bounded CMD...: run CMD with 1 GiB of address space and 60 s at most,
# when this build of mmcmp starts under such a limit (not with ASan).
limit=1048576
if ! (ulimit -v $limit && "$MMCMP" --version) >/dev/null 2>&1; then
	limit=
fi
bounded() {
	if [ -n "$limit" ]; then
		(ulimit -v $limit && exec timeout 60 "$@")
	else
		timeout 60 "$@"
	fi
}
[ -n "$limit" ] || echo "# mmcmp does not start under ulimit -v; memory is not bounded here"

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
grep_file "$TMP/err" "control character in value 1" "the message says why"
expect_status 2 "an escape in a --param value is refused" \
	"$MMCMP" run --check --param "$(printf 'a=1,\033[2J')" "$TMP/params.yaml"
grep_file "$TMP/err" "control character in value 2" "the escape is named"
expect_status 2 "builds x workloads over the limit are refused" \
	bounded "$MMCMP" run --check "$TMP/wide.yaml"
grep_file "$TMP/err" "wide.yaml:[0-9]*:[0-9]*: the run would have more than 10000 operations" \
	"the message names the config file and where"

done_testing
