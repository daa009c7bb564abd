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
#include <sys/syscall.h>
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
};

static long find_event(const char *name)
{
	for (size_t i = 0; i < EVENTS_NR; i++)
		if (!strcmp(events[i].name, name))
			return (long)i;
	return -1;
}

bool monitor_perf_known(const char *name)
{
	return !strcmp(name, "default") || find_event(name) >= 0;
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
		"huge_memory:mm_collapse_huge_page";

	return names;
}

const char *monitor_perf_unit(const char *name)
{
	return !strcmp(name, "task-clock") ? "ms" : "";
}

double monitor_perf_scale(const char *name)
{
	return !strcmp(name, "task-clock") ? 1e-6 : 1.0;
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
	for (size_t i = 0; i < EVENTS_NR; i++)
		mp->fd[i] = mp->keep[i] = -1;
	for (size_t i = 0; names && i < names->nr; i++) {
		long e = find_event(names->v[i]);

		if (!strcmp(names->v[i], "default")) {
			for (size_t k = 0; k < EVENTS_NR; k++)
				add_event(mp, k);
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

int monitor_perf_begin(struct monitor_perf *mp, pid_t pid, struct strbuf *err)
{
	size_t opened = 0;

	monitor_perf_cancel(mp);
	for (size_t i = 0; i < mp->nr; i++) {
		const struct event_def *def = &events[mp->ev[i]];
		uint64_t config = def->config;

		if (mp->absent[i])
			continue;
		if (def->type == PERF_TYPE_TRACEPOINT && !mp->tp_id[i]) {
			mp->absent[i] = tracepoint_id(def->name, &mp->tp_id[i]);
			if (mp->absent[i])
				continue;
		}
		if (def->type == PERF_TYPE_TRACEPOINT)
			config = mp->tp_id[i];
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
	absent_describe(mp);
	if (!opened)
		return error_addf(err, "perf: no event could be opened: %s",
				  mp->absent_text.buf);
	return 0;
}

int monitor_perf_end(struct monitor_perf *mp, struct monitor_values *out,
		     struct strbuf *err)
{
	int ret = 0;

	out->nr = 0;
	for (size_t i = 0; i < mp->nr; i++) {
		uint64_t v[3] = {0, 0, 0}; /* value, enabled, running */
		ssize_t n;

		if (mp->fd[i] < 0)
			continue;
		n = read(mp->fd[i], v, sizeof(v));
		if (n != (ssize_t)sizeof(v)) {
			if (!ret)
				ret = error_addf(
					err, "perf: cannot read '%s': %s",
					events[mp->ev[i]].name,
					n < 0 ? strerror(errno) : "short read");
			continue;
		}
		/* Scaled up for the time a hardware counter was multiplexed. */
		if (v[2] && v[2] < v[1])
			v[0] = (uint64_t)((double)v[0] * (double)v[1] /
					  (double)v[2]);
		ALLOC_GROW(out->v, out->nr + 1, out->alloc);
		out->v[out->nr].name = events[mp->ev[i]].name;
		out->v[out->nr++].value = (int64_t)v[0];
	}
	monitor_perf_cancel(mp);
	if (ret)
		out->nr = 0;
	return ret;
}

void monitor_perf_cancel(struct monitor_perf *mp)
{
	for (size_t i = 0; mp && i < mp->nr; i++) {
		if (mp->fd[i] >= 0)
			close(mp->fd[i]);
		mp->fd[i] = -1;
	}
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
	for (size_t i = 0; i < mp->nr; i++)
		if (mp->keep[i] >= 0)
			close(mp->keep[i]);
	strbuf_release(&mp->absent_text);
	free(mp);
}
