/* machine: hostname, kernel, CPU and memory of this machine. */
#include "machine.h"

#include <dirent.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "parse-num.h"
#include "run-data.h"
#include "sha256.h"
#include "strbuf.h"

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
