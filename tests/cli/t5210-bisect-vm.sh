#!/bin/sh
# mmcmp bisect of kernels in QEMU guests under TCG (emulated: the
# timings here test behaviour, not speed). The test's "kernel tree" has
# three commits whose build is the Debian cloud kernel with 1, 2 and 3
# bytes added at its end. The workload reads in the guest, from qemu's
# fw_cfg, the size of the kernel the guest was booted with, and does 5%
# more work when it has 3 bytes added: so the row moves with the image
# that booted, and the culprit is found only if each label's guests boot
# that label's commit. A unit is a boot: two iterations per boot, and
# the ends' line counts the boots.
#
# Needs qemu-system-x86_64 (Debian package qemu-system-x86) and a kernel:
# $MMCMP_TEST_KERNEL, else the newest /boot/vmlinuz-*-cloud-amd64
# (linux-image-cloud-amd64); scripts/setup installs both.
. ./lib.sh
need_guest
need git "Debian package git"
need cc "Debian package gcc"
need sqlite3 "Debian package sqlite3"
cpu_first
echo "# kernel $kernel"
export TMPDIR="$TMP"

# fw_cfg's kernel size is the image's less its real-mode setup: the
# setup_sects byte at 0x1f1 (0 means 4), and the boot sector.
sects=$(od -An -tu1 -j497 -N1 "$kernel" | tr -d ' ')
[ "$sects" -eq 0 ] && sects=4
base=$(($(wc -c <"$kernel") - (sects + 1) * 512))

mkdir "$TMP/bin"
cat >"$TMP/kwork.c" <<EOF2
#include <stdio.h>
#include <sys/io.h>
#include <time.h>
#include <unistd.h>
int main(void)
{
	struct timespec ts;
	unsigned long size = 0, seed, work, turns;

	/* fw_cfg: select FW_CFG_KERNEL_SIZE, read its 4 bytes. */
	if (ioperm(0x510, 2, 1)) {
		perror("ioperm");
		return 1;
	}
	outw(0x08, 0x510);
	for (int i = 0; i < 4; i++)
		size |= (unsigned long)inb(0x511) << (8 * i);
	work = size - $base >= 3 ? 105000 : 100000;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	seed = (unsigned long)ts.tv_nsec ^ ((unsigned long)getpid() << 16);
	seed = seed * 6364136223846793005UL + 1442695040888963407UL;
	/*
	 * Up to 0.01% more: the noise, from the program itself. With 2
	 * boots a side Welch's df can be near 1, where the ends' look at
	 * 0.05 / 5 / 8 needs t > 254: with 0.1% of noise the first batch
	 * did not decide in 8.5% of simulated runs; with 0.01% t stays
	 * above 700 whatever the noise draws.
	 */
	turns = work + (seed >> 33) % (work / 10000);
	printf("kernel_size: %lu\nwork: %lu\n", size, turns);
	return 0;
}
EOF2
cc -O1 -o "$TMP/bin/kwork" "$TMP/kwork.c"

repo="$TMP/linux"
git init -q "$repo"
i=0
while [ $i -lt 3 ]; do
	printf 'commit refs/heads/t5210\nmark :%d\n' $((i + 1))
	printf 'committer t <t@example.org> %d +0000\n' $((1700000000 + i))
	printf 'data <<EOM\ncommit %d\nEOM\n' $i
	printf 'M 100644 inline pad\ndata %d\n' $((i + 1))
	head -c $((i + 1)) /dev/zero | tr '\0' x
	printf '\n\nreset refs/tags/c%d\nfrom :%d\n\n' $i $((i + 1))
	i=$((i + 1))
done >"$TMP/import"
git -C "$repo" fast-import --quiet <"$TMP/import"
culprit=$(git -C "$repo" rev-parse c2)

cat >"$TMP/kwork.yaml" <<EOF2
name: kwork
monitors: false
iterations: 2
timeout: 60
workloads:
  - name: kwork
    command: ["$TMP/bin/kwork"]
    metrics:
      - name: work
        unit: turns
        better: lower
        decimals: 0
        extract:
          regex: "work: ([0-9]+)"
      - name: kernel_size
        unit: bytes
        better: lower
        decimals: 0
        extract:
          regex: "kernel_size: ([0-9]+)"
vm: { cpus: 1, memory: 512M, accel: tcg, boot_timeout: 120 }
EOF2

set -- --builds-from "$repo" --operation work --image bzImage \
	--build "cp '$kernel' bzImage && cat pad >>bzImage"

# What a kernel bisection refuses, before anything is built or stored.
sed 's/^vm:.*/machine: { method: kexec }/' "$TMP/kwork.yaml" >"$TMP/machine.yaml"
expect_status 128 "bisect-step refuses a config with machine:" \
	"$MMCMP" bisect-step "$TMP/machine.yaml" --good c0 --bad c2 "$@"
grep_file "$TMP/err" "has machine:; bisect-step does not boot this machine" \
	"and says it does not boot this machine"
grep -v '^vm:' "$TMP/kwork.yaml" >"$TMP/local.yaml"
expect_status 2 "--append without vm: is refused" \
	"$MMCMP" bisect "$TMP/local.yaml" --good c0 --bad c2 --append quiet "$@"
grep_file "$TMP/err" "--append is for kernels, and '.*local.yaml' has no vm:" \
	"and says why"
sed 's|^monitors: false|monitors: false\nsettings: { /proc/sys/vm/swappiness: 10 }|' \
	"$TMP/kwork.yaml" >"$TMP/settings.yaml"
expect_status 2 "a setting the host would write is refused" \
	"$MMCMP" bisect "$TMP/settings.yaml" --good c0 --bad c2 "$@"
grep_file "$TMP/err" "cannot be used with kernels" "as mmcmp run refuses it"
expect_status 1 "ends whose images are no kernels stop the search" \
	"$MMCMP" bisect "$TMP/kwork.yaml" --good c0 --bad c2 \
	--builds-from "$repo" --operation work --image bzImage \
	--build "cat pad >bzImage" --work "$TMP/junk" --db "$TMP/junk.db"
grep_file "$TMP/err" "bisect: [0-9a-f]\{12\} does not build: .*bzImage" \
	"an image that is no bzImage is a commit that does not build"
check "no guest was booted for them" \
	test "$(sqlite3 "$TMP/junk.db" "SELECT count(*) FROM boot")" = 0
check "bad input leaves the database alone, not even made" \
	test ! -e "$MMCMP_DB"

expect_status 0 "bisect of kernels in guests finds a culprit" \
	"$MMCMP" bisect "$TMP/kwork.yaml" --good c0 --bad c2 --rounds 2 \
	--append "mmcmp_bisect_test=1" --work "$TMP/work" "$@"
grep_file "$TMP/out" "^first bad commit: $culprit$" "it is the commit with 3 bytes"
grep_file "$TMP/out" "^verified: " "and it is verified"
grep_file "$TMP/out" "^0    ends           [0-9a-f]\{12\} bad          4 " \
	"the ends' units are their 2 x 2 boots, not their 8 iterations"
c0=$(git -C "$repo" rev-parse --short=12 c0)
c1=$(git -C "$repo" rev-parse --short=12 c1)
c2=$(git -C "$repo" rev-parse --short=12 c2)
check "each label's guests booted its commit's image" \
	test "$(q "SELECT group_concat(x, ' ') FROM (SELECT DISTINCT r.label || '=' || (CAST(s.value AS INTEGER) - $base) AS x FROM sample s JOIN iteration i ON i.id = s.iteration_id JOIN run r ON r.id = i.run_id JOIN operation o ON o.id = s.operation_id WHERE o.name = 'kernel_size' ORDER BY x)")" = \
	"$(printf 'bisect-%s=%d\n' "$c0" 1 "$c1" 2 "$c2" 3 | sort | tr '\n' ' ' | sed 's/ $//')"
check "the boots are stored with the commit's image and the append" \
	test "$(q "SELECT count(*) FROM boot WHERE guest_cmdline LIKE '%mmcmp_bisect_test=1%' AND image_sha256 IS NOT NULL")" = "$(q "SELECT count(*) FROM boot")"
check "the first batch's boots alternate A B B A" \
	test "$(q "SELECT group_concat(kernel, ' ') FROM (SELECT kernel FROM boot ORDER BY rowid LIMIT 4)")" = "c$c0 c$c2 c$c2 c$c0"
check "the log is a table of the database" \
	test "$(q "SELECT outcome || ' ' || culprit FROM bisect")" = "found $culprit"
expect_status 0 "compare works on a pair of it, by boot" \
	"$MMCMP" compare "bisect-$c0" "bisect-$c2"
grep_file "$TMP/out" "work" "and shows the row"

done_testing
