#ifndef MMCMP_TAP_H
#define MMCMP_TAP_H

/*
 * tap: a minimal TAP producer for unit tests (meson protocol: 'tap').
 * Call plan(n) first or done_testing() last; ok() and friends print one
 * "ok N - description" line each; exit_status() is 0 when all passed.
 */

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int tap_run;
static int tap_failed;

static inline void plan(int n)
{
	printf("1..%d\n", n);
}

__attribute__((format(printf, 2, 3))) static inline bool
ok(bool cond, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	tap_run++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_run);
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* One line: a newline in the description is printed as "\n". */
	for (const char *p = buf; *p; p++)
		if (*p == '\n')
			fputs("\\n", stdout);
		else
			putchar(*p);
	printf("\n");
	return cond;
}

static inline void diag(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static inline void diag(const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	/* Every line a comment, so a multi-line text stays valid TAP. */
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	printf("# ");
	for (const char *p = buf; *p; p++) {
		putchar(*p);
		if (*p == '\n' && p[1])
			printf("# ");
	}
	printf("\n");
}

/* Pass when got and want are both NaN, or |got - want| <= tol * max(1, |want|).
 */
#define ok_near(got, want, tol, ...)                                           \
	(tap_near_check((got), (want), (tol))                                  \
		 ? ok(true, __VA_ARGS__)                                       \
		 : (diag("got %.17g, want %.17g", (double)(got),               \
			 (double)(want)),                                      \
		    ok(false, __VA_ARGS__)))

static inline bool tap_near_check(double got, double want, double tol)
{
	double scale;

	if (isnan(want) || isnan(got))
		return isnan(want) && isnan(got);
	if (isinf(want) || isinf(got))
		return got == want;
	scale = fabs(want) > 1.0 ? fabs(want) : 1.0;
	return fabs(got - want) <= tol * scale;
}

/* Pass when the strings are equal (NULL equals only NULL). */
#define is_str(got, want, ...)                                                 \
	(tap_str_eq((got), (want))                                             \
		 ? ok(true, __VA_ARGS__)                                       \
		 : (diag("got '%s', want '%s'", tap_str_or_null(got),          \
			 tap_str_or_null(want)),                               \
		    ok(false, __VA_ARGS__)))

static inline const char *tap_str_or_null(const char *s)
{
	return s ? s : "(null)";
}

static inline bool tap_str_eq(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

static inline void done_testing(void)
{
	printf("1..%d\n", tap_run);
}

static inline int exit_status(void)
{
	return tap_failed ? 1 : 0;
}

#endif /* MMCMP_TAP_H */
