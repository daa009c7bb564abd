#ifndef MMCMP_INITRAMFS_H
#define MMCMP_INITRAMFS_H

#include <stddef.h>

struct strbuf;
struct strvec;

/*
 * initramfs: the root filesystem of a guest, written as the kernel wants
 * an initramfs: a "newc" cpio archive, gzip-compressed. The kernel
 * unpacks it into a tmpfs and runs /init, so a guest needs nothing of
 * the host's disks and any kernel with initramfs support and a serial
 * port can run it.
 *
 * Entries are collected in memory (struct initramfs, opaque) and written
 * at once by initramfs_write(). Paths are absolute guest paths; the
 * directories leading to an entry are added before it, once each.
 * initramfs_add_program() adds an executable with what it needs to run:
 * the shared libraries and dynamic loader ldd names (a static program
 * needs none), or the interpreter of a "#!" script, each at the path it
 * has on the host.
 *
 * Functions returning int give 0, or -1 with one line in err.
 */
struct initramfs;

/* A new, empty archive; free it with initramfs_free(). */
struct initramfs *initramfs_new(void);
/* Free ir; NULL is a no-op. */
void initramfs_free(struct initramfs *ir);

/* Add directory path (and its parents), mode 0755. */
void initramfs_add_dir(struct initramfs *ir, const char *path);
/* Add a regular file at path with len bytes of data and the given mode. */
void initramfs_add_data(struct initramfs *ir, const char *path,
			const void *data, size_t len, unsigned mode);
/* Add the host file `host` at guest path `path` (NULL: the same). */
int initramfs_add_file(struct initramfs *ir, const char *path, const char *host,
		       unsigned mode, struct strbuf *err);
/*
 * Add the executable at host path `prog` at the same path, with its
 * shared libraries or its interpreter (see above); once per path.
 */
int initramfs_add_program(struct initramfs *ir, const char *prog,
			  struct strbuf *err);
/* Whether path is in the archive already. */
int initramfs_has(const struct initramfs *ir, const char *path);

/*
 * Append to libs the absolute paths of the libraries in `ldd` output
 * ("libc.so.6 => /lib/.../libc.so.6 (0x...)", "/lib64/ld-linux... (0x..)");
 * lines without a path (linux-vdso.so.1, "not a dynamic executable") are
 * skipped. A library ldd did not find ("=> not found") is an error that
 * names it.
 */
int initramfs_parse_ldd(const char *ldd, struct strvec *libs,
			struct strbuf *err);

/*
 * The root of a machine booted to run mmcmp itself, as a campaign's tests
 * boot one in QEMU: /init with the text init (a script), /bin/busybox
 * from the host file busybox (a static one, from busybox-static; the
 * init script installs its applets), the directories /proc, /sys, /dev,
 * /tmp and /mnt, and each of the programs (absolute host paths, NULL
 * ended) with their libraries, at their host paths.
 */
int initramfs_add_machine(struct initramfs *ir, const char *init,
			  const char *busybox, char *const *programs,
			  struct strbuf *err);

/* Write the archive to out_path, gzip-compressed, replacing the file. */
int initramfs_write(const struct initramfs *ir, const char *out_path,
		    struct strbuf *err);

#endif /* MMCMP_INITRAMFS_H */
