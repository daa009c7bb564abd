#!/bin/sh
# mmcmp report: the page of a made-up run, its SVG parsed as XML with the
# expected charts, usage errors; then in headless Chromium: no console
# errors, no network requests (a net log), the charts in the DOM after
# load, and a screenshot that is not blank. A control page with an error
# and an external image shows that both checks can fail. Last, the
# differential flame graph of profile-split's 50/50 against 70/30 runs,
# rendered in Chromium: its frames drawn, and those of the large marked
# changes, red and blue, spin_a's and spin_b's.
. ./lib.sh

# Two builds, 2 x 3 jobs (mode x tasks) whose operation names do not
# carry the parameters: the scaling charts come from the stored jobs.
cat >"$TMP/rep.yaml" <<EOF2
name: rep
iterations: 3
monitors: false
interleave: true
workloads:
  - name: scale
    shell: true
    command: "t={tasks}; echo total:\$(( t * 100 * \$F + \$(od -An -N1 -tu1 /dev/urandom) ))"
    params:
      mode: [processes, threads]
      tasks: [1, 2, 4]
    operation: "op-{mode}-{tasks}"
    metrics:
      - name: total
        unit: ops/s
        better: higher
        extract: { regex: "total:([0-9]+)" }
builds:
  base: { env: { F: "10" } }
  patched: { env: { F: "9" } }
EOF2
expect_status 0 "a made-up run with two builds" "$MMCMP" run -q "$TMP/rep.yaml" --label r
expect_status 0 "report -o FILE" "$MMCMP" report --margin 2 -o "$TMP/r.html" r-base r-patched
check "the report is written" test -s "$TMP/r.html"
expect_status 0 "report writes reports/BASE-vs-OTHER.html by default" \
	sh -c "cd '$TMP' && '$MMCMP' --db '$MMCMP_DB' report r-base r-patched"
check "the default file is there" test -s "$TMP/reports/r-base-vs-r-patched.html"
expect_status 0 "report -o - writes to stdout" "$MMCMP" report -o - r-base r-patched
grep_file "$TMP/out" "<svg class=\"chart forest\"" "stdout holds the page"
expect_status 2 "one label is a usage error" "$MMCMP" report r-base
expect_status 2 "an unknown label" "$MMCMP" report r-base nosuch
grep_file "$TMP/err" "no runs with label 'nosuch'" "the unknown label is named"
expect_status 2 "a negative margin" "$MMCMP" report --margin -1 r-base r-patched

# Structure: each chart parses as XML; counts by kind.
cat >"$TMP/charts.py" <<'EOF2'
import re, sys, xml.etree.ElementTree as ET
page = open(sys.argv[1], encoding="utf-8").read()
counts = {}
for svg in re.findall(r"<svg .*?</svg>", page, re.S):
    root = ET.fromstring(svg)
    kind = root.get("class").split()[1]
    counts[kind] = counts.get(kind, 0) + 1
print(" ".join("%s=%d" % kv for kv in sorted(counts.items())))
EOF2
if command -v python3 >/dev/null 2>&1; then
	check "every chart is well-formed XML" \
		sh -c "python3 '$TMP/charts.py' '$TMP/r.html' >'$TMP/counts'"
	check "forest 1, runorder 2, scaling 2 (one per mode), strip 6" \
		test "$(cat "$TMP/counts")" = "forest=1 runorder=2 scaling=2 strip=6"
	check "the page fetches nothing" \
		sh -c "! grep -Eqi 'https?:|src=|href=|url\\(|@import' '$TMP/r.html'"
else
	ok "python3 not installed: XML check skipped # SKIP"
fi

# The forest plot takes its verdicts from the comparison (compare_runs()),
# never from the interval alone: in a made-up comparison, weak's 95%
# interval lies above 0 but its BH-adjusted p is not (inconclusive), small
# is better by 1% within --margin 2 (same); the null rows fill the family.
cat >"$TMP/forest.py" <<'EOF2'
import json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
doc = json.load(open(sys.argv[2], encoding="utf-8"))
unesc = lambda s: s.replace("&lt;", "<").replace("&gt;", ">").replace(
    "&quot;", '"').replace("&#39;", "'").replace("&amp;", "&")
forest = re.search(r'<svg class="chart forest".*?</svg>', page, re.S).group(0)
rows = re.findall(r'<g class="row (\w+)">.*?<title>(.*?)</title>', forest, re.S)
got = [(unesc(t).split(": ")[0], v, re.search(r"change (n/a|[^%\s]+)", t).group(1))
       for v, t in rows]
want = []
for b in doc["benchmarks"]:
    for op in b["operations"]:
        for c in op["cells"]:
            if "verdict" in c:
                ch = c["change_pct"]
                want.append(("%s %s (%s)" % (b["name"], op["name"], c["label"]),
                             c["verdict"], "n/a" if ch is None else "%.2f" % ch))
for w, g in zip(want, got):
    if w != g:
        print("compare %s, report %s" % (w, g))
if len(want) != len(got) or not want:
    print("compare has %d rows, the report %d" % (len(want), len(got)))
for name in sys.argv[3:]:
    op, verdict = name.split("=")
    cell = [c for b in doc["benchmarks"] for o in b["operations"]
            if o["name"] == op for c in o["cells"] if "verdict" in c][0]
    if cell["verdict"] != verdict or not cell["ci_low_pct"] > 0:
        print("%s: %s [%s, %s], not %s above 0" % (op, cell["verdict"],
              cell["ci_low_pct"], cell["ci_high_pct"], verdict))
EOF2
{
	echo "label,benchmark,operation,value,unit,better,decimals,iteration"
	for spec in weak:10:9.75 small:10:9.9 clear:10:12 n1:10:10 n2:10:10 \
		n3:10:10 n4:10:10 n5:10:10 n6:10:10 n7:10:10; do
		echo "$spec" | awk -F: '{
			split("0 0.2 -0.2 0.1 -0.1", d, " ");
			split("0.1 -0.1 0 -0.2 0.2", e, " ");
			tight = $1 == "small" ? 0.05 : 1;
			for (i = 1; i <= 5; i++) {
				printf "base,b,%s,%.4f,s,lower,4,%d\n", $1, $2 + tight * d[i], i;
				printf "new,b,%s,%.4f,s,lower,4,%d\n", $1, $3 + tight * ($1 ~ /^n/ ? e[i] : d[i]), i;
			}
		}'
	done
} >"$TMP/forest.csv"
F() { "$MMCMP" --db "$TMP/forest.db" "$@"; }
expect_status 0 "import a made-up comparison" F import "$TMP/forest.csv"
expect_status 0 "its report" F report --margin 2 -o "$TMP/f.html" base new
expect_status 0 "its comparison" F compare --margin 2 --format json -o "$TMP/f.json" base new
if command -v python3 >/dev/null 2>&1; then
	check "the forest rows carry compare's verdicts and changes, where the interval alone would not" \
		sh -c "python3 '$TMP/forest.py' '$TMP/f.html' '$TMP/f.json' weak=inconclusive small=same >'$TMP/diff' && test ! -s '$TMP/diff'"
	sed 's/^/# /' "$TMP/diff"
else
	ok "python3 not installed: forest check skipped # SKIP"
fi

# --test=mmtests gives no verdicts: every forest row is untested, drawn
# as "untested: n/a" without a point, never as a change of nan%.
expect_status 0 "its report under --test=mmtests" F report --test=mmtests -o "$TMP/m.html" base new
if command -v python3 >/dev/null 2>&1; then
	check "under --test=mmtests the forest rows are untested, n/a, without points" \
		python3 -c '
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
forest = re.search(r"<svg class=\"chart forest\".*?</svg>", page, re.S).group(0)
rows = re.findall(r"<g class=\"row (\w+)\">(.*?)</g>", forest, re.S)
sys.exit(0 if len(rows) == 10 and "nan" not in forest and all(
    v == "untested" and "class=\"mark\"" not in g and ">untested: n/a<" in g
    and "--test=mmtests gives no verdicts" in g for v, g in rows) else 1)
' "$TMP/m.html"
fi

# Pooling: an interrupted run of base is left out by report as by
# compare, with the same note, and taken in by both under
# --include-incomplete.
sed -n '1p; /^base,b,clear,/p' "$TMP/forest.csv" | sed 's/^base,b,clear,[0-9.]*/base,b,clear,11.5/' >"$TMP/more.csv"
expect_status 0 "import a second run of base" F import --append "$TMP/more.csv"
id=$(sqlite3 "$TMP/forest.db" "SELECT max(id) FROM run")
sqlite3 "$TMP/forest.db" "UPDATE run SET status = 'interrupted' WHERE id = $id"
for inc in "" --include-incomplete; do
	expect_status 0 "report $inc with an interrupted run" \
		F report --margin 2 $inc -o "$TMP/p.html" base new
	expect_status 0 "compare $inc with an interrupted run" \
		F compare --margin 2 $inc --format json -o "$TMP/p.json" base new
	if [ -z "$inc" ]; then
		note="run $id of &#39;base&#39; left out: interrupted"
	else
		note="run $id of &#39;base&#39; included (--include-incomplete): interrupted"
	fi
	grep_file "$TMP/p.html" "<p class=\"footer\">$note" "the report notes what compare notes ($inc)"
	if command -v python3 >/dev/null 2>&1; then
		check "report and compare agree on every row ($inc)" \
			sh -c "python3 '$TMP/forest.py' '$TMP/p.html' '$TMP/p.json' >'$TMP/diff' && test ! -s '$TMP/diff'"
		sed 's/^/# /' "$TMP/diff"
	fi
done
check "the provenance lists the interrupted run when it is pooled" \
	grep -q '<td>interrupted</td>' "$TMP/p.html"
expect_status 0 "report without --include-incomplete" F report -o - base new
check "and not when it is left out" sh -c "! grep -q '<td>interrupted</td>' '$TMP/out'"
sqlite3 "$TMP/forest.db" "UPDATE run SET status = 'interrupted' WHERE label = 'new'"
expect_status 1 "a label of incomplete runs only is refused, as compare refuses it" \
	F report base new
grep_file "$TMP/err" "label 'new' has no complete run (run [0-9]* of 'new' left out: interrupted.*); --include-incomplete uses it anyway" \
	"the error names the label and --include-incomplete"

# Monitors: dd faults its buffer in, so pgfault changes every iteration
# and in the periodic samples while it runs.
if [ -r /proc/vmstat ] && [ -r /proc/stat ] && [ -r /proc/meminfo ]; then
	cat >"$TMP/mon.yaml" <<EOF2
name: mon
iterations: 2
monitor_interval: 0.1
workloads:
  - name: faults
    command: [sh, -c, "dd if=/dev/zero of=/dev/null bs=1M count=4 2>/dev/null; sleep 0.45"]
    metrics:
      - name: elapsed
        extract:
          measure: elapsed
builds:
  small: {}
  big: {}
EOF2
	expect_status 0 "a run with monitors" "$MMCMP" run -q "$TMP/mon.yaml" --label m
	expect_status 0 "its report" "$MMCMP" report -o "$TMP/m.html" m-small m-big
	check "a monitor chart of pgfault per iteration" \
		grep -q '<title>faults: pgfault per iteration</title>' "$TMP/m.html"
	check "a time series of the periodic samples" \
		grep -q '<title>faults: pgfault per second during each iteration</title>' "$TMP/m.html"
	check "and the Ops table of compare" grep -q '<td >Ops</td><td > Minor Faults' "$TMP/m.html"
	check "no scaling chart without a numeric parameter" \
		sh -c "! grep -q 'chart scaling' '$TMP/m.html'"
fi

# The browser.
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ] || ! command -v python3 >/dev/null 2>&1; then
	echo "# chromium or python3 is not installed: browser checks skipped"
	done_testing
	exit $?
fi

# browse NAME URL ARGS...: load URL headless, offline, logging the console
# and the network; NAME.dom, NAME.log and NAME.net are the results.
browse() {
	name=$1
	url=$2
	shift 2
	rm -rf "$TMP/profile"
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$TMP/profile" --no-first-run \
		--disable-background-networking --disable-component-update \
		--disable-sync --disable-extensions --enable-logging=stderr \
		--v=0 --host-resolver-rules="MAP * ~NOTFOUND" \
		--proxy-server=127.0.0.1:9 --log-net-log="$TMP/$name.net" \
		--hide-scrollbars "$@" "$url" >"$TMP/$name.dom" 2>"$TMP/$name.log"
}

# Requests the page made: the net log's jobs with the page's file://
# isolation key or an initiator (the browser's own update checks have
# neither). The log may lack its end when the browser was stopped.
cat >"$TMP/net.py" <<'EOF2'
import json, sys
text = open(sys.argv[1], encoding="utf-8").read().rstrip()
try:
    log = json.loads(text)
except ValueError:
    log = json.loads(text.rstrip(",") + "]}")
types = {v: k for k, v in log["constants"]["logEventTypes"].items()}
for e in log.get("events", []):
    p = e.get("params", {})
    if types.get(e["type"]) != "URL_REQUEST_START_JOB" or "url" not in p:
        continue
    if p["url"].startswith(("file:", "data:")):
        continue
    if "file://" in p.get("network_isolation_key", "") or \
            p.get("initiator", "not an origin") != "not an origin":
        print(p["url"])
EOF2

cat >"$TMP/control.html" <<'EOF2'
<!DOCTYPE html><html><body><p id="p">before</p>
<img src="http://example.invalid/x.png">
<script>console.error("control-error"); document.getElementById("p").textContent = "after";</script>
</body></html>
EOF2
if browse control "file://$TMP/control.html" --dump-dom; then
	check "control: the DOM is dumped after the scripts ran" \
		grep -q '<p id="p">after</p>' "$TMP/control.dom"
	check "control: the console error is seen" \
		grep -q 'CONSOLE.*control-error' "$TMP/control.log"
	check "control: the external image is seen in the net log" \
		sh -c "python3 '$TMP/net.py' '$TMP/control.net' | grep -q example.invalid"
else
	not_ok "chromium loads the control page (exit $?)"
	sed 's/^/# /' "$TMP/control.log" | tail -5
fi

if browse report "file://$TMP/r.html" --dump-dom; then
	ok "chromium loads the report"
	check "no console messages" sh -c "! grep -q 'CONSOLE' '$TMP/report.log'"
	check "no network requests" \
		sh -c "python3 '$TMP/net.py' '$TMP/report.net' >'$TMP/requests' && test ! -s '$TMP/requests'"
	check "the DOM has the charts after load" \
		test "$(grep -o '<svg class="chart [a-z]*"' "$TMP/report.dom" | wc -l)" -eq 11
else
	not_ok "chromium loads the report (exit $?)"
	sed 's/^/# /' "$TMP/report.log" | tail -5
fi

# Not blank: the PNG has many colours and a fair share of non-white.
cat >"$TMP/png.py" <<'EOF2'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat = 8, b""
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
assert depth == 8 and ctype in (2, 6)
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
prev, colours, ink = bytearray(stride), set(), 0
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp * 2):
        px = bytes(line[x:x + 3])
        colours.add(px)
        ink += px != b"\xff\xff\xff"
    prev = line
print(len(colours), ink * 2 * 100 // (w * h))
EOF2
if browse shot "file://$TMP/r.html" --window-size=1280,1400 \
	--screenshot="$TMP/r.png"; then
	check "a screenshot is taken" test -s "$TMP/r.png"
	python3 "$TMP/png.py" "$TMP/r.png" >"$TMP/png" || true
	echo "# screenshot: $(cat "$TMP/png") (distinct colours, % non-white)"
	# shellcheck disable=SC2016 # expanded by the inner shell
	check "the screenshot has more than 16 colours and 3% ink" \
		sh -c 'read -r n ink <"$1" && [ "$n" -gt 16 ] && [ "$ink" -ge 3 ]' sh "$TMP/png"
else
	not_ok "chromium takes a screenshot (exit $?)"
	sed 's/^/# /' "$TMP/shot.log" | tail -5
fi
# N5: 2 x 1500 samples without an iteration column are 3000 units; the
# strip plot draws at most REPORT_POINTS_MAX (2000) of them, quantiles,
# and each run-order plot (1500 units) every one.
python3 -c "
import sys
sys.stdout.write('label,benchmark,operation,value\\n')
for l in 'PQ':
    for i in range(1500):
        sys.stdout.write('%s,big,o,%d\\n' % (l, 100 + i % 97))" >"$TMP/big.csv"
expect_status 0 "import 2 x 1500 samples" "$MMCMP" --db "$TMP/big.db" import "$TMP/big.csv"
expect_status 0 "report of 3000 units" "$MMCMP" --db "$TMP/big.db" report -o "$TMP/big.html" P Q
python3 - "$TMP/big.html" >"$TMP/big.count" <<'EOF2'
import re, sys
page = open(sys.argv[1]).read()
for kind in ("strip", "runorder"):
    for chart in re.findall(r'<svg class="chart %s".*?</svg>' % kind, page, re.S):
        print(kind, chart.count("<title>"), "note" if "units shown" in chart else "-")
EOF2
sed 's/^/# /' "$TMP/big.count"
check "the strip plot draws at most 2000 units and says so" \
	grep -qx "strip 200[0-3] note" "$TMP/big.count"
check "a run-order plot of 1500 units draws them all" \
	grep -qx "runorder 1501 -" "$TMP/big.count"
# The flame graph: profile-split with its work 50/50 and 70/30 between
# spin_a and spin_b, profiled; a script added to a copy of the report
# lists, once Chromium has laid it out, each frame it drew (a rectangle
# of some size) with its kind, fill and path.
flame_check() {
	if [ -z "${WORKLOAD_PROFILE_SPLIT:-}" ]; then
		echo "# profile-split not built: flame graph checks skipped"
		return
	fi
	for share in 50 70; do
		cat >"$TMP/split$share.yaml" <<EOF2
name: split$share
iterations: 4
workloads:
  - name: split
    command: ["$WORKLOAD_PROFILE_SPLIT", --share-a, "$share", --units, "2000"]
    metrics:
      - name: elapsed
        extract:
          measure: elapsed
EOF2
		"$MMCMP" --db "$TMP/flame.db" run -q --profile "$TMP/split$share.yaml" \
			--label "s$share" >/dev/null 2>"$TMP/flame.err" || true
	done
	if grep -q "profiles not taken" "$TMP/flame.err"; then
		echo "# no cpu-clock sampling here: flame graph checks skipped"
		return
	fi
	expect_status 0 "a report of two profiled labels" \
		"$MMCMP" --db "$TMP/flame.db" report -o "$TMP/flame.html" s50 s70
	check "it has one flame graph" \
		test "$(grep -c '<svg class="chart flame"' "$TMP/flame.html")" -eq 1
	sed 's|</body>|<script>\
var out = [];\
document.querySelectorAll("svg.chart.flame g.fg").forEach(function (g) {\
  var r = g.querySelector("rect"), b = r.getBoundingClientRect();\
  var t = g.querySelector("title").textContent.split("\\n");\
  var m = /change ([-+][0-9.]+)pp/.exec(t[1]);\
  if (b.width > 0 \&\& b.height > 0)\
    out.push(g.getAttribute("class").slice(3) + " " +\
      getComputedStyle(r).fill.replace(/ /g, "") + " " +\
      (m ? m[1] : "na") + " " + t[0]);\
});\
var p = document.createElement("pre");\
p.id = "flamecheck";\
p.textContent = "\\n" + out.join("\\n") + "\\n";\
document.body.appendChild(p);\
</script></body>|' "$TMP/flame.html" >"$TMP/flame-check.html"
	if browse flame "file://$TMP/flame-check.html" --dump-dom; then
		sed -n '/<pre id="flamecheck">/,/<\/pre>/p' "$TMP/flame.dom" |
			grep -E '^(up|down|same|untested) ' >"$TMP/frames" || true
		grep -E '^(up|down) ' "$TMP/frames" | sed 's/^/# /'
		check "Chromium drew the frames" \
			test "$(wc -l <"$TMP/frames")" -ge 4
		# marked KIND FUNC: the frames of KIND that are not reddish (up)
		# or bluish (down), or that moved by 5 points or more and are
		# not FUNC's call path or under it; then whether FUNC's own frame
		# moved so. Other frames may move a little and be marked: the
		# labels ran one after the other (the loader's share, warm
		# caches), which is a change, only not the one made.
		marked() {
			awk -v kind="$1" -v fn="$2" '$1 == kind {
				split(substr($2, 5), c, /[,)]/)
				hue = kind == "up" ? c[1] > c[3] : c[3] > c[1]
				big = $3 + 0 >= 5 || $3 + 0 <= -5
				if (!hue || (big && $4 !~ "(^|;)main;" fn "(;|$)")) print "wrong:", $0
				if (big && $4 ~ "(^|;)main;" fn "$") own = 1
			} END { print own ? "own" : "none" }' "$TMP/frames"
		}
		check "the frames that rose by 5 points or more: spin_a's path and below, red" \
			test "$(marked up spin_a)" = own
		check "those that fell so: spin_b's and below, blue" \
			test "$(marked down spin_b)" = own
		check "main is drawn, its share moved by less than 5 points" \
			test "$(awk '$4 ~ /(^|;)main$/ && $3 + 0 < 5 && $3 + 0 > -5' \
				"$TMP/frames" | wc -l)" -eq 1
	else
		not_ok "chromium loads the flame graph (exit $?)"
		sed 's/^/# /' "$TMP/flame.log" | tail -5
	fi
}
flame_check

# N19: labels of 121 bytes give a default name that, with its temporary
# file, would pass NAME_MAX: it is cut, with a hash, and written.
L=$(python3 -c 'print("a" * 120)')
printf 'label,benchmark,operation,value\n%sx,b,o,1\n%sx,b,o,2\n%sy,b,o,1\n%sy,b,o,2\n' "$L" "$L" "$L" "$L" >"$TMP/long.csv"
mkdir "$TMP/long"
expect_status 0 "long labels: import" "$MMCMP" --db "$TMP/long.db" import "$TMP/long.csv"
expect_status 0 "long labels: the default report is written" \
	sh -c "cd '$TMP/long' && '$MMCMP' --db '$TMP/long.db' report ${L}x ${L}y"
check "long labels: one file, its name cut to fit" \
	sh -c "ls '$TMP/long/reports' | grep -qx 'a*x-vs-a*-[0-9a-f]\{16\}\.html'"
done_testing
