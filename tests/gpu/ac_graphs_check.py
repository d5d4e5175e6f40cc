#!/usr/bin/env python3
"""Artificial compressibility's iterations as CUDA graphs (solvers/nav_ac.c, nav_ac_graphed) against the same
iterations launched kernel by kernel (NAV_AC_GRAPHS=0), through `navier run` on the CUDA backend: the 2D cavity
(W-cycles), natural convection (the temperature; F-cycles), the 3D buoyancy-driven cavity, and the cavity with
the nested start and a fixed u_ref. The graphed run must say that it runs graphs (and print no warning that the
recording failed), the other must not; both must write the same final fields (output.dump_final) and the same
monitor.csv bit for bit, and count the same work units. Then a run that blows up (ac_stages 2, ac_cfl 4): with
graphs the NaN is detected at the next monitor step and the message names the iteration after which it was
found and the graphed ones before it; kernel by kernel it names the iteration itself.
Exit 77 without a GPU.
usage: ac_graphs_check.py NAVIER CASES SCRATCH"""
import os
import re
import subprocess
import sys

navier, cases, scratch = sys.argv[1:4]
os.makedirs(scratch, exist_ok=True)
if subprocess.run("nvidia-smi -L 2>/dev/null | grep -q '^GPU'", shell=True).returncode != 0:
    print("SKIP: no GPU visible")
    sys.exit(77)


def run(tag, case, sets, graphs):
    out = os.path.join(scratch, f"{tag}_{int(graphs)}")
    env = dict(os.environ, NAV_AC_GRAPHS="1" if graphs else "0")
    args = [navier, "run", os.path.join(cases, case), "--set", "run.backend=cuda", "--set", "output.dump_final=true",
            "--set", f"output.dir={out}"]
    for s in sets:
        args += ["--set", s]
    p = subprocess.run(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout, out


def read(path):
    with open(path, "rb") as f:
        return f.read()


def work(log):
    m = re.search(r"steady: ([0-9.]+) work units", log)
    return m.group(1) if m else None


GRAPHED = "CUDA graphs between monitor steps"
runs = {"cavity2d_w": ("cavity2d_re1000.ini", ["time.max_steps=30"]),
        "natconv2d_f": ("natconv2d_ra1e6.ini", ["grid.nx=128", "grid.ny=128", "time.max_steps=20", "run.ac_cycle=f"]),
        "bdc3d": ("bdc3d_ra1e5.ini", ["grid.nx=32", "grid.ny=32", "grid.nz=32", "time.max_steps=12"]),
        "cavity2d_nested": ("cavity2d_re1000.ini", ["grid.nx=128", "grid.ny=128", "time.max_steps=15",
                                                    "run.ac_nested_tol=1e-3", "run.ac_u_ref=0.5",
                                                    "output.monitor_every=4"])}
fails = []
for tag, (case, sets) in runs.items():
    rc1, on, d1 = run(tag, case, sets, True)
    rc0, off, d0 = run(tag, case, sets, False)
    if rc1 or rc0:
        fails.append(f"{tag}: the runs failed (exit {rc1} with graphs, {rc0} without):\n{on[-2000:]}\n{off[-2000:]}")
        continue
    same = {name: read(os.path.join(d1, name)) == read(os.path.join(d0, name))
            for name in ("final_fields.bin", "monitor.csv")}
    print(f"{tag:16s} final fields bit for bit: {same['final_fields.bin']}, monitor.csv: {same['monitor.csv']}, "
          f"work units {work(on)} / {work(off)}")
    if GRAPHED not in on or "without CUDA graphs" in on:
        fails.append(f"{tag}: the graphed run does not run graphs")
    if GRAPHED in off:
        fails.append(f"{tag}: NAV_AC_GRAPHS=0 does not turn the graphs off")
    if not all(same.values()) or work(on) is None or work(on) != work(off):
        fails.append(f"{tag}: graphed and kernel-by-kernel runs differ")

# blow-up: monitor steps every 10 iterations (the CPU blows up at iteration 6): the graphed run finds it at the
# start of a monitor step m, after iteration m - 1, having run m - 9 .. m - 1 as graphs; kernel by kernel no later
blow = ["grid.nx=64", "grid.ny=64", "run.ac_stages=2", "run.ac_cfl=4", "time.max_steps=30"]
rc1, on, _ = run("blowup", "cavity2d_re1000.ini", blow, True)
rc0, off, _ = run("blowup", "cavity2d_re1000.ini", blow, False)
m1 = re.search(r"NaN or Inf, detected after iteration (\d+) \(iterations (\d+) to (\d+) ran as CUDA graphs", on)
m0 = re.search(r"blew up at iteration (\d+): a value is NaN or Inf", off)
print(f"blow-up          graphs: exit {rc1}, {m1.group(0) if m1 else 'no message'}; kernel by kernel: exit {rc0}, "
      f"{m0.group(0) if m0 else 'no message'}")
at = int(m1.group(1)) if m1 else -1
if not rc1 or not m1 or (at + 1) % 10 or int(m1.group(2)) != at - 8 or int(m1.group(3)) != at:
    fails.append(f"blow-up: the graphed run does not report the NaN at the monitor step:\n{on[-2000:]}")
if not rc0 or not m0 or (at > 0 and int(m0.group(1)) > at):
    fails.append(f"blow-up: the kernel-by-kernel run does not report the iteration:\n{off[-2000:]}")
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
