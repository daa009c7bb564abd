#ifndef MMCMP_UTIL_H
#define MMCMP_UTIL_H

/*
 * The common system headers come first, so that banned.h, included at
 * the end, cannot clash with their inline definitions.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * util: small helpers shared by every module.
 *
 * The x*alloc() family never returns NULL: running out of memory aborts
 * with a message on stderr, so callers never test the result. BUG() marks
 * a broken invariant and aborts; it is never a way to report bad input.
 */

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define MMCMP_NORETURN	   __attribute__((noreturn))
#define MMCMP_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define MMCMP_NORETURN
#define MMCMP_PRINTF(f, a)
#endif

/* Allocate; abort on failure. xcalloc() zeroes, xrealloc(NULL, n) mallocs. */
void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
/*
 * Abort with "out of memory allocating SIZE bytes" on stderr: what the
 * x*alloc() functions do when an allocation fails, for code whose
 * allocations are not ours (cJSON returns NULL instead).
 */
MMCMP_NORETURN void die_oom(size_t size);
/* Duplicate a string (NULL gives NULL); the caller frees the copy. */
char *xstrdup(const char *s);
/* Duplicate at most n bytes of s and terminate the copy. */
char *xstrndup(const char *s, size_t n);

/*
 * UTF-8 as RFC 3629 has it (no overlong forms, no surrogates, nothing
 * above U+10FFFF). utf8_seq() gives the length of the valid sequence at
 * s, 0 when there is none (it reads no byte past a NUL); utf8_valid()
 * says whether all of the NUL-terminated s is UTF-8.
 */
size_t utf8_seq(const char *s);
bool utf8_valid(const char *s);

/* Abort with "BUG: file:line: message"; used through the BUG() macro. */
MMCMP_NORETURN MMCMP_PRINTF(3, 4) void bug_fl(const char *file, int line,
					      const char *fmt, ...);
#define BUG(...) bug_fl(__FILE__, __LINE__, __VA_ARGS__)

/* The amount of growth ALLOC_GROW() picks for a capacity of x. */
#define alloc_nr(x) (((x) + 16) * 3 / 2)

/*
 * Make room for at least nr elements in the array x whose capacity is
 * alloc (git's ALLOC_GROW). x may be NULL with alloc 0.
 */
#define ALLOC_GROW(x, nr, alloc)                                               \
	do {                                                                   \
		if ((nr) > (alloc)) {                                          \
			if (alloc_nr(alloc) < (nr))                            \
				(alloc) = (nr);                                \
			else                                                   \
				(alloc) = alloc_nr(alloc);                     \
			(x) = xrealloc((x), (alloc) * sizeof(*(x)));           \
		}                                                              \
	} while (0)

#include "banned.h"

#endif /* MMCMP_UTIL_H */
