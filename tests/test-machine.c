/*
 * Unit tests for machine: the parsing of sysfs choice files, and that
 * machine_info_read() fills in what this machine offers (each fact is
 * checked against the file it comes from, when that exists).
 */
#include <stdlib.h>
#include <unistd.h>

#include "tap.h"
#include "test-files.h"
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

int main(void)
{
	test_choices();
	test_read();
	done_testing();
	return exit_status();
}
