/*
 * Unit tests for sha256: the FIPS 180-2 appendix B test vectors, and runs
 * of 'a' around the padding boundaries (expected values from Python's
 * hashlib).
 */
#include <stdlib.h>

#include "tap.h"
#include "sha256.h"
#include "util.h"

static const struct {
	const char *msg;
	size_t repeat; /* msg is a single character repeated, when not 0 */
	const char *want;
} cases[] = {
	{"", 0,
	 "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
	{"abc", 0,
	 "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
	{"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 0,
	 "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
	{"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
	 "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
	 0, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
	{"a", 1000000,
	 "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},
	{"a", 55,
	 "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
	{"a", 56,
	 "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
	{"a", 63,
	 "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
	{"a", 64,
	 "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
	{"a", 119,
	 "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"},
	{"a", 120,
	 "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"},
};

int main(void)
{
	char hex[65];
	const char *got = hex;

	plan(2 * (int)ARRAY_SIZE(cases));
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *msg = cases[i].msg;
		size_t len = strlen(msg);
		char *buf = NULL;

		if (cases[i].repeat) {
			len = cases[i].repeat;
			buf = xmalloc(len);
			memset(buf, msg[0], len);
			msg = buf;
		}
		sha256_hex(msg, len, hex);
		is_str(got, cases[i].want, "sha256 case %zu (%zu bytes)", i,
		       len);
		/* In two parts, split off a block boundary: the same digest. */
		sha256_hex2(msg, len * 2 / 3, msg + len * 2 / 3,
			    len - len * 2 / 3, hex);
		is_str(got, cases[i].want, "sha256_hex2 case %zu (%zu + %zu)",
		       i, len * 2 / 3, len - len * 2 / 3);
		free(buf);
	}
	return exit_status();
}
