#!/usr/bin/env python3
"""Peers on the same GPU, one run: CuPy's cuFFT and CG Poisson solves against navier's.

Times, on the GPU this runs on, median of R solves after a warm-up:
  - cupy periodic:  the 3D periodic Poisson solve by rfftn / division / irfftn (the cell-centred
                    7-point eigenvalues, the same discrete problem as navier's `--bc periodic`);
  - cupy neumann:   the all-Neumann solve by cupyx.scipy.fft.dctn / idctn (type 2; navier's
                    `--bc neumann`);
  - cupy cg:        cupyx.scipy.sparse.linalg.cg on the 7-point all-Dirichlet matrix (CSR) to a
                    relative residual 1e-6, no preconditioner (what a CuPy user gets in a few lines);
in FP64 and FP32, and prints one JSON line per solve and a table last. navier's figures come from
`navier bench poisson` (`bash bench/gpu.sh poisson peers`, the same call).

usage: python3 bench/gpu_peers.py [N] [REPEAT] [SOLVES]   (default 256 5 periodic,neumann,cg; CG at N/2 to keep it
short; SOLVES: a comma list of those three, e.g. periodic for the FFT solve alone)"""
import json
import sys
import time

import cupy as cp
import cupyx.scipy.fft as cfft
import cupyx.scipy.sparse as csp
import cupyx.scipy.sparse.linalg as cla


def timed(fn, repeat):
    fn()
    cp.cuda.Device().synchronize()
    ts = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        cp.cuda.Device().synchronize()
        ts.append(time.perf_counter() - t0)
    ts.sort()
    return ts[len(ts) // 2], out


def eig(n, h, kind):
    k = cp.arange(n)
    t = cp.pi * k / n if kind == "periodic" else cp.pi * k / (2 * n)
    return -4 / h**2 * cp.sin(t) ** 2


def lap7(n, h, dtype):
    """The 3D 7-point Laplacian, Dirichlet faces (ghost = -x), CSR."""
    one = cp.ones(n, dtype=dtype)
    d = -2 * one
    d[0] = d[n - 1] = -3
    t = csp.diags([one[:-1], d, one[:-1]], [-1, 0, 1], format="csr", dtype=dtype)
    i = csp.identity(n, dtype=dtype, format="csr")
    return (csp.kron(csp.kron(i, i), t) + csp.kron(csp.kron(i, t), i) + csp.kron(csp.kron(t, i), i)) / h**2


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 256
    repeat = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    solves = sys.argv[3].split(",") if len(sys.argv) > 3 else ["periodic", "neumann", "cg"]
    h = 1.0 / n
    rows = []
    for dtype in (cp.float64, cp.float32):
        rng = cp.random.default_rng(1)
        b = rng.standard_normal((n, n, n), dtype=cp.float64).astype(dtype)
        b -= b.mean()
        for kind in [k for k in ("periodic", "neumann") if k in solves]:
            lam = eig(n, h, kind).astype(dtype)
            den = lam[:, None, None] + lam[None, :, None] + lam[None, None, :]
            den[0, 0, 0] = 1
            if kind == "periodic":
                den = den[:, :, : n // 2 + 1]
                fn = lambda: cp.fft.irfftn(cp.fft.rfftn(b) / den, s=b.shape)
            else:
                fn = lambda: cfft.idctn(cfft.dctn(b, type=2) / den, type=2)
            s, _ = timed(fn, repeat)
            rows.append({"peer": "cupy", "solve": kind, "precision": dtype.__name__, "n": n, "solve_ms": 1e3 * s})
        if "cg" not in solves:
            continue
        m = n // 2
        A = lap7(m, 1.0 / m, dtype)
        rhs = cp.random.default_rng(2).standard_normal(m**3, dtype=cp.float64).astype(dtype)
        it = [0]

        def count(_):
            it[0] += 1

        def solve():
            it[0] = 0
            try:
                return cla.cg(A, rhs, rtol=1e-6, maxiter=20000, callback=count)[0]
            except TypeError:
                return cla.cg(A, rhs, tol=1e-6, maxiter=20000, callback=count)[0]

        s, x = timed(solve, 1)
        rel = float(cp.linalg.norm(rhs - A @ x) / cp.linalg.norm(rhs))
        rows.append({"peer": "cupy", "solve": "cg (no preconditioner)", "precision": dtype.__name__, "n": m,
                     "solve_ms": 1e3 * s, "iterations": it[0], "relres": rel})
    for r in rows:
        print(json.dumps(r))
    print("%-26s %-8s %6s %12s" % ("cupy solve", "prec", "N", "ms"))
    for r in rows:
        print("%-26s %-8s %6d %12.3f%s" % (r["solve"], r["precision"], r["n"], r["solve_ms"],
                                          "  (%d it, relres %.1e)" % (r["iterations"], r["relres"]) if "iterations" in r else ""))


if __name__ == "__main__":
    main()
