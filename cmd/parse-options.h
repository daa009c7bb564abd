#ifndef MMCMP_PARSE_OPTIONS_H
#define MMCMP_PARSE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strbuf;

/*
 * parse-options: a command's options as one table (after git's
 * parse_options() and tmux's cmd_entry).
 *
 * A command lists its options in a static array of struct cmd_option that
 * ends with OPT_END(): long and short name, type, where the value goes (an
 * offset into the command's own argument struct, as config.c's key table
 * has) and one line of help. parse_options() reads argv with that table
 * and options_help() writes the Options part of --help from it, so the
 * two cannot disagree.
 *
 * The syntax is the same for every command: "--name=V", "--name V" or
 * "-n V" give an option its value (the next argument is taken whatever it
 * looks like); "--name" or "-n" sets a flag; short options are not
 * bundled ("-qo" is unknown); options and arguments may come in any
 * order; "--" ends the options and is dropped, everything after it is an
 * argument, even "-x"; a lone "-" is an argument.
 *
 * Errors: parse_options() returns -1 and appends one line, without '\n',
 * to err; cmd/ prints it as a usage error (exit status 2). Broken tables
 * (a range that does not fit its int) are BUG()s.
 *
 * Ownership: string values point into argv, which must outlive them;
 * OPTION_STRING_LIST pushes copies into a struct strvec (strvec_clear())
 * and OPTION_INT_LIST grows a struct int64_list (free(list.v)): both
 * belong to the destination struct, and so to the caller.
 */

enum option_type {
	OPTION_END,	    /* ends a table */
	OPTION_FLAG,	    /* bool: set to flag_value; takes no value */
	OPTION_STRING,	    /* const char *: the value itself */
	OPTION_INT,	    /* int or int64_t: a whole number in [min, max] */
	OPTION_NUMBER,	    /* double: a finite number, lo < V < hi */
	OPTION_CHOICE,	    /* an int-sized enum: the index of V in choice() */
	OPTION_STRING_LIST, /* struct strvec: a copy of each V (repeatable) */
	OPTION_INT_LIST,    /* struct int64_list: each V in [min, max] */
	OPTION_INCLUDE,	    /* the options of `include`, on a member struct */
};

/* The values of a repeatable integer option, in the order given. */
struct int64_list {
	int64_t *v;
	size_t nr, alloc;
};

struct cmd_option {
	enum option_type type;
	const char *long_name; /* without "--"; NULL for none */
	char short_name;       /* without '-'; 0 for none */
	const char *argname;   /* names V in --help ("FILE"); NULL: choice */
	size_t offset;	       /* of the value in the destination struct */
	size_t size;	       /* OPTION_INT: sizeof(int) or sizeof(int64_t) */
	const char *help;      /* one sentence; options_help() wraps it */
	bool flag_value;       /* OPTION_FLAG: the value stored */
	int64_t min, max;      /* OPTION_INT, OPTION_INT_LIST: inclusive */
	double lo, hi;	       /* OPTION_NUMBER: exclusive, may be infinite */
	/* OPTION_CHOICE: the name of value i, NULL past the last. */
	const char *(*choice)(size_t i);
	/*
	 * OPTION_CHOICE: the value may be left out ("--name" alone stores
	 * choice_default); it is then given only as "--name=V", never as
	 * the next argument.
	 */
	bool optional_value;
	int choice_default;
	const struct cmd_option *include; /* OPTION_INCLUDE */
};

/*
 * The offset of member m of struct type T, where the compiler checks that
 * m has type `type` (a _Generic selection without a match does not
 * compile).
 */
#define OPT_MEMBER_AT(T, m, type)                                              \
	(offsetof(T, m) +                                                      \
	 _Generic(&((T *)0)->m,                                                \
		  type * : 0)) /* NOLINT(bugprone-macro-parentheses) */
/* sizeof member m of T, which must be an int or an int64_t. */
#define OPT_MEMBER_INT_SIZE(T, m)                                              \
	_Generic(&((T *)0)->m, int * : sizeof(int), int64_t * : sizeof(int64_t))
/* The offset of member m of T, which must have the size of an int. */
#define OPT_MEMBER_ENUM_AT(T, m)                                               \
	(offsetof(T, m) +                                                      \
	 0 * sizeof(char[sizeof(((T *)0)->m) == sizeof(int) ? 1 : -1]))

/*
 * The table entries. LONG is a string or NULL, SHORT a character or 0, T
 * the destination struct type and M the member (it may be nested:
 * opts.alpha), ARG the name of the value in --help, HELP its help.
 */
#define OPT_END()                                                              \
	{                                                                      \
		.type = OPTION_END                                             \
	}
/* --LONG sets bool M to VALUE (true, or false for a --no-X option). */
#define OPT_FLAG(LONG, SHORT, T, M, VALUE, HELP)                               \
	{                                                                      \
		.type = OPTION_FLAG, .long_name = (LONG),                      \
		.short_name = (SHORT), .offset = OPT_MEMBER_AT(T, M, bool),    \
		.flag_value = (VALUE), .help = (HELP),                         \
	}
/* --LONG=V sets const char *M to V. */
#define OPT_STRING(LONG, SHORT, T, M, ARG, HELP)                               \
	{                                                                      \
		.type = OPTION_STRING, .long_name = (LONG),                    \
		.short_name = (SHORT), .argname = (ARG),                       \
		.offset = OPT_MEMBER_AT(T, M, const char *), .help = (HELP),   \
	}
/* --LONG=V sets int or int64_t M to V, a whole number in [MIN, MAX]. */
#define OPT_INT(LONG, SHORT, T, M, ARG, MIN, MAX, HELP)                        \
	{                                                                      \
		.type = OPTION_INT, .long_name = (LONG),                       \
		.short_name = (SHORT), .argname = (ARG),                       \
		.offset = offsetof(T, M), .size = OPT_MEMBER_INT_SIZE(T, M),   \
		.min = (MIN), .max = (MAX), .help = (HELP),                    \
	}
/* --LONG=V sets double M to V, with LO < V < HI. */
#define OPT_NUMBER(LONG, SHORT, T, M, ARG, LO, HI, HELP)                       \
	{                                                                      \
		.type = OPTION_NUMBER, .long_name = (LONG),                    \
		.short_name = (SHORT), .argname = (ARG),                       \
		.offset = OPT_MEMBER_AT(T, M, double), .lo = (LO), .hi = (HI), \
		.help = (HELP),                                                \
	}
/*
 * --LONG=V sets enum M to the i for which CHOICE(i) is V; --help and the
 * error message list the names CHOICE gives.
 */
#define OPT_CHOICE(LONG, SHORT, T, M, CHOICE, HELP)                            \
	{                                                                      \
		.type = OPTION_CHOICE, .long_name = (LONG),                    \
		.short_name = (SHORT), .offset = OPT_MEMBER_ENUM_AT(T, M),     \
		.choice = (CHOICE), .help = (HELP),                            \
	}
/*
 * As OPT_CHOICE, but --LONG alone sets M to DEFAULT and a value is only
 * taken as --LONG=V (git's optional arguments): "--LONG X" leaves X an
 * argument.
 */
#define OPT_CHOICE_OPTARG(LONG, SHORT, T, M, CHOICE, DEFAULT, HELP)            \
	{                                                                      \
		.type = OPTION_CHOICE, .long_name = (LONG),                    \
		.short_name = (SHORT), .offset = OPT_MEMBER_ENUM_AT(T, M),     \
		.choice = (CHOICE), .optional_value = true,                    \
		.choice_default = (int)(DEFAULT), .help = (HELP),              \
	}
/* Each --LONG=V appends a copy of V to struct strvec M. */
#define OPT_STRING_LIST(LONG, SHORT, T, M, ARG, HELP)                          \
	{                                                                      \
		.type = OPTION_STRING_LIST, .long_name = (LONG),               \
		.short_name = (SHORT), .argname = (ARG),                       \
		.offset = OPT_MEMBER_AT(T, M, struct strvec), .help = (HELP),  \
	}
/* Each --LONG=V appends V, a whole number in [MIN, MAX], to list M. */
#define OPT_INT_LIST(LONG, SHORT, T, M, ARG, MIN, MAX, HELP)                   \
	{                                                                      \
		.type = OPTION_INT_LIST, .long_name = (LONG),                  \
		.short_name = (SHORT), .argname = (ARG),                       \
		.offset = OPT_MEMBER_AT(T, M, struct int64_list),              \
		.min = (MIN), .max = (MAX), .help = (HELP),                    \
	}
/*
 * The options of TABLE, whose offsets are into the struct that is member
 * M of T: one table serves every command that embeds that struct.
 */
#define OPT_INCLUDE(T, M, TABLE)                                               \
	{                                                                      \
		.type = OPTION_INCLUDE, .offset = offsetof(T, M),              \
		.include = (TABLE),                                            \
	}

/* Flags of parse_options(). */
enum parse_options_flags {
	/* Leave unknown options in argv, as arguments, instead of failing. */
	PARSE_OPT_KEEP_UNKNOWN = 1 << 0,
	/* Leave "--" and everything after it in argv. */
	PARSE_OPT_KEEP_DASHDASH = 1 << 1,
};

/*
 * Parse the options of table opts out of argv[1..argc) into the struct at
 * dest (argv[0], the command name, is skipped). The arguments that are
 * not options stay, in order, in argv[1..n), argv[n] becomes NULL, and n
 * is returned. A later value of an option replaces an earlier one, except
 * for the lists. Returns -1 after appending the error to err, with dest
 * and argv partly updated. flags is a set of enum parse_options_flags;
 * opts NULL is a command without options.
 */
int parse_options(int argc, char **argv, const struct cmd_option *opts,
		  void *dest, unsigned flags, struct strbuf *err);

/*
 * Append the options of opts to sb, one per line: "  -o, --output=FILE"
 * then the help, wrapped to 79 columns and aligned in a column; an option
 * too wide for that column has its help on the next line. Choices show
 * their names ("--format=text|csv"), lists end in "(repeatable)". NULL
 * appends nothing.
 */
void options_help(const struct cmd_option *opts, struct strbuf *sb);

#endif /* MMCMP_PARSE_OPTIONS_H */
