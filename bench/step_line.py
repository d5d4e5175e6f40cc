#!/usr/bin/env python3
"""One line for a `navier bench step ... --json` log (the bench scripts' tables):
   LABEL: BACKEND ranks R cells C: T ms per step, N ns/cell, pressure iterations/step P[; EXTRA]
or, with --seconds (the RANS outer iterations), T s per outer iteration; or, when the log holds no JSON line,
   LABEL: exit RC, no result (its last two lines)[; EXTRA]

usage: step_line.py LOG LABEL RC [--seconds] [--extra TEXT]"""
import argparse
import json

ap = argparse.ArgumentParser()
ap.add_argument("log")
ap.add_argument("label")
ap.add_argument("rc")
ap.add_argument("--seconds", action="store_true")
ap.add_argument("--extra", default="")
a = ap.parse_args()
extra = f"; {a.extra}" if a.extra else ""
text = open(a.log, errors="replace").read()
lines = [l for l in text.splitlines() if l.startswith("{")]
if not lines:
    tail = text.strip().splitlines()[-2:]
    print(f"{a.label}: exit {a.rc}, no result ({' | '.join(tail)}){extra}")
else:
    r = json.loads(lines[-1])
    t = f"{r['step_s']:.4f} s per outer iteration" if a.seconds else f"{1e3 * r['step_s']:.3f} ms per step"
    print(f"{a.label}: {r['backend']} ranks {r['ranks']} cells {r['cells']:.0f}: {t}, {r['ns_per_cell_step']:.3f} "
          f"ns/cell, pressure iterations/step {r['p_iterations_per_step']}{extra}")
