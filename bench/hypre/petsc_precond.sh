#!/usr/bin/env bash
# Time to a relative residual of 1e-8 of KSPCG on -lap u = b (n^3 cells, Dirichlet faces, a DMDA) with
# each preconditioner: navier's multigrid cycle and FFT solver (navier-petsc) against PETSc's GAMG and
# hypre BoomerAMG, on RANKS ranks (default 2) of one thread each, fastest of REPEAT runs (default 3).
# usage: bench/hypre/petsc_precond.sh [BUILD_DIR] [n...]      (default: build 64 96)
# The last lines are a short table: n, pc, iterations, set-up + solve seconds, and navier-mg's speed-up.
set -u
BUILD=${1:-build}
shift || true
SIZES=${*:-64 96}
RANKS=${RANKS:-2}
REPEAT=${REPEAT:-3}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive
[ -x "$BUILD/petsc_poisson" ] || { echo "no $BUILD/petsc_poisson: PETSc not found at configure time (petsc-dev)"; exit 77; }
echo "== $(git log -1 --format='%h %s' | cut -c1-70); $(nproc --all) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
TABLE=$(mktemp)
for n in $SIZES; do
  out=$(mpiexec -n "$RANKS" --oversubscribe "$BUILD/petsc_poisson" -n "$n" -repeat "$REPEAT" -check 2>&1)
  echo "$out"
  echo "$out" | awk -v n="$n" '$1 ~ /^(navier-mg|navier-fft|gamg|hypre)$/ {print n, $1, $2, $5}' >>"$TABLE"
done
echo "== time to 1e-8, $RANKS rank(s), fastest of $REPEAT (seconds: set-up + solve)"
awk '{t[$1" "$2]=$4; it[$1" "$2]=$3; ns[$1]=1} END {
  printf "%6s %-11s %5s %9s %10s\n", "n", "pc", "its", "total_s", "vs mg"
  for (n in ns) for (pc in t) { split(pc, a, " "); if (a[1] != n) continue
    printf "%6s %-11s %5s %9.4f %9.1fx\n", n, a[2], it[pc], t[pc], t[pc] / t[n" navier-mg"] } }' "$TABLE" | sort -k1,1n -k2,2
rm -f "$TABLE"
