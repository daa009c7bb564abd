/* campaign-machine: this machine's part of a campaign: facts, checks, unit. */
#include "campaign-machine.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "campaign.h"
#include "config.h"
#include "executor-qemu.h"
#include "kexec.h"
#include "sha256.h"
#include "strbuf.h"
#include "util.h"

/* statfs(2) f_type of the file systems a reboot empties. */
#define TMPFS_FS_MAGIC 0x01021994
#define RAMFS_FS_MAGIC 0x858458f6

static char *first_line(const char *path, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;

	if (strbuf_read_file(&sb, path, err)) {
		strbuf_release(&sb);
		return NULL;
	}
	strbuf_setlen(&sb, strcspn(sb.buf, "\n"));
	return strbuf_detach(&sb, NULL);
}

int campaign_machine_read(struct campaign_machine *m, struct strbuf *err)
{
	struct utsname u;

	memset(m, 0, sizeof(*m));
	if (uname(&u))
		return error_addf(err, "uname: %s", strerror(errno));
	m->release = xstrdup(u.release);
	m->boot_id = first_line("/proc/sys/kernel/random/boot_id", err);
	m->cmdline = m->boot_id ? first_line("/proc/cmdline", err) : NULL;
	if (!m->cmdline) {
		campaign_machine_release(m);
		return -1;
	}
	return 0;
}

/* The panic line of one pstore record's text, or NULL. */
static char *panic_line(char *text)
{
	static const char *const marks[] = {
		"Kernel panic - not syncing", "BUG:",	    "Oops",
		"general protection fault",   "watchdog: ", "Kernel BUG"};

	for (char *line = text; line && *line;) {
		char *eol = strchr(line, '\n');
		char *p = line;

		if (eol)
			*eol = '\0';
		/* The log's lines, "<0>[    1.23] ...", not the header. */
		if (*p != '<' && *p != '[')
			p = NULL;
		if (p && *p == '<')
			p += strcspn(p, ">") + (p[strcspn(p, ">")] ? 1 : 0);
		if (p && *p == '[')
			p += strcspn(p, "]") + (p[strcspn(p, "]")] ? 1 : 0);
		for (size_t i = 0; p && i < ARRAY_SIZE(marks); i++)
			if (strstr(p, marks[i])) {
				p += strspn(p, " ");
				return xstrndup(p, strcspn(p, "\r"));
			}
		line = eol ? eol + 1 : NULL;
	}
	return NULL;
}

char *campaign_pstore_panic(const char *dir, double since)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT, err = STRBUF_INIT;
	const char *where = dir ? dir : "/sys/fs/pstore";
	DIR *d = opendir(where);
	struct dirent *de;
	time_t newest = 0;
	char *line = NULL;

	while (d && (de = readdir(d))) {
		struct stat sb;
		char *found;

		if (strncmp(de->d_name, "dmesg-", 6))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", where, de->d_name);
		strbuf_reset(&text);
		if (stat(path.buf, &sb) || (double)sb.st_mtime < since - 1 ||
		    (line && sb.st_mtime < newest) ||
		    strbuf_read_file(&text, path.buf, &err))
			continue;
		found = panic_line(text.buf);
		if (found) {
			free(line);
			line = found;
			newest = sb.st_mtime;
		}
	}
	if (d)
		closedir(d);
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&err);
	return line;
}

void campaign_machine_release(struct campaign_machine *m)
{
	if (!m)
		return;
	free(m->boot_id);
	free(m->release);
	free(m->cmdline);
	memset(m, 0, sizeof(*m));
}

int campaign_check_disk(const char *path, const char *what, const char *option,
			struct strbuf *err)
{
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	struct statfs sf;
	int ret = 0;

	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	if (statfs(slash ? dir : ".", &sf))
		ret = error_addf(err,
				 "cannot check the file system of '%s': %s",
				 path, strerror(errno));
	else if ((unsigned long)sf.f_type == TMPFS_FS_MAGIC ||
		 (unsigned long)sf.f_type == RAMFS_FS_MAGIC)
		ret = error_addf(err,
				 "%s '%s' is on a tmpfs, which a reboot "
				 "empties: give the campaign %s on a disk "
				 "(%s)",
				 what, path,
				 !strcmp(what, "database") ? "a database"
							   : "one",
				 option);
	free(dir);
	return ret;
}

static int check_kernel(const struct config *cfg, const struct kernel_spec *ks,
			const char *grub_cfg, struct strbuf *err)
{
	char *release = NULL;

	if (access(ks->image, R_OK))
		return error_addf(err,
				  "kernel '%s': image '%s' is not there: %s",
				  ks->name, ks->image, strerror(errno));
	if (qemu_image_release(ks->image, &release, err))
		return error_addf(err, "kernel '%s'", ks->name);
	free(release);
	if (ks->initrd && access(ks->initrd, R_OK))
		return error_addf(err,
				  "kernel '%s': initrd '%s' is not there: %s",
				  ks->name, ks->initrd, strerror(errno));
	if (cfg->machine.method != CONFIG_MACHINE_REBOOT)
		return 0;
	if (!ks->entry)
		return error_addf(err,
				  "kernel '%s': method reboot needs its boot "
				  "loader entry ('entry:')",
				  ks->name);
	if (boot_loader_check(ks->entry, grub_cfg, err))
		return error_addf(err, "kernel '%s'", ks->name);
	return 0;
}

int campaign_check_host(const char *db_path, bool no_unit, struct strbuf *err)
{
	if (geteuid())
		return error_addf(err, "a campaign boots kernels: run it as "
				       "root");
	if (!no_unit && access("/run/systemd/system", F_OK))
		return error_addf(err,
				  "systemd is not running here, so nothing "
				  "would resume the campaign after a boot; "
				  "with --no-unit, something else must run "
				  "mmcmp campaign resume after every boot");
	return campaign_check_disk(db_path, "database", "--db", err);
}

int campaign_check(const struct config *cfg, const char *db_path, bool no_unit,
		   const char *grub_cfg, struct strbuf *err)
{
	const char *where = cfg->path ? cfg->path : cfg->name;

	if (!cfg->machine.set || !cfg->kernels_nr)
		return error_addf(err,
				  "%s: a campaign needs 'kernels:' and "
				  "'machine:'",
				  where);
	if (campaign_check_host(db_path, no_unit, err))
		return -1;
	for (size_t k = 0; k < cfg->kernels_nr; k++)
		if (check_kernel(cfg, &cfg->kernels[k], grub_cfg, err))
			return -1;
	if (cfg->machine.method == CONFIG_MACHINE_KEXEC && kexec_check(err))
		return -1;
	return 0;
}

char *campaign_file_sha256(const char *path, struct strbuf *err)
{
	struct strbuf data = STRBUF_INIT;
	char hex[65];

	if (strbuf_read_file(&data, path, err)) {
		strbuf_release(&data);
		return NULL;
	}
	sha256_hex(data.buf, data.len, hex);
	strbuf_release(&data);
	return xstrdup(hex);
}

int campaign_plan(struct campaign *c, const struct config *cfg,
		  const char *path, const char *text, const char *label,
		  const struct campaign_machine *m, struct strbuf *err)
{
	size_t nr = cfg->kernels_nr * (size_t)cfg->machine.boots;
	size_t *order = xcalloc(nr ? nr : 1, sizeof(*order));
	char **sha = xcalloc(cfg->kernels_nr, sizeof(*sha));
	char **release = xcalloc(cfg->kernels_nr, sizeof(*release));
	int ret = -1;

	c->label = xstrdup(label);
	c->config_path = xstrdup(path);
	c->config_text = xstrdup(text);
	c->method = cfg->machine.method == CONFIG_MACHINE_REBOOT
			    ? CAMPAIGN_REBOOT
			    : CAMPAIGN_KEXEC;
	c->settle_s = cfg->machine.settle_s;
	c->boot_timeout_s = cfg->machine.boot_timeout_s;
	c->home_release = xstrdup(m->release);
	c->home_cmdline = xstrdup(m->cmdline);
	c->started_at = (double)time(NULL);
	for (size_t k = 0; k < cfg->kernels_nr; k++) {
		/* Kernels often share an image: read each one once. */
		for (size_t j = 0; j < k && !sha[k]; j++)
			if (!strcmp(cfg->kernels[j].image,
				    cfg->kernels[k].image))
				sha[k] = xstrdup(sha[j]);
		if (!sha[k])
			sha[k] = campaign_file_sha256(cfg->kernels[k].image,
						      err);
		if (!sha[k] ||
		    qemu_image_release(cfg->kernels[k].image, &release[k], err))
			goto out;
	}
	campaign_schedule(cfg->kernels_nr, cfg->machine.boots, order);
	for (size_t i = 0; i < nr; i++) {
		const struct kernel_spec *ks = &cfg->kernels[order[i]];
		struct campaign_boot *b;

		ALLOC_GROW(c->boots, c->boots_nr + 1, c->boots_alloc);
		b = &c->boots[c->boots_nr++];
		memset(b, 0, sizeof(*b));
		b->number = (long)i + 1;
		b->kernel = xstrdup(ks->name);
		b->image = xstrdup(ks->image);
		b->initrd = xstrdup(ks->initrd);
		b->entry = xstrdup(ks->entry);
		b->append = xstrdup(ks->append);
		b->image_sha256 = xstrdup(sha[order[i]]);
		b->image_release = xstrdup(release[order[i]]);
	}
	ret = 0;
out:
	for (size_t k = 0; k < cfg->kernels_nr; k++) {
		free(sha[k]);
		free(release[k]);
	}
	free(sha);
	free(release);
	free(order);
	return ret;
}

void campaign_unit_text(const char *mmcmp, const char *db, struct strbuf *out)
{
	strbuf_addf(out,
		    "# Installed by mmcmp campaign start; removed at the "
		    "campaign's end or abort.\n"
		    "[Unit]\n"
		    "Description=mmcmp campaign: resume after a boot\n"
		    "After=local-fs.target\n"
		    "Wants=local-fs.target\n"
		    "ConditionPathExists=%s\n"
		    "\n"
		    "[Service]\n"
		    "Type=oneshot\n"
		    "ExecStart=%s --db %s campaign resume\n"
		    "TimeoutStartSec=infinity\n"
		    "StandardOutput=journal+console\n"
		    "StandardError=journal+console\n"
		    "\n"
		    "[Install]\n"
		    "WantedBy=multi-user.target\n",
		    db, mmcmp, db);
}

int campaign_unit_install(const char *unit_dir, const char *text,
			  struct strbuf *path, struct strbuf *err)
{
	struct strbuf wants = STRBUF_INIT, link = STRBUF_INIT;
	FILE *f;
	int ret = -1;

	strbuf_reset(path);
	strbuf_addf(path, "%s/%s", unit_dir, CAMPAIGN_UNIT_NAME);
	f = fopen(path->buf, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		error_addf(err, "cannot write '%s': %s", path->buf,
			   strerror(errno));
		if (f)
			unlink(path->buf);
		goto out;
	}
	strbuf_addf(&wants, "%s/multi-user.target.wants", unit_dir);
	strbuf_addf(&link, "%s/%s", wants.buf, CAMPAIGN_UNIT_NAME);
	if ((mkdir(wants.buf, 0755) && errno != EEXIST) ||
	    ((unlink(link.buf) && errno != ENOENT) ||
	     symlink("../" CAMPAIGN_UNIT_NAME, link.buf))) {
		error_addf(err, "cannot enable '%s': %s", path->buf,
			   strerror(errno));
		unlink(path->buf);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&wants);
	strbuf_release(&link);
	return ret;
}

int campaign_unit_remove(const char *path, struct strbuf *err)
{
	struct strbuf link = STRBUF_INIT;
	const char *slash = strrchr(path, '/');
	int ret = 0;

	strbuf_addf(&link, "%.*s/multi-user.target.wants/%s",
		    slash ? (int)(slash - path) : 1, slash ? path : ".",
		    slash ? slash + 1 : path);
	if ((unlink(link.buf) && errno != ENOENT) ||
	    (unlink(path) && errno != ENOENT))
		ret = error_addf(err, "cannot remove the unit '%s': %s", path,
				 strerror(errno));
	strbuf_release(&link);
	return ret;
}

int campaign_boot_now(const struct campaign *c, const struct campaign_boot *b,
		      struct strbuf *err)
{
	if (c->method == CAMPAIGN_REBOOT) {
		if (boot_loader_next(b->entry, err))
			return -1;
		return machine_reboot(err);
	}
	if (kexec_load(b->image, b->initrd, b->cmdline, err))
		return -1;
	return kexec_jump(err);
}
