"""One `navier bench poisson` solve for the multigrid checks of this directory (mixed_mg_check.py,
mg_graphs_check.py): solve(navier, dump, args, env) runs it to --tol 1e-10 with the solution dumped to dump,
exits the calling check with FAIL (the command and its output printed) on a non-zero exit, and returns
(output, iterations, relres, solve seconds, x)."""
import subprocess
import sys

import numpy as np


def solve(navier, dump, args, env=None):
    cmd = [navier, "bench", "poisson", *args, "--tol", "1e-10", "--dump", dump]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    out = p.stdout + p.stderr
    if p.returncode != 0:
        print(" ".join(cmd))
        print(out)
        sys.exit(f"FAIL: {' '.join(args)}: exit {p.returncode}")
    last = out.strip().splitlines()[-1].split()  # solver N setup_s solve_s iter relres factor unknowns/s
    return out, int(last[4]), float(last[5]), float(last[3]), np.fromfile(dump)
