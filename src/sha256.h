#ifndef MMCMP_SHA256_H
#define MMCMP_SHA256_H

#include <stddef.h>

/*
 * sha256: the SHA-256 digest of FIPS 180-4, used to fingerprint config
 * texts (run_info.config_hash) so runs of the same config can be found.
 * Pure computation: it cannot fail and keeps no state between calls.
 */

/* Write the digest of data as 64 lowercase hex digits and a NUL to out. */
void sha256_hex(const void *data, size_t len, char out[65]);
/* The same, of the alen bytes at a followed by the blen bytes at b. */
void sha256_hex2(const void *a, size_t alen, const void *b, size_t blen,
		 char out[65]);

#endif /* MMCMP_SHA256_H */
