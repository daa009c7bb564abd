/* strmap: an open-addressing hash map from byte strings to size_t. */
#include "strmap.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* 64-bit FNV-1a. */
static uint64_t strmap_hash(const void *key, size_t len)
{
	const unsigned char *p = key;
	uint64_t h = UINT64_C(14695981039346656037);

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= UINT64_C(1099511628211);
	}
	return h;
}

/* The slot holding key, or the empty slot where it would go. */
static struct strmap_entry *strmap_slot(const struct strmap *map,
					const void *key, size_t len,
					uint64_t hash)
{
	size_t mask = map->alloc - 1;
	size_t i = (size_t)hash & mask;

	for (;;) {
		struct strmap_entry *e = &map->v[i];

		if (!e->key)
			return e;
		if (e->hash == hash && e->len == len &&
		    (!len || !memcmp(e->key, key, len)))
			return e;
		i = (i + 1) & mask;
	}
}

static void strmap_grow(struct strmap *map)
{
	struct strmap_entry *old = map->v;
	size_t old_alloc = map->alloc;

	map->alloc = old_alloc ? old_alloc * 2 : 64;
	map->v = xcalloc(map->alloc, sizeof(*map->v));
	for (size_t i = 0; i < old_alloc; i++) {
		if (old[i].key)
			*strmap_slot(map, old[i].key, old[i].len, old[i].hash) =
				old[i];
	}
	free(old);
}

bool strmap_get(const struct strmap *map, const void *key, size_t len,
		size_t *value)
{
	const struct strmap_entry *e;

	if (!map->nr)
		return false;
	e = strmap_slot(map, key, len, strmap_hash(key, len));
	if (!e->key)
		return false;
	if (value)
		*value = e->value;
	return true;
}

void strmap_put(struct strmap *map, const void *key, size_t len, size_t value)
{
	uint64_t hash = strmap_hash(key, len);
	struct strmap_entry *e;

	if (2 * (map->nr + 1) > map->alloc)
		strmap_grow(map);
	e = strmap_slot(map, key, len, hash);
	if (!e->key) {
		e->key = xmalloc(len ? len : 1);
		if (len)
			memcpy(e->key, key, len);
		e->len = len;
		e->hash = hash;
		map->nr++;
	}
	e->value = value;
}

void strmap_clear(struct strmap *map)
{
	if (!map)
		return;
	for (size_t i = 0; i < map->alloc; i++)
		free(map->v[i].key);
	free(map->v);
	map->v = NULL;
	map->nr = map->alloc = 0;
}
