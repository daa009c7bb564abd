/* Unit tests for import-mmtests: the parsers of mmtests' logs and trees. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "import-mmtests.h"
#include "run-data.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"

/* Samples as "op=value,..." with %g values. */
static void digest(const struct mmtests_samples *s, struct strbuf *out)
{
	for (size_t i = 0; i < s->nr; i++)
		strbuf_addf(out, "%s%s=%g", i ? "," : "", s->v[i].op,
			    s->v[i].value);
}

/* Inputs, and what they parse to or the error they give. */
struct text_case {
	const char *what, *in, *want;
};

/* will-it-scale logs of op "ops-x-2". */
static const struct text_case wis_cases[] = {
	{"measurement lines",
	 "measurement\nmin:1 max:9 total:100\nmin:2 max:8 total:250\n"
	 "average:175\n",
	 "ops-x-2=100,ops-x-2=250"},
	{"CRLF and no final newline",
	 "min:1 max:9 total:7\r\nmin:1 max:9 total:8", "ops-x-2=7,ops-x-2=8"},
	{"a total: field elsewhere than third is what awk's $3 holds",
	 "total:5 min:1 max:2\n", "error:name:1: bad total 'max:2'"},
	{"lines of fewer fields print nothing", "total:5\nwarmup\n",
	 " warning:name: 1 line that is not will-it-scale's skipped (line 1)"},
	{"will-it-scale's own lines",
	 "testcase:Separate process page faults\nwarmup\nmin:1 max:2 "
	 "total:3\n\nmeasurement\nmin:1 max:2 total:4\naverage:4\n",
	 "ops-x-2=3,ops-x-2=4"},
	{"lines of random bytes",
	 "measurement\n\x8f\x01z\x7f\nmin:1 max:2 total:3\n\xff\xfe total\n"
	 "min:1 max:2 total:4\nmin:1 max:2\n",
	 "ops-x-2=3,ops-x-2=4 warning:name: 3 lines that are not "
	 "will-it-scale's skipped (the first at line 2)"},
	{"a total that is not a number",
	 "min:1 max:9 total:100\nmin:1 max:9 total:12x\n",
	 "error:name:2: bad total '12x'"},
};

/* GNU time files: "user sys elapsed". */
static const struct text_case time_cases[] = {
	{"default format",
	 "0.14user 2.22system 0:02.35elapsed 100%CPU (0avgtext+0avgdata "
	 "2048maxresident)k\n0inputs+0outputs (0major+100minor)pagefaults "
	 "0swaps\n",
	 "0.14 2.22 2.35"},
	{"hours", "1.50user 0.50system 1:02:03.25elapsed 2%CPU\n",
	 "1.5 0.5 3723.25"},
	{"exit status line first",
	 "Command exited with non-zero status 1\n"
	 "0.01user 0.02system 0:00.03elapsed 99%CPU\n",
	 "0.01 0.02 0.03"},
	{"empty", "", "error:name:1: no GNU time output"},
	{"killed", "Command terminated by signal 9\n",
	 "error:name:1: no GNU time output"},
	{"bad clock", "0.1user 0.2system 0:x.5elapsed\n",
	 "error:name:1: not GNU time's \"USERuser SYSTEMsystem "
	 "ELAPSEDelapsed\""},
	{"too many colons", "0.1user 0.2system 1:2:3:4elapsed\n",
	 "error:name:1: not GNU time's \"USERuser SYSTEMsystem "
	 "ELAPSEDelapsed\""},
};

/* netperf output: "send recv", the first char of what 'U' for UDP. */
static const struct text_case netperf_cases[] = {
	{"TCP_STREAM",
	 "MIGRATED TCP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET\n"
	 "Recv   Send    Send\nSocket Socket  Message  Elapsed\n"
	 "Size   Size    Size     Time     Throughput\n"
	 "bytes  bytes   bytes    secs.    10^6bits/sec\n\n"
	 " 131072  16384     64    60.00      1234.56\n",
	 "1234.56 0"},
	{"TCP_RR: the second, short row is no rate",
	 "16384  131072 1        1       60.00    45678.90\n16384  131072\n",
	 "45678.9 0"},
	{"UDP_STREAM send and receive rows",
	 "212992    64   60.00     9000000      0     76.80\n"
	 "212992           60.00     8990000             76.71\n",
	 "76.8 76.71"},
	{"no rows of numbers", "netperf: cannot connect\n", "0 0"},
	{"a rate that is not a number", " 1 2 3 4 5.5.5\n",
	 "error:name:1: bad rate '5.5.5'"},
};

/* pft logs of 4 clients. */
static const struct text_case pft_cases[] = {
	{"rows after the header",
	 "  Gb  Thr CLine   User      System     Wall    flt/cpu/s "
	 "fault/wsec\n"
	 "   1    4   1    0.41s     12.35s     3.21s  81234.567  "
	 "326543.210\n"
	 "   1    4   1    0.40s     12.30s     3.20s  81300.000  "
	 "327000.000\n",
	 "faults/cpu-4=81234.6,faults/cpu-4=81300;"
	 "faults/sec-4=326543,faults/sec-4=327000"},
	{"without leading space the columns shift, as with Perl's split",
	 "\n1 4 1 0.4s 12.3s 3.2s 100 200 9\n\n",
	 "faults/cpu-4=200;faults/sec-4=9"},
	{"a short row", "   1    4   1    0.41s\n",
	 "error:name:1: expected 8 columns, found 5"},
	{"a rate that is not a number", "   1 4 1 0.4 12.3 3.2 1.2.3 5\n",
	 "error:name:1: bad fault rate '1.2.3'"},
};

static void check_cases(const char *parser, const struct text_case *c,
			size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		struct mmtests_samples s = {0}, s2 = {0};
		struct strbuf got = STRBUF_INIT, err = STRBUF_INIT;
		const char *in = c[i].in;
		size_t len = strlen(in);
		int ret;

		if (!strcmp(parser, "wis")) {
			struct strvec warnings = STRVEC_INIT;

			ret = mmtests_parse_wis("name", in, len, "ops-x-2", &s,
						&warnings, &err);
			if (!ret)
				digest(&s, &got);
			for (size_t k = 0; !ret && k < warnings.nr; k++)
				strbuf_addf(&got, " warning:%s", warnings.v[k]);
			strvec_clear(&warnings);
		} else if (!strcmp(parser, "time")) {
			double u = -1, sy = -1, e = -1;

			ret = mmtests_parse_gnu_time("name", in, len, &u, &sy,
						     &e, &err);
			if (!ret)
				strbuf_addf(&got, "%g %g %g", u, sy, e);
		} else if (!strcmp(parser, "netperf")) {
			double send = -1, recv = -1;

			ret = mmtests_parse_netperf("name", in, len,
						    strstr(c[i].what, "UDP"),
						    &send, &recv, &err);
			if (!ret)
				strbuf_addf(&got, "%g %g", send, recv);
		} else {
			ret = mmtests_parse_pft("name", in, len, "4", &s, &s2,
						&err);
			if (!ret) {
				digest(&s, &got);
				strbuf_addch(&got, ';');
				digest(&s2, &got);
			}
		}
		if (ret) {
			strbuf_addf(&got, "error:%s", err.buf);
			if (s.nr || s2.nr)
				strbuf_addstr(&got, " (with samples left)");
		}
		is_str(got.buf, c[i].want, "%s: %s", parser, c[i].what);
		mmtests_samples_release(&s);
		mmtests_samples_release(&s2);
		strbuf_release(&got);
		strbuf_release(&err);
	}
}

#define TIMESTAMP                                                              \
	"start :: 1717236000\n"                                                \
	"test begin :: other 1717236001\n"                                     \
	"time :: other 9.00 user 9.00 system 9.00 elapsed\n"                   \
	"test begin :: wis-pf 1717236005\n"                                    \
	"test end :: wis-pf 1717236085\n"                                      \
	"time :: wis-pf 15.06 user 206.25 system 80.17 elapsed\n"              \
	"finish :: 1717236090\n"

static const struct text_case timestamp_cases[] = {
	{"the benchmark's lines", TIMESTAMP,
	 "1717236000 1717236090 1717236005 1 15.06 206.25 80.17"},
	{"no time line", "start :: 5\ntest begin :: wis-pf 6\n",
	 "5 0 6 0 0 0 0"},
	{"bad start", "start :: soon\n",
	 "error:ts:1: malformed line of tests-timestamp"},
	{"short time line", TIMESTAMP "time :: wis-pf 1.0 user\n",
	 "error:ts:8: malformed line of tests-timestamp"},
	{"time that is not a number",
	 "time :: wis-pf x user 1 system 2 elapsed\n",
	 "error:ts:1: malformed line of tests-timestamp"},
};

static void check_timestamps(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(timestamp_cases); i++) {
		const struct text_case *c = &timestamp_cases[i];
		struct mmtests_timestamp ts = {0};
		struct strbuf got = STRBUF_INIT, err = STRBUF_INIT;

		if (mmtests_parse_timestamp("ts", c->in, strlen(c->in),
					    "wis-pf", &ts, &err))
			strbuf_addf(&got, "error:%s", err.buf);
		else
			strbuf_addf(&got,
				    "%" PRId64 " %" PRId64 " %" PRId64
				    " %d %g %g %g",
				    ts.start, ts.finish, ts.begin, ts.has_time,
				    ts.user_s, ts.sys_s, ts.elapsed_s);
		is_str(got.buf, c->want, "timestamp: %s", c->what);
		strbuf_release(&got);
		strbuf_release(&err);
	}
}

#define SNAP(a, b, c)                                                          \
	"pgfault " a "\npgmajfault " b "\nnr_free_pages " c "\nnr_mlock 0\n"

static const struct text_case sysstate_cases[] = {
	{"the changes during the benchmark, in file order",
	 "test begin :: other 1\nfile start :: /proc/vmstat\n" SNAP("0", "0", "0") "file end :: /proc/vmstat\n" SNAP(
		 "9", "9",
		 "9") "test end :: other 2\n"
		      "test begin :: wis-pf 3\nfile start :: /proc/vmstat\n" SNAP(
			      "100", "7",
			      "500") "file start :: /proc/zoneinfo\n"
				     "Node 0, zone   Normal\nfile end :: /proc/vmstat\n" SNAP(
					     "250", "7",
					     "400") "numa_hit 5\nfile end :: /proc/zoneinfo\n"
						    "  pages free 1\ntest end :: wis-pf 4\n",
	 "pgfault=150,nr_free_pages=-100; at the end nr_free_pages=400"},
	{"no end snapshot",
	 "test begin :: wis-pf 3\nfile start :: /proc/vmstat\n" SNAP("1", "2",
								     "3"),
	 "not found"},
	{"a bad vmstat line",
	 "test begin :: wis-pf 3\nfile start :: /proc/vmstat\npgfault many\n",
	 "error:ss:3: bad /proc/vmstat line 'pgfault many'"},
};

static void check_sysstates(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(sysstate_cases); i++) {
		const struct text_case *c = &sysstate_cases[i];
		struct mmtests_vmstat vm = {0};
		struct strbuf got = STRBUF_INIT, err = STRBUF_INIT;

		if (mmtests_parse_sysstate("ss", c->in, strlen(c->in), "wis-pf",
					   &vm, &err))
			strbuf_addf(&got, "error:%s", err.buf);
		else if (!vm.found)
			strbuf_addstr(&got, "not found");
		for (size_t k = 0; vm.found && k < vm.nr; k++)
			strbuf_addf(&got, "%s%s=%" PRId64, k ? "," : "",
				    vm.v[k].name, vm.v[k].value);
		/* The gauges' levels at the end, the levels compare shows. */
		for (size_t k = 0; vm.found && k < vm.end_nr; k++)
			strbuf_addf(&got, "%s%s=%" PRId64,
				    k ? "," : "; at the end ", vm.end[k].name,
				    vm.end[k].value);
		is_str(got.buf, c->want, "sysstate: %s", c->what);
		mmtests_vmstat_release(&vm);
		strbuf_release(&got);
		strbuf_release(&err);
	}
}

/* The wis fixture tree as a whole. */
static void check_tree(void)
{
	struct run_full *runs = NULL;
	struct strbuf err = STRBUF_INIT;
	size_t nr = 0, vmstat_iters = 0;

	if (!ok(!import_mmtests("data/import/mmtests/wis/work/log", NULL, &runs,
				&nr, &err),
		"the wis tree imports")) {
		diag("%s", err.buf);
		goto out;
	}
	ok(nr == 2, "two runs");
	is_str(runs[0].info.label, "6.9-patched", "runs in name order");
	is_str(runs[1].info.config_name,
	       "data/import/mmtests/wis/work/log/6.9-vanilla",
	       "config name is the run directory as reached");
	ok(runs[1].ops_nr == 4 && runs[1].iters_nr == 2 &&
		   runs[1].samples_nr == 40,
	   "4 operations, 2 iterations, 40 samples");
	is_str(runs[1].ops[3].name, "ops-page_fault1_threads-16",
	       "thread counts in numeric order");
	ok(runs[1].ops[0].higher_better && runs[1].ops[0].decimals == 2,
	   "will-it-scale: higher is better, 2 decimals");
	for (size_t i = 0; i < runs[1].iters_nr; i++)
		vmstat_iters += runs[1].iters[i].monitor != NULL;
	ok(vmstat_iters == 2, "both iterations have vmstat changes");
	ok(runs[1].iters[1].index == 1 && runs[1].iters[1].elapsed_s == 80.16,
	   "iteration index and time from iter-1/tests-timestamp");
	ok(strlen(runs[1].info.uuid) == 36 && runs[1].info.uuid[14] == '8',
	   "a version 8 uuid");
	run_full_free_array(runs, nr);
	runs = NULL;
	nr = 0;
	strbuf_reset(&err);
	ok(import_mmtests("data/import/mmtests", NULL, &runs, &nr, &err) ==
			   -1 &&
		   !runs && !nr,
	   "a directory of trees is not a work/log directory");
	is_str(err.buf,
	       "data/import/mmtests: no mmtests runs (RUN/iter-N directories) here",
	       "and the message says so");
out:
	run_full_free_array(runs, nr);
	strbuf_release(&err);
}

int main(void)
{
	check_cases("wis", wis_cases, ARRAY_SIZE(wis_cases));
	check_cases("time", time_cases, ARRAY_SIZE(time_cases));
	check_cases("netperf", netperf_cases, ARRAY_SIZE(netperf_cases));
	check_cases("pft", pft_cases, ARRAY_SIZE(pft_cases));
	check_timestamps();
	check_sysstates();
	check_tree();
	done_testing();
	return exit_status();
}
