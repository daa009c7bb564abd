/* fake-bench: a deterministic stand-in for a benchmark, for tests. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "parse-num.h"
#include "util.h"

static const char usage[] =
	"usage: fake-bench [OPTION]...\n"
	"Options act in the order given; the exit status is 0 unless told.\n"
	"  --print TEXT      print TEXT and a newline on stdout\n"
	"  --stderr TEXT     print TEXT and a newline on stderr\n"
	"  --repeat N        later --print and --stderr print N times\n"
	"  --values A,B,...  print 'total:A', 'total:B', ... one per line\n"
	"  --env NAME        print the value of NAME, or '(unset)'\n"
	"  --pwd             print the working directory\n"
	"  --fds             print the open fds, such as '0 1 2'\n"
	"  --stdin           print what stdin is, such as '/dev/null'\n"
	"  --json            print a small JSON document\n"
	"  --flood BYTES     write BYTES bytes of lines of 'x' on stdout\n"
	"  --close-stdout    close stdout\n"
	"  --sleep SECONDS   sleep, then go on\n"
	"  --hang            sleep forever\n"
	"  --ignore-term     ignore SIGTERM from now on\n"
	"  --signal SIG      raise SIG, a number or a name such as TERM\n"
	"  --exit CODE       exit with CODE at once\n"
	"  --pidfile PATH    file where --fork-orphan writes the orphan's pid\n"
	"  --fork-orphan     fork a child that sleeps 1000 s and outlives us\n";

static const char json_doc[] =
	"{\n"
	"  \"benchmark\": \"fake-bench\",\n"
	"  \"results\": { \"total\": 123.5, \"ops\": [1, 2, 3] }\n"
	"}\n";

static const struct {
	const char *name;
	int sig;
} signals[] = {
	{"HUP", SIGHUP},   {"INT", SIGINT},   {"QUIT", SIGQUIT},
	{"ABRT", SIGABRT}, {"KILL", SIGKILL}, {"SEGV", SIGSEGV},
	{"PIPE", SIGPIPE}, {"ALRM", SIGALRM}, {"TERM", SIGTERM},
	{"USR1", SIGUSR1}, {"USR2", SIGUSR2},
};

MMCMP_NORETURN MMCMP_PRINTF(1, 2) static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("fake-bench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static int parse_signal(const char *s)
{
	int sig;

	if (parse_int(s, 1, 64, &sig))
		return sig;
	if (!strncmp(s, "SIG", 3))
		s += 3;
	for (size_t i = 0; i < ARRAY_SIZE(signals); i++)
		if (!strcmp(s, signals[i].name))
			return signals[i].sig;
	die("unknown signal '%s'", s);
}

/*
 * Raise sig. The faults a sanitizer catches get their default action
 * back first, so a sanitized build dies of the signal too; any other
 * disposition and the mask are left as inherited, which is what the
 * runner tests look at.
 */
static void raise_signal(int sig)
{
	if (sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL ||
	    sig == SIGABRT || sig == SIGTRAP)
		signal(sig, SIG_DFL);
	raise(sig);
}

static void sleep_s(double s)
{
	struct timespec ts;

	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void flood(int64_t bytes)
{
	static char buf[65536];

	fflush(stdout);
	memset(buf, 'x', sizeof(buf));
	for (size_t i = 63; i < sizeof(buf); i += 64)
		buf[i] = '\n';
	while (bytes > 0) {
		size_t n = bytes < (int64_t)sizeof(buf) ? (size_t)bytes
							: sizeof(buf);
		ssize_t w = write(STDOUT_FILENO, buf, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			exit(1);
		bytes -= w;
	}
}

static void print_values(const char *list)
{
	for (;;) {
		const char *comma = strchr(list, ',');
		int len = comma ? (int)(comma - list) : (int)strlen(list);

		printf("total:%.*s\n", len, list);
		if (!comma)
			break;
		list = comma + 1;
	}
}

static void fork_orphan(const char *pidfile)
{
	pid_t pid;
	FILE *f;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		die("cannot fork: %s", strerror(errno));
	if (!pid) {
		unsigned int left = 1000;

		while (left)
			left = sleep(left);
		_exit(0);
	}
	if (!pidfile)
		return;
	f = fopen(pidfile, "w");
	if (!f || fprintf(f, "%ld\n", (long)pid) < 0 || fclose(f))
		die("cannot write '%s'", pidfile);
}

static void print_cwd(void)
{
	char buf[4096];

	if (!getcwd(buf, sizeof(buf)))
		die("cannot get the working directory: %s", strerror(errno));
	printf("%s\n", buf);
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* The open fds in increasing order, one line; the listing's own left out. */
static void print_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	long fds[256];
	size_t nr = 0;

	if (!d)
		die("cannot open '/proc/self/fd': %s", strerror(errno));
	while ((de = readdir(d)) && nr < ARRAY_SIZE(fds)) {
		long fd = strtol(de->d_name, NULL, 10);

		if (de->d_name[0] != '.' && fd != dirfd(d))
			fds[nr++] = fd;
	}
	closedir(d);
	qsort(fds, nr, sizeof(fds[0]), cmp_long);
	for (size_t i = 0; i < nr; i++)
		printf("%s%ld", i ? " " : "", fds[i]);
	printf("\n");
}

static void print_stdin(void)
{
	char buf[4096];
	ssize_t n = readlink("/proc/self/fd/0", buf, sizeof(buf) - 1);

	if (n < 0)
		die("cannot read '/proc/self/fd/0': %s", strerror(errno));
	buf[n] = '\0';
	printf("%s\n", buf);
}

/* Act on option opt, which takes the argument arg. */
static void act(const char *opt, const char *arg, int64_t *repeat,
		const char **pidfile)
{
	int64_t n;
	double s;

	if (!strcmp(opt, "--print") || !strcmp(opt, "--stderr")) {
		FILE *f = strcmp(opt, "--print") ? stderr : stdout;

		for (int64_t i = 0; i < *repeat; i++)
			fprintf(f, "%s\n", arg);
	} else if (!strcmp(opt, "--repeat")) {
		if (!parse_int64(arg, 0, INT64_MAX, repeat))
			die("bad --repeat '%s'", arg);
	} else if (!strcmp(opt, "--values")) {
		print_values(arg);
	} else if (!strcmp(opt, "--env")) {
		printf("%s\n", getenv(arg) ? getenv(arg) : "(unset)");
	} else if (!strcmp(opt, "--flood")) {
		if (!parse_int64(arg, 0, INT64_MAX, &n))
			die("bad --flood '%s'", arg);
		flood(n);
	} else if (!strcmp(opt, "--sleep")) {
		if (!parse_double(arg, &s) || s < 0)
			die("bad --sleep '%s'", arg);
		sleep_s(s);
	} else if (!strcmp(opt, "--signal")) {
		raise_signal(parse_signal(arg));
	} else if (!strcmp(opt, "--exit")) {
		int code;

		if (!parse_int(arg, 0, 255, &code))
			die("bad --exit '%s'", arg);
		exit(code);
	} else if (!strcmp(opt, "--pidfile")) {
		*pidfile = arg;
	} else {
		die("unknown option '%s'", opt);
	}
}

int main(int argc, char **argv)
{
	int64_t repeat = 1;
	const char *pidfile = NULL;

	for (int i = 1; i < argc; i++) {
		const char *opt = argv[i];

		if (!strcmp(opt, "--help")) {
			fputs(usage, stdout);
		} else if (!strcmp(opt, "--pwd")) {
			print_cwd();
		} else if (!strcmp(opt, "--fds")) {
			print_fds();
		} else if (!strcmp(opt, "--stdin")) {
			print_stdin();
		} else if (!strcmp(opt, "--json")) {
			fputs(json_doc, stdout);
		} else if (!strcmp(opt, "--close-stdout")) {
			fflush(stdout);
			close(STDOUT_FILENO);
		} else if (!strcmp(opt, "--hang")) {
			fflush(NULL);
			for (;;)
				pause();
		} else if (!strcmp(opt, "--ignore-term")) {
			signal(SIGTERM, SIG_IGN);
		} else if (!strcmp(opt, "--fork-orphan")) {
			fork_orphan(pidfile);
		} else if (i + 1 < argc) {
			act(opt, argv[i + 1], &repeat, &pidfile);
			i++;
		} else {
			die("option '%s' needs an argument (see --help)", opt);
		}
		/* Each action is visible before the next one starts. */
		fflush(NULL);
	}
	return 0;
}
