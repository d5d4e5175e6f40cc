#!/usr/bin/env bash
# The FFT solver on slabs (issue 16; fft.c "slabs") on 2 GPUs: the Poisson solve alone through the library
# (navier bench poisson, 256^3 per GPU, all-Neumann) on 1 GPU and on 2 with the lines' chunks of ROWS rows
# (NAV_FFT_SLAB_ROWS), the slabs on one GPU against the box (NAV_FFT_SLABS=1), and, where ncu reads the
# counters, the duration of each kernel of the one-GPU slab solve; then the 2-GPU weak cavity step with
# [run] halo_overlap off and on (it acts on the multigrid only: a check that the FFT step does not change),
# and the step's phases on 1 and 2 GPUs (navier run --profile). Output: $OUT/slabs.txt and the logs.
# usage (repository root on the device, after source bench/gpu_env.sh): bash bench/gpu_slabs.sh [ROWS...]
set -u
BIN=.carry/bg
OUT=${OUT:-/tmp/gpu_slabs}
mkdir -p "$OUT"
SUM=$OUT/slabs.txt
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-8}
api() { # LABEL RANKS GRID [ENV...]
  local label=$1 r=$2 g=$3
  shift 3
  env "$@" timeout 120 mpiexec -n "$r" --bind-to none $BIN/navier bench poisson --dim 3 --grid "$g" --bc neumann \
    --solver fft --tol 1e-6 --backend cuda --repeat 9 --json >"$OUT/api_$label.log" 2>&1
  echo "$label: exit $? | $(tail -1 "$OUT/api_$label.log" | /usr/bin/python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); print("solve %.3f ms, relres %.2e" % (1e3 * d["solve_s"], d["relres"]))' 2>&1)" | tee -a "$SUM"
}
api fft_1gpu 1 256,256,256
api fft_1gpu_slabs 1 256,256,256 NAV_FFT_SLABS=1
for R in ${@:-16 32 64}; do api "fft_2gpu_rows$R" 2 256,256,512 NAV_FFT_SLAB_ROWS=$R; done
if command -v ncu >/dev/null; then # one process: the slab kernels of the one-GPU slab solve
  NAV_FFT_SLABS=1 timeout 120 ncu --clock-control none --kernel-name regex:"slab|box_copy|regular|vector" \
    --launch-skip 12 --launch-count 12 $BIN/navier bench poisson --dim 3 --grid 256,256,256 --bc neumann --solver fft \
    --tol 1e-6 --backend cuda --repeat 3 >"$OUT/ncu.log" 2>&1
  echo "ncu: exit $?" | tee -a "$SUM"
  grep -E "^  [a-zA-Z_].*\(|Duration|DRAM Throughput" "$OUT/ncu.log" | head -48 | cut -c1-110 >>"$SUM"
fi
# the 2-GPU weak step with the halo exchanges overlapped ([run] halo_overlap = on) and without
for ov in off on; do
  timeout 120 mpiexec -n 2 --bind-to none $BIN/navier bench step --case cases/cavity3d_re1000.ini --set run.backend=cuda \
    --set grid.nx=256 --set grid.ny=256 --set grid.nz=512 --set run.decomposition=1,1,2 --set run.halo_overlap=$ov \
    --steps 20 >"$OUT/step_overlap_$ov.log" 2>&1
  echo "weak 2 GPUs, halo_overlap $ov: exit $? | $(grep '^step:' "$OUT/step_overlap_$ov.log")" | tee -a "$SUM"
done
# where the 2-GPU cavity step's time goes (navier run --profile: phases; 256^3 per GPU, split along z)
for r in 1 2; do
  timeout 120 mpiexec -n $r --bind-to none $BIN/navier run cases/cavity3d_re1000.ini --set run.backend=cuda \
    --set grid.nx=256 --set grid.ny=256 --set grid.nz=$((256 * r)) --set run.decomposition=1,1,$r \
    --set time.max_steps=40 --set output.fields_dt=0 --set output.checkpoint_dt=0 --set output.monitor_every=1000 \
    --output "$OUT/prof$r" --profile >"$OUT/profile_$r.log" 2>&1
  echo "profile, $r GPU(s): exit $?" | tee -a "$SUM"
  grep -A8 "^profile" "$OUT/profile_$r.log" | tee -a "$SUM"
done
