/* report-load: a compared label's runs and monitor series, from the store. */
#include "report.h"

#include <stdlib.h>

#include "pool.h"
#include "store-profile.h"
#include "store-series.h"
#include "store.h"
#include "strbuf.h"
#include "util.h"

int report_label_load(struct store *st, const char *label,
		      bool include_incomplete, struct report_label *rl,
		      size_t *loaded, struct strbuf *err)
{
	int64_t *ids = NULL;
	size_t ids_nr = 0;
	int ret = -1;

	*loaded = 0;
	rl->label = xstrdup(label);
	if (pool_load(st, label, NULL, 0, NULL, include_incomplete, &rl->pooled,
		      loaded, err))
		goto out;
	if (store_profile_load(st, label, NULL, &rl->profiles, err))
		goto out;
	ids = report_pooled_ids(&rl->pooled, true, &ids_nr);
	rl->runs = xcalloc(ids_nr + 1, sizeof(*rl->runs));
	for (size_t i = 0; i < ids_nr; i++) {
		rl->runs_nr++;
		if (store_run_load_full(st, ids[i], NULL, &rl->runs[i], err))
			goto out;
		for (size_t k = 0; k < REPORT_COUNTERS_NR; k++)
			if (store_load_monitor_series(st, ids[i],
						      report_counter_name(k),
						      &rl->series[k], err))
				goto out;
	}
	ret = 0;
out:
	free(ids);
	return ret;
}
