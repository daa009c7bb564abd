#ifndef MMCMP_RUN_CHECK_H
#define MMCMP_RUN_CHECK_H

struct config;
struct plan;

/*
 * run-check: what `mmcmp run --check` prints of a loaded config and its
 * expanded plan, on stdout: the config line, then per build its label and
 * cgroup, and per job its command (quoted for sh) and each metric's
 * operation, unit, direction, source and iteration counts. labels has one
 * label per build; iterations overrides the config's when not 0. Prints
 * nothing else and returns 0 (an exit status).
 */
int run_check_print(const struct config *cfg, const struct plan *plan,
		    char *const *labels, int iterations);

#endif /* MMCMP_RUN_CHECK_H */
