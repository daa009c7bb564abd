#!/bin/sh
# Basics: --help everywhere, --version, unknown commands and options,
# global --db before or after the command, README synopsis = --help.
set -e
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
	if grep -qxF -- "$(cat "$TMP/synopsis")" "$MMCMP_SRCDIR/README.md"; then
		ok "README has the synopsis of $c"
	else
		not_ok "README has the synopsis of $c: $(cat "$TMP/synopsis")"
	fi
	expect_status 2 "mmcmp $c --no-such-option" "$MMCMP" "$c" --no-such-option
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
	"export -o" "run --param" "run --label" "show --run" \
	"import --label-prefix"; do
	# shellcheck disable=SC2086
	expect_status 2 "mmcmp $c without a value" "$MMCMP" $c
	grep_file "$TMP/err" "option '${c#* }' needs a value" "mmcmp $c names the option"
done

done_testing
