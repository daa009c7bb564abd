#ifndef MMCMP_PARSE_NUM_H
#define MMCMP_PARSE_NUM_H

#include <stdbool.h>
#include <stdint.h>

/*
 * parse-num: checked conversions of whole strings to numbers.
 *
 * Each function accepts the whole of `s` (leading and trailing blanks are
 * not allowed), checks errno and range, and returns true with the value in
 * *out, or false leaving *out untouched.
 */

/* A decimal integer in [min, max]. */
bool parse_int64(const char *s, int64_t min, int64_t max, int64_t *out);
/* A decimal unsigned 64-bit integer, digits only (no sign). */
bool parse_uint64(const char *s, uint64_t *out);
/* A decimal int in [min, max]. */
bool parse_int(const char *s, int min, int max, int *out);
/* A finite floating-point number (strtod syntax, no inf or nan). */
bool parse_double(const char *s, double *out);

#endif /* MMCMP_PARSE_NUM_H */
