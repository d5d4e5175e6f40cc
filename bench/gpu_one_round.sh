#!/usr/bin/env bash
# One-GPU checks and measurements of issues 14 and 16 (nvidia-h200), in parts of at most 10 minutes:
#   verify       the CUDA slab kernels on one rank against FFTW (NAV_FFT_SLABS=1 test_fft backends, chunks of 32
#                and of 3 rows), mgpcg (the flexible CG) on the snake's first steps, and the 1-GPU gpu tests
#                named by TESTS (several ranks on one GPU consolidate onto one: the 2-GPU tests need 2 GPUs)
#   slabncu      the same slab check, the solve time of the box and of the slabs (chunks of ROWS rows, default
#                32) at 256^3, and the slab line kernels under ncu --set full (occupancy, issue slots, stalls)
#   solveprofile ncu: every kernel of the 256^3 solve, box and slabs on one GPU (the last TAIL launches)
#   step         the 256^3 cavity step with the FFT solver, box and slabs on one GPU; the phases (--profile)
#   slabvariant  the slab solve time of another binary (VARIANT), chunks of ROWS rows
#   snakedomain  issue 14: the snake Re 2000 AoA 35 on PetIBM's domain and its larger one (to t = END, 40)
#   snakestep    issue 14: the snake's step (navier bench step, 2000 steps) with the sharp forcing, the diffuse one and
#                no body (body.1.kind = none): the forcing's share of the step
#   snakerun     issue 14: the snake Re 2000 AoA 35 as shipped, the whole run to t = 80 with [bodies] forcing =
#                FORCING (default sharp); the means over t in [50, 80] (summary.json) and [32, 64] (monitor.csv)
# usage (repository root, after bash bench/gpu_carry.sh here, carrying .carry):
#   bash bench/gpu_one_round.sh PART...      logs and a table in $OUT
ROUND=gpu_one
source bench/gpu_round_common.sh
api() { # LABEL RANKS GRID [ENV...]: the Poisson solve alone through the library, all-Neumann, fft to 1e-6
  local label=$1 r=$2 g=$3
  shift 3
  env "$@" timeout 120 mpiexec -n "$r" --bind-to none $BIN/navier bench poisson --dim 3 --grid "$g" --bc neumann \
    --solver fft --tol 1e-6 --backend cuda --transport mpi --repeat 9 --json >"$OUT/api_$label.log" 2>&1
  note "$label: exit $? | $(tail -1 "$OUT/api_$label.log" | /usr/bin/python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); print("solve %.3f ms, relres %.2e" % (1e3 * d["solve_s"], d["relres"]))' 2>&1)"
}
slab_backends() { # the CUDA slabs on one rank against FFTW, every face combination, chunks of 32 and of 3 rows
  for rows in 32 3; do
    NAV_FFT_SLABS=1 NAV_FFT_SLAB_ROWS=$rows timeout 200 $BIN/tests/test_fft backends >"$OUT/slabs_backends_$rows.log" 2>&1
    note "NAV_FFT_SLABS=1 rows $rows test_fft backends: exit $?"
    grep -E "fft cuda" "$OUT/slabs_backends_$rows.log" | cut -c1-200 | tee -a "$SUM"
  done
}
for part in "$@"; do
  note "=== $part"
  case $part in
  verify)
    slab_backends
    timeout 120 $BIN/navier run cases/snake2d_re2000_aoa35.ini --set run.backend=cuda --set pressure.solver=mgpcg \
      --set time.max_steps=3 --set output.monitor_every=1 --set output.fields_dt=0 --set output.checkpoint_dt=0 \
      --output "$W/snake_mgpcg" >"$OUT/snake_mgpcg.log" 2>&1
    note "snake mgpcg 3 steps: exit $?"
    cut -d, -f1-8 "$W/snake_mgpcg/monitor.csv" | tee -a "$SUM"
    (cd build-gpu && timeout 300 ctest -R "${TESTS:-gpu_fft_backends|gpu_four_ranks|gpu_kernels|gpu_mixed|gpu_mg_graphs|gpu_cylinder2d}" -j 3 --output-on-failure >"$OUT/ctest.log" 2>&1)
    grep -E "Test +#|tests passed|tests failed" "$OUT/ctest.log" | tee -a "$SUM"
    ;;
  slabncu) # (ROWS: the chunk rows to time the slabs with, default 32)
    slab_backends
    api fft_box_256 1 256,256,256
    for rows in ${ROWS:-32}; do api fft_slabs_256_rows$rows 1 256,256,256 NAV_FFT_SLABS=1 NAV_FFT_SLAB_ROWS=$rows; done
    NAV_FFT_SLABS=1 timeout 300 ncu --clock-control none --set full --print-details all \
      --kernel-name regex:"slab_(ends|solve)" --launch-skip 2 --launch-count 2 \
      $BIN/navier bench poisson --dim 3 --grid 256,256,256 --bc neumann --solver fft --tol 1e-6 --backend cuda \
      --repeat 2 >"$OUT/ncu_slabs.log" 2>&1
    note "ncu slabs: exit $?"
    grep -E "^  [a-zA-Z_].*\(|Duration|DRAM Throughput|Registers Per|Achieved Occupancy|Issue Slots Busy|Warp Cycles Per Issued|No Eligible|Stall Long|Stall Wait" \
      "$OUT/ncu_slabs.log" | cut -c1-140 | tee -a "$SUM"
    ;;
  solveprofile) # every kernel of the 256^3 solves (box, slabs on one GPU): time, DRAM and SM throughput, bytes
    M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes.sum
    for v in box slabs; do
      env NAV_FFT_SLABS=$([ $v = slabs ] && echo 1 || echo 0) timeout 200 ncu --clock-control none --metrics $M --csv \
        --print-units base -c 120 $BIN/navier bench poisson --dim 3 --grid 256,256,256 --bc neumann --solver fft \
        --tol 1e-6 --backend cuda --repeat 3 >"$OUT/ncu_$v.csv" 2>"$OUT/ncu_$v.err"
      note "ncu $v: exit $?"
      /usr/bin/python3 bench/ncu_table.py "$OUT/ncu_$v.csv" --first 120 >"$OUT/ncu_$v.txt"
      tail -${TAIL:-24} "$OUT/ncu_$v.txt" | cut -c1-150 | tee -a "$SUM"
    done
    ;;
  step) # the 256^3 cavity step with the FFT solver: the box and the slabs on one GPU (NAV_FFT_SLABS=1), and the
    # phases of 40 steps of navier run --profile with the slabs
    for v in box slabs; do
      env NAV_FFT_SLABS=$([ $v = slabs ] && echo 1 || echo 0) timeout 150 $BIN/navier bench step --case \
        cases/cavity3d_re1000.ini --set run.backend=cuda --set grid.nx=256 --set grid.ny=256 --set grid.nz=256 \
        --set pressure.solver=fft --steps 20 --json >"$OUT/step_$v.log" 2>&1
      /usr/bin/python3 bench/step_line.py "$OUT/step_$v.log" "step 256^3 fft $v" "$?" | tee -a "$SUM"
    done
    for v in box slabs; do
      env NAV_FFT_SLABS=$([ $v = slabs ] && echo 1 || echo 0) timeout 150 $BIN/navier run cases/cavity3d_re1000.ini \
        --set run.backend=cuda --set grid.nx=256 --set grid.ny=256 --set grid.nz=256 --set pressure.solver=fft \
        --set time.max_steps=40 --set output.fields_dt=0 --set output.checkpoint_dt=0 --set output.monitor_every=1000 \
        --output "$W/prof_$v" --profile >"$OUT/profile_$v.log" 2>&1
      note "profile $v: exit $?"
      grep -A8 "^profile" "$OUT/profile_$v.log" | tee -a "$SUM"
    done
    ;;
  slabvariant) # the slab solve with a binary built with other reader constants (VARIANT: the binary's path)
    for rows in ${ROWS:-32}; do
      env NAV_FFT_SLABS=1 NAV_FFT_SLAB_ROWS=$rows timeout 120 $VARIANT bench poisson --dim 3 --grid 256,256,256 \
        --bc neumann --solver fft --tol 1e-6 --backend cuda --repeat 9 --json >"$OUT/api_variant_$rows.log" 2>&1
      note "$(basename $VARIANT) slabs rows $rows: exit $? | $(tail -1 "$OUT/api_variant_$rows.log" | /usr/bin/python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); print("solve %.3f ms" % (1e3 * d["solve_s"]))' 2>&1)"
    done
    ;;
  snakedomain) # issue 14: the snake Re 2000 AoA 35 to t = END (default 40) on larger domains (SNAKE_GRIDS: the
    # directory of the face files; x40 = [-15, 25] (PetIBM's base), x55/y40 = [-20, 35] x [-20, 20] (its larger one))
    for dom in "40 30 x40 snake_y -15 -15" "55 40 x55 y40 -20 -20"; do
      set -- $dom
      lx=$1 ly=$2 xf=$SNAKE_GRIDS/$3.txt yf=$SNAKE_GRIDS/$4.txt x0=$5 y0=$6
      [ "$4" = snake_y ] && yf=$PWD/data/snake_grid_y.txt
      nx=$(grep -c -v '^#' "$xf"); ny=$(grep -c -v '^#' "$yf")
      timeout ${SNAKE_LIMIT:-250} $BIN/navier run cases/snake2d_re2000_aoa35.ini --set run.backend=cuda \
        --set grid.nx=$((nx - 1)) --set grid.ny=$((ny - 1)) --set grid.lx=$lx --set grid.ly=$ly --set grid.x0=$x0 --set grid.y0=$y0 \
        --set grid.x_file=$xf --set grid.y_file=$yf --set time.end_time=${END:-40} --set forces.average_start=20 \
        --set output.fields_dt=0 --set output.checkpoint_dt=0 --output "$W/snake_$lx" >"$OUT/snake_$lx.log" 2>&1
      note "snake domain ${lx}x$ly ($((nx - 1))x$((ny - 1)) cells): exit $?"
      cp "$W/snake_$lx/monitor.csv" "$OUT/snake_${lx}_monitor.csv" 2>/dev/null
      /usr/bin/python3 -c 'import json,sys; b=json.load(open(sys.argv[1]))["bodies"][0]; print({k: b[k] for k in b if k in ("cd_mean","cl_mean","cl_amplitude","st","slip_max","slip_rms")})' "$W/snake_$lx/summary.json" 2>&1 | tee -a "$SUM"
      tail -3 "$OUT/snake_$lx.log" | tee -a "$SUM"
    done
    ;;
  snakestep)
    for v in "bodies.forcing=sharp" "bodies.forcing=diffuse" "body.1.kind=none"; do
      timeout 120 $BIN/navier bench step --case cases/snake2d_re2000_aoa35.ini --set run.backend=cuda --set "$v" \
        --steps 2000 >"$OUT/snakestep_${v##*=}.log" 2>&1
      note "snake step, $v: exit $? | $(grep -o 'step: [0-9.]* ms' "$OUT/snakestep_${v##*=}.log")"
    done
    ;;
  snakerun)
    f=${FORCING:-sharp}
    timeout ${SNAKE_LIMIT:-450} $BIN/navier run cases/snake2d_re2000_aoa35.ini --set run.backend=cuda \
      --set bodies.forcing=$f --set output.fields_dt=0 --set output.checkpoint_dt=0 --output "$W/snake_$f" \
      --profile >"$OUT/snake_$f.log" 2>&1
    note "snake forcing $f, whole run: exit $? | $(grep -E '^completed' "$OUT/snake_$f.log")"
    cp "$W/snake_$f/monitor.csv" "$OUT/snake_${f}_monitor.csv" 2>/dev/null
    cp "$W/snake_$f/summary.json" "$OUT/snake_${f}_summary.json" 2>/dev/null
    /usr/bin/python3 - "$W/snake_$f" <<'PY' 2>&1 | tee -a "$SUM"
import csv, json, sys
d = sys.argv[1]
s = json.load(open(d + "/summary.json"))
b = s["bodies"][0]
print({k: b[k] for k in b if k in ("cd_mean", "cl_mean", "cl_amplitude", "st", "slip_max", "slip_rms", "slip_ext_max",
                                    "slip_ext_rms")}, "max_div", s["max_div"], "max_abs_p", s.get("max_abs_p"))
rows = list(csv.DictReader(open(d + "/monitor.csv")))
print("max|div u| over the monitor rows: %.3e" % max(float(r["max_div"]) for r in rows))
cd = [k for k in rows[0] if k.startswith("cd_")][0]
cl = "cl_" + cd[3:]
w = [r for r in rows if 32 <= float(r["time"]) <= 64]
if w:
    print("t in [32, 64]: cd %.4f cl %.4f (%d rows)" % (sum(float(r[cd]) for r in w) / len(w),
                                                         sum(float(r[cl]) for r in w) / len(w), len(w)))
PY
    tail -4 "$OUT/snake_$f.log" | tee -a "$SUM"
    ;;
  esac
done
