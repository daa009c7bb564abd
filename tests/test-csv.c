/* Unit tests for csv: the sample table import. */
#include <stdlib.h>

#include "tap.h"
#include "csv.h"
#include "run-data.h"
#include "strbuf.h"

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
	{"quoted fields", HDR "\"a,\"\"x\"\"\",b,\"o\nq\",\"3\"\n",
	 "a,\"x\"{b/o\nq[,L,2]=3;}"},
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
	 "a,b,o,1,11\n",
	 "t.csv:2: decimals '11' out of range (0-10)"},
	{"negative decimals",
	 "label,benchmark,operation,value,decimals\n"
	 "a,b,o,1,-1\n",
	 "t.csv:2: decimals '-1' out of range (0-10)"},
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
	{"unterminated quote", HDR "a,b,\"o,1\n",
	 "t.csv:2: unterminated quoted field"},
	{"quote inside a field", HDR "a,b\"c,o,1\n",
	 "t.csv:2: quote inside an unquoted field"},
	{"text after a quote", HDR "a,\"b\"c,o,1\n",
	 "t.csv:2: text after a closing quote"},
	{"line numbers count quoted line breaks",
	 HDR "a,b,\"o\n\nx\",1\r\na,b,o,z\n", "t.csv:5: bad number 'z'"},
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

int main(void)
{
	struct strbuf err = STRBUF_INIT, got = STRBUF_INIT;
	struct run_data *runs;
	size_t nr;
	int rc;
	static const char nul_input[] = HDR "a,b,o\0,1\n";

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
	strbuf_release(&err);
	strbuf_release(&got);
	done_testing();
	return exit_status();
}
