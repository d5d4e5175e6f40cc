#!/usr/bin/env bash
# OpenFOAM's steady solver on navier's lid-driven cavity, 256^2 (bench/openfoam/cavity256):
# simpleFoam (SIMPLEC, GAMG for p, symmetric Gauss-Seidel for U, central "Gauss linear" advection)
# on 2 MPI ranks until the initial residuals of p and U are below 1e-6 (residualControl); prints the
# SIMPLE iterations, the wall time and the CPU time (user + sys of mpirun and its ranks: on a shared
# machine CPU seconds compare fairer than wall seconds) of the solver, and the Ghia et al. (1982)
# deviations computed as navier computes them (ghia_openfoam.py).
#
# usage: bench/openfoam/run_cavity.sh [WORK_DIR] [RE]   (RE 1000 by default; 3200 sets nu = 1/3200)
#   NP=1 runs one serial process (no decomposition): on a machine shared with other jobs the two
#   MPI ranks wait for each other at every exchange (about 20 s of wall per 0.45 s of CPU per
#   iteration under a load of 20 on 2 cores), so the CPU seconds of one rank are then the fair figure.
# Needs the Debian package `openfoam` (apt-get install -y openfoam: OpenFOAM v1912, binaries in
# /usr/bin). Its etc/bashrc does not work from the package (it looks for bin/foamEtcFile); the two
# variables below are all the solvers need. Compare with navier on the same machine:
#   bench/steady_time.sh build/navier OUT cases/cavity2d_re1000.ini:cavity_re1000
#   (add :physics.nu=3.125e-4 for Re 3200; same grid, steady_tol 1e-6).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=${1:-/tmp/navier_openfoam_cavity256}
re=${2:-1000}
export WM_PROJECT_DIR=${WM_PROJECT_DIR:-/usr/share/openfoam} FOAM_ETC=${FOAM_ETC:-/usr/share/openfoam/etc}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nu=$(/usr/bin/python3 -c "print(repr(1.0 / $re))")
rm -rf "$work" && cp -r "$here/cavity256" "$work" && cd "$work"
sed -i "s/^nu .*/nu [0 2 -1 0 0 0 0] $nu;/" constant/transportProperties constant/physicalProperties
blockMesh >log.blockMesh 2>&1
np=${NP:-2}
if [ "$np" -gt 1 ]; then
  sed -i "s/^numberOfSubdomains .*/numberOfSubdomains $np;/; s/^simpleCoeffs .*/simpleCoeffs { n ($np 1 1); }/" \
    system/decomposeParDict
  decomposePar >log.decomposePar 2>&1
  /usr/bin/time -f "%U %S %e" -o time.txt mpirun -np "$np" simpleFoam -parallel >log.simpleFoam 2>&1
  reconstructPar -latestTime >log.reconstructPar 2>&1 || true
else
  /usr/bin/time -f "%U %S %e" -o time.txt simpleFoam >log.simpleFoam 2>&1
fi
iters=$(grep -c '^Time = ' log.simpleFoam)
read -r user sys wall <time.txt
conv=$(grep -m1 'SIMPLE solution converged' log.simpleFoam || echo 'NOT converged')
echo "simpleFoam Re $re 256^2: $iters SIMPLE iterations, $wall s wall, $(echo "$user + $sys" | bc) s CPU (user+sys, $np rank(s)); $conv"
/usr/bin/python3 "$here/ghia_openfoam.py" "$work" "$re"
