#!/usr/bin/env python3
"""Stretched grids: checks that print the figures they assert on (tests/CMakeLists.txt runs them).

usage: test_stretched.py NAVIER SCRATCH tgv CASE N1 N2 MIN_ORDER SEED
       test_stretched.py NAVIER SCRATCH mgfactor DIM N ASPECT MAX_FACTOR [BENCH ARGS ...]
       test_stretched.py NAVIER SCRATCH badkeys CASE
       test_stretched.py NAVIER SCRATCH tool NAVIER_GRID CASE
       test_stretched.py NAVIER SCRATCH spacing CASE

tgv: the Taylor-Green vortex of CASE (periodic x and y) on grids whose face coordinates are read from
  files (x_spacing = y_spacing = file): x_j = L (s + sum_k a_k (sin(2 pi k s + p_k) - sin p_k) / (2 pi k)),
  s = j / N, k = 1, 2, 3, with random amplitudes a_k in [-1/4, 1/4] and phases p_k (seeded, different in
  x and y): a randomly stretched periodic grid whose widths vary by a factor of about 2 to 3, smooth
  enough that a second-order scheme stays second order (cell-by-cell random widths make the MAC
  pressure gradient first order at the faces, whatever the solver). The observed order of the maximum
  velocity error between N1 and N2 (time step scaled with N) must be >= MIN_ORDER.
mgfactor: `navier bench poisson --dim DIM --n N --aspect ASPECT` (tanh in y, the largest cell aspect
  ratio ASPECT): the mean V-cycle convergence factor must be <= MAX_FACTOR.
badkeys: every bad spacing key and face file exits 2 with "FILE:LINE: key 'grid.<key>': reason" (the
  face file and its line named where the file is at fault) and computes nothing.
spacing: the face coordinates of the VTK snapshot (float32) of CASE on 20 x 12 cells, [x0, x0 + 2] x
  [y0, y0 + 1.5] with x0 = -0.5, y0 = 0.25, equal to the formulas of docs/case-file.md within 1e-6 for
  tanh (both, low, high) and geometric (both, low, high) spacings.
tool: tools/navier-grid writes the grid around a body (a uniform block of width 0.05 on [-1, 3] in
  [-10, 30], growing by 1.08 outside): the block's widths are 0.05, neighbouring widths differ by at
  most 10 %, and CASE runs 3 steps on it (x_spacing = file, nx = the count the tool printed)."""
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys


def faces(n, length, seed):
    rng = random.Random(seed)
    modes = [(k, rng.uniform(-0.25, 0.25), rng.uniform(0, 2 * math.pi)) for k in (1, 2, 3)]
    x = [length * (s + sum(a * (math.sin(2 * math.pi * k * s + p) - math.sin(p)) / (2 * math.pi * k)
                           for k, a, p in modes)) for s in (j / n for j in range(n + 1))]
    x[0], x[-1] = 0.0, length
    return x


def write_faces(path, x):
    with open(path, "w") as f:
        f.write("# face coordinates, one per line\n")
        f.writelines(f"{v!r}\n" for v in x)


def run(navier, args, out=None):
    cmd = [navier] + args + (["--output", out] if out else [])
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return res.returncode, res.stdout


def check_tgv(navier, scratch, case, n1, n2, min_order, seed):
    length = 2 * math.pi
    errs = []
    for n in (n1, n2):
        fx, fy = os.path.join(scratch, f"x{n}.txt"), os.path.join(scratch, f"y{n}.txt")
        x, y = faces(n, length, seed), faces(n, length, seed + 1)
        write_faces(fx, x)
        write_faces(fy, y)
        w = [b - a for a, b in zip(x, x[1:])] + [b - a for a, b in zip(y, y[1:])]
        out = os.path.join(scratch, f"n{n}")
        dt = 0.03125 * 32 / n
        rc, log = run(navier, ["run", case, "--set", f"grid.nx={n}", "--set", f"grid.ny={n}", "--set", f"time.dt={dt!r}",
                               "--set", "grid.x_spacing=file", "--set", f"grid.x_file={fx}",
                               "--set", "grid.y_spacing=file", "--set", f"grid.y_file={fy}"], out)
        if rc:
            print(log[-3000:])
            return False
        s = json.load(open(os.path.join(out, "summary.json")))
        e = s["validation"]["velocity_error_max"]
        print(f"n = {n}: widths {min(w):.4f} .. {max(w):.4f} (ratio {max(w) / min(w):.2f}), dt = {dt:.5g}, "
              f"max velocity error {e:.4e}, max|div u| {s['max_div']:.2e}")
        errs.append(e)
    order = math.log(errs[0] / errs[1]) / math.log(n2 / n1)
    print(f"observed order {order:.3f} (required >= {min_order})")
    return order >= min_order


def check_mgfactor(navier, dim, n, aspect, max_factor, extra):
    rc, log = run(navier, ["bench", "poisson", "--dim", str(dim), "--n", str(n), "--aspect", str(aspect),
                           "--tol", "1e-10", "--json"] + extra)
    try:  # the bench exits 1 without convergence, but still prints its figures
        r = json.loads(log.strip().splitlines()[-1])
    except (ValueError, IndexError):
        print(log[-3000:])
        return False
    print(f"{dim}D {n}^{dim}, tanh in y, gamma {r['gamma']:.4f}, aspect ratio {r['aspect']:.4g}, smoother "
          f"{r['smoother']}: {r['iterations']} V-cycles to {r['relres']:.2e}, factor {r['factor']:.4f} "
          f"(required <= {max_factor})")
    return r["converged"] and r["factor"] <= max_factor


def check_badkeys(navier, scratch, case):
    ok = True
    good = os.path.join(scratch, "good.txt")
    write_faces(good, [j / 16 for j in range(17)])

    def face_file(name, lines):
        p = os.path.join(scratch, name)
        open(p, "w").write("".join(f"{v}\n" for v in lines))
        return p

    short = face_file("short.txt", [j / 10 for j in range(11)])
    back = face_file("back.txt", [0, 0.1, 0.3, 0.2] + [j / 16 for j in range(4, 17)])
    extent = face_file("extent.txt", [j / 16 for j in range(16)] + [0.9999])
    junk = face_file("junk.txt", [0, 0.5, "abc"] + [j / 16 for j in range(3, 17)])
    cases = [  # --set arguments, the key named, the reason
        (["grid.y_spacing=cosine"], "grid.y_spacing", r"must be one of uniform, tanh, geometric, file"),
        (["grid.y_spacing=tanh", "grid.y_gamma=0"], "grid.y_gamma", r"must be > 0, got 0"),
        (["grid.x_spacing=tanh", "grid.x_gamma=-1"], "grid.x_gamma", r"must be > 0, got -1"),
        (["grid.y_spacing=geometric", "grid.y_ratio=0"], "grid.y_ratio", r"must be > 0, got 0"),
        (["grid.y_cluster=middle"], "grid.y_cluster", r"must be one of both, low, high"),
        (["grid.y_spacing=file"], "grid.y_spacing", r"spacing = file needs the face file y_file"),
        (["grid.y_file=" + good], "grid.y_file", r"y_file is given but y_spacing = uniform"),
        (["grid.y_spacing=file", "grid.y_file=" + short], "grid.y_file",
         re.escape(short) + r":11: 11 face coordinates, the grid needs ny \+ 1 = 17"),
        (["grid.y_spacing=file", "grid.y_file=" + back], "grid.y_file",
         re.escape(back) + r":4: coordinate 0.2 is not above the previous one 0.3"),
        (["grid.x_spacing=file", "grid.x_file=" + extent], "grid.x_file",
         re.escape(extent) + r":17: the last face 0.9999 must be the end of the domain x0 \+ lx = 1"),
        (["grid.x_spacing=file", "grid.x_file=" + junk], "grid.x_file",
         re.escape(junk) + r":3: expected one real number"),
        (["grid.y_spacing=file", "grid.y_file=" + os.path.join(scratch, "missing.txt")], "grid.y_file",
         r"cannot open the face file .*missing.txt"),
    ]
    for sets, key, pattern in cases:
        out = os.path.join(scratch, "out")
        shutil.rmtree(out, ignore_errors=True)
        args = ["run", case, "--set", "grid.nx=16", "--set", "grid.ny=16"]
        for s in sets:
            args += ["--set", s]
        rc, log = run(navier, args, out)
        line = next((l for l in log.splitlines() if f"key '{key}'" in l), "")
        this = rc == 2 and re.search(r"^--set:\d+: key '" + re.escape(key) + "': " + pattern, line) is not None \
            and not os.path.exists(os.path.join(out, "summary.json"))
        ok &= this
        print(f"{' '.join(sets)}: exit {rc}: {line.strip()!r}" + ("" if this else "  FAIL"))
    # the face file of a case file: relative to the case file's folder, errors at the case file's line
    folder = os.path.join(scratch, "casedir")
    os.makedirs(folder, exist_ok=True)
    face_file(os.path.join("casedir", "ok.txt"), [j / 16 for j in range(17)])
    face_file(os.path.join("casedir", "bad.txt"), [j / 16 for j in range(16)])
    for name, want in (("ok.txt", 0), ("bad.txt", 2)):
        ini = os.path.join(folder, f"case_{name}.ini")
        open(ini, "w").write(f"[grid]\nnx = 16\nny = 16\ny_spacing = file\ny_file = {name}\n[time]\nmax_steps = 2\n")
        rc, log = run(navier, ["run", ini], os.path.join(folder, "out_" + name))
        line = next((l for l in log.splitlines() if "key 'grid.y_file'" in l), "")
        this = rc == want and (want == 0 or line.startswith(f"{ini}:5: key 'grid.y_file': {folder}/{name}:16:"))
        ok &= this
        print(f"case file with y_file = {name}: exit {rc} {line.strip()!r}" + ("" if this else "  FAIL"))
    return ok


def expected_faces(kind, cluster, n, x0, length, gamma, ratio):
    if kind == "tanh":
        t = math.tanh(gamma)
        if cluster == "low":
            return [x0 + length * (1 + math.tanh(gamma * (j / n - 1)) / t) for j in range(n + 1)]
        if cluster == "high":
            return [x0 + length * math.tanh(gamma * j / n) / t for j in range(n + 1)]
        return [x0 + 0.5 * length * (1 + math.tanh(gamma * (2 * j / n - 1)) / t) for j in range(n + 1)]
    k = [i if cluster == "low" else n - 1 - i if cluster == "high" else min(i, n - 1 - i) for i in range(n)]
    w = [ratio ** q for q in k]
    x = [x0]
    for v in w:
        x.append(x[-1] + v * length / sum(w))
    return x


def check_spacing(navier, scratch, case):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    from navtest import read_vtk
    ok = True
    for kind, cluster in (("tanh", "both"), ("tanh", "low"), ("tanh", "high"), ("geometric", "both"),
                          ("geometric", "low"), ("geometric", "high")):
        out = os.path.join(scratch, f"{kind}_{cluster}")
        shutil.rmtree(out, ignore_errors=True)
        sets = {"grid.nx": "20", "grid.ny": "12", "grid.lx": "2", "grid.ly": "1.5", "grid.x0": "-0.5", "grid.y0": "0.25",
                "grid.x_spacing": kind, "grid.x_cluster": cluster, "grid.x_gamma": "2.2", "grid.x_ratio": "1.15",
                "grid.y_spacing": kind, "grid.y_cluster": cluster, "grid.y_gamma": "1.7", "grid.y_ratio": "0.9",
                "time.max_steps": "1", "output.format": "vtk", "output.fields_every": "1"}
        args = ["run", case]
        for k, v in sets.items():
            args += ["--set", f"{k}={v}"]
        rc, log = run(navier, args, out)
        if rc:
            print(log[-2000:])
            return False
        _, _, coords, _ = read_vtk(os.path.join(out, "fields_00000000.vtk"))
        wx = expected_faces(kind, cluster, 20, -0.5, 2, 2.2, 1.15)
        wy = expected_faces(kind, cluster, 12, 0.25, 1.5, 1.7, 0.9)
        err = max(max(abs(a - b) for a, b in zip(coords[0], wx)), max(abs(a - b) for a, b in zip(coords[1], wy)))
        this = len(coords[0]) == 21 and len(coords[1]) == 13 and err <= 1e-6
        ok &= this
        print(f"{kind} {cluster}: x widths {coords[0][1] - coords[0][0]:.4g} .. {coords[0][-1] - coords[0][-2]:.4g}, "
              f"max face error {err:.1e}" + ("" if this else "  FAIL"))
    return ok


def check_tool(navier, scratch, tool, case):
    path = os.path.join(scratch, "body.txt")
    res = subprocess.run([sys.executable, tool, "--domain", "-10,30", "--block", "-1,3", "--h", "0.05", "--ratio",
                          "1.08", "-o", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    print(res.stderr.strip())
    m = re.search(r"(\d+) cells", res.stderr)
    if res.returncode or not m:
        return False
    x = [float(l) for l in open(path) if l.strip() and not l.startswith("#")]
    w = [b - a for a, b in zip(x, x[1:])]
    block = [v for a, v in zip(x, w) if -1 - 1e-12 <= a < 3 - 1e-12]
    growth = max(max(p / q, q / p) for p, q in zip(w, w[1:]))
    ok = len(w) == int(m.group(1)) and x[0] == -10 and x[-1] == 30 and len(block) == 80 and \
        all(abs(v - 0.05) < 1e-12 for v in block) and growth <= 1.1
    print(f"{len(w)} cells, {len(block)} in the block (width 0.05), largest neighbour ratio {growth:.4f}")
    rc, log = run(navier, ["run", case, "--set", f"grid.nx={len(w)}", "--set", "grid.ny=8", "--set", "grid.lx=40",
                           "--set", "grid.x0=-10", "--set", "grid.x_spacing=file", "--set", f"grid.x_file={path}",
                           "--set", "time.max_steps=3"], os.path.join(scratch, "run"))
    print(f"navier run on it: exit {rc}")
    return ok and rc == 0


def main():
    navier, scratch, check = sys.argv[1:4]
    a = sys.argv[4:]
    os.makedirs(scratch, exist_ok=True)
    if check == "tgv":
        ok = check_tgv(navier, scratch, a[0], int(a[1]), int(a[2]), float(a[3]), int(a[4]))
    elif check == "mgfactor":
        ok = check_mgfactor(navier, int(a[0]), int(a[1]), float(a[2]), float(a[3]), a[4:])
    elif check == "spacing":
        ok = check_spacing(navier, scratch, a[0])
    elif check == "tool":
        ok = check_tool(navier, scratch, a[0], a[1])
    elif check == "badkeys":
        ok = check_badkeys(navier, scratch, a[0])
    else:
        sys.exit(f"unknown check {check}")
    print("PASS" if ok else "FAIL")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
