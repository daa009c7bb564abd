#ifndef MMCMP_CAMPAIGN_H
#define MMCMP_CAMPAIGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strbuf;

/*
 * campaign: kernels booted on the machine itself, one after the other
 * (`machine:` in a config, `mmcmp campaign`): the schedule, the kernel
 * command line of each boot, and the rules by which a resume decides
 * what to do after a boot (campaign_decide()). Pure: nothing here reads
 * the machine or the store (store-campaign.h keeps a campaign, kexec.h
 * boots). A struct campaign owns its strings and boots; release it with
 * campaign_release(). Functions returning int give 0, or -1 with one
 * line in err.
 */

enum campaign_state {
	CAMPAIGN_RUNNING,
	CAMPAIGN_DONE,
	CAMPAIGN_ABORTED,
};

enum campaign_boot_state {
	CAMPAIGN_BOOT_PENDING,	   /* not booted yet */
	CAMPAIGN_BOOT_BOOTING,	   /* its kexec or reboot began */
	CAMPAIGN_BOOT_RUNNING,	   /* a resume runs its iterations */
	CAMPAIGN_BOOT_DONE,	   /* its iterations ran */
	CAMPAIGN_BOOT_FAILED,	   /* it never came up, or not in time */
	CAMPAIGN_BOOT_INTERRUPTED, /* its resume ended before its iterations */
};

enum campaign_method {
	CAMPAIGN_KEXEC,
	CAMPAIGN_REBOOT,
};

/* One boot of the schedule; times are Unix seconds, 0 when not yet. */
struct campaign_boot {
	long number; /* from 1 */
	char *kernel;
	char *image, *initrd, *entry;	    /* initrd and entry may be NULL */
	char *image_sha256, *image_release; /* release may be NULL */
	char *cmdline; /* the whole command line, with its tokens */
	/* The kernel's append: store_campaign_add() makes cmdline with it. */
	char *append;
	enum campaign_boot_state state;
	double booted_at, resumed_at, ended_at;
	char *from_boot_id; /* of the kernel that booted it */
	char *boot_id;	    /* of the kernel it ran in */
	int64_t pid;	    /* of the resume that ran it; 0: none */
	char *why;	    /* failed or interrupted: why */
	/* Set by campaign_decide() on each boot it changed, with the old state.
	 */
	bool changed;
	enum campaign_boot_state was;
};

struct campaign {
	int64_t id;
	char *label, *config_path, *config_text;
	enum campaign_method method;
	double settle_s, boot_timeout_s;
	char *home_release, *home_cmdline; /* the kernel it started from */
	char *unit_path;		   /* the installed unit; NULL: none */
	enum campaign_state state;
	bool state_changed; /* by campaign_decide() */
	/*
	 * A bisection's campaign (mmcmp bisect with machine:): its id, 0
	 * for none; open while the search goes on, which appends its
	 * batches' boots as it asks for them.
	 */
	int64_t bisect_id;
	bool open;
	double started_at, ended_at;
	struct campaign_boot *boots;
	size_t boots_nr, boots_alloc;
};

#define CAMPAIGN_INIT                                                          \
	{                                                                      \
		0                                                              \
	}

/* Free what c holds; c becomes CAMPAIGN_INIT. NULL is a no-op. */
void campaign_release(struct campaign *c);

/* "pending", "booting", ...; "running", "done", "aborted"; "kexec". */
const char *campaign_boot_state_name(enum campaign_boot_state s);
const char *campaign_state_name(enum campaign_state s);
const char *campaign_method_name(enum campaign_method m);
/* The reverse; false for a name that is none of them. */
bool campaign_boot_state_parse(const char *name, enum campaign_boot_state *s);
bool campaign_state_parse(const char *name, enum campaign_state *s);

/*
 * The kernel of each of the kernels_nr * boots boots, into order:
 * rounds of all kernels alternating in direction, A B B A A B for two
 * kernels and three boots each, so that a drift of the machine over the
 * campaign falls on every kernel alike.
 */
void campaign_schedule(size_t kernels_nr, int boots, size_t *order);

/*
 * The command line of boot `number` of campaign id, into out: the home
 * kernel's (home, as /proc/cmdline gives it) without its BOOT_IMAGE=,
 * initrd= and mmcmp.* words, then append (NULL: none), then
 * "mmcmp.campaign=ID mmcmp.boot=N"; all before a " -- " that passes
 * arguments to init. Double-quoted words stay whole. An id of 0, a
 * campaign not recorded yet (start --check), is written as the letters
 * "ID": its number is given when it is recorded.
 */
void campaign_cmdline(const char *home, const char *append, int64_t id,
		      long number, struct strbuf *out);
/*
 * The campaign and boot numbers of the mmcmp.campaign= and mmcmp.boot=
 * words of cmdline; false when it has not both.
 */
bool campaign_cmdline_tokens(const char *cmdline, int64_t *id, long *number);

/* What a resume finds about the kernel it runs in. */
struct campaign_now {
	double now;	     /* Unix seconds */
	const char *boot_id; /* /proc/sys/kernel/random/boot_id */
	const char *release; /* uname -r */
	const char *cmdline; /* /proc/cmdline */
	int64_t pid;	     /* of this resume */
	/* The SHA-256 of the image file of the boot booting now; NULL: unread.
	 */
	const char *image_sha256;
	/* Whether process pid of this kernel still runs a resume. */
	bool (*alive)(int64_t pid, void *ctx);
	void *ctx;
	/*
	 * What pstore kept of how an earlier boot ended (its panic line,
	 * campaign_pstore_panic()); NULL: nothing. A boot that never came
	 * back is failed with it.
	 */
	const char *pstore;
};

enum campaign_action {
	CAMPAIGN_NONE,	 /* the campaign is done or aborted */
	CAMPAIGN_BUSY,	 /* another resume runs boot `boot` */
	CAMPAIGN_RUN,	 /* run the iterations of boot `boot`, now ours */
	CAMPAIGN_BOOT,	 /* boot `boot` (marked booting) */
	CAMPAIGN_FINISH, /* every boot is over: remove the unit, go home */
	CAMPAIGN_EXTEND, /* every boot is over, but the campaign is open */
};

/*
 * What a resume does next, and the boots' new states in c (each changed
 * boot has `changed` set and its old state in `was`; c->state_changed
 * when the campaign ends). *boot is the index of the action's boot. The
 * rules, boot by boot in schedule order:
 *
 * - running: if its resume is alive in this kernel (same boot_id), BUSY;
 *   else interrupted (the machine restarted, or its resume was killed).
 *   Its stored iterations stay; it is not run again.
 * - booting: this kernel carries its tokens and is not the kernel that
 *   booted it: failed when it came later than boot_timeout after the boot
 *   began, with another release than its image's, or when its image
 *   changed (SHA-256); else RUN. Still the kernel that booted it (the
 *   kexec or reboot never happened): BOOT it again. Any other kernel (the
 *   default one after a panic, a hang or a reset): failed.
 * - pending: the first is BOOT.
 * - done, failed, interrupted: skipped.
 *
 * After the last boot, FINISH (the campaign becomes done); EXTEND when
 * the campaign is open (its bisection goes on: the caller appends the
 * boots of its next batch, or ends the search, and decides again), with
 * *boot the number of boots. A campaign that is not running gives NONE.
 */
enum campaign_action campaign_decide(struct campaign *c,
				     const struct campaign_now *now,
				     size_t *boot);

/*
 * End boot bi in state s (done, failed or interrupted) at time now, with
 * why (NULL: none), marked changed for store_campaign_update().
 */
void campaign_boot_end(struct campaign *c, size_t bi,
		       enum campaign_boot_state s, double now, const char *why);

/* The boot in state booting, or NULL (for campaign_now.image_sha256). */
const struct campaign_boot *campaign_booting(const struct campaign *c);

/*
 * Boots by state, and the estimated seconds to the end: the mean
 * duration of the done boots (from their start to their end) times the
 * boots still to come; -1 when no boot is done yet.
 */
struct campaign_progress {
	size_t done, failed, interrupted, left;
	double eta_s;
};
void campaign_progress(const struct campaign *c, struct campaign_progress *p);

/*
 * Append what `mmcmp campaign status` shows of c at time now: its state,
 * label, method and home kernel, the boots by state with the ETA, every
 * boot with its state (and why it failed), and the next boot.
 */
void campaign_describe(const struct campaign *c, double now,
		       struct strbuf *out);

#endif /* MMCMP_CAMPAIGN_H */
