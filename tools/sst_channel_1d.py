#!/usr/bin/python3
"""Fully developed plane channel with the k-omega SST-2003 model, in 1D: an independent check of navier.

Written separately from src/backend/common/nav_point_sst.h, from ../shared/reference/sst_model.md
(section 3, SST-2003 of the NASA Turbulence Modeling Resource) only, with other numerics: vertex-centred
finite differences (nodes at the wall y = 0 and at the centre line y = h = 1), the mean momentum
equation integrated exactly, a Newton-free fixed-point iteration. With rho = 1, u_tau = 1, h = 1,
nu = 1 / Re_tau (so y+ = y Re_tau, U+ = U):

  (nu + nu_t) dU/dy = 1 - y                                   (total stress of the driven channel)
  0 = P~ - beta* w k + d/dy((nu + sigma_k nu_t) dk/dy)
  0 = gamma P~ / nu_t - beta w^2 + d/dy((nu + sigma_w nu_t) dw/dy) + 2 (1 - F1) sigma_w2 / w dk/dy dw/dy
  P = nu_t S^2, S = |dU/dy|, P~ = min(P, 10 beta* w k), nu_t = a1 k / max(a1 w, S F2),
  F1 = tanh(arg1^4), arg1 = min(max(sqrt(k)/(beta* w y), 500 nu/(y^2 w)), 4 sigma_w2 k/(CD y^2)),
  CD = max(2 sigma_w2 / w dk/dy dw/dy, 1e-10), F2 = tanh(arg2^2), arg2 = max(2 sqrt(k)/(beta* w y), 500 nu/(y^2 w)).
Walls: U = 0, k = 0, w = wall_factor * 6 nu / (beta1 y1^2) at the wall NODE (y1 = the first node off the
wall; wall_factor 10 is the page's value); the centre line: zero gradient.

The wall value depends on y1, so the discrete solution converges at first order in y1 (as navier's, whose
wall value uses the first cell centre): the study mode refines y1+ by 2 at a fixed N and extrapolates.

Usage: sst_channel_1d.py RE_TAU [N [Y1PLUS [WALL_FACTOR]]]   prints U_b+, U_c+, C_f and U+(y+) as CSV
       sst_channel_1d.py study RE_TAU [N]                    U_b+ and U+(y+ = 50) for y1+ = 0.8 ... 0.0125,
                                                             observed orders and Richardson estimates
"""
import sys

import numpy as np

BSTAR, A1 = 0.09, 0.31
SK1, SK2, SW1, SW2 = 0.85, 1.0, 0.5, 0.856
B1, B2, G1, G2 = 0.075, 0.0828, 5.0 / 9.0, 0.44


def grid(n, y1):
    """n + 1 nodes on [0, 1], first spacing y1, geometric growth (ratio found by bisection)."""
    lo, hi = 1.0, min(2.0, float(np.exp(700.0 / n)))
    for _ in range(200):
        r = 0.5 * (lo + hi)
        s = y1 * (r ** n - 1) / (r - 1)
        lo, hi = (r, hi) if s < 1 else (lo, r)
    h = y1 * r ** np.arange(n)
    y = np.concatenate([[0.0], np.cumsum(h)])
    y[-1] = 1.0
    return y


def thomas(lo, di, up, rhs):
    """Solve the tridiagonal system lo[i] x[i-1] + di[i] x[i] + up[i] x[i+1] = rhs[i] (lo[0], up[-1] unused)."""
    n = len(di)
    c, d = np.empty(n), np.empty(n)
    c[0], d[0] = up[0] / di[0], rhs[0] / di[0]
    for i in range(1, n):
        m = di[i] - lo[i] * c[i - 1]
        c[i] = up[i] / m
        d[i] = (rhs[i] - lo[i] * d[i - 1]) / m
    x = np.empty(n)
    x[-1] = d[-1]
    for i in range(n - 2, -1, -1):
        x[i] = d[i] - c[i] * x[i + 1]
    return x


def ddy(y, q):
    """Second-order derivative at the nodes (weighted central; one-sided at the wall, 0 at the centre)."""
    g = np.zeros_like(q)
    hm, hp = y[1:-1] - y[:-2], y[2:] - y[1:-1]
    g[1:-1] = (hm * (q[2:] - q[1:-1]) / hp + hp * (q[1:-1] - q[:-2]) / hm) / (hm + hp)
    g[0] = (q[1] - q[0]) / (y[1] - y[0])
    return g


def diffusion_matrix(y, gam):
    """Coefficients of -d/dy(gam d/dy) at nodes 1..n (node n: mirror ghost), Dirichlet node 0 excluded."""
    n = len(y) - 1
    ym = np.concatenate([y, [2 * y[-1] - y[-2]]])
    gm = np.concatenate([gam, [gam[-2]]])
    lo = np.zeros(n + 1)
    hi = np.zeros(n + 1)
    dm = y[1:] - y[:-1]  # spacing j-1/2 for j = 1..n
    dp = ym[2:] - ym[1:-1]  # spacing j+1/2 (the mirror at n)
    vol = 0.5 * (dm + dp)
    cw = 0.5 * (gm[1:-1] + gm[:-2]) / dm / vol
    ce = 0.5 * (gm[1:-1] + gm[2:]) / dp / vol
    return cw, ce, n


def solve(re_tau, n=400, y1plus=0.1, wall_factor=10.0, iters=200000, tol=1e-11, verbose=False):
    nu = 1.0 / re_tau
    y = grid(n, y1plus * nu)
    d = y.copy()
    d[0] = 1e-30  # the wall node: its terms are not used (k = 0 there, w fixed)
    k = 0.01 * np.ones_like(y)
    k[0] = 0
    w = np.maximum(1.0 / (0.41 * 0.3 * np.maximum(y, 1e-3)), 1.0)
    w[0] = wall_factor * 6 * nu / (B1 * y[1] ** 2)
    nut = A1 * k / (A1 * w)
    dt = 1e30
    for it in range(iters):
        S = (1 - y) / (nu + nut)
        dk, dw = ddy(y, k), ddy(y, w)
        kk = np.maximum(k, 0)
        cdraw = 2 * SW2 * dk * dw / w
        cd = np.maximum(cdraw, 1e-10)
        t1 = np.sqrt(kk) / (BSTAR * w * d)
        visc = 500 * nu / (d * d * w)
        arg1 = np.minimum(np.maximum(t1, visc), 4 * SW2 * kk / (cd * d * d))
        f1 = np.tanh(arg1 ** 4)
        f1[0] = 1.0
        f2 = np.tanh(np.maximum(2 * t1, visc) ** 2)
        den = np.maximum(A1 * w, S * f2)
        nut_m = A1 * kk / den
        lim = 10 * BSTAR * w
        pk = np.minimum(nut_m * S * S, lim * kk)
        pw = np.minimum(S * S, lim * den / A1)  # P~ / nu_t
        sk = f1 * SK1 + (1 - f1) * SK2
        sw = f1 * SW1 + (1 - f1) * SW2
        beta = f1 * B1 + (1 - f1) * B2
        gamma = f1 * G1 + (1 - f1) * G2
        cross = (1 - f1) * cdraw
        new = []
        for phi, gam, q, c in ((k, nu + sk * nut_m, pk, BSTAR * w),
                               (w, nu + sw * nut_m, gamma * pw + np.maximum(cross, 0),
                                beta * w + np.maximum(-cross, 0) / w)):
            cw, ce, m = diffusion_matrix(y, gam)
            di = cw + ce + c[1:] + 1 / dt
            up = -ce.copy()
            lo = -cw.copy()
            lo[-1] -= ce[-1]  # node n: the mirror ghost equals node n-1
            rhs = q[1:] + phi[1:] / dt
            rhs[0] += cw[0] * phi[0]
            sol = thomas(lo, di, up, rhs)
            new.append(np.concatenate([[phi[0]], sol]))
        kn, wn = new
        wn = np.maximum(wn, 1e-12)
        ch = max(np.max(np.abs(kn - k)) / np.max(np.abs(kn)), np.max(np.abs(wn - w) / wn))
        k, w = 0.5 * kn + 0.5 * k, np.sqrt(wn * w)
        nut = 0.5 * nut + 0.5 * nut_m
        if verbose and it % 500 == 0:
            print(it, ch, file=sys.stderr)
        if ch < tol and it > 50:
            break
    S = (1 - y) / (nu + nut)
    U = np.concatenate([[0.0], np.cumsum(0.5 * (S[1:] + S[:-1]) * np.diff(y))])
    ub = np.trapz(U, y)
    return y * re_tau, U, ub, it, ch


def study(re_tau, n):
    rows = []
    for y1p in (0.8, 0.4, 0.2, 0.1, 0.05, 0.025, 0.0125):
        yp, U, ub, it, ch = solve(re_tau, n, y1p)
        rows.append((y1p, ub, float(np.interp(50.0, yp, U))))
        print(f"y1+ {y1p:7.4f} (N {n}): U_b+ {ub:.5f}  U+(50) {rows[-1][2]:.5f}  C_f {2 / ub ** 2:.6e}  "
              f"({it} iterations, change {ch:.1e})")
    for j, name in ((1, "U_b+"), (2, "U+(50)")):
        f0, f1, f2 = (r[j] for r in rows[-3:])
        p = np.log2((f0 - f1) / (f1 - f2))
        print(f"{name}: observed order {p:.2f} (last three), Richardson estimate {f2 + (f2 - f1) / (2 ** p - 1):.5f}")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "study":
        study(float(sys.argv[2]) if len(sys.argv) > 2 else 5200.0, int(sys.argv[3]) if len(sys.argv) > 3 else 2000)
        return
    re_tau = float(sys.argv[1]) if len(sys.argv) > 1 else 5200.0
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 400
    y1p = float(sys.argv[3]) if len(sys.argv) > 3 else 0.1
    wf = float(sys.argv[4]) if len(sys.argv) > 4 else 10.0
    yp, U, ub, it, ch = solve(re_tau, n, y1p, wf)
    print(f"# re_tau {re_tau} n {n} y1+ {y1p} wall_factor {wf}: {it} iterations, change {ch:.1e}")
    print(f"U_b+ {ub:.5f}  U_c+ {U[-1]:.5f}  C_f {2 / ub ** 2:.6e}")
    print("y_plus,u_plus")
    for a, b in zip(yp, U):
        print(f"{a:.6e},{b:.8e}")


if __name__ == "__main__":
    main()
