#!/usr/bin/env bash
# Issue 18 on one H200, FP64 and FP32 builds (the divergence with kz planes per thread, the fused ghost
# fill of a direction, the FFT box gather/scatter two x points per thread, the multigrid's fused residual
# and restriction), in one call of about 5 minutes:
#   1. correctness: test_kernels and test_fft backends in both precisions; test_flow_backends (CUDA against
#      CPU, 1e-10) on the 3D cavity 64^3 (FFT solver) and the stretched 3D cavity 48^3 (solver = mg: auto
#      takes the FFT solver's dense transforms there), FP64;
#   2. timings, 3 calls each: navier bench step of the 3D cavity 256^3 (solver = auto: FP64 and FP32;
#      solver = mg, mixed V(1,2): FP64), navier bench poisson 3D 256^3 all-Neumann 1e-6 (mg mixed V(1,2),
#      median of 5 solves, also with NAV_MG_FUSED=0: the residual and restriction as two kernels; fft FP64
#      and FP32);
#   3. Nsight Compute (SpeedOfLight, clocks as found) on the divergence, ghost-fill and FFT box kernels
#      of 2 steps of the 3D cavity 256^3 (solver = auto) in each precision.
# Logs under $OUT; a short table last.
#
# usage (repository root, binaries in .carry/k18/{fp64,fp32}/: CARRY.md): bash bench/gpu_k18.sh
set -u
B=.carry/k18
OUT=${OUT:-/tmp/gpu_k18}
SCRATCH=${SCRATCH:-/tmp/gpu_k18_runs}
mkdir -p "$OUT" "$SCRATCH"
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64
export OMP_NUM_THREADS=$(nproc)
SUM=$OUT/summary.txt
: >"$SUM"
note() { echo "$*" | tee -a "$SUM"; }
before() { # T: true while the script has run less than T seconds (the whole call must stay under 400 s)
  [ "$SECONDS" -lt "$1" ] && return 0
  note "skipped at ${SECONDS}s: $2"
  return 1
}
note "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) | commit $(git rev-parse --short HEAD 2>/dev/null)"

note "== 1. correctness"
for p in fp64 fp32; do
  timeout 60 $B/$p/test_kernels >"$OUT/kernels_$p.log" 2>&1
  note "$p test_kernels: exit $? | $(tail -1 "$OUT/kernels_$p.log")"
  grep FAIL "$OUT/kernels_$p.log" | head -5 | tee -a "$SUM"
  timeout 60 $B/$p/test_fft backends >"$OUT/fft_$p.log" 2>&1
  note "$p test_fft backends: exit $? | $(grep -c '^ok' "$OUT/fft_$p.log") ok, $(grep -c FAIL "$OUT/fft_$p.log") FAIL"
done
flow() { # LABEL ARGS...: test_flow_backends FP64
  local label=$1
  shift
  timeout 60 $B/fp64/test_flow_backends "$@" >"$SCRATCH/flow.log" 2>&1
  local rc=$?
  cat "$SCRATCH/flow.log" >>"$OUT/flow.log"
  note "fp64 test_flow_backends $label: exit $rc | $(tail -1 "$SCRATCH/flow.log")"
}
flow "cavity3d 64^3" cases/cavity3d_re1000.ini grid.nx=64 grid.ny=64 grid.nz=64 time.max_steps=100
flow "cavity3d 48^3 stretched, mg" cases/cavity3d_re1000.ini grid.nx=48 grid.ny=48 grid.nz=48 grid.y_spacing=tanh \
  grid.y_gamma=4 grid.x_spacing=geometric grid.x_ratio=1.05 time.max_steps=50 pressure.solver=mg

note "== 2. timings (3 calls each)"
C3="--case cases/cavity3d_re1000.ini --set grid.nx=256 --set grid.ny=256 --set grid.nz=256 --set pressure.tolerance=1e-6"
MIXED="--set pressure.solver=mg --set pressure.precision=mixed --set pressure.pre_smooth=1"
step() { # LABEL PRECISION ARGS...: ms per step
  local label=$1 p=$2
  shift 2
  before 220 "$label" || return 0
  for r in 1 2 3; do
    timeout 60 $B/$p/navier bench step $C3 "$@" --set run.backend=cuda --steps 20 --json 2>>"$OUT/bench.err" |
      tail -1 | tee -a "$OUT/bench.log" | python3 -c 'import json,sys; print("%.4f" % (1e3 * json.loads(sys.stdin.read())["step_s"]))' \
      2>/dev/null || echo nan
  done | tr '\n' ' ' | sed "s/^/$label /" >>"$SCRATCH/rows.txt"
  echo >>"$SCRATCH/rows.txt"
  note "$(tail -1 "$SCRATCH/rows.txt")"
}
poisson() { # LABEL PRECISION ARGS...: ms per solve (median of 5)
  local label=$1 p=$2
  shift 2
  before 240 "$label" || return 0
  for r in 1 2 3; do
    NAV_MG_FUSED=${FUSED:-1} timeout 60 $B/$p/navier bench poisson --dim 3 --n 256 --bc neumann --tol 1e-6 --backend cuda --repeat 5 --json \
      "$@" 2>>"$OUT/bench.err" | tail -1 | tee -a "$OUT/bench.log" |
      python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); print("%.4f" % (1e3 * d["solve_s"]))' 2>/dev/null || echo nan
  done | tr '\n' ' ' | sed "s/^/$label /" >>"$SCRATCH/rows.txt"
  echo >>"$SCRATCH/rows.txt"
  note "$(tail -1 "$SCRATCH/rows.txt")"
}
: >"$SCRATCH/rows.txt"
step step_auto_fp64 fp64 --set pressure.solver=auto
step step_auto_fp32 fp32 --set pressure.solver=auto
step step_mg_mixed_v12_fp64 fp64 $MIXED
poisson poisson_mg_mixed_v12_fp64 fp64 --solver mg --precision mixed --smooth 1,2
FUSED=0 poisson poisson_mg_mixed_v12_unfused_fp64 fp64 --solver mg --precision mixed --smooth 1,2
poisson poisson_fft_fp64 fp64 --solver fft
poisson poisson_fft_fp32 fp32 --solver fft

note "== 3. Nsight Compute: divergence, fill, fft_box kernels of 2 steps, cavity 256^3, solver = auto"
for p in fp64 fp32; do
  before 320 "ncu $p" || continue
  timeout 70 /usr/local/cuda/bin/ncu --clock-control none --section SpeedOfLight -k regex:'divergence|fill|fft_box' \
    --csv $B/$p/navier run cases/cavity3d_re1000.ini --set grid.nx=256 --set grid.ny=256 --set grid.nz=256 \
    --set run.backend=cuda --set time.max_steps=2 --set output.fields_every=0 --set output.fields_dt=0 \
    --output "$SCRATCH/ncu_$p" >"$OUT/ncu_$p.csv" 2>"$OUT/ncu_$p.err"
  note "$p ncu: exit $?"
done

note "== table"
python3 - "$SCRATCH/rows.txt" "$OUT/ncu_fp64.csv" "$OUT/ncu_fp32.csv" <<'EOF' | tee -a "$SUM"
import csv, re, statistics, sys
best = {}
for line in open(sys.argv[1]):
    f = line.split()
    if not f: continue
    v = [float(x) for x in f[1:] if x != "nan"]
    best[f[0]] = (min(v) if v else float("nan"), statistics.median(v) if v else float("nan"))
    print("%-28s best %8.3f ms  median %8.3f ms" % (f[0], *best[f[0]]))
a, b = best.get("step_auto_fp64"), best.get("step_auto_fp32")
if a and b: print("FP32/FP64 cavity 256^3 step, auto: %.3f (best), %.3f (median); target <= 0.6" % (b[0] / a[0], b[1] / a[1]))
for k, t in (("poisson_mg_mixed_v12_fp64", 8.0), ("step_mg_mixed_v12_fp64", 8.4)):
    if k in best: print("%s: best %.3f ms, target <= %.1f ms" % (k, best[k][0], t))
def kernels(path):  # name -> [count, sum us, sum dram %, sum sm %]
    out = {}
    try:
        rows = list(csv.reader(l for l in open(path) if l.startswith('"')))
    except OSError:
        return out
    if not rows: return out
    h = rows[0]
    ki, mi, ui, vi, idi = h.index("Kernel Name"), h.index("Metric Name"), h.index("Metric Unit"), h.index("Metric Value"), h.index("ID")
    per = {}
    for r in rows[1:]:
        name = re.sub(r"^void ", "", r[ki]).split("(")[0].replace("nav_", "").replace("_kernel", "")
        name = re.sub(r"\b(double|float)\b", "T", name)  # the same row for both builds
        d = per.setdefault((r[idi], name), {})
        v = float(r[vi].replace(",", "")) if r[vi] not in ("", "n/a") else float("nan")
        if r[mi] == "Duration": d["us"] = v * {"nsecond": 1e-3, "ns": 1e-3, "msecond": 1e3, "ms": 1e3}.get(r[ui], 1)
        if r[mi] == "DRAM Throughput": d["dram"] = v
        if r[mi] == "Compute (SM) Throughput": d["sm"] = v
    for (_, name), d in per.items():
        o = out.setdefault(name, [0, 0.0, 0.0, 0.0])
        o[0] += 1; o[1] += d.get("us", 0); o[2] += d.get("dram", 0); o[3] += d.get("sm", 0)
    return out
k64, k32 = kernels(sys.argv[2]), kernels(sys.argv[3])
print("%-44s %22s %22s %6s" % ("kernel (ncu, mean per launch)", "FP64 us (DRAM%, SM%)", "FP32 us (DRAM%, SM%)", "32/64"))
for name in sorted(set(k64) | set(k32)):
    c = []
    for k in (k64, k32):
        o = k.get(name)
        c.append((o[1] / o[0], o[2] / o[0], o[3] / o[0], o[0]) if o else None)
    fmt = lambda x: "%7.1f (%3.0f, %3.0f) x%-2d" % x if x else "%22s" % "-"
    r = "%6.2f" % (c[1][0] / c[0][0]) if c[0] and c[1] and c[0][0] > 0 else ""
    print("%-44s %22s %22s %6s" % (name[:44], fmt(c[0]), fmt(c[1]), r))
EOF
