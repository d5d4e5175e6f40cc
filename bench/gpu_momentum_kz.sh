#!/usr/bin/env bash
# Planes per thread of the momentum kernels (NAV_MOMENTUM_KZ) and of the other 3D stencil kernels (NAV_CUDA_KZ,
# here: correct, divergence, time_rates), one GPU, one call (issue 18: the FP32 / FP64 ratio of the step):
#   1. with FULL=1, every single-GPU ctest of the gpu label of the carried tree (source bench/gpu_env.sh first);
#   2. ROUNDS rounds: `navier bench step` of the 3D cavity 256^3 (solver = auto, the FFT step) in FP64 ($B64) and
#      FP32 ($B32) for NAV_MOMENTUM_KZ in $KZS and for NAV_CUDA_KZ=1, and with BASE64 / BASE32 (other builds' binaries,
#      e.g. the commit before) those too; each line the step time and the bench's per-kernel microseconds of
#      momentum_advance, momentum_rhs and correct;
#   3. ncu of momentum_advance (both precisions, the default knobs): DRAM, L1 and L2 throughput, L1 hit rate.
# Logs under $OUT.
#
# usage (repository root on the device, after bench/gpu_carry.sh and a copy of the FP32 navier here):
#   bash bench/gpu_momentum_kz.sh B64 B32 [TREE]
set -u
B64=$1 B32=$2 TREE=${3:-.carry/bg}
ROUNDS=${ROUNDS:-2} KZS=${KZS:-1 2 4 8 16}
OUT=${OUT:-/tmp/gpu_momentum_kz}
mkdir -p "$OUT"
export PATH=$PATH:/usr/local/cuda/bin:/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64
echo "== $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), binaries of $(cat "$TREE/.commit" 2>/dev/null)"
if [ -n "${FULL:-}" ]; then
  (cd "$TREE" && timeout 300 ctest -L gpu -E two_gpus -j 3 >"$OUT/ct.log" 2>&1)
  grep -E "tests passed|Failed|\*\*\*" "$OUT/ct.log"
fi
C="--case cases/cavity3d_re1000.ini --set grid.nx=256 --set grid.ny=256 --set grid.nz=256"
C="$C --set pressure.tolerance=1e-6 --set run.backend=cuda --steps 20"
step() { # LABEL BIN: the step time and the per-kernel microseconds
  local label=$1 bin=$2 log=$OUT/step_$RANDOM.log
  OMP_NUM_THREADS=$(nproc) timeout 120 "$bin" bench step $C >"$log" 2>&1
  printf '%-34s %s |%s\n' "$label" "$(grep -m1 '^step:' "$log" | awk '{print $2, $3}')" \
    "$(awk '$1 == "momentum_advance" || $1 == "momentum_rhs" || $1 == "correct" {printf " %s %s us", $1, $3}' "$log")"
}
for r in $(seq "$ROUNDS"); do
  for p in 64 32; do
    b=$B64 base=${BASE64:-}
    [ $p = 32 ] && b=$B32 base=${BASE32:-}
    for k in $KZS; do NAV_MOMENTUM_KZ=$k step "fp$p momentum_kz=$k" "$b"; done
    NAV_CUDA_KZ=1 step "fp$p cuda_kz=1" "$b"
    [ -n "$base" ] && step "fp$p base" "$base"
  done
done
if command -v ncu >/dev/null; then
  for p in 64 32; do
    b=$B64
    [ $p = 32 ] && b=$B32
    timeout 150 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy \
      -k regex:momentum_advance -s 3 -c 1 "$b" bench step ${C/--steps 20/--steps 6} >"$OUT/ncu_$p.txt" 2>&1
    echo "ncu fp$p momentum_advance: $(grep -E '^ +(Duration|DRAM Throughput|L1/TEX Cache Throughput|L2 Cache Throughput|L1/TEX Hit Rate|Achieved Occupancy) ' \
      "$OUT/ncu_$p.txt" | awk '{printf "%s %s %s; ", $1, $(NF-1), $NF}')"
  done
fi
