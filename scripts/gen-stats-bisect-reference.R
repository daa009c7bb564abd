#!/usr/bin/env Rscript
# Write tests/data/stats-bisect-reference.tsv: reference values from R
# for tests/test-bisect.c, the statistics of `mmcmp bisect`
# (docs/bisect.md), so that the unit tests never need R.
#
# Usage, from the top of the source tree:
#   Rscript scripts/gen-stats-bisect-reference.R [OUTPUT]
#
# Rows are tab-separated, lists comma-separated, numbers printed with
# %.17g. The values are made "badness" first: y = log(u), negated for a
# higher-is-better metric. The rows:
#   classify higher a-list c-list b-list  t df p
#       the midpoint test of c between the ends a and b:
#       t = (mean(c) - (mean(a) + mean(b)) / 2) / se, Satterthwaite's df
#       of that linear combination, p = pt(|t|, df, lower.tail = FALSE)
#   ends higher a-list b-list  t df p
#       t.test(b, a, alternative = "greater") (Welch)

args <- commandArgs(trailingOnly = TRUE)
out <- if (length(args) >= 1) args[1] else "tests/data/stats-bisect-reference.tsv"

num <- function(x) sprintf("%.17g", x)
lst <- function(x) paste(num(x), collapse = ",")
bad <- function(u, higher) if (higher) -log(u) else log(u)
rows <- character(0)

classify <- function(higher, a, c, b) {
  ya <- bad(a, higher); yc <- bad(c, higher); yb <- bad(b, higher)
  w <- c(1, 0.5, 0.5)
  v <- c(var(yc), var(ya), var(yb))
  n <- c(length(yc), length(ya), length(yb))
  terms <- w^2 * v / n
  se <- sqrt(sum(terms))
  t <- (mean(yc) - (mean(ya) + mean(yb)) / 2) / se
  df <- sum(terms)^2 / sum(terms^2 / (n - 1))
  p <- pt(abs(t), df, lower.tail = FALSE)
  rows <<- c(rows, paste("classify", as.integer(higher), lst(a), lst(c),
                         lst(b), num(t), num(df), num(p), sep = "\t"))
}

ends <- function(higher, a, b) {
  r <- t.test(bad(b, higher), bad(a, higher), alternative = "greater")
  rows <<- c(rows, paste("ends", as.integer(higher), lst(a), lst(b),
                         num(unname(r$statistic)), num(unname(r$parameter)),
                         num(r$p.value), sep = "\t"))
}

set.seed(26)
for (higher in c(FALSE, TRUE)) {
  for (shift in c(0, 0.02, 0.05)) {
    a <- round(exp(rnorm(6, 0, 0.02)) * 100, 3)
    b <- round(exp(rnorm(6, 0.05, 0.02)) * 100, 3)
    c <- round(exp(rnorm(12, shift, 0.03)) * 100, 3)
    classify(higher, a, c, b)
    ends(higher, a, b)
  }
}
classify(FALSE, c(10, 11, 12), c(10.5, 11.5, 12.5, 11), c(12, 13, 14, 15))
ends(TRUE, c(100, 101, 99, 100.5), c(95, 96, 94.5))

writeLines(rows, out)
