/* export: the table of export formats and the export they write. */
#include "export.h"

#include <string.h>

#include "run-data.h"
#include "strbuf.h"
#include "util.h"

static const struct export_format *const export_formats[] = {
	&export_json,
	&export_csv,
	&export_benchstat,
};

const struct export_format *export_format_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(export_formats); i++)
		if (!strcmp(export_formats[i]->name, name))
			return export_formats[i];
	return NULL;
}

void export_format_names(struct strbuf *out)
{
	size_t nr = ARRAY_SIZE(export_formats);

	for (size_t i = 0; i < nr; i++)
		strbuf_addf(out, "%s%s", i ? (i + 1 == nr ? " or " : ", ") : "",
			    export_formats[i]->name);
}

struct export
{
	const struct export_format *fmt;
	void *doc;
};

struct export *export_new(const struct export_format *fmt)
{
	struct export *ex = xcalloc(1, sizeof(*ex));

	ex->fmt = fmt;
	ex->doc = fmt->start();
	return ex;
}

void export_add_run(struct export *ex, struct run_full *rf)
{
	ex->fmt->add_run(ex->doc, rf);
	memset(rf, 0, sizeof(*rf));
}

void export_add_compare(struct export *ex, const struct compare_result *res)
{
	if (!ex->fmt->compare)
		BUG("export %s takes no comparison", ex->fmt->name);
	ex->fmt->add_compare(ex->doc, res);
}

void export_finish(struct export *ex, struct strbuf *out)
{
	ex->fmt->finish(ex->doc, out);
}

void export_free(struct export *ex)
{
	if (!ex)
		return;
	ex->fmt->free(ex->doc);
	free(ex);
}

void *export_runs_start(void)
{
	return xcalloc(1, sizeof(struct export_runs));
}

void export_runs_add(void *doc, struct run_full *rf)
{
	struct export_runs *r = doc;

	ALLOC_GROW(r->v, r->nr + 1, r->alloc);
	r->v[r->nr++] = *rf;
	/* Moved: the caller's copy holds nothing, as after json_add_run(). */
	memset(rf, 0, sizeof(*rf));
}

void export_runs_free(void *doc)
{
	struct export_runs *r = doc;

	if (!r)
		return;
	run_full_free_array(r->v, r->nr);
	free(r);
}
