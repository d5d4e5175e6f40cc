#!/usr/bin/env python3
"""Checks of the immersed bodies (physics/bodies/nav_body.h); each subcommand fails (exit 1) with a message.

usage: body_checks.py NAVIER SCRATCH CHECK [ARGS]
  errors                     bad [body.N] input exits 2 naming FILE:LINE and the key; nothing computed
  rest                       a body at rest in fluid at rest (2D circle and box in a closed box, 3D sphere and
                             cylinder): the
                             velocity stays 0 and the force coefficients are 0 (to 1e-12)
  stream                     a body whose surface moves with a uniform stream (2D circle, 3D sphere), and a
                             circle translating with the stream (prescribed motion): the stream stays uniform
                             and the force is 0 (to 1e-10)
  rotate                     a disc rotating about its centre in a closed box at rest (prescribed rotation):
                             the no-slip error against its rotating surface <= 0.03 (surface speed 0.3), the
                             force 0 by symmetry (1e-10), max|div u| <= 1e-10
  implicit TOL               a circle in the lid-driven cavity (Re 100, 48^2, t = 10) with explicit and with
                             implicit diffusion (dt about twice as large): cd within TOL (relative), max|div u|
                             <= 1e-10 in both
  divergence TOL             max|div u| of every step of a cylinder run <= TOL
  mpi MPIEXEC SPLIT TOL      the cylinder (SPLIT px,py,1) or a sphere (px,py,pz > 1) on those ranks against one rank: final fields and
                             the cd, cl column of every step within TOL (relative)
  files STL                  bodies from files against the built-in shapes they approximate: a 256-gon `points`
                             file of radius 0.5 against the circle (2D stream), the STL sphere of diameter 1
                             (data/sphere_d1.stl: facets within 0.45 % of the radius) against the sphere (3D
                             stream); cd within 2e-3 and 3e-2 (relative)
  restart                    N steps straight against N/2 + a restart of N/2: final fields and forces bit for bit
  (rest, stream, rotate, implicit, mpi, restart: further --set after '--', e.g. bodies.forcing=sharp)
  order CASE H1 H2 H3 LO LS [CREF:TOL]  Cd (the last monitor row) and the no-slip error of CASE on three grids of block
                             widths H1 > H2 > H3 (ratio 2; uniform in [-0.8, 2] x [-0.8, 0.8], growing by 1.05
                             to [-4, 8] x [-4, 4]; tools/navier-grid), one time step for all (pass time.dt
                             after '--'): prints the observed orders; fails when Cd does not converge
                             monotonically at order >= LO or the max no-slip error's order on the two finer
                             grids is below LS, or (CREF:TOL given) when Cd on the finest grid is more than
                             TOL (relative) off CREF
  bands CASE KEY=LO:HI ...   run CASE (extra --set after '--') and check summary.json bodies[0] values (or,
                             for a key bodies[0] lacks, the summary's own: max_div, max_abs_p)
  drag CASE REF RE T0 T1 TOL impulsive start: cd(t) of monitor.csv (linear between rows) against the rows of
                             Reynolds number RE of REF (data/kl1995_cylinder_drag.csv: columns re, t_UD, cd)
                             for T0 <= t <= T1: max |cd - ref| / ref <= TOL
"""
import csv
import json
import math
import os
import shutil
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GRIDTOOL = os.path.join(HERE, "..", "..", "tools", "navier-grid")
ENV = dict(os.environ, OMP_WAIT_POLICY="passive", OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def fail(msg):
    print("FAIL " + msg)
    sys.exit(1)


def run(navier, case, out, sets=(), launch=(), expect=0):
    shutil.rmtree(out, ignore_errors=True)
    cmd = list(launch) + [navier, "run", case, "--output", out]
    for s in sets:
        cmd += ["--set", s]
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV, timeout=3600)
    if res.returncode != expect:
        print(res.stdout[-3000:], res.stderr[-3000:])
        fail(f"{' '.join(cmd)} exited {res.returncode}, expected {expect}")
    return res


def summary(out):
    return json.load(open(os.path.join(out, "summary.json")))


def monitor(out):
    with open(os.path.join(out, "monitor.csv")) as f:
        return list(csv.DictReader(f))


def doubles(path):
    data = open(path, "rb").read()
    return struct.unpack(f"<{len(data) // 8}d", data)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def channel2d(scratch, name, nx=48, ny=32, body="", extra=""):
    """A 2D stream u = 1 along x through [-3, 9] x [-4, 4] (inflow, outflow, free-slip sides)."""
    return write(os.path.join(scratch, name + ".ini"), f"""[run]
name = {name}
[grid]
nx = {nx}
ny = {ny}
lx = 12
ly = 8
x0 = -3
y0 = -4
[time]
cfl = 0.5
max_steps = 20
steady_tol = 0
[physics]
nu = 0.025
initial = uniform
uniform_velocity = 1,0,0
[boundary]
x_low = inflow
x_low_velocity = 1,0,0
x_high = outflow
y_low = free_slip
y_high = free_slip
y_high_velocity = 0,0,0
[pressure]
solver = mg
tolerance = 1e-12
[output]
monitor_every = 1
dump_final = true
{extra}
[body.1]
kind = circle
center = 0.1,0.05,0
radius = 0.5
name = cyl
{body}
""")


def sphere3d(scratch, name, body=""):
    """A 3D stream u = 1 along x through a periodic box in y and z past a sphere."""
    return write(os.path.join(scratch, name + ".ini"), f"""[grid]
dim = 3
nx = 24
ny = 12
nz = 12
lx = 4
ly = 2
lz = 2
[time]
cfl = 0.5
max_steps = 10
steady_tol = 0
[physics]
nu = 0.02
initial = uniform
uniform_velocity = 1,0,0
[boundary]
x_low = inflow
x_low_velocity = 1,0,0
x_high = outflow
y_low = periodic
y_high = periodic
y_high_velocity = 0,0,0
z_low = periodic
z_high = periodic
[pressure]
solver = mg
tolerance = 1e-12
[output]
monitor_every = 1
dump_final = true
[forces]
reference_area = 0.19634954
[body.1]
kind = sphere
center = 1.3,1.05,0.95
radius = 0.5
{body}
""")


def check_errors(navier, scratch):
    base = """[grid]
nx = 16
ny = 16
lx = 4
ly = 4
[time]
max_steps = 1
"""
    # (case text, the line the error names (its text, the last such line), key or "" for a section, reason)
    cases = [
        ("[body.1]\nkind = circle\ncenter = 2,2,0\nradius = 0\n", "radius = 0", "body.1.radius", "must be > 0"),
        ("[body.1]\nkind = circle\ncenter = 3.8,2,0\nradius = 0.5\n", "center = 3.8,2,0", "body.1.center",
         "not inside the domain"),
        ("[body.1]\nkind = disc\n", "kind = disc", "body.1.kind", "must be one of"),
        ("[body.1]\nkind = sphere\ncenter = 2,2,2\n", "kind = sphere", "body.1.kind", "needs dim = 3"),
        ("[body.1]\nkind = circle\ncenter = 2,2,0\n[body.3]\nkind = circle\ncenter = 1,1,0\nradius = 0.2\n",
         "kind = circle", "body.3.kind", "without gaps"),
        ("[body.1]\ncenter = 2,2,0\n", "center = 2,2,0", "body.1.center", "has no kind"),
        ("[body.1]\nkind = circle\ncenter = 2,2,0\nradiu = 1\n", "radiu = 1", "body.1.radiu", "unknown key"),
        ("[body.1]\nkind = points\nfile = missing.txt\ncenter = 2,2,0\n", "file = missing.txt", "body.1.file",
         "missing.txt"),
        ("[body.1]\nkind = points\nfile = two.txt\ncenter = 2,2,0\n", "file = two.txt", "body.1.file",
         "at least 3 distinct points"),
        ("[grid]\ndim = 3\nnz = 16\nlz = 4\n[body.1]\nkind = stl\nfile = cut.stl\ncenter = 2,2,2\n", "file = cut.stl",
         "body.1.file", "cut.stl"),
        ("[body.1]\nkind = box\nsize = 1,-1,1\ncenter = 2,2,0\n", "size = 1,-1,1", "body.1.size", "edge lengths"),
        ("[body.1]\nkind = circle\ncenter = 2,2,0\nname = a b\n", "name = a b", "body.1.name", "A-Z"),
        ("[body.1]\nkind = circle\ncenter = 2,2,0\nfile = x.txt\n", "file = x.txt", "body.1.file", "takes no file"),
        ("[body.9]\nkind = circle\n", "[body.9]", "", "numbered 1 to 8"),
        ("[body]\nkind = circle\n", "[body]", "", "numbered sections"),
        ("[run]\nmethod = artificial_compressibility\n[body.1]\nkind = circle\ncenter = 2,2,0\n", "kind = circle",
         "body.1.kind", "method = projection"),
        ("[forces]\nreference_length = 0\n", "reference_length = 0", "forces.reference_length", "must be > 0"),
        ("[body.1]\nkind = circle\ncenter = 2,2,0\nmotion_velocity = 1,0,0\n", "motion_velocity = 1,0,0",
         "body.1.motion_velocity", "needs time.end_time"),
        ("[time]\nend_time = 3\n[body.1]\nkind = circle\ncenter = 2,2,0\nmotion_velocity = 1,0,0\n",
         "motion_velocity = 1,0,0", "body.1.motion_velocity", "over its motion"),
    ]
    write(os.path.join(scratch, "two.txt"), "0,0\n1,0\n")
    write(os.path.join(scratch, "cut.stl"), "solid cut\n  facet normal 0 0 1\n    outer loop\n      vertex 0 0 0\n")
    for i, (text, needle, key, why) in enumerate(cases):
        path = write(os.path.join(scratch, f"bad{i}.ini"), base + text)
        line = [n + 1 for n, t in enumerate((base + text).split("\n")) if t == needle][-1]
        out = os.path.join(scratch, f"bad{i}")
        res = run(navier, path, out, expect=2)
        want = f"{path}:{line}: " + (f"key '{key}'" if key else "section")
        if want not in res.stderr or why not in res.stderr:
            fail(f"case {i}: stderr lacks '{want}' ... '{why}':\n{res.stderr}")
        if os.path.exists(os.path.join(out, "monitor.csv")):
            fail(f"case {i}: something was computed")
        print(f"ok   exit 2: {want} ... {why}")


def coef_columns(rows):
    return [k for k in rows[0] if k.startswith(("cd_", "cl_", "cs_"))]


def check_rest(navier, scratch, extra=()):
    box2 = write(os.path.join(scratch, "rest2.ini"), """[grid]
nx = 32
ny = 32
[time]
dt = 0.01
max_steps = 20
steady_tol = 0
[physics]
nu = 0.01
[boundary]
y_high_velocity = 0,0,0
[output]
monitor_every = 1
dump_final = true
[body.1]
kind = circle
center = 0.5,0.45,0
radius = 0.2
[body.2]
kind = box
center = 0.2,0.8,0
size = 0.1,0.15,0
angle = 30
""")
    box3 = write(os.path.join(scratch, "rest3.ini"), """[grid]
dim = 3
nx = 16
ny = 16
nz = 16
[time]
dt = 0.01
max_steps = 10
steady_tol = 0
[physics]
nu = 0.01
[boundary]
y_high_velocity = 0,0,0
[output]
monitor_every = 1
dump_final = true
[body.1]
kind = sphere
center = 0.5,0.5,0.45
radius = 0.25
[body.2]
kind = cylinder
center = 0.15,0.85,0
radius = 0.08
""")
    for case in (box2, box3):
        out = case[:-4]
        run(navier, case, out, sets=extra)
        umax = max(abs(v) for v in doubles(os.path.join(out, "final_fields.bin")))
        rows = monitor(out)
        cmax = max(abs(float(r[k])) for r in rows for k in coef_columns(rows))
        print(f"{os.path.basename(case)}: max |u|, |p| = {umax:.3e}, max |coefficient| = {cmax:.3e}")
        if not (umax <= 1e-12 and cmax <= 1e-12):
            fail("a body at rest in fluid at rest did not stay at rest")


def check_stream(navier, scratch, extra=()):
    c2 = channel2d(scratch, "stream2", body="velocity = 1,0,0")
    c3 = sphere3d(scratch, "stream3", "velocity = 1,0,0")
    # a body carried by the stream: a prescribed translation at the stream's speed (the tags move each step)
    c4 = channel2d(scratch, "stream2_carried", body="motion_velocity = 1,0,0")
    for case, sets in ((c2, []), (c3, []), (c4, ["time.end_time=2", "time.max_steps=0"])):
        out = case[:-4]
        run(navier, case, out, sets=sets + list(extra))
        s = summary(out)
        vals = doubles(os.path.join(out, "final_fields.bin"))
        n = s["cells"]
        du = max(abs(v - 1) for v in vals[:n])
        dv = max(abs(v) for v in vals[n:(s["dim"]) * n])
        rows = monitor(out)
        cmax = max(abs(float(r[k])) for r in rows for k in coef_columns(rows))
        print(f"{os.path.basename(case)}: max |u - 1| = {du:.3e}, max |v|, |w| = {dv:.3e}, max |coefficient| = {cmax:.3e}")
        if not (du <= 1e-10 and dv <= 1e-10 and cmax <= 1e-10):
            fail("a body moving with the stream disturbed it or felt a force")


def check_rotate(navier, scratch, extra=()):
    case = write(os.path.join(scratch, "rotate.ini"), """[grid]
nx = 64
ny = 64
lx = 2
ly = 2
x0 = -1
y0 = -1
[time]
cfl = 0.4
end_time = 2
steady_tol = 0
[physics]
nu = 0.01
[boundary]
y_high_velocity = 0,0,0
[pressure]
tolerance = 1e-10
[output]
monitor_every = 20
[body.1]
kind = circle
name = disc
center = 0,0,0
radius = 0.3
rotation_rate = 57.2957795130823
""")
    out = case[:-4]
    run(navier, case, out, sets=extra)
    b = summary(out)["bodies"][0]
    rows = monitor(out)
    cmax = max(abs(float(r[k])) for r in rows for k in coef_columns(rows))
    div = max(float(r["max_div"]) for r in rows)
    print(f"disc of radius 0.3 rotating at 1 rad per unit time in a box at rest, t = 2: no-slip error max "
          f"{b['slip_max']:.3e} rms {b['slip_rms']:.3e} (surface speed 0.3; bound 0.03), max |coefficient| {cmax:.2e} "
          f"(bound 1e-10, symmetry), max|div u| {div:.1e}")
    if not (b["slip_max"] <= 0.03 and cmax <= 1e-10 and div <= 1e-10):
        fail("the rotating disc does not drive the fluid with its surface velocity, or feels a force")


def check_divergence(navier, scratch, tol):
    case = channel2d(scratch, "div", extra="")
    out = case[:-4]
    run(navier, case, out, sets=["time.max_steps=40"])
    worst = max(float(r["max_div"]) for r in monitor(out))
    print(f"max|div u| over 40 steps with a cylinder: {worst:.3e} (bound {tol})")
    if not worst <= tol:
        fail("divergence above the bound")


def check_files(navier, scratch, stl):
    """Bodies from files against the built-in shapes they approximate."""
    n = 256
    write(os.path.join(scratch, "circle.txt"), "".join(
        f"{0.5 * math.cos(2 * math.pi * k / n):.17g},{0.5 * math.sin(2 * math.pi * k / n):.17g}\n" for k in range(n)))

    def swap(path, old, new):  # the same case with the body's kind line replaced
        with open(path) as f:
            text = f.read()
        return write(path, text.replace(old, new, 1))

    pairs = [("2D circle, 256-gon points file", channel2d(scratch, "ref2"),
              swap(channel2d(scratch, "poly2"), "kind = circle", "kind = points\nfile = circle.txt"), 2e-3),
             ("3D sphere, STL of 1280 triangles", sphere3d(scratch, "ref3"),
              swap(sphere3d(scratch, "stl3"), "kind = sphere", f"kind = stl\nfile = {os.path.abspath(stl)}"), 3e-2)]
    for what, ref, other, tol in pairs:
        cds = []
        for case in (ref, other):
            run(navier, case, case[:-4])
            cds.append(float(monitor(case[:-4])[-1][coef_columns(monitor(case[:-4]))[0]]))
        rel = abs(cds[1] - cds[0]) / abs(cds[0])
        print(f"{what}: cd {cds[1]:.6f} against {cds[0]:.6f} of the built-in shape, relative {rel:.2e} (bound {tol})")
        if not rel <= tol:
            fail(f"{what}: cd differs by {rel:.2e}")


def check_implicit(navier, scratch, tol, extra=()):
    case = write(os.path.join(scratch, "implicit.ini"), """[grid]
nx = 48
ny = 48
[time]
end_time = 10
steady_tol = 0
cfl = 0.5
[physics]
nu = 0.01
[output]
monitor_every = 50
[body.1]
kind = circle
center = 0.5,0.45,0
radius = 0.15
""")
    cd = {}
    for mode in ("explicit", "implicit"):
        out = os.path.join(scratch, mode)
        run(navier, case, out, sets=[f"time.diffusion={mode}"] + list(extra))
        rows = monitor(out)
        cd[mode] = (float(rows[-1]["cd_body1"]), float(rows[-1]["cl_body1"]), max(float(r["max_div"]) for r in rows))
        print(f"{mode}: {len(rows)} rows, cd {cd[mode][0]:.5f}, cl {cd[mode][1]:.5f}, max|div u| {cd[mode][2]:.2e}")
    rel = abs(cd["implicit"][0] - cd["explicit"][0]) / abs(cd["explicit"][0])
    print(f"cd implicit vs explicit diffusion: {100 * rel:.2f} % (bound {100 * tol:.0f} %)")
    if not (rel <= tol and max(v[2] for v in cd.values()) <= 1e-10):
        fail("implicit and explicit diffusion disagree with a body, or the divergence is not small")


def check_mpi(navier, scratch, mpiexec, split, tol, extra=()):
    case = channel2d(scratch, "mpi") if split.endswith(",1") else sphere3d(scratch, "mpi3")
    ranks = math.prod(int(v) for v in split.split(","))
    one, many = os.path.join(scratch, "mpi1"), os.path.join(scratch, "mpi" + split.replace(",", "x"))
    run(navier, case, one, sets=["run.decomposition=1,1,1"] + list(extra))
    run(navier, case, many, sets=[f"run.decomposition={split}"] + list(extra),
        launch=[mpiexec, "-n", str(ranks), "--oversubscribe"])
    a, b = doubles(os.path.join(one, "final_fields.bin")), doubles(os.path.join(many, "final_fields.bin"))
    scale = max(abs(v) for v in a)
    dfield = max(abs(x - y) for x, y in zip(a, b)) / scale
    ra, rb = monitor(one), monitor(many)
    dcoef = max(abs(float(x[k]) - float(y[k])) / max(1e-300, abs(float(x[k]))) if abs(float(x[k])) > 1e-8 else
                abs(float(x[k]) - float(y[k])) for x, y in zip(ra, rb) for k in coef_columns(ra))
    print(f"{ranks} ranks ({split}) vs 1: fields {dfield:.3e}, cd/cl of every step {dcoef:.3e} (tolerance {tol})")
    if len(ra) != len(rb) or not (dfield <= tol and dcoef <= tol):
        fail("the body split over ranks differs from one rank")


def check_restart(navier, scratch, extra=()):
    case = channel2d(scratch, "restart", extra="checkpoint_interval = 10\ncheckpoint_keep = 4")
    full, part = os.path.join(scratch, "full"), os.path.join(scratch, "part")
    run(navier, case, full, sets=extra)
    run(navier, case, part, sets=["time.max_steps=10"] + list(extra))
    ckpt = os.path.join(part, "checkpoint_00000010.nck")
    cmd = [navier, "run", case, "--output", part, "--restart", ckpt] + [a for s in extra for a in ("--set", s)]
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=ENV)
    if res.returncode != 0:
        print(res.stdout[-3000:])
        fail("the restart failed")
    a = open(os.path.join(full, "final_fields.bin"), "rb").read()
    b = open(os.path.join(part, "final_fields.bin"), "rb").read()
    ra, rb = monitor(full), monitor(part)
    keys = coef_columns(ra)
    same_rows = [x[k] for x in ra[-5:] for k in keys] == [x[k] for x in rb[-5:] for k in keys]
    print(f"restart at step 10 of 20: final fields {'identical' if a == b else 'DIFFER'}, forces of the last 5 steps "
          f"{'identical' if same_rows else 'DIFFER'}")
    if a != b or not same_rows:
        fail("the restart with a body is not bit for bit")


def grid_files(scratch, case_dir, h, tag, xdom, ydom, xblock, yblock):
    files = []
    for axis, dom, block in (("x", xdom, xblock), ("y", ydom, yblock)):
        path = os.path.join(scratch, f"{axis}_{tag}.txt")
        res = subprocess.run([sys.executable, GRIDTOOL, "--domain", dom, "--block", block, "--h", str(h), "--ratio",
                              "1.05", "-o", path], stderr=subprocess.PIPE, text=True)
        if res.returncode:
            fail(res.stderr)
        n = int(res.stderr.split("(set n = ")[1].split(")")[0])
        files.append((path, n))
    return files


def check_order(navier, scratch, case, hs, lo, lo_slip, ref, extra):
    which = "ext_" if lo_slip.startswith("ext:") else ""  # the no-slip error whose order is bounded
    lo_slip = float(lo_slip.split(":")[-1])
    res = []
    for i, h in enumerate(hs):
        (xf, nx), (yf, ny) = grid_files(scratch, os.path.dirname(case), h, i, "-4,8", "-4,4", "-0.8,2", "-0.8,0.8")
        out = os.path.join(scratch, f"order{i}")
        run(navier, case, out, sets=[f"grid.nx={nx}", f"grid.ny={ny}", f"grid.x_file={xf}", f"grid.y_file={yf}",
                                     "grid.lx=12", "grid.ly=8", "grid.x0=-4", "grid.y0=-4"] + extra)
        b = summary(out)["bodies"][0]
        rows = monitor(out)
        res.append((h, float(rows[-1][coef_columns(rows)[0]]), b["slip_" + which + "max"], b["slip_" + which + "rms"],
                    b["lw_over_d"]))
        print(f"h = {h}: {nx}x{ny} cells, cd {res[-1][1]:.5f}, slip max {b['slip_max']:.3e} rms {b['slip_rms']:.3e}, "
              f"extrapolated from the fluid max {b['slip_ext_max']:.3e} rms {b['slip_ext_rms']:.3e}, "
              f"L_w/D {b['lw_over_d']:.4f}", flush=True)
    (h1, c1, m1, r1, _), (h2, c2, m2, r2, _), (h3, c3, m3, r3, _) = res
    ratio = h1 / h2
    dc1, dc2 = c1 - c2, c2 - c3
    p_cd = math.log(abs(dc1 / dc2)) / math.log(ratio) if dc1 * dc2 > 0 else float("nan")
    p_max = [math.log(m1 / m2) / math.log(ratio), math.log(m2 / m3) / math.log(ratio)]
    p_rms = [math.log(r1 / r2) / math.log(ratio), math.log(r2 / r3) / math.log(ratio)]
    cd_ext = c3 - dc2 / (ratio ** p_cd - 1) if p_cd == p_cd else float("nan")
    print(f"observed order: Cd {p_cd:.2f} (Richardson estimate {cd_ext:.4f}), no-slip error{' (extrapolated)' * bool(which)}"
          f" max {p_max[0]:.2f}, {p_max[1]:.2f}, rms {p_rms[0]:.2f}, {p_rms[1]:.2f} (bounds: Cd {lo}, max no-slip error "
          f"on the finer pair {lo_slip})")
    if not (p_cd == p_cd and p_cd >= lo and p_max[1] >= lo_slip):
        fail("Cd or the no-slip error does not converge at the stated order")
    if ref:
        cref, tol = (float(v) for v in ref.split(":"))
        print(f"Cd on the finest grid {c3:.4f} against the reference {cref} (unbounded domain): "
              f"{100 * (c3 - cref) / cref:+.1f} % (bound {100 * tol:.0f} %, the domain's blockage included)")
        if not abs(c3 - cref) <= tol * cref:
            fail("Cd is off the reference")


def check_bands(navier, scratch, case, bands, extra):
    out = os.path.join(scratch, "bands")
    run(navier, case, out, sets=extra)
    s = summary(out)
    b = s["bodies"][0]
    bad = []
    for band in bands:
        key, rng = band.split("=")
        lo, hi = (float(v) for v in rng.split(":"))
        v = b[key] if key in b else s.get(key)
        ok = v is not None and lo <= v <= hi
        print(f"{key} = {v} (band [{lo}, {hi}]) {'ok' if ok else 'FAIL'}")
        if not ok:
            bad.append(key)
    if bad:
        fail("outside the reference band: " + ", ".join(bad))


def check_drag(navier, scratch, case, ref, re, tmin, tmax, tol, extra):
    out = os.path.join(scratch, "drag")
    run(navier, case, out, sets=extra)
    rows = monitor(out)
    key = coef_columns(rows)[0]
    t = [float(r["time"]) for r in rows]
    cd = [float(r[key]) for r in rows]
    with open(ref) as f:
        table = [(float(r["t_UD"]), float(r["cd"])) for r in csv.DictReader(x for x in f if not x.startswith("#"))
                 if float(r["re"]) == re]
    worst = 0
    for tr, cr in table:
        if tr < tmin or tr > tmax:
            continue
        i = next((k for k in range(1, len(t)) if t[k] >= tr), None)
        if i is None:
            fail(f"the run stopped before t = {tr}")
        c = cd[i - 1] + (cd[i] - cd[i - 1]) * (tr - t[i - 1]) / (t[i] - t[i - 1])
        worst = max(worst, abs(c - cr) / cr)
        print(f"t = {tr:.3f}: cd {c:.4f}, Koumoutsakos & Leonard {cr:.4f} ({100 * (c - cr) / cr:+.1f} %)")
    print(f"max |cd - reference| / reference = {worst:.4f} for {tmin} <= t <= {tmax} (tolerance {tol})")
    if not worst <= tol:
        fail("the drag history is outside the tolerance")


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    navier, scratch, check, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    extra = []
    if "--" in args:
        extra = args[args.index("--") + 1:]
        args = args[:args.index("--")]
    os.makedirs(scratch, exist_ok=True)
    if check == "errors":
        check_errors(navier, scratch)
    elif check == "rest":
        check_rest(navier, scratch, extra)
    elif check == "stream":
        check_stream(navier, scratch, extra)
    elif check == "divergence":
        check_divergence(navier, scratch, float(args[0]))
    elif check == "rotate":
        check_rotate(navier, scratch, extra)
    elif check == "implicit":
        check_implicit(navier, scratch, float(args[0]), extra)
    elif check == "mpi":
        check_mpi(navier, scratch, args[0], args[1], float(args[2]), extra)
    elif check == "files":
        check_files(navier, scratch, args[0])
    elif check == "restart":
        check_restart(navier, scratch, extra)
    elif check == "order":
        check_order(navier, scratch, args[0], [float(v) for v in args[1:4]], float(args[4]), args[5],
                    args[6] if len(args) > 6 else "", extra)
    elif check == "bands":
        check_bands(navier, scratch, args[0], args[1:], extra)
    elif check == "drag":
        check_drag(navier, scratch, args[0], args[1], *(float(v) for v in args[2:6]), extra)
    else:
        sys.exit(__doc__)
    print("PASS")


if __name__ == "__main__":
    main()
