/* monitor: /proc/vmstat, meminfo and stat snapshots and their deltas. */
#include "monitor.h"

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cgroup-stat.h"
#include "monitor-perf.h"
#include "parse-num.h"
#include "util.h"

/* Larger files are refused: /proc/vmstat is about 6 KiB. */
#define MONITOR_MAX_BYTES ((size_t)1 << 20)
#define READ_CHUNK	  8192

static const char *const source_names[MONITOR_SOURCE_NR] = {
	[MONITOR_VMSTAT] = "vmstat",
	[MONITOR_MEMINFO] = "meminfo",
	[MONITOR_CPU] = "cpu",
};

static const char *const source_paths[MONITOR_SOURCE_NR] = {
	[MONITOR_VMSTAT] = "/proc/vmstat",
	[MONITOR_MEMINFO] = "/proc/meminfo",
	[MONITOR_CPU] = "/proc/stat",
};

/* The fields of /proc/stat's "cpu" line, in the kernel's order. */
static const char *const cpu_fields[] = {
	"user", "nice",	   "system", "idle",  "iowait",
	"irq",	"softirq", "steal",  "guest", "guest_nice",
};

const char *monitor_source_name(enum monitor_source source)
{
	if ((unsigned)source >= MONITOR_SOURCE_NR)
		BUG("unknown monitor source %d", (int)source);
	return source_names[source];
}

const char *monitor_source_path(enum monitor_source source)
{
	if ((unsigned)source >= MONITOR_SOURCE_NR)
		BUG("unknown monitor source %d", (int)source);
	return source_paths[source];
}

void monitor_values_release(struct monitor_values *mv)
{
	if (!mv)
		return;
	free(mv->v);
	memset(mv, 0, sizeof(*mv));
}

static void values_add(struct monitor_values *mv, const char *name,
		       int64_t value)
{
	ALLOC_GROW(mv->v, mv->nr + 1, mv->alloc);
	mv->v[mv->nr].name = name;
	mv->v[mv->nr].value = value;
	mv->nr++;
}

void monitor_snapshot_release(struct monitor_snapshot *snap)
{
	if (!snap)
		return;
	strbuf_release(&snap->text);
	monitor_values_release(&snap->values);
}

/* A value field: an unsigned decimal number, kept modulo 2^64. */
static int parse_value(const char *file, size_t line, const char *name,
		       const char *s, int64_t *out, struct strbuf *err)
{
	uint64_t v;

	if (!parse_uint64(s, &v))
		return error_addf(err, "%s:%zu: bad value '%.40s' of '%s'",
				  file, line, s, name);
	*out = (int64_t)v;
	return 0;
}

/* "name value" */
static int parse_vmstat_line(struct monitor_snapshot *snap, const char *file,
			     size_t line, char *p, struct strbuf *err)
{
	char *sp = strchr(p, ' ');
	int64_t v = 0;

	if (!sp || sp == p)
		return error_addf(err, "%s:%zu: expected 'name value'", file,
				  line);
	*sp = '\0';
	if (parse_value(file, line, p, sp + 1, &v, err))
		return -1;
	values_add(&snap->values, p, v);
	return 0;
}

/* "Name:   value" or "Name:   value kB" */
static int parse_meminfo_line(struct monitor_snapshot *snap, const char *file,
			      size_t line, char *p, struct strbuf *err)
{
	char *colon = strchr(p, ':'), *v, *unit;
	int64_t value = 0;

	if (!colon || colon == p)
		return error_addf(err, "%s:%zu: expected 'Name: value'", file,
				  line);
	*colon = '\0';
	for (v = colon + 1; *v == ' ' || *v == '\t'; v++)
		;
	unit = strchr(v, ' ');
	if (unit) {
		*unit++ = '\0';
		if (strcmp(unit, "kB") != 0)
			return error_addf(
				err, "%s:%zu: unknown unit '%.40s' of '%s'",
				file, line, unit, p);
	}
	if (parse_value(file, line, p, v, &value, err))
		return -1;
	values_add(&snap->values, p, value);
	return 0;
}

/* "cpu  user nice system idle ..." (other lines are skipped) */
static int parse_cpu_line(struct monitor_snapshot *snap, const char *file,
			  size_t line, char *p, struct strbuf *err)
{
	size_t field = 0;
	int64_t v = 0;

	if (strncmp(p, "cpu ", 4) != 0)
		return 0;
	if (snap->values.nr)
		return error_addf(err, "%s:%zu: a second 'cpu' line", file,
				  line);
	p += 4;
	while (*p && field < ARRAY_SIZE(cpu_fields)) {
		char *end;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		end = strchr(p, ' ');
		if (end)
			*end = '\0';
		if (parse_value(file, line, cpu_fields[field], p, &v, err))
			return -1;
		values_add(&snap->values, cpu_fields[field++], v);
		p = end ? end + 1 : p + strlen(p);
	}
	/* Fields that newer kernels may add are ignored. */
	if (!field)
		return error_addf(err, "%s:%zu: 'cpu' line without times", file,
				  line);
	return 0;
}

/* Parse snap->text in place. */
static int parse_text(struct monitor_snapshot *snap, enum monitor_source source,
		      const char *file, struct strbuf *err)
{
	char *p = snap->text.buf, *end = p + snap->text.len;
	size_t line = 0;
	int ret = 0;

	snap->values.nr = 0;
	if (memchr(p, '\0', snap->text.len))
		return error_addf(err, "%s: NUL byte in the file", file);
	while (p < end && !ret) {
		char *eol = memchr(p, '\n', (size_t)(end - p));

		line++;
		if (!eol)
			eol = end; /* the strbuf's own NUL */
		*eol = '\0';
		if (p == eol) {
			p = eol + 1;
			continue;
		}
		switch (source) {
		case MONITOR_VMSTAT:
			ret = parse_vmstat_line(snap, file, line, p, err);
			break;
		case MONITOR_MEMINFO:
			ret = parse_meminfo_line(snap, file, line, p, err);
			break;
		case MONITOR_CPU:
			ret = parse_cpu_line(snap, file, line, p, err);
			break;
		default:
			BUG("unknown monitor source %d", (int)source);
		}
		p = eol + 1;
	}
	if (!ret && source == MONITOR_CPU && !snap->values.nr)
		ret = error_addf(err, "%s: no 'cpu' line", file);
	if (ret)
		snap->values.nr = 0;
	return ret;
}

int monitor_parse(struct monitor_snapshot *snap, enum monitor_source source,
		  const char *name, const char *text, size_t len,
		  struct strbuf *err)
{
	strbuf_reset(&snap->text);
	strbuf_add(&snap->text, text, len);
	return parse_text(snap, source, name, err);
}

int monitor_pread(struct monitor_snapshot *snap, enum monitor_source source,
		  int fd, const char *path, struct strbuf *err)
{
	ssize_t n;

	strbuf_reset(&snap->text);
	snap->values.nr = 0;
	/*
	 * /proc files claim size 0: read from the start until a read
	 * returns less than asked, which for their seq files (and for a
	 * regular file) is the end, so a snapshot is one pread() when the
	 * buffer is as large as the last one was.
	 */
	for (;;) {
		size_t want;

		strbuf_grow(&snap->text, READ_CHUNK);
		want = snap->text.alloc - snap->text.len - 1;
		n = pread(fd, snap->text.buf + snap->text.len, want,
			  (off_t)snap->text.len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return error_addf(err, "cannot read '%s': %s", path,
					  strerror(errno));
		strbuf_setlen(&snap->text, snap->text.len + (size_t)n);
		if (snap->text.len > MONITOR_MAX_BYTES)
			return error_addf(err, "'%s' is larger than 1 MiB",
					  path);
		if ((size_t)n < want)
			break;
	}
	return parse_text(snap, source, path, err);
}

int monitor_read(struct monitor_snapshot *snap, enum monitor_source source,
		 const char *path, struct strbuf *err)
{
	int fd, ret;

	if (!path)
		path = monitor_source_path(source);
	strbuf_reset(&snap->text);
	snap->values.nr = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error_addf(err, "cannot open '%s': %s", path,
				  strerror(errno));
	ret = monitor_pread(snap, source, fd, path, err);
	close(fd);
	return ret;
}

void monitor_delta(const struct monitor_snapshot *before,
		   const struct monitor_snapshot *after, bool nonzero_only,
		   struct monitor_values *out)
{
	const struct monitor_values *b = &before->values, *a = &after->values;

	out->nr = 0;
	for (size_t i = 0; i < a->nr; i++) {
		const char *name = a->v[i].name;
		const struct monitor_value *old = NULL;
		int64_t d;

		/* The kernel keeps its order, so the same index matches. */
		if (i < b->nr && !strcmp(b->v[i].name, name))
			old = &b->v[i];
		for (size_t k = 0; !old && k < b->nr; k++)
			if (!strcmp(b->v[k].name, name))
				old = &b->v[k];
		if (!old)
			continue;
		d = (int64_t)((uint64_t)a->v[i].value - (uint64_t)old->value);
		if (d || !nonzero_only)
			values_add(out, name, d);
	}
}

const struct monitor_value *monitor_values_find(const struct monitor_values *mv,
						const char *name, size_t hint)
{
	if (hint < mv->nr && !strcmp(mv->v[hint].name, name))
		return &mv->v[hint];
	for (size_t k = 0; k < mv->nr; k++)
		if (!strcmp(mv->v[k].name, name))
			return &mv->v[k];
	return NULL;
}

/* The value of mv named as want->v[i], looked for at index i first. */
static const struct monitor_value *match(const struct monitor_values *mv,
					 const struct monitor_values *want,
					 size_t i)
{
	return monitor_values_find(mv, want->v[i].name, i);
}

static void add_line(struct strbuf *sb, const struct monitor_value *v)
{
	strbuf_addf(sb, "%s %" PRIu64 "\n", v->name, (uint64_t)v->value);
}

void monitor_encode(enum monitor_source source,
		    const struct monitor_snapshot *before,
		    const struct monitor_snapshot *after,
		    struct strbuf *before_out, struct strbuf *after_out)
{
	const struct monitor_values *b = &before->values, *a = &after->values;

	if (source != MONITOR_VMSTAT)
		for (size_t i = 0; i < b->nr; i++)
			add_line(before_out, &b->v[i]);
	for (size_t i = 0; i < a->nr; i++) {
		const struct monitor_value *old = match(b, a, i);
		bool level = source == MONITOR_VMSTAT && old && old->value &&
			     monitor_vmstat_is_gauge(old->name);

		if (old && old->value == a->v[i].value) {
			/* A gauge that stood still: its level, once. */
			if (level)
				add_line(before_out, old);
			continue;
		}
		if (old && source == MONITOR_VMSTAT)
			add_line(before_out, old);
		add_line(after_out, &a->v[i]);
	}
}

int monitor_merge(struct monitor_snapshot *after,
		  const struct monitor_snapshot *before, const char *name,
		  const char *changes, size_t len, struct strbuf *err)
{
	struct monitor_snapshot ch = MONITOR_SNAPSHOT_INIT;
	const struct monitor_values *b = &before->values, *c;
	struct strbuf text = STRBUF_INIT;
	bool *used = NULL;
	int ret = -1;

	if (monitor_parse(&ch, MONITOR_VMSTAT, name, changes, len, err))
		goto out;
	c = &ch.values;
	used = xcalloc(c->nr + 1, sizeof(*used));
	for (size_t i = 0; i < b->nr; i++) {
		const struct monitor_value *v = match(c, b, i);

		if (v)
			used[v - c->v] = true;
		add_line(&text, v ? v : &b->v[i]);
	}
	for (size_t k = 0; k < c->nr; k++)
		if (!used[k])
			add_line(&text, &c->v[k]);
	ret = monitor_parse(after, MONITOR_VMSTAT, name, text.buf, text.len,
			    err);
out:
	free(used);
	strbuf_release(&text);
	monitor_snapshot_release(&ch);
	return ret;
}

bool monitor_vmstat_is_gauge(const char *name)
{
	static const char *const events[] = {
		"nr_dirtied",		"nr_written",
		"nr_vmscan_write",	"nr_vmscan_immediate_reclaim",
		"nr_throttled_written",
	};
	static const char *const event_prefixes[] = {"nr_foll_pin_", "nr_tlb_"};

	if (!strcmp(name, "workingset_nodes"))
		return true;
	if (strncmp(name, "nr_", 3))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(events); i++)
		if (!strcmp(name, events[i]))
			return false;
	for (size_t i = 0; i < ARRAY_SIZE(event_prefixes); i++)
		if (!strncmp(name, event_prefixes[i],
			     strlen(event_prefixes[i])))
			return false;
	return true;
}

bool monitor_values_get(const struct monitor_values *mv, const char *name,
			int64_t *value)
{
	const struct monitor_value *v = monitor_values_find(mv, name, 0);

	if (v)
		*value = v->value;
	return v != NULL;
}

double monitor_other_cpu(const struct monitor_values *cpu, double user_s,
			 double sys_s, double elapsed_s, long nr_cpus,
			 long user_hz)
{
	double busy = 0.0, other;
	bool idle = false;

	if (elapsed_s <= 0 || nr_cpus <= 0 || user_hz <= 0)
		return NAN;
	for (size_t i = 0; i < cpu->nr; i++) {
		const char *name = cpu->v[i].name;

		if (!strcmp(name, "idle"))
			idle = true;
		if (!strcmp(name, "user") || !strcmp(name, "nice") ||
		    !strcmp(name, "system") || !strcmp(name, "steal"))
			busy += (double)cpu->v[i].value;
	}
	if (!idle)
		return NAN;
	other = (busy - (double)nr_cpus) / (double)user_hz - user_s - sys_s;
	other /= (double)nr_cpus * elapsed_s;
	return other < 0 ? 0.0 : other > 1 ? 1.0 : other;
}

bool monitor_parse_loadavg(const char *text, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(text, &end);
	return end != text && !errno && (*end == ' ' || *end == '\n') &&
	       *out >= 0;
}

/* fd, opened on path when it is not open yet (-1); -1 when it cannot be. */
static int kept_fd(int *fd, const char *path)
{
	if (*fd < 0)
		*fd = open(path, O_RDONLY | O_CLOEXEC);
	return *fd;
}

/* The 1-minute load average now, or NaN. */
static double read_loadavg(struct monitor *mon)
{
	char buf[128];
	ssize_t n;
	double v = NAN;
	int fd = kept_fd(&mon->loadavg_fd, "/proc/loadavg");

	if (fd < 0)
		return NAN;
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return NAN;
	buf[n] = '\0';
	return monitor_parse_loadavg(buf, &v) ? v : NAN;
}

/* Read the cgroup's counters into snap. */
static int read_cgroup(struct monitor *mon, struct monitor_snapshot *snap,
		       struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	int ret = -1;

	if (!cgroup_stat_read(mon->cgroup_procs, &text, err))
		ret = monitor_parse(snap, MONITOR_VMSTAT, "cgroup", text.buf,
				    text.len, err);
	strbuf_release(&text);
	return ret;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000U + (uint64_t)ts.tv_nsec;
}

static void sample_release(struct monitor_sample *s)
{
	monitor_values_release(&s->vmstat);
	monitor_values_release(&s->cpu);
	monitor_values_release(&s->meminfo);
}

/* Take a snapshot of each source, through the descriptors kept in mon. */
static int read_all(struct monitor *mon, struct monitor_snapshot *snaps,
		    struct strbuf *err)
{
	for (int s = 0; s < MONITOR_SOURCE_NR; s++) {
		const char *path = monitor_source_path((enum monitor_source)s);

		if (kept_fd(&mon->fds[s], path) < 0)
			return error_addf(err, "cannot open '%s': %s", path,
					  strerror(errno));
		if (monitor_pread(&snaps[s], (enum monitor_source)s,
				  mon->fds[s], path, err))
			return -1;
	}
	return 0;
}

void monitor_init(struct monitor *mon, double interval_s)
{
	memset(mon, 0, sizeof(*mon));
	mon->interval_s = interval_s;
	for (int k = 0; k < 3; k++)
		for (int s = 0; s < MONITOR_SOURCE_NR; s++)
			strbuf_init(&mon->snap[k][s].text, 0);
	for (int s = 0; s < MONITOR_SOURCE_NR; s++)
		strbuf_init(&mon->now[s].text, 0);
	for (int k = 0; k < 2; k++)
		strbuf_init(&mon->cgroup[k].text, 0);
	strvec_init(&mon->names);
	strbuf_init(&mon->tick_err, 0);
	strbuf_init(&mon->perf_err, 0);
	for (int s = 0; s < MONITOR_SOURCE_NR; s++)
		mon->fds[s] = -1;
	mon->loadavg_fd = -1;
	mon->nr_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	mon->user_hz = sysconf(_SC_CLK_TCK);
}

void monitor_set_cgroup(struct monitor *mon, const char *const *cgroup_procs)
{
	mon->cgroup_procs = cgroup_procs;
}

int monitor_set_perf(struct monitor *mon, const struct strvec *events,
		     pid_t pid, struct strbuf *err)
{
	struct monitor_perf *mp = monitor_perf_new(events, err);

	if (!mp)
		return -1;
	monitor_perf_free(mon->perf);
	mon->perf = mp;
	mon->perf_pid = pid;
	return 0;
}

void monitor_set_perf_cgroup(struct monitor *mon, int cgroup_fd)
{
	if (mon->perf)
		monitor_perf_set_cgroup(mon->perf, cgroup_fd);
}

bool monitor_perf_cgroup(const struct monitor *mon)
{
	return monitor_perf_counts_cgroup(mon->perf);
}

/*
 * Open the perf counters, last before the workload starts. Failing to
 * open any is no failure of the other monitors: the record says why.
 */
static void perf_begin(struct monitor *mon)
{
	struct monitor_record *rec = &mon->rec;

	rec->has_perf = false;
	rec->perf.nr = 0;
	rec->perf_absent = NULL;
	rec->perf_scope = NULL;
	if (!mon->perf)
		return;
	strbuf_reset(&mon->perf_err);
	if (monitor_perf_begin(mon->perf, mon->perf_pid, &mon->perf_err)) {
		rec->perf_absent = mon->perf_err.buf;
		return;
	}
	rec->has_perf = true;
	rec->perf_absent = monitor_perf_absent(mon->perf);
	rec->perf_scope =
		monitor_perf_counts_cgroup(mon->perf) ? "cgroup" : "process";
}

void monitor_set_workload(struct monitor *mon, double user_s, double sys_s,
			  double elapsed_s)
{
	mon->rec.other_cpu =
		monitor_other_cpu(&mon->rec.cpu, user_s, sys_s, elapsed_s,
				  mon->nr_cpus, mon->user_hz);
}

int monitor_begin(struct monitor *mon, struct strbuf *err)
{
	struct monitor_record *rec = &mon->rec;

	rec->vmstat.nr = 0;
	rec->vmstat_end.nr = 0;
	rec->cpu.nr = 0;
	rec->meminfo_start.nr = 0;
	rec->meminfo_end.nr = 0;
	rec->interval_s = 0;
	for (size_t i = 0; i < rec->samples_nr; i++)
		sample_release(&rec->samples[i]);
	rec->samples_nr = 0;
	rec->other_cpu = NAN;
	rec->loadavg_end = NAN;
	rec->has_cgroup = false;
	rec->cgroup.nr = 0;
	rec->cgroup_start.nr = 0;
	rec->cgroup_end.nr = 0;
	strbuf_reset(&mon->tick_err);
	if (mon->cgroup_procs &&
	    (cgroup_stat_reset_peaks(mon->cgroup_procs, err) ||
	     read_cgroup(mon, &mon->cgroup[0], err)))
		return -1;
	rec->loadavg_start = read_loadavg(mon);
	mon->start_ns = now_ns();
	if (read_all(mon, mon->snap[0], err))
		return -1;
	perf_begin(mon);
	return 0;
}

/* Split the cgroup snapshots into the record's counters and gauges. */
static void cgroup_record(struct monitor *mon)
{
	struct monitor_record *rec = &mon->rec;
	const struct monitor_values *end = &mon->cgroup[1].values;
	size_t k = 0;

	monitor_delta(&mon->cgroup[0], &mon->cgroup[1], false, &rec->cgroup);
	/* Keep the counters' changes, in place. */
	for (size_t i = 0; i < rec->cgroup.nr; i++)
		if (cgroup_stat_is_counter(rec->cgroup.v[i].name))
			rec->cgroup.v[k++] = rec->cgroup.v[i];
	rec->cgroup.nr = k;
	for (size_t i = 0; i < mon->cgroup[0].values.nr; i++) {
		const struct monitor_value *v = &mon->cgroup[0].values.v[i];

		if (!cgroup_stat_is_counter(v->name))
			values_add(&rec->cgroup_start, v->name, v->value);
	}
	for (size_t i = 0; i < end->nr; i++)
		if (!cgroup_stat_is_counter(end->v[i].name))
			values_add(&rec->cgroup_end, end->v[i].name,
				   end->v[i].value);
	rec->has_cgroup = true;
}

/* The copy of name that the periodic samples share. */
static const char *intern(struct monitor *mon, const char *name)
{
	size_t len = strlen(name), i;

	if (strmap_get(&mon->name_index, name, len, &i))
		return mon->names.v[i];
	strvec_push(&mon->names, name);
	strmap_put(&mon->name_index, name, len, mon->names.nr - 1);
	return mon->names.v[mon->names.nr - 1];
}

static void intern_values(struct monitor *mon, struct monitor_values *mv)
{
	for (size_t i = 0; i < mv->nr; i++)
		mv->v[i].name = intern(mon, mv->v[i].name);
}

void monitor_tick(struct monitor *mon)
{
	struct monitor_record *rec = &mon->rec;
	struct monitor_snapshot *prev;
	struct monitor_sample *s;

	if (mon->interval_s <= 0 || mon->tick_err.len)
		return;
	monitor_perf_drain(mon->perf);
	if (read_all(mon, mon->now, &mon->tick_err))
		return;
	/* Before the first sample, the last one is the start. */
	prev = rec->samples_nr ? mon->snap[2] : mon->snap[0];
	ALLOC_GROW(rec->samples, rec->samples_nr + 1, rec->samples_alloc);
	s = &rec->samples[rec->samples_nr++];
	memset(s, 0, sizeof(*s));
	s->t_s = (double)(now_ns() - mon->start_ns) / 1e9;
	monitor_delta(&prev[MONITOR_VMSTAT], &mon->now[MONITOR_VMSTAT], true,
		      &s->vmstat);
	monitor_delta(&prev[MONITOR_CPU], &mon->now[MONITOR_CPU], false,
		      &s->cpu);
	for (size_t i = 0; i < mon->now[MONITOR_MEMINFO].values.nr; i++) {
		const struct monitor_value *v =
			&mon->now[MONITOR_MEMINFO].values.v[i];

		values_add(&s->meminfo, v->name, v->value);
	}
	intern_values(mon, &s->vmstat);
	intern_values(mon, &s->cpu);
	intern_values(mon, &s->meminfo);
	/* The snapshot just taken is the next sample's "before". */
	for (int k = 0; k < MONITOR_SOURCE_NR; k++) {
		struct monitor_snapshot tmp = mon->snap[2][k];

		mon->snap[2][k] = mon->now[k];
		mon->now[k] = tmp;
	}
	rec->interval_s = mon->interval_s;
}

void monitor_record_fill(struct monitor *mon)
{
	struct monitor_record *rec = &mon->rec;
	const struct monitor_values *m0 = &mon->snap[0][MONITOR_MEMINFO].values;
	const struct monitor_values *m1 = &mon->snap[1][MONITOR_MEMINFO].values;
	const struct monitor_values *v1 = &mon->snap[1][MONITOR_VMSTAT].values;

	monitor_delta(&mon->snap[0][MONITOR_VMSTAT],
		      &mon->snap[1][MONITOR_VMSTAT], true, &rec->vmstat);
	rec->has_vmstat_end = true;
	rec->vmstat_end.nr = 0;
	for (size_t i = 0; i < v1->nr; i++)
		if (v1->v[i].value && monitor_vmstat_is_gauge(v1->v[i].name))
			values_add(&rec->vmstat_end, v1->v[i].name,
				   v1->v[i].value);
	monitor_delta(&mon->snap[0][MONITOR_CPU], &mon->snap[1][MONITOR_CPU],
		      false, &rec->cpu);
	rec->meminfo_start.nr = 0;
	for (size_t i = 0; i < m0->nr; i++)
		values_add(&rec->meminfo_start, m0->v[i].name, m0->v[i].value);
	rec->meminfo_end.nr = 0;
	for (size_t i = 0; i < m1->nr; i++)
		values_add(&rec->meminfo_end, m1->v[i].name, m1->v[i].value);
}

int monitor_end(struct monitor *mon, struct strbuf *err)
{
	if (mon->rec.has_perf) {
		if (monitor_perf_end(mon->perf, &mon->rec.perf, err))
			return -1;
		mon->rec.perf_absent = monitor_perf_absent(mon->perf);
	}
	if (read_all(mon, mon->snap[1], err))
		return -1;
	mon->rec.loadavg_end = read_loadavg(mon);
	if (mon->cgroup_procs) {
		if (read_cgroup(mon, &mon->cgroup[1], err))
			return -1;
		cgroup_record(mon);
	}
	monitor_record_fill(mon);
	return 0;
}

void monitor_release(struct monitor *mon)
{
	struct monitor_record *rec;

	if (!mon)
		return;
	rec = &mon->rec;
	for (int s = 0; s < MONITOR_SOURCE_NR; s++)
		if (mon->fds[s] >= 0)
			close(mon->fds[s]);
	if (mon->loadavg_fd >= 0)
		close(mon->loadavg_fd);
	for (int k = 0; k < 3; k++)
		for (int s = 0; s < MONITOR_SOURCE_NR; s++)
			monitor_snapshot_release(&mon->snap[k][s]);
	for (int s = 0; s < MONITOR_SOURCE_NR; s++)
		monitor_snapshot_release(&mon->now[s]);
	for (int k = 0; k < 2; k++)
		monitor_snapshot_release(&mon->cgroup[k]);
	monitor_values_release(&rec->cgroup);
	monitor_values_release(&rec->cgroup_start);
	monitor_values_release(&rec->cgroup_end);
	strvec_clear(&mon->names);
	strmap_clear(&mon->name_index);
	strbuf_release(&mon->tick_err);
	monitor_perf_free(mon->perf);
	strbuf_release(&mon->perf_err);
	monitor_values_release(&rec->perf);
	monitor_values_release(&rec->vmstat);
	monitor_values_release(&rec->vmstat_end);
	monitor_values_release(&rec->cpu);
	monitor_values_release(&rec->meminfo_start);
	monitor_values_release(&rec->meminfo_end);
	for (size_t i = 0; i < rec->samples_nr; i++)
		sample_release(&rec->samples[i]);
	free(rec->samples);
	memset(mon, 0, sizeof(*mon));
	/* Released twice, it closes nothing. */
	for (int s = 0; s < MONITOR_SOURCE_NR; s++)
		mon->fds[s] = -1;
	mon->loadavg_fd = -1;
}
