#ifndef MMCMP_SESSION_CHECK_H
#define MMCMP_SESSION_CHECK_H

struct build_spec;
struct config;
struct plan;
struct strbuf;
struct strvec;
struct workload_spec;

/*
 * session-check: what the commands of a run (session.h) will find, their
 * environment, directory and PATH, and the checks made before anything
 * runs, so that a missing program or setting stops the run before it is
 * stored. Functions returning int give 0, or -1 after appending one line
 * to err; they change nothing.
 */

/*
 * Whether every setting of cfg, the config's and each build's, can be
 * read under root (NULL: "/").
 */
int session_check_settings(const struct config *cfg, const char *root,
			   struct strbuf *err);

/*
 * Whether the program of every job of plan can be executed, found as the
 * run will find it (runner_find_program() with the PATH of the job's
 * environment: `path`, as in struct session_opts, then the config's,
 * build's and workload's settings). When a program is missing, err names
 * the Debian package that brings it where one is known.
 */
int session_check_programs(const struct config *cfg, const struct plan *plan,
			   const char *path, struct strbuf *err);

/*
 * Append to env the environment of the commands of workload wl of build
 * b (either may be NULL): ours, with PATH set to path (NULL: as it is),
 * then the config's, the build's and the workload's env, each NAME
 * replacing an earlier one.
 */
void session_job_env(const struct config *cfg, const char *path,
		     const struct build_spec *b, const struct workload_spec *wl,
		     struct strvec *env);

/*
 * Where the commands of workload wl (NULL: of build b) run: the
 * workload's cwd, else the build's; NULL: where mmcmp runs. Borrowed from
 * the config.
 */
const char *session_job_cwd(const struct build_spec *b,
			    const struct workload_spec *wl);

/*
 * The PATH a run gives its commands (session_opts.path): mmcmp's own
 * directory, the workloads of a build tree and the installed ones
 * (libexec, so that `truncate` does not shadow coreutils') first, then
 * ours. The caller frees it.
 */
char *session_workload_path(void);

#endif /* MMCMP_SESSION_CHECK_H */
