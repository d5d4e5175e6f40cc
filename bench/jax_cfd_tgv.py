#!/usr/bin/env python3
"""jax-cfd's time step on the 3D Taylor-Green vortex, timed on the GPU: the peer of `navier bench step --case
cases/taylor_green3d.ini` in docs/performance.md (bash bench/gpu.sh jax runs both in one call).

usage: jax_cfd_tgv.py N [N ...] [--fp32] [--steps K] [--repeat R]

The problem: the 2 pi-periodic box on N^3 cells, u = sin x cos y cos z, v = -cos x sin y cos z, w = 0, nu = 1e-3
(navier's bench: --set physics.nu=1e-3 --set time.dt=0, the CFL-limited step). The step: jax_cfd.base.equations.
semi_implicit_navier_stokes (jax-cfd 0.2.1: explicit advection and diffusion on the staggered grid, forward
Euler, the pressure projection by its default solver, the periodic fast diagonalisation), dt from
stable_time_step (max velocity 1, Courant number 0.5). K steps in one jit-compiled loop
(jax_cfd.base.funcutils.repeated); after two untimed calls (compilation), R timed calls (block_until_ready), the median
per step. FP64 unless --fp32 (jax_enable_x64). One JSON line per grid, with the kinetic energy after the run as
a check that the steps did what they should (E_k = 1/8 at t = 0, decaying)."""
import argparse
import json
import math
import statistics
import time

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("n", type=int, nargs="+")
    ap.add_argument("--fp32", action="store_true")
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    import jax

    if not a.fp32:
        jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    import jax_cfd
    import jax_cfd.base as cfd

    nu = 1e-3
    fns = (lambda x, y, z: jnp.sin(x) * jnp.cos(y) * jnp.cos(z),
           lambda x, y, z: -jnp.cos(x) * jnp.sin(y) * jnp.cos(z),
           lambda x, y, z: jnp.zeros_like(x))
    for n in a.n:
        grid = cfd.grids.Grid((n, n, n), domain=((0, 2 * math.pi),) * 3)
        dt = cfd.equations.stable_time_step(max_velocity=1.0, max_courant_number=0.5, viscosity=nu, grid=grid)
        v = cfd.initial_conditions.initial_velocity_field(fns, grid)
        step = cfd.equations.semi_implicit_navier_stokes(density=1.0, viscosity=nu, dt=dt, grid=grid)
        run = jax.jit(cfd.funcutils.repeated(step, a.steps))
        for _ in range(2):  # compile; the second call may compile again (the output's types differ from v0's)
            v = jax.block_until_ready(run(v))
        per_step = []
        for _ in range(a.repeat):
            t0 = time.perf_counter()
            v = jax.block_until_ready(run(v))
            per_step.append((time.perf_counter() - t0) / a.steps)
        ke = 0.5 * sum(float(np.mean(np.asarray(c.data, dtype=np.float64) ** 2)) for c in v)
        print(json.dumps({"peer": "jax-cfd", "version": getattr(jax_cfd, "__version__", "?"), "jax": jax.__version__,
                          "n": n, "precision": "fp32" if a.fp32 else "fp64", "dtype": str(v[0].data.dtype),
                          "dt": float(dt), "steps": a.steps * (a.repeat + 2), "step_ms": 1e3 * statistics.median(per_step),
                          "step_ms_min": 1e3 * min(per_step), "kinetic_energy": ke}), flush=True)


if __name__ == "__main__":
    main()
