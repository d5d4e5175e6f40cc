#!/usr/bin/env bash
# The GPU measurements and checks of docs/performance.md, in parts of at most 10 minutes each.
#
#   bash bench/gpu.sh carry [BUILD_DIR]     on the development machine: copy the CUDA build tree (default
#                                           build-gpu), its test files and the host libraries it loads into
#                                           .carry/ (git-ignored), for a device machine without HDF5, inih, FFTW
#   bash bench/gpu.sh PART...               on the GPU machine, repository root, .carry carried: a table on
#                                           stdout and in $OUT/summary.txt (default OUT=/tmp/gpu), logs in $OUT
#
# Build: cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DNAV_ENABLE_HDF5=OFF -DNAV_ENABLE_PETSC=OFF \
#          -DCMAKE_CUDA_ARCHITECTURES=90 -DPython3_EXECUTABLE=/usr/bin/python3 && cmake --build build-gpu -j
# (the tests run the Python named at configure time by its path: a pyenv shim of this machine does not exist on the
# GPU machine, and the Python tests there are "Not Run")
# An FP32 build in .carry/single/ (-DNAV_SINGLE_PRECISION=ON, its navier carried beside) adds FP32 rows to poisson and step.
#
# Parts on one GPU:
#   tests      the gpu-labelled tests of the carried tree (ctest -L gpu; TESTS=REGEX runs ctest -R REGEX)
#   poisson    navier bench poisson, all-Neumann (and periodic, Dirichlet), random zero-mean right-hand side,
#              relative residual 1e-6, median of 5 solves: fft, mg V(2,2), mg mixed V(1,2) at 256^3; fft 128^3, 2D 1024^2
#   step       navier bench step (20 steps): the 3D cavity 256^3 (auto = fft, mg, mg mixed V(1,2)), the
#              Taylor-Green vortex 128^3 and 256^3, the 2D cavity 1024^2
#   profile    navier run --profile of the 3D cavity 256^3 (20 steps): phases and device bytes per cell
#   peers      CuPy's solves of the same problems on the same GPU (bench/gpu_peers.py) and the ratios
#   steady     time to steady_tol 1e-6 (bench/steady_time.sh): natural convection Ra 1e6 256^2, cavity Re 1000
#              and Re 3200 256^2, buoyancy cube Ra 1e5 64^3; artificial compressibility against the projection
#   bodies     the snake section (1704^2, Re 2000) per step with its body and without (body.1.kind = none)
#   les        the LES channel step (cases/channel3d_les_retau550.ini, 192 x 128 x 160 and 160 x 112 x 128; GRIDS="192,128,160"
#              for one) without a closure and with each, ROUNDS (default 3) rounds in turn: the median step, the
#              closure's share and kernels (bench step's rows); PREV=BINARY adds that binary's steps in the same rounds
#   jax        jax-cfd 0.2.1's step on the 3D Taylor-Green vortex (bench/jax_cfd_tgv.py; its wheels in .carry/wheels,
#              fetched by `carry`) against navier bench step's on the same problem, 128^3 and 256^3, FP64 and FP32
# Parts on 2 GPUs (one host; 1-GPU rows in the same call):
#   tests2     the 2-GPU and shared-GPU tests (ctest -R "two_gpus|four_ranks")
#   scaling2   the 3D cavity step, weak (256^3 per GPU) and strong (512^3), 1 and 2 GPUs, split along z,
#              pressure solvers SOLVERS (default "auto mg"), halo transport TRANSPORT (default auto)
#   transports the weak and strong cavity step over nccl and cuda-ipc, each twice in turn (the spread is the
#              noise), and the library's FFT solve (256^3 per GPU) on 1 GPU and on 2 over each
#   api        the Poisson library (app/bench_poisson_api.c): 4 ranks sharing 1 GPU and 2 ranks on 2 GPUs equal
#              to 1 rank (64^3, --check; shared memory and messages); 256^3 mg to 1e-8 on 1 rank (host and device arrays), 16 and 4 ranks
#              sharing 1 GPU, 2 ranks on 2 GPUs
#   nvlink     the peer copy bandwidth between GPU 0 and GPU 1 (CuPy, 256 MiB)
# For 1 to 8 GPUs (and CPU ranks) use bench/scaling.sh.
set -u
part0=${1:?usage: bash bench/gpu.sh carry [BUILD_DIR] | PART... (see the header)}

if [ "$part0" = carry ]; then # ---- on the development machine
  set -e
  B=${2:-build-gpu}
  [ -f "$B/CMakeCache.txt" ] || { echo "bench/gpu.sh carry: $B is not a CMake build tree" >&2; exit 2; }
  D=.carry/bg
  rm -rf "$D" .carry/lib
  mkdir -p "$D" .carry/lib
  # every file of the tree but the objects, static libraries and CMake's own work files
  (cd "$B" && find . -type f ! -name '*.o' ! -name '*.a' ! -path '*/CMakeFiles/*' ! -name 'Makefile' \
    ! -name 'CMakeCache.txt' ! -path './tests/scratch/*' ! -path './fuzz/*' ! -path './Testing/*' -print0 |
    tar --null -cf - -T -) | (cd "$D" && tar -xf -)
  (cd "$B" && find . -type l -print0 | tar --null -cf - -T -) | (cd "$D" && tar -xf -)
  readlink -f "$B" >"$D/.source_dir"
  # the peer of part jax: jax-cfd and tree-math from PyPI (the GPU machine has jax, numpy and scipy)
  [ -n "$(ls .carry/wheels/jax_cfd-0.2.1-*.whl 2>/dev/null)" ] ||
    python3 -m pip download -q --no-deps -d .carry/wheels jax-cfd==0.2.1 tree-math==0.2.1 ||
    echo "bench/gpu.sh carry: no jax-cfd wheels (part jax will skip its peer)" >&2
  git rev-parse --short HEAD >"$D/.commit"
  # the host libraries of Debian 12 that the device's Ubuntu lacks
  for l in libfftw3.so.3 libfftw3_omp.so.3 libinih.so.1 liblapack.so.3 libblas.so.3 libgfortran.so.5 libquadmath.so.0; do
    p=$(ldconfig -p | awk -v l="$l" '$1 == l && !n++ {print $NF}')
    if [ -n "$p" ]; then cp -L "$p" .carry/lib/; fi
  done
  du -sh .carry
  exit 0
fi

# ---- on the GPU machine: point the paths that the carried CTestTestfile.cmake names (the development
# machine's source and build directories) at this copy, load the carried libraries and NCCL
if [ -f .carry/bg/.source_dir ]; then
  src=$(cat .carry/bg/.source_dir)
  root=$(dirname "$src")
  if [ "$root" != "$PWD" ]; then
    mkdir -p "$(dirname "$root")"
    [ -e "$root" ] || ln -sfn "$PWD" "$root"
  fi
  [ -e "$PWD/$(basename "$src")" ] || ln -sfn "$PWD/.carry/bg" "$PWD/$(basename "$src")"
fi
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-8} OMP_WAIT_POLICY=passive
if ! ldconfig -p | grep -q libnccl.so.2 && [ -z "${NAV_NCCL_LIBRARY:-}" ]; then
  lib=$(find / -name 'libnccl.so.2' -not -path '/proc/*' 2>/dev/null | head -1)
  [ -n "$lib" ] && export NAV_NCCL_LIBRARY=$lib
fi
BIN=${BIN:-.carry/bg}
PY=$(command -v python3)
OUT=${OUT:-/tmp/gpu}
W=$OUT/runs
mkdir -p "$OUT" "$W"
SUM=$OUT/summary.txt
note() { echo "$*" | tee -a "$SUM"; }
note "$(nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c | xargs) | $(nproc --all) cores | binaries of $(cat $BIN/.commit 2>/dev/null || echo '(none carried)')"

C3=cases/cavity3d_re1000.ini
grid() { IFS=, read -r a b c <<<"$1"; echo "--set grid.nx=$a --set grid.ny=$b --set grid.nz=$c"; }
step_line() { # LOG LABEL RC: one line of a `navier bench step --json` log
  "$PY" - "$@" <<'PY'
import json, sys
log, label, rc = sys.argv[1:4]
text = open(log, errors="replace").read()
js = [l for l in text.splitlines() if l.startswith("{")]
if not js:
    print(f"{label}: exit {rc}, no result ({' | '.join(text.strip().splitlines()[-2:])})")
else:
    r = json.loads(js[-1])
    print(f"{label}: {r['backend']} ranks {r['ranks']} cells {r['cells']:.0f}: {1e3 * r['step_s']:.3f} ms per step, "
          f"{r['ns_per_cell_step']:.3f} ns/cell, pressure iterations/step {r['p_iterations_per_step']}")
PY
}
step() { # LABEL RANKS DECOMP NAVIER ARGS...: one `navier bench step` on RANKS GPUs
  local label=$1 ranks=$2 dec=$3 nav=$4
  shift 4
  local launch=()
  [ "$ranks" -gt 1 ] && launch=(mpiexec -n "$ranks" --bind-to none)
  timeout --foreground 200 "${launch[@]}" "$nav" bench step --set run.backend=cuda --set run.decomposition="$dec" \
    "$@" --json >"$W/step_$label.log" 2>&1
  step_line "$W/step_$label.log" "$label" "$?" | tee -a "$SUM"
}
poisson() { # LABEL RANKS NAVIER ARGS...: one `navier bench poisson` on the GPU
  local label=$1 ranks=$2 nav=$3
  shift 3
  timeout 200 mpiexec -n "$ranks" --bind-to none "$nav" bench poisson --backend cuda --tol 1e-6 --json "$@" \
    >"$W/poisson_$label.log" 2>&1
  local rc=$?
  echo "$label $(tail -1 "$W/poisson_$label.log")" >>"$OUT/bench.log"
  note "$label: exit $rc | $(tail -1 "$W/poisson_$label.log" | "$PY" -c 'import json,sys; d=json.loads(sys.stdin.read()); print("solve %.3f ms, %d it, relres %.2e, setup %.2f s" % (1e3*d["solve_s"], d["iterations"], d["relres"], d["setup_s"]))' 2>&1)"
}
api() { # NAME RANKS GPUS ARGS...: app/bench_poisson_api, OpenMP threads = cores / ranks, the first GPUS visible
  local name=$1 np=$2 ng=$3
  shift 3
  local th=$(($(nproc) / np))
  [ "$th" -lt 1 ] && th=1
  CUDA_VISIBLE_DEVICES=$(seq -s, 0 $((ng - 1))) OMP_NUM_THREADS=$th timeout 240 mpiexec -n "$np" --oversubscribe \
    --bind-to none "$BIN/bench_poisson_api" --backend cuda "$@" >"$W/api_$name.log" 2>&1
  note "api $name (exit $?): $(grep -E '^(api|check):' "$W/api_$name.log" | tr '\n' ' ')"
}

for part in "$@"; do
  note "=== $part"
  case $part in
  tests)
    if [ -n "${TESTS:-}" ]; then sel=(-R "$TESTS"); else sel=(-L gpu); fi
    (cd .carry/bg && timeout 560 ctest "${sel[@]}" --output-on-failure >"$OUT/ctest_gpu.log" 2>&1)
    grep -E "Test +#|tests passed|tests failed" "$OUT/ctest_gpu.log" | tee -a "$SUM"
    ;;
  tests2)
    (cd .carry/bg && timeout 560 ctest -R "${TESTS:-two_gpus|four_ranks}" --output-on-failure >"$OUT/ctest_2gpu.log" 2>&1)
    grep -E "Test +#|tests passed|tests failed" "$OUT/ctest_2gpu.log" | tee -a "$SUM"
    ;;
  poisson)
    for v in "" single; do
      nav=$BIN/navier fp=fp64
      if [ -n "$v" ]; then nav=.carry/single/navier fp=fp32; [ -x "$nav" ] || continue; fi
      poisson "${fp}_fft_256_neumann" 1 "$nav" --dim 3 --n 256 --solver fft --bc neumann --repeat 5
      poisson "${fp}_mg_256_neumann" 1 "$nav" --dim 3 --n 256 --solver mg --bc neumann --repeat 5
      poisson "${fp}_mg_mixed_256_neumann" 1 "$nav" --dim 3 --n 256 --solver mg --bc neumann --precision mixed \
        --smooth 1,2 --repeat 5
      poisson "${fp}_fft_256_periodic" 1 "$nav" --dim 3 --n 256 --solver fft --bc periodic --repeat 5
      poisson "${fp}_fft_256_dirichlet" 1 "$nav" --dim 3 --n 256 --solver fft --bc dirichlet --repeat 5
      poisson "${fp}_fft_128_neumann" 1 "$nav" --dim 3 --n 128 --solver fft --bc neumann --repeat 5
      poisson "${fp}_fft_2d_1024_neumann" 1 "$nav" --dim 2 --n 1024 --solver fft --bc neumann --repeat 5
    done
    ;;
  step)
    for v in "" single; do
      nav=$BIN/navier fp=fp64
      if [ -n "$v" ]; then nav=.carry/single/navier fp=fp32; [ -x "$nav" ] || continue; fi
      P="--set pressure.tolerance=1e-6 --steps 20"
      step "${fp}_cavity3d_256_auto" 1 1,1,1 "$nav" --case $C3 $(grid 256,256,256) $P --set pressure.solver=auto
      step "${fp}_cavity3d_256_mg" 1 1,1,1 "$nav" --case $C3 $(grid 256,256,256) $P --set pressure.solver=mg
      step "${fp}_cavity3d_256_mg_mixed" 1 1,1,1 "$nav" --case $C3 $(grid 256,256,256) $P --set pressure.solver=mg \
        --set pressure.precision=mixed --set pressure.pre_smooth=1
      for n in 128 256; do
        step "${fp}_taylor_green3d_$n" 1 1,1,1 "$nav" --case cases/taylor_green3d.ini $(grid $n,$n,$n) \
          --set physics.nu=1e-3 --set time.dt=0 --steps 20
      done
      step "${fp}_cavity2d_1024" 1 1,1,1 "$nav" --case cases/cavity2d_re100.ini --set grid.nx=1024 --set grid.ny=1024 \
        --set run.method=projection --set time.diffusion=explicit --set pressure.solver=auto $P
    done
    ;;
  profile)
    timeout 300 "$BIN/navier" run $C3 $(grid 256,256,256) --set run.backend=cuda --set time.max_steps=20 \
      --set output.fields_every=0 --set output.fields_dt=0 --set output.checkpoint_dt=0 --profile \
      --output "$W/profile" >"$OUT/profile.log" 2>&1
    note "profile: exit $?"
    grep -E '^  (predictor|poisson|correction|halo|other) |bytes per cell' "$OUT/profile.log" | tee -a "$SUM"
    ;;
  peers)
    [ -s "$OUT/bench.log" ] || note "peers: run part poisson first in the same call (the ratios need its lines)"
    timeout 240 "$PY" bench/gpu_peers.py 256 5 >"$OUT/peers.log" 2>&1
    note "gpu_peers: exit $?"
    grep -v '^{' "$OUT/peers.log" | tail -8 | tee -a "$SUM"
    [ -s "$OUT/bench.log" ] && "$PY" bench/peer_ratios.py "$OUT/bench.log" "$OUT/peers.log" | tee -a "$SUM"
    ;;
  steady)
    NAV_BACKEND=cuda PROJ_LIMIT_S=${PROJ_LIMIT_S:-180} timeout 570 bash bench/steady_time.sh "$BIN/navier" "$W/steady" \
      cases/natconv2d_ra1e6.ini:natconv_ra1e6_256:grid.nx=256,grid.ny=256 cases/cavity2d_re1000.ini:cavity_re1000_256 \
      cases/cavity2d_re1000.ini:cavity_re3200_256:physics.nu=3.125e-4 cases/bdc3d_ra1e5.ini:bdc3d_ra1e5 \
      >"$OUT/steady.txt" 2>&1
    note "steady: exit $?"
    grep -v '^{' "$OUT/steady.txt" | tail -n 12 | tee -a "$SUM"
    ;;
  les)
    # the closure's share of the LES channel step: no closure and each closure, ROUNDS rounds (default 3) taken in
    # turn (round r of every closure before round r + 1: a slow spell of the GPU hits all alike), on the case's
    # grid and on 160 x 112 x 128 (PREV=BINARY: that binary's steps in the same rounds); then per grid, closure
    # and binary the median step, its share over the median without a closure, and the closure's kernels
    L5=cases/channel3d_les_retau550.ini
    for g in ${GRIDS:-192,128,160 160,112,128}; do
      for r in $(seq 1 "${ROUNDS:-3}"); do
        for m in off smagorinsky wale vreman; do
          for b in new ${PREV:+prev}; do
            nav=$BIN/navier; [ $b = prev ] && nav=$PREV
            step "les550_${g//,/x}_${m}_${b}_r$r" 1 1,1,1 "$nav" --case $L5 $(grid $g) --steps 200 \
              --set statistics.enabled=false --set turbulence.model=$m >/dev/null
          done
        done
      done
      "$PY" - "$W" "${g//,/x}" <<'PY' | tee -a "$SUM"
import glob, json, os, statistics, sys
w, g = sys.argv[1:3]
runs = {}
for f in sorted(glob.glob(os.path.join(w, f"step_les550_{g}_*_r*.log"))):
    m, b = os.path.basename(f)[len(f"step_les550_{g}_"):].split("_")[:2]
    js = [l for l in open(f, errors="replace") if l.startswith("{")]
    if js:
        runs.setdefault((m, b), []).append(json.loads(js[-1]))
for (m, b), rs in sorted(runs.items()):
    step = statistics.median(1e3 * r["step_s"] for r in rs)
    off = runs.get(("off", b))
    share = "" if m == "off" or not off else " (+%.1f %%)" % (
        100 * (step / statistics.median(1e3 * r["step_s"] for r in off) - 1))
    k = [r["kernels"] for r in rs]
    names = ("momentum_advance", "nut (model)", "viscosity_changed", "advance_stress")
    kern = ", ".join("%s %.1f us" % (n, 1e6 * statistics.median(x[n]["s"] for x in k)) for n in names if n in k[0])
    print(f"les550 {g} {m} {b}: median of {len(rs)} {step:.4f} ms{share}; {kern}")
PY
    done
    ;;
  bodies)
    S=cases/snake2d_re2000_aoa35.ini
    step snake_sharp 1 1,1,1 "$BIN/navier" --case $S --steps 2000
    step snake_nobody 1 1,1,1 "$BIN/navier" --case $S --set body.1.kind=none --steps 2000
    ;;
  jax)
    JW=$W/pyjax
    rm -rf "$JW"
    if ls .carry/wheels/*.whl >/dev/null 2>&1 && "$PY" -m pip install -q --no-deps --no-index --target "$JW" .carry/wheels/*.whl; then
      for fp in fp64 fp32; do
        flag=; [ $fp = fp32 ] && flag=--fp32
        PYTHONPATH=$JW timeout 300 "$PY" bench/jax_cfd_tgv.py 128 256 $flag >"$W/jax_$fp.log" 2>&1
        note "jax-cfd $fp (exit $?): $(grep '^{' "$W/jax_$fp.log" | "$PY" -c 'import json,sys; print("; ".join("%d^3 %.3f ms (E_k %.4f)" % (d["n"], d["step_ms"], d["kinetic_energy"]) for d in map(json.loads, sys.stdin)))')"
      done
    else
      note "jax: no jax-cfd wheels in .carry/wheels (bash bench/gpu.sh carry fetches them), peer skipped"
    fi
    for v in "" single; do
      nav=$BIN/navier fp=fp64
      if [ -n "$v" ]; then nav=.carry/single/navier fp=fp32; [ -x "$nav" ] || continue; fi
      for n in 128 256; do
        step "${fp}_taylor_green3d_$n" 1 1,1,1 "$nav" --case cases/taylor_green3d.ini $(grid $n,$n,$n) \
          --set physics.nu=1e-3 --set time.dt=0 --steps 20
      done
    done
    ;;
  scaling2)
    for spec in "weak 256,256,256 256,256,512 10" "strong512 512,512,512 512,512,512 5"; do
      read -r label g1 g2 steps <<<"$spec"
      for s in ${SOLVERS:-auto mg}; do
        step "${label}_${s}_1gpu" 1 1,1,1 "$BIN/navier" --case $C3 $(grid $g1) --set pressure.solver=$s --steps $steps
        step "${label}_${s}_2gpu" 2 1,1,2 "$BIN/navier" --case $C3 $(grid $g2) --set pressure.solver=$s \
          --set run.halo_transport=${TRANSPORT:-auto} --steps $steps
      done
    done
    ;;
  transports)
    for spec in "weak 256,256,256 256,256,512 20" "strong 512,512,512 512,512,512 5"; do
      read -r label g1 g2 steps <<<"$spec"
      for k in a b; do
        step "${label}_1gpu_$k" 1 1,1,1 "$BIN/navier" --case $C3 $(grid $g1) --steps $steps
        for t in nccl cuda-ipc; do
          step "${label}_2gpu_${t}_$k" 2 1,1,2 "$BIN/navier" --case $C3 $(grid $g2) --set run.halo_transport=$t \
            --steps $steps
        done
      done
    done
    for k in a b; do
      poisson "fft_1gpu_$k" 1 "$BIN/navier" --dim 3 --grid 256,256,256 --bc neumann --solver fft --repeat 9
      for t in nccl cuda-ipc; do
        poisson "fft_2gpu_${t}_$k" 2 "$BIN/navier" --dim 3 --grid 256,256,512 --bc neumann --solver fft --repeat 9 \
          --transport $t
      done
    done
    ;;
  api)
    api eq_4on1 4 1 --n 64 --ranks-per-solver 4 --check --repeat 1
    api eq_4on1_msg 4 1 --n 64 --ranks-per-solver 4 --gather messages --check --repeat 1
    api eq_4on1_fft 4 1 --n 64 --ranks-per-solver 4 --solver fft --check --repeat 1
    [ "$(nvidia-smi -L | wc -l)" -ge 2 ] && api eq_2on2 2 2 --n 64 --ranks-per-solver 1 --check --repeat 1
    api t_1 1 1 --n 256 --repeat 5
    api t_1dev 1 1 --n 256 --memory device --repeat 5
    api t_16on1 16 1 --n 256 --ranks-per-solver 16 --repeat 3
    api t_16on1_zc 16 1 --n 256 --ranks-per-solver 16 --zero-copy --repeat 5
    api t_4on1 4 1 --n 256 --ranks-per-solver 4 --repeat 3
    [ "$(nvidia-smi -L | wc -l)" -ge 2 ] && api t_2on2 2 2 --n 256 --ranks-per-solver 1 --repeat 3
    ;;
  nvlink)
    "$PY" - <<'PY' 2>&1 | tee -a "$SUM"
import time
import cupy as cp
n = 256 << 20
with cp.cuda.Device(0):
    a = cp.ones(n, dtype=cp.uint8)
with cp.cuda.Device(1):
    b = cp.empty(n, dtype=cp.uint8)
for d, e in ((0, 1), (1, 0)):
    with cp.cuda.Device(d):
        try:
            cp.cuda.runtime.deviceEnablePeerAccess(e)
        except cp.cuda.runtime.CUDARuntimeError:
            pass
cp.cuda.runtime.memcpyPeer(b.data.ptr, 1, a.data.ptr, 0, n)
for d in (0, 1):
    with cp.cuda.Device(d):
        cp.cuda.runtime.deviceSynchronize()
t = time.perf_counter()
for _ in range(20):
    cp.cuda.runtime.memcpyPeer(b.data.ptr, 1, a.data.ptr, 0, n)
for d in (0, 1):
    with cp.cuda.Device(d):
        cp.cuda.runtime.deviceSynchronize()
print("peer copy GPU0 -> GPU1, 256 MiB: %.0f GB/s" % (20 * n / (time.perf_counter() - t) / 1e9))
PY
    ;;
  *) note "unknown part $part (see the header of bench/gpu.sh)" ;;
  esac
done
note "=== done in ${SECONDS}s"
