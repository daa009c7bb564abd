#ifndef MMCMP_OPENER_H
#define MMCMP_OPENER_H

/*
 * opener: a header whose first comment block is 20 lines.
 * Line 3 of its opener.
 * Line 4 of its opener.
 * Line 5 of its opener.
 * Line 6 of its opener.
 * Line 7 of its opener.
 * Line 8 of its opener.
 * Line 9 of its opener.
 * Line 10 of its opener.
 * Line 11 of its opener.
 * Line 12 of its opener.
 * Line 13 of its opener.
 * Line 14 of its opener.
 * Line 15 of its opener.
 * Line 16 of its opener.
 * Line 17 of its opener.
 * Line 18 of its opener.
 * Line 19 of its opener.
 */

#endif /* MMCMP_OPENER_H */
