/*
 * Unit tests for vmproto: CRC-32 check values (zlib's crc32() agrees),
 * a request and a result round trip, every truncation and every
 * single-byte corruption of a frame, none of which may decode, and a
 * host's wait for one answer among noise, stale results and false
 * headers; a profile's fields, capped to the stacks with the most
 * samples, and the answers a host refuses as a profile; the packed
 * names of the snapshot lines.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "profile.h"
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
	size_t start = vmproto_begin(out, VMPROTO_REQUEST, 7);

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
	ok(msg.type == VMPROTO_REQUEST && msg.seq == 7 && msg.nr == 5,
	   "type, number and 5 fields");
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
	start = vmproto_begin(&f, VMPROTO_RESULT, 7);
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
	size_t start = vmproto_begin(&f, VMPROTO_RESULT, 1), used;
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

/* Write a frame's checksums again after its bytes were changed. */
static void fix_crcs(struct strbuf *f)
{
	uint32_t crc = vmproto_crc32(0, f->buf, 16);

	for (int b = 0; b < 4; b++)
		f->buf[16 + b] = (char)(crc >> (8 * b));
	crc = vmproto_crc32(0, f->buf, f->len - 4);
	for (int b = 0; b < 4; b++)
		f->buf[f->len - 4 + (size_t)b] = (char)(crc >> (8 * b));
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
		size_t start = vmproto_begin(&f, VMPROTO_RESULT, 1), used,
		       first;
		int r, r2;

		vmproto_end(&f, start);
		/* Rewrite the header, then the checksums over it. */
		f.buf[5] = (char)cases[i].type;
		f.buf[6] = (char)(cases[i].reserved & 0xff);
		f.buf[7] = (char)(cases[i].reserved >> 8);
		fix_crcs(&f);
		first = f.len;
		start = vmproto_begin(&f, VMPROTO_POWEROFF, 0);
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

enum piece { P_END, P_NOISE, P_RESULT, P_REQUEST, P_HELLO, P_FAKE, P_HALF };

/*
 * What a host waiting for one frame reads (pieces in order), and what
 * vmproto_await() must make of it: the frame asked for and no other,
 * what it skipped, or the agent's word that a request was lost.
 */
static const struct {
	const char *name;
	struct {
		enum piece kind;
		uint32_t seq;
		const char *text; /* noise, or a result's stdout */
	} in[4];
	enum vmproto_type type;
	uint32_t seq;
	int want; /* enum vmproto_await */
	const char *want_out;
	size_t bytes, frames;
	const char *want_why; /* in the first skipped, or in err */
} await_cases[] = {
	{"two stray bytes before the result",
	 {{P_NOISE, 0, "xx"}, {P_RESULT, 1, "total:1"}},
	 VMPROTO_RESULT,
	 1,
	 VMPROTO_AWAIT_FRAME,
	 "total:1",
	 2,
	 0,
	 "2 bytes that are not a frame"},
	{"the result of an earlier request is dropped",
	 {{P_RESULT, 1, "total:1"}, {P_RESULT, 2, "total:2"}},
	 VMPROTO_RESULT,
	 2,
	 VMPROTO_AWAIT_FRAME,
	 "total:2",
	 0,
	 1,
	 "a frame of type 3 numbered 1, not the answer to 2"},
	{"a false header claiming 256 MiB waits for nothing",
	 {{P_FAKE, 0, NULL}, {P_RESULT, 3, "total:3"}},
	 VMPROTO_RESULT,
	 3,
	 VMPROTO_AWAIT_FRAME,
	 "total:3",
	 20,
	 0,
	 "header checksum mismatch"},
	{"a magic, a stale result, half the answer",
	 {{P_NOISE, 0, "MMVP"}, {P_RESULT, 3, "old"}, {P_HALF, 4, "total:4"}},
	 VMPROTO_RESULT,
	 4,
	 VMPROTO_AWAIT_MORE,
	 NULL,
	 4,
	 1,
	 "version 77, not 2"},
	{"the agent could not read the request",
	 {{P_RESULT, 0, "unread"}, {P_RESULT, 5, "total:5"}},
	 VMPROTO_RESULT,
	 5,
	 VMPROTO_AWAIT_LOST,
	 NULL,
	 0,
	 0,
	 "could not read the frame of request 5 (agent: unread)"},
	{"a request sent back is no answer",
	 {{P_REQUEST, 6, NULL}, {P_RESULT, 6, "x"}},
	 VMPROTO_RESULT,
	 6,
	 VMPROTO_AWAIT_FRAME,
	 "x",
	 0,
	 1,
	 "a frame of type 2 numbered 6"},
	{"the hello after the kernel's noise",
	 {{P_NOISE, 0, "[ 0.1] noise\n"}, {P_HELLO, 0, NULL}},
	 VMPROTO_HELLO,
	 0,
	 VMPROTO_AWAIT_FRAME,
	 NULL,
	 13,
	 0,
	 "not a frame"},
};

/* One piece of an await case appended to in. */
static void add_piece(struct strbuf *in, enum piece kind, uint32_t seq,
		      const char *text)
{
	struct runner_result r = RUNNER_RESULT_INIT;
	size_t start = in->len;

	switch (kind) {
	case P_NOISE:
		strbuf_addstr(in, text);
		break;
	case P_FAKE:
		/* Version 2, RESULT, a length of 256 MiB, no header CRC. */
		strbuf_add(in, "MMVP\x02\x03\0\0\0\0\0\x10garbage!", 20);
		break;
	case P_RESULT:
	case P_HALF:
		r.status = RUNNER_OK;
		strbuf_addstr(&r.out, text);
		if (seq == 0)
			strbuf_addf(&r.err_tail, "agent: %s", text);
		start = vmproto_begin(in, VMPROTO_RESULT, seq);
		vmproto_put_result(in, &r);
		vmproto_end(in, start);
		if (kind == P_HALF)
			strbuf_setlen(in, start + (in->len - start) / 2);
		break;
	case P_REQUEST:
	case P_HELLO:
		start = vmproto_begin(
			in, kind == P_HELLO ? VMPROTO_HELLO : VMPROTO_REQUEST,
			seq);
		vmproto_put_str(in, VMPROTO_T_ARGV, "true");
		vmproto_end(in, start);
		break;
	case P_END:
		break;
	}
	runner_result_release(&r);
}

static void test_await(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(await_cases); i++) {
		struct strbuf in = STRBUF_INIT, err = STRBUF_INIT,
			      out = STRBUF_INIT;
		struct vmproto_msg msg = VMPROTO_MSG_INIT;
		struct vmproto_skipped sk = VMPROTO_SKIPPED_INIT;
		size_t used = 0, len;
		int r;
		bool frame_ok = true;

		for (size_t p = 0; p < 4 && await_cases[i].in[p].kind; p++)
			add_piece(&in, await_cases[i].in[p].kind,
				  await_cases[i].in[p].seq,
				  await_cases[i].in[p].text);
		len = in.len;
		r = vmproto_await(&in, await_cases[i].type, await_cases[i].seq,
				  &msg, &used, &sk, &err);
		if (r == VMPROTO_AWAIT_FRAME) {
			vmproto_get_str(&msg, VMPROTO_T_STDOUT, &out);
			frame_ok = msg.type == await_cases[i].type &&
				   msg.seq == await_cases[i].seq &&
				   used == in.len &&
				   !strcmp(out.buf,
					   await_cases[i].want_out
						   ? await_cases[i].want_out
						   : "");
		} else if (r == VMPROTO_AWAIT_MORE) {
			frame_ok = used > in.len && in.len < len;
		}
		ok(r == await_cases[i].want && frame_ok,
		   "await case %zu (%s): %d, the frame asked for", i,
		   await_cases[i].name, r);
		ok(sk.bytes == await_cases[i].bytes &&
			   sk.frames == await_cases[i].frames &&
			   strstr(r == VMPROTO_AWAIT_LOST ? err.buf
							  : sk.first.buf,
				  await_cases[i].want_why),
		   "await case %zu: skipped %zu bytes, %zu frames: %s%s", i,
		   sk.bytes, sk.frames, sk.first.buf, err.buf);
		strbuf_release(&in);
		strbuf_release(&err);
		strbuf_release(&out);
		vmproto_skipped_release(&sk);
		vmproto_msg_release(&msg);
	}
}

/*
 * Profiles through a RESULT frame: put with a cap of max bytes (0: none),
 * what the host gets back. "m;a 5\n" is 6 bytes, "m;b 3\n" and "m;c 1\n"
 * too: a cap of 12 keeps the two with the most samples, in their order.
 */
static const struct {
	const char *folded;
	uint64_t samples;
	size_t max;
	const char *want, *missing; /* missing: a part of it, or NULL */
	uint64_t want_samples;
} profile_cases[] = {
	{"m;a 5\nm;b 3\nm;c 1\n", 9, 0, "m;a 5\nm;b 3\nm;c 1\n", NULL, 9},
	{"m;a 5\nm;b 3\nm;c 1\n", 9, 18, "m;a 5\nm;b 3\nm;c 1\n", NULL, 9},
	{"m;c 1\nm;a 5\nm;b 3\n", 9, 12, "m;a 5\nm;b 3\n",
	 "1 stacks of 1 samples left out", 8},
	{"m;c 1\nm;a 5\nm;b 3\n", 9, 17, "m;a 5\nm;b 3\n",
	 "1 stacks of 1 samples left out", 8},
	{"m;a 5\nm;b 3\nm;c 1\n", 9, 5, "", "3 stacks of 9 samples", 0},
	{"", 0, 4, "", NULL, 0},
};

static void test_profile(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(profile_cases); i++) {
		static char status[] = "ok";
		struct strbuf folded = STRBUF_INIT, f = STRBUF_INIT,
			      err = STRBUF_INIT;
		struct profile_result p = PROFILE_RESULT_INIT,
				      got = PROFILE_RESULT_INIT;
		struct vmproto_msg msg = VMPROTO_MSG_INIT;
		size_t start = vmproto_begin(&f, VMPROTO_RESULT, 3), used;
		bool good;

		strbuf_addstr(&folded, profile_cases[i].folded);
		p.status = status;
		p.folded = &folded;
		p.samples = profile_cases[i].samples;
		p.lost = 2;
		vmproto_put_profile(&f, &p, profile_cases[i].max);
		vmproto_end(&f, start);
		good = vmproto_frame_parse((const uint8_t *)f.buf, f.len, &used,
					   &msg, &err) == VMPROTO_FRAME &&
		       !vmproto_get_profile(&msg, &got, &err);
		ok(good && !strcmp(got.status, "ok") &&
			   !strcmp(got.folded->buf, profile_cases[i].want) &&
			   got.samples == profile_cases[i].want_samples &&
			   got.lost == 2 &&
			   (profile_cases[i].missing
				    ? got.missing &&
					      strstr(got.missing,
						     profile_cases[i].missing)
				    : !got.missing),
		   "profile case %zu: %s", i,
		   good ? (got.missing ? got.missing : "all sent") : err.buf);
		profile_result_release(&got);
		vmproto_msg_release(&msg);
		strbuf_release(&folded);
		strbuf_release(&f);
		strbuf_release(&err);
	}
}

/* RESULT frames that are no profile, and what the host says of them. */
static const struct {
	const char *status, *stacks, *agent_err;
	uint64_t samples;
	const char *want;
} bad_profile_cases[] = {
	{NULL, NULL, NULL, 0, "the agent sent no profile"},
	{"ok", NULL, NULL, 0, "the agent sent no profile"},
	{"maybe", "m 1\n", NULL, 1, "unknown profile status 'maybe'"},
	{"ok", "m 1\nm;a 2\n", NULL, 4, "of 3 samples, not the 4 announced"},
	{"ok", "m 1\nm;a\n", NULL, 3, "profile line 2 is not 'STACK COUNT'"},
	{"ok", "m 1\n 2\n", NULL, 3, "profile line 2 is not"},
	{"ok", "m 1\n\n", NULL, 1, "profile line 2 is not"},
	{"ok", "m -1\n", NULL, 1, "profile line 1 is not"},
	{NULL, NULL, "cannot profile: perf_event_open: ENOSYS", 0,
	 "in the guest: cannot profile: perf_event_open: ENOSYS"},
};

static void test_bad_profile(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(bad_profile_cases); i++) {
		struct strbuf f = STRBUF_INIT, err = STRBUF_INIT;
		struct profile_result got = PROFILE_RESULT_INIT;
		struct vmproto_msg msg = VMPROTO_MSG_INIT;
		size_t start = vmproto_begin(&f, VMPROTO_RESULT, 3), used;
		int ret = 0;

		if (bad_profile_cases[i].status)
			vmproto_put_str(&f, VMPROTO_T_PROFILE_STATUS,
					bad_profile_cases[i].status);
		if (bad_profile_cases[i].stacks)
			vmproto_put_str(&f, VMPROTO_T_PROFILE_STACKS,
					bad_profile_cases[i].stacks);
		if (bad_profile_cases[i].agent_err)
			vmproto_put_str(&f, VMPROTO_T_PROFILE_ERR,
					bad_profile_cases[i].agent_err);
		vmproto_put_u64(&f, VMPROTO_T_PROFILE_SAMPLES,
				bad_profile_cases[i].samples);
		vmproto_end(&f, start);
		if (vmproto_frame_parse((const uint8_t *)f.buf, f.len, &used,
					&msg, &err) == VMPROTO_FRAME)
			ret = vmproto_get_profile(&msg, &got, &err);
		ok(ret == -1 && strstr(err.buf, bad_profile_cases[i].want) &&
			   !got.folded && !got.status,
		   "bad profile case %zu: %s", i, err.buf);
		profile_result_release(&got);
		vmproto_msg_release(&msg);
		strbuf_release(&f);
		strbuf_release(&err);
	}
}

/* Snapshot lines of iteration it: some names keep their values. */
static void names_text(struct strbuf *out, int it, bool after)
{
	static const char *const names[] = {
		"MemTotal",	 "MemFree", "Active(anon)",
		"=odd",		 "12",	    "a b",
		"nr_free_pages", "pgfault", "HugePages_Total",
		"DirectMap4k",
	};

	strbuf_reset(out);
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		/* Even ones stand still; after names only what moved. */
		bool moves = i % 2;

		if (after && !moves)
			continue;
		/* Large values that move a little: as differences. */
		strbuf_addf(out, "%s %d\n", names[i],
			    !moves   ? (int)i
			    : i == 1 ? 500000 - 37 * it - after
				     : 1000000 + 1000 * it + (int)i + after);
	}
	/* Values that are no number, or jump: whole. */
	strbuf_addf(out, "jump %d\nword w%d\n", (it + after) % 2 ? 7 : 9876543,
		    2 * it + after);
}

/*
 * vmproto_names: the agent's packed lines, unpacked by the host in the
 * same order, are the lines it packed; names go once, unchanged values
 * as a number alone; what the host cannot have been sent is refused.
 */
static void test_names(void)
{
	struct vmproto_names agent = VMPROTO_NAMES_INIT,
			     host = VMPROTO_NAMES_INIT,
			     fresh = VMPROTO_NAMES_INIT;
	struct strbuf text = STRBUF_INIT, packed = STRBUF_INIT,
		      back = STRBUF_INIT, err = STRBUF_INIT;
	bool same = true, bare = false;
	size_t first = 0, later = 0;
	int refused;

	for (int it = 0; it < 4; it++) {
		for (int after = 0; after < 2; after++) {
			names_text(&text, it, after);
			strbuf_reset(&packed);
			strbuf_reset(&back);
			vmproto_names_pack(&agent, text.buf, text.len, &packed);
			same &= !vmproto_names_unpack(&host, packed.buf,
						      packed.len, &back,
						      &err) &&
				back.len == text.len &&
				!memcmp(back.buf, text.buf, text.len);
			if (!after && !it)
				first = packed.len;
			if (!after && it == 3) {
				later = packed.len;
				bare = strstr(packed.buf, "\n0\n") ||
				       !strncmp(packed.buf, "0\n", 2);
			}
		}
	}
	ok(same, "four iterations' snapshots unpack to the lines packed%s%s",
	   err.len ? ": " : "", err.buf);
	ok(later * 2 < first && bare,
	   "a later snapshot packs to %zu bytes against the first's %zu, "
	   "a value that stood still to its number alone",
	   later, first);
	strbuf_reset(&err);
	strbuf_reset(&back);
	refused = vmproto_names_unpack(&fresh, "0 5\n", 4, &back, &err);
	ok(refused && strstr(err.buf, "line 1 names no name sent before"),
	   "a number the host was not sent is refused: %s", err.buf);
	strbuf_reset(&err);
	refused = vmproto_names_unpack(&fresh, "=a 1\n=novalue\n", 14, &back,
				       &err);
	ok(refused && strstr(err.buf, "line 2 has no value"),
	   "a name without a value is refused: %s", err.buf);
	strbuf_reset(&err);
	strbuf_reset(&back);
	refused =
		vmproto_names_unpack(&fresh, "0+5\n0\n0-6\n", 10, &back, &err);
	ok(!refused && !strcmp(back.buf, "a 6\na 6\na 0\n"),
	   "a difference moves the last value, up or down");
	strbuf_reset(&err);
	refused = vmproto_names_unpack(&fresh, "0-1\n", 4, &back, &err) &&
		  vmproto_names_unpack(&fresh, "0+01\n", 5, &back, &err);
	ok(refused && strstr(err.buf, "is no difference from a number"),
	   "below zero, or not as printed, it is refused: %s", err.buf);
	strbuf_reset(&err);
	ok(vmproto_names_unpack(&fresh, "0x 1\n", 5, &back, &err) &&
		   vmproto_names_unpack(&fresh, "1\n", 2, &back, &err) &&
		   !vmproto_names_unpack(&fresh, "0\n", 2, &back, &err),
	   "so is a line that is no number, or one past those sent");
	/* A host that missed the frame naming them cannot go on. */
	names_text(&text, 0, false);
	strbuf_reset(&packed);
	vmproto_names_pack(&agent, text.buf, text.len, &packed);
	vmproto_names_release(&fresh);
	fresh = (struct vmproto_names)VMPROTO_NAMES_INIT;
	strbuf_reset(&err);
	ok(vmproto_names_unpack(&fresh, packed.buf, packed.len, &back, &err),
	   "a host that missed the names refuses what follows, rather than "
	   "name it wrongly");
	/* Names whose values stood still, in a row: one line. */
	vmproto_names_release(&agent);
	vmproto_names_release(&host);
	agent = (struct vmproto_names)VMPROTO_NAMES_INIT;
	host = (struct vmproto_names)VMPROTO_NAMES_INIT;
	same = true;
	for (int i = 0; i < 2; i++) {
		strbuf_reset(&packed);
		strbuf_reset(&back);
		vmproto_names_pack(&agent, "a 1\nb 2\nc 3\nd 4\n", 16, &packed);
		same &= !vmproto_names_unpack(&host, packed.buf, packed.len,
					      &back, &err) &&
			!strcmp(back.buf, "a 1\nb 2\nc 3\nd 4\n");
	}
	ok(same && !strcmp(packed.buf, "0:3\n"),
	   "a run of values that stood still packs to one line: %s",
	   packed.buf);
	strbuf_reset(&err);
	refused = vmproto_names_unpack(&host, "1:4\n", 4, &back, &err) &&
		  vmproto_names_unpack(&host, "2:1\n", 4, &back, &err) &&
		  vmproto_names_unpack(&host, "1:\n", 3, &back, &err);
	ok(refused && strstr(err.buf, "is no run of names sent before"),
	   "a run past the names sent, backwards or unended is refused");
	vmproto_names_release(&agent);
	vmproto_names_release(&host);
	vmproto_names_release(&fresh);
	strbuf_release(&text);
	strbuf_release(&packed);
	strbuf_release(&back);
	strbuf_release(&err);
}

int main(void)
{
	plan((int)ARRAY_SIZE(crc_cases) + 16 + 10 + 10 +
	     2 * (int)ARRAY_SIZE(await_cases) + (int)ARRAY_SIZE(profile_cases) +
	     (int)ARRAY_SIZE(bad_profile_cases));
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
	test_await();
	test_profile();
	test_bad_profile();
	test_names();
	return tap_failed ? 1 : 0;
}
