#ifndef MMCMP_NAMES_H
#define MMCMP_NAMES_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf;

/*
 * names: the one set of limits for the names a run is stored under, and
 * their display.
 *
 * A label, benchmark, operation name or unit is at most
 * names_max_bytes() bytes of UTF-8 without control characters (C0, DEL
 * or C1). run checks its labels and expanded operation names, import
 * every name of every run before it is stored, and the JSON validator of
 * import uses the same limits, so that whatever one mmcmp stores, its
 * export imports into another.
 *
 * Names stored by older versions may still hold anything:
 * names_escape() makes them safe for a terminal, names_cut() cuts them
 * on a character boundary.
 *
 * names_check() returns 0, or -1 after appending one line, without
 * '\n', to err. Nothing here allocates what the caller must free, except
 * into the caller's strbufs.
 */

/* The longest name of any kind, in bytes: what a JSON export may hold. */
#define NAMES_MAX_BYTES ((size_t)4096)

enum name_kind {
	NAME_LABEL,
	NAME_BENCHMARK,
	NAME_OPERATION,
	NAME_UNIT,
};

/* The most bytes a name of kind may have. */
size_t names_max_bytes(enum name_kind kind);
/* "label", "benchmark", "operation", "unit": the kind in messages. */
const char *names_kind(enum name_kind kind);

/*
 * Check s as a name of kind: "KIND too long (N bytes, at most M)",
 * "KIND 'S' is not UTF-8", "KIND 'S' contains a control character", and
 * for anything but a unit "KIND is empty", where S is s quoted for one
 * line (names_quote()).
 */
int names_check(enum name_kind kind, const char *s, struct strbuf *err);

/* Whether s, valid UTF-8, holds a control character (C0, DEL or C1). */
bool names_has_control(const char *s);

/*
 * Append len bytes of s to out, safe for a terminal: newline, tab and
 * carriage return as \n, \t and \r, the other control characters (C0,
 * DEL and C1) and every byte that is not part of valid UTF-8 as \xNN.
 */
void names_escape(struct strbuf *out, const char *s, size_t len);
/*
 * Append len bytes of s to out as names_escape() does, but for text of
 * several lines (a workload's stderr, a console): each newline is kept,
 * carriage returns are dropped and trailing newlines too.
 */
void names_escape_lines(struct strbuf *out, const char *s, size_t len);
/* Append s as names_escape() does, cut after about 64 bytes with "...". */
void names_quote(struct strbuf *out, const char *s);

/*
 * The largest n <= max that is a character boundary of s (len bytes of
 * UTF-8, or not): s[0..n) does not end in the middle of a character.
 */
size_t names_cut(const char *s, size_t len, size_t max);

/*
 * The candidate closest to word in edit distance (Damerau-Levenshtein,
 * a transposition counting one), when it is close enough to be a typo:
 * at most 2 edits, and fewer than half the length of the longer of the
 * two. NULL when none is; the first of equally close ones wins. The
 * result is one of cands.
 */
const char *names_closest(const char *word, const char *const *cands,
			  size_t nr);

#endif /* MMCMP_NAMES_H */
