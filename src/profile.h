#ifndef MMCMP_PROFILE_H
#define MMCMP_PROFILE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

struct strbuf;

/*
 * profile: call-graph samples of one command, by cpu-clock sampling with
 * perf_event_open (no perf tool needed), one event per CPU opened on the
 * command's process with inherit and enable_on_exec, so its process tree
 * is sampled from its exec to its exit. The samples are symbolised when
 * the command has ended (profile-sym.h) and folded: one line per distinct
 * stack, "root;...;leaf COUNT", sorted.
 *
 * Functions returning int give 0, or -1 after appending one line to err.
 */

/* The default sampling frequency, perf record's. */
#define PROFILE_DEFAULT_HZ 999

/* What to run and how long it may take. */
struct profile_request {
	char *const *argv; /* argv[0] is looked up in PATH of env */
	char *const *env;  /* NULL: the caller's environment */
	const char *cwd;   /* NULL: the caller's */
	/* Where the command's process is written before its exec; NULL: none.
	 */
	const char *const *cgroup_procs;
	double timeout_s; /* 0: none */
	int frequency_hz;
	volatile sig_atomic_t
		*stop; /* kill the command once set; may be NULL */
};

/* The profile of one command, owned by the caller (profile_result_release()).
 */
struct profile_result {
	char *status;  /* "ok", "exit", "signal", "timeout", "interrupted" */
	int exit_code; /* for "exit" */
	struct strbuf *folded; /* "a;b;c N\n" lines, sorted by stack */
	uint64_t samples;      /* in folded */
	uint64_t lost;	       /* announced lost by the kernel */
	char *missing;	       /* what could not be symbolised, or NULL */
};

#define PROFILE_RESULT_INIT                                                    \
	{                                                                      \
		NULL, 0, NULL, 0, 0, NULL                                      \
	}

/*
 * Run req's command to its end, sampled. Fails when the command cannot be
 * started or no event can be opened (perf_event_paranoid, no
 * perf_event_open); a command that fails or times out is a profile of
 * that status, not a failure. The command's stdout and stderr go to
 * /dev/null.
 */
int profile_run(const struct profile_request *req, struct profile_result *out,
		struct strbuf *err);
/* Free what out holds and make it PROFILE_RESULT_INIT. */
void profile_result_release(struct profile_result *out);

#endif /* MMCMP_PROFILE_H */
