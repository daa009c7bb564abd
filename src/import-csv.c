/* import-csv: mmcmp's CSV sample tables (csv.h) as whole runs. */
#include "import.h"

#include "csv.h"
#include "mmcmp-version.h"
#include "run-data.h"
#include "strbuf.h"
#include "util.h"
#include "uuid.h"

/* The runs of a CSV file, with the metadata an import has. */
static int csv_import(const char *path, const char *buf, size_t len,
		      const struct import_options *opts, struct run_full **out,
		      size_t *out_nr, struct strbuf *err)
{
	struct run_data *runs = NULL;
	size_t nr = 0;
	char uuid[37];
	const char *now = opts->started_at;
	int ret = -1;

	*out = NULL;
	*out_nr = 0;
	if (csv_parse_warn(path, buf, len, &runs, &nr, opts->warnings, err))
		goto out;
	*out = xcalloc(nr + 1, sizeof(**out));
	for (size_t i = 0; i < nr; i++) {
		struct run_full *rf = &(*out)[(*out_nr)++];
		struct run_info *ri = &rf->info;

		if (uuid_v4(uuid, err))
			goto out;
		ri->uuid = xstrdup(uuid);
		ri->label = xstrdup(runs[i].info.label);
		ri->status = xstrdup("complete");
		run_info_set_config(ri, path, "", 0);
		ri->started_at = xstrdup(now);
		ri->ended_at = xstrdup(now);
		ri->mmcmp_version = xstrdup(MMCMP_VERSION);
		csv_run_full(&runs[i], now, rf);
	}
	ret = 0;
out:
	if (ret) {
		run_full_free_array(*out, *out_nr);
		*out = NULL;
		*out_nr = 0;
	}
	csv_runs_free(runs, nr);
	return ret;
}

/* Every file that no other format took. */
static bool csv_detect(const char *path, const char *buf, size_t len)
{
	(void)path;
	(void)buf;
	(void)len;
	return true;
}

const struct import_format import_csv = {
	.name = "csv",
	.detect = csv_detect,
	.parse = csv_import,
	.max_bytes = IMPORT_MAX_BYTES,
	.own = true,
};
