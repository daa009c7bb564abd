#ifndef MMCMP_STORE_BISECT_H
#define MMCMP_STORE_BISECT_H

#include <stddef.h>
#include <stdint.h>

struct store;
struct strbuf;

/*
 * store-bisect: the bisection log in the store (db/migrations/0011):
 * one bisect row per search and its steps; for a search on the machine
 * itself, its campaign and settings (0014). The structs own their
 * strings; *_release() frees them. Functions follow store.h's contract:
 * 0, or -1 with one line in err and nothing changed.
 */

struct store_bisect {
	int64_t id;
	char *started_at, *repo, *good, *bad, *operation, *config_hash;
	double alpha;
	char *outcome; /* NULL while it goes on */
	char *culprit;
};

/* One line of the log; kind and verdict as bisect.h names them. */
struct store_bisect_step {
	int64_t step;
	char *kind, *commit, *verdict;
	int64_t units;
	double p, pos, alpha; /* NaN: NULL */
	char *image_sha256;   /* NULL: it does not build */
	char *same_as;	      /* NULL: measured */
	char *note; /* boots that gave no unit value, why; NULL: none */
};

/*
 * A bisection on the machine itself (0014): its campaign and what each
 * resume needs to take the search up again (bisect-machine.h).
 */
struct store_bisect_machine {
	int64_t bisect_id, campaign_id;
	char *build, *image, *initrd, *append, *workdir; /* initrd, append:
							    NULL: none */
	double margin_pct;
	int64_t rounds, max_batches;
};

void store_bisect_release(struct store_bisect *b);
void store_bisect_step_release(struct store_bisect_step *s);
void store_bisect_machine_release(struct store_bisect_machine *m);

/* Store b (id and started_at ignored) as a new bisection; its id to *id. */
int store_bisect_create(struct store *st, const struct store_bisect *b,
			int64_t *id, struct strbuf *err);

/*
 * The newest bisection still going on (outcome NULL) of the same repo,
 * ends, operation and config hash as b into *id; 0 when none.
 */
int store_bisect_find_open(struct store *st, const struct store_bisect *b,
			   int64_t *id, struct strbuf *err);

/* Append s to the log of bisection id as its next step (s->step ignored). */
int store_bisect_add_step(struct store *st, int64_t id,
			  const struct store_bisect_step *s,
			  struct strbuf *err);

/* The log of bisection id, in step order (caller frees each and *steps). */
int store_bisect_steps(struct store *st, int64_t id,
		       struct store_bisect_step **steps, size_t *nr,
		       struct strbuf *err);

/* Bisection id into *b (overwritten); b->id stays 0 when there is none. */
int store_bisect_get(struct store *st, int64_t id, struct store_bisect *b,
		     struct strbuf *err);

/* Store m, which ties bisection m->bisect_id to campaign m->campaign_id. */
int store_bisect_machine_add(struct store *st,
			     const struct store_bisect_machine *m,
			     struct strbuf *err);
/*
 * The machine bisection of campaign campaign_id into *m (overwritten);
 * m->bisect_id stays 0 when there is none.
 */
int store_bisect_machine_get(struct store *st, int64_t campaign_id,
			     struct store_bisect_machine *m,
			     struct strbuf *err);

/* Set the outcome and culprit (may be NULL) of bisection id. */
int store_bisect_finish(struct store *st, int64_t id, const char *outcome,
			const char *culprit, struct strbuf *err);

#endif /* MMCMP_STORE_BISECT_H */
