#!/usr/bin/env bash
# The FFT Poisson solver on one GPU (issue 18), in one call on a GPU machine:
#   1. gpu_fft_backends: the cuFFT solver (DCT/DST through pre/post-processing kernels) against the
#      CPU's FFTW solver on every face combination, 2D and 3D, one stretched direction or none
#      (<= 1e-12); test_flow_backends on the 3D cavity 64^3 with solver = fft (CUDA vs CPU);
#   2. navier bench poisson 3D 256^3 all-Neumann, random zero-mean right-hand side, tolerance 1e-6,
#      median of 5 solves: fft against mg V(2,2) and mixed-precision V(1,2) (targets: fft <= 2.5 ms, mg <= 8
#      ms on an H100);
#      also fft periodic and Dirichlet, and 2D 1024^2;
#   3. navier bench step: 3D cavity 256^3 with solver = auto (fft) and mg (targets 4 / 8.4 ms; mixed V(1,2) also with
#      pressure.initial_guess = extrapolated),
#      taylor_green3d at 128^3 and 256^3 (nu = 1e-3, CFL-limited dt; jax-cfd: 0.72 / 5.12 ms in FP64);
#   4. navier run --profile of the 3D cavity 256^3 with solver = auto: device bytes per cell;
#   5-6. the FP32 build's solves and steps ($BIN/single), CuPy's solves on the same GPU (bench/gpu_peers.py) and
#      the ratios CuPy / navier of each pair (bench/peer_ratios.py);
#   with 2 or more GPUs visible also: fft over 2 ranks (transposes over NCCL) against 1, <= 1e-12.
# Prints a short summary last; logs under $OUT.
#
# usage: bench/gpu_fft.sh [BIN_DIR]    BIN_DIR holds navier, test_fft, test_flow_backends (Release,
#        CUDA on, sm_90; the CUDA toolkit's lib64 must hold libcufft.so); run from the repository root.
set -u
BIN=${1:-.carry}
OUT=${OUT:-/tmp/gpu_fft}
SCRATCH=${SCRATCH:-/tmp/gpu_fft_runs}
mkdir -p "$OUT" "$SCRATCH"
export PATH=$PATH:/usr/local/cuda/bin LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
NT=$(nproc)
SUM=$OUT/summary.txt
: >"$SUM"
note() { echo "$*" | tee -a "$SUM"; }

note "== device: $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null)"
note "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (modified)')"
"$BIN/navier" --version | head -3 | tee -a "$SUM"

note "== 1. cuFFT against FFTW"
OMP_NUM_THREADS=$NT timeout 600 "$BIN/test_fft" backends >"$OUT/test_fft.log" 2>&1
note "test_fft backends: exit $? | $(grep -E '^(ok|FAIL)' "$OUT/test_fft.log" | tr '\n' ' ')"
OMP_NUM_THREADS=$NT timeout 600 "$BIN/test_flow_backends" cases/cavity3d_re1000.ini grid.nx=64 grid.ny=64 grid.nz=64 \
  time.max_steps=100 pressure.solver=fft >"$OUT/test_flow_fft.log" 2>&1
rc=$?
tail -3 "$OUT/test_flow_fft.log" | tee -a "$SUM"
note "test_flow_backends (fft): exit $rc"

note "== 2. bench poisson (median of 5 solves, tolerance 1e-6)"
poisson() { # LABEL ARGS...
  local label=$1
  shift
  local r
  r=$(timeout 300 "$BIN/navier" bench poisson "$@" --tol 1e-6 --backend cuda --repeat 5 --json 2>&1 | tail -1)
  echo "$label $r" >>"$OUT/bench.log"
  note "$label: $(echo "$r" | python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); print("solve %.3f ms, %d it, relres %.2e, %.2f G unknowns/s, setup %.2f s" % (1e3*d["solve_s"], d["iterations"], d["relres"], d["unknowns_per_s"]/1e9, d["setup_s"]))' 2>/dev/null || echo "$r")"
}
poisson "fft 3D 256^3 neumann" --dim 3 --n 256 --solver fft --bc neumann
poisson "mg  3D 256^3 neumann" --dim 3 --n 256 --solver mg --bc neumann
poisson "mg  3D 256^3 neumann, mixed V(1,2)" --dim 3 --n 256 --solver mg --bc neumann --precision mixed --smooth 1,2
poisson "fft 3D 256^3 periodic" --dim 3 --n 256 --solver fft --bc periodic
poisson "fft 3D 256^3 dirichlet" --dim 3 --n 256 --solver fft --bc dirichlet
poisson "fft 3D 128^3 neumann" --dim 3 --n 128 --solver fft --bc neumann
poisson "fft 2D 1024^2 neumann" --dim 2 --n 1024 --solver fft --bc neumann

note "== 3. bench step"
step() { # LABEL ARGS...
  local label=$1
  shift
  OMP_NUM_THREADS=$NT timeout 300 "$BIN/navier" bench step "$@" --set run.backend=cuda --steps 20 \
    >"$SCRATCH/step.txt" 2>&1
  cat "$SCRATCH/step.txt" >>"$OUT/bench.log"
  note "$label: $(grep -m1 '^step:' "$SCRATCH/step.txt" || tail -2 "$SCRATCH/step.txt")"
}
C3="--case cases/cavity3d_re1000.ini --set grid.nx=256 --set grid.ny=256 --set grid.nz=256 --set pressure.tolerance=1e-6"
step "cavity3d 256^3 auto" $C3 --set pressure.solver=auto
step "cavity3d 256^3 mg" $C3 --set pressure.solver=mg
step "cavity3d 256^3 mg, mixed V(1,2)" $C3 --set pressure.solver=mg --set pressure.precision=mixed --set pressure.pre_smooth=1
step "cavity3d 256^3 mg, mixed V(1,2), extrapolated guess" $C3 --set pressure.solver=mg --set pressure.precision=mixed \
  --set pressure.pre_smooth=1 --set pressure.initial_guess=extrapolated
for n in 128 256; do
  step "taylor_green3d $n^3 auto" --case cases/taylor_green3d.ini --set grid.nx=$n --set grid.ny=$n --set grid.nz=$n \
    --set physics.nu=1e-3 --set time.dt=0
done
step "cavity2d 1024^2 auto" --case cases/cavity2d_re100.ini --set grid.nx=1024 --set grid.ny=1024 \
  --set run.method=projection --set time.diffusion=explicit --set pressure.solver=auto \
  --set pressure.tolerance=1e-6

if [ "$(nvidia-smi -L 2>/dev/null | wc -l)" -ge 2 ]; then
  note "== 2 GPUs: the FFT solver over 2 ranks (transposes over NCCL) against 1 rank"
  for r in 1 2; do
    timeout 300 mpirun -n $r "$BIN/navier" bench poisson --dim 3 --n 128 --solver fft --backend cuda --bc neumann \
      --tol 1e-6 --repeat 3 --json --dump "$SCRATCH/fft_$r.bin" 2>&1 | tail -1 >>"$OUT/bench.log"
  done
  note "2 ranks vs 1: $(python3 -c 'import numpy as np,sys; a=np.fromfile(sys.argv[1]); b=np.fromfile(sys.argv[2]); print("max rel diff %.2e (<= 1e-12)" % (abs(a-b).max()/abs(a).max()))' "$SCRATCH/fft_1.bin" "$SCRATCH/fft_2.bin" 2>&1)"
  note "$(tail -2 "$OUT/bench.log" | python3 -c 'import json,sys; [print("ranks %d: solve %.2f ms" % (d["ranks"], 1e3*d["solve_s"])) for d in map(json.loads, sys.stdin)]' 2>&1 | tr '\n' ' ')"
fi

note "== 4. run --profile, 3D cavity 256^3, solver = auto"
profile() { # LABEL: device bytes per cell of 20 steps of the 3D cavity 256^3 by $BIN/navier, solver = auto
  OMP_NUM_THREADS=$NT timeout 300 "$BIN/navier" run cases/cavity3d_re1000.ini --set grid.nx=256 --set grid.ny=256 \
    --set grid.nz=256 --set run.backend=cuda --set time.max_steps=20 --set output.fields_every=0 \
    --set output.fields_dt=0 --profile --output "$SCRATCH/$1" >"$OUT/$1.log" 2>&1
  note "$1: exit $? | $(grep -iE 'bytes per cell|per cell' "$OUT/$1.log" | head -3 | tr '\n' ' ')"
}
profile profile

if [ -x "$BIN/single/navier" ]; then
  note "== 5. FP32 build ($BIN/single): bench poisson and bench step"
  SAVE=$BIN
  BIN=$BIN/single
  poisson "fp32 fft 3D 256^3 neumann" --dim 3 --n 256 --solver fft --bc neumann
  poisson "fp32 mg  3D 256^3 neumann" --dim 3 --n 256 --solver mg --bc neumann
  step "fp32 cavity3d 256^3 auto" $C3 --set pressure.solver=auto
  for n in 128 256; do
    step "fp32 taylor_green3d $n^3 auto" --case cases/taylor_green3d.ini --set grid.nx=$n --set grid.ny=$n \
      --set grid.nz=$n --set physics.nu=1e-3 --set time.dt=0
  done
  profile profile32
  if [ -x "$BIN/test_fft" ]; then # cuFFT against FFTW in FP32 (the single build's own tolerance)
    OMP_NUM_THREADS=$NT timeout 600 "$BIN/test_fft" backends >"$OUT/test_fft32.log" 2>&1
    note "fp32 test_fft backends: exit $? | $(grep -cE '^ok' "$OUT/test_fft32.log") ok, $(grep -cE '^FAIL' "$OUT/test_fft32.log") FAIL"
  fi
  if command -v nsys >/dev/null; then # per-kernel times of the FP32 TGV 256^3 step (docs/performance.md: bytes per kernel)
    timeout 300 nsys profile --stats=true --force-overwrite true -o "$SCRATCH/tgv32" "$BIN/navier" bench step \
      --case cases/taylor_green3d.ini --set grid.nx=256 --set grid.ny=256 --set grid.nz=256 --set physics.nu=1e-3 \
      --set time.dt=0 --set run.backend=cuda --steps 20 >"$OUT/nsys_tgv32.log" 2>&1
    note "fp32 nsys taylor_green3d 256^3: exit $? (kernel table in nsys_tgv32.log)"
    grep -A30 'cuda_gpu_kern_sum' "$OUT/nsys_tgv32.log" | head -32 | tee -a "$SUM"
  fi
  BIN=$SAVE
fi

if python3 -c 'import cupy' 2>/dev/null; then
  note "== 6. peers on the same GPU: CuPy (bench/gpu_peers.py)"
  timeout 240 python3 bench/gpu_peers.py 256 5 >"$OUT/peers.log" 2>&1
  note "gpu_peers: exit $?"
  grep -v '^{' "$OUT/peers.log" | tail -8 | tee -a "$SUM"
  python3 bench/peer_ratios.py "$OUT/bench.log" "$OUT/peers.log" | tee -a "$SUM"
fi
