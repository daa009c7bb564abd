/*
 * perf-floor: what the kernel costs per command for the perf monitor's
 * counting, with no code of mmcmp's: `true` started and waited for over
 * and over, in blocks taken in turn,
 *   off       as a run without counters starts it (clone with
 *             CLONE_VFORK, as vfork());
 *   cgroup    started into a cgroup of its own (CLONE_INTO_CGROUP), as
 *             a run with counters starts it;
 *   + leader  with one counter of that cgroup open on each CPU, the
 *             dummy event that leads the group (docs/perf.md, Scope);
 *   + events  with the six software events of `perf: [default]` in the
 *             group too;
 *   + reads   and each CPU's group read before and after the command,
 *             as monitor_perf_begin() and monitor_perf_end() read it.
 * The last against the first is the floor of the perf monitor's cost
 * per iteration of `true`: bench/run-overhead prints it beside mmcmp's.
 * Each step's cost is the median over rounds of the difference between
 * its block and the one before, with the quartiles.
 * Needs root and cgroup v2 (as the perf monitor's cgroup does); says so
 * and exits 0 without them.
 * Usage: perf-floor [ROUNDS [BLOCK]]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { OFF, CGROUP, LEADER, EVENTS, READS, MODES };

static const char *const mode_name[MODES] = {"off", "cgroup", "+ leader",
					     "+ events", "+ reads"};

static const uint64_t sw_events[] = {
	PERF_COUNT_SW_TASK_CLOCK,      PERF_COUNT_SW_CONTEXT_SWITCHES,
	PERF_COUNT_SW_CPU_MIGRATIONS,  PERF_COUNT_SW_PAGE_FAULTS,
	PERF_COUNT_SW_PAGE_FAULTS_MIN, PERF_COUNT_SW_PAGE_FAULTS_MAJ,
};
#define SW_NR	 (sizeof(sw_events) / sizeof(sw_events[0]))
#define MAX_CPUS 256

static int cgroup_fd = -1;
static int ncpus;
static int lead[MAX_CPUS], member[MAX_CPUS][SW_NR];
static uint64_t group_buf[3 + 1 + SW_NR];

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* Start `true`, into the cgroup or not, and wait for it. */
static int spawn(int into_cgroup)
{
	struct clone_args ca;
	char *argv[] = {(char *)"true", NULL};
	long pid;
	int status;

	memset(&ca, 0, sizeof(ca));
	ca.flags = CLONE_VFORK | (into_cgroup ? CLONE_INTO_CGROUP : 0);
	ca.exit_signal = SIGCHLD;
	ca.cgroup = (__u64)(unsigned int)cgroup_fd;
	pid = syscall(SYS_clone3, &ca, sizeof(ca));
	if (pid == 0) {
		execvp(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid((pid_t)pid, &status, 0) < 0 ||
	    !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	return 0;
}

static int counter_open(uint64_t config, int cpu, int group)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = sizeof(attr);
	attr.config = config;
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	return (int)syscall(SYS_perf_event_open, &attr, cgroup_fd, cpu, group,
			    PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC);
}

static void counters_close(void)
{
	for (int c = 0; c < ncpus; c++) {
		for (size_t e = 0; e < SW_NR; e++)
			if (member[c][e] >= 0)
				close(member[c][e]);
		if (lead[c] >= 0)
			close(lead[c]);
		lead[c] = -1;
		for (size_t e = 0; e < SW_NR; e++)
			member[c][e] = -1;
	}
}

/* The leader on each CPU and, with events, the six in its group. */
static int counters_open(int events)
{
	for (int c = 0; c < ncpus; c++) {
		lead[c] = counter_open(PERF_COUNT_SW_DUMMY, c, -1);
		if (lead[c] < 0)
			return -1;
		for (size_t e = 0; events && e < SW_NR; e++) {
			member[c][e] = counter_open(sw_events[e], c, lead[c]);
			if (member[c][e] < 0)
				return -1;
		}
	}
	return 0;
}

static int counters_read(void)
{
	size_t want = (3 + 1 + SW_NR) * sizeof(uint64_t);

	for (int c = 0; c < ncpus; c++)
		if (read(lead[c], group_buf, want) != (ssize_t)want)
			return -1;
	return 0;
}

/* The mount point of cgroup v2 into dir, or -1. */
static int cgroup2_mount(char *dir, size_t len)
{
	FILE *f = fopen("/proc/self/mounts", "r");
	char line[1024], where[512], type[64];
	int ret = -1;

	if (!f)
		return -1;
	while (ret < 0 && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %511s %63s", where, type) == 2 &&
		    !strcmp(type, "cgroup2") &&
		    snprintf(dir, len, "%s", where) < (int)len)
			ret = 0;
	fclose(f);
	return ret;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median and quartiles of x[0..n), sorted in place. */
static void quartiles(double *x, int n, double q[3])
{
	qsort(x, (size_t)n, sizeof(*x), cmp_double);
	q[0] = x[n / 4];
	q[1] = x[n / 2];
	q[2] = x[3 * n / 4];
}

int main(int argc, char **argv)
{
	long rounds_l = argc > 1 ? strtol(argv[1], NULL, 10) : 300;
	long block_l = argc > 2 ? strtol(argv[2], NULL, 10) : 10;
	int rounds, block;
	char mount[512], dir[600];
	double(*t)[MODES] = NULL, *d = NULL, q[3], mean[MODES] = {0};
	int ret = 1;

	if (rounds_l < 4 || rounds_l > 1000000 || block_l < 1 ||
	    block_l > 1000000) {
		fprintf(stderr,
			"usage: perf-floor [ROUNDS >= 4 [BLOCK >= 1]]\n");
		return 2;
	}
	rounds = (int)rounds_l;
	block = (int)block_l;
	ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (ncpus < 1 || ncpus > MAX_CPUS)
		ncpus = 1;
	for (int c = 0; c < MAX_CPUS; c++) {
		lead[c] = -1;
		for (size_t e = 0; e < SW_NR; e++)
			member[c][e] = -1;
	}
	if (cgroup2_mount(mount, sizeof(mount))) {
		printf("perf floor: no cgroup v2 mounted, nothing measured\n");
		return 0;
	}
	snprintf(dir, sizeof(dir), "%s/mmcmp-perf-floor-%d", mount,
		 (int)getpid());
	if (mkdir(dir, 0755)) {
		printf("perf floor: cannot make a cgroup (%s), nothing "
		       "measured\n",
		       strerror(errno));
		return 0;
	}
	cgroup_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cgroup_fd < 0 || counters_open(1)) {
		printf("perf floor: cannot count the cgroup (%s), nothing "
		       "measured\n",
		       strerror(errno));
		ret = 0;
		goto out;
	}
	counters_close();
	t = calloc((size_t)rounds, sizeof(*t));
	d = calloc((size_t)rounds, sizeof(*d));
	if (!t || !d)
		goto out;
	for (int i = 0; i < 20; i++)
		if (spawn(0) || spawn(1))
			goto fail;
	for (int r = 0; r < rounds; r++)
		for (int k = 0; k < MODES; k++) {
			/* Each round starts at another mode. */
			int m = (k + r) % MODES;
			double t0;

			if (m >= LEADER && counters_open(m >= EVENTS))
				goto fail;
			if (spawn(m >= CGROUP))
				goto fail;
			t0 = now_us();
			for (int i = 0; i < block; i++) {
				if (m == READS && counters_read())
					goto fail;
				if (spawn(m >= CGROUP))
					goto fail;
				if (m == READS && counters_read())
					goto fail;
			}
			t[r][m] = (now_us() - t0) / block;
			mean[m] += t[r][m] / rounds;
			counters_close();
		}
	printf("perf floor: %d rounds of %d commands (`true`) in each of "
	       "%d blocks, %d CPUs\n",
	       rounds, block, MODES, ncpus);
	for (int m = 0; m < MODES; m++) {
		printf("  %-9s %7.1f us per command", mode_name[m], mean[m]);
		if (m) {
			for (int r = 0; r < rounds; r++)
				d[r] = t[r][m] - t[r][m - 1];
			quartiles(d, rounds, q);
			printf(", %+6.1f us (quartiles %+.1f, %+.1f)", q[1],
			       q[0], q[2]);
		}
		printf("\n");
	}
	for (int r = 0; r < rounds; r++)
		d[r] = t[r][READS] - t[r][OFF];
	quartiles(d, rounds, q);
	printf("floor: %.1f us per command (quartiles %.1f, %.1f) of the "
	       "kernel's, %.1f%% of `true` started off\n",
	       q[1], q[0], q[2], q[1] / mean[OFF] * 100);
	ret = 0;
	goto out;
fail:
	fprintf(stderr, "perf-floor: %s\n", strerror(errno));
out:
	counters_close();
	if (cgroup_fd >= 0)
		close(cgroup_fd);
	rmdir(dir);
	free(t);
	free(d);
	return ret;
}
