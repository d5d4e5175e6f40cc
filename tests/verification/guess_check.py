#!/usr/bin/env python3
"""The extrapolated initial guess of the pressure solves ([pressure] initial_guess, solvers/nav_flow.c) against the
previous pressure as the guess, on the CPU: each run below goes twice, initial_guess = previous then extrapolated,
with a monitor row every step.

  cavity3d_mg     3D lid-driven cavity Re 1000, 32^3, mg V(2,2), tolerance 1e-8, 40 steps (fixed dt)
  cavity3d_mgpcg  the same with mgpcg
  natconv2d_mg    2D natural convection Ra 1e6, 64^2, projection with explicit diffusion, mg, tolerance 1e-8, 60
                  steps (dt from the CFL and Fourier limits: it changes from step to step, so the ratio dt^{n+1} / dt^n
                  matters)

Each extrapolated run must take at most 0.9 times the previous run's pressure iterations (summed over the steps;
measured: 0.81, 0.80, 0.78), reach the tolerance at every step (monitor.csv's p_residual <= 1e-8) and give the same
flow: the final kinetic energy within 1e-8 relative.
usage: guess_check.py NAVIER SCRATCH"""
import csv
import os
import subprocess
import sys

navier, scratch = sys.argv[1:3]
cases = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "cases")
runs = {
    "cavity3d_mg": ("cavity3d_re1000.ini", ["grid.nx=32", "grid.ny=32", "grid.nz=32", "pressure.solver=mg",
                                            "pressure.tolerance=1e-8", "time.max_steps=40"]),
    "cavity3d_mgpcg": ("cavity3d_re1000.ini", ["grid.nx=32", "grid.ny=32", "grid.nz=32", "pressure.solver=mgpcg",
                                               "pressure.tolerance=1e-8", "time.max_steps=40"]),
    "natconv2d_mg": ("natconv2d_ra1e6.ini", ["run.method=projection", "time.diffusion=explicit", "grid.nx=64",
                                             "grid.ny=64", "pressure.solver=mg", "pressure.tolerance=1e-8",
                                             "time.max_steps=60"]),
}


def run(tag, case, sets, guess):
    out = os.path.join(scratch, f"{tag}_{guess}")
    args = [navier, "run", os.path.join(cases, case)]
    for s in sets + [f"pressure.initial_guess={guess}", f"output.dir={out}", "output.monitor_every=1",
                     "output.fields_every=0", "output.fields_dt=0"]:
        args += ["--set", s]
    p = subprocess.run(args, capture_output=True, text=True, env={**os.environ, "OMP_NUM_THREADS": "2"})
    if p.returncode != 0:
        print(p.stdout + p.stderr)
        sys.exit(f"FAIL: {tag} {guess}: navier exited {p.returncode}")
    with open(os.path.join(out, "monitor.csv")) as f:
        rows = list(csv.DictReader(f))
    return (sum(int(r["p_iterations"]) for r in rows), float(rows[-1]["kinetic_energy"]),
            max(float(r["p_residual"]) for r in rows))


fails = []
for tag, (case, sets) in runs.items():
    itp, kep, resp = run(tag, case, sets, "previous")
    ite, kee, rese = run(tag, case, sets, "extrapolated")
    dke = abs(kee - kep) / abs(kep)
    print(f"{tag:15s} iterations previous {itp:4d}, extrapolated {ite:4d} ({ite / itp:.3f}); kinetic energy "
          f"{kep:.10e} / {kee:.10e} (rel. diff {dke:.1e}); largest p_residual {resp:.2e} / {rese:.2e}")
    if not ite <= 0.9 * itp:
        fails.append(f"{tag}: the extrapolated guess took {ite} iterations, more than 0.9 x {itp}")
    if not dke <= 1e-8:
        fails.append(f"{tag}: the kinetic energies differ by {dke:.2e} relative (> 1e-8)")
    if not (rese <= 1e-8 and resp <= 1e-8):
        fails.append(f"{tag}: a pressure solve stopped above the tolerance 1e-8 (largest p_residual {resp:.2e} "
                     f"previous, {rese:.2e} extrapolated)")
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
