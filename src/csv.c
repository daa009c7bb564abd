/* csv: read a sample table (RFC 4180) into run_data. */
#include "csv.h"

#include <stdlib.h>
#include <string.h>

#include "parse-num.h"
#include "run-data.h"
#include "strbuf.h"
#include "strmap.h"
#include "util.h"

#define CSV_MAX_DECIMALS 10

enum csv_column {
	COL_LABEL,
	COL_BENCHMARK,
	COL_OPERATION,
	COL_VALUE,
	COL_UNIT,
	COL_BETTER,
	COL_DECIMALS,
	COL_ITERATION,
	COL_NR
};

static const struct {
	const char *name;
	bool required;
} csv_columns[COL_NR] = {
	[COL_LABEL] = {"label", true},
	[COL_BENCHMARK] = {"benchmark", true},
	[COL_OPERATION] = {"operation", true},
	[COL_VALUE] = {"value", true},
	[COL_UNIT] = {"unit", false},
	[COL_BETTER] = {"better", false},
	[COL_DECIMALS] = {"decimals", false},
	[COL_ITERATION] = {"iteration", false},
};

/* One record: its fields stored one after another, each NUL-terminated. */
struct csv_record {
	struct strbuf data;
	size_t *off; /* start of field i in data.buf */
	size_t nr, alloc;
	size_t line; /* the line the record starts on */
};

struct csv_reader {
	const char *name;
	const char *p, *end;
	size_t line; /* the line of *p, from 1 */
};

/* Unit, direction and precision of one benchmark/operation pair. */
struct csv_meta {
	char *unit;
	bool higher_better;
	int decimals;
	size_t line; /* where they were first given */
};

struct csv_state {
	const char *name;
	int col[COL_NR]; /* field index of each column, -1 if absent */
	size_t nr_fields;
	struct run_data *runs;
	size_t runs_nr, runs_alloc;
	struct csv_meta *meta;
	size_t meta_nr, meta_alloc;
	struct strmap labels; /* label -> index in runs */
	struct strmap metas;  /* "benchmark\0operation" -> index in meta */
	struct strmap ops;    /* {run, meta} -> index in runs[run].ops */
	struct strbuf key;
	/* The previous row's op: consecutive rows usually share it. */
	bool have_last;
	struct strbuf last_label, last_bench, last_op;
	size_t last_run, last_meta, last_opi;
};

static const char *csv_field(const struct csv_record *rec, int i)
{
	return rec->data.buf + rec->off[i];
}

static bool csv_record_eol(const char *p, const char *end)
{
	return *p == '\n' || (*p == '\r' && (p + 1 == end || p[1] == '\n'));
}

/* Read the rest of a quoted field, from just after its opening quote. */
static int csv_read_quoted(struct csv_reader *r, struct csv_record *rec,
			   struct strbuf *err)
{
	size_t start_line = r->line;

	for (;;) {
		const char *s = r->p;

		while (r->p < r->end && *r->p != '"' && *r->p != '\n' &&
		       *r->p != '\0')
			r->p++;
		strbuf_add(&rec->data, s, (size_t)(r->p - s));
		if (r->p == r->end)
			return error_addf(err,
					  "%s:%zu: unterminated quoted field",
					  r->name, start_line);
		if (*r->p == '\0')
			return error_addf(err, "%s:%zu: NUL byte in input",
					  r->name, r->line);
		if (*r->p == '\n') {
			strbuf_addch(&rec->data, '\n');
			r->line++;
			r->p++;
		} else if (r->p + 1 < r->end && r->p[1] == '"') {
			strbuf_addch(&rec->data, '"');
			r->p += 2;
		} else {
			r->p++;
			break;
		}
	}
	if (r->p < r->end && *r->p != ',' && !csv_record_eol(r->p, r->end))
		return error_addf(err, "%s:%zu: text after a closing quote",
				  r->name, r->line);
	return 0;
}

/* Read one record into rec: 1 when there was one, 0 at the end, -1. */
static int csv_read_record(struct csv_reader *r, struct csv_record *rec,
			   struct strbuf *err)
{
	const char *s;

	strbuf_reset(&rec->data);
	rec->nr = 0;
	rec->line = r->line;
	if (r->p == r->end)
		return 0;
	for (;;) {
		ALLOC_GROW(rec->off, rec->nr + 1, rec->alloc);
		rec->off[rec->nr++] = rec->data.len;
		if (r->p < r->end && *r->p == '"') {
			r->p++;
			if (csv_read_quoted(r, rec, err))
				return -1;
		} else {
			s = r->p;
			while (r->p < r->end && *r->p != ',' && *r->p != '"' &&
			       *r->p != '\0' && !csv_record_eol(r->p, r->end))
				r->p++;
			strbuf_add(&rec->data, s, (size_t)(r->p - s));
			if (r->p < r->end && *r->p == '"')
				return error_addf(
					err,
					"%s:%zu: quote inside an unquoted field",
					r->name, r->line);
			if (r->p < r->end && *r->p == '\0')
				return error_addf(err,
						  "%s:%zu: NUL byte in input",
						  r->name, r->line);
		}
		strbuf_addch(&rec->data, '\0');
		if (r->p == r->end)
			break;
		if (*r->p == ',') {
			r->p++;
			continue;
		}
		if (*r->p == '\r')
			r->p++;
		if (r->p < r->end && *r->p == '\n') {
			r->p++;
			r->line++;
		}
		break;
	}
	return 1;
}

static int csv_header(struct csv_state *st, const struct csv_record *rec,
		      struct strbuf *err)
{
	for (size_t c = 0; c < COL_NR; c++)
		st->col[c] = -1;
	for (size_t i = 0; i < rec->nr; i++) {
		const char *f = csv_field(rec, (int)i);

		for (size_t c = 0; c < COL_NR; c++) {
			if (strcmp(f, csv_columns[c].name) != 0)
				continue;
			if (st->col[c] >= 0)
				return error_addf(
					err, "%s:%zu: duplicate column '%s'",
					st->name, rec->line, f);
			st->col[c] = (int)i;
		}
	}
	for (size_t c = 0; c < COL_NR; c++) {
		if (csv_columns[c].required && st->col[c] < 0)
			return error_addf(err, "%s:%zu: missing column '%s'",
					  st->name, rec->line,
					  csv_columns[c].name);
	}
	st->nr_fields = rec->nr;
	return 0;
}

/* The properties of a row's operation, with their defaults. */
struct csv_props {
	const char *unit;
	bool higher_better;
	int decimals;
};

static int csv_row_props(struct csv_state *st, const struct csv_record *rec,
			 struct csv_props *props, struct strbuf *err)
{
	const char *f;
	int64_t num;

	props->unit = "";
	props->higher_better = false;
	props->decimals = 2;
	if (st->col[COL_UNIT] >= 0)
		props->unit = csv_field(rec, st->col[COL_UNIT]);
	if (st->col[COL_BETTER] >= 0) {
		f = csv_field(rec, st->col[COL_BETTER]);
		if (!strcmp(f, "higher"))
			props->higher_better = true;
		else if (*f && strcmp(f, "lower") != 0)
			return error_addf(
				err,
				"%s:%zu: unknown better value '%s' (want 'higher' or 'lower')",
				st->name, rec->line, f);
	}
	if (st->col[COL_DECIMALS] >= 0) {
		f = csv_field(rec, st->col[COL_DECIMALS]);
		if (*f && !parse_int64(f, INT64_MIN, INT64_MAX, &num))
			return error_addf(err, "%s:%zu: bad decimals '%s'",
					  st->name, rec->line, f);
		if (*f && !parse_int(f, 0, CSV_MAX_DECIMALS, &props->decimals))
			return error_addf(
				err,
				"%s:%zu: decimals '%s' out of range (0-%d)",
				st->name, rec->line, f, CSV_MAX_DECIMALS);
	}
	if (st->col[COL_ITERATION] >= 0) {
		f = csv_field(rec, st->col[COL_ITERATION]);
		if (*f && !parse_int64(f, 0, INT64_MAX, &num))
			return error_addf(err, "%s:%zu: bad iteration '%s'",
					  st->name, rec->line, f);
	}
	return 0;
}

static size_t csv_get_run(struct csv_state *st, const char *label)
{
	struct run_data *rd;
	size_t i;

	if (strmap_get(&st->labels, label, strlen(label), &i))
		return i;
	ALLOC_GROW(st->runs, st->runs_nr + 1, st->runs_alloc);
	rd = &st->runs[st->runs_nr];
	memset(rd, 0, sizeof(*rd));
	rd->info.label = xstrdup(label);
	strmap_put(&st->labels, label, strlen(label), st->runs_nr);
	return st->runs_nr++;
}

static size_t csv_get_meta(struct csv_state *st, const char *bench,
			   const char *op, const struct csv_props *props,
			   size_t line)
{
	struct csv_meta *m;
	size_t i;

	strbuf_reset(&st->key);
	strbuf_add(&st->key, bench, strlen(bench) + 1);
	strbuf_addstr(&st->key, op);
	if (strmap_get(&st->metas, st->key.buf, st->key.len, &i))
		return i;
	ALLOC_GROW(st->meta, st->meta_nr + 1, st->meta_alloc);
	m = &st->meta[st->meta_nr];
	m->unit = xstrdup(props->unit);
	m->higher_better = props->higher_better;
	m->decimals = props->decimals;
	m->line = line;
	strmap_put(&st->metas, st->key.buf, st->key.len, st->meta_nr);
	return st->meta_nr++;
}

static size_t csv_get_op(struct csv_state *st, size_t run, size_t meta,
			 const char *bench, const char *name)
{
	size_t key[2] = {run, meta};
	struct run_data *rd = &st->runs[run];
	const struct csv_meta *m = &st->meta[meta];
	struct op_samples *op;
	size_t i;

	if (strmap_get(&st->ops, key, sizeof(key), &i))
		return i;
	/* Not run_data_op(): its linear search would make this quadratic. */
	ALLOC_GROW(rd->ops, rd->ops_nr + 1, rd->ops_alloc);
	op = &rd->ops[rd->ops_nr];
	memset(op, 0, sizeof(*op));
	op->benchmark = xstrdup(bench);
	op->name = xstrdup(name);
	op->unit = xstrdup(m->unit);
	op->higher_better = m->higher_better;
	op->decimals = m->decimals;
	strmap_put(&st->ops, key, sizeof(key), rd->ops_nr);
	return rd->ops_nr++;
}

static int csv_check_props(struct csv_state *st, const struct csv_meta *m,
			   const struct csv_props *props, const char *bench,
			   const char *op, size_t line, struct strbuf *err)
{
	const char *what = NULL, *got = NULL, *want = NULL;
	char got_dec[16], want_dec[16];

	if (strcmp(m->unit, props->unit) != 0) {
		what = "unit";
		got = props->unit;
		want = m->unit;
	} else if (m->higher_better != props->higher_better) {
		what = "better";
		got = props->higher_better ? "higher" : "lower";
		want = m->higher_better ? "higher" : "lower";
	} else if (m->decimals != props->decimals) {
		snprintf(got_dec, sizeof(got_dec), "%d", props->decimals);
		snprintf(want_dec, sizeof(want_dec), "%d", m->decimals);
		what = "decimals";
		got = got_dec;
		want = want_dec;
	}
	if (!what)
		return 0;
	return error_addf(
		err,
		"%s:%zu: %s '%s' of '%s' in '%s' disagrees with '%s' on line %zu",
		st->name, line, what, got, op, bench, want, m->line);
}

static int csv_row(struct csv_state *st, const struct csv_record *rec,
		   struct strbuf *err)
{
	const char *label, *bench, *op, *vs;
	struct csv_props props;
	double value;
	size_t run, meta, opi;

	if (rec->nr != st->nr_fields)
		return error_addf(err, "%s:%zu: expected %zu fields, found %zu",
				  st->name, rec->line, st->nr_fields, rec->nr);
	label = csv_field(rec, st->col[COL_LABEL]);
	bench = csv_field(rec, st->col[COL_BENCHMARK]);
	op = csv_field(rec, st->col[COL_OPERATION]);
	vs = csv_field(rec, st->col[COL_VALUE]);
	if (!*label || !*bench || !*op)
		return error_addf(err, "%s:%zu: empty %s", st->name, rec->line,
				  !*label   ? "label"
				  : !*bench ? "benchmark"
					    : "operation");
	if (!parse_double(vs, &value))
		return error_addf(err, "%s:%zu: bad number '%s'", st->name,
				  rec->line, vs);
	if (csv_row_props(st, rec, &props, err))
		return -1;

	if (st->have_last && !strcmp(op, st->last_op.buf) &&
	    !strcmp(bench, st->last_bench.buf) &&
	    !strcmp(label, st->last_label.buf)) {
		run = st->last_run;
		meta = st->last_meta;
		opi = st->last_opi;
	} else {
		run = csv_get_run(st, label);
		meta = csv_get_meta(st, bench, op, &props, rec->line);
		opi = csv_get_op(st, run, meta, bench, op);
		strbuf_reset(&st->last_label);
		strbuf_addstr(&st->last_label, label);
		strbuf_reset(&st->last_bench);
		strbuf_addstr(&st->last_bench, bench);
		strbuf_reset(&st->last_op);
		strbuf_addstr(&st->last_op, op);
		st->last_run = run;
		st->last_meta = meta;
		st->last_opi = opi;
		st->have_last = true;
	}
	if (csv_check_props(st, &st->meta[meta], &props, bench, op, rec->line,
			    err))
		return -1;
	op_samples_add(&st->runs[run].ops[opi], value);
	return 0;
}

static bool csv_blank(const struct csv_record *rec)
{
	return rec->nr == 1 && !rec->data.buf[0];
}

int csv_parse(const char *name, const char *buf, size_t len,
	      struct run_data **runs, size_t *nr, struct strbuf *err)
{
	struct csv_reader r = {
		.name = name, .p = buf, .end = buf + len, .line = 1};
	struct csv_record rec = {.data = STRBUF_INIT};
	struct csv_state st = {
		.name = name,
		.labels = STRMAP_INIT,
		.metas = STRMAP_INIT,
		.ops = STRMAP_INIT,
		.key = STRBUF_INIT,
		.last_label = STRBUF_INIT,
		.last_bench = STRBUF_INIT,
		.last_op = STRBUF_INIT,
	};
	bool header = false;
	int ret = -1, got;

	*runs = NULL;
	*nr = 0;
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		r.p += 3;
	while ((got = csv_read_record(&r, &rec, err)) > 0) {
		if (csv_blank(&rec))
			continue;
		if (!header) {
			if (csv_header(&st, &rec, err))
				goto out;
			header = true;
		} else if (csv_row(&st, &rec, err)) {
			goto out;
		}
	}
	if (got < 0)
		goto out;
	if (!header) {
		error_addf(err, "%s: empty file, no header", name);
		goto out;
	}
	if (!st.runs_nr) {
		error_addf(err, "%s: no samples", name);
		goto out;
	}
	*runs = st.runs;
	*nr = st.runs_nr;
	st.runs = NULL;
	st.runs_nr = 0;
	ret = 0;
out:
	csv_runs_free(st.runs, st.runs_nr);
	for (size_t i = 0; i < st.meta_nr; i++)
		free(st.meta[i].unit);
	free(st.meta);
	strmap_clear(&st.labels);
	strmap_clear(&st.metas);
	strmap_clear(&st.ops);
	strbuf_release(&st.key);
	strbuf_release(&st.last_label);
	strbuf_release(&st.last_bench);
	strbuf_release(&st.last_op);
	strbuf_release(&rec.data);
	free(rec.off);
	return ret;
}

void csv_runs_free(struct run_data *runs, size_t nr)
{
	if (!runs)
		return;
	for (size_t i = 0; i < nr; i++)
		run_data_release(&runs[i]);
	free(runs);
}
