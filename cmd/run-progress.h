#ifndef MMCMP_RUN_PROGRESS_H
#define MMCMP_RUN_PROGRESS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

struct session;
struct session_progress;
struct store;

/*
 * run-progress: what `mmcmp run` shows while it runs, the progress line
 * and the warnings of the session (session.h), its summary at the end,
 * and the signals that interrupt it. Use: run_signals_catch(); the
 * session with run_progress_show() and run_progress_warning() as its
 * callbacks; run_progress_summary(); run_signals_restore().
 */

/* The context of the callbacks. */
struct run_progress {
	bool on; /* an updating progress line on stderr (a terminal) */
};

/* session_opts.progress: one updating line on a terminal. */
void run_progress_show(void *ctx, const struct session_progress *p);
/* Clear the progress line, if there is one. */
void run_progress_clear(const struct run_progress *rp);
/*
 * session_opts.warning: a warning, off the progress line, escaped as
 * `mmcmp show` does (warnings quote what workloads wrote), so that no
 * escape sequence reaches the terminal.
 */
void run_progress_warning(void *ctx, const char *msg);

/*
 * Unless quiet, a line per run of s: its id, its status as stored (st),
 * its iterations, failures and samples. Returns the iterations that
 * failed in all.
 */
size_t run_progress_summary(const struct session *s, struct store *st,
			    bool quiet);

/* The signals that end a run cleanly: SIGINT, SIGTERM, SIGHUP. */
#define RUN_SIGNALS_NR 3
struct run_signals {
	struct sigaction old[RUN_SIGNALS_NR];
};

/*
 * Catch the signals: the first stops the measurement (*run_signals_stop()
 * is set; the teardowns still run), the second cuts the teardowns short
 * (*run_signals_cut()). SIGPIPE is ignored by main() for every command,
 * so that a closed stdout or stderr (mmcmp run | head) cannot kill a
 * long run.
 */
void run_signals_catch(struct run_signals *sig);
/* Put back the handlers run_signals_catch() replaced. */
void run_signals_restore(const struct run_signals *sig);
/* The flags of session_opts.stop and .cut. */
volatile sig_atomic_t *run_signals_stop(void);
volatile sig_atomic_t *run_signals_cut(void);
/* After a run that was interrupted, say what became of it. */
void run_signals_report(void);

#endif /* MMCMP_RUN_PROGRESS_H */
