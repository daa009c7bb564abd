#ifndef MMCMP_COMPARE_PROVENANCE_H
#define MMCMP_COMPARE_PROVENANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "strvec.h"

struct run_data;

/*
 * compare-provenance: what went into a comparison and whether it is like
 * for like, as data for the renderers (the block they print before the
 * tables in every mode but mmtests').
 *
 * compare_runs() fills the compare_result's provenance with
 * compare_provenance_new() from the runs' sources (run-data.h's struct
 * run_source, filled by pool_load()); data that does not come from
 * the store (CSV imports, tests) has none, and then no block. Nothing here
 * fails. Everything is owned by the struct; compare_provenance_free()
 * frees it. What a label shows: struct compare_prov_label; the warnings
 * and notes: struct compare_provenance.
 */

/*
 * One label of the comparison: the runs pooled, the measured iterations
 * and the samples used (after the pooling rules), the kernel release and
 * host of its first run, the config names of all its runs and, for runs
 * from `kernels:`, the guest's release and command line and the image of
 * its first boot that answered.
 */
struct compare_prov_label {
	size_t runs;	    /* runs pooled */
	int64_t iterations; /* measured iterations used */
	size_t samples;	    /* samples used, over all operations */
	/* Of its first run; NULL where unknown. */
	char *kernel_release, *host;
	/* The distinct config names of its runs, in run order, ", " apart. */
	char *config_name;
	/* Runs from kernels: the guest of the first boot that answered. */
	bool vm;
	size_t boots;
	char *guest_release, *guest_cmdline, *image, *image_sha256;
};

/*
 * The provenance of a comparison: its labels (struct compare_prov_label)
 * and the lines under them.
 *
 * The warnings: one line per fact on which the labels differ, each
 * label named by its first run, in the style of machine differences:
 *   "thp_enabled: 'always' in base, 'never' in patched"
 * over the config hash ("config_sha256"), the effective parameters
 * ("params": "WORKLOAD.NAME=V1,V2 ..."), iterations, warm-ups and the
 * precision rule of `until` (the stored effective setup), the settings
 * the run wrote ("settings": "PATH=NEW ..." or "none"), every machine
 * fact of machine_fields[] but the kernel's release and version (which
 * comparisons are about), and for runs from `kernels:` the guest's facts
 * ("guest thp_enabled: ..."). Values unknown to a run are skipped, as
 * machine differences do. Then one line per fact on which the runs
 * pooled into one label differ (the kernel and the config's name
 * included, "config_name within base: 'a' in run 3, 'b' in run 7"):
 *   "thp_enabled within base: 'always' in run 3, 'never' in run 7"
 * and one per group of labels whose runs from `kernels:` booted the same
 * image (SHA-256) with the same command line:
 *   "base and patched booted the same image (sha256 1a2b3c4d5e6f) with
 *   the same command line"
 *
 * The notes: one per group of labels whose first runs, recorded by
 * separate mmcmp processes, ran the same kernel (release, version and
 * config hash) on the same host, the "forgot to reboot" case:
 *   "base and patched ran the same kernel (6.1.0-18-amd64, one version
 *   and config): was the machine rebooted into the kernel under test?"
 */
struct compare_provenance {
	struct compare_prov_label *labels; /* one per label, baseline first */
	size_t labels_nr;
	bool has_vm; /* some label ran from kernels: */
	struct strvec warnings, notes;
};

/*
 * The provenance of runs[0..nr), labelled labels[0..nr), or NULL when no
 * run has sources (not from the store). The caller frees the result with
 * compare_provenance_free().
 */
struct compare_provenance *compare_provenance_new(const struct run_data *runs,
						  char *const *labels,
						  size_t nr);

/* Free p and everything it owns; NULL is a no-op. */
void compare_provenance_free(struct compare_provenance *p);

/* The first 12 hex digits of a SHA-256, as the block shows them. */
#define COMPARE_PROV_SHA_SHORT 12

#endif /* MMCMP_COMPARE_PROVENANCE_H */
