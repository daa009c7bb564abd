#ifndef MMCMP_TEST_STATS_TSV_H
#define MMCMP_TEST_STATS_TSV_H

/*
 * test-stats-tsv: reading the R-made reference tables of the stats
 * tests (tab-separated rows, comma-separated lists, "nan" for R's NA).
 * The parsed lists are the caller's to free; fields point into the row,
 * which split() cuts in place.
 */

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "parse-num.h"
#include "util.h"

/* Split s in place at each sep; returns the number of fields. */
static inline size_t split(char *s, int sep, char **field, size_t max)
{
	size_t nr = 0;

	while (nr < max) {
		char *end = strchr(s, sep);

		field[nr++] = s;
		if (!end)
			break;
		*end = '\0';
		s = end + 1;
	}
	return nr;
}

/* Parse one number, "nan" allowed; a missing field (NULL) is an error. */
static inline bool parse_num_or_nan(const char *s, double *v)
{
	if (!s)
		return false;
	if (!strcmp(s, "nan")) {
		*v = NAN;
		return true;
	}
	return parse_double(s, v);
}

/* Parse a comma-separated list of numbers ("nan" allowed) into *out. */
static inline bool parse_list(const char *s, double **out, size_t *nr)
{
	char *copy = xstrdup(s), *p = copy;
	size_t alloc = 0;
	bool ret = true;

	*out = NULL;
	*nr = 0;
	for (;;) {
		char *end = strchr(p, ',');
		double v;

		if (end)
			*end = '\0';
		if (!parse_num_or_nan(p, &v)) {
			ret = false;
			break;
		}
		ALLOC_GROW(*out, *nr + 1, alloc);
		(*out)[(*nr)++] = v;
		if (!end)
			break;
		p = end + 1;
	}
	free(copy);
	return ret;
}

/* Relative error of got; infinite when got is NaN or want is 0 != got. */
static inline double rel_error(double got, double want)
{
	if (isnan(got))
		return INFINITY;
	if (want == 0.0)
		return got == 0.0 ? 0.0 : INFINITY;
	return fabs(got - want) / fabs(want);
}

/* The largest relative error seen per function name, for the report. */
struct tsv_worst {
	const char *name;
	double rel_err;
	int line;
};

#define TSV_WORST_MAX 64
static struct tsv_worst tsv_worst[TSV_WORST_MAX];
static size_t tsv_worst_nr;

static inline void note_error(const char *name, double rel_err, int line)
{
	size_t i;

	for (i = 0; i < tsv_worst_nr; i++)
		if (!strcmp(tsv_worst[i].name, name))
			break;
	if (i == tsv_worst_nr) {
		if (i == TSV_WORST_MAX)
			return;
		tsv_worst[i].name = name;
		tsv_worst[i].rel_err = -1.0;
		tsv_worst_nr++;
	}
	if (rel_err > tsv_worst[i].rel_err) {
		tsv_worst[i].rel_err = rel_err;
		tsv_worst[i].line = line;
	}
}

/* One TAP line: got within tol of want, relatively; NaN matches NaN. */
static inline void check_rel_tol(const char *name, const char *args, double got,
				 double want, double tol, int line)
{
	double err = isnan(want) && isnan(got) ? 0.0 : rel_error(got, want);

	note_error(name, err, line);
	if (err > tol)
		diag("got %.17g, want %.17g", got, want);
	ok(err <= tol, "%s(%s) = %.6g, rel err %.1e <= %.0e (line %d)", name,
	   args, want, err, tol, line);
}

/* Print the worst relative error per function as TAP comments. */
static inline void report_worst(void)
{
	for (size_t i = 0; i < tsv_worst_nr; i++)
		diag("worst relative error %-12s %.2e (line %d)",
		     tsv_worst[i].name, tsv_worst[i].rel_err,
		     tsv_worst[i].line);
}

/*
 * Call row(buf, line) for each row of the table at path that is neither
 * empty nor a '#' comment, the line's end cut off. Returns the number of
 * rows, -1 when the file cannot be opened.
 */
static inline int read_table(const char *path, void (*row)(char *s, int line))
{
	FILE *fp = fopen(path, "r");
	char *buf = NULL;
	size_t alloc = 0;
	ssize_t len;
	int line = 0, rows = 0;

	if (!fp)
		return -1;
	while ((len = getline(&buf, &alloc, fp)) >= 0) {
		line++;
		while (len > 0 &&
		       (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
			buf[--len] = '\0';
		if (!len || buf[0] == '#')
			continue;
		row(buf, line);
		rows++;
	}
	free(buf);
	fclose(fp);
	return rows;
}

#endif /* MMCMP_TEST_STATS_TSV_H */
