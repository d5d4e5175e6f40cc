#!/usr/bin/env python3
"""Checks of the k-omega SST model (physics/nav_turbulence.h) that run navier and assert on what it writes.

usage: rans_check.py NAVIER SCRATCH CHECK [args] [--set k=v ...]
  validate CASE REF      run the channel CASE to its steady state and assert, against Lee & Moser (2015)
                         (REF = 5200: leemoser2015_retau5200.csv; REF = 550: the LM2015_0550 rows of
                         channel_lowre_profiles.csv), U+ within 3 % at every tabulated point with
                         50 <= y+ <= 0.2 Re_tau and within 8 % at every other one with 1 <= y+ <= 0.9 Re_tau
                         (the run's U+ interpolated linearly in y+ at the reference y+, lower half),
                         U_b+ within 3 % of channel_bulk.csv, and C_f within +-6 % of Dean (1978),
                         C_f = 0.073 Re_b^(-1/4), Re_b = U_b 2h / nu of the run (the reference README's
                         band: Dean is a correlation of experiments with a few per cent scatter;
                         Lee & Moser 5200 is itself 5.4 % above it)
  frozen CASE TOL        run the channel CASE to its steady state and assert that its velocity is the
                         laminar profile of the viscosity nu + nu_t that the model left: at every face
                         between two cells the discrete total stress (nu + (nu_t,j + nu_t,j+1) / 2)
                         (u_j+1 - u_j) / (y_j+1 - y_j) equals tau_w(low) - G y_face to TOL tau_w
  gridconv CASE N1 N2 N3 LO HI  run CASE on ny = N1, N2, N3 (the same tanh mapping) and assert the
                         observed order log2(|f1 - f2| / |f2 - f3|) of U_b+ (= sqrt(2 / C_f)) is in
                         [LO, HI] (u_tau is exact here: the pressure gradient fixes it, tau_w = G h)
  decay DT MIN           a uniform k, omega in a periodic box at rest (no gradients: the model is the
                         ODE dk/dt = -beta* omega k, domega/dt = -beta2 omega^2) to t = 1 with dt = DT,
                         DT/2, DT/4 against the exact solution; assert the observed orders of the
                         errors of k and omega >= MIN (the linearised backward-Euler steps are first
                         order; omega's destruction is linearised about omega^n by Newton's rule)
  published CASE NY YMAX TOL  run the channel CASE on ny = NY cells to its steady state and assert that its U+
                         is the model's published one in the inner layer: within TOL % of the CFL3D SST-V
                         profile of the NASA Turbulence Modeling Resource (2D flat plate, 545 x 385 grid,
                         Re_theta ~ 10000; data/tmr_sstv_flatplate_uplus.csv, interpolated linearly in log y+)
                         at every Lee & Moser y+ in [1, YMAX] (the inner layer, where a channel and a
                         boundary layer share U+(y+)); prints how far that published SST profile itself
                         is from Lee & Moser (2015) there
  same3d CASE TOL        run the 2D channel CASE and the same channel in 3D (nz = 2, periodic z) to their
                         steady states and assert that the profiles (U+, k+, omega+, nu_t / nu) agree to
                         TOL relative (the model's 3D path: the z terms of S^2, the gradients, advection)
  sweeps CASE TOL         run CASE as given and with time.diffusion_sweeps = 0 (each implicit solve by multigrid
                         to diffusion_tolerance) to their steady states and assert that the profiles agree to
                         TOL relative (the increments solved by sweeps have the same steady state)
Every check prints the figures it asserts on."""
import csv
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from navtest import run  # noqa: E402  (navier run CASE --output DIR --set ...; returns summary.json)

REF = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data")


def ref_dir():
    """The reference data (data/ of the repository: copies of the shared reference set, data/README.md)."""
    return REF


def read_profile(outdir):
    with open(os.path.join(outdir, "channel_profile.csv")) as f:
        rows = list(csv.DictReader(f))
    return {k: [float(r[k]) for r in rows] for k in rows[0]}


def interp(x, xs, ys):
    for i in range(len(xs) - 1):
        if xs[i] <= x <= xs[i + 1]:
            return ys[i] + (ys[i + 1] - ys[i]) * (x - xs[i]) / (xs[i + 1] - xs[i])
    raise ValueError(f"{x} outside [{xs[0]}, {xs[-1]}]")


def steady_run(navier, scratch, case, sets):
    s = run(navier, case, scratch, sets)
    if "channel" in s:
        c = s["channel"]
        print(f"steady: {s['steady']['iterations']} iterations, {s['steady']['wall_s']:.2f} s; channel: u_tau "
              f"{c['u_tau']:.6f}, Re_tau {c['re_tau']:.2f}, C_f {c['cf']:.6e}, U_b+ {c['ub_plus']:.4f}, U_c+ {c['uc_plus']:.4f}")
    if not s.get("steady", {}).get("converged"):
        sys.exit(f"FAIL: the run did not reach steady_tol: {s.get('steady')}")
    return s


def check_validate(navier, scratch, case, ref, sets):
    s = steady_run(navier, scratch, case, sets)
    ch = s["channel"]
    p = read_profile(scratch)
    half = [i for i, y in enumerate(p["y"]) if y < p["y"][-1] / 2 + p["y"][0]]
    yp = [p["y_plus"][i] for i in half]
    up = [p["u_plus"][i] for i in half]
    d = ref_dir()
    rows = []
    if ref == "5200":
        with open(os.path.join(d, "leemoser2015_retau5200.csv")) as f:
            rows = [(float(r["y_plus"]), float(r["U_plus"])) for r in csv.DictReader(f)]
        case_name = "LM2015_5200"
    else:
        with open(os.path.join(d, "channel_lowre_profiles.csv")) as f:
            rows = [(float(r["y_plus"]), float(r["U_plus"])) for r in csv.DictReader(f) if r["case"] == "LM2015_0550"]
        case_name = "LM2015_0550"
    with open(os.path.join(d, "channel_bulk.csv")) as f:
        ub_ref = [float(r["Ub_plus"]) for r in csv.DictReader(f) if r["case"] == case_name][0]
    re_tau = ch["re_tau"]
    fails = []
    worst = {3: 0.0, 8: 0.0}
    print(f"{'y+':>9} {'U+ ref':>8} {'U+':>8} {'dev %':>7} band")
    for y, u in rows:
        if y < 1 or y > 0.9 * re_tau:
            continue
        band = 3 if 50 <= y <= 0.2 * re_tau else 8
        v = interp(y, yp, up)
        dev = 100 * (v - u) / u
        worst[band] = max(worst[band], abs(dev))
        print(f"{y:9.2f} {u:8.3f} {v:8.3f} {dev:7.2f} {band}%")
        if abs(dev) > band:
            fails.append(f"U+ at y+ = {y:.2f}: {v:.3f} vs {u:.3f} ({dev:+.2f} %, band {band} %)")
    ub_dev = 100 * (ch["ub_plus"] - ub_ref) / ub_ref
    re_b = ch["ub_plus"] * re_tau * 2
    dean = 0.073 * re_b ** -0.25
    cf_dev = 100 * (ch["cf"] - dean) / dean
    print(f"U+ worst deviation: {worst[3]:.2f} % in 50 <= y+ <= {0.2 * re_tau:.0f} (band 3 %), {worst[8]:.2f} % elsewhere "
          f"(band 8 %)")
    print(f"U_b+ {ch['ub_plus']:.4f} vs {ub_ref} ({ub_dev:+.2f} %, band 3 %); U_c+ {ch['uc_plus']:.4f}; C_f {ch['cf']:.6e} "
          f"vs Dean {dean:.6e} at Re_b {re_b:.0f} ({cf_dev:+.2f} %, band 6 %); steady after "
          f"{s['steady']['iterations']} iterations, {s['steady']['wall_s']:.2f} s")
    if abs(ub_dev) > 3:
        fails.append(f"U_b+ {ch['ub_plus']:.4f} vs {ub_ref} ({ub_dev:+.2f} %)")
    if abs(cf_dev) > 6:
        fails.append(f"C_f {ch['cf']:.6e} vs Dean {dean:.6e} ({cf_dev:+.2f} %)")
    if fails:
        sys.exit("FAIL: " + "; ".join(fails))
    print("PASS")


def check_frozen(navier, scratch, case, tol, sets):
    s = steady_run(navier, scratch, case, sets)
    p = read_profile(scratch)
    cfg = {}
    sec = None
    with open(os.path.join(scratch, "config.ini")) as f:
        for line in f:
            line = line.split(";")[0].split("#")[0].strip()
            if line.startswith("["):
                sec = line.strip("[]")
            elif "=" in line:
                k, v = (t.strip() for t in line.split("=", 1))
                cfg[f"{sec}.{k}"] = v
    nu, G = float(cfg["physics.nu"]), float(cfg["physics.forcing_value"])
    ut = s["channel"]["u_tau"]
    tau_low = s["walls"]["y_low"]["tau_w"]
    y, u, nut = p["y"], [v * ut for v in p["u_plus"]], [v * nu for v in p["nut_over_nu"]]
    # the face between cells j and j+1 lies where the grid puts it: y_f from the cell centres and widths
    # (centre_j = face_j + w_j / 2), rebuilt from the centres: face_0 = 0, face_j+1 = 2 centre_j - face_j
    faces = [0.0]
    for c in y:
        faces.append(2 * c - faces[-1])
    worst = 0.0
    for j in range(len(y) - 1):
        stress = (nu + 0.5 * (nut[j] + nut[j + 1])) * (u[j + 1] - u[j]) / (y[j + 1] - y[j])
        exact = tau_low - G * faces[j + 1]
        worst = max(worst, abs(stress - exact) / tau_low)
    print(f"max |stress - (tau_w - G y)| / tau_w over {len(y) - 1} faces: {worst:.3e} (bound {tol:g}); nu_t / nu up to "
          f"{max(p['nut_over_nu']):.2f}")
    if not worst <= tol:
        sys.exit("FAIL: the velocity is not the laminar profile of nu + nu_t")
    print("PASS")


def check_gridconv(navier, scratch, case, ns, lo, hi, sets):
    f = []
    for n in ns:
        s = steady_run(navier, os.path.join(scratch, f"ny{n}"), case, sets + [f"grid.ny={n}"])
        f.append(s["channel"]["ub_plus"])
        print(f"ny {n}: U_b+ {f[-1]:.6f}, u_tau {s['channel']['u_tau']:.9f}, C_f {s['channel']['cf']:.6e}, "
              f"{s['steady']['iterations']} iterations")
    order = math.log2(abs(f[0] - f[1]) / abs(f[1] - f[2]))
    rich = f[2] + (f[2] - f[1]) / (2 ** order - 1)
    print(f"observed order of U_b+: {order:.2f} (band [{lo}, {hi}]); Richardson estimate {rich:.5f}, finest grid "
          f"error {100 * abs(f[2] - rich) / rich:.3f} %")
    if not lo <= order <= hi:
        sys.exit("FAIL: observed order out of band")
    print("PASS")


def check_decay(navier, scratch, dt, lo, sets):
    k0, w0, T = 0.01, 5.0, 1.0
    beta, bstar = 0.0828, 0.09
    g = 1 + beta * w0 * T
    w_exact, k_exact = w0 / g, k0 * g ** (-bstar / beta)
    ek, ew = [], []
    for m in (1, 2, 4):
        s = run(navier, None, os.path.join(scratch, f"dt{m}"), [
            "grid.nx=4", "grid.ny=4", "boundary.x_low=periodic", "boundary.x_high=periodic", "boundary.y_low=periodic",
            "boundary.y_high=periodic", "boundary.y_high_velocity=0,0,0", "physics.forcing=pressure_gradient",
            "physics.forcing_value=0", "physics.nu=0.001", "turbulence.model=k_omega_sst",
            f"turbulence.k_initial={k0}", f"turbulence.omega_initial={w0}", f"time.dt={dt / m}", f"time.end_time={T}",
            "time.steady_tol=0", "time.max_steps=0", "output.monitor_every=1"] + sets)
        t = s["turbulence"]
        ek.append(abs(t["k_max"] - k_exact) / k_exact)
        ew.append(abs(t["omega_max"] - w_exact) / w_exact)
        print(f"dt {dt / m:.4g}: k {t['k_max']:.10e} (exact {k_exact:.10e}, rel. error {ek[-1]:.3e}), omega "
              f"{t['omega_max']:.10e} (exact {w_exact:.10e}, {ew[-1]:.3e})")
    orders = [math.log2(ek[i] / ek[i + 1]) for i in range(2)]
    worders = [math.log2(ew[i] / ew[i + 1]) for i in range(2)]
    print(f"observed order of k: {orders[0]:.3f}, {orders[1]:.3f}; of omega: {worders[0]:.3f}, {worders[1]:.3f} "
          f"(min {lo})")
    if min(orders + worders) < lo:
        sys.exit("FAIL: observed order below the minimum")
    print("PASS")


def read_tmr_sstv():
    """log10(y+), U+ of data/tmr_sstv_flatplate_uplus.csv (its '#' lines are provenance)."""
    with open(os.path.join(ref_dir(), "tmr_sstv_flatplate_uplus.csv")) as f:
        rows = list(csv.DictReader(l for l in f if not l.startswith("#")))
    return [float(r["log10_y_plus"]) for r in rows], [float(r["u_plus"]) for r in rows]


def check_published(navier, scratch, case, ny, ymax, tol, sets):
    steady_run(navier, scratch, case, sets + [f"grid.ny={ny}"])
    p = read_profile(scratch)
    half = [i for i, y in enumerate(p["y"]) if y < p["y"][-1] / 2 + p["y"][0]]
    yp, up = [p["y_plus"][i] for i in half], [p["u_plus"][i] for i in half]
    lt, ut = read_tmr_sstv()
    with open(os.path.join(ref_dir(), "leemoser2015_retau5200.csv")) as f:
        lm = [(float(r["y_plus"]), float(r["U_plus"])) for r in csv.DictReader(f)]
    worst, fails = 0.0, []
    print(f"{'y+':>8} {'U+ LM':>7} {'U+ SST':>7} {'SST-LM %':>8} {'U+ run':>7} {'run-SST %':>9}")
    for y, u in lm:
        if y < 1 or y > ymax:
            continue
        t = interp(math.log10(y), lt, ut)
        v = interp(y, yp, up)
        dev = 100 * (v - t) / t
        worst = max(worst, abs(dev))
        print(f"{y:8.2f} {u:7.3f} {t:7.3f} {100 * (t - u) / u:8.2f} {v:7.3f} {dev:9.2f}")
        if abs(dev) > tol:
            fails.append(f"U+ at y+ = {y:.2f}: {v:.3f} vs the published SST {t:.3f} ({dev:+.2f} %)")
    print(f"worst deviation from the published SST-V profile for 1 <= y+ <= {ymax:g}: {worst:.2f} % (bound {tol:g} %)")
    if fails:
        sys.exit("FAIL: " + "; ".join(fails))
    print("PASS")


def compare_profiles(da, db, tol, what):
    a, b = read_profile(da), read_profile(db)
    worst = 0.0
    for key in ("u_plus", "k_plus", "omega_plus", "nut_over_nu"):
        scale = max(abs(v) for v in a[key])
        d = max(abs(x - y) for x, y in zip(a[key], b[key])) / scale
        worst = max(worst, d)
        print(f"{key}: max |{what}| / max = {d:.3e}")
    if not worst <= tol:
        sys.exit(f"FAIL: {what} is {worst:.3e} (bound {tol:g})")
    print("PASS")


def check_same3d(navier, scratch, case, tol, sets):
    steady_run(navier, os.path.join(scratch, "2d"), case, sets)
    steady_run(navier, os.path.join(scratch, "3d"), case, sets + ["grid.dim=3", "grid.nz=2", "grid.lz=64",
                                                                  "boundary.z_low=periodic", "boundary.z_high=periodic"])
    compare_profiles(os.path.join(scratch, "2d"), os.path.join(scratch, "3d"), tol, "3D - 2D")


def check_sweeps(navier, scratch, case, tol, sets):
    steady_run(navier, os.path.join(scratch, "sweeps"), case, sets)
    steady_run(navier, os.path.join(scratch, "mg"), case, sets + ["time.diffusion_sweeps=0"])
    compare_profiles(os.path.join(scratch, "mg"), os.path.join(scratch, "sweeps"), tol, "sweeps - multigrid")


def main():
    a = sys.argv[1:]
    sets = []
    while "--set" in a:
        i = a.index("--set")
        sets.append(a[i + 1])
        del a[i:i + 2]
    navier, scratch, check, args = a[0], a[1], a[2], a[3:]
    os.makedirs(scratch, exist_ok=True)
    if check == "validate":
        check_validate(navier, scratch, args[0], args[1], sets)
    elif check == "frozen":
        check_frozen(navier, scratch, args[0], float(args[1]), sets)
    elif check == "gridconv":
        check_gridconv(navier, scratch, args[0], [int(n) for n in args[1:4]], float(args[4]), float(args[5]), sets)
    elif check == "published":
        check_published(navier, scratch, args[0], int(args[1]), float(args[2]), float(args[3]), sets)
    elif check == "same3d":
        check_same3d(navier, scratch, args[0], float(args[1]), sets)
    elif check == "sweeps":
        check_sweeps(navier, scratch, args[0], float(args[1]), sets)
    elif check == "decay":
        check_decay(navier, scratch, float(args[0]), float(args[1]), sets)
    else:
        sys.exit(f"unknown check {check}")


if __name__ == "__main__":
    main()
