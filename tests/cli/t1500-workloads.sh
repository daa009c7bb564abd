#!/bin/sh
# Built-in workloads: --help, strict arguments (exit 2 naming the culprit),
# the output formats mmcmp's parsers rely on, and no leftover files. Tiny
# arguments throughout, so the whole file takes a few seconds.
. ./lib.sh

PF=${WORKLOAD_PAGE_FAULT:?run through meson test}
TR=${WORKLOAD_TRUNCATE:?run through meson test}
NS=${WORKLOAD_NETSTREAM:?run through meson test}
KC=${WORKLOAD_KOBJ_CHURN:?run through meson test}
WIS=${WORKLOAD_WIS:?run through meson test}
UM=${WORKLOAD_USEMEM:?run through meson test}
ST=${WORKLOAD_STREAM:?run through meson test}
SB=${WORKLOAD_SEMBENCH:?run through meson test}
THP=${WORKLOAD_THPCHALLENGE:?run through meson test}
STP=${WORKLOAD_STUTTERP:?run through meson test}
KB=${WORKLOAD_KERNBENCH:?run through meson test}

# empty_dir DIR: DIR exists and holds nothing.
empty_dir() {
	[ -d "$1" ] && [ -z "$(ls -A "$1")" ]
}

# wis_format FILE W S: FILE is will-it-scale output with W warm-up and S
# measurement samples; min <= max <= total, and the average is the mean
# of the measurement totals, rounded down.
wis_format() {
	awk -v w="$2" -v s="$3" '
		function sample(line,   f) {
			if (line !~ /^min:[0-9]+ max:[0-9]+ total:[0-9]+$/)
				return -1
			split(line, f, /[: ]/)
			if (f[2] + 0 > f[4] + 0 || f[4] + 0 > f[6] + 0 ||
			    f[6] + 0 == 0)
				return -1
			return f[6] + 0
		}
		NR == 1 { if ($0 !~ /^testcase:./) bad = 1; next }
		NR == 2 { if ($0 != "warmup") bad = 1; next }
		NR <= 2 + w { if (sample($0) < 0) bad = 1; next }
		NR == 3 + w { if ($0 != "measurement") bad = 1; next }
		NR <= 3 + w + s {
			t = sample($0)
			if (t < 0) bad = 1
			sum += t
			next
		}
		NR == 4 + w + s {
			if ($0 != "average:" int(sum / s)) bad = 1
			next
		}
		{ bad = 1 }
		END { exit (bad || NR != 4 + w + s) }
	' "$1"
}

# ns_format FILE N: FILE has lines "instance 1: X Mbit/s" to N, then
# "total: X Mbit/s", and nothing else.
ns_format() {
	i=1
	while [ "$i" -le "$2" ]; do
		echo "instance $i: [0-9]+\.[0-9]{2} Mbit/s"
		i=$((i + 1))
	done >"$TMP/ns-want"
	echo 'total: [0-9]+\.[0-9]{2} Mbit/s' >>"$TMP/ns-want"
	[ "$(wc -l <"$1")" -eq $(($2 + 1)) ] || return 1
	paste -d '\n' "$TMP/ns-want" "$1" | while read -r want; do
		read -r got
		echo "$got" | grep -Eqx "$want" || exit 1
	done
}

# ns_sum FILE: the total is positive and the sum of the instances, give or
# take the rounding to two decimals.
ns_sum() {
	awk '
		/^instance/ { sum += $3 }
		/^total/ { t = $2 }
		END { d = sum - t; exit !(t > 0 && d < 0.02 && d > -0.02) }
	' "$1"
}

# Every program: --help, an unknown option, a stray argument.
for prog in "$PF" "$TR" "$NS" "$KC" "$WIS" "$UM" "$ST" "$SB" "$THP" "$STP" "$KB"; do
	name=$(basename "$prog")
	expect_status 0 "$name --help" "$prog" --help
	grep_file "$TMP/out" "^usage: $name " "$name --help starts with its synopsis"
	expect_status 2 "$name --no-such-option" "$prog" --no-such-option
	grep_file "$TMP/err" "unknown option '--no-such-option'" \
		"$name names the unknown option"
	expect_status 2 "$name with a stray argument" "$prog" stray
	grep_file "$TMP/err" "unexpected argument 'stray'" \
		"$name names the stray argument"
done

# page-fault: bad values, then the format. The processes run goes in the
# background while the threads run takes its three seconds.
expect_status 2 "page-fault --tasks abc" "$PF" --mode threads --tasks abc \
	--seconds 1
grep_file "$TMP/err" "invalid value 'abc' for --tasks" \
	"page-fault names the bad --tasks"
expect_status 2 "page-fault without --mode" "$PF" --tasks 1 --seconds 1
grep_file "$TMP/err" "missing --mode" "page-fault names the missing --mode"
expect_status 2 "page-fault --hugepage sometimes" "$PF" --mode threads \
	--tasks 1 --seconds 1 --hugepage sometimes
grep_file "$TMP/err" "for --hugepage" "page-fault names the bad --hugepage"
expect_status 2 "page-fault with a bad PAGE_FAULT_HUGEPAGE" \
	env PAGE_FAULT_HUGEPAGE=sometimes "$PF" --mode threads --tasks 1 \
	--seconds 1
grep_file "$TMP/err" "PAGE_FAULT_HUGEPAGE" \
	"page-fault names the bad PAGE_FAULT_HUGEPAGE"
expect_status 2 "page-fault --size below a page" "$PF" --mode threads \
	--tasks 1 --seconds 1 --size 1K
grep_file "$TMP/err" "for --size" "page-fault names the bad --size"

# MADV_NOHUGEPAGE needs a kernel with transparent hugepages.
thp=default
if [ -d /sys/kernel/mm/transparent_hugepage ]; then
	thp=never
fi
env PAGE_FAULT_HUGEPAGE=$thp "$PF" --mode processes --tasks 2 --seconds 1 \
	--warmup 0 --size 16M >"$TMP/pf-proc.out" 2>"$TMP/pf-proc.err" &
pf_pid=$!
expect_status 0 "page-fault threads runs" "$PF" --mode threads --tasks 2 \
	--seconds 2 --warmup 1 --size 16M
check "page-fault threads: 1 warm-up and 2 measurement samples" \
	wis_format "$TMP/out" 1 2
set +e
wait "$pf_pid"
pf_status=$?
set -e
check "page-fault processes runs (exit $pf_status)" [ "$pf_status" -eq 0 ]
check "page-fault processes: no warm-up and 1 measurement sample" \
	wis_format "$TMP/pf-proc.out" 0 1
check "page-fault processes: quiet stderr" [ ! -s "$TMP/pf-proc.err" ]

# truncate: the six lines, in order, and nothing left behind.
expect_status 2 "truncate --size 12Q" "$TR" --quick --size 12Q
grep_file "$TMP/err" "invalid value '12Q' for --size" \
	"truncate names the bad --size"
expect_status 2 "truncate --files 0" "$TR" --quick --files 0
grep_file "$TMP/err" "for --files" "truncate names the bad --files"
expect_status 2 "truncate --quick=yes" "$TR" --quick=yes
grep_file "$TMP/err" "'--quick' takes no value" "truncate --quick is a flag"
mkdir "$TMP/tr"
expect_status 0 "truncate --quick runs" env TMPDIR="$TMP/tr" "$TR" --quick
sed 's/ .*//' "$TMP/out" >"$TMP/tr-names"
printf '%s\n' Elapsed-fault System-fault User-fault \
	Elapsed-trunc System-trunc User-trunc >"$TMP/tr-want"
check "truncate prints the six phase lines in order" \
	cmp -s "$TMP/tr-names" "$TMP/tr-want"
check "truncate prints seconds with six decimals" \
	[ "$(grep -Ecx '[A-Za-z]+-(fault|trunc) [0-9]+\.[0-9]{6}' "$TMP/out")" \
	-eq 6 ]
check "truncate removes its temporary directory" empty_dir "$TMP/tr"
mkdir "$TMP/tr-dir"
expect_status 0 "truncate --dir --files 3 --size 64K" "$TR" \
	--dir "$TMP/tr-dir" --files 3 --size 64K
check "truncate keeps --dir and empties it" empty_dir "$TMP/tr-dir"
expect_status 1 "truncate --dir missing" "$TR" --quick \
	--dir "$TMP/no-such-dir"
grep_file "$TMP/err" "no-such-dir" "truncate names the missing directory"

# netstream: one line per instance, then the total of them.
expect_status 2 "netstream --instances 0" "$NS" --mode stream \
	--instances 0 --size 1K --seconds 0.1
grep_file "$TMP/err" "invalid value '0' for --instances" \
	"netstream names the bad --instances"
expect_status 2 "netstream --mode udp" "$NS" --mode udp --instances 1 \
	--size 1K --seconds 0.1
grep_file "$TMP/err" "for --mode" "netstream names the bad --mode"
expect_status 2 "netstream without --seconds" "$NS" --mode stream \
	--instances 1 --size 1K
grep_file "$TMP/err" "missing --seconds" \
	"netstream names the missing --seconds"
for mode in stream sendfile; do
	mkdir "$TMP/ns-$mode"
	expect_status 0 "netstream $mode runs" env TMPDIR="$TMP/ns-$mode" \
		"$NS" --mode $mode --instances 2 --size 16K --seconds 0.2
	check "netstream $mode: 2 instance lines and a total" \
		ns_format "$TMP/out" 2
	check "netstream $mode: the total is the sum" ns_sum "$TMP/out"
	check "netstream $mode leaves no files" empty_dir "$TMP/ns-$mode"
done

# kobj-churn: one "<op> <ns>" line per operation.
expect_status 2 "kobj-churn --op fork" "$KC" --op fork --loops 10
grep_file "$TMP/err" "invalid value 'fork' for --op" \
	"kobj-churn names the bad --op"
expect_status 2 "kobj-churn --loops -1" "$KC" --op all --loops -1
grep_file "$TMP/err" "for --loops" "kobj-churn names the bad --loops"
mkdir "$TMP/kc"
expect_status 0 "kobj-churn --op all runs" env TMPDIR="$TMP/kc" "$KC" \
	--op all --loops 200
sed 's/ .*//' "$TMP/out" >"$TMP/kc-names"
printf '%s\n' open pipe socket-unix socket-udp eventfd >"$TMP/kc-want"
check "kobj-churn all prints every operation in order" \
	cmp -s "$TMP/kc-names" "$TMP/kc-want"
check "kobj-churn prints nanoseconds with one decimal" \
	[ "$(grep -Ecx '[a-z-]+ [0-9]+\.[0-9]' "$TMP/out")" -eq 5 ]
check "kobj-churn leaves no files" empty_dir "$TMP/kc"
expect_status 0 "kobj-churn --op socket runs" "$KC" --op socket --loops 50
sed 's/ .*//' "$TMP/out" >"$TMP/kc-names"
printf '%s\n' socket-unix socket-udp >"$TMP/kc-want"
check "kobj-churn socket runs the unix and udp sockets" \
	cmp -s "$TMP/kc-names" "$TMP/kc-want"

# wis: every test runs, a second each; the output is will-it-scale's with
# a tasks line after testcase.
expect_status 2 "wis --test page_fault9" "$WIS" --test page_fault9 \
	--mode threads --tasks 1 --seconds 1
grep_file "$TMP/err" "invalid value 'page_fault9' for --test" \
	"wis names the bad --test"
expect_status 2 "wis without --test" "$WIS" --mode threads --tasks 1 \
	--seconds 1
grep_file "$TMP/err" "missing --test" "wis names the missing --test"
expect_status 2 "wis brk1 as threads" "$WIS" --test brk1 --mode threads \
	--tasks 1 --seconds 1
grep_file "$TMP/err" "brk1 runs as processes only" \
	"wis says why brk1 takes no threads"
expect_status 1 "wis page_fault2 in a missing --dir" "$WIS" \
	--test page_fault2 --mode processes --tasks 1 --seconds 1 --warmup 0 \
	--dir "$TMP/no-such-dir"
grep_file "$TMP/err" "page_fault2: mkstemp failed" \
	"wis names the test and the call that failed"
wis_tests="page_fault1 page_fault2 page_fault3 brk1 malloc1 mmap1 mmap2
munmap1 read1 write1"
mkdir "$TMP/wis"
for t in $wis_tests; do
	mode=threads
	[ "$t" != brk1 ] || mode=processes
	env TMPDIR="$TMP/wis" "$WIS" --test "$t" --mode $mode --tasks 2 \
		--seconds 1 --warmup 0 --size 1M --dir "$TMP/wis" \
		>"$TMP/wis-$t.out" 2>"$TMP/wis-$t.err" ||
		echo "$t: exit $?" >>"$TMP/wis-failed"
done
check "wis: every test exits 0" [ ! -e "$TMP/wis-failed" ]
for t in $wis_tests; do
	sed -n 2p "$TMP/wis-$t.out" >"$TMP/wis-tasks"
	sed 2d "$TMP/wis-$t.out" >"$TMP/wis-rest"
	check "wis $t prints tasks:2 after its testcase line" \
		[ "$(cat "$TMP/wis-tasks")" = "tasks:2" ]
	check "wis $t: will-it-scale's format, 1 measurement sample" \
		wis_format "$TMP/wis-rest" 0 1
	check "wis $t: quiet stderr" [ ! -s "$TMP/wis-$t.err" ]
done
check "wis leaves no files" empty_dir "$TMP/wis"

# usemem: three lines of seconds, with and without MADV_FREE.
expect_status 2 "usemem --free never" "$UM" --tasks 1 --size 1M --free never
grep_file "$TMP/err" "invalid value 'never' for --free" \
	"usemem names the bad --free"
expect_status 2 "usemem --chunk 1000" "$UM" --tasks 1 --size 1M \
	--chunk 1000
grep_file "$TMP/err" "for --chunk" "usemem names the bad --chunk"
expect_status 2 "usemem with less than a page per task" "$UM" --tasks 8 \
	--size 16K
grep_file "$TMP/err" "less than a page" "usemem says the size is too small"
expect_status 2 "usemem without --size" "$UM" --tasks 1
grep_file "$TMP/err" "missing --size" "usemem names the missing --size"
for free in keep lazy; do
	expect_status 0 "usemem --free $free runs" "$UM" --tasks 2 --size 8M \
		--passes 2 --free $free --chunk 64K
	sed 's/ .*//' "$TMP/out" >"$TMP/um-names"
	printf '%s\n' elsp syst user >"$TMP/um-want"
	check "usemem --free $free prints elsp, syst and user" \
		cmp -s "$TMP/um-names" "$TMP/um-want"
	check "usemem --free $free prints seconds with six decimals" \
		[ "$(grep -Ecx '[a-z]+ [0-9]+\.[0-9]{6}' "$TMP/out")" -eq 3 ]
done

# stream: the four kernels in MB/s.
expect_status 2 "stream --ntimes 1" "$ST" --ntimes 1
grep_file "$TMP/err" "invalid value '1' for --ntimes" \
	"stream names the bad --ntimes"
expect_status 2 "stream --size 4K" "$ST" --size 4K
grep_file "$TMP/err" "for --size" "stream names the bad --size"
expect_status 0 "stream runs" "$ST" --size 1M --ntimes 2
sed 's/ .*//' "$TMP/out" >"$TMP/st-names"
printf '%s\n' copy scale add triad >"$TMP/st-want"
check "stream prints copy, scale, add and triad" \
	cmp -s "$TMP/st-names" "$TMP/st-want"
check "stream prints positive rates with two decimals" \
	[ "$(grep -Ecx '[a-z]+ [0-9]*[1-9][0-9]*\.[0-9]{2}' "$TMP/out")" -eq 4 ]

# sembench: an "ops N" line a second, in both modes, and no semaphore
# set left behind.
expect_status 2 "sembench --mode mutex" "$SB" --mode mutex --tasks 1 \
	--seconds 1
grep_file "$TMP/err" "invalid value 'mutex' for --mode" \
	"sembench names the bad --mode"
expect_status 2 "sembench without --tasks" "$SB" --mode ring --seconds 1
grep_file "$TMP/err" "missing --tasks" "sembench names the missing --tasks"
sem_sets() {
	ipcs -s 2>/dev/null | grep -c '^0x' || true
}
sets_before=$(sem_sets)
for mode in ring shared; do
	expect_status 0 "sembench $mode runs" "$SB" --mode $mode --tasks 3 \
		--seconds 1
	check "sembench $mode prints one positive ops line" \
		[ "$(grep -Ecx 'ops [1-9][0-9]*' "$TMP/out")" -eq 1 ]
done
check "sembench removes its semaphore sets" [ "$(sem_sets)" -le "$sets_before" ]

# latency_rows FILE PREFIX: FILE starts with PREFIX-p50, -p90, -p99 and
# -max lines in microseconds, in that order and not decreasing.
latency_rows() {
	awk -v pre="$2" '
		BEGIN { split("p50 p90 p99 max", want, " ") }
		NR <= 4 {
			if ($1 != pre "-" want[NR] || $2 !~ /^[0-9]+\.[0-9][0-9][0-9]$/ ||
			    $2 + 0 < last)
				bad = 1
			last = $2 + 0
		}
		END { exit (bad || NR < 4) }
	' "$1"
}

# thpchallenge: the fault quantiles, the success rate where the kernel
# has THP, and the file in --dir removed.
expect_status 2 "thpchallenge --size 1M" "$THP" --size 1M
grep_file "$TMP/err" "invalid value '1M' for --size" \
	"thpchallenge names the bad --size"
expect_status 2 "thpchallenge without --size" "$THP" --filler 1M
grep_file "$TMP/err" "missing --size" "thpchallenge names the missing --size"
if [ -d /sys/kernel/mm/transparent_hugepage ]; then
	mkdir "$TMP/thp"
	expect_status 0 "thpchallenge runs" "$THP" --size 8M --filler 8M \
		--cache 8M --dir "$TMP/thp"
	check "thpchallenge prints the fault quantiles" \
		latency_rows "$TMP/out" fault
	# shellcheck disable=SC2016 # an awk program
	check "thpchallenge prints a success rate in percent" \
		awk '$1 == "thp-success" { ok = $2 >= 0 && $2 <= 100 }
			END { exit !ok }' "$TMP/out"
	grep_file "$TMP/out" "^compact-stall [0-9][0-9]*$" \
		"thpchallenge prints the compaction stalls"
	check "thpchallenge leaves no files" empty_dir "$TMP/thp"
else
	ok "# SKIP thpchallenge: no transparent hugepages in this kernel"
fi

# stutterp: the round quantiles, with and without the writer.
expect_status 2 "stutterp --seconds 0" "$STP" --seconds 0
grep_file "$TMP/err" "invalid value '0' for --seconds" \
	"stutterp names the bad --seconds"
expect_status 2 "stutterp --map 1K" "$STP" --seconds 1 --map 1K
grep_file "$TMP/err" "for --map" "stutterp names the bad --map"
mkdir "$TMP/stp"
for hog in 0 8M; do
	expect_status 0 "stutterp --hog $hog runs" "$STP" --seconds 0.3 \
		--hog $hog --dir "$TMP/stp"
	check "stutterp --hog $hog prints the round quantiles" \
		latency_rows "$TMP/out" map
	grep_file "$TMP/out" "^rounds [1-9][0-9]*$" \
		"stutterp --hog $hog counts its rounds"
done
check "stutterp leaves no files" empty_dir "$TMP/stp"

# kernbench: a tiny tree built and removed.
expect_status 2 "kernbench without --jobs" "$KB" --files 1
grep_file "$TMP/err" "missing --jobs" "kernbench names the missing --jobs"
if command -v make >/dev/null && command -v cc >/dev/null; then
	mkdir "$TMP/kb"
	expect_status 0 "kernbench builds a tree" "$KB" --jobs 2 --files 3 \
		--functions 2 --dir "$TMP/kb"
	sed 's/ .*//' "$TMP/out" >"$TMP/kb-names"
	printf '%s\n' elsp syst user >"$TMP/kb-want"
	check "kernbench prints elsp, syst and user" \
		cmp -s "$TMP/kb-names" "$TMP/kb-want"
	check "kernbench removes its tree" empty_dir "$TMP/kb"
else
	ok "# SKIP kernbench: no make or cc"
fi

# A benchmark program that is missing names where it comes from: netperf
# is in Debian's non-free section only, so the hint points at netstream;
# pgbench comes with postgresql.
hint_config() {
	cat >"$TMP/hint-$1.yaml" <<EOF
name: hint
env: { PATH: /nonexistent }
workloads:
  - name: $1
    command: [$1, x]
    metrics: [{ name: t, extract: { parser: $2 } }]
EOF
}
hint_config netperf netperf
expect_status 2 "a run of netperf without netperf" "$MMCMP" run \
	"$TMP/hint-netperf.yaml"
grep_file "$TMP/err" "netperf is in Debian's non-free section only" \
	"the netperf hint says where netperf comes from"
grep_file "$TMP/err" "configs/netstream.yaml" \
	"the netperf hint points at netstream"
hint_config pgbench pgbench
expect_status 2 "a run of pgbench without pgbench" "$MMCMP" run \
	"$TMP/hint-pgbench.yaml"
grep_file "$TMP/err" "install the Debian package 'postgresql'" \
	"the pgbench hint names postgresql"

done_testing
