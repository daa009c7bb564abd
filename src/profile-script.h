#ifndef MMCMP_PROFILE_SCRIPT_H
#define MMCMP_PROFILE_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct store;
struct strbuf;

/*
 * profile-script: `perf script` text (of `perf record -g`) as a profile,
 * for `mmcmp import --from perf-script`: each sample, a header line
 * "COMM PID [CPU] TIME: PERIOD EVENT:" then its call chain leaf first,
 * one indented "ADDRESS SYMBOL+OFFSET (DSO)" line a frame, a blank line
 * after it, becomes one count of its folded stack (root first, as
 * profile.h stores them): kernel frames named SYMBOL_[k], "[unknown]"
 * symbols after their file ("[libc.so.6]"), ';' in a name as ':'. A
 * sample counts 1 whatever its period. Functions returning int give 0,
 * or -1 after appending one line to err ("FILE:LINE: message").
 */

/*
 * Fold the len bytes at buf, read from path, into folded (sorted
 * "root;...;leaf COUNT" lines) and *samples.
 */
int profile_script_fold(const char *path, const char *buf, size_t len,
			struct strbuf *folded, uint64_t *samples,
			struct strbuf *err);

/* One folded file to import; every string borrowed. */
struct profile_script_file {
	const char *path;
	const char *folded;
	uint64_t samples;
};

/*
 * Store files[0..nr) as the profiles 1..nr of job "" of benchmark in a
 * new complete run of label started at started_at (UTC), inside the
 * caller's transaction. Its uuid comes from the label, the benchmark
 * and the folded stacks, so the same files imported again are skipped
 * (*skipped set, nothing stored). Unless append, a label with runs is
 * refused, *clash set: "label 'L' has runs already: --append adds to
 * them".
 */
int profile_script_import(struct store *st, const char *label,
			  const char *benchmark, bool append,
			  const struct profile_script_file *files, size_t nr,
			  const char *started_at, bool *skipped, bool *clash,
			  struct strbuf *err);

#endif /* MMCMP_PROFILE_SCRIPT_H */
