/* netstream: loopback TCP bulk throughput, as netperf TCP_STREAM/SENDFILE. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "parse-num.h"
#include "util.h"
#include "wl-common.h"

#define PROG "netstream"

/* How long a socket may block before the instance is declared stuck. */
#define IO_TIMEOUT_S	  10
#define MAX_MESSAGE_BYTES (UINT64_C(64) << 20)

static const char usage_line[] =
	"netstream --mode stream|sendfile --instances N --size BYTES"
	" --seconds S";

static const char help_text[] =
	"Loopback TCP bulk throughput (netperf TCP_STREAM / TCP_SENDFILE).\n"
	"\n"
	"Starts N server/client pairs (threads) over 127.0.0.1 on ephemeral\n"
	"ports. Once all clients are connected, each sends SIZE-byte messages\n"
	"for S seconds, with send() or with sendfile() from a temporary file\n"
	"of SIZE bytes, then shuts down its side and waits for the server to\n"
	"report how many bytes it received. The server reads with a SIZE-byte\n"
	"buffer, like netperf -m SIZE -M SIZE.\n"
	"\n"
	"  --mode stream|sendfile   send() from memory, or sendfile() from\n"
	"                           a file\n"
	"  --instances N            number of pairs (1..256)\n"
	"  --size BYTES             message size, suffixes K M (1..64M)\n"
	"  --seconds S              sending time, may be fractional (0..3600)\n"
	"\n"
	"Output, once all pairs are done (Mbit = 10^6 bits, bytes received by\n"
	"the server over the client's time from first send to the server's\n"
	"report), one line per instance, each one sample:\n"
	"  instance %d: %.2f Mbit/s     (instances numbered from 1)\n"
	"  total: %.2f Mbit/s           (the sum)\n"
	"Exit status: 0 success, 1 failure, 2 bad usage.\n";

enum ns_mode {
	NS_STREAM,
	NS_SENDFILE,
};

struct ns_params {
	enum ns_mode mode;
	int instances;
	size_t size_bytes;
	double seconds;
	int file_fd; /* the sendfile source, or -1 */
};

/*
 * The start line: clients connect, check in, and wait until the main
 * thread says go (all clients are connected) or abort (a thread could not
 * be created, or a signal came).
 */
struct ns_gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int ready; /* clients checked in */
	bool go, abort;
};

/* One server/client pair; the error strings are static. */
struct ns_instance {
	const struct ns_params *params;
	struct ns_gate *gate;
	int listen_fd;
	struct sockaddr_in addr;
	pthread_t server, client;
	bool server_started, client_started;
	/* Written by the server thread. */
	uint64_t received_bytes;
	const char *server_err;
	int server_errno;
	/* Written by the client thread. */
	uint64_t reported_bytes;
	double elapsed_s;
	const char *client_err;
	int client_errno;
};

static void set_timeouts(int fd)
{
	struct timeval tv = {.tv_sec = IO_TIMEOUT_S};

	/* Failing only loses the safety net; the transfer still works. */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

/* Write all of buf to fd; returns 0 or -1 with errno set. */
static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Read exactly len bytes; returns 0, or -1 with errno set (0 for EOF). */
static int read_all(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n = recv(fd, p, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!n)
				errno = 0;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static void *server_main(void *arg)
{
	struct ns_instance *in = arg;
	char *buf = xmalloc(in->params->size_bytes);
	struct pollfd pfd = {.fd = in->listen_fd, .events = POLLIN};
	uint64_t total = 0;
	unsigned char report[8];
	int fd = -1, ready;

	do {
		ready = poll(&pfd, 1, IO_TIMEOUT_S * 1000);
	} while (ready < 0 && errno == EINTR);
	if (ready <= 0) {
		in->server_err = ready ? "poll" : "accept timed out";
		in->server_errno = ready ? errno : 0;
		goto out;
	}
	fd = accept(in->listen_fd, NULL, NULL);
	if (fd < 0) {
		in->server_err = "accept";
		in->server_errno = errno;
		goto out;
	}
	set_timeouts(fd);
	for (;;) {
		ssize_t n = recv(fd, buf, in->params->size_bytes, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			in->server_err = "recv";
			in->server_errno = errno;
			goto out;
		}
		if (!n)
			break;
		total += (uint64_t)n;
	}
	in->received_bytes = total;
	/* Big-endian, so the format does not depend on the machine. */
	for (int i = 0; i < 8; i++)
		report[i] = (unsigned char)(total >> (56 - 8 * i));
	if (write_all(fd, report, sizeof(report))) {
		in->server_err = "send";
		in->server_errno = errno;
	}
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}

/* Send one message; returns bytes sent or -1 with errno set. */
static ssize_t send_message(int fd, const struct ns_params *p, const char *buf)
{
	if (p->mode == NS_SENDFILE) {
		off_t off = 0;

		return sendfile(fd, p->file_fd, &off, p->size_bytes);
	}
	return send(fd, buf, p->size_bytes, MSG_NOSIGNAL);
}

static void *client_main(void *arg)
{
	struct ns_instance *in = arg;
	const struct ns_params *p = in->params;
	char *buf = NULL;
	unsigned char report[8];
	int64_t start_ns, deadline_ns, now_ns;
	uint64_t reported = 0;
	bool abort;
	int fd;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		in->client_err = "socket";
		in->client_errno = errno;
	} else {
		set_timeouts(fd);
		if (connect(fd, (const struct sockaddr *)&in->addr,
			    sizeof(in->addr))) {
			in->client_err = "connect";
			in->client_errno = errno;
		}
	}
	/* Check in even after a failure, or the main thread would wait. */
	pthread_mutex_lock(&in->gate->lock);
	in->gate->ready++;
	pthread_cond_broadcast(&in->gate->cond);
	while (!in->gate->go && !in->gate->abort)
		pthread_cond_wait(&in->gate->cond, &in->gate->lock);
	abort = in->gate->abort;
	pthread_mutex_unlock(&in->gate->lock);
	if (in->client_err || abort)
		goto out;
	if (p->mode == NS_STREAM) {
		buf = xmalloc(p->size_bytes);
		memset(buf, 'x', p->size_bytes);
	}
	start_ns = wl_now_ns();
	deadline_ns = start_ns + (int64_t)(p->seconds * 1e9);
	do {
		ssize_t n = send_message(fd, p, buf);

		if (n < 0 && errno != EINTR) {
			in->client_err =
				p->mode == NS_SENDFILE ? "sendfile" : "send";
			in->client_errno = errno;
			goto out;
		}
		now_ns = wl_now_ns();
	} while (now_ns < deadline_ns && !wl_interrupted());
	if (shutdown(fd, SHUT_WR)) {
		in->client_err = "shutdown";
		in->client_errno = errno;
		goto out;
	}
	if (read_all(fd, report, sizeof(report))) {
		in->client_err = errno ? "reading the server's report"
				       : "server closed without a report";
		in->client_errno = errno;
		goto out;
	}
	in->elapsed_s = (double)(wl_now_ns() - start_ns) / 1e9;
	for (int i = 0; i < 8; i++)
		reported = reported << 8 | report[i];
	in->reported_bytes = reported;
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}

/* Listen on 127.0.0.1 and an ephemeral port. Returns 0 or -1. */
static int open_listener(struct ns_instance *in)
{
	socklen_t len = sizeof(in->addr);

	in->listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (in->listen_fd < 0) {
		wl_error(PROG, "cannot create a socket: %s", strerror(errno));
		return -1;
	}
	memset(&in->addr, 0, sizeof(in->addr));
	in->addr.sin_family = AF_INET;
	in->addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	in->addr.sin_port = 0;
	if (bind(in->listen_fd, (const struct sockaddr *)&in->addr,
		 sizeof(in->addr)) ||
	    listen(in->listen_fd, 1) ||
	    getsockname(in->listen_fd, (struct sockaddr *)&in->addr, &len)) {
		wl_error(PROG, "cannot listen on 127.0.0.1: %s",
			 strerror(errno));
		return -1;
	}
	return 0;
}

/* A temporary file of SIZE bytes, already unlinked; returns fd or -1. */
static int make_source_file(size_t size)
{
	char path[PATH_MAX];
	char chunk[4096];
	int len, fd;

	len = snprintf(path, sizeof(path), "%s/mmcmp-netstream.XXXXXX",
		       wl_tmpdir());
	if (len < 0 || (size_t)len >= sizeof(path)) {
		wl_error(PROG, "temporary file name too long");
		return -1;
	}
	fd = mkstemp(path);
	if (fd < 0) {
		wl_error(PROG, "cannot create a file in '%s': %s", wl_tmpdir(),
			 strerror(errno));
		return -1;
	}
	unlink(path);
	memset(chunk, 'x', sizeof(chunk));
	while (size) {
		size_t n = size < sizeof(chunk) ? size : sizeof(chunk);
		ssize_t w = write(fd, chunk, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			wl_error(PROG, "cannot write the sendfile source: %s",
				 w ? strerror(errno) : "no progress");
			close(fd);
			return -1;
		}
		size -= (size_t)w;
	}
	return fd;
}

static void report_failure(int idx, const char *side, const char *what, int err)
{
	if (err)
		wl_error(PROG, "instance %d: %s: %s: %s", idx + 1, side, what,
			 strerror(err));
	else
		wl_error(PROG, "instance %d: %s: %s", idx + 1, side, what);
}

static int run(struct ns_params *p)
{
	struct ns_instance *ins = xcalloc((size_t)p->instances, sizeof(*ins));
	struct ns_gate gate = {
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.cond = PTHREAD_COND_INITIALIZER,
	};
	double total_mbps = 0;
	sigset_t all, old;
	int ret = WL_EXIT_FAILURE, err = 0, clients = 0;

	for (int i = 0; i < p->instances; i++)
		ins[i].listen_fd = -1;
	if (wl_catch_signals()) {
		wl_error(PROG, "cannot set up signals: %s", strerror(errno));
		goto out;
	}
	if (p->mode == NS_SENDFILE) {
		p->file_fd = make_source_file(p->size_bytes);
		if (p->file_fd < 0)
			goto out;
	}
	for (int i = 0; i < p->instances; i++) {
		ins[i].params = p;
		ins[i].gate = &gate;
		if (open_listener(&ins[i]))
			goto out;
	}
	/*
	 * Workers block the caught signals, so they reach the main thread.
	 * A client connects to its listener's backlog whether or not its
	 * server thread exists, so a failure here leaves nothing stuck.
	 */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (int i = 0; i < p->instances && !err; i++) {
		err = pthread_create(&ins[i].client, NULL, client_main,
				     &ins[i]);
		if (err)
			break;
		ins[i].client_started = true;
		clients++;
		err = pthread_create(&ins[i].server, NULL, server_main,
				     &ins[i]);
		ins[i].server_started = !err;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err)
		wl_error(PROG, "cannot create a thread: %s", strerror(err));
	pthread_mutex_lock(&gate.lock);
	while (gate.ready < clients)
		pthread_cond_wait(&gate.cond, &gate.lock);
	if (err || wl_interrupted())
		gate.abort = true;
	else
		gate.go = true;
	pthread_cond_broadcast(&gate.cond);
	pthread_mutex_unlock(&gate.lock);
	for (int i = 0; i < p->instances; i++) {
		if (ins[i].client_started)
			pthread_join(ins[i].client, NULL);
		if (ins[i].server_started)
			pthread_join(ins[i].server, NULL);
	}
	if (err || wl_interrupted())
		goto out;
	ret = WL_EXIT_OK;
	for (int i = 0; i < p->instances; i++) {
		struct ns_instance *in = &ins[i];

		if (in->server_err) {
			report_failure(i, "server", in->server_err,
				       in->server_errno);
			ret = WL_EXIT_FAILURE;
		}
		if (in->client_err) {
			report_failure(i, "client", in->client_err,
				       in->client_errno);
			ret = WL_EXIT_FAILURE;
		}
	}
	if (ret)
		goto out;
	for (int i = 0; i < p->instances; i++) {
		double mbps = (double)ins[i].reported_bytes * 8 /
			      ins[i].elapsed_s / 1e6;

		printf("instance %d: %.2f Mbit/s\n", i + 1, mbps);
		total_mbps += mbps;
	}
	printf("total: %.2f Mbit/s\n", total_mbps);
out:
	for (int i = 0; i < p->instances; i++)
		if (ins[i].listen_fd >= 0)
			close(ins[i].listen_fd);
	if (p->file_fd >= 0)
		close(p->file_fd);
	free(ins);
	return wl_check_interrupted(PROG, ret);
}

int main(int argc, char **argv)
{
	static const struct wl_option opts[] = {
		{"mode", true},
		{"instances", true},
		{"size", true},
		{"seconds", true},
	};
	struct wl_args args = WL_ARGS_INIT(PROG, usage_line, argc, argv);
	struct ns_params p = {.mode = NS_STREAM, .file_fd = -1};
	bool have_mode = false, have_seconds = false;
	const char *val;
	uint64_t size;
	int opt;

	while ((opt = wl_args_next(&args, opts, ARRAY_SIZE(opts), &val)) >= 0) {
		switch (opt) {
		case 0:
			if (!strcmp(val, "stream"))
				p.mode = NS_STREAM;
			else if (!strcmp(val, "sendfile"))
				p.mode = NS_SENDFILE;
			else
				return wl_bad_value(&args, "mode", val,
						    "stream or sendfile");
			have_mode = true;
			break;
		case 1:
			if (!parse_int(val, 1, 256, &p.instances))
				return wl_bad_value(&args, "instances", val,
						    "an integer in 1..256");
			break;
		case 2:
			if (!wl_parse_size(val, 1, MAX_MESSAGE_BYTES, &size))
				return wl_bad_value(&args, "size", val,
						    "a byte count in 1..64M");
			p.size_bytes = (size_t)size;
			break;
		case 3:
			if (!parse_double(val, &p.seconds) || p.seconds <= 0 ||
			    p.seconds > 3600)
				return wl_bad_value(&args, "seconds", val,
						    "a number in (0, 3600]");
			have_seconds = true;
			break;
		default:
			BUG("unhandled option %d", opt);
		}
	}
	if (opt != WL_ARGS_END)
		return wl_main_tail(&args, opt, help_text);
	if (!have_mode)
		return wl_usage_error(&args, "missing --mode");
	if (!p.instances)
		return wl_usage_error(&args, "missing --instances");
	if (!p.size_bytes)
		return wl_usage_error(&args, "missing --size");
	if (!have_seconds)
		return wl_usage_error(&args, "missing --seconds");
	return wl_finish_stdout(PROG, run(&p));
}
