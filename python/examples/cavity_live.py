"""The lid-driven cavity (navier's default case, Re = 100, here 64 x 64) with a live plot of its kinetic
energy: the figure is redrawn every 50 steps in a window, or, without a display, written to
cavity_energy.png (matplotlib's Agg backend).

    venv/bin/python python/examples/cavity_live.py [STEPS]      (after pip install ./python)"""
import os
import sys

import matplotlib

if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
    matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import navier  # noqa: E402

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
sim = navier.Simulation(overrides={"grid.nx": 64, "grid.ny": 64, "output.plots": False},
                        output="output/cavity_live")
times, energy = [], []
fig, ax = plt.subplots(figsize=(6, 4))
(line,) = ax.plot([], [])
ax.set_xlabel("t")
ax.set_ylabel("kinetic energy")
ax.set_title(f"lid-driven cavity, {sim.shape[0]} x {sim.shape[1]}, backend {sim.backend}")


def show(s):
    times.append(s.time)
    energy.append(s.diagnostics["kinetic_energy"])
    line.set_data(times, energy)
    ax.relim()
    ax.autoscale_view()
    if matplotlib.get_backend().lower() != "agg":
        plt.pause(0.01)


sim.run(steps=steps, every=50, callback=show)
fig.savefig("cavity_energy.png", dpi=100)
print(f"{sim.steps} steps, t = {sim.time:.4f}, kinetic energy {energy[-1]:.6e}; figure cavity_energy.png")
summary = sim.summary
print("summary.json:", summary["status"], "in", sim.output_dir)
