#ifndef MMCMP_SHORT_H
#define MMCMP_SHORT_H

/*
 * short: a header whose opener is short enough.
 */

/*
 * A later comment may be long: line 0.
 * A later comment may be long: line 1.
 * A later comment may be long: line 2.
 * A later comment may be long: line 3.
 * A later comment may be long: line 4.
 * A later comment may be long: line 5.
 * A later comment may be long: line 6.
 * A later comment may be long: line 7.
 * A later comment may be long: line 8.
 * A later comment may be long: line 9.
 * A later comment may be long: line 10.
 * A later comment may be long: line 11.
 * A later comment may be long: line 12.
 * A later comment may be long: line 13.
 * A later comment may be long: line 14.
 * A later comment may be long: line 15.
 * A later comment may be long: line 16.
 * A later comment may be long: line 17.
 * A later comment may be long: line 18.
 * A later comment may be long: line 19.
 * A later comment may be long: line 20.
 * A later comment may be long: line 21.
 * A later comment may be long: line 22.
 * A later comment may be long: line 23.
 * A later comment may be long: line 24.
 * A later comment may be long: line 25.
 * A later comment may be long: line 26.
 * A later comment may be long: line 27.
 * A later comment may be long: line 28.
 * A later comment may be long: line 29.
 */
int short_fn(void);

#endif /* MMCMP_SHORT_H */
