/* store-boot: the boots of a run with kernels (db/migrations/0007). */
#include "store.h"

#include <inttypes.h>
#include <string.h>

#include <sqlite3.h>

#include "executor.h"
#include "machine.h"
#include "run-data.h"
#include "store-internal.h"
#include "strbuf.h"
#include "parse-num.h"
#include "util.h"

static const char boot_sql[] =
	"INSERT INTO boot (run_id, number, kernel, image, image_sha256,"
	" image_release, append, accel, cpus, memory_mb, qemu_version,"
	" qemu_cmdline, boot_s, guest_release, guest_cmdline, guest_facts,"
	" failed, pinning)"
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14,"
	" ?15, ?16, ?17, ?18)";

/* The guest's machine facts as "name=value" lines. */
static void facts_text(const struct machine_info *mi, struct strbuf *out)
{
	for (size_t i = 0; i < machine_fields_nr; i++) {
		size_t len = out->len;

		strbuf_addf(out, "%s=", machine_fields[i].name);
		if (machine_field_text(&machine_fields[i], mi, out))
			strbuf_addch(out, '\n');
		else
			strbuf_setlen(out, len);
	}
}

int store_boot_add_full(struct store *st, int64_t run_id,
			const struct boot_data *b, struct strbuf *err)
{
	sqlite3_stmt *stmt = NULL;
	int ret = -1;

	if (sqlite3_prepare_v2(st->db, boot_sql, -1, &stmt, NULL) !=
	    SQLITE_OK) {
		store_fail(st, err, "prepare the boot insert");
		goto out;
	}
	if (sqlite3_bind_int64(stmt, 1, run_id) ||
	    sqlite3_bind_int64(stmt, 2, b->number) ||
	    store_bind_text(stmt, 3, b->kernel) ||
	    store_bind_text(stmt, 4, b->image) ||
	    store_bind_text(stmt, 5, b->image_sha256) ||
	    store_bind_text(stmt, 6, b->image_release) ||
	    store_bind_text(stmt, 7, b->append) ||
	    store_bind_text(stmt, 8, b->accel) ||
	    sqlite3_bind_int64(stmt, 9, b->cpus) ||
	    sqlite3_bind_int64(stmt, 10, b->memory_mb) ||
	    store_bind_text(stmt, 11, b->qemu_version) ||
	    store_bind_text(stmt, 12, b->qemu_cmdline) ||
	    (b->boot_s >= 0 ? sqlite3_bind_double(stmt, 13, b->boot_s)
			    : sqlite3_bind_null(stmt, 13)) ||
	    store_bind_text(stmt, 14, b->guest_release) ||
	    store_bind_text(stmt, 15, b->guest_cmdline) ||
	    store_bind_text(stmt, 16, b->guest_facts) ||
	    store_bind_text(stmt, 17, b->failed) ||
	    store_bind_text(stmt, 18, b->pinning) ||
	    sqlite3_step(stmt) != SQLITE_DONE) {
		store_fail(st, err, "store boot %" PRId64 " of run %" PRId64,
			   b->number, run_id);
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(stmt);
	return ret;
}

int store_boot_add(struct store *st, int64_t run_id,
		   const struct executor_boot_info *b, struct strbuf *err)
{
	const struct machine_info *g = b->guest;
	struct strbuf facts = STRBUF_INIT;
	struct store_tx tx;
	/* Borrowed strings: nothing of it is freed. */
	struct boot_data row = {
		.number = b->number,
		.kernel = b->kernel,
		.image = b->image,
		.image_sha256 = b->image_sha256,
		.image_release = b->image_release,
		.append = b->append,
		.accel = b->accel,
		.cpus = b->cpus,
		.memory_mb = b->memory_mb,
		.qemu_version = b->qemu_version,
		.qemu_cmdline = b->qemu_cmdline,
		.boot_s = b->boot_s,
		.pinning = b->pinning,
		.guest_release = g ? g->kernel_release : NULL,
		.guest_cmdline = g ? g->cmdline : NULL,
		.failed = b->failed.len ? b->failed.buf : NULL,
	};
	int ret;

	if (g)
		facts_text(g, &facts);
	/* The watchdog is a fact of the boot, kept with the guest's. */
	if (g && b->watchdog)
		strbuf_addf(&facts, "watchdog=%s\n", b->watchdog);
	row.guest_facts = g ? facts.buf : NULL;
	if (store_tx_open(st, true, &tx, err)) {
		strbuf_release(&facts);
		return -1;
	}
	ret = store_boot_add_full(st, run_id, &row, err);
	strbuf_release(&facts);
	return store_tx_close(st, &tx, ret, err);
}

/* A row of store_boot_load_full()'s query: one boot, appended to data. */
static int boot_row(sqlite3_stmt *stmt, void *data, struct strbuf *err)
{
	struct run_full *rf = data;
	struct boot_data *b;

	(void)err;
	ALLOC_GROW(rf->boots, rf->boots_nr + 1, rf->boots_alloc);
	b = &rf->boots[rf->boots_nr++];
	memset(b, 0, sizeof(*b));
	b->number = sqlite3_column_int64(stmt, 0);
	b->kernel = store_column_strdup(stmt, 1);
	b->image = store_column_strdup(stmt, 2);
	b->image_sha256 = store_column_strdup(stmt, 3);
	b->image_release = store_column_strdup(stmt, 4);
	b->append = store_column_strdup(stmt, 5);
	b->accel = store_column_strdup(stmt, 6);
	b->cpus = sqlite3_column_int64(stmt, 7);
	b->memory_mb = sqlite3_column_int64(stmt, 8);
	b->qemu_version = store_column_strdup(stmt, 9);
	b->qemu_cmdline = store_column_strdup(stmt, 10);
	b->boot_s = sqlite3_column_type(stmt, 11) == SQLITE_NULL
			    ? -1.0
			    : sqlite3_column_double(stmt, 11);
	b->pinning = store_column_strdup(stmt, 12);
	b->guest_release = store_column_strdup(stmt, 13);
	b->guest_cmdline = store_column_strdup(stmt, 14);
	b->guest_facts = store_column_strdup(stmt, 15);
	b->failed = store_column_strdup(stmt, 16);
	return 0;
}

int store_boot_load_full(struct store *st, int64_t run_id, struct run_full *rf,
			 struct strbuf *err)
{
	static const char sql[] =
		"SELECT number, kernel, image, image_sha256, image_release,"
		" append, accel, cpus, memory_mb, qemu_version, qemu_cmdline,"
		" boot_s, pinning, guest_release, guest_cmdline, guest_facts,"
		" failed FROM boot WHERE run_id = ?1 ORDER BY number";
	sqlite3_stmt *stmt = NULL;
	int ret = -1;

	if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) != SQLITE_OK ||
	    sqlite3_bind_int64(stmt, 1, run_id)) {
		store_fail(st, err, "read the boots of run %" PRId64, run_id);
		goto out;
	}
	ret = store_each_row(st, stmt, boot_row, rf, err,
			     "read the boots of run %" PRId64, run_id);
out:
	sqlite3_finalize(stmt);
	return ret;
}

/* Fill m from "name=value" lines as facts_text() writes them. */
static void facts_parse(const char *text, struct machine_info *m)
{
	while (text && *text) {
		const char *eol = strchr(text, '\n');
		size_t len = eol ? (size_t)(eol - text) : strlen(text);
		const char *eq = memchr(text, '=', len);

		for (size_t i = 0; eq && i < machine_fields_nr; i++) {
			const struct machine_field *f = &machine_fields[i];
			char *v;

			if (strlen(f->name) != (size_t)(eq - text) ||
			    strncmp(f->name, text, (size_t)(eq - text)))
				continue;
			v = xstrndup(eq + 1, (size_t)(text + len - eq - 1));
			if (f->kind == MACHINE_INT) {
				if (!parse_int64(v, 0, f->max,
						 machine_field_int_at(f, m)))
					*machine_field_int_at(f, m) = 0;
				free(v);
			} else {
				free(*machine_field_str_at(f, m));
				*machine_field_str_at(f, m) = v;
			}
			break;
		}
		text = eol ? eol + 1 : NULL;
	}
}

int store_load_boots(struct store *st, int64_t run_id, struct run_source *src,
		     struct strbuf *err)
{
	struct run_full rf;
	int ret = -1;

	memset(&rf, 0, sizeof(rf));
	if (store_boot_load_full(st, run_id, &rf, err))
		goto out;
	for (size_t i = 0; i < rf.boots_nr; i++) {
		struct boot_data *d = &rf.boots[i];
		struct run_boot *b;

		ALLOC_GROW(src->boots, src->boots_nr + 1, src->boots_alloc);
		b = &src->boots[src->boots_nr++];
		memset(b, 0, sizeof(*b));
		b->number = d->number;
		/* The strings move; what stays behind is freed below. */
		b->kernel = d->kernel;
		b->image = d->image;
		b->image_sha256 = d->image_sha256;
		b->append = d->append;
		b->guest_release = d->guest_release;
		b->guest_cmdline = d->guest_cmdline;
		d->kernel = d->image = d->image_sha256 = d->append = NULL;
		d->guest_release = d->guest_cmdline = NULL;
		b->accel = d->accel;
		d->accel = NULL;
		b->has_guest = d->guest_facts != NULL;
		facts_parse(d->guest_facts, &b->guest);
	}
	ret = 0;
out:
	for (size_t i = 0; i < rf.boots_nr; i++)
		boot_data_release(&rf.boots[i]);
	free(rf.boots);
	return ret;
}
