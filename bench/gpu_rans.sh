#!/usr/bin/env bash
# The GPU check and benchmark of the k-omega SST model (issue 15), in calls of at most 10 minutes each:
#   check   the SST kernels and the Helmholtz operator with a variable shift CUDA against CPU (test_kernels,
#           <= 1e-12); whole runs CUDA against CPU (test_flow_backends, <= 1e-10 for u, v, p, k, omega, nu_t):
#           the Re_tau 550 and 5200 channels, a 2D channel with 64 cells along x, and the lid-driven cavity
#           Re 1000 with the model (2D advection of k and omega)
#   steady  time to the converged solution on the validation grids, one GPU: channel2d_rans_retau550 and
#           channel2d_rans_retau5200 as shipped (steady iterations, wall seconds, U_b+, C_f)
#   bench1_channel, bench1_cavity  time per outer iteration (one pseudo-time step: momentum, pressure, k
#           and omega solves) on 6000^2, 10000^2 and 12000^2 cells, one GPU (navier bench step: 10 steps after
#           3 warm-up steps; each run capped at 190 s; 12000^2 needs about 80 GB: an H200, or it fails with
#           out-of-memory on an H100), of the 2D channel (the Re_tau 5200 case; x-independent, so its
#           pressure solve is trivial) and of the lid-driven cavity with the model at Re 1e5 (every solve
#           does real work)
#   bench2_channel, bench2_cavity  the same on 2 GPUs (mpiexec -n 2, the grid split across y)
#   cpu_channel, cpu_cavity  the same step on the CPU (all cores of the machine; 2000^2 and 6000^2, 3
#           steps; CPU_SIZES="N ..." in the environment sets other sizes)
#   bench   everything issue 15 asks of the GPUs in one call of under 5 minutes, on a machine with 2 GPUs
#           (nvidia-h200-x2): the device memory per cell from --profile on a 1000^2 channel, and from it
#           whether 6000^2, 10000^2, 12000^2 fit on one GPU and on two; then navier bench step (5 outer
#           iterations after 3 warm-up ones; one outer iteration = one pseudo-time step: momentum,
#           pressure, k and omega solves) of the Re_tau 5200 channel on 12000^2, 10000^2, 6000^2 cells on
#           2 GPUs (mpiexec -n 2, grid split across y) and on 1 GPU, and on 2000^2 on 1 GPU (the CPU
#           figure of docs/performance.md is on that grid), each with the peak device memory that
#           nvidia-smi saw during the run; last the time to the converged solution of
#           channel2d_rans_retau5200 (the validation grid) and channel2d_rans_retau550 on 1 GPU. Runs that
#           would start after BUDGET_S seconds (default 270) are skipped and say so.
# usage: bench/gpu_rans.sh BIN_DIR PART...   BIN_DIR holds navier, test_kernels, test_flow_backends (a
#        CUDA build, sm_90); run from the repository root. One short table per part at the end of stdout;
#        the logs go to $OUT/logs_PART.tgz.
set -u
BIN=${1:?usage: bench/gpu_rans.sh BIN_DIR bench|check|steady|bench1_channel|bench1_cavity|bench2_channel|bench2_cavity|cpu_channel|cpu_cavity ...}
shift
OUT=${OUT:-/tmp/gpu_rans}
W=${SCRATCH:-/tmp/gpu_rans_runs}
mkdir -p "$OUT" "$W"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)}
export NCCL_NVLS_ENABLE=0 # NVLink multicast off (2 GPUs through NCCL, as bench/gpu_multi.sh)
C550=cases/channel2d_rans_retau550.ini
C5200=cases/channel2d_rans_retau5200.ini
TABLE=$W/table.txt
: >"$TABLE"

flow() { # LABEL CASE KEY=VALUE... : CUDA against CPU
  local label=$1
  shift
  timeout 280 "$BIN/test_flow_backends" "$@" >"$W/flow_$label.log" 2>&1
  echo "flow $label: exit $? | $(grep -E 'max \|cuda|iterations differed|test_flow_backends:' "$W/flow_$label.log" |
    sed 's/max |cuda - cpu| \/ max([^)]*) = //' | awk '{printf "%s ", $0}')" | tee -a "$TABLE"
}

steady() { # LABEL CASE : one run to its steady state on the GPU
  local label=$1 case=$2 dir="$W/steady_$1"
  timeout --foreground -s INT "${STEADY_TIMEOUT:-280}" "$BIN/navier" run "$case" --output "$dir" --set run.backend=cuda \
    >"$dir.log" 2>&1
  python3 - "$dir/summary.json" "$label" <<'PY' | tee -a "$TABLE"
import json, sys
try:
    s = json.load(open(sys.argv[1]))
except Exception as e:
    print(f"{sys.argv[2]}: no summary ({e})"); sys.exit()
st, c = s.get("steady", {}), s.get("channel", {})
print(f"steady {sys.argv[2]}: {s['backend']} {s['status']} iterations {st.get('iterations')} converged "
      f"{st.get('converged')} wall {st.get('wall_s')} s; U_b+ {c.get('ub_plus')} U_c+ {c.get('uc_plus')} C_f {c.get('cf')}")
PY
}

step() { # LABEL LAUNCH N BACKEND STEPS KIND : time per outer iteration on N^2 cells
  # KIND channel: the Re_tau 5200 case (lx = 64: dx = 64 / N); its flow does not depend on x, so the
  # divergence of the predicted velocity is exactly 0 and the pressure solve returns at once.
  # KIND cavity: the lid-driven cavity with the model at Re 1e5 on a tanh grid in y (gamma 2): a 2D flow
  # whose every step solves the pressure (FFT on one GPU, multigrid on two) and k, omega in 2D.
  local label=$1 launch=$2 n=$3 backend=$4 steps=$5 kind=$6 sets=()
  if [ "$kind" = channel ]; then
    sets=(--case "$C5200")
  else
    sets=(--case cases/cavity2d_re1000.ini --set run.method=projection --set time.diffusion=implicit
      --set time.diffusion_theta=1 --set turbulence.model=k_omega_sst --set turbulence.nut_relaxation=0.5
      --set grid.y_spacing=tanh --set grid.y_gamma=2 --set physics.nu=1e-5)
  fi
  timeout --foreground 190 $launch "$BIN/navier" bench step "${sets[@]}" --set grid.nx="$n" --set grid.ny="$n" \
    --set run.backend="$backend" ${launch:+--set run.decomposition=1,2,1} --steps "$steps" --json >"$W/step_$label.log" 2>&1
  local rc=$?
  python3 bench/step_line.py "$W/step_$label.log" "step $label" "$rc" --seconds | tee -a "$TABLE"
}

gpumem() { # FILE : the peak memory.used (MiB) of each GPU in the nvidia-smi log FILE
  python3 - "$1" <<'PY'
import sys
peak = {}
for line in open(sys.argv[1]):
    f = [x.strip() for x in line.split(",")]
    if len(f) == 2 and f[1].isdigit():
        peak[f[0]] = max(peak.get(f[0], 0), int(f[1]))
print(" ".join(f"GPU{k} {v / 1024:.1f} GiB" for k, v in sorted(peak.items())) or "n/a")
PY
}

T0=$(date +%s)
budget_left() { echo $((${BUDGET_S:-270} - ($(date +%s) - T0))); }

bstep() { # LABEL RANKS N : navier bench step of the Re_tau 5200 channel on N^2 cells, peak device memory
  local label=$1 ranks=$2 n=$3 left
  left=$(budget_left)
  if [ "$left" -lt 20 ]; then
    echo "step $label: skipped (the ${BUDGET_S:-270} s budget is spent)" | tee -a "$TABLE"
    return
  fi
  local launch=() dec=()
  [ "$ranks" -gt 1 ] && launch=(mpiexec -n "$ranks") && dec=(--set run.decomposition=1,$ranks,1)
  nvidia-smi --query-gpu=index,memory.used --format=csv,noheader,nounits -lms 200 >"$W/smi_$label.txt" 2>/dev/null &
  local smi=$!
  timeout --foreground $((left < 120 ? left : 120)) "${launch[@]}" "$BIN/navier" bench step --case "$C5200" \
    --set grid.nx="$n" --set grid.ny="$n" --set run.backend=cuda "${dec[@]}" --steps 5 --json >"$W/step_$label.log" 2>&1
  local rc=$?
  kill "$smi" 2>/dev/null
  wait "$smi" 2>/dev/null
  local mem
  mem=$(gpumem "$W/smi_$label.txt")
  python3 bench/step_line.py "$W/step_$label.log" "step $label" "$rc" --seconds \
    --extra "peak device memory (nvidia-smi) $mem" | tee -a "$TABLE"
}

for part in "$@"; do
  echo "=== $part  ($(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1); commit $(git rev-parse --short HEAD 2>/dev/null))" | tee -a "$TABLE"
  case $part in
  check)
    timeout 300 "$BIN/test_kernels" >"$W/test_kernels.log" 2>&1
    echo "test_kernels: exit $? | $(grep -E 'sst|variable shift' "$W/test_kernels.log" | grep -c ok) sst/shift ok, $(grep -cE 'FAIL' "$W/test_kernels.log") FAIL | $(tail -1 "$W/test_kernels.log")" | tee -a "$TABLE"
    flow rans550 "$C550" time.max_steps=300 time.steady_tol=0 time.diffusion_tolerance=1e-10
    flow rans5200 "$C5200" time.max_steps=300 time.steady_tol=0 time.diffusion_tolerance=1e-10
    flow rans5200_x64 "$C5200" grid.nx=64 time.max_steps=100 time.steady_tol=0 time.diffusion_tolerance=1e-10
    flow cavity_sst cases/cavity2d_re1000.ini run.method=projection grid.nx=128 grid.ny=128 time.max_steps=100 \
      time.diffusion=implicit turbulence.model=k_omega_sst time.diffusion_tolerance=1e-10 pressure.tolerance=1e-12
    ;;
  steady)
    steady rans550 "$C550"
    steady rans5200 "$C5200"
    ;;
  bench1_channel | bench1_cavity | bench2_channel | bench2_cavity)
    kind=${part#*_}
    launch=""
    [ "${part%%_*}" = bench2 ] && launch="mpiexec -n 2 --oversubscribe"
    for n in 6000 10000 12000; do step "${part%%_*}_${kind}_$n" "$launch" "$n" cuda 10 "$kind"; done
    ;;
  bench)
    total=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits | head -1)
    ngpu=$(nvidia-smi -L | wc -l)
    timeout 120 "$BIN/navier" run "$C5200" --output "$W/probe" --set grid.nx=1000 --set grid.ny=1000 \
      --set run.backend=cuda --set time.max_steps=3 --profile >"$W/probe.log" 2>&1
    python3 - "$W/probe.log" "$total" "$ngpu" <<'PY' | tee -a "$TABLE"
import re, sys
m = re.search(r"memory: ([0-9.]+) GiB of (\w+) memory at the peak \(largest rank\), ([0-9.]+) bytes per cell",
              open(sys.argv[1]).read())
total = float(sys.argv[2]) * 2**20  # MiB -> bytes
if not m:
    print(f"memory probe: no --profile memory line in {sys.argv[1]}"); sys.exit()
b = float(m.group(3))
print(f"memory probe (1000^2 channel, --profile): {m.group(1)} GiB of {m.group(2)} memory, {b:.0f} bytes per cell; "
      f"{sys.argv[3]} GPU(s) of {total / 2**30:.1f} GiB")
for n in (6000, 10000, 12000):
    for r in (1, 2):
        need = b * n * n / r
        print(f"  {n}^2 on {r} GPU(s): {need / 2**30:.1f} GiB per GPU -> {'fits' if need < total else 'does NOT fit'}")
PY
    STEADY_TIMEOUT=60 steady rans5200 "$C5200"
    for n in 12000 10000 6000; do
      [ "$ngpu" -ge 2 ] && bstep "2gpu_$n" 2 "$n"
      bstep "1gpu_$n" 1 "$n"
    done
    bstep 1gpu_2000 1 2000
    left=$(budget_left)
    if [ "$left" -ge 20 ]; then
      STEADY_TIMEOUT=$left steady rans550 "$C550"
    else
      echo "steady rans550: skipped (budget spent)" | tee -a "$TABLE"
    fi
    echo "bench: $(($(date +%s) - T0)) s in all" | tee -a "$TABLE"
    ;;
  cpu_channel | cpu_cavity)
    for n in ${CPU_SIZES:-2000 6000}; do step "cpu_${part#*_}_$n" "" "$n" cpu 3 "${part#*_}"; done
    ;;
  *) echo "unknown part $part" ;;
  esac
  tar czf "$OUT/logs_$part.tgz" -C "$W" --exclude='*.bin' --exclude='*.nck' --exclude='*.h5' --exclude='*.vtk' \
    --exclude='*.png' . 2>/dev/null
done
echo "=== table"
cat "$TABLE"
