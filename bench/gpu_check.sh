#!/usr/bin/env bash
# One-GPU check of the CUDA backend, in one call on a GPU machine:
#   1. the gpu tests: every kernel against the CPU backend (test_kernels), a 3D cavity 64^3, 100
#      steps, on both backends (test_flow_backends), 4 ranks sharing the GPU (one computes);
#   2. compute-sanitizer memcheck on a short 3D run and on test_kernels;
#   3. timings, cpu (OpenMP, all cores) against cuda: the default 2D cavity (128^2) for 2000
#      steps and the 3D cavity at 128^3 and 256^3 for 50 steps. Each case runs twice, with S0 and
#      S0 + N steps, and the time per step is the difference over N, so set-up (grid, multigrid
#      levels, initial field, CUDA module loading) is left out;
#   4. Nsight Compute on the main kernels of the 256^3 cuda run: time, DRAM bytes and bandwidth
#      of the finest-level launch of each (--clock-control none: the clocks as found);
#   5. navier bench poisson 3D 256^3 (all-Neumann, random zero-mean right-hand side, 1e-6, median
#      of 5 solves) with V(2,2), V(1,1), V(2,1) and mgpcg; navier bench step of the 3D cavity
#      256^3 (ns per cell per step, each kernel against the measured copy bandwidth);
#   6. navier run --profile of the 3D cavity at 256^3 and at LARGEST^3 (default 768, 5 steps):
#      phases and device bytes per cell; the largest shows that it fits.
# Prints a short table last; logs go under $OUT (at most 8 files).
#
# usage: bench/gpu_check.sh [BIN_DIR]     BIN_DIR holds navier, test_kernels, test_flow_backends
#        (built elsewhere with -DCMAKE_BUILD_TYPE=Release, CUDA architecture sm_90); run from the
#        repository root (the cases are read from cases/).
set -u
BIN=${1:-.carry}
OUT=${OUT:-/tmp/gpu_check}
SCRATCH=${SCRATCH:-/tmp/gpu_check_runs}
mkdir -p "$OUT" "$SCRATCH"
export PATH=$PATH:/usr/local/cuda/bin
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
NT=$(nproc)
SUM=$OUT/summary.txt
: >"$SUM"
note() { echo "$*" | tee -a "$SUM"; }

note "== device"
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee -a "$SUM"
note "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
note "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (modified)')"
"$BIN/navier" --version | head -3 | tee -a "$SUM"

note "== 1. gpu tests"
OMP_NUM_THREADS=$NT timeout 300 "$BIN/test_kernels" >"$OUT/test_kernels.log" 2>&1
rc_k=$?
grep -E "FAIL|checks failed" "$OUT/test_kernels.log" | tail -20 | tee -a "$SUM"
note "largest relative difference: $(grep -o 'rel diff [^ ]*' "$OUT/test_kernels.log" | awk '{print $3}' | sort -g | tail -1)"
note "test_kernels: exit $rc_k"
OMP_NUM_THREADS=$NT timeout 600 "$BIN/test_flow_backends" cases/cavity3d_re1000.ini grid.nx=64 grid.ny=64 grid.nz=64 \
  time.max_steps=100 >"$OUT/test_flow.log" 2>&1
rc_f=$?
tee -a "$SUM" <"$OUT/test_flow.log"
note "test_flow_backends: exit $rc_f"
bash tests/gpu/test_gpu_ranks.sh mpirun "$BIN/navier" python3 tests/mpi/mpi_compare.py "$SCRATCH/share" 0 \
  cases/cavity3d_re1000.ini share --set grid.nx=32 --set grid.ny=32 --set grid.nz=32 --set time.max_steps=20 \
  >"$SCRATCH/share.log" 2>&1
rc_r=$?
note "4 ranks on 1 GPU: exit $rc_r | $(tail -1 "$SCRATCH/share.log")"

note "== 2. compute-sanitizer memcheck"
SAN="compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20"
timeout 300 $SAN "$BIN/navier" run cases/cavity3d_re1000.ini --set grid.nx=16 --set grid.ny=16 --set grid.nz=16 \
  --set time.max_steps=5 --set run.backend=cuda --output "$SCRATCH/sanitizer" >"$OUT/sanitizer.log" 2>&1
rc_s=$?
OMP_NUM_THREADS=$NT timeout 300 $SAN "$BIN/test_kernels" >>"$OUT/sanitizer.log" 2>&1
rc_s2=$?
grep -E "ERROR SUMMARY|completed:|checks failed" "$OUT/sanitizer.log" | tee -a "$SUM"
note "sanitizer: navier run exit $rc_s, test_kernels exit $rc_s2"

note "== 3. timings (OMP_NUM_THREADS=$NT for cpu)"
# run_case LABEL BACKEND STEPS CASE-ARGS... -> prints "wall_s steps p_iterations_note"
run_one() {
  local dir=$1 backend=$2 steps=$3
  shift 3
  OMP_NUM_THREADS=$NT timeout 300 "$BIN/navier" run "$@" --set run.backend="$backend" --set time.max_steps="$steps" \
    --set output.fields_dt=0 --set output.fields_every=0 --output "$dir" >>"$OUT/bench.log" 2>&1
  python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print(s['wall_s'], s['steps'], s['status'])" \
    "$dir/summary.json" 2>/dev/null || echo "nan 0 failed"
}
ROWS=$SCRATCH/rows.txt
: >"$ROWS"
bench() { # LABEL S0 N_CPU N_CUDA CASE-ARGS...
  local label=$1 s0=$2 ncpu=$3 ncuda=$4 n
  shift 4
  local line="$label"
  for backend in cpu cuda; do
    n=$ncpu
    [ $backend = cuda ] && n=$ncuda
    read -r w0 k0 st0 < <(run_one "$SCRATCH/$label-$backend-a" "$backend" "$s0" "$@")
    read -r w1 k1 st1 < <(run_one "$SCRATCH/$label-$backend-b" "$backend" $((s0 + n)) "$@")
    echo "$label $backend: $k0 steps $w0 s, $k1 steps $w1 s ($st0, $st1)" >>"$OUT/bench.log"
    line="$line $w0 $k0 $w1 $k1"
  done
  echo "$line" >>"$ROWS"
}
if [ "${QUICK:-0}" = 1 ]; then # a check of this script on a small machine
  bench "2D-cavity-128^2" 10 20 20
  bench "3D-cavity-16^3" 2 3 3 cases/cavity3d_re1000.ini --set grid.nx=16 --set grid.ny=16 --set grid.nz=16
else
  bench "2D-cavity-128^2" 100 2000 2000 # the default case
  bench "3D-cavity-128^3" 2 50 50 cases/cavity3d_re1000.ini --set grid.nx=128 --set grid.ny=128 --set grid.nz=128
  bench "3D-cavity-256^3" 2 50 50 cases/cavity3d_re1000.ini --set grid.nx=256 --set grid.ny=256 --set grid.nz=256
fi

note "== 4. ncu: finest-level launch of each main kernel (256^3 cuda run, 3 steps)"
if [ "${QUICK:-0}" != 1 ] && command -v ncu >/dev/null; then
  timeout 300 ncu --clock-control none --csv --launch-skip 0 --launch-count 250 \
    -k 'regex:nav_(momentum_rhs|advance|divergence|correct|relax_colour|residual|restrict_residual|prolong_add)_kernel' \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
    "$BIN/navier" run cases/cavity3d_re1000.ini --set grid.nx=256 --set grid.ny=256 --set grid.nz=256 \
    --set time.max_steps=3 --set run.backend=cuda --set output.fields_dt=0 --output "$SCRATCH/ncu" >"$OUT/ncu.log" 2>&1
  note "ncu exit $?"
  python3 - "$OUT/ncu.log" <<'EOF2' | tee -a "$SUM"
import csv, sys, re
rows = [r for r in csv.reader(open(sys.argv[1], errors="replace")) if len(r) > 10]
start = [i for i, r in enumerate(rows) if r[0] == "ID"]
if not start:
    sys.exit(0)
rows = rows[start[0]:]
head = rows[0]
col = {k: i for i, k in enumerate(head)}
launch = {}
for r in rows[1:]:
    try:
        key = r[col["ID"]]
        name = re.sub(r"[<(].*", "", r[col["Kernel Name"]])
        tpl = re.search(r"<[^>]*>", r[col["Kernel Name"]])
        d = launch.setdefault(key, {"name": name + (tpl.group(0) if tpl else ""), "grid": r[col["Grid Size"]]})
        unit, val = r[col["Metric Unit"]], float(r[col["Metric Value"]].replace(",", ""))
        scale = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "nsecond": 1e-9, "ns": 1e-9, "usecond": 1e-6, "us": 1e-6, "msecond": 1e-3, "ms": 1e-3, "B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9}.get(unit, 1)
        d[r[col["Metric Name"]]] = val * scale
    except (KeyError, ValueError):
        continue
best = {}
for d in launch.values():
    b = d.get("dram__bytes_read.sum", 0) + d.get("dram__bytes_write.sum", 0)
    d["bytes"] = b
    if d["name"] not in best or b > best[d["name"]]["bytes"]:
        best[d["name"]] = d
print(f"{'kernel':40s} {'grid':>14s} {'us':>9s} {'MB':>9s} {'GB/s':>7s}")
for n, d in sorted(best.items()):
    t = d.get("gpu__time_duration.sum", float("nan"))
    print(f"{n:40s} {d['grid']:>14s} {t * 1e6:9.1f} {d['bytes'] / 1e6:9.1f} {d['bytes'] / t / 1e9:7.0f}")
EOF2
fi

note "== 5. bench poisson 3D 256^3 neumann 1e-6 (median of 5 solves) and bench step 3D cavity 256^3"
for v in "mg 2,2" "mg 1,1" "mg 2,1" "mgpcg 2,2"; do
  set -- $v
  r=$(timeout 300 "$BIN/navier" bench poisson --dim 3 --n 256 --solver $1 --smooth $2 --tol 1e-6 --bc neumann \
    --backend cuda --repeat 5 --json 2>&1 | tail -1)
  echo "$r" >>"$OUT/bench.log"
  note "poisson $1 V($2): $(echo "$r" | python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); print("solve %.2f ms, %d it, relres %.2e, %.2f G unknowns/s" % (1e3*d["solve_s"], d["iterations"], d["relres"], d["unknowns_per_s"]/1e9))' 2>/dev/null || echo "$r")"
done
OMP_NUM_THREADS=$NT timeout 300 "$BIN/navier" bench step --case cases/cavity3d_re1000.ini --set grid.nx=256 \
  --set grid.ny=256 --set grid.nz=256 --set run.backend=cuda --steps 20 >"$SCRATCH/bs.txt" 2>&1
cat "$SCRATCH/bs.txt" >>"$OUT/bench.log"
grep -A12 "^step:" "$SCRATCH/bs.txt" | tee -a "$SUM"

note "== 6. run --profile (no field output)"
for n in 256 ${LARGEST:-768}; do
  steps=30
  [ "$n" -gt 256 ] && steps=5
  OMP_NUM_THREADS=$NT timeout 400 "$BIN/navier" run cases/cavity3d_re1000.ini --set grid.nx=$n --set grid.ny=$n \
    --set grid.nz=$n --set time.max_steps=$steps --set run.backend=cuda --set output.fields_dt=0 --profile \
    --output "$SCRATCH/prof$n" >"$SCRATCH/prof$n.log" 2>&1
  note "${n}^3, $steps steps: exit $? | $(grep -E '^(memory|completed|failed)' "$SCRATCH/prof$n.log" | tr '\n' ' ')"
  grep -A8 "^profile" "$SCRATCH/prof$n.log" | tee -a "$SUM"
done

note ""
note "== summary: tests kernels=$rc_k flow=$rc_f ranks=$rc_r sanitizer=$rc_s/$rc_s2 (0 = pass)"
python3 - "$ROWS" <<'EOF' | tee -a "$SUM"
import sys
print(f"{'case':18s} {'steps cpu/cuda':>14s} {'cpu ms/step':>12s} {'cuda ms/step':>13s} {'speed-up':>9s} {'cuda Mcell-steps/s':>19s}")
for line in open(sys.argv[1]):
    f = line.split()
    label = f[0]
    cw0, ck0, cw1, ck1, gw0, gk0, gw1, gk1 = map(float, f[1:9])
    n = ck1 - ck0
    cpu = (cw1 - cw0) / n * 1e3 if n > 0 else float('nan')
    n2 = gk1 - gk0
    gpu = (gw1 - gw0) / n2 * 1e3 if n2 > 0 else float('nan')
    dims = label.split('-')[-1].replace('^', '**')
    cells = eval(dims)
    print(f"{label:18s} {f'{int(n)}/{int(n2)}':>14s} {cpu:12.2f} {gpu:13.3f} {cpu / gpu:9.1f} {cells / gpu / 1e3:19.0f}")
EOF
