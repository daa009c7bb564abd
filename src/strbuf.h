#ifndef MMCMP_STRBUF_H
#define MMCMP_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

#include "util.h"

/*
 * strbuf: a growable, always NUL-terminated byte string (after git's).
 *
 * `buf` is never NULL: an empty strbuf points at a shared empty string, so
 * it can be printed at once. `len` excludes the terminating NUL. The
 * buffer may hold NUL bytes. Memory is owned by the strbuf until
 * strbuf_detach() hands it to the caller.
 *
 * Error convention of the library: a function that fails appends one line
 * (no trailing '\n') to a `struct strbuf *err` it was given; `err` may be
 * NULL when the caller does not want the message.
 */
struct strbuf {
	size_t alloc;
	size_t len;
	char *buf;
};

extern char strbuf_slopbuf[];
#define STRBUF_INIT                                                            \
	{                                                                      \
		.alloc = 0, .len = 0, .buf = strbuf_slopbuf                    \
	}

void strbuf_init(struct strbuf *sb, size_t hint);
/* Free the memory and reset to STRBUF_INIT. NULL is a no-op. */
void strbuf_release(struct strbuf *sb);
/* Return the buffer (caller frees) and reset sb to empty. */
char *strbuf_detach(struct strbuf *sb, size_t *len);
/* Ensure room for `extra` more bytes plus the NUL. */
void strbuf_grow(struct strbuf *sb, size_t extra);
/* Set the length to len (<= current length + available room). */
void strbuf_setlen(struct strbuf *sb, size_t len);
#define strbuf_reset(sb) strbuf_setlen((sb), 0)

void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
/* Append n copies of c. */
void strbuf_addchars(struct strbuf *sb, int c, size_t n);
MMCMP_PRINTF(2, 3) void strbuf_addf(struct strbuf *sb, const char *fmt, ...);
MMCMP_PRINTF(2, 0)
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/*
 * Append the finite number v as text that strtod() reads back as exactly
 * v, so that exported values survive a round trip bit for bit: when
 * |v| < 1e15 has at most 6 decimals, plain digits ("1012.345", "-0",
 * "0.00001"), else the first of "%.15g", "%.16g" and "%.17g" (which
 * always reads back) that does.
 */
void strbuf_add_double(struct strbuf *sb, double v);
/* Remove trailing whitespace. */
void strbuf_rtrim(struct strbuf *sb);

/*
 * Append the contents of the file at path to sb, at most max_bytes of it
 * (SIZE_MAX for the whole file; a caller that must refuse a file over a
 * limit asks for one byte more and checks the length). Returns 0, or -1
 * with "cannot open 'PATH': why" or "cannot read 'PATH': why" appended to
 * err; on failure sb holds what it held on entry (its capacity may have
 * grown).
 */
int strbuf_read_file_max(struct strbuf *sb, const char *path, size_t max_bytes,
			 struct strbuf *err);
/* strbuf_read_file_max() of the whole file. */
int strbuf_read_file(struct strbuf *sb, const char *path, struct strbuf *err);

/*
 * Append a formatted error line to err, when err is not NULL. A second
 * message on a non-empty err is joined with ": " so the first stays the
 * context. Returns -1, so `return error_addf(err, ...)` reads naturally.
 */
MMCMP_PRINTF(2, 3) int error_addf(struct strbuf *err, const char *fmt, ...);

#endif /* MMCMP_STRBUF_H */
