#!/usr/bin/env bash
# The 2-GPU parts of issues 14, 15, 16, 18 and 19 on one host with 2 GPUs (nvidia-h200-x2), in parts of
# at most 10 minutes each (one device call per part list):
#   tests     every test of the carried build tree whose name holds two_gpus (2 ranks on 2 GPUs against 1:
#             cavity per transport, open flows, cylinder Re 100, AC cube, RANS channel, FFT cavity) and the
#             4-ranks-on-1-GPU test: `ctest -R "two_gpus|four_ranks"`
#   steady    issue 19: the buoyancy-driven cube Ra 1e5 at 64^3 to steady_tol 1e-6, artificial compressibility
#             of this build against the projection of 74d732c (BIN/navier_74d732c), on 1 GPU and on 2
#             (bench/steady_time.sh; the projection capped at PROJ_LIMIT_S, default 40 s)
#   cylinder  issue 14: the Strouhal number of cylinder Re 100 (t = 200, statistics over [100, 200]) as
#             shipped, at half the time step, and with the lateral boundaries at +-15, +-20, +-30 (face
#             files made by tools/navier-grid with the case's cells; ST_DIR holds them)
#   rans      issue 15: the time per outer iteration of the Re_tau 5200 channel on 12000^2, 10000^2, 6000^2
#             cells on 2 GPUs and 1 (bench/gpu_rans_x2.sh); on 6000^2 also without the model and with looser
#             inner solves (where the time goes), and `navier run --profile` of 8 steps
#   scaling   issue 16/18: the 3D cavity step, weak (256^3 per GPU) and strong (512^3), 1 and 2 GPUs, halo
#             transport TRANSPORT (default auto), pressure solver auto, mg (SOLVERS1) and auto, fft, mg (SOLVERS2)
#   slabs     the FFT solver on slabs and pencils: gpu_fft_backends (1 GPU, cuFFT against FFTW) and every
#             gpu_two_gpus_fft test (the cavity split along z and along x; the solver alone on every split)
#   gputests  every gpu-labelled test of the carried tree (`ctest -L gpu -j 3`: 1-GPU tests share GPU 0)
#   cylval    issue 14: validation_cylinder_re100's check on the GPU (body_checks.py bands, the case as shipped)
#   api       issue 16: the Poisson library alone, weak scaling (256^3 per GPU, all-Neumann, 1e-6, fft and mg,
#             navier bench poisson through the distributed API)
#   variants  issue 16: navier binaries side by side (VARIANTS="label=path ...", e.g. carried in .carry/v), ROUNDS
#             rounds (default 2) in turn: the library's FFT solve (256^3 per GPU, all-Neumann, 1e-6, 15 repeats,
#             median) on 1 GPU (the box), 1 GPU on slabs (NAV_FFT_SLABS=1), 2 GPUs over nccl and over cuda-ipc;
#             then each binary's GPU timeline of the solve where it has one (NAV_SOLVE_EVENTS: the microseconds
#             between the marks of bench/poisson_solve_events.patch, no host wait added), and the weak cavity step
#             (256^3 per GPU, 10 steps) on 2 GPUs
#   nvlink    the peer copy bandwidth between the 2 GPUs (CuPy, 256 MB, one direction and both)
#   transports  issue 16: the halo transports side by side, each case run twice in turn (the spread is the noise):
#             the weak (256^3 per GPU, 20 steps) and strong (512^3, 5 steps) cavity step and the library's solve
#             (256^3 per GPU, FFT, 9 repeats) on 1 GPU and on 2 over nccl and cuda-ipc, then `navier run --profile`
#             of the weak step over each; and the time of one plane-sized exchange (bench/p2p_latency.py)
# TESTS: the ctest regular expression of part tests (default two_gpus|four_ranks)
# usage (repository root, after bash bench/gpu_carry.sh here, carrying .carry):
#   bash bench/gpu_x2_round.sh PART...      logs and a table in $OUT
ROUND=gpu_x2
source bench/gpu_round_common.sh
C=cases/cavity3d_re1000.ini # the cavity of parts scaling and transports
grid() { IFS=, read -r a b c <<<"$1"; echo "--set grid.nx=$a --set grid.ny=$b --set grid.nz=$c"; }
step() { # LABEL RANKS DECOMP CASE SETS... : one navier bench step line
  local label=$1 ranks=$2 dec=$3 case=$4
  shift 4
  local launch=()
  [ "$ranks" -gt 1 ] && launch=(mpiexec -n "$ranks" --bind-to none)
  timeout --foreground 150 "${launch[@]}" $BIN/navier bench step --case "$case" --set run.backend=cuda \
    --set run.decomposition="$dec" "$@" --json >"$W/step_$label.log" 2>&1
  local rc=$?
  /usr/bin/python3 bench/step_line.py "$W/step_$label.log" "$label" "$rc" | tee -a "$SUM"
}
for part in "$@"; do
  note "=== $part"
  case $part in
  tests)
    (cd build-gpu && timeout 560 ctest -R "${TESTS:-two_gpus|four_ranks}" --output-on-failure >"$OUT/ctest_2gpu.log" 2>&1)
    grep -E "Test +#|tests passed|tests failed" "$OUT/ctest_2gpu.log" | tee -a "$SUM"
    grep -E "max rel diff|SKIP|FAIL" "$OUT/ctest_2gpu.log" | cut -c1-240 >>"$SUM"
    ;;
  slabs)
    (cd build-gpu && timeout 400 ctest -R "gpu_fft_backends|gpu_two_gpus_fft" --output-on-failure >"$OUT/ctest_slabs.log" 2>&1)
    grep -E "Test +#|tests passed|tests failed" "$OUT/ctest_slabs.log" | tee -a "$SUM"
    grep -E "slabs|FAIL|max rel diff|worst" "$OUT/ctest_slabs.log" | cut -c1-200 | head -40 >>"$SUM"
    ;;
  gputests)
    (cd build-gpu && timeout 560 ctest -L gpu -j 3 --output-on-failure >"$OUT/ctest_gpu.log" 2>&1)
    grep -E "Test +#|tests passed|tests failed" "$OUT/ctest_gpu.log" | tee -a "$SUM"
    ;;
  cylval)
    timeout 120 /usr/bin/python3 tests/bodies/body_checks.py $BIN/navier "$W/cylval" bands cases/cylinder2d_re100.ini \
      cd_mean=1.30:1.40 cl_amplitude=0.30:0.36 st=0.160:0.170 -- run.backend=cuda output.fields_dt=0 \
      output.checkpoint_dt=0 >"$OUT/cylval.log" 2>&1
    note "validation_cylinder_re100 on the GPU: exit $? | $(tail -3 "$OUT/cylval.log" | tr '\n' ' ')"
    ;;
  api)
    for s in fft mg; do
      for r in 1 2; do
        g=256,256,$((256 * r))
        timeout 120 mpiexec -n $r --bind-to none $BIN/navier bench poisson --dim 3 --grid $g --bc neumann --solver $s \
          --tol 1e-6 --backend cuda --repeat 5 --json >"$W/api_${s}_$r.log" 2>&1
        note "api $s $g on $r GPU(s): exit $? | $(tail -1 "$W/api_${s}_$r.log" | /usr/bin/python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); print("solve %.3f ms, %d it, relres %.2e" % (1e3 * d["solve_s"], d["iterations"], d["relres"]))' 2>&1)"
      done
    done
    ;;
  transports)
    for spec in "weak 256,256,256 256,256,512 20" "strong 512,512,512 512,512,512 5"; do
      read -r label g1 g2 steps <<<"$spec"
      for k in a b; do
        step "${label}_1gpu_$k" 1 1,1,1 $C $(grid $g1) --set pressure.solver=auto --steps $steps
        for t in nccl cuda-ipc; do
          step "${label}_2gpu_${t}_$k" 2 1,1,2 $C $(grid $g2) --set pressure.solver=auto --set run.halo_transport=$t \
            --steps $steps
        done
      done
    done
    for k in a b; do
      for spec in "1gpu 1 256,256,256 auto" "2gpu_nccl 2 256,256,512 nccl" "2gpu_cuda-ipc 2 256,256,512 cuda-ipc"; do
        read -r label r g t <<<"$spec"
        timeout 120 mpiexec -n $r --bind-to none $BIN/navier bench poisson --dim 3 --grid $g --bc neumann --solver fft \
          --tol 1e-6 --backend cuda --repeat 9 --transport $t --json >"$W/api_${label}_$k.log" 2>&1
        note "api ${label}_$k: exit $? | $(tail -1 "$W/api_${label}_$k.log" | /usr/bin/python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); print("solve %.3f ms, relres %.2e" % (1e3 * d["solve_s"], d["relres"]))' 2>&1)"
      done
    done
    for t in nccl cuda-ipc; do
      timeout 100 mpiexec -n 2 --bind-to none $BIN/navier run $C --output "$W/prof_$t" --set run.backend=cuda \
        --set run.decomposition=1,1,2 $(grid 256,256,512) --set time.max_steps=40 --set output.fields_dt=0 \
        --set output.checkpoint_dt=0 --set run.halo_transport=$t --profile >"$OUT/prof_$t.log" 2>&1
      note "profile $t (ms per step): $(grep -E '^  (predictor|poisson|correction|halo|other) ' "$OUT/prof_$t.log" | awk '{printf "%s %s; ", $1, $4}')"
    done
    timeout 60 python3 bench/p2p_latency.py 2>&1 | grep -v -i warn | tee -a "$SUM"
    ;;
  variants)
    : "${VARIANTS:?part variants: set VARIANTS=\"label=path ...\" (navier binaries)}"
    solve_ms() { tail -1 "$1" | /usr/bin/python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); print("%.3f ms, relres %.1e" % (1e3 * d["solve_s"], d["relres"]))' 2>&1; }
    cases=("box 1 256,256,256 auto 0" "slabs1 1 256,256,256 auto 1" "nccl 2 256,256,512 nccl 0" "ipc 2 256,256,512 cuda-ipc 0")
    for k in $(seq "${ROUNDS:-2}"); do
      for v in $VARIANTS; do
        for spec in "${cases[@]}"; do
          read -r cl r g t sl <<<"$spec"
          log="$W/var_${v%%=*}_${cl}_$k.log"
          timeout 120 mpiexec -n "$r" --bind-to none -x NAV_FFT_SLABS="$sl" "${v#*=}" bench poisson --dim 3 --grid "$g" \
            --bc neumann --solver fft --tol 1e-6 --backend cuda --repeat 15 --transport "$t" --json >"$log" 2>&1
          note "variant ${v%%=*} $cl round $k: exit $? | $(solve_ms "$log")"
        done
      done
    done
    for v in $VARIANTS; do
      for spec in "${cases[@]}"; do
        read -r cl r g t sl <<<"$spec"
        timeout 120 mpiexec -n "$r" --bind-to none -x NAV_FFT_SLABS="$sl" -x NAV_SOLVE_EVENTS=1 "${v#*=}" bench poisson \
          --dim 3 --grid "$g" --bc neumann --solver fft --tol 1e-6 --backend cuda --repeat 15 --transport "$t" \
          >"$W/ev_${v%%=*}_$cl.log" 2>&1
        grep "^events rank" "$W/ev_${v%%=*}_$cl.log" | sed "s/^/timeline ${v%%=*} $cl: /" | tee -a "$SUM"
      done
      timeout --foreground 150 mpiexec -n 2 --bind-to none "${v#*=}" bench step --case $C --set run.backend=cuda \
        --set run.decomposition=1,1,2 $(grid 256,256,512) --set pressure.solver=auto --steps 10 --json \
        >"$W/varstep_${v%%=*}.log" 2>&1
      /usr/bin/python3 bench/step_line.py "$W/varstep_${v%%=*}.log" "weak_2gpu_${v%%=*}" "$?" | tee -a "$SUM"
    done
    ;;
  nvlink)
    /usr/bin/python3 - <<'PY' 2>&1 | tee -a "$SUM"
import cupy as cp, time
n = 256 << 20
with cp.cuda.Device(0):
    a = cp.ones(n, dtype=cp.uint8)
with cp.cuda.Device(1):
    b = cp.empty(n, dtype=cp.uint8)
for d in (0, 1):
    with cp.cuda.Device(d):
        for e in (0, 1):
            if e != d and cp.cuda.runtime.deviceCanAccessPeer(d, e):
                try:
                    cp.cuda.runtime.deviceEnablePeerAccess(e)
                except cp.cuda.runtime.CUDARuntimeError:
                    pass
def bw(reps=20):
    cp.cuda.runtime.memcpyPeer(b.data.ptr, 1, a.data.ptr, 0, n)
    cp.cuda.runtime.deviceSynchronize()
    t = time.perf_counter()
    for _ in range(reps):
        cp.cuda.runtime.memcpyPeer(b.data.ptr, 1, a.data.ptr, 0, n)
    with cp.cuda.Device(0):
        cp.cuda.runtime.deviceSynchronize()
    with cp.cuda.Device(1):
        cp.cuda.runtime.deviceSynchronize()
    return reps * n / (time.perf_counter() - t) / 1e9
print("peer copy GPU0 -> GPU1, 256 MiB: %.0f GB/s" % bw())
PY
    ;;
  steady)
    NAV_BACKEND=cuda PROJ_NAVIER=.carry/navier_74d732c PROJ_LIMIT_S=${PROJ_LIMIT_S:-40} \
      bash bench/steady_time.sh $BIN/navier "$W/steady1" cases/bdc3d_ra1e5.ini:bdc3d_ra1e5 >"$OUT/steady1.txt" 2>&1
    LAUNCH="mpiexec -n 2 --bind-to none" NAV_BACKEND=cuda PROJ_NAVIER=.carry/navier_74d732c \
      PROJ_LIMIT_S=${PROJ_LIMIT_S:-40} bash bench/steady_time.sh $BIN/navier "$W/steady2" \
      cases/bdc3d_ra1e5.ini:bdc3d_ra1e5 >"$OUT/steady2.txt" 2>&1
    for n in 1 2; do note "-- $n GPU(s)"; tail -n 4 "$OUT/steady$n.txt" | tee -a "$SUM"; done
    d=$(/usr/bin/python3 bench/final_fields_diff.py "$W/steady2/bdc3d_ra1e5_artificial_compressibility" \
      "$W/steady1/bdc3d_ra1e5_artificial_compressibility")
    note "AC steady state, 2 GPUs against 1: $d"
    ;;
  cylinder)
    cyl() { # LABEL SETS...
      local label=$1
      shift
      timeout 120 $BIN/navier run cases/cylinder2d_re100.ini --output "$W/cyl_$label" --set run.backend=cuda \
        --set output.fields_dt=0 --set output.checkpoint_dt=0 "$@" >"$W/cyl_$label.log" 2>&1
      /usr/bin/python3 -c "
import json,sys
s=json.load(open('$W/cyl_$label/summary.json')); b=s['bodies'][0]
print('cylinder $label: %s steps %s wall %.1f s: cd_mean %.4f cl_amplitude %.4f st %.5f' % (s['status'], s.get('steps'), s.get('wall_s', 0), b['cd_mean'], b['cl_amplitude'], b['st']))" 2>&1 | tee -a "$SUM"
    }
    cyl shipped
    cyl cfl025 --set time.cfl=0.25
    for L in 15 20 30; do
      n=$(grep -c '^[-0-9]' .carry/st/y$L.txt)
      cyl y$L --set grid.y_file="$PWD/.carry/st/y$L.txt" --set grid.ny=$((n - 1)) --set grid.y0=-$L --set grid.ly=$((2 * L))
    done
    ;;
  rans)
    R=cases/channel2d_rans_retau5200.ini
    OUT=$OUT bash bench/gpu_rans_x2.sh $BIN | tail -n 9 | tee -a "$SUM" # 12000^2 .. 6000^2 on 2 GPUs and 1
    step rans_6000_1gpu_nomodel 1 1,1,1 $R --set grid.nx=6000 --set grid.ny=6000 --set turbulence.model=off --steps 5
    step rans_6000_1gpu_tol1e-4 1 1,1,1 $R --set grid.nx=6000 --set grid.ny=6000 --set time.diffusion_tolerance=1e-4 --steps 5
    step rans_6000_1gpu_tol1e-2 1 1,1,1 $R --set grid.nx=6000 --set grid.ny=6000 --set time.diffusion_tolerance=1e-2 --steps 5
    timeout 120 $BIN/navier run $R --output "$W/rans_prof" --set run.backend=cuda --set grid.nx=6000 --set grid.ny=6000 \
      --set time.max_steps=8 --set output.fields_dt=0 --set output.checkpoint_dt=0 --profile >"$OUT/rans_profile.log" 2>&1
    grep -iE "predictor|poisson|correction|other|halo|per step|bytes" "$OUT/rans_profile.log" | head -20 | tee -a "$SUM"
    ;;
  scaling)
    # LABEL, the grid on 1 GPU, the grid on 2 GPUs (split along z), steps
    for spec in "weak 256,256,256 256,256,512 10" "strong512 512,512,512 512,512,512 5"; do
      read -r label g1 g2 steps <<<"$spec"
      for s in ${SOLVERS1:-auto mg}; do
        step "${label}_${s}_1gpu" 1 1,1,1 $C $(grid $g1) --set pressure.solver=$s --steps $steps
      done
      for s in ${SOLVERS2:-auto fft mg}; do
        step "${label}_${s}_2gpu" 2 1,1,2 $C $(grid $g2) --set pressure.solver=$s \
          --set run.halo_transport=${TRANSPORT:-auto} --steps $steps
      done
    done
    ;;
  esac
done
note "=== done in ${SECONDS}s"
cp "$SUM" "$OUT/summary_copy.txt" 2>/dev/null
