/* render: the table of formats, and the dispatch to them. */
#include "render.h"

#include <string.h>

#include "render-internal.h"
#include "util.h"

/* One format: the name --format takes and its renderer. */
struct render_backend {
	const char *name;
	render_fn *render;
};

/* Indexed by enum render_format, in its order, which --help lists. */
static const struct render_backend render_backends[] = {
	[RENDER_TEXT] = {"text", render_text},
	[RENDER_MARKDOWN] = {"markdown", render_markdown},
	[RENDER_CSV] = {"csv", render_csv},
	[RENDER_HTML] = {"html", render_html},
	[RENDER_JSON] = {"json", render_json},
	[RENDER_JUNIT] = {"junit", render_junit},
	[RENDER_GITHUB] = {"github", render_github},
};

bool render_format_parse(const char *name, enum render_format *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(render_backends); i++) {
		if (!strcmp(name, render_backends[i].name)) {
			*out = (enum render_format)i;
			return true;
		}
	}
	return false;
}

const char *render_format_nth(size_t i)
{
	return i < ARRAY_SIZE(render_backends) ? render_backends[i].name : NULL;
}

int render(enum render_format format, const struct compare_result *res,
	   const struct render_options *opts, struct strbuf *out,
	   struct strbuf *err)
{
	(void)err;
	if ((size_t)format >= ARRAY_SIZE(render_backends))
		BUG("unknown render format %d", (int)format);
	render_backends[format].render(res, opts, out);
	return 0;
}
