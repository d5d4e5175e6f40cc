#!/usr/bin/env bash
# The tiled momentum_advance (CUDA flow.cu, plain 3D blocks) against one point per thread (NAV_MOMENTUM_TILED=0),
# interleaved in one call on one GPU, the same binaries (issue 18: the FP32 / FP64 ratio of the step):
#   1. checks: tests/test_kernels of the carried tree (every mom_advance line: CUDA against the CPU), with TK32 set
#      the FP32 build's test_kernels too, and with FULL=1 every single-GPU ctest of the gpu label (source
#      bench/gpu_env.sh first);
#   2. ROUNDS rounds of =0 then =1 (the default: 0 in FP64, 1 in FP32): `navier bench step` of the 3D cavity 256^3 (solver = auto) in FP64 ($B64) and FP32
#      ($B32), the Taylor-Green vortex 128^3 and 256^3 (nu = 1e-3, CFL-limited dt) in both, and the cavity with the
#      multigrid (mixed V(1,2)) in FP64: the step time and the bench's microseconds of momentum_advance;
#   3. with ncu: duration, DRAM and L2 throughput, L1 hit rate of both kernels in both precisions.
# One line per measurement; logs under $OUT.
#
# usage (repository root on the device, after bench/gpu_carry.sh and a copy of the FP32 navier):
#   bash bench/gpu_momentum.sh B64 B32 [TREE]
set -u
ROUNDS=${ROUNDS:-2}
. "$(dirname "$0")/gpu_checks.sh"
gpu_ab_start gpu_momentum mom_advance "$@"
TG="--case cases/taylor_green3d.ini --set physics.nu=1e-3 --set time.dt=0"
step() { # LABEL BIN ARGS...: the step time and momentum_advance's microseconds
  local label=$1 bin=$2
  shift 2
  OMP_NUM_THREADS=$(nproc) timeout 120 "$bin" bench step "$@" --set run.backend=cuda --steps 20 >"$OUT/step.log" 2>&1
  cat "$OUT/step.log" >>"$OUT/steps.log"
  printf '%-40s %s |%s\n' "$label" "$(grep -m1 '^step:' "$OUT/step.log" | awk '{print $2, $3}')" \
    "$(awk '$1 == "momentum_advance" {printf " momentum_advance %s us", $3}' "$OUT/step.log")"
}
for r in $(seq "$ROUNDS"); do
  for t in 0 1; do
    export NAV_MOMENTUM_TILED=$t
    step "tiled=$t fp64 cavity 256^3 auto" "$B64" $C3
    step "tiled=$t fp32 cavity 256^3 auto" "$B32" $C3
    for n in 128 256; do
      step "tiled=$t fp64 tgv $n^3" "$B64" $TG --set grid.nx=$n --set grid.ny=$n --set grid.nz=$n
      step "tiled=$t fp32 tgv $n^3" "$B32" $TG --set grid.nx=$n --set grid.ny=$n --set grid.nz=$n
    done
    step "tiled=$t fp64 cavity 256^3 mg mixed V(1,2)" "$B64" $C3 --set pressure.solver=mg \
      --set pressure.precision=mixed --set pressure.pre_smooth=1
  done
done
unset NAV_MOMENTUM_TILED
if command -v ncu >/dev/null; then
  for p in 64 32; do
    b=$B64
    [ $p = 32 ] && b=$B32
    for t in 0 1; do
      NAV_MOMENTUM_TILED=$t timeout 150 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis \
        --section Occupancy -k regex:momentum_advance -s 3 -c 1 "$b" bench step $C3 --set run.backend=cuda --steps 6 \
        >"$OUT/ncu_${p}_$t.txt" 2>&1
      echo "ncu fp$p tiled=$t: $(grep -E '^ +(Duration|DRAM Throughput|L2 Cache Throughput|L1/TEX Hit Rate|Achieved Occupancy|Registers Per Thread) ' \
        "$OUT/ncu_${p}_$t.txt" | awk '{printf "%s %s %s; ", $1, $(NF-1), $NF}')"
    done
  done
fi
