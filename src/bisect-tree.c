/* bisect-tree: the commits between the ends, and one build per commit. */
#include "bisect-tree.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "runner.h"
#include "sha256.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"

/* What a build directory records of its build. */
#define STATE_FILE ".mmcmp-bisect"

/*
 * Run argv in cwd into res; 0 when it exited 0, 1 when it failed (why
 * says how), -1 when it could not be run.
 */
static int run(char *const *argv, const char *cwd, struct runner_result *res,
	       struct strbuf *why, struct strbuf *err)
{
	struct runner_opts opts = {.argv = argv, .cwd = cwd};

	if (runner_run(&opts, res, err))
		return -1;
	if (res->status == RUNNER_OK)
		return 0;
	strbuf_rtrim(&res->err_tail);
	if (res->status == RUNNER_EXIT)
		strbuf_addf(why, "exit status %d", res->exit_code);
	else
		strbuf_addstr(why, runner_status_name(res->status));
	if (res->err_tail.len) {
		const char *last = strrchr(res->err_tail.buf, '\n');

		strbuf_addf(why, ": %s", last ? last + 1 : res->err_tail.buf);
	}
	return 1;
}

/* git -C repo ARGS...; its stdout into out. */
static int git(const char *repo, const char *const *args, struct strbuf *out,
	       struct strbuf *err)
{
	struct strvec argv = STRVEC_INIT;
	struct runner_result res = RUNNER_RESULT_INIT;
	struct strbuf why = STRBUF_INIT;
	int r;

	strvec_push(&argv, "git");
	strvec_push(&argv, "-C");
	strvec_push(&argv, repo);
	for (size_t i = 0; args[i]; i++)
		strvec_push(&argv, args[i]);
	r = run(argv.v, NULL, &res, &why, err);
	if (r > 0)
		r = error_addf(err, "git %s in '%s' failed: %s", args[0], repo,
			       why.buf);
	if (!r && out)
		strbuf_add(out, res.out.buf, res.out.len);
	runner_result_release(&res);
	strbuf_release(&why);
	strvec_clear(&argv);
	return r;
}

int bisect_tree_resolve(const char *repo, const char *rev, char hash[41],
			struct strbuf *err)
{
	struct strbuf spec = STRBUF_INIT, out = STRBUF_INIT;
	const char *args[] = {"rev-parse", "--verify", "--quiet", NULL, NULL};
	int ret = -1;

	strbuf_addf(&spec, "%s^{commit}", rev);
	args[3] = spec.buf;
	if (git(repo, args, &out, err)) {
		strbuf_reset(err);
		error_addf(err, "'%s' is not a commit of '%s'", rev, repo);
		goto out;
	}
	strbuf_rtrim(&out);
	if (out.len != 40) {
		error_addf(err, "'%s' is not a commit of '%s'", rev, repo);
		goto out;
	}
	memcpy(hash, out.buf, 41);
	ret = 0;
out:
	strbuf_release(&spec);
	strbuf_release(&out);
	return ret;
}

int bisect_tree_commits(const char *repo, const char *good, const char *bad,
			struct strvec *commits, struct strbuf *err)
{
	char g[41], b[41];
	struct strbuf range = STRBUF_INIT, out = STRBUF_INIT;
	const char *anc[] = {"merge-base", "--is-ancestor", g, b, NULL};
	const char *list[] = {"rev-list",
			      "--first-parent",
			      "--ancestry-path",
			      "--reverse",
			      NULL,
			      NULL};
	size_t start = commits->nr;
	int ret = -1;

	if (bisect_tree_resolve(repo, good, g, err) ||
	    bisect_tree_resolve(repo, bad, b, err))
		goto out;
	if (git(repo, anc, NULL, err)) {
		strbuf_reset(err);
		error_addf(
			err,
			"the good end '%s' is not an ancestor of the bad end '%s'",
			good, bad);
		goto out;
	}
	strbuf_addf(&range, "%s..%s", g, b);
	list[4] = range.buf;
	if (git(repo, list, &out, err))
		goto out;
	strvec_push(commits, g);
	for (char *p = out.buf, *nl; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		*nl = '\0';
		strvec_push(commits, p);
	}
	if (commits->nr - start < 2 || strcmp(commits->v[commits->nr - 1], b)) {
		error_addf(err, "no first-parent path from '%s' to '%s'", good,
			   bad);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&range);
	strbuf_release(&out);
	return ret;
}

char *bisect_tree_dir(const char *workdir, const char *commit)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/%s", workdir, commit);
	return strbuf_detach(&sb, NULL);
}

/* Record the outcome: "ok HASH" or "fail WHY". */
static int write_state(const char *dir, const char *line, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	FILE *f;
	int ret = 0, bad;

	strbuf_addf(&path, "%s/" STATE_FILE, dir);
	f = fopen(path.buf, "w");
	if (!f) {
		ret = error_addf(err, "cannot write '%s': %s", path.buf,
				 strerror(errno));
		goto out;
	}
	/* fclose() runs once, whatever fprintf() did. */
	bad = fprintf(f, "%s\n", line) < 0;
	if (fclose(f) != 0)
		bad = 1;
	if (bad)
		ret = error_addf(err, "cannot write '%s': %s", path.buf,
				 strerror(errno));
out:
	strbuf_release(&path);
	return ret;
}

/* A build recorded before: 0 built, 1 failed, 2 none recorded. */
static int read_state(const char *dir, char hash[65], struct strbuf *why)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT, err = STRBUF_INIT;
	int ret = 2;

	strbuf_addf(&path, "%s/" STATE_FILE, dir);
	if (strbuf_read_file(&text, path.buf, &err))
		goto out;
	strbuf_rtrim(&text);
	if (!strncmp(text.buf, "ok ", 3) && text.len == 3 + 64) {
		memcpy(hash, text.buf + 3, 65);
		ret = 0;
	} else if (!strncmp(text.buf, "fail ", 5)) {
		strbuf_addstr(why, text.buf + 5);
		ret = 1;
	}
out:
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&err);
	return ret;
}

/* Extract commit's tree into dir (made here) by git archive | tar. */
static int extract(const char *repo, const char *commit, const char *dir,
		   struct strbuf *err)
{
	static const char script[] =
		"mkdir -p \"$3\" && git -C \"$1\" archive --format=tar \"$2\" | tar -x -C \"$3\"";
	struct strvec argv = STRVEC_INIT;
	struct runner_result res = RUNNER_RESULT_INIT;
	struct strbuf why = STRBUF_INIT;
	int r;

	strvec_push(&argv, "/bin/sh");
	strvec_push(&argv, "-c");
	strvec_push(&argv, script);
	strvec_push(&argv, "sh");
	strvec_push(&argv, repo);
	strvec_push(&argv, commit);
	strvec_push(&argv, dir);
	r = run(argv.v, NULL, &res, &why, err);
	strvec_clear(&argv);
	if (r > 0)
		r = error_addf(err, "cannot extract %s into '%s': %s", commit,
			       dir, why.buf);
	runner_result_release(&res);
	strbuf_release(&why);
	return r;
}

int bisect_tree_build(const char *repo, const char *commit, const char *workdir,
		      const char *build, const char *image, char hash[65],
		      struct strbuf *why, struct strbuf *err)
{
	char *dir = bisect_tree_dir(workdir, commit);
	struct strvec argv = STRVEC_INIT;
	struct runner_result res = RUNNER_RESULT_INIT;
	struct strbuf path = STRBUF_INIT, bytes = STRBUF_INIT,
		      line = STRBUF_INIT, ignored = STRBUF_INIT;
	int ret = read_state(dir, hash, why);

	if (ret != 2)
		goto out;
	ret = -1;
	if (extract(repo, commit, dir, err))
		goto out;
	strvec_push(&argv, "/bin/sh");
	strvec_push(&argv, "-c");
	strvec_push(&argv, build);
	ret = run(argv.v, dir, &res, why, err);
	if (ret < 0)
		goto out;
	strbuf_addf(&path, "%s/%s", dir, image);
	if (!ret && strbuf_read_file(&bytes, path.buf, &ignored)) {
		strbuf_addf(why, "the build made no '%s'", image);
		ret = 1;
	}
	if (!ret) {
		sha256_hex(bytes.buf, bytes.len, hash);
		strbuf_addf(&line, "ok %s", hash);
	} else {
		strbuf_addf(&line, "fail %s", why->buf);
	}
	if (write_state(dir, line.buf, err))
		ret = -1;
out:
	runner_result_release(&res);
	strvec_clear(&argv);
	strbuf_release(&path);
	strbuf_release(&bytes);
	strbuf_release(&line);
	strbuf_release(&ignored);
	free(dir);
	return ret;
}
