/* Contract checks shared by the fuzz targets. */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fuzz_assert(int ok, const char *what, const char *detail)
{
	if (ok)
		return;
	fprintf(stderr, "fuzz: contract broken: %s: %.500s\n", what,
		detail ? detail : "");
	abort();
}

void fuzz_check_error(const char *err, const char *prefix)
{
	fuzz_assert(*err != '\0', "an error without a message", NULL);
	fuzz_assert(!strchr(err, '\n'), "an error of more than one line", err);
	if (prefix)
		fuzz_assert(!strncmp(err, prefix, strlen(prefix)),
			    "an error without its prefix", err);
}
