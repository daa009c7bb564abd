/* sembench: SysV semaphore hand-offs and contention between processes. */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/sem.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "parse-num.h"
#include "util.h"
#include "wl-common.h"

#define PROG "sembench"

#define CACHELINE_BYTES 128

_Static_assert(ATOMIC_LONG_LOCK_FREE == 2, "atomic_ulong is not lock-free");

static const char usage_line[] =
	"sembench --mode ring|shared --tasks N --seconds S";

static const char help_text[] =
	"SysV semaphores between processes (after mmtests' sembench).\n"
	"\n"
	"  --mode ring     N processes pass one token around a ring of N\n"
	"                  semaphores: each waits on its own and posts the\n"
	"                  next one's, so every operation is a wake-up\n"
	"  --mode shared   N processes take and give back one semaphore of\n"
	"                  value 1, contending for it\n"
	"  --tasks N       processes (1..1024)\n"
	"  --seconds S     samples, one per second (1..86400)\n"
	"\n"
	"Output: one \"ops VALUE\" line per second, the semaphore waits that\n"
	"succeeded in it, all processes together.\n"
	"Exit status: 0 success, 1 failure, 2 bad usage.\n";

struct sb_slot {
	_Alignas(CACHELINE_BYTES) atomic_ulong ops;
};

struct sb_params {
	bool ring;
	int tasks;
	int seconds;
	int semid;
	struct sb_slot *slot;
};

static int sem_add(int semid, int sem, int delta)
{
	struct sembuf op = {(unsigned short)sem, (short)delta, 0};

	return semop(semid, &op, 1);
}

/* One process: loops until the set is removed (EIDRM, EINVAL). */
static MMCMP_NORETURN void sb_child(const struct sb_params *p, int i,
				    pid_t parent)
{
	int mine = p->ring ? i : 0;
	int next = p->ring ? (i + 1) % p->tasks : 0;
	unsigned long ops = 0;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	for (;;) {
		if (sem_add(p->semid, mine, -1))
			break;
		atomic_store_explicit(&p->slot[i].ops, ++ops,
				      memory_order_relaxed);
		if (sem_add(p->semid, next, 1))
			break;
	}
	_exit(errno == EIDRM || errno == EINVAL ? 0 : 1);
}

static unsigned long total_ops(const struct sb_params *p)
{
	unsigned long sum = 0;

	for (int i = 0; i < p->tasks; i++)
		sum += atomic_load_explicit(&p->slot[i].ops,
					    memory_order_relaxed);
	return sum;
}

/* Print a sample a second; -1 if interrupted. */
static int measure(const struct sb_params *p)
{
	unsigned long prev = total_ops(p);
	struct timespec next;

	clock_gettime(CLOCK_MONOTONIC, &next);
	for (int s = 0; s < p->seconds; s++) {
		unsigned long now;
		int ret;

		next.tv_sec++;
		do {
			ret = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME,
					      &next, NULL);
		} while (ret == EINTR && !wl_interrupted());
		if (ret)
			return -1;
		now = total_ops(p);
		printf("ops %lu\n", now - prev);
		fflush(stdout);
		prev = now;
	}
	return 0;
}

static int start(struct sb_params *p, pid_t *pids)
{
	pid_t self = getpid();
	int started = 0;

	fflush(stdout);
	for (; started < p->tasks; started++) {
		pid_t pid = fork();

		if (pid < 0) {
			wl_error(PROG, "cannot fork: %s", strerror(errno));
			break;
		}
		if (!pid)
			sb_child(p, started, self);
		pids[started] = pid;
	}
	return started;
}

static int run(struct sb_params *p)
{
	size_t len = (size_t)p->tasks * sizeof(struct sb_slot);
	pid_t *pids = xcalloc((size_t)p->tasks, sizeof(*pids));
	int started = 0, ret = -1;

	if (wl_catch_signals()) {
		wl_error(PROG, "cannot set up signals: %s", strerror(errno));
		goto out;
	}
	p->slot = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p->slot == MAP_FAILED) {
		wl_error(PROG, "cannot map counters: %s", strerror(errno));
		goto out;
	}
	p->semid =
		semget(IPC_PRIVATE, p->ring ? p->tasks : 1, IPC_CREAT | 0600);
	if (p->semid < 0) {
		wl_error(PROG, "cannot create semaphores: %s", strerror(errno));
		munmap(p->slot, len);
		goto out;
	}
	/* The token, or the one unit of the shared semaphore. */
	if (sem_add(p->semid, 0, 1))
		wl_error(PROG, "cannot post the semaphore: %s",
			 strerror(errno));
	else if ((started = start(p, pids)) == p->tasks)
		ret = measure(p);
	else
		ret = -1;
	/* Removing the set wakes every waiter with EIDRM: they exit. */
	semctl(p->semid, 0, IPC_RMID);
	if (wl_reap(PROG, pids, started > 0 ? started : 0, "process", true))
		ret = -1;
	munmap(p->slot, len);
out:
	free(pids);
	return wl_check_interrupted(PROG, ret ? WL_EXIT_FAILURE : WL_EXIT_OK);
}

int main(int argc, char **argv)
{
	static const struct wl_option opts[] = {
		{"mode", true},
		{"tasks", true},
		{"seconds", true},
	};
	struct wl_args args = WL_ARGS_INIT(PROG, usage_line, argc, argv);
	struct sb_params p = {.tasks = 0};
	bool have_mode = false;
	const char *val;
	int opt;

	while ((opt = wl_args_next(&args, opts, ARRAY_SIZE(opts), &val)) >= 0) {
		switch (opt) {
		case 0:
			if (strcmp(val, "ring") && strcmp(val, "shared"))
				return wl_bad_value(&args, "mode", val,
						    "ring or shared");
			p.ring = !strcmp(val, "ring");
			have_mode = true;
			break;
		case 1:
			if (!parse_int(val, 1, 1024, &p.tasks))
				return wl_bad_value(&args, "tasks", val,
						    "an integer in 1..1024");
			break;
		case 2:
			if (!parse_int(val, 1, 86400, &p.seconds))
				return wl_bad_value(&args, "seconds", val,
						    "an integer in 1..86400");
			break;
		default:
			BUG("unhandled option %d", opt);
		}
	}
	if (opt != WL_ARGS_END)
		return wl_main_tail(&args, opt, help_text);
	if (!have_mode)
		return wl_usage_error(&args, "missing --mode");
	if (!p.tasks)
		return wl_usage_error(&args, "missing --tasks");
	if (!p.seconds)
		return wl_usage_error(&args, "missing --seconds");
	return wl_finish_stdout(PROG, run(&p));
}
