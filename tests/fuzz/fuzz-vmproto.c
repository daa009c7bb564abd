/*
 * Fuzz target: the host-guest frame parser. Fed any bytes as a stream, it
 * must either wait for more, refuse with a message and a way forward, or
 * return a frame that, built again from its fields, gives the same bytes.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz.h"
#include "runner.h"
#include "strbuf.h"
#include "vmproto.h"

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
		start = vmproto_begin(&again, msg.type);
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
	runner_result_release(&r);
	vmproto_msg_release(&msg);
	strbuf_release(&err);
	strbuf_release(&again);
	return 0;
}
