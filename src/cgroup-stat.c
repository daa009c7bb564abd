/* cgroup-stat: read a cgroup's own counters for the monitors. */
#include "cgroup-stat.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "parse-num.h"
#include "strbuf.h"
#include "util.h"

/* Larger files are refused: memory.stat is about 2 KiB. */
#define MAX_BYTES ((size_t)1 << 20)

/* The files read, as documented in cgroup-stat.h. */
static const struct stat_file {
	const char *name;
	bool keyed;    /* "key value" lines, else one number */
	bool counters; /* else gauges (memory.stat: by key) */
} files[] = {
	{"memory.stat", true, false},
	{"memory.events", true, true},
	{"cpu.stat", true, true},
	{"memory.current", false, false},
	{"memory.peak", false, false},
	{"memory.swap.current", false, false},
	{"memory.usage_in_bytes", false, false},
	{"memory.max_usage_in_bytes", false, false},
	{"memory.failcnt", false, true},
	{"memory.kmem.usage_in_bytes", false, false},
	{"memory.kmem.max_usage_in_bytes", false, false},
	{"memory.kmem.failcnt", false, true},
	{"memory.kmem.tcp.usage_in_bytes", false, false},
	{"memory.kmem.tcp.max_usage_in_bytes", false, false},
	{"memory.kmem.tcp.failcnt", false, true},
	{"memory.memsw.usage_in_bytes", false, false},
	{"memory.memsw.max_usage_in_bytes", false, false},
	{"memory.memsw.failcnt", false, true},
	{"cpuacct.stat", true, true},
	{"cpuacct.usage", false, true},
};

/* The event counters among memory.stat's keys; the rest are sizes. */
static bool memory_stat_counter(const char *key)
{
	static const char *const prefixes[] = {
		"pg", "workingset_", "thp_", "numa_", "zswp", "swpin", "swpout",
	};

	if (!strncmp(key, "total_", 6))
		key += 6;
	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (!strncmp(key, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

bool cgroup_stat_is_counter(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		const struct stat_file *f = &files[i];
		size_t len = strlen(f->name);

		if (strncmp(name, f->name, len) != 0)
			continue;
		if (!f->keyed && !name[len])
			return f->counters;
		if (f->keyed && name[len] == '.')
			return f->counters ||
			       memory_stat_counter(name + len + 1);
	}
	return false;
}

static const struct stat_file *find_file(const char *file)
{
	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		if (!strcmp(files[i].name, file))
			return &files[i];
	BUG("unknown cgroup file '%s'", file);
}

int cgroup_stat_format(const char *file, const char *path, const char *text,
		       struct strbuf *out, struct strbuf *err)
{
	const struct stat_file *f = find_file(file);
	size_t line = 0;
	uint64_t v;

	if (!f->keyed) {
		struct strbuf num = STRBUF_INIT;
		bool good;

		strbuf_addstr(&num, text);
		strbuf_rtrim(&num);
		good = parse_uint64(num.buf, &v);
		if (good)
			strbuf_addf(out, "%s %s\n", file, num.buf);
		else
			error_addf(err, "%s: bad value '%.40s'", path, num.buf);
		strbuf_release(&num);
		return good ? 0 : -1;
	}
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n");
		const char *sp = memchr(p, ' ', len);
		struct strbuf num = STRBUF_INIT;
		bool good;

		line++;
		if (!len) {
			p++;
			continue;
		}
		if (!sp || sp == p)
			return error_addf(err, "%s:%zu: expected 'key value'",
					  path, line);
		/* v1's limits of the hierarchy are settings, not usage. */
		if (!strncmp(p, "hierarchical_", 13)) {
			p += len + (p[len] == '\n');
			continue;
		}
		strbuf_add(&num, sp + 1, len - (size_t)(sp - p) - 1);
		good = parse_uint64(num.buf, &v);
		if (good)
			strbuf_addf(out, "%s.%.*s %s\n", file, (int)(sp - p), p,
				    num.buf);
		else
			error_addf(err, "%s:%zu: bad value '%.40s'", path, line,
				   num.buf);
		strbuf_release(&num);
		if (!good)
			return -1;
		p += len + (p[len] == '\n');
	}
	return 0;
}

/* path = the directory of cgroup.procs file procs, then "/" name. */
static void file_path(struct strbuf *path, const char *procs, const char *name)
{
	const char *slash = strrchr(procs, '/');

	strbuf_reset(path);
	strbuf_addf(path, "%.*s/%s", slash ? (int)(slash - procs) : 0, procs,
		    name);
}

int cgroup_stat_read(const char *const *procs, struct strbuf *out,
		     struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int ret = -1;

	for (size_t d = 0; procs && procs[d]; d++) {
		for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
			file_path(&path, procs[d], files[i].name);
			/* Not this version's, or its controller is off. */
			if (access(path.buf, F_OK) && errno == ENOENT)
				continue;
			strbuf_reset(&text);
			if (strbuf_read_file_max(&text, path.buf, MAX_BYTES + 1,
						 err))
				goto out;
			if (text.len > MAX_BYTES) {
				error_addf(err, "'%s' is larger than 1 MiB",
					   path.buf);
				goto out;
			}
			if (cgroup_stat_format(files[i].name, path.buf,
					       text.buf, out, err))
				goto out;
		}
	}
	ret = 0;
out:
	strbuf_release(&path);
	strbuf_release(&text);
	return ret;
}

int cgroup_stat_reset_peaks(const char *const *procs, struct strbuf *err)
{
	static const char suffix[] = ".max_usage_in_bytes";
	struct strbuf path = STRBUF_INIT;
	int ret = -1;

	for (size_t d = 0; procs && procs[d]; d++) {
		for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
			size_t len = strlen(files[i].name);
			ssize_t n;
			int fd;

			if (len < sizeof(suffix) ||
			    strcmp(files[i].name + len - (sizeof(suffix) - 1),
				   suffix) != 0)
				continue;
			file_path(&path, procs[d], files[i].name);
			fd = open(path.buf, O_WRONLY | O_CLOEXEC);
			if (fd < 0 && errno == ENOENT)
				continue;
			n = fd < 0 ? -1 : write(fd, "0", 1);
			if (n != 1) {
				error_addf(err, "cannot reset '%s': %s",
					   path.buf, strerror(errno));
				if (fd >= 0)
					close(fd);
				goto out;
			}
			close(fd);
		}
	}
	ret = 0;
out:
	strbuf_release(&path);
	return ret;
}
