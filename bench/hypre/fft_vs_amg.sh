#!/usr/bin/env bash
# navier's FFT solver against algebraic multigrid on one CPU problem: -L x = b on the unit cube, N^3
# cells (default 128), every face Neumann, the random zero-mean right-hand side of `navier bench
# poisson` (xorshift64, same seed, in every program), zero initial guess, relative residual 1e-8,
# the constant null space handled (navier: the mean removed; hypre: CG on zero-mean b; PETSc: a
# MatNullSpace of the constants on the matrix). Per round, one after the other (close in time):
#   navier fft          navier bench poisson --solver fft, CORES OpenMP threads
#   navier mg           navier bench poisson --solver mg (V(2,2) cycles), CORES threads
#   hypre BoomerAMG-PCG bench/hypre/hypre_poisson.c (hypre's IJ interface), CORES MPI ranks
#   PETSc GAMG          examples/petsc_poisson -bc neumann -pcs gamg: KSPCG + PCGAMG (defaults), CORES ranks
#   PETSc hypre         the same with PCHYPRE (BoomerAMG through PETSc, defaults)
# ROUNDS rounds (default 3); prints each program's range over the rounds (set-up, solve, total
# seconds; iterations; relative residual) and the range of the per-round ratios against navier fft
# (a peer's time / fft's time of the same round), for the solve alone and for set-up + solve.
# hypre_poisson's matrix assembly is not counted (petsc_poisson's neither). Extra PETSc options:
# PETSC_OPTIONS (PETSc reads it), e.g. PETSC_OPTIONS='-pc_gamg_threshold 0.05'.
#   bench/hypre/fft_vs_amg.sh [BUILD_DIR] [N]   (needs libhypre-dev, and petsc-dev at configure time for petsc_poisson)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
n=${2:-128}
cores=${CORES:-2}
rounds=${ROUNDS:-3}
py=/usr/bin/python3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_WAIT_POLICY=passive
if [ ! -x "$build/hypre_poisson" ] || [ "$here/hypre_poisson.c" -nt "$build/hypre_poisson" ] ||
  [ "$here/../../app/nav_bench_rhs.h" -nt "$build/hypre_poisson" ]; then
  inc=$(dirname "$(find /usr/include -name HYPRE.h | head -1)")
  mpicc -O3 -I"$inc" "$here/hypre_poisson.c" -o "$build/hypre_poisson" -lHYPRE -lm
fi
have_petsc=1
[ -x "$build/petsc_poisson" ] || { echo "no $build/petsc_poisson (PETSc not found at configure): GAMG skipped"; have_petsc=0; }
echo "== $(git -C "$here" log -1 --format='%h %s' | cut -c1-70)"
echo "== 3D ${n}^3 all-Neumann, tol 1e-8, $cores cores, $rounds rounds; $(nproc --all) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
log=$(mktemp)
for r in $(seq 1 "$rounds"); do
  for s in fft mg; do
    OMP_NUM_THREADS=$cores "$build/navier" bench poisson --dim 3 --n "$n" --solver $s --tol 1e-8 --json |
      $py -c "import json,sys; d=json.loads(sys.stdin.read().strip().splitlines()[-1]); print(json.dumps({'round': $r, 'prog': 'navier $s', 'setup': d['setup_s'], 'solve': d['solve_s'], 'its': d['iterations'], 'relres': d['relres']}))" >>"$log"
  done
  OMP_NUM_THREADS=1 mpiexec -n "$cores" --oversubscribe "$build/hypre_poisson" 3 "$n" 1e-8 | tail -1 |
    $py -c "import json,sys; d=json.loads(sys.stdin.read()); print(json.dumps({'round': $r, 'prog': 'hypre BoomerAMG-PCG', 'setup': d['setup_s'], 'solve': d['solve_s'], 'its': d['iterations'], 'relres': d['relres']}))" >>"$log"
  if [ $have_petsc = 1 ]; then
    OMP_NUM_THREADS=1 mpiexec -n "$cores" --oversubscribe "$build/petsc_poisson" -n "$n" -bc neumann -pcs gamg,hypre -rtol 1e-8 |
      awk -v r="$r" '$1 == "gamg" || $1 == "hypre" {
        printf "{\"round\": %d, \"prog\": \"PETSc %s\", \"setup\": %s, \"solve\": %s, \"its\": %s, \"relres\": %s}\n",
               r, $1 == "gamg" ? "GAMG" : "hypre (PCHYPRE)", $3, $4, $2, $6 }' >>"$log"
  fi
  echo "round $r done, load $(cut -d' ' -f1-3 /proc/loadavg)"
done
$py - "$log" "$cores" <<'EOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
cores = sys.argv[2]
progs = []
for r in rows:
    if r['prog'] not in progs: progs.append(r['prog'])
by = {(r['round'], r['prog']): r for r in rows}
rounds = sorted({r['round'] for r in rows})
def rng(v, f='%.3g'):
    lo, hi = min(v), max(v)
    return (f % lo) if f % lo == f % hi else (f % lo) + '-' + (f % hi)
print('| solver (%s cores) | set-up s | solve s | total s | iterations | relative residual | solve / fft solve | total / fft total |' % cores)
print('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
for p in progs:
    rs = [by[(k, p)] for k in rounds if (k, p) in by]
    st = [x['setup'] for x in rs]; so = [x['solve'] for x in rs]; to = [x['setup'] + x['solve'] for x in rs]
    rs_ = [by[(x['round'], p)]['solve'] / by[(x['round'], 'navier fft')]['solve'] for x in rs]
    rt_ = [(x['setup'] + x['solve']) / (by[(x['round'], 'navier fft')]['setup'] + by[(x['round'], 'navier fft')]['solve']) for x in rs]
    print('| %s | %s | %s | %s | %s | %s | %sx | %sx |' % (p, rng(st), rng(so), rng(to), rng([x['its'] for x in rs], '%d'),
          rng([x['relres'] for x in rs], '%.1e'), rng(rs_, '%.1f'), rng(rt_, '%.1f')))
EOF
rm -f "$log"
