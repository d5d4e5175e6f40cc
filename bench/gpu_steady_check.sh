#!/usr/bin/env bash
# GPU check of artificial compressibility (issue 19), one call on a GPU machine:
#   1. test_kernels (every kernel, the AC ones included: ac_cells, ac_momentum, the face
#      transfers of the pseudo-time multigrid) and test_flow_backends on the AC cases (the
#      cavity Re 1000 256^2 50 V-cycles, natural convection Ra 1e4 128^2 50, bdc3d 32^3 20):
#      CUDA against CPU <= 1e-10;
#   2. 2 GPUs against 1 (mpi_compare, 30 V-cycles of the cavity 256^2, 3 pseudo-time levels) when
#      two devices are visible;
#   3. time to steady_tol 1e-6 on the GPU, AC against the projection (bench/steady_time.sh):
#      natural convection Ra 1e6 256^2, the 3D buoyancy cube Ra 1e5 64^3, the cavities Re 1000 and
#      Re 3200 256^2 (PROJ_LIMIT_S caps each projection run, default 1800 s).
# usage: bench/gpu_steady_check.sh [BIN_DIR]   (BIN_DIR holds navier, test_kernels, test_flow_backends;
#        run from the repository root)
set -u
BIN=${1:-build}
OUT=${OUT:-/tmp/gpu_steady_check}
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
"$BIN/test_kernels" 2>&1 | tee "$OUT/kernels.log" | grep -E "ac_|test_kernels:"
"$BIN/test_flow_backends" cases/cavity2d_re1000.ini grid.nx=256 grid.ny=256 time.max_steps=50 | tail -5
"$BIN/test_flow_backends" cases/natconv2d_ra1e4.ini grid.nx=128 grid.ny=128 time.max_steps=50 | tail -6
"$BIN/test_flow_backends" cases/bdc3d_ra1e5.ini grid.nx=32 grid.ny=32 grid.nz=32 time.max_steps=20 | tail -7
if [ "$(nvidia-smi -L 2>/dev/null | wc -l)" -ge 2 ]; then
  /usr/bin/python3 tests/mpi/mpi_compare.py "$(command -v mpiexec)" "$BIN/navier" "$OUT/two_gpus" 1e-10 run \
    cases/cavity2d_re1000.ini 2,1,1 --set run.backend=cuda --set time.max_steps=30 --set run.ac_levels=3 | tail -3
fi
PROJ_LIMIT_S=${PROJ_LIMIT_S:-1800} NAV_BACKEND=cuda bench/steady_time.sh "$BIN/navier" "$OUT/steady" \
  cases/natconv2d_ra1e6.ini:natconv_ra1e6_256:grid.nx=256,grid.ny=256 cases/bdc3d_ra1e5.ini:bdc3d_ra1e5 \
  cases/cavity2d_re1000.ini:cavity_re1000 cases/cavity2d_re1000.ini:cavity_re3200:physics.nu=3.125e-4
