#!/usr/bin/env Rscript
# Write tests/data/stats-v3-reference.tsv: reference values from R for
# tests/test-stats-v3.c, the statistics of compare version 3
# (docs/statistics.md), so that the unit tests never need R.
#
# Usage, from the top of the source tree:
#   Rscript scripts/gen-stats-v3-reference.R [OUTPUT]
#
# Rows are tab-separated, lists comma-separated, numbers printed with
# %.17g ("nan" for NA/NaN, "inf" for Inf). The rows:
#   welch_log   higher alpha a-list b-list  t df p change low high
#                 t.test(log(a), log(b)) and its interval through exp()
#   welch_power delta sa na sb nb alpha  want   Welch's exact power
#   welch_mde   sa na sb nb alpha power  want   its root in delta
#   mde_pct     log alpha a-list b-list  want   the MDE of a row, percent
#   power_n     delta sa sb alpha power  want   smallest n per side
#   esd         alpha u-list  flag-list         Rosner's generalized ESD
#   stein       pct pilot-list  want            the two-stage rule's n
#   mmtests_rate na nb  want                    mmtests' A/A mark rate
#   utest_mde   log alpha a-list b-list  want   the U test's MDE, percent
# Welch's power is integrated here with integrate() over the share r of
# the estimated variance that comes from side a (substituted r = sin^2
# phi, smooth at both ends) rather than on the grid mmcmp uses, so the
# two computations check each other; simulations in the comments at the
# end check the integral itself.

args <- commandArgs(trailingOnly = TRUE)
out <- if (length(args) >= 1) args[1] else "tests/data/stats-v3-reference.tsv"

rows <- character(0)
num <- function(x) ifelse(is.na(x), "nan",
                          ifelse(is.infinite(x), "inf", sprintf("%.17g", x)))
vec <- function(x) paste(num(x), collapse = ",")
add <- function(...) {
  fields <- c(...)
  rows[length(rows) + 1] <<- paste(fields, collapse = "\t")
}

set.seed(20261202)
smp <- function(n, mu, sd) signif(rnorm(n, mu, sd), 6)

# Welch on the logs; the change positive = better. For higher-is-better
# rows the unit values are reciprocals: theta = gm(a) / gm(b) is the
# other side's rate over the base's; for lower-is-better rows theta =
# gm(b) / gm(a) and the change is 100 (1 - theta).
welch_log <- function(a, b, higher, alpha) {
  tt <- t.test(log(a), log(b), conf.level = 1 - alpha)
  d <- mean(log(a)) - mean(log(b))
  ci <- tt$conf.int
  if (higher) {
    ch <- 100 * expm1(d); lo <- 100 * expm1(ci[1]); hi <- 100 * expm1(ci[2])
  } else {
    ch <- -100 * expm1(-d); lo <- -100 * expm1(-ci[1]); hi <- -100 * expm1(-ci[2])
  }
  c(unname(tt$statistic), unname(tt$parameter), tt$p.value, ch, lo, hi)
}
log_cases <- list(
  list(smp(5, 100, 3), smp(5, 104, 3)),
  list(smp(2, 50, 1), smp(2, 55, 1)),
  list(smp(3, 1e-3, 1e-4), smp(4, 1.3e-3, 2e-4)),
  list(smp(10, 1e6, 1e5), smp(7, 1e6, 3e5)),
  list(exp(rnorm(6, 0, 1)), exp(rnorm(6, 1, 1))),
  list(smp(20, 7, 0.1), smp(20, 7, 0.1))
)
for (cs in log_cases) for (higher in c(TRUE, FALSE)) for (alpha in c(0.05, 0.1)) {
  r <- welch_log(cs[[1]], cs[[2]], higher, alpha)
  add("welch_log", as.integer(higher), num(alpha), vec(cs[[1]]), vec(cs[[2]]),
      num(r[1]), num(r[2]), num(r[3]), num(r[4]), num(r[5]), num(r[6]))
}

# Welch's exact power for normal values with sds sa, sb and na, nb of
# them: with a = sa^2/na, b = sb^2/nb, ka = na - 1, kb = nb - 1, k = ka +
# kb, the share r of the estimated variance of the difference from side a
# has the density r^(ka/2-1) (1-r)^(kb/2-1) (ka/a)^(ka/2) (kb/b)^(kb/2) /
# (B(ka/2, kb/2) lambda^(k/2)), lambda = r ka/a + (1-r) kb/b; given r the
# test rejects when a noncentral t with k df and ncp delta/sqrt(a+b)
# exceeds qt(1 - alpha/2, df(r)) sqrt(k/(lambda (a+b))) in absolute value,
# df(r) = 1/(r^2/ka + (1-r)^2/kb).
welch_power <- function(delta, sa, na, sb, nb, alpha) {
  a <- sa^2 / na; b <- sb^2 / nb; ka <- na - 1; kb <- nb - 1; k <- ka + kb
  s2 <- a + b; nu <- delta / sqrt(s2)
  if (a == 0 || b == 0) {
    kk <- if (a == 0) kb else ka
    cr <- qt(1 - alpha / 2, kk)
    return(pt(cr, kk, nu, lower.tail = FALSE) + pt(-cr, kk, nu))
  }
  f <- function(phi) {
    r <- sin(phi)^2
    lam <- r * ka / a + (1 - r) * kb / b
    df <- 1 / (r^2 / ka + (1 - r)^2 / kb)
    h <- qt(1 - alpha / 2, df) * sqrt(k / (lam * s2))
    lw <- log(2) + (ka - 1) * log(sin(phi)) + (kb - 1) * log(cos(phi)) -
      lbeta(ka / 2, kb / 2) + (ka / 2) * log(ka / a) + (kb / 2) * log(kb / b) -
      (k / 2) * log(lam)
    exp(lw) * (pt(h, k, nu, lower.tail = FALSE) + pt(-h, k, nu))
  }
  integrate(f, 0, pi / 2, rel.tol = 1e-12, abs.tol = 0, subdivisions = 1000)$value
}
welch_mde <- function(sa, na, sb, nb, alpha, power) {
  se <- sqrt(sa^2 / na + sb^2 / nb)
  uniroot(function(d) welch_power(d, sa, na, sb, nb, alpha) - power,
          c(0, 20 * se), tol = 1e-13 * se, extendInt = "upX")$root
}
designs <- list(c(1, 2, 1, 2), c(1, 3, 1, 3), c(1, 5, 1, 5), c(1, 10, 1, 10),
                c(2, 3, 1, 5), c(1, 4, 3, 4), c(0.02, 2, 0.03, 2),
                c(1, 2, 1, 8), c(5, 6, 0.5, 6), c(1, 40, 1.2, 45),
                c(1, 100, 1, 100), c(0, 4, 1, 5))
for (d in designs) for (alpha in c(0.05, 0.0025)) {
  for (delta in c(0, 0.5, 2, 6) * sqrt(d[1]^2 / d[2] + d[3]^2 / d[4]))
    add("welch_power", num(delta), num(d[1]), num(d[2]), num(d[3]), num(d[4]),
        num(alpha), num(welch_power(delta, d[1], d[2], d[3], d[4], alpha)))
  for (power in c(0.8, 0.9))
    add("welch_mde", num(d[1]), num(d[2]), num(d[3]), num(d[4]), num(alpha),
        num(power), num(welch_mde(d[1], d[2], d[3], d[4], alpha, power)))
}

# The MDE of a row in percent: on the log scale from the sds of the logs,
# 100 (exp(mde) - 1); on the plain scale from the two CVs in percent.
mde_pct <- function(a, b, use_log, alpha) {
  if (use_log) {
    100 * expm1(welch_mde(sd(log(a)), length(a), sd(log(b)), length(b), alpha, 0.8))
  } else {
    welch_mde(100 * sd(a) / abs(mean(a)), length(a),
              100 * sd(b) / abs(mean(b)), length(b), alpha, 0.8)
  }
}
for (cs in list(list(smp(2, 100, 2), smp(2, 100, 2)),
                list(smp(5, 0.01, 2e-4), smp(5, 0.0101, 1e-4)),
                list(smp(3, 40, 4), smp(6, 44, 2)),
                list(smp(10, 5e5, 1e4), smp(10, 5e5, 3e4))))
  for (use_log in c(TRUE, FALSE)) for (alpha in c(0.05, 0.05 / 20))
    add("mde_pct", as.integer(use_log), num(alpha), vec(cs[[1]]), vec(cs[[2]]),
        num(mde_pct(cs[[1]], cs[[2]], use_log, alpha)))

# The reproducer tests/data/stats-v3/mde-n2.csv (tests/cli/t2150): its tput
# row (higher is better: unit values 1/x) and lat row, 2 iterations a side,
# at the level of a lone change in its 2-row BH family, 0.05 / 2.
add("mde_pct", "1", num(0.025), vec(1 / c(1000, 1030)), vec(1 / c(1010, 1040)),
    num(mde_pct(1 / c(1000, 1030), 1 / c(1010, 1040), TRUE, 0.025)))
add("mde_pct", "1", num(0.025), vec(c(10, 10.3)), vec(c(10.1, 10.4)),
    num(mde_pct(c(10, 10.3), c(10.1, 10.4), TRUE, 0.025)))

# Units per side: the smallest whole n >= 2 with the power wanted.
power_n <- function(delta, sa, sb, alpha, power) {
  n <- 2
  while (welch_power(delta, sa, n, sb, n, alpha) < power) n <- n + 1
  n
}
for (cs in list(c(1, 1, 1), c(2, 1, 1), c(0.5, 1, 1), c(1, 1, 2), c(3, 1, 1),
                c(10, 1, 1)))
  for (alpha in c(0.05, 0.01))
    add("power_n", num(cs[1]), num(cs[2]), num(cs[3]), num(alpha), num(0.8),
        num(power_n(cs[1], cs[2], cs[3], alpha, 0.8)))

# Rosner's generalized ESD (Technometrics 25, 1983), on log u when every
# value is positive, at most max(1, floor(n / 5)) outliers.
esd <- function(u, alpha) {
  n <- length(u)
  x <- if (all(u > 0)) log(u) else u
  most <- max(1, floor(n / 5))
  idx <- seq_len(n); out <- integer(0); found <- 0
  for (i in seq_len(most)) {
    if (n - i < 2) break
    left <- idx[!(idx %in% out)]
    m <- mean(x[left]); s <- sd(x[left])
    if (s == 0) break
    sc <- abs(x[left] - m) / s
    w <- left[which.max(sc)]
    p <- 1 - alpha / (2 * (n - i + 1))
    t <- qt(p, n - i - 1)
    lam <- (n - i) * t / sqrt((n - i - 1 + t^2) * (n - i + 1))
    out <- c(out, w)
    if (max(sc) > lam) found <- i
  }
  flag <- rep(0, n)
  if (found > 0) flag[out[seq_len(found)]] <- 1
  flag
}
esd_cases <- list(
  c(smp(9, 100, 1), 130), c(smp(12, 100, 1), 120, 80),
  smp(10, 100, 1), c(smp(5, 10, 0.1), 20), c(smp(20, -5, 1), 40, -50, 60),
  c(1, 1, 1, 1, 1), c(smp(30, 1e-3, 1e-5), 5e-3)
)
for (u in esd_cases) for (alpha in c(0.05, 0.01 / 20))
  add("esd", num(alpha), vec(u), vec(esd(u, alpha)))

# The two-stage rule of --until: from a pilot of n0 iteration values (5,
# fewer when pilot iterations failed), the tested iterations needed for a
# 95% half-width of pct percent of the mean: ceiling(n0 (h / pct)^2), h
# the pilot's half-width, at least 5.
stein <- function(x, pct) {
  n0 <- length(x)
  h <- 100 * qt(0.975, n0 - 1) * sd(x) / sqrt(n0) / abs(mean(x))
  max(5, ceiling(n0 * (h / pct)^2))
}
for (x in list(c(99, 100, 101, 100, 100), smp(5, 1000, 20), smp(5, 3e-4, 3e-5),
               smp(5, 50, 5), c(7, 7, 7, 7, 7), c(99, 100, 101, 100),
               c(1000, 1020, 990)))
  for (pct in c(0.5, 1, 2, 5))
    add("stein", num(pct), vec(x), num(stein(x, pct)))

# How often mmtests' rule marks an unchanged row of na and nb independent
# normal samples: |mean_a - mean_b| > qnorm(0.975) (sd_a + sd_b), over
# the two sample sds S = sqrt(X / k), X ~ chisq(k), by nested
# integrate() (mmcmp uses Simpson's rule on a grid). A simulation of
# 200000 pairs gives 0.0725 at n = 2 a side and 0.0114 at n = 3.
mmtests_rate <- function(na, nb) {
  z <- qnorm(0.975); sdd <- sqrt(1 / na + 1 / nb)
  ka <- na - 1; kb <- nb - 1
  ds <- function(s, k) 2 * k * s * dchisq(k * s^2, k)
  inner <- function(sa) sapply(sa, function(x)
    integrate(function(sb) ds(sb, kb) * 2 * pnorm(-z * (x + sb) / sdd),
              0, Inf, rel.tol = 1e-12, abs.tol = 0)$value)
  integrate(function(sa) ds(sa, ka) * inner(sa), 0, Inf,
            rel.tol = 1e-10, abs.tol = 0)$value
}
for (p in list(c(2, 2), c(3, 3), c(5, 5), c(10, 10), c(2, 10), c(4, 7),
               c(25, 25), c(3, 50)))
  add("mmtests_rate", num(p[1]), num(p[2]), num(mmtests_rate(p[1], p[2])))

# The U test's MDE of a row (percent, on the log scale when log = 1):
# Noether's (1987) normal approximation for a shift of normal values of
# the common sd, the root mean square of the two sides' sds; NaN when the
# exact test cannot reach alpha or the shift would need P(Y > X) >= 1. A
# simulation of wilcox.test at alpha 0.05 finds the shift printed for 10,
# 20 and 40 a side 90%, 85% and 82% of the time: the figure is high.
utest_mde <- function(log_scale, alpha, a, b) {
  na <- length(a); nb <- length(b)
  if (2 / choose(na + nb, na) > alpha) return(NaN)
  need <- 0.5 + (qnorm(1 - alpha / 2) + qnorm(0.8)) *
    sqrt((na + nb + 1) / (12 * na * nb))
  if (need >= 1) return(NaN)
  d <- sqrt(2) * qnorm(need)
  if (log_scale) return(100 * expm1(d * sqrt((var(log(a)) + var(log(b))) / 2)))
  100 * d * sqrt((var(a) / mean(a)^2 + var(b) / mean(b)^2) / 2)
}
ua <- c(101, 99, 100.5, 98.7, 102, 100.2, 99.4, 101.1, 100.8, 99.9)
ub <- c(103, 101.5, 102.2, 100.9, 104.1, 102.8, 101.7, 103.3, 102.5, 101.9, 102.2, 100.4)
for (alpha in c(0.05, 0.005)) for (log_scale in c(1, 0)) {
  add("utest_mde", num(log_scale), num(alpha), vec(ua), vec(ub),
      num(utest_mde(log_scale, alpha, ua, ub)))
  add("utest_mde", num(log_scale), num(alpha), vec(ua[1:4]), vec(ub[1:4]),
      num(utest_mde(log_scale, alpha, ua[1:4], ub[1:4])))
}

header <- c("# Reference values for tests/test-stats-v3.c.",
            "# Generated by scripts/gen-stats-v3-reference.R; do not edit by hand.",
            paste("#", R.version.string))
writeLines(c(header, rows), out)
