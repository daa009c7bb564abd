#!/bin/sh
# Profiles in a QEMU guest under TCG: with kernels, run --profile has the
# agent sample the profiled iterations, symbolised in the guest (its
# /proc/kallsyms, the binaries of the initramfs), and send the folded
# stacks back; the host stores them as its own, and explain compares two
# guest labels as it does local ones: profile-split with its work 30/70
# against 70/30 between spin_a and spin_b. One boot per label. Under TCG
# the shares of an iteration vary by several points (the guest's timer
# misses the periods its vCPU is descheduled for), so with four profiles a
# side a 20-point move was sometimes marked for one symbol only.
#
# Needs qemu-system-x86_64 and a kernel, as t5000-vm.sh.
. ./lib.sh
SPLIT=${WORKLOAD_PROFILE_SPLIT:?run through meson test}
need_guest
need sqlite3 "Debian package sqlite3"
export TMPDIR="$TMP"

# config NAME SHARE: profile-split giving SHARE percent of its work to
# spin_a, in a guest, in $TMP/NAME.yaml.
config() {
	cat >"$TMP/$1.yaml" <<EOF2
name: $1
iterations: 4
timeout: 120
workloads:
  - name: split
    command: ["$SPLIT", --share-a, "$2", --units, "5000"]
    metrics:
      - name: elapsed
        extract: { measure: elapsed }
kernels:
  k: { image: $kernel }
vm: { cpus: 1, memory: 512M, accel: tcg, boots: 1, boot_timeout: 120 }
EOF2
}
config less 30
config more 70

expect_status 0 "a profiled run in a guest" \
	"$MMCMP" run -q --profile --label less "$TMP/less.yaml"
check "without a warning that profiles were not taken" \
	test "$(grep -c 'profiles not taken' "$TMP/err")" -eq 0
# Not a count the work fixes: under a loaded host the guest's sampling
# timer misses the periods its vCPU was descheduled for (about 550
# samples a profile here idle, fewer in CI).
check "as many profiles as measured iterations, numbered 1 to 4" \
	test "$(q "SELECT group_concat(seq) FROM (SELECT seq FROM profile
		WHERE status = 'ok' AND samples > 20 AND lost = 0 ORDER BY seq)")" = "1,2,3,4"
q "SELECT '# profile ' || seq || ': ' || status || ', ' || samples || ' samples, ' ||
	lost || ' lost' FROM profile ORDER BY seq"
check "which are no iterations of the run" \
	test "$(q 'SELECT count(*) FROM iteration')" -eq 4
check "their stacks name the workload's functions, symbolised in the guest" \
	test "$(q "SELECT count(*) FROM profile
		WHERE stacks LIKE '%main;spin_a %' AND stacks LIKE '%main;spin_b %'")" -eq 4
check "and the guest kernel's, from its kallsyms" \
	test "$(q "SELECT count(*) FROM profile WHERE stacks LIKE '%\\_[k]%' ESCAPE '\\'")" -ge 1

expect_status 0 "a run that moves work to spin_a" \
	"$MMCMP" run -q --profile --label more "$TMP/more.yaml"
expect_status 0 "explain on two guest labels" "$MMCMP" explain less-k more-k
head -5 "$TMP/out" | tail -2 | sed 's/^/# /'
check "ranks the two symbols first, marked" \
	test "$(awk '/^  kind/ { on = 1; next } on && n < 4 { n++; print $NF, $(NF - 1) }' \
		"$TMP/out" | sort -u | tr '\n' ' ')" = "spin_a * spin_b * "

done_testing
