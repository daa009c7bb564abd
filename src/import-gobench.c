/* import-gobench: the Go benchmark format (golang.org/design/14313). */
#include "import.h"

#include <string.h>

#include "parse-num.h"
#include "run-data.h"
#include "strbuf.h"
#include "strmap.h"
#include "strvec.h"
#include "util.h"

#define GB_PREFIX    "Benchmark"
#define GB_BENCHMARK "gobench" /* without a "pkg" configuration */

/* One line of the input, without its end ("\n" or "\r\n"). */
struct gb_line {
	const char *s;
	size_t len, nr; /* nr: 1-based */
};

/* The next line at *pos of buf; false at the end. */
static bool gb_next_line(const char *buf, size_t len, size_t *pos,
			 struct gb_line *l)
{
	const char *nl;

	if (*pos >= len)
		return false;
	l->s = buf + *pos;
	nl = memchr(l->s, '\n', len - *pos);
	l->len = nl ? (size_t)(nl - l->s) : len - *pos;
	*pos += l->len + (nl != NULL);
	if (l->len && l->s[l->len - 1] == '\r')
		l->len--;
	l->nr++;
	return true;
}

static bool gb_space(char c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

/* Split l at runs of white space into fields (copies, in sv). */
static void gb_fields(const struct gb_line *l, struct strvec *sv)
{
	size_t i = 0;

	strvec_clear(sv);
	while (i < l->len) {
		size_t start;

		while (i < l->len && gb_space(l->s[i]))
			i++;
		start = i;
		while (i < l->len && !gb_space(l->s[i]))
			i++;
		if (i > start)
			strvec_push_nodup(sv,
					  xstrndup(l->s + start, i - start));
	}
}

static bool gb_starts(const struct gb_line *l, const char *prefix)
{
	size_t n = strlen(prefix);

	return l->len >= n && !memcmp(l->s, prefix, n);
}

/*
 * A result line: "BenchmarkNAME ITERATIONS" and more. Lines that start
 * so but whose second field is not a count are text (go test -v prints
 * such lines), as any other line is.
 */
static bool gb_is_result(const struct gb_line *l, const struct strvec *f)
{
	uint64_t n;

	return gb_starts(l, GB_PREFIX) && f->nr >= 2 &&
	       parse_uint64(f->v[1], &n);
}

/*
 * A configuration line "key: value": a key without white space or upper
 * case letters, a colon, then white space or the end. *key and *value
 * get copies (value without surrounding white space).
 */
static bool gb_config(const struct gb_line *l, char **key, char **value)
{
	size_t k = 0, v, end = l->len;

	while (k < l->len && l->s[k] != ':') {
		if (gb_space(l->s[k]) || (l->s[k] >= 'A' && l->s[k] <= 'Z'))
			return false;
		k++;
	}
	if (!k || k == l->len || (k + 1 < l->len && !gb_space(l->s[k + 1])))
		return false;
	for (v = k + 1; v < end && gb_space(l->s[v]); v++)
		;
	while (end > v && gb_space(l->s[end - 1]))
		end--;
	*key = xstrndup(l->s, k);
	*value = xstrndup(l->s + v, end - v);
	return true;
}

/* Go's default direction for a unit without metadata: rates are higher. */
static bool gb_default_higher(const char *unit)
{
	size_t n = strlen(unit);

	return n > 2 && !strcmp(unit + n - 2, "/s");
}

struct gb_parser {
	const char *path;
	const struct import_options *opts;
	char *file_label;
	struct import_builder b;
	/* Unit lines: unit -> line << 1 | higher. */
	struct strmap units;
	/* The configuration in effect: key -> index in values. */
	struct strmap config;
	struct strvec values;
	struct strvec f; /* the fields of the current line */
	size_t results;
	struct strbuf *err;
};

MMCMP_PRINTF(3, 4)
static int gb_fail(struct gb_parser *p, const struct gb_line *l,
		   const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	error_addf(p->err, "%s:%zu: %s", p->path, l->nr, msg.buf);
	strbuf_release(&msg);
	return -1;
}

/* "Unit UNIT key=value...": only better= means something to mmcmp. */
static int gb_unit_line(struct gb_parser *p, const struct gb_line *l)
{
	const char *why;

	if (p->f.nr < 2)
		return gb_fail(p, l, "a Unit line needs a unit");
	if (!import_name_ok(p->f.v[1], &why))
		return gb_fail(p, l, "unit is %s", why);
	for (size_t i = 2; i < p->f.nr; i++) {
		const char *kv = p->f.v[i], *eq = strchr(kv, '=');
		size_t old, now;
		bool higher;

		if (!eq || eq == kv)
			return gb_fail(p, l, "'%s' is not KEY=VALUE", kv);
		if (strncmp(kv, "better=", 7) != 0)
			continue;
		if (!strcmp(eq + 1, "higher"))
			higher = true;
		else if (!strcmp(eq + 1, "lower"))
			higher = false;
		else
			return gb_fail(
				p, l, "better is 'higher' or 'lower', not '%s'",
				eq + 1);
		now = l->nr << 1 | higher;
		if (strmap_get(&p->units, p->f.v[1], strlen(p->f.v[1]), &old)) {
			if ((old & 1) != higher)
				return gb_fail(
					p, l,
					"unit '%s' is better=%s at line %zu",
					p->f.v[1], old & 1 ? "higher" : "lower",
					old >> 1);
			continue;
		}
		strmap_put(&p->units, p->f.v[1], strlen(p->f.v[1]), now);
	}
	return 0;
}

static const char *gb_get(struct gb_parser *p, const char *key)
{
	size_t i;

	if (!strmap_get(&p->config, key, strlen(key), &i) || !*p->values.v[i])
		return NULL;
	return p->values.v[i];
}

static void gb_set(struct gb_parser *p, char *key, char *value)
{
	size_t i;

	if (strmap_get(&p->config, key, strlen(key), &i)) {
		free(p->values.v[i]);
		p->values.v[i] = value;
	} else {
		strmap_put(&p->config, key, strlen(key), p->values.nr);
		strvec_push_nodup(&p->values, value);
	}
	free(key);
}

/* One result line: one iteration of the run of its label. */
static int gb_result(struct gb_parser *p, const struct gb_line *l)
{
	const char *name = p->f.v[0] + strlen(GB_PREFIX);
	const char *bench = gb_get(p, "pkg"), *label = p->file_label;
	const char *cpu = gb_get(p, "cpu"), *why;
	struct strbuf op = STRBUF_INIT;
	bool created;
	size_t run;
	int ret = -1;

	if (p->opts->label_by && !(label = gb_get(p, p->opts->label_by))) {
		gb_fail(p, l, "no configuration '%s' for this result",
			p->opts->label_by);
		goto out;
	}
	if (!*name) {
		gb_fail(p, l, "no benchmark name after '%s'", GB_PREFIX);
		goto out;
	}
	if (p->f.nr < 4 || p->f.nr % 2) {
		gb_fail(p, l,
			"expected VALUE UNIT pairs after the iteration count");
		goto out;
	}
	if (!import_name_ok(label, &why)) {
		gb_fail(p, l, "the label is %s", why);
		goto out;
	}
	if (!bench)
		bench = GB_BENCHMARK;
	run = import_builder_run(&p->b, label, &created);
	if (created && cpu)
		p->b.runs[run].info.machine.cpu_model = xstrdup(cpu);
	import_builder_iteration(&p->b, run, bench, name);
	for (size_t i = 2; i < p->f.nr; i += 2) {
		const char *unit = p->f.v[i + 1];
		size_t dir, o;
		double v;

		if (!parse_double(p->f.v[i], &v)) {
			gb_fail(p, l, "'%s' is not a finite number", p->f.v[i]);
			goto out;
		}
		strbuf_reset(&op);
		strbuf_addf(&op, "%s %s", name, unit);
		if (!import_name_ok(op.buf, &why)) {
			gb_fail(p, l, "the operation name is %s", why);
			goto out;
		}
		dir = strmap_get(&p->units, unit, strlen(unit), &dir)
			      ? dir & 1
			      : gb_default_higher(unit);
		o = import_builder_op(&p->b, run, bench, op.buf, unit, dir);
		import_builder_sample(&p->b, run, o, v);
	}
	p->results++;
	ret = 0;
out:
	strbuf_release(&op);
	return ret;
}

/*
 * Two passes: unit metadata holds for the whole file, so the Unit lines
 * are read first; then configuration and results in order.
 */
static int gb_parse_lines(struct gb_parser *p, const char *buf, size_t len)
{
	struct gb_line l = {0};
	size_t pos = 0;
	char *key, *value;

	while (gb_next_line(buf, len, &pos, &l)) {
		if (!gb_starts(&l, "Unit") || (l.len > 4 && !gb_space(l.s[4])))
			continue;
		gb_fields(&l, &p->f);
		if (gb_unit_line(p, &l))
			return -1;
	}
	memset(&l, 0, sizeof(l));
	pos = 0;
	while (gb_next_line(buf, len, &pos, &l)) {
		if (gb_starts(&l, GB_PREFIX)) {
			gb_fields(&l, &p->f);
			if (gb_is_result(&l, &p->f) && gb_result(p, &l))
				return -1;
		} else if (gb_config(&l, &key, &value)) {
			gb_set(p, key, value);
		}
	}
	return 0;
}

static int gobench_parse(const char *path, const char *buf, size_t len,
			 const struct import_options *opts,
			 struct run_full **runs, size_t *nr, struct strbuf *err)
{
	struct gb_parser p = {
		.path = path,
		.opts = opts,
		.units = STRMAP_INIT,
		.config = STRMAP_INIT,
		.values = STRVEC_INIT,
		.f = STRVEC_INIT,
		.err = err,
	};
	int ret = -1;

	*runs = NULL;
	*nr = 0;
	p.file_label = import_file_label(path);
	import_builder_init(&p.b, "gobench", opts->started_at);
	if (gb_parse_lines(&p, buf, len))
		goto out;
	if (!p.results) {
		error_addf(
			err,
			"%s: no benchmark results (lines 'BenchmarkNAME N VALUE UNIT...')",
			path);
		goto out;
	}
	import_builder_finish(&p.b, path, buf, len, runs, nr);
	ret = 0;
out:
	import_builder_release(&p.b);
	strmap_clear(&p.units);
	strmap_clear(&p.config);
	strvec_clear(&p.values);
	strvec_clear(&p.f);
	free(p.file_label);
	return ret;
}

/* Text with at least one well-formed result line. */
static bool gobench_detect(const char *path, const char *buf, size_t len)
{
	struct strvec f = STRVEC_INIT;
	struct gb_line l = {0};
	size_t pos = 0;
	bool found = false;

	(void)path;
	while (!found && gb_next_line(buf, len, &pos, &l)) {
		double v;

		if (!gb_starts(&l, GB_PREFIX))
			continue;
		gb_fields(&l, &f);
		found = gb_is_result(&l, &f) && f.nr >= 4 && !(f.nr % 2);
		for (size_t i = 2; found && i < f.nr; i += 2)
			found = parse_double(f.v[i], &v);
	}
	strvec_clear(&f);
	return found;
}

const struct import_format import_gobench = {
	.name = "gobench",
	.detect = gobench_detect,
	.parse = gobench_parse,
	.max_bytes = IMPORT_MAX_BYTES,
};
