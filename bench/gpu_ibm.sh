#!/usr/bin/env bash
# GPU checks of the immersed bodies (issue 14), for a machine with one or two GPUs (about 10 minutes):
#   1. test_kernels: the ibm_force kernel (and every other kernel) CUDA against CPU <= 1e-12;
#   2. cylinder Re 100 (cases/cylinder2d_re100.ini, 411 x 232 cells), 300 steps: CUDA against CPU, whole
#      fields <= 1e-10 (tests/backend/test_flow_backends), and the cd, cl columns of monitor.csv;
#   3. the same on 2 GPUs (2 ranks, splits 2,1,1 and 1,2,1) against 1 GPU (tests/mpi/mpi_compare.py,
#      fields <= 1e-10) and their cd, cl columns (skipped with fewer than 2 GPUs);
#   4. time per step of cases/snake2d_re2000_aoa35.ini (the flying-snake section on cuIBM's 1704 x 1704
#      grid, dt = 4e-4, Re 2000) with and without its body, by `navier bench step`; the share of the body
#      forcing (a 500-step profile) and the projected wall time of the snake run (200 000 steps);
#   5. with LONG=1 only: the cylinder Re 3000 drag history t <= 3 against Koumoutsakos & Leonard (1995),
#      the sphere Re 100 drag, and the two snake validations (whole runs of 200 000 steps, about 6 minutes
#      each on one H200: Re 2000 AoA 35 against PetIBM's band, Re 1000 AoA 30 within 3 % of PetIBM).
# usage: [LONG=1] bench/gpu_ibm.sh [BIN_DIR]   (default build; configured with CUDA; BIN_DIR/tests/X or
#        BIN_DIR/X for the test programs)
# Logs in $OUT (default /tmp/gpu_ibm); a short table last.
set -u
BIN=${1:-build}
OUT=${OUT:-/tmp/gpu_ibm}
mkdir -p "$OUT"
export OMP_NUM_THREADS=${NT:-8} OMP_WAIT_POLICY=passive OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
NAVIER=$BIN/navier
tool() { [ -x "$BIN/tests/$1" ] && echo "$BIN/tests/$1" || echo "$BIN/$1"; }
PY=${PY:-/usr/bin/python3}
T0=$(date +%s)
# 1
"$(tool test_kernels)" >"$OUT/test_kernels.log" 2>&1
k_rc=$?
k_ibm=$(grep ibm_force "$OUT/test_kernels.log" | awk '{print $(NF-1)}' | sort -g | tail -1)
echo "test_kernels: exit $k_rc; ibm_force largest rel diff $k_ibm"
# 2
"$(tool test_flow_backends)" cases/cylinder2d_re100.ini time.max_steps=300 pressure.tolerance=1e-12 \
  output.monitor_every=10 >"$OUT/flow_cylinder.log" 2>&1
f_rc=$?
echo "test_flow_backends cylinder Re 100: exit $f_rc"; tail -4 "$OUT/flow_cylinder.log"
for be in cpu cuda; do
  "$NAVIER" run cases/cylinder2d_re100.ini --output "$OUT/cyl_$be" --set run.backend=$be --set time.max_steps=300 \
    --set pressure.tolerance=1e-12 --set output.monitor_every=10 >"$OUT/cyl_$be.log" 2>&1
done
coef_diff() { # max relative difference of the cd_/cl_ columns of two monitor.csv
  "$PY" - "$1" "$2" <<'PYEOF'
import csv, sys
a, b = (list(csv.DictReader(open(p))) for p in sys.argv[1:3])
keys = [k for k in a[0] if k.startswith(("cd_", "cl_", "cs_"))]
d = max(abs(float(x[k]) - float(y[k])) / max(abs(float(x[k])), 1e-3) for x, y in zip(a, b) for k in keys)
print(f"{d:.3e}" if len(a) == len(b) and keys else "rows differ")
PYEOF
}
c_cuda=$(coef_diff "$OUT/cyl_cpu/monitor.csv" "$OUT/cyl_cuda/monitor.csv")
echo "cylinder Re 100, 300 steps: cd/cl CUDA vs CPU max rel diff $c_cuda"
# 3
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
m_rc=skipped c_2gpu=skipped
if [ "${gpus:-0}" -ge 2 ]; then
  "$PY" tests/mpi/mpi_compare.py "$(command -v mpiexec)" "$NAVIER" "$OUT/mpi" 1e-10 run cases/cylinder2d_re100.ini \
    2,1,1:1,2,1 --set run.backend=cuda --set time.max_steps=300 --set pressure.tolerance=1e-12 >"$OUT/mpi.log" 2>&1
  m_rc=$?
  tail -3 "$OUT/mpi.log"
  c_2gpu=$(coef_diff "$OUT/mpi/r1x1x1/monitor.csv" "$OUT/mpi/r2x1x1/monitor.csv")
  echo "2 GPUs vs 1: exit $m_rc, cd/cl max rel diff $c_2gpu"
fi
# 4
SNAKE=(--case cases/snake2d_re2000_aoa35.ini --set run.backend=cuda)
"$NAVIER" bench step "${SNAKE[@]}" --set body.1.kind=none --steps 200 >"$OUT/step_nobody.log" 2>&1
"$NAVIER" bench step "${SNAKE[@]}" --steps 200 >"$OUT/step_body.log" 2>&1
ms0=$(grep -o 'step: [0-9.]* ms' "$OUT/step_nobody.log" | awk '{print $2}')
ms1=$(grep -o 'step: [0-9.]* ms' "$OUT/step_body.log" | awk '{print $2}')
echo "snake grid 1704x1704: $ms0 ms/step without the body, $ms1 ms/step with it"
# the share of the forcing itself: the profile of a 500-step run with the body
"$NAVIER" run cases/snake2d_re2000_aoa35.ini --set run.backend=cuda --set time.max_steps=500 --set time.end_time=0 \
  --set output.monitor_every=100 --set output.fields_dt=0 --set output.checkpoint_dt=0 --profile \
  --output "$OUT/snake_profile" >"$OUT/snake_profile.log" 2>&1
# 5 (long validation)
if [ "${LONG:-0}" = 1 ]; then
"$NAVIER" run cases/cylinder2d_re3000.ini --set run.backend=cuda --output "$OUT/re3000" >"$OUT/re3000.log" 2>&1
"$PY" - "$OUT/re3000/monitor.csv" data/kl1995_cylinder_drag.csv <<'PYEOF' | tee "$OUT/re3000_drag.txt"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
t = [float(r["time"]) for r in rows]; cd = [float(r["cd_cylinder"]) for r in rows]
ref = [(float(r["t_UD"]), float(r["cd"])) for r in csv.DictReader(l for l in open(sys.argv[2]) if not l.startswith("#")) if r["re"] == "3000"]
worst = 0
for tr, cr in ref:
    if tr < 0.5 or tr > min(3, t[-1]): continue
    i = next(k for k in range(1, len(t)) if t[k] >= tr)
    c = cd[i-1] + (cd[i] - cd[i-1]) * (tr - t[i-1]) / (t[i] - t[i-1])
    worst = max(worst, abs(c - cr)); print(f"t {tr:.3f} cd {c:.4f} KL95 {cr:.4f}")
print(f"re3000 max |cd - KL95| over 0.5 <= t <= 3: {worst:.4f}")
PYEOF
"$NAVIER" run cases/sphere3d_re100.ini --set run.backend=cuda --output "$OUT/sphere" >"$OUT/sphere.log" 2>&1
grep "^body" "$OUT/sphere.log"
for s in "2000_aoa35 cd_mean=1.12:1.26 cl_mean=1.73:1.97 --" "1000_aoa30 cd_mean=1.0217:1.0849 cl_mean=1.6399:1.7413 -- physics.nu=0.001 body.1.angle=-30"; do
  set -- $s
  name=$1
  shift
  "$PY" tests/bodies/body_checks.py "$NAVIER" "$OUT/snake_$name" bands cases/snake2d_re2000_aoa35.ini "$@" run.backend=cuda \
    output.fields_dt=0 output.checkpoint_dt=0 >"$OUT/snake_$name.log" 2>&1
  echo "snake $name: exit $? $(grep -E '^(cd|cl)_mean' "$OUT/snake_$name.log" | tr '\n' ' ')"
done
fi
echo
echo "== gpu_ibm summary ($(($(date +%s) - T0)) s) =="
printf "%-44s %s\n" "ibm_force CUDA vs CPU (<= 1e-12)" "exit $k_rc, $k_ibm"
printf "%-44s %s\n" "cylinder Re100 fields CUDA vs CPU (<= 1e-10)" "exit $f_rc"
printf "%-44s %s\n" "cylinder Re100 cd/cl CUDA vs CPU" "$c_cuda"
printf "%-44s %s\n" "cylinder Re100 2 GPUs vs 1 (fields, cd/cl)" "exit $m_rc, $c_2gpu"
printf "%-44s %s\n" "snake grid ms/step without / with body" "$ms0 / $ms1"
printf "%-44s %s\n" "snake 200000 steps at this rate, min (the pressure solve is direct: no growth with the flow)" "$(awk -v m="$ms1" 'BEGIN{printf "%.1f", m*200000/6e4}')"
printf "%-44s %s\n" "profile of the body run" "$(grep -E 'predictor|poisson|bodies|correction' "$OUT/snake_profile.log" | tr -s ' ' | tr '\n' ';')"
printf "%-44s %s\n" "cylinder Re3000 drag vs KL95" "$(tail -1 "$OUT/re3000_drag.txt")"
printf "%-44s %s\n" "sphere Re100 (Cd ref 1.087, 3 %)" "$(grep -o 'cd [0-9.]*' "$OUT/sphere.log" | head -1)"
