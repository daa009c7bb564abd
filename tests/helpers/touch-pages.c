/*
 * touch-pages: fault in a fixed amount of anonymous memory, for perf tests.
 * Built without sanitizers and without libmmcmp (tests/helpers/meson.build):
 * a sanitizer's runtime faults in thousands of pages of its own.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static const char usage[] =
	"usage: touch-pages MIB hugepage|nohugepage\n"
	"Map MIB MiB of private anonymous memory, madvise it MADV_HUGEPAGE\n"
	"or MADV_NOHUGEPAGE, write one byte of each 4 KiB page and exit:\n"
	"a fixed number of page faults, 512 times fewer with hugepages.\n";

int main(int argc, char **argv)
{
	unsigned long long mib = 0;
	char *end = NULL;
	size_t len;
	char *p;
	int advice;

	if (argc == 3 && argv[1][0] >= '0' && argv[1][0] <= '9')
		mib = strtoull(argv[1], &end, 10);
	if (argc != 3 || !end || *end || !mib || mib > 4096 ||
	    (strcmp(argv[2], "hugepage") && strcmp(argv[2], "nohugepage"))) {
		fputs(usage, stderr);
		return 2;
	}
	advice = strcmp(argv[2], "hugepage") ? MADV_NOHUGEPAGE : MADV_HUGEPAGE;
	len = (size_t)mib << 20;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED) {
		perror("touch-pages: mmap");
		return 1;
	}
	if (madvise(p, len, advice)) {
		perror("touch-pages: madvise");
		return 1;
	}
	for (size_t off = 0; off < len; off += 4096)
		p[off] = 1;
	printf("touched %zu pages\n", len / 4096);
	return 0;
}
