#!/usr/bin/env bash
# GPU checks of implicit diffusion and variable viscosity (issue 13), for a machine with a GPU:
#   1. test_kernels (every kernel, the new face_viscosity, stress and the Helmholtz form of the
#      Poisson kernels included, CUDA against CPU <= 1e-12);
#   2. whole runs CUDA against CPU (<= 1e-10): natural convection Ra 1e4 on 128^2, 300 implicit
#      steps; the 3D cavity 48^3 with a linear eddy viscosity, 50 implicit steps;
#   3. time to steady state, explicit against implicit diffusion, natural convection Ra 1e6 on
#      256^2 on one GPU (bench/implicit_diffusion.sh; prints both wall times, the ratio and the
#      de Vahl Davis figures).
#
# usage: bench/gpu_implicit.sh [BIN_DIR]     BIN_DIR holds navier, test_kernels, test_flow_backends
#                                           (default build, configured with CUDA)
# Writes the logs to $OUT (default /tmp/gpu_implicit) and prints a summary.
set -u
BIN=${1:-build}
OUT=${OUT:-/tmp/gpu_implicit}
mkdir -p "$OUT"
export OMP_NUM_THREADS=${NT:-4}
"$BIN/tests/test_kernels" >"$OUT/test_kernels.log" 2>&1 || "$BIN/test_kernels" >"$OUT/test_kernels.log" 2>&1
echo "test_kernels: exit $? ; $(grep -c FAIL "$OUT/test_kernels.log") FAIL lines; largest rel diff" \
  "$(grep -o 'rel diff [^ ]*' "$OUT/test_kernels.log" | awk '{print $3}' | sort -g | tail -1)"
grep -E "helmholtz|stress|face_viscosity|reflect" "$OUT/test_kernels.log" | grep -c ok | sed 's/^/new-kernel checks ok: /'
TFB=$BIN/tests/test_flow_backends
[ -x "$TFB" ] || TFB=$BIN/test_flow_backends
"$TFB" cases/natconv2d_ra1e4.ini run.method=projection grid.nx=128 grid.ny=128 time.max_steps=300 time.diffusion=implicit \
  time.diffusion_tolerance=1e-12 pressure.tolerance=1e-12 >"$OUT/flow_natconv.log" 2>&1
echo "test_flow_backends natconv2d implicit: exit $?"; tail -8 "$OUT/flow_natconv.log"
"$TFB" cases/cavity3d_re1000.ini grid.nx=48 grid.ny=48 grid.nz=48 time.max_steps=50 time.diffusion=implicit \
  physics.nu_t=linear physics.nu_t_value=0.001 physics.nu_t_gradient=0.002,0.004,0.001 \
  time.diffusion_tolerance=1e-12 pressure.tolerance=1e-12 >"$OUT/flow_cavity3d.log" 2>&1
echo "test_flow_backends cavity3d implicit nu_t: exit $?"; tail -8 "$OUT/flow_cavity3d.log"
NAVIER=$BIN/navier
[ -x "$NAVIER" ] || NAVIER=$BIN/app/navier
BACKEND=cuda SCRATCH=$OUT/steady bash bench/implicit_diffusion.sh "$NAVIER" cases/natconv2d_ra1e6.ini 1 \
  | tee "$OUT/steady_natconv_ra1e6.txt"
