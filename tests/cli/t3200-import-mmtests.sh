#!/bin/sh
# mmcmp import --from mmtests: result trees laid out as run-mmtests.sh
# writes them, compared byte for byte with the tables mmtests printed.
#
# The trees in tests/data/import/mmtests/ (made by make-trees.py there)
# hold the samples of tests/data/mmtests/wis-improve.csv and
# trunc-regress.csv, five per operation in each of iter-0 and iter-1 of
# the runs 6.9-vanilla and 6.9-patched: will-it-scale "total:" lines in
# wis-pf/logs/benchlog-page_fault1_threads-N, GNU time output in
# trunc/logs/time-{fault,trunc}-K. mmtests pools the samples of all
# iterations, so its compare scripts print for the trees the tables they
# printed for those samples, tests/data/mmtests/*.txt; expected/ holds
# them: NAME.txt (compare-mmtests.pl), NAME.ratio.txt (--print-ratio)
# and NAME.full.txt, compare-kernels.sh's report up to the last row of
# the vmstat Ops table (wis) or of the Duration table (trunc). Those two
# tables come from per-run totals (tests/data/mmtests/README.md), which
# the trees split over their iterations' "time ::" lines and
# tests-sysstate vmstat snapshots; mmcmp sums the iterations back.
. ./lib.sh
data=../data/import/mmtests
exp=$data/expected
db=
M() { "$MMCMP" --db "$db" "$@"; }

# first_table FILE: FILE up to its first blank line (the comparison
# table; mmcmp follows it with the Duration and Ops tables).
first_table() {
	sed '/^$/,$d' "$1"
}

same() {
	if cmp -s "$1" "$2"; then
		ok "$3"
	else
		not_ok "$3"
		diff "$2" "$1" | sed 's/^/# /' | head -20
	fi
}

for c in wis trunc; do
	db="$TMP/$c.db"
	expect_status 0 "import --from mmtests $c/work/log" \
		M import --from mmtests "$data/$c/work/log"
	check "$c: import is quiet" test ! -s "$TMP/out"
	expect_status 0 "$c: compare --test=mmtests" \
		M compare --test=mmtests --no-titles 6.9-vanilla 6.9-patched
	first_table "$TMP/out" >"$TMP/got"
	same "$TMP/got" "$exp/$c.txt" "$c: the table is mmtests' byte for byte"
	expect_status 0 "$c: compare --test=mmtests --print-ratio" \
		M compare --test=mmtests --no-titles --print-ratio \
		6.9-vanilla 6.9-patched
	first_table "$TMP/out" >"$TMP/got"
	same "$TMP/got" "$exp/$c.ratio.txt" \
		"$c: the ratio table is mmtests' byte for byte"
	expect_status 0 "$c: compare-kernels style report" \
		M compare --test=mmtests 6.9-vanilla 6.9-patched
	cp "$TMP/out" "$TMP/report.$c"
done

# wis: title, table, Duration and vmstat Ops tables, as mmtests' report.
same "$TMP/report.wis" "$exp/wis.full.txt" \
	"wis: report with Duration and vmstat Ops tables is mmtests'"
# trunc: no vmstat monitor, so the report ends with the Duration table.
tail -n 6 "$TMP/report.trunc" >"$TMP/got"
same "$TMP/got" "$exp/trunc.full.txt" "trunc: the Duration table is mmtests'"
check "trunc: no vmstat data, no Ops table" \
	sh -c "! grep -q '^Ops' '$TMP/report.trunc'"

# Labels, config names (the path as given), machine facts.
db="$TMP/wis.db"
expect_status 0 "list" M list
grep_file "$TMP/out" " 6.9-vanilla .*$data/wis/work/log/6.9-vanilla  *2  *40 " \
	"each run keeps its directory as config name, two iterations, 40 samples"
expect_status 0 "show" M show 6.9-patched
grep_file "$TMP/out" "host: *testhost" "hostname from kernel.version"
grep_file "$TMP/out" "kernel: *6.9.0-patched #1 SMP PREEMPT_DYNAMIC Sat Jun  1 09:00:00 UTC 2024$" \
	"kernel release and version from kernel.version"
grep_file "$TMP/out" "cmdline: *BOOT_IMAGE=/boot/vmlinuz-6.9.0 root=/dev/sda1 ro quiet$" \
	"command line from dmesg.gz"
grep_file "$TMP/out" "cpu: *Example CPU 9000 @ 3.00GHz, 16 CPUs" "cpu from lscpu.txt.gz"
grep_file "$TMP/out" "memory: *15932 MiB" "memory from tests-sysstate's meminfo"
grep_file "$TMP/out" "started: *2024-06-01T10:00:00Z" "start time from tests-timestamp"

# Idempotence: the same tree again (whole or one run) changes nothing.
M list >"$TMP/before"
sqlite3 "$TMP/wis.db" "SELECT count(*) FROM sample; SELECT count(*) FROM iteration_monitor;" \
	>"$TMP/counts.before"
expect_status 0 "importing the tree again" M import --from mmtests "$data/wis/work/log"
grep_file "$TMP/err" "is in the database already; skipped" "the runs are skipped with a warning"
expect_status 0 "importing one run of it again" \
	M import --from mmtests "$data/wis/work/log/6.9-vanilla/"
M list >"$TMP/after"
sqlite3 "$TMP/wis.db" "SELECT count(*) FROM sample; SELECT count(*) FROM iteration_monitor;" \
	>"$TMP/counts.after"
check "the runs are unchanged" cmp -s "$TMP/before" "$TMP/after"
check "no sample or monitor record was added" cmp -s "$TMP/counts.before" "$TMP/counts.after"

# One run directory as PATH: labelled after it.
expect_status 0 "import one run directory" \
	"$MMCMP" --db "$TMP/one.db" import --from mmtests "$data/trunc/work/log/6.9-patched"
"$MMCMP" --db "$TMP/one.db" list >"$TMP/out"
check "one run, labelled after its directory" \
	test "$(grep -c ' 6.9-patched ' "$TMP/out")" -eq 1 -a "$(wc -l <"$TMP/out")" -eq 2

# pft and netperf trees, as their shellpacks write the logs.
t=$TMP/tree/work/log/base/iter-0
mkdir -p "$t/pft/logs" "$t/netperf-udp/logs" "$t/netperf-tcp-rr/logs"
printf 'start :: 1717236000\ntest begin :: pft 1717236001\ntest end :: pft 1717236031\ntime :: pft 1.00 user 20.00 system 30.00 elapsed\nfinish :: 1717236040\n' \
	>"$t/tests-timestamp"
for c in 1 2; do
	printf '  Gb  Thr CLine   User      System     Wall    flt/cpu/s fault/wsec\n' >"$t/pft/logs/pft-$c.log"
	for r in 1 2 3; do
		printf '   1   %s   1    0.01s      0.%ds     0.30s  %d.000  %d.500\n' \
			"$c" "$r" $((1000 * c + r)) $((2000 * c + r)) >>"$t/pft/logs/pft-$c.log"
	done
done
echo UDP_STREAM >"$t/netperf-udp/logs/protocols"
for s in 64 1024; do
	for k in 1 2; do
		printf 'MIGRATED UDP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 127.0.0.1 () port 0 AF_INET\nSocket  Message  Elapsed      Messages\nSize    Size     Time         Okay Errors   Throughput\nbytes   bytes    secs            #      #   10^6bits/sec\n\n212992    %s   60.00     9000000      0     %d.50\n212992           60.00     8990000             %d.40\n\n' \
			"$s" $((s + k)) $((s + k)) >"$t/netperf-udp/logs/UDP_STREAM-$s.$k"
	done
done
echo TCP_RR >"$t/netperf-tcp-rr/logs/protocols"
printf 'Local /Remote\nSocket Size   Request  Resp.   Elapsed  Trans.\nSend   Recv   Size     Size    Time     Rate\nbytes  Bytes  bytes    bytes   secs.    per sec\n\n16384  131072 1        1       60.00    45678.90\n16384  131072\n' \
	>"$t/netperf-tcp-rr/logs/TCP_RR-1.1"
db="$TMP/other.db"
expect_status 0 "import pft and netperf results" M import --from mmtests "$TMP/tree/work/log"
expect_status 0 "show them" M show base
grep_file "$TMP/out" "pft faults/cpu-1 \[faults/s\] higher is better: n=3 mean=1002.0000 min=1001.0000 max=1003.0000" \
	"pft: faults/cpu-1 from column 7 of every row"
grep_file "$TMP/out" "pft faults/sec-2 \[faults/s\] higher is better: n=3 mean=4002.5000 min=4001.5000 max=4003.5000" \
	"pft: faults/sec-2 from column 8"
check "pft: faults/cpu rows before faults/sec, clients in order" \
	test "$(awk '$1 == "pft" { printf "%s ", $2 }' "$TMP/out")" = \
	"faults/cpu-1 faults/cpu-2 faults/sec-1 faults/sec-2 "
grep_file "$TMP/out" "netperf-udp udpstream-send-64 \[Mbit/s\] higher is better: n=2 mean=66.00 min=65.50 max=66.50" \
	"netperf: one sample per instance, the sender's rate"
grep_file "$TMP/out" "netperf-udp udpstream-recv-1024 \[Mbit/s\] higher is better: n=2 mean=1026.00 min=1025.50 max=1026.50" \
	"netperf: udpstream-recv reports the sender's rate too, as mmtests does"
grep_file "$TMP/out" "netperf-tcp-rr tcprr-send-1 \[trans/s\] higher is better: n=1 mean=45678.90" \
	"netperf: TCP_RR transactions per second"

# Bad input: FILE:LINE, exit 2, nothing imported (not even the good tree).
cp -R "$data/wis" "$TMP/bad"
f="$TMP/bad/work/log/6.9-patched/iter-1/wis-pf/logs/benchlog-page_fault1_threads-4"
sed -i '3s/total:[0-9]*/total:12x4/' "$f"
db="$TMP/bad.db"
expect_status 2 "a bad will-it-scale total" \
	M import --from mmtests "$data/trunc/work/log" "$TMP/bad/work/log"
grep_file "$TMP/err" "benchlog-page_fault1_threads-4:3: bad total '12x4'" \
	"the message names file and line"
check "nothing was imported, not even the good tree" test ! -e "$TMP/bad.db"
cp -R "$data/trunc" "$TMP/bad2"
printf 'Command terminated by signal 9\n' \
	>"$TMP/bad2/work/log/6.9-vanilla/iter-0/trunc/logs/time-trunc-2"
expect_status 2 "a time file without GNU time's numbers" \
	M import --from mmtests "$TMP/bad2/work/log"
grep_file "$TMP/err" "time-trunc-2:1: no GNU time output" "the time file is named"
cp -R "$data/trunc" "$TMP/bad3"
printf 'time :: trunc 1.5 user\n' >>"$TMP/bad3/work/log/6.9-patched/iter-1/tests-timestamp"
expect_status 2 "a malformed tests-timestamp line" \
	M import --from mmtests "$TMP/bad3/work/log"
grep_file "$TMP/err" "6.9-patched/iter-1/tests-timestamp:6: malformed line" \
	"tests-timestamp and its line are named"
mkdir -p "$TMP/empty/work/log"
expect_status 2 "a directory without runs" M import --from mmtests "$TMP/empty/work/log"
grep_file "$TMP/err" "no mmtests runs" "the empty tree is explained"
expect_status 2 "a path that does not exist" M import --from mmtests "$TMP/nosuch"
grep_file "$TMP/err" "nosuch: not a directory" "the missing path is named"
mkdir -p "$TMP/unknown/work/log/r/iter-0/nosuchbench/logs"
expect_status 2 "a run of benchmarks mmcmp cannot read" \
	M import --from mmtests "$TMP/unknown/work/log"
grep_file "$TMP/err" "no results of a benchmark mmcmp reads" "the run is named"
expect_status 2 "--from an unknown format" M import --from nosuch "$TMP/empty"
check "no database was made by bad input" test ! -e "$TMP/bad.db"

# Only regular files are read, and odd entries are warned about (N7,
# N15): timeout bounds the wait for a reader that would block.
cp -R "$data/wis" "$TMP/fifo"
rm "$TMP/fifo/work/log/6.9-vanilla/iter-0/tests-timestamp"
mkfifo "$TMP/fifo/work/log/6.9-vanilla/iter-0/tests-timestamp"
db="$TMP/fifo.db"
expect_status 2 "a FIFO in the tree is refused, not read" \
	timeout 60 "$MMCMP" --db "$db" import --from mmtests "$TMP/fifo/work/log"
grep_file "$TMP/err" "iter-0/tests-timestamp' is not a regular file (a FIFO)" \
	"and named"
rm "$TMP/fifo/work/log/6.9-vanilla/iter-0/tests-timestamp"
ln -s /dev/zero "$TMP/fifo/work/log/6.9-vanilla/iter-0/tests-timestamp"
expect_status 2 "a symlink to a device is refused, not read" \
	timeout 60 "$MMCMP" --db "$db" import --from mmtests "$TMP/fifo/work/log"
grep_file "$TMP/err" "tests-timestamp' is not a regular file (a character device)" \
	"and named"
check "no database was made" test ! -e "$db"

cp -R "$data/wis" "$TMP/odd"
L="$TMP/odd/work/log/6.9-patched"
cp -R "$L/iter-1" "$L/iter-01"
mkdir "$L/iter--1" "$L/iter-99999999999999999999"
mkdir -p "$L/iter-2/wis-pf/logs"
echo "Linux h 6.9 #1 SMP x86_64 GNU/Linux" >"$TMP/outside"
rm "$L/iter-0/kernel.version"
ln -s "$TMP/outside" "$L/iter-0/kernel.version"
printf 'plain text\n' >"$L/iter-0/dmesg.gz"
printf 'junk' >>"$L/iter-1/tests-sysstate.gz"
head -c 300 /dev/urandom | tr -d ':' >"$L/iter-01/tests-timestamp"
cp "$L/iter-01/tests-timestamp" "$TMP/odd/work/log/6.9-vanilla/iter-1/tests-timestamp"
db="$TMP/odd.db"
expect_status 0 "an odd tree imports" M import --from mmtests "$TMP/odd/work/log"
grep_file "$TMP/err" "6.9-patched/iter-01: iteration 1 again (.*6.9-patched/iter-1); skipped" \
	"a second directory of an iteration number is skipped, with a warning"
grep_file "$TMP/err" "iter--1: not an iteration number; skipped" \
	"iter--1 is skipped with a warning"
grep_file "$TMP/err" "iter-99999999999999999999: not an iteration number; skipped" \
	"so is a number out of range"
grep_file "$TMP/err" "iter-2/wis-pf/logs: no samples of wis-pf in these logs" \
	"empty logs are warned about"
grep_file "$TMP/err" "iter-0/kernel.version: a symlink out of the tree, to '.*outside'" \
	"a symlink out of the tree is warned about"
grep_file "$TMP/err" "iter-0/dmesg.gz: not gzip data; read as text" \
	"a .gz that is not gzip is warned about"
grep_file "$TMP/err" "iter-1/tests-sysstate.gz: 4 bytes of trailing garbage after the gzip data ignored" \
	"trailing garbage after gzip data is warned about"
grep_file "$TMP/err" "6.9-vanilla/iter-1/tests-timestamp: no mmtests timestamp lines" \
	"a tests-timestamp of garbage is warned about"
M list >"$TMP/list"
grep_file "$TMP/list" "6.9-patched .* 3  *40  complete" \
	"the samples of iter-1 count once (40, as in the tree without iter-01)"

cp -R "$data/wis" "$TMP/hex"
f="$TMP/hex/work/log/6.9-patched/iter-1/wis-pf/logs/benchlog-page_fault1_threads-4"
sed -i '3s/total:[0-9]*/total:0x10/' "$f"
db="$TMP/hex.db"
expect_status 2 "a hexadecimal total (strtod's, not mmtests')" \
	M import --from mmtests "$TMP/hex/work/log"
grep_file "$TMP/err" "benchlog-page_fault1_threads-4:3: bad total '0x10'" "is refused"
sed -i '3s/total:0x10/total: nan/' "$f"
expect_status 2 "a total after a space" M import --from mmtests "$TMP/hex/work/log"
grep_file "$TMP/err" "benchlog-page_fault1_threads-4:3: bad total 'total: nan'" \
	"is quoted as it stands"
cp -R "$data/wis" "$TMP/cut"
f="$TMP/cut/work/log/6.9-patched/iter-1/tests-sysstate.gz"
head -c 200 "$f" >"$f.cut" && mv "$f.cut" "$f"
db="$TMP/cut.db"
expect_status 2 "a truncated gzip file" M import --from mmtests "$TMP/cut/work/log"
grep_file "$TMP/err" "iter-1/tests-sysstate.gz: the gzip data ends early (truncated?)" \
	"is named as one, not by a line of what it held"

# N15: a benchlog of random bytes loses its samples (as mmtests would), but
# not without a word.
cp -R "$data/wis" "$TMP/noise"
f="$TMP/noise/work/log/6.9-patched/iter-1/wis-pf/logs/benchlog-page_fault1_threads-4"
python3 -c '
import random, sys
random.seed(15)
sys.stdout.buffer.write(bytes(random.choice(range(256)) for _ in range(4000)).replace(b":", b""))' >"$f"
db="$TMP/noise.db"
expect_status 0 "a benchlog of random bytes imports" M import --from mmtests "$TMP/noise/work/log"
grep_file "$TMP/err" "iter-1/wis-pf/logs/benchlog-page_fault1_threads-4: [0-9]* lines that are not will-it-scale's skipped (the first at line 1)" \
	"with a warning naming the file"

done_testing
