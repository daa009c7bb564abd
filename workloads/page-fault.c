/* page-fault: anonymous page-fault scaling, as will-it-scale page_fault1. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "parse-num.h"
#include "util.h"
#include "wl-common.h"

#define PROG "page-fault"

/*
 * Per-task counters sit in lines of their own, so a task's updates never
 * bounce a line another task writes; 128 bytes also keeps the adjacent-line
 * prefetcher from pairing them.
 */
#define CACHELINE_BYTES 128

/* Tasks give up this long after the planned end, should the parent vanish. */
#define GRACE_NS (INT64_C(10) * 1000000000)

/* The counters live in shared memory for processes, so must be lock-free. */
_Static_assert(ATOMIC_LONG_LOCK_FREE == 2, "atomic_ulong is not lock-free");
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "atomic_int is not lock-free");

static const char usage_line[] =
	"page-fault --mode threads|processes --tasks N --seconds S"
	" [--warmup W] [--size BYTES] [--hugepage always|never|default]";

static const char help_text[] =
	"Anonymous page-fault scalability (will-it-scale page_fault1).\n"
	"\n"
	"Each of N tasks (threads or processes) repeatedly maps SIZE bytes of\n"
	"private anonymous memory, writes one byte to each base page and\n"
	"unmaps it. Each written page counts as one operation.\n"
	"\n"
	"  --mode threads|processes   run the tasks as threads or processes\n"
	"  --tasks N                  number of tasks (1..4096)\n"
	"  --seconds S                measurement samples, one per second\n"
	"                             (1..86400)\n"
	"  --warmup W                 samples before those (0..86400,\n"
	"                             default 5)\n"
	"  --size BYTES               mapping size, suffixes K M G T\n"
	"                             (a page to 1T, default 128M)\n"
	"  --hugepage always|never|default\n"
	"                             madvise each mapping MADV_HUGEPAGE,\n"
	"                             MADV_NOHUGEPAGE, or not at all; default\n"
	"                             $PAGE_FAULT_HUGEPAGE, else default\n"
	"\n"
	"Output (will-it-scale's format), one sample line per second:\n"
	"  testcase:Anonymous memory page fault\n"
	"  warmup\n"
	"  min:%llu max:%llu total:%llu     (W lines)\n"
	"  measurement\n"
	"  min:%llu max:%llu total:%llu     (S lines)\n"
	"  average:%llu\n"
	"total is the pages written by all tasks in that second, min and max\n"
	"the fewest and most by one task; average is the mean measurement\n"
	"total. Exit status: 0 success, 1 failure, 2 bad usage.\n";

enum pf_mode {
	PF_THREADS,
	PF_PROCESSES,
};

/* What a task was doing when it failed. */
enum pf_op {
	PF_OP_NONE,
	PF_OP_MMAP,
	PF_OP_MADVISE,
	PF_OP_MUNMAP,
};

struct pf_params {
	enum pf_mode mode;
	int tasks;
	int seconds;
	int warmup;
	size_t size_bytes;
	size_t page_bytes;
	int advice;	     /* MADV_* for each mapping, or -1 for none */
	int64_t deadline_ns; /* CLOCK_MONOTONIC time at which tasks give up */
};

struct pf_slot {
	_Alignas(CACHELINE_BYTES) atomic_ulong pages; /* written by one task */
};

/*
 * State shared by the parent and all tasks: one MAP_SHARED anonymous
 * mapping, so that it works the same for threads and processes.
 */
struct pf_shared {
	_Alignas(CACHELINE_BYTES) atomic_int stop; /* set once by the parent */
	atomic_int failed;     /* set by the first task that fails */
	int fail_op;	       /* enum pf_op, written by that task only */
	int fail_errno;	       /* likewise */
	struct pf_slot slot[]; /* one per task */
};

struct pf_thread {
	pthread_t tid;
	struct pf_shared *sh;
	const struct pf_params *params;
	int idx;
};

static void task_fail(struct pf_shared *sh, enum pf_op op, int err)
{
	int expected = 0;

	if (atomic_compare_exchange_strong(&sh->failed, &expected, 1)) {
		sh->fail_op = op;
		sh->fail_errno = err;
	}
	atomic_store(&sh->stop, 1);
}

static bool should_stop(struct pf_shared *sh)
{
	return atomic_load_explicit(&sh->stop, memory_order_relaxed);
}

/* One task: fault in mappings until told to stop. Returns 0 or -1. */
static int pf_task(struct pf_shared *sh, int idx, const struct pf_params *p)
{
	atomic_ulong *counter = &sh->slot[idx].pages;
	unsigned long pages = 0;

	while (!should_stop(sh) && wl_now_ns() < p->deadline_ns) {
		char *map = mmap(NULL, p->size_bytes, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (map == MAP_FAILED) {
			task_fail(sh, PF_OP_MMAP, errno);
			return -1;
		}
		if (p->advice >= 0 && madvise(map, p->size_bytes, p->advice)) {
			task_fail(sh, PF_OP_MADVISE, errno);
			munmap(map, p->size_bytes);
			return -1;
		}
		for (size_t off = 0; off < p->size_bytes;
		     off += p->page_bytes) {
			/* volatile: the store must happen, it is the fault. */
			((volatile char *)map)[off] = 1;
			atomic_store_explicit(counter, ++pages,
					      memory_order_relaxed);
			if (should_stop(sh))
				break;
		}
		if (munmap(map, p->size_bytes)) {
			task_fail(sh, PF_OP_MUNMAP, errno);
			return -1;
		}
	}
	return 0;
}

static void *pf_thread_main(void *arg)
{
	struct pf_thread *t = arg;

	pf_task(t->sh, t->idx, t->params);
	return NULL;
}

static MMCMP_NORETURN void pf_child_main(struct pf_shared *sh, int idx,
					 const struct pf_params *p,
					 pid_t parent)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};

	/* Die with the parent; the check closes the race with its exit. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	/* The parent's handlers only set a flag the child never reads. */
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		signal(sigs[i], SIG_DFL);
	_exit(pf_task(sh, idx, p) ? 1 : 0);
}

/* Print one will-it-scale sample line; returns the total. */
static unsigned long long sample(struct pf_shared *sh, int tasks,
				 unsigned long *prev)
{
	unsigned long long min = ULLONG_MAX, max = 0, total = 0;

	for (int i = 0; i < tasks; i++) {
		unsigned long now = atomic_load_explicit(&sh->slot[i].pages,
							 memory_order_relaxed);
		/* Unsigned arithmetic stays right across a wrap. */
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
static int measure(struct pf_shared *sh, const struct pf_params *p)
{
	unsigned long *prev = xcalloc((size_t)p->tasks, sizeof(*prev));
	unsigned long long sum = 0;
	struct timespec next;
	int ret = -1;

	printf("testcase:Anonymous memory page fault\nwarmup\n");
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (int i = 0; i < p->tasks; i++)
		prev[i] = atomic_load(&sh->slot[i].pages);
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

static int run_threads(struct pf_shared *sh, const struct pf_params *p)
{
	struct pf_thread *threads = xcalloc((size_t)p->tasks, sizeof(*threads));
	sigset_t all, old;
	int started = 0, ret = -1;

	/* Workers block the caught signals, so they reach the sampler. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (; started < p->tasks; started++) {
		struct pf_thread *t = &threads[started];
		int err;

		t->sh = sh;
		t->params = p;
		t->idx = started;
		err = pthread_create(&t->tid, NULL, pf_thread_main, t);
		if (err) {
			wl_error(PROG, "cannot create thread: %s",
				 strerror(err));
			break;
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (started == p->tasks)
		ret = measure(sh, p);
	atomic_store(&sh->stop, 1);
	for (int i = 0; i < started; i++)
		pthread_join(threads[i].tid, NULL);
	free(threads);
	return ret;
}

static int run_processes(struct pf_shared *sh, const struct pf_params *p)
{
	pid_t *pids = xcalloc((size_t)p->tasks, sizeof(*pids));
	pid_t self = getpid();
	int started = 0, ret = -1;

	fflush(stdout);
	for (; started < p->tasks; started++) {
		pid_t pid = fork();

		if (pid < 0) {
			wl_error(PROG, "cannot fork: %s", strerror(errno));
			break;
		}
		if (!pid)
			pf_child_main(sh, started, p, self);
		pids[started] = pid;
	}
	if (started == p->tasks)
		ret = measure(sh, p);
	atomic_store(&sh->stop, 1);
	if (wl_reap(PROG, pids, started, "task", false))
		ret = -1;
	free(pids);
	return ret;
}

static const char *op_name(int op)
{
	switch (op) {
	case PF_OP_MMAP:
		return "mmap";
	case PF_OP_MADVISE:
		return "madvise";
	case PF_OP_MUNMAP:
		return "munmap";
	default:
		return "?";
	}
}

/* Check once, before any task starts, that the advice is supported. */
static int probe_advice(const struct pf_params *p)
{
	char *map;
	int ret = 0;

	if (p->advice < 0)
		return 0;
	map = mmap(NULL, p->page_bytes, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		wl_error(PROG, "cannot map memory: %s", strerror(errno));
		return -1;
	}
	if (madvise(map, p->page_bytes, p->advice)) {
		wl_error(PROG, "madvise(%s) is not supported: %s",
			 p->advice == MADV_HUGEPAGE ? "MADV_HUGEPAGE"
						    : "MADV_NOHUGEPAGE",
			 strerror(errno));
		ret = -1;
	}
	munmap(map, p->page_bytes);
	return ret;
}

static int run(struct pf_params *p)
{
	size_t len = sizeof(struct pf_shared) +
		     (size_t)p->tasks * sizeof(struct pf_slot);
	struct pf_shared *sh;
	int ret;

	if (probe_advice(p))
		return WL_EXIT_FAILURE;
	if (wl_catch_signals()) {
		wl_error(PROG, "cannot set up signals: %s", strerror(errno));
		return WL_EXIT_FAILURE;
	}
	sh = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		  -1, 0);
	if (sh == MAP_FAILED) {
		wl_error(PROG, "cannot map counters: %s", strerror(errno));
		return WL_EXIT_FAILURE;
	}
	p->deadline_ns = wl_now_ns() +
			 (int64_t)(p->warmup + p->seconds) * 1000000000 +
			 GRACE_NS;
	if (p->mode == PF_THREADS)
		ret = run_threads(sh, p);
	else
		ret = run_processes(sh, p);
	if (atomic_load(&sh->failed)) {
		wl_error(PROG, "%s of %zu bytes failed: %s",
			 op_name(sh->fail_op), p->size_bytes,
			 strerror(sh->fail_errno));
		ret = -1;
	}
	munmap(sh, len);
	return wl_check_interrupted(PROG, ret ? WL_EXIT_FAILURE : WL_EXIT_OK);
}

/* --hugepage and $PAGE_FAULT_HUGEPAGE: returns 0, or -1 for a bad value. */
static int parse_advice(const char *s, int *advice)
{
	if (!strcmp(s, "always"))
		*advice = MADV_HUGEPAGE;
	else if (!strcmp(s, "never"))
		*advice = MADV_NOHUGEPAGE;
	else if (!strcmp(s, "default"))
		*advice = -1;
	else
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct wl_option opts[] = {
		{"mode", true},	  {"tasks", true}, {"seconds", true},
		{"warmup", true}, {"size", true},  {"hugepage", true},
	};
	struct wl_args args = WL_ARGS_INIT(PROG, usage_line, argc, argv);
	struct pf_params p = {
		.mode = PF_THREADS,
		.warmup = 5,
		.size_bytes = (size_t)128 << 20,
		.advice = -1,
	};
	bool have_mode = false, have_advice = false;
	const char *val;
	long page = sysconf(_SC_PAGESIZE);
	uint64_t size;
	int opt;

	if (page <= 0) {
		wl_error(PROG, "cannot get the page size");
		return WL_EXIT_FAILURE;
	}
	p.page_bytes = (size_t)page;
	while ((opt = wl_args_next(&args, opts, ARRAY_SIZE(opts), &val)) >= 0) {
		switch (opt) {
		case 0:
			if (!strcmp(val, "threads"))
				p.mode = PF_THREADS;
			else if (!strcmp(val, "processes"))
				p.mode = PF_PROCESSES;
			else
				return wl_bad_value(&args, "mode", val,
						    "threads or processes");
			have_mode = true;
			break;
		case 1:
			if (!parse_int(val, 1, 4096, &p.tasks))
				return wl_bad_value(&args, "tasks", val,
						    "an integer in 1..4096");
			break;
		case 2:
			if (!parse_int(val, 1, 86400, &p.seconds))
				return wl_bad_value(&args, "seconds", val,
						    "an integer in 1..86400");
			break;
		case 3:
			if (!parse_int(val, 0, 86400, &p.warmup))
				return wl_bad_value(&args, "warmup", val,
						    "an integer in 0..86400");
			break;
		case 4:
			if (!wl_parse_size(val, p.page_bytes, UINT64_C(1) << 40,
					   &size) ||
			    size > SIZE_MAX)
				return wl_bad_value(&args, "size", val,
						    "a page to 1T");
			p.size_bytes = (size_t)size;
			break;
		case 5:
			if (parse_advice(val, &p.advice))
				return wl_bad_value(&args, "hugepage", val,
						    "always, never or default");
			have_advice = true;
			break;
		default:
			BUG("unhandled option %d", opt);
		}
	}
	if (opt != WL_ARGS_END)
		return wl_main_tail(&args, opt, help_text);
	/* Lets a config select the advice per build through the environment. */
	val = getenv("PAGE_FAULT_HUGEPAGE");
	if (!have_advice && val && *val && parse_advice(val, &p.advice))
		return wl_usage_error(&args,
				      "invalid PAGE_FAULT_HUGEPAGE '%s'"
				      " (always, never or default)",
				      val);
	if (!have_mode)
		return wl_usage_error(&args, "missing --mode");
	if (!p.tasks)
		return wl_usage_error(&args, "missing --tasks");
	if (!p.seconds)
		return wl_usage_error(&args, "missing --seconds");
	return wl_finish_stdout(PROG, run(&p));
}
