/* compare-ops: mmtests' vmstat "Ops" summary of a run's monitor table. */
#include "compare.h"

#include <math.h>

#include "monitor.h"
#include "run-data.h"
#include "strbuf.h"
#include "util.h"

/*
 * mmtests' cost model constants, "values for x86-64": the cost of an
 * access, of reading and writing a page, of migrating and of failing to
 * migrate a page, of isolating one, of a PTE update and of a hint fault.
 */
#define COST_ACCESS	 (56.0 / 8)
#define COST_PAGE_RW	 (COST_ACCESS + 4096.0 / 8)
#define COST_MIGRATE	 (COST_PAGE_RW * 2)
#define COST_MIGRATE_BAD (COST_ACCESS * 2)
#define COST_ISOLATE	 (COST_ACCESS + 12)
#define COST_SCAN	 COST_ACCESS
#define COST_PTE	 COST_ACCESS
#define COST_NUMA_HINT	 5000.0

/* What several rows share, summed once per monitor table. */
struct ops_ctx {
	const struct monitor_table *mt;
	double elapsed_s;      /* the iterations' wall time; 1 when unknown */
	double kscan, dscan;   /* pages scanned by kswapd, by direct reclaim */
	double ksteal, dsteal; /* and reclaimed by them */
};

/*
 * One row of the table: its label (without "Ops ") and its formula,
 * either the sum of one counter or, when counter is NULL, fn.
 */
struct ops_row {
	const char *label;
	const char *counter;
	double (*fn)(const struct ops_ctx *c);
};

/* Counter name summed over mt's iterations; 0 when it never changed. */
static double vm(const struct monitor_table *mt, const char *name)
{
	const struct monitor_counter *c = monitor_table_get(mt, name);
	double sum = 0.0;

	for (size_t i = 0; c && i < c->nr; i++)
		sum += c->v[i];
	return sum;
}

/* The sum of the counters prefix + each suffix ("" for prefix alone). */
static double vm_zones(const struct monitor_table *mt, const char *prefix)
{
	static const char *const zones[] = {
		"",	    "_dma",  "_dma32",	 "_normal",
		"_movable", "_high", "_highmem",
	};
	struct strbuf name = STRBUF_INIT;
	double sum = 0.0;

	for (size_t z = 0; z < ARRAY_SIZE(zones); z++) {
		strbuf_reset(&name);
		strbuf_addf(&name, "%s%s", prefix, zones[z]);
		sum += vm(mt, name.buf);
	}
	strbuf_release(&name);
	return sum;
}

/* a * 100 / b, or dflt when b is 0. */
static double pct_or(double a, double b, double dflt)
{
	return b != 0.0 ? a * 100.0 / b : dflt;
}

/* Pages migrated, by compaction (compact_pages_moved before 3.8) or not. */
static double migrated(const struct monitor_table *mt)
{
	return vm(mt, "pgmigrate_success") + vm(mt, "compact_pages_moved");
}

static double minor_faults(const struct ops_ctx *c)
{
	return vm(c->mt, "pgfault") - vm(c->mt, "pgmajfault");
}

static double alloc_stalls(const struct ops_ctx *c)
{
	return vm_zones(c->mt, "allocstall");
}

static double direct_scanned(const struct ops_ctx *c)
{
	return c->dscan;
}

static double kswapd_scanned(const struct ops_ctx *c)
{
	return c->kscan;
}

static double kswapd_reclaimed(const struct ops_ctx *c)
{
	return c->ksteal;
}

static double direct_reclaimed(const struct ops_ctx *c)
{
	return c->dsteal;
}

static double kswapd_efficiency(const struct ops_ctx *c)
{
	return pct_or(c->ksteal, c->kscan, 100.0);
}

static double kswapd_velocity(const struct ops_ctx *c)
{
	return c->kscan / c->elapsed_s;
}

static double direct_efficiency(const struct ops_ctx *c)
{
	return pct_or(c->dsteal, c->dscan, 100.0);
}

static double direct_velocity(const struct ops_ctx *c)
{
	return c->dscan / c->elapsed_s;
}

static double direct_scan_pct(const struct ops_ctx *c)
{
	return pct_or(c->dscan, c->kscan + c->dscan, 0.0);
}

static double file_writes(const struct ops_ctx *c)
{
	return vm(c->mt, "nr_vmscan_write") - vm(c->mt, "pswpout");
}

static double thp_split(const struct ops_ctx *c)
{
	return vm(c->mt, "thp_split_page") + vm(c->mt, "thp_split");
}

static double compact_efficiency(const struct ops_ctx *c)
{
	return pct_or(vm(c->mt, "compact_success"), vm(c->mt, "compact_stall"),
		      NAN);
}

static double migrate_success(const struct ops_ctx *c)
{
	return migrated(c->mt);
}

static double compact_scan_efficiency(const struct ops_ctx *c)
{
	return vm(c->mt, "compact_migrate_scanned") != 0.0
		       ? pct_or(vm(c->mt, "compact_migrate_scanned"),
				vm(c->mt, "compact_free_scanned"), NAN)
		       : NAN;
}

/*
 * -1 (printed -0.00 after the division) without compact_migrate_scanned;
 * the free-scanner term reads "compact_migrate_free", as mmtests does.
 */
static double compact_cost(const struct ops_ctx *c)
{
	const struct monitor_table *mt = c->mt;
	double cost = -1.0;

	if (monitor_table_get(mt, "compact_migrate_scanned"))
		cost = COST_SCAN * vm(mt, "compact_migrate_scanned") +
		       COST_SCAN * vm(mt, "compact_migrate_free") +
		       COST_ISOLATE * vm(mt, "compact_isolated") +
		       COST_MIGRATE * migrated(mt) +
		       COST_MIGRATE_BAD * vm(mt, "pgmigrate_fail");
	return cost / 1000000;
}

static double numa_range_updates(const struct ops_ctx *c)
{
	return vm(c->mt, "numa_pte_updates") +
	       vm(c->mt, "numa_huge_pte_updates") * 512;
}

static double numa_hint_local_pct(const struct ops_ctx *c)
{
	return pct_or(vm(c->mt, "numa_hint_faults_local"),
		      vm(c->mt, "numa_hint_faults"), 100.0);
}

static double autonuma_cost(const struct ops_ctx *c)
{
	return (COST_PTE * vm(c->mt, "numa_pte_updates") +
		COST_NUMA_HINT * vm(c->mt, "numa_hint_faults") +
		COST_ISOLATE * vm(c->mt, "numa_pages_migrated")) /
	       1000000;
}

/* The rows in compare-kernels.sh's order. */
static const struct ops_row rows[] = {
	{"Minor Faults", .fn = minor_faults},
	{"Major Faults", "pgmajfault", NULL},
	{"Swap Ins", "pswpin", NULL},
	{"Swap Outs", "pswpout", NULL},
	{"Allocation stalls", .fn = alloc_stalls},
	{"Fragmentation stalls", "fragment_stall", NULL},
	{"DMA allocs", "pgalloc_dma", NULL},
	{"DMA32 allocs", "pgalloc_dma32", NULL},
	{"Normal allocs", "pgalloc_normal", NULL},
	{"Movable allocs", "pgalloc_movable", NULL},
	{"Direct pages scanned", .fn = direct_scanned},
	{"Kswapd pages scanned", .fn = kswapd_scanned},
	{"Kswapd pages reclaimed", .fn = kswapd_reclaimed},
	{"Direct pages reclaimed", .fn = direct_reclaimed},
	{"Kswapd efficiency %", .fn = kswapd_efficiency},
	{"Kswapd velocity", .fn = kswapd_velocity},
	{"Direct efficiency %", .fn = direct_efficiency},
	{"Direct velocity", .fn = direct_velocity},
	{"Percentage direct scans", .fn = direct_scan_pct},
	{"Page writes by reclaim", "nr_vmscan_write", NULL},
	{"Page writes file", .fn = file_writes},
	{"Page writes anon", "pswpout", NULL},
	{"Page reclaim immediate", "nr_vmscan_immediate_reclaim", NULL},
	{"Sector Reads", "pgpgin", NULL},
	{"Sector Writes", "pgpgout", NULL},
	{"Page rescued immediate", "pgrescued", NULL},
	{"Slabs scanned", "slabs_scanned", NULL},
	{"Direct inode steals", "pginodesteal", NULL},
	{"Kswapd inode steals", "kswapd_inodesteal", NULL},
	{"Kswapd skipped wait", "kswapd_skip_congestion_wait", NULL},
	{"THP fault alloc", "thp_fault_alloc", NULL},
	{"THP fault fallback", "thp_fault_fallback", NULL},
	{"THP collapse alloc", "thp_collapse_alloc", NULL},
	{"THP collapse fail", "thp_collapse_alloc_failed", NULL},
	{"THP split", .fn = thp_split},
	{"THP split failed", "thp_split_page_failed", NULL},
	{"Compaction stalls", "compact_stall", NULL},
	{"Compaction success", "compact_success", NULL},
	{"Compaction failures", "compact_fail", NULL},
	{"Compaction efficiency", .fn = compact_efficiency},
	{"Page migrate success", .fn = migrate_success},
	{"Page migrate failure", "pgmigrate_fail", NULL},
	{"Compaction pages isolated", "compact_isolated", NULL},
	{"Compaction migrate scanned", "compact_migrate_scanned", NULL},
	{"Compaction free scanned", "compact_free_scanned", NULL},
	{"Compact scan efficiency", .fn = compact_scan_efficiency},
	{"Compaction cost", .fn = compact_cost},
	{"Kcompactd wake", "compact_daemon_wake", NULL},
	{"Kcompactd migrate scanned", "compact_daemon_migrate_scanned", NULL},
	{"Kcompactd free scanned", "compact_daemon_free_scanned", NULL},
	{"NUMA alloc hit", "numa_hit", NULL},
	{"NUMA alloc miss", "numa_miss", NULL},
	{"NUMA interleave hit", "numa_interleave", NULL},
	{"NUMA alloc local", "numa_local", NULL},
	{"NUMA base-page range updates", .fn = numa_range_updates},
	{"NUMA PTE updates", "numa_pte_updates", NULL},
	{"NUMA PMD updates", "numa_huge_pte_updates", NULL},
	{"NUMA hint faults", "numa_hint_faults", NULL},
	/* mmtests prints the count under this name. */
	{"NUMA hint local faults %", "numa_hint_faults_local", NULL},
	{"NUMA hint local percent", .fn = numa_hint_local_pct},
	{"NUMA pages migrated", "numa_pages_migrated", NULL},
	{"AutoNUMA cost", .fn = autonuma_cost},
};

_Static_assert(ARRAY_SIZE(rows) == COMPARE_VMSTAT_NR, "one row per Ops line");

const char *compare_vmstat_label(size_t row)
{
	if (row < COMPARE_VMSTAT_NR)
		return rows[row].label;
	BUG("no vmstat row %zu", row);
}

/*
 * mmtests' MonitorMmtestsvmstat, from the counters' changes summed over
 * the iterations rather than one before/after pair. Where it differs from
 * a plain reading of the counters, it is on purpose, to print what
 * mmtests prints:
 *  - a counter that never changed reads 0, and the compaction cost is -1
 *    (printed -0.00 after the division) when compact_migrate_scanned
 *    never changed, as mmtests does for a kernel without the counter;
 *  - the compaction cost's free-scanner term reads "compact_migrate_free",
 *    which no kernel has, so it counts nothing;
 *  - "NUMA hint local faults %" is the count numa_hint_faults_local;
 *  - efficiencies of nothing scanned are 100, of compaction that never
 *    stalled or scanned undefined.
 * Unlike mmtests, the per-zone allocstall_* counters are summed rather
 * than the last one read winning.
 */
void compare_vmstat_summary(const struct monitor_table *mt, double *out)
{
	struct ops_ctx c = {
		.mt = mt,
		.elapsed_s = mt->elapsed_s > 0 ? mt->elapsed_s : 1.0,
		.kscan = vm_zones(mt, "pgscan_kswapd"),
		.dscan = vm_zones(mt, "pgscan_direct"),
		.ksteal =
			vm(mt, "kswapd_steal") + vm_zones(mt, "pgsteal_kswapd"),
		.dsteal = vm_zones(mt, "pgsteal") +
			  vm_zones(mt, "pgsteal_direct"),
	};

	/* Kernels before 3.8 counted kswapd's steals in pgsteal_* too. */
	if (monitor_table_get(mt, "kswapd_steal"))
		c.dsteal -= c.ksteal;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++)
		out[i] = rows[i].counter ? vm(mt, rows[i].counter)
					 : rows[i].fn(&c);
}

const char *compare_monitors_nth(size_t i)
{
	static const char *const names[] = {
		[COMPARE_MONITORS_OFF] = "off",
		[COMPARE_MONITORS_MEAN] = "mean",
		[COMPARE_MONITORS_ALL] = "all",
	};

	return i < ARRAY_SIZE(names) ? names[i] : NULL;
}

/* A counter row is never NaN for a run with monitor data. */
bool compare_vmstat_present(const struct compare_result *res,
			    const struct compare_bench *b, size_t i)
{
	if (!b->vmstat)
		return false;
	for (size_t r = 0; r < COMPARE_VMSTAT_NR; r++)
		if (!isnan(b->vmstat[r * res->runs_nr + i]))
			return true;
	return false;
}

char *compare_vmstat_note(const struct compare_result *res,
			  const struct compare_bench *b,
			  const struct run_data *runs)
{
	struct strbuf sb = STRBUF_INIT, names = STRBUF_INIT;
	size_t named = 0;

	if (b->monitor || !b->vmstat)
		return NULL;
	for (size_t i = 0; i < res->runs_nr; i++) {
		if (compare_vmstat_present(res, b, i))
			continue;
		/*
		 * Without any monitor data and without the option, only runs
		 * that mmcmp ran (they have a config text) are worth a word:
		 * CSV imports never have monitors.
		 */
		if (!b->has_vmstat &&
		    res->opts.monitors == COMPARE_MONITORS_OFF &&
		    !(runs[i].info.config_text && *runs[i].info.config_text))
			continue;
		strbuf_addf(&names, "%s'%s'", named++ ? ", " : "",
			    res->labels[i]);
	}
	if (!named) {
		strbuf_release(&names);
		return NULL;
	}
	strbuf_addf(&sb, "no monitor records for %s", names.buf);
	strbuf_release(&names);
	if (b->has_vmstat)
		strbuf_addf(&sb, ": %s Ops column reads -",
			    named == 1 ? "its" : "their");
	else if (res->opts.monitors != COMPARE_MONITORS_OFF)
		strbuf_addstr(&sb, ": no Ops table and no counter table");
	else
		strbuf_addstr(&sb, ": no Ops table");
	return strbuf_detach(&sb, NULL);
}

bool compare_busy_note(const char *label, const struct monitor_table *mt,
		       struct strbuf *out)
{
	size_t busy = 0, known = 0;
	double worst = 0.0;

	for (size_t i = 0; mt && mt->other_cpu && i < mt->iterations; i++) {
		double v = mt->other_cpu[i];

		if (isnan(v))
			continue;
		known++;
		if (v > MONITOR_BUSY_FRACTION)
			busy++;
		if (v > worst)
			worst = v;
	}
	if (!busy)
		return false;
	strbuf_addf(out,
		    "label %s: other processes used up to %.0f%% of the "
		    "machine during %zu of %zu iterations",
		    label, worst * 100.0, busy, known);
	return true;
}
