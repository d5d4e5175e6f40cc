#!/usr/bin/env bash
# OpenFOAM's steady solver on navier's cavity Re 1000, 256^2 (bench/openfoam/cavity256): simpleFoam
# (SIMPLEC, GAMG) on 2 MPI ranks until the p and U residuals are below 1e-6; prints the iterations
# and the wall time of the solver. Needs the Debian package `openfoam` (apt-get install -y openfoam;
# it is large) and its environment (the package's etc/bashrc, e.g.
# source /usr/share/openfoam/etc/bashrc). Compare with: bench/steady_time.sh build/navier OUT
# cases/cavity2d_re1000.ini:cavity_re1000 (same grid, steady_tol 1e-6). Ghia centrelines:
# postProcessing/centrelines/<iteration>/{xmid,ymid}_U.xy (y, Ux, Uy, Uz / x, Ux, Uy, Uz).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=${1:-/tmp/navier_openfoam_cavity256}
rm -rf "$work" && cp -r "$here/cavity256" "$work" && cd "$work"
blockMesh >log.blockMesh 2>&1
decomposePar >log.decomposePar 2>&1
start=$(date +%s.%N)
mpirun -np 2 simpleFoam -parallel >log.simpleFoam 2>&1
end=$(date +%s.%N)
reconstructPar -latestTime >log.reconstructPar 2>&1 || true
iters=$(grep -c '^Time = ' log.simpleFoam)
echo "simpleFoam: $iters SIMPLEC iterations, $(echo "$end - $start" | bc) s wall; $(grep -m1 'SIMPLE solution converged' log.simpleFoam || echo 'NOT converged')"
