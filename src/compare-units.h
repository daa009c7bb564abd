#ifndef MMCMP_COMPARE_UNITS_H
#define MMCMP_COMPARE_UNITS_H

#include <stdbool.h>
#include <stddef.h>

#include "compare.h"

struct run_data;
struct strbuf;

/*
 * compare-units: what the design of the data decides for compare, as
 * pure functions: the unit --unit auto picks, the share of the variance
 * that lies between runs or boots, and the exact p of two constant
 * sides. compare.c calls them; nothing here fails, prints or keeps
 * state, and every result is the caller's.
 */

/*
 * --unit auto: the coarsest level that replicates in runs[0..nr) (the
 * statistics reference, section 1): COMPARE_UNIT_BOOT when every label
 * with samples knows the boot of each (kernels:) and some label's
 * iterations come from two or more boots, else COMPARE_UNIT_RUN when
 * some label pools two or more runs, else COMPARE_UNIT_ITERATION.
 * Appends to why the counts that decided it, e.g. "A 2 runs, B 2 runs"
 * or "no label pools runs or boots".
 */
enum compare_unit compare_unit_auto(const struct run_data *runs, size_t nr,
				    struct strbuf *why);

/*
 * The share of the variance of x[] that lies between the groups of
 * key[] (equal keys in any order form a group), from a one-way random
 * effects ANOVA: s_b^2 / (s_b^2 + s_w^2) with s_w^2 = MSW and s_b^2 =
 * max(0, (MSB - MSW) / n0), n0 = (N - sum n_i^2 / N) / (g - 1) (Searle,
 * Casella and McCulloch, "Variance components", 1992, 3.6). In [0, 1];
 * NaN with fewer than 2 groups, no df within or no spread at all.
 */
double compare_between_share(const double *x, const long long *key, size_t n);

/*
 * How much narrower an interval gets, in percent, when each unit holds
 * twice its m values, for a between share `share` (above): 100 (1 -
 * sqrt((share + (1 - share) / (2 m)) / (share + (1 - share) / m))).
 * Doubling the units instead narrows it by at least 29.3%. NaN when
 * share is NaN or m < 1.
 */
double compare_narrowing_pct(double share, double m);

/*
 * The exact two-sided permutation p of the difference of means for two
 * constant sides, na values ca against nb values cb: the share of the
 * choose(na + nb, na) splits of the pooled values whose |difference of
 * means| is at least the observed one. 1 when ca == cb; for na = nb = 2
 * and ca != cb it is 1/3, so two values a side are never certain.
 */
double compare_constant_p(size_t na, double ca, size_t nb, double cb);

#endif /* MMCMP_COMPARE_UNITS_H */
