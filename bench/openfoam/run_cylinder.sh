#!/usr/bin/env bash
# OpenFOAM's pimpleFoam on navier's cylinder at Re 100 (cases/cylinder2d_re100.ini): a body-fitted
# mesh (bench/openfoam/cylinder_re100/make_mesh.py: O-ring of 4 x 48 x 48 cells, wall cell 0.008 D,
# eight Cartesian blocks out to navier's domain, 37 376 cells), U = 1, nu = 0.01, PISO with a fixed
# step, Cd and Cl of every step (forceCoeffs). Prints the wall and CPU seconds (user + sys of mpirun
# and its ranks) per unit of simulated time and the mean Cd, the lift amplitude and the Strouhal
# number over [T_AVG, END] (cylinder_coeffs.py, navier's definitions).
#
# usage: bench/openfoam/run_cylinder.sh [WORK_DIR] [END] [DT] [SCALE] [T_AVG]
#   defaults: /tmp/navier_openfoam_cylinder, END 60, DT 0.005, SCALE 1 (make_mesh.py's cell-count
#   factor), T_AVG 30 (the tilted start of 0/U sheds from t ~ 15; one process: about 9 CPU s per unit
#   of simulated time, 9 minutes of one idle core). SCALE 0.5 with DT 0.01 and 0.667 with DT 0.0075 are
#   the coarser meshes of docs/performance.md. NP=1 runs one serial process (no decomposition; see run_cavity.sh for why the
#   CPU seconds of one process are the fair figure on a loaded machine); NP=2 (default) two MPI ranks.
# Needs the Debian package `openfoam` (OpenFOAM v1912); the two variables below replace its bashrc.
# Compare with navier on the same machine (the same window of simulated time):
#   OMP_NUM_THREADS=2 /usr/bin/time navier run cases/cylinder2d_re100.ini   (summary.json: bodies)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=${1:-/tmp/navier_openfoam_cylinder}
end=${2:-60}
dt=${3:-0.005}
scale=${4:-1}
tavg=${5:-30}
export WM_PROJECT_DIR=${WM_PROJECT_DIR:-/usr/share/openfoam} FOAM_ETC=${FOAM_ETC:-/usr/share/openfoam/etc}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rm -rf "$work" && cp -r "$here/cylinder_re100" "$work" && cd "$work"
/usr/bin/python3 make_mesh.py . "$scale"
sed -i "s/^endTime .*/endTime $end;/; s/^deltaT .*/deltaT $dt;/; s/^writeInterval .*/writeInterval $end;/" \
  system/controlDict
blockMesh >log.blockMesh 2>&1
checkMesh >log.checkMesh 2>&1 || { tail -20 log.checkMesh; exit 1; }
np=${NP:-2}
if [ "$np" -gt 1 ]; then
  sed -i "s/^numberOfSubdomains .*/numberOfSubdomains $np;/; s/^simpleCoeffs .*/simpleCoeffs { n ($np 1 1); }/" system/decomposeParDict
  decomposePar >log.decomposePar 2>&1
  /usr/bin/time -f "%U %S %e" -o time.txt mpirun -np "$np" pimpleFoam -parallel >log.pimpleFoam 2>&1
else
  /usr/bin/time -f "%U %S %e" -o time.txt pimpleFoam >log.pimpleFoam 2>&1
fi
read -r user sys wall <time.txt
cells=$(awk '/^ *cells:/ {print $2; exit}' log.checkMesh)
steps=$(grep -c '^Time = ' log.pimpleFoam)
co=$(awk '/^Courant Number/ {if ($6 > m) m = $6} END {print m}' log.pimpleFoam)
echo "pimpleFoam cylinder Re 100: $cells cells, dt $dt, $steps steps to t = $end, max Courant $co ($np rank(s))"
/usr/bin/python3 -c "u, s, w, t = $user, $sys, $wall, $end; \
print('  %.1f s wall, %.1f s CPU (user+sys): %.2f s wall and %.2f s CPU per unit of simulated time' % (w, u + s, w / t, (u + s) / t))"
/usr/bin/python3 "$here/cylinder_coeffs.py" "$work" "$tavg"
