/*
 * Unit tests for vmproto: CRC-32 check values (zlib's crc32() agrees),
 * a request and a result round trip, and every truncation and every
 * single-byte corruption of a frame, none of which may decode.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "runner.h"
#include "util.h"
#include "vmproto.h"

static const struct {
	const char *in;
	uint32_t want;
} crc_cases[] = {
	{"", 0x00000000U},
	{"a", 0xe8b7be43U},
	{"123456789", 0xcbf43926U},
	{"The quick brown fox jumps over the lazy dog", 0x414fa339U},
};

/* A request frame with binary-unsafe bytes in its fields. */
static void sample_frame(struct strbuf *out)
{
	static const char bin[] = {'\0', '\n', '\r', 0x11, 0x13, 'M', 'M'};
	size_t start = vmproto_begin(out, VMPROTO_REQUEST);

	vmproto_put_str(out, VMPROTO_T_ARGV, "/bin/echo");
	vmproto_put(out, VMPROTO_T_ARGV, bin, sizeof(bin));
	vmproto_put_str(out, VMPROTO_T_ENV, "PATH=/bin");
	vmproto_put_u64(out, VMPROTO_T_TIMEOUT_MS, 1500);
	vmproto_put(out, VMPROTO_T_CWD, "", 0);
	vmproto_end(out, start);
}

static void test_round_trip(void)
{
	struct strbuf f = STRBUF_INIT, err = STRBUF_INIT, s = STRBUF_INIT;
	struct vmproto_msg msg = VMPROTO_MSG_INIT;
	size_t used;
	int r;

	sample_frame(&f);
	strbuf_addstr(&f, "trailing");
	r = vmproto_frame_parse((const uint8_t *)f.buf, f.len, &used, &msg,
				&err);
	ok(r == VMPROTO_FRAME && used == f.len - 8,
	   "a frame parses and says its size (%d, %zu)", r, used);
	ok(msg.type == VMPROTO_REQUEST && msg.nr == 5, "type and 5 fields");
	ok(msg.nr == 5 && msg.fields[1].len == 7 &&
		   !memcmp(msg.fields[1].data, "\0\n\r\x11\x13MM", 7),
	   "a binary field comes back byte for byte");
	ok(vmproto_get_u64(&msg, VMPROTO_T_TIMEOUT_MS, 0) == 1500, "u64 field");
	ok(vmproto_get_str(&msg, VMPROTO_T_CWD, &s) && !s.len,
	   "an empty field is present");
	ok(!vmproto_get(&msg, VMPROTO_T_MONITOR), "an absent tag is NULL");
	strbuf_release(&f);
	strbuf_release(&err);
	strbuf_release(&s);
	vmproto_msg_release(&msg);
}

static void test_result(void)
{
	struct runner_result a = RUNNER_RESULT_INIT, b = RUNNER_RESULT_INIT;
	struct strbuf f = STRBUF_INIT, err = STRBUF_INIT;
	struct vmproto_msg msg = VMPROTO_MSG_INIT;
	size_t start, used;
	int r;

	a.status = RUNNER_SIGNAL;
	a.term_signal = 9;
	a.elapsed_s = 1.25;
	a.user_s = 0.5;
	a.sys_s = 0.125;
	a.maxrss_kb = 4096;
	a.out_truncated = true;
	strbuf_addstr(&a.out, "ops 12\n");
	strbuf_addstr(&a.err_tail, "killed");
	start = vmproto_begin(&f, VMPROTO_RESULT);
	vmproto_put_result(&f, &a);
	vmproto_end(&f, start);
	r = vmproto_frame_parse((const uint8_t *)f.buf, f.len, &used, &msg,
				&err) == VMPROTO_FRAME &&
	    !vmproto_get_result(&msg, &b, &err);
	ok(r, "a result decodes: %s", err.buf);
	ok(b.status == RUNNER_SIGNAL && b.term_signal == 9 &&
		   b.elapsed_s == 1.25 && b.user_s == 0.5 && b.sys_s == 0.125 &&
		   b.maxrss_kb == 4096 && b.out_truncated,
	   "result numbers survive");
	is_str(b.out.buf, "ops 12\n", "result stdout");
	is_str(b.err_tail.buf, "killed", "result stderr tail");
	/* A request is no result. */
	strbuf_reset(&f);
	sample_frame(&f);
	vmproto_frame_parse((const uint8_t *)f.buf, f.len, &used, &msg, &err);
	strbuf_reset(&err);
	r = vmproto_get_result(&msg, &b, &err);
	ok(r == -1 && strstr(err.buf, "not a result"),
	   "a request is refused as a result: %s", err.buf);
	runner_result_release(&a);
	runner_result_release(&b);
	strbuf_release(&f);
	strbuf_release(&err);
	vmproto_msg_release(&msg);
}

/* Every prefix of a frame needs more; no single-byte change decodes. */
static void test_damage(void)
{
	struct strbuf f = STRBUF_INIT, err = STRBUF_INIT;
	struct vmproto_msg msg = VMPROTO_MSG_INIT;
	bool trunc_ok = true, flip_ok = true;
	size_t used, bad = 0;

	sample_frame(&f);
	for (size_t n = 0; n < f.len; n++)
		if (vmproto_frame_parse((const uint8_t *)f.buf, n, &used, &msg,
					&err) != VMPROTO_NEED_MORE)
			trunc_ok = false;
	ok(trunc_ok, "all %zu truncations wait for more", f.len);
	for (size_t i = 0; i < f.len; i++) {
		for (int bit = 0; bit < 8; bit++) {
			int r;

			f.buf[i] = (char)(f.buf[i] ^ (1 << bit));
			r = vmproto_frame_parse((const uint8_t *)f.buf, f.len,
						&used, &msg, &err);
			if (r == VMPROTO_FRAME || (r == VMPROTO_BAD && !used))
				flip_ok = false;
			bad += r == VMPROTO_BAD;
			f.buf[i] = (char)(f.buf[i] ^ (1 << bit));
		}
	}
	ok(flip_ok && bad > 0, "no bit flip of %zu decodes (%zu refused)",
	   f.len * 8, bad);
	/* Garbage before a frame is skipped up to the next magic. */
	strbuf_reset(&f);
	strbuf_addstr(&f, "[  1.0] kernel noise M");
	sample_frame(&f);
	{
		size_t off = 0;
		int r;

		strbuf_reset(&err);
		while ((r = vmproto_frame_parse((const uint8_t *)f.buf + off,
						f.len - off, &used, &msg,
						&err)) == VMPROTO_BAD)
			off += used;
		ok(r == VMPROTO_FRAME && off + used == f.len,
		   "resynchronised after noise at %zu", off);
		ok(strstr(err.buf, "not a frame") != NULL,
		   "the noise is reported: %s", err.buf);
	}
	strbuf_release(&f);
	strbuf_release(&err);
	vmproto_msg_release(&msg);
}

/* A field whose length runs past the end of its (checksummed) frame. */
static void test_overrun(void)
{
	struct strbuf f = STRBUF_INIT, err = STRBUF_INIT;
	struct vmproto_msg msg = VMPROTO_MSG_INIT;
	size_t start = vmproto_begin(&f, VMPROTO_RESULT), used;
	static const uint8_t lie[6] = {20, 0, 0xff, 0, 0, 0};
	int r;

	strbuf_add(&f, lie, sizeof(lie));
	vmproto_end(&f, start);
	r = vmproto_frame_parse((const uint8_t *)f.buf, f.len, &used, &msg,
				&err);
	ok(r == VMPROTO_BAD && used == f.len && strstr(err.buf, "overruns"),
	   "an overrunning field is refused: %s", err.buf);
	strbuf_release(&f);
	strbuf_release(&err);
	vmproto_msg_release(&msg);
}

/*
 * A checksummed frame whose reserved u16 is not 0, or whose type is none
 * of enum vmproto_type, is refused whole (it would not rebuild to its
 * bytes); the frame after it still parses.
 */
static void test_header_fields(void)
{
	static const struct {
		unsigned type, reserved;
		const char *want;
	} cases[] = {
		{VMPROTO_RESULT, 0x1234, "reserved header field is 4660"},
		{VMPROTO_RESULT, 8, "reserved header field is 8"},
		{0, 0, "unknown frame type 0"},
		{VMPROTO_POWEROFF + 1, 0, "unknown frame type 5"},
		{0xff, 0, "unknown frame type 255"},
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct strbuf f = STRBUF_INIT, err = STRBUF_INIT;
		struct vmproto_msg msg = VMPROTO_MSG_INIT;
		size_t start = vmproto_begin(&f, VMPROTO_RESULT), used, first;
		uint32_t crc;
		int r, r2;

		vmproto_end(&f, start);
		/* Rewrite the header, then the checksum over it. */
		f.buf[5] = (char)cases[i].type;
		f.buf[6] = (char)(cases[i].reserved & 0xff);
		f.buf[7] = (char)(cases[i].reserved >> 8);
		crc = vmproto_crc32(0, (const uint8_t *)f.buf, f.len - 4);
		for (int b = 0; b < 4; b++)
			f.buf[f.len - 4 + (size_t)b] = (char)(crc >> (8 * b));
		first = f.len;
		start = vmproto_begin(&f, VMPROTO_POWEROFF);
		vmproto_end(&f, start);
		r = vmproto_frame_parse((const uint8_t *)f.buf, f.len, &used,
					&msg, &err);
		ok(r == VMPROTO_BAD && used == first &&
			   strstr(err.buf, cases[i].want),
		   "header case %zu refused whole: %s", i, err.buf);
		r2 = vmproto_frame_parse((const uint8_t *)f.buf + used,
					 f.len - used, &used, &msg, &err);
		ok(r2 == VMPROTO_FRAME && msg.type == VMPROTO_POWEROFF,
		   "header case %zu: the next frame parses", i);
		strbuf_release(&f);
		strbuf_release(&err);
		vmproto_msg_release(&msg);
	}
}

int main(void)
{
	plan((int)ARRAY_SIZE(crc_cases) + 16 + 10);
	for (size_t i = 0; i < ARRAY_SIZE(crc_cases); i++) {
		uint32_t got = vmproto_crc32(0, crc_cases[i].in,
					     strlen(crc_cases[i].in));

		ok(got == crc_cases[i].want, "crc32 case %zu: %08x", i, got);
	}
	test_round_trip();
	test_result();
	test_damage();
	test_overrun();
	test_header_fields();
	return tap_failed ? 1 : 0;
}
