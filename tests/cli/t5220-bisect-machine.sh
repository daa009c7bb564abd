#!/bin/sh
# mmcmp bisect with machine: in its config: the commits' kernels booted
# on the machine itself, by kexec, the search going on from the database
# in the resume after each boot. On this host only what boots nothing:
# --check and the refusals. Then a QEMU machine under TCG plays the
# machine, as in t5100 (emulated: the timings test behaviour, not
# speed; the row judged is the work the workload was told to do).
#
# The test's "kernel tree" has six commits; each build is the Debian
# cloud kernel and an initrd: the machine's own initramfs with the
# commit's extra.cpio.gz appended (a second cpio archive, which the
# kernel unpacks over the first), holding /etc/bisect-work. The
# workload reads that file in the booted kernel's root: its work (5%
# more from commit 2 on) and the commit's build number. So the row moves
# with the initrd that booted, which a kexec boot carries (fw_cfg, which
# t5210 reads, gives qemu's -kernel, not a kexec'd one), and the culprit
# is found only when every boot booted its commit's build. Commit 1
# changes a README only: its build is byte for byte commit 0's, so its
# step takes commit 0's verdict unmeasured.
#
# The builds run in the machine, between boots, as on a real one: git
# archive needs git there, so git is in the machine's initramfs (the
# alternative, every commit extracted up front on the host, would not
# test the builds a resume makes). The faults: the kernel of boot 2 (the
# bad end) panics on its first boot, so the ends' batch has one bad-end
# value and the ends take a second batch; the resume of boot 10 (the
# candidate) is killed during its iterations and a second resume marks
# it interrupted. Neither gives a unit value; the log's notes say so.
. ./lib.sh
need_guest_kernel
need sqlite3 "Debian package sqlite3"
need git "Debian package git"
need cc "Debian package gcc"
need cpio "Debian package cpio"
need qemu-system-x86_64 "Debian package qemu-system-x86"
need busybox "Debian package busybox-static"
need mke2fs "Debian package e2fsprogs"
need debugfs "Debian package e2fsprogs"
[ "$(id -u)" = 0 ] || skip_all "a bisection on the machine starts as root"
busybox=$(command -v busybox)
if ! file -L "$busybox" 2>/dev/null | grep -q "statically linked"; then
	skip_all "busybox is not static (Debian package busybox-static)"
fi
cpu_first
is() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		echo "# got:  '$2'"
		echo "# want: '$3'"
	fi
}

mkdir "$TMP/bin" "$TMP/disk"
cat >"$TMP/kwork.c" <<'EOF2'
#include <stdio.h>
#include <time.h>
#include <unistd.h>
int main(void)
{
	FILE *f = fopen("/etc/bisect-work", "r");
	unsigned long work, build, seed;
	struct timespec ts;

	if (!f || fscanf(f, "work %lu build %lu", &work, &build) != 2) {
		perror("/etc/bisect-work");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	seed = (unsigned long)ts.tv_nsec ^ ((unsigned long)getpid() << 16);
	seed = seed * 6364136223846793005UL + 1442695040888963407UL;
	/*
	 * Up to 0.01% more: the noise, from the program itself. Two values
	 * a side give the midpoint test about 1 degree of freedom, whose
	 * critical t at the step's share is near 360: 0.1% of noise left
	 * a 5% step unsure now and then, and the search took a batch more
	 * than the boots' order checked below.
	 */
	printf("work: %lu\nbuild: %lu\n", work + (seed >> 33) % (work / 10000),
	       build);
	return 0;
}
EOF2
cc -O1 -o "$TMP/bin/kwork" "$TMP/kwork.c"

# extra WORK BUILD OUT: the commit's second archive, the same bytes for
# the same file (no times, owners or inode numbers of this host).
extra() {
	rm -rf "$TMP/x"
	mkdir -p "$TMP/x/etc"
	printf 'work %d\nbuild %d\n' "$1" "$2" >"$TMP/x/etc/bisect-work"
	touch -d @0 "$TMP/x/etc/bisect-work" "$TMP/x/etc"
	(cd "$TMP/x" && printf 'etc\netc/bisect-work\n' |
		cpio --quiet -o -H newc --reproducible -R 0:0) | gzip -n >"$3"
}
repo="$TMP/disk/repo"
git init -q "$repo"
for i in 0 1 2 3 4 5; do
	work=100000
	build=$i
	[ "$i" -ge 2 ] && work=105000
	[ "$i" = 1 ] && build=0
	extra "$work" "$build" "$TMP/extra.$i"
	printf 'commit refs/heads/t5220\nmark :%d\n' $((i + 1))
	printf 'committer t <t@example.org> %d +0000\n' $((1700000000 + i))
	printf 'data <<EOM\ncommit %d\nEOM\n' "$i"
	printf 'M 100644 inline README\ndata <<EOM\nrelease %d\nEOM\n' "$i"
	printf 'M 100644 inline extra.cpio.gz\ndata %d\n' "$(wc -c <"$TMP/extra.$i")"
	cat "$TMP/extra.$i"
	printf '\nreset refs/tags/c%d\nfrom :%d\n\n' "$i" $((i + 1))
done >"$TMP/import"
git -C "$repo" fast-import --quiet <"$TMP/import"
check "commits 0 and 1 build the same archive" cmp -s "$TMP/extra.0" "$TMP/extra.1"
short() { git -C "$repo" rev-parse --short=12 "$1"; }
c0=$(short c0) c1=$(short c1) c2=$(short c2) c5=$(short c5)
culprit=$(git -C "$repo" rev-parse c2)

cat >"$TMP/disk/kwork.yaml" <<EOF2
name: kwork
iterations: 2
timeout: 60
workloads:
  - name: kwork
    shell: true
    command: "echo x >>/mnt/iters; [ ! -e /mnt/slow ] || sleep 5; exec $TMP/bin/kwork"
    metrics:
      - name: work
        unit: turns
        better: lower
        decimals: 0
        extract: { regex: "work: ([0-9]+)" }
      - name: build
        better: lower
        decimals: 0
        extract: { regex: "build: ([0-9]+)" }
machine: { settle: 0, boot_timeout: 300 }
EOF2
build='cp /mnt/vmlinuz bzImage && cat /mnt/initrd extra.cpio.gz >initrd'
set -- --good c0 --bad c5 --operation work --image bzImage --initrd initrd \
	--build "$build" --rounds 2

# 1. On this host: --check (nothing built, booted or stored), refusals.
expect_status 0 "--check prints the plan" "$MMCMP" bisect "$TMP/disk/kwork.yaml" \
	--builds-from "$repo" --work "$TMP/work" --check --no-unit "$@"
grep_file "$TMP/out" "^a batch of the ends, 2 rounds: A B B A$" "the ends' batch: A B B A"
grep_file "$TMP/out" "^a batch of a step (C the candidate): A C B C C B C A$" \
	"a step's: A C B C, every other round reversed"
grep_file "$TMP/out" "^boot 1's command line: .*mmcmp.campaign=ID mmcmp.boot=1" \
	"each boot's command line carries the campaign's tokens"
grep_file "$TMP/out" "^would install no unit (--no-unit)" "--no-unit installs none"
check "--check stores nothing" test ! -e "$MMCMP_DB"
check "and builds nothing" test -z "$(ls "$TMP/work")"
sed 's/^machine: .*/machine: { method: reboot }/' "$TMP/disk/kwork.yaml" >"$TMP/reboot.yaml"
expect_refused "method reboot is refused" "boot loader entry per kernel" \
	"$MMCMP" bisect "$TMP/reboot.yaml" --builds-from "$repo" --work "$TMP/work" "$@"
if [ ! -d /run/systemd/system ]; then
	expect_refused "without systemd, unless --no-unit" "systemd is not running here" \
		"$MMCMP" bisect "$TMP/disk/kwork.yaml" --builds-from "$repo" --work "$TMP/work" "$@"
fi
if [ -d /dev/shm ] && [ "$(stat -f -c %T /dev/shm)" = tmpfs ]; then
	mkdir -p /dev/shm/mmcmp-t5220-$$
	expect_refused "builds on a tmpfs" "build directory '.*' is on a tmpfs" \
		"$MMCMP" bisect "$TMP/disk/kwork.yaml" --builds-from "$repo" \
		--work /dev/shm/mmcmp-t5220-$$ --no-unit "$@"
	rm -rf /dev/shm/mmcmp-t5220-$$
fi
expect_status 128 "bisect-step does not boot this machine" \
	"$MMCMP" bisect-step "$TMP/disk/kwork.yaml" --builds-from "$repo" "$@"
grep_file "$TMP/err" "has machine:; bisect-step does not boot this machine" "and says so"
check "bad input leaves the database alone" test ! -e "$MMCMP_DB"

# 2. The machine (t5100's): the Debian cloud kernel under TCG boots the
# initramfs machine-initramfs writes (busybox, mmcmp, git, the workload)
# with the database, repository and builds on an NVMe disk image. /init
# plays the unit: the first boot starts the bisection, every later one
# resumes it, with the faults above; the reset after the panic and the
# reboot at the end come back to QEMU's -kernel, the home kernel.
home_cmdline="console=ttyS0 quiet panic=-1 no_timer_check cryptomgr.notests"
cat >"$TMP/init" <<EOF2
#!/bin/busybox sh
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t ext4 /dev/nvme0n1 /mnt || poweroff -f
log() { echo "init: \$*" >>/mnt/log; echo "init: \$*" >/dev/console; }
log "boot \$(uname -r) \$(cat /proc/cmdline)"
B="$MMCMP --db /mnt/b.db"
cd /mnt
if [ -e /mnt/start ]; then
	rm /mnt/start
	sync
	\$B bisect /mnt/kwork.yaml --builds-from /mnt/repo --work /mnt/work \
		--no-unit $(printf "'%s' " "$@") >>/mnt/log 2>&1
	log "bisect exit \$?"
elif grep -qw mmcmp.boot=2 /proc/cmdline && [ ! -e /mnt/panicked ]; then
	: >/mnt/panicked
	sync
	log "panic"
	echo c >/proc/sysrq-trigger
	reboot -f
elif grep -qw mmcmp.boot=10 /proc/cmdline; then
	: >/mnt/slow
	n=\$(cat /mnt/iters | wc -l)
	\$B campaign resume -q >>/mnt/log 2>&1 &
	pid=\$!
	i=0
	# The second iteration begun: the first is stored.
	while [ "\$(cat /mnt/iters | wc -l)" -lt \$((n + 2)) ] && [ \$i -lt 3000 ]; do
		sleep 0.1
		i=\$((i + 1))
	done
	kill -9 \$pid
	wait \$pid
	rm /mnt/slow
	log "killed"
	\$B campaign resume -q >>/mnt/log 2>&1
	log "resume exit \$?"
else
	\$B campaign resume -q >>/mnt/log 2>&1
	log "resume exit \$?"
fi
sync
umount /mnt
poweroff -f
EOF2
expect_status 0 "mmcmp writes the machine's initramfs, with git" \
	"$MACHINE_INITRAMFS" "$TMP/disk/initrd" "$TMP/init" "$busybox" \
	"$MMCMP" "$TMP/bin/kwork" "$(command -v git)"
cp "$kernel" "$TMP/disk/vmlinuz"
: >"$TMP/disk/iters"
: >"$TMP/disk/start"
mke2fs -q -t ext4 -d "$TMP/disk" "$TMP/machine.img" 768M >/dev/null
# The watchdog of a real machine: under TCG a kexec'd kernel has been
# seen to hang before its init, once in many boots (t5100); a console
# silent for 150 s (init writes a line at every boot) resets the
# machine through qemu's monitor, and the home kernel's resume fails
# that boot, as the campaign's rules say. Bounded: 1500 s in all.
mkfifo "$TMP/mon.in" "$TMP/mon.out"
machine_start=$(date +%s)
cat "$TMP/mon.out" >/dev/null &
timeout 1500 qemu-system-x86_64 -accel tcg -m 1024 -smp 1 -nodefaults \
	-nographic -serial "file:$TMP/console" -monitor "pipe:$TMP/mon" \
	-kernel "$kernel" -initrd "$TMP/disk/initrd" -append "$home_cmdline" \
	-drive "file=$TMP/machine.img,format=raw,if=none,id=d0,cache=unsafe" \
	-device nvme,drive=d0,serial=mmcmp >/dev/null 2>&1 &
machine_pid=$!
size=0
still=0
resets=0
while kill -0 "$machine_pid" 2>/dev/null; do
	sleep 2
	now=$(wc -c <"$TMP/console" 2>/dev/null || echo 0)
	if [ "$now" != "$size" ]; then
		size=$now
		still=0
	elif [ "$((still += 2))" -ge 150 ]; then
		echo "# the console was silent for 150 s, after:"
		tail -n 3 "$TMP/console" | tr -cd '[:print:]\n' | sed 's/^/#   /'
		echo system_reset >"$TMP/mon.in"
		resets=$((resets + 1))
		still=0
	fi
done
wait "$machine_pid" || :
echo "# the machine ran $(($(date +%s) - machine_start)) s in all (TCG: not performance); watchdog resets: $resets"
debugfs -R "dump /b.db $TMP/b.db" "$TMP/machine.img" >/dev/null 2>&1
debugfs -R "cat /log" "$TMP/machine.img" >"$TMP/machine.log" 2>/dev/null || :
sed 's/^/# log: /' "$TMP/machine.log"
if ! grep -q "^campaign 1: done$" "$TMP/machine.log"; then
	tail -n 20 "$TMP/console" | tr -cd '[:print:]\n' | sed 's/^/# console: /'
fi
export MMCMP_DB="$TMP/b.db"

# 3. What the search found, and how.
check "the database comes back from the disk" test -s "$MMCMP_DB"
grep_file "$TMP/machine.log" "^first bad commit: $culprit$" "the culprit is named, commit 2"
grep_file "$TMP/machine.log" "^verified: " "and verified"
is "the bisection's outcome is stored" "$(q "SELECT outcome, culprit FROM bisect")" "found|$culprit"
is "the log: the ends, commit 2, commit 1 by its binary, the verification" \
	"$(q "SELECT group_concat(kind || ':' || substr(commit_hash, 1, 12) || ':' || verdict || ':' || units || ':' || coalesce(substr(same_as, 1, 12), '-'), ' ') FROM (SELECT * FROM bisect_step ORDER BY step)")" \
	"ends:$c5:bad:7:- step:$c2:bad:7:- step:$c1:good:0:$c0 verify-parent:$c1:good:8:- verify-culprit:$c2:bad:8:-"
is "the boots: the ends twice (boot 2 failed), then A C B C C B C A for commit 2, 1, 2" \
	"$(q "SELECT group_concat(kernel, ' ') FROM (SELECT kernel FROM campaign_boot ORDER BY number)")" \
	"$c0 $c5 $c5 $c0 $c0 $c5 $c5 $c0 $c0 $c2 $c5 $c2 $c2 $c5 $c2 $c0 $c0 $c1 $c5 $c1 $c1 $c5 $c1 $c0 $c0 $c2 $c5 $c2 $c2 $c5 $c2 $c0"
is "boot 2 failed and boot 10 was interrupted; the others are done" \
	"$(q "SELECT group_concat(number || ':' || state, ' ') FROM campaign_boot WHERE state != 'done' OR number IN (2, 10)")" \
	"2:failed 10:interrupted"
check "the panic: the home kernel came up instead" \
	test "$(q "SELECT count(*) FROM campaign_boot WHERE number = 2 AND why LIKE 'the machine came up in release % without mmcmp.boot=2%'")" = 1
check "the ends' note says boot 2 failed and why" \
	test "$(q "SELECT count(*) FROM bisect_step WHERE kind = 'ends' AND note LIKE 'boot 2 ($c5) failed: the machine came up %'")" = 1
check "commit 2's note says boot 10 was interrupted" \
	test "$(q "SELECT count(*) FROM bisect_step WHERE kind = 'step' AND note LIKE 'boot 10 ($c2) interrupted: its resume (pid %) ended before its iterations did'")" = 1
check "the interrupted boot kept its finished iteration, which no unit counts" \
	test "$(q "SELECT count(*) FROM iteration WHERE boot = 10 AND status = 'ok'")" = 1
is "each label's boots booted its commit's initrd" \
	"$(q "SELECT group_concat(x, ' ') FROM (SELECT DISTINCT r.label || '=' || CAST(s.value AS INTEGER) AS x FROM sample s JOIN iteration i ON i.id = s.iteration_id JOIN run r ON r.id = i.run_id JOIN operation o ON o.id = s.operation_id WHERE o.name = 'build' ORDER BY x)")" \
	"$(printf 'bisect-%s=%d\n' "$c0" 0 "$c1" 0 "$c2" 2 "$c5" 5 | sort | tr '\n' ' ' | sed 's/ $//')"
is "each boot is one run, labelled bisect-COMMIT, with its number" \
	"$(q "SELECT count(*) FROM boot b JOIN run r ON r.id = b.run_id WHERE r.label = 'bisect-' || b.kernel AND b.guest_cmdline LIKE '%mmcmp.boot=' || b.number")" \
	"$(q "SELECT count(*) FROM campaign_boot WHERE state != 'failed'")"
grep_file "$TMP/machine.log" "^     boot 2 ($c5) failed: " "the log printed says what happened to boot 2"
grep_file "$TMP/machine.log" "^campaign 1: rebooting to the default kernel$" "at the end it goes home"
is "home at the start, after the panic and at the end; nothing else failed" \
	"$(grep -c "^init: boot [^ ]* $home_cmdline\$" "$TMP/machine.log")|$(grep -c '^init: .*exit [^0]' "$TMP/machine.log")" "3|0"
expect_status 0 "campaign status shows the bisection" "$MMCMP" campaign status
grep_file "$TMP/out" "^campaign 1: done, label bisect, method kexec" "its campaign done"
grep_file "$TMP/out" "^bisection 1: $c0..$c5 of .*, rows 'work': found$" "the bisection found"
grep_file "$TMP/out" "^4    verify-culprit $c2 bad          8 " "with its log"
grep_file "$TMP/out" "^first bad commit: $culprit$" "and the culprit"
expect_status 0 "compare works on the culprit and its parent, by boot" \
	"$MMCMP" compare --unit boot "bisect-$c1" "bisect-$c2"
grep_file "$TMP/out" "work" "and shows the row"
done_testing
