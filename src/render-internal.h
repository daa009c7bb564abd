#ifndef MMCMP_RENDER_INTERNAL_H
#define MMCMP_RENDER_INTERNAL_H

struct compare_result;
struct render_options;
struct strbuf;

/*
 * render-internal: the entry point of each format, one per render-*.c
 * file, for the render_backends[] table of render.c, which is the one
 * place that picks a renderer; everyone else calls render(). Each appends
 * res to out and cannot fail; the result and the options stay the
 * caller's. What the formats share is in render-cells.h and
 * render-provenance.h, below them.
 */
typedef void render_fn(const struct compare_result *res,
		       const struct render_options *opts, struct strbuf *out);

render_fn render_text;	   /* render-text.c */
render_fn render_markdown; /* render-markdown.c */
render_fn render_csv;	   /* render-csv.c */
render_fn render_html;	   /* render-html.c */
render_fn render_json;	   /* render-json.c */
render_fn render_junit;	   /* render-junit.c */
render_fn render_github;   /* render-github.c */

#endif /* MMCMP_RENDER_INTERNAL_H */
