#!/bin/sh
# Every config in configs/ runs to completion in its quick mode (the
# options on its "# quick:" line) and its comparison table renders. A
# config whose benchmark program is not installed is skipped, saying so.
#
# MMCMP_CONFIG_SHARD=K/N runs only the K-th of every N configs (in name
# order), so that the suite can run the configs as N tests side by side:
# many quick modes wait on their benchmark's clock, not on a CPU.
. ./lib.sh

shard=${MMCMP_CONFIG_SHARD:-1/1}
shard_k=${shard%/*}
shard_n=${shard#*/}
case "$shard_k:$shard_n" in
*[!0-9:]* | :* | *:) shard_k=0 ;;
esac
if [ "$shard_k" -lt 1 ] || [ "$shard_k" -gt "$shard_n" ]; then
	echo "Bail out! MMCMP_CONFIG_SHARD '$shard' is not K/N with 1 <= K <= N"
	exit 1
fi
i=0
for cfg in "$MMCMP_SRCDIR"/configs/*.yaml; do
	i=$((i + 1))
	[ $(((i - 1) % shard_n + 1)) -eq "$shard_k" ] || continue
	name=$(basename "$cfg" .yaml)
	quick=$(sed -n 's/^# quick: //p' "$cfg")
	if [ -z "$quick" ]; then
		not_ok "$name has a '# quick:' line"
		continue
	fi
	db="$TMP/$name.db"
	set +e
	# shellcheck disable=SC2086
	"$MMCMP" --db "$db" run -q "$cfg" --label q $quick >"$TMP/out" 2>"$TMP/err"
	st=$?
	# A TCG guest here hangs before its init once in many boots (t5100,
	# t5220): a guest that never answered in boot_timeout is the
	# machine's, not the config's, and the config gets one more try.
	if [ $st -ne 0 ] && grep -q "failed, its iterations with it: .*no agent: .*(boot_timeout" "$TMP/err"; then
		echo "# $name: a guest never answered, once more:"
		grep -m1 "failed, its iterations with it" "$TMP/err" | sed 's/^/#   /'
		rm -f "$db" "$db-wal" "$db-shm"
		# shellcheck disable=SC2086
		"$MMCMP" --db "$db" run -q "$cfg" --label q $quick >"$TMP/out" 2>"$TMP/err"
		st=$?
	fi
	set -e
	if [ $st -eq 2 ] && grep -q "is not installed" "$TMP/err"; then
		ok "# SKIP $name: $(sed 's/^mmcmp: error: //' "$TMP/err" | head -1)"
		continue
	fi
	if grep -q "^mmcmp: error: cannot create cgroup\|^mmcmp: error: .*cgroup" "$TMP/err" && [ $st -ne 0 ]; then
		ok "# SKIP $name: $(sed 's/^mmcmp: error: //' "$TMP/err" | head -1)"
		continue
	fi
	if [ $st -eq 0 ]; then
		ok "$name runs in quick mode"
	else
		not_ok "$name runs in quick mode (exit $st)"
		sed 's/^/# /' "$TMP/err" | head -20
		continue
	fi
	labels=$("$MMCMP" --db "$db" list | awk 'NR > 1 { print $2 }' | sort -u)
	# shellcheck disable=SC2086 # one argument per label
	set -- $labels
	[ $# -ge 2 ] || set -- "$1" "$1"
	expect_status 0 "$name: the comparison renders" "$MMCMP" --db "$db" compare "$@"
	grep_file "$TMP/out" "^Min " "$name: the table has rows"
done

done_testing
