#!/bin/sh
# Housekeeping: run refuses a database it would throw away, -o replaces
# files whole and never the database, names obey one set of limits on
# the way in and are escaped on the way out, list and show tell where
# runs ran and why iterations failed, run --quick and run -, did-you-mean
# for commands and labels, mmcmp help CMD, and imports that merge the
# benchmarks of one label.
. ./lib.sh

cat >"$TMP/one.yaml" <<EOF2
name: one
iterations: 2
workloads:
  - name: w
    command: ["$FAKE_BENCH", "--values", "5"]
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
EOF2

# --db :memory: for run: refused before anything runs.
# The config of one.yaml, with a setup command that leaves a marker.
{
	sed -n '1,2p' "$TMP/one.yaml"
	printf 'setup:\n  - ["touch", "%s"]\n' "$TMP/ran"
	sed -n '3,$p' "$TMP/one.yaml"
} >"$TMP/marker.yaml"
# So are the URIs of in-memory and temporary databases, for run and
# import.
printf 'label,benchmark,operation,value\nm,b,op,1\n' >"$TMP/m.csv"
for db in :memory: file::memory: 'file:mem?mode=memory' 'file:?cache=shared'; do
	expect_status 2 "run --db $db is refused" \
		"$MMCMP" --db "$db" run "$TMP/marker.yaml"
	grep_file "$TMP/err" "'$db' \(would throw the results away\|is a URI\)" "the refusal says why"
	check "nothing ran for --db $db" test ! -e "$TMP/ran"
	expect_status 2 "import --db $db is refused" \
		"$MMCMP" --db "$db" import "$TMP/m.csv"
	grep_file "$TMP/err" "'$db' \(would throw the results away\|is a URI\)" "import: the refusal says why"
done
expect_status 0 "run --check --db :memory: still works" \
	"$MMCMP" --db :memory: run --check "$TMP/marker.yaml"

# -o: the old file survives a failed write, the database is never the
# output.
"$MMCMP" run -q "$TMP/one.yaml" --label base
"$MMCMP" run -q "$TMP/one.yaml" --label new
sum_db=$(cksum <"$MMCMP_DB")
for f in "$MMCMP_DB" "$MMCMP_DB-wal" "$MMCMP_DB-shm"; do
	expect_status 2 "export -o $(basename "$f") is refused" \
		"$MMCMP" export json -o "$f"
	grep_file "$TMP/err" "is the database" "the refusal of $(basename "$f") says why"
done
ln "$MMCMP_DB" "$TMP/hard.db"
expect_status 2 "export -o a hard link of the database is refused" \
	"$MMCMP" export csv -o "$TMP/hard.db"
rm -f "$TMP/hard.db"
expect_status 2 "compare -o the database is refused" \
	"$MMCMP" compare base new -o "$MMCMP_DB"
check "the database is intact" test "$(cksum <"$MMCMP_DB")" = "$sum_db"
expect_status 0 "list after the refusals" "$MMCMP" list
grep_file "$TMP/out" " new " "the runs are still there"

echo "old contents" >"$TMP/out.csv"
chmod 0640 "$TMP/out.csv"
# A file size limit of 64 KiB, with SIGXFSZ ignored, fails the write of
# an export of 80 KiB (EFBIG) after its first bytes; the database's own
# files stay below it.
"$MMCMP" run -q "$TMP/one.yaml" --label big --iterations 200
expect_status 1 "an export that cannot be written fails" \
	sh -c 'trap "" XFSZ; ulimit -f 128; exec "$@"' sh \
	"$MMCMP" export json big -o "$TMP/out.csv"
check "a failed export leaves the old file" \
	grep -q "old contents" "$TMP/out.csv"
check "a failed export leaves no temporary file" \
	test -z "$(find "$TMP" -name '.out.csv.*')"
expect_status 0 "export -o replaces the file" "$MMCMP" export csv -o "$TMP/out.csv"
grep_file "$TMP/out.csv" "^base,w,total,5" "the file holds the export"
check "the replaced file keeps its mode" \
	test "$(stat -c %a "$TMP/out.csv")" = 640
ln -s out.csv "$TMP/link.csv"
expect_status 0 "export -o a symbolic link" "$MMCMP" export csv base -o "$TMP/link.csv"
check "the link is kept" test -L "$TMP/link.csv"
check "the file it points to is replaced" \
	sh -c "! grep -q '^big,' '$TMP/out.csv' && grep -q '^base,' '$TMP/out.csv'"
mkdir "$TMP/ro"
echo "old contents" >"$TMP/ro/out.csv"
chmod 0555 "$TMP/ro"
if [ ! -w "$TMP/ro" ]; then
	expect_status 1 "export -o in a directory without write access fails" \
		"$MMCMP" export csv -o "$TMP/ro/out.csv"
	check "the file in it is unchanged" grep -q "old contents" "$TMP/ro/out.csv"
else
	ok "export -o in a directory without write access fails # SKIP root"
	ok "the file in it is unchanged # SKIP root"
fi
chmod 0755 "$TMP/ro"
expect_status 0 "export -o /dev/null writes in place" \
	"$MMCMP" export csv -o /dev/null
check "/dev/null is still a device" test -c /dev/null

# import: the same labels for different benchmarks merge without
# --append; a label that has results for the same benchmark is refused.
I="$TMP/import.db"
printf 'label,benchmark,operation,value\nk1,alpha,op,1\nk1,alpha,op,2\nk2,alpha,op,3\nk2,alpha,op,4\n' >"$TMP/a.csv"
printf 'label,benchmark,operation,value\nk1,beta,op,5\nk1,beta,op,6\nk2,beta,op,7\nk2,beta,op,8\n' >"$TMP/b.csv"
printf 'label,benchmark,operation,value\nk1,gamma,op,9\nk2,gamma,op,9\n' >"$TMP/c.csv"
expect_status 0 "import of two benchmarks of the same labels" \
	"$MMCMP" --db "$I" import "$TMP/a.csv" "$TMP/b.csv"
expect_status 0 "a third benchmark in a later import" \
	"$MMCMP" --db "$I" import "$TMP/c.csv"
expect_status 0 "compare the merged labels" "$MMCMP" --db "$I" compare k1 k2
grep_file "$TMP/out" "alpha" "the table has the first benchmark"
grep_file "$TMP/out" "beta" "the table has the second benchmark"
grep_file "$TMP/out" "gamma" "the table has the third benchmark"
sum_i=$(cksum <"$I")
expect_status 2 "the same benchmark of a label again is refused" \
	"$MMCMP" --db "$I" import "$TMP/c.csv"
grep_file "$TMP/err" "c.csv: label 'k1' already has results; use --append or --label-prefix (both have benchmark 'gamma')" \
	"the refusal names file, label and benchmark"
check "the refused import changes nothing" test "$(cksum <"$I")" = "$sum_i"
expect_status 2 "two files with the same benchmark of a label are refused" \
	"$MMCMP" --db "$TMP/import2.db" import "$TMP/a.csv" "$TMP/a.csv"
expect_status 0 "--append still adds a run of the same benchmark" \
	"$MMCMP" --db "$I" import --append "$TMP/c.csv"

# list shows kernel and host; show lists the failed iterations; run's
# warning gives the exit status.
L="$TMP/list.db"
cat >"$TMP/fail.yaml" <<EOF2
name: fail
iterations: 2
workloads:
  - name: bad
    command: ["$FAKE_BENCH", "--stderr", "disk on fire", "--stderr", "giving up", "--exit", "3"]
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
  - name: killed
    command: ["$FAKE_BENCH", "--signal", "KILL"]
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
EOF2
expect_status 1 "a run with failing iterations" \
	"$MMCMP" --db "$L" run "$TMP/fail.yaml" --label f
grep_file "$TMP/err" "f: bad iteration 1 failed: exit status 3: disk on fire" \
	"the warning gives the exit status"
grep_file "$TMP/err" "f: killed iteration 2 failed: signal 9" \
	"the warning gives the signal"
expect_status 0 "list" "$MMCMP" --db "$L" list
grep_file "$TMP/out" "^  id  label  started  *kernel  *host  *config" \
	"list has kernel and host columns"
grep_file "$TMP/out" "^   1  f  .* $(uname -r)  *$(uname -n)  *fail " \
	"list shows the kernel release and host of the run"
expect_status 0 "show f" "$MMCMP" --db "$L" show f
grep_file "$TMP/out" "^  failed iterations:" "show lists the failed iterations"
grep_file "$TMP/out" "^    bad iteration 2: exit status 3$" "show gives the exit status"
grep_file "$TMP/out" "^      disk on fire$" "show gives the stderr tail"
grep_file "$TMP/out" "^      giving up$" "show gives all of the stderr tail"
grep_file "$TMP/out" "^    killed iteration 1: signal 9$" "show gives the signal"
expect_status 0 "show of a run without failures" "$MMCMP" show base
check "no failed iterations listed when none failed" \
	sh -c "! grep -q 'failed iterations' '$TMP/out'"

# The stderr a warning quotes is escaped as show escapes it: no escape
# sequence reaches the terminal.
cat >"$TMP/esc.yaml" <<EOF2
name: esc
iterations: 1
workloads:
  - name: e
    shell: true
    command: 'printf "bad \\033[31mred\\033[0m\\n" >&2; exit 3'
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
EOF2
expect_status 1 "a run whose workload writes escape sequences" \
	"$MMCMP" --db "$TMP/esc.db" run "$TMP/esc.yaml" --label esc
# Its every iteration failed: the run is stored failed, and says so.
grep_file "$TMP/out" "^esc: run 1 failed, 1 iterations (1 failed), 0 samples$" \
	"the run's last line gives the status stored"
grep_file "$TMP/err" 'iteration 1 failed: exit status 3: bad \\x1b\[31mred\\x1b\[0m$' \
	"the warning escapes them as \\x1b"
check "no ESC byte reaches stderr" sh -c "! LC_ALL=C grep -q \"\$(printf '\\033')\" '$TMP/err'"

# Names: run and import store only what their export can hold.
N="$TMP/names.db"
cat >"$TMP/param.yaml" <<EOF2
name: param
iterations: 1
setup:
  - ["touch", "$TMP/ran"]
workloads:
  - name: w
    command: ["$FAKE_BENCH", "--values", "5", "--print", "{v}"]
    params:
      v: [a]
    operation: "{metric}-{v}"
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
EOF2
long=$(awk 'BEGIN { while (i++ < 5000) printf "x" }')
rm -f "$TMP/ran"
expect_status 2 "a 5000-byte operation name is refused" \
	"$MMCMP" --db "$N" run "$TMP/param.yaml" --param "v=$long"
grep_file "$TMP/err" "workload 'w': job 'v=xxx.*' too long (5002 bytes, at most 4096)" \
	"the refusal names workload, parameters and limit"
check "nothing ran for the long operation name" test ! -e "$TMP/ran"
check "no database for the long operation name" test ! -e "$N"
expect_status 2 "--check refuses the long operation name too" \
	"$MMCMP" --db "$N" run --check "$TMP/param.yaml" --param "v=$long"
expect_status 2 "an escape character in an operation name is refused" \
	"$MMCMP" --db "$N" run "$TMP/param.yaml" --param "v=$(printf 'a\033[2J')"
grep_file "$TMP/err" "value 1 'a\\\\x1b\[2J' contains a control character" \
	"the refusal shows the escape escaped"
expect_status 2 "a label that is not UTF-8 is refused" \
	"$MMCMP" --db "$N" run "$TMP/param.yaml" --label "$(printf 'k\377')"
grep_file "$TMP/err" "label 'k\\\\xff' is not UTF-8" "the refusal says why"
check "nothing ran for the bad label" test ! -e "$TMP/ran"
check "no database for the bad names" test ! -e "$N"

printf 'label,benchmark,operation,value\nok,b,o,1\n"k\033[31m",b,o,2\n' >"$TMP/esc.csv"
expect_status 2 "import of a label with an escape character is refused" \
	"$MMCMP" --db "$N" import "$TMP/esc.csv"
grep_file "$TMP/err" "esc.csv:3: label 'k\\\\x1b\[31m' contains a control character" \
	"the refusal names FILE:LINE"
printf 'label,benchmark,operation,value\n"k\377",b,o,2\n' >"$TMP/utf.csv"
expect_status 2 "import of a label that is not UTF-8 is refused" \
	"$MMCMP" --db "$N" import "$TMP/utf.csv"
grep_file "$TMP/err" "utf.csv:2: label 'k\\\\xff' is not UTF-8" "the refusal names FILE:LINE"
printf 'label,benchmark,operation,value\nk,b,%s,2\n' "$long" >"$TMP/long.csv"
expect_status 2 "import of a 5000-byte operation name is refused" \
	"$MMCMP" --db "$N" import "$TMP/long.csv"
grep_file "$TMP/err" "long.csv:2: operation too long (5000 bytes, at most 4096)" \
	"the refusal names FILE:LINE"
expect_status 2 "a --label-prefix that makes a label too long is refused" \
	"$MMCMP" --db "$N" import --label-prefix "$long" "$TMP/a.csv"
grep_file "$TMP/err" "a.csv: label too long (5002 bytes, at most 4096)" \
	"the refusal names the file"
"$MMCMP" --db "$I" export json >"$TMP/all.json"
sed 's/"label":\t"k1"/"label":\t"k1\\u001b[31m"/' "$TMP/all.json" >"$TMP/esc.json"
expect_status 2 "import of JSON with an escape in a label is refused" \
	"$MMCMP" --db "$N" import "$TMP/esc.json"
grep_file "$TMP/err" "esc.json: runs\[0\].label: 'k1\\\\x1b\[31m' contains a control character" \
	"the refusal says where"
check "the refused imports stored nothing" \
	test "$("$MMCMP" --db "$N" list | wc -l)" -eq 1

# run --quick, run -, did-you-mean, mmcmp help CMD.
Q="$TMP/quick.db"
{ echo "# quick: --iterations 3"; cat "$TMP/one.yaml"; } >"$TMP/quick.yaml"
expect_status 0 "run --quick" "$MMCMP" --db "$Q" run -q --quick "$TMP/quick.yaml" --label fromquick
expect_status 0 "list" "$MMCMP" --db "$Q" list
grep_file "$TMP/out" " fromquick .* 3  *3  complete$" "--quick applies the quick line"
expect_status 0 "run --quick with options that override it" \
	"$MMCMP" --db "$Q" run -q --quick "$TMP/quick.yaml" --iterations 1 --label mine
expect_status 0 "list" "$MMCMP" --db "$Q" list
grep_file "$TMP/out" " mine .* 1  *1  complete$" "the command line overrides the quick line"
expect_status 2 "run --quick of a config without a quick line" \
	"$MMCMP" --db "$Q" run --quick "$TMP/one.yaml"
grep_file "$TMP/err" "has no '# quick:' line" "the refusal says why"
# An error in the quick line names the line, one of the command line not.
{ echo "name: badquick"; echo "# quick: --iterations 1 --bogus"; sed 1d "$TMP/one.yaml"; } >"$TMP/badquick.yaml"
expect_status 2 "run --quick with an unknown option in the quick line" \
	"$MMCMP" --db "$Q" run --quick "$TMP/badquick.yaml"
grep_file "$TMP/err" "^mmcmp run: error: in the quick line of $TMP/badquick.yaml:2: unknown option '--bogus'$" \
	"the error names the quick line"
expect_status 2 "run --quick with an unknown option of its own" \
	"$MMCMP" --db "$Q" run --quick "$TMP/quick.yaml" --bogus
grep_file "$TMP/err" "^mmcmp run: error: unknown option '--bogus'$" \
	"the error of the command line does not blame the quick line"
expect_status 0 "run --quick --check of a shipped config" \
	"$MMCMP" run --quick --check "$MMCMP_SRCDIR/configs/pagefault.yaml"
grep_file "$TMP/out" "2 iterations each after 0 warm-up" "the shipped quick line is applied"
# shellcheck disable=SC2016 # the inner sh expands its own arguments
expect_status 0 "run - reads the config from stdin" \
	sh -c '"$1" --db "$2" run -q - --label piped <"$3"' sh "$MMCMP" "$Q" "$TMP/one.yaml"
expect_status 0 "list" "$MMCMP" --db "$Q" list
grep_file "$TMP/out" " piped .* one .* 2  *2  complete$" "the piped config ran"
# shellcheck disable=SC2016 # the inner sh expands its own arguments
expect_status 2 "a bad config on stdin" \
	sh -c 'echo "name: [" | "$1" --db "$2" run -' sh "$MMCMP" "$Q"
grep_file "$TMP/err" "^mmcmp: error: <stdin>:" "errors name <stdin>"
# shellcheck disable=SC2016 # the inner sh expands its own arguments
expect_status 0 "run --quick - reads the quick line from stdin" \
	sh -c '"$1" --db "$2" run -q --quick - --label pq <"$3"' sh "$MMCMP" "$Q" "$TMP/quick.yaml"
expect_status 0 "list" "$MMCMP" --db "$Q" list
grep_file "$TMP/out" " pq .* 3  *3  complete$" "the quick line of stdin is applied"

expect_status 2 "an unknown command" "$MMCMP" compre
grep_file "$TMP/err" "unknown command 'compre'; did you mean 'compare'?" \
	"did you mean for a command"
expect_status 2 "an unknown command far from all" "$MMCMP" frobnicate
check "no hint when nothing is close" sh -c "! grep -q 'did you mean' '$TMP/err'"
expect_status 2 "compare of an unknown label" "$MMCMP" --db "$Q" compare fromquick mnie
grep_file "$TMP/err" "no runs with label 'mnie' in .*; did you mean 'mine'?" \
	"did you mean for a label in compare"
expect_status 2 "show of an unknown label" "$MMCMP" --db "$Q" show fromquik
grep_file "$TMP/err" "no runs with label 'fromquik'; did you mean 'fromquick'?" \
	"did you mean for a label in show"
# Every command that looks a label up gives the same hint.
for c in "delete fromquik" "relabel fromquik other" "export csv fromquik" \
	"export json --compare fromquik" "power fromquik"; do
	# shellcheck disable=SC2086
	"$MMCMP" --db "$Q" $c >"$TMP/out" 2>"$TMP/err" || true
	grep_file "$TMP/err" "no runs with label 'fromquik'.*; did you mean 'fromquick'?" \
		"did you mean for a label in ${c% *}"
done
expect_status 0 "list after the hints" "$MMCMP" --db "$Q" list
grep_file "$TMP/out" " fromquick " "the hinted commands changed nothing"
expect_status 0 "mmcmp help show" "$MMCMP" help show
grep_file "$TMP/out" "^usage: mmcmp show" "help CMD prints CMD's help"
"$MMCMP" show --help >"$TMP/show-help"
check "help CMD is CMD --help" cmp -s "$TMP/out" "$TMP/show-help"
expect_status 0 "mmcmp help" "$MMCMP" help
grep_file "$TMP/out" "^usage: mmcmp \[--db PATH\] COMMAND" "help alone prints mmcmp's usage"
grep_file "$TMP/out" "mmcmp help COMMAND" "mmcmp's usage mentions help"
expect_status 2 "mmcmp help of an unknown command" "$MMCMP" help shw
grep_file "$TMP/err" "unknown command 'shw'; did you mean 'show'?" \
	"help names the unknown command"

# Names stored before the limits, with escapes and line breaks, reach
# the terminal escaped; headers cut labels on character boundaries.
E="$TMP/escape.db"
"$MMCMP" --db "$E" run -q "$TMP/one.yaml" --label plain
"$MMCMP" --db "$E" run -q "$TMP/one.yaml" --label other
"$MMCMP" --db "$E" run -q "$TMP/one.yaml" --label utf
if command -v sqlite3 >/dev/null; then
	sqlite3 "$E" "UPDATE run SET label = 'ev' || char(27) || '[2Jil' WHERE label = 'other';
		UPDATE run SET label = 'caf' || char(233) WHERE label = 'utf';
		UPDATE operation SET name = 'to' || char(10) || 'tal'"
	for c in list "show caf$(printf '\303\251')" "compare plain caf$(printf '\303\251')"; do
		# shellcheck disable=SC2086
		"$MMCMP" --db "$E" $c >"$TMP/esc-out" 2>&1 || true
		check "$c: no raw escape character" \
			sh -c "! grep -q \"\$(printf '\\033')\" '$TMP/esc-out'"
	done
	"$MMCMP" --db "$E" list >"$TMP/out"
	grep_file "$TMP/out" ' ev\\x1b\[2Jil ' "list shows the escape as backslash x1b"
	"$MMCMP" --db "$E" show plain >"$TMP/out"
	grep_file "$TMP/out" '^    w to\\ntal \[\]' "show shows a line break as backslash n"
	"$MMCMP" --db "$E" compare plain "$(printf 'ev\033[2Jil')" >"$TMP/out"
	grep_file "$TMP/out" 'ev\\x1b\[2Jil' "compare shows the escaped label"
	check "compare keeps one line per row" \
		sh -c "! grep -q '^tal' '$TMP/out'"
	"$MMCMP" --db "$E" compare --test=mmtests plain "caf$(printf '\303\251')" >"$TMP/out"
	check "the mmtests header cuts a two-byte last character whole" \
		sh -c "iconv -f UTF-8 -t UTF-8 '$TMP/out' >/dev/null && grep -q ' caf\$' '$TMP/out'"
	"$MMCMP" --db "$E" compare plain "caf$(printf '\303\251')" >"$TMP/out"
	check "the default header prints the label whole" \
		sh -c "iconv -f UTF-8 -t UTF-8 '$TMP/out' >/dev/null && grep -q ' caf$(printf '\303\251')\$' '$TMP/out'"
	"$MMCMP" --db "$E" compare --format html plain "caf$(printf '\303\251')" >"$TMP/out"
	check "the HTML header is valid UTF-8" iconv -f UTF-8 -t UTF-8 "$TMP/out" -o /dev/null
else
	for _ in 1 2 3 4 5 6 7 8 9 10; do ok "escapes # SKIP no sqlite3"; done
fi

done_testing
