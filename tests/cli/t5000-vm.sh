#!/bin/sh
# mmcmp run with kernels, in QEMU guests under TCG (emulated: the
# timings here test behaviour, not speed): two kernels (the Debian cloud
# kernel with THP always and never) x 2 boots x 2 iterations interleaved
# A B B A, with the guest's facts and boots stored; a kernel that
# panics, a boot that times out, a hung workload, a guest whose
# watchdog is no longer petted, and Ctrl-C, each bounded and kept;
# --until stopping between boots; --check and its errors; noise on the
# protocol port, and a workload printing more than the port carries.
#
# Needs qemu-system-x86_64 (Debian package qemu-system-x86) and a kernel:
# $MMCMP_TEST_KERNEL, else the newest /boot/vmlinuz-*-cloud-amd64
# (linux-image-cloud-amd64); scripts/setup installs both.
. ./lib.sh
: "${WORKLOAD_PAGE_FAULT:?}"
need_guest
need sqlite3 "Debian package sqlite3"
cpu_first
echo "# kernel $kernel"
# The executor's directory, and so qemu's command line, under $TMP.
export TMPDIR="$TMP"

# 1. Two kernels x 2 boots x 2 iterations, A B B A. The workload runs
# from a copy under $TMP, which is below /tmp: the guest must not hide
# the programs packed there (as a tmpfs mounted on /tmp once did).
mkdir "$TMP/bin"
cp "$WORKLOAD_PAGE_FAULT" "$TMP/bin/page-fault"
cat >"$TMP/two.yaml" <<EOF2
name: two
iterations: 2
timeout: 60
workloads:
  - name: pf
    command: ["$TMP/bin/page-fault", "--mode", "processes", "--tasks", "1",
              "--seconds", "1", "--warmup", "0", "--size", "16M"]
    metrics:
      - name: ops
        better: higher
        extract: { parser: will-it-scale }
kernels:
  thp:   { image: $kernel, append: "transparent_hugepage=always" }
  nothp: { image: $kernel, append: "transparent_hugepage=never" }
vm: { cpus: 1, memory: 1G, accel: tcg, boots: 2, boot_timeout: 120 }
EOF2
expect_status 0 "--check prints the boot schedule" \
	"$MMCMP" run --check --label k "$TMP/two.yaml"
grep_file "$TMP/out" "^boots: 1:thp 2:nothp 3:nothp 4:thp$" "boots alternate A B B A"
grep_file "$TMP/out" "^vm: .*, accel tcg, .*, no address-space randomisation (norandmaps)$" \
	"under tcg the guests run without randomised mappings"
grep_file "$TMP/out" "^kernel thp: .* (release [0-9]" "the release is read from the image"
grep_file "$TMP/out" "^label k-thp kernel thp$" "--check calls a kernel a kernel"
# What a killed run's executor left: a directory named with the pid and
# start time of a process that is gone (this shell's pid, another start)
# goes at the next start; that of a live process (this shell) stays.
self_start=$(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f20)
mkdir "$TMP/mmcmp-vm-$$-1-dead00" "$TMP/mmcmp-vm-$$-$self_start-live00"
: >"$TMP/mmcmp-vm-$$-1-dead00/root.cpio.gz"
expect_status 0 "two kernels x 2 boots x 2 iterations run" \
	"$MMCMP" run -q --label k "$TMP/two.yaml"
check "the directory a killed run left is removed" test ! -e "$TMP/mmcmp-vm-$$-1-dead00"
check "that of a live process stays" test -d "$TMP/mmcmp-vm-$$-$self_start-live00"
rmdir "$TMP/mmcmp-vm-$$-$self_start-live00"
check "boots stored in order A B B A" \
	test "$(q "SELECT group_concat(kernel, ' ') FROM (SELECT kernel FROM boot ORDER BY number, run_id)")" = "thp nothp nothp thp"
check "each label has its 2 boots x 2 iterations" \
	test "$(q "SELECT group_concat(r.label || ':' || i.boot, ' ') FROM (SELECT * FROM iteration ORDER BY id) i JOIN run r ON r.id = i.run_id")" = "k-thp:1 k-thp:1 k-nothp:2 k-nothp:2 k-nothp:3 k-nothp:3 k-thp:4 k-thp:4"
check "all iterations ok, each with a sample" \
	test "$(q "SELECT count(*) FROM iteration i JOIN sample s ON s.iteration_id = i.id WHERE i.status = 'ok'")" = 8
host_release=$(uname -r)
check "the guest's release is stored, not the host's" \
	test "$(q "SELECT count(*) FROM boot WHERE guest_release IS NOT NULL AND guest_release <> '$host_release' AND guest_release = image_release")" = 4
check "the guest's command line is stored, with the kernel's append" \
	test "$(q "SELECT count(*) FROM boot WHERE guest_cmdline LIKE '%console=ttyS0%transparent_hugepage=always' AND kernel = 'thp'")" = 2
check "the guest's THP mode differs by kernel" \
	test "$(q "SELECT group_concat(DISTINCT kernel || '=' || (guest_facts LIKE '%thp_enabled=always%')) FROM boot")" = "thp=1,nothp=0"
check "image digest, qemu and accel are stored" \
	test "$(q "SELECT count(*) FROM boot WHERE length(image_sha256) = 64 AND qemu_version LIKE 'QEMU%' AND qemu_cmdline LIKE '%-accel tcg%' AND accel = 'tcg' AND cpus = 1 AND memory_mb = 1024 AND boot_s > 0 AND failed IS NULL")" = 4
check "every boot ran with the guest's watchdog, and records it" \
	test "$(q "SELECT count(*) FROM boot WHERE guest_facts LIKE '%watchdog=%, 30 s%' AND qemu_cmdline LIKE '%-device i6300esb -action %watchdog=poweroff%'")" = 4
check "vCPU pinning is recorded (pinned, or why not)" \
	test "$(q "SELECT count(*) FROM boot WHERE pinning LIKE 'vCPU0=CPU%' OR pinning LIKE 'none: %'")" = 4
check "the guest's monitors show THP faults only with THP always" \
	test "$(q "SELECT group_concat(r.label || '=' || (coalesce(sum_thp, 0) > 0)) FROM (SELECT i.run_id, sum(json_extract(m.vmstat, '\$.thp_fault_alloc')) AS sum_thp FROM iteration i JOIN iteration_monitor m ON m.iteration_id = i.id GROUP BY i.run_id) t JOIN run r ON r.id = t.run_id")" = "k-thp=1,k-nothp=0"
expect_status 0 "compare the two kernels" "$MMCMP" compare k-thp k-nothp
tr '\n' ' ' <"$TMP/out" | tr -s ' ' >"$TMP/flat"
grep_file "$TMP/flat" " guest $(q "SELECT guest_release FROM boot LIMIT 1") '[^']*transparent_hugepage=never', image $kernel (sha256 [0-9a-f]\{12\}), 2 boots " \
	"the provenance block shows each label's guest"
grep_file "$TMP/flat" " guest thp_enabled: 'always' in k-thp, 'never' in k-nothp " \
	"and the guests' THP modes among the differences"
check "other command lines: not the same image warning" \
	sh -c "! grep -q 'booted the same image' '$TMP/out'"

expect_status 0 "the kernels' runs export" "$MMCMP" export json -o "$TMP/two.json" k-thp k-nothp
expect_status 0 "and import into another database" \
	"$MMCMP" --db "$TMP/copy.db" import "$TMP/two.json"
boots_of() {
	sqlite3 "$1" "SELECT group_concat(r.label || ':' || b.number || ':' || b.kernel || ':' || b.image_sha256 || ':' || b.guest_facts || ':' || b.qemu_cmdline, '|') FROM (SELECT * FROM boot ORDER BY number) b JOIN run r ON r.id = b.run_id"
}
check "the boots come along, facts and all" \
	test "$(boots_of "$TMP/copy.db")" = "$(boots_of "$MMCMP_DB")"
iter_boots="SELECT group_concat(l || ':' || boot, ' ') FROM (SELECT r.label AS l, i.boot FROM iteration i JOIN run r ON r.id = i.run_id ORDER BY r.label, i.id)"
check "and so does each iteration's boot" \
	test "$(sqlite3 "$TMP/copy.db" "$iter_boots")" = "k-nothp:2 k-nothp:2 k-nothp:3 k-nothp:3 k-thp:1 k-thp:1 k-thp:4 k-thp:4"

# 2. A kernel that panics, then one whose workload hangs: both bounded,
# the schedule goes on.
cat >"$TMP/faults.yaml" <<EOF2
name: faults
iterations: 1
timeout: 3
workloads:
  - name: hang
    command: ["sleep", "1000"]
    metrics:
      - name: elapsed
        extract: { measure: elapsed }
kernels:
  panics: { image: $kernel, append: "rdinit=/nonexistent init=/nonexistent" }
  hangs:  { image: $kernel }
vm: { cpus: 1, memory: 512M, accel: tcg, boots: 1, boot_timeout: 120 }
EOF2
expect_status 1 "a panic and a hung workload fail their iterations" \
	"$MMCMP" run -q --label f "$TMP/faults.yaml"
grep_file "$TMP/err" "boot 1 of kernel 'panics' failed" "the failed boot is reported"
check "the panicking boot's iteration keeps the console's tail" \
	test "$(q "SELECT count(*) FROM iteration i JOIN run r ON r.id = i.run_id WHERE r.label = 'f-panics' AND i.status = 'exec' AND i.stderr_tail LIKE '%Kernel panic%'")" = 1
check "the boot records why it failed" \
	test "$(q "SELECT count(*) FROM boot b JOIN run r ON r.id = b.run_id WHERE r.label = 'f-panics' AND b.failed LIKE 'boot 1: no agent: qemu exited%' AND b.guest_release IS NULL")" = 1
check "the hung workload is timed out in the guest" \
	test "$(q "SELECT i.status || ' ' || (i.elapsed_s < 30) FROM iteration i JOIN run r ON r.id = i.run_id WHERE r.label = 'f-hangs'")" = "timeout 1"

# 3. A boot that does not reach the agent in time.
sed 's/boot_timeout: 120/boot_timeout: 1/; s/boots: 1/boots: 1/' \
	"$TMP/faults.yaml" | sed '/panics:/d' >"$TMP/slow.yaml"
expect_status 1 "a boot timeout fails the boot's iterations" \
	"$MMCMP" run -q --label s "$TMP/slow.yaml"
check "the boot timeout is the reason" \
	test "$(q "SELECT count(*) FROM boot b JOIN run r ON r.id = b.run_id WHERE r.label = 's-hangs' AND b.failed LIKE '%boot_timeout 1s%'")" = 1
check "no qemu of this test is left" \
	sh -c "! pgrep -f -- '[q]emu-system-x86_64 .*$TMP/mmcmp-vm' >/dev/null"

# 4. Ctrl-C: the guest goes, the finished iterations stay.
cat >"$TMP/intr.yaml" <<EOF2
name: intr
iterations: 1
timeout: 600
workloads:
  - name: quick
    command: ["true"]
    metrics:
      - name: elapsed
        extract: { measure: elapsed }
  - name: hang
    command: ["sleep", "1000"]
    metrics:
      - name: elapsed
        extract: { measure: elapsed }
kernels:
  k: { image: $kernel }
vm: { cpus: 1, memory: 512M, accel: tcg, boots: 1, boot_timeout: 120 }
EOF2
"$MMCMP" run -q --label i "$TMP/intr.yaml" >"$TMP/out" 2>"$TMP/err" &
pid=$!
one_stored() {
	[ "$(q "SELECT count(*) FROM iteration i JOIN run r ON r.id = i.run_id WHERE r.label = 'i-k'" 2>/dev/null || echo 0)" = 1 ]
}
wait_for 120 one_stored || true
# The hang has started in the guest by then; nothing on the host shows
# when, so this one wait is a fixed one.
sleep 1
kill -INT $pid
set +e
wait $pid
got=$?
set -e
check "Ctrl-C ends the run with status 130 (got $got)" test "$got" = 130
check "the finished iteration is kept, the interrupted one is not" \
	test "$(q "SELECT group_concat(i.benchmark || ':' || i.status) FROM iteration i JOIN run r ON r.id = i.run_id WHERE r.label = 'i-k'")" = "quick:ok"
check "the run is marked interrupted" \
	test "$(q "SELECT status FROM run WHERE label = 'i-k'")" = interrupted
check "no qemu is left after Ctrl-C" \
	sh -c "! pgrep -f -- '[q]emu-system-x86_64 .*$TMP/mmcmp-vm' >/dev/null"
check "no guest directory is left behind" \
	sh -c "! ls -d '$TMP'/mmcmp-vm-* 2>/dev/null"

# 4b. The watchdog: a workload stops the agent's petting child (as a
# guest whose user space no longer runs would), so the watchdog of 5 s
# (mmcmp.watchdog=5) reboots the guest long before the iteration's
# timeout; -no-reboot makes that qemu's exit, and the boot's iteration
# fails with the console's tail.
sed 's|\["true"\]|["pkill", "-STOP", "-x", "mmcmp-watchdog"]|; s/name: quick/name: stop/' \
	"$TMP/intr.yaml" | sed "s|image: $kernel }|image: $kernel, append: \"mmcmp.watchdog=5\" }|" >"$TMP/wd.yaml"
if command -v pkill >/dev/null; then
	start=$(date +%s)
	expect_status 1 "a guest whose watchdog is not petted is ended" \
		"$MMCMP" run -q --label w "$TMP/wd.yaml"
	check "by the watchdog, well before the iteration's timeout" \
		test $(($(date +%s) - start)) -lt 300
	check "the boot records its watchdog of 5 s" \
		test "$(q "SELECT count(*) FROM boot b JOIN run r ON r.id = b.run_id WHERE r.label = 'w-k' AND b.guest_facts LIKE '%watchdog=%, 5 s%'")" = 1
	check "the hung iteration failed with the console's tail" \
		test "$(q "SELECT group_concat(i.benchmark || ':' || (i.status = 'ok') || ':' || (i.stderr_tail LIKE '%qemu exited%'), ' ') FROM iteration i JOIN run r ON r.id = i.run_id WHERE r.label = 'w-k'")" = "stop:1:0 hang:0:1"
else
	ok "# SKIP no pkill (Debian package procps)"
fi

# 5. --until with kernels: the first boot's 5 iterations are the rule's
# pilot, stored as warm-ups; a constant metric then needs 5 measured
# ones, the second boot's, so the third boot of vm.boots: 3 is not made.
# The iterations run between prepare and conclude hooks (a shell string
# and an argv), which the guest must have as well.
cat >"$TMP/until.yaml" <<EOF2
name: until
iterations: 5
until: 5
prepare: ["echo 1 > /proc/sys/vm/drop_caches"]
workloads:
  - name: five
    command: ["echo", "total:5"]
    conclude: [["true"]]
    metrics:
      - name: total
        extract: { regex: "total:([0-9]+)" }
kernels:
  k: { image: $kernel }
vm: { cpus: 1, memory: 512M, accel: tcg, boots: 3, boot_timeout: 120 }
EOF2
expect_status 0 "until: with kernels runs" "$MMCMP" run -q --label u "$TMP/until.yaml"
check "two boots of three: the pilot's and one precise enough" \
	test "$(q "SELECT count(*) || ':' || min(b.number) FROM boot b JOIN run r ON r.id = b.run_id WHERE r.label = 'u-k'")" = "2:1"
check "with 5 pilot and 5 measured iterations, hooks and all" \
	test "$(q "SELECT sum(i.warmup) || ':' || count(*) FROM iteration i JOIN run r ON r.id = i.run_id WHERE r.label = 'u-k' AND i.status = 'ok'")" = "5:10"
check "and no hook failed" sh -c "! grep -q 'conclude' '$TMP/err'"
expect_status 0 "show --config of it" "$MMCMP" show --config u-k
grep_file "$TMP/out" "^  stopped:   five: 5 iterations, stopped on precision$" \
	"the run records that it stopped on precision"

# 6. --check errors.
sed "s|image: $kernel|image: $TMP/missing|" "$TMP/intr.yaml" >"$TMP/missing.yaml"
expect_status 2 "--check: a missing image" \
	"$MMCMP" run --check "$TMP/missing.yaml"
grep_file "$TMP/err" "kernel 'k': image '$TMP/missing' is not installed" "the missing image is named"
echo "not a kernel" >"$TMP/text"
sed "s|image: $kernel|image: $TMP/text|" "$TMP/intr.yaml" >"$TMP/text.yaml"
expect_status 2 "--check: an image that is not a bzImage" \
	"$MMCMP" run --check "$TMP/text.yaml"
grep_file "$TMP/err" "is not a bzImage" "the error says so"
sed 's|\["true"\]|["/bin/true"]|; /name: hang/,$d' "$TMP/intr.yaml" >"$TMP/noqemu.yaml"
cat >>"$TMP/noqemu.yaml" <<EOF2
kernels:
  k: { image: $kernel }
EOF2
expect_status 2 "--check: no qemu" \
	env PATH=/nonexistent "$MMCMP" run --check "$TMP/noqemu.yaml"
grep_file "$TMP/err" "install the Debian package 'qemu-system-x86'" "the error names the Debian package"
sed 's/memory: 512M/memory: 100000G/' "$TMP/intr.yaml" >"$TMP/huge.yaml"
expect_status 2 "--check: a guest larger than the machine is refused" \
	"$MMCMP" run --check "$TMP/huge.yaml"
grep_file "$TMP/err" "vm: memory 102400000 MiB does not fit" "the error says so"
sed 's|^timeout: 600|&\nprepare: [["mmcmp-no-such-program"]]|' "$TMP/intr.yaml" >"$TMP/nohook.yaml"
expect_status 2 "--check: a hook the guest cannot have is refused" \
	"$MMCMP" run --check "$TMP/nohook.yaml"
grep_file "$TMP/err" "program 'mmcmp-no-such-program' for the guest" "the error names it"
sed 's|^timeout: 600|&\nsettings: { /proc/sys/vm/swappiness: "10" }|' "$TMP/intr.yaml" >"$TMP/settings.yaml"
expect_status 2 "--check: settings with kernels are refused" \
	"$MMCMP" run --check "$TMP/settings.yaml"
grep_file "$TMP/err" "setting '/proc/sys/vm/swappiness' cannot be used with kernels: .*(append: \"sysctl.vm.swappiness=10\")" \
	"naming the key and the kernel's parameter"
# A FIFO named as an image is refused, never opened for a read that
# would wait for a writer forever (the bound only stops a hang).
mkfifo "$TMP/fifo.img"
expect_status 2 "--check: a FIFO as a kernel image is refused" \
	timeout 120 "$MMCMP" run --check --kernel "a=$TMP/fifo.img" "$TMP/intr.yaml"
grep_file "$TMP/err" "image '$TMP/fifo.img' is a FIFO, not a regular file" \
	"the error says what the image is"
expect_status 2 "--kernel without an image is a usage error" \
	"$MMCMP" run --check --kernel nope "$TMP/intr.yaml"
expect_status 0 "--kernel adds a kernel" \
	"$MMCMP" run --check --label c --kernel "extra=$kernel,append=quiet x=1,2" "$TMP/intr.yaml"
grep_file "$TMP/out" "^kernel extra: $kernel (release .*), append quiet x=1,2$" "with its whole append"
grep_file "$TMP/out" "^boots: 1:k 2:extra$" "after the config's"

# 7. Bytes on the protocol port that are no frame, written there by a
# workload in the guest (two stray bytes, then a false header claiming
# 256 MiB), are skipped, and each result is paired with its request by
# number: every iteration stores its own workload's value, none an
# earlier iteration's.
cat >"$TMP/noise.yaml" <<'EOF2'
name: noise
iterations: 2
timeout: 30
monitors: false
workloads:
  - name: noisy
    command: [sh, -c, "[ -e /tmp/once ] || (: >/tmp/once; printf xx >/dev/ttyS1; printf 'MMVP\\002\\003\\000\\000\\000\\000\\000\\020garbage!MMVP' >/dev/ttyS1); echo total:1"]
    metrics: [{name: t, extract: {regex: "total:([0-9]+)"}}]
  - name: quiet
    command: [sh, -c, "echo total:2"]
    metrics: [{name: t, extract: {regex: "total:([0-9]+)"}}]
  - name: third
    command: [sh, -c, "echo total:3"]
    metrics: [{name: t, extract: {regex: "total:([0-9]+)"}}]
EOF2
cat >>"$TMP/noise.yaml" <<EOF2
kernels:
  k: { image: $kernel }
vm: { cpus: 1, memory: 512M, accel: tcg, boots: 1, boot_timeout: 60 }
EOF2
# stored LABEL ORDER: BENCHMARK=STATUS=VALUE of each sample of run LABEL,
# in ORDER (SQL over iteration i), joined by spaces.
stored() {
	q "SELECT group_concat(v, ' ') FROM (SELECT i.benchmark || '=' || i.status || '=' || s.value AS v FROM iteration i JOIN run r ON r.id = i.run_id JOIN sample s ON s.iteration_id = i.id WHERE r.label = '$1' ORDER BY $2)"
}
expect_status 0 "noise on the protocol port fails no iteration" \
	"$MMCMP" run -q --label n "$TMP/noise.yaml"
check "each iteration stores its own workload's value" \
	test "$(stored n-k "i.benchmark, i.idx")" = \
	"noisy=ok=1.0 noisy=ok=1.0 quiet=ok=2.0 quiet=ok=2.0 third=ok=3.0 third=ok=3.0"

# 8. A workload that prints more than the serial link carries in time
# keeps what it carries in boot_timeout (8 KiB/s), its value and the
# reason its stdout was cut; the boot goes on with the next workload.
cat >"$TMP/flood.yaml" <<EOF2
name: flood
iterations: 1
timeout: 60
monitors: false
workloads:
  - name: flood
    command: ["$FAKE_BENCH", "--print", "total:7", "--flood", "20000000"]
    metrics: [{name: t, extract: {regex: "total:([0-9]+)"}}]
  - name: after
    command: ["$FAKE_BENCH", "--print", "total:8"]
    metrics: [{name: t, extract: {regex: "total:([0-9]+)"}}]
kernels:
  k: { image: $kernel }
vm: { cpus: 1, memory: 512M, accel: tcg, boots: 1, boot_timeout: 60 }
EOF2
expect_status 0 "a flood of stdout in a guest fails no iteration" \
	"$MMCMP" run -q --label fl "$TMP/flood.yaml"
check "both workloads store their values" \
	test "$(stored fl-k i.id)" = "flood=ok=7.0 after=ok=8.0"
check "the flood's stdout is cut at what the link carries, and says so" \
	test "$(q "SELECT count(*) FROM iteration i JOIN run r ON r.id = i.run_id WHERE r.label = 'fl-k' AND i.benchmark = 'flood' AND i.stderr_tail LIKE '%stdout truncated after 491520 bytes%serial link carries in boot_timeout (60s)%'")" = 1

# 9. The workload pack in a guest: wis (will-it-scale page_fault1) and
# usemem, named as configs/ name them (found on mmcmp's PATH of built-in
# workloads), packed into the initramfs with their libraries; this boot
# with aslr: true, which keeps the kernel's randomisation under tcg.
cat >"$TMP/pack.yaml" <<EOF2
name: pack
iterations: 1
timeout: 60
monitors: false
workloads:
  - name: wis-pf
    command: ["wis", "--test", "page_fault1", "--mode", "processes",
              "--tasks", "1", "--seconds", "1", "--warmup", "0",
              "--size", "8M"]
    operation: "{metric}-page_fault1_processes-1"
    metrics:
      - { name: ops, better: higher, extract: { parser: will-it-scale } }
  - name: usemem
    command: ["usemem", "--tasks", "2", "--size", "16M", "--passes", "2"]
    operation: "{metric}-2"
    metrics:
      - { name: elsp, extract: { parser: kv, field: elsp } }
  - name: aslr
    command: ["cat", "/proc/sys/kernel/randomize_va_space"]
    metrics:
      - { name: va, extract: { regex: "([0-9]+)" } }
kernels:
  k: { image: $kernel }
vm: { cpus: 1, memory: 512M, accel: tcg, aslr: true, boots: 1, boot_timeout: 60 }
EOF2
expect_status 0 "wis and usemem run in a guest" \
	"$MMCMP" run -q --label pk "$TMP/pack.yaml"
check "each stores a positive value from the guest" \
	test "$(q "SELECT group_concat(v, ' ') FROM (SELECT i.benchmark || '=' || i.status || '=' || (s.value > 0) AS v FROM iteration i JOIN run r ON r.id = i.run_id JOIN sample s ON s.iteration_id = i.id WHERE r.label = 'pk-k' AND i.benchmark <> 'aslr' ORDER BY i.id)")" = \
	"wis-pf=ok=1 usemem=ok=1"
check "the rows carry mmtests' names" \
	test "$(q "SELECT group_concat(name, ',') FROM (SELECT o.name FROM operation o JOIN run r ON r.id = o.run_id WHERE r.label = 'pk-k' AND o.name <> 'va' ORDER BY o.seq)")" = \
	"ops-page_fault1_processes-1,elsp-2"
# With aslr: true the kernel keeps its randomisation (2) under tcg too.
check "aslr: true leaves the kernel's randomisation on" \
	test "$(q "SELECT s.value || ' ' || (b.guest_cmdline LIKE '%norandmaps%') FROM sample s JOIN iteration i ON i.id = s.iteration_id JOIN run r ON r.id = i.run_id JOIN boot b ON b.run_id = r.id WHERE r.label = 'pk-k' AND i.benchmark = 'aslr'")" = "2.0 0"

# 10. What crosses the serial link once per boot rather than per request
# still reaches every iteration: each workload's environment (sent with
# its first request, then named "the same"), and the monitors' snapshots
# (the guest sends the values that changed) stored as a local run stores
# them, meminfo whole at start and end and only vmstat's changes. This
# boot has aslr: auto, which under tcg turns randomisation off.
cat >"$TMP/env.yaml" <<EOF2
name: env
iterations: 3
timeout: 60
workloads:
  - name: forty-two
    command: ["printenv", "MMCMP_T_VALUE"]
    env: { MMCMP_T_VALUE: "42" }
    metrics:
      - { name: v, extract: { regex: "([0-9]+)" } }
  - name: seven
    command: ["printenv", "MMCMP_T_VALUE"]
    env: { MMCMP_T_VALUE: "7" }
    metrics:
      - { name: v, extract: { regex: "([0-9]+)" } }
  - name: aslr
    command: ["cat", "/proc/sys/kernel/randomize_va_space"]
    metrics:
      - { name: va, extract: { regex: "([0-9]+)" } }
kernels:
  k: { image: $kernel }
vm: { cpus: 1, memory: 512M, accel: tcg, boots: 1, boot_timeout: 60 }
EOF2
expect_status 0 "two environments in one boot" \
	"$MMCMP" run -q --label ev "$TMP/env.yaml"
check "every iteration ran with its workload's environment" \
	test "$(q "SELECT group_concat(v, ' ') FROM (SELECT i.benchmark || '=' || s.value AS v FROM iteration i JOIN run r ON r.id = i.run_id JOIN sample s ON s.iteration_id = i.id WHERE r.label = 'ev-k' AND NOT i.warmup AND i.benchmark <> 'aslr' ORDER BY i.id)")" = \
	"forty-two=42.0 forty-two=42.0 forty-two=42.0 seven=7.0 seven=7.0 seven=7.0"
# Under tcg the guests run without address-space randomisation (aslr:
# auto), so that an exec does not translate its libraries again.
check "under tcg the guest's kernel got norandmaps, and randomises nothing" \
	test "$(q "SELECT group_concat(DISTINCT s.value || ' ' || (b.guest_cmdline LIKE '% norandmaps%')) FROM sample s JOIN iteration i ON i.id = s.iteration_id JOIN run r ON r.id = i.run_id JOIN boot b ON b.run_id = r.id WHERE r.label = 'ev-k' AND i.benchmark = 'aslr'")" = "0.0 1"
check "meminfo whole at start and end of each guest iteration" \
	test "$(q "SELECT count(*) FROM iteration_monitor m JOIN iteration i ON i.id = m.iteration_id JOIN run r ON r.id = i.run_id WHERE r.label = 'ev-k' AND json_extract(m.meminfo_start, '$.MemTotal') > 0 AND (SELECT count(*) FROM json_each(m.meminfo_start)) > 30 AND (SELECT count(*) FROM json_each(m.meminfo_start)) = (SELECT count(*) FROM json_each(m.meminfo_end))")" = 9
check "vmstat holds changes only, and some" \
	test "$(q "SELECT sum((SELECT count(*) FROM json_each(m.vmstat) WHERE value = 0)) || ' ' || (sum((SELECT count(*) FROM json_each(m.vmstat))) > 0) FROM iteration_monitor m JOIN iteration i ON i.id = m.iteration_id JOIN run r ON r.id = i.run_id WHERE r.label = 'ev-k'")" = "0 1"
# The link packs a value that stood still since the last one sent as its
# name's number alone. Of the fields that moved in an iteration, those
# that stood still until the next one must start it where they ended; a
# stale value would be where they were first sent, or where the
# iteration started. How many stand still depends on how busy the guest
# is between iterations (most here, fewer when the host is loaded), but
# matching a stale value happens only by chance: the matches with the
# end must outnumber those with a stale value.
check "what moved in an iteration starts the next where it ended" \
	test "$(q "WITH m AS (SELECT m.meminfo_start AS s, m.meminfo_end AS e, row_number() OVER (ORDER BY i.id) AS n FROM iteration_monitor m JOIN iteration i ON i.id = m.iteration_id JOIN run r ON r.id = i.run_id WHERE r.label = 'ev-k') SELECT count(*) > 0 AND sum(c.value = b.value) > sum(c.value != b.value AND (c.value = a.value OR c.value = f.value)) FROM m p JOIN m x ON x.n = p.n + 1, json_each(p.e) b JOIN json_each(p.s) a ON a.key = b.key JOIN json_each(x.s) c ON c.key = b.key JOIN json_each((SELECT s FROM m WHERE n = 1)) f ON f.key = b.key WHERE a.value != b.value AND b.value != f.value")" = 1
check "and the guest's gauges' levels at the end of each iteration" \
	test "$(q "SELECT count(*) FROM iteration_monitor m JOIN iteration i ON i.id = m.iteration_id JOIN run r ON r.id = i.run_id WHERE r.label = 'ev-k' AND json_extract(m.vmstat_end, '$.nr_free_pages') > 0 AND json_extract(m.vmstat_end, '$.pgfault') IS NULL")" = 9

done_testing
