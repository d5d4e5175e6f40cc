#!/usr/bin/env bash
# The Re_tau 180 channel step (cases/channel3d_retau180.ini: 256 x 128 x 128 cells, box 4 pi x 2 x 4 pi/3, tanh in
# y with gamma 1.6, nu = 2/5585, bulk velocity 1) of navier against OpenFOAM's pimpleFoam on the same grid and
# cores (issue 40): nanoseconds per cell and step, steady-state steps after the start-up.
# OpenFOAM: the grid from blockMesh, one block whose y grading is navier's tanh spacing written exactly as NY
# one-cell sections (channel_openfoam.py mesh180; blockMesh puts every y face within 1e-9 of navier's); a DNS (laminar,
# no turbulence model) with the schemes, solvers and PIMPLE settings of the LES tutorial channel395 (backward in
# time, Gauss linear, GAMG for p with two correctors, smoothSolver for U) and its meanVelocityForce holding the
# bulk velocity at 1; the start: Reichardt's log-law mean plus divergence-free streamwise vortices of 0.3 U_b
# (channel_openfoam.py init180; navier's own start has other seeded modes of the same amplitude); decomposePar on
# NP ranks (simple 1 x NP x 1), mpirun pimpleFoam -parallel for STEPS steps of DT (default: navier's adaptive step
# at the start, its viscous limit). Per-step time: the wall clock between the ends of steps SKIP and STEPS (the
# `ExecutionTime` lines, each stamped when it is printed), and the CPU time of rank 0 (ExecutionTime) times NP.
# navier: `navier bench step --case cases/channel3d_retau180.ini --steps NAV_STEPS` (3 warm-up steps, then the
# wall time of NAV_STEPS steps) on NAV_THREADS OpenMP threads (NAV_RANKS=2: mpiexec -n 2, one thread each).
#
# usage: bench/openfoam/run_channel180.sh [NAVIER] [WORK_DIR] [STEPS] [DT]   (build/navier, /tmp/navier_openfoam_
#        channel180, 30 steps, DT 0.0114319)
#   NP (OpenFOAM ranks, default 2), SKIP (steps left out as start-up, default 5), NAV_STEPS (default 20),
#   NAV_THREADS (default 2), NAV_RANKS, SKIP_FOAM=1 / SKIP_NAVIER=1 (one side only), N="NX NY NZ" (another grid);
#   PREP_ONLY=1 stops after decomposePar, REUSE=1 runs pimpleFoam on the case an earlier call left in WORK_DIR.
# Needs the Debian package `openfoam` (OpenFOAM v1912, binaries in /usr/bin); about 6 GB of memory at 4.2 M cells.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
navier=$(realpath "${1:-build/navier}")
work=${2:-/tmp/navier_openfoam_channel180}
steps=${3:-30}
dt=${4:-0.0114319}
np=${NP:-2}
skip=${SKIP:-5}
read -r nx ny nz <<<"${N:-256 128 128}"
lx=12.566370614359172 ly=2 lz=4.1887902047863905 gamma=1.6 nu=3.5810205908683974e-4
tut=/usr/share/doc/openfoam-examples/examples/incompressible/pimpleFoam/LES/channel395
case_ini=$(realpath "$here/../../cases/channel3d_retau180.ini")
export WM_PROJECT_DIR=${WM_PROJECT_DIR:-/usr/share/openfoam} FOAM_ETC=${FOAM_ETC:-/usr/share/openfoam/etc}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cells=$((nx * ny * nz))
mkdir -p "$work"

if [ "${SKIP_FOAM:-0}" != 1 ]; then
  of="$work/openfoam"
  if [ "${REUSE:-0}" = 1 ] && [ -d "$of/processor$((np - 1))" ]; then
    cd "$of" # the grid, start and decomposition of an earlier run: only the time step and count change below
  else
    rm -rf "$of" && mkdir -p "$of/0" "$of/constant" "$of/system" && cd "$of"
    cp "$tut/system/fvSchemes" "$tut/system/fvSolution" "$tut/system/controlDict" "$tut/system/decomposeParDict" system/
    cp "$tut/constant/fvOptions" "$tut/constant/transportProperties" constant/
    sed -i "s/^Ubar .*/Ubar            (1 0 0);/; s/^nu .*/nu              $nu;/" constant/transportProperties
    sed -i "s/Ubar .*/Ubar            (1 0 0);/" constant/fvOptions
    printf 'FoamFile { version 2.0; format ascii; class dictionary; object turbulenceProperties; }\n%s\n' \
      'simulationType laminar;' >constant/turbulenceProperties
    sed -i "/^functions/,\$d" system/controlDict
    sed -i "s/^numberOfSubdomains .*/numberOfSubdomains $np;/; s/^\( *n  *\)(.*);/\1(1 $np 1);/" system/decomposeParDict
    printf 'FoamFile { version 2.0; format ascii; class volScalarField; object p; }\n%s\n%s\n' \
      'dimensions [0 2 -2 0 0 0 0]; internalField uniform 0;' \
      'boundaryField { "(bottomWall|topWall)" { type zeroGradient; } "(inlet|outlet|front|back)" { type cyclic; } }' >0/p
    /usr/bin/python3 "$here/channel_openfoam.py" mesh180 "$of" "$nx" "$ny" "$nz" "$lx" "$ly" "$lz" "$gamma"
    blockMesh >log.blockMesh 2>&1
    checkMesh >log.checkMesh 2>&1 || true
    /usr/bin/python3 "$here/channel_openfoam.py" init180 "$of" "$nx" "$ny" "$nz" "$lx" "$ly" "$lz" "$gamma" "$nu" 1
    decomposePar >log.decomposePar 2>&1
  fi
  sed -i "s/^endTime .*/endTime         $(/usr/bin/python3 -c "print(repr($steps * $dt))");/" system/controlDict
  sed -i "s/^deltaT .*/deltaT          $dt;/; s/^writeInterval .*/writeInterval   $((steps + 1000));/" system/controlDict
  [ "${PREP_ONLY:-0}" = 1 ] && exit 0
  /usr/bin/time -f "%U %S %e %M" -o time.txt mpirun -np "$np" pimpleFoam -parallel 2>&1 |
    /usr/bin/python3 -u -c 'import sys, time
for l in sys.stdin: sys.stdout.write("%.6f %s" % (time.time(), l))' >log.pimpleFoam
  /usr/bin/python3 - "$of/log.pimpleFoam" "$skip" "$np" "$cells" <<'EOF'
import re, sys
log, skip, np_, cells = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
stamps, cpu, courant = [], [], []
for line in open(log):
    t, _, text = line.partition(" ")
    m = re.match(r"ExecutionTime = ([0-9.e+]+) s", text)  # printed at the end of each step
    if m:
        stamps.append(float(t))
        cpu.append(float(m.group(1)))
    m = re.match(r"Courant Number mean: \S+ max: (\S+)", text)
    if m:
        courant.append(float(m.group(1)))
n = len(cpu)  # steps completed; stamps[k] and cpu[k] end step k + 1: steps skip + 1 .. n timed
wall = (stamps[n - 1] - stamps[skip - 1]) / (n - skip)
c = (cpu[n - 1] - cpu[skip - 1]) / (n - skip) * np_
print("pimpleFoam (%d MPI ranks, %d cells): steps %d..%d of %d: %.3f s wall per step (%.1f ns per cell and step), "
      "%.3f s CPU per step (%.1f ns per cell and step); max Courant %.3f"
      % (np_, cells, skip + 1, n, n, wall, wall / cells * 1e9, c, c / cells * 1e9, max(courant)))
EOF
  read -r user sys wall rss <time.txt
  echo "pimpleFoam run: $wall s wall, $(echo "$user + $sys" | bc) s CPU in all (start-up included), max resident $((rss / 1024)) MB per rank"
fi

if [ "${SKIP_NAVIER:-0}" != 1 ]; then
  sets=(--set grid.nx="$nx" --set grid.ny="$ny" --set grid.nz="$nz")
  if [ -n "${NAV_RANKS:-}" ]; then
    echo "navier ($NAV_RANKS MPI ranks, 1 thread each):"
    OMP_NUM_THREADS=1 mpiexec --oversubscribe -n "$NAV_RANKS" "$navier" bench step --case "$case_ini" "${sets[@]}" \
      --steps "${NAV_STEPS:-20}" | head -3
  else
    echo "navier (${NAV_THREADS:-2} OpenMP threads):"
    OMP_NUM_THREADS=${NAV_THREADS:-2} "$navier" bench step --case "$case_ini" "${sets[@]}" --steps "${NAV_STEPS:-20}" |
      head -3
  fi
fi
