"""A channel flow (cases/channel2d_poiseuille.ini) with a callback that collects a statistic while it runs: the
bulk velocity (the mean of u over the section) and the wall shear of the mean profile every 20 steps, against
the laminar Poiseuille values at the end.

    venv/bin/python python/examples/channel_statistic.py [CASE] [END_TIME]      (after pip install ./python)"""
import os
import sys

import numpy as np

import navier

here = os.path.dirname(os.path.abspath(__file__))
case = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "cases", "channel2d_poiseuille.ini")
end = float(sys.argv[2]) if len(sys.argv) > 2 else 0.5
sim = navier.Simulation(case=case, overrides={"output.plots": False}, output="output/channel_statistic")
rows = []


def collect(s):
    f = s.fields()
    u = f["u"].mean(axis=0)          # the mean profile over x, at the cell centres y
    y, dy = f["y"], np.diff(f["yf"])
    bulk = float((u * dy).sum() / dy.sum())
    shear = float(u[0] / (y[0] - f["yf"][0]))  # du/dy at the wall, one-sided
    rows.append((s.time, bulk, shear))


sim.run(until=end, every=20, callback=collect)
print(f"{'t':>8} {'bulk u':>12} {'wall du/dy':>12}")
shown = rows[:: max(1, len(rows) // 10)]
for t, b, w in shown + ([rows[-1]] if shown[-1] is not rows[-1] else []):
    print(f"{t:8.4f} {b:12.6f} {w:12.6f}")
print(f"{len(rows)} samples, {sim.steps} steps to t = {sim.time:.4f}; laminar Poiseuille: bulk u 1, wall du/dy 6 U_b/ly = 6")
