/*
 * Fuzz target: the output extractors. Every input is read by each
 * parser (default and other fields), two regexes and some JSON paths;
 * when it has a first line of at most 256 bytes, that line is also tried
 * as a JSON path and as the field of the parsers whose fields are
 * parsed (fio, stress-ng, sysbench, kv) over the rest of the input.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "extract.h"
#include "fuzz.h"
#include "strbuf.h"
#include "util.h"

static const struct {
	enum metric_source source;
	const char *pattern;
	const char *field;
} specs[] = {
	{METRIC_REGEX, "total:([0-9.]+)", NULL},
	{METRIC_REGEX, "^([^ ]+) +([-+0-9.eE]+)$", NULL},
	{METRIC_JSON, "", NULL},
	{METRIC_JSON, "results.total", NULL},
	{METRIC_JSON, "results.ops[*]", NULL},
	{METRIC_JSON, "jobs[*].read.iops", NULL},
	{METRIC_JSON,
	 "jobs[jobname=seq].read.clat_ns.percentile[\"99.000000\"]", NULL},
	{METRIC_PARSER, "will-it-scale", NULL},
	{METRIC_PARSER, "will-it-scale", "max"},
	{METRIC_PARSER, "netperf", NULL},
	{METRIC_PARSER, "netperf", "elapsed"},
	{METRIC_PARSER, "gnu-time", NULL},
	{METRIC_PARSER, "gnu-time", "maxrss"},
	{METRIC_PARSER, "stress-ng", "cpu"},
	{METRIC_PARSER, "stress-ng", "vm.max-rss"},
	{METRIC_PARSER, "fio", "read.iops"},
	{METRIC_PARSER, "fio", "seqread:read.clat_p99.9"},
	{METRIC_PARSER, "fio", "write.clat_ns.percentile.99.000000"},
	{METRIC_PARSER, "sysbench", NULL},
	{METRIC_PARSER, "sysbench", "lat_p95"},
	{METRIC_PARSER, "hackbench", NULL},
	{METRIC_PARSER, "perf-bench", NULL},
	{METRIC_PARSER, "perf-bench", "throughput"},
	{METRIC_PARSER, "perf-bench", "ops_per_sec"},
	{METRIC_PARSER, "kv", "open"},
	{METRIC_PARSER, "netstream", NULL},
	{METRIC_PARSER, "will-it-scale", "per_task"},
	{METRIC_PARSER, "dbench", NULL},
	{METRIC_PARSER, "dbench", "WriteX.avglat"},
	{METRIC_PARSER, "dbench", "max_latency"},
	{METRIC_PARSER, "fsmark", NULL},
	{METRIC_PARSER, "iperf3", NULL},
	{METRIC_PARSER, "iperf3", "retransmits"},
	{METRIC_PARSER, "pgbench", NULL},
};

/* Parsers whose field is parsed, tried with the input's first line. */
static const char *const field_parsers[] = {"fio", "stress-ng", "sysbench",
					    "kv", "dbench"};

static struct extractor *extractors[ARRAY_SIZE(specs)];

static struct metric_spec spec(enum metric_source source, const char *pattern,
			       const char *field)
{
	struct metric_spec m = {
		.name = (char *)"m",
		.source = source,
		.pattern = (char *)pattern,
		.field = (char *)field,
	};

	return m;
}

/* Extract with m, or with ex when not NULL, and check the contracts. */
static void run(struct extractor *ex, const struct metric_spec *m,
		const char *text, size_t len)
{
	struct strbuf err = STRBUF_INIT;
	double *v = NULL;
	size_t nr = 0, alloc = 0;
	int ret;

	ret = ex ? extractor_run(ex, text, len, &v, &nr, &alloc, &err)
		 : extract_values(m, text, len, &v, &nr, &alloc, &err);
	if (ret) {
		fuzz_check_error(err.buf, "metric 'm': ");
		fuzz_assert(nr == 0, "a failed extraction kept samples", NULL);
	}
	for (size_t i = 0; i < nr; i++)
		fuzz_assert(v[i] - v[i] == 0, "a sample that is not finite",
			    err.buf);
	free(v);
	strbuf_release(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	const char *nl = memchr(text, '\n', size < 257 ? size : 257);

	for (size_t i = 0; i < ARRAY_SIZE(specs); i++) {
		struct metric_spec m =
			spec(specs[i].source, specs[i].pattern, specs[i].field);

		if (!extractors[i]) {
			struct strbuf err = STRBUF_INIT;

			extractors[i] = extractor_new(&m, &err);
			fuzz_assert(extractors[i] != NULL,
				    "a table entry is refused", err.buf);
			strbuf_release(&err);
		}
		run(extractors[i], &m, text, size);
	}
	if (nl) {
		char *line = xstrndup(text, (size_t)(nl - text));
		const char *rest = nl + 1;
		size_t len = size - (size_t)(rest - text);
		struct metric_spec m = spec(METRIC_JSON, line, NULL);

		if (!memchr(text, '\0', (size_t)(nl - text))) {
			run(NULL, &m, rest, len);
			for (size_t i = 0; i < ARRAY_SIZE(field_parsers); i++) {
				m = spec(METRIC_PARSER, field_parsers[i], line);
				run(NULL, &m, rest, len);
			}
		}
		free(line);
	}
	return 0;
}
