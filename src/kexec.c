/* kexec: boot the next kernel by kexec_file_load or the boot loader. */
#include "kexec.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/reboot.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner.h"
#include "strbuf.h"
#include "util.h"

#ifndef KEXEC_FILE_UNLOAD
#define KEXEC_FILE_UNLOAD	0x00000001
#define KEXEC_FILE_NO_INITRAMFS 0x00000004
#endif

extern char **environ;

#define GRUB_CFG	"/boot/grub/grub.cfg"
#define GRUB_ENV_HEADER "# GRUB Environment Block\n"
#define GRUB_ENV_SIZE	1024

/* The first line of file path into sb; false when it cannot be read. */
static bool read_line(const char *path, struct strbuf *sb)
{
	struct strbuf err = STRBUF_INIT;
	bool ok = !strbuf_read_file(sb, path, &err);

	strbuf_release(&err);
	if (ok)
		strbuf_setlen(sb, strcspn(sb->buf, "\n"));
	return ok;
}

int kexec_check(struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = -1;

	if (geteuid()) {
		error_addf(err, "kexec needs root: run the campaign as root");
		goto out;
	}
	if (read_line("/proc/sys/kernel/kexec_load_disabled", &sb) &&
	    !strcmp(sb.buf, "1")) {
		error_addf(err,
			   "kexec is disabled on this kernel "
			   "(/proc/sys/kernel/kexec_load_disabled is 1 until "
			   "the next boot); use method: reboot");
		goto out;
	}
	strbuf_reset(&sb);
	if (read_line("/sys/kernel/security/lockdown", &sb) &&
	    !strstr(sb.buf, "[none]")) {
		error_addf(err,
			   "the kernel is locked down (%s in "
			   "/sys/kernel/security/lockdown): kexec takes only "
			   "signed images; use method: reboot",
			   sb.buf);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&sb);
	return ret;
}

int kexec_load(const char *image, const char *initrd, const char *cmdline,
	       struct strbuf *err)
{
	int kfd = open(image, O_RDONLY | O_CLOEXEC);
	int ifd = initrd ? open(initrd, O_RDONLY | O_CLOEXEC) : -1;
	unsigned long flags = initrd ? 0 : KEXEC_FILE_NO_INITRAMFS;
	int ret = -1;

	if (kfd < 0 || (initrd && ifd < 0)) {
		error_addf(err, "cannot open '%s': %s",
			   kfd < 0 ? image : initrd, strerror(errno));
		goto out;
	}
	if (syscall(SYS_kexec_file_load, kfd, ifd, strlen(cmdline) + 1, cmdline,
		    flags)) {
		error_addf(err, "cannot load '%s' with kexec_file_load: %s%s",
			   image, strerror(errno),
			   errno == EPERM || errno == EKEYREJECTED
				   ? " (not root, locked down, or an image "
				     "whose signature the kernel refuses)"
				   : "");
		goto out;
	}
	ret = 0;
out:
	if (kfd >= 0)
		close(kfd);
	if (ifd >= 0)
		close(ifd);
	return ret;
}

int kexec_unload(struct strbuf *err)
{
	if (syscall(SYS_kexec_file_load, -1, -1, 0UL, NULL,
		    (unsigned long)KEXEC_FILE_UNLOAD) &&
	    errno != ENOENT)
		return error_addf(err, "cannot unload the kexec kernel: %s",
				  strerror(errno));
	return 0;
}

int kexec_jump(struct strbuf *err)
{
	sync();
	reboot(LINUX_REBOOT_CMD_KEXEC);
	return error_addf(err, "cannot kexec the loaded kernel: %s",
			  strerror(errno));
}

/* Whether line (a grub.cfg line) is a menuentry titled or with id name. */
static bool entry_line(const char *line, const char *name)
{
	const char *p = line + strspn(line, " \t");
	size_t n = strlen(name);

	if (strncmp(p, "menuentry ", 10) && strncmp(p, "submenu ", 8))
		return false;
	p = strchr(p, ' ') + 1;
	for (const char *q = p; (q = strstr(q, name)); q++)
		if ((q[-1] == '\'' || q[-1] == '"' || q[-1] == ' ') &&
		    (q[n] == '\'' || q[n] == '"' || q[n] == ' ' || !q[n]))
			return true;
	return false;
}

int boot_loader_find_entry(const char *entry, const char *grub_cfg,
			   struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	const char *cfg = grub_cfg ? grub_cfg : GRUB_CFG;
	const char *last = strrchr(entry, '>');
	int ret = -1;

	last = last ? last + 1 : entry;
	if (strbuf_read_file(&text, cfg, err))
		goto out;
	for (char *line = text.buf; line && *line;) {
		char *eol = strchr(line, '\n');

		if (eol)
			*eol = '\0';
		if (*last && entry_line(line, last)) {
			ret = 0;
			goto out;
		}
		line = eol ? eol + 1 : NULL;
	}
	error_addf(err, "boot loader entry '%s' is not in '%s'", entry, cfg);
out:
	strbuf_release(&text);
	return ret;
}

/* The GRUB environment block at path into sb, checked. */
static int read_env(const char *path, struct strbuf *sb, struct strbuf *err)
{
	if (strbuf_read_file(sb, path, err))
		return -1;
	if (sb->len != GRUB_ENV_SIZE ||
	    strncmp(sb->buf, GRUB_ENV_HEADER, strlen(GRUB_ENV_HEADER)))
		return error_addf(err,
				  "'%s' is not a GRUB environment block (%d "
				  "bytes from '# GRUB Environment Block'), "
				  "where grub-reboot keeps the one-shot entry; "
				  "grub-editenv %s create makes one",
				  path, GRUB_ENV_SIZE, path);
	return 0;
}

/* path's directory and "/grubenv" into sb. */
static void env_path(const char *grub_cfg, struct strbuf *sb)
{
	const char *slash = strrchr(grub_cfg, '/');

	strbuf_reset(sb);
	if (slash)
		strbuf_addf(sb, "%.*s/grubenv", (int)(slash - grub_cfg),
			    grub_cfg);
	else
		strbuf_addstr(sb, "grubenv");
}

int boot_loader_env_get(const char *path, const char *key, char **value,
			struct strbuf *err)
{
	struct strbuf env = STRBUF_INIT;
	size_t n = strlen(key);
	int ret = -1;

	*value = NULL;
	if (read_env(path, &env, err))
		goto out;
	for (char *line = env.buf; line && *line;) {
		char *eol = strchr(line, '\n');

		if (eol)
			*eol = '\0';
		if (!strncmp(line, key, n) && line[n] == '=') {
			*value = xstrdup(line + n + 1);
			break;
		}
		line = eol ? eol + 1 : NULL;
	}
	ret = 0;
out:
	strbuf_release(&env);
	return ret;
}

int boot_loader_check_one_shot(const char *grub_cfg, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT, env = STRBUF_INIT;
	const char *cfg = grub_cfg ? grub_cfg : GRUB_CFG;
	int ret = -1;

	if (strbuf_read_file(&text, cfg, err))
		goto out;
	if (!strstr(text.buf, "next_entry")) {
		error_addf(err,
			   "'%s' never reads next_entry, so grub-reboot's "
			   "one-shot entry would not boot; make it with "
			   "grub-mkconfig (update-grub)",
			   cfg);
		goto out;
	}
	env_path(cfg, &text);
	ret = read_env(text.buf, &env, err);
out:
	strbuf_release(&text);
	strbuf_release(&env);
	return ret;
}

int boot_loader_check(const char *entry, const char *grub_cfg,
		      struct strbuf *err)
{
	struct strbuf prog = STRBUF_INIT;
	int e = runner_find_program("grub-reboot", getenv("PATH"), NULL, &prog);

	strbuf_release(&prog);
	if (boot_loader_find_entry(entry, grub_cfg, err) ||
	    boot_loader_check_one_shot(grub_cfg, err))
		return -1;
	if (e)
		return error_addf(err, "method reboot needs grub-reboot (the "
				       "Debian package grub2-common), which is "
				       "not installed");
	return 0;
}

/* What grub-reboot should have written: next_entry=entry. */
static int check_next(const char *entry, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	char *next = NULL;
	int ret;

	env_path(GRUB_CFG, &path);
	ret = boot_loader_env_get(path.buf, "next_entry", &next, err);
	if (!ret && (!next || strcmp(next, entry)))
		ret = error_addf(err,
				 "grub-reboot '%s' left next_entry %s%s%s in "
				 "'%s', so the reboot would not boot it",
				 entry, next ? "'" : "unset", next ? next : "",
				 next ? "'" : "", path.buf);
	free(next);
	strbuf_release(&path);
	return ret;
}

int boot_loader_next(const char *entry, struct strbuf *err)
{
	char prog[] = "grub-reboot";
	char *arg = xstrdup(entry);
	char *argv[] = {prog, arg, NULL};
	pid_t pid;
	int status = 0, e;

	e = posix_spawnp(&pid, prog, NULL, NULL, argv, environ);
	free(arg);
	if (e)
		return error_addf(err, "cannot run grub-reboot: %s",
				  strerror(e));
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return error_addf(err,
					  "cannot wait for grub-reboot: %s",
					  strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return error_addf(err, "grub-reboot '%s' failed (status %d)",
				  entry, status);
	return check_next(entry, err);
}

int machine_reboot(struct strbuf *err)
{
	sync();
	reboot(RB_AUTOBOOT);
	return error_addf(err, "cannot reboot: %s", strerror(errno));
}
