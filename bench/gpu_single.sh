#!/usr/bin/env bash
# One-GPU check and benchmarks of the CUDA backend, in one call on a GPU machine:
#   1. gpu tests: every kernel against the CPU (test_kernels), 3D cavity 64^3 100 steps on both
#      backends (test_flow_backends), 4 ranks sharing the GPU (tests/gpu/test_gpu_ranks.sh share),
#      compute-sanitizer memcheck on a short 3D run;
#   2. navier bench poisson: 3D 256^3, all-Neumann, random zero-mean right-hand side, relative
#      residual 1e-6 (median of 5 solves after set-up), V(2,2) / V(1,1) / mgpcg;
#   3. navier bench step: 3D cavity 256^3 (ns per cell per step, each kernel's bandwidth against
#      the measured copy), smoothing V(2,2) (default), V(1,1), V(2,1);
#   4. navier run --profile: 3D cavity 256^3 (phases, device bytes per cell) and the largest
#      cavity asked for (LARGEST, default 768: 768^3, 5 steps) to check that it fits.
# usage: bench/gpu_single.sh [BIN_DIR]  (navier, test_kernels, test_flow_backends built for sm_90)
# Prints a short table last; logs under $OUT.
set -u
BIN=${1:-.carry}
OUT=${OUT:-/tmp/gpu_single}
SCRATCH=${SCRATCH:-/tmp/gpu_single_runs}
LARGEST=${LARGEST:-768}
mkdir -p "$OUT" "$SCRATCH"
export PATH=$PATH:/usr/local/cuda/bin OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
NT=$(nproc)
export OMP_NUM_THREADS=$NT
SUM=$OUT/summary.txt
: >"$SUM"
note() { echo "$*" | tee -a "$SUM"; }
NAV=$BIN/navier
CASE=cases/cavity3d_re1000.ini
g() { echo --set grid.nx=$1 --set grid.ny=$1 --set grid.nz=$1; }

note "== device: $(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader)"
note "host: $NT cores; commit: $("$NAV" --version | head -1)"

note "== 1. gpu tests"
timeout 300 "$BIN/test_kernels" >"$OUT/tests.log" 2>&1
note "test_kernels: exit $? | $(grep -E 'checks|FAIL' "$OUT/tests.log" | tail -2 | tr '\n' ' ')"
timeout 300 "$BIN/test_flow_backends" $CASE grid.nx=64 grid.ny=64 grid.nz=64 time.max_steps=100 >>"$OUT/tests.log" 2>&1
note "test_flow_backends 64^3 100 steps: exit $? | $(tail -6 "$OUT/tests.log" | tr '\n' ' ')"
bash tests/gpu/test_gpu_ranks.sh mpirun "$NAV" python3 tests/mpi/mpi_compare.py "$SCRATCH/share" 0 $CASE share \
  $(g 32) --set time.max_steps=20 >>"$OUT/tests.log" 2>&1
note "4 ranks on 1 GPU: exit $? | $(tail -1 "$OUT/tests.log")"
timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 "$NAV" run $CASE $(g 16) \
  --set time.max_steps=5 --set run.backend=cuda --output "$SCRATCH/san" >"$OUT/sanitizer.log" 2>&1
note "compute-sanitizer memcheck 16^3 5 steps: exit $? | $(grep 'ERROR SUMMARY' "$OUT/sanitizer.log")"

note "== 2. bench poisson 3D 256^3 neumann tol 1e-6 (median of 5 solves)"
for v in "mg 2,2" "mg 1,1" "mg 2,1" "mgpcg 2,2" "mgpcg 1,1"; do
  set -- $v
  r=$(timeout 300 "$NAV" bench poisson --dim 3 --n 256 --solver $1 --smooth $2 --tol 1e-6 --bc neumann \
    --backend cuda --repeat 5 --json 2>&1 | tail -1)
  echo "$r" >>"$OUT/poisson.log"
  note "$1 V($2): $(echo "$r" | python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); print("solve %.2f ms, %d it, relres %.2e, %.2f G unknowns/s, setup %.2f s" % (1e3*d["solve_s"], d["iterations"], d["relres"], d["unknowns_per_s"]/1e9, d["setup_s"]))' 2>/dev/null || echo "$r")"
done

note "== 3. bench step 3D cavity 256^3 (20 steps after 3 warm-up)"
for sm in "2 2" "1 1" "2 1"; do
  set -- $sm
  timeout 300 "$NAV" bench step --case $CASE $(g 256) --set run.backend=cuda --set pressure.pre_smooth=$1 \
    --set pressure.post_smooth=$2 --steps 20 >"$SCRATCH/bs.txt" 2>&1
  cat "$SCRATCH/bs.txt" >>"$OUT/bench_step.log"
  note "V($1,$2): $(grep '^step:' "$SCRATCH/bs.txt" || tail -3 "$SCRATCH/bs.txt")"
done
grep -m1 -A12 "^copy" "$OUT/bench_step.log" | tee -a "$SUM"

note "== 4. run --profile"
for n in 256 $LARGEST; do
  steps=30
  [ $n -gt 256 ] && steps=5
  timeout 400 "$NAV" run $CASE $(g $n) --set time.max_steps=$steps --set run.backend=cuda --profile \
    --output "$SCRATCH/prof$n" >"$OUT/profile_$n.log" 2>&1
  note "${n}^3, $steps steps: exit $? | $(grep -E '^(memory|completed|failed)' "$OUT/profile_$n.log" | tr '\n' ' ')"
  grep -A8 "^profile" "$OUT/profile_$n.log" | tee -a "$SUM"
done
nvidia-smi --query-gpu=memory.total --format=csv,noheader | tee -a "$SUM"
