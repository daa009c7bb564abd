/* cgroup: create a cgroup for the workloads, and remove it afterwards. */
#include "cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "parse-num.h"
#include "run-dir.h"
#include "strbuf.h"
#include "strvec.h"
#include "util.h"

#define DEFAULT_BASE "/sys/fs/cgroup"
/* How long cgroup_remove() waits for killed processes to go. */
#define KILL_WAIT_MS 2000
#define KILL_POLL_MS 10

/* A controller that cgroup_create() turned on in a level it did not make. */
struct enabled {
	char *dir;
	char *controller;
};

/* The cgroup in one hierarchy. */
struct tree {
	struct cgroup_place place;
	char *leaf;
	struct strvec created; /* directories made, top first */
	struct enabled *enabled;
	size_t enabled_nr, enabled_alloc;
};

struct cgroup {
	struct tree *trees;
	size_t trees_nr, trees_alloc;
	struct strvec procs; /* leaf/cgroup.procs of each tree */
	struct strbuf where;
	bool tcp_set; /* memory.kmem.tcp.limit_in_bytes was written */
};

static unsigned long statfs_type(const char *path, void *ctx)
{
	struct statfs sfs;

	(void)ctx;
	if (statfs(path, &sfs))
		return 0;
	return (unsigned long)sfs.f_type;
}

static const struct cgroup_ops default_ops = {.fs_type = statfs_type};

static void add_place(struct cgroup_place **places, size_t *nr, size_t *alloc,
		      const char *root, bool v2)
{
	ALLOC_GROW(*places, *nr + 1, *alloc);
	(*places)[*nr].root = xstrdup(root);
	(*places)[*nr].v2 = v2;
	(*nr)++;
}

void cgroup_places_free(struct cgroup_place *places, size_t nr)
{
	for (size_t i = 0; places && i < nr; i++)
		free(places[i].root);
	free(places);
}

int cgroup_plan(const struct cgroup_spec *spec, const struct cgroup_ops *ops,
		struct cgroup_place **places, size_t *nr, struct strbuf *err)
{
	const char *base = spec->root ? spec->root : DEFAULT_BASE;
	struct strbuf path = STRBUF_INIT;
	size_t alloc = 0;
	unsigned long type;
	int ret = -1;

	if (!ops)
		ops = &default_ops;
	*places = NULL;
	*nr = 0;
	type = ops->fs_type(base, ops->ctx);
	if (type == CGROUP_V2_MAGIC) {
		add_place(places, nr, &alloc, base, true);
	} else if (spec->root) {
		if (type != CGROUP_V1_MAGIC) {
			error_addf(err, "'%s' is not a cgroup filesystem",
				   base);
			goto out;
		}
		add_place(places, nr, &alloc, base, false);
	} else if (spec->controllers.nr) {
		/* v1, or hybrid: each controller's own hierarchy. */
		for (size_t i = 0; i < spec->controllers.nr; i++) {
			strbuf_reset(&path);
			strbuf_addf(&path, "%s/%s", base,
				    spec->controllers.v[i]);
			if (ops->fs_type(path.buf, ops->ctx) !=
			    CGROUP_V1_MAGIC) {
				error_addf(err,
					   "controller '%s' is not available: "
					   "'%s' is not cgroup v2 and '%s' is "
					   "no cgroup v1 hierarchy",
					   spec->controllers.v[i], base,
					   path.buf);
				goto out;
			}
			add_place(places, nr, &alloc, path.buf, false);
		}
	} else {
		strbuf_addf(&path, "%s/unified", base);
		if (ops->fs_type(path.buf, ops->ctx) != CGROUP_V2_MAGIC) {
			error_addf(err,
				   "no cgroup v2 hierarchy at '%s' or '%s'; "
				   "name a controller to use its cgroup v1 "
				   "hierarchy",
				   base, path.buf);
			goto out;
		}
		add_place(places, nr, &alloc, path.buf, true);
	}
	ret = 0;
out:
	if (ret) {
		cgroup_places_free(*places, *nr);
		*places = NULL;
		*nr = 0;
	}
	strbuf_release(&path);
	return ret;
}

/* Read a small cgroup file into sb; an errno, or 0. */
static int read_text(const char *path, struct strbuf *sb)
{
	char buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC), e = 0;

	strbuf_reset(sb);
	if (fd < 0)
		return errno;
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			e = errno;
			break;
		}
		strbuf_add(sb, buf, (size_t)n);
	}
	close(fd);
	return e;
}

/* Write text to a cgroup file in one write(); an errno, or 0. */
static int write_text(const char *path, const char *text)
{
	size_t len = strlen(text);
	int fd = open(path, O_WRONLY | O_CLOEXEC), e = 0;
	ssize_t n;

	if (fd < 0)
		return errno;
	do {
		n = write(fd, text, len);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		e = errno;
	else if ((size_t)n != len)
		e = EIO;
	if (close(fd) && !e)
		e = errno;
	return e;
}

/* Whether the space-separated list text has word. */
static bool has_word(const char *text, const char *word)
{
	size_t len = strlen(word);

	for (const char *p = text; (p = strstr(p, word)); p += len)
		if ((p == text || isspace((unsigned char)p[-1])) &&
		    (!p[len] || isspace((unsigned char)p[len])))
			return true;
	return false;
}

/* In v2, the controllers must be offered at the root. */
static int check_controllers(const struct tree *t,
			     const struct cgroup_spec *spec, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int e, ret = -1;

	if (!t->place.v2 || !spec->controllers.nr)
		return 0;
	strbuf_addf(&path, "%s/cgroup.controllers", t->place.root);
	e = read_text(path.buf, &text);
	if (e) {
		error_addf(err, "cannot read '%s': %s", path.buf, strerror(e));
		goto out;
	}
	for (size_t i = 0; i < spec->controllers.nr; i++) {
		if (!has_word(text.buf, spec->controllers.v[i])) {
			error_addf(err,
				   "controller '%s' is not available in '%s'",
				   spec->controllers.v[i], path.buf);
			goto out;
		}
	}
	ret = 0;
out:
	strbuf_release(&path);
	strbuf_release(&text);
	return ret;
}

/* Turn the controllers on for the children of dir (v2). */
static int enable_controllers(struct tree *t, const char *dir, bool made,
			      const struct cgroup_spec *spec,
			      struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int e, ret = -1;

	strbuf_addf(&path, "%s/cgroup.subtree_control", dir);
	e = read_text(path.buf, &text);
	if (e) {
		error_addf(err, "cannot read '%s': %s", path.buf, strerror(e));
		goto out;
	}
	for (size_t i = 0; i < spec->controllers.nr; i++) {
		const char *c = spec->controllers.v[i];
		struct strbuf op = STRBUF_INIT;

		if (has_word(text.buf, c))
			continue;
		strbuf_addf(&op, "+%s", c);
		e = write_text(path.buf, op.buf);
		strbuf_release(&op);
		if (e) {
			error_addf(err,
				   "cannot enable controller '%s' in '%s': %s",
				   c, path.buf, strerror(e));
			goto out;
		}
		/* In a level we made, rmdir undoes it. */
		if (made)
			continue;
		ALLOC_GROW(t->enabled, t->enabled_nr + 1, t->enabled_alloc);
		t->enabled[t->enabled_nr].dir = xstrdup(dir);
		t->enabled[t->enabled_nr].controller = xstrdup(c);
		t->enabled_nr++;
	}
	ret = 0;
out:
	strbuf_release(&path);
	strbuf_release(&text);
	return ret;
}

/* Make the levels of spec->path in t's hierarchy. */
static int make_levels(struct tree *t, const struct cgroup_spec *spec,
		       struct strbuf *err)
{
	struct strbuf dir = STRBUF_INIT;
	const char *p = spec->path;
	bool made = false;
	int ret = -1;

	strbuf_addstr(&dir, t->place.root);
	while (*p) {
		size_t len = strcspn(p, "/");
		bool last = !p[len];

		if (t->place.v2 && spec->controllers.nr &&
		    enable_controllers(t, dir.buf, made, spec, err))
			goto out;
		strbuf_addch(&dir, '/');
		strbuf_add(&dir, p, len);
		p += len + !last;
		if (!mkdir(dir.buf, 0755)) {
			strvec_push(&t->created, dir.buf);
			made = true;
			continue;
		}
		if (errno == EEXIST && !last) {
			made = false;
			continue;
		}
		if (errno == EEXIST)
			error_addf(err,
				   "cgroup '%s' exists already; remove it "
				   "(rmdir) or choose another path",
				   dir.buf);
		else
			error_addf(err, "cannot create cgroup '%s': %s",
				   dir.buf, strerror(errno));
		goto out;
	}
	t->leaf = strbuf_detach(&dir, NULL);
	ret = 0;
out:
	strbuf_release(&dir);
	return ret;
}

#define TCP_LIMIT_FILE "memory.kmem.tcp.limit_in_bytes"

/* The v1 tree whose leaf has TCP_LIMIT_FILE into path, or NULL. */
static const struct tree *tcp_tree(const struct cgroup *cg, struct strbuf *path)
{
	for (size_t k = 0; k < cg->trees_nr; k++) {
		if (cg->trees[k].place.v2)
			continue;
		strbuf_reset(path);
		strbuf_addf(path, "%s/%s", cg->trees[k].leaf, TCP_LIMIT_FILE);
		if (!access(path->buf, F_OK))
			return &cg->trees[k];
	}
	return NULL;
}

/*
 * tcp_limit: v1 charges sockets once the limit is written (its "-1" is
 * no limit; "max" as cgroup v2 spells it). Nothing to do without a v1
 * memory hierarchy: v2 charges them always.
 */
static int set_tcp_limit(struct cgroup *cg, const char *value,
			 struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	const struct tree *t = tcp_tree(cg, &path);
	int e = 0;

	if (t) {
		e = write_text(path.buf, strcmp(value, "max") ? value : "-1");
		if (e)
			error_addf(err,
				   "cannot set '%s' of cgroup '%s' to '%s': %s",
				   TCP_LIMIT_FILE, t->leaf, value, strerror(e));
		else
			cg->tcp_set = true;
	}
	strbuf_release(&path);
	return e ? -1 : 0;
}

bool cgroup_sockets_uncharged(const struct cgroup *cg)
{
	struct strbuf path = STRBUF_INIT;
	bool v1 = tcp_tree(cg, &path) != NULL;

	strbuf_release(&path);
	return v1 && !cg->tcp_set;
}

/*
 * The first leaf that has file name into path, its tree's index, or
 * trees_nr when none has it.
 */
static size_t limit_tree(const struct cgroup *cg, const char *name,
			 struct strbuf *path)
{
	size_t k;

	for (k = 0; k < cg->trees_nr; k++) {
		strbuf_reset(path);
		strbuf_addf(path, "%s/%s", cg->trees[k].leaf, name);
		if (!access(path->buf, F_OK))
			break;
	}
	return k;
}

/*
 * Write each limit into the first leaf that has the file. A v2 memory.max
 * goes into the v1 memory controller's memory.limit_in_bytes where no
 * leaf has it (the same hard limit; "max" is v1's -1), so one config
 * limits memory on either layout.
 */
static int set_limits(struct cgroup *cg, const struct cgroup_spec *spec,
		      struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	int ret = -1;

	for (size_t i = 0; i < spec->limits.nr; i++) {
		const struct kv *kv = &spec->limits.v[i];
		const char *value = kv->value;
		size_t k = limit_tree(cg, kv->key, &path);
		int e;

		if (k == cg->trees_nr && !strcmp(kv->key, "memory.max")) {
			k = limit_tree(cg, "memory.limit_in_bytes", &path);
			if (!strcmp(value, "max"))
				value = "-1";
		}
		if (k == cg->trees_nr) {
			error_addf(err, "cgroup '%s' has no '%s'",
				   cg->where.buf, kv->key);
			goto out;
		}
		e = write_text(path.buf, value);
		if (e) {
			error_addf(err,
				   "cannot set '%s' of cgroup '%s' to '%s': %s",
				   kv->key, cg->trees[k].leaf, kv->value,
				   strerror(e));
			goto out;
		}
		if (!strcmp(kv->key, TCP_LIMIT_FILE))
			cg->tcp_set = true;
	}
	if (spec->tcp_limit && set_tcp_limit(cg, spec->tcp_limit, err))
		goto out;
	ret = 0;
out:
	strbuf_release(&path);
	return ret;
}

/* Whether two roots are one hierarchy (cpu and cpuacct often are). */
static bool same_root(const char *a, const char *b)
{
	char ra[PATH_MAX], rb[PATH_MAX];

	if (!realpath(a, ra) || !realpath(b, rb))
		return !strcmp(a, b);
	return !strcmp(ra, rb);
}

/*
 * Fail, naming every one, when the last level of spec's path exists in
 * any of the hierarchies: removing only the first named would meet the
 * next on the following try.
 */
static int check_leaves(const struct cgroup_spec *spec,
			const struct cgroup_place *places, size_t nr,
			struct strbuf *err)
{
	struct strbuf leaf = STRBUF_INIT, found = STRBUF_INIT;
	size_t found_nr = 0;

	for (size_t i = 0; i < nr; i++) {
		bool dup = false;

		for (size_t k = 0; k < i && !dup; k++)
			dup = same_root(places[k].root, places[i].root);
		strbuf_reset(&leaf);
		strbuf_addf(&leaf, "%s/%s", places[i].root, spec->path);
		if (dup || access(leaf.buf, F_OK))
			continue;
		strbuf_addf(&found, "%s'%s'", found_nr++ ? ", " : "", leaf.buf);
	}
	if (found_nr == 1)
		error_addf(err,
			   "cgroup %s exists already; remove it (rmdir) or "
			   "choose another path",
			   found.buf);
	else if (found_nr)
		error_addf(err,
			   "cgroups %s exist already; remove them (rmdir) or "
			   "choose another path",
			   found.buf);
	strbuf_release(&leaf);
	strbuf_release(&found);
	return found_nr ? -1 : 0;
}

/*
 * The levels a cgroup_create() made, top first, one full path a line, in
 * a record of run-dir.h named after the leaf: what a killed run leaves
 * is then known level by level (cgroup_remove_stale()).
 */
#define RECORD_SUB "cgroups"

static void record_file(const char *leaf, struct strbuf *out)
{
	run_dir_path(out, "", RECORD_SUB);
	run_dir_add_name(out, leaf);
}

/*
 * Record what t made. Best effort: without the record, the levels above
 * a killed run's leaf are only removed as levels of the config's path.
 */
static void record_made(const struct tree *t)
{
	struct strbuf file = STRBUF_INIT, text = STRBUF_INIT;

	for (size_t i = 0; i < t->created.nr; i++)
		strbuf_addf(&text, "%s\n", t->created.v[i]);
	record_file(t->leaf, &file);
	if (!run_dir_make("", RECORD_SUB, NULL))
		run_dir_write(file.buf, text.buf, NULL);
	strbuf_release(&file);
	strbuf_release(&text);
}

static void record_drop(const char *leaf)
{
	struct strbuf file = STRBUF_INIT;

	record_file(leaf, &file);
	unlink(file.buf);
	strbuf_release(&file);
}

/*
 * After a killed run's leaf is gone: remove the levels its record says
 * it made, deepest first, while they are empty. False when there is no
 * record.
 */
static bool remove_recorded_levels(const char *leaf)
{
	struct strbuf file = STRBUF_INIT, text = STRBUF_INIT;
	bool found;

	record_file(leaf, &file);
	found = !strbuf_read_file(&text, file.buf, NULL);
	while (found && text.len) {
		char *nl;

		strbuf_setlen(&text, text.len - 1); /* the last '\n' */
		nl = strrchr(text.buf, '\n');
		if (rmdir(nl ? nl + 1 : text.buf) && errno != ENOENT)
			break; /* in use, and so is everything above */
		strbuf_setlen(&text, nl ? (size_t)(nl - text.buf) + 1 : 0);
	}
	if (found)
		unlink(file.buf);
	strbuf_release(&file);
	strbuf_release(&text);
	return found;
}

struct cgroup *cgroup_create(const struct cgroup_spec *spec, struct strbuf *err)
{
	struct cgroup *cg = xcalloc(1, sizeof(*cg));
	struct cgroup_place *places = NULL;
	struct strbuf procs = STRBUF_INIT;
	size_t nr = 0;

	strvec_init(&cg->procs);
	strbuf_init(&cg->where, 0);
	if (cgroup_plan(spec, NULL, &places, &nr, err) ||
	    check_leaves(spec, places, nr, err))
		goto fail;
	for (size_t i = 0; i < nr; i++) {
		struct tree *t;
		bool dup = false;

		for (size_t k = 0; k < cg->trees_nr && !dup; k++)
			dup = same_root(cg->trees[k].place.root,
					places[i].root);
		if (dup)
			continue;
		ALLOC_GROW(cg->trees, cg->trees_nr + 1, cg->trees_alloc);
		t = &cg->trees[cg->trees_nr++];
		memset(t, 0, sizeof(*t));
		strvec_init(&t->created);
		t->place = places[i];
		places[i].root = NULL;
		if (check_controllers(t, spec, err) ||
		    make_levels(t, spec, err))
			goto fail;
		record_made(t);
		strbuf_reset(&procs);
		strbuf_addf(&procs, "%s/cgroup.procs", t->leaf);
		strvec_push(&cg->procs, procs.buf);
		strbuf_addf(&cg->where, "%s%s", cg->where.len ? ", " : "",
			    t->leaf);
	}
	if (set_limits(cg, spec, err))
		goto fail;
	cgroup_places_free(places, nr);
	strbuf_release(&procs);
	return cg;
fail:
	cgroup_places_free(places, nr);
	strbuf_release(&procs);
	cgroup_remove(cg, NULL);
	return NULL;
}

const char *const *cgroup_procs(const struct cgroup *cg)
{
	return (const char *const *)cg->procs.v;
}

const char *cgroup_where(const struct cgroup *cg)
{
	return cg->where.buf;
}

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * SIGKILL every process of leaf's cgroup.procs; whether it had none. A
 * cgroup that cannot be read counts as empty: there is nothing to do.
 */
static bool kill_procs(const char *leaf)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	bool empty = true;
	char *p, *nl;

	strbuf_addf(&path, "%s/cgroup.procs", leaf);
	if (read_text(path.buf, &text))
		goto out;
	for (p = text.buf; *p; p = nl ? nl + 1 : p + strlen(p)) {
		int pid;

		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		if (!parse_int(p, 1, INT_MAX, &pid))
			continue;
		empty = false;
		kill((pid_t)pid, SIGKILL);
	}
out:
	strbuf_release(&path);
	strbuf_release(&text);
	return empty;
}

/*
 * Empty the leaf: cgroup.kill (v2, Linux 5.14) kills it all at once;
 * SIGKILL to each process of cgroup.procs does it elsewhere, and catches
 * what forks meanwhile on the next round. Killed processes take a moment
 * to leave, and a cgroup with processes cannot be removed.
 */
static void empty_leaf(const char *leaf, bool v2)
{
	struct strbuf path = STRBUF_INIT;

	strbuf_addf(&path, "%s/cgroup.kill", leaf);
	if (v2 && !access(path.buf, F_OK))
		(void)write_text(path.buf, "1"); /* else SIGKILL below */
	for (int waited = 0; waited < KILL_WAIT_MS; waited += KILL_POLL_MS) {
		if (kill_procs(leaf))
			break;
		sleep_ms(KILL_POLL_MS);
	}
	strbuf_release(&path);
}

int cgroup_remove(struct cgroup *cg, struct strbuf *err)
{
	int ret = 0;

	if (!cg)
		return 0;
	for (size_t i = 0; i < cg->trees_nr; i++) {
		struct tree *t = &cg->trees[i];

		if (t->leaf && t->created.nr) {
			empty_leaf(t->leaf, t->place.v2);
			record_drop(t->leaf);
		}
		for (size_t k = t->created.nr; k-- > 0;) {
			if (!rmdir(t->created.v[k]) || errno == ENOENT)
				continue;
			if (!ret)
				error_addf(err, "cannot remove cgroup '%s': %s",
					   t->created.v[k], strerror(errno));
			ret = -1;
		}
		for (size_t k = t->enabled_nr; k-- > 0;) {
			struct strbuf path = STRBUF_INIT, op = STRBUF_INIT;

			strbuf_addf(&path, "%s/cgroup.subtree_control",
				    t->enabled[k].dir);
			strbuf_addf(&op, "-%s", t->enabled[k].controller);
			/* Busy when others use it meanwhile: leave it on. */
			(void)write_text(path.buf, op.buf);
			strbuf_release(&path);
			strbuf_release(&op);
			free(t->enabled[k].dir);
			free(t->enabled[k].controller);
		}
		free(t->enabled);
		free(t->place.root);
		free(t->leaf);
		strvec_clear(&t->created);
	}
	free(cg->trees);
	strvec_clear(&cg->procs);
	strbuf_release(&cg->where);
	free(cg);
	return ret;
}

/*
 * After the leaf is gone: the levels of path above it, deepest first,
 * while they are empty (rmdir fails on a cgroup with children or
 * processes, and then the rest above is in use too).
 */
static void remove_levels_above(const char *leaf, const char *path)
{
	size_t leaf_len = strlen(leaf), path_len = path ? strlen(path) : 0;
	struct strbuf dir = STRBUF_INIT;
	size_t levels = 1;

	if (!path_len || leaf_len <= path_len ||
	    strcmp(leaf + leaf_len - path_len, path) ||
	    leaf[leaf_len - path_len - 1] != '/')
		return; /* not spec's path: only the leaf is known to be ours */
	for (const char *p = path; *p; p++)
		levels += *p == '/';
	strbuf_addstr(&dir, leaf);
	while (--levels) {
		char *slash = strrchr(dir.buf, '/');

		strbuf_setlen(&dir, (size_t)(slash - dir.buf));
		if (rmdir(dir.buf))
			break;
	}
	strbuf_release(&dir);
}

int cgroup_remove_stale(const char *where, const char *path, struct strbuf *err)
{
	struct strbuf leaf = STRBUF_INIT, failed = STRBUF_INIT;
	const char *p = where;
	int ret = 0;

	while (*p) {
		size_t len = strcspn(p, ",");

		strbuf_reset(&leaf);
		strbuf_add(&leaf, p, len);
		p += len;
		p += strspn(p, ", ");
		if (access(leaf.buf, F_OK)) {
			/* Removed already; maybe not the levels above. */
			remove_recorded_levels(leaf.buf);
			continue;
		}
		empty_leaf(leaf.buf,
			   statfs_type(leaf.buf, NULL) == CGROUP_V2_MAGIC);
		if (rmdir(leaf.buf) && errno != ENOENT) {
			strbuf_addf(&failed, "%s'%s' (%s)",
				    failed.len ? ", " : "", leaf.buf,
				    strerror(errno));
			continue;
		}
		if (!remove_recorded_levels(leaf.buf))
			remove_levels_above(leaf.buf, path);
	}
	if (failed.len) {
		error_addf(err,
			   "cannot remove the cgroup a killed run left: %s",
			   failed.buf);
		ret = -1;
	}
	strbuf_release(&leaf);
	strbuf_release(&failed);
	return ret;
}

/*
 * Remove prefix-PID cgroups in root whose process PID is gone (what a
 * killed mmcmp left), best effort.
 */
static void remove_orphans(const char *root, const char *prefix)
{
	DIR *d = opendir(root);
	struct strbuf leaf = STRBUF_INIT;
	size_t len = strlen(prefix);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		int pid;

		if (strncmp(de->d_name, prefix, len) ||
		    de->d_name[len] != '-' ||
		    !parse_int(de->d_name + len + 1, 1, INT_MAX, &pid) ||
		    pid == getpid() || !(kill(pid, 0) && errno == ESRCH))
			continue;
		strbuf_reset(&leaf);
		strbuf_addf(&leaf, "%s/%s", root, de->d_name);
		(void)cgroup_remove_stale(leaf.buf, NULL, NULL);
	}
	if (d)
		closedir(d);
	strbuf_release(&leaf);
}

struct cgroup *cgroup_create_own(const char *prefix, struct strbuf *err)
{
	struct cgroup_spec spec;
	struct cgroup_place *places = NULL;
	struct strbuf path = STRBUF_INIT;
	struct cgroup *cg = NULL;
	size_t nr = 0;

	memset(&spec, 0, sizeof(spec));
	strvec_init(&spec.controllers);
	strbuf_addf(&path, "%s-%d", prefix, (int)getpid());
	spec.path = path.buf;
	if (cgroup_plan(&spec, NULL, &places, &nr, err))
		goto out;
	remove_orphans(places[0].root, prefix);
	cg = cgroup_create(&spec, err);
out:
	cgroup_places_free(places, nr);
	strbuf_release(&path);
	return cg;
}
