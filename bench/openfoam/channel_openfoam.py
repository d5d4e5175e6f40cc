#!/usr/bin/env python3
"""Plane-channel helpers for the OpenFOAM comparisons (run_channel395.sh, run_channel180.sh).

  profile FOAM_CASE TIME NU OUT.csv   UMean of TIME averaged over the x-z planes (cell centres from the C
                                      field of `postProcess -func writeCellCentres`), both walls folded, in
                                      wall units as navier's statistics.csv (y, y_plus, U_plus): u_tau from the
                                      mean of the two walls' nu U_1 / y_1 (first cell centre at distance y_1),
                                      as src/physics/statistics/nav_statistics_report.c; prints u_tau, Re_tau
  compare REF.csv CSV [LABEL]         U+ of CSV (y_plus, U_plus: navier's statistics.csv or `profile`'s) against
                                      the reference U+ linearly interpolated in y+, at every folded point (all
                                      lie below the centre) up to the reference's centre y+: max |U+ - U+_ref| /
                                      U+_ref in % and where, and the same over y+ <= 100
  mesh180 FOAM_CASE NX NY NZ LX LY LZ GAMMA
                                      system/blockMeshDict of one block with navier's tanh spacing in y
                                      (src/grid/nav_spacing.c, y_cluster both) written exactly as a multi-grading
                                      of NY one-cell sections, uniform x and z; cyclic x and z, walls in y
  init180 FOAM_CASE NX NY NZ LX LY LZ GAMMA NU UB
                                      0/U: Reichardt's log-law mean scaled to the bulk velocity UB plus
                                      divergence-free streamwise vortices (max |u'| about 0.3 UB), at the cell
                                      centres of that grid (blockMesh order: x fastest, then y, then z)
"""
import csv
import math
import os
import sys

import numpy as np


def read_internal(path, ncomp):
    """internalField of an ASCII OpenFOAM volField: array (n, ncomp) or (n,)."""
    with open(path) as f:
        lines = f.read().split("\n")
    i = next(k for k, l in enumerate(lines) if l.startswith("internalField"))
    n = int(lines[i + 1])
    rows = lines[i + 3:i + 3 + n]
    a = np.array([r.strip("()").split() for r in rows], float)
    return a.reshape(n, ncomp) if ncomp > 1 else a.reshape(n)


def fold_profile(case, time, nu):
    c = read_internal(os.path.join(case, time, "C"), 3)
    u = read_internal(os.path.join(case, time, "UMean"), 3)[:, 0]
    ys = np.round(c[:, 1], 9)
    planes = np.unique(ys)
    mean = np.array([u[ys == y].mean() for y in planes])
    h = 0.5 * (planes[0] + planes[-1])  # the half-height: the grid is symmetric about the centre
    half = len(planes) // 2
    ywall = planes[:half]  # distance from the bottom wall (y = 0)
    lo, hi = mean[:half], mean[::-1][:half]
    tau = 0.5 * (nu * lo[0] / ywall[0] + nu * hi[0] / (2 * h - planes[-1]))
    u_tau = math.sqrt(tau)
    folded = 0.5 * (lo + hi)
    return ywall, folded, u_tau, h


def profile(case, time, nu, out):
    y, um, u_tau, h = fold_profile(case, time, float(nu))
    nu = float(nu)
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["y", "y_plus", "U_plus"])
        for yy, uu in zip(y, um):
            w.writerow(["%.10e" % yy, "%.10e" % (yy * u_tau / nu), "%.10e" % (uu / u_tau)])
    print("OpenFOAM UMean at t = %s: u_tau %.6f, Re_tau %.2f, U_c+ %.4f (%d planes folded); %s"
          % (time, u_tau, u_tau * h / nu, um[-1] / u_tau, len(y), out))


def read_csv(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return np.array([float(r["y_plus"]) for r in rows]), np.array([float(r["U_plus"]) for r in rows])


def compare(ref, path, label=""):
    yr, ur = read_csv(ref)
    yp, up = read_csv(path)
    top = yr.max()  # every folded point lies below the centre; none beyond the reference's centre is compared
    out = []
    for lim in (top, 100.0):
        sel = (yp > 0) & (yp <= lim)
        dev = (up[sel] - np.interp(yp[sel], yr, ur)) / np.interp(yp[sel], yr, ur)
        k = int(np.argmax(np.abs(dev)))
        out.append((100 * abs(dev[k]), yp[sel][k], 100 * dev[k], int(sel.sum())))
    (m, at, s, n), (m100, at100, s100, _) = out
    print("%s U+ against %s: max |dev| %.2f %% (%+.2f %% at y+ %.1f) over %d points up to y+ %.1f; "
          "y+ <= 100: %.2f %% (%+.2f %% at y+ %.1f)"
          % (label or path, os.path.basename(ref), m, s, at, n, top, m100, s100, at100))


def tanh_faces(n, length, gamma):
    s = np.arange(n + 1) / n
    f = 0.5 * length * (1 + np.tanh(gamma * (2 * s - 1)) / math.tanh(gamma))
    f[0], f[-1] = 0.0, length
    return f


def mesh180(case, nx, ny, nz, lx, ly, lz, gamma):
    nx, ny, nz = int(nx), int(ny), int(nz)
    lx, ly, lz, gamma = float(lx), float(ly), float(lz), float(gamma)
    w = np.diff(tanh_faces(ny, ly, gamma))
    grading = " ".join("(%.17g 1 1)" % (x / ly) for x in w)
    v = [(0, 0, 0), (lx, 0, 0), (lx, ly, 0), (0, ly, 0), (0, 0, lz), (lx, 0, lz), (lx, ly, lz), (0, ly, lz)]
    verts = "\n".join("    (%.17g %.17g %.17g)" % p for p in v)
    patch = "    %s { type %s; %sfaces ((%s)); }"
    bnd = "\n".join([
        patch % ("bottomWall", "wall", "", "0 1 5 4"),
        patch % ("topWall", "wall", "", "3 7 6 2"),
        patch % ("inlet", "cyclic", "neighbourPatch outlet; ", "0 4 7 3"),
        patch % ("outlet", "cyclic", "neighbourPatch inlet; ", "1 2 6 5"),
        patch % ("front", "cyclic", "neighbourPatch back; ", "0 3 2 1"),
        patch % ("back", "cyclic", "neighbourPatch front; ", "4 5 6 7"),
    ])
    with open(os.path.join(case, "system", "blockMeshDict"), "w") as f:
        f.write("FoamFile { version 2.0; format ascii; class dictionary; object blockMeshDict; }\n"
                "scale 1;\nvertices\n(\n%s\n);\n"
                "blocks\n(\n    hex (0 1 2 3 4 5 6 7) (%d %d %d) simpleGrading (1 (%s) 1)\n);\n"
                "edges ();\nboundary\n(\n%s\n);\nmergePatchPairs ();\n"
                % (verts, nx, ny, nz, grading, bnd))


def init180(case, nx, ny, nz, lx, ly, lz, gamma, nu, ub):
    nx, ny, nz = int(nx), int(ny), int(nz)
    lx, ly, lz, gamma, nu, ub = map(float, (lx, ly, lz, gamma, nu, ub))
    fy = tanh_faces(ny, ly, gamma)
    yc = 0.5 * (fy[1:] + fy[:-1])
    h = 0.5 * ly
    # Reichardt's law at the Dean estimate of Re_tau, scaled to the bulk velocity
    re_b = ub * 2 * h / nu
    re_tau = 0.09 * re_b ** 0.88
    yp = np.minimum(yc, ly - yc) * re_tau / h
    up = np.log(1 + 0.4 * yp) / 0.41 + 7.8 * (1 - np.exp(-yp / 11) - yp / 11 * np.exp(-yp / 3))
    mean = up * ub / np.sum(up * np.diff(fy) / ly)
    # streamwise vortices psi(y, z) = A (1 - eta^2)^2 sin(kz z) sin(kx x) varied in x: u' = (0, dpsi/dz, -dpsi/dy)
    x = (np.arange(nx) + 0.5) * lx / nx
    z = (np.arange(nz) + 0.5) * lz / nz
    eta = (yc - h) / h
    kx, kz = 2 * math.pi / lx, 2 * math.pi * 3 / lz
    g = (1 - eta ** 2) ** 2
    dg = -4 * eta * (1 - eta ** 2) / h
    amp = 0.3 * ub / max(kz * g.max(), np.abs(dg).max())
    X, Y, Z = np.meshgrid(x, np.arange(ny), z, indexing="ij")  # (nx, ny, nz)
    sx = 1 + 0.5 * np.sin(kx * X)
    v = amp * g[Y] * kz * np.cos(kz * Z) * sx
    w = -amp * dg[Y] * np.sin(kz * Z) * sx
    u = mean[Y] + 0 * X
    # blockMesh order: x fastest, then y, then z
    field = np.stack([a.transpose(2, 1, 0).reshape(-1) for a in (u, v, w)], axis=1)
    with open(os.path.join(case, "0", "U"), "w") as f:
        f.write("FoamFile { version 2.0; format ascii; class volVectorField; object U; }\n"
                "dimensions [0 1 -1 0 0 0 0];\ninternalField nonuniform List<vector>\n%d\n(\n" % len(field))
        np.savetxt(f, field, fmt="(%.8e %.8e %.8e)")
        f.write(");\nboundaryField\n{\n    bottomWall { type noSlip; }\n    topWall { type noSlip; }\n"
                "    \"(inlet|outlet|front|back)\" { type cyclic; }\n}\n")


if __name__ == "__main__":
    cmds = {"profile": profile, "compare": compare, "mesh180": mesh180, "init180": init180}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        sys.exit(__doc__)
    cmds[sys.argv[1]](*sys.argv[2:])
