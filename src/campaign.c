/* campaign: the schedule, command lines and resume rules of a campaign. */
#include "campaign.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "parse-num.h"
#include "strbuf.h"
#include "util.h"

static const char *const boot_state_names[] = {
	[CAMPAIGN_BOOT_PENDING] = "pending",
	[CAMPAIGN_BOOT_BOOTING] = "booting",
	[CAMPAIGN_BOOT_RUNNING] = "running",
	[CAMPAIGN_BOOT_DONE] = "done",
	[CAMPAIGN_BOOT_FAILED] = "failed",
	[CAMPAIGN_BOOT_INTERRUPTED] = "interrupted",
};

static const char *const state_names[] = {
	[CAMPAIGN_RUNNING] = "running",
	[CAMPAIGN_DONE] = "done",
	[CAMPAIGN_ABORTED] = "aborted",
};

static void boot_release(struct campaign_boot *b)
{
	free(b->kernel);
	free(b->image);
	free(b->initrd);
	free(b->entry);
	free(b->image_sha256);
	free(b->image_release);
	free(b->cmdline);
	free(b->append);
	free(b->from_boot_id);
	free(b->boot_id);
	free(b->why);
}

void campaign_release(struct campaign *c)
{
	if (!c)
		return;
	free(c->label);
	free(c->config_path);
	free(c->config_text);
	free(c->home_release);
	free(c->home_cmdline);
	free(c->unit_path);
	for (size_t i = 0; i < c->boots_nr; i++)
		boot_release(&c->boots[i]);
	free(c->boots);
	memset(c, 0, sizeof(*c));
}

const char *campaign_boot_state_name(enum campaign_boot_state s)
{
	return boot_state_names[s];
}

const char *campaign_state_name(enum campaign_state s)
{
	return state_names[s];
}

const char *campaign_method_name(enum campaign_method m)
{
	return m == CAMPAIGN_REBOOT ? "reboot" : "kexec";
}

bool campaign_boot_state_parse(const char *name, enum campaign_boot_state *s)
{
	for (size_t i = 0; i < ARRAY_SIZE(boot_state_names); i++)
		if (name && !strcmp(name, boot_state_names[i])) {
			*s = (enum campaign_boot_state)i;
			return true;
		}
	return false;
}

bool campaign_state_parse(const char *name, enum campaign_state *s)
{
	for (size_t i = 0; i < ARRAY_SIZE(state_names); i++)
		if (name && !strcmp(name, state_names[i])) {
			*s = (enum campaign_state)i;
			return true;
		}
	return false;
}

void campaign_schedule(size_t kernels_nr, int boots, size_t *order)
{
	size_t i = 0;

	for (int round = 0; round < boots; round++)
		for (size_t k = 0; k < kernels_nr; k++)
			order[i++] = round % 2 ? kernels_nr - 1 - k : k;
}

/* The length of the word at s: up to a blank outside double quotes. */
static size_t word_len(const char *s)
{
	bool quoted = false;
	size_t n = 0;

	for (; s[n] && (quoted || !strchr(" \t\n", s[n])); n++)
		if (s[n] == '"')
			quoted = !quoted;
	return n;
}

static bool dropped_word(const char *w, size_t n)
{
	static const char *const prefixes[] = {
		"BOOT_IMAGE=", "initrd=", "mmcmp."};

	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (n >= strlen(prefixes[i]) &&
		    !strncmp(w, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

void campaign_cmdline(const char *home, const char *append, int64_t id,
		      long number, struct strbuf *out)
{
	const char *p = home ? home : "", *rest = NULL;

	strbuf_reset(out);
	while (*p) {
		size_t n;

		p += strspn(p, " \t\n");
		n = word_len(p);
		if (!n)
			break;
		if (n == 2 && !strncmp(p, "--", 2)) {
			rest = p;
			break;
		}
		if (!dropped_word(p, n))
			strbuf_addf(out, "%s%.*s", out->len ? " " : "", (int)n,
				    p);
		p += n;
	}
	if (append && *append)
		strbuf_addf(out, "%s%s", out->len ? " " : "", append);
	strbuf_addf(out, "%smmcmp.campaign=", out->len ? " " : "");
	if (id > 0)
		strbuf_addf(out, "%" PRId64, id);
	else
		strbuf_addstr(out, "ID");
	strbuf_addf(out, " mmcmp.boot=%ld", number);
	if (rest) {
		size_t len = strlen(rest);

		while (len && strchr(" \t\n", rest[len - 1]))
			len--;
		strbuf_addf(out, " %.*s", (int)len, rest);
	}
}

/* The value of word `key` (with its '=') in cmdline, before any " -- ". */
static bool token_value(const char *cmdline, const char *key, int64_t max,
			int64_t *v)
{
	const char *p = cmdline;
	size_t klen = strlen(key);

	while (p && *p) {
		size_t n;

		p += strspn(p, " \t\n");
		n = word_len(p);
		if (!n || (n == 2 && !strncmp(p, "--", 2)))
			return false;
		if (n > klen && !strncmp(p, key, klen)) {
			char *s = xstrndup(p + klen, n - klen);
			bool ok = parse_int64(s, 1, max, v);

			free(s);
			return ok;
		}
		p += n;
	}
	return false;
}

bool campaign_cmdline_tokens(const char *cmdline, int64_t *id, long *number)
{
	int64_t n;

	if (!token_value(cmdline, "mmcmp.campaign=", INT64_MAX, id) ||
	    !token_value(cmdline, "mmcmp.boot=", 1000000, &n))
		return false;
	*number = (long)n;
	return true;
}

static void set_state(struct campaign_boot *b, enum campaign_boot_state s,
		      const char *why)
{
	if (!b->changed)
		b->was = b->state;
	b->changed = true;
	b->state = s;
	if (why) {
		free(b->why);
		b->why = xstrdup(why);
	}
}

/* A running boot: still run by a live resume of this kernel, or over. */
static bool running_busy(struct campaign_boot *b,
			 const struct campaign_now *now)
{
	struct strbuf why = STRBUF_INIT;
	bool same = b->boot_id && !strcmp(b->boot_id, now->boot_id);

	if (same && b->pid && now->alive && now->alive(b->pid, now->ctx))
		return true;
	if (same)
		strbuf_addf(&why,
			    "its resume (pid %" PRId64 ") ended before its "
			    "iterations did",
			    b->pid);
	else
		strbuf_addstr(&why, "the machine restarted during its "
				    "iterations");
	set_state(b, CAMPAIGN_BOOT_INTERRUPTED, why.buf);
	b->ended_at = now->now;
	strbuf_release(&why);
	return false;
}

/*
 * A booting boot in the kernel now running: why it failed (appended to
 * why), nothing when this is it and it may run.
 */
static void booting_check(const struct campaign *c,
			  const struct campaign_boot *b,
			  const struct campaign_now *now, struct strbuf *why)
{
	double late = now->now - b->booted_at;

	if (late > c->boot_timeout_s)
		strbuf_addf(why,
			    "resumed %.0f s after its boot began, past "
			    "boot_timeout %g s",
			    late, c->boot_timeout_s);
	else if (b->image_release && strcmp(now->release, b->image_release))
		strbuf_addf(why,
			    "the kernel running is release %s, not %s of its "
			    "image",
			    now->release, b->image_release);
	else if (!now->image_sha256 ||
		 strcmp(now->image_sha256, b->image_sha256))
		strbuf_addf(why,
			    "its image '%s' changed since the campaign began "
			    "(SHA-256 %s, not %s)",
			    b->image,
			    now->image_sha256 ? now->image_sha256 : "unread",
			    b->image_sha256);
}

/* A booting boot: RUN, BOOT (again) or failed (then CAMPAIGN_NONE). */
static enum campaign_action booting(const struct campaign *c,
				    struct campaign_boot *b,
				    const struct campaign_now *now)
{
	struct strbuf why = STRBUF_INIT;
	bool same = b->from_boot_id && !strcmp(b->from_boot_id, now->boot_id);
	int64_t id = 0;
	long number = 0;
	enum campaign_action act = CAMPAIGN_NONE;

	if (same) {
		b->booted_at = now->now;
		act = CAMPAIGN_BOOT;
		goto out;
	}
	if (campaign_cmdline_tokens(now->cmdline, &id, &number) &&
	    id == c->id && number == b->number) {
		booting_check(c, b, now, &why);
		if (!why.len) {
			set_state(b, CAMPAIGN_BOOT_RUNNING, NULL);
			free(b->boot_id);
			b->boot_id = xstrdup(now->boot_id);
			b->pid = now->pid;
			b->resumed_at = now->now;
			act = CAMPAIGN_RUN;
			goto out;
		}
	} else {
		strbuf_addf(&why,
			    "the machine came up in release %s without "
			    "mmcmp.boot=%ld: the kernel did not reach its "
			    "resume (a panic, a hang and a reset, a power cut)",
			    now->release, b->number);
		if (now->pstore)
			strbuf_addf(&why, "; pstore kept: %s", now->pstore);
	}
	set_state(b, CAMPAIGN_BOOT_FAILED, why.buf);
	b->ended_at = now->now;
out:
	strbuf_release(&why);
	return act;
}

enum campaign_action campaign_decide(struct campaign *c,
				     const struct campaign_now *now,
				     size_t *boot)
{
	if (c->state != CAMPAIGN_RUNNING)
		return CAMPAIGN_NONE;
	for (size_t i = 0; i < c->boots_nr; i++) {
		struct campaign_boot *b = &c->boots[i];
		enum campaign_action act;

		*boot = i;
		switch (b->state) {
		case CAMPAIGN_BOOT_RUNNING:
			if (running_busy(b, now))
				return CAMPAIGN_BUSY;
			break;
		case CAMPAIGN_BOOT_BOOTING:
			act = booting(c, b, now);
			if (act != CAMPAIGN_NONE)
				return act;
			break;
		case CAMPAIGN_BOOT_PENDING:
			set_state(b, CAMPAIGN_BOOT_BOOTING, NULL);
			b->booted_at = now->now;
			free(b->from_boot_id);
			b->from_boot_id = xstrdup(now->boot_id);
			return CAMPAIGN_BOOT;
		case CAMPAIGN_BOOT_DONE:
		case CAMPAIGN_BOOT_FAILED:
		case CAMPAIGN_BOOT_INTERRUPTED:
			break;
		}
	}
	if (c->open) {
		*boot = c->boots_nr;
		return CAMPAIGN_EXTEND;
	}
	c->state = CAMPAIGN_DONE;
	c->state_changed = true;
	c->ended_at = now->now;
	return CAMPAIGN_FINISH;
}

void campaign_boot_end(struct campaign *c, size_t bi,
		       enum campaign_boot_state s, double now, const char *why)
{
	set_state(&c->boots[bi], s, why);
	c->boots[bi].ended_at = now;
}

const struct campaign_boot *campaign_booting(const struct campaign *c)
{
	for (size_t i = 0; i < c->boots_nr; i++)
		if (c->boots[i].state == CAMPAIGN_BOOT_BOOTING)
			return &c->boots[i];
	return NULL;
}

void campaign_progress(const struct campaign *c, struct campaign_progress *p)
{
	double sum = 0;

	memset(p, 0, sizeof(*p));
	for (size_t i = 0; i < c->boots_nr; i++) {
		const struct campaign_boot *b = &c->boots[i];

		switch (b->state) {
		case CAMPAIGN_BOOT_DONE:
			p->done++;
			sum += b->ended_at - b->booted_at;
			break;
		case CAMPAIGN_BOOT_FAILED:
			p->failed++;
			break;
		case CAMPAIGN_BOOT_INTERRUPTED:
			p->interrupted++;
			break;
		default:
			p->left++;
			break;
		}
	}
	p->eta_s = p->done ? sum / (double)p->done * (double)p->left : -1;
}

/* One boot's line of campaign_describe(). */
static void describe_boot(const struct campaign *c,
			  const struct campaign_boot *b, double now,
			  struct strbuf *out)
{
	strbuf_addf(out, "  boot %ld  %-12s %s", b->number, b->kernel,
		    campaign_boot_state_name(b->state));
	if (b->state == CAMPAIGN_BOOT_BOOTING &&
	    now - b->booted_at > c->boot_timeout_s)
		strbuf_addf(out, " for %.0f s, past boot_timeout %g s",
			    now - b->booted_at, c->boot_timeout_s);
	if (b->state == CAMPAIGN_BOOT_DONE)
		strbuf_addf(out, " in %.0f s", b->ended_at - b->booted_at);
	if (b->pid && b->state == CAMPAIGN_BOOT_RUNNING)
		strbuf_addf(out, " (pid %" PRId64 ")", b->pid);
	if (b->why)
		strbuf_addf(out, ": %s", b->why);
	strbuf_addch(out, '\n');
}

void campaign_describe(const struct campaign *c, double now, struct strbuf *out)
{
	const struct campaign_boot *next = NULL;
	struct campaign_progress p;

	campaign_progress(c, &p);
	strbuf_addf(out,
		    "campaign %" PRId64 ": %s, label %s, method %s, home "
		    "kernel %s\n",
		    c->id, campaign_state_name(c->state), c->label,
		    campaign_method_name(c->method), c->home_release);
	strbuf_addf(out,
		    "boots: %zu, %zu done, %zu failed, %zu interrupted, %zu "
		    "to come",
		    c->boots_nr, p.done, p.failed, p.interrupted, p.left);
	if (c->state == CAMPAIGN_RUNNING && p.left && p.eta_s >= 0 && !c->open)
		strbuf_addf(out, ", about %.0f s more", p.eta_s);
	if (c->state == CAMPAIGN_RUNNING && c->open)
		strbuf_addstr(out, " in this batch; its bisection adds the "
				   "next batch's as it goes on");
	strbuf_addch(out, '\n');
	for (size_t i = 0; i < c->boots_nr; i++) {
		describe_boot(c, &c->boots[i], now, out);
		if (!next && c->boots[i].state == CAMPAIGN_BOOT_PENDING)
			next = &c->boots[i];
	}
	if (c->state == CAMPAIGN_RUNNING && next)
		strbuf_addf(out, "next: boot %ld, kernel %s\n", next->number,
			    next->kernel);
}
