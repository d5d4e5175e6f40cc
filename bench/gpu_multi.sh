#!/usr/bin/env bash
# Multi-GPU check of the CUDA backend, in one call on a machine with 2 GPUs (nvidia-h200-x2):
#   1. gpu tests: test_kernels, test_flow_backends 64^3; each halo transport on 2 GPUs against 1
#      GPU (tests/gpu/test_gpu_ranks.sh); halo_overlap on = off bit for bit on 2 GPUs
#      (tests/mpi/test_overlap.sh) with nccl and mpi;
#   2. one GPU, before and after a change: BASE_BIN/navier against BIN/navier, bench step of the 3D
#      cavity 256^3 and of the default 2D cavity 128^2 (skipped without BASE_BIN);
#   3. weak and strong scaling over 1 and 2 GPUs (bench/gpu_scaling.sh), the weak cases with
#      halo_overlap off and on.
# usage: bench/gpu_multi.sh [BIN_DIR] [BASE_BIN_DIR]   (binaries built for sm_90, from the repository root)
set -u
BIN=${1:-.carry}
BASE=${2:-}
OUT=${OUT:-/tmp/gpu_multi}
SCRATCH=${SCRATCH:-/tmp/gpu_multi_runs}
mkdir -p "$OUT" "$SCRATCH"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0 OMP_NUM_THREADS=${OMP_NUM_THREADS:-4}
if ! ldconfig -p | grep -q libnccl.so.2; then
  lib=$(find / -name 'libnccl.so.2' -not -path '/proc/*' 2>/dev/null | head -1)
  [ -n "$lib" ] && export NAV_NCCL_LIBRARY=$lib
fi
SUM=$OUT/summary.txt
: >"$SUM"
note() { echo "$*" | tee -a "$SUM"; }
note "== device: $(nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c | xargs); $(nproc) cores"
note "$("$BIN/navier" --version | head -1); nccl: ${NAV_NCCL_LIBRARY:-loader path}; $(mpirun --version | head -1)"
nvidia-smi topo -m >"$OUT/topo.txt" 2>&1
NAV=$BIN/navier
CASE=cases/cavity3d_re1000.ini
g() { echo --set grid.nx=$1 --set grid.ny=$2 --set grid.nz=$3; }

note "== 1. gpu tests"
timeout 300 "$BIN/test_kernels" >"$OUT/tests.log" 2>&1
note "test_kernels: exit $? | $(grep -E 'checks' "$OUT/tests.log" | tail -1)"
timeout 300 "$BIN/test_flow_backends" $CASE grid.nx=64 grid.ny=64 grid.nz=64 time.max_steps=100 >>"$OUT/tests.log" 2>&1
note "test_flow_backends 64^3: exit $? | $(tail -1 "$OUT/tests.log")"
timeout 300 "$BIN/test_flow_backends" cases/natconv2d_ra1e4.ini grid.nx=128 grid.ny=128 time.max_steps=300 \
  >"$SCRATCH/nc.log" 2>&1
note "test_flow_backends natconv2d Ra 1e4 128^2 300 steps: exit $? | $(grep -E 'T:|passed|FAIL' "$SCRATCH/nc.log" | tr '\n' ' ')"
timeout 300 "$BIN/test_flow_backends" cases/bdc3d_ra1e5.ini grid.nx=48 grid.ny=48 grid.nz=48 time.max_steps=100 \
  >"$SCRATCH/bdc.log" 2>&1
note "test_flow_backends bdc3d Ra 1e5 48^3 100 steps: exit $? | $(grep -E 'T:|passed|FAIL' "$SCRATCH/bdc.log" | tr '\n' ' ')"
cat "$SCRATCH/nc.log" "$SCRATCH/bdc.log" >>"$OUT/tests.log"
bash tests/gpu/test_gpu_ranks.sh mpirun "$NAV" python3 tests/mpi/mpi_compare.py "$SCRATCH/t_nc" 1e-10 \
  cases/natconv2d_ra1e4.ini transport nccl --set grid.nx=128 --set grid.ny=128 --set time.max_steps=100 \
  --set pressure.tolerance=1e-12 >"$SCRATCH/t_nc.log" 2>&1
note "natconv2d 2 GPUs vs 1 (nccl): exit $? | $(grep -E 'ranks \(|SKIP|FAIL|pass' "$SCRATCH/t_nc.log" | tail -3 | tr '\n' ' ')"
cat "$SCRATCH/t_nc.log" >>"$OUT/tests.log"
for t in mpi cuda-aware nccl; do
  bash tests/gpu/test_gpu_ranks.sh mpirun "$NAV" python3 tests/mpi/mpi_compare.py "$SCRATCH/t_$t" 1e-10 $CASE \
    transport $t $(g 64 64 64) --set time.max_steps=50 --set pressure.tolerance=1e-12 >"$SCRATCH/t_$t.log" 2>&1
  note "2 GPUs vs 1, transport $t: exit $? | $(grep -E 'ranks|SKIP|FAIL|pass' "$SCRATCH/t_$t.log" | tail -4 | tr '\n' ' ')"
  cat "$SCRATCH/t_$t.log" >>"$OUT/tests.log"
done
for r in 1 2; do # restart on the GPUs: N steps against N/2 + checkpoint + N/2, bit for bit
  python3 tests/io/io_check.py mpirun "$NAV" "$SCRATCH/rs_$r" restart $r $r cases/natconv2d_ra1e4.ini 40 \
    --set grid.nx=64 --set grid.ny=64 --set run.backend=cuda >"$SCRATCH/rs_$r.log" 2>&1
  note "restart bit for bit, natconv2d 64^2, $r rank(s) on $r GPU(s): exit $? | $(grep -E 'identical|PASS|FAIL' "$SCRATCH/rs_$r.log" | tr '\n' ' ')"
  cat "$SCRATCH/rs_$r.log" >>"$OUT/tests.log"
done
for t in nccl mpi; do
  bash tests/mpi/test_overlap.sh mpirun "$NAV" "$SCRATCH/ov_$t" $CASE 1,1,2 2,1,1 -- $(g 64 64 64) \
    --set time.max_steps=20 --set run.backend=cuda --set run.halo_transport=$t >"$SCRATCH/ov_$t.log" 2>&1
  note "overlap on = off on 2 GPUs, $t: exit $? | $(tr '\n' ' ' <"$SCRATCH/ov_$t.log")"
done

if [ -n "$BASE" ]; then
  note "== 2. one GPU: before ($BASE) and after ($BIN)"
  for b in "$BASE" "$BIN"; do
    timeout 200 "$b/navier" bench step --case $CASE $(g 256 256 256) --set run.backend=cuda --steps 20 \
      >"$SCRATCH/ab.txt" 2>&1
    cat "$SCRATCH/ab.txt" >>"$OUT/ab.log"
    note "$b 3D 256^3: $(grep '^step:' "$SCRATCH/ab.txt" || tail -2 "$SCRATCH/ab.txt")"
    timeout 200 "$b/navier" bench step --case cases/cavity2d_re100.ini --set run.backend=cuda --steps 400 \
      >"$SCRATCH/ab.txt" 2>&1
    cat "$SCRATCH/ab.txt" >>"$OUT/ab.log"
    note "$b 2D 128^2: $(grep '^step:' "$SCRATCH/ab.txt" || tail -2 "$SCRATCH/ab.txt")"
  done
  grep -A12 "^copy" "$OUT/ab.log" | tail -12 | tee -a "$SUM"
fi

note "== 3. scaling over 1 and 2 GPUs"
OUT=$OUT OVERLAPS="${OVERLAPS:-off on}" STRONG_DECOMPS=z bash bench/gpu_scaling.sh "$BIN" 1 2 2>&1 | tee -a "$SUM"
