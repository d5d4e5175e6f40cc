#!/usr/bin/env bash
# Multigrid V(2,2) convergence factor and time over grid sizes (all-Neumann and all-Dirichlet,
# random zero-mean right-hand side, relative residual 1e-10), 2D 64^2 .. 2048^2, 3D 32^3 .. 256^3.
#   bench/poisson_sweep.sh [BUILD_DIR]    prints a table; JSON lines on stderr
set -euo pipefail
build=${1:-$(dirname "$0")/../build}
printf '%-3s %6s %-9s %6s %9s %9s %12s\n' dim N bc cycles factor solve_s unknowns/s
run() {
  "$build/navier" bench poisson --dim "$1" --n "$2" --bc "$3" --tol 1e-10 --json | tee /dev/stderr | python3 -c "
import json,sys
d=json.load(sys.stdin)
print('%-3d %6d %-9s %6d %9.4f %9.3f %12.3e' % (d['dim'], d['n'], d['bc'], d['iterations'], d['factor'], d['solve_s'], d['unknowns_per_s']))"
}
for n in 64 128 256 512 1024 2048; do for bc in neumann dirichlet; do run 2 $n $bc; done; done
for n in 32 64 128 256; do for bc in neumann dirichlet; do run 3 $n $bc; done; done
