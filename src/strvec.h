#ifndef MMCMP_STRVEC_H
#define MMCMP_STRVEC_H

#include <stddef.h>

/*
 * strvec: a NULL-terminated array of owned strings, ready for execvp()
 * (git's strvec). `v` is never NULL: an empty strvec points at a shared
 * { NULL }. The strings belong to the strvec until strvec_clear().
 */
struct strvec {
	char **v;
	size_t nr;
	size_t alloc;
};

extern char *strvec_empty[];
#define STRVEC_INIT                                                            \
	{                                                                      \
		.v = strvec_empty, .nr = 0, .alloc = 0                         \
	}

void strvec_init(struct strvec *sv);
/* Append a copy of s. */
void strvec_push(struct strvec *sv, const char *s);
/* Append a copy of s unless sv holds an equal string already. */
void strvec_push_once(struct strvec *sv, const char *s);
/* Append s itself; the strvec takes ownership. */
void strvec_push_nodup(struct strvec *sv, char *s);
/* Append copies of every string of v (NULL-terminated). */
void strvec_pushv(struct strvec *sv, char *const *v);
/* Free every string and reset to STRVEC_INIT. NULL is a no-op. */
void strvec_clear(struct strvec *sv);

#endif /* MMCMP_STRVEC_H */
