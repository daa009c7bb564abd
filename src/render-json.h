#ifndef MMCMP_RENDER_JSON_H
#define MMCMP_RENDER_JSON_H

struct cJSON;
struct compare_result;

/*
 * render-json: the "mmcmp-compare" document (JSON_COMPARE_FORMAT of
 * json.h, docs/export-format.md), which `compare --format json` prints
 * (render_json() of render-internal.h) and an export embeds as its
 * "comparison", so that a comparison has one shape. Nothing fails:
 * allocation failure aborts.
 */

/*
 * The document as a cJSON tree (json-write.h), which the caller frees with
 * json_write_free() or adds to a tree that then owns it: per benchmark and
 * operation every cell of the table (each statistic of each label) with its
 * value, percentage against the baseline, p-value (mean rows), verdict and the
 * sample counts of both sides.
 */
struct cJSON *render_json_object(const struct compare_result *res);

#endif /* MMCMP_RENDER_JSON_H */
