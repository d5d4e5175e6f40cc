# Sourced by the device A/B scripts (gpu_wavefront.sh, gpu_momentum.sh, gpu_guess.sh): gpu_checks TREE PATTERN [TK]
# prints the GPU and the tree's commit, runs test_kernels (TK, default TREE/tests/test_kernels; log $OUT/tk.log, or
# $OUT/tk32.log for another binary) with the largest relative difference of its lines matching PATTERN, and with
# FULL set every single-GPU ctest of the gpu label of TREE (source bench/gpu_env.sh first).
export PATH=$PATH:/usr/local/cuda/bin:/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64
gpu_checks() {
  local tree=$1 pattern=$2 tk=${3:-$1/tests/test_kernels} log=$OUT/tk.log
  [ -n "${3:-}" ] && log=$OUT/tk32.log
  [ -z "${3:-}" ] && echo "== $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), binaries of $(cat "$tree/.commit" 2>/dev/null)"
  timeout 300 "$tk" >"$log" 2>&1
  echo "$tk: exit $? | $(tail -1 "$log")"
  grep "$pattern" "$log" | awk '{print $(NF-1)}' | sort -g | tail -1 | sed "s/^/largest $pattern rel diff: /"
  if [ -n "${FULL:-}" ] && [ -z "${3:-}" ]; then
    (cd "$tree" && timeout 300 ctest -L gpu -E two_gpus -j 3 >"$OUT/ct.log" 2>&1)
    grep -E "tests passed|Failed|\*\*\*" "$OUT/ct.log"
  fi
}
# gpu_ab_start NAME PATTERN B64 B32 [TREE]: the start of the two-precision A/B scripts (gpu_momentum.sh, gpu_guess.sh):
# sets B64, B32 (the FP64 and FP32 navier), TREE (default .carry/bg), OUT (default /tmp/NAME), runs gpu_checks of
# PATTERN (with TK32 set, on the FP32 build's test_kernels too), and sets C3 to the 3D cavity 256^3 with the pressure
# to 1e-6.
gpu_ab_start() {
  B64=$3 B32=$4 TREE=${5:-.carry/bg}
  OUT=${OUT:-/tmp/$1}
  mkdir -p "$OUT"
  gpu_checks "$TREE" "$2"
  [ -n "${TK32:-}" ] && gpu_checks "$TREE" "$2" "$TK32"
  C3="--case cases/cavity3d_re1000.ini --set grid.nx=256 --set grid.ny=256 --set grid.nz=256 --set pressure.tolerance=1e-6"
}
