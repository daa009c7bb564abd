/* stutterp: mapping latency while a writer pushes memory into reclaim. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "parse-num.h"
#include "util.h"
#include "wl-common.h"

#define PROG "stutterp"

/* At most this many latencies are kept; the loop stops there. */
#define MAX_SAMPLES ((size_t)1 << 22)

static const char usage_line[] =
	"stutterp --seconds S [--hog BYTES] [--map BYTES] [--dir DIR]";

static const char help_text[] =
	"Allocation stalls under memory pressure (after mmtests' stutterp).\n"
	"\n"
	"A child process writes a file of HOG bytes in DIR over and over, so\n"
	"the page cache fills and the kernel reclaims (inside a memory cgroup,\n"
	"at its limit); meanwhile the program maps MAP bytes of anonymous\n"
	"memory, writes each page and unmaps it, in a loop for S seconds, and\n"
	"times every round.\n"
	"\n"
	"  --seconds S    how long the loop runs (a number, 0.1..86400)\n"
	"  --hog BYTES    the file the writer rewrites (default 1G; 0: no\n"
	"                 writer, the baseline)\n"
	"  --map BYTES    memory of one round (a page to 1G, default 64K)\n"
	"  --dir DIR      where the file goes (default $TMPDIR or /tmp)\n"
	"\n"
	"Output, one \"NAME VALUE\" line each:\n"
	"  map-p50, map-p90, map-p99, map-max   microseconds per round\n"
	"  rounds         rounds in all\n"
	"Exit status: 0 success, 1 failure, 2 bad usage.\n";

struct st_params {
	double seconds;
	size_t hog_bytes, map_bytes, page_bytes;
	const char *dir;
};

/* The writer: rewrites the file until killed. */
static MMCMP_NORETURN void hog_main(const struct st_params *p, int fd,
				    pid_t parent)
{
	static char buf[1 << 20];

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	signal(SIGTERM, SIG_DFL);
	memset(buf, 1, sizeof(buf));
	for (;;) {
		if (lseek(fd, 0, SEEK_SET) < 0)
			_exit(1);
		for (size_t done = 0; done < p->hog_bytes;) {
			size_t k = p->hog_bytes - done < sizeof(buf)
					   ? p->hog_bytes - done
					   : sizeof(buf);
			ssize_t w = write(fd, buf, k);

			if (w <= 0)
				_exit(1);
			done += (size_t)w;
		}
	}
}

/* Start the writer on an unlinked file in DIR; its pid, 0 for none, -1. */
static pid_t start_hog(const struct st_params *p)
{
	char path[4096];
	pid_t pid, self;
	int fd, n;

	if (!p->hog_bytes)
		return 0;
	n = snprintf(path, sizeof(path), "%s/stutterp.XXXXXX", p->dir);
	if (n < 0 || (size_t)n >= sizeof(path) || (fd = mkstemp(path)) < 0) {
		wl_error(PROG, "cannot create a file in '%s': %s", p->dir,
			 strerror(errno));
		return -1;
	}
	unlink(path);
	fflush(stdout);
	self = getpid();
	pid = fork();
	if (pid < 0)
		wl_error(PROG, "cannot fork: %s", strerror(errno));
	else if (!pid)
		hog_main(p, fd, self);
	close(fd);
	return pid;
}

/* One timed round: map, write each page, unmap. */
static int round_ns(const struct st_params *p, int64_t *ns)
{
	int64_t t0 = wl_now_ns();
	char *map = mmap(NULL, p->map_bytes, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (map == MAP_FAILED) {
		wl_error(PROG, "cannot map %zu bytes: %s", p->map_bytes,
			 strerror(errno));
		return -1;
	}
	for (size_t off = 0; off < p->map_bytes; off += p->page_bytes)
		((volatile char *)map)[off] = 1;
	munmap(map, p->map_bytes);
	*ns = wl_now_ns() - t0;
	return 0;
}

static int run(const struct st_params *p)
{
	int64_t *lat = xcalloc(MAX_SAMPLES, sizeof(*lat));
	int64_t end;
	size_t nr = 0;
	bool failed = false;
	pid_t hog;
	int ret = WL_EXIT_FAILURE;

	if (wl_catch_signals()) {
		wl_error(PROG, "cannot set up signals: %s", strerror(errno));
		goto out;
	}
	hog = start_hog(p);
	if (hog < 0)
		goto out;
	end = wl_now_ns() + (int64_t)(p->seconds * 1e9);
	while (nr < MAX_SAMPLES && wl_now_ns() < end && !wl_interrupted())
		if (round_ns(p, &lat[nr++])) {
			failed = true;
			break;
		}
	if (hog > 0) {
		int status;

		kill(hog, SIGKILL);
		while (waitpid(hog, &status, 0) < 0 && errno == EINTR)
			;
	}
	if (!failed && !wl_interrupted()) {
		wl_print_latencies("map", lat, nr);
		printf("rounds %zu\n", nr);
		ret = WL_EXIT_OK;
	}
out:
	free(lat);
	return wl_check_interrupted(PROG, ret);
}

int main(int argc, char **argv)
{
	static const struct wl_option opts[] = {
		{"seconds", true},
		{"hog", true},
		{"map", true},
		{"dir", true},
	};
	struct wl_args args = WL_ARGS_INIT(PROG, usage_line, argc, argv);
	struct st_params p = {.hog_bytes = (size_t)1 << 30,
			      .map_bytes = (size_t)64 << 10};
	long page = sysconf(_SC_PAGESIZE);
	uint64_t size;
	const char *val;
	int opt;

	if (page <= 0) {
		wl_error(PROG, "cannot get the page size");
		return WL_EXIT_FAILURE;
	}
	p.page_bytes = (size_t)page;
	while ((opt = wl_args_next(&args, opts, ARRAY_SIZE(opts), &val)) >= 0) {
		if (opt == 0 && (!parse_double(val, &p.seconds) ||
				 p.seconds < 0.1 || p.seconds > 86400))
			return wl_bad_value(&args, "seconds", val,
					    "a number in 0.1..86400");
		if (opt == 1 &&
		    (!wl_parse_size(val, 0, UINT64_C(1) << 40, &size) ||
		     size > SIZE_MAX))
			return wl_bad_value(&args, "hog", val, "0 to 1T");
		if (opt == 1)
			p.hog_bytes = (size_t)size;
		if (opt == 2 && (!wl_parse_size(val, p.page_bytes,
						UINT64_C(1) << 30, &size)))
			return wl_bad_value(&args, "map", val, "a page to 1G");
		if (opt == 2)
			p.map_bytes = (size_t)size;
		if (opt == 3)
			p.dir = val;
	}
	if (opt != WL_ARGS_END)
		return wl_main_tail(&args, opt, help_text);
	if (!p.seconds)
		return wl_usage_error(&args, "missing --seconds");
	if (!p.dir)
		p.dir = wl_tmpdir();
	return wl_finish_stdout(PROG, run(&p));
}
