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

/*
 * By hand rather than strtoull(): the monitors parse some 500 values of
 * /proc files for each iteration, and strtoull() took three quarters of
 * that. Its base-10 digits are ASCII ones, as here.
 */
bool parse_uint64(const char *s, uint64_t *out)
{
	const char *start = s;
	uint64_t v = 0;

	if (!s || *s < '0' || *s > '9')
		return false;
	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');

		/* 19 digits always fit: 10^19 - 1 < 2^64. */
		if (s - start >= 19 && v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	if (*s)
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
