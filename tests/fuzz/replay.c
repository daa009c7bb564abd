/*
 * Replay inputs through a fuzz target without libFuzzer: every file
 * named on the command line, and every file under each directory named,
 * in name order, one TAP line each. An input that breaks the target
 * aborts, and the test fails.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"
#include "strbuf.h"
#include "strvec.h"

static int nr_tests;

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Append the entries of directory path to todo, in name order. */
static int list_dir(const char *path, struct strvec *todo)
{
	struct strvec names = STRVEC_INIT;
	DIR *d = opendir(path);
	struct dirent *de;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		struct strbuf name = STRBUF_INIT;

		if (de->d_name[0] == '.')
			continue;
		strbuf_addf(&name, "%s/%s", path, de->d_name);
		strvec_push_nodup(&names, strbuf_detach(&name, NULL));
	}
	closedir(d);
	if (names.nr)
		qsort(names.v, names.nr, sizeof(*names.v), cmp_str);
	strvec_pushv(todo, names.v);
	strvec_clear(&names);
	return 0;
}

static void replay_file(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	if (strbuf_read_file(&sb, path, NULL)) {
		printf("not ok %d - %s: cannot read\n", ++nr_tests, path);
	} else {
		/* Flushed first: a crash shows which input it was. */
		printf("# %s\n", path);
		fflush(stdout);
		LLVMFuzzerTestOneInput((const uint8_t *)sb.buf, sb.len);
		printf("ok %d - %s (%zu bytes)\n", ++nr_tests, path, sb.len);
	}
	strbuf_release(&sb);
}

int main(int argc, char **argv)
{
	struct strvec todo = STRVEC_INIT;

	if (argc < 2)
		fprintf(stderr, "usage: %s FILE-OR-DIR...\n", argv[0]);
	/* A work list, not recursion: directories add their entries. */
	strvec_pushv(&todo, argv + 1);
	for (size_t i = 0; i < todo.nr; i++) {
		const char *path = todo.v[i];
		struct stat st;

		if (stat(path, &st) ||
		    (S_ISDIR(st.st_mode) && list_dir(path, &todo)))
			printf("not ok %d - %s: %s\n", ++nr_tests, path,
			       strerror(errno));
		else if (!S_ISDIR(st.st_mode))
			replay_file(path);
	}
	strvec_clear(&todo);
	printf("1..%d\n", nr_tests);
	return 0;
}
