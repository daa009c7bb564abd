/*
 * Unit tests for compare-provenance: the warnings and notes of made-up
 * labels and runs, table-driven, including runs that booted kernels in
 * guests, which the CLI tests cannot make quickly.
 */
#include <string.h>

#include "tap.h"
#include "compare-provenance.h"
#include "json.h"
#include "run-data.h"
#include "strbuf.h"
#include "util.h"

#define MAX_LABELS  3
#define MAX_RUNS    2
#define MAX_OUT	    4
#define SHA_A	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define SHA_B	    "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
#define SHORT_SHA_A "aaaaaaaaaaaa"

/* One made-up run; NULL strings are unknown, a 0 pid a new process. */
struct fake_run {
	const char *thp, *release, *version;
	long pid;
	long iterations; /* of its setup; 0: no setup */
	const char *image_sha, *guest_cmdline, *guest_thp;
};

struct fake_label {
	const char *name;
	struct fake_run runs[MAX_RUNS];
	size_t nr;
};

/* clang-format off */
static const struct {
	const char *what;
	struct fake_label labels[MAX_LABELS];
	size_t nr;
	const char *warnings[MAX_OUT];
	const char *notes[MAX_OUT];
} cases[] = {
	{ "alike, separate processes: the same-kernel note only",
	  {{"base", {{"never", "6.1", "#1", 10, 5, NULL, NULL, NULL}}, 1},
	   {"new", {{"never", "6.1", "#1", 11, 5, NULL, NULL, NULL}}, 1}}, 2,
	  {NULL},
	  {"base and new ran the same kernel (6.1, one version and config): "
	   "was the machine rebooted into the kernel under test?"}},
	{ "one process (builds): no note",
	  {{"base", {{"never", "6.1", "#1", 10, 5, NULL, NULL, NULL}}, 1},
	   {"new", {{"never", "6.1", "#1", 10, 5, NULL, NULL, NULL}}, 1}}, 2,
	  {NULL}, {NULL}},
	{ "another kernel version: no note",
	  {{"base", {{"never", "6.1", "#1", 10, 5, NULL, NULL, NULL}}, 1},
	   {"new", {{"never", "6.1", "#2", 11, 5, NULL, NULL, NULL}}, 1}}, 2,
	  {NULL}, {NULL}},
	{ "THP and iterations differ; unknown THP is skipped",
	  {{"base", {{"always", "6.1", "#1", 10, 5, NULL, NULL, NULL}}, 1},
	   {"new", {{"never", "6.2", "#1", 11, 3, NULL, NULL, NULL}}, 1},
	   {"old", {{NULL, "6.3", "#1", 12, 0, NULL, NULL, NULL}}, 1}}, 3,
	  {"iterations: '5' in base, '3' in new",
	   "thp_enabled: 'always' in base, 'never' in new"},
	  {NULL}},
	{ "a label's own runs differ, kernel included; the first run speaks",
	  {{"base", {{"never", "6.1", "#1", 10, 5, NULL, NULL, NULL},
		     {"always", "6.2", "#1", 12, 5, NULL, NULL, NULL}}, 2},
	   {"new", {{"never", "6.3", "#1", 11, 5, NULL, NULL, NULL}}, 1}}, 2,
	  {"kernel_release within base: '6.1' in run 1, '6.2' in run 10",
	   "thp_enabled within base: 'never' in run 1, 'always' in run 10"},
	  {NULL}},
	{ "three labels, two alike: the note names the two",
	  {{"a", {{"never", "6.1", "#1", 10, 5, NULL, NULL, NULL}}, 1},
	   {"b", {{"never", "6.2", "#1", 11, 5, NULL, NULL, NULL}}, 1},
	   {"c", {{"never", "6.1", "#1", 12, 5, NULL, NULL, NULL}}, 1}}, 3,
	  {NULL},
	  {"a and c ran the same kernel (6.1, one version and config): "
	   "was the machine rebooted into the kernel under test?"}},
	{ "guests: the same image and command line",
	  {{"base", {{"never", "6.1", "#1", 10, 5, SHA_A, "quiet", "always"}}, 1},
	   {"new", {{"never", "6.1", "#1", 10, 5, SHA_A, "quiet", "always"}}, 1}}, 2,
	  {"base and new booted the same image (sha256 " SHORT_SHA_A
	   ") with the same command line"},
	  {NULL}},
	{ "guests: another command line, the guest's THP differs",
	  {{"base", {{"never", "6.1", "#1", 10, 5, SHA_A, "thp=always", "always"}}, 1},
	   {"new", {{"never", "6.1", "#1", 10, 5, SHA_A, "thp=never", "never"}}, 1}}, 2,
	  {"guest cmdline: 'thp=always' in base, 'thp=never' in new",
	   "guest thp_enabled: 'always' in base, 'never' in new"},
	  {NULL}},
	{ "guests: other images, host kernels alike: no note",
	  {{"base", {{"never", "6.1", "#1", 10, 5, SHA_A, "quiet", NULL}}, 1},
	   {"new", {{"never", "6.1", "#1", 11, 5, SHA_B, "quiet", NULL}}, 1}}, 2,
	  {NULL}, {NULL}},
};
/* clang-format on */

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static void fake_source(struct run_source *src, const struct fake_run *fr,
			int64_t id)
{
	struct machine_info *m = &src->info.machine;

	src->info.id = id;
	src->info.pid = fr->pid;
	src->info.pid_start = 1;
	src->iterations = 5;
	src->samples = 10;
	m->hostname = xstrdup("box");
	m->thp_enabled = dup_or_null(fr->thp);
	m->kernel_release = dup_or_null(fr->release);
	m->kernel_version = dup_or_null(fr->version);
	if (fr->iterations) {
		struct run_setup setup = {.iterations = fr->iterations};

		src->info.setup = run_setup_text(&setup);
	}
	if (fr->image_sha) {
		struct run_boot *b;

		src->boots = xcalloc(1, sizeof(*src->boots));
		src->boots_nr = src->boots_alloc = 1;
		b = &src->boots[0];
		b->number = 1;
		b->image = xstrdup("bzImage");
		b->image_sha256 = xstrdup(fr->image_sha);
		b->guest_release = xstrdup("6.9-guest");
		b->guest_cmdline = xstrdup(fr->guest_cmdline);
		b->has_guest = true;
		b->guest.cmdline = xstrdup(fr->guest_cmdline);
		b->guest.thp_enabled = dup_or_null(fr->guest_thp);
	}
}

static void check_lines(const char *what, const char *kind,
			const struct strvec *got, const char *const *want)
{
	size_t nr = 0;

	while (nr < MAX_OUT && want[nr])
		nr++;
	ok(got->nr == nr, "%s: %zu %s (got %zu)", what, nr, kind, got->nr);
	for (size_t i = 0; i < nr; i++)
		is_str(i < got->nr ? got->v[i] : NULL, want[i], "%s: %s %zu",
		       what, kind, i);
	for (size_t i = nr; i < got->nr; i++)
		diag("extra %s: %s", kind, got->v[i]);
}

static void test_cases(void)
{
	for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
		struct run_data runs[MAX_LABELS];
		char *labels[MAX_LABELS];
		struct compare_provenance *p;

		memset(runs, 0, sizeof(runs));
		/* Run ids: 1, 2, ... for the labels' first runs, 10 + i after.
		 */
		for (size_t i = 0; i < cases[c].nr; i++) {
			const struct fake_label *fl = &cases[c].labels[i];
			struct run_source *src =
				xcalloc(MAX_RUNS, sizeof(*src));

			labels[i] = (char *)fl->name;
			for (size_t r = 0; r < fl->nr; r++)
				fake_source(&src[r], &fl->runs[r],
					    (int64_t)(r ? 10 + i : 1 + i));
			runs[i].sources = src;
			runs[i].sources_nr = runs[i].sources_alloc = fl->nr;
		}
		p = compare_provenance_new(runs, labels, cases[c].nr);
		ok(p != NULL, "%s: a provenance", cases[c].what);
		if (p) {
			check_lines(cases[c].what, "warning", &p->warnings,
				    cases[c].warnings);
			check_lines(cases[c].what, "note", &p->notes,
				    cases[c].notes);
		}
		compare_provenance_free(p);
		for (size_t i = 0; i < cases[c].nr; i++)
			run_data_release(&runs[i]);
	}
}

/* The label's line: counts summed over its runs, facts of the first. */
static void test_label(void)
{
	struct run_data rd = {0};
	char name[] = "base", *label = name;
	struct compare_provenance *p;

	p = compare_provenance_new(&rd, &label, 1);
	ok(p == NULL, "no sources: no provenance");
	rd.sources = xcalloc(2, sizeof(*rd.sources));
	rd.sources_nr = rd.sources_alloc = 2;
	fake_source(&rd.sources[0], &cases[0].labels[0].runs[0], 1);
	fake_source(&rd.sources[1], &cases[6].labels[0].runs[0], 2);
	rd.sources[0].info.config_name = xstrdup("cfg");
	p = compare_provenance_new(&rd, &label, 1);
	if (!p) {
		ok(false, "label: a provenance");
		run_data_release(&rd);
		return;
	}
	ok(p->labels[0].runs == 2 && p->labels[0].iterations == 10 &&
		   p->labels[0].samples == 20,
	   "label: runs, iterations and samples summed");
	is_str(p->labels[0].kernel_release, "6.1", "label: kernel");
	is_str(p->labels[0].host, "box", "label: host");
	is_str(p->labels[0].config_name, "cfg", "label: config name");
	ok(p->labels[0].vm && p->labels[0].boots == 1 && p->has_vm,
	   "label: a boot makes it a guest label");
	compare_provenance_free(p);
	run_data_release(&rd);
}

/* Boots under TCG: a warning naming the label and how many boots. */
static void test_tcg(void)
{
	struct run_data runs[2];
	char *labels[2] = {(char *)"base", (char *)"new"};
	struct compare_provenance *p;
	static const char *const want[] = {
		"accel: tcg in new (1 of 2 boots): an emulated CPU, its "
		"timings are not the machine's",
		NULL,
	};

	memset(runs, 0, sizeof(runs));
	for (size_t i = 0; i < 2; i++) {
		runs[i].sources = xcalloc(1, sizeof(*runs[i].sources));
		runs[i].sources_nr = runs[i].sources_alloc = 1;
		fake_source(&runs[i].sources[0], &cases[8].labels[i].runs[0],
			    (int64_t)i + 1);
		runs[i].sources[0].boots[0].accel = xstrdup("kvm");
	}
	ALLOC_GROW(runs[1].sources[0].boots, 2, runs[1].sources[0].boots_alloc);
	memset(&runs[1].sources[0].boots[1], 0, sizeof(struct run_boot));
	runs[1].sources[0].boots[1].number = 2;
	runs[1].sources[0].boots[1].accel = xstrdup("tcg");
	runs[1].sources[0].boots_nr = 2;
	p = compare_provenance_new(runs, labels, 2);
	ok(p != NULL, "tcg: a provenance");
	if (p)
		check_lines("tcg", "warning", &p->warnings, want);
	compare_provenance_free(p);
	run_data_release(&runs[0]);
	run_data_release(&runs[1]);
}

int main(void)
{
	test_cases();
	test_label();
	test_tcg();
	done_testing();
	return exit_status();
}
