/*
 * Unit tests for cgroup: where a spec's cgroup goes on the layouts of
 * cgroup v2, v1 and hybrid machines (a fake statfs); cgroup-stat's
 * counters and gauges, formatted from fixture texts and read from a
 * directory made to look like a cgroup; and, where this
 * machine lets us, creating a nested cgroup with limits, running a
 * process in it and removing it with the process still there. Those
 * print why they are skipped otherwise.
 */
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "cgroup.h"
#include "cgroup-stat.h"
#include "config.h"
#include "run-dir.h"
#include "strbuf.h"
#include "strvec.h"

#define TMPFS_MAGIC 0x01021994UL

struct mount {
	const char *path;
	unsigned long type;
};

/* A machine's mounts; the list ends with { NULL }. */
static unsigned long fake_fs_type(const char *path, void *ctx)
{
	for (const struct mount *m = ctx; m->path; m++)
		if (!strcmp(m->path, path))
			return m->type;
	return 0;
}

static const struct mount v2_layout[] = {
	{"/sys/fs/cgroup", CGROUP_V2_MAGIC},
	{NULL, 0},
};

static const struct mount hybrid_layout[] = {
	{"/sys/fs/cgroup", TMPFS_MAGIC},
	{"/sys/fs/cgroup/unified", CGROUP_V2_MAGIC},
	{"/sys/fs/cgroup/memory", CGROUP_V1_MAGIC},
	{"/sys/fs/cgroup/cpu", CGROUP_V1_MAGIC},
	{NULL, 0},
};

static const struct mount v1_layout[] = {
	{"/sys/fs/cgroup", TMPFS_MAGIC},
	{"/sys/fs/cgroup/memory", CGROUP_V1_MAGIC},
	{"/other/v1", CGROUP_V1_MAGIC},
	{NULL, 0},
};

static const struct {
	const struct mount *layout;
	const char *root;	 /* spec->root, or NULL */
	const char *controllers; /* comma-separated, or "" */
	const char *want;	 /* "ROOT v2|v1; ...", or the error */
} plan_cases[] = {
	{v2_layout, NULL, "", "/sys/fs/cgroup v2"},
	{v2_layout, NULL, "memory,cpu", "/sys/fs/cgroup v2"},
	{hybrid_layout, NULL, "", "/sys/fs/cgroup/unified v2"},
	{hybrid_layout, NULL, "memory", "/sys/fs/cgroup/memory v1"},
	{hybrid_layout, NULL, "memory,cpu",
	 "/sys/fs/cgroup/memory v1; /sys/fs/cgroup/cpu v1"},
	{hybrid_layout, "/sys/fs/cgroup/unified", "memory",
	 "/sys/fs/cgroup/unified v2"},
	{hybrid_layout, NULL, "io",
	 "controller 'io' is not available: '/sys/fs/cgroup' is not cgroup "
	 "v2 and '/sys/fs/cgroup/io' is no cgroup v1 hierarchy"},
	{v1_layout, NULL, "",
	 "no cgroup v2 hierarchy at '/sys/fs/cgroup' or "
	 "'/sys/fs/cgroup/unified'; name a controller to use its cgroup v1 "
	 "hierarchy"},
	{v1_layout, NULL, "memory", "/sys/fs/cgroup/memory v1"},
	{v1_layout, "/other/v1", "", "/other/v1 v1"},
	{v1_layout, "/tmp", "", "'/tmp' is not a cgroup filesystem"},
};

static void spec_init(struct cgroup_spec *spec, const char *path,
		      const char *root, const char *controllers)
{
	memset(spec, 0, sizeof(*spec));
	strvec_init(&spec->controllers);
	spec->path = xstrdup(path);
	spec->root = xstrdup(root);
	for (const char *p = controllers; *p;) {
		size_t len = strcspn(p, ",");
		char *c = xstrndup(p, len);

		strvec_push_nodup(&spec->controllers, c);
		p += len + (p[len] == ',');
	}
}

static void spec_add_limit(struct cgroup_spec *spec, const char *key,
			   const char *value)
{
	ALLOC_GROW(spec->limits.v, spec->limits.nr + 1, spec->limits.alloc);
	spec->limits.v[spec->limits.nr].key = xstrdup(key);
	spec->limits.v[spec->limits.nr].value = xstrdup(value);
	spec->limits.nr++;
}

static void spec_release(struct cgroup_spec *spec)
{
	free(spec->path);
	free(spec->root);
	strvec_clear(&spec->controllers);
	for (size_t i = 0; i < spec->limits.nr; i++) {
		free(spec->limits.v[i].key);
		free(spec->limits.v[i].value);
	}
	free(spec->limits.v);
}

static void test_plan(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(plan_cases); i++) {
		struct cgroup_ops ops = {
			.fs_type = fake_fs_type,
			.ctx = (void *)plan_cases[i].layout,
		};
		struct strbuf got = STRBUF_INIT, err = STRBUF_INIT;
		struct cgroup_place *places = NULL;
		struct cgroup_spec spec;
		size_t nr = 0;

		spec_init(&spec, "mmcmp/a", plan_cases[i].root,
			  plan_cases[i].controllers);
		if (cgroup_plan(&spec, &ops, &places, &nr, &err)) {
			strbuf_addstr(&got, err.buf);
		} else {
			for (size_t k = 0; k < nr; k++)
				strbuf_addf(&got, "%s%s %s", k ? "; " : "",
					    places[k].root,
					    places[k].v2 ? "v2" : "v1");
		}
		is_str(got.buf, plan_cases[i].want, "plan %zu", i);
		cgroup_places_free(places, nr);
		spec_release(&spec);
		strbuf_release(&got);
		strbuf_release(&err);
	}
}

static void skip(const char *why)
{
	printf("ok %d - # SKIP %s\n", ++tap_run, why);
}

/* Whether dir is a writable cgroup of the given statfs type. */
static bool writable_cgroup(const char *dir, unsigned long type)
{
	struct strbuf probe = STRBUF_INIT;
	struct statfs sfs;
	bool good = false;

	if (statfs(dir, &sfs) || (unsigned long)sfs.f_type != type)
		goto out;
	strbuf_addf(&probe, "%s/mmcmp-test-probe-%d", dir, (int)getpid());
	good = !mkdir(probe.buf, 0755) && !rmdir(probe.buf);
out:
	strbuf_release(&probe);
	return good;
}

/* A process that waits in the cgroup of procs to be killed. */
static pid_t sleeper(const char *procs)
{
	pid_t pid = fork();

	if (!pid) {
		FILE *f = fopen(procs, "w");

		if (!f || fputs("0", f) < 0 || fclose(f))
			_exit(1);
		for (;;)
			pause();
	}
	return pid;
}

static bool exists(const char *path)
{
	struct stat sb;

	return !stat(path, &sb);
}

/*
 * Create a cgroup two levels under root (a limit when limit_file is not
 * NULL), check it, put a process there and remove it all.
 */
static void test_real(const char *what, const char *root,
		      const char *controllers, const char *limit_file,
		      const char *limit_value)
{
	struct strbuf err = STRBUF_INIT, path = STRBUF_INIT;
	struct strbuf top = STRBUF_INIT;
	struct cgroup_spec spec;
	struct cgroup *cg, *again;
	const char *const *procs;
	pid_t pid = -1;
	int status = 0;
	bool removed;

	strbuf_addf(&top, "mmcmp-test-%d", (int)getpid());
	strbuf_addf(&path, "%s/x/leaf", top.buf);
	spec_init(&spec, path.buf, root, controllers);
	if (limit_file)
		spec_add_limit(&spec, limit_file, limit_value);
	cg = cgroup_create(&spec, &err);
	if (!ok(cg != NULL, "%s: cgroup_create %s", what, err.buf))
		goto out;
	procs = cgroup_procs(cg);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/%s/x/leaf/cgroup.procs", root, top.buf);
	ok(procs[0] && !strcmp(procs[0], path.buf) && !procs[1],
	   "%s: the leaf's cgroup.procs", what);
	strbuf_setlen(&path, path.len - strlen("/cgroup.procs"));
	is_str(cgroup_where(cg), path.buf, "%s: where", what);
	if (limit_file) {
		struct strbuf text = STRBUF_INIT;
		FILE *f;
		char line[128] = "";

		strbuf_addf(&text, "%s/%s", path.buf, limit_file);
		f = fopen(text.buf, "r");
		if (f && !fgets(line, sizeof(line), f))
			line[0] = '\0';
		if (f)
			fclose(f);
		line[strcspn(line, "\n")] = '\0';
		ok(!strcmp(line, limit_value), "%s: %s is %s (%s)", what,
		   limit_file, limit_value, line);
		strbuf_release(&text);
	}
	strbuf_reset(&err);
	again = cgroup_create(&spec, &err);
	ok(!again && strstr(err.buf, "exists already"),
	   "%s: a second one is refused: %s", what, err.buf);
	cgroup_remove(again, NULL);
	pid = sleeper(procs[0]);
	for (int i = 0; i < 100; i++) {
		struct timespec ms = {0, 10000000L};
		FILE *f = fopen(procs[0], "r");
		char line[32] = "";
		bool in = f && fgets(line, sizeof(line), f);

		if (f)
			fclose(f);
		if (in)
			break;
		nanosleep(&ms, NULL);
	}
	strbuf_reset(&err);
	removed = !cgroup_remove(cg, &err);
	ok(removed, "%s: cgroup_remove %s", what, err.buf);
	ok(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) &&
		   WTERMSIG(status) == SIGKILL,
	   "%s: the process left in it was killed", what);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/%s", root, top.buf);
	ok(!exists(path.buf), "%s: every level made is gone", what);
out:
	spec_release(&spec);
	strbuf_release(&err);
	strbuf_release(&path);
	strbuf_release(&top);
}

static void test_machine(void)
{
	if (writable_cgroup("/sys/fs/cgroup", CGROUP_V2_MAGIC))
		test_real("v2", "/sys/fs/cgroup", "pids", "pids.max", "64");
	else
		skip("/sys/fs/cgroup is not a writable cgroup v2 tree");
	if (writable_cgroup("/sys/fs/cgroup/unified", CGROUP_V2_MAGIC))
		test_real("hybrid v2", "/sys/fs/cgroup/unified", "", NULL,
			  NULL);
	else
		skip("/sys/fs/cgroup/unified is not a writable cgroup v2 "
		     "tree");
	if (writable_cgroup("/sys/fs/cgroup/memory", CGROUP_V1_MAGIC))
		test_real("v1 memory", "/sys/fs/cgroup/memory", "memory",
			  "memory.limit_in_bytes", "268435456");
	else
		skip("/sys/fs/cgroup/memory is not a writable cgroup v1 "
		     "memory hierarchy");
}

/*
 * cgroup_remove_stale() on plain directories, which behave as empty
 * cgroups for it: make and make2 (may be NULL) are created under a
 * temporary root, then the stale leaf x/a/leaf is removed with `path`;
 * `gone` must not exist afterwards, `left` (may be NULL) must.
 */
static const struct {
	const char *make, *make2, *path, *gone, *left;
} stale_cases[] = {
	{"x/a/leaf", NULL, "x/a/leaf", "x", NULL},	   /* its whole path */
	{"x/a/leaf", NULL, "a/leaf", "x/a", "x"},	   /* levels of path */
	{"x/a/leaf", NULL, NULL, "x/a/leaf", "x/a"},	   /* only the leaf */
	{"x/a/leaf", NULL, "y/a/leaf", "x/a/leaf", "x/a"}, /* another path */
	{"x/a/leaf", "x/a/other", "x/a/leaf", "x/a/leaf", "x/a/other"},
	{"x", NULL, "x/a/leaf", "x/a", "x"}, /* gone already */
};

/* Run "VERB 'ROOT/REL'" with system(); BUG when it fails. */
static void shell(const char *verb, const char *root, const char *rel)
{
	struct strbuf cmd = STRBUF_INIT;

	strbuf_addf(&cmd, "%s '%s/%s'", verb, root, rel);
	if (system(cmd.buf))
		BUG("'%s' failed", cmd.buf);
	strbuf_release(&cmd);
}

static bool exists_under(const char *root, const char *rel)
{
	struct strbuf path = STRBUF_INIT;
	bool e;

	strbuf_addf(&path, "%s/%s", root, rel);
	e = exists(path.buf);
	strbuf_release(&path);
	return e;
}

/*
 * A leaf whose run recorded the levels it made (x/a and the leaf, not x):
 * those go, with no path to go by, and so does the record.
 */
static void test_stale_recorded(const char *root)
{
	struct strbuf leaf = STRBUF_INIT, file = STRBUF_INIT, err = STRBUF_INIT;
	FILE *f;

	strbuf_addf(&leaf, "%s/x/a/leaf", root);
	run_dir_path(&file, "", "cgroups");
	run_dir_add_name(&file, leaf.buf);
	if (run_dir_make("", "cgroups", &err) || !(f = fopen(file.buf, "w"))) {
		skip("cannot write a record under /run/mmcmp");
		goto out;
	}
	fprintf(f, "%s/x/a\n%s\n", root, leaf.buf);
	if (fclose(f))
		BUG("cannot write %s", file.buf);
	shell("mkdir -p", root, "x/a/leaf");
	ok(!cgroup_remove_stale(leaf.buf, NULL, &err) &&
		   !exists_under(root, "x/a") && exists_under(root, "x") &&
		   !exists(file.buf),
	   "a recorded stale cgroup: the levels it made go, x stays%s%s",
	   err.len ? ": " : "", err.buf);
	shell("rm -rf", root, "x");
out:
	strbuf_release(&leaf);
	strbuf_release(&file);
	strbuf_release(&err);
}

static void test_stale(void)
{
	const char *tmp = getenv("TMPDIR");
	struct strbuf root = STRBUF_INIT;

	strbuf_addf(&root, "%s/test-cgroup-XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(root.buf))
		BUG("mkdtemp failed");
	for (size_t i = 0; i < ARRAY_SIZE(stale_cases); i++) {
		struct strbuf leaf = STRBUF_INIT, err = STRBUF_INIT;
		int ret;

		shell("mkdir -p", root.buf, stale_cases[i].make);
		if (stale_cases[i].make2)
			shell("mkdir -p", root.buf, stale_cases[i].make2);
		strbuf_addf(&leaf, "%s/x/a/leaf", root.buf);
		ret = cgroup_remove_stale(leaf.buf, stale_cases[i].path, &err);
		ok(!ret && !exists_under(root.buf, stale_cases[i].gone) &&
			   (!stale_cases[i].left ||
			    exists_under(root.buf, stale_cases[i].left)),
		   "stale case %zu: '%s' is removed%s%s", i,
		   stale_cases[i].gone, err.len ? ": " : "", err.buf);
		shell("rm -rf", root.buf, "x");
		strbuf_release(&leaf);
		strbuf_release(&err);
	}
	test_stale_recorded(root.buf);
	rmdir(root.buf);
	strbuf_release(&root);
}

/* Names and whether cgroup-stat counts them as counters. */
static const struct {
	const char *name;
	bool counter;
} kind_cases[] = {
	{"memory.stat.pgfault", true},
	{"memory.stat.pgmajfault", true},
	{"memory.stat.total_pgpgin", true},
	{"memory.stat.workingset_refault_file", true},
	{"memory.stat.thp_fault_alloc", true},
	{"memory.stat.numa_pages_migrated", true},
	{"memory.stat.zswpout", true},
	{"memory.stat.swpin_zero", true},
	{"memory.stat.anon", false},
	{"memory.stat.sock", false},
	{"memory.stat.rss", false},
	{"memory.stat.total_cache", false},
	{"memory.stat.anon_thp", false},
	{"memory.stat.zswapped", false},
	{"memory.stat.hierarchical_memory_limit", false},
	{"memory.events.oom_kill", true},
	{"memory.events.max", true},
	{"cpu.stat.usage_usec", true},
	{"cpu.stat.nr_throttled", true},
	{"cpuacct.stat.user", true},
	{"cpuacct.usage", true},
	{"memory.current", false},
	{"memory.peak", false},
	{"memory.usage_in_bytes", false},
	{"memory.max_usage_in_bytes", false},
	{"memory.failcnt", true},
	{"memory.kmem.tcp.usage_in_bytes", false},
	{"memory.kmem.tcp.max_usage_in_bytes", false},
	{"memory.kmem.tcp.failcnt", true},
	{"memory.memsw.failcnt", true},
	{"memory.kmem.failcnt", true},
	{"memory.stat", false},
	{"memory.currentx", false},
	{"unknown.file", false},
};

static const struct {
	const char *file, *text;
	const char *want; /* "name value" lines; NULL: the error */
	const char *err;
} format_cases[] = {
	{"memory.stat", "anon 4096\nfile 0\npgfault 12\n",
	 "memory.stat.anon 4096\nmemory.stat.file 0\nmemory.stat.pgfault 12\n",
	 NULL},
	{"memory.events", "low 0\nhigh 0\nmax 3\noom 0\noom_kill 1",
	 "memory.events.low 0\nmemory.events.high 0\nmemory.events.max 3\n"
	 "memory.events.oom 0\nmemory.events.oom_kill 1\n",
	 NULL},
	{"memory.kmem.tcp.usage_in_bytes", "65536\n",
	 "memory.kmem.tcp.usage_in_bytes 65536\n", NULL},
	{"memory.stat",
	 "rss 1\nhierarchical_memory_limit 9223372036854771712\n"
	 "hierarchical_memsw_limit 9223372036854771712\nswap 0\n",
	 "memory.stat.rss 1\nmemory.stat.swap 0\n", NULL},
	{"cpu.stat", "", "", NULL},
	{"memory.stat", "anon\n", NULL, "f:1: expected 'key value'"},
	{"memory.stat", "anon 1\nfile -2\n", NULL, "f:2: bad value '-2'"},
	{"memory.current", "max\n", NULL, "f: bad value 'max'"},
};

static void test_stat_format(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(kind_cases); i++)
		ok(cgroup_stat_is_counter(kind_cases[i].name) ==
			   kind_cases[i].counter,
		   "%s is a %s", kind_cases[i].name,
		   kind_cases[i].counter ? "counter" : "gauge (or unknown)");
	for (size_t i = 0; i < ARRAY_SIZE(format_cases); i++) {
		struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
		int r = cgroup_stat_format(format_cases[i].file, "f",
					   format_cases[i].text, &out, &err);

		if (format_cases[i].want)
			ok(!r && !strcmp(out.buf, format_cases[i].want),
			   "format case %zu: %s", i, format_cases[i].file);
		else
			ok(r == -1 && !strcmp(err.buf, format_cases[i].err),
			   "format case %zu fails: %s", i, err.buf);
		strbuf_release(&out);
		strbuf_release(&err);
	}
}

/* Write text to dir/name. */
static void put_file(const char *dir, const char *name, const char *text)
{
	struct strbuf path = STRBUF_INIT;
	FILE *f;

	strbuf_addf(&path, "%s/%s", dir, name);
	f = fopen(path.buf, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		BUG("cannot write '%s'", path.buf);
	strbuf_release(&path);
}

/* cgroup_stat_read() of two directories made to look like cgroups. */
static void test_stat_read(void)
{
	char d1[] = "/tmp/mmcmp-test-cgroup-XXXXXX";
	char d2[] = "/tmp/mmcmp-test-cgroup-XXXXXX";
	struct strbuf p1 = STRBUF_INIT, p2 = STRBUF_INIT;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	const char *procs[3];
	int r;

	if (!mkdtemp(d1) || !mkdtemp(d2))
		BUG("mkdtemp");
	/* A v1 memory cgroup and a v1 cpuacct one. */
	put_file(d1, "cgroup.procs", "");
	put_file(d1, "memory.stat", "rss 8192\npgfault 7\n");
	put_file(d1, "memory.kmem.tcp.usage_in_bytes", "4096\n");
	put_file(d1, "memory.kmem.tcp.failcnt", "0\n");
	put_file(d2, "cgroup.procs", "");
	put_file(d2, "cpuacct.usage", "123456\n");
	strbuf_addf(&p1, "%s/cgroup.procs", d1);
	strbuf_addf(&p2, "%s/cgroup.procs", d2);
	procs[0] = p1.buf;
	procs[1] = p2.buf;
	procs[2] = NULL;
	r = cgroup_stat_read(procs, &out, &err);
	is_str(r ? err.buf : out.buf,
	       "memory.stat.rss 8192\nmemory.stat.pgfault 7\n"
	       "memory.kmem.tcp.usage_in_bytes 4096\n"
	       "memory.kmem.tcp.failcnt 0\ncpuacct.usage 123456\n",
	       "read: the files each has, in the table's order");
	put_file(d1, "memory.kmem.tcp.max_usage_in_bytes", "9\n");
	strbuf_reset(&out);
	ok(!cgroup_stat_reset_peaks(procs, &err) &&
		   !cgroup_stat_read(procs, &out, &err) &&
		   strstr(out.buf, "\nmemory.kmem.tcp.max_usage_in_bytes 0\n"),
	   "reset: the peaks are written 0, the rest left alone: %s", err.buf);
	strbuf_reset(&out);
	put_file(d2, "memory.current", "lots\n");
	ok(cgroup_stat_read(procs, &out, &err) == -1 &&
		   strstr(err.buf, "/memory.current: bad value 'lots'"),
	   "read: a bad file is an error: %s", err.buf);
	for (int k = 0; k < 2; k++) {
		const char *dir = k ? d2 : d1;
		static const char *const names[] = {
			"cgroup.procs",
			"memory.stat",
			"memory.kmem.tcp.usage_in_bytes",
			"memory.kmem.tcp.failcnt",
			"memory.kmem.tcp.max_usage_in_bytes",
			"cpuacct.usage",
			"memory.current",
		};

		for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
			strbuf_reset(&out);
			strbuf_addf(&out, "%s/%s", dir, names[i]);
			unlink(out.buf);
		}
		rmdir(dir);
	}
	strbuf_release(&p1);
	strbuf_release(&p2);
	strbuf_release(&out);
	strbuf_release(&err);
}

int main(void)
{
	test_plan();
	test_stat_format();
	test_stat_read();
	test_machine();
	test_stale();
	done_testing();
	return exit_status();
}
