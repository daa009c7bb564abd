/* wis: will-it-scale's mm tests, with mmtests' and the robot's names. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "parse-num.h"
#include "util.h"
#include "wl-common.h"

#define PROG "wis"

/* Per-task counters sit in lines of their own (see page-fault.c). */
#define CACHELINE_BYTES 128

/* Tasks give up this long after the planned end, should the parent vanish. */
#define GRACE_NS (INT64_C(10) * 1000000000)

/* read1 and write1: will-it-scale's 4 KiB transfers over a 1 MiB file. */
#define RW_BUF_BYTES  4096
#define RW_FILE_BYTES ((size_t)1 << 20)

_Static_assert(ATOMIC_LONG_LOCK_FREE == 2, "atomic_ulong is not lock-free");
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "atomic_int is not lock-free");

static const char usage_line[] =
	"wis --test NAME --mode threads|processes --tasks N --seconds S"
	" [--warmup W] [--size BYTES] [--dir DIR]";

static const char help_text[] =
	"will-it-scale's memory-management tests, as mmtests and the kernel\n"
	"test robot run them.\n"
	"\n"
	"  --test NAME     page_fault1  anonymous page faults\n"
	"                  page_fault2  private (copy-on-write) faults on a file\n"
	"                  page_fault3  shared writable faults on a file\n"
	"                  brk1         brk up and down by one page (processes)\n"
	"                  malloc1      malloc and free of SIZE bytes\n"
	"                  mmap1        mmap and munmap of SIZE anonymous bytes\n"
	"                  mmap2        mmap and munmap of a SIZE-byte file\n"
	"                  munmap1      munmap of single faulted pages\n"
	"                  read1        4 KiB reads of a 1 MiB file\n"
	"                  write1       4 KiB writes to a 1 MiB file\n"
	"  --mode threads|processes   run the tasks as threads or processes\n"
	"  --tasks N       number of tasks (1..4096)\n"
	"  --seconds S     measurement samples, one per second (1..86400)\n"
	"  --warmup W      samples before those (0..86400, default 5)\n"
	"  --size BYTES    mapping, file or allocation size, suffixes K M G T\n"
	"                  (a page to 1T, default 128M as will-it-scale)\n"
	"  --dir DIR       where the files of page_fault2/3, mmap2, read1 and\n"
	"                  write1 go (unlinked at once); default /dev/shm (a\n"
	"                  tmpfs) if it is a directory, else $TMPDIR or /tmp\n"
	"\n"
	"Output (will-it-scale's format plus a tasks line), one sample line\n"
	"per second:\n"
	"  testcase:DESCRIPTION\n"
	"  tasks:N\n"
	"  warmup\n"
	"  min:%llu max:%llu total:%llu     (W lines)\n"
	"  measurement\n"
	"  min:%llu max:%llu total:%llu     (S lines)\n"
	"  average:%llu\n"
	"total counts the operations of all tasks in that second (a page\n"
	"fault, a malloc and free, an mmap and munmap, a brk call, a read or\n"
	"a write), min and max the fewest and most of one task; the\n"
	"will-it-scale parser's field per_task is total / N.\n"
	"Exit status: 0 success, 1 failure, 2 bad usage.\n";

enum wis_mode {
	WIS_THREADS,
	WIS_PROCESSES,
};

struct wis_params;

/* One task's private state. */
struct wis_task {
	const struct wis_params *p;
	atomic_ulong *counter;
	unsigned long ops;
	int fd; /* the task's file, or -1 */
};

/* One test: a loop that counts operations until told to stop. */
struct wis_test {
	const char *name;
	const char *description;
	bool processes_only; /* the test changes what threads share */
	bool file;	     /* each task has a file of --size bytes */
	size_t file_bytes;   /* or of this many bytes, if not 0 */
	/* Returns 0 when told to stop, -1 after wis_fail(). */
	int (*loop)(struct wis_task *t);
};

struct wis_params {
	const struct wis_test *test;
	enum wis_mode mode;
	int tasks;
	int seconds;
	int warmup;
	size_t size_bytes;
	size_t page_bytes;
	const char *dir;
	int64_t deadline_ns;
	struct wis_shared *sh;
};

struct wis_slot {
	_Alignas(CACHELINE_BYTES) atomic_ulong ops; /* written by one task */
};

/* Shared by the parent and all tasks: one MAP_SHARED anonymous mapping. */
struct wis_shared {
	_Alignas(CACHELINE_BYTES) atomic_int stop; /* set once by the parent */
	atomic_int failed;	/* set by the first task that fails */
	char fail_what[32];	/* its failed call, written by that task only */
	int fail_errno;		/* likewise */
	struct wis_slot slot[]; /* one per task */
};

struct wis_thread {
	pthread_t tid;
	struct wis_task task;
};

static int wis_fail(struct wis_task *t, const char *what)
{
	struct wis_shared *sh = t->p->sh;
	int expected = 0, err = errno;

	if (atomic_compare_exchange_strong(&sh->failed, &expected, 1)) {
		snprintf(sh->fail_what, sizeof(sh->fail_what), "%s", what);
		sh->fail_errno = err;
	}
	atomic_store(&sh->stop, 1);
	return -1;
}

static bool should_stop(const struct wis_task *t)
{
	return atomic_load_explicit(&t->p->sh->stop, memory_order_relaxed) ||
	       wl_now_ns() >= t->p->deadline_ns;
}

/* Count n more operations. */
static void count(struct wis_task *t, unsigned long n)
{
	t->ops += n;
	atomic_store_explicit(t->counter, t->ops, memory_order_relaxed);
}

/* Write one byte to each page of the map, one operation each. */
static void touch_pages(struct wis_task *t, char *map)
{
	const struct wis_params *p = t->p;

	for (size_t off = 0; off < p->size_bytes; off += p->page_bytes) {
		/* volatile: the store must happen, it is the fault. */
		((volatile char *)map)[off] = 1;
		count(t, 1);
		if (atomic_load_explicit(&p->sh->stop, memory_order_relaxed))
			break;
	}
}

/* page_fault1/2/3: map, write each page, unmap. */
static int fault_loop(struct wis_task *t, int flags, int fd)
{
	while (!should_stop(t)) {
		char *map = mmap(NULL, t->p->size_bytes, PROT_READ | PROT_WRITE,
				 flags, fd, 0);

		if (map == MAP_FAILED)
			return wis_fail(t, "mmap");
		touch_pages(t, map);
		if (munmap(map, t->p->size_bytes))
			return wis_fail(t, "munmap");
	}
	return 0;
}

static int page_fault1(struct wis_task *t)
{
	return fault_loop(t, MAP_PRIVATE | MAP_ANONYMOUS, -1);
}

static int page_fault2(struct wis_task *t)
{
	return fault_loop(t, MAP_PRIVATE, t->fd);
}

static int page_fault3(struct wis_task *t)
{
	return fault_loop(t, MAP_SHARED, t->fd);
}

static int brk1(struct wis_task *t)
{
	/* A page above the break, clear of what malloc may still use. */
	char *addr = (char *)sbrk(0) + t->p->page_bytes;

	if (brk(addr))
		return wis_fail(t, "brk");
	while (!should_stop(t)) {
		if (brk(addr + t->p->page_bytes) || brk(addr))
			return wis_fail(t, "brk");
		count(t, 2);
	}
	return 0;
}

static int malloc1(struct wis_task *t)
{
	while (!should_stop(t)) {
		/* volatile: the compiler may not drop the pair. */
		void *volatile addr = malloc(t->p->size_bytes);

		if (!addr)
			return wis_fail(t, "malloc");
		free(addr);
		count(t, 1);
	}
	return 0;
}

static int map_loop(struct wis_task *t, int flags, int fd)
{
	while (!should_stop(t)) {
		void *map = mmap(NULL, t->p->size_bytes, PROT_READ | PROT_WRITE,
				 flags, fd, 0);

		if (map == MAP_FAILED)
			return wis_fail(t, "mmap");
		if (munmap(map, t->p->size_bytes))
			return wis_fail(t, "munmap");
		count(t, 1);
	}
	return 0;
}

static int mmap1(struct wis_task *t)
{
	return map_loop(t, MAP_PRIVATE | MAP_ANONYMOUS, -1);
}

static int mmap2(struct wis_task *t)
{
	return map_loop(t, MAP_SHARED, t->fd);
}

/* Map SIZE, fault every page, then unmap it a page at a time. */
static int munmap1(struct wis_task *t)
{
	const struct wis_params *p = t->p;

	while (!should_stop(t)) {
		char *map = mmap(NULL, p->size_bytes, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		size_t off = 0;

		if (map == MAP_FAILED)
			return wis_fail(t, "mmap");
		for (; off < p->size_bytes; off += p->page_bytes)
			((volatile char *)map)[off] = 1;
		for (off = 0; off < p->size_bytes; off += p->page_bytes) {
			if (munmap(map + off, p->page_bytes))
				return wis_fail(t, "munmap");
			count(t, 1);
			if (atomic_load_explicit(&p->sh->stop,
						 memory_order_relaxed))
				break;
		}
		off += p->page_bytes;
		if (off < p->size_bytes &&
		    munmap(map + off, p->size_bytes - off))
			return wis_fail(t, "munmap");
	}
	return 0;
}

static int read1(struct wis_task *t)
{
	char buf[RW_BUF_BYTES];

	while (!should_stop(t)) {
		ssize_t n = read(t->fd, buf, sizeof(buf));

		if (n < 0)
			return wis_fail(t, "read");
		if (!n && lseek(t->fd, 0, SEEK_SET) < 0)
			return wis_fail(t, "lseek");
		count(t, 1);
	}
	return 0;
}

static int write1(struct wis_task *t)
{
	char buf[RW_BUF_BYTES];

	memset(buf, 0, sizeof(buf));
	while (!should_stop(t)) {
		off_t pos = lseek(t->fd, 0, SEEK_CUR);

		if (pos < 0)
			return wis_fail(t, "lseek");
		if (pos >= (off_t)RW_FILE_BYTES &&
		    lseek(t->fd, 0, SEEK_SET) < 0)
			return wis_fail(t, "lseek");
		if (write(t->fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			return wis_fail(t, "write");
		count(t, 1);
	}
	return 0;
}

/* will-it-scale's descriptions, so its testcase lines read the same. */
static const struct wis_test tests[] = {
	{"page_fault1", "Anonymous memory page fault", false, false, 0,
	 page_fault1},
	{"page_fault2", "Separate file private mapping page fault", false, true,
	 0, page_fault2},
	{"page_fault3", "Separate file shared mapping page fault", false, true,
	 0, page_fault3},
	{"brk1", "brk increase/decrease of one page", true, false, 0, brk1},
	{"malloc1", "malloc/free of 128MB", false, false, 0, malloc1},
	{"mmap1", "Anonymous memory mmap/munmap of 128MB", false, false, 0,
	 mmap1},
	{"mmap2", "File-backed memory mmap/munmap of 128MB", false, true, 0,
	 mmap2},
	{"munmap1", "munmap of single faulted pages", false, false, 0, munmap1},
	{"read1", "Separate file read", false, true, RW_FILE_BYTES, read1},
	{"write1", "Separate file write", false, true, RW_FILE_BYTES, write1},
};

/* The task's file, unlinked at once: -1 after wis_fail(). */
static int open_file(struct wis_task *t)
{
	const struct wis_test *test = t->p->test;
	size_t bytes = test->file_bytes ? test->file_bytes : t->p->size_bytes;
	char path[4096];
	int n;

	t->fd = -1;
	if (!test->file)
		return 0;
	n = snprintf(path, sizeof(path), "%s/wis.XXXXXX", t->p->dir);
	if (n < 0 || (size_t)n >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return wis_fail(t, "mkstemp");
	}
	t->fd = mkstemp(path);
	if (t->fd < 0)
		return wis_fail(t, "mkstemp");
	unlink(path);
	/* Written, not sparse: the faults find pages in the page cache. */
	for (size_t done = 0; done < bytes;) {
		static const char zero[RW_BUF_BYTES];
		size_t k = bytes - done < sizeof(zero) ? bytes - done
						       : sizeof(zero);
		ssize_t w = write(t->fd, zero, k);

		if (w <= 0)
			return wis_fail(t, "write");
		done += (size_t)w;
	}
	if (lseek(t->fd, 0, SEEK_SET) < 0)
		return wis_fail(t, "lseek");
	return 0;
}

static int task_main(struct wis_task *t)
{
	int ret = open_file(t);

	if (!ret)
		ret = t->p->test->loop(t);
	if (t->fd >= 0)
		close(t->fd);
	return ret;
}

static void *thread_main(void *arg)
{
	struct wis_thread *th = arg;

	task_main(&th->task);
	return NULL;
}

static MMCMP_NORETURN void child_main(struct wis_task *t, pid_t parent)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};

	/* Die with the parent; the check closes the race with its exit. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		signal(sigs[i], SIG_DFL);
	_exit(task_main(t) ? 1 : 0);
}

/* Print one will-it-scale sample line; returns the total. */
static unsigned long long sample(struct wis_shared *sh, int tasks,
				 unsigned long *prev)
{
	unsigned long long min = ULLONG_MAX, max = 0, total = 0;

	for (int i = 0; i < tasks; i++) {
		unsigned long now = atomic_load_explicit(&sh->slot[i].ops,
							 memory_order_relaxed);
		unsigned long long delta = now - prev[i];

		prev[i] = now;
		if (delta < min)
			min = delta;
		if (delta > max)
			max = delta;
		total += delta;
	}
	printf("min:%llu max:%llu total:%llu\n", min, max, total);
	fflush(stdout);
	return total;
}

/* Sample the counters once a second and print the report. */
static int measure(const struct wis_params *p)
{
	struct wis_shared *sh = p->sh;
	unsigned long *prev = xcalloc((size_t)p->tasks, sizeof(*prev));
	unsigned long long sum = 0;
	struct timespec next;
	int ret = -1;

	printf("testcase:%s\ntasks:%d\nwarmup\n", p->test->description,
	       p->tasks);
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (int i = 0; i < p->tasks; i++)
		prev[i] = atomic_load(&sh->slot[i].ops);
	for (int s = 0; s < p->warmup + p->seconds; s++) {
		unsigned long long total;

		if (s == p->warmup) {
			printf("measurement\n");
			fflush(stdout);
		}
		next.tv_sec++;
		if (wl_sleep_until(&next) || atomic_load(&sh->failed))
			goto out;
		total = sample(sh, p->tasks, prev);
		if (s >= p->warmup)
			sum += total;
	}
	printf("average:%llu\n", sum / (unsigned long long)p->seconds);
	ret = 0;
out:
	free(prev);
	return ret;
}

static void task_init(struct wis_task *t, const struct wis_params *p, int i)
{
	t->p = p;
	t->counter = &p->sh->slot[i].ops;
	t->ops = 0;
	t->fd = -1;
}

static int run_threads(const struct wis_params *p)
{
	struct wis_thread *th = xcalloc((size_t)p->tasks, sizeof(*th));
	sigset_t all, old;
	int started = 0, ret = -1;

	/* Workers block the caught signals, so they reach the sampler. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (; started < p->tasks; started++) {
		int err;

		task_init(&th[started].task, p, started);
		err = pthread_create(&th[started].tid, NULL, thread_main,
				     &th[started]);
		if (err) {
			wl_error(PROG, "cannot create thread: %s",
				 strerror(err));
			break;
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (started == p->tasks)
		ret = measure(p);
	atomic_store(&p->sh->stop, 1);
	for (int i = 0; i < started; i++)
		pthread_join(th[i].tid, NULL);
	free(th);
	return ret;
}

static int run_processes(const struct wis_params *p)
{
	pid_t *pids = xcalloc((size_t)p->tasks, sizeof(*pids));
	pid_t self = getpid();
	int started = 0, ret = -1;

	fflush(stdout);
	for (; started < p->tasks; started++) {
		struct wis_task t;
		pid_t pid;

		task_init(&t, p, started);
		pid = fork();
		if (pid < 0) {
			wl_error(PROG, "cannot fork: %s", strerror(errno));
			break;
		}
		if (!pid)
			child_main(&t, self);
		pids[started] = pid;
	}
	if (started == p->tasks)
		ret = measure(p);
	atomic_store(&p->sh->stop, 1);
	if (wl_reap(PROG, pids, started, "task", false))
		ret = -1;
	free(pids);
	return ret;
}

static int run(struct wis_params *p)
{
	size_t len = sizeof(struct wis_shared) +
		     (size_t)p->tasks * sizeof(struct wis_slot);
	int ret;

	if (wl_catch_signals()) {
		wl_error(PROG, "cannot set up signals: %s", strerror(errno));
		return WL_EXIT_FAILURE;
	}
	p->sh = mmap(NULL, len, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p->sh == MAP_FAILED) {
		wl_error(PROG, "cannot map counters: %s", strerror(errno));
		return WL_EXIT_FAILURE;
	}
	p->deadline_ns = wl_now_ns() +
			 (int64_t)(p->warmup + p->seconds) * 1000000000 +
			 GRACE_NS;
	if (p->mode == WIS_THREADS)
		ret = run_threads(p);
	else
		ret = run_processes(p);
	if (atomic_load(&p->sh->failed)) {
		wl_error(PROG, "%s: %s failed: %s", p->test->name,
			 p->sh->fail_what, strerror(p->sh->fail_errno));
		ret = -1;
	}
	munmap(p->sh, len);
	return wl_check_interrupted(PROG, ret ? WL_EXIT_FAILURE : WL_EXIT_OK);
}

static const struct wis_test *find_test(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(tests); i++)
		if (!strcmp(tests[i].name, name))
			return &tests[i];
	return NULL;
}

static const char *default_dir(void)
{
	struct stat st;

	if (!stat("/dev/shm", &st) && S_ISDIR(st.st_mode))
		return "/dev/shm";
	return wl_tmpdir();
}

/* The checks after the option scan; 0 or a usage error's exit status. */
static int check_params(const struct wl_args *args, const struct wis_params *p,
			bool have_mode)
{
	if (!p->test)
		return wl_usage_error(args, "missing --test");
	if (!have_mode)
		return wl_usage_error(args, "missing --mode");
	if (!p->tasks)
		return wl_usage_error(args, "missing --tasks");
	if (!p->seconds)
		return wl_usage_error(args, "missing --seconds");
	if (p->test->processes_only && p->mode == WIS_THREADS)
		return wl_usage_error(args,
				      "%s runs as processes only: threads"
				      " would share one break",
				      p->test->name);
	return 0;
}

static int parse_option(const struct wl_args *args, int opt, const char *val,
			struct wis_params *p, bool *have_mode)
{
	uint64_t size;

	switch (opt) {
	case 0:
		p->test = find_test(val);
		if (!p->test)
			return wl_bad_value(args, "test", val,
					    "see --help for the tests");
		break;
	case 1:
		if (!strcmp(val, "threads"))
			p->mode = WIS_THREADS;
		else if (!strcmp(val, "processes"))
			p->mode = WIS_PROCESSES;
		else
			return wl_bad_value(args, "mode", val,
					    "threads or processes");
		*have_mode = true;
		break;
	case 2:
		if (!parse_int(val, 1, 4096, &p->tasks))
			return wl_bad_value(args, "tasks", val,
					    "an integer in 1..4096");
		break;
	case 3:
		if (!parse_int(val, 1, 86400, &p->seconds))
			return wl_bad_value(args, "seconds", val,
					    "an integer in 1..86400");
		break;
	case 4:
		if (!parse_int(val, 0, 86400, &p->warmup))
			return wl_bad_value(args, "warmup", val,
					    "an integer in 0..86400");
		break;
	case 5:
		if (!wl_parse_size(val, p->page_bytes, UINT64_C(1) << 40,
				   &size) ||
		    size > SIZE_MAX)
			return wl_bad_value(args, "size", val, "a page to 1T");
		p->size_bytes = (size_t)size;
		break;
	case 6:
		p->dir = val;
		break;
	default:
		BUG("unhandled option %d", opt);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct wl_option opts[] = {
		{"test", true},	   {"mode", true},   {"tasks", true},
		{"seconds", true}, {"warmup", true}, {"size", true},
		{"dir", true},
	};
	struct wl_args args = WL_ARGS_INIT(PROG, usage_line, argc, argv);
	struct wis_params p = {
		.mode = WIS_THREADS,
		.warmup = 5,
		.size_bytes = (size_t)128 << 20,
	};
	bool have_mode = false;
	const char *val;
	long page = sysconf(_SC_PAGESIZE);
	int opt, st;

	if (page <= 0) {
		wl_error(PROG, "cannot get the page size");
		return WL_EXIT_FAILURE;
	}
	p.page_bytes = (size_t)page;
	while ((opt = wl_args_next(&args, opts, ARRAY_SIZE(opts), &val)) >= 0)
		if ((st = parse_option(&args, opt, val, &p, &have_mode)))
			return st;
	if (opt != WL_ARGS_END)
		return wl_main_tail(&args, opt, help_text);
	if ((st = check_params(&args, &p, have_mode)))
		return st;
	if (!p.dir)
		p.dir = default_dir();
	return wl_finish_stdout(PROG, run(&p));
}
