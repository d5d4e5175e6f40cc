#!/usr/bin/env bash
# The GPU check of the round of issues 13 (grids, open flows, implicit diffusion), 17 (first hour),
# 18 (FFT solver), 19 (artificial compressibility) and 20 (tests), on one GPU, in calls of at most
# 10 minutes each:
#   check   every kernel CUDA against CPU (test_kernels: the line relaxation, inflow/outflow,
#           artificial-compressibility, stress and Helmholtz kernels included, <= 1e-12); cuFFT
#           against FFTW (test_fft backends); whole runs CUDA against CPU after N steps (<= 1e-10,
#           pressure iterations equal at every step: test_flow_backends) of the stretched 3D
#           cavity, Kovasznay, the developing and the driven channel, the artificial-compressibility
#           cases, implicit natural convection and the 3D cavity with implicit diffusion and an eddy
#           viscosity; the first-hour checks (bench/gpu_first_hour.sh)
#   bench   bench/gpu_fft.sh: Poisson solves and steps at 256^3 (fft and mg), Taylor-Green 128^3
#           and 256^3, 2D cavity 1024^2, --profile bytes per cell
#   natconv time to steady state (steady_tol 1e-6), natural convection Ra 1e6 on 256^2: the
#           projection with explicit diffusion (today's method), with implicit diffusion, and
#           artificial compressibility (each capped: a capped run is a lower bound)
#   cavity  the same for the cavity Re 1000 and Re 3200 on 256^2 and the buoyancy cube Ra 1e5 64^3
# usage: bench/gpu_round.sh BIN_DIR PART...   BIN_DIR holds navier, test_kernels, test_flow_backends,
#        test_fft (a CUDA build, sm_90); run from the repository root. A short table per part on
#        stdout; the logs go to $OUT/logs_PART.tgz.
set -u
BIN=${1:?usage: bench/gpu_round.sh BIN_DIR check|bench|natconv|cavity ...}
shift
OUT=${OUT:-/tmp/gpu_round}
W=${SCRATCH:-/tmp/gpu_round_runs}
mkdir -p "$OUT" "$W"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)}

flow() { # LABEL CASE KEY=VALUE... : CUDA against CPU
  local label=$1
  shift
  timeout 300 "$BIN/test_flow_backends" "$@" >"$W/flow_$label.log" 2>&1
  echo "flow $label: exit $? | $(grep -E 'max \|cuda|iterations differed|test_flow_backends:' "$W/flow_$label.log" |
    sed 's/max |cuda - cpu| \/ max([^)]*) = //' | awk '{printf "%s ", $0}')"
}

# CASE NAME METHOD DIFFUSION CAP_S SETS... : one run to steady_tol 1e-6 on the GPU, its summary
steady() {
  local case=$1 name=$2 method=$3 diff=$4 cap=$5
  shift 5
  local sets=()
  for s in "$@"; do sets+=(--set "$s"); done
  local dir="$W/${name}_${method}_${diff}"
  timeout --foreground -s INT "$cap" "$BIN/navier" run "$case" --output "$dir" --set run.backend=cuda --set run.method="$method" \
    --set time.diffusion="$diff" --set time.steady_tol=1e-6 --set output.fields_every=0 --set output.monitor_every=100 \
    --set output.plots=false "${sets[@]}" >"$dir.log" 2>&1
  python3 - "$dir/summary.json" "$name" "$method" "$diff" "$cap" <<'PY'
import json, sys
p, name, method, diff, cap = sys.argv[1:]
try:
    s = json.load(open(p))
except Exception as e:
    print(f"{name:22s} {method:27s} {diff:8s} no summary ({e})"); sys.exit()
st, v, c = s.get("steady", {}), s.get("validation", {}), s.get("convection", {})
val = ""
if "ghia_max_dev_u" in v:
    val = f"Ghia {v['ghia_max_dev_u']:.4f}/{v['ghia_max_dev_v']:.4f}"
if c:
    val = f"Nu {c.get('nusselt')} umax {c.get('u_max')} vmax {c.get('v_max')}"
print(f"{name:22s} {method:27s} {diff:8s} {s['status']:9s} it {st.get('iterations')} res {st.get('residual')} "
      f"conv {st.get('converged')} wall {st.get('wall_s')} s (cap {cap}) {val}")
PY
}

for part in "$@"; do
  echo "=== $part  ($(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); commit $(git rev-parse --short HEAD 2>/dev/null))"
  case $part in
  check)
    timeout 300 "$BIN/test_kernels" >"$W/test_kernels.log" 2>&1
    echo "test_kernels: exit $? | $(grep -E 'checks|FAIL' "$W/test_kernels.log" | tail -3 | tr '\n' ' ')"
    timeout 300 "$BIN/test_fft" backends >"$W/test_fft.log" 2>&1
    echo "test_fft backends: exit $? | $(grep -cE '^ok' "$W/test_fft.log") ok, $(grep -cE 'FAIL' "$W/test_fft.log") FAIL"
    flow cavity3d_64_auto cases/cavity3d_re1000.ini grid.nx=64 grid.ny=64 grid.nz=64 time.max_steps=100
    flow cavity3d_stretched cases/cavity3d_re1000.ini grid.nx=48 grid.ny=48 grid.nz=48 grid.y_spacing=tanh \
      grid.y_gamma=4 grid.x_spacing=geometric grid.x_ratio=1.05 time.max_steps=50
    flow kovasznay2d cases/kovasznay2d.ini grid.nx=192 grid.ny=64 time.max_steps=300
    flow channel2d_inflow cases/channel2d_inflow.ini grid.nx=384 grid.ny=64 time.max_steps=300
    flow channel2d_poiseuille cases/channel2d_poiseuille.ini grid.nx=64 grid.ny=64 physics.initial=rest \
      time.max_steps=300 time.diffusion_tolerance=1e-12 pressure.tolerance=1e-12
    flow ac_cavity2d_256 cases/cavity2d_re1000.ini grid.nx=256 grid.ny=256 time.max_steps=50
    flow ac_natconv2d cases/natconv2d_ra1e4.ini grid.nx=128 grid.ny=128 time.max_steps=50
    flow ac_bdc3d cases/bdc3d_ra1e5.ini grid.nx=32 grid.ny=32 grid.nz=32 time.max_steps=20
    flow natconv2d_implicit cases/natconv2d_ra1e4.ini run.method=projection grid.nx=128 grid.ny=128 \
      time.max_steps=300 time.diffusion=implicit time.diffusion_tolerance=1e-12 pressure.tolerance=1e-12
    flow cavity3d_implicit_nu_t cases/cavity3d_re1000.ini grid.nx=48 grid.ny=48 grid.nz=48 time.max_steps=50 \
      time.diffusion=implicit physics.nu_t=linear physics.nu_t_value=0.001 physics.nu_t_gradient=0.002,0.004,0.001 \
      time.diffusion_tolerance=1e-12 pressure.tolerance=1e-12
    mkdir -p "$W/fh" && cp "$BIN/navier" "$W/fh/" && bash bench/gpu_first_hour.sh "$W/fh" >"$W/first_hour.log" 2>&1
    echo "first hour: exit $? | $(grep -cE '^ok' "$W/first_hour.log") ok, $(grep -E 'FAIL' "$W/first_hour.log" | tr '\n' ' ')"
    ;;
  bench)
    OUT=$W/fft SCRATCH=$W/fft_runs bash bench/gpu_fft.sh "$BIN" >"$W/gpu_fft.log" 2>&1
    grep -vE '^\s*$' "$W/fft/summary.txt"
    ;;
  natconv)
    N=(cases/natconv2d_ra1e6.ini natconv_ra1e6_256)
    steady "${N[@]}" artificial_compressibility implicit 200 grid.nx=256 grid.ny=256
    steady "${N[@]}" projection implicit 180 grid.nx=256 grid.ny=256
    steady "${N[@]}" projection explicit 180 grid.nx=256 grid.ny=256
    ;;
  cavity)
    steady cases/cavity2d_re1000.ini cavity_re1000_256 artificial_compressibility explicit 100
    steady cases/cavity2d_re1000.ini cavity_re1000_256 projection explicit 150
    steady cases/cavity2d_re1000.ini cavity_re3200_256 artificial_compressibility explicit 100 physics.nu=3.125e-4
    steady cases/cavity2d_re1000.ini cavity_re3200_256 projection explicit 90 physics.nu=3.125e-4
    steady cases/bdc3d_ra1e5.ini bdc3d_ra1e5_64 artificial_compressibility explicit 60
    steady cases/bdc3d_ra1e5.ini bdc3d_ra1e5_64 projection explicit 90
    ;;
  *) echo "unknown part $part" ;;
  esac
  tar czf "$OUT/logs_$part.tgz" -C "$W" --exclude='*.bin' --exclude='*.nck' --exclude='*.h5' --exclude='*.vtk' \
    --exclude='*.png' . 2>/dev/null
done
