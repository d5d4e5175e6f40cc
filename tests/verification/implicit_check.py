#!/usr/bin/env python3
"""Verification of implicit diffusion and variable viscosity ([time] diffusion, [physics] nu_t):
checks that run the navier command, read DIR/final_fields.bin and assert on the figures they print.

usage: implicit_check.py NAVIER SCRATCH CHECK [args] [--set k=v ...]
  couette NY T DT1 DT2 ... MIN_ORDER MIN_FOURIER
        start-up of plane Couette flow (fluid at rest in 0 <= y <= 1, the wall y = 1 set moving at
        U = 1 at t = 0, nu = 1, periodic x) with diffusion = implicit on NY cells to time T with the
        fixed steps DT1 > DT2 > ...; asserts nu dt / h^2 >= MIN_FOURIER for every dt and that the
        observed order of the max error against the analytic series solution between consecutive dt
        is >= MIN_ORDER. The series of the continuous problem,
            u(y, t) = U y + sum_n 2 U (-1)^n / (n pi) sin(n pi y) exp(-n^2 pi^2 nu t),
        carries the spatial error too (printed); the order is measured against the same series for
        the semi-discrete equations (discrete eigenvalues and coefficients: the exact solution in time
        of the scheme's spatial discretisation), so the error is the temporal error alone
  shearwave NY T DT1 DT2 ... MIN_ORDER MIN_FOURIER
        free-slip walls: u = cos(pi y) exp(-pi^2 nu t) between free-slip walls y = 0, 1 (periodic x,
        nu = 1; [physics] initial = shear_wave), implicit, as couette (fourier >= MIN_FOURIER, the
        temporal order against the semi-discrete solution cos(pi y_j) exp(-lambda_h t), lambda_h =
        (4/h^2) sin^2(pi h/2), an exact eigenvector of the scheme with the free-slip ghosts)
  dtorder CASE FIELD DT1 DT2 DT3 MIN_ORDER
        CASE on its own grid with the fixed steps DT1 = 2 DT2 = 4 DT3 (dt refined alone): asserts the
        observed temporal order log2(|f1 - f2| / |f2 - f3|) >= MIN_ORDER of FIELD (u: velocity,
        T: temperature; max norm of the differences of the final fields; u_rms, T_rms: their RMS)
  viscosity NY1 NY2 [NY3 ...] MIN_ORDER
        steady plane Couette flow with the viscosity nu (1 + a y), a = 2 ([physics] nu_t = linear,
        nu = 1): the exact profile u = U ln(1 + a y) / ln(1 + a); run to the steady state on NY1, NY2,
        ... cells across (square grids), asserts the observed order of the max error between
        consecutive grids >= MIN_ORDER. With --set grid.y_spacing=tanh (grid.y_gamma, default 2, both
        walls) the profile is compared at the tanh cell centres, and with implicit diffusion the log
        must show the Helmholtz solve of u smoothed by lines along y (among others): the line
        relaxation with the variable coefficient (nav_line_solve)
--set options pass on to every run (e.g. --set time.diffusion=implicit)."""
import json
import math
import re
import os
import struct
import subprocess
import sys


def run(navier, outdir, case, sets):
    cmd = [navier, "run"] + ([case] if case else []) + ["--output", outdir, "--set", "output.dump_final=true",
                                                        "--set", "output.fields_dt=0", "--set", "output.fields_every=0"]
    for s in sets:
        cmd += ["--set", s]
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if res.returncode != 0:
        print(res.stdout)
        sys.exit(f"FAIL: {' '.join(cmd)} exited {res.returncode}")
    with open(os.path.join(outdir, "summary.json")) as f:
        s = json.load(f)
    with open(os.path.join(outdir, "final_fields.bin"), "rb") as f:
        data = f.read()
    vals = struct.unpack(f"<{len(data) // 8}d", data)
    n = s["cells"]
    run.log = res.stdout
    return s, [vals[i * n:(i + 1) * n] for i in range(len(vals) // n)]


def channel(ny, extra, nx=4):
    """A 2D channel 0 <= y <= 1, periodic in x (nx cells), walls at y = 0 (rest) and y = 1 (U = 1)."""
    return [f"grid.nx={nx}", f"grid.ny={ny}", "grid.lx=1", "grid.ly=1", "boundary.x_low=periodic",
            "boundary.x_high=periodic", "boundary.y_low=wall", "boundary.y_high=wall",
            "boundary.y_high_velocity=1,0,0", "physics.nu=1", "physics.initial=rest",
            "pressure.tolerance=1e-12", "time.diffusion_tolerance=1e-12", "time.cfl=0.5"] + extra


def couette_exact(y, t, terms=2000):
    return y + sum(2 * (-1) ** n / (n * math.pi) * math.sin(n * math.pi * y) * math.exp(-(n * math.pi) ** 2 * t)
                   for n in range(1, terms + 1))


def couette_semidiscrete(ny, t):
    """The same series for the semi-discrete equations on ny cells (the time-exact solution of the
    scheme's spatial discretisation): w = u - U y solves dw/dt = A w, A the 3-point Laplacian with the
    wall ghosts w_{-1} = -w_0, w_ny = -w_{ny-1}; its eigenvectors sin(n pi y_j), eigenvalues
    -(4/h^2) sin^2(n pi h / 2), n = 1..ny, with w(0) = -U y_j expanded in them."""
    import numpy as np
    h = 1.0 / ny
    y = (np.arange(ny) + 0.5) * h
    A = (np.diag(-2.0 * np.ones(ny)) + np.diag(np.ones(ny - 1), 1) + np.diag(np.ones(ny - 1), -1)) / h ** 2
    A[0, 0] -= 1 / h ** 2
    A[-1, -1] -= 1 / h ** 2
    lam, V = np.linalg.eigh(A)
    w0 = -y
    return y + V @ (np.exp(lam * t) * (V.T @ w0))


def check_couette(navier, scratch, ny, t_end, dts, min_order, min_fourier, sets):
    h = 1.0 / ny
    errs = []
    ok = True
    for dt in dts:
        fo = dt / h ** 2
        s, f = run(navier, os.path.join(scratch, f"dt{dt}"), None,
                   channel(ny, [f"time.dt={dt!r}", f"time.end_time={t_end!r}", "time.steady_tol=0",
                                "time.diffusion=implicit"] + sets))
        u = f[0]
        ref = couette_semidiscrete(ny, s["time"])
        e = max(abs(u[j * 4 + i] - ref[j]) for j in range(ny) for i in range(4))
        ec = max(abs(u[j * 4 + i] - couette_exact((j + 0.5) * h, s["time"])) for j in range(ny) for i in range(4))
        errs.append(e)
        ok &= fo >= min_fourier and abs(s["time"] - t_end) < 1e-9
        print(f"couette: ny = {ny}, dt = {dt:g}, fourier nu dt/h^2 = {fo:.2f}, steps = {s['steps']}, "
              f"t = {s['time']:.6g}, max error against the series: {ec:.4e} (continuous), {e:.4e} (semi-discrete, "
              f"the temporal error)")
    for i in range(len(dts) - 1):
        order = math.log(errs[i] / errs[i + 1]) / math.log(dts[i] / dts[i + 1])
        good = order >= min_order
        ok &= good
        print(f"observed temporal order between dt = {dts[i]:g} and {dts[i + 1]:g}: {order:.3f} "
              f"(required >= {min_order})" + ("" if good else "  FAIL"))
    return ok


def check_shearwave(navier, scratch, ny, t_end, dts, min_order, min_fourier, sets):
    h = 1.0 / ny
    lam = 4 / h ** 2 * math.sin(math.pi * h / 2) ** 2  # the discrete eigenvalue of cos(pi y_j)
    errs = []
    ok = True
    for dt in dts:
        fo = dt / h ** 2
        s, f = run(navier, os.path.join(scratch, f"dt{dt}"), None,
                   [f"grid.nx=4", f"grid.ny={ny}", "grid.lx=1", "grid.ly=1", "boundary.x_low=periodic",
                    "boundary.x_high=periodic", "boundary.y_low=free_slip", "boundary.y_high=free_slip",
                    "boundary.y_high_velocity=0,0,0", "physics.nu=1", "physics.initial=shear_wave",
                    "pressure.tolerance=1e-12", "time.diffusion_tolerance=1e-12", f"time.dt={dt!r}",
                    f"time.end_time={t_end!r}", "time.steady_tol=0", "time.diffusion=implicit"] + sets)
        u, t = f[0], s["time"]
        e = max(abs(u[j * 4 + i] - math.cos(math.pi * (j + 0.5) * h) * math.exp(-lam * t)) for j in range(ny)
                for i in range(4))
        errs.append(e)
        ok &= fo >= min_fourier and abs(t - t_end) < 1e-9
        print(f"shear wave: ny = {ny}, dt = {dt:g}, fourier = {fo:.2f}, steps = {s['steps']}, t = {t:.6g}, max error "
              f"against the series: {s['validation']['velocity_error_max']:.4e} (continuous), {e:.4e} (semi-discrete)")
    for i in range(len(dts) - 1):
        order = math.log(errs[i] / errs[i + 1]) / math.log(dts[i] / dts[i + 1])
        good = order >= min_order
        ok &= good
        print(f"observed temporal order between dt = {dts[i]:g} and {dts[i + 1]:g}: {order:.3f} "
              f"(required >= {min_order})" + ("" if good else "  FAIL"))
    return ok


def check_dtorder(navier, scratch, case, field, dts, min_order, sets):
    rms = field.endswith("_rms")
    field = field[:-4] if rms else field
    finals = []
    for dt in dts:
        s, f = run(navier, os.path.join(scratch, f"dt{dt}"), case, [f"time.dt={dt!r}"] + sets)
        dim = s["dim"]
        finals.append(f[:dim] if field == "u" else [f[dim + 1]])
        print(f"{os.path.basename(case)}: dt = {dt:g}, steps = {s['steps']}, t = {s['time']:.6g}")
    def norm(i):
        d = [a - b for fa, fb in zip(finals[i], finals[i + 1]) for a, b in zip(fa, fb)]
        return math.sqrt(sum(x * x for x in d) / len(d)) if rms else max(abs(x) for x in d)
    diff = [norm(0), norm(1)]
    order = math.log(diff[0] / diff[1]) / math.log(dts[0] / dts[1])
    nm = "rms" if rms else "max"
    print(f"{nm} |{field}(dt) - {field}(dt/2)| = {diff[0]:.4e}, {nm} |{field}(dt/2) - {field}(dt/4)| = {diff[1]:.4e}: "
          f"observed temporal order {order:.3f} (required >= {min_order})")
    return order >= min_order


def set_value(sets, key, default):
    return next((x.split("=", 1)[1] for x in reversed(sets) if x.split("=", 1)[0] == key), default)


def check_viscosity(navier, scratch, nys, min_order, sets):
    a = 2.0
    errs = []
    tanh = set_value(sets, "grid.y_spacing", "uniform") == "tanh"
    gamma = float(set_value(sets, "grid.y_gamma", "2"))
    lines = tanh and set_value(sets, "time.diffusion", "explicit") == "implicit"
    ok = True
    for ny in nys:
        s, f = run(navier, os.path.join(scratch, f"ny{ny}"), None,
                   channel(ny, ["physics.nu_t=linear", "physics.nu_t_value=0", f"physics.nu_t_gradient=0,{a!r},0",
                                "time.steady_tol=1e-9", "time.end_time=0"] + sets, nx=ny))
        if tanh:  # the face coordinates of the tanh grid (both walls), then the cell centres
            yf = [0.5 * (1 + math.tanh(gamma * (2 * j / ny - 1)) / math.tanh(gamma)) for j in range(ny + 1)]
            yc = [0.5 * (yf[j] + yf[j + 1]) for j in range(ny)]
        else:
            yc = [(j + 0.5) / ny for j in range(ny)]
        u = f[0]
        e = max(abs(u[j * ny + i] - math.log(1 + a * yc[j]) / math.log(1 + a)) for j in range(ny) for i in range(ny))
        errs.append(e)
        info = ""
        if lines:
            hl = [x for x in run.log.splitlines() if x.startswith("implicit diffusion, u:")]
            good = bool(hl) and re.search(r"zebra lines along [xz]*y", hl[0]) is not None
            ok &= good
            info = f"; {hl[0] if hl else 'no implicit diffusion line in the log'}" + ("" if good else "  FAIL")
        print(f"variable viscosity couette: ny = {ny}{', tanh gamma %g' % gamma if tanh else ''}, {s['steps']} steps "
              f"to t = {s['time']:.4g} ({s['status']}), max error against U ln(1 + a y) / ln(1 + a) = {e:.4e}{info}")
    for i in range(len(nys) - 1):
        order = math.log(errs[i] / errs[i + 1]) / math.log(nys[i + 1] / nys[i])
        good = order >= min_order
        ok &= good
        print(f"observed order between ny = {nys[i]} and {nys[i + 1]}: {order:.3f} (required >= {min_order})"
              + ("" if good else "  FAIL"))
    return ok


def main():
    navier, scratch, check = sys.argv[1], sys.argv[2], sys.argv[3]
    args = sys.argv[4:]
    os.makedirs(scratch, exist_ok=True)
    sets = [a for a in args if "=" in a and "." in a.split("=")[0]]
    args = [a for a in args if a not in sets and a != "--set"]
    if check == "couette":
        ok = check_couette(navier, scratch, int(args[0]), float(args[1]), [float(a) for a in args[2:-2]],
                           float(args[-2]), float(args[-1]), sets)
    elif check == "shearwave":
        ok = check_shearwave(navier, scratch, int(args[0]), float(args[1]), [float(a) for a in args[2:-2]],
                             float(args[-2]), float(args[-1]), sets)
    elif check == "dtorder":
        ok = check_dtorder(navier, scratch, args[0], args[1], [float(a) for a in args[2:5]], float(args[5]), sets)
    elif check == "viscosity":
        ok = check_viscosity(navier, scratch, [int(a) for a in args[:-1]], float(args[-1]), sets)
    else:
        sys.exit(f"unknown check {check}")
    print("PASS" if ok else "FAIL")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
