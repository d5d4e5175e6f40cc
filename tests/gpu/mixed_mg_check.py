#!/usr/bin/env python3
"""The mixed-precision multigrid ([pressure] precision = mixed: float cycles inside a double iteration,
solvers/poisson/mg.c) against the double one, through `navier bench poisson`.

  gpu   (label gpu; exit 77 without a GPU) on the CUDA backend, tolerance 1e-10, zero initial guess:
        3D 64^3 all-Neumann (singular), 3D 64^3 Dirichlet, 3D 48^3 periodic, 2D 256^2 Neumann, 2D 256^2
        stretched in y (tanh, gamma 2) with point smoothing. Each mixed solve must say it runs float cycles,
        reach the tolerance (relres <= 1e-10) in at most one cycle more than the double solve, and give the
        double solve's x to 1e-8 relative (max norm). A line-smoothed level (the stretched grid with the
        auto smoother) must keep the solve in double and say why.
  cpu   (CI) on the CPU backend mixed is not offered: the solve says so, stays double and converges.
usage: mixed_mg_check.py NAVIER SCRATCH gpu|cpu"""
import os
import subprocess
import sys

import numpy as np

import poisson_bench

navier, scratch, mode = sys.argv[1:4]
os.makedirs(scratch, exist_ok=True)


def solve(tag, args, precision, backend):
    out, it, rel, _, x = poisson_bench.solve(navier, os.path.join(scratch, f"{tag}_{precision}.bin"),
                                             [*args, "--backend", backend, "--precision", precision])
    return out, it, rel, x


fails = []
if mode == "cpu":
    out, it, rel, _ = solve("cpu", ["--dim", "2", "--n", "64", "--solver", "mg"], "mixed", "cpu")
    print(out.strip().splitlines()[0])
    if "precision mixed not applied: the backend has no float cycles" not in out:
        fails.append("the CPU solve does not say that mixed precision is not applied")
    if not rel <= 1e-10:
        fails.append(f"the CPU solve did not converge: relres {rel:.2e}")
else:
    if subprocess.run("nvidia-smi -L 2>/dev/null | grep -q '^GPU'", shell=True).returncode != 0:
        print("SKIP: no GPU visible")
        sys.exit(77)
    cases = {"neumann3d": ["--dim", "3", "--n", "64", "--bc", "neumann"],
             "dirichlet3d": ["--dim", "3", "--n", "64", "--bc", "dirichlet"],
             "periodic3d": ["--dim", "3", "--n", "48", "--bc", "periodic"],
             "neumann2d": ["--dim", "2", "--n", "256", "--bc", "neumann"],
             "stretched2d": ["--dim", "2", "--n", "256", "--stretch", "y:2", "--smoother", "point"]}
    for tag, args in cases.items():
        args = args + ["--solver", "mg"]
        _, itd, reld, xd = solve(tag, args, "double", "cuda")
        out, itm, relm, xm = solve(tag, args, "mixed", "cuda")
        diff = np.abs(xm - xd).max() / np.abs(xd).max()
        print(f"{tag:12s} double {itd:3d} it relres {reld:.2e} | mixed {itm:3d} it relres {relm:.2e} | x {diff:.2e}")
        if "float cycles in a double iteration" not in out:
            fails.append(f"{tag}: the mixed solve does not run float cycles")
        if not relm <= 1e-10 or itm > itd + 1:
            fails.append(f"{tag}: mixed relres {relm:.2e} after {itm} cycles (double: {itd})")
        if not diff <= 1e-8:
            fails.append(f"{tag}: mixed x differs from double x by {diff:.2e} (> 1e-8)")
    out, _, rel, _ = solve("lines", ["--dim", "2", "--n", "256", "--stretch", "y:2", "--solver", "mg"], "mixed", "cuda")
    if "precision mixed not applied: a level is smoothed by lines" not in out:
        fails.append("the line-smoothed solve does not say that mixed precision is not applied")
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
