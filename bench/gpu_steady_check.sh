#!/usr/bin/env bash
# GPU check of artificial compressibility (issue 19), one call of about 7 minutes on an H100 with
# the build in BIN_DIR (build it first: cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
# -DNAV_ENABLE_CUDA=ON && cmake --build build -j):
#   1. test_kernels, the artificial-compressibility lines (ac_cells, ac_momentum with and without
#      the grad-div damping, ac_dissipation, the face transfers), CUDA against CPU;
#   2. test_flow_backends on the cavity Re 3200 256^2 (coarse-level dissipation, nested start,
#      30 V-cycles): CUDA against CPU <= 1e-10; 2 GPUs against 1 (mpi_compare) when two are visible;
#   3. the cycle variants of artificial compressibility on the two cavities 256^2, to steady_tol 1e-6
#      (one line each: cycles, work units, wall): ac_w_min_cells = 1 (W-cycles down to 2x2: 255
#      level visits per cycle against 79 of the default, which runs V-cycles below 16^2) and
#      ac_cycle = f, to choose the default on the GPU, where a level visit costs its launches;
#   4. time to steady_tol 1e-6, artificial compressibility against the projection with explicit
#      diffusion (bench/steady_time.sh), one after the other: the cavity Re 1000 and Re 3200 on
#      256^2 and natural convection Ra 1e6 on 256^2 (PROJ_LIMIT_S caps each projection run, default
#      400 s: the explicit projection of Ra 1e6 took 259 s on an H100). The table comes last.
# STEADY_EXTRA=1 adds the 3D buoyancy cube Ra 1e5 64^3 (about 2 more minutes).
# usage: bench/gpu_steady_check.sh [BIN_DIR]   (run from the repository root; OUT=... for the logs)
set -u
BIN=${1:-build}
OUT=${OUT:-/tmp/gpu_steady_check}
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
RE3200=physics.nu=3.125e-4
"$BIN/test_kernels" 2>&1 | tee "$OUT/kernels.log" | grep -E "ac_|test_kernels:"
"$BIN/test_flow_backends" cases/cavity2d_re1000.ini grid.nx=256 grid.ny=256 $RE3200 time.max_steps=30 | tail -5
if [ "$(nvidia-smi -L 2>/dev/null | wc -l)" -ge 2 ]; then
  /usr/bin/python3 tests/mpi/mpi_compare.py "$(command -v mpiexec)" "$BIN/navier" "$OUT/two_gpus" 1e-10 run \
    cases/cavity2d_re1000.ini 2,1,1 --set run.backend=cuda --set time.max_steps=30 --set run.ac_levels=3 | tail -3
fi
for re in 1000 3200; do
  for v in run.ac_w_min_cells=1 run.ac_cycle=f; do
    d="$OUT/variant_${re}_${v#run.}"
    "$BIN/navier" run cases/cavity2d_re1000.ini --output "$d" --set run.backend=cuda --set physics.nu="$(/usr/bin/python3 \
      -c "print(1 / $re)")" --set time.steady_tol=1e-6 --set output.fields_every=0 --set output.monitor_every=10 \
      --set "$v" >"$d.log" 2>&1
    echo "cavity Re $re 256^2, $v: $(grep -E '^steady: ' "$d.log" | tr '\n' ' ')"
  done
done
runs=(cases/cavity2d_re1000.ini:cavity_re1000 "cases/cavity2d_re1000.ini:cavity_re3200:$RE3200"
      cases/natconv2d_ra1e6.ini:natconv_ra1e6_256:time.diffusion=explicit)
[ "${STEADY_EXTRA:-0}" = 1 ] && runs+=(cases/bdc3d_ra1e5.ini:bdc3d_ra1e5:time.diffusion=explicit)
PROJ_LIMIT_S=${PROJ_LIMIT_S:-400} NAV_BACKEND=cuda bench/steady_time.sh "$BIN/navier" "$OUT/steady" "${runs[@]}"
