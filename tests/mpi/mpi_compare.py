#!/usr/bin/env python3
"""Same answers on 1 to N ranks: run one problem on one rank and on several decompositions and
compare the final fields (max-norm relative difference per field) and the pressure iteration
counts (every step, or the one Poisson solve); with a temperature also the convection monitors of
summary.json (Nusselt numbers, mid-plane maxima and their positions), with an LES closure its nut_max and
dissipation_sgs, each as a one-value field.

usage: mpi_compare.py MPIEXEC NAVIER SCRATCH TOL run CASE SPLITS [--set k=v ...]
       mpi_compare.py MPIEXEC NAVIER SCRATCH TOL poisson "BENCH ARGS" SPLITS
SPLITS: comma-separated triples joined by ':', e.g. 2,1,1:3,1,1:2,2,1:4,1,1 (ranks = product).
A run writes DIR/final_fields.bin ([output] dump_final = true: u, v, (w), p as doubles in global
x-fastest order, then T when the case has a temperature) and monitor.csv (monitor_every = 1); the Poisson solver alone is run through
`navier bench poisson --dump FILE --json`. Passes when every field differs by <= TOL relative and
every iteration count is equal or within one; relative to the scale of the flow (the largest |u_c|
of the 1-rank run over all components) for the velocity components, to the field's own largest
value for p, T, x and the monitors; p is measured against U^2 (U the velocity scale) instead where its
own largest value is below TOL U^2, a pressure that is only round-off (the x-independent RANS channel,
whose round-off pressures on 2 GPUs and on 1 agree in no digit)."""
import csv
import json
import os
import shutil
import struct
import subprocess
import sys

VELOCITY = ("u", "v", "w")

def launch(mpiexec, ranks, cmd):
    full = [mpiexec, "-n", str(ranks), "--oversubscribe"] + cmd
    res = subprocess.run(full, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    if res.returncode != 0:
        print(res.stdout[-3000:])
        sys.exit(f"FAIL: {' '.join(full)} exited {res.returncode}")
    return res.stdout


def doubles(path):
    data = open(path, "rb").read()
    return struct.unpack(f"<{len(data) // 8}d", data)


def run_case(mpiexec, navier, scratch, case, split, sets):
    p = [int(v) for v in split.split(",")]
    out = os.path.join(scratch, "r" + "x".join(map(str, p)))
    shutil.rmtree(out, ignore_errors=True)
    cmd = [navier, "run", case, "--output", out, "--set", "output.dump_final=true", "--set", "output.monitor_every=1",
           "--set", f"run.decomposition={split}"]
    for s in sets:
        cmd += ["--set", s]
    launch(mpiexec, p[0] * p[1] * p[2], cmd)
    summ = json.load(open(os.path.join(out, "summary.json")))
    assert summ["ranks"] == p[0] * p[1] * p[2] and summ["decomposition"] == p, summ
    ncell = summ["cells"]
    names = ["u", "v", "p"] if summ["dim"] == 2 else ["u", "v", "w", "p"]
    if "convection" in summ:  # a temperature follows the pressure
        names.append("T")
    vals = doubles(os.path.join(out, "final_fields.bin"))
    assert len(vals) == ncell * len(names), (len(vals), ncell)
    fields = {n: vals[i * ncell:(i + 1) * ncell] for i, n in enumerate(names)}
    with open(os.path.join(out, "monitor.csv")) as f:
        its = [int(r["p_iterations"]) for r in csv.DictReader(f) if int(r["step"]) > 0]
    if "convection" in summ:  # the monitors reduced over ranks, as fields of a few values
        c = summ["convection"]
        fields["monitor Nu"] = list(c["nusselt"].values())
        fields["monitor u_max, v_max"] = [c["u_max"], c["v_max"]]
        # the position of a maximum that is round-off (u on the mid-plane of a Rayleigh-Benard cell)
        # is noise: only the positions of maxima above 1e-3 of the larger one count
        big = max(abs(c["u_max"]), abs(c["v_max"]))
        fields["monitor positions"] = [c[k + "_" + x] for k, x in (("u_max", "y"), ("v_max", "x"))
                                       if abs(c[k]) > 1e-3 * big]
    if "turbulence" in summ:  # the k-omega SST model's maxima (physics/nav_turbulence.h), reduced over ranks
        t = summ["turbulence"]
        fields["monitor k_max, omega_max, nut_max"] = [t["k_max"], t["omega_max"], t["nut_max"]]
    if "les" in summ:  # an LES closure's monitors of the last step (nav_les.h), reduced over ranks
        fields["monitor les nut_max, dissipation_sgs"] = [summ["les"]["nut_max"], summ["les"]["dissipation_sgs"]]
    # the wall, bulk and flux monitors (nav_drive.h), reduced over ranks
    # (a mean that is round-off, as the bulk velocity of a closed box or the mean shear of a
    # symmetric convection cell, is noise: only values above 1e-8 count)
    for name, v in (("monitor tau_w", [w["tau_w"] for w in summ.get("walls", {}).values()]),
                    ("monitor bulk_velocity", [summ.get("bulk_velocity", 0)]),
                    ("monitor flux", list(summ.get("flux", {}).values()))):
        v = [x for x in v if abs(x) > 1e-8]
        if v:
            fields[name] = v
    return fields, its


def run_poisson(mpiexec, navier, scratch, args, split):
    p = [int(v) for v in split.split(",")]
    dump = os.path.join(scratch, "x_" + "x".join(map(str, p)) + ".bin")
    out = launch(mpiexec, p[0] * p[1] * p[2],
                 [navier, "bench", "poisson"] + args.split() + ["--decomposition", split, "--dump", dump, "--json"])
    res = json.loads([l for l in out.splitlines() if l.startswith("{")][-1])
    assert res["converged"], res
    return {"x": doubles(dump)}, [res["iterations"]]


def main():
    mpiexec, navier, scratch, tol, kind, what, splits = sys.argv[1:8]
    sets = [a.split("=", 1)[1] if a.startswith("--set=") else a for a in sys.argv[8:] if a != "--set"]
    tol = float(tol)
    os.makedirs(scratch, exist_ok=True)
    get = (lambda s: run_case(mpiexec, navier, scratch, what, s, sets)) if kind == "run" else \
        (lambda s: run_poisson(mpiexec, navier, scratch, what, s))
    ref, ref_its = get("1,1,1")
    # the velocity components against the scale of the flow, the largest |u_c| of any component: a
    # component that is only round-off (w of a flow without one) is not measured against itself
    vscale = max((abs(v) for name in VELOCITY if name in ref for v in ref[name]), default=0.0)
    print(f"1 rank (1x1x1): pressure iterations {ref_its if len(ref_its) < 12 else ref_its[:6] + ['...'] + ref_its[-3:]}"
          f", total {sum(ref_its)}" + (f"; velocity scale {vscale:.4g}" if vscale else ""))
    ok = True
    for split in splits.split(":"):
        fields, its = get(split)
        p = [int(v) for v in split.split(",")]
        rel = {}
        for name, a in ref.items():
            b = fields[name]
            scale = (vscale if name in VELOCITY else max(abs(v) for v in a)) or 1.0
            if name == "p" and vscale and scale < tol * vscale**2:
                scale = vscale**2  # a pressure that is only round-off of the dynamic scale U^2 (see the docstring)
            rel[name] = max(abs(x - y) for x, y in zip(a, b)) / scale
        worst_it = max(abs(x - y) for x, y in zip(its, ref_its)) if len(its) == len(ref_its) else 99
        good = all(r <= tol for r in rel.values()) and worst_it <= 1
        ok &= good
        print(f"{p[0] * p[1] * p[2]} ranks ({'x'.join(map(str, p))}): max rel diff "
              + ", ".join(f"{n} {r:.2e}" for n, r in rel.items())
              + f"; pressure iterations total {sum(its)} (1 rank {sum(ref_its)}), max per-step difference {worst_it}"
              + ("" if good else "  FAIL"))
    print("mpi_compare:", "passed" if ok else "FAILED", f"(tolerance {tol:g}, iterations within one)")
    sys.exit(0 if ok else 1)


main()
