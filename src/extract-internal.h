#ifndef MMCMP_EXTRACT_INTERNAL_H
#define MMCMP_EXTRACT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf;

/*
 * extract-internal: the parser table that extract.c looks names up in
 * and extract-parsers.c fills, and the helpers both use; nothing else
 * includes it. A parser's functions follow extract.h's contract: 0, or
 * -1 with one line appended to err (which may be NULL). Samples go to
 * the caller's array through a sink; text and fields stay the caller's.
 */

/* The caller's growable array of samples. */
struct sink {
	double **v;
	size_t *nr, *alloc;
};

/* A parser field, checked and decoded once. */
struct field {
	int which; /* the parser's own field number */
	char *arg; /* what the field names: a stressor, a kv NAME, ... */
};

/* How the output is copied into the scratch buffer. */
enum text_mode {
	TEXT_RAW,    /* the bytes as they are */
	TEXT_NO_NUL, /* NUL bytes become '\n' */
	TEXT_LINES,  /* and an unterminated last line, cut off, is dropped */
};

/* One known benchmark output format, as a row of extract_parsers[]. */
struct parser {
	const char *name;
	const char *const *fields; /* NULL-terminated, [0] the default */
	/*
	 * Decode field into f, when more than a lookup in fields; f->arg,
	 * when set, is the caller's to free.
	 */
	int (*setup)(const struct parser *p, const char *field, struct field *f,
		     struct strbuf *err);
	enum text_mode mode;
	/* Append the samples in text (len bytes, NUL-terminated, writable). */
	int (*run)(const struct field *f, char *text, size_t len,
		   struct sink *out, struct strbuf *err);
};

/* The parsers of extract.h, in the order error messages list them. */
extern const struct parser extract_parsers[];
extern const size_t extract_parsers_nr;

/* Append x to the sink's array (which grows; allocation aborts). */
void extract_sink_add(struct sink *s, double x);

/* Parse the n bytes at s as one number; s[n] is written and restored. */
bool extract_num_n(char *s, size_t n, double *out);

/*
 * Append the n bytes at s quoted, for a message: at most 60 of them,
 * unprintable ones as '?', so the message stays one line.
 */
void extract_add_quoted(struct strbuf *sb, const char *s, size_t n);

/* Append the NULL-terminated list names, joined by ", ". */
void extract_add_names(struct strbuf *sb, const char *const *names);

#endif /* MMCMP_EXTRACT_INTERNAL_H */
