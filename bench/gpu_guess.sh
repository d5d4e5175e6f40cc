#!/usr/bin/env bash
# The extrapolated initial guess of the pressure solves ([pressure] initial_guess = extrapolated, solvers/nav_flow.c)
# against the previous pressure (= previous), one binary per precision, one GPU, interleaved rounds:
#   1. checks: tests/test_kernels of the carried tree (the extrapolate lines: CUDA against the CPU), with TK32 set the
#      FP32 build's too, and with FULL=1 every single-GPU ctest of the gpu label (source bench/gpu_env.sh first);
#   2. ROUNDS rounds of previous then extrapolated: `navier bench step` of the 3D cavity 256^3 (Re 1000, pressure
#      tolerance 1e-6, 20 steps after 3 warm-up) with solver = mg, mixed V(1,2) and double V(2,2), in FP64 ($B64),
#      and mg V(1,2) in FP32 ($B32): ms per step and multigrid cycles per step;
#   3. once, solver = auto (the FFT: no guess, the reference).
# One line per measurement, a table last; logs under $OUT.
#
# usage (repository root on the device, after bench/gpu_carry.sh and a copy of the FP32 navier):
#   bash bench/gpu_guess.sh B64 B32 [TREE]
set -u
ROUNDS=${ROUNDS:-3}
. "$(dirname "$0")/gpu_checks.sh"
gpu_ab_start gpu_guess extrapolate "$@"
C3="$C3 --set run.backend=cuda --steps 20"
MIXED="--set pressure.solver=mg --set pressure.precision=mixed --set pressure.pre_smooth=1"
step() { # LABEL BIN ARGS...: ms per step and cycles per step
  local label=$1 bin=$2
  shift 2
  OMP_NUM_THREADS=$(nproc) timeout 150 "$bin" bench step "$@" >"$OUT/step.log" 2>&1
  cat "$OUT/step.log" >>"$OUT/steps.log"
  printf '%-44s %s\n' "$label" "$(grep -m1 '^step:' "$OUT/step.log" | awk '{print $2, "ms,", $(NF-4), "cycles"}')" |
    tee -a "$OUT/table.txt"
}
for r in $(seq "$ROUNDS"); do
  for g in previous extrapolated; do
    step "fp64 mg mixed V(1,2) $g" "$B64" $C3 $MIXED --set pressure.initial_guess=$g
    step "fp64 mg V(2,2) $g" "$B64" $C3 --set pressure.solver=mg --set pressure.initial_guess=$g
    step "fp32 mg V(1,2) $g" "$B32" $C3 --set pressure.solver=mg --set pressure.pre_smooth=1 \
      --set pressure.initial_guess=$g
  done
done
step "fp64 auto (fft)" "$B64" $C3
step "fp32 auto (fft)" "$B32" $C3
echo "== table (ms per step, cycles per step)"
sort -s -k1,4 "$OUT/table.txt"
