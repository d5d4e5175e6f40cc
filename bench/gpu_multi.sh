#!/usr/bin/env bash
# Multi-GPU check, in one call on a machine with 2 GPUs (nvidia-h200-x2):
#   1. the gpu tests over ranks (tests/gpu/test_gpu_ranks.sh): each halo transport on 2 GPUs
#      against 1 GPU, 4 ranks sharing 1 GPU;
#   2. `navier bench step` of the 3D cavity: 256^3 on 1 GPU (ns/cell/step, kernel bandwidths),
#      weak scaling 512x256x256 on 2 GPUs and strong scaling 256^3 and 512^3 on 2 GPUs, with
#      each available transport;
#   3. `navier run --profile` of the 2-GPU 512x256x256 case with each transport (halo share,
#      memory per cell).
# usage: bench/gpu_multi.sh [BIN_DIR]  (navier built with -arch sm_90; run from the repository root)
# NCCL is found among the Python packages of the machine when libnccl.so.2 is not on the loader path.
set -u
BIN=${1:-.carry}
OUT=${OUT:-/tmp/gpu_multi}
SCRATCH=${SCRATCH:-/tmp/gpu_multi_runs}
mkdir -p "$OUT" "$SCRATCH"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0 OMP_NUM_THREADS=${OMP_NUM_THREADS:-4}
if ! ldconfig -p | grep -q libnccl.so.2; then
  lib=$(find / -name 'libnccl.so.2' -not -path '*/proc/*' 2>/dev/null | head -1)
  [ -n "$lib" ] && export NAV_NCCL_LIBRARY=$lib
fi
SUM=$OUT/summary.txt
: >"$SUM"
note() { echo "$*" | tee -a "$SUM"; }
note "== device: $(nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c | xargs)"
note "commit: $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet 2>/dev/null || echo ' (modified)')"
note "nccl: ${NAV_NCCL_LIBRARY:-from the loader path}; $(mpirun --version | head -1)"
NAV=$BIN/navier
CASE=cases/cavity3d_re1000.ini
g() { echo --set grid.nx=$1 --set grid.ny=$2 --set grid.nz=$3; }

note "== 1. gpu tests over ranks"
for t in mpi cuda-aware nccl; do
  bash tests/gpu/test_gpu_ranks.sh mpirun "$NAV" python3 tests/mpi/mpi_compare.py "$SCRATCH/t_$t" 1e-10 $CASE \
    transport $t $(g 64 64 64) --set time.max_steps=50 --set pressure.tolerance=1e-12 >"$SCRATCH/t_$t.log" 2>&1
  note "transport $t: exit $? | $(grep -E 'ranks \(|SKIP|FAIL|passed' "$SCRATCH/t_$t.log" | tr '\n' ' ')"
done
bash tests/gpu/test_gpu_ranks.sh mpirun "$NAV" python3 tests/mpi/mpi_compare.py "$SCRATCH/t_share" 0 $CASE share \
  $(g 32 32 32) --set time.max_steps=20 >"$SCRATCH/t_share.log" 2>&1
note "share: exit $? | $(tail -1 "$SCRATCH/t_share.log")"
cat "$SCRATCH"/t_*.log >"$OUT/tests.log"

note "== 2. bench step (20 steps after 3 warm-up)"
bs() { # LABEL RANKS ARGS...
  local label=$1 n=$2
  shift 2
  timeout 300 mpirun -n $n --oversubscribe "$NAV" bench step --case $CASE --set run.backend=cuda --steps 20 "$@" \
    >"$SCRATCH/bs.txt" 2>&1
  cat "$SCRATCH/bs.txt" >>"$OUT/bench_step.log"
  note "$label: $(grep '^step:' "$SCRATCH/bs.txt" || tail -2 "$SCRATCH/bs.txt")"
}
bs "1 GPU 256^3" 1 $(g 256 256 256)
grep -A12 "^copy" "$OUT/bench_step.log" | tee -a "$SUM"
for t in mpi nccl; do
  bs "2 GPUs 512x256x256 (weak) $t" 2 $(g 512 256 256) --set run.halo_transport=$t
  bs "2 GPUs 256^3 (strong) $t" 2 $(g 256 256 256) --set run.halo_transport=$t
done
bs "1 GPU 512^3" 1 $(g 512 512 512) --steps 10
bs "2 GPUs 512^3 nccl" 2 $(g 512 512 512) --steps 10 --set run.halo_transport=nccl

note "== 3. run --profile, 2 GPUs 512x256x256, 20 steps"
for t in mpi nccl; do
  mpirun -n 2 "$NAV" run $CASE $(g 512 256 256) --set time.max_steps=20 --set run.backend=cuda \
    --set run.halo_transport=$t --profile --output "$SCRATCH/prof_$t" >"$SCRATCH/prof_$t.log" 2>&1
  note "$t: exit $?"
  grep -A9 "^profile" "$SCRATCH/prof_$t.log" | tee -a "$SUM"
done
cat "$SCRATCH"/prof_*.log >"$OUT/profile.log"
