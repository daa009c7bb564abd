/* monitor-perf: perf_event_open() counters of an iteration's processes. */
#define _GNU_SOURCE
#include "monitor-perf.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "monitor.h"
#include "parse-num.h"
#include "run-data.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"

/* One event: perf's name for it, its type and config. */
struct event_def {
	const char *name;
	uint32_t type;
	uint64_t config; /* for tracepoints, read from tracefs */
};

#define HW_CACHE(cache, op, result)                                            \
	((uint64_t)(cache) | ((uint64_t)(op) << 8) | ((uint64_t)(result) << 16))

static const struct event_def events[] = {
	{"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
	{"context-switches", PERF_TYPE_SOFTWARE,
	 PERF_COUNT_SW_CONTEXT_SWITCHES},
	{"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
	{"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
	{"minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN},
	{"major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ},
	{"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
	{"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
	{"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
	{"dTLB-load-misses", PERF_TYPE_HW_CACHE,
	 HW_CACHE(PERF_COUNT_HW_CACHE_DTLB, PERF_COUNT_HW_CACHE_OP_READ,
		  PERF_COUNT_HW_CACHE_RESULT_MISS)},
	/* Stalls: the mm tracepoints, "system:name" under tracefs. */
	{"vmscan:mm_vmscan_direct_reclaim_begin", PERF_TYPE_TRACEPOINT, 0},
	{"vmscan:mm_vmscan_direct_reclaim_end", PERF_TYPE_TRACEPOINT, 0},
	{"vmscan:mm_vmscan_memcg_reclaim_begin", PERF_TYPE_TRACEPOINT, 0},
	{"vmscan:mm_vmscan_memcg_reclaim_end", PERF_TYPE_TRACEPOINT, 0},
	{"compaction:mm_compaction_begin", PERF_TYPE_TRACEPOINT, 0},
	{"compaction:mm_compaction_end", PERF_TYPE_TRACEPOINT, 0},
	{"huge_memory:mm_collapse_huge_page", PERF_TYPE_TRACEPOINT, 0},
};

/*
 * The stalls: a begin and an end tracepoint of events[] each, the row of
 * their time and the row of the samples lost instead.
 */
static const struct {
	const char *name, *lost, *begin, *end;
} stalls[MONITOR_PERF_STALLS_NR] = {
	[MONITOR_PERF_DIRECT_RECLAIM] =
		{"direct-reclaim-stall", "direct-reclaim-stall-lost",
		 "vmscan:mm_vmscan_direct_reclaim_begin",
		 "vmscan:mm_vmscan_direct_reclaim_end"},
	[MONITOR_PERF_MEMCG_RECLAIM] = {"memcg-reclaim-stall",
					"memcg-reclaim-stall-lost",
					"vmscan:mm_vmscan_memcg_reclaim_begin",
					"vmscan:mm_vmscan_memcg_reclaim_end"},
	[MONITOR_PERF_COMPACTION] = {"compaction-stall",
				     "compaction-stall-lost",
				     "compaction:mm_compaction_begin",
				     "compaction:mm_compaction_end"},
};

/* Data pages of each CPU's stall ring (a power of two): 128 KiB. */
#define RING_PAGES 32

/* One CPU's stall ring, the output of every sampled event on that CPU. */
struct ring {
	int fd; /* the dummy event mapped */
	void *base;
	size_t map_size, data_size;
};

/*
 * One event's counter of a cgroup on one CPU, and what it read at the
 * iteration's begin and at its end: value, time enabled, time running.
 * A software event or tracepoint is a member of its CPU's group, read
 * with it in one read() (pos, from 1: the leader is a dummy event); a
 * hardware event is read alone (pos 0), so that it is multiplexed, and
 * scaled, on its own.
 */
struct cg_counter {
	int fd; /* -1: none on this CPU */
	size_t pos;
	uint64_t base[3], now[3];
};

/* A CPU's group of a cgroup's counters: its dummy leader, its size. */
struct cg_group {
	int lead;
	size_t nr;
};

/* Where tracefs may be mounted, the first that has the event wins. */
static const char *const tracefs_dirs[] = {
	"/sys/kernel/tracing",
	"/sys/kernel/debug/tracing",
};
#define EVENTS_NR ARRAY_SIZE(events)

struct monitor_perf {
	size_t nr;	       /* events asked for */
	size_t ev[EVENTS_NR];  /* their indices in events[] */
	int fd[EVENTS_NR];     /* -1: not open */
	int keep[EVENTS_NR];   /* the same event on us, never on; -1: none */
	int absent[EVENTS_NR]; /* 0, or the errno that made it absent */
	uint64_t tp_id[EVENTS_NR]; /* a tracepoint's id; 0: not read yet */
	bool user_only;		   /* opened without kernel-side counts */
	struct strbuf absent_text;
	/* The stalls' sampled events: one per event and CPU, and the rings. */
	int stall_of[EVENTS_NR]; /* its stall, -1: none or not both asked */
	bool sampled[EVENTS_NR]; /* opened per CPU, fd[] -1 */
	int *sfd;
	size_t sfd_nr, sfd_alloc;
	struct ring *rings;
	size_t rings_nr;
	struct monitor_perf_stalls st;
	struct strbuf tmp; /* one record, copied out of a ring */
	/*
	 * Counting a cgroup (monitor_perf_set_cgroup()): its directory, -1
	 * when process trees are counted; whether its events are open, once
	 * for every iteration; each event's counter on each CPU.
	 */
	int cgroup_fd;
	bool cgroup_open;
	size_t absent_len; /* of absent_text, as the cgroup's open left it */
	size_t cpus;
	struct cg_counter *cc;	 /* [i * cpus + cpu] */
	struct cg_group *groups; /* [cpu] */
	uint64_t *group_buf;	 /* one group's read */
	size_t group_buf_nr;
};

static long find_event(const char *name)
{
	for (size_t i = 0; i < EVENTS_NR; i++)
		if (!strcmp(events[i].name, name))
			return (long)i;
	return -1;
}

/* The stall whose row is name (lost: its "-lost" row), or -1. */
static int find_stall(const char *name, bool lost)
{
	for (int k = 0; k < MONITOR_PERF_STALLS_NR; k++)
		if (!strcmp(lost ? stalls[k].lost : stalls[k].name, name))
			return k;
	return -1;
}

bool monitor_perf_known(const char *name)
{
	return !strcmp(name, "default") || find_event(name) >= 0 ||
	       find_stall(name, false) >= 0;
}

const char *monitor_perf_names(void)
{
	static const char names[] =
		"task-clock, context-switches, cpu-migrations, page-faults, "
		"minor-faults, major-faults, cycles, instructions, "
		"cache-misses, dTLB-load-misses, "
		"vmscan:mm_vmscan_direct_reclaim_begin, "
		"vmscan:mm_vmscan_direct_reclaim_end, "
		"vmscan:mm_vmscan_memcg_reclaim_begin, "
		"vmscan:mm_vmscan_memcg_reclaim_end, "
		"compaction:mm_compaction_begin, compaction:mm_compaction_end, "
		"huge_memory:mm_collapse_huge_page, "
		"direct-reclaim-stall, memcg-reclaim-stall, compaction-stall";

	return names;
}

/* Whether name's stored value is a time in ns, shown in ms. */
static bool in_ns(const char *name)
{
	return !strcmp(name, "task-clock") || find_stall(name, false) >= 0;
}

const char *monitor_perf_unit(const char *name)
{
	return in_ns(name) ? "ms" : "";
}

double monitor_perf_scale(const char *name)
{
	return in_ns(name) ? 1e-6 : 1.0;
}

bool monitor_perf_higher_better(const char *name)
{
	return !strcmp(name, "IPC");
}

/* The derived rows: name = numerator * scale / denominator. */
static const struct {
	const char *name, *num, *den;
	double scale;
} derived[] = {
	{"IPC", "instructions", "cycles", 1.0},
	{"cache-MPKI", "cache-misses", "instructions", 1000.0},
	{"dTLB-MPKI", "dTLB-load-misses", "instructions", 1000.0},
};

void monitor_perf_derive(struct monitor_table *mt)
{
	for (int k = 0; k < MONITOR_PERF_STALLS_NR && mt->iterations; k++) {
		const struct monitor_counter *lost;

		if (!monitor_table_get(mt, stalls[k].lost))
			continue;
		/* Lost in every iteration: a row of NaN, not none. */
		if (!monitor_table_get(mt, stalls[k].name))
			monitor_table_set(mt, stalls[k].name, 0.0);
		lost = monitor_table_get(mt, stalls[k].lost);
		for (size_t i = 0; i < mt->counters_nr; i++) {
			struct monitor_counter *c = &mt->counters[i];

			if (strcmp(c->name, stalls[k].name))
				continue;
			/* The loader gave 0 where the row was left out. */
			for (size_t it = 0; it < c->nr && it < lost->nr; it++)
				if (lost->v[it] > 0)
					c->v[it] = NAN;
		}
	}
	for (size_t d = 0; d < ARRAY_SIZE(derived) && mt->iterations; d++) {
		const struct monitor_counter *num =
			monitor_table_get(mt, derived[d].num);
		const struct monitor_counter *den =
			monitor_table_get(mt, derived[d].den);
		struct monitor_counter *c;

		if (!num || !den || monitor_table_get(mt, derived[d].name))
			continue;
		monitor_table_set(mt, derived[d].name, 0.0);
		c = &mt->counters[mt->counters_nr - 1];
		/* Looked up again: the new row may have moved the others. */
		num = monitor_table_get(mt, derived[d].num);
		den = monitor_table_get(mt, derived[d].den);
		for (size_t k = 0; k < mt->iterations; k++)
			c->v[k] = den->v[k] != 0.0
					  ? num->v[k] * derived[d].scale /
						    den->v[k]
					  : NAN;
	}
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

void monitor_perf_stalls_record(struct monitor_perf_stalls *s,
				const unsigned char *rec, size_t size)
{
	struct perf_event_header h;
	const unsigned char *p = rec + sizeof(h);
	uint64_t id;

	if (size < sizeof(h))
		return;
	memcpy(&h, rec, sizeof(h));
	if (h.type == PERF_RECORD_LOST && size >= sizeof(h) + 16) {
		s->lost += get_u64(p + 8);
		return;
	}
	if (h.type == PERF_RECORD_THROTTLE) {
		s->throttled++;
		return;
	}
	/* id, pid and tid, time: in the order of PERF_SAMPLE_* bits. */
	if (h.type != PERF_RECORD_SAMPLE || size < sizeof(h) + 24)
		return;
	id = get_u64(p);
	for (size_t i = 0; i < s->ids_nr; i++) {
		const struct monitor_perf_stall_id *si = &s->ids[i];

		if (si->id != id)
			continue;
		ALLOC_GROW(s->v, s->nr + 1, s->alloc);
		s->v[s->nr] = (struct monitor_perf_mark){
			get_u64(p + 16), get_u32(p + 12), si->stall, si->begin,
			s->nr};
		s->nr++;
		s->seen[si->stall][si->begin ? 0 : 1]++;
		return;
	}
}

static int mark_cmp(const void *a, const void *b)
{
	const struct monitor_perf_mark *x = a, *y = b;

	if (x->time_ns != y->time_ns)
		return x->time_ns < y->time_ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* A task in a stall: since start_ns, depth begins deep. */
struct open_stall {
	uint32_t tid;
	enum monitor_perf_stall stall;
	unsigned depth;
	uint64_t start_ns;
};

static void add_value(struct monitor_values *out, const char *name, uint64_t v)
{
	ALLOC_GROW(out->v, out->nr + 1, out->alloc);
	out->v[out->nr].name = name;
	out->v[out->nr++].value = v > INT64_MAX ? INT64_MAX : (int64_t)v;
}

void monitor_perf_stalls_sum(struct monitor_perf_stalls *s,
			     const uint64_t counted[][2], uint64_t end_ns,
			     struct monitor_values *out, struct strbuf *note)
{
	uint64_t sum_ns[MONITOR_PERF_STALLS_NR] = {0};
	struct open_stall *open = NULL;
	size_t open_nr = 0, open_alloc = 0, n = 0;

	if (s->nr > 1)
		qsort(s->v, s->nr, sizeof(*s->v), mark_cmp);
	for (size_t i = 0; i < s->nr; i++) {
		const struct monitor_perf_mark *m = &s->v[i];
		size_t k;

		for (k = 0; k < open_nr; k++)
			if (open[k].tid == m->tid && open[k].stall == m->stall)
				break;
		if (m->begin && k == open_nr) {
			ALLOC_GROW(open, open_nr + 1, open_alloc);
			open[open_nr++] = (struct open_stall){m->tid, m->stall,
							      1, m->time_ns};
		} else if (m->begin) {
			open[k].depth++;
		} else if (k < open_nr && !--open[k].depth) {
			sum_ns[m->stall] += m->time_ns - open[k].start_ns;
			open[k] = open[--open_nr];
		}
		/* An end without a begin: begun before the counting. */
	}
	for (size_t k = 0; k < open_nr; k++)
		if (end_ns > open[k].start_ns)
			sum_ns[open[k].stall] += end_ns - open[k].start_ns;
	for (int k = 0; k < MONITOR_PERF_STALLS_NR; k++) {
		uint64_t missing = 0;

		if (!s->active[k])
			continue;
		for (int e = 0; e < 2; e++)
			if (counted[k][e] > s->seen[k][e])
				missing += counted[k][e] - s->seen[k][e];
		if (!missing) {
			add_value(out, stalls[k].name, sum_ns[k]);
			continue;
		}
		add_value(out, stalls[k].lost, missing);
		strbuf_addf(note, "%s%s", n++ ? ", " : (note->len ? "; " : ""),
			    stalls[k].name);
	}
	if (n)
		strbuf_addstr(note, ": not summed where the ring buffer lost "
				    "records (stall-lost rows count them)");
	free(open);
	s->nr = 0;
	s->lost = s->throttled = 0;
	memset(s->seen, 0, sizeof(s->seen));
}

void monitor_perf_stalls_release(struct monitor_perf_stalls *s)
{
	free(s->v);
	free(s->ids);
	memset(s, 0, sizeof(*s));
}

static void add_event(struct monitor_perf *mp, size_t e)
{
	for (size_t i = 0; i < mp->nr; i++)
		if (mp->ev[i] == e)
			return;
	mp->ev[mp->nr++] = e;
}

struct monitor_perf *monitor_perf_new(const struct strvec *names,
				      struct strbuf *err)
{
	struct monitor_perf *mp = xcalloc(1, sizeof(*mp));

	strbuf_init(&mp->absent_text, 0);
	strbuf_init(&mp->tmp, 0);
	for (size_t i = 0; i < EVENTS_NR; i++)
		mp->fd[i] = mp->keep[i] = mp->stall_of[i] = -1;
	mp->cgroup_fd = -1;
	for (size_t i = 0; names && i < names->nr; i++) {
		long e = find_event(names->v[i]);

		if (!strcmp(names->v[i], "default")) {
			for (size_t k = 0; k < EVENTS_NR; k++)
				add_event(mp, k);
			continue;
		}
		if (find_stall(names->v[i], false) >= 0) {
			int k = find_stall(names->v[i], false);

			add_event(mp, (size_t)find_event(stalls[k].begin));
			add_event(mp, (size_t)find_event(stalls[k].end));
			continue;
		}
		if (e < 0) {
			error_addf(err, "unknown perf event '%s' (known: %s)",
				   names->v[i], monitor_perf_names());
			monitor_perf_free(mp);
			return NULL;
		}
		add_event(mp, (size_t)e);
	}
	if (!mp->nr)
		for (size_t k = 0; k < EVENTS_NR; k++)
			add_event(mp, k);
	for (size_t i = 0; i < mp->nr; i++) {
		for (int k = 0; k < MONITOR_PERF_STALLS_NR; k++) {
			long b = find_event(stalls[k].begin),
			     e = find_event(stalls[k].end);
			bool both = false;

			if ((long)mp->ev[i] != b && (long)mp->ev[i] != e)
				continue;
			for (size_t j = 0; j < mp->nr; j++)
				both |= j != i && ((long)mp->ev[j] == b ||
						   (long)mp->ev[j] == e);
			if (both)
				mp->stall_of[i] = k;
		}
	}
	return mp;
}

/*
 * Open def on pid; keep: a copy on the calling thread that stays off,
 * never inherited.
 */
static int perf_open(const struct event_def *def, uint64_t config, pid_t pid,
		     bool user_only, bool keep)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.type = def->type;
	attr.size = sizeof(attr);
	attr.config = config;
	attr.read_format =
		PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	/*
	 * Off in mmcmp, which never execs; inherited by the child forked
	 * next, which turns it on at its exec; its children inherit it in
	 * turn and their counts join ours when they exit.
	 */
	attr.disabled = 1;
	attr.inherit = !keep;
	attr.enable_on_exec = !keep;
	attr.exclude_kernel = user_only;
	attr.exclude_hv = user_only;
	return (int)syscall(SYS_perf_event_open, &attr, pid, -1, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

/*
 * Open tracepoint def (id config) sampled, every event with its id, tid
 * and time, on pid and cpu, inherited and on from the next exec as
 * perf_open()'s.
 */
static int perf_open_sampled(const struct event_def *def, uint64_t config,
			     pid_t pid, int cpu, bool user_only, bool cgroup)
{
	struct perf_event_attr attr;
	unsigned long flags = PERF_FLAG_FD_CLOEXEC;

	memset(&attr, 0, sizeof(attr));
	attr.type = def->type;
	attr.size = sizeof(attr);
	attr.config = config;
	attr.sample_period = 1;
	attr.sample_type =
		PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	attr.read_format =
		PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	/* A cgroup's: on, for every iteration; pid is its directory. */
	attr.disabled = !cgroup;
	attr.inherit = !cgroup;
	attr.enable_on_exec = !cgroup;
	if (cgroup)
		flags |= PERF_FLAG_PID_CGROUP;
	/* One clock on every CPU, and the one monitor_perf_end() reads. */
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	attr.exclude_kernel = user_only;
	attr.exclude_hv = user_only;
	return (int)syscall(SYS_perf_event_open, &attr, pid, cpu, -1, flags);
}

/*
 * Open def counting the tasks of cgroup directory fd cgroup_fd on cpu,
 * on from now on (PERF_FLAG_PID_CGROUP: a per-CPU event that counts only
 * while a task of that cgroup runs there).
 */
static int perf_open_cgroup(uint32_t type, uint64_t config, int cgroup_fd,
			    int cpu, int group, bool user_only)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.type = type;
	attr.size = sizeof(attr);
	attr.config = config;
	attr.read_format =
		PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (group >= 0 ||
	    (type == PERF_TYPE_SOFTWARE && config == PERF_COUNT_SW_DUMMY))
		attr.read_format |= PERF_FORMAT_GROUP;
	attr.exclude_kernel = user_only;
	attr.exclude_hv = user_only;
	return (int)syscall(SYS_perf_event_open, &attr, cgroup_fd, cpu, group,
			    PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC);
}

/*
 * The ring of cpu: a dummy event's on the calling thread (one on each
 * CPU, off, never inherited), mapped on first use and kept for mp's
 * life, that every sampled event on that CPU writes to. Mapping and
 * unmapping a ring for each iteration cost about 2 ms (TLB shootdowns
 * in a VM; bench/run-overhead); an event can write to the ring of
 * another on its CPU whatever their tasks. 0, or an errno.
 */
static int ring_get(struct monitor_perf *mp, long cpu, struct ring **out)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct ring *r = &mp->rings[cpu];
	struct perf_event_attr attr;

	*out = r;
	if (r->base)
		return 0;
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = sizeof(attr);
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.disabled = 1;
	attr.use_clockid = 1; /* a ring has one clock */
	attr.clockid = CLOCK_MONOTONIC;
	r->fd = (int)syscall(SYS_perf_event_open, &attr, 0, (int)cpu, -1,
			     PERF_FLAG_FD_CLOEXEC);
	if (r->fd < 0)
		return errno ? errno : EINVAL;
	r->data_size = RING_PAGES * page;
	r->map_size = r->data_size + page;
	r->base = mmap(NULL, r->map_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		       r->fd, 0);
	if (r->base == MAP_FAILED) {
		int e = errno;

		r->base = NULL;
		close(r->fd);
		return e;
	}
	return 0;
}

/*
 * Open event i of mp sampled on every online CPU, writing to that CPU's
 * ring; 0, or the errno that makes it absent (what was opened of it is
 * closed by the caller's monitor_perf_cancel()).
 */
static int stall_open(struct monitor_perf *mp, size_t i, uint64_t config,
		      pid_t pid, bool cgroup)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	size_t opened = 0;

	if (cpus < 1)
		cpus = 1;
	if (!mp->rings_nr) {
		mp->rings = xcalloc((size_t)cpus, sizeof(*mp->rings));
		mp->rings_nr = (size_t)cpus;
	}
	for (long cpu = 0; cpu < cpus && (size_t)cpu < mp->rings_nr; cpu++) {
		struct ring *r = NULL;
		struct monitor_perf_stall_id *si;
		int fd = perf_open_sampled(&events[mp->ev[i]], config, pid,
					   (int)cpu, mp->user_only, cgroup);
		uint64_t id = 0;
		int e;

		if (fd < 0 && errno == ENODEV)
			continue; /* an offline CPU */
		if (fd < 0)
			return errno ? errno : EINVAL;
		ALLOC_GROW(mp->sfd, mp->sfd_nr + 1, mp->sfd_alloc);
		mp->sfd[mp->sfd_nr++] = fd;
		e = ring_get(mp, cpu, &r);
		if (e)
			return e;
		if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, r->fd) ||
		    ioctl(fd, PERF_EVENT_IOC_ID, &id))
			return errno;
		ALLOC_GROW(mp->st.ids, mp->st.ids_nr + 1, mp->st.ids_alloc);
		si = &mp->st.ids[mp->st.ids_nr++];
		si->id = id;
		si->stall = (enum monitor_perf_stall)mp->stall_of[i];
		si->begin = !strcmp(events[mp->ev[i]].name,
				    stalls[mp->stall_of[i]].begin);
		opened++;
	}
	return opened ? 0 : ENODEV;
}

/* Append len bytes of r's data from offset from, wrapping at its end. */
static void ring_copy(struct strbuf *tmp, const struct ring *r,
		      const unsigned char *data, uint64_t from, size_t len)
{
	size_t off = (size_t)(from % r->data_size);
	size_t first = len < r->data_size - off ? len : r->data_size - off;

	strbuf_add(tmp, data + off, first);
	strbuf_add(tmp, data, len - first);
}

/* Take every record the kernel has written to r since the last call. */
static void ring_drain(struct ring *r, struct monitor_perf_stalls *st,
		       struct strbuf *tmp)
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
		ring_copy(tmp, r, data, tail, sizeof(h));
		memcpy(&h, tmp->buf, sizeof(h));
		if (h.size < sizeof(h) || h.size > head - tail)
			break;
		ring_copy(tmp, r, data, tail + sizeof(h), h.size - sizeof(h));
		monitor_perf_stalls_record(st, (const unsigned char *)tmp->buf,
					   h.size);
		tail += h.size;
	}
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
}

void monitor_perf_drain(struct monitor_perf *mp)
{
	for (size_t c = 0; mp && c < mp->rings_nr; c++)
		ring_drain(&mp->rings[c], &mp->st, &mp->tmp);
}

/*
 * The id of tracepoint "system:name" from tracefs into *id; else the
 * errno of the first directory (ENOENT: no tracefs there or no such
 * event, EACCES: not root).
 */
static int tracepoint_id(const char *event, uint64_t *id)
{
	const char *colon = strchr(event, ':');
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int e = ENOENT;

	for (size_t d = 0; colon && d < ARRAY_SIZE(tracefs_dirs); d++) {
		strbuf_reset(&path);
		strbuf_reset(&text);
		strbuf_addf(&path, "%s/events/%.*s/%s/id", tracefs_dirs[d],
			    (int)(colon - event), event, colon + 1);
		if (strbuf_read_file(&text, path.buf, NULL)) {
			if (!d)
				e = errno ? errno : ENOENT;
			continue;
		}
		strbuf_rtrim(&text);
		if (parse_uint64(text.buf, id) && *id) {
			e = 0;
			break;
		}
		e = EINVAL;
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return e;
}

/* Why errno e made an event absent, in words; tp: a tracepoint. */
static void absent_reason(int e, bool tp, struct strbuf *sb)
{
	if (tp && e == ENOENT) {
		strbuf_addstr(sb,
			      "no such tracepoint under /sys/kernel/tracing "
			      "(is tracefs mounted?)");
		return;
	}
	switch (e) {
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		strbuf_addf(sb, "no such event on this machine (%s)",
			    strerror(e));
		break;
	case EACCES:
	case EPERM:
		strbuf_addf(sb, "not permitted (%s; see perf_event_paranoid)",
			    strerror(e));
		break;
	default:
		strbuf_addf(sb, "cannot be opened (%s)", strerror(e));
	}
}

static bool is_tp(const struct monitor_perf *mp, size_t i)
{
	return events[mp->ev[i]].type == PERF_TYPE_TRACEPOINT;
}

/* mp->absent_text: the absent events, grouped by reason. */
static void absent_describe(struct monitor_perf *mp)
{
	bool done[EVENTS_NR] = {false};

	strbuf_reset(&mp->absent_text);
	for (size_t i = 0; i < mp->nr; i++) {
		size_t n = 0;

		if (!mp->absent[i] || done[i])
			continue;
		if (mp->absent_text.len)
			strbuf_addstr(&mp->absent_text, "; ");
		for (size_t k = i; k < mp->nr; k++) {
			if (mp->absent[k] != mp->absent[i] ||
			    is_tp(mp, k) != is_tp(mp, i))
				continue;
			done[k] = true;
			strbuf_addf(&mp->absent_text, "%s%s", n++ ? ", " : "",
				    events[mp->ev[k]].name);
		}
		strbuf_addstr(&mp->absent_text, ": ");
		absent_reason(mp->absent[i], is_tp(mp, i), &mp->absent_text);
	}
	if (mp->user_only)
		strbuf_addf(&mp->absent_text,
			    "%sthe kernel's part is not counted"
			    " (perf_event_paranoid)",
			    mp->absent_text.len ? "; " : "");
}

/*
 * The config of event i of mp into *config: a tracepoint's id, looked up
 * once; false when it is absent.
 */
static bool event_config(struct monitor_perf *mp, size_t i, uint64_t *config)
{
	const struct event_def *def = &events[mp->ev[i]];

	*config = def->config;
	if (mp->absent[i])
		return false;
	if (def->type != PERF_TYPE_TRACEPOINT)
		return true;
	if (!mp->tp_id[i])
		mp->absent[i] = tracepoint_id(def->name, &mp->tp_id[i]);
	*config = mp->tp_id[i];
	return !mp->absent[i];
}

/* Mark the stalls whose two events are both sampled as summed. */
static void stalls_activate(struct monitor_perf *mp)
{
	for (int k = 0; k < MONITOR_PERF_STALLS_NR; k++) {
		int both = 0;

		for (size_t i = 0; i < mp->nr; i++)
			both += mp->stall_of[i] == k && mp->sampled[i];
		mp->st.active[k] = both == 2;
	}
}

void monitor_perf_set_cgroup(struct monitor_perf *mp, int cgroup_fd)
{
	mp->cgroup_fd = cgroup_fd;
}

bool monitor_perf_counts_cgroup(const struct monitor_perf *mp)
{
	return mp && mp->cgroup_open;
}

/* Close every counter of the cgroup, and its sampled events. */
static void cgroup_close(struct monitor_perf *mp)
{
	for (size_t k = 0; k < mp->nr * mp->cpus; k++)
		if (mp->cc[k].fd >= 0)
			close(mp->cc[k].fd);
	for (size_t cpu = 0; cpu < mp->cpus; cpu++)
		if (mp->groups[cpu].lead >= 0)
			close(mp->groups[cpu].lead);
	free(mp->cc);
	free(mp->groups);
	free(mp->group_buf);
	mp->cc = NULL;
	mp->groups = NULL;
	mp->group_buf = NULL;
	mp->cpus = 0;
	for (size_t k = 0; k < mp->sfd_nr; k++)
		close(mp->sfd[k]);
	mp->sfd_nr = 0;
	mp->st.ids_nr = 0;
	for (size_t i = 0; i < mp->nr; i++)
		mp->sampled[i] = false;
	mp->cgroup_open = false;
}

/* Whether errno e only says that an event is not on this machine. */
static bool no_such_event(int e)
{
	return e == ENOENT || e == EOPNOTSUPP || e == ENODEV;
}

/* Whether event i is read in its CPU's group (not a hardware event). */
static bool in_group(const struct monitor_perf *mp, size_t i)
{
	uint32_t type = events[mp->ev[i]].type;

	return type == PERF_TYPE_SOFTWARE || type == PERF_TYPE_TRACEPOINT;
}

/*
 * Open event i on every online CPU, counting the cgroup; 0, or the errno
 * of the first CPU when none could be (an offline CPU gives ENODEV).
 */
static int cgroup_open_event(struct monitor_perf *mp, size_t i, uint64_t config)
{
	size_t opened = 0;
	int first = 0;

	for (size_t cpu = 0; cpu < mp->cpus; cpu++) {
		struct cg_group *g = &mp->groups[cpu];
		struct cg_counter *c = &mp->cc[i * mp->cpus + cpu];
		int group = in_group(mp, i) ? g->lead : -1;

		c->fd = -1;
		if (in_group(mp, i) && group < 0)
			continue; /* no leader: an offline CPU */
		c->fd = perf_open_cgroup(events[mp->ev[i]].type, config,
					 mp->cgroup_fd, (int)cpu, group,
					 mp->user_only);
		if (c->fd < 0) {
			if (!first)
				first = errno ? errno : EINVAL;
			continue;
		}
		c->pos = group < 0 ? 0 : g->nr++;
		opened++;
	}
	return opened ? 0 : first ? first : ENODEV;
}

/*
 * Open every event on the cgroup, once; 0, or the errno that rules
 * counting the cgroup out (not permitted, no perf_event controller on its
 * hierarchy, a kernel without cgroup events), with nothing left open. An
 * event the machine does not have is absent, as per process.
 */
static int cgroup_open(struct monitor_perf *mp)
{
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	size_t opened = 0, most = 1;
	int e = 0;

	mp->cpus = conf < 1 ? 1 : (size_t)conf;
	mp->cc = xcalloc(mp->nr * mp->cpus, sizeof(*mp->cc));
	mp->groups = xcalloc(mp->cpus, sizeof(*mp->groups));
	for (size_t k = 0; k < mp->nr * mp->cpus; k++)
		mp->cc[k].fd = -1;
	for (size_t cpu = 0; cpu < mp->cpus; cpu++) {
		struct cg_group *g = &mp->groups[cpu];

		g->lead = perf_open_cgroup(PERF_TYPE_SOFTWARE,
					   PERF_COUNT_SW_DUMMY, mp->cgroup_fd,
					   (int)cpu, -1, mp->user_only);
		g->nr = g->lead >= 0;
		if (g->lead < 0 && errno != ENODEV && !e)
			e = errno ? errno : EINVAL;
	}
	if (e)
		goto fail;
	for (size_t i = 0; i < mp->nr; i++) {
		uint64_t config;

		if (!event_config(mp, i, &config))
			continue;
		e = cgroup_open_event(mp, i, config);
		if (e && !no_such_event(e))
			goto fail;
		if (!e && mp->stall_of[i] >= 0) {
			e = stall_open(mp, i, config, mp->cgroup_fd, true);
			mp->sampled[i] = !e;
		}
		if (e) {
			/*
			 * Its counters stay open, unread: closing a member
			 * would move the others' places in the group.
			 */
			mp->absent[i] = e;
			continue;
		}
		opened++;
	}
	if (!opened)
		goto fail;
	for (size_t cpu = 0; cpu < mp->cpus; cpu++)
		if (mp->groups[cpu].nr > most)
			most = mp->groups[cpu].nr;
	mp->group_buf_nr = 3 + most;
	mp->group_buf = xcalloc(mp->group_buf_nr, sizeof(*mp->group_buf));
	mp->cgroup_open = true;
	stalls_activate(mp);
	absent_describe(mp);
	mp->absent_len = mp->absent_text.len;
	return 0;
fail:
	cgroup_close(mp);
	/* The events are tried again per process, absent or not. */
	memset(mp->absent, 0, sizeof(mp->absent));
	return e ? e : EINVAL;
}

/* Read counter fd's value, time enabled and time running into v. */
static int read_raw(int fd, const char *name, uint64_t v[3], struct strbuf *err)
{
	ssize_t n = read(fd, v, 3 * sizeof(*v));

	if (n != (ssize_t)(3 * sizeof(*v)))
		return error_addf(err, "perf: cannot read '%s': %s", name,
				  n < 0 ? strerror(errno) : "short read");
	return 0;
}

/*
 * Read every counter of the cgroup into its now[]: one read() per CPU's
 * group, one per hardware counter.
 */
static int cgroup_read(struct monitor_perf *mp, struct strbuf *err)
{
	for (size_t cpu = 0; cpu < mp->cpus; cpu++) {
		const struct cg_group *g = &mp->groups[cpu];
		/* nr, time enabled, time running, then the values. */
		size_t want = (3 + g->nr) * sizeof(*mp->group_buf);
		ssize_t n;

		if (g->lead < 0)
			continue;
		n = read(g->lead, mp->group_buf, want);
		if (n != (ssize_t)want)
			return error_addf(err, "perf: cannot read a group: %s",
					  n < 0 ? strerror(errno)
						: "short read");
		for (size_t i = 0; i < mp->nr; i++) {
			struct cg_counter *c = &mp->cc[i * mp->cpus + cpu];

			if (c->fd < 0 || mp->absent[i])
				continue;
			if (!c->pos) {
				if (read_raw(c->fd, events[mp->ev[i]].name,
					     c->now, err))
					return -1;
				continue;
			}
			c->now[0] = mp->group_buf[3 + c->pos];
			c->now[1] = mp->group_buf[1];
			c->now[2] = mp->group_buf[2];
		}
	}
	return 0;
}

/* The iteration begins: what each counter of the cgroup has counted. */
static int cgroup_begin(struct monitor_perf *mp, struct strbuf *err)
{
	if (cgroup_read(mp, err))
		return -1;
	for (size_t k = 0; k < mp->nr * mp->cpus; k++)
		memcpy(mp->cc[k].base, mp->cc[k].now, sizeof(mp->cc[k].base));
	/* Nothing of the cgroup ran since the last end: nothing to keep. */
	monitor_perf_cancel(mp);
	/* The events absent stay so; only the last end's note goes. */
	strbuf_setlen(&mp->absent_text, mp->absent_len);
	return 0;
}

int monitor_perf_begin(struct monitor_perf *mp, pid_t pid, struct strbuf *err)
{
	size_t opened = 0;

	if (mp->cgroup_fd >= 0 && !mp->cgroup_open && cgroup_open(mp))
		mp->cgroup_fd = -1; /* per process from now on */
	if (mp->cgroup_open)
		return cgroup_begin(mp, err);
	monitor_perf_cancel(mp);
	for (size_t i = 0; i < mp->nr; i++) {
		const struct event_def *def = &events[mp->ev[i]];
		uint64_t config;

		if (!event_config(mp, i, &config))
			continue;
		mp->fd[i] = perf_open(def, config, pid, mp->user_only, false);
		if (mp->fd[i] < 0 && (errno == EACCES || errno == EPERM) &&
		    !mp->user_only) {
			mp->fd[i] = perf_open(def, config, pid, true, false);
			/* Then every event the same way, to compare. */
			if (mp->fd[i] >= 0) {
				mp->user_only = true;
				monitor_perf_cancel(mp);
				return monitor_perf_begin(mp, pid, err);
			}
		}
		if (mp->fd[i] < 0) {
			mp->absent[i] = errno ? errno : EINVAL;
			continue;
		}
		/*
		 * A stall's events are sampled besides: the sum of the
		 * counts of inherited per-CPU events read here over-counts
		 * (some 2x at times, against the per-task counter and the
		 * samples), so the counter gives the count, which also
		 * says whether every sample arrived.
		 */
		if (mp->stall_of[i] >= 0) {
			mp->absent[i] = stall_open(mp, i, config, pid, false);
			if (mp->absent[i]) {
				close(mp->fd[i]);
				mp->fd[i] = -1;
				continue;
			}
			mp->sampled[i] = true;
		}
		opened++;
		/*
		 * The kernel turns a software event's or tracepoint's hooks
		 * on when its first counter opens and off when the last
		 * closes, patching its code each time (milliseconds in a
		 * VM, measured with bench/run-overhead): a copy kept open
		 * for mmcmp's life spares every iteration that.
		 */
		if (mp->keep[i] < 0)
			mp->keep[i] =
				perf_open(def, config, 0, mp->user_only, true);
	}
	/* A stall is summed where both of its events were opened. */
	stalls_activate(mp);
	absent_describe(mp);
	if (!opened)
		return error_addf(err, "perf: no event could be opened: %s",
				  mp->absent_text.buf);
	return 0;
}

/* v[0] scaled up for the time a hardware counter was multiplexed. */
static uint64_t scaled(const uint64_t v[3])
{
	if (v[2] && v[2] < v[1])
		return (uint64_t)((double)v[0] * (double)v[1] / (double)v[2]);
	return v[0];
}

/*
 * What event i counted in the iteration into *value: 1, 0 when it is not
 * open, -1 with a line in err.
 */
static int read_counter(struct monitor_perf *mp, size_t i, uint64_t *value,
			struct strbuf *err)
{
	const char *name = events[mp->ev[i]].name;
	uint64_t v[3] = {0, 0, 0}; /* value, enabled, running */
	bool any = false;

	*value = 0;
	if (!mp->cgroup_open) {
		if (mp->fd[i] < 0)
			return 0;
		if (read_raw(mp->fd[i], name, v, err))
			return -1;
		*value = scaled(v);
		return 1;
	}
	/* The change since the begin, on every CPU (cgroup_read() first). */
	for (size_t cpu = 0; cpu < mp->cpus && !mp->absent[i]; cpu++) {
		const struct cg_counter *c = &mp->cc[i * mp->cpus + cpu];

		if (c->fd < 0)
			continue;
		for (int k = 0; k < 3; k++)
			v[k] = c->now[k] - c->base[k];
		*value += scaled(v);
		any = true;
	}
	return any;
}

int monitor_perf_end(struct monitor_perf *mp, struct monitor_values *out,
		     struct strbuf *err)
{
	uint64_t counted[MONITOR_PERF_STALLS_NR][2] = {{0}};
	struct timespec ts;
	int ret = 0;

	out->nr = 0;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	monitor_perf_drain(mp);
	if (mp->cgroup_open && cgroup_read(mp, err))
		ret = -1;
	for (size_t i = 0; i < mp->nr && !ret; i++) {
		uint64_t v = 0;
		int r = read_counter(mp, i, &v, err);

		if (!r)
			continue;
		if (r < 0) {
			ret = -1;
			break;
		}
		if (mp->sampled[i])
			counted[mp->stall_of[i]]
			       [!strcmp(events[mp->ev[i]].name,
					stalls[mp->stall_of[i]].begin)
					? 0
					: 1] = v;
		add_value(out, events[mp->ev[i]].name, v);
	}
	if (!ret)
		monitor_perf_stalls_sum(&mp->st, (const uint64_t(*)[2])counted,
					(uint64_t)ts.tv_sec * 1000000000U +
						(uint64_t)ts.tv_nsec,
					out, &mp->absent_text);
	monitor_perf_cancel(mp);
	if (ret)
		out->nr = 0;
	return ret;
}

void monitor_perf_cancel(struct monitor_perf *mp)
{
	if (!mp)
		return;
	if (mp->cgroup_open) {
		/* The counters stay open for the next iteration; the marks go.
		 */
		monitor_perf_drain(mp);
		mp->st.nr = 0;
		mp->st.lost = mp->st.throttled = 0;
		memset(mp->st.seen, 0, sizeof(mp->st.seen));
		return;
	}
	for (size_t i = 0; i < mp->nr; i++) {
		if (mp->fd[i] >= 0)
			close(mp->fd[i]);
		mp->fd[i] = -1;
		mp->sampled[i] = false;
	}
	for (size_t k = 0; k < mp->sfd_nr; k++)
		close(mp->sfd[k]);
	mp->sfd_nr = 0;
	/* The rings stay, emptied of what the iteration left there. */
	monitor_perf_drain(mp);
	mp->st.ids_nr = 0;
	mp->st.nr = 0;
	mp->st.lost = mp->st.throttled = 0;
	memset(mp->st.seen, 0, sizeof(mp->st.seen));
}

const char *monitor_perf_absent(const struct monitor_perf *mp)
{
	return mp->absent_text.len ? mp->absent_text.buf : NULL;
}

void monitor_perf_free(struct monitor_perf *mp)
{
	if (!mp)
		return;
	monitor_perf_cancel(mp);
	if (mp->cgroup_open)
		cgroup_close(mp);
	for (size_t i = 0; i < mp->nr; i++)
		if (mp->keep[i] >= 0)
			close(mp->keep[i]);
	strbuf_release(&mp->absent_text);
	for (size_t c = 0; c < mp->rings_nr; c++)
		if (mp->rings[c].base) {
			munmap(mp->rings[c].base, mp->rings[c].map_size);
			close(mp->rings[c].fd);
		}
	strbuf_release(&mp->tmp);
	monitor_perf_stalls_release(&mp->st);
	free(mp->sfd);
	free(mp->rings);
	free(mp);
}
