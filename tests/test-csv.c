/* Unit tests for csv: the sample table import and export. */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "csv.h"
#include "run-data.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"

#define HDR "label,benchmark,operation,value\n"

/*
 * Good inputs and a digest of what they parse to: per run
 * "label{bench/op[unit,H|L,decimals]=v,v;...}".
 */
static const struct {
	const char *what, *in, *want;
} good_cases[] = {
	{"minimal", HDR "a,b,o,1\na,b,o,2.5\n", "a{b/o[,L,2]=1,2.5;}"},
	{"no final newline", HDR "a,b,o,1", "a{b/o[,L,2]=1;}"},
	{"columns in any order, optional ones",
	 "value,operation,benchmark,label,unit,better,decimals\n"
	 "1.5,o,b,a,ms,higher,4\n",
	 "a{b/o[ms,H,4]=1.5;}"},
	{"CRLF", "label,benchmark,operation,value\r\na,b,o,1\r\na,b,o,2\r\n",
	 "a{b/o[,L,2]=1,2;}"},
	/* A line break only in the note: names hold no control characters. */
	{"quoted fields",
	 "label,benchmark,operation,value,note\n"
	 "\"a,\"\"x\"\"\",b,\"o q\",\"3\",\"n\nq\"\n",
	 "a,\"x\"{b/o q[,L,2]=3;}"},
	{"BOM and blank lines", "\xef\xbb\xbf" HDR "\na,b,o,1\n\r\n\n",
	 "a{b/o[,L,2]=1;}"},
	{"labels and ops in order of first appearance",
	 HDR "a,b,o1,1\nz,b,o2,2\na,b,o2,3\nz,b,o1,4\na,c,o1,5\n",
	 "a{b/o1[,L,2]=1;b/o2[,L,2]=3;c/o1[,L,2]=5;}"
	 "z{b/o2[,L,2]=2;b/o1[,L,2]=4;}"},
	{"unknown columns ignored, empty optional fields take defaults",
	 "label,host,benchmark,operation,value,better,decimals,unit\n"
	 "a,h1,b,o,1,,,\n",
	 "a{b/o[,L,2]=1;}"},
	{"iteration",
	 "label,benchmark,operation,value,iteration\n"
	 "a,b,o,1,0\na,b,o,2,1\n",
	 "a{b/o[,L,2]=1,2;}"},
	{"negative and exponent values", HDR "a,b,o,-1e3\na,b,o,+0.5\n",
	 "a{b/o[,L,2]=-1000,0.5;}"},
	{"same op name in two benchmarks",
	 "label,benchmark,operation,value,better\na,b1,o,1,higher\n"
	 "a,b2,o,2,lower\n",
	 "a{b1/o[,H,2]=1;b2/o[,L,2]=2;}"},
};

static const struct {
	const char *what, *in, *want;
} bad_cases[] = {
	{"empty input", "", "t.csv: empty file, no header"},
	{"header only", HDR, "t.csv: no samples"},
	{"missing column", "label,benchmark,operation\na,b,o\n",
	 "t.csv:1: missing column 'value'"},
	{"duplicate column", "label,benchmark,operation,value,label\n",
	 "t.csv:1: duplicate column 'label'"},
	{"wrong field count", HDR "a,b,o,1\na,b,o\n",
	 "t.csv:3: expected 4 fields, found 3"},
	{"bad number", HDR "a,b,o,12x\n", "t.csv:2: bad number '12x'"},
	{"empty number", HDR "a,b,o,\n", "t.csv:2: bad number ''"},
	{"nan", HDR "a,b,o,nan\n", "t.csv:2: bad number 'nan'"},
	{"empty label", HDR ",b,o,1\n", "t.csv:2: empty label"},
	{"empty operation", HDR "a,b,,1\n", "t.csv:2: empty operation"},
	{"unknown better",
	 "label,benchmark,operation,value,better\n"
	 "a,b,o,1,up\n",
	 "t.csv:2: unknown better value 'up' (want 'higher' or 'lower')"},
	{"decimals out of range",
	 "label,benchmark,operation,value,decimals\n"
	 "a,b,o,1,13\n",
	 "t.csv:2: decimals '13' out of range (0-12)"},
	{"negative decimals",
	 "label,benchmark,operation,value,decimals\n"
	 "a,b,o,1,-1\n",
	 "t.csv:2: decimals '-1' out of range (0-12)"},
	{"bad decimals",
	 "label,benchmark,operation,value,decimals\n"
	 "a,b,o,1,two\n",
	 "t.csv:2: bad decimals 'two'"},
	{"bad iteration",
	 "label,benchmark,operation,value,iteration\n"
	 "a,b,o,1,-1\n",
	 "t.csv:2: bad iteration '-1'"},
	{"unit disagrees",
	 "label,benchmark,operation,value,unit\n"
	 "a,b,o,1,s\na,b,o,2,ms\n",
	 "t.csv:3: unit 'ms' of 'o' in 'b' disagrees with 's' on line 2"},
	{"better disagrees across labels",
	 "label,benchmark,operation,value,better\n"
	 "a,b,o,1,higher\nz,b,o,2,lower\n",
	 "t.csv:3: better 'lower' of 'o' in 'b' disagrees with 'higher' on line 2"},
	{"decimals disagree",
	 "label,benchmark,operation,value,decimals\n"
	 "a,b,o,1,2\na,b,o,2,2\na,b,o,3,4\n",
	 "t.csv:4: decimals '4' of 'o' in 'b' disagrees with '2' on line 2"},
	{"label not UTF-8", HDR "a\xff,b,o,1\n",
	 "t.csv:2: label 'a\\xff' is not UTF-8"},
	{"unit not UTF-8",
	 "label,benchmark,operation,value,unit\na,b,o,1,\xc3(\n",
	 "t.csv:2: unit '\\xc3(' is not UTF-8"},
	{"a long field is cut short in the message",
	 HDR "a,b,o,12345678901234567890123456789012345678901234567890"
	     "12345678901234567890x\n",
	 "t.csv:2: bad number '1234567890123456789012345678901234567890"
	 "123456789012345678901234...'"},
	{"control characters in a message",
	 "label,benchmark,operation,value,better\na,b,o,1,\"up\nward\"\n",
	 "t.csv:2: unknown better value 'up\\x0award' (want 'higher' or 'lower')"},
	{"unterminated quote", HDR "a,b,\"o,1\n",
	 "t.csv:2: unterminated quoted field"},
	{"quote inside a field", HDR "a,b\"c,o,1\n",
	 "t.csv:2: quote inside an unquoted field"},
	{"text after a quote", HDR "a,\"b\"c,o,1\n",
	 "t.csv:2: text after a closing quote"},
	{"line numbers count quoted line breaks",
	 "label,benchmark,operation,value,note\n"
	 "a,b,o,1,\"n\n\nx\"\r\na,b,o,z,\n",
	 "t.csv:5: bad number 'z'"},
	{"label with a control character", HDR "\"a\x1b[31m\",b,o,1\n",
	 "t.csv:2: label 'a\\x1b[31m' contains a control character"},
	{"operation with a line break", HDR "a,b,\"o\nq\",1\n",
	 "t.csv:2: operation 'o\\nq' contains a control character"},
};

/* Describe runs in the digest format of good_cases. */
static void digest(const struct run_data *runs, size_t nr, struct strbuf *sb)
{
	for (size_t r = 0; r < nr; r++) {
		strbuf_addf(sb, "%s{", runs[r].info.label);
		for (size_t o = 0; o < runs[r].ops_nr; o++) {
			const struct op_samples *op = &runs[r].ops[o];

			strbuf_addf(sb, "%s/%s[%s,%c,%d]=", op->benchmark,
				    op->name, op->unit,
				    op->higher_better ? 'H' : 'L',
				    op->decimals);
			for (size_t i = 0; i < op->nr; i++)
				strbuf_addf(sb, "%s%.17g", i ? "," : "",
					    op->v[i]);
			strbuf_addch(sb, ';');
		}
		strbuf_addch(sb, '}');
	}
}

/* Many runs and operations, interleaved: every row misses the cache. */
static void test_many_ops(void)
{
	enum { LABELS = 4, OPS = 500, SAMPLES = 20 };
	struct strbuf in = STRBUF_INIT, err = STRBUF_INIT;
	struct run_data *runs = NULL;
	size_t nr = 0;
	bool good = true;

	strbuf_addstr(&in, "label,benchmark,operation,value,better\n");
	for (int s = 0; s < SAMPLES; s++)
		for (int o = 0; o < OPS; o++)
			for (int l = 0; l < LABELS; l++)
				strbuf_addf(&in,
					    "run-%d,bench,op-%d,%d,higher\n", l,
					    o, s + o + l);
	ok(!csv_parse("many.csv", in.buf, in.len, &runs, &nr, &err),
	   "many ops: parses");
	good = nr == LABELS;
	for (size_t l = 0; good && l < nr; l++) {
		good = runs[l].ops_nr == OPS;
		for (size_t o = 0; good && o < OPS; o++) {
			const struct op_samples *op = &runs[l].ops[o];

			good = op->nr == SAMPLES && op->higher_better &&
			       op->v[SAMPLES - 1] ==
				       (double)(SAMPLES - 1 + (int)o + (int)l);
		}
	}
	ok(good, "many ops: every sample in its run and op, in order");
	csv_runs_free(runs, nr);
	strbuf_release(&in);
	strbuf_release(&err);
}

/* Names as long as JSON allows, and one byte longer. */
static void test_name_length(void)
{
	struct strbuf in = STRBUF_INIT, err = STRBUF_INIT;
	struct run_data *runs = NULL;
	size_t nr = 0;

	strbuf_addstr(&in, HDR "a,");
	strbuf_addchars(&in, 'b', 4096);
	strbuf_addstr(&in, ",o,1\n");
	ok(!csv_parse("t.csv", in.buf, in.len, &runs, &nr, &err),
	   "a benchmark name of 4096 bytes");
	csv_runs_free(runs, nr);
	strbuf_reset(&in);
	strbuf_addstr(&in, HDR "a,b,");
	strbuf_addchars(&in, 'o', 4097);
	strbuf_addstr(&in, ",1\n");
	ok(csv_parse("t.csv", in.buf, in.len, &runs, &nr, &err) == -1,
	   "an operation name of 4097 bytes is refused");
	is_str(err.buf,
	       "t.csv:2: operation too long (4097 bytes, at most 4096)",
	       "message: name too long");
	strbuf_release(&in);
	strbuf_release(&err);
}

/* Parse in, then csv_run_full() every run; false with a diagnostic. */
static bool parse_full(const char *in, struct run_full **out, size_t *out_nr)
{
	struct strbuf err = STRBUF_INIT;
	struct run_data *runs = NULL;
	size_t nr = 0;
	bool good = !csv_parse("t.csv", in, strlen(in), &runs, &nr, &err);

	if (!good)
		diag("%s", err.buf);
	*out = xcalloc(nr + 1, sizeof(**out));
	*out_nr = nr;
	for (size_t i = 0; i < nr; i++) {
		(*out)[i].info.label = xstrdup(runs[i].info.label);
		csv_run_full(&runs[i], "2024-01-01T00:00:00Z", &(*out)[i]);
	}
	csv_runs_free(runs, nr);
	strbuf_release(&err);
	return good;
}

/* "bench:index[op=value,...]" per iteration of rf. */
static void digest_iters(const struct run_full *rf, struct strbuf *sb)
{
	for (size_t i = 0; i < rf->iters_nr; i++) {
		const struct iteration_data *it = &rf->iters[i];

		strbuf_addf(sb, "%s:%" PRId64 "[", it->benchmark, it->index);
		for (size_t k = 0; k < it->samples_nr; k++) {
			const struct sample_data *s =
				&rf->samples[it->samples_first + k];

			strbuf_addf(sb, "%s%s=%g", k ? "," : "",
				    rf->ops[s->op].name, s->value);
		}
		strbuf_addch(sb, ']');
	}
}

/* The iteration column: kept, grouped into iterations, exported again. */
static void test_iterations(void)
{
	static const char in[] = "label,benchmark,operation,value,iteration\n"
				 "a,b,o1,1,1\n"
				 "a,b,o2,2,1\n"
				 "a,b,o1,3,0\n"
				 "a,c,o1,4,\n"
				 "z,b,o2,5,7\n"
				 "a,b,o2,6,0\n"
				 "a,b,o1,7,1\n";
	static const char want_export[] =
		"label,benchmark,operation,value,unit,better,decimals,iteration\n"
		"a,b,o1,3,,lower,2,0\n"
		"a,b,o1,1,,lower,2,1\n"
		"a,b,o1,7,,lower,2,1\n"
		"a,b,o2,6,,lower,2,0\n"
		"a,b,o2,2,,lower,2,1\n"
		"a,c,o1,4,,lower,2,0\n"
		"z,b,o2,5,,lower,2,7\n";
	struct strbuf sb = STRBUF_INIT, again = STRBUF_INIT;
	struct run_data *runs = NULL;
	struct run_full *full = NULL, *full2 = NULL;
	size_t nr = 0, nr2 = 0;
	struct strbuf err = STRBUF_INIT;

	ok(!csv_parse("t.csv", in, strlen(in), &runs, &nr, &err) &&
		   op_samples_key(&runs[0].ops[0], OP_KEY_ITERATION, 0) == 1 &&
		   op_samples_key(&runs[0].ops[0], OP_KEY_ITERATION, 1) == 0 &&
		   op_samples_key(&runs[0].ops[0], OP_KEY_ITERATION, 2) == 1 &&
		   op_samples_key(&runs[0].ops[2], OP_KEY_ITERATION, 0) == 0,
	   "iteration numbers are kept per sample, empty is 0");
	csv_runs_free(runs, nr);
	ok(parse_full(in, &full, &nr), "csv_run_full");
	digest_iters(&full[0], &sb);
	is_str(sb.buf, "b:0[o1=3,o2=6]b:1[o1=1,o1=7,o2=2]c:0[o1=4]",
	       "iterations by benchmark and number, samples op by op");
	strbuf_reset(&sb);
	csv_export(full, nr, &sb);
	is_str(sb.buf, want_export,
	       "export: ops in order, samples by iteration, iteration kept");
	ok(parse_full(sb.buf, &full2, &nr2), "the export parses");
	csv_export(full2, nr2, &again);
	is_str(again.buf, sb.buf, "exported again, the same bytes");
	run_full_free_array(full, nr);
	run_full_free_array(full2, nr2);
	strbuf_release(&sb);
	strbuf_release(&again);
	strbuf_release(&err);
}

/* Runs of one label pooled, quoting, exact values, warm-ups left out. */
static void test_export_pooling(void)
{
	struct run_full runs[3];
	struct strbuf sb = STRBUF_INIT, again = STRBUF_INIT;
	struct run_full *back = NULL;
	size_t nr = 0;
	static const char *const labels[] = {"l,1", "other", "l,1"};

	memset(runs, 0, sizeof(runs));
	for (size_t r = 0; r < 3; r++) {
		struct run_full *rf = &runs[r];

		rf->info.label = xstrdup(labels[r]);
		rf->ops = xcalloc(2, sizeof(*rf->ops));
		rf->ops_nr = rf->ops_alloc = 2;
		for (size_t o = 0; o < 2; o++) {
			struct op_samples *op = &rf->ops[o];

			op->benchmark = xstrdup("b\"q\"");
			/* The third run has its ops the other way round. */
			op->name = xstrdup((o + (r == 2)) % 2 ? "y" : "x");
			op->unit = xstrdup("u");
			op->higher_better = true;
			op->decimals = 3;
		}
		rf->iters = xcalloc(2, sizeof(*rf->iters));
		rf->iters_nr = rf->iters_alloc = 2;
		rf->samples = xcalloc(4, sizeof(*rf->samples));
		rf->samples_nr = rf->samples_alloc = 4;
		for (size_t i = 0; i < 2; i++) {
			struct iteration_data *it = &rf->iters[i];

			it->benchmark = xstrdup("b\"q\"");
			it->index = (int64_t)(1 - i);
			it->warmup = r == 1 && i == 0;
			it->samples_first = 2 * i;
			it->samples_nr = 2;
			for (size_t k = 0; k < 2; k++) {
				rf->samples[2 * i + k].op = k;
				rf->samples[2 * i + k].value =
					(double)(100 * r + 10 * i + k) + 0.1;
			}
		}
	}
	csv_export(runs, 3, &sb);
	is_str(sb.buf,
	       "label,benchmark,operation,value,unit,better,decimals,iteration\n"
	       "\"l,1\",\"b\"\"q\"\"\",x,10.1,u,higher,3,0\n"
	       "\"l,1\",\"b\"\"q\"\"\",x,211.1,u,higher,3,1\n"
	       "\"l,1\",\"b\"\"q\"\"\",x,0.1,u,higher,3,2\n"
	       "\"l,1\",\"b\"\"q\"\"\",x,201.1,u,higher,3,3\n"
	       "\"l,1\",\"b\"\"q\"\"\",y,11.1,u,higher,3,0\n"
	       "\"l,1\",\"b\"\"q\"\"\",y,210.1,u,higher,3,1\n"
	       "\"l,1\",\"b\"\"q\"\"\",y,1.1,u,higher,3,2\n"
	       "\"l,1\",\"b\"\"q\"\"\",y,200.1,u,higher,3,3\n"
	       "other,\"b\"\"q\"\"\",x,110.1,u,higher,3,0\n"
	       "other,\"b\"\"q\"\"\",y,111.1,u,higher,3,0\n",
	       "export pools a label's runs, numbers their iterations apart, quotes");
	ok(parse_full(sb.buf, &back, &nr) && nr == 2, "the export parses");
	csv_export(back, nr, &again);
	is_str(again.buf, sb.buf, "pooled runs export again the same");
	for (size_t r = 0; r < 3; r++)
		run_full_release(&runs[r]);
	run_full_free_array(back, nr);
	strbuf_release(&sb);
	strbuf_release(&again);
}

/* csv_quote_field(): RFC 4180 quoting, and what the parser reads back. */
static const struct {
	const char *in, *want;
} quote_cases[] = {
	{"", ""},
	{"plain", "plain"},
	{"with space", "with space"},
	{"a,b", "\"a,b\""},
	{"say \"hi\"", "\"say \"\"hi\"\"\""},
	{"\"", "\"\"\"\""},
	{"two\nlines", "\"two\nlines\""},
	{"cr\r", "\"cr\r\""},
	{"crlf\r\n", "\"crlf\r\n\""},
	{"'single'", "'single'"},
	{"tab\there", "tab\there"},
};

static void test_quote_field(void)
{
	struct strbuf sb = STRBUF_INIT, in = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(quote_cases); i++) {
		struct run_data *runs = NULL;
		size_t nr = 0;

		strbuf_reset(&sb);
		strbuf_addstr(&sb, "x,");
		csv_quote_field(&sb, quote_cases[i].in);
		is_str(sb.buf + 2, quote_cases[i].want, "quote case %zu", i);
		/* As a label, the field reads back as it was written. */
		strbuf_reset(&in);
		strbuf_addstr(&in, HDR);
		csv_quote_field(&in, quote_cases[i].in);
		strbuf_addstr(&in, ",b,o,1\n");
		if (!*quote_cases[i].in) {
			ok(csv_parse("t.csv", in.buf, in.len, &runs, &nr, NULL),
			   "quote case %zu: an empty label is refused", i);
			continue;
		}
		if (strpbrk(quote_cases[i].in, "\t\n\r")) {
			ok(csv_parse("t.csv", in.buf, in.len, &runs, &nr, NULL),
			   "quote case %zu: a label with a control character is refused",
			   i);
			continue;
		}
		ok(!csv_parse("t.csv", in.buf, in.len, &runs, &nr, NULL) &&
			   nr == 1 &&
			   !strcmp(runs[0].info.label, quote_cases[i].in),
		   "quote case %zu reads back", i);
		csv_runs_free(runs, nr);
	}
	strbuf_release(&sb);
	strbuf_release(&in);
}

/* Columns csv_parse() does not read: one warning each, none for its own. */
static void test_unknown_columns(void)
{
	static const char in[] = "label,benchmark,operation,value,unit,"
				 "iteraton,note\na,b,o,1,s,0,x\n";
	struct strvec warnings = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;
	struct run_data *runs = NULL;
	size_t nr = 0;

	ok(!csv_parse_warn("t.csv", in, strlen(in), &runs, &nr, &warnings,
			   &err) &&
		   nr == 1 && warnings.nr == 2,
	   "unknown columns: read, with two warnings");
	is_str(warnings.nr ? warnings.v[0] : "",
	       "t.csv:1: column 'iteraton' ignored; mmcmp reads label, "
	       "benchmark, operation, value, unit, better, decimals, iteration",
	       "unknown columns: the first named with those read");
	is_str(warnings.nr > 1 ? warnings.v[1] : "",
	       "t.csv:1: column 'note' ignored; mmcmp reads label, "
	       "benchmark, operation, value, unit, better, decimals, iteration",
	       "unknown columns: the second");
	csv_runs_free(runs, nr);
	strvec_clear(&warnings);
	strbuf_release(&err);
}

int main(void)
{
	struct strbuf err = STRBUF_INIT, got = STRBUF_INIT;
	struct run_data *runs;
	size_t nr;
	int rc;
	static const char nul_input[] = HDR "a,b,o\0,1\n";

	test_unknown_columns();
	for (size_t i = 0; i < ARRAY_SIZE(good_cases); i++) {
		strbuf_reset(&err);
		strbuf_reset(&got);
		rc = csv_parse("t.csv", good_cases[i].in,
			       strlen(good_cases[i].in), &runs, &nr, &err);
		if (!ok(rc == 0, "parses: %s", good_cases[i].what))
			diag("%s", err.buf);
		digest(runs, nr, &got);
		is_str(got.buf, good_cases[i].want, "content: %s",
		       good_cases[i].what);
		csv_runs_free(runs, nr);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad_cases); i++) {
		strbuf_reset(&err);
		runs = (struct run_data *)&err; /* must be reset to NULL */
		nr = 7;
		rc = csv_parse("t.csv", bad_cases[i].in,
			       strlen(bad_cases[i].in), &runs, &nr, &err);
		ok(rc == -1 && !runs && !nr, "fails: %s", bad_cases[i].what);
		is_str(err.buf, bad_cases[i].want, "message: %s",
		       bad_cases[i].what);
	}
	strbuf_reset(&err);
	rc = csv_parse("t.csv", nul_input, sizeof(nul_input) - 1, &runs, &nr,
		       &err);
	ok(rc == -1, "fails: NUL byte");
	is_str(err.buf, "t.csv:2: NUL byte in input", "message: NUL byte");
	rc = csv_parse("t.csv", "x", 1, &runs, &nr, NULL);
	ok(rc == -1, "fails without an err buffer");
	test_many_ops();
	test_name_length();
	test_iterations();
	test_export_pooling();
	test_quote_field();
	strbuf_release(&err);
	strbuf_release(&got);
	done_testing();
	return exit_status();
}
