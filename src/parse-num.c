/* parse-num: strtoll/strtod with every check done. */
#include "parse-num.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "util.h"

bool parse_int64(const char *s, int64_t min, int64_t max, int64_t *out)
{
	char *end;
	long long v;

	if (!s || !*s || isspace((unsigned char)*s))
		return false;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

bool parse_uint64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	/* strtoull() would take a sign, and negate after a '-'. */
	if (!s || !isdigit((unsigned char)*s))
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

bool parse_int(const char *s, int min, int max, int *out)
{
	int64_t v;

	if (!parse_int64(s, min, max, &v))
		return false;
	*out = (int)v;
	return true;
}

bool parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s || isspace((unsigned char)*s))
		return false;
	errno = 0;
	v = strtod(s, &end);
	if (errno == ERANGE && fabs(v) > 1.0)
		return false;
	if (*end || !isfinite(v))
		return false;
	*out = v;
	return true;
}
