#!/bin/sh
# mmcmp campaign: kernels booted on the machine itself. On this host
# only what boots nothing: start --check (the A B B A schedule, each
# boot's command line, the unit it would install, verified by
# systemd-analyze), the refusals before anything is installed, status
# and abort. Then a QEMU machine under TCG plays the machine (see
# below): it boots by kexec inside the guest.
. ./lib.sh
: "${WORKLOAD_PAGE_FAULT:?}"
need_guest_kernel
need sqlite3 "Debian package sqlite3"
[ "$(id -u)" = 0 ] || skip_all "a campaign is started as root"
cpu_first
# is DESCRIPTION GOT WANT: pass when GOT is WANT, else show both.
is() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		echo "# got:  '$2'"
		echo "# want: '$3'"
	fi
}

# 1. --check: the schedule, the command lines, the unit. Never without
# --check on this host: a campaign would kexec it.
cat >"$TMP/c.yaml" <<EOF2
name: c
iterations: 1
workloads:
  - name: t
    command: ["true"]
    metrics:
      - name: e
        extract: { measure: elapsed }
kernels:
  thp:   { image: $kernel, append: "transparent_hugepage=always" }
  nothp: { image: $kernel, append: "transparent_hugepage=never" }
machine: { boots: 3, settle: 0 }
EOF2
expect_status 0 "start --check prints the schedule" \
	"$MMCMP" campaign start --check --no-unit --label k "$TMP/c.yaml"
grep_file "$TMP/out" "^boots: 1:thp 2:nothp 3:nothp 4:thp 5:thp 6:nothp$" "boots alternate A B B A A B"
grep_file "$TMP/out" "^  boot 2: kernel nothp, $kernel (release [0-9][^)]*), command line: .*transparent_hugepage=never mmcmp.campaign=ID mmcmp.boot=2" \
	"each boot's command line carries the append and the tokens"
grep_file "$TMP/out" "^would create the campaign; its number, ID below, is given when it is recorded$" \
	"--check gives no campaign number, as it records none"
grep_file "$TMP/out" "^would install no unit (--no-unit)" "--no-unit installs none"
check "--check stores nothing" test ! -e "$MMCMP_DB"
if [ ! -d /run/systemd/system ]; then
	expect_status 2 "without systemd start refuses, unless --no-unit" \
		"$MMCMP" campaign start --check --label k "$TMP/c.yaml"
	grep_file "$TMP/err" "systemd is not running here" "and says why"
fi
expect_status 0 "start --check shows the unit" \
	"$MMCMP" campaign start --check --no-unit --label k "$TMP/c.yaml"
sed -n '/^\[Unit\]/,$p' "$TMP/out" >"$TMP/mmcmp-campaign.service"
grep_file "$TMP/mmcmp-campaign.service" "^ExecStart=/.*mmcmp --db $MMCMP_DB campaign resume$" \
	"the unit resumes the campaign of this database"
grep_file "$TMP/mmcmp-campaign.service" "^WantedBy=multi-user.target$" "after every boot"
# The unit's text checked by systemd itself, where it is installed.
if command -v systemd-analyze >/dev/null 2>&1; then
	expect_status 0 "systemd-analyze verify takes the unit" \
		systemd-analyze verify "$TMP/mmcmp-campaign.service"
fi

# 2. Refusals, each before anything is installed or stored.
refuse() {
	refuse_what=$1
	refuse_why=$2
	shift 2
	expect_status 2 "$refuse_what" "$MMCMP" campaign start --check --no-unit --label k "$@"
	grep_file "$TMP/err" "$refuse_why" "$refuse_what: says why"
}
sed "s|image: $kernel, append: \"transparent_hugepage=never\"|image: $TMP/none|" \
	"$TMP/c.yaml" >"$TMP/missing.yaml"
refuse "a missing image" "image '$TMP/none' is not there" "$TMP/missing.yaml"
printf 'not a kernel\n' >"$TMP/notbz"
sed "s|image: $kernel, append: \"transparent_hugepage=never\"|image: $TMP/notbz|" \
	"$TMP/c.yaml" >"$TMP/notbz.yaml"
refuse "an image that is not a bzImage" "'$TMP/notbz' is not a bzImage.*kernel 'nothp'" "$TMP/notbz.yaml"
sed "s|append: \"transparent_hugepage=never\"|initrd: $TMP/none|" \
	"$TMP/c.yaml" >"$TMP/initrd.yaml"
refuse "a missing initrd" "initrd '$TMP/none' is not there" "$TMP/initrd.yaml"
sed "s|machine: { boots: 3, settle: 0 }|machine: { method: reboot }|" \
	"$TMP/c.yaml" >"$TMP/reboot.yaml"
refuse "method reboot without an entry" "needs its boot loader entry" "$TMP/reboot.yaml"
sed "s|machine: .*|vm: { boots: 2 }|" "$TMP/c.yaml" >"$TMP/vm.yaml"
refuse "a config without machine:" "needs 'kernels:' and 'machine:'" "$TMP/vm.yaml"
if [ -d /dev/shm ] && [ "$(stat -f -c %T /dev/shm)" = tmpfs ]; then
	expect_status 2 "a database on tmpfs" env MMCMP_DB=/dev/shm/mmcmp-t5100-$$.db \
		"$MMCMP" campaign start --check --no-unit --label k "$TMP/c.yaml"
	grep_file "$TMP/err" "is on a tmpfs, which a reboot empties" "a database on tmpfs: says why"
	check "and creates none" test ! -e /dev/shm/mmcmp-t5100-$$.db
fi
expect_status 2 "mmcmp run refuses a machine: config" "$MMCMP" run --check "$TMP/c.yaml"
grep_file "$TMP/err" "use mmcmp campaign start" "and names the command"
expect_status 2 "start needs --label" "$MMCMP" campaign start --check "$TMP/c.yaml"
expect_status 2 "an unknown verb" "$MMCMP" campaign frobnicate
grep_file "$TMP/err" "unknown campaign command 'frobnicate'" "is named"

# 3. status and abort without a campaign.
expect_status 1 "status without a database" "$MMCMP" campaign status
grep_file "$TMP/err" "no database at '$MMCMP_DB'" "names it"
expect_status 1 "abort without a campaign" "$MMCMP" campaign abort
grep_file "$TMP/err" "no campaign is running" "says there is none"
expect_status 0 "status without a campaign" "$MMCMP" campaign status
grep_file "$TMP/out" "^no campaign$" "says there is none"

# 4. The machine: the Debian cloud kernel under QEMU (TCG, emulated: the
# timings test behaviour, not speed) boots an initramfs that mmcmp
# writes (busybox, mmcmp and its libraries, the workload); the
# databases, the configs, the image and that initramfs (what kexec
# boots) live on an NVMe disk image made with mke2fs -d and read back
# with debugfs. /init plays the resume unit: the first boot starts the
# campaign of 4a, every later one resumes it; back home at its end, it
# starts the campaign of 4c, whose faults end at home too, and powers
# off. A reset (a reboot, a panic) comes back to QEMU's -kernel: the
# default kernel. One machine for both campaigns, so its home boots
# once between them; each boot costs seconds of TCG, and the kernel's
# crypto self-tests (cryptomgr.notests) are a third of its boot.
need qemu-system-x86_64 "Debian package qemu-system-x86"
need busybox "Debian package busybox-static"
need mke2fs "Debian package e2fsprogs"
need debugfs "Debian package e2fsprogs"
busybox=$(command -v busybox)
if ! file -L "$busybox" 2>/dev/null | grep -q "statically linked"; then
	skip_all "busybox is not static (Debian package busybox-static)"
fi
home_cmdline="console=ttyS0 quiet panic=-1 no_timer_check cryptomgr.notests"
cat >"$TMP/init" <<EOF2
#!/bin/busybox sh
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
# No tmpfs on /tmp: it would hide the programs the archive holds under
# their host paths, which may lie in /tmp (the root is writable).
mount -t ext4 /dev/nvme0n1 /mnt || poweroff -f
# Each line also on the console, which the host watches (machine below).
log() { echo "init: \$*" >>/mnt/log; echo "init: \$*" >/dev/console; }
log "boot \$(uname -r) \$(cat /proc/cmdline)"
A="$MMCMP --db /mnt/abba.db"
F="$MMCMP --db /mnt/faults.db"
cd /mnt
if [ -e /mnt/start ]; then
	rm /mnt/start
	sync
	\$A campaign start -q --no-unit --label k /mnt/abba.yaml >>/mnt/log 2>&1
	log "abba exit \$?"
elif [ ! -e /mnt/faults.db ]; then
	# 4a's resume returns only at home, at its end.
	\$A campaign resume -q >>/mnt/log 2>&1
	st=\$?
	log "abba exit \$st"
	if [ \$st = 0 ] && ! grep -q mmcmp.campaign= /proc/cmdline; then
		log "faults"
		sync
		\$F campaign start -q --no-unit --label k /mnt/faults.yaml >>/mnt/log 2>&1
		log "faults exit \$?"
	fi
elif grep -q mmcmptest.late /proc/cmdline; then
	# A boot resumed long after it began: the clock jumps 1000 s.
	date -s @\$((\$(date +%s) + 1000)) >/dev/null
	\$F campaign resume -q >>/mnt/log 2>&1
	log "faults exit \$?"
elif grep -q mmcmptest.kill /proc/cmdline; then
	# A resume killed during its iterations, after a second one
	# found it busy; a third goes on.
	\$F campaign resume -q >>/mnt/log 2>&1 &
	pid=\$!
	i=0
	# The second iteration begun: the first is stored.
	while [ "\$(cat /mnt/iters 2>/dev/null | wc -l)" -lt 2 ] &&
		[ \$i -lt 3000 ]; do
		sleep 0.1
		i=\$((i + 1))
	done
	\$F campaign resume -q >>/mnt/log 2>&1
	\$F campaign status >>/mnt/log 2>&1
	kill -9 \$pid
	wait \$pid
	log "killed"
	\$F campaign resume -q >>/mnt/log 2>&1
	log "faults exit \$?"
else
	\$F campaign resume -q >>/mnt/log 2>&1
	log "faults exit \$?"
fi
sync
umount /mnt
poweroff -f
EOF2
mkdir "$TMP/disk"
expect_status 0 "mmcmp writes the machine's initramfs" \
	"$MACHINE_INITRAMFS" "$TMP/disk/initrd" "$TMP/init" "$busybox" \
	"$MMCMP" "$WORKLOAD_PAGE_FAULT"
cp "$kernel" "$TMP/disk/vmlinuz"
# machine: boot the machine on a disk made of $TMP/disk until it powers
# off, bounded; read back its databases as $TMP/abba.db and
# $TMP/faults.db, its log split at the start of 4c into $TMP/abba.log
# and $TMP/faults.log, and the lines of 4c's workload as $TMP/iters.
# 1 GiB: below 512 MiB the kernel turns THP off whatever its command
# line says. cache=unsafe: the host does not sync the image file for the
# guest's flushes (the guest still issues them), which a loaded host can
# take seconds over. Under TCG a kexec'd kernel has been seen to hang
# before its init, once in many runs: a console silent for 240 s
# (machine_silence; init writes each log line to it, every few seconds)
# stops the machine, and it is run once more from a fresh disk, as a
# watchdog would reset a real one; a second hang fails the checks below.
machine_silence=240
machine_once() {
	: >"$TMP/disk/start"
	: >"$TMP/machine.console"
	# stdout only says it creates the image file, which TAP would misread.
	rm -f "$TMP/machine.img"
	mke2fs -q -t ext4 -d "$TMP/disk" "$TMP/machine.img" 64M >/dev/null
	timeout 800 qemu-system-x86_64 -accel tcg -m 1024 -smp 1 -nodefaults \
		-nographic -serial "file:$TMP/machine.console" -kernel "$kernel" \
		-initrd "$TMP/disk/initrd" -append "$home_cmdline" \
		-drive "file=$TMP/machine.img,format=raw,if=none,id=d0,cache=unsafe" \
		-device nvme,drive=d0,serial=mmcmp >/dev/null 2>&1 &
	machine_pid=$!
	machine_hung=
	size=0
	still=0
	while kill -0 "$machine_pid" 2>/dev/null; do
		sleep 2
		now=$(wc -c <"$TMP/machine.console")
		if [ "$now" != "$size" ]; then
			size=$now
			still=0
		elif [ "$((still += 2))" -ge "$machine_silence" ]; then
			machine_hung=1
			kill "$machine_pid" 2>/dev/null
			break
		fi
	done
	wait "$machine_pid" || :
}
machine() {
	machine_once
	if [ -n "$machine_hung" ]; then
		echo "# the machine's console was silent for $machine_silence s, after:"
		tail -n 3 "$TMP/machine.console" | tr -cd '[:print:]\n' | sed 's/^/#   /'
		echo "# once more, from a fresh disk"
		machine_once
	fi
	for f in abba faults; do
		debugfs -R "dump /$f.db $TMP/$f.db" "$TMP/machine.img" >/dev/null 2>&1
	done
	debugfs -R "cat /iters" "$TMP/machine.img" >"$TMP/iters" 2>/dev/null || :
	debugfs -R "cat /log" "$TMP/machine.img" >"$TMP/machine.log" 2>/dev/null
	sed '/^init: faults$/,$d' "$TMP/machine.log" >"$TMP/abba.log"
	sed -n '/^init: faults$/,$p' "$TMP/machine.log" >"$TMP/faults.log"
	sed 's/^/# log: /' "$TMP/machine.log"
	# The console's end, for a machine that did not finish.
	if ! grep -q '^init: faults exit' "$TMP/machine.log"; then
		tail -n 20 "$TMP/machine.console" | tr -cd '[:print:]\n' |
			sed 's/^/# console: /'
	fi
}

# 4a. Two kernels (the same image, THP always and never) x 2 boots, A B
# B A, by kexec inside the guest, then back to the default kernel. The
# machine runs 4c's campaign (below) after it.
cat >"$TMP/abba.yaml" <<EOF2
name: abba
iterations: 2
monitors: true
timeout: 120
workloads:
  - name: pf
    command: ["$WORKLOAD_PAGE_FAULT", "--mode", "processes", "--tasks", "1",
              "--seconds", "1", "--warmup", "0", "--size", "16M"]
    metrics:
      - name: ops
        better: higher
        extract: { parser: will-it-scale }
kernels:
  thp:   { image: /mnt/vmlinuz, initrd: /mnt/initrd, append: "transparent_hugepage=always" }
  nothp: { image: /mnt/vmlinuz, initrd: /mnt/initrd, append: "transparent_hugepage=never" }
machine: { boots: 2, settle: 1, boot_timeout: 500 }
EOF2
cp "$TMP/abba.yaml" "$TMP/disk/abba.yaml"
# 4c's campaign (below): its kernels fail, are late and are killed, the
# one that panics last, so that the reset that brings back the default
# kernel ends the campaign there and no reboot home follows.
cat >"$TMP/faults.yaml" <<EOF2
name: faults
iterations: 3
timeout: 60
workloads:
  - name: w
    shell: true
    command: "echo x >>/mnt/iters; sleep 3"
    metrics:
      - name: elapsed
        extract: { measure: elapsed }
kernels:
  late:   { image: /mnt/vmlinuz, initrd: /mnt/initrd, append: "mmcmptest.late" }
  killed: { image: /mnt/vmlinuz, initrd: /mnt/initrd, append: "mmcmptest.kill" }
  panics: { image: /mnt/vmlinuz, initrd: /mnt/initrd, append: "rdinit=/nowhere init=/nowhere panic=1" }
machine: { boots: 1, settle: 0, boot_timeout: 300 }
EOF2
cp "$TMP/faults.yaml" "$TMP/disk/faults.yaml"
machine
export MMCMP_DB="$TMP/abba.db"

check "the database comes back from the disk" test -s "$MMCMP_DB"
check "the machine booted home, A B B A, home" test "$(sed -n 's/^init: boot [^ ]* .*transparent_hugepage=\([a-z]*\) mmcmp.campaign=1 mmcmp.boot=\([0-9]\).*/\2:\1/p; s/^init: boot [^ ]* '"$home_cmdline"'$/home/p' "$TMP/abba.log" | tr '\n' ' ')" = "home 1:always 2:never 3:never 4:always home "
is "only the last resume returns, at home, and well" \
	"$(grep '^init: abba exit' "$TMP/abba.log" | tr '\n' ' ')" "init: abba exit 0 "
check "the campaign's boots are done, in order A B B A" \
	test "$(q "SELECT group_concat(number || ':' || kernel || ':' || state, ' ') FROM (SELECT * FROM campaign_boot ORDER BY number)")" = "1:thp:done 2:nothp:done 3:nothp:done 4:thp:done"
check "the campaign is done" test "$(q "SELECT state FROM campaign")" = "done"
check "each boot is a run of its kernel's label, with its boot number" \
	test "$(q "SELECT group_concat(r.label || ':' || b.number || ':' || b.kernel, ' ') FROM (SELECT * FROM boot ORDER BY number) b JOIN run r ON r.id = b.run_id")" = "k-thp:1:thp k-nothp:2:nothp k-nothp:3:nothp k-thp:4:thp"
check "each boot's 2 iterations carry its number" \
	test "$(q "SELECT group_concat(r.label || ':' || i.boot, ' ') FROM (SELECT * FROM iteration ORDER BY id) i JOIN run r ON r.id = i.run_id")" = "k-thp:1 k-thp:1 k-nothp:2 k-nothp:2 k-nothp:3 k-nothp:3 k-thp:4 k-thp:4"
check "all iterations ok, each with a sample" \
	test "$(q "SELECT count(*) FROM iteration i JOIN sample s ON s.iteration_id = i.id WHERE i.status = 'ok'")" = 8
check "each boot's release is the image's, and its command line the boot's" \
	test "$(q "SELECT count(*) FROM boot b JOIN run r ON r.id = b.run_id WHERE b.guest_release = b.image_release AND b.guest_cmdline = '$home_cmdline transparent_hugepage=' || CASE b.kernel WHEN 'thp' THEN 'always' ELSE 'never' END || ' mmcmp.campaign=1 mmcmp.boot=' || b.number AND b.accel = 'none' AND length(b.image_sha256) = 64 AND b.boot_s >= 0")" = 4
is "the THP mode of each boot's facts is its kernel's" \
	"$(q "SELECT group_concat(DISTINCT kernel || '=' || (guest_facts LIKE '%thp_enabled=always%')) FROM boot")" "thp=1,nothp=0"
is "thp_fault_alloc counts THP faults only with THP always" \
	"$(q "SELECT group_concat(r.label || '=' || (coalesce(sum_thp, 0) > 0)) FROM (SELECT r.label AS label, sum(json_extract(m.vmstat, '\$.thp_fault_alloc')) AS sum_thp FROM iteration i JOIN iteration_monitor m ON m.iteration_id = i.id JOIN run r ON r.id = i.run_id GROUP BY r.label ORDER BY r.label DESC) r")" "k-thp=1,k-nothp=0"
expect_status 0 "compare the two kernels, boot by boot" \
	"$MMCMP" compare --unit boot k-thp k-nothp
grep_file "$TMP/out" "ops" "the rows of the page-fault workload"
expect_status 0 "status from the host" "$MMCMP" campaign status
grep_file "$TMP/out" "^campaign 1: done, label k, method kexec" "says it is done"
grep_file "$TMP/out" "^boots: 4, 4 done, 0 failed, 0 interrupted, 0 to come$" "with its boots"
if [ -n "${MMCMP_TEST_KEEP:-}" ]; then
	cp "$TMP/abba.db" "$TMP/abba.log" "$MMCMP_TEST_KEEP/"
fi

# 4b. Abort, from any kernel: the campaign read back, as if still
# running with its unit installed. It is marked aborted, the unit and
# its link go, the runs stay; a resume then boots nothing.
cp "$TMP/abba.db" "$TMP/abort.db"
mkdir -p "$TMP/units/multi-user.target.wants"
: >"$TMP/units/mmcmp-campaign.service"
ln -s ../mmcmp-campaign.service "$TMP/units/multi-user.target.wants/mmcmp-campaign.service"
MMCMP_DB="$TMP/abort.db"
q "UPDATE campaign SET state = 'running', ended_at = NULL, unit_path = '$TMP/units/mmcmp-campaign.service'; UPDATE campaign_boot SET state = 'pending' WHERE number = 4"
expect_status 0 "status of a running campaign" "$MMCMP" campaign status
grep_file "$TMP/out" "^next: boot 4, kernel thp$" "names the next boot"
grep_file "$TMP/out" "^boots: 4, 3 done, 0 failed, 0 interrupted, 1 to come, about [0-9]* s more$" \
	"and an estimate of the time left"
expect_status 0 "abort" "$MMCMP" campaign abort
grep_file "$TMP/out" "^campaign 1: aborted; its stored runs stay$" "says what it kept"
check "the unit is removed" test ! -e "$TMP/units/mmcmp-campaign.service"
check "and its link" test ! -L "$TMP/units/multi-user.target.wants/mmcmp-campaign.service"
is "the campaign is aborted, its runs kept" \
	"$(q "SELECT state, unit_path IS NULL, (SELECT count(*) FROM run) FROM campaign")" "aborted|1|4"
expect_status 0 "a resume after abort boots nothing" "$MMCMP" campaign resume
grep_file "$TMP/out" "^campaign 1: aborted$" "and says so"
expect_status 1 "a second abort" "$MMCMP" campaign abort
MMCMP_DB="$TMP/abba.db"

# 4c. The faults, one kernel each, started at home when 4a was done: one
# resumed past boot_timeout (its clock jumps), which boots the next all
# the same; one whose resume is killed during its iterations after a
# second resume found it busy (a third marks it interrupted: no
# iteration twice, none lost); one that panics (panic=1 with no init;
# the reset brings back the default kernel, which resumes, marks it
# failed and ends the campaign).
check "4c began at home once 4a was done" \
	test "$(sed -n 2p "$TMP/faults.log")" = "campaign 1: 3 boots of label k recorded"
export MMCMP_DB="$TMP/faults.db"
is "the boots failed, failed and were interrupted, in order" \
	"$(q "SELECT group_concat(number || ':' || kernel || ':' || state, ' ') FROM (SELECT * FROM campaign_boot ORDER BY number)")" \
	"1:late:failed 2:killed:interrupted 3:panics:failed"
check "the panic: the default kernel came up instead" \
	test "$(q "SELECT count(*) FROM campaign_boot WHERE number = 3 AND why LIKE 'the machine came up in release % without mmcmp.boot=3%'")" = 1
check "the late resume: past boot_timeout" \
	test "$(q "SELECT count(*) FROM campaign_boot WHERE number = 1 AND why LIKE 'resumed % s after its boot began, past boot_timeout 300 s'")" = 1
check "the killed resume: ended before its iterations did" \
	test "$(q "SELECT count(*) FROM campaign_boot WHERE number = 2 AND why LIKE 'its resume (pid %) ended before its iterations did'")" = 1
grep_file "$TMP/faults.log" "^campaign 1: boot 2 is run by pid [0-9]*$" "a second resume found boot 2 busy"
grep_file "$TMP/faults.log" "^  boot 2  killed  *running (pid [0-9]*)$" "status showed it running"
grep_file "$TMP/faults.log" "^  boot 1  late  *failed: resumed " "and boot 1 failed"
stored=$(q "SELECT count(*) FROM iteration WHERE boot = 2 AND status = 'ok'")
ran=$(grep -c x "$TMP/iters" || :)
check "the killed boot kept its finished iterations ($stored stored, $ran begun)" \
	test "$stored" -ge 1 -a "$ran" -le 3 -a "$ran" -ge "$stored" -a "$ran" -le $((stored + 1))
is "none ran twice, none in another boot" \
	"$(q "SELECT count(*), count(DISTINCT idx), count(*) = (SELECT count(*) FROM iteration) FROM iteration WHERE boot = 2 AND warmup = 0")" \
	"$stored|$stored|1"
is "the failed boots ran nothing" "$(q "SELECT count(*) FROM iteration WHERE boot IN (1, 3)")" 0
is "the campaign went on to its end and home" \
	"$(q "SELECT state FROM campaign")|$(grep '^init: .*exit' "$TMP/faults.log" | tr '\n' ' ')" \
	"done|init: faults exit 0 "
expect_status 0 "status after the faults" "$MMCMP" campaign status
grep_file "$TMP/out" "^boots: 3, 0 done, 2 failed, 1 interrupted, 0 to come$" "counts them"
done_testing
