#!/usr/bin/env bash
# A/B of two builds on one GPU, interleaved in one call (issue 18: the multigrid and the FP32 step):
#   1. checks of build B: test_kernels (CUDA against CPU, every kernel-table entry) and the ctest tests
#      gpu_mixed_precision_mg, gpu_mg_graphs, gpu_cavity3d_64 of its tree (source bench/gpu_env.sh first);
#   2. ROUNDS rounds of A then B: `navier bench poisson` 3D 256^3 all-Neumann to 1e-6 (mg mixed V(1,2), mg
#      V(2,2)) and `navier bench step` of the 3D cavity 256^3 (mg mixed V(1,2); auto in FP64 and FP32), each
#      the median of its own repeats; then B's poisson with NAV_UNIFORM_METRICS=0 (the metric arrays loaded
#      as before: what the uniform-direction constants save);
#   3. with ncu: time, DRAM and SM throughput and instructions of B's first multigrid kernels (one solve).
# Prints one line per measurement and a table of the best of the rounds last; logs under $OUT.
#
# usage: bench/gpu_ab.sh A64 A32 B64 B32 [BUILD_TREE]   (navier binaries: A the baseline, B the change)
set -u
A64=$1 A32=$2 B64=$3 B32=$4 TREE=${5:-build-gpu}
ROUNDS=${ROUNDS:-2}
OUT=${OUT:-/tmp/gpu_ab}
S=${SCRATCH:-/tmp/gpu_ab_runs}
mkdir -p "$OUT" "$S"
NT=$(nproc)
SUM=$OUT/summary.txt
: >"$SUM"
note() { echo "$*" | tee -a "$SUM"; }
export PATH=$PATH:/usr/local/cuda/bin:/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64
note "== $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); B = $(cat .carry/bg/.commit 2>/dev/null)"

note "== 1. checks of B"
timeout 300 "$TREE/tests/test_kernels" >"$OUT/test_kernels.log" 2>&1
note "test_kernels: exit $? | $(tail -1 "$OUT/test_kernels.log")"
(cd "$TREE" && timeout 400 ctest -R '^(gpu_mixed_precision_mg|gpu_mg_graphs|gpu_cavity3d_64)$' --output-on-failure \
  >"$OUT/ctest.log" 2>&1)
note "ctest: $(grep -E 'tests passed|tests failed' "$OUT/ctest.log")"

poisson() { # LABEL BIN ARGS... -> "LABEL ms"
  local label=$1 bin=$2
  shift 2
  local r
  r=$(timeout 300 "$bin" bench poisson --dim 3 --n 256 --bc neumann --tol 1e-6 --backend cuda --repeat 5 --json \
    "$@" 2>&1 | tail -1)
  echo "$label $r" >>"$OUT/bench.log"
  note "$label $(echo "$r" | python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); print("%.3f ms %d it relres %.2e" % (1e3*d["solve_s"], d["iterations"], d["relres"]))' 2>/dev/null || echo "FAILED $r")"
}
step() { # LABEL BIN ARGS...
  local label=$1 bin=$2
  shift 2
  OMP_NUM_THREADS=$NT timeout 300 "$bin" bench step --case cases/cavity3d_re1000.ini --set grid.nx=256 \
    --set grid.ny=256 --set grid.nz=256 --set pressure.tolerance=1e-6 --set run.backend=cuda --steps 20 "$@" \
    >"$S/step.txt" 2>&1
  cat "$S/step.txt" >>"$OUT/bench.log"
  note "$label $(grep -m1 '^step:' "$S/step.txt" | sed 's/^step: *//' || echo FAILED)"
}
MIX="--solver mg --precision mixed --smooth 1,2"
SMIX="--set pressure.solver=mg --set pressure.precision=mixed --set pressure.pre_smooth=1"
note "== 2. rounds"
for r in $(seq "$ROUNDS"); do
  for v in A B; do
    b64=$A64 b32=$A32
    [ $v = B ] && b64=$B64 b32=$B32
    poisson "$v poisson_mg_mixed_V12" "$b64" $MIX
    poisson "$v poisson_mg_V22" "$b64" --solver mg
    step "$v step_mg_mixed_V12" "$b64" $SMIX
    step "$v step_auto_fp64" "$b64" --set pressure.solver=auto
    step "$v step_auto_fp32" "$b32" --set pressure.solver=auto
  done
  NAV_UNIFORM_METRICS=0 poisson "B0 poisson_mg_mixed_V12" "$B64" $MIX
done

if command -v ncu >/dev/null; then
  note "== 3. ncu (clocks free): B's first 40 multigrid kernels of one mixed V(1,2) solve"
  M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum
  timeout 250 ncu --clock-control none --metrics $M --csv --print-units base -c 40 \
    -k regex:"restrict|prolong|relax_first|residual_kernel|fill_ghosts|relax_colour|add_lo" "$B64" bench poisson --dim 3 \
    --n 256 --bc neumann --tol 1e-6 --backend cuda --repeat 1 --json $MIX >"$OUT/ncu.csv" 2>"$OUT/ncu.err"
  python3 bench/ncu_table.py "$OUT/ncu.csv" --first 16 | tee -a "$SUM"
fi

note "== best of the rounds (ms)"
python3 - "$SUM" <<'EOF' | tee -a "$SUM"
import re, sys, collections
best = collections.defaultdict(lambda: float("inf"))
for line in open(sys.argv[1]):
    m = re.match(r"^(A|B0|B) (\S+) ([0-9.]+) ms", line)
    if m:
        best[(m.group(1), m.group(2))] = min(best[(m.group(1), m.group(2))], float(m.group(3)))
for key in sorted({k for _, k in best}):
    a, b, b0 = best[("A", key)], best[("B", key)], best[("B0", key)]
    print("%-24s A %8.3f  B %8.3f  B/A %.3f%s" % (key, a, b, b / a, "  B(uniform off) %.3f" % b0 if b0 < float("inf") else ""))
EOF
