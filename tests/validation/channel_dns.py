#!/usr/bin/env python3
"""Validation of a turbulent channel DNS against published profiles, with the averaging window checked.

usage: channel_dns.py NAVIER CASE REFERENCE SCRATCH T_MID T_END [--set section.key=value ...]

Runs CASE (its [statistics] block sets the start of the window, t0 < T_MID) to T_MID with a checkpoint there
(SCRATCH/first), continues from that checkpoint to T_END (SCRATCH/full: the running sums go on, the window is
t0 .. T_END), then asserts with tools/channel_statistics.py:
  compare SCRATCH/full REFERENCE --bands   Re_tau within 2 %, C_f within 3 %, U+ within 2 % for y+ <= 100 and 3 %
                                           to the centre, the peaks of u_rms+, v_rms+, w_rms+, -uv+ within 5 %
  halves SCRATCH/first SCRATCH/full        the two halves t0 .. T_MID and T_MID .. T_END agree to 1 % in U+
Field snapshots are off; the overrides go to both runs. Exit 0 when every band holds; 77 (skipped) when the
overrides ask for run.backend=cuda and no GPU is visible."""
import glob
import os
import shutil
import subprocess
import sys

TOOL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "channel_statistics.py")


def run(cmd, timeout):
    print("+ " + " ".join(cmd), flush=True)
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
    tail = res.stdout.strip().splitlines()[-4:]
    print("\n".join(tail), flush=True)
    return res.returncode


def skip_without_gpu(sets):
    """Exit 77 (ctest's skip) when the overrides ask for the CUDA backend and no GPU is visible."""
    if "run.backend=cuda" in sets and subprocess.run("nvidia-smi -L 2>/dev/null | grep -q '^GPU'",
                                                     shell=True).returncode != 0:
        print("SKIP: run.backend=cuda and no GPU visible")
        sys.exit(77)


def main():
    if len(sys.argv) < 7:
        sys.exit(__doc__)
    navier, case, ref, scratch, t_mid, t_end = sys.argv[1:7]
    sets = sys.argv[7:]
    skip_without_gpu(sets)
    first, full = os.path.join(scratch, "first"), os.path.join(scratch, "full")
    for d in (first, full):
        shutil.rmtree(d, ignore_errors=True)
    quiet = ["--set", "output.fields_every=0", "--set", "output.fields_dt=0", "--set", "output.monitor_every=100"]
    rc = run([navier, "run", case, "--set", f"time.end_time={t_mid}", "--set", f"output.checkpoint_dt={t_mid}",
              "--output", first] + quiet + sets, 3600)
    ck = sorted(glob.glob(os.path.join(first, "checkpoint_*.nck")))
    if rc != 0 or not ck:
        sys.exit(f"FAIL: the run to t = {t_mid} exited {rc} ({len(ck)} checkpoints)")
    rc = run([navier, "run", case, "--restart", ck[-1], "--set", f"time.end_time={t_end}", "--set",
              "output.checkpoint_dt=0", "--output", full] + quiet + sets, 3600)
    if rc != 0:
        sys.exit(f"FAIL: the continued run to t = {t_end} exited {rc}")
    for f in glob.glob(os.path.join(first, "checkpoint_*.nck")):
        os.remove(f)
    bad = subprocess.run([sys.executable, TOOL, "compare", full, ref, "--bands"]).returncode
    bad |= subprocess.run([sys.executable, TOOL, "halves", first, full]).returncode
    if bad:
        sys.exit("FAIL: a band does not hold (above)")
    print("PASS")


if __name__ == "__main__":
    main()
