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
  devahldavis CASE [--set k=v ...]  run a differentially heated cavity to steady state and assert
                                 against data/devahldavis1983.csv (at the case's Ra): the Nusselt
                                 number of the hot and of the cold wall within 1 %, u_max and v_max
                                 within 2 %, their positions within one cell
  torder CASE N1 N2 ... LO HI    run CASE (an analytic temperature) on N1, N2, ... cells per
                                 direction (dt scaled with h) and assert the observed order of the
                                 max temperature error between consecutive grids is in [LO, HI]
  conduction CASE [--set k=v ...]  run a pure conduction case (zero gravity, fixed temperature on
                                 x_low, fixed or flux on x_high, adiabatic elsewhere) and assert that
                                 the final temperature is the linear profile to round-off (1e-12)
                                 and the velocity stays 0
  onset CASE RA1 RA2 T1 T2       run the Rayleigh-Benard CASE at Ra = RA1 and RA2 to time T2, fit
                                 the growth rate of the kinetic energy (monitor.csv) over [T1, T2]
                                 and assert it is negative at RA1 and positive at RA2
  steady CASE TOL [--set k=v ...]  run CASE to steady_tol (given in the sets) with method =
                                 artificial_compressibility and with method = projection and assert
                                 that the steady states agree: max|x_ac - x_proj| <= TOL max|x_proj|
                                 for u, v, (w), T and the pressure minus its mean; and that the
                                 artificial-compressibility residual (monitor.csv, every
                                 monitor_every iterations) decreases at every row after the start-up
                                 (the rows before it first falls below 1e-2 of its first value)
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


def case_value(case, section, key, sets=()):
    for s in sets:
        if s.split("=", 1)[0].strip() == f"{section}.{key}":
            return s.split("=", 1)[1].strip()
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


def devahldavis_reference(ra):
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "devahldavis1983.csv")
    ref = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            if float(r["ra"]) == ra:
                ref[r["quantity"]] = (float(r["value"]), float(r["coord_value"]) if r["coord_value"] else None)
    return ref


def check_devahldavis(navier, scratch, case, sets):
    s = run(navier, case, os.path.join(scratch, "dvd"), sets)
    c = s["convection"]
    ref = devahldavis_reference(c["ra"])
    nu_ref, (u_ref, y_ref), (v_ref, x_ref) = ref["Nu_avg"][0], ref["u_max"], ref["v_max"]
    hx, hy = 1.0 / s["grid"][0], 1.0 / s["grid"][1]
    dev_nu = {w: abs(v - nu_ref) / nu_ref for w, v in c["nusselt"].items()}
    dev_u, dev_v = abs(c["u_max"] - u_ref) / u_ref, abs(c["v_max"] - v_ref) / v_ref
    dy, dx = abs(c["u_max_y"] - y_ref), abs(c["v_max_x"] - x_ref)
    print(f"{s['case']}: Ra = {c['ra']:g}, Pr = {c['pr']:g}, grid {s['grid'][0]}x{s['grid'][1]}, {s['steps']} steps, "
          f"t = {s['time']:.4g}, wall {s['wall_s']:.1f} s, {s['message'] or s['status']}")
    for w, v in c["nusselt"].items():
        print(f"  Nu {w}: {v:.5f} (de Vahl Davis {nu_ref}), deviation {100 * dev_nu[w]:.3f} % (tolerance 1 %)")
    print(f"  u_max {c['u_max']:.4f} at y = {c['u_max_y']:.4f} (ref {u_ref} at {y_ref}): deviation {100 * dev_u:.3f} % "
          f"(tolerance 2 %), position off by {dy:.4f} (one cell {hy:.4f})")
    print(f"  v_max {c['v_max']:.4f} at x = {c['v_max_x']:.4f} (ref {v_ref} at {x_ref}): deviation {100 * dev_v:.3f} % "
          f"(tolerance 2 %), position off by {dx:.4f} (one cell {hx:.4f})")
    return (s["status"] == "completed" and len(dev_nu) == 2 and all(d <= 0.01 for d in dev_nu.values())
            and dev_u <= 0.02 and dev_v <= 0.02 and dy <= hy and dx <= hx)


def check_torder(navier, scratch, case, ns, lo, hi):
    dt = float(case_value(case, "time", "dt"))
    n0 = int(case_value(case, "grid", "nx"))
    dim = int(case_value(case, "grid", "dim"))
    errs = []
    for n in ns:
        sets = [f"grid.nx={n}", f"grid.ny={n}", f"time.dt={dt * n0 / n!r}"] + ([f"grid.nz={n}"] if dim == 3 else [])
        s = run(navier, case, os.path.join(scratch, f"n{n}"), sets)
        e = s["validation"]["temperature_error_max"]
        print(f"{os.path.basename(case)}: n = {n}, dt = {dt * n0 / n:.5g}, steps = {s['steps']}, "
              f"max temperature error = {e:.4e}")
        errs.append(e)
    ok = True
    for i in range(len(ns) - 1):
        order = math.log(errs[i] / errs[i + 1]) / math.log(ns[i + 1] / ns[i])
        good = lo <= order <= hi
        ok &= good
        print(f"observed order between n = {ns[i]} and {ns[i + 1]}: {order:.3f} (required {lo} to {hi})"
              + ("" if good else "  FAIL"))
    return ok


def read_final(out, s):
    with open(os.path.join(out, "final_fields.bin"), "rb") as f:
        data = f.read()
    vals = struct.unpack(f"<{len(data) // 8}d", data)
    n = s["cells"]
    return [vals[i * n:(i + 1) * n] for i in range(len(vals) // n)]


def check_conduction(navier, scratch, case, sets):
    out = os.path.join(scratch, "conduction")
    s = run(navier, case, out, sets + ["output.dump_final=true"])
    get = lambda sec, key, default: float(case_value(case, sec, key, sets) or default)
    nx, ny = s["grid"][0], s["grid"][1]
    x0, lx = get("grid", "x0", 0), get("grid", "lx", 1)
    t_lo = get("temperature", "x_low_value", 0)
    kappa = get("temperature", "kappa", 0)
    if (case_value(case, "temperature", "x_high", sets) or "flux") == "fixed":
        slope = (get("temperature", "x_high_value", 0) - t_lo) / lx
    else:  # heat flux q into the domain at x_high: kappa dT/dx = q
        slope = get("temperature", "x_high_value", 0) / kappa
    fields = read_final(out, s)
    T, vel = fields[-1], fields[:s["dim"]]
    err = max(abs(T[j * nx + i] - (t_lo + slope * (lx * (i + 0.5) / nx))) for j in range(ny) for i in range(nx))
    scale = max(abs(v) for v in T)
    vmax = max(abs(v) for c in vel for v in c)
    print(f"{s['case']}: {nx}x{ny}, {s['steps']} steps to t = {s['time']:.4g}: max |T - linear| = {err:.3e} "
          f"(max |T| {scale:.3g}, bound 1e-12 max |T|), max |u| = {vmax:.2e}, slope {slope:g}")
    return s["status"] == "completed" and len(fields) == s["dim"] + 2 and err <= 1e-12 * scale and vmax == 0


def growth_rate(out, t1, t2):
    with open(os.path.join(out, "monitor.csv")) as f:
        rows = [(float(r["time"]), float(r["kinetic_energy"])) for r in csv.DictReader(f)]
    pts = [(t, math.log(e)) for t, e in rows if t1 <= t <= t2 and e > 0]
    n = len(pts)
    mt, ml = sum(t for t, _ in pts) / n, sum(l for _, l in pts) / n
    slope = sum((t - mt) * (l - ml) for t, l in pts) / sum((t - mt) ** 2 for t, _ in pts)
    return 0.5 * slope, n  # the amplitude grows at half the rate of the energy


def check_onset(navier, scratch, case, ra1, ra2, t1, t2):
    rates = []
    for ra in (ra1, ra2):
        out = os.path.join(scratch, f"ra{ra:g}")
        s = run(navier, case, out, [f"temperature.ra={ra!r}", f"time.end_time={t2!r}", "time.steady_tol=0"])
        sigma, n = growth_rate(out, t1, t2)
        rates.append(sigma)
        print(f"{s['case']}: Ra = {ra:g}, grid {s['grid'][0]}x{s['grid'][1]}, {s['steps']} steps, wall {s['wall_s']:.1f} s: "
              f"growth rate of the velocity amplitude over t in [{t1:g}, {t2:g}] ({n} rows) = {sigma:+.4f} kappa/d^2")
    ra_c = ra1 - rates[0] * (ra2 - ra1) / (rates[1] - rates[0])
    print(f"growth rate changes sign at Ra = {ra_c:.0f} (linear interpolation; theory 1707.76)")
    return rates[0] < 0 < rates[1]


def check_steady(navier, scratch, case, tol, sets):
    res, fields = {}, {}
    for m in ("artificial_compressibility", "projection"):
        out = os.path.join(scratch, m)
        s = run(navier, case, out, sets + [f"run.method={m}", "output.dump_final=true", "output.fields_every=0"])
        st = s["steady"]
        print(f"{s['case']} {m}: {st['iterations']} iterations, residual {st['residual']:.3e}, converged "
              f"{st['converged']}, {st['wall_s']:.2f} s")
        res[m], fields[m] = s, read_final(out, s)
        if not st["converged"]:
            return False
    names = ["u", "v", "w"][:res["projection"]["dim"]] + ["p"] + (["T"] if len(fields["projection"]) > res[
        "projection"]["dim"] + 1 else [])
    ok = True
    for k, name in enumerate(names):
        a, b = fields["artificial_compressibility"][k], fields["projection"][k]
        if name == "p":
            ma, mb = sum(a) / len(a), sum(b) / len(b)
            a, b = [x - ma for x in a], [x - mb for x in b]
        scale = max(abs(x) for x in b)
        dev = max(abs(x - y) for x, y in zip(a, b)) / scale
        print(f"  {name}: max|ac - projection| / max|projection| = {dev:.3e} (tolerance {tol:g})")
        ok &= dev <= tol
    with open(os.path.join(scratch, "artificial_compressibility", "monitor.csv")) as f:
        r = [float(x["residual"]) for x in csv.DictReader(f)][1:]
    start = next(i for i, x in enumerate(r) if x < 1e-2 * r[0])
    rises = [i for i in range(start + 1, len(r)) if r[i] >= r[i - 1]]
    print(f"  residual: {len(r)} rows, start-up until row {start} ({r[start]:.2e}), then {len(rises)} rows not below "
          f"the previous one" + (f" (first at row {rises[0]}: {r[rises[0] - 1]:.3e} -> {r[rises[0]]:.3e})" if rises
                                 else ""))
    return ok and not rises


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
    elif check == "devahldavis":
        ok = check_devahldavis(navier, scratch, args[0], sets)
    elif check == "torder":
        ok = check_torder(navier, scratch, args[0], [int(a) for a in args[1:-2]], float(args[-2]), float(args[-1]))
    elif check == "conduction":
        ok = check_conduction(navier, scratch, args[0], sets)
    elif check == "onset":
        ok = check_onset(navier, scratch, args[0], float(args[1]), float(args[2]), float(args[3]), float(args[4]))
    elif check == "steady":
        ok = check_steady(navier, scratch, args[0], float(args[1]), sets)
    elif check == "div":
        ok = check_div(navier, scratch, args[0], float(args[1]), sets)
    else:
        sys.exit(f"unknown check {check}")
    print("PASS" if ok else "FAIL")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
