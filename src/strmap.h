#ifndef MMCMP_STRMAP_H
#define MMCMP_STRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * strmap: a hash map from byte strings to size_t values, used to look up
 * runs, operations and the like by name in constant time (open addressing
 * with linear probing, FNV-1a hashes, load factor at most 1/2).
 *
 * Keys are `len` bytes and may hold NUL bytes, so a composite key can be
 * built as "benchmark\0operation". The map owns copies of its keys. It
 * cannot fail: allocation failure aborts.
 */
struct strmap_entry {
	char *key; /* NULL: empty slot */
	size_t len;
	uint64_t hash;
	size_t value;
};

struct strmap {
	struct strmap_entry *v; /* `alloc` slots, a power of two */
	size_t nr, alloc;
};

#define STRMAP_INIT                                                            \
	{                                                                      \
		.v = NULL, .nr = 0, .alloc = 0                                 \
	}

/* Find key; on success store its value in *value (may be NULL). */
bool strmap_get(const struct strmap *map, const void *key, size_t len,
		size_t *value);
/* Set the value of key, adding a copy of the key when it is new. */
void strmap_put(struct strmap *map, const void *key, size_t len, size_t value);
/* Free all entries and reset to STRMAP_INIT. NULL is a no-op. */
void strmap_clear(struct strmap *map);

#endif /* MMCMP_STRMAP_H */
