#!/bin/sh
# mmcmp report: the page of a made-up run, its SVG parsed as XML with the
# expected charts, usage errors; then in headless Chromium: no console
# errors, no network requests (a net log), the charts in the DOM after
# load, and a screenshot that is not blank. A control page with an error
# and an external image shows that both checks can fail.
set -e
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
expect_status 0 "report -o FILE" "$MMCMP" report --margin 5 -o "$TMP/r.html" r-base r-patched
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
done_testing
