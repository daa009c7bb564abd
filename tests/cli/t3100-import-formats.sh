#!/bin/sh
# mmcmp import --from hyperfine|gobench|pyperf and detection: compare
# shows what was imported, a second import changes nothing, bad input
# gives exit 2 and leaves the database alone, and export benchstat
# round-trips through import --from gobench --label-by label.
. ./lib.sh
data=../data/import

# unchanged DESCRIPTION: pass when the database lists what it did before.
unchanged() {
	"$MMCMP" list >"$TMP/list.now" 2>&1
	check "$1" cmp "$TMP/list.before" "$TMP/list.now"
}

# hyperfine: each command a label, detected without --from.
expect_status 0 "import a hyperfine export" \
	"$MMCMP" import "$data/hyperfine-commands.json"
expect_status 0 "compare its commands" "$MMCMP" compare "sleep 0.01" "sleep 0.02"
grep_file "$TMP/out" "^Amean     time " "the times are the operation 'time'"
grep_file "$TMP/out" "^Duration Elapsed " "with a Duration table"
"$MMCMP" list >"$TMP/list.before"
expect_status 0 "import the same file again" \
	"$MMCMP" import "$data/hyperfine-commands.json"
grep_file "$TMP/err" "is in the database already; skipped" "is skipped"
unchanged "and changes nothing"

expect_status 0 "a parameter scan, labelled by the parameter" \
	"$MMCMP" import --from hyperfine --label-by n "$data/hyperfine-scan.json"
expect_status 0 "compare the parameter values" "$MMCMP" compare 1 2 3
grep_file "$TMP/out" "^Min       time " "one operation for every value"
expect_status 0 "a matrix, labelled by one parameter" \
	"$MMCMP" import --label-by mode "$data/hyperfine-matrix.json"
expect_status 0 "compare its labels" "$MMCMP" compare a b
grep_file "$TMP/out" "^Amean     n=2 " "the other parameters name the operations"
expect_status 0 "a command that fails every other run (hyperfine -i)" \
	"$MMCMP" import "$data/hyperfine-failing.json"
expect_status 0 "list" "$MMCMP" list
grep_file "$TMP/out" "hyperfine-failing.json  *4 (2)  *2 " \
	"non-zero exit codes are failed iterations without samples"

# gobench: files as labels; pyperf, also gzip-compressed.
expect_status 0 "import Go benchmark files" \
	"$MMCMP" import "$data/gobench-base.txt" "$data/gobench-new.txt"
expect_status 0 "compare them" "$MMCMP" compare gobench-base gobench-new
grep_file "$TMP/out" "^compress/flate" "the pkg is the benchmark"
grep_file "$TMP/out" "^Amean     DecodeDigitsSpeed1e4-8 ns/op " \
	"operations are name and unit"
grep_file "$TMP/out" "^Hmean     DecodeDigitsSpeed1e4-8 MB/s " \
	"better=higher from the Unit line"
expect_status 0 "a configuration key as the label" \
	"$MMCMP" import --label-by sort "$data/gobench-keyed.txt"
expect_status 0 "compare its values" "$MMCMP" compare old new
grep_file "$TMP/out" "^Amean     Sort/size:1e3-4 ns/op " "from one file"
expect_status 0 "import pyperf JSON and JSON.gz" \
	"$MMCMP" import "$data/pyperf-py311.json" "$data/pyperf-py312.json.gz"
expect_status 0 "compare them" "$MMCMP" compare pyperf-py311 pyperf-py312
grep_file "$TMP/out" "^Amean     telco " "benchmarks are operations"
expect_status 0 "show" "$MMCMP" show pyperf-py312
grep_file "$TMP/out" "host: *selma" "metadata gives the machine facts"

# Bad input: exit 2, where it is, nothing imported.
"$MMCMP" list >"$TMP/list.before"
printf '{"results": [{"command": "x", "times": [1, "2"]}]}\n' >"$TMP/bad.json"
expect_status 2 "a bad hyperfine file" \
	"$MMCMP" import "$data/gobench-keyed.txt" "$TMP/bad.json"
grep_file "$TMP/err" "bad.json: results\[0\].times\[1\]: expected a number, found a string" \
	"names the JSON path"
unchanged "nothing is imported, not even the good file"
printf 'BenchmarkX 1 5 ns/op\nBenchmarkX 1 five ns/op\n' >"$TMP/bad.txt"
expect_status 2 "a bad Go benchmark file" "$MMCMP" import --from gobench "$TMP/bad.txt"
grep_file "$TMP/err" "bad.txt:2: 'five' is not a finite number" "names the line"
printf '{"version": "1.0", "benchmarks": [{"runs": []}]}' | gzip >"$TMP/bad.json.gz"
expect_status 2 "a bad pyperf file" "$MMCMP" import "$TMP/bad.json.gz"
grep_file "$TMP/err" "bad.json.gz: benchmarks\[0\].metadata: no benchmark name" \
	"names the JSON path"
head -c 100 "$data/pyperf-py312.json.gz" >"$TMP/cut.json.gz"
expect_status 2 "a cut gzip file" "$MMCMP" import "$TMP/cut.json.gz"
grep_file "$TMP/err" "cut.json.gz: the gzip data ends early" "says so"
# A gzip'd CSV is decompressed whole (up to CSV's limit, not JSON's: the
# 129 MiB case is test-import.c's, at 1 MiB), and then is no CSV.
head -c 4096 /dev/zero | tr '\0' '\n' | gzip -1 >"$TMP/big.csv.gz"
expect_status 2 "a gzip'd CSV of empty lines" "$MMCMP" import "$TMP/big.csv.gz"
grep_file "$TMP/err" "big.csv.gz: empty file, no header" "is read whole, as the CSV it holds"
expect_status 2 "--from forces the format" \
	"$MMCMP" import --from pyperf "$data/hyperfine-commands.json"
grep_file "$TMP/err" "top level: missing member 'version'" "and reads it as that"
expect_status 2 "--label-by for a missing parameter" \
	"$MMCMP" import --label-by nope "$data/hyperfine-commands.json"
grep_file "$TMP/err" "results\[0\].parameters: no parameter 'nope'" "is named"
unchanged "bad input leaves the database as it was"
expect_status 2 "an unknown format" "$MMCMP" import --from nope "$TMP/bad.txt"
grep_file "$TMP/err" "unknown format 'nope' (hyperfine, gobench, pyperf, mmtests, perf-script)" \
	"lists the formats"
printf 'label,benchmark,operation,value\na,b,o,1\n' >"$TMP/a.csv"
expect_status 2 "--label-by on mmcmp's own CSV" \
	"$MMCMP" import --label-by x "$TMP/a.csv"
expect_status 2 "--from without a value" "$MMCMP" import --from

# export benchstat round-trips through import --from gobench.
expect_status 0 "export benchstat" "$MMCMP" export benchstat -o "$TMP/bs.txt" \
	gobench-base gobench-new
grep_file "$TMP/bs.txt" "^label: gobench-base$" "labels are a configuration key"
grep_file "$TMP/bs.txt" "^Unit MB/s better=higher$" "units say their direction"
"$MMCMP" compare gobench-base gobench-new >"$TMP/compare.1"
expect_status 0 "import it into another database" env MMCMP_DB="$TMP/rt.db" \
	"$MMCMP" import --from gobench --label-by label "$TMP/bs.txt"
MMCMP_DB="$TMP/rt.db" "$MMCMP" compare gobench-base gobench-new >"$TMP/compare.2"
# The provenance block names the files imported, which differ: compare
# what follows it.
sed -i '1,/^$/d' "$TMP/compare.1" "$TMP/compare.2"
check "compare prints the same table" cmp "$TMP/compare.1" "$TMP/compare.2"
MMCMP_DB="$TMP/rt.db" "$MMCMP" export benchstat >"$TMP/bs2.txt"
check "and export the same text" cmp "$TMP/bs.txt" "$TMP/bs2.txt"
expect_status 0 "export benchstat of hyperfine runs" "$MMCMP" export benchstat "sleep 0.01"
grep_file "$TMP/out" "^Benchmarktime 1 0.0[0-9]* s$" "one line per iteration"

# Every input is fstat()ed before it is read (N7, N17): a FIFO, a device
# (through a symlink) and a file over the limit of its format are refused
# unread, with exit 2 and the database as it was. timeout bounds the
# wait for a reader that would block.
"$MMCMP" list >"$TMP/list.before"
mkfifo "$TMP/fifo.csv"
expect_status 2 "a FIFO is refused, not read" timeout 60 "$MMCMP" import "$TMP/fifo.csv"
grep_file "$TMP/err" "'.*fifo.csv' is not a regular file (a FIFO)" "and named as one"
ln -s /dev/null "$TMP/null.json"
expect_status 2 "a device through a symlink is refused" \
	timeout 60 "$MMCMP" import "$TMP/null.json"
grep_file "$TMP/err" "null.json' is not a regular file (a character device)" \
	"and named as one"
truncate -s 1100M "$TMP/sparse.csv"
expect_status 2 "a CSV over 1 GiB" "$MMCMP" import "$TMP/sparse.csv"
grep_file "$TMP/err" "sparse.csv: too large (1153433600 bytes, at most 1073741824)" \
	"is refused by its size, before it is read"
printf '{"results": [' >"$TMP/big.json"
truncate -s 129M "$TMP/big.json"
expect_status 2 "a JSON file over 128 MiB" "$MMCMP" import "$TMP/big.json"
grep_file "$TMP/err" "big.json: too large (135266304 bytes, at most 134217728) for JSON" \
	"is refused by its size, at JSON's limit"
expect_status 2 "a hyperfine file over 128 MiB (--from)" \
	"$MMCMP" import --from hyperfine "$TMP/big.json"
grep_file "$TMP/err" "big.json: too large (135266304 bytes, at most 134217728) for JSON" \
	"is refused by its size"
check "without advice for mmcmp's own exports (N19)" \
	sh -c "! grep -q 'export fewer labels' '$TMP/err'"
printf '{\n\t"format":\t"mmcmp-export",' >"$TMP/big.json"
truncate -s 129M "$TMP/big.json"
expect_status 2 "an mmcmp export over 128 MiB" "$MMCMP" import "$TMP/big.json"
grep_file "$TMP/err" "big.json: too large (135266304 bytes, at most 134217728) for JSON; export fewer labels per file" \
	"is refused by its size, with advice for an export"
rm -f "$TMP/sparse.csv" "$TMP/big.json"
# A small gzip file that holds 129 MiB of a hyperfine document: the
# decompression stops at JSON's limit, and detection builds no tree of
# it (N2): within 1 GB of address space, where the tree took gigabytes
# (unbounded in a sanitizer build, see memory_limited).
python3 -c '
import gzip, sys
with gzip.open(sys.argv[1], "wb", compresslevel=1) as f:
    f.write(b"{\"results\":[{\"command\":\"a\",\"times\":[")
    f.write(b"0," * (129 << 19))
    f.write(b"0]}]}")' "$TMP/bomb.json.gz"
expect_status 2 "a gzip'd hyperfine file over 128 MiB" \
	memory_limited 1000000 "$MMCMP" import "$TMP/bomb.json.gz"
grep_file "$TMP/err" "bomb.json.gz: too large (more than 134217728 bytes uncompressed) for JSON" \
	"stops at JSON's limit"
rm -f "$TMP/bomb.json.gz"
unchanged "refused inputs leave the database as it was"

# N19: a CSV column that mmcmp does not read is ignored, as before (a
# note), but warned about: a misspelt "iteration" changes how rows read.
printf 'label,benchmark,operation,value,iteraton,note\ntypo,b,o,1,0,x\n' >"$TMP/typo.csv"
expect_status 0 "a CSV with columns mmcmp does not read imports" \
	"$MMCMP" --db "$TMP/typo.db" import "$TMP/typo.csv"
grep_file "$TMP/err" "typo.csv:1: column 'iteraton' ignored; mmcmp reads label, benchmark, operation, value, unit, better, decimals, iteration" \
	"with a warning for the misspelt column"
grep_file "$TMP/err" "typo.csv:1: column 'note' ignored" "and one for the note"
rm -f "$TMP/typo.csv" "$TMP/typo.db"

# mmcmp's own export of 1M samples (10 MB) imports within 7 times its size
# and 16 MB more of address space: its arrays of samples are read from the
# text, where a cJSON tree of them took 12 times (unbounded in a sanitizer
# build, see memory_limited).
{
	echo label,benchmark,operation,value,iteration
	for i in 0 1 2 3 4 5 6 7 8 9; do
		for o in 0 1 2 3 4 5 6 7 8 9; do echo "big,b,op-$o,1,$i"; done
	done
} >"$TMP/small.csv"
"$MMCMP" --db "$TMP/big.db" import "$TMP/small.csv" >/dev/null
"$MMCMP" --db "$TMP/big.db" export json -o "$TMP/small.json"
rm -f "$TMP/big.db"
python3 -c '
import json, random, sys
random.seed(1)
d = json.load(open(sys.argv[1]))
for it in d["runs"][0]["iterations"]:
    for g in it["samples"]:
        g["values"] = [round(random.gauss(1000, 20), 3) for _ in range(10000)]
json.dump(d, open(sys.argv[2], "w"), separators=(", ", ": "))' \
	"$TMP/small.json" "$TMP/big.json"
limit=$(($(wc -c <"$TMP/big.json") * 7 / 1024 + 16384))
expect_status 0 "an export of 1M samples within 7 times its size" \
	memory_limited "$limit" "$MMCMP" --db "$TMP/big.db" import "$TMP/big.json"
expect_status 0 "list it" "$MMCMP" --db "$TMP/big.db" list
grep_file "$TMP/out" "^ *1  big .* 10  *1000000  complete" "with all its samples"
rm -f "$TMP/small.csv" "$TMP/small.json" "$TMP/big.json" "$TMP/big.db"

done_testing
