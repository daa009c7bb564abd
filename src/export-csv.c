/* export-csv: `mmcmp export csv`, the sample table csv.c writes. */
#include "export.h"

#include "csv.h"

static void csv_finish(void *doc, struct strbuf *out)
{
	const struct export_runs *r = doc;

	csv_export(r->v, r->nr, out);
}

const struct export_format export_csv = {
	.name = "csv",
	.start = export_runs_start,
	.add_run = export_runs_add,
	.finish = csv_finish,
	.free = export_runs_free,
};
