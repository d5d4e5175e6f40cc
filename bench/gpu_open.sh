#!/usr/bin/env bash
# GPU check of the inflow/outflow faces and the forcing (issue 13), in one call on a GPU machine:
#   1. test_kernels (every kernel, the new fill_ghost_plane, outflow_update, face_integral and
#      face_sum among them, CUDA against CPU <= 1e-12);
#   2. test_flow_backends on kovasznay2d (inflow with the exact profile, convective outflow),
#      channel2d_inflow (uniform inflow, outflow, walls) and channel2d_poiseuille (flow_rate
#      forcing): CUDA against CPU after 300 steps <= 1e-10;
#   3. with 2 GPUs: channel2d_inflow on 2 ranks (2 GPUs, splits 2,1,1 and 1,2,1: across the
#      inflow and outflow faces) against 1 rank on 1 GPU <= 1e-10 (skipped with one GPU).
# usage: bench/gpu_open.sh [BIN_DIR]   BIN_DIR holds navier, test_kernels, test_flow_backends
#        (a CUDA build); run from the repository root. Logs under $OUT (default /tmp/gpu_open).
set -u
BIN=${1:-build}
OUT=${OUT:-/tmp/gpu_open}
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rc=0
"$BIN/test_kernels" >"$OUT/test_kernels.log" 2>&1 || rc=1
grep -E "fill_ghost_plane|outflow|face_integral|face_sum" "$OUT/test_kernels.log" | sort -g -k5 | tail -3
tail -1 "$OUT/test_kernels.log"
for c in "kovasznay2d.ini grid.nx=192 grid.ny=64" "channel2d_inflow.ini grid.nx=384 grid.ny=64" \
  "channel2d_poiseuille.ini grid.nx=64 grid.ny=64 physics.initial=rest"; do
  set -- $c
  name=${1%.ini}
  shift
  "$BIN/test_flow_backends" "cases/$name.ini" "$@" time.max_steps=300 >"$OUT/flow_$name.log" 2>&1 || rc=1
  echo "== $name"
  tail -6 "$OUT/flow_$name.log"
done
bash tests/gpu/test_gpu_ranks.sh mpirun "$BIN/navier" python3 tests/mpi/mpi_compare.py "$OUT/two_gpus" 1e-10 \
  cases/channel2d_inflow.ini transport mpi --set grid.nx=256 --set grid.ny=64 --set time.max_steps=50 \
  --set pressure.tolerance=1e-12 >"$OUT/two_gpus.log" 2>&1 || rc=1
echo "== 2 GPUs against 1: $(tail -1 "$OUT/two_gpus.log")"
echo "gpu_open: exit $rc"
exit $rc
