/* extract: samples from a workload's output by regex, JSON path or parser. */
#include "extract.h"

#include <ctype.h>
#include <limits.h>
#include <regex.h>
#include <string.h>

#include "config.h"
#include "extract-internal.h"
#include "json.h"
#include "parse-num.h"
#include "strbuf.h"
#include "util.h"

struct extractor {
	char *name;
	enum metric_source source;
	bool have_re;
	regex_t re;
	char *pattern;
	const struct parser *parser;
	struct field field;
	struct strbuf buf; /* scratch copy of the output */
};

void extract_sink_add(struct sink *s, double x)
{
	ALLOC_GROW(*s->v, *s->nr + 1, *s->alloc);
	(*s->v)[(*s->nr)++] = x;
}

bool extract_num_n(char *s, size_t n, double *out)
{
	char save = s[n];
	bool ok;

	s[n] = '\0';
	ok = parse_double(s, out);
	s[n] = save;
	return ok;
}

void extract_add_quoted(struct strbuf *sb, const char *s, size_t n)
{
	size_t k = n > 60 ? 60 : n;

	strbuf_addch(sb, '\'');
	for (size_t i = 0; i < k; i++)
		strbuf_addch(sb, isprint((unsigned char)s[i]) ? s[i] : '?');
	strbuf_addstr(sb, n > k ? "...'" : "'");
}

void extract_add_names(struct strbuf *sb, const char *const *names)
{
	for (size_t i = 0; names[i]; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", names[i]);
}

/* Copy len bytes of text into buf as the parser's mode wants them. */
static void prepare_text(struct strbuf *buf, const char *text, size_t len,
			 enum text_mode mode)
{
	size_t n;

	strbuf_reset(buf);
	strbuf_add(buf, text, len);
	if (mode == TEXT_RAW)
		return;
	for (size_t i = 0; i < buf->len; i++)
		if (!buf->buf[i])
			buf->buf[i] = '\n';
	if (mode == TEXT_NO_NUL)
		return;
	n = buf->len;
	while (n && buf->buf[n - 1] != '\n')
		n--;
	strbuf_setlen(buf, n);
}

static const struct parser *find_parser(const char *name, struct strbuf *err)
{
	struct strbuf known = STRBUF_INIT;

	for (size_t i = 0; name && i < extract_parsers_nr; i++)
		if (!strcmp(name, extract_parsers[i].name))
			return &extract_parsers[i];
	for (size_t i = 0; i < extract_parsers_nr; i++)
		strbuf_addf(&known, "%s%s", i ? ", " : "",
			    extract_parsers[i].name);
	if (name)
		error_addf(err, "unknown parser '%s' (parsers: %s)", name,
			   known.buf);
	else
		error_addf(err, "no parser given (parsers: %s)", known.buf);
	strbuf_release(&known);
	return NULL;
}

static int setup_field(const struct parser *p, const char *field,
		       struct field *f, struct strbuf *err)
{
	struct strbuf known = STRBUF_INIT;

	f->which = 0;
	f->arg = NULL;
	if (p->setup)
		return p->setup(p, field, f, err);
	if (!field || !*field)
		return 0;
	for (int i = 0; p->fields[i]; i++) {
		if (!strcmp(field, p->fields[i])) {
			f->which = i;
			return 0;
		}
	}
	extract_add_names(&known, p->fields);
	error_addf(err, "parser '%s' has no field '%s' (fields: %s)", p->name,
		   field, known.buf);
	strbuf_release(&known);
	return -1;
}

bool extract_parser_known(const char *name, const char *field,
			  struct strbuf *err)
{
	const struct parser *p = find_parser(name, err);
	struct field f;
	bool ok;

	if (!p)
		return false;
	ok = !setup_field(p, field, &f, err);
	if (ok)
		free(f.arg);
	return ok;
}

/* Regular expressions */

static int regex_setup(struct extractor *ex, const char *pattern,
		       struct strbuf *err)
{
	int rc;

	if (!pattern)
		return error_addf(err, "no regex");
	rc = regcomp(&ex->re, pattern, REG_EXTENDED | REG_NEWLINE);
	if (rc) {
		char msg[160];

		regerror(rc, &ex->re, msg, sizeof(msg));
		return error_addf(err, "bad regex '%s': %s", pattern, msg);
	}
	ex->have_re = true;
	if (ex->re.re_nsub < 1)
		return error_addf(
			err, "regex '%s' has no group to capture the number",
			pattern);
	return 0;
}

/* Run the regex over s (len bytes, NUL-terminated, writable). */
static int regex_run(struct extractor *ex, char *s, size_t len,
		     struct sink *out, struct strbuf *err)
{
	size_t pos = 0;
	regmatch_t pm[2];
	double d;

	/* regoff_t is an int in glibc. */
	if (len > INT_MAX)
		return error_addf(err,
				  "the output is too large (%zu bytes) "
				  "for a regex",
				  len);
	for (;;) {
		size_t so, eo, line = 1;
		struct strbuf q = STRBUF_INIT;
		int rc;

#ifdef REG_STARTEND
		/* Bounds given: regexec() need not find the end each time. */
		pm[0].rm_so = (regoff_t)pos;
		pm[0].rm_eo = (regoff_t)len;
		rc = regexec(&ex->re, s, 2, pm, REG_STARTEND);
#else
		rc = regexec(&ex->re, s + pos, 2, pm,
			     pos && s[pos - 1] != '\n' ? REG_NOTBOL : 0);
		for (size_t i = 0; !rc && i < 2; i++) {
			if (pm[i].rm_so >= 0) {
				pm[i].rm_so += (regoff_t)pos;
				pm[i].rm_eo += (regoff_t)pos;
			}
		}
#endif
		if (rc)
			return 0;
		so = (size_t)pm[1].rm_so;
		eo = (size_t)pm[1].rm_eo;
		if (pm[1].rm_so < 0 || !extract_num_n(s + so, eo - so, &d)) {
			if (pm[1].rm_so < 0)
				so = eo = (size_t)pm[0].rm_so;
			for (size_t i = 0; i < so; i++)
				line += s[i] == '\n';
			extract_add_quoted(&q, s + so, eo - so);
			error_addf(err,
				   "regex '%s': the match on line %zu "
				   "captured %s, not a number",
				   ex->pattern, line, q.buf);
			strbuf_release(&q);
			return -1;
		}
		extract_sink_add(out, d);
		/* A match is never empty here: its group held a number. */
		pos = (size_t)pm[0].rm_eo;
	}
}

/* Extractors */

bool extract_reads_output(const struct metric_spec *m)
{
	return m->source == METRIC_REGEX || m->source == METRIC_JSON ||
	       m->source == METRIC_PARSER;
}

struct extractor *extractor_new(const struct metric_spec *m, struct strbuf *err)
{
	struct extractor *ex = xcalloc(1, sizeof(*ex));
	struct strbuf why = STRBUF_INIT;
	int ret = -1;

	ex->name = xstrdup(m->name ? m->name : "");
	ex->source = m->source;
	ex->pattern = xstrdup(m->pattern ? m->pattern : "");
	strbuf_init(&ex->buf, 0);
	switch (m->source) {
	case METRIC_REGEX:
		if (regex_setup(ex, m->pattern, &why))
			goto out;
		break;
	case METRIC_JSON:
		if (!json_path_check(ex->pattern, &why))
			goto out;
		break;
	case METRIC_PARSER:
		ex->parser = find_parser(m->pattern, &why);
		if (!ex->parser ||
		    setup_field(ex->parser, m->field, &ex->field, &why))
			goto out;
		break;
	default:
		error_addf(&why,
			   "its value comes from the runner, not the output");
		goto out;
	}
	ret = 0;
out:
	if (ret) {
		error_addf(err, "metric '%s': %s", ex->name, why.buf);
		extractor_free(ex);
		ex = NULL;
	}
	strbuf_release(&why);
	return ex;
}

int extractor_run(struct extractor *ex, const char *text, size_t len,
		  double **v, size_t *nr, size_t *alloc, struct strbuf *err)
{
	struct sink out = {v, nr, alloc};
	struct strbuf why = STRBUF_INIT;
	size_t start = *nr;
	int ret;

	switch (ex->source) {
	case METRIC_REGEX:
		prepare_text(&ex->buf, text, len, TEXT_NO_NUL);
		ret = regex_run(ex, ex->buf.buf, ex->buf.len, &out, &why);
		break;
	case METRIC_JSON:
		ret = json_extract_numbers(text, len, ex->pattern, v, nr, alloc,
					   &why);
		break;
	case METRIC_PARSER:
		prepare_text(&ex->buf, text, len, ex->parser->mode);
		ret = ex->parser->run(&ex->field, ex->buf.buf, ex->buf.len,
				      &out, &why);
		break;
	default:
		BUG("extractor for metric source %d", (int)ex->source);
	}
	if (ret) {
		*nr = start;
		error_addf(err, "metric '%s': %s", ex->name, why.buf);
	}
	strbuf_release(&why);
	return ret;
}

void extractor_free(struct extractor *ex)
{
	if (!ex)
		return;
	if (ex->have_re)
		regfree(&ex->re);
	free(ex->name);
	free(ex->pattern);
	free(ex->field.arg);
	strbuf_release(&ex->buf);
	free(ex);
}

int extract_values(const struct metric_spec *m, const char *text, size_t len,
		   double **v, size_t *nr, size_t *alloc, struct strbuf *err)
{
	struct extractor *ex = extractor_new(m, err);
	int ret;

	if (!ex)
		return -1;
	ret = extractor_run(ex, text, len, v, nr, alloc, err);
	extractor_free(ex);
	return ret;
}
