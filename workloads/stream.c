/* stream: memory bandwidth of copy, scale, add and triad, as STREAM. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "parse-num.h"
#include "util.h"
#include "wl-common.h"

#define PROG "stream"

static const char usage_line[] = "stream [--size BYTES] [--ntimes N]";

static const char help_text[] =
	"Sustainable memory bandwidth (John McCalpin's STREAM, as mmtests'\n"
	"stream runs it), single-threaded.\n"
	"\n"
	"Three arrays of doubles of SIZE bytes each, a, b and c; each kernel\n"
	"runs NTIMES times and its best time gives the rate:\n"
	"  copy   c = a             2 words moved per element\n"
	"  scale  b = 3 c           2\n"
	"  add    c = a + b         3\n"
	"  triad  a = b + 3 c       3\n"
	"The first of the NTIMES runs is not counted, as in STREAM.\n"
	"\n"
	"  --size BYTES   of each array, suffixes K M G T (64K..1T, default\n"
	"                 256M: well beyond the caches)\n"
	"  --ntimes N     runs of each kernel (2..100, default 10)\n"
	"\n"
	"Output, one \"NAME VALUE\" line each, in MB/s (10^6 bytes):\n"
	"  copy, scale, add, triad\n"
	"and a check that the arrays hold what the kernels computed.\n"
	"Exit status: 0 success, 1 failure (also a failed check), 2 bad usage.\n";

enum { K_COPY, K_SCALE, K_ADD, K_TRIAD, K_NR };

static const char *const kernel_name[K_NR] = {"copy", "scale", "add", "triad"};
static const int kernel_words[K_NR] = {2, 2, 3, 3};

/* The empty asm keeps the compiler from folding passes into one. */
static void run_kernel(int k, double *a, double *b, double *c, size_t n)
{
	const double q = 3.0;

	switch (k) {
	case K_COPY:
		for (size_t j = 0; j < n; j++)
			c[j] = a[j];
		break;
	case K_SCALE:
		for (size_t j = 0; j < n; j++)
			b[j] = q * c[j];
		break;
	case K_ADD:
		for (size_t j = 0; j < n; j++)
			c[j] = a[j] + b[j];
		break;
	default:
		for (size_t j = 0; j < n; j++)
			a[j] = b[j] + q * c[j];
		break;
	}
	__asm__ __volatile__("" : : "r"(a), "r"(b), "r"(c) : "memory");
}

/* STREAM's check: follow the scalar through the same passes. */
static int check(const double *a, const double *b, const double *c, size_t n,
		 int ntimes)
{
	double aj = 1.0, bj = 2.0, cj = 0.0;
	double ea = 0, eb = 0, ec = 0;

	for (int i = 0; i < ntimes; i++) {
		cj = aj;
		bj = 3.0 * cj;
		cj = aj + bj;
		aj = bj + 3.0 * cj;
	}
	for (size_t j = 0; j < n; j++) {
		ea += a[j] > aj ? a[j] - aj : aj - a[j];
		eb += b[j] > bj ? b[j] - bj : bj - b[j];
		ec += c[j] > cj ? c[j] - cj : cj - c[j];
	}
	if (ea / (double)n > 1e-13 * aj || eb / (double)n > 1e-13 * bj ||
	    ec / (double)n > 1e-13 * cj) {
		wl_error(PROG,
			 "the arrays do not hold what the kernels computed");
		return -1;
	}
	return 0;
}

static int run(size_t bytes, int ntimes)
{
	size_t n = bytes / sizeof(double);
	double *a, *b, *c, best[K_NR];
	int ret = WL_EXIT_FAILURE;

	a = mmap(NULL, 3 * bytes, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a == MAP_FAILED) {
		wl_error(PROG, "cannot map 3 x %zu bytes: %s", bytes,
			 strerror(errno));
		return WL_EXIT_FAILURE;
	}
	b = a + n;
	c = b + n;
	for (size_t j = 0; j < n; j++) {
		a[j] = 1.0;
		b[j] = 2.0;
		c[j] = 0.0;
	}
	for (int k = 0; k < K_NR; k++)
		best[k] = 0;
	for (int i = 0; i < ntimes; i++) {
		for (int k = 0; k < K_NR; k++) {
			int64_t t0 = wl_now_ns(), dt;

			run_kernel(k, a, b, c, n);
			dt = wl_now_ns() - t0;
			if (i && (!best[k] || (double)dt < best[k]))
				best[k] = dt > 0 ? (double)dt : 1;
		}
	}
	if (check(a, b, c, n, ntimes))
		goto out;
	for (int k = 0; k < K_NR; k++)
		printf("%s %.2f\n", kernel_name[k],
		       (double)kernel_words[k] * (double)bytes / best[k] * 1e3);
	ret = WL_EXIT_OK;
out:
	munmap(a, 3 * bytes);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct wl_option opts[] = {
		{"size", true},
		{"ntimes", true},
	};
	struct wl_args args = WL_ARGS_INIT(PROG, usage_line, argc, argv);
	uint64_t size = UINT64_C(256) << 20;
	int ntimes = 10, opt;
	const char *val;

	while ((opt = wl_args_next(&args, opts, ARRAY_SIZE(opts), &val)) >= 0) {
		switch (opt) {
		case 0:
			if (!wl_parse_size(val, 64 << 10, UINT64_C(1) << 40,
					   &size) ||
			    size > SIZE_MAX / 3)
				return wl_bad_value(&args, "size", val,
						    "64K to 1T");
			break;
		case 1:
			if (!parse_int(val, 2, 100, &ntimes))
				return wl_bad_value(&args, "ntimes", val,
						    "an integer in 2..100");
			break;
		default:
			BUG("unhandled option %d", opt);
		}
	}
	if (opt != WL_ARGS_END)
		return wl_main_tail(&args, opt, help_text);
	size -= size % sizeof(double);
	return wl_finish_stdout(PROG, run((size_t)size, ntimes));
}
