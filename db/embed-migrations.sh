#!/bin/sh
# Embed db/migrations/NNNN-*.sql, in name order, into a C header: the
# store applies migration i to reach PRAGMA user_version i + 1.
set -eu
dir=$1
out=$2
tmp="$out.tmp"
{
	echo "/* Generated from db/migrations by embed-migrations.sh. */"
	echo "static const char *const store_migrations[] = {"
	for f in "$dir"/[0-9][0-9][0-9][0-9]-*.sql; do
		[ -e "$f" ] || continue
		printf '\t/* %s */\n' "$(basename "$f")"
		sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/\t"/' -e 's/$/\\n"/' "$f"
		printf '\t,\n'
	done
	echo "};"
} >"$tmp"
mv "$tmp" "$out"
