#!/usr/bin/env python3
"""Tests of the DNS statistics (src/physics/statistics) through `navier run` on the small channel
tests/statistics/channel_tg.ini (walls z, x and y periodic, 40 steps, samples every 2 steps from t = 0.05).

usage: statistics_checks.py NAVIER CASE SCRATCH restart [SET ...]
       statistics_checks.py NAVIER CASE SCRATCH mpi MPIEXEC TOL SPLITS [SET ...]  (SPLITS: 2,2,1:1,1,4:...)
       statistics_checks.py NAVIER CASE SCRATCH bad
       statistics_checks.py NAVIER CASE SCRATCH backends TOL [SET ...]    (CUDA against CPU; 77 without CUDA)
SET: section.key=value settings of every run; with any, they must give the flow an eddy viscosity (an LES
  closure: turbulence.model=wale), and the profiles must have the column nut_over_nu (<nu_t / nu>), which the
  comparisons then cover like the others.
restart: one run of 40 steps against 20 steps + checkpoint + a restart to 40: statistics.csv,
  statistics_profile.csv and summary.json "statistics" identical (bytes); the same in fields mode (walls on
  y and z) for the checkpoint of step 40, which holds the sums.
mpi: the 1-rank statistics_profile.csv against each decomposition's, max |a - b| / scale per column
  <= TOL (scale: the largest mean velocity for U, V, W, the largest stress for the stresses, else the
  column's largest value); summary u_tau, re_tau, cf, ub_plus likewise.
backends: the same comparison as mpi between run.backend = cpu and cuda (one rank each).
bad: start_time after end_time, and wall_normal along a periodic direction: exit 2 with
  FILE:LINE: key 'statistics.KEY': ...; a flow with no profile direction (walls on four faces) runs and
  keeps fields (no statistics.csv, summary "statistics" with its samples)."""
import json
import os
import re
import shutil
import subprocess
import sys


# walls on y and z: no profile direction, the statistics keep fields at the cells
FIELDS = ["--set", "boundary.y_low=wall", "--set", "boundary.y_high=wall", "--set", "physics.forcing=none", "--set",
          "physics.initial=rest", "--set", "boundary.z_high_velocity=1,0,0"]


def run(cmd, want=0):
    if "run" in cmd:  # navier run, direct or under mpiexec
        cmd = cmd + EXTRA
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    if res.returncode != want:
        print(res.stdout[-3000:])
        sys.exit(f"FAIL: {' '.join(cmd)} exited {res.returncode}, expected {want}")
    return res.stdout


def table(path):
    rows = [l.strip().split(",") for l in open(path) if l.strip()]
    return rows[0], [[float(x) for x in r] for r in rows[1:]]


def summary(d):
    return json.load(open(os.path.join(d, "summary.json")))["statistics"]


EXTRA = []  # the SET arguments as --set options


def need_nut(d):
    """With SET arguments: both csv files have the column nut_over_nu, positive somewhere."""
    if not EXTRA:
        return
    for name in ("statistics.csv", "statistics_profile.csv"):
        head, rows = table(os.path.join(d, name))
        if "nut_over_nu" not in head:
            sys.exit(f"FAIL: {name} has no column nut_over_nu with {' '.join(EXTRA)}")
        c = head.index("nut_over_nu")
        if not max(r[c] for r in rows) > 0:
            sys.exit(f"FAIL: {name}: nut_over_nu is not positive anywhere")


def fresh(d):
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def second_half_check(navier, case, scratch, first, full):
    """tools/channel_statistics.py's second half of a window (the full window's sums minus the first's) equals a
    run that samples only the second half (from just after the first's last sample), to round-off."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
    import channel_statistics as cs
    s1, sf = summary(first), summary(full)
    c = fresh(os.path.join(scratch, "second_half"))
    run([navier, "run", case, "--set", f"statistics.start_time={s1['end'] * (1 + 1e-9):.15e}", "--output", c])
    s2 = summary(c)
    if s2["samples"] != sf["samples"] - s1["samples"] or s2["start"] <= s1["end"]:
        sys.exit(f"FAIL: the second half's run sampled {s2['samples']} from t = {s2['start']} (want "
                 f"{sf['samples'] - s1['samples']} after {s1['end']})")
    U2, tau2 = cs.second_half(s1, cs.table(os.path.join(first, "statistics_profile.csv")), sf,
                              cs.table(os.path.join(full, "statistics_profile.csv")))
    Uc = cs.table(os.path.join(c, "statistics_profile.csv"))["U"]
    scale = max(abs(u) for u in Uc)
    dU = max(abs(a - b) for a, b in zip(U2, Uc)) / scale
    tauc = 0.5 * (s2["tau_w"][0] + s2["tau_w"][1])
    dtau = abs(tau2 - tauc) / tauc
    if not (dU <= 1e-12 and dtau <= 1e-11):
        sys.exit(f"FAIL: channel_statistics.py second half: U {dU:.2e} (<= 1e-12), tau_w {dtau:.2e} (<= 1e-11)")
    print(f"halves: the tool's second half against a run of the second half alone: U {dU:.2e}, tau_w {dtau:.2e}")


def restart(navier, case, scratch):
    a, b = fresh(os.path.join(scratch, "full")), fresh(os.path.join(scratch, "halves"))
    run([navier, "run", case, "--output", a])
    run([navier, "run", case, "--set", "time.max_steps=20", "--output", b])
    first = os.path.join(scratch, "first_half")
    shutil.rmtree(first, ignore_errors=True)
    shutil.copytree(b, first)
    run([navier, "run", case, "--restart", os.path.join(b, "checkpoint_00000020.nck"), "--output", b])
    for name in ("statistics.csv", "statistics_profile.csv"):
        if open(os.path.join(a, name), "rb").read() != open(os.path.join(b, name), "rb").read():
            sys.exit(f"FAIL: {name} of the restarted run differs from the uninterrupted one")
    need_nut(a)
    sa, sb = summary(a), summary(b)
    if sa != sb:
        sys.exit(f"FAIL: summary statistics differ:\n{sa}\n{sb}")
    # the window: start_time = 0.05, every 2 of 40 steps: the even steps from the first at t >= 0.05 (step 4)
    if sa["start"] < 0.05 or sa["samples"] != 19:
        sys.exit(f"FAIL: window: first sample at t = {sa['start']}, {sa['samples']} samples (want t >= 0.05, 19)")
    print(f"restart: 20 + 20 steps = 40 steps bit for bit ({sa['samples']} samples, Re_tau {sa['re_tau']:.6f})")
    second_half_check(navier, case, scratch, first, b)
    # fields mode (no profile direction): the running sums are state arrays; the checkpoints of step 40 agree
    a, b = fresh(os.path.join(scratch, "fields_full")), fresh(os.path.join(scratch, "fields_halves"))
    run([navier, "run", case, "--output", a] + FIELDS)
    run([navier, "run", case, "--set", "time.max_steps=20", "--output", b] + FIELDS)
    run([navier, "run", case, "--restart", os.path.join(b, "checkpoint_00000020.nck"), "--output", b] + FIELDS)
    ck = "checkpoint_00000040.nck"
    if open(os.path.join(a, ck), "rb").read() != open(os.path.join(b, ck), "rb").read():
        sys.exit("FAIL: fields mode: the restarted checkpoint of step 40 differs from the uninterrupted one")
    if summary(a) != summary(b):
        sys.exit("FAIL: fields mode: summary statistics differ")
    print("restart, fields mode: checkpoint of step 40 (the sums stat_*) bit for bit")


def compare(ref_dir, d, tol, label):
    """The largest relative difference of statistics_profile.csv and the summary of d against ref_dir."""
    head, ref = table(os.path.join(ref_dir, "statistics_profile.csv"))
    s1 = summary(ref_dir)
    _, got = table(os.path.join(d, "statistics_profile.csv"))
    worst = 0.0
    for c in range(1, len(head)):
        # a mean velocity against the largest mean velocity, a stress against the largest stress: a
        # column that is only round-off (V of the channel) is measured against the flow
        group = [c]
        for g in (("U", "V", "W"), ("uu", "vv", "ww", "uv", "uw", "vw")):
            if head[c] in g:
                group = [head.index(x) for x in g]
        scale = max(abs(r[k]) for r in ref for k in group) or 1.0
        diff = max(abs(r[c] - g[c]) for r, g in zip(ref, got)) / scale
        if diff > tol:
            sys.exit(f"FAIL: {label}: column {head[c]} differs by {diff:.3e} > {tol}")
        worst = max(worst, diff)
    sn = summary(d)
    for k in ("u_tau", "re_tau", "cf", "ub_plus"):
        diff = abs(sn[k] - s1[k]) / abs(s1[k])
        if diff > tol:
            sys.exit(f"FAIL: {label}: summary {k} {sn[k]} vs {s1[k]}")
        worst = max(worst, diff)
    if sn["samples"] != s1["samples"]:
        sys.exit(f"FAIL: {label}: {sn['samples']} samples, reference {s1['samples']}")
    return worst


def mpi(navier, case, scratch, mpiexec, tol, splits):
    one = fresh(os.path.join(scratch, "ranks1"))
    run([navier, "run", case, "--output", one])
    need_nut(one)
    worst_all = 0.0
    for split in splits.split(":"):
        n = 1
        for p in split.split(","):
            n *= int(p)
        d = fresh(os.path.join(scratch, "ranks_" + split.replace(",", "x")))
        run([mpiexec, "-n", str(n), "--oversubscribe", navier, "run", case, "--set", f"run.decomposition={split}",
             "--output", d])
        worst = compare(one, d, tol, split)
        print(f"decomposition {split}: largest relative difference {worst:.3e}")
        worst_all = max(worst_all, worst)
    print(f"mpi: every decomposition within {worst_all:.3e} (tolerance {tol})")


def backends(navier, case, scratch, tol):
    cpu, cuda = fresh(os.path.join(scratch, "cpu")), fresh(os.path.join(scratch, "cuda"))
    res = subprocess.run([navier, "run", case, "--set", "run.backend=cuda", "--output", cuda] + EXTRA, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, timeout=600)
    if res.returncode != 0:
        print(res.stdout[-2000:])
        print("backends: no CUDA run possible here: skipped")
        sys.exit(77)
    run([navier, "run", case, "--set", "run.backend=cpu", "--output", cpu])
    need_nut(cpu)
    worst = compare(cpu, cuda, tol, "cuda")
    print(f"backends: CUDA against CPU within {worst:.3e} (tolerance {tol})")


def bad(navier, case, scratch):
    d = fresh(os.path.join(scratch, "bad"))
    cases = [
        (["--set", "time.max_steps=0", "--set", "time.end_time=0.5", "--set", "statistics.start_time=1"],
         "statistics.start_time", "not before end_time"),
        (["--set", "statistics.wall_normal=y"], "statistics.wall_normal", "walls on both y faces"),
        (["--set", "statistics.wall_normal=z", "--set", "grid.dim=2", "--set", "grid.nz=1"],
         "grid.dim", "wall_normal = z is not a direction of a 2D case"),  # the later key: grid.dim
    ]
    for sets, key, why in cases:
        out = run([navier, "run", case, "--output", d] + sets, want=2)
        if not re.search(r"[^\s:]+:\d+: key '" + re.escape(key) + "': .*" + re.escape(why), out):
            print(out)
            sys.exit(f"FAIL: no FILE:LINE: key '{key}': ...{why} message")
        print(f"bad input {' '.join(sets)}: exit 2, {key}")
    f = fresh(os.path.join(scratch, "fields"))
    run([navier, "run", case, "--output", f] + FIELDS)
    if os.path.exists(os.path.join(f, "statistics.csv")):
        sys.exit("FAIL: a flow without a profile direction wrote statistics.csv")
    s = summary(f)
    if s["samples"] != 19 or "fields" not in s:
        sys.exit(f"FAIL: fields mode summary {s}")
    print(f"no profile direction: fields kept, {s['samples']} samples, no statistics.csv")


def main():
    navier, case, scratch, what = sys.argv[1:5]
    os.makedirs(scratch, exist_ok=True)
    first = {"restart": 5, "mpi": 8, "backends": 6}.get(what, len(sys.argv))
    for kv in sys.argv[first:]:
        EXTRA.extend(["--set", kv])
    if what == "restart":
        restart(navier, case, scratch)
    elif what == "mpi":
        mpi(navier, case, scratch, sys.argv[5], float(sys.argv[6]), sys.argv[7])
    elif what == "backends":
        backends(navier, case, scratch, float(sys.argv[5]))
    elif what == "bad":
        bad(navier, case, scratch)
    else:
        sys.exit(f"unknown test {what}")


if __name__ == "__main__":
    main()
