#!/bin/sh
# mmcmp campaign: kernels booted on the machine itself. On this host
# only what boots nothing: start --check (the A B B A schedule, each
# boot's command line, the unit it would install, verified by
# systemd-analyze), the refusals before anything is installed, status
# and abort. Then a QEMU machine under TCG plays the machine (see
# below): it boots by kexec inside the guest.
. ./lib.sh
: "${WORKLOAD_PAGE_FAULT:?}"

kernel=${MMCMP_TEST_KERNEL:-}
if [ -z "$kernel" ]; then
	for f in /boot/vmlinuz-*-cloud-amd64; do
		[ -r "$f" ] && kernel=$f
	done
fi
if [ -z "$kernel" ] || [ ! -r "$kernel" ]; then
	skip_all "no kernel image (Debian package linux-image-cloud-amd64, or MMCMP_TEST_KERNEL)"
fi
need sqlite3 "Debian package sqlite3"
[ "$(id -u)" = 0 ] || skip_all "a campaign is started as root"
q() {
	sqlite3 "$MMCMP_DB" "$1"
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
grep_file "$TMP/out" "^  boot 2: kernel nothp, $kernel (release [0-9][^)]*), command line: .*transparent_hugepage=never mmcmp.campaign=[0-9]* mmcmp.boot=2" \
	"each boot's command line carries the append and the tokens"
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
