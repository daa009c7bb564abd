/* runner: run one command in its own process group and measure it. */
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "strbuf.h"
#include "strvec.h"
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

/* The parent's ends of the pipes, and the pidfd when the kernel has one. */
enum { FD_OUT, FD_ERR, FD_EXEC, FD_PID, FD_NR };

/* What the child failed at; sent with errno through the exec pipe. */
enum child_stage { STAGE_SETUP, STAGE_CHDIR, STAGE_EXEC };

struct exec_report {
	int stage;
	int errnum;
};

struct run_state {
	const struct runner_opts *opts;
	struct runner_result *res;
	pid_t pid;
	int fd[FD_NR];	  /* parent side; -1 when closed */
	int null_fd;	  /* the child's stdin */
	int out_w, err_w; /* the child's stdout and stderr */
	int exec_w;	  /* the child's end of the exec pipe */
	size_t out_max, tail_max;
	struct exec_report rep;
	size_t rep_len;
	uint64_t deadline_ns; /* real clock; 0 when there is no timeout */
	uint64_t grace_ns;
	uint64_t kill_at_ns;
	bool killing; /* SIGTERM sent; reason says why */
	bool killed;  /* SIGKILL sent after the grace period */
	enum runner_status reason;
	int idle_ms;
	int wstatus;
	struct rusage ru;
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
 * Give fd close-on-exec and a number above 2, so that the child's dup2()
 * onto 0, 1 and 2 never meets one of its own sources. Returns the new fd,
 * or -1 (the old one closed) on failure.
 */
static int private_fd(int fd)
{
	int moved;

	if (fd > STDERR_FILENO) {
		if (!fcntl(fd, F_SETFD, FD_CLOEXEC))
			return fd;
		close(fd);
		return -1;
	}
	moved = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
	close(fd);
	return moved;
}

/* A pipe with both ends private; the read end is non-blocking. */
static int open_pipe(int *rd, int *wr, struct strbuf *err)
{
	int p[2];

	if (pipe(p))
		return error_addf(err, "cannot create a pipe: %s",
				  strerror(errno));
	*rd = private_fd(p[0]);
	*wr = private_fd(p[1]);
	if (*rd < 0 || *wr < 0 ||
	    fcntl(*rd, F_SETFL, fcntl(*rd, F_GETFL) | O_NONBLOCK)) {
		error_addf(err, "cannot set up a pipe: %s", strerror(errno));
		close_fd(rd);
		close_fd(wr);
		return -1;
	}
	return 0;
}

static int open_fds(struct run_state *st, struct strbuf *err)
{
	st->null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (st->null_fd < 0)
		return error_addf(err, "cannot open '/dev/null': %s",
				  strerror(errno));
	st->null_fd = private_fd(st->null_fd);
	if (st->null_fd < 0)
		return error_addf(err, "cannot set up '/dev/null': %s",
				  strerror(errno));
	if (open_pipe(&st->fd[FD_OUT], &st->out_w, err) ||
	    open_pipe(&st->fd[FD_ERR], &st->err_w, err) ||
	    open_pipe(&st->fd[FD_EXEC], &st->exec_w, err))
		return -1;
	return 0;
}

static void close_child_fds(struct run_state *st)
{
	close_fd(&st->null_fd);
	close_fd(&st->out_w);
	close_fd(&st->err_w);
	close_fd(&st->exec_w);
}

/*
 * The candidates execve() tries when the caller gives the environment:
 * the PATH of that environment, else ours, else the libc default. A name
 * with a slash is used as it is; an empty PATH entry is the current
 * directory, as for execvp().
 */
static void exec_paths(const struct runner_opts *opts, struct strvec *paths)
{
	const char *name = opts->argv[0];
	const char *path = NULL;
	struct strbuf sb = STRBUF_INIT;

	if (!*name)
		return;
	if (strchr(name, '/')) {
		strvec_push(paths, name);
		return;
	}
	for (char *const *e = opts->env; *e && !path; e++)
		if (!strncmp(*e, "PATH=", 5))
			path = *e + 5;
	if (!path)
		path = getenv("PATH");
	if (!path)
		path = "/bin:/usr/bin";
	for (;;) {
		const char *end = strchr(path, ':');

		if (!end)
			end = path + strlen(path);
		strbuf_reset(&sb);
		if (end == path)
			strbuf_addch(&sb, '.');
		else
			strbuf_add(&sb, path, (size_t)(end - path));
		strbuf_addf(&sb, "/%s", name);
		strvec_push(paths, sb.buf);
		if (!*end)
			break;
		path = end + 1;
	}
	strbuf_release(&sb);
}

/*
 * In the child: execve() each candidate as execvp() does, going on past
 * the errors that only mean "not here". Returns with errno set.
 */
static void exec_search(char *const *paths, char *const *argv, char *const *env)
{
	bool eacces = false;

	for (size_t i = 0; paths[i]; i++) {
		execve(paths[i], argv, env);
		if (errno == EACCES)
			eacces = true;
		else if (errno != ENOENT && errno != ENOTDIR &&
			 errno != ENAMETOOLONG && errno != ELOOP)
			return;
	}
	errno = eacces ? EACCES : ENOENT;
}

MMCMP_NORETURN static void child_fail(int fd, enum child_stage stage)
{
	struct exec_report rep = {.stage = (int)stage, .errnum = errno};
	ssize_t n = write(fd, &rep, sizeof(rep));

	(void)n; /* nothing else can be done about it */
	_exit(127);
}

/*
 * The child, between fork() and exec: only async-signal-safe calls. The
 * signals the parent blocked around fork() are unblocked just before the
 * exec, once the dispositions a benchmark expects are back to default.
 */
MMCMP_NORETURN static void child_run(const struct run_state *st,
				     char *const *paths)
{
	static const int sigs[] = {SIGHUP,  SIGINT,  SIGQUIT, SIGPIPE, SIGALRM,
				   SIGTERM, SIGCHLD, SIGUSR1, SIGUSR2};
	const struct runner_opts *opts = st->opts;
	struct sigaction sa;
	sigset_t none;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
	setpgid(0, 0);
	if (dup2(st->null_fd, STDIN_FILENO) < 0 ||
	    dup2(st->out_w, STDOUT_FILENO) < 0 ||
	    dup2(st->err_w, STDERR_FILENO) < 0)
		child_fail(st->exec_w, STAGE_SETUP);
	if (opts->cwd && chdir(opts->cwd))
		child_fail(st->exec_w, STAGE_CHDIR);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (opts->env)
		exec_search(paths, opts->argv, opts->env);
	else
		execvp(opts->argv[0], opts->argv);
	child_fail(st->exec_w, STAGE_EXEC);
}

static int spawn(struct run_state *st, char *const *paths, struct strbuf *err)
{
	sigset_t all, old;
	int fork_errno;

	/* No handler of ours may run in the child before it resets them. */
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	st->pid = fork();
	fork_errno = errno;
	if (!st->pid)
		child_run(st, paths);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (st->pid < 0)
		return error_addf(err, "cannot fork for '%s': %s",
				  st->opts->argv[0], strerror(fork_errno));
	/* Also here, so the group exists before we may signal it. */
	setpgid(st->pid, st->pid);
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
	size_t want = sizeof(buf);
	ssize_t n;

	if (k == FD_EXEC)
		want = sizeof(st->rep) - st->rep_len;
	n = read(st->fd[k], buf, want);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		close_fd(&st->fd[k]);
		return;
	}
	if (k == FD_OUT)
		keep_out(st, buf, (size_t)n);
	else if (k == FD_ERR)
		keep_tail(st, buf, (size_t)n);
	else {
		memcpy((char *)&st->rep + st->rep_len, buf, (size_t)n);
		st->rep_len += (size_t)n;
	}
}

/* Poll the open pipes (and pidfd) once, reading one chunk per ready pipe. */
static int poll_fds(struct run_state *st, int timeout_ms, bool with_pid)
{
	struct pollfd pfd[FD_NR];
	int kind[FD_NR];
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
	if (st->fd[FD_PID] < 0)
		ms = st->idle_ms;
	if (st->opts->stop)
		ms = min_ms(ms, STOP_POLL_MS);
	if (!st->killing && st->deadline_ns)
		ms = min_ms(ms, ms_until(st->deadline_ns, now));
	if (st->killing && !st->killed)
		ms = min_ms(ms, ms_until(st->kill_at_ns, now));
	return ms;
}

static void escalate(struct run_state *st, enum runner_status reason,
		     uint64_t now)
{
	st->killing = true;
	st->reason = reason;
	st->kill_at_ns = now + st->grace_ns;
	kill(-st->pid, SIGTERM);
	/* A stopped process would only see SIGTERM once continued. */
	kill(-st->pid, SIGCONT);
}

static void check_limits(struct run_state *st, uint64_t now)
{
	if (!st->killing && st->opts->stop && *st->opts->stop)
		escalate(st, RUNNER_INTERRUPTED, now);
	if (!st->killing && st->deadline_ns && now >= st->deadline_ns)
		escalate(st, RUNNER_TIMEOUT, now);
	if (st->killing && !st->killed && now >= st->kill_at_ns) {
		kill(-st->pid, SIGKILL);
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

/* Read the pipes and enforce the limits until the child has exited. */
static int watch(struct run_state *st)
{
	for (;;) {
		uint64_t now = mono_ns();
		int r;

		/* An exit seen late is still an exit, not a timeout. */
		r = child_exited(st);
		if (r)
			return r < 0 ? -1 : 0;
		check_limits(st, now);
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

		if (st->fd[FD_OUT] < 0 && st->fd[FD_ERR] < 0 &&
		    st->fd[FD_EXEC] < 0)
			break;
		if (now >= end)
			break;
		poll_fds(st, ms_until(end, now), false);
	}
}

/* Why a child failed before its exec, in place of its stderr. */
static void describe_exec_failure(const struct run_state *st, struct strbuf *sb)
{
	const char *argv0 = st->opts->argv[0];
	const char *why = strerror(st->rep.errnum);

	strbuf_reset(sb);
	switch (st->rep.stage) {
	case STAGE_EXEC:
		strbuf_addf(sb, "cannot execute '%s': %s", argv0, why);
		break;
	case STAGE_CHDIR:
		strbuf_addf(sb, "cannot change directory to '%s': %s",
			    st->opts->cwd, why);
		break;
	default:
		strbuf_addf(sb, "cannot set up the child for '%s': %s", argv0,
			    why);
		break;
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

	if (st->rep_len == sizeof(st->rep)) {
		res->status = RUNNER_EXEC;
		describe_exec_failure(st, &res->err_tail);
	} else if (st->killing) {
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

	kill(-st->pid, SIGKILL);
	drain(st);
	return error_addf(err, "cannot wait for '%s': %s", st->opts->argv[0],
			  strerror(wait_errno));
}

/* Everything after a successful fork(); t0 is the start on opts' clock. */
static int finish(struct run_state *st, uint64_t t0, struct strbuf *err)
{
	if (watch(st))
		return wait_failed(st, err);
	/* The child is a zombie: kill what is left of its group, then reap. */
	kill(-st->pid, SIGKILL);
	if (reap(st))
		return wait_failed(st, err);
	st->res->elapsed_s = (double)(clock_now(st->opts) - t0) / 1e9;
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
}

int runner_run(const struct runner_opts *opts, struct runner_result *result,
	       struct strbuf *err)
{
	struct run_state st = {
		.opts = opts,
		.res = result,
		.pid = -1,
		.fd = {-1, -1, -1, -1},
		.null_fd = -1,
		.out_w = -1,
		.err_w = -1,
		.exec_w = -1,
		.idle_ms = 1,
	};
	struct strvec paths = STRVEC_INIT;
	uint64_t t0, timeout_ns;
	int ret = -1;

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
	if (opts->env)
		exec_paths(opts, &paths);
	if (open_fds(&st, err))
		goto out;

	t0 = clock_now(opts);
	timeout_ns = seconds_to_ns(opts->timeout_s);
	if (timeout_ns)
		st.deadline_ns = mono_ns() + timeout_ns;
	if (spawn(&st, paths.v, err))
		goto out;
	ret = finish(&st, t0, err);
out:
	for (int k = 0; k < FD_NR; k++)
		close_fd(&st.fd[k]);
	close_child_fds(&st);
	strvec_clear(&paths);
	return ret;
}
