/* csv: read a sample table (RFC 4180) into run_data. */
#include "csv.h"

#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "parse-num.h"
#include "run-data.h"
#include "strbuf.h"
#include "strmap.h"
#include "strvec.h"
#include "util.h"

#define CSV_MAX_DECIMALS 12
/* Iteration numbers stay exact in a double, as JSON exports hold them. */
#define CSV_MAX_ITERATION (INT64_C(1) << 53)

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
	struct strvec *warnings; /* NULL: none wanted */
	int col[COL_NR];	 /* field index of each column, -1 if absent */
	size_t nr_fields;
	struct run_data *runs;
	size_t runs_nr, runs_alloc;
	struct csv_meta *meta;
	size_t meta_nr, meta_alloc;
	struct strmap labels; /* label -> index in runs */
	struct strmap metas;  /* "benchmark\0operation" -> index in meta */
	struct strmap ops;    /* {run, meta} -> index in runs[run].ops */
	struct strbuf key;
	/* Fields quoted for messages: csv_q(). */
	struct strbuf q[4];
	/* The previous row's op: consecutive rows usually share it. */
	bool have_last;
	struct strbuf last_label, last_bench, last_op;
	size_t last_run, last_meta, last_opi;
};

static const char *csv_field(const struct csv_record *rec, int i)
{
	return rec->data.buf + rec->off[i];
}

/*
 * Field s fit for one line of a message, in st->q[slot]: at most 64
 * bytes and "...", control bytes (and all bytes of a field that is not
 * UTF-8) as \xNN. A field can be megabytes long.
 */
static const char *csv_q(struct csv_state *st, int slot, const char *s)
{
	struct strbuf *sb = &st->q[slot];
	bool utf8 = utf8_valid(s);
	size_t n = 0;

	strbuf_reset(sb);
	for (; *s && (n < 64 || (utf8 && (*s & 0xc0) == 0x80)); s++, n++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f || (c >= 0x80 && !utf8))
			strbuf_addf(sb, "\\x%02x", c);
		else
			strbuf_addch(sb, c);
	}
	if (*s)
		strbuf_addstr(sb, "...");
	return sb->buf;
}

/* A label, name or unit must obey the limits of names.h. */
static int csv_check_name(struct csv_state *st, enum name_kind kind,
			  const char *s, size_t line, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	int ret = names_check(kind, s, &why);

	if (ret)
		error_addf(err, "%s:%zu: %s", st->name, line, why.buf);
	strbuf_release(&why);
	return ret;
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

/* A column csv_parse() does not read: a note, or a misspelt name. */
static void csv_warn_column(struct csv_state *st, size_t line, const char *f)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s:%zu: column '%s' ignored; mmcmp reads ", st->name,
		    line, csv_q(st, 0, f));
	for (size_t c = 0; c < COL_NR; c++)
		strbuf_addf(&sb, "%s%s", c ? ", " : "", csv_columns[c].name);
	strvec_push(st->warnings, sb.buf);
	strbuf_release(&sb);
}

static int csv_header(struct csv_state *st, const struct csv_record *rec,
		      struct strbuf *err)
{
	for (size_t c = 0; c < COL_NR; c++)
		st->col[c] = -1;
	for (size_t i = 0; i < rec->nr; i++) {
		const char *f = csv_field(rec, (int)i);
		bool known = false;

		for (size_t c = 0; c < COL_NR; c++) {
			if (strcmp(f, csv_columns[c].name) != 0)
				continue;
			if (st->col[c] >= 0)
				return error_addf(
					err, "%s:%zu: duplicate column '%s'",
					st->name, rec->line, csv_q(st, 0, f));
			st->col[c] = (int)i;
			known = true;
		}
		if (!known && st->warnings)
			csv_warn_column(st, rec->line, f);
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
	int64_t iteration;
};

static int csv_row_props(struct csv_state *st, const struct csv_record *rec,
			 struct csv_props *props, struct strbuf *err)
{
	const char *f;
	int64_t num;

	props->unit = "";
	props->higher_better = false;
	props->decimals = 2;
	props->iteration = 0;
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
				st->name, rec->line, csv_q(st, 0, f));
	}
	if (st->col[COL_DECIMALS] >= 0) {
		f = csv_field(rec, st->col[COL_DECIMALS]);
		if (*f && !parse_int64(f, INT64_MIN, INT64_MAX, &num))
			return error_addf(err, "%s:%zu: bad decimals '%s'",
					  st->name, rec->line, csv_q(st, 0, f));
		if (*f && !parse_int(f, 0, CSV_MAX_DECIMALS, &props->decimals))
			return error_addf(
				err,
				"%s:%zu: decimals '%s' out of range (0-%d)",
				st->name, rec->line, csv_q(st, 0, f),
				CSV_MAX_DECIMALS);
	}
	if (st->col[COL_ITERATION] >= 0) {
		f = csv_field(rec, st->col[COL_ITERATION]);
		if (*f &&
		    !parse_int64(f, 0, CSV_MAX_ITERATION, &props->iteration))
			return error_addf(err, "%s:%zu: bad iteration '%s'",
					  st->name, rec->line, csv_q(st, 0, f));
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
		st->name, line, what, csv_q(st, 0, got), csv_q(st, 1, op),
		csv_q(st, 2, bench), csv_q(st, 3, want), m->line);
}

static int csv_row(struct csv_state *st, const struct csv_record *rec,
		   struct strbuf *err)
{
	const char *label, *bench, *name, *vs;
	struct op_samples *op;
	struct csv_props props;
	double value;
	size_t run, meta, opi;

	if (rec->nr != st->nr_fields)
		return error_addf(err, "%s:%zu: expected %zu fields, found %zu",
				  st->name, rec->line, st->nr_fields, rec->nr);
	label = csv_field(rec, st->col[COL_LABEL]);
	bench = csv_field(rec, st->col[COL_BENCHMARK]);
	name = csv_field(rec, st->col[COL_OPERATION]);
	vs = csv_field(rec, st->col[COL_VALUE]);
	if (!*label || !*bench || !*name)
		return error_addf(err, "%s:%zu: empty %s", st->name, rec->line,
				  !*label   ? "label"
				  : !*bench ? "benchmark"
					    : "operation");
	if (!parse_double(vs, &value))
		return error_addf(err, "%s:%zu: bad number '%s'", st->name,
				  rec->line, csv_q(st, 0, vs));
	if (csv_row_props(st, rec, &props, err))
		return -1;

	if (st->have_last && !strcmp(name, st->last_op.buf) &&
	    !strcmp(bench, st->last_bench.buf) &&
	    !strcmp(label, st->last_label.buf)) {
		run = st->last_run;
		meta = st->last_meta;
		opi = st->last_opi;
	} else {
		if (csv_check_name(st, NAME_LABEL, label, rec->line, err) ||
		    csv_check_name(st, NAME_BENCHMARK, bench, rec->line, err) ||
		    csv_check_name(st, NAME_OPERATION, name, rec->line, err) ||
		    csv_check_name(st, NAME_UNIT, props.unit, rec->line, err))
			return -1;
		run = csv_get_run(st, label);
		meta = csv_get_meta(st, bench, name, &props, rec->line);
		opi = csv_get_op(st, run, meta, bench, name);
		strbuf_reset(&st->last_label);
		strbuf_addstr(&st->last_label, label);
		strbuf_reset(&st->last_bench);
		strbuf_addstr(&st->last_bench, bench);
		strbuf_reset(&st->last_op);
		strbuf_addstr(&st->last_op, name);
		st->last_run = run;
		st->last_meta = meta;
		st->last_opi = opi;
		st->have_last = true;
	}
	if (csv_check_props(st, &st->meta[meta], &props, bench, name, rec->line,
			    err))
		return -1;
	op = &st->runs[run].ops[opi];
	/* Without the column, each sample is its own iteration. */
	if (st->col[COL_ITERATION] >= 0)
		op_samples_add_iteration(op, value, props.iteration);
	else
		op_samples_add(op, value);
	return 0;
}

static bool csv_blank(const struct csv_record *rec)
{
	return rec->nr == 1 && !rec->data.buf[0];
}

int csv_parse(const char *name, const char *buf, size_t len,
	      struct run_data **runs, size_t *nr, struct strbuf *err)
{
	return csv_parse_warn(name, buf, len, runs, nr, NULL, err);
}

int csv_parse_warn(const char *name, const char *buf, size_t len,
		   struct run_data **runs, size_t *nr, struct strvec *warnings,
		   struct strbuf *err)
{
	struct csv_reader r = {
		.name = name, .p = buf, .end = buf + len, .line = 1};
	struct csv_record rec = {.data = STRBUF_INIT};
	struct csv_state st = {
		.name = name,
		.warnings = warnings,
		.labels = STRMAP_INIT,
		.metas = STRMAP_INIT,
		.ops = STRMAP_INIT,
		.key = STRBUF_INIT,
		.last_label = STRBUF_INIT,
		.last_bench = STRBUF_INIT,
		.last_op = STRBUF_INIT,
		.q = {STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT},
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
	for (size_t i = 0; i < ARRAY_SIZE(st.q); i++)
		strbuf_release(&st.q[i]);
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

/* One iteration that csv_run_full() makes: a benchmark and a number. */
struct csv_iter_key {
	size_t bench;
	int64_t number;
};

struct csv_iter_slot {
	struct csv_iter_key key;
	size_t nr;  /* samples */
	size_t pos; /* in the sorted order */
};

/* A slot's key and index, sorted to give the iterations' order. */
struct csv_iter_order {
	struct csv_iter_key key;
	size_t slot;
};

static int csv_iter_cmp(const void *a, const void *b)
{
	const struct csv_iter_key *x = &((const struct csv_iter_order *)a)->key;
	const struct csv_iter_key *y = &((const struct csv_iter_order *)b)->key;

	if (x->bench != y->bench)
		return x->bench < y->bench ? -1 : 1;
	return (x->number > y->number) - (x->number < y->number);
}

/* The iterations csv_run_full() makes, found by key through iters. */
struct csv_iter_slots {
	struct strmap iters;
	struct csv_iter_slot *v;
	size_t nr, alloc;
};

/*
 * Copy rd's operations, without samples, to rf; bench_of[i] gets the
 * benchmark number of operation i, bench_op[b] the first operation of
 * benchmark b. Returns the samples of rd.
 */
static size_t csv_copy_ops(const struct run_data *rd, struct run_full *rf,
			   size_t *bench_of, size_t *bench_op)
{
	struct strmap benches = STRMAP_INIT;
	size_t benches_nr = 0, total = 0;

	for (size_t i = 0; i < rd->ops_nr; i++) {
		const struct op_samples *op = &rd->ops[i];
		struct op_samples *to;
		size_t b;

		if (!strmap_get(&benches, op->benchmark, strlen(op->benchmark),
				&b)) {
			b = benches_nr;
			bench_op[benches_nr++] = i;
			strmap_put(&benches, op->benchmark,
				   strlen(op->benchmark), b);
		}
		bench_of[i] = b;
		total += op->nr;
		ALLOC_GROW(rf->ops, rf->ops_nr + 1, rf->ops_alloc);
		to = &rf->ops[rf->ops_nr++];
		memset(to, 0, sizeof(*to));
		to->benchmark = xstrdup(op->benchmark);
		to->name = xstrdup(op->name);
		op_samples_copy_props(to, op);
	}
	strmap_clear(&benches);
	return total;
}

/* The slot of the iteration of key, a new one when it has none. */
static size_t csv_slot(struct csv_iter_slots *slots,
		       const struct csv_iter_key *key)
{
	size_t s;

	if (strmap_get(&slots->iters, key, sizeof(*key), &s))
		return s;
	ALLOC_GROW(slots->v, slots->nr + 1, slots->alloc);
	slots->v[slots->nr].key = *key;
	slots->v[slots->nr].nr = 0;
	s = slots->nr++;
	strmap_put(&slots->iters, key, sizeof(*key), s);
	return s;
}

/* Which iteration each sample of rd goes to: slot_of[k] for sample k. */
static void csv_assign_slots(const struct run_data *rd, const size_t *bench_of,
			     struct csv_iter_slots *slots, size_t *slot_of)
{
	size_t k = 0;

	for (size_t i = 0; i < rd->ops_nr; i++) {
		const struct op_samples *op = &rd->ops[i];

		/* A run of samples of one iteration shares its slot. */
		for (size_t j = 0; j < op->nr;) {
			size_t end = op_samples_iteration_end(op, j), s;
			struct csv_iter_key key;

			/* The bytes are the map's key: padding too. */
			memset(&key, 0, sizeof(key));
			key.bench = bench_of[i];
			key.number = op_samples_has(op, OP_KEY_ITERATION)
					     ? op_samples_key(
						       op, OP_KEY_ITERATION, j)
					     : (int64_t)j;
			s = csv_slot(slots, &key);
			if (s >= slots->nr)
				BUG("iteration slot %zu of %zu", s, slots->nr);
			for (; j < end; j++, k++) {
				slots->v[s].nr++;
				slot_of[k] = s;
			}
		}
	}
}

/*
 * Make rf's iterations from slots, by benchmark and then number; fill[p]
 * gets the first sample of iteration p.
 */
static void csv_make_iters(const struct run_data *rd, const char *started_at,
			   const size_t *bench_op, struct csv_iter_slots *slots,
			   size_t *fill, struct run_full *rf)
{
	struct csv_iter_order *order = xcalloc(slots->nr + 1, sizeof(*order));

	for (size_t s = 0; s < slots->nr; s++) {
		order[s].key = slots->v[s].key;
		order[s].slot = s;
	}
	qsort(order, slots->nr, sizeof(*order), csv_iter_cmp);
	rf->iters = xcalloc(slots->nr + 1, sizeof(*rf->iters));
	rf->iters_alloc = slots->nr + 1;
	for (size_t p = 0, first = 0; p < slots->nr; p++) {
		struct csv_iter_slot *slot = &slots->v[order[p].slot];
		struct iteration_data *it = &rf->iters[rf->iters_nr++];

		slot->pos = p;
		it->benchmark =
			xstrdup(rd->ops[bench_op[slot->key.bench]].benchmark);
		it->job = xstrdup("import");
		it->index = slot->key.number;
		it->status = xstrdup("ok");
		it->started_at = xstrdup(started_at);
		it->samples_first = first;
		it->samples_nr = slot->nr;
		fill[p] = first;
		first += slot->nr;
	}
	free(order);
}

void csv_run_full(const struct run_data *rd, const char *started_at,
		  struct run_full *rf)
{
	struct csv_iter_slots slots = {STRMAP_INIT, NULL, 0, 0};
	size_t *bench_of = xcalloc(rd->ops_nr + 1, sizeof(*bench_of));
	size_t *bench_op = xcalloc(rd->ops_nr + 1, sizeof(*bench_op));
	size_t *slot_of, *fill, total, k = 0;

	if (rf->ops_nr || rf->iters_nr || rf->samples_nr)
		BUG("csv_run_full() into a run that has data");
	total = csv_copy_ops(rd, rf, bench_of, bench_op);
	slot_of = xcalloc(total + 1, sizeof(*slot_of));
	csv_assign_slots(rd, bench_of, &slots, slot_of);
	/* Iterations by benchmark, then number; samples op by op. */
	fill = xcalloc(slots.nr + 1, sizeof(*fill));
	csv_make_iters(rd, started_at, bench_op, &slots, fill, rf);
	rf->samples = xcalloc(total + 1, sizeof(*rf->samples));
	rf->samples_alloc = total + 1;
	rf->samples_nr = total;
	for (size_t i = 0; i < rd->ops_nr; i++) {
		for (size_t j = 0; j < rd->ops[i].nr; j++, k++) {
			size_t at = fill[slots.v[slot_of[k]].pos]++;

			rf->samples[at].op = i;
			rf->samples[at].value = rd->ops[i].v[j];
		}
	}
	strmap_clear(&slots.iters);
	free(slots.v);
	free(fill);
	free(slot_of);
	free(bench_of);
	free(bench_op);
}

void csv_quote_field(struct strbuf *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		strbuf_addstr(out, s);
		return;
	}
	strbuf_addch(out, '"');
	for (; *s; s++) {
		if (*s == '"')
			strbuf_addch(out, '"');
		strbuf_addch(out, *s);
	}
	strbuf_addch(out, '"');
}

/* A measured iteration of one label's runs, for the export order. */
struct csv_export_iter {
	size_t run, iter; /* indices in runs and in runs[run].iters */
	int64_t index;
	int64_t number; /* its iteration column: the position in the order */
};

static int csv_export_iter_cmp(const void *a, const void *b)
{
	const struct csv_export_iter *x = a, *y = b;

	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	return (x->iter > y->iter) - (x->iter < y->iter);
}

/* One operation of a label, its runs' samples pooled. */
struct csv_export_op {
	const struct op_samples *meta; /* of the first run that has it */
	size_t nr, first;
};

struct csv_export_sample {
	double value;
	int64_t iteration;
};

/*
 * The iteration column of the label's sorted iters: each one's index
 * while no two of one benchmark share it (one run), else its position,
 * so that the iterations of pooled runs stay apart on import and
 * compare sees the same units of replication.
 */
static void csv_export_number(const struct run_full *runs, const size_t *pick,
			      struct csv_export_iter *iters, size_t nr)
{
	struct strmap seen = STRMAP_INIT;
	struct strbuf key = STRBUF_INIT;
	bool unique = true;

	for (size_t i = 0; i < nr && unique; i++) {
		const struct iteration_data *it =
			&runs[pick[iters[i].run]].iters[iters[i].iter];
		size_t dummy;

		strbuf_reset(&key);
		strbuf_add(&key, it->benchmark, strlen(it->benchmark) + 1);
		strbuf_add(&key, &it->index, sizeof(it->index));
		if (strmap_get(&seen, key.buf, key.len, &dummy))
			unique = false;
		else
			strmap_put(&seen, key.buf, key.len, i);
	}
	for (size_t i = 0; i < nr; i++)
		iters[i].number = unique ? iters[i].index : (int64_t)i;
	strmap_clear(&seen);
	strbuf_release(&key);
}

/*
 * Append the rows of label's ops[0..ops_nr), each op's samples at
 * samples[first .. first + nr).
 */
static void csv_export_rows(const char *label, const struct csv_export_op *ops,
			    size_t ops_nr,
			    const struct csv_export_sample *samples,
			    struct strbuf *out)
{
	struct strbuf key = STRBUF_INIT;

	for (size_t m = 0; m < ops_nr; m++) {
		const struct op_samples *meta = ops[m].meta;

		/* The fields that are the same on every row of the op. */
		strbuf_reset(&key);
		strbuf_addch(&key, ',');
		csv_quote_field(&key, meta->unit);
		strbuf_addf(&key, ",%s,%d,",
			    meta->higher_better ? "higher" : "lower",
			    meta->decimals);
		for (size_t s = 0; s < ops[m].nr; s++) {
			const struct csv_export_sample *x =
				&samples[ops[m].first + s];

			csv_quote_field(out, label);
			strbuf_addch(out, ',');
			csv_quote_field(out, meta->benchmark);
			strbuf_addch(out, ',');
			csv_quote_field(out, meta->name);
			strbuf_addch(out, ',');
			strbuf_add_double(out, x->value);
			strbuf_add(out, key.buf, key.len);
			strbuf_addf(out, "%" PRId64 "\n", x->iteration);
		}
	}
	strbuf_release(&key);
}

/* Append the rows of the runs in runs[] (indices pick[0..nr)). */
static void csv_export_label(const struct run_full *runs, const size_t *pick,
			     size_t nr, struct strbuf *out)
{
	struct strmap names = STRMAP_INIT;
	struct strbuf key = STRBUF_INIT;
	struct csv_export_op *ops = NULL;
	struct csv_export_iter *iters = NULL;
	struct csv_export_sample *samples;
	size_t ops_nr = 0, ops_alloc = 0, iters_nr = 0, iters_alloc = 0;
	size_t **op_map = xcalloc(nr, sizeof(*op_map)), total = 0;

	for (size_t r = 0; r < nr; r++) {
		const struct run_full *rf = &runs[pick[r]];

		op_map[r] = xcalloc(rf->ops_nr + 1, sizeof(**op_map));
		/* What compare pools by default: complete runs only. */
		if (rf->info.status && strcmp(rf->info.status, "complete") != 0)
			continue;
		for (size_t i = 0; i < rf->ops_nr; i++) {
			const struct op_samples *op = &rf->ops[i];
			size_t m;

			strbuf_reset(&key);
			strbuf_add(&key, op->benchmark,
				   strlen(op->benchmark) + 1);
			strbuf_addstr(&key, op->name);
			if (!strmap_get(&names, key.buf, key.len, &m)) {
				ALLOC_GROW(ops, ops_nr + 1, ops_alloc);
				ops[ops_nr].meta = op;
				ops[ops_nr].nr = 0;
				m = ops_nr++;
				strmap_put(&names, key.buf, key.len, m);
			}
			op_map[r][i] = m;
		}
		for (size_t i = 0; i < rf->iters_nr; i++) {
			const struct iteration_data *it = &rf->iters[i];

			if (it->warmup ||
			    (it->status && strcmp(it->status, "ok") != 0))
				continue;
			ALLOC_GROW(iters, iters_nr + 1, iters_alloc);
			iters[iters_nr].run = r;
			iters[iters_nr].iter = i;
			iters[iters_nr++].index = it->index;
			for (size_t s = 0; s < it->samples_nr; s++)
				ops[op_map[r][rf->samples[it->samples_first + s]
						      .op]]
					.nr++;
			total += it->samples_nr;
		}
	}
	/* Each op's samples by iteration number, then run and stored order. */
	if (iters_nr)
		qsort(iters, iters_nr, sizeof(*iters), csv_export_iter_cmp);
	csv_export_number(runs, pick, iters, iters_nr);
	for (size_t m = 0, first = 0; m < ops_nr; m++) {
		ops[m].first = first;
		first += ops[m].nr;
		ops[m].nr = 0;
	}
	samples = xcalloc(total + 1, sizeof(*samples));
	for (size_t i = 0; i < iters_nr; i++) {
		const struct run_full *rf = &runs[pick[iters[i].run]];
		const struct iteration_data *it = &rf->iters[iters[i].iter];

		for (size_t s = 0; s < it->samples_nr; s++) {
			const struct sample_data *sd =
				&rf->samples[it->samples_first + s];
			struct csv_export_op *op =
				&ops[op_map[iters[i].run][sd->op]];
			struct csv_export_sample *to =
				&samples[op->first + op->nr++];

			to->value = sd->value;
			to->iteration = iters[i].number;
		}
	}
	csv_export_rows(runs[pick[0]].info.label, ops, ops_nr, samples, out);
	for (size_t r = 0; r < nr; r++)
		free(op_map[r]);
	free(op_map);
	free(ops);
	free(iters);
	free(samples);
	strmap_clear(&names);
	strbuf_release(&key);
}

void csv_export(const struct run_full *runs, size_t nr, struct strbuf *out)
{
	size_t *pick = xcalloc(nr + 1, sizeof(*pick));
	bool *done = xcalloc(nr + 1, sizeof(*done));

	strbuf_addstr(out, "label,benchmark,operation,value,unit,better,"
			   "decimals,iteration\n");
	for (size_t r = 0; r < nr; r++) {
		const char *label = runs[r].info.label;
		size_t n = 0;

		if (done[r])
			continue;
		for (size_t q = r; q < nr; q++) {
			if (!done[q] && !strcmp(runs[q].info.label, label)) {
				done[q] = true;
				pick[n++] = q;
			}
		}
		csv_export_label(runs, pick, n, out);
	}
	free(pick);
	free(done);
}
