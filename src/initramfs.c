/* initramfs: a gzip'd newc cpio archive for a guest's root. */
#include "initramfs.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include <zlib.h>

#include "runner.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"

struct entry {
	char *name; /* without the leading slash */
	unsigned mode;
	char *data;
	size_t len;
};

struct initramfs {
	struct entry *v;
	size_t nr, alloc;
};

struct initramfs *initramfs_new(void)
{
	return xcalloc(1, sizeof(struct initramfs));
}

void initramfs_free(struct initramfs *ir)
{
	if (!ir)
		return;
	for (size_t i = 0; i < ir->nr; i++) {
		free(ir->v[i].name);
		free(ir->v[i].data);
	}
	free(ir->v);
	free(ir);
}

static const char *strip_slash(const char *path)
{
	while (*path == '/')
		path++;
	return path;
}

int initramfs_has(const struct initramfs *ir, const char *path)
{
	path = strip_slash(path);
	for (size_t i = 0; i < ir->nr; i++)
		if (!strcmp(ir->v[i].name, path))
			return 1;
	return 0;
}

static void add_entry(struct initramfs *ir, const char *name, unsigned mode,
		      char *data, size_t len)
{
	ALLOC_GROW(ir->v, ir->nr + 1, ir->alloc);
	ir->v[ir->nr].name = xstrdup(name);
	ir->v[ir->nr].mode = mode;
	ir->v[ir->nr].data = data;
	ir->v[ir->nr++].len = len;
}

/* Add the parent directories of name, each once. */
static void add_parents(struct initramfs *ir, const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	for (const char *p = strchr(name, '/'); p; p = strchr(p + 1, '/')) {
		strbuf_reset(&sb);
		strbuf_add(&sb, name, (size_t)(p - name));
		if (sb.len && !initramfs_has(ir, sb.buf))
			add_entry(ir, sb.buf, S_IFDIR | 0755, NULL, 0);
	}
	strbuf_release(&sb);
}

void initramfs_add_dir(struct initramfs *ir, const char *path)
{
	const char *name = strip_slash(path);

	add_parents(ir, name);
	if (*name && !initramfs_has(ir, name))
		add_entry(ir, name, S_IFDIR | 0755, NULL, 0);
}

void initramfs_add_data(struct initramfs *ir, const char *path,
			const void *data, size_t len, unsigned mode)
{
	const char *name = strip_slash(path);
	char *copy = xmalloc(len ? len : 1);

	if (len)
		memcpy(copy, data, len);
	add_parents(ir, name);
	add_entry(ir, name, S_IFREG | (mode & 07777), copy, len);
}

int initramfs_add_file(struct initramfs *ir, const char *path, const char *host,
		       unsigned mode, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;

	if (strbuf_read_file(&sb, host, err))
		return -1;
	initramfs_add_data(ir, path ? path : host, sb.buf, sb.len, mode);
	strbuf_release(&sb);
	return 0;
}

int initramfs_parse_ldd(const char *ldd, struct strvec *libs,
			struct strbuf *err)
{
	const char *line = ldd;

	while (*line) {
		const char *eol = strchr(line, '\n');
		const char *p = line, *arrow, *end;

		if (!eol)
			eol = line + strlen(line);

		while (p < eol && (*p == ' ' || *p == '\t'))
			p++;
		arrow = strstr(p, "=> ");
		if (arrow && arrow < eol) {
			p = arrow + 3;
			if (!strncmp(p, "not found", 9)) {
				const char *s = line;

				while (*s == ' ' || *s == '\t')
					s++;
				return error_addf(err,
						  "library '%.*s' not found",
						  (int)(arrow - s - 1), s);
			}
		}
		if (*p == '/') {
			struct strbuf sb = STRBUF_INIT;

			end = p;
			while (end < eol && *end != ' ' && *end != '\t')
				end++;
			strbuf_add(&sb, p, (size_t)(end - p));
			strvec_push_nodup(libs, strbuf_detach(&sb, NULL));
		}
		line = *eol ? eol + 1 : eol;
	}
	return 0;
}

/* The interpreter of a "#!" script into interp; false when not a script. */
static bool script_interpreter(const char *text, size_t len,
			       struct strbuf *interp)
{
	size_t i = 2;

	if (len < 3 || text[0] != '#' || text[1] != '!')
		return false;
	while (i < len && (text[i] == ' ' || text[i] == '\t'))
		i++;
	while (i < len && text[i] != ' ' && text[i] != '\t' && text[i] != '\n')
		strbuf_add(interp, text + i++, 1);
	return interp->len > 0;
}

/* The libraries of prog, from ldd (ldd itself runs nothing of prog's). */
static int program_libs(const char *prog, struct strvec *libs,
			struct strbuf *err)
{
	char ldd[] = "ldd";
	char *argv[] = {ldd, (char *)prog, NULL};
	struct runner_opts o = {.argv = argv, .timeout_s = 30};
	struct runner_result r = RUNNER_RESULT_INIT;
	int ret = -1;

	if (runner_run(&o, &r, err))
		goto out;
	if (r.status == RUNNER_EXEC) {
		error_addf(err, "cannot run ldd for '%s': %s", prog,
			   r.err_tail.buf);
		goto out;
	}
	/* A static program: "not a dynamic executable", exit 1. */
	if (r.status != RUNNER_OK) {
		ret = 0;
		goto out;
	}
	if (initramfs_parse_ldd(r.out.buf, libs, err)) {
		error_addf(err, "of '%s'", prog);
		goto out;
	}
	ret = 0;
out:
	runner_result_release(&r);
	return ret;
}

int initramfs_add_program(struct initramfs *ir, const char *prog,
			  struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT, interp = STRBUF_INIT;
	struct strvec libs = STRVEC_INIT;
	int ret = -1;

	if (*prog != '/')
		return error_addf(err, "program '%s' is not an absolute path",
				  prog);
	if (initramfs_has(ir, prog))
		return 0;
	if (strbuf_read_file(&text, prog, err))
		goto out;
	initramfs_add_data(ir, prog, text.buf, text.len, 0755);
	if (script_interpreter(text.buf, text.len, &interp)) {
		ret = initramfs_add_program(ir, interp.buf, err);
		goto out;
	}
	if (program_libs(prog, &libs, err))
		goto out;
	for (size_t i = 0; i < libs.nr; i++)
		if (!initramfs_has(ir, libs.v[i]) &&
		    initramfs_add_file(ir, NULL, libs.v[i], 0755, err))
			goto out;
	ret = 0;
out:
	strbuf_release(&text);
	strbuf_release(&interp);
	strvec_clear(&libs);
	return ret;
}

int initramfs_add_machine(struct initramfs *ir, const char *init,
			  const char *busybox, char *const *programs,
			  struct strbuf *err)
{
	static const char *const dirs[] = {"/proc",    "/sys",	   "/dev",
					   "/tmp",     "/mnt",	   "/sbin",
					   "/usr/bin", "/usr/sbin"};

	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		initramfs_add_dir(ir, dirs[i]);
	initramfs_add_data(ir, "/init", init, strlen(init), 0755);
	if (initramfs_add_file(ir, "/bin/busybox", busybox, 0755, err))
		return -1;
	for (size_t i = 0; programs[i]; i++)
		if (initramfs_add_program(ir, programs[i], err))
			return -1;
	return 0;
}

/* One newc header and name, padded to 4 bytes. */
static void newc_header(struct strbuf *out, size_t ino, unsigned mode,
			size_t size, const char *name)
{
	size_t namesize = strlen(name) + 1;

	strbuf_addf(
		out,
		"070701%08zx%08x%08x%08x%08x%08x%08zx%08x%08x%08x%08x%08zx%08x",
		ino, mode, 0U, 0U, (mode & S_IFDIR) ? 2U : 1U, 0U, size, 0U, 0U,
		0U, 0U, namesize, 0U);
	strbuf_add(out, name, namesize);
	while (out->len % 4)
		strbuf_add(out, "", 1);
}

int initramfs_write(const struct initramfs *ir, const char *out_path,
		    struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	gzFile gz = NULL;
	int ret = -1;

	for (size_t i = 0; i < ir->nr; i++) {
		const struct entry *e = &ir->v[i];

		newc_header(&sb, i + 1, e->mode, e->len, e->name);
		if (e->len)
			strbuf_add(&sb, e->data, e->len);
		while (sb.len % 4)
			strbuf_add(&sb, "", 1);
	}
	newc_header(&sb, 0, 0, 0, "TRAILER!!!");
	/* Level 1: the archive is written for every run, read once. */
	gz = gzopen(out_path, "wb1");
	if (!gz) {
		error_addf(err, "cannot create '%s': %s", out_path,
			   strerror(errno));
		goto out;
	}
	for (size_t off = 0; off < sb.len;) {
		unsigned chunk = sb.len - off > (1U << 30)
					 ? 1U << 30
					 : (unsigned)(sb.len - off);
		int n = gzwrite(gz, sb.buf + off, chunk);

		if (n <= 0) {
			error_addf(err, "cannot write '%s'", out_path);
			goto out;
		}
		off += (size_t)n;
	}
	ret = 0;
out:
	if (gz && gzclose(gz) != Z_OK && !ret) {
		ret = error_addf(err, "cannot write '%s'", out_path);
	}
	strbuf_release(&sb);
	return ret;
}
