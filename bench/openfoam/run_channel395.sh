#!/usr/bin/env bash
# OpenFOAM's LES tutorial channel395 against navier's LES of the same channel (cases/channel3d_les_retau395.ini
# run on the tutorial's grid 40 x 50 x 30 and nu 2e-5: box 4 x 2 x 2, bulk velocity 0.1335), on the same cores
# (issue 44).
# OpenFOAM: the tutorial as Debian ships it (/usr/share/doc/openfoam-examples/.../LES/channel395: pimpleFoam,
# WALE with cubeRootVol delta, dt 0.2, meanVelocityForce; its 0/ fields are a developed turbulent field, its
# Allrun calls no perturbation utility): blockMesh, decomposePar -cellDist on NP ranks (simple 1 x NP x 1),
# mpirun pimpleFoam -parallel, reconstructPar, postChannel. Changed: endTime (END), and the fieldAverage gets
# timeStart T_AVG so that both codes average over the same window T_AVG <= t <= END. navier: `navier run`
# with [statistics] from T_AVG, from its own start (log-law mean plus seeded noise, transition near t 250-400).
# Prints, for each: steps, wall and CPU seconds (user + sys of the process and its ranks or threads: on a shared
# machine CPU seconds compare fairer than wall seconds), CPU s per step and ns per cell and step, Re_tau of the
# window, and U+ against Moser, Kim & Mansour's Re_tau 395 (channel_openfoam.py compare: max deviation up to the
# centre, in %).
#
# usage: bench/openfoam/run_channel395.sh [NAVIER] [WORK_DIR] [END] [T_AVG]   (build/navier, /tmp/navier_
#        openfoam_channel395, 1000 and 400 by default)
#   NP: OpenFOAM's MPI ranks (default 2). NAV_THREADS: navier's OpenMP threads (default 2); NAV_RANKS=2 runs
#   navier instead as `mpiexec -n 2` with one thread per rank. SKIP_FOAM=1 or SKIP_NAVIER=1 runs one side only.
# Needs the Debian package `openfoam` (OpenFOAM v1912, binaries in /usr/bin) and ../shared/reference.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
navier=$(realpath "${1:-build/navier}")
work=${2:-/tmp/navier_openfoam_channel395}
end=${3:-1000}
tavg=${4:-400}
np=${NP:-2}
ref=${REF:-$(realpath "$here/../../../shared/reference/mkm1999_retau395.csv")}
tut=/usr/share/doc/openfoam-examples/examples/incompressible/pimpleFoam/LES/channel395
case_ini=$(realpath "$here/../../cases/channel3d_les_retau395.ini")
export WM_PROJECT_DIR=${WM_PROJECT_DIR:-/usr/share/openfoam} FOAM_ETC=${FOAM_ETC:-/usr/share/openfoam/etc}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cells=60000
mkdir -p "$work"
report() { # NAME STEPS USER SYS WALL
  local cpu
  cpu=$(echo "$3 + $4" | bc)
  /usr/bin/python3 -c "s, c, w = $2, $cpu, $5; print('$1: %d steps to t = $end, %.1f s wall, %.1f s CPU; per step %.4f s wall, %.4f s CPU, %.0f ns CPU per cell and step' % (s, w, c, w / s, c / s, c / s / $cells * 1e9))"
}

if [ "${SKIP_FOAM:-0}" != 1 ]; then
  of="$work/openfoam"
  rm -rf "$of" && cp -r "$tut" "$of" && cd "$of"
  gunzip -f 0/*.gz
  sed -i "s/^endTime .*/endTime         $end;/" system/controlDict
  steps=$(/usr/bin/python3 -c "print(round($end / 0.2))")
  [ $((steps % 200)) = 0 ] || sed -i "s/^writeInterval .*/writeInterval   $steps;/" system/controlDict # END written
  sed -i "s/^\( *\)type            fieldAverage;/&\n\1timeStart       $tavg;/" system/controlDict
  sed -i "s/^numberOfSubdomains .*/numberOfSubdomains $np;/; s/^\( *n  *\)(.*);/\1(1 $np 1);/" system/decomposeParDict
  blockMesh >log.blockMesh 2>&1
  decomposePar -cellDist >log.decomposePar 2>&1
  /usr/bin/time -f "%U %S %e" -o time.txt mpirun -np "$np" pimpleFoam -parallel >log.pimpleFoam 2>&1
  reconstructPar >log.reconstructPar 2>&1
  postChannel >log.postChannel 2>&1 || echo "postChannel failed (log.postChannel)"
  postProcess -func writeCellCentres -latestTime >log.writeCellCentres 2>&1
  read -r user sys wall <time.txt
  report "pimpleFoam ($np MPI ranks)" "$(grep -c '^Time = ' log.pimpleFoam)" "$user" "$sys" "$wall"
  last=$(foamListTimes -latestTime 2>/dev/null | tail -1)
  /usr/bin/python3 "$here/channel_openfoam.py" profile "$of" "$last" 2e-5 "$of/uplus.csv"
  /usr/bin/python3 "$here/channel_openfoam.py" compare "$ref" "$of/uplus.csv" "pimpleFoam (UMean over $tavg <= t <= $end)"
fi

if [ "${SKIP_NAVIER:-0}" != 1 ]; then
  nv="$work/navier"
  rm -rf "$nv"
  # the tutorial's grid and viscosity (the case's own are finer and at the reference's bulk Reynolds number)
  sets=(--set grid.nx=40 --set grid.ny=50 --set grid.nz=30 --set grid.y_spacing=geometric --set grid.y_ratio=1.1038
        --set physics.nu=2e-5 --set statistics.enabled=true --set statistics.start_time="$tavg"
        --set time.end_time="$end" --output "$nv")
  if [ -n "${NAV_RANKS:-}" ]; then
    label="navier ($NAV_RANKS MPI ranks, 1 thread each)"
    OMP_NUM_THREADS=1 /usr/bin/time -f "%U %S %e" -o "$work/navier_time.txt" \
      mpiexec --oversubscribe -n "$NAV_RANKS" "$navier" run "$case_ini" "${sets[@]}" >"$work/navier.log" 2>&1
  else
    label="navier (${NAV_THREADS:-2} OpenMP threads)"
    OMP_NUM_THREADS=${NAV_THREADS:-2} /usr/bin/time -f "%U %S %e" -o "$work/navier_time.txt" \
      "$navier" run "$case_ini" "${sets[@]}" >"$work/navier.log" 2>&1
  fi
  read -r user sys wall <"$work/navier_time.txt"
  steps=$(/usr/bin/python3 -c "import json; print(json.load(open('$nv/summary.json'))['steps'])")
  report "$label" "$steps" "$user" "$sys" "$wall"
  grep '^statistics:' "$work/navier.log" || true
  /usr/bin/python3 "$here/channel_openfoam.py" compare "$ref" "$nv/statistics.csv" "navier (statistics over $tavg <= t <= $end)"
fi
