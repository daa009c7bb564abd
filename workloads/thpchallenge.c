/* thpchallenge: THP fault latency and success in fragmented memory. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "parse-num.h"
#include "util.h"
#include "wl-common.h"

#define PROG "thpchallenge"

#define THP_BYTES ((size_t)2 << 20)

static const char usage_line[] =
	"thpchallenge --size BYTES [--filler BYTES] [--cache BYTES]"
	" [--dir DIR]";

static const char help_text[] =
	"THP allocation under fragmentation (after mmtests' thpchallenge).\n"
	"\n"
	"First fragments memory: writes a CACHE-byte file in DIR (page cache,\n"
	"kept until the end) and maps FILLER bytes of anonymous memory, writes\n"
	"every page and frees every other one, so free memory is scattered.\n"
	"Then maps SIZE bytes aligned to 2 MiB with MADV_HUGEPAGE and times\n"
	"the first write to each 2 MiB piece: a huge page when the kernel can\n"
	"assemble one (compacting if it must), else a fallback to base pages.\n"
	"\n"
	"  --size BYTES     memory faulted in 2 MiB pieces (2M..1T)\n"
	"  --filler BYTES   anonymous filler, half of it freed again\n"
	"                   (default 0)\n"
	"  --cache BYTES    page-cache file (default 0)\n"
	"  --dir DIR        where the file goes (default $TMPDIR or /tmp)\n"
	"\n"
	"Output, one \"NAME VALUE\" line each:\n"
	"  fault-p50, fault-p90, fault-p99, fault-max   microseconds\n"
	"  thp-success   percent of the faults that /proc/vmstat counted as\n"
	"                thp_fault_alloc against thp_fault_fallback\n"
	"  compact-stall  compact_stall counted meanwhile (system-wide)\n"
	"Exit status: 0 success, 1 failure, 2 bad usage.\n";

struct thp_params {
	size_t size_bytes, filler_bytes, cache_bytes, page_bytes;
	const char *dir;
};

/* The page-cache part: a file written and left in the cache; its fd. */
static int write_cache(const struct thp_params *p)
{
	static const char zero[65536];
	char path[4096];
	int fd, n;

	if (!p->cache_bytes)
		return -2;
	n = snprintf(path, sizeof(path), "%s/thpchallenge.XXXXXX", p->dir);
	if (n < 0 || (size_t)n >= sizeof(path) || (fd = mkstemp(path)) < 0) {
		wl_error(PROG, "cannot create a file in '%s': %s", p->dir,
			 strerror(errno));
		return -1;
	}
	unlink(path);
	for (size_t done = 0; done < p->cache_bytes;) {
		size_t k = p->cache_bytes - done < sizeof(zero)
				   ? p->cache_bytes - done
				   : sizeof(zero);
		ssize_t w = write(fd, zero, k);

		if (w <= 0) {
			wl_error(PROG, "cannot write the cache file: %s",
				 strerror(errno));
			close(fd);
			return -1;
		}
		done += (size_t)w;
	}
	return fd;
}

/* The anonymous filler with every other page freed; NULL on failure. */
static char *write_filler(const struct thp_params *p)
{
	char *map;

	if (!p->filler_bytes)
		return NULL;
	map = mmap(NULL, p->filler_bytes, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return NULL;
	/* Base pages only, so that freeing one really frees a page. */
	madvise(map, p->filler_bytes, MADV_NOHUGEPAGE);
	for (size_t off = 0; off < p->filler_bytes; off += p->page_bytes)
		((volatile char *)map)[off] = 1;
	for (size_t off = p->page_bytes; off < p->filler_bytes;
	     off += 2 * p->page_bytes)
		madvise(map + off, p->page_bytes, MADV_DONTNEED);
	return map;
}

/* Fault SIZE in 2 MiB pieces, timing each; 0 or -1. */
static int fault_thp(int64_t *lat, size_t nr)
{
	size_t len = nr * THP_BYTES + THP_BYTES;
	char *raw, *map;

	raw = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED) {
		wl_error(PROG, "cannot map %zu bytes: %s", len,
			 strerror(errno));
		return -1;
	}
	map = raw + (THP_BYTES - (uintptr_t)raw % THP_BYTES) % THP_BYTES;
	if (madvise(map, nr * THP_BYTES, MADV_HUGEPAGE)) {
		wl_error(PROG, "madvise(MADV_HUGEPAGE) is not supported: %s",
			 strerror(errno));
		munmap(raw, len);
		return -1;
	}
	for (size_t i = 0; i < nr; i++) {
		int64_t t0 = wl_now_ns();

		((volatile char *)map)[i * THP_BYTES] = 1;
		lat[i] = wl_now_ns() - t0;
	}
	munmap(raw, len);
	return 0;
}

static int run(const struct thp_params *p)
{
	size_t nr = p->size_bytes / THP_BYTES;
	int64_t *lat = xcalloc(nr, sizeof(*lat));
	long long alloc0, fall0, stall0, alloc, fall;
	char *filler = NULL;
	int fd, ret = WL_EXIT_FAILURE;

	fd = write_cache(p);
	if (fd == -1)
		goto out;
	filler = write_filler(p);
	if (p->filler_bytes && !filler) {
		wl_error(PROG, "cannot map the filler: %s", strerror(errno));
		goto out;
	}
	alloc0 = wl_vmstat("thp_fault_alloc");
	fall0 = wl_vmstat("thp_fault_fallback");
	stall0 = wl_vmstat("compact_stall");
	if (fault_thp(lat, nr))
		goto out;
	alloc = wl_vmstat("thp_fault_alloc") - alloc0;
	fall = wl_vmstat("thp_fault_fallback") - fall0;
	wl_print_latencies("fault", lat, nr);
	/* Without THP in the kernel the counters are absent: no rows. */
	if (alloc0 >= 0 && fall0 >= 0 && alloc + fall > 0)
		printf("thp-success %.2f\n",
		       100.0 * (double)alloc / (double)(alloc + fall));
	if (stall0 >= 0)
		printf("compact-stall %lld\n",
		       wl_vmstat("compact_stall") - stall0);
	ret = WL_EXIT_OK;
out:
	if (filler)
		munmap(filler, p->filler_bytes);
	if (fd >= 0)
		close(fd);
	free(lat);
	return ret;
}

static int parse_size_opt(const struct wl_args *args, const char *opt,
			  const char *val, uint64_t min, size_t *out)
{
	uint64_t size;

	if (!wl_parse_size(val, min, UINT64_C(1) << 40, &size) ||
	    size > SIZE_MAX)
		return wl_bad_value(args, opt, val,
				    min ? "2M to 1T" : "0 to 1T");
	*out = (size_t)size;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct wl_option opts[] = {
		{"size", true},
		{"filler", true},
		{"cache", true},
		{"dir", true},
	};
	struct wl_args args = WL_ARGS_INIT(PROG, usage_line, argc, argv);
	struct thp_params p = {.dir = NULL};
	long page = sysconf(_SC_PAGESIZE);
	const char *val;
	int opt = WL_ARGS_END, st = 0;

	if (page <= 0) {
		wl_error(PROG, "cannot get the page size");
		return WL_EXIT_FAILURE;
	}
	p.page_bytes = (size_t)page;
	while (!st &&
	       (opt = wl_args_next(&args, opts, ARRAY_SIZE(opts), &val)) >= 0) {
		if (opt == 0)
			st = parse_size_opt(&args, "size", val, THP_BYTES,
					    &p.size_bytes);
		else if (opt == 1)
			st = parse_size_opt(&args, "filler", val, 0,
					    &p.filler_bytes);
		else if (opt == 2)
			st = parse_size_opt(&args, "cache", val, 0,
					    &p.cache_bytes);
		else
			p.dir = val;
	}
	if (st)
		return st;
	if (opt != WL_ARGS_END)
		return wl_main_tail(&args, opt, help_text);
	if (!p.size_bytes)
		return wl_usage_error(&args, "missing --size");
	if (!p.dir)
		p.dir = wl_tmpdir();
	return wl_finish_stdout(PROG, run(&p));
}
