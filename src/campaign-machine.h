#ifndef MMCMP_CAMPAIGN_MACHINE_H
#define MMCMP_CAMPAIGN_MACHINE_H

#include <stdbool.h>

struct campaign;
struct campaign_boot;
struct config;
struct store;
struct strbuf;

/*
 * campaign-machine: what a campaign (campaign.h) needs of this machine:
 * the facts a resume decides by (boot_id, release, command line), the
 * checks `campaign start` makes before it installs anything, the boots
 * of a config's schedule with their images' SHA-256 and releases, the
 * resume unit (its text, installed and removed) and the boot of one
 * boot by its method. Functions give 0, or -1 with one line in err.
 */

/* The running kernel, as campaign_now wants it; strings owned here. */
struct campaign_machine {
	char *boot_id, *release, *cmdline;
};
int campaign_machine_read(struct campaign_machine *m, struct strbuf *err);
void campaign_machine_release(struct campaign_machine *m);

/*
 * The line that says how an earlier boot ended (a "Kernel panic", an
 * "Oops", a "BUG:", ...) in the newest dmesg record that pstore kept
 * in dir (NULL: /sys/fs/pstore, where the kernel puts the records of
 * ramoops, EFI variables or a block device) from since (Unix seconds)
 * on, so that no older record is taken for it, without the log level
 * and time stamp; NULL when there is none or dir cannot be read.
 * Caller frees.
 */
char *campaign_pstore_panic(const char *dir, double since);

/* The name of the resume unit in a systemd unit directory. */
#define CAMPAIGN_UNIT_NAME "mmcmp-campaign.service"

/*
 * What a campaign, or a bisection on this machine, needs of the host
 * before anything is installed: root, systemd (unless no_unit) to run
 * the resume unit, and a database on a disk (campaign_check_disk()).
 */
int campaign_check_host(const char *db_path, bool no_unit, struct strbuf *err);
/*
 * Refuse path when it is on a tmpfs or ramfs, which a reboot empties:
 * "WHAT 'PATH' is on a tmpfs ... (OPTION)", OPTION the one that sets it.
 */
int campaign_check_disk(const char *path, const char *what, const char *option,
			struct strbuf *err);

/*
 * Refuse what would make an unattended campaign fail after it began:
 * cfg without `kernels` or `machine`, not root, no systemd (unless
 * no_unit), an image that is missing or not a bzImage, an initrd that
 * is missing, kexec disabled or locked down (method kexec), a boot
 * loader entry that is missing (method reboot), a database on tmpfs or
 * ramfs, which a reboot loses. grub_cfg: NULL for /boot/grub/grub.cfg.
 */
int campaign_check(const struct config *cfg, const char *db_path, bool no_unit,
		   const char *grub_cfg, struct strbuf *err);

/*
 * Fill c (CAMPAIGN_INIT) for config cfg, whose text and path are given,
 * and label: the method and times of `machine:`, the home kernel (m) and
 * the schedule's boots, each with its kernel's image, initrd, entry,
 * append, the image's SHA-256 and release.
 */
int campaign_plan(struct campaign *c, const struct config *cfg,
		  const char *path, const char *text, const char *label,
		  const struct campaign_machine *m, struct strbuf *err);

/* The SHA-256 of the file at path, as 64 hex digits (caller frees). */
char *campaign_file_sha256(const char *path, struct strbuf *err);

/*
 * The text of the resume unit: a oneshot service after local-fs.target
 * (no network) that runs `MMCMP --db DB campaign resume`.
 */
void campaign_unit_text(const char *mmcmp, const char *db, struct strbuf *out);
/*
 * Write the unit into unit_dir and enable it (the multi-user.target.wants
 * link systemctl enable makes); its path into path.
 */
int campaign_unit_install(const char *unit_dir, const char *text,
			  struct strbuf *path, struct strbuf *err);
/* Remove the unit at path and its link; a missing one is no error. */
int campaign_unit_remove(const char *path, struct strbuf *err);

/*
 * Boot b by c's method: kexec_file_load and jump, or the boot loader's
 * one-shot entry and a reboot. Returns only when that failed.
 */
int campaign_boot_now(const struct campaign *c, const struct campaign_boot *b,
		      struct strbuf *err);

#endif /* MMCMP_CAMPAIGN_MACHINE_H */
