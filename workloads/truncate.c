/* truncate: page-cache fault and truncate cost of sparse files (io-trunc). */
#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "parse-num.h"
#include "util.h"
#include "wl-common.h"

#define PROG "truncate"

/* mmtests' TRUNC_FILESIZE, the size the default file count is based on. */
#define BASE_FILE_BYTES	 (UINT64_C(4) << 30)
#define READ_BUF_BYTES	 ((size_t)1 << 20)
#define QUICK_FILES	 4
#define QUICK_FILE_BYTES (UINT64_C(4) << 20)

_Static_assert(sizeof(off_t) >= 8, "file sizes need a 64-bit off_t");

static const char usage_line[] =
	"truncate [--dir DIR] [--files NR] [--size BYTES] [--quick]";

static const char help_text[] =
	"Page-cache fault and truncate cost of sparse files (mmtests trunc).\n"
	"\n"
	"Creates NR sparse files of SIZE bytes (ftruncate, fsync), reads them\n"
	"all through the page cache with read() and a 1 MiB buffer (the fault\n"
	"phase), then unlinks them (the trunc phase).\n"
	"\n"
	"  --dir DIR      directory for the files; it must exist and is kept\n"
	"                 (default: a new directory under $TMPDIR or /tmp,\n"
	"                 removed afterwards)\n"
	"  --files NR     number of files (1..100000; default as mmtests:\n"
	"                 MemTotal*3/2 / 4G + 1)\n"
	"  --size BYTES   size of each file, suffixes K M G T (default:\n"
	"                 MemTotal*3/2 split evenly between the files)\n"
	"  --quick        small defaults for a quick check: 4 files of 4M\n"
	"\n"
	"Output: six lines, seconds with six decimals, in this order:\n"
	"  Elapsed-fault %.6f      wall-clock time (CLOCK_MONOTONIC)\n"
	"  System-fault %.6f       system time (getrusage RUSAGE_SELF)\n"
	"  User-fault %.6f         user time\n"
	"  Elapsed-trunc %.6f\n"
	"  System-trunc %.6f\n"
	"  User-trunc %.6f\n"
	"Exit status: 0 success, 1 failure, 2 bad usage.\n";

struct trunc_params {
	const char *dir;     /* NULL: make a temporary directory */
	int files;	     /* 0: from MemTotal */
	uint64_t size_bytes; /* 0: from MemTotal */
	bool quick;
};

/* A point in time for both clocks a phase is measured with. */
struct stamp {
	struct timespec wall;
	struct rusage usage;
};

static void stamp_now(struct stamp *s)
{
	clock_gettime(CLOCK_MONOTONIC, &s->wall);
	getrusage(RUSAGE_SELF, &s->usage);
}

static double timeval_diff(const struct timeval *a, const struct timeval *b)
{
	return (double)(b->tv_sec - a->tv_sec) +
	       (double)(b->tv_usec - a->tv_usec) / 1e6;
}

static void print_phase(const char *phase, const struct stamp *a,
			const struct stamp *b)
{
	printf("Elapsed-%s %.6f\n", phase,
	       wl_timespec_diff(&a->wall, &b->wall));
	printf("System-%s %.6f\n", phase,
	       timeval_diff(&a->usage.ru_stime, &b->usage.ru_stime));
	printf("User-%s %.6f\n", phase,
	       timeval_diff(&a->usage.ru_utime, &b->usage.ru_utime));
}

/* Read MemTotal from /proc/meminfo, in bytes. Returns 0 or -1. */
static int mem_total(uint64_t *bytes)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	int ret = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char digits[32];
		const char *p = line + strlen("MemTotal:");
		size_t len = 0;
		int64_t kib;

		if (strncmp(line, "MemTotal:", strlen("MemTotal:")) != 0)
			continue;
		while (*p == ' ' || *p == '\t')
			p++;
		while (p[len] >= '0' && p[len] <= '9' &&
		       len + 1 < sizeof(digits)) {
			digits[len] = p[len];
			len++;
		}
		digits[len] = '\0';
		if (strcmp(p + len, " kB\n") != 0 ||
		    !parse_int64(digits, 1, INT64_MAX / 1024, &kib))
			break;
		*bytes = (uint64_t)kib * 1024;
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

/* Fill in the defaults the command line left open. Returns 0 or -1. */
static int pick_sizes(struct trunc_params *p)
{
	uint64_t total;

	if (p->quick) {
		if (!p->files)
			p->files = QUICK_FILES;
		if (!p->size_bytes)
			p->size_bytes = QUICK_FILE_BYTES;
		return 0;
	}
	if (p->files && p->size_bytes)
		return 0;
	if (mem_total(&total)) {
		wl_error(PROG, "cannot read MemTotal from /proc/meminfo;"
			       " give --files and --size");
		return -1;
	}
	total = total / 2 * 3;
	if (!p->files) {
		uint64_t nr = total / BASE_FILE_BYTES + 1;

		p->files = nr > 100000 ? 100000 : (int)nr;
	}
	if (!p->size_bytes) {
		/* Whole pages, so every file ends on a page boundary. */
		p->size_bytes = total / (uint64_t)p->files / 4096 * 4096;
		if (!p->size_bytes)
			p->size_bytes = 4096;
	}
	return 0;
}

static void file_name(char *buf, size_t len, int i)
{
	snprintf(buf, len, "trunc-%d", i);
}

static int create_files(int dfd, const struct trunc_params *p, int *created)
{
	char name[32];

	for (int i = 0; i < p->files; i++) {
		int fd;

		file_name(name, sizeof(name), i);
		fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			    0600);
		if (fd < 0) {
			wl_error(PROG, "cannot create '%s': %s", name,
				 strerror(errno));
			return -1;
		}
		*created = i + 1;
		if (ftruncate(fd, (off_t)p->size_bytes) || fsync(fd)) {
			wl_error(PROG, "cannot size '%s': %s", name,
				 strerror(errno));
			close(fd);
			return -1;
		}
		if (close(fd)) {
			wl_error(PROG, "cannot close '%s': %s", name,
				 strerror(errno));
			return -1;
		}
	}
	if (fsync(dfd)) {
		wl_error(PROG, "cannot sync the directory: %s",
			 strerror(errno));
		return -1;
	}
	return 0;
}

/* The fault phase: read every file through the page cache. */
static int read_files(int dfd, const struct trunc_params *p)
{
	char *buf = xmalloc(READ_BUF_BYTES);
	char name[32];
	int ret = -1;

	for (int i = 0; i < p->files; i++) {
		uint64_t got = 0;
		ssize_t n;
		int fd;

		file_name(name, sizeof(name), i);
		fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			wl_error(PROG, "cannot open '%s': %s", name,
				 strerror(errno));
			goto out;
		}
		while (!wl_interrupted() &&
		       (n = read(fd, buf, READ_BUF_BYTES)) != 0) {
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				wl_error(PROG, "cannot read '%s': %s", name,
					 strerror(errno));
				close(fd);
				goto out;
			}
			got += (uint64_t)n;
		}
		close(fd);
		if (wl_interrupted())
			goto out;
		if (got != p->size_bytes) {
			wl_error(PROG, "short read of '%s': %" PRIu64 " bytes",
				 name, got);
			goto out;
		}
	}
	ret = 0;
out:
	free(buf);
	return ret;
}

/* Unlink files [from, to); returns 0 or -1 after the first failure. */
static int remove_files(int dfd, int from, int to, int *removed)
{
	char name[32];

	for (int i = from; i < to; i++) {
		file_name(name, sizeof(name), i);
		if (unlinkat(dfd, name, 0)) {
			wl_error(PROG, "cannot remove '%s': %s", name,
				 strerror(errno));
			return -1;
		}
		*removed = i + 1;
	}
	return 0;
}

static int run(struct trunc_params *p)
{
	char tmp[PATH_MAX] = "";
	const char *dir = p->dir;
	struct stamp fault0, fault1, trunc0, trunc1;
	int dfd = -1, created = 0, removed = 0, ret = WL_EXIT_FAILURE;

	if (pick_sizes(p))
		return WL_EXIT_FAILURE;
	if (wl_catch_signals()) {
		wl_error(PROG, "cannot set up signals: %s", strerror(errno));
		return WL_EXIT_FAILURE;
	}
	if (!dir) {
		int len = snprintf(tmp, sizeof(tmp), "%s/mmcmp-truncate.XXXXXX",
				   wl_tmpdir());

		if (len < 0 || (size_t)len >= sizeof(tmp)) {
			wl_error(PROG, "temporary directory name too long");
			return WL_EXIT_FAILURE;
		}
		if (!mkdtemp(tmp)) {
			wl_error(PROG, "cannot create a directory in '%s': %s",
				 wl_tmpdir(), strerror(errno));
			return WL_EXIT_FAILURE;
		}
		dir = tmp;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		wl_error(PROG, "cannot open directory '%s': %s", dir,
			 strerror(errno));
		goto out;
	}
	if (create_files(dfd, p, &created) || wl_interrupted())
		goto out;
	stamp_now(&fault0);
	if (read_files(dfd, p))
		goto out;
	stamp_now(&fault1);
	stamp_now(&trunc0);
	if (remove_files(dfd, 0, created, &removed))
		goto out;
	stamp_now(&trunc1);
	print_phase("fault", &fault0, &fault1);
	print_phase("trunc", &trunc0, &trunc1);
	ret = WL_EXIT_OK;
out:
	if (dfd >= 0) {
		remove_files(dfd, removed, created, &removed);
		close(dfd);
	}
	if (*tmp && rmdir(tmp)) {
		wl_error(PROG, "cannot remove '%s': %s", tmp, strerror(errno));
		ret = WL_EXIT_FAILURE;
	}
	return wl_check_interrupted(PROG, ret);
}

int main(int argc, char **argv)
{
	static const struct wl_option opts[] = {
		{"dir", true},
		{"files", true},
		{"size", true},
		{"quick", false},
	};
	struct wl_args args = WL_ARGS_INIT(PROG, usage_line, argc, argv);
	struct trunc_params p = {0};
	const char *val;
	int opt;

	while ((opt = wl_args_next(&args, opts, ARRAY_SIZE(opts), &val)) >= 0) {
		switch (opt) {
		case 0:
			if (!*val)
				return wl_bad_value(&args, "dir", val,
						    "a directory");
			p.dir = val;
			break;
		case 1:
			if (!parse_int(val, 1, 100000, &p.files))
				return wl_bad_value(&args, "files", val,
						    "an integer in 1..100000");
			break;
		case 2:
			if (!wl_parse_size(val, 1, INT64_MAX, &p.size_bytes))
				return wl_bad_value(&args, "size", val,
						    "a byte count, e.g. 64M");
			break;
		case 3:
			p.quick = true;
			break;
		default:
			BUG("unhandled option %d", opt);
		}
	}
	if (opt != WL_ARGS_END)
		return wl_main_tail(&args, opt, help_text);
	return wl_finish_stdout(PROG, run(&p));
}
