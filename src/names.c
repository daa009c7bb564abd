/* names: limits, escaping and cutting of labels and names; did-you-mean. */
#include "names.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "util.h"

/* What a quoted name shows of a long one before "...". */
#define QUOTE_BYTES 64

static const struct {
	const char *name;
	size_t max_bytes;
} kinds[] = {
	[NAME_LABEL] = {"label", NAMES_MAX_BYTES},
	[NAME_BENCHMARK] = {"benchmark", NAMES_MAX_BYTES},
	[NAME_OPERATION] = {"operation", NAMES_MAX_BYTES},
	[NAME_UNIT] = {"unit", NAMES_MAX_BYTES},
};

size_t names_max_bytes(enum name_kind kind)
{
	return kinds[kind].max_bytes;
}

const char *names_kind(enum name_kind kind)
{
	return kinds[kind].name;
}

/*
 * The length of the control character at s, a valid UTF-8 sequence of n
 * bytes: C0 and DEL are one byte, C1 (U+0080 to U+009F) two; 0 for
 * anything else.
 */
static size_t control_len(const unsigned char *s, size_t n)
{
	if (n == 1 && (s[0] < 0x20 || s[0] == 0x7f))
		return 1;
	if (n == 2 && s[0] == 0xc2 && s[1] < 0xa0)
		return 2;
	return 0;
}

bool names_has_control(const char *s)
{
	for (size_t n; *s; s += n) {
		n = utf8_seq(s);
		if (!n)
			BUG("names_has_control() of a string that is not UTF-8");
		if (control_len((const unsigned char *)s, n))
			return true;
	}
	return false;
}

int names_check(enum name_kind kind, const char *s, struct strbuf *err)
{
	struct strbuf q = STRBUF_INIT;
	size_t len = strlen(s);
	int ret = -1;

	if (!len && kind != NAME_UNIT) {
		error_addf(err, "%s is empty", names_kind(kind));
		goto out;
	}
	if (len > names_max_bytes(kind)) {
		error_addf(err, "%s too long (%zu bytes, at most %zu)",
			   names_kind(kind), len, names_max_bytes(kind));
		goto out;
	}
	names_quote(&q, s);
	if (!utf8_valid(s)) {
		error_addf(err, "%s '%s' is not UTF-8", names_kind(kind),
			   q.buf);
		goto out;
	}
	if (names_has_control(s)) {
		error_addf(err, "%s '%s' contains a control character",
			   names_kind(kind), q.buf);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&q);
	return ret;
}

void names_escape(struct strbuf *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + len;

	while (p < end) {
		size_t n = utf8_seq((const char *)p);
		size_t ctl;

		if (!n || n > (size_t)(end - p)) {
			strbuf_addf(out, "\\x%02x", *p++);
			continue;
		}
		ctl = control_len(p, n);
		if (ctl == 1 && (*p == '\n' || *p == '\t' || *p == '\r'))
			strbuf_addf(out, "\\%c",
				    *p == '\n'	 ? 'n'
				    : *p == '\t' ? 't'
						 : 'r');
		else if (ctl)
			for (size_t i = 0; i < ctl; i++)
				strbuf_addf(out, "\\x%02x", p[i]);
		else
			strbuf_add(out, p, n);
		p += n;
	}
}

void names_escape_lines(struct strbuf *out, const char *s, size_t len)
{
	while (len && (s[len - 1] == '\n' || s[len - 1] == '\r'))
		len--;
	while (len) {
		size_t n = 0;

		while (n < len && s[n] != '\n' && s[n] != '\r')
			n++;
		names_escape(out, s, n);
		if (n < len && s[n] == '\n')
			strbuf_addch(out, '\n');
		s += n + (n < len);
		len -= n + (n < len);
	}
}

void names_quote(struct strbuf *out, const char *s)
{
	size_t len = strlen(s);
	size_t n = names_cut(s, len, QUOTE_BYTES);

	names_escape(out, s, n);
	if (n < len)
		strbuf_addstr(out, "...");
}

size_t names_cut(const char *s, size_t len, size_t max)
{
	size_t n = max < len ? max : len;

	/* Back over continuation bytes, at most the 3 of one character. */
	for (size_t back = 0; n < len && n > 0 && back < 3 &&
			      ((unsigned char)s[n] & 0xc0) == 0x80;
	     back++)
		n--;
	return n;
}

/* The optimal string alignment distance of a and b. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *d = xcalloc((la + 1) * (lb + 1), sizeof(*d));
	size_t w = lb + 1, dist;

	for (size_t i = 0; i <= la; i++)
		d[i * w] = i;
	for (size_t j = 0; j <= lb; j++)
		d[j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t v = d[(i - 1) * w + j - 1] + cost;

			if (d[(i - 1) * w + j] + 1 < v)
				v = d[(i - 1) * w + j] + 1;
			if (d[i * w + j - 1] + 1 < v)
				v = d[i * w + j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] &&
			    d[(i - 2) * w + j - 2] + 1 < v)
				v = d[(i - 2) * w + j - 2] + 1;
			d[i * w + j] = v;
		}
	}
	dist = d[la * w + lb];
	free(d);
	return dist;
}

/* Names longer than this are not typos of one another worth a hint. */
#define CLOSEST_MAX_BYTES 256

const char *names_closest(const char *word, const char *const *cands, size_t nr)
{
	const char *best = NULL;
	size_t best_d = SIZE_MAX;
	size_t lw = strlen(word);

	if (lw > CLOSEST_MAX_BYTES)
		return NULL;
	for (size_t i = 0; i < nr; i++) {
		size_t lc = strlen(cands[i]);
		size_t longer = lc > lw ? lc : lw;
		size_t d;

		if (lc > CLOSEST_MAX_BYTES || (lc > lw ? lc - lw : lw - lc) > 2)
			continue;
		d = edit_distance(word, cands[i]);
		if (d && d <= 2 && 2 * d < longer && d < best_d) {
			best = cands[i];
			best_d = d;
		}
	}
	return best;
}
