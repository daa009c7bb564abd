/* import: the table of formats, reading and storing files, the run builder. */
#include "import.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "import-mmtests.h"
#include "json.h"
#include "machine.h"
#include "mmcmp-version.h"
#include "names.h"
#include "run-data.h"
#include "sha256.h"
#include "store.h"
#include "strbuf.h"
#include "strmap.h"
#include "strvec.h"
#include "util.h"
#include "uuid.h"

#define IMPORT_MIN_DECIMALS 2
#define IMPORT_MAX_DECIMALS 12

/* mmcmp's own formats last: detection tries them in this order. */
static const struct import_format *const import_formats[] = {
	&import_hyperfine,    &import_gobench, &import_pyperf,
	&import_mmtests_tree, &import_json,    &import_csv,
};

const struct import_format import_mmtests_tree = {
	.name = "mmtests",
	.parse_tree = import_mmtests,
};

const struct import_format *import_format_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(import_formats); i++)
		if (!import_formats[i]->own &&
		    !strcmp(import_formats[i]->name, name))
			return import_formats[i];
	return NULL;
}

const struct import_format *import_format_detect(const char *path,
						 const char *buf, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(import_formats); i++)
		if (import_formats[i]->detect &&
		    import_formats[i]->detect(path, buf, len))
			return import_formats[i];
	return NULL;
}

void import_format_names(struct strbuf *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(import_formats); i++)
		if (!import_formats[i]->own)
			strbuf_addf(out, "%s%s", i ? ", " : "",
				    import_formats[i]->name);
}

bool import_is_gzip(const char *buf, size_t len)
{
	return len >= 2 && (unsigned char)buf[0] == 0x1f &&
	       (unsigned char)buf[1] == 0x8b;
}

/* The bytes after a gzip member that are not another: dropped, warned. */
static void gunzip_trailing(const char *path, size_t nr,
			    struct strvec *warnings)
{
	struct strbuf note = STRBUF_INIT;

	if (!warnings)
		return;
	strbuf_addf(
		&note,
		"%s: %zu bytes of trailing garbage after the gzip data ignored",
		path, nr);
	strvec_push(warnings, note.buf);
	strbuf_release(&note);
}

static size_t file_limit(const struct import_format *from, const char *path,
			 const char *head, size_t len);

/*
 * import_gunzip(); with by_content, the limit drops to file_limit() of
 * from and the first 4 KiB of the content once they are out.
 */
static int gunzip_core(const char *path, const char *buf, size_t len,
		       size_t max_bytes, bool by_content,
		       const struct import_format *from, struct strbuf *out,
		       struct strvec *warnings, struct strbuf *err)
{
	unsigned char chunk[65536];
	z_stream zs;
	size_t start = out->len, left = len;
	int rc, ret = -1;

	memset(&zs, 0, sizeof(zs));
	/* 16 + MAX_WBITS: a gzip header and trailer, not a zlib one. */
	if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
		return error_addf(err, "%s: cannot start gzip decompression",
				  path);
	/* zlib takes a non-const pointer that it only reads through. */
	zs.next_in = (unsigned char *)buf;
	for (;;) {
		if (!zs.avail_in && left) {
			/* avail_in is an unsigned int: feed 1 GiB at most. */
			size_t in = left < (1U << 30) ? left : (1U << 30);

			zs.avail_in = (unsigned)in;
			left -= in;
		}
		zs.next_out = chunk;
		zs.avail_out = sizeof(chunk);
		rc = inflate(&zs, Z_NO_FLUSH);
		if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
			error_addf(err, "%s: corrupt gzip data%s%s", path,
				   zs.msg ? ": " : "", zs.msg ? zs.msg : "");
			goto out;
		}
		strbuf_add(out, chunk, sizeof(chunk) - zs.avail_out);
		if (by_content &&
		    (out->len - start >= 4096 || rc == Z_STREAM_END)) {
			size_t lim = file_limit(from, "", out->buf + start,
						out->len - start);

			max_bytes = lim < max_bytes ? lim : max_bytes;
			by_content = false;
		}
		if (out->len - start > max_bytes) {
			error_addf(
				err,
				"%s: too large (more than %zu bytes uncompressed)%s",
				path, max_bytes,
				max_bytes == JSON_IMPORT_MAX_BYTES ? " for JSON"
								   : "");
			goto out;
		}
		if (rc == Z_STREAM_END) {
			size_t rest = zs.avail_in + left;

			if (!rest)
				break;
			/* Another member follows (RFC 1952, 2.2), or junk. */
			if (!import_is_gzip((const char *)zs.next_in, rest)) {
				gunzip_trailing(path, rest, warnings);
				break;
			}
			if (inflateReset(&zs) != Z_OK) {
				error_addf(err, "%s: corrupt gzip data", path);
				goto out;
			}
		} else if (!zs.avail_in && !left && zs.avail_out) {
			error_addf(err,
				   "%s: the gzip data ends early (truncated?)",
				   path);
			goto out;
		}
	}
	ret = 0;
out:
	inflateEnd(&zs);
	if (ret)
		strbuf_setlen(out, start);
	return ret;
}

int import_gunzip(const char *path, const char *buf, size_t len,
		  size_t max_bytes, struct strbuf *out, struct strvec *warnings,
		  struct strbuf *err)
{
	return gunzip_core(path, buf, len, max_bytes, false, NULL, out,
			   warnings, err);
}

void import_builder_init(struct import_builder *b, const char *format,
			 const char *started_at)
{
	memset(b, 0, sizeof(*b));
	b->format = format;
	b->started_at = started_at;
	b->labels = xcalloc(1, sizeof(*b->labels));
	b->ops = xcalloc(1, sizeof(*b->ops));
	b->jobs = xcalloc(1, sizeof(*b->jobs));
}

void import_builder_release(struct import_builder *b)
{
	run_full_free_array(b->runs, b->nr);
	strmap_clear(b->labels);
	strmap_clear(b->ops);
	strmap_clear(b->jobs);
	free(b->labels);
	free(b->ops);
	free(b->jobs);
	memset(b, 0, sizeof(*b));
}

size_t import_builder_run(struct import_builder *b, const char *label,
			  bool *created)
{
	size_t i;
	bool found = strmap_get(b->labels, label, strlen(label), &i);

	if (created)
		*created = !found;
	if (found)
		return i;
	ALLOC_GROW(b->runs, b->nr + 1, b->alloc);
	memset(&b->runs[b->nr], 0, sizeof(b->runs[b->nr]));
	b->runs[b->nr].info.label = xstrdup(label);
	strmap_put(b->labels, label, strlen(label), b->nr);
	return b->nr++;
}

/* The key "RUN\0A\0B" of a run's benchmark and name or job. */
static void builder_key(struct strbuf *key, size_t run, const char *a,
			const char *b)
{
	strbuf_reset(key);
	strbuf_add(key, &run, sizeof(run));
	strbuf_addstr(key, a);
	strbuf_addch(key, '\0');
	strbuf_addstr(key, b);
}

size_t import_builder_op(struct import_builder *b, size_t run,
			 const char *benchmark, const char *name,
			 const char *unit, bool higher_better)
{
	struct strbuf key = STRBUF_INIT;
	struct run_full *rf = &b->runs[run];
	struct op_samples *op;
	size_t i;

	builder_key(&key, run, benchmark, name);
	if (!strmap_get(b->ops, key.buf, key.len, &i)) {
		ALLOC_GROW(rf->ops, rf->ops_nr + 1, rf->ops_alloc);
		op = &rf->ops[rf->ops_nr];
		memset(op, 0, sizeof(*op));
		op->benchmark = xstrdup(benchmark);
		op->name = xstrdup(name);
		op->unit = xstrdup(unit);
		op->higher_better = higher_better;
		op->decimals = IMPORT_MIN_DECIMALS;
		i = rf->ops_nr++;
		strmap_put(b->ops, key.buf, key.len, i);
	}
	strbuf_release(&key);
	return i;
}

struct iteration_data *import_builder_iteration(struct import_builder *b,
						size_t run,
						const char *benchmark,
						const char *job)
{
	struct strbuf key = STRBUF_INIT;
	struct run_full *rf = &b->runs[run];
	struct iteration_data *it;
	size_t n = 0;

	builder_key(&key, run, benchmark, job);
	strmap_get(b->jobs, key.buf, key.len, &n);
	strmap_put(b->jobs, key.buf, key.len, n + 1);
	strbuf_release(&key);
	ALLOC_GROW(rf->iters, rf->iters_nr + 1, rf->iters_alloc);
	it = &rf->iters[rf->iters_nr++];
	memset(it, 0, sizeof(*it));
	it->benchmark = xstrdup(benchmark);
	it->job = xstrdup(job);
	it->index = (int64_t)n;
	it->status = xstrdup("ok");
	it->started_at = xstrdup(b->started_at);
	it->samples_first = rf->samples_nr;
	return it;
}

void import_builder_sample(struct import_builder *b, size_t run, size_t op,
			   double value)
{
	struct run_full *rf = &b->runs[run];

	if (!rf->iters_nr || op >= rf->ops_nr)
		BUG("sample of op %zu without an iteration", op);
	ALLOC_GROW(rf->samples, rf->samples_nr + 1, rf->samples_alloc);
	rf->samples[rf->samples_nr].op = op;
	rf->samples[rf->samples_nr++].value = value;
	rf->iters[rf->iters_nr - 1].samples_nr++;
}

/* Three significant digits of the smallest non-zero |sample| of each op. */
static void builder_decimals(struct run_full *rf)
{
	double *least = xcalloc(rf->ops_nr + 1, sizeof(*least));

	for (size_t i = 0; i < rf->samples_nr; i++) {
		double v = fabs(rf->samples[i].value);
		size_t op = rf->samples[i].op;

		if (v > 0 && (least[op] == 0 || v < least[op]))
			least[op] = v;
	}
	for (size_t o = 0; o < rf->ops_nr; o++) {
		double d = least[o] > 0 ? 2 - floor(log10(least[o])) : 0;

		if (d < IMPORT_MIN_DECIMALS)
			d = IMPORT_MIN_DECIMALS;
		if (d > IMPORT_MAX_DECIMALS)
			d = IMPORT_MAX_DECIMALS;
		rf->ops[o].decimals = (int)d;
	}
	free(least);
}

/*
 * A UUID from the first 16 bytes of the SHA-256 of what identifies the
 * run, marked as version 8 (RFC 9562: custom) with the RFC variant.
 */
static void builder_uuid(const char *format, const char *label, const char *buf,
			 size_t len, char out[37])
{
	struct strbuf id = STRBUF_INIT;
	char hex[65];

	/* The file is hashed where it is: a copy would double its memory. */
	strbuf_addf(&id, "mmcmp-import%c%s%c%s%c", 0, format, 0, label, 0);
	sha256_hex2(id.buf, id.len, buf, len, hex);
	strbuf_release(&id);
	uuid_from_sha256(hex, out);
}

void import_builder_finish(struct import_builder *b, const char *path,
			   const char *buf, size_t len, struct run_full **runs,
			   size_t *nr)
{
	char uuid[37];

	for (size_t i = 0; i < b->nr; i++) {
		struct run_info *ri = &b->runs[i].info;

		builder_uuid(b->format, ri->label, buf, len, uuid);
		ri->uuid = xstrdup(uuid);
		ri->status = xstrdup("complete");
		run_info_set_config(ri, path, "", 0);
		ri->started_at = xstrdup(b->started_at);
		ri->ended_at = xstrdup(b->started_at);
		ri->mmcmp_version = xstrdup(MMCMP_VERSION);
		builder_decimals(&b->runs[i]);
	}
	*runs = b->runs;
	*nr = b->nr;
	b->runs = NULL;
	b->nr = b->alloc = 0;
}

bool import_name_ok(const char *s, const char **why)
{
	if (!*s)
		*why = "empty";
	else if (strlen(s) > JSON_MAX_NAME)
		*why = "longer than 4096 bytes";
	else if (!utf8_valid(s))
		*why = "not UTF-8";
	else
		return true;
	return false;
}

char *import_file_label(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t len;
	const char *dot;

	base = base ? base + 1 : path;
	len = strlen(base);
	if (len > 3 && !strcmp(base + len - 3, ".gz"))
		len -= 3;
	for (dot = base + len; dot > base && dot[-1] != '.'; dot--)
		;
	if (dot > base + 1)
		len = (size_t)(dot - 1 - base);
	return xstrndup(base, len);
}

/* What st is, for a message: "a FIFO", "a directory", ... */
static const char *file_kind(const struct stat *st)
{
	if (S_ISDIR(st->st_mode))
		return "a directory";
	if (S_ISFIFO(st->st_mode))
		return "a FIFO";
	if (S_ISCHR(st->st_mode))
		return "a character device";
	if (S_ISBLK(st->st_mode))
		return "a block device";
	if (S_ISSOCK(st->st_mode))
		return "a socket";
	return "not a file";
}

int import_open(const char *path, size_t max_bytes, int *fd, size_t *size_bytes,
		struct strbuf *err)
{
	struct stat st;
	int flags;

	*fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (*fd < 0)
		return error_addf(err, "cannot open '%s': %s", path,
				  strerror(errno));
	if (fstat(*fd, &st)) {
		error_addf(err, "cannot stat '%s': %s", path, strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		error_addf(err, "'%s' is not a regular file (%s)", path,
			   file_kind(&st));
		goto fail;
	}
	if (st.st_size < 0 || (uintmax_t)st.st_size > max_bytes) {
		error_addf(err, "%s: too large (%jd bytes, at most %zu)", path,
			   (intmax_t)st.st_size, max_bytes);
		goto fail;
	}
	flags = fcntl(*fd, F_GETFL);
	if (flags < 0 || fcntl(*fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
		error_addf(err, "cannot read '%s': %s", path, strerror(errno));
		goto fail;
	}
	*size_bytes = (size_t)st.st_size;
	return 0;
fail:
	close(*fd);
	*fd = -1;
	return -1;
}

/*
 * Append what is left of fd, path, to sb, up to want bytes of it at
 * start (stopping there) or, with want 0, all of it: at most max_bytes.
 */
static int read_fd(int fd, const char *path, size_t want, size_t max_bytes,
		   size_t start, struct strbuf *sb, struct strbuf *err)
{
	ssize_t n;

	for (;;) {
		size_t room;

		if (want && sb->len - start >= want)
			return 0;
		if (sb->alloc - sb->len < 2)
			strbuf_grow(sb, want ? want : 65536);
		room = sb->alloc - sb->len - 1;
		if (want && room > want - (sb->len - start))
			room = want - (sb->len - start);
		n = read(fd, sb->buf + sb->len, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return error_addf(err, "cannot read '%s': %s", path,
					  strerror(errno));
		if (!n)
			return 0;
		strbuf_setlen(sb, sb->len + (size_t)n);
		if (sb->len - start > max_bytes)
			return error_addf(err,
					  "%s: too large (more than %zu bytes)",
					  path, max_bytes);
	}
}

int import_read_file(const char *path, size_t max_bytes, struct strbuf *sb,
		     struct strbuf *err)
{
	size_t start = sb->len, size;
	int fd, ret;

	if (import_open(path, max_bytes, &fd, &size, err))
		return -1;
	/* One byte more than the size: the end of the file is seen at once. */
	strbuf_grow(sb, size + 1);
	ret = read_fd(fd, path, 0, max_bytes, start, sb, err);
	close(fd);
	if (ret)
		strbuf_setlen(sb, start);
	return ret;
}

/*
 * Whether the len bytes at head start as a JSON object does, after an
 * optional BOM: every JSON format takes only an object, and neither CSV
 * nor Go's text can start so (a CSV that did would be read as JSON).
 */
static bool starts_as_json(const char *path, const char *head, size_t len)
{
	size_t plen = strlen(path), i = 0;

	if (plen >= 5 && !strcmp(path + plen - 5, ".json"))
		return true;
	if (len >= 3 && !memcmp(head, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < len && isspace((unsigned char)head[i]))
		i++;
	return i < len && head[i] == '{';
}

/*
 * The limit of a file whose first len bytes are head: that of from, of
 * JSON for a file that starts as JSON does, else IMPORT_MAX_BYTES.
 */
static size_t file_limit(const struct import_format *from, const char *path,
			 const char *head, size_t len)
{
	if (from)
		return from->max_bytes;
	return starts_as_json(path, head, len) ? JSON_IMPORT_MAX_BYTES
					       : IMPORT_MAX_BYTES;
}

/* "PATH: too large for FORMAT (N bytes, at most M)", with advice. */
static int too_large(const char *path, const struct import_format *fmt,
		     size_t len, struct strbuf *err)
{
	return error_addf(
		err, "%s: too large for %s (%zu bytes, at most %zu)%s", path,
		fmt->own ? "mmcmp import" : fmt->name, len, fmt->max_bytes,
		fmt == &import_json ? "; export fewer labels per file"
				    : "; split it into smaller files");
}

/*
 * The content of f->path into buf, decompressed when it is gzip, each
 * refused as soon as it is over the limit that its first bytes give.
 */
static int read_content(const char *path, const struct import_format *from,
			struct strbuf *buf, struct strvec *warnings,
			struct strbuf *err)
{
	struct strbuf raw = STRBUF_INIT;
	size_t size, limit;
	int fd, ret = -1;

	if (import_open(path, IMPORT_MAX_BYTES, &fd, &size, err))
		return -1;
	/* The first 4 KiB tell the format's limit before the rest is read. */
	if (read_fd(fd, path, 4096, IMPORT_MAX_BYTES, 0, &raw, err))
		goto out;
	limit = import_is_gzip(raw.buf, raw.len)
			? IMPORT_MAX_BYTES
			: file_limit(from, path, raw.buf, raw.len);
	if (size > limit) {
		/* mmcmp's export names its format first: advice for it. */
		error_addf(err, "%s: too large (%zu bytes, at most %zu)%s%s",
			   path, size, limit,
			   limit == JSON_IMPORT_MAX_BYTES ? " for JSON" : "",
			   strstr(raw.buf, "\"" JSON_EXPORT_FORMAT "\"")
				   ? "; export fewer labels per file"
				   : "");
		goto out;
	}
	if (size > raw.len)
		strbuf_grow(&raw, size - raw.len + 1);
	if (read_fd(fd, path, 0, limit, 0, &raw, err))
		goto out;
	if (!import_is_gzip(raw.buf, raw.len)) {
		struct strbuf empty = *buf;

		*buf = raw;
		raw = empty;
		ret = 0;
		goto out;
	}
	/*
	 * What a gzip file holds has the limits of an uncompressed file:
	 * decompression stops at JSON's when it starts as JSON.
	 */
	if (gunzip_core(path, raw.buf, raw.len, IMPORT_MAX_BYTES, true, from,
			buf, warnings, err))
		goto out;
	ret = 0;
out:
	close(fd);
	strbuf_release(&raw);
	return ret;
}

int import_file_read(struct import_file *f, const struct import_format *from,
		     const char *label_by, struct strvec *warnings,
		     struct strbuf *err)
{
	struct strbuf buf = STRBUF_INIT;
	const struct import_format *fmt = from;
	struct import_options o = {.label_by = label_by, .warnings = warnings};
	char now[32];
	int ret = -1;

	if (fmt && fmt->parse_tree)
		return fmt->parse_tree(f->path, warnings, &f->runs, &f->nr,
				       err);
	if (read_content(f->path, from, &buf, warnings, err))
		goto out;
	if (!fmt)
		fmt = import_format_detect(f->path, buf.buf, buf.len);
	if (!fmt)
		BUG("no import format takes '%s'", f->path);
	if (buf.len > fmt->max_bytes) {
		too_large(f->path, fmt, buf.len, err);
		goto out;
	}
	if (fmt->own && label_by) {
		error_addf(
			err,
			"%s: --label-by needs a file of another tool (--from)",
			f->path);
		goto out;
	}
	machine_utc_now(now);
	o.started_at = now;
	if (fmt->parse_in_place ? fmt->parse_in_place(f->path, buf.buf, buf.len,
						      &o, &f->runs, &f->nr, err)
				: fmt->parse(f->path, buf.buf, buf.len, &o,
					     &f->runs, &f->nr, err))
		goto out;
	ret = 0;
out:
	strbuf_release(&buf);
	return ret;
}

/*
 * Whether the names of rf, with its label prefixed, obey names.h, and its
 * machine facts hold no control character (machine_facts_check()).
 */
static bool names_fit(const struct run_full *rf, const char *label,
		      struct strbuf *why)
{
	bool bad = names_check(NAME_LABEL, label, why);

	for (size_t o = 0; !bad && o < rf->ops_nr; o++)
		bad = names_check(NAME_BENCHMARK, rf->ops[o].benchmark, why) ||
		      names_check(NAME_OPERATION, rf->ops[o].name, why) ||
		      names_check(NAME_UNIT,
				  rf->ops[o].unit ? rf->ops[o].unit : "", why);
	for (size_t k = 0; !bad && k < rf->iters_nr; k++)
		bad = names_check(NAME_BENCHMARK, rf->iters[k].benchmark, why);
	return !bad && !machine_facts_check(&rf->info, why);
}

/*
 * The first benchmark of rf that a stored run of label has results for,
 * in *clash (NULL: none, or append).
 */
static int label_clash(struct store *st, const struct run_full *rf,
		       const char *label, bool append, const char **clash,
		       struct strbuf *err)
{
	const struct op_samples *ops = rf->ops;
	int64_t *ids = NULL;
	size_t n = 0;
	int ret = -1;

	*clash = NULL;
	if (store_find_runs(st, label, &ids, &n, err))
		return -1;
	for (size_t k = 0; k < n && !append && !*clash; k++) {
		for (size_t o = 0; o < rf->ops_nr && !*clash; o++) {
			struct run_data rd = {0};

			if (o && ops[o - 1].benchmark &&
			    !strcmp(ops[o].benchmark, ops[o - 1].benchmark))
				continue;
			if (store_load_run(st, ids[k], ops[o].benchmark, &rd,
					   err))
				goto out;
			if (rd.ops_nr)
				*clash = ops[o].benchmark;
			run_data_release(&rd);
		}
	}
	ret = 0;
out:
	free(ids);
	return ret;
}

/* Store run i of f under label, once import_store() has checked it. */
static int store_one(struct store *st, struct import_policy *pol,
		     struct import_file *f, size_t i, const char *label,
		     struct strmap *mine, struct strbuf *err)
{
	struct run_info *ri = &f->runs[i].info;
	struct strbuf why = STRBUF_INIT;
	const char *clash = NULL;
	int ret = -1;

	if (!names_fit(&f->runs[i], label, &why)) {
		pol->bad_input = true;
		error_addf(err, "%s: %s", f->path, why.buf);
		goto out;
	}
	if (!strmap_get(mine, label, strlen(label), NULL)) {
		if (label_clash(st, &f->runs[i], label, pol->append, &clash,
				err))
			goto out;
		if (clash) {
			pol->bad_input = true;
			error_addf(
				err,
				"%s: label '%s' already has results; use --append or --label-prefix (both have benchmark '%s')",
				f->path, label, clash);
			goto out;
		}
		strmap_put(mine, label, strlen(label), 0);
	}
	free(ri->label);
	ri->label = xstrdup(label);
	ret = store_run_insert_full(st, &f->runs[i], err);
out:
	strbuf_release(&why);
	return ret;
}

int import_store(struct store *st, struct import_policy *pol,
		 struct import_file *f, struct strbuf *err)
{
	struct strmap mine = STRMAP_INIT;
	struct strbuf label = STRBUF_INIT;
	int ret = -1;

	for (size_t i = 0; i < f->nr; i++) {
		struct run_info *ri = &f->runs[i].info;
		bool exists = false;

		if (store_uuid_exists(st, ri->uuid, &exists, err))
			goto out;
		if (exists) {
			struct strbuf note = STRBUF_INIT;

			strbuf_addf(
				&note,
				"%s: run %s ('%s') is in the database already; skipped",
				f->path, ri->uuid, ri->label);
			strvec_push(pol->skipped, note.buf);
			strbuf_release(&note);
			continue;
		}
		strbuf_reset(&label);
		strbuf_addf(&label, "%s%s", pol->prefix ? pol->prefix : "",
			    ri->label);
		if (store_one(st, pol, f, i, label.buf, &mine, err))
			goto out;
	}
	ret = 0;
out:
	strmap_clear(&mine);
	strbuf_release(&label);
	return ret;
}
