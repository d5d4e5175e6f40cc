#!/usr/bin/env bash
# Which multigrid levels should run on the CPU ([pressure] cpu_coarse_cells)? Times a full step of
# the 3D cavity (navier bench step: Poisson to 1e-6, warm-started) and one Poisson solve from zero
# (navier bench poisson, 3D all-Neumann, 1e-6, median of 3) for each threshold of CELLS
# (0 = the automatic rule), on 1 GPU (256^3) and on 2 GPUs (512x256x256, nccl, split in z).
# Also OMP threads per rank (THREADS) for the CPU levels.
# usage: bench/gpu_coarse_threshold.sh BIN_DIR       prints a table last; logs under $OUT
set -u
BIN=${1:-.carry}
OUT=${OUT:-/tmp/gpu_threshold}
CELLS=${CELLS:-0 512 4096 32768 262144}
THREADS=${THREADS:-8}
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0 OMP_NUM_THREADS=$THREADS
if ! ldconfig -p | grep -q libnccl.so.2 && [ -z "${NAV_NCCL_LIBRARY:-}" ]; then
  lib=$(find / -name 'libnccl.so.2' -not -path '/proc/*' 2>/dev/null | head -1)
  [ -n "$lib" ] && export NAV_NCCL_LIBRARY=$lib
fi
NAV=$BIN/navier
gpus=$(nvidia-smi -L | grep -c '^GPU')
field() { python3 -c "import json,sys; print(json.loads(sys.stdin.read().strip().splitlines()[-1])[sys.argv[1]])" "$1" 2>/dev/null || echo nan; }
ROWS=$OUT/threshold.txt
printf '%-12s %16s %16s %16s %16s\n' cpu_cells "step 1 GPU ms" "step 2 GPUs ms" "poisson 1 GPU ms" "poisson 2 GPUs ms" >"$ROWS"
for c in $CELLS; do
  s1=$(timeout 200 "$NAV" bench step --case cases/cavity3d_re1000.ini --set grid.nx=256 --set grid.ny=256 \
    --set grid.nz=256 --set run.backend=cuda --set pressure.cpu_coarse_cells=$c --steps 20 --json 2>>"$OUT/threshold.log" | field step_s)
  p1=$(timeout 200 "$NAV" bench poisson --dim 3 --n 256 --backend cuda --tol 1e-6 --repeat 3 --cpu-cells $c --json \
    2>>"$OUT/threshold.log" | field solve_s)
  s2=nan p2=nan
  if [ "$gpus" -ge 2 ]; then
    s2=$(timeout 200 mpirun -n 2 --oversubscribe "$NAV" bench step --case cases/cavity3d_re1000.ini --set grid.nx=256 \
      --set grid.ny=256 --set grid.nz=512 --set run.backend=cuda --set run.decomposition=1,1,2 \
      --set run.halo_transport=nccl --set pressure.cpu_coarse_cells=$c --steps 20 --json 2>>"$OUT/threshold.log" | field step_s)
    p2=$(timeout 200 mpirun -n 2 --oversubscribe "$NAV" bench poisson --dim 3 --n 256 --grid 256,256,512 \
      --decomposition 1,1,2 --backend cuda --tol 1e-6 --repeat 3 --cpu-cells $c --json 2>>"$OUT/threshold.log" | field solve_s)
  fi
  python3 -c "import sys; f=lambda v: '%16.2f' % (1e3*float(v)) if v != 'nan' else '%16s' % 'failed'; print('%-12s' % sys.argv[1] + ''.join(f(v) for v in sys.argv[2:]))" \
    "$c" "$s1" "$s2" "$p1" "$p2" | tee -a "$ROWS"
done
cat "$ROWS"
