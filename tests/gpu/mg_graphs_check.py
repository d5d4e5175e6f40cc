#!/usr/bin/env python3
"""The multigrid V-cycle's device levels as CUDA graphs (solvers/poisson/mg.c, nav_mg_cycle_graphed) against
the same cycle launched kernel by kernel (NAV_MG_GRAPHS=0), through `navier bench poisson` on the CUDA backend:
3D 64^3 all-Neumann and Dirichlet, 3D 48^3 periodic with mgpcg (the cycle as a preconditioner), 3D 64^3
Neumann in mixed precision, 2D 512^2 Neumann and 2D 256^2 stretched in y with point smoothing. Each graphed
solve must say that it runs graphs (and print no warning that the recording failed), the other must not, and
both must give the same iterations, relres and x bit for bit (the same launches in the same order).
Exit 77 without a GPU.
usage: mg_graphs_check.py NAVIER SCRATCH"""
import os
import subprocess
import sys

import numpy as np

import poisson_bench

navier, scratch = sys.argv[1:3]
os.makedirs(scratch, exist_ok=True)
if subprocess.run("nvidia-smi -L 2>/dev/null | grep -q '^GPU'", shell=True).returncode != 0:
    print("SKIP: no GPU visible")
    sys.exit(77)


def solve(tag, args, graphs):
    env = dict(os.environ, NAV_MG_GRAPHS="1" if graphs else "0")
    return poisson_bench.solve(navier, os.path.join(scratch, f"{tag}_{graphs}.bin"), [*args, "--backend", "cuda"], env)


cases = {"neumann3d": ["--dim", "3", "--n", "64", "--bc", "neumann", "--solver", "mg"],
         "dirichlet3d": ["--dim", "3", "--n", "64", "--bc", "dirichlet", "--solver", "mg"],
         "periodic3d_mgpcg": ["--dim", "3", "--n", "48", "--bc", "periodic", "--solver", "mgpcg"],
         "neumann3d_mixed": ["--dim", "3", "--n", "64", "--bc", "neumann", "--solver", "mg", "--precision", "mixed"],
         "neumann2d": ["--dim", "2", "--n", "512", "--bc", "neumann", "--solver", "mg"],
         "stretched2d": ["--dim", "2", "--n", "256", "--stretch", "y:2", "--smoother", "point", "--solver", "mg"]}
fails = []
for tag, args in cases.items():
    on, it1, rel1, t1, x1 = solve(tag, args, True)
    off, it0, rel0, t0, x0 = solve(tag, args, False)
    same = x1.shape == x0.shape and np.array_equal(x1, x0)
    print(f"{tag:17s} graphs {it1:3d} it relres {rel1} {1e3 * t1:8.3f} ms | kernel by kernel {it0:3d} it relres {rel0} "
          f"{1e3 * t0:8.3f} ms | x bit for bit: {same}")
    if "as CUDA graphs" not in on or "without CUDA graphs" in on:
        fails.append(f"{tag}: the graphed solve does not run graphs: {on.strip().splitlines()[0]}")
    if "as CUDA graphs" in off:
        fails.append(f"{tag}: NAV_MG_GRAPHS=0 does not turn the graphs off")
    if it1 != it0 or rel1 != rel0 or not same:
        fails.append(f"{tag}: graphed and kernel-by-kernel solves differ")
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
