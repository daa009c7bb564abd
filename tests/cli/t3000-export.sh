#!/bin/sh
# mmcmp export json|csv and import: round trips of runs and of the mmtests
# examples, merging (skipped uuids, label clashes, --label-prefix,
# --append), strict validation (exit 2, database unchanged), the schema,
# filters, -o, --compare and compare --format json.
. ./lib.sh
data=../data/mmtests
schema=$MMCMP_SRCDIR/docs/export.schema.json
checker=../helpers/schema-check.py

# valid DESCRIPTION FILE...: pass when the files are valid per the schema.
valid() {
	desc=$1
	shift
	if python3 "$checker" "$schema" "$@" >"$TMP/schema.out" 2>&1; then
		ok "$desc"
	else
		not_ok "$desc"
		sed 's/^/# /' "$TMP/schema.out" | head -10
	fi
}

# same DESCRIPTION A B: pass when the files are byte-identical.
same() {
	if cmp -s "$2" "$3"; then
		ok "$1"
	else
		not_ok "$1"
		diff "$2" "$3" | sed 's/^/# /' | head -20
	fi
}

# json EXPR FILE: evaluate a Python expression on the document d.
json() {
	python3 -c "import json, sys; d = json.load(open(sys.argv[2])); print($1)" \
		"$1" "$2"
}

# Runs made by mmcmp run: two of base, one of patched; a warm-up, a
# metric per iteration, a second benchmark whose iterations fail with a
# stderr that is not UTF-8.
cat >"$TMP/run.yaml" <<EOF2
name: export-demo
iterations: 3
warmup: 1
workloads:
  - name: fake
    command: ["$FAKE_BENCH", "--values", "{v},{v}.25"]
    params:
      v: [10, 20]
    operation: "{metric}-{v}"
    metrics:
      - name: total
        unit: ops/s
        better: higher
        extract:
          regex: "total:([0-9.]+)"
      - name: time
        decimals: 4
        extract:
          measure: elapsed
  - name: broken
    shell: true
    command: "printf 'total:1\\\\n'; printf 'bad \\\\377 byte\\\\n' >&2; exit 3"
    metrics:
      - name: total
        extract:
          regex: "total:([0-9.]+)"
EOF2
A="$TMP/a.db"
MA() { "$MMCMP" --db "$A" "$@"; }
expect_status 1 "run base (the broken workload fails)" MA run -q "$TMP/run.yaml" --label base
expect_status 1 "run base again" MA run -q "$TMP/run.yaml" --label base --append
expect_status 1 "run patched" MA run -q "$TMP/run.yaml" --label patched

# JSON round trip: run -> export -> import into an empty database -> export.
expect_status 0 "export json" MA export json
cp "$TMP/out" "$TMP/a.json"
check "export json writes a document" test -s "$TMP/a.json"
valid "the export is valid per docs/export.schema.json" "$TMP/a.json"
check "three runs exported" test "$(json 'len(d["runs"])' "$TMP/a.json")" = 3
check "warm-ups and failed iterations are exported" \
	test "$(json 'sum(i["warmup"] for i in d["runs"][0]["iterations"])' "$TMP/a.json")" = 3
check "the stderr that is not UTF-8 is exported with U+FFFD" \
	grep -q 'bad \\ufffd byte\|bad � byte' "$TMP/a.json"
check "uuids are exported" \
	test "$(json 'len(set(r["uuid"] for r in d["runs"]))' "$TMP/a.json")" = 3
check "summaries use hyperfine's keys, null when undefined" \
	test "$(json 'sorted(d["runs"][0]["operations"][0]["summary"])' "$TMP/a.json")" = \
	"['cv', 'gmean', 'hmean', 'max', 'mean', 'median', 'min', 'n', 'stddev']"
B="$TMP/b.db"
MB() { "$MMCMP" --db "$B" "$@"; }
expect_status 0 "import the export into an empty database" MB import "$TMP/a.json"
check "import succeeds quietly" test ! -s "$TMP/out" -a ! -s "$TMP/err"
MB export json >"$TMP/b.json"
same "exported again: the same document, uuids and all" "$TMP/a.json" "$TMP/b.json"
MA compare --format csv base patched >"$TMP/cmp-a.txt" 2>&1 || true
MB compare --format csv base patched >"$TMP/cmp-b.txt" 2>&1 || true
same "the imported runs compare as the originals" "$TMP/cmp-a.txt" "$TMP/cmp-b.txt"

# Monitors travel: the records of every iteration, compared alike.
if [ -r /proc/vmstat ] && [ -r /proc/stat ] && [ -r /proc/meminfo ]; then
	check "every iteration's monitor record is exported" \
		test "$(json 'sum(i["monitor"] is not None and "pgfault" in i["monitor"]["vmstat"] and "idle" in i["monitor"]["cpu"] and "MemTotal" in i["monitor"]["meminfo_end"] for r in d["runs"] for i in r["iterations"])' "$TMP/a.json")" = \
		"$(json 'sum(len(r["iterations"]) for r in d["runs"])' "$TMP/a.json")"
	check "the imported monitor records are stored" \
		test "$(sqlite3 "$B" 'SELECT count(*) FROM iteration_monitor')" = \
		"$(sqlite3 "$A" 'SELECT count(*) FROM iteration_monitor')"
	# The busy-machine figures travel too, so the note under a table of a
	# run made on a busy machine reads the same after the import.
	fig="SELECT group_concat(coalesce(other_cpu, 'n') || '/' || coalesce(loadavg_start, 'n') || '/' || coalesce(loadavg_end, 'n') || '/' || coalesce(cgroup, 'n'), ' ') FROM (SELECT * FROM iteration_monitor ORDER BY iteration_id)"
	check "the busy-machine figures and cgroup counters are imported as they were" \
		test "$(sqlite3 "$B" "$fig")" = "$(sqlite3 "$A" "$fig")"
	for opt in "" --monitors --monitors=all; do
		# shellcheck disable=SC2086 # $opt is one word or none
		MA compare $opt base patched >"$TMP/mon-a.txt" 2>&1 || true
		# shellcheck disable=SC2086
		MB compare $opt base patched >"$TMP/mon-b.txt" 2>&1 || true
		same "compare ${opt:-(default)}: the same tables after import" \
			"$TMP/mon-a.txt" "$TMP/mon-b.txt"
	done
	grep_file "$TMP/mon-b.txt" "^Ops Minor Faults " "the imported runs have the Ops table"
	grep_file "$TMP/mon-b.txt" "^fake vmstat [a-z]*=[0-9]*$" "and, with --monitors, the counter tables, one per job"
else
	ok "# SKIP /proc/vmstat, /proc/stat or /proc/meminfo cannot be read"
fi

# A version 1 document (no monitor records) still imports.
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["version"] = 1
for r in d["runs"]:
	del r["setup"]
	del r["boots"]
	del r["settings"]
	for i in r["iterations"]:
		del i["monitor"]
		del i["boot"]
json.dump(d, open(sys.argv[2], "w"), indent="\t")
' "$TMP/a.json" "$TMP/v1.json"
V="$TMP/v1.db"
expect_status 0 "a version 1 document imports" "$MMCMP" --db "$V" import "$TMP/v1.json"
check "without monitor records" \
	test "$(sqlite3 "$V" 'SELECT count(*) FROM iteration_monitor')" = 0
"$MMCMP" --db "$V" export json >"$TMP/v1-again.json"
check "and exports as version 7 with null records" \
	test "$(json '(d["version"], set(i["monitor"] for r in d["runs"] for i in r["iterations"]), set(r["setup"] for r in d["runs"]), set(i["boot"] for r in d["runs"] for i in r["iterations"]))' "$TMP/v1-again.json")" = "(7, {None}, {None}, {None})"
expect_status 0 "show --config of a run without a recorded setup" \
	"$MMCMP" --db "$V" show --config patched
grep_file "$TMP/out" "^  setup:     not recorded$" "says so"

# The effective setup: what ran after --iterations and --param.
check "the export has the setup of each run" \
	test "$(json '[(r["setup"]["iterations"], r["setup"]["warmup"], r["setup"]["until"], r["setup"]["params"]) for r in d["runs"]][0]' "$TMP/a.json")" = \
	"(3, 1, None, [{'workload': 'fake', 'name': 'v', 'values': ['10', '20']}])"
MA show --config patched >"$TMP/show-a.txt"
MB show --config patched >"$TMP/show-b.txt"
grep_file "$TMP/show-a.txt" "^  setup:     3 iterations, 1 warm-up per job$" \
	"show --config prints the iteration counts"
grep_file "$TMP/show-a.txt" "^  params:    fake v=10,20$" "and the parameters"
grep_file "$TMP/show-a.txt" "^  config text:$" "next to the config text"
grep '^  setup:\|^  params:' "$TMP/show-a.txt" >"$TMP/setup-a.txt"
grep '^  setup:\|^  params:' "$TMP/show-b.txt" >"$TMP/setup-b.txt"
same "the imported run shows the same setup" "$TMP/setup-a.txt" "$TMP/setup-b.txt"
P="$TMP/param.db"
expect_status 1 "a run with --param and --iterations" "$MMCMP" --db "$P" run -q "$TMP/run.yaml" \
	--label p --param v=30 --iterations 2
expect_status 0 "show --config" "$MMCMP" --db "$P" show --config p
grep_file "$TMP/out" "^  setup:     2 iterations, 1 warm-up per job$" "records the --iterations used"
grep_file "$TMP/out" "^  params:    fake v=30$" "and the --param values used"
grep_file "$TMP/out" "^      v: \[10, 20\]$" "beside the config's own values"

# CSV round trip.
expect_status 0 "export csv" MA export csv
cp "$TMP/out" "$TMP/a.csv"
check "export csv has the import columns" \
	test "$(head -1 "$TMP/a.csv")" = "label,benchmark,operation,value,unit,better,decimals,iteration"
check "one row per sample of measured iterations" \
	test "$(($(wc -l <"$TMP/a.csv") - 1))" = "$(json 'sum(sum(len(g["values"]) for g in i["samples"]) for r in d["runs"] for i in r["iterations"] if not i["warmup"])' "$TMP/a.json")"
C="$TMP/c.db"
expect_status 0 "import the CSV into an empty database" "$MMCMP" --db "$C" import "$TMP/a.csv"
"$MMCMP" --db "$C" export csv >"$TMP/c.csv"
same "CSV exported again: the same bytes" "$TMP/a.csv" "$TMP/c.csv"

# A label's runs through CSV: their iterations, each numbered from 0 in
# its run, stay apart (no run merges into another's units), and an
# interrupted run is left out as compare leaves it out.
X="$TMP/x.db"
printf 'label,benchmark,operation,value,iteration\nbig,b,op,10,0\nbig,b,op,11,1\nbig,b,op,12,2\n' >"$TMP/b1.csv"
printf 'label,benchmark,operation,value,iteration\nbig,b,op,14,0\nbig,b,op,16,1\n' >"$TMP/b2.csv"
printf 'label,benchmark,operation,value,iteration\nbig,b,op,30,0\nbig,b,op,31,1\n' >"$TMP/b3.csv"
printf 'label,benchmark,operation,value,iteration\nsmall,b,op,9,0\nsmall,b,op,9.5,1\nsmall,b,op,9.2,2\n' >"$TMP/s.csv"
"$MMCMP" --db "$X" import "$TMP/b1.csv" "$TMP/s.csv"
"$MMCMP" --db "$X" import --append "$TMP/b2.csv"
"$MMCMP" --db "$X" import --append "$TMP/b3.csv"
sqlite3 "$X" "UPDATE run SET status = 'interrupted' WHERE config_name LIKE '%b3.csv'"
"$MMCMP" --db "$X" export csv >"$TMP/x.csv"
"$MMCMP" --db "$TMP/y.db" import "$TMP/x.csv"
# The table, the change and n lines: not the provenance or the notes
# about runs and storage order, which name what the import made; by
# iteration, as a CSV export keeps no runs for --unit auto to see.
results() {
	"$MMCMP" --db "$1" compare --unit iteration small big 2>&1 |
		grep -v '^Provenance\|^Warning\|^  \|^run \|^warning: order\|^warning: --unit'
}
results "$X" >"$TMP/x.cmp"
results "$TMP/y.db" >"$TMP/y.cmp"
grep_file "$TMP/x.cmp" "n=3/5" "two complete runs of big pool five iterations"
expect_status 0 "compare the imports" "$MMCMP" --db "$X" compare small big
tr '\n' ' ' <"$TMP/out" | tr -s ' ' >"$TMP/flat"
grep_file "$TMP/flat" " big 2 runs, 5 iterations, 5 samples; config .*b1.csv, .*b2.csv " \
	"provenance: the config names of every run pooled"
grep_file "$TMP/flat" "config_name within big: '.*b1.csv' in run [0-9]*, '.*b2.csv' in run [0-9]*" \
	"and a warning that the label's runs differ in them"
same "pooled runs: compare is the same after a CSV round trip" "$TMP/x.cmp" "$TMP/y.cmp"
check "the interrupted run is not exported" test "$(grep -c '^big,b,op,3[01],' "$TMP/x.csv")" = 0

# The mmtests examples, through both formats.
for c in wis-improve trunc-regress wis-nochange; do
	D="$TMP/$c.db"
	"$MMCMP" --db "$D" import "$data/$c.csv"
	"$MMCMP" --db "$D" export json >"$TMP/$c.json"
	"$MMCMP" --db "$D" export csv >"$TMP/$c.csv"
	"$MMCMP" --db "$TMP/$c-j.db" import "$TMP/$c.json"
	"$MMCMP" --db "$TMP/$c-j.db" export json >"$TMP/$c-j.json"
	same "$c: json round trip" "$TMP/$c.json" "$TMP/$c-j.json"
	"$MMCMP" --db "$TMP/$c-c.db" import "$TMP/$c.csv"
	"$MMCMP" --db "$TMP/$c-c.db" export csv >"$TMP/$c-c.csv"
	same "$c: csv round trip" "$TMP/$c.csv" "$TMP/$c-c.csv"
	valid "$c: the export is valid" "$TMP/$c.json"
	base=$(sed -n 2p "$data/$c.csv" | cut -d, -f1)
	other=$(grep -v "^$base," "$data/$c.csv" | sed -n 2p | cut -d, -f1)
	"$MMCMP" --db "$TMP/$c-c.db" compare --test=mmtests --no-titles "$base" "$other" \
		>"$TMP/$c-c.txt" 2>/dev/null || true
	same "$c: after the CSV round trip mmtests' table is unchanged" \
		"$data/$c.txt" "$TMP/$c-c.txt"
done

# Importing the same file twice changes nothing and says so.
expect_status 0 "import the same file again" MB import "$TMP/a.json"
grep_file "$TMP/err" "warning: .*a.json: run [0-9a-f-]* ('base') is in the database already; skipped" \
	"every known run is reported as skipped"
check "three runs reported" test "$(grep -c skipped "$TMP/err")" = 3
MB export json >"$TMP/b2.json"
same "the database is unchanged" "$TMP/a.json" "$TMP/b2.json"

# Another machine's runs of the same labels: a clash.
O="$TMP/other.db"
expect_status 1 "a run on the other machine" "$MMCMP" --db "$O" run -q "$TMP/run.yaml" --label base --iterations 1
"$MMCMP" --db "$O" export json >"$TMP/other.json"
expect_status 2 "a label clash with a different run is refused" MB import "$TMP/other.json"
grep_file "$TMP/err" "other.json: label 'base' already has results; use --append or --label-prefix" \
	"the clash names the file and label"
MB export json >"$TMP/b3.json"
same "nothing was imported" "$TMP/a.json" "$TMP/b3.json"
expect_status 0 "--label-prefix imports it under another label" MB import --label-prefix m2- "$TMP/other.json"
check "the run has the prefixed label" sh -c "'$MMCMP' --db '$B' list | grep -q ' m2-base '"
expect_status 0 "importing it again with the prefix skips it" MB import --label-prefix m2- "$TMP/other.json"
grep_file "$TMP/err" "skipped" "a run is its uuid, whatever its label"
expect_status 1 "a second run on the other machine" "$MMCMP" --db "$O" run -q "$TMP/run.yaml" --label base --iterations 1 --append
"$MMCMP" --db "$O" export json >"$TMP/other2.json"
expect_status 2 "its new run clashes with base" MB import "$TMP/other2.json"
expect_status 0 "--append adds it to the label" MB import --append "$TMP/other2.json"
check "the known run is skipped, the new one added" \
	test "$(grep -c skipped "$TMP/err")" = 1
check "base has three runs now" \
	test "$("$MMCMP" --db "$B" list | grep -c ' base ')" = 3

# Invalid documents: exit 2, FILE: PATH: message, database unchanged.
MB export json >"$TMP/before.json"
# bad NAME SED-SCRIPT MESSAGE
bad() {
	sed "$2" "$TMP/a.json" >"$TMP/$1.json"
	if cmp -s "$TMP/a.json" "$TMP/$1.json"; then
		not_ok "$1: the sed script changed nothing"
		return
	fi
	expect_status 2 "$1 is refused" MB import --append "$TMP/$1.json"
	grep_file "$TMP/err" "^mmcmp: error: .*$1.json: $3" "$1: the message names file and place"
}
bad wrong-type '0,/"label":\t"base"/s//"label":\t7/' \
	'runs\[0\]\.label: expected a string, found a number'
bad missing-member '0,/\t"maxrss_kb":.*/{//d}' \
	'runs\[0\]\.iterations\[0\]: missing member .maxrss_kb.'
bad unknown-member '0,/"status":\t"ok"/s//"status":\t"ok", "stat": 1/' \
	'runs\[0\]\.iterations\[0\]: unknown member .stat.'
bad not-finite '0,/"values":\t\[\([0-9-]\)/s//"values":\t[1e999, \1/' \
	'runs\[0\]\.iterations\[0\]\.samples\[0\]\.values\[0\]: not a finite number'
bad not-a-number '0,/"values":\t\[\([0-9-]\)/s//"values":\t["1", \1/' \
	'runs\[0\]\.iterations\[0\]\.samples\[0\]\.values\[0\]: expected a number, found a string'
bad version 's/"version":\t7,/"version":\t8,/' \
	'version: unsupported version 8 (this mmcmp reads versions 1 to 7)'
bad absurd '0,/"nr_cpus":\t[0-9]*/s//"nr_cpus":\t99999999/' \
	'runs\[0\]\.machine\.nr_cpus: 99999999 is out of range (0 to 1048576)'
# shellcheck disable=SC2016 # a sed script, not a shell expansion
bad truncated '$d' 'the JSON ends early (truncated?) at line'
printf 'not json at all' >"$TMP/junk.json"
expect_status 2 "a file that is not JSON" MB import "$TMP/junk.json"
grep_file "$TMP/err" "junk.json: invalid JSON near line 1, column 1" "the parse error names file, line and column"
expect_status 2 "a good file and a bad one" MB import --label-prefix z- "$data/wis-improve.csv" "$TMP/version.json"
expect_status 2 "a missing file" MB import "$TMP/nosuch.json"
MB export json >"$TMP/after.json"
same "after all that the database is unchanged" "$TMP/before.json" "$TMP/after.json"
expect_status 2 "a bad document into no database" "$MMCMP" --db "$TMP/none.db" import "$TMP/version.json"
check "creates none" test ! -e "$TMP/none.db"

valid "the golden documents of the unit tests are valid" \
	../golden/export.json ../golden/wis-improve.welch.json

# The schema check itself fails on wrong documents.
sed 's/"warmup":\tfalse/"warmup":\t0/' "$TMP/a.json" >"$TMP/s1.json"
sed '0,/"uuid":\t"[0-9a-f-]*"/s//"uuid":\t"X"/' "$TMP/a.json" >"$TMP/s2.json"
sed '0,/"stddev":/s//"stdev":/' "$TMP/a.json" >"$TMP/s3.json"
for f in s1 s2 s3 version; do
	if python3 "$checker" "$schema" "$TMP/$f.json" >"$TMP/schema.out" 2>&1; then
		not_ok "the schema check rejects $f.json"
	else
		ok "the schema check rejects $f.json"
	fi
done
grep_file "$TMP/schema.out" "version: expected 7" "and names the place"

# Filters and -o.
expect_status 0 "export json LABEL" MA export json patched
check "only that label's runs" \
	test "$(json '[r["label"] for r in d["runs"]]' "$TMP/out")" = "['patched']"
expect_status 2 "export of an unknown label" MA export json nosuch
grep_file "$TMP/err" "no runs with label 'nosuch'" "the unknown label is named"
expect_status 0 "export json --benchmark" MA export json --benchmark broken
check "only that benchmark's operations and iterations" \
	test "$(json 'sorted(set(x["benchmark"] for r in d["runs"] for x in r["operations"] + r["iterations"]))' "$TMP/out")" = "['broken']"
valid "a filtered export is valid" "$TMP/out"
expect_status 2 "export of an unknown benchmark" MA export json --benchmark nosuch
expect_status 0 "export csv LABEL --benchmark" MA export csv base --benchmark fake
check "csv filters too" \
	test "$(cut -d, -f1,2 "$TMP/out" | sort -u | tr '\n' ' ')" = "base,fake label,benchmark "
expect_status 0 "export json -o FILE" MA export json -o "$TMP/o.json"
check "-o writes nothing on stdout" test ! -s "$TMP/out"
same "-o writes the document" "$TMP/a.json" "$TMP/o.json"
expect_status 2 "export without a format" MA export
expect_status 2 "export xml" MA export xml

# --compare BASE: the comparison as compare computes it.
expect_status 0 "export json --compare base" MA export json --compare base
cp "$TMP/out" "$TMP/cmp.json"
valid "an export with a comparison is valid" "$TMP/cmp.json"
check "the comparison compares patched with base" \
	test "$(json 'd["comparison"]["labels"]' "$TMP/cmp.json")" = "['base', 'patched']"
MA compare --format json base patched >"$TMP/compare.json"
check "it is what compare --format json prints" \
	test "$(json 'json.dumps(d["comparison"], sort_keys=True)' "$TMP/cmp.json")" = \
	"$(json 'json.dumps(d, sort_keys=True)' "$TMP/compare.json")"
expect_status 2 "--compare with an unknown label" MA export json --compare nosuch
expect_status 2 "--compare with csv" MA export csv --compare base
expect_status 2 "--compare with nothing to compare" MA export json base --compare base

# compare --format json.
D="$TMP/wis-improve.db"
expect_status 0 "compare --format json" "$MMCMP" --db "$D" compare --format json 6.9-vanilla 6.9-patched
cp "$TMP/out" "$TMP/c1.json"
valid "compare --format json is valid" "$TMP/c1.json"
check "every cell: 4 ops x 6 stats x 2 labels" \
	test "$(json 'sum(len(o["cells"]) for b in d["benchmarks"] for o in b["operations"])' "$TMP/c1.json")" = 48
check "a mean cell has its p-value, verdict and n per side" \
	test "$(json '[(c["stat"], c["significant"], c["p_value"] is not None and c["p_value"] < 0.001, c["n_base"], c["n_other"]) for c in d["benchmarks"][0]["operations"][0]["cells"] if c["stat"] == "Hmean"]' "$TMP/c1.json")" = \
	"[('Hmean', False, False, 10, 10), ('Hmean', True, True, 10, 10)]"
check "the percentage matches the text table" \
	test "$(json 'round([c["percentage"] for c in d["benchmarks"][0]["operations"][0]["cells"] if c["stat"] == "Hmean"][1], 2)' "$TMP/c1.json")" = 10.36
expect_status 0 "compare --format json --test=mmtests" "$MMCMP" --db "$D" compare --format json --test=mmtests 6.9-vanilla 6.9-patched
valid "the mmtests mode is valid too" "$TMP/out"
check "no p-values in mmtests mode" \
	test "$(json 'set(c["p_value"] for b in d["benchmarks"] for o in b["operations"] for c in o["cells"])' "$TMP/out")" = "{None}"

done_testing
