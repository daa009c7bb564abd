/* config-kernels: kernels x builds, --kernel and the boot order. */
#include "config.h"

#include <ctype.h>
#include <string.h>

#include "parse-num.h"
#include "strbuf.h"
#include "util.h"

bool config_kernel_name_ok(const char *name)
{
	if (!*name || strlen(name) > 64)
		return false;
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._-", *p))
			return false;
	return true;
}

int config_parse_memory(const char *s, int64_t *mb)
{
	size_t len = s ? strlen(s) : 0;
	int64_t v, shift_kb;
	char num[32];

	if (!len || len >= sizeof(num))
		return -1;
	switch (toupper((unsigned char)s[len - 1])) {
	case 'K':
		shift_kb = 1;
		break;
	case 'M':
		shift_kb = 1024;
		break;
	case 'G':
		shift_kb = (int64_t)1024 * 1024;
		break;
	default:
		return -1;
	}
	memcpy(num, s, len - 1);
	num[len - 1] = '\0';
	if (!parse_int64(num, 1, INT64_C(1) << 40, &v))
		return -1;
	v = v * shift_kb / 1024;
	if (v < 64)
		return -1;
	*mb = v;
	return 0;
}

/*
 * The first ",KEY=" of s, KEY being lowercase letters and '_': where the
 * image's options start (an image path may hold a comma, but not one
 * followed by such a key). NULL when there is none.
 */
static const char *options_start(const char *s)
{
	for (const char *p = strchr(s, ','); p; p = strchr(p + 1, ',')) {
		size_t n = strspn(p + 1, "abcdefghijklmnopqrstuvwxyz_");

		if (n && p[1 + n] == '=')
			return p;
	}
	return NULL;
}

int config_add_kernel(struct config *cfg, const char *spec, struct strbuf *err)
{
	const char *eq = strchr(spec, '=');
	const char *append = eq ? options_start(eq + 1) : NULL;
	struct kernel_spec *ks = NULL;
	char *name, *image;

	if (!eq || eq == spec)
		return error_addf(err,
				  "bad --kernel '%s': NAME=IMAGE[,append=...]",
				  spec);
	if (append && strncmp(append, ",append=", strlen(",append=")))
		return error_addf(err,
				  "bad --kernel '%s': unknown key '%.*s'"
				  " (the only key is append)",
				  spec, (int)strcspn(append + 1, "="),
				  append + 1);
	name = xstrndup(spec, (size_t)(eq - spec));
	image = xstrndup(eq + 1,
			 append ? (size_t)(append - eq - 1) : strlen(eq + 1));
	if (!config_kernel_name_ok(name) || !*image) {
		error_addf(err,
			   "bad --kernel '%s': NAME=IMAGE[,append=...] with "
			   "a name of letters, digits, '.', '_' and '-'",
			   spec);
		free(name);
		free(image);
		return -1;
	}
	for (size_t i = 0; i < cfg->kernels_nr; i++)
		if (!strcmp(cfg->kernels[i].name, name))
			ks = &cfg->kernels[i];
	if (!ks) {
		ALLOC_GROW(cfg->kernels, cfg->kernels_nr + 1,
			   cfg->kernels_alloc);
		ks = &cfg->kernels[cfg->kernels_nr++];
		memset(ks, 0, sizeof(*ks));
		ks->name = name;
	} else {
		free(name);
		free(ks->image);
		free(ks->append);
		ks->append = NULL;
	}
	ks->image = image;
	if (append)
		ks->append = xstrdup(append + strlen(",append="));
	return 0;
}

static void copy_kv(struct kv_list *to, const struct kv_list *from)
{
	for (size_t i = 0; i < from->nr; i++) {
		ALLOC_GROW(to->v, to->nr + 1, to->alloc);
		to->v[to->nr].key = xstrdup(from->v[i].key);
		to->v[to->nr++].value = xstrdup(from->v[i].value);
	}
}

static void copy_commands(struct command_list *to,
			  const struct command_list *from)
{
	for (size_t i = 0; i < from->nr; i++) {
		ALLOC_GROW(to->v, to->nr + 1, to->alloc);
		strvec_init(&to->v[to->nr]);
		strvec_pushv(&to->v[to->nr++], from->v[i].v);
	}
}

/*
 * `settings:` are written by the host, so with kernels they would change
 * the host and not the guests: refuse the first, naming the kernel
 * command line parameter that sets it in a guest where one is known.
 */
static int refuse_settings(const struct kv_list *kv, const char *where,
			   struct strbuf *err)
{
	static const char thp[] = "/sys/kernel/mm/transparent_hugepage/enabled";
	struct strbuf hint = STRBUF_INIT;
	const char *key, *value;

	if (!kv->nr)
		return 0;
	key = kv->v[0].key;
	value = kv->v[0].value;
	if (!strncmp(key, "/proc/sys/", 10)) {
		strbuf_addstr(&hint, "sysctl.");
		for (const char *p = key + 10; *p; p++)
			strbuf_addch(&hint, *p == '/' ? '.' : *p);
		strbuf_addf(&hint, "=%s", value);
	} else if (!strcmp(key, thp)) {
		strbuf_addf(&hint, "transparent_hugepage=%s", value);
	}
	error_addf(err,
		   "%s: setting '%s' cannot be used with kernels: it would "
		   "be written on the host, not in the guests; set it on the "
		   "kernel's command line instead (%s%s%s)",
		   where, key,
		   hint.len ? "append: \"" : "the kernel's `append:`", hint.buf,
		   hint.len ? "\"" : "");
	strbuf_release(&hint);
	return -1;
}

int config_expand_kernels(struct config *cfg, struct strbuf *err)
{
	size_t nb = cfg->builds_nr ? cfg->builds_nr : 1, nr = 0;
	struct build_spec *builds;

	if (!cfg->kernels_nr)
		return 0;
	/* On the machine itself, settings and cgroups are the local run's. */
	if (cfg->machine.set)
		goto expand;
	if (refuse_settings(&cfg->settings, cfg->path ? cfg->path : cfg->name,
			    err))
		return -1;
	for (size_t b = 0; b < cfg->builds_nr; b++) {
		struct strbuf where = STRBUF_INIT;
		int r;

		strbuf_addf(&where, "build '%s'", cfg->builds[b].name);
		r = refuse_settings(&cfg->builds[b].settings, where.buf, err);
		strbuf_release(&where);
		if (r)
			return -1;
	}
	if (cfg->cgroup.path)
		return error_addf(err,
				  "%s: 'cgroup' cannot be used with "
				  "kernels: the guests run the workloads",
				  cfg->path ? cfg->path : cfg->name);
	for (size_t b = 0; b < cfg->builds_nr; b++)
		if (cfg->builds[b].cgroup.path)
			return error_addf(err,
					  "build '%s': 'cgroup' cannot be used "
					  "with kernels",
					  cfg->builds[b].name);
expand:
	builds = xcalloc(cfg->kernels_nr * nb, sizeof(*builds));
	for (size_t k = 0; k < cfg->kernels_nr; k++) {
		for (size_t b = 0; b < nb; b++) {
			const struct build_spec *from =
				cfg->builds_nr ? &cfg->builds[b] : NULL;
			struct build_spec *to = &builds[nr++];
			struct strbuf name = STRBUF_INIT;

			strvec_init(&to->prefix);
			strvec_init(&to->cgroup.controllers);
			if (from)
				strbuf_addf(&name, "%s-", from->name);
			strbuf_addstr(&name, cfg->kernels[k].name);
			to->name = strbuf_detach(&name, NULL);
			to->kernel = k;
			if (!from) {
				to->line = cfg->kernels[k].line;
				to->col = cfg->kernels[k].col;
				continue;
			}
			copy_kv(&to->env, &from->env);
			strvec_pushv(&to->prefix, from->prefix.v);
			to->cwd = from->cwd ? xstrdup(from->cwd) : NULL;
			copy_commands(&to->setup, &from->setup);
			copy_commands(&to->teardown, &from->teardown);
			copy_commands(&to->prepare, &from->prepare);
			copy_commands(&to->conclude, &from->conclude);
			to->line = from->line;
			to->col = from->col;
		}
	}
	config_replace_builds(cfg, builds, nr);
	return 0;
}

void config_boot_order(const struct vm_spec *vm, size_t n, size_t *order)
{
	size_t i = 0;

	if (!vm->interleave) {
		for (size_t k = 0; k < n; k++)
			for (int b = 0; b < vm->boots; b++)
				order[i++] = k;
		return;
	}
	for (int round = 0; round < vm->boots; round++)
		for (size_t k = 0; k < n; k++)
			order[i++] = round % 2 ? n - 1 - k : k;
}

bool config_vm_norandmaps(const struct vm_spec *vm)
{
	if (vm->aslr == CONFIG_ASLR_AUTO)
		return vm->accel == CONFIG_ACCEL_TCG;
	return vm->aslr == CONFIG_ASLR_OFF;
}
