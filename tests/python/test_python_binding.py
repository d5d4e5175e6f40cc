"""The Python binding (python/navier_poisson.py) against exact solutions, one rank:

  2D: lap u = b on the unit square, Dirichlet (u = 0) on x = 0, 1, Neumann on y = 0, 1, exact
      u = sin(pi x) cos(pi y); mg to 1e-10 on 32^2 and 64^2: the residual computed here in numpy
      (the same 5-point operator with the face conditions as ghost values) is <= 1e-10 ||b||, the
      error against u is second order (observed order 2 +- 0.2) and below 1e-3 on 64^2;
  3D: a smooth exponential stretching in z with Dirichlet faces in z, periodic x, Neumann y, exact
      u = cos(2 pi x) cos(pi y) sin(pi z); mgpcg and fft (when built) on 16^3 and 32^3: residual
      <= 1e-10 ||b||, observed order 2 +- 0.2, the two solvers agree to 1e-8; fft with skip_residual gives
      the same x bit for bit and relres -1 (a tridiagonal direction: the lines path);
  a singular all-Neumann problem returns x with zero mean; a bad argument raises NavierError.
usage: test_python_binding.py LIBNAVIER PYTHON_DIR; exit 0 on success. """
import math
import os
import sys

import numpy as np

os.environ["NAVIER_LIBRARY"] = sys.argv[1]
sys.path.insert(0, sys.argv[2])
import navier_poisson as nps  # noqa: E402

fails = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        fails.append(what)


def apply_laplacian(x, h, bc):
    """L x with the ghost values of the face conditions (Neumann: mirror, Dirichlet: -x, periodic: wrap)."""
    out = np.zeros_like(x)
    for d in range(x.ndim):
        w = np.asarray(h[d], dtype=float)
        n = x.shape[d]
        xm = np.moveaxis(x, d, 0)
        g = np.empty((n + 2,) + xm.shape[1:])
        g[1:-1] = xm
        wg = np.empty(n + 2)
        wg[1:-1] = w
        for side, (gi, ii, wi) in enumerate(((0, 1, 1), (-1, -2, -2))):
            kind = bc[d][side]
            if kind == "periodic":
                g[gi] = xm[-1] if side == 0 else xm[0]
                wg[gi] = w[-1] if side == 0 else w[0]
            else:
                g[gi] = g[ii] if kind == "neumann" else -g[ii]
                wg[gi] = wg[wi]
        dc = 0.5 * (wg[1:] + wg[:-1])  # centre distances, n + 1 of them
        shape = (-1,) + (1,) * (x.ndim - 1)
        flux = (g[1:] - g[:-1]) / dc.reshape(shape)
        out += np.moveaxis((flux[1:] - flux[:-1]) / w.reshape(shape), 0, d)
    return out


def relres(x, b, h, bc, singular=False):
    bb = b - b.mean() if singular else b
    vol = np.ones(1)
    for d in range(b.ndim):
        vol = np.multiply.outer(vol, np.asarray(h[d])) if vol.size > 1 else np.asarray(h[d])
    r = bb - apply_laplacian(x, h, bc)
    return math.sqrt(np.sum(vol * r * r) / np.sum(vol * bb * bb))


# 2D: second order with mg
bc2 = (("dirichlet", "dirichlet"), ("neumann", "neumann"))
errs = []
for n in (32, 64):
    h = (np.full(n, 1.0 / n), np.full(n, 1.0 / n))
    xc = (np.arange(n) + 0.5) / n
    X, Y = np.meshgrid(xc, xc, indexing="ij")
    u = np.sin(np.pi * X) * np.cos(np.pi * Y)
    b = -2 * np.pi ** 2 * u
    x, info = nps.solve(b, h, bc2, solver="mg", tolerance=1e-10)
    rr = relres(x, b, h, bc2)
    err = np.abs(x - u).max()
    errs.append(err)
    print(f"2D {n}^2 mg: {info['iterations']} cycles, library relres {info['relres']:.2e}, numpy relres {rr:.2e}, "
          f"max error {err:.3e}")
    check(info["converged"] and rr <= 1.01e-10, f"2D {n}^2 residual {rr:.2e} <= 1e-10")
order = math.log2(errs[0] / errs[1])
check(abs(order - 2) <= 0.2, f"2D observed order {order:.3f} = 2 +- 0.2")
check(errs[1] < 1e-3, f"2D 64^2 max error {errs[1]:.2e} < 1e-3")

# 3D: stretched z (Dirichlet; faces z = (e^{a s} - 1) / (e^a - 1), s uniform: a smooth map, so refining
# keeps the order), periodic x, Neumann y
bc3 = (("periodic", "periodic"), ("neumann", "neumann"), ("dirichlet", "dirichlet"))
errs3 = {}
for n in (16, 32):
    a = 1.5
    zf = np.expm1(a * np.linspace(0, 1, n + 1)) / math.expm1(a)
    hz = np.diff(zf)
    zc = 0.5 * (zf[1:] + zf[:-1])
    xc = (np.arange(n) + 0.5) / n
    X, Y, Z = np.meshgrid(xc, xc, zc, indexing="ij")
    u = np.cos(2 * np.pi * X) * np.cos(np.pi * Y) * np.sin(np.pi * Z)
    b = -(4 + 1 + 1) * np.pi ** 2 * u
    h3 = (np.full(n, 1.0 / n), np.full(n, 1.0 / n), hz)
    sols = {}
    for solver in ("mgpcg", "fft"):
        try:
            s = nps.Solver((n, n, n), h3, bc3, solver=solver, tolerance=1e-10)
        except nps.NavierError as e:
            if solver == "fft":
                print(f"note: fft not in this build ({e})")
                continue
            raise
        x, info = s.solve(b)
        desc = s.describe()
        s.close()
        rr = relres(x, b, h3, bc3)
        err = np.abs(x - u).max()
        sols[solver] = x
        errs3.setdefault(solver, []).append(err)
        print(f"3D {n}^3 {solver} ({desc}): {info['iterations']} it, numpy relres {rr:.2e}, max error {err:.3e}")
        check(rr <= 1.01e-10, f"3D {n}^3 {solver} residual {rr:.2e} <= 1e-10")
    if len(sols) == 2:
        d = np.abs(sols["mgpcg"] - sols["fft"]).max()
        check(d <= 1e-8, f"3D {n}^3 mgpcg and fft agree: {d:.2e} <= 1e-8")
        s = nps.Solver((n, n, n), h3, bc3, solver="fft", skip_residual=True)
        x, info = s.solve(b)
        s.close()
        check(np.array_equal(x, sols["fft"]) and info["relres"] == -1,
              f"3D {n}^3 fft skip_residual: x bit for bit the measured solve's, relres {info['relres']:g} (-1)")
for solver, e in errs3.items():
    order = math.log2(e[0] / e[1])
    check(abs(order - 2) <= 0.2, f"3D {solver} observed order {order:.3f} = 2 +- 0.2 (errors {e[0]:.2e}, {e[1]:.2e})")

# singular: all Neumann; b with a mean (removed by the library), x with zero (volume) mean
bcn = (("neumann", "neumann"), ("neumann", "neumann"))
hn = (np.full(24, 1 / 24), np.full(16, 1 / 16))
xc, yc = (np.arange(24) + 0.5) / 24, (np.arange(16) + 0.5) / 16
X, Y = np.meshgrid(xc, yc, indexing="ij")
b = np.cos(np.pi * X) * np.cos(2 * np.pi * Y) + 0.7
x, info = nps.solve(b, hn, bcn, solver="mg", tolerance=1e-10)
rr = relres(x, b, hn, bcn, singular=True)
check(rr <= 1.01e-10 and abs(x.mean()) < 1e-12, f"singular: residual {rr:.2e}, mean of x {x.mean():.1e}")

# an error comes back as an exception with the library's message
try:
    nps.Solver((8, 8), (np.full(8, 0.125), np.full(8, -1.0)), bc2)
    check(False, "a negative width raises NavierError")
except nps.NavierError as e:
    check("must be > 0" in str(e), f"a negative width raises NavierError: {e}")

print("PASS" if not fails else f"FAIL: {len(fails)} check(s)")
sys.exit(1 if fails else 0)
