#!/bin/sh
# The build registers every test and migration: meson setup of a copy of
# the source tree fails, naming the file, when a tests/test-*.c,
# tests/cli/t*.sh or db/migrations/*.sql on disk is not listed in its
# meson.build.
. ./lib.sh

need meson "Debian package meson"

# The source tree without .git and without build directories.
src="$TMP/src"
mkdir "$src"
for entry in "$MMCMP_SRCDIR"/* "$MMCMP_SRCDIR"/.[!.]*; do
	[ -e "$entry" ] || continue
	[ "${entry##*/}" = .git ] && continue
	[ -d "$entry/meson-private" ] && continue
	cp -R "$entry" "$src/"
done

n=0
expect_status 0 "the copy of the tree configures" meson setup "$src" "$TMP/b$n"
for f in tests/test-unlisted.c tests/cli/t9999-unlisted.sh \
	db/migrations/9999-unlisted.sql; do
	n=$((n + 1))
	: >"$src/$f"
	expect_status 1 "meson setup fails with an unregistered $f" \
		meson setup "$src" "$TMP/b$n"
	grep_file "$TMP/out" "$f not registered" "the error names $f"
	rm "$src/$f"
done

done_testing
