#!/usr/bin/env python3
"""Ghia et al. (1982) deviations of an OpenFOAM cavity run, computed as navier computes them
(src/io/nav_validation.c): max |u - u_ref| over the Ghia points of the vertical centreline x = 0.5
and max |v - v_ref| over those of the horizontal centreline y = 0.5 (lid speed 1), the points that
ghia1982_flags.csv marks SUSPECT_EXCLUDE left out. The sampled lines (postProcessing/centrelines/
<time>/{xmid,ymid}_U.xy: coordinate, Ux, Uy, Uz) are interpolated linearly at the Ghia coordinates.

usage: ghia_openfoam.py CASE_DIR RE [REFERENCE_DIR]   (prints one line)"""
import csv
import os
import sys


def line(path):
    rows = []
    with open(path) as f:
        for l in f:
            parts = l.split()
            if len(parts) >= 3:
                rows.append([float(x) for x in parts[:3]])
    return rows


def interp(rows, x, col):
    for a, b in zip(rows, rows[1:]):
        if a[0] <= x <= b[0]:
            w = (x - a[0]) / (b[0] - a[0]) if b[0] > a[0] else 0
            return (1 - w) * a[col] + w * b[col]
    raise ValueError(f"coordinate {x} outside the sampled line")


def main():
    case, re = sys.argv[1], int(float(sys.argv[2]))
    ref = sys.argv[3] if len(sys.argv) > 3 else "/work/shared/reference"
    pp = os.path.join(case, "postProcessing", "centrelines")
    last = max(os.listdir(pp), key=float)
    xmid, ymid = line(os.path.join(pp, last, "xmid_U.xy")), line(os.path.join(pp, last, "ymid_U.xy"))
    excluded = set()
    with open(os.path.join(ref, "ghia1982_flags.csv")) as f:
        for r in csv.DictReader(f):
            if r["status"] == "SUSPECT_EXCLUDE":
                excluded.add((int(r["re"]), r["profile"], float(r["coord"])))
    du = dv = 0.0
    nu = nv = 0
    with open(os.path.join(ref, "ghia1982.csv")) as f:
        for r in csv.DictReader(f):
            if int(r["re"]) != re or (re, r["profile"], float(r["coord"])) in excluded:
                continue
            x, val = float(r["coord"]), float(r["value"])
            if r["profile"] == "u_vertical_centerline":
                du, nu = max(du, abs(interp(xmid, x, 1) - val)), nu + 1
            elif r["profile"] == "v_horizontal_centerline":
                dv, nv = max(dv, abs(interp(ymid, x, 2) - val)), nv + 1
    if nu + nv == 0:
        print(f"Ghia et al. (1982): no reference points for Re = {re} in {ref}/ghia1982.csv")
        return
    print(f"Ghia et al. (1982), Re = {re}: max |u - u_ref| = {du:.4f} on x = 0.5 ({nu} points), "
          f"max |v - v_ref| = {dv:.4f} on y = 0.5 ({nv} points) (OpenFOAM, time {last})")


if __name__ == "__main__":
    main()
