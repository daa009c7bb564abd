#ifndef MMCMP_EXPLAIN_H
#define MMCMP_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strbuf;

/*
 * explain: where CPU time moved between two labels, from the profiles of
 * `run --profile` (folded stacks, profile.h). Each profiled iteration
 * gives every symbol two shares of its samples: self (the symbol is the
 * leaf) and total (the symbol is anywhere on the stack: self and
 * children). Over the iterations of each side, Welch's t-test and
 * interval on the difference of mean shares, in percentage points, with
 * Benjamini-Hochberg over every tested (symbol, kind) row; marked rows'
 * intervals at Benjamini and Yekutieli's false-coverage level
 * 1 - R alpha / m. Rows are ranked by the size of the difference.
 * By call path, a row is a frame in its stack context ("main;work;f",
 * a root-first prefix of the folded stacks): total counts the samples
 * whose stack starts with it, self those whose stack is it.
 * Functions returning int give 0, or -1 after appending one line to err.
 */
struct explain;
struct profile_rows;

/* What a row is of: a symbol wherever it is, or a call path. */
enum explain_by {
	EXPLAIN_BY_SYMBOL,
	EXPLAIN_BY_PATH,
};

/* One row: a symbol's (or call path's) self or total share on each side. */
struct explain_row {
	const char *symbol;	    /* or path; lives as long as the explain */
	bool self;		    /* self share, else total */
	double base_pct, other_pct; /* mean shares, percent */
	double diff_pp, ci_low, ci_high; /* other - base, percentage points */
	double ci_level;		 /* of the interval */
	double p, q;			 /* NaN when not tested */
	bool tested, marked;
};

/* Rows are tested when a side's mean share is at least this, percent. */
#define EXPLAIN_MIN_PCT 1.0

struct explain *explain_new(enum explain_by by);
/* What ex's rows are of. */
enum explain_by explain_by(const struct explain *ex);
/* "symbol" or "path". */
const char *explain_by_name(enum explain_by by);
/* NULL is a no-op. */
void explain_free(struct explain *ex);
/*
 * Add one profiled iteration's folded stacks ("a;b;c COUNT" lines) to
 * the base side (other false) or the other; what names it in errors.
 */
int explain_add(struct explain *ex, bool other, const char *folded,
		const char *what, struct strbuf *err);
/*
 * Add the profiles of job (benchmark, job) with status "ok" from base
 * (the base side) and other, each named "profile SEQ of run ID" in
 * errors.
 */
int explain_add_job(struct explain *ex, const struct profile_rows *base,
		    const struct profile_rows *other, const char *benchmark,
		    const char *job, struct strbuf *err);
/* Iterations and samples added to a side. */
size_t explain_iterations(const struct explain *ex, bool other);
uint64_t explain_samples(const struct explain *ex, bool other);
/*
 * Test every row at level alpha (fdr: with Benjamini-Hochberg) and rank
 * them: tested rows by the size of their difference, then the others.
 * Needs 2 iterations on each side for any test. The rows live until the
 * next call or explain_free().
 */
const struct explain_row *explain_compute(struct explain *ex, double alpha,
					  bool fdr, size_t *nr);
/* How many rows explain_compute() tested (the family) and marked. */
size_t explain_tested(const struct explain *ex);
size_t explain_marked(const struct explain *ex);

#endif /* MMCMP_EXPLAIN_H */
