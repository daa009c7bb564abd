/* profile-script: perf script text folded into a profile, and stored. */
#include "profile-script.h"

#include <stdlib.h>
#include <string.h>

#include "mmcmp-version.h"
#include "run-data.h"
#include "sha256.h"
#include "store-profile.h"
#include "store.h"
#include "strbuf.h"
#include "strmap.h"
#include "strvec.h"
#include "util.h"
#include "uuid.h"

/* The parse of one file: its stacks so far and the sample being read. */
struct fold {
	const char *path;
	struct strmap index; /* folded stack -> slot in stacks and counts */
	struct strvec stacks;
	uint64_t *counts;
	size_t counts_alloc;
	struct strvec frames; /* the sample's, leaf first */
	size_t header_line;   /* of the sample being read; 0: none */
	uint64_t samples;
};

static bool is_blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return false;
	return true;
}

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

/* Count the sample being read, if any; one without frames is refused. */
static int end_sample(struct fold *f, struct strbuf *err)
{
	struct strbuf key = STRBUF_INIT;
	size_t slot;

	if (!f->header_line)
		return 0;
	if (!f->frames.nr)
		return error_addf(err,
				  "%s:%zu: a sample without a call chain "
				  "(record with perf record -g)",
				  f->path, f->header_line);
	for (size_t i = f->frames.nr; i-- > 0;) {
		strbuf_addstr(&key, f->frames.v[i]);
		if (i)
			strbuf_addch(&key, ';');
	}
	if (!strmap_get(&f->index, key.buf, key.len, &slot)) {
		slot = f->stacks.nr;
		strmap_put(&f->index, key.buf, key.len, slot);
		strvec_push(&f->stacks, key.buf);
		ALLOC_GROW(f->counts, slot + 1, f->counts_alloc);
		f->counts[slot] = 0;
	}
	f->counts[slot]++;
	f->samples++;
	strvec_clear(&f->frames);
	f->header_line = 0;
	strbuf_release(&key);
	return 0;
}

/*
 * The name of frame "ADDRESS SYMBOL+OFFSET (DSO)" (s, n bytes, its
 * indent gone) into name; false when it is not one.
 */
static bool frame_name(const char *s, size_t n, struct strbuf *name)
{
	size_t addr = 0, open = 0, end = n;
	/* A kernel address: the upper half of a 64-bit space. */
	bool kernel = n >= 16 && !strncmp(s, "ffff", 4);
	const char *dso;
	size_t dso_len, sym_len;

	while (addr < n && is_hex(s[addr]))
		addr++;
	while (end > 0 && (s[end - 1] == ' ' || s[end - 1] == '\r'))
		end--;
	if (!addr || addr >= end || s[addr] != ' ' || s[end - 1] != ')')
		return false;
	for (size_t i = addr; i + 1 < end; i++)
		if (s[i] == ' ' && s[i + 1] == '(')
			open = i;
	if (open <= addr)
		return false;
	dso = s + open + 2;
	dso_len = end - 1 - (open + 2);
	sym_len = open - (addr + 1);
	s += addr + 1;
	/* SYMBOL+0xOFFSET: the offset goes. */
	for (size_t i = sym_len; i-- > 2;) {
		if (s[i] == 'x' && s[i - 1] == '0' && s[i - 2] == '+') {
			bool hex = i + 1 < sym_len;

			for (size_t k = i + 1; k < sym_len; k++)
				hex &= is_hex(s[k]);
			if (hex)
				sym_len = i - 2;
			break;
		}
	}
	if (!sym_len)
		return false;
	if (sym_len == 9 && !memcmp(s, "[unknown]", 9) &&
	    !(dso_len == 9 && !memcmp(dso, "[unknown]", 9))) {
		for (size_t i = dso_len; i-- > 0;) {
			if (dso[i] == '/') {
				dso += i + 1;
				dso_len -= i + 1;
				break;
			}
		}
		strbuf_addch(name, '[');
		strbuf_add(name, dso, dso_len);
		strbuf_addch(name, ']');
	} else {
		for (size_t i = 0; i < sym_len; i++)
			strbuf_addch(name, s[i] == ';' ? ':' : s[i]);
		if (kernel && addr == 16)
			strbuf_addstr(name, "_[k]");
	}
	return true;
}

/* One line (n bytes, no newline), number nr. */
static int fold_line(struct fold *f, const char *s, size_t n, size_t nr,
		     struct strbuf *err)
{
	struct strbuf name = STRBUF_INIT;
	size_t end = n;
	int ret = 0;

	if (is_blank(s, n))
		return end_sample(f, err);
	if (*s == ' ' || *s == '\t') {
		while (*s == ' ' || *s == '\t') {
			s++;
			n--;
		}
		if (!f->header_line)
			return error_addf(err,
					  "%s:%zu: a stack frame outside a "
					  "sample (no header line before it)",
					  f->path, nr);
		if (!frame_name(s, n, &name))
			ret = error_addf(err,
					 "%s:%zu: expected a frame 'ADDRESS "
					 "SYMBOL (DSO)'",
					 f->path, nr);
		else
			strvec_push(&f->frames, name.buf);
		strbuf_release(&name);
		return ret;
	}
	if (*s == '#')
		return 0; /* perf script --header */
	if (end_sample(f, err))
		return -1;
	while (end > 0 && (s[end - 1] == ' ' || s[end - 1] == '\r'))
		end--;
	if (!end || s[end - 1] != ':' || !memchr(s, ':', end - 1))
		return error_addf(err,
				  "%s:%zu: expected a sample header 'COMM PID "
				  "TIME: PERIOD EVENT:'",
				  f->path, nr);
	f->header_line = nr;
	return 0;
}

static int slot_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int profile_script_fold(const char *path, const char *buf, size_t len,
			struct strbuf *folded, uint64_t *samples,
			struct strbuf *err)
{
	struct fold f = {.path = path, .index = STRMAP_INIT};
	char **sorted = NULL;
	size_t nr = 0;
	int ret = -1;

	strvec_init(&f.stacks);
	strvec_init(&f.frames);
	for (size_t at = 0; at < len;) {
		const char *eol = memchr(buf + at, '\n', len - at);
		size_t n = eol ? (size_t)(eol - buf) - at : len - at;

		if (memchr(buf + at, '\0', n)) {
			error_addf(err,
				   "%s:%zu: a NUL byte: not perf script text",
				   path, nr + 1);
			goto out;
		}
		if (fold_line(&f, buf + at, n, ++nr, err))
			goto out;
		at += n + 1;
	}
	if (end_sample(&f, err))
		goto out;
	if (!f.samples) {
		error_addf(err, "%s: no samples: not perf script output", path);
		goto out;
	}
	/* Sorted, as mmcmp run stores its folded stacks. */
	sorted = xcalloc(f.stacks.nr, sizeof(*sorted));
	for (size_t i = 0; i < f.stacks.nr; i++)
		sorted[i] = f.stacks.v[i];
	qsort(sorted, f.stacks.nr, sizeof(*sorted), slot_cmp);
	for (size_t i = 0; i < f.stacks.nr; i++) {
		size_t slot = 0;

		strmap_get(&f.index, sorted[i], strlen(sorted[i]), &slot);
		strbuf_addf(folded, "%s %llu\n", sorted[i],
			    (unsigned long long)f.counts[slot]);
	}
	*samples = f.samples;
	ret = 0;
out:
	free(sorted);
	free(f.counts);
	strmap_clear(&f.index);
	strvec_clear(&f.stacks);
	strvec_clear(&f.frames);
	return ret;
}

/* A version 8 UUID (RFC 9562) from the SHA-256 of the import. */
static void import_uuid(const char *label, const char *benchmark,
			const struct profile_script_file *files, size_t nr,
			char out[37])
{
	struct strbuf id = STRBUF_INIT, all = STRBUF_INIT;
	char hex[65];

	strbuf_addf(&id, "mmcmp-import%cperf-script%c%s%c%s%c", 0, 0, label, 0,
		    benchmark, 0);
	for (size_t i = 0; i < nr; i++) {
		strbuf_addstr(&all, files[i].folded);
		strbuf_addch(&all, '\0');
	}
	sha256_hex2(id.buf, id.len, all.buf, all.len, hex);
	uuid_from_sha256(hex, out);
	strbuf_release(&id);
	strbuf_release(&all);
}

int profile_script_import(struct store *st, const char *label,
			  const char *benchmark, bool append,
			  const struct profile_script_file *files, size_t nr,
			  const char *started_at, bool *skipped, bool *clash,
			  struct strbuf *err)
{
	struct run_info ri = {0};
	int64_t *ids = NULL;
	size_t ids_nr = 0;
	char uuid[37];
	bool exists = false;
	int ret = -1;

	*skipped = *clash = false;
	import_uuid(label, benchmark, files, nr, uuid);
	if (store_uuid_exists(st, uuid, &exists, err))
		goto out;
	if (exists) {
		*skipped = true;
		ret = 0;
		goto out;
	}
	if (!append && store_find_runs(st, label, &ids, &ids_nr, err))
		goto out;
	if (ids_nr) {
		*clash = true;
		error_addf(err,
			   "label '%s' has runs already: --append adds to "
			   "them",
			   label);
		goto out;
	}
	ri.uuid = xstrdup(uuid);
	ri.label = xstrdup(label);
	ri.status = xstrdup("complete");
	run_info_set_config(&ri, "perf script", "", 0);
	ri.started_at = xstrdup(started_at);
	ri.ended_at = xstrdup(started_at);
	ri.mmcmp_version = xstrdup(MMCMP_VERSION);
	if (append ? store_run_create(st, &ri, err)
		   : store_run_create_exclusive(st, &ri, err))
		goto out;
	for (size_t i = 0; i < nr; i++) {
		struct profile_rec rec = {
			.run_id = ri.id,
			.benchmark = benchmark,
			.job = "",
			.seq = (int64_t)i + 1,
			.started_at = started_at,
			.status = "ok",
			.samples = files[i].samples,
			.stacks = files[i].folded,
		};

		if (store_profile_add(st, &rec, err))
			goto out;
	}
	ret = 0;
out:
	free(ids);
	run_info_release(&ri);
	return ret;
}
