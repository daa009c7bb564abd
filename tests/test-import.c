/* Unit tests for import: the format table, gzip, the run builder. */
#include <stdlib.h>

#include "csv.h"
#include "test-files.h"
#include "test-import.h"
#include "util.h"

#define DIR "data/import/"

/*
 * A gzip'd file is decompressed whole up to the limit it is given, which
 * is the limit of what it holds (mmcmp import gives CSV's 1 GiB, above
 * JSON's 128 MiB), and then read as what it holds: the
 * same case at 1 MiB, 1 MiB of empty lines, instead of 129 MiB.
 */
static void test_gunzip_limit(void)
{
	struct strbuf gz = STRBUF_INIT, out = STRBUF_INIT, err = STRBUF_INIT;
	const size_t size = (size_t)1 << 20;
	struct run_data *runs = NULL;
	size_t nr = 0, lines = 0;

	read_file("data/gzip/empty-lines.csv.gz", &gz);
	ok(gz.len < 4096, "1 MiB of empty lines in %zu bytes", gz.len);
	ok(!import_gunzip("big.csv.gz", gz.buf, gz.len, size, &out, NULL, &err),
	   "decompressed whole at a limit of its size");
	for (size_t i = 0; i < out.len; i++)
		lines += out.buf[i] == '\n';
	ok(out.len == size && lines == size, "all of it: %zu bytes", out.len);
	ok(csv_parse("big.csv.gz", out.buf, out.len, &runs, &nr, &err) == -1,
	   "is no CSV");
	is_str(err.buf, "big.csv.gz: empty file, no header",
	       "read whole, as the CSV it holds");
	csv_runs_free(runs, nr);
	strbuf_reset(&out);
	strbuf_reset(&err);
	ok(import_gunzip("big.csv.gz", gz.buf, gz.len, size - 1, &out, NULL,
			 &err) == -1,
	   "a byte less of limit fails");
	is_str(err.buf,
	       "big.csv.gz: too large (more than 1048575 bytes uncompressed)",
	       "and says so");
	strbuf_release(&gz);
	strbuf_release(&out);
	strbuf_release(&err);
}

static const struct {
	const char *file, *want;
} detect_cases[] = {
	{"hyperfine-commands.json", "hyperfine"},
	{"hyperfine-matrix.json", "hyperfine"},
	{"pyperf-py311.json", "pyperf"},
	{"gobench-base.txt", "gobench"},
	{"../mmtests/wis-improve.csv", "csv"}, /* mmcmp's own: last */
	{"../../golden/export.json", "json"},
};

static void test_table(void)
{
	struct strbuf names = STRBUF_INIT;

	import_format_names(&names);
	is_str(names.buf, "hyperfine, gobench, pyperf, mmtests",
	       "the format names");
	ok(import_format_find("gobench") == &import_gobench,
	   "find a format by name");
	ok(!import_format_find("csv"), "an unknown name finds nothing");
	for (size_t i = 0; i < ARRAY_SIZE(detect_cases); i++) {
		struct strbuf in = STRBUF_INIT, path = STRBUF_INIT;
		const struct import_format *f;

		strbuf_addf(&path, DIR "%s", detect_cases[i].file);
		read_file(path.buf, &in);
		f = import_format_detect(path.buf, in.buf, in.len);
		is_str(f ? f->name : NULL, detect_cases[i].want, "detect %s",
		       detect_cases[i].file);
		strbuf_release(&in);
		strbuf_release(&path);
	}
	strbuf_release(&names);
}

static void test_gunzip(void)
{
	struct strbuf gz = STRBUF_INIT, two = STRBUF_INIT;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	size_t one;

	read_file(DIR "pyperf-py312.json.gz", &gz);
	ok(!import_gunzip("p.gz", gz.buf, gz.len, 1 << 20, &out, NULL, &err),
	   "gunzip a file");
	one = out.len;
	ok(one > 100 && !strncmp(out.buf, "{\"benchmarks\":", 14) &&
		   out.buf[one - 1] == '\n',
	   "to the JSON that was compressed");
	strbuf_add(&two, gz.buf, gz.len);
	strbuf_add(&two, gz.buf, gz.len);
	strbuf_reset(&out);
	ok(!import_gunzip("p.gz", two.buf, two.len, 1 << 20, &out, NULL,
			  &err) &&
		   out.len == 2 * one,
	   "every member of a file (RFC 1952 2.2)");
	strbuf_reset(&out);
	ok(import_gunzip("p.gz", gz.buf, gz.len - 9, 1 << 20, &out, NULL,
			 &err) == -1 &&
		   !out.len,
	   "a cut file fails and adds nothing");
	is_str(err.buf, "p.gz: the gzip data ends early (truncated?)",
	       "and says so");
	strbuf_reset(&err);
	gz.buf[3] = (char)0xe0; /* reserved flag bits */
	ok(import_gunzip("p.gz", gz.buf, gz.len, 1 << 20, &out, NULL, &err) ==
		   -1,
	   "a bad header fails");
	ok(!strncmp(err.buf, "p.gz: corrupt gzip data", 23), "corrupt: %s",
	   err.buf);
	strbuf_reset(&err);
	ok(import_gunzip("p.gz", two.buf, two.len, one, &out, NULL, &err) == -1,
	   "more than the limit fails");
	is_str(err.buf, "p.gz: too large (more than 2331 bytes uncompressed)",
	       "and says so");
	ok(!import_is_gzip("{}", 2) && import_is_gzip(two.buf, two.len),
	   "gzip is known by its magic bytes");
	strbuf_release(&gz);
	strbuf_release(&two);
	strbuf_release(&out);
	strbuf_release(&err);
}

static const struct {
	const char *path, *want;
} label_cases[] = {
	{"old.txt", "old"},	{"r/old.json.gz", "old"}, {"a.b.txt", "a.b"},
	{"dir.d/base", "base"}, {".hidden", ".hidden"},	  {"x.gz", "x"},
};

static void test_file_label(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(label_cases); i++) {
		char *got = import_file_label(label_cases[i].path);

		is_str(got, label_cases[i].want, "label of %s",
		       label_cases[i].path);
		free(got);
	}
}

/* A second import of the same file gives the same uuids. */
static void test_uuids(void)
{
	static const char a[] = "BenchmarkX 1 1 u\n";
	static const char b[] = "BenchmarkX 1 2 u\n";
	struct run_full *r1 = NULL, *r2 = NULL, *r3 = NULL, *r4 = NULL;
	size_t n1 = 0, n2 = 0, n3 = 0, n4 = 0;
	struct strbuf err = STRBUF_INIT;

	test_parse(&import_gobench, "a.txt", a, NULL, &r1, &n1, &err);
	test_parse(&import_gobench, "a.txt", a, NULL, &r2, &n2, &err);
	test_parse(&import_gobench, "a.txt", b, NULL, &r3, &n3, &err);
	test_parse(&import_gobench, "c.txt", a, NULL, &r4, &n4, &err);
	if (ok(n1 == 1 && n2 == 1 && n3 == 1 && n4 == 1, "uuids: all parse")) {
		const char *u = r1->info.uuid;

		is_str(r2->info.uuid, u, "the same file, the same uuid");
		ok(strcmp(r3->info.uuid, u) != 0, "other content, another");
		ok(strcmp(r4->info.uuid, u) != 0, "another label, another");
		ok(strlen(u) == 36 && u[14] == '8' && strchr("89ab", u[19]),
		   "a version 8 UUID: %s", u);
	}
	run_full_free_array(r1, n1);
	run_full_free_array(r2, n2);
	run_full_free_array(r3, n3);
	run_full_free_array(r4, n4);
	strbuf_release(&err);
}

static void test_names(void)
{
	static const struct {
		const char *s, *why;
	} cases[] = {
		{"ok", NULL},
		{"", "empty"},
		{"\xc3\x28", "not UTF-8"},
	};
	struct strbuf long_name = STRBUF_INIT;
	const char *why;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		why = NULL;
		ok(import_name_ok(cases[i].s, &why) == !cases[i].why,
		   "name ok: case %zu", i);
		is_str(why, cases[i].why, "name ok: reason %zu", i);
	}
	strbuf_addchars(&long_name, 'x', 4097);
	ok(!import_name_ok(long_name.buf, &why), "4097 bytes are too long");
	strbuf_setlen(&long_name, 4096);
	ok(import_name_ok(long_name.buf, &why), "4096 bytes are not");
	strbuf_release(&long_name);
}

int main(void)
{
	test_table();
	test_gunzip();
	test_gunzip_limit();
	test_file_label();
	test_uuids();
	test_names();
	done_testing();
	return exit_status();
}
