#!/usr/bin/env bash
# Time per step on the GPU for navier binaries built with different NAV_MG_CPU_CELLS (the size at
# or below which multigrid levels run on the CPU; 0 = all levels on the GPU).
#   bench/gpu_coarse_threshold.sh BIN_DIR     BIN_DIR holds navier_<threshold> binaries
# Time per step = (wall of a long run - wall of a short run) / (step difference): set-up left out.
set -u
BIN=${1:-.carry}
OUT=${OUT:-/tmp/gpu_threshold}
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=$(nproc)
wall() { # wall BINARY STEPS CASE-ARGS...
  local bin=$1 steps=$2 dir
  shift 2
  dir=$(mktemp -d)
  timeout 300 "$bin" run "$@" --set run.backend=cuda --set time.max_steps="$steps" --set output.fields_dt=0 \
    --output "$dir" >>"$OUT/threshold.log" 2>&1
  python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['wall_s'])" "$dir/summary.json" 2>/dev/null || echo nan
}
printf '%-10s %14s %14s %14s\n' threshold "2D 128^2 ms" "3D 128^3 ms" "3D 256^3 ms"
for bin in "$BIN"/navier_*; do
  th=${bin##*_}
  row=$(printf '%-10s' "$th")
  for spec in "500 2500 cases/cavity2d_re100.ini" "20 120 cases/cavity3d_re1000.ini --set grid.nx=128 --set grid.ny=128 --set grid.nz=128" \
              "10 60 cases/cavity3d_re1000.ini --set grid.nx=256 --set grid.ny=256 --set grid.nz=256"; do
    set -- $spec
    s0=$1 s1=$2
    shift 2
    w0=$(wall "$bin" "$s0" "$@")
    w1=$(wall "$bin" "$s1" "$@")
    row="$row $(python3 -c "print('%14.3f' % (1000 * ($w1 - $w0) / ($s1 - $s0)))")"
  done
  echo "$row"
done
