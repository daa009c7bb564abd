/* runner: run one command in its own process group and measure it. */
/* For environ, vfork() and pipe2(). */
#define _GNU_SOURCE
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "machine.h"
#include "strbuf.h"
#include "util.h"

#define NS_PER_S	 1000000000ULL
#define NS_PER_MS	 1000000ULL
#define DEFAULT_GRACE_NS (5 * NS_PER_S)
#define DEFAULT_OUT_MAX	 ((size_t)64 << 20)
#define DEFAULT_TAIL	 ((size_t)4 << 10)
#define READ_CHUNK	 65536
/* How often *stop is looked at when no signal interrupts poll(). */
#define STOP_POLL_MS 100
/* Longest sleep between exit checks when there is no pidfd. */
#define IDLE_MAX_MS 64
/* How long the pipes are still read after the child has been reaped. */
#define DRAIN_NS (100 * NS_PER_MS)
/* How long the killed group's processes are waited for after the reap. */
#define SWEEP_NS       (1000 * NS_PER_MS)
#define SWEEP_PAUSE_NS (2 * NS_PER_MS)

/* The parent's ends of the pipes, and the pidfd when the kernel has one. */
enum { FD_OUT, FD_ERR, FD_PID, FD_NR };

/* The step that kept the command from starting. */
enum exec_stage { STAGE_CHDIR, STAGE_EXEC, STAGE_CGROUP };

struct run_state {
	const struct runner_opts *opts;
	struct runner_result *res;
	pid_t pid;
	int fd[FD_NR];	  /* parent side; -1 when closed */
	int out_w, err_w; /* the child's stdout and stderr */
	size_t out_max, tail_max;
	uint64_t deadline_ns; /* real clock; 0 when there is no timeout */
	uint64_t tick_ns;     /* opts->tick_s; 0: no ticks */
	uint64_t next_tick_ns;
	uint64_t grace_ns;
	uint64_t kill_at_ns;
	bool killing; /* SIGTERM sent; reason says why */
	bool killed;  /* SIGKILL sent after the grace period */
	enum runner_status reason;
	int idle_ms;
	int wstatus;
	struct rusage ru;
	int64_t start_ticks; /* the child's start (machine_proc_start()) */
	pid_t *strays;	     /* killed processes that had left the group */
	size_t strays_nr, strays_alloc;
	/*
	 * The guard's socket when the guard runs the command (-1: we do),
	 * and what it reports: its clock at the spawn and after the reap.
	 */
	int guard_fd;
	uint64_t guard_t0_ns, guard_t1_ns;
	uint64_t guard_strays;
};

const char *runner_status_name(enum runner_status status)
{
	switch (status) {
	case RUNNER_OK:
		return "ok";
	case RUNNER_EXIT:
		return "exit";
	case RUNNER_SIGNAL:
		return "signal";
	case RUNNER_TIMEOUT:
		return "timeout";
	case RUNNER_INTERRUPTED:
		return "interrupted";
	case RUNNER_EXEC:
		return "exec";
	}
	BUG("unknown runner status %d", (int)status);
}

void runner_result_release(struct runner_result *result)
{
	if (!result)
		return;
	strbuf_release(&result->out);
	strbuf_release(&result->err_tail);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		BUG("CLOCK_MONOTONIC is not available");
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

static uint64_t clock_now(const struct runner_opts *opts)
{
	if (opts->ops && opts->ops->now_ns)
		return opts->ops->now_ns(opts->ops->ctx);
	return mono_ns();
}

/* Seconds as nanoseconds; 0 for "not set" (zero, negative, NaN, huge). */
static uint64_t seconds_to_ns(double s)
{
	if (!(s > 0.0) || s > 1e9)
		return 0;
	return (uint64_t)(s * 1e9);
}

static double timeval_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/*
 * Move fd, which is close-on-exec, above 2 if it is not already, so that
 * the child's dup2() onto 0, 1 and 2 never meets one of its own sources.
 * Returns the fd to use, or -1 (fd closed) on failure.
 */
static int above_stderr(int fd)
{
	int moved;

	if (fd > STDERR_FILENO)
		return fd;
	moved = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
	close(fd);
	return moved;
}

/*
 * A pipe with both ends close-on-exec, so that only what the child
 * dup2()s reaches the command, and above 2; the read end is non-blocking.
 */
static int open_pipe(int *rd, int *wr, struct strbuf *err)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC))
		return error_addf(err, "cannot create a pipe: %s",
				  strerror(errno));
	*rd = above_stderr(p[0]);
	*wr = above_stderr(p[1]);
	/* A new pipe has no other status flag to keep. */
	if (*rd < 0 || *wr < 0 || fcntl(*rd, F_SETFL, O_NONBLOCK)) {
		error_addf(err, "cannot set up a pipe: %s", strerror(errno));
		close_fd(rd);
		close_fd(wr);
		return -1;
	}
	return 0;
}

static int open_fds(struct run_state *st, struct strbuf *err)
{
	if (open_pipe(&st->fd[FD_OUT], &st->out_w, err) ||
	    open_pipe(&st->fd[FD_ERR], &st->err_w, err))
		return -1;
	return 0;
}

static void close_child_fds(struct run_state *st)
{
	close_fd(&st->out_w);
	close_fd(&st->err_w);
}

/* Whether the child could chdir() to dir: 0, or the errno it would get. */
static int dir_error(const char *dir)
{
	struct stat sb;

	if (stat(dir, &sb))
		return errno;
	if (!S_ISDIR(sb.st_mode))
		return ENOTDIR;
	return access(dir, X_OK) ? errno : 0;
}

/*
 * Whether file is an executable regular file: 0, or an errno. A relative
 * file is looked for under cwd, where the child will execute it.
 */
static int exec_error(const char *cwd, const char *file, struct strbuf *tmp)
{
	struct stat sb;

	if (cwd && *file != '/') {
		strbuf_reset(tmp);
		strbuf_addf(tmp, "%s/%s", cwd, file);
		file = tmp->buf;
	}
	if (access(file, X_OK) || stat(file, &sb))
		return errno;
	return S_ISREG(sb.st_mode) ? 0 : EACCES;
}

/* The PATH the child will have: that of opts->env, else ours, or NULL. */
static const char *child_path(const struct runner_opts *opts)
{
	const char *path = NULL;

	for (char *const *e = opts->env; e && *e && !path; e++)
		if (!strncmp(*e, "PATH=", 5))
			path = *e + 5;
	return path ? path : getenv("PATH");
}

int runner_find_program(const char *name, const char *path, const char *cwd,
			struct strbuf *file)
{
	struct strbuf tmp = STRBUF_INIT;
	bool eacces = false;
	int e;

	strbuf_reset(file);
	if (!path)
		path = "/bin:/usr/bin"; /* what glibc's execvp() uses */
	if (strchr(name, '/')) {
		strbuf_addstr(file, name);
		e = exec_error(cwd, name, &tmp);
		strbuf_release(&tmp);
		return e;
	}
	if (!*name)
		return ENOENT;
	for (;;) {
		const char *end = strchr(path, ':');

		if (!end)
			end = path + strlen(path);
		strbuf_reset(file);
		if (end == path)
			strbuf_addch(file, '.');
		else
			strbuf_add(file, path, (size_t)(end - path));
		strbuf_addf(file, "/%s", name);
		e = exec_error(cwd, file->buf, &tmp);
		if (e == EACCES)
			eacces = true;
		else if (e != ENOENT && e != ENOTDIR && e != ENAMETOOLONG &&
			 e != ELOOP)
			break; /* found it, or an error execvp() gives up on */
		if (!*end) {
			e = eacces ? EACCES : ENOENT;
			break;
		}
		path = end + 1;
	}
	strbuf_release(&tmp);
	return e;
}

void runner_lookup_release(struct runner_lookup *l)
{
	free(l->name);
	free(l->path);
	free(l->cwd);
	free(l->file);
	memset(l, 0, sizeof(*l));
}

/* Whether a and b are both NULL or the same string. */
static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/*
 * opts->argv[0] as the child's exec would find it, into file: where
 * opts->lookup found it last, while that is still an executable file
 * and the name, PATH and cwd are the same; else looked up again (and
 * kept in opts->lookup).
 */
static int find_program(const struct runner_opts *opts, struct strbuf *file)
{
	struct runner_lookup *l = opts->lookup;
	const char *path = child_path(opts);
	int e;

	if (l && l->file && !strcmp(l->name, opts->argv[0]) &&
	    same_str(l->path, path) && same_str(l->cwd, opts->cwd)) {
		struct strbuf tmp = STRBUF_INIT;

		e = exec_error(opts->cwd, l->file, &tmp);
		strbuf_release(&tmp);
		if (!e) {
			strbuf_reset(file);
			strbuf_addstr(file, l->file);
			return 0;
		}
	}
	e = runner_find_program(opts->argv[0], path, opts->cwd, file);
	if (!l)
		return e;
	runner_lookup_release(l);
	if (!e) {
		l->name = xstrdup(opts->argv[0]);
		l->path = xstrdup(path);
		l->cwd = xstrdup(opts->cwd);
		l->file = xstrdup(file->buf);
	}
	return e;
}

/*
 * The command did not start: RUNNER_EXEC, and why in place of its stderr;
 * for STAGE_CGROUP, cgroup_procs[index] could not be written.
 */
static void not_started(struct run_state *st, enum exec_stage stage, int errnum,
			size_t index)
{
	struct strbuf *sb = &st->res->err_tail;
	const char *procs, *slash;

	st->res->status = RUNNER_EXEC;
	strbuf_reset(sb);
	switch (stage) {
	case STAGE_CHDIR:
		strbuf_addf(sb, "cannot change directory to '%s': %s",
			    st->opts->cwd, strerror(errnum));
		break;
	case STAGE_CGROUP:
		/* Name the cgroup, its directory, rather than the file. */
		procs = st->opts->cgroup_procs[index];
		slash = strrchr(procs, '/');
		strbuf_addf(sb, "cannot enter cgroup '%.*s': %s",
			    slash && slash > procs ? (int)(slash - procs)
						   : (int)strlen(procs),
			    procs, strerror(errnum));
		break;
	default:
		strbuf_addf(sb, "cannot execute '%s': %s", st->opts->argv[0],
			    strerror(errnum));
		break;
	}
}

/* Why the child could not execute the command (spawn()). */
struct child_report {
	int stage; /* enum exec_stage */
	int errnum;
	size_t index; /* of cgroup_procs, for STAGE_CGROUP */
};

MMCMP_NORETURN static void child_fail(int fd, enum exec_stage stage, int errnum,
				      size_t index)
{
	struct child_report r = {(int)stage, errnum, index};

	/* Nothing to do if it fails: the parent then sees an exit. */
	if (write(fd, &r, sizeof(r)) < 0)
		_exit(127);
	_exit(127);
}

/* What the child is given: the command, its report pipe, its cgroups. */
struct child_args {
	const struct run_state *st;
	const char *file;
	int report;
	size_t joined; /* the cgroup_procs entry it was cloned into; or -1 */
};

/*
 * The child, up to the exec: stdin from /dev/null, stdout and stderr onto
 * the pipes, the cwd, the cgroups (but the one it was cloned into); a
 * new process group; the signals a benchmark expects at their default
 * action (they are the only ones mmcmp catches, so no handler of ours
 * can run here); an empty signal mask. It shares our memory until the
 * exec (vfork()): only async-signal-safe calls, nothing of ours written.
 */
MMCMP_NORETURN static void child_exec(const struct child_args *a)
{
	static const int sigs[] = {SIGHUP,  SIGINT,  SIGQUIT, SIGPIPE, SIGALRM,
				   SIGTERM, SIGCHLD, SIGUSR1, SIGUSR2};
	const struct runner_opts *opts = a->st->opts;
	int report = a->report;
	struct sigaction dfl;
	sigset_t none;
	int fd;

	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &dfl, NULL);
	setpgid(0, 0);
	fd = open("/dev/null", O_RDONLY);
	if (fd < 0 || dup2(fd, STDIN_FILENO) < 0 ||
	    dup2(a->st->out_w, STDOUT_FILENO) < 0 ||
	    dup2(a->st->err_w, STDERR_FILENO) < 0)
		child_fail(report, STAGE_EXEC, errno, 0);
	if (fd > STDERR_FILENO)
		close(fd);
	if (opts->cwd && chdir(opts->cwd))
		child_fail(report, STAGE_CHDIR, errno, 0);
	for (size_t i = 0; opts->cgroup_procs && opts->cgroup_procs[i]; i++) {
		if (i == a->joined)
			continue;
		/* "0" is the writer itself, in cgroup v1 and v2. */
		fd = open(opts->cgroup_procs[i], O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, "0", 1) != 1)
			child_fail(report, STAGE_CGROUP, errno, i);
		close(fd);
	}
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execve(a->file, opts->argv, opts->env ? opts->env : environ);
	child_fail(report, STAGE_EXEC, errno, 0);
}

#if defined(__x86_64__) && defined(SYS_clone3)
/* clone3()'s argument, as <linux/sched.h> has it since Linux 5.7. */
struct clone3_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal;
	uint64_t stack, stack_size, tls, set_tid, set_tid_size, cgroup;
};

#define CLONE3_VM	   0x100ULL
#define CLONE3_VFORK	   0x4000ULL
#define CLONE3_INTO_CGROUP 0x200000000ULL

/*
 * The stack of a child cloned into a cgroup, until its exec: one at a
 * time, as the runner is (the child runs on it while we wait).
 */
static _Alignas(16) unsigned char clone_stack[64 * 1024];

static void child_entry(void *arg)
{
	child_exec(arg);
}

/*
 * clone3() with CLONE_VM | CLONE_VFORK | CLONE_INTO_CGROUP: the child
 * starts in cgroup directory cgroup_fd, on clone_stack, in child_entry(a),
 * which never returns; we go on once it has executed or exited, as after
 * vfork(). A child that shares our memory must not return into our
 * frames, which only assembly arranges (as glibc's posix_spawn() does);
 * a write of "0" to cgroup.procs after a vfork() does the same on other
 * machines, but takes the cgroup threadgroup lock for writing, which at
 * times waits for an RCU grace period. The pid, or -errno.
 */
static long clone_into_cgroup(int cgroup_fd, struct child_args *a)
{
	struct clone3_args ca;
	long ret;
	register void (*fn)(void *) __asm__("r12") = child_entry;
	register void *arg __asm__("r13") = a;

	memset(&ca, 0, sizeof(ca));
	ca.flags = CLONE3_VM | CLONE3_VFORK | CLONE3_INTO_CGROUP;
	ca.exit_signal = SIGCHLD;
	ca.stack = (uint64_t)(uintptr_t)clone_stack;
	ca.stack_size = sizeof(clone_stack);
	ca.cgroup = (uint64_t)cgroup_fd;
	/* The child: no frame to return to, fn(arg), then exit if it did. */
	__asm__ volatile("syscall\n\t"
			 "test %%rax, %%rax\n\t"
			 "jnz 1f\n\t"
			 "xor %%ebp, %%ebp\n\t"
			 "mov %%r13, %%rdi\n\t"
			 "call *%%r12\n\t"
			 "mov $60, %%eax\n\t"
			 "mov $127, %%edi\n\t"
			 "syscall\n\t"
			 "hlt\n"
			 "1:"
			 : "=a"(ret)
			 : "a"((long)SYS_clone3), "D"(&ca), "S"(sizeof(ca)),
			   "r"(fn), "r"(arg)
			 : "rcx", "r11", "memory");
	return ret;
}

/*
 * The answer of the last cgroup_v2_dir(), its directory kept open: the
 * runner starts one command at a time, each iteration in the cgroups of
 * the one before, and the statfs(), open() and close() were a tenth of
 * the guard's system calls per command. A directory whose cgroup was
 * removed (and perhaps made again) fails clone3(), which drops it.
 */
static struct {
	bool valid;
	struct strbuf key; /* the cgroup_procs it answered, each + '\n' */
	size_t found;
	int fd;
} v2_dir = {false, STRBUF_INIT, (size_t)-1, -1};

static void v2_dir_drop(void)
{
	if (v2_dir.fd >= 0)
		close(v2_dir.fd);
	v2_dir.fd = -1;
	v2_dir.found = (size_t)-1;
	v2_dir.valid = false;
	strbuf_reset(&v2_dir.key);
}

/* Whether procs are those v2_dir answered for. */
static bool v2_dir_answers(const char *const *procs)
{
	const char *k = v2_dir.key.buf;

	if (!v2_dir.valid)
		return false;
	for (size_t i = 0; procs && procs[i]; i++) {
		size_t len = strlen(procs[i]);

		if (strncmp(k, procs[i], len) || k[len] != '\n')
			return false;
		k += len + 1;
	}
	return !*k;
}

/*
 * The first of cgroup_procs in a cgroup v2 hierarchy: its index, its
 * directory open in *fd (v2_dir's: not to be closed). -1 when there is
 * none.
 */
static size_t cgroup_v2_dir(const char *const *procs, int *fd)
{
	struct strbuf dir = STRBUF_INIT;

	if (v2_dir_answers(procs)) {
		*fd = v2_dir.fd;
		return v2_dir.found;
	}
	v2_dir_drop();
	for (size_t i = 0; procs && procs[i]; i++)
		strbuf_addf(&v2_dir.key, "%s\n", procs[i]);
	for (size_t i = 0; procs && procs[i] && v2_dir.fd < 0; i++) {
		const char *slash = strrchr(procs[i], '/');
		struct statfs sf;

		if (!slash || statfs(procs[i], &sf) ||
		    (unsigned long)sf.f_type != CGROUP_V2_MAGIC)
			continue;
		strbuf_reset(&dir);
		strbuf_add(&dir, procs[i], (size_t)(slash - procs[i]));
		v2_dir.fd = open(dir.buf, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (v2_dir.fd >= 0)
			v2_dir.found = i;
	}
	strbuf_release(&dir);
	v2_dir.valid = true;
	*fd = v2_dir.fd;
	return v2_dir.found;
}
#endif

/*
 * Start the child of a (vfork(), or where the machine can, cloned into
 * the first cgroup v2 of its cgroups), errno in *e when it could not.
 */
static pid_t clone_child(struct child_args *a, int *e)
{
	pid_t pid;

#if defined(__x86_64__) && defined(SYS_clone3)
	int fd;

	a->joined = cgroup_v2_dir(a->st->opts->cgroup_procs, &fd);
	if (fd >= 0) {
		long r = clone_into_cgroup(fd, a);

		if (r >= 0)
			return (pid_t)r;
		v2_dir_drop();
		*e = (int)-r;
		if (*e == EAGAIN || *e == ENOMEM)
			return -1;
		/* No clone3() (an older kernel, valgrind): as elsewhere. */
		a->joined = (size_t)-1;
	}
#endif
	/*
	 * The child only makes async-signal-safe calls and then executes or
	 * _exit()s (child_exec()); no page table is copied for it.
	 */
	pid = vfork(); /* NOLINT(clang-analyzer-security.insecureAPI.vfork) */
	if (!pid)
		child_exec(a); /* NOLINT(clang-analyzer-unix.Vfork) */
	*e = errno;
	return pid;
}

/*
 * Start the command with vfork(): no page table is copied, and we go on
 * once the child has executed the command (the report pipe, close-on-
 * exec, then reads end-of-file) or has said why it could not (then it
 * is reaped, not_started() says why and st->pid stays -1). vfork() where
 * glibc's posix_spawn() would clone() with CLONE_VFORK | CLONE_VM too:
 * the child then enters the cgroups, which posix_spawn() cannot, and
 * resets the few signals we catch rather than probe all 64.
 */
static int spawn(struct run_state *st, const char *file, struct strbuf *err)
{
	struct child_report r;
	struct child_args a = {st, file, -1, (size_t)-1};
	sigset_t all, old;
	int rep[2], fork_errno;
	pid_t pid;
	ssize_t n;

	if (pipe2(rep, O_CLOEXEC))
		return error_addf(err, "cannot create a pipe: %s",
				  strerror(errno));
	a.report = rep[1];
	/* No handler of ours may run in the child before its reset. */
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	pid = clone_child(&a, &fork_errno);
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(rep[1]);
	if (pid < 0) {
		/* EAGAIN, a process limit: this command fails, not the run. */
		close(rep[0]);
		st->pid = -1;
		not_started(st, STAGE_EXEC, fork_errno, 0);
		return 0;
	}
	do {
		n = read(rep[0], &r, sizeof(r));
	} while (n < 0 && errno == EINTR);
	close(rep[0]);
	if (n == (ssize_t)sizeof(r)) {
		/* It never ran the command: reap it and say why. */
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		st->pid = -1;
		not_started(st, (enum exec_stage)r.stage, r.errnum, r.index);
		return 0;
	}
	st->pid = pid;
	close_child_fds(st);
#ifdef SYS_pidfd_open
	st->fd[FD_PID] = (int)syscall(SYS_pidfd_open, st->pid, 0);
#endif
	return 0;
}

static void keep_out(struct run_state *st, const char *buf, size_t n)
{
	struct strbuf *out = &st->res->out;
	size_t room = st->out_max - out->len;

	if (n > room) {
		st->res->out_truncated = true;
		n = room;
	}
	strbuf_add(out, buf, n);
}

/* Drop all but the last tail_max bytes of sb. */
static void trim_tail(struct strbuf *sb, size_t tail_max)
{
	if (sb->len <= tail_max)
		return;
	memmove(sb->buf, sb->buf + sb->len - tail_max, tail_max);
	strbuf_setlen(sb, tail_max);
}

/* Trimming only at twice the size keeps the copying linear. */
static void keep_tail(struct run_state *st, const char *buf, size_t n)
{
	struct strbuf *tail = &st->res->err_tail;

	if (n >= st->tail_max) {
		strbuf_reset(tail);
		strbuf_add(tail, buf + n - st->tail_max, st->tail_max);
		return;
	}
	strbuf_add(tail, buf, n);
	if (tail->len >= 2 * st->tail_max)
		trim_tail(tail, st->tail_max);
}

static void read_fd(struct run_state *st, int k)
{
	char buf[READ_CHUNK];
	ssize_t n = read(st->fd[k], buf, sizeof(buf));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		close_fd(&st->fd[k]);
		return;
	}
	if (k == FD_OUT)
		keep_out(st, buf, (size_t)n);
	else
		keep_tail(st, buf, (size_t)n);
}

/* Poll the open pipes (and pidfd) once, reading one chunk per ready pipe. */
static int poll_fds(struct run_state *st, int timeout_ms, bool with_pid)
{
	struct pollfd pfd[FD_NR + 1];
	int kind[FD_NR + 1];
	nfds_t n = 0;
	int r;

	for (int k = 0; k < FD_NR; k++) {
		if (st->fd[k] < 0 || (k == FD_PID && !with_pid))
			continue;
		pfd[n].fd = st->fd[k];
		pfd[n].events = POLLIN;
		pfd[n].revents = 0;
		kind[n++] = k;
	}
	/* The guard's report of the exit stands for the pidfd. */
	if (with_pid && st->guard_fd >= 0) {
		pfd[n].fd = st->guard_fd;
		pfd[n].events = POLLIN;
		pfd[n].revents = 0;
		kind[n++] = FD_PID;
	}
	r = poll(pfd, n, timeout_ms);
	for (nfds_t i = 0; r > 0 && i < n; i++)
		if (pfd[i].revents && kind[i] != FD_PID)
			read_fd(st, kind[i]);
	return r;
}

/* Milliseconds from now to target, rounded up; -1 means no limit. */
static int ms_until(uint64_t target, uint64_t now)
{
	uint64_t ms;

	if (target <= now)
		return 0;
	ms = (target - now + NS_PER_MS - 1) / NS_PER_MS;
	return ms > INT_MAX ? INT_MAX : (int)ms;
}

static int min_ms(int a, int b)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	return a < b ? a : b;
}

static int next_timeout(const struct run_state *st, uint64_t now)
{
	int ms = -1;

	/* Without a pidfd, only polling waitid() notices the exit. */
	if (st->fd[FD_PID] < 0 && st->guard_fd < 0)
		ms = st->idle_ms;
	if (st->opts->stop)
		ms = min_ms(ms, STOP_POLL_MS);
	if (!st->killing && st->deadline_ns)
		ms = min_ms(ms, ms_until(st->deadline_ns, now));
	if (st->killing && !st->killed)
		ms = min_ms(ms, ms_until(st->kill_at_ns, now));
	if (st->tick_ns && !st->killing)
		ms = min_ms(ms, ms_until(st->next_tick_ns, now));
	return ms;
}

/*
 * Call opts->tick when it is due. A late tick (the hook itself was slow)
 * moves the next one, rather than calling the hook in a burst.
 */
static void check_tick(struct run_state *st, uint64_t now)
{
	if (!st->tick_ns || st->killing || now < st->next_tick_ns)
		return;
	st->opts->tick(st->opts->tick_ctx);
	st->next_tick_ns += st->tick_ns;
	if (st->next_tick_ns <= now)
		st->next_tick_ns = now + st->tick_ns;
}

/*
 * The guard's socket (a stream socketpair): each message from us is a
 * guard_hdr, for GUARD_SPAWN followed by `len` bytes of request and
 * carrying the command's stdout and stderr (SCM_RIGHTS). The guard
 * answers a spawn with guard_started (and `len` bytes of text: why the
 * command did not start), then, once the command has exited and been
 * reaped, guard_exited.
 */
enum guard_msg_type { GUARD_TELL = 1, GUARD_SPAWN, GUARD_SIGNAL };

struct guard_hdr {
	uint32_t type; /* enum guard_msg_type */
	uint32_t len;  /* of the payload that follows */
	int64_t value; /* TELL: a process group; SIGNAL: the signal */
};

/* Counts, then NUL-terminated strings: file, cwd, argv, env, cgroups. */
struct guard_spawn_req {
	uint32_t argc, envc, cgroupc;
	uint8_t has_cwd, keep_daemons;
};

struct guard_started {
	int32_t pid;	/* -1: not started */
	int32_t error;	/* 1: text is an error of ours, not RUNNER_EXEC */
	uint32_t len;	/* of the text that follows */
	uint64_t t0_ns; /* the guard's CLOCK_MONOTONIC before the spawn */
};

struct guard_exited {
	int32_t wstatus;
	struct rusage ru;
	uint64_t t1_ns; /* after the reap */
	uint64_t strays;
};

/* Send all of buf (fds, when not NULL, with its first byte); 0 or -1. */
static int send_all(int sock, const void *buf, size_t len, const int *fds,
		    size_t fds_nr)
{
	const char *p = buf;
	union {
		char buf[CMSG_SPACE(2 * sizeof(int))];
		struct cmsghdr align;
	} ctl;

	while (len) {
		struct iovec iov = {(void *)p, len};
		struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1};
		ssize_t n;

		if (fds && fds_nr) {
			struct cmsghdr *c;

			memset(&ctl, 0, sizeof(ctl));
			mh.msg_control = ctl.buf;
			mh.msg_controllen = CMSG_SPACE(fds_nr * sizeof(int));
			c = CMSG_FIRSTHDR(&mh);
			c->cmsg_level = SOL_SOCKET;
			c->cmsg_type = SCM_RIGHTS;
			c->cmsg_len = CMSG_LEN(fds_nr * sizeof(int));
			memcpy(CMSG_DATA(c), fds, fds_nr * sizeof(int));
		}
		n = sendmsg(sock, &mh, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		fds = NULL;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * Read exactly len bytes; up to fds_max fds that came with them go to
 * fds (the others are closed). -1 on end of file or error.
 */
static int recv_all(int sock, void *buf, size_t len, int *fds, size_t fds_max)
{
	char *p = buf;
	union {
		char buf[CMSG_SPACE(2 * sizeof(int))];
		struct cmsghdr align;
	} ctl;

	while (len) {
		struct iovec iov = {p, len};
		struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1};
		ssize_t n;

		mh.msg_control = ctl.buf;
		mh.msg_controllen = sizeof(ctl.buf);
		n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c;
		     c = CMSG_NXTHDR(&mh, c)) {
			size_t nr;

			if (c->cmsg_level != SOL_SOCKET ||
			    c->cmsg_type != SCM_RIGHTS)
				continue;
			nr = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
			for (size_t i = 0; i < nr; i++) {
				int fd;

				memcpy(&fd, CMSG_DATA(c) + i * sizeof(int),
				       sizeof(fd));
				if (fds && i < fds_max)
					fds[i] = fd;
				else
					close(fd);
			}
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int guard_send(int sock, enum guard_msg_type type, int64_t value)
{
	struct guard_hdr h = {(uint32_t)type, 0, value};

	return send_all(sock, &h, sizeof(h), NULL, 0);
}

/* Signal the command's process group, through the guard when it runs it. */
static void signal_group(const struct run_state *st, int sig)
{
	if (st->guard_fd >= 0)
		(void)guard_send(st->guard_fd, GUARD_SIGNAL, sig);
	else
		kill(-st->pid, sig);
}

static void escalate(struct run_state *st, enum runner_status reason,
		     uint64_t now)
{
	st->killing = true;
	st->reason = reason;
	st->kill_at_ns = now + st->grace_ns;
	signal_group(st, SIGTERM);
	/* A stopped process would only see SIGTERM once continued. */
	signal_group(st, SIGCONT);
}

static void check_limits(struct run_state *st, uint64_t now)
{
	if (!st->killing && st->opts->stop && *st->opts->stop)
		escalate(st, RUNNER_INTERRUPTED, now);
	if (!st->killing && st->deadline_ns && now >= st->deadline_ns)
		escalate(st, RUNNER_TIMEOUT, now);
	if (st->killing && !st->killed && now >= st->kill_at_ns) {
		signal_group(st, SIGKILL);
		st->killed = true;
	}
}

/*
 * Whether the child has exited, leaving it a zombie (WNOWAIT): while it
 * is one, its pid, and so its process group id, cannot be reused, so the
 * group can still be killed safely. Returns 1, 0, or -1 with errno.
 */
static int child_exited(const struct run_state *st)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)st->pid, &si, WEXITED | WNOHANG | WNOWAIT))
		return errno == EINTR ? 0 : -1;
	return si.si_pid != 0;
}

/*
 * Whether the guard has reported the command's exit (and reaped it),
 * filling wstatus, ru and the guard's figures: 1, 0, or -1 (the guard
 * died) with errno.
 */
static int guard_exited(struct run_state *st)
{
	struct guard_exited ge;
	struct pollfd pfd = {st->guard_fd, POLLIN, 0};

	if (poll(&pfd, 1, 0) <= 0)
		return 0;
	if (recv_all(st->guard_fd, &ge, sizeof(ge), NULL, 0)) {
		errno = ECHILD;
		return -1;
	}
	st->wstatus = ge.wstatus;
	st->ru = ge.ru;
	st->guard_t1_ns = ge.t1_ns;
	st->guard_strays = ge.strays;
	return 1;
}

/* Read the pipes and enforce the limits until the child has exited. */
static int watch(struct run_state *st)
{
	for (;;) {
		uint64_t now = mono_ns();
		int r;

		/* An exit seen late is still an exit, not a timeout. */
		r = st->guard_fd >= 0 ? guard_exited(st) : child_exited(st);
		if (r)
			return r < 0 ? -1 : 0;
		check_limits(st, now);
		check_tick(st, now);
		r = poll_fds(st, next_timeout(st, now), true);
		if (r > 0)
			st->idle_ms = 1;
		else if (!r && st->idle_ms < IDLE_MAX_MS)
			st->idle_ms *= 2;
	}
}

/*
 * After the reap: what is already in the pipes is read, but a process
 * that left the group and keeps a pipe open is not waited for.
 */
static void drain(struct run_state *st)
{
	uint64_t end = mono_ns() + DRAIN_NS;

	close_fd(&st->fd[FD_PID]);
	for (;;) {
		uint64_t now = mono_ns();

		if ((st->fd[FD_OUT] < 0 && st->fd[FD_ERR] < 0) || now >= end)
			break;
		poll_fds(st, ms_until(end, now), false);
	}
}

static void decode(struct run_state *st)
{
	struct runner_result *res = st->res;
	int ws = st->wstatus;

	res->user_s = timeval_s(&st->ru.ru_utime);
	res->sys_s = timeval_s(&st->ru.ru_stime);
	res->maxrss_kb = (int64_t)st->ru.ru_maxrss;
	if (WIFEXITED(ws))
		res->exit_code = WEXITSTATUS(ws);
	if (WIFSIGNALED(ws))
		res->term_signal = WTERMSIG(ws);
	trim_tail(&res->err_tail, st->tail_max);

	if (st->killing) {
		res->status = st->reason;
	} else if (WIFEXITED(ws)) {
		res->status = res->exit_code ? RUNNER_EXIT : RUNNER_OK;
	} else {
		res->status = RUNNER_SIGNAL;
	}
}

/* Reap the zombie watch() found, with its resource usage. */
static int reap(struct run_state *st)
{
	while (wait4(st->pid, &st->wstatus, 0, &st->ru) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

static int wait_failed(struct run_state *st, struct strbuf *err)
{
	int wait_errno = errno;

	signal_group(st, SIGKILL);
	drain(st);
	return error_addf(err, "cannot wait for '%s': %s", st->opts->argv[0],
			  strerror(wait_errno));
}

static void pause_ns(uint64_t ns)
{
	struct timespec ts = {(time_t)(ns / NS_PER_S), (long)(ns % NS_PER_S)};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Kill and reap child pid of ours, which the command left behind (its
 * parent died and the subreaper made it ours); remember it when it had
 * left the command's process group. Whether it was one of those.
 */
static bool sweep_child(struct run_state *st, pid_t pid)
{
	pid_t pgid = getpgid(pid);

	if (st->opts->guard && pid == st->opts->guard->pid)
		return false;
	/* Older than the command: not its descendant but our caller's. */
	if (machine_proc_start(pid) < st->start_ticks)
		return false;
	if (pgid >= 0 && pgid != st->pid && st->opts->keep_daemons)
		return false;
	if (pgid >= 0 && pgid != st->pid) {
		bool known = false;

		for (size_t i = 0; i < st->strays_nr && !known; i++)
			known = st->strays[i] == pid;
		if (!known) {
			ALLOC_GROW(st->strays, st->strays_nr + 1,
				   st->strays_alloc);
			st->strays[st->strays_nr++] = pid;
		}
	}
	kill(pid, SIGKILL);
	/* A process that cannot die at once is reaped on a later round. */
	while (waitpid(pid, NULL, WNOHANG) < 0 && errno == EINTR)
		;
	return true;
}

/*
 * Without /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN), only the
 * adopted processes that died can be found: reap those, so that they do
 * not pile up as zombies over a long run.
 */
static bool reap_zombies(struct run_state *st)
{
	bool any = false;

	/* Bounded: a zombie that cannot be reaped must not spin us. */
	for (int i = 0; i < 1024; i++) {
		siginfo_t si;

		memset(&si, 0, sizeof(si));
		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) ||
		    !si.si_pid || !sweep_child(st, si.si_pid))
			break;
		any = true;
	}
	return any;
}

/*
 * Set *v to our children (of every thread), as /proc/self/task/TID/children
 * lists them; false when the kernel has no such file.
 */
static bool read_children(pid_t **v, size_t *nr, size_t *alloc)
{
	DIR *tasks = opendir("/proc/self/task");
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct dirent *de;
	bool listed = false;

	*nr = 0;
	if (!tasks)
		return false;
	while ((de = readdir(tasks))) {
		int fd;
		char buf[4096];
		ssize_t n;

		if (de->d_name[0] == '.')
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "/proc/self/task/%s/children", de->d_name);
		fd = open(path.buf, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		listed = true;
		strbuf_reset(&text);
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			strbuf_add(&text, buf, (size_t)n);
		close(fd);
		for (char *p = text.buf, *end; *p; p = end) {
			long pid = strtol(p, &end, 10);

			if (end == p)
				break;
			if (pid <= 0)
				continue;
			ALLOC_GROW(*v, *nr + 1, *alloc);
			(*v)[(*nr)++] = (pid_t)pid;
		}
	}
	closedir(tasks);
	strbuf_release(&path);
	strbuf_release(&text);
	return listed;
}

/* Whether we have no child at all, alive or dead: nothing to sweep. */
static bool childless(void)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	return waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) &&
	       errno == ECHILD;
}

/* One pass over our children (of every thread); whether any was swept. */
static bool sweep_once(struct run_state *st)
{
	pid_t *v = NULL;
	size_t nr = 0, alloc = 0;
	bool any = false;

	/* The common case, one system call rather than a walk of /proc. */
	if (childless())
		return false;
	if (!read_children(&v, &nr, &alloc)) {
		free(v);
		return reap_zombies(st);
	}
	for (size_t i = 0; i < nr; i++)
		if (sweep_child(st, v[i]))
			any = true;
	free(v);
	return any;
}

/*
 * After the reap: the killed group's processes take a moment to die, and
 * what they leave (and what had left the group) becomes ours through the
 * subreaper (runner_guard_start()). Kill and reap all of it, for at most
 * SWEEP_NS.
 */
static void sweep(struct run_state *st)
{
	uint64_t end = mono_ns() + SWEEP_NS;

	for (;;) {
		bool any = sweep_once(st);

		if ((!any && kill(-st->pid, 0)) || mono_ns() >= end)
			break;
		pause_ns(SWEEP_PAUSE_NS);
	}
	st->res->strays = st->strays_nr;
}

/* Tell the guard the process group of the running command (0: none). */
static void guard_tell(const struct runner_guard *g, pid_t pgid)
{
	/* A dead guard is ignored. */
	if (g && g->fd >= 0)
		(void)guard_send(g->fd, GUARD_TELL, pgid);
}

void runner_guard_tell(const struct runner_guard *g, pid_t pgid)
{
	guard_tell(g, pgid);
}

/*
 * In the guard, once mmcmp is gone (or done): kill the group it told of,
 * then every descendant left, which the subreaper made our children
 * whatever session or group they moved to; a killed process's children
 * become ours in turn, found on the next pass. Bounded by 5 s.
 */
static void guard_kill_all(pid_t told)
{
	uint64_t end = mono_ns() + 5 * SWEEP_NS;
	pid_t *v = NULL;
	size_t nr = 0, alloc = 0;

	if (told > 0)
		kill(-told, SIGKILL);
	for (;;) {
		bool listed = read_children(&v, &nr, &alloc);

		for (size_t i = 0; i < nr; i++)
			kill(v[i], SIGKILL);
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		/* Without the list, only "no child at all" says we are done. */
		if (listed ? !nr
			   : waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD)
			break;
		if (mono_ns() >= end)
			break;
		pause_ns(SWEEP_PAUSE_NS);
	}
	free(v);
}

/* The strings of a spawn request, pointing into its payload. */
struct guard_cmd {
	const char *file;
	struct runner_opts opts;
	char **v; /* argv, NULL, env, NULL, cgroups, NULL */
};

static int parse_spawn(char *buf, size_t len, struct guard_cmd *c)
{
	struct guard_spawn_req rq;
	char *p = buf + sizeof(rq), *end = buf + len;
	char **all;
	size_t nr, k = 0, n = 0;

	/* Every string ends in a NUL, so strlen() stays inside buf. */
	if (len <= sizeof(rq) || buf[len - 1])
		return -1;
	memcpy(&rq, buf, sizeof(rq));
	nr = 1 + (size_t)rq.has_cwd + rq.argc + rq.envc + rq.cgroupc;
	if (!rq.argc || nr > len)
		return -1;
	all = xcalloc(nr, sizeof(*all));
	for (size_t i = 0; i < nr; i++) {
		if (p >= end) {
			free(all);
			return -1;
		}
		all[i] = p;
		p += strlen(p) + 1;
	}
	c->file = all[k++];
	if (rq.has_cwd)
		c->opts.cwd = all[k++];
	/* argv, NULL, env, NULL, cgroups, NULL */
	c->v = xcalloc(nr + 3, sizeof(*c->v));
	for (uint32_t i = 0; i < rq.argc; i++)
		c->v[n++] = all[k++];
	c->v[n++] = NULL;
	for (uint32_t i = 0; i < rq.envc; i++)
		c->v[n++] = all[k++];
	c->v[n++] = NULL;
	for (uint32_t i = 0; i < rq.cgroupc; i++)
		c->v[n++] = all[k++];
	c->v[n] = NULL;
	free(all);
	c->opts.argv = c->v;
	c->opts.env = c->v + rq.argc + 1;
	c->opts.cgroup_procs =
		(const char *const *)(c->v + rq.argc + 1 + rq.envc + 1);
	c->opts.keep_daemons = rq.keep_daemons;
	return 0;
}

/* Answer a spawn that did not start a command. */
static int guard_not_started(int sock, bool ours, const struct strbuf *why)
{
	struct guard_started gs = {-1, ours, (uint32_t)why->len, 0};

	if (send_all(sock, &gs, sizeof(gs), NULL, 0) ||
	    send_all(sock, why->buf, why->len, NULL, 0))
		return -1;
	return 0;
}

/*
 * In the guard: run one command for mmcmp, as runner_run() would, and
 * report its start and its exit. Returns -1 when mmcmp is gone (the
 * command's group is killed; the caller kills the rest).
 */
static int guard_command(int sock, char *buf, size_t len, const int *fds)
{
	struct guard_cmd c = {0};
	struct runner_result res = RUNNER_RESULT_INIT;
	struct run_state st = {
		.opts = &c.opts,
		.res = &res,
		.pid = -1,
		.fd = {-1, -1, -1},
		.out_w = fds[0],
		.err_w = fds[1],
		.guard_fd = -1,
		.idle_ms = 1,
	};
	struct strbuf err = STRBUF_INIT;
	struct guard_started gs = {0};
	struct guard_exited ge;
	int ret = -1;

	if (parse_spawn(buf, len, &c)) {
		strbuf_addstr(&err, "the guard got a bad request");
		close_child_fds(&st);
		ret = guard_not_started(sock, true, &err);
		goto out;
	}
	gs.t0_ns = mono_ns();
	/*
	 * Before the spawn, not the child's own start from /proc (six
	 * system calls for every command, when only a sweep that finds a
	 * child left needs it).
	 */
	st.start_ticks = machine_boot_ticks();
	if (spawn(&st, c.file, &err)) {
		close_child_fds(&st);
		ret = guard_not_started(sock, true, &err);
		goto out;
	}
	if (st.pid < 0) {
		ret = guard_not_started(sock, false, &res.err_tail);
		goto out;
	}
	gs.pid = st.pid;
	if (send_all(sock, &gs, sizeof(gs), NULL, 0))
		goto gone;
	for (;;) {
		struct pollfd pfd[2] = {{sock, POLLIN, 0},
					{st.fd[FD_PID], POLLIN, 0}};
		int r = child_exited(&st);

		if (r)
			break;
		r = poll(pfd, st.fd[FD_PID] >= 0 ? 2 : 1,
			 st.fd[FD_PID] >= 0 ? -1 : IDLE_MAX_MS);
		if (r > 0 && pfd[0].revents) {
			struct guard_hdr h;

			if (recv_all(sock, &h, sizeof(h), NULL, 0) || h.len)
				goto gone;
			if (h.type == GUARD_SIGNAL)
				kill(-st.pid, (int)h.value);
		}
	}
	/* As finish(): the child is a zombie; its group goes, then it. */
	kill(-st.pid, SIGKILL);
	if (reap(&st))
		goto gone;
	memset(&ge, 0, sizeof(ge));
	ge.t1_ns = mono_ns();
	sweep(&st);
	ge.wstatus = st.wstatus;
	ge.ru = st.ru;
	ge.strays = res.strays;
	ret = send_all(sock, &ge, sizeof(ge), NULL, 0);
	goto out;
gone:
	if (st.pid > 0)
		kill(-st.pid, SIGKILL);
	ret = -1;
out:
	close_fd(&st.fd[FD_PID]);
	free(c.v);
	free(st.strays);
	strbuf_release(&err);
	runner_result_release(&res);
	return ret;
}

/* The guard process: never returns. */
MMCMP_NORETURN static void guard_loop(int sock)
{
	int devnull = open("/dev/null", O_RDWR);
	pid_t told = 0;

	/*
	 * Its own session and process group: a signal to mmcmp's whole
	 * group (kill -KILL -- -PGID, Ctrl-\\ at the terminal) must leave
	 * the guard alive to kill the commands.
	 */
	setsid();
	/*
	 * It starts the commands, and is their child subreaper: whatever
	 * they leave, in whatever session, becomes its child, so that it is
	 * found after each command and when mmcmp dies. Linux >= 3.4.
	 */
	(void)prctl(PR_SET_CHILD_SUBREAPER, 1L, 0L, 0L, 0L);
	/* Ctrl-C and friends are for mmcmp; the guard waits for its end. */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	/* Hold no terminal or pipe of mmcmp's open. */
	if (devnull >= 0) {
		dup2(devnull, 0);
		dup2(devnull, 1);
		dup2(devnull, 2);
		if (devnull > 2)
			close(devnull);
	}
	for (;;) {
		struct guard_hdr h;
		int fds[2] = {-1, -1};
		char *buf;

		if (recv_all(sock, &h, sizeof(h), fds, 2))
			break;
		if (h.type == GUARD_TELL) {
			told = (pid_t)h.value;
			continue;
		}
		/* Sent while the command was being reaped: it is gone. */
		if (h.type == GUARD_SIGNAL && !h.len)
			continue;
		if (h.type != GUARD_SPAWN || fds[0] < 0 || fds[1] < 0)
			break;
		buf = xmalloc(h.len + 1);
		if (recv_all(sock, buf, h.len, NULL, 0) ||
		    guard_command(sock, buf, h.len, fds)) {
			free(buf);
			break;
		}
		free(buf);
	}
	guard_kill_all(told);
	_exit(0);
}

int runner_guard_start(struct runner_guard *g, struct strbuf *err)
{
	int fds[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds))
		return error_addf(err, "cannot create the guard socket: %s",
				  strerror(errno));
	g->pid = fork();
	if (g->pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return error_addf(err, "cannot start the guard process: %s",
				  strerror(errno));
	}
	if (!g->pid) {
		close(fds[1]);
		guard_loop(fds[0]);
	}
	close(fds[0]);
	g->fd = fds[1];
	return 0;
}

void runner_guard_stop(struct runner_guard *g)
{
	if (!g || g->fd < 0)
		return;
	close(g->fd);
	g->fd = -1;
	while (waitpid(g->pid, NULL, 0) < 0 && errno == EINTR)
		;
	g->pid = -1;
}

/* Append s and its NUL to sb. */
static void add_str(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s) + 1);
}

static uint32_t add_strs(struct strbuf *sb, const char *const *v)
{
	uint32_t n = 0;

	for (; v && *v; v++, n++)
		add_str(sb, *v);
	return n;
}

/*
 * Have the guard start the command, as spawn() would here: with st->pid
 * set, or -1 after not_started(). The guard's clock at the spawn goes
 * to st->guard_t0_ns.
 */
static int guard_spawn(struct run_state *st, const char *file,
		       struct strbuf *err)
{
	const struct runner_opts *opts = st->opts;
	struct guard_spawn_req rq = {0};
	struct strbuf req = STRBUF_INIT, text = STRBUF_INIT;
	struct guard_hdr h = {GUARD_SPAWN, 0, 0};
	struct guard_started gs;
	int fds[2] = {st->out_w, st->err_w};
	int ret = -1;

	strbuf_add(&req, &rq, sizeof(rq));
	add_str(&req, file);
	if (opts->cwd) {
		rq.has_cwd = 1;
		add_str(&req, opts->cwd);
	}
	rq.argc = add_strs(&req, (const char *const *)opts->argv);
	rq.envc = add_strs(
		&req, (const char *const *)(opts->env ? opts->env : environ));
	rq.cgroupc = add_strs(&req, opts->cgroup_procs);
	rq.keep_daemons = opts->keep_daemons;
	memcpy(req.buf, &rq, sizeof(rq));
	h.len = (uint32_t)req.len;
	if (req.len > UINT32_MAX ||
	    send_all(st->guard_fd, &h, sizeof(h), fds, 2) ||
	    send_all(st->guard_fd, req.buf, req.len, NULL, 0) ||
	    recv_all(st->guard_fd, &gs, sizeof(gs), NULL, 0)) {
		error_addf(err, "cannot start '%s': the guard process is gone",
			   opts->argv[0]);
		goto out;
	}
	strbuf_grow(&text, gs.len);
	if (gs.len && recv_all(st->guard_fd, text.buf, gs.len, NULL, 0)) {
		error_addf(err, "cannot start '%s': the guard process is gone",
			   opts->argv[0]);
		goto out;
	}
	strbuf_setlen(&text, gs.len);
	close_child_fds(st);
	st->guard_t0_ns = gs.t0_ns;
	st->pid = gs.pid;
	if (gs.pid < 0 && gs.error) {
		error_addf(err, "%s", text.buf);
		goto out;
	}
	if (gs.pid < 0) {
		st->res->status = RUNNER_EXEC;
		strbuf_reset(&st->res->err_tail);
		strbuf_add(&st->res->err_tail, text.buf, text.len);
	}
	ret = 0;
out:
	strbuf_release(&req);
	strbuf_release(&text);
	return ret;
}

/* Everything after a successful spawn; t0 is the start on opts' clock. */
static int finish(struct run_state *st, uint64_t t0, struct strbuf *err)
{
	if (watch(st))
		return wait_failed(st, err);
	if (st->guard_fd >= 0) {
		/* The guard killed the group, reaped and swept. */
		uint64_t t1 = clock_now(st->opts);

		st->res->elapsed_s =
			st->opts->ops && st->opts->ops->now_ns
				? (double)(t1 - t0) / 1e9
				: (double)(st->guard_t1_ns - st->guard_t0_ns) /
					  1e9;
		st->res->strays = (size_t)st->guard_strays;
		drain(st);
		decode(st);
		return 0;
	}
	/* The child is a zombie: kill what is left of its group, then reap. */
	kill(-st->pid, SIGKILL);
	if (reap(st))
		return wait_failed(st, err);
	st->res->elapsed_s = (double)(clock_now(st->opts) - t0) / 1e9;
	sweep(st);
	drain(st);
	decode(st);
	return 0;
}

static void result_reset(struct runner_result *res)
{
	strbuf_reset(&res->out);
	strbuf_reset(&res->err_tail);
	res->status = RUNNER_OK;
	res->exit_code = 0;
	res->term_signal = 0;
	res->elapsed_s = res->user_s = res->sys_s = 0.0;
	res->maxrss_kb = 0;
	res->out_truncated = false;
	res->strays = 0;
}

int runner_run(const struct runner_opts *opts, struct runner_result *result,
	       struct strbuf *err)
{
	struct run_state st = {
		.opts = opts,
		.res = result,
		.pid = -1,
		.fd = {-1, -1, -1},
		.out_w = -1,
		.err_w = -1,
		.guard_fd = opts->guard ? opts->guard->fd : -1,
		.idle_ms = 1,
	};
	struct strbuf file = STRBUF_INIT;
	uint64_t t0, timeout_ns;
	int e, ret = -1;

	result_reset(result);
	st.out_max = opts->stdout_max ? opts->stdout_max : DEFAULT_OUT_MAX;
	st.tail_max = opts->stderr_tail ? opts->stderr_tail : DEFAULT_TAIL;
	st.grace_ns = seconds_to_ns(opts->grace_s);
	if (!st.grace_ns)
		st.grace_ns = DEFAULT_GRACE_NS;
	if (!opts->argv || !opts->argv[0]) {
		error_addf(err, "cannot run an empty command");
		goto out;
	}
	/*
	 * Checked here first, in the child's order, the cwd before the
	 * file, so that a command that cannot start costs no spawn.
	 */
	e = opts->cwd ? dir_error(opts->cwd) : 0;
	if (e) {
		not_started(&st, STAGE_CHDIR, e, 0);
		ret = 0;
		goto out;
	}
	e = find_program(opts, &file);
	if (e) {
		not_started(&st, STAGE_EXEC, e, 0);
		ret = 0;
		goto out;
	}
	if (open_fds(&st, err))
		goto out;

	t0 = clock_now(opts);
	timeout_ns = seconds_to_ns(opts->timeout_s);
	if (timeout_ns)
		st.deadline_ns = mono_ns() + timeout_ns;
	if (opts->tick && opts->tick_s > 0) {
		st.tick_ns = seconds_to_ns(opts->tick_s);
		st.next_tick_ns = mono_ns() + st.tick_ns;
	}
	/* With a guard, the guard sweeps: it is the parent. */
	if (st.guard_fd < 0)
		st.start_ticks = machine_boot_ticks();
	if (st.guard_fd >= 0 ? guard_spawn(&st, file.buf, err)
			     : spawn(&st, file.buf, err))
		goto out;
	if (st.pid < 0) {
		/* It could not start; not_started() has said why. */
		result->elapsed_s = (double)(clock_now(opts) - t0) / 1e9;
		ret = 0;
		goto out;
	}
	ret = finish(&st, t0, err);
out:
	for (int k = 0; k < FD_NR; k++)
		close_fd(&st.fd[k]);
	close_child_fds(&st);
	strbuf_release(&file);
	free(st.strays);
	return ret;
}
