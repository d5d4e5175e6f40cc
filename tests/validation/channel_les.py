#!/usr/bin/env python3
"""Validation of a channel LES against published DNS profiles, one run per closure.

usage: channel_les.py NAVIER CASE REFERENCE SCRATCH MODEL[,MODEL...] [--set section.key=value ...]

Runs CASE (its [statistics] block sets the averaging window) once per closure with
--set turbulence.model=MODEL into SCRATCH/MODEL, then asserts with tools/channel_statistics.py
  compare SCRATCH/MODEL REFERENCE --les-bands   Re_tau within 3 %, U+ within 4 % up to the centre, the peak
                                                of u_rms+ within 10 % (issue 44's bands)
Field snapshots and checkpoints are off; the overrides go to every run. Exit 0 when every band holds for
every closure; 77 (skipped) when the overrides ask for run.backend=cuda and no GPU is visible."""
import os
import shutil
import subprocess
import sys

from channel_dns import TOOL, run, skip_without_gpu  # this directory: the DNS validation's helpers


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    navier, case, ref, scratch, models = sys.argv[1:6]
    sets = sys.argv[6:]
    skip_without_gpu(sets)
    quiet = ["--set", "output.fields_every=0", "--set", "output.fields_dt=0", "--set", "output.checkpoint_dt=0",
             "--set", "output.monitor_every=100"]
    bad = []
    for m in models.split(","):
        out = os.path.join(scratch, m)
        shutil.rmtree(out, ignore_errors=True)
        rc = run([navier, "run", case, "--set", f"turbulence.model={m}", "--output", out] + quiet + sets, 3600)
        if rc != 0:
            bad.append(f"{m} (exit {rc})")
            continue
        if subprocess.run([sys.executable, TOOL, "compare", out, ref, "--les-bands"]).returncode:
            bad.append(m)
    if bad:
        sys.exit("FAIL: a band does not hold for " + ", ".join(bad))
    print("PASS")


if __name__ == "__main__":
    main()
