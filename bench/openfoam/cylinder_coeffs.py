#!/usr/bin/env python3
"""Mean Cd, mean Cl, lift amplitude and Strouhal number of a cylinder's force history, with navier's
definitions (src/physics/nav_body_report.c): over the rows with t >= T_AVG (and t <= T_END), the means
trapezoidal in time, the amplitude half the range of Cl, St = D / (U T) with T the mean period between
the first and the last upward zero crossing of Cl - mean (linear interpolation between rows); D = U = 1.

usage: cylinder_coeffs.py RUN T_AVG [T_END]
  RUN: an OpenFOAM case folder (postProcessing/forceCoeffs/<start>/coefficient.dat or forceCoeffs.dat,
       columns named in its header) or a navier output folder (monitor.csv: time, cd_*, cl_* columns).
"""
import glob
import os
import sys

import numpy as np


def read_openfoam(case):
    files = sorted(glob.glob(os.path.join(case, "postProcessing", "forceCoeffs", "*", "coefficient*.dat")) +
                   glob.glob(os.path.join(case, "postProcessing", "forceCoeffs", "*", "forceCoeffs*.dat")))
    if not files:
        sys.exit("%s: no forceCoeffs output" % case)
    rows, names = [], None
    for fn in files:          # one file per (re)start time; later files continue the earlier ones
        with open(fn) as f:
            for line in f:
                if line.startswith("#"):
                    words = line[1:].split()
                    if words and words[0] == "Time":
                        names = words
                    continue
                if line.strip():
                    rows.append([float(w) for w in line.split()])
    a = np.array(rows)
    return a[:, 0], a[:, names.index("Cd")], a[:, names.index("Cl")]


def read_navier(run):
    with open(os.path.join(run, "monitor.csv")) as f:
        names = f.readline().strip().split(",")
    a = np.loadtxt(os.path.join(run, "monitor.csv"), delimiter=",", skiprows=1)
    cd = [i for i, n in enumerate(names) if n.startswith("cd_")][0]
    cl = [i for i, n in enumerate(names) if n.startswith("cl_")][0]
    return a[:, names.index("time")], a[:, cd], a[:, cl]


def stats(t, cd, cl):
    mean = lambda y: np.trapz(y, t) / (t[-1] - t[0])
    cd_mean, cl_mean = mean(cd), mean(cl)
    amp = 0.5 * (cl.max() - cl.min())
    y = cl - cl_mean
    up = np.nonzero((y[:-1] < 0) & (y[1:] >= 0))[0]
    tc = t[up] + (t[up + 1] - t[up]) * (-y[up]) / (y[up + 1] - y[up])
    st = (len(tc) - 1) / (tc[-1] - tc[0]) if len(tc) >= 2 else float("nan")
    return cd_mean, cl_mean, amp, st, len(tc)


def main():
    run, t0 = sys.argv[1], float(sys.argv[2])
    t1 = float(sys.argv[3]) if len(sys.argv) > 3 else float("inf")
    nav = os.path.exists(os.path.join(run, "monitor.csv"))
    t, cd, cl = read_navier(run) if nav else read_openfoam(run)
    keep = (t >= t0) & (t <= t1)
    if keep.sum() < 2:
        sys.exit("%s: fewer than 2 rows with %g <= t <= %g (last t %g)" % (run, t0, t1, t[-1]))
    cd_mean, cl_mean, amp, st, n = stats(t[keep], cd[keep], cl[keep])
    print("  %s, t in [%g, %g] (%d rows, %d upward crossings): Cd mean %.4f, Cl mean %.4f, "
          "Cl amplitude %.4f, St %.4f" % ("navier" if nav else "OpenFOAM", t[keep][0], t[keep][-1],
                                           keep.sum(), n, cd_mean, cl_mean, amp, st))


if __name__ == "__main__":
    main()
