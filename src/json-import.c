/* json-import: an export document read back, strictly validated. */
#include "json.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "json-internal.h"
#include "machine.h"
#include "run-data.h"
#include "sha256.h"
#include "strbuf.h"
#include "strmap.h"
#include "util.h"

/* What a member of an object must hold, and where it is kept. */
enum jf_kind {
	JF_STRING, /* a string of at most max bytes, may be empty */
	JF_NAME,   /* the same, not empty */
	JF_TIME,   /* "YYYY-MM-DDTHH:MM:SSZ" */
	JF_UUID,   /* 36 lowercase characters, 8-4-4-4-12 hex */
	JF_SHA256, /* 64 lowercase hex digits */
	JF_CHOICE, /* one of choices, kept as a string */
	JF_BETTER, /* "higher" or "lower", kept as a bool */
	JF_BOOL,
	JF_INT,	    /* an integer in [min, max], kept in size bytes */
	JF_SECONDS, /* a finite number from 0 to 1e9 */
	JF_OTHER,   /* required, read by the caller */
	JF_IGNORED, /* optional object, derived, not read */
};

struct jfield {
	const char *name;
	enum jf_kind kind;
	bool nullable;
	size_t offset; /* in the struct being filled */
	size_t size;   /* JF_INT: of the member, int or int64_t */
	size_t max;    /* string kinds: bytes */
	int64_t min_int, max_int;
	const char *const *choices; /* JF_CHOICE, NULL-terminated */
	/* The first version of the format with the member; 0: every one. */
	int64_t since;
};

/* The most members an object of the format has. */
#define JR_MAX_FIELDS 20
/* Integers in JSON are exact up to 2^53. */
#define JR_INT_MAX (INT64_C(1) << 53)

#define F_STR(st, m, lim, null)                                                \
	.kind = JF_STRING, .offset = offsetof(st, m), .max = (lim),            \
	.nullable = (null)
#define F_KIND(k, st, m, null)                                                 \
	.kind = (k), .offset = offsetof(st, m), .max = JSON_MAX_NAME,          \
	.nullable = (null)
#define F_INT(st, m, lo, hi)                                                   \
	.kind = JF_INT, .offset = offsetof(st, m),                             \
	.size = sizeof(((st *)NULL)->m), .min_int = (lo), .max_int = (hi)

static const char *const run_statuses[] = {
	"running", "complete", "interrupted", "failed", "aborted", NULL,
};
static const char *const iteration_statuses[] = {
	"ok",	       "exit", "signal",  "timeout",
	"interrupted", "exec", "extract", NULL,
};

/* The members of the top-level object; generator is checked, not kept. */
struct jr_top {
	char *generator;
};

static const struct jfield top_fields[] = {
	{.name = "format", .kind = JF_OTHER},
	{.name = "version", .kind = JF_OTHER},
	{.name = "generator",
	 F_STR(struct jr_top, generator, JSON_MAX_NAME, false)},
	{.name = "runs", .kind = JF_OTHER},
	{.name = "comparison", .kind = JF_IGNORED},
};

static const struct jfield run_fields[] = {
	{.name = "uuid", F_KIND(JF_UUID, struct run_info, uuid, false)},
	{.name = "label", F_KIND(JF_NAME, struct run_info, label, false)},
	{.name = "status",
	 F_KIND(JF_CHOICE, struct run_info, status, false),
	 .choices = run_statuses},
	{.name = "started_at",
	 F_KIND(JF_TIME, struct run_info, started_at, false)},
	{.name = "ended_at", F_KIND(JF_TIME, struct run_info, ended_at, true)},
	{.name = "mmcmp_version",
	 F_STR(struct run_info, mmcmp_version, JSON_MAX_NAME, true)},
	{.name = "cgroup", F_STR(struct run_info, cgroup, JSON_MAX_NAME, true)},
	{.name = "config", .kind = JF_OTHER},
	{.name = "setup", .kind = JF_OTHER, .since = 2},
	{.name = "machine", .kind = JF_OTHER},
	{.name = "boots", .kind = JF_OTHER, .since = 3},
	{.name = "settings", .kind = JF_OTHER, .since = 4},
	{.name = "operations", .kind = JF_OTHER},
	{.name = "iterations", .kind = JF_OTHER},
};

static const struct jfield config_fields[] = {
	{.name = "name",
	 F_STR(struct run_info, config_name, JSON_MAX_NAME, true)},
	{.name = "text",
	 F_STR(struct run_info, config_text, JSON_MAX_TEXT, true)},
	{.name = "sha256",
	 F_KIND(JF_SHA256, struct run_info, config_hash, true)},
};

/*
 * The members of "machine", from machine.h's table into fields (of
 * JR_MAX_FIELDS); returns fields.
 */
static const struct jfield *machine_jfields(struct jfield *fields)
{
	if (machine_fields_nr > JR_MAX_FIELDS)
		BUG("%zu machine facts", machine_fields_nr);
	for (size_t i = 0; i < machine_fields_nr; i++) {
		const struct machine_field *m = &machine_fields[i];
		struct jfield *f = &fields[i];

		*f = (struct jfield){
			.name = m->name,
			.offset = m->offset,
			.nullable = true,
			.max = JSON_MAX_NAME,
		};
		switch (m->kind) {
		case MACHINE_STRING:
			f->kind = JF_STRING;
			break;
		case MACHINE_TEXT:
			f->kind = JF_STRING;
			f->max = JSON_MAX_TEXT;
			break;
		case MACHINE_SHA256:
			f->kind = JF_SHA256;
			break;
		case MACHINE_CHOICE:
			f->kind = JF_CHOICE;
			f->choices = m->choices;
			break;
		case MACHINE_INT:
			f->kind = JF_INT;
			f->nullable = false;
			f->size = sizeof(int64_t);
			f->max_int = m->max;
			break;
		}
	}
	return fields;
}

/* Decimals as a config allows them. */
static const struct jfield operation_fields[] = {
	{.name = "benchmark",
	 F_KIND(JF_NAME, struct op_samples, benchmark, false)},
	{.name = "name", F_KIND(JF_NAME, struct op_samples, name, false)},
	{.name = "unit", F_STR(struct op_samples, unit, JSON_MAX_NAME, false)},
	{.name = "better",
	 F_KIND(JF_BETTER, struct op_samples, higher_better, false)},
	{.name = "decimals", F_INT(struct op_samples, decimals, 0, 12)},
	{.name = "summary", .kind = JF_IGNORED},
};

static const struct jfield iteration_fields[] = {
	{.name = "benchmark",
	 F_KIND(JF_NAME, struct iteration_data, benchmark, false)},
	{.name = "job",
	 F_STR(struct iteration_data, job, JSON_MAX_NAME, false)},
	{.name = "build",
	 F_STR(struct iteration_data, build, JSON_MAX_NAME, true)},
	{.name = "index", F_INT(struct iteration_data, index, 0, JR_INT_MAX)},
	{.name = "warmup",
	 F_KIND(JF_BOOL, struct iteration_data, warmup, false)},
	{.name = "status",
	 F_KIND(JF_CHOICE, struct iteration_data, status, false),
	 .choices = iteration_statuses},
	{.name = "exit_code",
	 F_INT(struct iteration_data, exit_code, INT32_MIN, INT32_MAX)},
	{.name = "signal",
	 F_INT(struct iteration_data, term_signal, 0, INT32_MAX)},
	{.name = "started_at",
	 F_KIND(JF_TIME, struct iteration_data, started_at, false)},
	{.name = "elapsed_s",
	 F_KIND(JF_SECONDS, struct iteration_data, elapsed_s, false)},
	{.name = "user_s",
	 F_KIND(JF_SECONDS, struct iteration_data, user_s, false)},
	{.name = "sys_s",
	 F_KIND(JF_SECONDS, struct iteration_data, sys_s, false)},
	{.name = "maxrss_kb",
	 F_INT(struct iteration_data, maxrss_kb, 0, JR_INT_MAX)},
	{.name = "stderr_tail",
	 F_STR(struct iteration_data, stderr_tail, JSON_MAX_TEXT, true)},
	{.name = "boot",
	 F_INT(struct iteration_data, boot, 1, JR_INT_MAX),
	 .nullable = true,
	 .since = 3},
	{.name = "samples", .kind = JF_OTHER},
	{.name = "monitor", .kind = JF_OTHER, .since = 2},
};

/* A boot of a run with kernels (version 3). */
static const struct jfield setting_fields[] = {
	{.name = "path",
	 F_STR(struct setting_data, path, JSON_MAX_NAME, false)},
	{.name = "old_value",
	 F_STR(struct setting_data, old_value, JSON_MAX_NAME, false)},
	{.name = "new_value",
	 F_STR(struct setting_data, new_value, JSON_MAX_NAME, false)},
};

static const struct jfield boot_fields[] = {
	{.name = "number", F_INT(struct boot_data, number, 1, JR_INT_MAX)},
	{.name = "kernel", F_KIND(JF_NAME, struct boot_data, kernel, false)},
	{.name = "image", F_KIND(JF_NAME, struct boot_data, image, false)},
	{.name = "image_sha256",
	 F_KIND(JF_SHA256, struct boot_data, image_sha256, false)},
	{.name = "image_release",
	 F_STR(struct boot_data, image_release, JSON_MAX_NAME, true)},
	{.name = "append",
	 F_STR(struct boot_data, append, JSON_MAX_NAME, false)},
	{.name = "accel", F_KIND(JF_NAME, struct boot_data, accel, false)},
	{.name = "cpus", F_INT(struct boot_data, cpus, 1, 1 << 20)},
	{.name = "memory_mb",
	 F_INT(struct boot_data, memory_mb, 1, JR_INT_MAX)},
	{.name = "qemu_version",
	 F_STR(struct boot_data, qemu_version, JSON_MAX_NAME, false)},
	{.name = "qemu_cmdline",
	 F_STR(struct boot_data, qemu_cmdline, JSON_MAX_TEXT, false)},
	{.name = "boot_s", F_KIND(JF_SECONDS, struct boot_data, boot_s, true)},
	{.name = "pinning",
	 F_STR(struct boot_data, pinning, JSON_MAX_NAME, true)},
	{.name = "guest_release",
	 F_STR(struct boot_data, guest_release, JSON_MAX_NAME, true)},
	{.name = "guest_cmdline",
	 F_STR(struct boot_data, guest_cmdline, JSON_MAX_TEXT, true)},
	{.name = "guest_facts",
	 F_STR(struct boot_data, guest_facts, JSON_MAX_TEXT, true)},
	{.name = "failed",
	 F_STR(struct boot_data, failed, JSON_MAX_TEXT, true)},
};

static const struct jfield setup_fields[] = {
	{.name = "iterations",
	 F_INT(struct run_setup, iterations, 0, JR_INT_MAX)},
	{.name = "warmup", F_INT(struct run_setup, warmup, 0, JR_INT_MAX)},
	{.name = "until", .kind = JF_OTHER},
	{.name = "params", .kind = JF_OTHER},
};

static const char *const stop_reasons[] = {
	"precision",
	"maximum",
	"interrupted",
	NULL,
};

/* "until" of a setup; pct is read apart, as it must be above 0. */
static const struct jfield until_fields[] = {
	{.name = "pct", .kind = JF_OTHER},
	{.name = "jobs", .kind = JF_OTHER},
};

static const struct jfield stop_fields[] = {
	{.name = "workload",
	 F_KIND(JF_NAME, struct setup_stop, workload, false)},
	{.name = "job", F_STR(struct setup_stop, job, JSON_MAX_NAME, false)},
	{.name = "iterations",
	 F_INT(struct setup_stop, iterations, 0, JR_INT_MAX)},
	{.name = "stopped",
	 F_KIND(JF_CHOICE, struct setup_stop, stopped, false),
	 .choices = stop_reasons},
};

static const struct jfield setup_param_fields[] = {
	{.name = "workload",
	 F_KIND(JF_NAME, struct setup_param, workload, false)},
	{.name = "name", F_KIND(JF_NAME, struct setup_param, name, false)},
	{.name = "values", .kind = JF_OTHER},
};

/* The members of a monitor record; the named values are read apart. */
static const struct jfield monitor_fields[] = {
	{.name = "interval_s",
	 F_KIND(JF_SECONDS, struct iteration_monitor, interval_s, false)},
	{.name = "vmstat", .kind = JF_OTHER},
	{.name = "cpu", .kind = JF_OTHER},
	{.name = "meminfo_start", .kind = JF_OTHER},
	{.name = "meminfo_end", .kind = JF_OTHER},
	{.name = "other_cpu", .kind = JF_OTHER},
	{.name = "loadavg_start", .kind = JF_OTHER},
	{.name = "loadavg_end", .kind = JF_OTHER},
	{.name = "cgroup", .kind = JF_OTHER},
	{.name = "cgroup_start", .kind = JF_OTHER},
	{.name = "cgroup_end", .kind = JF_OTHER},
	{.name = "samples", .kind = JF_OTHER},
};

static const struct jfield monitor_sample_fields[] = {
	{.name = "t_s",
	 F_KIND(JF_SECONDS, struct iteration_monitor_sample, t_s, false)},
	{.name = "vmstat", .kind = JF_OTHER},
	{.name = "cpu", .kind = JF_OTHER},
	{.name = "meminfo", .kind = JF_OTHER},
};

/* A group of samples; values are read by the caller. */
struct jr_group {
	int64_t operation;
};

static const struct jfield group_fields[] = {
	{.name = "operation",
	 F_INT(struct jr_group, operation, 0, INT64_C(1) << 40)},
	{.name = "values", .kind = JF_OTHER},
};

/* The reader's state: where in which document, for messages. */
struct jr {
	const char *file;
	struct strbuf path;	  /* "runs[3].iterations[0]" */
	struct strbuf scratch[2]; /* jr_q() */
	struct strbuf *err;
	int64_t version; /* of the document */
};

/* Append "FILE: PATH: message" to err; returns -1. */
MMCMP_PRINTF(2, 3) static int jr_fail(struct jr *jr, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	error_addf(jr->err, "%s: %s: %s", jr->file,
		   jr->path.len ? jr->path.buf : "top level", msg.buf);
	strbuf_release(&msg);
	return -1;
}

/*
 * s fit for one line of a message: at most about 64 bytes, cut at a
 * character boundary, control characters (and every byte of a string
 * that is not UTF-8) as \xNN. Valid until the next call with the same
 * slot, 0 or 1, so one message can hold two.
 */
static const char *jr_q(struct jr *jr, int slot, const char *s)
{
	struct strbuf *sb = &jr->scratch[slot];
	const unsigned char *p = (const unsigned char *)s;
	bool utf8 = utf8_valid(s);
	size_t n = 0;

	strbuf_reset(sb);
	for (; *p && (n < 64 || (utf8 && (*p & 0xc0) == 0x80)); p++, n++) {
		if (*p < 0x20 || *p == 0x7f || (*p >= 0x80 && !utf8))
			strbuf_addf(sb, "\\x%02x", *p);
		else
			strbuf_addch(sb, *p);
	}
	if (*p)
		strbuf_addstr(sb, "...");
	return sb->buf;
}

static size_t jr_key(struct jr *jr, const char *key)
{
	size_t mark = jr->path.len;

	if (mark)
		strbuf_addch(&jr->path, '.');
	strbuf_addstr(&jr->path, key);
	return mark;
}

static size_t jr_index(struct jr *jr, size_t i)
{
	size_t mark = jr->path.len;

	strbuf_addf(&jr->path, "[%zu]", i);
	return mark;
}

static void jr_pop(struct jr *jr, size_t mark)
{
	strbuf_setlen(&jr->path, mark);
}

static int jr_type(struct jr *jr, const cJSON *node, const char *want)
{
	return jr_fail(jr, "expected %s, found %s", want, json_type_name(node));
}

static bool all_of(const char *s, size_t n, const char *set)
{
	return strlen(s) == n && strspn(s, set) == n;
}

static bool is_time(const char *s)
{
	/* Digits where the pattern has 'd'; ranges checked loosely. */
	static const char pat[] = "dddd-dd-ddTdd:dd:ddZ";

	if (strlen(s) != sizeof(pat) - 1)
		return false;
	for (size_t i = 0; pat[i]; i++) {
		if (pat[i] == 'd' ? !isdigit((unsigned char)s[i])
				  : s[i] != pat[i])
			return false;
	}
	return memcmp(s + 5, "01", 2) >= 0 && memcmp(s + 5, "12", 2) <= 0 &&
	       memcmp(s + 8, "01", 2) >= 0 && memcmp(s + 8, "31", 2) <= 0 &&
	       memcmp(s + 11, "23", 2) <= 0 && memcmp(s + 14, "59", 2) <= 0 &&
	       memcmp(s + 17, "60", 2) <= 0;
}

static bool is_uuid(const char *s)
{
	static const char hex[] = "0123456789abcdef";

	if (strlen(s) != 36)
		return false;
	for (size_t i = 0; i < 36; i++) {
		bool dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? s[i] != '-' : !strchr(hex, s[i]) || !s[i])
			return false;
	}
	return true;
}

/* A string member, checked for its kind; *out gets a copy. */
static int jr_string(struct jr *jr, const cJSON *node, const struct jfield *f,
		     char **out)
{
	const char *s;
	size_t len;

	if (f->nullable && cJSON_IsNull(node))
		return 0;
	if (!cJSON_IsString(node))
		return jr_type(jr, node,
			       f->nullable ? "a string or null" : "a string");
	s = node->valuestring;
	len = strlen(s);
	if (len > f->max)
		return jr_fail(jr, "string too long (%zu bytes, at most %zu)",
			       len, f->max);
	if (!utf8_valid(s))
		return jr_fail(jr, "invalid UTF-8");
	switch (f->kind) {
	case JF_NAME:
		if (!len)
			return jr_fail(jr, "empty string");
		if (names_has_control(s))
			return jr_fail(jr, "'%s' contains a control character",
				       jr_q(jr, 0, s));
		break;
	case JF_TIME:
		if (!is_time(s))
			return jr_fail(
				jr,
				"'%s' is not a UTC time YYYY-MM-DDTHH:MM:SSZ",
				jr_q(jr, 0, s));
		break;
	case JF_UUID:
		if (!is_uuid(s))
			return jr_fail(jr, "'%s' is not a lowercase UUID",
				       jr_q(jr, 0, s));
		break;
	case JF_SHA256:
		if (!all_of(s, 64, "0123456789abcdef"))
			return jr_fail(jr,
				       "'%s' is not a lowercase hex SHA-256",
				       jr_q(jr, 0, s));
		break;
	case JF_CHOICE: {
		struct strbuf list = STRBUF_INIT;
		size_t i;

		for (i = 0; f->choices[i] && strcmp(s, f->choices[i]) != 0; i++)
			;
		if (f->choices[i])
			break;
		for (i = 0; f->choices[i]; i++)
			strbuf_addf(&list, "%s%s", i ? ", " : "",
				    f->choices[i]);
		jr_fail(jr, "unknown value '%s' (expected %s)", jr_q(jr, 0, s),
			list.buf);
		strbuf_release(&list);
		return -1;
	}
	default:
		break;
	}
	*out = xstrdup(s);
	return 0;
}

/* A finite number; false after a message. */
static bool jr_number(struct jr *jr, const cJSON *node, const char *want,
		      double *out)
{
	if (!cJSON_IsNumber(node)) {
		jr_type(jr, node, want);
		return false;
	}
	if (!isfinite(node->valuedouble)) {
		jr_fail(jr, "not a finite number");
		return false;
	}
	*out = node->valuedouble;
	return true;
}

static int jr_int(struct jr *jr, const cJSON *node, const struct jfield *f,
		  void *out)
{
	double d;
	int64_t v;

	if (!jr_number(jr, node, "an integer", &d))
		return -1;
	if (d != floor(d) || fabs(d) > (double)JR_INT_MAX)
		return jr_fail(jr, "expected an integer, found %g", d);
	v = (int64_t)d;
	if (v < f->min_int || v > f->max_int)
		return jr_fail(jr,
			       "%" PRId64 " is out of range (%" PRId64
			       " to %" PRId64 ")",
			       v, f->min_int, f->max_int);
	if (f->size == sizeof(int))
		*(int *)out = (int)v;
	else if (f->size == sizeof(int64_t))
		*(int64_t *)out = v;
	else
		BUG("integer member '%s' of %zu bytes", f->name, f->size);
	return 0;
}

/* Read member node as f says into base + f->offset. */
static int jr_member(struct jr *jr, const cJSON *node, const struct jfield *f,
		     void *base)
{
	void *at = (char *)base + f->offset;
	double d;

	switch (f->kind) {
	case JF_STRING:
	case JF_NAME:
	case JF_TIME:
	case JF_UUID:
	case JF_SHA256:
	case JF_CHOICE:
		return jr_string(jr, node, f, (char **)at);
	case JF_BETTER:
		if (!cJSON_IsString(node))
			return jr_type(jr, node, "a string");
		if (strcmp(node->valuestring, "higher") != 0 &&
		    strcmp(node->valuestring, "lower") != 0)
			return jr_fail(
				jr,
				"unknown value '%s' (expected higher, lower)",
				jr_q(jr, 0, node->valuestring));
		*(bool *)at = !strcmp(node->valuestring, "higher");
		return 0;
	case JF_BOOL:
		if (!cJSON_IsBool(node))
			return jr_type(jr, node, "a boolean");
		*(bool *)at = cJSON_IsTrue(node);
		return 0;
	case JF_INT:
		/* A null integer keeps the zero of a fresh struct. */
		if (f->nullable && cJSON_IsNull(node))
			return 0;
		return jr_int(jr, node, f, at);
	case JF_SECONDS:
		/* A null number keeps the caller's default. */
		if (f->nullable && cJSON_IsNull(node))
			return 0;
		if (!jr_number(jr, node, "a number", &d))
			return -1;
		if (d < 0 || d > 1e9)
			return jr_fail(
				jr, "%.17g is out of range (0 to 1e9 seconds)",
				d);
		*(double *)at = d;
		return 0;
	case JF_IGNORED:
		return cJSON_IsObject(node) ? 0
					    : jr_type(jr, node, "an object");
	case JF_OTHER:
		return 0;
	}
	BUG("unknown member kind %d", (int)f->kind);
}

/*
 * Check that obj is an object with exactly the members of fields (the
 * optional ones may be absent), each once, and read them into base.
 */
static int jr_object(struct jr *jr, const cJSON *obj,
		     const struct jfield *fields, size_t nr, void *base)
{
	bool seen[JR_MAX_FIELDS] = {false};
	const cJSON *child;

	if (nr > JR_MAX_FIELDS)
		BUG("object of %zu members", nr);
	if (!cJSON_IsObject(obj))
		return jr_type(jr, obj, "an object");
	cJSON_ArrayForEach(child, obj)
	{
		size_t k;

		/* A member of a later version is unknown to this one. */
		for (k = 0;
		     k < nr && (fields[k].since > jr->version ||
				strcmp(fields[k].name, child->string) != 0);
		     k++)
			;
		if (k == nr)
			return jr_fail(jr, "unknown member '%s'",
				       jr_q(jr, 0, child->string));
		if (seen[k])
			return jr_fail(jr, "duplicate member '%s'",
				       fields[k].name);
		seen[k] = true;
	}
	for (size_t k = 0; k < nr; k++) {
		if (!seen[k] && fields[k].kind != JF_IGNORED &&
		    fields[k].since <= jr->version)
			return jr_fail(jr, "missing member '%s'",
				       fields[k].name);
	}
	for (size_t k = 0; k < nr; k++) {
		size_t mark;

		if (!seen[k] || fields[k].kind == JF_OTHER)
			continue;
		mark = jr_key(jr, fields[k].name);
		if (jr_member(jr,
			      cJSON_GetObjectItemCaseSensitive(obj,
							       fields[k].name),
			      &fields[k], base))
			return -1;
		jr_pop(jr, mark);
	}
	return 0;
}

/* The array member key of obj (which jr_object() checked is there). */
static const cJSON *jr_array(struct jr *jr, const cJSON *obj, const char *key,
			     size_t max, size_t *mark)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(obj, key);
	int size;

	*mark = jr_key(jr, key);
	if (!cJSON_IsArray(arr)) {
		jr_type(jr, arr, "an array");
		return NULL;
	}
	size = cJSON_GetArraySize(arr);
	if (size < 0 || (size_t)size > max) {
		jr_fail(jr, "too many elements (%d, at most %zu)", size, max);
		return NULL;
	}
	return arr;
}

static int jr_operations(struct jr *jr, const cJSON *run, struct run_full *rf)
{
	struct strmap names = STRMAP_INIT;
	struct strbuf key = STRBUF_INIT;
	const cJSON *arr, *el;
	size_t mark, i = 0;
	int ret = -1;

	arr = jr_array(jr, run, "operations", JSON_MAX_OPERATIONS, &mark);
	if (!arr)
		goto out;
	cJSON_ArrayForEach(el, arr)
	{
		size_t m = jr_index(jr, i), other;
		struct op_samples *op;

		ALLOC_GROW(rf->ops, rf->ops_nr + 1, rf->ops_alloc);
		op = &rf->ops[rf->ops_nr++];
		memset(op, 0, sizeof(*op));
		if (jr_object(jr, el, operation_fields,
			      ARRAY_SIZE(operation_fields), op))
			goto out;
		strbuf_reset(&key);
		strbuf_add(&key, op->benchmark, strlen(op->benchmark) + 1);
		strbuf_addstr(&key, op->name);
		if (strmap_get(&names, key.buf, key.len, &other)) {
			jr_fail(jr, "operation '%s' of benchmark '%s' again",
				jr_q(jr, 0, op->name),
				jr_q(jr, 1, op->benchmark));
			goto out;
		}
		strmap_put(&names, key.buf, key.len, i);
		jr_pop(jr, m);
		i++;
	}
	jr_pop(jr, mark);
	ret = 0;
out:
	strmap_clear(&names);
	strbuf_release(&key);
	return ret;
}

/* The values of one group of samples, appended to rf->samples. */
static int jr_values(struct jr *jr, const cJSON *group, size_t op,
		     struct run_full *rf)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(group, "values");
	const cJSON *el;
	size_t mark = jr_key(jr, "values"), k = 0;

	if (!cJSON_IsArray(arr))
		return jr_type(jr, arr, "an array");
	if (!arr->child)
		return jr_fail(jr, "no values");
	cJSON_ArrayForEach(el, arr)
	{
		struct sample_data *s;

		if (!cJSON_IsNumber(el) || !isfinite(el->valuedouble)) {
			double d;

			jr_index(jr, k);
			jr_number(jr, el, "a number", &d);
			return -1;
		}
		if (rf->samples_nr >= JSON_MAX_SAMPLES) {
			jr_pop(jr, mark);
			return jr_fail(jr, "more than %zu samples in the run",
				       JSON_MAX_SAMPLES);
		}
		ALLOC_GROW(rf->samples, rf->samples_nr + 1, rf->samples_alloc);
		s = &rf->samples[rf->samples_nr++];
		s->op = op;
		s->value = el->valuedouble;
		k++;
	}
	jr_pop(jr, mark);
	return 0;
}

static int jr_samples(struct jr *jr, const cJSON *iter, struct run_full *rf,
		      struct iteration_data *it)
{
	const cJSON *arr, *el;
	size_t mark, i = 0;

	arr = jr_array(jr, iter, "samples", JSON_MAX_SAMPLES, &mark);
	if (!arr)
		return -1;
	it->samples_first = rf->samples_nr;
	cJSON_ArrayForEach(el, arr)
	{
		struct jr_group g = {0};
		size_t m = jr_index(jr, i++), om;
		const struct op_samples *op;

		if (jr_object(jr, el, group_fields, ARRAY_SIZE(group_fields),
			      &g))
			return -1;
		om = jr_key(jr, "operation");
		if ((uint64_t)g.operation >= rf->ops_nr)
			return jr_fail(jr,
				       "no operation %" PRId64
				       " (the run has %zu)",
				       g.operation, rf->ops_nr);
		op = &rf->ops[g.operation];
		if (strcmp(op->benchmark, it->benchmark) != 0)
			return jr_fail(jr,
				       "operation %" PRId64
				       " is of benchmark '%s', not '%s'",
				       g.operation, jr_q(jr, 0, op->benchmark),
				       jr_q(jr, 1, it->benchmark));
		jr_pop(jr, om);
		if (jr_values(jr, el, (size_t)g.operation, rf))
			return -1;
		jr_pop(jr, m);
	}
	it->samples_nr = rf->samples_nr - it->samples_first;
	jr_pop(jr, mark);
	return 0;
}

/* Member key of obj: a number from 0 to 1e6, or null for NaN. */
static int jr_figure(struct jr *jr, const cJSON *obj, const char *key,
		     double *out)
{
	const cJSON *node = cJSON_GetObjectItemCaseSensitive(obj, key);
	size_t mark = jr_key(jr, key);

	if (cJSON_IsNull(node)) {
		*out = NAN;
	} else if (!jr_number(jr, node, "a number or null", out)) {
		return -1;
	} else if (*out < 0 || *out > 1e6) {
		return jr_fail(jr, "%.17g is out of range (0 to 1e6)", *out);
	}
	jr_pop(jr, mark);
	return 0;
}

/*
 * The object member key of obj, of name -> integer, appended to mc: names
 * not empty, UTF-8 and each once, integers exact (up to 2^53).
 */
static int jr_counts(struct jr *jr, const cJSON *obj, const char *key,
		     struct monitor_counts *mc)
{
	const cJSON *node = cJSON_GetObjectItemCaseSensitive(obj, key);
	const struct jfield f = {.name = key,
				 .kind = JF_INT,
				 .size = sizeof(int64_t),
				 .min_int = -JR_INT_MAX,
				 .max_int = JR_INT_MAX};
	struct strmap names = STRMAP_INIT;
	size_t mark = jr_key(jr, key);
	const cJSON *el;
	int ret = -1;

	if (!cJSON_IsObject(node)) {
		jr_type(jr, node, "an object");
		goto out;
	}
	cJSON_ArrayForEach(el, node)
	{
		const char *name = el->string;
		size_t len = strlen(name), m;
		int64_t v = 0;

		if (mc->nr >= JSON_MAX_MONITOR_NAMES) {
			jr_fail(jr, "more than %zu values",
				JSON_MAX_MONITOR_NAMES);
			goto out;
		}
		if (!len || len > JSON_MAX_NAME || !utf8_valid(name)) {
			jr_fail(jr,
				"'%s' is not a name (1 to %zu bytes of UTF-8)",
				jr_q(jr, 0, name), JSON_MAX_NAME);
			goto out;
		}
		if (strmap_get(&names, name, len, NULL)) {
			jr_fail(jr, "duplicate member '%s'", jr_q(jr, 0, name));
			goto out;
		}
		strmap_put(&names, name, len, 0);
		m = jr_key(jr, name);
		if (jr_int(jr, el, &f, &v))
			goto out;
		jr_pop(jr, m);
		monitor_counts_add(mc, name, v);
	}
	jr_pop(jr, mark);
	ret = 0;
out:
	strmap_clear(&names);
	return ret;
}

static int jr_monitor_samples(struct jr *jr, const cJSON *obj,
			      struct iteration_monitor *m)
{
	const cJSON *arr, *el;
	size_t mark, i = 0;

	arr = jr_array(jr, obj, "samples", JSON_MAX_MONITOR_SAMPLES, &mark);
	if (!arr)
		return -1;
	cJSON_ArrayForEach(el, arr)
	{
		size_t k = jr_index(jr, i++);
		struct iteration_monitor_sample *s;

		ALLOC_GROW(m->samples, m->samples_nr + 1, m->samples_alloc);
		s = &m->samples[m->samples_nr++];
		memset(s, 0, sizeof(*s));
		if (jr_object(jr, el, monitor_sample_fields,
			      ARRAY_SIZE(monitor_sample_fields), s) ||
		    jr_counts(jr, el, "vmstat", &s->vmstat) ||
		    jr_counts(jr, el, "cpu", &s->cpu) ||
		    jr_counts(jr, el, "meminfo", &s->meminfo))
			return -1;
		jr_pop(jr, k);
	}
	jr_pop(jr, mark);
	return 0;
}

/* The monitor record of an iteration (version 2 on), or null. */
static int jr_monitor(struct jr *jr, const cJSON *iter,
		      struct iteration_data *it)
{
	const cJSON *node = cJSON_GetObjectItemCaseSensitive(iter, "monitor");
	size_t mark;
	struct iteration_monitor *m;

	if (!node || cJSON_IsNull(node))
		return 0;
	mark = jr_key(jr, "monitor");
	m = it->monitor = iteration_monitor_new();
	if (!cJSON_IsObject(node))
		return jr_type(jr, node, "an object or null");
	if (jr_object(jr, node, monitor_fields, ARRAY_SIZE(monitor_fields),
		      m) ||
	    jr_counts(jr, node, "vmstat", &m->vmstat) ||
	    jr_counts(jr, node, "cpu", &m->cpu) ||
	    jr_counts(jr, node, "meminfo_start", &m->meminfo_start) ||
	    jr_counts(jr, node, "meminfo_end", &m->meminfo_end) ||
	    jr_figure(jr, node, "other_cpu", &m->other_cpu) ||
	    jr_figure(jr, node, "loadavg_start", &m->loadavg_start) ||
	    jr_figure(jr, node, "loadavg_end", &m->loadavg_end) ||
	    jr_monitor_samples(jr, node, m))
		return -1;
	/* The cgroup's counters: all three objects, or all three null. */
	m->has_cgroup =
		!cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(node, "cgroup"));
	for (size_t i = 0; i < 3; i++) {
		static const char *const keys[] = {"cgroup", "cgroup_start",
						   "cgroup_end"};
		struct monitor_counts *mc[] = {&m->cgroup, &m->cgroup_start,
					       &m->cgroup_end};
		const cJSON *c =
			cJSON_GetObjectItemCaseSensitive(node, keys[i]);

		if (!m->has_cgroup) {
			if (!cJSON_IsNull(c)) {
				jr_key(jr, keys[i]);
				return jr_fail(jr, "not null, but 'cgroup' is");
			}
			continue;
		}
		if (jr_counts(jr, node, keys[i], mc[i]))
			return -1;
	}
	/* The store keeps no interval for a record without samples. */
	if (!m->samples_nr && m->interval_s != 0) {
		jr_key(jr, "interval_s");
		return jr_fail(jr, "not 0, but the record has no samples");
	}
	jr_pop(jr, mark);
	return 0;
}

static int jr_iterations(struct jr *jr, const cJSON *run, struct run_full *rf)
{
	const cJSON *arr, *el;
	size_t mark, i = 0;

	arr = jr_array(jr, run, "iterations", JSON_MAX_ITERATIONS, &mark);
	if (!arr)
		return -1;
	cJSON_ArrayForEach(el, arr)
	{
		size_t m = jr_index(jr, i++);
		struct iteration_data *it;

		ALLOC_GROW(rf->iters, rf->iters_nr + 1, rf->iters_alloc);
		it = &rf->iters[rf->iters_nr++];
		memset(it, 0, sizeof(*it));
		if (jr_object(jr, el, iteration_fields,
			      ARRAY_SIZE(iteration_fields), it) ||
		    jr_samples(jr, el, rf, it) || jr_monitor(jr, el, it))
			return -1;
		jr_pop(jr, m);
	}
	jr_pop(jr, mark);
	return 0;
}

/* The values of a setup parameter: strings, at least one. */
static int jr_setup_values(struct jr *jr, const cJSON *obj,
			   struct setup_param *p)
{
	const struct jfield f = {
		.name = "values", .kind = JF_STRING, .max = JSON_MAX_NAME};
	const cJSON *arr, *el;
	size_t mark, i = 0;

	arr = jr_array(jr, obj, "values", JSON_MAX_OPERATIONS, &mark);
	if (!arr)
		return -1;
	if (!arr->child)
		return jr_fail(jr, "no values");
	cJSON_ArrayForEach(el, arr)
	{
		size_t m = jr_index(jr, i++);
		char *v = NULL;

		if (jr_string(jr, el, &f, &v))
			return -1;
		ALLOC_GROW(p->values, p->values_nr + 1, p->values_alloc);
		p->values[p->values_nr++] = v;
		jr_pop(jr, m);
	}
	jr_pop(jr, mark);
	return 0;
}

/* The "until" member of a setup, an object, into setup. */
static int jr_until(struct jr *jr, const cJSON *node, struct run_setup *setup)
{
	size_t mark = jr_key(jr, "until"), amark, i = 0;
	const cJSON *pct, *arr, *el;

	if (!cJSON_IsObject(node))
		return jr_type(jr, node, "null or an object");
	if (jr_object(jr, node, until_fields, ARRAY_SIZE(until_fields), NULL))
		return -1;
	pct = cJSON_GetObjectItemCaseSensitive(node, "pct");
	if (!cJSON_IsNumber(pct) || !(pct->valuedouble > 0) ||
	    pct->valuedouble > 100) {
		jr_key(jr, "pct");
		return jr_fail(jr, "expected a number above 0, at most 100");
	}
	setup->until_pct = pct->valuedouble;
	arr = jr_array(jr, node, "jobs", JSON_MAX_OPERATIONS, &amark);
	if (!arr)
		return -1;
	cJSON_ArrayForEach(el, arr)
	{
		size_t m = jr_index(jr, i++);
		struct setup_stop *st;

		ALLOC_GROW(setup->stops, setup->stops_nr + 1,
			   setup->stops_alloc);
		st = &setup->stops[setup->stops_nr++];
		memset(st, 0, sizeof(*st));
		if (jr_object(jr, el, stop_fields, ARRAY_SIZE(stop_fields), st))
			return -1;
		jr_pop(jr, m);
	}
	jr_pop(jr, amark);
	jr_pop(jr, mark);
	return 0;
}

/* An effective setup (the "setup" member of a run) into setup. */
static int jr_setup(struct jr *jr, const cJSON *node, struct run_setup *setup)
{
	const cJSON *arr, *el, *until;
	size_t mark, i = 0;

	if (jr_object(jr, node, setup_fields, ARRAY_SIZE(setup_fields), setup))
		return -1;
	until = cJSON_GetObjectItemCaseSensitive(node, "until");
	if (!cJSON_IsNull(until) && jr_until(jr, until, setup))
		return -1;
	arr = jr_array(jr, node, "params", JSON_MAX_OPERATIONS, &mark);
	if (!arr)
		return -1;
	cJSON_ArrayForEach(el, arr)
	{
		size_t m = jr_index(jr, i++);
		struct setup_param *p;

		ALLOC_GROW(setup->params, setup->params_nr + 1,
			   setup->params_alloc);
		p = &setup->params[setup->params_nr++];
		memset(p, 0, sizeof(*p));
		if (jr_object(jr, el, setup_param_fields,
			      ARRAY_SIZE(setup_param_fields), p) ||
		    jr_setup_values(jr, el, p))
			return -1;
		jr_pop(jr, m);
	}
	jr_pop(jr, mark);
	return 0;
}

/* A run's setup member, when the version has it, as canonical text. */
static int jr_run_setup(struct jr *jr, const cJSON *run, struct run_info *ri)
{
	const cJSON *node = cJSON_GetObjectItemCaseSensitive(run, "setup");
	struct run_setup setup = {0};
	size_t mark;
	int ret = -1;

	if (!node || cJSON_IsNull(node))
		return 0;
	mark = jr_key(jr, "setup");
	if (!cJSON_IsObject(node)) {
		jr_type(jr, node, "an object or null");
		goto out;
	}
	if (jr_setup(jr, node, &setup))
		goto out;
	ri->setup = json_setup_text(&setup);
	jr_pop(jr, mark);
	ret = 0;
out:
	run_setup_release(&setup);
	return ret;
}

/* The boots of a run (version 3 on): at most one per number. */
static int jr_boots(struct jr *jr, const cJSON *run, struct run_full *rf)
{
	const cJSON *arr, *el;
	size_t mark, i = 0;

	if (jr->version < 3)
		return 0;
	arr = jr_array(jr, run, "boots", JSON_MAX_ITERATIONS, &mark);
	if (!arr)
		return -1;
	cJSON_ArrayForEach(el, arr)
	{
		size_t m = jr_index(jr, i++);
		struct boot_data *b;

		ALLOC_GROW(rf->boots, rf->boots_nr + 1, rf->boots_alloc);
		b = &rf->boots[rf->boots_nr++];
		memset(b, 0, sizeof(*b));
		b->boot_s = -1.0;
		if (jr_object(jr, el, boot_fields, ARRAY_SIZE(boot_fields), b))
			return -1;
		for (size_t k = 0; k + 1 < rf->boots_nr; k++)
			if (rf->boots[k].number == b->number)
				return jr_fail(jr, "boot %" PRId64 " twice",
					       b->number);
		jr_pop(jr, m);
	}
	jr_pop(jr, mark);
	return 0;
}

/* The settings a run wrote (version 4 on), in writing order. */
static int jr_settings(struct jr *jr, const cJSON *run, struct run_full *rf)
{
	const cJSON *arr, *el;
	size_t mark, i = 0;

	if (jr->version < 4)
		return 0;
	arr = jr_array(jr, run, "settings", JSON_MAX_ITERATIONS, &mark);
	if (!arr)
		return -1;
	cJSON_ArrayForEach(el, arr)
	{
		size_t m = jr_index(jr, i++);
		struct setting_data *sd;

		ALLOC_GROW(rf->settings, rf->settings_nr + 1,
			   rf->settings_alloc);
		sd = &rf->settings[rf->settings_nr++];
		memset(sd, 0, sizeof(*sd));
		if (jr_object(jr, el, setting_fields,
			      ARRAY_SIZE(setting_fields), sd))
			return -1;
		jr_pop(jr, m);
	}
	jr_pop(jr, mark);
	return 0;
}

static int jr_run(struct jr *jr, const cJSON *run, struct run_full *rf)
{
	struct jfield mf[JR_MAX_FIELDS];
	const cJSON *node;
	size_t mark;

	if (jr_object(jr, run, run_fields, ARRAY_SIZE(run_fields), &rf->info))
		return -1;
	node = cJSON_GetObjectItemCaseSensitive(run, "config");
	mark = jr_key(jr, "config");
	if (jr_object(jr, node, config_fields, ARRAY_SIZE(config_fields),
		      &rf->info))
		return -1;
	if (rf->info.config_text && rf->info.config_hash) {
		char hash[65];

		sha256_hex(rf->info.config_text, strlen(rf->info.config_text),
			   hash);
		if (strcmp(hash, rf->info.config_hash) != 0) {
			jr_key(jr, "sha256");
			return jr_fail(jr, "not the SHA-256 of config.text");
		}
	}
	jr_pop(jr, mark);
	if (jr_run_setup(jr, run, &rf->info))
		return -1;
	node = cJSON_GetObjectItemCaseSensitive(run, "machine");
	mark = jr_key(jr, "machine");
	if (jr_object(jr, node, machine_jfields(mf), machine_fields_nr,
		      &rf->info.machine))
		return -1;
	jr_pop(jr, mark);
	return jr_boots(jr, run, rf) || jr_settings(jr, run, rf) ||
			       jr_operations(jr, run, rf) ||
			       jr_iterations(jr, run, rf)
		       ? -1
		       : 0;
}

/* The format and version, checked before anything else. */
static int jr_header(struct jr *jr, const cJSON *root)
{
	const cJSON *format, *version;
	struct jfield vf = {.name = "version",
			    .kind = JF_INT,
			    .size = sizeof(int64_t),
			    .min_int = INT64_MIN,
			    .max_int = INT64_MAX};
	int64_t v = 0;

	if (!cJSON_IsObject(root))
		return jr_type(jr, root, "an object");
	format = cJSON_GetObjectItemCaseSensitive(root, "format");
	version = cJSON_GetObjectItemCaseSensitive(root, "version");
	if (!format)
		return jr_fail(jr, "missing member 'format'");
	jr_key(jr, "format");
	if (!cJSON_IsString(format))
		return jr_type(jr, format, "a string");
	if (strcmp(format->valuestring, JSON_EXPORT_FORMAT) != 0)
		return jr_fail(
			jr,
			"'%s' is not an mmcmp export (want '" JSON_EXPORT_FORMAT
			"')",
			jr_q(jr, 0, format->valuestring));
	jr_pop(jr, 0);
	if (!version)
		return jr_fail(jr, "missing member 'version'");
	jr_key(jr, "version");
	if (jr_int(jr, version, &vf, &v))
		return -1;
	if (v < 1 || v > JSON_EXPORT_VERSION)
		return jr_fail(jr,
			       "unsupported version %" PRId64
			       " (this mmcmp reads versions 1 to %d)",
			       v, JSON_EXPORT_VERSION);
	jr->version = v;
	jr_pop(jr, 0);
	return 0;
}

static int jr_document(struct jr *jr, const cJSON *root, struct run_full **runs,
		       size_t *nr)
{
	struct jr_top top = {NULL};
	struct strmap uuids = STRMAP_INIT;
	size_t alloc = 0, mark, i = 0;
	const cJSON *arr, *el;
	int ret = -1;

	if (jr_header(jr, root) ||
	    jr_object(jr, root, top_fields, ARRAY_SIZE(top_fields), &top))
		goto out;
	arr = jr_array(jr, root, "runs", JSON_MAX_RUNS, &mark);
	if (!arr)
		goto out;
	cJSON_ArrayForEach(el, arr)
	{
		size_t m = jr_index(jr, i), other;
		struct run_full *rf;

		ALLOC_GROW(*runs, *nr + 1, alloc);
		rf = &(*runs)[(*nr)++];
		memset(rf, 0, sizeof(*rf));
		if (jr_run(jr, el, rf))
			goto out;
		if (strmap_get(&uuids, rf->info.uuid, strlen(rf->info.uuid),
			       &other)) {
			jr_key(jr, "uuid");
			jr_fail(jr, "the uuid of runs[%zu] again", other);
			goto out;
		}
		strmap_put(&uuids, rf->info.uuid, strlen(rf->info.uuid), i);
		jr_pop(jr, m);
		i++;
	}
	jr_pop(jr, mark);
	ret = 0;
out:
	free(top.generator);
	strmap_clear(&uuids);
	return ret;
}

/*
 * cJSON turns the escape \u0000 into a NUL that ends the string: refuse
 * it rather than cut a string short. Backslashes only occur in strings.
 */
static int check_nul_escapes(const char *name, const char *text, size_t len,
			     struct strbuf *err)
{
	struct strbuf msg = STRBUF_INIT;

	for (size_t i = 0; i + 1 < len; i++) {
		if (text[i] != '\\')
			continue;
		if (text[i + 1] == 'u' && i + 6 <= len &&
		    !memcmp(text + i + 2, "0000", 4)) {
			json_add_position(&msg, text, i);
			error_addf(err, "%s: %s: a string holds \\u0000", name,
				   msg.buf);
			strbuf_release(&msg);
			return -1;
		}
		i++;
	}
	return 0;
}

int json_setup_parse(const char *text, struct run_setup *setup,
		     struct strbuf *err)
{
	struct jr jr = {
		.file = "setup",
		.path = STRBUF_INIT,
		.scratch = {STRBUF_INIT, STRBUF_INIT},
		.err = err,
		.version = JSON_EXPORT_VERSION,
	};
	struct strbuf msg = STRBUF_INIT;
	cJSON *root = json_parse(text, strlen(text), &msg);
	int ret = -1;

	if (!root) {
		error_addf(err, "setup: %s", msg.buf);
		goto out;
	}
	ret = jr_setup(&jr, root, setup);
out:
	cJSON_Delete(root);
	strbuf_release(&jr.path);
	strbuf_release(&jr.scratch[0]);
	strbuf_release(&jr.scratch[1]);
	strbuf_release(&msg);
	return ret;
}

int json_import(const char *name, const char *text, size_t len,
		struct run_full **runs, size_t *nr, struct strbuf *err)
{
	struct jr jr = {
		.file = name,
		.path = STRBUF_INIT,
		.scratch = {STRBUF_INIT, STRBUF_INIT},
		.err = err,
	};
	struct strbuf msg = STRBUF_INIT;
	cJSON *root = NULL;
	int ret = -1;

	*runs = NULL;
	*nr = 0;
	if (len > JSON_IMPORT_MAX_BYTES) {
		error_addf(err,
			   "%s: too large (%zu bytes, at most %zu); export"
			   " fewer labels per file",
			   name, len, JSON_IMPORT_MAX_BYTES);
		goto out;
	}
	if (json_skip_space(text, 0, len) == len) {
		error_addf(err, "%s: empty, not JSON", name);
		goto out;
	}
	if (check_nul_escapes(name, text, len, err))
		goto out;
	root = json_parse_terminated(text, len, &msg);
	if (!root) {
		error_addf(err, "%s: %s", name, msg.buf);
		goto out;
	}
	ret = jr_document(&jr, root, runs, nr);
out:
	if (ret) {
		run_full_free_array(*runs, *nr);
		*runs = NULL;
		*nr = 0;
	}
	cJSON_Delete(root);
	strbuf_release(&jr.path);
	strbuf_release(&jr.scratch[0]);
	strbuf_release(&jr.scratch[1]);
	strbuf_release(&msg);
	return ret;
}
