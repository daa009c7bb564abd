#!/bin/sh
# mmcmp bisect and bisect-step on a git repository the test makes: 64
# commits of a tiny C program whose work rises by 5% at one commit. The
# program spins that many loop turns and prints the count with up to 1%
# of noise of its own, so the row moves as the commit says whatever the
# machine's load does to its time. One commit does not build (the next
# fixes it) and three change only a README (the same binary), one of
# them right after the culprit.
. ./lib.sh
need git "Debian package git"
need cc "Debian package gcc"
need sqlite3 "Debian package sqlite3"

CULPRIT=37
repo="$TMP/repo"
git init -q "$repo"

# prog.c of commit i: work 100000 turns, 105000 from the culprit on.
write_prog() {
	work=100000
	[ "$1" -ge "$CULPRIT" ] && work=105000
	cat <<EOF2
#include <stdio.h>
#include <time.h>
#include <unistd.h>
static const char version[] = "$1";
int main(void)
{
	struct timespec ts;
	unsigned long seed, work = $work, turns;
	volatile unsigned long sink = 0;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	seed = (unsigned long)ts.tv_nsec ^ ((unsigned long)getpid() << 16);
	seed = seed * 6364136223846793005UL + 1442695040888963407UL;
	/* Up to 1% more turns: the noise, from the program itself. */
	turns = work + (seed >> 33) % (work / 100);
	for (unsigned long i = 0; i < turns; i++)
		sink += i;
	printf("version %s\nwork: %lu\n", version, turns);
	return 0;
}
EOF2
	if [ "$1" -eq 31 ]; then
		echo "syntax error"
	fi
}

# The 64 commits, tagged c0 .. c63, in one git fast-import.
i=0
while [ $i -lt 64 ]; do
	printf 'commit refs/heads/t5200\nmark :%d\n' $((i + 1))
	printf 'committer t <t@example.org> %d +0000\n' $((1700000000 + i))
	printf 'data <<EOM\ncommit %d\nEOM\n' $i
	case $i in
	38 | 50 | 51) printf 'M 100644 inline README\ndata <<EOM\nnote %d\nEOM\n' $i ;;
	*)
		printf 'M 100644 inline prog.c\ndata <<EOM\n'
		write_prog $i
		printf 'EOM\n'
		;;
	esac
	printf '\nreset refs/tags/c%d\nfrom :%d\n\n' $i $((i + 1))
	i=$((i + 1))
done >"$TMP/import"
git -C "$repo" fast-import --quiet <"$TMP/import"
git -C "$repo" symbolic-ref HEAD refs/heads/t5200
git -C "$repo" checkout -q -f t5200
culprit=$(git -C "$repo" rev-parse "c$CULPRIT")

cat >"$TMP/spin.yaml" <<EOF2
name: spin
monitors: false
workloads:
  - name: spin
    command: ["./prog"]
    metrics:
      - name: work
        unit: turns
        better: lower
        decimals: 0
        extract:
          regex: "work: ([0-9]+)"
EOF2

set -- --build "cc -O1 -o prog prog.c" --image prog --operation work

expect_status 2 "bisect without --good is refused" \
	"$MMCMP" bisect "$TMP/spin.yaml" --bad c63 --builds-from "$repo" "$@"
expect_status 2 "an operation that names no row is refused" \
	"$MMCMP" bisect "$TMP/spin.yaml" --good c0 --bad c63 \
	--builds-from "$repo" --build true --image prog --operation nope
grep_file "$TMP/err" "names no row" "and says so"
expect_status 2 "ends the wrong way round are refused" \
	"$MMCMP" bisect "$TMP/spin.yaml" --good c63 --bad c0 \
	--builds-from "$repo" "$@"
grep_file "$TMP/err" "is not an ancestor" "and says so"
check "bad input leaves the database alone, not even made" \
	test ! -e "$MMCMP_DB"
sed 's/^workloads:/builds:\n  a: {}\nworkloads:/' "$TMP/spin.yaml" >"$TMP/builds.yaml"
expect_status 2 "a config with builds of its own is refused" \
	"$MMCMP" bisect "$TMP/builds.yaml" --good c0 --bad c63 \
	--builds-from "$repo" "$@"
grep_file "$TMP/err" "has builds: of its own" "and says so"

expect_status 0 "bisect finds a culprit" \
	"$MMCMP" bisect "$TMP/spin.yaml" --good c0 --bad c63 \
	--builds-from "$repo" --work "$TMP/work" "$@"
grep_file "$TMP/out" "^first bad commit: $culprit$" "it is commit $CULPRIT"
grep_file "$TMP/out" "^verified: " "and it is verified"
grep_file "$TMP/err" "does not build" "the commit that does not build is said"
grep_file "$TMP/out" " skip " "and skipped in the log"
grep_file "$TMP/out" "^step kind           commit       verdict  units         p   pos     alpha$" \
	"the log is a table under its header"
grep_file "$TMP/out" "^0    ends           [0-9a-f]\{12\} bad     *[0-9][0-9]* *[0-9.e+-]* *[0-9.]* *[0-9.e+-]*$" \
	"whose first line is the ends check: units, p, position and alpha"
expect_status 0 "the runs are labelled bisect-COMMIT" \
	"$MMCMP" show "bisect-$(echo "$culprit" | cut -c1-12)"
check "the log is a table of the database" \
	test "$(sqlite3 "$MMCMP_DB" "SELECT outcome || ' ' || culprit FROM bisect")" = "found $culprit"
expect_status 0 "compare works on a pair of it" \
	"$MMCMP" compare "bisect-$(git -C "$repo" rev-parse --short=12 c0)" \
	"bisect-$(git -C "$repo" rev-parse --short=12 c63)"

# A build record that cannot be written (here the build made it a link
# to /dev/full, so it fails only when closed) is an error said once, not
# a second fclose() of the same file.
if [ -w /dev/full ]; then
	expect_status 1 "a build record that cannot be written fails the bisection" \
		"$MMCMP" bisect "$TMP/spin.yaml" --good c0 --bad c63 \
		--builds-from "$repo" --work "$TMP/full" \
		--build "cc -O1 -o prog prog.c && ln -s /dev/full .mmcmp-bisect" \
		--image prog --operation work
	grep_file "$TMP/err" "cannot write '.*\.mmcmp-bisect': No space left" \
		"and says which file and why"
fi

# An A/A: the same work at both ends (c40 and c63 both have 105000).
expect_status 1 "ends of the same work: no culprit" \
	"$MMCMP" bisect "$TMP/spin.yaml" --good c40 --bad c63 \
	--builds-from "$repo" --work "$TMP/work" "$@"
grep_file "$TMP/out" "^no regression between the ends" "it says so"

# bisect-step alone on ends of the same work: git must stop (128). At
# alpha 0.005: two builds of the same work, timed on a machine busy with
# other tests, once showed a change at the default 0.05.
expect_status 128 "bisect-step on ends without a regression stops git" \
	"$MMCMP" bisect-step "$TMP/spin.yaml" --good c40 --bad c63 \
	--alpha 0.005 --builds-from "$repo" --work "$TMP/work" "$@"
grep_file "$TMP/out" "^no regression between the ends" "and says why"
# Ends that differ by less than --margin: bisect-step says so, as bisect.
expect_status 128 "bisect-step on ends closer than the margin stops git" \
	"$MMCMP" bisect-step "$TMP/spin.yaml" --good c0 --bad c63 --margin 1000 \
	--builds-from "$repo" --work "$TMP/work" --db "$TMP/margin.db" "$@"
grep_file "$TMP/out" "^no regression between the ends: .*, or it is under the margin$" \
	"and says the margin may be why"

# Bad input to bisect-step stops git too: 2 would read as a bad commit.
expect_status 128 "bisect-step without --good stops git" \
	"$MMCMP" bisect-step "$TMP/spin.yaml" --bad c63 \
	--builds-from "$repo" --work "$TMP/work" "$@"
grep_file "$TMP/err" "missing --good" "and names what is missing"

# git bisect run with bisect-step, in the repository's work tree.
db="$TMP/step.db"
(
	cd "$repo" || exit 1
	git bisect start c63 c0 >/dev/null
	MMCMP_DB="$db" git bisect run "$MMCMP" bisect-step "$TMP/spin.yaml" \
		--good c0 --bad c63 --work "$TMP/work" "$@" \
		>"$TMP/bisect-run.out" 2>&1 || true
	git bisect reset -q >/dev/null 2>&1 || true
)
grep_file "$TMP/bisect-run.out" "^$culprit is the first bad commit" \
	"git bisect run with bisect-step finds commit $CULPRIT"
check "its log is stored as one bisection" \
	test "$(sqlite3 "$db" "SELECT count(*) FROM bisect")" = 1
check "whose first step checked the ends" \
	test "$(sqlite3 "$db" "SELECT kind FROM bisect_step WHERE step = 0")" = ends
# The call that makes the culprit git's first bad commit verifies it, as
# mmcmp bisect does: its parent and itself again, with fresh units.
grep_file "$TMP/bisect-run.out" "^culprit $(echo "$culprit" | cut -c1-12) verified: its parent good-like and itself bad-like with fresh units$" \
	"the culprit is verified before git names it"
check "the verification is in the log, parent then culprit" \
	test "$(sqlite3 "$db" "SELECT group_concat(kind || ' ' || verdict || ' ' || (commit_hash = '$culprit'), ', ') FROM (SELECT s.kind, s.verdict, s.commit_hash FROM bisect_step s WHERE s.kind LIKE 'verify-%' ORDER BY s.step)")" = \
	"verify-parent good 0, verify-culprit bad 1"
check "and the search's outcome stored" \
	test "$(sqlite3 "$db" "SELECT outcome || ' ' || culprit FROM bisect")" = "found $culprit"
# A culprit whose verification disagrees: once bisect-step has logged
# its verdict on HEAD (c37, bad-like against the good end c36, its
# parent), every commit prints the bad work, so the fresh units of the
# parent are not good-like; git must stop (128), not name it.
fdb="$TMP/flaky.db"
sed "s|command: \[\"./prog\"\]|command: [sh, -c, 'if [ \"\$(sqlite3 $fdb \"SELECT count(*) FROM bisect_step WHERE kind = ''step''\")\" -gt 0 ]; then echo work: \$((105000 + \$\$ % 1000)); else exec ./prog; fi']|" \
	"$TMP/spin.yaml" >"$TMP/flaky.yaml"
git -C "$repo" checkout -q c$CULPRIT
expect_status 128 "an unverified culprit stops git" \
	env MMCMP_DB="$fdb" "$MMCMP" bisect-step "$TMP/flaky.yaml" \
	--good c$((CULPRIT - 1)) --bad c63 --builds-from "$repo" \
	--work "$TMP/work" "$@"
git -C "$repo" checkout -q t5200
grep_file "$TMP/out" "^culprit $(echo "$culprit" | cut -c1-12) not verified: with fresh units its parent is .* and itself .*; git would name it, so the search stops$" \
	"and says why"
check "and does not also call HEAD a skip" sh -c "! grep -q ': skip\$' '$TMP/out'"
check "its outcome is stored as unverified" \
	test "$(sqlite3 "$fdb" "SELECT outcome || ' ' || culprit FROM bisect")" = "unverified $culprit"

# 64 commits plan 9 decisions: each measured one spends 0.05 / 10.
check "each call spends its share of the search's budget, not of 3 commits" \
	test "$(sqlite3 "$db" "SELECT DISTINCT alpha FROM bisect_step WHERE units > 0")" = 0.005

done_testing
