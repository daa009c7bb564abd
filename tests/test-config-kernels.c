/*
 * Unit tests for config-kernels: memory sizes, --kernel specs, the boot
 * order with and without interleaving, and kernels x builds with their
 * names and kernel indexes.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "config.h"
#include "strbuf.h"
#include "util.h"

static const struct {
	const char *in;
	int64_t want; /* -1: refused */
} memory_cases[] = {
	{"1G", 1024}, {"512M", 512}, {"65536K", 64}, {"2g", 2048},
	{"63M", -1},  {"1T", -1},    {"", -1},	     {"M", -1},
	{"-1G", -1},  {"1.5G", -1},  {"64", -1},
};

static const struct {
	const char *spec;
	const char *name, *image, *append; /* name NULL: refused */
} kernel_cases[] = {
	{"a=/boot/x", "a", "/boot/x", NULL},
	{"b=bz,append=quiet x=1,2", "b", "bz", "quiet x=1,2"},
	{"a=/other", "a", "/other", NULL}, /* replaces a */
	{"=x", NULL, NULL, NULL},
	{"noimage", NULL, NULL, NULL},
	{"c=", NULL, NULL, NULL},
	{"bad name=x", NULL, NULL, NULL},
	{"y=/vmlinuz,bogus=1", NULL, NULL, NULL},
	{"y=/vmlinuz,append=quiet,bogus=1", "y", "/vmlinuz", "quiet,bogus=1"},
	{"z=/boot/a,b.img", "z", "/boot/a,b.img", NULL},
};

static const struct {
	int boots;
	bool interleave;
	size_t n;
	const char *want;
} order_cases[] = {
	{2, true, 2, "0 1 1 0"},     {4, true, 2, "0 1 1 0 0 1 1 0"},
	{2, false, 2, "0 0 1 1"},    {1, true, 3, "0 1 2"},
	{2, true, 3, "0 1 2 2 1 0"}, {3, true, 1, "0 0 0"},
};

static void test_memory(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(memory_cases); i++) {
		int64_t mb = -1;
		int r = config_parse_memory(memory_cases[i].in, &mb);

		ok(memory_cases[i].want < 0 ? r == -1
					    : !r && mb == memory_cases[i].want,
		   "memory case %zu '%s': %d %" PRId64, i, memory_cases[i].in,
		   r, mb);
	}
}

static void test_add_kernel(void)
{
	struct config cfg = CONFIG_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(kernel_cases); i++) {
		struct strbuf err = STRBUF_INIT;
		int r = config_add_kernel(&cfg, kernel_cases[i].spec, &err);
		const struct kernel_spec *ks = NULL;

		for (size_t k = 0; !r && k < cfg.kernels_nr; k++)
			if (!strcmp(cfg.kernels[k].name, kernel_cases[i].name))
				ks = &cfg.kernels[k];
		if (!kernel_cases[i].name)
			ok(r == -1 && strstr(err.buf, "bad --kernel"),
			   "kernel case %zu refused: %s", i, err.buf);
		else
			ok(!r && ks &&
				   !strcmp(ks->image, kernel_cases[i].image) &&
				   (kernel_cases[i].append
					    ? ks->append &&
						      !strcmp(ks->append,
							      kernel_cases[i]
								      .append)
					    : !ks->append),
			   "kernel case %zu '%s'", i, kernel_cases[i].spec);
		strbuf_release(&err);
	}
	ok(cfg.kernels_nr == 4, "a replaced kernel is not added twice");
	{
		struct strbuf err = STRBUF_INIT;

		config_add_kernel(&cfg, "y=/vmlinuz,bogus=1", &err);
		is_str(err.buf,
		       "bad --kernel 'y=/vmlinuz,bogus=1': unknown key 'bogus'"
		       " (the only key is append)",
		       "an unknown key is named");
		strbuf_release(&err);
	}
	config_release(&cfg);
}

static void test_order(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(order_cases); i++) {
		struct vm_spec vm = {.boots = order_cases[i].boots,
				     .interleave = order_cases[i].interleave};
		size_t nr = order_cases[i].n * (size_t)vm.boots;
		size_t *order = xcalloc(nr, sizeof(*order));
		struct strbuf got = STRBUF_INIT;

		config_boot_order(&vm, order_cases[i].n, order);
		for (size_t k = 0; k < nr; k++)
			strbuf_addf(&got, "%s%zu", k ? " " : "", order[k]);
		is_str(got.buf, order_cases[i].want, "boot order case %zu", i);
		free(order);
		strbuf_release(&got);
	}
}

/* A config's name and one workload, for the kernels and builds to follow. */
#define ONE_WORKLOAD                                                           \
	"name: x\n"                                                            \
	"workloads:\n"                                                         \
	"  - name: w\n"                                                        \
	"    command: [echo]\n"                                                \
	"    metrics:\n"                                                       \
	"      - name: t\n"                                                    \
	"        extract: {measure: elapsed}\n"

static void test_expand(void)
{
	static const char yaml[] =
		ONE_WORKLOAD "builds:\n"
			     "  b1: { env: { A: '1' }, prefix: [nice] }\n"
			     "  b2: { prepare: [a], conclude: [b] }\n"
			     "kernels:\n"
			     "  k1: { image: /a }\n"
			     "  k2: { image: /b }\n";
	struct config cfg = CONFIG_INIT;
	struct strbuf err = STRBUF_INIT, got = STRBUF_INIT;
	int r;

	r = config_load_buffer(&cfg, "t.yaml", yaml, strlen(yaml), &err) ||
	    config_expand_kernels(&cfg, &err);
	ok(!r, "kernels x builds expand: %s", err.buf);
	for (size_t b = 0; !r && b < cfg.builds_nr; b++)
		strbuf_addf(&got, "%s%s:%zu", b ? " " : "", cfg.builds[b].name,
			    cfg.builds[b].kernel);
	is_str(got.buf, "b1-k1:0 b2-k1:0 b1-k2:1 b2-k2:1",
	       "every kernel with every build, kernel by kernel");
	ok(!r && cfg.builds[2].env.nr == 1 &&
		   !strcmp(cfg.builds[2].env.v[0].value, "1") &&
		   cfg.builds[2].prefix.nr == 1,
	   "a build's settings are copied to each kernel's");
	ok(!r && cfg.builds[3].prepare.nr == 1 &&
		   cfg.builds[3].conclude.nr == 1,
	   "and its prepare and conclude hooks");
	ok(!r && cfg.vm.boots == 1 && cfg.vm.cpus == 2 &&
		   cfg.vm.memory_mb == 1024 &&
		   cfg.vm.accel == CONFIG_ACCEL_KVM && cfg.vm.interleave &&
		   cfg.vm.boot_timeout_s == 60,
	   "vm: defaults without a vm mapping");
	config_release(&cfg);
	strbuf_release(&err);
	strbuf_release(&got);
}

/* `settings:` with kernels are refused: the host would write them. */
static const struct {
	const char *settings; /* YAML lines: top-level, or under build b */
	const char *want;     /* in the error */
} settings_cases[] = {
	{"settings: { /proc/sys/vm/swappiness: '10' }\n",
	 "t.yaml: setting '/proc/sys/vm/swappiness' cannot be used with "
	 "kernels: it would be written on the host, not in the guests; set it "
	 "on the kernel's command line instead (append: "
	 "\"sysctl.vm.swappiness=10\")"},
	{"builds:\n  b: { settings: "
	 "{ /sys/kernel/mm/transparent_hugepage/enabled: never } }\n",
	 "build 'b': setting '/sys/kernel/mm/transparent_hugepage/enabled' "
	 "cannot be used with kernels: it would be written on the host, not "
	 "in the guests; set it on the kernel's command line instead (append: "
	 "\"transparent_hugepage=never\")"},
	{"settings: { /sys/kernel/mm/ksm/run: '1' }\n",
	 "(the kernel's `append:`)"},
};

/*
 * Load "t.yaml": ONE_WORKLOAD, then top, kernel k1 and, when vm is not
 * NULL, a vm mapping with its contents.
 */
static int load_one_kernel(struct config *cfg, const char *top, const char *vm,
			   struct strbuf *err)
{
	struct strbuf yaml = STRBUF_INIT;
	int r;

	strbuf_addf(&yaml, ONE_WORKLOAD "%skernels:\n  k1: { image: /a }\n",
		    top);
	if (vm)
		strbuf_addf(&yaml, "vm: { %s }\n", vm);
	r = config_load_buffer(cfg, "t.yaml", yaml.buf, yaml.len, err);
	strbuf_release(&yaml);
	return r;
}

static void test_settings(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(settings_cases); i++) {
		struct config cfg = CONFIG_INIT;
		struct strbuf err = STRBUF_INIT;
		int r;

		r = load_one_kernel(&cfg, settings_cases[i].settings, NULL,
				    &err) ||
		    !config_expand_kernels(&cfg, &err);
		ok(!r && strstr(err.buf, settings_cases[i].want),
		   "settings case %zu refused with kernels: %s", i, err.buf);
		config_release(&cfg);
		strbuf_release(&err);
	}
}

/*
 * vm's aslr: auto by default, true and false, anything else refused; and
 * whether the guests get norandmaps (auto: under tcg only).
 */
static const struct {
	const char *vm;	 /* the vm mapping's contents */
	int want;	 /* enum config_aslr; -1: refused */
	bool norand;	 /* config_vm_norandmaps() */
	const char *msg; /* refused: the error */
} aslr_cases[] = {
	{"cpus: 1", CONFIG_ASLR_AUTO, false, NULL},
	{"accel: tcg", CONFIG_ASLR_AUTO, true, NULL},
	{"accel: kvm, aslr: auto", CONFIG_ASLR_AUTO, false, NULL},
	{"accel: tcg, aslr: true", CONFIG_ASLR_ON, false, NULL},
	{"aslr: false", CONFIG_ASLR_OFF, true, NULL},
	{"aslr: off", -1, false, "t.yaml:10:13: "},
	{"aslr: [true]", -1, false, "t.yaml:10:13: "},
};

static void test_aslr(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(aslr_cases); i++) {
		struct config cfg = CONFIG_INIT;
		struct strbuf err = STRBUF_INIT;
		int r = load_one_kernel(&cfg, "", aslr_cases[i].vm, &err);

		if (aslr_cases[i].want >= 0)
			ok(!r && (int)cfg.vm.aslr == aslr_cases[i].want &&
				   config_vm_norandmaps(&cfg.vm) ==
					   aslr_cases[i].norand,
			   "vm: { %s } gives aslr %d, norandmaps %d: %s",
			   aslr_cases[i].vm, (int)cfg.vm.aslr,
			   config_vm_norandmaps(&cfg.vm), err.buf);
		else
			ok(r &&
				   !strncmp(err.buf, aslr_cases[i].msg,
					    strlen(aslr_cases[i].msg)) &&
				   strstr(err.buf, "'auto', 'true' or 'false'"),
			   "vm: { %s } is refused where it is: %s",
			   aslr_cases[i].vm, err.buf);
		config_release(&cfg);
		strbuf_release(&err);
	}
}

int main(void)
{
	plan((int)(ARRAY_SIZE(memory_cases) + ARRAY_SIZE(kernel_cases) + 2 +
		   ARRAY_SIZE(order_cases) + 5 + ARRAY_SIZE(settings_cases) +
		   ARRAY_SIZE(aslr_cases)));
	test_memory();
	test_add_kernel();
	test_order();
	test_expand();
	test_settings();
	test_aslr();
	return tap_failed ? 1 : 0;
}
