#ifndef MMCMP_STORE_PROFILE_H
#define MMCMP_STORE_PROFILE_H

#include <stddef.h>
#include <stdint.h>

struct store;
struct strbuf;

/*
 * store-profile: the profiles of `mmcmp run --profile` in the store's
 * profile table (db/migrations/0012-profile.sql): one row per profiled
 * iteration with its folded stacks (profile.h). Functions returning int
 * give 0, or -1 after appending one line to err, as store.h's.
 */

/* A profiled iteration; every string borrowed. */
struct profile_rec {
	int64_t run_id;
	const char *benchmark, *job, *build; /* build: NULL for none */
	int64_t seq;			     /* 1-based among the job's */
	const char *started_at;
	int64_t frequency_hz;
	const char *status;
	uint64_t samples, lost;
	const char *stacks, *missing; /* missing: NULL when none */
};

/* Store rec, in a transaction of its own (or the caller's group). */
int store_profile_add(struct store *st, const struct profile_rec *rec,
		      struct strbuf *err);

/* A stored profile, owned by its profile_rows. */
struct profile_row {
	int64_t run_id, seq;
	char *benchmark, *job, *build, *status, *stacks, *missing;
	uint64_t samples, lost;
};

struct profile_rows {
	struct profile_row *v;
	size_t nr, alloc;
};

/*
 * Append the profiles of every run labelled label (of benchmark only,
 * unless NULL) to rows, in run and then storage order.
 */
int store_profile_load(struct store *st, const char *label,
		       const char *benchmark, struct profile_rows *rows,
		       struct strbuf *err);
/* Free what rows holds and empty it. */
void profile_rows_release(struct profile_rows *rows);

#endif /* MMCMP_STORE_PROFILE_H */
