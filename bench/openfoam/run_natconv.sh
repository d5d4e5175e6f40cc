#!/usr/bin/env bash
# OpenFOAM's steady Boussinesq solver on navier's differentially heated cavity (bench/openfoam/
# natconv256, the case of cases/natconv2d_ra1e6.ini): buoyantBoussinesqSimpleFoam (SIMPLE, GAMG for
# p_rgh, symmetric Gauss-Seidel for U and T, central "bounded Gauss linear" advection of U and T), from
# navier's start (rest, conduction profile theta = 1 - x), until the initial residuals of p_rgh, U and T
# are all below 1e-6 (residualControl). Prints the SIMPLE iterations, the wall time and the CPU time
# (user + sys of the solver and its ranks: on a shared machine CPU seconds compare fairer than wall
# seconds), and the de Vahl Davis (1983) quantities computed as navier computes them
# (natconv_openfoam.py).
#
# usage: bench/openfoam/run_natconv.sh [WORK_DIR] [RA] [N]   (RA 1e6, N 256 by default)
#   NP=2 runs two MPI ranks (decomposePar, simple 2 x 1); NP=1 (default) one serial process: on a
#   machine shared with other jobs two ranks wait for each other at every exchange (run_cavity.sh).
#   RELAX_U, RELAX_P, RELAX_T: SIMPLE's under-relaxation of U, p_rgh and T (defaults 0.5, 0.5, 0.95: the fastest of a scan on 64^2).
#   MAX_ITER: stop after this many SIMPLE iterations (default 200000).
# Needs the Debian package `openfoam` (OpenFOAM v1912, binaries in /usr/bin). Compare with navier on
# the same machine: bench/steady_time.sh build/navier OUT cases/natconv2d_ra1e6.ini:natconv_ra1e6
#   (or `navier run cases/natconv2d_ra1e6.ini --set time.steady_tol=1e-6`).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=${1:-/tmp/navier_openfoam_natconv}
ra=${2:-1e6}
n=${3:-256}
np=${NP:-1}
export WM_PROJECT_DIR=${WM_PROJECT_DIR:-/usr/share/openfoam} FOAM_ETC=${FOAM_ETC:-/usr/share/openfoam/etc}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
beta=$(/usr/bin/python3 -c "print(repr(float('$ra') * 0.71))") # Ra Pr with |g| = 1, nu = 0.71, kappa = 1
rm -rf "$work" && cp -r "$here/natconv256" "$work" && cd "$work"
sed -i "s/^beta .*/beta [0 0 0 -1 0 0 0] $beta;/" constant/transportProperties
sed -i "s/(256 256 1)/($n $n 1)/" system/blockMeshDict
sed -i "s/^endTime .*/endTime ${MAX_ITER:-200000};/; s/^writeInterval .*/writeInterval ${MAX_ITER:-200000};/" \
  system/controlDict
sed -i "s/fields { p_rgh [0-9.]*; }/fields { p_rgh ${RELAX_P:-0.5}; }/; s/equations { U [0-9.]*; T [0-9.]*; }/equations { U ${RELAX_U:-0.5}; T ${RELAX_T:-0.95}; }/" \
  system/fvSolution
blockMesh >log.blockMesh 2>&1
/usr/bin/python3 "$here/natconv_openfoam.py" init "$work" "$n"
if [ "$np" -gt 1 ]; then
  sed -i "s/^numberOfSubdomains .*/numberOfSubdomains $np;/; s/^simpleCoeffs .*/simpleCoeffs { n ($np 1 1); }/" \
    system/decomposeParDict
  decomposePar >log.decomposePar 2>&1
  /usr/bin/time -f "%U %S %e" -o time.txt mpirun -np "$np" buoyantBoussinesqSimpleFoam -parallel >log.solver 2>&1
  reconstructPar -latestTime >log.reconstructPar 2>&1
else
  /usr/bin/time -f "%U %S %e" -o time.txt buoyantBoussinesqSimpleFoam >log.solver 2>&1
fi
iters=$(grep -c '^Time = ' log.solver)
read -r user sys wall <time.txt
conv=$(grep -m1 'SIMPLE solution converged' log.solver || echo 'NOT converged')
echo "buoyantBoussinesqSimpleFoam Ra $ra ${n}^2 (relaxation U ${RELAX_U:-0.5}, p_rgh ${RELAX_P:-0.5}, T ${RELAX_T:-0.95}):" \
  "$iters SIMPLE iterations, $wall s wall, $(echo "$user + $sys" | bc) s CPU (user+sys, $np rank(s)); $conv"
/usr/bin/python3 "$here/natconv_openfoam.py" measure "$work" "$n" "$ra"
