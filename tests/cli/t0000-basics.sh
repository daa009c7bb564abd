#!/bin/sh
# Basics: --help everywhere, --version, unknown commands and options,
# global --db before or after the command, the synopsis in docs/ = --help, and
# the option syntax every command shares (cmd/parse-options).
. ./lib.sh

expect_status 0 "mmcmp --help" "$MMCMP" --help
grep_file "$TMP/out" "^usage: mmcmp" "--help prints the usage"
expect_status 2 "no command is a usage error" "$MMCMP"
expect_status 0 "--version" "$MMCMP" --version
grep_file "$TMP/out" "^mmcmp [0-9]" "--version prints the version"
expect_status 2 "unknown command" "$MMCMP" frobnicate
grep_file "$TMP/err" "unknown command 'frobnicate'" "unknown command is named"

cmds=$("$MMCMP" --help | sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p')
for c in $cmds; do
	expect_status 0 "mmcmp $c --help" "$MMCMP" "$c" --help
	grep_file "$TMP/out" "^usage: mmcmp $c" "$c --help starts with its synopsis"
	head -1 "$TMP/out" >"$TMP/synopsis"
	# The README's table of commands links the page of each command, and
	# that page has its synopsis on a line of its own.
	page=$(sed -n "s,^| \[\`mmcmp $c\`\](\(docs/[a-z-]*\.md\)) | .*,\1,p" \
		"$MMCMP_SRCDIR/README.md")
	if [ -n "$page" ] && [ -f "$MMCMP_SRCDIR/$page" ]; then
		ok "README's table of commands links the page of $c"
	else
		not_ok "README's table of commands links the page of $c: '$page'"
	fi
	if [ -n "$page" ] &&
		grep -qxF -- "$(cat "$TMP/synopsis")" "$MMCMP_SRCDIR/$page"; then
		ok "$page has the synopsis of $c"
	else
		not_ok "${page:-docs} has the synopsis of $c: $(cat "$TMP/synopsis")"
	fi
	# Every option --help lists is one the parser knows.
	sed -n 's/^  \(-[a-z], \)\{0,1\}\(--[a-z][a-z-]*\).*/\2/p' "$TMP/out" \
		>"$TMP/listed"
	while read -r opt; do
		"$MMCMP" --db "$TMP/none.db" "$c" "$opt" >/dev/null 2>"$TMP/err" || true
		if grep -q "unknown option" "$TMP/err"; then
			not_ok "$c knows $opt, which its --help lists"
		else
			ok "$c knows $opt, which its --help lists"
		fi
	done <"$TMP/listed"
	# bisect-step gives git bisect run 128, which stops git, where 2
	# would read as a bad commit.
	want=2
	[ "$c" != bisect-step ] || want=128
	expect_status "$want" "mmcmp $c --no-such-option" "$MMCMP" "$c" --no-such-option
	grep_file "$TMP/err" "unknown option '--no-such-option'" "$c names the unknown option"
done

# --db before and after the command, and MMCMP_DB: list, a reader, names
# the database it was given and does not create it.
for how in "--db first" "--db after" "--db=PATH" "MMCMP_DB"; do
	db="$TMP/$(echo "$how" | tr -dc "[:lower:]").db"
	case $how in
	"--db first") set -- "$MMCMP" --db "$db" list ;;
	"--db after") set -- "$MMCMP" list --db "$db" ;;
	"--db=PATH") set -- "$MMCMP" list --db="$db" ;;
	*) set -- env MMCMP_DB="$db" "$MMCMP" list ;;
	esac
	expect_status 1 "list on a missing database ($how)" "$@"
	grep_file "$TMP/err" "^mmcmp: error: no database at '$db'$" \
		"$how names that database"
	check "$how: list does not create it" test ! -e "$db"
done
expect_status 2 "--db without a value" "$MMCMP" list --db

# An option without its value is named, in every command.
for c in "compare --alpha" "compare --run" "compare -o" "compare --output" \
	"compare --test" "compare --format" "export -o" "export --compare" \
	"export --test" "run --param" "run --label" "show --run" \
	"import --label-prefix"; do
	# shellcheck disable=SC2086
	expect_refused "mmcmp $c without a value" "option '${c#* }' needs a value" \
		"$MMCMP" $c
done

# The option syntax, the same in every command.
M() { "$MMCMP" --db "$TMP/opt.db" "$@"; }
data=../data/mmtests
expect_status 0 "import a base and a patched label" M import "$data/wis-improve.csv"
expect_status 0 "--label-prefix=V, a prefix starting with '-'" \
	M import --label-prefix=-x- "$data/wis-improve.csv"
base=6.9-vanilla
other=6.9-patched

# same DESCRIPTION "ARGS1" "ARGS2": both succeed and print the same.
same() {
	# shellcheck disable=SC2086
	M $2 >"$TMP/one" 2>&1 || echo "exit $?" >>"$TMP/one"
	# shellcheck disable=SC2086
	M $3 >"$TMP/two" 2>&1 || echo "exit $?" >>"$TMP/two"
	if ! grep -q "^exit \|error" "$TMP/one" && cmp -s "$TMP/one" "$TMP/two"; then
		ok "$1"
	else
		not_ok "$1"
		diff "$TMP/one" "$TMP/two" | head -10 | sed 's/^/# /'
		grep "^exit \|error" "$TMP/one" | head -3 | sed 's/^/# /'
	fi
}
same "compare -- A B is compare A B" "compare $base $other" "compare -- $base $other"
same "compare A -- B is compare A B" "compare $base $other" "compare $base -- $other"
same "show -- A is show A" "show $base" "show -- $base"
same "export json -- A is export json A" "export json $base" "export json -- $base"
same "export csv A -- B is export csv A B" "export csv $base $other" "export csv $base -- $other"
same "--format=V is --format V" "compare --format=csv $base $other" "compare --format csv $base $other"
same "--run=ID is --run ID" "show --run=1 $base" "show --run 1 $base"
same "--test=V --alpha=V is --test V --alpha V" \
	"compare --test=utest --alpha=0.1 $base $other" "compare --test utest --alpha 0.1 $base $other"
same "options after the labels" "compare --no-fdr $base $other" "compare $base $other --no-fdr"
same "export --test=V is export --test V" \
	"export json --compare=$base --test=mmtests" "export json --compare $base --test mmtests"
expect_status 0 "-o FILE" M compare -o "$TMP/o1" $base $other
expect_status 0 "--output=FILE" M compare --output="$TMP/o2" $base $other
check "-o FILE and --output=FILE write the same" cmp -s "$TMP/o1" "$TMP/o2"

# A label starting with '-' is an argument after "--", an option before.
expect_status 0 "compare -- -A -B" M compare -- -x-$base -x-$other
grep_file "$TMP/out" "x-$other" "compare -- -A -B compares those labels"
expect_status 2 "compare -A -B without --" M compare -x-$base -x-$other
grep_file "$TMP/err" "unknown option '-x-$base'" "without --, -A is an unknown option"
expect_status 0 "show -- -A" M show -- -x-$base
grep_file "$TMP/out" "^run [0-9]* -x-$base\$" "show -- -A shows that label"
expect_status 0 "export json -- -A" M export json -- -x-$base
grep_file "$TMP/out" "\"label\":.*\"-x-$base\"" "export json -- -A exports that label"
expect_status 0 "export csv --benchmark=B -- -A" M export csv --benchmark=wis-pf -- -x-$base
grep_file "$TMP/out" "^-x-$base," "export csv -- -A exports that label"
expect_status 2 "after --, --no-fdr is a label" M compare $base -- --no-fdr
grep_file "$TMP/err" "no runs with label '--no-fdr'" "the label after -- is looked up"

# A lone "-" is an argument in every command.
expect_status 2 "show -" M show -
grep_file "$TMP/err" "no runs with label '-'" "show - looks up label '-'"
expect_status 2 "compare - B" M compare - $other
grep_file "$TMP/err" "no runs with label '-'" "compare - B looks up label '-'"
expect_status 2 "list -" M list -
grep_file "$TMP/err" "unexpected argument '-'" "list - is an argument"

# Bad values name the option and what it takes; choices come from the
# tables of compare and render.
expect_status 2 "compare --test=nosuch" M compare --test=nosuch $base $other
grep_file "$TMP/err" "option '--test' needs one of welch, mmtests or utest, not 'nosuch'" \
	"--test lists the tests"
expect_status 2 "export --test nosuch" M export json --compare $base --test nosuch
grep_file "$TMP/err" "option '--test' needs one of welch, mmtests or utest, not 'nosuch'" \
	"export --test lists the same tests"
expect_status 2 "compare --alpha 1" M compare --alpha 1 $base $other
grep_file "$TMP/err" "option '--alpha' needs a number between 0 and 1, not '1'" "--alpha names its range"
expect_status 2 "show --run=0" M show --run=0 $base
grep_file "$TMP/err" "option '--run' needs a whole number of at least 1, not '0'" "--run names its range"
expect_status 2 "a flag with a value" M compare --no-fdr=yes $base $other
grep_file "$TMP/err" "option '--no-fdr' takes no value" "the flag is named"
expect_status 0 "compare --help" M compare --help
grep_file "$TMP/out" "^  --test=welch|mmtests|utest\$" "compare --help lists the tests"
grep_file "$TMP/out" "^  --format=text|markdown|csv|html|json|junit|github\$" "compare --help lists the formats"
grep_file "$TMP/out" "^  --run=ID  *use run ID for its label (repeatable)\$" "compare --help marks --run repeatable"
for f in $(sed -n 's/^  --format=\([a-z|]*\)$/\1/p' "$TMP/out" | tr '|' ' '); do
	expect_status 0 "compare --format=$f, as --help lists it" M compare --format="$f" $base $other
done
expect_status 0 "export --help" M export --help
grep_file "$TMP/out" "^  --test=welch|mmtests|utest\$" "export --help lists the tests of compare"
expect_status 0 "mmcmp --help" M --help
grep_file "$TMP/out" "^  --db=PATH  *the database" "mmcmp --help lists --db"

# N19: one rule, one message for --margin; --iterations has the config's
# bound; show prints no 300-digit mean; a failed extraction names its
# metric once.
printf 'label,benchmark,operation,value\nh,b,o,1e300\nh,b,o,1.5e300\nh,b,o,2\nh,b,o,3\n' >"$TMP/n19.csv"
expect_status 0 "n19: import" "$MMCMP" --db "$TMP/n19.db" import "$TMP/n19.csv"
for m in -5 -0.9; do
	expect_refused "n19: --margin $m is refused" \
		"option '--margin' needs a number of at least 0, not '$m'" \
		"$MMCMP" --db "$TMP/n19.db" compare --margin "$m" h h
done
expect_status 0 "n19: show" "$MMCMP" --db "$TMP/n19.db" show h
grep_file "$TMP/out" "n=4 mean=6.25e+299 min=2.00 max=1.5e+300$" "n19: show prints huge means with an exponent"
cat >"$TMP/n19.yaml" <<EOF2
name: n19
iterations: 1
monitors: false
workloads:
  - name: w
    command: [sh, -c, "echo notjson"]
    metrics: [{name: t, extract: {json: "a.b"}}]
EOF2
expect_refused "n19: --iterations above the config's bound is refused" \
	"'--iterations' needs a whole number from 1 to 100000" \
	"$MMCMP" run --check --iterations 100001 "$TMP/n19.yaml"
expect_status 1 "n19: an extraction that fails" "$MMCMP" --db "$TMP/n19.db" run -q --label J "$TMP/n19.yaml"
grep_file "$TMP/err" "extract: metric 't': invalid JSON" "n19: the failure names the metric"
check "n19: and names it once" sh -c "! grep -q \"metric 't': metric\" '$TMP/err'"

done_testing
