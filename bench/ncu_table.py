#!/usr/bin/env python3
"""One line per kernel launch of an `ncu --csv --print-units base --metrics ...` file: the kernel's name and grid,
then each of these metrics that the file has: time (us), DRAM and SM throughput (% of peak), DRAM bytes (MB), warp
instructions (M). Used by bench/gpu_ab.sh and bench/gpu_wavefront.sh.

usage: ncu_table.py FILE [--prefix TEXT] [--first N]"""
import argparse
import collections
import csv

FORMATS = (  # metric, format of its value
    ("gpu__time_duration.sum", lambda v: "%7.1f us" % (v / 1e3)),
    ("dram__throughput.avg.pct_of_peak_sustained_elapsed", lambda v: "dram %4.1f%%" % v),
    ("sm__throughput.avg.pct_of_peak_sustained_elapsed", lambda v: "sm %4.1f%%" % v),
    ("dram__bytes.sum", lambda v: "%7.1f MB" % (v / 1e6)),
    ("smsp__inst_executed.sum", lambda v: "%6.2f Minst" % (v / 1e6)),
)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--prefix", default="")
    ap.add_argument("--first", type=int, default=0, help="only the first N launches (0: all)")
    a = ap.parse_args()
    rows = list(csv.reader(line for line in open(a.file) if line.startswith('"')))
    if not rows:
        print(a.prefix + "no ncu rows in " + a.file)
        return
    head, rows = rows[0], rows[1:]
    ii, ik, ig, im, iv = (head.index(c) for c in ("ID", "Kernel Name", "Grid Size", "Metric Name", "Metric Value"))
    launches = collections.OrderedDict()
    for r in rows:
        launches.setdefault((r[ii], r[ik].split("(")[0][5:48], r[ig]), {})[r[im]] = float(r[iv].replace(",", ""))
    items = list(launches.items())
    for (_, name, grid), m in items[: a.first] if a.first else items:
        print("%s%-44s %-14s %s" % (a.prefix, name, grid, " ".join(f(m[k]) for k, f in FORMATS if k in m)))


if __name__ == "__main__":
    main()
