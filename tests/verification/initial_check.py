#!/usr/bin/env python3
"""Checks of the initial conditions and turbulence monitors (solvers/nav_initial.h, nav_dissipation.h).

usage: initial_check.py CHECK ARGS
  tgv_init TEST_INITIAL CASE N     the taylor_green_3d start on N^3 cells: E_k = 1/8 (1e-13), max|div_h u| at
                                   round-off (<= 1e-12 A/h), the dissipation monitor equal to its discrete exact
                                   value (3/4) nu A^2 sinc^2(h/2) (rel. 1e-12; every difference of a sampled sine
                                   is the derivative times sinc(h/2)), within (h/2)^2 of the analytic 3 nu A^2/4,
                                   2 nu enstrophy = dissipation (1e-12), max |p| = the pressure formula at the first
                                   cell centre (1e-14)
  ranks MPIEXEC TEST_INITIAL CASE NOISE [k=v ...]   the case's initial field on 1 rank, on 4 ranks (automatic
                                   split) and on 4 ranks split 1,2,2 (seed 2 gives another field): the order-free checksums of u, v, w, p equal
                                   (bit-identical fields), the monitors equal to 1e-12, max|div_h u| <= 1e-12 (U ~ 1), and with NOISE > 0 and
                                   a zero base flow max|u_c| = NOISE (1e-14)
  tgv_run NAVIER CASE SCRATCH REF N T   run CASE on N^3 to T: E_k within 1 % of REF (tgv_re1600.csv, linear in t)
                                   at every monitor row; the dissipation monitor against -dE_k/dt (3-point
                                   differences of monitor.csv) within 2 % for t >= 0.5
  file NAVIER TEST_INITIAL CASE SCRATCH   initial = file: a same-grid checkpoint loads bit for bit (the
                                   checksum of test_initial equals the one computed here from the file's
                                   arrays); checkpoints of 16^3 and 32^3 Taylor-Green starts interpolated onto
                                   32^3/64^3 match the analytic start with an observed order in [1.8, 2.3], each within the
                                   trilinear error bound 3 h^2/8 (unit wavenumbers, A = 1); an
                                   HDF5 snapshot (when the build writes them) interpolated onto 64^3 within 2 %
  channel_power NAVIER CASE SCRATCH   the channel CASE laminar on 4 x 16 x 4 cells (tanh in y) at Re_b = 40, run to
                                   a steady state (steady_tol 1e-9): the dissipation monitor equals the power of
                                   the flow-rate forcing, forcing_gradient * bulk_velocity (1e-7), which holds only
                                   with the walls' half edge volumes of the monitor; the laminar and log-law
                                   starts (with noise) have bulk velocity 1 (1e-12)
  bad NAVIER CASE SCRATCH          bad initial inputs exit 2 with "FILE:LINE: key 'physics.<key>': ..."
"""
import csv
import glob
import math
import os
import re
import shutil
import struct
import subprocess
import sys

FAIL = []


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        FAIL.append(what)


def run(cmd, expect=0, timeout=900):
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
    if expect is not None and res.returncode != expect:
        print(res.stdout[-3000:])
        sys.exit(f"FAIL: {' '.join(cmd)} exited {res.returncode}, expected {expect}")
    return res


def measures(cmd):
    out = run(cmd).stdout
    line = [l for l in out.splitlines() if l.startswith("ek ")][-1].split()
    m = {"ek": float(line[1]), "div": float(line[3]), "eps": float(line[5]), "ens": float(line[7]),
         "umax": [float(x) for x in line[9:12]], "checksum": line[13], "pmax": float(line[15])}
    d = [l for l in out.splitlines() if l.startswith("maxdiff ")]
    if d:
        m["maxdiff"] = float(d[-1].split()[1])
    return m


def tgv_sets(n):
    return [f"grid.nx={n}", f"grid.ny={n}", f"grid.nz={n}"]


def tgv_init(test_initial, case, n):
    n = int(n)
    m = measures([test_initial, case] + tgv_sets(n))
    nu, A, h = 1 / 1600, 1.0, 2 * math.pi / n
    sinc2 = (math.sin(h / 2) / (h / 2)) ** 2
    exact_h, exact = 0.75 * nu * A * A * sinc2, 0.75 * nu * A * A
    print(f"TGV {n}^3 start: E_k {m['ek']:.15g}, max|div| {m['div']:.3e}, dissipation {m['eps']:.12e} "
          f"(discrete exact {exact_h:.12e}, analytic 3/(4 Re) = {exact:.12e}), 2 nu enstrophy {2 * nu * m['ens']:.12e}")
    check(abs(m["ek"] - 0.125) <= 1e-13, "E_k = 1/8 on the grid")
    check(m["div"] <= 1e-12 * A / h, "max|div_h u| at round-off")
    check(abs(m["eps"] / exact_h - 1) <= 1e-12, "dissipation = (3/4) nu A^2 sinc^2(h/2)")
    check(abs(m["eps"] / exact - 1) <= (h / 2) ** 2, "dissipation within (h/2)^2 of 3 nu A^2 / 4")
    check(abs(2 * nu * m["ens"] / m["eps"] - 1) <= 1e-12, "2 nu enstrophy = dissipation (solenoidal, periodic)")
    pmax = (2 * math.cos(h)) * (math.cos(h) + 2) / 16 * A * A  # at the first cell centre, x = y = z = h/2
    print(f"max |p| {m['pmax']:.15g}, A^2/16 (cos 2x + cos 2y)(cos 2z + 2) at the first centre {pmax:.15g}")
    check(abs(m["pmax"] - pmax) <= 1e-14, "the pressure of the start at the cell centres")


def ranks(mpiexec, test_initial, case, noise, *sets):
    noise = float(noise)
    sets = list(sets) + [f"physics.noise={noise}"]
    runs = [[test_initial, case] + sets,
            [mpiexec, "-n", "4", "--oversubscribe", test_initial, case] + sets,
            [mpiexec, "-n", "4", "--oversubscribe", test_initial, case] + sets + ["run.decomposition=1,2,2"]]
    ms = [measures(r) for r in runs]
    for label, m in zip(("1 rank", "4 ranks", "4 ranks 1,2,2"), ms):
        print(f"{label}: checksum {m['checksum']}, max|div| {m['div']:.3e}, max|u_c| {m['umax']}, E_k {m['ek']:.15g}")
    check(ms[0]["checksum"] == ms[1]["checksum"] == ms[2]["checksum"], "the same field bit for bit on 1 and 4 ranks")
    other = measures([test_initial, case] + sets + ["physics.seed=2"])
    check(other["checksum"] != ms[0]["checksum"], "another seed, another field")
    for key in ("eps", "ens"):
        rel = max(abs(m[key] / ms[0][key] - 1) for m in ms)
        check(rel <= 1e-12, f"monitor {key} the same on 1 and 4 ranks to round-off ({rel:.1e})")
    check(max(m["div"] for m in ms) <= 1e-12, "max|div_h u| at round-off (<= 1e-12; U ~ 1, h >= 1e-3)")
    if noise > 0 and any(s.startswith("physics.uniform_velocity=0,0,0") for s in sets):
        check(abs(max(ms[0]["umax"]) - noise) <= 1e-14, f"max |u'_c| = noise = {noise}")


def ref_table(path):
    rows = list(csv.DictReader(open(path)))
    return [float(r["t"]) for r in rows], [float(r["Ek"]) for r in rows]


def interp(t, xs, ys):
    i = max(0, min(len(xs) - 2, next((k for k in range(len(xs)) if xs[k] > t), len(xs)) - 1))
    a = (t - xs[i]) / (xs[i + 1] - xs[i])
    return ys[i] * (1 - a) + ys[i + 1] * a


def tgv_run(navier, case, scratch, ref, n, tend):
    out = os.path.join(scratch, "tgv_run")
    shutil.rmtree(out, ignore_errors=True)
    run([navier, "run", case, "--output", out, "--set", "output.monitor_every=1", "--set", f"time.end_time={tend}"]
        + sum((["--set", s] for s in tgv_sets(n)), []))
    mon = list(csv.DictReader(open(os.path.join(out, "monitor.csv"))))
    t = [float(r["time"]) for r in mon]
    E = [float(r["kinetic_energy"]) for r in mon]
    D = [float(r["dissipation"]) for r in mon]
    rt, rE = ref_table(ref)
    err = [abs(E[i] / interp(t[i], rt, rE) - 1) for i in range(len(t))]
    worst = max(range(len(t)), key=lambda i: err[i])
    print(f"TGV Re 1600 {n}^3 to t = {tend}: {len(t) - 1} steps, max |E_k/E_k,ref - 1| = {err[worst]:.3e} at t = "
          f"{t[worst]:.3f}; E_k({t[-1]:.3f}) = {E[-1]:.8f} (reference {interp(t[-1], rt, rE):.8f})")
    check(err[worst] <= 0.01, "E_k within 1 % of the spectral DNS")
    dev = []
    for i in range(1, len(t) - 1):
        if t[i] < 0.5:
            continue
        h1, h2 = t[i] - t[i - 1], t[i + 1] - t[i]  # the 3-point derivative on unequal steps (the last one is cut)
        rate = -(-h2 / (h1 * (h1 + h2)) * E[i - 1] + (h2 - h1) / (h1 * h2) * E[i] + h1 / (h2 * (h1 + h2)) * E[i + 1])
        dev.append((abs(D[i] / rate - 1), t[i], D[i], rate))
    w = max(dev)
    print(f"dissipation monitor against -dE_k/dt (t >= 0.5, {len(dev)} rows): max deviation {w[0]:.3e} at t = {w[1]:.3f}"
          f" ({w[2]:.6e} against {w[3]:.6e})")
    check(w[0] <= 0.02, "dissipation = -dE_k/dt within 2 %")


def channel_power(navier, case, scratch):
    out = os.path.join(scratch, "channel_power")
    shutil.rmtree(out, ignore_errors=True)
    sets = ["grid.nx=4", "grid.ny=16", "grid.nz=4", "physics.nu=0.05", "physics.noise=0", "physics.channel_profile=laminar",
            "time.end_time=0", "time.steady_tol=1e-9", "output.checkpoint_dt=0", "output.monitor_every=100"]
    run([navier, "run", case, "--output", out] + sum((["--set", x] for x in sets), []))
    last = list(csv.DictReader(open(os.path.join(out, "monitor.csv"))))[-1]
    G, U, D = float(last["forcing_gradient"]), float(last["bulk_velocity"]), float(last["dissipation"])
    print(f"steady laminar channel (tanh grid, Re_b = 40) at step {last['step']}: dissipation {D:.10e}, forcing "
          f"power G U_b = {G:.10e} x {U:.10e}: relative difference {D / (G * U) - 1:.3e}")
    check(abs(D / (G * U) - 1) <= 1e-7, "dissipation = forcing power at the steady state (wall edges, stretched grid)")
    for prof in ("laminar", "log_law"):  # the start's bulk velocity is amplitude = 1 on the grid
        o = os.path.join(scratch, "bulk_" + prof)
        shutil.rmtree(o, ignore_errors=True)
        run([navier, "run", case, "--output", o, "--set", "grid.nx=8", "--set", "grid.ny=32", "--set", "grid.nz=8",
             "--set", "time.max_steps=1", "--set", "output.checkpoint_dt=0", "--set", f"physics.channel_profile={prof}"])
        first = list(csv.DictReader(open(os.path.join(o, "monitor.csv"))))[0]
        ub = float(first["bulk_velocity"])
        print(f"channel start, {prof} profile with noise 0.3: bulk velocity {ub:.12f}")
        check(abs(ub - 1) <= 1e-12, f"the {prof} start has bulk velocity 1")


def mix(z):
    z = (z + 0x9e3779b97f4a7c15) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & 0xFFFFFFFFFFFFFFFF
    return z ^ (z >> 31)


def nck_checksum(path):
    """test_initial's checksum of the u, v, w, p arrays of a checkpoint (io/nav_checkpoint.h)."""
    data = open(path, "rb").read()
    head = data[:4096].split(b"\0")[0].decode()
    points = int(re.search(r"^points (\d+)$", head, re.M).group(1))
    prec = int(re.search(r"^precision_bytes (\d+)$", head, re.M).group(1))
    names = re.findall(r"^array (\S+) ", head, re.M)
    total = 0
    for q, name in enumerate(names):
        if name not in ("u", "v", "w", "p"):
            continue
        c = "uvwp".index(name)
        vals = struct.unpack(f"<{points}{'d' if prec == 8 else 'f'}", data[4096 + q * points * prec:4096 + (q + 1) * points * prec])
        for g, v in enumerate(vals):
            bits = struct.unpack("<Q", struct.pack("<d", v))[0]
            total = (total + mix(bits ^ mix(4 * g + c))) & 0xFFFFFFFFFFFFFFFF
    return f"{total:016x}"


def source_checkpoint(navier, case, scratch, n, extra=()):
    """A checkpoint of the Taylor-Green start on n^3 cells after one step of dt = 1e-12."""
    out = os.path.join(scratch, f"src{n}")
    shutil.rmtree(out, ignore_errors=True)
    run([navier, "run", case, "--output", out, "--set", "time.max_steps=1", "--set", "time.dt=1e-12",
         "--set", "time.end_time=0", "--set", "output.checkpoint_interval=1"] + list(extra)
        + sum((["--set", s] for s in tgv_sets(n)), []))
    return out, sorted(glob.glob(os.path.join(out, "checkpoint_*.nck")))[-1]


def file_check(navier, test_initial, case, scratch):
    os.makedirs(scratch, exist_ok=True)
    _, c32 = source_checkpoint(navier, case, scratch, 32)
    same = measures([test_initial, case] + tgv_sets(32) + ["physics.initial=file", f"physics.initial_file={c32}"])
    want = nck_checksum(c32)
    print(f"same grid 32^3: checksum of the loaded field {same['checksum']}, of the checkpoint's arrays {want}")
    check(same["checksum"] == want, "a same-grid checkpoint loads bit for bit")
    errs = {}
    for src, dst in ((16, 32), (32, 64), (16, 64)):
        ck = c32 if src == 32 else source_checkpoint(navier, case, scratch, src)[1]
        m = measures([test_initial, case] + tgv_sets(dst) + ["physics.initial=file", f"physics.initial_file={ck}",
                                                              "--vs", "physics.initial=taylor_green_3d",
                                                              "--vs", "physics.initial_file="])
        errs[(src, dst)] = m["maxdiff"]
        print(f"{src}^3 checkpoint onto {dst}^3: max |u - u_TGV| / max |u_TGV| = {m['maxdiff']:.4e}")
    order = math.log2(errs[(16, 64)] / errs[(32, 64)])
    print(f"observed order of the interpolation (16^3 and 32^3 onto 64^3): {order:.3f}")
    check(1.8 <= order <= 2.3, "trilinear interpolation of second order")
    for src in (16, 32):  # linear interpolation along d errs by at most h_d^2/8 max|d2u/dx_d^2| = h_d^2/8 A
        bound = 3 * (2 * math.pi / src) ** 2 / 8
        check(errs[(src, 64)] <= bound, f"{src}^3 onto 64^3 within the trilinear bound 3 h^2/8 = {bound:.4f}")
    h5dir = os.path.join(scratch, "h5")
    shutil.rmtree(h5dir, ignore_errors=True)
    res = run([navier, "run", case, "--output", h5dir, "--set", "time.max_steps=1", "--set", "time.dt=1e-12",
               "--set", "time.end_time=0", "--set", "output.fields_every=1", "--set", "output.format=hdf5"]
              + sum((["--set", s] for s in tgv_sets(32)), []), expect=None)
    snaps = sorted(glob.glob(os.path.join(h5dir, "fields_*.h5"))) if res.returncode == 0 else []
    if snaps:
        m = measures([test_initial, case] + tgv_sets(64) + ["physics.initial=file", f"physics.initial_file={snaps[0]}",
                                                             "--vs", "physics.initial=taylor_green_3d",
                                                             "--vs", "physics.initial_file="])
        print(f"HDF5 snapshot 32^3 (cell-centred) onto 64^3: max relative difference {m['maxdiff']:.4e}")
        check(m["maxdiff"] < 0.02, "an HDF5 snapshot interpolated within 2 %")
    else:
        print("no HDF5 snapshot written (a build without HDF5): the snapshot reader is not exercised")


def bad(navier, case, scratch):
    os.makedirs(scratch, exist_ok=True)
    _, c16 = source_checkpoint(navier, case, scratch, 16)
    data = bytearray(open(c16, "rb").read())
    i = data.find(b"\narray w ")
    data[i + 7:i + 8] = b"q"
    noW = os.path.join(scratch, "no_w.nck")
    open(noW, "wb").write(data)
    d2 = os.path.join(scratch, "two_d")
    shutil.rmtree(d2, ignore_errors=True)
    run([navier, "run", case, "--output", d2, "--set", "grid.dim=2", "--set", "grid.nz=1", "--set", "physics.initial=taylor_green",
         "--set", "grid.nx=16", "--set", "grid.ny=16", "--set", "time.max_steps=1", "--set", "output.checkpoint_interval=1"])
    c2d = sorted(glob.glob(os.path.join(d2, "checkpoint_*.nck")))[-1]
    cases = [
        ("physics.initial_file", ["physics.initial=file", f"physics.initial_file={c2d}"], "holds a 2D field"),
        ("physics.initial_file", ["physics.initial=file", f"physics.initial_file={noW}"], "no velocity component w"),
        ("physics.initial_file", ["physics.initial=file", "physics.initial_file=missing.nck"], "cannot open"),
        ("physics.initial_file", ["physics.initial=file", f"physics.initial_file={case}"], "not a navier checkpoint"),
        ("physics.initial_file", [f"physics.initial_file={c16}"], "initial = file goes with initial_file"),
        ("grid.lz", ["grid.lz=3"], "needs a cubic box"),
    ]
    for key, sets, why in cases:
        res = run([navier, "run", case, "--output", os.path.join(scratch, "bad")] + sum((["--set", s] for s in sets), []),
                  expect=None)
        msg = [l for l in res.stdout.splitlines() if f"key '{key}'" in l]
        ok = res.returncode == 2 and msg and re.search(r"(--set|\.ini):\d+: key '" + re.escape(key) + "': ", msg[0]) \
            and why in msg[0]
        print(f"  {' '.join(sets)}: exit {res.returncode}: {msg[0].strip() if msg else res.stdout[-300:]}")
        check(bool(ok), f"bad input ({why}) exits 2 naming {key}")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    what, args = sys.argv[1], sys.argv[2:]
    {"tgv_init": tgv_init, "ranks": ranks, "tgv_run": tgv_run, "file": file_check, "bad": bad,
     "channel_power": channel_power}[what](*args)
    if FAIL:
        sys.exit(f"initial_check {what}: {len(FAIL)} check(s) failed")
    print(f"initial_check {what}: passed")


if __name__ == "__main__":
    main()
