/*
 * mmcmp-agent: /init of a guest booted by mmcmp run (executor-qemu.c).
 * It mounts /proc, /sys, /dev and /tmp, says hello with the guest's
 * machine facts over the second serial port (/dev/ttyS1; the first is
 * the console), then runs one command per request frame (vmproto.h)
 * with runner_run(), the monitors read around it inside the guest, and
 * answers with a result frame; a power-off frame, or the host going
 * away, powers the guest off. A request that asks for a profile runs its
 * command under the sampler (profile.h) instead, symbolised here, with
 * the guest's /proc/kallsyms and the binaries of the initramfs, and its
 * folded stacks go back with the result. Before the hello it starts the guest's
 * watchdog (start_watchdog()) and names it in the hello. Linked
 * statically: the initramfs has no C library for it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/watchdog.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "machine.h"
#include "monitor.h"
#include "monitor-perf.h"
#include "parse-num.h"
#include "profile.h"
#include "run-data.h"
#include "runner.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"
#include "vmproto.h"

#define PORT "/dev/ttyS1"
/* The watchdog's timeout unless mmcmp.watchdog=S on the command line. */
#define WATCHDOG_DEFAULT_S 30

static void setup_mounts(void)
{
	mkdir("/proc", 0755);
	mkdir("/sys", 0755);
	mkdir("/dev", 0755);
	mkdir("/tmp", 01777);
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	if (mount("devtmpfs", "/dev", "devtmpfs", 0, NULL))
		mknod(PORT, S_IFCHR | 0600, makedev(4, 65));
	/*
	 * No tmpfs on /tmp: the initramfs root is in memory and writable
	 * already, and programs packed below /tmp (a build tree there)
	 * would be hidden by it.
	 */
	mkdir("/sys/fs/cgroup", 0755);
	mount("cgroup2", "/sys/fs/cgroup", "cgroup2", 0, NULL);
	/* For the perf monitor's tracepoints; absent without it. */
	mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL);
}

/*
 * The watchdog timeout in seconds: mmcmp.watchdog=S of /proc/cmdline
 * (a kernel's append; 0 turns it off), else WATCHDOG_DEFAULT_S.
 */
static int watchdog_seconds(void)
{
	struct strbuf cmd = STRBUF_INIT;
	int s = WATCHDOG_DEFAULT_S;
	const char *at;

	if (!strbuf_read_file(&cmd, "/proc/cmdline", NULL) &&
	    (at = strstr(cmd.buf, "mmcmp.watchdog="))) {
		char *end;

		at += strlen("mmcmp.watchdog=");
		end = (char *)at + strcspn(at, " \n");
		*end = '\0';
		if (!parse_int(at, 0, 3600, &s))
			s = WATCHDOG_DEFAULT_S;
	}
	strbuf_release(&cmd);
	return s;
}

/* Load a module the initramfs carries for this kernel, if it does. */
static void load_module(const char *release, const char *name)
{
	struct strbuf path = STRBUF_INIT;
	int fd;

	strbuf_addf(&path, "/lib/modules/%s/%s.ko", release, name);
	fd = open(path.buf, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		syscall(SYS_finit_module, fd, "", 0);
		close(fd);
	}
	strbuf_release(&path);
}

/*
 * Start /dev/watchdog and a child, "mmcmp-watchdog", that pets it every
 * third of its timeout: when the guest stops running its user space
 * (a livelock, a lockup that softlockup_panic misses), the watchdog
 * reboots it, which -no-reboot turns into qemu's exit, and the host
 * fails the boot with the console's tail. A driver the kernel has
 * (qemu's i6300esb) is used first, else softdog (watchdog.ko and
 * softdog.ko from the initramfs: the Debian cloud kernel has no other).
 * Describes the outcome in what, for the hello.
 */
static void start_watchdog(struct strbuf *what)
{
	struct watchdog_info wi = {0};
	struct utsname u;
	int secs = watchdog_seconds(), fd;
	pid_t pid;

	if (!secs) {
		strbuf_addstr(what, "off (mmcmp.watchdog=0)");
		return;
	}
	if (access("/dev/watchdog", F_OK) && !uname(&u)) {
		load_module(u.release, "watchdog");
		load_module(u.release, "softdog");
	}
	fd = open("/dev/watchdog", O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		strbuf_addf(what, "none (/dev/watchdog: %s)", strerror(errno));
		return;
	}
	ioctl(fd, WDIOC_SETTIMEOUT, &secs);
	ioctl(fd, WDIOC_GETTIMEOUT, &secs);
	ioctl(fd, WDIOC_GETSUPPORT, &wi);
	if (secs < 1)
		secs = 1;
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_NAME, "mmcmp-watchdog");
		for (;;) {
			ioctl(fd, WDIOC_KEEPALIVE, 0);
			sleep((unsigned int)(secs > 3 ? secs / 3 : 1));
		}
	}
	close(fd);
	if (pid < 0) {
		strbuf_addf(what, "none (fork: %s)", strerror(errno));
		return;
	}
	strbuf_addf(what, "%.*s, %d s", (int)sizeof(wi.identity),
		    (const char *)wi.identity, secs);
}

static int open_port(void)
{
	struct termios t;
	int fd = open(PORT, O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	/* Raw: no CR/LF translation, no flow control, 8 bits clean. */
	if (!tcgetattr(fd, &t)) {
		cfmakeraw(&t);
		cfsetspeed(&t, B115200);
		tcsetattr(fd, TCSANOW, &t);
	}
	return fd;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The hello: machine facts, then the watchdog as "watchdog=...". */
static void send_hello(int fd, const char *watchdog)
{
	struct machine_info mi = {0};
	struct strbuf out = STRBUF_INIT, v = STRBUF_INIT;
	size_t start;

	machine_info_read(&mi);
	start = vmproto_begin(&out, VMPROTO_HELLO, 0);
	if (mi.kernel_release)
		vmproto_put_str(&out, VMPROTO_T_RELEASE, mi.kernel_release);
	if (mi.cmdline)
		vmproto_put_str(&out, VMPROTO_T_CMDLINE, mi.cmdline);
	for (size_t i = 0; i < machine_fields_nr; i++) {
		strbuf_reset(&v);
		strbuf_addf(&v, "%s=", machine_fields[i].name);
		if (machine_field_text(&machine_fields[i], &mi, &v))
			vmproto_put(&out, VMPROTO_T_FACT, v.buf, v.len);
	}
	strbuf_reset(&v);
	strbuf_addf(&v, "watchdog=%s", watchdog);
	vmproto_put(&out, VMPROTO_T_FACT, v.buf, v.len);
	vmproto_end(&out, start);
	write_all(fd, out.buf, out.len);
	strbuf_release(&out);
	strbuf_release(&v);
	machine_info_release(&mi);
}

/*
 * The snapshots of an iteration, before ([0]) and after ([1]), kept from
 * request to request with their /proc files open (read with pread()).
 */
struct agent_snaps {
	struct monitor_snapshot snap[2][MONITOR_SOURCE_NR];
	int fds[MONITOR_SOURCE_NR];
	struct vmproto_names names; /* the boot's, as sent */
};

static void snaps_init(struct agent_snaps *as)
{
	for (int s = 0; s < MONITOR_SOURCE_NR; s++) {
		strbuf_init(&as->snap[0][s].text, 0);
		strbuf_init(&as->snap[1][s].text, 0);
		as->snap[0][s].values =
			(struct monitor_values)MONITOR_VALUES_INIT;
		as->snap[1][s].values =
			(struct monitor_values)MONITOR_VALUES_INIT;
		as->fds[s] = -1;
	}
	as->names = (struct vmproto_names)VMPROTO_NAMES_INIT;
}

static void snaps_release(struct agent_snaps *as)
{
	for (int s = 0; s < MONITOR_SOURCE_NR; s++) {
		monitor_snapshot_release(&as->snap[0][s]);
		monitor_snapshot_release(&as->snap[1][s]);
		if (as->fds[s] >= 0)
			close(as->fds[s]);
	}
	vmproto_names_release(&as->names);
}

/* Take the snapshots of phase 0 (before) or 1 (after). */
static int read_snapshots(struct agent_snaps *as, int phase, struct strbuf *err)
{
	for (int s = 0; s < MONITOR_SOURCE_NR; s++) {
		enum monitor_source src = (enum monitor_source)s;
		const char *path = monitor_source_path(src);

		if (as->fds[s] < 0)
			as->fds[s] = open(path, O_RDONLY | O_CLOEXEC);
		if (as->fds[s] < 0)
			return error_addf(err, "cannot open '%s': %s", path,
					  strerror(errno));
		if (monitor_pread(&as->snap[phase][s], src, as->fds[s], path,
				  err))
			return -1;
	}
	return 0;
}

/*
 * The snapshots into out, each source's as monitor_encode() gives them:
 * what the record keeps of before, and what changed after, their lines
 * packed with the boot's names (vmproto_names_pack()).
 */
static void put_snapshots(struct strbuf *out, struct agent_snaps *as)
{
	struct strbuf b = STRBUF_INIT, a = STRBUF_INIT, p = STRBUF_INIT;

	for (int s = 0; s < MONITOR_SOURCE_NR; s++) {
		strbuf_reset(&b);
		strbuf_reset(&a);
		monitor_encode((enum monitor_source)s, &as->snap[0][s],
			       &as->snap[1][s], &b, &a);
		strbuf_reset(&p);
		strbuf_addch(&p, (char)s);
		vmproto_names_pack(&as->names, b.buf, b.len, &p);
		vmproto_put(out, VMPROTO_T_SNAP_BEFORE_PACKED, p.buf, p.len);
		strbuf_reset(&p);
		strbuf_addch(&p, (char)s);
		vmproto_names_pack(&as->names, a.buf, a.len, &p);
		vmproto_put(out, VMPROTO_T_SNAP_AFTER_PACKED, p.buf, p.len);
	}
	strbuf_release(&b);
	strbuf_release(&a);
	strbuf_release(&p);
}

/*
 * Open the perf counters that names asks for (none: nothing to do),
 * making *perf on the first request; false when none are open, with why
 * in absent.
 */
static bool perf_begin(struct monitor_perf **perf, const struct strvec *names,
		       struct strbuf *absent)
{
	if (!names->nr)
		return false;
	if (!*perf)
		*perf = monitor_perf_new(names, absent);
	return *perf && !monitor_perf_begin(*perf, 0, absent);
}

/* Read the perf counters into out's result frame, or why there are none. */
static void perf_end(struct monitor_perf *perf, bool counting,
		     struct strbuf *absent, struct strbuf *out)
{
	struct monitor_values v = MONITOR_VALUES_INIT;
	struct strbuf text = STRBUF_INIT;

	if (counting && !monitor_perf_end(perf, &v, absent)) {
		for (size_t i = 0; i < v.nr; i++)
			strbuf_addf(&text, "%s %" PRIu64 "\n", v.v[i].name,
				    (uint64_t)v.v[i].value);
		vmproto_put(out, VMPROTO_T_PERF_COUNTS, text.buf, text.len);
		if (monitor_perf_absent(perf))
			strbuf_addstr(absent, monitor_perf_absent(perf));
	}
	if (absent->len)
		vmproto_put(out, VMPROTO_T_PERF_ABSENT, absent->buf,
			    absent->len);
	monitor_values_release(&v);
	strbuf_release(&text);
}

/* Frequencies of profiles the agent takes, in Hz. */
#define PROFILE_HZ_MAX 100000

static double monotonic_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The runner's status for a profile's (profile.h). */
static enum runner_status profile_status(const char *status)
{
	if (!strcmp(status, "exit"))
		return RUNNER_EXIT;
	if (!strcmp(status, "signal"))
		return RUNNER_SIGNAL;
	if (!strcmp(status, "timeout"))
		return RUNNER_TIMEOUT;
	if (!strcmp(status, "interrupted"))
		return RUNNER_INTERRUPTED;
	return RUNNER_OK;
}

/*
 * Run o's command under the sampler at hz and append the result and the
 * profile's fields, or why there is none, to the RESULT frame in out.
 */
static void run_profile(const struct runner_opts *o, int hz, size_t max,
			struct strbuf *out)
{
	struct profile_request req = {
		.argv = o->argv,
		.env = o->env,
		.cwd = o->cwd,
		.timeout_s = o->timeout_s,
		.frequency_hz = hz,
	};
	struct profile_result p = PROFILE_RESULT_INIT;
	struct runner_result r = RUNNER_RESULT_INIT;
	struct strbuf err = STRBUF_INIT;
	double start;

	start = monotonic_s();
	if (hz > PROFILE_HZ_MAX)
		error_addf(&err, "profile frequency %d Hz is above %d", hz,
			   PROFILE_HZ_MAX);
	if (err.len || profile_run(&req, &p, &err)) {
		r.status = RUNNER_EXEC;
		strbuf_addf(&r.err_tail, "agent: %s", err.buf);
		vmproto_put_result(out, &r);
		vmproto_put(out, VMPROTO_T_PROFILE_ERR, err.buf, err.len);
		goto out;
	}
	r.status = profile_status(p.status);
	r.exit_code = p.exit_code;
	r.term_signal = r.status == RUNNER_SIGNAL ? SIGKILL : 0;
	r.elapsed_s = monotonic_s() - start;
	vmproto_put_result(out, &r);
	vmproto_put_profile(out, &p, max);
out:
	profile_result_release(&p);
	runner_result_release(&r);
	strbuf_release(&err);
}

/*
 * Run the command of a request and build its result frame into out;
 * *perf holds the perf counters from the first request that asks for
 * them on, as and last_env the snapshots and the environment of the
 * last request.
 */
static void run_request(const struct vmproto_msg *msg, struct strbuf *out,
			struct monitor_perf **perf, struct agent_snaps *as,
			struct strvec *last_env)
{
	struct strvec argv = STRVEC_INIT, env = STRVEC_INIT,
		      events = STRVEC_INIT;
	struct strbuf cwd = STRBUF_INIT, err = STRBUF_INIT, merr = STRBUF_INIT,
		      absent = STRBUF_INIT;
	bool counting = false;
	struct runner_result r = RUNNER_RESULT_INIT;
	struct runner_opts o = {0};
	bool monitor = vmproto_get_u64(msg, VMPROTO_T_MONITOR, 0) != 0;
	uint64_t hz = vmproto_get_u64(msg, VMPROTO_T_PROFILE_HZ, 0);
	size_t start;

	for (size_t i = 0; i < msg->nr; i++) {
		const struct vmproto_field *f = &msg->fields[i];
		char *s = xmalloc((size_t)f->len + 1);

		memcpy(s, f->data, f->len);
		s[f->len] = '\0';
		if (f->tag == VMPROTO_T_ARGV)
			strvec_push_nodup(&argv, s);
		else if (f->tag == VMPROTO_T_ENV)
			strvec_push_nodup(&env, s);
		else if (f->tag == VMPROTO_T_PERF)
			strvec_push_nodup(&events, s);
		else
			free(s);
	}
	o.argv = argv.v;
	o.env = env.nr ? env.v : NULL;
	/* A request names its environment once; the next ones say "same". */
	if (env.nr) {
		strvec_clear(last_env);
		for (size_t i = 0; i < env.nr; i++)
			strvec_push(last_env, env.v[i]);
	} else if (vmproto_get_u64(msg, VMPROTO_T_ENV_SAME, 0) &&
		   last_env->nr) {
		o.env = last_env->v;
	}
	if (vmproto_get_str(msg, VMPROTO_T_CWD, &cwd))
		o.cwd = cwd.buf;
	o.timeout_s =
		(double)vmproto_get_u64(msg, VMPROTO_T_TIMEOUT_MS, 0) / 1000.0;
	o.stdout_max = (size_t)vmproto_get_u64(msg, VMPROTO_T_STDOUT_MAX, 0);
	if (hz && argv.nr) {
		start = vmproto_begin(out, VMPROTO_RESULT, msg->seq);
		run_profile(
			&o, hz > PROFILE_HZ_MAX ? INT_MAX : (int)hz,
			(size_t)vmproto_get_u64(msg, VMPROTO_T_PROFILE_MAX, 0),
			out);
		vmproto_end(out, start);
		goto out;
	}
	if (monitor && read_snapshots(as, 0, &merr))
		monitor = false;
	if (monitor)
		counting = perf_begin(perf, &events, &absent);
	if (!argv.nr || runner_run(&o, &r, &err)) {
		r.status = RUNNER_EXEC;
		strbuf_reset(&r.err_tail);
		strbuf_addf(&r.err_tail, "agent: %s",
			    err.len ? err.buf : "empty request");
	}
	if (monitor && read_snapshots(as, 1, &merr))
		monitor = false;
	/* Numbered as the request, so the host pairs them. */
	start = vmproto_begin(out, VMPROTO_RESULT, msg->seq);
	vmproto_put_result(out, &r);
	if (monitor) {
		put_snapshots(out, as);
		perf_end(*perf, counting, &absent, out);
	} else if (merr.len)
		vmproto_put(out, VMPROTO_T_MONITOR_ERR, merr.buf, merr.len);
	vmproto_end(out, start);
	if (counting && !monitor)
		monitor_perf_cancel(*perf);
out:
	runner_result_release(&r);
	strvec_clear(&argv);
	strvec_clear(&env);
	strvec_clear(&events);
	strbuf_release(&absent);
	strbuf_release(&cwd);
	strbuf_release(&err);
	strbuf_release(&merr);
}

/*
 * A result that says a frame could not be read: numbered 0, as the
 * request it may have been is not known, so the host ends the boot.
 */
static void bad_request(const char *why, struct strbuf *out)
{
	struct runner_result r = RUNNER_RESULT_INIT;
	size_t start = vmproto_begin(out, VMPROTO_RESULT, 0);

	r.status = RUNNER_EXEC;
	strbuf_addf(&r.err_tail, "agent: %s", why);
	vmproto_put_result(out, &r);
	vmproto_end(out, start);
	runner_result_release(&r);
}

static void serve(int fd)
{
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT, err = STRBUF_INIT;
	struct vmproto_msg msg = VMPROTO_MSG_INIT;
	struct monitor_perf *perf = NULL;
	struct agent_snaps as;
	struct strvec last_env = STRVEC_INIT;
	char buf[65536];

	snaps_init(&as);
	for (;;) {
		size_t used;
		enum vmproto_parse p;
		ssize_t n;

		strbuf_reset(&err);
		p = in.len ? vmproto_frame_parse((const uint8_t *)in.buf,
						 in.len, &used, &msg, &err)
			   : VMPROTO_NEED_MORE;
		if (p == VMPROTO_NEED_MORE) {
			n = read(fd, buf, sizeof(buf));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			strbuf_add(&in, buf, (size_t)n);
			continue;
		}
		strbuf_reset(&out);
		if (p == VMPROTO_BAD)
			bad_request(err.buf, &out);
		else if (msg.type == VMPROTO_POWEROFF)
			break;
		else if (msg.type == VMPROTO_REQUEST)
			run_request(&msg, &out, &perf, &as, &last_env);
		memmove(in.buf, in.buf + used, in.len - used);
		strbuf_setlen(&in, in.len - used);
		if (out.len && write_all(fd, out.buf, out.len))
			break;
	}
	vmproto_msg_release(&msg);
	snaps_release(&as);
	strvec_clear(&last_env);
	monitor_perf_free(perf);
	strbuf_release(&in);
	strbuf_release(&out);
	strbuf_release(&err);
}

int main(void)
{
	struct strbuf watchdog = STRBUF_INIT;
	int fd;

	if (getpid() == 1) {
		setup_mounts();
		start_watchdog(&watchdog);
	} else {
		strbuf_addstr(&watchdog, "off (not init)");
	}
	fd = open_port();
	if (fd < 0) {
		fprintf(stderr, "mmcmp-agent: cannot open %s: %s\n", PORT,
			strerror(errno));
	} else {
		send_hello(fd, watchdog.buf);
		serve(fd);
		close(fd);
	}
	strbuf_release(&watchdog);
	if (getpid() != 1)
		return fd < 0;
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
