/* uuid: random (version 4) UUIDs and name-based (version 8) ones. */
#include "uuid.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "strbuf.h"
#include "util.h"

/* Fill buf from /dev/urandom, for kernels without getrandom(). */
static int urandom_read(unsigned char *buf, size_t len, struct strbuf *err)
{
	size_t done = 0;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	int ret = -1;

	if (fd < 0)
		return error_addf(err, "cannot open '/dev/urandom': %s",
				  strerror(errno));
	while (done < len) {
		ssize_t n = read(fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			error_addf(err, "cannot read '/dev/urandom': %s",
				   n ? strerror(errno) : "end of file");
			goto out;
		}
		done += (size_t)n;
	}
	ret = 0;
out:
	close(fd);
	return ret;
}

static int random_bytes(unsigned char *buf, size_t len, struct strbuf *err)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = getrandom(buf + done, len - done, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == ENOSYS)
			return urandom_read(buf + done, len - done, err);
		if (n < 0)
			return error_addf(err, "cannot get random bytes: %s",
					  strerror(errno));
		done += (size_t)n;
	}
	return 0;
}

int uuid_v4(char out[37], struct strbuf *err)
{
	unsigned char b[16];

	if (random_bytes(b, sizeof(b), err))
		return -1;
	/* RFC 4122, 4.4: version 4 in the high nibble of byte 6, variant 10. */
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
	snprintf(out, 37,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		 "%02x%02x%02x%02x%02x%02x",
		 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9],
		 b[10], b[11], b[12], b[13], b[14], b[15]);
	return 0;
}

void uuid_from_sha256(const char hex[65], char out[37])
{
	size_t o = 0;

	for (size_t i = 0; i < 32; i++) {
		char c = hex[i];

		if (i == 8 || i == 12 || i == 16 || i == 20)
			out[o++] = '-';
		/* RFC 9562, 5.8: version 8, variant 10 in the top bits. */
		if (i == 12)
			c = '8';
		else if (i == 16)
			c = "89ab"[(c - (c >= 'a' ? 'a' - 10 : '0')) & 3];
		out[o++] = c;
	}
	out[o] = '\0';
}
