/* mmcmp import: runs from other machines and tools into the database. */
#include "cmd.h"

#include "csv.h"
#include "import.h"
#include "json.h"
#include "machine.h"
#include "mmcmp-version.h"
#include "names.h"
#include "run-data.h"
#include "sha256.h"
#include "store.h"
#include "strbuf.h"
#include "strmap.h"
#include "strvec.h"
#include "uuid.h"

static const char import_usage[] =
	"usage: mmcmp import [--from FORMAT] [--label-by KEY] [--label-prefix PREFIX] [--append] FILE...\n"
	"\n"
	"Import runs into the database, all files in one transaction: an error\n"
	"anywhere imports nothing.\n"
	"\n"
	"JSON files (*.json, or any but *.csv that start with '{') are\n"
	"documents of mmcmp export json, from this machine or another: whole\n"
	"runs with their uuid, metadata, iterations and samples. A run whose\n"
	"uuid the database has already is skipped with a warning, so a file\n"
	"imported twice changes nothing.\n"
	"\n"
	"CSV files (the others) name their columns in the first row:\n"
	"label,benchmark,operation,value are required; unit, better (higher or\n"
	"lower, default lower), decimals and iteration are optional. Each label\n"
	"becomes a run; rows in file order define the operation order; the\n"
	"iteration column groups a benchmark's samples into iterations.\n"
	"\n"
	"Results of other tools (--from names the format; without it, a file\n"
	"whose content is unmistakably one of the first three is read as such):\n"
	"hyperfine  hyperfine --export-json: each command a label\n"
	"gobench    Go benchmark text (go test -bench, benchstat's input):\n"
	"           each file a label, named after the file\n"
	"pyperf     pyperf JSON (also .json.gz): each file a label\n"
	"mmtests    an mmtests work/log directory or one run's directory below\n"
	"           it (work/log/RUN): each RUN a label, its iter-N directories\n"
	"           its iterations (docs/import-mmtests.md)\n"
	"--label-by KEY takes the label from the value of parameter KEY\n"
	"(hyperfine), configuration key KEY (gobench) or metadata KEY (pyperf).\n"
	"A file imported again is skipped, as a JSON export is. Files\n"
	"compressed with gzip are read, whatever their format.\n"
	"\n"
	"A new run whose label has other runs in the database already is\n"
	"refused unless --append or --label-prefix makes way.\n"
	"\n"
	"A new run whose label has results for one of its benchmarks in the\n"
	"database already is refused unless --append or --label-prefix makes\n"
	"way; runs of other benchmarks merge under the same label.\n";

struct import_args {
	const char *prefix;
	const char *from_name;		  /* --from */
	const struct import_format *from; /* its format, or NULL */
	const char *label_by;
	bool append;
	char **files; /* in argv */
	size_t files_nr;
};

static const struct cmd_option import_option_table[] = {
	OPT_STRING("label-prefix", 0, struct import_args, prefix, "PREFIX",
		   "prepend PREFIX to every imported label"),
	OPT_FLAG("append", 0, struct import_args, append, true,
		 "add runs to labels that already have results"),
	OPT_STRING(
		"from", 0, struct import_args, from_name, "FORMAT",
		"read the files as FORMAT: hyperfine, gobench, pyperf or mmtests"),
	OPT_STRING("label-by", 0, struct import_args, label_by, "KEY",
		   "the label of a result is the value of KEY"),
	OPT_END(),
};

struct import_state {
	const struct import_args *a;
	struct store *st;
	struct strvec skipped; /* warnings, printed once committed */
	bool bad_input;	       /* a label clash: exit 2 */
};

/* The largest file read: CSV's; JSON has a lower limit of its own. */
#define IMPORT_MAX_BYTES ((size_t)1 << 30)

static int read_file(const char *path, struct strbuf *sb, struct strbuf *err)
{
	char buf[65536];
	size_t n;
	FILE *f = fopen(path, "rb");

	if (!f)
		return error_addf(err, "cannot open '%s': %s", path,
				  strerror(errno));
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		if (sb->len + n > IMPORT_MAX_BYTES) {
			fclose(f);
			return error_addf(err,
					  "%s: too large (more than %zu bytes)",
					  path, IMPORT_MAX_BYTES);
		}
		strbuf_add(sb, buf, n);
	}
	if (ferror(f)) {
		fclose(f);
		return error_addf(err, "cannot read '%s': %s", path,
				  strerror(errno));
	}
	fclose(f);
	return 0;
}

/* JSON by extension, else by a first character of '{'. */
static bool is_json(const char *path, const struct strbuf *buf)
{
	size_t len = strlen(path), i = 0;

	if (len >= 5 && !strcmp(path + len - 5, ".json"))
		return true;
	if (len >= 4 && !strcmp(path + len - 4, ".csv"))
		return false;
	if (buf->len >= 3 && !memcmp(buf->buf, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < buf->len && isspace((unsigned char)buf->buf[i]))
		i++;
	return i < buf->len && buf->buf[i] == '{';
}

/* The runs of a CSV file, with the metadata an import has. */
static int csv_runs(const char *path, const struct strbuf *buf,
		    struct run_full **out, size_t *out_nr, struct strbuf *err)
{
	struct run_data *runs = NULL;
	size_t nr = 0;
	char uuid[37], now[32];
	int ret = -1;

	if (csv_parse(path, buf->buf, buf->len, &runs, &nr, err))
		goto out;
	machine_utc_now(now);
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
	csv_runs_free(runs, nr);
	return ret;
}

/*
 * Store the runs of one file: skip those already stored, refuse a label
 * whose other runs have results for a benchmark of the new run (but not
 * one that an earlier run of this file brought), prefix the labels. A
 * label's runs of other benchmarks are no clash: the results of two
 * benchmarks on one kernel merge under one label.
 */
static int store_runs(struct import_state *s, const char *path,
		      struct run_full *runs, size_t nr, struct strbuf *err)
{
	struct strmap mine = STRMAP_INIT;
	struct strbuf label = STRBUF_INIT;
	int ret = -1;

	for (size_t i = 0; i < nr; i++) {
		struct run_info *ri = &runs[i].info;
		int64_t *ids = NULL;
		size_t n = 0;
		bool exists = false;

		if (store_uuid_exists(s->st, ri->uuid, &exists, err))
			goto out;
		if (exists) {
			struct strbuf note = STRBUF_INIT;

			strbuf_addf(
				&note,
				"%s: run %s ('%s') is in the database already; skipped",
				path, ri->uuid, ri->label);
			strvec_push(&s->skipped, note.buf);
			strbuf_release(&note);
			continue;
		}
		strbuf_reset(&label);
		strbuf_addf(&label, "%s%s", s->a->prefix ? s->a->prefix : "",
			    ri->label);
		/* Every importer's names, prefixed, obey names.h's limits. */
		{
			const struct run_full *rf = &runs[i];
			struct strbuf why = STRBUF_INIT;
			bool bad = names_check(NAME_LABEL, label.buf, &why);

			for (size_t o = 0; !bad && o < rf->ops_nr; o++)
				bad = names_check(NAME_BENCHMARK,
						  rf->ops[o].benchmark, &why) ||
				      names_check(NAME_OPERATION,
						  rf->ops[o].name, &why) ||
				      names_check(NAME_UNIT,
						  rf->ops[o].unit
							  ? rf->ops[o].unit
							  : "",
						  &why);
			for (size_t k = 0; !bad && k < rf->iters_nr; k++)
				bad = names_check(NAME_BENCHMARK,
						  rf->iters[k].benchmark, &why);
			if (bad) {
				s->bad_input = true;
				error_addf(err, "%s: %s", path, why.buf);
			}
			strbuf_release(&why);
			if (bad)
				goto out;
		}
		if (!strmap_get(&mine, label.buf, label.len, NULL)) {
			const struct op_samples *ops = runs[i].ops;
			const char *clash = NULL;

			if (store_find_runs(s->st, label.buf, &ids, &n, err))
				goto out;
			for (size_t k = 0; k < n && !s->a->append && !clash;
			     k++) {
				for (size_t o = 0; o < runs[i].ops_nr && !clash;
				     o++) {
					struct run_data rd = {0};

					if (o && ops[o - 1].benchmark &&
					    !strcmp(ops[o].benchmark,
						    ops[o - 1].benchmark))
						continue;
					if (store_load_run(s->st, ids[k],
							   ops[o].benchmark,
							   &rd, err)) {
						free(ids);
						goto out;
					}
					if (rd.ops_nr)
						clash = ops[o].benchmark;
					run_data_release(&rd);
				}
			}
			free(ids);
			if (clash) {
				s->bad_input = true;
				error_addf(
					err,
					"%s: label '%s' already has results; use --append or --label-prefix (both have benchmark '%s')",
					path, label.buf, clash);
				goto out;
			}
			strmap_put(&mine, label.buf, label.len, 0);
		}
		free(ri->label);
		ri->label = xstrdup(label.buf);
		if (store_run_insert_full(s->st, &runs[i], err))
			goto out;
	}
	ret = 0;
out:
	strmap_clear(&mine);
	strbuf_release(&label);
	return ret;
}

/* The runs of one file, read and checked before the store is opened. */
struct import_file {
	const char *path;
	struct run_full *runs;
	size_t nr;
};

/*
 * A gzip file is decompressed first; then --from, or else a format that
 * recognises the content, reads it, and mmcmp's JSON and CSV the rest.
 */
static int read_runs(const struct import_args *a, struct import_file *f,
		     struct strbuf *err)
{
	struct strbuf buf = STRBUF_INIT, raw = STRBUF_INIT;
	const struct import_format *fmt = a->from;
	struct import_options o = {.label_by = a->label_by};
	char now[32];
	int ret = -1;

	if (fmt && fmt->parse_tree)
		return fmt->parse_tree(f->path, &f->runs, &f->nr, err);
	if (read_file(f->path, &buf, err))
		goto out;
	/*
	 * What a gzip file holds has the limits of an uncompressed file: a
	 * CSV 1 GiB, a JSON export less (json_import() checks it).
	 */
	if (import_is_gzip(buf.buf, buf.len)) {
		strbuf_add(&raw, buf.buf, buf.len);
		strbuf_reset(&buf);
		if (import_gunzip(f->path, raw.buf, raw.len, IMPORT_MAX_BYTES,
				  &buf, err))
			goto out;
	}
	if (!fmt)
		fmt = import_format_detect(f->path, buf.buf, buf.len);
	if (fmt) {
		machine_utc_now(now);
		o.started_at = now;
		if (fmt->parse(f->path, buf.buf, buf.len, &o, &f->runs, &f->nr,
			       err))
			goto out;
	} else if (a->label_by) {
		error_addf(
			err,
			"%s: --label-by needs a file of another tool (--from)",
			f->path);
		goto out;
	} else if (is_json(f->path, &buf)
			   ? json_import(f->path, buf.buf, buf.len, &f->runs,
					 &f->nr, err)
			   : csv_runs(f->path, &buf, &f->runs, &f->nr, err)) {
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&buf);
	strbuf_release(&raw);
	return ret;
}

/*
 * Read and check every file first, so that bad input leaves no trace,
 * not even a new database; then store them all in one transaction.
 */
static int import_files(struct import_state *s, struct import_file *files,
			size_t nr)
{
	struct strbuf err = STRBUF_INIT;
	int ret = 2;

	for (size_t i = 0; i < nr; i++) {
		if (read_runs(s->a, &files[i], &err)) {
			error("%s", err.buf);
			goto out;
		}
	}
	ret = 1;
	s->st = store_open(mmcmp_db_path(), &err);
	if (s->st && store_transient(s->st)) {
		ret = transient_db_error(&cmd_import);
		goto out;
	}
	if (!s->st || store_begin(s->st, &err)) {
		error("%s", err.buf);
		goto out;
	}
	for (size_t i = 0; i < nr; i++) {
		if (store_runs(s, files[i].path, files[i].runs, files[i].nr,
			       &err)) {
			store_rollback(s->st);
			error("%s", err.buf);
			ret = s->bad_input ? 2 : 1;
			goto out;
		}
	}
	if (store_commit(s->st, &err)) {
		error("%s", err.buf);
		goto out;
	}
	for (size_t i = 0; i < s->skipped.nr; i++)
		warning("%s", s->skipped.v[i]);
	ret = 0;
out:
	strbuf_release(&err);
	return ret;
}

static int import_main(int argc, char **argv)
{
	struct import_args a = {0};
	struct import_state s = {.a = &a, .skipped = STRVEC_INIT};
	struct import_file *files = NULL;
	int ret = 1;

	argc = parse_cmd_options(&cmd_import, argc, argv, &a);
	if (argc < 0)
		return 2;
	a.files = argv + 1;
	a.files_nr = (size_t)argc - 1;
	if (a.from_name && !(a.from = import_format_find(a.from_name))) {
		struct strbuf names = STRBUF_INIT;

		import_format_names(&names);
		ret = usage_error(&cmd_import, "unknown format '%s' (%s)",
				  a.from_name, names.buf);
		strbuf_release(&names);
		goto out;
	}
	if (!a.files_nr) {
		ret = usage_error(&cmd_import, "missing FILE");
		goto out;
	}
	files = xcalloc(a.files_nr, sizeof(*files));
	for (size_t i = 0; i < a.files_nr; i++)
		files[i].path = a.files[i];
	ret = import_files(&s, files, a.files_nr);
out:
	for (size_t i = 0; files && i < a.files_nr; i++)
		run_full_free_array(files[i].runs, files[i].nr);
	free(files);
	store_close(s.st);
	strvec_clear(&s.skipped);
	return ret;
}

const struct cmd cmd_import = {
	.name = "import",
	.summary = "import runs from mmcmp JSON exports and CSV files",
	.usage = import_usage,
	.options = import_option_table,
	.run = import_main,
};
