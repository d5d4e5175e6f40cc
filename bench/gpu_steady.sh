#!/usr/bin/env bash
# Time to a steady answer on the GPU (issue 19), one call: artificial compressibility (AC, the current
# navier) against today's projection before issue 19 (commit 74d732c: explicit diffusion, multigrid
# pressure) in the same run, on one GPU, for the cavity Re 1000 and Re 3200 on 256^2, natural
# convection Ra 1e6 on 256^2 and the buoyancy-driven cube Ra 1e5 on 64^3 (steady_tol 1e-6 for every
# run, bench/steady_time.sh); then the current projection on the same cases (implicit diffusion where
# the case sets it, the FFT pressure where `auto` picks it), for honesty; then the cube's AC on 2 GPUs
# (mpiexec -n 2) against 1 GPU: time, iterations and the largest difference of the final fields.
# Capped projection runs report converged false: their ratio is a lower bound. A compact table last.
#
# usage: bench/gpu_steady.sh BIN_DIR   (from the repository root; BIN_DIR/navier: a CUDA build of the
#   current navier; BIN_DIR/navier_74d732c: a CUDA build of commit 74d732c; both sm_90, HDF5 off)
#   PROJ_LIMIT_S (default 60) caps each run of the old projection, CUR_LIMIT_S (default 20) each run of
#   the current projection: about 6 minutes of GPU time in all. Logs and JSON in $OUT (default
#   /tmp/gpu_steady; the fields stay in SCRATCH, default /tmp/gpu_steady_runs).
#   Smoke test on a CPU: NAV_BACKEND=cpu NGPU=2 SETS=grid.nx=16,grid.ny=16 bench/gpu_steady.sh DIR (SETS are
#   appended to every run).
set -u
BIN=${1:?usage: bench/gpu_steady.sh BIN_DIR}
OUT=${OUT:-/tmp/gpu_steady}
SCRATCH=${SCRATCH:-/tmp/gpu_steady_runs}
mkdir -p "$OUT" "$SCRATCH"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0 OMP_NUM_THREADS=${OMP_NUM_THREADS:-4}
if ! ldconfig -p | grep -q libnccl.so.2; then
  lib=$(find / -name 'libnccl.so.2' -not -path '/proc/*' 2>/dev/null | head -1)
  [ -n "$lib" ] && export NAV_NCCL_LIBRARY=$lib
fi
here=$(cd "$(dirname "$0")" && pwd)
ngpu=${NGPU:-$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | wc -l)}
backend=${NAV_BACKEND:-cuda}
{
  echo "device: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | sort | uniq -c | xargs); $(nproc) cores"
  echo "current: $("$BIN/navier" --version | head -1)"
  echo "before:  $("$BIN/navier_74d732c" --version | head -1)"
} | tee "$OUT/device.txt"
RUNS=("cases/cavity2d_re1000.ini:cavity_re1000" "cases/cavity2d_re1000.ini:cavity_re3200:physics.nu=3.125e-4"
  "cases/natconv2d_ra1e6.ini:natconv_ra1e6" "cases/bdc3d_ra1e5.ini:bdc3d_ra1e5")
if [ -n "${SETS:-}" ]; then
  for i in "${!RUNS[@]}"; do
    case ${RUNS[$i]} in *:*:*) RUNS[$i]="${RUNS[$i]},$SETS" ;; *) RUNS[$i]="${RUNS[$i]}:$SETS" ;; esac
  done
fi
two_sets=()
for s in ${SETS:+${SETS//,/ }}; do two_sets+=(--set "$s"); done

echo "== 1. AC (current) against the projection of 74d732c, one GPU (old projection capped at ${PROJ_LIMIT_S:-60} s)"
NAV_BACKEND=$backend PROJ_NAVIER="$BIN/navier_74d732c" PROJ_LIMIT_S=${PROJ_LIMIT_S:-60} \
  bash "$here/steady_time.sh" "$BIN/navier" "$SCRATCH/old" "${RUNS[@]}" >"$OUT/old.txt" 2>&1
tail -n 12 "$OUT/old.txt"
echo "== 2. the current projection, one GPU (capped at ${CUR_LIMIT_S:-20} s)"
NAV_BACKEND=$backend METHODS=projection PROJ_LIMIT_S=${CUR_LIMIT_S:-20} \
  bash "$here/steady_time.sh" "$BIN/navier" "$SCRATCH/cur" "${RUNS[@]}" >"$OUT/cur.txt" 2>&1
tail -n 6 "$OUT/cur.txt"
cp "$SCRATCH/old/results.jsonl" "$OUT/old.jsonl" 2>/dev/null
cp "$SCRATCH/cur/results.jsonl" "$OUT/cur.jsonl" 2>/dev/null

echo "== 3. the cube's AC on 2 GPUs against 1"
two=$SCRATCH/bdc3d_2gpu
if [ "$ngpu" -ge 2 ]; then
  rm -rf "$two"
  /usr/bin/time -f "%U %S %e" -o "$two.time" timeout --foreground -s INT 240 mpiexec -n 2 "$BIN/navier" run \
    cases/bdc3d_ra1e5.ini --output "$two" --set run.backend="$backend" --set run.name=bdc3d_ra1e5 \
    --set time.steady_tol=1e-6 --set output.fields_dt=0 --set output.fields_every=0 --set output.monitor_every=10 \
    --set run.method=artificial_compressibility --set output.dump_final=true "${two_sets[@]}" >"$OUT/bdc3d_2gpu.log" 2>&1
  echo "mpiexec -n 2: exit $?"
else
  echo "SKIP: $ngpu GPU(s) visible (run on nvidia-h200-x2)"
fi

BENCH=$here /usr/bin/python3 - "$OUT" "$SCRATCH/old/bdc3d_ra1e5_artificial_compressibility" "$two" <<'PY' | tee "$OUT/table.txt"
import json, os, sys
out, one, two = sys.argv[1:4]
def rows(p):
    try:
        return [json.loads(l) for l in open(p) if l.strip()]
    except OSError:
        return []
old, cur = rows(out + "/old.jsonl"), rows(out + "/cur.jsonl")
def get(rs, case, m):
    return next((r for r in rs if r.get("case") == case and r.get("method") == m), None)
def cell(r):
    if not r or not r.get("wall_s"):
        return "-"
    return f"{r['iterations']} it, {r['wall_s']:.2f} s{'' if r.get('converged') else ' (capped)'}"
def ratio(p, a):
    if not (p and a and p.get("wall_s") and a.get("wall_s")):
        return "-"
    return f"{'>' if not p.get('converged') else ''}{p['wall_s'] / a['wall_s']:.1f}x"
def val(r):
    if not r:
        return ""
    if "ghia_dev_u" in r:
        return f"Ghia {r['ghia_dev_u']:.4f}/{r['ghia_dev_v']:.4f}"
    if r.get("nusselt"):
        return "Nu " + "/".join(f"{x:.4f}" for x in r["nusselt"].values())
    return ""
print(f"{'case':14} | {'AC (current)':22} | {'projection 74d732c':26} | {'ratio':7} | {'projection current':26} | {'ratio':7} | AC result")
for case in ("cavity_re1000", "cavity_re3200", "natconv_ra1e6", "bdc3d_ra1e5"):
    a, p, c = get(old, case, "artificial_compressibility"), get(old, case, "projection"), get(cur, case, "projection")
    print(f"{case:14} | {cell(a):22} | {cell(p):26} | {ratio(p, a):7} | {cell(c):26} | {ratio(c, a):7} | {val(a)}")
import subprocess
try:
    s1, s2 = (json.load(open(d + "/summary.json")) for d in (one, two))
    diff = subprocess.run(["/usr/bin/python3", os.path.join(os.environ["BENCH"], "final_fields_diff.py"), two, one],
                          capture_output=True, text=True).stdout.strip()
    st1, st2 = s1["steady"], s2["steady"]
    print(f"bdc3d_ra1e5 AC: 1 GPU {st1['iterations']} it, {st1['wall_s']:.2f} s; 2 GPUs {st2['iterations']} it, "
          f"{st2['wall_s']:.2f} s, converged {st2['converged']}, decomposition {s2.get('decomposition')}; "
          f"max|2 - 1| / max|1|: {diff}")
except Exception as e:
    print(f"bdc3d_ra1e5 AC 2 GPUs against 1: no comparison ({e})")
PY
