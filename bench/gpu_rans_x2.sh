#!/usr/bin/env bash
# Issue 15 on 2 GPUs of one host (nvidia-h200-x2): navier bench step of the Re_tau 5200 channel as shipped
# (diffusion_sweeps = 1: one wall-normal zebra line sweep per implicit increment) on 12000^2, 10000^2 and
# 6000^2 cells: 2 GPUs split along x (decomposition 2,1,1, what auto picks for 2 ranks: MPI_Dims_create;
# the wall-normal lines stay whole on each GPU), then on 1 GPU, then 2 GPUs split across the walls (1,2,1:
# every line split over the 2 ranks, each colour of each sweep a host round trip of the line ends,
# mg_line.c) for comparison. 5 outer iterations after 3 warm-up ones each; a run is capped at CAP_S
# seconds (default 100); runs that would start after BUDGET_S (default 540) are skipped and say so.
# usage (repository root): bash bench/gpu_rans_x2.sh BIN_DIR   (BIN_DIR/navier: a CUDA build, sm_90)
#        host libraries: LD_LIBRARY_PATH as bench/gpu_env.sh sets it. Table in $OUT/rans_x2.txt.
set -u
BIN=${1:?usage: bash bench/gpu_rans_x2.sh BIN_DIR}
OUT=${OUT:-/tmp/gpu_rans_x2}
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0 OMP_NUM_THREADS=${OMP_NUM_THREADS:-8}
CASE=cases/channel2d_rans_retau5200.ini
T=$OUT/rans_x2.txt
T0=$(date +%s)
note() { echo "$*" | tee -a "$T"; }
note "$(nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c | xargs) | $("$BIN/navier" --version 2>&1 | head -1)"
step() { # RANKS DECOMP N
  local ranks=$1 dec=$2 n=$3 label="r$1_${2//,/}_$3" launch=()
  if [ $(($(date +%s) - T0)) -gt "${BUDGET_S:-540}" ]; then note "$label: skipped (budget)"; return; fi
  [ "$ranks" -gt 1 ] && launch=(mpiexec -n "$ranks" --bind-to none)
  timeout --foreground "${CAP_S:-100}" "${launch[@]}" "$BIN/navier" bench step --case $CASE --set grid.nx=$n \
    --set grid.ny=$n --set run.backend=cuda --set run.decomposition="$dec" --steps 5 >"$OUT/$label.log" 2>&1
  note "$n^2, $ranks GPU(s), decomposition $dec: exit $? | $(grep -E '^step:' "$OUT/$label.log")"
}
for n in 12000 10000 6000; do step 2 2,1,1 $n; done
for n in 12000 10000 6000; do step 1 1,1,1 $n; done
for n in 12000 10000 6000; do step 2 1,2,1 $n; done
