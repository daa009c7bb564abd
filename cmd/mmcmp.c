/* mmcmp: global options, command lookup and the final stdout check. */
#include "cmd.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "mmcmp-version.h"
#include "names.h"
#include "store.h"
#include "strbuf.h"
#include "strvec.h"

#define DEFAULT_DB "mmcmp.db"

static const struct cmd *const commands[] = {
	&cmd_run,    &cmd_list,	 &cmd_show,   &cmd_compare, &cmd_import,
	&cmd_export, &cmd_power, &cmd_report, &cmd_delete,  &cmd_relabel,
};

static const char *db_path;
/* What usage_error() puts before its message (usage_error_context()). */
static const char *usage_context;

const char *mmcmp_db_path(void)
{
	const char *env;

	if (db_path)
		return db_path;
	env = getenv("MMCMP_DB");
	if (env && *env)
		return env;
	return DEFAULT_DB;
}

int error(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("mmcmp: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("mmcmp: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void usage_error_context(const char *ctx)
{
	usage_context = ctx;
}

int usage_error(const struct cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "mmcmp%s%s: error: %s", cmd ? " " : "",
		cmd ? cmd->name : "", usage_context ? usage_context : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fprintf(stderr, "usage: see 'mmcmp%s%s --help'\n", cmd ? " " : "",
		cmd ? cmd->name : "");
	return 2;
}

int transient_db_error(const struct cmd *cmd)
{
	/* SQLite's in-memory and temporary databases go when mmcmp exits. */
	return usage_error(cmd,
			   "--db '%s' would throw the results away at exit;"
			   " give a database file",
			   mmcmp_db_path());
}

int show_help(const struct cmd *cmd)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, cmd->usage);
	if (cmd->options && cmd->options->type != OPTION_END) {
		strbuf_addstr(&sb, "\nOptions:\n");
		options_help(cmd->options, &sb);
	}
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
	return 0;
}

int check_new_label(const struct cmd *cmd, const char *label)
{
	struct strbuf err = STRBUF_INIT;

	if (!*label)
		return usage_error(cmd, "the label is empty");
	if (names_check(NAME_LABEL, label, &err)) {
		usage_error(cmd, "%s", err.buf);
		strbuf_release(&err);
		return 2;
	}
	if (strlen(label) > 200)
		return usage_error(cmd,
				   "label '%.20s...' is longer than 200 bytes",
				   label);
	for (const char *p = label; *p; p++)
		if ((unsigned char)*p < 0x21 || *p == 0x7f)
			return usage_error(
				cmd,
				"label '%s' contains a space or control character",
				label);
	return 0;
}

int parse_cmd_options(const struct cmd *cmd, int argc, char **argv, void *dest)
{
	struct strbuf err = STRBUF_INIT;

	argc = parse_options(argc, argv, cmd->options, dest, 0, &err);
	if (argc < 0)
		usage_error(cmd, "%s", err.buf);
	strbuf_release(&err);
	return argc;
}

/*
 * Whether path names the same file as other: by device and inode when
 * both exist, else by the path as written.
 */
static bool same_file(const char *path, const char *other)
{
	struct stat a, b;

	if (!stat(path, &a) && !stat(other, &b))
		return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
	return !strcmp(path, other);
}

bool is_database_file(const char *path)
{
	const char *db = mmcmp_db_path();
	struct strbuf side = STRBUF_INIT;
	bool same = same_file(path, db);

	for (int i = 0; i < 2 && !same; i++) {
		strbuf_reset(&side);
		strbuf_addf(&side, "%s%s", db, i ? "-shm" : "-wal");
		same = same_file(path, side.buf);
	}
	strbuf_release(&side);
	return same;
}

/* Write all of sb to fd; false after a short write. */
static bool write_all(int fd, const struct strbuf *sb)
{
	size_t done = 0;

	while (done < sb->len) {
		ssize_t n = write(fd, sb->buf + done, sb->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		done += (size_t)n;
	}
	return true;
}

/*
 * Write sb to a new file next to path and rename it over path, so that
 * path holds the old contents or the new, never a part. The new file
 * gets the mode of the file it replaces, else 0666 less the umask.
 */
static int replace_file(const char *path, const struct stat *old,
			const struct strbuf *sb)
{
	struct strbuf tmp = STRBUF_INIT;
	const char *slash = strrchr(path, '/');
	mode_t mode;
	int fd, ret = 1;

	if (old) {
		mode = old->st_mode & 07777;
	} else {
		mode = umask(022);
		umask(mode);
		mode = 0666 & ~mode;
	}
	if (slash)
		strbuf_add(&tmp, path, (size_t)(slash - path) + 1);
	strbuf_addf(&tmp, ".%s.XXXXXX", slash ? slash + 1 : path);
	fd = mkstemp(tmp.buf);
	if (fd < 0) {
		error("cannot create a file next to '%s': %s", path,
		      strerror(errno));
		goto out;
	}
	if (fchmod(fd, mode) || !write_all(fd, sb) || fsync(fd)) {
		error("cannot write '%s': %s", tmp.buf, strerror(errno));
		close(fd);
		unlink(tmp.buf);
		goto out;
	}
	if (close(fd)) {
		error("cannot write '%s': %s", tmp.buf, strerror(errno));
		unlink(tmp.buf);
		goto out;
	}
	if (rename(tmp.buf, path)) {
		error("cannot rename '%s' to '%s': %s", tmp.buf, path,
		      strerror(errno));
		unlink(tmp.buf);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&tmp);
	return ret;
}

int write_output(const char *path, const struct strbuf *sb)
{
	struct stat st;
	FILE *f;
	bool bad;

	if (!path) {
		fwrite(sb->buf, 1, sb->len, stdout);
		return 0;
	}
	if (is_database_file(path)) {
		fflush(stdout);
		fprintf(stderr,
			"mmcmp: error: refusing to write to '%s': it is the database '%s' or one of its files\n",
			path, mmcmp_db_path());
		return 2;
	}
	if (stat(path, &st))
		return replace_file(path, NULL, sb);
	if (S_ISREG(st.st_mode)) {
		/* Through a symbolic link: replace the file it points to. */
		char *real = realpath(path, NULL);
		int ret = replace_file(real ? real : path, &st, sb);

		free(real);
		return ret;
	}
	/* A device or a pipe (/dev/stdout): written to in place. */
	f = fopen(path, "w");
	if (!f)
		return error("cannot open '%s': %s", path, strerror(errno));
	bad = fwrite(sb->buf, 1, sb->len, f) != sb->len;
	if (fclose(f))
		bad = true;
	if (bad)
		return error("cannot write '%s': %s", path, strerror(errno));
	return 0;
}

void label_hint(struct store *st, const char *label, struct strbuf *hint)
{
	struct run_rows rows = {0};
	const char **labels = NULL;
	const char *best;

	if (store_list_runs(st, &rows, NULL))
		goto out;
	labels = xcalloc(rows.nr + 1, sizeof(*labels));
	for (size_t i = 0; i < rows.nr; i++)
		labels[i] = rows.v[i].label;
	best = names_closest(label, labels, rows.nr);
	if (best) {
		strbuf_addstr(hint, "; did you mean '");
		names_escape(hint, best, strlen(best));
		strbuf_addstr(hint, "'?");
	}
out:
	free(labels);
	run_rows_release(&rows);
}

int pooled_label_error(const struct cmd *cmd, struct store *st,
		       const char *label, size_t loaded,
		       const struct strvec *notes)
{
	struct strbuf hint = STRBUF_INIT;
	int ret;

	if (loaded)
		return 0;
	if (notes->nr)
		return error("label '%s' has no complete run (%s); "
			     "--include-incomplete uses it anyway",
			     label, notes->v[0]);
	label_hint(st, label, &hint);
	ret = usage_error(cmd, "no runs with label '%s' in '%s'%s", label,
			  mmcmp_db_path(), hint.buf);
	strbuf_release(&hint);
	return ret;
}

static const char main_usage_head[] =
	"usage: mmcmp [--db PATH] COMMAND [ARGS...]\n"
	"\n"
	"Run kernel benchmark workloads, keep every sample in SQLite and print\n"
	"mmtests-style comparison tables.\n"
	"\n"
	"Commands:\n";

/* The global options: before or after the command, not after "--". */
struct global_args {
	const char *db;
	bool help, version;
};

static const struct cmd_option global_options[] = {
	OPT_STRING("db", 0, struct global_args, db, "PATH",
		   "the database; default $MMCMP_DB, else ./" DEFAULT_DB),
	OPT_FLAG("help", 'h', struct global_args, help, true,
		 "this text; 'mmcmp COMMAND --help' for a command"),
	OPT_FLAG("version", 0, struct global_args, version, true,
		 "print the version"),
	OPT_END(),
};

static void print_main_usage(FILE *f)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, main_usage_head);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		strbuf_addf(&sb, "  %-14s %s\n", commands[i]->name,
			    commands[i]->summary);
	strbuf_addstr(&sb,
		      "\n'mmcmp help COMMAND' prints the help of COMMAND.\n"
		      "\nGlobal options (before or after COMMAND):\n");
	options_help(global_options, &sb);
	fputs(sb.buf, f);
	strbuf_release(&sb);
}

static const struct cmd *find_command(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

/* "unknown command 'NAME'", with the closest command as a hint. */
static int unknown_command(const char *name)
{
	const char *names[ARRAY_SIZE(commands) + 1];
	const char *best;

	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		names[i] = commands[i]->name;
	names[ARRAY_SIZE(commands)] = "help";
	best = names_closest(name, names, ARRAY_SIZE(names));
	if (best)
		return usage_error(NULL,
				   "unknown command '%s'; did you mean '%s'?",
				   name, best);
	return usage_error(NULL, "unknown command '%s'", name);
}

/*
 * Take the global options out of argv wherever they stand before a "--",
 * so that every command accepts them before or after its name. Returns
 * the new argc, or -1 after a message.
 */
static int strip_global_options(int argc, char **argv, struct global_args *g)
{
	struct strbuf err = STRBUF_INIT;

	argc = parse_options(argc, argv, global_options, g,
			     PARSE_OPT_KEEP_UNKNOWN | PARSE_OPT_KEEP_DASHDASH,
			     &err);
	if (argc >= 0 && g->db && !*g->db) {
		error_addf(&err, "option '--db' needs a path");
		argc = -1;
	}
	if (argc < 0)
		usage_error(NULL, "%s", err.buf);
	strbuf_release(&err);
	return argc;
}

/*
 * Whether stdout is a pipe whose reader has gone (Linux reports POLLERR
 * on its write end), so that an EPIPE seen by an earlier write is known
 * after errno has moved on.
 */
static bool stdout_closed(void)
{
	struct pollfd p = {.fd = STDOUT_FILENO, .events = POLLOUT};

	return poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
}

/*
 * Flush stdout and report a write error (a full disk). A closed pipe
 * (mmcmp list | head) is not an error: the reader wanted no more, and
 * what mmcmp stored is stored, so the command's own status stands.
 */
static int finish_stdout(int status)
{
	if (fflush(stdout) || ferror(stdout)) {
		if (errno == EPIPE || stdout_closed())
			return status;
		fprintf(stderr, "mmcmp: error: cannot write output: %s\n",
			strerror(errno));
		return status ? status : 1;
	}
	return status;
}

int main(int argc, char **argv)
{
	struct global_args g = {0};
	const struct cmd *cmd = NULL;

	/*
	 * A closed stdout or stderr must not kill mmcmp halfway, after a
	 * run has been stored but before it says so or closes the database:
	 * writes fail with EPIPE instead (finish_stdout()). Children get
	 * SIGPIPE back (runner, executor-qemu).
	 */
	signal(SIGPIPE, SIG_IGN);
	argc = strip_global_options(argc, argv, &g);
	if (argc < 0)
		return 2;
	db_path = g.db;
	if (argc >= 2 && !strcmp(argv[1], "help")) {
		/* "mmcmp help [COMMAND]": the help of COMMAND, or mmcmp's. */
		if (argc > 3)
			return usage_error(NULL, "unexpected argument '%s'",
					   argv[3]);
		g.help = true;
		if (argc == 3) {
			cmd = find_command(argv[2]);
			if (!cmd)
				return unknown_command(argv[2]);
		}
	} else if (argc >= 2) {
		cmd = find_command(argv[1]);
		if (!cmd)
			return unknown_command(argv[1]);
	}
	if (g.help) {
		if (cmd)
			return finish_stdout(show_help(cmd));
		print_main_usage(stdout);
		return finish_stdout(0);
	}
	if (g.version) {
		printf("mmcmp %s\n", MMCMP_VERSION);
		return finish_stdout(0);
	}
	if (!cmd) {
		print_main_usage(stderr);
		return 2;
	}
	return finish_stdout(cmd->run(argc - 1, argv + 1));
}
