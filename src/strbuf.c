/* strbuf: growable strings. */
#include "strbuf.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char strbuf_slopbuf[1];

void strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->alloc = 0;
	sb->len = 0;
	sb->buf = strbuf_slopbuf;
	if (hint)
		strbuf_grow(sb, hint);
}

void strbuf_release(struct strbuf *sb)
{
	if (!sb)
		return;
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, 0);
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *res;

	strbuf_grow(sb, 0);
	res = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb, 0);
	return res;
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	bool new_buf = !sb->alloc;

	if (sb->len + extra + 1 <= sb->len)
		BUG("strbuf size overflow");
	if (new_buf)
		sb->buf = NULL;
	ALLOC_GROW(sb->buf, sb->len + extra + 1, sb->alloc);
	if (new_buf)
		sb->buf[0] = '\0';
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (len > (sb->alloc ? sb->alloc - 1 : 0))
		BUG("strbuf_setlen() beyond buffer");
	sb->len = len;
	if (sb->buf != strbuf_slopbuf)
		sb->buf[len] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	if (!len)
		return;
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, int c)
{
	strbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

void strbuf_addchars(struct strbuf *sb, int c, size_t n)
{
	if (!n)
		return;
	strbuf_grow(sb, n);
	memset(sb->buf + sb->len, c, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int len;

	va_copy(cp, ap);
	/* clang-analyzer 14 does not follow va_copy(): a false report. */
	/* NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized) */
	len = vsnprintf(sb->buf + sb->len, sb->alloc ? sb->alloc - sb->len : 0,
			fmt, cp);
	va_end(cp);
	if (len < 0)
		BUG("vsnprintf failed for '%s'", fmt);
	if ((size_t)len >= (sb->alloc ? sb->alloc - sb->len : 0)) {
		strbuf_grow(sb, (size_t)len);
		len = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt,
				ap);
		if (len < 0)
			BUG("vsnprintf failed for '%s'", fmt);
	}
	sb->len += (size_t)len;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

/*
 * Write |v| < 1e15 with at most 6 decimals by hand when some 10^k * |v|
 * is a whole number: four times faster than printf, which matters for a
 * million samples. False when v does not qualify or reads back otherwise.
 */
static bool format_short_decimal(char *buf, double v)
{
	static const double pow10[] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6};
	double a = fabs(v);

	if (!(a < 1e15))
		return false;
	for (int k = 0; k < (int)ARRAY_SIZE(pow10); k++) {
		double y = a * pow10[k];
		char digits[24], *p = buf;
		unsigned long long u;
		int n = 0;

		if (y >= 1e15)
			return false;
		if (y != floor(y))
			continue;
		u = (unsigned long long)y;
		do {
			digits[n++] = (char)('0' + u % 10);
			u /= 10;
		} while (u || n <= k);
		if (signbit(v))
			*p++ = '-';
		while (n > 0) {
			*p++ = digits[--n];
			if (n == k && k)
				*p++ = '.';
		}
		/* 1132.890 is 1132.89: drop trailing zeros of the fraction. */
		while (k && p[-1] == '0')
			p--;
		if (p[-1] == '.')
			p--;
		*p = '\0';
		return strtod(buf, NULL) == v;
	}
	return false;
}

void strbuf_add_double(struct strbuf *sb, double v)
{
	char buf[40];

	if (!format_short_decimal(buf, v)) {
		for (int digits = 15; digits <= 17; digits++) {
			snprintf(buf, sizeof(buf), "%.*g", digits, v);
			if (digits == 17 || strtod(buf, NULL) == v)
				break;
		}
	}
	strbuf_addstr(sb, buf);
}

void strbuf_rtrim(struct strbuf *sb)
{
	while (sb->len && isspace((unsigned char)sb->buf[sb->len - 1]))
		sb->len--;
	if (sb->alloc)
		sb->buf[sb->len] = '\0';
}

int strbuf_read_file_max(struct strbuf *sb, const char *path, size_t max_bytes,
			 struct strbuf *err)
{
	size_t start = sb->len, want, n;
	FILE *f = fopen(path, "rb");
	int ret = 0;

	if (!f)
		return error_addf(err, "cannot open '%s': %s", path,
				  strerror(errno));
	do {
		want = max_bytes - (sb->len - start);
		if (want > 8192)
			want = 8192;
		strbuf_grow(sb, want);
		n = fread(sb->buf + sb->len, 1, want, f);
		strbuf_setlen(sb, sb->len + n);
	} while (n && sb->len - start < max_bytes);
	if (ferror(f)) {
		ret = error_addf(err, "cannot read '%s': %s", path,
				 strerror(errno));
		strbuf_setlen(sb, start);
	}
	fclose(f);
	return ret;
}

int strbuf_read_file(struct strbuf *sb, const char *path, struct strbuf *err)
{
	return strbuf_read_file_max(sb, path, SIZE_MAX, err);
}

int error_addf(struct strbuf *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	if (err->len)
		strbuf_addstr(err, ": ");
	va_start(ap, fmt);
	strbuf_vaddf(err, fmt, ap);
	va_end(ap);
	return -1;
}
