#!/usr/bin/env Rscript
# Write tests/data/stats-explain-reference.tsv: reference values from R
# for tests/test-explain.c, the interval and test of `mmcmp explain`
# (docs/perf.md), so that the unit tests never need R.
#
# Usage, from the top of the source tree:
#   Rscript scripts/gen-stats-explain-reference.R [OUTPUT]
#
# Each row is one case of profiles with two stacks, main;a and main;b:
#   share  a-base b-base a-other b-other  diff low high p
# the comma-separated sample counts of each stack per profiled iteration
# of each side, then for a's share in percent of each iteration's
# samples: t.test(other, base) (Welch), its estimate of the difference
# in points, the 95% interval and the two-sided p-value.

args <- commandArgs(trailingOnly = TRUE)
out <- if (length(args) >= 1) args[1] else "tests/data/stats-explain-reference.tsv"
num <- function(x) sprintf("%.17g", x)
lst <- function(x) paste(x, collapse = ",")

set.seed(24)
rows <- character(0)
cases <- list(
  list(ab = c(50, 52, 48, 51, 49), bb = c(50, 48, 52, 49, 51),
       ao = c(70, 69, 72, 71, 68), bo = c(30, 31, 28, 29, 32)),
  list(ab = c(300, 310, 290), bb = c(700, 690, 712),
       ao = c(305, 296, 301, 299), bo = c(695, 702, 700, 698)),
  list(ab = c(10, 0, 5, 7), bb = c(990, 1000, 995, 993),
       ao = c(40, 35), bo = c(960, 970)))
for (i in 1:5) {
  n <- 6
  ab <- rbinom(n, 500, 0.4); ao <- rbinom(n, 500, 0.43)
  cases[[length(cases) + 1]] <- list(ab = ab, bb = 500 - ab,
                                     ao = ao, bo = 500 - ao)
}
for (k in cases) {
  base <- 100 * k$ab / (k$ab + k$bb)
  other <- 100 * k$ao / (k$ao + k$bo)
  t <- t.test(other, base, var.equal = FALSE, conf.level = 0.95)
  rows <- c(rows, paste("share", lst(k$ab), lst(k$bb), lst(k$ao), lst(k$bo),
                        num(mean(other) - mean(base)), num(t$conf.int[1]),
                        num(t$conf.int[2]), num(t$p.value), sep = "\t"))
}
writeLines(rows, out)
