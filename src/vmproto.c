/* vmproto: framed, checksummed messages between host and guest agent. */
#include "vmproto.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse-num.h"
#include "profile.h"
#include "runner.h"
#include "util.h"

static const char magic[4] = {'M', 'M', 'V', 'P'};

void vmproto_msg_release(struct vmproto_msg *msg)
{
	if (!msg)
		return;
	free(msg->fields);
	msg->fields = NULL;
	msg->nr = msg->alloc = 0;
}

uint32_t vmproto_crc32(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	/* Bitwise, reflected polynomial 0xEDB88320: frames are small. */
	crc = ~crc;
	for (size_t i = 0; i < len; i++) {
		crc ^= p[i];
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xEDB88320U & (0U - (crc & 1U)));
	}
	return ~crc;
}

static void put_le(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, int bytes)
{
	uint64_t v = 0;

	for (int i = 0; i < bytes; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

size_t vmproto_begin(struct strbuf *out, enum vmproto_type type, uint32_t seq)
{
	size_t start = out->len;
	uint8_t h[VMPROTO_HEADER] = {0};

	memcpy(h, magic, sizeof(magic));
	h[4] = VMPROTO_VERSION;
	h[5] = (uint8_t)type;
	put_le(h + 12, seq, 4);
	strbuf_add(out, h, sizeof(h));
	return start;
}

void vmproto_put(struct strbuf *out, uint16_t tag, const void *data, size_t len)
{
	uint8_t h[6];

	put_le(h, tag, 2);
	put_le(h + 2, len, 4);
	strbuf_add(out, h, sizeof(h));
	if (len)
		strbuf_add(out, data, len);
}

void vmproto_put_str(struct strbuf *out, uint16_t tag, const char *s)
{
	vmproto_put(out, tag, s, strlen(s));
}

void vmproto_names_release(struct vmproto_names *nm)
{
	strmap_clear(&nm->number);
	for (size_t i = 0; i < nm->nr; i++) {
		free(nm->name[i]);
		free(nm->value[i]);
	}
	free(nm->name);
	free(nm->value);
	memset(nm, 0, sizeof(*nm));
}

/* The end of the line at text (len bytes left): its '\n', or len. */
static size_t packed_line_end(const char *text, size_t len)
{
	const char *nl = memchr(text, '\n', len);

	return nl ? (size_t)(nl - text) : len;
}

/* The last space of a line of n bytes: name before it, value after. */
static const char *line_space(const char *line, size_t n)
{
	for (size_t i = n; i-- > 0;)
		if (line[i] == ' ')
			return line + i;
	return NULL;
}

/* Number the name of len bytes, with its value of vlen bytes. */
static void names_add(struct vmproto_names *nm, const char *name, size_t len,
		      const char *value, size_t vlen)
{
	size_t had = nm->alloc;

	ALLOC_GROW(nm->name, nm->nr + 1, nm->alloc);
	if (nm->alloc != had)
		nm->value = xrealloc(nm->value, nm->alloc * sizeof(*nm->value));
	nm->name[nm->nr] = xstrndup(name, len);
	nm->value[nm->nr++] = xstrndup(value, vlen);
}

/* Make value (vlen bytes) name k's last. */
static void names_set(struct vmproto_names *nm, size_t k, const char *value,
		      size_t vlen)
{
	free(nm->value[k]);
	nm->value[k] = xstrndup(value, vlen);
}

/* The decimal u64 of the len bytes at s (digits only); false if none. */
static bool plain_u64(const char *s, size_t len, uint64_t *v)
{
	*v = 0;
	/* As "%" PRIu64 prints it: no leading zero, so it prints back. */
	if (!len || len > 19 || (len > 1 && *s == '0'))
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		*v = *v * 10 + (uint64_t)(s[i] - '0');
	}
	return true;
}

/*
 * Name k's new value (vlen bytes) after last: as "N+D" or "N-D" when
 * both are decimal and the difference is the shorter, else "N value".
 */
static void pack_value(struct strbuf *out, size_t k, const char *last,
		       const char *value, size_t vlen)
{
	char d[24];
	uint64_t a, b;
	int n = 0;

	if (plain_u64(last, strlen(last), &a) && plain_u64(value, vlen, &b))
		n = snprintf(d, sizeof(d), b >= a ? "+%" PRIu64 : "-%" PRIu64,
			     b >= a ? b - a : a - b);
	if (n > 0 && (size_t)n <= vlen) {
		strbuf_addf(out, "%zu%s", k, d);
		return;
	}
	strbuf_addf(out, "%zu ", k);
	strbuf_add(out, value, vlen);
}

/* A run of names from..to whose values stood still, as one line. */
struct repeats {
	size_t from, to;
	bool open;
};

static void repeats_flush(struct repeats *r, struct strbuf *out)
{
	if (!r->open)
		return;
	if (r->from == r->to)
		strbuf_addf(out, "%zu\n", r->from);
	else
		strbuf_addf(out, "%zu:%zu\n", r->from, r->to);
	r->open = false;
}

void vmproto_names_pack(struct vmproto_names *nm, const char *text, size_t len,
			struct strbuf *out)
{
	struct repeats r = {0, 0, false};

	while (len) {
		size_t n = packed_line_end(text, len), k;
		const char *sp = line_space(text, n);
		size_t nlen = sp ? (size_t)(sp - text) : 0;
		size_t vlen = sp ? n - nlen - 1 : 0;

		if (sp && strmap_get(&nm->number, text, nlen, &k) &&
		    strlen(nm->value[k]) == vlen &&
		    !memcmp(nm->value[k], sp + 1, vlen)) {
			/* Snapshots keep their order: runs of numbers. */
			if (r.open && k == r.to + 1) {
				r.to = k;
			} else {
				repeats_flush(&r, out);
				r = (struct repeats){k, k, true};
			}
		} else {
			repeats_flush(&r, out);
			if (!sp) {
				/* No "name value": for the host to refuse. */
				strbuf_addch(out, '=');
				strbuf_add(out, text, n);
			} else if (!strmap_get(&nm->number, text, nlen, &k)) {
				strmap_put(&nm->number, text, nlen, nm->nr);
				names_add(nm, text, nlen, sp + 1, vlen);
				strbuf_addch(out, '=');
				strbuf_add(out, text, n);
			} else {
				pack_value(out, k, nm->value[k], sp + 1, vlen);
				names_set(nm, k, sp + 1, vlen);
			}
			strbuf_addch(out, '\n');
		}
		n += n < len;
		text += n;
		len -= n;
	}
	repeats_flush(&r, out);
}

/* Name k's value moved by "+D" or "-D" (len bytes); -1 if it cannot be. */
static int unpack_delta(struct vmproto_names *nm, size_t k, const char *d,
			size_t len)
{
	char v[24];
	uint64_t last, diff;

	if (!plain_u64(nm->value[k], strlen(nm->value[k]), &last) ||
	    !plain_u64(d + 1, len - 1, &diff) ||
	    (*d == '-' ? diff > last : diff > UINT64_MAX - last))
		return -1;
	snprintf(v, sizeof(v), "%" PRIu64,
		 *d == '-' ? last - diff : last + diff);
	names_set(nm, k, v, strlen(v));
	return 0;
}

int vmproto_names_unpack(struct vmproto_names *nm, const char *text, size_t len,
			 struct strbuf *out, struct strbuf *err)
{
	for (size_t no = 1; len; no++) {
		size_t n = packed_line_end(text, len);
		const char *sp = line_space(text, n);

		if (memchr(text, '\0', n))
			return error_addf(err,
					  "protocol: packed snapshot line %zu "
					  "has a NUL byte",
					  no);
		if (*text == '=') {
			if (!sp)
				return error_addf(err,
						  "protocol: packed snapshot "
						  "line %zu has no value",
						  no);
			names_add(nm, text + 1, (size_t)(sp - text) - 1, sp + 1,
				  n - (size_t)(sp - text) - 1);
			strbuf_add(out, text + 1, n - 1);
		} else {
			const char *end = sp ? sp : text + n;
			uint64_t k = 0;
			size_t i = 0;

			for (; text + i < end && text[i] >= '0' &&
			       text[i] <= '9' && k < UINT32_MAX;
			     i++)
				k = k * 10 + (uint64_t)(text[i] - '0');
			if (!sp && i && text + i < end && text[i] == ':' &&
			    k < nm->nr) {
				uint64_t to;

				if (!plain_u64(text + i + 1,
					       (size_t)(end - text) - i - 1,
					       &to) ||
				    to <= k || to >= nm->nr)
					return error_addf(
						err,
						"protocol: packed snapshot "
						"line %zu is no run of names "
						"sent before (%zu sent)",
						no, nm->nr);
				for (; k < to; k++)
					strbuf_addf(out, "%s %s\n", nm->name[k],
						    nm->value[k]);
			} else if (!sp && i && text + i < end &&
				   (text[i] == '+' || text[i] == '-') &&
				   k < nm->nr) {
				if (unpack_delta(nm, (size_t)k, text + i,
						 (size_t)(end - text) - i))
					return error_addf(
						err,
						"protocol: packed snapshot "
						"line %zu is no difference "
						"from a number",
						no);
			} else if (!i || text + i != end || k >= nm->nr) {
				return error_addf(
					err,
					"protocol: packed snapshot line %zu "
					"names no name sent before (%zu sent)",
					no, nm->nr);
			} else if (sp) {
				names_set(nm, (size_t)k, sp + 1,
					  n - (size_t)(sp - text) - 1);
			}
			strbuf_addf(out, "%s %s", nm->name[k], nm->value[k]);
		}
		strbuf_addch(out, '\n');
		n += n < len;
		text += n;
		len -= n;
	}
	return 0;
}

void vmproto_put_u64(struct strbuf *out, uint16_t tag, uint64_t v)
{
	uint8_t b[8];

	put_le(b, v, 8);
	vmproto_put(out, tag, b, sizeof(b));
}

void vmproto_end(struct strbuf *out, size_t start)
{
	uint8_t c[4];
	uint8_t *h = (uint8_t *)out->buf + start;

	put_le(h + 8, out->len - start - VMPROTO_HEADER, 4);
	put_le(h + 16, vmproto_crc32(0, h, 16), 4);
	put_le(c, vmproto_crc32(0, out->buf + start, out->len - start), 4);
	strbuf_add(out, c, sizeof(c));
}

/* Where the next magic could start after buf[0], for resynchronising. */
static size_t skip_to_magic(const uint8_t *buf, size_t len)
{
	for (size_t i = 1; i < len; i++)
		if (buf[i] == (uint8_t)magic[0])
			return i;
	return len ? len : 1;
}

/*
 * Check the header at buf (VMPROTO_HEADER bytes there): 0 with the
 * payload's length in *plen, or -1 with *used (from the next magic on)
 * and a line in err.
 */
static int check_header(const uint8_t *buf, size_t len, uint32_t *plen,
			size_t *used, struct strbuf *err)
{
	*used = skip_to_magic(buf, len);
	if (buf[4] != VMPROTO_VERSION)
		return error_addf(err, "protocol: version %u, not %u", buf[4],
				  VMPROTO_VERSION);
	if (get_le(buf + 16, 4) != vmproto_crc32(0, buf, 16))
		return error_addf(err, "protocol: header checksum mismatch");
	*plen = (uint32_t)get_le(buf + 8, 4);
	if (*plen > VMPROTO_MAX_PAYLOAD)
		return error_addf(
			err, "protocol: frame of %u bytes is too large", *plen);
	*used = 0;
	return 0;
}

/* The fields of the checked payload p of plen bytes into msg. */
static int parse_fields(const uint8_t *p, uint32_t plen,
			struct vmproto_msg *msg, struct strbuf *err)
{
	const uint8_t *end = p + plen;

	while (p < end) {
		struct vmproto_field f;

		if (end - p < 6)
			return error_addf(err,
					  "protocol: truncated field header");
		f.tag = (uint16_t)get_le(p, 2);
		f.len = (uint32_t)get_le(p + 2, 4);
		p += 6;
		if ((size_t)(end - p) < f.len)
			return error_addf(
				err, "protocol: field %u overruns its frame",
				f.tag);
		f.data = p;
		p += f.len;
		ALLOC_GROW(msg->fields, msg->nr + 1, msg->alloc);
		msg->fields[msg->nr++] = f;
	}
	return 0;
}

enum vmproto_parse vmproto_frame_parse(const uint8_t *buf, size_t len,
				       size_t *used, struct vmproto_msg *msg,
				       struct strbuf *err)
{
	uint32_t plen = 0, crc, reserved;
	size_t n = len < sizeof(magic) ? len : sizeof(magic), total;

	*used = 0;
	msg->nr = 0;
	if (memcmp(buf, magic, n)) {
		*used = skip_to_magic(buf, len);
		error_addf(err, "protocol: %zu bytes that are not a frame",
			   *used);
		return VMPROTO_BAD;
	}
	if (len < VMPROTO_HEADER)
		return VMPROTO_NEED_MORE;
	if (check_header(buf, len, &plen, used, err))
		return VMPROTO_BAD;
	total = VMPROTO_HEADER + (size_t)plen + 4;
	if (len < total) {
		*used = total;
		return VMPROTO_NEED_MORE;
	}
	crc = (uint32_t)get_le(buf + VMPROTO_HEADER + plen, 4);
	if (crc != vmproto_crc32(0, buf, VMPROTO_HEADER + (size_t)plen)) {
		*used = skip_to_magic(buf, len);
		error_addf(err, "protocol: frame checksum mismatch");
		return VMPROTO_BAD;
	}
	/*
	 * A checksummed frame with a reserved field that is not 0 or a type
	 * no peer of this version sends is skipped whole: accepted, it would
	 * not be the frame its fields build again.
	 */
	*used = total;
	reserved = (uint32_t)get_le(buf + 6, 2);
	if (reserved) {
		error_addf(err, "protocol: reserved header field is %u, not 0",
			   reserved);
		return VMPROTO_BAD;
	}
	if (buf[5] < VMPROTO_HELLO || buf[5] > VMPROTO_POWEROFF) {
		error_addf(err, "protocol: unknown frame type %u", buf[5]);
		return VMPROTO_BAD;
	}
	if (parse_fields(buf + VMPROTO_HEADER, plen, msg, err))
		return VMPROTO_BAD;
	msg->type = (enum vmproto_type)buf[5];
	msg->seq = (uint32_t)get_le(buf + 12, 4);
	return VMPROTO_FRAME;
}

void vmproto_skipped_release(struct vmproto_skipped *sk)
{
	if (!sk)
		return;
	strbuf_release(&sk->first);
	sk->bytes = sk->frames = 0;
}

void vmproto_skipped_describe(const struct vmproto_skipped *sk,
			      struct strbuf *out)
{
	if (!sk->bytes && !sk->frames)
		return;
	strbuf_addstr(out, "skipped ");
	if (sk->bytes)
		strbuf_addf(out, "%zu byte%s that were no frame%s", sk->bytes,
			    sk->bytes == 1 ? "" : "s",
			    sk->frames ? " and " : "");
	if (sk->frames)
		strbuf_addf(out, "%zu frame%s", sk->frames,
			    sk->frames == 1 ? "" : "s");
	strbuf_addf(out, " (the first: %s)", sk->first.buf);
}

/* Drop n bytes from the front of in. */
static void drop_front(struct strbuf *in, size_t n)
{
	memmove(in->buf, in->buf + n, in->len - n);
	strbuf_setlen(in, in->len - n);
}

enum vmproto_await vmproto_await(struct strbuf *in, enum vmproto_type type,
				 uint32_t seq, struct vmproto_msg *msg,
				 size_t *used, struct vmproto_skipped *sk,
				 struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	enum vmproto_await ret = VMPROTO_AWAIT_MORE;

	*used = 0;
	while (in->len) {
		enum vmproto_parse p;

		strbuf_reset(&why);
		p = vmproto_frame_parse((const uint8_t *)in->buf, in->len, used,
					msg, &why);
		if (p == VMPROTO_NEED_MORE)
			break;
		if (p == VMPROTO_FRAME && msg->type == type &&
		    msg->seq == seq) {
			ret = VMPROTO_AWAIT_FRAME;
			break;
		}
		if (p == VMPROTO_FRAME && type == VMPROTO_RESULT &&
		    msg->type == VMPROTO_RESULT && msg->seq == 0) {
			struct strbuf tail = STRBUF_INIT;

			vmproto_get_str(msg, VMPROTO_T_STDERR_TAIL, &tail);
			error_addf(err,
				   "protocol: the agent could not read the "
				   "frame of request %u (%s)",
				   seq,
				   tail.len ? tail.buf : "no reason given");
			strbuf_release(&tail);
			drop_front(in, *used);
			ret = VMPROTO_AWAIT_LOST;
			break;
		}
		if (p == VMPROTO_FRAME)
			strbuf_addf(&why,
				    "protocol: a frame of type %u numbered %u, "
				    "not the answer to %u",
				    (unsigned)msg->type, msg->seq, seq);
		if (!sk->bytes && !sk->frames)
			strbuf_add(&sk->first, why.buf, why.len);
		if (p == VMPROTO_FRAME)
			sk->frames++;
		else
			sk->bytes += *used;
		drop_front(in, *used);
		*used = 0;
	}
	strbuf_release(&why);
	return ret;
}

const struct vmproto_field *vmproto_get(const struct vmproto_msg *msg,
					uint16_t tag)
{
	for (size_t i = 0; i < msg->nr; i++)
		if (msg->fields[i].tag == tag)
			return &msg->fields[i];
	return NULL;
}

uint64_t vmproto_get_u64(const struct vmproto_msg *msg, uint16_t tag,
			 uint64_t def)
{
	const struct vmproto_field *f = vmproto_get(msg, tag);

	return f && f->len == 8 ? get_le(f->data, 8) : def;
}

bool vmproto_get_str(const struct vmproto_msg *msg, uint16_t tag,
		     struct strbuf *sb)
{
	const struct vmproto_field *f = vmproto_get(msg, tag);

	if (!f)
		return false;
	strbuf_add(sb, f->data, f->len);
	return true;
}

static uint64_t to_ns(double s)
{
	return s > 0 ? (uint64_t)(s * 1e9 + 0.5) : 0;
}

void vmproto_put_result(struct strbuf *out, const struct runner_result *r)
{
	vmproto_put_u64(out, VMPROTO_T_STATUS, (uint64_t)r->status);
	vmproto_put_u64(out, VMPROTO_T_EXIT_CODE, (uint64_t)r->exit_code);
	vmproto_put_u64(out, VMPROTO_T_SIGNAL, (uint64_t)r->term_signal);
	vmproto_put(out, VMPROTO_T_STDOUT, r->out.buf, r->out.len);
	vmproto_put_u64(out, VMPROTO_T_TRUNCATED, r->out_truncated);
	vmproto_put(out, VMPROTO_T_STDERR_TAIL, r->err_tail.buf,
		    r->err_tail.len);
	vmproto_put_u64(out, VMPROTO_T_ELAPSED_NS, to_ns(r->elapsed_s));
	vmproto_put_u64(out, VMPROTO_T_USER_NS, to_ns(r->user_s));
	vmproto_put_u64(out, VMPROTO_T_SYS_NS, to_ns(r->sys_s));
	vmproto_put_u64(out, VMPROTO_T_MAXRSS_KB, (uint64_t)r->maxrss_kb);
}

int vmproto_get_result(const struct vmproto_msg *msg, struct runner_result *r,
		       struct strbuf *err)
{
	uint64_t status = vmproto_get_u64(msg, VMPROTO_T_STATUS, UINT64_MAX);

	if (msg->type != VMPROTO_RESULT)
		return error_addf(err, "protocol: message %d is not a result",
				  (int)msg->type);
	if (status > RUNNER_EXEC)
		return error_addf(err, "protocol: result without a status");
	r->status = (enum runner_status)status;
	r->exit_code = (int)vmproto_get_u64(msg, VMPROTO_T_EXIT_CODE, 0);
	r->term_signal = (int)vmproto_get_u64(msg, VMPROTO_T_SIGNAL, 0);
	strbuf_reset(&r->out);
	vmproto_get_str(msg, VMPROTO_T_STDOUT, &r->out);
	r->out_truncated = vmproto_get_u64(msg, VMPROTO_T_TRUNCATED, 0) != 0;
	strbuf_reset(&r->err_tail);
	vmproto_get_str(msg, VMPROTO_T_STDERR_TAIL, &r->err_tail);
	r->elapsed_s =
		(double)vmproto_get_u64(msg, VMPROTO_T_ELAPSED_NS, 0) / 1e9;
	r->user_s = (double)vmproto_get_u64(msg, VMPROTO_T_USER_NS, 0) / 1e9;
	r->sys_s = (double)vmproto_get_u64(msg, VMPROTO_T_SYS_NS, 0) / 1e9;
	r->maxrss_kb = (int64_t)vmproto_get_u64(msg, VMPROTO_T_MAXRSS_KB, 0);
	return 0;
}

/* One line of folded stacks: "stack COUNT\n", the newline included. */
struct fold_line {
	const char *p;
	size_t len;
	uint64_t count;
};

struct fold_lines {
	struct fold_line *v;
	size_t nr, alloc;
};

/*
 * The lines of folded text of len bytes into lines, each with its count;
 * -1 with a line in err for a line that is not "STACK COUNT".
 */
static int fold_split(const char *text, size_t len, struct fold_lines *lines,
		      struct strbuf *err)
{
	struct strbuf num = STRBUF_INIT;
	const char *p = text, *end = text + len;
	int ret = -1;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *line_end = nl ? nl : end, *sp = line_end;
		struct fold_line l = {.p = p};

		while (sp > p && sp[-1] != ' ')
			sp--;
		strbuf_reset(&num);
		strbuf_add(&num, sp, (size_t)(line_end - sp));
		if (sp - 1 <= p || !parse_uint64(num.buf, &l.count)) {
			error_addf(err,
				   "protocol: profile line %zu is not "
				   "'STACK COUNT'",
				   lines->nr + 1);
			goto out;
		}
		l.len = (size_t)(line_end - p) + (nl != NULL);
		ALLOC_GROW(lines->v, lines->nr + 1, lines->alloc);
		lines->v[lines->nr++] = l;
		p = line_end + (nl != NULL);
	}
	ret = 0;
out:
	strbuf_release(&num);
	return ret;
}

/* More samples first; among equals, the earlier line (a stable order). */
static int fold_cmp(const void *a, const void *b)
{
	const struct fold_line *x = *(const struct fold_line *const *)a;
	const struct fold_line *y = *(const struct fold_line *const *)b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->p < y->p ? -1 : x->p > y->p;
}

/*
 * The lines of folded, as many of those with the most samples as fit in
 * max bytes, into out in their order; what was left out in *left_lines
 * and *left_samples, and the samples kept in *kept.
 */
static void fold_cap(const struct fold_lines *lines, size_t max,
		     struct strbuf *out, size_t *left_lines,
		     uint64_t *left_samples, uint64_t *kept)
{
	const struct fold_line **order = xcalloc(lines->nr + 1, sizeof(*order));
	bool *keep = xcalloc(lines->nr + 1, sizeof(*keep));
	size_t used = 0;

	for (size_t i = 0; i < lines->nr; i++)
		order[i] = &lines->v[i];
	qsort(order, lines->nr, sizeof(*order), fold_cmp);
	*left_lines = 0;
	*left_samples = *kept = 0;
	for (size_t i = 0; i < lines->nr; i++) {
		if (used + order[i]->len <= max) {
			used += order[i]->len;
			keep[order[i] - lines->v] = true;
		} else {
			++*left_lines;
			*left_samples += order[i]->count;
		}
	}
	for (size_t i = 0; i < lines->nr; i++) {
		if (!keep[i])
			continue;
		strbuf_add(out, lines->v[i].p, lines->v[i].len);
		*kept += lines->v[i].count;
	}
	free(order);
	free(keep);
}

void vmproto_put_profile(struct strbuf *out, const struct profile_result *p,
			 size_t max_bytes)
{
	struct fold_lines lines = {0};
	struct strbuf stacks = STRBUF_INIT, missing = STRBUF_INIT,
		      why = STRBUF_INIT;
	const char *text = p->folded ? p->folded->buf : "";
	size_t len = p->folded ? p->folded->len : 0, left_lines = 0;
	uint64_t samples = p->samples, left_samples = 0;

	vmproto_put_str(out, VMPROTO_T_PROFILE_STATUS,
			p->status ? p->status : "ok");
	if (p->missing)
		strbuf_addstr(&missing, p->missing);
	if (max_bytes && len > max_bytes &&
	    !fold_split(text, len, &lines, &why)) {
		fold_cap(&lines, max_bytes, &stacks, &left_lines, &left_samples,
			 &samples);
		text = stacks.buf;
		len = stacks.len;
		strbuf_addf(&missing,
			    "%s%zu stacks of %" PRIu64 " samples left out, "
			    "over the %zu bytes of stacks the link carries",
			    missing.len ? "; " : "", left_lines, left_samples,
			    max_bytes);
	}
	vmproto_put(out, VMPROTO_T_PROFILE_STACKS, text, len);
	vmproto_put_u64(out, VMPROTO_T_PROFILE_SAMPLES, samples);
	vmproto_put_u64(out, VMPROTO_T_PROFILE_LOST, p->lost);
	if (missing.len)
		vmproto_put(out, VMPROTO_T_PROFILE_MISSING, missing.buf,
			    missing.len);
	free(lines.v);
	strbuf_release(&stacks);
	strbuf_release(&missing);
	strbuf_release(&why);
}

/* The status names profile.h gives, the only ones accepted. */
static bool profile_status_known(const char *s)
{
	static const char *const names[] = {"ok", "exit", "signal", "timeout",
					    "interrupted"};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(s, names[i]))
			return true;
	return false;
}

int vmproto_get_profile(const struct vmproto_msg *msg, struct profile_result *p,
			struct strbuf *err)
{
	const struct vmproto_field *stacks =
		vmproto_get(msg, VMPROTO_T_PROFILE_STACKS);
	struct fold_lines lines = {0};
	struct strbuf status = STRBUF_INIT, missing = STRBUF_INIT,
		      why = STRBUF_INIT;
	uint64_t sum = 0, samples;
	int ret = -1;

	profile_result_release(p);
	if (vmproto_get_str(msg, VMPROTO_T_PROFILE_ERR, &why)) {
		error_addf(err, "in the guest: %s", why.buf);
		goto out;
	}
	if (!vmproto_get_str(msg, VMPROTO_T_PROFILE_STATUS, &status) ||
	    !stacks) {
		error_addf(err, "protocol: the agent sent no profile");
		goto out;
	}
	if (!profile_status_known(status.buf)) {
		error_addf(err, "protocol: unknown profile status '%s'",
			   status.buf);
		goto out;
	}
	if (fold_split((const char *)stacks->data, stacks->len, &lines, err))
		goto out;
	for (size_t i = 0; i < lines.nr; i++)
		sum += lines.v[i].count;
	samples = vmproto_get_u64(msg, VMPROTO_T_PROFILE_SAMPLES, UINT64_MAX);
	if (sum != samples) {
		error_addf(err,
			   "protocol: profile stacks of %" PRIu64
			   " samples, not the %" PRIu64 " announced",
			   sum, samples);
		goto out;
	}
	p->status = strbuf_detach(&status, NULL);
	p->folded = xcalloc(1, sizeof(*p->folded));
	strbuf_init(p->folded, stacks->len);
	strbuf_add(p->folded, stacks->data, stacks->len);
	p->samples = samples;
	p->lost = vmproto_get_u64(msg, VMPROTO_T_PROFILE_LOST, 0);
	if (vmproto_get_str(msg, VMPROTO_T_PROFILE_MISSING, &missing))
		p->missing = strbuf_detach(&missing, NULL);
	ret = 0;
out:
	free(lines.v);
	strbuf_release(&status);
	strbuf_release(&missing);
	strbuf_release(&why);
	return ret;
}
