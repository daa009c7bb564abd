#!/bin/sh
# Bad input changes nothing: `mmcmp run` on every invalid config of
# tests/data/configs/invalid, and on generated ones (a file over 1 MiB,
# encodings other than UTF-8, raw NUL bytes), exits 2 with FILE:LINE:COL
# and neither creates a database nor changes one; `mmcmp import` of
# garbage CSV (random bytes, truncated, huge fields, NUL bytes) exits 2
# with FILE:LINE and imports nothing.
. ./lib.sh

dir=../data/configs/invalid
db="$TMP/existing.db"

# An existing database, whose list and bytes nothing below may change.
cat >"$TMP/good.yaml" <<EOF2
name: good
iterations: 2
workloads:
  - name: w
    command: ["sh", "-c", "echo total:1"]
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
EOF2
"$MMCMP" --db "$db" run -q "$TMP/good.yaml" --label kept
"$MMCMP" --db "$db" list >"$TMP/list-before"
sum_before=$(cksum <"$db")

# expect_config FILE WHERE DESC: run FILE without a database and against
# the existing one; both exit 2 with "FILE:WHERE: " in the error (WHERE a
# LINE:COL, or a pattern for one) and leave no trace.
expect_config() {
	why=""
	set +e
	"$MMCMP" --db "$TMP/none.db" run "$1" >"$TMP/out" 2>"$TMP/err"
	st=$?
	"$MMCMP" --db "$db" run "$1" --label bad >/dev/null 2>"$TMP/err2"
	st2=$?
	set -e
	[ "$st" -eq 2 ] || why="$why exit $st without a database;"
	[ "$st2" -eq 2 ] || why="$why exit $st2 with a database;"
	grep -q "^mmcmp: error: $1:$2: " "$TMP/err" ||
		why="$why no '$1:$2: ' in: $(head -c 300 "$TMP/err");"
	[ ! -e "$TMP/none.db" ] || why="$why a database was created;"
	rm -f "$TMP/none.db"
	if [ -z "$why" ]; then ok "$3"; else not_ok "$3"; echo "#$why"; fi
}

nr=0
for f in "$dir"/*.yaml; do
	where=$(sed -n '1s/^# expect: \([0-9]*:[0-9]*\):.*/\1/p' "$f")
	expect_config "$f" "${where:-NO-EXPECT-LINE}" "invalid config $(basename "$f")"
	nr=$((nr + 1))
done
echo "# $nr invalid configs of $dir"

# Generated: what a text file in the repository cannot hold.
body='workloads:
  - name: w
    command: [echo]
    metrics:
      - name: m
        extract: { regex: "([0-9]+)" }'
{
	printf 'name: x\n%s\n' "$body"
	head -c 1100000 /dev/zero | tr '\0' '#'
	echo
} >"$TMP/huge.yaml"
expect_config "$TMP/huge.yaml" 1:1 "a config over 1 MiB"
printf 'name: x\n%s\n' "$body" | iconv -f UTF-8 -t UTF-16 >"$TMP/utf16.yaml"
expect_config "$TMP/utf16.yaml" 1:1 "a config in UTF-16"
printf 'n\344me: x\n%s\n' "$body" >"$TMP/latin1.yaml"
expect_config "$TMP/latin1.yaml" 1:3 "a config in Latin-1"
printf 'name: "\300\257"\n%s\n' "$body" >"$TMP/overlong.yaml"
expect_config "$TMP/overlong.yaml" 1:8 "an overlong UTF-8 sequence"
printf 'name: "\355\240\200"\n%s\n' "$body" >"$TMP/surrogate.yaml"
expect_config "$TMP/surrogate.yaml" 1:8 "a UTF-16 surrogate in UTF-8"
printf 'name: x\000y\n%s\n' "$body" >"$TMP/nul.yaml"
expect_config "$TMP/nul.yaml" 1:8 "a raw NUL byte"
printf 'name: x\n%s\ndescription: "caf\303' "$body" >"$TMP/cut.yaml"
expect_config "$TMP/cut.yaml" 8:18 "a file cut inside a UTF-8 sequence"
awk 'BEGIN { x = 7; for (i = 0; i < 4096; i++) { x = (x * 16807) % 2147483647; printf "\\0%03o", int(x / 65536) % 256 } }' >"$TMP/random.esc"
printf '%b' "$(cat "$TMP/random.esc")" >"$TMP/random.yaml"
expect_config "$TMP/random.yaml" "[0-9]*:[0-9]*" "4 KiB of random bytes"
# A UTF-8 byte order mark, as some editors write: YAML allows one.
printf '\357\273\277name: x\n%s\n' "$body" >"$TMP/bom.yaml"
check "a config opening with a UTF-8 byte order mark is read" \
	sh -c "'$MMCMP' --db '$TMP/none.db' run --check '$TMP/bom.yaml' >/dev/null 2>&1"

check "the existing database lists the same runs" \
	sh -c "'$MMCMP' --db '$db' list | cmp -s - '$TMP/list-before'"
check "the existing database file is unchanged" test "$(cksum <"$db")" = "$sum_before"

# CSV import.
# expect_csv FILE WHERE DESC: import FILE into the existing database and
# into none: exit 2, "FILE:WHERE" in the error, nothing imported, no
# database created.
expect_csv() {
	why=""
	set +e
	"$MMCMP" --db "$db" import "$1" >"$TMP/out" 2>"$TMP/err"
	st=$?
	set -e
	[ "$st" -eq 2 ] || why="$why exit $st;"
	grep -q "^mmcmp: error: $1:$2" "$TMP/err" ||
		why="$why no '$1:$2' in: $(head -c 300 "$TMP/err");"
	"$MMCMP" --db "$db" list | cmp -s - "$TMP/list-before" ||
		why="$why the list changed;"
	set +e
	"$MMCMP" --db "$TMP/none.db" import "$1" >/dev/null 2>&1
	st=$?
	set -e
	[ "$st" -eq 2 ] || why="$why exit $st without a database;"
	[ ! -e "$TMP/none.db" ] || why="$why a database was created;"
	rm -f "$TMP/none.db"
	if [ -z "$why" ]; then ok "$3"; else not_ok "$3"; echo "#$why"; fi
}

good='label,benchmark,operation,value
imported,b,op,1
imported,b,op,2
'
printf '%s' "$good" >"$TMP/good.csv"
printf '%b' "$(cat "$TMP/random.esc")" >"$TMP/random.csv"
expect_csv "$TMP/random.csv" "" "CSV: 4 KiB of random bytes"
printf '%slabel,b,op,"3' "$good" >"$TMP/quote.csv"
expect_csv "$TMP/quote.csv" 4: "CSV: cut inside a quoted field"
printf '%slabel,b' "$good" >"$TMP/cut.csv"
expect_csv "$TMP/cut.csv" 4: "CSV: cut inside a record"
printf '%simported,b\000x,op,3\n' "$good" >"$TMP/nul.csv"
expect_csv "$TMP/nul.csv" 4: "CSV: a NUL byte"
: >"$TMP/empty.csv"
expect_csv "$TMP/empty.csv" "" "CSV: an empty file"
printf 'what,ever\n1,2\n' >"$TMP/header.csv"
expect_csv "$TMP/header.csv" "" "CSV: no label column"
{
	printf '%simported,b,op,' "$good"
	head -c 2097152 /dev/zero | tr '\0' 7
	echo
} >"$TMP/hugenum.csv"
expect_csv "$TMP/hugenum.csv" 4: "CSV: a 2 MiB number"
check "CSV: the error about a 2 MiB field is short ($(wc -c <"$TMP/err") bytes)" \
	test "$(wc -c <"$TMP/err")" -lt 1000
{
	printf '%simported,' "$good"
	head -c 2097152 /dev/zero | tr '\0' b
	printf ',op,3\n'
} >"$TMP/hugename.csv"
set +e
"$MMCMP" --db "$TMP/huge-name.db" import "$TMP/hugename.csv" >/dev/null 2>"$TMP/err"
st=$?
set -e
check "CSV: a 2 MiB benchmark name is refused (exit $st)" test "$st" -eq 2
printf 'label,benchmark,operation,value\n\377,b,op,1\n' >"$TMP/latin1.csv"
set +e
"$MMCMP" --db "$TMP/latin1.db" import "$TMP/latin1.csv" >/dev/null 2>"$TMP/err"
st=$?
set -e
check "CSV: a label that is not UTF-8 is refused (exit $st)" test "$st" -eq 2

# One transaction: a good file before a bad one imports nothing.
expect_status 2 "CSV: a good file and a bad one" \
	"$MMCMP" --db "$db" import "$TMP/good.csv" "$TMP/quote.csv"
check "CSV: the good file was not imported either" \
	sh -c "'$MMCMP' --db '$db' list | cmp -s - '$TMP/list-before'"
check "CSV: the existing database file is unchanged" test "$(cksum <"$db")" = "$sum_before"

# Without a database, bad input creates none.
set +e
"$MMCMP" --db "$TMP/new.db" import "$TMP/quote.csv" >/dev/null 2>&1
set -e
check "CSV: bad input creates no database" test ! -e "$TMP/new.db"

expect_status 0 "CSV: the good file alone imports" "$MMCMP" --db "$db" import "$TMP/good.csv"

# N8: machine facts with control characters are refused on import, from
# an export and from gobench; facts stored before that are escaped by
# show, as list and compare escape them.
db="$TMP/facts.db"
printf 'label,benchmark,operation,value\nf,b,o,1\nf,b,o,2\n' >"$TMP/f.csv"
expect_status 0 "facts: a run to export" "$MMCMP" --db "$db" import "$TMP/f.csv"
expect_status 0 "facts: its export" "$MMCMP" --db "$db" export json -o "$TMP/f.json"
python3 - "$TMP/f.json" "$TMP/ctl.json" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["runs"][0]
r["label"] = "ctl"
r["machine"]["kernel_release"] = "ker\u001b[2J\u0007\u009b31m"
json.dump(d, open(sys.argv[2], "w"))
EOF2
expect_refused "facts: an export with ESC in a machine fact is refused" \
	"machine fact 'kernel_release' 'ker\\\\x1b\[2J\\\\x07\\\\xc2\\\\x9b31m' contains a control character" \
	"$MMCMP" --db "$TMP/facts2.db" import "$TMP/ctl.json"
printf 'goos: linux\ncpu: Intel\007X\nBenchmarkFoo-8   100   123 ns/op\nPASS\n' >"$TMP/bel.txt"
expect_status 2 "facts: a gobench cpu: line with BEL is refused" \
	"$MMCMP" --db "$TMP/facts2.db" import --from gobench "$TMP/bel.txt"
sqlite3 "$db" "update run set hostname='h'||char(27)||'[2J', kernel_release='k'||char(7),
	cmdline='c'||char(27)||']0;t'||char(7), cpu_model='c'||char(155)||'31m',
	smt='s'||char(27), thp_enabled='t'||char(27), thp_defrag='d'||char(27),
	cpufreq_governor='g'||char(27), kernel_version='v'||char(27),
	mmcmp_version='m'||char(27)||'[2J', config_hash='ab'||char(27)"
expect_status 0 "facts: show a run with control characters in its facts" \
	"$MMCMP" --db "$db" show f
check "facts: show prints no control character" \
	python3 -c "import sys; t = open(sys.argv[1], 'rb').read(); sys.exit(any(c < 32 and c != 10 or c == 127 for c in t) or b'\xc2\x9b' in t)" "$TMP/out"
grep_file "$TMP/out" '^  host:      h\\x1b\[2J$' "facts: the host line is escaped as list escapes it"
grep_file "$TMP/out" '^  mmcmp:     m\\x1b\[2J$' "facts: so is the mmcmp version"

# N14: a config's quick line changes what runs, never the label or what
# is kept: --label, --append and --replace are refused there, and the
# stored run stays.
db="$TMP/quick.db"
for q in "--label precious --replace --iterations 1" "--label=precious" \
	"--append" "--replace" "--iterations 1 --label precious"; do
	cat >"$TMP/evil.yaml" <<EOF2
# quick: $q
name: evil
iterations: 2
monitors: false
workloads:
  - name: w
    command: [sh, -c, "echo total:1"]
    metrics: [{name: t, extract: {regex: "total:([0-9]+)"}}]
EOF2
	if [ ! -e "$db" ]; then
		expect_status 0 "quick: a run to keep" "$MMCMP" --db "$db" run -q --label precious "$TMP/evil.yaml"
	fi
	expect_refused "quick: '$q' is refused" \
		"in the quick line of .*evil.yaml:1: --[a-z]* cannot be given there: a quick line changes what runs" \
		"$MMCMP" --db "$db" run -q --quick "$TMP/evil.yaml"
done
expect_status 0 "quick: list" "$MMCMP" --db "$db" list
check "quick: the kept run is the only one, complete" \
	test "$(grep -c ' complete' "$TMP/out")" = 1
sed -i 's/^# quick: .*/# quick: --iterations 1/' "$TMP/evil.yaml"
expect_status 0 "quick: a quick line that changes the plan runs" \
	"$MMCMP" --db "$db" run -q --quick --label try "$TMP/evil.yaml"

# N6: a config name or job key that an export could not hold is refused
# where it enters, before anything runs or is stored.
long=$(python3 -c 'print("v" * 5000)')
cat >"$TMP/long.yaml" <<EOF2
name: $long
iterations: 1
monitors: false
workloads:
  - name: w
    command: [sh, -c, "echo total:1 {p}"]
    params:
      p: [a]
    metrics: [{name: t, extract: {regex: "total:([0-9]+)"}}]
EOF2
expect_refused "long: a config name of 5000 bytes is refused" \
	"long.yaml:1:7: 'name' too long (5000 bytes, at most 4096)" \
	"$MMCMP" --db "$TMP/long.db" run -q --label L "$TMP/long.yaml"
check "long: the message is short" test "$(wc -c <"$TMP/err")" -lt 300
check "long: no database is made" test ! -e "$TMP/long.db"
sed -i 's/^name: .*/name: short/' "$TMP/long.yaml"
expect_refused "long: --param making a job key of 5002 bytes is refused" \
	"workload 'w': job 'p=vvv.*' too long (5002 bytes, at most 4096)" \
	"$MMCMP" --db "$TMP/long.db" run -q --label L "$TMP/long.yaml" --param "p=$long"
check "long: no database is made for it" test ! -e "$TMP/long.db"

done_testing
