/* mmcmp import: runs from other machines and tools into the database. */
#include "cmd.h"

#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "machine.h"
#include "profile-script.h"
#include "run-data.h"
#include "store.h"
#include "strbuf.h"
#include "strvec.h"

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
	"--from perf-script --label L reads perf script text (of perf record\n"
	"-g) instead: each FILE one profile of a new run of L, benchmark perf\n"
	"(--benchmark NAME), for mmcmp explain and the report.\n"
	"\n"
	"A new run whose label has results for one of its benchmarks in the\n"
	"database already is refused unless --append or --label-prefix makes\n"
	"way; runs of other benchmarks merge under the same label.\n";

struct import_args {
	const char *prefix;
	const char *from_name;		  /* --from */
	const struct import_format *from; /* its format, or NULL */
	const char *label_by;
	const char *label, *benchmark; /* perf-script */
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
	OPT_STRING("label", 0, struct import_args, label, "L",
		   "perf-script: the label of the profiles"),
	OPT_STRING("benchmark", 0, struct import_args, benchmark, "NAME",
		   "perf-script: their benchmark (default perf)"),
	OPT_END(),
};

/*
 * Read and check every file first, so that bad input leaves no trace,
 * not even a new database; then store them all in one transaction.
 */
static int import_files(const struct import_args *a, struct store **st,
			struct import_file *files, size_t nr)
{
	struct strvec skipped = STRVEC_INIT, warnings = STRVEC_INIT;
	struct import_policy pol = {
		.prefix = a->prefix,
		.append = a->append,
		.skipped = &skipped,
	};
	struct strbuf err = STRBUF_INIT;
	int ret = 2;

	for (size_t i = 0; i < nr; i++) {
		if (import_file_read(&files[i], a->from, a->label_by, &warnings,
				     &err)) {
			error("%s", err.buf);
			goto out;
		}
		for (size_t k = 0; k < warnings.nr; k++)
			warning("%s", warnings.v[k]);
		strvec_clear(&warnings);
	}
	ret = 1;
	*st = store_open(mmcmp_db_path(), &err);
	if (*st && store_transient(*st)) {
		ret = transient_db_error(&cmd_import);
		goto out;
	}
	if (!*st || store_begin(*st, &err)) {
		error("%s", err.buf);
		goto out;
	}
	for (size_t i = 0; i < nr; i++) {
		if (import_store(*st, &pol, &files[i], &err)) {
			store_rollback(*st);
			error("%s", err.buf);
			ret = pol.bad_input ? 2 : 1;
			goto out;
		}
	}
	if (store_commit(*st, &err)) {
		error("%s", err.buf);
		goto out;
	}
	for (size_t i = 0; i < skipped.nr; i++)
		warning("%s", skipped.v[i]);
	ret = 0;
out:
	strvec_clear(&skipped);
	strvec_clear(&warnings);
	strbuf_release(&err);
	return ret;
}

/*
 * --from perf-script: fold every file first, so that bad input leaves
 * no trace (exit 2), then store them as one run's profiles.
 */
static int import_profiles(const struct import_args *a, struct store **st)
{
	struct profile_script_file *f = xcalloc(a->files_nr, sizeof(*f));
	struct strbuf *folded = xcalloc(a->files_nr, sizeof(*folded));
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
	const char *bench = a->benchmark ? a->benchmark : "perf", *why;
	char now[32];
	bool skipped = false, clash = false;
	int ret = 2;

	if (!import_name_ok(a->label, &why) || !import_name_ok(bench, &why)) {
		ret = usage_error(
			&cmd_import, "bad name '%s': %s",
			import_name_ok(a->label, &why) ? bench : a->label, why);
		goto out;
	}
	for (size_t i = 0; i < a->files_nr; i++) {
		strbuf_init(&folded[i], 0);
		f[i].path = a->files[i];
		strbuf_reset(&text);
		if (import_read_file(f[i].path, IMPORT_MAX_BYTES, &text,
				     &err) ||
		    profile_script_fold(f[i].path, text.buf, text.len,
					&folded[i], &f[i].samples, &err)) {
			error("%s", err.buf);
			goto out;
		}
		f[i].folded = folded[i].buf;
	}
	machine_utc_now(now);
	*st = store_open(mmcmp_db_path(), &err);
	if (*st && store_transient(*st)) {
		ret = transient_db_error(&cmd_import);
		goto out;
	}
	if (!*st || store_begin(*st, &err) ||
	    profile_script_import(*st, a->label, bench, a->append, f,
				  a->files_nr, now, &skipped, &clash, &err) ||
	    store_commit(*st, &err)) {
		if (*st)
			store_rollback(*st);
		ret = error("%s", err.buf);
		if (clash)
			ret = 2;
		goto out;
	}
	if (skipped)
		warning("these profiles of '%s' are in the database already: "
			"skipped",
			a->label);
	ret = 0;
out:
	for (size_t i = 0; i < a->files_nr; i++)
		strbuf_release(&folded[i]);
	free(folded);
	free(f);
	strbuf_release(&text);
	strbuf_release(&err);
	return ret;
}

static int import_main(int argc, char **argv)
{
	struct import_args a = {0};
	struct import_file *files = NULL;
	struct store *st = NULL;
	int ret = 1;

	argc = parse_cmd_options(&cmd_import, argc, argv, &a);
	if (argc < 0)
		return 2;
	a.files = argv + 1;
	a.files_nr = (size_t)argc - 1;
	if (a.from_name && !strcmp(a.from_name, "perf-script")) {
		if (!a.label || !a.files_nr)
			ret = usage_error(&cmd_import,
					  "--from perf-script needs "
					  "--label L and a FILE");
		else
			ret = import_profiles(&a, &st);
		goto out;
	}
	if (a.label || a.benchmark) {
		ret = usage_error(&cmd_import, "--label and --benchmark are "
					       "for --from perf-script");
		goto out;
	}
	if (a.from_name && !(a.from = import_format_find(a.from_name))) {
		struct strbuf names = STRBUF_INIT;

		import_format_names(&names);
		strbuf_addstr(&names, ", perf-script");
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
	ret = import_files(&a, &st, files, a.files_nr);
out:
	for (size_t i = 0; files && i < a.files_nr; i++)
		run_full_free_array(files[i].runs, files[i].nr);
	free(files);
	store_close(st);
	return ret;
}

const struct cmd cmd_import = {
	.name = "import",
	.summary = "import runs from mmcmp JSON exports and CSV files",
	.usage = import_usage,
	.options = import_option_table,
	.run = import_main,
};
