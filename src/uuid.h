#ifndef MMCMP_UUID_H
#define MMCMP_UUID_H

struct strbuf;

/*
 * uuid: random identifiers for runs, so runs keep their identity when
 * exported from one database and imported into another.
 */

/*
 * Write a random (version 4, RFC 4122) UUID to out as 36 lowercase
 * characters and a NUL. The randomness comes from getrandom(), or from
 * /dev/urandom when the kernel lacks it. Returns 0, or -1 with one line
 * in err when no randomness could be read.
 */
int uuid_v4(char out[37], struct strbuf *err);

#endif /* MMCMP_UUID_H */
