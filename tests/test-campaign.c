/*
 * Unit tests for campaigns (campaign.h, store-campaign.h): the A B B A
 * schedule, each boot's command line and its tokens, the rules by which
 * a resume decides what to do after a boot (a table of states and of
 * what the resume finds), and the store: a campaign kept and read back,
 * a second running one refused, and of two resumes claiming one boot
 * only the first winning; a bisection's campaign, open while its search
 * goes on, extended batch by batch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "campaign-machine.h"
#include "campaign.h"
#include "kexec.h"
#include "store-bisect.h"
#include "store-campaign.h"
#include "store.h"
#include "strbuf.h"
#include "util.h"

static void test_schedule(void)
{
	static const struct {
		size_t kernels;
		int boots;
		const char *want;
	} cases[] = {
		{2, 1, "01"},	     {2, 2, "0110"}, {2, 3, "011001"},
		{3, 2, "012210"},    {1, 3, "000"},  {2, 6, "011001100110"},
		{3, 3, "012210012"},
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		size_t order[64];
		char got[65] = {0};
		size_t n = cases[i].kernels * (size_t)cases[i].boots;

		campaign_schedule(cases[i].kernels, cases[i].boots, order);
		for (size_t j = 0; j < n; j++)
			got[j] = (char)('0' + order[j]);
		ok(!strcmp(got, cases[i].want),
		   "schedule of %zu kernels x %d boots: %s", cases[i].kernels,
		   cases[i].boots, got);
	}
}

static void test_cmdline(void)
{
	static const struct {
		const char *home, *append, *want;
	} cases[] = {
		{"BOOT_IMAGE=/vmlinuz-6.1 root=/dev/sda1 ro quiet", NULL,
		 "root=/dev/sda1 ro quiet mmcmp.campaign=7 mmcmp.boot=3"},
		{"root=UUID=x initrd=\\initrd.img mmcmp.boot=9 mmcmp.campaign=1",
		 "transparent_hugepage=never",
		 "root=UUID=x transparent_hugepage=never mmcmp.campaign=7 "
		 "mmcmp.boot=3"},
		{"console=ttyS0  dyndbg=\"file a.c +p\" -- single", "panic=1",
		 "console=ttyS0 dyndbg=\"file a.c +p\" panic=1 mmcmp.campaign=7 "
		 "mmcmp.boot=3 -- single"},
		{"", "", "mmcmp.campaign=7 mmcmp.boot=3"},
		{"a\n", NULL, "a mmcmp.campaign=7 mmcmp.boot=3"},
	};
	static const struct {
		const char *cmdline;
		bool found;
		int64_t id;
		long number;
	} tokens[] = {
		{"root=x mmcmp.campaign=7 mmcmp.boot=3", true, 7, 3},
		{"mmcmp.boot=12 quiet mmcmp.campaign=2\n", true, 2, 12},
		{"root=x mmcmp.campaign=7", false, 0, 0},
		{"mmcmp.campaign=x mmcmp.boot=1", false, 0, 0},
		{"root=x -- mmcmp.campaign=7 mmcmp.boot=3", false, 0, 0},
		{"mmcmp.campaign=1 mmcmp.boot=0", false, 0, 0},
		{"", false, 0, 0},
	};
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		campaign_cmdline(cases[i].home, cases[i].append, 7, 3, &sb);
		ok(!strcmp(sb.buf, cases[i].want), "command line, case %zu: %s",
		   i, sb.buf);
	}
	/* start --check: no id yet, so none is printed (it printed 0). */
	campaign_cmdline("root=x", NULL, 0, 2, &sb);
	ok(!strcmp(sb.buf, "root=x mmcmp.campaign=ID mmcmp.boot=2"),
	   "command line of a campaign not recorded yet: %s", sb.buf);
	for (size_t i = 0; i < ARRAY_SIZE(tokens); i++) {
		int64_t id = 0;
		long number = 0;
		bool found = campaign_cmdline_tokens(tokens[i].cmdline, &id,
						     &number);

		ok(found == tokens[i].found &&
			   (!found ||
			    (id == tokens[i].id && number == tokens[i].number)),
		   "tokens, case %zu", i);
	}
	strbuf_release(&sb);
}

/* Boot states as letters: p b r d f i. */
static const char state_letters[] = "pbrdfi";

static bool alive_if_42(int64_t pid, void *ctx)
{
	return pid == 42 && *(const bool *)ctx;
}

/*
 * The campaign of a decide case: campaign 1, boot_timeout 600, boots in
 * the states of `states`, each booted at 1000 from boot_id "old", of an
 * image of release 6.1 and SHA-256 "aa"; a running one ran in boot_id
 * `ran_in` by pid 42.
 */
static void decide_campaign(struct campaign *c, const char *states,
			    const char *ran_in)
{
	c->id = 1;
	c->state = CAMPAIGN_RUNNING;
	c->boot_timeout_s = 600;
	for (size_t i = 0; states[i]; i++) {
		struct campaign_boot *b;

		ALLOC_GROW(c->boots, c->boots_nr + 1, c->boots_alloc);
		b = &c->boots[c->boots_nr++];
		memset(b, 0, sizeof(*b));
		b->number = (long)i + 1;
		b->state = (enum campaign_boot_state)(
			strchr(state_letters, states[i]) - state_letters);
		b->image = xstrdup("/boot/vmlinuz");
		b->image_release = xstrdup("6.1");
		b->image_sha256 = xstrdup("aa");
		if (b->state != CAMPAIGN_BOOT_PENDING) {
			b->booted_at = 1000;
			b->from_boot_id = xstrdup("old");
		}
		if (b->state == CAMPAIGN_BOOT_RUNNING) {
			b->boot_id = xstrdup(ran_in);
			b->pid = 42;
		}
	}
}

static void test_decide(void)
{
	static const struct {
		const char *what, *states, *ran_in, *boot_id, *cmdline;
		const char *release, *sha;
		double now;
		bool alive;
		enum campaign_action act;
		size_t boot;
		const char *after, *why;
	} cases[] = {
		{"the first boot is booted", "pp", "", "old", "root=x", "6.0",
		 NULL, 1000, false, CAMPAIGN_BOOT, 0, "bp", NULL},
		{"the boot booting is run in its kernel", "dbp", "", "new",
		 "mmcmp.campaign=1 mmcmp.boot=2", "6.1", "aa", 1100, false,
		 CAMPAIGN_RUN, 1, "drp", NULL},
		{"a second resume finds the boot running: busy", "drp", "new",
		 "new", "mmcmp.campaign=1 mmcmp.boot=2", "6.1", "aa", 1100,
		 true, CAMPAIGN_BUSY, 1, "drp", NULL},
		{"a killed resume leaves its boot interrupted, the next boots",
		 "drp", "new", "new", "mmcmp.campaign=1 mmcmp.boot=2", "6.1",
		 "aa", 1100, false, CAMPAIGN_BOOT, 2, "dib", "ended before"},
		{"a restart during the iterations: interrupted", "drp", "new",
		 "other", "root=x", "6.0", NULL, 1100, true, CAMPAIGN_BOOT, 2,
		 "dib", "restarted"},
		{"the default kernel after a panic: failed, the next boots",
		 "dbp", "", "home", "root=x", "6.0", NULL, 1100, false,
		 CAMPAIGN_BOOT, 2, "dfb", "did not reach"},
		{"resumed past boot_timeout: failed", "dbp", "", "new",
		 "mmcmp.campaign=1 mmcmp.boot=2", "6.1", "aa", 1601, false,
		 CAMPAIGN_BOOT, 2, "dfb", "past boot_timeout"},
		{"another release came up: failed", "dbp", "", "new",
		 "mmcmp.campaign=1 mmcmp.boot=2", "6.2", "aa", 1100, false,
		 CAMPAIGN_BOOT, 2, "dfb", "not 6.1"},
		{"the image changed: failed", "dbp", "", "new",
		 "mmcmp.campaign=1 mmcmp.boot=2", "6.1", "bb", 1100, false,
		 CAMPAIGN_BOOT, 2, "dfb", "changed"},
		{"the token of another boot: failed", "dbp", "", "new",
		 "mmcmp.campaign=1 mmcmp.boot=3", "6.1", "aa", 1100, false,
		 CAMPAIGN_BOOT, 2, "dfb", "without mmcmp.boot=2"},
		{"the token of another campaign: failed", "dbp", "", "new",
		 "mmcmp.campaign=2 mmcmp.boot=2", "6.1", "aa", 1100, false,
		 CAMPAIGN_BOOT, 2, "dfb", NULL},
		{"still in the kernel that booted it: boot it again", "dbp", "",
		 "old", "mmcmp.campaign=1 mmcmp.boot=1", "6.1", "aa", 1100,
		 false, CAMPAIGN_BOOT, 1, "dbp", NULL},
		{"the last boot done: finish", "ddfi", "", "new", "root=x",
		 "6.0", NULL, 1100, false, CAMPAIGN_FINISH, 3, "ddfi", NULL},
		{"the last boot fails: finish", "ddb", "", "home", "root=x",
		 "6.0", NULL, 1100, false, CAMPAIGN_FINISH, 2, "ddf", NULL},
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct campaign c = CAMPAIGN_INIT;
		bool alive = cases[i].alive;
		struct campaign_now now = {
			.now = cases[i].now,
			.boot_id = cases[i].boot_id,
			.release = cases[i].release,
			.cmdline = cases[i].cmdline,
			.pid = 77,
			.image_sha256 = cases[i].sha,
			.alive = alive_if_42,
			.ctx = &alive,
		};
		char after[16] = {0};
		size_t boot = SIZE_MAX;
		enum campaign_action act;
		const char *why = NULL;

		decide_campaign(&c, cases[i].states, cases[i].ran_in);
		act = campaign_decide(&c, &now, &boot);
		for (size_t j = 0; j < c.boots_nr; j++) {
			after[j] = state_letters[c.boots[j].state];
			if (c.boots[j].why)
				why = c.boots[j].why;
		}
		ok(act == cases[i].act && boot == cases[i].boot &&
			   !strcmp(after, cases[i].after) &&
			   (!cases[i].why ||
			    (why && strstr(why, cases[i].why))),
		   "%s (action %d, boot %zu, %s%s%s)", cases[i].what, (int)act,
		   boot, after, why ? ": " : "", why ? why : "");
		if (act == CAMPAIGN_RUN)
			ok(c.boots[boot].pid == 77 &&
				   !strcmp(c.boots[boot].boot_id, "new") &&
				   c.boots[boot].changed &&
				   c.boots[boot].was == CAMPAIGN_BOOT_BOOTING,
			   "the boot run records this resume");
		if (act == CAMPAIGN_FINISH)
			ok(c.state == CAMPAIGN_DONE && c.state_changed,
			   "the campaign is done after its last boot");
		campaign_release(&c);
	}
	{
		struct campaign c = CAMPAIGN_INIT;
		struct campaign_now now = {.now = 1, .boot_id = "x"};
		size_t boot = 0;

		decide_campaign(&c, "pp", "");
		c.state = CAMPAIGN_ABORTED;
		ok(campaign_decide(&c, &now, &boot) == CAMPAIGN_NONE &&
			   !c.boots[0].changed,
		   "an aborted campaign boots nothing");
		campaign_release(&c);
	}
}

/*
 * A bisection's campaign is open while its search goes on: with every
 * boot over the resume extends it (EXTEND, nothing changed, the boot
 * index the number of boots) rather than finishing it; a pending boot
 * still boots first, and the boot that came up is decided by the rules
 * of any campaign before.
 */
static void test_decide_open(void)
{
	static const struct {
		const char *what, *states, *boot_id, *cmdline;
		enum campaign_action act;
		size_t boot;
		const char *after;
	} cases[] = {
		{"a bisection without boots yet: extend", "", "home", "root=x",
		 CAMPAIGN_EXTEND, 0, ""},
		{"its batch over: extend, not finish", "ddfi", "new", "root=x",
		 CAMPAIGN_EXTEND, 4, "ddfi"},
		{"its boots appended: the first pending boots", "ddp", "new",
		 "root=x", CAMPAIGN_BOOT, 2, "ddb"},
		{"its last boot never came up: failed, then extend", "db",
		 "home", "root=x", CAMPAIGN_EXTEND, 2, "df"},
		{"its last boot came up: run it", "db", "new",
		 "mmcmp.campaign=1 mmcmp.boot=2", CAMPAIGN_RUN, 1, "dr"},
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct campaign c = CAMPAIGN_INIT;
		bool alive = false;
		struct campaign_now now = {
			.now = 1100,
			.boot_id = cases[i].boot_id,
			.release = "6.1",
			.cmdline = cases[i].cmdline,
			.pid = 77,
			.image_sha256 = "aa",
			.alive = alive_if_42,
			.ctx = &alive,
		};
		char after[16] = {0};
		size_t boot = SIZE_MAX;
		enum campaign_action act;

		decide_campaign(&c, cases[i].states, "");
		c.bisect_id = 3;
		c.open = true;
		act = campaign_decide(&c, &now, &boot);
		for (size_t j = 0; j < c.boots_nr; j++)
			after[j] = state_letters[c.boots[j].state];
		ok(act == cases[i].act && boot == cases[i].boot &&
			   !strcmp(after, cases[i].after) &&
			   c.state == CAMPAIGN_RUNNING && !c.state_changed,
		   "%s (action %d, boot %zu, %s)", cases[i].what, (int)act,
		   boot, after);
		if (i == 1) {
			c.open = false;
			ok(campaign_decide(&c, &now, &boot) ==
					   CAMPAIGN_FINISH &&
				   c.state == CAMPAIGN_DONE,
			   "once the search has ended, its campaign finishes");
		}
		campaign_release(&c);
	}
}

/* A campaign of two kernels x 1 boot as `campaign start` makes it. */
static void store_campaign_fill(struct campaign *c)
{
	static const char *const kernels[] = {"base", "patched"};

	c->label = xstrdup("k");
	c->config_path = xstrdup("c.yaml");
	c->config_text = xstrdup("name: c\n");
	c->settle_s = 1;
	c->boot_timeout_s = 600;
	c->home_release = xstrdup("6.0");
	c->home_cmdline = xstrdup("BOOT_IMAGE=/vmlinuz root=x");
	c->started_at = 1000;
	for (size_t i = 0; i < 2; i++) {
		struct campaign_boot *b;

		ALLOC_GROW(c->boots, c->boots_nr + 1, c->boots_alloc);
		b = &c->boots[c->boots_nr++];
		memset(b, 0, sizeof(*b));
		b->number = (long)i + 1;
		b->kernel = xstrdup(kernels[i]);
		b->image = xstrdup("/boot/vmlinuz");
		b->image_sha256 = xstrdup("aa");
		b->append = xstrdup(i ? "transparent_hugepage=never" : "");
	}
}

static void test_store(void)
{
	struct strbuf err = STRBUF_INIT;
	struct store *st = store_open(":memory:", &err);
	struct campaign c = CAMPAIGN_INIT, r1 = CAMPAIGN_INIT,
			r2 = CAMPAIGN_INIT, again = CAMPAIGN_INIT;
	struct campaign_now now = {.now = 1100,
				   .boot_id = "home",
				   .release = "6.0",
				   .cmdline = "root=x"};
	bool conflict = true, was = false, taken = true;
	size_t boot = 0;

	ok(st != NULL, "a store in memory");
	store_campaign_fill(&c);
	ok(!store_campaign_add(st, &c, &err) && c.id == 1,
	   "a campaign is stored: %s", err.buf);
	ok(!strcmp(c.boots[1].cmdline, "root=x transparent_hugepage=never "
				       "mmcmp.campaign=1 mmcmp.boot=2"),
	   "its boots' command lines carry its tokens: %s", c.boots[1].cmdline);
	store_campaign_fill(&again);
	ok(store_campaign_add(st, &again, &err) && strstr(err.buf, "running"),
	   "a second running campaign is refused: %s", err.buf);
	strbuf_reset(&err);
	ok(!store_campaign_load(st, 0, &r1, &err) && r1.id == 1 &&
		   r1.boots_nr == 2 && !strcmp(r1.boots[0].kernel, "base") &&
		   r1.boots[0].state == CAMPAIGN_BOOT_PENDING &&
		   !strcmp(r1.home_cmdline, c.home_cmdline),
	   "it reads back: %s", err.buf);
	ok(!store_campaign_load(st, 0, &r2, &err) && r2.id == 1,
	   "a second reader reads the same");
	ok(campaign_decide(&r1, &now, &boot) == CAMPAIGN_BOOT && boot == 0 &&
		   !store_campaign_update(st, &r1, &conflict, &err) &&
		   !conflict,
	   "the first resume marks boot 1 booting: %s", err.buf);
	ok(campaign_decide(&r2, &now, &boot) == CAMPAIGN_BOOT &&
		   !store_campaign_update(st, &r2, &conflict, &err) && conflict,
	   "the second, from the same old state, finds the conflict");
	campaign_release(&r2);
	ok(!store_campaign_load(st, 1, &r2, &err) &&
		   r2.boots[0].state == CAMPAIGN_BOOT_BOOTING &&
		   r2.boots[0].booted_at == 1100 &&
		   !strcmp(r2.boots[0].from_boot_id, "home"),
	   "boot 1 is booting, from the home kernel");
	ok(!store_label_taken(st, "k-base", &taken, &err) && !taken,
	   "no run has the label yet");
	ok(!store_campaign_abort(st, 1, 1200, &was, &err) && was,
	   "the campaign is aborted");
	ok(!store_campaign_abort(st, 1, 1300, &was, &err) && !was, "once");
	campaign_release(&r2);
	ok(!store_campaign_load(st, 0, &r2, &err) &&
		   r2.state == CAMPAIGN_ABORTED && r2.ended_at == 1200,
	   "the newest campaign, aborted, is read when none runs");
	campaign_release(&c);
	campaign_release(&again);
	campaign_release(&r1);
	campaign_release(&r2);
	store_close(st);
	strbuf_release(&err);
}

/*
 * A bisection's campaign in the store: recorded without boots, tied to
 * its bisection, open until the bisection has an outcome; its batches
 * appended from the number of boots the resume read, which a second
 * resume that read as many finds taken.
 */
static void test_store_bisection(void)
{
	struct strbuf err = STRBUF_INIT;
	struct store *st = store_open(":memory:", &err);
	struct campaign c = CAMPAIGN_INIT, r = CAMPAIGN_INIT;
	char repo[] = "r", good[] = "g", bad[] = "b", op[] = "op", hash[] = "h",
	     build[] = "make", image[] = "bzImage", work[] = "/w";
	struct store_bisect b = {.repo = repo,
				 .good = good,
				 .bad = bad,
				 .operation = op,
				 .config_hash = hash,
				 .alpha = 0.05};
	struct store_bisect_machine m = {.build = build,
					 .image = image,
					 .workdir = work,
					 .rounds = 2,
					 .max_batches = 8},
				    got = {0};
	bool conflict = true;
	int64_t bid = 0;

	if (!ok(st != NULL, "a store in memory"))
		return;
	c.label = xstrdup("bisect");
	c.config_path = xstrdup("c.yaml");
	c.config_text = xstrdup("name: c\n");
	c.boot_timeout_s = 600;
	c.home_release = xstrdup("6.0");
	c.home_cmdline = xstrdup("BOOT_IMAGE=/vmlinuz root=x");
	c.started_at = 1000;
	ok(!store_bisect_create(st, &b, &bid, &err) &&
		   !store_campaign_add(st, &c, &err) && c.id == 1,
	   "a bisection and its campaign, without boots: %s", err.buf);
	m.bisect_id = bid;
	m.campaign_id = c.id;
	ok(!store_bisect_machine_add(st, &m, &err) &&
		   !store_bisect_machine_get(st, c.id, &got, &err) &&
		   got.bisect_id == bid && !strcmp(got.build, "make") &&
		   !got.initrd && got.rounds == 2 && got.max_batches == 8,
	   "tied to each other, with what a resume needs: %s", err.buf);
	ok(!store_campaign_load(st, 0, &r, &err) && r.bisect_id == bid &&
		   r.open && r.boots_nr == 0,
	   "read back, it is the bisection's and open");
	for (size_t i = 0; i < 2; i++) {
		struct campaign_boot *nb;

		ALLOC_GROW(r.boots, r.boots_nr + 1, r.boots_alloc);
		nb = &r.boots[r.boots_nr++];
		memset(nb, 0, sizeof(*nb));
		nb->number = (long)i + 1;
		nb->kernel = xstrdup(i ? "c2" : "c1");
		nb->image = xstrdup("/w/c/bzImage");
		nb->image_sha256 = xstrdup("aa");
	}
	ok(!store_campaign_add_boots(st, &r, 0, &conflict, &err) && !conflict,
	   "a batch's boots appended: %s", err.buf);
	ok(!store_campaign_add_boots(st, &r, 0, &conflict, &err) && conflict,
	   "a second resume that read no boots finds them taken");
	campaign_release(&r);
	ok(!store_campaign_load(st, 1, &r, &err) && r.boots_nr == 2 &&
		   r.boots[1].state == CAMPAIGN_BOOT_PENDING &&
		   !strcmp(r.boots[1].cmdline, "root=x mmcmp.campaign=1 "
					       "mmcmp.boot=2"),
	   "they read back pending, with their tokens");
	campaign_release(&r);
	ok(!store_bisect_finish(st, bid, "found", "c2", &err) &&
		   !store_campaign_load(st, 1, &r, &err) && !r.open &&
		   r.bisect_id == bid,
	   "once the bisection has its outcome, its campaign is closed");
	store_bisect_machine_release(&got);
	campaign_release(&c);
	campaign_release(&r);
	store_close(st);
	strbuf_release(&err);
}

static void test_grub_entries(void)
{
	static const char grub_cfg[] =
		"set default=\"0\"\n"
		"menuentry 'Debian GNU/Linux' --class debian $menuentry_id_option"
		" 'gnulinux-simple-1234' {\n"
		"\tlinux /vmlinuz-6.1 root=UUID=1234 ro quiet\n"
		"}\n"
		"submenu 'Advanced options for Debian GNU/Linux' {\n"
		"\tmenuentry 'Debian GNU/Linux, with Linux 6.9.0-patched+' "
		"--class debian 'gnulinux-6.9.0-patched+-advanced-1234' {\n"
		"\t}\n"
		"}\n";
	static const struct {
		const char *entry;
		bool found;
	} cases[] = {
		{"Debian GNU/Linux", true},
		{"gnulinux-simple-1234", true},
		{"Advanced options for Debian GNU/Linux>Debian GNU/Linux, "
		 "with Linux 6.9.0-patched+",
		 true},
		{"gnulinux-6.9.0-patched+-advanced-1234", true},
		{"Debian GNU/Linux, with Linux 6.9.0", false},
		{"linux", false},
		{"", false},
	};
	char path[] = "/tmp/mmcmp-test-grub-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	struct strbuf err = STRBUF_INIT;

	ok(f && fputs(grub_cfg, f) >= 0 && !fclose(f), "a grub.cfg");
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		bool found =
			!boot_loader_find_entry(cases[i].entry, path, &err);

		ok(found == cases[i].found &&
			   (found || strstr(err.buf, "is not in")),
		   "grub entry '%s': %s", cases[i].entry,
		   found ? "found" : err.buf);
		strbuf_reset(&err);
	}
	unlink(path);
	strbuf_release(&err);
}

/* Write text of len bytes (-1: strlen) to dir/name. */
static bool write_at(const char *dir, const char *name, const char *text,
		     long len)
{
	struct strbuf path = STRBUF_INIT;
	FILE *f;
	bool done;

	strbuf_addf(&path, "%s/%s", dir, name);
	f = fopen(path.buf, "w");
	done = f && fwrite(text, 1, len < 0 ? strlen(text) : (size_t)len, f) ==
			    (len < 0 ? strlen(text) : (size_t)len);
	done = f && !fclose(f) && done;
	strbuf_release(&path);
	return done;
}

/*
 * Method reboot: a grub.cfg that boots a one-shot entry, a grubenv where
 * grub-reboot keeps it, and its next_entry read back.
 */
static void test_grub_one_shot(void)
{
	static const char header[] =
		"if [ -s $prefix/grubenv ]; then\n  load_env\nfi\n"
		"if [ \"${next_entry}\" ] ; then\n"
		"   set default=\"${next_entry}\"\n   set next_entry=\n"
		"   save_env next_entry\nfi\n";
	char dir[] = "/tmp/mmcmp-test-grubenv-XXXXXX";
	char env[1024], *next = NULL;
	struct strbuf err = STRBUF_INIT, cfg = STRBUF_INIT, envp = STRBUF_INIT;
	int n;

	ok(mkdtemp(dir) != NULL, "a /boot/grub of our own");
	strbuf_addf(&cfg, "%s/grub.cfg", dir);
	strbuf_addf(&envp, "%s/grubenv", dir);
	memset(env, '#', sizeof(env));
	n = snprintf(env, sizeof(env),
		     "# GRUB Environment Block\nsaved_entry=0\n"
		     "next_entry=Advanced options>Debian, with Linux 6.9\n");
	env[n] = '#';

	ok(write_at(dir, "grub.cfg", "menuentry 'Debian' {\n}\n", -1) &&
		   boot_loader_check_one_shot(cfg.buf, &err) &&
		   strstr(err.buf, "never reads next_entry"),
	   "a grub.cfg that never reads next_entry is refused");
	strbuf_reset(&err);
	ok(write_at(dir, "grub.cfg", header, -1) &&
		   boot_loader_check_one_shot(cfg.buf, &err) &&
		   strstr(err.buf, "grubenv"),
	   "so is one without a grubenv beside it");
	strbuf_reset(&err);
	ok(write_at(dir, "grubenv", env, 1000) &&
		   boot_loader_check_one_shot(cfg.buf, &err) &&
		   strstr(err.buf, "is not a GRUB environment block"),
	   "and a grubenv of 1000 bytes");
	strbuf_reset(&err);
	ok(write_at(dir, "grubenv", env, sizeof(env)) &&
		   !boot_loader_check_one_shot(cfg.buf, &err),
	   "a grub.cfg with next_entry and a grubenv are taken");
	ok(!boot_loader_env_get(envp.buf, "next_entry", &next, &err) && next &&
		   !strcmp(next, "Advanced options>Debian, with Linux 6.9"),
	   "next_entry is read back");
	free(next);
	ok(!boot_loader_env_get(envp.buf, "next", &next, &err) && !next,
	   "a key is matched whole");
	unlink(cfg.buf);
	unlink(envp.buf);
	rmdir(dir);
	strbuf_release(&err);
	strbuf_release(&cfg);
	strbuf_release(&envp);
}

/*
 * A boot that never came back is failed with what pstore kept of the
 * panic: the panic line of the newest dmesg record since the boot began.
 */
static void test_pstore(void)
{
	static const char record[] =
		"Panic#1 Part1\n"
		"<6>[    1.200000] Run /nowhere as init process\n"
		"<0>[    1.234567] Kernel panic - not syncing: No working init "
		"found.  Try passing init= option to kernel.\n"
		"<4>[    1.240000] CPU: 0 PID: 1 Comm: swapper/0\n";
	static const char want[] = "Kernel panic - not syncing: No working "
				   "init found.  Try passing init= option to "
				   "kernel.";
	char dir[] = "/tmp/mmcmp-test-pstore-XXXXXX";
	struct campaign c = CAMPAIGN_INIT;
	struct campaign_now now = {
		.now = 1100,
		.boot_id = "home",
		.release = "6.0",
		.cmdline = "root=x",
		.pid = 77,
		.pstore = want,
	};
	size_t boot = 0;
	char *line;

	ok(mkdtemp(dir) != NULL, "a pstore of our own");
	line = campaign_pstore_panic(dir, 0);
	ok(!line, "an empty pstore has no panic");
	write_at(dir, "console-ramoops-0", record, -1);
	write_at(dir, "dmesg-ramoops-0", "Oops#1 Part1\nnothing here\n", -1);
	line = campaign_pstore_panic(dir, 0);
	ok(!line, "only dmesg records, and only their panic lines");
	write_at(dir, "dmesg-ramoops-1", record, -1);
	line = campaign_pstore_panic(dir, 0);
	ok(line && !strcmp(line, want),
	   "the panic line, without level and time: %s", line ? line : "");
	free(line);
	line = campaign_pstore_panic(dir, (double)time(NULL) + 3600);
	ok(!line, "a record older than the boot is not its panic");
	free(line);
	line = campaign_pstore_panic("/nonexistent-mmcmp-pstore", 0);
	ok(!line, "no pstore, no panic");
	decide_campaign(&c, "dbp", "");
	ok(campaign_decide(&c, &now, &boot) == CAMPAIGN_BOOT && boot == 2 &&
		   c.boots[1].why &&
		   strstr(c.boots[1].why, "did not reach its resume") &&
		   strstr(c.boots[1].why, "; pstore kept: Kernel panic"),
	   "the failed boot's why has the panic");
	campaign_release(&c);
	for (const char *const *f =
		     (const char *const[]){"console-ramoops-0",
					   "dmesg-ramoops-0", "dmesg-ramoops-1",
					   NULL};
	     *f; f++) {
		struct strbuf path = STRBUF_INIT;

		strbuf_addf(&path, "%s/%s", dir, *f);
		unlink(path.buf);
		strbuf_release(&path);
	}
	rmdir(dir);
}

int main(void)
{
	test_grub_entries();
	test_pstore();
	test_grub_one_shot();
	test_schedule();
	test_cmdline();
	test_decide();
	test_decide_open();
	test_store();
	test_store_bisection();
	done_testing();
	return exit_status();
}
