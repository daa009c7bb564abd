/*
 * explain (src/explain.h): folded stacks into self and total shares,
 * Welch's interval and test on them against R (data/stats-explain-
 * reference.tsv, written by scripts/gen-stats-explain-reference.R), bad
 * folded text refused with its line, and a seeded simulation of
 * profiles: A/A pairs mark a row in about alpha of the pairs under
 * Benjamini-Hochberg, a 50/50 against 70/30 split is found, by symbol
 * and by call path.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "explain.h"
#include "strbuf.h"
#include "test-stats-tsv.h"
#include "util.h"

#define TABLE_PATH "data/stats-explain-reference.tsv"

/* The row of symbol sym, kind self, or NULL. */
static const struct explain_row *find(const struct explain_row *rows, size_t nr,
				      const char *sym, bool self)
{
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(rows[i].symbol, sym) && rows[i].self == self)
			return &rows[i];
	return NULL;
}

/* Add one profile of n_a samples in main;a and n_b in main;b. */
static void add_ab(struct explain *ex, bool other, double n_a, double n_b)
{
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;

	strbuf_addf(&sb, "main;a %.0f\nmain;b %.0f\n", n_a, n_b);
	if (explain_add(ex, other, sb.buf, "case", &err))
		BUG("%s", err.buf);
	strbuf_release(&sb);
	strbuf_release(&err);
}

static void check_row(char *s, int line)
{
	char *f[16];
	double *l[4] = {NULL}, want[4] = {0};
	size_t n[4] = {0}, nr = split(s, '\t', f, ARRAY_SIZE(f)), rows_nr;
	struct explain *ex = explain_new(EXPLAIN_BY_SYMBOL);
	const struct explain_row *rows, *r;
	bool parsed = nr == 9 && !strcmp(f[0], "share");

	for (int k = 0; parsed && k < 4; k++)
		parsed = parse_list(f[1 + k], &l[k], &n[k]) &&
			 parse_num_or_nan(f[5 + k], &want[k]);
	parsed = parsed && n[0] == n[1] && n[2] == n[3] && l[0] && l[1] &&
		 l[2] && l[3];
	ok(parsed, "line %d parses", line);
	if (!parsed)
		goto out;
	for (size_t i = 0; i < n[0]; i++)
		add_ab(ex, false, l[0][i], l[1][i]);
	for (size_t i = 0; i < n[2]; i++)
		add_ab(ex, true, l[2][i], l[3][i]);
	rows = explain_compute(ex, 0.05, false, &rows_nr);
	r = find(rows, rows_nr, "a", true);
	ok(r && r->tested, "line %d: a's self share is tested", line);
	if (!r || !r->tested)
		goto out;
	check_rel_tol("change", "a", r->diff_pp, want[0], 1e-12, line);
	check_rel_tol("ci_low", "a", r->ci_low, want[1], 1e-9, line);
	check_rel_tol("ci_high", "a", r->ci_high, want[2], 1e-9, line);
	check_rel_tol("p", "a", r->p, want[3], 1e-9, line);
out:
	for (int k = 0; k < 4; k++)
		free(l[k]);
	explain_free(ex);
}

/* Folded text and the shares, percent, it gives on its own. */
static const struct {
	const char *folded;
	const char *sym;
	double self_pct, total_pct;
} share_cases[] = {
	{"main;a 3\nmain;b 1\n", "a", 75, 75},
	{"main;a 3\nmain;b 1\n", "main", 0, 100},
	{"main;a;c 2\nmain;c 2\n", "c", 100, 100},
	{"main;a;c 2\nmain;c 2\n", "a", 0, 50},
	/* Recursion counts once per stack in total. */
	{"main;f;f;f 1\nmain;g 3", "f", 25, 25},
	/* A frame with spaces and the count after the last one. */
	{"main;operator new 4\n", "operator new", 100, 100},
	{"x 0\ny 5\n", "x", 0, 0},
};

static void check_shares(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(share_cases); i++) {
		struct explain *ex = explain_new(EXPLAIN_BY_SYMBOL);
		struct strbuf err = STRBUF_INIT;
		const struct explain_row *rows, *self, *total;
		size_t nr;
		bool added = true;

		/* Two identical profiles a side: shares are their means. */
		for (int k = 0; k < 4; k++)
			added &= !explain_add(ex, k >= 2, share_cases[i].folded,
					      "t", &err);
		rows = explain_compute(ex, 0.05, true, &nr);
		self = find(rows, nr, share_cases[i].sym, true);
		total = find(rows, nr, share_cases[i].sym, false);
		ok(added && self && total &&
			   fabs(self->base_pct - share_cases[i].self_pct) <
				   1e-12 &&
			   fabs(total->other_pct - share_cases[i].total_pct) <
				   1e-12 &&
			   !self->tested && !total->tested,
		   "shares, case %zu: %s self %g%%, total %g%%, untested "
		   "(no variance)",
		   i, share_cases[i].sym, share_cases[i].self_pct,
		   share_cases[i].total_pct);
		strbuf_release(&err);
		explain_free(ex);
	}
}

/* By call path: folded text and a path's shares, percent, on its own. */
static const struct {
	const char *folded;
	const char *path;
	double self_pct, total_pct;
} path_cases[] = {
	{"main;a 3\nmain;b 1\n", "main;a", 75, 75},
	{"main;a 3\nmain;b 1\n", "main", 0, 100},
	{"main;a;c 2\nmain;c 2\n", "main;c", 50, 50},
	{"main;a;c 2\nmain;c 2\n", "main;a;c", 50, 50},
	{"main;a;c 2\nmain;c 2\n", "main;a", 0, 50},
	/* Each level of a recursion is a path of its own. */
	{"main;f;f;f 1\nmain;g 3", "main;f;f", 0, 25},
	{"main;f;f;f 1\nmain;g 3", "main;f;f;f", 25, 25},
	{"main;f 1\nmain;f;g 3", "main;f", 25, 100},
	{"main;operator new 4\n", "main;operator new", 100, 100},
};

static void check_path_shares(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(path_cases); i++) {
		struct explain *ex = explain_new(EXPLAIN_BY_PATH);
		struct strbuf err = STRBUF_INIT;
		const struct explain_row *rows, *self, *total;
		size_t nr;
		bool added = true;

		for (int k = 0; k < 4; k++)
			added &= !explain_add(ex, k >= 2, path_cases[i].folded,
					      "t", &err);
		rows = explain_compute(ex, 0.05, true, &nr);
		self = find(rows, nr, path_cases[i].path, true);
		total = find(rows, nr, path_cases[i].path, false);
		ok(added && self && total &&
			   fabs(self->other_pct - path_cases[i].self_pct) <
				   1e-12 &&
			   fabs(total->base_pct - path_cases[i].total_pct) <
				   1e-12 &&
			   !find(rows, nr, "a", true) &&
			   explain_by(ex) == EXPLAIN_BY_PATH,
		   "path shares, case %zu: %s self %g%%, total %g%%", i,
		   path_cases[i].path, path_cases[i].self_pct,
		   path_cases[i].total_pct);
		strbuf_release(&err);
		explain_free(ex);
	}
}

static const struct {
	const char *folded, *msg;
} bad_cases[] = {
	{"main;a\n", "p1: line 1: expected 'STACK COUNT'"},
	{"main;a 2\nmain;b x\n", "p1: line 2: expected 'STACK COUNT'"},
	{"main;a 2\n 5\n", "p1: line 2: expected 'STACK COUNT'"},
	{"main;a -1\n", "p1: line 1: expected 'STACK COUNT'"},
	{"main;a 1 \n", "p1: line 1: expected 'STACK COUNT'"},
};

static void check_bad(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(bad_cases); i++) {
		struct explain *ex = explain_new(EXPLAIN_BY_SYMBOL);
		struct strbuf err = STRBUF_INIT;
		int ret =
			explain_add(ex, false, bad_cases[i].folded, "p1", &err);

		ok(ret == -1 && !strcmp(err.buf, bad_cases[i].msg) &&
			   explain_iterations(ex, false) == 0,
		   "bad folded text %zu refused: %s", i, err.buf);
		strbuf_release(&err);
		explain_free(ex);
	}
}

/* xorshift64* (Vigna 2016): the simulation's draws, from a fixed seed. */
static double uniform(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return (double)((*s * UINT64_C(2685821657736338717)) >> 11) * 0x1.0p-53;
}

#define SIM_SAMPLES  300 /* per profile */
#define SIM_PROFILES 5	 /* per side */
#define SIM_PAIRS    400

/*
 * One profile: SIM_SAMPLES samples among spin_a, spin_b and two kernel
 * symbols under them, spin_a's share `share` moved by a run's jitter.
 */
static void sim_profile(struct explain *ex, bool other, double share,
			uint64_t *seed)
{
	double jitter = (uniform(seed) - 0.5) * 0.02;
	double p[] = {(share + jitter) * 0.96, (1 - share - jitter) * 0.96,
		      0.025, 0.015};
	static const char *const stack[] = {"main;spin_a", "main;spin_b",
					    "main;spin_a;irq_[k]",
					    "main;spin_b;irq_[k];softirq_[k]"};
	unsigned counts[ARRAY_SIZE(p)] = {0};
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;

	for (int k = 0; k < SIM_SAMPLES; k++) {
		double u = uniform(seed);
		size_t c = 0;

		while (c + 1 < ARRAY_SIZE(p) && u >= p[c])
			u -= p[c++];
		counts[c]++;
	}
	for (size_t c = 0; c < ARRAY_SIZE(p); c++)
		strbuf_addf(&sb, "%s %u\n", stack[c], counts[c]);
	if (explain_add(ex, other, sb.buf, "sim", &err))
		BUG("%s", err.buf);
	strbuf_release(&sb);
	strbuf_release(&err);
}

/*
 * Whether the first two symbols (or paths) ranked are spin_a and spin_b
 * (prefix "spin_", or "main;spin_" by path), marked.
 */
static bool found_split(const struct explain_row *rows, size_t nr,
			const char *prefix)
{
	size_t len = strlen(prefix);

	const char *first = NULL;

	for (size_t i = 0; i < nr && rows[i].tested; i++) {
		if (!first) {
			first = rows[i].symbol;
			if (!rows[i].marked || strncmp(first, prefix, len))
				return false;
		} else if (strcmp(rows[i].symbol, first)) {
			return rows[i].marked &&
			       !strncmp(rows[i].symbol, prefix, len);
		}
	}
	return false;
}

static void check_simulation(enum explain_by by)
{
	uint64_t seed = UINT64_C(0x24e5a11d);
	size_t aa_marked = 0, found = 0;
	const char *prefix = by == EXPLAIN_BY_PATH ? "main;spin_" : "spin_";
	const char *name = explain_by_name(by);

	for (size_t pair = 0; pair < SIM_PAIRS; pair++) {
		struct explain *aa = explain_new(by), *ch = explain_new(by);
		const struct explain_row *rows;
		size_t nr;

		for (int k = 0; k < 2 * SIM_PROFILES; k++) {
			sim_profile(aa, k % 2, 0.5, &seed);
			sim_profile(ch, k % 2, k % 2 ? 0.7 : 0.5, &seed);
		}
		explain_compute(aa, 0.05, true, &nr);
		aa_marked += explain_marked(aa) > 0;
		rows = explain_compute(ch, 0.05, true, &nr);
		found += found_split(rows, nr, prefix);
		explain_free(aa);
		explain_free(ch);
	}
	diag("by %s: A/A pairs with a marked row: %zu of %d; 70/30 found: "
	     "%zu",
	     name, aa_marked, SIM_PAIRS, found);
	ok((double)aa_marked <= SIM_PAIRS * 0.075,
	   "by %s, A/A: a row is marked in at most 7.5%% of pairs (%zu of "
	   "%d)",
	   name, aa_marked, SIM_PAIRS);
	ok((double)aa_marked >= SIM_PAIRS * 0.01,
	   "by %s, A/A: but in some, the test is not blind (%zu of %d)", name,
	   aa_marked, SIM_PAIRS);
	ok((double)found >= SIM_PAIRS * 0.95,
	   "by %s, 50/50 against 70/30: %sa and %sb ranked first and marked "
	   "in at least 95%% of pairs (%zu of %d)",
	   name, prefix, prefix, found, SIM_PAIRS);
}

int main(void)
{
	int rows = read_table(TABLE_PATH, check_row);

	ok(rows > 0, "reference table %s has %d rows", TABLE_PATH, rows);
	report_worst();
	check_shares();
	check_path_shares();
	check_bad();
	check_simulation(EXPLAIN_BY_SYMBOL);
	check_simulation(EXPLAIN_BY_PATH);
	done_testing();
	return exit_status();
}
