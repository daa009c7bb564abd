/* machine: hostname, kernel, CPU and memory of this machine. */
#include "machine.h"

#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "parse-num.h"
#include "run-data.h"
#include "strbuf.h"

/* Read a small /proc file whole; NULL when it cannot be read. */
static char *read_small_file(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[4096];
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0 && sb.len < (1 << 20))
		strbuf_add(&sb, buf, n);
	fclose(f);
	return strbuf_detach(&sb, NULL);
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
