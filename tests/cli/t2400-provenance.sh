#!/bin/sh
# mmcmp compare's provenance block: per label its runs, iterations,
# samples, kernel, host and config; one warning block for what is not
# like for like (THP, --param, iteration counts, a label's own runs); the
# same-kernel note; nothing of it under --test=mmtests.
. ./lib.sh

M() { "$MMCMP" "$@"; }
cat >"$TMP/p.yaml" <<EOF2
name: p
iterations: 3
workloads:
  - name: g
    command: ["$FAKE_BENCH", "--values", "10,11,12", "--stderr", "{loops}"]
    params:
      loops: [2]
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
EOF2
rel=$(uname -r)

expect_status 0 "run base" M run -q "$TMP/p.yaml" --label base
expect_status 0 "run patched" M run -q "$TMP/p.yaml" --label patched
expect_status 0 "compare" M compare base patched
cp "$TMP/out" "$TMP/plain"
grep_file "$TMP/out" "^Provenance$" "the block opens the output"
check "it comes before the first table" \
	test "$(sed -n 1p "$TMP/out")" = Provenance
grep_file "$TMP/out" "^  base     1 run, 3 iterations, 9 samples;" \
	"base: runs, iterations and samples"
grep_file "$TMP/out" "^  patched  1 run, 3 iterations, 9 samples;" "patched too"
tr '\n' ' ' <"$TMP/out" | tr -s ' ' >"$TMP/flat"
grep_file "$TMP/flat" " patched 1 run, 3 iterations, 9 samples; kernel $rel, host $(hostname), config p " \
	"the kernel, host and config name"
grep_file "$TMP/flat" "Note: base and patched ran the same kernel ($rel, one version and config): was the machine rebooted into the kernel under test?" \
	"two labels run one after the other: the same-kernel note"
check "no warning block when nothing differs" \
	sh -c "! grep -q '^Warning' '$TMP/out'"
check "the block is a few lines" \
	test "$(sed '/^$/q' "$TMP/out" | wc -l)" -le 10

# Every format has it.
expect_status 0 "markdown" M compare --format markdown base patched
grep_file "$TMP/out" "^| base | 1 | 3 | 9 | " "markdown: a row per label"
expect_status 0 "html" M compare --format html base patched
grep_file "$TMP/out" "^<h2>Provenance</h2>$" "html: the block"
grep_file "$TMP/out" "^<tr><td>patched</td><td>1</td><td>3</td><td>9</td>" \
	"html: a row per label"
expect_status 0 "csv" M compare --format csv base patched
grep_file "$TMP/out" "^provenance,samples,,base,9,,,,,,,,,,,,,,$" \
	"csv: records of benchmark provenance, as many columns as the cells"
grep_file "$TMP/out" "^provenance,note,,,,,,,,,,,,,,,,,\"base and patched ran the same kernel" \
	"csv: the note, in the text column"
grep_file "$TMP/out" "^provenance,config,,patched,,,,,,,,,,,,,,,p$" \
	"csv: the config name of a label, in the text column"
check "csv: every record has the header's columns" \
	python3 -c 'import csv, sys; r = list(csv.reader(open(sys.argv[1]))); sys.exit(not (r[0][-1] == "text" and all(len(x) == len(r[0]) for x in r)))' "$TMP/out"
expect_status 0 "json" M compare --format json base patched
check "json: the provenance object" \
	test "$(python3 -c 'import json,sys; p=json.load(sys.stdin)["provenance"]; l=p["labels"][1]; print(l["label"], l["runs"], l["iterations"], l["samples"], l["config_name"], len(p["warnings"]), len(p["notes"]))' <"$TMP/out")" = \
	"patched 1 3 9 p 0 1"

# --test=mmtests keeps mmtests' output: no block, not even in JSON.
expect_status 0 "--test=mmtests" M compare --test=mmtests base patched
check "no provenance under --test=mmtests" \
	sh -c "! grep -q 'Provenance\|ran the same kernel' '$TMP/out'"
expect_status 0 "json --test=mmtests" M compare --format json --test=mmtests base patched
check "json: null under --test=mmtests" \
	test "$(python3 -c 'import json,sys; print(json.load(sys.stdin)["provenance"])' <"$TMP/out")" = None

# Differing --param and iteration counts.
expect_status 0 "run with --param" M run -q "$TMP/p.yaml" --label big --param loops=5
expect_status 0 "run with --iterations" M run -q "$TMP/p.yaml" --label short --iterations 2
expect_status 0 "compare all four" M compare base patched big short
grep_file "$TMP/out" "^Warning: not like for like$" "a warning block"
tr '\n' ' ' <"$TMP/out" | tr -s ' ' >"$TMP/flat"
grep_file "$TMP/flat" " params: 'g.loops=2' in base, 'g.loops=2' in patched, 'g.loops=5' in big, 'g.loops=2' in short iterations:" \
	"the effective parameters differ"
grep_file "$TMP/flat" " iterations: '3' in base, '3' in patched, '3' in big, '2' in short " \
	"the iteration counts differ"
grep_file "$TMP/out" "^  params: 'g.loops=2' in base, 'g.loops=2' in patched, 'g.loops=5' in big,$" \
	"long lines wrap for a mail"
grep_file "$TMP/out" "^    'g.loops=2' in short$" "and go on indented"
grep_file "$TMP/out" "^  short    1 run, 2 iterations, 6 samples;" \
	"short used 2 iterations"
check "one warning block" test "$(grep -c '^Warning' "$TMP/out")" = 1

# Differing THP through an edited import.
M export json base -o "$TMP/base.json"
# edit FIELD VALUE LABEL UUID: base's run with one machine fact changed.
edit() {
	python3 - "$TMP/base.json" "$1" "$2" "$3" "$4" >"$TMP/$3.json" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["runs"][0]
r["label"], r["uuid"] = sys.argv[4], sys.argv[5]
r["machine"][sys.argv[2]] = sys.argv[3]
print(json.dumps(d))
EOF2
}
thp() {
	edit thp_enabled "$@"
}
thp always thp-a 00000000-0000-4000-8000-000000000001
thp never thp-b 00000000-0000-4000-8000-000000000002
expect_status 0 "import thp-a" M import "$TMP/thp-a.json"
expect_status 0 "import thp-b" M import "$TMP/thp-b.json"
expect_status 0 "compare the THP modes" M compare thp-a thp-b
grep_file "$TMP/out" "^  thp_enabled: 'always' in thp-a, 'never' in thp-b$" \
	"a THP mode that differs is flagged"
expect_status 0 "json of the THP modes" M compare --format json thp-a thp-b
check "json: machine_diffs holds the warnings of the provenance block" \
	python3 -c 'import json,sys; d=json.load(sys.stdin); w=d["provenance"]["warnings"]; sys.exit(0 if w and d["machine_diffs"] == w and "thp_enabled: '"'always' in thp-a, 'never' in thp-b"'" in w else 1)' <"$TMP/out"

# The same kernel on another host: no reboot was forgotten.
edit hostname elsewhere host-b 00000000-0000-4000-8000-000000000003
expect_status 0 "import host-b" M import "$TMP/host-b.json"
expect_status 0 "compare with a run of this host" M compare patched thp-a
grep_file "$TMP/out" "^Note: patched and thp-a ran the same kernel" \
	"the same kernel on the same host: the note"
expect_status 0 "compare with a run of another host" M compare patched host-b
check "the same kernel on another host: no note" \
	sh -c "! grep -q 'ran the same kernel' '$TMP/out'"
grep_file "$TMP/out" "^  hostname: '$(hostname)' in patched, 'elsewhere' in host-b$" \
	"the hosts differ"

# Labels of many bytes per character pad and wrap by characters.
wide='äöüäöüäöü-日本語'
thp never "$wide" 00000000-0000-4000-8000-000000000004
expect_status 0 "import a label of multibyte characters" M import "$TMP/$wide.json"
expect_status 0 "compare with it" M compare patched "$wide"
check "its counts start in the column of the other label's" \
	python3 -c 'import sys; w = sys.argv[2].encode("utf-8", "surrogateescape").decode("utf-8"); l = [x for x in open(sys.argv[1], encoding="utf-8").read().split("\n") if x.startswith(("  patched ", "  " + w + " "))]; sys.exit(not (len(l) == 2 and l[0].index("1 run") == l[1].index("1 run") == 4 + len(w)))' "$TMP/out" "$wide"
check "no line of the block is longer than 78 characters" \
	python3 -c 'import sys; b = open(sys.argv[1], encoding="utf-8").read().split("\n\n")[0]; sys.exit(not all(len(x) <= 78 for x in b.split("\n")))' "$TMP/out"

# Differences among a label's own runs.
expect_status 0 "--append with a different --param" \
	M run -q "$TMP/p.yaml" --label base --append --param loops=7
id1=$(sqlite3 "$MMCMP_DB" "SELECT min(id) FROM run WHERE label = 'base'")
id2=$(sqlite3 "$MMCMP_DB" "SELECT max(id) FROM run WHERE label = 'base'")
expect_status 0 "compare the pooled label" M compare base patched
grep_file "$TMP/out" "^  base     2 runs, 6 iterations, 18 samples;" "two runs pooled"
grep_file "$TMP/out" "^  params within base: 'g.loops=2' in run $id1, 'g.loops=7' in run $id2$" \
	"the label's own runs differ"
check "between labels the first run speaks" \
	sh -c "! grep -q '^  params:' '$TMP/out'"

# An interrupted run: N of the M iterations its setup planned.
expect_status 0 "run intr" M run -q "$TMP/p.yaml" --label intr
sqlite3 "$MMCMP_DB" "PRAGMA foreign_keys = ON;
	DELETE FROM iteration WHERE id = (SELECT max(id) FROM iteration);
	UPDATE run SET status = 'interrupted' WHERE label = 'intr'"
expect_status 0 "compare with it" M compare --include-incomplete patched intr
grep_file "$TMP/out" "^run [0-9]* of 'intr' included (--include-incomplete): interrupted after 2 of 3 iterations$" \
	"the note counts the iterations planned"
grep_file "$TMP/out" "^  intr     1 run, 2 iterations, 6 samples;" \
	"the block counts the iterations used"

# The report, which embeds compare's html, still renders.
expect_status 0 "report" M report base patched -o "$TMP/r.html"
grep_file "$TMP/r.html" "<table class=\"provenance\">" "the report has the block"
check "once, before the table of the pooled runs" \
	test "$(grep -c -e '<table class="provenance">' -e '<h2 id="runs">' "$TMP/r.html")" = 2 -a \
	"$(grep -n -e '<table class="provenance">' -e '<h2 id="runs">' "$TMP/r.html" | cut -d: -f2 | tr -d '\n' | cut -c1-6)" = "<table"


# Runs in emulated guests say so in show, list and report, and show
# lists the boots (the export's golden file holds a run of two tcg boots).
export MMCMP_DB="$TMP/boots.db"
expect_status 0 "import an export with boots" \
	"$MMCMP" import "$MMCMP_SRCDIR/tests/golden/export.json"
expect_status 0 "show the run with boots" "$MMCMP" show patched
grep_file "$TMP/out" "^  accel:     tcg in 2 of 2 boots: an emulated CPU, its timings are not the machine's$" \
	"show says its CPU was emulated"
grep_file "$TMP/out" "^  boots:     1 kernel thp, accel tcg, failed: boot 1: no agent: qemu exited$" \
	"show lists a failed boot with why"
grep_file "$TMP/out" "^             2 kernel thp, accel tcg, up in 2.50 s, guest 6.1.0-cloud$" \
	"and a boot with its seconds and guest release"
expect_status 0 "show a run without boots" "$MMCMP" show base
check "lists no boots" sh -c "! grep -q -e '^  boots:' -e '^  accel:' '$TMP/out'"
expect_status 0 "list" "$MMCMP" list
grep_file "$TMP/out" " patched  .* 6.1.0-cloud (tcg) " "list gives the guest's release, marked tcg"
grep_file "$TMP/out" " base  .* 6.9.0  " "and the host's for a run on the host"
expect_status 0 "report of them" "$MMCMP" report --include-incomplete -o "$TMP/boots.html" base patched
grep_file "$TMP/boots.html" "<td>6.1.0-cloud</td><td>tcg (emulated CPU)</td>" \
	"the report's table of runs has the guest and its accelerator"

done_testing
