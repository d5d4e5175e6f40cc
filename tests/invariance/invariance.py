#!/usr/bin/python3
"""Invariance runs of navier: every case in cases/ and the default case, 1 and 4 ranks, CPU backend.

A redesign changes no result (issue 39): the same runs of an old and a new binary must give the same
final_fields.bin bit for bit and the same summary.json except its timings (IGNORED_KEYS).

    invariance.py run NAVIER OUTDIR [--cases DIR] [--only NAME,...] [--ranks 1,4]
        run every entry of CASES with NAVIER into OUTDIR/<name>_np<ranks>/ (log in run.log there)
    invariance.py compare OLDDIR NEWDIR
        compare two OUTDIRs: one line per run (name, ranks, SAME/DIFF and why), a count; exit 1 on any DIFF

tests/invariance/run_cases.sh and compare.sh wrap these (see their headers and /work/notes/INVARIANCE.md).
Every run uses OMP_NUM_THREADS=1 unless INVARIANCE_THREADS is set. The CPU backend's results depend on
the OpenMP thread count (35594cc, 2 threads against 1: 16 of the 50 runs differ in their last bits) but
not on the run (2 threads twice: the same bits), so both sides of a comparison need the same count.
"""
import json
import os
import subprocess
import sys
import time

# Given to every run: the CPU backend, the final fields dumped, no figures and no snapshots or
# checkpoints (they change no result, only cost time and disk).
COMMON = ["run.backend=cpu", "output.dump_final=true", "output.plots=false", "output.fields_every=0",
          "output.fields_dt=0", "output.checkpoint_interval=0", "output.checkpoint_dt=0"]

# Cases with bodies: force averages from t = 0, a monitor row every 5 steps (summary.json has them).
BODY = ["forces.average_start=0", "output.monitor_every=5"]

# Rank counts of every entry, each with its own extra overrides.
RANKS = {1: [], 4: []}
# nx = 1 (a one-dimensional channel): MPI_Dims_create's 2 x 2 leaves blocks without cells along x.
RANKS_Y_SLABS = {1: [], 4: ["run.decomposition=1,4,1"]}

# name -> (case file relative to cases/, or None for `navier run` without a case; overrides[; RANKS]).
# Each run is reduced to a few seconds on one core: a step limit, and a smaller grid where the case's
# grid is large. Exceptions are commented on their row.
CASES = {
    "default": (None, ["time.max_steps=200"]),
    "abc3d": ("abc3d.ini", []),  # 32^3, 32 steps: the whole case
    "bdc3d_ra1e5": ("bdc3d_ra1e5.ini", ["grid.nx=16", "grid.ny=16", "grid.nz=16", "time.max_steps=20"]),
    "cavity2d_re100": ("cavity2d_re100.ini", ["grid.nx=64", "grid.ny=64", "time.max_steps=50"]),
    "cavity2d_re1000": ("cavity2d_re1000.ini", ["grid.nx=64", "grid.ny=64", "time.max_steps=50"]),
    "cavity3d_re1000": ("cavity3d_re1000.ini", ["grid.nx=32", "grid.ny=32", "grid.nz=32", "time.max_steps=20"]),
    "channel2d_inflow": ("channel2d_inflow.ini", ["time.max_steps=200"]),
    "channel2d_poiseuille": ("channel2d_poiseuille.ini", ["time.max_steps=300"]),
    "channel2d_rans_retau5200": ("channel2d_rans_retau5200.ini", ["time.max_steps=300"], RANKS_Y_SLABS),
    "channel2d_rans_retau550": ("channel2d_rans_retau550.ini", ["time.max_steps=300"], RANKS_Y_SLABS),
    "conduction2d": ("conduction2d.ini", ["time.max_steps=300"]),
    # its stretched grid from data/ (411 x 232) kept: few steps instead. Bodies: the force averages from
    # t = 0 and a monitor row every 5 steps, so that summary.json has them.
    "cylinder2d_re100": ("cylinder2d_re100.ini", ["time.max_steps=20"] + BODY),
    # 984 x 984 from data/: a uniform 128 x 128 grid instead (its stretched-grid path is run by re100/re40)
    "cylinder2d_re3000": ("cylinder2d_re3000.ini", ["grid.x_spacing=uniform", "grid.y_spacing=uniform",
                                                    "grid.x_file=", "grid.y_file=", "grid.nx=128", "grid.ny=128",
                                                    "time.max_steps=20"] + BODY),
    "cylinder2d_re40": ("cylinder2d_re40.ini", ["time.max_steps=30"] + BODY),
    "heat_wave2d": ("heat_wave2d.ini", []),  # 16^2, 50 steps: the whole case
    "kovasznay2d": ("kovasznay2d.ini", ["time.max_steps=200"]),
    "natconv2d_ra1e3": ("natconv2d_ra1e3.ini", ["time.max_steps=100"]),
    "natconv2d_ra1e4": ("natconv2d_ra1e4.ini", ["time.max_steps=50"]),
    "natconv2d_ra1e5": ("natconv2d_ra1e5.ini", ["grid.nx=64", "grid.ny=64", "time.max_steps=50"]),
    "natconv2d_ra1e6": ("natconv2d_ra1e6.ini", ["grid.nx=64", "grid.ny=64", "time.max_steps=50"]),
    "rayleigh_benard2d": ("rayleigh_benard2d.ini", ["time.max_steps=300"]),
    # 1704^2 from data/: a uniform 128^2 grid on the 8 x 8 square around the snake (h = 1/16 of its chord)
    "snake2d_re2000_aoa35": ("snake2d_re2000_aoa35.ini", [
        "grid.x_spacing=uniform", "grid.y_spacing=uniform", "grid.x_file=", "grid.y_file=", "grid.nx=128",
        "grid.ny=128", "grid.lx=8", "grid.ly=8", "grid.x0=-4", "grid.y0=-4", "time.max_steps=50"] + BODY),
    # 139 x 91 x 91 from data/: a uniform 32 x 16 x 16 grid on a 4 x 2 x 2 box around the sphere
    "sphere3d_re100": ("sphere3d_re100.ini", [
        "grid.x_spacing=uniform", "grid.y_spacing=uniform", "grid.z_spacing=uniform", "grid.x_file=",
        "grid.y_file=", "grid.z_file=", "grid.nx=32", "grid.ny=16", "grid.nz=16", "grid.lx=4", "grid.ly=2",
        "grid.lz=2", "grid.x0=-1.5", "grid.y0=-1", "grid.z0=-1", "time.max_steps=30"] + BODY),
    "taylor_green2d": ("taylor_green2d.ini", []),  # 32^2, 32 steps: the whole case
    "taylor_green3d": ("taylor_green3d.ini", []),  # 32^3, 32 steps: the whole case
    # the turbulent channel with statistics from t = 0 (a window in summary.json) on a 16 x 24 x 16 grid
    "channel3d_retau180": ("channel3d_retau180.ini", ["grid.nx=16", "grid.ny=24", "grid.nz=16", "time.max_steps=20",
                                                      "statistics.start_time=0", "statistics.every=1"]),
    # each LES closure on the channel (stretched y, walls: the damping and the face viscosities at walls)
    "les395_wale": ("channel3d_les_retau395.ini", ["grid.nx=16", "grid.ny=24", "grid.nz=16", "time.max_steps=20",
                                                   "turbulence.model=wale", "statistics.start_time=0"]),
    "les395_vreman": ("channel3d_les_retau395.ini", ["grid.nx=16", "grid.ny=24", "grid.nz=16", "time.max_steps=20",
                                                     "turbulence.model=vreman", "statistics.start_time=0"]),
    "les395_smagorinsky": ("channel3d_les_retau395.ini", ["grid.nx=16", "grid.ny=24", "grid.nz=16",
                                                          "time.max_steps=20", "turbulence.model=smagorinsky",
                                                          "statistics.start_time=0"]),
    # the LES Taylor-Green vortex (periodic box) on 24^3
    "tgv3d_les": ("tgv3d_re1600_les.ini", ["grid.nx=24", "grid.ny=24", "grid.nz=24", "time.max_steps=20"]),
}

# summary.json keys left out of the comparison, at any depth: timings of the machine.
IGNORED_KEYS = ("wall_s", "loop_s", "profile")

# OMP_WAIT_POLICY=passive as in cmake/NavTests.cmake: spinning threads on shared cores slow runs many times.
MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1", "OMP_WAIT_POLICY": "passive"}
TIMEOUT_S = 300


def run_all(navier, outdir, cases_dir, only, ranks_wanted):
    navier = os.path.abspath(navier)
    os.makedirs(outdir, exist_ok=True)
    env = dict(os.environ, **MPI_ENV)
    env["OMP_NUM_THREADS"] = os.environ.get("INVARIANCE_THREADS", "1")
    failed = 0
    t_all = time.time()
    for name, entry in CASES.items():
        case, sets, ranks = entry if len(entry) == 3 else entry + (RANKS,)
        if only and name not in only:
            continue
        if case is not None and not os.path.exists(os.path.join(cases_dir, case)):
            print(f"{name}: MISSING case file {os.path.join(cases_dir, case)}")
            failed += 1
            continue
        for n, rank_sets in ranks.items():
            if ranks_wanted and n not in ranks_wanted:
                continue
            run_dir = os.path.abspath(os.path.join(outdir, f"{name}_np{n}"))
            os.makedirs(run_dir, exist_ok=True)
            for stale in ("final_fields.bin", "summary.json"):
                if os.path.exists(os.path.join(run_dir, stale)):
                    os.remove(os.path.join(run_dir, stale))
            cmd = [navier, "run"] + ([os.path.abspath(os.path.join(cases_dir, case))] if case else [])
            for s in COMMON + sets + rank_sets:
                cmd += ["--set", s]
            cmd += ["--output", run_dir]
            if n > 1:
                cmd = ["mpiexec", "--oversubscribe", "-n", str(n)] + cmd
            t0 = time.time()
            with open(os.path.join(run_dir, "run.log"), "w") as log:
                log.write(" ".join(cmd) + "\n")
                log.flush()
                try:
                    rc = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, env=env,
                                        timeout=TIMEOUT_S).returncode
                except subprocess.TimeoutExpired:
                    rc = "timeout"
            ok = rc == 0 and os.path.exists(os.path.join(run_dir, "final_fields.bin"))
            failed += not ok
            print(f"{name:26s} np={n} {'ok' if ok else 'FAILED rc=' + str(rc)} {time.time() - t0:6.1f} s",
                  flush=True)
    print(f"runs done in {time.time() - t_all:.1f} s, {failed} failed")
    return 1 if failed else 0


def strip(obj, path, ignored):
    """obj without the IGNORED_KEYS (their paths appended to ignored)."""
    if isinstance(obj, dict):
        out = {}
        for k, v in obj.items():
            if k in IGNORED_KEYS:
                ignored.add(path + k)
            else:
                out[k] = strip(v, path + k + ".", ignored)
        return out
    if isinstance(obj, list):
        return [strip(v, path, ignored) for v in obj]
    return obj


def diff_paths(a, b, path=""):
    """Paths at which the two JSON values differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(path + k + (" (only new)" if k not in a else " (only old)"))
            else:
                out += diff_paths(a[k], b[k], path + k + ".")
        return out
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return []  # NaN on both sides
    if a != b or type(a) is not type(b):
        return [path.rstrip(".") or "(root)"]
    return []


def compare(old_dir, new_dir):
    same = diff = 0
    ignored = set()
    for name, entry in CASES.items():
        for n in (entry[2] if len(entry) == 3 else RANKS):
            run = f"{name}_np{n}"
            why = []
            fo, fn = (os.path.join(d, run, "final_fields.bin") for d in (old_dir, new_dir))
            so, sn = (os.path.join(d, run, "summary.json") for d in (old_dir, new_dir))
            if not all(os.path.exists(p) for p in (fo, fn, so, sn)):
                why.append("missing output")
            else:
                if subprocess.run(["cmp", "-s", fo, fn]).returncode != 0:
                    why.append("final_fields.bin differs")
                with open(so) as f:
                    jo = strip(json.load(f), "", ignored)
                with open(sn) as f:
                    jn = strip(json.load(f), "", ignored)
                d = diff_paths(jo, jn)
                if d:
                    why.append("summary.json differs at " + ", ".join(d[:6]) + (" ..." if len(d) > 6 else ""))
            if why:
                diff += 1
                print(f"{name:26s} np={n} DIFF: {'; '.join(why)}")
            else:
                same += 1
                print(f"{name:26s} np={n} SAME")
    print(f"summary.json keys ignored: {', '.join(sorted(ignored)) or '(none)'}")
    print(f"{same} SAME, {diff} DIFF of {same + diff} runs")
    return 1 if diff else 0


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    if len(argv) >= 3 and argv[0] == "run":
        cases_dir = os.path.join(here, "..", "..", "cases")
        only, ranks = None, None
        rest = argv[3:]
        while rest:
            opt, val, rest = rest[0], rest[1] if len(rest) > 1 else "", rest[2:]
            if opt == "--cases":
                cases_dir = val
            elif opt == "--only":
                only = set(val.split(","))
            elif opt == "--ranks":
                ranks = {int(r) for r in val.split(",")}
            else:
                sys.exit(f"invariance.py: unknown option {opt}")
        unknown = (only or set()) - set(CASES)
        if unknown:
            sys.exit(f"invariance.py: unknown run names {sorted(unknown)}")
        return run_all(argv[1], argv[2], cases_dir, only, ranks)
    if len(argv) == 3 and argv[0] == "compare":
        return compare(argv[1], argv[2])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
