#!/usr/bin/env python3
"""Write the mmtests result trees of this directory (run it here).

The samples are those of ../../mmtests/wis-improve.csv and
../../mmtests/trunc-regress.csv, for which mmtests' compare scripts printed
the tables ../../mmtests/*.txt: each label becomes work/log/LABEL with two
iterations (iter-0, iter-1), the first five samples of every operation in
iter-0 and the next five in iter-1, written in the files and formats
run-mmtests.sh and the shellpacks write. Each run's Duration totals (the
.full.txt reports) are split over the two iterations' "time ::" lines, and
the wis runs' vmstat changes over their tests-sysstate snapshots (the same
split as tests/test-compare.c's vmstat report uses).
"""
import csv
import gzip
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "mmtests")
T0 = 1717236000  # 2024-06-01T10:00:00Z


def samples(name):
    ops = {}
    with open(os.path.join(DATA, name)) as f:
        for row in csv.DictReader(f):
            ops.setdefault(row["label"], {}).setdefault(
                row["operation"], []).append(row["value"])
    return ops


def write(path, text, gz=False):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if gz:
        with open(path + ".gz", "wb") as raw:
            with gzip.GzipFile(filename="", mode="wb", fileobj=raw,
                               mtime=0) as f:
                f.write(text.encode())
    else:
        with open(path, "w") as f:
            f.write(text)


def timestamp(bench, it, times):
    start = T0 + 1000 * it
    return (f"start :: {start}\n"
            f"test begin :: {bench} {start + 5}\n"
            f"test end :: {bench} {start + 5 + int(float(times[2]))}\n"
            f"time :: {bench} {times[0]} user {times[1]} system "
            f"{times[2]} elapsed\n"
            f"finish :: {start + 10 + int(float(times[2]))}\n")


def vmstat(values):
    return "".join(f"{k} {v}\n" for k, v in values)


def machine(run, label, gz_lscpu):
    write(os.path.join(run, "kernel.version"),
          f"Linux testhost 6.9.0-{label.split('-', 1)[1]} #1 SMP "
          "PREEMPT_DYNAMIC Sat Jun  1 09:00:00 UTC 2024 x86_64 x86_64 "
          "x86_64 GNU/Linux\n")
    write(os.path.join(run, "lscpu.txt"),
          "Architecture:            x86_64\n"
          "CPU(s):                  16\n"
          "Model name:              Example CPU 9000 @ 3.00GHz\n"
          "NUMA node(s):            1\n", gz=gz_lscpu)
    write(os.path.join(run, "dmesg"),
          "[    0.000000] Linux version 6.9.0 (build@host)\n"
          "[    0.000000] Command line: BOOT_IMAGE=/boot/vmlinuz-6.9.0 "
          "root=/dev/sda1 ro quiet\n", gz=True)


# Duration totals of the .full.txt reports, per iteration.
WIS_TIMES = {
    "6.9-vanilla": [("15.06", "206.25", "80.17"), ("15.06", "206.25", "80.16")],
    "6.9-patched": [("15.70", "185.05", "80.15"), ("15.70", "185.05", "80.14")],
}
TRUNC_TIMES = {
    "6.9-vanilla": [("1.51", "30.75", "37.67"), ("1.51", "30.75", "37.66")],
    "6.9-patched": [("1.52", "32.90", "39.95"), ("1.53", "32.90", "39.95")],
}
# Per run and iteration: the changes of pgfault, pgmajfault,
# pgalloc_normal, numa_hit and numa_local (tests/test-compare.c).
WIS_VMSTAT = {
    "6.9-vanilla": [(100000000, 12, 100000000, 151000000, 150000000),
                    (50000000, 0, 51000000, 0, 1000000)],
    "6.9-patched": [(100000000, 4, 166100000, 166100000, 100000000),
                    (65000000, 5, 0, 0, 66100000)],
}
VMSTAT_NAMES = ("pgfault", "pgmajfault", "pgalloc_normal", "numa_hit",
                "numa_local")


def wis_tree():
    root = os.path.join(HERE, "wis", "work", "log")
    shutil.rmtree(os.path.join(HERE, "wis"), ignore_errors=True)
    for label, ops in samples("wis-improve.csv").items():
        for it in range(2):
            run = os.path.join(root, label, f"iter-{it}")
            logs = os.path.join(run, "wis-pf", "logs")
            write(os.path.join(logs, "workloads"), "page_fault1\n")
            write(os.path.join(logs, "models"), "threads\n")
            for op, values in ops.items():
                nthr = int(op.rsplit("-", 1)[1])
                lines = ["measurement\n"]
                for v in values[5 * it:5 * it + 5]:
                    per = int(v) // nthr
                    lines.append(f"min:{per - 1000} max:{per + 1000} "
                                 f"total:{v}\n")
                total = sum(int(v) for v in values[5 * it:5 * it + 5])
                lines.append(f"average:{total // 5}\n")
                write(os.path.join(logs, "benchlog-page_fault1_threads-"
                                   f"{nthr}"), "".join(lines))
            times = WIS_TIMES[label][it]
            ts = timestamp("wis-pf", it, times)
            write(os.path.join(run, "tests-timestamp"), ts)
            before = [5000000 + 1000 * k for k in range(5)]
            after = [b + d for b, d in zip(before, WIS_VMSTAT[label][it])]
            start = (("nr_free_pages", 3000000),) + tuple(
                zip(VMSTAT_NAMES, before)) + (("pswpin", 7), ("pswpout", 9))
            end = (("nr_free_pages", 2999000),) + tuple(
                zip(VMSTAT_NAMES, after)) + (("pswpin", 7), ("pswpout", 9))
            lines = ts.splitlines(keepends=True)
            sysstate = (lines[0] + "version :: v0.25\narch :: x86_64\n"
                        + lines[1]
                        + "file start :: /proc/vmstat\n" + vmstat(start)
                        + "file start :: /proc/zoneinfo\n"
                        + "Node 0, zone   Normal\n  pages free     3000000\n"
                        + "file start :: /proc/meminfo\n"
                        + "MemTotal:       16314812 kB\n"
                        + "MemFree:        12000000 kB\n"
                        + "file end :: /proc/vmstat\n" + vmstat(end)
                        + "file end :: /proc/zoneinfo\n"
                        + "Node 0, zone   Normal\n  pages free     2999000\n"
                        + "".join(lines[2:]))
            write(os.path.join(run, "tests-sysstate"), sysstate, gz=True)
            machine(run, label, gz_lscpu=True)


def trunc_tree():
    root = os.path.join(HERE, "trunc", "work", "log")
    shutil.rmtree(os.path.join(HERE, "trunc"), ignore_errors=True)
    for label, ops in samples("trunc-regress.csv").items():
        for it in range(2):
            run = os.path.join(root, label, f"iter-{it}")
            logs = os.path.join(run, "trunc", "logs")
            for phase in ("fault", "trunc"):
                for k in range(5):
                    i = 5 * it + k
                    user = ops[f"User-{phase}"][i]
                    syst = ops[f"System-{phase}"][i]
                    elsp = ops[f"Elapsed-{phase}"][i]
                    sec, frac = elsp.split(".")
                    write(os.path.join(logs, f"time-{phase}-{k + 1}"),
                          f"{user}user {syst}system 0:{int(sec):02d}.{frac}"
                          "elapsed 97%CPU (0avgtext+0avgdata "
                          "1920maxresident)k\n0inputs+0outputs "
                          "(0major+95minor)pagefaults 0swaps\n")
            write(os.path.join(run, "tests-timestamp"),
                  timestamp("trunc", it, TRUNC_TIMES[label][it]))
            machine(run, label, gz_lscpu=False)


wis_tree()
trunc_tree()


def expected():
    """The tables mmtests printed for these samples, cut to what mmcmp
    prints: the comparison table (compare-mmtests.pl -b BENCH), the ratio
    table (--print-ratio) and compare-kernels.sh's report up to the end of
    the vmstat Ops table, or of the Duration table for trunc, whose report
    titles its sub-tables in a way mmcmp does not."""
    out = os.path.join(HERE, "expected")
    os.makedirs(out, exist_ok=True)
    for name, case in (("wis", "wis-improve"), ("trunc", "trunc-regress")):
        for ext in ("txt", "ratio.txt"):
            shutil.copyfile(os.path.join(DATA, f"{case}.{ext}"),
                            os.path.join(out, f"{name}.{ext}"))
        with open(os.path.join(DATA, f"{case}.full.txt")) as f:
            lines = f.readlines()
        if name == "wis":
            end = next(i for i, l in enumerate(lines)
                       if l.startswith("Ops AutoNUMA cost"))
            text = "".join(lines[:end + 1])
        else:
            end = next(i for i, l in enumerate(lines)
                       if l.startswith("Duration Elapsed"))
            text = "".join(lines[end - 5:end + 1])
        with open(os.path.join(out, f"{name}.full.txt"), "w") as f:
            f.write(text)


expected()
