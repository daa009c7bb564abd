/* machine: hostname, kernel, CPU and memory of this machine. */
#include "machine.h"

#include <dirent.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "names.h"
#include "parse-num.h"
#include "run-data.h"
#include "sha256.h"
#include "strbuf.h"
#include "util.h"

/* A row: the member, its kind (or maximum), then show's place and label. */
#define STR(member, k, ...)                                                    \
	.name = #member, .offset = offsetof(struct machine_info, member),      \
	.kind = (k), .show = {__VA_ARGS__}
#define INT(member, hi, ...)                                                   \
	.name = #member, .offset = offsetof(struct machine_info, member),      \
	.kind = MACHINE_INT, .max = (hi), .show = {__VA_ARGS__}

static const char *const cgroup_modes[] = {"v1", "v2", "hybrid", NULL};

/* The order is the export format's (docs/export-format.md). */
const struct machine_field machine_fields[] = {
	{STR(hostname, MACHINE_STRING, 1, "host", .unknown = "-"),
	 .compare_pos = 1},
	{STR(kernel_release, MACHINE_STRING, 2, "kernel", .unknown = "-")},
	{STR(kernel_version, MACHINE_STRING, 3, .join = " ", .unknown = "")},
	{STR(cmdline, MACHINE_TEXT, 4, "cmdline", .unknown = "-"),
	 .compare_pos = 3},
	{STR(cpu_model, MACHINE_STRING, 5, "cpu", .unknown = "-"),
	 .compare_pos = 2},
	{INT(nr_cpus, 1 << 20, 6, .join = ", ", .unit = " CPUs"),
	 .compare_pos = 4},
	/* Integers in JSON are exact up to 2^53. */
	{INT(mem_bytes, INT64_C(1) << 53, 7, "memory", .unit = " MiB",
	     .shift = 20)},
	{INT(numa_nodes, 1 << 20, 11, "numa", .unknown = "-", .unit = " node",
	     .plural = true)},
	{STR(smt, MACHINE_STRING, 12, "smt", .unknown = "-")},
	{STR(thp_enabled, MACHINE_STRING, 8, "thp", .unknown = "-")},
	{STR(thp_defrag, MACHINE_STRING, 9, .join = ", defrag ",
	     .unknown = "-")},
	{STR(cpufreq_governor, MACHINE_STRING, 10, "cpufreq", .unknown = "-")},
	{STR(cgroup_mode, MACHINE_CHOICE, 13, "cgroups", .unknown = "-"),
	 .choices = cgroup_modes},
	{STR(kernel_config_sha256, MACHINE_SHA256, 14, "kconfig",
	     .unknown = "-")},
};
const size_t machine_fields_nr = ARRAY_SIZE(machine_fields);

#undef STR
#undef INT

const char *machine_field_str(const struct machine_field *f,
			      const struct machine_info *m)
{
	if (f->kind == MACHINE_INT)
		BUG("machine fact '%s' is a number", f->name);
	return *(char *const *)((const char *)m + f->offset);
}

int64_t machine_field_int(const struct machine_field *f,
			  const struct machine_info *m)
{
	if (f->kind != MACHINE_INT)
		BUG("machine fact '%s' is a string", f->name);
	return *(const int64_t *)((const char *)m + f->offset);
}

char **machine_field_str_at(const struct machine_field *f,
			    struct machine_info *m)
{
	if (f->kind == MACHINE_INT)
		BUG("machine fact '%s' is a number", f->name);
	return (char **)((char *)m + f->offset);
}

int64_t *machine_field_int_at(const struct machine_field *f,
			      struct machine_info *m)
{
	if (f->kind != MACHINE_INT)
		BUG("machine fact '%s' is a string", f->name);
	return (int64_t *)((char *)m + f->offset);
}

bool machine_field_text(const struct machine_field *f,
			const struct machine_info *m, struct strbuf *out)
{
	const char *s;
	int64_t n;

	if (f->kind == MACHINE_INT) {
		n = machine_field_int(f, m);
		if (n <= 0)
			return false;
		strbuf_addf(out, "%" PRId64, n);
		return true;
	}
	s = machine_field_str(f, m);
	if (!s || !*s)
		return false;
	strbuf_addstr(out, s);
	return true;
}

const struct machine_field *machine_field_show(unsigned pos)
{
	for (size_t i = 0; pos && i < machine_fields_nr; i++) {
		if (machine_fields[i].show.pos == pos)
			return &machine_fields[i];
	}
	return NULL;
}

const struct machine_field *machine_field_compare(unsigned pos)
{
	for (size_t i = 0; pos && i < machine_fields_nr; i++) {
		if (machine_fields[i].compare_pos == pos)
			return &machine_fields[i];
	}
	return NULL;
}

/* One fact as show prints it, after its label or join. */
static void show_value(const struct machine_field *f,
		       const struct machine_info *m, struct strbuf *out)
{
	const struct machine_show *sh = &f->show;
	const char *s;
	int64_t n;

	if (f->kind != MACHINE_INT) {
		s = machine_field_str(f, m);
		if (!s || !*s)
			s = sh->unknown;
		/* Facts of an imported run may hold anything. */
		names_escape(out, s, strlen(s));
		return;
	}
	n = machine_field_int(f, m);
	if (n <= 0 && sh->unknown) {
		strbuf_addstr(out, sh->unknown);
		return;
	}
	strbuf_addf(out, "%" PRId64 "%s%s", n >> sh->shift,
		    sh->unit ? sh->unit : "", sh->plural && n != 1 ? "s" : "");
}

void machine_info_show(const struct machine_info *m, struct strbuf *out)
{
	const struct machine_field *f;

	for (unsigned pos = 1; (f = machine_field_show(pos)); pos++) {
		size_t start;

		if (!f->show.label) {
			strbuf_addstr(out, f->show.join);
			show_value(f, m, out);
			continue;
		}
		if (pos > 1)
			strbuf_addch(out, '\n');
		start = out->len;
		strbuf_addf(out, "  %s: ", f->show.label);
		/* Values start in column 14: "  cmdline:   VALUE". */
		while (out->len - start < 13)
			strbuf_addch(out, ' ');
		show_value(f, m, out);
	}
	strbuf_addch(out, '\n');
}

/* Check fact name, value s (NULL: none), as machine_facts_check() does. */
static int fact_check(const char *name, const char *s, struct strbuf *err)
{
	struct strbuf q = STRBUF_INIT;
	const char *why = NULL;

	if (!s)
		return 0;
	if (!utf8_valid(s))
		why = "is not UTF-8";
	else if (names_has_control(s))
		why = "contains a control character";
	if (why) {
		names_quote(&q, s);
		error_addf(err, "machine fact '%s' '%s' %s", name, q.buf, why);
	}
	strbuf_release(&q);
	return why ? -1 : 0;
}

int machine_facts_check(const struct run_info *ri, struct strbuf *err)
{
	for (size_t i = 0; i < machine_fields_nr; i++) {
		const struct machine_field *f = &machine_fields[i];

		if (f->kind != MACHINE_INT &&
		    fact_check(f->name, machine_field_str(f, &ri->machine),
			       err))
			return -1;
	}
	return fact_check("mmcmp_version", ri->mmcmp_version, err);
}

/* Filesystem types of statfs(2)'s f_type (<linux/magic.h>). */
#define CGROUP_SUPER_MAGIC  0x27e0eb
#define CGROUP2_SUPER_MAGIC 0x63677270

/* The most of a file that is read: kernel configs are ~300 KiB. */
#define MAX_FILE_BYTES ((size_t)16 << 20)

/*
 * Read a file whole, at most max bytes of it, into a NUL-terminated
 * buffer (caller frees); *len, when not NULL, gets its length. NULL when
 * the file cannot be read.
 */
static char *read_file_max(const char *path, size_t max, size_t *len)
{
	struct strbuf sb = STRBUF_INIT;

	if (strbuf_read_file_max(&sb, path, max, NULL)) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, len);
}

/* Read a small /proc file whole; NULL when it cannot be read. */
static char *read_small_file(const char *path)
{
	return read_file_max(path, (size_t)1 << 20, NULL);
}

/* The value of the first "key<spaces>: value" line of text, or NULL. */
static char *colon_field(const char *text, const char *key)
{
	size_t klen = strlen(key);
	const char *line = text;

	while (line && *line) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);

		if (len > klen && !strncmp(line, key, klen) &&
		    (line[klen] == ':' || isspace((unsigned char)line[klen]))) {
			const char *v = memchr(line, ':', len);

			if (v) {
				v++;
				while (*v == ' ' || *v == '\t')
					v++;
				return xstrndup(v, (size_t)(line + len - v));
			}
		}
		line = eol ? eol + 1 : NULL;
	}
	return NULL;
}

char *machine_sysfs_choice(const char *text)
{
	const char *open = strchr(text, '['), *close;
	struct strbuf sb = STRBUF_INIT;

	if (open && (close = strchr(open + 1, ']')) && close > open + 1)
		return xstrndup(open + 1, (size_t)(close - open - 1));
	while (isspace((unsigned char)*text))
		text++;
	strbuf_addstr(&sb, text);
	strbuf_rtrim(&sb);
	if (!sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}

/* The choice of a sysfs file, or NULL. */
static char *read_choice(const char *path)
{
	char *text = read_small_file(path), *choice;

	if (!text)
		return NULL;
	choice = machine_sysfs_choice(text);
	free(text);
	return choice;
}

/* The number of nodeN entries of dir; 0 when it cannot be read. */
static int64_t count_nodes(const char *dir)
{
	DIR *d = opendir(dir);
	const struct dirent *e;
	int64_t nr = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		const char *p = e->d_name;

		if (strncmp(p, "node", 4) != 0 || !p[4])
			continue;
		for (p += 4; isdigit((unsigned char)*p); p++)
			;
		nr += !*p;
	}
	closedir(d);
	return nr;
}

/* SMT from cpu/smt/control, or from cpu/smt/active on older kernels. */
static char *read_smt(void)
{
	char *smt = read_choice("/sys/devices/system/cpu/smt/control");

	if (!smt && (smt = read_choice("/sys/devices/system/cpu/smt/active"))) {
		bool on = !strcmp(smt, "1");

		free(smt);
		smt = xstrdup(on ? "on" : "off");
	}
	return smt;
}

static bool fs_type(const char *path, unsigned long type)
{
	struct statfs sfs;

	return !statfs(path, &sfs) && (unsigned long)sfs.f_type == type;
}

/*
 * cgroup v2 alone is mounted at /sys/fs/cgroup; v1 has a tmpfs there with
 * a mount per controller, and a hybrid set-up adds a v2 tree at
 * /sys/fs/cgroup/unified (systemd's layouts).
 */
static char *cgroup_mode(void)
{
	struct statfs sfs;

	if (statfs("/sys/fs/cgroup", &sfs))
		return NULL;
	if ((unsigned long)sfs.f_type == CGROUP2_SUPER_MAGIC)
		return xstrdup("v2");
	if (fs_type("/sys/fs/cgroup/unified", CGROUP2_SUPER_MAGIC))
		return xstrdup("hybrid");
	if ((unsigned long)sfs.f_type == CGROUP_SUPER_MAGIC ||
	    fs_type("/sys/fs/cgroup/memory", CGROUP_SUPER_MAGIC) ||
	    fs_type("/sys/fs/cgroup/systemd", CGROUP_SUPER_MAGIC))
		return xstrdup("v1");
	return NULL;
}

/*
 * The SHA-256 of the running kernel's config: of the bytes of
 * /proc/config.gz (CONFIG_IKCONFIG_PROC), else of /boot/config-RELEASE.
 * The two give different hashes for one config, but each names one
 * kernel build.
 */
static char *config_hash(const char *release)
{
	struct strbuf path = STRBUF_INIT;
	char hex[65];
	char *data;
	size_t len = 0;

	data = read_file_max("/proc/config.gz", MAX_FILE_BYTES, &len);
	if (!data && release) {
		strbuf_addf(&path, "/boot/config-%s", release);
		data = read_file_max(path.buf, MAX_FILE_BYTES, &len);
		strbuf_release(&path);
	}
	if (!data || !len) {
		free(data);
		return NULL;
	}
	sha256_hex(data, len, hex);
	free(data);
	return xstrdup(hex);
}

void machine_info_read(struct machine_info *m)
{
	struct utsname u;
	char host[256];
	char *text;
	long n;

	if (!gethostname(host, sizeof(host))) {
		host[sizeof(host) - 1] = '\0';
		m->hostname = xstrdup(host);
	}
	if (!uname(&u)) {
		m->kernel_release = xstrdup(u.release);
		m->kernel_version = xstrdup(u.version);
	}
	text = read_small_file("/proc/cmdline");
	if (text) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addstr(&sb, text);
		strbuf_rtrim(&sb);
		m->cmdline = strbuf_detach(&sb, NULL);
		free(text);
	}
	text = read_small_file("/proc/cpuinfo");
	if (text) {
		m->cpu_model = colon_field(text, "model name");
		if (!m->cpu_model) /* arm64 and others */
			m->cpu_model = colon_field(text, "CPU part");
		free(text);
	}
	n = sysconf(_SC_NPROCESSORS_ONLN);
	m->nr_cpus = n > 0 ? n : 0;
	text = read_small_file("/proc/meminfo");
	if (text) {
		char *v = colon_field(text, "MemTotal");
		int64_t kib;

		if (v) {
			char *sp = strchr(v, ' ');

			if (sp)
				*sp = '\0';
			if (parse_int64(v, 0, INT64_MAX / 1024, &kib))
				m->mem_bytes = kib * 1024;
			free(v);
		}
		free(text);
	}
	m->thp_enabled =
		read_choice("/sys/kernel/mm/transparent_hugepage/enabled");
	m->thp_defrag =
		read_choice("/sys/kernel/mm/transparent_hugepage/defrag");
	m->cpufreq_governor = read_choice(
		"/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
	m->numa_nodes = count_nodes("/sys/devices/system/node");
	m->smt = read_smt();
	m->cgroup_mode = cgroup_mode();
	m->kernel_config_sha256 = config_hash(m->kernel_release);
}

int64_t machine_boot_ticks(void)
{
	struct timespec ts;
	long hz = sysconf(_SC_CLK_TCK);

	if (hz <= 0 || clock_gettime(CLOCK_BOOTTIME, &ts))
		return -1;
	return (int64_t)ts.tv_sec * hz +
	       (int64_t)ts.tv_nsec / (1000000000 / hz);
}

int64_t machine_proc_start(pid_t pid)
{
	char path[64];
	char *text, *p;
	int64_t start = -1;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	text = read_small_file(path);
	if (!text)
		return -1;
	/* The command name may hold spaces and ')': skip to the last ')'. */
	p = strrchr(text, ')');
	if (p) {
		/* Field 3 follows ") "; start time is field 22. */
		int field = 2;

		for (p++; *p && field < 22; p++)
			if (*p == ' ')
				field++;
		if (field == 22) {
			char *end = p;

			while (*end && *end != ' ')
				end++;
			*end = '\0';
			if (!parse_int64(p, 0, INT64_MAX, &start))
				start = -1;
		}
	}
	free(text);
	return start;
}

void machine_utc_now(char out[32])
{
	time_t now = time(NULL);
	struct tm tm;

	if (!gmtime_r(&now, &tm) ||
	    !strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(out, 32, "1970-01-01T00:00:00Z");
}
