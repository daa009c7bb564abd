/* sha256: the SHA-256 digest (FIPS 180-4, section 6.2). */
#include "sha256.h"

#include <stdint.h>
#include <string.h>

#include "util.h"

/*
 * The first 32 bits of the fractional parts of the cube roots of the
 * first 64 primes (FIPS 180-4, 4.2.2).
 */
static const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* Square roots of the first 8 primes, likewise (5.3.3). */
static const uint32_t sha256_h0[8] = {
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

#define SHA256_BLOCK 64

static uint32_t rotr(uint32_t x, unsigned int n)
{
	return (x >> n) | (x << (32 - n));
}

/* Fold one 64-byte block into the hash state h (6.2.2). */
static void sha256_block(uint32_t h[8], const unsigned char *p)
{
	uint32_t w[64], v[8];

	for (size_t i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
	for (size_t i = 16; i < 64; i++) {
		uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^
			      (w[i - 15] >> 3);
		uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^
			      (w[i - 2] >> 10);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	memcpy(v, h, sizeof(v));
	for (int i = 0; i < 64; i++) {
		/* v[0..7] are a..h of the standard. */
		uint32_t e = v[4], a = v[0];
		uint32_t ch = (e & v[5]) ^ (~e & v[6]);
		uint32_t maj = (a & v[1]) ^ (a & v[2]) ^ (v[1] & v[2]);
		uint32_t t1 = v[7] + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) +
			      ch + sha256_k[i] + w[i];
		uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + maj;

		memmove(v + 1, v, 7 * sizeof(*v));
		v[4] += t1;
		v[0] = t1 + t2;
	}
	for (int i = 0; i < 8; i++)
		h[i] += v[i];
}

void sha256_hex2(const void *a, size_t alen, const void *b, size_t blen,
		 char out[65])
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *pa = a, *pb = b;
	unsigned char block[SHA256_BLOCK], tail[2 * SHA256_BLOCK] = {0};
	size_t len = alen + blen, at = 0, rest = len % SHA256_BLOCK, tail_len;
	uint64_t bits = (uint64_t)len * 8;
	uint32_t h[8];

	memcpy(h, sha256_h0, sizeof(h));
	/* The blocks of a then b: copied where they straddle the two. */
	for (; at + SHA256_BLOCK <= len; at += SHA256_BLOCK) {
		if (at >= alen) {
			sha256_block(h, pb + (at - alen));
			continue;
		}
		for (size_t i = 0; i < SHA256_BLOCK; i++)
			block[i] =
				at + i < alen ? pa[at + i] : pb[at + i - alen];
		sha256_block(h, block);
	}
	/*
	 * Padding (5.1.1): a 1 bit, zeros up to 56 bytes mod 64, then the
	 * message length in bits, big-endian: one block or two.
	 */
	for (size_t i = 0; i < rest; i++)
		tail[i] = at + i < alen ? pa[at + i] : pb[at + i - alen];
	tail[rest] = 0x80;
	tail_len = rest < 56 ? SHA256_BLOCK : 2 * SHA256_BLOCK;
	for (int i = 0; i < 8; i++)
		tail[tail_len - 1 - i] = (unsigned char)(bits >> (8 * i));
	sha256_block(h, tail);
	if (tail_len > SHA256_BLOCK)
		sha256_block(h, tail + SHA256_BLOCK);
	for (size_t i = 0; i < 32; i++) {
		unsigned int byte = (h[i / 4] >> (24 - 8 * (i % 4))) & 0xff;

		out[2 * i] = hex[byte >> 4];
		out[2 * i + 1] = hex[byte & 0xf];
	}
	out[64] = '\0';
}

void sha256_hex(const void *data, size_t len, char out[65])
{
	sha256_hex2(data, len, NULL, 0, out);
}
