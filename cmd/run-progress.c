/* run-progress: the progress line, warnings, summary and signals of run. */
#include "run-progress.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "names.h"
#include "run-data.h"
#include "session.h"
#include "store.h"
#include "strbuf.h"
#include "util.h"

static volatile sig_atomic_t interrupted, cut_short;

static void on_interrupt(int sig)
{
	(void)sig;
	if (interrupted)
		cut_short = 1;
	interrupted = 1;
}

static const int run_signals[RUN_SIGNALS_NR] = {SIGINT, SIGTERM, SIGHUP};

void run_signals_catch(struct run_signals *sig)
{
	struct sigaction sa = {.sa_handler = on_interrupt};

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(run_signals); i++)
		sigaction(run_signals[i], &sa, &sig->old[i]);
}

void run_signals_restore(const struct run_signals *sig)
{
	for (size_t i = 0; i < ARRAY_SIZE(run_signals); i++)
		sigaction(run_signals[i], &sig->old[i], NULL);
}

volatile sig_atomic_t *run_signals_stop(void)
{
	return &interrupted;
}

volatile sig_atomic_t *run_signals_cut(void)
{
	return &cut_short;
}

void run_signals_report(void)
{
	if (cut_short)
		error("interrupted twice: the teardowns were cut short; finished iterations are kept");
	else if (interrupted)
		error("interrupted; the teardowns ran; finished iterations are kept");
}

static void fmt_duration(char *buf, size_t len, double s)
{
	long t = s < 0 ? 0 : (long)(s + 0.5);

	if (t >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60,
			 t % 60);
	else
		snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

void run_progress_show(void *ctx, const struct session_progress *p)
{
	const struct run_progress *rp = ctx;
	char el[32], eta[32] = "?";

	if (!rp->on)
		return;
	fmt_duration(el, sizeof(el), p->elapsed_s);
	if (p->done)
		fmt_duration(eta, sizeof(eta),
			     p->elapsed_s / (double)p->done *
				     (double)(p->total - p->done));
	fprintf(stderr,
		"\r\033[K[%zu/%zu] %s %s %s %ld/%ld  elapsed %s  ETA %s",
		p->done + 1, p->total, p->label, p->operation,
		p->pilot    ? "pilot"
		: p->warmup ? "warm-up"
			    : "iteration",
		p->index, p->count, el, eta);
	fflush(stderr);
}

void run_progress_clear(const struct run_progress *rp)
{
	if (rp->on)
		fputs("\r\033[K", stderr);
}

void run_progress_warning(void *ctx, const char *msg)
{
	struct strbuf sb = STRBUF_INIT;

	run_progress_clear(ctx);
	names_escape_lines(&sb, msg, strlen(msg));
	warning("%s", sb.buf);
	strbuf_release(&sb);
}

size_t run_progress_summary(const struct session *s, struct store *st,
			    bool quiet)
{
	const char *status = session_status_name(session_status(s));
	size_t failed = 0;

	for (size_t b = 0; b < session_runs_nr(s); b++) {
		const struct session_summary *sum = session_summary(s, b);
		struct run_info ri = {0};
		const char *shown = status;

		failed += sum->failed;
		if (quiet || !sum->id)
			continue;
		/*
		 * The status stored, as list and show print it: a run whose
		 * every measured iteration (or boot) failed is "failed" in a
		 * session that completed.
		 */
		if (!store_run_get(st, sum->id, &ri, NULL) && ri.status)
			shown = ri.status;
		printf("%s: run %" PRId64
		       " %s, %zu iterations (%zu failed), %zu samples\n",
		       sum->label, sum->id, shown, sum->iterations, sum->failed,
		       sum->samples);
		run_info_release(&ri);
	}
	return failed;
}
