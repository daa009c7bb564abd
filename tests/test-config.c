/* Unit tests for the config loader: valid and invalid files, the reference. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "config.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"

#define VALID_DIR   "data/configs/valid"
#define INVALID_DIR "data/configs/invalid"
#define CONFIGS_DIR "../configs"
#define README	    "../configs/README.md"
#define KEYS_BEGIN  "<!-- keys:begin -->\n"
#define KEYS_END    "<!-- keys:end -->"

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The "*.yaml" files of dir as "dir/name", sorted. */
static void list_yaml(const char *dir, struct strvec *out)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d) {
		ok(false, "cannot open directory %s", dir);
		return;
	}
	while ((de = readdir(d))) {
		struct strbuf path = STRBUF_INIT;
		size_t len = strlen(de->d_name);

		if (len < 6 || strcmp(de->d_name + len - 5, ".yaml") != 0)
			continue;
		strbuf_addf(&path, "%s/%s", dir, de->d_name);
		strvec_push_nodup(out, strbuf_detach(&path, NULL));
	}
	closedir(d);
	if (out->nr)
		qsort(out->v, out->nr, sizeof(*out->v), cmp_str);
}

static void test_valid_files(const char *dir)
{
	struct strvec files = STRVEC_INIT;

	list_yaml(dir, &files);
	ok(files.nr > 0, "%s holds configs (%zu)", dir, files.nr);
	for (size_t i = 0; i < files.nr; i++) {
		struct config cfg = CONFIG_INIT;
		struct strbuf err = STRBUF_INIT;
		int ret = config_load_file(&cfg, files.v[i], &err);

		if (ret)
			diag("%s", err.buf);
		ok(ret == 0 && !err.len, "loads: %s", files.v[i]);
		config_release(&cfg);
		strbuf_release(&err);
	}
	strvec_clear(&files);
}

/*
 * Each invalid file opens with "# expect: LINE:COL: text"; the error must
 * be "<path>:LINE:COL: ..." and contain the whole expected text.
 */
static void test_invalid_files(void)
{
	struct strvec files = STRVEC_INIT;

	list_yaml(INVALID_DIR, &files);
	ok(files.nr >= 25, "at least 25 invalid configs (%zu)", files.nr);
	for (size_t i = 0; i < files.nr; i++) {
		struct config cfg = CONFIG_INIT;
		struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
		struct strbuf prefix = STRBUF_INIT;
		const char *expect, *eol, *p;
		int ret;

		if (strbuf_read_file(&text, files.v[i], NULL) ||
		    !starts_with(text.buf, "# expect: ")) {
			ok(false, "%s opens with '# expect: '", files.v[i]);
			goto next;
		}
		expect = text.buf + 10;
		eol = strchr(expect, '\n');
		if (eol)
			strbuf_setlen(&text, (size_t)(eol - text.buf));
		/* The expectation starts with LINE:COL: */
		p = expect + strspn(expect, "0123456789");
		if (p == expect || *p++ != ':' || !strspn(p, "0123456789") ||
		    p[strspn(p, "0123456789")] != ':') {
			ok(false,
			   "%s: expect text starts with LINE:COL:", files.v[i]);
			goto next;
		}
		p += strspn(p, "0123456789") + 1;
		strbuf_addf(&prefix, "%s:%.*s", files.v[i], (int)(p - expect),
			    expect);
		ret = config_load_file(&cfg, files.v[i], &err);
		if (ret != -1 || !starts_with(err.buf, prefix.buf) ||
		    !strstr(err.buf, expect))
			diag("got '%s', want '%s'", err.buf, expect);
		ok(ret == -1 && starts_with(err.buf, prefix.buf) &&
			   strstr(err.buf, expect) && !strchr(err.buf, '\n'),
		   "rejects: %s", files.v[i]);
		ok(!cfg.name && !cfg.workloads && !cfg.text,
		   "left released: %s", files.v[i]);
	next:
		config_release(&cfg);
		strbuf_release(&err);
		strbuf_release(&text);
		strbuf_release(&prefix);
	}
	strvec_clear(&files);
}

static const char *argv_str(struct strbuf *sb, const struct strvec *sv)
{
	strbuf_reset(sb);
	for (size_t i = 0; i < sv->nr; i++)
		strbuf_addf(sb, "%s%s", i ? " " : "", sv->v[i]);
	return sb->buf;
}

static const char *env_str(struct strbuf *sb, const struct kv_list *env)
{
	strbuf_reset(sb);
	for (size_t i = 0; i < env->nr; i++)
		strbuf_addf(sb, "%s%s=%s", i ? " " : "", env->v[i].key,
			    env->v[i].value);
	return sb->buf;
}

static const char *commands_str(struct strbuf *sb,
				const struct command_list *list)
{
	struct strbuf one = STRBUF_INIT;

	strbuf_reset(sb);
	for (size_t i = 0; i < list->nr; i++)
		strbuf_addf(sb, "%s[%s]", i ? " " : "",
			    argv_str(&one, &list->v[i]));
	strbuf_release(&one);
	return sb->buf;
}

static const struct {
	const char *name, *unit;
	bool higher_better;
	int decimals;
	enum metric_source source;
	const char *pattern, *field;
} full_metrics[] = {
	{"ops", "ops/s", true, 0, METRIC_REGEX, "ops: ([0-9.]+)", NULL},
	{"lat", "", false, 2, METRIC_JSON, "jobs[0].read.lat_ns.mean", NULL},
	{"fio-bw", "KiB/s", false, 2, METRIC_PARSER, "fio", "read.bw"},
	{"wall", "s", false, 2, METRIC_ELAPSED, NULL, NULL},
	{"rss", "KiB", false, 2, METRIC_MAXRSS, NULL, NULL},
};

static void test_full(void)
{
	struct config cfg = CONFIG_INIT;
	struct strbuf err = STRBUF_INIT, sb = STRBUF_INIT;
	const struct workload_spec *w, *sh;
	const struct build_spec *b;

	if (!ok(!config_load_file(&cfg, VALID_DIR "/full.yaml", &err),
		"full.yaml loads")) {
		diag("%s", err.buf);
		goto out;
	}
	is_str(cfg.path, VALID_DIR "/full.yaml", "full: path");
	ok(cfg.text && cfg.text_len == strlen(cfg.text) &&
		   !strncmp(cfg.text, "# Every key", 11),
	   "full: text kept");
	is_str(cfg.name, "full", "full: name");
	is_str(cfg.description, "Every key, for the loader test",
	       "full: description");
	ok(cfg.iterations == 7 && cfg.warmup == 2, "full: iterations, warmup");
	ok_near(cfg.timeout_s, 90.5, 0, "full: timeout");
	ok(cfg.on_error == CONFIG_ON_ERROR_ABORT, "full: on_error abort");
	ok(cfg.interleave, "full: interleave");
	ok(cfg.monitors && cfg.monitor_interval_s == 2.5,
	   "full: monitors, monitor_interval");
	is_str(env_str(&sb, &cfg.env), "LC_ALL=C DEPTH=3", "full: env");
	is_str(commands_str(&sb, &cfg.setup),
	       "[/bin/sh -c echo setting up] [sync]", "full: setup");
	is_str(commands_str(&sb, &cfg.teardown), "[rm -f /tmp/mmcmp-full]",
	       "full: teardown");
	if (!ok(cfg.workloads_nr == 2, "full: two workloads"))
		goto out;
	w = &cfg.workloads[0];
	is_str(w->name, "faults", "full: workload name");
	ok(w->line == 18 && w->col == 5, "full: workload at 18:5 (%d:%d)",
	   w->line, w->col);
	is_str(argv_str(&sb, &w->command),
	       "page-fault --tasks {tasks} --mode {mode}",
	       "full: command keeps placeholders");
	ok(!w->shell, "full: not shell");
	if (ok(w->params_nr == 2, "full: two params")) {
		is_str(w->params[0].name, "tasks",
		       "full: params in file order");
		is_str(argv_str(&sb, &w->params[0].values), "1 2 4",
		       "full: list param");
		is_str(w->params[1].name, "mode", "full: second param");
		is_str(argv_str(&sb, &w->params[1].values), "processes",
		       "full: scalar param is one value");
	}
	is_str(w->operation, "{metric}-{tasks}", "full: operation");
	if (ok(w->metrics_nr == ARRAY_SIZE(full_metrics), "full: metrics")) {
		for (size_t i = 0; i < ARRAY_SIZE(full_metrics); i++) {
			const struct metric_spec *m = &w->metrics[i];

			ok(!strcmp(m->name, full_metrics[i].name) &&
				   !strcmp(m->unit, full_metrics[i].unit) &&
				   m->higher_better ==
					   full_metrics[i].higher_better &&
				   m->decimals == full_metrics[i].decimals &&
				   m->source == full_metrics[i].source &&
				   tap_str_eq(m->pattern,
					      full_metrics[i].pattern) &&
				   tap_str_eq(m->field, full_metrics[i].field),
			   "full: metric %zu (%s)", i, full_metrics[i].name);
		}
		ok(w->metrics[0].line == 25 && w->metrics[0].col == 9,
		   "full: metric at 25:9 (%d:%d)", w->metrics[0].line,
		   w->metrics[0].col);
	}
	is_str(env_str(&sb, &w->env), "FAULT_SIZE=64M", "full: workload env");
	is_str(commands_str(&sb, &w->setup), "[true]", "full: workload setup");
	is_str(commands_str(&sb, &w->teardown), "[/bin/sh -c true]",
	       "full: workload teardown");
	ok_near(w->timeout_s, 30, 0, "full: workload timeout");
	is_str(w->cwd, "/tmp", "full: workload cwd");

	sh = &cfg.workloads[1];
	ok(sh->shell, "full: shell workload");
	is_str(argv_str(&sb, &sh->command),
	       "/bin/sh -c sleep 0.01 && awk 'BEGIN {{ print 1 }}'",
	       "full: shell command is sh -c STRING");
	ok(sh->params_nr == 0 && sh->metrics_nr == 1 &&
		   sh->metrics[0].source == METRIC_SYSTEM &&
		   !strcmp(sh->metrics[0].unit, "s"),
	   "full: shell workload metric");
	is_str(sh->operation, "{metric}", "full: default operation");
	ok(sh->timeout_s == 0 && !sh->cwd && !sh->env.nr && !sh->setup.nr,
	   "full: workload defaults");

	if (!ok(cfg.builds_nr == 3, "full: three builds"))
		goto out;
	b = &cfg.builds[0];
	is_str(b->name, "base", "full: build name");
	ok(b->line == 60 && b->col == 3, "full: build at 60:3 (%d:%d)", b->line,
	   b->col);
	is_str(env_str(&sb, &b->env), "PAGE_FAULT_HUGEPAGE=never",
	       "full: build env");
	is_str(argv_str(&sb, &b->prefix), "taskset -c 0", "full: prefix");
	is_str(b->cwd, "/", "full: build cwd");
	is_str(commands_str(&sb, &b->setup), "[echo base]",
	       "full: build setup");
	is_str(commands_str(&sb, &b->teardown), "[/bin/sh -c echo done]",
	       "full: build teardown");
	b = &cfg.builds[1];
	is_str(b->name, "thp", "full: flow-style build");
	is_str(env_str(&sb, &b->env), "PAGE_FAULT_HUGEPAGE=always",
	       "full: flow-style build env");
	ok(b->cgroup.path && !strcmp(b->cgroup.path, "mmcmp/thp") &&
		   !b->cgroup.controllers.nr && !b->cgroup.limits.nr &&
		   !b->cgroup.root,
	   "full: a build's cgroup");
	b = &cfg.builds[2];
	ok(!strcmp(b->name, "bare") && !b->env.nr && !b->prefix.nr &&
		   b->prefix.v && !b->prefix.v[0] && !b->cwd && !b->cgroup.path,
	   "full: empty build");
	is_str(cfg.cgroup.path, "mmcmp/full", "full: cgroup path");
	is_str(argv_str(&sb, &cfg.cgroup.controllers), "memory cpu",
	       "full: cgroup controllers");
	is_str(env_str(&sb, &cfg.cgroup.limits),
	       "memory.max=1G cpu.max=50000 100000", "full: cgroup limits");
	is_str(cfg.cgroup.root, "/sys/fs/cgroup", "full: cgroup root");
out:
	config_release(&cfg);
	ok(!cfg.name && !cfg.workloads_nr && !cfg.builds,
	   "full: released is CONFIG_INIT");
	strbuf_release(&err);
	strbuf_release(&sb);
}

static void test_defaults(void)
{
	struct config cfg = CONFIG_INIT;
	struct strbuf err = STRBUF_INIT, sb = STRBUF_INIT;
	const struct workload_spec *w;
	const struct metric_spec *m;

	if (!ok(!config_load_file(&cfg, VALID_DIR "/minimal.yaml", &err),
		"minimal.yaml loads")) {
		diag("%s", err.buf);
		goto out;
	}
	ok(!cfg.description && cfg.iterations == 5 && cfg.warmup == 0 &&
		   cfg.timeout_s == 600 &&
		   cfg.on_error == CONFIG_ON_ERROR_CONTINUE &&
		   !cfg.interleave && !cfg.env.nr && !cfg.setup.nr &&
		   !cfg.teardown.nr && !cfg.builds_nr && cfg.monitors &&
		   cfg.monitor_interval_s == 0,
	   "minimal: top-level defaults");
	w = &cfg.workloads[0];
	is_str(w->name, "true", "minimal: a plain true is a string here");
	is_str(argv_str(&sb, &w->command), "true", "minimal: command");
	is_str(w->operation, "{metric}", "minimal: default operation");
	m = &w->metrics[0];
	ok(!strcmp(m->unit, "s") && !m->higher_better && m->decimals == 2 &&
		   m->source == METRIC_ELAPSED && !m->pattern && !m->field,
	   "minimal: metric defaults");
out:
	config_release(&cfg);
	strbuf_release(&err);
	strbuf_release(&sb);
}

static void test_flow(void)
{
	struct config cfg = CONFIG_INIT;
	struct strbuf err = STRBUF_INIT, sb = STRBUF_INIT;

	if (!ok(!config_load_file(&cfg, VALID_DIR "/flow.yaml", &err),
		"flow.yaml loads")) {
		diag("%s", err.buf);
		goto out;
	}
	ok(cfg.iterations == 1 && cfg.workloads_nr == 1 && cfg.builds_nr == 2,
	   "flow: shape");
	is_str(cfg.workloads[0].operation, "n{n}", "flow: operation");
	is_str(argv_str(&sb, &cfg.workloads[0].params[0].values), "1 2",
	       "flow: param values");
	ok(cfg.workloads[0].metrics[0].source == METRIC_REGEX &&
		   !strcmp(cfg.workloads[0].metrics[0].unit, ""),
	   "flow: regex metric, empty unit");
	is_str(argv_str(&sb, &cfg.builds[1].prefix), "nice", "flow: prefix");
out:
	config_release(&cfg);
	strbuf_release(&err);
	strbuf_release(&sb);
}

static void test_hooks_settings(void)
{
	struct config cfg = CONFIG_INIT;
	struct strbuf err = STRBUF_INIT, sb = STRBUF_INIT;
	const struct build_spec *b;

	if (!ok(!config_load_file(&cfg, VALID_DIR "/hooks-settings.yaml", &err),
		"hooks-settings.yaml loads")) {
		diag("%s", err.buf);
		goto out;
	}
	is_str(commands_str(&sb, &cfg.prepare),
	       "[/bin/sh -c echo 3 > /proc/sys/vm/drop_caches]",
	       "hooks: top-level prepare");
	is_str(commands_str(&sb, &cfg.conclude), "[sync]",
	       "hooks: top-level conclude");
	is_str(env_str(&sb, &cfg.settings),
	       "/sys/kernel/mm/transparent_hugepage/enabled=never "
	       "/proc/sys/vm/stat_interval=2",
	       "settings: top level, in file order");
	is_str(commands_str(&sb, &cfg.workloads[0].prepare), "[echo w]",
	       "hooks: workload prepare");
	is_str(commands_str(&sb, &cfg.workloads[0].conclude),
	       "[/bin/sh -c echo done]", "hooks: workload conclude");
	b = &cfg.builds[0];
	is_str(commands_str(&sb, &b->prepare), "[echo b]",
	       "hooks: build prepare");
	is_str(commands_str(&sb, &b->conclude), "[echo c]",
	       "hooks: build conclude");
	is_str(env_str(&sb, &b->settings),
	       "/sys/kernel/mm/transparent_hugepage/enabled=always "
	       "/sys/kernel/mm/transparent_hugepage/defrag=defer",
	       "settings: a build's");
	b = &cfg.builds[1];
	ok(!b->prepare.nr && !b->conclude.nr && !b->settings.nr,
	   "hooks, settings: none in an empty build");
out:
	config_release(&cfg);
	strbuf_release(&err);
	strbuf_release(&sb);
}

static void test_buffers(void)
{
	static const char good[] = "name: b\n"
				   "workloads:\n"
				   "  - name: w\n"
				   "    command: [x]\n"
				   "    metrics: [{name: m, extract: "
				   "{measure: elapsed}}]\n";
	struct config cfg = CONFIG_INIT;
	struct strbuf err = STRBUF_INIT, big = STRBUF_INIT;
	int ret;

	ret = config_load_buffer(&cfg, "buf", good, sizeof(good) - 1, &err);
	ok(ret == 0 && !strcmp(cfg.path, "buf") && !strcmp(cfg.name, "b"),
	   "a buffer loads");
	config_release(&cfg);

	/* A valid file one byte over the limit: the size alone rejects it. */
	strbuf_addstr(&big, good);
	strbuf_addchars(&big, '#', CONFIG_MAX_BYTES + 1 - big.len - 1);
	strbuf_addch(&big, '\n');
	ret = config_load_buffer(&cfg, "big", big.buf, big.len, &err);
	is_str(err.buf,
	       "big:1:1: the file is larger than 1 MiB "
	       "(1048576 bytes)",
	       "over 1 MiB is refused");
	ok(ret == -1 && !cfg.text, "over 1 MiB: -1, released");
	strbuf_reset(&err);
	strbuf_setlen(&big, big.len - 1);
	ret = config_load_buffer(&cfg, "big", big.buf, big.len, &err);
	ok(ret == 0, "exactly 1 MiB loads");
	config_release(&cfg);

	ret = config_load_buffer(&cfg, "nul", "name: a\0b", 9, &err);
	ok(ret == -1 && strstr(err.buf, "nul:1:8: "),
	   "a NUL byte is refused (%s)", err.buf);
	strbuf_reset(&err);

	ret = config_load_file(&cfg, "data/configs/none.yaml", &err);
	ok(ret == -1 && starts_with(err.buf, "cannot open "
					     "'data/configs/none.yaml': "),
	   "missing file (%s)", err.buf);
	strbuf_reset(&err);
	ret = config_load_file(&cfg, "data/configs", &err);
	ok(ret == -1 && starts_with(err.buf, "cannot read 'data/configs': "),
	   "a directory (%s)", err.buf);

	config_release(NULL);
	ok(true, "config_release(NULL) is a no-op");
	strbuf_release(&err);
	strbuf_release(&big);
}

/* The README's key reference is config_describe()'s output, verbatim. */
static void test_readme(void)
{
	struct strbuf readme = STRBUF_INIT, want = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT;
	struct config cfg = CONFIG_INIT;
	const char *begin, *end, *example, *example_end;

	config_describe(&want);
	ok(strstr(want.buf, "### Top level\n") && strstr(want.buf, "`regex`"),
	   "config_describe() has the sections");
	if (!ok(!strbuf_read_file(&readme, README, NULL), "read %s", README))
		goto out;
	begin = strstr(readme.buf, KEYS_BEGIN);
	end = begin ? strstr(begin, KEYS_END) : NULL;
	ok(begin && end, "README has the key markers");
	if (!begin || !end)
		goto out;
	begin += strlen(KEYS_BEGIN);
	if (!ok((size_t)(end - begin) == want.len &&
			!memcmp(begin, want.buf, want.len),
		"README key reference matches config_describe()")) {
		size_t i = 0, line = 1;

		while (i < want.len && begin + i < end &&
		       begin[i] == want.buf[i])
			line += want.buf[i++] == '\n';
		diag("first difference on line %zu of the reference", line);
	}
	/* The first yaml block of the README is a config that loads. */
	example = strstr(readme.buf, "```yaml\n");
	example_end = example ? strstr(example + 8, "```\n") : NULL;
	ok(example && example_end, "README has a yaml example");
	if (!example || !example_end)
		goto out;
	example += 8;
	if (config_load_buffer(&cfg, "README example", example,
			       (size_t)(example_end - example), &err))
		diag("%s", err.buf);
	ok(!err.len && cfg.workloads_nr > 0, "README example loads");
out:
	config_release(&cfg);
	strbuf_release(&readme);
	strbuf_release(&want);
	strbuf_release(&err);
}

/* The "# quick:" line: its words, or false without one. */
static const struct {
	const char *text, *want; /* want: the words joined by '|'; NULL: none */
	size_t line_nr;		 /* of the quick line, from 1 */
} quick_cases[] = {
	{"name: x\n# quick: --iterations 2 --param a=1\n",
	 "--iterations|2|--param|a=1", 2},
	{"# quick:\t-q  --label  x \r\nname: x\n", "-q|--label|x", 1},
	{"# quick:\n", "", 1},
	{"# quick: a\n# quick: b\n", "a", 1},
	{"a: 1\n\nb: 2\n# quick: c\n", "c", 4},
	{"name: x\n#quick: a\n", NULL, 0},
	{"name: x\n  # quick: a\n", NULL, 0},
	{"", NULL, 0},
};

static void test_quick_words(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(quick_cases); i++) {
		struct strvec words = STRVEC_INIT;
		struct strbuf got = STRBUF_INIT;
		size_t line_nr = 0;
		bool found = config_quick_words(quick_cases[i].text, &words,
						&line_nr);

		for (size_t k = 0; k < words.nr; k++)
			strbuf_addf(&got, "%s%s", k ? "|" : "", words.v[k]);
		if (quick_cases[i].want)
			ok(found && !strcmp(got.buf, quick_cases[i].want) &&
				   line_nr == quick_cases[i].line_nr,
			   "quick case %zu: '%s' on line %zu", i, got.buf,
			   line_nr);
		else
			ok(!found && !words.nr, "quick case %zu: no line", i);
		strvec_clear(&words);
		strbuf_release(&got);
	}
}

int main(void)
{
	test_quick_words();
	test_valid_files(VALID_DIR);
	test_valid_files(CONFIGS_DIR);
	test_full();
	test_defaults();
	test_flow();
	test_hooks_settings();
	test_invalid_files();
	test_buffers();
	test_readme();
	done_testing();
	return exit_status();
}
