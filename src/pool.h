#ifndef MMCMP_POOL_H
#define MMCMP_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct store;
struct run_data;
struct strbuf;

/*
 * pool: which of a label's stored runs, and which of their samples,
 * `mmcmp compare`, `export --compare`, `power` and `report` take, with
 * the notes that say what was left out. It sits above the store: the
 * store hands back rows and text, pool reads the run's config and setup
 * to count the iterations a run planned. Functions return 0 or -1 and
 * append one line to err, as store.h's do.
 */

/*
 * Load the runs of label pooled into rd (zeroed by the caller): each run
 * loaded with store_load_run() and merged with run_data_merge(), or only
 * the runs whose ids are in only[0..only_nr) when only_nr > 0. Durations
 * that are all zero (samples imported without times) are dropped, so no
 * empty Duration table is printed for them. *loaded counts the runs
 * pooled: 0 when the label has none (or none of `only`), which is not an
 * error here.
 */
int pool_load_all(struct store *st, const char *label, const int64_t *only,
		  size_t only_nr, const char *benchmark, struct run_data *rd,
		  size_t *loaded, struct strbuf *err);

/*
 * pool_load_all() under compare's pooling rules: unless
 * include_incomplete, only the runs whose status is "complete" and only
 * the samples of iterations whose status is "ok" (store_load_run_ok();
 * pool_load_all() takes them all, as include_incomplete does). rd->notes
 * receives one line per run left out, or taken in although not complete
 * ("run 15 of 'patched' left out: interrupted after 2 of 5 iterations",
 * the planned count from the run's effective setup and config, left out
 * when they do not tell), and one for the failed iterations of the runs
 * pooled ("3 failed iterations of 'base' left out"); with
 * include_incomplete, those that stored no sample get a line of their
 * own ("2 failed iterations of 'base' stored no samples: nothing to
 * include") and the "included" line counts only the others. *loaded
 * counts the runs pooled; 0 with notes means every run of the label was
 * left out. rd->sources gets one entry per run pooled: its info, the
 * measured iterations and samples taken, the iterations planned, its
 * boots.
 */
int pool_load(struct store *st, const char *label, const int64_t *only,
	      size_t only_nr, const char *benchmark, bool include_incomplete,
	      struct run_data *rd, size_t *loaded, struct strbuf *err);

#endif /* MMCMP_POOL_H */
