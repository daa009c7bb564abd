/*
 * Unit tests for machine: the parsing of sysfs choice files, that
 * machine_info_read() fills in what this machine offers (each fact is
 * checked against the file it comes from, when that exists), and the
 * field table: it covers struct machine_info, its orders are complete,
 * every fact round-trips through a JSON export alone, and `mmcmp show`'s
 * lines of a known and an unknown machine.
 */
#include <stdalign.h>
#include <stdlib.h>
#include <unistd.h>

#include "tap.h"
#include "test-files.h"
#include "json.h"
#include "machine.h"
#include "run-data.h"
#include "strbuf.h"

static const struct {
	const char *text, *want;
} choices[] = {
	{"always [madvise] never\n", "madvise"},
	{"[always] madvise never", "always"},
	{"always defer defer+madvise [madvise] never\n", "madvise"},
	{"always defer [defer+madvise] madvise never\n", "defer+madvise"},
	{"performance\n", "performance"},
	{"  notsupported \n", "notsupported"},
	{"1\n", "1"},
	{"a [] b\n", "a [] b"},
	{"never [\n", "never ["},
	{"", NULL},
	{" \n\t", NULL},
};

static void test_choices(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(choices); i++) {
		char *got = machine_sysfs_choice(choices[i].text);

		is_str(got, choices[i].want, "choice %zu", i);
		free(got);
	}
}

/* The choice in path, or NULL when it cannot be read. */
static char *file_choice(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *choice = NULL;
	FILE *f = fopen(path, "r");

	if (f) {
		fclose(f);
		if (read_file(path, &sb))
			choice = machine_sysfs_choice(sb.buf);
	}
	strbuf_release(&sb);
	return choice;
}

static void test_read(void)
{
	static const struct {
		const char *path;
		size_t offset;
	} facts[] = {
		{"/sys/kernel/mm/transparent_hugepage/enabled",
		 offsetof(struct machine_info, thp_enabled)},
		{"/sys/kernel/mm/transparent_hugepage/defrag",
		 offsetof(struct machine_info, thp_defrag)},
		{"/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
		 offsetof(struct machine_info, cpufreq_governor)},
	};
	struct machine_info m = {0};

	machine_info_read(&m);
	ok(m.kernel_release && *m.kernel_release, "kernel release read");
	for (size_t i = 0; i < ARRAY_SIZE(facts); i++) {
		char *want = file_choice(facts[i].path);
		char *got = *(char **)((char *)&m + facts[i].offset);

		is_str(got, want, "%s", facts[i].path);
		free(want);
	}
	ok(access("/sys/devices/system/node/node0", F_OK) ? m.numa_nodes == 0
							  : m.numa_nodes >= 1,
	   "NUMA nodes: %" PRId64, m.numa_nodes);
	ok(!m.smt || !strcmp(m.smt, "on") || !strcmp(m.smt, "off") ||
		   !strcmp(m.smt, "forceoff") ||
		   !strcmp(m.smt, "notsupported") ||
		   !strcmp(m.smt, "notimplemented"),
	   "SMT: %s", m.smt ? m.smt : "unknown");
	ok(!m.cgroup_mode || !strcmp(m.cgroup_mode, "v1") ||
		   !strcmp(m.cgroup_mode, "v2") ||
		   !strcmp(m.cgroup_mode, "hybrid"),
	   "cgroup layout: %s", m.cgroup_mode ? m.cgroup_mode : "unknown");
	ok(!m.kernel_config_sha256 || strlen(m.kernel_config_sha256) == 64,
	   "kernel config hash: %s",
	   m.kernel_config_sha256 ? m.kernel_config_sha256 : "unknown");
	machine_info_release(&m);
}

static size_t field_size(const struct machine_field *f)
{
	return f->kind == MACHINE_INT ? sizeof(int64_t) : sizeof(char *);
}

static size_t field_align(const struct machine_field *f)
{
	return f->kind == MACHINE_INT ? alignof(int64_t) : alignof(char *);
}

/*
 * The table's members tile struct machine_info: sorted by offset, each
 * starts where the one before ends (up to its alignment) and the last
 * ends the struct, so a member missing from the table leaves a gap.
 */
static void test_table_covers_struct(void)
{
	size_t end = 0, covered = 0;
	bool tiled = true;

	for (size_t n = 0; n < machine_fields_nr; n++) {
		const struct machine_field *next = NULL;

		/* The field with the smallest offset at or after end. */
		for (size_t i = 0; i < machine_fields_nr; i++) {
			const struct machine_field *f = &machine_fields[i];

			if (f->offset >= end &&
			    (!next || f->offset < next->offset))
				next = f;
		}
		if (!next || next->offset - end >= field_align(next)) {
			diag("a gap at offset %zu", end);
			tiled = false;
			break;
		}
		end = next->offset + field_size(next);
		covered++;
	}
	ok(tiled && covered == machine_fields_nr &&
		   sizeof(struct machine_info) - end <
			   alignof(struct machine_info),
	   "the %zu fields cover struct machine_info (%zu of %zu bytes)",
	   machine_fields_nr, end, sizeof(struct machine_info));
}

/* Names unique; show's and compare's places each taken once, from 1. */
static void test_table_orders(void)
{
	size_t shown = 0, compared = 0;
	bool names = true, kinds = true;

	for (size_t i = 0; i < machine_fields_nr; i++) {
		const struct machine_field *f = &machine_fields[i];

		for (size_t k = 0; k < i; k++)
			names &= strcmp(f->name, machine_fields[k].name) != 0;
		kinds &= f->kind != MACHINE_INT || f->max > 0;
		kinds &= f->kind != MACHINE_CHOICE || f->choices;
		kinds &= f->show.label ? !f->show.join : f->show.join != NULL;
		shown += f->show.pos > 0;
		compared += f->compare_pos > 0;
	}
	ok(names, "field names are unique");
	ok(kinds, "numbers have a maximum, choices a list, show a label or "
		  "a join");
	for (unsigned pos = 1; pos <= machine_fields_nr; pos++) {
		const struct machine_field *f = machine_field_show(pos);

		if (!ok(f != NULL, "show place %u is taken", pos))
			continue;
		for (size_t i = 0; i < machine_fields_nr; i++) {
			if (&machine_fields[i] != f &&
			    machine_fields[i].show.pos == pos)
				ok(false, "show place %u taken twice", pos);
		}
	}
	ok(shown == machine_fields_nr && machine_field_show(1)->show.label,
	   "every field is shown, the first with a label");
	for (unsigned pos = 1; pos <= compared; pos++)
		ok(machine_field_compare(pos) != NULL, "compare place %u", pos);
	ok(!machine_field_compare((unsigned)compared + 1) &&
		   !machine_field_compare(0) && !machine_field_show(0),
	   "nothing beyond the places");
}

/* A valid value for field i: distinct from every other field's. */
static void set_field(const struct machine_field *f, size_t i,
		      struct machine_info *m)
{
	struct strbuf sb = STRBUF_INIT;

	switch (f->kind) {
	case MACHINE_INT:
		*machine_field_int_at(f, m) = (int64_t)i + 2;
		return;
	case MACHINE_SHA256:
		for (size_t k = 0; k < 64; k++)
			strbuf_addch(&sb, "0123456789abcdef"[(i + k) % 16]);
		break;
	case MACHINE_CHOICE:
		/* The last choice: not the first, which a zeroed read might be.
		 */
		for (size_t k = 0; f->choices[k]; k++) {
			strbuf_reset(&sb);
			strbuf_addstr(&sb, f->choices[k]);
		}
		break;
	case MACHINE_STRING:
	case MACHINE_TEXT:
		strbuf_addf(&sb, "%s value %zu", f->name, i);
		break;
	}
	*machine_field_str_at(f, m) = strbuf_detach(&sb, NULL);
}

/* Export a run whose machine is m, import it back into *back. */
static bool json_round_trip(const struct machine_info *m,
			    struct machine_info *back)
{
	struct run_full rf = {0}, *runs = NULL;
	struct json_export *je = json_export_new();
	struct strbuf doc = STRBUF_INIT, err = STRBUF_INIT;
	size_t nr = 0;
	bool ret = false;

	rf.info.uuid = xstrdup("0f1e2d3c-4b5a-4697-8877-665544332211");
	rf.info.label = xstrdup("base");
	rf.info.status = xstrdup("complete");
	rf.info.started_at = xstrdup("2024-05-01T10:00:00Z");
	rf.info.machine = *m; /* borrowed: not released below */
	json_export_add_run(je, &rf);
	json_export_finish(je, &doc);
	json_export_free(je);
	memset(&rf.info.machine, 0, sizeof(rf.info.machine));
	run_info_release(&rf.info);
	if (json_import("t.json", doc.buf, doc.len, &runs, &nr, &err) ||
	    nr != 1) {
		diag("%s", err.buf);
		goto out;
	}
	*back = runs[0].info.machine;
	memset(&runs[0].info.machine, 0, sizeof(runs[0].info.machine));
	ret = true;
out:
	run_full_free_array(runs, nr);
	strbuf_release(&doc);
	strbuf_release(&err);
	return ret;
}

/* Whether field f of a and b hold the same value. */
static bool field_equal(const struct machine_field *f,
			const struct machine_info *a,
			const struct machine_info *b)
{
	if (f->kind == MACHINE_INT)
		return machine_field_int(f, a) == machine_field_int(f, b);
	return tap_str_eq(machine_field_str(f, a), machine_field_str(f, b));
}

/*
 * Each fact set alone comes back from a JSON export with its value, and
 * leaves every other fact unknown: the writer and the reader both take
 * it from the table, under its own name.
 */
static void test_json_round_trip(void)
{
	struct machine_info all = {0};

	for (size_t i = 0; i < machine_fields_nr; i++) {
		const struct machine_field *f = &machine_fields[i];
		struct machine_info one = {0}, back = {0};
		bool same;

		set_field(f, i, &one);
		set_field(f, i, &all);
		same = json_round_trip(&one, &back);
		for (size_t k = 0; same && k < machine_fields_nr; k++)
			same = field_equal(&machine_fields[k], &one, &back);
		ok(same, "%s alone round-trips through JSON", f->name);
		machine_info_release(&one);
		machine_info_release(&back);
	}
	{
		struct machine_info back = {0};
		bool same = json_round_trip(&all, &back);

		for (size_t k = 0; same && k < machine_fields_nr; k++)
			same = field_equal(&machine_fields[k], &all, &back);
		ok(same, "all facts round-trip through JSON");
		machine_info_release(&back);
	}
	machine_info_release(&all);
}

/* `mmcmp show`'s lines, as the hand-written printf()s gave them. */
static void test_show(void)
{
	struct machine_info m = {
		.hostname = xstrdup("host-a"),
		.kernel_release = xstrdup("6.9.0"),
		.kernel_version = xstrdup("#1 SMP"),
		.cmdline = xstrdup("ro quiet"),
		.cpu_model = xstrdup("Example CPU"),
		.nr_cpus = 8,
		.mem_bytes = INT64_C(17179869184),
		.thp_enabled = xstrdup("always"),
		.thp_defrag = xstrdup("madvise"),
		.cpufreq_governor = xstrdup("performance"),
		.numa_nodes = 2,
		.smt = xstrdup("on"),
		.cgroup_mode = xstrdup("v2"),
		.kernel_config_sha256 = xstrdup("c58b"),
	};
	struct machine_info none = {.nr_cpus = 0, .numa_nodes = 1};
	struct strbuf sb = STRBUF_INIT;

	machine_info_show(&m, &sb);
	is_str(sb.buf,
	       "  host:      host-a\n"
	       "  kernel:    6.9.0 #1 SMP\n"
	       "  cmdline:   ro quiet\n"
	       "  cpu:       Example CPU, 8 CPUs\n"
	       "  memory:    16384 MiB\n"
	       "  thp:       always, defrag madvise\n"
	       "  cpufreq:   performance\n"
	       "  numa:      2 nodes\n"
	       "  smt:       on\n"
	       "  cgroups:   v2\n"
	       "  kconfig:   c58b\n",
	       "show: a known machine");
	strbuf_reset(&sb);
	machine_info_show(&none, &sb);
	is_str(sb.buf,
	       "  host:      -\n"
	       "  kernel:    - \n"
	       "  cmdline:   -\n"
	       "  cpu:       -, 0 CPUs\n"
	       "  memory:    0 MiB\n"
	       "  thp:       -, defrag -\n"
	       "  cpufreq:   -\n"
	       "  numa:      1 node\n"
	       "  smt:       -\n"
	       "  cgroups:   -\n"
	       "  kconfig:   -\n",
	       "show: an unknown machine, one NUMA node");
	strbuf_reset(&sb);
	none.numa_nodes = 0;
	machine_info_show(&none, &sb);
	ok(strstr(sb.buf, "\n  numa:      -\n") != NULL, "show: NUMA unknown");
	strbuf_release(&sb);
	machine_info_release(&m);
}

/* What compare lists: known values only, numbers in decimal. */
static void test_text(void)
{
	static const struct {
		const char *name;
		const char *str;  /* a string field's value */
		int64_t num;	  /* a number field's */
		const char *want; /* NULL: unknown */
	} cases[] = {
		{"hostname", "a", 0, "a"},   {"hostname", "", 0, NULL},
		{"hostname", NULL, 0, NULL}, {"nr_cpus", NULL, 16, "16"},
		{"nr_cpus", NULL, 0, NULL},  {"nr_cpus", NULL, -1, NULL},
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct machine_field *f = NULL;
		struct machine_info m = {0};
		struct strbuf sb = STRBUF_INIT;
		bool known;

		for (size_t k = 0; k < machine_fields_nr; k++) {
			if (!strcmp(machine_fields[k].name, cases[i].name))
				f = &machine_fields[k];
		}
		ok(f != NULL, "text %zu: field %s", i, cases[i].name);
		if (!f)
			continue;
		if (f->kind == MACHINE_INT)
			*machine_field_int_at(f, &m) = cases[i].num;
		else if (cases[i].str)
			*machine_field_str_at(f, &m) = xstrdup(cases[i].str);
		known = machine_field_text(f, &m, &sb);
		is_str(known ? sb.buf : NULL, cases[i].want, "text %zu", i);
		ok(known || !sb.len, "text %zu: nothing appended", i);
		strbuf_release(&sb);
		machine_info_release(&m);
	}
}

int main(void)
{
	test_choices();
	test_read();
	test_table_covers_struct();
	test_table_orders();
	test_json_round_trip();
	test_show();
	test_text();
	done_testing();
	return exit_status();
}
