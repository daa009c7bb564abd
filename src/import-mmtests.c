/* import-mmtests: runs of an mmtests work/log tree as struct run_full. */
#include "import-mmtests.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "import.h"
#include "machine.h"
#include "mmcmp-version.h"
#include "monitor.h"
#include "parse-num.h"
#include "run-data.h"
#include "sha256.h"
#include "strbuf.h"
#include "strmap.h"
#include "strvec.h"
#include "util.h"
#include "uuid.h"

/* A log larger than this is not an mmtests log. */
#define MMTESTS_MAX_FILE_BYTES ((size_t)256 << 20)

/* The tree being read: its real path, where doubts are told. */
struct mm_tree {
	char *root;		 /* realpath() of the tree, or NULL */
	struct strvec *warnings; /* NULL: none wanted */
};

MMCMP_PRINTF(2, 3)
static void mm_warn(const struct mm_tree *t, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (!t || !t->warnings)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	strvec_push(t->warnings, sb.buf);
	strbuf_release(&sb);
}

/*
 * A number as mmtests' Perl reads it: decimal only, so a hexadecimal
 * "0x10", which strtod() would take as 16, is no number.
 */
static bool mm_number(const char *s, double *out)
{
	return !strpbrk(s, "xXpP") && parse_double(s, out);
}

void mmtests_samples_add(struct mmtests_samples *s, const char *op,
			 double value)
{
	ALLOC_GROW(s->v, s->nr + 1, s->alloc);
	s->v[s->nr].op = xstrdup(op);
	s->v[s->nr++].value = value;
}

void mmtests_samples_release(struct mmtests_samples *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr; i++)
		free(s->v[i].op);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

void mmtests_vmstat_release(struct mmtests_vmstat *v)
{
	if (!v)
		return;
	monitor_count_free(v->v, v->nr);
	monitor_count_free(v->end, v->end_nr);
	memset(v, 0, sizeof(*v));
}

/* Lines of a text, numbered from 1, without their '\n' (or "\r\n"). */
struct lines {
	const char *p, *end;
	size_t nr;
	struct strbuf line;
};

static void lines_init(struct lines *l, const char *text, size_t len)
{
	l->p = text;
	l->end = text + len;
	l->nr = 0;
	strbuf_init(&l->line, 0);
}

static bool lines_next(struct lines *l)
{
	const char *s = l->p, *e;

	if (l->p >= l->end)
		return false;
	e = memchr(s, '\n', (size_t)(l->end - s));
	if (!e)
		e = l->end;
	l->p = e < l->end ? e + 1 : e;
	if (e > s && e[-1] == '\r')
		e--;
	strbuf_reset(&l->line);
	strbuf_add(&l->line, s, (size_t)(e - s));
	l->nr++;
	return true;
}

/* Whitespace-separated fields of a line, as awk and Perl's split see them. */
struct fields {
	char *buf;
	char **v;
	size_t nr, alloc;
	bool leading_space; /* Perl's split /\s+/ then gives a first "" */
};

static void fields_split(struct fields *f, const char *line)
{
	char *p;

	free(f->buf);
	f->buf = xstrdup(line);
	f->nr = 0;
	f->leading_space = isspace((unsigned char)*line) != 0;
	for (p = f->buf; *p;) {
		while (*p && isspace((unsigned char)*p))
			*p++ = '\0';
		if (!*p)
			break;
		ALLOC_GROW(f->v, f->nr + 1, f->alloc);
		f->v[f->nr++] = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
	}
}

static void fields_release(struct fields *f)
{
	free(f->buf);
	free(f->v);
	memset(f, 0, sizeof(*f));
}

/* A field quoted for a message: at most 40 bytes, controls as '?'. */
static const char *quote(struct strbuf *sb, const char *s)
{
	strbuf_reset(sb);
	for (size_t i = 0; s[i] && i < 40; i++)
		strbuf_addch(sb, (unsigned char)s[i] < 0x20 ? '?' : s[i]);
	if (strlen(s) > 40)
		strbuf_addstr(sb, "...");
	return sb->buf;
}

static bool has_letter(const char *s)
{
	for (; *s; s++)
		if (isalpha((unsigned char)*s))
			return true;
	return false;
}

/*
 * Whether a line without a sample is one that will-it-scale prints: its
 * "testcase:" line, "warmup", "measurement", "average:N", or empty.
 */
static bool wis_other_line(const char *line)
{
	return !*line || !strcmp(line, "warmup") ||
	       !strcmp(line, "measurement") || !strncmp(line, "testcase:", 9) ||
	       !strncmp(line, "average:", 8);
}

int mmtests_parse_wis(const char *name, const char *text, size_t len,
		      const char *op, struct mmtests_samples *out,
		      struct strvec *warnings, struct strbuf *err)
{
	struct lines l;
	struct fields f = {0};
	struct strbuf q = STRBUF_INIT;
	size_t first = out->nr, odd = 0, odd_line = 0;
	int ret = -1;

	lines_init(&l, text, len);
	while (lines_next(&l)) {
		const char *v;
		char *t;
		double value;

		f.nr = 0;
		if (strstr(l.line.buf, "total:"))
			fields_split(&f, l.line.buf);
		if (f.nr < 3) {
			/* Skipped as mmtests skips them, but said. */
			if (!wis_other_line(l.line.buf) && !odd++)
				odd_line = l.nr;
			continue;
		}
		/* sed 's/total://': the first "total:" of the field goes. */
		v = f.v[2];
		t = strstr(v, "total:");
		if (t) {
			memmove(t, t + 6, strlen(t + 6) + 1);
			v = f.v[2];
		}
		if (!mm_number(v, &value)) {
			/* "total: 5" leaves nothing: quote the line from there.
			 */
			error_addf(
				err, "%s:%zu: bad total '%s'", name, l.nr,
				quote(&q,
				      *v ? v : strstr(l.line.buf, "total:")));
			goto out;
		}
		mmtests_samples_add(out, op, value);
	}
	if (odd && warnings) {
		strbuf_reset(&q);
		if (odd == 1)
			strbuf_addf(&q,
				    "%s: 1 line that is not will-it-scale's"
				    " skipped (line %zu)",
				    name, odd_line);
		else
			strbuf_addf(&q,
				    "%s: %zu lines that are not"
				    " will-it-scale's skipped (the first at"
				    " line %zu)",
				    name, odd, odd_line);
		strvec_push(warnings, q.buf);
	}
	ret = 0;
out:
	if (ret) {
		while (out->nr > first)
			free(out->v[--out->nr].op);
	}
	fields_release(&f);
	strbuf_release(&l.line);
	strbuf_release(&q);
	return ret;
}

/* GNU time's [[H:]M:]S elapsed field, before "elapsed". */
static bool parse_clock(const char *s, double *out)
{
	char *copy = xstrdup(s), *p = copy, *colon;
	double total = 0, part;
	int colons = 0;
	bool ok = true;

	while (ok && (colon = strchr(p, ':'))) {
		*colon = '\0';
		ok = ++colons <= 2 && mm_number(p, &part) && part >= 0;
		total = (total + part) * 60;
		p = colon + 1;
	}
	ok = ok && mm_number(p, &part) && part >= 0;
	if (ok)
		*out = total + part;
	free(copy);
	return ok;
}

/* The number of a field "NUMBERsuffix", or false. */
static bool suffixed(const char *field, const char *suffix, double *out,
		     bool clock)
{
	size_t n = strlen(field), k = strlen(suffix);
	char *num;
	bool ok;

	if (n <= k || strcmp(field + n - k, suffix) != 0)
		return false;
	num = xstrndup(field, n - k);
	ok = clock ? parse_clock(num, out) : mm_number(num, out);
	free(num);
	return ok;
}

int mmtests_parse_gnu_time(const char *name, const char *text, size_t len,
			   double *user_s, double *sys_s, double *elapsed_s,
			   struct strbuf *err)
{
	struct lines l;
	struct fields f = {0};
	int ret = -1;

	lines_init(&l, text, len);
	while (lines_next(&l)) {
		double u, s, e;

		if (!strstr(l.line.buf, "elapsed"))
			continue;
		fields_split(&f, l.line.buf);
		if (f.nr < 3 || !suffixed(f.v[0], "user", &u, false) ||
		    !suffixed(f.v[1], "system", &s, false) ||
		    !suffixed(f.v[2], "elapsed", &e, true)) {
			error_addf(
				err,
				"%s:%zu: not GNU time's \"USERuser SYSTEMsystem ELAPSEDelapsed\"",
				name, l.nr);
			goto out;
		}
		*user_s = u;
		*sys_s = s;
		*elapsed_s = e;
		ret = 0;
		goto out;
	}
	error_addf(err, "%s:%zu: no GNU time output", name, l.nr ? l.nr : 1);
out:
	fields_release(&f);
	strbuf_release(&l.line);
	return ret;
}

int mmtests_parse_netperf(const char *name, const char *text, size_t len,
			  bool udp, double *send, double *recv,
			  struct strbuf *err)
{
	struct lines l;
	struct fields f = {0};
	struct strbuf q = STRBUF_INIT;
	double s = 0, r = 0, v;
	int ret = -1;

	lines_init(&l, text, len);
	while (lines_next(&l)) {
		fields_split(&f, l.line.buf);
		if (!f.nr || has_letter(l.line.buf))
			continue;
		if (udp ? f.nr != 6 && f.nr != 4 : f.nr <= 4)
			continue;
		if (!mm_number(f.v[f.nr - 1], &v)) {
			error_addf(err, "%s:%zu: bad rate '%s'", name, l.nr,
				   quote(&q, f.v[f.nr - 1]));
			goto out;
		}
		if (udp && f.nr == 4)
			r = v;
		else
			s = v;
	}
	*send = s;
	*recv = r;
	ret = 0;
out:
	fields_release(&f);
	strbuf_release(&l.line);
	strbuf_release(&q);
	return ret;
}

int mmtests_parse_pft(const char *name, const char *text, size_t len,
		      const char *clients, struct mmtests_samples *cpu,
		      struct mmtests_samples *sec, struct strbuf *err)
{
	struct lines l;
	struct fields f = {0};
	struct strbuf op_cpu = STRBUF_INIT, op_sec = STRBUF_INIT;
	struct strbuf line = STRBUF_INIT, q = STRBUF_INIT;
	size_t cpu_first = cpu->nr, sec_first = sec->nr;
	int ret = -1;

	strbuf_addf(&op_cpu, "faults/cpu-%s", clients);
	strbuf_addf(&op_sec, "faults/sec-%s", clients);
	lines_init(&l, text, len);
	while (lines_next(&l)) {
		double c, s;
		size_t base;

		/* mmtests drops every 's' (of "0.19s") before looking. */
		strbuf_reset(&line);
		for (const char *p = l.line.buf; *p; p++)
			if (*p != 's')
				strbuf_addch(&line, *p);
		if (has_letter(line.buf))
			continue;
		fields_split(&f, line.buf);
		if (!f.nr)
			continue;
		/* Perl's split keeps a leading "" that takes column 0. */
		base = f.leading_space ? 1 : 0;
		if (f.nr + base < 9) {
			error_addf(err, "%s:%zu: expected 8 columns, found %zu",
				   name, l.nr, f.nr + base);
			goto out;
		}
		if (!mm_number(f.v[7 - base], &c) ||
		    !mm_number(f.v[8 - base], &s)) {
			error_addf(err, "%s:%zu: bad fault rate '%s'", name,
				   l.nr, quote(&q, f.v[7 - base]));
			goto out;
		}
		mmtests_samples_add(cpu, op_cpu.buf, c);
		mmtests_samples_add(sec, op_sec.buf, s);
	}
	ret = 0;
out:
	if (ret) {
		while (cpu->nr > cpu_first)
			free(cpu->v[--cpu->nr].op);
		while (sec->nr > sec_first)
			free(sec->v[--sec->nr].op);
	}
	fields_release(&f);
	strbuf_release(&l.line);
	strbuf_release(&op_cpu);
	strbuf_release(&op_sec);
	strbuf_release(&line);
	strbuf_release(&q);
	return ret;
}

/* "PREFIX :: REST": REST, or NULL. */
static const char *after(const char *line, const char *prefix)
{
	size_t n = strlen(prefix);

	if (strncmp(line, prefix, n) != 0 || strncmp(line + n, " :: ", 4))
		return NULL;
	return line + n + 4;
}

static bool epoch(const char *s, int64_t *out)
{
	return parse_int64(s, 0, INT64_MAX, out);
}

int mmtests_parse_timestamp(const char *name, const char *text, size_t len,
			    const char *bench, struct mmtests_timestamp *ts,
			    struct strbuf *err)
{
	struct mmtests_timestamp t = {0};
	struct lines l;
	struct fields f = {0};
	const char *rest;
	int ret = -1;

	lines_init(&l, text, len);
	while (lines_next(&l)) {
		const char *line = l.line.buf;

		if ((rest = after(line, "start"))) {
			if (!epoch(rest, &t.start))
				goto bad;
		} else if ((rest = after(line, "finish"))) {
			if (!epoch(rest, &t.finish))
				goto bad;
		} else if ((rest = after(line, "test begin"))) {
			fields_split(&f, rest);
			if (f.nr != 2)
				goto bad;
			if (strcmp(f.v[0], bench) != 0)
				continue;
			if (!epoch(f.v[1], &t.begin))
				goto bad;
		} else if ((rest = after(line, "time"))) {
			/* "time :: BENCH U user S system E elapsed" */
			fields_split(&f, rest);
			if (f.nr != 7 || strcmp(f.v[2], "user") != 0 ||
			    strcmp(f.v[4], "system") != 0 ||
			    strcmp(f.v[6], "elapsed") != 0)
				goto bad;
			if (strcmp(f.v[0], bench) != 0)
				continue;
			if (!mm_number(f.v[1], &t.user_s) ||
			    !mm_number(f.v[3], &t.sys_s) ||
			    !mm_number(f.v[5], &t.elapsed_s))
				goto bad;
			t.has_time = true;
		}
	}
	*ts = t;
	ret = 0;
	goto out;
bad:
	error_addf(err, "%s:%zu: malformed line of tests-timestamp", name,
		   l.nr);
out:
	fields_release(&f);
	strbuf_release(&l.line);
	return ret;
}

/* One snapshot of /proc/vmstat in tests-sysstate. */
struct snapshot {
	struct strmap index; /* name -> slot */
	char **names;
	int64_t *values;
	size_t nr, alloc, values_alloc;
};

static void snapshot_add(struct snapshot *s, const char *name, int64_t v)
{
	size_t i;

	if (strmap_get(&s->index, name, strlen(name), &i)) {
		s->values[i] = v;
		return;
	}
	ALLOC_GROW(s->names, s->nr + 1, s->alloc);
	ALLOC_GROW(s->values, s->nr + 1, s->values_alloc);
	s->names[s->nr] = xstrdup(name);
	s->values[s->nr] = v;
	strmap_put(&s->index, name, strlen(name), s->nr++);
}

static void snapshot_release(struct snapshot *s)
{
	for (size_t i = 0; i < s->nr; i++)
		free(s->names[i]);
	free(s->names);
	free(s->values);
	strmap_clear(&s->index);
	memset(s, 0, sizeof(*s));
}

int mmtests_parse_sysstate(const char *name, const char *text, size_t len,
			   const char *bench, struct mmtests_vmstat *out,
			   struct strbuf *err)
{
	struct snapshot snap[2] = {{.index = STRMAP_INIT},
				   {.index = STRMAP_INIT}};
	bool seen[2] = {false, false};
	struct lines l;
	struct fields f = {0};
	struct strbuf q = STRBUF_INIT;
	bool in_test = false;
	int reading = -1, ret = -1;
	const char *rest;

	lines_init(&l, text, len);
	while (lines_next(&l)) {
		const char *line = l.line.buf;
		int64_t v;

		if ((rest = after(line, "test begin")) ||
		    (rest = after(line, "test end"))) {
			fields_split(&f, rest);
			in_test = line[5] == 'b' && f.nr &&
				  !strcmp(f.v[0], bench);
			reading = -1;
			continue;
		}
		if (!in_test)
			continue;
		if ((rest = after(line, "file start")) ||
		    (rest = after(line, "file end"))) {
			reading = -1;
			if (!strcmp(rest, "/proc/vmstat")) {
				reading = line[5] == 's' ? 0 : 1;
				seen[reading] = true;
			}
			continue;
		}
		if (reading < 0)
			continue;
		fields_split(&f, line);
		if (!f.nr)
			continue;
		if (f.nr != 2 ||
		    !parse_int64(f.v[1], INT64_MIN, INT64_MAX, &v)) {
			error_addf(err, "%s:%zu: bad /proc/vmstat line '%s'",
				   name, l.nr, quote(&q, line));
			goto out;
		}
		snapshot_add(&snap[reading], f.v[0], v);
	}
	out->found = seen[0] && seen[1];
	for (size_t i = 0; out->found && i < snap[1].nr; i++) {
		const char *n = snap[1].names[i];
		size_t k;
		int64_t d;

		if (!strmap_get(&snap[0].index, n, strlen(n), &k))
			continue;
		/* Modulo 2^64, as mmcmp's own monitors take differences. */
		d = (int64_t)((uint64_t)snap[1].values[i] -
			      (uint64_t)snap[0].values[k]);
		if (!d)
			continue;
		ALLOC_GROW(out->v, out->nr + 1, out->alloc);
		out->v[out->nr].name = xstrdup(n);
		out->v[out->nr++].value = d;
	}
	for (size_t i = 0; out->found && i < snap[1].nr; i++) {
		/* As mmcmp's own records keep them: a gauge at 0 left out. */
		if (!snap[1].values[i] ||
		    !monitor_vmstat_is_gauge(snap[1].names[i]))
			continue;
		ALLOC_GROW(out->end, out->end_nr + 1, out->end_alloc);
		out->end[out->end_nr].name = xstrdup(snap[1].names[i]);
		out->end[out->end_nr++].value = snap[1].values[i];
	}
	ret = 0;
out:
	snapshot_release(&snap[0]);
	snapshot_release(&snap[1]);
	fields_release(&f);
	strbuf_release(&l.line);
	strbuf_release(&q);
	return ret;
}

/* Warn when path, a file of the tree, resolves to one outside it. */
static void check_inside(const struct mm_tree *t, const char *path)
{
	char *real;
	size_t n;

	if (!t->root || !(real = realpath(path, NULL)))
		return;
	n = strlen(t->root);
	if (strncmp(real, t->root, n) != 0 || (real[n] != '/' && n > 1))
		mm_warn(t, "%s: a symlink out of the tree, to '%s'", path,
			real);
	free(real);
}

/*
 * The whole of path, or of path.gz; *found false when neither exists.
 * Read by import_read_file(): a FIFO or device is refused, never read.
 */
static int read_log(const struct mm_tree *t, const char *path,
		    struct strbuf *sb, bool *found, struct strbuf *err)
{
	struct strbuf gz = STRBUF_INIT, raw = STRBUF_INIT;
	const char *open_path = path;
	struct stat stbuf;
	int ret = -1;

	strbuf_reset(sb);
	*found = false;
	if (stat(path, &stbuf) != 0) {
		strbuf_addf(&gz, "%s.gz", path);
		if (stat(gz.buf, &stbuf) != 0) {
			strbuf_release(&gz);
			return 0;
		}
		open_path = gz.buf;
	}
	*found = true;
	check_inside(t, open_path);
	if (import_read_file(open_path, MMTESTS_MAX_FILE_BYTES, &raw, err))
		goto out;
	if (import_is_gzip(raw.buf, raw.len)) {
		if (import_gunzip(open_path, raw.buf, raw.len,
				  MMTESTS_MAX_FILE_BYTES, sb, t->warnings, err))
			goto out;
	} else {
		struct strbuf text = raw;

		if (open_path == gz.buf)
			mm_warn(t, "%s: not gzip data; read as text",
				open_path);
		raw = *sb;
		*sb = text;
	}
	ret = 0;
out:
	strbuf_release(&gz);
	strbuf_release(&raw);
	return ret;
}

/* Like read_log(), but the file must exist. */
static int read_required(const struct mm_tree *t, const char *path,
			 struct strbuf *sb, struct strbuf *err)
{
	bool found;

	if (read_log(t, path, sb, &found, err))
		return -1;
	if (!found)
		return error_addf(err, "cannot open '%s': %s", path,
				  strerror(ENOENT));
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir (not "." or ".."), sorted; a NULL-ended array. */
static char **list_dir(const char *dir, struct strbuf *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL;
	size_t nr = 0, alloc = 0;

	if (!d) {
		error_addf(err, "cannot open '%s': %s", dir, strerror(errno));
		return NULL;
	}
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		ALLOC_GROW(v, nr + 2, alloc);
		v[nr++] = xstrdup(e->d_name);
	}
	closedir(d);
	ALLOC_GROW(v, nr + 1, alloc);
	v[nr] = NULL;
	qsort(v, nr, sizeof(*v), cmp_str);
	return v;
}

static void free_list(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* "iter-N": N. */
static bool iter_number(const char *name, int64_t *n)
{
	return !strncmp(name, "iter-", 5) &&
	       parse_int64(name + 5, 0, INT64_MAX, n);
}

/* Whether dir has an iter-N directory. */
static bool has_iters(const char *dir)
{
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	char **names = list_dir(dir, &err);
	bool found = false;
	int64_t n;

	for (size_t i = 0; names && names[i] && !found; i++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/%s", dir, names[i]);
		found = iter_number(names[i], &n) && is_dir(sb.buf);
	}
	free_list(names);
	strbuf_release(&sb);
	strbuf_release(&err);
	return found;
}

/* How the samples of a benchmark are reported. */
struct bench_kind {
	const char *unit;
	bool higher_better;
	int decimals;
};

/* A log file and the keys parse-results orders it by. */
struct log_file {
	char *name;
	char *a, *b; /* its second and third '-' fields */
};

static int cmp_num_then_str(const char *x, const char *y)
{
	double dx = strtod(x, NULL), dy = strtod(y, NULL);

	if (dx != dy)
		return dx < dy ? -1 : 1;
	return strcmp(x, y);
}

/* will-it-scale: thread count first, then workload and model. */
static int cmp_wis(const void *p, const void *q)
{
	const struct log_file *x = p, *y = q;
	int c = cmp_num_then_str(x->b, y->b);

	return c ? c : strcmp(x->name, y->name);
}

/* time-PHASE-N: phase (numbers first, as sort -n), then N. */
static int cmp_time(const void *p, const void *q)
{
	const struct log_file *x = p, *y = q;
	int c = cmp_num_then_str(x->a, y->a);

	return c ? c : cmp_num_then_str(x->b, y->b);
}

/* The files of names starting with prefix, split at '-'. */
static struct log_file *log_files(char **names, const char *prefix, size_t *nr)
{
	struct log_file *v = NULL;
	size_t alloc = 0;

	*nr = 0;
	for (size_t i = 0; names[i]; i++) {
		const char *n = names[i], *d1, *d2;
		const char *end;

		if (strncmp(n, prefix, strlen(prefix)) != 0)
			continue;
		d1 = strchr(n, '-');
		d2 = d1 ? strchr(d1 + 1, '-') : NULL;
		if (!d2)
			continue;
		end = strchr(d2 + 1, '-');
		if (!end)
			end = d2 + 1 + strlen(d2 + 1);
		ALLOC_GROW(v, *nr + 1, alloc);
		v[*nr].name = xstrdup(n);
		v[*nr].a = xstrndup(d1 + 1, (size_t)(d2 - d1 - 1));
		v[*nr].b = xstrndup(d2 + 1, (size_t)(end - d2 - 1));
		(*nr)++;
	}
	return v;
}

static void log_files_free(struct log_file *v, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(v[i].name);
		free(v[i].a);
		free(v[i].b);
	}
	free(v);
}

static int parse_wis_dir(const struct mm_tree *t, const char *dir, char **names,
			 struct mmtests_samples *out, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct strbuf op = STRBUF_INIT;
	size_t nr;
	struct log_file *files = log_files(names, "benchlog-", &nr);
	int ret = -1;

	if (nr)
		qsort(files, nr, sizeof(*files), cmp_wis);
	for (size_t i = 0; i < nr; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir, files[i].name);
		strbuf_reset(&op);
		strbuf_addf(&op, "ops-%s-%s", files[i].a, files[i].b);
		if (read_required(t, path.buf, &text, err) ||
		    mmtests_parse_wis(path.buf, text.buf, text.len, op.buf, out,
				      t->warnings, err))
			goto out;
	}
	ret = 0;
out:
	log_files_free(files, nr);
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&op);
	return ret;
}

/* awk's print of a number: 6 significant digits. */
static double awk_round(double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.6g", v);
	return strtod(buf, NULL);
}

static int parse_time_dir(const struct mm_tree *t, const char *dir,
			  char **names, struct mmtests_samples *out,
			  struct strbuf *err)
{
	static const char *const metrics[] = {"Elapsed", "System", "User"};
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct strbuf op = STRBUF_INIT;
	struct strmap phases = STRMAP_INIT;
	size_t nr, kept = 0;
	struct log_file *files = log_files(names, "time-", &nr);
	double *times = xcalloc(3 * nr + 1, sizeof(*times));
	int ret = -1;

	/* Only phases with a time-PHASE-1, as `ls time-*-1` finds them. */
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(files[i].b, "1"))
			strmap_put(&phases, files[i].a, strlen(files[i].a), 0);
	for (size_t i = 0; i < nr; i++) {
		if (!strmap_get(&phases, files[i].a, strlen(files[i].a),
				NULL)) {
			free(files[i].name);
			free(files[i].a);
			free(files[i].b);
			continue;
		}
		files[kept++] = files[i];
	}
	nr = kept;
	if (nr)
		qsort(files, nr, sizeof(*files), cmp_time);
	for (size_t i = 0; i < nr; i++) {
		double *tm = &times[3 * i];

		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir, files[i].name);
		if (read_required(t, path.buf, &text, err) ||
		    mmtests_parse_gnu_time(path.buf, text.buf, text.len, &tm[2],
					   &tm[1], &tm[0], err))
			goto out;
		tm[0] = awk_round(tm[0]);
	}
	/* parse-results sorts by metric, then phase, then iteration. */
	for (size_t m = 0; m < ARRAY_SIZE(metrics); m++) {
		for (size_t i = 0; i < nr; i++) {
			strbuf_reset(&op);
			strbuf_addf(&op, "%s-%s", metrics[m], files[i].a);
			mmtests_samples_add(out, op.buf, times[3 * i + m]);
		}
	}
	ret = 0;
out:
	log_files_free(files, nr);
	free(times);
	strmap_clear(&phases);
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&op);
	return ret;
}

/* netperf-*: the protocol's P-SIZE.K files, sizes in numeric order. */
static int parse_netperf_dir(const struct mm_tree *t, const char *dir,
			     char **names, struct mmtests_samples *out,
			     struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct strbuf proto = STRBUF_INIT, pretty = STRBUF_INIT;
	struct strbuf op = STRBUF_INIT, prefix = STRBUF_INIT;
	char **sizes = NULL;
	size_t sizes_nr = 0, sizes_alloc = 0;
	bool udp;
	int ret = -1;

	strbuf_addf(&path, "%s/protocols", dir);
	if (read_required(t, path.buf, &text, err))
		goto out;
	strbuf_add(&proto, text.buf, strcspn(text.buf, " \t\r\n"));
	if (!proto.len) {
		error_addf(err, "%s:1: no protocol", path.buf);
		goto out;
	}
	udp = !strcmp(proto.buf, "UDP_STREAM");
	for (const char *p = proto.buf; *p; p++)
		if (*p != '_')
			strbuf_addch(&pretty, (char)tolower((unsigned char)*p));
	strbuf_addf(&prefix, "%s-", proto.buf);
	for (size_t i = 0; names[i]; i++) {
		const char *n = names[i];
		size_t len = strlen(n);

		if (strncmp(n, prefix.buf, prefix.len) != 0 ||
		    len < prefix.len + 3 || strcmp(n + len - 2, ".1") != 0)
			continue;
		ALLOC_GROW(sizes, sizes_nr + 1, sizes_alloc);
		sizes[sizes_nr++] =
			xstrndup(n + prefix.len, len - prefix.len - 2);
	}
	for (size_t i = 1; i < sizes_nr; i++) {
		for (size_t j = i;
		     j > 0 && cmp_num_then_str(sizes[j - 1], sizes[j]) > 0;
		     j--) {
			char *swap = sizes[j];

			sizes[j] = sizes[j - 1];
			sizes[j - 1] = swap;
		}
	}
	for (size_t s = 0; s < sizes_nr; s++) {
		size_t plen = prefix.len + strlen(sizes[s]) + 1;

		for (size_t i = 0; names[i]; i++) {
			double send, recv;

			if (strncmp(names[i], prefix.buf, prefix.len) != 0 ||
			    strncmp(names[i] + prefix.len, sizes[s],
				    strlen(sizes[s])) != 0 ||
			    names[i][plen - 1] != '.')
				continue;
			strbuf_reset(&path);
			strbuf_addf(&path, "%s/%s", dir, names[i]);
			if (read_required(t, path.buf, &text, err) ||
			    mmtests_parse_netperf(path.buf, text.buf, text.len,
						  udp, &send, &recv, err))
				goto out;
			strbuf_reset(&op);
			strbuf_addf(&op, "%s-send-%s", pretty.buf, sizes[s]);
			mmtests_samples_add(out, op.buf, send);
			if (udp) {
				/* mmtests reports the sender's rate here too.
				 */
				strbuf_reset(&op);
				strbuf_addf(&op, "%s-recv-%s", pretty.buf,
					    sizes[s]);
				mmtests_samples_add(out, op.buf, send);
			}
		}
	}
	ret = 0;
out:
	for (size_t i = 0; i < sizes_nr; i++)
		free(sizes[i]);
	free(sizes);
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&proto);
	strbuf_release(&pretty);
	strbuf_release(&op);
	strbuf_release(&prefix);
	return ret;
}

/* pft: logs/pft-C.log or logs/base/pft-C.log; faults/cpu then /sec. */
static int parse_pft_dir(const struct mm_tree *t, const char *dir, char **names,
			 struct mmtests_samples *out, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct strbuf base = STRBUF_INIT;
	struct mmtests_samples cpu = {0}, sec = {0};
	struct log_file *files = NULL;
	size_t nr = 0, alloc = 0;
	char **sub = NULL;
	const char *from = dir;
	int ret = -1;

	strbuf_addf(&base, "%s/base", dir);
	if (is_dir(base.buf)) {
		sub = list_dir(base.buf, err);
		if (!sub)
			goto out;
		names = sub;
		from = base.buf;
	}
	for (size_t i = 0; names[i]; i++) {
		const char *n = names[i];
		size_t len = strlen(n);

		if (strncmp(n, "pft-", 4) != 0 || len < 9 ||
		    strcmp(n + len - 4, ".log") != 0)
			continue;
		ALLOC_GROW(files, nr + 1, alloc);
		files[nr].name = xstrdup(n);
		files[nr].a = xstrndup(n + 4, len - 8);
		files[nr].b = xstrdup("");
		nr++;
	}
	if (nr)
		qsort(files, nr, sizeof(*files), cmp_time);
	for (size_t i = 0; i < nr; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", from, files[i].name);
		if (read_required(t, path.buf, &text, err) ||
		    mmtests_parse_pft(path.buf, text.buf, text.len, files[i].a,
				      &cpu, &sec, err))
			goto out;
	}
	for (size_t i = 0; i < cpu.nr; i++)
		mmtests_samples_add(out, cpu.v[i].op, cpu.v[i].value);
	for (size_t i = 0; i < sec.nr; i++)
		mmtests_samples_add(out, sec.v[i].op, sec.v[i].value);
	ret = 0;
out:
	log_files_free(files, nr);
	free_list(sub);
	mmtests_samples_release(&cpu);
	mmtests_samples_release(&sec);
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&base);
	return ret;
}

/* Whether names has a time-*-1 file. */
static bool has_time_logs(char **names)
{
	for (size_t i = 0; names[i]; i++) {
		size_t len = strlen(names[i]);

		if (!strncmp(names[i], "time-", 5) && len > 7 &&
		    !strcmp(names[i] + len - 2, "-1"))
			return true;
	}
	return false;
}

/*
 * The samples of benchmark bench in logs directory dir, and how they are
 * reported; *known false for a benchmark mmcmp has no parser for.
 */
static int parse_bench(const struct mm_tree *t, const char *dir,
		       const char *bench, struct mmtests_samples *out,
		       struct bench_kind *kind, bool *known, struct strbuf *err)
{
	char **names = list_dir(dir, err);
	int ret = -1;

	*known = true;
	if (!names)
		return -1;
	if (!strncmp(bench, "wis-", 4)) {
		*kind = (struct bench_kind){"ops/s", true, 2};
		ret = parse_wis_dir(t, dir, names, out, err);
	} else if (!strcmp(bench, "pft")) {
		*kind = (struct bench_kind){"faults/s", true, 4};
		ret = parse_pft_dir(t, dir, names, out, err);
	} else if (!strncmp(bench, "netperf-", 8)) {
		*kind = (struct bench_kind){
			strstr(bench, "-rr") ? "trans/s" : "Mbit/s", true, 2};
		ret = parse_netperf_dir(t, dir, names, out, err);
	} else if (!strcmp(bench, "trunc") || has_time_logs(names)) {
		*kind = (struct bench_kind){"s", false,
					    !strcmp(bench, "trunc") ? 4 : 2};
		ret = parse_time_dir(t, dir, names, out, err);
	} else {
		*known = false;
		ret = 0;
	}
	free_list(names);
	return ret;
}

/* Everything one iter-N directory holds of interest. */
struct iter_dir {
	int64_t index;
	char *path;
	struct strbuf timestamp, sysstate;
	bool has_timestamp, has_sysstate;
	char **benches; /* in the order tests-timestamp began them */
};

static void iter_dir_release(struct iter_dir *it)
{
	free(it->path);
	strbuf_release(&it->timestamp);
	strbuf_release(&it->sysstate);
	free_list(it->benches);
}

static int cmp_iter(const void *a, const void *b)
{
	const struct iter_dir *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

/* Append the benchmarks of one iteration to v (each once). */
static void add_benches(struct iter_dir *it, char ***v, size_t *nr,
			size_t *alloc, struct strmap *seen)
{
	for (size_t i = 0; it->benches[i]; i++) {
		const char *b = it->benches[i];

		if (strmap_get(seen, b, strlen(b), NULL))
			continue;
		strmap_put(seen, b, strlen(b), *nr);
		ALLOC_GROW(*v, *nr + 2, *alloc);
		(*v)[(*nr)++] = xstrdup(b);
		(*v)[*nr] = NULL;
	}
}

/* The benchmark directories of it (with a logs/), in run order. */
static int iter_benches(struct iter_dir *it, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	struct strmap seen = STRMAP_INIT;
	struct lines l;
	struct fields f = {0};
	char **names = list_dir(it->path, err), **v = NULL;
	size_t nr = 0, alloc = 0;

	if (!names)
		return -1;
	ALLOC_GROW(v, 1, alloc);
	v[0] = NULL;
	/* First the order tests-timestamp gives, then the rest by name. */
	lines_init(&l, it->timestamp.buf, it->timestamp.len);
	while (lines_next(&l)) {
		const char *rest = after(l.line.buf, "test begin");

		if (!rest)
			continue;
		fields_split(&f, rest);
		if (!f.nr || strmap_get(&seen, f.v[0], strlen(f.v[0]), NULL))
			continue;
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/%s/logs", it->path, f.v[0]);
		if (!is_dir(sb.buf))
			continue;
		strmap_put(&seen, f.v[0], strlen(f.v[0]), nr);
		ALLOC_GROW(v, nr + 2, alloc);
		v[nr++] = xstrdup(f.v[0]);
		v[nr] = NULL;
	}
	for (size_t i = 0; names[i]; i++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/%s/logs", it->path, names[i]);
		if (strmap_get(&seen, names[i], strlen(names[i]), NULL) ||
		    !is_dir(sb.buf))
			continue;
		strmap_put(&seen, names[i], strlen(names[i]), nr);
		ALLOC_GROW(v, nr + 2, alloc);
		v[nr++] = xstrdup(names[i]);
		v[nr] = NULL;
	}
	it->benches = v;
	free_list(names);
	fields_release(&f);
	strbuf_release(&l.line);
	strbuf_release(&sb);
	strmap_clear(&seen);
	return 0;
}

/*
 * Whether the entry name of a run, at path, is to be skipped on pass
 * (0: the names "iter-N" as mmtests writes them, 1: the others): an
 * iteration whose number seen has already, or an iter- entry that is not
 * an iteration directory, skipped with a warning; v: the iterations
 * taken.
 */
static bool iter_skip(const struct mm_tree *t, const char *name,
		      const char *path, int pass, struct strmap *seen,
		      const struct iter_dir *v, int64_t *n)
{
	char canon[32];
	size_t other;
	bool number = iter_number(name, n);

	if (strncmp(name, "iter-", 5) != 0)
		return true;
	snprintf(canon, sizeof(canon), "iter-%" PRId64, number ? *n : 0);
	if ((number && !strcmp(name, canon)) != !pass)
		return true;
	if (!number) {
		mm_warn(t, "%s: not an iteration number; skipped", path);
		return true;
	}
	if (!is_dir(path)) {
		mm_warn(t, "%s: not a directory; skipped", path);
		return true;
	}
	if (strmap_get(seen, n, sizeof(*n), &other)) {
		mm_warn(t, "%s: iteration %" PRId64 " again (%s); skipped",
			path, *n, v[other].path);
		return true;
	}
	return false;
}

/* The number of names in a NULL-ended array. */
static size_t nr_names(char **names)
{
	size_t n = 0;

	while (names[n])
		n++;
	return n;
}

static int read_iters(const struct mm_tree *t, const char *run,
		      struct iter_dir **out, size_t *out_nr, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	struct strmap seen = STRMAP_INIT;
	char **names = list_dir(run, err);
	struct iter_dir *v = NULL;
	size_t nr = 0, alloc = 0, names_nr = 0;
	int ret = -1;

	if (!names)
		goto out;
	names_nr = nr_names(names);
	if (!names_nr) {
		ret = 0;
		goto out;
	}
	/* Each name once: iter-N as mmtests writes them, then the others. */
	for (size_t k = 0; k < 2 * names_nr; k++) {
		size_t i = k % names_nr;
		int pass = k >= names_nr;
		struct iter_dir *it;
		int64_t n;

		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/%s", run, names[i]);
		if (iter_skip(t, names[i], sb.buf, pass, &seen, v, &n))
			continue;
		strmap_put(&seen, &n, sizeof(n), nr);
		ALLOC_GROW(v, nr + 1, alloc);
		it = &v[nr++];
		memset(it, 0, sizeof(*it));
		it->index = n;
		it->path = xstrdup(sb.buf);
		strbuf_init(&it->timestamp, 0);
		strbuf_init(&it->sysstate, 0);
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/tests-timestamp", it->path);
		if (read_log(t, sb.buf, &it->timestamp, &it->has_timestamp,
			     err))
			goto out;
		/* Every line mmtests writes there is "WHAT :: ...". */
		if (it->has_timestamp && !strstr(it->timestamp.buf, " :: "))
			mm_warn(t, "%s: no mmtests timestamp lines", sb.buf);
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/tests-sysstate", it->path);
		if (read_log(t, sb.buf, &it->sysstate, &it->has_sysstate,
			     err) ||
		    iter_benches(it, err))
			goto out;
	}
	if (!nr) {
		error_addf(err, "%s: no iter-N directories of an mmtests run",
			   run);
		goto out;
	}
	qsort(v, nr, sizeof(*v), cmp_iter);
	ret = 0;
out:
	if (ret) {
		for (size_t i = 0; i < nr; i++)
			iter_dir_release(&v[i]);
		free(v);
		v = NULL;
		nr = 0;
	}
	*out = v;
	*out_nr = nr;
	free_list(names);
	strbuf_release(&sb);
	strmap_clear(&seen);
	return ret;
}

static void utc(int64_t t, char out[32])
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) ||
	    !strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(out, 32, "1970-01-01T00:00:00Z");
}

/* The index of op (bench, name) in rf, created with kind if new. */
static size_t run_op(struct run_full *rf, struct strmap *ops,
		     struct strbuf *key, const char *bench, const char *name,
		     const struct bench_kind *kind)
{
	struct op_samples *op;
	size_t i;

	strbuf_reset(key);
	strbuf_add(key, bench, strlen(bench) + 1);
	strbuf_addstr(key, name);
	if (strmap_get(ops, key->buf, key->len, &i))
		return i;
	ALLOC_GROW(rf->ops, rf->ops_nr + 1, rf->ops_alloc);
	op = &rf->ops[rf->ops_nr];
	memset(op, 0, sizeof(*op));
	op->benchmark = xstrdup(bench);
	op->name = xstrdup(name);
	op->unit = xstrdup(kind->unit);
	op->higher_better = kind->higher_better;
	op->decimals = kind->decimals;
	strmap_put(ops, key->buf, key->len, rf->ops_nr);
	return rf->ops_nr++;
}

/* One iteration of bench from iter-N, with its samples, times, vmstat. */
static int add_iteration(const struct mm_tree *t, struct run_full *rf,
			 struct strmap *ops, struct iter_dir *it,
			 const char *bench, const char *fallback_time,
			 struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT, key = STRBUF_INIT;
	struct mmtests_samples s = {0};
	struct mmtests_timestamp ts = {0};
	struct mmtests_vmstat vm = {0};
	struct iteration_data *iter;
	struct bench_kind kind;
	char when[32];
	bool known;
	int ret = -1;

	strbuf_addf(&sb, "%s/%s/logs", it->path, bench);
	if (parse_bench(t, sb.buf, bench, &s, &kind, &known, err))
		goto out;
	if (!known) {
		ret = 0;
		goto out;
	}
	if (!s.nr)
		mm_warn(t, "%s: no samples of %s in these logs", sb.buf, bench);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s/tests-timestamp", it->path);
	if (it->has_timestamp &&
	    mmtests_parse_timestamp(sb.buf, it->timestamp.buf,
				    it->timestamp.len, bench, &ts, err))
		goto out;
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s/tests-sysstate", it->path);
	if (it->has_sysstate &&
	    mmtests_parse_sysstate(sb.buf, it->sysstate.buf, it->sysstate.len,
				   bench, &vm, err))
		goto out;
	ALLOC_GROW(rf->iters, rf->iters_nr + 1, rf->iters_alloc);
	iter = &rf->iters[rf->iters_nr++];
	memset(iter, 0, sizeof(*iter));
	iter->benchmark = xstrdup(bench);
	iter->job = xstrdup("mmtests");
	iter->index = it->index;
	iter->status = xstrdup("ok");
	if (ts.begin || ts.start) {
		utc(ts.begin ? ts.begin : ts.start, when);
		iter->started_at = xstrdup(when);
	} else {
		iter->started_at = xstrdup(fallback_time);
	}
	iter->user_s = ts.user_s;
	iter->sys_s = ts.sys_s;
	iter->elapsed_s = ts.elapsed_s;
	iter->samples_first = rf->samples_nr;
	for (size_t i = 0; i < s.nr; i++) {
		size_t op = run_op(rf, ops, &key, bench, s.v[i].op, &kind);

		ALLOC_GROW(rf->samples, rf->samples_nr + 1, rf->samples_alloc);
		rf->samples[rf->samples_nr].op = op;
		rf->samples[rf->samples_nr++].value = s.v[i].value;
	}
	iter->samples_nr = rf->samples_nr - iter->samples_first;
	if (vm.found) {
		iter->monitor = iteration_monitor_new();
		iter->monitor->vmstat.v = vm.v;
		iter->monitor->vmstat.nr = vm.nr;
		iter->monitor->vmstat.alloc = vm.alloc;
		iter->monitor->has_vmstat_end = true;
		iter->monitor->vmstat_end.v = vm.end;
		iter->monitor->vmstat_end.nr = vm.end_nr;
		iter->monitor->vmstat_end.alloc = vm.end_alloc;
		memset(&vm, 0, sizeof(vm));
	}
	ret = 0;
out:
	mmtests_samples_release(&s);
	mmtests_vmstat_release(&vm);
	strbuf_release(&sb);
	strbuf_release(&key);
	return ret;
}

/* "Key:   value" of lscpu: the value, or NULL. */
static char *lscpu_value(const char *text, size_t len, const char *key)
{
	struct lines l;
	char *v = NULL;
	size_t n = strlen(key);

	lines_init(&l, text, len);
	while (!v && lines_next(&l)) {
		const char *p = l.line.buf;

		if (strncmp(p, key, n) != 0 || p[n] != ':')
			continue;
		p += n + 1;
		while (isspace((unsigned char)*p))
			p++;
		v = xstrdup(p);
	}
	strbuf_release(&l.line);
	return v;
}

/* The facts of the machine that ran iteration it, where recorded. */
static int read_machine(const struct mm_tree *t, const struct iter_dir *it,
			struct machine_info *m, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT, text = STRBUF_INIT;
	struct fields f = {0};
	struct lines l;
	bool found;
	char *v;
	int ret = -1;

	/* uname -a: kernel nodename release version... machine OS. */
	strbuf_addf(&sb, "%s/kernel.version", it->path);
	if (read_log(t, sb.buf, &text, &found, err))
		goto out;
	if (found) {
		strbuf_setlen(&text, strcspn(text.buf, "\r\n"));
		fields_split(&f, text.buf);
		if (f.nr >= 3) {
			m->hostname = xstrdup(f.v[1]);
			m->kernel_release = xstrdup(f.v[2]);
		}
		if (f.nr >= 6) {
			/* The version runs up to the machine name(s) and OS. */
			size_t last = f.nr - 1;
			const char *from, *to;

			if (!strcmp(f.v[last], "GNU/Linux"))
				last--;
			while (last > 4 && !strcmp(f.v[last], "unknown"))
				last--;
			while (last > 4 && !strcmp(f.v[last], f.v[last - 1]))
				last--;
			from = f.v[3];
			to = f.v[last - 1] + strlen(f.v[last - 1]);
			m->kernel_version = xstrndup(text.buf + (from - f.buf),
						     (size_t)(to - from));
		}
	}
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s/lscpu.txt", it->path);
	if (read_log(t, sb.buf, &text, &found, err))
		goto out;
	if (found) {
		int64_t n;

		m->cpu_model = lscpu_value(text.buf, text.len, "Model name");
		if ((v = lscpu_value(text.buf, text.len, "CPU(s)")) &&
		    parse_int64(v, 1, INT64_MAX, &n))
			m->nr_cpus = n;
		free(v);
		if ((v = lscpu_value(text.buf, text.len, "NUMA node(s)")) &&
		    parse_int64(v, 1, INT64_MAX, &n))
			m->numa_nodes = n;
		free(v);
	}
	/* MemTotal of the first /proc/meminfo in tests-sysstate. */
	lines_init(&l, it->sysstate.buf, it->sysstate.len);
	while (!m->mem_bytes && lines_next(&l)) {
		int64_t kb;

		if (strncmp(l.line.buf, "MemTotal:", 9) != 0)
			continue;
		fields_split(&f, l.line.buf + 9);
		if (f.nr == 2 && !strcmp(f.v[1], "kB") &&
		    parse_int64(f.v[0], 1, INT64_MAX / 1024, &kb))
			m->mem_bytes = kb * 1024;
	}
	strbuf_release(&l.line);
	/* The kernel command line, from the boot messages. */
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s/dmesg", it->path);
	if (read_log(t, sb.buf, &text, &found, err))
		goto out;
	if (found) {
		const char *p = strstr(text.buf, "Command line: ");

		if (p) {
			p += 14;
			m->cmdline = xstrndup(p, strcspn(p, "\r\n"));
		}
	}
	ret = 0;
out:
	fields_release(&f);
	strbuf_release(&sb);
	strbuf_release(&text);
	return ret;
}

/*
 * A uuid from the run's contents, so the same tree imported twice gives
 * the same run: SHA-256 of label, operations, iterations and samples,
 * shaped as an RFC 9562 version 8 (custom) UUID.
 */
static void run_uuid(const struct run_full *rf, char out[37])
{
	struct strbuf sb = STRBUF_INIT;
	char hex[65];

	strbuf_addf(&sb, "mmtests\n%s\n", rf->info.label);
	for (size_t i = 0; i < rf->ops_nr; i++)
		strbuf_addf(&sb, "op %s %s\n", rf->ops[i].benchmark,
			    rf->ops[i].name);
	for (size_t i = 0; i < rf->iters_nr; i++) {
		const struct iteration_data *it = &rf->iters[i];

		strbuf_addf(&sb, "iter %s %" PRId64 " %.17g %.17g %.17g\n",
			    it->benchmark, it->index, it->user_s, it->sys_s,
			    it->elapsed_s);
		for (size_t s = 0; s < it->samples_nr; s++) {
			const struct sample_data *d =
				&rf->samples[it->samples_first + s];

			strbuf_addf(&sb, "%zu %.17g\n", d->op, d->value);
		}
		for (size_t v = 0; it->monitor && v < it->monitor->vmstat.nr;
		     v++)
			strbuf_addf(&sb, "vm %s %" PRId64 "\n",
				    it->monitor->vmstat.v[v].name,
				    it->monitor->vmstat.v[v].value);
	}
	sha256_hex(sb.buf, sb.len, hex);
	uuid_from_sha256(hex, out);
	strbuf_release(&sb);
}

/* Read the run in directory run (labelled label) into rf. */
static int read_run(const struct mm_tree *t, const char *run, const char *label,
		    struct run_full *rf, struct strbuf *err)
{
	struct iter_dir *iters = NULL;
	struct strmap ops = STRMAP_INIT, seen = STRMAP_INIT;
	struct strbuf path = STRBUF_INIT;
	char **benches = NULL, uuid[37], when[32], now[32];
	size_t iters_nr = 0, benches_nr = 0, benches_alloc = 0;
	int64_t start = 0, finish = 0;
	int ret = -1;

	machine_utc_now(now);
	if (read_iters(t, run, &iters, &iters_nr, err))
		goto out;
	for (size_t i = 0; i < iters_nr; i++)
		add_benches(&iters[i], &benches, &benches_nr, &benches_alloc,
			    &seen);
	for (size_t b = 0; b < benches_nr; b++) {
		for (size_t i = 0; i < iters_nr; i++) {
			bool here = false;

			for (size_t k = 0; iters[i].benches[k]; k++)
				here = here ||
				       !strcmp(iters[i].benches[k], benches[b]);
			if (here && add_iteration(t, rf, &ops, &iters[i],
						  benches[b], now, err))
				goto out;
		}
	}
	if (!rf->samples_nr) {
		error_addf(
			err,
			"%s: no results of a benchmark mmcmp reads (wis-*, pft, netperf-*, trunc or time-based)",
			run);
		goto out;
	}
	for (size_t i = 0; i < iters_nr; i++) {
		struct mmtests_timestamp ts = {0};

		strbuf_reset(&path);
		strbuf_addf(&path, "%s/tests-timestamp", iters[i].path);
		if (iters[i].has_timestamp &&
		    mmtests_parse_timestamp(path.buf, iters[i].timestamp.buf,
					    iters[i].timestamp.len, "", &ts,
					    err))
			goto out;
		if (ts.start && (!start || ts.start < start))
			start = ts.start;
		if (ts.finish > finish)
			finish = ts.finish;
	}
	if (read_machine(t, &iters[0], &rf->info.machine, err))
		goto out;
	rf->info.label = xstrdup(label);
	run_uuid(rf, uuid);
	rf->info.uuid = xstrdup(uuid);
	rf->info.status = xstrdup("complete");
	run_info_set_config(&rf->info, run, "", 0);
	if (start)
		utc(start, when);
	rf->info.started_at = xstrdup(start ? when : now);
	if (finish)
		utc(finish, when);
	rf->info.ended_at = xstrdup(finish ? when : rf->info.started_at);
	rf->info.mmcmp_version = xstrdup(MMCMP_VERSION);
	ret = 0;
out:
	for (size_t i = 0; i < iters_nr; i++)
		iter_dir_release(&iters[i]);
	free(iters);
	for (size_t i = 0; i < benches_nr; i++)
		free(benches[i]);
	free(benches);
	strmap_clear(&ops);
	strmap_clear(&seen);
	strbuf_release(&path);
	return ret;
}

int import_mmtests(const char *path, struct strvec *warnings,
		   struct run_full **runs, size_t *nr, struct strbuf *err)
{
	struct mm_tree t = {.root = realpath(path, NULL), .warnings = warnings};
	struct strbuf sb = STRBUF_INIT;
	struct run_full *v = NULL;
	char **names = NULL;
	size_t n = 0;
	int ret = -1;

	*runs = NULL;
	*nr = 0;
	if (!is_dir(path)) {
		error_addf(err, "%s: not a directory", path);
		goto out;
	}
	if (has_iters(path)) {
		/* A RUN directory: its label is the path's last part. */
		size_t len = strlen(path);
		char *run, *base;

		while (len > 1 && path[len - 1] == '/')
			len--;
		run = xstrndup(path, len);
		base = strrchr(run, '/');
		v = xcalloc(1, sizeof(*v));
		n = 1;
		ret = read_run(&t, run, base ? base + 1 : run, &v[0], err);
		free(run);
		goto out;
	}
	names = list_dir(path, err);
	if (!names)
		goto out;
	for (size_t i = 0; names[i]; i++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s%s%s", path,
			    path[strlen(path) - 1] == '/' ? "" : "/", names[i]);
		if (!is_dir(sb.buf) || !has_iters(sb.buf))
			continue;
		v = xrealloc(v, (n + 1) * sizeof(*v));
		memset(&v[n], 0, sizeof(*v));
		n++;
		if (read_run(&t, sb.buf, names[i], &v[n - 1], err))
			goto out;
	}
	if (!n) {
		error_addf(err,
			   "%s: no mmtests runs (RUN/iter-N directories) here",
			   path);
		goto out;
	}
	ret = 0;
out:
	if (ret) {
		run_full_free_array(v, n);
	} else {
		*runs = v;
		*nr = n;
	}
	free_list(names);
	strbuf_release(&sb);
	free(t.root);
	return ret;
}
