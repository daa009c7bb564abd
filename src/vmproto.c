/* vmproto: framed, checksummed messages between host and guest agent. */
#include "vmproto.h"

#include <string.h>

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

size_t vmproto_begin(struct strbuf *out, enum vmproto_type type)
{
	size_t start = out->len;
	uint8_t h[VMPROTO_HEADER] = {0};

	memcpy(h, magic, sizeof(magic));
	h[4] = VMPROTO_VERSION;
	h[5] = (uint8_t)type;
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

enum vmproto_parse vmproto_frame_parse(const uint8_t *buf, size_t len,
				       size_t *used, struct vmproto_msg *msg,
				       struct strbuf *err)
{
	uint32_t plen, crc;
	size_t n = len < sizeof(magic) ? len : sizeof(magic);
	const uint8_t *p, *end;

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
	if (buf[4] != VMPROTO_VERSION) {
		*used = skip_to_magic(buf, len);
		error_addf(err, "protocol: version %u, not %u", buf[4],
			   VMPROTO_VERSION);
		return VMPROTO_BAD;
	}
	plen = (uint32_t)get_le(buf + 8, 4);
	if (plen > VMPROTO_MAX_PAYLOAD) {
		*used = skip_to_magic(buf, len);
		error_addf(err, "protocol: frame of %u bytes is too large",
			   plen);
		return VMPROTO_BAD;
	}
	if (len - VMPROTO_HEADER < (size_t)plen + 4)
		return VMPROTO_NEED_MORE;
	crc = (uint32_t)get_le(buf + VMPROTO_HEADER + plen, 4);
	if (crc != vmproto_crc32(0, buf, VMPROTO_HEADER + (size_t)plen)) {
		*used = skip_to_magic(buf, len);
		error_addf(err, "protocol: frame checksum mismatch");
		return VMPROTO_BAD;
	}
	/*
	 * A checksummed frame with a reserved field that is not 0 or a type
	 * no version-1 peer sends is skipped whole: accepted, it would not
	 * be the frame its fields build again.
	 */
	if (get_le(buf + 6, 2) != 0 || buf[5] < VMPROTO_HELLO ||
	    buf[5] > VMPROTO_POWEROFF) {
		*used = VMPROTO_HEADER + (size_t)plen + 4;
		if (get_le(buf + 6, 2) != 0)
			error_addf(
				err,
				"protocol: reserved header field is %u, not 0",
				(unsigned)get_le(buf + 6, 2));
		else
			error_addf(err, "protocol: unknown frame type %u",
				   buf[5]);
		return VMPROTO_BAD;
	}
	p = buf + VMPROTO_HEADER;
	end = p + plen;
	while (p < end) {
		struct vmproto_field f;

		if (end - p < 6) {
			*used = VMPROTO_HEADER + (size_t)plen + 4;
			error_addf(err, "protocol: truncated field header");
			return VMPROTO_BAD;
		}
		f.tag = (uint16_t)get_le(p, 2);
		f.len = (uint32_t)get_le(p + 2, 4);
		p += 6;
		if ((size_t)(end - p) < f.len) {
			*used = VMPROTO_HEADER + (size_t)plen + 4;
			error_addf(err, "protocol: field %u overruns its frame",
				   f.tag);
			return VMPROTO_BAD;
		}
		f.data = p;
		p += f.len;
		ALLOC_GROW(msg->fields, msg->nr + 1, msg->alloc);
		msg->fields[msg->nr++] = f;
	}
	msg->type = (enum vmproto_type)buf[5];
	*used = VMPROTO_HEADER + (size_t)plen + 4;
	return VMPROTO_FRAME;
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
