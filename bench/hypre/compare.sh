#!/usr/bin/env bash
# Compare navier's FFT solver and multigrid with hypre's BoomerAMG-preconditioned CG on the same Poisson problems
# (all-Neumann, random zero-mean right-hand side, relative residual 1e-8), same cores:
# navier with OMP_NUM_THREADS=$CORES threads, hypre with $CORES MPI ranks (one thread each). Both wait by yielding
# their core (navier's idle threads: OMP_WAIT_POLICY=passive, as the tests run; hypre's ranks in MPI calls:
# mpi_yield_when_idle): on a shared machine a spinning waiter holds the core its partner needs, and the spin, not
# the solver, sets the time (docs/performance.md, the 2-core CPU).
#   bench/hypre/compare.sh [BUILD_DIR]     (needs Debian's libhypre-dev; prints a table and JSON lines)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
cores=${CORES:-$(nproc)}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_WAIT_POLICY=passive OMPI_MCA_mpi_yield_when_idle=1
inc=$(dirname "$(find /usr/include -name HYPRE.h | head -1)")
mpicc -O3 -I"$inc" "$here/hypre_poisson.c" -o "$build/hypre_poisson" -lHYPRE -lm
printf '%-28s %4s %6s %9s %9s %9s %5s %9s\n' solver dim N setup_s solve_s total_s iter relres
for case in "2 1024" "3 128"; do
  set -- $case
  for rep in 1 2 3; do
    OMP_NUM_THREADS=1 mpiexec -n "$cores" --oversubscribe "$build/hypre_poisson" "$1" "$2" 1e-8 | tail -1
  done | python3 -c "
import json,sys
r=min((json.loads(l) for l in sys.stdin), key=lambda d: d['setup_s']+d['solve_s'])
print('%-28s %4d %6d %9.4f %9.4f %9.4f %5d %9.2e' % ('hypre BoomerAMG-PCG (%d ranks)' % r['ranks'], r['dim'], r['n'], r['setup_s'], r['solve_s'], r['setup_s']+r['solve_s'], r['iterations'], r['relres']))
print(json.dumps(r), file=sys.stderr)"
  for solver in fft mg mgpcg; do
    for rep in 1 2 3; do
      OMP_NUM_THREADS=$cores "$build/navier" bench poisson --dim "$1" --n "$2" --solver $solver --tol 1e-8 --json
    done | python3 -c "
import json,sys
r=min((json.loads(l) for l in sys.stdin), key=lambda d: d['setup_s']+d['solve_s'])
print('%-28s %4d %6d %9.4f %9.4f %9.4f %5d %9.2e' % ('navier %s (%s threads)' % (r['solver'], '$cores'), r['dim'], r['n'], r['setup_s'], r['solve_s'], r['setup_s']+r['solve_s'], r['iterations'], r['relres']))
print(json.dumps(r), file=sys.stderr)"
  done
done
