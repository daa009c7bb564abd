/* executor-qemu: run commands in a QEMU guest, boot by boot. */
#define _GNU_SOURCE
#include "executor-qemu.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "executor.h"
#include "initramfs.h"
#include "machine.h"
#include "monitor.h"
#include "names.h"
#include "parse-num.h"
#include "profile.h"
#include "run-data.h"
#include "runner.h"
#include "sha256.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"
#include "vmproto.h"

/* Bytes of the console kept with a failed boot. */
#define CONSOLE_TAIL 2048
/*
 * What the guest's second 8250 port carries to the host, at least: about
 * a quarter of the 30 KB/s measured with TCG on a loaded 2-CPU host (4 MB
 * of stdout took 130 s), as a host busier still is slower. A guest's
 * stdout is capped so that its result arrives within boot_timeout
 * (guest_stdout_max()).
 */
#define GUEST_LINK_BYTES_PER_S ((double)8 * 1024)
/* The runner's default stdout cap (runner.h), for stdout_max 0. */
#define GUEST_STDOUT_DEFAULT ((size_t)64 * 1024 * 1024)

struct kernel {
	char *name, *image, *append, *sha256, *release;
};

struct executor_qemu {
	struct executor base; /* first: the operations cast back to us */
	struct runner_guard guard;
	struct monitor mon;
	char *qemu, *accel;
	bool norandmaps; /* the guests' kernel gets norandmaps */
	struct kernel *kernels;
	size_t kernels_nr;
	long cpus;
	int64_t memory_mb;
	double boot_timeout_s;
	bool monitors;
	size_t stdout_max;
	struct strvec perf_events; /* asked of the agent (monitor-perf.h) */
	/* The guest's perf counters and why some are absent, for mon.rec. */
	struct monitor_snapshot perf;
	struct strbuf perf_absent;
	struct strvec programs; /* what the initramfs holds */
	char *dir;		/* our temporary directory */
	char *root;		/* the initramfs in it */
	char *version;		/* of qemu */
	/* The current boot. */
	pid_t pid; /* qemu, or -1 */
	int fd;	   /* the protocol socket, or -1 */
	bool dead; /* the boot failed or ended: why is in `why` */
	struct strbuf why;
	struct strbuf console; /* its path */
	struct strbuf in;      /* bytes read and not parsed yet */
	uint32_t seq;	       /* of the boot's last request */
	struct strbuf env;     /* its last environment sent, NUL-separated */
	/*
	 * The snapshot lines' names the agent has sent this boot, and the
	 * last result's snapshot fields, unpacked (snapshot_fields()) as
	 * each result arrives, so that every frame the agent packed is
	 * unpacked in turn; snap_bad: they could not be, why in snap_err.
	 */
	struct vmproto_names names;
	struct vmproto_field snap_fields[2 * MONITOR_SOURCE_NR];
	size_t snap_nr;
	bool snap_bad;
	struct strbuf snap_err;
	struct strbuf snap_texts[2 * MONITOR_SOURCE_NR];
	struct machine_info *guest;
	long number;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* What a file that is not a regular one is, for messages. */
static const char *file_kind(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

/*
 * Read at most max bytes of the image at path into the empty sb. It is opened
 * without blocking and read only when it is a regular file: a FIFO or a
 * device named as a kernel image would block mmcmp or never end.
 */
static int read_image(const char *path, size_t max, struct strbuf *sb,
		      struct strbuf *err)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), ret = -1;

	if (fd < 0)
		return error_addf(err, "cannot open '%s': %s", path,
				  strerror(errno));
	if (fstat(fd, &st)) {
		error_addf(err, "cannot stat '%s': %s", path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		error_addf(err, "image '%s' is %s, not a regular file", path,
			   file_kind(st.st_mode));
		goto out;
	}
	while (sb->len < max) {
		size_t want = max - sb->len < 65536 ? max - sb->len : 65536;
		ssize_t n;

		strbuf_grow(sb, want);
		n = read(fd, sb->buf + sb->len, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			error_addf(err, "cannot read '%s': %s", path,
				   strerror(errno));
			goto out;
		}
		if (!n)
			break;
		strbuf_setlen(sb, sb->len + (size_t)n);
	}
	ret = 0;
out:
	close(fd);
	return ret;
}

int qemu_image_release(const char *path, char **release, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	size_t off, end;
	int ret = -1;

	*release = NULL;
	if (read_image(path, 65536, &sb, err))
		goto out;
	/* The setup header: "HdrS" at 0x202, the version pointer at 0x20e. */
	if (sb.len < 0x210 || memcmp(sb.buf + 0x202, "HdrS", 4)) {
		error_addf(err, "'%s' is not a bzImage (no setup header)",
			   path);
		goto out;
	}
	off = 0x200 + ((size_t)(unsigned char)sb.buf[0x20e] |
		       (size_t)(unsigned char)sb.buf[0x20f] << 8);
	for (end = off; end < sb.len && sb.buf[end] > ' '; end++)
		;
	if (off >= sb.len || end == off) {
		error_addf(err, "'%s' has no kernel version string", path);
		goto out;
	}
	*release = xstrndup(sb.buf + off, end - off);
	ret = 0;
out:
	strbuf_release(&sb);
	return ret;
}

/* Shell-quote argv into out, for the record and for messages. */
static void quote_argv(char *const *argv, struct strbuf *out)
{
	for (size_t i = 0; argv[i]; i++) {
		const char *a = argv[i];

		if (i)
			strbuf_addch(out, ' ');
		if (*a && !strpbrk(a, " \t\n'\"\\$`*?[]{}()<>|&;#~,=")) {
			strbuf_addstr(out, a);
			continue;
		}
		strbuf_addch(out, '\'');
		for (; *a; a++) {
			if (*a == '\'')
				strbuf_addstr(out, "'\\''");
			else
				strbuf_addch(out, *a);
		}
		strbuf_addch(out, '\'');
	}
}

/*
 * Start argv in its own process group with stdin from /dev/null and
 * stdout and stderr to log (or a pipe into *out_fd when log is NULL).
 */
static pid_t spawn(char *const *argv, const char *log, int *out_fd,
		   struct strbuf *err)
{
	int fds[2] = {-1, -1};
	pid_t pid;

	if (!log && pipe2(fds, O_CLOEXEC)) {
		error_addf(err, "cannot create a pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		error_addf(err, "cannot start '%s': %s", argv[0],
			   strerror(errno));
		return -1;
	}
	if (!pid) {
		sigset_t none;
		int in = open("/dev/null", O_RDONLY);
		int out = log ? open(log, O_WRONLY | O_CREAT | O_APPEND, 0600)
			      : fds[1];

		setpgid(0, 0);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 ||
		    dup2(out, 2) < 0)
			_exit(126);
		execvp(argv[0], argv);
		_exit(127);
	}
	setpgid(pid, pid);
	if (!log) {
		close(fds[1]);
		*out_fd = fds[0];
	}
	return pid;
}

/* Stop process group pid: SIGTERM, then SIGKILL after grace_s; reap it. */
static int stop_process(pid_t pid, double grace_s)
{
	double until = now_s() + grace_s;
	int status = 0;

	kill(-pid, SIGTERM);
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (now_s() > until) {
			kill(-pid, SIGKILL);
			waitpid(pid, &status, 0);
			break;
		}
		usleep(20000);
	}
	kill(-pid, SIGKILL); /* what is left of the group */
	return status;
}

int qemu_version(const char *qemu, struct strbuf *out, struct strbuf *err)
{
	char version[] = "--version";
	char *argv[] = {(char *)qemu, version, NULL};
	struct runner_opts o = {.argv = argv, .timeout_s = 10};
	struct runner_result r = RUNNER_RESULT_INIT;
	int ret = -1;

	if (runner_run(&o, &r, err))
		goto out;
	if (r.status != RUNNER_OK) {
		error_addf(
			err,
			"cannot run '%s': %s; install the Debian package 'qemu-system-x86' (apt-get install qemu-system-x86)",
			qemu,
			r.status == RUNNER_EXEC ? r.err_tail.buf
						: runner_status_name(r.status));
		goto out;
	}
	strbuf_add(out, r.out.buf, strcspn(r.out.buf, "\n"));
	ret = 0;
out:
	runner_result_release(&r);
	return ret;
}

/* The last non-empty line of text into line, control characters dropped. */
static void last_line(const struct strbuf *text, struct strbuf *line)
{
	size_t end = text->len, start;

	while (end &&
	       (text->buf[end - 1] == '\n' || text->buf[end - 1] == '\r'))
		end--;
	for (start = end; start && text->buf[start - 1] != '\n'; start--)
		;
	for (size_t i = start; i < end; i++)
		if ((unsigned char)text->buf[i] >= 0x20 && text->buf[i] != 0x7f)
			strbuf_addch(line, text->buf[i]);
}

int qemu_probe_kvm(const char *qemu, const char *image, double timeout_s,
		   struct strbuf *err)
{
	static const char *const args[] = {
		"-accel",      "kvm",
		"-m",	       "256",
		"-nodefaults", "-display",
		"none",	       "-no-reboot",
		"-serial",     "stdio",
		"-append",     "console=ttyS0 panic=-1 init=/nonexistent",
		"-kernel",
	};
	struct strvec argv = STRVEC_INIT;
	struct strbuf out = STRBUF_INIT, line = STRBUF_INIT;
	double until = now_s() + timeout_s;
	bool timed_out = false;
	int fd = -1, ret = -1;
	pid_t pid;

	strvec_push(&argv, qemu);
	for (size_t i = 0; i < ARRAY_SIZE(args); i++)
		strvec_push(&argv, args[i]);
	strvec_push(&argv, image);
	pid = spawn(argv.v, NULL, &fd, err);
	strvec_clear(&argv);
	if (pid < 0)
		return -1;
	/* The kernel printing its banner means KVM ran it. */
	while (!strstr(out.buf, "Linux version")) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		char buf[4096];
		ssize_t n;
		double left = until - now_s();

		if (left <= 0) {
			timed_out = true;
			break;
		}
		/* Nothing yet, or a signal: the loop checks the time. */
		if (poll(&p, 1, (int)(left * 1000) + 1) <= 0)
			continue;
		n = read(fd, buf, sizeof(buf));
		if (n <= 0)
			break;
		strbuf_add(&out, buf, (size_t)n);
	}
	if (strstr(out.buf, "Linux version")) {
		ret = 0;
		goto out;
	}
	last_line(&out, &line);
	if (timed_out)
		error_addf(err,
			   "accel: kvm probe did not answer within %g s (KVM "
			   "guests hang on this machine?); use accel: tcg%s%s",
			   timeout_s, line.len ? "; qemu's last line: " : "",
			   line.buf);
	else
		error_addf(
			err,
			"accel: kvm does not work here (%s); use accel: tcg (emulated, slow, but it runs anywhere)",
			line.len ? line.buf : "qemu failed without a message");
out:
	close(fd);
	stop_process(pid, 1);
	strbuf_release(&out);
	strbuf_release(&line);
	return ret;
}

/* Append the last bytes of the console to sb, after ": console: ". */
static void console_tail(const struct executor_qemu *eq, struct strbuf *sb)
{
	struct strbuf text = STRBUF_INIT, e = STRBUF_INIT;
	size_t from;

	if (strbuf_read_file(&text, eq->console.buf, &e) || !text.len)
		goto out;
	from = text.len > CONSOLE_TAIL ? text.len - CONSOLE_TAIL : 0;
	strbuf_addstr(sb, "; console:\n");
	/*
	 * Control characters (the firmware clears the screen) escaped as
	 * `mmcmp show` escapes them, \x1b, one console line per line.
	 */
	names_escape_lines(sb, text.buf + from, text.len - from);
out:
	strbuf_release(&text);
	strbuf_release(&e);
}

/* End the guest (if any) and reap qemu; the boot is over. */
static void end_guest(struct executor_qemu *eq, bool graceful)
{
	if (eq->fd >= 0 && graceful && eq->pid > 0 && !eq->dead) {
		struct strbuf f = STRBUF_INIT;
		size_t start = vmproto_begin(&f, VMPROTO_POWEROFF, 0);
		double until = now_s() + 5;

		vmproto_end(&f, start);
		if (write(eq->fd, f.buf, f.len) == (ssize_t)f.len)
			while (now_s() < until &&
			       waitpid(eq->pid, NULL, WNOHANG) == 0)
				usleep(20000);
		strbuf_release(&f);
	}
	if (eq->fd >= 0)
		close(eq->fd);
	eq->fd = -1;
	if (eq->pid > 0)
		stop_process(eq->pid, 2);
	eq->pid = -1;
	runner_guard_tell(&eq->guard, 0);
}

/*
 * The boot failed or ended abnormally: say why (with the console's tail)
 * and stop qemu. Every command of this boot fails from now on.
 */
static void guest_died(struct executor_qemu *eq, const char *fmt, ...)
	MMCMP_PRINTF(2, 3);
static void guest_died(struct executor_qemu *eq, const char *fmt, ...)
{
	va_list ap;

	if (eq->dead)
		return;
	strbuf_reset(&eq->why);
	strbuf_addf(&eq->why, "boot %ld: ", eq->number);
	va_start(ap, fmt);
	strbuf_vaddf(&eq->why, fmt, ap);
	va_end(ap);
	end_guest(eq, false);
	console_tail(eq, &eq->why);
	eq->dead = true;
}

/* Whether qemu has exited; then its status is described into why. */
static bool qemu_exited(struct executor_qemu *eq, struct strbuf *why)
{
	int status;

	if (eq->pid <= 0 || waitpid(eq->pid, &status, WNOHANG) != eq->pid)
		return false;
	eq->pid = -1;
	if (WIFEXITED(status))
		strbuf_addf(why,
			    "qemu exited with status %d (the guest "
			    "powered off, panicked or rebooted)",
			    WEXITSTATUS(status));
	else
		strbuf_addf(why, "qemu was killed by signal %d",
			    WTERMSIG(status));
	return true;
}

/*
 * Why read_frame() gave up at its deadline into why: the frame whose
 * header had arrived (*used bytes) was still coming, or nothing was.
 */
static void too_late(const struct executor_qemu *eq, size_t used,
		     struct strbuf *why)
{
	if (used && eq->in.len < used)
		strbuf_addf(why,
			    "a frame of %zu bytes from the guest was still "
			    "arriving (%zu received): more than the serial "
			    "link carries in time",
			    used, eq->in.len);
	else
		strbuf_addstr(why, "the guest did not answer in time");
}

/*
 * Read until the frame of type and number seq is at the front of eq->in
 * (in msg, its size in *used), at most until `until` (0: no limit),
 * watching qemu and *stop; what comes before it is skipped and counted in
 * sk (vmproto_await()). Returns 1 with the frame, 0 when the agent
 * could not read the request, -1 when the guest is gone or late (why
 * says which), -2 when stopped.
 */
static int read_frame(struct executor_qemu *eq, enum vmproto_type type,
		      uint32_t seq, struct vmproto_msg *msg, size_t *used,
		      double until, volatile sig_atomic_t *stop,
		      struct vmproto_skipped *sk, struct strbuf *why)
{
	for (;;) {
		struct pollfd p = {.fd = eq->fd, .events = POLLIN};
		char buf[65536];
		ssize_t n;
		enum vmproto_await a =
			vmproto_await(&eq->in, type, seq, msg, used, sk, why);

		if (a == VMPROTO_AWAIT_FRAME)
			return 1;
		if (a == VMPROTO_AWAIT_LOST)
			return 0;
		if (stop && *stop)
			return -2;
		if (qemu_exited(eq, why))
			return -1;
		if (until > 0 && now_s() > until) {
			too_late(eq, *used, why);
			return -1;
		}
		if (poll(&p, 1, 100) <= 0)
			continue;
		n = read(eq->fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* qemu closes the port as it exits: give it 2 s. */
			for (int i = 0; i < 100; i++) {
				if (qemu_exited(eq, why))
					return -1;
				usleep(20000);
			}
			strbuf_addstr(why, "the guest closed its port");
			return -1;
		}
		strbuf_add(&eq->in, buf, (size_t)n);
	}
}

/* Forget the frame of used bytes that read_frame() returned. */
static void consume_frame(struct executor_qemu *eq, size_t used)
{
	memmove(eq->in.buf, eq->in.buf + used, eq->in.len - used);
	strbuf_setlen(&eq->in, eq->in.len - used);
}

/*
 * The hello's "watchdog=" fact (mmcmp-agent.c's start_watchdog()), or
 * NULL when it has none.
 */
static char *hello_watchdog(const struct vmproto_msg *msg)
{
	static const char key[] = "watchdog=";

	for (size_t i = 0; i < msg->nr; i++) {
		const struct vmproto_field *f = &msg->fields[i];

		if (f->tag == VMPROTO_T_FACT && f->len >= sizeof(key) - 1 &&
		    !memcmp(f->data, key, sizeof(key) - 1))
			return xstrndup((const char *)f->data + sizeof(key) - 1,
					f->len - (sizeof(key) - 1));
	}
	return NULL;
}

/* The guest's machine facts from its hello. */
static struct machine_info *hello_facts(const struct vmproto_msg *msg)
{
	struct machine_info *mi = xcalloc(1, sizeof(*mi));

	for (size_t i = 0; i < msg->nr; i++) {
		const struct vmproto_field *f = &msg->fields[i];
		const char *eq;
		char *s;

		if (f->tag != VMPROTO_T_FACT)
			continue;
		s = xstrndup((const char *)f->data, f->len);
		eq = strchr(s, '=');
		for (size_t k = 0; eq && k < machine_fields_nr; k++) {
			const struct machine_field *mf = &machine_fields[k];

			if (strlen(mf->name) != (size_t)(eq - s) ||
			    strncmp(mf->name, s, (size_t)(eq - s)))
				continue;
			if (mf->kind == MACHINE_INT) {
				*machine_field_int_at(mf, mi) =
					strtoll(eq + 1, NULL, 10);
			} else {
				char **p = machine_field_str_at(mf, mi);

				free(*p);
				*p = xstrdup(eq + 1);
			}
		}
		free(s);
	}
	return mi;
}

/* Listen on a new socket in our directory for boot n's port. */
static int listen_port(struct executor_qemu *eq, struct strbuf *path,
		       struct strbuf *err)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd;

	strbuf_addf(path, "%s/port-%ld", eq->dir, eq->number);
	if (path->len >= sizeof(sa.sun_path))
		return error_addf(err, "socket path '%s' is too long",
				  path->buf);
	memcpy(sa.sun_path, path->buf, path->len + 1);
	unlink(path->buf);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(fd, 1)) {
		error_addf(err, "cannot listen on '%s': %s", path->buf,
			   strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* The qemu command line of boot number for kernel k. */
static void qemu_argv(const struct executor_qemu *eq, const struct kernel *k,
		      const char *port, struct strvec *argv)
{
	struct strbuf sb = STRBUF_INIT;

	strvec_push(argv, eq->qemu);
	strvec_push(argv, "-accel");
	strvec_push(argv, eq->accel);
	strvec_push(argv, "-m");
	strbuf_addf(&sb, "%" PRId64, eq->memory_mb);
	strvec_push(argv, sb.buf);
	strvec_push(argv, "-smp");
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%ld", eq->cpus);
	strvec_push(argv, sb.buf);
	strvec_push(argv, "-kernel");
	strvec_push(argv, k->image);
	strvec_push(argv, "-initrd");
	strvec_push(argv, eq->root);
	strbuf_reset(&sb);
	/*
	 * no_timer_check: a TCG guest on a loaded host can fail the IO-APIC
	 * timer check and panic. cryptomgr.notests: the crypto self-tests
	 * took 0.3-0.8 s of a TCG boot, for algorithms no benchmark trusts.
	 */
	strbuf_addstr(&sb, "console=ttyS0 panic=-1 oops=panic "
			   "softlockup_panic=1 quiet no_timer_check "
			   "cryptomgr.notests");
	/*
	 * norandmaps: TCG translates code per virtual address, so with
	 * randomised mappings every exec translates its shared libraries
	 * again (see vm_spec's aslr).
	 */
	if (eq->norandmaps)
		strbuf_addstr(&sb, " norandmaps");
	if (k->append && *k->append)
		strbuf_addf(&sb, " %s", k->append);
	strvec_push(argv, "-append");
	strvec_push(argv, sb.buf);
	strvec_push(argv, "-nodefaults");
	strvec_push(argv, "-display");
	strvec_push(argv, "none");
	strvec_push(argv, "-no-reboot");
	/*
	 * A watchdog device for kernels with its driver: it fires even when
	 * the guest's kernel hangs, and qemu then powers the guest off.
	 */
	strvec_push(argv, "-device");
	strvec_push(argv, "i6300esb");
	strvec_push(argv, "-action");
	strvec_push(argv, "watchdog=poweroff");
	/*
	 * The guest drives its ports at 115200 baud (divisor 1); qemu times
	 * a receive FIFO's timeout, 4 characters, at baudbase / divisor, so
	 * a request's last bytes wait 350 us at the default and 22 us here.
	 */
	strvec_push(argv, "-global");
	strvec_push(argv, "isa-serial.baudbase=1843200");
	strvec_push(argv, "-serial");
	strbuf_reset(&sb);
	strbuf_addf(&sb, "file:%s", eq->console.buf);
	strvec_push(argv, sb.buf);
	strvec_push(argv, "-serial");
	strbuf_reset(&sb);
	strbuf_addf(&sb, "unix:%s", port);
	strvec_push(argv, sb.buf);
	strvec_push(argv, "-qmp");
	strbuf_reset(&sb);
	strbuf_addf(&sb, "unix:%s/qmp-%ld,server=on,wait=off", eq->dir,
		    eq->number);
	strvec_push(argv, sb.buf);
	strbuf_release(&sb);
}

/* One QMP reply line (events skipped) into line; false on timeout. */
static bool qmp_reply(int fd, struct strbuf *in, struct strbuf *line,
		      double until)
{
	for (;;) {
		char *nl = memchr(in->buf, '\n', in->len);
		struct pollfd p = {.fd = fd, .events = POLLIN};
		char buf[4096];
		ssize_t n;

		if (nl) {
			size_t len = (size_t)(nl - in->buf) + 1;

			strbuf_reset(line);
			strbuf_add(line, in->buf, len);
			memmove(in->buf, in->buf + len, in->len - len);
			strbuf_setlen(in, in->len - len);
			if (!strstr(line->buf, "\"event\""))
				return true;
			continue;
		}
		if (now_s() > until || poll(&p, 1, 100) < 0)
			return false;
		if (!(p.revents & POLLIN))
			continue;
		n = read(fd, buf, sizeof(buf));
		if (n <= 0)
			return false;
		strbuf_add(in, buf, (size_t)n);
	}
}

/* The vCPU thread ids, in vCPU order, from qemu's QMP socket. */
static int vcpu_threads(const struct executor_qemu *eq, struct strbuf *why,
			pid_t *tids, long nr)
{
	static const char caps[] = "{\"execute\": \"qmp_capabilities\"}\n";
	static const char query[] = "{\"execute\": \"query-cpus-fast\"}\n";
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	struct strbuf in = STRBUF_INIT, line = STRBUF_INIT;
	double until = now_s() + 5;
	const char *p;
	long found = 0;
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/qmp-%ld", eq->dir,
		 eq->number);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    !qmp_reply(fd, &in, &line, until) ||
	    write(fd, caps, strlen(caps)) < 0 ||
	    !qmp_reply(fd, &in, &line, until) ||
	    write(fd, query, strlen(query)) < 0 ||
	    !qmp_reply(fd, &in, &line, until)) {
		strbuf_addstr(why, "no answer from qemu's QMP socket");
		goto out;
	}
	for (p = line.buf; found < nr && (p = strstr(p, "\"thread-id\": "));
	     p++)
		tids[found++] = (pid_t)strtol(p + 13, NULL, 10);
	if (found != nr)
		strbuf_addf(why, "QMP listed %ld of %ld vCPU threads", found,
			    nr);
out:
	if (fd >= 0)
		close(fd);
	unlink(sa.sun_path);
	strbuf_release(&in);
	strbuf_release(&line);
	return found == nr ? 0 : -1;
}

/*
 * Pin each vCPU thread to a host CPU of its own, from the last of those
 * mmcmp may use, when there are more of them than vCPUs (one is left for
 * mmcmp and qemu's I/O); say in out what was done, or why not.
 */
static void pin_vcpus(const struct executor_qemu *eq, struct strbuf *out)
{
	cpu_set_t allowed;
	long cpus[CPU_SETSIZE], nr = 0;
	pid_t *tids = xcalloc((size_t)eq->cpus, sizeof(*tids));

	if (!sched_getaffinity(0, sizeof(allowed), &allowed))
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &allowed))
				cpus[nr++] = c;
	if (nr <= eq->cpus) {
		strbuf_addf(out, "none: %ld host CPUs for %ld vCPUs", nr,
			    eq->cpus);
		goto out;
	}
	strbuf_addstr(out, "none: ");
	if (vcpu_threads(eq, out, tids, eq->cpus))
		goto out;
	strbuf_reset(out);
	for (long v = 0; v < eq->cpus; v++) {
		cpu_set_t one;
		long host = cpus[nr - 1 - v];

		CPU_ZERO(&one);
		CPU_SET((int)host, &one);
		if (sched_setaffinity(tids[v], sizeof(one), &one)) {
			strbuf_reset(out);
			strbuf_addf(out, "none: cannot pin vCPU %ld: %s", v,
				    strerror(errno));
			goto out;
		}
		strbuf_addf(out, "%svCPU%ld=CPU%ld", v ? " " : "", v, host);
	}
out:
	free(tids);
}

/* Wait for qemu to connect to lfd; -1 with why set when it does not. */
static int accept_port(struct executor_qemu *eq, int lfd, double until)
{
	while (now_s() < until) {
		struct pollfd p = {.fd = lfd, .events = POLLIN};
		int fd;

		if (qemu_exited(eq, &eq->why))
			return -1;
		if (poll(&p, 1, 100) <= 0)
			continue;
		fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd >= 0)
			return fd;
	}
	strbuf_addstr(&eq->why, "qemu did not open the serial port in time");
	return -1;
}

static int qemu_boot(struct executor *ex, size_t kernel, long number,
		     struct executor_boot_info *info, struct strbuf *err)
{
	struct executor_qemu *eq = (struct executor_qemu *)ex;
	const struct kernel *k = &eq->kernels[kernel];
	struct strvec argv = STRVEC_INIT;
	struct strbuf port = STRBUF_INIT, cmd = STRBUF_INIT;
	struct vmproto_msg msg = VMPROTO_MSG_INIT;
	struct vmproto_skipped sk = VMPROTO_SKIPPED_INIT;
	double t0, until;
	size_t used = 0;
	int lfd = -1, ret = -1, r;

	end_guest(eq, true);
	machine_info_release(eq->guest);
	free(eq->guest);
	eq->guest = NULL;
	eq->dead = false;
	strbuf_reset(&eq->why);
	strbuf_reset(&eq->in);
	strbuf_reset(&eq->env);
	vmproto_names_release(&eq->names);
	eq->seq = 0;
	eq->number = number;
	strbuf_reset(&eq->console);
	strbuf_addf(&eq->console, "%s/console-%ld", eq->dir, number);
	unlink(eq->console.buf);
	lfd = listen_port(eq, &port, err);
	if (lfd < 0)
		goto out;
	qemu_argv(eq, k, port.buf, &argv);
	quote_argv(argv.v, &cmd);
	info->number = number;
	info->kernel = xstrdup(k->name);
	info->image = xstrdup(k->image);
	info->image_sha256 = xstrdup(k->sha256);
	info->image_release = k->release ? xstrdup(k->release) : NULL;
	info->append = xstrdup(k->append ? k->append : "");
	info->qemu_version = xstrdup(eq->version);
	info->qemu_cmdline = xstrdup(cmd.buf);
	info->accel = xstrdup(eq->accel);
	info->cpus = eq->cpus;
	info->memory_mb = eq->memory_mb;
	info->boot_s = -1;
	t0 = now_s();
	until = t0 + eq->boot_timeout_s;
	eq->pid = spawn(argv.v, eq->console.buf, NULL, err);
	if (eq->pid < 0)
		goto out;
	runner_guard_tell(&eq->guard, eq->pid);
	ret = 0;
	eq->fd = accept_port(eq, lfd, until);
	if (eq->fd < 0) {
		struct strbuf why = STRBUF_INIT;

		strbuf_add(&why, eq->why.buf, eq->why.len);
		guest_died(eq, "%s", why.buf);
		strbuf_release(&why);
		goto failed;
	}
	strbuf_reset(&eq->why);
	r = read_frame(eq, VMPROTO_HELLO, 0, &msg, &used, until, NULL, &sk,
		       &eq->why);
	if (r == 1) {
		struct strbuf pins = STRBUF_INIT;

		info->boot_s = now_s() - t0;
		pin_vcpus(eq, &pins);
		info->pinning = strbuf_detach(&pins, NULL);
		eq->guest = hello_facts(&msg);
		info->guest = hello_facts(&msg);
		info->watchdog = hello_watchdog(&msg);
		consume_frame(eq, used);
		goto out;
	}
	{
		struct strbuf why = STRBUF_INIT;

		strbuf_add(&why, eq->why.buf, eq->why.len);
		if (now_s() > until)
			strbuf_addf(&why, " (boot_timeout %gs)",
				    eq->boot_timeout_s);
		if (sk.bytes || sk.frames)
			strbuf_addstr(&why, "; ");
		vmproto_skipped_describe(&sk, &why);
		guest_died(eq, "no agent: %s", why.buf);
		strbuf_release(&why);
	}
failed:
	strbuf_add(&info->failed, eq->why.buf, eq->why.len);
out:
	if (lfd >= 0)
		close(lfd);
	if (port.len)
		unlink(port.buf);
	strvec_clear(&argv);
	strbuf_release(&port);
	strbuf_release(&cmd);
	vmproto_skipped_release(&sk);
	vmproto_msg_release(&msg);
	return ret;
}

/* A command that cannot run: status, and why into err_tail. */
static void fail_result(struct runner_result *r, enum runner_status status,
			const char *why)
{
	r->status = status;
	r->term_signal = status == RUNNER_SIGNAL ? SIGKILL : 0;
	strbuf_addstr(&r->err_tail, why);
}

/* PATH of a request's environment (NULL: none). */
static const char *env_path(char *const *env)
{
	for (size_t i = 0; env && env[i]; i++)
		if (!strncmp(env[i], "PATH=", 5))
			return env[i] + 5;
	return getenv("PATH");
}

/* Whether host path file is one of the programs the guest has. */
static bool guest_has(const struct executor_qemu *eq, const char *file)
{
	for (size_t i = 0; i < eq->programs.nr; i++)
		if (!strcmp(eq->programs.v[i], file))
			return true;
	return false;
}

/*
 * The stdout a command in the guest keeps: what the serial link carries
 * in boot_timeout, the time the host waits for a result beyond the
 * command's own timeout, at GUEST_LINK_BYTES_PER_S, and at most
 * stdout_max.
 */
static size_t guest_stdout_max(const struct executor_qemu *eq)
{
	double link = GUEST_LINK_BYTES_PER_S * eq->boot_timeout_s;
	size_t max = eq->stdout_max ? eq->stdout_max : GUEST_STDOUT_DEFAULT;

	return link < (double)max ? (size_t)link : max;
}

/*
 * The environment of req into out: ENV_SAME when the boot's last one
 * sent was the same (most requests), else each variable.
 */
static void put_env(struct executor_qemu *eq,
		    const struct executor_request *req, struct strbuf *out)
{
	struct strbuf env = STRBUF_INIT;

	for (size_t i = 0; req->env && req->env[i]; i++)
		strbuf_add(&env, req->env[i], strlen(req->env[i]) + 1);
	if (!env.len)
		goto out;
	if (env.len == eq->env.len && !memcmp(env.buf, eq->env.buf, env.len)) {
		vmproto_put_u64(out, VMPROTO_T_ENV_SAME, 1);
		goto out;
	}
	for (size_t i = 0; req->env[i]; i++)
		vmproto_put_str(out, VMPROTO_T_ENV, req->env[i]);
	strbuf_reset(&eq->env);
	strbuf_add(&eq->env, env.buf, env.len);
out:
	strbuf_release(&env);
}

/*
 * The request frame of req, numbered seq, with argv[0] as file: a
 * profile at profile_hz unless 0, its stacks capped as its stdout would
 * be.
 */
static void build_request(struct executor_qemu *eq,
			  const struct executor_request *req, const char *file,
			  int profile_hz, uint32_t seq, struct strbuf *out)
{
	size_t start = vmproto_begin(out, VMPROTO_REQUEST, seq);

	vmproto_put_str(out, VMPROTO_T_ARGV, file);
	for (size_t i = 1; req->argv[i]; i++)
		vmproto_put_str(out, VMPROTO_T_ARGV, req->argv[i]);
	put_env(eq, req, out);
	if (req->cwd)
		vmproto_put_str(out, VMPROTO_T_CWD, req->cwd);
	vmproto_put_u64(out, VMPROTO_T_TIMEOUT_MS,
			(uint64_t)(req->timeout_s * 1000));
	vmproto_put_u64(out, VMPROTO_T_MONITOR, req->monitor && eq->monitors);
	for (size_t i = 0; req->monitor && i < eq->perf_events.nr; i++)
		vmproto_put_str(out, VMPROTO_T_PERF, eq->perf_events.v[i]);
	vmproto_put_u64(out, VMPROTO_T_STDOUT_MAX, guest_stdout_max(eq));
	if (profile_hz > 0) {
		vmproto_put_u64(out, VMPROTO_T_PROFILE_HZ,
				(uint64_t)profile_hz);
		vmproto_put_u64(out, VMPROTO_T_PROFILE_MAX,
				guest_stdout_max(eq));
	}
	vmproto_end(out, start);
}

/* The guest's perf counters into mon.rec; a bad line leaves them out. */
static void guest_perf(struct executor_qemu *eq, const struct vmproto_msg *msg)
{
	struct monitor_record *rec = &eq->mon.rec;
	const struct monitor_values *v = &eq->perf.values;

	rec->has_perf = false;
	rec->perf.nr = 0;
	rec->perf_absent = NULL;
	rec->perf_scope = NULL;
	strbuf_reset(&eq->perf_absent);
	for (size_t i = 0; i < msg->nr; i++) {
		const struct vmproto_field *f = &msg->fields[i];

		if (f->tag != VMPROTO_T_PERF_COUNTS)
			continue;
		if (monitor_parse(&eq->perf, MONITOR_VMSTAT, "guest perf",
				  (const char *)f->data, f->len,
				  &eq->perf_absent))
			break;
		ALLOC_GROW(rec->perf.v, v->nr, rec->perf.alloc);
		memcpy(rec->perf.v, v->v, v->nr * sizeof(*v->v));
		rec->perf.nr = v->nr;
		rec->has_perf = v->nr > 0;
	}
	/* The agent counts the command's process tree (monitor-perf.h). */
	rec->perf_scope = rec->has_perf ? "process" : NULL;
	vmproto_get_str(msg, VMPROTO_T_PERF_ABSENT, &eq->perf_absent);
	if (eq->perf_absent.len)
		rec->perf_absent = eq->perf_absent.buf;
}

/*
 * The snapshot fields of msg, in order, as (tag, "u8 source, lines")
 * pairs of SNAP_BEFORE or SNAP_AFTER: packed ones unpacked with the
 * boot's names into texts[], which the fields then point into.
 */
static int snapshot_fields(struct executor_qemu *eq,
			   const struct vmproto_msg *msg,
			   struct vmproto_field *fields, size_t *nr,
			   struct strbuf *texts, struct strbuf *why)
{
	*nr = 0;
	for (size_t i = 0; i < msg->nr; i++) {
		struct vmproto_field f = msg->fields[i];
		bool packed = f.tag == VMPROTO_T_SNAP_BEFORE_PACKED ||
			      f.tag == VMPROTO_T_SNAP_AFTER_PACKED;
		struct strbuf *t;

		if (!packed && f.tag != VMPROTO_T_SNAP_BEFORE &&
		    f.tag != VMPROTO_T_SNAP_AFTER)
			continue;
		if (*nr == (size_t)2 * MONITOR_SOURCE_NR)
			return error_addf(why,
					  "protocol: more than %d "
					  "snapshots in a result",
					  2 * MONITOR_SOURCE_NR);
		t = &texts[*nr];
		if (packed && f.len) {
			strbuf_reset(t);
			strbuf_addch(t, (char)f.data[0]);
			if (vmproto_names_unpack(&eq->names,
						 (const char *)f.data + 1,
						 f.len - 1, t, why))
				return -1;
			f.data = (const uint8_t *)t->buf;
			f.len = (uint32_t)t->len;
		}
		if (f.tag == VMPROTO_T_SNAP_BEFORE_PACKED)
			f.tag = VMPROTO_T_SNAP_BEFORE;
		else if (f.tag == VMPROTO_T_SNAP_AFTER_PACKED)
			f.tag = VMPROTO_T_SNAP_AFTER;
		fields[(*nr)++] = f;
	}
	return 0;
}

/* The monitor record from the guest's snapshots, or why there is none. */
static const struct monitor_record *
guest_monitors(struct executor_qemu *eq, const struct vmproto_msg *msg,
	       struct strbuf *why)
{
	int have = 0;

	/* exchange() unpacked them as the frame came. */
	if (eq->snap_bad) {
		strbuf_add(why, eq->snap_err.buf, eq->snap_err.len);
		return NULL;
	}
	/* The befores first: each after is its before with the changes. */
	for (int want = 0; want < 2; want++) {
		for (size_t i = 0; i < eq->snap_nr; i++) {
			const struct vmproto_field *f = &eq->snap_fields[i];
			int phase = f->tag == VMPROTO_T_SNAP_BEFORE ? 0 : 1;
			struct monitor_snapshot *snap;
			const char *text = (const char *)f->data + 1;

			if (phase != want || !f->len ||
			    f->data[0] >= MONITOR_SOURCE_NR)
				continue;
			snap = eq->mon.snap[phase];
			if (phase ? monitor_merge(&snap[f->data[0]],
						  &eq->mon.snap[0][f->data[0]],
						  "guest snapshot", text,
						  f->len - 1, why)
				  : monitor_parse(&snap[f->data[0]],
						  MONITOR_VMSTAT,
						  "guest snapshot", text,
						  f->len - 1, why))
				return NULL;
			have++;
		}
	}
	if (have != 2 * MONITOR_SOURCE_NR) {
		if (!vmproto_get_str(msg, VMPROTO_T_MONITOR_ERR, why))
			strbuf_addstr(why, "the guest sent no snapshots");
		return NULL;
	}
	monitor_record_fill(&eq->mon);
	guest_perf(eq, msg);
	return &eq->mon.rec;
}

/*
 * The exchange's failure into r and the boot's end: the guest went, was
 * late (past the iteration's timeout and boot_timeout more), or could not
 * read the request (lost); what was skipped on the way is said too.
 */
static void exchange_failed(struct executor_qemu *eq, struct runner_result *r,
			    double until, bool lost,
			    const struct vmproto_skipped *sk,
			    const struct strbuf *why)
{
	struct strbuf skipped = STRBUF_INIT;
	bool late = !lost && until > 0 && now_s() > until;

	vmproto_skipped_describe(sk, &skipped);
	guest_died(eq, "%s%s%s%s", why->buf,
		   late ? " (the iteration's timeout, and boot_timeout more)"
			: "",
		   skipped.len ? "; " : "", skipped.buf);
	fail_result(r,
		    lost   ? RUNNER_EXEC
		    : late ? RUNNER_TIMEOUT
			   : RUNNER_SIGNAL,
		    eq->why.buf);
	strbuf_release(&skipped);
}

/*
 * Say in r's stderr tail that its stdout was cut at what the serial link
 * carries, when that cap was below stdout_max (else it is the one asked).
 */
static void note_guest_cap(const struct executor_qemu *eq,
			   struct runner_result *r)
{
	struct strbuf tail = STRBUF_INIT;
	size_t max = guest_stdout_max(eq),
	       asked = eq->stdout_max ? eq->stdout_max : GUEST_STDOUT_DEFAULT;

	if (!r->out_truncated || max >= asked)
		return;
	strbuf_addf(&tail,
		    "mmcmp: a guest's stdout is kept up to %zu bytes, what "
		    "its serial link carries in boot_timeout (%gs)\n",
		    max, eq->boot_timeout_s);
	strbuf_add(&tail, r->err_tail.buf, r->err_tail.len);
	strbuf_reset(&r->err_tail);
	strbuf_add(&r->err_tail, tail.buf, tail.len);
	strbuf_release(&tail);
}

/*
 * Reset r, send req to the guest (a profile at profile_hz, unless 0) and
 * wait for its RESULT into msg, *used bytes at the front of eq->in, with
 * r filled from it. True with that frame, which the caller consumes;
 * false when there is none, r saying why (the boot may have ended).
 */
static bool exchange(struct executor_qemu *eq,
		     const struct executor_request *req, int profile_hz,
		     struct runner_result *r, struct vmproto_msg *msg,
		     size_t *used)
{
	struct strbuf file = STRBUF_INIT, frame = STRBUF_INIT,
		      why = STRBUF_INIT;
	struct vmproto_skipped sk = VMPROTO_SKIPPED_INIT;
	double until = 0;
	bool ret = false;
	int e, got;

	*used = 0;
	r->status = RUNNER_OK;
	r->exit_code = r->term_signal = 0;
	r->elapsed_s = r->user_s = r->sys_s = 0;
	r->maxrss_kb = 0;
	r->out_truncated = false;
	strbuf_reset(&r->out);
	strbuf_reset(&r->err_tail);
	if (eq->dead || eq->pid <= 0) {
		fail_result(r, RUNNER_EXEC,
			    eq->dead ? eq->why.buf : "no guest is running");
		goto out;
	}
	e = runner_find_program(req->argv[0], env_path(req->env), req->cwd,
				&file);
	if (e || !guest_has(eq, file.buf)) {
		strbuf_addf(&why, "cannot execute '%s' in the guest: %s",
			    req->argv[0],
			    e ? strerror(e) : "not in its initramfs");
		fail_result(r, RUNNER_EXEC, why.buf);
		goto out;
	}
	build_request(eq, req, file.buf, profile_hz, ++eq->seq, &frame);
	if (req->timeout_s > 0)
		until = now_s() + req->timeout_s + eq->boot_timeout_s;
	if (write(eq->fd, frame.buf, frame.len) != (ssize_t)frame.len) {
		guest_died(eq, "cannot write to the guest: %s",
			   strerror(errno));
		fail_result(r, RUNNER_SIGNAL, eq->why.buf);
		goto out;
	}
	got = read_frame(eq, VMPROTO_RESULT, eq->seq, msg, used, until,
			 req->stop, &sk, &why);
	if (got == -2) {
		/* Ctrl-C: the guest goes, the command is not kept. */
		guest_died(eq, "interrupted");
		r->status = RUNNER_INTERRUPTED;
		goto out;
	}
	if (got <= 0) {
		exchange_failed(eq, r, until, got == 0, &sk, &why);
		goto out;
	}
	/* Its snapshots carry the boot's names on, result or not. */
	strbuf_reset(&eq->snap_err);
	eq->snap_bad = snapshot_fields(eq, msg, eq->snap_fields, &eq->snap_nr,
				       eq->snap_texts, &eq->snap_err) != 0;
	/* The answer to this request, intact, but not a result: its own. */
	strbuf_reset(&why);
	if (vmproto_get_result(msg, r, &why)) {
		fail_result(r, RUNNER_EXEC, why.buf);
		consume_frame(eq, *used);
		goto out;
	}
	ret = true;
out:
	strbuf_release(&file);
	strbuf_release(&frame);
	strbuf_release(&why);
	vmproto_skipped_release(&sk);
	return ret;
}

static int qemu_run(struct executor *ex, const struct executor_request *req,
		    struct executor_result *res, struct strbuf *err)
{
	struct executor_qemu *eq = (struct executor_qemu *)ex;
	struct vmproto_msg msg = VMPROTO_MSG_INIT;
	size_t used = 0;

	(void)err;
	res->monitors = NULL;
	strbuf_reset(&res->monitor_err);
	if (exchange(eq, req, 0, &res->run, &msg, &used)) {
		note_guest_cap(eq, &res->run);
		if (req->monitor && eq->monitors)
			res->monitors =
				guest_monitors(eq, &msg, &res->monitor_err);
		consume_frame(eq, used);
	}
	vmproto_msg_release(&msg);
	return 0;
}

/*
 * A profile taken in the guest by its agent (mmcmp-agent.c), which
 * symbolises it there: the host has neither the guest's kernel symbols
 * nor its processes' mappings.
 */
static int qemu_profile(struct executor *ex, const struct profile_request *req,
			struct profile_result *out, struct strbuf *err)
{
	struct executor_qemu *eq = (struct executor_qemu *)ex;
	struct executor_request er = {
		.argv = req->argv,
		.env = req->env,
		.cwd = req->cwd,
		.timeout_s = req->timeout_s,
		.stop = req->stop,
	};
	struct runner_result r = RUNNER_RESULT_INIT;
	struct vmproto_msg msg = VMPROTO_MSG_INIT;
	size_t used = 0;
	int ret = -1;

	profile_result_release(out);
	if (!exchange(eq, &er, req->frequency_hz > 0 ? req->frequency_hz : 1,
		      &r, &msg, &used)) {
		if (r.status == RUNNER_INTERRUPTED) {
			/* As profile_run(): a profile of that status. */
			out->status = xstrdup("interrupted");
			out->folded = xcalloc(1, sizeof(*out->folded));
			strbuf_init(out->folded, 0);
			ret = 0;
		} else {
			error_addf(err, "%s", r.err_tail.buf);
		}
		goto out;
	}
	ret = vmproto_get_profile(&msg, out, err);
	if (!ret)
		out->exit_code = r.exit_code;
	consume_frame(eq, used);
out:
	runner_result_release(&r);
	vmproto_msg_release(&msg);
	return ret;
}

static void qemu_machine(struct executor *ex, struct machine_info *mi)
{
	(void)ex;
	/* The host's: the guest's facts go with each boot. */
	machine_info_read(mi);
}

/* Remove our directory and what is in it (files and sockets only). */
static void remove_dir(const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/%s", dir, de->d_name);
		unlink(sb.buf);
	}
	if (d)
		closedir(d);
	rmdir(dir);
	strbuf_release(&sb);
}

#define DIR_PREFIX "mmcmp-vm-"

/*
 * Remove the directories in tmp that executors of processes now gone
 * left (mmcmp killed before qemu_free()): their names carry the pid and
 * start time of the process that made them, DIR_PREFIX "PID-START-XXXXXX",
 * so a pid used again is no match. Only ours (same uid) are touched.
 */
static void remove_dead_dirs(const char *tmp)
{
	struct strbuf sb = STRBUF_INIT, num = STRBUF_INIT;
	DIR *d = opendir(tmp);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		const char *p = de->d_name, *dash;
		int64_t pid, start;
		struct stat st;

		if (strncmp(p, DIR_PREFIX, strlen(DIR_PREFIX)))
			continue;
		p += strlen(DIR_PREFIX);
		dash = strchr(p, '-');
		strbuf_reset(&num);
		strbuf_add(&num, p, dash ? (size_t)(dash - p) : 0);
		if (!dash || !parse_int64(num.buf, 1, INT32_MAX, &pid))
			continue; /* not named so: leave it */
		p = dash + 1;
		dash = strchr(p, '-');
		strbuf_reset(&num);
		strbuf_add(&num, p, dash ? (size_t)(dash - p) : 0);
		if (!dash || !parse_int64(num.buf, 0, INT64_MAX, &start) ||
		    machine_proc_start((pid_t)pid) == start)
			continue;
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/%s", tmp, de->d_name);
		if (!lstat(sb.buf, &st) && S_ISDIR(st.st_mode) &&
		    st.st_uid == geteuid())
			remove_dir(sb.buf);
	}
	if (d)
		closedir(d);
	strbuf_release(&sb);
	strbuf_release(&num);
}

static void qemu_free(struct executor *ex)
{
	struct executor_qemu *eq = (struct executor_qemu *)ex;

	end_guest(eq, true);
	runner_guard_stop(&eq->guard);
	monitor_release(&eq->mon);
	strvec_clear(&eq->perf_events);
	monitor_snapshot_release(&eq->perf);
	strbuf_release(&eq->perf_absent);
	if (eq->dir)
		remove_dir(eq->dir);
	for (size_t i = 0; i < eq->kernels_nr; i++) {
		free(eq->kernels[i].name);
		free(eq->kernels[i].image);
		free(eq->kernels[i].append);
		free(eq->kernels[i].sha256);
		free(eq->kernels[i].release);
	}
	free(eq->kernels);
	machine_info_release(eq->guest);
	free(eq->guest);
	strvec_clear(&eq->programs);
	strbuf_release(&eq->why);
	strbuf_release(&eq->console);
	strbuf_release(&eq->in);
	strbuf_release(&eq->env);
	vmproto_names_release(&eq->names);
	strbuf_release(&eq->snap_err);
	for (size_t i = 0; i < ARRAY_SIZE(eq->snap_texts); i++)
		strbuf_release(&eq->snap_texts[i]);
	free(eq->qemu);
	free(eq->accel);
	free(eq->dir);
	free(eq->root);
	free(eq->version);
	free(eq);
}

static const struct executor_ops qemu_ops = {
	.name = "qemu",
	.run = qemu_run,
	.machine = qemu_machine,
	.free = qemu_free,
	.boot = qemu_boot,
	.profile = qemu_profile,
};

/* The kernels with their images' digests and releases. */
static int load_kernels(struct executor_qemu *eq,
			const struct executor_qemu_opts *o, struct strbuf *err)
{
	eq->kernels = xcalloc(o->kernels_nr, sizeof(*eq->kernels));
	for (size_t i = 0; i < o->kernels_nr; i++) {
		struct kernel *k = &eq->kernels[eq->kernels_nr++];
		struct strbuf img = STRBUF_INIT;
		char hex[65];

		k->name = xstrdup(o->kernels[i].name);
		k->image = xstrdup(o->kernels[i].image);
		k->append = xstrdup(o->kernels[i].append ? o->kernels[i].append
							 : "");
		if (read_image(k->image, SIZE_MAX, &img, err) ||
		    qemu_image_release(k->image, &k->release, err)) {
			strbuf_release(&img);
			return error_addf(err, "kernel '%s'", k->name);
		}
		sha256_hex(img.buf, img.len, hex);
		k->sha256 = xstrdup(hex);
		strbuf_release(&img);
	}
	return 0;
}

/*
 * The modules of the guest's watchdog (the agent loads them when the
 * kernel has no watchdog driver of its own): for each kernel whose
 * release the host has modules of, its watchdog core and softdog,
 * uncompressed, at /lib/modules/RELEASE/NAME.ko. A kernel without them
 * runs without a watchdog, which its hello says.
 */
static int add_watchdog_modules(struct initramfs *ir,
				const struct executor_qemu *eq,
				struct strbuf *err)
{
	static const char *const names[] = {"watchdog", "softdog"};
	struct strbuf host = STRBUF_INIT, guest = STRBUF_INIT;
	int ret = 0;

	for (size_t i = 0; i < eq->kernels_nr && !ret; i++) {
		const char *rel = eq->kernels[i].release;

		for (size_t n = 0; rel && n < ARRAY_SIZE(names) && !ret; n++) {
			strbuf_reset(&host);
			strbuf_addf(&host,
				    "/lib/modules/%s/kernel/drivers/watchdog/"
				    "%s.ko",
				    rel, names[n]);
			strbuf_reset(&guest);
			strbuf_addf(&guest, "/lib/modules/%s/%s.ko", rel,
				    names[n]);
			if (access(host.buf, R_OK) ||
			    initramfs_has(ir, guest.buf))
				continue;
			ret = initramfs_add_file(ir, guest.buf, host.buf, 0644,
						 err);
		}
	}
	strbuf_release(&host);
	strbuf_release(&guest);
	return ret;
}

/* Write the initramfs: the agent as /init, the programs, the modules. */
static int write_root(struct executor_qemu *eq,
		      const struct executor_qemu_opts *o, struct strbuf *err)
{
	struct initramfs *ir = initramfs_new();
	struct strbuf sb = STRBUF_INIT;
	int ret = -1;

	if (initramfs_add_file(ir, "/init", o->agent, 0755, err))
		goto out;
	initramfs_add_dir(ir, "/dev");
	initramfs_add_dir(ir, "/proc");
	initramfs_add_dir(ir, "/sys");
	initramfs_add_dir(ir, "/tmp");
	for (size_t i = 0; o->programs && o->programs[i]; i++) {
		if (initramfs_add_program(ir, o->programs[i], err))
			goto out;
		strvec_push(&eq->programs, o->programs[i]);
	}
	if (add_watchdog_modules(ir, eq, err))
		goto out;
	strbuf_addf(&sb, "%s/root.cpio.gz", eq->dir);
	eq->root = strbuf_detach(&sb, NULL);
	ret = initramfs_write(ir, eq->root, err);
out:
	initramfs_free(ir);
	strbuf_release(&sb);
	return ret;
}

struct executor *executor_qemu_new(const struct executor_qemu_opts *o,
				   struct strbuf *err)
{
	struct executor_qemu *eq = xcalloc(1, sizeof(*eq));
	struct runner_guard guard = RUNNER_GUARD_INIT;
	struct strbuf sb = STRBUF_INIT;
	const char *tmp = getenv("TMPDIR");

	eq->base.ops = &qemu_ops;
	eq->guard = guard;
	eq->pid = -1;
	eq->fd = -1;
	strbuf_init(&eq->why, 0);
	strbuf_init(&eq->console, 0);
	strbuf_init(&eq->in, 0);
	strbuf_init(&eq->env, 0);
	eq->names = (struct vmproto_names)VMPROTO_NAMES_INIT;
	strbuf_init(&eq->snap_err, 0);
	for (size_t i = 0; i < ARRAY_SIZE(eq->snap_texts); i++)
		strbuf_init(&eq->snap_texts[i], 0);
	strvec_init(&eq->programs);
	monitor_init(&eq->mon, 0);
	strvec_init(&eq->perf_events);
	strbuf_init(&eq->perf.text, 0);
	strbuf_init(&eq->perf_absent, 0);
	for (size_t i = 0; o->perf_events && i < o->perf_events->nr; i++)
		strvec_push(&eq->perf_events, o->perf_events->v[i]);
	eq->qemu = xstrdup(o->qemu ? o->qemu : "qemu-system-x86_64");
	eq->accel = xstrdup(o->accel ? o->accel : "tcg");
	eq->norandmaps = o->norandmaps;
	eq->cpus = o->cpus > 0 ? o->cpus : 1;
	eq->memory_mb = o->memory_mb > 0 ? o->memory_mb : 1024;
	eq->boot_timeout_s = o->boot_timeout_s > 0 ? o->boot_timeout_s : 60;
	eq->monitors = o->monitors;
	eq->stdout_max = o->stdout_max;
	if (qemu_version(eq->qemu, &sb, err))
		goto fail;
	eq->version = strbuf_detach(&sb, NULL);
	if (load_kernels(eq, o, err))
		goto fail;
	if (!tmp || !*tmp)
		tmp = "/tmp";
	remove_dead_dirs(tmp);
	strbuf_addf(&sb, "%s/" DIR_PREFIX "%ld-%lld-XXXXXX", tmp,
		    (long)getpid(), (long long)machine_proc_start(getpid()));
	if (!mkdtemp(sb.buf)) {
		error_addf(err, "cannot create '%s': %s", sb.buf,
			   strerror(errno));
		goto fail;
	}
	eq->dir = strbuf_detach(&sb, NULL);
	if (write_root(eq, o, err) || runner_guard_start(&eq->guard, err))
		goto fail;
	return &eq->base;
fail:
	strbuf_release(&sb);
	qemu_free(&eq->base);
	return NULL;
}
