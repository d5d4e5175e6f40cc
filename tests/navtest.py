#!/usr/bin/env python3
"""Checks that run the navier command and assert on what it writes.

usage: navtest.py NAVIER SCRATCH CHECK [args]
  order CASE N1 N2 MIN_ORDER [--set k=v ...]  run CASE on N1 and N2 cells per direction (dt and the step count
                                 scaled with h) and assert the observed order of the max velocity
                                 error, log(e1/e2)/log(N2/N1) >= MIN_ORDER
  ghia CASE TOL [--set k=v ...]  run CASE and assert ghia_max_dev_u and ghia_max_dev_v <= TOL
  ghia_steady CASE TOL [--set ..] the same, and assert that the run stopped at its steady state
                                 (time.steady_tol, steady.converged); CASE "default": the embedded case
  div CASE BOUND [--set k=v ...] run CASE with monitor_every = 1 and assert max|div u| after every
                                 step <= BOUND * U / h_min (U = max velocity scale of the case = 1)
  vtk CASE [--set k=v ...]       run CASE writing fields every step and parse the last legacy VTK
                                 file as ParaView's reader does: header, TIME, coordinates, and
                                 the pressure/velocity/vorticity arrays (sizes, finite values)
  profile CASE [--set k=v ...]   run CASE with --profile and assert that summary.json has every
                                 phase, that they add up to the loop time, that each kind of work was
                                 charged to its own phase, and the memory per cell (see check_profile)
  devahldavis CASE [--set k=v ...]  run a differentially heated cavity to steady state and assert
                                 against data/devahldavis1983.csv (at the case's Ra): the Nusselt
                                 number of the hot and of the cold wall within 1 %, u_max and v_max
                                 within 2 %, their positions within one cell
  torder CASE N1 N2 ... LO HI [--set k=v ...] run CASE (an analytic temperature) on N1, N2, ... cells per
                                 direction (dt scaled with h) and assert the observed order of the
                                 max temperature error between consecutive grids is in [LO, HI]
  conduction CASE [--set k=v ...]  run a pure conduction case (zero gravity, fixed temperature on
                                 x_low, fixed or flux on x_high, adiabatic elsewhere) and assert that
                                 the final temperature is the linear profile to round-off (1e-12)
                                 and the velocity stays 0
  dtorder CASE DT MIN [--set ..] run CASE on its grid with dt = DT, DT/2, DT/4 and assert the
                                 temporal order of the velocity, log2 of the ratio of the successive
                                 differences, >= MIN (the spatial error cancels)
  adaptive                       the adaptive dt of the first step against min(cfl limit, fourier
                                 limit) computed from the initial field (each limit binding once)
  couette3d                      3D Couette flow between moving walls, per direction, against the
                                 exact linear profile (every tangential wall condition)
  freeslip3d                     free_slip faces per direction: a uniform flow stays uniform, and half
                                 channels with a free-slip centre plane equal the full channel's halves
  onset CASE RA1 RA2 T1 T2       run the Rayleigh-Benard CASE at Ra = RA1 and RA2 to time T2, fit
                                 the growth rate of the kinetic energy (monitor.csv) over [T1, T2]
                                 and assert it is negative at RA1 and positive at RA2
  sorder CASE N1 N2 ... MIN [--set k=v ...]  run CASE to its stop on grids of ny = N1, N2, ... (nx, nz in
                                 the case's proportion) and assert the observed order of the max
                                 velocity error (validation.velocity_error_max) between consecutive
                                 grids >= MIN
  mass CASE BOUND [--set k=v ...]  run an inflow/outflow CASE with monitor_every = 1 and assert after
                                 every step max|div u| <= BOUND * U / h_min and |sum of the face
                                 fluxes| (in - out) <= 1e-13 * the largest face flux
  developed CASE X TOL [--set ...]  run a channel CASE (walls at y_low, y_high) and assert that u at
                                 every x >= X is the Poiseuille profile 6 U s (1 - s) of its bulk
                                 velocity U to TOL (max over the profile)
  outflow CASE [--set ...]       run a 2D CASE with an outflow face at x_high (no normal flow on the
                                 y faces) to steady state and assert max |v| in the last cell column
                                 <= steady_tol * max |v| (the discrete du/dx = 0 of the outflow)
  walls CASE TAU TOL [--set ...]  run a driven channel CASE and assert tau_w of every wall face, and
                                 re_tau = sqrt(TAU) (ly / 2) / nu, within TOL (relative) of TAU, and
                                 that the mean pressure gradient G (forcing_gradient) balances the
                                 walls, |G ly - sum of tau_w| <= 1e-6 G ly (the steady state)
  steady CASE TOL [MAXIT [RISES]] [--set k=v ...]  run CASE to steady_tol (given in the sets) with method =
                                 artificial_compressibility and with method = projection and assert
                                 that the steady states agree: max|x_ac - x_proj| <= TOL max|x_proj|
                                 for u, v, (w), T and the pressure minus its mean; and that the
                                 artificial-compressibility residual (monitor.csv, every
                                 monitor_every iterations) decreases at every row after the start-up
                                 (the rows before it first falls below 1e-2 of its first value), but
                                 at most RISES rows (default 0); with MAXIT > 0, that artificial
                                 compressibility took at most MAXIT iterations (the multigrid in
                                 pseudo-time works)
  accost CASE ITER WU [--set k=v ...]  run CASE with method = artificial_compressibility to its
                                 steady_tol and assert that it converged within ITER V-cycles and WU
                                 work units (summary.json steady.iterations, steady.work_units)
Every check prints the figures it asserts on. NAVTEST_LAUNCH in the environment (e.g. "mpiexec -n 2
--oversubscribe") runs navier under it."""
import csv
import json
import math
import os
import struct
import subprocess
import sys


def run(navier, case, outdir, sets):
    """navier run CASE (None: the embedded default case) with --set overrides; the environment's
    NAVTEST_LAUNCH (e.g. "mpiexec -n 2 --oversubscribe") goes in front of the command."""
    cmd = os.environ.get("NAVTEST_LAUNCH", "").split() + [navier, "run"] + ([case] if case else []) + ["--output", outdir]
    for s in sets:
        cmd += [s] if s.startswith("--") else ["--set", s]
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if res.returncode != 0:
        print(res.stdout)
        sys.exit(f"FAIL: {' '.join(cmd)} exited {res.returncode}")
    for line in res.stdout.splitlines():
        if line.startswith("pressure:"):
            print(line)
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


def check_order(navier, scratch, case, n1, n2, min_order, extra=()):
    dim = int(case_value(case, "grid", "dim"))
    dt = float(case_value(case, "time", "dt"))
    n0 = int(case_value(case, "grid", "nx"))
    errs, ke_ok = [], True
    for n in (n1, n2):
        sets = [f"grid.nx={n}", f"grid.ny={n}", f"time.dt={dt * n0 / n!r}"]
        if dim == 3:
            sets.append(f"grid.nz={n}")
        s = run(navier, case, os.path.join(scratch, f"n{n}"), sets + list(extra))
        e = s["validation"]["velocity_error_max"]
        ke, ke_exact, ke_bound = s["kinetic_energy"], *exact_kinetic_energy(case, s["time"], e)
        ke_ok &= abs(ke - ke_exact) <= ke_bound
        print(f"{os.path.basename(case)}: n = {n}, dt = {dt * n0 / n:.5g}, steps = {s['steps']}, "
              f"max velocity error = {e:.4e}, max|div u| = {s['max_div']:.2e}; kinetic energy {ke:.8g}, exact "
              f"{ke_exact:.8g}, |difference| {abs(ke - ke_exact):.2e} (bound {ke_bound:.2e})")
        errs.append(e)
    order = math.log(errs[0] / errs[1]) / math.log(n2 / n1)
    print(f"observed order {order:.3f} (required >= {min_order}); kinetic energy within its bound: {ke_ok}")
    return order >= min_order and ke_ok


def exact_kinetic_energy(case, t, e):
    """The mean kinetic energy 1/2 <|u|^2> of the exact solution of CASE at time t, and the bound on
    the difference to the discrete one that a max velocity error e allows:
    |dKE| <= 1/2 sum_c <|du_c| |u_c + u_c,h|> <= e sum_c max|u_c| + dim e^2 / 2.
    Taylor-Green (A sin(kx x) cos(ky y), -A kx/ky cos(kx x) sin(ky y)) F, F = exp(-nu (kx^2 + ky^2) t):
    KE = A^2 F^2 (1 + (kx/ky)^2) / 8; ABC (each component of two unit modes) A^2 F^2 3/2, F = exp(-nu k^2 t)."""
    get = lambda sec, key, default: float(case_value(case, sec, key) or default)
    A, nu = get("physics", "amplitude", 1), get("physics", "nu", 0.01)
    kx, ky = 2 * math.pi / get("grid", "lx", 1), 2 * math.pi / get("grid", "ly", 1)
    dim = int(case_value(case, "grid", "dim"))
    if case_value(case, "physics", "initial") == "abc":
        F = math.exp(-nu * kx * kx * t)
        return 1.5 * (A * F) ** 2, e * 3 * 2 * A * F + dim * e * e / 2
    F = math.exp(-nu * (kx * kx + ky * ky) * t)
    return (A * F) ** 2 * (1 + (kx / ky) ** 2) / 8, e * A * F * (1 + kx / ky) + dim * e * e / 2


def check_sorder(navier, scratch, case, ns, min_order, sets):
    nx0, ny0 = int(case_value(case, "grid", "nx", sets)), int(case_value(case, "grid", "ny", sets))
    dim = int(case_value(case, "grid", "dim", sets) or "2")
    nz0 = int(case_value(case, "grid", "nz", sets) or "1")
    errs, ok = [], True
    for n in ns:
        g = [f"grid.ny={n}", f"grid.nx={max(2, round(nx0 * n / ny0))}"]
        if dim == 3:
            g.append(f"grid.nz={max(2, round(nz0 * n / ny0))}")
        s = run(navier, case, os.path.join(scratch, f"n{n}"), sets + g)
        e = s["validation"]["velocity_error_max"]
        line = (f"{os.path.basename(case)}: grid {s['grid'][0]}x{s['grid'][1]}, {s['steps']} steps to t = {s['time']:.4g}, "
                f"max velocity error = {e:.4e}, max|div u| = {s['max_div']:.2e}")
        if errs:
            order = math.log(errs[-1] / e) / math.log(n / prev)
            line += f", observed order {order:.3f} (required >= {min_order})"
            ok = ok and order >= min_order
        print(line)
        errs.append(e)
        prev = n
    return ok


def check_mass(navier, scratch, case, bound, sets):
    out = os.path.join(scratch, "mass")
    s = run(navier, case, out, sets + ["output.monitor_every=1"])
    h = min(float(s_l) / n for s_l, n in zip(
        [case_value(case, "grid", k, sets) or "1" for k in ("lx", "ly", "lz")], s["grid"]) if n > 1)
    with open(os.path.join(out, "monitor.csv")) as f:
        rows = list(csv.DictReader(f))[1:]
    worst = max(float(r["max_div"]) for r in rows)
    cols = [k for k in rows[0] if k.startswith("flux_")]
    net = max(abs(sum(float(r[k]) for k in cols)) for r in rows)
    scale = max(abs(float(r[k])) for r in rows for k in cols)
    print(f"{s['case']}: {len(rows)} steps, largest max|div u| after a step = {worst:.3e} (bound {bound / h:.3e}); "
          f"faces {', '.join(cols)}: largest |net flux| = {net:.3e}, largest face flux {scale:.4g} "
          f"(bound 1e-13 * it)")
    return len(rows) == s["steps"] and worst <= bound / h and net <= 1e-13 * scale and scale > 0


def check_developed(navier, scratch, case, x_from, tol, sets):
    out = os.path.join(scratch, "developed")
    s = run(navier, case, out, sets + ["output.dump_final=true"])
    nx, ny = s["grid"][0], s["grid"][1]
    x0 = float(case_value(case, "grid", "x0", sets) or 0)
    lx = float(case_value(case, "grid", "lx", sets) or 1)
    u = read_final(out, s)[0]
    U = s["bulk_velocity"]
    worst = 0.0
    for i in range(nx):
        if x0 + lx * i / nx < x_from:  # u(i) sits on the face x0 + i lx / nx
            continue
        for j in range(ny):
            sj = (j + 0.5) / ny
            worst = max(worst, abs(u[j * nx + i] - 6 * U * sj * (1 - sj)))
    print(f"{s['case']}: {nx}x{ny}, {s['steps']} steps to t = {s['time']:.4g}, bulk velocity {U:.12g}: "
          f"max |u - 6 U s (1 - s)| over x >= {x_from:g} = {worst:.4e} (tolerance {tol:g}); walls {s['walls']}")
    return s["status"] == "completed" and worst <= tol


def check_outflow(navier, scratch, case, sets):
    """A 2D CASE with an outflow face at x_high whose y faces carry no normal flow, run to steady state:
    the convective outflow then holds du/dx = 0 discretely (the face value equals the face one cell
    inside, the flux correction 0), so continuity leaves no v in the last cell column."""
    out = os.path.join(scratch, "outflow")
    s = run(navier, case, out, sets + ["output.dump_final=true"])
    nx, ny = s["grid"][0], s["grid"][1]
    v = read_final(out, s)[1]
    tol = float(case_value(case, "time", "steady_tol", sets))
    vmax = max(abs(x) for x in v)
    last = max(abs(v[j * nx + nx - 1]) for j in range(ny))
    before = max(abs(v[j * nx + nx - 2]) for j in range(ny))
    print(f"{s['case']}: {nx}x{ny}, {s['steps']} steps, steady residual {s['steady']['residual']:.3e}: max |v| in the "
          f"last cell column {last:.3e}, in the one before {before:.3e}, everywhere {vmax:.4g} (bound steady_tol "
          f"{tol:g} * max|v| = {tol * vmax:.3e})")
    return s["status"] == "completed" and s["steady"]["converged"] and last <= tol * vmax


def check_walls(navier, scratch, case, tau, tol, sets):
    s = run(navier, case, os.path.join(scratch, "walls"), sets)
    nu = float(case_value(case, "physics", "nu", sets))
    ly = float(case_value(case, "grid", "ly", sets) or 1)
    re_tau = math.sqrt(tau) * 0.5 * ly / nu
    worst = max(abs(w["tau_w"] - tau) / tau for w in s["walls"].values())
    e_re = abs(s["re_tau"] - re_tau) / re_tau
    print(f"{s['case']}: grid {s['grid'][0]}x{s['grid'][1]}, walls {s['walls']}, re_tau {s['re_tau']:.6g} "
          f"(expected tau_w {tau:g}, re_tau {re_tau:.6g}): largest relative deviations {worst:.2e}, {e_re:.2e} "
          f"(tolerance {tol:g}); bulk velocity {s['bulk_velocity']:.12g}")
    # at the steady state the mean pressure gradient balances the walls: G ly = sum of tau_w
    G = s.get("forcing_gradient")
    e_g = abs(G * ly - sum(w["tau_w"] for w in s["walls"].values())) / abs(G * ly) if G else 0.0
    if G:
        print(f"forcing_gradient {G:.12g}: |G ly - sum tau_w| / (G ly) = {e_g:.2e} (required <= 1e-6)")
    return len(s["walls"]) == 2 and worst <= tol and e_re <= tol and e_g <= 1e-6


def check_ghia(navier, scratch, case, tol, sets, steady=False):
    s = run(navier, None if case == "default" else case, os.path.join(scratch, "ghia"), sets)
    v = s["validation"]
    if steady:
        st = s.get("steady", {})
        print(f"steady: {st.get('iterations')} iterations, residual {st.get('residual')}, converged "
              f"{st.get('converged')}")
        if not st.get("converged"):
            return False
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
    """The phases add up to the loop time; every kind of work (the marks nav_profile_work beside the
    predictor, Poisson, correction, halo and output code) was charged to its own phase, the predictor,
    Poisson solve and correction once per step; the peak memory per cell is within [1.0, 1.15] of what
    the arrays need: 4 dim + 2 flow arrays (u, rhs, rhs_old, u_prev per component, p, div), 2 of the
    finest multigrid level (residual, inverse diagonal; its x and b are p and div), 4 with a
    temperature, each with one ghost layer, and 4 per coarser level (x, b, r, inverse diagonal), which
    halve each direction: 4 / (2^dim - 1) fine-grid arrays without ghosts in all (per cell of the largest
    block), and with several ranks the halo buffers (2 x 4 planes per neighbour, flow and levels)."""
    out = os.path.join(scratch, "profile")
    s = run(navier, case, out, sets + ["--profile"])
    p = s["profile"]
    phases = ["predictor", "poisson", "correction", "halo", "output", "other"]
    total = sum(p[f"{k}_s"] for k in phases)
    print(f"{s['case']}: {s['steps']} steps, loop {p['loop_s']:.4f} s, phases " +
          ", ".join(f"{k} {p[k + '_s']:.4f}" for k in phases) + f", sum {total:.4f} s")
    ok = all(p[f"{k}_s"] >= 0 for k in phases) and abs(total - p["loop_s"]) <= 0.02 * p["loop_s"] + 1e-3 \
        and p["poisson_s"] > 0 and p["predictor_s"] > 0
    work = p["work"]
    for k in phases:
        charged = work.get(k, {})
        wrong = {q: n for q, n in charged.items() if q != k}
        need = s["steps"] if k in ("predictor", "poisson", "correction") else None
        good = not wrong and (need is None or charged.get(k, 0) == need) and (k != "halo" or s["ranks"] == 1 or
                                                                              charged.get(k, 0) > 0)
        ok &= good
        print(f"  work of {k}: charged {charged or 'nowhere'}" + (f" (expected {need} in {k})" if need else "")
              + ("" if good else "  FAIL"))
    dim, cells, ntot = s["dim"], 1, 1
    for d in range(dim):  # the largest block (uneven splits: the first ranks get the extra cell)
        n = -(-s["grid"][d] // s["decomposition"][d])
        cells *= n
        ntot *= n + 2
    arrays = 4 * dim + 2 + 2 + (4 if "convection" in s else 0)
    rb = 4 if s["precision"] == "single" else 8  # bytes per real
    need = rb * (arrays * ntot / cells + 4 / (2 ** dim - 1))
    for d in range(dim):  # halo buffers (send, receive; 4 fields) of the flow and of each level
        if s["decomposition"][d] > 1:
            face = ("x", "y", "z")[d] + "_low"
            sides = 2 if s["decomposition"][d] > 2 or case_value(case, "boundary", face, sets) == "periodic" else 1
            plane = ntot // (-(-s["grid"][d] // s["decomposition"][d]) + 2)
            need += rb * sides * 2 * 4 * plane / cells * (1 + 2 ** (dim - 1) / (2 ** (dim - 1) - 1))
    ratio = p["memory_bytes_per_cell"] / need
    good = 1.0 <= ratio <= 1.15
    ok &= good
    print(f"  memory {p['memory_bytes_per_cell']:.1f} bytes per cell, the arrays need {need:.1f}: ratio {ratio:.3f} "
          f"(band 1.0 to 1.15)" + ("" if good else "  FAIL"))
    return ok


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


def check_torder(navier, scratch, case, ns, lo, hi, sets=()):
    dt = float(case_value(case, "time", "dt"))
    n0 = int(case_value(case, "grid", "nx"))
    dim = int(case_value(case, "grid", "dim"))
    errs = []
    for n in ns:
        g = [f"grid.nx={n}", f"grid.ny={n}", f"time.dt={dt * n0 / n!r}"] + ([f"grid.nz={n}"] if dim == 3 else [])
        s = run(navier, case, os.path.join(scratch, f"n{n}"), g + list(sets))
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


def velocity_fields(out, s):
    """The velocity components of final_fields.bin (face values, global x-fastest order)."""
    return read_final(out, s)[:s["dim"]]


def check_dtorder(navier, scratch, case, dt, min_order, sets):
    """Temporal order alone: the grid fixed, dt, dt/2 and dt/4 to the same end time; the spatial error
    is the same in the three runs, so the differences e1 = max|u_dt - u_dt/2| and
    e2 = max|u_dt/2 - u_dt/4| (every velocity component, every face) shrink as dt^q:
    q = log2(e1 / e2) >= MIN_ORDER."""
    finals = []
    for m in (1, 2, 4):
        out = os.path.join(scratch, f"dt{m}")
        s = run(navier, case, out, sets + [f"time.dt={dt / m!r}", "output.dump_final=true", "time.steady_tol=0"])
        finals.append(velocity_fields(out, s))
        print(f"{s['case']}: grid {s['grid']}, dt = {dt / m:.5g}, {s['steps']} steps to t = {s['time']:.6g}"
              + (f", max velocity error against the exact solution {s['validation']['velocity_error_max']:.3e}"
                 if "velocity_error_max" in s.get("validation", {}) else ""))
    diff = [max(abs(a - b) for ca, cb in zip(finals[k], finals[k + 1]) for a, b in zip(ca, cb)) for k in (0, 1)]
    order = math.log(diff[0] / diff[1]) / math.log(2) if diff[1] > 0 else float("inf")
    print(f"max|u(dt) - u(dt/2)| = {diff[0]:.4e}, max|u(dt/2) - u(dt/4)| = {diff[1]:.4e}: "
          f"temporal order {order:.3f} (required >= {min_order})")
    return order >= min_order


AXES = "xyz"
FACES = [f"{a}_{side}" for a in AXES for side in ("low", "high")]


def box3d_sets(kinds, n, lengths=(1, 1, 1), origin=(0, 0, 0), velocity=None):
    """--set list of a 3D box: kinds[d] is the boundary of both faces of direction d (or a pair),
    n cells per direction, every face velocity 0,0,0 unless velocity[face] gives it."""
    sets = ["grid.dim=3"] + [f"grid.n{a}={n[d]}" for d, a in enumerate(AXES)]
    sets += [f"grid.l{a}={lengths[d]!r}" for d, a in enumerate(AXES)] + [f"grid.{a}0={origin[d]!r}"
                                                                        for d, a in enumerate(AXES)]
    for d, a in enumerate(AXES):
        pair = kinds[d] if isinstance(kinds[d], tuple) else (kinds[d], kinds[d])
        sets += [f"boundary.{a}_low={pair[0]}", f"boundary.{a}_high={pair[1]}"]
    for face in FACES:
        v = (velocity or {}).get(face, (0, 0, 0))
        sets.append(f"boundary.{face}_velocity={v[0]!r},{v[1]!r},{v[2]!r}")
    return sets


def face_index(s, c, i, j, k):
    nx, ny, _ = s["grid"]
    return (k * ny + j) * nx + i


def check_couette3d(navier, scratch, sets):
    """3D Couette flow against its exact solution, once per wall direction d (the other two
    periodic): the walls of d move tangentially with different velocities in both tangential
    components (low U_lo, high U_hi), and at steady state u_c(x_d) = U_lo,c + (U_hi,c - U_lo,c) x_d / L
    (exactly linear: the second-order scheme reproduces it to round-off), the normal component 0.
    Every tangential condition of every wall face enters the answer; max error <= 1e-7 (the
    steady-state stop leaves about 1e-9; end_time 10, about 4 times the time it takes, ends a run
    that does not settle)."""
    ok = True
    for d in range(3):
        n = [4, 4, 4]
        n[d] = 8
        kinds = ["periodic"] * 3
        kinds[d] = "wall"
        lo, hi = [0.0] * 3, [0.0] * 3
        t = [c for c in range(3) if c != d]
        lo[t[0]], lo[t[1]], hi[t[0]], hi[t[1]] = 0.5, -0.25, -1.0, 0.75
        vel = {f"{AXES[d]}_low": lo, f"{AXES[d]}_high": hi}
        out = os.path.join(scratch, f"couette_{AXES[d]}")
        s = run(navier, None, out, box3d_sets(kinds, n, velocity=vel) + [
            "run.name=couette3d", "physics.nu=1", "physics.initial=rest", "time.dt=0", "time.end_time=10",
            "time.max_steps=0", "time.steady_tol=1e-9", "pressure.tolerance=1e-12", "output.dump_final=true"] + sets)
        u = velocity_fields(out, s)
        err = 0.0
        for k in range(n[2]):
            for j in range(n[1]):
                for i in range(n[0]):
                    ijk = (i, j, k)
                    x = (ijk[d] + 0.5) / n[d]
                    for c in range(3):
                        exact = 0.0 if c == d else lo[c] + (hi[c] - lo[c]) * x
                        if c == d and ijk[d] == 0:
                            exact = 0.0
                        err = max(err, abs(u[c][face_index(s, c, i, j, k)] - exact))
        good = s["status"] == "completed" and err <= 1e-7
        ok &= good
        print(f"walls at {AXES[d]}: {s['steps']} steps to t = {s['time']:.4g} ({s['message'] or s['status']}), "
              f"low wall {lo}, high wall {hi}: max |u - u_Couette| = {err:.3e} (bound 1e-7)" + ("" if good else "  FAIL"))
    return ok


def check_freeslip3d(navier, scratch, sets):
    """free_slip faces of each direction d (the others periodic), two ways:
    (a) a uniform flow tangential to the faces (both tangential components) stays uniform: max
        deviation <= 1e-12;
    (b) a channel [0, 1] in d between two walls that both move with the same tangential velocity,
        from rest (an unsteady Stokes layer, symmetric about the centre plane), against the half
        channels [0, 1/2] (wall low, free_slip high) and [1/2, 1] (free_slip low, wall high): each
        half equals the full channel's half after 40 steps to 1e-12 relative."""
    ok = True
    common = ["physics.nu=0.5", "time.dt=0.001", "time.end_time=0", "time.max_steps=40", "time.steady_tol=0",
              "pressure.tolerance=1e-12", "output.dump_final=true"]
    for d in range(3):
        t = [c for c in range(3) if c != d]
        V = [0.0] * 3
        V[t[0]], V[t[1]] = 1.0, -0.5
        n = [4, 4, 4]
        kinds = ["periodic"] * 3
        kinds[d] = "free_slip"
        out = os.path.join(scratch, f"uniform_{AXES[d]}")
        s = run(navier, None, out, box3d_sets(kinds, n) + common + [
            "run.name=free_slip_uniform", "physics.initial=uniform", f"physics.uniform_velocity={V[0]},{V[1]},{V[2]}"]
                + sets)
        u = velocity_fields(out, s)
        dev = max(abs(v - V[c]) for c in range(3) for v in u[c])
        good = dev <= 1e-12
        ok &= good
        print(f"free_slip at {AXES[d]}: uniform flow {V} after {s['steps']} steps: max deviation {dev:.2e} (bound 1e-12)"
              + ("" if good else "  FAIL"))
        runs = {}
        for name, length, origin, pair, m in (("full", 1.0, 0.0, ("wall", "wall"), 8),
                                              ("low", 0.5, 0.0, ("wall", "free_slip"), 4),
                                              ("high", 0.5, 0.5, ("free_slip", "wall"), 4)):
            kinds[d] = pair
            n = [4, 4, 4]
            n[d] = m
            lengths, org = [1.0] * 3, [0.0] * 3
            lengths[d], org[d] = length, origin
            vel = {f"{AXES[d]}_{side}": V for side, kind in zip(("low", "high"), pair) if kind == "wall"}
            out = os.path.join(scratch, f"{name}_{AXES[d]}")
            s = run(navier, None, out, box3d_sets(kinds, n, lengths, org, vel) + common + ["run.name=stokes_layer"]
                    + sets)
            runs[name] = (s, velocity_fields(out, s))
        sf, uf = runs["full"]
        scale = max(abs(v) for c in range(3) for v in uf[c])
        worst = 0.0
        for name, shift in (("low", 0), ("high", 4)):
            sh, uh = runs[name]
            nh = sh["grid"]
            for k in range(nh[2]):
                for j in range(nh[1]):
                    for i in range(nh[0]):
                        ijk = [i, j, k]
                        full = list(ijk)
                        full[d] += shift
                        for c in t:  # the tangential components (the normal one is checked as 0 below)
                            a = uh[c][(k * nh[1] + j) * nh[0] + i]
                            b = uf[c][(full[2] * sf["grid"][1] + full[1]) * sf["grid"][0] + full[0]]
                            worst = max(worst, abs(a - b) / scale)
            worst = max(worst, max(abs(v) for v in uh[d]) / scale)
        good = worst <= 1e-12 and scale > 0.1
        ok &= good
        print(f"free_slip at {AXES[d]}: Stokes layer of walls moving {V}, max |u| {scale:.3f} after {sf['steps']} steps: "
              f"half channels against the full channel, max rel diff {worst:.2e} (bound 1e-12)" + ("" if good else "  FAIL"))
    return ok


def check_adaptive(navier, scratch, sets):
    """The adaptive step (time.dt = 0) of the first step against the limits computed here:
    dt = min(cfl / max_cells sum_d |u_d| / h_d, fourier / (nu sum_d 1 / h_d^2)), the cell-centre velocity
    the mean of the two face values of the exact initial field; a wall's speed U counts as U / h_min.
    Four runs: Taylor-Green 2D (2 pi box, 32^2) at nu = 0.01 (the cfl limit binds) and nu = 0.5 (the
    fourier limit binds), the uniform flow (-1, -0.5) (negative components: the rate sums magnitudes),
    and the cavity at rest with a lid U = 1 at nu = 0.001 (the wall speed binds);
    the first step's dt (monitor.csv, 7 digits) equal to 1e-6 relative."""
    ok = True
    n, L, cfl, fourier = 32, 2 * math.pi, 0.45, 0.2
    h = L / n
    adv = 0.0
    for j in range(n):
        for i in range(n):
            u = 0.5 * sum(math.sin(i2 * h) * math.cos((j + 0.5) * h) for i2 in (i, i + 1))
            v = 0.5 * sum(-math.cos((i + 0.5) * h) * math.sin(j2 * h) for j2 in (j, j + 1))
            adv = max(adv, (abs(u) + abs(v)) / h)
    runs = [("taylor_green", 0.01, adv, h), ("taylor_green", 0.5, adv, h), ("uniform", 0.01, 1.5 / h, h),
            ("cavity", 0.001, 1.0 / (1.0 / n), 1.0 / n)]
    for kind, nu, rate, hh in runs:
        out = os.path.join(scratch, f"adaptive_{kind}_{nu}")
        base = [f"grid.nx={n}", f"grid.ny={n}", "time.dt=0", f"time.cfl={cfl}", f"time.fourier={fourier}",
                f"physics.nu={nu}", "time.max_steps=2", "time.end_time=0", "time.steady_tol=0", "output.monitor_every=1"]
        if kind != "cavity":
            base += [f"grid.lx={L!r}", f"grid.ly={L!r}", f"physics.initial={kind}"] + (
                ["physics.uniform_velocity=-1,-0.5,0"] if kind == "uniform" else []) + [
                f"boundary.{f}=periodic" for f in ("x_low", "x_high", "y_low", "y_high")] + ["boundary.y_high_velocity=0,0,0"]
        s = run(navier, None, out, base + sets)
        with open(os.path.join(out, "monitor.csv")) as f:
            rows = [r for r in csv.DictReader(f) if int(r["step"]) == 1]
        dt = float(rows[0]["dt"])
        lim_a, lim_f = cfl / rate, fourier / (nu * 2 / hh ** 2)
        want = min(lim_a, lim_f)
        good = abs(dt - want) <= 1e-6 * want
        ok &= good
        print(f"{kind} nu = {nu}: first dt {dt:.7g}, expected min(cfl limit {lim_a:.7g}, fourier limit {lim_f:.7g}) = "
              f"{want:.7g} ({'cfl' if lim_a < lim_f else 'fourier'} binds)" + ("" if good else "  FAIL"))
    return ok


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


def check_steady(navier, scratch, case, tol, sets, max_iterations=None, max_rises=0):
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
    it = res["artificial_compressibility"]["steady"]["iterations"]
    slow = max_iterations is not None and it > max_iterations
    if max_iterations is not None:
        print(f"  artificial compressibility: {it} iterations (at most {max_iterations})")
    return ok and len(rises) <= max_rises and not slow


def check_accost(navier, scratch, case, max_iter, max_wu, sets):
    s = run(navier, case, scratch, sets + ["run.method=artificial_compressibility", "output.fields_every=0"])
    st = s["steady"]
    print(f"{s['case']}: {st['iterations']} cycles (bound {max_iter}), {st['work_units']:.1f} work units (bound "
          f"{max_wu:g}), residual {st['residual']:.3e}, converged {st['converged']}, {st['wall_s']:.2f} s")
    return st["converged"] and st["iterations"] <= max_iter and st["work_units"] <= max_wu


def main():
    navier, scratch, check = sys.argv[1], sys.argv[2], sys.argv[3]
    args = sys.argv[4:]
    os.makedirs(scratch, exist_ok=True)
    sets = [a for a in args if "=" in a and "." in a.split("=")[0]]
    args = [a for a in args if a not in sets and a != "--set"]
    if check == "order":
        ok = check_order(navier, scratch, args[0], int(args[1]), int(args[2]), float(args[3]), sets)
    elif check in ("ghia", "ghia_steady"):
        ok = check_ghia(navier, scratch, args[0], float(args[1]), sets, check == "ghia_steady")
    elif check == "profile":
        ok = check_profile(navier, scratch, args[0], sets)
    elif check == "vtk":
        ok = check_vtk(navier, scratch, args[0], sets)
    elif check == "devahldavis":
        ok = check_devahldavis(navier, scratch, args[0], sets)
    elif check == "torder":
        ok = check_torder(navier, scratch, args[0], [int(a) for a in args[1:-2]], float(args[-2]), float(args[-1]),
                          sets)
    elif check == "conduction":
        ok = check_conduction(navier, scratch, args[0], sets)
    elif check == "onset":
        ok = check_onset(navier, scratch, args[0], float(args[1]), float(args[2]), float(args[3]), float(args[4]))
    elif check == "dtorder":
        ok = check_dtorder(navier, scratch, args[0], float(args[1]), float(args[2]), sets)
    elif check == "adaptive":
        ok = check_adaptive(navier, scratch, sets)
    elif check == "couette3d":
        ok = check_couette3d(navier, scratch, sets)
    elif check == "freeslip3d":
        ok = check_freeslip3d(navier, scratch, sets)
    elif check == "sorder":
        ok = check_sorder(navier, scratch, args[0], [int(a) for a in args[1:-1]], float(args[-1]), sets)
    elif check == "mass":
        ok = check_mass(navier, scratch, args[0], float(args[1]), sets)
    elif check == "developed":
        ok = check_developed(navier, scratch, args[0], float(args[1]), float(args[2]), sets)
    elif check == "outflow":
        ok = check_outflow(navier, scratch, args[0], sets)
    elif check == "walls":
        ok = check_walls(navier, scratch, args[0], float(args[1]), float(args[2]), sets)
    elif check == "accost":
        ok = check_accost(navier, scratch, args[0], int(args[1]), float(args[2]), sets)
    elif check == "steady":
        maxit = int(args[2]) if len(args) > 2 and int(args[2]) > 0 else None
        ok = check_steady(navier, scratch, args[0], float(args[1]), sets, maxit, int(args[3]) if len(args) > 3 else 0)
    elif check == "div":
        ok = check_div(navier, scratch, args[0], float(args[1]), sets)
    else:
        sys.exit(f"unknown check {check}")
    print("PASS" if ok else "FAIL")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
