#!/usr/bin/env bash
# The multigrid's whole-sweep kernel (ops->relax_sweep, issue 18) against the colour kernels, one binary, one GPU:
#   1. checks: tests/test_kernels of the carried tree (the sweep against the CPU's colour sweeps and the CUDA float
#      colour kernels) and, with FULL=1, every single-GPU ctest of the gpu label (source bench/gpu_env.sh first);
#   2. ROUNDS rounds of NAV_MG_WAVEFRONT=0 then 1: `navier bench poisson` 3D 256^3 all-Neumann to 1e-6 (mg mixed
#      V(1,2), mg V(2,2) double) and `navier bench step` of the 3D cavity 256^3 with solver = mg (mixed V(1,2);
#      V(2,2) double);
#   3. with ncu: time, DRAM throughput and bytes, warp instructions of the sweeps and fills of one mixed solve, both ways.
# Prints one line per measurement; logs under $OUT. BASE=path/to/navier adds a third variant, that binary (an A/B
# across commits, interleaved in the same rounds).
#
# usage (repository root on the device, after bench/gpu_carry.sh here): bash bench/gpu_wavefront.sh [BUILD_TREE]
set -u
TREE=${1:-.carry/bg}
B=$TREE/navier NT=$(nproc) ROUNDS=${ROUNDS:-2}
OUT=${OUT:-/tmp/gpu_wavefront}
mkdir -p "$OUT"
. "$(dirname "$0")/gpu_checks.sh"
gpu_checks "$TREE" relax_sweep
P="bench poisson --dim 3 --n 256 --bc neumann --tol 1e-6 --backend cuda --repeat 5 --json"
C3="--case cases/cavity3d_re1000.ini --set grid.nx=256 --set grid.ny=256 --set grid.nz=256"
C3="$C3 --set pressure.tolerance=1e-6 --set run.backend=cuda --steps 20 --set pressure.solver=mg"
pj() { python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); print("%.3f ms %d it relres %.2e" % (1e3*d["solve_s"], d["iterations"], d["relres"]))' 2>/dev/null || echo FAILED; }
# the variants: "wf=0" and "wf=1" of $B, and with BASE=path/to/navier (another build, e.g. the commit before a
# change to the sweep) "base", that binary with its default switches
run() { # run VARIANT ARGS...: the binary of VARIANT with its switch
  case $1 in
  base) shift; "$BASE" "$@" ;;
  wf=*) local w=${1#wf=}; shift; NAV_MG_WAVEFRONT=$w $B "$@" ;;
  esac
}
VARIANTS="wf=0 wf=1${BASE:+ base}"
for r in $(seq "$ROUNDS"); do
  for v in $VARIANTS; do
    echo "$v poisson_mixed_V12 $(run $v $P --solver mg --precision mixed --smooth 1,2 2>&1 | tail -1 | pj)"
    echo "$v poisson_V22 $(run $v $P --solver mg 2>&1 | tail -1 | pj)"
    echo "$v step_mg_mixed_V12 $(OMP_NUM_THREADS=$NT run $v bench step $C3 \
      --set pressure.precision=mixed --set pressure.pre_smooth=1 2>&1 | grep -m1 '^step:')"
    echo "$v step_mg_V22 $(OMP_NUM_THREADS=$NT run $v bench step $C3 2>&1 | grep -m1 '^step:')"
  done
done
if command -v ncu >/dev/null; then
  M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes.sum,smsp__inst_executed.sum
  for w in 0 1; do
    NAV_MG_WAVEFRONT=$w timeout 120 ncu --clock-control none --metrics $M --csv --print-units base -c 40 \
      -k regex:"relax|fill_ghosts" $B $P --solver mg --precision mixed --smooth 1,2 --repeat 1 >"$OUT/ncu$w.csv" \
      2>"$OUT/ncu$w.err"
    python3 bench/ncu_table.py "$OUT/ncu$w.csv" --prefix "wf=$w "
  done
fi
