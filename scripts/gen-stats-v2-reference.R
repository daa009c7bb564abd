#!/usr/bin/env Rscript
# Write tests/data/stats-v2-reference.tsv: reference values from R for
# tests/test-stats-v2.c, the statistics of compare version 2 (the
# statistics reference, sections 1 to 9), so that the unit tests never
# need R.
#
# Usage, from the top of the source tree:
#   Rscript scripts/gen-stats-v2-reference.R [OUTPUT]
#
# Each row is a function name and its fields, separated by tabs. Numbers
# are printed with %.17g, so C reads back exactly the doubles R used;
# lists are comma-separated, "nan" is R's NA or NaN. The rows:
#   units       reciprocal x-list key-list  want-list   unit values
#   welch       a-list b-list  t df p        t.test(a, b, var.equal = FALSE)
#   bh_adjust   p-list  want-list            p.adjust(p, "BH")
#   qt_upper    q df  want                   qt(q, df, lower.tail = FALSE)
#   pnt_lower   t df ncp  want               pt(t, df, ncp)
#   pnt_upper   t df ncp  want               pt(t, df, ncp, lower = FALSE)
#   fieller     higher alpha a-list b-list  kind change low high
#   verdict     higher alpha margin a-list b-list  verdict
#   power       n delta alpha  want          power.t.test(...)$power
#   mde         n sd alpha power  want       power.t.test(...)$delta
#   power_n     delta sd alpha power  want   power.t.test(...)$n
#   utest_floor na nb  want                  p of wilcox.test, apart
#   outliers    u-list  flag-list            |u - median| / mad(u) > 3.5
#   spearman    x-list y-list  rho p         cor.test(method = "spearman"),
#                                            exact for n <= 9 without ties
#   anova       x-list key-list  p           oneway.test(var.equal = TRUE)
#   ci_half     u-list alpha  want           t.test(u)$conf.int, % of mean
#   pct         value base higher  want      100 (v - b) / |b|, +: better
#   cv          u-list  want                 100 sd(u) / |mean(u)|
#   mde_row     a-list b-list alpha  want    the MDE of a row, section 6
# power.t.test() is called with tol = 1e-12: its default tolerance,
# eps^0.25 (1.2e-4), leaves the root it returns that far from the exact
# root that mmcmp computes.

args <- commandArgs(trailingOnly = TRUE)
out <- if (length(args) >= 1) args[1] else "tests/data/stats-v2-reference.tsv"

rows <- character(0)
num <- function(x) ifelse(is.na(x), "nan", sprintf("%.17g", x))
vec <- function(x) paste(num(x), collapse = ",")
add <- function(...) {
  fields <- c(...)
  rows[length(rows) + 1] <<- paste(fields, collapse = "\t")
}

set.seed(20261201)
smp <- function(n, mu, sd) signif(rnorm(n, mu, sd), 6)

# Section 1: unit values, in the order of each unit's first sample.
units <- function(x, key, reciprocal) {
  sapply(unique(key), function(k) {
    v <- x[key == k]
    if (reciprocal) {
      if (any(is.na(v) | v <= 0)) NaN else mean(1 / v)
    } else {
      mean(v)
    }
  })
}
unit_cases <- list(
  list(smp(12, 100, 3), rep(1:4, each = 3)),
  list(smp(10, 5e5, 1e4), c(3, 3, 3, 7, 7, 9, 9, 9, 9, 12)),
  list(smp(8, 20, 1), c(1, 2, 1, 2, 3, 3, 1, 2)),
  list(c(10, 0, 12, 11, 13, 9), c(1, 1, 2, 2, 3, 3)),
  list(c(4.5, 5.5, 6, -2, 7), c(5, 4, 3, 2, 1)),
  list(smp(75, 1000, 20), rep(0:4, each = 15)),
  list(smp(6, 1, 0.1), c(-5, -5, 0, 0, 1e12, 1e12))
)
for (cs in unit_cases) {
  for (rec in c(TRUE, FALSE))
    add("units", as.integer(rec), vec(cs[[1]]), vec(cs[[2]]),
        vec(units(cs[[1]], cs[[2]], rec)))
}

# Section 2: Welch's test on unit values. The scaled rows multiply both
# samples by 1e300, 1e-200 or 1e100: the t-test is scale-free, so the
# figures are those of the unscaled samples, which R computes without
# underflow.
welch_cases <- list(
  list(smp(5, 100, 2), smp(5, 103, 2)),
  list(smp(3, 1, 0.01), smp(3, 1.01, 0.03)),
  list(smp(5, 50, 0.5), smp(10, 50.2, 1.5)),
  list(smp(2, 7, 0.3), smp(2, 7.2, 0.1)),
  list(smp(10, 1e6, 10), smp(10, 1e6 + 4, 10)),
  list(smp(20, 0.01, 1e-4), smp(4, 0.0102, 3e-4))
)
for (cs in welch_cases) {
  for (f in c(1, 1e300, 1e-200, 1e100)) {
    r <- t.test(cs[[1]], cs[[2]], var.equal = FALSE)
    add("welch", vec(cs[[1]] * f), vec(cs[[2]] * f), num(r$statistic),
        num(r$parameter), num(r$p.value))
  }
}

# Section 3: BH adjusted p-values; NA is dropped before p.adjust (which
# would count it in n) and stays NA.
bh <- list(
  c(0.01, 0.02, 0.03, 0.04, 0.05),
  c(0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205, 0.212, 0.216),
  c(0.5, 0.01, 0.2, 0.04, 0.03, 0.03),
  c(0.049, 0.9, NA, 0.0001, 0.026, NA),
  c(0.06, 0.07, 0.08, 1),
  c(1e-10, 0.3, 0.3, 0.3, 0.0125, 0.025, 0.8, 0.01),
  c(0.2)
)
for (p in bh) {
  adj <- rep(NA, length(p))
  adj[!is.na(p)] <- p.adjust(p[!is.na(p)], method = "BH")
  add("bh_adjust", vec(p), vec(adj))
}

# The t quantile and the noncentral t.
for (df in c(1, 1.3, 2, 2.2, 3.7, 5, 8, 18, 30, 100, 1e4, 1e7)) {
  for (q in c(1e-8, 1e-4, 0.0025, 0.005, 0.025, 0.05, 0.1, 0.3, 0.5, 0.7,
              0.975))
    add("qt_upper", num(q), num(df), num(qt(q, df, lower.tail = FALSE)))
}
for (df in c(1.5, 4, 8, 18, 58.5, 500, 5e5)) {
  for (ncp in c(-2, -0.5, 0.7, 2, 3.5, 6, 9)) {
    for (t in c(-3, -0.5, 0, 0.8, 2, 2.3, 4, 7, 12)) {
      lo <- pt(t, df, ncp)
      up <- pt(t, df, ncp, lower.tail = FALSE)
      # AS 243 is accurate to about 1e-12 absolute; relative to 1e-9
      # asks for values above 1e-3.
      if (lo >= 1e-3)
        add("pnt_lower", num(t), num(df), num(ncp), num(lo))
      if (up >= 1e-3)
        add("pnt_upper", num(t), num(df), num(ncp), num(up))
    }
  }
}

# Section 4: the change and Fieller's interval, from the formula of the
# reference (a, b, c and the roots), with the df of t.test().
fieller <- function(base, other, higher, alpha) {
  df <- t.test(base, other, var.equal = FALSE)$parameter
  if (higher) {
    num1 <- base; den <- other
  } else {
    num1 <- other; den <- base
  }
  m1 <- mean(num1); m2 <- mean(den)
  v1 <- var(num1) / length(num1); v2 <- var(den) / length(den)
  tq <- qt(1 - alpha / 2, df)
  a <- m2^2 - tq^2 * v2
  b <- m1 * m2
  c <- m1^2 - tq^2 * v1
  theta <- m1 / m2
  lo <- NA; hi <- NA
  if (a > 0) {
    kind <- "bounded"
    lo <- (b - sqrt(b^2 - a * c)) / a
    hi <- (b + sqrt(b^2 - a * c)) / a
  } else if (b^2 - a * c < 0) {
    kind <- "whole"
  } else {
    kind <- "exclusive"
  }
  # Positive is better; a negative lower-is-better base keeps the sign
  # of (base - other) / |base|.
  if (higher || mean(base) < 0) {
    ch <- c(100 * (theta - 1), 100 * (lo - 1), 100 * (hi - 1))
  } else {
    ch <- c(100 * (1 - theta), 100 * (1 - hi), 100 * (1 - lo))
  }
  if (kind != "bounded") ch[2:3] <- NA
  list(kind = kind, change = ch[1], low = ch[2], high = ch[3])
}
fieller_cases <- list(
  list(TRUE, smp(5, 0.010, 2e-4), smp(5, 0.0105, 2e-4)),
  list(TRUE, smp(5, 0.010, 2e-4), smp(5, 0.0096, 3e-4)),
  list(FALSE, smp(5, 200, 4), smp(5, 190, 4)),
  list(FALSE, smp(8, 200, 4), smp(4, 209, 9)),
  list(TRUE, smp(10, 1, 0.01), smp(10, 1, 0.01)),
  list(FALSE, smp(3, 5, 0.2), smp(3, 5.1, 0.5)),
  list(FALSE, c(-11.2, -10.9, -11.0), c(-6.1, -5.8, -6.05)),
  list(FALSE, c(1, 10), c(2, 3)),
  list(TRUE, c(2, 3, 2.5), c(0.1, 9, 0.2)),
  list(FALSE, c(0.1, 9, 0.2), c(5, 6, 5.5)),
  list(FALSE, smp(30, 1e-3, 1e-5), smp(30, 1.01e-3, 1e-5))
)
for (cs in fieller_cases) {
  for (alpha in c(0.05, 0.01, 0.1)) {
    r <- fieller(cs[[2]], cs[[3]], cs[[1]], alpha)
    add("fieller", as.integer(cs[[1]]), num(alpha), vec(cs[[2]]),
        vec(cs[[3]]), r$kind, num(r$change), num(r$low), num(r$high))
  }
}

# Section 5: verdicts of a lone row (marked: p <= alpha), TOST as the
# 1 - 2 alpha interval inside (-margin, +margin).
verdict <- function(base, other, higher, alpha, margin) {
  marked <- t.test(base, other, var.equal = FALSE)$p.value <= alpha
  ch <- fieller(base, other, higher, alpha)$change
  tost <- fieller(base, other, higher, 2 * alpha)
  if (marked && ch >= margin) return("better")
  if (marked && ch <= -margin) return("worse")
  if (margin > 0 && tost$kind == "bounded" && tost$low > -margin &&
      tost$high < margin) return("same")
  "inconclusive"
}
verdict_cases <- list(
  list(FALSE, smp(10, 100, 0.2), smp(10, 100.05, 0.2)),
  list(FALSE, smp(10, 100, 0.2), smp(10, 100.5, 0.2)),
  list(TRUE, smp(10, 1, 0.002), smp(10, 0.995, 0.002)),
  list(TRUE, smp(5, 1, 0.02), smp(5, 1.01, 0.02)),
  list(FALSE, smp(5, 100, 1), smp(5, 103, 1)),
  list(TRUE, smp(5, 1, 0.01), smp(5, 1.04, 0.01)),
  list(FALSE, smp(20, 50, 0.1), smp(20, 50.3, 0.1)),
  list(TRUE, smp(3, 1, 0.05), smp(3, 1, 0.05)),
  list(TRUE, smp(6, 1, 0.01), smp(6, 0.96, 0.01)),
  list(FALSE, smp(8, 100, 1), smp(8, 96, 1))
)
for (cs in verdict_cases) {
  for (margin in c(0, 0.5, 1, 2)) {
    add("verdict", as.integer(cs[[1]]), num(0.05), num(margin),
        vec(cs[[2]]), vec(cs[[3]]),
        verdict(cs[[2]], cs[[3]], cs[[1]], 0.05, margin))
  }
}

# Section 6: power.t.test, two-sample, two-sided, strict = FALSE.
for (n in c(2, 2.5, 3, 5, 6.6666666666666667, 10, 30, 100)) {
  for (alpha in c(0.05, 0.01, 0.0025)) {
    for (d in c(0.5, 1.5, 3))
      add("power", num(n), num(d), num(alpha),
          num(power.t.test(n = n, delta = d, sd = 1, sig.level = alpha)$power))
    for (pw in c(0.5, 0.8, 0.9)) {
      sd <- c(0.5, 1, 2.3)[1 + (n * 10) %% 3]
      add("mde", num(n), num(sd), num(alpha), num(pw),
          num(power.t.test(n = n, sd = sd, sig.level = alpha, power = pw,
                           tol = 1e-12)$delta))
    }
  }
}
for (delta in c(0.5, 1, 3, 5)) {
  for (sd in c(1, 2)) {
    for (alpha in c(0.05, 0.01)) {
      for (pw in c(0.8, 0.9)) {
        r <- power.t.test(delta = delta, sd = sd, sig.level = alpha,
                          power = pw, tol = 1e-12)
        if (r$n > 2)
          add("power_n", num(delta), num(sd), num(alpha), num(pw), num(r$n))
      }
    }
  }
}

# Section 8. The U test's floor is its p for two samples wholly apart.
for (nn in list(c(2, 2), c(3, 3), c(4, 5), c(5, 5), c(6, 4), c(8, 8),
                c(1, 9), c(12, 15))) {
  p <- wilcox.test(seq_len(nn[1]), nn[1] + seq_len(nn[2]), exact = TRUE)$p.value
  add("utest_floor", num(nn[1]), num(nn[2]), num(p))
}
outlier_cases <- list(
  c(10, 10.2, 9.9, 10.1, 14),
  c(1, 1.01, 0.99, 1.02, 0.98, 1.005, 0.2),
  c(5, 5.1, 4.9, 5.05),
  c(100, 101, 99, 130, 70, 100.5, 99.5, 100.2),
  c(2, 2, 2, 3, 2)
)
for (u in outlier_cases) {
  m <- mad(u)
  flag <- if (m > 0) as.integer(abs(u - median(u)) / m > 3.5) else rep(0, length(u))
  add("outliers", vec(u), paste(flag, collapse = ","))
}
spearman_cases <- list(
  list(smp(10, 1, 0.1), 1:10),
  list(c(1, 2, 3, 4, 5, 6.5, 6, 8), c(10, 20, 30, 40, 50, 60, 70, 80)),
  list(c(3, 1, 2, 2, 5, 4), c(1, 2, 3, 4, 5, 6)),
  list(smp(25, 0, 1) + (1:25) * 0.05, 1:25),
  list(c(9, 8, 7, 6, 5), c(1, 2, 3, 5.5, 4)),
  # Exact p-values: n <= 9 without ties (R's prho() enumerates them).
  list(c(1, 2, 3, 4, 5, 6), 1:6),
  list(c(6, 5, 4, 3, 2, 1), 1:6),
  list(c(3, 1, 2), 1:3),
  list(c(2, 1, 4, 3, 6, 5, 7), 1:7),
  list(c(10.2, 9.7, 11.3, 10.9, 9.1, 12.4, 11.8, 12.1), 1:8),
  list(c(9.25, 9.57, 12.58, 11.93, 11.53, 13.53, 12.47, 11.82, 11.39), 1:9),
  list(c(5, 3, 9, 1, 7, 2, 8, 4, 6), 1:9),
  # n = 10 without ties: the t approximation, as mmcmp takes it.
  list(c(1, 3, 2, 5, 4, 7, 6, 9, 8, 10), 1:10)
)
for (cs in spearman_cases) {
  n <- length(cs[[1]])
  exact <- n <= 9 && !anyDuplicated(cs[[1]]) && !anyDuplicated(cs[[2]])
  r <- suppressWarnings(cor.test(cs[[1]], cs[[2]], method = "spearman",
                                 exact = exact))
  add("spearman", vec(cs[[1]]), vec(cs[[2]]), num(r$estimate), num(r$p.value))
}
anova_cases <- list(
  list(smp(9, 10, 1), rep(1:3, each = 3)),
  list(c(smp(4, 10, 0.1), smp(4, 11, 0.1)), rep(c(7, 2), each = 4)),
  list(smp(10, 5, 1), c(1, 2, 1, 2, 3, 3, 1, 2, 3, 1)),
  list(smp(12, 100, 3), rep(1:2, 6)),
  # The boot notes of tests/test-compare.c (test_boot_notes()): boots
  # that differ, boots that do not, and the boots' values by run.
  list(c(10, 10.3, 9.8, 10.9, 11.2, 10.8, 10.1, 9.9, 10.2), rep(1:3, each = 3)),
  list(c(10, 10.4, 9.8, 10.9, 11.2, 10.6, 10.1, 9.9, 10.3), rep(1:3, each = 3)),
  list(c(10.1, 10, 10.2, 10.6, 10.5, 10.8), rep(5:6, each = 3)),
  list(c(10.1, 10, 10.2, 10.1, 10.1, 10.1), rep(5:6, each = 3))
)
for (cs in anova_cases) {
  p <- oneway.test(x ~ g, data = data.frame(x = cs[[1]], g = factor(cs[[2]])),
                   var.equal = TRUE)$p.value
  add("anova", vec(cs[[1]]), vec(cs[[2]]), num(p))
}

# Section 9: the confidence half-width in percent of the mean.
for (u in list(smp(3, 100, 1), smp(5, 1e-3, 1e-5), smp(10, 7, 0.7),
               smp(4, -20, 0.5), smp(30, 1e250, 1e248))) {
  for (alpha in c(0.05, 0.01)) {
    ci <- t.test(u / max(abs(u)), conf.level = 1 - alpha)$conf.int
    add("ci_half", vec(u), num(alpha),
        num(100 * (ci[2] - ci[1]) / 2 / abs(mean(u / max(abs(u))))))
  }
}

# Section 6 for a row: n = 2 / (1 / na + 1 / nb), sd from the two CVs.
cv <- function(u) 100 * sd(u) / abs(mean(u))
for (u in list(smp(5, 100, 2), smp(3, -4, 0.1), smp(12, 1e-250, 1e-252)))
  add("cv", vec(u), num(cv(u / max(abs(u)))))  # scale-free; R underflows
for (cs in list(list(smp(5, 0.01, 2e-4), smp(5, 0.0101, 1e-4)),
                list(smp(3, 200, 4), smp(7, 190, 8)),
                list(smp(10, 1, 0.01), smp(10, 1, 0.012)))) {
  for (alpha in c(0.05, 0.01)) {
    na <- length(cs[[1]]); nb <- length(cs[[2]])
    r <- power.t.test(n = 2 / (1 / na + 1 / nb),
                      sd = sqrt((cv(cs[[1]])^2 + cv(cs[[2]])^2) / 2),
                      sig.level = alpha, power = 0.8, tol = 1e-12)
    add("mde_row", vec(cs[[1]]), vec(cs[[2]]), num(alpha), num(r$delta))
  }
}

# Section 7: the percentages that have a number.
for (vb in list(c(110, 100), c(90, 100), c(0, 100), c(-6, -11), c(-11, -6),
                c(3.3, 1.1), c(1e-3, 2e-3))) {
  for (higher in c(TRUE, FALSE)) {
    v <- 100 * (vb[1] - vb[2]) / abs(vb[2])
    add("pct", num(vb[1]), num(vb[2]), as.integer(higher),
        num(if (higher) v else -v))
  }
}

header <- c(
  "# Reference values for tests/test-stats-v2.c.",
  "# Generated by scripts/gen-stats-v2-reference.R; do not edit by hand.",
  sprintf("# %s", R.version.string))
writeLines(c(header, rows), out)
cat(sprintf("wrote %d rows to %s\n", length(rows), out))
