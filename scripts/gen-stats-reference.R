#!/usr/bin/env Rscript
# Write tests/data/stats-reference.tsv: reference values from R for
# tests/test-stats-dist.c, so that the unit tests never need R.
#
# Usage, from the top of the source tree:
#   Rscript scripts/gen-stats-reference.R [OUTPUT]
#
# Each row is: function, arguments..., expected value, separated by tabs.
# Numbers are printed with %.17g, so C reads back exactly the doubles R
# used; samples are comma-separated lists. The functions:
#   pt_upper  t df          pt(t, df, lower.tail = FALSE)
#   pt_lower  t df          pt(t, df)
#   pbeta     x a b         pbeta(x, a, b)
#   lgamma    x             lgamma(x)
#   qnorm     p             qnorm(p)
#   pnorm_upper z           pnorm(z, lower.tail = FALSE)
#   welch_t, welch_df, welch_p   a b   t.test(a, b, var.equal = FALSE)
#   mw_u, mw_p  a b         wilcox.test(a, b): W (the U of a) and p
#   bh        p alpha       which p.adjust(p, "BH") <= alpha, as 0/1 list
# Rows whose expected value is below 1e-300 are left out (subnormals and
# underflow to 0), except qnorm(0.5) = 0, which must be exact.

args <- commandArgs(trailingOnly = TRUE)
out <- if (length(args) >= 1) args[1] else "tests/data/stats-reference.tsv"

rows <- character(0)
num <- function(x) sprintf("%.17g", x)
vec <- function(x) paste(num(x), collapse = ",")
add <- function(...) {
  fields <- c(...)
  rows[length(rows) + 1] <<- paste(fields, collapse = "\t")
}
addnum <- function(fun, args, want) {
  if (is.finite(want) && abs(want) >= 1e-300)
    add(fun, num(args), num(want))
}

# Student t. The t points are rounded to 6 significant digits so that
# they are short and exact in the table; they are chosen by qt() to put
# the upper tail at 1e-2 ... 1e-100, so every df reaches below 1e-12.
dfs <- c(1, 1.5, 2, 3, 5, 10, 30, 100, 1000, 1e4, 1e5, 1e6)
tails <- c(1e-2, 1e-4, 1e-6, 1e-8, 1e-10, 1e-12, 1e-13, 1e-14, 1e-16,
           1e-20, 1e-30, 1e-50, 1e-100)
for (df in dfs) {
  ts <- c(0, 0.1, 0.5, 1, 1.5, 2, 3,
          signif(qt(tails, df, lower.tail = FALSE), 6))
  for (t in unique(ts))
    addnum("pt_upper", c(t, df), pt(t, df, lower.tail = FALSE))
}
for (df in c(1, 2.5, 7, 30, 1000, 1e6)) {
  for (t in c(-40, -6, -2.5, -1, -0.3, 0.3, 1, 2.5, 6, 40))
    addnum("pt_lower", c(t, df), pt(t, df))
}
# Non-integer df as Welch's test produces them.
for (df in c(2.37, 9.81, 57.3, 4321.5, 250000.5)) {
  for (t in c(0.7, 2.2, 5.1, 9.4))
    addnum("pt_upper", c(t, df), pt(t, df, lower.tail = FALSE))
}

# Regularized incomplete beta on a grid, plus points at the mean for
# large and lopsided parameters, the hardest region for the fraction.
shapes <- c(0.5, 1, 2.5, 10, 40, 150, 1000)
for (a in shapes) for (b in shapes) {
  for (x in c(0.001, 0.1, 0.3, 0.5, 0.7, 0.9, 0.999))
    addnum("pbeta", c(x, a, b), pbeta(x, a, b))
  addnum("pbeta", c(signif(a / (a + b), 8), a, b),
         pbeta(signif(a / (a + b), 8), a, b))
}
for (ab in list(c(5e5, 0.5), c(0.5, 5e5), c(2e4, 3), c(3, 2e4),
                c(800, 700), c(1e5, 2e5))) {
  a <- ab[1]; b <- ab[2]
  m <- a / (a + b); s <- sqrt(a * b / ((a + b)^2 * (a + b + 1)))
  for (k in c(-6, -3, -1, 0, 1, 3)) {
    x <- signif(m + k * s, 10)
    if (x > 0 && x < 1)
      addnum("pbeta", c(x, a, b), pbeta(x, a, b))
  }
}

# R computes lgamma(x) for x <= 10 as log(gamma(x)), which loses relative
# accuracy next to the zeros at 1 and 2 (about 1e-10 at 1 +- 1e-6), so
# the points there stay 1e-3 away.
for (x in c(1e-300, 1e-8, 0.01, 0.3, 0.5, 0.9, 0.99, 0.999, 1.001, 1.1,
            1.5, 1.9, 1.99, 1.999, 2.001, 2.01, 2.5, 3, 7.5, 9.99, 10,
            10.01, 55.5, 1234.5, 1e10, 1e100))
  addnum("lgamma", x, lgamma(x))

for (p in c(1e-300, 1e-100, 1e-20, 1e-10, 1e-5, 0.001, 0.02425, 0.075,
            0.1, 0.3, 0.6, 0.9, 0.975, 0.999, 1 - 1e-10))
  addnum("qnorm", p, qnorm(p))
add("qnorm", num(0.5), num(qnorm(0.5)))
for (z in c(-6, -1.5, 0, 0.5, 1.96, 3, 5, 8, 10, 15, 20, 30, 37))
  addnum("pnorm_upper", z, pnorm(z, lower.tail = FALSE))

# Welch's t-test. Samples are rounded to 3 decimals.
set.seed(20240517)
smp <- function(n, mu, sd) round(rnorm(n, mu, sd), 3)
welch <- list(
  list(c(1, 2), c(3, 5)),
  list(c(10.5, 10.7), c(10.1, 10.2, 10.2, 10.4)),
  list(c(5, 5.5), c(1, 9)),
  list(smp(5, 100, 1), smp(5, 101, 1)),
  list(smp(5, 100, 1), smp(12, 100.5, 4)),
  list(smp(3, 50, 0.1), smp(30, 50.2, 2)),
  list(smp(10, 1e6, 10), smp(10, 1e6 + 5, 10)),
  list(smp(8, 1, 0.01), smp(7, 1.02, 0.01)),
  list(smp(20, 0, 1), smp(25, 0.3, 1)),
  list(smp(2, 7, 3), smp(40, 7, 0.5)),
  list(smp(6, 3, 1), smp(6, 9, 1)),
  list(smp(15, 200, 30), smp(4, 150, 5)),
  list(smp(50, 10, 2), smp(50, 10.1, 2)),
  list(smp(4, -3, 0.2), smp(9, -2, 0.6)),
  list(c(1, 2, 3, 4), c(1, 2, 3, 4) + 1e-3),
  list(smp(30, 1000, 1), smp(30, 1012, 1))
)
for (pr in welch) {
  r <- t.test(pr[[1]], pr[[2]], var.equal = FALSE)
  add("welch_t", vec(pr[[1]]), vec(pr[[2]]), num(r$statistic))
  add("welch_df", vec(pr[[1]]), vec(pr[[2]]), num(r$parameter))
  add("welch_p", vec(pr[[1]]), vec(pr[[2]]), num(r$p.value))
}

# Mann-Whitney: exact without ties (R's exact = TRUE), the normal
# approximation with tie and continuity corrections otherwise.
perm <- function(n) sample(n) * 1.5 + 0.25
mw_exact <- list(
  list(c(1, 2), c(3)),
  list(c(1.5, 4.2, 3.3), c(2.1, 5.6, 7.7, 8.8)),
  list(c(10, 11, 12, 13), c(1, 2, 3, 4, 5)),
  list(c(3.1, 1.2, 9.9, 4.4, 7.5), c(2.2, 8.1, 5.3, 6.6, 0.5)),
  list(perm(12)[1:6], perm(12)[7:12] + 0.1),
  list(sample(100, 30) + 0.5, sample(100, 20)),
  list(sample(1000, 50) + 0.5, sample(1000, 50)),
  list(sample(1000, 50) + 0.5, sample(1000, 47) + 300)
)
mw_approx <- list(
  list(c(1, 2, 2, 3), c(2, 3, 3, 4, 5)),
  list(c(1, 1, 1, 2), c(1, 2, 2, 2, 2)),
  list(c(5, 5, 6, 7, 7, 7, 8), c(4, 5, 5, 6, 6, 7)),
  list(round(rnorm(30, 10, 2)), round(rnorm(25, 11, 2))),
  list(round(rnorm(60, 0, 3)), round(rnorm(70, 1, 3))),
  list(sample(1000, 60) + 0.5, sample(1000, 55)),
  list(c(1, 2, 3), c(1, 2, 3))
)
for (pr in mw_exact) {
  r <- wilcox.test(pr[[1]], pr[[2]], exact = TRUE)
  add("mw_u", vec(pr[[1]]), vec(pr[[2]]), num(r$statistic))
  add("mw_p", vec(pr[[1]]), vec(pr[[2]]), num(r$p.value))
}
for (pr in mw_approx) {
  r <- wilcox.test(pr[[1]], pr[[2]], exact = FALSE, correct = TRUE)
  add("mw_u", vec(pr[[1]]), vec(pr[[2]]), num(r$statistic))
  add("mw_p", vec(pr[[1]]), vec(pr[[2]]), num(r$p.value))
}

# Benjamini-Hochberg. NaN (R's NA) p-values are dropped before
# p.adjust(), because p.adjust() counts them in n by default while
# stats_bh() does not count them.
bh <- list(
  c(0.01, 0.02, 0.03, 0.04, 0.05),
  c(0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205, 0.212, 0.216),
  c(0.5, 0.01, 0.2, 0.04, 0.03),
  c(0.049, 0.9, NA, 0.0001, 0.026, NA),
  c(0.06, 0.07, 0.08),
  c(1e-10, 0.3, 0.3, 0.3, 0.0125, 0.025)
)
for (p in bh) {
  keep <- !is.na(p)
  rej <- rep(0, length(p))
  rej[keep] <- as.integer(p.adjust(p[keep], method = "BH") <= 0.05)
  add("bh", paste(ifelse(is.na(p), "nan", num(p)), collapse = ","),
      num(0.05), paste(rej, collapse = ","))
}

header <- c(
  "# Reference values for tests/test-stats-dist.c.",
  "# Generated by scripts/gen-stats-reference.R; do not edit by hand.",
  sprintf("# %s", R.version.string))
writeLines(c(header, rows), out)
cat(sprintf("wrote %d rows to %s\n", length(rows), out))
