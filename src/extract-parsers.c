/* extract-parsers: the known benchmark output formats of extract.h. */
#include "extract-internal.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "json.h"
#include "parse-num.h"
#include "strbuf.h"
#include "util.h"

/* Text helpers */

struct lines {
	char *pos, *end;
};

#define LINES_INIT(text, len)                                                  \
	{                                                                      \
		(text), (text) + (len)                                         \
	}

/* Cut the next line out of ls in place; NULL when none is left. */
static char *next_line(struct lines *ls)
{
	char *line = ls->pos;
	char *nl;
	size_t n;

	if (line >= ls->end)
		return NULL;
	nl = memchr(line, '\n', (size_t)(ls->end - line));
	if (!nl)
		nl = ls->end; /* the terminating NUL */
	*nl = '\0';
	ls->pos = nl + 1;
	n = (size_t)(nl - line);
	if (n && line[n - 1] == '\r')
		line[n - 1] = '\0';
	return line;
}

/* Whether some line of text, less trailing blanks, is want. */
static bool has_line(const char *text, size_t len, const char *want)
{
	const char *p = text, *end = text + len;
	size_t n = strlen(want);

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t k = (size_t)((nl ? nl : end) - p);

		while (k && isspace((unsigned char)p[k - 1]))
			k--;
		if (k == n && !memcmp(p, want, n))
			return true;
		if (!nl)
			break;
		p = nl + 1;
	}
	return false;
}

static char *skip_blank(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

#define MAX_WORDS 16

/*
 * Split s in place at whitespace into at most max words. Returns the
 * number of words, or max + 1 when there are more.
 */
static size_t split_words(char *s, char **w, size_t max)
{
	size_t n = 0;

	for (;;) {
		s = skip_blank(s);
		if (!*s)
			return n;
		if (n == max)
			return max + 1;
		w[n++] = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
		if (*s)
			*s++ = '\0';
	}
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !memcmp(s + n - k, suffix, k);
}

/* Parse word w less suffix, which it must end with. */
static bool num_suffix(char *w, const char *suffix, double *out)
{
	return ends_with(w, suffix) &&
	       extract_num_n(w, strlen(w) - strlen(suffix), out);
}

/* Parse word w after prefix, which it must start with. */
static bool num_prefix(char *w, const char *prefix, double *out)
{
	size_t k = strlen(prefix);

	return !strncmp(w, prefix, k) && parse_double(w + k, out);
}

/*
 * Parse "[[H:]M:]S[.frac]" (GNU time's %E) in the n bytes at s into
 * seconds.
 */
static bool parse_clock(char *s, size_t n, double *out)
{
	char *p = s, *end = s + n;
	double total = 0, part;
	int parts = 0;

	for (;;) {
		char *colon = memchr(p, ':', (size_t)(end - p));
		size_t k = (size_t)((colon ? colon : end) - p);

		if (++parts > 3 || !extract_num_n(p, k, &part) || part < 0)
			return false;
		if (colon && part != floor(part))
			return false;
		total = total * 60 + part;
		if (!colon)
			break;
		p = colon + 1;
	}
	*out = total;
	return true;
}

/* The error for a recognised line whose number cannot be read. */
static int bad_value(struct strbuf *err, const char *parser, const char *what,
		     const char *s)
{
	struct strbuf q = STRBUF_INIT;

	extract_add_quoted(&q, s, strlen(s));
	error_addf(err, "%s: cannot read %s in %s", parser, what, q.buf);
	strbuf_release(&q);
	return -1;
}

/* Join words for bad_value(): split_words() cut the line apart. */
static int bad_words(struct strbuf *err, const char *parser, const char *what,
		     char **w, size_t n)
{
	struct strbuf line = STRBUF_INIT;

	for (size_t i = 0; i < n && i < MAX_WORDS; i++) {
		if (i)
			strbuf_addch(&line, ' ');
		strbuf_addstr(&line, w[i]);
	}
	bad_value(err, parser, what, line.buf);
	strbuf_release(&line);
	return -1;
}

enum line_kind {
	LINE_OTHER, /* not the line sought */
	LINE_VALUE, /* the line, and its number is in *out */
	LINE_BAD,   /* the line, but its value is not a number */
};

/*
 * Whether line, after leading blanks, starts with label; if so, read the
 * rest (less unit, when given and present) as a number.
 */
static enum line_kind labelled(char *line, const char *label, const char *unit,
			       double *out)
{
	char *p = skip_blank(line);
	size_t k = strlen(label), n;

	if (strncmp(p, label, k))
		return LINE_OTHER;
	p = skip_blank(p + k);
	n = strlen(p);
	while (n && isspace((unsigned char)p[n - 1]))
		n--;
	if (unit) {
		size_t u = strlen(unit);

		if (n >= u && !memcmp(p + n - u, unit, u))
			n -= u;
		while (n && isspace((unsigned char)p[n - 1]))
			n--;
	}
	return extract_num_n(p, n, out) ? LINE_VALUE : LINE_BAD;
}

/* Add the value of a labelled line to out; -1 for a bad value. */
static int take_labelled(char *line, const char *label, const char *unit,
			 const char *parser, struct sink *out,
			 struct strbuf *err)
{
	double d;

	switch (labelled(line, label, unit, &d)) {
	case LINE_VALUE:
		extract_sink_add(out, d);
		return 0;
	case LINE_BAD:
		return bad_value(err, parser, "the number", line);
	case LINE_OTHER:
		break;
	}
	return 0;
}

/* will-it-scale */

static const char *const wis_fields[] = {"total", "min", "max", "per_task",
					 NULL};

/* A "tasks:N" line (mmcmp's wis prints one): 0, or -1 for a bad N. */
static int wis_tasks(char *line, double *tasks, struct strbuf *err)
{
	if (!num_prefix(line, "tasks:", tasks) || *tasks < 1 ||
	    *tasks != floor(*tasks))
		return bad_value(err, "will-it-scale", "the task count", line);
	return 0;
}

static int wis_run(const struct field *f, char *text, size_t len,
		   struct sink *out, struct strbuf *err)
{
	/* Word order on the line: min, max, total; per_task is total. */
	static const int word_of[] = {2, 0, 1, 2};
	enum { WIS_NONE, WIS_WARMUP, WIS_MEASURE } state = WIS_NONE;
	struct lines ls = LINES_INIT(text, len);
	size_t start = *out->nr;
	char *line, *w[MAX_WORDS];
	double val[3], tasks = 0;

	while ((line = next_line(&ls))) {
		bool testcase = !strncmp(line, "testcase:", 9);
		size_t n = split_words(line, w, MAX_WORDS);

		if (n == 1 && !strncmp(w[0], "tasks:", 6)) {
			if (wis_tasks(w[0], &tasks, err))
				return -1;
			continue;
		}

		if (testcase || (n == 1 && (!strcmp(w[0], "warmup") ||
					    !strcmp(w[0], "measurement")))) {
			/* Lines before the first marker were not measured. */
			if (state == WIS_NONE)
				*out->nr = start;
			if (testcase)
				tasks = 0; /* each run says its own */
			state = !testcase && w[0][0] == 'm' ? WIS_MEASURE
							    : WIS_WARMUP;
			continue;
		}
		if (n != 3 || strncmp(w[0], "min:", 4) ||
		    strncmp(w[1], "max:", 4) || strncmp(w[2], "total:", 6))
			continue;
		if (!num_prefix(w[0], "min:", &val[0]) ||
		    !num_prefix(w[1], "max:", &val[1]) ||
		    !num_prefix(w[2], "total:", &val[2]))
			return bad_words(err, "will-it-scale", "the numbers", w,
					 n);
		if (state == WIS_WARMUP)
			continue;
		if (f->which == 3 && !tasks)
			return error_addf(
				err,
				"will-it-scale: field 'per_task' needs a 'tasks:N' line before the samples, which will-it-scale itself does not print; use 'total'");
		extract_sink_add(out, val[word_of[f->which]] /
					      (f->which == 3 ? tasks : 1));
	}
	return 0;
}

/* netperf */

static const char *const netperf_fields[] = {"throughput", "elapsed", NULL};

static int netperf_banner(char *line, struct strbuf *err)
{
	static const char *const tests[] = {"TCP STREAM", "TCP SENDFILE",
					    "TCP MAERTS"};
	char *p = skip_blank(line);
	char *at = strstr(p, " TEST from ");
	struct strbuf q = STRBUF_INIT;
	size_t n;

	if (!at)
		return 0;
	if (!strncmp(p, "MIGRATED ", 9))
		p += 9;
	n = (size_t)(at - p);
	for (size_t i = 0; i < ARRAY_SIZE(tests); i++)
		if (n == strlen(tests[i]) && !memcmp(p, tests[i], n))
			return 0;
	extract_add_quoted(&q, p, n);
	error_addf(err,
		   "netperf: cannot read the table of the %s TEST; only "
		   "TCP_STREAM, TCP_SENDFILE and TCP_MAERTS",
		   q.buf);
	strbuf_release(&q);
	return -1;
}

static int netperf_run(const struct field *f, char *text, size_t len,
		       struct sink *out, struct strbuf *err)
{
	struct lines ls = LINES_INIT(text, len);
	char *line, *w[MAX_WORDS];

	while ((line = next_line(&ls))) {
		double col[MAX_WORDS];
		size_t n, i;

		if (netperf_banner(line, err))
			return -1;
		n = split_words(line, w, MAX_WORDS);
		if (n < 5 || n > MAX_WORDS)
			continue;
		for (i = 0; i < n; i++)
			if (!parse_double(w[i], &col[i]))
				break;
		if (i < n)
			continue;
		/* Recv size, send size, message size, elapsed, throughput. */
		extract_sink_add(out, f->which == 0 ? col[4] : col[3]);
	}
	return 0;
}

/* gnu-time */

static const char *const time_fields[] = {"elapsed", "user", "system", "maxrss",
					  NULL};

enum { TIME_ELAPSED, TIME_USER, TIME_SYSTEM, TIME_MAXRSS };

/* The line of `time -v` for each field. */
static const char *const time_verbose[] = {
	"Elapsed (wall clock) time (h:mm:ss or m:ss):",
	"User time (seconds):",
	"System time (seconds):",
	"Maximum resident set size (kbytes):",
};

/* The line of `time -p` for each field. */
static const char *const time_posix[] = {"real", "user", "sys", NULL};

/*
 * A line of the default format:
 * 0.04user 0.00system 0:00.05elapsed 98%CPU (0avgtext+0avgdata
 * 1596maxresident)k
 */
static int time_default(int which, char **w, size_t n, double *out)
{
	switch (which) {
	case TIME_USER:
		return num_suffix(w[0], "user", out);
	case TIME_SYSTEM:
		return num_suffix(w[1], "system", out);
	case TIME_ELAPSED:
		return parse_clock(w[2], strlen(w[2]) - 7, out);
	default:
		for (size_t i = 3; i < n && i < MAX_WORDS; i++)
			if (ends_with(w[i], "maxresident)k"))
				return num_suffix(w[i], "maxresident)k", out);
		return false;
	}
}

static int time_run(const struct field *f, char *text, size_t len,
		    struct sink *out, struct strbuf *err)
{
	const char *verbose = time_verbose[f->which];
	struct lines ls = LINES_INIT(text, len);
	char *line, *w[MAX_WORDS];
	double d;

	while ((line = next_line(&ls))) {
		char *p = skip_blank(line);
		size_t n;

		if (!strncmp(p, verbose, strlen(verbose))) {
			p = skip_blank(p + strlen(verbose));
			n = strlen(p);
			while (n && isspace((unsigned char)p[n - 1]))
				n--;
			if (f->which == TIME_ELAPSED ? !parse_clock(p, n, &d)
						     : !extract_num_n(p, n, &d))
				return bad_value(err, "gnu-time", "the value",
						 line);
			extract_sink_add(out, d);
			continue;
		}
		n = split_words(line, w, MAX_WORDS);
		if (n >= 3 && ends_with(w[0], "user") &&
		    ends_with(w[1], "system") && ends_with(w[2], "elapsed")) {
			if (!time_default(f->which, w, n, &d))
				return bad_words(err, "gnu-time", "the value",
						 w, n);
			extract_sink_add(out, d);
		} else if (n == 2 && time_posix[f->which] &&
			   !strcmp(w[0], time_posix[f->which])) {
			if (!parse_double(w[1], &d))
				return bad_words(err, "gnu-time", "the value",
						 w, n);
			extract_sink_add(out, d);
		}
	}
	return 0;
}

/* stress-ng */

/* The --yaml names; also the order of the columns of the text table. */
static const char *const sng_metrics[] = {
	"bogo-ops",
	"wall-clock-time",
	"user-time",
	"system-time",
	"bogo-ops-per-second-real-time",
	"bogo-ops-per-second-usr-sys-time",
	"cpu-usage-per-instance",
	"max-rss",
	NULL,
};

#define SNG_DEFAULT 4

static int sng_setup(const struct parser *p, const char *field, struct field *f,
		     struct strbuf *err)
{
	struct strbuf known = STRBUF_INIT;
	const char *dot;
	size_t n;

	(void)p;
	if (!field || !*field)
		return error_addf(err, "stress-ng: the field must be "
				       "STRESSOR or STRESSOR.METRIC");
	dot = strchr(field, '.');
	n = dot ? (size_t)(dot - field) : strlen(field);
	if (!n || strcspn(field, " \t:") < n)
		return error_addf(err, "stress-ng: bad stressor name in '%s'",
				  field);
	f->which = SNG_DEFAULT;
	if (dot) {
		int i;

		for (i = 0; sng_metrics[i]; i++)
			if (!strcmp(dot + 1, sng_metrics[i]))
				break;
		if (!sng_metrics[i]) {
			extract_add_names(&known, sng_metrics);
			error_addf(
				err,
				"stress-ng: unknown metric '%s' (metrics: %s)",
				dot + 1, known.buf);
			strbuf_release(&known);
			return -1;
		}
		f->which = i;
	}
	f->arg = xstrndup(field, n);
	return 0;
}

/* The "metrics:" list of stress-ng --yaml. */
static int sng_yaml(const struct field *f, char *text, size_t len,
		    struct sink *out, struct strbuf *err)
{
	const char *key = sng_metrics[f->which];
	struct lines ls = LINES_INIT(text, len);
	bool in_metrics = false, mine = false;
	char *line;
	double d;

	while ((line = next_line(&ls))) {
		char *p, *colon, *value;
		size_t n;

		if (!*line)
			continue;
		if (!isspace((unsigned char)*line) && *line != '-') {
			p = line;
			n = strlen(p);
			while (n && isspace((unsigned char)p[n - 1]))
				p[--n] = '\0';
			in_metrics = !strcmp(p, "metrics:");
			mine = false;
			continue;
		}
		if (!in_metrics)
			continue;
		p = skip_blank(line);
		if (p[0] == '-' && isspace((unsigned char)p[1])) {
			mine = false;
			p = skip_blank(p + 1);
		}
		colon = strchr(p, ':');
		if (!colon)
			continue;
		*colon = '\0';
		value = skip_blank(colon + 1);
		n = strlen(value);
		while (n && isspace((unsigned char)value[n - 1]))
			value[--n] = '\0';
		if (!strcmp(p, "stressor")) {
			mine = !strcmp(value, f->arg);
		} else if (mine && !strcmp(p, key)) {
			if (!parse_double(value, &d)) {
				*colon = ':';
				return bad_value(err, "stress-ng", "the number",
						 p);
			}
			extract_sink_add(out, d);
		}
	}
	return 0;
}

/* A log level word of stress-ng: "info:", "metrc:". */
static bool sng_level(const char *w)
{
	size_t n = strlen(w);

	if (n < 2 || w[n - 1] != ':')
		return false;
	for (size_t i = 0; i + 1 < n; i++)
		if (!islower((unsigned char)w[i]))
			return false;
	return true;
}

static int sng_run(const struct field *f, char *text, size_t len,
		   struct sink *out, struct strbuf *err)
{
	struct lines ls = LINES_INIT(text, len);
	char *line, *w[MAX_WORDS];

	if (has_line(text, len, "metrics:"))
		return sng_yaml(f, text, len, out, err);
	while ((line = next_line(&ls))) {
		size_t n = split_words(line, w, MAX_WORDS), i = 0, cols, k;
		double col[8];

		if (n > MAX_WORDS)
			continue;
		if (i < n && !strcmp(w[i], "stress-ng:"))
			i++;
		if (i < n && sng_level(w[i]))
			i++;
		if (i < n && w[i][0] == '[' && ends_with(w[i], "]"))
			i++;
		if (i >= n || strcmp(w[i], f->arg))
			continue;
		/* --metrics-brief has six columns, --metrics eight. */
		cols = n - i - 1;
		if (cols != 6 && cols != 8)
			continue;
		for (k = 0; k < cols; k++)
			if (!parse_double(w[i + 1 + k], &col[k]))
				break;
		if (k < cols)
			continue;
		if ((size_t)f->which < cols)
			extract_sink_add(out, col[f->which]);
	}
	return 0;
}

/* fio */

/*
 * Whether s is a percentile shorthand "clat_pN", "lat_pN" or "slat_pN";
 * sets *kind_len to the length of its "clat" part and *pct to N.
 */
static bool fio_shorthand(const char *s, size_t *kind_len, double *pct)
{
	static const char *const kinds[] = {"clat", "slat", "lat"};

	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		size_t k = strlen(kinds[i]);
		const char *num = s + k + 2;

		if (strncmp(s, kinds[i], k) || strncmp(s + k, "_p", 2))
			continue;
		if (!*num || strspn(num, "0123456789.") != strlen(num))
			return false;
		if (!parse_double(num, pct) || *pct <= 0 || *pct > 100)
			return false;
		*kind_len = k;
		return true;
	}
	return false;
}

static int fio_setup(const struct parser *p, const char *field, struct field *f,
		     struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	struct strbuf why = STRBUF_INIT;
	const char *colon, *rel, *s;
	int ret = -1;

	(void)p;
	if (!field || !*field) {
		error_addf(err, "fio: the field must name a value, "
				"e.g. read.iops or seq:write.clat_p99");
		goto out;
	}
	colon = strrchr(field, ':');
	rel = colon ? colon + 1 : field;
	if (!*rel || (colon && colon == field)) {
		error_addf(err, "fio: bad field '%s'", field);
		goto out;
	}
	if (colon) {
		strbuf_addstr(&path, "jobs[jobname=\"");
		for (s = field; s < colon; s++) {
			if (*s == '"' || *s == '\\')
				strbuf_addch(&path, '\\');
			strbuf_addch(&path, *s);
		}
		strbuf_addstr(&path, "\"].");
	} else {
		strbuf_addstr(&path, "jobs[*].");
	}
	/* Find a component that is a percentile shorthand. */
	for (s = rel; *s; s++) {
		size_t kind_len;
		double pct;

		if ((s == rel || s[-1] == '.') &&
		    fio_shorthand(s, &kind_len, &pct)) {
			strbuf_add(&path, rel, (size_t)(s - rel) + kind_len);
			strbuf_addf(&path, "_ns.percentile[\"%f\"]", pct);
			break;
		}
	}
	if (!*s)
		strbuf_addstr(&path, rel);
	if (!json_path_check(path.buf, &why)) {
		error_addf(err, "fio: bad field '%s': %s", field, why.buf);
		goto out;
	}
	f->arg = strbuf_detach(&path, NULL);
	ret = 0;
out:
	strbuf_release(&path);
	strbuf_release(&why);
	return ret;
}

static int fio_run(const struct field *f, char *text, size_t len,
		   struct sink *out, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	size_t pos = 0;
	int ret;

	/* fio may print notes on stdout before the document. */
	for (;;) {
		size_t p = pos;
		const char *nl;

		while (p < len && (text[p] == ' ' || text[p] == '\t'))
			p++;
		if (p < len && text[p] == '{') {
			pos = p;
			break;
		}
		nl = memchr(text + pos, '\n', len - pos);
		if (!nl)
			return error_addf(
				err, "fio: no JSON in the output "
				     "(run fio with --output-format=json)");
		pos = (size_t)(nl - text) + 1;
	}
	ret = json_extract_numbers(text + pos, len - pos, f->arg, out->v,
				   out->nr, out->alloc, &why);
	if (ret)
		error_addf(err, "fio: %s", why.buf);
	strbuf_release(&why);
	return ret;
}

/* sysbench */

static const struct sysbench_field {
	const char *name;
	const char *label;
	const char *unit;
	bool latency; /* in the "Latency (ms):" section */
} sysbench_table[] = {
	{"events_per_sec", "events per second:", NULL, false},
	{"total_time", "total time:", "s", false},
	{"events", "total number of events:", NULL, false},
	{"lat_min", "min:", NULL, true},
	{"lat_avg", "avg:", NULL, true},
	{"lat_max", "max:", NULL, true},
	{"lat_sum", "sum:", NULL, true},
};

/* lat_pN: which is ARRAY_SIZE(sysbench_table), arg the line's label. */
static int sysbench_setup(const struct parser *p, const char *field,
			  struct field *f, struct strbuf *err)
{
	struct strbuf label = STRBUF_INIT;
	int pct;

	(void)p;
	if (!field || !*field)
		field = sysbench_table[0].name;
	for (size_t i = 0; i < ARRAY_SIZE(sysbench_table); i++) {
		if (!strcmp(field, sysbench_table[i].name)) {
			f->which = (int)i;
			return 0;
		}
	}
	if (strncmp(field, "lat_p", 5) || !parse_int(field + 5, 1, 100, &pct)) {
		for (size_t i = 0; i < ARRAY_SIZE(sysbench_table); i++)
			strbuf_addf(&label, "%s, ", sysbench_table[i].name);
		error_addf(err,
			   "parser 'sysbench' has no field '%s' "
			   "(fields: %slat_pN)",
			   field, label.buf);
		strbuf_release(&label);
		return -1;
	}
	f->which = (int)ARRAY_SIZE(sysbench_table);
	strbuf_addf(&label, "%dth percentile:", pct);
	f->arg = strbuf_detach(&label, NULL);
	return 0;
}

static int sysbench_run(const struct field *f, char *text, size_t len,
			struct sink *out, struct strbuf *err)
{
	struct lines ls = LINES_INIT(text, len);
	const char *label, *unit = NULL;
	bool latency = true, in_latency = false;
	char *line;

	if ((size_t)f->which < ARRAY_SIZE(sysbench_table)) {
		label = sysbench_table[f->which].label;
		unit = sysbench_table[f->which].unit;
		latency = sysbench_table[f->which].latency;
	} else {
		label = f->arg;
	}
	while ((line = next_line(&ls))) {
		char *p = skip_blank(line);

		if (!*p) {
			in_latency = false;
			continue;
		}
		if (!strncmp(p, "Latency", 7)) {
			in_latency = true;
			continue;
		}
		if (latency && !in_latency)
			continue;
		if (take_labelled(p, label, unit, "sysbench", out, err))
			return -1;
	}
	return 0;
}

/* hackbench */

static const char *const hackbench_fields[] = {"time", NULL};

static int hackbench_run(const struct field *f, char *text, size_t len,
			 struct sink *out, struct strbuf *err)
{
	struct lines ls = LINES_INIT(text, len);
	char *line;

	(void)f;
	while ((line = next_line(&ls)))
		if (take_labelled(line, "Time:", NULL, "hackbench", out, err))
			return -1;
	return 0;
}

/* perf-bench */

static const char *const perf_fields[] = {"total_time", "throughput",
					  "usecs_per_op", "ops_per_sec", NULL};

enum { PERF_TOTAL_TIME, PERF_THROUGHPUT, PERF_USECS_PER_OP, PERF_OPS };

/* MB/sec per unit of perf bench mem's print_bps(), whose K is 1024. */
static bool perf_unit(const char *unit, double *mb)
{
	static const struct {
		const char *name;
		double mb;
	} units[] = {
		{"bytes/sec", 1.0 / (1024 * 1024)},
		{"B/sec", 1.0 / (1024 * 1024)},
		{"KB/sec", 1.0 / 1024},
		{"MB/sec", 1.0},
		{"GB/sec", 1024.0},
	};

	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		if (!strcasecmp(unit, units[i].name)) {
			*mb = units[i].mb;
			return true;
		}
	}
	return false;
}

static int perf_run(const struct field *f, char *text, size_t len,
		    struct sink *out, struct strbuf *err)
{
	static const char *const per_op_unit[] = {NULL, NULL, "usecs/op",
						  "ops/sec"};
	struct lines ls = LINES_INIT(text, len);
	char *line, *w[MAX_WORDS];
	double d, mb;

	while ((line = next_line(&ls))) {
		size_t n;

		if (f->which == PERF_TOTAL_TIME) {
			if (take_labelled(line, "Total time:", "[sec]",
					  "perf-bench", out, err))
				return -1;
			continue;
		}
		n = split_words(line, w, MAX_WORDS);
		if (n != 2)
			continue;
		if (f->which == PERF_THROUGHPUT) {
			if (!perf_unit(w[1], &mb))
				continue;
			/* Some perf versions print "%lfd KB/sec". */
			if (!parse_double(w[0], &d) &&
			    !num_suffix(w[0], "d", &d))
				return bad_words(err, "perf-bench",
						 "the throughput", w, n);
			extract_sink_add(out, d * mb);
		} else if (!strcmp(w[1], per_op_unit[f->which])) {
			if (!parse_double(w[0], &d))
				return bad_words(err, "perf-bench",
						 "the number", w, n);
			extract_sink_add(out, d);
		}
	}
	return 0;
}

/* kv */

static int kv_setup(const struct parser *p, const char *field, struct field *f,
		    struct strbuf *err)
{
	(void)p;
	if (!field || !*field)
		return error_addf(err, "kv: the field must be the NAME "
				       "of the \"NAME VALUE\" lines");
	for (const char *s = field; *s; s++)
		if (isspace((unsigned char)*s))
			return error_addf(
				err, "kv: the NAME '%s' holds a space", field);
	f->arg = xstrdup(field);
	return 0;
}

static int kv_run(const struct field *f, char *text, size_t len,
		  struct sink *out, struct strbuf *err)
{
	struct lines ls = LINES_INIT(text, len);
	char *line, *w[2];
	double d;

	while ((line = next_line(&ls))) {
		if (split_words(line, w, 2) != 2 || strcmp(w[0], f->arg))
			continue;
		if (!parse_double(w[1], &d))
			return bad_words(err, "kv", "the value", w, 2);
		extract_sink_add(out, d);
	}
	return 0;
}

/* netstream */

static const char *const netstream_fields[] = {"throughput", NULL};

static int netstream_run(const struct field *f, char *text, size_t len,
			 struct sink *out, struct strbuf *err)
{
	static const struct {
		const char *name;
		double mbit;
	} units[] = {
		{"bit/s", 1e-6},
		{"Kbit/s", 1e-3},
		{"Mbit/s", 1.0},
		{"Gbit/s", 1e3},
	};
	struct lines ls = LINES_INIT(text, len);
	char *line, *w[4];
	double d;

	(void)f;
	while ((line = next_line(&ls))) {
		size_t n = split_words(line, w, 4), u;
		size_t digits;

		if (n != 4 || strcmp(w[0], "instance"))
			continue;
		digits = strspn(w[1], "0123456789");
		if (!digits || strcmp(w[1] + digits, ":"))
			continue;
		for (u = 0; u < ARRAY_SIZE(units); u++)
			if (!strcmp(w[3], units[u].name))
				break;
		if (u == ARRAY_SIZE(units))
			continue;
		if (!parse_double(w[2], &d))
			return bad_words(err, "netstream", "the throughput", w,
					 n);
		extract_sink_add(out, d * units[u].mbit);
	}
	return 0;
}

/* The number at the start of p ("2443/2443", "0 (0.000%)", "1.5 ms"). */
static bool lead_number(char *p, double *out)
{
	size_t n = strspn(p, "0123456789.eE+-");

	return n && extract_num_n(p, n, out);
}

/* dbench */

enum { DB_THROUGHPUT, DB_MAX_LATENCY, DB_COUNT, DB_AVGLAT, DB_MAXLAT };

static const char *const dbench_stats[] = {"count", "avglat", "maxlat"};

/* throughput, max_latency, or OP.count, OP.avglat, OP.maxlat. */
static int dbench_setup(const struct parser *p, const char *field,
			struct field *f, struct strbuf *err)
{
	const char *dot = field ? strrchr(field, '.') : NULL;

	(void)p;
	if (!field || !*field || !strcmp(field, "throughput")) {
		f->which = DB_THROUGHPUT;
		return 0;
	}
	if (!strcmp(field, "max_latency")) {
		f->which = DB_MAX_LATENCY;
		return 0;
	}
	for (size_t i = 0; dot && dot > field && i < ARRAY_SIZE(dbench_stats);
	     i++) {
		if (strcmp(dot + 1, dbench_stats[i]))
			continue;
		f->which = DB_COUNT + (int)i;
		f->arg = xstrndup(field, (size_t)(dot - field));
		return 0;
	}
	return error_addf(err,
			  "parser 'dbench' has no field '%s' (fields: "
			  "throughput, max_latency, OP.count, OP.avglat, "
			  "OP.maxlat for an operation OP such as WriteX)",
			  field);
}

static int dbench_run(const struct field *f, char *text, size_t len,
		      struct sink *out, struct strbuf *err)
{
	struct lines ls = LINES_INIT(text, len);
	char *line, *w[MAX_WORDS];
	bool table = false;
	double d;

	while ((line = next_line(&ls))) {
		size_t n = split_words(line, w, MAX_WORDS);

		if (n == 4 && !strcmp(w[0], "Operation") &&
		    !strcmp(w[1], "Count")) {
			table = true;
			continue;
		}
		if (n >= 3 && n <= MAX_WORDS && !strcmp(w[0], "Throughput") &&
		    !strcmp(w[2], "MB/sec")) {
			table = false;
			if (f->which == DB_THROUGHPUT) {
				if (!parse_double(w[1], &d))
					return bad_words(err, "dbench",
							 "the throughput", w,
							 n);
				extract_sink_add(out, d);
			}
			for (size_t i = 3; f->which == DB_MAX_LATENCY && i < n;
			     i++) {
				if (strncmp(w[i], "max_latency=", 12))
					continue;
				if (!num_prefix(w[i], "max_latency=", &d))
					return bad_words(err, "dbench",
							 "the latency", w, n);
				extract_sink_add(out, d);
			}
			continue;
		}
		if (!table || n != 4 || f->which < DB_COUNT ||
		    strcmp(w[0], f->arg))
			continue;
		if (!parse_double(w[1 + f->which - DB_COUNT], &d))
			return bad_words(err, "dbench", "the number", w, n);
		extract_sink_add(out, d);
	}
	return 0;
}

/* fs_mark */

static const char *const fsmark_fields[] = {"files_per_sec", "app_overhead",
					    NULL};

static int fsmark_run(const struct field *f, char *text, size_t len,
		      struct sink *out, struct strbuf *err)
{
	struct lines ls = LINES_INIT(text, len);
	char *line, *w[MAX_WORDS];
	bool table = false;
	double d;

	while ((line = next_line(&ls))) {
		size_t n = split_words(line, w, MAX_WORDS);

		if (n >= 1 && !strcmp(w[0], "FSUse%")) {
			table = true;
			continue;
		}
		if (!table || n != 5)
			continue;
		if (!parse_double(w[3 + f->which], &d))
			return bad_words(err, "fsmark", "the number", w, n);
		extract_sink_add(out, d);
	}
	return 0;
}

/* iperf3 */

enum { IP_RECEIVER, IP_SENDER, IP_RETRANSMITS };

static const char *const iperf3_fields[] = {"throughput", "sender",
					    "retransmits", NULL};

/* --json: the sums at the end of each document. */
static int iperf3_json(const struct field *f, char *text, size_t len,
		       struct sink *out, struct strbuf *err)
{
	static const char *const path[] = {
		"end.sum_received.bits_per_second",
		"end.sum_sent.bits_per_second",
		"end.sum_sent.retransmits",
	};
	struct strbuf why = STRBUF_INIT;
	size_t start = *out->nr;

	if (json_extract_numbers(text, len, path[f->which], out->v, out->nr,
				 out->alloc, &why)) {
		error_addf(err, "iperf3: %s", why.buf);
		strbuf_release(&why);
		return -1;
	}
	for (size_t i = start; f->which != IP_RETRANSMITS && i < *out->nr; i++)
		(*out->v)[i] /= 1e6;
	return 0;
}

/* The Mbit/s of a word "bits/sec", "Kbits/sec", ...; 0 if none. */
static double iperf3_unit(const char *w)
{
	static const struct {
		const char *name;
		double mbit;
	} units[] = {
		{"bits/sec", 1e-6}, {"Kbits/sec", 1e-3}, {"Mbits/sec", 1.0},
		{"Gbits/sec", 1e3}, {"Tbits/sec", 1e6},
	};

	for (size_t u = 0; u < ARRAY_SIZE(units); u++)
		if (!strcmp(w, units[u].name))
			return units[u].mbit;
	return 0;
}

static int iperf3_run(const struct field *f, char *text, size_t len,
		      struct sink *out, struct strbuf *err)
{
	const char *role = f->which == IP_RECEIVER ? "receiver" : "sender";
	struct lines ls = LINES_INIT(text, len);
	size_t run_start = *out->nr;
	bool have_sum = false;
	char *line, *w[MAX_WORDS];

	if (*skip_blank(text) == '{')
		return iperf3_json(f, text, len, out, err);
	while ((line = next_line(&ls))) {
		size_t n = split_words(line, w, MAX_WORDS), k;
		double d, mbit = 0;

		if (n == 2 && !strcmp(w[0], "iperf") &&
		    !strcmp(w[1], "Done.")) {
			run_start = *out->nr;
			have_sum = false;
			continue;
		}
		if (n < 4 || n > MAX_WORDS || strcmp(w[n - 1], role))
			continue;
		for (k = 1; k < n && !(mbit = iperf3_unit(w[k])); k++)
			;
		if (k == n)
			continue;
		if (f->which == IP_RETRANSMITS ? !parse_double(w[k + 1], &d)
					       : !parse_double(w[k - 1], &d))
			return bad_words(err, "iperf3", "the number", w, n);
		if (!strcmp(w[0], "[SUM]") && !have_sum) {
			*out->nr = run_start; /* the sum replaces the streams */
			have_sum = true;
		} else if (have_sum) {
			continue;
		}
		extract_sink_add(out,
				 f->which == IP_RETRANSMITS ? d : d * mbit);
	}
	return 0;
}

/* pgbench */

/* The labels of pgbench_fields, in order. */
static const char *const pgbench_labels[] = {
	"tps = ",
	"latency average = ",
	"latency stddev = ",
	"initial connection time = ",
	"number of transactions actually processed: ",
	"number of failed transactions: ",
};

static const char *const pgbench_fields[] = {"tps",
					     "latency_avg",
					     "latency_stddev",
					     "connection_time",
					     "transactions",
					     "failed",
					     NULL};

static int pgbench_run(const struct field *f, char *text, size_t len,
		       struct sink *out, struct strbuf *err)
{
	const char *label = pgbench_labels[f->which];
	struct lines ls = LINES_INIT(text, len);
	size_t k = strlen(label);
	char *line;
	double d;

	while ((line = next_line(&ls))) {
		char *p = skip_blank(line);

		if (strncmp(p, label, k))
			continue;
		if (!lead_number(p + k, &d))
			return bad_value(err, "pgbench", "the number", p);
		extract_sink_add(out, d);
	}
	return 0;
}

/* The parsers */

const struct parser extract_parsers[] = {
	{"will-it-scale", wis_fields, NULL, TEXT_LINES, wis_run},
	{"netperf", netperf_fields, NULL, TEXT_LINES, netperf_run},
	{"gnu-time", time_fields, NULL, TEXT_LINES, time_run},
	{"stress-ng", NULL, sng_setup, TEXT_LINES, sng_run},
	{"fio", NULL, fio_setup, TEXT_RAW, fio_run},
	{"sysbench", NULL, sysbench_setup, TEXT_LINES, sysbench_run},
	{"hackbench", hackbench_fields, NULL, TEXT_LINES, hackbench_run},
	{"perf-bench", perf_fields, NULL, TEXT_LINES, perf_run},
	{"kv", NULL, kv_setup, TEXT_LINES, kv_run},
	{"netstream", netstream_fields, NULL, TEXT_LINES, netstream_run},
	{"dbench", NULL, dbench_setup, TEXT_LINES, dbench_run},
	{"fsmark", fsmark_fields, NULL, TEXT_LINES, fsmark_run},
	{"iperf3", iperf3_fields, NULL, TEXT_LINES, iperf3_run},
	{"pgbench", pgbench_fields, NULL, TEXT_LINES, pgbench_run},
};

const size_t extract_parsers_nr = ARRAY_SIZE(extract_parsers);
