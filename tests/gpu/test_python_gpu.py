"""navier.Simulation on the GPU (backend cuda): the zero-copy arrays (arrays(), __cuda_array_interface__)
read by CuPy equal the host copies (fields()) bit for bit, and a PyTorch tensor made from them shares the
device memory (no copy: same data pointer); torch is skipped with a message when it is not importable.
usage: test_python_gpu.py (the navier package installed or NAVIER_LIBRARY set); exit 0 on success, 77 without a GPU."""
import subprocess
import sys

if subprocess.run("nvidia-smi -L 2>/dev/null | grep -q '^GPU'", shell=True).returncode != 0:
    print("SKIP: no GPU visible")
    sys.exit(77)

import navier  # after the skip: a machine without a GPU may lack numpy, which the package needs

fails = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        fails.append(what)


try:
    import cupy
except ImportError:
    print("FAIL cupy is not importable: the gpu test needs CuPy")
    sys.exit(1)
sim = navier.Simulation(overrides={"run.backend": "cuda", "grid.nx": 64, "grid.ny": 48, "time.max_steps": 50},
                        output="gpu_python")
check(sim.device and sim.backend == "cuda", f"backend {sim.backend}, fields on the device")
sim.step(20)
host, dev = sim.fields(), sim.arrays()
for name in ("u", "v", "p"):
    c = cupy.asarray(dev[name])
    check(c.data.ptr == dev[name].__cuda_array_interface__["data"][0], f"cupy.asarray({name}) made no copy")
    check(c.shape == host[name].shape and (cupy.asnumpy(c) == host[name]).all(), f"{name}: CuPy == host copy")
try:
    import torch
except ImportError:
    torch = None
    print("skip torch: not importable here (pip install torch for the PyTorch check)")
if torch is not None:
    t = torch.as_tensor(dev["u"], device="cuda")
    check(t.data_ptr() == dev["u"].__cuda_array_interface__["data"][0], "torch.as_tensor(u) shares the memory")
    check(bool((t.cpu().numpy() == host["u"]).all()), "torch tensor == host copy")
sim.close()
sys.exit(1 if fails else 0)
