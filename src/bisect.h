#ifndef MMCMP_BISECT_H
#define MMCMP_BISECT_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf;

/*
 * bisect: the search for the commit that moved a metric, over commits
 * 0 (the good end) .. n - 1 (the bad end) in order. The ends are checked
 * first, then each step measures a candidate interleaved with both ends
 * (slots A C B C) and classifies it good-like, bad-like or unsure by a
 * sequential rule, batch after batch; the culprit is verified with fresh
 * units. Building and measuring are the caller's (struct bisect_ops), so
 * the search is the same for a simulation and a real tree. One error
 * budget, alpha, covers the whole search (bisect_share()). The log and
 * result belong to struct bisect_result; bisect_result_release() frees
 * them. Functions returning int give 0, or -1 after one line in err.
 */

enum bisect_verdict {
	BISECT_UNKNOWN = 0,
	BISECT_GOOD,   /* good-like; at the ends: no regression */
	BISECT_BAD,    /* bad-like; at the ends: the bad end is worse */
	BISECT_UNSURE, /* neither at the maximum of units */
	BISECT_SKIP,   /* it does not build (git's 125) */
};

/* "good", "bad", "unsure", "skip", "unknown"; static. */
const char *bisect_verdict_name(enum bisect_verdict v);

/*
 * The rule: alpha for the whole search; rounds of the slots per batch
 * and at most max_batches batches per decision; a step stops at the
 * first batch after which it is decided. margin_pct > 0 asks the ends
 * to differ by at least that much (and lets them be called the same
 * within it early).
 */
struct bisect_rule {
	double alpha;	    /* default 0.05 */
	double margin_pct;  /* 0: none */
	size_t rounds;	    /* per batch, default 3 */
	size_t max_batches; /* default 8 */
	bool higher_better; /* of the metric: bad means lower */
	bool fixed_n;	    /* always max_batches (the yardstick) */
};

#define BISECT_RULE_INIT                                                       \
	{                                                                      \
		.alpha = 0.05, .rounds = 3, .max_batches = 8                   \
	}

/*
 * One look at the data of a decision. The values are each side's unit
 * values, made "badness" y = log u (lower-better) or -log u
 * (higher-better), on the plain scale when a value is <= 0. t is the
 * statistic, df its Welch-Satterthwaite degrees of freedom, p the
 * one-sided p-value of the verdict's direction, pos where the
 * candidate's mean lies from 0 (the good end) to 1 (the bad end) and
 * change_pct the change of the bad end against the good end, positive
 * worse; mde_pct the change the ends could show at the level (80%
 * power).
 */
struct bisect_look {
	enum bisect_verdict verdict;
	double t, df, p, pos, change_pct, mde_pct;
};

/*
 * Classify candidate c between good-end values a and bad-end values b
 * at level alpha_look: the midpoint test t = (mean c - (mean a + mean
 * b) / 2) / se, se^2 = s_c^2 / n_c + (s_a^2 / n_a + s_b^2 / n_b) / 4;
 * bad-like when t > qt(1 - alpha_look, df), good-like when
 * t < -qt(1 - alpha_look, df), else unsure. When c is as the good end,
 * the chance of calling it bad-like is at most alpha_look, whatever the
 * ends' difference (it only moves t away). Fewer than 2 values on a
 * side is unsure.
 */
void bisect_classify(const double *a, size_t na, const double *c, size_t nc,
		     const double *b, size_t nb, bool higher_better,
		     double alpha_look, struct bisect_look *out);

/*
 * The ends check at level alpha_look: Welch's one-sided test that b is
 * worse than a (BISECT_BAD when p <= alpha_look and the change is at
 * least margin_pct); with margin_pct > 0, BISECT_GOOD when the upper
 * one-sided bound of the change is below the margin (the ends are the
 * same within it); else unsure.
 */
void bisect_ends(const double *a, size_t na, const double *b, size_t nb,
		 bool higher_better, double alpha_look, double margin_pct,
		 struct bisect_look *out);

/*
 * The error budget: decisions 0 .. planned - 1 get alpha / (planned + 1)
 * each; decision planned + k (skips and unsure steps past the plan)
 * gets alpha / (planned + 1) / 2^(k + 1), so all of them together never
 * spend more than alpha. Each of its max_batches looks gets its share
 * over max_batches (Bonferroni over the looks).
 */
double bisect_share(double alpha, size_t planned, size_t k);
/* The planned decisions for n commits: the ends, ceil(log2(n - 1)), 2. */
size_t bisect_planned(size_t n);

/* The unit values of one slot of a batch, grown by the measure hook. */
struct bisect_values {
	double *v;
	size_t nr, alloc;
};

/* Append x to vals. */
void bisect_values_add(struct bisect_values *vals, double x);

enum bisect_kind {
	BISECT_ENDS,	/* the check of the ends */
	BISECT_STEP,	/* a step of the search */
	BISECT_PARENT,	/* verification: the culprit's parent */
	BISECT_CULPRIT, /* verification: the culprit */
};

/* "ends", "step", "verify-parent", "verify-culprit"; static. */
const char *bisect_kind_name(enum bisect_kind k);

/* A line of the bisection log. */
struct bisect_entry {
	enum bisect_kind kind;
	size_t commit; /* the candidate; for the ends, the bad end */
	enum bisect_verdict verdict;
	size_t units; /* unit values measured for it, all slots */
	double p, pos, alpha;
	char hash[65]; /* "" when it did not build */
	long same_as;  /* the commit of the same binary, or -1 */
};

struct bisect_ops {
	/*
	 * Build commit i; its image's SHA-256 (hex) into hash. 0 built, 1
	 * it does not build, -1 a failure that stops the search.
	 */
	int (*build)(void *ctx, size_t i, char hash[65], struct strbuf *err);
	/*
	 * Run `rounds` rounds of the slots in order (commit indexes, a
	 * commit may come twice), each unit value of slot s appended to
	 * vals[s]. A slot may get fewer values (failed iterations). 1: the
	 * batch is not measured yet (a search that goes on across boots of
	 * this machine); the search stops there and says so (below).
	 */
	int (*measure)(void *ctx, const size_t *slots, size_t slots_nr,
		       size_t rounds, struct bisect_values *vals,
		       struct strbuf *err);
	/*
	 * When not NULL: each line of the log once it is final (the
	 * caller prints or stores it); -1 stops the search.
	 */
	int (*logged)(void *ctx, const struct bisect_entry *e,
		      struct strbuf *err);
	void *ctx;
};

enum bisect_outcome {
	BISECT_FOUND,	      /* culprit, verified */
	BISECT_UNVERIFIED,    /* culprit, but the verification disagreed */
	BISECT_AMBIGUOUS,     /* the culprit is one of first .. culprit */
	BISECT_NO_REGRESSION, /* the ends do not differ */
	BISECT_SAME_ENDS,     /* the ends' binaries are the same */
};

/* The outcome's name, as stored and printed: "found", "no-regression", ... */
const char *bisect_outcome_name(enum bisect_outcome o);

/*
 * The outcome of a culprit's verification: BISECT_FOUND when its parent
 * is good-like and itself bad-like with fresh units, else
 * BISECT_UNVERIFIED.
 */
enum bisect_outcome bisect_verified(enum bisect_verdict parent,
				    enum bisect_verdict culprit);

struct bisect_result {
	enum bisect_outcome outcome;
	size_t culprit; /* the first bad-like commit */
	size_t first;	/* with BISECT_AMBIGUOUS, the first possible */
	struct bisect_look ends;
	size_t units; /* all unit values measured */
	struct bisect_entry *log;
	size_t log_nr, log_alloc;
};

void bisect_result_release(struct bisect_result *res);

/*
 * Search n >= 2 commits with ops under rule into res (zeroed by the
 * caller; release it also after a failure, its log says how far it
 * got). The ends must build; a commit whose image's hash equals one
 * measured already takes that commit's verdict unmeasured. Returns 1
 * when a measure hook said its batch is not measured yet: res holds the
 * log up to there. The search is a function of the builds and the
 * values measured, so a search run again with the batches measured so
 * far given back in order takes the same steps and asks for the next.
 */
int bisect_run(size_t n, const struct bisect_rule *rule,
	       const struct bisect_ops *ops, struct bisect_result *res,
	       struct strbuf *err);

/*
 * The decisions of bisect_run() on their own (mmcmp bisect-step), at
 * level alpha (the decision's share): the ends check of good and bad
 * into *e and *look, and the classification of commit c against them
 * into *e. Neither builds: e->hash is the caller's. 1 as the measure
 * hook gave it.
 */
int bisect_check_ends(size_t good, size_t bad, const struct bisect_rule *rule,
		      double alpha, const struct bisect_ops *ops,
		      struct bisect_entry *e, struct bisect_look *look,
		      struct strbuf *err);
int bisect_decide(size_t good, size_t c, size_t bad,
		  const struct bisect_rule *rule, double alpha,
		  const struct bisect_ops *ops, struct bisect_entry *e,
		  struct strbuf *err);

#endif /* MMCMP_BISECT_H */
