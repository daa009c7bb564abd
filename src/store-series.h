#ifndef MMCMP_STORE_SERIES_H
#define MMCMP_STORE_SERIES_H

#include <stddef.h>
#include <stdint.h>

struct store;
struct strbuf;

/*
 * store-series: the periodic monitor samples of a run (the monitor_sample
 * table, taken every monitor_interval seconds while an iteration ran) as
 * one time series per iteration and counter, for the report's charts.
 * Functions follow store.h's contract: 0 or -1 with one line appended to
 * err. A series list owns its strings and arrays; release it with
 * monitor_series_list_release().
 */

/* One counter's changes during one measured iteration. */
struct monitor_series {
	int64_t iteration_id;
	char *benchmark;
	char *build;   /* NULL: none */
	double *t_s;   /* seconds after the iteration started, rising */
	double *value; /* change since the previous sample (or the start) */
	size_t nr, alloc;
};

struct monitor_series_list {
	struct monitor_series *v;
	size_t nr, alloc;
};

/*
 * Append to out, per measured iteration of run run_id that has periodic
 * samples (in iteration order), the series of /proc/vmstat counter
 * `counter` (a sample in which it did not change counts 0).
 */
int store_load_monitor_series(struct store *st, int64_t run_id,
			      const char *counter,
			      struct monitor_series_list *out,
			      struct strbuf *err);

/*
 * (On failure the series appended so far stay in out: release it.)
 */

/* Free every series and zero list; NULL is a no-op. */
void monitor_series_list_release(struct monitor_series_list *list);

#endif /* MMCMP_STORE_SERIES_H */
