#!/usr/bin/env bash
# GPU check of the stretched-grid multigrid (line relaxation, semi-coarsening, split lines), one call:
#   1. test_kernels (every kernel, the line kernels and semi-coarse transfers included, CUDA vs CPU)
#      and test_flow_backends on a 3D cavity 48^3 with tanh walls in y and geometric x (50 steps);
#   2. navier bench poisson, tanh walls in y at cell aspect ratios 1 and 1000, 2D 1024^2 and 3D 128^3,
#      cpu and cuda: V-cycle factor (must agree) and solve time;
#   3. with 2 or more GPUs: the same 3D solve on 2 ranks split across y (decomposition 1,2,1: the
#      lines are split over the GPUs), factor against 1 rank.
# usage: bench/gpu_stretched.sh [BIN_DIR]   (navier, test_kernels, test_flow_backends; run from the
#        repository root). Logs and a summary under $OUT.
set -u
BIN=${1:-build}
OUT=${OUT:-/tmp/gpu_stretched}
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SUM=$OUT/summary.txt
: >"$SUM"
note() { echo "$*" | tee -a "$SUM"; }
note "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
note "== 1. kernels and a stretched 3D cavity, cuda against cpu"
"$BIN/test_kernels" >"$OUT/test_kernels.log" 2>&1
note "test_kernels: exit $? ($(tail -1 "$OUT/test_kernels.log"))"
grep -E "line|kept" "$OUT/test_kernels.log" | awk '{ if ($NF != "ok") bad++ } END { print "line kernels and semi-coarse transfers: " NR " checks, " bad+0 " failed" }' | tee -a "$SUM"
"$BIN/test_flow_backends" cases/cavity3d_re1000.ini grid.nx=48 grid.ny=48 grid.nz=48 grid.y_spacing=tanh grid.y_gamma=4 \
  grid.x_spacing=geometric grid.x_ratio=1.05 time.max_steps=50 >"$OUT/flow_backends.log" 2>&1
note "test_flow_backends (stretched 3D cavity): exit $? ($(tail -1 "$OUT/flow_backends.log"))"
note "== 2. bench poisson, tanh in y (dim n aspect backend: iterations factor solve_s)"
for spec in "2 1024" "3 128"; do
  set -- $spec
  for ar in 1 1000; do
    for be in cpu cuda; do
      r=$("$BIN/navier" bench poisson --dim $1 --n $2 --aspect $ar --backend $be --tol 1e-8 --repeat 3 --json 2>&1 | tail -1)
      note "$1D $2 aspect $ar $be: $(echo "$r" | grep -o '"iterations": [0-9]*, "relres": [0-9.e+-]*, "factor": [0-9.]*')$(echo "$r" | grep -o ', "solve_s": [0-9.]*' | head -1)"
    done
  done
done
if [ "$(nvidia-smi -L 2>/dev/null | wc -l)" -ge 2 ]; then
  note "== 3. 2 GPUs, lines split across y (decomposition 1,2,1)"
  r=$(mpiexec -n 2 --oversubscribe "$BIN/navier" bench poisson --dim 3 --n 128 --aspect 1000 --backend cuda \
      --decomposition 1,2,1 --tol 1e-8 --json 2>&1 | tail -1)
  note "3D 128 aspect 1000 cuda 2 ranks 1x2x1: $(echo "$r" | grep -o '"iterations": [0-9]*, "relres": [0-9.e+-]*, "factor": [0-9.]*')"
fi
