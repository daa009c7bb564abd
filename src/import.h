#ifndef MMCMP_IMPORT_H
#define MMCMP_IMPORT_H

#include <stdbool.h>
#include <stddef.h>

struct run_full;
struct strbuf;

/*
 * import: results written by other tools (hyperfine, Go benchmarks,
 * pyperf, mmtests result trees), turned into whole runs (struct run_full, one
 * per label) that `mmcmp import` stores as it stores its own JSON exports.
 *
 * Each format is one `struct import_format` in its own file
 * (import-gobench.c, json-hyperfine.c, json-pyperf.c), listed in one
 * table in import.c. Its parse function reads the whole file from memory
 * and either returns every run it holds or fails with one line in err,
 * "FILE:LINE: message" for text formats and "FILE: PATH: message" for
 * JSON ones (PATH is where in the document, "results[2].times[0]"),
 * leaving *runs NULL and *nr 0. Runs get a uuid derived from the format,
 * the label and the file's bytes (SHA-256), so the same file imported
 * twice gives the same runs, which the store then skips; their config
 * name is the file name.
 *
 * zlib is used only in import.c, for files compressed with gzip.
 */

/* What the command line adds to a file: how to pick labels, the time. */
struct import_options {
	/*
	 * The label of a result: NULL for the format's default, else the
	 * name of a parameter (hyperfine), configuration key (gobench) or
	 * metadata key (pyperf) whose value is the label.
	 */
	const char *label_by;
	/* UTC "YYYY-MM-DDTHH:MM:SSZ" for the runs and their iterations. */
	const char *started_at;
};

struct import_format {
	const char *name; /* as --from takes it: "hyperfine" */
	/*
	 * Whether the len bytes at buf, read from path, are unmistakably
	 * of this format (the content decides, not the name). Never fails.
	 */
	bool (*detect)(const char *path, const char *buf, size_t len);
	/*
	 * Parse the len bytes at buf (followed by a NUL) read from the file
	 * called path into *runs, a new array of *nr runs in the order their
	 * labels first appear (the caller frees it with
	 * run_full_free_array()).
	 */
	int (*parse)(const char *path, const char *buf, size_t len,
		     const struct import_options *opts, struct run_full **runs,
		     size_t *nr, struct strbuf *err);
	/*
	 * For a format that is a directory tree rather than one file
	 * (mmtests' work/log), instead of detect() and parse(): read the
	 * tree at path, with the same contract as parse().
	 */
	int (*parse_tree)(const char *path, struct run_full **runs, size_t *nr,
			  struct strbuf *err);
};

extern const struct import_format import_hyperfine, import_gobench,
	import_pyperf, import_mmtests_tree;

/* The format called name, or NULL. */
const struct import_format *import_format_find(const char *name);
/*
 * The first file format whose detect() accepts the file, or NULL (trees
 * are never detected: --from names them).
 */
const struct import_format *import_format_detect(const char *path,
						 const char *buf, size_t len);
/* Append the format names, joined by ", ", for messages and usage. */
void import_format_names(struct strbuf *out);

/* Whether the len bytes at buf start as a gzip file does (RFC 1952). */
bool import_is_gzip(const char *buf, size_t len);
/*
 * Append the decompressed content of the gzip file (every member) in the
 * len bytes at buf, read from path, to out. Fails on a corrupt or cut
 * file, or when the content exceeds max_bytes.
 */
int import_gunzip(const char *path, const char *buf, size_t len,
		  size_t max_bytes, struct strbuf *out, struct strbuf *err);

/*
 * The runs of one file being built by a parser: a run per label, with
 * operations looked up by benchmark and name, and iterations appended
 * with their samples. Runs are named by their index, as the array moves
 * when it grows. Nothing fails; allocation failure aborts.
 */
struct import_builder {
	const char *format;
	const char *started_at;
	struct run_full *runs;
	size_t nr, alloc;
	/* label -> run; run, benchmark, name -> op; run, bench, job -> nr */
	struct strmap *labels, *ops, *jobs;
};

void import_builder_init(struct import_builder *b, const char *format,
			 const char *started_at);
/* Free everything that import_builder_finish() did not hand over. */
void import_builder_release(struct import_builder *b);
/*
 * The index of the run of label, new (with only its label set) when
 * *created is set to true; created may be NULL.
 */
size_t import_builder_run(struct import_builder *b, const char *label,
			  bool *created);
/*
 * The index in run's ops of (benchmark, name), created with unit and
 * direction when new (decimals are set by import_builder_finish()).
 */
size_t import_builder_op(struct import_builder *b, size_t run,
			 const char *benchmark, const char *name,
			 const char *unit, bool higher_better);
/*
 * Append a measured iteration of benchmark and job to run: status "ok",
 * index the number of earlier iterations of that benchmark and job, the
 * builder's start time, no times. The caller may change its outcome and
 * times; it must add its samples before the next iteration.
 */
struct iteration_data *import_builder_iteration(struct import_builder *b,
						size_t run,
						const char *benchmark,
						const char *job);
/* Append a sample of op to the last iteration of run. */
void import_builder_sample(struct import_builder *b, size_t run, size_t op,
			   double value);
/*
 * Complete every run and hand them over to *runs and *nr: uuid from the
 * format, label and the len bytes at buf; status "complete"; config name
 * path with an empty config text; the start time as start and end; this
 * mmcmp's version; and for each operation the decimals that show its
 * smallest non-zero sample in the run with three significant digits
 * (2 to 12).
 */
void import_builder_finish(struct import_builder *b, const char *path,
			   const char *buf, size_t len, struct run_full **runs,
			   size_t *nr);

/*
 * Whether s is fit for a label, name or unit: valid UTF-8 of 1 to
 * JSON_MAX_NAME bytes, so that every import can be exported again.
 * Otherwise false with the reason ("empty", "not UTF-8", ...) in *why.
 */
bool import_name_ok(const char *s, const char **why);

/*
 * The label of a file when its name is the label: its base name without
 * the last extension (and ".gz" before it): "old" for "r/old.json.gz".
 * The caller frees it.
 */
char *import_file_label(const char *path);

#endif /* MMCMP_IMPORT_H */
