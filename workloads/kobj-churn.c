/* kobj-churn: create/close cost of memcg-accounted kernel objects. */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "parse-num.h"
#include "util.h"
#include "wl-common.h"

#define PROG "kobj-churn"

static const char usage_line[] =
	"kobj-churn --op open|pipe|socket|eventfd|all --loops N";

static const char help_text[] =
	"Create/close cost of kernel objects charged to the memory cgroup.\n"
	"\n"
	"Runs a tight loop of LOOPS create/close pairs per operation and\n"
	"reports the mean wall-clock (CLOCK_MONOTONIC) time of one pair:\n"
	"  open         open() and close() of a temporary file\n"
	"               (in $TMPDIR or /tmp, removed afterwards)\n"
	"  pipe         pipe() and close() of both ends\n"
	"  socket-unix  socket(AF_UNIX, SOCK_STREAM) and close()\n"
	"  socket-udp   socket(AF_INET, SOCK_DGRAM) and close()\n"
	"  eventfd      eventfd() and close()\n"
	"\n"
	"  --op open|pipe|socket|eventfd|all\n"
	"                 what to run; socket is socket-unix and\n"
	"                 socket-udp, all is everything, in the order above\n"
	"  --loops N      create/close pairs per operation (1..1000000000)\n"
	"\n"
	"Output, one line per operation run:\n"
	"  <op> %.1f      nanoseconds per create/close pair\n"
	"e.g. \"open 812.3\".\n"
	"Exit status: 0 success, 1 failure, 2 bad usage.\n";

/* Bits of --op; each operation belongs to one group. */
enum kc_group {
	KC_OPEN = 1 << 0,
	KC_PIPE = 1 << 1,
	KC_SOCKET = 1 << 2,
	KC_EVENTFD = 1 << 3,
	KC_ALL = KC_OPEN | KC_PIPE | KC_SOCKET | KC_EVENTFD,
};

/* One create/close pair; returns 0, or -1 with errno set. */
typedef int kc_fn(const char *path);

static int op_open(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	return fd < 0 ? -1 : close(fd);
}

static int op_pipe(const char *path)
{
	int fds[2];

	(void)path;
	if (pipe(fds))
		return -1;
	/* Both ends are closed even if the first close fails. */
	return close(fds[0]) | close(fds[1]);
}

static int op_socket(int domain, int type)
{
	int fd = socket(domain, type | SOCK_CLOEXEC, 0);

	return fd < 0 ? -1 : close(fd);
}

static int op_socket_unix(const char *path)
{
	(void)path;
	return op_socket(AF_UNIX, SOCK_STREAM);
}

static int op_socket_udp(const char *path)
{
	(void)path;
	return op_socket(AF_INET, SOCK_DGRAM);
}

static int op_eventfd(const char *path)
{
	int fd = eventfd(0, EFD_CLOEXEC);

	(void)path;
	return fd < 0 ? -1 : close(fd);
}

static const struct kc_op {
	const char *name;
	enum kc_group group;
	kc_fn *fn;
} ops[] = {
	{"open", KC_OPEN, op_open},
	{"pipe", KC_PIPE, op_pipe},
	{"socket-unix", KC_SOCKET, op_socket_unix},
	{"socket-udp", KC_SOCKET, op_socket_udp},
	{"eventfd", KC_EVENTFD, op_eventfd},
};

/* Time `loops` pairs of `op`; prints the result line. Returns 0 or -1. */
static int time_op(const struct kc_op *op, const char *path, int64_t loops)
{
	int64_t start, end;

	/* One untimed call, so a failure is reported before timing. */
	if (op->fn(path)) {
		wl_error(PROG, "%s: %s", op->name, strerror(errno));
		return -1;
	}
	start = wl_now_ns();
	for (int64_t i = 0; i < loops; i++) {
		if (op->fn(path)) {
			wl_error(PROG, "%s: %s", op->name, strerror(errno));
			return -1;
		}
		/* A cheap load: lets a signal end a long run with cleanup. */
		if (wl_interrupted())
			return -1;
	}
	end = wl_now_ns();
	printf("%s %.1f\n", op->name, (double)(end - start) / (double)loops);
	fflush(stdout);
	return 0;
}

static int run(unsigned groups, int64_t loops)
{
	char path[PATH_MAX] = "";
	int ret = WL_EXIT_FAILURE;

	if (wl_catch_signals()) {
		wl_error(PROG, "cannot set up signals: %s", strerror(errno));
		return WL_EXIT_FAILURE;
	}
	if (groups & KC_OPEN) {
		int len = snprintf(path, sizeof(path), "%s/mmcmp-kobj.XXXXXX",
				   wl_tmpdir());
		int fd;

		if (len < 0 || (size_t)len >= sizeof(path)) {
			wl_error(PROG, "temporary file name too long");
			return WL_EXIT_FAILURE;
		}
		fd = mkstemp(path);
		if (fd < 0) {
			wl_error(PROG, "cannot create a file in '%s': %s",
				 wl_tmpdir(), strerror(errno));
			return WL_EXIT_FAILURE;
		}
		close(fd);
	}
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++) {
		if (!(groups & ops[i].group))
			continue;
		if (time_op(&ops[i], path, loops))
			goto out;
	}
	ret = WL_EXIT_OK;
out:
	if (*path && unlink(path)) {
		wl_error(PROG, "cannot remove '%s': %s", path, strerror(errno));
		ret = WL_EXIT_FAILURE;
	}
	return wl_check_interrupted(PROG, ret);
}

int main(int argc, char **argv)
{
	static const struct wl_option opts[] = {
		{"op", true},
		{"loops", true},
	};
	static const struct {
		const char *name;
		unsigned groups;
	} op_names[] = {
		{"open", KC_OPEN},     {"pipe", KC_PIPE},
		{"socket", KC_SOCKET}, {"eventfd", KC_EVENTFD},
		{"all", KC_ALL},
	};
	struct wl_args args = WL_ARGS_INIT(PROG, usage_line, argc, argv);
	unsigned groups = 0;
	int64_t loops = 0;
	const char *val;
	int opt;

	while ((opt = wl_args_next(&args, opts, ARRAY_SIZE(opts), &val)) >= 0) {
		switch (opt) {
		case 0:
			groups = 0;
			for (size_t i = 0; i < ARRAY_SIZE(op_names); i++)
				if (!strcmp(val, op_names[i].name))
					groups = op_names[i].groups;
			if (!groups)
				return wl_bad_value(
					&args, "op", val,
					"open, pipe, socket, eventfd or all");
			break;
		case 1:
			if (!parse_int64(val, 1, 1000000000, &loops))
				return wl_bad_value(
					&args, "loops", val,
					"an integer in 1..1000000000");
			break;
		default:
			BUG("unhandled option %d", opt);
		}
	}
	if (opt != WL_ARGS_END)
		return wl_main_tail(&args, opt, help_text);
	if (!groups)
		return wl_usage_error(&args, "missing --op");
	if (!loops)
		return wl_usage_error(&args, "missing --loops");
	return wl_finish_stdout(PROG, run(groups, loops));
}
