/* compare-provenance: what went into a comparison, and what differs. */
#include "compare-provenance.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "machine.h"
#include "run-data.h"
#include "run-setup.h"
#include "strbuf.h"
#include "util.h"

/* One run as the facts see it. */
struct prov_run {
	int64_t id;
	const struct run_info *info;
	const struct run_boot *boot; /* its first that answered, or NULL */
	struct run_setup setup;
	bool has_setup;
	const struct strvec *settings; /* the run_source's */
};

/* The runs of one label, oldest first. */
struct prov_label {
	const char *name;
	struct prov_run *runs;
	size_t nr;
};

enum fact_kind {
	FACT_CONFIG,
	FACT_CONFIG_NAME,
	FACT_PARAMS,
	FACT_ITERATIONS,
	FACT_WARMUP,
	FACT_UNTIL,
	FACT_SETTINGS,
	FACT_MACHINE,
	FACT_GUEST,
};

struct fact {
	enum fact_kind kind;
	const char *name;
	const struct machine_field *field; /* FACT_MACHINE, FACT_GUEST */
};

static const struct fact setup_facts[] = {
	{FACT_CONFIG, "config_sha256", NULL},
	{FACT_CONFIG_NAME, "config_name", NULL},
	{FACT_PARAMS, "params", NULL},
	{FACT_ITERATIONS, "iterations", NULL},
	{FACT_WARMUP, "warmup", NULL},
	{FACT_UNTIL, "until", NULL},
	{FACT_SETTINGS, "settings", NULL},
};

/* The kernel's release and version: what a comparison is about. */
static bool is_kernel_field(const struct machine_field *f)
{
	return f->offset == offsetof(struct machine_info, kernel_release) ||
	       f->offset == offsetof(struct machine_info, kernel_version);
}

/* A machine fact as text, numbers in the unit `mmcmp show` uses. */
static bool machine_value(const struct machine_field *f,
			  const struct machine_info *m, struct strbuf *out)
{
	int64_t n;

	if (f->kind != MACHINE_INT || !f->show.shift)
		return machine_field_text(f, m, out);
	n = machine_field_int(f, m);
	if (n <= 0)
		return false;
	strbuf_addf(out, "%" PRId64 "%s", n >> f->show.shift,
		    f->show.unit ? f->show.unit : "");
	return true;
}

static void params_text(const struct run_setup *s, struct strbuf *out)
{
	for (size_t i = 0; i < s->params_nr; i++) {
		const struct setup_param *p = &s->params[i];

		strbuf_addf(out, "%s%s.%s=", i ? " " : "", p->workload,
			    p->name);
		for (size_t k = 0; k < p->values_nr; k++)
			strbuf_addf(out, "%s%s", k ? "," : "", p->values[k]);
	}
	if (!s->params_nr)
		strbuf_addstr(out, "none");
}

/*
 * "PATH=NEW PATH=NEW" of settings ("PATH OLD -> NEW" each), "none"
 * without any: what was written, not what it replaced.
 */
static void settings_text(const struct strvec *settings, struct strbuf *out)
{
	for (size_t i = 0; settings && i < settings->nr; i++) {
		const char *s = settings->v[i];
		const char *arrow = strstr(s, " -> ");
		size_t path = strcspn(s, " ");

		strbuf_addf(out, "%s%.*s=%s", i ? " " : "", (int)path, s,
			    arrow ? arrow + 4 : "");
	}
	if (!settings || !settings->nr)
		strbuf_addstr(out, "none");
}

/* Append fact f of run r to out; false, appending nothing, if unknown. */
static bool fact_value(const struct fact *f, const struct prov_run *r,
		       struct strbuf *out)
{
	const char *s;

	switch (f->kind) {
	case FACT_CONFIG:
		s = r->info->config_hash;
		if (!s || !*s)
			return false;
		strbuf_add(out, s, strnlen(s, COMPARE_PROV_SHA_SHORT));
		return true;
	case FACT_CONFIG_NAME:
		s = r->info->config_name;
		if (!s || !*s)
			return false;
		strbuf_addstr(out, s);
		return true;
	case FACT_PARAMS:
		if (r->has_setup)
			params_text(&r->setup, out);
		return r->has_setup;
	case FACT_ITERATIONS:
		if (r->has_setup)
			strbuf_addf(out, "%" PRId64, r->setup.iterations);
		return r->has_setup;
	case FACT_WARMUP:
		if (r->has_setup)
			strbuf_addf(out, "%" PRId64, r->setup.warmup);
		return r->has_setup;
	case FACT_UNTIL:
		if (!r->has_setup)
			return false;
		if (r->setup.until_pct > 0)
			strbuf_addf(out, "%g%%", r->setup.until_pct);
		else
			strbuf_addstr(out, "off");
		return true;
	case FACT_SETTINGS:
		settings_text(r->settings, out);
		return true;
	case FACT_MACHINE:
		return machine_value(f->field, &r->info->machine, out);
	case FACT_GUEST:
		return r->boot && r->boot->has_guest &&
		       machine_value(f->field, &r->boot->guest, out);
	}
	return false;
}

/*
 * Push "NAME: 'v' in A, 'w' in B" onto warnings when the known values of
 * the runs differ; who[i] names run i ("base", "run 3").
 */
static void diff_line(const struct fact *f, const char *within,
		      const struct prov_run *const *runs, const char **who,
		      const int64_t *ids, size_t nr, struct strvec *warnings)
{
	struct strbuf line = STRBUF_INIT, first = STRBUF_INIT, v = STRBUF_INIT;
	bool seen = false, differ = false;

	if (f->kind == FACT_GUEST)
		strbuf_addstr(&line, "guest ");
	strbuf_addstr(&line, f->name);
	if (within)
		strbuf_addf(&line, " within %s", within);
	strbuf_addch(&line, ':');
	for (size_t i = 0; i < nr; i++) {
		strbuf_reset(&v);
		if (!fact_value(f, runs[i], &v))
			continue;
		if (!seen)
			strbuf_addstr(&first, v.buf);
		else if (strcmp(first.buf, v.buf) != 0)
			differ = true;
		strbuf_addf(&line, "%s '%s' in ", seen ? "," : "", v.buf);
		if (who)
			strbuf_addstr(&line, who[i]);
		else
			strbuf_addf(&line, "run %" PRId64, ids[i]);
		seen = true;
	}
	if (differ)
		strvec_push(warnings, line.buf);
	strbuf_release(&line);
	strbuf_release(&first);
	strbuf_release(&v);
}

/* The facts, in the order of the warnings: setup, machine, guest. */
static struct fact *facts_list(bool vm, size_t *nr)
{
	struct fact *v = xcalloc(
		ARRAY_SIZE(setup_facts) + 2 * machine_fields_nr, sizeof(*v));
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(setup_facts); i++)
		v[n++] = setup_facts[i];
	for (size_t i = 0; i < machine_fields_nr; i++)
		v[n++] = (struct fact){FACT_MACHINE, machine_fields[i].name,
				       &machine_fields[i]};
	for (size_t i = 0; vm && i < machine_fields_nr; i++)
		v[n++] = (struct fact){FACT_GUEST, machine_fields[i].name,
				       &machine_fields[i]};
	*nr = n;
	return v;
}

static bool kernel_fact(const struct fact *f)
{
	return f->field && is_kernel_field(f->field);
}

/*
 * Facts compared only among a label's own runs: the kernel (what labels
 * differ in) and the config's name, which labels may well differ in while
 * their text (config_sha256) is the same.
 */
static bool within_only_fact(const struct fact *f)
{
	return kernel_fact(f) || f->kind == FACT_CONFIG_NAME;
}

/* The differences between labels (their first runs) and within each. */
static void differences(const struct prov_label *pl, size_t nr, bool vm,
			struct strvec *warnings)
{
	const struct prov_run **runs = xcalloc(nr + 1, sizeof(*runs));
	const char **who = xcalloc(nr + 1, sizeof(*who));
	size_t facts_nr;
	struct fact *facts = facts_list(vm, &facts_nr);

	for (size_t f = 0; f < facts_nr; f++) {
		size_t k = 0;

		if (within_only_fact(&facts[f]))
			continue;
		for (size_t i = 0; i < nr; i++) {
			if (!pl[i].nr)
				continue;
			runs[k] = &pl[i].runs[0];
			who[k++] = pl[i].name;
		}
		diff_line(&facts[f], NULL, runs, who, NULL, k, warnings);
	}
	for (size_t i = 0; i < nr; i++) {
		const struct prov_run **own;
		int64_t *ids;

		if (pl[i].nr < 2)
			continue;
		own = xcalloc(pl[i].nr, sizeof(*own));
		ids = xcalloc(pl[i].nr, sizeof(*ids));
		for (size_t r = 0; r < pl[i].nr; r++) {
			own[r] = &pl[i].runs[r];
			ids[r] = pl[i].runs[r].id;
		}
		for (size_t f = 0; f < facts_nr; f++)
			diff_line(&facts[f], pl[i].name, own, NULL, ids,
				  pl[i].nr, warnings);
		free(own);
		free(ids);
	}
	free(facts);
	free(runs);
	free(who);
}

/* "a", "a and b", "a, b and c" of the labels marked in group[]. */
static void names_list(const struct prov_label *pl, const bool *group,
		       size_t nr, struct strbuf *out)
{
	size_t total = 0, k = 0;

	for (size_t i = 0; i < nr; i++)
		total += group[i];
	for (size_t i = 0; i < nr; i++) {
		if (!group[i])
			continue;
		if (k)
			strbuf_addstr(out, k + 1 == total ? " and " : ", ");
		strbuf_addstr(out, pl[i].name);
		k++;
	}
}

/* Whether two runs were recorded by one mmcmp process (builds). */
static bool same_process(const struct run_info *a, const struct run_info *b)
{
	return a->pid && a->pid == b->pid && a->pid_start == b->pid_start &&
	       a->machine.hostname && b->machine.hostname &&
	       !strcmp(a->machine.hostname, b->machine.hostname);
}

static const char *str_or(const char *s, const char *dflt)
{
	return s ? s : dflt;
}

/*
 * The key a label groups by, into key; false when it has none: the host
 * and its kernel of a label that did not boot kernels, the image and
 * command line of one that did.
 */
static bool group_key(const struct prov_label *l, bool image,
		      struct strbuf *key)
{
	const struct run_info *ri;
	const struct run_boot *b;

	if (!l->nr)
		return false;
	ri = l->runs[0].info;
	b = l->runs[0].boot;
	if (image) {
		if (!b || !b->image_sha256)
			return false;
		strbuf_addf(key, "%s\n%s", b->image_sha256,
			    b->guest_cmdline ? b->guest_cmdline
					     : str_or(b->append, ""));
		return true;
	}
	if (b || !ri->machine.kernel_release || !ri->machine.kernel_version)
		return false;
	/* The host too: one kernel on two machines needs no reboot. */
	strbuf_addf(key, "%s\n%s\n%s\n%s", ri->machine.kernel_release,
		    ri->machine.kernel_version,
		    str_or(ri->machine.kernel_config_sha256, ""),
		    str_or(ri->machine.hostname, ""));
	return true;
}

/*
 * Group the labels with equal keys: same kernel (notes) or, with image,
 * same image and command line (warnings).
 */
static void same_groups(const struct prov_label *pl, size_t nr, bool image,
			struct strvec *out)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, line = STRBUF_INIT;
	bool *done = xcalloc(nr + 1, sizeof(*done));
	bool *group = xcalloc(nr + 1, sizeof(*group));

	for (size_t i = 0; i < nr; i++) {
		size_t members = 1;

		strbuf_reset(&a);
		if (done[i] || !group_key(&pl[i], image, &a))
			continue;
		memset(group, 0, (nr + 1) * sizeof(*group));
		group[i] = true;
		for (size_t j = i + 1; j < nr; j++) {
			strbuf_reset(&b);
			if (done[j] || !group_key(&pl[j], image, &b) ||
			    strcmp(a.buf, b.buf) != 0)
				continue;
			if (!image && same_process(pl[i].runs[0].info,
						   pl[j].runs[0].info))
				continue;
			group[j] = done[j] = true;
			members++;
		}
		if (members < 2)
			continue;
		strbuf_reset(&line);
		names_list(pl, group, nr, &line);
		if (image) {
			strbuf_addstr(&line, " booted the same image (sha256 ");
			strbuf_add(&line, a.buf,
				   strnlen(a.buf, COMPARE_PROV_SHA_SHORT));
			strbuf_addstr(&line, ") with the same command line");
		} else {
			const struct machine_info *m =
				&pl[i].runs[0].info->machine;

			strbuf_addf(&line,
				    " ran the same kernel (%s, one version "
				    "and config): was the machine rebooted "
				    "into the kernel under test?",
				    m->kernel_release);
		}
		strvec_push(out, line.buf);
	}
	free(done);
	free(group);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&line);
}

static char *dup_or_null(const char *s)
{
	return s && *s ? xstrdup(s) : NULL;
}

/* The distinct config names of the label's runs, ", " between them. */
static char *config_names(const struct prov_label *pl,
			  const struct run_info *first)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t r = 0; r < pl->nr; r++) {
		const char *name = pl->runs[r].info->config_name;
		bool seen = false;

		if (!name || !*name)
			continue;
		for (size_t q = 0; q < r && !seen; q++)
			seen = pl->runs[q].info->config_name &&
			       !strcmp(pl->runs[q].info->config_name, name);
		if (seen)
			continue;
		if (sb.len)
			strbuf_addstr(&sb, ", ");
		strbuf_addstr(&sb, name);
	}
	if (!pl->nr && first->config_name)
		strbuf_addstr(&sb, first->config_name);
	if (!sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}

/* The label's line of the block, from rd and its runs. */
static void label_fill(struct compare_prov_label *out,
		       const struct run_data *rd, const struct prov_label *pl)
{
	const struct run_info *ri = pl->nr ? pl->runs[0].info : &rd->info;
	const struct run_boot *b = pl->nr ? pl->runs[0].boot : NULL;

	out->runs = rd->sources_nr;
	for (size_t i = 0; i < rd->sources_nr; i++) {
		out->iterations += rd->sources[i].iterations;
		out->samples += rd->sources[i].samples;
		out->boots += rd->sources[i].boots_nr;
	}
	out->kernel_release = dup_or_null(ri->machine.kernel_release);
	out->host = dup_or_null(ri->machine.hostname);
	out->config_name = config_names(pl, ri);
	out->vm = out->boots > 0;
	if (!b)
		return;
	out->guest_release = dup_or_null(b->guest_release);
	out->guest_cmdline = dup_or_null(b->guest_cmdline);
	out->image = dup_or_null(b->image);
	out->image_sha256 = dup_or_null(b->image_sha256);
}

/* The first boot of src whose guest answered, else its first, or NULL. */
static const struct run_boot *first_boot(const struct run_source *src)
{
	for (size_t i = 0; i < src->boots_nr; i++)
		if (src->boots[i].has_guest)
			return &src->boots[i];
	return src->boots_nr ? &src->boots[0] : NULL;
}

/*
 * A warning per label some of whose boots ran under QEMU's TCG: an
 * emulated CPU, whose timings say nothing about the machine's.
 */
static void emulated(const struct run_data *runs, char *const *labels,
		     size_t nr, struct strvec *warnings)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < nr; i++) {
		size_t tcg = 0, boots = 0;

		for (size_t r = 0; r < runs[i].sources_nr; r++) {
			const struct run_source *src = &runs[i].sources[r];

			for (size_t b = 0; b < src->boots_nr; b++) {
				boots++;
				tcg += src->boots[b].accel &&
				       !strcmp(src->boots[b].accel, "tcg");
			}
		}
		if (!tcg)
			continue;
		strbuf_reset(&sb);
		strbuf_addf(&sb,
			    "accel: tcg in %s (%zu of %zu boots): an emulated "
			    "CPU, its timings are not the machine's",
			    labels[i], tcg, boots);
		strvec_push(warnings, sb.buf);
	}
	strbuf_release(&sb);
}

struct compare_provenance *compare_provenance_new(const struct run_data *runs,
						  char *const *labels,
						  size_t nr)
{
	struct compare_provenance *p;
	struct prov_label *pl;
	bool any = false;

	for (size_t i = 0; i < nr; i++)
		any |= runs[i].sources_nr > 0;
	if (!any)
		return NULL;
	p = xcalloc(1, sizeof(*p));
	strvec_init(&p->warnings);
	strvec_init(&p->notes);
	p->labels = xcalloc(nr, sizeof(*p->labels));
	p->labels_nr = nr;
	pl = xcalloc(nr, sizeof(*pl));
	for (size_t i = 0; i < nr; i++) {
		pl[i].name = labels[i];
		pl[i].nr = runs[i].sources_nr;
		pl[i].runs = xcalloc(pl[i].nr + 1, sizeof(*pl[i].runs));
		for (size_t r = 0; r < pl[i].nr; r++) {
			const struct run_source *src = &runs[i].sources[r];
			struct prov_run *pr = &pl[i].runs[r];
			struct strbuf err = STRBUF_INIT;

			pr->id = src->info.id;
			pr->info = &src->info;
			pr->boot = first_boot(src);
			pr->settings = &src->settings;
			pr->has_setup = src->info.setup &&
					!run_setup_parse(src->info.setup,
							 &pr->setup, &err);
			strbuf_release(&err);
		}
		label_fill(&p->labels[i], &runs[i], &pl[i]);
		p->has_vm |= p->labels[i].vm;
	}
	emulated(runs, labels, nr, &p->warnings);
	differences(pl, nr, p->has_vm, &p->warnings);
	same_groups(pl, nr, true, &p->warnings);
	same_groups(pl, nr, false, &p->notes);
	for (size_t i = 0; i < nr; i++) {
		for (size_t r = 0; r < pl[i].nr; r++)
			run_setup_release(&pl[i].runs[r].setup);
		free(pl[i].runs);
	}
	free(pl);
	return p;
}

void compare_provenance_free(struct compare_provenance *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->labels_nr; i++) {
		struct compare_prov_label *l = &p->labels[i];

		free(l->kernel_release);
		free(l->host);
		free(l->config_name);
		free(l->guest_release);
		free(l->guest_cmdline);
		free(l->image);
		free(l->image_sha256);
	}
	free(p->labels);
	strvec_clear(&p->warnings);
	strvec_clear(&p->notes);
	free(p);
}
