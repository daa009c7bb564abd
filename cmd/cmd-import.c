/* mmcmp import: samples from other tools and machines into the database. */
#include "cmd.h"

#include "csv.h"
#include "machine.h"
#include "mmcmp-version.h"
#include "run-data.h"
#include "sha256.h"
#include "store.h"
#include "strbuf.h"
#include "uuid.h"

static const char import_usage[] =
	"usage: mmcmp import [--label-prefix PREFIX] [--append] FILE...\n"
	"\n"
	"Import samples into the database, all files in one transaction: a bad\n"
	"row anywhere imports nothing.\n"
	"\n"
	"CSV files (*.csv) name their columns in the first row:\n"
	"label,benchmark,operation,value are required; unit, better (higher or\n"
	"lower, default lower), decimals and iteration are optional. Each label\n"
	"becomes a run; rows in file order define the operation order.\n"
	"\n"
	"Options:\n"
	"  --label-prefix PREFIX  prepend PREFIX to every imported label\n"
	"  --append               add runs to labels that already have results\n";

struct import_args {
	const char *prefix;
	bool append;
	const char **files;
	size_t files_nr;
};

static int read_file(const char *path, struct strbuf *sb, struct strbuf *err)
{
	char buf[65536];
	size_t n;
	FILE *f = fopen(path, "rb");

	if (!f)
		return error_addf(err, "cannot open '%s': %s", path,
				  strerror(errno));
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(sb, buf, n);
	if (ferror(f)) {
		fclose(f);
		return error_addf(err, "cannot read '%s': %s", path,
				  strerror(errno));
	}
	fclose(f);
	return 0;
}

/* Store one parsed run: a run row, its operations, one iteration per benchmark. */
static int store_run(struct store *st, const char *file, struct run_data *rd,
		     const char *label, struct strbuf *err)
{
	struct run_info ri = { 0 };
	char uuid[37], now[32], hash[65];
	struct sample_rec *samples = NULL;
	size_t nr = 0, alloc = 0;
	int64_t *op_ids = xcalloc(rd->ops_nr + 1, sizeof(*op_ids));
	int ret = -1;

	if (uuid_v4(uuid, err))
		goto out;
	machine_utc_now(now);
	sha256_hex("", 0, hash);
	ri.uuid = uuid;
	ri.label = (char *)label;
	ri.status = (char *)"complete";
	ri.config_name = (char *)file;
	ri.config_text = (char *)"";
	ri.config_hash = hash;
	ri.started_at = now;
	ri.ended_at = now;
	ri.mmcmp_version = (char *)MMCMP_VERSION;
	if (store_run_create(st, &ri, err))
		goto out;
	for (size_t i = 0; i < rd->ops_nr; i++) {
		const struct op_samples *op = &rd->ops[i];

		if (store_operation(st, ri.id, op->benchmark, op->name, op->unit,
				    op->higher_better, op->decimals, &op_ids[i],
				    err))
			goto out;
	}
	/* One iteration per benchmark, in the order of first appearance. */
	for (size_t i = 0; i < rd->ops_nr; i++) {
		const char *bench = rd->ops[i].benchmark;
		bool seen = false;
		struct iteration_rec it = {
			.run_id = ri.id,
			.benchmark = bench,
			.job = "import",
			.status = "ok",
			.started_at = now,
		};

		for (size_t k = 0; k < i && !seen; k++)
			seen = !strcmp(rd->ops[k].benchmark, bench);
		if (seen)
			continue;
		nr = 0;
		for (size_t k = i; k < rd->ops_nr; k++) {
			const struct op_samples *op = &rd->ops[k];

			if (strcmp(op->benchmark, bench))
				continue;
			ALLOC_GROW(samples, nr + op->nr, alloc);
			for (size_t s = 0; s < op->nr; s++) {
				samples[nr].op_id = op_ids[k];
				samples[nr++].value = op->v[s];
			}
		}
		if (store_iteration_add(st, &it, samples, nr, NULL, err))
			goto out;
	}
	ret = 0;
out:
	free(samples);
	free(op_ids);
	return ret;
}

static int import_csv(struct store *st, const struct import_args *a,
		      const char *path, struct strbuf *err, bool *bad_input)
{
	struct strbuf buf = STRBUF_INIT, label = STRBUF_INIT;
	struct run_data *runs = NULL;
	size_t nr = 0;
	int ret = -1;

	if (read_file(path, &buf, err)) {
		*bad_input = true;
		goto out;
	}
	if (csv_parse(path, buf.buf, buf.len, &runs, &nr, err)) {
		*bad_input = true;
		goto out;
	}
	for (size_t i = 0; i < nr; i++) {
		int64_t *ids = NULL;
		size_t n = 0;

		strbuf_reset(&label);
		strbuf_addf(&label, "%s%s", a->prefix ? a->prefix : "",
			    runs[i].info.label);
		if (store_find_runs(st, label.buf, &ids, &n, err))
			goto out;
		free(ids);
		if (n && !a->append) {
			*bad_input = true;
			error_addf(err,
				   "%s: label '%s' already has results; use --append or --label-prefix",
				   path, label.buf);
			goto out;
		}
		if (store_run(st, path, &runs[i], label.buf, err))
			goto out;
	}
	ret = 0;
out:
	csv_runs_free(runs, nr);
	strbuf_release(&buf);
	strbuf_release(&label);
	return ret;
}

static int import_main(int argc, char **argv)
{
	struct import_args a = { 0 };
	struct strbuf err = STRBUF_INIT;
	struct store *st = NULL;
	bool bad_input = false;
	int ret = 1;

	for (int i = 1; i < argc; i++) {
		const char *v;
		bool missing;

		if ((v = opt_value(argv, argc, &i, "--label-prefix", &missing))) {
			a.prefix = v;
		} else if (missing) {
			ret = usage_error(&cmd_import, "option '%s' needs a value",
					  argv[i]);
			goto out;
		} else if (!strcmp(argv[i], "--append")) {
			a.append = true;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			ret = usage_error(&cmd_import, "unknown option '%s'",
					  argv[i]);
			goto out;
		} else {
			a.files = xrealloc(a.files,
					   (a.files_nr + 1) * sizeof(*a.files));
			a.files[a.files_nr++] = argv[i];
		}
	}
	if (!a.files_nr) {
		ret = usage_error(&cmd_import, "missing FILE");
		goto out;
	}
	st = store_open(mmcmp_db_path(), &err);
	if (!st || store_begin(st, &err)) {
		error("%s", err.buf);
		goto out;
	}
	for (size_t i = 0; i < a.files_nr; i++) {
		if (import_csv(st, &a, a.files[i], &err, &bad_input)) {
			store_rollback(st);
			error("%s", err.buf);
			ret = bad_input ? 2 : 1;
			goto out;
		}
	}
	if (store_commit(st, &err)) {
		store_rollback(st);
		error("%s", err.buf);
		goto out;
	}
	ret = 0;
out:
	free(a.files);
	store_close(st);
	strbuf_release(&err);
	return ret;
}

const struct cmd cmd_import = {
	.name = "import",
	.summary = "import samples from CSV files",
	.usage = import_usage,
	.run = import_main,
};
