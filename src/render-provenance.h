#ifndef MMCMP_RENDER_PROVENANCE_H
#define MMCMP_RENDER_PROVENANCE_H

#include <stdbool.h>
#include <stddef.h>

struct boot_data;
struct compare_provenance;
struct compare_result;
struct strbuf;

/*
 * render-provenance: the provenance block (compare-provenance.h) of each
 * format, which the renderers put before their tables. It is
 * res->provenance, or nothing under --test=mmtests and for runs not from
 * the store. The functions append to out and cannot fail; the text,
 * markdown and html ones return whether they appended anything.
 */

/* The block render() shows for res, or NULL when it shows none. */
const struct compare_provenance *
render_provenance(const struct compare_result *res);

bool render_text_provenance(const struct compare_result *res,
			    struct strbuf *out);
bool render_markdown_provenance(const struct compare_result *res,
				struct strbuf *out);
/*
 * The records of benchmark "provenance" (render.h), with `empty` commas
 * after the value column (render_csv_record()).
 */
void render_csv_provenance(const struct compare_result *res, size_t empty,
			   struct strbuf *out);
/*
 * An <h2>, a <table class="provenance"> of the labels, <p class="note">
 * notes and a <div class="warning"> list of what is not like for like.
 */
bool render_html_provenance(const struct compare_result *res,
			    struct strbuf *out);

/*
 * The accelerators of a run's nr boots, accel[i] the i-th boot's (NULL:
 * unknown), in out: "tcg", "kvm", "kvm, tcg" (sorted, each once), "?"
 * for one not known; escaped for the terminal; nothing without boots.
 * Returns whether any was tcg, an emulated CPU.
 */
bool render_boots_accel(const char *const *accel, size_t nr,
			struct strbuf *out);

/*
 * The lines of `mmcmp show` for a run's boots (none without): a warning
 * line when any ran under tcg, then per boot its number, kernel,
 * accelerator, seconds to the agent's hello and guest release, or why
 * it failed; every stored string escaped for the terminal.
 */
void render_boots_show(const struct boot_data *boots, size_t nr,
		       struct strbuf *out);

#endif /* MMCMP_RENDER_PROVENANCE_H */
