#ifndef MMCMP_KEXEC_H
#define MMCMP_KEXEC_H

#include <stdbool.h>

struct strbuf;

/*
 * kexec: how a campaign (campaign.h) boots the next kernel of this
 * machine. kexec: the kexec_file_load system call loads image, initrd
 * and command line, and reboot(LINUX_REBOOT_CMD_KEXEC) jumps to them
 * without firmware or boot loader. reboot: GRUB's one-shot entry
 * (grub-reboot) and a reboot, so that a kernel that hangs or panics
 * comes back, after a reset, to the default entry. The jumps return only
 * when they failed. Functions give 0, or -1 with one line in err.
 */

/*
 * Whether this machine can kexec: root, kexec not disabled
 * (/proc/sys/kernel/kexec_load_disabled) and the kernel not locked down
 * (/sys/kernel/security/lockdown), which would take only signed images.
 */
int kexec_check(struct strbuf *err);
/* Load image (with initrd, NULL: none) to boot with cmdline. */
int kexec_load(const char *image, const char *initrd, const char *cmdline,
	       struct strbuf *err);
/* Unload what kexec_load() loaded; none loaded is no error. */
int kexec_unload(struct strbuf *err);
/* Sync the file systems and jump to the loaded kernel. */
int kexec_jump(struct strbuf *err);

/*
 * Whether GRUB has menu entry `entry` (a title, an id, or a
 * "submenu>entry" path as grub-reboot takes it) in its config `grub_cfg`
 * (NULL: /boot/grub/grub.cfg), boots a one-shot entry
 * (boot_loader_check_one_shot()), and grub-reboot is installed.
 */
int boot_loader_check(const char *entry, const char *grub_cfg,
		      struct strbuf *err);
/* The entry part of boot_loader_check(), without grub-reboot. */
int boot_loader_find_entry(const char *entry, const char *grub_cfg,
			   struct strbuf *err);
/*
 * Whether a one-shot entry would boot once: grub_cfg (NULL: as above)
 * reads next_entry, as grub-mkconfig's header does, and the grubenv
 * beside it, where grub-reboot writes next_entry, is a GRUB environment
 * block (1024 bytes from "# GRUB Environment Block").
 */
int boot_loader_check_one_shot(const char *grub_cfg, struct strbuf *err);
/*
 * The value of key in the GRUB environment block at path into *value
 * (caller frees; NULL when the block has no such key).
 */
int boot_loader_env_get(const char *path, const char *key, char **value,
			struct strbuf *err);
/*
 * Make entry the boot loader's next boot, once (grub-reboot ENTRY), and
 * check that /boot/grub/grubenv then says next_entry=ENTRY.
 */
int boot_loader_next(const char *entry, struct strbuf *err);
/* Sync the file systems and reboot the machine. */
int machine_reboot(struct strbuf *err);

#endif /* MMCMP_KEXEC_H */
