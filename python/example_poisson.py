"""Example: navier's Poisson solver from Python (one rank).

lap u = b on the unit square, 128 x 128 cells, Dirichlet (u = 0) on the left and right faces,
Neumann on the bottom and top; exact u = sin(pi x) cos(pi y). Run from the repository after a build:

    /usr/bin/python3 python/example_poisson.py          (NAVIER_LIBRARY=... to point at libnavier.so)
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import navier_poisson as nps  # noqa: E402

n = 128
xc = (np.arange(n) + 0.5) / n
X, Y = np.meshgrid(xc, xc, indexing="ij")  # arrays are indexed [i, j]: x first
u = np.sin(np.pi * X) * np.cos(np.pi * Y)
b = -2 * np.pi ** 2 * u
h = (np.full(n, 1.0 / n), np.full(n, 1.0 / n))
bc = (("dirichlet", "dirichlet"), ("neumann", "neumann"))
solver = nps.Solver((n, n), h, bc, solver="mg", tolerance=1e-10)
x, info = solver.solve(b)
print(solver.describe())
print(f"{info['iterations']} cycles, relative residual {info['relres']:.2e}, solve {info['solve_s']:.4f} s, "
      f"max error {np.abs(x - u).max():.2e}")
solver.close()
