/* Unit tests for runner, driven through tests/helpers/fake-bench. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "cgroup.h"
#include "runner.h"
#include "strbuf.h"
#include "util.h"

/* Up to this many arguments after the fake-bench path. */
#define MAX_ARGS 12

static const char *fake_bench;

/*
 * Runs whose whole outcome is in their status, exit code and output. The
 * unset args are NULL, and a NULL out or err_tail stands for "".
 */
static const struct {
	const char *name;
	const char *args[MAX_ARGS];
	const char *out;
	const char *err_tail;
	size_t stdout_max;
	enum runner_status status;
	int code; /* the exit code, or the signal for RUNNER_SIGNAL */
	bool truncated;
} cases[] = {
	{.name = "ok with output",
	 .args = {"--print", "total:123"},
	 .out = "total:123\n"},
	{.name = "repeat",
	 .args = {"--repeat", "3", "--print", "a"},
	 .out = "a\na\na\n"},
	{.name = "values",
	 .args = {"--values", "1.5,2,3"},
	 .out = "total:1.5\ntotal:2\ntotal:3\n"},
	{.name = "no output"},
	{.name = "exit code",
	 .args = {"--print", "x", "--stderr", "oops", "--exit", "3"},
	 .out = "x\n",
	 .err_tail = "oops\n",
	 .status = RUNNER_EXIT,
	 .code = 3},
	{.name = "exit 255",
	 .args = {"--exit", "255"},
	 .status = RUNNER_EXIT,
	 .code = 255},
	{.name = "killed by SIGSEGV",
	 .args = {"--print", "before", "--signal", "SEGV"},
	 .out = "before\n",
	 .status = RUNNER_SIGNAL,
	 .code = SIGSEGV},
	{.name = "killed by SIGKILL",
	 .args = {"--signal", "KILL"},
	 .status = RUNNER_SIGNAL,
	 .code = SIGKILL},
	{.name = "SIGINT ignored by us is default in the child",
	 .args = {"--signal", "INT"},
	 .status = RUNNER_SIGNAL,
	 .code = SIGINT},
	{.name = "SIGPIPE ignored by us is default in the child",
	 .args = {"--signal", "PIPE"},
	 .status = RUNNER_SIGNAL,
	 .code = SIGPIPE},
	{.name = "SIGTERM blocked by us is unblocked in the child",
	 .args = {"--signal", "TERM"},
	 .status = RUNNER_SIGNAL,
	 .code = SIGTERM},
	{.name = "stdout at the limit",
	 .args = {"--print", "012345678"},
	 .out = "012345678\n",
	 .stdout_max = 10},
	{.name = "stdout one byte over the limit",
	 .args = {"--print", "0123456789"},
	 .out = "0123456789",
	 .stdout_max = 10,
	 .truncated = true},
	{.name = "stdout closed early",
	 .args = {"--print", "early", "--close-stdout", "--sleep", "0.2",
		  "--stderr", "still here", "--print", "lost"},
	 .out = "early\n",
	 .err_tail = "still here\n"},
	{.name = "json",
	 .args = {"--json"},
	 .out = "{\n  \"benchmark\": \"fake-bench\",\n"
		"  \"results\": { \"total\": 123.5, \"ops\": [1, 2, 3] }\n}\n"},
};

/* Commands that cannot be executed: RUNNER_EXEC and the reason. */
#define NOENT ": No such file or directory"
#define ACCES ": Permission denied"
static const struct {
	const char *argv0;
	const char *cwd;
	const char *err_tail;
	bool with_env;
} exec_cases[] = {
	{"mmcmp-no-such-command", NULL,
	 "cannot execute 'mmcmp-no-such-command'" NOENT, false},
	{"mmcmp-no-such-command", NULL,
	 "cannot execute 'mmcmp-no-such-command'" NOENT, true},
	{"/nonexistent/fake-bench", NULL,
	 "cannot execute '/nonexistent/fake-bench'" NOENT, false},
	{"/dev/null", NULL, "cannot execute '/dev/null'" ACCES, false},
	{"/dev/null", NULL, "cannot execute '/dev/null'" ACCES, true},
	{"", NULL, "cannot execute ''" NOENT, true},
	{"true", "/nonexistent",
	 "cannot change directory to '/nonexistent'" NOENT, false},
};

/* Build fake-bench's argv from a NULL-terminated argument list. */
static void bench_argv(char **argv, const char *const *args)
{
	size_t n = 0;

	argv[n++] = (char *)fake_bench;
	for (size_t i = 0; i < MAX_ARGS && args[i]; i++)
		argv[n++] = (char *)args[i];
	argv[n] = NULL;
}

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

static void test_cases(void)
{
	sigset_t term, old;

	/*
	 * Dispositions and the mask of this process must not reach the child:
	 * the rows with SIGINT, SIGPIPE and SIGTERM check that.
	 */
	signal(SIGINT, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigprocmask(SIG_BLOCK, &term, &old);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *argv[MAX_ARGS + 2];
		struct runner_opts opts = {.argv = argv, .timeout_s = 60};
		struct runner_result res = RUNNER_RESULT_INIT;
		struct strbuf err = STRBUF_INIT;
		bool good;

		bench_argv(argv, cases[i].args);
		opts.stdout_max = cases[i].stdout_max;
		good = !runner_run(&opts, &res, &err) &&
		       res.status == cases[i].status &&
		       (res.status == RUNNER_SIGNAL
				? res.term_signal
				: res.exit_code) == cases[i].code &&
		       res.out_truncated == cases[i].truncated &&
		       !strcmp(res.out.buf, or_empty(cases[i].out)) &&
		       !strcmp(res.err_tail.buf, or_empty(cases[i].err_tail)) &&
		       !err.len;
		if (!good)
			diag("status %s, exit %d, signal %d, out '%s', "
			     "err_tail '%s', err '%s'",
			     runner_status_name(res.status), res.exit_code,
			     res.term_signal, res.out.buf, res.err_tail.buf,
			     err.buf);
		ok(good, "%s", cases[i].name);
		runner_result_release(&res);
		strbuf_release(&err);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	signal(SIGINT, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
}

static void test_exec_errors(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(exec_cases); i++) {
		char *argv[] = {(char *)exec_cases[i].argv0, NULL};
		char *env[] = {(char *)"PATH=/nonexistent:/elsewhere", NULL};
		struct runner_opts opts = {
			.argv = argv,
			.env = exec_cases[i].with_env ? env : NULL,
			.cwd = exec_cases[i].cwd,
		};
		struct runner_result res = RUNNER_RESULT_INIT;
		struct strbuf err = STRBUF_INIT;
		int ret = runner_run(&opts, &res, &err);

		ok(!ret && res.status == RUNNER_EXEC,
		   "exec case %zu: status %s", i,
		   runner_status_name(res.status));
		is_str(res.err_tail.buf, exec_cases[i].err_tail,
		       "exec case %zu: message", i);
		runner_result_release(&res);
		strbuf_release(&err);
	}
}

static void test_empty_argv(void)
{
	char *argv[] = {NULL};
	struct runner_opts opts = {.argv = argv};
	struct runner_result res = RUNNER_RESULT_INIT;
	struct strbuf err = STRBUF_INIT;

	ok(runner_run(&opts, &res, &err) == -1, "empty argv fails");
	is_str(err.buf, "cannot run an empty command", "empty argv message");
	runner_result_release(&res);
	strbuf_release(&err);
}

/* With SIGCHLD ignored the kernel reaps the child: an error, not a hang. */
static void test_sigchld_ignored(void)
{
	char *argv[] = {(char *)fake_bench, NULL};
	struct runner_opts opts = {.argv = argv, .timeout_s = 60};
	struct runner_result res = RUNNER_RESULT_INIT;
	struct strbuf err = STRBUF_INIT;
	struct strbuf want = STRBUF_INIT;

	signal(SIGCHLD, SIG_IGN);
	ok(runner_run(&opts, &res, &err) == -1, "SIGCHLD ignored: fails");
	signal(SIGCHLD, SIG_DFL);
	strbuf_addf(&want, "cannot wait for '%s': No child processes",
		    fake_bench);
	is_str(err.buf, want.buf, "SIGCHLD ignored: message");
	strbuf_release(&want);
	runner_result_release(&res);
	strbuf_release(&err);
}

/* Run fake-bench with args and opts' other fields; returns the status. */
static enum runner_status run_bench(struct runner_opts *opts,
				    struct runner_result *res,
				    const char *const *args)
{
	char *argv[MAX_ARGS + 2];
	struct strbuf err = STRBUF_INIT;

	bench_argv(argv, args);
	opts->argv = argv;
	if (runner_run(opts, res, &err)) {
		diag("runner_run: %s", err.buf);
		res->status = RUNNER_EXEC;
	}
	opts->argv = NULL;
	strbuf_release(&err);
	return res->status;
}

static bool is_status(enum runner_status got, enum runner_status want,
		      const char *what)
{
	if (got != want)
		diag("got %s", runner_status_name(got));
	return ok(got == want, "%s: %s", what, runner_status_name(want));
}

static bool pid_gone(pid_t pid)
{
	/* The orphan was reparented to us (subreaper); reap it if dead. */
	waitpid(pid, NULL, WNOHANG);
	return kill(pid, 0) == -1 && errno == ESRCH;
}

/* Wait up to 2 s for pid to disappear. */
static bool wait_gone(pid_t pid)
{
	struct timespec tick = {0, 10000000L};

	for (int i = 0; i < 200; i++) {
		if (pid_gone(pid))
			return true;
		nanosleep(&tick, NULL);
	}
	return pid_gone(pid);
}

static pid_t read_pidfile(const char *path)
{
	char buf[32] = "";
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	long pid;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	pid = strtol(buf, NULL, 10);
	return pid > 1 ? (pid_t)pid : -1;
}

/*
 * fake-bench leaves a grandchild holding the pipes; the runner must kill
 * it, whether fake-bench exits or times out, and must not wait for it.
 * The grandchild sleeps 1000 s, so a runner that waited for it would time
 * out: the exit's row has a bound a loaded machine cannot reach (a
 * sanitized fake-bench has taken over 1 s to exit in CI), the hang's a
 * short one.
 */
static void test_orphans(const char *dir)
{
	static const struct {
		const char *name;
		const char *action, *arg;
		double timeout_s;
		enum runner_status status;
	} rows[] = {
		{"orphan after exit", "--print", "done", 60.0, RUNNER_OK},
		{"orphan after timeout", "--hang", NULL, 1.0, RUNNER_TIMEOUT},
	};

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		struct strbuf pidfile = STRBUF_INIT;
		struct runner_opts opts = {.timeout_s = rows[i].timeout_s};
		struct runner_result res = RUNNER_RESULT_INIT;
		const char *args[] = {"--pidfile",     NULL,
				      "--fork-orphan", rows[i].action,
				      rows[i].arg,     NULL};
		pid_t pid;

		strbuf_addf(&pidfile, "%s/orphan-%zu.pid", dir, i);
		args[1] = pidfile.buf;
		is_status(run_bench(&opts, &res, args), rows[i].status,
			  rows[i].name);
		pid = read_pidfile(pidfile.buf);
		ok(pid > 0 && wait_gone(pid), "%s: grandchild %ld is gone",
		   rows[i].name, (long)pid);
		unlink(pidfile.buf);
		strbuf_release(&pidfile);
		runner_result_release(&res);
	}
}

/*
 * A process that leaves the command's process group (setsid) is killed
 * after the command and counted in strays; one that stays in the group
 * is killed and not counted (issue 11, item 9). The command waits until
 * its child has written its pid, so the child has left by then.
 */
static void test_strays(const char *dir)
{
	static const struct {
		const char *name, *start;
		bool keep_daemons;
		size_t strays;
	} rows[] = {
		{"a child in the group", "", false, 0},
		{"a child in its own session", "setsid ", false, 1},
		{"a child in the group, daemons kept", "", true, 0},
		{"a daemon kept", "setsid ", true, 0},
	};

	if (access("/usr/bin/setsid", X_OK) && access("/bin/setsid", X_OK)) {
		ok(true, "# SKIP no setsid command");
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		struct strbuf pidfile = STRBUF_INIT, script = STRBUF_INIT;
		struct runner_result res = RUNNER_RESULT_INIT;
		struct strbuf err = STRBUF_INIT;
		char sh[] = "/bin/sh", c[] = "-c";
		char *argv[] = {sh, c, NULL, NULL};
		struct runner_opts opts = {
			.argv = argv,
			.timeout_s = 10,
			.keep_daemons = rows[i].keep_daemons,
		};
		bool kept = rows[i].keep_daemons && *rows[i].start;
		pid_t pid;

		strbuf_addf(&pidfile, "%s/stray-%zu.pid", dir, i);
		/* echo is built in: no process of the child's to count. */
		strbuf_addf(&script,
			    "%ssh -c 'echo $$ >%s; exec sleep 4600.%zu' "
			    "</dev/null >/dev/null 2>&1 & "
			    "while [ ! -s %s ]; do sleep 0.01; done",
			    rows[i].start, pidfile.buf, i, pidfile.buf);
		argv[2] = script.buf;
		ok(!runner_run(&opts, &res, &err) && res.status == RUNNER_OK,
		   "%s: the command runs (%s): %s", rows[i].name,
		   runner_status_name(res.status), err.buf);
		pid = read_pidfile(pidfile.buf);
		if (kept) {
			ok(pid > 0 && !pid_gone(pid), "%s: process %ld runs on",
			   rows[i].name, (long)pid);
			if (pid > 0) {
				kill(pid, SIGKILL);
				waitpid(pid, NULL, 0); /* ours: subreaper */
			}
		} else {
			ok(pid > 0 && wait_gone(pid), "%s: process %ld is gone",
			   rows[i].name, (long)pid);
		}
		ok(res.strays == rows[i].strays, "%s: %zu strays (want %zu)",
		   rows[i].name, res.strays, rows[i].strays);
		unlink(pidfile.buf);
		strbuf_release(&pidfile);
		strbuf_release(&script);
		strbuf_release(&err);
		runner_result_release(&res);
	}
}

/*
 * A child of ours older than the command is not the command's: the sweep
 * after it leaves it alone, while one the command left is killed.
 */
static void test_older_child(const char *dir)
{
	struct strbuf pidfile = STRBUF_INIT, script = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT;
	struct runner_result res = RUNNER_RESULT_INIT;
	struct timespec ticks = {0, 50000000L}; /* 5 ticks at USER_HZ 100 */
	char sh[] = "/bin/sh", c[] = "-c";
	char *argv[] = {sh, c, NULL, NULL};
	struct runner_opts opts = {.argv = argv, .timeout_s = 10};
	pid_t older = fork(), left;

	if (older < 0)
		BUG("fork: %s", strerror(errno));
	if (!older) {
		pause();
		_exit(0);
	}
	nanosleep(&ticks, NULL);
	strbuf_addf(&pidfile, "%s/left.pid", dir);
	strbuf_addf(&script,
		    "setsid sh -c 'echo $$ >%s; exec sleep 4601' "
		    "</dev/null >/dev/null 2>&1 & "
		    "while [ ! -s %s ]; do sleep 0.01; done",
		    pidfile.buf, pidfile.buf);
	argv[2] = script.buf;
	ok(!runner_run(&opts, &res, &err) && res.status == RUNNER_OK,
	   "older child: the command runs: %s", err.buf);
	left = read_pidfile(pidfile.buf);
	ok(left > 0 && wait_gone(left) && res.strays == 1,
	   "older child: what the command left is killed");
	ok(!pid_gone(older), "older child: ours, started before, runs on");
	kill(older, SIGKILL);
	waitpid(older, NULL, 0);
	unlink(pidfile.buf);
	strbuf_release(&pidfile);
	strbuf_release(&script);
	strbuf_release(&err);
	runner_result_release(&res);
}

static void test_timeouts(void)
{
	struct runner_opts opts = {.timeout_s = 0.3, .grace_s = 0.3};
	struct runner_result res = RUNNER_RESULT_INIT;
	const char *hang[] = {"--print", "started", "--hang", NULL};
	const char *stubborn[] = {"--ignore-term", "--print", "ignoring",
				  "--hang", NULL};

	enum runner_status status;

	/*
	 * What the child printed before the timeout is kept. A child that
	 * had not printed yet when it was killed (a loaded machine) proves
	 * nothing either way: the case runs again with a timeout four
	 * times longer, up to about 20 s.
	 */
	for (;;) {
		status = run_bench(&opts, &res, hang);
		if (res.out.len || opts.timeout_s > 10)
			break;
		diag("hang: nothing printed within %.1f s, again",
		     opts.timeout_s);
		opts.timeout_s *= 4;
	}
	is_status(status, RUNNER_TIMEOUT, "hang");
	is_str(res.out.buf, "started\n", "hang: output kept");
	opts.timeout_s = 0.3;
	is_status(run_bench(&opts, &res, stubborn), RUNNER_TIMEOUT,
		  "SIGTERM ignored");
	/*
	 * A child slower to start than the timeout (a sanitizer's runtime
	 * on a busy machine) is still killed by the SIGTERM it had no time
	 * to ignore; one that said it ignores SIGTERM needs the SIGKILL.
	 */
	ok(strstr(res.out.buf, "ignoring") ? res.term_signal == SIGKILL
					   : res.term_signal == SIGTERM,
	   "SIGTERM ignored: SIGKILL after grace (%s)",
	   strstr(res.out.buf, "ignoring") ? "it ignored SIGTERM"
					   : "SIGTERM came first");
	runner_result_release(&res);
}

static volatile sig_atomic_t alarm_stop;

static void on_alarm(int sig)
{
	(void)sig;
	alarm_stop = 1;
}

static void test_stop(void)
{
	volatile sig_atomic_t preset = 1;
	struct runner_opts opts = {.timeout_s = 60, .stop = &preset};
	struct runner_result res = RUNNER_RESULT_INIT;
	const char *hang[] = {"--hang", NULL};
	struct itimerval it = {.it_value = {0, 200000L}};
	struct sigaction sa;

	is_status(run_bench(&opts, &res, hang), RUNNER_INTERRUPTED,
		  "stop set before");

	/* As a SIGINT handler would: the signal interrupts poll(). */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	opts.stop = &alarm_stop;
	setitimer(ITIMER_REAL, &it, NULL);
	is_status(run_bench(&opts, &res, hang), RUNNER_INTERRUPTED,
		  "stop set by a signal handler");
	signal(SIGALRM, SIG_DFL);
	runner_result_release(&res);
}

static void test_env_and_cwd(const char *dir)
{
	char *env[] = {(char *)"MMCMP_TEST_VAR=hello", NULL};
	struct runner_opts opts = {.timeout_s = 60};
	struct runner_result res = RUNNER_RESULT_INIT;
	const char *show[] = {"--env", "MMCMP_TEST_VAR", "--env",
			      "MMCMP_TEST_PARENT", NULL};
	const char *pwd[] = {"--pwd", NULL};
	struct strbuf want = STRBUF_INIT;

	setenv("MMCMP_TEST_PARENT", "parent", 1);
	run_bench(&opts, &res, show);
	is_str(res.out.buf, "(unset)\nparent\n", "no env: inherited");
	opts.env = env;
	run_bench(&opts, &res, show);
	is_str(res.out.buf, "hello\n(unset)\n", "env replaces environment");
	unsetenv("MMCMP_TEST_PARENT");

	opts.env = NULL;
	opts.cwd = dir;
	run_bench(&opts, &res, pwd);
	strbuf_addf(&want, "%s\n", dir);
	is_str(res.out.buf, want.buf, "cwd honoured");
	strbuf_release(&want);
	runner_result_release(&res);
}

/* With env given, argv[0] is searched in that env's PATH, else ours. */
static void test_path_search(void)
{
	const char *slash = strrchr(fake_bench, '/');
	struct strbuf path = STRBUF_INIT;
	char *argv[] = {(char *)"fake-bench", (char *)"--print",
			(char *)"found", NULL};
	char *env[] = {NULL, NULL};
	char *no_path[] = {(char *)"X=1", NULL};
	char *old_path = xstrdup(getenv("PATH"));
	struct runner_opts opts = {.argv = argv, .env = env};
	struct runner_result res = RUNNER_RESULT_INIT;
	struct strbuf err = STRBUF_INIT;

	strbuf_addstr(&path, "PATH=/nonexistent:");
	strbuf_add(&path, fake_bench, (size_t)(slash - fake_bench));
	env[0] = path.buf;
	runner_run(&opts, &res, &err);
	is_str(res.out.buf, "found\n", "env PATH is searched");

	setenv("PATH", path.buf + strlen("PATH="), 1);
	opts.env = no_path;
	runner_run(&opts, &res, &err);
	is_str(res.out.buf, "found\n", "env without PATH: ours is searched");
	if (old_path)
		setenv("PATH", old_path, 1);
	else
		unsetenv("PATH");
	free(old_path);
	ok(!err.len, "path search: no error");
	strbuf_release(&path);
	strbuf_release(&err);
	runner_result_release(&res);
}

/*
 * How argv[0] is found. In path, cwd and want, "@H" stands for the
 * directory of fake-bench and "@T" for the temporary directory, where
 * make_path_fixture() puts three things named fake-bench: dir/fake-bench
 * is a directory, noexec/fake-bench a file without execute permission
 * and junk/fake-bench an executable the kernel cannot run. A NULL path
 * runs with env NULL and our PATH set to "@H". want is the output, or the
 * status and err_tail. The exec error of junk/fake-bench comes from the
 * child itself, through its report pipe, so it is the same under valgrind,
 * which runs the vfork() as a fork().
 */
static const struct {
	const char *name;
	const char *argv0;
	const char *path;
	const char *cwd;
	const char *want;
	/*
	 * What runner_find_program() gives for the same PATH and cwd: the
	 * file, or strerror() of its errno; NULL where runner_run() fails
	 * before it searches.
	 */
	const char *found;
} path_cases[] = {
	{.name = "env NULL: our PATH is searched",
	 .argv0 = "fake-bench",
	 .want = "found\n",
	 .found = "@H/fake-bench"},
	{.name = "a directory named like the command is skipped",
	 .argv0 = "fake-bench",
	 .path = "@T/dir:@H",
	 .want = "found\n",
	 .found = "@H/fake-bench"},
	{.name = "a file without execute permission is skipped",
	 .argv0 = "fake-bench",
	 .path = "@T/noexec:@H",
	 .want = "found\n",
	 .found = "@H/fake-bench"},
	{.name = "only unusable matches: permission denied",
	 .argv0 = "fake-bench",
	 .path = "@T/dir:/nonexistent:@T/noexec",
	 .want = "exec: cannot execute 'fake-bench'" ACCES,
	 .found = "Permission denied"},
	{.name = "an empty PATH entry is the child's cwd",
	 .argv0 = "fake-bench",
	 .path = "/nonexistent::/elsewhere",
	 .cwd = "@H",
	 .want = "found\n",
	 .found = "./fake-bench"},
	{.name = "a '.' PATH entry is the child's cwd",
	 .argv0 = "fake-bench",
	 .path = ".",
	 .cwd = "@H",
	 .want = "found\n",
	 .found = "./fake-bench"},
	{.name = "a relative name with a slash is from the child's cwd",
	 .argv0 = "./fake-bench",
	 .path = "/nonexistent",
	 .cwd = "@H",
	 .want = "found\n",
	 .found = "./fake-bench"},
	{.name = "the first executable found is the one run",
	 .argv0 = "fake-bench",
	 .path = "@T/junk:@H",
	 .want = "exec: cannot execute 'fake-bench': Exec format error",
	 .found = "@T/junk/fake-bench"},
	{.name = "cwd is a file",
	 .argv0 = "fake-bench",
	 .path = "@H",
	 .cwd = "@T/noexec/fake-bench",
	 .want = "exec: cannot change directory to '@T/noexec/fake-bench': "
		 "Not a directory"},
};

/* Append s to sb with "@H" and "@T" replaced by helpers and tmp. */
static void add_expanded(struct strbuf *sb, const char *s, const char *helpers,
			 const char *tmp)
{
	while (*s) {
		if (s[0] == '@' && s[1] == 'H') {
			strbuf_addstr(sb, helpers);
			s += 2;
		} else if (s[0] == '@' && s[1] == 'T') {
			strbuf_addstr(sb, tmp);
			s += 2;
		} else {
			strbuf_addch(sb, *s++);
		}
	}
}

/* The things named fake-bench under the temporary directory. */
static const struct {
	const char *sub;
	bool is_dir;
	mode_t mode;
} path_fixture[] = {
	{"dir", true, 0755},
	{"noexec", false, 0644},
	{"junk", false, 0755},
};

static bool make_path_fixture(const char *dir)
{
	static const char junk[] = "not a program\n";
	struct strbuf sb = STRBUF_INIT;
	bool good = true;

	for (size_t i = 0; i < ARRAY_SIZE(path_fixture); i++) {
		int fd;

		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/%s", dir, path_fixture[i].sub);
		good = good && !mkdir(sb.buf, 0755);
		strbuf_addstr(&sb, "/fake-bench");
		if (path_fixture[i].is_dir) {
			good = good && !mkdir(sb.buf, path_fixture[i].mode);
			continue;
		}
		fd = open(sb.buf, O_WRONLY | O_CREAT | O_EXCL, 0600);
		good = good && fd >= 0 &&
		       write(fd, junk, sizeof(junk) - 1) == sizeof(junk) - 1 &&
		       !fchmod(fd, path_fixture[i].mode);
		if (fd >= 0)
			close(fd);
	}
	strbuf_release(&sb);
	return good;
}

static void remove_path_fixture(const char *dir)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(path_fixture); i++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/%s/fake-bench", dir, path_fixture[i].sub);
		if (path_fixture[i].is_dir)
			rmdir(sb.buf);
		else
			unlink(sb.buf);
		strbuf_setlen(&sb, sb.len - strlen("/fake-bench"));
		rmdir(sb.buf);
	}
	strbuf_release(&sb);
}

static void test_path_rules(const char *dir)
{
	const char *slash = strrchr(fake_bench, '/');
	char *helpers = xstrndup(fake_bench, (size_t)(slash - fake_bench));
	char *old_path = xstrdup(getenv("PATH"));
	struct strbuf path = STRBUF_INIT, cwd = STRBUF_INIT;
	struct strbuf want = STRBUF_INIT, got = STRBUF_INIT;

	ok(make_path_fixture(dir), "path fixture created");
	for (size_t i = 0; i < ARRAY_SIZE(path_cases); i++) {
		char *argv[] = {(char *)path_cases[i].argv0, (char *)"--print",
				(char *)"found", NULL};
		char *env[] = {NULL, NULL};
		struct runner_opts opts = {.argv = argv, .timeout_s = 60};
		struct runner_result res = RUNNER_RESULT_INIT;
		struct strbuf err = STRBUF_INIT;

		strbuf_reset(&path);
		strbuf_reset(&cwd);
		strbuf_reset(&want);
		strbuf_reset(&got);
		if (path_cases[i].path) {
			strbuf_addstr(&path, "PATH=");
			add_expanded(&path, path_cases[i].path, helpers, dir);
			env[0] = path.buf;
			opts.env = env;
		} else {
			setenv("PATH", helpers, 1);
		}
		if (path_cases[i].cwd) {
			add_expanded(&cwd, path_cases[i].cwd, helpers, dir);
			opts.cwd = cwd.buf;
		}
		add_expanded(&want, path_cases[i].want, helpers, dir);
		if (runner_run(&opts, &res, &err))
			strbuf_addf(&got, "error: %s", err.buf);
		else if (res.status == RUNNER_OK)
			strbuf_addstr(&got, res.out.buf);
		else
			strbuf_addf(&got, "%s: %s",
				    runner_status_name(res.status),
				    res.err_tail.buf);
		if (path_cases[i].found) {
			struct strbuf file = STRBUF_INIT;
			int e = runner_find_program(path_cases[i].argv0,
						    env[0] ? env[0] + 5
							   : getenv("PATH"),
						    opts.cwd, &file);

			strbuf_reset(&want);
			add_expanded(&want, path_cases[i].found, helpers, dir);
			is_str(e ? strerror(e) : file.buf, want.buf,
			       "path case %zu: runner_find_program() agrees",
			       i);
			strbuf_reset(&want);
			add_expanded(&want, path_cases[i].want, helpers, dir);
			strbuf_release(&file);
		}
		if (old_path)
			setenv("PATH", old_path, 1);
		else
			unsetenv("PATH");
		is_str(got.buf, want.buf, "path case %zu: %s", i,
		       path_cases[i].name);
		runner_result_release(&res);
		strbuf_release(&err);
	}
	remove_path_fixture(dir);
	strbuf_release(&path);
	strbuf_release(&cwd);
	strbuf_release(&want);
	strbuf_release(&got);
	free(old_path);
	free(helpers);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/*
 * The fds any child of ours gets, as fake-bench --fds prints them: 0, 1
 * and 2, and those we have open without close-on-exec, such as ones the
 * test harness leaked to us.
 */
static void inherited_fds(struct strbuf *sb)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int fds[256];
	size_t nr = 0;

	strbuf_addstr(sb, "0 1 2");
	while (d && (de = readdir(d)) && nr < ARRAY_SIZE(fds)) {
		int fd = (int)strtol(de->d_name, NULL, 10);
		int flags = fcntl(fd, F_GETFD);

		if (de->d_name[0] != '.' && fd > STDERR_FILENO &&
		    fd != dirfd(d) && flags >= 0 && !(flags & FD_CLOEXEC))
			fds[nr++] = fd;
	}
	if (d)
		closedir(d);
	qsort(fds, nr, sizeof(fds[0]), cmp_int);
	for (size_t i = 0; i < nr; i++)
		strbuf_addf(sb, " %d", fds[i]);
	strbuf_addch(sb, '\n');
}

/* The child gets stdin from /dev/null, the pipes, and no fd of ours. */
static void test_child_fds(void)
{
	struct runner_opts opts = {.timeout_s = 60};
	struct runner_result res = RUNNER_RESULT_INIT;
	const char *args[] = {"--fds", "--stdin", NULL};
	struct strbuf want = STRBUF_INIT;

	inherited_fds(&want);
	strbuf_addstr(&want, "/dev/null\n");
	is_status(run_bench(&opts, &res, args), RUNNER_OK, "child fds");
	is_str(res.out.buf, want.buf,
	       "child fds: 0 from /dev/null, 1, 2, none of the runner's");
	strbuf_release(&want);
	runner_result_release(&res);
}

/* Set sb to the bytes of path; false when it cannot be read. */
static bool read_whole(const char *path, struct strbuf *sb)
{
	strbuf_reset(sb);
	return !strbuf_read_file(sb, path, NULL);
}

/*
 * cgroup_procs: the child writes itself into each. Regular files stand in
 * for cgroup.procs (a write of "0" to one succeeds), so everything but the
 * kernel's part is checked on any machine: the child writes before it
 * runs the command, which is set up as without cgroups; a file that
 * cannot be written keeps the command from starting, and says why.
 */
static void test_cgroup_procs(const char *dir)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, want = STRBUF_INIT;
	struct strbuf got = STRBUF_INIT;
	const char *files[3], *bad[3];
	struct runner_opts opts = {.timeout_s = 60, .cwd = dir};
	struct runner_result res = RUNNER_RESULT_INIT;
	const char *fds[] = {"--fds", "--stdin", "--pwd", NULL};
	const char *fail[] = {"--stderr", "oops", "--exit", "3", NULL};
	const char *hang[] = {"--hang", NULL};
	FILE *f;

	strbuf_addf(&a, "%s/a.procs", dir);
	strbuf_addf(&b, "%s/b.procs", dir);
	for (int i = 0; i < 2; i++) {
		f = fopen(i ? b.buf : a.buf, "w");
		if (!f || fclose(f))
			BUG("cannot create the procs files in '%s'", dir);
	}
	files[0] = a.buf;
	files[1] = b.buf;
	files[2] = NULL;
	opts.cgroup_procs = files;
	inherited_fds(&want);
	strbuf_addf(&want, "/dev/null\n%s\n", dir);
	is_status(run_bench(&opts, &res, fds), RUNNER_OK, "cgroup_procs: runs");
	is_str(res.out.buf, want.buf,
	       "cgroup_procs: same fds, stdin and cwd as without");
	strbuf_reset(&got);
	ok(read_whole(a.buf, &got) && !strcmp(got.buf, "0") &&
		   read_whole(b.buf, &got) && !strcmp(got.buf, "0"),
	   "cgroup_procs: the child wrote \"0\" into each file");
	is_status(run_bench(&opts, &res, fail), RUNNER_EXIT,
		  "cgroup_procs: a failing command");
	ok(res.exit_code == 3 && !strcmp(res.err_tail.buf, "oops\n"),
	   "cgroup_procs: exit code and stderr");
	opts.timeout_s = 0.2;
	opts.grace_s = 0.2;
	is_status(run_bench(&opts, &res, hang), RUNNER_TIMEOUT,
		  "cgroup_procs: timeout kills the process group");
	opts.timeout_s = 60;

	bad[0] = a.buf;
	bad[1] = "/nonexistent-mmcmp-dir/cgroup.procs";
	bad[2] = NULL;
	opts.cgroup_procs = bad;
	is_status(run_bench(&opts, &res, fds), RUNNER_EXEC,
		  "cgroup_procs: a file that cannot be written");
	is_str(res.err_tail.buf,
	       "cannot enter cgroup '/nonexistent-mmcmp-dir': No such file "
	       "or directory",
	       "cgroup_procs: the message names the cgroup");
	ok(!res.out.len, "cgroup_procs: the command did not run");
	opts.cwd = "/nonexistent-mmcmp-dir";
	is_status(run_bench(&opts, &res, fds), RUNNER_EXEC,
		  "cgroup_procs: a bad cwd");
	unlink(a.buf);
	unlink(b.buf);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&want);
	strbuf_release(&got);
	runner_result_release(&res);
}

/*
 * A real cgroup v2 among cgroup_procs, where we can make one (root): the
 * command starts in it (cloned into it where the machine can, else it
 * writes itself in, as under valgrind), with and without the guard, and
 * still enters the other cgroups of the list.
 */
static void test_cgroup_v2(const char *dir)
{
	struct strbuf err = STRBUF_INIT, want = STRBUF_INIT, file = STRBUF_INIT;
	struct strbuf got = STRBUF_INIT;
	struct cgroup *cg = cgroup_create_own("mmcmp-test-runner", &err);
	struct runner_guard guard = RUNNER_GUARD_INIT;
	struct runner_result res = RUNNER_RESULT_INIT;
	char *argv[] = {(char *)"/bin/sh", (char *)"-c",
			(char *)"grep '^0::' /proc/self/cgroup", NULL};
	struct runner_opts opts = {.argv = argv, .timeout_s = 60};
	const char *procs[3];
	FILE *f;

	if (!cg) {
		ok(true, "# SKIP no cgroup of our own here: %s", err.buf);
		goto out;
	}
	strbuf_addf(&want, "0::/%s\n", strrchr(cgroup_where(cg), '/') + 1);
	strbuf_addf(&file, "%s/c.procs", dir);
	f = fopen(file.buf, "w");
	if (!f || fclose(f))
		BUG("cannot create '%s'", file.buf);
	procs[0] = file.buf;
	procs[1] = cgroup_procs(cg)[0];
	procs[2] = NULL;
	opts.cgroup_procs = procs;
	for (int g = 0; g < 2; g++) {
		if (g && runner_guard_start(&guard, &err))
			BUG("no guard: %s", err.buf);
		opts.guard = g ? &guard : NULL;
		if (runner_run(&opts, &res, &err))
			BUG("runner_run: %s", err.buf);
		is_str(res.out.buf, want.buf,
		       "cgroup v2: the command ran in it%s",
		       g ? ", with the guard" : "");
		ok(read_whole(file.buf, &got) && !strcmp(got.buf, "0"),
		   "cgroup v2: and wrote itself into the other%s",
		   g ? ", with the guard" : "");
		truncate(file.buf, 0);
	}
	/*
	 * The directory of the cgroup is kept open from command to
	 * command: one removed and made again at the same path is the
	 * new one's, with the guard and without.
	 */
	ok(!cgroup_remove(cg, &err), "cgroup v2: removed, empty");
	cg = cgroup_create_own("mmcmp-test-runner", &err);
	if (!cg)
		BUG("cannot make the cgroup again: %s", err.buf);
	procs[1] = cgroup_procs(cg)[0];
	for (int g = 1; g >= 0; g--) {
		opts.guard = g ? &guard : NULL;
		for (int k = 0; k < 2; k++) {
			if (runner_run(&opts, &res, &err))
				BUG("runner_run: %s", err.buf);
			is_str(res.out.buf, want.buf,
			       "cgroup v2 made again: the command ran in the new"
			       " one, %s%s",
			       k ? "again" : "first",
			       g ? ", with the guard" : "");
		}
	}
	runner_guard_stop(&guard);
	unlink(file.buf);
	ok(!cgroup_remove(cg, &err), "cgroup v2: removed, empty");
out:
	if (err.len)
		diag("%s", err.buf);
	runner_result_release(&res);
	strbuf_release(&err);
	strbuf_release(&want);
	strbuf_release(&file);
	strbuf_release(&got);
}

/*
 * Our peak RSS in KiB (VmHWM). Not getrusage(): its ru_maxrss starts at
 * the peak of the process that exec'd us, such as meson's Python.
 */
static long self_hwm_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmHWM:", 6))
			kb = strtol(line + 6, NULL, 10);
	if (f)
		fclose(f);
	return kb;
}

static void test_flood(void)
{
	const size_t max = (size_t)1 << 20;
	struct runner_opts opts = {.timeout_s = 120, .stdout_max = max};
	struct runner_result res = RUNNER_RESULT_INIT;
	const char *flood[] = {"--flood", "200000000", "--print", "end", NULL};
	const char *tail[] = {"--repeat", "5000",	   "--stderr",
			      "noise",	  "--repeat",	   "1",
			      "--stderr", "0123456789END", NULL};
	long before = self_hwm_kb();
	long grown;

	is_status(run_bench(&opts, &res, flood), RUNNER_OK, "flood");
	ok(res.out.len == max && res.out_truncated,
	   "flood: kept %zu bytes, truncated", res.out.len);
	grown = self_hwm_kb() - before;
	diag("flood of 200 MB: our max RSS %ld KiB, grown by %ld KiB",
	     before + grown, grown);
	ok(before > 0 && grown < 16384, "flood: RSS grew by less than 16 MiB");

	opts.stderr_tail = 10;
	run_bench(&opts, &res, tail);
	is_str(res.err_tail.buf, "456789END\n", "stderr tail: last bytes");
	runner_result_release(&res);
}

/* A fake clock that moves by exactly one second at each reading. */
static uint64_t fake_now_ns(void *ctx)
{
	uint64_t *calls = ctx;

	return ++*calls * 1000000000ULL;
}

static void test_clock(void)
{
	static const char *const rows[][MAX_ARGS] = {
		{"--print", "x", NULL},
		{"--sleep", "0.1", "--exit", "1", NULL},
		{"--hang", NULL},
	};
	uint64_t calls = 0;
	const struct runner_ops ops = {.now_ns = fake_now_ns, .ctx = &calls};
	struct runner_opts opts = {.ops = &ops, .timeout_s = 0.2};
	struct runner_result res = RUNNER_RESULT_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		calls = 0;
		run_bench(&opts, &res, rows[i]);
		ok(res.elapsed_s == 1.0 && calls == 2,
		   "fake clock, case %zu: elapsed %.17g s, %lu readings", i,
		   res.elapsed_s, (unsigned long)calls);
	}
	runner_result_release(&res);
}

/* The tick hook: counts its calls and notes when the first came. */
struct ticks {
	unsigned calls;
	struct timespec first;
};

static void count_tick(void *ctx)
{
	struct ticks *t = ctx;

	if (!t->calls++)
		clock_gettime(CLOCK_MONOTONIC, &t->first);
}

static double ts_diff(const struct timespec *a, const struct timespec *b)
{
	return (double)(a->tv_sec - b->tv_sec) +
	       (double)(a->tv_nsec - b->tv_nsec) / 1e9;
}

/*
 * Periodic ticks (monitor samples). How many fit depends on the machine,
 * so only the bounds are checked: a child that runs 0.4 s with a tick
 * every 0.1 s gets at least one and at most one per 0.1 s it ran, the
 * first no sooner than 0.1 s after the start; none without the hook or
 * the period, or for a quick child.
 */
static void test_ticks(void)
{
	struct ticks t = {0};
	struct timespec start;
	struct runner_opts opts = {
		.timeout_s = 30,
		.tick = count_tick,
		.tick_ctx = &t,
		.tick_s = 0.1,
	};
	struct runner_result res = RUNNER_RESULT_INIT;
	const char *slow[] = {"--print", "a", "--sleep", "0.4",
			      "--print", "b", NULL};
	const char *quick[] = {"--print", "x", NULL};
	const char *stubborn[] = {"--ignore-term", "--print", "ignoring",
				  "--hang", NULL};

	clock_gettime(CLOCK_MONOTONIC, &start);
	is_status(run_bench(&opts, &res, slow), RUNNER_OK, "ticks: runs");
	is_str(res.out.buf, "a\nb\n", "ticks: output read all the same");
	ok(t.calls >= 1 && t.calls <= res.elapsed_s / 0.1 + 1e-9,
	   "ticks: 1 to elapsed / tick_s calls (%u in %.3f s)", t.calls,
	   res.elapsed_s);
	ok(t.calls && ts_diff(&t.first, &start) >= 0.1,
	   "ticks: the first comes tick_s after the start");
	t.calls = 0;
	opts.tick_s = 10;
	run_bench(&opts, &res, quick);
	ok(!t.calls, "ticks: none for a child quicker than tick_s");
	opts.tick_s = 0;
	run_bench(&opts, &res, slow);
	ok(!t.calls, "ticks: none with tick_s 0");
	opts.tick_s = 0.05;
	opts.tick = NULL;
	run_bench(&opts, &res, slow);
	ok(!t.calls, "ticks: none without the hook");
	/*
	 * None while a timed-out child is being killed: 0.2 s hold at most
	 * 4 ticks, the 0.4 s of grace after them none.
	 */
	t.calls = 0;
	opts.tick = count_tick;
	opts.tick_s = 0.05;
	opts.timeout_s = 0.2;
	opts.grace_s = 0.4;
	is_status(run_bench(&opts, &res, stubborn), RUNNER_TIMEOUT,
		  "ticks: timeout");
	ok(t.calls <= 4, "ticks: none after the timeout (%u)", t.calls);
	runner_result_release(&res);
}

static void test_names(void)
{
	static const char *const want[] = {"ok",      "exit",	     "signal",
					   "timeout", "interrupted", "exec"};

	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		is_str(runner_status_name((enum runner_status)i), want[i],
		       "status name %zu", i);
}

/* Write an executable script at path that prints what. */
static bool put_prog(const char *path, const char *what)
{
	FILE *f = fopen(path, "w");
	bool done = f && fprintf(f, "#!/bin/sh\necho %s\n", what) > 0;

	if (f && fclose(f))
		done = false;
	return done && !chmod(path, 0755);
}

/* What argv0 prints when run with PATH=path, through lookup (or not). */
static void run_prog(const char *argv0, const char *path,
		     struct runner_lookup *lookup, struct strbuf *got)
{
	char *argv[] = {(char *)argv0, NULL};
	struct strbuf env = STRBUF_INIT, err = STRBUF_INIT;
	char *envv[] = {NULL, NULL};
	struct runner_opts opts = {.argv = argv, .timeout_s = 60};
	struct runner_result res = RUNNER_RESULT_INIT;

	strbuf_addf(&env, "PATH=%s", path);
	envv[0] = env.buf;
	opts.env = envv;
	opts.lookup = lookup;
	strbuf_reset(got);
	if (runner_run(&opts, &res, &err))
		strbuf_addf(got, "error: %s", err.buf);
	else if (res.status == RUNNER_OK)
		strbuf_add(got, res.out.buf, res.out.len);
	else
		strbuf_addstr(got, runner_status_name(res.status));
	runner_result_release(&res);
	strbuf_release(&env);
	strbuf_release(&err);
}

/*
 * runner_opts.lookup: the iterations of a run keep the program first
 * found while it is there, though one of the same name appears earlier
 * in PATH, and look again once it is gone.
 */
static void test_lookup(const char *dir)
{
	struct runner_lookup lookup = RUNNER_LOOKUP_INIT;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, path = STRBUF_INIT,
		      got = STRBUF_INIT, prog = STRBUF_INIT;

	strbuf_addf(&a, "%s/lookup-a", dir);
	strbuf_addf(&b, "%s/lookup-b", dir);
	strbuf_addf(&path, "%s:%s", a.buf, b.buf);
	ok(!mkdir(a.buf, 0700) && !mkdir(b.buf, 0700), "two PATH directories");
	strbuf_addf(&prog, "%s/mmcmp-t-prog", b.buf);
	ok(put_prog(prog.buf, "b"), "a program in the second");
	run_prog("mmcmp-t-prog", path.buf, &lookup, &got);
	is_str(got.buf, "b\n", "the first run finds it");
	is_str(lookup.file ? lookup.file : "(none)", prog.buf,
	       "and keeps where");
	strbuf_reset(&prog);
	strbuf_addf(&prog, "%s/mmcmp-t-prog", a.buf);
	ok(put_prog(prog.buf, "a"), "then one of the same name in the first");
	run_prog("mmcmp-t-prog", path.buf, &lookup, &got);
	is_str(got.buf, "b\n", "the next run keeps the program it found");
	run_prog("mmcmp-t-prog", path.buf, NULL, &got);
	is_str(got.buf, "a\n", "a run without the lookup finds the new one");
	strbuf_reset(&prog);
	strbuf_addf(&prog, "%s/mmcmp-t-prog", b.buf);
	ok(!unlink(prog.buf), "the program found goes");
	run_prog("mmcmp-t-prog", path.buf, &lookup, &got);
	is_str(got.buf, "a\n", "the next run looks again");
	run_prog("mmcmp-t-prog", b.buf, &lookup, &got);
	is_str(got.buf, "exec", "and another PATH is another lookup");
	strbuf_reset(&prog);
	strbuf_addf(&prog, "%s/mmcmp-t-prog", a.buf);
	unlink(prog.buf);
	rmdir(a.buf);
	rmdir(b.buf);
	runner_lookup_release(&lookup);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&path);
	strbuf_release(&got);
	strbuf_release(&prog);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	struct strbuf tmpl = STRBUF_INIT;
	char *dir;

	fake_bench = getenv("FAKE_BENCH");
	if (!fake_bench || !strchr(fake_bench, '/')) {
		printf("1..0 # SKIP FAKE_BENCH is not set to a path\n");
		return 0;
	}
	strbuf_addf(&tmpl, "%s/mmcmp-test-runner-XXXXXX",
		    tmp && *tmp ? tmp : "/tmp");
	/* The real path, as the child's getcwd() reports it. */
	dir = mkdtemp(tmpl.buf) ? realpath(tmpl.buf, NULL) : NULL;
	if (!dir) {
		printf("Bail out! cannot create a temporary directory\n");
		return 1;
	}
	/* Orphaned grandchildren come to us, so we can see them reaped. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);

	test_names();
	test_cases();
	test_exec_errors();
	test_empty_argv();
	test_sigchld_ignored();
	test_timeouts();
	test_orphans(dir);
	test_strays(dir);
	test_older_child(dir);
	test_stop();
	test_env_and_cwd(dir);
	test_path_search();
	test_path_rules(dir);
	test_lookup(dir);
	test_child_fds();
	test_cgroup_procs(dir);
	test_cgroup_v2(dir);
	test_flood();
	test_clock();
	test_ticks();
	rmdir(dir);
	free(dir);
	strbuf_release(&tmpl);
	done_testing();
	return exit_status();
}
