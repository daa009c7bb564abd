#ifndef MMCMP_UUID_H
#define MMCMP_UUID_H

struct strbuf;

/*
 * uuid: identifiers for runs, so runs keep their identity when exported
 * from one database and imported into another: random ones for runs
 * mmcmp records, ones derived from a hash for imported files, so that
 * importing the same file twice gives the same run.
 */

/*
 * Write a random (version 4, RFC 4122) UUID to out as 36 lowercase
 * characters and a NUL. The randomness comes from getrandom(), or from
 * /dev/urandom when the kernel lacks it. Returns 0, or -1 with one line
 * in err when no randomness could be read.
 */
int uuid_v4(char out[37], struct strbuf *err);

/*
 * Write the name-based UUID of a SHA-256 digest (hex, 64 lowercase
 * characters) to out: its first 128 bits, with the version 8 (RFC 9562)
 * and variant bits set, as 36 lowercase characters and a NUL.
 */
void uuid_from_sha256(const char hex[65], char out[37]);

#endif /* MMCMP_UUID_H */
