/* session-held: finished iterations kept while the database is locked. */
#include "session-internal.h"

#include <string.h>
#include <time.h>

#include "monitor.h"
#include "store.h"
#include "util.h"

/*
 * At most this many finished iterations, or this many bytes of them, are
 * held in memory; past either the run fails rather than grow unbounded.
 */
#define SESSION_HELD_MAX_NR    100000
#define SESSION_HELD_MAX_BYTES ((size_t)256 << 20)
/* Busy timeout of the retries between iterations: the run goes on. */
#define SESSION_HELD_RETRY_MS 50
/* How long the benchmark waits on a lock before an iteration is held. */
#define SESSION_FIRST_WAIT_MS 12000
/* How long the end of the run waits for the lock to free. */
#define SESSION_HELD_WAIT_S 600

/*
 * Store an iteration with its samples and, when it has one, its monitor
 * record, all in one transaction.
 */
static int store_iteration(struct session *s, const struct finished_iter *fi,
			   struct strbuf *err)
{
	int64_t id;

	if (!fi->mon)
		return store_iteration_add(s->st, &fi->rec, fi->samples,
					   fi->samples_nr, NULL, err);
	if (store_begin(s->st, err))
		return -1;
	if (store_iteration_add(s->st, &fi->rec, fi->samples, fi->samples_nr,
				&id, err) ||
	    store_monitor_add(s->st, id, fi->mon, err)) {
		store_rollback(s->st);
		return -1;
	}
	return store_commit(s->st, err);
}

/* name, interned in s->held_names so that it outlives the monitor's. */
static const char *held_name(struct session *s, const char *name)
{
	size_t len = strlen(name), i;

	if (!strmap_get(&s->held_name_index, name, len, &i)) {
		i = s->held_names.nr;
		strvec_push(&s->held_names, name);
		strmap_put(&s->held_name_index, name, len, i);
		s->held_bytes += len + 1;
	}
	return s->held_names.v[i];
}

static void held_values(struct session *s, struct monitor_values *dst,
			const struct monitor_values *src)
{
	*dst = (struct monitor_values)MONITOR_VALUES_INIT;
	if (!src->nr)
		return;
	dst->v = xcalloc(src->nr, sizeof(*dst->v));
	dst->nr = dst->alloc = src->nr;
	for (size_t i = 0; i < src->nr; i++) {
		dst->v[i].name = held_name(s, src->v[i].name);
		dst->v[i].value = src->v[i].value;
	}
	s->held_bytes += src->nr * sizeof(*dst->v);
}

/* A copy of mon whose names stay valid as long as the session. */
static struct monitor_record *held_monitor(struct session *s,
					   const struct monitor_record *mon)
{
	struct monitor_record *c = xmalloc(sizeof(*c));

	*c = *mon;
	held_values(s, &c->vmstat, &mon->vmstat);
	held_values(s, &c->vmstat_end, &mon->vmstat_end);
	held_values(s, &c->cpu, &mon->cpu);
	held_values(s, &c->meminfo_start, &mon->meminfo_start);
	held_values(s, &c->meminfo_end, &mon->meminfo_end);
	held_values(s, &c->cgroup, &mon->cgroup);
	held_values(s, &c->cgroup_start, &mon->cgroup_start);
	held_values(s, &c->cgroup_end, &mon->cgroup_end);
	held_values(s, &c->perf, &mon->perf);
	if (mon->perf_absent)
		c->perf_absent = held_name(s, mon->perf_absent);
	/* perf_scope is a static string: the copy of *mon holds it. */
	c->samples = NULL;
	c->samples_nr = c->samples_alloc = 0;
	if (mon->samples_nr) {
		c->samples = xcalloc(mon->samples_nr, sizeof(*c->samples));
		c->samples_nr = c->samples_alloc = mon->samples_nr;
	}
	for (size_t i = 0; i < mon->samples_nr; i++) {
		c->samples[i].t_s = mon->samples[i].t_s;
		held_values(s, &c->samples[i].vmstat, &mon->samples[i].vmstat);
		held_values(s, &c->samples[i].cpu, &mon->samples[i].cpu);
		held_values(s, &c->samples[i].meminfo,
			    &mon->samples[i].meminfo);
	}
	s->held_bytes += sizeof(*c) + mon->samples_nr * sizeof(*c->samples);
	return c;
}

static void held_iter_release(struct held_iter *h)
{
	struct monitor_record *m = h->mon;

	free(h->stderr_tail);
	free(h->started_at);
	free(h->samples);
	if (m) {
		monitor_values_release(&m->vmstat);
		monitor_values_release(&m->vmstat_end);
		monitor_values_release(&m->cpu);
		monitor_values_release(&m->meminfo_start);
		monitor_values_release(&m->meminfo_end);
		monitor_values_release(&m->cgroup);
		monitor_values_release(&m->cgroup_start);
		monitor_values_release(&m->cgroup_end);
		monitor_values_release(&m->perf);
		for (size_t i = 0; i < m->samples_nr; i++) {
			monitor_values_release(&m->samples[i].vmstat);
			monitor_values_release(&m->samples[i].cpu);
			monitor_values_release(&m->samples[i].meminfo);
		}
		free(m->samples);
		free(m);
	}
	memset(h, 0, sizeof(*h));
}

/* Keep a finished iteration that could not be stored; -1 past the bounds. */
static int hold_iteration(struct session *s, const struct finished_iter *fi,
			  struct strbuf *err)
{
	const struct iteration_rec *rec = &fi->rec;
	size_t nr = fi->samples_nr;
	struct held_iter *h;

	if (s->held_nr >= SESSION_HELD_MAX_NR ||
	    s->held_bytes >= SESSION_HELD_MAX_BYTES)
		return error_addf(
			err,
			"cannot keep more finished iterations in memory: the database is locked by another process, and %zu iterations (%zu MiB) are held already",
			s->held_nr, s->held_bytes >> 20);
	if (s->held_first && s->held_first + s->held_nr == s->held_alloc) {
		/* Move the queue to the front rather than grow it. */
		memmove(s->held, s->held + s->held_first,
			s->held_nr * sizeof(*s->held));
		s->held_first = 0;
	}
	ALLOC_GROW(s->held, s->held_first + s->held_nr + 1, s->held_alloc);
	h = &s->held[s->held_first + s->held_nr++];
	memset(h, 0, sizeof(*h));
	h->it = *fi;
	h->stderr_tail = rec->stderr_tail ? xstrdup(rec->stderr_tail) : NULL;
	h->started_at = xstrdup(rec->started_at);
	h->it.rec.stderr_tail = h->stderr_tail;
	h->it.rec.started_at = h->started_at;
	if (nr) {
		h->samples = xcalloc(nr, sizeof(*h->samples));
		memcpy(h->samples, fi->samples, nr * sizeof(*fi->samples));
	}
	h->it.samples = h->samples;
	h->mon = fi->mon ? held_monitor(s, fi->mon) : NULL;
	h->it.mon = h->mon;
	s->held_bytes += sizeof(*h) + nr * sizeof(*fi->samples) +
			 strlen(h->started_at) +
			 (h->stderr_tail ? strlen(h->stderr_tail) : 0);
	return 0;
}

/*
 * Store the held iterations, oldest first, while the lock is free. With
 * `quick`, a lock is waited for only SESSION_HELD_RETRY_MS (between
 * iterations, the run goes on). Returns 0 when the lock stopped it too
 * (what is left stays held), -1 on any other failure.
 */
static int store_held(struct session *s, bool quick, struct strbuf *err)
{
	int timeout_ms = store_busy_timeout(s->st);
	int ret = 0;

	if (quick && store_set_busy_timeout(s->st, SESSION_HELD_RETRY_MS, err))
		return -1;
	while (s->held_nr) {
		struct held_iter *h = &s->held[s->held_first];
		struct strbuf why = STRBUF_INIT;

		if (store_iteration(s, &h->it, &why)) {
			if (!store_busy(s->st)) {
				error_addf(err, "%s", why.buf);
				ret = -1;
			}
			strbuf_release(&why);
			break;
		}
		strbuf_release(&why);
		held_iter_release(h);
		s->held_first++;
		s->held_nr--;
	}
	if (!s->held_nr)
		s->held_first = s->held_bytes = 0;
	if (quick && store_set_busy_timeout(s->st, timeout_ms, err))
		ret = -1;
	return ret;
}

int session_keep_iteration(struct session *s, const struct finished_iter *fi,
			   struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	int ret = -1;

	if (!s->held_nr) {
		int timeout_ms = store_busy_timeout(s->st);
		int failed;

		/*
		 * The benchmark waits while this one tries: no longer than
		 * SESSION_FIRST_WAIT_MS in all, then the iteration is held.
		 */
		if (store_set_busy_timeout(
			    s->st,
			    SESSION_FIRST_WAIT_MS / STORE_ITERATION_TRIES, err))
			goto out;
		failed = store_iteration(s, fi, &why);
		if (store_set_busy_timeout(s->st, timeout_ms, err))
			goto out;
		if (!failed) {
			ret = 0;
			goto out;
		}
		if (!store_busy(s->st)) {
			error_addf(err, "%s", why.buf);
			goto out;
		}
		if (hold_iteration(s, fi, err))
			goto out;
		session_notify(
			s,
			"database locked by another process; 1 iteration held in memory, stored once the lock frees");
		ret = 0;
		goto out;
	}
	if (hold_iteration(s, fi, err))
		goto out;
	ret = store_held(s, true, err);
out:
	strbuf_release(&why);
	return ret;
}

int session_store_held_wait(struct session *s, struct strbuf *err)
{
	time_t end = time(NULL) + SESSION_HELD_WAIT_S;

	if (!s->held_nr)
		return 0;
	session_notify(
		s,
		"database locked by another process; %zu iterations held in memory, waiting up to %d s for the lock",
		s->held_nr, SESSION_HELD_WAIT_S);
	for (;;) {
		struct timespec pause = {0, 100000000L};

		if (store_held(s, false, err))
			return -1;
		if (!s->held_nr)
			return 0;
		if (time(NULL) >= end || session_flag_set(s->opts.cut))
			break;
		nanosleep(&pause, NULL);
	}
	return error_addf(
		err,
		"cannot store %zu finished iterations: the database stayed locked by another process",
		s->held_nr);
}

void session_held_clear(struct session *s)
{
	for (size_t i = 0; i < s->held_nr; i++)
		held_iter_release(&s->held[s->held_first + i]);
	free(s->held);
	s->held = NULL;
	s->held_first = s->held_nr = s->held_alloc = s->held_bytes = 0;
	strvec_clear(&s->held_names);
	strmap_clear(&s->held_name_index);
}
