/*
 * Unit tests for json-stream.c: which arrays of numbers a scan takes, with
 * their indices and values, and the text it leaves after blanking them;
 * what it leaves to the tree and the documents it does not follow.
 */
#include <stdlib.h>

#include "tap.h"
#include "json-stream.h"
#include "strbuf.h"
#include "util.h"

static const char *const export_path[] = {"runs", "iterations", "samples",
					  "values"};

#define DOC(s) "{\"runs\":[{\"iterations\":[{\"samples\":[" s "]}]}]}"

/*
 * A text, whether the scan follows it, the arrays taken as
 * "RUN.ITERATION.GROUP:V,V;..." (values as %g) and the text blanked.
 */
static const struct {
	const char *what, *text;
	bool followed;
	const char *taken, *blanked;
} cases[] = {
	{"one group", DOC("{\"operation\":0,\"values\":[1, 2.5]}"), true,
	 "0.0.0:1,2.5", DOC("{\"operation\":0,\"values\":[      ]}")},
	{"values before the operation", DOC("{\"values\":[3],\"operation\":1}"),
	 true, "0.0.0:3", DOC("{\"values\":[ ],\"operation\":1}")},
	{"indices of runs, iterations and groups",
	 "{\"format\":\"mmcmp-export\",\"runs\":[{\"label\":\"a\"},"
	 "{\"iterations\":[{\"samples\":[]},{\"samples\":[{\"values\":[1]},"
	 "{\"values\":[-2e3,7]}]}]}]}",
	 true, "1.1.0:1;1.1.1:-2000,7",
	 "{\"format\":\"mmcmp-export\",\"runs\":[{\"label\":\"a\"},"
	 "{\"iterations\":[{\"samples\":[]},{\"samples\":[{\"values\":[ ]},"
	 "{\"values\":[      ]}]}]}]}"},
	{"elements that are not objects are skipped",
	 "{\"runs\":[1,\"x\",[{\"iterations\":[]}],{\"iterations\":[null,"
	 "{\"samples\":[{\"values\":[4]}]}]}]}",
	 true, "3.1.0:4",
	 "{\"runs\":[1,\"x\",[{\"iterations\":[]}],{\"iterations\":[null,"
	 "{\"samples\":[{\"values\":[ ]}]}]}]}"},
	{"strings with brackets, quotes and escapes are skipped",
	 "{\"x\":\"]}\\\"[{\",\"runs\":[{\"k\":{\"a\":[\"]\"]},\"iterations\":"
	 "[{\"samples\":[{\"values\":[5]}]}]}]}",
	 true, "0.0.0:5",
	 "{\"x\":\"]}\\\"[{\",\"runs\":[{\"k\":{\"a\":[\"]\"]},\"iterations\":"
	 "[{\"samples\":[{\"values\":[ ]}]}]}]}"},
	{"a newline inside is kept", DOC("{\"values\":[1,\n\t2]}"), true,
	 "0.0.0:1,2", DOC("{\"values\":[  \n  ]}")},
	{"cJSON's blanks, bytes 1 to 32", DOC("{\"values\":[\x01 1\x1f,2]}"),
	 true, "0.0.0:1,2", DOC("{\"values\":[      ]}")},
	{"DEL is no blank", DOC("{\"values\":[1\x7f]}"), true, "",
	 DOC("{\"values\":[1\x7f]}")},
	{"leading zeros and exponents, as cJSON reads them",
	 DOC("{\"values\":[007,1.5E+2,-0.25e-1]}"), true, "0.0.0:7,150,-0.025",
	 DOC("{\"values\":[                   ]}")},
	{"a string is left to the tree", DOC("{\"values\":[1,\"2\"]}"), true,
	 "", DOC("{\"values\":[1,\"2\"]}")},
	{"an empty array is left", DOC("{\"values\":[ ]}"), true, "",
	 DOC("{\"values\":[ ]}")},
	{"null is left", DOC("{\"values\":[null]}"), true, "",
	 DOC("{\"values\":[null]}")},
	{"an infinite number is left", DOC("{\"values\":[1e999]}"), true, "",
	 DOC("{\"values\":[1e999]}")},
	{"a lone minus is left", DOC("{\"values\":[-]}"), true, "",
	 DOC("{\"values\":[-]}")},
	{"a number strtod stops inside is left", DOC("{\"values\":[1e5e5]}"),
	 true, "", DOC("{\"values\":[1e5e5]}")},
	{"a leading plus is left", DOC("{\"values\":[+1]}"), true, "",
	 DOC("{\"values\":[+1]}")},
	{"a hex number is left", DOC("{\"values\":[0x10]}"), true, "",
	 DOC("{\"values\":[0x10]}")},
	{"a number of 100 digits, as cJSON reads it",
	 DOC("{\"values\":[1000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000]}"),
	 true, "0.0.0:1e+99",
	 DOC("{\"values\":[                                                                                                    ]}")},
	{"a missing comma is left", DOC("{\"values\":[1 2]}"), true, "",
	 DOC("{\"values\":[1 2]}")},
	{"values elsewhere are not the path's",
	 "{\"values\":[1],\"runs\":[{\"values\":[2],\"iterations\":[{"
	 "\"monitor\":{\"samples\":[{\"values\":[3]}]}}]}]}",
	 true, "",
	 "{\"values\":[1],\"runs\":[{\"values\":[2],\"iterations\":[{"
	 "\"monitor\":{\"samples\":[{\"values\":[3]}]}}]}]}"},
	{"a byte order mark", "\xef\xbb\xbf" DOC("{\"values\":[1]}"), true,
	 "0.0.0:1", "\xef\xbb\xbf" DOC("{\"values\":[ ]}")},
	{"a member name with an escape", DOC("{\"v\\u0061lues\":[1]}"), false,
	 "", DOC("{\"v\\u0061lues\":[1]}")},
	{"not an object", "[{\"runs\":[]}]", false, "", "[{\"runs\":[]}]"},
	{"cut short",
	 "{\"runs\":[{\"iterations\":[{\"samples\":[{\"values\":[1]", false, "",
	 "{\"runs\":[{\"iterations\":[{\"samples\":[{\"values\":[1]"},
	{"a missing colon", "{\"runs\" []}", false, "", "{\"runs\" []}"},
	{"an unclosed string", "{\"a\":\"b}", false, "", "{\"a\":\"b}"},
};

/* json_stream_fn: append "I.J.K:V,V" to the strbuf ctx. */
static void record(void *ctx, const size_t *index, const double *v, size_t n)
{
	struct strbuf *sb = ctx;

	strbuf_addf(sb, "%s%zu.%zu.%zu:", sb->len ? ";" : "", index[0],
		    index[1], index[2]);
	for (size_t i = 0; i < n; i++)
		strbuf_addf(sb, "%s%g", i ? "," : "", v[i]);
}

static void test_cases(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct json_stream js = JSON_STREAM_INIT;
		struct strbuf text = STRBUF_INIT, taken = STRBUF_INIT;
		bool followed;

		strbuf_addstr(&text, cases[i].text);
		followed = json_stream_scan(
			&js, text.buf, text.len, export_path,
			ARRAY_SIZE(export_path), record, &taken);
		ok(followed == cases[i].followed, "%s: %sfollowed",
		   cases[i].what, cases[i].followed ? "" : "not ");
		if (followed)
			json_stream_blank(&js, text.buf);
		is_str(followed ? taken.buf : "", cases[i].taken,
		       "%s: the arrays taken", cases[i].what);
		is_str(text.buf, cases[i].blanked, "%s: the text left",
		       cases[i].what);
		json_stream_release(&js);
		strbuf_release(&text);
		strbuf_release(&taken);
	}
}

/* A NUL is no blank to the scan: the parse's check names it. */
static void test_nul(void)
{
	static const char text[] = DOC("{\"values\":[1,\0 2]}");
	struct json_stream js = JSON_STREAM_INIT;
	struct strbuf taken = STRBUF_INIT;

	ok(json_stream_scan(&js, text, sizeof(text) - 1, export_path,
			    ARRAY_SIZE(export_path), record, &taken) &&
		   !js.nr && !taken.len,
	   "an array with a NUL is left to the parse");
	json_stream_release(&js);
	strbuf_release(&taken);
}

/* A shorter path: hyperfine's results[*].times. */
static void test_short_path(void)
{
	static const char *const path[] = {"results", "times"};
	static const char text[] =
		"{\"results\":[{\"times\":[0.5,0.25]},{\"times\":[1]}]}";
	struct json_stream js = JSON_STREAM_INIT;
	struct strbuf taken = STRBUF_INIT;

	ok(json_stream_scan(&js, text, sizeof(text) - 1, path, ARRAY_SIZE(path),
			    record, &taken) &&
		   js.nr == 2 && js.v[0].nr == 2 && js.v[1].index[0] == 1 &&
		   js.v[1].nr == 1,
	   "a path of two members");
	json_stream_release(&js);
	strbuf_release(&taken);
}

int main(void)
{
	test_cases();
	test_nul();
	test_short_path();
	done_testing();
}
