#ifndef MMCMP_IMPORT_H
#define MMCMP_IMPORT_H

#include <stdbool.h>
#include <stddef.h>

struct run_full;
struct store;
struct strbuf;
struct strvec;

/*
 * import: the files `mmcmp import` reads (mmcmp's JSON export and CSV,
 * hyperfine, Go benchmarks, pyperf, mmtests result trees), each turned
 * into whole runs (struct run_full, one per label), and how they are
 * stored. Each format is a `struct import_format` in its own import-*.c
 * file, listed in import_formats[] in import.c. A parse reads the whole
 * file from memory and returns every run or fails with one line in err,
 * "FILE:LINE: message" (text) or "FILE: PATH: message" (JSON, PATH as
 * "results[2].times[0]"), leaving *runs NULL and *nr 0. Runs of other
 * tools get a uuid from the format, label and the file's SHA-256, so a
 * file imported twice gives the same runs, which the store skips.
 * zlib is used only in import.c, for files compressed with gzip. Every
 * input is opened by import_open(), which refuses anything but a regular
 * file and a file over the limit of its format before a byte is read.
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
	/*
	 * Where a parser appends a line "FILE: message" for what it read
	 * but doubts (two results merged into one label); NULL: nowhere.
	 */
	struct strvec *warnings;
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
	 * When not NULL, what `mmcmp import` calls instead of parse(): the
	 * same, but buf is the parser's to overwrite (mmcmp's export blanks
	 * each array of samples it has read, so that no tree holds them).
	 */
	int (*parse_in_place)(const char *path, char *buf, size_t len,
			      const struct import_options *opts,
			      struct run_full **runs, size_t *nr,
			      struct strbuf *err);
	/*
	 * For a format that is a directory tree rather than one file
	 * (mmtests' work/log), instead of detect() and parse(): read the
	 * tree at path, with the same contract as parse().
	 */
	int (*parse_tree)(const char *path, struct strvec *warnings,
			  struct run_full **runs, size_t *nr,
			  struct strbuf *err);
	/*
	 * The largest file (uncompressed) that parse() takes: CSV's and Go's
	 * IMPORT_MAX_BYTES, JSON's JSON_IMPORT_MAX_BYTES, as a tree of the
	 * whole document costs many times its size.
	 */
	size_t max_bytes;
	/*
	 * mmcmp's own formats (its JSON export, CSV): last in the table,
	 * detected after the others' detect(), never named by --from, and
	 * taking no --label-by.
	 */
	bool own;
};

extern const struct import_format import_hyperfine, import_gobench,
	import_pyperf, import_mmtests_tree, import_json, import_csv;

/* The format called name that --from may name, or NULL. */
const struct import_format *import_format_find(const char *name);
/*
 * The first file format whose detect() accepts the file, in table order,
 * mmcmp's own last (CSV takes any file); NULL only when none does (trees
 * are never detected: --from names them).
 */
const struct import_format *import_format_detect(const char *path,
						 const char *buf, size_t len);
/* Append the names --from takes, joined by ", ", for messages and usage. */
void import_format_names(struct strbuf *out);

/* The runs of one file, read and checked before the store is opened. */
struct import_file {
	const char *path;
	struct run_full *runs; /* run_full_free_array() them */
	size_t nr;
};

/*
 * The largest file read, compressed or not: CSV's; JSON formats have a
 * lower limit of their own (JSON_IMPORT_MAX_BYTES).
 */
#define IMPORT_MAX_BYTES ((size_t)1 << 30)

/*
 * Open path, an input, for reading: with O_NONBLOCK, so that neither a
 * FIFO nor a device can block the open, then fstat()ed, so that anything
 * but a regular file ("'PATH' is not a regular file (a FIFO)") and a file
 * of more than max_bytes ("PATH: too large (N bytes, at most M)") are
 * refused before a byte is read; a symlink counts as what it points to.
 * On success *fd is the file, in blocking mode, for the caller to close,
 * and *size_bytes its size.
 */
int import_open(const char *path, size_t max_bytes, int *fd, size_t *size_bytes,
		struct strbuf *err);
/*
 * Append the whole of the file at path, opened by import_open() with the
 * limit max_bytes, to sb; a file that grows past max_bytes while it is
 * read is refused too. On failure sb is as it was.
 */
int import_read_file(const char *path, size_t max_bytes, struct strbuf *sb,
		     struct strbuf *err);

/*
 * Read the runs of f->path into f: a tree format (from) reads the tree;
 * a file is read, decompressed when it is gzip, and parsed as from, or
 * else as the format import_format_detect() picks. A file is refused by
 * its size before it is read (or, compressed, once its content passes
 * the limit) when it is over the limit of its format: a file that starts
 * as JSON does ('{') has JSON's. label_by (NULL for the default) applies
 * to other tools' formats; with mmcmp's own it is an error. Doubts about
 * the input are appended to warnings (NULL: dropped). The runs are
 * stamped with the time of reading.
 */
int import_file_read(struct import_file *f, const struct import_format *from,
		     const char *label_by, struct strvec *warnings,
		     struct strbuf *err);

/* How the runs of files join those of the database: import_store(). */
struct import_policy {
	const char *prefix; /* prepended to every label, or NULL */
	bool append;	    /* labels with results may take more runs */
	/* Filled by import_store(): */
	struct strvec *skipped; /* a warning per run stored already */
	bool bad_input;		/* the failure was the input's (usage) */
};

/*
 * Store the runs of f into st, inside the caller's transaction: skip
 * those whose uuid st has (with a warning in skipped), prefix the labels
 * (f's runs are relabelled), check every name against names.h's limits
 * and refuse a label whose other runs have results for a benchmark of a
 * new run, unless append is set or an earlier run of this file brought
 * them. A label's runs of other benchmarks are no clash: the results of
 * two benchmarks on one kernel merge under one label.
 */
int import_store(struct store *st, struct import_policy *pol,
		 struct import_file *f, struct strbuf *err);

/* Whether the len bytes at buf start as a gzip file does (RFC 1952). */
bool import_is_gzip(const char *buf, size_t len);
/*
 * Append the decompressed content of the gzip file (every member) in the
 * len bytes at buf, read from path, to out. Fails on a corrupt or cut
 * file, or when the content exceeds max_bytes. Bytes after the last
 * member that do not start another are not gzip: they are dropped, as
 * gzip(1) drops them, with a warning "PATH: N bytes of trailing garbage
 * after the gzip data ignored" in warnings (NULL: dropped silently).
 */
int import_gunzip(const char *path, const char *buf, size_t len,
		  size_t max_bytes, struct strbuf *out, struct strvec *warnings,
		  struct strbuf *err);

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
