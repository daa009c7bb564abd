/* profile: cpu-clock call-graph samples of a command's process tree. */
#include "profile.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "profile-sym.h"
#include "runner.h"
#include "strbuf.h"
#include "strmap.h"
#include "strvec.h"
#include "util.h"

extern char **environ;

/* Data pages of each CPU's ring buffer (a power of two): 256 KiB. */
#define RING_PAGES 64

/* One CPU's sampling event and its ring buffer. */
struct ring {
	int fd;
	void *base;
	size_t map_size, data_size;
};

/* An executable mapping of a process, from a PERF_RECORD_MMAP. */
struct map {
	uint32_t pid;
	uint64_t start, len, pgoff;
	size_t path; /* in collect.paths */
};

/* A process forked by another (PERF_RECORD_FORK), until it executes. */
struct fork_link {
	uint32_t pid, ppid;
	bool exec;
};

/* What the rings gave, symbolised once the command has ended. */
struct collect {
	uint64_t *ips; /* each sample's callchain, context markers included */
	size_t ips_nr, ips_alloc;
	struct {
		uint32_t pid;
		size_t first, nr;
	} * samples;
	size_t samples_nr, samples_alloc;
	struct map *maps;
	size_t maps_nr, maps_alloc;
	struct fork_link *forks;
	size_t forks_nr, forks_alloc;
	struct strvec paths;
	uint64_t lost;
};

static int perf_open(struct perf_event_attr *attr, pid_t pid, int cpu)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

static void attr_init(struct perf_event_attr *attr, int hz, bool user_only)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_SOFTWARE;
	attr->config = PERF_COUNT_SW_CPU_CLOCK;
	/* A fixed period, so that every sample stands for the same time. */
	attr->sample_period = 1000000000ULL / (unsigned)hz;
	attr->sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN;
	attr->disabled = 1;
	attr->enable_on_exec = 1;
	attr->inherit = 1;
	attr->mmap = 1;
	attr->comm = 1;
	attr->task = 1;
	attr->exclude_kernel = user_only;
	attr->exclude_hv = 1;
	attr->watermark = 1;
	attr->wakeup_watermark = RING_PAGES * 4096 / 4;
}

/*
 * One event per CPU on pid (an inherited event can only be mapped per
 * CPU); *user_only when the kernel refused kernel samples.
 */
static int open_rings(int hz, pid_t pid, struct ring **rings, size_t *nr,
		      bool *user_only, struct strbuf *err)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct perf_event_attr attr;

	*rings = xcalloc((size_t)(cpus > 0 ? cpus : 1), sizeof(**rings));
	*nr = 0;
	*user_only = false;
	for (long cpu = 0; cpu < cpus; cpu++) {
		struct ring *r = &(*rings)[*nr];
		int fd;

		attr_init(&attr, hz, *user_only);
		fd = perf_open(&attr, pid, (int)cpu);
		if (fd < 0 && (errno == EACCES || errno == EPERM) &&
		    !*user_only) {
			*user_only = true;
			attr_init(&attr, hz, true);
			fd = perf_open(&attr, pid, (int)cpu);
		}
		if (fd < 0 && errno == ENODEV)
			continue; /* an offline CPU */
		if (fd < 0)
			return error_addf(err,
					  "cannot profile: perf_event_open "
					  "(cpu-clock sampling, CPU %ld): %s",
					  cpu, strerror(errno));
		r->fd = fd;
		r->data_size = RING_PAGES * page;
		r->map_size = r->data_size + page;
		r->base = mmap(NULL, r->map_size, PROT_READ | PROT_WRITE,
			       MAP_SHARED, fd, 0);
		(*nr)++;
		if (r->base == MAP_FAILED) {
			r->base = NULL;
			return error_addf(err,
					  "cannot profile: cannot map the "
					  "sample buffer of CPU %ld: %s",
					  cpu, strerror(errno));
		}
	}
	if (!*nr)
		return error_addf(err, "cannot profile: no CPU to sample on");
	return 0;
}

static void close_rings(struct ring *rings, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		if (rings[i].base)
			munmap(rings[i].base, rings[i].map_size);
		close(rings[i].fd);
	}
	free(rings);
}

static uint32_t get_u32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t get_u64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* A PERF_RECORD_SAMPLE of TID and CALLCHAIN: pid, tid, nr, ips[nr]. */
static void add_sample(struct collect *c, const unsigned char *p, size_t size)
{
	uint64_t nr;

	if (size < 16)
		return;
	nr = get_u64(p + 8);
	if (nr > (size - 16) / 8)
		return;
	ALLOC_GROW(c->samples, c->samples_nr + 1, c->samples_alloc);
	c->samples[c->samples_nr].pid = get_u32(p);
	c->samples[c->samples_nr].first = c->ips_nr;
	c->samples[c->samples_nr++].nr = nr;
	ALLOC_GROW(c->ips, c->ips_nr + nr, c->ips_alloc);
	for (uint64_t i = 0; i < nr; i++)
		c->ips[c->ips_nr++] = get_u64(p + 16 + 8 * i);
}

/* One record of a ring (its header at rec, size bytes in all). */
static void add_record(struct collect *c, const unsigned char *rec, size_t size)
{
	struct perf_event_header h;
	const unsigned char *p = rec + sizeof(h);
	size_t body = size - sizeof(h);

	memcpy(&h, rec, sizeof(h));
	if (h.type == PERF_RECORD_SAMPLE) {
		add_sample(c, p, body);
	} else if (h.type == PERF_RECORD_MMAP && body > 32) {
		ALLOC_GROW(c->maps, c->maps_nr + 1, c->maps_alloc);
		c->maps[c->maps_nr] = (struct map){
			get_u32(p), get_u64(p + 8), get_u64(p + 16),
			get_u64(p + 24), c->paths.nr};
		c->maps_nr++;
		strvec_push_nodup(&c->paths,
				  xstrndup((const char *)p + 32, body - 32));
	} else if (h.type == PERF_RECORD_FORK && body >= 8 &&
		   get_u32(p) != get_u32(p + 4)) {
		ALLOC_GROW(c->forks, c->forks_nr + 1, c->forks_alloc);
		c->forks[c->forks_nr++] =
			(struct fork_link){get_u32(p), get_u32(p + 4), false};
	} else if (h.type == PERF_RECORD_COMM && body >= 4 &&
		   (h.misc & PERF_RECORD_MISC_COMM_EXEC)) {
		for (size_t i = 0; i < c->forks_nr; i++)
			if (c->forks[i].pid == get_u32(p))
				c->forks[i].exec = true;
	} else if (h.type == PERF_RECORD_LOST && body >= 16) {
		c->lost += get_u64(p + 8);
	}
}

/* Take every record the kernel has written to r since the last call. */
static void drain(struct ring *r, struct collect *c, struct strbuf *tmp)
{
	struct perf_event_mmap_page *pg = r->base;
	const unsigned char *data;
	uint64_t head, tail;

	if (!pg)
		return;
	data = (const unsigned char *)r->base + (r->map_size - r->data_size);
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	tail = pg->data_tail;

	while (head - tail >= sizeof(struct perf_event_header)) {
		struct perf_event_header h;

		strbuf_reset(tmp);
		for (size_t k = 0; k < sizeof(h); k++)
			strbuf_addch(tmp, data[(tail + k) % r->data_size]);
		memcpy(&h, tmp->buf, sizeof(h));
		if (h.size < sizeof(h) || h.size > head - tail)
			break;
		for (size_t k = sizeof(h); k < h.size; k++)
			strbuf_addch(tmp, data[(tail + k) % r->data_size]);
		add_record(c, (const unsigned char *)tmp->buf, h.size);
		tail += h.size;
	}
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
}

/* The mapping of pid (or of what it was forked from) that holds ip. */
static const struct map *find_map(const struct collect *c, uint32_t pid,
				  uint64_t ip)
{
	for (int depth = 0; depth < 64; depth++) {
		const struct fork_link *up = NULL;

		/* The latest mapping first: it replaced what it overlaps. */
		for (size_t i = c->maps_nr; i-- > 0;) {
			const struct map *m = &c->maps[i];

			if (m->pid == pid && ip >= m->start &&
			    ip - m->start < m->len)
				return m;
		}
		for (size_t i = 0; !up && i < c->forks_nr; i++)
			if (c->forks[i].pid == pid && !c->forks[i].exec)
				up = &c->forks[i];
		if (!up)
			return NULL;
		pid = up->ppid;
	}
	return NULL;
}

/* Append sample s's stack, root first, ';'-separated, to key. */
static void fold_sample(const struct collect *c, size_t s,
			struct profile_sym *ps, struct strbuf *key)
{
	const uint64_t *ips = c->ips + c->samples[s].first;
	size_t nr = c->samples[s].nr;
	bool kernel = false, first_user = true;
	const char **names = xcalloc(nr + 1, sizeof(*names));
	size_t n = 0;

	for (size_t i = 0; i < nr; i++) {
		uint64_t ip = ips[i];
		const struct map *m;

		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			kernel = ip == (uint64_t)PERF_CONTEXT_KERNEL;
			continue;
		}
		if (kernel) {
			names[n++] = profile_sym_kernel(ps, ip);
			continue;
		}
		/* A return address: the call is the byte before it. */
		if (!first_user && ip)
			ip--;
		first_user = false;
		m = find_map(c, c->samples[s].pid, ip);
		names[n++] = m ? profile_sym_file(ps, c->paths.v[m->path],
						  ip - m->start + m->pgoff)
			       : profile_sym_unknown(ps);
	}
	strbuf_reset(key);
	for (size_t i = n; i-- > 0;) {
		strbuf_addstr(key, names[i]);
		if (i)
			strbuf_addch(key, ';');
	}
	if (!n)
		strbuf_addstr(key, "[unknown]");
	free(names);
}

static int key_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Symbolise and fold the samples of c into out. */
static void fold(const struct collect *c, bool user_only,
		 struct profile_result *out)
{
	struct profile_sym *ps = profile_sym_new();
	struct strmap index = STRMAP_INIT;
	struct strvec keys = STRVEC_INIT;
	struct strbuf key = STRBUF_INIT, missing = STRBUF_INIT;
	uint64_t *counts = xcalloc(c->samples_nr + 1, sizeof(*counts));
	char **sorted;

	for (size_t s = 0; s < c->samples_nr; s++) {
		size_t i;

		fold_sample(c, s, ps, &key);
		if (!strmap_get(&index, key.buf, key.len, &i)) {
			i = keys.nr;
			strvec_push(&keys, key.buf);
			strmap_put(&index, key.buf, key.len, i);
		}
		counts[i]++;
	}
	sorted = xcalloc(keys.nr + 1, sizeof(*sorted));
	for (size_t i = 0; i < keys.nr; i++) {
		struct strbuf line = STRBUF_INIT;

		strbuf_addf(&line, "%s %llu", keys.v[i],
			    (unsigned long long)counts[i]);
		sorted[i] = strbuf_detach(&line, NULL);
	}
	qsort(sorted, keys.nr, sizeof(*sorted), key_cmp);
	for (size_t i = 0; i < keys.nr; i++) {
		strbuf_addf(out->folded, "%s\n", sorted[i]);
		free(sorted[i]);
	}
	out->samples = c->samples_nr;
	out->lost = c->lost;
	if (user_only)
		strbuf_addstr(&missing, "kernel frames not sampled "
					"(perf_event_paranoid)");
	if (user_only && c->samples_nr)
		strbuf_addstr(&missing, "; ");
	profile_sym_missing(ps, &missing);
	out->missing = missing.len ? strbuf_detach(&missing, NULL) : NULL;
	strbuf_release(&missing);
	free(sorted);
	free(counts);
	strbuf_release(&key);
	strvec_clear(&keys);
	strmap_clear(&index);
	profile_sym_free(ps);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * The child: wait for the parent's word on go (its end of the pipe
 * closing), enter the cgroups, then execute file. Async-signal-safe only.
 */
MMCMP_NORETURN static void child(const struct profile_request *req,
				 const char *file, int go)
{
	char c;
	int fd = open("/dev/null", O_RDWR);
	sigset_t none;

	setpgid(0, 0);
	if (fd < 0 || dup2(fd, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
		_exit(127);
	if (read(go, &c, 1) != 1)
		_exit(127);
	if (req->cwd && chdir(req->cwd))
		_exit(127);
	for (size_t i = 0; req->cgroup_procs && req->cgroup_procs[i]; i++) {
		int cg = open(req->cgroup_procs[i], O_WRONLY | O_CLOEXEC);

		if (cg < 0 || write(cg, "0", 1) != 1)
			_exit(127);
		close(cg);
	}
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execve(file, req->argv, req->env ? req->env : environ);
	_exit(127);
}

/* The value of PATH in env (NULL: this process's). */
static const char *env_path(char *const *env)
{
	if (!env)
		return getenv("PATH");
	for (size_t i = 0; env[i]; i++)
		if (!strncmp(env[i], "PATH=", 5))
			return env[i] + 5;
	return NULL;
}

/* Wait for pid, draining the rings, within req's time and stop. */
static void wait_child(const struct profile_request *req, pid_t pid,
		       struct ring *rings, size_t nr, struct collect *c,
		       struct profile_result *out)
{
	struct pollfd *fds = xcalloc(nr, sizeof(*fds));
	struct strbuf tmp = STRBUF_INIT;
	double start = now_s();
	const char *killed = NULL;
	int status = 0;

	for (size_t i = 0; i < nr; i++)
		fds[i] = (struct pollfd){.fd = rings[i].fd, .events = POLLIN};
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		for (size_t i = 0; i < nr; i++)
			drain(&rings[i], c, &tmp);
		if (w == pid || (w < 0 && errno != EINTR))
			break;
		if (!killed && req->stop && *req->stop)
			killed = "interrupted";
		else if (!killed && req->timeout_s > 0 &&
			 now_s() - start > req->timeout_s)
			killed = "timeout";
		if (killed)
			kill(-pid, SIGKILL);
		poll(fds, nr, 20);
	}
	kill(-pid, SIGKILL); /* what it left behind */
	out->status = xstrdup(killed			 ? killed
			      : WIFSIGNALED(status)	 ? "signal"
			      : WEXITSTATUS(status) != 0 ? "exit"
							 : "ok");
	out->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
	strbuf_release(&tmp);
	free(fds);
}

static void collect_release(struct collect *c)
{
	free(c->ips);
	free(c->samples);
	free(c->maps);
	free(c->forks);
	strvec_clear(&c->paths);
}

int profile_run(const struct profile_request *req, struct profile_result *out,
		struct strbuf *err)
{
	struct collect c = {.paths = STRVEC_INIT};
	struct strbuf file = STRBUF_INIT;
	struct ring *rings = NULL;
	size_t rings_nr = 0;
	bool user_only;
	int go[2] = {-1, -1}, e, ret = -1;
	pid_t pid;

	profile_result_release(out);
	e = runner_find_program(req->argv[0], env_path(req->env), req->cwd,
				&file);
	if (e) {
		error_addf(err, "cannot execute '%s': %s", req->argv[0],
			   strerror(e));
		goto out;
	}
	if (pipe(go) || fcntl(go[0], F_SETFD, FD_CLOEXEC) ||
	    fcntl(go[1], F_SETFD, FD_CLOEXEC)) {
		error_addf(err, "cannot profile: pipe: %s", strerror(errno));
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		error_addf(err, "cannot profile: fork: %s", strerror(errno));
		goto out;
	}
	if (!pid) {
		close(go[1]);
		child(req, file.buf, go[0]);
	}
	close(go[0]);
	go[0] = -1;
	if (open_rings(req->frequency_hz, pid, &rings, &rings_nr, &user_only,
		       err)) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		goto out;
	}
	if (write(go[1], "g", 1) != 1) {
		error_addf(err, "cannot profile: %s", strerror(errno));
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		goto out;
	}
	out->folded = xcalloc(1, sizeof(*out->folded));
	strbuf_init(out->folded, 0);
	wait_child(req, pid, rings, rings_nr, &c, out);
	fold(&c, user_only, out);
	ret = 0;
out:
	if (go[0] >= 0)
		close(go[0]);
	if (go[1] >= 0)
		close(go[1]);
	close_rings(rings, rings_nr);
	collect_release(&c);
	strbuf_release(&file);
	return ret;
}

void profile_result_release(struct profile_result *out)
{
	free(out->status);
	if (out->folded) {
		strbuf_release(out->folded);
		free(out->folded);
	}
	free(out->missing);
	*out = (struct profile_result)PROFILE_RESULT_INIT;
}
