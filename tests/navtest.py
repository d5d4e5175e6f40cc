#!/usr/bin/env python3
"""Checks that run the navier command and assert on what it writes.

usage: navtest.py NAVIER SCRATCH CHECK [args]
  order CASE N1 N2 MIN_ORDER     run CASE on N1 and N2 cells per direction (dt and the step count
                                 scaled with h) and assert the observed order of the max velocity
                                 error, log(e1/e2)/log(N2/N1) >= MIN_ORDER
  ghia CASE TOL [--set k=v ...]  run CASE and assert ghia_max_dev_u and ghia_max_dev_v <= TOL
  div CASE BOUND [--set k=v ...] run CASE with monitor_every = 1 and assert max|div u| after every
                                 step <= BOUND * U / h_min (U = max velocity scale of the case = 1)
  vtk CASE [--set k=v ...]       run CASE writing fields every step and parse the last legacy VTK
                                 file as ParaView's reader does: header, TIME, coordinates, and
                                 the pressure/velocity/vorticity arrays (sizes, finite values)
  profile CASE [--set k=v ...]   run CASE with --profile and assert that
                                 summary.json has every phase and that they add up to the loop time
Every check prints the figures it asserts on."""
import csv
import json
import math
import os
import struct
import subprocess
import sys


def run(navier, case, outdir, sets):
    cmd = [navier, "run", case, "--output", outdir]
    for s in sets:
        cmd += [s] if s.startswith("--") else ["--set", s]
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if res.returncode != 0:
        print(res.stdout)
        sys.exit(f"FAIL: {' '.join(cmd)} exited {res.returncode}")
    with open(os.path.join(outdir, "summary.json")) as f:
        return json.load(f)


def case_value(case, section, key):
    sec = None
    with open(case) as f:
        for line in f:
            line = line.split("#")[0].strip()
            if line.startswith("["):
                sec = line.strip("[]")
            elif "=" in line and sec == section and line.split("=")[0].strip() == key:
                return line.split("=", 1)[1].strip()
    return None


def check_order(navier, scratch, case, n1, n2, min_order):
    dim = int(case_value(case, "grid", "dim"))
    dt = float(case_value(case, "time", "dt"))
    n0 = int(case_value(case, "grid", "nx"))
    errs = []
    for n in (n1, n2):
        sets = [f"grid.nx={n}", f"grid.ny={n}", f"time.dt={dt * n0 / n!r}"]
        if dim == 3:
            sets.append(f"grid.nz={n}")
        s = run(navier, case, os.path.join(scratch, f"n{n}"), sets)
        e = s["validation"]["velocity_error_max"]
        print(f"{os.path.basename(case)}: n = {n}, dt = {dt * n0 / n:.5g}, steps = {s['steps']}, "
              f"max velocity error = {e:.4e}, max|div u| = {s['max_div']:.2e}")
        errs.append(e)
    order = math.log(errs[0] / errs[1]) / math.log(n2 / n1)
    print(f"observed order {order:.3f} (required >= {min_order})")
    return order >= min_order


def check_ghia(navier, scratch, case, tol, sets):
    s = run(navier, case, os.path.join(scratch, "ghia"), sets)
    v = s["validation"]
    print(f"{s['case']}: Re = {v['re']}, {s['steps']} steps, t = {s['time']:.4g}, wall {s['wall_s']:.1f} s: "
          f"max|u - u_Ghia| = {v['ghia_max_dev_u']:.5f} ({v['points_u']} points), "
          f"max|v - v_Ghia| = {v['ghia_max_dev_v']:.5f} ({v['points_v']} points), excluded {v['excluded']} "
          f"(tolerance {tol})")
    return s["status"] == "completed" and v["ghia_max_dev_u"] <= tol and v["ghia_max_dev_v"] <= tol


def check_div(navier, scratch, case, bound, sets):
    out = os.path.join(scratch, "div")
    s = run(navier, case, out, sets + ["output.monitor_every=1"])
    h = min(float(s_l) / n for s_l, n in zip(
        [case_value(case, "grid", k) or "1" for k in ("lx", "ly", "lz")], s["grid"]) if n > 1)
    with open(os.path.join(out, "monitor.csv")) as f:
        rows = list(csv.DictReader(f))[1:]
    worst = max(float(r["max_div"]) for r in rows)
    limit = bound / h
    print(f"{s['case']}: {len(rows)} steps, largest max|div u| after a step = {worst:.3e}, "
          f"bound {bound:g} * U/h = {limit:.3e}, largest pressure residual {max(float(r['p_residual']) for r in rows):.2e}")
    return len(rows) == s["steps"] and worst <= limit


def read_vtk(path):
    """Parse a binary legacy VTK rectilinear grid: returns (dims, time, coords, arrays)."""
    data = open(path, "rb").read()
    pos = 0

    def line():
        nonlocal pos
        end = data.index(b"\n", pos)
        text = data[pos:end].decode()
        pos = end + 1
        return text

    def floats(count, fmt=">f", size=4):
        nonlocal pos
        vals = struct.unpack(f">{count}{fmt[-1]}", data[pos:pos + count * size])
        pos += count * size
        return vals

    assert line().startswith("# vtk DataFile")
    line()
    assert line() == "BINARY" and line() == "DATASET RECTILINEAR_GRID"
    assert line() == "FIELD FieldData 2" and line() == "TIME 1 1 double"
    time = floats(1, ">d", 8)[0]
    line()
    assert line() == "CYCLE 1 1 int"
    floats(1, ">i", 4)
    line()
    dims = [int(v) for v in line().split()[1:]]
    coords = []
    for axis, n in zip("XYZ", dims):
        head = line().split()
        assert head[0] == f"{axis}_COORDINATES" and int(head[1]) == n
        coords.append(floats(n))
        line()
    ncell = 1
    for n in dims:
        ncell *= max(n - 1, 1)
    head = line().split()
    assert head == ["CELL_DATA", str(ncell)]
    arrays = {}
    while pos < len(data):
        head = line().split()
        if not head:
            continue
        kind, name = head[0], head[1]
        comps = 3 if kind == "VECTORS" else 1
        if kind == "SCALARS":
            line()  # LOOKUP_TABLE
        arrays[name] = floats(ncell * comps)
    return dims, time, coords, arrays


def check_vtk(navier, scratch, case, sets):
    out = os.path.join(scratch, "vtk")
    s = run(navier, case, out, sets + ["output.fields_every=1"])
    files = sorted(f for f in os.listdir(out) if f.endswith(".vtk"))
    dims, time, coords, arrays = read_vtk(os.path.join(out, files[-1]))
    cells = 1
    for n in dims:
        cells *= max(n - 1, 1)
    finite = all(math.isfinite(v) for a in arrays.values() for v in a)
    vmax = max(abs(v) for v in arrays["velocity"])
    print(f"{s['case']}: {len(files)} files, last {files[-1]}: dimensions {dims}, TIME {time:.6g} (summary {s['time']:.6g}), "
          f"arrays {sorted(arrays)}, {cells} cells (summary {s['cells']}), max |u| {vmax:.4g}, all finite {finite}")
    return (len(files) == s["steps"] + 1 and abs(time - s["time"]) <= 1e-12 * max(1, s["time"]) and cells == s["cells"]
            and sorted(arrays) == ["pressure", "velocity", "vorticity"] and finite and 0 < vmax < 10
            and abs(coords[0][-1] - coords[0][0] - 1) < 1e-6)


def check_profile(navier, scratch, case, sets):
    out = os.path.join(scratch, "profile")
    s = run(navier, case, out, sets + ["--profile"])
    p = s["profile"]
    phases = ["predictor", "poisson", "correction", "halo", "output", "other"]
    total = sum(p[f"{k}_s"] for k in phases)
    print(f"{s['case']}: {s['steps']} steps, loop {p['loop_s']:.4f} s, phases " +
          ", ".join(f"{k} {p[k + '_s']:.4f}" for k in phases) + f", sum {total:.4f} s")
    return all(p[f"{k}_s"] >= 0 for k in phases) and abs(total - p["loop_s"]) <= 0.02 * p["loop_s"] + 1e-3 \
        and p["poisson_s"] > 0 and p["predictor_s"] > 0


def main():
    navier, scratch, check = sys.argv[1], sys.argv[2], sys.argv[3]
    args = sys.argv[4:]
    os.makedirs(scratch, exist_ok=True)
    sets = [a for a in args if "=" in a and "." in a.split("=")[0]]
    args = [a for a in args if a not in sets and a != "--set"]
    if check == "order":
        ok = check_order(navier, scratch, args[0], int(args[1]), int(args[2]), float(args[3]))
    elif check == "ghia":
        ok = check_ghia(navier, scratch, args[0], float(args[1]), sets)
    elif check == "profile":
        ok = check_profile(navier, scratch, args[0], sets)
    elif check == "vtk":
        ok = check_vtk(navier, scratch, args[0], sets)
    elif check == "div":
        ok = check_div(navier, scratch, args[0], float(args[1]), sets)
    else:
        sys.exit(f"unknown check {check}")
    print("PASS" if ok else "FAIL")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
