/* profile-split: CPU work split between two functions, for profiles. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_line[] = "profile-split [--share-a PCT] [--units N]";

/*
 * What the compiler cannot see through: each unit's result goes here, so
 * the loops are not folded away.
 */
static volatile uint64_t sink;

/* One unit of work: a fixed number of xorshift steps. */
__attribute__((always_inline)) static inline uint64_t unit(uint64_t x)
{
	for (int i = 0; i < 50000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	return x;
}

static void keep(uint64_t x)
{
	sink = x;
}

/*
 * Called through a pointer the compiler must read, so that spin_a and
 * spin_b are no leaf functions: gcc 12 sets up no frame pointer in a
 * leaf that needs no stack, even with -mno-omit-leaf-frame-pointer, and
 * a sample in it would lose its caller (and it is built without sibling
 * calls, which would leave no frame either).
 */
static void (*volatile keep_fn)(uint64_t) = keep;

/* The two functions whose share of the samples the flag sets. */
__attribute__((noinline)) static void spin_a(uint64_t seed)
{
	keep_fn(unit(seed));
}

__attribute__((noinline)) static void spin_b(uint64_t seed)
{
	keep_fn(unit(seed ^ 0x9e3779b97f4a7c15ULL));
}

/*
 * A whole number 0..max in decimal. The program links nothing of
 * mmcmp's, so that it stays uninstrumented in a sanitized build.
 */
static int parse_count(const char *s, int64_t max, int64_t *out)
{
	char *end;
	long long v;

	if (*s < '0' || *s > '9')
		return 0;
	v = strtoll(s, &end, 10);
	if (*end || v > max)
		return 0;
	*out = v;
	return 1;
}

int main(int argc, char **argv)
{
	int64_t share = 50, units = 2000;

	for (int i = 1; i < argc; i++) {
		int64_t *to = NULL;

		if (!strcmp(argv[i], "--share-a"))
			to = &share;
		else if (!strcmp(argv[i], "--units"))
			to = &units;
		if (!to || i + 1 == argc ||
		    !parse_count(argv[++i], to == &share ? 100 : 1000000000,
				 to)) {
			fprintf(stderr, "usage: %s\n", usage_line);
			return 2;
		}
	}
	/*
	 * Unit k goes to spin_a while the share of units given to it so far
	 * is below PCT, so the split is exact and the units interleave.
	 */
	for (int64_t k = 0, a = 0; k < units; k++) {
		if (a * 100 < share * (k + 1)) {
			spin_a((uint64_t)k + 1);
			a++;
		} else {
			spin_b((uint64_t)k + 1);
		}
	}
	printf("units %lld share_a %lld\n", (long long)units, (long long)share);
	return 0;
}
