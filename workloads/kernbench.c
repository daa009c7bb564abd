/* kernbench: time a parallel make of a generated C tree, as kernbench. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "parse-num.h"
#include "util.h"
#include "wl-common.h"

#define PROG "kernbench"

static const char usage_line[] =
	"kernbench --jobs N [--files NR] [--functions NR] [--dir DIR]";

static const char help_text[] =
	"A parallel build, timed (after mmtests' kernbench, which builds a\n"
	"kernel tree): writes a tree of NR C files of FUNCTIONS functions each\n"
	"and a Makefile into a new directory under DIR, runs `make -j N` on\n"
	"it with cc -O2 and removes the tree.\n"
	"\n"
	"  --jobs N          make's -j (1..4096)\n"
	"  --files NR        C files (1..100000, default 200)\n"
	"  --functions NR    functions per file (1..10000, default 50)\n"
	"  --dir DIR         where the tree goes (default $TMPDIR or /tmp)\n"
	"\n"
	"Output, one \"NAME VALUE\" line each, in seconds, as mmtests:\n"
	"  elsp   wall time of make\n"
	"  syst   system CPU time of make and the compilers\n"
	"  user   user CPU time of them\n"
	"Exit status: 0 success, 1 failure (also a failed build), 2 bad usage.\n";

struct kb_params {
	int jobs, files, functions;
	const char *dir;
};

/* One generated file: arithmetic the optimiser has to work through. */
static int write_source(const char *tree, int idx, int functions)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/f%d.c", tree, idx);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "unsigned long f%d_sum(unsigned long x);\n", idx);
	for (int i = 0; i < functions; i++)
		fprintf(f,
			"static unsigned long f%d_%d(unsigned long x)\n{\n"
			"\tunsigned long a = x * %d + 1;\n"
			"\tfor (int i = 0; i < %d; i++)\n"
			"\t\ta = (a << 3) ^ (a >> 5) ^ (unsigned long)i;\n"
			"\treturn a %s x;\n}\n",
			idx, i, i + 3, i % 17 + 2, i % 2 ? "+" : "^");
	fprintf(f,
		"unsigned long f%d_sum(unsigned long x)\n{\n"
		"\tunsigned long s = 0;\n",
		idx);
	for (int i = 0; i < functions; i++)
		fprintf(f, "\ts += f%d_%d(x + %d);\n", idx, i, i);
	fprintf(f, "\treturn s;\n}\n");
	return fclose(f) ? -1 : 0;
}

static int write_tree(const char *tree, const struct kb_params *p)
{
	char path[4200];
	FILE *f;

	for (int i = 0; i < p->files; i++)
		if (write_source(tree, i, p->functions))
			return -1;
	snprintf(path, sizeof(path), "%s/Makefile", tree);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "OBJS :=");
	for (int i = 0; i < p->files; i++)
		fprintf(f, " f%d.o", i);
	fprintf(f, "\nall: $(OBJS)\n%%.o: %%.c\n\tcc -O2 -c -o $@ $<\n");
	return fclose(f) ? -1 : 0;
}

static void remove_tree(const char *tree, const struct kb_params *p)
{
	char path[4200];

	for (int i = 0; i < p->files; i++) {
		snprintf(path, sizeof(path), "%s/f%d.c", tree, i);
		unlink(path);
		snprintf(path, sizeof(path), "%s/f%d.o", tree, i);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/Makefile", tree);
	unlink(path);
	rmdir(tree);
}

/* Run make -j N -s -C tree; its exit status, or -1. */
static int run_make(const char *tree, int jobs)
{
	char j[16];
	int status;
	pid_t pid;

	snprintf(j, sizeof(j), "-j%d", jobs);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		execlp("make", "make", j, "-s", "-C", tree, (char *)NULL);
		wl_error(PROG, "cannot run make: %s", strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int run(const struct kb_params *p)
{
	char tree[4096];
	struct rusage ru;
	int64_t t0, t1;
	int n, st, ret = WL_EXIT_FAILURE;

	n = snprintf(tree, sizeof(tree), "%s/kernbench.XXXXXX", p->dir);
	if (n < 0 || (size_t)n >= sizeof(tree) || !mkdtemp(tree)) {
		wl_error(PROG, "cannot create a directory in '%s': %s", p->dir,
			 strerror(errno));
		return WL_EXIT_FAILURE;
	}
	if (write_tree(tree, p)) {
		wl_error(PROG, "cannot write the tree: %s", strerror(errno));
		goto out;
	}
	t0 = wl_now_ns();
	st = run_make(tree, p->jobs);
	t1 = wl_now_ns();
	if (st) {
		wl_error(PROG, "make failed (status %d)", st);
		goto out;
	}
	getrusage(RUSAGE_CHILDREN, &ru);
	printf("elsp %.6f\n", (double)(t1 - t0) / 1e9);
	printf("syst %.6f\n",
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6);
	printf("user %.6f\n",
	       (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6);
	ret = WL_EXIT_OK;
out:
	remove_tree(tree, p);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct wl_option opts[] = {
		{"jobs", true},
		{"files", true},
		{"functions", true},
		{"dir", true},
	};
	struct wl_args args = WL_ARGS_INIT(PROG, usage_line, argc, argv);
	struct kb_params p = {.files = 200, .functions = 50};
	const char *val;
	int opt;

	while ((opt = wl_args_next(&args, opts, ARRAY_SIZE(opts), &val)) >= 0) {
		if (opt == 0 && !parse_int(val, 1, 4096, &p.jobs))
			return wl_bad_value(&args, "jobs", val,
					    "an integer in 1..4096");
		if (opt == 1 && !parse_int(val, 1, 100000, &p.files))
			return wl_bad_value(&args, "files", val,
					    "an integer in 1..100000");
		if (opt == 2 && !parse_int(val, 1, 10000, &p.functions))
			return wl_bad_value(&args, "functions", val,
					    "an integer in 1..10000");
		if (opt == 3)
			p.dir = val;
	}
	if (opt != WL_ARGS_END)
		return wl_main_tail(&args, opt, help_text);
	if (!p.jobs)
		return wl_usage_error(&args, "missing --jobs");
	if (!p.dir)
		p.dir = wl_tmpdir();
	return wl_finish_stdout(PROG, run(&p));
}
