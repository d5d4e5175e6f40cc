#!/usr/bin/env bash
# The Poisson library API on the GPU (include/navier/poisson.h), in one call (under 10 minutes):
#   1. 4 ranks sharing 1 GPU (ranks_per_solver 4: one solves) against 1 rank, 64^3: equal to 1e-12;
#   2. 2 ranks on 2 GPUs (one each) against 1 rank, 64^3: equal to 1e-12 (needs 2 GPUs: nvidia-h200-x2);
#   3. 256^3 (Dirichlet, mg to 1e-8): 1 rank on 1 GPU with host arrays (its solver time and its
#      host <-> device copies of b and x), 1 rank with device arrays, 16 ranks sharing 1 GPU (the blocks
#      gathered onto the GPU's rank through MPI-3 shared memory, and by MPI messages; x scattered back),
#      4 ranks sharing 1 GPU, and 2 ranks on 2 GPUs; fastest of 3 solves each; and with --zero-copy (the ranks write b
#      straight into the solver's staging arrays, nav_poisson_block_arrays: no gather, no scatter) 16 ranks sharing
#      1 GPU and 1 rank, fastest of 5 (the 1-rank references too).
# Target (issue 16): 16 ranks on 1 GPU take at most the 1-rank time (its arrays on the device: t_1dev)
# + one copy of b to the device and one of x back (T1_copy: the copies of the 1-rank run with host arrays).
# usage: bench/gpu_api.sh [BIN_DIR]   BIN_DIR (default .carry) holds bench_poisson_api, built on the
#        development machine: cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DNAV_ENABLE_HDF5=OFF
#        -DNAV_ENABLE_PETSC=OFF (sm_90); cmake --build build-gpu --target bench_poisson_api; cp it to .carry/
set -u
BIN=${1:-.carry}
OUT=${OUT:-/tmp/gpu_api}
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_WAIT_POLICY=passive
if ! ldconfig -p | grep -q libnccl.so.2; then # 2 GPUs: the halo transport auto takes NCCL when found
  lib=$(find / -name 'libnccl.so.2' -not -path '/proc/*' 2>/dev/null | head -1)
  [ -n "$lib" ] && export NAV_NCCL_LIBRARY=$lib
fi
NT=$(nproc)
NG=$(nvidia-smi -L 2>/dev/null | wc -l)
B=$BIN/bench_poisson_api
BACKEND=${BACKEND:-cuda} # BACKEND=cpu NBIG=32: a dry run of the script on a machine without a GPU
NBIG=${NBIG:-256}
SUM=$OUT/summary.txt
: >"$SUM"
note() { echo "$*" | tee -a "$SUM"; }
note "== device: $(nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c | xargs); $NT cores; $NG GPU(s)"
note "$(mpirun --version | head -1)"
# run NAME RANKS GPUS ARGS...: OMP threads = cores / ranks; the GPUs visible: the first GPUS
run() {
  local name=$1 np=$2 ng=$3
  shift 3
  local th=$((NT / np))
  [ "$th" -lt 1 ] && th=1
  local vis
  vis=$(seq -s, 0 $((ng - 1)))
  CUDA_VISIBLE_DEVICES=$vis OMP_NUM_THREADS=$th timeout 240 mpirun -n "$np" --oversubscribe --bind-to none \
    "$B" --backend "$BACKEND" "$@" >"$OUT/$name.log" 2>&1
  local rc=$?
  note "$name (exit $rc): $(grep -E '^(api|check):' "$OUT/$name.log" | tr '\n' ' ')"
  [ "$rc" -ne 0 ] && tail -5 "$OUT/$name.log"
}
note "== 1-2. equality against 1 rank (64^3)"
run eq_4on1 4 1 --n 64 --ranks-per-solver 4 --check --repeat 1
run eq_4on1_msg 4 1 --n 64 --ranks-per-solver 4 --gather messages --check --repeat 1
run eq_4on1_fft 4 1 --n 64 --ranks-per-solver 4 --solver fft --check --repeat 1
run eq_4on1_zc 4 1 --n 64 --ranks-per-solver 4 --zero-copy --check --repeat 1
if [ "$NG" -ge 2 ]; then
  run eq_2on2 2 2 --n 64 --ranks-per-solver 1 --check --repeat 1
else
  note "eq_2on2: skipped (1 GPU)"
fi
note "== 3. ${NBIG}^3 timings"
run t_1 1 1 --n $NBIG --repeat 5
run t_1dev 1 1 --n $NBIG --repeat 5 --memory device
run t_1_zc 1 1 --n $NBIG --repeat 5 --zero-copy
run t_16on1 16 1 --n $NBIG --ranks-per-solver 16 --repeat 3 --gather shared
run t_16on1_zc 16 1 --n $NBIG --ranks-per-solver 16 --repeat 5 --zero-copy
run t_16on1_msg 16 1 --n $NBIG --ranks-per-solver 16 --repeat 3 --gather messages
run t_4on1 4 1 --n $NBIG --ranks-per-solver 4 --repeat 3
[ "$NG" -ge 2 ] && run t_2on2 2 2 --n $NBIG --ranks-per-solver 1 --repeat 3
note "== table (seconds, fastest of 3, of 5 for t_1, t_1dev, t_1_zc, t_16on1_zc; copy: the solver rank's host <-> device copies)"
{
  printf "%-12s %8s %8s %8s %8s %8s %4s\n" case wall move_in copy solve move_out it
  for f in t_1 t_1dev t_1_zc t_16on1 t_16on1_zc t_16on1_msg t_4on1 t_2on2; do
    [ -f "$OUT/$f.log" ] || continue
    grep '^api:' "$OUT/$f.log" | awk -v n=$f '{for (i = 2; i < NF; i += 2) v[$i] = $(i + 1);
      printf "%-12s %8.4f %8.4f %8.4f %8.4f %8.4f %4d\n", n, v["wall"], v["move_in"], v["copy"], v["solve"], v["move_out"], v["it"]}'
  done
  t1s=$(grep '^api:' "$OUT/t_1.log" 2>/dev/null | sed 's/.* solve \([0-9.]*\).*/\1/')
  t1c=$(grep '^api:' "$OUT/t_1.log" 2>/dev/null | sed 's/.* copy \([0-9.]*\).*/\1/')
  t1w=$(grep '^api:' "$OUT/t_1.log" 2>/dev/null | sed 's/.* wall \([0-9.]*\).*/\1/')
  t1d=$(grep '^api:' "$OUT/t_1dev.log" 2>/dev/null | sed 's/.* wall \([0-9.]*\).*/\1/')
  [ -z "$t1d" ] && t1d=$t1s
  for f in t_16on1 t_16on1_zc t_16on1_msg; do
    t16=$(grep '^api:' "$OUT/$f.log" 2>/dev/null | sed 's/.* wall \([0-9.]*\).*/\1/')
    if [ -n "$t1s" ] && [ -n "$t16" ]; then
      awk -v d="$t1d" -v c="$t1c" -v w="$t16" -v o="$t1w" -v f=$f 'BEGIN {
        printf "%s: T16 %.4f <= T1 (device arrays) + H2D(b) + D2H(x) = %.4f + %.4f = %.4f: %s; T16 / T1 (host arrays) = %.2f\n",
        f, w, d, c, d + c, w <= d + c ? "met" : "NOT met", w / o}'
    fi
  done
} | tee -a "$SUM"
