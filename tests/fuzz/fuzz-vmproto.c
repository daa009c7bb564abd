/*
 * Fuzz target: the host-guest frame parser. Fed any bytes as a stream, it
 * must either wait for more, refuse with a message and a way forward, or
 * return a frame that, built again from its fields, gives the same bytes.
 * A host waiting for results 1, 2, ... in the same bytes is given each
 * numbered as asked and nothing else, and always makes progress. The
 * bytes as snapshot lines, packed in two parts with the boot's names
 * and unpacked in the same order, come back as they were, or are
 * refused when a line has no "name value" form or a NUL; as packed
 * lines, they unpack or are refused with a message.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz.h"
#include "runner.h"
#include "strbuf.h"
#include "vmproto.h"

/* The stream as a host awaiting results 1, 2, ... reads it. */
static void await_results(const uint8_t *data, size_t size)
{
	struct strbuf in = STRBUF_INIT, err = STRBUF_INIT;
	struct vmproto_msg msg = VMPROTO_MSG_INIT;
	struct vmproto_skipped sk = VMPROTO_SKIPPED_INIT;
	uint32_t seq = 1;

	strbuf_add(&in, data, size);
	for (;;) {
		size_t used = 0, before = in.len;
		enum vmproto_await a;

		strbuf_reset(&err);
		a = vmproto_await(&in, VMPROTO_RESULT, seq, &msg, &used, &sk,
				  &err);
		if (a == VMPROTO_AWAIT_MORE)
			break;
		if (a == VMPROTO_AWAIT_LOST) {
			fuzz_check_error(err.buf, "protocol: ");
			fuzz_assert(in.len < before,
				    "a loss that drops nothing", err.buf);
			continue;
		}
		fuzz_assert(msg.type == VMPROTO_RESULT && msg.seq == seq &&
				    used > 0 && used <= in.len,
			    "an answer that was not asked for", NULL);
		memmove(in.buf, in.buf + used, in.len - used);
		strbuf_setlen(&in, in.len - used);
		seq++;
	}
	if (sk.bytes || sk.frames)
		fuzz_check_error(sk.first.buf, "protocol: ");
	vmproto_skipped_release(&sk);
	vmproto_msg_release(&msg);
	strbuf_release(&in);
	strbuf_release(&err);
}

/* Whether every line of text (len bytes) has a space and no NUL. */
static bool all_named(const char *text, size_t len)
{
	while (len) {
		const char *nl = memchr(text, '\n', len);
		size_t n = nl ? (size_t)(nl - text) : len;

		if (!memchr(text, ' ', n) || memchr(text, '\0', n))
			return false;
		n += n < len;
		text += n;
		len -= n;
	}
	return true;
}

/* The snapshot names: a round trip, and packed lines from anywhere. */
static void names(const uint8_t *data, size_t size)
{
	struct vmproto_names agent = VMPROTO_NAMES_INIT,
			     host = VMPROTO_NAMES_INIT;
	struct strbuf packed = STRBUF_INIT, back = STRBUF_INIT,
		      err = STRBUF_INIT, want = STRBUF_INIT;
	const char *text = (const char *)data;
	size_t half = size / 2;
	int r = 0;

	/* Two fields, as an iteration's before and after. */
	for (int part = 0; part < 2; part++) {
		const char *t = part ? text + half : text;
		size_t n = part ? size - half : half;

		strbuf_reset(&packed);
		vmproto_names_pack(&agent, t, n, &packed);
		r |= vmproto_names_unpack(&host, packed.buf, packed.len, &back,
					  &err);
		strbuf_add(&want, t, n);
		if (n && t[n - 1] != '\n')
			strbuf_addch(&want, '\n');
	}
	if (all_named(text, half) && all_named(text + half, size - half))
		fuzz_assert(!r && back.len == want.len &&
				    !memcmp(back.buf, want.buf, want.len),
			    "snapshot lines that do not unpack as packed",
			    err.buf);
	else
		fuzz_assert(r != 0, "a line without a value unpacked", NULL);
	if (r)
		fuzz_check_error(err.buf, "protocol: ");
	vmproto_names_release(&host);
	host = (struct vmproto_names)VMPROTO_NAMES_INIT;
	strbuf_reset(&err);
	if (vmproto_names_unpack(&host, text, size, &back, &err))
		fuzz_check_error(err.buf, "protocol: ");
	vmproto_names_release(&agent);
	vmproto_names_release(&host);
	strbuf_release(&packed);
	strbuf_release(&back);
	strbuf_release(&err);
	strbuf_release(&want);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vmproto_msg msg = VMPROTO_MSG_INIT;
	struct strbuf err = STRBUF_INIT, again = STRBUF_INIT;
	struct runner_result r = RUNNER_RESULT_INIT;
	size_t off = 0;

	while (off < size) {
		size_t used = 0, start;
		enum vmproto_parse p;

		strbuf_reset(&err);
		p = vmproto_frame_parse(data + off, size - off, &used, &msg,
					&err);
		if (p == VMPROTO_NEED_MORE)
			break;
		if (p == VMPROTO_BAD) {
			fuzz_assert(used > 0 && used <= size - off,
				    "a refusal without a way forward", err.buf);
			fuzz_check_error(err.buf, "protocol: ");
			off += used;
			continue;
		}
		strbuf_reset(&again);
		start = vmproto_begin(&again, msg.type, msg.seq);
		for (size_t i = 0; i < msg.nr; i++)
			vmproto_put(&again, msg.fields[i].tag,
				    msg.fields[i].data, msg.fields[i].len);
		vmproto_end(&again, start);
		fuzz_assert(used == again.len &&
				    !memcmp(again.buf, data + off, used),
			    "a frame that does not rebuild to its bytes", NULL);
		if (vmproto_get_result(&msg, &r, &err))
			fuzz_check_error(err.buf, "protocol: ");
		off += used;
	}
	await_results(data, size);
	names(data, size);
	runner_result_release(&r);
	vmproto_msg_release(&msg);
	strbuf_release(&err);
	strbuf_release(&again);
	return 0;
}
