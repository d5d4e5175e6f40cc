"""navier.Simulation (python/navier, the flow C API) against the navier command, one rank, CPU:

  the default cavity, 200 steps: Simulation.step(200) and `navier run --set time.max_steps=200` write the
  same final_fields.bin bit for bit, and fields() holds the same values;
  set_field then step equals a restart: the state arrays and clock of step 100 set into a fresh simulation,
  100 more steps, equal `navier run --restart` of the step-100 checkpoint bit for bit;
  run(until=, every=, callback=) lands on the time and calls back at the cadence;
  a case given as INI text runs, and its errors name "(string):LINE";
  arrays() are views of the same values as fields();
  a wrong key raises NavierError with the `FILE:LINE: key` message (an override and a case file line), and the
  interpreter then exits normally (nothing left running).
usage: test_simulation.py NAVIER SCRATCH; exit 0 on success."""
import glob
import os
import subprocess
import sys
import textwrap

import numpy as np

import navier

nav, scratch = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
fails = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        fails.append(what)


def run(*args):
    res = subprocess.run([nav, "run", *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if res.returncode:
        print(res.stdout)
    check(res.returncode == 0, "navier run " + " ".join(args))


def final(path):
    return open(os.path.join(path, "final_fields.bin"), "rb").read()


SETS = {"time.max_steps": 200, "output.dump_final": True, "output.plots": False}
cli = [a for k, v in SETS.items() for a in ("--set", f"{k}={navier.simulation._value(v)}")]

# 1. 200 steps of the default case, navier run and Simulation
run(*cli, "--output", "cli200")
sim = navier.Simulation(overrides=SETS, output="py200")
check(sim.step(200) == 200 and sim.steps == 200, "Simulation.step(200) took 200 steps")
sim.write_summary()
check(final("cli200") == final("py200"), "final_fields.bin of Simulation.step(200) == navier run, bit for bit")
f = sim.fields()
flat = np.concatenate([f[n].ravel(order="F") for n in ("u", "v", "p")])
check(flat.tobytes() == final("cli200"), "fields() u, v, p == navier run's final fields, bit for bit")
check(f["u"].shape == (128, 128) and f["x"].shape == (128,) and f["xf"].shape == (129,), "shapes and coordinates")
a = sim.arrays()
check(all(np.array_equal(a[n], f[n]) for n in ("u", "v", "p")), "arrays() (no copy) == fields()")
s = sim.summary
check(s["status"] == "completed", "summary: status completed")
sim.close()

# 2. set_field then step == restart
run("--set", "time.max_steps=100", "--set", "output.checkpoint_interval=100", "--set", "output.plots=false",
    "--output", "restart")
ckpt = sorted(glob.glob("restart/checkpoint_*"))
check(len(ckpt) == 1, "navier run wrote one checkpoint at step 100")
run("--restart", ckpt[-1], *cli, "--output", "restart")
first = navier.Simulation(overrides=SETS, output="py100")
first.step(100)
state, clock = first.fields(state=True), first.clock
first.close()
second = navier.Simulation(overrides=SETS, output="pyset")
for name in second.field_names():
    second.set_field(name, state[name])
second.set_clock(*clock)
second.step(100)
second.write_summary()
check(final("pyset") == final("restart"), "set_field + set_clock + step(100) == navier run --restart, bit for bit")
check(final("pyset") == final("cli200"), "... == the uninterrupted 200 steps")
second.close()

# 3. run(until=..., every=..., callback=...)
small = navier.Simulation(overrides={"grid.nx": 32, "grid.ny": 32}, output="pyrun")
seen = []
taken = small.run(until=0.5, every=10, callback=lambda s: seen.append((s.steps, s.time)))
check(abs(small.time - 0.5) < 1e-12 and taken == small.steps, f"run(until=0.5) stopped at t = {small.time!r}")
check(all(k == 10 * (i + 1) for i, (k, _) in enumerate(seen[:-1])) and seen[-1][0] == taken,
      f"callback every 10 steps and at the end ({len(seen)} calls)")
small.close()

# 4. a case as INI text; its errors name "(string)" and the line
text = navier.Simulation(config="[grid]\nnx = 16\nny = 8\n", output="pytext")
check(text.shape == (16, 8) and text.step(3) == 3, "Simulation(config=INI text): a 16 x 8 grid, 3 steps")
text.close()
try:
    navier.Simulation(config="[grid]\nnx = 16\nnyy = 8\n", output="pytext_bad")
    check(False, "a bad key in INI text raises")
except navier.NavierError as e:
    check("(string):3: key 'grid.nyy'" in str(e) and e.code == 1, f"a bad key in INI text: {e}")
check(not os.path.exists("pytext_bad"), "a refused case leaves no output folder")

# 5. wrong keys: NavierError with FILE:LINE: key, and a clean exit
with open("bad.ini", "w") as fp:
    fp.write("[grid]\nnxx = 3\n")
code = textwrap.dedent("""
    import navier, sys
    msgs = []
    for kw in ({"overrides": {"time.max_stepz": 3}}, {"case": "bad.ini"}):
        try:
            navier.Simulation(**kw)
        except navier.NavierError as e:
            msgs.append(str(e))
    print("\\n".join(msgs))
""")
res = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                     timeout=60)
print(res.stdout)
check(res.returncode == 0, "the interpreter exits normally after the errors")
check("--set:1: key 'time.max_stepz': unknown key" in res.stdout, "an unknown override: --set:1: key 'time.max_stepz'")
check("bad.ini:2: key 'grid.nxx'" in res.stdout, "a case file: bad.ini:2: key 'grid.nxx'")

print(f"{len(fails)} failed")
sys.exit(1 if fails else 0)
