/* usemem: anonymous memory touched by N processes, as vm-scalability's. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "parse-num.h"
#include "util.h"
#include "wl-common.h"

#define PROG "usemem"

static const char usage_line[] =
	"usemem --tasks N --size BYTES [--passes P] [--free keep|lazy]"
	" [--chunk BYTES]";

static const char help_text[] =
	"Anonymous memory touched by N processes (vm-scalability's usemem,\n"
	"mmtests' usemem).\n"
	"\n"
	"Each of N processes maps SIZE/N bytes of private anonymous memory\n"
	"and writes a word to every page of it, PASSES times over, a chunk at\n"
	"a time. Under a memory cgroup limit below SIZE the kernel must\n"
	"reclaim as the processes go: with --free keep (the default) by\n"
	"swapping, which needs swap; with --free lazy each chunk is given\n"
	"MADV_FREE once written, so reclaim can drop it without swap and the\n"
	"next pass faults it in again, while without a limit the pages stay\n"
	"and the next pass costs no faults.\n"
	"\n"
	"  --tasks N        processes (1..4096)\n"
	"  --size BYTES     footprint of all of them, suffixes K M G T\n"
	"  --passes P       times each process writes its memory (1..100000,\n"
	"                   default 2)\n"
	"  --free keep|lazy keep the pages, or MADV_FREE each chunk\n"
	"  --chunk BYTES    the unit written and freed (default 1M)\n"
	"\n"
	"Output, one \"NAME VALUE\" line each, in seconds:\n"
	"  elsp   wall time from the first fork to the last exit\n"
	"  syst   system CPU time of all processes\n"
	"  user   user CPU time of all processes\n"
	"Exit status: 0 success, 1 failure (also a process killed, as by the\n"
	"OOM killer), 2 bad usage.\n";

struct um_params {
	int tasks;
	int passes;
	bool lazy;
	size_t size_bytes; /* all tasks together */
	size_t chunk_bytes;
	size_t page_bytes;
};

/* One pass over map: a word per page, then MADV_FREE per chunk if lazy. */
static int um_pass(const struct um_params *p, char *map, size_t len)
{
	for (size_t at = 0; at < len; at += p->chunk_bytes) {
		size_t n =
			len - at < p->chunk_bytes ? len - at : p->chunk_bytes;

		for (size_t off = 0; off < n; off += p->page_bytes)
			/* volatile: the store must happen, it is the fault. */
			*(volatile unsigned long *)(map + at + off) = off;
		if (p->lazy && madvise(map + at, n, MADV_FREE)) {
			wl_error(PROG, "madvise(MADV_FREE) failed: %s",
				 strerror(errno));
			return -1;
		}
	}
	return 0;
}

static MMCMP_NORETURN void um_child(const struct um_params *p, size_t len,
				    pid_t parent)
{
	char *map;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	map = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		wl_error(PROG, "cannot map %zu bytes: %s", len,
			 strerror(errno));
		_exit(1);
	}
	for (int i = 0; i < p->passes; i++)
		if (um_pass(p, map, len))
			_exit(1);
	_exit(0);
}

static double tv_seconds(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

static int run(const struct um_params *p)
{
	pid_t *pids = xcalloc((size_t)p->tasks, sizeof(*pids));
	size_t each = p->size_bytes / (size_t)p->tasks;
	pid_t self = getpid();
	struct rusage ru;
	int64_t start;
	int started = 0, ret;

	if (wl_catch_signals()) {
		wl_error(PROG, "cannot set up signals: %s", strerror(errno));
		free(pids);
		return WL_EXIT_FAILURE;
	}
	fflush(stdout);
	start = wl_now_ns();
	for (; started < p->tasks; started++) {
		pid_t pid = fork();

		if (pid < 0) {
			wl_error(PROG, "cannot fork: %s", strerror(errno));
			break;
		}
		if (!pid)
			um_child(p, each, self);
		pids[started] = pid;
	}
	if (started < p->tasks)
		for (int i = 0; i < started; i++)
			kill(pids[i], SIGKILL);
	ret = wl_reap(PROG, pids, started, "process", true);
	if (started < p->tasks)
		ret = -1;
	free(pids);
	if (!ret && !wl_interrupted()) {
		getrusage(RUSAGE_CHILDREN, &ru);
		printf("elsp %.6f\n", (double)(wl_now_ns() - start) / 1e9);
		printf("syst %.6f\n", tv_seconds(&ru.ru_stime));
		printf("user %.6f\n", tv_seconds(&ru.ru_utime));
	}
	return wl_check_interrupted(PROG, ret ? WL_EXIT_FAILURE : WL_EXIT_OK);
}

static int parse_option(const struct wl_args *args, int opt, const char *val,
			struct um_params *p)
{
	uint64_t size;

	switch (opt) {
	case 0:
		if (!parse_int(val, 1, 4096, &p->tasks))
			return wl_bad_value(args, "tasks", val,
					    "an integer in 1..4096");
		break;
	case 1:
		if (!wl_parse_size(val, p->page_bytes, UINT64_C(1) << 40,
				   &size) ||
		    size > SIZE_MAX)
			return wl_bad_value(args, "size", val, "a page to 1T");
		p->size_bytes = (size_t)size;
		break;
	case 2:
		if (!parse_int(val, 1, 100000, &p->passes))
			return wl_bad_value(args, "passes", val,
					    "an integer in 1..100000");
		break;
	case 3:
		if (strcmp(val, "keep") && strcmp(val, "lazy"))
			return wl_bad_value(args, "free", val, "keep or lazy");
		p->lazy = !strcmp(val, "lazy");
		break;
	case 4:
		if (!wl_parse_size(val, p->page_bytes, UINT64_C(1) << 40,
				   &size) ||
		    size > SIZE_MAX || size % p->page_bytes)
			return wl_bad_value(args, "chunk", val,
					    "a multiple of the page size");
		p->chunk_bytes = (size_t)size;
		break;
	default:
		BUG("unhandled option %d", opt);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct wl_option opts[] = {
		{"tasks", true}, {"size", true},  {"passes", true},
		{"free", true},	 {"chunk", true},
	};
	struct wl_args args = WL_ARGS_INIT(PROG, usage_line, argc, argv);
	struct um_params p = {
		.passes = 2,
		.chunk_bytes = (size_t)1 << 20,
	};
	long page = sysconf(_SC_PAGESIZE);
	const char *val;
	int opt, st;

	if (page <= 0) {
		wl_error(PROG, "cannot get the page size");
		return WL_EXIT_FAILURE;
	}
	p.page_bytes = (size_t)page;
	while ((opt = wl_args_next(&args, opts, ARRAY_SIZE(opts), &val)) >= 0)
		if ((st = parse_option(&args, opt, val, &p)))
			return st;
	if (opt != WL_ARGS_END)
		return wl_main_tail(&args, opt, help_text);
	if (!p.tasks)
		return wl_usage_error(&args, "missing --tasks");
	if (!p.size_bytes)
		return wl_usage_error(&args, "missing --size");
	if (p.size_bytes / (size_t)p.tasks < p.page_bytes)
		return wl_usage_error(&args,
				      "--size %zu is less than a page for each"
				      " of %d tasks",
				      p.size_bytes, p.tasks);
	return wl_finish_stdout(PROG, run(&p));
}
