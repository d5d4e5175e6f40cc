#!/usr/bin/env python3
"""Boundary checks of issue 43 that print the figures they assert on (tests/CMakeLists.txt runs them).

usage: edge_check.py NAVIER SCRATCH walledge CASE N1 N2 ... MIN_ORDER [--set k=v ...]
       edge_check.py NAVIER SCRATCH outflow CASE N1 N2 ... MIN_ORDER [--set k=v ...]

walledge: the plane Poiseuille CASE (walls at y = y0 and y0 + ly, periodic x, initial = poiseuille, held at bulk
  velocity U) on a grid whose y cells grow geometrically towards the high wall, the last cell RATIO = 30 times
  the first (grid.y_spacing = geometric, y_cluster = low, y_ratio = 30^(1/(ny - 1)): neighbours differ by
  O(1/ny), so the grid is smooth), on ny = N1, N2, ... cells, run to its end (the steady state). Asserted:
  the observed order between consecutive grids of the max error of u against u = 6 U s (1 - s), and of the
  max error of the wall gradient du/dy at the high wall, -6 U / ly, taken from the solution as the wall
  flux of the finite-volume scheme, (0 - u_{n-1}) / (w_{n-1} / 2) with the exact half width from the last
  centre to the wall (the scheme's conservative flux: of second order, as tau_w is; a one-sided quadratic
  through the two last centres is of first order, the O(h^2) error of u_{n-1} over a distance h): each
  >= MIN_ORDER. The solver's wall flux uses the distance from the last centre to its mirror ghost (the
  ghost width beyond the last cell, grid/nav_geometry.c): a width taken from another cell errs by O(h)
  relatively on this grid, an O(h) gap between the solver's flux and the wall's geometry.
outflow: the band of tangential velocity v of CASE (physics.initial = pulse: u = U, v a Gaussian of x carried
  at U, y periodic; x_low an inflow face with the exact profile, x_high a convective outflow face), run until
  the band's centre has crossed the outflow face, on nx = N1, N2, ... cells along x (ny as in CASE: v depends
  on x alone), with dt = DT0 (N1 / nx)^2 (DT0 the case's dt). The convective outflow's face value is
  advanced by backward Euler and upwind from the last centre, half a cell away: its space error is of third
  order, its time lag U dt dv/dx of first order in dt, hence dt ~ h^2. Asserted: the observed order of the
  max velocity error (every point, the last cell column included: output.error_margin = 0) between
  consecutive grids >= MIN_ORDER, and that the band is crossing the face at the end (the exact v there at
  least a quarter of the amplitude). With the upwind distance of the tangential components taken as the
  whole cell, the face value lags by half a cell (dv/dx h / 2): first order."""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from navtest import case_value, read_final, run  # noqa: E402


def orders(errs, ns):
    return [math.log(errs[k] / errs[k + 1]) / math.log(ns[k + 1] / ns[k]) for k in range(len(ns) - 1)]


def geometric_faces(n, y0, ly, ratio):
    w = [ratio ** i for i in range(n)]
    y = [y0]
    for v in w:
        y.append(y[-1] + v * ly / sum(w))
    return y


def check_walledge(navier, scratch, case, ns, min_order, sets):
    nu = float(case_value(case, "physics", "nu", sets))
    ly = float(case_value(case, "grid", "ly", sets) or 1)
    y0 = float(case_value(case, "grid", "y0", sets) or 0)
    eu, eg = [], []
    for n in ns:
        ratio = 30.0 ** (1.0 / (n - 1))
        g = [f"grid.ny={n}", "grid.y_spacing=geometric", "grid.y_cluster=low", f"grid.y_ratio={ratio!r}",
             "output.dump_final=true"]
        out = os.path.join(scratch, f"n{n}")
        s = run(navier, case, out, sets + g)
        nx = s["grid"][0]
        U = s["bulk_velocity"]
        u = read_final(out, s)[0]
        y = geometric_faces(n, y0, ly, ratio)
        yc = [0.5 * (a + b) for a, b in zip(y, y[1:])]
        e_u = max(abs(u[j * nx + i] - 6 * U * (yc[j] - y0) / ly * (1 - (yc[j] - y0) / ly))
                  for j in range(n) for i in range(nx))
        d1, exact = y[n] - yc[n - 1], -6 * U / ly
        e_g = max(abs((0 - u[(n - 1) * nx + i]) / d1 - exact) for i in range(nx))
        w = [b - a for a, b in zip(y, y[1:])]
        print(f"ny = {n}: widths {w[0]:.3e} .. {w[-1]:.3e} (neighbours x {ratio:.4f}), {s['steps']} steps to t = "
              f"{s['time']:.4g}, nu = {nu:g}: max error of u {e_u:.4e}, of du/dy at the high wall {e_g:.4e} (exact "
              f"{exact:g})")
        eu.append(e_u)
        eg.append(e_g)
    ok = True
    for k, (a, b) in enumerate(zip(orders(eu, ns), orders(eg, ns))):
        print(f"ny = {ns[k]} -> {ns[k + 1]}: observed order of u {a:.3f}, of the wall gradient {b:.3f} "
              f"(required >= {min_order})")
        ok = ok and a >= min_order and b >= min_order
    return ok


def check_outflow(navier, scratch, case, ns, min_order, sets):
    ny0 = int(case_value(case, "grid", "ny", sets))
    dt0 = float(case_value(case, "time", "dt", sets))
    lx = float(case_value(case, "grid", "lx", sets) or 1)
    nu = float(case_value(case, "physics", "nu", sets))
    amp = float(case_value(case, "physics", "amplitude", sets) or 1)
    carrier = float(case_value(case, "physics", "uniform_velocity", sets).split(",")[0])
    errs, ok = [], True
    for n in ns:
        out = os.path.join(scratch, f"n{n}")
        dt = dt0 * (ns[0] / n) ** 2
        # v depends on x alone: the y cells need no refinement
        s = run(navier, case, out, sets + [f"grid.nx={n}", f"grid.ny={ny0}", f"time.dt={dt!r}",
                                           "output.error_margin=0"])
        e = s["validation"]["velocity_error_max"]
        print(f"nx = {n}: dt = {dt:.4g}, {s['steps']} steps to t = {s['time']:.6g}, max velocity error {e:.4e}, "
              f"max|div u| {s['max_div']:.2e}")
        errs.append(e)
    # the exact v at the outflow face at the end (physics.initial = pulse, docs/case-file.md)
    t = s["time"]
    s0 = lx / 12
    s2 = s0 * s0 + 2 * nu * t
    xi = lx - 0.5 * lx - carrier * t
    face = amp * s0 / math.sqrt(s2) * math.exp(-xi * xi / (2 * s2))
    print(f"exact v at the outflow face at t = {t:.6g}: {face:.4f} (at least amplitude / 4 = {amp / 4:g}: the band "
          f"is crossing the face)")
    ok = face >= amp / 4
    for k, q in enumerate(orders(errs, ns)):
        print(f"nx = {ns[k]} -> {ns[k + 1]}: observed order {q:.3f} (required >= {min_order})")
        ok = ok and q >= min_order
    return ok


def main():
    navier, scratch, check, case = sys.argv[1:5]
    rest = sys.argv[5:]
    cut = rest.index("--set") if "--set" in rest else len(rest)
    nums, sets = rest[:cut], [a for a in rest[cut:] if a != "--set"]
    ns, min_order = [int(v) for v in nums[:-1]], float(nums[-1])
    os.makedirs(scratch, exist_ok=True)
    if check == "walledge":
        ok = check_walledge(navier, scratch, case, ns, min_order, sets)
    elif check == "outflow":
        ok = check_outflow(navier, scratch, case, ns, min_order, sets)
    else:
        sys.exit(f"unknown check {check}")
    print("PASS" if ok else "FAIL")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
